"""Where the learned bot's time goes, by pieces timed alone on the same decisions, beside the
expert's: at the draw decision its candidates
(:func:`~canasta_sim.nb.bots.search_candidates.draw_candidates_nb`: every legal pickup), their
features (:func:`~canasta_sim.nb.bots.apprentice.decision_features_nb`), the model's scores and
the whole decision; at the play decision its candidates
(:func:`~canasta_sim.nb.bots.search_candidates.play_candidates_nb`: the expert's melds built
from the counts and laid on a copy of the state when it melds, the top discards ranked after
them and without them), features,
scores and the whole decision (the move included); then whole turns, and whole deals on one
thread, so that the pieces can be checked against a deal's time.

The states are every decision of ``--deals`` deals (4 players by default) in which every seat
plays the apprentice. A driver kernel loops over them, copying each into a scratch state first
(the pieces mutate it); the copy alone is timed too and taken off. Times are the thread's CPU
time (it moves far less with the machine's load than wall time), per decision (per turn for
the turns, per deal for the deals), median of the rounds.

A head network (bots version 12's files) has other pieces: its draw decision is the
expert's, and at the play decision its candidates
(:func:`~canasta_sim.nb.bots.apprentice.head_candidates_nb`: the expert's melds from the
counts, each kind held after them and holding them) and the whole decision (their scores,
:func:`~canasta_sim.nb.bots.apprentice.head_scores_nb`, and the move); ``--family
apprentice11``
profiles version 11's full network instead.

numba links the kernels into one machine-code function, so a sampling profiler sees one
symbol; these pieces stand in for a profile.

Run: ``python benchmarks/apprentice_profile.py [--deals 100] [--repeats 5] [--family
apprentice11]``; writes ``results/bench/apprentice_profile.csv`` and ``apprentice_profile.md``
(``apprentice_profile_{family}`` for a family).
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

import numba as nb
import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import write_table  # noqa: E402
from throughput import deal_call  # noqa: E402

from canasta_sim.game.deals import Deal  # noqa: E402
from canasta_sim.game.rules import Rules  # noqa: E402
from canasta_sim.nb.bots.apprentice import (  # noqa: E402
    NetSlot,
    apprentice_draw_nb,
    apprentice_play_nb,
    apprentice_turn_nb,
    decision_features_nb,
    head_candidates_nb,
    head_play_nb,
    score_candidates_nb,
    state_half_nb,
)
from canasta_sim.nb.bots.expert import (  # noqa: E402
    expert_discard_nb,
    expert_draw_nb,
    expert_melds_nb,
    expert_turn_nb,
)
from canasta_sim.nb.bots.features import feature_work, state_features_nb  # noqa: E402
from canasta_sim.nb.bots.memory import new_bots  # noqa: E402
from canasta_sim.nb.bots.policies import N_PARAMS, ApprenticeParam  # noqa: E402
from canasta_sim.nb.bots.search_candidates import (  # noqa: E402
    N_EXPERT,
    draw_candidates_nb,
    expert_plan_nb,
    expert_ranking_nb,
    play_candidates_nb,
    search_work,
)
from canasta_sim.nb.bots.turn import finish_turn_nb  # noqa: E402
from canasta_sim.nb.engine.state import STATE_DTYPE, copy_state_nb  # noqa: E402
from canasta_sim.nb.enums import EV_LEN, DealSlot, Phase  # noqa: E402
from canasta_sim.players.specs import family_bot, parse_bot  # noqa: E402
from canasta_sim.players.weights import default_weights_path, load_weights  # noqa: E402

#: (decision, piece): the piece codes of pieces_nb, in the order of the table.
DRAW_PIECES = (
    "draw: candidates",
    "draw: candidates + features",
    "draw: candidates + features + scores",
    "draw: apprentice, whole decision",
    "draw: expert, whole decision",
)
PLAY_PIECES = (
    "play: candidates",
    "play: candidates + features",
    "play: candidates + features + scores",
    "play: apprentice, whole decision",
    "play: expert, whole decision",
    "play: the expert's melds (from the counts)",
    "play: one discard ranking (top 4)",
    "play: state features",
    "play: state features + state half",
)
HEAD_PIECES = (
    "play: head candidates (the expert's melds from the counts)",
    "play: head, whole decision",
    "play: expert, whole decision",
)
TURN_PIECES = ("turn: apprentice", "turn: expert")


@nb.njit(cache=True, _nrt=False)
def collect_nb(state, rules, bot, params, weights, rstate, work, fwork, log, draws, plays):
    """Play the deal of ``state`` to its end with the apprentice on every seat, copying the
    state at each draw decision into ``draws`` and at each play decision into ``plays``
    (while they have room); returns how many of each."""
    rparams = work.rparams[:]
    for i in range(N_EXPERT):
        rparams[i] = params[ApprenticeParam.expert + i]
    n_draw = 0
    n_play = 0
    while state.g[DealSlot.phase] != Phase.over:
        seat = state.g[DealSlot.current]
        if state.g[DealSlot.phase] == Phase.draw:
            if n_draw < draws.shape[0]:
                copy_state_nb(draws[n_draw], state)
                n_draw += 1
            if weights[0, NetSlot.head] != 0.0:  # a head network's draw is the expert's
                expert_draw_nb(state, rules, bot, rparams, log)
            else:
                apprentice_draw_nb(state, rules, bot, params, weights, work, fwork, log)
        if state.g[DealSlot.phase] == Phase.play:
            if n_play < plays.shape[0]:
                copy_state_nb(plays[n_play], state)
                n_play += 1
            apprentice_turn_nb(state, rules, bot, params, weights, rstate, work, fwork, log)
        finish_turn_nb(state, rules, seat, log)
    return n_draw, n_play


@nb.njit(cache=True, _nrt=False)
def pieces_nb(
    piece, rounds, states, scratch, rules, bot, params, weights, rstate, work, fwork, log
):
    """Run ``piece`` on every state of ``states``, ``rounds`` times: 0 the copy alone;
    1..5 the draw pieces (DRAW_PIECES), 11..19 the play pieces (PLAY_PIECES: 11..15 prefixes
    of a decision, 16..19 parts of it timed alone), 21 and 22 the apprentice's and the
    expert's whole turn, 31 and 33 a head network's play pieces (HEAD_PIECES)."""
    rparams = work.rparams[:]
    for i in range(N_EXPERT):
        rparams[i] = params[ApprenticeParam.expert + i]
    top = int(params[ApprenticeParam.top])
    wset = weights[0]
    total = 0
    for _ in range(rounds):
        for i in range(states.shape[0]):
            copy_state_nb(scratch, states[i])
            n = 0
            if piece >= 31:
                n = head_piece_nb(piece, scratch, rules, bot, params, wset, work, fwork, log)
            elif piece == 21:
                apprentice_turn_nb(scratch, rules, bot, params, weights, rstate, work, fwork, log)
            elif piece == 22:
                expert_turn_nb(scratch, rules, bot, rparams, log)
            elif piece == 4:
                apprentice_draw_nb(scratch, rules, bot, params, weights, work, fwork, log)
            elif piece == 5:
                expert_draw_nb(scratch, rules, bot, rparams, log)
            elif piece == 14:
                apprentice_play_nb(scratch, rules, bot, params, weights, rstate, work, fwork, log)
            elif piece == 15:
                expert_melds_nb(scratch, rules, bot, rparams, log)
                if scratch.g[DealSlot.phase] == Phase.play:
                    expert_discard_nb(scratch, rules, bot, rparams, log)
            elif piece == 16:
                expert_plan_nb(scratch, rules, bot, rparams, rstate, work.plans[:][0], log)
            elif piece == 17:
                expert_ranking_nb(scratch, rules, bot, rparams, np.int64(top), work)
            elif piece >= 18:
                state_features_nb(scratch, rules, fwork, np.int64(0))
                if piece == 19:
                    half = fwork.half[:]
                    state_half_nb(
                        half, wset, np.int64(NetSlot.a), np.int64(NetSlot.b1), fwork.state[:]
                    )
            elif piece >= 11:
                n = play_candidates_nb(scratch, rules, bot, rparams, rstate, work, top, log)
            elif piece >= 1:
                n = draw_candidates_nb(scratch, rules, work)
            if n > 0 and piece % 10 >= 2:
                decision_features_nb(scratch, rules, work, fwork, n, np.int64(0))
            if n > 0 and piece % 10 >= 3:
                score_candidates_nb(wset, fwork, n)
            total += n
    return total


@nb.njit(cache=True, _nrt=False)
def head_piece_nb(piece, state, rules, bot, params, net, work, fwork, log):
    """A head network's play piece ``piece`` (31 its candidates, 33 its whole decision,
    HEAD_PIECES) on ``state``, the expert's parameters in ``work.rparams``; returns the
    candidates (0 for the whole decision)."""
    if piece == 33:
        head_play_nb(state, rules, bot, params, net, work, fwork, log)
        return 0
    return head_candidates_nb(state, rules, bot, work.rparams[:], work)[0]


def decisions(rules: Rules, deals: int, work_args) -> tuple[np.ndarray, np.ndarray]:
    """The states of the draw and of the play decisions of ``deals`` deals (seed 11) with the
    apprentice on every seat."""
    draws, plays = [], []
    room = np.zeros(400, STATE_DTYPE)
    room2 = np.zeros(400, STATE_DTYPE)
    for k in range(deals):
        state = Deal.new(rules, seed=11, deal=k).state.copy()
        n_draw, n_play = collect_nb(state, *work_args[1:], room, room2)
        draws.append(room[:n_draw].copy())
        plays.append(room2[:n_play].copy())
    return np.concatenate(draws), np.concatenate(plays)


def piece_times(states, codes, work_args, repeats: int) -> dict[int, float]:
    """Median thread CPU µs per state of each piece code of ``codes`` on ``states``, the
    copy's time (code 0) taken off the others."""
    rounds = np.int64(5)
    for code in (0, *codes):  # compile and warm up
        pieces_nb(np.int64(code), np.int64(1), states, *work_args)
    cpu: dict[int, list[float]] = {code: [] for code in (0, *codes)}
    for _ in range(repeats):
        for code in cpu:
            start = time.thread_time()
            pieces_nb(np.int64(code), rounds, states, *work_args)
            cpu[code].append((time.thread_time() - start) / (rounds * len(states)) * 1e6)
    copy = statistics.median(cpu[0])
    return {code: statistics.median(cpu[code]) - copy for code in codes}


def deal_times(
    rules: Rules, apprentice: str, deals: int, repeats: int
) -> dict[str, tuple[float, float]]:
    """Thread CPU µs per deal and turns per deal of the ``apprentice``'s (a bot name) and the
    expert's deals, every seat the same bot, on one thread (median of ``repeats``)."""
    nb.set_num_threads(1)
    out = {}
    for bot in (apprentice, "expert"):
        call = deal_call(rules, bot, deals)
        deal_rows, _ = call()
        cpu = []
        for _ in range(repeats):
            start = time.thread_time()
            call()
            cpu.append((time.thread_time() - start) / deals * 1e6)
        out[bot] = (statistics.median(cpu), float(deal_rows["turns"].mean()))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="deals whose decisions are timed")
    parser.add_argument("--whole", type=int, default=4000, help="whole deals timed")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--family", default="", help="shipped weight family (default: today's)")
    args = parser.parse_args(argv)
    rules = Rules(players=args.players)
    params = np.zeros(N_PARAMS)
    values = parse_bot("apprentice").values
    params[: len(values)] = values
    weights = load_weights(str(default_weights_path(args.players, args.family)))[None].copy()
    head = weights[0, NetSlot.head] != 0.0
    rstates, works = search_work(1)
    work_args = (
        np.zeros(1, STATE_DTYPE)[0],
        rules.to_array(),
        new_bots(1)[0],
        params,
        weights,
        rstates[0],
        works[0],
        feature_work(1)[0],
        np.zeros((0, EV_LEN), np.int32),
    )
    draws, plays = decisions(rules, args.deals, work_args)
    per_deal = len(draws) / args.deals
    rows = []

    def add(names, states, codes, per):
        times = piece_times(states, codes, work_args, args.repeats)
        for name, code in zip(names, codes):
            us = times[code]
            rows.append({"piece": name, "us_each": us, "us_per_deal": us * per})

    if head:  # its draw decision is the expert's
        add(HEAD_PIECES, plays, (31, 33, 15), len(plays) / args.deals)
    else:
        add(DRAW_PIECES, draws, (1, 2, 3, 4, 5), per_deal)
        add(PLAY_PIECES, plays, tuple(range(11, 20)), len(plays) / args.deals)
    add(TURN_PIECES, draws, (21, 22), per_deal)
    learner = family_bot(args.family)
    for bot, (us, turns) in deal_times(rules, learner, args.whole, args.repeats).items():
        rows.append({"piece": f"deal: {bot}, one thread", "us_each": us / turns, "us_per_deal": us})
    frame = pd.DataFrame(rows)
    print(frame.to_string(index=False), flush=True)
    command = "python benchmarks/apprentice_profile.py " + " ".join(argv or sys.argv[1:])
    title = (
        f"The {learner}'s time by pieces ({args.players} players; {len(draws):,} draw and "
        f"{len(plays):,} play decisions of {args.deals} apprentice deals, thread CPU µs each "
        f"(a turn's for the deals) and per deal, median of {args.repeats} rounds)"
    )
    name = "apprentice_profile" + (f"_{args.family}" if args.family else "")
    print(write_table(name, frame, title, command.strip()).read_text())


if __name__ == "__main__":
    main()
