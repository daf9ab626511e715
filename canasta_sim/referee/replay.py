"""The replay of one deal's trace as a phase machine.

A :class:`Replay` holds the position (stock, discard pile, hands as count arrays, each side's
melds and red threes, the turn being played) and a :class:`Phase`. Each event is looked up in
:data:`TRANSITIONS` by (phase, event name); its handler checks the event with the pure rule
checks of :mod:`.checks`, applies it and sets the next phase. An event the table does not list
for the phase is refused by :func:`.refusals.refuse`, with the rule it breaks.
"""

from __future__ import annotations

from collections.abc import Callable

from canasta_sim.cards import KINDS

from . import checks, dealing, scoring, turns
from .fields import event_name
from .position import Phase, Position
from .refusals import refuse
from .table import RED_THREE, TraceFormatError


class Replay(Position):
    """Replays one deal's trace event by event and raises at the first broken rule.

    Use :meth:`feed` for each event in order, then :meth:`finish`.
    """

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
        name = event_name(ev)
        self._settle(name)
        handler = TRANSITIONS.get((self.phase, name))
        if handler is None:
            refuse(self, name, ev)
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
            self.begin_turn(self.setup_order[0])
        if self.phase in (Phase.PLAY, Phase.LAST_RED_THREE) and name != "go_out":
            if sum(self.hands[self.turn.seat]) == 0:
                self.fail(
                    "R-22",
                    f"{name} with an empty hand: melding every card is going "
                    "out (R-40), expected go_out",
                )

    def finish(self) -> None:
        """Check that the trace is complete: end event and one score per side."""
        if self.phase is not Phase.DONE:
            raise TraceFormatError(
                f"the trace ends early (phase {self.phase.value!r}): "
                "a deal ends with an end event and one score per side"
            )


Handler = Callable[[Position, dict], None]

#: The phase machine: (phase, event name) -> handler. Every other pair is refused.
TRANSITIONS: dict[tuple[Phase, str], Handler] = {
    (Phase.START, "start"): dealing.on_start,
    (Phase.UPCARD, "upcard"): dealing.on_upcard,
    (Phase.SETUP, "red_three"): dealing.on_setup_red_three,
    (Phase.SETUP, "draw"): dealing.on_setup_draw,
    (Phase.LAY_RED_THREE, "red_three"): dealing.on_pending_red_three,
    (Phase.DRAW, "draw"): turns.on_draw,
    (Phase.DRAW, "take_pile"): turns.on_take_pile,
    (Phase.DRAW, "end"): scoring.on_end,
    (Phase.PLAY, "meld"): turns.on_meld,
    (Phase.PLAY, "discard"): turns.on_discard,
    (Phase.PLAY, "go_out"): turns.on_go_out,
    (Phase.LAST_RED_THREE, "meld"): turns.on_meld_after_last_red_three,
    (Phase.LAST_RED_THREE, "end_turn"): turns.on_end_turn,
    (Phase.LAST_RED_THREE, "go_out"): turns.on_go_out,
    (Phase.MUST_GO_OUT, "go_out"): turns.on_go_out,
    (Phase.OVER, "end"): scoring.on_end,
    (Phase.SCORE, "score"): scoring.on_score,
}
