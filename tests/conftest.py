"""Fill numba's kernel cache once, first, for the whole test run.

Without it the first test that plays a deal compiles its kernels inside that test (or its
fixture), later tests compile the kernels they add one by one, and a test's subprocess
(``python -m canasta_sim ...``) may compile what the test process has not cached yet. With a
cold cache, :func:`canasta_sim.warmup.warm_up` compiles everything in worker processes side
by side; with a warm one it only loads the kernels (a few seconds).

In a run in several processes (pytest-xdist, ``-n 2``: the README's test command) the
controller fills the cache before it starts the test processes, so that each of them only
loads the kernels: the run compiles once, not once per test process. The trainer's label
kernels, which the warm-up leaves out (they belong to an optional extra), are compiled by the
first test process that needs them while the others wait for it (:func:`label_kernels`).

The run then compiles nothing more: kernels the tests compile after the warm-up (a call the
warm-up does not make, or an argument type it does not use) are counted in one line at the end
of the run's report, the first of them named (``-v`` lists each with its argument types), so
that the warm-up can be taught them. The trainer's label kernels, compiled on purpose, are not
counted.
"""

import fcntl
import os

import pytest
from numba.core import event

#: The key of a test process's compiled kernels in what it sends its controller (xdist).
_COMPILED = "kernels_compiled_after_warm_up"


class _Compiles(event.Listener):
    """Kernels numba compiles in this process after the warm-up: (name, argument types)."""

    def __init__(self):
        self.kernels: list[tuple[str, str]] = []

    def on_start(self, ev):
        if "dispatcher" in ev.data:  # not a test's own event (tests/cli/test_cli.py sends some)
            self.kernels.append((ev.data["dispatcher"].py_func.__qualname__, str(ev.data["args"])))

    def on_end(self, ev):
        pass


_after_warm_up = _Compiles()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes(config, specs):
    """The controller of an xdist run, before it starts the test processes: fill the cache
    (in the warm-up's worker processes when cold), loading nothing into the controller."""
    from canasta_sim.warmup import warm_up

    warm_up(load=False)


@pytest.fixture(scope="session", autouse=True)
def kernels_compiled_once():
    from canasta_sim.warmup import warm_up

    warm_up()
    event.register("numba:compile", _after_warm_up)
    yield
    event.unregister("numba:compile", _after_warm_up)


@pytest.fixture(scope="session")
def label_kernels(tmp_path_factory):
    """The trainer's label kernels (and the one that computes a label's features again),
    compiled by one labelled deal under a lock that the test
    processes of a run share (a file in the run's base folder; an xdist test process's own
    folder is inside it): the first compiles them into the cache, the others wait and then
    load them."""
    import numpy as np

    from canasta_sim.learn.shards import LabelPlan, label_shard, refeature

    run_folder = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run_folder = run_folder.parent
    lock = run_folder / "label_kernels.lock"
    counted = len(_after_warm_up.kernels)
    with open(lock, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            lab = label_shard(LabelPlan(seed=4, deals=1, worlds=2, every=2, players=(2,)), 0)
            n = len(lab["meta"])
            refeature({**lab, "players": np.full(n, 2), "preset": np.full(n, "classic")})
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)
    del _after_warm_up.kernels[counted:]  # compiled on purpose, not a gap of the warm-up


def pytest_sessionfinish(session):
    """A test process of an xdist run sends its controller what it compiled."""
    if hasattr(session.config, "workeroutput"):
        session.config.workeroutput[_COMPILED] = _after_warm_up.kernels


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """The controller of an xdist run collects what each test process compiled."""
    for name, args in getattr(node, "workeroutput", {}).get(_COMPILED, []):
        _after_warm_up.kernels.append((name, args))


#: Kernels the one-line summary names; the rest are counted.
NAMED_KERNELS = 3


def compiled_summary(kernels: list[tuple[str, str]]) -> str:
    """One line on the kernels compiled after the warm-up ((name, argument types) pairs): how
    many, and the names of the first :data:`NAMED_KERNELS` distinct ones."""
    names = list(dict.fromkeys(name for name, _ in kernels))
    shown = ", ".join(names[:NAMED_KERNELS]) + (", ..." if len(names) > NAMED_KERNELS else "")
    return (
        f"{len(kernels)} kernel signature(s) compiled after the warm-up, which could teach "
        f"them (-v lists them): {shown}"
    )


def pytest_terminal_summary(terminalreporter, config):
    kernels = _after_warm_up.kernels
    if not kernels:
        return
    if config.option.verbose > 0:
        terminalreporter.section("kernels compiled after the warm-up")
        for name, args in kernels:
            terminalreporter.write_line(f"{name} {args[:300]}")
    else:
        terminalreporter.write_line(compiled_summary(kernels))
