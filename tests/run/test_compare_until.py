"""``compare --until``: blocks of deals until the always-valid interval of the difference
decides or is narrow enough (:func:`canasta_sim.run.compare.compare`, ``until``)."""

import json

import pandas as pd
import pytest

from canasta_sim import Rules
from canasta_sim.errors import BadArgument
from canasta_sim.players.specs import parse_bot
from canasta_sim.run.compare import (
    _compare,
    check_until,
    compare,
    look_line,
    rotations,
    until_reached,
)
from canasta_sim.run.seating import Table

TWO = Rules(players=2)
COUNTS = ["n", "wins", "losses", "ties", "mean_score", "score_low", "score_high", "mean_diff"]


def test_decided_stops_after_a_block_and_plays_the_first_deals():
    frame, _ = compare("greedy", "random", deals=2000, rules=TWO, seed=5, until="decided", block=20)
    until = frame.attrs["manifest"]["until"]
    played = frame.attrs["manifest"]["deals"]
    assert until["stopped"] == "decided" and until["most"] == 2000 and until["block"] == 20
    assert played % 20 == 0 and played < 2000
    assert frame["diff_low"].iloc[0] > 0  # the always-valid interval excludes 0
    # the same deals as a plain compare of as many: the first ones, in order
    plain, _ = compare("greedy", "random", deals=played, rules=TWO, seed=5)
    pd.testing.assert_frame_equal(frame[COUNTS], plain[COUNTS])
    # the always-valid interval is wider than the fixed-n one of the same deals
    assert frame["diff_high"].iloc[0] - frame["diff_low"].iloc[0] > (
        plain["diff_high"].iloc[0] - plain["diff_low"].iloc[0]
    )


def test_a_width_never_reached_plays_the_most():
    frame, _ = compare("greedy", "random", deals=200, rules=TWO, seed=5, until=0.01, block=60)
    # blocks of 60 deals: 60, 120, 180, then the last 20
    assert frame.attrs["manifest"]["deals"] == 200
    assert frame.attrs["manifest"]["until"]["stopped"] == "the most deals"
    assert frame.attrs["sequence_target"] == 100  # boards


def test_without_until_the_table_is_the_fixed_n_one():
    frame, _ = compare("greedy", "random", deals=40, rules=TWO, seed=5)
    assert "until" not in frame.attrs["manifest"] and "sequence_target" not in frame.attrs
    with pytest.raises(BadArgument, match="block=40: allowed only with until"):
        compare("greedy", "random", deals=40, rules=TWO, block=40)


@pytest.mark.parametrize("bad", ["wide", "0", "-3", "inf", "nan"])
def test_bad_until_is_named(bad):
    with pytest.raises(BadArgument, match=f"until='{bad}': allowed 'decided'"):
        check_until(bad)


def test_until_reached():
    assert until_reached("decided", (5.0, 1.0, 9.0)) == "decided"
    assert until_reached("decided", (-5.0, -9.0, -1.0)) == "decided"
    assert until_reached("decided", (1.0, -3.0, 5.0)) is None
    assert until_reached(4.0, (1.0, -3.0, 5.0)) == "width"  # +-4
    assert until_reached(3.9, (1.0, -3.0, 5.0)) is None
    assert until_reached(4.0, (1.0, float("nan"), float("nan"))) is None


@pytest.mark.slow
def test_equal_bots_are_rarely_decided():
    # greedy against itself (a sweep's baseline table): the difference's mean is 0, so
    # "decided" is an error; over 40 runs looked at every 40 deals up to 800, an always-valid
    # 95% interval decides 2 on average at most (5%); 6 or more has probability below 0.01
    # (binomial 40, 0.05)
    greedy = parse_bot("greedy")
    table = Table(TWO, rotations(greedy, greedy, TWO))
    decided = 0
    for seed in range(40):
        frame, _ = _compare(
            table,
            deals=800,
            games=None,
            seed=seed,
            workers=None,
            chunk_size=None,
            progress=False,
            records=False,
            out=None,
            overwrite=False,
            scheduler=None,
            until="decided",
            block=40,
        )
        decided += frame.attrs["manifest"]["until"]["stopped"] == "decided"
    assert decided <= 5


def test_command_line_until():
    from click.testing import CliRunner

    from canasta_sim.cli import main

    def run(*args):
        return CliRunner().invoke(main, ["compare", "greedy", "random", *args])

    ok = run("--players", "2", "--deals", "400", "--until", "decided", "--block", "20")
    assert ok.exit_code == 0
    assert "until decided: stopped (decided) of at most 400" in ok.output
    assert "the interval is always valid (a confidence sequence, narrowest at 200 boards)" in (
        ok.output
    )
    doc = run(
        "--players",
        "2",
        "--deals",
        "400",
        "--until",
        "decided",
        "--block",
        "20",
        "--format",
        "json",
    )
    settings = json.loads(doc.stdout)["settings"]
    assert settings["until"] == {"rule": "decided", "most": 400, "block": 20, "stopped": "decided"}
    assert settings["count"] % 20 == 0 and settings["count"] < 400
    bad = run("--deals", "40", "--until", "0")
    assert bad.exit_code == 2 and "Invalid value for '--until': until='0'" in bad.output
    lone = run("--deals", "40", "--block", "20")
    assert lone.exit_code == 2 and "'--block' is the deals between two looks of '--until'" in (
        lone.output
    )


@pytest.mark.parametrize(
    ("given", "rule"), [("Decided", "decided"), (" DECIDED ", "decided"), (" 16", 16.0)]
)
def test_until_ignores_case_and_spaces(given, rule):
    assert check_until(given) == rule


def test_each_look_shows_the_deals_and_the_interval(capsys):
    frame, _ = compare(
        "greedy", "random", deals=200, rules=TWO, seed=5, until=" 0.01", block=60, progress=True
    )
    lines = [x for x in capsys.readouterr().err.splitlines() if "of at most" in x]
    # blocks of 60 deals: 60, 120, 180, then the last 20; never narrow enough to stop
    assert [x.split(" of at most")[0] for x in lines] == ["60", "120", "180", "200"]
    assert lines[-1].startswith("200 of at most 200 deals: difference ")
    mean, low, high = (frame[k].iloc[0] for k in ("mean_diff", "diff_low", "diff_high"))
    assert lines[-1].endswith(f"{mean:+.1f} [{low:+.1f}, {high:+.1f}] (+-{(high - low) / 2:.1f})")
    assert frame.attrs["manifest"]["until"]["rule"] == 0.01  # a number, not the text given


def test_the_look_line_without_an_interval_says_so():
    nan = float("nan")
    assert look_line(20, 400, "games", (0.0, nan, nan)) == (
        "20 of at most 400 games: difference +0.0, no interval yet"
    )


def test_command_line_until_ignores_case_and_gives_a_width_as_a_number():
    from click.testing import CliRunner

    from canasta_sim.cli import main

    args = ["compare", "greedy", "random", "--players", "2", "--deals", "80", "--block", "20"]
    doc = CliRunner().invoke(main, [*args, "--until", " 0.01", "--format", "json"])
    assert doc.exit_code == 0, doc.output
    assert json.loads(doc.stdout)["settings"]["until"]["rule"] == 0.01
    # not --quiet: a line a look on stderr, as plain compare shows its progress
    looks = [x for x in doc.stderr.splitlines() if "of at most 80 deals" in x]
    assert [x.split(" of")[0] for x in looks] == ["20", "40", "60", "80"]
    text = CliRunner().invoke(main, [*args, "--until", "Decided", "--quiet"])
    assert text.exit_code == 0, text.output
    assert "until decided: stopped" in text.output and "of at most 80 deals:" not in text.output
