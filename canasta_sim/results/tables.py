"""Tables for people, formats for programs: the one place where every command's output is
shaped.

For people, a table is text in aligned columns, a number's unit in its column's header and
each estimate written with its 95% interval (``+12.3 [+8.1, +16.5]``); a cell with nothing
measured (NaN: an interval of a single deal, a share of no decisions) shows a dash, never
``nan``. For programs, the same frames as CSV (one table) or JSON (an object of settings and
tables, ``docs/cli.md``), with NaN as an empty CSV field or JSON ``null``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

__all__ = [
    "DASH",
    "align_columns",
    "csv_text",
    "interval",
    "count",
    "json_document",
    "number",
    "records",
]

#: What a cell with nothing measured shows.
DASH = "-"


def _missing(value) -> bool:
    return value is None or (isinstance(value, (float, np.floating)) and math.isnan(value))


def number(value, spec: str) -> str:
    """``value`` formatted with the format ``spec`` (``"+.1f"``, ``".1%"``, ``",d"``), or
    :data:`DASH` when it is ``None`` or NaN (nothing measured). An exact zero prints without a
    minus sign whatever its sign bit (``"+0.0"``, ``"0.0"``): a tie's difference, negated for
    the other bot, is -0.0."""
    if _missing(value):
        return DASH
    return format(abs(value) if value == 0 else value, spec)


def count(n: int, noun: str) -> str:
    """``n`` things with thousands separators, the noun singular for one: ``"1 game"``,
    ``"2,000 games"``."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def interval(value, low, high, spec: str) -> str:
    """An estimate with its 95% interval, ``"+12.3 [+8.1, +16.5]"``, each number formatted
    with ``spec`` and a dash for what was not measured (``"+0.0 [-, -]"`` for one deal)."""
    if _missing(value):
        return DASH
    return f"{number(value, spec)} [{number(low, spec)}, {number(high, spec)}]"


def align_columns(rows: Sequence[Sequence[str]], sep: str = "  ", left: int = 1) -> str:
    """Text rows as a table: every column as wide as its widest cell (header included), the
    first ``left`` columns (labels) left-aligned and the others (numbers) right-aligned,
    columns joined by ``sep``; no trailing spaces."""
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    lines = []
    for r in rows:
        cells = [c.ljust(w) if k < left else c.rjust(w) for k, (c, w) in enumerate(zip(r, widths))]
        lines.append(sep.join(cells).rstrip())
    return "\n".join(lines)


def _plain(value):
    """A value as JSON: numpy scalars as Python numbers, NaN as ``None``, inside lists and
    dicts too."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if _missing(value):
        return None
    return value


def records(frame: pd.DataFrame) -> list[dict]:
    """The rows of ``frame`` as JSON-able dicts (column name to value, NaN as ``None``)."""
    return [{str(k): _plain(v) for k, v in row.items()} for row in frame.to_dict(orient="records")]


def csv_text(frame: pd.DataFrame) -> str:
    """``frame`` as CSV text: a header of its column names, no index, NaN as an empty field."""
    return frame.to_csv(index=False, lineterminator="\n")


def json_document(command: str, settings: dict, **tables: pd.DataFrame) -> str:
    """The JSON output of a command: ``{"command": ..., "settings": {...}, TABLE: [rows]}``
    with one list of row objects (:func:`records`) per named table; strict JSON (no NaN)."""
    doc = {
        "command": command,
        "settings": _plain(settings),
        **{name: records(frame) for name, frame in tables.items()},
    }
    return json.dumps(doc, indent=2, allow_nan=False)
