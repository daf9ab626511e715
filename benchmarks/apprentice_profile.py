"""Where the time of the learned bot's play decision goes, by pieces timed alone on the same
decisions: its candidates (:func:`~canasta_sim.nb.bots.search_candidates.play_candidates_nb`:
the expert's melds tried on a copy of the state, the top discards ranked after them and
without them), then their features (:func:`~canasta_sim.nb.bots.apprentice.decision_features_nb`),
then the model's scores, and the whole play decision as the bot makes it (the move included),
beside the expert's play decision (melds and discard) on the same states.

The states are the play decisions of ``--deals`` deals (4 players by default) in which every
seat draws and then plays the apprentice's play decision, copied out through the ``Deal``
API. A driver kernel loops over them, copying each into a scratch state first (the pieces
mutate it); the copy alone is timed too and taken off. Times are the thread's CPU time (it
moves far less with the machine's load than wall time), per decision, median of the rounds.

numba links the kernels into one machine-code function, so a sampling profiler sees one
symbol; these pieces stand in for a profile.

Run: ``python benchmarks/apprentice_profile.py [--deals 40] [--repeats 5]``; writes
``results/bench/apprentice_profile.csv`` and ``apprentice_profile.md``.
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

from canasta_sim.game.deals import Deal  # noqa: E402
from canasta_sim.game.rules import Rules  # noqa: E402
from canasta_sim.nb.bots.apprentice import (  # noqa: E402
    apprentice_turn_nb,
    decision_features_nb,
    score_candidates_nb,
)
from canasta_sim.nb.bots.expert import expert_turn_nb  # noqa: E402
from canasta_sim.nb.bots.features import feature_work  # noqa: E402
from canasta_sim.nb.bots.memory import new_bots  # noqa: E402
from canasta_sim.nb.bots.policies import N_PARAMS, ApprenticeParam  # noqa: E402
from canasta_sim.nb.bots.search_candidates import (  # noqa: E402
    N_EXPERT,
    play_candidates_nb,
    search_work,
)
from canasta_sim.nb.engine.state import STATE_DTYPE, copy_state_nb  # noqa: E402
from canasta_sim.nb.enums import EV_LEN  # noqa: E402
from canasta_sim.players.specs import parse_bot  # noqa: E402
from canasta_sim.players.weights import default_weights_path, load_weights  # noqa: E402

PIECES = (
    "state copy (taken off the others)",
    "candidates",
    "candidates + features",
    "candidates + features + scores",
    "apprentice: whole play decision",
    "expert: whole play decision",
)


@nb.njit(cache=True, _nrt=False)
def pieces_nb(
    piece, rounds, states, scratch, rules, bot, params, weights, rstate, work, fwork, log
):
    """Run ``piece`` (an index of PIECES) on every state of ``states``, ``rounds`` times."""
    rparams = work.rparams[:]
    for i in range(N_EXPERT):
        rparams[i] = params[ApprenticeParam.expert + i]
    top = int(params[ApprenticeParam.top])
    total = 0
    for _ in range(rounds):
        for i in range(states.shape[0]):
            copy_state_nb(scratch, states[i])
            if piece == 4:
                apprentice_turn_nb(scratch, rules, bot, params, weights, rstate, work, fwork, log)
            elif piece == 5:
                expert_turn_nb(scratch, rules, bot, rparams, log)
            elif piece >= 1:
                n = play_candidates_nb(scratch, rules, bot, rparams, rstate, work, top, log)
                if piece >= 2:
                    decision_features_nb(scratch, rules, work, fwork, n)
                if piece >= 3:
                    score_candidates_nb(weights[0], fwork, n)
                total += n
    return total


def play_decisions(rules: Rules, deals: int) -> np.ndarray:
    """The states of the apprentice's play decisions in ``deals`` deals (seed 11) where every
    seat draws and then plays as the apprentice."""
    states = []
    for k in range(deals):
        d = Deal.new(rules, seed=11, deal=k)
        while not d.is_over:
            if d.phase == "draw":
                d.draw() if d.stock_size > 0 else d.play_turn("expert")
            else:
                states.append(d.state.copy())
                d.play_turn("apprentice")
    return np.array(states, STATE_DTYPE)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args(argv)
    rules = Rules(players=args.players)
    states = play_decisions(rules, args.deals)
    params = np.zeros(N_PARAMS)
    values = parse_bot("apprentice").values
    params[: len(values)] = values
    weights = load_weights(str(default_weights_path(args.players)))[None].copy()
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
    rounds = np.int64(5)
    for piece in range(len(PIECES)):  # compile and warm up
        pieces_nb(np.int64(piece), np.int64(1), states, *work_args)
    cpu: dict[int, list[float]] = {piece: [] for piece in range(len(PIECES))}
    for _ in range(args.repeats):
        for piece in range(len(PIECES)):
            start = time.thread_time()
            pieces_nb(np.int64(piece), rounds, states, *work_args)
            cpu[piece].append((time.thread_time() - start) / (rounds * len(states)) * 1e6)
    copy = statistics.median(cpu[0])
    rows = [
        {
            "piece": name,
            "us_per_decision": statistics.median(cpu[piece]) - (copy if piece else 0.0),
        }
        for piece, name in enumerate(PIECES)
    ]
    frame = pd.DataFrame(rows)
    print(frame.to_string(index=False), flush=True)
    command = "python benchmarks/apprentice_profile.py " + " ".join(argv or sys.argv[1:])
    title = (
        f"The apprentice's play decision by pieces ({args.players} players, {len(states):,} "
        f"decisions, thread CPU µs per decision, median of {args.repeats} rounds)"
    )
    print(write_table("apprentice_profile", frame, title, command.strip()).read_text())


if __name__ == "__main__":
    main()
