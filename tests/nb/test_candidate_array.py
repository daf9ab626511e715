"""The candidate layer as records (issue 24 item 3): one kernel call per decision fills one
structured array of ``CANDIDATE_DTYPE``, checked field by field against hand counts from the
rules; a :class:`Candidate` writes its texts only when they are read; a candidate made from
texts and one made from a record are the same choice."""

import pickle

import numpy as np
import pytest
from test_candidates import CANASTA, HAND, position

from canasta_sim.cards import kind_index
from canasta_sim.errors import IllegalMove
from canasta_sim.nb.candidates import CANDIDATE_DTYPE
from canasta_sim.nb.enums import PickupWay
from canasta_sim.nb.worlds import CandKind
from canasta_sim.players import choices
from canasta_sim.players.choices import (
    Candidate,
    candidate_array,
    candidates,
    decision_deal,
    play_candidate,
)

GO_OUT = "go out: meld 5 5 5, K K K, A: 2, discard 9"


def _labelled(info):
    """The records of ``info``'s decision, by the label of their candidate."""
    rows, _left_out = candidate_array(info)
    return {c.label: r for c, r in zip(candidates(info), rows, strict=True)}


def test_a_play_decision_is_one_record_per_candidate_counted_by_hand():
    # HAND = K K K 2 5 5 5 9 (8 cards), the side has a canasta of aces: 26 candidates
    # (test_candidates). R-04 classic values: 5 = 5 points, K = 10, a deuce 20.
    info = position(HAND, CANASTA)
    rows, left_out = candidate_array(info)
    assert rows.dtype == CANDIDATE_DTYPE and (len(rows), left_out) == (26, 0)
    by_label = _labelled(info)
    r = by_label["meld K K K 2, discard 5"]  # 4 cards laid, 4 left; 3 * 10 + 20 points
    assert (r["kind"], r["way"], r["discard"]) == (CandKind.play, -1, kind_index("5"))
    assert (r["melded"], r["left"], r["points"]) == (4, 4, 50)
    assert r["plan"][kind_index("K")].tolist() == [3, 1, 0] and r["plan"].sum() == 4
    r = by_label[GO_OUT]  # 7 laid (15 + 30 + 20 points), the 9 left and discarded
    assert (r["melded"], r["left"], r["points"]) == (7, 1, 65)
    assert (r["going_out"], r["end_deal"], r["discard"]) == (True, False, kind_index("9"))
    # the empty plan (plan 0) first, with its four discards; plans in order after it
    assert rows["plan_index"][:5].tolist() == [0, 0, 0, 0, 1]
    assert (np.diff(rows["plan_index"]) >= 0).all()
    # every record: cards laid plus cards left is the hand; going out as R-40 says
    assert (rows["melded"] + rows["left"] == 8).all()
    out = (rows["left"] == 0) | ((rows["left"] == 1) & (rows["discard"] >= 0))
    assert (rows["going_out"] == out).all()


def test_a_draw_decision_lists_the_draw_then_each_pickup_way():
    # the side has a 9 meld and the pile (no wild card, not frozen, R-31) has a 9 on top:
    # the 9 goes onto the meld (R-33 c), or with 9 9, with 9 2, with 9 JK (R-32, R-33 a, b)
    info = position("9 9 2 JK 5 6 7", ["9 9 9"], pile="6 7 8 10 9", phase="draw")
    rows, left_out = candidate_array(info)
    labels = [c.label for c in candidates(info)]
    assert labels == [
        "draw",
        "take the pile onto the 9 meld",
        "take the pile with 9 9",
        "take the pile with 9 2",
        "take the pile with 9 JK",
    ]
    assert rows["kind"].tolist() == [CandKind.draw] + [CandKind.take] * 4
    assert rows["way"].tolist() == [-1, *PickupWay]
    assert rows["melded"].tolist() == [0, 0, 2, 2, 2]
    assert rows["left"].tolist() == [7, 7, 5, 5, 5]
    assert rows["points"].tolist() == [0, 0, 20, 30, 60]  # 9 = 10, deuce 20, joker 50
    assert (rows["discard"] == -1).all() and left_out == 0


def test_one_listing_kernel_call_per_decision(monkeypatch):
    calls = []
    real = choices.list_candidates_nb
    monkeypatch.setattr(choices, "list_candidates_nb", lambda *a: calls.append(1) or real(*a))
    deal = decision_deal(position(HAND, CANASTA))
    assert len(candidates(deal)) == 26 and calls == [1]


def test_texts_are_written_only_when_read(monkeypatch):
    written = []
    real = choices.plan_texts
    monkeypatch.setattr(choices, "plan_texts", lambda *a, **k: written.append(1) or real(*a, **k))
    found = candidates(position(HAND, CANASTA))
    kind, plan, discard = found[4].kernel_row(0)  # what the rollouts read
    assert (kind, discard, int(plan.sum())) == (CandKind.play, kind_index("9"), 7)
    assert found[4] in found and found[4].going_out and found[3].discard == "2"
    assert written == []
    assert found[4].label == GO_OUT and written == [1]
    assert found[4].melds == ("5 5 5", "K K K", "A: 2") and written == [1]  # written once


def test_a_candidate_from_texts_is_the_same_choice_as_the_layers():
    info = position(HAND, CANASTA)
    found = candidates(info)
    c = found[[x.label for x in found].index("meld K K K 2, discard 5")]
    same = Candidate("meld K K K 2, discard 5", "play", melds=("K K K 2",), discard="5")
    other = Candidate("meld K K K 2, discard 9", "play", melds=("K K K 2",), discard="9")
    assert c == same and hash(c) == hash(same) and c != other
    assert pickle.loads(pickle.dumps(c)) == c
    plan = np.zeros_like(c.plan)
    plan[kind_index("K")] = [3, 1, 0]
    assert play_candidate(plan, kind_index("5"), 4) == c  # left: 8 - 4 cards
    assert repr(c) == repr(same)
    # both make the same moves on the deal (its move kernels, R-60..R-64 checked)
    deal = decision_deal(info)
    for x in found:
        a, b = deal.copy(), deal.copy()
        x.apply(a)
        Candidate(x.label, x.move, x.with_, x.melds, x.discard, x.going_out, x.end_deal).apply(b)
        assert a.state.tobytes() == b.state.tobytes(), x.label


def test_a_record_applied_where_it_is_illegal_names_the_rule():
    # "meld K K K, discard 5" is legal beside the aces; a side without melds needs 50 points
    # for its initial meld, and K K K is 30
    found = candidates(position(HAND, CANASTA))
    c = found[[x.label for x in found].index("meld K K K, discard 5")]
    deal = decision_deal(position(HAND, []))
    before = deal.state.tobytes()
    with pytest.raises(IllegalMove) as err:
        c.apply(deal)
    assert err.value.rule == "R-64" and deal.state.tobytes() == before
