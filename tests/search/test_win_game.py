"""P(win the game) (issue 18, objectives): the game played out after the rollout's deal where
the game-equity table does not reach (3 players), and the play-out against the table where it
does. Expected values come from R-55 and hand arithmetic of the deal's scores (R-50..R-54)."""

from pathlib import Path

import numpy as np
import pytest

from canasta_sim import InfoSet, analyse
from canasta_sim.search.equity import table_policy, table_scope

DOCS = Path(__file__).resolve().parents[2] / "docs" / "positions"
GO_OUT = "go out: meld 7 7 7, discard B3"


def three_players(scores, melds_1, hand_sizes, stock, known_1=""):
    """Seat 0 (a side alone, R-10) to play holding 7 7 7 B3 with a mixed canasta of kings on
    the table: going out melds 7 7 7 and discards the black three (R-40, R-41) and scores
    K x6 + 2 (60 + 20) + mixed canasta (300) + 7 7 7 (15) + going out (100, not concealed:
    the side melded before, R-42) = 495 points, exactly (no red threes, empty hand). Going
    out ends the deal (R-45): the other sides score their melds less their hands (R-54)."""
    return InfoSet.from_dict(
        dict(
            players=3,
            seat=0,
            phase="play",
            turn=20,
            hand="7 7 7 B3",
            pile="5 6 4 9 J 8 10 7 4 6",
            stock=stock,
            hand_sizes=hand_sizes,
            scores=scores,
            melds=[["K K K K K K 2"], melds_1, []],
            known=["", known_1, ""],
        )
    )


def test_going_out_across_the_target_wins_the_game_exactly():
    # at 4,900, going out scores 495 exactly: 5,395 >= 5,000. Sides 1 and 2 have no melds:
    # their deal scores are at most 0, from 0, so no one else reaches the
    # target and side 0 wins the game in every world: no deal is played on
    info = three_players([4900, 0, 0], [], [4, 12, 12], 63)
    result = analyse(info, [GO_OUT], worlds=300, seed=1)
    out = result.table.iloc[0]
    assert out["own_score"] == 495 and out["own_score_sd"] == 0
    assert out["p_win_game"] == 1.0
    assert "P(win game) from playing the game out" in result.settings
    assert (result.per_world["win_game"] == 1.0).all()
    assert result.meta["play_out_deals"] == 0.0


def test_going_out_that_lets_another_side_pass_us_loses_the_game_exactly():
    # side 1 at 4,990 has A x7 (natural canasta: 140 + 500) and J x6 + 2 (mixed: 60 + 20 +
    # 300) on the table = 1,020 points, less at most 3 x 50 for its 3 cards in hand: at
    # least 870, so at least 5,860 when the deal ends now, above side 0's 4,900 + 495 =
    # 5,395. Both reach the target; the higher total wins: side 0 never wins
    info = three_players([4900, 4990, 0], ["A A A A A A A", "J J J J J J 2"], [4, 3, 11], 59)
    result = analyse(info, [GO_OUT], worlds=300, seed=2)
    out = result.table.iloc[0]
    assert out["own_score"] == 495 and out["own_score_sd"] == 0
    assert out["p_win_game"] == 0.0


def test_a_tie_at_the_top_plays_another_deal():
    # side 1 at 4,990: J x6 + 2 (380) + 9 9 9 2 (30 + 20) = 430 on the table, its hand known
    # to be 5 5 5 5 5 (-25): 405 when the deal ends now, 5,395, the same as side 0's 4,900
    # + 495. An exact tie plays another deal, which one of the two tied sides wins
    # in nearly every world (side 2, at most 0 now, would need 5,400 in one deal)
    info = three_players(
        [4900, 4990, 0], ["J J J J J J 2", "9 9 9 2"], [4, 5, 12], 59, known_1="5 5 5 5 5"
    )
    result = analyse(info, [GO_OUT], worlds=400, seed=3)
    out = result.table.iloc[0]
    assert out["own_score"] == 495 and out["own_score_sd"] == 0
    assert 0.2 < out["p_win_game"] < 0.8
    assert set(result.per_world["win_game"]) == {0.0, 1.0}
    assert result.meta["win_game"] == "play-out" and result.meta["play_out_deals"] >= 1.0
    # the table covers two sides only (R-10: 3 players are 3 sides)
    table_only = analyse(info, [GO_OUT], worlds=50, seed=3, win_game="table")
    assert np.isnan(table_only.table.iloc[0]["p_win_game"])
    assert "P(win game) n/a" in table_only.settings


def test_play_out_is_deterministic_per_seed_and_independent_of_threads():
    info = three_players([2000, 2500, 1500], ["J J J J J J 2"], [4, 9, 12], 59)
    runs = [
        analyse(info, [GO_OUT, "discard 7"], worlds=300, seed=s, threads=t)
        for s, t in ((4, 1), (4, 2), (5, 2))
    ]
    a, b, c = (r.per_world["win_game"].to_numpy() for r in runs)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)
    assert runs[0].meta["play_out_deals"] == runs[1].meta["play_out_deals"] > 0


def test_win_game_names_the_allowed_values():
    info = InfoSet.from_file(DOCS / "go_out_2p.json")
    with pytest.raises(ValueError, match="win_game='tables'; allowed: auto, table, play-out"):
        analyse(info, worlds=10, win_game="tables")


@pytest.mark.slow
@pytest.mark.parametrize("position", ["take_or_draw.toml", "go_out_2p.json"])
def test_play_out_agrees_with_the_game_equity_table(position):
    # in the table's scope (4 and 2 players, classic; the table's bots roll out the deal and
    # play the games on, as the table assumes), the table's P(win game) (its mean over the
    # worlds of its value at each world's scores after the deal) lies inside the 99.9%
    # interval (3.29 standard errors) of its difference to the same worlds' games played out
    # (each a 0 or a 1): the play-out's error (about 0.005 with 10,000 worlds) and the
    # table's own, a cell being a mean of `games_per_cell` games (at most
    # sqrt(0.25 / 1000) = 0.016), about 0.055 either side in all
    info = InfoSet.from_file(DOCS / position)
    kwargs = dict(worlds=10_000, seed=11, rollout=table_policy())
    label = "draw" if info.phase == "draw" else "discard B3"
    played = analyse(info, [label], win_game="play-out", **kwargs)
    table = analyse(info, [label], win_game="table", **kwargs)
    assert table.meta["win_game"] == "table" and played.meta["win_game"] == "play-out"
    # the same worlds and deals: only P(win game) differs
    assert played.per_world["own_score"].equals(table.per_world["own_score"])
    won = played.per_world["win_game"].to_numpy()
    games = table_scope()["games_per_cell"][str(info.rules.players)]
    half = 3.29 * np.sqrt(won.var(ddof=1) / len(won) + 0.25 / games)
    assert abs(won.mean() - table.table.iloc[0]["p_win_game"]) < half


def test_cli_win_game():
    from click.testing import CliRunner

    from canasta_sim.cli import main

    position = DOCS / "go_out_2p.json"
    run = CliRunner().invoke
    played = run(main, ["analyse", str(position), "--worlds", "50", "--win-game", "play-out"])
    assert played.exit_code == 0, played.output
    # each names the play it assumes: the rollout bots, or the bots the table was built with
    assert "P(win game) from playing the game out with expert (" in played.output
    table = run(main, ["analyse", str(position), "--worlds", "50"])
    assert "P(win game) from the game-equity table of apprentice play" in table.output
    other = run(main, ["analyse", str(position), "--worlds", "50", "--rollout", "expert@2"])
    assert "P(win game) from the game-equity table of apprentice play" in other.output
    bad = run(main, ["analyse", str(position), "--win-game", "both"])
    assert bad.exit_code == 2 and "'both' is not one of 'auto', 'table', 'play-out'" in bad.output
