"""The browser board (``canasta-sim board``, docs/board.md): a local web app that replays
deals, analyses decisions and edits positions, and the static export of one deal
(``canasta-sim replay RUN --deal K --html FILE``).

The server needs the optional extra ``board`` (Starlette and uvicorn); the frames and the
export need nothing beyond the package.
"""
