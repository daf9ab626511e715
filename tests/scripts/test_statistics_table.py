"""scripts/statistics_table.py's ``--only``: rerunning one policy's column keeps the others
from their files, with the bots version each was measured at, and refuses a missing file or one
of other deals. No bot plays: the runs are replaced by tables of known values."""

import json
import sys
from pathlib import Path

import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import statistics_table  # noqa: E402

from canasta_sim._version import BOTS_VERSION  # noqa: E402

PAGE = (
    "# Statistics\n\n<!-- figure: statistics-table -->\nmain job\n<!-- /figure -->\n\n"
    "<!-- figure: statistics-policies -->\nside by side\n<!-- /figure -->\n"
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
    made, as ``(policy, deals, workers)``."""
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

    monkeypatch.setattr(statistics_table, "simulate", simulate)
    monkeypatch.setattr(statistics_table, "main_job", main_job)
    return tmp_path / "statistics.md", values, runs


def policies_row(page: Path) -> tuple[str, str]:
    """The side-by-side table's heading line and its row."""
    lines = page.read_text().split("<!-- figure: statistics-policies -->")[1].splitlines()
    return tuple(next(x for x in lines if x.startswith(start)) for start in ("| group", "| can"))


def test_only_reruns_the_named_column_and_keeps_the_others(job):
    page, values, runs = job
    statistics_table.main(FULL)
    assert runs == [("apprentice", 1000, None), ("expert", 100, None), ("pimc", 6, None)]
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
