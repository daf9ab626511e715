"""Independent rules checker: replays a deal's trace and checks every event against RULES.md.

The referee is written from ``RULES.md`` and ``docs/trace.md`` alone. It shares nothing with the
engine except the card notation (:mod:`canasta_sim.cards`): it derives section 2's table
(sides, cards dealt and drawn, canastas needed to go out, 108 or 162 cards) from the trace's own
``start`` event, deals the stacked deck itself, and follows every card from where the trace says
it comes from. The first event that breaks a rule is reported with the rule id (``"R-xx"``) and a
description of the position.

Readings of the rule book that the referee has to choose (see also the module's tests):

- Turns (``end.turns``, R-47) are *completed* turns: a turn completes with a discard, an
  ``end_turn`` (R-45) or a ``go_out``. The player who finds the stock empty and cannot take the
  pile (R-44) has not played a turn.
- A pickup whose top card is not melded (``with`` empty and no meld of that rank on the side) is
  reported as R-34 ("the top card is melded first"); a frozen pile taken without a natural pair
  is R-32; an unfrozen pile taken without (a), (b) or (c) of R-33 is R-33; with an empty stock
  anything but a natural pair or the top card onto a meld is R-44.
- Cards named in ``take_pile``'s ``with`` and ``melds`` come from the hand held *before* the
  rest of the pile joins it (docs/trace.md: "the rest of the pile goes to the hand afterwards");
  together with the top card they are the cards that count toward the minimum (R-64).
- R-64 is checked per ``move`` id: the cards of all meld events (and of a ``take_pile``) sharing
  the move id of a side's first meld count together. A shortfall is reported at the move's first
  event when the turn ends, unless the player goes out concealed (R-42) and
  ``concealed_out_needs_minimum`` is off.
- A concealed canasta (R-66) is a meld created and brought to 7 or more cards by one player in
  one turn from their hand, using at most the top card of the discard pile. Cards taken into the
  hand with the rest of the pile that turn are *not* hand cards for this purpose. Hands are
  counts, so the referee books them: when the player who took the pile melds cards of a kind,
  their own cards of that kind (held before the pickup) are used first; any card (natural, deuce
  or joker) beyond those came from the pile, is booked out of the pile-origin count of that kind,
  and the meld it goes onto, if started this turn, can no longer become a concealed canasta. The
  pile's top card melded in the pickup itself, and the ``with``/``melds`` cards of the pickup
  (from the hand held before), do not spoil it. The status is fixed when the meld becomes a
  canasta; cards added later (in that turn or later ones) do not remove it (a wild card added
  later makes it mixed, R-67).
- A black-three meld (R-63) is reported at its meld event when the turn ends without going out.
- Provenance errors (a card drawn that is not the stock's top, cards melded or discarded that are
  not in the hand, a wrong seat or phase) are reported as R-20; a wrong upcard as R-12; a pack
  with the wrong cards as R-01.
- ``score.hand_penalty`` is the (non-negative) number of points subtracted (R-54), and
  ``total`` is the other parts minus it; ``red_threes`` carries its sign (negative for a side
  without melds, R-50). A wrong ``total`` alone is reported as R-50 (the section's first rule).
- A trace that is malformed or ends early is not a rule failure: the verdict is not ok, with
  ``rule=None``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from canasta_sim.cards import KINDS, N_KINDS, format_cards, kind_index, parse_sequence

__all__ = [
    "Verdict",
    "RuleViolation",
    "TraceFormatError",
    "TableRules",
    "check_trace",
    "check_trace_file",
]

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


# --- results and errors ----------------------------------------------------------------------
@dataclass(frozen=True)
class Verdict:
    """Outcome of :func:`check_trace`.

    Attributes
    ----------
    ok : bool
        True if every event obeyed the rules and every score was reproduced.
    event : int or None
        Index in the trace of the first failing event; None when ok or when the trace ended
        early.
    rule : str or None
        Rule id that was broken (``"R-32"``); None when ok or when the trace is malformed or
        incomplete (not a rules failure).
    message : str
        What was wrong and the position: the player's hand, the pile's top card, size and frozen
        state, the side's melds, the stock size.
    events_checked : int
        Events read, including the one at which a failure was found.
    """

    ok: bool
    event: int | None
    rule: str | None
    message: str
    events_checked: int

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        if self.ok:
            return f"OK: {self.events_checked} events checked"
        where = "end of trace" if self.event is None else f"event {self.event}"
        rule = self.rule or "malformed trace"
        return f"FAIL {rule} at {where}: {self.message}"


class RuleViolation(Exception):
    """A trace event breaks rule ``rule`` (an ``"R-xx"`` id) at trace index ``event``."""

    def __init__(self, rule: str, message: str, event: int):
        super().__init__(f"{rule} at event {event}: {message}")
        self.rule = rule
        self.message = message
        self.event = event


class TraceFormatError(Exception):
    """The trace does not follow docs/trace.md (missing key, bad card, trace ends early)."""


# --- the rules, read from the start event ----------------------------------------------------
@dataclass(frozen=True)
class TableRules:
    """The switches of a ``start`` event plus section 2's table derived from ``players``."""

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
        players = source["players"]
        if players not in PLAYER_TABLE:
            raise TraceFormatError(f"players={players!r}; allowed: 2, 3, 4 or 6")
        values = tuple(int(v) for v in source["card_values"])
        if len(values) != N_KINDS:
            raise TraceFormatError(f"card_values has {len(values)} entries, not {N_KINDS}")
        return cls(players, *PLAYER_TABLE[players], switches=dict(source), values=values)

    def __getattr__(self, name: str) -> Any:
        switches = self.__dict__.get("switches", {})
        if name in switches:
            return switches[name]
        raise AttributeError(name)

    def red_three_score(self, held: int) -> int:
        """R-50 in points for ``held`` red threes, before the sign for a side without melds."""
        everything = 4 if self.n_cards == 108 else 5
        if held >= everything:
            if self.n_cards == 108:
                return self.all_red_threes_bonus
            return held * self.all_red_threes_bonus // 4
        return held * self.red_three_bonus

    def allowed_minimums(self) -> set[int]:
        """The minimum counts R-64's table can give (points)."""
        allowed = {self.negative_minimum, 50, 90, 120}
        if self.players == 6:
            allowed.add(150)
        return allowed

    def value(self, counts: list[int]) -> int:
        """Sum of the card values (R-04) of a count array, points."""
        return sum(v * n for v, n in zip(self.values, counts))


# --- table state -----------------------------------------------------------------------------
def _zeros() -> list[int]:
    return [0] * N_KINDS


def _counts(codes: Iterable[int]) -> list[int]:
    c = _zeros()
    for k in codes:
        c[int(k)] += 1
    return c


def _text(counts: list[int]) -> str:
    return format_cards(counts) or "-"


@dataclass
class Meld:
    """One meld of a side: the cards of each kind it holds and when it was created."""

    rank: int
    counts: list[int]
    created_turn: int
    concealed: bool = False
    #: Cards from the pile taken this turn (other than its top card) went onto it: R-66.
    pile_cards: bool = False

    @property
    def naturals(self) -> int:
        return self.counts[self.rank]

    @property
    def wilds(self) -> int:
        return self.counts[DEUCE] + self.counts[JOKER]

    @property
    def size(self) -> int:
        return sum(self.counts)

    @property
    def is_canasta(self) -> bool:
        return self.rank != BLACK_THREE and self.size >= 7

    def __str__(self) -> str:
        tag = ""
        if self.is_canasta:
            kind = "natural" if self.wilds == 0 else "mixed"
            tag = f" ({'concealed ' if self.concealed else ''}{kind} canasta)"
        return format_cards(self.counts) + tag


@dataclass
class Side:
    """A side's melds (by rank), its red threes and whether its initial meld is made."""

    melds: dict = field(default_factory=dict)
    red_threes: int = 0
    melded: bool = False


@dataclass
class Turn:
    """Bookkeeping for the turn being played."""

    index: int
    seat: int
    to_draw: int
    took_pile: bool = False
    touched_old: bool = False
    b3_violation: RuleViolation | None = None
    min_violation: RuleViolation | None = None
    #: Per kind, cards in the hand that came from the pile taken this turn (R-66).
    pile_cards: list = field(default_factory=_zeros)


@dataclass
class Move:
    """Melds sharing one ``move`` id: they count together toward the minimum (R-64)."""

    id: Any
    seat: int
    first_event: int
    needs_minimum: bool
    value: int = 0


# --- event field helpers ---------------------------------------------------------------------
def _field(ev: dict, key: str) -> Any:
    if key not in ev:
        raise TraceFormatError(f"{_name(ev)} event lacks key {key!r}")
    return ev[key]


def _int(ev: dict, key: str) -> int:
    value = _field(ev, key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise TraceFormatError(f"{_name(ev)}.{key}={value!r} is not an integer")
    return value


def _codes(value: Any) -> list[int]:
    try:
        if isinstance(value, str):
            return [int(k) for k in parse_sequence(value)]
        return [int(v) if isinstance(v, int) else kind_index(str(v)) for v in value]
    except (ValueError, TypeError) as exc:
        raise TraceFormatError(f"bad card text {value!r}: {exc}") from None


def _card(value: Any) -> int:
    codes = _codes(value)
    if len(codes) != 1:
        raise TraceFormatError(f"expected one card, got {value!r}")
    return codes[0]


def _rank(value: Any) -> int:
    return _card(value)


def _name(ev: Any) -> str:
    if not isinstance(ev, dict):
        return "?"
    return str(ev.get("event", ev.get("type", "?")))


# --- the replay ------------------------------------------------------------------------------
class Replay:
    """Replays one deal's trace event by event and raises at the first broken rule.

    Use :meth:`feed` for each event in order, then :meth:`finish`. State: the stock (deck order
    and a pointer), the discard pile (bottom first) and its frozen flag, each seat's hand as a
    count array, each side's melds and red threes, the turn being played.
    """

    def __init__(self) -> None:
        self.rules: TableRules | None = None
        self.index = 0
        self.phase = "start"
        self.deck: list[int] = []
        self.stock_pos = 0
        self.pile: list[int] = []
        self.frozen = False
        self.hands: list[list[int]] = []
        self.sides: list[Side] = []
        self.minimums: list[int] = []
        self.dealer = 0
        self.first_meld_turn: list[int | None] = []
        self.pending_r3: tuple[int, str, int, str] | None = None  # seat, source, count, rule
        self.setup_order: list[int] = []
        self.setup_pos = 0
        self.owed = 0
        self.turn: Turn | None = None
        self.turns = 0
        self.move: Move | None = None
        self.expected_end: str | None = None
        self.out_seat: int | None = None
        self.out_concealed = False
        self.expected_scores: dict[int, dict[str, int]] = {}

    # --- reporting ---------------------------------------------------------------------------
    def fail(self, rule: str, what: str, seat: int | None = None) -> None:
        """Raise :class:`RuleViolation` for the current event with a position description."""
        raise self.violation(rule, what, seat)

    def violation(
        self, rule: str, what: str, seat: int | None = None, event: int | None = None
    ) -> RuleViolation:
        message = f"{what} | position: {self.describe(seat)}"
        return RuleViolation(rule, message, self.index if event is None else event)

    def describe(self, seat: int | None = None) -> str:
        """The position in one line: hand, side's melds, pile, stock, turn."""
        if self.rules is None:
            return "before the start event"
        if seat is None and self.turn is not None:
            seat = self.turn.seat
        bits = []
        if seat is not None and 0 <= seat < len(self.hands):
            side = self.side_of(seat)
            bits.append(f"seat {seat} hand [{_text(self.hands[seat])}]")
            melds = ", ".join(str(m) for m in self.sides[side].melds.values()) or "none"
            initial = "" if self.sides[side].melded else ", no initial meld yet"
            bits.append(
                f"side {side} melds [{melds}]{initial}, {self.sides[side].red_threes} red three(s)"
            )
        bits.append(self._pile_text())
        bits.append(f"stock {self.stock_left} card(s)")
        bits.append(f"turns completed {self.turns}")
        return "; ".join(bits)

    def _pile_text(self) -> str:
        if not self.pile:
            return "pile empty"
        state = "frozen" if self.frozen else "not frozen"
        return f"pile top {KINDS[self.pile[-1]]}, {len(self.pile)} card(s), {state}"

    # --- small queries -----------------------------------------------------------------------
    @property
    def stock_left(self) -> int:
        return len(self.deck) - self.stock_pos

    def side_of(self, seat: int) -> int:
        """Side of a seat (R-10)."""
        return seat % self.rules.sides

    def canastas(self, side: int) -> int:
        """Canastas (R-65) the side holds."""
        return sum(m.is_canasta for m in self.sides[side].melds.values())

    def frozen_for(self, side: int) -> bool:
        """R-31: frozen for everyone (wild or red three inside) or for a side without melds."""
        return self.frozen or not self.sides[side].melded

    def _seat(self, ev: dict) -> int:
        seat = _int(ev, "seat")
        if not 0 <= seat < self.rules.players:
            raise TraceFormatError(f"seat {seat} out of range")
        return seat

    def _turn_seat(self, ev: dict) -> int:
        seat = self._seat(ev)
        if seat != self.turn.seat:
            self.fail("R-20", f"seat {seat} acts but it is seat {self.turn.seat}'s turn")
        return seat

    def _remove_from_hand(self, seat: int, counts: list[int], what: str) -> None:
        hand = self.hands[seat]
        short = [KINDS[k] for k in range(N_KINDS) if counts[k] > hand[k]]
        if short:
            self.fail("R-20", f"{what}: card(s) {' '.join(short)} not in seat {seat}'s hand", seat)
        for k in range(N_KINDS):
            hand[k] -= counts[k]

    # --- event loop --------------------------------------------------------------------------
    def feed(self, index: int, ev: dict) -> None:
        """Check one event and apply it to the position.

        Raises
        ------
        RuleViolation
            If the event breaks a rule.
        TraceFormatError
            If the event is malformed or out of place in the format.
        """
        self.index = index
        if not isinstance(ev, dict):
            raise TraceFormatError(f"event {index} is not a dict")
        name = _name(ev)
        if self.phase == "start":
            if name != "start":
                raise TraceFormatError("the trace must begin with a start event")
            return self._on_start(ev)
        if self.phase == "done":
            raise TraceFormatError(f"{name} event after the last score event")
        if self.pending_r3 is not None:
            return self._lay_pending_red_three(name, ev)
        if self.phase == "upcard" and self._upcard_phase(name, ev):
            return
        if self.phase == "setup" and self._setup_phase(name, ev):
            return
        self._check_phase_allows(name)
        handler = getattr(self, f"_on_{name}", None)
        if handler is None or name == "start":
            raise TraceFormatError(f"unknown or misplaced event {name!r}")
        handler(ev)

    def finish(self) -> None:
        """Check that the trace is complete: end event and one score per side."""
        if self.phase != "done":
            raise TraceFormatError(
                f"the trace ends early (phase {self.phase!r}): "
                "a deal ends with an end event and one score per side"
            )

    def _check_phase_allows(self, name: str) -> None:
        if self.phase == "over" and name != "end":
            rule = REASON_RULE[self.expected_end]
            self.fail(
                rule, f"{name} after the deal ended ({self.expected_end}); expected the end event"
            )
        if self.phase == "score" and name != "score":
            raise TraceFormatError(f"{name} event among the score events")
        if self.phase == "must_go_out" and name != "go_out":
            self.fail(
                "R-22", f"{name} after discarding the last card: that is going out, expected go_out"
            )
        if self.phase in ("play", "last_r3") and name != "go_out":
            if sum(self.hands[self.turn.seat]) == 0:
                self.fail(
                    "R-22",
                    f"{name} with an empty hand: melding every card is going "
                    "out (R-40), expected go_out",
                )

    # --- start, deal, upcard, red-three replacement (R-01, R-11..R-15) ------------------------
    def _on_start(self, ev: dict) -> None:
        self.rules = rules = TableRules.from_start(ev)
        self.dealer = _int(ev, "dealer")
        if not 0 <= self.dealer < rules.players:
            raise TraceFormatError(f"dealer {self.dealer} out of range")
        self.deck = _codes(_field(ev, "deck"))
        self._check_pack()
        self._check_minimums(_field(ev, "minimums"))
        self.sides = [Side() for _ in range(rules.sides)]
        self.first_meld_turn = [None] * rules.players
        self._deal()
        self.phase = "upcard"

    def _check_pack(self) -> None:
        n = self.rules.n_cards
        if len(self.deck) != n or tuple(_counts(self.deck)) != PACKS[n]:
            self.fail(
                "R-01",
                f"the deck is not a {n}-card pack: it holds "
                f"{len(self.deck)} cards, kinds {_counts(self.deck)}",
            )

    def _check_minimums(self, minimums: Any) -> None:
        if not isinstance(minimums, list) or len(minimums) != self.rules.sides:
            raise TraceFormatError(f"start.minimums must list one count per side: {minimums!r}")
        self.minimums = [int(m) for m in minimums]
        allowed = self.rules.allowed_minimums()
        for side, m in enumerate(self.minimums):
            if m not in allowed:
                self.fail(
                    "R-64",
                    f"side {side}'s minimum count {m} is not in R-64's table ({sorted(allowed)})",
                )

    def _deal(self) -> None:
        """R-11: one card at a time clockwise from the dealer's left, cards_dealt each."""
        players = self.rules.players
        self.hands = [_zeros() for _ in range(players)]
        first = (self.dealer + 1) % players
        for i in range(players * self.rules.cards_dealt):
            seat = (first + i) % players
            self.hands[seat][self.deck[self.stock_pos]] += 1
            self.stock_pos += 1
        self.setup_order = [(first + i) % players for i in range(players)]

    def _needs_cover(self) -> bool:
        """R-12: the pile's top must be covered while it is wild, a red or a black three."""
        if not self.pile:
            return True
        top = self.pile[-1]
        if top in WILDS or top == RED_THREE:
            return True
        return top == BLACK_THREE and bool(self.rules.upcard_covers_black_three)

    def _upcard_phase(self, name: str, ev: dict) -> bool:
        """Handle upcard events (R-12, R-13); return False once the upcard is complete."""
        if name != "upcard":
            if self._needs_cover():
                what = (
                    "no upcard turned"
                    if not self.pile
                    else f"upcard {KINDS[self.pile[-1]]} must be covered by another stock card"
                )
                self.fail("R-12", f"{what} before {name}")
            self.phase = "setup"
            return False
        if not self._needs_cover():
            self.fail("R-12", f"an extra upcard: {KINDS[self.pile[-1]]} on top needs no cover")
        card = _card(_field(ev, "card"))
        if self.stock_left == 0 or card != self.deck[self.stock_pos]:
            top = KINDS[self.deck[self.stock_pos]] if self.stock_left else "nothing"
            self.fail("R-12", f"upcard {KINDS[card]} is not the stock's top card ({top})")
        self.stock_pos += 1
        self.pile.append(card)
        if card in WILDS or (card == RED_THREE and self.rules.red_three_upcard_freezes):
            self.frozen = True
        return True

    def _advance_setup(self) -> None:
        while self.setup_pos < len(self.setup_order):
            seat = self.setup_order[self.setup_pos]
            if self.hands[seat][RED_THREE] or self.owed:
                return
            self.setup_pos += 1

    def _setup_phase(self, name: str, ev: dict) -> bool:
        """R-15: each seat from the dealer's left lays out dealt red threes and replaces them."""
        self._advance_setup()
        if self.setup_pos >= len(self.setup_order):
            self.phase = "draw"
            self._begin_turn(self.setup_order[0])
            return False
        seat = self.setup_order[self.setup_pos]
        ev_seat = self._seat(ev) if "seat" in ev else None
        if (
            name == "red_three"
            and ev_seat == seat
            and ev.get("source") == "dealt"
            and self.hands[seat][RED_THREE]
        ):
            self._lay_red_three(seat)
            self.owed += 1
            return True
        if name == "draw" and ev_seat == seat and self.owed:
            self.owed -= 1
            if self._draw_top(seat, ev, "R-20") == RED_THREE:
                self.pending_r3 = (seat, "drawn", 1, "R-15")
            return True
        owes = (
            f"{self.hands[seat][RED_THREE]} dealt red three(s) to lay out, "
            f"{self.owed} replacement(s) to draw"
        )
        self.fail("R-15", f"{name} event, but seat {seat} has {owes} first", seat)
        return True

    def _lay_red_three(self, seat: int) -> None:
        self.hands[seat][RED_THREE] -= 1
        self.sides[self.side_of(seat)].red_threes += 1

    def _lay_pending_red_three(self, name: str, ev: dict) -> None:
        """A drawn red three (R-15/R-16) or the pile's red threes (R-34) must be laid out now."""
        seat, source, count, rule = self.pending_r3
        ok = name == "red_three" and ev.get("seat") == seat and ev.get("source") == source
        if not ok:
            self.fail(
                rule,
                f"{name} event, but seat {seat} must first lay out a red three "
                f"(red_three, source {source!r})",
                seat,
            )
        self._lay_red_three(seat)
        self.pending_r3 = (seat, source, count - 1, rule) if count > 1 else None
        if source != "drawn":
            return
        if self.phase == "setup":
            self.owed += 1
        elif self.stock_left == 0:
            self.phase = "last_r3"

    def _draw_top(self, seat: int, ev: dict, rule: str) -> int:
        card = _card(_field(ev, "card"))
        if self.stock_left == 0:
            self.fail("R-44", "draw from an empty stock", seat)
        top = self.deck[self.stock_pos]
        if card != top:
            self.fail(
                rule,
                f"seat {seat} drew {KINDS[card]} but the stock's top card is {KINDS[top]}",
                seat,
            )
        self.stock_pos += 1
        self.hands[seat][card] += 1
        return card

    # --- turns (R-20..R-24, R-44..R-47) -------------------------------------------------------
    def _begin_turn(self, seat: int) -> None:
        self.turn = Turn(index=self.turns, seat=seat, to_draw=self.rules.cards_drawn)
        self.phase = "draw"

    def _on_upcard(self, ev: dict) -> None:
        self.fail("R-12", "an upcard turned after the deal started")

    def _on_red_three(self, ev: dict) -> None:
        seat = self._seat(ev)
        self.fail(
            "R-15",
            f"red_three for seat {seat} (source {ev.get('source')!r}) with no red three to lay out",
            seat,
        )

    def _on_draw(self, ev: dict) -> None:
        """R-20, R-16, R-46: draw the stock's top card(s); red threes are replaced."""
        seat = self._turn_seat(ev)
        if self.phase != "draw":
            if self.turn.took_pile:
                self.fail("R-34", "draw after taking the pile: taking the pile replaces the draw")
            self.fail("R-20", f"draw in phase {self.phase}: the draw is over")
        if self._draw_top(seat, ev, "R-20") == RED_THREE:
            self.pending_r3 = (seat, "drawn", 1, "R-16")
            return
        self.turn.to_draw -= 1
        if self.turn.to_draw == 0 or self.stock_left == 0:
            self.phase = "play"

    def _on_take_pile(self, ev: dict) -> None:
        """R-30..R-35, R-44: take the discard pile, meld its top card, then the rest to hand."""
        seat = self._turn_seat(ev)
        if self.phase != "draw":
            self.fail("R-20", f"take_pile in phase {self.phase}: the draw is over")
        if self.turn.to_draw != self.rules.cards_drawn:
            self.fail("R-21", "take_pile after drawing from the stock")
        top = self._check_top(seat, ev)
        with_cards = _counts(_codes(_field(ev, "with")))
        extra = self._take_melds(ev)
        used = [with_cards[k] + sum(c[k] for _, c in extra) for k in range(N_KINDS)]
        self._remove_from_hand(seat, used, "take_pile")
        self._check_pickup(seat, top, with_cards)
        move = _field(ev, "move")
        top_and_with = with_cards.copy()
        top_and_with[top] += 1
        self._lay(seat, move, top, top_and_with)
        for rank, cards in extra:
            self._lay(seat, move, rank, cards)
        self._pile_to_hand(seat)
        self.turn.took_pile = True
        self.phase = "play"

    def _check_top(self, seat: int, ev: dict) -> int:
        top = _card(_field(ev, "top"))
        if not self.pile:
            self.fail("R-30", "take_pile with an empty discard pile", seat)
        if top != self.pile[-1]:
            self.fail(
                "R-30",
                f"take_pile names top card {KINDS[top]} but the pile's top is "
                f"{KINDS[self.pile[-1]]}",
                seat,
            )
        if top in WILDS or top in (BLACK_THREE, RED_THREE):
            self.fail("R-30", f"the pile cannot be taken with {KINDS[top]} on top", seat)
        if sum(self.hands[seat]) == 1 and len(self.pile) == 1:
            self.fail("R-35", "a player holding one card may not take a one-card pile", seat)
        return top

    @staticmethod
    def _take_melds(ev: dict) -> list[tuple[int, list[int]]]:
        melds = ev.get("melds") or []
        if not isinstance(melds, list):
            raise TraceFormatError("take_pile.melds must be a list")
        return [(_rank(_field(m, "rank")), _counts(_codes(_field(m, "cards")))) for m in melds]

    def _check_pickup(self, seat: int, top: int, with_cards: list[int]) -> None:
        """R-32 (frozen: natural pair), R-33 (a, b, c), R-34 (top melded), R-44 (empty stock)."""
        side = self.side_of(seat)
        pair = with_cards[top] >= 2
        onto_meld = sum(with_cards) == 0
        has_meld = top in self.sides[side].melds
        if pair:
            return
        if onto_meld and not has_meld:
            self.fail(
                "R-34",
                f"the top card {KINDS[top]} is not melded: `with` is empty and "
                f"side {side} has no meld of that rank",
                seat,
            )
        if self.frozen_for(side):
            why = (
                "it holds a wild card or red three"
                if self.frozen
                else f"side {side} has made no initial meld"
            )
            self.fail(
                "R-32",
                f"the pile is frozen ({why}): the top card {KINDS[top]} needs a "
                f"natural pair from hand, got `with` [{_text(with_cards)}]",
                seat,
            )
        if has_meld:
            return  # R-33 (c)
        if self.stock_left == 0:
            self.fail(
                "R-44",
                "with an empty stock the pile is taken only with a natural pair or "
                "onto an existing meld",
                seat,
            )
        if with_cards[top] >= 1 and with_cards[DEUCE] + with_cards[JOKER] >= 1:
            return  # R-33 (b)
        self.fail(
            "R-33",
            f"the top card {KINDS[top]} with [{_text(with_cards)}] is neither a "
            "natural pair, a natural plus a wild, nor an existing meld",
            seat,
        )

    def _pile_to_hand(self, seat: int) -> None:
        """R-34: the rest of the pile joins the hand; its red threes are laid out (R-14)."""
        rest = _counts(self.pile[:-1])
        for k in range(N_KINDS):
            self.hands[seat][k] += rest[k]
            if k != RED_THREE:  # red threes are laid out, never held
                self.turn.pile_cards[k] += rest[k]
        self.pile = []
        self.frozen = False
        if rest[RED_THREE]:
            self.pending_r3 = (seat, "pile", rest[RED_THREE], "R-34")

    def _on_meld(self, ev: dict) -> None:
        """R-60..R-63: cards from hand create or extend the side's meld of one rank."""
        seat = self._turn_seat(ev)
        if self.phase == "draw":
            self.fail("R-20", "meld before drawing or taking the pile")
        if self.phase == "last_r3" and not self.rules.meld_after_last_red_three:
            self.fail("R-45", "meld after a last-card red three (meld_after_last_red_three off)")
        if self.phase not in ("play", "last_r3"):
            self.fail("R-20", f"meld in phase {self.phase}")
        cards = _counts(_codes(_field(ev, "cards")))
        if sum(cards) == 0:
            self.fail("R-60", "a meld event with no cards")
        rank = _rank(_field(ev, "rank"))
        self._remove_from_hand(seat, cards, "meld")
        from_pile = self._book_pile_cards(seat, cards)
        self._lay(seat, _field(ev, "move"), rank, cards, from_pile)

    def _book_pile_cards(self, seat: int, cards: list[int]) -> int:
        """R-66: how many of ``cards`` (already taken out of the hand) came from the pile.

        The player's own cards of each kind are used first; the rest are booked out of the
        turn's pile-origin counts.
        """
        pile, hand = self.turn.pile_cards, self.hands[seat]
        used = 0
        for k in range(N_KINDS):
            if cards[k] and pile[k]:
                own = hand[k] + cards[k] - pile[k]  # own cards held before this meld
                extra = max(0, cards[k] - own)
                pile[k] -= extra
                used += extra
        return used

    def _lay(self, seat: int, move: Any, rank: int, cards: list[int], from_pile: int = 0) -> None:
        """Put cards onto the side's meld of ``rank`` (R-62) and check R-60, R-61, R-63.

        ``from_pile``: how many of the cards came from the pile taken this turn (R-66).
        """
        side = self.sides[self.side_of(seat)]
        self._check_meld_cards(rank, cards)
        old = side.melds.get(rank)
        meld = Meld(rank, _zeros(), self.turn.index) if old is None else old
        after = [a + b for a, b in zip(meld.counts, cards)]
        self._check_meld_shape(rank, after, adding=old is not None)
        if old is not None and old.created_turn != self.turn.index:
            self.turn.touched_old = True
        if from_pile:
            meld.pile_cards = True
        was_canasta = meld.is_canasta
        meld.counts = after
        side.melds[rank] = meld
        if meld.is_canasta and not was_canasta:
            # started and completed this turn, from the hand (at most the pile's top)
            meld.concealed = meld.created_turn == self.turn.index and not meld.pile_cards
        if self.first_meld_turn[seat] is None:
            self.first_meld_turn[seat] = self.turn.index
        if rank == BLACK_THREE:
            self.turn.b3_violation = self.violation(
                "R-63", "black threes melded in a turn that does not go out"
            )
        self._count_move(seat, move, self.rules.value(cards))

    def _check_meld_cards(self, rank: int, cards: list[int]) -> None:
        if rank == RED_THREE:
            self.fail("R-63", "red threes are never melded")
        if rank == BLACK_THREE:
            if any(cards[k] for k in range(N_KINDS) if k != BLACK_THREE):
                self.fail(
                    "R-63", f"a black-three meld holds only black threes, got [{_text(cards)}]"
                )
            return
        if rank in WILDS:
            self.fail("R-60", f"a meld's rank is 4..A, not {KINDS[rank]}")
        foreign = [KINDS[k] for k in range(N_KINDS) if cards[k] and k != rank and k not in WILDS]
        if foreign:
            self.fail("R-60", f"meld of {KINDS[rank]} holds other cards: {' '.join(foreign)}")

    def _check_meld_shape(self, rank: int, after: list[int], adding: bool) -> None:
        """R-60/R-61: 3+ cards, 2+ naturals, at most 3 wilds, wilds <= naturals (switch)."""
        text = format_cards(after)
        if rank == BLACK_THREE:
            if not 3 <= after[BLACK_THREE] <= 4:
                self.fail("R-63", f"black threes are melded 3 or 4 at once, got [{text}]")
            return
        rule = "R-61" if adding else "R-60"
        naturals, wilds = after[rank], after[DEUCE] + after[JOKER]
        if naturals + wilds < 3:
            self.fail(rule, f"a meld has 3 or more cards, got [{text}]")
        if naturals < 2:
            self.fail(rule, f"a meld needs at least 2 naturals, got [{text}]")
        if wilds > 3:
            self.fail(rule, f"a meld has at most 3 wild cards, got [{text}]")
        if wilds > naturals and self.rules.wilds_at_most_naturals:
            self.fail(
                rule, f"wild cards outnumber naturals in [{text}] (wilds_at_most_naturals on)"
            )

    def _count_move(self, seat: int, move: Any, value: int) -> None:
        """R-64: melds sharing a move id count together toward a side's first meld."""
        if self.move is None or self.move.id != move or self.move.seat != seat:
            self._close_move()
            side = self.sides[self.side_of(seat)]
            self.move = Move(move, seat, self.index, needs_minimum=not side.melded)
            side.melded = True
        self.move.value += value

    def _close_move(self) -> None:
        move, self.move = self.move, None
        if move is None or not move.needs_minimum:
            return
        minimum = self.minimums[self.side_of(move.seat)]
        if move.value < minimum:
            self.turn.min_violation = self.violation(
                "R-64",
                f"initial meld counts {move.value} points, below side "
                f"{self.side_of(move.seat)}'s minimum {minimum}",
                move.seat,
                event=move.first_event,
            )

    def _on_discard(self, ev: dict) -> None:
        """R-20, R-22..R-24, R-40, R-45: discard one card, ending the turn or going out."""
        seat = self._turn_seat(ev)
        if self.phase == "last_r3":
            self.fail("R-45", "discard after drawing a red three as the last stock card")
        if self.phase != "play":
            self.fail("R-20", f"discard in phase {self.phase}")
        card = _card(_field(ev, "card"))
        self._remove_from_hand(seat, _counts([card]), "discard")
        self.pile.append(card)
        if card in WILDS:
            self.frozen = True
        self._close_move()
        if sum(self.hands[seat]) == 0:
            self._check_canastas(seat, "discarding the last card")
            self.phase = "must_go_out"
            return
        self._finish_turn("discard")

    def _check_canastas(self, seat: int, how: str) -> None:
        side = self.side_of(seat)
        have, need = self.canastas(side), self.rules.canastas_to_go_out
        if have < need:
            self.fail(
                "R-40",
                f"{how} is going out, which needs {need} canasta(s); side {side} holds {have}",
                seat,
            )

    def _on_end_turn(self, ev: dict) -> None:
        """R-45: after a last-card red three the turn ends without a discard."""
        self._turn_seat(ev)
        if self.phase != "last_r3":
            self.fail(
                "R-45",
                "end_turn without a discard, but the last stock card drawn was not a red three",
            )
        self._finish_turn("end_turn")

    def _on_go_out(self, ev: dict) -> None:
        """R-40..R-42: the hand is empty, the side holds its canastas; concealed or not."""
        seat = self._turn_seat(ev)
        if self.phase not in ("play", "last_r3", "must_go_out"):
            self.fail("R-40", f"go_out in phase {self.phase}")
        if sum(self.hands[seat]):
            self.fail("R-40", f"go_out with {sum(self.hands[seat])} card(s) in hand")
        self._close_move()
        self._check_canastas(seat, "go_out")
        concealed, why = self._concealed_out(seat)
        claimed = _field(ev, "concealed")
        if bool(claimed) != concealed:
            self.fail("R-42", f"go_out says concealed={bool(claimed)}, but {why}")
        self.out_seat, self.out_concealed = seat, concealed
        self._finish_turn("go_out")

    def _concealed_out(self, seat: int) -> tuple[bool, str]:
        """R-42: no earlier meld by the player, nothing added to older melds, a new canasta."""
        first = self.first_meld_turn[seat]
        if first is not None and first < self.turn.index:
            return False, f"seat {seat} melded on an earlier turn ({first})"
        if self.turn.touched_old:
            return False, "the player added to a meld made before this turn"
        new = [
            m
            for m in self.sides[self.side_of(seat)].melds.values()
            if m.created_turn == self.turn.index and m.is_canasta
        ]
        if not new:
            return False, "no canasta among the melds made this turn"
        return True, "the player went out in one turn with a canasta and no earlier meld"

    def _finish_turn(self, how: str) -> None:
        """Close the turn: deferred R-63/R-64 checks, turn count, next seat or end (R-47)."""
        self._close_move()
        turn = self.turn
        going_out = how == "go_out"
        if turn.b3_violation is not None and not going_out:
            raise turn.b3_violation
        waived = going_out and self.out_concealed and not self.rules.concealed_out_needs_minimum
        if turn.min_violation is not None and not waived:
            raise turn.min_violation
        self.turns += 1
        if going_out:
            self._deal_over("went_out")
        elif how == "end_turn":
            self._deal_over("last_red_three")
        elif self.turns >= self.rules.max_turns:
            self._deal_over("turn_limit")
        else:
            self._begin_turn((turn.seat + 1) % self.rules.players)

    def _deal_over(self, reason: str) -> None:
        self.phase = "over"
        self.expected_end = reason

    # --- end of the deal and scores (R-44, R-47, R-50..R-54) ----------------------------------
    def _on_end(self, ev: dict) -> None:
        """Check the end reason and turn count, then compute the expected scores."""
        reason = _field(ev, "reason")
        if reason not in END_REASONS:
            raise TraceFormatError(f"unknown end reason {reason!r}")
        expected = self._expected_end_reason(reason)
        if reason != expected:
            self.fail(REASON_RULE[expected], f"the deal ended by {expected}, but end says {reason}")
        turns = _int(ev, "turns")
        if turns != self.turns:
            self.fail("R-47", f"end says {turns} turns, {self.turns} were completed")
        self.expected_scores = {s: self._score(s) for s in range(self.rules.sides)}
        self.phase = "score"

    def _expected_end_reason(self, reason: str) -> str:
        if self.phase == "over":
            return self.expected_end
        if self.phase == "draw" and self.stock_left == 0:
            self._check_no_forced_take()
            return "stock_exhausted"
        why = (
            f"the stock holds {self.stock_left} card(s)"
            if self.phase == "draw"
            else f"seat {self.turn.seat}'s turn is not over (phase {self.phase})"
        )
        self.fail(REASON_RULE[reason], f"end ({reason}) but the deal is not over: {why}")
        return reason

    def _check_no_forced_take(self) -> None:
        """R-44: with an empty stock the player must take an unfrozen pile matching a meld."""
        seat = self.turn.seat
        side = self.side_of(seat)
        if not self.pile or self.frozen_for(side):
            return
        top = self.pile[-1]
        if top not in NATURALS or top not in self.sides[side].melds:
            return
        if sum(self.hands[seat]) == 1 and len(self.pile) == 1:
            return
        self.fail(
            "R-44",
            f"stock exhausted, but seat {seat} must take the pile: it is not "
            f"frozen and its top {KINDS[top]} matches a meld of side {side}",
        )

    def _score(self, side: int) -> dict[str, int]:
        """R-50..R-54 for one side, points."""
        r = self.rules
        state = self.sides[side]
        red = r.red_three_score(state.red_threes)
        if not state.melds:
            red = -red
        bonus = 0
        for meld in state.melds.values():
            if meld.is_canasta:
                bonus += r.natural_canasta_bonus if meld.wilds == 0 else r.mixed_canasta_bonus
                bonus += r.concealed_canasta_bonus if meld.concealed else 0
        out = 0
        if self.out_seat is not None and self.side_of(self.out_seat) == side:
            out = r.concealed_going_out_bonus if self.out_concealed else r.going_out_bonus
        melds = sum(r.value(m.counts) for m in state.melds.values())
        penalty = sum(r.value(self.hands[s]) for s in range(r.players) if self.side_of(s) == side)
        return {
            "red_threes": red,
            "canasta_bonus": bonus,
            "going_out_bonus": out,
            "meld_points": melds,
            "hand_penalty": penalty,
            "total": red + bonus + out + melds - penalty,
        }

    def _on_score(self, ev: dict) -> None:
        """Compare one side's score event with the recomputed parts (R-50..R-54)."""
        if self.phase != "score":
            self.fail("R-20", "score event before the end of the deal")
        side = _int(ev, "side")
        if side not in self.expected_scores:
            raise TraceFormatError(f"score for side {side}: unknown or already scored")
        want = self.expected_scores.pop(side)
        got = {key: _int(ev, key) for key, _ in SCORE_PARTS}
        for key, rule in SCORE_PARTS:
            if got[key] != want[key]:
                self.fail(
                    rule,
                    f"side {side} {key} is {got[key]}, the rules give {want[key]}"
                    f" ({self._score_text(side, want)})",
                )
        total = _int(ev, "total")
        if total != want["total"]:
            self.fail("R-50", f"side {side} total is {total}, the parts give {want['total']}")
        if not self.expected_scores:
            self.phase = "done"

    def _score_text(self, side: int, want: dict[str, int]) -> str:
        melds = ", ".join(str(m) for m in self.sides[side].melds.values()) or "none"
        hands = "; ".join(
            f"seat {s} [{_text(self.hands[s])}]"
            for s in range(self.rules.players)
            if self.side_of(s) == side
        )
        return (
            f"red threes {self.sides[side].red_threes}, melds [{melds}], hands {hands}, "
            f"expected parts {want}"
        )


# --- public API ------------------------------------------------------------------------------
def check_trace(trace: Iterable[dict]) -> Verdict:
    """Replay a deal's trace and check every event against RULES.md.

    The trace (docs/trace.md) starts with a ``start`` event holding the rules switches, the
    dealer, the deck (top of the stock first) and each side's minimum count. The referee deals
    the deck itself (R-11), checks the upcard (R-12, R-13) and the red-three replacement
    (R-14..R-16), then every draw, pickup (R-30..R-35), meld (R-60..R-66), discard and the
    going out (R-40..R-42), the end of the deal (R-44..R-47), and finally recomputes each side's
    score parts (R-50..R-54).

    Parameters
    ----------
    trace : iterable of dict
        The events in order, as written by the engine (or read from JSON lines).

    Returns
    -------
    Verdict
        ``ok`` true if every event obeyed the rules and every score matched; otherwise the index
        of the first failing event, the rule id it broke (``None`` for a malformed or truncated
        trace) and a message describing the position.
    """
    events = list(trace)
    replay = Replay()
    index = -1
    try:
        for index, ev in enumerate(events):
            replay.feed(index, ev)
    except RuleViolation as exc:
        return Verdict(False, exc.event, exc.rule, exc.message, index + 1)
    except TraceFormatError as exc:
        return Verdict(False, index, None, f"malformed trace: {exc}", index + 1)
    try:
        replay.finish()
    except TraceFormatError as exc:
        return Verdict(False, None, None, f"incomplete trace: {exc}", len(events))
    return Verdict(True, None, None, f"{len(events)} events obey the rules", len(events))


def check_trace_file(path: str | Path) -> Verdict:
    """Check a trace saved as JSON lines (one event per line) or as one JSON list.

    Parameters
    ----------
    path : str or Path
        File to read (UTF-8).

    Returns
    -------
    Verdict
        As :func:`check_trace`.
    """
    text = Path(path).read_text(encoding="utf-8")
    if text.lstrip().startswith("["):
        return check_trace(json.loads(text))
    return check_trace(json.loads(line) for line in text.splitlines() if line.strip())
