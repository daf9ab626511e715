"""Behaviour is pinned: fixed-seed records and playthroughs equal the committed goldens.

A failure here means the engine or a bot now plays differently. If that is intended, bump
``RULES_VERSION`` or ``BOTS_VERSION``, run ``python scripts/regen_goldens.py`` and say why in
``CHANGELOG.md``.
"""

import json

import goldens as G
import pytest

from canasta_sim._version import BOTS_VERSION, RULES_VERSION

STORED = json.loads(G.GOLDENS.read_text())


def test_goldens_carry_the_package_versions():
    assert (STORED["rules_version"], STORED["bots_version"]) == (RULES_VERSION, BOTS_VERSION)
    assert (STORED["deals"], STORED["seed"]) == (G.DEALS, G.SEED)


def test_every_cell_is_stored():
    assert sorted(STORED["cells"]) == sorted(c["name"] for c in G.cells())


@pytest.mark.parametrize("cell", G.cells(), ids=lambda c: c["name"])
def test_records_equal_goldens(cell):
    stored = STORED["cells"][cell["name"]]
    now = G.run_cell(cell)
    for frame in ("deals", "sides"):
        changed = [c for c, d in stored[frame].items() if now[frame].get(c) != d]
        assert not changed, f"{cell['name']}: {frame} columns changed: {changed}"


@pytest.mark.parametrize("players", G.PLAYERS)
def test_playthrough_equals_golden(players):
    assert G.playthrough(players) == G.playthrough_path(players).read_text()


def test_digest_ignores_dtype_but_not_values():
    import pandas as pd

    a = pd.DataFrame({"x": pd.Series([1, 2, 3], dtype="int8")})
    b = pd.DataFrame({"x": pd.Series([1, 2, 3], dtype="int32")})
    c = pd.DataFrame({"x": pd.Series([1, 2, 4], dtype="int8")})
    assert G.digest(a) == G.digest(b)
    assert G.digest(a) != G.digest(c)


ANALYSES = json.loads(G.ANALYSIS_GOLDENS.read_text())


def test_analysis_goldens_carry_the_package_versions_and_every_case():
    assert (ANALYSES["rules_version"], ANALYSES["bots_version"]) == (RULES_VERSION, BOTS_VERSION)
    assert sorted(ANALYSES["cases"]) == sorted(c["name"] for c in G.ANALYSES)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("case", G.ANALYSES, ids=lambda c: c["name"])
def test_analysis_per_world_results_equal_goldens(case, threads):
    # the rollouts' results depend on neither the threads nor the blocks they run in
    stored = ANALYSES["cases"][case["name"]]["per_world"]
    now = G.run_analysis(case, threads)["per_world"]
    changed = [c for c, d in stored.items() if now.get(c) != d]
    assert not changed, f"{case['name']}: per-world columns changed: {changed}"


# --- the candidate layer -------------------------------------------------------------------------
CANDIDATES = json.loads(G.CANDIDATE_GOLDENS.read_text())


def test_candidate_goldens_cover_every_table_and_the_rare_positions():
    decisions = CANDIDATES["decisions"]
    assert {(d["players"], d["preset"]) for d in decisions} == set(G.CANDIDATE_TABLES)
    features = {f for d in decisions for f in d["features"]}
    assert features == {
        "pickup",
        "pickup_initial_meld",
        "going_out",
        "last_red_three",
        "black_threes",
        "capped",
    }
    assert any(d["initial_meld"] and d["phase"] == "play" for d in decisions)


@pytest.mark.parametrize("table", G.CANDIDATE_TABLES, ids=lambda t: f"{t[0]}p-{t[1]}")
def test_candidates_equal_goldens(table):
    """The candidates at stored states (independent of how the bots play now) equal the
    stored ones, field by field, in order, leave the deal unchanged, pass ``is_legal``, and a
    smaller cap cuts them by whole plans (the empty plan's always). A failure after a speed-up
    is a bug; a deliberate change of the candidate layer reruns
    ``scripts/regen_candidates.py``."""
    from canasta_sim import Deal, Rules
    from canasta_sim.players.choices import candidates, is_legal

    rules = Rules.preset(table[1], players=table[0])
    for d in CANDIDATES["decisions"]:
        if (d["players"], d["preset"]) == table:
            where = f"{d['bot']} deal {d['deal']} step {d['step']}"
            deal = Deal(rules, G.state_from_text(d["state"], CANDIDATES["state_layout"]))
            before = deal.state.tobytes()
            found = candidates(deal)
            assert [G.candidate_row(c) for c in found] == d["candidates"], where
            assert deal.state.tobytes() == before, where  # tried on copies only
            assert all(is_legal(deal, c) for c in found[:3]), where  # the public check agrees
            if d["phase"] == "play":
                small = [G.candidate_row(c) for c in candidates(deal, cap=8)]
                assert small == _capped(d["candidates"], 8), where


def _capped(rows: list, cap: int) -> list:
    """The stored play-phase candidates cut as ``cap`` cuts them: each plan's candidates (one
    run of equal melds) taken whole while the count stays within ``cap``, the first always."""
    runs: list[list] = []
    for row in rows:
        if runs and runs[-1][0][3] == row[3]:
            runs[-1].append(row)
        else:
            runs.append([row])
    out = list(runs[0])
    for run in runs[1:]:
        if len(out) + len(run) > cap:
            break
        out += run
    return out
