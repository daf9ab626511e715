"""The kernels' numba cache: its folder (canasta_sim/nb/__init__.py) and filling it
(canasta_sim/warmup.py)."""

import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import numba
import pytest
from click.testing import CliRunner

import canasta_sim.nb as kernels
from canasta_sim.cli import main


@pytest.mark.parametrize("source", ["play.py", "engine/moves.py", "plans.py"])
def test_kernel_cache_folder_follows_every_kernel_source(tmp_path, source):
    """numba checks only a kernel's own file; the cache folder is keyed on all kernel sources,
    subfolders included, so changing a callee (here: a comment in ``source``) moves every
    kernel to a fresh cache."""
    here = Path(kernels.__file__).parent
    assert numba.config.CACHE_DIR.endswith(f"kernels-{kernels.kernel_digest(here)}")
    copy = tmp_path / "nb"
    shutil.copytree(here, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = kernels.kernel_digest(copy)
    assert before == kernels.kernel_digest(here)
    with open(copy / source, "a") as f:
        f.write("# changed\n")
    assert kernels.kernel_digest(copy) != before


def test_kernel_digest_names_files_by_their_path(tmp_path):
    """The same source moved to another subfolder is another kernel layout: a new digest."""
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
    (tmp_path / "a" / "k.py").write_text("x = 1\n")
    before = kernels.kernel_digest(tmp_path)
    (tmp_path / "a" / "k.py").rename(tmp_path / "b" / "k.py")
    assert kernels.kernel_digest(tmp_path) != before


_COMPILES = """
import numba.core.event as ev
compiled = []
class Compiles(ev.Listener):
    def on_start(self, event):
        compiled.append(event.data["dispatcher"].py_func.__qualname__)
    def on_end(self, event):
        pass
ev.register("numba:compile", Compiles())
from canasta_sim.warmup import warm_up
warm_up(1)
print(sorted(set(compiled)))
"""


@pytest.mark.slow
def test_warm_up_in_two_processes_leaves_every_kernel_in_the_cache(tmp_path):
    """The two worker processes of a cold ``canasta-sim warmup`` fill one cache between them;
    a later process making every warm-up call then loads each kernel and compiles none."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    cli = [sys.executable, "-m", "canasta_sim", "warmup", "--processes", "2"]
    subprocess.run(cli, env=env, check=True, capture_output=True)
    probe = subprocess.run(
        [sys.executable, "-c", _COMPILES], env=env, check=True, capture_output=True, text=True
    )
    assert probe.stdout.strip() == "[]"
    assert _compiled_twice(tmp_path) == _TWICE


#: Kernels a cold warm-up compiles for more than one argument type: ``below_nb`` takes the
#: state's random stream (a record field) and the rollouts' (an array row).
_TWICE = {"rng.below_nb"}


def _compiled_twice(cache: Path) -> set[str]:
    """Kernels (``module.name``) with more than one compiled signature in the numba cache under
    ``cache``: a type or a constant that differs between callers, or a kernel the warm-up
    compiles ahead by argument types (``warmup._features``) for other types than its callers
    pass. Reads numba's index files (a pickled version, then the pickled stamp and
    overloads)."""
    twice = set()
    for index in cache.rglob("*.nbi"):
        with open(index, "rb") as f:
            pickle.load(f)
            _stamp, overloads = pickle.loads(f.read())
        if len(overloads) > 1:
            twice.add(index.name.split("-")[0])
    return twice


def test_warm_up_refuses_zero_processes():
    from canasta_sim.warmup import warm_up

    with pytest.raises(ValueError, match="processes=0"):
        warm_up(0)


def test_kernels_compiled_after_the_warm_up_are_one_line_of_the_report():
    """A passing run's report ends in one line on them, not a line per signature (which
    looks like a failure): the count of signatures, the first three kernel names."""
    import conftest

    kernels = [(f"kernel_{i % 5}_nb", f"(int64, array(int8, 1d, C), float{i})") for i in range(36)]
    line = conftest.compiled_summary(kernels)
    assert "\n" not in line
    assert line.startswith("36 kernel signature(s) compiled after the warm-up")
    assert line.endswith(": kernel_0_nb, kernel_1_nb, kernel_2_nb, ...")


# --- what the warm-up says and loads -------------------------------------------------------------
@pytest.mark.parametrize("cached, said", [(False, True), (True, False)])
def test_warmup_says_it_compiles_before_a_cold_compile(monkeypatch, cached, said):
    import canasta_sim.warmup as warmup
    from canasta_sim.run.compiling import COMPILE_NOTE

    apart = []
    monkeypatch.setattr(warmup, "_chunk_kernels_cached", lambda: cached)
    monkeypatch.setattr(warmup, "_run_apart", lambda: apart.append(1))
    monkeypatch.setattr(warmup, "STEPS_IN_ORDER", ())  # nothing loaded into this process
    r = CliRunner().invoke(main, ["warmup", "--processes", "2"])
    assert r.exit_code == 0, r.output
    assert (COMPILE_NOTE in r.stderr) is said
    assert apart == ([1] if said else [])  # the workers start only on a cold cache
    assert "kernels ready in" in r.stdout


WARM_UP_THEN_PYTHON_BOTS = """
from canasta_sim.nb.play import record_deal_nb
from canasta_sim.run.compare import compare
from canasta_sim.warmup import warm_up

warm_up()  # the cache is warm (the run's first fixture): this loads every kernel
loaded = list(record_deal_nb.signatures)
compare("py:docs/example_bots.py:Minimal", "greedy", deals=2, seed=0, workers=1)
print(len(loaded), record_deal_nb.signatures == loaded)
"""


def test_the_warm_up_makes_the_record_python_bots_write():
    # the README's test command on one file named record_deal_nb, compiled after the warm-up
    # by the first run of Python bots (which write each deal's record from Python)
    root = Path(__file__).resolve().parents[2]
    r = subprocess.run(
        [sys.executable, "-c", WARM_UP_THEN_PYTHON_BOTS],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(root)},
        timeout=300,
        cwd=root,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["1", "True"]
