"""Tests of the independent referee (canasta_sim.referee) on hand-built traces.

Every trace here is written out by hand from RULES.md and docs/trace.md: a stacked deck makes the
hands known, the events are listed one by one, and the expected scores are added up by hand in
the comments. Rejection tests assert the rule id (R-xx) and the index of the failing event.

Reading chosen for the pickup whose top card is not melded (``with`` empty and no meld of that
rank on the side): R-34 ("the top card is melded first").
"""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path

import pytest

from canasta_sim.cards import KINDS
from canasta_sim.referee import Verdict, check_trace, check_trace_file

CLASSIC = dict(
    players=4,
    upcard_covers_black_three=True,
    red_three_upcard_freezes=True,
    wilds_at_most_naturals=True,
    concealed_canasta_bonus=100,
    concealed_out_needs_minimum=False,
    negative_minimum=15,
    meld_after_last_red_three=True,
    natural_canasta_bonus=500,
    mixed_canasta_bonus=300,
    going_out_bonus=100,
    concealed_going_out_bonus=200,
    red_three_bonus=100,
    all_red_threes_bonus=800,
    card_values=[0, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20, 20, 50],
    game_target=5000,
    max_turns=2000,
)
PACK_108 = {kind: 4 if kind in ("R3", "B3", "JK") else 8 for kind in KINDS}


# --- builders --------------------------------------------------------------------------------
def stack_deck(hands, upcards="", stock="", tail="", dealer=3):
    """A 108-card deck (top of the stock first) that deals ``hands`` to a 4-player table.

    Order: the dealt cards (one at a time, clockwise from the dealer's left, R-11), the upcards,
    ``stock``, the rest of the pack (kinds in KINDS order, red threes last) and ``tail``.
    """
    seats = {seat: text.split() for seat, text in hands.items()}
    size = len(seats[0])
    assert all(len(cards) == size for cards in seats.values())
    order = [seats[(dealer + 1 + i) % 4][r] for r in range(size) for i in range(4)]
    order += upcards.split() + stock.split()
    left = dict(PACK_108)
    for card in order + tail.split():
        left[card] -= 1
    assert min(left.values()) >= 0, left
    rest = [k for k in KINDS if k != "R3" for _ in range(left[k])] + ["R3"] * left["R3"]
    return order + rest + tail.split()


class Trace(list):
    """A trace under construction: the start event, the upcards, then events added by hand."""

    def __init__(self, hands, upcards, stock="", tail="", dealer=3, minimums=(50, 50), **switches):
        super().__init__()
        self.deck = stack_deck(hands, upcards, stock, tail, dealer)
        self.add(
            "start",
            rules={**CLASSIC, **switches},
            seed=0,
            dealer=dealer,
            deck=" ".join(self.deck),
            minimums=list(minimums),
        )
        for card in upcards.split():
            self.add("upcard", card=card)

    def add(self, name, **keys):
        self.append({"event": name, **keys})
        return self

    def draw(self, seat, card):
        return self.add("draw", seat=seat, card=card)

    def red_three(self, seat, source):
        return self.add("red_three", seat=seat, source=source)

    def take(self, seat, move, top, with_, melds=()):
        return self.add(
            "take_pile",
            seat=seat,
            move=move,
            top=top,
            melds=[{"rank": rank, "cards": cards} for rank, cards in melds],
            **{"with": with_},
        )

    def meld(self, seat, move, rank, cards):
        return self.add("meld", seat=seat, move=move, rank=rank, cards=cards)

    def discard(self, seat, card):
        return self.add("discard", seat=seat, card=card)

    def go_out(self, seat, concealed=False):
        return self.add("go_out", seat=seat, concealed=concealed)

    def end(self, reason, turns):
        return self.add("end", reason=reason, turns=turns)

    def score(
        self, side, red_threes, canasta_bonus, going_out_bonus, meld_points, hand_penalty, total
    ):
        return self.add(
            "score",
            side=side,
            red_threes=red_threes,
            canasta_bonus=canasta_bonus,
            going_out_bonus=going_out_bonus,
            meld_points=meld_points,
            hand_penalty=hand_penalty,
            total=total,
        )


def find(trace, name, **keys):
    """Index of the first event called ``name`` whose keys match."""
    for i, ev in enumerate(trace):
        if ev["event"] == name and all(ev.get(k) == v for k, v in keys.items()):
            return i
    raise LookupError(name, keys)


def assert_fails(trace, rule, event):
    verdict = check_trace(trace)
    assert not verdict, str(verdict)
    assert (verdict.rule, verdict.event) == (rule, event), str(verdict)
    return verdict


def assert_legal_so_far(trace):
    """The trace stops early (no end and scores) but breaks no rule up to there."""
    verdict = check_trace(trace)
    assert not verdict.ok and verdict.rule is None and verdict.event is None, str(verdict)
    assert "incomplete" in verdict.message


# --- the base deal -----------------------------------------------------------------------------
# Dealer seat 3, so seat 0 plays first; sides 0 (seats 0, 2) and 1 (seats 1, 3).
BASE_HANDS = {
    0: "R3 K K K K K K 9 9 5 6",
    1: "7 7 8 8 J J Q 4 4 10 A",  # card values 100
    2: "9 9 Q Q A A 5 6 8 10 J",  # 120
    3: "7 7 7 2 JK 10 10 6 5 4 Q",  # 130
}


def base_prefix(hands=BASE_HANDS, stock="A K 9 6 9", **kw):
    """Start, upcard 2 covered by 8 (frozen, R-12/R-13), seat 0's red three replaced by an A."""
    t = Trace(hands, "2 8", stock, **kw)
    return t.red_three(0, "dealt").draw(0, "A")


def base_deal(minimums=(50, 50)):
    """A full deal, five turns, seat 0 goes out.

    1. seat 0 draws K, melds seven kings (70 >= 50; a concealed natural canasta, R-66), discards 5.
    2. seat 1 draws 9, discards it.
    3. seat 2 takes the frozen pile (2 8 5 9) with a natural pair of nines (R-32), then melds
       A A 2 using the 2 from the pile, discards 6 (the pile is now just 6, not frozen).
    4. seat 3 draws 6, melds 7 7 7 2 JK (85 >= 50), discards Q.
    5. seat 0 draws 9, adds 9 9 9 and A to the side's melds, discards his last card 6: out,
       not concealed (he melded on turn 1).

    Scores (R-50..R-54):
    side 0: red threes 1 x 100 = 100; canasta K x 7 natural concealed 500 + 100 = 600; going out
    100; melds K x 7 = 70, nine nines = 60, A A A 2 = 80 -> 210; seat 2 holds Q Q 5 8 10 J 8 5
    = 70; total 100 + 600 + 100 + 210 - 70 = 940.
    side 1: melds 7 7 7 2 JK = 15 + 20 + 50 = 85; hands seat 1 100 + seat 3 (10 10 6 5 4 6) 40
    = 140; total 85 - 140 = -55.
    """
    t = base_prefix(minimums=minimums)
    t.draw(0, "K").meld(0, 1, "K", "K K K K K K K").discard(0, "5")
    t.draw(1, "9").discard(1, "9")
    t.take(2, 2, "9", "9 9").meld(2, 3, "A", "A A 2").discard(2, "6")
    t.draw(3, "6").meld(3, 4, "7", "7 7 7 2 JK").discard(3, "Q")
    t.draw(0, "9").meld(0, 5, "9", "9 9 9").meld(0, 5, "A", "A").discard(0, "6")
    t.go_out(0, concealed=False).end("went_out", 5)
    t.score(0, 100, 600, 100, 210, 70, 940)
    t.score(1, 0, 0, 0, 85, 140, -55)
    return t


def test_accepts_full_deal():
    trace = base_deal()
    verdict = check_trace(trace)
    assert verdict, str(verdict)
    assert verdict.events_checked == len(trace)
    assert verdict.event is None and verdict.rule is None
    assert str(verdict).startswith("OK")


def test_verdict_api():
    trace = base_deal()
    trace[find(trace, "draw", seat=0, card="K")]["card"] = "Q"
    verdict = check_trace(trace)
    assert isinstance(verdict, Verdict) and not verdict
    assert dataclasses.is_dataclass(verdict)
    with pytest.raises(dataclasses.FrozenInstanceError):
        verdict.ok = True
    line = str(verdict)
    assert "\n" not in line and "R-20" in line and "event 5" in line
    # the message describes the position: hand, pile and side's melds
    assert "hand [" in verdict.message and "pile top 8" in verdict.message
    assert "frozen" in verdict.message and "melds [" in verdict.message


def test_check_trace_file(tmp_path):
    path = tmp_path / "deal.jsonl"
    path.write_text("".join(json.dumps(ev) + "\n" for ev in base_deal()))
    assert check_trace_file(path)
    listing = tmp_path / "deal.json"
    listing.write_text(json.dumps(list(base_deal())))
    assert check_trace_file(listing)


def test_referee_imports_only_the_card_notation():
    package = Path(__file__).parents[2] / "canasta_sim" / "referee"
    modules = {path.stem for path in package.glob("*.py")}
    imported = set()
    for source in package.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.ImportFrom):
                if node.level == 1:  # a module of the referee package itself
                    assert (node.module or "") in modules | {""}, node.module
                    continue
                imported.add(("." * node.level) + (node.module or ""))
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
    ours = {name for name in imported if "canasta_sim" in name or name.startswith(".")}
    assert ours == {"canasta_sim.cards"}


# --- deck, upcard, red threes, provenance ------------------------------------------------------
def test_rejects_a_deck_that_is_not_the_pack():
    trace = base_deal()
    cards = trace[0]["deck"].split()
    cards[-1] = "JK" if cards[-1] != "JK" else "K"  # five jokers, or one king too many
    trace[0]["deck"] = " ".join(cards)
    assert_fails(trace, "R-01", 0)


def test_upcard_wild_must_be_covered():
    trace = base_deal()
    del trace[2]  # the 8 that covers the upcard 2
    assert_fails(trace, "R-12", 2)


def test_no_extra_upcard():
    trace = base_deal()
    trace.insert(3, {"event": "upcard", "card": "A"})
    assert_fails(trace, "R-12", 3)


def test_dealt_red_three_not_laid_out():
    trace = base_deal()
    del trace[find(trace, "red_three", seat=0, source="dealt")]
    assert_fails(trace, "R-15", find(trace, "draw", seat=0, card="A"))


def test_drawn_card_not_the_top_of_the_stock():
    trace = base_deal()
    i = find(trace, "draw", seat=0, card="K")
    trace[i]["card"] = "Q"
    assert_fails(trace, "R-20", i)


def test_wrong_seat_plays():
    trace = base_deal()
    i = find(trace, "draw", seat=1, card="9")
    trace[i]["seat"] = 2
    assert_fails(trace, "R-20", i)


def test_discarding_a_card_not_in_hand():
    trace = base_deal()
    i = find(trace, "discard", seat=1, card="9")
    trace[i]["card"] = "K"
    assert_fails(trace, "R-20", i)


# --- melds (R-60..R-63) ------------------------------------------------------------------------
def single_turn(hand0, stock, **switches):
    """Seat 0 is dealt ``hand0``; the other seats get the base hands (no red threes)."""
    hands = {**BASE_HANDS, 0: hand0}
    return Trace(hands, "2 8", stock, **switches)


def test_meld_with_four_wild_cards():
    t = single_turn("4 4 4 4 2 2 2 JK 9 9 5", "K").draw(0, "K")
    t.meld(0, 1, "4", "4 4 4 4 2 2 2 JK")
    assert_fails(t, "R-60", len(t) - 1)


def nine_nine_deuces(**switches):
    """Seat 0 melds 9 9 2 2 2 (80 points) and discards; max_turns=1 ends the deal (R-47).

    Scores: side 0: melds 80; hands seat 0 (K Q 5 5 4 4) 40 + seat 2 120 = 160; total -80.
    side 1: no melds, no red threes: 0; hands 100 + 130 = 230; total -230.
    """
    t = single_turn("9 9 2 2 2 K Q 5 5 4 4", "6", max_turns=1, **switches).draw(0, "6")
    t.meld(0, 1, "9", "9 9 2 2 2").discard(0, "6").end("turn_limit", 1)
    t.score(0, 0, 0, 0, 80, 160, -80).score(1, 0, 0, 0, 0, 230, -230)
    return t


def test_wilds_outnumbering_naturals():
    trace = nine_nine_deuces()
    assert_fails(trace, "R-60", find(trace, "meld"))


def test_wilds_outnumbering_naturals_allowed_by_switch():
    verdict = check_trace(nine_nine_deuces(wilds_at_most_naturals=False))
    assert verdict, str(verdict)


def test_added_wilds_break_the_meld():
    t = single_turn("9 9 2 2 2 K Q 5 5 4 4", "6").draw(0, "6")
    t.meld(0, 1, "9", "9 9 2").meld(0, 1, "9", "2 2")
    assert_fails(t, "R-61", len(t) - 1)


def test_black_three_meld_when_not_going_out():
    t = single_turn("K K K K K K K B3 B3 B3 5", "6").draw(0, "6")
    t.meld(0, 1, "K", "K K K K K K K").meld(0, 1, "B3", "B3 B3 B3").discard(0, "5")
    assert_fails(t, "R-63", find(t, "meld", rank="B3"))


def concealed_out(minimums=(50, 50), **switches):
    """Seat 0 goes out concealed in the first turn: seven kings, four black threes, discard 5.

    R-41/R-63: black threes melded when going out; R-42: no earlier meld, a canasta.
    Scores: side 0: canasta natural concealed 500 + 100 = 600; going out concealed 200; melds
    K x 7 = 70 + B3 x 4 = 20 -> 90; seat 2 holds 120; total 600 + 200 + 90 - 120 = 770.
    side 1: 0 - (100 + 130) = -230.
    """
    t = single_turn("K K K K K K K B3 B3 B3 B3", "5", minimums=minimums, **switches)
    t.draw(0, "5").meld(0, 1, "K", "K K K K K K K").meld(0, 1, "B3", "B3 B3 B3 B3")
    t.discard(0, "5").go_out(0, concealed=True).end("went_out", 1)
    t.score(0, 0, 600, 200, 90, 120, 770).score(1, 0, 0, 0, 0, 230, -230)
    return t


def test_concealed_going_out_with_black_threes():
    assert check_trace(concealed_out())


def black_threes_split(cards_left_after_three: str):
    """Seat 0 goes out concealed in the first turn: eight kings (one drawn), then three black
    threes, then the fourth (R-63: the black threes of the turn that goes out may be split over
    its laying-downs, each leaving at most one card); ``cards_left_after_three`` is the hand
    after the three.

    Scores: side 0: canasta natural concealed 600; going out concealed 200; melds K x 8 = 80
    + B3 x 4 = 20 -> 100; seat 2 holds 120; total 600 + 200 + 100 - 120 = 780.
    side 1: 0 - (100 + 130) = -230.
    """
    t = single_turn("K K K K K K K B3 B3 B3 B3", "K").draw(0, "K")
    if cards_left_after_three == "B3":
        t.meld(0, 1, "K", "K K K K K K K K").meld(0, 2, "B3", "B3 B3 B3")
    else:  # the kings after the threes: the threes' laying-down leaves nine cards
        t.meld(0, 1, "B3", "B3 B3 B3").meld(0, 2, "K", "K K K K K K K K")
    t.meld(0, 3, "B3", "B3").go_out(0, concealed=True).end("went_out", 1)
    t.score(0, 0, 600, 200, 100, 120, 780).score(1, 0, 0, 0, 0, 230, -230)
    return t


def test_r63_black_threes_split_over_the_laying_downs_of_the_turn_going_out():
    """3 black threes leaving one card (the 4th), then the 4th: accepted. The same threes
    laid before the kings leave nine cards: refused (R-63)."""
    assert check_trace(black_threes_split("B3")), str(check_trace(black_threes_split("B3")))
    trace = black_threes_split("K K K K K K K K B3")
    assert_fails(trace, "R-63", find(trace, "meld", rank="B3"))


def test_concealed_going_out_waives_the_minimum():
    # 90 points melded, side 0's minimum 120 (score 3000+): waived when going out concealed
    assert check_trace(concealed_out(minimums=(120, 50)))


def test_concealed_going_out_needs_minimum_when_switched_on():
    trace = concealed_out(minimums=(120, 50), concealed_out_needs_minimum=True)
    assert_fails(trace, "R-64", find(trace, "meld", rank="K"))


def test_concealed_going_out_minimum_counts_per_laying_down():
    """R-64: the seven kings (70 points, side minimum 120) laid down alone leave five cards:
    that laying-down does not go out, so R-42 does not waive the minimum, although the turn
    then goes out concealed."""
    trace = concealed_out(minimums=(120, 50))
    trace[find(trace, "meld", rank="B3")]["move"] = 2
    assert_fails(trace, "R-64", find(trace, "meld", rank="K"))


def test_concealed_going_out_after_a_pickup_needs_the_minimum():
    """Issue 15's example: 4 players, side 0 at 3,000 (minimum 120); seat 0 takes the frozen
    pile 2 7 with 7 7 (7-7-7 is 15 points), then melds 6 x 6 + 2 and 5 5 5 and goes out
    concealed. R-42 waives the minimum for melds from the hand only: the pickup reaches it
    (R-64), so the turn is refused at the take_pile event.

    Scores had it been legal: side 0: mixed canasta 300 (the 2 came from the pile, R-66),
    going out concealed 200, melds 15 + 50 + 15 = 80, seat 2 holds 120: total 460;
    side 1: -230.
    """
    hands = {**BASE_HANDS, 0: "7 7 6 6 6 6 6 6 5 5 5"}
    t = Trace(hands, "2 7", "K", minimums=(120, 50))
    t.take(0, 1, "7", "7 7").meld(0, 2, "6", "6 6 6 6 6 6 2").meld(0, 2, "5", "5 5 5")
    t.go_out(0, concealed=True).end("went_out", 1)
    t.score(0, 0, 300, 200, 80, 120, 460).score(1, 0, 0, 0, 0, 230, -230)
    assert_fails(t, "R-64", find(t, "take_pile"))


def test_going_out_flag_must_match_concealed():
    trace = concealed_out()
    i = find(trace, "go_out")
    trace[i]["concealed"] = False
    assert_fails(trace, "R-42", i)
    trace = base_deal()
    i = find(trace, "go_out")
    trace[i]["concealed"] = True  # seat 0 melded on turn 1
    assert_fails(trace, "R-42", i)


# --- initial meld (R-64) -----------------------------------------------------------------------
def test_initial_meld_below_minimum():
    trace = base_deal()
    trace[find(trace, "meld", seat=3)]["cards"] = "7 7 7"  # 15 < 50
    assert_fails(trace, "R-64", find(trace, "meld", seat=3))


def test_initial_meld_below_a_higher_minimum():
    trace = base_deal(minimums=(50, 90))  # 7 7 7 2 JK = 85 < 90
    assert_fails(trace, "R-64", find(trace, "meld", seat=3))


def split_initial_meld(second_move):
    """Base deal, minimum 90 for side 1: seat 3 melds 7 7 7 JK (65) and 10 10 2 (40).

    With one move id they count together (105 >= 90). Side 1's score becomes: melds 105; hands
    seat 1 100 + seat 3 (6 5 4 6) 20 = 120; total -15.
    """
    trace = base_deal(minimums=(50, 90))
    i = find(trace, "meld", seat=3)
    trace[i]["cards"] = "7 7 7 JK"
    trace.insert(
        i + 1, {"event": "meld", "seat": 3, "move": second_move, "rank": "10", "cards": "10 10 2"}
    )
    trace[-1].update(meld_points=105, hand_penalty=120, total=-15)
    return trace, i


def test_melds_of_one_move_count_together():
    trace, _ = split_initial_meld(second_move=4)
    verdict = check_trace(trace)
    assert verdict, str(verdict)


def test_melds_of_separate_moves_do_not_count_together():
    trace, i = split_initial_meld(second_move=44)
    assert_fails(trace, "R-64", i)


# --- the discard pile (R-30..R-35) -----------------------------------------------------------
def test_frozen_pile_needs_a_natural_pair():
    hands = {**BASE_HANDS, 2: "9 JK Q Q A A 5 6 8 10 J"}
    t = base_prefix(hands)
    t.draw(0, "K").meld(0, 1, "K", "K K K K K K K").discard(0, "5")
    t.draw(1, "9").discard(1, "9")
    t.take(2, 2, "9", "9 JK")  # natural + wild: only for an unfrozen pile (R-33 b)
    assert_fails(t, "R-32", len(t) - 1)


@pytest.mark.parametrize("card", ["B3", "2"])
def test_pile_cannot_be_taken_with_black_three_or_wild_on_top(card):
    hands = {
        **BASE_HANDS,
        0: f"R3 K K K K K K 9 9 {card} 6",
        1: f"7 7 8 8 J J Q {card} {card} 10 A",
    }
    t = base_prefix(hands)
    t.draw(0, "K").meld(0, 1, "K", "K K K K K K K").discard(0, card)
    t.take(1, 2, card, f"{card} {card}")
    assert_fails(t, "R-30", len(t) - 1)


def test_top_card_must_be_melded():
    trace = base_deal()
    i = find(trace, "take_pile")
    trace[i]["with"] = ""  # side 0 has no meld of nines: the 9 would go to the hand
    assert_fails(trace, "R-34", i)


def test_no_draw_after_taking_the_pile():
    trace = base_deal()
    i = find(trace, "take_pile")
    trace.insert(i + 1, {"event": "draw", "seat": 2, "card": "6"})
    assert_fails(trace, "R-34", i + 1)


# --- going out (R-22, R-40) --------------------------------------------------------------------
def test_going_out_by_melding_without_a_canasta():
    t = single_turn("K K K K Q Q Q Q J J J", "J").draw(0, "J")
    t.meld(0, 1, "K", "K K K K").meld(0, 1, "Q", "Q Q Q Q").meld(0, 1, "J", "J J J J")
    t.go_out(0)
    assert_fails(t, "R-40", len(t) - 1)


def test_going_out_by_discarding_without_a_canasta():
    t = single_turn("K K K K Q Q Q Q J J J", "5").draw(0, "5")
    t.meld(0, 1, "K", "K K K K").meld(0, 1, "Q", "Q Q Q Q").meld(0, 1, "J", "J J J")
    t.discard(0, "5")
    assert_fails(t, "R-40", len(t) - 1)


def test_discarding_the_last_card_is_going_out():
    trace = base_deal()
    i = find(trace, "go_out")
    del trace[i]
    assert_fails(trace, "R-22", i)


def test_end_event_turn_count_and_reason():
    trace = base_deal()
    i = find(trace, "end")
    trace[i]["turns"] = 4
    assert_fails(trace, "R-47", i)
    trace[i].update(turns=5, reason="stock_exhausted")
    assert_fails(trace, "R-40", i)


# --- stock exhausted (R-44..R-46) ----------------------------------------------------------------
def last_red_three_deal(**switches):
    """Nobody melds; every player discards the card just drawn, until the last stock card, a red
    three, goes to seat 3 (60 stock cards, turns 0..59): R-45 ends the deal without a discard.

    Scores: side 0: no red threes, no melds; hands seat 0 (K x 6, 9 9, 5 6 4) 95 + seat 2 120 =
    215; total -215. side 1: one red three and no meld: -100 (R-50); hands 100 + 130 = 230;
    total -330.
    """
    hands = {**BASE_HANDS, 0: "K K K K K K 9 9 5 6 4"}
    t = Trace(hands, "R3 R3 R3 8", **switches)  # red threes covered: the pile is frozen
    stock = t.deck[44 + 4 :]
    assert len(stock) == 60 and stock[-1] == "R3" and "R3" not in stock[:-1]
    for turn, card in enumerate(stock[:-1]):
        t.draw(turn % 4, card).discard(turn % 4, card)
    return t.draw(3, "R3")


def test_last_card_red_three_ends_the_deal():
    t = last_red_three_deal().red_three(3, "drawn").add("end_turn", seat=3)
    t.end("last_red_three", 60)
    t.score(0, 0, 0, 0, 0, 215, -215).score(1, -100, 0, 0, 0, 230, -330)
    verdict = check_trace(t)
    assert verdict, str(verdict)


def test_last_card_red_three_ends_a_turn_with_the_switch_off():
    """R-45 with meld_after_last_red_three off: the turn ends with end_turn and counts, 60
    turns as with the switch on; a meld is refused."""
    t = last_red_three_deal(meld_after_last_red_three=False).red_three(3, "drawn")
    t.add("end_turn", seat=3).end("last_red_three", 60)
    t.score(0, 0, 0, 0, 0, 215, -215).score(1, -100, 0, 0, 0, 230, -330)
    verdict = check_trace(t)
    assert verdict, str(verdict)
    t = last_red_three_deal(meld_after_last_red_three=False).red_three(3, "drawn")
    t.meld(3, 99, "7", "7 7 7")
    assert_fails(t, "R-45", len(t) - 1)


def test_no_discard_after_a_last_card_red_three():
    t = last_red_three_deal().red_three(3, "drawn").discard(3, "Q")
    assert_fails(t, "R-45", len(t) - 1)


def test_drawn_red_three_must_be_laid_out():
    t = last_red_three_deal().discard(3, "Q")
    assert_fails(t, "R-16", len(t) - 1)


def exhausted_stock(tail):
    """Seat 0 melds six kings on turn 0; then everyone discards the card just drawn.

    Upcards: four red threes and a black three covered by an 8; red_three_upcard_freezes is off
    and every wild card is in seat 1's and seat 3's hands, so the pile is never frozen. The last
    stock card (``tail``) is drawn and discarded by seat 1 on turn 57; seat 2 then finds the stock
    empty with 58 turns completed.
    """
    hands = {
        0: "K K K K K K 9 9 5 6 4",
        1: "2 2 2 2 JK JK 4 4 5 5 6",
        2: "9 Q Q A A 5 6 8 10 J 7",
        3: "2 2 2 2 JK JK 7 7 8 8 Q",
    }
    t = Trace(hands, "R3 R3 R3 R3 B3 8", tail=tail, red_three_upcard_freezes=False)
    stock = t.deck[44 + 6 :]
    assert len(stock) == 58 and stock[-1] == tail
    t.draw(0, stock[0]).meld(0, 1, "K", "K K K K K K").discard(0, stock[0])
    for turn, card in enumerate(stock[1:], start=1):
        t.draw(turn % 4, card).discard(turn % 4, card)
    return t


def test_stock_exhausted_without_a_forced_take():
    assert_legal_so_far(exhausted_stock(tail="5").end("stock_exhausted", 58))


def test_stock_exhausted_while_the_pile_must_be_taken():
    # top K, pile not frozen, side 0 has a meld of kings: seat 2 must take it
    t = exhausted_stock(tail="K").end("stock_exhausted", 58)
    assert_fails(t, "R-44", len(t) - 1)


def test_forced_take_lays_out_the_piles_red_threes():
    t = exhausted_stock(tail="K").take(2, 99, "K", "")  # R-33 (c): onto the kings
    for _ in range(4):
        t.red_three(2, "pile")  # laid out, not replaced
    assert_legal_so_far(t)


def test_red_threes_from_the_pile_must_be_laid_out():
    t = exhausted_stock(tail="K").take(2, 99, "K", "").red_three(2, "pile").discard(2, "Q")
    assert_fails(t, "R-34", len(t) - 1)


def test_empty_stock_pickup_needs_a_natural_pair():
    t = exhausted_stock(tail="Q")  # seat 2 holds Q Q; side 0 has no meld of queens
    t.take(2, 99, "Q", "Q")
    assert_fails(t, "R-44", len(t) - 1)
    t[-1]["with"] = "Q Q"  # a natural pair is always allowed
    assert_legal_so_far(t)


# --- scores (R-50..R-54) -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "part, wrong, rule",
    [
        ("red_threes", 200, "R-50"),
        ("canasta_bonus", 500, "R-51"),
        ("going_out_bonus", 200, "R-52"),
        ("meld_points", 200, "R-53"),
        ("hand_penalty", 60, "R-54"),
        ("total", 950, "R-50"),
    ],
)
def test_wrong_score_part(part, wrong, rule):
    trace = base_deal()
    i = find(trace, "score", side=0)
    trace[i][part] = wrong
    assert_fails(trace, rule, i)


def test_missing_score_is_incomplete():
    trace = base_deal()
    del trace[-1]
    assert_legal_so_far(trace)


# --- concealed canastas and cards from the pile (R-66) -----------------------------------------
# R-66 read literally: cards taken into the hand with the rest of the pile are not hand cards.
# Own cards of a kind (held before the pickup) are melded first; a meld started this turn that
# needs a card from the pile cannot become a concealed canasta. The pile's top card does not
# spoil it.
def pile_of_queens_deal(bonus=1100, total=1115):
    """Seat 0 takes a pile of five queens (top Q, Q Q Q Q under it) with Q Q from hand, then
    melds the four queens from the pile: seven queens, but not concealed.

    Upcard Q (no cover needed). Turn 0: seat 0 draws K, melds seven kings (70 >= 50, a concealed
    natural canasta), discards Q. Turns 1-3: seats 1, 2, 3 each draw a 9 and discard a Q. Turn 4:
    seat 0 (hand Q Q 5 6) takes the pile with Q Q (meld Q Q Q), the rest Q Q Q Q goes to the
    hand; he melds Q Q Q Q (all four from the pile), discards 5. max_turns=5 ends the deal.

    Scores: side 0: canastas K x 7 concealed natural 500 + 100, Q x 7 natural 500 -> 1100; melds
    70 + 70 = 140; hands seat 0 (6) 5 + seat 2 (9 9 9 J J A A 5 6 8 10) 120 = 125; total
    1100 + 140 - 125 = 1115.
    side 1: no melds; hands seat 1 (7 7 8 8 J J 4 4 10 A 9) 100 + seat 3 (7 7 7 2 JK 10 10 6 5 4 9)
    130 = 230; total -230.
    """
    hands = {
        0: "K K K K K K Q Q Q 5 6",
        1: "7 7 8 8 J J Q 4 4 10 A",
        2: "9 9 Q J A A 5 6 8 10 J",
        3: "7 7 7 2 JK 10 10 6 5 4 Q",
    }
    t = Trace(hands, "Q", "K 9 9 9", max_turns=5)
    t.draw(0, "K").meld(0, 1, "K", "K K K K K K K").discard(0, "Q")
    for seat in (1, 2, 3):
        t.draw(seat, "9").discard(seat, "Q")
    t.take(0, 2, "Q", "Q Q").meld(0, 3, "Q", "Q Q Q Q").discard(0, "5")
    t.end("turn_limit", 5)
    t.score(0, 0, bonus, 0, 140, 125, total).score(1, 0, 0, 0, 0, 230, -230)
    return t


def test_canasta_completed_with_pile_cards_is_not_concealed():
    verdict = check_trace(pile_of_queens_deal())
    assert verdict, str(verdict)
    # the former reading (pile cards count as hand cards) would add 100 for the queens
    trace = pile_of_queens_deal(bonus=1200, total=1215)
    verdict = assert_fails(trace, "R-51", find(trace, "score", side=0))
    assert "the rules give 1100" in verdict.message


def own_queens_deal(cards, bonus, meld_points, hand_penalty, total):
    """Seat 0 holds six queens of his own and a deuce, takes a pile whose top is Q (with a Q and
    a deuce under it) with Q Q, then melds ``cards`` onto the queens.

    Upcard Q. Turn 0: seat 0 draws 9, melds A A A (60 >= 50), discards 9. Turn 1: seat 1 draws
    6, discards 2 (the pile is frozen). Turn 2: seat 2 draws 8, discards it. Turn 3: seat 3
    draws 9, discards Q. Turn 4: seat 0 (hand Q x 6, 5, 2) takes the pile (Q 9 2 8 under the
    top Q) with the natural pair Q Q; his hand is then his own Q Q Q Q 5 2 plus Q 9 2 8 from
    the pile; he melds ``cards`` (own cards first) and discards 5. max_turns=5 ends the deal.

    Side 0's hand penalty: seat 2 (9 9 J J A 5 6 8 10 K K) 110 plus what seat 0 keeps.
    Side 1: no melds; hands seat 1 (7 7 8 8 J J 4 4 10 A 6) 95 + seat 3
    (7 7 7 2 JK 10 10 6 5 4 9) 130 = 225; total -225.
    """
    hands = {
        0: "Q Q Q Q Q Q A A A 5 2",
        1: "7 7 8 8 J J 2 4 4 10 A",
        2: "9 9 J J A 5 6 8 10 K K",
        3: "7 7 7 2 JK 10 10 6 5 4 Q",
    }
    t = Trace(hands, "Q", "9 6 8 9", max_turns=5)
    t.draw(0, "9").meld(0, 1, "A", "A A A").discard(0, "9")
    t.draw(1, "6").discard(1, "2")
    t.draw(2, "8").discard(2, "8")
    t.draw(3, "9").discard(3, "Q")
    t.take(0, 2, "Q", "Q Q").meld(0, 3, "Q", cards).discard(0, "5")
    t.end("turn_limit", 5)
    t.score(0, 0, bonus, 0, meld_points, hand_penalty, total)
    t.score(1, 0, 0, 0, 0, 225, -225)
    return t


@pytest.mark.parametrize(
    "cards, bonus, meld_points, hand_penalty, total",
    [
        # own Q Q Q Q: concealed natural 500 + 100; melds A A A 60 + Q x 7 70 = 130; seat 0 keeps
        # Q 2 2 9 8 (70) -> 180; total 600 + 130 - 180 = 550
        ("Q Q Q Q", 600, 130, 180, 550),
        # four own queens and the pile's: natural 500; melds 60 + 80 = 140;
        # seat 0 keeps 2 2 9 8 (60) -> 170; total 500 + 140 - 170 = 470
        ("Q Q Q Q Q", 500, 140, 170, 470),
        # own Q Q Q Q and his own deuce: concealed mixed 300 + 100; melds 60 + 90 = 150;
        # seat 0 keeps Q 2 9 8 (50) -> 160; total 400 + 150 - 160 = 390
        ("Q Q Q Q 2", 400, 150, 160, 390),
        # own Q Q Q, own deuce and the pile's deuce: mixed 300; melds 60 + 100 = 160; seat 0 keeps
        # Q Q 9 8 (40) -> 150; total 300 + 160 - 150 = 310
        ("Q Q Q 2 2", 300, 160, 150, 310),
    ],
)
def test_own_cards_are_melded_before_the_piles(cards, bonus, meld_points, hand_penalty, total):
    verdict = check_trace(own_queens_deal(cards, bonus, meld_points, hand_penalty, total))
    assert verdict, str(verdict)


def test_concealed_canasta_from_own_cards_after_a_pickup():
    # the brief's second case: own queens only -> the concealed bonus is due
    trace = own_queens_deal("Q Q Q Q", 500, 130, 180, 450)
    verdict = assert_fails(trace, "R-51", find(trace, "score", side=0))
    assert "the rules give 600" in verdict.message
