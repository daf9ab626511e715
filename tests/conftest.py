"""Fill numba's kernel cache once, first, for the whole test run.

Without it the first test that plays a deal compiles its kernels inside that test (or its
fixture), later tests compile the kernels they add one by one, and a test's subprocess
(``python -m canasta_sim ...``) may compile what the test process has not cached yet. With a
cold cache, :func:`canasta_sim.warmup.warm_up` compiles everything in two worker processes
side by side; with a warm one it only loads the kernels (a few seconds)."""

import pytest


@pytest.fixture(scope="session", autouse=True)
def kernels_compiled_once():
    from canasta_sim.warmup import warm_up

    warm_up()
