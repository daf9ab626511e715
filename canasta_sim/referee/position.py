"""The position of a deal being replayed: what the referee knows after each event.

A :class:`Position` holds the stock, the discard pile, the hands as count arrays (R-02), each
side's melds and red threes, the turn being played and the :class:`Phase`; it describes itself
in the messages of a :class:`RuleViolation`. The handlers of :mod:`.dealing`, :mod:`.turns` and
:mod:`.scoring` check each event against it and change it.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NoReturn

from canasta_sim.cards import KINDS, N_KINDS, format_cards

from .fields import ev_field, ev_int, one_card
from .table import BLACK_THREE, DEUCE, JOKER, RED_THREE, TableRules, TraceFormatError


class Phase(enum.Enum):
    """Where the replay stands; each phase lists the events it takes in
    :data:`~.replay.TRANSITIONS`."""

    START = "start"  # before the start event
    UPCARD = "upcard"  # upcards are turned
    SETUP = "setup"  # dealt red threes laid out and replaced, seat by seat
    DRAW = "draw"  # the player draws or takes the pile (R-20, R-30..R-35, R-44)
    LAY_RED_THREE = "lay_red_three"  # a red three drawn or taken must be laid out now
    PLAY = "play"  # melds, then a discard or going out
    LAST_RED_THREE = "last_r3"  # after a last-card red three: melds (switch), end_turn
    MUST_GO_OUT = "must_go_out"  # the last card was discarded: go_out follows
    OVER = "over"  # the deal is over: the end event follows
    SCORE = "score"  # one score event per side
    DONE = "done"


class RuleViolation(Exception):
    """A trace event breaks rule ``rule`` (an ``"R-xx"`` id) at trace index ``event``."""

    def __init__(self, rule: str, message: str, event: int):
        super().__init__(f"{rule} at event {event}: {message}")
        self.rule = rule
        self.message = message
        self.event = event


# --- table state ------------------------------------------------------------------------------
def zeros() -> list[int]:
    return [0] * N_KINDS


def kind_counts(codes: Iterable[int]) -> list[int]:
    c = zeros()
    for k in codes:
        c[int(k)] += 1
    return c


def cards_text(counts: list[int]) -> str:
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
    def wilds(self) -> int:
        return self.counts[DEUCE] + self.counts[JOKER]

    @property
    def is_canasta(self) -> bool:
        return self.rank != BLACK_THREE and sum(self.counts) >= 7

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
    #: R-64 shortfall of a laying-down that R-42 may waive, settled when the turn ends.
    min_violation: RuleViolation | None = None
    #: Per kind, cards in the hand that came from the pile taken this turn (R-66).
    pile_cards: list = field(default_factory=zeros)


@dataclass
class Move:
    """One laying-down: the melds sharing a ``move`` id (R-64 counts them together)."""

    id: Any
    seat: int
    first_event: int
    needs_minimum: bool
    pickup: bool = False
    value: int = 0
    black_threes_event: int | None = None


@dataclass
class PendingRedThrees:
    """Red threes that must be laid out before anything else (R-15, R-16, R-34)."""

    seat: int
    source: str
    count: int
    rule: str
    resume: Phase


class Position:
    """The replayed deal's position and phase, with the queries and changes the handlers
    share; :class:`~.replay.Replay` feeds it the trace's events."""

    def __init__(self) -> None:
        self.rules: TableRules = None  # type: ignore[assignment]  # set by the start event
        self.index = 0
        self.phase = Phase.START
        self.deck: list[int] = []
        self.stock_pos = 0
        self.pile: list[int] = []
        self.frozen = False
        self.hands: list[list[int]] = []
        self.sides: list[Side] = []
        self.minimums: list[int] = []
        self.dealer = 0
        self.first_meld_turn: list[int | None] = []
        self.pending: PendingRedThrees | None = None
        self.setup_order: list[int] = []
        self.setup_pos = 0
        self.owed = 0
        self.turn: Turn = None  # type: ignore[assignment]  # set when play starts
        self.turns = 0
        self.move: Move | None = None
        self.expected_end = ""  # set when the deal is over
        self.out_seat: int | None = None
        self.out_concealed = False
        self.expected_scores: dict[int, dict[str, int]] = {}

    # --- reporting ----------------------------------------------------------------------------
    def fail(self, rule: str, what: str, seat: int | None = None) -> NoReturn:
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
            bits.append(f"seat {seat} hand [{cards_text(self.hands[seat])}]")
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

    # --- small queries ------------------------------------------------------------------------
    @property
    def stock_left(self) -> int:
        return len(self.deck) - self.stock_pos

    @property
    def pile_top(self) -> int | None:
        return self.pile[-1] if self.pile else None

    def side_of(self, seat: int) -> int:
        """Side of a seat (R-10)."""
        return seat % self.rules.sides

    def canastas(self, side: int) -> int:
        """Canastas (R-65) the side holds."""
        return sum(m.is_canasta for m in self.sides[side].melds.values())

    def frozen_for(self, side: int) -> bool:
        """R-31: frozen for everyone (wild or red three inside) or for a side without melds."""
        return self.frozen or not self.sides[side].melded

    def read_seat(self, ev: dict) -> int:
        seat = ev_int(ev, "seat")
        if not 0 <= seat < self.rules.players:
            raise TraceFormatError(f"seat {seat} out of range")
        return seat

    def turn_seat(self, ev: dict) -> int:
        seat = self.read_seat(ev)
        if seat != self.turn.seat:
            self.fail("R-20", f"seat {seat} acts but it is seat {self.turn.seat}'s turn")
        return seat

    def remove_from_hand(self, seat: int, counts: list[int], what: str) -> None:
        hand = self.hands[seat]
        short = [KINDS[k] for k in range(N_KINDS) if counts[k] > hand[k]]
        if short:
            self.fail("R-20", f"{what}: card(s) {' '.join(short)} not in seat {seat}'s hand", seat)
        for k in range(N_KINDS):
            hand[k] -= counts[k]

    # --- changes the handlers share -----------------------------------------------------------
    def pending_red_threes(self) -> PendingRedThrees:
        if self.pending is None:  # the phase LAY_RED_THREE always has one
            raise AssertionError("no red three pending")
        return self.pending

    def lay_red_three(self, seat: int) -> None:
        self.sides[self.side_of(seat)].red_threes += 1

    def draw_top(self, seat: int, ev: dict, rule: str) -> int:
        """The stock's top card into the hand (a red three: it is laid out next)."""
        card = one_card(ev_field(ev, "card"))
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
        if card != RED_THREE:
            self.hands[seat][card] += 1
        return card

    def begin_turn(self, seat: int) -> None:
        self.turn = Turn(index=self.turns, seat=seat, to_draw=self.rules.cards_drawn)
        self.phase = Phase.DRAW
