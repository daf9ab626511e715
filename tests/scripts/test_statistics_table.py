"""scripts/statistics_table.py's ``--only``: rerunning one policy's column keeps the others
from their files, with the bots version each was measured at, and refuses a missing file or one
of other deals. No bot plays: the runs are replaced by tables of known values."""

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import statistics_table  # noqa: E402

from canasta_sim._version import BOTS_VERSION  # noqa: E402

PAGE = (
    "# Statistics\n\n<!-- figure: statistics-table -->\nmain job\n<!-- /figure -->\n\n"
    "<!-- figure: statistics-policies -->\nside by side\n<!-- /figure -->\n\n"
    "<!-- figure: statistics-ladder -->\nladder\n<!-- /figure -->\n"
)
FULL = ["--deals", "1000", "--expert-deals", "100", "--pimc-deals", "6", "--seed", "0"]


def table(value: float) -> pd.DataFrame:
    """A one-row summary: ``value`` with the interval +-0.01."""
    row = {"group": "canastas", "statistic": "total canastas per side per deal"}
    row |= {"value": value, "ci_low": value - 0.01, "ci_high": value + 0.01, "exact": None}
    return pd.DataFrame([row | {"n": 10}])


@pytest.fixture
def job(tmp_path, monkeypatch):
    """The page, the values each policy's run gives (change them between runs) and the runs
    made, as ``(policy, deals, workers)`` (the ladder's as ``("ladder", deals, search deals,
    workers)``)."""
    (tmp_path / "statistics.md").write_text(PAGE)
    monkeypatch.setattr(statistics_table, "DOCS", tmp_path)
    monkeypatch.setattr(statistics_table, "COLUMNS", tmp_path / "statistics")
    values = {"apprentice": 1.0, "expert": 2.0, "pimc": 3.0}
    runs = []

    class Run:
        def __init__(self, bot):
            self.bot = bot
            self.manifest = {"wall_seconds": 0.1}

        def summary(self):
            return table(values[self.bot])

    def simulate(deals, bots, seed, records, workers):
        runs.append((bots, deals, workers))
        return Run(bots)

    def main_job(deals, seed, workers):
        runs.append(("apprentice", deals, workers))
        return (
            "canasta-sim simulate --out DIR",
            f"apprentice printed {values['apprentice']}",
            table(values["apprentice"]),
        )

    def policy_ladder(deals, search_deals, seed, workers):
        runs.append(("ladder", deals, search_deals, workers))
        return "| ladder table |"

    monkeypatch.setattr(statistics_table, "simulate", simulate)
    monkeypatch.setattr(statistics_table, "main_job", main_job)
    monkeypatch.setattr(statistics_table, "policy_ladder", policy_ladder)
    return tmp_path / "statistics.md", values, runs


def policies_row(page: Path) -> tuple[str, str]:
    """The side-by-side table's heading line and its row."""
    lines = page.read_text().split("<!-- figure: statistics-policies -->")[1].splitlines()
    return tuple(next(x for x in lines if x.startswith(start)) for start in ("| group", "| can"))


def test_only_reruns_the_named_column_and_keeps_the_others(job):
    page, values, runs = job
    statistics_table.main(FULL)
    assert runs == [
        ("ladder", 100_000, 1_000, None),
        ("apprentice", 1000, None),
        ("expert", 100, None),
        ("pimc", 6, None),
    ]
    assert "apprentice printed 1.0" in page.read_text()
    values.update(apprentice=9.0, expert=2.5, pimc=9.0)
    runs.clear()
    statistics_table.main([*FULL, "--only", "expert", "--workers", "1"])
    assert runs == [("expert", 100, 1)]
    # the main job's block is not rewritten, the apprentice and pimc columns are the first run's
    assert "apprentice printed 1.0" in page.read_text()
    heading, row = policies_row(page)
    v = BOTS_VERSION
    assert heading == (
        f"| group | statistic | apprentice, 1,000 deals, bots version {v} | expert, 100 deals, "
        f"bots version {v} | pimc, 6 deals, bots version {v} | exact | differs |"
    )
    assert row == (
        "| canastas | total canastas per side per deal | 1 [0.99, 1.01] | 2.5 [2.49, 2.51] "
        "| 3 [2.99, 3.01] |  | yes |"
    )
    assert f"Made by `python scripts/statistics_table.py {' '.join(FULL)} --only expert" in (
        page.read_text()
    )


def test_a_kept_column_names_the_bots_version_that_measured_it(job):
    page, _, _ = job
    statistics_table.main(FULL)
    kept = statistics_table.COLUMNS / "pimc.json"
    kept.write_text(
        kept.read_text().replace(f'"bots_version": {BOTS_VERSION}', '"bots_version": 4')
    )
    statistics_table.main([*FULL, "--only", "expert"])
    assert "| pimc, 6 deals, bots version 4 |" in policies_row(page)[0]


def test_only_refuses_a_missing_column_naming_its_file(job, capsys):
    _, _, runs = job
    with pytest.raises(SystemExit) as exit_:
        statistics_table.main([*FULL, "--only", "expert"])
    assert exit_.value.code == 2
    assert "apprentice.json not found" in capsys.readouterr().err
    assert runs == []


def test_only_refuses_a_column_of_other_deals_naming_what_it_holds(job, capsys):
    _, _, runs = job
    statistics_table.main(FULL)
    runs.clear()
    with pytest.raises(SystemExit) as exit_:
        statistics_table.main(
            [*FULL[:4], "--pimc-deals", "60", "--seed", "0", "--only", "apprentice"]
        )
    assert exit_.value.code == 2
    error = capsys.readouterr().err
    assert "holds 6 deals of seed 0, not 60 of seed 0; allowed: --pimc-deals 6 --seed 0" in error
    assert runs == []
    assert json.loads((statistics_table.COLUMNS / "pimc.json").read_text())["deals"] == 6


@pytest.mark.parametrize("workers", ["0", "-1", "two"])
def test_workers_must_be_a_count(job, capsys, workers):
    with pytest.raises(SystemExit) as exit_:
        statistics_table.main([*FULL, "--workers", workers])
    assert exit_.value.code == 2
    assert f"{workers!r} is not a count of threads; allowed: 1 or more" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--deals", "0", "'0' is not a count of deals; allowed: 1 or more"),
        ("--expert-deals", "-5", "'-5' is not a count of deals; allowed: 1 or more"),
        ("--pimc-deals", "0", "'0' is not a count of deals"),
        ("--ladder-deals", "0", "'0' is not a count of deals"),
        ("--search-deals", "x", "'x' is not a count of deals"),
        ("--seed", "-1", "'-1' is not a seed; allowed: 0 or more"),
    ],
)
def test_counts_and_seed_are_checked_before_any_run(job, capsys, option, value, said):
    page, values, runs = job
    with pytest.raises(SystemExit) as exit_:
        statistics_table.main([*FULL, option, value])
    assert exit_.value.code == 2
    assert said in capsys.readouterr().err
    assert runs == []


def test_a_failed_main_job_shows_its_message(monkeypatch):
    def failed(command, capture_output, text):
        return subprocess.CompletedProcess(command, 2, "", "Error: --deals: bad value\n")

    monkeypatch.setattr(statistics_table.subprocess, "run", failed)
    with pytest.raises(SystemExit) as exit_:
        statistics_table.main_job(5, 0, None)
    said = str(exit_.value.code)
    assert "canasta-sim simulate --deals 5 --seed 0 failed (exit code 2)" in said
    assert said.endswith("Error: --deals: bad value")


def test_the_help_says_the_whole_first_paragraph(capsys):
    with pytest.raises(SystemExit):
        statistics_table.main(["--help"])
    assert "with the same table under other policies side by side." in " ".join(
        capsys.readouterr().out.split()
    )


# --- the policy ladder ---------------------------------------------------------------------------
def test_deal_totals_sum_the_sides_of_each_deal():
    """Two deals of two sides: per-side counts summed over the deal's sides, a side that
    never melds counted by its initial-meld turn of -1, a deal gone out by its end reason."""
    sides = pd.DataFrame(
        {
            "deal": [1, 1, 0, 0],
            "natural_canastas": [1, 2, 0, 3],
            "mixed_canastas": [0, 1, 1, 1],
            "concealed_canastas": [0, 0, 1, 0],
            "red_three_score": [-100, 300, 200, 0],
            "initial_meld_turn": [-1, 4, 7, -1],
            "score": [-250, 1500, 900, 20],
        }
    )
    deals = pd.DataFrame(
        {"deal": [0, 1], "turns": [40, 61], "end_reason": ["stock_exhausted", "went_out"]}
    )
    totals = statistics_table.deal_totals(sides, deals)
    assert totals.index.tolist() == [0, 1]
    assert totals["natural_canastas"].tolist() == [3, 3]
    assert totals["red_three_score"].tolist() == [200, 200]
    assert totals["never_meld"].tolist() == [1, 1]
    assert totals["score"].tolist() == [920, 1250]
    assert totals["turns"].tolist() == [40, 61]
    assert totals["went_out"].tolist() == [0, 1]


def ladder_totals(natural: list[int]) -> pd.DataFrame:
    """Per-deal totals with ``natural`` natural canastas (the deal's two sides together) and
    every other statistic 0."""
    columns = [column for _, _, column in statistics_table.LADDER_ROWS]
    frame = pd.DataFrame(0, index=range(len(natural)), columns=columns)
    frame["natural_canastas"] = natural
    return frame


def test_the_ladder_pairs_each_policy_with_the_default_bot_on_common_deals():
    """The expert makes one more natural canasta than the apprentice on every deal (a
    constant difference: no spread), the search, on the first two deals only, 0 and 2 more:
    per side +0.5 with the half-width 1.96 * sd / sqrt(2) / 2 = 0.98 (sd of (0, 2): sqrt(2))."""
    totals = {
        "expert": ladder_totals([3, 1, 5]),
        "apprentice": ladder_totals([2, 0, 4]),
        "search": ladder_totals([2, 2]),
    }
    lines = statistics_table.ladder_table(totals, sides=2).splitlines()
    assert lines[0] == (
        "| statistic | expert (3 deals) | apprentice (3 deals) | search (2 deals) | "
        "expert - apprentice (3) | search - apprentice (2) |"
    )
    natural = next(x for x in lines if x.startswith("| natural"))
    cells = [c.strip() for c in natural.split("|")[2:-1]]
    assert cells[1].startswith("1 [") and cells[2].startswith("1 [")  # (2 + 0 + 4) / 3 / 2
    assert cells[3] == "+0.5 [+0.5, +0.5]"
    assert cells[4] == "+0.5 [-0.48, +1.48]"


def test_only_ladder_reruns_the_ladder_alone(job):
    page, _, runs = job
    statistics_table.main(FULL)
    runs.clear()
    before = page.read_text().split("statistics-ladder")[0]
    statistics_table.main(
        [*FULL, "--ladder-deals", "50", "--search-deals", "5", "--only", "ladder"]
    )
    assert runs == [("ladder", 50, 5, None)]
    assert page.read_text().split("statistics-ladder")[0] == before  # the columns untouched
    assert "| ladder table |" in page.read_text().split("statistics-ladder")[1]
