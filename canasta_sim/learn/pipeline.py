"""Training the apprentice from a seed in resumable stages (``canasta-sim train``): the recipe
of the shipped weight files (docs/learned.md, "Train your own").

Round by round, per player count (2, 6 and 3 players, then 4: :data:`ORDER`), into
``out/round_K/``:

- ``label_{P}p``: decisions of ``P`` players, classic and hoyle, labelled by ``pimc`` (its
  ``top=4`` candidates) rolling out the round's teacher, into ``labels_{P}p/``; a count with
  more shards than ``stage_shards`` is labelled in several stages ``label_{P}p_1``,
  ``label_{P}p_2``, ... of as many shards each (give or take one), into the same folder. In
  round 1 the teacher is the start (:data:`~canasta_sim.learn.STARTS`: ``apprentice@8``,
  the shipped files' recipe, rolls out bots version 8's apprentice; ``expert``, pimc's
  expert rollouts), in round ``k`` > 1 round ``k - 1``'s apprentice (expert iteration);
- ``fit_{P}p``: the network and the value output (:mod:`.network`) on the labels of rounds
  ``1 .. k`` of the count, into ``weights/apprentice_{P}p.npz``, with the held-out figures of
  the network, the linear baseline (:mod:`.train`), the expert and the value output in
  ``fit_{P}p.json``;
- ``judge_{P}p``: the new file against the one it would replace (seat-rotated duplicate deals,
  :func:`canasta_sim.run.compare.compare`): round ``k - 1``'s file, in round 1 the start's
  (no judge after the expert's rollouts: there is no file before). A count whose new file does
  not win by more than its 95% interval keeps the file before and stops (is neither labelled
  nor fitted again).

After the rounds, per count in :data:`ORDER`: with blocks of state features to drop
(``distil_drop``), ``distil_{P}p`` distils its kept file into one that does not read them
(:mod:`.distil`), into ``out/distil/apprentice_{P}p.npz``; then that file (or with no
distillation the kept file) is fine-tuned on the outcomes of self-play deals
(:mod:`.finetune`, the dropped blocks kept unread), into ``out/outcomes_{P}p/``: its rounds
grouped into stages ``outcomes_{P}p_1``, ``outcomes_{P}p_2``, ... of ``stage_rounds`` rounds
each (the last one the rest); a count of no rounds on outcomes keeps the file it would start
from.

The final file of every count ends in ``out/weights/``. A stage done writes its marker
``STAGE.done`` (atomically, with its wall time and load average) and is skipped on a later
run; a labelling stage killed midway keeps its whole shards and makes only the missing ones
(:func:`.shards.make_labels`), a fine-tuning stage its whole rounds.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

import numpy as np

from ..errors import BadArgument
from ..players.weights import check_players, load_weights
from . import outcomes
from .distil import distil
from .finetune import damaged, distinct_pool, is_done, pool_twins, round_files, tune_rounds
from .plan import (
    COUNTS,
    ORDER,
    TrainPlan,
    distil_file,
    distil_marker,
    round_dir,
    tune_folder,
    weights_dir,
)
from .shards import load_labels, make_labels, missing_shards
from .train_folder import (
    RECIPE,
    check_foreign,
    check_plan,
    judged,
    locked,
    read_facts,
    write_marker,
)


def label_folders(out, k: int, players: int) -> list[Path]:
    """The label folders the fit of ``players`` players in round ``k`` reads, in order (the
    order of the rows fixes the fit): the count's of rounds ``1 .. k``."""
    return [round_dir(out, r) / f"labels_{players}p" for r in range(1, k + 1)]


@contextlib.contextmanager
def _enough_labels(k: int, players: int):
    """A fit of round ``k``'s ``players``-player labels with too few rows
    (:class:`.network.TooFewRows`) as a bad ``shards_{players}p``, naming what gives more."""
    from .network import TooFewRows

    try:
        yield
    except TooFewRows as exc:
        raise BadArgument(
            f"shards_{players}p",
            f"round {k}'s {players}-player labels: {exc}; allowed: more labelled decisions: "
            f"more '--shards-{players}p', more '--deals' a shard or a smaller '--every'",
        ) from None


def fit_count(out, k: int, players: int, seed: int, baseline: bool = True) -> dict:
    """Fit round ``k``'s weight file for ``players`` players on its label folders
    (:func:`label_folders`); returns the held-out report (decisions, and ``best``/``regret``
    of the network, the linear baseline (left out without ``baseline``) and the expert,
    :func:`.train.evaluate`), also written into the weight file. When the labels keep each
    deal's outcome, the value output is fitted on the same decisions and saved beside the
    network, its held-out error (when a deal is held out) under ``value`` (``rmse``,
    ``rmse_mean``, ``r2``: :func:`.network.value_report`).

    Raises
    ------
    ValueError
        For no labelled decision with a value.
    BadArgument
        Of ``shards_{players}p`` for too few labelled decisions to fit on.
    """
    from . import network, train

    folders = label_folders(out, k, players)
    labels = load_labels([p for f in folders for p in sorted(f.glob("shard_*.npz"))])
    tr, te = train.split(labels)
    t = time.time()
    with _enough_labels(k, players):
        model = network.fit_network(labels, tr, seed=seed)
    facts: dict = {
        "round": k,
        "folders": [str(f.relative_to(out)) for f in folders],
        "decisions_train": int(len(tr)),
        "decisions_test": int(len(te)),
        "fit_seconds": round(time.time() - t, 1),
        "epochs": int(model.n_iter_),
        "library": fit_library(),
    }
    models = {"network": network.predict(model, labels), "expert": None}
    if baseline:
        models["linear"] = train.scores(train.fit(labels, tr, alpha=1e-4), labels)
    for who, sc in models.items():
        e = train.evaluate(sc, labels, te)
        facts[who] = {"best": round(float(e["best"]), 4), "regret": round(float(e["regret"]), 2)}
    saved = network.parts(model)
    if "outcome" in labels:  # shards written before outcomes were kept give no value output
        with _enough_labels(k, players):
            value = network.fit_value(labels, tr, seed=seed)
        saved |= network.value_parts(value)
        if len(te):  # tiny runs may hold no deal out
            report = network.value_report(value, labels, te, tr)
            facts["value"] = {key: round(report[key], 4) for key in ("rmse", "rmse_mean", "r2")}
    train.save(
        weights_dir(out, k) / f"apprentice_{players}p.npz",
        saved,
        players=np.int64(players),
        report=np.array(json.dumps(facts)),
    )
    return facts


def rival(out, k: int, players: int, plan: TrainPlan) -> str:
    """The bot round ``k``'s file for ``players`` players would replace: round ``k - 1``'s
    file, in round 1 the start."""
    if k == 1:
        return plan.start
    return f"apprentice:weights={weights_dir(out, k - 1) / f'apprentice_{players}p.npz'}"


def judge_count(
    out, k: int, players: int, plan: TrainPlan, threads: int = 1, scheduler=None
) -> dict:
    """Play round ``k``'s weight file for ``players`` players against the bot it would
    replace (:func:`rival`) over ``plan.judge_deals`` seat-rotated duplicate deals (rounded
    up to a multiple of the sides) of seed ``plan.judge_seed()``, the rules' classic
    preset.

    Returns
    -------
    dict
        ``deals``, ``seed``, ``against`` (the rival's spec), the new file's mean difference in
        points a deal with its 95% interval (``mean_diff``, ``diff_low``, ``diff_high``) and
        ``gains``: whether the interval lies above 0 (then round ``k``'s file is kept, else
        the rival's).
    """
    from ..game.rules import Rules
    from ..run.compare import compare

    sides = Rules(players=players).sides
    deals = -(-plan.judge_deals // sides) * sides
    old = rival(out, k, players, plan)
    table, _ = compare(
        f"apprentice:weights={weights_dir(out, k) / f'apprentice_{players}p.npz'}",
        old,
        deals=deals,
        rules=Rules(players=players),
        seed=plan.judge_seed(),
        workers=threads,
        scheduler=scheduler,
        records=False,
    )
    row = table.iloc[0]
    facts: dict = {"deals": deals, "seed": plan.judge_seed(), "against": old}
    facts |= {c: round(float(row[c]), 2) for c in ("mean_diff", "diff_low", "diff_high")}
    return facts | {"gains": bool(row["diff_low"] > 0)}


def going(out, plan: TrainPlan, k: int) -> tuple[int, ...]:
    """The player counts whose round-``k`` file is kept, in :data:`COUNTS` order: every count
    at round 0 (the start), then those whose judge of every round ``1 .. k`` that judges said
    it gains (read from the rounds' ``judge_{P}p.json``).

    Raises
    ------
    FileNotFoundError
        While one of those judges has not finished.
    """
    counts: tuple[int, ...] = COUNTS
    for r in range(1, k + 1):
        if plan.judged(r):
            counts = tuple(p for p in counts if _gains(out, r, p))
    return counts


def _gains(out, k: int, players: int) -> bool:
    """Whether round ``k``'s judge of ``players`` players found a gain.

    Raises
    ------
    FileNotFoundError
        While that judge has not finished (no marker: a report without one is of a judge
        that a rerun plays again).
    BadArgument
        Of ``out``, naming the judge's report when it is damaged (:func:`judged`).
    """
    report = judged(out, k, players)
    if report is None:
        raise FileNotFoundError(round_dir(out, k) / f"judge_{players}p.done")
    return report["gains"]


def round_stages(out, plan: TrainPlan, k: int) -> tuple[str, ...]:
    """Round ``k``'s stages in order: per count still improving after round ``k - 1``
    (:func:`going`), in :data:`ORDER`, its labelling stages, its fit and its judge (none in
    round 1 of the expert's rollouts).

    Raises
    ------
    FileNotFoundError
        While a judge of round ``k - 1`` has not run.
    """
    stages: list[str] = []
    for players in (p for p in ORDER if p in going(out, plan, k - 1)):
        stages += [name for name, _, _ in plan.label_stages(players)] + [f"fit_{players}p"]
        if plan.judged(k):
            stages.append(f"judge_{players}p")
    return tuple(stages)


def kept_rounds(out, plan: TrainPlan) -> dict[int, int]:
    """Each count's kept round of imitation: the last round it gained in (:func:`going`; 0,
    the start, when round 1 did not gain or with no round)."""
    return {p: r for r in range(plan.rounds + 1) for p in going(out, plan, r)}  # later win


def imitation_file(out, plan: TrainPlan, players: int, k: int) -> Path:
    """Round ``k``'s weight file of ``players`` players (0: the start's)."""
    return weights_dir(out, k) / f"apprentice_{players}p.npz" if k else plan.start_file(players)


def tune_start(out, plan: TrainPlan, players: int) -> Path:
    """The file the fine-tuning of ``players`` players starts from: the distilled one
    (:func:`.plan.distil_file`) when the plan drops blocks, else the kept imitation file."""
    if plan.distil_drop:
        return distil_file(out, players)
    return kept_file(out, plan, players)


def kept_file(out, plan: TrainPlan, players: int) -> Path:
    """The kept imitation file of ``players`` players (:func:`kept_rounds`)."""
    return imitation_file(out, plan, players, kept_rounds(out, plan)[players])


def keep_weights(out, plan: TrainPlan) -> Path:
    """Copy each count's final weight file into ``out/weights/``: its last round on outcomes,
    or with none the file its fine-tuning would start from (:func:`tune_start`); ``kept.json``
    names, per count, the round of imitation kept (0: the start), the judge that stopped it,
    the distilled file (``null`` with none) and the stage and round on outcomes that made the
    file (``null`` with none). Returns that folder."""
    final = Path(out) / "weights"
    final.mkdir(exist_ok=True)
    last = kept_rounds(out, plan)
    kept = {}
    for players in COUNTS:
        k, n = last[players], plan.outcome_rounds(players)
        name = f"apprentice_{players}p.npz"
        tmp = final / (name + ".tmp")
        made = round_files(tune_folder(out, players), n - 1)[0] if n else None
        source = made or tune_start(out, plan, players)
        _check_final(source, players)
        shutil.copyfile(source, tmp)
        os.replace(tmp, final / name)
        kept[str(players)] = {
            "round": k,
            "stopped_by": judged(out, k + 1, players),
            "distil": str(distil_file(out, players).relative_to(out)) if plan.distil_drop else None,
            "outcomes": {
                "stage": plan.tune_stages(players)[-1][0],
                "round": n - 1,
                "file": str(Path(made).relative_to(out)),
            }
            if made
            else None,
        }
    write_marker(final / "kept.json", kept)
    return final


def fit_library() -> dict:
    """What a fit's arithmetic depends on beyond its data and seed: the versions of
    scikit-learn and NumPy and NumPy's BLAS with the kernel it chose for this CPU (OpenBLAS
    picks one per processor family, and kernels sum in different orders: the same labels fitted
    under two kernels give different weights; ``OPENBLAS_CORETYPE`` set to the recorded kernel
    before Python starts asks for the same kernel on another processor that can run it).

    Returns
    -------
    dict
        ``{"scikit-learn": "1.9.1", "numpy": "2.4.6", "blas": "openblas 0.3.31 Haswell"}``.
    """
    import sklearn
    from threadpoolctl import threadpool_info

    blas = [i for i in threadpool_info() if i.get("user_api") == "blas"]
    # NumPy's own BLAS (SciPy may load another): the one in NumPy's folder, else the first
    mine = [i for i in blas if "numpy" in i.get("filepath", "")] or blas
    info = mine[0] if mine else {}
    kernel = " ".join(
        str(info[k]) for k in ("internal_api", "version", "architecture") if k in info
    )
    return {
        "scikit-learn": sklearn.__version__,
        "numpy": np.__version__,
        "blas": kernel or "unknown",
    }


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def _run_stage(out: Path, plan: TrainPlan, k: int, name: str, threads, scheduler, progress):
    """Run stage ``name`` of round ``k``; returns what its marker records beside the plan."""
    kind, count = name.split("_")[:2]
    players = int(count[:-1])
    if kind in ("fit", "judge"):
        if kind == "fit":
            report = fit_count(out, k, players, plan.seed)
        else:
            report = judge_count(out, k, players, plan, threads, scheduler)
        write_marker(round_dir(out, k) / f"{name}.json", report)
        return {}
    lplan = plan.label_plan(out, k, players)
    first, stop = _shard_range(plan, name)
    make_labels(
        round_dir(out, k) / f"labels_{players}p",
        lplan,
        stop,
        first=first,
        threads=threads,
        scheduler=scheduler,
        progress=progress,
    )
    return {"plan": asdict(lplan), "shards_made": [first, stop]}


def _shard_range(plan: TrainPlan, name: str) -> tuple[int, int]:
    """The first shard of labelling stage ``name`` and the one after its last."""
    players = int(name.split("_")[1][:-1])
    return next((a, b) for n, a, b in plan.label_stages(players) if n == name)


def _announce(out: Path, plan: TrainPlan, k: int, name: str) -> str:
    """The line that starts stage ``name`` of round ``k``."""
    if name.startswith("fit_"):
        return f"round {k} {name}"
    players = int(name.split("_")[1][:-1])
    if name.startswith("judge_"):
        return f"round {k} {name}: round {k} against {rival(out, k, players, plan)}"
    lplan = plan.label_plan(out, k, players)
    first, stop = _shard_range(plan, name)
    have = stop - first - len(missing_shards(round_dir(out, k) / f"labels_{players}p", stop, first))
    n = stop - first
    shards = f"{n} shard{'' if n == 1 else 's'}"
    if have:
        shards = f"resuming, {have} of {shards} already done"
    return f"round {k} {name}: {shards} ({first} to {stop - 1}), seed {lplan.seed}, {lplan.search}"


def _verdict(out: Path, k: int, name: str) -> str:
    """A judge's result in words."""
    players = name[len("judge_") : -1]
    j = judged(out, k, int(players))
    assert j is not None  # its marker is written
    keep = f"round {k} kept" if j["gains"] else f"{j['against']} kept, {players} players stop"
    return (
        f"  {j['mean_diff']:+,.1f} [{j['diff_low']:+,.1f}, {j['diff_high']:+,.1f}] points a "
        f"deal over {j['deals']:,} deals: {keep}"
    )


def _progress(out: Path, plan: TrainPlan) -> tuple[int, int, bool]:
    """Stages done and stages in all of the rounds whose stages are known and in the
    fine-tuning, and whether every round's are (a round's follow from the judges of the round
    before it)."""
    tuning = [(p, *stage) for p in ORDER for stage in plan.tune_stages(p)]
    distils = ORDER if plan.distil_drop else ()
    done = sum(_tune_done(out, *stage) for stage in tuning)
    done += sum(distil_marker(out, p).exists() and distil_file(out, p).exists() for p in distils)
    total = len(tuning) + len(distils)
    for k in range(1, plan.rounds + 1):
        try:
            stages = round_stages(out, plan, k)
        except FileNotFoundError:  # a judge of round k - 1 has not run yet
            return done, total, False
        total += len(stages)
        done += sum((round_dir(out, k) / f"{name}.done").exists() for name in stages)
    return done, total, True


def _tune_done(out: Path, players: int, name: str, first: int, stop: int) -> bool:
    """Whether fine-tuning stage ``name`` made rounds ``first .. stop - 1`` (its marker names
    them: a resume with more rounds may lengthen the last stage) and their files are all
    there (a damaged one deleted is made again)."""
    folder = tune_folder(out, players)
    marker = folder / f"{name}.done"
    return (
        marker.exists()
        and _marker_rounds(marker) == [first, stop]
        and all(is_done(folder, k) for k in range(first, stop))
    )


def _check_final(path: Path, players: int) -> None:
    """Refuse a count's final file that is not a weight file of ``players`` players (a round
    file damaged after its stage was done), before it replaces the one in ``weights/``.

    Raises
    ------
    BadArgument
        Of ``out``, naming the file.
    """
    try:
        load_weights(str(path))
        check_players(str(path), players)
    except ValueError:
        raise damaged(
            path,
            f"not a weight file of {players} players",
            "delete it and run the same command again (weights/ keeps its file meanwhile)",
        ) from None


def _marker_rounds(marker: Path) -> list:
    """The rounds a fine-tuning stage's marker names.

    Raises
    ------
    BadArgument
        Of ``out``, naming the marker, when it is damaged (no JSON object with its rounds).
    """
    rounds = read_facts(marker).get("rounds")
    if not (isinstance(rounds, list) and len(rounds) == 2):
        raise damaged(
            marker,
            "no rounds of a fine-tuning stage",
            "delete it and run the same command again, which checks its rounds again",
        )
    return rounds


def _distil_count(out: Path, plan: TrainPlan, players: int, facts: dict, echo) -> None:
    """Run stage ``distil_{P}p`` of ``players`` players when the plan drops blocks and it is
    not done: its file (the report its facts) and then its marker, which records the plan,
    the teacher, its wall time and the load average at its start and end."""
    if not plan.distil_drop:
        return
    path, marker = distil_file(out, players), distil_marker(out, players)
    if marker.exists() and path.exists():
        _check_final(path, players)  # a damaged file named before the rounds read it
        echo(f"distil_{players}p: done before")
        return
    dplan = plan.distil_plan(players)
    teacher = str(kept_file(out, plan, players))
    echo(
        f"distil_{players}p: {teacher} without the state blocks {','.join(dplan.drop)}, "
        f"{dplan.deals:,} deal{'' if dplan.deals == 1 else 's'} of seed {dplan.seed}, "
        f"{dplan.steps:,} step{'' if dplan.steps == 1 else 's'}"
    )
    t, load = time.time(), _load()
    params, made = distil(teacher, dplan)
    outcomes.write(path, params, outcomes.read_parts(teacher, "the teacher"), players, made)
    if made["decisions"]:
        echo(
            f"  {made['decisions']:,} decisions; the teacher's choice at "
            f"{made['agreement_start']:.1%} of {made['held_out_decisions']:,} held-out "
            f"decisions before, {made['agreement_end']:.1%} after"
        )
    else:
        echo("  the kept file reads none of those blocks: the distilled file is its network")
    write_marker(
        marker,
        {
            **facts,
            "teacher": teacher,
            "seconds": round(time.time() - t, 1),
            "load_start": load,
            "load_end": _load(),
        },
    )


def _tune_count(out: Path, plan: TrainPlan, players: int, facts: dict, echo) -> None:
    """Run (or resume) the fine-tuning stages of ``players`` players from
    :func:`tune_start`'s file; each stage's marker records the plan, its rounds, the starting
    file, its wall time and the load average at its start and end."""
    start = str(tune_start(out, plan, players))
    tune = plan.tune_plan(players)
    folder = tune_folder(out, players)
    for name, first, stop in plan.tune_stages(players):
        if _tune_done(out, players, name, first, stop):
            echo(f"{name}: done before")
            continue
        have = sum(is_done(folder, k) for k in range(first, stop))
        again = f" (resuming, {have} already done)" if have else ""
        # a name left out of the pool is said, with why: by the plan, or when the rounds begin
        twins = pool_twins(tune, start)
        left = "".join(
            f" ({n}: {'given twice' if n == kept else f'the same file as {kept}'})"
            for n, kept in plan.pool_left_out
        )
        left += "".join(f" ({n}: the same network as {twins[n]})" for n in twins)
        echo(
            f"{name}: rounds {first} to {stop - 1} of {plan.outcome_rounds(players)}{again}, "
            f"{tune.deals:,} deal{'' if tune.deals == 1 else 's'} each, seed {tune.seed}, pool "
            f"{','.join(distinct_pool(tune, start))}{left}, from {start}"
        )
        t, load = time.time(), _load()
        tune_rounds(folder, tune, start, first, stop, echo)
        write_marker(
            folder / f"{name}.done",
            {
                **facts,
                "rounds": [first, stop],
                "start": start,
                "seconds": round(time.time() - t, 1),
                "load_start": load,
                "load_end": _load(),
            },
        )


def run_training(
    out,
    plan: TrainPlan,
    *,
    threads: int = 1,
    scheduler: str | None = None,
    progress: bool = True,
    echo: Callable[[str], None] = print,
) -> Path:
    """Run (or resume) every stage of ``plan`` into the folder ``out`` (round by round, in
    :func:`round_stages` order, until ``plan.rounds`` or until no count improves; then, per
    count in :data:`ORDER`, the fine-tuning of its kept file), then copy each count's final
    file into ``out/weights/`` (:func:`keep_weights`) and return that folder. ``threads`` and
    ``scheduler`` are the labelling's and the judges' (:func:`.shards.make_labels`); the
    fine-tuning is one sequential learner on one thread of this machine. ``echo`` gets one
    line per stage (and per round on outcomes). Each stage's marker records its wall time
    (``seconds``) and the load average at its start and end.

    Raises
    ------
    ValueError
        For ``threads`` below 1 or a bad scheduler.
    BadArgument
        For a folder made with another plan (``rounds`` and the rounds on outcomes may grow)
        or recipe, a folder of other files, one that cannot be made, or one another run
        holds (its lock file :data:`.train_folder.LOCK_FILE`, held while the run runs: a
        second run in the folder stops at once).
    ModuleNotFoundError
        When a count is fine-tuned without JAX or optax (the extra ``train``).
    KeyboardInterrupt
        For Ctrl-C; the stage it stops has no marker, so a rerun does it again (a labelling
        stage from its whole shards, a fine-tuning stage from its whole rounds).
    """
    out = Path(out)
    check_foreign(out)  # before the lock: a folder of other files gets none
    with locked(out):
        return _train_locked(out, plan, threads, scheduler, progress, echo)


def _train_locked(out: Path, plan: TrainPlan, threads, scheduler, progress, echo) -> Path:
    """:func:`run_training`'s stages, in the folder ``out`` it has made and locked."""
    facts = json.loads(json.dumps({**asdict(plan), "recipe": RECIPE}))  # as plan.json reads
    check_plan(out, facts)
    done, total, known = _progress(out, plan)
    if done:
        more = "" if known else " (and the stages of rounds their judges have yet to decide)"
        echo(f"resuming {out}: {done} of {total}{more} stages already done")
    for k in range(1, plan.rounds + 1):
        here = round_dir(out, k)
        stages = round_stages(out, plan, k)
        if not stages:
            echo(f"round {k}: no player count improves any more, training ends")
            break
        here.mkdir(parents=True, exist_ok=True)
        for name in stages:
            marker = here / f"{name}.done"
            if marker.exists():
                echo(f"round {k} {name}: done before")
                continue
            echo(_announce(out, plan, k, name))
            t, load = time.time(), _load()
            made = _run_stage(out, plan, k, name, threads, scheduler, progress)
            seconds = round(time.time() - t, 1)
            write_marker(
                marker,
                {**facts, **made, "seconds": seconds, "load_start": load, "load_end": _load()},
            )
            if name.startswith("judge_"):
                echo(_verdict(out, k, name))
    for players in ORDER:
        _distil_count(out, plan, players, facts, echo)
        _tune_count(out, plan, players, facts, echo)
    return keep_weights(out, plan)
