"""Studies across variants: a grid of runs over players, presets, rules switches and bots.

A grid is a list of axes, each a name and its values; every combination is a *cell*, one run
of :func:`canasta_sim.simulate` with the same seed and deal count, so cells with the same
pack share their shuffles. Axis syntax (the command line's ``--axis``; values separated by
``|``, which no value contains, so commas stay free for ``card_values`` and bot parameters)::

    players=2|3|4|6
    preset=classic|hoyle
    switch:going_out_bonus=100|200          (any rules switch but players; crossed with the rest)
    switch:card_values=0,5,5,5,5,5,10,10,10,10,10,10,20,20,50|0,5,...
    bots=expert|careful;greedy              (a value: one spec for every side, or one per
                                             side separated by ';')

A study folder (written only when ``out`` is given, like ``sweep``'s) holds ``manifest.json``
(written first: the grid, seed, deals and versions), ``cells/NNN-NAME/`` (one
:func:`~canasta_sim.simulate` results folder per cell, each committed atomically) and,
written last, ``study.png`` and ``study.csv``: one row per cell with its key statistics and
their differences to the baseline cell, with 95% intervals. The folder fills cell by cell:
an interrupted study (:class:`StudyInterrupted`) keeps its manifest and finished cells, and
``resume`` continues it: the cells whose folders exist are read, the others played; resuming
is refused when the rules or bots versions, or the grid, seed or deals differ from the
study's manifest.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..errors import BadArgument, BadSwitch
from ..game.rules import PRESETS, Rules, preset_name, switch_from_text
from ..players.specs import side_bots
from ..results.aggregate import Aggregates
from ..results.run_folder import check_run_versions, read_manifest, writing
from ..results.study_table import (
    AXIS_NAMES,
    plot_study,
    study_caption,
    study_policy,
    study_table,
    unfinished_study,
)
from .outdir import json_text, out_path, prepare_out, write_text
from .simulate import simulate

__all__ = [
    "MAX_CELLS",
    "Axis",
    "Cell",
    "StudyInterrupted",
    "grid_cells",
    "parse_axis",
    "run_study",
]

#: Largest grid (cells).
MAX_CELLS = 1000
_SWITCHES = tuple(f.name for f in dataclasses.fields(Rules) if f.name != "players")


@dataclass(frozen=True)
class Axis:
    """One axis of a grid: ``name`` (``players``, ``preset``, ``bots`` or ``switch:NAME``) and
    its values (ints for players, preset names, tuples of side specs for bots, switch values
    as :class:`~canasta_sim.Rules` takes them)."""

    name: str
    values: tuple


@dataclass(frozen=True)
class Cell:
    """One cell: its axis values (``{axis name: value text}``), rules and side bot specs."""

    index: int
    labels: dict
    rules: Rules
    bots: tuple[str, ...]

    @property
    def name(self) -> str:
        """Folder name: ``NNN-axis=value-...`` with characters other than letters, digits,
        ``.``, ``=``, ``;`` and ``-`` turned into ``_`` (the number keeps names unique)."""
        text = "-".join(f"{k.removeprefix('switch:')}={v}" for k, v in self.labels.items())
        return f"{self.index:03d}-" + re.sub(r"[^A-Za-z0-9.=;-]+", "_", text)[:80]


class StudyInterrupted(KeyboardInterrupt):
    """Ctrl-C (or another KeyboardInterrupt) during a study with a folder: the folder keeps
    its manifest and the ``done`` finished cells of ``total``; ``resume`` finishes it."""

    def __init__(self, folder: Path, done: int, total: int):
        super().__init__(
            f"{done} of {total} cells done in {str(folder)!r}; resume the study to finish it"
        )
        self.folder, self.done, self.total = folder, done, total

    def __reduce__(self):
        return type(self), (self.folder, self.done, self.total)


def parse_axis(text: str) -> Axis:
    """Parse ``NAME=V1|V2|...`` (see the module docstring).

    Raises
    ------
    ValueError
        Naming the bad part: no ``=``, an unknown axis or switch, an empty list or value, a
        repeated value, a value the axis does not allow.
    """
    name, eq, rest = text.partition("=")
    name = name.strip()
    if not eq:
        raise ValueError(f"axis {text!r} is not NAME=V1|V2|...")
    if name.startswith("switch:"):
        switch = name[len("switch:") :].strip()
        if switch not in _SWITCHES:
            raise ValueError(
                f"axis {text!r}: unknown rules switch {switch!r}; allowed: "
                f"{', '.join(_SWITCHES)} (players has its own axis)"
            )
        name = f"switch:{switch}"
    elif name not in AXIS_NAMES:
        raise ValueError(
            f"axis {text!r}: unknown axis {name!r}; allowed: {', '.join(AXIS_NAMES)} or switch:NAME"
        )
    items = [v.strip() for v in rest.split("|")]
    if not rest.strip() or any(not v for v in items):
        raise ValueError(
            f"axis {text!r}: an empty value list or an empty value; allowed: one or more "
            f"values separated by '|'"
        )
    values: list = []
    for item in items:
        if name == "players":
            if item not in ("2", "3", "4", "6"):
                raise ValueError(f"axis {text!r}: players {item!r}; allowed: 2, 3, 4, 6")
            values.append(int(item))
        elif name == "preset":
            key = preset_name(item)
            if key is None:
                raise ValueError(f"axis {text!r}: preset {item!r}; allowed: {', '.join(PRESETS)}")
            values.append(key)
        elif name == "bots":
            values.append(tuple(s.strip() for s in item.split(";")))
        else:
            try:
                values.append(switch_from_text(name[len("switch:") :], item))
            except BadSwitch as exc:
                raise ValueError(f"axis {text!r}: {exc}") from None
    if len(set(values)) < len(values):
        raise ValueError(f"axis {text!r} repeats a value; give each value once")
    return Axis(name, tuple(values))


def _label(value) -> str:
    if isinstance(value, tuple):
        return (";" if value and isinstance(value[0], str) else ",").join(map(str, value))
    return str(value).lower() if isinstance(value, bool) else str(value)


def grid_cells(axes: list[Axis]) -> list[Cell]:
    """Every combination of the axes' values (the first axis varies slowest), validated.

    Missing axes take the defaults: 4 players, ``classic``, ``expert``.

    Raises
    ------
    ValueError
        For an axis given twice, a grid of more than :data:`MAX_CELLS` cells, or a cell whose
        rules or bots are not allowed (the message names the cell's values).
    """
    names = [a.name for a in axes]
    for name in names:
        if names.count(name) > 1:
            raise ValueError(f"axis {name} is given twice; give each axis once")
    size = math.prod(len(a.values) for a in axes)
    if size > MAX_CELLS:
        raise ValueError(
            f"the grid has {size:,} cells ({' x '.join(str(len(a.values)) for a in axes)}); "
            f"allowed: at most {MAX_CELLS:,}"
        )
    cells = []
    for i, combo in enumerate(itertools.product(*(a.values for a in axes))):
        chosen = dict(zip(names, combo))
        labels = {n: _label(v) for n, v in chosen.items()}
        switches = {n[len("switch:") :]: v for n, v in chosen.items() if n.startswith("switch:")}
        where = ", ".join(f"{k}={v}" for k, v in labels.items())
        try:
            rules = Rules.preset(
                chosen.get("preset", "classic"), players=chosen.get("players", 4), **switches
            )
            bots = side_bots(list(chosen["bots"]) if "bots" in chosen else None, rules.sides)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"cell {where}: {exc}") from None
        cells.append(Cell(i, labels, rules, tuple(b.spec for b in bots)))
    return cells


def _study_spec(axes: list[Axis], deals: int, seed: int, baseline: int) -> dict:
    return {
        "axes": [{"name": a.name, "values": [_label(v) for v in a.values]} for a in axes],
        "deals_per_cell": deals,
        "seed": seed,
        "baseline": baseline,
    }


def run_study(
    axes: list[Axis],
    *,
    deals: int,
    out,
    seed: int = 0,
    baseline: int = 0,
    resume: bool = False,
    overwrite: bool = False,
    workers: int | None = None,
    progress: bool = False,
    on_cell=None,
) -> pd.DataFrame:
    """Run (or continue) a study: one :func:`~canasta_sim.simulate` run per cell, then the
    table and the plot.

    Parameters
    ----------
    axes : list of Axis
    deals : int
        Deals per cell.
    out : path or None
        The study folder (see the module docstring); ``None`` plays every cell in memory
        and writes nothing.
    seed : int
        Master seed of every cell.
    baseline : int
        Number of the cell the others are compared with (0-based, grid order).
    resume : bool
        Continue the study in ``out``: play only the cells whose folders are missing (needs
        ``out``).
    overwrite : bool
        Replace an existing study or results folder ``out`` (not with ``resume``).
    workers : int, optional
        Threads per cell run.
    progress : bool
        Progress on stderr.
    on_cell : callable, optional
        Called as ``on_cell(cell, played)`` after each cell (``played``: False for a cell
        read from its folder).

    Returns
    -------
    pandas.DataFrame
        The study table (``study.csv``): one row per cell, see :func:`study_table`.

    Raises
    ------
    StudyInterrupted
        On a KeyboardInterrupt (Ctrl-C) with ``out``: the folder keeps the finished cells.
    ValueError
        For a bad grid (:func:`grid_cells`), a baseline outside the grid, ``out`` existing
        without ``resume`` or ``overwrite`` (naming ``resume`` for an unfinished study), or
        resuming a folder that is not this study
        (other grid, seed or deals) or was made by other rules or bots versions
        (:class:`~canasta_sim.results.run_folder.VersionMismatch`).
    """
    cells = grid_cells(axes)
    if not 0 <= baseline < len(cells):
        raise ValueError(f"baseline={baseline} is not a cell; allowed: 0 to {len(cells) - 1}")
    if resume and overwrite:
        raise ValueError("resume and overwrite exclude each other; give one")
    folder = _study_folder(out, _study_spec(axes, deals, seed, baseline), resume, overwrite)
    start = time.perf_counter()
    results = []
    manifests = []
    try:
        for cell in cells:
            cell_dir = None if folder is None else folder / "cells" / cell.name
            played = cell_dir is None or not (cell_dir / "aggregates.json").is_file()
            if cell_dir is not None and not played:
                saved = (cell_dir / "aggregates.json").read_text()
                agg, manifest = Aggregates.from_json(saved), read_manifest(cell_dir)
            else:
                run = _play_cell(cell, deals, seed, workers, progress, cell_dir)
                agg, manifest = run.aggregates, run.manifest
            results.append((cell, agg))
            manifests.append(manifest)
            if on_cell is not None:
                on_cell(cell, played)
        table = study_table(results, baseline)
        table.attrs["policy"] = study_policy(manifests)
        if folder is not None:
            caption = study_caption(seed, deals, len(cells), table.attrs["policy"])
            png = folder / "study.png"
            with writing(png):
                tmp = png.with_name(".study.png.tmp")
                plot_study(table, tmp, caption)
                tmp.replace(png)
            _atomic_text(folder / "study.csv", table.to_csv(index=False))
    except KeyboardInterrupt as exc:
        if folder is None:
            raise
        # the finished cells are on disk: say how many, and that resuming finishes the rest
        raise StudyInterrupted(folder, len(results), len(cells)) from exc
    table.attrs["wall_seconds"] = round(time.perf_counter() - start, 3)
    return table


def _study_folder(out, spec: dict, resume: bool, overwrite: bool) -> Path | None:
    """The study folder ``out``, checked (``resume``) or made with its manifest; ``None``
    without ``out`` (a study that writes nothing)."""
    if out is None:
        if resume:
            raise ValueError("resume needs out, the folder of the study to continue")
        return None
    folder = out_path(out)
    if resume:
        _check_resume(folder, spec)
    else:
        unfinished = None if overwrite else unfinished_study(folder)
        if unfinished is not None:
            raise BadArgument(
                "out",
                f"out={str(out)!r} is an unfinished study ({unfinished[0]} of {unfinished[1]} "
                f"cells done); pass resume=True to finish it, or overwrite=True to start it "
                f"again",
            )
        target = prepare_out(folder, overwrite)
        if target.replaces is not None:
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        _atomic_text(folder / "manifest.json", json_text({**_fresh_manifest(), "study": spec}))
    return folder


def _play_cell(cell: Cell, deals: int, seed: int, workers, progress: bool, folder):
    """Play one cell's deals (aggregates only), into its run folder ``folder`` or, with
    ``None``, in memory; the :class:`~canasta_sim.run.simulate.SimulationResult`."""
    return simulate(
        deals,
        rules=cell.rules,
        bots=list(cell.bots),
        seed=seed,
        workers=workers,
        out=folder,
        records=False,
        progress=progress,
    )


def _fresh_manifest() -> dict:
    from .._version import BOTS_VERSION, RULES_VERSION, __version__
    from .outdir import git_commit

    return {
        "canasta_sim": __version__,
        "rules_version": RULES_VERSION,
        "bots_version": BOTS_VERSION,
        "git_commit": git_commit(),
    }


def _check_resume(folder: Path, spec: dict) -> None:
    manifest = read_manifest(folder)
    if "study" not in manifest:
        raise ValueError(f"{str(folder)!r} is not a study folder (its manifest has no study)")
    check_run_versions(manifest, folder)
    found = manifest["study"]
    for key, value in spec.items():
        if found.get(key) != value:
            raise ValueError(
                f"{str(folder)!r} is a study with {key} {_spec_text(found.get(key))}, not "
                f"{_spec_text(value)}; resume it with the same grid, seed, deals and baseline, "
                f"or start a new one"
            )


def _spec_text(value) -> str:
    """A study's setting as the command line writes it: axes as ``--axis`` values
    (``players=2|4|6``), anything else as JSON."""
    if isinstance(value, list) and all(isinstance(a, dict) and "name" in a for a in value):
        return ", ".join(f"{a['name']}={'|'.join(map(str, a.get('values', [])))}" for a in value)
    return json.dumps(value)


def _atomic_text(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    write_text(tmp, text)
    with writing(path):
        tmp.replace(path)
