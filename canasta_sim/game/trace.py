"""Deal traces: the kernels' integer event log turned into plain dicts (docs/trace.md)."""

from __future__ import annotations

import json
from pathlib import Path

from .. import cards as C
from ..nb.enums import DealSlot, EndReason, Event, EventCol, Source, label
from ..referee import read_trace_events
from .rules import Rules


def trace_from_log(rules, seed, view, log, minimums, scores) -> list[dict]:
    """Convert a deal's event log into the trace format of docs/trace.md.

    Parameters
    ----------
    rules : Rules
    seed : int
        The run's master seed.
    view : StateView
        The deal's state as :func:`canasta_sim.nb.engine.state.state_view` gives it (its
        ``stock`` is the deck order).
    log : ndarray(int32, (max_events, EV_LEN))
        Columns :data:`~canasta_sim.nb.enums.EventCol`.
    minimums : ndarray(int32, (n_sides,))
        Minimum counts (points).
    scores : dict or None
        :meth:`Deal.score` once the deal is over.

    Returns
    -------
    list of dict
    """
    g = view.g
    n = int(g[DealSlot.n_events])
    if n >= log.shape[0]:
        raise RuntimeError(f"trace log overflow: {n} events for {log.shape[0]} rows")
    events: list[dict] = [
        {
            "event": "start",
            "rules": rules.to_dict(),
            "seed": int(seed),
            "dealer": int(g[DealSlot.dealer]),
            "deck": C.format_sequence(view.stock),
            "minimums": [int(m) for m in minimums],
        }
    ]
    rows = log[:n]
    i = 0
    while i < n:
        et, seat, move, kind, nat, deu, jok, extra = (int(x) for x in rows[i])
        i += 1
        if et == Event.upcard:
            events.append({"event": "upcard", "card": C.KINDS[kind]})
        elif et == Event.red_three:
            events.append({"event": "red_three", "seat": seat, "source": label(Source, extra)})
        elif et == Event.draw:
            events.append({"event": "draw", "seat": seat, "card": C.KINDS[kind]})
        elif et == Event.take_pile:
            melds = []
            while i < n and rows[i, EventCol.type] == Event.meld and rows[i, EventCol.move] == move:
                _, _, _, k2, n2, d2, j2, _ = (int(x) for x in rows[i])
                melds.append({"rank": C.KINDS[k2], "cards": C.meld_cards(k2, n2, d2, j2)})
                i += 1
            events.append(
                {
                    "event": "take_pile",
                    "seat": seat,
                    "move": move,
                    "top": C.KINDS[kind],
                    "with": C.meld_cards(kind, nat, deu, jok),
                    "melds": melds,
                    "cards": extra,
                }
            )
        elif et == Event.meld:
            events.append(
                {
                    "event": "meld",
                    "seat": seat,
                    "move": move,
                    "rank": C.KINDS[kind],
                    "cards": C.meld_cards(kind, nat, deu, jok),
                }
            )
        elif et == Event.discard:
            events.append({"event": "discard", "seat": seat, "card": C.KINDS[kind]})
        elif et == Event.end_turn:
            events.append({"event": "end_turn", "seat": seat})
        elif et == Event.go_out:
            events.append({"event": "go_out", "seat": seat, "concealed": bool(extra)})
        elif et == Event.end:
            events.append({"event": "end", "reason": label(EndReason, extra), "turns": kind})
    for side, parts in (scores or {}).items():
        events.append({"event": "score", "side": side, **parts})
    return events


def save_trace(trace: list[dict], path) -> None:
    """Write a trace as JSON lines (one event per line)."""
    Path(path).write_text("".join(json.dumps(e) + "\n" for e in trace))


def load_trace(path) -> list[dict]:
    """Read a trace written by :func:`save_trace` (or a JSON list of its events).

    Raises
    ------
    ValueError
        For text that is not JSON (naming the file's line) or not UTF-8.
    """
    return read_trace_events(path)


def format_trace(trace: list[dict]) -> str:
    """A readable move-by-move listing of a trace in card notation.

    Cards added to a meld the side already has are shown as added to it ("adds 2 to the 8s
    meld"), the stock cards drawn in place of red threes (R-15, R-16) as replacements
    ("draws a replacement: 7"), a pickup with the pile's size ("takes the pile (12 cards)"),
    and ``hands`` events (:func:`canasta_sim.run.address.replay_deal` with ``hands=True``) as
    every seat's hand before a turn.

    Parameters
    ----------
    trace : list of dict
        A whole deal's trace (docs/trace.md), from its ``start`` event.

    Returns
    -------
    str
        One line per event.
    """
    lines = []
    melds: list[set[str]] = []  # per side: ranks the side has melded so far
    replacements = 0  # red threes laid out from the stock or the deal, not yet replaced
    for e in trace:
        kind = e["event"]
        side_melds = melds[e["seat"] % len(melds)] if "seat" in e and melds else set()
        if kind not in ("red_three", "draw"):
            replacements = 0
        if kind == "start":
            melds = [set() for _ in range(Rules.from_dict(e["rules"]).sides)]
            lines.append(
                f"deal: {e['rules']['players']} players, dealer seat {e['dealer']}, "
                f"minimum counts {e['minimums']}"
            )
        elif kind == "upcard":
            lines.append(f"  upcard {e['card']}")
        elif kind == "red_three":
            replacements += e["source"] in ("dealt", "drawn")
            lines.append(f"  seat {e['seat']} lays out a red three ({e['source']})")
        elif kind == "draw":
            replacement = "a replacement: " if replacements else ""
            replacements = max(replacements - 1, 0)
            lines.append(f"  seat {e['seat']} draws {replacement}{e['card']}")
        elif kind == "take_pile":
            with_ = f" with {e['with']}" if e["with"] else ""
            text = f"{e['top']}{with_}{_to_meld(e['top'], side_melds)}"
            side_melds.add(e["top"])
            for m in e["melds"]:
                onto = _to_meld(m["rank"], side_melds)
                text += f" + {m['cards']}{onto}" if onto else f" + meld {m['cards']}"
                side_melds.add(m["rank"])
            size = f" ({_count(e['cards'], 'card')})" if "cards" in e else ""
            lines.append(f"  seat {e['seat']} takes the pile{size}: {text}")
        elif kind == "meld":
            onto = _to_meld(e["rank"], side_melds)
            verb = f"adds {e['cards']}{onto}" if onto else f"melds {e['cards']}"
            side_melds.add(e["rank"])
            lines.append(f"  seat {e['seat']} {verb}")
        elif kind == "discard":
            lines.append(f"  seat {e['seat']} discards {e['card']}")
        elif kind == "end_turn":
            lines.append(f"  seat {e['seat']} ends the deal without a discard (R-45)")
        elif kind == "go_out":
            lines.append(f"  seat {e['seat']} goes out{' concealed' if e['concealed'] else ''}")
        elif kind == "end":
            lines.append(f"end: {e['reason']} after {e['turns']} turns")
        elif kind == "hands":
            when = "at the deal" if e["turn"] == 0 else f"before turn {e['turn']}"
            lines.append(
                f"  -- hands {when}: seat {e['seat']} to play; pile "
                f"{_count(e['pile'], 'card')}, stock {_count(e['stock'], 'card')}"
            )
            lines += [f"       seat {s}: {cards}" for s, cards in enumerate(e["hands"])]
        elif kind == "score":
            parts = ", ".join(f"{k} {v}" for k, v in e.items() if k not in ("event", "side"))
            lines.append(f"side {e['side']}: {parts}")
        else:  # a trace of another version, or edited: shown, not dropped in silence
            fields = ", ".join(f"{k} {v}" for k, v in e.items() if k != "event")
            lines.append(f"  unknown event {kind!r} (not in docs/trace.md): {fields}")
    return "\n".join(lines)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _to_meld(rank: str, side_melds: set[str]) -> str:
    """``" to the 8s meld"`` if the side already has a meld of ``rank``, else ``""``."""
    return f" to the {rank}s meld" if rank in side_melds else ""
