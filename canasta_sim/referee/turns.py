"""A replayed turn (R-20..R-24, R-30..R-35, R-40..R-47, R-60..R-66): the draw or the pickup,
the melds (one laying-down per ``move`` id), the discard or going out, and the turn's close."""

from __future__ import annotations

from canasta_sim.cards import KINDS, N_KINDS, format_cards

from . import checks
from .fields import card_codes, ev_field, one_card
from .position import Meld, Move, PendingRedThrees, Phase, Position, cards_text, kind_counts, zeros
from .table import BLACK_THREE, RED_THREE, WILDS, TraceFormatError


def on_draw(pos: Position, ev: dict) -> None:
    """R-20, R-16, R-46: draw the stock's top card(s); red threes are replaced."""
    seat = pos.turn_seat(ev)
    if pos.draw_top(seat, ev, "R-20") == RED_THREE:
        pos.pending = PendingRedThrees(seat, "drawn", 1, "R-16", Phase.DRAW)
        pos.phase = Phase.LAY_RED_THREE
        return
    pos.turn.to_draw -= 1
    if pos.turn.to_draw == 0 or pos.stock_left == 0:
        pos.phase = Phase.PLAY


def on_take_pile(pos: Position, ev: dict) -> None:
    """R-30..R-35, R-44, R-64: take the discard pile, meld its top card (and melds from
    hand: one laying-down), then the rest of the pile goes to the hand."""
    seat = pos.turn_seat(ev)
    if pos.turn.to_draw != pos.rules.cards_drawn:
        pos.fail("R-21", "take_pile after drawing from the stock")
    side = pos.side_of(seat)
    top = one_card(ev_field(ev, "top"))
    rule = checks.pile_top_rule(pos.pile_top, top, sum(pos.hands[seat]), len(pos.pile))
    if rule:
        pos.fail(rule, _pile_top_text(pos, top), seat)
    with_cards = kind_counts(card_codes(ev_field(ev, "with")))
    extra = _take_melds(ev)
    used = [with_cards[k] + sum(c[k] for _, c in extra) for k in range(N_KINDS)]
    pos.remove_from_hand(seat, used, "take_pile")
    has_meld = top in pos.sides[side].melds
    rule = checks.pickup_rule(top, with_cards, pos.frozen_for(side), has_meld, pos.stock_left == 0)
    if rule:
        pos.fail(rule, _pickup_text(pos, rule, side, top, with_cards), seat)
    move = ev_field(ev, "move")
    pos.move = Move(move, seat, pos.index, not pos.sides[side].melded, pickup=True)
    pos.sides[side].melded = True
    top_and_with = with_cards.copy()
    top_and_with[top] += 1
    _lay(pos, seat, top, top_and_with)
    for rank, cards in extra:
        _lay(pos, seat, rank, cards)
    _pile_to_hand(pos, seat)
    pos.turn.took_pile = True
    pos.phase = Phase.PLAY
    _close_move(pos)  # the pickup is one laying-down; the rest of the pile never counts
    if pos.pending is not None:
        pos.phase = Phase.LAY_RED_THREE


def _pile_top_text(pos: Position, top: int) -> str:
    if not pos.pile:
        return "take_pile with an empty discard pile"
    if top != pos.pile[-1]:
        pile_top = KINDS[pos.pile[-1]]
        return f"take_pile names top card {KINDS[top]} but the pile's top is {pile_top}"
    if top in WILDS or top in (BLACK_THREE, RED_THREE):
        return f"the pile cannot be taken with {KINDS[top]} on top"
    return "a player holding one card may not take a one-card pile"


def _pickup_text(pos: Position, rule: str, side: int, top: int, with_cards: list[int]) -> str:
    if rule == "R-34":
        return (
            f"the top card {KINDS[top]} is not melded: `with` is empty and "
            f"side {side} has no meld of that rank"
        )
    if rule == "R-32":
        why = (
            "it holds a wild card or red three"
            if pos.frozen
            else f"side {side} has made no initial meld"
        )
        return (
            f"the pile is frozen ({why}): the top card {KINDS[top]} needs a "
            f"natural pair from hand, got `with` [{cards_text(with_cards)}]"
        )
    if rule == "R-44":
        return (
            "with an empty stock the pile is taken only with a natural pair or "
            "onto an existing meld"
        )
    return (
        f"the top card {KINDS[top]} with [{cards_text(with_cards)}] is neither a "
        "natural pair, a natural plus a wild, nor an existing meld"
    )


def _take_melds(ev: dict) -> list[tuple[int, list[int]]]:
    melds = ev.get("melds") or []
    if not isinstance(melds, list):
        raise TraceFormatError("take_pile.melds must be a list")
    return [
        (one_card(ev_field(m, "rank")), kind_counts(card_codes(ev_field(m, "cards"))))
        for m in melds
    ]


def _pile_to_hand(pos: Position, seat: int) -> None:
    """R-34: the rest of the pile joins the hand; its red threes are laid out (R-14)."""
    rest = kind_counts(pos.pile[:-1])
    for k in range(N_KINDS):
        if k != RED_THREE:  # red threes are laid out, never held
            pos.hands[seat][k] += rest[k]
            pos.turn.pile_cards[k] += rest[k]
    pos.pile = []
    pos.frozen = False
    if rest[RED_THREE]:
        pos.pending = PendingRedThrees(seat, "pile", rest[RED_THREE], "R-34", Phase.PLAY)


def on_meld_after_last_red_three(pos: Position, ev: dict) -> None:
    """R-45: after a last-card red three the player melds only with the switch on."""
    if not pos.rules.meld_after_last_red_three:
        pos.fail("R-45", "meld after a last-card red three (meld_after_last_red_three off)")
    on_meld(pos, ev)


def on_meld(pos: Position, ev: dict) -> None:
    """R-60..R-63: cards from hand create or extend the side's meld of one rank."""
    seat = pos.turn_seat(ev)
    cards = kind_counts(card_codes(ev_field(ev, "cards")))
    if sum(cards) == 0:
        pos.fail("R-60", "a meld event with no cards")
    rank = one_card(ev_field(ev, "rank"))
    move = ev_field(ev, "move")
    if pos.move is None or pos.move.id != move or pos.move.seat != seat:
        _close_move(pos)  # judged by the hand it leaves, before this meld's cards go
        side = pos.sides[pos.side_of(seat)]
        pos.move = Move(move, seat, pos.index, needs_minimum=not side.melded)
        side.melded = True
    pos.remove_from_hand(seat, cards, "meld")
    from_pile = _book_pile_cards(pos, seat, cards)
    _lay(pos, seat, rank, cards, from_pile)


def _book_pile_cards(pos: Position, seat: int, cards: list[int]) -> int:
    """R-66: how many of ``cards`` (already taken out of the hand) came from the pile.

    The player's own cards of each kind are used first; the rest are booked out of the
    turn's pile-origin counts.
    """
    pile, hand = pos.turn.pile_cards, pos.hands[seat]
    used = 0
    for k in range(N_KINDS):
        if cards[k] and pile[k]:
            own = hand[k] + cards[k] - pile[k]  # own cards held before this meld
            extra = max(0, cards[k] - own)
            pile[k] -= extra
            used += extra
    return used


def _lay(pos: Position, seat: int, rank: int, cards: list[int], from_pile: int = 0) -> None:
    """Put cards onto the side's meld of ``rank`` (R-62) and check R-60, R-61, R-63; they
    count toward the laying-down in ``pos.move`` (R-64).

    ``from_pile``: how many of the cards came from the pile taken this turn (R-66).
    """
    side = pos.sides[pos.side_of(seat)]
    rule = checks.meld_cards_rule(rank, cards)
    if rule:
        pos.fail(rule, f"[{cards_text(cards)}] cannot be melded as {KINDS[rank]}s")
    old = side.melds.get(rank)
    meld = Meld(rank, zeros(), pos.turn.index) if old is None else old
    after = [a + b for a, b in zip(meld.counts, cards)]
    rule = checks.meld_shape_rule(rank, after, old is not None, pos.rules.wilds_at_most_naturals)
    if rule:
        switch = " (wilds_at_most_naturals on)" if pos.rules.wilds_at_most_naturals else ""
        pos.fail(
            rule,
            f"[{format_cards(after)}] is not a legal meld: 3+ cards, 2+ naturals, at most "
            f"3 wild cards, never more wild cards than naturals{switch}; black threes 3 or 4",
        )
    if old is not None and old.created_turn != pos.turn.index:
        pos.turn.touched_old = True
    if from_pile:
        meld.pile_cards = True
    was_canasta = meld.is_canasta
    meld.counts = after
    side.melds[rank] = meld
    if meld.is_canasta and not was_canasta:
        # started and completed this turn, from the hand (at most the pile's top)
        meld.concealed = meld.created_turn == pos.turn.index and not meld.pile_cards
    if pos.first_meld_turn[seat] is None:
        pos.first_meld_turn[seat] = pos.turn.index
    move = pos.move
    if move is None:  # on_meld and on_take_pile open the laying-down first
        raise AssertionError("a meld outside a laying-down")
    if rank == BLACK_THREE and move.black_threes_event is None:
        move.black_threes_event = pos.index
    move.value += pos.rules.value(cards)


def _close_move(pos: Position) -> None:
    """Judge the laying-down that ends here by what it leaves in hand: black threes only
    in going out (R-63); a side's first laying-down reaches its minimum (R-64) unless R-42
    waives it, which the end of the turn settles."""
    move, pos.move = pos.move, None
    if move is None:
        return
    left = sum(pos.hands[move.seat])
    out = checks.goes_out(left, pos.phase is Phase.LAST_RED_THREE)
    if checks.black_threes_rule(move.black_threes_event is not None, out):
        raise pos.violation(
            "R-63",
            f"black threes melded in a laying-down that leaves {left} cards in hand "
            "(they are melded only in going out)",
            move.seat,
            event=move.black_threes_event,
        )
    minimum = pos.minimums[pos.side_of(move.seat)]
    if not move.needs_minimum or not checks.initial_meld_rule(move.value, minimum):
        return
    violation = pos.violation(
        "R-64",
        f"initial meld counts {move.value} points, below side "
        f"{pos.side_of(move.seat)}'s minimum {minimum}",
        move.seat,
        event=move.first_event,
    )
    if not checks.minimum_waived(move.pickup, out, pos.rules.concealed_out_needs_minimum):
        raise violation
    pos.turn.min_violation = violation


def on_discard(pos: Position, ev: dict) -> None:
    """R-20, R-22..R-24, R-40: discard one card, ending the turn or going out."""
    seat = pos.turn_seat(ev)
    card = one_card(ev_field(ev, "card"))
    _close_move(pos)
    pos.remove_from_hand(seat, kind_counts([card]), "discard")
    pos.pile.append(card)
    if card in WILDS:
        pos.frozen = True
    if sum(pos.hands[seat]) == 0:
        _check_canastas(pos, seat, "discarding the last card")
        pos.phase = Phase.MUST_GO_OUT
        return
    _finish_turn(pos, "discard")


def _check_canastas(pos: Position, seat: int, how: str) -> None:
    side = pos.side_of(seat)
    have, need = pos.canastas(side), pos.rules.canastas_to_go_out
    if checks.going_out_rule(have, need):
        pos.fail(
            "R-40",
            f"{how} is going out, which needs {need} canasta(s); side {side} holds {have}",
            seat,
        )


def on_end_turn(pos: Position, ev: dict) -> None:
    """R-45: after a last-card red three the turn ends without a discard."""
    pos.turn_seat(ev)
    _close_move(pos)
    _finish_turn(pos, "end_turn")


def on_go_out(pos: Position, ev: dict) -> None:
    """R-40..R-42: the hand is empty, the side holds its canastas; concealed or not."""
    seat = pos.turn_seat(ev)
    if sum(pos.hands[seat]):
        pos.fail("R-40", f"go_out with {sum(pos.hands[seat])} card(s) in hand")
    _close_move(pos)
    _check_canastas(pos, seat, "go_out")
    side = pos.sides[pos.side_of(seat)]
    new_canasta = any(
        m.created_turn == pos.turn.index and m.is_canasta for m in side.melds.values()
    )
    concealed = checks.concealed_out(
        pos.first_meld_turn[seat], pos.turn.index, pos.turn.touched_old, new_canasta
    )
    claimed = ev_field(ev, "concealed")
    if bool(claimed) != concealed:
        why = (
            "the player went out in one turn with a canasta and no earlier meld"
            if concealed
            else "the player melded before this turn, added to an older meld, or made no "
            "canasta this turn"
        )
        pos.fail("R-42", f"go_out says concealed={bool(claimed)}, but {why}")
    pos.out_seat, pos.out_concealed = seat, concealed
    _finish_turn(pos, "go_out")


def _finish_turn(pos: Position, how: str) -> None:
    """Close the turn: R-42's waiver of R-64, the turn count, next seat or end (R-47).

    A turn completes with a discard, a ``go_out`` or an ``end_turn`` (R-45, with either
    value of ``meld_after_last_red_three``).
    """
    going_out = how == "go_out"
    violation = pos.turn.min_violation
    if violation is not None and not (going_out and pos.out_concealed):
        raise violation
    pos.turns += 1
    if going_out:
        _deal_over(pos, "went_out")
    elif how == "end_turn":
        _deal_over(pos, "last_red_three")
    elif pos.turns >= pos.rules.max_turns:
        _deal_over(pos, "turn_limit")
    else:
        pos.begin_turn((pos.turn.seat + 1) % pos.rules.players)


def _deal_over(pos: Position, reason: str) -> None:
    pos.phase = Phase.OVER
    pos.expected_end = reason
