"""Independent rules checker: replays a deal's trace and checks every event against RULES.md.

The referee is written from ``RULES.md`` and ``docs/trace.md`` alone. It shares nothing with the
engine except the card notation (:mod:`canasta_sim.cards`): it derives section 2's table
(sides, cards dealt and drawn, canastas needed to go out, 108 or 162 cards) from the trace's own
``start`` event, deals the stacked deck itself, and follows every card from where the trace says
it comes from. The first event that breaks a rule is reported with the rule id (``"R-xx"``) and a
description of the position.

Modules: :mod:`.table` (kinds, section 2's table, the switches), :mod:`.checks` (the rule
checks as pure functions returning a rule id or None), :mod:`.fields` (an event's fields read),
:mod:`.position` (the position and its phase), :mod:`.dealing`, :mod:`.turns` and
:mod:`.scoring` (the handlers of the start, the turns and the end of the deal), :mod:`.refusals`
(the events a phase does not take) and :mod:`.replay` (the phase machine that feeds each event
to its handler).

Readings of the rule book that the referee has to choose (see also the tests):

- Turns (``end.turns``, R-47) are *completed* turns: a turn completes with a discard, an
  ``end_turn`` (R-45, whatever ``meld_after_last_red_three`` says) or a ``go_out``. The player
  who finds the stock empty and cannot take the pile (R-44) has not played a turn.
- A *laying-down* is the melds sharing one ``move`` id (one call of the ``Deal`` API); a
  ``take_pile`` event is one laying-down of its own (the top card, ``with`` and ``melds``). It is
  judged by what it leaves in hand: it *goes out* when it leaves no card, or one card to
  discard (not after a last-card red three). R-64: a side's first laying-down reaches the
  minimum count, reported at its first event; R-42 waives that only for a laying-down from the
  hand that goes out in a turn that goes out concealed (never for a pickup, whose top card's
  meld and melds from hand reach the minimum). R-63: black threes are melded only in
  laying-downs that go out, so a turn may split them over several (three, then the fourth).
- R-40 is judged on the whole turn: a laying-down may leave one card that a later meld of the
  same turn adds to a meld (completing the canastas needed); going out is checked at the
  ``discard`` of the last card or at ``go_out``.
- A pickup whose top card is not melded (``with`` empty and no meld of that rank on the side) is
  reported as R-34 ("the top card is melded first"); a frozen pile taken without a natural pair
  is R-32; an unfrozen pile taken without (a), (b) or (c) of R-33 is R-33; with an empty stock
  anything but a natural pair or the top card onto a meld is R-44.
- Cards named in ``take_pile``'s ``with`` and ``melds`` come from the hand held *before* the
  rest of the pile joins it (docs/trace.md: "the rest of the pile goes to the hand afterwards");
  together with the top card they are the cards that count toward the minimum (R-64).
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
from dataclasses import dataclass
from pathlib import Path

from .position import RuleViolation
from .replay import Replay
from .table import TableRules, TraceFormatError

__all__ = [
    "Verdict",
    "RuleViolation",
    "TraceFormatError",
    "TableRules",
    "check_trace",
    "check_trace_file",
    "read_trace_events",
]


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
    return check_trace(read_trace_events(path))


def read_trace_events(path) -> list:
    """The events of a trace file, a JSON list or JSON lines (one event per line), as read.

    Raises
    ------
    ValueError
        For text that is not JSON, naming the file's line (not only the column within it), or
        not UTF-8 (``UnicodeDecodeError``).
    """
    text = Path(path).read_text(encoding="utf-8")
    if text.lstrip().startswith("["):
        return json.loads(text)
    events = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                events.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise ValueError(f"line {number}: {exc.msg} (column {exc.colno})") from None
    return events
