"""The deal state record: sizes, views, clearing (canasta_sim/nb/engine/state.py), and the state
validator (canasta_sim/nb/engine/validate.py)."""

import numpy as np
import pytest

from canasta_sim import Deal, Rules
from canasta_sim.cards import KIND_COUNTS_108, kind_index
from canasta_sim.nb.engine.deal import start_deal_nb
from canasta_sim.nb.engine.state import STATE_DTYPE, new_state, state_view
from canasta_sim.nb.engine.validate import check_state_nb
from canasta_sim.nb.enums import (
    EV_LEN,
    G_LEN,
    N_KINDS,
    P_LEN,
    RULES_LEN,
    S_LEN,
    DealSlot,
    Phase,
    SideSlot,
    StateFault,
)


@pytest.mark.parametrize(
    "players, sides, cards", [(2, 2, 108), (3, 3, 108), (4, 2, 108), (6, 2, 162)]
)
def test_state_view_is_cut_to_the_table(players, sides, cards):
    # section 2 of the rules: 3 players play alone (3 sides), 6 players use three decks
    view = state_view(new_state(), Rules(players=players).to_array())
    assert view.hands.shape == (players, N_KINDS)
    assert view.stock.shape == view.pile.shape == (cards,)
    assert view.melds.shape == (sides, N_KINDS, 3)
    assert view.sides.shape == (sides, S_LEN)
    assert view.seats.shape == (players, P_LEN)
    assert view.hand_sizes.shape == (players,)
    assert view.g.shape == (G_LEN,)


def test_views_share_memory_with_the_state():
    r = Rules().to_array()
    state = new_state()
    hands = state_view(state, r).hands
    start_deal_nb(
        state,
        r,
        np.uint64(5),
        np.int32(0),
        np.full(2, 50, np.int32),
        np.zeros((0, EV_LEN), np.int32),
    )
    # each of the 4 players holds 11 cards after red threes are replaced
    assert hands.sum(axis=1).tolist() == [11, 11, 11, 11]


def test_a_state_from_garbage_deals_like_a_cleared_one():
    # play_chunk takes its states from np.empty: start_deal_nb must clear every field
    r = Rules().to_array()
    no_log = np.zeros((0, EV_LEN), np.int32)
    minimums = np.full(2, 50, np.int32)
    clean = new_state()
    dirty = np.frombuffer(np.random.default_rng(1).bytes(STATE_DTYPE.itemsize), STATE_DTYPE).copy()[
        0
    ]
    for state in (clean, dirty):
        start_deal_nb(state, r, np.uint64(99), np.int32(2), minimums, no_log)
    for name in STATE_DTYPE.names:  # every field (the padding between them is unused)
        assert np.array_equal(clean[name], dirty[name]), name
    # and the shuffled stock is the 108-card pack
    stock = state_view(clean, r).stock
    assert np.bincount(stock, minlength=N_KINDS).tolist() == KIND_COUNTS_108.tolist()


def test_a_position_written_from_python_gets_its_running_counts():
    """``Deal.from_position`` recounts: hand sizes 5, 4, 4, 3 cards; the pile 7 9 9 has two
    nines and one seven; after a draw and a discard the counts follow the moves."""
    from canasta_sim import Deal
    from canasta_sim.cards import kind_index

    d = Deal.from_position(
        hands=["5 5 5 K K", "6 6 7 8", "9 10 J J", "Q A A"], stock="4 4 4", pile="7 9 9"
    )
    assert list(d.state["hand_sizes"][:4]) == [5, 4, 4, 3]
    counts = d.state["pile_counts"]
    assert counts[kind_index("9")] == 2 and counts[kind_index("7")] == 1 and counts.sum() == 3
    d.draw()  # seat 0 draws a 4
    d.discard("K")
    assert d.state["hand_sizes"][0] == 5
    assert counts[kind_index("K")] == 1 and counts.sum() == 4


def _dealt(players=4):
    rules = Rules(players=players)
    state = new_state()
    minimums = np.full(rules.sides, 50, np.int32)
    start_deal_nb(
        state,
        rules.to_array(),
        np.uint64(7),
        np.int32(0),
        minimums,
        np.zeros((0, EV_LEN), np.int32),
    )
    return state, rules.to_array()


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_a_fresh_deal_passes_the_validator(players):
    state, r = _dealt(players)
    assert check_state_nb(state, r) == (StateFault.ok, -1)


def test_validator_finds_a_card_too_many_and_a_wrong_hand_size():
    """A seven added to seat 1's hand without its running count: the hand size is the first
    fault (seat 1); with the hand size kept, the pack has 9 sevens, not 8 (R-01)."""
    state, r = _dealt()
    seven = kind_index("7")
    state["hands"][1, seven] += 1
    assert check_state_nb(state, r) == (StateFault.hand_sizes, 1)
    state["hand_sizes"][1] += 1
    assert check_state_nb(state, r) == (StateFault.cards, seven)


def test_validator_counts_red_threes_laid_out():
    """A red three laid out for side 0 that came from nowhere: 5 red threes in a 108-card
    pack of 4 (R-02)."""
    state, r = _dealt()
    state["sides"][0, SideSlot.r3_dealt] += 1
    assert check_state_nb(state, r) == (StateFault.cards, kind_index("R3"))


def test_validator_checks_the_melds_running_counts():
    """Seat 0's naturals of one rank moved to side 0's meld without the running counts:
    ``melded`` is wrong first (that kind), then the side's melded ranks (side 0); a canasta
    count with no meld of 7 cards (R-65) is wrong too."""
    state, r = _dealt()
    rank = next(k for k in range(kind_index("4"), kind_index("A") + 1) if state["hands"][0, k])
    count = state["hands"][0, rank]
    state["hands"][0, rank] = 0
    state["hand_sizes"][0] -= count
    state["melds"][0, rank, 0] = count
    assert check_state_nb(state, r) == (StateFault.melded, rank)
    state["melded"][rank] = count
    assert check_state_nb(state, r) == (StateFault.meld_ranks, 0)
    state["sides"][0, SideSlot.meld_ranks] = 1 << rank
    assert check_state_nb(state, r) == (StateFault.ok, -1)
    state["sides"][0, SideSlot.canastas] = 1
    assert check_state_nb(state, r) == (StateFault.canastas, 0)


def test_enum_labels_and_rule_ids_are_named_once():
    """Labels are the namespaces' field names; move errors carry the rule they break."""
    from canasta_sim.nb.enums import MOVE_ERROR_RULES, EndReason, MoveError, Phase, label

    assert label(Phase, Phase.play) == "play"
    assert label(EndReason, 3) == "last_red_three"
    assert MoveError.frozen_pile == 32 and MOVE_ERROR_RULES[MoveError.frozen_pile] == "R-32"
    assert MOVE_ERROR_RULES[MoveError.not_in_hand] == "R-20"
    with pytest.raises(ValueError, match="not a code of"):
        label(Phase, 7)


def test_an_illegal_move_returns_the_rule_by_name():
    """A frozen pile (a deuce in it, R-31) taken with one natural and a wild card: R-32."""
    from canasta_sim import Deal
    from canasta_sim.nb.engine.moves import take_pile_nb
    from canasta_sim.nb.enums import MoveError

    d = Deal.from_position(
        hands=["9 2 5 5 6", "4 4 4", "6 6 7", "8 8 10"],
        stock="K K",
        pile="2 7 9",
        melds={0: ["A A A"]},
    )
    plan = np.zeros((N_KINDS, 3), np.int8)
    plan[kind_index("9")] = [1, 1, 0]
    code = take_pile_nb(d.state, d.rules.to_array(), plan, np.zeros((0, EV_LEN), np.int32))
    assert code == MoveError.frozen_pile


def test_the_state_holds_the_game_only():
    """Issue 24: the bots' plans and odds table live in their own record, not in the state;
    what every player knows of the hands (``known``, cards taken with the pile) is the game's."""
    from canasta_sim.nb.bots.memory import BOT_DTYPE

    game = {"hands", "stock", "pile", "melds", "meld_turn", "meld_flags", "sides", "seats", "g"}
    game |= {"rng", "hand_sizes", "pile_counts", "melded", "known"}
    assert set(STATE_DTYPE.names) == game
    assert set(BOT_DTYPE.names) == {"candidates", "take_plan", "meld_plan", "out_plan", "powers"}


@pytest.mark.parametrize("bot", ["random", "greedy", "careful", "expert", "pimc:worlds=2"])
def test_a_bot_record_of_garbage_plays_like_a_zeroed_one(bot, monkeypatch):
    """Every field of the bots' record is written before it is read, so the record a turn gets
    (reused across turns, deals and rollouts, never cleared) cannot change its moves."""
    from canasta_sim import Deal
    from canasta_sim.nb.bots import turn
    from canasta_sim.nb.bots.memory import BOT_DTYPE

    def garbage():
        raw = np.random.default_rng(3).bytes(BOT_DTYPE.itemsize)
        return np.frombuffer(raw, BOT_DTYPE).copy()[0]

    played = []
    for fresh in (turn.new_bot, garbage):
        monkeypatch.setattr(turn, "new_bot", fresh)
        deal = Deal.new(Rules(), 5, deal=2, trace=True)
        deal.play_out([bot, "expert"])
        played.append((deal.state.tobytes(), deal.trace()))
    assert played[0] == played[1]


def test_an_empty_plan_is_zero_at_every_use():
    """``empty_plan_nb`` gives a zeroed ``int8[N_KINDS, 3]`` on the stack each time it is
    called, also in a loop whose previous pass wrote into it."""
    import numba as nb

    from canasta_sim.nb.engine.melds import empty_plan_nb

    @nb.njit(_nrt=False)
    def use(out):
        for i in range(out.shape[0]):
            plan = empty_plan_nb()
            out[i, 0] = plan.sum()
            out[i, 1] = plan.shape[0] * 10 + plan.shape[1]
            plan[3, 1] = 7  # gone at the next call

    out = np.full((3, 2), -1, np.int64)
    use(out)
    assert out.tolist() == [[0, N_KINDS * 10 + 3]] * 3


def test_deals_kernel_accessors_are_its_own_arrays():
    d = Deal.new(Rules(), seed=1)
    seat = d.current_player
    assert d.rules_array.dtype == np.int32 and d.rules_array.shape == (RULES_LEN,)
    assert d.event_log.shape == (0, EV_LEN)  # no trace asked for
    assert Deal.new(Rules(), seed=1, trace=True).event_log.shape[0] > 0
    before = int(d.view.hands[seat].sum())
    assert before == len(d.hand(seat).split())
    d.draw()  # a move through the deal shows in the views: not copies
    assert int(d.view.hands[seat].sum()) == before + 1  # one card (a red three is replaced)
    assert d.view.g[DealSlot.phase] == Phase.play
    assert d.state["g"][DealSlot.phase] == Phase.play
