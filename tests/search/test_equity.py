"""The game-equity table (issue 18 item 6): P(win the game) after a deal, exact where R-55 ends
the game, symmetric between the sides, and only within its stated scope."""

import json

import numpy as np
import pytest
from test_analysis import GO_OUT, row

from canasta_sim import Deal, InfoSet, Rules, analyse
from canasta_sim.search.equity import (
    LOW,
    STEP,
    build_table,
    in_scope,
    p_win_game,
    save_tables,
    table_policy,
)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_deal_that_ends_the_game_decides_it(players):
    rules = Rules(players=players)
    t = rules.game_target
    # a side at the target with the highest total wins; an exact tie plays on, and with
    # the same bots on both sides a tie is worth one half
    p = p_win_game(
        rules, np.array([t + 100, t - 1000, t + 200, t]), np.array([t - 1000, t + 100, t + 100, t])
    )
    assert list(p) == [1.0, 0.0, 1.0, pytest.approx(0.5, abs=1e-4)]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_table_is_symmetric_and_favours_the_leader(players):
    rules = Rules(players=players)
    grid = np.arange(LOW, rules.game_target, STEP)
    a, b = np.meshgrid(grid, grid, indexing="ij")
    p = p_win_game(rules, a, b)
    np.testing.assert_allclose(p + p.T, 1.0, atol=1e-4)
    # equal scores are even; a side 500 points from the target leads a side at 0
    assert p_win_game(rules, np.array(0), np.array(0)) == pytest.approx(0.5, abs=1e-4)
    assert p_win_game(rules, np.array(rules.game_target - 500), np.array(0)) > 0.6


def test_scope():
    assert in_scope(Rules(players=4))
    for rules in (
        Rules(players=3),
        Rules.preset("hoyle", players=4),
        Rules(players=4, going_out_bonus=300),
    ):
        assert not in_scope(rules) and p_win_game(rules, np.zeros(2), np.zeros(2)) is None


def test_a_table_records_the_bots_it_was_built_with(tmp_path):
    """The shipped table is of apprentice play (issue 26 item 8: the strongest bot fast
    enough); one built with other bots says so in its scope (``scripts/build_game_equity.py
    --bots``), and its games differ."""
    assert table_policy() == "apprentice"
    greedy = build_table(2, deals=40, games=20, seed=1, bots="greedy")
    assert not np.array_equal(greedy, build_table(2, deals=40, games=20, seed=1))
    path = tmp_path / "equity.npz"
    save_tables({2: greedy}, {"seed": 1}, path, bots="greedy")
    with np.load(path) as data:
        assert json.loads(str(data["scope"]))["bots"] == "greedy"


def test_build_table_small():
    p = build_table(2, deals=40, games=20, seed=1)
    n = len(range(LOW, 5000, STEP))
    assert p.shape == (n, n)
    np.testing.assert_allclose(p + p.T, 1.0)
    np.testing.assert_allclose(np.diag(p), 0.5)


def test_going_out_to_the_target_wins_the_game():
    # go_out_2p.json with scores 3300 / 4000: going out scores 1785 (test_analysis), 5085 in
    # all; the other side's deal is at most its melds 80 + 60 + 15, its mixed canasta 300 and
    # a red three 100, less 12 cards in hand (at least 60): 495, so at most 4495
    data = {**json.loads(GO_OUT.read_text()), "scores": [3300, 4000]}
    result = analyse(InfoSet.from_dict(data), worlds=300, seed=2)
    assert row(result, "go out: meld 7 7 7, discard B3")["p_win_game"] == 1.0
    assert row(result, "discard 7")["p_win_game"] < 1.0


def test_three_players_have_no_table_and_play_the_game_out():
    deal = Deal.new(Rules(players=3), 1)
    deal.play_turn("expert")
    info = deal.info_set(deal.current_player)
    result = analyse(info, worlds=20, win_game="table")
    assert result.table["p_win_game"].isna().all()
    assert "n/a" in str(result).splitlines()[1]
    # by default the game is played out instead (tests/search/test_win_game.py)
    played = analyse(info, worlds=20)
    assert played.table["p_win_game"].between(0, 1).all()
    assert played.meta["win_game"] == "play-out"
