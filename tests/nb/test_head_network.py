"""A head network's play decision (canasta_sim/nb/bots/apprentice.py): its output rows by the
rule, its candidates counted by hand on built positions, its scores equal to the trainer's
formula over the candidate features of the same candidates (the kernel's terms are the
trainer's features), and ``candidate_scores`` (analyse's learned column) with a head network."""

import numpy as np
import pytest
from search_positions import position

from canasta_sim.cards import kind_index
from canasta_sim.game.deals import Deal
from canasta_sim.game.rules import Rules
from canasta_sim.nb.bots.apprentice import (
    HEAD_TERMS,
    NetSlot,
    head_candidates_nb,
    head_row_nb,
    head_scores_nb,
)
from canasta_sim.nb.bots.expert import ExpertMeld
from canasta_sim.nb.bots.features import HELD_KINDS, feature_work, state_features_nb
from canasta_sim.nb.bots.learned_calls import candidate_features, candidate_scores
from canasta_sim.nb.bots.memory import new_bot
from canasta_sim.nb.bots.policies import ApprenticeParam
from canasta_sim.nb.bots.search_candidates import N_EXPERT, search_work
from canasta_sim.nb.enums import N_KINDS, DealSlot, Phase
from canasta_sim.nb.worlds import CandKind
from canasta_sim.players.specs import parse_bot
from canasta_sim.players.weights import HEAD_PARTS, pack


def _head_net(seed: int) -> np.ndarray:
    """A packed head network of random parts (``NetSlot.head`` 1)."""
    gen = np.random.default_rng(seed)
    parts = {k: gen.standard_normal(s).astype(np.float32) for k, s in HEAD_PARTS.items()}
    return pack(parts), parts


def _rparams(players: int) -> np.ndarray:
    """The apprentice's candidate expert's parameters at ``players`` players."""
    v = parse_bot("apprentice").vector(players)
    start = ApprenticeParam.expert
    return np.ascontiguousarray(v[start : start + N_EXPERT])


def _candidates(s, r, players: int):
    """(n, melds, which, plan, discards) of :func:`head_candidates_nb` at ``s``."""
    bot, work = new_bot(), search_work(1)[1][0]
    n, melds, which = head_candidates_nb(s, r, bot, _rparams(players), work)
    plan = bot["out_plan"] if which == ExpertMeld.out else bot["meld_plan"]
    return n, melds, which, plan.copy(), work["discard"][:n].copy()


def _play(d: Deal):
    """``d``'s state at the play decision of its current seat (phase set to play: the
    position is built at the draw)."""
    s = d.state.copy()
    s["g"][DealSlot.phase] = Phase.play
    return s, d.rules.to_array()


def test_head_rows_are_the_rule():
    """Row ``15 hold + d``: ``d`` the discard's place among the kinds held (black three 0 ..
    joker 13), 14 going out (no discard)."""
    assert HELD_KINDS == 14
    b3, seven, joker = kind_index("B3"), kind_index("7"), kind_index("JK")
    assert head_row_nb(0, b3) == 0
    assert head_row_nb(0, seven) == seven - b3 == 4
    assert head_row_nb(0, joker) == 13
    assert head_row_nb(0, -1) == 14
    assert head_row_nb(1, b3) == 15
    assert head_row_nb(1, joker) == 28


def test_without_a_meld_the_candidates_are_the_kinds_held():
    """Side 0 has not melded and 7 9 K B3 5 5 reaches no initial meld (R-21): no meld plan,
    one candidate per kind held, in kind order: B3 5 7 9 K."""
    d = Deal.from_position(
        Rules.preset("classic", 4),
        hands=["7 9 K B3 5 5", "4 4 4", "6 6 6", "8 8 8"],
        stock="4 5 6",
        pile="10 J",
    )
    s, r = _play(d)
    n, melds, which, _, discards = _candidates(s, r, 4)
    assert (n, melds, which) == (5, 0, ExpertMeld.none)
    assert discards.tolist() == [kind_index(c) for c in ("B3", "5", "7", "9", "K")]


def test_with_a_meld_plan_the_kinds_left_after_it_come_first():
    """Side 0 has melded K K K: the expert lays 7 7 7 (its plan), leaving 9 Q Q; the
    candidates are the kinds left after the plan (9, Q), then every kind held (7, 9, Q)."""
    d = Deal.from_position(
        Rules.preset("classic", 4),
        hands=["7 7 7 9 Q Q", "4 4 4", "6 6 6", "8 8 8"],
        stock="4 5 6",
        pile="10 J",
        melds={0: ["K K K"]},
    )
    s, r = _play(d)
    n, melds, which, plan, discards = _candidates(s, r, 4)
    seven, nine, queen = kind_index("7"), kind_index("9"), kind_index("Q")
    want = np.zeros((N_KINDS, 3), np.int8)
    want[seven] = [3, 0, 0]
    np.testing.assert_array_equal(plan, want)
    assert (n, melds, which) == (5, 2, ExpertMeld.melds)
    assert discards.tolist() == [nine, queen, seven, nine, queen]


def _play_decisions(players: int, seed: int):
    """The play decisions of an expert deal: (state copy, rules array)."""
    d = Deal.new(Rules(players=players), seed)
    r = d.rules.to_array()
    out = []
    while not d.is_over:
        if d.phase == "draw" and d.stock_size > 0:
            d.draw()
            out.append((d.state.copy(), r))
        d.play_turn("expert")
    return out


def test_head_scores_are_the_trainers_formula():
    """On every play decision of a 2-player expert deal, each candidate's score is
    ``head_U[r] . relu(A s + b1) + head_b[r] + head_w[g] . c[HEAD_TERMS]``, computed here from
    the state features and the candidate features (``candidate_features``) of the same
    candidates: the kernel's terms are the trainer's features. Decisions with the melds'
    rows and with going out's are among them."""
    net, parts = _head_net(7)
    fwork, work = feature_work(1)[0], search_work(1)[1][0]
    seen_melds = 0
    for s, r in _play_decisions(2, 11):
        bot = new_bot()
        n, melds, which = head_candidates_nb(s, r, bot, _rparams(2), work)
        plan = (bot["out_plan"] if which == ExpertMeld.out else bot["meld_plan"]).copy()
        discards = work["discard"][:n].copy()
        best = head_scores_nb(s, r, net, plan, work, fwork, np.int64(n), np.int64(melds))
        got = fwork["scores"][:n].copy()
        seen_melds += melds > 0

        state_features_nb(s, r, fwork, np.int64(net[NetSlot.skips]))
        sf = fwork["state"].astype(np.float64)
        plans = np.zeros((n, N_KINDS, 3), np.int8)
        plans[:melds] = plan
        kinds = np.full(n, CandKind.play, np.int64)
        cf = candidate_features(s, r, kinds, plans, discards).astype(np.float64)
        hidden = np.maximum(parts["A"] @ sf + parts["b1"], 0.0)
        b3 = kind_index("B3")
        rows = [
            (HELD_KINDS + 1) * (c >= melds) + (d - b3 if d >= 0 else HELD_KINDS)
            for c, d in enumerate(discards)
        ]
        want = [
            parts["head_U"][row] @ hidden
            + parts["head_b"][row]
            + parts["head_w"][int(c >= melds)] @ cf[c, list(HEAD_TERMS)]
            for c, row in enumerate(rows)
        ]
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)
        assert best == int(np.argmax(got))
    assert seen_melds >= 2


def test_candidate_scores_of_a_head_network():
    """analyse's learned column with a head network: at a play decision the head's candidates
    (kind play; the expert's plan for the first ``melds``, an all-zero plan for the others)
    and its scores; at a draw decision none (the expert draws)."""
    net, _ = _head_net(3)
    params = parse_bot("apprentice").vector(4)
    d = Deal.from_position(
        Rules.preset("classic", 4),
        hands=["7 7 7 9 Q Q", "4 4 4", "6 6 6", "8 8 8"],
        stock="4 5 6",
        pile="10 J",
        melds={0: ["K K K"]},
    )
    kinds, plans, discards, scores = candidate_scores(d.state, d.rules.to_array(), params, net)
    assert (len(kinds), len(plans), len(discards), len(scores)) == (0, 0, 0, 0)
    assert plans.shape == (0, N_KINDS, 3) and scores.dtype == np.float32
    s, r = _play(d)
    kinds, plans, discards, scores = candidate_scores(s, r, params, net)
    assert kinds.tolist() == [CandKind.play] * 5
    seven = kind_index("7")
    assert plans[:2, seven, 0].tolist() == [3, 3] and plans[:2].sum() == 6
    assert not plans[2:].any()
    assert discards.tolist() == [kind_index(c) for c in ("9", "Q", "7", "9", "Q")]
    n, melds, which, plan, _ = _candidates(s, r, 4)
    fwork, work = feature_work(1)[0], search_work(1)[1][0]
    work["discard"][:n] = discards
    head_scores_nb(s, r, net, plan, work, fwork, np.int64(n), np.int64(melds))
    np.testing.assert_array_equal(scores, fwork["scores"][:n])


def test_analyses_learned_column_with_a_head_network():
    """At the draw decision every candidate's learned value is NaN (the expert draws for a
    head network); at the play decision a candidate holding the melds and discarding a kind
    shows the head's score of it, one the head does not generate NaN."""
    from canasta_sim.players.choices import candidates
    from canasta_sim.search.analysis import kernel_rows, learned_scores

    net, _ = _head_net(5)
    params = parse_bot("apprentice").vector(4)
    d = position(4, 0, 18)  # a draw decision with a pickup to weigh
    info = d.info_set(d.current_player)
    cands = candidates(info)
    got = learned_scores(info, cands, params, net)
    assert len(got) == len(cands) >= 2 and np.isnan(got).all()
    d.draw()
    info = d.info_set(d.current_player)
    cands = candidates(info)
    got = learned_scores(info, cands, params, net)
    kinds, plans, discards, scores = candidate_scores(d.state, d.rules.to_array(), params, net)
    # the head's candidates holding the melds, by the kind discarded
    held = {int(k): float(v) for p, k, v in zip(plans, discards, scores) if not p.any()}
    checked = 0
    for (kind, plan, discard), value in zip(kernel_rows(info, cands), got):
        if kind == CandKind.play and not np.asarray(plan).any() and int(discard) in held:
            assert value == pytest.approx(held[int(discard)])
            checked += 1
    assert checked == len(held) >= 4  # every kind held, each discarded holding the melds
