"""Reading a trace event's fields (docs/trace.md): a missing key, a value of the wrong type or a
bad card text is a :class:`~.table.TraceFormatError` naming the event and the key, never a bare
``KeyError``.
"""

from __future__ import annotations

from typing import Any

from canasta_sim.cards import kind_index, parse_sequence

from .table import TraceFormatError


def ev_field(ev: dict, key: str) -> Any:
    if key not in ev:
        raise TraceFormatError(f"{event_name(ev)} event lacks key {key!r}")
    return ev[key]


def ev_int(ev: dict, key: str) -> int:
    value = ev_field(ev, key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise TraceFormatError(f"{event_name(ev)}.{key}={value!r} is not an integer")
    return value


def card_codes(value: Any) -> list[int]:
    try:
        if isinstance(value, str):
            return [int(k) for k in parse_sequence(value)]
        return [int(v) if isinstance(v, int) else kind_index(str(v)) for v in value]
    except (ValueError, TypeError) as exc:
        raise TraceFormatError(f"bad card text {value!r}: {exc}") from None


def one_card(value: Any) -> int:
    codes = card_codes(value)
    if len(codes) != 1:
        raise TraceFormatError(f"expected one card, got {value!r}")
    return codes[0]


def event_name(ev: Any) -> str:
    if not isinstance(ev, dict):
        return "?"
    return str(ev.get("event", ev.get("type", "?")))
