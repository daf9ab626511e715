"""The board's web app (Starlette, an ASGI framework; served by uvicorn, docs/board.md).

Safe by default: the app reads only the run folders it was given (the page names them by
their number in that list, never by a path) and writes only position files into the folder
given with ``--positions``; a request whose Host header is not the local address is refused
(a web page elsewhere cannot reach the app through DNS rebinding); bot specs from the page
name built-in bots only (a ``py:`` spec would load Python code); bad requests get a JSON
error naming the value and what is allowed, never a traceback.

Endpoints (JSON unless said otherwise; the play and game ones are :mod:`.play_routes`', the
request checks :mod:`.requests`', what the app keeps :class:`~.kept.Board`):

- ``GET /``: the page; ``GET /static/...``: its script and style; ``GET /rules``: the rule
  book (package data, ``scripts/board_rules.py``).
- ``GET /api/runs``: the run folders given; ``GET /api/run/R/summary``: run R's statistics
  table, the play it describes and the numbers of its report's figures (:mod:`.run_stats`).
- ``GET /api/deal?run=R&deal=K`` or ``?seed=S&deal=K&players=P&bots=SPEC``: a deal's frames.
- ``GET /api/position?run=R&deal=K&turn=T&decision=D`` (or the seed form): the position
  mapping of the seat to play at that decision.
- ``GET /api/report?run=R&deal=K&turn=T&decision=D`` (or the seed form): the hand's report,
  the files ``position.json`` (that position) and ``trace.jsonl`` (the deal's trace) as text.
  These three replay the deal in the board's worker process (:class:`~.jobs.PageWorker`): the
  server answers other requests meanwhile, and a request the page closes (it opened another
  deal, or cancelled) ends the replay.
- ``POST /api/analyse`` ``{at: {run, deal, turn, decision} | position | play | review,
  worlds, seed, rollout}``:
  starts an analysis; ``GET /api/jobs/ID`` its state and answer; ``DELETE /api/jobs/ID``
  cancels it.
- ``POST /api/play`` ``{seed, deal, players, bots, seat}``: a game against the bots; or
  ``{..., opponents, partner}`` instead of ``bots``: levels by name (``GET /api/levels``:
  the levels, weakest first, :mod:`.levels`); the partner's level defaults to the opponents'.
  With ``practice: true`` the bots wait after each of the user's turns: ``POST
  /api/play/ID/undo`` takes back the user's last action of the turn (:func:`.session.undo`),
  ``POST /api/play/ID/done`` lets the bots play on.
  ``GET /api/play/ID`` what the user sees; ``POST /api/play/ID/act`` ``{action}``: one of
  the environment's actions (an illegal one: 400 with its rule id, ``{error, rule}``; the page
  links the rule in ``GET /rules``, the rule book generated from docs/RULES.md with an
  anchor per rule id). ``GET /api/play/ID/report?turn=T&decision=D``: once the deal is over,
  the report of the user's hand at one of the user's decisions; once the deal is over, the
  view's ``skill`` is the user's result beside the bot of the user's seat's with the same
  cards (:mod:`.skill`). ``play: ID`` in an
  analysis request is a hint at the user's decision, ``review: ID`` the deal's review.
- ``POST /api/game`` ``{seed, players, bots | opponents, partner, seat, target, practice}``:
  a whole game against the bots to ``target`` (default the rules', R-55; :mod:`.whole_game`); ``GET
  /api/game/ID`` what the user sees, with the score sheet and the game's ``record``;
  ``POST /api/game/ID/act`` ``{action}`` as for a deal; ``POST /api/game/ID/next``: the
  next deal, once the one at the table is over; ``POST /api/game/ID/undo`` and ``/done`` as
  for a deal in practice; ``GET /api/game/ID/trace?deal=J``: the
  trace of deal J once it is over; ``POST /api/game/resume`` ``{seed, players, bots, seat,
  target, moves, practice, undos}``: the game of a record (its address) played again. The
  deal at the table is also a play session (the answer's ``play``) for its hint, review and
  hand's report.
- ``POST /api/check-position`` ``{position}``: the position checked (as ``analyse`` reads it).
- ``GET /api/positions``, ``GET /api/positions/NAME``, ``PUT /api/positions/NAME``
  ``{position}``: the position files of the ``--positions`` folder.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import BadArgument
from ..nb.engine.rng import SEED_SPAN
from ..run.address import RunAddress
from .export import STATIC
from .jobs import Busy, Cancelled
from .kept import Board
from .levels import LEVELS
from .pages import page_rollout
from .play_routes import PLAY_ROUTES, play_session
from .requests import bad, deal_source, decision_params, int_param, read_body

#: Host header values the app answers (with any port).
HOSTS = ("127.0.0.1", "localhost")
#: A Host header: a name and an optional port of digits (nothing after them: ``NAME:PORT@x``
#: is refused, not read as NAME).
_HOST = re.compile(r"(?P<name>[^:@/]+)(?::\d{1,5})?")
#: A position file's name: letters, digits, ``-`` and ``_`` (the page never names a path).
POSITION_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
MAX_WORLDS = 100_000


async def page(request: Request):
    return FileResponse(STATIC / "board.html", media_type="text/html")


async def rules(request: Request):
    return FileResponse(STATIC / "rules.html", media_type="text/html")


async def list_levels(request: Request):
    return JSONResponse([level._asdict() for level in LEVELS])


async def list_runs(request: Request):
    board: Board = request.app.state.board
    from ..results.run_folder import read_manifest

    out = []
    for i, folder in enumerate(board.runs):
        manifest = read_manifest(folder)
        first = int(manifest.get("first_deal", 0))
        out.append(
            {
                "run": i,
                "name": str(folder),
                "players": manifest["rules"]["players"],
                "first_deal": first,
                "deals": int(manifest.get("deals", 0)),
                "seats": manifest.get("seats") or manifest.get("bots"),
            }
        )
    return JSONResponse(out)


async def run_statistics(request: Request):
    from .run_stats import run_summary

    board: Board = request.app.state.board
    if not board.runs:
        raise BadArgument("run", "no run folders were given to canasta-sim board")
    run = int_param(request.path_params["run"], "run", 0, len(board.runs) - 1)
    return JSONResponse(await run_in_threadpool(run_summary, board.runs[run]))


async def deal(request: Request):
    board: Board = request.app.state.board
    source = deal_source(board.runs, request.query_params)
    return JSONResponse(await board.replay(source, request.is_disconnected))


async def position(request: Request):
    board: Board = request.app.state.board
    params = request.query_params
    ask = {"position": deal_source(board.runs, params), **decision_params(params)}
    return JSONResponse(await board.worker.call(ask, request.is_disconnected))


async def hand_report(request: Request):
    board: Board = request.app.state.board
    params = request.query_params
    ask = {"report": deal_source(board.runs, params), **decision_params(params)}
    return JSONResponse(await board.worker.call(ask, request.is_disconnected))


async def start_analysis(request: Request):
    board: Board = request.app.state.board
    data = await read_body(request)
    job = {
        "worlds": int_param(data.get("worlds", 200), "worlds", 1, MAX_WORLDS),
        "seed": int_param(data.get("seed", 0), "seed", 0, SEED_SPAN - 1),
        "rollout": page_rollout(data.get("rollout", "expert")),
    }
    if "play" in data:  # a hint: the user's decision in a play session
        session = play_session(board, data["play"])
        deal = session.deal
        if deal.is_over or deal.current_player != session.you:
            raise BadArgument("play", "a hint is for your own turn")
        job["position"] = _position_of(deal.info_set(session.you))
    elif "review" in data:  # the review of a play session's deal, once it is over
        session = play_session(board, data["review"])
        if not session.deal.is_over:
            raise BadArgument("review", "the review comes at the end of the deal")
        job["review"] = {
            "source": session.source,
            "you": session.you,
            "actions": session.actions,
            "undos": session.undos,  # a practice deal's review says so
        }
    elif "position" in data:
        job["position"] = _checked_position(data["position"])
    else:
        at = data.get("at")
        if not isinstance(at, dict):
            raise BadArgument("at", "give at (the run, deal, turn and decision) or position")
        source = deal_source(board.runs, at)
        if "folder" not in source:
            raise BadArgument("run", "analysis of a deal needs a run folder (or a position)")
        turn = int_param(at.get("turn", 0), "turn", 0, 100_000)
        decision = int_param(at.get("decision", 0), "decision", 0, 1)
        job["address"] = RunAddress(Path(source["folder"]), source["deal"], turn, decision)
    try:
        job_id = board.jobs.start(job)
    except Busy as exc:
        return bad(str(exc), 409)
    return JSONResponse({"job": job_id, "state": "running"})


def _job_id(request: Request) -> str:
    job_id = request.path_params["job"]
    if not job_id.isdigit():
        raise HTTPException(404, f"no analysis {job_id!r}")
    return job_id


async def job_status(request: Request):
    board: Board = request.app.state.board
    try:
        return JSONResponse(board.jobs.status(_job_id(request)))
    except KeyError:
        return bad(f"no analysis {request.path_params['job']!r}", 404)


async def job_cancel(request: Request):
    board: Board = request.app.state.board
    try:
        return JSONResponse(board.jobs.cancel(_job_id(request)))
    except KeyError:
        return bad(f"no analysis {request.path_params['job']!r}", 404)


def _given_position(data: dict):
    """The request's ``position``; a body that is a position itself, not wrapped, is refused
    with the form to send."""
    if "position" not in data:
        raise BadArgument(
            "position",
            f'the body needs a "position" key: {{"position": {{...the keys of a position '
            f"file...}}}}; got the keys {sorted(data)}",
        )
    return data["position"]


def _checked_position(data) -> dict:
    """A position mapping from the page, checked as ``analyse`` reads it."""
    from ..game.infoset import InfoSet

    return _position_of(InfoSet.from_dict(data))


def _position_of(info) -> dict:
    from ..game.positions import position_mapping

    return position_mapping(info)


async def check_position(request: Request):
    data = await read_body(request)
    return JSONResponse({"position": _checked_position(_given_position(data))})


def _positions_folder(board: Board) -> Path:
    if board.positions is None:
        raise HTTPException(
            404, "no --positions folder was given to canasta-sim board: save as a download"
        )
    return board.positions


def _position_name(request: Request) -> str:
    name = request.path_params["name"]
    if not POSITION_NAME.fullmatch(name):
        raise BadArgument(
            "name", f"name={name!r} is not allowed; allowed: 1 to 64 letters, digits, - and _"
        )
    return name


async def list_positions(request: Request):
    folder = _positions_folder(request.app.state.board)
    names = sorted(p.stem for p in folder.glob("*.json") if POSITION_NAME.fullmatch(p.stem))
    return JSONResponse({"positions": names})


async def read_saved_position(request: Request):
    folder = _positions_folder(request.app.state.board)
    name = _position_name(request)
    path = folder / f"{name}.json"
    if not path.is_file():
        return bad(f"no position {name!r} in the positions folder", 404)
    from ..game.positions import read_position

    return JSONResponse({"name": name, "position": _checked_position(read_position(path))})


async def save_position(request: Request):
    folder = _positions_folder(request.app.state.board)
    name = _position_name(request)
    data = await read_body(request)
    checked = _checked_position(_given_position(data))
    (folder / f"{name}.json").write_text(json.dumps(checked, indent=2) + "\n")
    return JSONResponse({"name": name, "file": f"{name}.json", "position": checked})


class LocalHostOnly:
    """ASGI middleware refusing a request whose Host header is not one of :data:`HOSTS` (a
    page elsewhere reaching the board by DNS rebinding), with the API's JSON error; starlette's
    ``TrustedHostMiddleware`` does the same check but answers in plain text."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            host = Headers(scope=scope).get("host", "")
            name = _HOST.fullmatch(host)
            if name is None or name["name"].lower() not in HOSTS:
                refused = bad(
                    f"Host header {host!r} refused: the board answers this machine only; "
                    f"allowed: {' or '.join(HOSTS)} (with any port)"
                )
                await refused(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def _value_error(request: Request, exc: Exception):
    return bad(str(exc))


async def _http_error(request: Request, exc: Exception):
    assert isinstance(exc, HTTPException)
    return bad(str(exc.detail), exc.status_code)


async def _cancelled(request: Request, exc: Exception):
    # nobody reads it: the page closed the request (499: "client closed request")
    return bad(str(exc), 499)


async def _server_error(request: Request, exc: Exception):
    logging.getLogger(__name__).error("%s %s", request.url.path, exc, exc_info=exc)
    return bad(f"the board failed on this request: {type(exc).__name__}", 500)


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette):
    yield
    app.state.board.jobs.close()  # no analysis outlives the server
    app.state.board.worker.close()


def _check_run(folder: Path) -> None:
    """Check at start-up that ``folder`` is a run folder the board lists and replays, so one
    corrupt folder is named at once instead of failing ``/api/runs`` for every run."""
    from ..results.run_folder import check_entries, read_manifest

    try:
        manifest = read_manifest(folder)
        count = "games" if "games" in manifest else "deals"
        check_entries(manifest, folder, ("rules", "seed", count))
        if not isinstance(manifest["rules"], dict) or "players" not in manifest["rules"]:
            raise ValueError(
                f"{str(folder / 'manifest.json')!r}: its rules name no players; allowed: the "
                f"manifest.json a run wrote"
            )
    except ValueError as exc:
        raise BadArgument("run_folders", str(exc)) from None


def create_app(runs, positions=None) -> Starlette:
    """The board's ASGI app.

    Parameters
    ----------
    runs : list of path-like
        The run folders the page may read (each checked to hold a ``manifest.json``).
    positions : path-like, optional
        The folder position files are saved into and read from.

    Raises
    ------
    BadArgument
        For a run folder whose manifest is missing, unreadable or lacks the entries the board
        reads (a tune folder among them: it holds no deals), or a positions folder that is not
        a folder.
    """
    folders = [Path(r) for r in runs]
    for folder in folders:
        _check_run(folder)
    if positions is not None and not Path(positions).is_dir():
        raise BadArgument("positions", f"{str(positions)!r} is not a folder")
    board = Board(folders, None if positions is None else Path(positions))
    routes = [
        Route("/", page),
        Route("/rules", rules),
        Route("/api/levels", list_levels),
        Route("/api/runs", list_runs),
        Route("/api/run/{run}/summary", run_statistics),
        Route("/api/deal", deal),
        Route("/api/position", position),
        Route("/api/report", hand_report),
        Route("/api/analyse", start_analysis, methods=["POST"]),
        Route("/api/jobs/{job}", job_status, methods=["GET"]),
        Route("/api/jobs/{job}", job_cancel, methods=["DELETE"]),
        Route("/api/check-position", check_position, methods=["POST"]),
        *PLAY_ROUTES,
        Route("/api/positions", list_positions),
        Route("/api/positions/{name}", read_saved_position, methods=["GET"]),
        Route("/api/positions/{name}", save_position, methods=["PUT"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(LocalHostOnly)],
        exception_handlers={
            ValueError: _value_error,
            HTTPException: _http_error,
            Cancelled: _cancelled,
            Exception: _server_error,
        },
        lifespan=_lifespan,
    )
    app.state.board = board
    return app
