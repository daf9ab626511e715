"""The expert's pickup knobs (hand-built positions) and the tuner (canasta_sim.tune).

Positions are built with ``Deal.from_position`` (see tests/test_bots.py for its conventions).
"""

from canasta_sim import Deal

# --- the expert's pickup knobs (hand-built positions, R-33) ----------------------------------
# 4 players: side 0 = seats 0 and 2; seat 0 plays first; the stock's first card is the top, the
# pile's last card is the top. 20 stock cards: not yet the end game.
STOCK = "J J Q Q 4 4 4 6 6 6 7 7 10 10 10 J J Q Q K"
OTHERS = ["4 4 5", "6 6 7", "8 8 10"]


def _turn(spec: str, hand: str, pile: str, melds: list[str]) -> Deal:
    d = Deal.from_position(hands=[hand, *OTHERS], stock=STOCK, pile=pile, melds={0: melds})
    d.play_turn(spec)
    return d


def test_meld_pile_sets_the_onto_meld_threshold():
    """A pile of 3 with a nine on top and side 0's meld of nines (R-33 c): below the default
    threshold of 5 (meld_pile 0 follows pile_threshold) expert draws; meld_pile=3 takes it;
    meld_pile=4 draws again."""
    hand, pile, melds = "4 5 K 8 10", "7 J 9", ["9 9 9", "A A A"]
    assert _turn("expert", hand, pile, melds).stock_size == 19
    taken = _turn("expert:meld_pile=3", hand, pile, melds)
    assert taken.stock_size == 20 and len(taken.pile.split()) == 1  # its discard only
    assert _turn("expert:meld_pile=4", hand, pile, melds).stock_size == 19


def test_meld_pile_below_the_pair_threshold_takes_with_a_pair_in_hand():
    """The hand holds a pair of nines too: a pair pickup needs pile_threshold (5) cards, but the
    top nine goes onto the meld from meld_pile=2 on."""
    hand, pile, melds = "9 9 4 5 K", "7 9", ["9 9 9", "A A A"]
    assert _turn("expert", hand, pile, melds).stock_size == 19
    assert _turn("expert:meld_pile=2", hand, pile, melds).stock_size == 20


def test_meld_pile_leaves_pair_pickups_alone():
    """No meld of nines: a pair pickup of 2 cards stays below pile_threshold (5) whatever
    meld_pile says."""
    d = _turn("expert:meld_pile=1", "9 9 4 5 K", "7 9", ["A A A"])
    assert d.stock_size == 19 and "9" not in d.melds(0)


def test_wild_factor_sets_the_wild_card_pickup_threshold():
    """A pile of 6 with a nine on top, one nine and a deuce in hand (R-33 b): the default factor
    3 needs 15 cards (draws); factor 1 needs 5 (takes); factor 1.3 needs ceil(6.5) = 7 (draws);
    factor 1.2 with pile_threshold 4 needs ceil(4.8) = 5 (takes)."""
    hand, pile, melds = "9 2 4 5 K", "7 J 8 6 5 9", ["A A A"]
    assert _turn("expert", hand, pile, melds).stock_size == 19
    taken = _turn("expert:wild_factor=1", hand, pile, melds)
    assert taken.stock_size == 20 and "9" in taken.melds(0)
    assert _turn("expert:wild_factor=1.3", hand, pile, melds).stock_size == 19
    assert _turn("expert:wild_factor=1.2,pile_threshold=4", hand, pile, melds).stock_size == 20
