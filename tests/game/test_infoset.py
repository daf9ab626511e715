"""Information sets and the world sampler (issue 18 items 1-2): what a seat knows, position
files, and exact sampling of the hidden cards."""

import json
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from canasta_sim import Deal, InfoSet, Rules
from canasta_sim import cards as C
from canasta_sim.game.strata import top_card_weights

DOCS = Path(__file__).resolve().parents[2] / "docs" / "positions"
TAKE = DOCS / "take_or_draw.toml"
GO_OUT = DOCS / "go_out_2p.json"
tomllib = pytest.importorskip("tomllib")  # Python 3.11+; positions can be JSON on 3.10
K = {name: i for i, name in enumerate(C.KINDS)}


def rest_of_pack(*texts, red_threes=0):
    """The cards of the 108-card pack not named in ``texts`` nor laid out as red threes, as
    card text in kind order (a stock that completes a hand-built position)."""
    rest = C.KIND_COUNTS_108.astype(np.int64)
    for text in texts:
        rest -= C.parse_cards(text)
    rest[K["R3"]] -= red_threes
    return C.format_cards(rest)


def take_dict():
    return tomllib.loads(TAKE.read_text())


# --- the known cards the kernels track -------------------------------------------------------
def test_known_cards_follow_pickups_melds_and_discards():
    # seat 0 (unmelded, minimum 50 at score 0, R-64) takes 4 4 8 9 with 9 9 plus K K K
    # (30 + 30 = 60 points): the 4 4 8 below the top card are then known to be in its hand
    hands = ["9 9 5 6 7 K K K", "5 5 6 6 7 7 8 8 10 10"]
    d = Deal.from_position(
        Rules(players=2), hands=hands, stock=rest_of_pack(*hands, "4 4 8 9"), pile="4 4 8 9"
    )
    d.take_pile("9 9", melds=["K K K"])
    assert d.info_set(1).known == ("4 4 8", "")
    d.discard("4")  # one 4 left the hand, so only one 4 is still known
    info = d.info_set(1)
    assert info.known == ("4 8", "")
    assert info.hand_sizes == (5, 10)  # 8 - 5 melded + 3 from the pile - 1 discarded
    assert info.pile == "4"


def test_info_set_of_a_live_deal_holds_the_public_state():
    hands = ["9 9 K K 5", "4 4 6 6 7", "8 8 10 10 J", "Q Q A A 6"]
    d = Deal.from_position(
        Rules(players=4),
        hands=hands,
        stock=rest_of_pack(*hands, "4 J 9", "K K K", "A A A 2", red_threes=1),
        pile="4 J 9",
        melds={0: ["K K K"], 1: ["A A A 2"]},
        red_threes={1: 1},
        scores={0: 1600, 1: -20},
        current=0,
    )
    info = d.info_set(0)
    assert (info.hand, info.pile, info.stock_size) == ("5 9 9 K K", "4 J 9", 108 - 20 - 3 - 7 - 1)
    assert info.melds == (("K K K",), ("A A A 2",))
    assert info.red_threes == (0, 1)
    assert info.scores == (1600, -20)
    assert info.hand_sizes == (5, 5, 5, 5)
    assert (info.phase, info.current, info.frozen, info.blocked) == ("draw", 0, False, False)
    # not in view: 108 less the 5 in hand, 3 in the pile, 7 melded, 1 red three
    assert info.unseen_counts.sum() == 108 - 5 - 3 - 7 - 1
    assert info.unseen_counts[K["K"]] == 8 - 2 - 3
    assert info.unseen_counts[K["R3"]] == 4 - 1


def test_two_deals_that_differ_only_in_hidden_cards_give_the_same_info_set_and_worlds():
    common = dict(rules=Rules(players=2), pile="6 8 10", melds={1: ["7 7 7"]})
    mine = "9 9 K K K 5 5 2"
    rest = C.parse_sequence(rest_of_pack(mine, "6 8 10", "7 7 7"))
    # the hidden hand is the last 7 cards or the 7 before them (kind order: no red three)
    a_hand, b_hand = C.format_sequence(rest[-7:]), C.format_sequence(rest[-14:-7])
    a_stock = C.format_sequence(rest[:-7])
    b_stock = C.format_sequence(np.concatenate([rest[-7:], rest[:-14]]))
    a = Deal.from_position(hands=[mine, a_hand], stock=a_stock, **common)
    b = Deal.from_position(hands=[mine, b_hand], stock=b_stock, **common)
    assert a.hand(1) != b.hand(1)
    ia, ib = a.info_set(0), b.info_set(0)
    assert ia == ib
    wa, wb = ia.sample_worlds(50, seed=7), ib.sample_worlds(50, seed=7)
    assert np.array_equal(wa.hands, wb.hands) and np.array_equal(wa.stock, wb.stock)


def test_a_deal_that_is_over_has_no_decision():
    d = Deal.from_position(
        Rules(players=2), hands=["4 4 4", "5 5 5"], stock="", pile="6", melds={0: ["K K K"]}
    )  # the rest of the pack is nowhere: the decision check comes first
    d.draw()  # empty stock, no forced pickup: the deal ends
    with pytest.raises(ValueError, match="over"):
        d.info_set(0)


# --- position files ---------------------------------------------------------------------------
def test_the_documented_positions_load():
    take = InfoSet.from_file(TAKE)
    assert take.rules.players == 4 and take.phase == "draw" and take.pile.endswith("9")
    assert take.known == ("", "8 8", "", "")
    # not in view: 108 - 11 (hand) - 9 (pile) - 14 (melds) - 1 (red three) - 2 (known) = 71,
    # which is the other hands' unknown cards (7 + 11 + 10) plus the stock (43)
    assert take.unseen_counts.sum() == 71
    out = InfoSet.from_file(GO_OUT)
    assert (out.rules.players, out.phase, out.hand) == (2, "play", "B3 7 7 7")
    assert out == InfoSet.from_dict(json.loads(GO_OUT.read_text()))


@pytest.mark.parametrize(
    "change, message",
    [
        ({"hand": "JK JK JK JK JK 9 9 K K 5 7"}, "breaks the pack.*JK"),
        ({"stock": 44}, r"hand sizes \[11, 9, 11, 10\] and stock size 44 disagree"),
        ({"phase": "over"}, "phase='over' has no decision"),
        ({"hand_sizes": [10, 9, 11, 10]}, "hand_sizes"),
        ({"known": ["", "8 8 8 8 8 8 8 8 8 8", "", ""]}, r"known\[1\]"),
        ({"colour": "red"}, "unknown position key 'colour'"),
        ({"melds": [["K K"], []]}, "not a legal meld"),
        ({"seat": 4}, "seat=4"),
        ({"red_threes": [1, 0], "hand": "R3 9 K K 5 7 A A J 2 4"}, "red three"),
        # players is a position key, not a rules switch; a name that is no switch is refused
        ({"switches": {"players": 2}}, "switches.players.*players is a top-level key"),
        ({"switches": {"colour": 1}}, "unknown rules switch 'colour' in switches"),
        # side 0's K meld is K K K: 3 cards, a canasta needs 7 (R-65); side 0 has no 9 meld
        ({"concealed_canastas": [["K"], []]}, r"concealed_canastas\[0\].*'K'.*3 cards"),
        ({"concealed_canastas": [["9"], []]}, r"concealed_canastas\[0\].*no meld of rank '9'"),
        # a red three is in the pile only among the cards turned to start it
        ({"pile": "4 7 8 R3 J 6 5 Q 9"}, r"pile.*red three at place 4.*upcard_cards=0"),
        ({"pile": "R3 7 8 9 J 6 5 Q 9", "upcard_cards": 1}, "red three at place 1"),
        ({"upcard_cards": 50}, r"upcard_cards=50.*9 cards; allowed: 0 to 9"),
        # the cards turned before the upcard are covers, the last one is not
        ({"upcard_cards": 2}, r"upcard_cards=2.*'4'.*R-12"),
        ({"pile": "JK 7 8 9 J 6 5 Q 9", "upcard_cards": 1}, r"upcard_cards=1.*'JK'.*R-12"),
        ({"players": "four"}, r"players='four' is not allowed; allowed: 2, 3, 4 or 6$"),
        ({"players": 5}, r"players=5 is not allowed; allowed: 2, 3, 4 or 6$"),
        ({"phase": "drawing"}, "phase='drawing'.*allowed: draw .*play "),
        ({"stock": -1}, r"^stock=-1 is not allowed"),
    ],
)
def test_bad_positions_name_the_value(change, message):
    with pytest.raises(ValueError, match=message):
        InfoSet.from_dict({**take_dict(), **change})


def test_a_red_three_turned_to_start_the_pile_stays_in_it():
    # R3 then 4 turned at the start; the R3 stays in the (frozen, R-13) pile
    info = InfoSet.from_dict({**take_dict(), "pile": "R3 4 8 9 J 6 5 Q 9", "upcard_cards": 2})
    assert info.upcard_cards == 2 and info.frozen


def test_phase_is_read_in_any_case():
    assert InfoSet.from_dict({**take_dict(), "phase": " Draw"}) == InfoSet.from_file(TAKE)


def test_a_concealed_canasta_of_seven_cards_is_accepted():
    data = json.loads(GO_OUT.read_text())
    info = InfoSet.from_dict({**data, "concealed_canastas": [["K", "8"], []]})
    assert info.concealed_canastas == (("K", "8"), ())


def test_red_threes_not_in_view_must_fit_in_the_stock():
    # 4 red threes, none laid out: they must all be in a 3-card stock, which cannot be
    data = json.loads(GO_OUT.read_text())
    data.update(red_threes=[0, 0], stock=3, hand_sizes=[4, 50])
    with pytest.raises(ValueError, match="4 red threes"):
        InfoSet.from_dict(data)


# --- worlds -----------------------------------------------------------------------------------
def test_worlds_are_deterministic_and_do_not_depend_on_chunking():
    info = InfoSet.from_file(TAKE)
    whole = info.sample_worlds(40, seed=3)
    again = info.sample_worlds(40, seed=3)
    parts = [info.sample_worlds(15, seed=3), info.sample_worlds(25, seed=3, start=15)]
    assert np.array_equal(whole.hands, again.hands) and np.array_equal(whole.stock, again.stock)
    assert np.array_equal(whole.hands, np.concatenate([p.hands for p in parts]))
    assert np.array_equal(whole.stock, np.concatenate([p.stock for p in parts]))
    other = info.sample_worlds(40, seed=4)
    assert not np.array_equal(whole.stock, other.stock)


def test_worlds_hold_exactly_the_unseen_cards_and_known_cards_where_known():
    info = InfoSet.from_file(TAKE)
    w = info.sample_worlds(300, seed=1)
    assert np.all(w.hands[:, 0] == info.hand_counts)  # the observer's own hand
    assert np.all(w.hands[:, 1, K["8"]] >= 2)  # seat 1 is known to hold 8 8
    assert np.array_equal(w.hands.sum(axis=2)[0], [11, 9, 11, 10])
    assert np.all(w.hands.sum(axis=2) == [11, 9, 11, 10])
    assert np.all(w.hands[:, :, K["R3"]] == 0)  # red threes are never held
    hidden = w.hands[:, 1:].sum(axis=1).astype(np.int64)
    hidden[:, K["8"]] -= 2  # the known 8 8 are in view
    for i in range(len(w)):
        together = hidden[i] + np.bincount(w.stock[i], minlength=C.N_KINDS)
        assert np.array_equal(together, info.unseen_counts)


def small_position():
    """2 players; 11 cards not in view (K K K K Q Q Q 5 5 JK JK): 5 in the opponent's hand,
    6 in the stock; the rest of the pack is in the pile or laid out (all four red threes)."""
    unseen = C.parse_cards("K K K K Q Q Q 5 5 JK JK").astype(np.int64)
    pile = C.KIND_COUNTS_108.astype(np.int64) - unseen - C.parse_cards("4 4")
    pile[K["R3"]] = 0
    return InfoSet.from_dict(
        dict(
            players=2,
            seat=0,
            phase="draw",
            hand="4 4",
            pile=C.format_cards(pile),
            stock=6,
            hand_sizes=[2, 5],
            red_threes=[2, 2],
        )
    )


def test_opponent_hand_matches_the_hypergeometric_distribution():
    info = small_position()
    n = 20_000
    w = info.sample_worlds(n, seed=11)
    for kind, c in (("K", 4), ("JK", 2), ("Q", 3)):
        held = w.hands[:, 1, K[kind]]
        # 5 of the 11 unseen cards are the opponent's: hypergeometric(11, c, 5)
        expected = stats.hypergeom(11, c, 5).pmf(np.arange(c + 1)) * n
        observed = np.bincount(held, minlength=c + 1)
        assert observed.sum() == n
        keep = expected > 5
        chi2, p = stats.chisquare(observed[keep], expected[keep] * n / expected[keep].sum())
        assert p > 1e-4, (kind, observed, expected)


def test_the_stratified_next_stock_card_keeps_every_prefix_balanced():
    info = small_position()
    w = info.sample_worlds(2_000, seed=5)
    weights = top_card_weights(info.unseen_counts, info.stock_size)
    # no red three unseen: the top stock card is kind k with probability c_k / 11
    assert np.allclose(weights[[K["K"], K["Q"], K["5"], K["JK"]]], [4 / 11, 3 / 11, 2 / 11, 2 / 11])
    assert np.array_equal(w.first_kind, w.stock[:, 0])
    counts = np.zeros(C.N_KINDS)
    for m, kind in enumerate(w.first_kind, start=1):
        counts[kind] += 1
        assert np.all(np.abs(counts - m * weights) < 1.0), m


def test_top_card_weights_put_red_threes_in_the_stock_only():
    # 2 red threes and 8 other cards unseen, stock 4: P(red three on top) = 2/4; each other
    # card shares the rest in proportion to its count
    unseen = C.parse_cards("R3 R3 K K K K Q Q Q Q").astype(np.int64)
    w = top_card_weights(unseen, 4)
    assert np.allclose(w[[K["R3"], K["K"], K["Q"]]], [0.5, 0.25, 0.25])
