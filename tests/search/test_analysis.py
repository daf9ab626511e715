"""Candidates and rollouts (issue 18 items 3-6): known-answer positions, each written from the
rules and hand arithmetic, and the analysis API's checks."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from canasta_sim import InfoSet, analyse
from canasta_sim import cards as C
from canasta_sim.players.choices import candidates
from canasta_sim.search.race import pairing_note

DOCS = Path(__file__).resolve().parents[2] / "docs" / "positions"
GO_OUT = DOCS / "go_out_2p.json"
EXAMPLE_BOTS = DOCS.parent / "example_bots.py"


def row(result, label):
    table = result.table.set_index("candidate")
    return table.loc[label]


def ranks_first(result, label):
    """``label`` is ranked first and every other candidate's paired 95% interval to it lies
    below 0."""
    table = result.table
    assert table.iloc[0]["candidate"] == label, str(result)
    assert (table.iloc[1:]["vs_best_hi"] < 0).all(), str(result)


# --- candidates --------------------------------------------------------------------------------
def test_candidates_of_the_documented_positions():
    go_out = InfoSet.from_file(GO_OUT)
    # hand 7 7 7 B3, play phase: discard either kind, or go out by melding 7 7 7 and
    # discarding the black three; melding B3 is not a meld of 3 and 7 7 7 B3
    # cannot all be melded
    assert [c.label for c in candidates(go_out)] == [
        "discard B3",
        "discard 7",
        "go out: meld 7 7 7, discard B3",
    ]
    take = InfoSet.from_file(DOCS / "take_or_draw.toml")
    # a 9 on an unfrozen pile, hand 9 9 ... 2 (no joker): draw, the pair, or 9 and the deuce
    # (R-33 a, b); the side has no 9 meld, so not onto a meld (R-33 c)
    assert [c.label for c in candidates(take)] == [
        "draw",
        "take the pile with 9 9",
        "take the pile with 9 2",
    ]


def test_candidates_belong_to_the_seat_to_play():
    data = json.loads(GO_OUT.read_text())
    data["current"] = 1
    data["hand_sizes"] = [4, 12]
    with pytest.raises(ValueError, match="seat 0 is not to play"):
        candidates(InfoSet.from_dict(data))


# --- known answers ------------------------------------------------------------------------------
def test_going_out_now_fixes_the_own_score_exactly_2_players():
    # going out: melds K x7 (70) + Q Q Q Q 2 2 JK (40 + 40 + 50) + A x5 (100) + 8 x7 (70)
    # + 7 7 7 (15) = 385 points; canastas: K and 8 natural (2 x 500), Q mixed (300); going
    # out 100 (not concealed: the side melded before, R-42); no red threes; empty hand
    # (R-50..R-54): 385 + 1300 + 100 = 1785 in every world
    result = analyse(InfoSet.from_file(GO_OUT), worlds=400, seed=1)
    out = row(result, "go out: meld 7 7 7, discard B3")
    assert out["own_score"] == 1785 and out["own_score_sd"] == 0
    assert out["p_own_out"] == 1.0 and out["p_other_out"] == 0.0
    ranks_first(result, "go out: meld 7 7 7, discard B3")


FOUR_PLAYER_THREAT = dict(
    players=4,
    seat=0,
    phase="play",
    turn=40,
    hand="7 7 7 5",
    pile="4 2 5 10",  # frozen by the deuce
    stock=47,
    hand_sizes=[4, 1, 8, 9],
    melds=[
        ["K K K K K K K", "Q Q Q"],
        ["J J J J J J J", "4 4 4", "6 6 6", "8 8 8", "9 9 9", "10 10 10", "A A A"],
    ],
)


def test_going_out_beats_letting_the_next_player_go_out():
    # seat 1 (next to play, R-11) holds one card and its side has a canasta: after its
    # draw, one of its two cards that fits one of its seven melds (or is wild) goes on it and
    # the other is discarded, and the deal ends with our 4 cards and our partner's 8 counted
    # against us. Going out now scores our melds (70 + 30 + 15), the natural canasta
    # (500) and the going-out bonus (100) less only our partner's hand.
    result = analyse(InfoSet.from_dict(FOUR_PLAYER_THREAT), worlds=2000, seed=2)
    out = row(result, "go out: meld 7 7 7, discard 5")
    assert out["p_own_out"] == 1.0
    ranks_first(result, "go out: meld 7 7 7, discard 5")
    # not going out: seat 1 goes out in a good share of the worlds
    assert row(result, "discard 5")["p_other_out"] > 0.3


def test_black_three_discard_blocks_a_twenty_card_pile():
    # the pile is unfrozen (no wild card, R-31) with 20 cards; the next player's side has a
    # meld of 9s, so a discarded 9 lets them put it on that meld and take the pile (R-33 c);
    # a black three on top blocks them
    position = dict(
        players=2,
        seat=0,
        phase="play",
        turn=30,
        hand="B3 9 5 6",
        pile="4 5 6 7 8 10 J Q K A 4 5 6 7 8 10 J Q K 4",
        stock=68,
        hand_sizes=[4, 10],
        melds=[["A A A"], ["9 9 9"]],
    )
    result = analyse(InfoSet.from_dict(position), ["discard B3", "discard 9"], worlds=2000, seed=3)
    ranks_first(result, "discard B3")


def test_taking_a_pile_that_completes_two_canastas_beats_drawing():
    # taking the unfrozen pile with 9 9 (R-33 a) brings K K and Q Q to the side's five-card K
    # and Q melds: two natural canastas (2 x 500, R-51) and 80 points of cards, besides the
    # rest of the pile; a draw brings two unknown cards (R-20, 2 players)
    position = dict(
        players=2,
        seat=0,
        phase="draw",
        turn=20,
        hand="9 9 4 5 6 7 8",
        pile="K K Q Q 10 J 4 8 9",
        stock=67,
        hand_sizes=[7, 12],
        melds=[["K K K K K", "Q Q Q Q Q"], ["A A A"]],
    )
    result = analyse(InfoSet.from_dict(position), worlds=2000, seed=4)
    ranks_first(result, "take the pile with 9 9")


def rest_in_pile(position, hidden):
    """``position`` with every card of the 108-card pack that is not in view (hand, melds,
    known cards, red threes) in the discard pile, a deuce at its bottom (frozen, R-31), except
    ``hidden`` cards (wild cards and high cards, the last in kind order) left for the other
    hands: a position at an exhausted stock, where the pile holds the rest of the pack."""
    seen = C.parse_cards(position["hand"]).astype(int)
    for side in position["melds"]:
        for meld in side:
            seen += C.parse_cards(meld)
    for text in position.get("known", []):
        seen += C.parse_cards(text)
    seen[C.RED_THREE] += sum(position.get("red_threes", []))
    rest = C.KIND_COUNTS_108 - seen
    codes = [k for k in range(C.BLACK_THREE, C.N_KINDS) for _ in range(rest[k])]
    codes.remove(C.DEUCE)
    pile = [C.DEUCE] + codes[: len(codes) - hidden]
    return {**position, "pile": C.format_sequence(pile)}


def test_going_out_at_an_exhausted_stock_is_worth_exactly_125_points():
    # 2 players, the stock is empty, the side has its two canastas (R-40: 2 players need 2).
    # Every 7 is in view (3 in hand, 5 in the pile), so after "discard 7" the next player
    # cannot take the frozen pile (R-32: no natural pair; no 7 meld) and the deal ends at
    # once; going out melds 7 7 7 (15 points, R-53) and scores the going-out bonus
    # (100, R-52), where discarding keeps 7 7 in hand (-10, R-54): 125 points in every world,
    # the other side's score the same. Own score going out: K and Q natural canastas
    # (2 x 500, R-51) + 70 + 70 + 15 (R-53) + 100 = 1255.
    position = rest_in_pile(
        dict(
            players=2,
            seat=0,
            phase="play",
            turn=60,
            hand="7 7 7",
            stock=0,
            hand_sizes=[3, 12],
            red_threes=[0, 4],
            melds=[["K K K K K K K", "Q Q Q Q Q Q Q"], ["A A A"]],
        ),
        hidden=12,
    )
    result = analyse(InfoSet.from_dict(position), worlds=500, seed=6)
    ranks_first(result, "go out: meld 7 7 7")
    out, stay = row(result, "go out: meld 7 7 7"), row(result, "discard 7")
    assert out["own_score"] == 1255 and out["own_score_sd"] == 0
    assert stay["vs_best"] == stay["vs_best_lo"] == stay["vs_best_hi"] == -125
    assert stay["p_other_out"] == 0.0


def test_melding_after_a_last_card_red_three_is_worth_exactly_60_points():
    # 2 players; seat 0 drew the last stock card, a red three: it may meld, not
    # discard, and the deal ends. Own score ending the deal at once: the Q natural canasta
    # 500 (R-51) + Q x7 70 + A A A 60 (R-53) + two red threes 200 (R-50) - K K K 5 6 in hand
    # 40 (R-54) = 790; melding K K K first adds 30 and removes 30 of penalty: 850. The other
    # side's hand and melds are the same in both, so the difference is 60 in every world.
    position = rest_in_pile(
        dict(
            players=2,
            seat=0,
            phase="play",
            turn=60,
            hand="K K K 5 6",
            stock=0,
            hand_sizes=[5, 12],
            red_threes=[2, 2],
            melds=[["Q Q Q Q Q Q Q", "A A A"], ["J J J"]],
            last_red_three=True,
        ),
        hidden=12,
    )
    info = InfoSet.from_dict(position)
    assert [c.label for c in candidates(info)] == ["end the deal", "meld K K K, end the deal"]
    result = analyse(info, worlds=300, seed=8)
    ranks_first(result, "meld K K K, end the deal")
    meld, end = row(result, "meld K K K, end the deal"), row(result, "end the deal")
    assert meld["own_score"] == 850 and meld["own_score_sd"] == 0
    assert end["own_score"] == 790
    assert end["vs_best"] == end["vs_best_lo"] == end["vs_best_hi"] == -60


def test_going_out_concealed_at_an_exhausted_stock_is_worth_exactly_935_points():
    # 4 players, the stock is empty, the observer's side has no meld yet. Going out concealed
    # with the seven 8s: a concealed natural canasta (500 + 100, R-51, R-66), 70 points
    # of cards, the concealed going-out bonus (200, R-52), the 5 discarded. Discarding
    # an 8 instead (all eight 8s in view: the next player cannot take the pile, R-32, R-44)
    # ends the deal with 8 x6 and 5 in hand (-65, R-54). Both end the deal at once, so the
    # other side and the partner's hand are the same in both: 870 + 65 = 935 in every world.
    position = rest_in_pile(
        dict(
            players=4,
            seat=0,
            phase="play",
            turn=50,
            hand="8 8 8 8 8 8 8 5",
            stock=0,
            hand_sizes=[8, 10, 10, 10],
            red_threes=[0, 4],
            melds=[[], ["A A A", "K K K"]],
        ),
        hidden=30,
    )
    out = "go out: meld 8 8 8 8 8 8 8, discard 5"
    result = analyse(InfoSet.from_dict(position), [out, "discard 8"], worlds=500, seed=7)
    ranks_first(result, out)
    stay = row(result, "discard 8")
    assert stay["vs_best"] == stay["vs_best_lo"] == stay["vs_best_hi"] == -935


def test_discarding_a_dead_card_beats_one_the_next_player_is_known_to_pair():
    # 2 players, a 20-card pile frozen by its deuce. Seat 1 took a pile with K K in it
    # and still holds them (known cards): a discarded K lets them take the whole pile with
    # that natural pair. Every 5 is in view (seven melded, one in hand), so nobody can
    # ever pair a discarded 5: the pile stays where it is.
    position = dict(
        players=2,
        seat=0,
        phase="play",
        turn=30,
        hand="K 5 6 7",
        pile="4 6 7 8 9 10 J Q 2 4 6 7 8 9 10 J Q A 4 9",
        stock=58,
        hand_sizes=[4, 10],
        known=["", "K K"],
        melds=[["5 5 5 5 5 5 5", "A A A"], ["Q Q Q", "J J J"]],
    )
    result = analyse(InfoSet.from_dict(position), ["discard 5", "discard K"], worlds=2000, seed=8)
    ranks_first(result, "discard 5")
    assert row(result, "discard K")["p_other_out"] > row(result, "discard 5")["p_other_out"]


def test_discarding_a_wild_card_beats_feeding_the_other_sides_meld():
    # 2 players, an unfrozen 20-card pile (no wild card, R-31). The other side has six Ks on
    # the table: a discarded K goes onto that meld and takes the pile (R-33 c), making their
    # canasta and 20 cards more. A discarded deuce on top bars the next player (R-24,
    # R-30) and freezes the pile for everyone: they would need a natural pair.
    position = dict(
        players=2,
        seat=0,
        phase="play",
        turn=30,
        hand="2 K 6 7",
        pile="4 5 6 7 8 9 10 J Q A 4 5 6 7 8 9 10 J Q 4",
        stock=65,
        hand_sizes=[4, 10],
        melds=[["A A A"], ["K K K K K K"]],
    )
    result = analyse(InfoSet.from_dict(position), ["discard 2", "discard K"], worlds=2000, seed=9)
    ranks_first(result, "discard 2")


# --- the API -------------------------------------------------------------------------------------
def test_same_seed_same_result_and_worlds_shared_by_candidates():
    info = InfoSet.from_file(GO_OUT)
    a = analyse(info, worlds=300, seed=9)
    b = analyse(info, worlds=300, seed=9)
    pd.testing.assert_frame_equal(a.table, b.table)
    counts = a.per_world.groupby("candidate")["world"].agg(["count", "max"])
    assert (counts["count"] == 300).all() and (counts["max"] == 299).all()


def test_racing_drops_a_clearly_worse_candidate_after_min_worlds():
    info = InfoSet.from_file(GO_OUT)
    result = analyse(info, min_worlds=200, max_worlds=5000, target_se=1.0, seed=5)
    # discarding the 7 or the black three gives the deal to chance; going out is about 700
    # points better with a paired SE near 35 at 200 worlds: both leave after the first round
    assert result.table.iloc[0]["candidate"] == "go out: meld 7 7 7, discard B3"
    assert sorted(result.table["worlds"]) == [200, 200, 200]
    assert "one candidate left" in result.settings


def test_a_single_candidate_plays_min_worlds_only():
    # a forced move raced its own standard error to max_worlds (200,000 worlds, 12 CPU s for a
    # decision with nothing to decide: a fresh user's finding)
    info = InfoSet.from_file(GO_OUT)
    result = analyse(info, ["go out: meld 7 7 7, discard B3"], min_worlds=150, seed=5)
    assert list(result.table["worlds"]) == [150]
    assert "stopped: one candidate: nothing to compare" in result.settings


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"candidates": ["discard K"]}, "unknown candidate 'discard K'"),
        ({"rollout": "wizard"}, "wizard"),
        # the search bot and a Python bot play no rollouts (the rollout kernel has no branch
        # for them: they would be played as random)
        ({"rollout": "pimc"}, "rollout bot 'pimc' is the search bot.*pass an expert spec"),
        ({"rollout": "expert,pimc:melds=1"}, "rollout bot 'pimc:melds=1' is the search bot"),
        ({"rollout": f"py:{EXAMPLE_BOTS}:EagerMelder"}, "is written in Python"),
        ({"objective": "fun"}, "objective='fun'"),
        ({"worlds": 0}, "worlds=0"),
        ({"min_worlds": 10, "max_worlds": 5}, "max_worlds=5"),
    ],
)
def test_bad_arguments_name_the_value(kwargs, message):
    with pytest.raises(ValueError, match=message):
        analyse(InfoSet.from_file(GO_OUT), **kwargs)


def test_the_apprentice_rolls_out_and_scores_its_own_candidates():
    """With a full network's apprentice as rollout bot (version 11's; a head network leaves
    the draw to the expert) the table shows its own score of each candidate: at a draw
    decision its candidates are the draw and every legal pickup (R-20, R-30..R-35), so every
    analysed candidate has one, and they differ; with the expert there is none. The
    rollouts are the apprentice's: its worlds end unlike the expert's."""
    info = InfoSet.from_file(DOCS / "take_or_draw.toml")
    learned = analyse(info, worlds=30, rollout="apprentice@11", seed=3)
    expert = analyse(info, worlds=30, rollout="expert", seed=3)
    scores = learned.table["learned"]
    assert len(scores) == 3 and scores.notna().all() and scores.nunique() == 3
    assert "learned" not in expert.table
    assert "learned" in str(learned).splitlines()[0]
    key = ["candidate", "world"]
    a, b = (r.per_world.sort_values(key)["own_score"].to_numpy() for r in (learned, expert))
    assert not np.array_equal(a, b)


def test_the_learned_column_is_empty_for_candidates_the_apprentice_does_not_make():
    """At a play decision the apprentice's candidates are the expert's melds of the turn (or
    its going out) and holding them, each with its ``top`` discards: with ``top=1`` at most
    two of the three candidates of hand 7 7 7 B3 (discard B3, discard 7, go out), and always
    holding with the first-ranked discard."""
    info = InfoSet.from_file(GO_OUT)
    result = analyse(info, worlds=4, rollout="apprentice:top=1", seed=3)
    scores = result.table["learned"]
    assert scores.notna().sum() >= 1 and scores.isna().sum() >= 1


def test_the_rollout_kernel_refuses_codes_it_does_not_play():
    from canasta_sim.nb.bots.policies import PolicyCode
    from canasta_sim.nb.play import Seating
    from canasta_sim.nb.rollout import rollouts

    policies = np.array([[PolicyCode.expert, PolicyCode.pimc]], np.int32)
    seating = Seating(policies, None)
    with pytest.raises(ValueError, match=f"policy code {PolicyCode.pimc} is no rollout bot"):
        rollouts(None, None, None, None, None, seating, 1)
    with pytest.raises(ValueError, match="policy code -1 is no rollout bot"):
        policies[0, 1] = -1  # a bot written in Python
        rollouts(None, None, None, None, None, seating, 1)


def test_chosen_candidates_only_and_result_files(tmp_path):
    info = InfoSet.from_file(GO_OUT)
    result = analyse(info, ["discard 7", "DISCARD  b3"], worlds=100)
    assert sorted(result.table["candidate"]) == ["discard 7", "discard B3"]
    folder = result.write(tmp_path / "out")
    doc = json.loads((folder / "analysis.json").read_text())
    assert [r["candidate"] for r in doc["table"]] == list(result.table["candidate"])
    per_world = pd.read_parquet(folder / "per_world.parquet")
    assert len(per_world) == 200 and np.array_equal(
        per_world["own_score"], result.per_world["own_score"]
    )
    with pytest.raises(ValueError, match="already exists"):
        result.write(folder)


# --- the command line ---------------------------------------------------------------------------
def run_cli(*args):
    from click.testing import CliRunner

    from canasta_sim.cli import main

    return CliRunner().invoke(main, ["analyse", *map(str, args)])


def write_position(tmp_path, **change):
    data = {**json.loads(GO_OUT.read_text()), **change}
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    "change, extra, message",
    [
        ({"hand": "JK JK JK JK B3", "hand_sizes": [5, 12]}, [], "breaks the pack"),
        ({"stock": 41}, [], "stock size 41 disagree"),
        ({"phase": "over"}, [], "phase='over' has no decision"),
        ({}, ["--candidate", "discard K"], "unknown candidate 'discard K'"),
        # the allowed list is the rollout bots' alone: pimc is refused as a rollout bot
        (
            {},
            ["--rollout", "wizard"],
            "unknown rollout bot 'wizard'; allowed: random, greedy, careful, expert, "
            "apprentice, expert@1, expert@2, expert@3, apprentice@8, apprentice@9, apprentice@10, "
            "apprentice@11\n",
        ),
        ({}, ["--rollout", "expert,wizard:x=1"], "unknown rollout bot 'wizard'; allowed: random"),
        ({}, ["--rollout", "pimc"], "'--rollout': rollout bot 'pimc' is the search bot"),
        ({}, ["--rollout", "pimc"], "allowed: random, greedy, careful, expert, apprentice, exp"),
        ({}, ["--rollout", "pimc:melds=1"], "'--rollout': rollout bot 'pimc:melds=1' is the"),
        ({}, ["--rollout", f"py:{EXAMPLE_BOTS}:EagerMelder"], "'--rollout': rollout bot 'py:"),
        # a hand without cards has gone out: no decision is left, and no rollout hangs
        ({"hand": "", "hand_sizes": [0, 12]}, [], "hand_sizes[0]=0"),
        ({"hand_sizes": [4, 0]}, [], "hand_sizes[1]=0"),
        ({}, ["--target-se", "nan"], "nan is not allowed; allowed: a finite number above 0"),
    ],
)
def test_cli_bad_input_is_a_usage_error_naming_the_value(tmp_path, change, extra, message):
    result = run_cli(write_position(tmp_path, **change), *extra)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_cli_without_a_position_names_both_ways():
    result = run_cli()
    assert result.exit_code == 2
    assert "give POSITION (a position file) or '--from-run" in result.output


def test_cli_refuses_an_existing_out_folder(tmp_path):
    (tmp_path / "taken").mkdir()
    result = run_cli(write_position(tmp_path), "--worlds", 10, "--out", tmp_path / "taken")
    assert result.exit_code == 2
    assert "exists; analyse writes a new folder only" in result.output


def test_cli_prints_the_table_and_writes_the_results(tmp_path):
    out = tmp_path / "analysis"
    result = run_cli(GO_OUT, "--worlds", 200, "--seed", 3, "--out", out)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1].startswith("go out: meld 7 7 7, discard B3")
    assert lines[4].startswith("seed 3, 200 worlds")
    assert sorted(p.name for p in out.iterdir()) == ["analysis.json", "per_world.parquet"]
    assert len(pd.read_parquet(out / "per_world.parquet")) == 3 * 200


def test_cli_top_keeps_the_rollout_bot_first_ranked_candidates():
    from canasta_sim.players.choices import candidates
    from canasta_sim.players.ranking import rank_candidates

    info = InfoSet.from_file(GO_OUT)
    first = rank_candidates(info, candidates(info), "expert")[0].label
    result = run_cli(GO_OUT, "--worlds", 50, "--top", 1)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == 3 and lines[1].startswith(first)
    bad = run_cli(GO_OUT, "--top", 0)
    assert bad.exit_code == 2 and "--top" in bad.output


def test_the_table_header_lines_up_with_rows_wider_than_the_titles():
    from canasta_sim.search.race import format_table

    table = pd.DataFrame(
        {
            "candidate": ["take the pile with 9 9", "draw"],
            "score_diff": [1388.4, 892.1],  # intervals of 26 characters
            "score_diff_lo": [1173.9, 644.2],
            "score_diff_hi": [1602.9, 1140.1],
            "vs_best": [0.0, -496.2],
            "vs_best_lo": [0.0, -798.9],
            "vs_best_hi": [0.0, -193.6],
            "p_win_deal": [0.81, 0.695],
            "p_win_game": [0.548, float("nan")],
            "own_score": [2209.6, 1857.0],
            "p_own_out": [0.635, 0.595],
            "p_other_out": [0.08, 0.21],
            "worlds": [200, 200],
        }
    )
    lines = format_table(table).splitlines()
    assert len({len(line) for line in lines}) == 1
    for title, cell in [
        ("score diff [95%]", "+1140.1]"),
        ("P(win game)", "n/a"),
        ("worlds", "200"),
    ]:
        end = lines[0].index(title) + len(title)
        assert lines[2][:end].endswith(cell)  # the draw row's cell ends under its title


def test_a_first_use_says_it_compiles_and_keeps_compiling_out_of_the_time(monkeypatch):
    # a cold cache, played by a compile event of a known 0.4 s inside the rollouts: analyse
    # says it compiles (as simulate does), and its time is the analysis's own
    import time

    from numba.core import event

    from canasta_sim.run.compiling import COMPILE_NOTE
    from canasta_sim.search import analysis

    rollouts = analysis.rollouts
    cold = [True]  # an item: the next rollouts call compiles first

    def first_use_compiles(*args):
        if cold:
            cold.pop()
            with event.trigger_event("numba:compile", data={}):
                time.sleep(0.4)
        return rollouts(*args)

    monkeypatch.setattr(analysis, "rollouts", first_use_compiles)
    start = time.perf_counter()
    first = analyse(InfoSet.from_file(GO_OUT), worlds=20, seed=1)
    wall = time.perf_counter() - start
    assert first.meta["compile_seconds"] >= 0.4
    assert first.meta["elapsed_seconds"] <= wall - first.meta["compile_seconds"]
    compiled = f"{first.meta['compile_seconds']:.1f} s compiling the kernels, first use only"
    assert compiled in first.settings
    warm = analyse(InfoSet.from_file(GO_OUT), worlds=20, seed=1)  # nothing compiles now
    assert warm.meta["compile_seconds"] == 0 and "compiling" not in warm.settings
    cold.append(True)
    result = run_cli(GO_OUT, "--worlds", 20)
    assert result.exit_code == 0, result.output
    assert result.stderr == COMPILE_NOTE + "\n"
    cold.append(True)
    quiet = run_cli(GO_OUT, "--worlds", 20, "--quiet")
    assert quiet.exit_code == 0 and quiet.stderr == ""


# --- the pairing note ----------------------------------------------------------------------------
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


def test_the_pairing_note_says_when_pairing_grew_the_variance():
    # scores that move against each other across worlds: var(a - b) above var(a) + var(b)
    assert pairing_note(3, unpaired=900.0, paired=1000.0) == (
        "pairing grew the variance of differences 1.1x"
    )
    assert pairing_note(3, unpaired=1400.0, paired=1000.0) == (
        "pairing shrank the variance of differences 1.4x"
    )
