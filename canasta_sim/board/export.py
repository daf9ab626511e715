"""The static export of one deal (``canasta-sim replay RUN --deal K --html FILE``): the board's
page with its script, style and the deal's frames inlined into one HTML file that needs no
server and no network (docs/board.md)."""

from __future__ import annotations

import json
from pathlib import Path

from .frames import DealReplay

STATIC = Path(__file__).parent / "static"
_STYLE = '<link rel="stylesheet" href="/static/board.css">'
_SCRIPT = '<script src="/static/board.js"></script>'


def deal_html(replay: DealReplay) -> str:
    """One self-contained HTML page that replays ``replay`` (steps, arrow keys, every hand or
    one seat's view, the move log); no analysis or editor (they need the server)."""
    page = (STATIC / "board.html").read_text()
    style = (STATIC / "board.css").read_text()
    script = (STATIC / "board.js").read_text()
    # "</" inside a script element would end it: JSON allows "<\/" for it
    data = json.dumps({"deal": replay.to_dict()}).replace("</", "<\\/")
    for tag in (_STYLE, _SCRIPT):
        if tag not in page:
            raise RuntimeError(f"board.html lost its tag {tag!r}; the export inlines it")
    page = page.replace(_STYLE, f"<style>\n{style}</style>")
    return page.replace(
        _SCRIPT,
        f"<script>window.BOARD_EMBED = {data};</script>\n<script>\n{script}</script>",
    )


def write_deal_html(replay: DealReplay, path) -> Path:
    """Write :func:`deal_html` to ``path`` (UTF-8) and return it."""
    path = Path(path)
    path.write_text(deal_html(replay), encoding="utf-8")
    return path
