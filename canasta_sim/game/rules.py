"""The rules configuration: every switch of RULES.md section 8, validated once.

:class:`Rules` is what users build and save; :meth:`Rules.to_array` is the integer form the
kernels take as an argument (never read from a module global).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from ..cards import KINDS, N_KINDS
from ..errors import BadSwitch
from ..nb.enums import RULES_LEN, RuleSlot

#: Section 2's table, by player count: (sides, cards dealt, cards drawn, canastas to go out,
#: cards in the pack, game target).
PLAYER_TABLE = {
    2: (2, 15, 2, 2, 108, 5000),
    3: (3, 13, 1, 1, 108, 5000),
    4: (2, 11, 1, 1, 108, 5000),
    6: (2, 13, 1, 2, 162, 10000),
}

#: Card values in points, R-04, in :data:`canasta_sim.KINDS` order (red three: bonus card, 0).
DEFAULT_CARD_VALUES = (0, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20, 20, 50)

#: The switches that are true or false (section 8); the others are integers or lists of them.
BOOL_SWITCHES = (
    "upcard_covers_black_three",
    "red_three_upcard_freezes",
    "wilds_at_most_naturals",
    "concealed_out_needs_minimum",
    "meld_after_last_red_three",
)
_POINT_SWITCHES = (
    "concealed_canasta_bonus",
    "natural_canasta_bonus",
    "mixed_canasta_bonus",
    "going_out_bonus",
    "concealed_going_out_bonus",
    "red_three_bonus",
    "all_red_threes_bonus",
)

PRESETS = ("classic", "hoyle")

#: How a true/false switch may be written as text (``--set``, a study's axis), in any case: the
#: spellings click's ``BOOL`` reads, as (true, false) pairs. A rules file gives JSON booleans.
BOOL_SPELLINGS = (
    ("true", "false"),
    ("yes", "no"),
    ("on", "off"),
    ("1", "0"),
    ("t", "f"),
    ("y", "n"),
)

# Upper bounds that keep every deal score far inside the int32 records (R-50..R-54).
MAX_POINTS = 10_000
MAX_CARD_VALUE = 1_000
MAX_TARGET = 10_000_000
MAX_TURNS = 30_000  # turn counts are int16 in the records


@dataclass(frozen=True)
class Rules:
    """A validated Canasta rules configuration (RULES.md section 8).

    Parameters
    ----------
    players : int
        2, 3, 4 or 6; sets section 2's table (sides, cards dealt and drawn, canastas needed to go
        out, 108 or 162 cards, game target).
    upcard_covers_black_three : bool
        R-12: a black three turned as the upcard is covered by another stock card.
    red_three_upcard_freezes : bool
        R-13: a red three among the upcard cards freezes the pile.
    wilds_at_most_naturals : bool
        R-60: a meld never has more wild cards than naturals (off under ``hoyle``).
    concealed_canasta_bonus : int
        R-66: extra points for a concealed canasta.
    concealed_out_needs_minimum : bool
        R-42: going out concealed still needs the side's minimum count.
    negative_minimum : int
        R-64: minimum count for a side whose score is below 0 (a positive multiple of 5).
    meld_after_last_red_three : bool
        R-45: the player who draws a red three as the last stock card may still meld.
    natural_canasta_bonus, mixed_canasta_bonus : int
        R-51, points.
    going_out_bonus, concealed_going_out_bonus : int
        R-52, points.
    red_three_bonus, all_red_threes_bonus : int
        R-50, points: each red three, and all four held by one side (108 cards). With 162 cards
        a side holding 5 or 6 red threes scores ``all_red_threes_bonus / 4`` per red three.
    card_values : tuple of int
        R-04: points per kind in :data:`canasta_sim.KINDS` order (15 values, multiples of 5;
        the red three's entry must be 0).
    game_target : int or None
        R-55: points that win a game; ``None`` takes section 2's value for ``players``.
    max_turns : int
        R-47: a deal reaching this many turns ends with end reason ``turn_limit``.

    Raises
    ------
    ValueError
        For an impossible combination; the message names the switch and the allowed values.
    """

    players: int = 4
    upcard_covers_black_three: bool = True
    red_three_upcard_freezes: bool = True
    wilds_at_most_naturals: bool = True
    concealed_canasta_bonus: int = 100
    concealed_out_needs_minimum: bool = False
    negative_minimum: int = 15
    meld_after_last_red_three: bool = True
    natural_canasta_bonus: int = 500
    mixed_canasta_bonus: int = 300
    going_out_bonus: int = 100
    concealed_going_out_bonus: int = 200
    red_three_bonus: int = 100
    all_red_threes_bonus: int = 800
    card_values: tuple = field(default=DEFAULT_CARD_VALUES)
    # None asks for the player table's target; __post_init__ replaces it, so readers see an int
    game_target: int = None  # type: ignore[assignment]
    max_turns: int = 2000

    def __post_init__(self):
        _require(
            _is_int(self.players) and self.players in PLAYER_TABLE,
            "players",
            self.players,
            "2, 3, 4 or 6",
        )
        for name in BOOL_SWITCHES:
            value = getattr(self, name)
            _require(isinstance(value, (bool, np.bool_)), name, value, "true or false")
        for name in _POINT_SWITCHES:
            value = getattr(self, name)
            _require(
                _is_int(value) and 0 <= value <= MAX_POINTS,
                name,
                value,
                f"an integer from 0 to {MAX_POINTS} (points)",
            )
        _require(
            _is_int(self.negative_minimum)
            and 0 < self.negative_minimum <= MAX_POINTS
            and self.negative_minimum % 5 == 0,
            "negative_minimum",
            self.negative_minimum,
            f"a positive multiple of 5 up to {MAX_POINTS} (points)",
        )
        values = tuple(self.card_values) if isinstance(self.card_values, (tuple, list)) else ()
        _require(
            len(values) == N_KINDS
            and all(_is_int(v) and 0 <= v <= MAX_CARD_VALUE and v % 5 == 0 for v in values)
            and values[0] == 0,
            "card_values",
            self.card_values,
            f"{N_KINDS} multiples of 5 from 0 to {MAX_CARD_VALUE} in the order "
            f"{', '.join(KINDS)}, "
            "with 0 for the red three (a bonus card, R-04)",
        )
        object.__setattr__(self, "card_values", tuple(int(v) for v in values))
        if self.game_target is None:
            object.__setattr__(self, "game_target", PLAYER_TABLE[self.players][5])
        _require(
            _is_int(self.game_target) and 0 < self.game_target <= MAX_TARGET,
            "game_target",
            self.game_target,
            f"an integer from 1 to {MAX_TARGET} (points)",
        )
        _require(
            _is_int(self.max_turns) and 1 <= self.max_turns <= MAX_TURNS,
            "max_turns",
            self.max_turns,
            f"an integer from 1 to {MAX_TURNS} (turns)",
        )
        # NumPy scalars pass the checks; store plain ints and bools so that to_dict() and the
        # manifests built from it stay JSON-serialisable
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, np.bool_):
                object.__setattr__(self, f.name, bool(value))
            elif isinstance(value, np.integer):
                object.__setattr__(self, f.name, int(value))

    # --- section 2's table -----------------------------------------------------------------
    @property
    def sides(self) -> int:
        """Number of sides (R-10): 2 in partnership games and with 2 players, else 3."""
        return PLAYER_TABLE[self.players][0]

    @property
    def cards_dealt(self) -> int:
        """Cards dealt to each player (section 2)."""
        return PLAYER_TABLE[self.players][1]

    @property
    def cards_drawn(self) -> int:
        """Cards drawn from the stock per turn (section 2)."""
        return PLAYER_TABLE[self.players][2]

    @property
    def canastas_to_go_out(self) -> int:
        """Canastas a side needs to go out (section 2, R-40)."""
        return PLAYER_TABLE[self.players][3]

    @property
    def n_cards(self) -> int:
        """Cards in the pack: 108, or 162 with 6 players (R-01)."""
        return PLAYER_TABLE[self.players][4]

    def side_of(self, seat: int) -> int:
        """Side of a seat (R-10): seats alternate between the two partnerships."""
        return seat % self.sides

    def red_three_score(self, held: int) -> int:
        """Red-three score in points for ``held`` red threes of one side (R-50), before the
        sign for a side that made no meld."""
        all_threshold = 4 if self.n_cards == 108 else 5
        if held >= all_threshold:
            return held * self.all_red_threes_bonus // 4
        return held * self.red_three_bonus

    def minimum_table(self) -> tuple[tuple[int, int], ...]:
        """R-64's table as ``((score_at_least, minimum_count), ...)``, points, lowest first."""
        table = ((0, 50), (1500, 90), (3000, 120))
        return table + ((7500, 150),) if self.players == 6 else table

    # --- presets and serialisation ---------------------------------------------------------
    @classmethod
    def preset(cls, name: str, players: int = 4, **switches) -> Rules:
        """Return a named preset (section 8): ``"classic"`` or ``"hoyle"``, in any case
        (``"CLASSIC"`` is ``"classic"``).

        Raises
        ------
        ValueError
            If ``name`` is not a preset.
        """
        key = preset_name(name)
        if key is None:
            raise ValueError(
                f"unknown rules preset {name!r}; allowed: {', '.join(PRESETS)} (any case)"
            )
        base = {"players": players}
        if key == "hoyle":
            base.update(wilds_at_most_naturals=False, concealed_canasta_bonus=0)
        return cls.from_dict({**base, **switches})

    def to_dict(self) -> dict[str, Any]:
        """All switches as plain JSON-able values (``card_values`` as a list)."""
        d = dataclasses.asdict(self)
        d["card_values"] = list(self.card_values)
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Inverse of :meth:`to_dict`.

        Raises
        ------
        ValueError
            On an unknown switch (the message lists the known ones) or a bad value.
        """
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise BadSwitch(
                unknown[0],
                f"unknown rules switch {unknown[0]!r}; allowed: {', '.join(sorted(known))}",
            )
        return cls(**data)

    def to_array(self) -> np.ndarray:
        """The integer form the kernels take: ``ndarray(int32, (RULES_LEN,))``, slots
        :data:`~canasta_sim.nb.enums.RuleSlot` (a fresh copy on every call)."""
        return self._array.copy()

    @cached_property
    def _array(self) -> np.ndarray:
        # built once per Rules (frozen): building an information set asks for it five times
        a = np.zeros(RULES_LEN, dtype=np.int32)
        a[RuleSlot.players] = self.players
        a[RuleSlot.sides] = self.sides
        a[RuleSlot.deal_size] = self.cards_dealt
        a[RuleSlot.draw_count] = self.cards_drawn
        a[RuleSlot.canastas_to_go_out] = self.canastas_to_go_out
        a[RuleSlot.n_cards] = self.n_cards
        a[RuleSlot.upcard_covers_black_three] = self.upcard_covers_black_three
        a[RuleSlot.red_three_upcard_freezes] = self.red_three_upcard_freezes
        a[RuleSlot.wilds_at_most_naturals] = self.wilds_at_most_naturals
        a[RuleSlot.concealed_canasta_bonus] = self.concealed_canasta_bonus
        a[RuleSlot.concealed_out_needs_minimum] = self.concealed_out_needs_minimum
        a[RuleSlot.meld_after_last_red_three] = self.meld_after_last_red_three
        a[RuleSlot.natural_canasta_bonus] = self.natural_canasta_bonus
        a[RuleSlot.mixed_canasta_bonus] = self.mixed_canasta_bonus
        a[RuleSlot.going_out_bonus] = self.going_out_bonus
        a[RuleSlot.concealed_going_out_bonus] = self.concealed_going_out_bonus
        a[RuleSlot.max_turns] = self.max_turns
        a[RuleSlot.negative_minimum] = self.negative_minimum
        a[RuleSlot.game_target] = self.game_target
        a[RuleSlot.values : RuleSlot.values + N_KINDS] = self.card_values
        for held in range(7):
            a[RuleSlot.red_three_table + held] = self.red_three_score(held)
        table = self.minimum_table()
        table += (table[-1],) * (4 - len(table))  # the kernel reads 4 rows; a repeat is inert
        for i, (threshold, minimum) in enumerate(table):
            a[RuleSlot.min_thresholds + i] = threshold
            a[RuleSlot.min_counts + i] = minimum
        for seat in range(self.players):
            a[RuleSlot.side_of + seat] = seat % self.sides
            a[RuleSlot.next_seat + seat] = (seat + 1) % self.players
        return a


def game_over(scores: np.ndarray, target: int) -> tuple[np.ndarray, np.ndarray]:
    """R-55 per game: ``(over, winner)``; a game is over when a side reached ``target`` and
    the highest total is not shared (an exact tie plays another deal).

    Parameters
    ----------
    scores : ndarray(int, (n, sides))
        Each game's cumulative scores (points).
    target : int
        The game's target score (points, ``Rules.game_target``).

    Returns
    -------
    over : ndarray(bool, (n,))
    winner : ndarray(int64, (n,))
        The winning side of a game that is over, else -1.
    """
    best = scores.max(axis=1)
    unique = (scores == best[:, None]).sum(axis=1) == 1
    over = (best >= target) & unique
    return over, np.where(over, scores.argmax(axis=1), -1)


def preset_name(text) -> str | None:
    """The preset that ``text`` names, ignoring case and surrounding blanks.

    Parameters
    ----------
    text : str
        A preset name as typed, e.g. ``"CLASSIC"`` or ``" hoyle"``.

    Returns
    -------
    str or None
        The entry of :data:`PRESETS` (``"classic"``, ``"hoyle"``), or ``None`` if ``text``
        names no preset.
    """
    if not isinstance(text, str):
        return None
    key = text.strip().lower()
    return key if key in PRESETS else None


def switch_from_text(name: str, text: str):
    """The value of rules switch ``name`` written as ``text`` (``--set NAME=TEXT``, a study's
    axis value).

    Parameters
    ----------
    name : str
        A switch of RULES.md section 8 (a field of :class:`Rules`).
    text : str
        For a switch of :data:`BOOL_SWITCHES` one of :data:`BOOL_SPELLINGS` (any
        case, surrounding spaces ignored); for the others an integer or a comma list of
        integers (``card_values``).

    Returns
    -------
    bool, int, tuple of int or str
        The value, unchecked against the switch's range (:class:`Rules` checks it); ``text``
        as it is for a name that is no switch, so that :class:`Rules` names the known ones.

    Raises
    ------
    BadSwitch
        For text the switch cannot read; the message names the text and what is allowed.
    """
    low = text.strip().lower()
    if name in BOOL_SWITCHES:
        for true, false in BOOL_SPELLINGS:
            if low in (true, false):
                return low == true
        spelled = ", ".join(f"{t}/{f}" for t, f in BOOL_SPELLINGS)
        raise BadSwitch(
            name,
            f"rules switch {name}={text.strip()!r} is not allowed; allowed: true or false, "
            f"written {spelled} (any case)",
        )
    if name not in {f.name for f in dataclasses.fields(Rules)}:
        return text.strip()
    try:
        return tuple(int(v) for v in low.split(",")) if "," in low else int(low)
    except ValueError:
        allowed = "a comma list of integers" if name == "card_values" else "an integer"
        raise BadSwitch(
            name, f"rules switch {name}={text.strip()!r} is not allowed; allowed: {allowed}"
        ) from None


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _require(ok: bool, switch: str, value, allowed: str) -> None:
    if not ok:
        raise BadSwitch(
            switch, f"rules switch {switch}={value!r} is not allowed; allowed: {allowed}"
        )
