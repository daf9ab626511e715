"""A run at a glance: its statistics table with intervals, the play it describes, and the
numbers of the report's figures, as JSON data the page draws (``/api/run/ID/summary``).

The figures are :mod:`canasta_sim.results.figure_data`'s, the numbers ``canasta-sim report``
draws; the table is :func:`canasta_sim.results.statistics.summary`'s, the rows of its
``report.md``. Nothing is computed here but the conversion to JSON.
"""

from __future__ import annotations

import math
from pathlib import Path

from ..results.figure_data import (
    CANASTA_KINDS,
    canastas_by_kind,
    red_threes_by_source,
    score_histogram,
)
from ..results.report import PLOTS, read_run
from ..results.statistics import summary
from ..results.stats import policy_label

#: The summary's columns the page shows, in order.
ROW_KEYS = ("group", "statistic", "value", "ci_low", "ci_high", "n")


def _number(value) -> float | None:
    """A float for JSON: None for NaN (no value, no interval), which JSON cannot carry."""
    value = float(value)
    return None if math.isnan(value) else value


def run_summary(folder: Path) -> dict:
    """The statistics of the run in ``folder`` as the page shows them.

    Returns
    -------
    dict
        ``name`` (the folder's name), ``policy`` (:func:`~canasta_sim.results.stats.policy_label`),
        ``deals``, ``players``, ``seed``; ``rows``: one per statistic of
        :func:`~canasta_sim.results.statistics.summary` with the keys of :data:`ROW_KEYS`
        (None where a value or bound is NaN); ``figures``: ``scores`` (``edges``, points, and
        ``sides``, each side's fraction of deals per bin), ``red_threes`` (per source:
        ``source``, ``value``, ``ci_low``, ``ci_high``; ``exact``: the exact expectation of
        the dealt ones) and ``canastas`` (``kinds`` and, per side, per kind ``[mean, low,
        high]``), each with its ``title`` (the report's caption, :data:`PLOTS`).

    Raises
    ------
    ValueError
        For a folder ``canasta-sim report`` cannot read (a compare, sweep or games folder),
        naming it and what it holds.
    """
    manifest, agg, rules = read_run(Path(folder))
    table = summary(agg, rules, policy_label(manifest))
    rows = [
        {
            **{key: _number(row[key]) for key in ("value", "ci_low", "ci_high")},
            "group": row["group"],
            "statistic": row["statistic"],
            "n": int(row["n"]),
        }
        for row in table.to_dict("records")
    ]
    edges, fractions = score_histogram(agg)
    red = red_threes_by_source(table)
    return {
        "name": Path(folder).name,
        "policy": table.attrs["policy"],
        "deals": agg.n_deals,
        "players": rules.players,
        "seed": manifest.get("seed"),
        "rows": rows,
        "figures": {
            "scores": {
                "title": PLOTS["score_distribution.png"],
                "edges": edges.tolist(),
                "sides": fractions.tolist(),
            },
            "red_threes": {
                "title": PLOTS["red_threes_by_source.png"],
                "bars": [
                    {
                        k: r[k] if k == "source" else _number(r[k])
                        for k in ROW_KEYS[2:5] + ("source",)
                    }
                    for r in red.to_dict("records")
                ],
                "exact": _number(red["exact"].iloc[0]),
            },
            "canastas": {
                "title": PLOTS["canastas_per_side.png"],
                "kinds": list(CANASTA_KINDS.values()),
                "sides": [
                    [[_number(x) for x in kind] for kind in side] for side in canastas_by_kind(agg)
                ],
            },
        },
    }
