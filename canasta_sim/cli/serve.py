"""The ``board`` command: the browser board's local server (docs/board.md)."""

from __future__ import annotations

import socket
from pathlib import Path

import click

from ..errors import missing_extra
from .options import Integer, api_errors, integer_option

#: The address the board binds: this machine only.
HOST = "127.0.0.1"


@click.command()
@click.argument("run_folders", nargs=-1, type=click.Path(path_type=Path))
@integer_option(
    "--port",
    Integer(0, 65535),
    0,
    help="Port on 127.0.0.1 (0: a free port, printed).",
)
@click.option(
    "--positions",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder the position editor saves position files into and reads them from "
    "(default: none, the page offers a download).",
)
def board(run_folders, port, positions):
    """Serve the browser board on 127.0.0.1: replay the deals of RUN_FOLDERS (or of a seed),
    analyse their decisions, edit positions. Prints the address; opens nothing by itself.
    Needs the extra board: pip install -e ".[board]" in the checkout."""
    try:
        import uvicorn

        from ..board.app import create_app
    except ImportError as exc:
        raise click.UsageError(str(missing_extra("the board", "board", exc))) from None
    with api_errors("RUN_FOLDERS"):
        app = create_app(run_folders, positions)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
    except OSError as exc:
        sock.close()
        raise click.BadParameter(f"{port}: {exc.strerror}", param_hint=["--port"]) from None
    click.echo(f"canasta-sim board: http://{HOST}:{sock.getsockname()[1]}/ (Ctrl-C stops it)")
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    server.run(sockets=[sock])
