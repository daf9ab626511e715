"""Merging simulation runs: one results folder from runs of the same rules and bots.

Aggregates are integer counts and sums, so runs merge exactly: two halves of a run (the second
made with ``first_deal``) merge into the very ``aggregates.json`` of the whole run. Runs are
merged only when they are comparable (same rules, bots, bot parameters and behaviour
versions) and hold no deal twice (same seed, overlapping deal ranges would count deals twice).
"""

from __future__ import annotations

import json
from pathlib import Path

from .aggregate import Aggregates
from .outdir import (
    check_run_versions,
    commit_out,
    prepare_out,
    read_manifest,
    staging_folder,
    writing,
)
from .simulate import SimulationResult, write_run_files

#: Manifest entries that must be equal in every merged run.
SAME = ("rules", "bots", "seats", "scores", "bot_parameters", "rules_version", "bots_version")


def deal_ranges(manifest: dict) -> list[tuple[int, int, int]]:
    """The deals a run holds: ``(seed, first deal, deals)`` per contiguous range."""
    if "ranges" in manifest:
        return [(int(a), int(b), int(c)) for a, b, c in manifest["ranges"]]
    return [(manifest["seed"], manifest.get("first_deal", 0), manifest["deals"])]


def _coalesce(ranges):
    out: list[list[int]] = []
    for seed, first, n in sorted(ranges):
        if out and out[-1][0] == seed and out[-1][1] + out[-1][2] == first:
            out[-1][2] += n
        else:
            out.append([seed, first, n])
    return out


def _read_run(folder: Path) -> dict:
    manifest = read_manifest(folder)
    if "deals" not in manifest or not (folder / "aggregates.json").is_file():
        raise ValueError(
            f"{str(folder)!r} is not a simulate run folder (no aggregates.json or no deals in "
            f"its manifest); allowed: folders written by canasta-sim simulate --out"
        )
    check_run_versions(manifest, folder)
    return manifest


def merge_runs(runs, out, *, overwrite: bool = False) -> SimulationResult:
    """Merge simulation run folders into the results folder ``out``.

    Parameters
    ----------
    runs : list of path
        Two or more folders written by :func:`canasta_sim.simulate` (or by this function).
    out : path
        The new results folder: ``aggregates.json`` (the sum of the runs'), ``summary.json``,
        ``manifest.json`` (the runs' deal ranges in ``ranges``, and ``merged_from``) and, when
        every run kept records, ``deals.parquet`` and ``sides.parquet`` (the runs' rows in
        order of seed and first deal, copied batch by batch). Written atomically.
    overwrite : bool
        Replace an existing ``out`` results folder.

    Returns
    -------
    SimulationResult

    Raises
    ------
    ValueError
        For fewer than two runs, a folder that is not a simulate run, runs made with other
        behaviour versions than this package's, runs that differ in rules, bots or bot
        parameters (the message names the entry, both values and both folders), or two runs
        holding the same deals (same seed, overlapping deal ranges).
    """
    folders = [Path(r) for r in runs]
    if len(folders) < 2:
        raise ValueError(f"merge needs two or more runs; got {len(folders)}")
    manifests = [_read_run(f) for f in folders]
    first = manifests[0]
    for folder, m in zip(folders[1:], manifests[1:]):
        for key in SAME:
            if m.get(key) != first.get(key):
                raise ValueError(
                    f"{str(folder)!r} and {str(folders[0])!r} differ in {key}: "
                    f"{_short(m.get(key))} and {_short(first.get(key))}; allowed: runs of "
                    f"the same rules, bots and versions"
                )
    owned = sorted((r, str(f)) for f, m in zip(folders, manifests) for r in deal_ranges(m))
    for (a, fa), (b, fb) in zip(owned, owned[1:]):
        if a[0] == b[0] and a[1] + a[2] > b[1]:
            raise ValueError(
                f"{fa!r} and {fb!r} both hold deals {b[1]} to "
                f"{min(a[1] + a[2], b[1] + b[2]) - 1} of seed {a[0]}: merging would count them "
                f"twice; allowed: runs with different seeds or deal ranges (simulate "
                f"--first-deal)"
            )
    total = None
    for folder in folders:
        agg = Aggregates.from_json((folder / "aggregates.json").read_text())
        if total is None:
            total = agg
        else:
            total += agg
    assert total is not None
    ranges = _coalesce(r for r, _ in owned)
    seeds = {r[0] for r in ranges}
    records = all(m.get("records") for m in manifests)
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


def _short(value) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 200 else text[:197] + "..."


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
