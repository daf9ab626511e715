"""Pilot of luck-adjusted results: how much of a deal's score difference the stock draws
explain under candidate value functions, to choose the value's inputs (docs/luck.md).

Every card taken from the stock (a draw, a red-three replacement) is a chance event: given
everything but the stock's order, the card is uniform over the stock's remaining cards. For a
value ``v`` of the state, the event's term is ``v(after the card) - sum_k p_k v(after kind
k)``, ``p_k`` the stock's share of kind ``k``; its expectation is 0 whatever the bots do (they
are deterministic functions of what they see), so a deal's score difference minus its summed
terms keeps the mean and loses the luck ``v`` explains. The upcard and the deal have no term
(no candidate ``v`` reads the pile's top card or the dealt hands' luck).

The candidates are linear in state terms of the drawing seat's side, so ``v(after kind k)``
minus ``v(before)`` is one column per kind, ``g(state, k) . w``; ``v`` is antisymmetric
(a side's value minus the mean of the others'), so an event of side ``s`` adds ``+g`` to the
value of side ``s``'s bot and ``-g / (sides - 1)`` to another side's. A deal's terms are then
``w . X`` with ``X`` the sum over its events of ``g(actual) - sum_k p_k g(k)``, and ``w`` is
fitted by least squares of the deal's score difference on ``X`` over the deals of the fit
seed (both pairings pooled, intercept apart), then fixed. The evaluation seed plays
seat-rotated duplicate boards as ``compare`` does (:func:`canasta_sim.run.compare.rotations`),
one deal at a time through :class:`canasta_sim.Deal` with its trace, which the referee's
:class:`~canasta_sim.referee.Replay` walks to read the state before every stock card.

Candidates of the whole position (pilot step 2), their terms computed as the deal is played
(:func:`play_turns`), every kind's ``v(after kind k)`` evaluated in full: ``value9`` is the
shipped weights' value output (bots version 9) read from every seat's observation, signed
for side A and averaged over the seats; ``full`` is a network of the whole position (every
hand, the melds, the pile and the stock's multiset, never its order; antisymmetric between
the 2 sides) fitted with scikit-learn's MLPRegressor on the positions and outcomes of the
label shards in ``/work/runs/l4`` and ``l2`` (seeds 7001 and 7002). A red three drawn counts
as laid out (its replacement is an event of its own); every kind's state is read as at the
drawing seat's play decision. ``-fit`` weights them by least squares on the fit seed.

What there is to remove: each board is played again from its position after the red-three
setup with random orders of its stock below its top ``kept`` cards (written into the deal's
state through :attr:`canasta_sim.Deal.view`), every rotation with the same order. The spread
of a board's difference over the orders is the luck of those cards, which an ideal ``v`` (the
bots' own expected result of each position) would remove; its share of the board variance
``s`` gives the ideal factor ``1 / (1 - s)``.

Run: ``python benchmarks/luck_pilot.py [--quick]``; writes ``results/bench/luck_pilot.csv``
and ``luck_pilot.md``.
"""

import argparse
import itertools
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import write_table  # noqa: E402

from canasta_sim import Deal, Rules  # noqa: E402
from canasta_sim.cards import BLACK_THREE, DEUCE, JOKER, N_KINDS, RED_THREE, kind_index  # noqa: E402
from canasta_sim.nb.bots.apprentice import position_value_nb  # noqa: E402
from canasta_sim.nb.bots.features import feature_work, state_features_nb  # noqa: E402
from canasta_sim.nb.engine.state import STATE_DTYPE  # noqa: E402
from canasta_sim.nb.enums import DealSlot, Phase, RuleSlot, SideSlot  # noqa: E402
from canasta_sim.nb.jit import kernel  # noqa: E402
from canasta_sim.players.pybot import seated  # noqa: E402
from canasta_sim.players.weights import DATA, load_value  # noqa: E402
from canasta_sim.referee import Replay  # noqa: E402
from canasta_sim.run.compare import rotation_table  # noqa: E402

FIT_SEED, EVAL_SEED = 9001, 4242
PAIRINGS = (("apprentice", "expert"), ("expert", "greedy"))
#: Stock cards kept in place when the rest is reshuffled: how the luck spreads over the stock.
KEPT = (0, 16, 32)

# --- the state before each stock card: one int16 row per event --------------------------------
DEAL, SIDE, KIND, STOCK_LEFT, PILE, RED3, MELDED, CANASTAS = range(8)
STOCK = 8  # the stock's count per kind (15 columns)
HAND = STOCK + N_KINDS  # the drawing seat's hand per kind
MELD = HAND + N_KINDS  # cards in the side's meld of each rank (0: no meld)
N_FIELDS = MELD + N_KINDS


def stock_events(trace: list[dict], deal: int) -> np.ndarray:
    """Rows (int16, ``(events, N_FIELDS)``) of the deal's draws from the stock: the state just
    before each card, read by replaying the trace with the referee."""
    replay, rows = Replay(), []
    for index, ev in enumerate(trace):
        if ev["event"] == "draw":
            seat = ev["seat"]
            side = replay.side_of(seat)
            melds = replay.sides[side].melds
            row = [
                deal,
                side,
                kind_index(ev["card"]),
                replay.stock_left,
                len(replay.pile),
                replay.sides[side].red_threes,
                replay.sides[side].melded,
                replay.canastas(side),
            ]
            row += np.bincount(replay.deck[replay.stock_pos :], minlength=N_KINDS).tolist()
            row += replay.hands[seat]
            row += [sum(melds[k].counts) if k in melds else 0 for k in range(N_KINDS)]
            rows.append(row)
        replay.feed(index, ev)
    return np.array(rows, np.int16).reshape(-1, N_FIELDS)


def rotation_tables(rules: Rules, bot_a: str, bot_b: str) -> list:
    """The seated bots of every rotation of ``compare bot_a bot_b`` (A on side ``r``)."""
    seatings = [[b.spec for b in s] for s in rotation_table(bot_a, bot_b, rules).seatings]
    return [seated(rules, seats=s) for s in seatings]


def play_boards(rules: Rules, bot_a: str, bot_b: str, seed: int, boards: int, hooks=()):
    """Play ``boards`` seat-rotated boards as ``compare`` does (deal ``b * R + r`` is board
    ``b`` in rotation ``r``, bot A on side ``r``). Returns the stock events of every deal, the
    side scores (int64, ``(boards * R, sides)``) and the hooks' terms of every deal (float64,
    ``(boards * R, columns)``, :func:`play_turns`)."""
    tables = rotation_tables(rules, bot_a, bot_b)
    events, scores, terms = [], [], []
    for board in range(boards):
        for r, table in enumerate(tables):
            d = Deal.new(rules, seed, deal=board, dealer=board % rules.players, trace=True)
            terms.append(play_turns(d, table, r, list(hooks)))
            events.append(stock_events(d.trace(), board * len(tables) + r))
            scores.append([d.score()[s]["total"] for s in range(rules.sides)])
    return (
        np.concatenate(events),
        np.array(scores, np.int64),
        np.array(terms).reshape(len(scores), -1),
    )


def reshuffled_boards(
    rules: Rules, bot_a: str, bot_b: str, seed: int, boards: int, orders: int, kept: int = 0
):
    """Board differences (points, ``(boards, orders)``, rotations averaged) of each board
    played from its position after the red-three setup with ``orders`` random orders of its
    stock below the top ``kept`` cards, every rotation with the same order. Their spread
    within a board is the luck of those cards: what an ideal ``v`` (the bots' own expected
    result) would remove at them."""
    tables = rotation_tables(rules, bot_a, bot_b)
    rng = np.random.default_rng(seed)
    out = np.zeros((boards, orders))
    for board in range(boards):
        start = Deal.new(rules, seed, deal=board, dealer=board % rules.players)
        top = int(start.view.g[DealSlot.stock_pos])
        for j in range(orders):
            order = start.view.stock[top:].copy()
            order[kept:] = rng.permutation(order[kept:])
            scores = []
            for table in tables:  # rotation r: row r, A on side r, as score_diff reads it
                d = start.copy()
                d.view.stock[top:] = order  # the view writes through to the deal's state
                d.play_out(table)
                scores.append([d.score()[s]["total"] for s in range(rules.sides)])
            out[board, j] = score_diff(np.array(scores)).mean()
    return out


def stock_share(boards: np.ndarray) -> tuple[float, float]:
    """The stock's share of the board variance, ``E[var(board | position after the setup)] /
    var(board)``, and its 95% lower bound (bootstrap over boards). An ideal ``v`` gives the
    factor ``1 / (1 - share)``: the largest that terms at the stock's cards can give."""

    def share(b):
        return b.var(axis=1, ddof=1).mean() / b.var(ddof=1)

    rng = np.random.default_rng(0)
    draws = [share(boards[rng.integers(0, len(boards), len(boards))]) for _ in range(400)]
    return float(share(boards)), float(np.quantile(draws, 0.025))


def ideal(share: float) -> float:
    """The factor of an ideal ``v`` for a stock share of the variance (inf at 1 or more)."""
    return float("inf") if share >= 1 else 1 / (1 - share)


# --- value9: the value output of the shipped weights, from every seat's observation ----------
@kernel
def seat_value_nb(state, rules, vweights, fwork, seat):
    """The value output of ``seat``'s observation of ``state`` (points for its side), as if it
    were the seat to play (the state's current seat is restored)."""
    g = state.g
    current = g[DealSlot.current]
    g[DealSlot.current] = seat
    state_features_nb(state, rules, fwork, np.int64(0))
    g[DealSlot.current] = current
    return position_value_nb(vweights, fwork)


@kernel
def value9_nb(state, rules, vweights, fwork, side_a, parts):
    """``v(state)`` for side ``side_a`` split by seat: ``parts[p]`` (float64, ``(players,)``)
    is seat ``p``'s observation value times its weight, ``+1 / (2 m)`` for side A's ``m`` seats
    and ``-1 / (2 m)`` for every other side's: at 2 sides the mean over seats of their values
    signed for side A (each seat's value is its side's minus the mean of the others')."""
    players = rules[RuleSlot.players]
    m = players // rules[RuleSlot.sides]
    for p in range(players):
        w = 0.5 / m if rules[RuleSlot.side_of + p] == side_a else -0.5 / m
        parts[p] = w * seat_value_nb(state, rules, vweights, fwork, p)


@kernel
def take_kind_nb(state, rules, seat, kind, sign):
    """Put (``sign`` 1) or take back (-1) a stock card of ``kind`` drawn by ``seat``: a red
    three is laid out for its side (R-14), another kind goes to the hand; the state is then
    read as at the seat's play decision (the phase to restore on taking back is the
    caller's)."""
    g = state.g
    g[DealSlot.stock_pos] += sign
    if kind == RED_THREE:
        state.sides[rules[RuleSlot.side_of + seat], SideSlot.r3_drawn] += sign
    else:
        state.hands[seat, kind] += sign
        state.hand_sizes[seat] += sign
    # every kind's value read in the play phase: the value output differs by hundreds of
    # points between the phases, which a red three (still to be replaced) would otherwise add
    g[DealSlot.phase] = Phase.play


@kernel
def value9_terms_nb(state, rules, vweights, fwork, side_a, n, counts, parts, values, out):
    """Add the terms of the next ``n`` stock cards, drawn by the current seat of ``state`` (a
    scratch copy at its draw decision, walked through the cards), to ``out`` (float64,
    ``(2,)``): ``[0]`` the drawing seat's part of ``v(after the card) - sum_k p_k v(after
    kind k)``, ``[1]`` the other seats' part. Work: ``counts`` (int64, ``(N_KINDS,)``),
    ``parts`` (float64, ``(players,)``), ``values`` (float64, ``(N_KINDS, 2)``)."""
    g = state.g
    seat = g[DealSlot.current]
    n_cards = rules[RuleSlot.n_cards]
    players = rules[RuleSlot.players]
    for _ in range(n):
        pos = g[DealSlot.stock_pos]
        if pos >= n_cards:
            return
        counts[:] = 0
        for i in range(pos, n_cards):
            counts[state.stock[i]] += 1
        phase = g[DealSlot.phase]
        for k in range(N_KINDS):
            values[k, 0] = 0.0
            values[k, 1] = 0.0
            if counts[k] == 0:
                continue
            take_kind_nb(state, rules, seat, np.int64(k), np.int64(1))
            value9_nb(state, rules, vweights, fwork, side_a, parts)
            take_kind_nb(state, rules, seat, np.int64(k), np.int64(-1))
            g[DealSlot.phase] = phase
            for p in range(players):
                values[k, 0 if p == seat else 1] += parts[p]
        card = state.stock[pos]
        for j in range(2):
            mean = 0.0
            for k in range(N_KINDS):
                mean += counts[k] * values[k, j]
            out[j] += values[card, j] - mean / (n_cards - pos)
        take_kind_nb(state, rules, seat, np.int64(card), np.int64(1))


class Value9:
    """The value9 terms of a deal played turn by turn (:func:`play_turns`): 2 columns, the
    drawing seats' parts and the other seats'."""

    width = 2

    def __init__(self, rules: Rules):
        self.vweights = load_value(str(DATA / f"apprentice_{rules.players}p.npz"))
        self.fwork = feature_work(1)[0]
        self.counts = np.zeros(N_KINDS, np.int64)
        self.parts = np.zeros(rules.players)
        self.values = np.zeros((N_KINDS, 2))

    def start(self) -> None:
        self.out = np.zeros(2)

    def turn(self, state, rules: np.ndarray, taken: int, side_a: int) -> None:
        value9_terms_nb(
            state,
            rules,
            self.vweights,
            self.fwork,
            np.int64(side_a),
            np.int64(taken),
            self.counts,
            self.parts,
            self.values,
            self.out,
        )

    def finish(self, side_a: int) -> np.ndarray:
        return self.out


def play_turns(deal: Deal, table, side_a: int, hooks: list) -> np.ndarray:
    """Play ``deal`` out turn by turn; every turn that draws from the stock goes to each hook
    (``turn(state before it, rules, cards taken, side_a)``, the state a copy the hook may
    change). Returns the hooks' terms side by side (float64)."""
    g, scratch = deal.view.g, np.zeros(1, STATE_DTYPE)
    for hook in hooks:
        hook.start()
    while not deal.is_over:
        drawing = g[DealSlot.phase] == Phase.draw
        scratch[0] = deal.state
        pos = int(g[DealSlot.stock_pos])
        table.play_turn(deal)
        taken = int(g[DealSlot.stock_pos]) - pos
        if drawing and taken:
            for hook in hooks:
                state = np.zeros(1, STATE_DTYPE)
                state[0] = scratch[0]
                hook.turn(state[0], deal.rules_array, taken, side_a)
    return np.concatenate([hook.finish(side_a) for hook in hooks])


# --- full: a value of the whole position (every hand, the stock's multiset), 2 sides ----------
#: Folders of label shards with positions and outcomes (``canasta-sim train``'s, seeds apart
#: from the fit and evaluation seeds), by player count.
LABELS = "/work/runs/l{players}"


def stock_counts(states: np.ndarray, rules: Rules) -> np.ndarray:
    """The stock's count per kind (int64, ``(n, N_KINDS)``) of positions (``STATE_DTYPE[n]``):
    its multiset, the cards from ``stock_pos`` on."""
    pos = states["g"][:, DealSlot.stock_pos]
    place = np.arange(states["stock"].shape[1])[None, :]
    live = (place >= pos[:, None]) & (place < rules.n_cards)
    return ((states["stock"][:, :, None] == np.arange(N_KINDS)) & live[:, :, None]).sum(axis=1)


def full_features(
    states: np.ndarray, rules: Rules, side: int | np.ndarray, stock: np.ndarray | None = None
) -> np.ndarray:
    """Features (float32, ``(n, width)``) of whole positions (``STATE_DTYPE[n]``) from side
    ``side``'s point of view (2 sides): whether its seat is to play and the phase; every
    seat's hand per kind and size, in play order from the seat to play, each marked as the
    side's or not; per side (the side's first) its melds per rank (naturals, wild cards), red
    threes, canastas, minimum and score; the pile's size, top kind and freeze; the stock's
    count per kind (its multiset, never its order: ``stock``, int64 ``(n, N_KINDS)``, when
    given, else :func:`stock_counts` of the states)."""
    n, players, kinds = len(states), rules.players, np.arange(N_KINDS)
    side = np.broadcast_to(np.asarray(side), (n,))
    g, sides, melds = states["g"], states["sides"][:, :2], states["melds"][:, :2]
    cur = g[:, DealSlot.current]
    rows = np.arange(n)[:, None]
    order = (cur[:, None] + np.arange(players)) % players  # seats from the one to play
    own = (order % 2 == side[:, None]).astype(np.float32)
    hands = states["hands"][rows, order].astype(np.float32) / 4.0  # (n, players, kinds)
    sizes = states["hand_sizes"][rows, order].astype(np.float32) / 15.0
    first = np.stack([side, 1 - side], axis=1)  # the side's own block first
    sd = sides[rows, first].astype(np.float32)  # (n, 2, S_LEN)
    md = melds[rows, first].astype(np.float32)  # (n, 2, kinds, 3)
    red3 = sd[:, :, SideSlot.r3_dealt] + sd[:, :, SideSlot.r3_drawn] + sd[:, :, SideSlot.r3_pile]
    pos = g[:, DealSlot.stock_pos]
    stock = stock_counts(states, rules) if stock is None else stock
    plen = g[:, DealSlot.pile_len]
    top = states["pile"][np.arange(n), np.maximum(plen - 1, 0)]
    top_hot = (top[:, None] == kinds) & (plen[:, None] > 0)
    parts = [
        own[:, :1],
        (g[:, DealSlot.phase] == Phase.play)[:, None],
        own,
        hands.reshape(n, -1),
        sizes,
        md[:, :, :, 0].reshape(n, -1) / 7.0,
        (md[:, :, :, 1] + md[:, :, :, 2]).reshape(n, -1) / 3.0,
        red3 / 4.0,
        sd[:, :, SideSlot.melded] != 0,
        sd[:, :, SideSlot.canastas] / 2.0,
        sd[:, :, SideSlot.minimum] / 100.0,
        sd[:, :, SideSlot.score] / 5000.0,
        plen[:, None] / 20.0,
        (g[:, DealSlot.pile_freeze] > 0)[:, None],
        top_hot,
        stock / 8.0,
        ((rules.n_cards - pos) / rules.n_cards)[:, None],
    ]
    return np.concatenate([np.asarray(x, np.float32).reshape(n, -1) for x in parts], axis=1)


def stock_cards(state, rules: np.ndarray, taken: int):
    """The turn's ``taken`` stock cards as (a copy of the state before the card, the card),
    walking ``state`` (a scratch copy at the draw decision) through them; none past the
    stock's end."""
    seat = np.int64(state["g"][DealSlot.current])
    for _ in range(taken):
        pos = int(state["g"][DealSlot.stock_pos])
        if pos >= rules[RuleSlot.n_cards]:
            return
        card = int(state["stock"][pos])
        yield state.copy(), card
        take_kind_nb(state, rules, seat, np.int64(card), np.int64(1))


class FullValue:
    """A full-state value ``v(S) = (f(S, A) - f(S, B)) / 2`` (antisymmetric between the 2
    sides), ``f`` scikit-learn's MLPRegressor on :func:`full_features`, fitted on label
    shards' positions and outcomes (both sides' views: ``+outcome`` for the seat's side,
    ``-outcome`` for the other). A hook of :func:`play_turns`: 1 column."""

    def __init__(self, rules: Rules, shards: int, labels: str = LABELS, hidden=(128, 64)):
        from sklearn.neural_network import MLPRegressor
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

        from canasta_sim.learn.shards import load_labels

        if rules.sides != 2:
            raise ValueError(f"players={rules.players}: the full value is for 2 sides")
        self.rules = rules
        folder = Path(labels.format(players=rules.players))
        paths = sorted(folder.glob("shard_*.npz"))[:shards]
        if not paths:
            raise ValueError(f"{folder}: no label shards (shard_*.npz)")
        z = load_labels(paths)
        states, y = z["positions"], z["outcome"].astype(np.float64) / 1000.0
        side = np.asarray(rules.to_array()[RuleSlot.side_of :][: rules.players])
        mine = side[states["g"][:, DealSlot.current]]
        x = np.concatenate(
            [full_features(states, rules, mine), full_features(states, rules, 1 - mine)]
        )
        y2 = np.concatenate([y, -y])
        # held out: the last tenth of the shards' positions (both views), by deal order
        cut = int(0.9 * len(y))
        train = np.r_[0:cut, len(y) : len(y) + cut]
        test = np.r_[cut : len(y), len(y) + cut : 2 * len(y)]
        self.model = make_pipeline(
            StandardScaler(),
            MLPRegressor(
                hidden_layer_sizes=hidden,
                batch_size=512,
                early_stopping=True,
                max_iter=30,
                random_state=0,
            ),
        )
        start = time.perf_counter()
        self.model.fit(x[train], y2[train])
        pred = self.predict_pairs(x[test[: len(test) // 2]], x[test[len(test) // 2 :]])
        truth = y[cut:]
        self.r2 = float(1 - ((pred - truth) ** 2).mean() / truth.var())
        print(
            f"full value, {rules.players} players: {len(y)} positions of {len(paths)} shards, "
            f"held-out R2 {self.r2:.3f}, fitted in {time.perf_counter() - start:.0f} s",
            flush=True,
        )

    def predict_pairs(self, xa: np.ndarray, xb: np.ndarray) -> np.ndarray:
        """``(f(A) - f(B)) / 2`` (thousands of points) of feature rows from both sides."""
        return (self.model.predict(xa) - self.model.predict(xb)) / 2.0

    width = 1

    def start(self) -> None:
        # the state before every stock card, and the card
        self.before: list[np.void] = []
        self.cards: list[int] = []

    def turn(self, state, rules: np.ndarray, taken: int, side_a: int) -> None:
        for before, card in stock_cards(state, rules, taken):
            self.before.append(before)
            self.cards.append(card)

    def finish(self, side_a: int) -> np.ndarray:
        before, cards, r = self.before, self.cards, self.rules.to_array()
        if not before:
            return np.zeros(1)
        ev = np.array(before, STATE_DTYPE)
        after = np.repeat(ev, N_KINDS)
        kinds = np.tile(np.arange(N_KINDS), len(ev))
        for i in range(len(after)):
            take_kind_nb(
                after[i],
                r,
                np.int64(after[i]["g"][DealSlot.current]),
                np.int64(kinds[i]),
                np.int64(1),
            )
        # the stock after kind k is the stock before less one card of kind k (an after-state's
        # own stock array would take away the card actually there: the stock's order)
        counts = stock_counts(ev, self.rules)
        one = np.tile(np.eye(N_KINDS, dtype=np.int64), (len(ev), 1))
        stock = np.repeat(counts, N_KINDS, axis=0) - one
        v = (
            self.predict_pairs(
                full_features(after, self.rules, side_a, stock),
                full_features(after, self.rules, 1 - side_a, stock),
            ).reshape(len(ev), N_KINDS)
            * 1000.0
        )
        p = counts / counts.sum(axis=1, keepdims=True)
        terms = v[np.arange(len(ev)), cards] - (p * v).sum(axis=1)
        return np.array([terms.sum()])


# --- candidate value functions: the column of kind k, g(state, k) ------------------------------
KINDS = np.arange(N_KINDS)
BASELINE = kind_index("4")
NATURAL = (KINDS > BLACK_THREE) & (KINDS < DEUCE)
WILD = (KINDS == DEUCE) | (KINDS == JOKER)
POINTS = np.array([100, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20, 20, 50], np.float64)


def columns(e: np.ndarray, candidate: str) -> np.ndarray:
    """``g`` of every event and kind (float64, ``(events, N_KINDS, terms)``) for a candidate:
    ``red3`` (a red three's value), ``kinds`` (+ one value per kind), ``inter`` (+ the kind
    against the side's meld of its rank, the seat's pairs, the pile, the stock and the
    canastas), ``stock`` (+ each kind's value by the stock left and by the initial meld)."""
    n = len(e)
    hand, meld = e[:, HAND : HAND + N_KINDS], e[:, MELD : MELD + N_KINDS]
    left = (e[:, STOCK_LEFT] / 64.0)[:, None]  # about 1 at the first draw of 4 players
    # one indicator per kind but the 4: the stock's shares sum to 1, so the 15 indicators'
    # terms sum to 0 and one of them would be redundant (values are relative to a 4's)
    one = np.broadcast_to(np.eye(N_KINDS)[:, KINDS != BASELINE], (n, N_KINDS, N_KINDS - 1))
    g = [one[:, :, :1]]  # the red three's
    if candidate == "red3":
        return np.concatenate(g, axis=2)
    g.append(one[:, :, 1:])
    if candidate == "kinds":
        return np.concatenate(g, axis=2)
    nat, wild = NATURAL[None, :], WILD[None, :]
    near = ((meld >= 4) & (meld <= 6) & NATURAL).sum(axis=1)[:, None]
    unmelded = 1.0 - e[:, MELDED][:, None]
    terms = [
        nat & (hand == 1),  # the card makes a pair: the pile can be taken with it
        nat & (hand >= 2),  # it makes three: a meld from hand
        (nat & (hand == 1)) * e[:, PILE][:, None] / 10.0,  # a pair for a big pile
        nat & (meld > 0),  # it extends the side's meld
        nat & (meld == 6),  # it completes a canasta
        nat & (meld >= 4) & (meld <= 5),  # it brings a meld closer to a canasta
        wild * near,  # a wild card with melds near a canasta
        wild * e[:, CANASTAS][:, None],
        wild * unmelded,
        (KINDS == RED_THREE) * e[:, RED3][:, None],  # toward all four red threes
        (KINDS == RED_THREE) * unmelded,  # a red three counts against a side without melds
        (KINDS == BLACK_THREE) * left,
        POINTS * (KINDS > RED_THREE) * (1.0 - left) / 10.0,  # a card's penalty late in a deal
    ]
    g.append(np.stack([np.asarray(t, np.float64) for t in terms], axis=2))
    if candidate == "inter":
        return np.concatenate(g, axis=2)
    g.append(one * left[:, :, None])
    g.append(one * unmelded[:, :, None])
    return np.concatenate(g, axis=2)


CANDIDATES = ("red3", "kinds", "inter", "stock")
#: value9 with weights 1 (v as it is), and with the drawing seats' part and the other seats'
#: part weighted by least squares on the fit seed.
VALUE9 = ("value9", "value9-fit")
#: The full-state value (its least-squares weight fitted on the fit seed, or 1).
FULL = ("full", "full-fit")


def candidate_terms(played, sides: int, candidate: str, columns: dict) -> np.ndarray:
    """``X`` (float64, ``(deals, terms)``) of a candidate for the deals :func:`play_boards`
    returned (events, scores, hook terms), ``columns`` the hook columns of each family
    (``"value9"``, ``"full"``: a slice)."""
    events, scores, terms = played
    family = candidate.removesuffix("-fit")
    if family in columns:
        return terms[:, columns[family]]
    return deal_terms(events, len(scores), sides, candidate)


def deal_terms(events: np.ndarray, deals: int, sides: int, candidate: str) -> np.ndarray:
    """``X`` (float64, ``(deals, terms)``): per deal the sum of ``g(actual) - E g`` over its
    events, signed for bot A's side (rotation ``deal % sides``): ``+1`` for A's draws,
    ``-1 / (sides - 1)`` for the others'."""
    pieces = []
    for start in range(0, len(events), 20000):  # (events, kinds, terms) floats in pieces
        e = events[start : start + 20000]
        g = columns(e, candidate)
        stock = e[:, STOCK : STOCK + N_KINDS].astype(np.float64)
        p = stock / stock.sum(axis=1, keepdims=True)
        actual = g[np.arange(len(e)), e[:, KIND].astype(np.int64)]
        innovation = actual - np.einsum("ek,ekt->et", p, g)
        a_side = e[:, DEAL] % sides
        sign = np.where(e[:, SIDE] == a_side, 1.0, -1.0 / (sides - 1))
        x = np.zeros((deals, g.shape[2]))
        np.add.at(x, e[:, DEAL].astype(np.int64), sign[:, None] * innovation)
        pieces.append(x)
    return np.sum(pieces, axis=0)


def score_diff(scores: np.ndarray) -> np.ndarray:
    """Bot A's score minus the mean of the other sides' (points, per deal)."""
    sides = scores.shape[1]
    a = scores[np.arange(len(scores)), np.arange(len(scores)) % sides]
    return (sides * a - scores.sum(axis=1)) / (sides - 1)


def fit(xs: list[np.ndarray], ys: list[np.ndarray]) -> np.ndarray:
    """Least-squares weights (points per term) of the score difference on ``X``, with an
    intercept that is dropped (the terms have mean 0; the intercept takes the bots' gap)."""
    x, y = np.concatenate(xs), np.concatenate(ys)
    design = np.column_stack([np.ones(len(x)), x])
    return np.linalg.lstsq(design, y, rcond=None)[0][1:]


def interval(values: np.ndarray) -> tuple[float, float]:
    """Mean and 95% half-width (normal)."""
    return float(values.mean()), float(1.96 * values.std(ddof=1) / np.sqrt(len(values)))


def evaluate(diff, correction, sides: int) -> dict:
    """The plain and adjusted mean difference per board (its rotations averaged) with 95%
    intervals, the mean correction, and var(plain) / var(adjusted) per board and per deal."""
    board, adj = diff.reshape(-1, sides).mean(axis=1), (diff - correction)
    board_adj = adj.reshape(-1, sides).mean(axis=1)
    board_corr = correction.reshape(-1, sides).mean(axis=1)
    (pm, ph), (am, ah), (cm, ch) = interval(board), interval(board_adj), interval(board_corr)
    return {
        "plain": pm,
        "plain_pm": ph,
        "adjusted": am,
        "adjusted_pm": ah,
        "correction": cm,
        "correction_pm": ch,
        "factor": float(board.var() / board_adj.var()),
        "factor_deal": float(diff.var() / adj.var()),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="4,2", help="player counts, e.g. 4,2")
    parser.add_argument("--fit-boards", type=int, default=1000, help="boards a pairing (fit)")
    parser.add_argument("--eval-boards", type=int, default=2000, help="boards a pairing")
    parser.add_argument("--ideal-boards", type=int, default=300, help="boards a pairing")
    parser.add_argument("--orders", type=int, default=6, help="stock orders a board (ideal)")
    parser.add_argument("--quick", action="store_true", help="4 players, 20 boards each")
    parser.add_argument(
        "--v",
        default=",".join(CANDIDATES + VALUE9 + FULL),
        help=f"candidates, of {', '.join(CANDIDATES + VALUE9 + FULL)}",
    )
    parser.add_argument("--shards", type=int, default=200, help="label shards (full value)")
    parser.add_argument("--labels", default=LABELS, help="label shard folder, {players} in it")
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.fit_boards, args.eval_boards, args.ideal_boards = "4", 20, 20, 20
        args.shards = 20
    chosen = args.v.split(",")
    unknown = sorted(set(chosen) - set(CANDIDATES + VALUE9 + FULL))
    if unknown:
        parser.error(f"--v {unknown[0]!r}: allowed {', '.join(CANDIDATES + VALUE9 + FULL)}")
    rows = []
    for players in (int(p) for p in args.players.split(",")):
        rules = Rules(players=players)
        start = time.perf_counter()
        hooks: list = []
        columns = {}
        families = {c.removesuffix("-fit") for c in chosen}
        for family in ("value9", "full"):
            if family in families:
                at = sum(h.width for h in hooks)
                hooks.append(
                    Value9(rules)
                    if family == "value9"
                    else FullValue(rules, args.shards, args.labels)
                )
                columns[family] = slice(at, at + hooks[-1].width)
        fitted = [play_boards(rules, a, b, FIT_SEED, args.fit_boards, hooks) for a, b in PAIRINGS]
        played = [play_boards(rules, a, b, EVAL_SEED, args.eval_boards, hooks) for a, b in PAIRINGS]
        print(f"{players} players: played in {time.perf_counter() - start:.0f} s", flush=True)
        for candidate in chosen:
            xs = [candidate_terms(p, rules.sides, candidate, columns) for p in fitted]
            fixed = candidate in ("value9", "full")  # v as it is: weights 1
            w = np.ones(xs[0].shape[1]) if fixed else fit(xs, [score_diff(p[1]) for p in fitted])
            for (a, b), p in zip(PAIRINGS, played):
                x, diff = candidate_terms(p, rules.sides, candidate, columns), score_diff(p[1])
                row = {"players": players, "pairing": f"{a} vs {b}", "v": candidate}
                row |= {"terms": len(w), "boards": len(diff) // rules.sides}
                row |= evaluate(diff, x @ w, rules.sides)
                # the family's own best: w fitted on the evaluated deals (optimistic)
                own = evaluate(diff, x @ fit([x], [diff]), rules.sides)["factor"]
                rows.append(row | {"weights": np.round(w, 3).tolist(), "factor_own_fit": own})
                print(rows[-1], flush=True)
        if not args.ideal_boards:
            continue
        for (a, b), kept in itertools.product(PAIRINGS, KEPT):
            boards = reshuffled_boards(rules, a, b, EVAL_SEED, args.ideal_boards, args.orders, kept)
            v = "ideal" + (f", stock below {kept}" if kept else "")
            row = {"players": players, "pairing": f"{a} vs {b}", "v": v}
            share, low = stock_share(boards)
            row |= {"boards": args.ideal_boards, "plain": boards.mean(), "stock_share": share}
            row |= {"factor": ideal(share), "factor_low": ideal(low)}
            rows.append(row)
            print(rows[-1], flush=True)
    frame = pd.DataFrame(rows)
    command = "python benchmarks/luck_pilot.py " + " ".join(
        argv if argv is not None else sys.argv[1:]
    )
    title = (
        f"Luck-adjusted results, pilot: v fitted on seed {FIT_SEED} "
        f"({args.fit_boards} boards a pairing), evaluated on seed {EVAL_SEED}"
    )
    print(write_table("luck_pilot", frame, title, command.strip()).read_text())


if __name__ == "__main__":
    main()
