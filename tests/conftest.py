"""Fill numba's kernel cache once, first, for the whole test run.

Without it the first test that plays a deal compiles its kernels inside that test (or its
fixture), later tests compile the kernels they add one by one, and a test's subprocess
(``python -m canasta_sim ...``) may compile what the test process has not cached yet. With a
cold cache, :func:`canasta_sim.warmup.warm_up` compiles everything in worker processes side
by side; with a warm one it only loads the kernels (a few seconds).

The run then compiles nothing more: a kernel the tests compile after the warm-up (a call the
warm-up does not make, or an argument type it does not use) is named at the end of the run's
report, with its argument types, so that the warm-up can be taught it.
"""

import pytest
from numba.core import event


class _Compiles(event.Listener):
    """Kernels numba compiles in this process after the warm-up: (name, argument types)."""

    def __init__(self):
        self.kernels: list[tuple[str, str]] = []

    def on_start(self, ev):
        if "dispatcher" in ev.data:  # not a test's own event (tests/test_cli.py sends some)
            self.kernels.append((ev.data["dispatcher"].py_func.__qualname__, str(ev.data["args"])))

    def on_end(self, ev):
        pass


_after_warm_up = _Compiles()


@pytest.fixture(scope="session", autouse=True)
def kernels_compiled_once():
    from canasta_sim.warmup import warm_up

    warm_up()
    event.register("numba:compile", _after_warm_up)
    yield
    event.unregister("numba:compile", _after_warm_up)


def pytest_terminal_summary(terminalreporter):
    kernels = _after_warm_up.kernels
    if kernels:
        terminalreporter.section("kernels compiled after the warm-up")
        for name, args in kernels:
            terminalreporter.write_line(f"{name} {args[:300]}")
