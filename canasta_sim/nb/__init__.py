"""The numba kernels: rules engine, bots and the chunk loop (see the modules' docstrings).

numba's on-disk cache checks only the timestamp of the file that holds a kernel, not the files
of the kernels it calls and inlines. After an update that changes a callee but not its caller
(``git pull`` on an editable install), the caller's cached machine code would still hold the
old callee. So the cache of this package lives in a folder named after a hash of all kernel
sources, in this folder and its subfolders (``engine/``, ``bots/``): any change to any kernel
starts a fresh cache. The folder is under ``NUMBA_CACHE_DIR`` when it is set, else beside the
sources (``__pycache__``) when that is writable, else in the user's cache folder.
"""

import hashlib
import os
import warnings
from pathlib import Path

import numba


def kernel_digest(folder: Path = Path(__file__).parent) -> str:
    """Hash (12 hex digits) of every kernel source file (``*.py``) in ``folder`` and its
    subfolders (``engine/``, ``bots/``), each named by its path relative to ``folder``."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*.py")):
        name = path.relative_to(folder).as_posix()
        digest.update(name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK)


def _cache_root() -> Path:
    """``NUMBA_CACHE_DIR`` if writable, else this package's ``__pycache__`` if writable, else
    the user's cache folder. An unwritable ``NUMBA_CACHE_DIR`` is named in a warning (numba
    would otherwise fall back to a cache beside the sources that is not keyed by the kernel
    hash)."""
    wanted = os.environ.get("NUMBA_CACHE_DIR")
    if wanted:
        if _writable(Path(wanted)):
            return Path(wanted)
        warnings.warn(
            f"NUMBA_CACHE_DIR={wanted!r} cannot be written; the kernels are cached in "
            f"this package's own cache folder instead",
            RuntimeWarning,
            stacklevel=2,
        )
    beside = Path(__file__).parent / "__pycache__"
    try:
        beside.mkdir(exist_ok=True)
    except OSError:
        pass
    if os.access(beside, os.W_OK):
        return beside
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "canasta_sim"


#: :func:`kernel_digest` of the kernel sources this process imported (its cache folder's name,
#: and the runs' manifests).
KERNEL_DIGEST = kernel_digest()
# Set before any kernel module is imported: numba picks the cache folder when it decorates.
numba.config.CACHE_DIR = str(_cache_root() / f"kernels-{KERNEL_DIGEST}")
