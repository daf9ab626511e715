"""A whole game on the board: the user's seat against the bots, deal after deal, until a side
reaches the game's target at the end of a deal (R-55), each deal's minimum counts following the
sides' cumulative scores (R-64), with a score sheet of every deal's parts (R-50..R-54).

A game is its request (``seed``, ``players``, ``bots``, ``target``), the user's seat and the
user's actions in each deal (:func:`game_record`): every deal is a
:class:`~canasta_sim.board.session.PlaySession`, replayable from its deal and the user's
actions, so :func:`resume_game` rebuilds a game from its record alone. In practice (undo
allowed, :mod:`canasta_sim.board.session`) the record holds each deal's undos too, and a deal
with any is marked as practice on the sheet. Deal ``j`` of the game
of seed ``S`` is dealt as deal ``j`` of game 0 of ``canasta-sim games --seed S``
(:mod:`canasta_sim.run.address`): its seed is the game's (``(S, 0)``), its dealer ``j %
players`` (R-11).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import BadArgument
from ..game.rules import PLAYER_TABLE, game_over
from ..nb.engine.rng import deal_seed_nb
from ..nb.enums import ScorePart, SideSlot
from .session import PlaySession, play_on, replay_session, session_view

#: Most deals a game on the board plays (as :data:`canasta_sim.run.games.MAX_DEALS`).
MAX_GAME_DEALS = 200
#: Most actions of one deal in a game's record (a deal of 2000 turns, R-47, needs fewer).
MAX_DEAL_ACTIONS = 20_000


@dataclass
class BoardGame:
    """A game being played by the user at seat ``you``.

    Attributes
    ----------
    source : dict
        The checked request: ``seed`` (the game's master seed), ``players``, ``bots`` (one
        spec per seat, side or table, as the board's seed form) and ``target`` (R-55, points).
    you : int
        The user's seat.
    deals : list of PlaySession
        Every deal dealt so far, in order; the last is the one at the table.
    practice : bool
        Undo allowed in every deal (:class:`~canasta_sim.board.session.PlaySession`).
    """

    source: dict
    you: int
    deals: list[PlaySession]
    practice: bool = False

    @property
    def session(self) -> PlaySession:
        """The deal at the table (the last dealt)."""
        return self.deals[-1]


def _game_deal(source: dict, deal: int, scores) -> dict:
    """Deal ``deal`` of the game of ``source``, from the sides' cumulative ``scores`` (as
    :func:`canasta_sim.board.pages.run_deal` takes it)."""
    game_seed = int(deal_seed_nb(np.uint64(source["seed"]), np.int64(0)))
    return {
        "seed": game_seed,
        "deal": deal,
        "players": source["players"],
        "bots": source["bots"],
        "target": source["target"],
        "scores": [int(s) for s in scores],
    }


def new_game(source: dict, you: int, practice: bool = False, actions=()) -> BoardGame:
    """Deal the first deal of the game of ``source`` (from 0 to 0) and let the bots play up to
    the user's first turn (``practice``: undo allowed), then play the user's ``actions`` in it
    (:func:`~canasta_sim.board.session.replay_session`).

    Raises
    ------
    ValueError
        For a seat out of range, or as :func:`~canasta_sim.board.session.act`.
    """
    first = _game_deal(source, 0, [0] * _sides(source))
    return BoardGame(source, you, [replay_session(first, you, list(actions), practice)], practice)


def _sides(source: dict) -> int:
    return PLAYER_TABLE[source["players"]][0]


def game_scores(game: BoardGame) -> list[int]:
    """Each side's cumulative score (points) after the deals that are over."""
    sheet = score_sheet(game)
    if not sheet:
        return [0] * _sides(game.source)
    return [side["cumulative"] for side in sheet[-1]["sides"]]


def game_winner(game: BoardGame) -> int | None:
    """The side that won (R-55: a side at or above the target after a deal, the highest
    total, not shared), or None while the game goes on."""
    over, winner = game_over(np.array([game_scores(game)], np.int64), game.source["target"])
    return int(winner[0]) if over[0] else None


def next_deal(game: BoardGame, actions=()) -> None:
    """Deal the game's next deal from the cumulative scores (R-64: each side's minimum count
    follows its score) and let the bots play up to the user's first turn, then play the
    user's ``actions`` in it.

    Raises
    ------
    BadArgument
        While the deal at the table is not over, once the game is over (R-55), or after
        :data:`MAX_GAME_DEALS` deals.
    ValueError
        As :func:`~canasta_sim.board.session.act`, for ``actions``.
    """
    if not game.session.deal.is_over:
        raise BadArgument("next", "the deal at the table is not over: finish it first")
    if game_winner(game) is not None:
        raise BadArgument("next", "the game is over (R-55): start another")
    if len(game.deals) >= MAX_GAME_DEALS:
        raise BadArgument("next", f"the game has {MAX_GAME_DEALS} deals, the most a game plays")
    source = _game_deal(game.source, len(game.deals), game_scores(game))
    game.deals.append(replay_session(source, game.you, list(actions), game.practice))


def score_sheet(game: BoardGame) -> list[dict[str, Any]]:
    """One row per deal that is over: ``deal`` (from 0), ``end`` (the end reason),
    ``practice`` (whether undo was used in it) and per
    side (a list, side 0 first) ``minimum`` (the deal's minimum count, R-64), the score
    parts of :data:`~canasta_sim.nb.enums.ScorePart` (points, R-50..R-54: ``red_threes``,
    ``canasta_bonus``, ``going_out_bonus``, ``meld_points``, ``hand_penalty`` subtracted,
    ``total``) and ``cumulative`` (the game's score after the deal)."""
    rows = []
    cumulative = [0] * _sides(game.source)
    for j, session in enumerate(game.deals):
        deal = session.deal
        if not deal.is_over:
            break
        parts = deal.score()
        minimums = deal.view.sides[:, SideSlot.minimum]
        sides = []
        for side, before in enumerate(cumulative):
            row = {name: int(parts[side][name]) for name in ScorePart._fields}
            row["minimum"] = int(minimums[side])
            row["cumulative"] = before + row["total"]
            sides.append(row)
        cumulative = [s["cumulative"] for s in sides]
        practice = session.undos > 0
        rows.append({"deal": j, "end": deal.end_reason, "practice": practice, "sides": sides})
    return rows


def game_record(game: BoardGame) -> dict[str, Any]:
    """The game's address: what :func:`resume_game` rebuilds it from, as JSON data: the
    request's ``seed``, ``players``, ``bots``, ``target``, the user's ``seat``, ``moves``
    (per deal, the user's actions by name, :data:`canasta_sim.env.ACTION_NAMES`: the line
    finally played), ``practice`` and ``undos`` (per deal, the undos used)."""
    return {
        "seed": game.source["seed"],
        "players": game.source["players"],
        "bots": game.source["bots"],
        "seat": game.you,
        "target": game.source["target"],
        "moves": [list(session.actions) for session in game.deals],
        "practice": game.practice,
        "undos": [session.undos for session in game.deals],
    }


def resume_game(source: dict, you: int, moves, practice: bool = False, undos=None) -> BoardGame:
    """The game of ``source`` rebuilt from the user's ``moves`` (per deal, the actions of
    :func:`game_record`): every deal dealt and played again, with its ``undos`` (per deal,
    default none) in ``practice``, where the bots play on (done) in a deal that waits for them
    before the next is dealt.

    Raises
    ------
    BadArgument
        For moves that are not a list of lists of action names (at most
        :data:`MAX_GAME_DEALS` deals of :data:`MAX_DEAL_ACTIONS` actions), an action the
        rules refuse (naming the deal, the action and its rule) or that comes after the
        deal's end, or a deal after one that is not over or after the game's end; for
        ``undos`` that are not one count (0 to :data:`MAX_DEAL_ACTIONS`) per deal of
        ``moves``, or any without ``practice``.
    """
    if (
        not isinstance(moves, list)
        or not 1 <= len(moves) <= MAX_GAME_DEALS
        or not all(isinstance(deal, list) and len(deal) <= MAX_DEAL_ACTIONS for deal in moves)
        or not all(isinstance(action, str) for deal in moves for action in deal)
    ):
        raise BadArgument(
            "moves",
            f"moves: give a list of 1 to {MAX_GAME_DEALS} deals, each a list of at most "
            f"{MAX_DEAL_ACTIONS} action names",
        )
    undos = [0] * len(moves) if undos is None else undos
    if (
        not isinstance(undos, list)
        or len(undos) != len(moves)
        or not all(type(n) is int and 0 <= n <= MAX_DEAL_ACTIONS for n in undos)
        or (any(undos) and not practice)
    ):
        raise BadArgument(
            "undos",
            f"undos: give one count from 0 to {MAX_DEAL_ACTIONS} per deal of moves "
            f"({len(moves)}), all 0 unless practice",
        )
    game = None
    for j, actions in enumerate(moves):
        try:
            if game is None:
                game = new_game(source, you, practice, actions)
            else:
                # the record keeps no presses of done (practice): a deal left waiting for the
                # bots, which ended it, is played on before the next deal is dealt
                if game.session.waiting:
                    play_on(game.session)
                next_deal(game, actions)
        except ValueError as exc:  # an action refused (IllegalMove) or a deal not dealt
            raise BadArgument("moves", f"moves: deal {j}: {exc}") from None
        game.session.undos = undos[j]
    assert game is not None  # moves holds a deal
    return game


def game_view(game: BoardGame) -> dict[str, Any]:
    """What the user sees of the game, as JSON data: ``view`` (the deal at the table,
    :func:`~canasta_sim.board.session.session_view`) and ``game``: ``deal`` (the number of
    the deal at the table, from 0), ``target``, ``scores`` (cumulative, points), ``sheet``
    (:func:`score_sheet`), ``winner`` (a side once the game is over, else None), ``you_side``
    and ``record`` (:func:`game_record`)."""
    sides = _sides(game.source)
    return {
        "view": session_view(game.session),
        "game": {
            "deal": len(game.deals) - 1,
            "target": game.source["target"],
            "scores": game_scores(game),
            "sheet": score_sheet(game),
            "winner": game_winner(game),
            "you_side": game.you % sides,
            "record": game_record(game),
        },
    }


def deal_trace(game: BoardGame, deal: int) -> list[dict]:
    """The trace of deal ``deal`` of the game (docs/trace.md), once that deal is over (while
    it runs it would show the hidden hands).

    Raises
    ------
    BadArgument
        For a deal the game has not dealt, or one not over.
    """
    dealt = len(game.deals)
    if not isinstance(deal, int) or not 0 <= deal < dealt:
        raise BadArgument("deal", f"deal={deal!r} is not allowed; allowed: 0 to {dealt - 1}")
    session = game.deals[deal]
    if not session.deal.is_over:
        raise BadArgument("deal", f"deal {deal} is not over: its trace comes at its end")
    return session.deal.trace()
