"""Merging simulation runs: one results folder from runs of the same rules and bots.

Aggregates are integer counts and sums, so runs merge exactly: two halves of a run (the second
made with ``first_deal``) merge into the very ``aggregates.json`` of the whole run. Runs are
merged only when they are comparable (same rules, bots, bot parameters and behaviour
versions) and hold no deal twice (same seed, overlapping deal ranges would count deals twice).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..results.aggregate import Aggregates
from ..results.records import DEAL_COLUMNS
from ..results.run_folder import (
    check_entries,
    check_records,
    check_run_versions,
    deal_ranges,
    read_manifest,
    writing,
)
from .outdir import commit_out, prepare_out, staging_folder
from .simulate import SimulationResult, write_run_files

#: Manifest entries that must be equal in every merged run.
SAME = ("rules", "bots", "seats", "scores", "bot_parameters", "rules_version", "bots_version")


def _coalesce(ranges):
    out: list[list[int]] = []
    for seed, first, n in sorted(ranges):
        if out and out[-1][0] == seed and out[-1][1] + out[-1][2] == first:
            out[-1][2] += n
        else:
            out.append([seed, first, n])
    return out


def _read_run(folder: Path) -> tuple[dict, Aggregates]:
    """A run folder's manifest and aggregates, its records checked (named when refused)."""
    manifest = read_manifest(folder)
    if not (folder / "aggregates.json").is_file():
        raise ValueError(
            f"{str(folder)!r} is not a simulate run folder (no aggregates.json); allowed: "
            f"folders written by 'canasta-sim simulate --out'"
        )
    check_entries(manifest, folder, ("rules", "deals", "seed"))
    check_run_versions(manifest, folder)
    agg = Aggregates.read(folder / "aggregates.json", int(manifest["deals"]))
    check_records(folder, manifest, agg.sides)
    if manifest.get("records"):
        ranges = deal_ranges(manifest)
        _check_deal_ids(folder / "deals.parquet", ranges, 1)
        sides = folder / "sides.parquet"
        if _has_seed_column(sides):
            _check_deal_ids(sides, ranges, agg.sides)
        else:  # written before the sides named their deal's seed: merged with --no-records
            _check_side_rows(sides, ranges, agg.sides)
    return manifest, agg


def _check_side_rows(path: Path, ranges: list[tuple[int, int, int]], sides: int) -> None:
    """Refuse a ``sides.parquet`` whose ``deal`` numbers are not those of ``ranges``, each
    ``sides`` times (counted by deal number, as a folder written before the sides' ``seed``
    column allows: a deal number that several ranges hold, of other seeds, is counted once
    for each). A byte per deal number."""
    import pyarrow.dataset as ds

    cuts = sorted({c for _, first, n in ranges for c in (first, first + n)})
    # the deal numbers in pieces between cuts, with the count of ranges holding each piece
    pieces = [
        (a, b, sum(first <= a < first + n for _, first, n in ranges))
        for a, b in zip(cuts, cuts[1:])
    ]
    pieces = [(a, b, m) for a, b, m in pieces if m > 0]
    counts = [np.zeros(b - a, np.uint8) for a, b, _ in pieces]
    for batch in ds.dataset(path, format="parquet").to_batches(columns=["deal"]):
        deals = batch.column("deal").to_numpy()
        placed = np.zeros(len(deals), bool)
        for (a, b, _), count in zip(pieces, counts):
            inside = (deals >= a) & (deals < b)
            np.add.at(count, deals[inside] - a, 1)
            placed |= inside
        if not placed.all():
            raise ValueError(
                f"{str(path)!r} holds a row of deal {int(deals[np.argmin(placed)])}, which is "
                f"not one of its run's deals: a file of another run"
            )
    for (a, _, m), count in zip(pieces, counts):
        if (count != sides * m).any():
            i = int(np.argmax(count != sides * m))
            raise ValueError(
                f"{str(path)!r} holds {int(count[i])} rows of deal {a + i}, not {sides * m} "
                f"(one a side): a damaged file or one of another run"
            )


def _check_side_seeds(path: Path) -> None:
    """Refuse a ``sides.parquet`` without the ``seed`` column (written before sides named
    their deal's seed): merged with runs of other seeds, its rows would name their deals
    ambiguously, and its schema differs from the other runs' files."""
    if not _has_seed_column(path):
        raise ValueError(
            f"{str(path)!r} has no seed column (written by a canasta-sim older than this one, "
            f"whose side rows do not name their deal's seed); allowed: runs written by this "
            f"canasta-sim (run simulate again), or a merge of the aggregates only ('merge "
            f"--no-records', records=False)"
        )


def _has_seed_column(path: Path) -> bool:
    """Whether the Parquet records ``path`` have a ``seed`` column (of any type)."""
    import pyarrow.dataset as ds

    return "seed" in ds.dataset(path, format="parquet").schema.names


def _check_id_columns(path: Path) -> None:
    """Refuse records ``path`` whose ``deal`` or ``seed`` column is missing or of another type
    than the records' layout gives (:data:`canasta_sim.results.records.DEAL_COLUMNS`)."""
    import pyarrow.dataset as ds

    schema = ds.dataset(path, format="parquet").schema
    for name in ("deal", "seed"):
        dtype, meaning = DEAL_COLUMNS[name]
        found = str(schema.field(name).type) if name in schema.names else None
        if found != dtype:
            has = f"no {name} column" if found is None else f"a {name} column of type {found}"
            raise ValueError(
                f"{str(path)!r} has {has}; expected {name} of type {dtype}, {meaning}: a "
                f"damaged file or one of another program"
            )


def _check_deal_ids(path: Path, ranges: list[tuple[int, int, int]], per_deal: int) -> None:
    """Refuse records ``path`` (``deals.parquet``, ``per_deal`` 1, or ``sides.parquet``,
    ``per_deal`` the rules' sides) whose rows are not each deal of ``ranges`` (seed, first
    deal, deals) ``per_deal`` times: a row's ``deal`` and its deal seed must be one of the
    range's (the seed of deal ``i`` of master seed ``s`` is ``deal_seeds_nb(s, i, 1)``). A
    file of the right size copied from another run would otherwise merge its deals twice,
    and side rows naming another seed would drop out of the join on deal and seed. Reads two
    columns batch by batch; holds a seed and a count per deal (9 bytes)."""
    import pyarrow.dataset as ds

    from ..nb.engine.rng import deal_seeds_nb

    _check_id_columns(path)
    expected = [deal_seeds_nb(np.uint64(s), np.int64(f), np.int64(n)) for s, f, n in ranges]
    counts = [np.zeros(n, np.uint8) for _, _, n in ranges]  # rows a deal: a few, a byte
    for batch in ds.dataset(path, format="parquet").to_batches(columns=["seed", "deal"]):
        seeds = batch.column("seed").to_numpy()
        deals = batch.column("deal").to_numpy()
        placed = np.zeros(len(deals), bool)
        for (_, first, n), want, count in zip(ranges, expected, counts):
            at = np.clip(deals - first, 0, n - 1)
            inside = (deals >= first) & (deals < first + n) & (seeds == want[at]) & ~placed
            np.add.at(count, deals[inside] - first, 1)
            placed |= inside
        if not placed.all():
            deal = int(deals[np.argmin(placed)])
            raise ValueError(
                f"{str(path)!r} holds a row of deal {deal} that is not one of its run's deals "
                f"(seeds and deal ranges of its manifest): a file of another run"
            )
    for (seed, first, _), count in zip(ranges, counts):
        if (count != per_deal).any():
            i = int(np.argmax(count != per_deal))
            raise ValueError(
                f"{str(path)!r} holds {int(count[i])} rows of deal {first + i} of seed {seed}; "
                f"its manifest says {per_deal} (a damaged file)"
            )


def _differences(a, b, name: str) -> list[tuple[str, object, object]]:
    """The entries in which manifest values ``a`` and ``b`` differ, as ``(path, a value, b
    value)``: inside dicts down to the single entry (``rules.max_turns``), else whole."""
    if a == b:
        return []
    if isinstance(a, dict) and isinstance(b, dict):
        return [
            found
            for key in dict.fromkeys([*a, *b])
            for found in _differences(a.get(key), b.get(key), f"{name}.{key}")
        ]
    return [(name, a, b)]


#: Differences a refusal names, and the characters of a value it shows; a bot's parameters
#: differ in dozens of entries, which would make a line of a thousand characters.
SHOWN_DIFFERENCES = 2
SHOWN_VALUE = 40


def _first_differences(found: list[tuple[str, object, object]]) -> str:
    """The first :data:`SHOWN_DIFFERENCES` of ``found`` (from :func:`_differences`), each
    value in at most :data:`SHOWN_VALUE` characters, and how many more there are."""

    def brief(value) -> str:
        text = json.dumps(value)
        return text if len(text) <= SHOWN_VALUE else text[: SHOWN_VALUE - 3] + "..."

    what = "; ".join(
        f"{path} ({brief(a)} vs {brief(b)})" for path, a, b in found[:SHOWN_DIFFERENCES]
    )
    more = len(found) - SHOWN_DIFFERENCES
    return what + (f" and {more} more" if more > 0 else "")


def merge_runs(runs, out, *, overwrite: bool = False, records: bool = True) -> SimulationResult:
    """Merge simulation run folders into the results folder ``out``.

    Parameters
    ----------
    runs : list of path
        Two or more folders written by :func:`canasta_sim.simulate` (or by this function).
    out : path
        The new results folder: ``aggregates.json`` (the sum of the runs'), ``summary.json``,
        ``manifest.json`` (the runs' deal ranges in ``ranges``, and ``merged_from``) and, when
        records are kept, ``deals.parquet`` and ``sides.parquet`` (the runs' rows in order of
        seed and first deal, copied batch by batch). Written atomically.
    overwrite : bool
        Replace an existing ``out`` results folder.
    records : bool
        Keep the runs' records (when none of them kept any, there are none to keep);
        ``False`` writes the aggregates only, the way to merge runs of which some kept
        records and some did not.

    Returns
    -------
    SimulationResult

    Raises
    ------
    ValueError
        For one folder given as ``runs`` or fewer than two runs, a folder that is not a simulate run
        (its manifest partial, its aggregates or records unreadable or short of rows: the message
        names the file), runs made with other behaviour versions than this package's, runs that
        differ in rules, bots or bot parameters (the message names both folders and the first
        differing entries with both values, shortened), two runs holding the same deals (same seed,
        overlapping deal ranges), or records to keep that a run lacks (records would be dropped
        silently), or records to keep of a run written before ``sides.parquet`` had its
        ``seed`` column (the message names the file; such runs merge with ``records=False``),
        or a run whose records' rows are not its deals (a ``deals.parquet`` row, or a
        ``sides.parquet`` row with a ``seed`` column, naming a deal and seed not of its manifest,
        a deal with another number of rows than one, or than one a side, a ``deal`` or
        ``seed`` column missing or of another type: the message names the file).
    """
    if isinstance(runs, (str, Path)):  # one folder, not a list of them (a str is iterable)
        raise ValueError(f"runs={str(runs)!r} is one folder; allowed: a list of two or more")
    folders = [Path(r) for r in runs]
    if len(folders) < 2:
        raise ValueError(f"merge needs two or more runs; got {len(folders)}")
    read = [_read_run(f) for f in folders]
    manifests = [m for m, _ in read]
    first = manifests[0]
    for folder, m in zip(folders[1:], manifests[1:]):
        found = [d for key in SAME for d in _differences(first.get(key), m.get(key), key)]
        if found:
            raise ValueError(
                f"{str(folders[0])!r} and {str(folder)!r} differ in {_first_differences(found)}; "
                f"allowed: runs of the same rules, bots and versions"
            )
    records = _keep_records(folders, manifests, records)
    if records:
        for folder in folders:
            _check_side_seeds(folder / "sides.parquet")
    owned = sorted((r, str(f)) for f, m in zip(folders, manifests) for r in deal_ranges(m))
    for (a, fa), (b, fb) in zip(owned, owned[1:]):
        if a[0] == b[0] and a[1] + a[2] > b[1]:
            raise ValueError(
                f"{fa!r} and {fb!r} both hold deals {b[1]} to "
                f"{min(a[1] + a[2], b[1] + b[2]) - 1} of seed {a[0]}: merging would count them "
                f"twice; allowed: runs with different seeds or deal ranges ('simulate "
                f"--first-deal')"
            )
    total = read[0][1]
    for _, agg in read[1:]:
        total += agg
    ranges = _coalesce(r for r, _ in owned)
    seeds = {r[0] for r in ranges}
    manifest = {
        **first,
        "seed": next(iter(seeds)) if len(seeds) == 1 else None,
        "first_deal": ranges[0][1] if len(ranges) == 1 else None,
        "deals": sum(m["deals"] for m in manifests),
        "ranges": ranges,
        "records": records,
        "merged_from": [
            {k: m.get(k) for k in ("seed", "first_deal", "deals", "git_commit", "kernel_digest")}
            | {"folder": str(f)}
            for f, m in zip(folders, manifests)
        ],
        "wall_seconds": round(sum(m.get("wall_seconds") or 0 for m in manifests), 3),
    }
    wall = manifest["wall_seconds"]
    manifest["deals_per_second"] = round(manifest["deals"] / wall, 1) if wall > 0 else None
    result = SimulationResult(total, manifest)
    order = sorted(range(len(folders)), key=lambda i: min(deal_ranges(manifests[i])))
    target = prepare_out(out, overwrite)
    with staging_folder(target) as tmp:
        if records:
            for name in ("deals.parquet", "sides.parquet"):
                _concat_parquet([folders[i] / name for i in order], tmp / name)
        write_run_files(tmp, result)
        commit_out(tmp, target)
    result.folder = target.path
    return result


def _keep_records(folders, manifests, records: bool) -> bool:
    """Whether the merged folder keeps records; refuses to drop some silently."""
    without = [str(f) for f, m in zip(folders, manifests) if not m.get("records")]
    if not records or len(without) == len(folders):
        return False
    if without:
        raise ValueError(
            f"{', '.join(repr(f) for f in without)} kept no records ('simulate --no-records') "
            f"while the other runs did: the merged folder would lose their records; allowed: "
            f"runs that all kept records, or a merge of the aggregates only ('merge "
            f"--no-records', records=False)"
        )
    return True


def _concat_parquet(sources: list[Path], path: Path) -> None:
    """Copy the record batches of ``sources`` (files or folders of parts) into one Parquet
    file, one batch at a time."""
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    writer = None
    with writing(path):
        try:
            for source in sources:
                data = ds.dataset(source, format="parquet")
                for batch in data.to_batches():
                    if writer is None:
                        writer = pq.ParquetWriter(path, data.schema)
                    writer.write_batch(batch)
        finally:
            if writer is not None:
                writer.close()
