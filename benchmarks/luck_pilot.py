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
from canasta_sim.nb.enums import DealSlot  # noqa: E402
from canasta_sim.players.pybot import seated  # noqa: E402
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


def play_boards(rules: Rules, bot_a: str, bot_b: str, seed: int, boards: int):
    """Play ``boards`` seat-rotated boards as ``compare`` does (deal ``b * R + r`` is board
    ``b`` in rotation ``r``, bot A on side ``r``). Returns the stock events of every deal and
    the side scores (int64, ``(boards * R, sides)``)."""
    tables = rotation_tables(rules, bot_a, bot_b)
    events, scores = [], []
    for board in range(boards):
        for r, table in enumerate(tables):
            d = Deal.new(rules, seed, deal=board, dealer=board % rules.players, trace=True)
            d.play_out(table)
            events.append(stock_events(d.trace(), board * len(tables) + r))
            scores.append([d.score()[s]["total"] for s in range(rules.sides)])
    return np.concatenate(events), np.array(scores, np.int64)


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
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.fit_boards, args.eval_boards, args.ideal_boards = "4", 20, 20, 20
    rows = []
    for players in (int(p) for p in args.players.split(",")):
        rules = Rules(players=players)
        start = time.perf_counter()
        fitted = [play_boards(rules, a, b, FIT_SEED, args.fit_boards) for a, b in PAIRINGS]
        played = [play_boards(rules, a, b, EVAL_SEED, args.eval_boards) for a, b in PAIRINGS]
        print(f"{players} players: played in {time.perf_counter() - start:.0f} s", flush=True)
        for candidate in CANDIDATES:
            w = fit(
                [deal_terms(ev, len(s), rules.sides, candidate) for ev, s in fitted],
                [score_diff(s) for _, s in fitted],
            )
            for (a, b), (ev, s) in zip(PAIRINGS, played):
                x, diff = deal_terms(ev, len(s), rules.sides, candidate), score_diff(s)
                row = {"players": players, "pairing": f"{a} vs {b}", "v": candidate}
                row |= {"terms": len(w), "boards": len(s) // rules.sides}
                row |= evaluate(diff, x @ w, rules.sides)
                # the family's own best: w fitted on the evaluated deals (optimistic)
                own = evaluate(diff, x @ fit([x], [diff]), rules.sides)["factor"]
                rows.append(row | {"factor_own_fit": own})
                print(rows[-1], flush=True)
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
