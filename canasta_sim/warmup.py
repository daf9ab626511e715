"""Compile every kernel once so later runs start from numba's on-disk cache.

numba compiles a kernel after the kernels it calls and links them all into it, so a cold start
is mostly one long chain: the engine's moves, the expert, the learned bot and the search bot
that build on it, and the kernels that can play every policy (the chunk kernels, the rollouts,
the batched environment), each of which links and optimises all of that again. A cold
:func:`warm_up` runs two groups of calls (:data:`GROUPS`) side by side, each in a worker
process (``python -m canasta_sim.warmup GROUP FOLDER``): the long chain (the expert, the
learned bot, the search bot and its chunk kernel) in one; in the other first what needs no
other kernel: the aggregation kernel, and the learned bot's feature kernel, the largest of the
chain that calls none of the chain's kernels (compiled for its argument types, so that the
first worker loads it from the cache when the learned bot calls it); then what needs only the
engine's moves (a ``Deal``'s move and step checks, candidates and sampled worlds, the
environment's single actions), then what builds on the first group's kernels, each call
waiting until the first group has made the call it builds on (:data:`AFTER`) so that it loads
those kernels from the cache instead of compiling them a second time. The first group ends
with the rollouts, which balances the two. Its first four calls are one chain, each building
on the one before, so a cold warm-up takes at least their time whatever the number of
processes.

Both workers fill the one on-disk cache (numba writes each cache file whole, under a temporary
name first, and looks a kernel up in it when a call first needs it). Then the calling process
makes every call itself, loading each kernel from the cache and compiling only what the
workers did not leave there.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from .env import ActionDeal, VecCanasta
from .game.deals import Deal
from .game.legality import STEPS
from .game.notation import is_legal_meld, minimum_count
from .game.rules import Rules
from .nb.bots.apprentice import (
    NET_LEN,
    VALUE_LEN,
    decision_features_nb,
    head_candidates_nb,
    head_scores_nb,
    position_value_nb,
)
from .nb.bots.features import feature_work, state_features_nb
from .nb.bots.memory import new_bot
from .nb.bots.search_candidates import N_EXPERT, play_candidates_nb, search_work
from .nb.engine.state import STATE_DTYPE
from .nb.enums import EV_LEN
from .nb.play import (
    play_apprentice_block_nb,
    play_block_nb,
    play_expert_block_nb,
    play_plain_block_nb,
    play_search_block_nb,
    record_deal_nb,
)
from .players.choices import candidates
from .results.aggregate import Aggregates
from .results.records import deal_dtype, side_dtype
from .run.compiling import COMPILE_NOTE
from .run.simulate import simulate
from .search.analysis import analyse


def _expert() -> None:
    """The expert's kernels and the move kernels it calls (a deal played by ``Deal``)."""
    Deal.new(Rules(), 0).play_out("expert")


def _apprentice() -> None:
    """The learned bot's kernels (its candidates and features; it calls the expert's), and its
    play candidates for Python callers (``candidate_scores``, analyse's learned column at a
    play decision: inlined into the bots' kernels, ``play_candidates_nb`` compiles apart for a
    call from Python, and so do a head network's candidates and scores, for the types
    analyse passes: a row of its stacked weight sets)."""
    Deal.new(Rules(), 0).play_out(["apprentice", "expert"])
    rstates, works = search_work(1)
    no_log = np.zeros((0, EV_LEN), np.int32)
    rparams = np.zeros(N_EXPERT)
    rules, bot = Rules().to_array(), new_bot()
    args = (rstates[0], rules, bot, rparams, rstates[0], works[0])
    _compile(play_candidates_nb, *args, np.int64(0), no_log)
    _compile(head_candidates_nb, rstates[0], rules, bot, rparams, works[0])
    net, fwork, n = np.zeros((1, NET_LEN), np.float32)[0], feature_work(1)[0], np.int64(0)
    plan = bot["meld_plan"]
    _compile(head_scores_nb, rstates[0], rules, net, plan, works[0], fwork, n, n)


def _pimc() -> None:
    """The search bot's kernels (its rollouts play the expert or the learned bot)."""
    Deal.new(Rules(), 0).play_out(["pimc:worlds=1", "expert"])


def _search_chunk() -> None:
    """The chunk kernel of runs with the search bot (every policy) and the record kernels."""
    simulate(2, bots=["pimc:worlds=1", "expert"], rules=Rules(), records=True)


def _expert_chunk() -> None:
    """The chunk kernel of runs where every seat plays the expert (`--bots expert`)."""
    simulate(8, rules=Rules(), bots="expert", records=True)


def _apprentice_chunk() -> None:
    """The chunk kernel of runs where every seat plays the learned bot with a head network
    (the default bots)."""
    simulate(8, rules=Rules(), bots="apprentice", records=True)


def _chunk() -> None:
    """The chunk kernel of runs with the learned bot beside other policies, without the search
    bot (and of tables of an earlier version's full network)."""
    simulate(8, bots=["apprentice", "expert"], rules=Rules(), records=True)


def _plain_chunk() -> None:
    """The chunk kernel of runs of the policies other than the learned and the search bot."""
    simulate(8, bots=["greedy", "expert"], rules=Rules(), records=True)


def _aggregates() -> None:
    """The aggregation kernel of every run's chunks, which calls no other kernel."""
    rules = Rules()
    Aggregates.from_rows(
        rules,
        ["expert"],
        np.zeros(0, deal_dtype),
        np.zeros((0, rules.sides), side_dtype),
        np.zeros((0, rules.sides), np.int8),
    )


def _records() -> None:
    """The record of a deal that Python bots played (:mod:`.players.pybot` writes it from
    Python; every other run writes it inside its chunk kernel)."""
    rules = Rules()
    state = np.zeros(1, STATE_DTYPE)[0]
    deal_row = np.zeros(1, deal_dtype)[0]
    _compile(
        record_deal_nb, state, rules.to_array(), deal_row, np.zeros((1, rules.sides), side_dtype)[0]
    )


def _compile(kernel, *args) -> None:
    """Compile ``kernel`` (into the cache) for the argument types numba gives ``args`` in a
    call, without running it: for a kernel that Python never calls, with the values whose types
    its kernel callers pass."""
    kernel.compile(tuple(kernel.typeof_pyval(a) for a in args))


def _features() -> None:
    """The learned bot's features of a decision (``decision_features_nb``, which calls no
    other kernel that is not inlined: inlined into the bots' kernels, it compiles here its two
    feature kernels, which they call, and itself for its Python callers), for the types the
    learned and the search bot pass: a state record, the rules, a search work record, a
    feature work record, a count and the blocks skipped; and
    the value output of a position as ``position_value`` computes it (its state features, then
    a read-only packed value network as ``load_value`` gives it)."""
    _, works = search_work(1)
    state = np.zeros(1, STATE_DTYPE)[0]
    fwork = feature_work(1)[0]
    rules = Rules().to_array()
    _compile(decision_features_nb, state, rules, works[0], fwork, np.int64(0), np.int64(0))
    _compile(state_features_nb, state, rules, fwork, np.int64(0))
    vweights = np.zeros(VALUE_LEN, np.float32)
    vweights.setflags(write=False)
    _compile(position_value_nb, vweights, fwork)


def _bots() -> None:
    """The other bots' turn kernels, each on its own (as ``Deal`` calls them)."""
    for bot in ("greedy", "careful", "random"):
        Deal.new(Rules(), 0).play_out(bot)


def _candidates() -> None:
    """Candidates of both phases, a seat's observation and sampled worlds (no rollouts)."""
    start = Deal.new(Rules(), 0)
    start.info_set(start.current_player).sample_worlds(2)
    candidates(start)
    start.draw()
    candidates(start)  # the play phase's candidate kernels


def _analysis() -> None:
    """The rollout kernel (every policy but the search bot) and what else ``analyse`` calls."""
    start = Deal.new(Rules(), 0)
    analyse(start.info_set(start.current_player), worlds=2)


def _deal_api() -> None:
    """The single-move kernels a :class:`Deal` calls (each move, traces, scoring)."""
    deal = Deal.new(Rules(), 0, trace=True)
    deal.can_take_pile()
    for step in STEPS:  # the engine's step checks (nb.engine.legal)
        deal.step_error(step, way="onto_meld", card="4")
    deal.draw()
    for move in (lambda: deal.meld("4 4 4"), lambda: deal.take_pile("")):
        try:
            move()
        except ValueError:
            pass
    deal.play_out("random")  # not the expert: the other worker compiles it meanwhile
    deal.trace()
    deal.score()
    for move in (lambda: deal.discard("4"), deal.end_turn):
        try:
            move()
        except ValueError:
            pass
    is_legal_meld("5 5 2")
    minimum_count(0)


def _env_moves() -> None:
    """The learning environment's single actions: a deal played by action ids (:mod:`.env`)."""
    deal = ActionDeal(Deal.new(Rules(), 0))
    deal.step("draw")
    deal.observation()


def _env_batch() -> None:
    """The learning environment's batched step (it plays every policy but the search bot)."""
    env = VecCanasta(2, opponents="random")
    env.step(env.reset()["legal_action_mask"].argmax(axis=1))


#: The two groups of calls of a cold warm-up, each in dependency order, run side by side.
GROUPS = (
    (_expert, _apprentice, _pimc, _search_chunk, _analysis),
    (
        _aggregates,
        _records,
        _features,
        _deal_api,
        _candidates,
        _env_moves,
        _bots,
        _expert_chunk,
        _env_batch,
        _plain_chunk,
        _chunk,
        _apprentice_chunk,
    ),
)

#: Calls of the second group that build on a call of the first (the other bots share the
#: expert's discard and plan kernels; the environment's batch and the other policies' chunk
#: kernel link the learned bot): run side by side, each waits for it. (The first group's
#: search bot and rollouts come late enough to load the second's other bots.)
AFTER = {
    _bots: _expert,
    _expert_chunk: _expert,
    _plain_chunk: _expert,
    _env_batch: _apprentice,
    _chunk: _apprentice,
    _apprentice_chunk: _apprentice,
}

#: Every warm-up call, in an order where each call's prerequisites come first (one process).
STEPS_IN_ORDER = GROUPS[0][:2] + GROUPS[1] + GROUPS[0][2:]

#: Seconds between looks for the other worker's progress.
POLL = 0.2


def _run_group(group: int, folder: Path) -> None:
    """Make the calls of group ``group``, leaving an empty file named after each call in
    ``folder`` when it is done, and waiting before a call of :data:`AFTER` until the file
    of the call it builds on is there."""
    for step in GROUPS[group]:
        before = AFTER.get(step)
        while before is not None and not (folder / before.__name__).exists():
            time.sleep(POLL)
        step()
        (folder / step.__name__).touch()


def _run_apart() -> None:
    """Run each group of :data:`GROUPS` in its own Python process (``python -m
    canasta_sim.warmup GROUP FOLDER``) at once, and wait for both. Plain subprocesses, not
    multiprocessing: they import nothing of the caller's script. When one fails, the other
    (which may be waiting for it) is stopped.

    Raises RuntimeError naming the group's calls and its error output when a worker fails."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        workers = []
        for group in range(len(GROUPS)):
            with open(folder / f"group{group}.err", "w") as log:  # a file: no pipe to fill
                workers.append(
                    subprocess.Popen(
                        [sys.executable, "-m", "canasta_sim.warmup", str(group), name],
                        stdout=subprocess.DEVNULL,
                        stderr=log,
                    )
                )
        while any(w.poll() is None for w in workers):
            if any(w.poll() not in (None, 0) for w in workers):
                for w in workers:
                    w.kill()
            time.sleep(POLL)
        # a worker that failed on its own first, not one stopped here (negative exit code)
        for code, group in sorted((w.returncode, g) for g, w in enumerate(workers))[::-1]:
            if code != 0:
                names = ", ".join(step.__name__ for step in GROUPS[group])
                err = (folder / f"group{group}.err").read_text()
                raise RuntimeError(f"warm-up worker for {names} failed (exit {code}):\n{err}")


def _chunk_kernels_cached() -> bool:
    """Whether numba's cache holds the five chunk kernels, among the last kernels of a cold
    start (their cache index files exist; numba has no public call for this)."""
    try:
        return all(
            Path(k._cache._cache_file._index_path).exists()
            for k in (
                play_block_nb,
                play_plain_block_nb,
                play_expert_block_nb,
                play_apprentice_block_nb,
                play_search_block_nb,
            )
        )
    except AttributeError:  # another numba's internals: start the workers as if cold
        return False


def warm_up(processes: int | None = None, *, load: bool = True, note: bool = False) -> None:
    """Compile every kernel into numba's on-disk cache (or load it from there): the five
    chunk kernels through tiny runs, every kernel a :class:`Deal` calls (each move, each bot,
    scoring, traces) and the analysis kernels (worlds, rollouts). Kernels take one dtype per
    argument, so one call each covers every player count and rules variant.

    Parameters
    ----------
    processes : int, optional
        Worker processes compiling the two groups of :data:`GROUPS` side by side (default:
        two, at most the machine's cores; 1: everything in this process). More than two gain
        nothing. None are started when the cache already holds the five chunk
        kernels.
    load : bool, optional
        Also load every kernel into this process (default). ``False`` leaves the cache filled
        by the worker processes and loads nothing here, for a process that plays no deal
        itself (the controller of a test run in several processes); with one process (or a
        single core) the kernels are compiled here all the same.
    note : bool, optional
        Say on stderr, before compiling, that kernels are being compiled (the command line's
        ``warmup``: a cold one takes minutes with nothing else to show).

    Raises
    ------
    ValueError
        For ``processes`` below 1.
    RuntimeError
        When a worker process fails (its error output is in the message).
    """
    if processes is None:
        processes = min(2, os.cpu_count() or 1)
    if processes < 1:
        raise ValueError(f"processes={processes!r}; allowed: 1 or more")
    cold = not _chunk_kernels_cached()
    if note and cold:
        print(COMPILE_NOTE, file=sys.stderr, flush=True)
    if processes > 1:
        if cold:
            _run_apart()
        if not load:
            return
    for step in STEPS_IN_ORDER:
        step()


if __name__ == "__main__":  # a worker of _run_apart
    _run_group(int(sys.argv[1]), Path(sys.argv[2]))
