"""The start of a replayed deal (R-01, R-11..R-16): the start event, the deal, the upcards and
the red threes laid out and replaced, dealt or drawn."""

from __future__ import annotations

from typing import Any

from canasta_sim.cards import KINDS

from . import checks
from .fields import card_codes, ev_field, ev_int, one_card
from .position import PendingRedThrees, Phase, Position, Side, kind_counts, zeros
from .refusals import refuse
from .table import RED_THREE, TableRules, TraceFormatError


def on_start(pos: Position, ev: dict) -> None:
    """R-01, R-11, R-64: the table from the start event's switches, the dealer, the deck (a
    whole pack) and each side's minimum count; then the deal."""
    pos.rules = rules = TableRules.from_start(ev)
    pos.dealer = ev_int(ev, "dealer")
    if not 0 <= pos.dealer < rules.players:
        raise TraceFormatError(f"dealer {pos.dealer} out of range")
    pos.deck = card_codes(ev_field(ev, "deck"))
    if checks.pack_rule(kind_counts(pos.deck), rules.n_cards):
        pos.fail(
            "R-01",
            f"the deck is not a {rules.n_cards}-card pack: it holds "
            f"{len(pos.deck)} cards, kinds {kind_counts(pos.deck)}",
        )
    _read_minimums(pos, ev_field(ev, "minimums"))
    pos.sides = [Side() for _ in range(rules.sides)]
    pos.first_meld_turn = [None] * rules.players
    _deal(pos)
    pos.phase = Phase.UPCARD


def _read_minimums(pos: Position, minimums: Any) -> None:
    if not isinstance(minimums, list) or len(minimums) != pos.rules.sides:
        raise TraceFormatError(f"start.minimums must list one count per side: {minimums!r}")
    pos.minimums = [int(m) for m in minimums]
    allowed = pos.rules.allowed_minimums()
    for side, m in enumerate(pos.minimums):
        if checks.minimum_rule(m, allowed):
            pos.fail(
                "R-64",
                f"side {side}'s minimum count {m} is not in R-64's table ({sorted(allowed)})",
            )


def _deal(pos: Position) -> None:
    """R-11: one card at a time clockwise from the dealer's left, cards_dealt each."""
    players = pos.rules.players
    pos.hands = [zeros() for _ in range(players)]
    first = (pos.dealer + 1) % players
    for i in range(players * pos.rules.cards_dealt):
        seat = (first + i) % players
        pos.hands[seat][pos.deck[pos.stock_pos]] += 1
        pos.stock_pos += 1
    pos.setup_order = [(first + i) % players for i in range(players)]


def on_upcard(pos: Position, ev: dict) -> None:
    """R-12, R-13: a stock card turned onto the pile while its top needs covering."""
    card = one_card(ev_field(ev, "card"))
    stock_top = pos.deck[pos.stock_pos] if pos.stock_left else None
    if checks.upcard_rule(pos.pile_top, card, stock_top, pos.rules.upcard_covers_black_three):
        if not checks.needs_cover(pos.pile_top, pos.rules.upcard_covers_black_three):
            pos.fail("R-12", f"an extra upcard: {KINDS[pos.pile[-1]]} on top needs no cover")
        top = KINDS[stock_top] if stock_top is not None else "nothing"
        pos.fail("R-12", f"upcard {KINDS[card]} is not the stock's top card ({top})")
    pos.stock_pos += 1
    pos.pile.append(card)
    if checks.freezes_at_upcard(card, pos.rules.red_three_upcard_freezes):
        pos.frozen = True


def _setup_seat(pos: Position, ev: dict) -> int | None:
    seat = pos.setup_order[pos.setup_pos]
    return seat if ("seat" in ev and pos.read_seat(ev) == seat) else None


def on_setup_red_three(pos: Position, ev: dict) -> None:
    """R-15: the seat lays out a dealt red three, and owes a replacement."""
    seat = _setup_seat(pos, ev)
    if seat is None or ev.get("source") != "dealt" or not pos.hands[seat][RED_THREE]:
        refuse(pos, "red_three", ev)
    pos.hands[seat][RED_THREE] -= 1
    pos.lay_red_three(seat)
    pos.owed += 1


def on_setup_draw(pos: Position, ev: dict) -> None:
    """R-15: the seat draws a replacement; a red three drawn is laid out and replaced."""
    seat = _setup_seat(pos, ev)
    if seat is None or not pos.owed:
        refuse(pos, "draw", ev)
    pos.owed -= 1
    if pos.draw_top(seat, ev, "R-20") == RED_THREE:
        pos.pending = PendingRedThrees(seat, "drawn", 1, "R-15", Phase.SETUP)
        pos.phase = Phase.LAY_RED_THREE


def on_pending_red_three(pos: Position, ev: dict) -> None:
    """A drawn red three (R-15/R-16) or the pile's red threes (R-34) are laid out now."""
    p = pos.pending_red_threes()
    if ev.get("seat") != p.seat or ev.get("source") != p.source:
        refuse(pos, "red_three", ev)
    pos.lay_red_three(p.seat)
    p.count -= 1
    if p.count:
        return
    pos.pending, pos.phase = None, p.resume
    if p.source != "drawn":
        return
    if p.resume is Phase.SETUP:
        pos.owed += 1
    elif pos.stock_left == 0:
        pos.phase = Phase.LAST_RED_THREE
