"""A deal of a run folder: which one (:class:`RunAddress`), what decides it (:class:`RunDeal`,
read from the folder by :func:`deal_of_run`), and playing it again: whole, with its trace
(:func:`replay_deal`), or up to one of its decisions (:func:`deal_from_run`,
:func:`info_set_from_run`). Everything that rebuilds a deal of a run (``replay``, ``analyse
--from-run``, ``review``, the board, the environment's ``start``) does it here.

A run folder's ``manifest.json`` holds everything that made its deals: the master seed, the
rules, the bots of each seating and the sides' scores, in a folder written by ``simulate``
(or ``merge`` of runs of one seed), ``compare`` (deals or games), ``sweep`` or ``games``.
:func:`deal_of_run` reads them after checking that the folder was made with this package's
rules and bots versions (:func:`canasta_sim.results.run_folder.check_run_versions`); the deal
is then played by :class:`~canasta_sim.Deal` (the same kernels, so the same moves as in the
run, as :func:`canasta_sim.trace_deal` plays them).

Which deal: ``deal`` is the deal index of a ``simulate`` or ``compare --deals`` run (deal
``k`` of a rotated comparison is board ``k // R`` played in seating ``k % R``, see
:func:`canasta_sim.run.seating.play_rows`), or the deal number within game ``game`` of a
``games`` or ``compare --games`` run (game ``g`` is board ``g // R``; its deal ``j`` is seeded
from ``(seed of board, j)`` with dealer ``(g // R + j) % players``; the scores before it are
the game's starting scores plus the deals before it, replayed). A ``sweep`` folder holds one
comparison per swept value: ``value`` picks one.

Which decision, addressed ``RUN_FOLDER:DEAL[:TURN[:DECISION]]`` (docs/analysis.md):

- ``TURN`` (default 0): the turn, counted from 0 in the deal (R-47 counts them the same way);
- ``DECISION`` (default 0): ``0`` is the turn's first move (draw from the stock or take the
  pile, R-20 step 1), ``1`` the rest of the turn after it (the melds, then the discard or going
  out, R-20 steps 2 and 3), before the turn's melds are laid, as the candidates of
  :mod:`canasta_sim.players.choices` are.

The position is the seat to play's :class:`~canasta_sim.InfoSet`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import BadArgument
from ..game.deals import Deal
from ..game.infoset import InfoSet
from ..game.notation import check_int
from ..game.rules import Rules, game_over
from ..nb.engine.rng import DEAL_LIMIT, deal_seed_nb
from ..players.pybot import seated
from ..results.run_folder import check_entries, check_run_versions, deal_ranges, read_manifest

_ADDRESS = re.compile(
    r"(?P<folder>.+?):(?P<deal>[0-9]+)(?::(?P<turn>[0-9]+))?(?::(?P<decision>[0-9]+))?"
)

#: The decisions of a turn (``DECISION``).
DECISIONS = ("the turn's first move (draw or take the pile)", "discard or go out after it")


@dataclass(frozen=True)
class RunAddress:
    """A decision in a run folder.

    Attributes
    ----------
    folder : pathlib.Path
    deal : int
        The deal's index in the run (as in its records).
    turn : int
        Turn of the deal, from 0.
    decision : int
        0: the turn's first move; 1: the discard or going out after it.
    """

    folder: Path
    deal: int
    turn: int = 0
    decision: int = 0

    def __str__(self) -> str:
        return f"{self.folder}:{self.deal}:{self.turn}:{self.decision}"


def parse_address(text: str) -> RunAddress:
    """Read ``RUN_FOLDER:DEAL[:TURN[:DECISION]]``.

    Raises
    ------
    ValueError
        For text of another form (a deal that is no whole number after an existing folder
        named), or a decision other than 0 or 1; the message names it.
    """
    match = _ADDRESS.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError(
            f"{text!r} is not a run position; allowed: RUN_FOLDER:DEAL[:TURN[:DECISION]], "
            f"e.g. results/run1:17:12:1"
        )
    head, colon, tail = match["folder"].rpartition(":")
    if colon and not Path(match["folder"]).exists() and Path(head).is_dir():
        # "run:x:5:1" matches folder "run:x": the folder is "run", "x" its bad deal number
        raise ValueError(
            f"{text!r}: deal {tail!r} of {head} is not a whole number; allowed: "
            f"RUN_FOLDER:DEAL[:TURN[:DECISION]], e.g. {head}:17:12:1"
        )
    decision = int(match["decision"] or 0)
    if decision not in (0, 1):
        raise ValueError(
            f"{text!r}: decision {decision} is not allowed; allowed: 0 ({DECISIONS[0]}) or "
            f"1 ({DECISIONS[1]})"
        )
    return RunAddress(Path(match["folder"]), int(match["deal"]), int(match["turn"] or 0), decision)


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

    @classmethod
    def of_seed(cls, rules: Rules, seed: int, deal: int, seats, scores=None) -> RunDeal:
        """Deal ``deal`` of a run of one seating (``seats``: one bot spec per seat) with
        master seed ``seed``, each side starting from ``scores`` (default 0): the dealer is
        ``deal % players`` (R-11), as :func:`canasta_sim.simulate` deals it."""
        scores = tuple(scores) if scores is not None else (0,) * rules.sides
        return cls(rules, seed, deal, deal % rules.players, tuple(seats), scores)

    def new_deal(self, trace: bool = True) -> Deal:
        """The deal, dealt and ready for its first turn."""
        scores = dict(enumerate(self.scores))
        return Deal.new(
            self.rules, self.seed, deal=self.deal, dealer=self.dealer, scores=scores, trace=trace
        )

    def side_bots(self) -> list[str]:
        """The bots of each side: a side's spec when its players share one bot, else their
        specs in seat order joined by ``/`` (as a run's manifest names them)."""
        sides = self.rules.sides
        specs = [self.seats[side::sides] for side in range(sides)]
        return [s[0] if len(set(s)) == 1 else "/".join(s) for s in specs]

    def at(self, turn: int, decision: int, where: str = "the deal") -> Deal:
        """The deal played by its bots to decision ``decision`` (0 or 1) of turn ``turn``:
        the seat to play is ``deal.current_player``.

        Raises
        ------
        ValueError
            For a turn or decision the deal does not reach (the message, about ``where``,
            gives the turns it reaches).
        """
        deal = self.new_deal(trace=True)
        last = deal.turns  # the last turn with a decision: the deal is not over at its start
        table = seated(self.rules, seats=list(self.seats))
        while deal.turns < turn and not deal.is_over:
            deal.play_turn(table)
            last = last if deal.is_over else deal.turns
        if deal.is_over:  # ended by going out (after turn `last`) or at a first move
            raise ValueError(
                f"{where} ended after {deal.turns} turns; turn {turn} is not played "
                f"(allowed: 0 to {last})"
            )
        if decision == 1:
            first_move(deal, seats=list(self.seats))
            if deal.is_over:
                raise ValueError(
                    f"{where}: the first move of turn {turn} ended the deal (R-44, R-45); "
                    f"there is no decision 1"
                )
        return deal


def deal_of_run(folder, deal: int, *, game: int | None = None, value=None) -> RunDeal:
    """Deal ``deal`` of the run in ``folder`` (deal ``deal`` of game ``game`` for a games
    folder; of the comparison of ``value`` for a sweep folder).

    Raises
    ------
    ValueError
        For a folder that is not a run folder (or whose manifest is partial), a merge of runs
        of several seeds, a deal (or game, or value) the run does not hold, a game given for
        a deals folder or none for a games folder.
    canasta_sim.results.run_folder.VersionMismatch
        When the folder was made with other rules or bots versions (its deals would not be
        replayed as they were played).
    """
    manifest = read_manifest(Path(folder))
    if "rules" not in manifest:
        raise ValueError(
            f"{str(folder)!r} is not a run folder of simulate, compare, sweep or games (a study "
            f"folder? give one of its cells/ folders)"
        )
    seating_entry = () if "sweep" in manifest or "seats" in manifest else ("bots",)
    check_entries(
        manifest, folder, ("seed", "games" if "games" in manifest else "deals", *seating_entry)
    )
    if manifest.get("seed") is None:
        seeds = sorted({r[0] for r in deal_ranges(manifest)})
        raise ValueError(
            f"{str(folder)!r} merges runs with the seeds {seeds}; give the run folder the deal "
            f"came from instead"
        )
    check_run_versions(manifest, folder)
    rules = Rules.from_dict(manifest["rules"])
    seatings = [tuple(s) for s in _seatings(manifest, value, folder)]
    scores = tuple(manifest.get("scores", [0] * rules.sides))
    check_int("deal", deal, 0, DEAL_LIMIT - 1)
    if "games" in manifest:
        if game is None:
            raise BadArgument(
                "game",
                f"{str(folder)!r} holds games, not deals: give the game and its deal (a "
                f"position RUN_FOLDER:DEAL is a deal of a simulate or compare run)",
            )
        check_int("game", game, 0, manifest["games"] - 1)
        return _deal_of_game(rules, int(manifest["seed"]), seatings, scores, game, deal)
    if game is not None:
        raise BadArgument("game", f"{str(folder)!r} holds deals, not games: give the deal only")
    ranges = deal_ranges(manifest)
    if not any(first <= deal < first + n for _, first, n in ranges):
        spans = ", ".join(f"{first} to {first + n - 1}" for _, first, n in ranges)
        raise BadArgument("deal", f"deal={deal} is not in {str(folder)!r}: it holds deals {spans}")
    board = deal // len(seatings)
    seats = seatings[deal % len(seatings)]
    return RunDeal(rules, int(manifest["seed"]), board, board % rules.players, seats, scores)


def _deal_of_game(rules: Rules, seed: int, seatings, scores, game: int, deal: int) -> RunDeal:
    """Deal ``deal`` of game ``game`` of a games run: its scores before it are the game's
    starting ``scores`` plus the game's deals before it, replayed."""
    boards = len(seatings)
    board = game // boards
    seats = seatings[game % boards]
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
        raise BadArgument("deal", f"game {game} has {deal} deals; allowed: deal 0 to {deal - 1}")
    return run


def _seatings(manifest: dict, value, folder) -> list[list[str]]:
    """The per-seat specs of every seating of the run in ``folder`` (of the swept ``value`` in
    a sweep)."""
    from ..players.specs import per_seat, table_bots
    from .compare import rotations, sweep_specs

    rules = Rules.from_dict(manifest["rules"])
    if "sweep" in manifest:
        s = manifest["sweep"]
        values = [float(v) for v in s["values"]]
        allowed = ", ".join(f"{v:g}" for v in values)
        if value is None:
            from ..results.report import _other_run  # names the command that wrote a folder

            raise BadArgument(
                "folder",
                f"{str(folder)!r} is {_other_run(Path(folder))}; not a simulate run folder: "
                f"replay takes a deal of one of its comparisons, give '--value' (one of "
                f"{allowed}), or a simulate, compare or games run folder",
            )
        if float(value) not in values:
            raise BadArgument(
                "value",
                f"value={value!r}: a sweep folder holds one comparison per value; allowed: "
                f"one of {allowed}",
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


def deal_from_run(address) -> tuple[Deal, list[str]]:
    """Replay a run's deal to the decision at ``address`` (a :class:`RunAddress` or its text),
    as :func:`deal_of_run` reads the deal and :meth:`RunDeal.at` plays it.

    Returns
    -------
    deal : Deal
        At the decision: the seat to play is ``deal.current_player``.
    bots : list of str
        The bots of each side in that deal (:meth:`RunDeal.side_bots`).

    Raises
    ------
    ValueError
        As :func:`deal_of_run` (a games folder among them: an address names a deal of a
        simulate or compare run), and for a turn or decision the deal does not reach.
    """
    address = address if isinstance(address, RunAddress) else parse_address(address)
    run = deal_of_run(address.folder, address.deal)
    where = f"deal {address.deal} of {str(address.folder)!r}"
    return run.at(address.turn, address.decision, where), run.side_bots()


def info_set_from_run(address) -> InfoSet:
    """The information set of the seat to play at ``address`` (``RUN_FOLDER:DEAL[:TURN[:
    DECISION]]`` or a :class:`RunAddress`), replayed by :func:`deal_from_run`.

    Raises
    ------
    ValueError
        As :func:`deal_from_run`.
    """
    deal, _ = deal_from_run(address)
    return deal.info_set(deal.current_player)


def first_move(deal: Deal, bots=None, *, seats=None) -> Deal:
    """Make the bots' first move of the turn (the draw or the pickup, R-20 step 1) on ``deal``
    through the :class:`Deal` API, and return a copy of ``deal`` from before the move with the
    bots' whole turn played on it: the run's next position.

    The whole turn is played on the copy and its first move repeated on ``deal``, so ``deal``
    stands at the turn's second decision (before its melds) exactly as the run played it.

    Parameters
    ----------
    deal : Deal
        At the draw phase of a turn; mutated.
    bots, seats : str or list of str
        As for :meth:`Deal.play_turn`.
    """
    trial = deal.copy()
    before = len(trial.trace())
    trial.play_turn(seated(deal.rules, bots, seats=seats))
    moves = [e for e in trial.trace()[before:] if e["event"] in ("draw", "take_pile")]
    if not moves or moves[0]["event"] == "draw":  # no move: the empty stock ended the deal
        deal.draw()
    else:
        move = moves[0]
        deal.take_pile(move["with"], [f"{m['rank']}: {m['cards']}" for m in move["melds"]])
    return trial
