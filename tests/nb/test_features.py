"""The apprentice's features (canasta_sim/nb/bots/features.py): equal to a plain-Python
reference written from the feature table (docs/learned.md) on pinned decisions of 2, 3, 4 and
6 players, at both decisions of a turn; unchanged when only cards hidden from the seat move."""

import numpy as np
import pytest

from canasta_sim.cards import BLACK_THREE, DEUCE, FIRST_NATURAL, JOKER, LAST_NATURAL, RED_THREE
from canasta_sim.game.deals import Deal
from canasta_sim.game.rules import Rules
from canasta_sim.nb.bots.apprentice import decision_features_nb
from canasta_sim.nb.bots.features import (
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
from canasta_sim.nb.enums import EV_LEN, N_KINDS, DealSlot, MeldCol, RuleSlot, SideSlot
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
    return f


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
    return f


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
    decision_features_nb(s, r, work, fwork, np.int64(n))
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
    for s, r, kinds, plans, discards in _decisions(players, seed=8)[::3]:
        t = _shuffle_hidden(s, r, rng)
        changed += int((t["hands"] != s["hands"]).any())
        a = _kernel_features(s, r, kinds, plans, discards)
        b = _kernel_features(t, r, kinds, plans, discards)
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[1], b[1])
    assert changed > 0


@pytest.mark.parametrize("players", [2, 4, 6])
def test_ranked_discards_repeat_the_expert_choice(players):
    """ranked_discards_nb (pimc's and the apprentice's discard candidates, one pass) gives the
    kinds choose_discard_nb gives when asked again with each choice taken out of the hand."""
    from canasta_sim.nb.bots.discards import choose_discard_nb, ranked_discards_nb

    seen_wild = 0
    for s, r, _, _, _ in _decisions(players, seed=6):
        seat = int(s["g"][DealSlot.current])
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
            seen_wild += any(k in (DEUCE, JOKER) for k in want[:-1])
    assert seen_wild > 0  # a wild card chosen before other kinds was checked
