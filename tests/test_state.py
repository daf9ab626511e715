"""The deal state record: sizes, views and clearing (canasta_sim/nb/state.py)."""

import numpy as np
import pytest

from canasta_sim import Rules
from canasta_sim.cards import KIND_COUNTS_108
from canasta_sim.nb import layout as L
from canasta_sim.nb.engine.state import STATE_DTYPE, new_state, start_deal_nb, state_arrays


@pytest.mark.parametrize(
    "players, sides, cards", [(2, 2, 108), (3, 3, 108), (4, 2, 108), (6, 2, 162)]
)
def test_state_arrays_are_cut_to_the_table(players, sides, cards):
    # section 2 of the rules: 3 players play alone (3 sides), 6 players use three decks
    r = Rules(players=players).to_array()
    hands, stock, pile, melds, meld_turn, meld_flags, sd, seats, g, rng, scratch = state_arrays(
        new_state(), r
    )
    assert hands.shape == (players, L.N_KINDS)
    assert stock.shape == pile.shape == (cards,)
    assert melds.shape == (sides, L.N_KINDS, 3)
    assert sd.shape == (sides, L.S_LEN)
    assert seats.shape == (players, L.P_LEN)
    assert g.shape == (L.G_LEN,)


def test_views_share_memory_with_the_state():
    r = Rules().to_array()
    state = new_state()
    hands = state_arrays(state, r)[0]
    start_deal_nb(
        state,
        r,
        np.uint64(5),
        np.int32(0),
        np.full(2, 50, np.int32),
        np.zeros((0, L.EV_LEN), np.int32),
    )
    # each of the 4 players holds 11 cards after red threes are replaced
    assert hands.sum(axis=1).tolist() == [11, 11, 11, 11]


def test_a_state_from_garbage_deals_like_a_cleared_one():
    # play_chunk takes its states from np.empty: start_deal_nb must clear every field
    r = Rules().to_array()
    no_log = np.zeros((0, L.EV_LEN), np.int32)
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
    stock = state_arrays(clean, r)[1]
    assert np.bincount(stock, minlength=L.N_KINDS).tolist() == KIND_COUNTS_108.tolist()


def test_a_position_written_from_python_gets_its_running_counts():
    """``Deal.from_position`` recounts: hand sizes 5, 4, 4, 3 cards; the pile 7 9 9 has two
    nines and one seven; after a draw and a discard the counts follow the moves."""
    from canasta_sim import Deal
    from canasta_sim.cards import kind_index

    d = Deal.from_position(
        hands=["5 5 5 K K", "6 6 7 8", "9 10 J J", "Q A A"], stock="4 4 4", pile="7 9 9"
    )
    assert list(d._state["hand_sizes"][:4]) == [5, 4, 4, 3]
    counts = d._state["pile_counts"]
    assert counts[kind_index("9")] == 2 and counts[kind_index("7")] == 1 and counts.sum() == 3
    d.draw()  # seat 0 draws a 4
    d.discard("K")
    assert d._state["hand_sizes"][0] == 5
    assert counts[kind_index("K")] == 1 and counts.sum() == 4
