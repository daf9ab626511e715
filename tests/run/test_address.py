"""A deal of a run folder (canasta_sim.run.address): positions ``RUN_FOLDER:DEAL[:TURN[:DECISION]]``
(issue 18 item 1), the deal replayed from the manifest is the run's deal and bad addresses are
errors naming the value; whole deals of simulate, compare and games folders replayed."""

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


# --- whole deals of run folders (replay_deal) -------------------------------------------------
def _totals(trace):
    return [e["total"] for e in trace if e["event"] == "score"]


def test_replay_of_a_simulate_folder_uses_its_seats_and_scores(tmp_path):
    from canasta_sim.referee import check_trace
    from canasta_sim.run.address import deal_of_run, replay_deal

    out = tmp_path / "run"
    res = cs.simulate(
        12, seats="greedy,careful,expert,careful", scores=[3000, 0], seed=5, workers=1, out=out
    )
    sides = res.sides
    for k in (0, 7, 11):
        run = deal_of_run(out, k)
        assert run.seats == ("greedy", "careful", "expert", "careful")
        trace = replay_deal(run)
        assert trace[0]["minimums"] == [120, 50]
        assert _totals(trace) == sides.query(f"deal == {k}")["score"].tolist()
        assert check_trace(trace).ok
    with pytest.raises(ValueError, match="holds deals 0 to 11"):
        deal_of_run(out, 12)


def test_replay_of_compare_and_games_folders(tmp_path):
    from canasta_sim.run.address import deal_of_run, replay_deal

    cs.compare("greedy", "careful", deals=8, seed=2, workers=1, out=tmp_path / "c")
    rows = pd.read_parquet(tmp_path / "c" / "deals.parquet")
    for k in (2, 5):  # board k // 2, greedy on side k % 2
        run = deal_of_run(tmp_path / "c", k)
        assert run.seats[k % 2] == "greedy" and run.seats[1 - k % 2] == "careful"
        assert _totals(replay_deal(run)) == rows.query(f"deal == {k}")["score"].tolist()
    res = cs.play_games(3, bots="greedy", scores=[2000, 0], seed=3, workers=1, out=tmp_path / "g")
    sides = res.sides
    deals = int(res.games.query("game == 1")["deals"].iloc[0])
    for j in range(deals):
        run = deal_of_run(tmp_path / "g", j, game=1)
        expected = sides.query(f"game == 1 and deal == {j}")
        assert list(run.scores) == expected["score_before"].tolist()
        assert _totals(replay_deal(run)) == expected["score"].tolist()
    with pytest.raises(ValueError, match=f"game 1 has {deals} deals"):
        deal_of_run(tmp_path / "g", deals, game=1)


def test_replay_cli_refuses_bots_with_a_folder_and_a_version_mismatch(tmp_path):
    import json

    from click.testing import CliRunner

    from canasta_sim.cli import main

    out = tmp_path / "run"
    cs.simulate(4, bots="greedy", seed=1, workers=1, out=out)
    r = CliRunner().invoke(main, ["replay", str(out), "--deal", "2", "--bots", "expert"])
    assert r.exit_code == 2 and "--bots" in r.output and "manifest" in r.output
    r = CliRunner().invoke(main, ["replay", str(out), "--deal", "2", "--hands", "--check"])
    assert r.exit_code == 0, r.output
    assert "-- hands at the deal: seat 3 to play" in r.output  # deal 2: dealer seat 2
    assert "referee: OK" in r.output
    m = json.loads((out / "manifest.json").read_text())
    m["bots_version"] = 0
    (out / "manifest.json").write_text(json.dumps(m))
    r = CliRunner().invoke(main, ["replay", str(out), "--deal", "2"])
    assert r.exit_code == 2 and "bots_version 0" in r.output


def test_replay_hands_show_each_hand_before_each_turn():
    from canasta_sim.run.address import RunDeal, replay_deal

    rules = cs.Rules()
    trace = replay_deal(RunDeal(rules, 9, 0, 0, ("greedy",) * 4, (0, 0)), hands=True)
    shows = [e for e in trace if e["event"] == "hands"]
    # red threes are laid out and replaced: every hand holds the 11 cards dealt
    assert [len(h.split()) for h in shows[0]["hands"]] == [rules.cards_dealt] * 4
    assert [e["turn"] for e in shows] == list(range(len(shows)))
    # one hands event before each turn, each followed by a move of the seat it names
    for i, e in enumerate(trace):
        if e["event"] == "hands":
            assert trace[i + 1]["seat"] == e["seat"]
    pickups = [e for e in trace if e["event"] == "take_pile"]
    assert all(e["cards"] >= 1 for e in pickups)


@pytest.fixture(scope="module")
def sixty_deals(tmp_path_factory):
    """60 deals of a 4-player run (seed 0): deals that end on an empty stock and by going out."""
    folder = tmp_path_factory.mktemp("run") / "run"
    cs.simulate(60, seed=0, out=folder, progress=False)
    return folder


@pytest.mark.parametrize("reason, last", [("stock_exhausted", 0), ("went_out", -1)])
def test_from_run_allows_exactly_the_turns_it_accepts(sixty_deals, reason, last):
    """A deal that ends on the draw from an empty stock (R-44) has a decision at turn T, its
    recorded turns; one that ends by going out has its last decision at turn T - 1."""
    run = sixty_deals
    deals = pd.read_parquet(run / "deals.parquet")
    row = deals[deals["end_reason"] == reason].iloc[0]
    deal, turns = int(row["deal"]), int(row["turns"])
    top = turns + last
    reached, _ = deal_from_run(f"{run}:{deal}:{top}")
    assert reached.turns == top and not reached.is_over
    with pytest.raises(ValueError, match=f"turn {top + 1} is not played .allowed: 0 to {top}."):
        deal_from_run(f"{run}:{deal}:{top + 1}")
