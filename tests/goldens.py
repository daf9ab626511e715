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
BOTS = ("random", "greedy", "careful", "expert", "apprentice")
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
    from canasta_sim.game.trace import format_trace

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


# --- candidate goldens ---------------------------------------------------------------------------
CANDIDATE_GOLDENS = DATA / "candidate_goldens.json"

#: Per table, fixed-seed deals played by kernel bots (``expert`` deals for pickups, initial
#: melds and going out; ``random`` deals, which seldom go out, for the stock's end and R-45's
#: last red three), starting from scores that raise the minimum count (R-64).
CANDIDATE_TABLES = tuple((p, preset) for p in PLAYERS for preset in PRESETS)
CANDIDATE_DEALS = {"expert": 6, "random": 40}
CANDIDATE_SCORES = (0, 1600, 3100)
CANDIDATES_PER_TABLE = 45  # decisions kept per table, the rare kinds first


def candidate_row(c) -> list:
    """One candidate as stored: label, move, with_, melds, discard, going_out, end_deal."""
    return [c.label, c.move, c.with_, list(c.melds), c.discard, c.going_out, c.end_deal]


def state_text(state) -> str:
    """A deal state record (``STATE_DTYPE``) as compressed base64 text."""
    import base64
    import zlib

    return base64.b64encode(zlib.compress(state.tobytes(), 9)).decode()


def _state_dtype_1() -> np.dtype:
    """The state layout before the bots' working memory left the state (issue 24): today's
    fields with the bots' plans and odds table after ``rng``, sizes as stored (15 kinds, 40
    candidates, 19 powers). The pinned decisions' states were stored in it."""
    from canasta_sim.nb.engine.state import STATE_DTYPE

    fields = [(name, *STATE_DTYPE.fields[name][0].subdtype) for name in STATE_DTYPE.names]
    at = STATE_DTYPE.names.index("rng") + 1
    plans = [(name, np.int8, (15, 3)) for name in ("take_plan", "meld_plan", "out_plan")]
    bots = [
        ("candidates", np.int8, (40, 15, 3)),
        *plans,
        ("zero_plan", np.int8, (15, 3)),
        ("powers", np.float64, (19,)),
    ]
    return np.dtype(fields[:at] + bots + fields[at:], align=True)


def _layout(dtype: np.dtype) -> str:
    return hashlib.sha256(str(dtype.descr).encode()).hexdigest()[:16]


def state_from_text(text: str, layout: str):
    """The state record stored by :func:`state_text` in ``layout`` (:func:`state_layout`
    when it was stored, today's or the layout before issue 24's split, whose game fields are
    copied by name into a state of today's layout).

    Raises
    ------
    ValueError
        For a layout neither of them has.
    """
    import base64
    import zlib

    from canasta_sim.nb.engine.state import STATE_DTYPE

    raw = zlib.decompress(base64.b64decode(text))
    if layout == state_layout():
        return np.frombuffer(bytearray(raw), STATE_DTYPE)[0]
    old = _state_dtype_1()
    if layout != _layout(old):
        raise ValueError(f"state layout {layout!r}; allowed: {state_layout()}, {_layout(old)}")
    stored = np.frombuffer(bytearray(raw), old)[0]
    state = np.zeros(1, STATE_DTYPE)[0]
    for name in STATE_DTYPE.names:
        state[name] = stored[name]
    return state


def state_layout() -> str:
    """A digest of ``STATE_DTYPE``: stored states are read back only with a known layout."""
    from canasta_sim.nb.engine.state import STATE_DTYPE

    return _layout(STATE_DTYPE)


def _features(found) -> set[str]:
    """The rare kinds of position a decision's candidates show (which positions to keep)."""
    out = set()
    for c in found:
        if c.move == "take":
            out.add("pickup" if not c.melds else "pickup_initial_meld")
        if c.going_out:
            out.add("going_out")
        if c.end_deal:
            out.add("last_red_three")
        if any(m.startswith("B3") for m in c.melds):
            out.add("black_threes")
    if len(found) >= 60:
        out.add("capped")
    return out


def candidate_decisions() -> list[dict]:
    """The pinned decisions: per table of :data:`CANDIDATE_TABLES`, the decisions of its
    fixed-seed deals (live ``Deal`` play: the draw phase takes the pile on even turns when it
    may, the bot plays the rest of each turn), every one of a rare kind (:func:`_features`) and
    then every seventh other one, :data:`CANDIDATES_PER_TABLE` at most; each with its state
    and the candidates :func:`canasta_sim.players.choices.candidates` lists."""
    from canasta_sim import Deal, Rules
    from canasta_sim.nb.enums import SideSlot
    from canasta_sim.players.choices import candidates

    out = []
    for players, preset in CANDIDATE_TABLES:
        rules = Rules.preset(preset, players=players)
        rare, common = [], []
        for bot, n in CANDIDATE_DEALS.items():
            for i in range(n):
                score = CANDIDATE_SCORES[i % len(CANDIDATE_SCORES)]
                deal = Deal.new(rules, SEED, deal=i, scores={0: score})
                step = 0
                while not deal.is_over:
                    found = candidates(deal)
                    row = {
                        "players": players,
                        "preset": preset,
                        "bot": bot,
                        "deal": i,
                        "step": step,
                        "phase": deal.phase,
                        "initial_meld": not bool(
                            deal.view.sides[deal.current_player % rules.sides, SideSlot.melded]
                        ),
                        "features": sorted(_features(found)),
                        "state": state_text(deal.state),
                        "candidates": [candidate_row(c) for c in found],
                    }
                    (rare if row["features"] else common).append(row)
                    takes = [c for c in found if c.move == "take"]
                    if deal.phase == "draw":  # take the pile on even turns when it may
                        (takes[-1] if takes and deal.turns % 2 == 0 else found[0]).apply(deal)
                    else:  # the rest of the turn is the bot's
                        deal.play_turn(bot)
                    step += 1
        kept = _spread(rare, CANDIDATES_PER_TABLE * 2 // 3)
        out += kept + common[::7][: CANDIDATES_PER_TABLE - len(kept)]
    return out


def _spread(rows: list[dict], n: int) -> list[dict]:
    """At most ``n`` of ``rows``, every feature represented: round robin over the features."""
    by_feature: dict[str, list[dict]] = {}
    for row in rows:
        by_feature.setdefault(",".join(row["features"]), []).append(row)
    kept: list[dict] = []
    while len(kept) < n and any(by_feature.values()):
        for group in by_feature.values():
            if group and len(kept) < n:
                kept.append(group.pop(0))
    return kept
