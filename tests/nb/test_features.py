"""The apprentice's features (canasta_sim/nb/bots/features.py): equal to a plain-Python
reference written from the feature table (docs/learned.md) on pinned decisions of 2, 3, 4 and
6 players, at both decisions of a turn; feature version 2's slots counted by hand on a built
position; unchanged when only cards hidden from the seat move."""

import numpy as np
import pytest

from canasta_sim.cards import (
    BLACK_THREE,
    DEUCE,
    FIRST_NATURAL,
    JOKER,
    KIND_COUNTS_108,
    LAST_NATURAL,
    RED_THREE,
    kind_index,
)
from canasta_sim.game.deals import Deal
from canasta_sim.game.rules import Rules
from canasta_sim.nb.bots.apprentice import decision_features_nb
from canasta_sim.nb.bots.features import (
    FEATURE_WIDTHS,
    N_CAND_FEAT,
    N_STATE_FEAT,
    CandFeat,
    StateFeat,
    feature_work,
)
from canasta_sim.nb.bots.memory import new_bot
from canasta_sim.nb.bots.search_candidates import (
    draw_candidates_nb,
    play_candidates_nb,
    search_work,
)
from canasta_sim.nb.enums import EV_LEN, N_KINDS, DealSlot, MeldCol, Phase, RuleSlot, SideSlot
from canasta_sim.nb.worlds import CandKind

NO_LOG = np.zeros((0, EV_LEN), np.int32)


# --- the plain-Python reference ----------------------------------------------------------------
def _side_points(s, r, side):
    v = r[RuleSlot.values : RuleSlot.values + N_KINDS]
    pts = 0
    for rank in range(BLACK_THREE, LAST_NATURAL + 1):
        n, d, j = (int(x) for x in s["melds"][side, rank])
        pts += n * v[rank] + d * v[DEUCE] + j * v[JOKER]
        if rank != BLACK_THREE and n + d + j >= 7:
            pts += r[RuleSlot.natural_canasta_bonus if d + j == 0 else RuleSlot.mixed_canasta_bonus]
    sd = s["sides"][side]
    red = r[
        RuleSlot.red_three_table
        + sd[SideSlot.r3_dealt]
        + sd[SideSlot.r3_drawn]
        + sd[SideSlot.r3_pile]
    ]
    return pts + (red if sd[SideSlot.melded] else -red)


def _threat(s, r, seat):
    sides, players = r[RuleSlot.sides], r[RuleSlot.players]
    need = r[RuleSlot.canastas_to_go_out]
    for side in range(sides):
        if side == r[RuleSlot.side_of + seat]:
            continue
        c = s["sides"][side, SideSlot.canastas]
        sizes = s["melds"][side].sum(axis=1)
        near = c >= need or (
            c == need - 1 and any(sizes[k] == 6 for k in range(FIRST_NATURAL, LAST_NATURAL + 1))
        )
        if near and any(s["hand_sizes"][p] <= 5 for p in range(side, players, sides)):
            return True
    return False


def _pile_memory(s, r):
    """(passed, discarded) rank sets of the next player: pile card i (above the upcards, or
    since the last pickup) came from the player n - i seats before the current one."""
    g, players = s["g"], r[RuleSlot.players]
    n = g[DealSlot.pile_len]
    base = g[DealSlot.upcard_cards] if n == g[DealSlot.upcard_cards] + g[DealSlot.turn] else 0
    passed, discarded = set(), set()
    for i in range(base, n):
        if (n - i) % players == (players - 1) % players:
            discarded.add(int(s["pile"][i]))
            if i > base:
                passed.add(int(s["pile"][i - 1]))
    return passed, discarded


def reference_state(s, r):
    g, seat = s["g"], int(s["g"][DealSlot.current])
    players, sides = r[RuleSlot.players], r[RuleSlot.sides]
    side = r[RuleSlot.side_of + seat]
    nxt = r[RuleSlot.next_seat + seat]
    nside = r[RuleSlot.side_of + nxt]
    n_cards = r[RuleSlot.n_cards]
    stock = n_cards - g[DealSlot.stock_pos]
    hs = s["hand_sizes"]
    partners = [hs[p] for p in range(players) if p != seat and p % sides == side]
    opps = [hs[p] for p in range(players) if p % sides != side]
    others = [o for o in range(sides) if o != side]
    f = np.zeros(N_STATE_FEAT)
    f[StateFeat.bias] = 1
    f[StateFeat.stock] = stock / n_cards
    f[StateFeat.hand] = hs[seat] / 15
    f[StateFeat.next_hand] = hs[nxt] / 15
    f[StateFeat.partner_hand] = (np.mean(partners) if partners else 0) / 15
    f[StateFeat.opp_hand_min] = min(opps) / 15
    f[StateFeat.pile] = g[DealSlot.pile_len] / 20
    f[StateFeat.frozen] = g[DealSlot.pile_freeze] > 0
    f[StateFeat.melded] = s["sides"][side, SideSlot.melded] != 0
    f[StateFeat.next_melded] = s["sides"][nside, SideSlot.melded] != 0
    f[StateFeat.canastas] = s["sides"][side, SideSlot.canastas] / 2
    f[StateFeat.opp_canastas] = max(s["sides"][o, SideSlot.canastas] for o in others) / 2
    f[StateFeat.table] = _side_points(s, r, side) / 1000
    f[StateFeat.opp_table] = max(_side_points(s, r, o) for o in others) / 1000
    f[StateFeat.minimum] = s["sides"][side, SideSlot.minimum] / 100
    f[StateFeat.score] = s["sides"][side, SideSlot.score] / 5000
    f[StateFeat.opp_score] = max(s["sides"][o, SideSlot.score] for o in others) / 5000
    f[StateFeat.wilds] = (s["hands"][seat, DEUCE] + s["hands"][seat, JOKER]) / 4
    f[StateFeat.threat] = _threat(s, r, seat)
    f[StateFeat.endgame] = stock <= 2 * r[RuleSlot.draw_count] * players
    f[StateFeat.can_out] = s["sides"][side, SideSlot.canastas] >= r[RuleSlot.canastas_to_go_out]
    f[StateFeat.next_known] = s["known"][nxt].sum() / 5
    f[StateFeat.play_phase] = g[DealSlot.phase] == 1
    f[StateFeat.turn] = g[DealSlot.turn] / 100
    _reference_state_v2(s, r, f)
    return f


def _reference_state_v2(s, r, f):
    """Feature version 2's state slots into ``f``: per held kind (black three .. joker) the own
    hand's, the pile's, the unseen (the pack's less every card whose place the seat knows), the
    next player's known and the other opponents' known cards; per natural rank what the next
    player passed on and discarded; the pile frozen for them; the previous hand's size."""
    g, seat = s["g"], int(s["g"][DealSlot.current])
    players, sides = r[RuleSlot.players], r[RuleSlot.sides]
    nxt, prev = (seat + 1) % players, (seat - 1) % players
    pack = KIND_COUNTS_108 * r[RuleSlot.n_cards] // 108
    known = s["known"][:players].astype(int)
    others = [p for p in range(players) if p != seat]
    opps = [p for p in others if p != nxt and p % sides != seat % sides]
    for k in range(BLACK_THREE, N_KINDS):
        hand, pile = int(s["hands"][seat, k]), int(s["pile_counts"][k])
        placed = hand + pile + int(s["melded"][k]) + sum(known[p, k] for p in others)
        f[StateFeat.hand_kinds + k - 1] = hand / 4
        f[StateFeat.pile_kinds + k - 1] = pile / 4
        f[StateFeat.unseen_kinds + k - 1] = max(int(pack[k]) - placed, 0) / 8
        f[StateFeat.next_known_kinds + k - 1] = known[nxt, k] / 2
        f[StateFeat.opp_known_kinds + k - 1] = sum(known[p, k] for p in opps) / 2
    passed, discarded = _pile_memory(s, r)
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
        f[StateFeat.next_passed + k - FIRST_NATURAL] = k in passed
        f[StateFeat.next_discarded + k - FIRST_NATURAL] = k in discarded
    next_side = s["sides"][nxt % sides]
    f[StateFeat.next_frozen] = g[DealSlot.pile_freeze] > 0 or next_side[SideSlot.melded] == 0
    f[StateFeat.prev_hand] = s["hand_sizes"][prev] / 15


def _take_chance(s, r, k):
    """Chance that the next player can take the pile with a natural ``k`` discarded (R-32,
    R-33): a pair of the unseen cards of the rank in their hand, or on an open pile one and a
    wild card; certain onto their side's meld of the rank on an open pile."""
    g, seat = s["g"], int(s["g"][DealSlot.current])
    nxt = r[RuleSlot.next_seat + seat]
    nside = r[RuleSlot.side_of + nxt]
    decks = r[RuleSlot.n_cards] // 54
    melded = s["sides"][nside, SideSlot.melded] != 0
    frozen = g[DealSlot.pile_freeze] > 0 or not melded
    if not frozen and s["melds"][nside, k, MeldCol.naturals] > 0:
        return 1.0
    u = 4 * decks - s["hands"][seat, k] - s["pile_counts"][k] - s["melded"][k]
    if u <= 0:
        return 0.0
    unknown = (
        r[RuleSlot.n_cards]
        - g[DealSlot.stock_pos]
        + sum(s["hand_sizes"][p] for p in range(r[RuleSlot.players]) if p != seat)
    )
    q = min(s["hand_sizes"][nxt] / unknown, 1.0)
    wilds = 0
    for w in (DEUCE, JOKER):
        pack = (2 if w == JOKER else 4) * decks
        wilds += max(pack - s["hands"][seat, w] - s["pile_counts"][w] - s["melded"][w], 0)
    p_wild = 1 - (1 - q) ** wilds
    p0 = (1 - q) ** u
    p1 = u * q * (1 - q) ** (u - 1)
    p = (1 - p0 - p1) + (0 if frozen else p1 * p_wild)
    if not melded:
        p *= 0.5
    passed, discarded = _pile_memory(s, r)
    if k in passed:
        p *= 0.25
    elif k in discarded:
        p *= 0.5
    return p


def reference_candidate(s, r, kind, plan, discard):
    g, seat = s["g"], int(s["g"][DealSlot.current])
    side = r[RuleSlot.side_of + seat]
    nxt = r[RuleSlot.next_seat + seat]
    v = r[RuleSlot.values : RuleSlot.values + N_KINDS]
    plen = g[DealSlot.pile_len]
    stock = (r[RuleSlot.n_cards] - g[DealSlot.stock_pos]) / r[RuleSlot.n_cards]
    endgame = (
        r[RuleSlot.n_cards] - g[DealSlot.stock_pos]
        <= 2 * r[RuleSlot.draw_count] * r[RuleSlot.players]
    )
    laid_rows = plan.astype(int).copy()
    if kind == CandKind.take:
        laid_rows[s["pile"][plen - 1], MeldCol.naturals] += 1  # the top card
    f = np.zeros(N_CAND_FEAT)
    laid = int(plan.sum())
    points = sum(
        laid_rows[k, 0] * v[k] + laid_rows[k, 1] * v[DEUCE] + laid_rows[k, 2] * v[JOKER]
        for k in range(N_KINDS)
    )
    for k in np.flatnonzero(laid_rows.sum(axis=1)):
        before = int(s["melds"][side, k].sum())
        after = before + laid_rows[k].sum()
        wild = s["melds"][side, k, 1:].sum() + laid_rows[k, 1:].sum()
        f[CandFeat.new_melds] += before == 0
        if k != BLACK_THREE and before < 7 <= after:
            f[CandFeat.natural_made if wild == 0 else CandFeat.mixed_made] += 1
        elif 4 <= after <= 6:
            f[CandFeat.closer] += 1
    left = s["hand_sizes"][seat] - laid
    if kind == CandKind.draw:
        f[CandFeat.draw] = 1
        left += r[RuleSlot.draw_count]
    elif kind == CandKind.take:
        pc = s["pile_counts"]
        f[CandFeat.take] = 1
        left += plen - 1 - pc[RED_THREE]
        f[CandFeat.pile_taken] = plen / 20
        f[CandFeat.pile_points] = sum(pc[k] * v[k] for k in range(1, N_KINDS)) / 100
        f[CandFeat.pile_wilds] = (pc[DEUCE] + pc[JOKER]) / 2
        f[CandFeat.pile_frozen] = plen / 20 if g[DealSlot.pile_freeze] > 0 else 0
    else:
        f[CandFeat.hold] = laid == 0
        if discard >= 0:
            left -= 1
            f[CandFeat.handed] = (plen + 1) / 20
            f[CandFeat.discard_points] = v[discard] / 50
            f[CandFeat.next_known] = s["known"][nxt, discard] > 0
            if discard in (DEUCE, JOKER):
                f[CandFeat.wild_discard] = 1
                f[CandFeat.freezes] = g[DealSlot.pile_freeze] == 0
            elif discard == BLACK_THREE:
                f[CandFeat.black_three] = 1
            else:
                p = _take_chance(s, r, discard)
                f[CandFeat.danger] = p
                f[CandFeat.danger_handed] = p * (plen + 1) / 20
                f[CandFeat.pair_break] = s["hands"][seat, discard] - plan[discard, 0] >= 2
                f[CandFeat.next_meld] = s["melds"][r[RuleSlot.side_of + nxt], discard, 0] > 0
                f[CandFeat.passed] = discard in _pile_memory(s, r)[0]
        f[CandFeat.going_out] = left == 0
    initial = s["sides"][side, SideSlot.melded] == 0 and laid_rows.sum() > 0
    f[CandFeat.laid] = laid / 10
    f[CandFeat.left] = left / 15
    f[CandFeat.points] = points / 100
    f[CandFeat.wilds_spent] = plan[:, 1:].sum() / 2
    f[CandFeat.initial] = initial
    f[CandFeat.stock_left] = stock * left / 15
    f[CandFeat.endgame_left] = endgame * left / 15
    f[CandFeat.initial_minimum] = s["sides"][side, SideSlot.minimum] / 100 if initial else 0
    f[CandFeat.points_stock] = points / 100 * stock
    _reference_candidate_v2(s, kind, plan, discard, f)
    return f


def _reference_candidate_v2(s, kind, plan, discard, f):
    """Feature version 2's candidate slots into ``f``: the cards laid from hand per kind (wild
    cards of every row together), the discard's kind, and the natural ranks with two cards or
    more and with one card in hand after the move (a pickup adds the pile but its top card,
    which is melded)."""
    g, seat = s["g"], int(s["g"][DealSlot.current])
    laid = plan[:, 0].astype(int)  # the naturals of each row are of the row's kind
    laid[DEUCE] += plan[:, 1].sum()
    laid[JOKER] += plan[:, 2].sum()
    after = s["hands"][seat].astype(int) - plan[:, 0]
    if kind == CandKind.take:
        after += s["pile_counts"]
        after[s["pile"][g[DealSlot.pile_len] - 1]] -= 1
    if discard >= 0:
        f[CandFeat.discard_kinds + discard - 1] = 1
        after[discard] -= 1
    f[CandFeat.laid_kinds : CandFeat.laid_kinds + N_KINDS - 1] = laid[1:] / 4
    naturals = after[FIRST_NATURAL : LAST_NATURAL + 1]
    f[CandFeat.pairs_left] = (naturals >= 2).sum() / 5
    f[CandFeat.singles_left] = (naturals == 1).sum() / 5


# --- pinned decisions ---------------------------------------------------------------------
def _decisions(players, preset="classic", seed=3, deal=1, scores=None):
    """Every decision with two candidates or more of an expert deal: (state copy, rules
    array, candidate kinds, plans, discards)."""
    d = Deal.new(Rules.preset(preset, players), seed=seed, deal=deal, scores=scores)
    r = d.rules.to_array()
    out = []
    rstates, works = search_work(1)
    rstate, work = rstates[0], works[0]
    bot = new_bot()
    while not d.is_over:
        s = d.state
        if d.phase == "draw":
            n = draw_candidates_nb(s, r, work)
        else:
            rparams = work["rparams"][:0]  # the expert's defaults
            n = play_candidates_nb(s, r, bot, rparams, rstate, work, np.int64(3), NO_LOG)
        if n > 1:
            out.append(
                (
                    s.copy(),
                    r,
                    work["kind"][:n].copy(),
                    work["plans"][:n].copy(),
                    work["discard"][:n].copy(),
                )
            )
        if d.phase == "draw" and d.stock_size > 0 and not (n > 1 and d.turns % 2 == 0):
            d.draw()  # the play decision of the same turn next (the expert takes some piles)
        else:
            d.play_turn("expert")
    return out


def _kernel_features(s, r, kinds, plans, discards):
    work = search_work(1)[1][0]
    fwork = feature_work(1)[0]
    n = len(kinds)
    work["kind"][:n], work["plans"][:n], work["discard"][:n] = kinds, plans, discards
    decision_features_nb(s, r, work, fwork, np.int64(n), np.int64(0))
    return fwork["state"].copy(), fwork["cands"][:n].copy()


@pytest.mark.parametrize(
    "players,preset", [(2, "classic"), (3, "hoyle"), (4, "classic"), (4, "hoyle"), (6, "classic")]
)
def test_features_equal_reference(players, preset):
    decisions = _decisions(players, preset, scores={0: 3100, 1: 1600})
    assert len(decisions) >= 10
    phases = set()
    for s, r, kinds, plans, discards in decisions:
        state_f, cand_f = _kernel_features(s, r, kinds, plans, discards)
        np.testing.assert_allclose(state_f, reference_state(s, r), rtol=1e-6, atol=1e-6)
        for c in range(len(kinds)):
            want = reference_candidate(s, r, kinds[c], plans[c], discards[c])
            np.testing.assert_allclose(
                cand_f[c], want, rtol=1e-5, atol=1e-6, err_msg=f"candidate {c}"
            )
        phases.add(int(s["g"][DealSlot.phase]))
    assert phases == {0, 1}  # both decisions of a turn were checked


def _by_card(start, values, width=N_KINDS - 1, first=BLACK_THREE):
    """A block of ``width`` slots (kind ``first`` in its first) holding ``values``, a mapping
    of card names (``"7"``, ``"JK"``) to slot values; the other slots 0."""
    out = np.zeros(width)
    for card, value in values.items():
        out[kind_index(card) - first] = value
    return start, out


def test_version_2_slots_counted_by_hand():
    """4 players, seat 0 to draw (turn 10, so the pile's cards are discards): hand 7 7 9 K 2,
    pile 9 6 JK 7 (7 on top; frozen by the joker, R-31), side 0's meld K K K, side 1's
    A A A 2; seat 1 (next) holds 5 5 Q, known 5 5 Q; seat 2 (partner) 4 4 4, known one 4;
    seat 3 (previous, 6 cards) 8 8 J J 6 10, known J J. Each slot of feature version 2 counted
    from the rules: the pack has 8 of each natural rank and deuce, 4 black threes and jokers
    (R-01); the 9 was on top when seat 1 played (passed), the 6 is their discard."""
    d = Deal.from_position(
        Rules.preset("classic", 4),
        hands=["7 7 9 K 2", "5 5 Q", "4 4 4", "8 8 J J 6 10"],
        stock="4 5 6",
        pile="9 6 JK 7",
        melds={0: ["K K K"], 1: ["A A A 2"]},
    )
    s, r = d.state.copy(), d.rules.to_array()
    s["g"][DealSlot.turn], s["g"][DealSlot.upcard_cards] = 10, 1
    for seat, card, n in ((1, "5", 2), (1, "Q", 1), (2, "4", 1), (3, "J", 2)):
        s["known"][seat, kind_index(card)] = n
    plans = np.zeros((4, N_KINDS, 3), np.int8)
    seven, nine, king = kind_index("7"), kind_index("9"), kind_index("K")
    plans[1, seven] = [2, 0, 0]  # take the pile with 7 7
    plans[2, king] = [1, 1, 0]  # lay K 2 on the kings
    plans[3, seven] = [2, 1, 0]  # meld 7 7 2
    kinds = np.array([CandKind.draw, CandKind.take, CandKind.play, CandKind.play], np.int64)
    discards = np.array([-1, -1, seven, nine], np.int64)
    state_f, cand_f = _kernel_features(s, r, kinds, plans, discards)
    unseen = {"B3": 4, "4": 7, "5": 6, "6": 7, "7": 5, "8": 8, "9": 6, "10": 8, "J": 6}
    unseen |= {"Q": 7, "K": 4, "A": 5, "2": 6, "JK": 3}
    naturals = dict(width=LAST_NATURAL - FIRST_NATURAL + 1, first=FIRST_NATURAL)
    for start, want in (
        _by_card(StateFeat.hand_kinds, {"7": 2 / 4, "9": 1 / 4, "K": 1 / 4, "2": 1 / 4}),
        _by_card(StateFeat.pile_kinds, {"9": 1 / 4, "6": 1 / 4, "JK": 1 / 4, "7": 1 / 4}),
        _by_card(StateFeat.unseen_kinds, {k: n / 8 for k, n in unseen.items()}),
        _by_card(StateFeat.next_known_kinds, {"5": 2 / 2, "Q": 1 / 2}),
        _by_card(StateFeat.opp_known_kinds, {"J": 2 / 2}),  # not the partner's 4
        _by_card(StateFeat.next_passed, {"9": 1}, **naturals),
        _by_card(StateFeat.next_discarded, {"6": 1}, **naturals),
    ):
        np.testing.assert_allclose(state_f[start : start + len(want)], want, err_msg=str(start))
    assert state_f[StateFeat.next_frozen] == 1
    assert state_f[StateFeat.prev_hand] == np.float32(6 / 15)
    laid = [{}, {"7": 2 / 4}, {"K": 1 / 4, "2": 1 / 4}, {"7": 2 / 4, "2": 1 / 4}]
    discarded = [{}, {}, {"7": 1}, {"9": 1}]
    # left in hand: 7 7 9 K; 9 9 K 6 (2 JK taken, 7 7 melded with the top 7); 7 9; K
    pairs_singles = [(1, 2), (1, 2), (0, 2), (0, 1)]
    for c in range(4):
        f = cand_f[c]
        for start, want in (
            _by_card(CandFeat.laid_kinds, laid[c]),
            _by_card(CandFeat.discard_kinds, discarded[c]),
        ):
            np.testing.assert_allclose(f[start : start + len(want)], want, err_msg=f"{c} {start}")
        pairs, singles = pairs_singles[c]
        assert (f[CandFeat.pairs_left], f[CandFeat.singles_left]) == (
            np.float32(pairs / 5),
            np.float32(singles / 5),
        ), c
        want = reference_candidate(s, r, kinds[c], plans[c], discards[c])
        np.testing.assert_allclose(f, want, rtol=1e-6, atol=1e-7, err_msg=f"candidate {c}")
    np.testing.assert_allclose(state_f, reference_state(s, r), rtol=1e-6, atol=1e-7)


def test_version_2_appends_to_version_1():
    """The slots of version 1 come first (a version-1 network reads them where it did), and the
    named slots and blocks of version 2 tile the rest without a gap or an overlap."""
    assert FEATURE_WIDTHS == {1: (24, 32), 2: (N_STATE_FEAT, N_CAND_FEAT)}
    assert (StateFeat.turn, CandFeat.points_stock) == (23, 31)
    assert N_CAND_FEAT <= 64  # sparse_affine_nb's mask
    blocks = {"next_passed": 11, "next_discarded": 11}  # one slot per natural rank, 4 .. A
    kinds = ("hand", "pile", "unseen", "next_known", "opp_known", "laid", "discard")
    blocks |= {f"{name}_kinds": N_KINDS - 1 for name in kinds}  # per kind but the red three
    for table, width in ((StateFeat, N_STATE_FEAT), (CandFeat, N_CAND_FEAT)):
        slots = list(table._asdict().items())
        ends = [start + blocks.get(name, 1) for name, start in slots]
        assert [start for _, start in slots[1:]] == ends[:-1]
        assert ends[-1] == width


def _shuffle_hidden(s, r, rng):
    """A copy of ``s`` whose cards hidden from the current seat (other hands' cards not known
    to all, the stock below its top; red threes stay where they are) are dealt anew."""
    t = s.copy()
    seat = int(t["g"][DealSlot.current])
    players = r[RuleSlot.players]
    pos = int(t["g"][DealSlot.stock_pos])
    stock_idx = [i for i in range(pos, r[RuleSlot.n_cards]) if t["stock"][i] != RED_THREE]
    pool = [int(t["stock"][i]) for i in stock_idx]
    sizes = {}
    for p in range(players):
        if p == seat:
            continue
        free = t["hands"][p] - t["known"][p]
        sizes[p] = int(free.sum())
        for k in range(N_KINDS):
            pool += [k] * int(free[k])
        t["hands"][p] = t["known"][p]
    rng.shuffle(pool)
    q = 0
    for p, n in sizes.items():
        for k in pool[q : q + n]:
            t["hands"][p, k] += 1
        q += n
    for i, k in zip(stock_idx, pool[q:]):
        t["stock"][i] = k
    return t


@pytest.mark.parametrize("players", [2, 4, 6])
def test_hidden_cards_do_not_change_features(players):
    rng = np.random.default_rng(5)
    changed = 0
    known = 0
    decisions = _decisions(players, seed=8)[::3] + _decisions(players, seed=9)[::3]
    for s, r, kinds, plans, discards in decisions:  # seed 9: a 2-player pile taken early
        t = _shuffle_hidden(s, r, rng)
        changed += int((t["hands"] != s["hands"]).any())
        a = _kernel_features(s, r, kinds, plans, discards)
        b = _kernel_features(t, r, kinds, plans, discards)
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[1], b[1])
        known += int(a[0][StateFeat.next_known_kinds : StateFeat.next_passed].any())
    assert changed > 0
    assert known > 0  # cards known in other hands (kept in place) were read


@pytest.mark.parametrize("players", [2, 4])
def test_the_learned_fallback_plays_the_expert_melds_and_discard(players):
    """With no candidate, the learned bot's play (play_candidate_nb) is the expert's melds and
    discard: its discard the first of the expert's ranking, not choose_discard_nb's call, gives
    the same state, move for move (R-20 steps 2 and 3)."""
    from canasta_sim.nb.bots.apprentice import play_candidate_nb
    from canasta_sim.nb.bots.expert import expert_discard_nb, expert_melds_nb
    from canasta_sim.nb.bots.policies import EXPERT_DEFAULTS
    from canasta_sim.nb.engine.state import STATE_DTYPE

    work = search_work(1)[1][0]
    rparams = work["rparams"]
    rparams[: len(EXPERT_DEFAULTS)] = EXPERT_DEFAULTS
    discarded = 0
    for s, r, _, _, _ in _decisions(players, seed=8):
        if s["g"][DealSlot.phase] != Phase.play or s["g"][DealSlot.last_red_three] != 0:
            continue  # a draw decision; R-45's end is not a discard
        learned, expert = np.zeros(2, STATE_DTYPE), np.zeros(2, STATE_DTYPE)
        learned[0] = expert[0] = s
        play_candidate_nb(learned[0], r, new_bot(), work, np.int64(0), np.int64(0), NO_LOG)
        expert_melds_nb(expert[0], r, new_bot(), rparams, NO_LOG)
        if expert[0]["g"][DealSlot.phase] == Phase.play:
            expert_discard_nb(expert[0], r, new_bot(), rparams, NO_LOG)
        assert learned[0].tobytes() == expert[0].tobytes()
        discarded += int(expert[0]["g"][DealSlot.pile_len] > s["g"][DealSlot.pile_len])
    assert discarded > 3  # discards were compared, not only melds that went out


@pytest.mark.parametrize("players", [2, 4, 6])
def test_ranked_discards_repeat_the_expert_choice(players):
    """ranked_discards_nb (pimc's and the apprentice's discard candidates, one pass) gives the
    kinds choose_discard_nb gives when asked again with each choice taken out of the hand:
    after a wild card on a pile open to the next player the scores change (the chance that
    they hold a wild card counts the own hand's), on a pile frozen for them they do not."""
    from canasta_sim.nb.bots.discards import choose_discard_nb, ranked_discards_nb

    seen_wild = {False: 0, True: 0}  # by whether the pile is frozen for the next player
    # seed 7: 2-player rankings that change after a wild card on an open pile
    for s, r, _, _, _ in _decisions(players, seed=6) + _decisions(players, seed=7):
        seat = int(s["g"][DealSlot.current])
        nside = r[RuleSlot.side_of + r[RuleSlot.next_seat + seat]]
        frozen = bool(s["g"][DealSlot.pile_freeze] > 0 or s["sides"][nside, SideSlot.melded] == 0)
        for safety, block_at, freeze_risk in ((90.82, 40, 0.263), (200.0, 0, 0.0)):
            got = np.zeros(N_KINDS, np.int64)
            vals = np.zeros(N_KINDS)
            args = (np.float64(safety), np.int64(block_at), np.float64(freeze_risk), np.int64(0))
            n = ranked_discards_nb(s, r, new_bot(), seat, *args, 0.6, np.int64(6), got, vals)
            t = s.copy()
            want = []
            while len(want) < 6:
                k = choose_discard_nb(t, r, new_bot(), np.int64(seat), *args, 0.6)
                if k < 0:
                    break
                want.append(int(k))
                t["hands"][seat, k] = 0
            assert list(got[:n]) == want
            seen_wild[frozen] += any(k in (DEUCE, JOKER) for k in want[:-1])
    # a wild card chosen before other kinds was checked on open and on frozen piles
    assert seen_wild[False] > 0
    assert seen_wild[True] > 0
