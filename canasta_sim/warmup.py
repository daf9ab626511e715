"""Compile every kernel once so later runs start from numba's on-disk cache.

numba compiles a kernel after the kernels it calls (it links them into it), so a cold start
is mostly one long sequence. There are three chunk kernels (:mod:`.nb.play`): for tables of
experts only, for every policy but the search bot, and for the search bot too. Two parts of
the work are independent (:data:`CHAINS`): the expert, the experts' chunk kernel, then the
search bot that rolls the expert out and its chunk kernel; and the other three bots, the
analysis rollouts, the ``Deal`` move kernels, then the chunk kernel of the other policies
(which loads the expert the first chain has cached by then). :func:`warm_up` compiles each
chain in its own worker process; both fill the one on-disk cache (numba writes each cache
file whole, under a temporary name first), and a process that needs a kernel the other has
cached loads it instead of compiling it. Then the calling process makes every call of the
chains itself, loading each kernel from the cache and compiling only what the workers did
not leave there.
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


def _analysis() -> None:
    """Worlds, candidates of both phases and rollouts (every policy but the search bot's)."""
    start = Deal.new(Rules(), 0)
    analyse(start.info_set(start.current_player), worlds=2)
    start.draw()
    candidates(start)  # the play phase's candidate kernels


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


def _env() -> None:
    """The learning environment's kernels: the batched step (it plays every kernel policy but
    the search bot) and a deal played by action ids (:mod:`.env`)."""
    env = VecCanasta(2, opponents="random")
    env.step(env.reset()["legal_action_mask"].argmax(axis=1))
    deal = ActionDeal(Deal.new(Rules(), 0))
    deal.step("draw")
    deal.observation()


#: Calls that compile independent groups of kernels, each chain in dependency order.
CHAINS = (
    (_expert, _expert_chunk, _pimc, _search_chunk),
    (_bots, _analysis, _deal_api, _chunk, _env),
)


def _run_chain(chain: int) -> None:
    for step in CHAINS[chain]:
        step()


def _run_chains_apart(chains: range) -> None:
    """Run each chain of ``chains`` in its own Python process (``python -m
    canasta_sim.warmup CHAIN``) at once, and wait for all. Plain subprocesses, not
    multiprocessing: they import nothing of the caller's script.

    Raises RuntimeError naming the chain and its error output when a worker fails."""
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "canasta_sim.warmup", str(chain)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for chain in chains
    ]
    errors = [(chain, w.communicate()[1], w.returncode) for chain, w in zip(chains, workers)]
    for chain, err, code in errors:
        if code != 0:
            names = ", ".join(step.__name__ for step in CHAINS[chain])
            raise RuntimeError(f"warm-up worker for {names} failed (exit {code}):\n{err}")


def _chunk_kernels_cached() -> bool:
    """Whether numba's cache holds the three chunk kernels, the last kernels of a cold start
    (their cache index files exist; numba has no public call for this)."""
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
        Worker processes compiling the independent chains of :data:`CHAINS` side by side
        (default: one per chain, at most the machine's cores; 1: all in this process). More
        than ``len(CHAINS)`` gain nothing. None are started when the cache already holds the
        three chunk kernels.

    Raises
    ------
    ValueError
        For ``processes`` below 1.
    RuntimeError
        When a worker process fails (its error output is in the message).
    """
    if processes is None:
        processes = min(len(CHAINS), os.cpu_count() or 1)
    if processes < 1:
        raise ValueError(f"processes={processes!r}; allowed: 1 or more")
    if processes > 1 and not _chunk_kernels_cached():
        _run_chains_apart(range(len(CHAINS)))
    for chain in range(len(CHAINS)):
        _run_chain(chain)


if __name__ == "__main__":  # a worker of _run_chains_apart
    _run_chain(int(sys.argv[1]))
