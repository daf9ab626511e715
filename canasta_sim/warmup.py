"""Compile every kernel once so later runs start from numba's on-disk cache.

numba compiles a kernel after the kernels it calls and links them all into it, so a cold start
is mostly one long chain: the engine's moves, the expert, the learned bot and the search bot
that build on it, then the kernels that can play every policy (the chunk kernels, the rollouts,
the batched environment), each of which links and optimises all of that again. The work runs
in two phases (:data:`PHASES`), each two groups of calls side by side in worker processes
(``python -m canasta_sim.warmup PHASE GROUP``), grouped so that the two take about as long and
a group loads what it needs from the cache instead of compiling it a second time:

1. the expert then the learned and the search bot (the long chain), beside what needs only the
   engine's moves (the other three bots, a ``Deal``'s move and step checks, candidates and
   sampled worlds, the environment's single actions);
2. the kernels that link the learned bot: the batched environment and the rollouts, beside the
   three chunk kernels.

Both workers fill the one on-disk cache (numba writes each cache file whole, under a temporary
name first). Then the calling process makes every call itself, loading each kernel from the
cache and compiling only what the workers did not leave there.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .env import ActionDeal, VecCanasta
from .game.deals import STEPS, Deal, is_legal_meld, minimum_count
from .game.rules import Rules
from .nb.play import play_block_nb, play_expert_block_nb, play_search_block_nb
from .players.choices import candidates
from .run.simulate import simulate
from .search.analysis import analyse


def _expert() -> None:
    """The expert's kernels and the move kernels it calls (a deal played by ``Deal``)."""
    Deal.new(Rules(), 0).play_out("expert")


def _pimc() -> None:
    """The search bot's and the apprentice's kernels (they call the expert's)."""
    Deal.new(Rules(), 0).play_out(["pimc:worlds=1", "expert"])
    Deal.new(Rules(), 0).play_out(["apprentice", "expert"])


def _search_chunk() -> None:
    """The chunk kernel of runs with the search bot (every policy) and the record kernels."""
    simulate(2, bots=["pimc:worlds=1", "expert"], rules=Rules(), records=True)


def _expert_chunk() -> None:
    """The chunk kernel of runs where every seat plays the expert (the default bots)."""
    simulate(8, rules=Rules(), records=True)


def _chunk() -> None:
    """The chunk kernel of runs of the other policies, without the search bot."""
    simulate(8, bots=["greedy", "expert"], rules=Rules(), records=True)


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
    deal.play_out()
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


#: The phases of a cold warm-up, each two groups of calls run side by side (a worker process
#: each), each group in dependency order. Phase 1: the expert, then the learned and the search
#: bot on top of it, beside what needs only the engine's moves (its last calls, after the
#: expert's time, load the expert's kernels). Phase 2: the kernels that link the learned bot.
#: CPU seconds per group, cold, in docs/performance.md.
PHASES = (
    ((_expert, _pimc), (_bots, _deal_api, _candidates, _env_moves)),
    ((_env_batch, _analysis), (_search_chunk, _chunk, _expert_chunk)),
)

#: Every warm-up call, in an order where each kernel's callees come first.
STEPS_IN_ORDER = tuple(step for phase in PHASES for group in phase for step in group)


def _run_group(phase: int, group: int) -> None:
    for step in PHASES[phase][group]:
        step()


def _run_apart(phase: int) -> None:
    """Run each group of phase ``phase`` in its own Python process (``python -m
    canasta_sim.warmup PHASE GROUP``) at once, and wait for all. Plain subprocesses, not
    multiprocessing: they import nothing of the caller's script.

    Raises RuntimeError naming the group's calls and its error output when a worker fails."""
    groups = range(len(PHASES[phase]))
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "canasta_sim.warmup", str(phase), str(group)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for group in groups
    ]
    errors = [(group, w.communicate()[1], w.returncode) for group, w in zip(groups, workers)]
    for group, err, code in errors:
        if code != 0:
            names = ", ".join(step.__name__ for step in PHASES[phase][group])
            raise RuntimeError(f"warm-up worker for {names} failed (exit {code}):\n{err}")


def _chunk_kernels_cached() -> bool:
    """Whether numba's cache holds the three chunk kernels, among the last kernels of a cold
    start (their cache index files exist; numba has no public call for this)."""
    try:
        return all(
            Path(k._cache._cache_file._index_path).exists()
            for k in (play_block_nb, play_expert_block_nb, play_search_block_nb)
        )
    except AttributeError:  # another numba's internals: start the workers as if cold
        return False


def warm_up(processes: int | None = None) -> None:
    """Compile every kernel into numba's on-disk cache (or load it from there): the three
    chunk kernels through tiny runs, every kernel a :class:`Deal` calls (each move, each bot,
    scoring, traces) and the analysis kernels (worlds, rollouts). Kernels take one dtype per
    argument, so one call each covers every player count and rules variant.

    Parameters
    ----------
    processes : int, optional
        Worker processes compiling the groups of each phase of :data:`PHASES` side by side
        (default: two, at most the machine's cores; 1: everything in this process). More than
        two gain nothing. None are started when the cache already holds the three chunk
        kernels.

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
    if processes > 1 and not _chunk_kernels_cached():
        for phase in range(len(PHASES)):
            _run_apart(phase)
    for step in STEPS_IN_ORDER:
        step()


if __name__ == "__main__":  # a worker of _run_apart
    _run_group(int(sys.argv[1]), int(sys.argv[2]))
