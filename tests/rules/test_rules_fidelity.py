"""Rules fidelity (issue 15): the engine (the ``Deal`` API), the referee and RULES.md agree.

The first tests pin four disagreements found by differential testing, each with a hand-built
position and the outcome written from the rule text. Then a property test plays random turns
(built from the cards in hand and in the pile) both through the ``Deal`` API and as traces for
the referee, and asserts that each accepts exactly the turns the other accepts; the slow tier
adds volume and a matrix of non-default switches refereed over whole deals.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from canasta_sim.cards import KINDS, parse_cards
from canasta_sim.cli import main
from canasta_sim.errors import IllegalMove
from canasta_sim.game.deals import Deal, trace_deal
from canasta_sim.game.rules import Rules
from canasta_sim.nb import enums as L
from canasta_sim.nb.engine.moves import check_take_nb
from canasta_sim.referee import check_trace
from canasta_sim.run.verify import verify


# --- item 1: R-45 with meld_after_last_red_three off ------------------------------------------
@pytest.mark.parametrize("meld_after", [True, False])
def test_r45_last_card_red_three_ends_a_turn_under_both_switch_values(meld_after):
    """R-45: the player draws the last stock card, a red three, lays it out, cannot discard,
    and the deal ends. That is one completed turn whatever the switch says."""
    rules = Rules(meld_after_last_red_three=meld_after)
    d = Deal.from_position(rules, hands=["K K 5", "4 4", "6 6", "8 8"], stock="R3", pile="9")
    d.draw()
    if meld_after:
        assert not d.is_over  # the player may meld, then ends the turn
        d.end_turn()
    assert (d.is_over, d.end_reason, d.turns) == (True, "last_red_three", 1)
    assert d.red_threes(0) == 1 and d.hand(0) == "5 K K"


@pytest.mark.parametrize("bot, deal", [("random", 2884), ("expert", 35)])
def test_r45_engine_traces_pass_the_referee_with_the_switch_off(bot, deal):
    """The issue's reproduction (``verify --deals 3000 --players 4 --bots random --set
    meld_after_last_red_three=false --seed 1`` refused deal 2884): deals that end on a
    last-card red three with the switch off end the turn with ``end_turn``, count it, and pass
    the referee; with the switch on the same deal counts the same turns."""
    traces = {}
    for meld_after in (False, True):
        rules = Rules(meld_after_last_red_three=meld_after)
        traces[meld_after] = trace = trace_deal(rules, [bot], 1, deal)
        end = trace[-rules.sides - 1]
        assert end["reason"] == "last_red_three"
        assert trace[-rules.sides - 2]["event"] == "end_turn"
        verdict = check_trace(trace)
        assert verdict, str(verdict)
    assert traces[False][-3]["turns"] == traces[True][-3]["turns"]


# --- item 2, no waiver for a pickup -------------------------------------------------
def test_r64_pickup_below_the_minimum_is_refused_by_the_engine():
    """4 players, side 0 at 3,000 (minimum 120): 7-7-7 is 15 points (R-04), below it; the
    turn would go on to go out concealed, but a pickup reaches the minimum (R-42, R-64)."""
    d = Deal.from_position(
        hands=["7 7 6 6 6 6 6 6 5 5 5", "4", "4", "4"],
        stock="K K",
        pile="2 7",
        scores={0: 3000},
    )
    with pytest.raises(IllegalMove) as err:
        d.take_pile("7 7")
    assert err.value.rule == "R-64"


def test_r64_minimum_is_checked_per_laying_down():
    """R-64: "a first laying-down below the minimum is refused". Side 0 at 3,000 (minimum
    120): 6-6-6 alone (15 points) is refused although the turn could still go out concealed;
    6-6-6 and seven kings in one laying-down (85 points) leave one card, go out concealed and
    R-42 waives the minimum for these melds from the hand."""
    d = Deal.from_position(
        hands=["6 6 6 K K K K K K K", "4", "5", "8"], stock="9", pile="Q", scores={0: 3000}
    )
    d.draw()
    with pytest.raises(IllegalMove) as err:
        d.meld("6 6 6")
    assert err.value.rule == "R-64"
    d.meld("6 6 6", "K K K K K K K")
    d.discard("9")
    assert (d.went_out, d.concealed_out) == (0, True)


# --- item 3: R-40 judged on the whole turn -----------------------------------------------------
def aces_position(aces: str = "A A A A A A") -> Deal:
    """4 players; side 0 has ``aces`` on the table and no canasta; seat 0 holds K K; the pile
    is A K (not frozen)."""
    return Deal.from_position(
        hands=["K K", "4 5 6", "4 5 6", "4 5 6"], stock="9 9 9", pile="A K", melds={0: [aces]}
    )


def test_r40_pickup_leaving_one_card_that_completes_the_canasta():
    """R-40: taking with K K leaves one card (the A from the pile); adding it to the six aces
    makes a canasta and goes out in the same turn, so the pickup is legal."""
    d = aces_position()
    d.take_pile("K K")
    assert d.hand(0) == "A"
    with pytest.raises(IllegalMove) as err:
        d.discard("A")  # discarding it would go out without a canasta
    assert err.value.rule == "R-40"
    d.meld("A")
    assert (d.end_reason, d.went_out, d.canastas(0)) == ("went_out", 0, 1)


def test_r40_pickup_leaving_one_card_without_a_way_out_is_refused():
    """Five aces on the table: the A from the pile makes six, no canasta; nothing can follow."""
    d = aces_position("A A A A A")
    with pytest.raises(IllegalMove) as err:
        d.take_pile("K K")
    assert err.value.rule == "R-40"


@pytest.mark.parametrize("bot", ["random", "greedy", "careful", "expert"])
def test_r40_bots_finish_a_turn_that_must_add_the_last_card(bot):
    d = aces_position()
    d.take_pile("K K")
    d.play_turn(bot)
    assert (d.end_reason, d.went_out) == ("went_out", 0)


# --- item 4: can_take_pile is exact --------------------------------------------------------------
def test_can_take_pile_sees_melds_the_bots_candidates_miss():
    """Custom card values (J and 5 are 0 points, a 6 is 50): J-J-J is 0 points, 6-6-2 is
    105 (R-04 as configured), together above the minimum of 50 (R-64), keeping 7 cards."""
    values = [0, 0, 20, 0, 50, 20, 10, 5, 10, 0, 5, 50, 5, 5, 5]
    rules = Rules(card_values=values)
    d = Deal.from_position(
        rules, hands=["5 6 6 8 8 J J Q A A A 2", "4", "4", "4"], stock="9 9", pile="J"
    )
    assert d.can_take_pile() is True
    d.take_pile("J J", ["6 6 2"])
    assert d.melds(0) == {"6": "6 6 2", "J": "J J J"}


def brute_force_can_take(d: Deal) -> bool:
    """Every meld plan from the hand (each card on any row or kept) tried with the engine."""
    seat = d.current_player
    hand = parse_cards(d.hand(seat))
    rows = list(range(L.BLACK_THREE, L.LAST_NATURAL + 1))
    naturals = [range(hand[r] + 1) for r in rows]
    wilds = [L.DEUCE] * int(hand[L.DEUCE]) + [L.JOKER] * int(hand[L.JOKER])
    for counts in itertools.product(*naturals):
        for places in itertools.product([None, *rows], repeat=len(wilds)):
            plan = np.zeros((L.N_KINDS, 3), np.int8)
            plan[rows, L.MeldCol.naturals] = counts
            for wild, row in zip(wilds, places):
                if row is not None:
                    plan[row, L.MeldCol.deuces if wild == L.DEUCE else L.MeldCol.jokers] += 1
            if check_take_nb(d.state, d.rules_array, seat, plan)[0] == L.MoveError.ok:
                return True
    return False


ODD_VALUES = [0, 5, 0, 0, 50, 5, 5, 5, 5, 5, 5, 0, 20, 20, 50]


def random_small_position(rng: random.Random) -> Deal:
    kinds = ["B3", "6", "6", "7", "7", "7", "K", "K", "2", "JK"]
    hand = " ".join(rng.sample(kinds, rng.randint(1, 6)))
    pile = " ".join(rng.choice(["6", "7", "K", "R3", "9"]) for _ in range(rng.randint(0, 2)))
    pile = (pile + " " + rng.choice(["6", "7", "K"])).strip()
    melds = rng.choice([{}, {0: ["7 7 7 2"]}, {0: ["6 6 6 6 JK JK"]}, {0: ["K K K K 2 2"]}])
    rules = Rules(
        players=rng.choice([2, 4, 6]),
        wilds_at_most_naturals=rng.random() < 0.7,
        card_values=rng.choice([Rules().card_values, ODD_VALUES]),
    )
    hands = [hand] + ["4"] * (rules.players - 1)
    return Deal.from_position(
        rules,
        hands=hands,
        stock=rng.choice(["", "9 9"]),
        pile=pile,
        melds=melds,
        scores={0: rng.choice([0, 1500, 3000])},
    )


def test_can_take_pile_equals_a_brute_force_search():
    rng = random.Random(15)
    for _ in range(300):
        d = random_small_position(rng)
        assert d.can_take_pile() == brute_force_can_take(d), (d, d.hand(0), d.melds(0))


# --- the property test: the Deal API and the referee accept the same turns -------------------
def clone(d: Deal) -> Deal:
    """An independent copy of a traced deal, its trace so far included."""
    return d.copy()


def meld_texts(rng: random.Random, hand: np.ndarray, table: dict[str, str]) -> list[str]:
    """One random laying-down from ``hand`` (counts): up to three ranks, each with some of its
    naturals and maybe a wild card; the texts are taken out of ``hand``."""
    ranks = [r for r in range(L.BLACK_THREE, L.LAST_NATURAL + 1) if hand[r]]
    ranks += [r for r in range(L.FIRST_NATURAL, L.LAST_NATURAL + 1) if KINDS[r] in table]
    texts = []
    for r in sorted(set(rng.sample(ranks, min(len(ranks), rng.randint(1, 3))))):
        n = rng.randint(min(1, int(hand[r])), int(hand[r])) if rng.random() < 0.5 else int(hand[r])
        cards = [KINDS[r]] * n
        hand[r] -= n
        for wild in (L.DEUCE, L.JOKER):
            if hand[wild] and r != L.BLACK_THREE and rng.random() < 0.35:
                hand[wild] -= 1
                cards.append(KINDS[wild])
        if cards:
            texts.append(f"{KINDS[r]}: {' '.join(cards)}")
    return texts


def random_turn(rng: random.Random, d: Deal) -> tuple[Deal, list[tuple]] | None:
    """A random turn for the current player: (the deal after the draw, or before a pickup;
    the calls). None when the position does not suit (R-44 forces a pickup, the stock ends)."""
    seat, side = d.current_player, d.current_player % d.rules.sides
    pile = d.pile.split()
    take = bool(pile) and rng.random() < 0.5
    if not take:
        d = clone(d)
        try:
            d.draw()
        except IllegalMove:
            return None
        if d.is_over or d.stock_size == 0:
            return None
    hand = parse_cards(d.hand(seat)).astype(np.int64)
    table = dict(d.melds(side))
    calls: list[tuple] = []
    if take:
        top = (
            L.FIRST_NATURAL + KINDS[L.FIRST_NATURAL :].index(pile[-1])
            if pile[-1] in KINDS[2:13]
            else None
        )
        if top is None:
            return None
        n = rng.choice([0, 1, 2, 2, 2, int(hand[top])])
        n = min(n, int(hand[top]))
        with_ = [pile[-1]] * n
        hand[top] -= n
        if n == 1 and hand[L.DEUCE] + hand[L.JOKER]:
            wild = L.DEUCE if hand[L.DEUCE] else L.JOKER
            hand[wild] -= 1
            with_.append(KINDS[wild])
        melds = meld_texts(rng, hand, table) if rng.random() < 0.5 else []
        calls.append(("take_pile", " ".join(with_), melds))
        hand += parse_cards(" ".join(c for c in pile[:-1] if c != "R3"))
        table[pile[-1]] = "x"
    for _ in range(rng.choice([0, 1, 1, 2])):
        texts = meld_texts(rng, hand, table)
        if texts:
            calls.append(("meld", texts))
            table.update({t.split(":")[0]: "x" for t in texts})
    if hand.sum():
        calls.append(("discard", rng.choice([KINDS[k] for k in range(L.N_KINDS) if hand[k]])))
    return d, calls


def api_accepts(d: Deal, calls: list[tuple]) -> Deal | None:
    """Play the calls on a copy of ``d``; the copy, or None at the first illegal move."""
    d = clone(d)
    try:
        for name, *args in calls:
            getattr(d, name)(*args) if name != "meld" else d.meld(*args[0])
    except IllegalMove:
        return None
    return d


def turn_events(d: Deal, calls: list[tuple], concealed: bool) -> list[dict]:
    """The calls written as trace events (docs/trace.md) for the current player of ``d``."""
    seat = d.current_player
    hand = parse_cards(d.hand(seat)).astype(np.int64)
    pile = d.pile.split()
    events, move = [], 10_000
    for name, *args in calls:
        move += 1
        if name == "take_pile":
            with_, melds = args
            texts = [dict(zip(("rank", "cards"), t.split(": "))) for t in melds]
            # as Deal.take_pile: cards of the top card's rank among ``melds`` join ``with``
            with_ = " ".join([with_] + [t["cards"] for t in texts if t["rank"] == pile[-1]])
            texts = [t for t in texts if t["rank"] != pile[-1]]
            events.append({"event": "take_pile", "seat": seat, "move": move, "top": pile[-1],
                           "with": with_, "melds": texts})  # fmt: skip
            hand -= parse_cards(with_) + sum((parse_cards(t["cards"]) for t in texts), 0 * hand)
            hand += parse_cards(" ".join(c for c in pile[:-1] if c != "R3"))
            events += [{"event": "red_three", "seat": seat, "source": "pile"}] * pile[:-1].count(
                "R3"
            )
        elif name == "meld":
            for text in args[0]:
                rank, cards = text.split(": ")
                events.append({"event": "meld", "seat": seat, "move": move, "rank": rank,
                               "cards": cards})  # fmt: skip
                hand -= parse_cards(cards)
        else:
            events.append({"event": "discard", "seat": seat, "card": args[0]})
            hand -= parse_cards(args[0])
        if hand.sum() == 0:
            events.append({"event": "go_out", "seat": seat, "concealed": concealed})
            break
    return events


def referee_accepts(d: Deal, calls: list[tuple]) -> bool:
    """The turn appended to the deal's trace so far breaks no rule (the go_out flag is a claim,
    not a move: either value may be the right one)."""
    prefix = d.trace()
    for concealed in (False, True):
        verdict = check_trace(prefix + turn_events(d, calls, concealed))
        if verdict.rule is None:
            return True
        if verdict.rule != "R-42":
            return False
    return False


def check_random_turns(players: int, preset: str, deals: int, seed: int) -> int:
    """Random turns at random positions of ``deals`` deals; returns how many were legal."""
    rng = random.Random(seed)
    rules = Rules.preset(preset, players=players)
    legal = 0
    for k in range(deals):
        d = Deal.new(rules, seed, deal=k, dealer=k % players, trace=True)
        while not d.is_over:
            if rng.random() < 0.3:
                turn = random_turn(rng, d)
                if turn is not None:
                    base, calls = turn
                    played = api_accepts(base, calls)
                    refereed = referee_accepts(base, calls)
                    assert (played is not None) == refereed, (base, base.hands, base.pile, calls)
                    if played is not None:
                        verdict = check_trace(played.trace())
                        assert verdict.rule is None, str(verdict)
                        legal += 1
            d.play_turn(rng.choice(["random", "expert"]))
    return legal


@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("preset", ["classic", "hoyle"])
def test_api_and_referee_accept_the_same_turns(players, preset):
    assert check_random_turns(players, preset, deals=3, seed=players) >= 3


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("preset", ["classic", "hoyle"])
def test_api_and_referee_accept_the_same_turns_volume(players, preset):
    assert check_random_turns(players, preset, deals=80, seed=100 + players) >= 80


# --- item 5: the switch matrix, refereed (slow) ------------------------------------------------
#: Every switch of RULES.md section 8 at a non-default value (players vary separately).
SWITCHES = [
    {"upcard_covers_black_three": False},
    {"red_three_upcard_freezes": False},
    {"wilds_at_most_naturals": False},
    {"concealed_canasta_bonus": 0},
    {"concealed_out_needs_minimum": True},
    {"meld_after_last_red_three": False},
    {"natural_canasta_bonus": 400, "mixed_canasta_bonus": 250},
    {"going_out_bonus": 50, "concealed_going_out_bonus": 300},
    {"red_three_bonus": 150, "all_red_threes_bonus": 1000},
    {"card_values": [0, 10, 5, 5, 5, 5, 10, 10, 15, 10, 10, 10, 25, 20, 40]},
    {"max_turns": 30},
]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("switch", SWITCHES, ids=lambda s: "+".join(s))
def test_switch_matrix_is_refereed(players, switch):
    rules = Rules(players=players, **switch)
    for bots in ("random", "expert"):
        assert verify(rules, [bots] * rules.sides, 7, 150) == []


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("scores", [-100, 1600, 3200, 8000])
@pytest.mark.parametrize("negative_minimum", [15, 40])
def test_switches_that_need_starting_scores(players, scores, negative_minimum):
    """negative_minimum (R-64) acts only below 0 and the higher minimum counts only at high
    scores; game_target (R-55) acts in games: deals from starting scores, refereed."""
    rules = Rules(players=players, negative_minimum=negative_minimum, game_target=9000)
    for k in range(40):
        d = Deal.new(rules, 3, deal=k, dealer=k % players, scores={0: scores}, trace=True)
        d.play_out("random" if k % 2 else "expert")
        verdict = check_trace(d.trace())
        assert verdict, str(verdict)


# --- item 6: verify at scale -------------------------------------------------------------------
def test_verify_verdicts_do_not_depend_on_the_workers():
    rules = Rules(players=3)
    one = verify(rules, ["random"] * 3, 5, 60)
    two = verify(rules, ["random"] * 3, 5, 60, workers=2)
    assert one == two == []


def test_verify_cli_workers_and_scheduler_exclusive():
    r = CliRunner().invoke(
        main, ["verify", "--deals", "5", "--workers", "2", "--scheduler", "local:1"]
    )
    assert r.exit_code == 2 and "exclude each other" in r.output


def test_verify_cli_reports_failures_in_deal_order(monkeypatch):
    import canasta_sim.run.verify as V

    real = V.verify_chunk

    def broken(rules, bots, seed, first, n, threads=None):  # every third deal fails
        fails = [k for k in range(first, first + n) if k % 3 == 0]
        found = [V.Failure(k, "R-99", f"FAIL R-99 at event 1: deal {k}") for k in fails]
        return real(rules, bots, seed, first, n) + found

    monkeypatch.setattr(V, "verify_chunk", broken)
    r = CliRunner().invoke(main, ["verify", "--deals", "7", "--players", "2", "--show", "2"])
    assert r.exit_code == 1
    assert "4 of 7 deals passed" in r.output
    assert "deal 0: FAIL R-99" in r.output and "deal 3: FAIL R-99" in r.output
    assert "deal 6:" not in r.output  # --show 2


def test_docs_rules_words_r63_as_played():
    """R-63: black threes are melded only in laying-downs that go out, and may be split over
    those of the turn (the engine's and the referee's reading), as the shared rule book words
    it."""
    rules_md = Path(__file__).resolve().parents[2] / "docs" / "RULES.md"
    text = " ".join(rules_md.read_text().split())
    assert (
        "They may be laid in one laying-down or split over that turn's laying-downs (for "
        "example 3, then the 4th), provided each laying-down that holds a black three leaves "
        "the player at most one card, so that the turn goes out."
    ) in text
