"""What the referee knows before the first move: card kinds, section 2's table, the switches.

Everything here is read from RULES.md (sections 1, 2, 7 and 8) and the trace's ``start`` event;
nothing comes from the engine but the card notation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from canasta_sim.cards import N_KINDS


class TraceFormatError(Exception):
    """The trace does not follow docs/trace.md (missing key, bad card, trace ends early)."""


RED_THREE, BLACK_THREE, DEUCE, JOKER = 0, 1, 13, 14
NATURALS = frozenset(range(2, 13))
WILDS = frozenset((DEUCE, JOKER))

#: Section 2 by player count: (sides, cards dealt, cards drawn, canastas to go out, pack size).
PLAYER_TABLE = {
    2: (2, 15, 2, 2, 108),
    3: (3, 13, 1, 1, 108),
    4: (2, 11, 1, 1, 108),
    6: (2, 13, 1, 2, 162),
}
#: Cards of each kind per pack (R-01/R-02): two decks + 4 jokers, or three decks + 6 jokers.
PACKS = {
    108: (4, 4) + (8,) * 11 + (8, 4),
    162: (6, 6) + (12,) * 11 + (12, 6),
}
END_REASONS = ("went_out", "stock_exhausted", "last_red_three", "turn_limit")
#: The rule an end reason stands for, used when a deal ends the wrong way.
REASON_RULE = {
    "went_out": "R-40",
    "stock_exhausted": "R-44",
    "last_red_three": "R-45",
    "turn_limit": "R-47",
}
#: Score parts and the rule each one implements (R-50..R-54).
SCORE_PARTS = (
    ("red_threes", "R-50"),
    ("canasta_bonus", "R-51"),
    ("going_out_bonus", "R-52"),
    ("meld_points", "R-53"),
    ("hand_penalty", "R-54"),
)
RULE_SWITCHES = (
    "players",
    "upcard_covers_black_three",
    "red_three_upcard_freezes",
    "wilds_at_most_naturals",
    "concealed_canasta_bonus",
    "concealed_out_needs_minimum",
    "negative_minimum",
    "meld_after_last_red_three",
    "natural_canasta_bonus",
    "mixed_canasta_bonus",
    "going_out_bonus",
    "concealed_going_out_bonus",
    "red_three_bonus",
    "all_red_threes_bonus",
    "card_values",
    "max_turns",
)


#: Section 8's switches that are true or false; the others are whole numbers (points, turns).
FLAG_SWITCHES = frozenset(
    (
        "upcard_covers_black_three",
        "red_three_upcard_freezes",
        "wilds_at_most_naturals",
        "concealed_out_needs_minimum",
        "meld_after_last_red_three",
    )
)


def _whole(value, least: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def _check_switch(name: str, value) -> None:
    """A switch of a start event of the type section 8 gives it (a trace of another type
    is malformed, not a deal to referee)."""
    if name == "card_values":
        ok = isinstance(value, list) and all(_whole(v, 0) for v in value)
    elif name in FLAG_SWITCHES:
        ok = isinstance(value, bool)
    else:  # a turn limit or a target of at least 1; points from 0
        ok = _whole(value, 1 if name in ("max_turns", "game_target", "players") else 0)
    if not ok:
        raise TraceFormatError(f"start.rules {name}={value!r} is not of the switch's type")


@dataclass(frozen=True)
class TableRules:
    """The switches of a ``start`` event plus section 2's table derived from ``players``.

    Switches are read as attributes (``rules.wilds_at_most_naturals``).
    """

    players: int
    sides: int
    cards_dealt: int
    cards_drawn: int
    canastas_to_go_out: int
    n_cards: int
    switches: dict = field(repr=False)
    values: tuple = ()

    @classmethod
    def from_start(cls, start: dict) -> TableRules:
        """Build from a ``start`` event (its ``rules`` dict, or the switches at top level).

        Raises
        ------
        TraceFormatError
            If a switch is missing or ``players`` is not 2, 3, 4 or 6.
        """
        source = start.get("rules", start)
        if not isinstance(source, dict):
            raise TraceFormatError("start.rules is not a dict")
        missing = [k for k in RULE_SWITCHES if k not in source]
        if missing:
            raise TraceFormatError(f"start event lacks rules switch(es) {', '.join(missing)}")
        unknown = sorted(set(source) - set(RULE_SWITCHES) - {"game_target"})
        if unknown:
            raise TraceFormatError(f"start.rules has unknown switch(es) {', '.join(unknown)}")
        players = source["players"]
        if players not in PLAYER_TABLE or isinstance(players, bool):
            raise TraceFormatError(f"players={players!r}; allowed: 2, 3, 4 or 6")
        for name, value in source.items():
            _check_switch(name, value)
        values = tuple(source["card_values"])
        if len(values) != N_KINDS:
            raise TraceFormatError(f"card_values has {len(values)} entries, not {N_KINDS}")
        return cls(players, *PLAYER_TABLE[players], switches=dict(source), values=values)

    def __getattr__(self, name: str) -> Any:
        switches = self.__dict__.get("switches", {})
        if name in switches:
            return switches[name]
        raise AttributeError(name)

    def allowed_minimums(self) -> set[int]:
        """The minimum counts R-64's table can give (points)."""
        allowed = {self.negative_minimum, 50, 90, 120}
        if self.players == 6:
            allowed.add(150)
        return allowed

    def value(self, counts: list[int]) -> int:
        """Sum of the card values (R-04) of a count array, points."""
        return sum(v * n for v, n in zip(self.values, counts))
