"""The board's web app (Starlette, an ASGI framework; served by uvicorn, docs/board.md).

Safe by default: the app reads only the run folders it was given (the page names them by
their number in that list, never by a path) and writes only position files into the folder
given with ``--positions``; a request whose Host header is not the local address is refused
(a web page elsewhere cannot reach the app through DNS rebinding); bot specs from the page
name built-in bots only (a ``py:`` spec would load Python code); bad requests get a JSON
error naming the value and what is allowed, never a traceback.

Endpoints (JSON unless said otherwise):

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
  the report of the user's hand at one of the user's decisions. ``play: ID`` in an
  analysis request is a hint at the user's decision, ``review: ID`` the deal's review.
- ``POST /api/game`` ``{seed, players, bots | opponents, partner, seat, target, practice}``:
  a whole game against the bots to ``target`` (default the rules', R-55; :mod:`.games`); ``GET
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
import itertools
import json
import logging
import re
from collections import OrderedDict
from dataclasses import dataclass, field
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

from ..errors import BadArgument, IllegalMove
from ..game.rules import MAX_TARGET, PLAYER_TABLE
from ..players.specs import split_bot_list
from ..run.address import RunAddress
from .export import STATIC
from .jobs import Busy, Cancelled, Jobs, PageWorker
from .levels import LEVELS, level_seats
from .pages import page_bot, page_rollout

#: Host header values the app answers (with any port).
HOSTS = ("127.0.0.1", "localhost")
#: A Host header: a name and an optional port of digits (nothing after them: ``NAME:PORT@x``
#: is refused, not read as NAME).
_HOST = re.compile(r"(?P<name>[^:@/]+)(?::\d{1,5})?")
#: A position file's name: letters, digits, ``-`` and ``_`` (the page never names a path).
POSITION_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
MAX_WORLDS = 100_000
MAX_BODY = 100_000  # bytes of a request's JSON body
CACHED_DEALS = 32
PLAYS = 16  # play sessions kept
GAMES = 16  # whole games kept (a game left longer resumes from its address)


@dataclass
class Board:
    """What one app serves.

    Attributes
    ----------
    runs : list of pathlib.Path
        The run folders given, numbered from 0 as the page names them.
    positions : pathlib.Path or None
        The folder position files are saved into and read from (None: saving only as a
        browser download).
    """

    runs: list[Path]
    positions: Path | None = None
    jobs: Jobs = field(default_factory=Jobs)
    worker: PageWorker = field(default_factory=PageWorker)
    plays: OrderedDict = field(default_factory=OrderedDict)
    games: OrderedDict = field(default_factory=OrderedDict)
    _deals: OrderedDict = field(default_factory=OrderedDict)
    _play_ids: itertools.count = field(default_factory=lambda: itertools.count(1))
    _game_ids: itertools.count = field(default_factory=lambda: itertools.count(1))

    async def replay(self, source: dict, gone) -> dict:
        """The frames of the deal ``source`` names (:func:`_source`), replayed by the page
        worker (``gone`` as :meth:`PageWorker.call` takes it) and kept for the last
        :data:`CACHED_DEALS` deals asked for."""
        key = tuple(sorted((k, str(v)) for k, v in source.items()))
        if key not in self._deals:
            self._deals[key] = await self.worker.call({"deal": source}, gone)
            if len(self._deals) > CACHED_DEALS:
                self._deals.popitem(last=False)
        self._deals.move_to_end(key)
        return self._deals[key]

    def add_play(self, session) -> str:
        """Keep a play session (the last :data:`PLAYS` started); its id."""
        play_id = str(next(self._play_ids))
        self.plays[play_id] = session
        if len(self.plays) > PLAYS:
            self.plays.popitem(last=False)
        return play_id

    def play_id(self, session) -> str:
        """The id of a play session kept, kept anew (:meth:`add_play`) when it is not (a
        game's new deal, or one pushed out by later sessions)."""
        for play_id, kept in self.plays.items():
            if kept is session:
                return play_id
        return self.add_play(session)

    def add_game(self, game) -> str:
        """Keep a whole game (the last :data:`GAMES` started or resumed); its id."""
        game_id = str(next(self._game_ids))
        self.games[game_id] = game
        if len(self.games) > GAMES:
            self.games.popitem(last=False)
        return game_id


def bad(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _int(value, name: str, low: int, high: int) -> int:
    """``value`` (text or JSON number) as an integer in ``low .. high``.

    Raises
    ------
    BadArgument
        Naming ``name`` and the allowed range.
    """
    allowed = f"allowed: an integer from {low} to {high}"
    # a JSON number is never a float here: 1.5 is no count, and 1e400 reads as inf
    if isinstance(value, (bool, float)) or value is None:
        raise BadArgument(name, f"{name}={value!r} is not allowed; {allowed}")
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise BadArgument(name, f"{name}={value!r} is not allowed; {allowed}") from None
    if not low <= number <= high:
        raise BadArgument(name, f"{name}={value!r} is not allowed; {allowed}")
    return number


def _players(value) -> int:
    """``value`` as a player count of section 2's table (R-10).

    Raises
    ------
    BadArgument
        Naming ``players`` and every allowed count.
    """
    try:
        players = _int(value, "players", min(PLAYER_TABLE), max(PLAYER_TABLE))
    except BadArgument:
        players = None
    if players not in PLAYER_TABLE:
        *most, last = PLAYER_TABLE
        allowed = f"{', '.join(map(str, most))} or {last}"
        raise BadArgument("players", f"players={value} is not allowed; allowed: {allowed}")
    return players


def _split_bots(bots) -> list[str]:
    """The page's bots text as one spec per bot, as ``--bots`` reads it (a comma item of
    ``NAME=VALUE`` continues the bot before: ``pimc:worlds=8,margin_z=1`` is one bot).

    Raises
    ------
    BadArgument
        Naming ``bots`` for an empty item.
    """
    try:
        return split_bot_list(str(bots))
    except ValueError as exc:
        raise BadArgument("bots", str(exc)) from None


def _check_bot_count(bots: str, players: int) -> None:
    """The page's bots, comma separated, are one for every seat, one per side or one per seat.

    Raises
    ------
    BadArgument
        Naming ``bots``, how many specs were given and every count allowed at ``players``.
    """
    sides = PLAYER_TABLE[players][0]
    given = len(_split_bots(bots))
    counts = {1: "1 (every seat)", sides: f"{sides} (one per side)"}
    counts.setdefault(players, f"{players} (one per seat)")
    if given not in counts:
        *most, last = counts.values()
        allowed = f"{', '.join(most)} or {last}"
        raise BadArgument(
            "bots",
            f"bots={bots!r}: {given} spec{'' if given == 1 else 's'} given with {players} players; "
            f"allowed: {allowed}",
        )


def _source(board: Board, params) -> dict:
    """Which deal a request names: ``run`` (a number of :attr:`Board.runs`) and ``deal``, or
    ``seed``, ``deal``, ``players`` and ``bots``."""
    deal = _int(params.get("deal", 0), "deal", 0, 2**63 - 1)
    if params.get("run") is not None:
        if params.get("seed") is not None:
            raise BadArgument("seed", "give run or seed, not both")
        if not board.runs:
            raise BadArgument("run", "no run folders were given to canasta-sim board")
        run = _int(params["run"], "run", 0, len(board.runs) - 1)
        return {"folder": board.runs[run], "deal": deal}
    if params.get("seed") is None:
        raise BadArgument("run", "give run (a run folder's number) or seed")
    players = _players(params.get("players", 4))
    bots = params.get("bots", "expert")
    for spec in _split_bots(bots):
        page_bot(spec)
    _check_bot_count(str(bots), players)
    return {
        "seed": _int(params["seed"], "seed", 0, 2**64 - 1),
        "deal": deal,
        "players": players,
        "bots": str(bots),
    }


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
    run = _int(request.path_params["run"], "run", 0, len(board.runs) - 1)
    return JSONResponse(await run_in_threadpool(run_summary, board.runs[run]))


async def deal(request: Request):
    board: Board = request.app.state.board
    source = _source(board, request.query_params)
    return JSONResponse(await board.replay(source, request.is_disconnected))


def _decision(params) -> dict:
    """The ``turn`` and ``decision`` a request names (as ``--from-run`` does)."""
    return {
        "turn": _int(params.get("turn", 0), "turn", 0, 100_000),
        "decision": _int(params.get("decision", 0), "decision", 0, 1),
    }


async def position(request: Request):
    board: Board = request.app.state.board
    params = request.query_params
    ask = {"position": _source(board, params), **_decision(params)}
    return JSONResponse(await board.worker.call(ask, request.is_disconnected))


async def hand_report(request: Request):
    board: Board = request.app.state.board
    params = request.query_params
    ask = {"report": _source(board, params), **_decision(params)}
    return JSONResponse(await board.worker.call(ask, request.is_disconnected))


class _Written(float):
    """A JSON number with a fraction or an exponent, shown as the page wrote it: ``1e400``
    reads as ``inf``, and an error naming ``inf`` would not name what was sent."""

    text: str

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__


def _written(text: str) -> float:
    number = _Written(text)
    number.text = text
    return number


async def _body(request: Request) -> dict:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise BadArgument("body", f"the request body has {len(raw)} bytes; at most {MAX_BODY}")
    try:
        data = json.loads(raw or b"{}", parse_float=_written)
    except (ValueError, RecursionError):  # nested deeper than the parser's stack
        raise BadArgument("body", "the request body is not JSON") from None
    if not isinstance(data, dict):
        raise BadArgument("body", "the request body must be a JSON object")
    return data


async def start_analysis(request: Request):
    board: Board = request.app.state.board
    data = await _body(request)
    job = {
        "worlds": _int(data.get("worlds", 200), "worlds", 1, MAX_WORLDS),
        "seed": _int(data.get("seed", 0), "seed", 0, 2**64 - 1),
        "rollout": page_rollout(data.get("rollout", "expert")),
    }
    if "play" in data:  # a hint: the user's decision in a play session
        session = _play_session(board, data["play"])
        deal = session.deal
        if deal.is_over or deal.current_player != session.you:
            raise BadArgument("play", "a hint is for your own turn")
        job["position"] = _position_of(deal.info_set(session.you))
    elif "review" in data:  # the review of a play session's deal, once it is over
        session = _play_session(board, data["review"])
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
        source = _source(board, at)
        if "folder" not in source:
            raise BadArgument("run", "analysis of a deal needs a run folder (or a position)")
        turn = _int(at.get("turn", 0), "turn", 0, 100_000)
        decision = _int(at.get("decision", 0), "decision", 0, 1)
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


def _play_session(board: Board, play_id):
    if not isinstance(play_id, (str, int)) or str(play_id) not in board.plays:
        raise HTTPException(404, f"no game {play_id!r}: start one")
    return board.plays[str(play_id)]


def _play_request(board: Board, data: dict) -> tuple[dict, int]:
    """The deal (seed form, :func:`_source`) and the user's seat a play request names:
    ``seed``, ``deal``, ``players``, ``seat`` and ``bots``, or ``opponents`` and ``partner``
    (levels by name) instead of ``bots``."""
    players = _players(data.get("players", 4))  # a game is dealt from a seed, for players
    seat = _int(data.get("seat", 0), "seat", 0, players - 1)
    if data.get("opponents") is not None:  # levels by name instead of bot specs
        if data.get("bots") is not None:
            raise BadArgument("bots", "give bots or opponents (a level), not both")
        if data.get("partner") is not None and PLAYER_TABLE[players][0] == players:
            raise BadArgument(
                "partner", f"partner: no seat is your partner at {players} players (R-10)"
            )
        bots = level_seats(players, seat, data["opponents"], data.get("partner"))
        data = {**data, "bots": bots}
    elif data.get("partner") is not None:
        raise BadArgument("partner", "a partner's level comes with the opponents' level")
    source = _source(board, {**data, "run": None})
    if "seed" not in source:
        raise BadArgument("seed", "a game is dealt from a seed: give seed")
    return source, seat


def _practice(data: dict) -> bool:
    """A request's ``practice`` (undo allowed, :mod:`.session`): true or false (default).

    Raises
    ------
    BadArgument
        For another value.
    """
    practice = data.get("practice", False)
    if not isinstance(practice, bool):
        raise BadArgument(
            "practice", f"practice={practice!r} is not allowed; allowed: true or false"
        )
    return practice


async def start_play(request: Request):
    from .session import new_session, session_view

    board: Board = request.app.state.board
    data = await _body(request)
    source, seat = _play_request(board, data)
    session = await run_in_threadpool(new_session, source, seat, _practice(data))
    return JSONResponse({"game": board.add_play(session), "view": session_view(session)})


async def play_view(request: Request):
    from .session import session_view

    session = _play_session(request.app.state.board, request.path_params["game"])
    return JSONResponse(session_view(session))


async def play_report(request: Request):
    from .session import session_report

    session = _play_session(request.app.state.board, request.path_params["game"])
    params = request.query_params
    where = _decision(params)
    return JSONResponse(session_report(session, where["turn"], where["decision"]))


async def play_act(request: Request):
    from .session import act, session_view

    session = _play_session(request.app.state.board, request.path_params["game"])
    data = await _body(request)
    action = data.get("action")
    if not isinstance(action, str):
        raise BadArgument("action", f"action={action!r}: give an action name, e.g. 'draw'")
    try:
        await run_in_threadpool(act, session, action)
    except IllegalMove as exc:
        return JSONResponse({"error": str(exc), "rule": exc.rule}, status_code=400)
    return JSONResponse(session_view(session))


def _game_request(board: Board, data: dict) -> tuple[dict, int]:
    """The game (:mod:`.games`) and the user's seat a request names: as a play request
    (:func:`_play_request`, no ``deal``: a game starts at its first) with ``target``, the
    game's target score (R-55, points; default the rules' for the players)."""
    if data.get("deal") is not None:
        raise BadArgument("deal", "a game starts at its first deal: give no deal")
    source, seat = _play_request(board, data)
    default = PLAYER_TABLE[source["players"]][5]
    target = data.get("target")
    source = {
        "seed": source["seed"],
        "players": source["players"],
        "bots": source["bots"],
        "target": default if target is None else _int(target, "target", 1, MAX_TARGET),
    }
    return source, seat


def _board_game(board: Board, game_id):
    if not isinstance(game_id, str) or game_id not in board.games:
        raise HTTPException(404, f"no game {game_id!r}: start one or resume it from its address")
    return board.games[game_id]


def _game_answer(board: Board, game_id: str) -> JSONResponse:
    """The game's view (:func:`.games.game_view`) with its ``id`` and ``play``, the id of the
    deal at the table as a play session (its hint, review and hand's report)."""
    from .games import game_view

    game = board.games[game_id]
    play_id = board.play_id(game.session)
    return JSONResponse({"id": game_id, "play": play_id, **game_view(game)})


async def start_game(request: Request):
    from .games import new_game

    board: Board = request.app.state.board
    data = await _body(request)
    source, seat = _game_request(board, data)
    game = await run_in_threadpool(new_game, source, seat, _practice(data))
    return _game_answer(board, board.add_game(game))


async def resume_game(request: Request):
    from .games import resume_game as resume

    board: Board = request.app.state.board
    data = await _body(request)
    moves, undos = data.pop("moves", None), data.pop("undos", None)
    source, seat = _game_request(board, data)
    game = await run_in_threadpool(resume, source, seat, moves, _practice(data), undos)
    return _game_answer(board, board.add_game(game))


async def game_state(request: Request):
    board: Board = request.app.state.board
    game_id = request.path_params["game"]
    _board_game(board, game_id)
    return _game_answer(board, game_id)


async def game_act(request: Request):
    from .session import act

    board: Board = request.app.state.board
    game_id = request.path_params["game"]
    game = _board_game(board, game_id)
    data = await _body(request)
    action = data.get("action")
    if not isinstance(action, str):
        raise BadArgument("action", f"action={action!r}: give an action name, e.g. 'draw'")
    try:
        await run_in_threadpool(act, game.session, action)
    except IllegalMove as exc:
        return JSONResponse({"error": str(exc), "rule": exc.rule}, status_code=400)
    return _game_answer(board, game_id)


async def game_next(request: Request):
    from .games import next_deal

    board: Board = request.app.state.board
    game_id = request.path_params["game"]
    await run_in_threadpool(next_deal, _board_game(board, game_id))
    return _game_answer(board, game_id)


async def game_undo(request: Request):
    from .session import undo

    board: Board = request.app.state.board
    game_id = request.path_params["game"]
    await run_in_threadpool(undo, _board_game(board, game_id).session)
    return _game_answer(board, game_id)


async def game_done(request: Request):
    from .session import play_on

    board: Board = request.app.state.board
    game_id = request.path_params["game"]
    await run_in_threadpool(play_on, _board_game(board, game_id).session)
    return _game_answer(board, game_id)


async def game_trace(request: Request):
    from .games import deal_trace

    board: Board = request.app.state.board
    game = _board_game(board, request.path_params["game"])
    deal = _int(request.query_params.get("deal"), "deal", 0, len(game.deals) - 1)
    return JSONResponse({"deal": deal, "trace": deal_trace(game, deal)})


async def play_undo(request: Request):
    from .session import session_view, undo

    session = _play_session(request.app.state.board, request.path_params["game"])
    await run_in_threadpool(undo, session)
    return JSONResponse(session_view(session))


async def play_done(request: Request):
    from .session import play_on, session_view

    session = _play_session(request.app.state.board, request.path_params["game"])
    await run_in_threadpool(play_on, session)
    return JSONResponse(session_view(session))


async def check_position(request: Request):
    data = await _body(request)
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
    data = await _body(request)
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
        Route("/api/play", start_play, methods=["POST"]),
        Route("/api/play/{game}", play_view, methods=["GET"]),
        Route("/api/play/{game}/act", play_act, methods=["POST"]),
        Route("/api/play/{game}/report", play_report, methods=["GET"]),
        Route("/api/play/{game}/undo", play_undo, methods=["POST"]),
        Route("/api/play/{game}/done", play_done, methods=["POST"]),
        Route("/api/game", start_game, methods=["POST"]),
        Route("/api/game/resume", resume_game, methods=["POST"]),
        Route("/api/game/{game}", game_state, methods=["GET"]),
        Route("/api/game/{game}/act", game_act, methods=["POST"]),
        Route("/api/game/{game}/next", game_next, methods=["POST"]),
        Route("/api/game/{game}/trace", game_trace, methods=["GET"]),
        Route("/api/game/{game}/undo", game_undo, methods=["POST"]),
        Route("/api/game/{game}/done", game_done, methods=["POST"]),
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
