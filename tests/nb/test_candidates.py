"""The play-phase candidate layer (issue 18 item 3): meld plans then a discard, counted by hand
from the rules; the documented pruning and cap; the policies' ranking (its own choice first);
a known-answer position where laying a meld must win."""

from pathlib import Path

import pytest

from canasta_sim import InfoSet, analyse
from canasta_sim.cli import main
from canasta_sim.game.notation import plan_texts
from canasta_sim.players.choices import (
    MAX_CANDIDATES,
    candidates,
    decision_deal,
    list_candidates,
    meld_plans,
)
from canasta_sim.players.ranking import policy_choice, rank_candidates
from canasta_sim.search.review import decision_type

OPPONENT_MELDS = ["J J J", "4 4 4"]


def position(hand, melds, *, players=4, others=None, scores=None, pile="6 7 8 10", phase="play"):
    """A position for seat 0 (play phase unless ``phase``) with ``hand``, side 0's ``melds``;
    the stock holds what the pack leaves."""
    sizes = [len(hand.split())] + [others or 11] * (players - 1)
    seen = len(hand.split()) + len(pile.split())
    seen += sum(len(m.replace(":", " ").split()) for m in [*melds, *OPPONENT_MELDS])
    data = dict(
        players=players,
        seat=0,
        phase=phase,
        turn=20,
        hand=hand,
        pile=pile,
        stock=108 - seen - sum(sizes[1:]),
        hand_sizes=sizes,
        melds=[melds, OPPONENT_MELDS],
    )
    if scores is not None:
        data["scores"] = scores
    return InfoSet.from_dict(data)


# --- the plans, counted by hand ----------------------------------------------------------------
# Hand K K K 2 5 5 5 9, 4 players, the side has a canasta of aces (so it may go out, R-40).
# Per rank, the naturals go all or none (K K K, 5 5 5; the single 9 cannot meld, R-60), the one
# deuce on at most one meld: on the K meld, the 5 meld or the aces (an eighth card of a
# canasta, R-61). Plans: {}, K, 5, K+5, K2, K2+5, 52, K+52, A2, K+A2, 5+A2, K+5+A2 (12). Each
# then discards each kind left in hand (kind order 5, 9, K, 2); a plan that leaves one card
# discards it to go out; a plan leaving two cards or more may not leave fewer.
MELDED = {
    "discard 5",
    "discard 9",
    "discard K",
    "discard 2",
    "meld K K K, discard 5",
    "meld K K K, discard 9",
    "meld K K K, discard 2",
    "meld 5 5 5, discard 9",
    "meld 5 5 5, discard K",
    "meld 5 5 5, discard 2",
    "meld 5 5 5, K K K, discard 9",
    "meld 5 5 5, K K K, discard 2",
    "meld K K K 2, discard 5",
    "meld K K K 2, discard 9",
    "go out: meld 5 5 5, K K K 2, discard 9",
    "meld 5 5 5 2, discard 9",
    "meld 5 5 5 2, discard K",
    "go out: meld 5 5 5 2, K K K, discard 9",
    "meld A: 2, discard 5",
    "meld A: 2, discard 9",
    "meld A: 2, discard K",
    "meld K K K, A: 2, discard 5",
    "meld K K K, A: 2, discard 9",
    "meld 5 5 5, A: 2, discard 9",
    "meld 5 5 5, A: 2, discard K",
    "go out: meld 5 5 5, K K K, A: 2, discard 9",
}
HAND = "K K K 2 5 5 5 9"
CANASTA = ["A A A A A A A"]


def test_a_melded_side_lists_every_plan_counted_by_hand():
    found = [c.label for c in candidates(position(HAND, CANASTA))]
    assert len(found) == len(set(found)) == 26
    assert set(found) == MELDED
    # documented order: the empty plan's discards by kind, then the engine's going out (the
    # builder melds all it can: naturals, then the spare deuce, here onto the aces)
    assert found[:5] == [
        "discard 5",
        "discard 9",
        "discard K",
        "discard 2",
        "go out: meld 5 5 5, K K K, A: 2, discard 9",
    ]


def test_without_a_canasta_no_plan_may_leave_one_card():
    # the same hand beside a three-ace meld: going out needs a canasta, so the three
    # plans that leave the 9 alone are gone, and so is the going out
    found = {c.label for c in candidates(position(HAND, ["A A A"]))}
    assert found == {x for x in MELDED if not x.startswith("go out")}


def test_an_unmelded_side_lays_only_plans_that_reach_the_minimum_count():
    # no melds, score 0: minimum 50. K K K 2 = 30 + 20 = 50 reaches it; K K K + 5 5 5
    # = 45, 5 5 5 2 = 35, K K K = 30 do not; K K K 2 + 5 5 5 (65) and K K K + 5 5 5 2 leave
    # the 9 alone, which is going out without a canasta
    found = [c.label for c in candidates(position(HAND, []))]
    assert found == [
        "discard 5",
        "discard 9",
        "discard K",
        "discard 2",
        "meld K K K 2, discard 5",
        "meld K K K 2, discard 9",
    ]


def test_the_engine_initial_meld_adds_wild_cards_deuces_first_until_the_minimum():
    # 3 players, side 0 unmelded at 1,800 points: minimum 90. The engine lays its
    # naturals, K K K + 5 5 5 = 45, short of 90; it adds a deuce (65), still short, then the
    # joker (115): two wild cards, the meld-all plan too, so it is listed once, first after
    # the empty plan. The one-wild plans (95) come last: fewer points (docs/analysis.md)
    hand, pile = "K K K 2 5 5 5 9 7 JK 4 Q", "4 7 8"
    info = InfoSet.from_dict(
        dict(
            players=3,
            seat=0,
            phase="play",
            turn=4,
            hand=hand,
            pile=pile,
            stock=108 - 12 - 3 - 13 - 13,
            hand_sizes=[12, 13, 13],
            scores=[1800, 0, 0],
        )
    )
    plans = []
    for c in candidates(info):
        plan = c.label.rsplit(", discard", 1)[0]
        if plan.startswith("meld") and plan not in plans:
            plans.append(plan)
    assert plans[0] == "meld 5 5 5, K K K 2 JK"
    assert plans[-2:] == ["meld 5 5 5 JK, K K K", "meld 5 5 5, K K K JK"]


def test_the_cap_takes_whole_plans_in_the_documented_order():
    info = position(HAND, CANASTA)
    # the empty plan (4), the going out (1), then the plan that melds all it can keeping two
    # cards (5 5 5, K K K: 2 discards), which does not fit under 6
    assert [c.label for c in candidates(info, cap=6)][4:] == [
        "go out: meld 5 5 5, K K K, A: 2, discard 9"
    ]
    assert [c.label for c in candidates(info, cap=7)][5:] == [
        "meld 5 5 5, K K K, discard 9",
        "meld 5 5 5, K K K, discard 2",
    ]
    with pytest.raises(ValueError, match="cap=0"):
        candidates(info, cap=0)


def test_a_large_hand_is_pruned_within_64_and_keeps_the_engine_plan():
    # six natural triples and three wild cards: far more than 512 plans (each triple laid or
    # not, each wild card anywhere), so the pruned set. The engine's plan that melds all it
    # can keeping two cards: the six triples (18 cards), then one wild card (a joker first)
    # on the highest meld (the aces), keeping the two deuces; no going out (no canasta)
    hand = "4 4 4 5 5 5 6 6 6 7 7 7 8 8 8 9 9 9 2 2 JK"
    found = [c.label for c in candidates(position(hand, ["A A A"]))]
    assert len(found) <= 64
    assert found[:8] == [f"discard {k}" for k in "4 5 6 7 8 9 2 JK".split()]
    assert found[8] == "meld 4 4 4, 5 5 5, 6 6 6, 7 7 7, 8 8 8, 9 9 9, A: JK, discard 2"


LARGE_HAND = "4 4 4 5 5 5 6 6 6 7 7 7 8 8 8 9 9 9 2 2 JK"


def plans_of(found) -> list[tuple[str, ...]]:
    """The meld plans of a play-phase listing, in order, each once."""
    return list(dict.fromkeys(c.melds for c in found))


def test_the_cap_counts_the_plans_it_leaves_out():
    info = position(LARGE_HAND, ["A A A"])
    listed = list_candidates(info)
    full = list_candidates(info, cap=10_000)
    assert full.plans_left_out == 0
    assert listed.candidates == candidates(info) == full.candidates[: len(listed.candidates)]
    assert len(listed.candidates) <= MAX_CANDIDATES < len(full.candidates)
    # the plan that would overflow the cap is the first one not listed; it and every plan
    # after it in meld_plans' order are left out
    order = [plan_texts(p) for p in meld_plans(decision_deal(info))]
    cut = plans_of(full.candidates)[len(plans_of(listed.candidates))]
    assert listed.plans_left_out == len(order) - order.index(cut) > 0


def test_a_listing_within_the_cap_leaves_nothing_out():
    assert list_candidates(position(HAND, CANASTA)).plans_left_out == 0
    info = position(HAND, CANASTA)
    # 12 plans (counted above); a cap of 7 lists the first three (4 + 1 + 2 candidates)
    assert len(meld_plans(decision_deal(info))) == 12
    assert list_candidates(info, cap=7).plans_left_out == 12 - 3


def test_analyse_says_how_many_plans_the_cap_left_out():
    info = position(LARGE_HAND, ["A A A"])
    left_out = list_candidates(info).plans_left_out
    result = analyse(info, worlds=20, top=2, seed=1)
    assert result.meta["max_candidates"] == MAX_CANDIDATES
    assert result.meta["plans_left_out"] == left_out
    assert f"{left_out} meld plans left out by the cap of 64 candidates" in result.settings
    wide = analyse(info, worlds=20, top=2, seed=1, max_candidates=10_000)
    assert wide.meta["plans_left_out"] == 0
    assert "left out by the cap" not in wide.settings


@pytest.mark.parametrize("command", ["analyse", "review"])
def test_the_command_line_cap_defaults_to_the_candidate_layer_cap(command):
    params = {p.name: p for p in main.commands[command].params}
    assert params["max_candidates"].default == MAX_CANDIDATES


# --- ranking -----------------------------------------------------------------------------------
@pytest.mark.parametrize("bot", ["greedy", "careful", "expert", "random"])
def test_ranking_puts_the_policy_choice_first(bot):
    info = position(HAND, CANASTA)
    found = candidates(info)
    ranked = rank_candidates(info, found, bot)
    assert sorted(c.label for c in ranked) == sorted(c.label for c in found)
    assert ranked[0] == policy_choice(decision_deal(info), found, bot)


def test_greedy_goes_out_and_its_choice_is_added_when_pruned_away():
    # greedy melds all it can and goes out as soon as it may: the builder's going out
    info = position(HAND, CANASTA)
    out = "go out: meld 5 5 5, K K K, A: 2, discard 9"
    assert rank_candidates(info, candidates(info), "greedy")[0].label == out
    ranked = rank_candidates(info, candidates(info, cap=4), "greedy")
    assert [c.label for c in ranked] == [out, "discard 5", "discard 9", "discard K", "discard 2"]


def test_the_expert_ranks_its_own_discards_within_a_plan():
    # after its choice, the expert's discard ranking alternates over the plans: the second
    # candidate is the next-ranked discard of the same plan
    info = position(HAND, CANASTA)
    ranked = rank_candidates(info, candidates(info), "expert")
    assert ranked[1].melds == ranked[0].melds and ranked[1].discard != ranked[0].discard


def test_analyse_top_keeps_the_rollout_bot_ranking():
    info = position(HAND, CANASTA)
    result = analyse(info, worlds=20, rollout="greedy", top=3)
    ranked = rank_candidates(info, candidates(info), "greedy")
    assert sorted(result.table["candidate"]) == sorted(c.label for c in ranked[:3])


# --- a known answer ----------------------------------------------------------------------------
def test_laying_the_seventh_king_before_a_going_out_threat_wins():
    # 4 players. Our side has six kings on the table and no canasta; seat 1 (next, R-11)
    # holds one card and its side has a canasta and seven melds, so after its draw it usually
    # puts one card on a meld and discards the other: the deal ends. Laying the K now
    # makes a natural canasta: 500 and the K's 10 points on the table
    # instead of -10 in hand, 520 points in every world where seat 1 goes out at once;
    # the discard (the 9) is the same, so nothing else differs before seat 1's turn.
    data = dict(
        players=4,
        seat=0,
        phase="play",
        turn=40,
        hand="K 7 7 5 9",
        pile="4 2 5 10",  # frozen by the deuce
        hand_sizes=[5, 1, 8, 9],
        melds=[
            ["K K K K K K"],
            ["J J J J J J J", "4 4 4", "6 6 6", "8 8 8", "10 10 10", "Q Q Q", "A A A"],
        ],
    )
    data["stock"] = 108 - 5 - 4 - 6 - 25 - 18
    info = InfoSet.from_dict(data)
    assert "meld K, discard 9" in {c.label for c in candidates(info)}
    result = analyse(info, ["meld K, discard 9", "discard 9"], worlds=2000, seed=12)
    table = result.table.set_index("candidate")
    assert result.table.iloc[0]["candidate"] == "meld K, discard 9"
    assert table.loc["discard 9", "vs_best_hi"] < 0
    # at most the 520 points of a go-out-at-once world, on average over all worlds
    assert -520 <= table.loc["discard 9", "vs_best"] < 0


# --- after a last-card red three (R-45) ---------------------------------------------------------
def test_after_a_last_card_red_three_each_plan_ends_the_deal_without_a_discard():
    """R-45: the player who draws a red three as the last stock card may meld (switch on by
    default) but not discard, and the deal ends. Seat 0 holds K K K 5 6 (side 0 has melded
    Q Q Q): its plans are none and K K K (keeping 5 6, R-22), each ending the deal."""
    from canasta_sim import Deal

    d = Deal.from_position(
        hands=["K K K 5 6"] + ["4 5 6 7 8 9 10"] * 3, stock="R3", pile="J", melds={0: ["Q Q Q"]}
    )
    d.draw()
    found = candidates(d)  # a live deal (part of a pack) lists its candidates directly
    assert [c.label for c in found] == ["end the deal", "meld K K K, end the deal"]
    assert all(c.end_deal and not c.discard and not c.going_out for c in found)
    found[1].apply(d)
    assert d.end_reason == "last_red_three" and d.melds(0) == {"Q": "Q Q Q", "K": "K K K"}
    assert d.hand(0) == "5 6"


# --- review's decision types -------------------------------------------------------------------
@pytest.mark.parametrize(
    "a, b, kind",
    [
        ("draw", "take the pile with 9 9", "pickup"),
        ("discard 9", "go out: meld 5 5 5, K K K, A: 2, discard 9", "going_out"),
        ("meld K K K, discard 9", "discard 9", "meld_timing"),
        ("meld K K K, discard 9", "meld 5 5 5, discard 9", "meld_timing"),
        ("meld K K K 2, discard 9", "meld 5 5 5 2, discard 9", "meld_timing"),
        ("meld K K K 2, discard 9", "meld K K K, discard 9", "wild_cards"),
        ("meld A: 2, discard 5", "discard 5", "wild_cards"),
        ("meld K K K 2, discard 5", "meld K K K, A: 2, discard 5", "wild_cards"),
        ("meld K K K, discard 9", "meld K K K, discard 5", "discard"),
        ("discard 9", "discard 2", "discard"),
    ],
)
def test_decision_types_from_the_bot_choice_and_the_best(a, b, kind):
    info = position(HAND, CANASTA)
    found = {c.label: c for c in candidates(info)}
    take = InfoSet.from_file(Path(__file__).parents[2] / "docs/positions/take_or_draw.toml")
    found.update({c.label: c for c in candidates(take)})
    assert decision_type(found[a], found[b]) == kind
    assert decision_type(found[b], found[a]) == kind


def _space_of(text: str, limit: int = 512):
    """The plan space kernel's plans for a hand ``text`` and a side without melds (standard
    rules), as meld texts, or -1 when it holds more than ``limit`` plans."""
    import numpy as np

    from canasta_sim import Rules
    from canasta_sim.cards import parse_cards
    from canasta_sim.nb.enums import N_KINDS
    from canasta_sim.nb.plan_space import ROW_OPTIONS, plan_space_nb

    plans = np.zeros((limit + 2, N_KINDS, 3), np.int8)
    n = plan_space_nb(
        parse_cards(text).astype(np.int64),
        np.zeros((N_KINDS, 3), np.int64),
        Rules().to_array(),
        np.int64(limit),
        np.zeros((N_KINDS, ROW_OPTIONS, 3), np.int64),
        np.zeros((5, N_KINDS + 1), np.int64),
        np.zeros((N_KINDS, 3), np.int8),
        plans,
    )
    return n if n < 0 else [plan_texts(p) for p in plans[:n]]


def test_the_plan_space_takes_each_rank_all_or_none_ace_first_within_the_wild_cards():
    """R-60, R-61: K K needs the one deuce to be a meld, 7 7 7 may take it too; both cannot.
    Ranks from the ace down, a rank's options nothing first, then fewest wild cards first."""
    assert _space_of("K K 7 7 7 2") == [
        (),
        ("7 7 7",),
        ("7 7 7 2",),
        ("K K 2",),
        ("7 7 7", "K K 2"),
    ]


def test_the_plan_space_adds_black_threes_after_each_plan_and_stops_past_its_limit():
    """R-63: three black threes may be melded only in going out, so each plan comes twice,
    without and with them (the engine's check keeps the one that goes out)."""
    assert _space_of("K K K B3 B3 B3") == [(), ("B3 B3 B3",), ("K K K",), ("B3 B3 B3", "K K K")]
    assert _space_of("K K K B3 B3 B3", limit=3) == -1
