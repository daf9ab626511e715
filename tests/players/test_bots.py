"""The bots: spec parsing, legal play under the referee for every player count, and one
decision per bot on a hand-built position (docs/bots.md says what each bot does).

Positions are built with ``Deal.from_position``: the stock's first card is the top, the pile's
last card is the top, and the deal starts in the draw phase of seat 0. With 4 players side 0 =
seats 0 and 2, side 1 = seats 1 and 3; seat 1 is the next player after seat 0.
"""

import pytest

import canasta_sim
from canasta_sim import Deal, Rules
from canasta_sim.players.specs import N_PARAMS, POLICIES, parse_bot, seat_arrays, side_bots
from canasta_sim.referee import check_trace

BOTS = ("random", "greedy", "careful", "expert")
MIXED_DEALS = 100  # every bot alone is refereed in test_invariants.py


# --- spec parsing ------------------------------------------------------------------------------
def test_every_policy_is_registered_with_documented_parameters():
    assert set(BOTS) <= set(POLICIES)
    codes = [p.code for p in POLICIES.values()]
    assert len(set(codes)) == len(codes)
    for policy in POLICIES.values():
        assert policy.doc
        assert len(policy.params) <= N_PARAMS
        for p in policy.params:
            assert p.low <= p.default <= p.high, p.name
            assert p.doc, p.name
    assert max(len(p.params) for p in POLICIES.values()) == N_PARAMS == len(POLICIES["pimc"].params)


def test_expert_spec_sets_parameters_in_kernel_order():
    bot = parse_bot("expert:pile_threshold=7,hold_wilds=0")
    names = [p.name for p in bot.policy.params]
    v = bot.vector(4)
    assert v.shape == (N_PARAMS,)
    assert v[names.index("pile_threshold")] == 7
    assert v[names.index("hold_wilds")] == 0
    default = dict(zip(names, parse_bot("expert").values))
    assert v[names.index("safety")] == default["safety"]
    assert bot.spec == "expert:pile_threshold=7,hold_wilds=0"
    assert parse_bot("expert").spec == "expert"


def test_unknown_bot_lists_the_bots():
    with pytest.raises(ValueError) as info:
        parse_bot("clever")
    message = str(info.value)
    assert "clever" in message
    for name in BOTS:
        assert name in message


def test_unknown_parameter_lists_the_parameters():
    with pytest.raises(ValueError) as info:
        parse_bot("expert:aggression=3")
    message = str(info.value)
    assert "aggression" in message
    for p in POLICIES["expert"].params:
        assert p.name in message
    with pytest.raises(ValueError, match="allowed: none"):
        parse_bot("careful:safety=3")


def test_out_of_range_value_names_the_range():
    param = next(p for p in POLICIES["expert"].params if p.name == "pile_threshold")
    with pytest.raises(ValueError) as info:
        parse_bot(f"expert:pile_threshold={param.high + 1}")
    message = str(info.value)
    assert "pile_threshold" in message and "out of range" in message
    assert f"{param.low:g} to {param.high:g}" in message
    with pytest.raises(ValueError, match="'lots' is not a finite number"):
        parse_bot("expert:safety=lots")
    # float() reads these, but they are no value of a parameter (a fresh user's finding; inf
    # was "not a number", which it is)
    with pytest.raises(ValueError, match="pile_threshold has no value; write pile_threshold=VALUE"):
        parse_bot("expert:pile_threshold")  # it said "'' is not a number"
    for text in ("nan", "inf", "-inf"):
        with pytest.raises(ValueError, match=f"pile_threshold='{text}' is not a finite number"):
            parse_bot(f"expert:pile_threshold={text}")


def test_side_bots_one_spec_per_side():
    bots = side_bots("expert:meld_keep=4,greedy", 2)
    assert [b.policy.name for b in bots] == ["expert", "greedy"]
    policies, params = seat_arrays(bots, 4)
    assert list(policies) == [POLICIES["expert"].code, POLICIES["greedy"].code] * 2
    assert params.shape == (4, N_PARAMS)
    with pytest.raises(ValueError):
        side_bots("expert,greedy,careful", 2)


# --- legal play --------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_mixed_table_plays_legally(players):
    rules = Rules(players=players)
    specs = ["expert", "careful", "greedy"][: rules.sides]
    for k in range(MIXED_DEALS):
        deal = Deal.new(rules, 78, deal=k, dealer=k % players, trace=True)
        deal.play_out(specs)
        verdict = check_trace(deal.trace())
        assert verdict.ok, f"{specs}, {players} players, deal {k}: {verdict}"


# --- one decision per bot ----------------------------------------------------------------------
def test_random_discards_its_only_kind():
    """R-63: black threes cannot be melded before going out, so the random bot, holding only
    black threes after its draw, must discard one."""
    d = Deal.from_position(hands=["B3", "4 4 5", "6 6 7", "8 8 9"], stock="B3 10 10 J", pile="K Q")
    d.play_turn("random")
    assert d.pile.split()[-1] == "B3"
    assert d.hand(0) == "B3"


def test_greedy_takes_a_takeable_pile():
    """R-33 a: the top card (a 9) and a natural pair of nines make a meld; greedy takes the pile
    rather than draw (its side has melded, so no minimum count applies)."""
    d = Deal.from_position(
        hands=["9 9 4 5 K", "4 4 5", "6 6 7", "8 8 10"],
        stock="J J Q Q",
        pile="7 6 9",
        melds={0: ["A A A"]},
    )
    assert d.can_take_pile()
    d.play_turn("greedy")
    assert "9" in d.melds(0)
    assert d.stock_size == 4  # it did not draw
    assert len(d.pile.split()) == 1  # the pile was taken; its discard starts a new one


def test_careful_does_not_meld_early():
    """With three kings in hand, no threat from the opponents, a full stock and a small hand,
    careful holds its melds; greedy in the same position melds the kings at once."""
    hands = ["K K K 5 7 9 J", "4 4 6", "6 6 8", "8 8 10"]
    pile = "Q B3"  # a black three on top: nobody can take the pile
    stock = "A A A A A A A A 4 4 4 4 5 5 5 6 6 6 7 7 7 8 8 9 9 9 10 10 J J"  # 30: not low

    d = Deal.from_position(hands=hands, stock=stock, pile=pile, melds={0: ["Q Q Q"]})
    d.play_turn("careful")
    assert "K" not in d.melds(0)
    assert d.hand(0).count("K") >= 2  # the kings stay in hand (a pair at least, for pickups)

    g = Deal.from_position(hands=hands, stock=stock, pile=pile, melds={0: ["Q Q Q"]})
    g.play_turn("greedy")
    assert "K" in g.melds(0)


def test_expert_discards_safe_card_against_next_opponent():
    """Seat 1 (next to play, side 1) has a meld of fives and the pile is open (no wild card):
    a five discarded now would let them take the pile onto their meld (R-33 c). Every other queen
    is accounted for (four in the pile, three in side 0's meld), so seat 1 cannot hold a queen:
    expert discards its queen. Greedy, which ignores the opponents, discards the five."""
    hands = ["5 Q K K A A", "4 4 8", "10 10 J", "6 7 7"]
    melds = {0: ["Q Q Q"], 1: ["5 5 5"]}
    pile = "Q Q Q Q 6"  # top 6: expert holds no six and has no meld of sixes, so it draws
    stock = "J 9 9 9 10 10 4 4 4 6 6 6 7 7 8 8 J J K A"  # 20 cards: not yet the end game

    d = Deal.from_position(hands=hands, stock=stock, pile=pile, melds=melds)
    d.play_turn("expert")
    assert d.pile.split()[-1] == "Q"
    assert "5" in d.hand(0).split()

    g = Deal.from_position(hands=hands, stock=stock, pile=pile, melds=melds)
    g.play_turn("greedy")
    assert g.pile.split()[-1] == "5"


def test_expert_freezes_a_dangerous_pile_with_a_wild_card():
    """Every natural in hand matches a meld of the next opponent on an open pile (R-33 c): the
    safest discard is a deuce, which freezes the pile (R-24, R-31)."""
    hands = ["5 8 2 K K", "4 4 9", "10 10 J", "6 7 7"]
    melds = {0: ["K K K"], 1: ["5 5 5", "8 8 8"]}
    stock = "5 Q Q J 9 9 9 10 10 4 4 4 6 6 6 A A A A J"
    d = Deal.from_position(hands=hands, stock=stock, pile="9 J 10 6 4 7", melds=melds)
    d.play_turn("expert")
    assert d.pile.split()[-1] == "2"
    assert d.pile_frozen


def test_expert_leaves_a_small_pile():
    """The pile (two cards) is below pile_threshold (default 5): expert draws instead of taking
    it with its natural pair; with pile_threshold=1 it takes it."""
    hands = ["9 9 4 5 K 2", "4 4 5", "6 6 7", "8 8 10"]
    stock = "J J Q Q 4 4 4 6 6 6 7 7 10 10 10 J J Q Q K"
    d = Deal.from_position(hands=hands, stock=stock, pile="7 9", melds={0: ["A A A"]})
    d.play_turn("expert")
    assert "9" not in d.melds(0) and d.stock_size == 19

    d = Deal.from_position(hands=hands, stock=stock, pile="7 9", melds={0: ["A A A"]})
    d.play_turn("expert:pile_threshold=1")
    assert "9" in d.melds(0) and d.stock_size == 20


def test_public_api_exposes_bots_module():
    assert canasta_sim.players.specs.POLICIES is POLICIES


@pytest.mark.parametrize("bots", [5, [5], 2.5, {"expert": 1}])
def test_side_bots_refuses_what_is_not_a_spec(bots):
    with pytest.raises(ValueError, match="not"):
        side_bots(bots, 2)


def test_docs_bots_md_shows_the_policy_table():
    """docs/bots.md's policy section is generated from the policy table (every policy, every
    parameter with its default and range); ``python scripts/bots_doc.py`` rewrites it."""
    from pathlib import Path

    from canasta_sim.players.specs import policies_markdown

    text = (Path(__file__).resolve().parents[2] / "docs" / "bots.md").read_text()
    assert text.endswith(policies_markdown())
    # bots version 4: the 4-player default, then the counts whose default differs
    assert "| `pile_threshold` | 6 (3 players: 5; 6 players: 3) | 1 .. 50 (whole numbers) |" in (
        text
    )
    assert "| `meld_keep` | 53 | 2 .. 100 (whole numbers) |" in text
    assert [line for line in text.splitlines() if line.startswith("## ")] == [
        "## random",
        "## greedy",
        "## careful",
        "## expert",
        "## pimc",
        "## apprentice",
    ]


@pytest.mark.parametrize("spec", ["expert:", "expert: ", "pimc:"])
def test_a_colon_without_parameters_is_refused(spec):
    with pytest.raises(ValueError, match="has a ':' but no parameters"):
        side_bots(spec, 2)


# --- bad bot specs -------------------------------------------------------------------------------
def test_weights_on_a_bot_that_takes_none_names_the_apprentice(tmp_path):
    # the file is no weight file: its shape was reported before the bot was read
    bad = tmp_path / "w.npz"
    bad.write_bytes(b"not a weight file")
    with pytest.raises(ValueError, match=r"weights=.*is a parameter of apprentice") as info:
        parse_bot(f"expert:pile_threshold=6,weights={bad}")
    assert "shape" not in str(info.value)


@pytest.mark.parametrize(
    "bots, where",
    [
        ("expert:pile_threshold=6,", "after 'expert:pile_threshold=6'"),
        ("expert,,greedy", "after 'expert'"),
        (",expert", "at its start"),
    ],
)
def test_an_empty_item_of_a_bot_list_is_named(bots, where):
    with pytest.raises(ValueError, match="has an empty item") as info:
        side_bots(bots, 2)
    assert where in str(info.value) and "unknown bot ''" not in str(info.value)


@pytest.mark.parametrize(
    "spec", ["expert:pile_threshold=5,,meld_keep=40", "expert:pile_threshold=5,", "expert:,"]
)
def test_an_empty_bot_parameter_is_refused(spec):
    with pytest.raises(ValueError, match="empty parameter"):
        parse_bot(spec)
