"""Golden cells: fixed-seed runs whose records pin the package's behaviour.

A golden is a digest per named column of a run's ``deals`` and ``sides`` records, taken in a
canonical form (integers as int64, booleans as 0/1, categories as their labels), so that a new
column or a narrower dtype is not a behaviour change, while any changed value is. The readable
playthroughs are formatted traces of one deal per player count; the analysis goldens digest the
per-world results of fixed-seed decision analyses. ``scripts/regen_goldens.py`` rewrites
``tests/data/goldens.json``, ``tests/data/analysis_goldens.json`` and
``tests/data/playthrough_*.txt``.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pandas as pd

DATA = Path(__file__).parent / "data"
GOLDENS = DATA / "goldens.json"
ANALYSIS_GOLDENS = DATA / "analysis_goldens.json"
POSITIONS = Path(__file__).resolve().parent.parent / "docs" / "positions"
DEALS = 2000  # deals per cell
SEED = 20261201
BOTS = ("random", "greedy", "careful", "expert")
PLAYERS = (2, 3, 4, 6)
PRESETS = ("classic", "hoyle")

#: Cells beyond the bot x players x preset grid: non-default switches and bot parameters.
EXTRA_CELLS = (
    {
        "name": "4p-expert-params",
        "players": 4,
        "preset": "classic",
        "bots": ["expert:meld_keep=12,pile_threshold=4", "expert:hold_wilds=0,safety=50"],
    },
    {"name": "4p-mixed-bots", "players": 4, "preset": "classic", "bots": ["careful", "greedy"]},
    {
        "name": "4p-switches",
        "players": 4,
        "preset": "classic",
        "bots": ["expert"],
        "switches": {
            "meld_after_last_red_three": False,
            "upcard_covers_black_three": False,
            "concealed_out_needs_minimum": True,
            "red_three_upcard_freezes": False,
        },
    },
    {
        "name": "2p-switches",
        "players": 2,
        "preset": "classic",
        "bots": ["random"],
        "switches": {
            "wilds_at_most_naturals": False,
            "concealed_canasta_bonus": 0,
            "meld_after_last_red_three": False,
            "max_turns": 60,
        },
    },
    {
        "name": "6p-values",
        "players": 6,
        "preset": "hoyle",
        "bots": ["expert", "careful"],
        "switches": {"going_out_bonus": 200, "natural_canasta_bonus": 600},
    },
)


def cells() -> list[dict]:
    """Every golden cell: ``name``, ``players``, ``preset``, ``bots``, optional ``switches``."""
    grid = [
        {"name": f"{p}p-{preset}-{bot}", "players": p, "preset": preset, "bots": [bot]}
        for bot in BOTS
        for p in PLAYERS
        for preset in PRESETS
    ]
    return grid + [dict(c) for c in EXTRA_CELLS]


def cell_rules(cell: dict):
    from canasta_sim import Rules

    return Rules.preset(cell["preset"], players=cell["players"], **cell.get("switches", {}))


def canonical(column: pd.Series) -> bytes:
    """The bytes a column's digest is taken over (independent of its dtype)."""
    if isinstance(column.dtype, pd.CategoricalDtype) or pd.api.types.is_string_dtype(column):
        return "\n".join(map(str, column.tolist())).encode()
    if pd.api.types.is_float_dtype(column):
        return np.ascontiguousarray(column.to_numpy().astype(np.float64)).astype("<f8").tobytes()
    return np.ascontiguousarray(column.to_numpy().astype(np.int64)).astype("<i8").tobytes()


def digest(frame: pd.DataFrame) -> dict[str, str]:
    """``{column: sha256 hex}`` of a records frame, one entry per column."""
    return {name: hashlib.sha256(canonical(frame[name])).hexdigest()[:32] for name in frame.columns}


def run_cell(cell: dict) -> dict[str, dict[str, str]]:
    """Play a cell and return ``{"deals": digest, "sides": digest}``."""
    from canasta_sim import simulate

    res = simulate(DEALS, rules=cell_rules(cell), bots=cell["bots"], seed=SEED, workers=1)
    return {"deals": digest(res.deals), "sides": digest(res.sides)}


def playthrough(players: int) -> str:
    """The readable trace of one expert deal (seed :data:`SEED`, deal 3) for ``players``."""
    from canasta_sim import Rules, trace_deal
    from canasta_sim.trace import format_trace

    return format_trace(trace_deal(Rules(players=players), "expert", SEED, 3)) + "\n"


def playthrough_path(players: int) -> Path:
    return DATA / f"playthrough_{players}p.txt"


#: Fixed-seed analyses whose per-world results pin the rollouts (worlds, candidates' moves,
#: the bots' play to the end of the deal): a draw decision with two pickups (racing from
#: ``min_worlds``), a play decision with a meld and a discard, and a 3-player play decision
#: whose games are played out after the deal (P(win the game)). ``position``: a file of
#: ``docs/positions`` or a position's keys.
ANALYSES = (
    {
        "name": "4p-take-or-draw",
        "position": "take_or_draw.toml",
        "kwargs": {"min_worlds": 1000, "max_worlds": 3000, "target_se": 1.0, "seed": 7},
    },
    {"name": "2p-go-out", "position": "go_out_2p.json", "kwargs": {"worlds": 1500, "seed": 8}},
    {
        "name": "3p-play-out",
        "position": {
            "players": 3,
            "seat": 0,
            "phase": "play",
            "turn": 20,
            "hand": "7 7 7 B3",
            "pile": "5 6 4 9 J 8 10 7 4 6",
            "stock": 59,
            "hand_sizes": [4, 9, 12],
            "scores": [2000, 2500, 1500],
            "melds": [["K K K K K K 2"], ["J J J J J J 2"], []],
        },
        "kwargs": {"worlds": 500, "seed": 9},
    },
)


def run_analysis(case: dict, threads: int) -> dict[str, str]:
    """Analyse a case of :data:`ANALYSES` on ``threads`` threads and return
    ``{"per_world": digest}`` of its per-world results (:func:`digest`)."""
    from canasta_sim import InfoSet, analyse

    position = case["position"]
    info = (
        InfoSet.from_dict(position)
        if isinstance(position, dict)
        else InfoSet.from_file(POSITIONS / position)
    )
    res = analyse(info, threads=threads, **case["kwargs"])
    return {"per_world": digest(res.per_world)}
