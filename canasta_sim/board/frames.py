"""A deal replayed as the board draws it: one table snapshot (a *frame*) per decision.

A frame is the table at one decision of the deal, the decisions ``--from-run`` addresses
(:mod:`canasta_sim.run.address`): decision 0 of a turn is before its first move (draw or take
the pile, R-20 step 1), decision 1 after it (before the turn's melds and discard). After the
last turn, one more frame shows the deal over with its score (R-50..R-54). Each frame is plain
JSON data, so the server sends it and the static export embeds it unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..game.deals import Deal
from ..game.trace import format_trace
from ..nb.enums import SideSlot
from ..run.address import RunDeal, first_move

#: Cards a canasta holds at least (R-62).
CANASTA_CARDS = 7
WILD_CARDS = ("2", "JK")


@dataclass(frozen=True)
class DealReplay:
    """A deal as frames, with its move log.

    Attributes
    ----------
    title : str
        What the deal is (the run folder's name and deal, or the seed).
    address : str or None
        The ``--from-run`` address prefix ``RUN_FOLDER:DEAL`` (None for a deal given by seed).
    command : str
        The ``canasta-sim replay`` command that lists the same deal.
    players, sides : int
    seats : tuple of str
        The bot spec of every seat.
    frames : list of dict
        One per decision, then the deal's end (keys in :func:`table_frame`).
    log : list of str
        The move log, one line per trace event (:func:`canasta_sim.game.trace.format_trace`).
    """

    title: str
    address: str | None
    command: str
    players: int
    sides: int
    seats: tuple[str, ...]
    frames: list[dict]
    log: list[str]

    def to_dict(self) -> dict:
        """The replay as JSON data (what ``/api/deal`` answers and the export embeds)."""
        return {
            "title": self.title,
            "address": self.address,
            "command": self.command,
            "players": self.players,
            "sides": self.sides,
            "seats": list(self.seats),
            "frames": self.frames,
            "log": self.log,
        }


def table_frame(deal: Deal, decision: int, scores: tuple[int, ...]) -> dict:
    """The table of ``deal`` now, as JSON data.

    Parameters
    ----------
    deal : Deal
        Built with ``trace=True``.
    decision : int
        0 before the turn's first move, 1 after it (ignored once the deal is over).
    scores : tuple of int
        Each side's cumulative score before the deal (points).

    Returns
    -------
    dict
        ``turn``, ``decision``, ``seat`` (to play), ``phase`` (draw, play or over),
        ``hands`` (card text per seat), ``melds`` (per side: list of ``{rank, cards,
        canasta}`` with ``canasta`` ``""``, ``"natural"`` or ``"mixed"``, R-62),
        ``red_threes`` (per side), ``pile`` (card text, bottom first), ``frozen`` (R-31),
        ``blocked`` (a black three on top, R-23), ``stock`` (cards), ``minimums`` (per side,
        points, R-64), ``scores`` (per side, before the deal), ``events`` (trace events so
        far: the move log's lines up to here), and once over ``end`` (reason) and ``result``
        (per side, the score parts of :meth:`Deal.score`).
    """
    rules = deal.rules
    pile = deal.pile
    frame: dict[str, Any] = {
        "turn": deal.turns,
        "decision": decision if not deal.is_over else None,
        "seat": deal.current_player,
        "phase": deal.phase,
        "hands": deal.hands,
        "melds": [_melds(deal, side) for side in range(rules.sides)],
        "red_threes": [deal.red_threes(side) for side in range(rules.sides)],
        "pile": pile,
        "frozen": deal.pile_frozen,
        "blocked": pile.split()[-1:] == ["B3"],
        "stock": deal.stock_size,
        "minimums": [int(m) for m in deal.view.sides[:, SideSlot.minimum]],
        "scores": list(scores),
        "events": len(deal.trace()),
    }
    if deal.is_over:
        frame["end"] = deal.end_reason
        frame["result"] = [deal.score()[side] for side in range(rules.sides)]
    return frame


def _melds(deal: Deal, side: int) -> list[dict]:
    out = []
    for rank, cards in deal.melds(side).items():
        tokens = cards.split()
        kind = ""
        if len(tokens) >= CANASTA_CARDS:
            kind = "mixed" if any(t in WILD_CARDS for t in tokens) else "natural"
        out.append({"rank": rank, "cards": cards, "canasta": kind})
    return out


def replay_frames(run: RunDeal, *, title: str, address: str | None, command: str) -> DealReplay:
    """Play ``run``'s deal again with its bots and take a frame at every decision.

    Every turn is played whole on a copy and its first move repeated on the deal
    (:func:`canasta_sim.run.address.first_move`), so the frame of decision 1 is the position
    ``analyse --from-run RUN:DEAL:TURN:1`` analyses.

    Raises
    ------
    ValueError
        For a bad bot spec among ``run.seats``.
    """
    deal = run.new_deal(trace=True)
    seats = list(run.seats)
    frames = [table_frame(deal, 0, run.scores)]
    while not deal.is_over:
        after = first_move(deal, seats=seats)
        if not deal.is_over:
            frames.append(table_frame(deal, 1, run.scores))
        deal = after
        frames.append(table_frame(deal, 0, run.scores))
    log = format_trace(deal.trace()).splitlines()
    rules = run.rules
    return DealReplay(title, address, command, rules.players, rules.sides, run.seats, frames, log)
