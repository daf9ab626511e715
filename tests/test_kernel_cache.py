"""The kernels' numba cache folder (canasta_sim/nb/__init__.py)."""

import shutil
from pathlib import Path

import numba

import canasta_sim.nb as kernels


def test_kernel_cache_folder_follows_every_kernel_source(tmp_path):
    """numba checks only a kernel's own file; the cache folder is keyed on all kernel sources,
    so changing a callee (here: a comment in moves.py) moves every kernel to a fresh cache."""
    here = Path(kernels.__file__).parent
    assert numba.config.CACHE_DIR.endswith(f"kernels-{kernels.kernel_digest(here)}")
    copy = tmp_path / "nb"
    shutil.copytree(here, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = kernels.kernel_digest(copy)
    assert before == kernels.kernel_digest(here)
    with open(copy / "moves.py", "a") as f:
        f.write("# changed\n")
    assert kernels.kernel_digest(copy) != before
