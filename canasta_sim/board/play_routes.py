"""The board's endpoints for playing (:mod:`canasta_sim.board.app` lists them): a deal against
the bots (:mod:`.session`), a whole game to the target score (:mod:`.whole_game`), and in
practice undo and done. The routes are :data:`PLAY_ROUTES`.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..errors import BadArgument, IllegalMove
from ..game.rules import MAX_TARGET, PLAYER_TABLE
from .kept import Board
from .levels import level_seats
from .requests import (
    check_keys,
    deal_source,
    decision_params,
    int_param,
    players_param,
    read_body,
    shown,
)

#: The keys of a play request's JSON body (:func:`start_play`).
PLAY_KEYS = ("seed", "deal", "players", "seat", "bots", "opponents", "partner", "practice")
#: The keys of a game request's (:func:`start_game`): a game starts at its first deal.
GAME_KEYS = ("seed", "players", "seat", "bots", "opponents", "partner", "target", "practice")
#: The keys of a game's record (:func:`resume_game`, :func:`.whole_game.game_record`).
RECORD_KEYS = (*GAME_KEYS, "moves", "undos")
#: The keys of an action's (the play's and the game's act).
ACT_KEYS = ("action",)


def play_session(board: Board, play_id):
    """The play session ``play_id`` names (an id of :attr:`Board.plays`).

    Raises
    ------
    HTTPException
        404 for an id the board does not keep.
    """
    if not isinstance(play_id, (str, int)) or str(play_id) not in board.plays:
        raise HTTPException(404, f"no game {play_id!r}: start one")
    return board.plays[str(play_id)]


async def _finished(session) -> None:
    """Once the session's deal is over, its luck and skill (:mod:`.skill`: one deal played
    by the bots, in a thread, kept in the session), for the view to show."""
    from .skill import luck_and_skill

    if session.deal.is_over and session.skill is None:
        await run_in_threadpool(luck_and_skill, session)


def _play_request(board: Board, data: dict) -> tuple[dict, int]:
    """The deal (seed form, :func:`~.requests.deal_source`) and the user's seat a play
    request names: ``seed``, ``deal``, ``players``, ``seat`` and ``bots``, or ``opponents``
    and ``partner`` (levels by name) instead of ``bots``."""
    players = players_param(data.get("players", 4))  # a game is dealt from a seed, for players
    seat = int_param(data.get("seat", 0), "seat", 0, players - 1)
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
    source = deal_source(board.runs, {**data, "run": None})
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
            "practice", f"practice={shown(practice)} is not allowed; allowed: true or false"
        )
    return practice


async def start_play(request: Request):
    from .session import new_session, session_view

    board: Board = request.app.state.board
    data = await read_body(request)
    check_keys(data, PLAY_KEYS)
    source, seat = _play_request(board, data)
    session = await run_in_threadpool(new_session, source, seat, _practice(data))
    await _finished(session)
    return JSONResponse({"game": board.add_play(session), "view": session_view(session)})


async def play_view(request: Request):
    from .session import session_view

    session = play_session(request.app.state.board, request.path_params["game"])
    await _finished(session)
    return JSONResponse(session_view(session))


async def play_report(request: Request):
    from .session import session_report

    session = play_session(request.app.state.board, request.path_params["game"])
    params = request.query_params
    where = decision_params(params)
    return JSONResponse(session_report(session, where["turn"], where["decision"]))


async def _act_on(request: Request, session) -> JSONResponse | None:
    """Play the request's action (``{"action": NAME}``) in the play session ``session``; the
    answer for an action the rules refuse (its message and rule id), else None."""
    from .session import act

    data = await read_body(request)
    check_keys(data, ACT_KEYS)
    action = data.get("action")
    if not isinstance(action, str):
        raise BadArgument("action", f"action={action!r}: give an action name, e.g. 'draw'")
    try:
        await run_in_threadpool(act, session, action)
    except IllegalMove as exc:
        return JSONResponse({"error": str(exc), "rule": exc.rule}, status_code=400)
    return None


async def play_act(request: Request):
    from .session import session_view

    session = play_session(request.app.state.board, request.path_params["game"])
    refused = await _act_on(request, session)
    if refused is not None:
        return refused
    await _finished(session)
    return JSONResponse(session_view(session))


def _game_request(board: Board, data: dict, keys: tuple[str, ...]) -> tuple[dict, int]:
    """The game (:mod:`.whole_game`) and the user's seat a request names: as a play request
    (:func:`_play_request`, no ``deal``: a game starts at its first) with ``target``, the
    game's target score (R-55, points; default the rules' for the players); ``data`` holds
    no key but ``keys``."""
    if data.get("deal") is not None:
        raise BadArgument("deal", "a game starts at its first deal: give no deal")
    check_keys(data, keys)
    source, seat = _play_request(board, data)
    default = PLAYER_TABLE[source["players"]][5]
    target = data.get("target")
    source = {
        "seed": source["seed"],
        "players": source["players"],
        "bots": source["bots"],
        "target": default if target is None else int_param(target, "target", 1, MAX_TARGET),
    }
    return source, seat


def _board_game(board: Board, game_id):
    if not isinstance(game_id, str) or game_id not in board.games:
        raise HTTPException(404, f"no game {game_id!r}: start one or resume it from its address")
    return board.games[game_id]


async def _game_answer(board: Board, game_id: str) -> JSONResponse:
    """The game's view (:func:`.whole_game.game_view`) with its ``id`` and ``play``, the id of the
    deal at the table as a play session (its hint, review and hand's report)."""
    from .whole_game import game_view

    game = board.games[game_id]
    await _finished(game.session)
    play_id = board.play_id(game.session)
    return JSONResponse({"id": game_id, "play": play_id, **game_view(game)})


async def start_game(request: Request):
    from .whole_game import new_game

    board: Board = request.app.state.board
    data = await read_body(request)
    source, seat = _game_request(board, data, GAME_KEYS)
    game = await run_in_threadpool(new_game, source, seat, _practice(data))
    return await _game_answer(board, board.add_game(game))


async def resume_game(request: Request):
    from .whole_game import resume_game as resume

    board: Board = request.app.state.board
    data = await read_body(request)
    source, seat = _game_request(board, data, RECORD_KEYS)
    moves, undos = data.get("moves"), data.get("undos")
    game = await run_in_threadpool(resume, source, seat, moves, _practice(data), undos)
    return await _game_answer(board, board.add_game(game))


async def game_state(request: Request):
    board: Board = request.app.state.board
    game_id = request.path_params["game"]
    _board_game(board, game_id)
    return await _game_answer(board, game_id)


async def game_act(request: Request):
    board: Board = request.app.state.board
    game_id = request.path_params["game"]
    refused = await _act_on(request, _board_game(board, game_id).session)
    if refused is not None:
        return refused
    return await _game_answer(board, game_id)


async def game_next(request: Request):
    from .whole_game import next_deal

    board: Board = request.app.state.board
    game_id = request.path_params["game"]
    await run_in_threadpool(next_deal, _board_game(board, game_id))
    return await _game_answer(board, game_id)


async def game_undo(request: Request):
    from .session import undo

    board: Board = request.app.state.board
    game_id = request.path_params["game"]
    await run_in_threadpool(undo, _board_game(board, game_id).session)
    return await _game_answer(board, game_id)


async def game_done(request: Request):
    from .session import play_on

    board: Board = request.app.state.board
    game_id = request.path_params["game"]
    await run_in_threadpool(play_on, _board_game(board, game_id).session)
    return await _game_answer(board, game_id)


async def game_trace(request: Request):
    from .whole_game import deal_trace

    board: Board = request.app.state.board
    game = _board_game(board, request.path_params["game"])
    deal = int_param(request.query_params.get("deal"), "deal", 0, len(game.deals) - 1)
    return JSONResponse({"deal": deal, "trace": deal_trace(game, deal)})


async def play_undo(request: Request):
    from .session import session_view, undo

    session = play_session(request.app.state.board, request.path_params["game"])
    await run_in_threadpool(undo, session)
    return JSONResponse(session_view(session))


async def play_done(request: Request):
    from .session import play_on, session_view

    session = play_session(request.app.state.board, request.path_params["game"])
    await run_in_threadpool(play_on, session)
    await _finished(session)
    return JSONResponse(session_view(session))


#: The routes of :mod:`.play_routes`.
PLAY_ROUTES = [
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
]
