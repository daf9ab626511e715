"""Replaying one deal of a results folder, with the rules, bots and scores of its manifest.

A deal of a run is a function of the run's master seed, its seating (the bots of every seat)
and the sides' scores before it. :func:`deal_of_run` reads them from a folder written by
``simulate``, ``compare`` (deals or games), ``sweep`` or ``games``, after checking that the
folder was made with this package's rules and bots versions
(:func:`canasta_sim.run.outdir.check_run_versions`), and :func:`replay_deal` plays it again with
its trace, optionally with every hand before each turn.

Which deal: ``deal`` is the deal index of a ``simulate`` or ``compare --deals`` run (deal
``k`` of a rotated comparison is board ``k // R`` played in seating ``k % R``, see
:func:`canasta_sim.run.seating.play_rows`), or the deal number within game ``game`` of a
``games`` or ``compare --games`` run (game ``g`` is board ``g // R``; its deal ``j`` is seeded
from ``(seed of board, j)`` with dealer ``(g // R + j) % players``; the scores before it are
the game's starting scores plus the deals before it, replayed). A ``sweep`` folder holds one
comparison per swept value: ``value`` picks one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import BadArgument
from ..game.deals import Deal
from ..game.notation import check_int
from ..game.rules import Rules, game_over
from ..nb.engine.rng import deal_seed_nb
from ..players.pybot import seated
from ..run.outdir import check_entries, check_run_versions, read_manifest


@dataclass(frozen=True)
class RunDeal:
    """Everything that decides one deal of a run.

    Attributes
    ----------
    rules : Rules
    seed : int
        Master seed of :meth:`Deal.new` (the run's seed, or a game's board seed).
    deal : int
        Deal index under ``seed``.
    dealer : int
    seats : tuple of str
        The bot spec of every seat, seat 0 first.
    scores : tuple of int
        Each side's cumulative score before the deal (points).
    """

    rules: Rules
    seed: int
    deal: int
    dealer: int
    seats: tuple[str, ...]
    scores: tuple[int, ...]

    def new_deal(self, trace: bool = True) -> Deal:
        """The deal, dealt and ready for its first turn."""
        scores = dict(enumerate(self.scores))
        return Deal.new(
            self.rules, self.seed, deal=self.deal, dealer=self.dealer, scores=scores, trace=trace
        )


def _seatings(manifest: dict, value) -> list[list[str]]:
    """The per-seat specs of every seating of the run (of the swept ``value`` in a sweep)."""
    from ..players.specs import per_seat, table_bots
    from ..run.compare import rotations, sweep_specs

    rules = Rules.from_dict(manifest["rules"])
    if "sweep" in manifest:
        s = manifest["sweep"]
        values = [float(v) for v in s["values"]]
        if value is None or float(value) not in values:
            raise BadArgument(
                "value",
                f"value={value!r}: a sweep folder holds one comparison per value; allowed: "
                f"one of {', '.join(f'{v:g}' for v in values)}",
            )
        spec = sweep_specs(s["bot"], s["param"], values)[values.index(float(value))]
        a, b = table_bots([spec, s["vs"]], None, rules)
        return [[x.spec for x in seating] for seating in rotations(a, b, rules)]
    if value is not None:
        raise BadArgument("value", f"value={value!r} is only for sweep folders")
    if "seats" in manifest:
        return [list(seating) for seating in manifest["seats"]]
    return [  # folders written before per-seat bots: one bot per side
        [b.spec for b in per_seat(table_bots(seating, None, rules), rules.players)]
        for seating in manifest["bots"]
    ]


def deal_of_run(folder, deal: int, *, game: int | None = None, value=None) -> RunDeal:
    """Deal ``deal`` of the run in ``folder`` (deal ``deal`` of game ``game`` for a games
    folder; of the comparison of ``value`` for a sweep folder).

    Raises
    ------
    ValueError
        For a folder that is not a run folder (or whose manifest is partial), a deal (or
        game, or value) the run does not hold, a game given for a deals folder or none for a
        games folder.
    canasta_sim.run.outdir.VersionMismatch
        When the folder was made with other rules or bots versions (its deals would not be
        replayed as they were played).
    """
    manifest = read_manifest(Path(folder))
    if "rules" not in manifest:
        raise ValueError(
            f"{str(folder)!r} is not a run folder of simulate, compare, sweep or games (a study "
            f"folder? replay one of its cells/ folders)"
        )
    seating_entry = () if "sweep" in manifest or "seats" in manifest else ("bots",)
    check_entries(
        manifest, folder, ("seed", "games" if "games" in manifest else "deals", *seating_entry)
    )
    if manifest.get("seed") is None:
        raise ValueError(
            f"{str(folder)!r} merges runs of several seeds; replay the deal in the run folder "
            f"it came from"
        )
    check_run_versions(manifest, folder)
    rules = Rules.from_dict(manifest["rules"])
    seatings = _seatings(manifest, value)
    scores = tuple(manifest.get("scores", [0] * rules.sides))
    seed, boards = int(manifest["seed"]), len(seatings)
    check_int("deal", deal, 0, 2**63 - 1)
    if "games" in manifest:
        if game is None:
            raise BadArgument("game", f"{str(folder)!r} holds games: give the game (and its deal)")
        check_int("game", game, 0, manifest["games"] - 1)
        board = game // boards
        seats = tuple(seatings[game % boards])
        game_seed = int(deal_seed_nb(np.uint64(seed), np.int64(board)))
        run = RunDeal(rules, game_seed, 0, board % rules.players, seats, scores)
        for j in range(deal):  # the scores before deal j: the game's deals before it
            if j > 0 and _game_over(run.scores, rules):
                raise BadArgument("deal", f"game {game} has {j} deals; allowed: deal 0 to {j - 1}")
            d = run.new_deal(trace=False)
            d.play_out(seated(rules, seats=list(seats)))
            totals = tuple(run.scores[s] + d.score()[s]["total"] for s in range(rules.sides))
            run = RunDeal(rules, game_seed, j + 1, (board + j + 1) % rules.players, seats, totals)
        if deal and _game_over(run.scores, rules):
            raise BadArgument(
                "deal", f"game {game} has {deal} deals; allowed: deal 0 to {deal - 1}"
            )
        return run
    if game is not None:
        raise BadArgument("game", f"{str(folder)!r} holds deals, not games: give the deal only")
    first = int(manifest.get("first_deal", 0))
    count = int(manifest["deals"])
    if not first <= deal < first + count:
        raise BadArgument(
            "deal", f"deal={deal}: {str(folder)!r} holds deals {first} to {first + count - 1}"
        )
    board = deal // boards
    return RunDeal(
        rules, seed, board, board % rules.players, tuple(seatings[deal % boards]), scores
    )


def _game_over(scores, rules: Rules) -> bool:
    over, _ = game_over(np.array([scores], np.int64), rules.game_target)
    return bool(over[0])


def replay_deal(run: RunDeal, *, hands: bool = False) -> list[dict]:
    """Play ``run``'s deal again and return its trace (docs/trace.md).

    Parameters
    ----------
    run : RunDeal
    hands : bool
        Insert a ``hands`` event before every turn: ``turn``, ``seat`` (to play), ``hands``
        (every seat's hand in card notation), ``pile`` and ``stock`` (cards). The referee
        does not read ``hands`` events: referee a trace made without them.
    """
    d = run.new_deal()
    table = seated(run.rules, seats=list(run.seats))
    if not hands:
        d.play_out(table)
        return d.trace()
    marks = []
    while not d.is_over:
        marks.append(
            (
                len(d.trace()),
                {
                    "event": "hands",
                    "turn": d.turns,
                    "seat": d.current_player,
                    "hands": d.hands,
                    "pile": len(d.pile.split()),
                    "stock": d.stock_size,
                },
            )
        )
        d.play_turn(table)
    trace = d.trace()
    for at, event in reversed(marks):
        trace.insert(at, event)
    return trace
