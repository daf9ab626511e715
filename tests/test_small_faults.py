"""Small faults found by trying the product (issue 24 item 7), each pinned."""

import re
from pathlib import Path

import pandas as pd
import pytest

import canasta_sim as cs
from canasta_sim import InfoSet, Rules, review
from canasta_sim.players.specs import parse_bot
from canasta_sim.results.study_table import STATISTICS, format_study
from canasta_sim.run.address import deal_from_run
from canasta_sim.search.race import pairing_note

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("run") / "run"
    cs.simulate(60, seed=0, out=folder, progress=False)
    return folder


@pytest.mark.parametrize("reason, last", [("stock_exhausted", 0), ("went_out", -1)])
def test_from_run_allows_exactly_the_turns_it_accepts(run, reason, last):
    """A deal that ends on the draw from an empty stock (R-44) has a decision at turn T, its
    recorded turns; one that ends by going out has its last decision at turn T - 1."""
    deals = pd.read_parquet(run / "deals.parquet")
    row = deals[deals["end_reason"] == reason].iloc[0]
    deal, turns = int(row["deal"]), int(row["turns"])
    top = turns + last
    reached, _ = deal_from_run(f"{run}:{deal}:{top}")
    assert reached.turns == top and not reached.is_over
    with pytest.raises(ValueError, match=f"turn {top + 1} is not played .allowed: 0 to {top}."):
        deal_from_run(f"{run}:{deal}:{top + 1}")


def test_the_pairing_note_tells_exact_differences_from_none():
    # two or more candidates whose differences are the same in every world: variance 0
    assert pairing_note(39, unpaired=5000.0, paired=0.0) == (
        "pairing: the differences are exact (the same in every world)"
    )
    assert pairing_note(1, unpaired=0.0, paired=0.0) == (
        "pairing: one candidate, no difference to measure"
    )
    assert pairing_note(3, unpaired=0.0, paired=0.0) == (
        "pairing: no spread to measure (one world, or every world scores the same)"
    )
    assert pairing_note(3, unpaired=14.0, paired=10.0) == (
        "pairing shrank the variance of differences 1.4x"
    )


@pytest.mark.parametrize(
    "old, new, named",
    [
        (
            'hand = "9 9 K K 5 7 A A J 2 4"',
            'hand = "9 9 K K 5 7 A A J 2 X"',
            "hand='9 9 K K 5 7 A A J 2 X'",
        ),
        ('pile = "4 7 8 9 J 6 5 Q 9"', 'pile = "4 7 8 9 J 6 5 Q X"', "pile='4 7 8 9 J 6 5 Q X'"),
        ('known = ["", "8 8", "", ""]', 'known = ["", "8 X", "", ""]', "known[1]='8 X'"),
    ],
)
def test_an_unknown_card_token_names_its_key(tmp_path, old, new, named):
    text = (DOCS / "positions" / "take_or_draw.toml").read_text()
    assert old in text
    (tmp_path / "p.toml").write_text(text.replace(old, new))
    with pytest.raises(ValueError, match=re.escape(f"{named}: unknown card token 'X'")):
        InfoSet.from_file(tmp_path / "p.toml")


@pytest.mark.parametrize(
    "spec", ["expert:pile_threshold=5,,meld_keep=40", "expert:pile_threshold=5,", "expert:,"]
)
def test_an_empty_bot_parameter_is_refused(spec):
    with pytest.raises(ValueError, match="empty parameter"):
        parse_bot(spec)


def test_review_writes_the_rollout_bot_it_used():
    result = review(Rules(players=2), deals=1, bots="greedy,expert", seed=4, worlds=2)
    assert result.settings["rollout"] == "greedy,expert"  # each side's own bot
    result = review(Rules(players=2), deals=1, bots="expert", seed=4, worlds=2)
    assert result.settings["rollout"] == "expert"
    given = review(Rules(players=2), deals=1, bots="expert", seed=4, worlds=2, rollout="greedy")
    assert given.settings["rollout"] == "greedy"


def test_the_study_table_prints_each_statistic_with_even_decimals():
    row = {"cell": 1, "baseline": False, "players": 4}
    values = {
        "canastas": (2.45, 2.402, 2.5, -0.0005252, -0.031, 0.03),
        "red_three_value": (101.26, 90.0, 112.5, 3.0, -5.5, 11.04),
        "turns": (60.0, 59.5, 60.45, 0.5, 0.0, 1.0),
        "going_out": (0.8, 0.79, 0.81, -0.01, -0.02, 0.0),
        "first_canasta_turn": (20.0, 19.9, 20.1, 0.0, -0.1, 0.1),
        "score": (1500.0, 1490.04, 1510.0, 12.0, -3.0, 27.0),
    }
    for key, (v, lo, hi, d, dl, dh) in values.items():
        row |= {key: v, f"{key}_low": lo, f"{key}_high": hi}
        row |= {f"{key}_diff": d, f"{key}_diff_low": dl, f"{key}_diff_high": dh}
    lines = format_study(pd.DataFrame([row])).splitlines()
    assert lines[0] == "[1] players=4"
    body = {line[4:40].strip(): line[40:].split() for line in lines[1:]}
    label = {key: STATISTICS[key][2] for key in values}
    assert body[label["canastas"]] == "2.450 [2.402, 2.500] diff -0.001 [-0.031, +0.030]".split()
    assert body[label["red_three_value"]] == "101.3 [90.0, 112.5] diff +3.0 [-5.5, +11.0]".split()
    assert body[label["turns"]] == "60.00 [59.50, 60.45] diff +0.50 [+0.00, +1.00]".split()
    assert body[label["going_out"]] == "0.800 [0.790, 0.810] diff -0.010 [-0.020, +0.000]".split()
    assert body[label["score"]] == "1,500.0 [1,490.0, 1,510.0] diff +12.0 [-3.0, +27.0]".split()


def test_docs_rules_words_r63_as_played():
    """R-63: black threes are melded only in laying-downs that go out, and may be split over
    those of the turn (the engine's and the referee's reading), as the shared rule book words
    it."""
    text = " ".join((DOCS / "RULES.md").read_text().split())
    assert (
        "They may be laid in one laying-down or split over that turn's laying-downs (for "
        "example 3, then the 4th), provided each laying-down that holds a black three leaves "
        "the player at most one card, so that the turn goes out."
    ) in text


def test_the_pairing_note_says_when_pairing_grew_the_variance():
    # scores that move against each other across worlds: var(a - b) above var(a) + var(b)
    assert pairing_note(3, unpaired=900.0, paired=1000.0) == (
        "pairing grew the variance of differences 1.1x"
    )
    assert pairing_note(3, unpaired=1400.0, paired=1000.0) == (
        "pairing shrank the variance of differences 1.4x"
    )
