"""The replay of one deal's trace as a phase machine.

A :class:`Replay` holds the position (stock, discard pile, hands as count arrays, each side's
melds and red threes, the turn being played) and a :class:`Phase`. Each event is looked up in
:data:`TRANSITIONS` by (phase, event name); its handler checks the event with the pure rule
checks of :mod:`.checks`, applies it and sets the next phase. An event the table does not list
for the phase is refused by :meth:`Replay.refuse`, with the rule it breaks.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, NoReturn

from canasta_sim.cards import KINDS, N_KINDS, format_cards, kind_index, parse_sequence

from . import checks
from .table import (
    BLACK_THREE,
    DEUCE,
    END_REASONS,
    JOKER,
    REASON_RULE,
    RED_THREE,
    SCORE_PARTS,
    WILDS,
    TableRules,
    TraceFormatError,
)


class Phase(enum.Enum):
    """Where the replay stands; each phase lists the events it takes in :data:`TRANSITIONS`."""

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
    pile_cards: list = field(default_factory=_zeros)


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


def _name(ev: Any) -> str:
    if not isinstance(ev, dict):
        return "?"
    return str(ev.get("event", ev.get("type", "?")))


# --- the replay ------------------------------------------------------------------------------
class Replay:
    """Replays one deal's trace event by event and raises at the first broken rule.

    Use :meth:`feed` for each event in order, then :meth:`finish`.
    """

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

    # --- reporting ---------------------------------------------------------------------------
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

    # --- the phase machine -------------------------------------------------------------------
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
        self._settle(name)
        handler = TRANSITIONS.get((self.phase, name))
        if handler is None:
            self.refuse(name, ev)
        else:
            handler(self, ev)

    def _settle(self, name: str) -> None:
        """The steps that take no event: the upcards end when another event comes (R-12), the
        red-three setup when every seat has laid out and replaced its red threes (R-15)."""
        if self.phase is Phase.UPCARD and name != "upcard":
            if checks.needs_cover(self.pile_top, self.rules.upcard_covers_black_three):
                what = (
                    "no upcard turned"
                    if not self.pile
                    else f"upcard {KINDS[self.pile[-1]]} must be covered by another stock card"
                )
                self.fail("R-12", f"{what} before {name}")
            self.phase = Phase.SETUP
        if self.phase is Phase.SETUP:
            while self.setup_pos < len(self.setup_order):
                seat = self.setup_order[self.setup_pos]
                if self.hands[seat][RED_THREE] or self.owed:
                    return
                self.setup_pos += 1
            self._begin_turn(self.setup_order[0])
        if self.phase in (Phase.PLAY, Phase.LAST_RED_THREE) and name != "go_out":
            if sum(self.hands[self.turn.seat]) == 0:
                self.fail(
                    "R-22",
                    f"{name} with an empty hand: melding every card is going "
                    "out (R-40), expected go_out",
                )

    def refuse(self, name: str, ev: dict) -> NoReturn:
        """Report an event the phase does not take, with the rule it breaks."""
        phase = self.phase
        if phase is Phase.START:
            raise TraceFormatError("the trace must begin with a start event")
        if phase is Phase.DONE:
            raise TraceFormatError(f"{name} event after the last score event")
        if phase is Phase.LAY_RED_THREE:
            p = self._pending()
            self.fail(
                p.rule,
                f"{name} event, but seat {p.seat} must first lay out a red three "
                f"(red_three, source {p.source!r})",
                p.seat,
            )
        if phase is Phase.OVER:
            rule = REASON_RULE[self.expected_end]
            self.fail(
                rule, f"{name} after the deal ended ({self.expected_end}); expected the end event"
            )
        if phase is Phase.SCORE:
            raise TraceFormatError(f"{name} event among the score events")
        if phase is Phase.MUST_GO_OUT:
            self.fail(
                "R-22", f"{name} after discarding the last card: that is going out, expected go_out"
            )
        if phase is Phase.SETUP:
            seat = self.setup_order[self.setup_pos]
            owes = (
                f"{self.hands[seat][RED_THREE]} dealt red three(s) to lay out, "
                f"{self.owed} replacement(s) to draw"
            )
            self.fail("R-15", f"{name} event, but seat {seat} has {owes} first", seat)
        refusal = REFUSALS.get(name)
        if refusal is None:
            raise TraceFormatError(f"unknown or misplaced event {name!r}")
        rule, what = refusal(self, ev)
        self.fail(rule, what)

    def finish(self) -> None:
        """Check that the trace is complete: end event and one score per side."""
        if self.phase is not Phase.DONE:
            raise TraceFormatError(
                f"the trace ends early (phase {self.phase.value!r}): "
                "a deal ends with an end event and one score per side"
            )

    # --- start, deal, upcard, red-three replacement (R-01, R-11..R-15) ------------------------
    def _on_start(self, ev: dict) -> None:
        self.rules = rules = TableRules.from_start(ev)
        self.dealer = _int(ev, "dealer")
        if not 0 <= self.dealer < rules.players:
            raise TraceFormatError(f"dealer {self.dealer} out of range")
        self.deck = _codes(_field(ev, "deck"))
        if checks.pack_rule(_counts(self.deck), rules.n_cards):
            self.fail(
                "R-01",
                f"the deck is not a {rules.n_cards}-card pack: it holds "
                f"{len(self.deck)} cards, kinds {_counts(self.deck)}",
            )
        self._read_minimums(_field(ev, "minimums"))
        self.sides = [Side() for _ in range(rules.sides)]
        self.first_meld_turn = [None] * rules.players
        self._deal()
        self.phase = Phase.UPCARD

    def _read_minimums(self, minimums: Any) -> None:
        if not isinstance(minimums, list) or len(minimums) != self.rules.sides:
            raise TraceFormatError(f"start.minimums must list one count per side: {minimums!r}")
        self.minimums = [int(m) for m in minimums]
        allowed = self.rules.allowed_minimums()
        for side, m in enumerate(self.minimums):
            if checks.minimum_rule(m, allowed):
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

    def _on_upcard(self, ev: dict) -> None:
        """R-12, R-13: a stock card turned onto the pile while its top needs covering."""
        card = _card(_field(ev, "card"))
        stock_top = self.deck[self.stock_pos] if self.stock_left else None
        if checks.upcard_rule(self.pile_top, card, stock_top, self.rules.upcard_covers_black_three):
            if not checks.needs_cover(self.pile_top, self.rules.upcard_covers_black_three):
                self.fail("R-12", f"an extra upcard: {KINDS[self.pile[-1]]} on top needs no cover")
            top = KINDS[stock_top] if stock_top is not None else "nothing"
            self.fail("R-12", f"upcard {KINDS[card]} is not the stock's top card ({top})")
        self.stock_pos += 1
        self.pile.append(card)
        if checks.freezes_at_upcard(card, self.rules.red_three_upcard_freezes):
            self.frozen = True

    def _setup_seat(self, ev: dict) -> int | None:
        seat = self.setup_order[self.setup_pos]
        return seat if ("seat" in ev and self._seat(ev) == seat) else None

    def _on_setup_red_three(self, ev: dict) -> None:
        """R-15: the seat lays out a dealt red three, and owes a replacement."""
        seat = self._setup_seat(ev)
        if seat is None or ev.get("source") != "dealt" or not self.hands[seat][RED_THREE]:
            self.refuse("red_three", ev)
        self.hands[seat][RED_THREE] -= 1
        self._lay_red_three(seat)
        self.owed += 1

    def _on_setup_draw(self, ev: dict) -> None:
        """R-15: the seat draws a replacement; a red three drawn is laid out and replaced."""
        seat = self._setup_seat(ev)
        if seat is None or not self.owed:
            self.refuse("draw", ev)
        self.owed -= 1
        if self._draw_top(seat, ev, "R-20") == RED_THREE:
            self.pending = PendingRedThrees(seat, "drawn", 1, "R-15", Phase.SETUP)
            self.phase = Phase.LAY_RED_THREE

    def _pending(self) -> PendingRedThrees:
        if self.pending is None:  # the phase LAY_RED_THREE always has one
            raise AssertionError("no red three pending")
        return self.pending

    def _lay_red_three(self, seat: int) -> None:
        self.sides[self.side_of(seat)].red_threes += 1

    def _on_pending_red_three(self, ev: dict) -> None:
        """A drawn red three (R-15/R-16) or the pile's red threes (R-34) are laid out now."""
        p = self._pending()
        if ev.get("seat") != p.seat or ev.get("source") != p.source:
            self.refuse("red_three", ev)
        self._lay_red_three(p.seat)
        p.count -= 1
        if p.count:
            return
        self.pending, self.phase = None, p.resume
        if p.source != "drawn":
            return
        if p.resume is Phase.SETUP:
            self.owed += 1
        elif self.stock_left == 0:
            self.phase = Phase.LAST_RED_THREE

    def _draw_top(self, seat: int, ev: dict, rule: str) -> int:
        """The stock's top card into the hand (a red three: it is laid out next)."""
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
        if card != RED_THREE:
            self.hands[seat][card] += 1
        return card

    # --- turns (R-20..R-24, R-44..R-47) -------------------------------------------------------
    def _begin_turn(self, seat: int) -> None:
        self.turn = Turn(index=self.turns, seat=seat, to_draw=self.rules.cards_drawn)
        self.phase = Phase.DRAW

    def _on_draw(self, ev: dict) -> None:
        """R-20, R-16, R-46: draw the stock's top card(s); red threes are replaced."""
        seat = self._turn_seat(ev)
        if self._draw_top(seat, ev, "R-20") == RED_THREE:
            self.pending = PendingRedThrees(seat, "drawn", 1, "R-16", Phase.DRAW)
            self.phase = Phase.LAY_RED_THREE
            return
        self.turn.to_draw -= 1
        if self.turn.to_draw == 0 or self.stock_left == 0:
            self.phase = Phase.PLAY

    def _on_take_pile(self, ev: dict) -> None:
        """R-30..R-35, R-44, R-64: take the discard pile, meld its top card (and melds from
        hand: one laying-down), then the rest of the pile goes to the hand."""
        seat = self._turn_seat(ev)
        if self.turn.to_draw != self.rules.cards_drawn:
            self.fail("R-21", "take_pile after drawing from the stock")
        side = self.side_of(seat)
        top = _card(_field(ev, "top"))
        rule = checks.pile_top_rule(self.pile_top, top, sum(self.hands[seat]), len(self.pile))
        if rule:
            self.fail(rule, self._pile_top_text(top), seat)
        with_cards = _counts(_codes(_field(ev, "with")))
        extra = self._take_melds(ev)
        used = [with_cards[k] + sum(c[k] for _, c in extra) for k in range(N_KINDS)]
        self._remove_from_hand(seat, used, "take_pile")
        has_meld = top in self.sides[side].melds
        rule = checks.pickup_rule(
            top, with_cards, self.frozen_for(side), has_meld, self.stock_left == 0
        )
        if rule:
            self.fail(rule, self._pickup_text(rule, side, top, with_cards), seat)
        move = _field(ev, "move")
        self.move = Move(move, seat, self.index, not self.sides[side].melded, pickup=True)
        self.sides[side].melded = True
        top_and_with = with_cards.copy()
        top_and_with[top] += 1
        self._lay(seat, top, top_and_with)
        for rank, cards in extra:
            self._lay(seat, rank, cards)
        self._pile_to_hand(seat)
        self.turn.took_pile = True
        self.phase = Phase.PLAY
        self._close_move()  # the pickup is one laying-down; the rest of the pile never counts
        if self.pending is not None:
            self.phase = Phase.LAY_RED_THREE

    def _pile_top_text(self, top: int) -> str:
        if not self.pile:
            return "take_pile with an empty discard pile"
        if top != self.pile[-1]:
            pile_top = KINDS[self.pile[-1]]
            return f"take_pile names top card {KINDS[top]} but the pile's top is {pile_top}"
        if top in WILDS or top in (BLACK_THREE, RED_THREE):
            return f"the pile cannot be taken with {KINDS[top]} on top"
        return "a player holding one card may not take a one-card pile"

    def _pickup_text(self, rule: str, side: int, top: int, with_cards: list[int]) -> str:
        if rule == "R-34":
            return (
                f"the top card {KINDS[top]} is not melded: `with` is empty and "
                f"side {side} has no meld of that rank"
            )
        if rule == "R-32":
            why = (
                "it holds a wild card or red three"
                if self.frozen
                else f"side {side} has made no initial meld"
            )
            return (
                f"the pile is frozen ({why}): the top card {KINDS[top]} needs a "
                f"natural pair from hand, got `with` [{_text(with_cards)}]"
            )
        if rule == "R-44":
            return (
                "with an empty stock the pile is taken only with a natural pair or "
                "onto an existing meld"
            )
        return (
            f"the top card {KINDS[top]} with [{_text(with_cards)}] is neither a "
            "natural pair, a natural plus a wild, nor an existing meld"
        )

    @staticmethod
    def _take_melds(ev: dict) -> list[tuple[int, list[int]]]:
        melds = ev.get("melds") or []
        if not isinstance(melds, list):
            raise TraceFormatError("take_pile.melds must be a list")
        return [(_card(_field(m, "rank")), _counts(_codes(_field(m, "cards")))) for m in melds]

    def _pile_to_hand(self, seat: int) -> None:
        """R-34: the rest of the pile joins the hand; its red threes are laid out (R-14)."""
        rest = _counts(self.pile[:-1])
        for k in range(N_KINDS):
            if k != RED_THREE:  # red threes are laid out, never held
                self.hands[seat][k] += rest[k]
                self.turn.pile_cards[k] += rest[k]
        self.pile = []
        self.frozen = False
        if rest[RED_THREE]:
            self.pending = PendingRedThrees(seat, "pile", rest[RED_THREE], "R-34", Phase.PLAY)

    def _on_meld_after_last_red_three(self, ev: dict) -> None:
        """R-45: after a last-card red three the player melds only with the switch on."""
        if not self.rules.meld_after_last_red_three:
            self.fail("R-45", "meld after a last-card red three (meld_after_last_red_three off)")
        self._on_meld(ev)

    def _on_meld(self, ev: dict) -> None:
        """R-60..R-63: cards from hand create or extend the side's meld of one rank."""
        seat = self._turn_seat(ev)
        cards = _counts(_codes(_field(ev, "cards")))
        if sum(cards) == 0:
            self.fail("R-60", "a meld event with no cards")
        rank = _card(_field(ev, "rank"))
        move = _field(ev, "move")
        if self.move is None or self.move.id != move or self.move.seat != seat:
            self._close_move()  # judged by the hand it leaves, before this meld's cards go
            side = self.sides[self.side_of(seat)]
            self.move = Move(move, seat, self.index, needs_minimum=not side.melded)
            side.melded = True
        self._remove_from_hand(seat, cards, "meld")
        from_pile = self._book_pile_cards(seat, cards)
        self._lay(seat, rank, cards, from_pile)

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

    def _lay(self, seat: int, rank: int, cards: list[int], from_pile: int = 0) -> None:
        """Put cards onto the side's meld of ``rank`` (R-62) and check R-60, R-61, R-63; they
        count toward the laying-down in ``self.move`` (R-64).

        ``from_pile``: how many of the cards came from the pile taken this turn (R-66).
        """
        side = self.sides[self.side_of(seat)]
        rule = checks.meld_cards_rule(rank, cards)
        if rule:
            self.fail(rule, f"[{_text(cards)}] cannot be melded as {KINDS[rank]}s")
        old = side.melds.get(rank)
        meld = Meld(rank, _zeros(), self.turn.index) if old is None else old
        after = [a + b for a, b in zip(meld.counts, cards)]
        rule = checks.meld_shape_rule(
            rank, after, old is not None, self.rules.wilds_at_most_naturals
        )
        if rule:
            switch = " (wilds_at_most_naturals on)" if self.rules.wilds_at_most_naturals else ""
            self.fail(
                rule,
                f"[{format_cards(after)}] is not a legal meld: 3+ cards, 2+ naturals, at most "
                f"3 wild cards, never more wild cards than naturals{switch}; black threes 3 or 4",
            )
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
        move = self.move
        if move is None:  # _on_meld and _on_take_pile open the laying-down first
            raise AssertionError("a meld outside a laying-down")
        if rank == BLACK_THREE and move.black_threes_event is None:
            move.black_threes_event = self.index
        move.value += self.rules.value(cards)

    def _close_move(self) -> None:
        """Judge the laying-down that ends here by what it leaves in hand: black threes only
        in going out (R-63); a side's first laying-down reaches its minimum (R-64) unless R-42
        waives it, which the end of the turn settles."""
        move, self.move = self.move, None
        if move is None:
            return
        left = sum(self.hands[move.seat])
        out = checks.goes_out(left, self.phase is Phase.LAST_RED_THREE)
        if checks.black_threes_rule(move.black_threes_event is not None, out):
            raise self.violation(
                "R-63",
                f"black threes melded in a laying-down that leaves {left} cards in hand "
                "(they are melded only in going out)",
                move.seat,
                event=move.black_threes_event,
            )
        minimum = self.minimums[self.side_of(move.seat)]
        if not move.needs_minimum or not checks.initial_meld_rule(move.value, minimum):
            return
        violation = self.violation(
            "R-64",
            f"initial meld counts {move.value} points, below side "
            f"{self.side_of(move.seat)}'s minimum {minimum}",
            move.seat,
            event=move.first_event,
        )
        if not checks.minimum_waived(move.pickup, out, self.rules.concealed_out_needs_minimum):
            raise violation
        self.turn.min_violation = violation

    def _on_discard(self, ev: dict) -> None:
        """R-20, R-22..R-24, R-40: discard one card, ending the turn or going out."""
        seat = self._turn_seat(ev)
        card = _card(_field(ev, "card"))
        self._close_move()
        self._remove_from_hand(seat, _counts([card]), "discard")
        self.pile.append(card)
        if card in WILDS:
            self.frozen = True
        if sum(self.hands[seat]) == 0:
            self._check_canastas(seat, "discarding the last card")
            self.phase = Phase.MUST_GO_OUT
            return
        self._finish_turn("discard")

    def _check_canastas(self, seat: int, how: str) -> None:
        side = self.side_of(seat)
        have, need = self.canastas(side), self.rules.canastas_to_go_out
        if checks.going_out_rule(have, need):
            self.fail(
                "R-40",
                f"{how} is going out, which needs {need} canasta(s); side {side} holds {have}",
                seat,
            )

    def _on_end_turn(self, ev: dict) -> None:
        """R-45: after a last-card red three the turn ends without a discard."""
        self._turn_seat(ev)
        self._close_move()
        self._finish_turn("end_turn")

    def _on_go_out(self, ev: dict) -> None:
        """R-40..R-42: the hand is empty, the side holds its canastas; concealed or not."""
        seat = self._turn_seat(ev)
        if sum(self.hands[seat]):
            self.fail("R-40", f"go_out with {sum(self.hands[seat])} card(s) in hand")
        self._close_move()
        self._check_canastas(seat, "go_out")
        side = self.sides[self.side_of(seat)]
        new_canasta = any(
            m.created_turn == self.turn.index and m.is_canasta for m in side.melds.values()
        )
        concealed = checks.concealed_out(
            self.first_meld_turn[seat], self.turn.index, self.turn.touched_old, new_canasta
        )
        claimed = _field(ev, "concealed")
        if bool(claimed) != concealed:
            why = (
                "the player went out in one turn with a canasta and no earlier meld"
                if concealed
                else "the player melded before this turn, added to an older meld, or made no "
                "canasta this turn"
            )
            self.fail("R-42", f"go_out says concealed={bool(claimed)}, but {why}")
        self.out_seat, self.out_concealed = seat, concealed
        self._finish_turn("go_out")

    def _finish_turn(self, how: str) -> None:
        """Close the turn: R-42's waiver of R-64, the turn count, next seat or end (R-47).

        A turn completes with a discard, a ``go_out`` or an ``end_turn`` (R-45, with either
        value of ``meld_after_last_red_three``).
        """
        going_out = how == "go_out"
        violation = self.turn.min_violation
        if violation is not None and not (going_out and self.out_concealed):
            raise violation
        self.turns += 1
        if going_out:
            self._deal_over("went_out")
        elif how == "end_turn":
            self._deal_over("last_red_three")
        elif self.turns >= self.rules.max_turns:
            self._deal_over("turn_limit")
        else:
            self._begin_turn((self.turn.seat + 1) % self.rules.players)

    def _deal_over(self, reason: str) -> None:
        self.phase = Phase.OVER
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
        self.phase = Phase.SCORE

    def _expected_end_reason(self, reason: str) -> str:
        if self.phase is Phase.OVER:
            return self.expected_end
        if self.phase is Phase.DRAW and self.stock_left == 0:
            seat = self.turn.seat
            side = self.side_of(seat)
            top = self.pile_top
            if checks.forced_take_rule(
                top,
                self.frozen_for(side),
                top in self.sides[side].melds,
                sum(self.hands[seat]),
                len(self.pile),
            ):
                self.fail(
                    "R-44",
                    f"stock exhausted, but seat {seat} must take the pile: it is not "
                    f"frozen and its top {KINDS[top]} matches a meld of side {side}",  # type: ignore[index]
                )
            return "stock_exhausted"
        why = (
            f"the stock holds {self.stock_left} card(s)"
            if self.phase is Phase.DRAW
            else f"seat {self.turn.seat}'s turn is not over (phase {self.phase.value})"
        )
        self.fail(REASON_RULE[reason], f"end ({reason}) but the deal is not over: {why}")
        return reason

    def _score(self, side: int) -> dict[str, int]:
        """R-50..R-54 for one side, points."""
        r = self.rules
        state = self.sides[side]
        red = checks.red_three_score(
            state.red_threes, r.n_cards, r.red_three_bonus, r.all_red_threes_bonus
        )
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
            self.phase = Phase.DONE

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


Handler = Callable[[Replay, dict], None]

#: The phase machine: (phase, event name) -> handler. Every other pair is refused.
TRANSITIONS: dict[tuple[Phase, str], Handler] = {
    (Phase.START, "start"): Replay._on_start,
    (Phase.UPCARD, "upcard"): Replay._on_upcard,
    (Phase.SETUP, "red_three"): Replay._on_setup_red_three,
    (Phase.SETUP, "draw"): Replay._on_setup_draw,
    (Phase.LAY_RED_THREE, "red_three"): Replay._on_pending_red_three,
    (Phase.DRAW, "draw"): Replay._on_draw,
    (Phase.DRAW, "take_pile"): Replay._on_take_pile,
    (Phase.DRAW, "end"): Replay._on_end,
    (Phase.PLAY, "meld"): Replay._on_meld,
    (Phase.PLAY, "discard"): Replay._on_discard,
    (Phase.PLAY, "go_out"): Replay._on_go_out,
    (Phase.LAST_RED_THREE, "meld"): Replay._on_meld_after_last_red_three,
    (Phase.LAST_RED_THREE, "end_turn"): Replay._on_end_turn,
    (Phase.LAST_RED_THREE, "go_out"): Replay._on_go_out,
    (Phase.MUST_GO_OUT, "go_out"): Replay._on_go_out,
    (Phase.OVER, "end"): Replay._on_end,
    (Phase.SCORE, "score"): Replay._on_score,
}


def _refuse_draw(replay: Replay, ev: dict) -> tuple[str, str]:
    if replay.turn.took_pile:
        return "R-34", "draw after taking the pile: taking the pile replaces the draw"
    return "R-20", f"draw in phase {replay.phase.value}: the draw is over"


def _refuse_end(replay: Replay, ev: dict) -> tuple[str, str]:
    reason = _field(ev, "reason")
    if reason not in END_REASONS:
        raise TraceFormatError(f"unknown end reason {reason!r}")
    replay._expected_end_reason(reason)  # raises: the deal is not over
    raise AssertionError("unreachable")


def _refuse_red_three(replay: Replay, ev: dict) -> tuple[str, str]:
    seat = replay._seat(ev)
    return (
        "R-15",
        f"red_three for seat {seat} (source {ev.get('source')!r}) with no red three to lay out",
    )


#: Events out of place in a phase of play, and the rule each breaks.
REFUSALS: dict[str, Callable[[Replay, dict], tuple[str, str]]] = {
    "upcard": lambda r, ev: ("R-12", "an upcard turned after the deal started"),
    "red_three": _refuse_red_three,
    "draw": _refuse_draw,
    "take_pile": lambda r, ev: ("R-20", f"take_pile in phase {r.phase.value}: the draw is over"),
    "meld": lambda r, ev: ("R-20", f"meld in phase {r.phase.value}: draw or take the pile first"),
    "discard": lambda r, ev: (
        ("R-45", "discard after drawing a red three as the last stock card")
        if r.phase is Phase.LAST_RED_THREE
        else ("R-20", f"discard in phase {r.phase.value}")
    ),
    "go_out": lambda r, ev: ("R-40", f"go_out in phase {r.phase.value}"),
    "end_turn": lambda r, ev: (
        "R-45",
        "end_turn without a discard, but the last stock card drawn was not a red three",
    ),
    "end": _refuse_end,
    "score": lambda r, ev: ("R-20", "score event before the end of the deal"),
}
