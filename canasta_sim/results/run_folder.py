"""Reading a run folder: its manifest (:func:`read_manifest`, checked by :func:`check_entries`
and :func:`check_run_versions`), the deals it holds (:func:`deal_ranges`) and its record files
(:func:`check_records`); and :func:`writing`, which names the file an error of a write is
about.

Everything that reads a results folder back (reports, replays, merges, resumed studies) reads
it through these, so a partial, edited or foreign folder fails the same way everywhere, with
a message naming the folder and what is wrong. Writing folders is
:mod:`canasta_sim.run.outdir`'s.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path

from .._version import BOTS_VERSION, RULES_VERSION, __version__


class VersionMismatch(ValueError):
    """A run folder was made with other rules or bots versions than this package's."""


@contextmanager
def writing(path: Path):
    """Run a block that writes the file ``path``; an OSError in it is raised again naming
    ``path`` (pyarrow's and pandas' write errors and a failed ``write`` or ``close`` name no
    file, a temporary file's name would not help), so the one-line error says what could not
    be written."""
    try:
        yield
    except OSError as exc:
        raise naming_file(exc, path) from exc


def naming_file(exc: OSError, path: Path) -> OSError:
    """``exc`` again, naming the file ``path`` (what a write error without a file name was
    about)."""
    return OSError(exc.errno, exc.strerror or str(exc), str(path))


def read_manifest(folder: Path) -> dict:
    """``folder/manifest.json`` as a dict.

    Raises
    ------
    ValueError
        Naming the folder when it is not a folder or its manifest is missing or unreadable.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(
            f"{str(folder)!r} is not a run folder: it does not exist or is not a folder"
        )
    try:
        manifest = json.loads((folder / "manifest.json").read_text())
    except FileNotFoundError:
        raise ValueError(f"{str(folder)!r} is not a run folder: manifest.json missing") from None
    except (OSError, ValueError) as exc:
        raise ValueError(
            f"{str(folder)!r}: manifest.json is not readable ({type(exc).__name__}: {exc})"
        ) from None
    if not isinstance(manifest, dict):
        raise ValueError(f"{str(folder)!r}: manifest.json does not hold a JSON object")
    return manifest


def deal_ranges(manifest: dict) -> list[tuple[int, int, int]]:
    """The deals a run holds: ``(seed, first deal, deals)`` per contiguous range."""
    if "ranges" in manifest:
        return [(int(a), int(b), int(c)) for a, b, c in manifest["ranges"]]
    return [(manifest["seed"], manifest.get("first_deal", 0), manifest["deals"])]


def check_entries(manifest: dict, folder, names) -> None:
    """Check that a run folder's manifest holds every entry of ``names``.

    Raises
    ------
    ValueError
        Naming ``folder/manifest.json`` and the entries missing (a partial or hand-edited
        manifest), or saying the folder is a tune or a study folder (its manifest holds no
        deals).
    """
    missing = [name for name in names if name not in manifest]
    if missing and isinstance(manifest.get("tune"), dict):  # whole, but of another command
        raise ValueError(
            f"{str(folder)!r} is a tune folder (a search of "
            f"{manifest['tune'].get('bot', 'a bot')}'s parameters: history.csv and final.csv, "
            f"no deals); allowed: a run folder of simulate, compare, sweep or games (compare "
            f"the tuned setting with '--out' to make one)"
        )
    if missing and isinstance(manifest.get("study"), dict):  # a study's cells are its runs
        raise ValueError(
            f"{str(folder)!r} is a study folder (one run per cell); allowed: a run folder of "
            f"simulate, compare, sweep or games, such as one of its cells/ folders"
        )
    if missing:
        raise ValueError(
            f"{str(Path(folder) / 'manifest.json')!r} lacks {', '.join(missing)}: a partial or "
            f"edited manifest; allowed: the manifest.json a run wrote"
        )
    where = str(Path(folder) / "manifest.json")
    for name, (low, high) in _NUMBERS.items():
        value = manifest.get(name)
        if name not in manifest or (value is None and name != "deals" and "ranges" in manifest):
            continue  # a merge of several seeds or deal ranges has no one seed or first deal
        _check_number(where, name, value, low, high)
    ranges = manifest.get("ranges")
    if ranges is not None:
        if not isinstance(ranges, list) or not all(
            isinstance(r, list) and len(r) == 3 for r in ranges
        ):
            raise ValueError(
                f"{where!r}: ranges={ranges!r} is not a list of [seed, first deal, deals]: an "
                f"edited manifest; allowed: the manifest.json a run wrote"
            )
        for seed, first, deals in ranges:
            for name, value in (("seed", seed), ("first_deal", first), ("deals", deals)):
                _check_number(where, f"ranges {name}", value, *_NUMBERS[name])


#: The whole numbers of a manifest and their bounds (seeds are 64-bit, deal indices int64).
_NUMBERS = {
    "seed": (0, 2**64 - 1),
    "first_deal": (0, 2**63 - 1),
    "deals": (1, 2**63 - 1),
    "games": (1, 2**63 - 1),
}


def _check_number(where: str, name: str, value, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(
            f"{where!r}: {name}={value!r} is not a whole number from {low:,} to {high:,}: an "
            f"edited manifest; allowed: the manifest.json a run wrote"
        )


def check_records(folder, manifest: dict, sides: int) -> None:
    """Check the Parquet records of a run folder whose manifest says it kept them:
    ``deals.parquet`` holds one row per deal and ``sides.parquet`` one per deal and side
    (either a file or a folder of parts). Reads the files' footers only.

    Raises
    ------
    ValueError
        Naming the file that is missing, not readable as Parquet (truncated, damaged) or
        holding another number of rows than the manifest's deals need.
    """
    import pyarrow.dataset as ds

    folder = Path(folder)
    if not manifest.get("records", (folder / "deals.parquet").exists()):
        return
    deals = int(manifest["deals"])
    for name, rows in (("deals.parquet", deals), ("sides.parquet", deals * sides)):
        path = folder / name
        if not path.exists():
            raise ValueError(f"{str(path)!r} is missing; its run's manifest says it kept records")
        try:
            found = ds.dataset(path, format="parquet").count_rows()
        except (OSError, ValueError) as exc:  # pyarrow's errors derive from these
            raise ValueError(
                f"{str(path)!r} is not a readable Parquet file (truncated or damaged: {exc})"
            ) from None
        if found != rows:
            raise ValueError(
                f"{str(path)!r} holds {found:,} rows; the manifest's {deals:,} deals need "
                f"{rows:,} (a partial or damaged file)"
            )


def check_run_versions(manifest: dict, folder) -> None:
    """Check that a run folder's results were made by the rules and bots of this package.

    Parameters
    ----------
    manifest : dict
        The folder's ``manifest.json``.
    folder : str or path
        The folder (for the message).

    Raises
    ------
    VersionMismatch
        Naming the folder, the version it was made with and this package's, when
        ``rules_version`` or ``bots_version`` differ (continuing or combining such a run
        would mix deals played under different behaviour).
    """
    for key, current in (("rules_version", RULES_VERSION), ("bots_version", BOTS_VERSION)):
        found = manifest.get(key)
        if found != current:
            raise VersionMismatch(
                f"{str(folder)!r} was made with {key} {found}, this canasta-sim "
                f"({__version__}) has {key} {current}: its deals were played under "
                f"different {key.split('_')[0]}; allowed: runs of {key} {current}"
            )
