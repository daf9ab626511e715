"""Positions in a run folder, ``RUN_FOLDER:DEAL[:TURN[:DECISION]]`` (issue 18 item 1): the deal
replayed from the manifest is the run's deal, and bad addresses are errors naming the value."""

import json

import pandas as pd
import pytest

import canasta_sim as cs
from canasta_sim.run.address import RunAddress, deal_from_run, info_set_from_run, parse_address


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Deals 3..14 of a 2-player run (seed 5), expert against greedy."""
    folder = tmp_path_factory.mktemp("runs") / "run"
    cs.simulate(
        12, rules=cs.Rules(players=2), bots=["expert", "greedy"], seed=5, first_deal=3, out=folder
    )
    return folder


def test_parse_address():
    assert parse_address("a/b:7") == RunAddress(parse_address("a/b:7").folder, 7, 0, 0)
    assert parse_address("C:/x:y:7:12:1") == RunAddress(parse_address("C:/x:y:7").folder, 7, 12, 1)
    for bad, message in [
        ("folder", "not a run position"),
        ("folder:x", "not a run position"),
        ("folder:1:2:3", "decision 3 is not allowed"),
    ]:
        with pytest.raises(ValueError, match=message):
            parse_address(bad)


def test_replayed_deal_ends_as_the_run_recorded_it(run):
    sides = pd.read_parquet(run / "sides.parquet")
    deals = pd.read_parquet(run / "deals.parquet").set_index("deal")
    for k in (3, 9, 14):
        deal, bots = deal_from_run(f"{run}:{k}")
        assert bots == ["expert", "greedy"] and deal.turns == 0 and deal.phase == "draw"
        # the dealer of deal k of a one-seating run is k % players
        assert deal.current_player == (k % 2 + 1) % 2
        deal.play_out(bots)
        recorded = sides[sides["deal"] == k].set_index("side")["score"]
        assert [deal.score()[s]["total"] for s in (0, 1)] == list(recorded)
        assert deal.turns == deals.loc[k, "turns"]


def test_turns_and_decisions(run):
    turn = 6
    before, bots = deal_from_run(f"{run}:5:{turn}:0")
    after, _ = deal_from_run(f"{run}:5:{turn}:1")
    assert before.turns == after.turns == turn
    assert (before.phase, after.phase) == ("draw", "play")
    # dealer 5 % 2 = 1: seat 0 plays turn 0 and every even turn
    seat = 0
    assert before.current_player == after.current_player == seat
    a, b = before.info_set(seat), after.info_set(seat)
    # the first move: a draw of 2 cards with 2 players (R-20; red threes drawn are laid out
    # and replaced, R-16) or the whole pile taken
    drew = b.stock_size < a.stock_size and b.pile == a.pile
    took = b.pile == "" and a.pile != ""
    assert drew or took
    if drew:
        assert b.hand_sizes[seat] == a.hand_sizes[seat] + 2
    # the rest of the turn, played by the bot, reaches the next turn's position
    before.play_turn(bots)
    nxt, _ = deal_from_run(f"{run}:5:{turn + 1}")
    assert before.info_set(nxt.current_player) == nxt.info_set(nxt.current_player)
    assert info_set_from_run(f"{run}:5:{turn}:1") == b


def test_rotated_compare_run_deals_share_boards(tmp_path):
    folder = tmp_path / "cmp"
    cs.compare("expert", "greedy", deals=4, rules=cs.Rules(players=2), seed=2, out=folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    assert len(manifest["bots"]) == 2  # two seatings: deals 2b and 2b + 1 are board b
    d0, bots0 = deal_from_run(f"{folder}:2")
    d1, bots1 = deal_from_run(f"{folder}:3")
    assert bots0 == bots1[::-1]
    assert d0.hands == d1.hands and d0.pile == d1.pile
    assert d0.hands == cs.Deal.new(cs.Rules(players=2), 2, deal=1).hands


@pytest.mark.parametrize(
    "address, message",
    [
        ("{run}:2", "deal=2 is not in"),
        ("{run}:15", "holds deals 3 to 14"),
        ("{run}:4:5000", "ended after"),
        ("{run}x:4", "not a run folder"),
        # it said "'RUN:x' is not a run folder": the folder exists, its deal number is bad
        ("{run}:x:5:1", "deal 'x' of .* is not a whole number"),
    ],
)
def test_bad_addresses_name_the_value(run, address, message):
    with pytest.raises(ValueError, match=message):
        info_set_from_run(address.format(run=run))


def test_games_folder_is_refused(tmp_path):
    folder = tmp_path / "games"
    cs.play_games(2, rules=cs.Rules(players=2), out=folder)
    with pytest.raises(ValueError, match="holds games, not deals"):
        deal_from_run(f"{folder}:0")


def run_cli(*args):
    from click.testing import CliRunner

    from canasta_sim.cli import main

    return CliRunner().invoke(main, ["analyse", *map(str, args)])


def test_cli_from_run(run):
    result = run_cli("--from-run", f"{run}:5:6:1", "--worlds", 50)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"position: {run}:5:6:1, seat ")
    assert lines[1].startswith("candidate") and "seed 0, 50 worlds" in lines[-1]
    bad = run_cli("--from-run", f"{run}:99")
    assert bad.exit_code == 2 and "deal=99 is not in" in bad.output
    both = run_cli("position.toml", "--from-run", f"{run}:5")
    assert both.exit_code == 2 and "not both" in both.output


def test_a_run_whose_partners_play_different_bots_is_addressable(tmp_path):
    """The address reads the run's seats (a side's players may play different bots), not the
    sides' labels: the deal played on from its start by those seats ends as recorded."""
    folder = tmp_path / "seats"
    seats = ["expert", "careful", "greedy", "careful"]  # side 0: expert and greedy
    cs.simulate(3, rules=cs.Rules(players=4), seats=seats, seed=8, out=folder)
    sides = pd.read_parquet(folder / "sides.parquet")
    for k in range(3):
        deal, bots = deal_from_run(f"{folder}:{k}")
        assert bots == ["expert/greedy", "careful"] and deal.turns == 0
        deal.play_out(seats=seats)
        recorded = sides[sides["deal"] == k].set_index("side")["score"]
        assert [deal.score()[s]["total"] for s in (0, 1)] == list(recorded)
