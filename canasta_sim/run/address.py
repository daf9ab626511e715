"""Positions in a run folder, addressed ``RUN_FOLDER:DEAL[:TURN[:DECISION]]`` (docs/analysis.md).

A run folder's ``manifest.json`` holds everything that made its deals: the master seed, the
rules and the bots of each seating. Deal ``DEAL`` of the run is replayed with
:class:`~canasta_sim.Deal` (the same kernels, so the same moves as in the run, as
:func:`canasta_sim.trace_deal` does) up to its decision:

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

from ..game.deals import Deal
from ..game.infoset import InfoSet
from ..game.rules import Rules
from ..players.pybot import seated
from .outdir import check_entries, check_run_versions, read_manifest

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


def deal_from_run(address) -> tuple[Deal, list[str]]:
    """Replay a run's deal to the decision at ``address`` (a :class:`RunAddress` or its text).

    Deal ``k`` of a run with ``R`` seatings is board ``k // R`` (its cards and dealer) played
    by seating ``k % R`` (:func:`canasta_sim.run.seating.play_rows`).

    Returns
    -------
    deal : Deal
        At the decision: the seat to play is ``deal.current_player``.
    bots : list of str
        The bot spec of each side in that deal.

    Raises
    ------
    ValueError
        For a folder that is not a run folder of deals (a games folder, a merge of several
        seeds), a run made with other rules or bots versions (its moves would differ), a deal
        outside the run, or a turn or decision the deal does not reach.
    """
    address = address if isinstance(address, RunAddress) else parse_address(address)
    folder = address.folder
    manifest = read_manifest(folder)
    check_run_versions(manifest, folder)
    if "games" in manifest:
        raise ValueError(
            f"{str(folder)!r} holds games, not deals; positions address the deals of a "
            f"simulate or compare run"
        )
    check_entries(
        manifest, folder, ("rules", "deals", "bots", "ranges" if "ranges" in manifest else "seed")
    )
    ranges = manifest.get("ranges") or [
        (manifest["seed"], manifest.get("first_deal", 0), manifest["deals"])
    ]
    seeds = {int(r[0]) for r in ranges}
    if len(seeds) > 1:
        raise ValueError(
            f"{str(folder)!r} merges runs with the seeds {sorted(seeds)}; address the deal in "
            f"the run folder it came from"
        )
    if not any(first <= address.deal < first + n for _, first, n in ranges):
        spans = ", ".join(f"{first} to {first + n - 1}" for _, first, n in ranges)
        raise ValueError(f"deal {address.deal} is not in {str(folder)!r}; it holds deals {spans}")
    rules = Rules.from_dict(manifest["rules"])
    seatings = manifest["bots"]
    board = address.deal // len(seatings)
    bots = list(seatings[address.deal % len(seatings)])
    deal = Deal.new(rules, seeds.pop(), deal=board, dealer=board % rules.players, trace=True)
    where = f"deal {address.deal} of {str(folder)!r}"
    last = deal.turns  # the last turn with a decision: the deal is not over at its start
    table = seated(rules, bots)
    while deal.turns < address.turn and not deal.is_over:
        deal.play_turn(table)
        last = last if deal.is_over else deal.turns
    if deal.is_over:  # ended by going out (after turn `last`) or at a first move
        raise ValueError(
            f"{where} ended after {deal.turns} turns; turn {address.turn} is not played "
            f"(allowed: 0 to {last})"
        )
    if address.decision == 1:
        first_move(deal, bots)
        if deal.is_over:
            raise ValueError(
                f"{where}: the first move of turn {address.turn} ended the deal (R-44, R-45); "
                f"there is no decision 1"
            )
    return deal, bots


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
