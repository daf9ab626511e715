"""The engine's exact legal moves (issue 24 item 3, ``nb/engine/legal.py``): every pickup way
with the melds from hand it needs, and the single-step checks of a turn.

On random play (the ``random`` bot and ``expert``; 2, 3, 4 and 6 players; ``classic`` and
``hoyle``), at every decision: ``can_take_pile`` equals "the legal pickups are not empty", each
legal way's plan is taken by ``take_pile_nb`` and each refused way is refused by it with the
same MoveError, and every candidate of the candidate layer is made of steps the step checks
accept. Small random positions check the pickup ways against a brute-force search of every meld
plan from the hand; hand-built positions are named after the rules they show.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from test_architecture import import_graph

from canasta_sim import Deal, Rules
from canasta_sim.cards import parse_cards
from canasta_sim.nb.engine.legal import (
    check_meld_row_nb,
    check_pickup_nb,
    legal_pickups_nb,
    way_alone_nb,
)
from canasta_sim.nb.engine.moves import check_take_nb, take_pile_nb
from canasta_sim.nb.enums import (
    BLACK_THREE,
    DEUCE,
    EV_LEN,
    JOKER,
    LAST_NATURAL,
    N_KINDS,
    N_PICKUP_WAYS,
    DealSlot,
    MeldCol,
    MoveError,
    PickupWay,
)
from canasta_sim.players.choices import Candidate, candidates

NO_LOG = np.zeros((0, EV_LEN), np.int32)
MENDABLE = (MoveError.ok, MoveError.minimum_count, MoveError.going_out)


def pile_top(d: Deal) -> int:
    size = int(d.view.g[DealSlot.pile_len])
    return int(d.view.pile[size - 1]) if size else -1


def way_cards(d: Deal, way: int) -> np.ndarray:
    """The way's cards alone as a pickup plan."""
    plan = np.zeros((N_KINDS, 3), np.int8)
    way_alone_nb(np.int64(way), np.int64(pile_top(d)), plan)
    return plan


def engine_ways(d: Deal) -> tuple[np.ndarray, np.ndarray]:
    plans = np.zeros((N_PICKUP_WAYS, N_KINDS, 3), np.int8)
    errors = np.zeros(N_PICKUP_WAYS, np.int64)
    legal_pickups_nb(d.state, d.rules_array, plans, errors)
    return plans, errors


def take_on_copy(d: Deal, plan: np.ndarray) -> int:
    trial = d.copy()
    return int(take_pile_nb(trial.state, trial.rules_array, plan.copy(), NO_LOG))


# --- the pickup ways against take_pile_nb -------------------------------------------------------
def check_pickups(d: Deal) -> None:
    """At a draw-phase decision: the legal ways and their plans agree with ``take_pile_nb``,
    with ``check_pickup_nb`` given the plan's melds, and with ``can_take_pile``."""
    plans, errors = engine_ways(d)
    legal = d.legal_pickups()
    assert d.can_take_pile() == bool(legal) == bool((errors == MoveError.ok).any())
    assert [p.way for p in legal] == [PickupWay._fields[w] for w in np.nonzero(errors == 0)[0]]
    for way in range(N_PICKUP_WAYS):
        assert take_on_copy(d, plans[way]) == errors[way], (d, way, plans[way])
        staged = plans[way] - way_cards(d, way)
        assert staged.min() >= 0
        scratch = np.zeros_like(staged)
        code = check_pickup_nb(d.state, d.rules_array, np.int64(way), staged, scratch)
        assert code == errors[way]
    for p in legal:
        trial = d.copy()
        trial.take_pile(p.with_, p.melds)
        assert trial.phase in ("play", "over")


def pickup_way_of(d: Deal, plan: np.ndarray) -> int:
    """A way whose cards are within a pickup plan's top row and pass the top card's checks."""
    row = plan[pile_top(d)]
    for way in range(N_PICKUP_WAYS):
        cards = way_cards(d, way)[pile_top(d)]
        alone = check_take_nb(d.state, d.rules_array, d.current_player, way_cards(d, way))[0]
        if (cards <= row).all() and alone in MENDABLE:
            return way
    raise AssertionError(f"no pickup way within {row}")


def check_candidate_steps(d: Deal, cand: Candidate) -> None:
    """Each step of a candidate passes the step checks, made one after the other on a copy."""
    trial = d.copy()
    if cand.move == "draw":
        assert trial.step_error("draw") is None
        return
    if cand.move == "take":
        kind, plan, _discard = cand.kernel_row(pile_top(d))
        way = pickup_way_of(d, plan)
        assert PickupWay._fields[way] in [p.way for p in d.legal_pickups()]
        staged = (plan - way_cards(d, way)).astype(np.int8)
        code = check_pickup_nb(d.state, d.rules_array, np.int64(way), staged, np.zeros_like(staged))
        assert code == MoveError.ok, (d, cand)
        return
    if cand.going_out:
        assert trial.step_error("go_out", melds=cand.melds, card=cand.discard) is None, cand
    if cand.melds:
        assert trial.step_error("meld", melds=cand.melds) is None, (d, cand)
        trial.meld(*cand.melds)
    if cand.discard:
        assert trial.step_error("discard", card=cand.discard) is None, (d, cand)
    if cand.end_deal:
        assert trial.step_error("end_deal") is None, (d, cand)


def check_decision(d: Deal) -> None:
    for cand in candidates(d):
        check_candidate_steps(d, cand)


def after_draw_step(d: Deal) -> Deal | None:
    """A copy of ``d`` after its draw step (drawing, or the first legal pickup when R-44
    forces one), or None when that ends the deal."""
    trial = d.copy()
    if trial.step_error("draw") is None:
        trial.draw()
    else:
        p = trial.legal_pickups()[0]
        trial.take_pile(p.with_, p.melds)
    return trial if trial.phase == "play" else None


def play_and_check(players: int, preset: str, bot: str, seeds: range) -> int:
    """Play deals ``seeds`` with ``bot`` on every seat, checking every decision on the way
    (also the play phase after drawing and after the first legal pickup); returns the turns."""
    turns = 0
    for seed in seeds:
        d = Deal.new(Rules.preset(preset, players), seed, deal=seed)
        while not d.is_over:
            check_pickups(d)
            check_decision(d)
            after = after_draw_step(d)
            if after is not None:
                check_decision(after)
            for p in d.legal_pickups()[:1]:  # a play phase with a pile in hand
                taken = d.copy()
                taken.take_pile(p.with_, p.melds)
                if taken.phase == "play":
                    check_decision(taken)
            turns += 1
            d.play_turn(bot)
    return turns


@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("preset", ["classic", "hoyle"])
@pytest.mark.parametrize("bot", ["random", "expert"])
def test_random_play_legal_moves_agree_with_the_move_kernels(players, preset, bot):
    assert play_and_check(players, preset, bot, range(2)) > 20


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("preset", ["classic", "hoyle"])
@pytest.mark.parametrize("bot", ["random", "expert"])
def test_many_deals_legal_moves_agree_with_the_move_kernels(players, preset, bot):
    assert play_and_check(players, preset, bot, range(2, 40)) > 400


# --- the pickup ways against a brute-force search ------------------------------------------------
def brute_force_way(d: Deal, way: int) -> bool:
    """Whether some plan from the hand that holds the way's cards is a legal pickup (each
    card on any row or kept), the way's cards alone passing the top card's checks."""
    seat = d.current_player
    base = way_cards(d, way)
    if check_take_nb(d.state, d.rules_array, seat, base)[0] not in MENDABLE:
        return False
    hand = parse_cards(d.hand(seat)).astype(np.int64)
    hand[pile_top(d)] -= base[pile_top(d), MeldCol.naturals]
    hand[DEUCE] -= base[:, MeldCol.deuces].sum()
    hand[JOKER] -= base[:, MeldCol.jokers].sum()
    if hand.min() < 0:
        return False
    # rows a card can go to: the hand's naturals, the side's melds and the top card's rank
    # (a wild card on any other row makes no legal meld, R-60)
    table = d.view.melds[seat % d.rules.sides].sum(axis=1)
    rows = [
        r for r in range(BLACK_THREE, LAST_NATURAL + 1) if hand[r] or table[r] or r == pile_top(d)
    ]
    wilds = [DEUCE] * int(hand[DEUCE]) + [JOKER] * int(hand[JOKER])
    for counts in itertools.product(*[range(hand[r] + 1) for r in rows]):
        for places in itertools.product([None, *rows], repeat=len(wilds)):
            plan = base.copy()
            plan[rows, MeldCol.naturals] += counts
            for wild, row in zip(wilds, places):
                if row is not None:
                    plan[row, MeldCol.deuces if wild == DEUCE else MeldCol.jokers] += 1
            if check_take_nb(d.state, d.rules_array, seat, plan)[0] == MoveError.ok:
                return True
    return False


# 4s worth 15 points (the rest as R-04): seven 4s reach a minimum of 90 that five do not
DEAR_FOURS = [0, 5, 15, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20, 20, 50]


def random_small_position(rng: random.Random) -> Deal:
    """A pickup decision with a small hand and a pile of one or two cards (so the pickup may go
    out), often a side without its initial meld (minimum counts of 50 to 120), or melds near a
    canasta; a draw that overfills the pack is drawn again."""
    while True:
        try:
            return _small_position(rng)
        except ValueError:
            continue


def _small_position(rng: random.Random) -> Deal:
    pool = ["B3"] * 3 + ["4"] * 5 + ["6", "6", "7", "7", "7", "K", "K", "K", "2", "JK"]
    top = rng.choice(["4", "4", "7", "K"])
    hand = [top] * rng.randint(0, 2) + rng.sample(pool, rng.randint(1, 7))
    pile = (rng.choice(["", "R3", "9", "9 9 8"]) + " " + top).strip()
    melds = rng.choice(
        [
            {},
            {},
            {},
            {0: ["7 7 7 7 7 2"]},
            {0: ["6 6 6 6 JK JK"]},
            {0: ["K K K 2", "A A A A A A A"]},
        ]
    )
    rules = Rules(
        players=rng.choice([2, 4, 6]),
        wilds_at_most_naturals=rng.random() < 0.5,
        card_values=rng.choice([Rules().card_values, DEAR_FOURS]),
    )
    return Deal.from_position(
        rules,
        hands=[" ".join(hand[:9])] + ["5"] * (rules.players - 1),
        stock=rng.choice(["", "9 9"]),
        pile=pile,
        melds=melds,
        scores={0: rng.choice([0, 0, 1500, 3000])},
    )


def test_each_pickup_way_equals_a_brute_force_search():
    rng = random.Random(24)
    mended = 0
    for _ in range(300):
        d = random_small_position(rng)
        plans, errors = engine_ways(d)
        for way in range(N_PICKUP_WAYS):
            expected = brute_force_way(d, way)
            assert (errors[way] == MoveError.ok) == expected, (d, d.hand(0), d.melds(0), way)
            mended += bool(expected and (plans[way] != way_cards(d, way)).any())
    assert mended >= 10  # the search for melds from hand was needed, and found them


# --- hand-built positions, named after the rules -------------------------------------------------
def ways(d: Deal) -> list[str]:
    return [p.way for p in d.legal_pickups()]


def test_r32_a_frozen_pile_is_taken_only_with_a_natural_pair():
    d = Deal.from_position(
        hands=["K K 2 9", "4", "4", "4"], stock="5 5", pile="2 K", melds={0: ["Q Q Q"]}
    )
    assert ways(d) == ["natural_pair"]
    _plans, errors = engine_ways(d)
    assert errors[PickupWay.natural_deuce] == MoveError.frozen_pile
    assert errors[PickupWay.onto_meld] == MoveError.frozen_pile
    # staging the second K does not make "a natural and a deuce" a way of taking a frozen pile
    assert d.step_error("take", way="natural_deuce", melds=["K"]).rule == "R-32"
    assert d.step_error("take", way="natural_pair", melds=["K: 2"]) is None


def test_r33_an_open_pile_goes_onto_the_meld_or_with_a_natural_and_a_wild_card():
    d = Deal.from_position(
        hands=["K 2 JK 9", "4", "4", "4"], stock="5 5", pile="5 K", melds={0: ["K K K"]}
    )
    assert ways(d) == ["onto_meld", "natural_deuce", "natural_joker"]
    assert [p.with_ for p in d.legal_pickups()] == ["", "K 2", "K JK"]
    assert not any(p.needs_melds for p in d.legal_pickups())


def test_r33_without_a_meld_of_its_rank_the_top_card_needs_cards_from_hand():
    d = Deal.from_position(
        hands=["9 2 5", "4", "4", "4"], stock="5 5", pile="5 K", melds={0: ["Q Q Q"]}
    )
    assert ways(d) == []
    assert d.can_take_pile() is False
    assert d.step_error("take", way="onto_meld").rule == "R-33"


def test_r64_the_minimum_count_met_by_melds_from_hand_laid_with_the_pickup():
    # K K K is 30 points, short of 50; with Q Q Q from hand, 60
    d = Deal.from_position(hands=["K K Q Q Q 9 5", "4", "4", "4"], stock="5 5", pile="7 K")
    (pickup,) = d.legal_pickups()
    assert (pickup.way, pickup.with_, pickup.needs_melds) == ("natural_pair", "K K", True)
    assert pickup.melds == ("Q Q Q",)
    assert d.step_error("take", way="natural_pair").rule == "R-64"
    assert d.step_error("take", way="natural_pair", melds=["Q Q Q"]) is None
    d.take_pile(pickup.with_, pickup.melds)
    assert d.melds(0) == {"Q": "Q Q Q", "K": "K K K"}


def test_r64_r40_the_minimum_count_reached_only_by_going_out_with_the_pickup():
    # 4s worth 15, minimum 90: keeping two cards lays five 4s (75 points); melding the whole
    # hand with the top card lays seven (105, a natural canasta) and goes out
    d = Deal.from_position(
        Rules(card_values=DEAR_FOURS),
        hands=["4 4 4 4 4 4", "5", "5", "5"],
        stock="9",
        pile="4",
        scores={0: 1500},
    )
    (pickup,) = d.legal_pickups()
    assert (pickup.way, pickup.with_, pickup.melds) == ("natural_pair", "4 4 4 4 4 4", ())
    assert pickup.needs_melds
    d.take_pile(pickup.with_, pickup.melds)
    assert (d.end_reason, d.went_out) == ("went_out", 0)


def test_r40_r64_the_pile_card_that_completes_a_canasta_lets_the_pickup_meld_the_whole_hand():
    # minimum 140 (a negative score): keeping a card lays 130 points at most; melding the whole
    # hand lays Q Q Q and A A A A A 2 (150), six aces the pile's ace completes (R-40 judged on
    # the whole turn), the deuce on the aces, not the queens
    d = Deal.from_position(
        Rules(negative_minimum=140),
        hands=["Q Q A A A A A 2", "5", "5", "5"],
        stock="9",
        pile="A Q",
        scores={0: -10},
    )
    (pickup,) = d.legal_pickups()
    assert (pickup.way, pickup.with_, pickup.melds) == ("natural_pair", "Q Q", ("A A A A A 2",))
    d.take_pile(pickup.with_, pickup.melds)
    assert d.hand(0) == "A"
    d.meld("A")
    assert (d.end_reason, d.went_out) == ("went_out", 0)


def test_r35_one_card_may_not_take_a_one_card_pile():
    d = Deal.from_position(hands=["K", "4", "4", "4"], stock="5 5", pile="K", melds={0: ["K K K"]})
    assert ways(d) == []
    assert set(engine_ways(d)[1].tolist()) == {MoveError.one_card_pile}


def test_r30_a_black_three_on_top_blocks_the_pile():
    d = Deal.from_position(hands=["B3 B3 9", "4", "4", "4"], stock="5 5", pile="K B3")
    assert set(engine_ways(d)[1].tolist()) == {MoveError.pile_top}
    assert d.step_error("take", way="natural_pair").rule == "R-30"


def test_r44_with_the_stock_empty_a_natural_and_a_wild_card_do_not_take_the_pile():
    d = Deal.from_position(
        hands=["K 2 9", "4", "4", "4"], stock="", pile="5 K", melds={0: ["Q Q Q"]}
    )
    assert ways(d) == []
    assert engine_ways(d)[1][PickupWay.natural_deuce] == MoveError.forced_pickup
    assert d.step_error("draw") is None  # drawing from the empty stock ends the deal


def test_r44_the_pile_that_must_be_taken_refuses_the_draw():
    d = Deal.from_position(hands=["2 9", "4", "4", "4"], stock="", pile="5 K", melds={0: ["K K K"]})
    assert d.step_error("draw").rule == "R-44"
    assert ways(d) == ["onto_meld"]


def test_r22_r40_melding_down_to_one_card_needs_a_canasta():
    d = Deal.from_position(
        hands=["9 9 9", "4", "4", "4"], stock="5", pile="6", melds={0: ["K K K"]}
    )
    d.draw()  # hand 9 9 9 5, the side has no canasta
    assert d.step_error("meld", melds=["9 9 9"]).rule == "R-40"  # one card left
    assert d.step_error("discard", card="5") is None  # not the last card
    assert d.step_error("go_out", melds=["9 9 9"], card="5").rule == "R-40"
    assert d.step_error("go_out", card="5").rule == "R-40"  # legal, but keeps three cards


def test_r40_r63_black_threes_are_melded_only_in_the_laying_down_that_goes_out():
    table = {0: ["K K K K K K K"]}
    d = Deal.from_position(hands=["B3 B3 B3 5", "4", "4", "4"], stock="9", pile="6", melds=table)
    d.draw()  # hand B3 B3 B3 5 9
    assert d.step_error("meld", melds=["B3 B3 B3"]).rule == "R-63"  # two cards left
    assert d.step_error("go_out", melds=["B3 B3 B3"], card="9").rule == "R-63"
    d = Deal.from_position(hands=["B3 B3 B3", "4", "4", "4"], stock="9", pile="6", melds=table)
    d.draw()  # hand B3 B3 B3 9
    assert d.step_error("go_out", melds=["B3 B3 B3"], card="9") is None
    assert d.step_error("go_out", melds=["B3 B3 B3"]).rule == "R-40"  # the 9 stays in hand
    assert d.step_error("meld", melds=["B3 B3 B3"]) is None  # one card left: going out


def test_r45_after_a_last_card_red_three_the_deal_ends_without_a_discard():
    d = Deal.from_position(
        hands=["9 9 9 5", "4", "4", "4"], stock="R3", pile="6", melds={0: ["K K K"]}
    )
    assert d.step_error("end_deal").rule == "R-20"  # the draw phase: not yet
    d.draw()  # the last stock card is a red three
    assert d.step_error("discard", card="5").rule == "R-45"
    assert d.step_error("end_deal") is None
    # meld_after_last_red_three: keeping one card is no going out now (no discard follows)
    assert d.step_error("meld", melds=["9 9 9"]) is None


def test_a_deal_in_play_has_no_pickup_and_draw_is_out_of_phase():
    d = Deal.from_position(hands=["9 9 5", "4", "4", "4"], stock="5 5", pile="9")
    d.draw()
    assert ways(d) == [] and d.can_take_pile() is False
    assert d.step_error("draw").rule == "R-20"


@pytest.mark.parametrize(
    "step, kwargs, message",
    [
        ("fly", {}, "step: 'fly' is not a step of a turn; allowed:"),
        ("take", {"way": "sideways"}, "way: 'sideways' is not a pickup way; allowed:"),
    ],
)
def test_step_error_names_a_bad_step_or_way(step, kwargs, message):
    d = Deal.from_position(hands=["9 9 5", "4", "4", "4"], stock="5 5", pile="9")
    with pytest.raises(ValueError, match=message):
        d.step_error(step, **kwargs)


def test_meld_plan_rows_count_together_in_a_step():
    # 6 6 6 (15) and K K K 2 (50) together reach 65 < 90 at a score of 1600 (RULES section 9)
    d = Deal.from_position(
        hands=["6 6 6 K K K 2 2 5 9 9", "4", "4", "4"], stock="5 5", pile="7", scores={0: 1600}
    )
    d.draw()
    assert d.step_error("meld", melds=["6 6 6", "K K K 2"]).rule == "R-64"
    assert d.step_error("meld", melds=["6 6 6", "K K K 2", "5 5 2"]) is None  # 95


def test_r64_one_meld_at_a_time_counts_with_the_staged_melds():
    # at a score of 1600 (minimum 90): K K K 2 alone is 50; staged with 6 6 6 and 5 5 2, 95
    d = Deal.from_position(
        hands=["6 6 6 K K K 2 2 5 9 9", "4", "4", "4"], stock="5 5", pile="7", scores={0: 1600}
    )
    d.draw()
    K, SIX, FIVE = (parse_cards(k).argmax() for k in ("K", "6", "5"))
    staged = np.zeros((N_KINDS, 3), np.int8)
    plan = np.zeros_like(staged)

    def row(rank, n, deuces=0, jokers=0):
        args = (np.int64(rank), np.int64(n), np.int64(deuces), np.int64(jokers), staged, plan)
        return check_meld_row_nb(d.state, d.rules_array, *args)

    assert row(K, 3, 1) == MoveError.minimum_count
    staged[SIX, MeldCol.naturals] = 3
    staged[FIVE] = (2, 1, 0)
    assert row(K, 3, 1) == MoveError.ok
    assert row(K, 3, 2) == MoveError.not_in_hand  # the second deuce is staged on the fives
    assert row(K, 1, 0) == MoveError.new_meld  # K alone is no meld


@pytest.mark.parametrize("module", ["canasta_sim.nb.engine.legal", "canasta_sim.nb.candidates"])
def test_the_legal_moves_and_the_candidate_kernels_import_no_bot_code(module):
    graph = import_graph()
    seen, todo = set(), [module]
    while todo:  # every module it imports, directly or not
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(graph[name])
    assert not [m for m in seen if m.startswith("canasta_sim.nb.bots")]
    assert "canasta_sim.nb.engine.moves" in seen  # it asks the move kernels
