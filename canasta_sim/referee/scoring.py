"""The end of a replayed deal and its scores (R-44, R-47, R-50..R-54): the end reason and turn
count checked, each side's score parts recomputed and compared with its score event."""

from __future__ import annotations

from canasta_sim.cards import KINDS

from . import checks
from .fields import ev_field, ev_int
from .position import Phase, Position, cards_text
from .table import END_REASONS, REASON_RULE, SCORE_PARTS, TraceFormatError


def on_end(pos: Position, ev: dict) -> None:
    """Check the end reason and turn count, then compute the expected scores."""
    reason = ev_field(ev, "reason")
    if reason not in END_REASONS:
        raise TraceFormatError(f"unknown end reason {reason!r}")
    expected = expected_end_reason(pos, reason)
    if reason != expected:
        pos.fail(REASON_RULE[expected], f"the deal ended by {expected}, but end says {reason}")
    turns = ev_int(ev, "turns")
    if turns != pos.turns:
        pos.fail("R-47", f"end says {turns} turns, {pos.turns} were completed")
    pos.expected_scores = {s: _score(pos, s) for s in range(pos.rules.sides)}
    pos.phase = Phase.SCORE


def expected_end_reason(pos: Position, reason: str) -> str:
    if pos.phase is Phase.OVER:
        return pos.expected_end
    if pos.phase is Phase.DRAW and pos.stock_left == 0:
        seat = pos.turn.seat
        side = pos.side_of(seat)
        top = pos.pile_top
        if checks.forced_take_rule(
            top,
            pos.frozen_for(side),
            top in pos.sides[side].melds,
            sum(pos.hands[seat]),
            len(pos.pile),
        ):
            pos.fail(
                "R-44",
                f"stock exhausted, but seat {seat} must take the pile: it is not "
                f"frozen and its top {KINDS[top]} matches a meld of side {side}",  # type: ignore[index]
            )
        return "stock_exhausted"
    why = (
        f"the stock holds {pos.stock_left} card(s)"
        if pos.phase is Phase.DRAW
        else f"seat {pos.turn.seat}'s turn is not over (phase {pos.phase.value})"
    )
    pos.fail(REASON_RULE[reason], f"end ({reason}) but the deal is not over: {why}")
    return reason


def _score(pos: Position, side: int) -> dict[str, int]:
    """R-50..R-54 for one side, points."""
    r = pos.rules
    state = pos.sides[side]
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
    if pos.out_seat is not None and pos.side_of(pos.out_seat) == side:
        out = r.concealed_going_out_bonus if pos.out_concealed else r.going_out_bonus
    melds = sum(r.value(m.counts) for m in state.melds.values())
    penalty = sum(r.value(pos.hands[s]) for s in range(r.players) if pos.side_of(s) == side)
    return {
        "red_threes": red,
        "canasta_bonus": bonus,
        "going_out_bonus": out,
        "meld_points": melds,
        "hand_penalty": penalty,
        "total": red + bonus + out + melds - penalty,
    }


def on_score(pos: Position, ev: dict) -> None:
    """Compare one side's score event with the recomputed parts (R-50..R-54)."""
    side = ev_int(ev, "side")
    if side not in pos.expected_scores:
        raise TraceFormatError(f"score for side {side}: unknown or already scored")
    want = pos.expected_scores.pop(side)
    got = {key: ev_int(ev, key) for key, _ in SCORE_PARTS}
    for key, rule in SCORE_PARTS:
        if got[key] != want[key]:
            pos.fail(
                rule,
                f"side {side} {key} is {got[key]}, the rules give {want[key]}"
                f" ({_score_text(pos, side, want)})",
            )
    total = ev_int(ev, "total")
    if total != want["total"]:
        pos.fail("R-50", f"side {side} total is {total}, the parts give {want['total']}")
    if not pos.expected_scores:
        pos.phase = Phase.DONE


def _score_text(pos: Position, side: int, want: dict[str, int]) -> str:
    melds = ", ".join(str(m) for m in pos.sides[side].melds.values()) or "none"
    hands = "; ".join(
        f"seat {s} [{cards_text(pos.hands[s])}]"
        for s in range(pos.rules.players)
        if pos.side_of(s) == side
    )
    return (
        f"red threes {pos.sides[side].red_threes}, melds [{melds}], hands {hands}, "
        f"expected parts {want}"
    )
