"""A fast start (issue 24 item 6): a run calls only the chunk kernel its seats need (so a cold
start compiles only that one), every chunk kernel plays a deal alike, and the package imports
its public names on first use (``canasta-sim analyse`` loads no comparison, statistics,
review or tuning module)."""

import subprocess
import sys
import warnings
from pathlib import Path

import numba
import pandas as pd
import pytest

from canasta_sim import Rules, simulate
from canasta_sim.nb import play

POSITION = Path(__file__).resolve().parents[2] / "docs" / "positions" / "take_or_draw.toml"
KERNELS = (
    "play_block_nb",
    "play_plain_block_nb",
    "play_expert_block_nb",
    "play_apprentice_block_nb",
    "play_search_block_nb",
)


@pytest.mark.parametrize(
    "seats, kernel",
    [
        (["expert"] * 4, "play_expert_block_nb"),
        (["expert:pile_threshold=5", "expert"] * 2, "play_expert_block_nb"),
        (["expert", "greedy"] * 2, "play_plain_block_nb"),
        (["random"] * 4, "play_plain_block_nb"),
        (["careful", "expert:pile_threshold=5"] * 2, "play_plain_block_nb"),
        (["pimc:worlds=1", "expert"] * 2, "play_search_block_nb"),
        (["apprentice", "expert"] * 2, "play_block_nb"),
        (["apprentice"] * 4, "play_apprentice_block_nb"),
        (["apprentice:top=3", "apprentice"] * 2, "play_apprentice_block_nb"),
        # an earlier version's full network: the general kernel, not the head's table kernel
        (["apprentice@11"] * 4, "play_block_nb"),
        (["apprentice@11", "apprentice"] * 2, "play_block_nb"),
    ],
)
def test_a_run_calls_only_the_chunk_kernel_its_seats_need(seats, kernel, monkeypatch):
    called = []
    for name in KERNELS:
        real = getattr(play, name)
        monkeypatch.setattr(play, name, lambda *a, _n=name, _k=real: called.append(_n) or _k(*a))
    simulate(4, seats=seats, seed=3, workers=1, chunk_size=4)
    assert set(called) == {kernel}


def _sides(seats) -> pd.DataFrame:
    run = simulate(40, seats=seats, seed=17, rules=Rules(players=len(seats)), workers=1)
    assert run.sides is not None
    return run.sides


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_expert_table_kernel_plays_as_the_general_one(players, monkeypatch):
    """Deals of an all-expert table (the expert's parameters differing by seat) are the same
    in the expert table's kernel and in the kernel of every other policy."""
    seats = (["expert:pile_threshold=5", "expert"] * 3)[:players]
    fast = _sides(seats)
    monkeypatch.setattr(play, "PolicyCode", play.PolicyCode._replace(expert=-1))  # never all-expert
    general = _sides(seats)
    pd.testing.assert_frame_equal(fast, general)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_apprentice_table_kernel_plays_as_the_general_one(players, monkeypatch):
    """Deals of an all-apprentice table (its parameters differing by seat) are the same in the
    learned bot's table kernel and in the kernel of every other policy."""
    seats = (["apprentice:top=3", "apprentice"] * 3)[:players]
    fast = _sides(seats)
    monkeypatch.setattr(play, "PolicyCode", play.PolicyCode._replace(apprentice=-1))
    general = _sides(seats)
    pd.testing.assert_frame_equal(fast, general)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_plain_table_kernel_plays_as_the_general_one(players, monkeypatch):
    """Deals of a table of the policies that need no work arrays (greedy, expert, careful,
    random) are the same in their table kernel and in the kernel of every other policy."""
    seats = (["greedy", "careful", "expert:pile_threshold=5", "random"] * 2)[:players]
    fast = _sides(seats)
    monkeypatch.setattr(play, "PLAIN_CODES", ())  # never a plain table
    general = _sides(seats)
    pd.testing.assert_frame_equal(fast, general)


def test_the_search_kernel_plays_a_table_without_the_search_bot_alike(monkeypatch):
    seats = ["expert", "greedy", "careful", "apprentice"]
    plain = _sides(seats)
    monkeypatch.setattr(play, "SEARCH_CODES", tuple(range(6)))  # every code "searches"
    searching = _sides(seats)
    pd.testing.assert_frame_equal(plain, searching)


def test_public_names_are_the_functions_after_their_module_is_imported():
    """``canasta_sim.simulate`` is the function, as with the eager imports before, also once
    the old module path of the same name (canasta_sim._moved) has been imported."""
    with warnings.catch_warnings():
        # old paths: tests/package/test_moved.py
        warnings.simplefilter("ignore", DeprecationWarning)
        import canasta_sim.compare
        import canasta_sim.review  # noqa: F401
        import canasta_sim.simulate  # noqa: F401

    assert callable(canasta_sim.simulate) and canasta_sim.simulate.__name__ == "simulate"
    assert canasta_sim.compare.__name__ == "compare"
    assert canasta_sim.review.__module__ == "canasta_sim.search.review"
    assert set(canasta_sim.__all__) <= set(dir(canasta_sim))
    with pytest.raises(AttributeError, match="'canasta_sim' has no attribute 'simulat'"):
        canasta_sim.simulat  # noqa: B018


_MODULES_AT_EXIT = (
    "import atexit, runpy, sys\n"
    "atexit.register(lambda: print('MODULES', *sorted(sys.modules), file=sys.stderr))\n"
    "sys.argv = ['canasta-sim', *sys.argv[1:]]\n"
    "runpy.run_module('canasta_sim', run_name='__main__')\n"
)


def test_analyse_imports_no_module_it_does_not_use():
    done = subprocess.run(
        [sys.executable, "-c", _MODULES_AT_EXIT, "analyse", str(POSITION), "--worlds", "20"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stderr.splitlines() if x.startswith("MODULES "))
    modules = set(line.split()[1:])
    assert "canasta_sim.search.analysis" in modules  # the command ran
    unused = {"canasta_sim.run.compare", "canasta_sim.results.stats", "canasta_sim.search.review"}
    unused |= {"canasta_sim.search.tune", "canasta_sim.run.study", "scipy.stats", "distributed"}
    # run folders (parquet) and playing games: only with --from-run, --out or a play-out
    unused |= {"canasta_sim.run.outdir", "canasta_sim.run.games", "canasta_sim.run.runner"}
    unused |= {"canasta_sim.run.address", "pyarrow.parquet", "tqdm"}
    assert not modules & unused, sorted(modules & unused)


@pytest.mark.parametrize("n_blocks", [1, 2, 8])
def test_every_chunk_passes_its_blocks_as_one_array_type(n_blocks):
    """A one-block chunk's records are typed as a many-block chunk's (numpy calls a strided
    one-record array contiguous, which numba types as another layout): one compile of each
    chunk kernel, whatever the chunk size."""
    many = play.new_blocks(16)
    blocks = play.new_blocks(n_blocks)
    assert numba.typeof(blocks.states) == numba.typeof(many.states)
    assert numba.typeof(blocks.bots) == numba.typeof(many.bots)


def test_the_warm_up_makes_every_call_once_after_what_it_builds_on():
    """In one process the calls run in dependency order; with two workers, every call that
    waits for the other worker waits for a call the other worker makes, before it."""
    from canasta_sim import warmup

    first, second = warmup.GROUPS
    order = warmup.STEPS_IN_ORDER
    assert sorted(s.__name__ for s in order) == sorted(s.__name__ for s in first + second)
    for step, before in warmup.AFTER.items():
        assert step in second and before in first
        assert order.index(before) < order.index(step)
    # the search bot's and the rollouts' calls need the learned bot's and the other bots'
    for step in (warmup._pimc, warmup._analysis):
        assert order.index(step) > max(order.index(warmup._apprentice), order.index(warmup._bots))
    # the feature kernel, compiled ahead for the first worker's learned bot, comes before the
    # second worker's first call that needs the engine's moves (the expert's, compiled meanwhile)
    assert second.index(warmup._features) < second.index(warmup._deal_api)
    assert warmup._features not in warmup.AFTER


def test_a_kernel_compiled_ahead_gets_the_types_of_a_call(monkeypatch):
    """``warmup._features`` compiles the feature kernel for the numba types of its values, as
    a call would type them (record, array, integers), and runs nothing."""
    from canasta_sim import warmup

    seen = []
    monkeypatch.setattr(
        warmup.decision_features_nb, "compile", lambda sig: seen.append(sig), raising=False
    )
    warmup._features()
    (sig,) = seen
    names = ["Record", "Array", "Record", "Record", "Integer", "Integer"]
    assert [type(t).__name__ for t in sig] == names
    assert sig[1] == numba.types.int32[::1] and sig[4] == sig[5] == numba.types.int64


@pytest.mark.parametrize("cached", [True, False])
def test_a_warm_up_without_loading_leaves_the_calls_to_the_workers(monkeypatch, cached):
    """``load=False`` (a test run's controller): the workers fill the cache when it is cold,
    and this process makes no call; with ``load=True`` it makes every call after them."""
    from canasta_sim import warmup

    made, started = [], []
    steps = tuple(lambda name=name: made.append(name) for name in ("a", "b"))
    monkeypatch.setattr(warmup, "STEPS_IN_ORDER", steps)
    monkeypatch.setattr(warmup, "_chunk_kernels_cached", lambda: cached)
    monkeypatch.setattr(warmup, "_run_apart", lambda: started.append(True))
    warmup.warm_up(2, load=False)
    assert made == [] and started == ([] if cached else [True])
    warmup.warm_up(2)
    assert made == ["a", "b"]
