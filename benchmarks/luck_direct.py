"""Pilot step 3 of luck-adjusted results (docs/luck.md): a value of the whole position fitted
to the luck terms themselves, not to the deal's result.

Step 2 fitted a network ``f`` of the whole position to the deals' results and used its
change at each stock card as the term; its terms explained almost nothing. Here ``f`` is
fitted by gradient descent so that the summed terms explain the board's difference: the loss
is the variance over boards of the difference minus the terms (rotations averaged). Every
term keeps expectation 0 whatever ``f`` is (the card is uniform over the stock's multiset), so
the estimate stays unbiased once ``f`` is fixed; it is fitted on seed 9001 and measured on
seed 4242, as the other steps.

``v(after kind k)`` for side A is ``(f(x_A + d_k) - f(x_B + d'_k)) / 2``: ``x_A``, ``x_B`` are
the two sides' views of the state before the card (:func:`luck_pilot.full_features`, the
phase read as the play decision's), and ``d_k`` what one card of kind ``k`` to the drawing
seat changes in them: its hand's count of ``k`` and its hand size (a red three: its side's
red threes), the stock's count of ``k`` and the stock left. So the first layer is evaluated
once per event and each kind adds one column, the form the kernels would use.

Run: ``python benchmarks/luck_direct.py [--quick]`` (needs JAX: the ``train`` extra); writes
``results/bench/luck_direct.csv`` and ``.md``.
"""

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import write_table  # noqa: E402
from luck_pilot import (  # noqa: E402
    EVAL_SEED,
    FIT_SEED,
    PAIRINGS,
    evaluate,
    full_features,
    play_turns,
    rotation_tables,
    score_diff,
    stock_cards,
    stock_counts,
)

from canasta_sim import Deal, Rules  # noqa: E402
from canasta_sim.cards import N_KINDS, RED_THREE  # noqa: E402
from canasta_sim.nb.engine.state import STATE_DTYPE  # noqa: E402
from canasta_sim.nb.enums import DealSlot, RuleSlot  # noqa: E402

#: Events a batch is padded to a multiple of (few compiled shapes).
PAD = 8192


class Events:
    """A hook of :func:`luck_pilot.play_turns` keeping the state before every stock card."""

    width = 0

    def __init__(self):
        self.deal = 0
        self.states: list[np.void] = []
        self.cards: list[int] = []
        self.deal_of: list[int] = []

    def start(self) -> None:
        pass

    def turn(self, state, rules: np.ndarray, taken: int, side_a: int) -> None:
        for before, card in stock_cards(state, rules, taken):
            self.states.append(before)
            self.cards.append(card)
            self.deal_of.append(self.deal)

    def finish(self, side_a: int) -> np.ndarray:
        return np.zeros(0)


def play(rules: Rules, bot_a: str, bot_b: str, seed: int, boards: int) -> dict:
    """Seat-rotated boards as ``compare`` plays them (deal ``2 b + r``: board ``b``, bot A on
    side ``r``): per event both views' features (float32, ``(events, width)``), the card, the
    deal, whether the drawing seat is on side A, the stock's shares; per deal ``y``, bot A's
    score difference (thousands of points)."""
    tables, hook, scores = rotation_tables(rules, bot_a, bot_b), Events(), []
    for board in range(boards):
        for r, table in enumerate(tables):
            hook.deal = board * len(tables) + r
            d = Deal.new(rules, seed, deal=board, dealer=board % rules.players)
            play_turns(d, table, r, [hook])
            scores.append([d.score()[s]["total"] for s in range(rules.sides)])
    ev, deal = np.array(hook.states, STATE_DTYPE), np.array(hook.deal_of, np.int32)
    side_a = deal % rules.sides
    side_of = np.asarray(rules.to_array()[RuleSlot.side_of :][: rules.players])
    phase = 1  # full_features' slot of "the phase is play"
    views = [full_features(ev, rules, side_a), full_features(ev, rules, 1 - side_a)]
    for x in views:
        x[:, phase] = 1.0  # every kind's state read at the drawing seat's play decision
    counts = stock_counts(ev, rules)
    return {
        "xa": views[0],
        "xb": views[1],
        "card": np.array(hook.cards, np.int32),
        "deal": deal,
        "own": (side_of[ev["g"][:, DealSlot.current]] == side_a).astype(np.int32),
        "p": (counts / counts.sum(axis=1, keepdims=True)).astype(np.float32),
        "y": (score_diff(np.array(scores, np.int64)) / 1000.0).astype(np.float32),
    }


def deltas(rules: Rules, width: int) -> np.ndarray:
    """``d[own, k]`` (float32, ``(2, N_KINDS, width)``): what a card of kind ``k`` drawn by the
    seat to play adds to a view's :func:`luck_pilot.full_features` (``own``: the seat on the
    view's side). Offsets follow that function's order (the seat to play comes first)."""
    players = rules.players
    hands, sizes = 2 + players, 2 + 16 * players
    red3 = sizes + players + 4 * N_KINDS
    stock = red3 + 12 + N_KINDS
    d = np.zeros((2, N_KINDS, width), np.float32)
    for own in (0, 1):
        for k in range(N_KINDS):
            if k == RED_THREE:  # laid out for the drawing seat's side
                d[own, k, red3 + (0 if own else 1)] += 0.25
            else:
                d[own, k, hands + k] += 0.25
                d[own, k, sizes] += 1 / 15
            d[own, k, stock + k] -= 1 / 8
            d[own, k, stock + N_KINDS] -= 1 / rules.n_cards
    return d


def boards_of(data: dict, boards: np.ndarray) -> tuple[dict, int]:
    """The events and deals of ``boards`` (sorted), deals renumbered from 0 and the events
    padded to a multiple of :data:`PAD` (padding counts for a dropped deal)."""
    keep = np.isin(data["deal"] // 2, boards)
    deals = np.sort(np.concatenate([boards * 2, boards * 2 + 1]))
    renumber = np.full(len(data["y"]), len(deals), np.int32)
    renumber[deals] = np.arange(len(deals))
    out = {k: data[k][keep] for k in ("xa", "xb", "own", "card", "p")}
    out["deal"] = renumber[data["deal"][keep]]
    pad = -len(out["card"]) % PAD
    out = {k: np.concatenate([v, np.zeros((pad,) + v.shape[1:], v.dtype)]) for k, v in out.items()}
    out["deal"][len(out["deal"]) - pad :] = len(deals)
    out["y"] = data["y"][deals]
    return out, len(deals)


def corrections(params, d, dw, n):
    """Each deal's summed terms (thousands of points) under the network ``params``."""
    import jax
    import jax.numpy as jnp

    h = {v: d[v] @ params["w1"] + params["b1"] for v in ("xa", "xb")}
    fa = jax.nn.relu(h["xa"][:, None, :] + dw[d["own"]]) @ params["w2"]
    fb = jax.nn.relu(h["xb"][:, None, :] + dw[1 - d["own"]]) @ params["w2"]
    v = (fa - fb) / 2.0
    terms = jnp.take_along_axis(v, d["card"][:, None], axis=1)[:, 0] - (d["p"] * v).sum(axis=1)
    return jax.ops.segment_sum(terms, d["deal"], num_segments=n + 1)[:n]


def fit(fits: list[dict], d: np.ndarray, args) -> tuple[dict, list]:
    """Fit the network on the fit seed's boards (a fifth held out); returns it and each
    epoch's factors on the held-out boards."""
    import jax
    import jax.numpy as jnp
    import optax

    width, rng = fits[0]["xa"].shape[1], np.random.default_rng(0)
    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    params = {
        "w1": jax.random.normal(k1, (width, args.hidden)) * np.sqrt(2 / width),
        "b1": jnp.zeros(args.hidden),
        "w2": jax.random.normal(k2, (args.hidden,)) * 0.01,
    }
    opt = optax.adamw(args.lr, weight_decay=args.weight_decay)
    state = opt.init(params)

    def loss(params, batch, n):
        dw = jnp.einsum("okw,wh->okh", d, params["w1"])
        adjusted = (batch["y"] - corrections(params, batch, dw, n)).reshape(-1, 2).mean(axis=1)
        return ((adjusted - adjusted.mean()) ** 2).mean()

    grad = jax.jit(jax.value_and_grad(loss), static_argnums=2)

    @jax.jit
    def update(params, state, g):
        step, state = opt.update(g, state, params)
        return optax.apply_updates(params, step), state

    boards = [len(f["y"]) // 2 for f in fits]
    held = [np.sort(rng.choice(n, n // 5, replace=False)) for n in boards]
    train = [np.setdiff1d(np.arange(n), h) for n, h in zip(boards, held)]
    history = []
    for epoch in range(args.epochs):
        order = [rng.permutation(t) for t in train]
        for s in range(min(len(o) for o in order) // args.batch):
            for f, o in zip(fits, order):
                batch, n = boards_of(f, np.sort(o[s * args.batch : (s + 1) * args.batch]))
                _, g = grad(params, batch, n)
                params, state = update(params, state, g)
        history.append([factor(params, f, h, d) for f, h in zip(fits, held)])
        print(f"epoch {epoch}: held-out factors {np.round(history[-1], 3).tolist()}", flush=True)
    return params, history


def factor(params, data: dict, boards: np.ndarray, d: np.ndarray) -> float:
    """var(plain) / var(adjusted) per board over ``boards`` of ``data``."""
    return evaluate_boards(params, data, boards, d)["factor"]


def evaluate_boards(params, data: dict, boards: np.ndarray, d: np.ndarray) -> dict:
    """:func:`luck_pilot.evaluate` (points) of ``boards`` of ``data`` under ``params``."""
    import jax.numpy as jnp

    batch, n = boards_of(data, boards)
    dw = jnp.einsum("okw,wh->okh", d, params["w1"])
    terms = np.asarray(corrections(params, batch, dw, n), np.float64) * 1000.0
    return evaluate(batch["y"].astype(np.float64) * 1000.0, terms, 2)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add = parser.add_argument
    add("--fit-boards", type=int, default=5000, help="boards a pairing, seed 9001")
    add("--eval-boards", type=int, default=2000, help="boards a pairing, seed 4242")
    add("--hidden", type=int, default=64, help="hidden units")
    add("--epochs", type=int, default=5)
    add("--batch", type=int, default=250, help="boards a pairing per step")
    add("--lr", type=float, default=1e-3)
    add("--weight-decay", type=float, default=1e-4)
    add("--quick", action="store_true", help="100 fit and 40 evaluation boards, 1 epoch")
    args = parser.parse_args(argv)
    if args.quick:
        args.fit_boards, args.eval_boards, args.epochs, args.batch = 100, 40, 1, 40
    rules, start = Rules(players=4), time.perf_counter()
    fits = [play(rules, a, b, FIT_SEED, args.fit_boards) for a, b in PAIRINGS]
    evals = [play(rules, a, b, EVAL_SEED, args.eval_boards) for a, b in PAIRINGS]
    played = time.perf_counter() - start
    # inputs standardised by the fit seed's features (the deltas scaled alike)
    allx = np.concatenate([f[v] for f in fits for v in ("xa", "xb")])
    mean, sd = allx.mean(axis=0), allx.std(axis=0) + 1e-3
    for data in fits + evals:
        for v in ("xa", "xb"):
            data[v] = (data[v] - mean) / sd
    d = deltas(rules, len(mean)) / sd
    params, history = fit(fits, d, args)
    rows = []
    for (a, b), data, h in zip(PAIRINGS, evals, np.array(history).T):
        row = {"players": 4, "pairing": f"{a} vs {b}", "v": f"direct, {args.hidden} units"}
        row |= {"boards": len(data["y"]) // 2, "held_out_factor_by_epoch": np.round(h, 3).tolist()}
        rows.append(row | evaluate_boards(params, data, np.arange(len(data["y"]) // 2), d))
        print(rows[-1], flush=True)
    print(f"played in {played:.0f} s, fitted in {time.perf_counter() - start - played:.0f} s")
    command = "python benchmarks/luck_direct.py " + " ".join(
        argv if argv is not None else sys.argv[1:]
    )
    title = (
        f"Luck-adjusted results, pilot step 3: a value fitted to the terms on seed {FIT_SEED}, "
        f"evaluated on seed {EVAL_SEED}"
    )
    print(write_table("luck_direct", pd.DataFrame(rows), title, command.strip()).read_text())


if __name__ == "__main__":
    main()
