"""Events a phase of the replay does not take, and the rule each breaks (R-12, R-15, R-20,
R-22, R-34, R-40, R-45 ...): the message names the event and what the position expected."""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

from .fields import ev_field
from .position import Phase, Position
from .scoring import expected_end_reason
from .table import END_REASONS, REASON_RULE, RED_THREE, TraceFormatError


def refuse(pos: Position, name: str, ev: dict) -> NoReturn:
    """Report an event the phase does not take, with the rule it breaks."""
    phase = pos.phase
    if phase is Phase.START:
        raise TraceFormatError("the trace must begin with a start event")
    if phase is Phase.DONE:
        raise TraceFormatError(f"{name} event after the last score event")
    if phase is Phase.LAY_RED_THREE:
        p = pos.pending_red_threes()
        pos.fail(
            p.rule,
            f"{name} event, but seat {p.seat} must first lay out a red three "
            f"(red_three, source {p.source!r})",
            p.seat,
        )
    if phase is Phase.OVER:
        rule = REASON_RULE[pos.expected_end]
        pos.fail(rule, f"{name} after the deal ended ({pos.expected_end}); expected the end event")
    if phase is Phase.SCORE:
        raise TraceFormatError(f"{name} event among the score events")
    if phase is Phase.MUST_GO_OUT:
        pos.fail(
            "R-22", f"{name} after discarding the last card: that is going out, expected go_out"
        )
    if phase is Phase.SETUP:
        seat = pos.setup_order[pos.setup_pos]
        owes = (
            f"{pos.hands[seat][RED_THREE]} dealt red three(s) to lay out, "
            f"{pos.owed} replacement(s) to draw"
        )
        pos.fail("R-15", f"{name} event, but seat {seat} has {owes} first", seat)
    refusal = REFUSALS.get(name)
    if refusal is None:
        raise TraceFormatError(f"unknown or misplaced event {name!r}")
    rule, what = refusal(pos, ev)
    pos.fail(rule, what)


def _refuse_draw(pos: Position, ev: dict) -> tuple[str, str]:
    if pos.turn.took_pile:
        return "R-34", "draw after taking the pile: taking the pile replaces the draw"
    return "R-20", f"draw in phase {pos.phase.value}: the draw is over"


def _refuse_end(pos: Position, ev: dict) -> tuple[str, str]:
    reason = ev_field(ev, "reason")
    if reason not in END_REASONS:
        raise TraceFormatError(f"unknown end reason {reason!r}")
    expected_end_reason(pos, reason)  # raises: the deal is not over
    raise AssertionError("unreachable")


def _refuse_red_three(pos: Position, ev: dict) -> tuple[str, str]:
    seat = pos.read_seat(ev)
    return (
        "R-15",
        f"red_three for seat {seat} (source {ev.get('source')!r}) with no red three to lay out",
    )


#: Events out of place in a phase of play, and the rule each breaks.
REFUSALS: dict[str, Callable[[Position, dict], tuple[str, str]]] = {
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
