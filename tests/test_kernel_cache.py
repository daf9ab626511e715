"""The kernels' numba cache folder (canasta_sim/nb/__init__.py)."""

import shutil
from pathlib import Path

import numba
import pytest

import canasta_sim.nb as kernels


@pytest.mark.parametrize("source", ["play.py", "engine/moves.py", "bots/plans.py"])
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
