"""Training the apprentice from a seed in resumable stages (``canasta-sim train``): the recipe
of the shipped weight files (docs/learned.md, "Train your own").

Round 1 (pimc's expert rollouts) labels, into ``out/round_1/``:

- ``label_236`` / ``label_4p``: 2-, 3- and 6-player decisions into ``labels_236/`` and
  4-player ones into ``labels_4p/`` (both presets), the rollout and self-play expert at the
  4-player knobs at every count (the labels every shipped file was first fitted on);
- ``own_{P}p``: per player count, decisions of that count's own expert (its deals, rollouts
  and candidates, ``pimc:top=4``), and at 3 players ``knobs4_3p`` too (``top=4``, the expert
  at the 4-player knobs), into folders of the same names;
- ``fit_{P}p``: a network per player count (:mod:`.network`) on the labels of its count, into
  ``weights/apprentice_{P}p.npz``, with the held-out figures of the network, the linear
  baseline (:mod:`.train`) and the expert in ``fit_{P}p.json``.

Round ``k`` > 1 (expert iteration) labels ``label_236`` and ``label_4p`` with pimc rolling
out round ``k - 1``'s apprentice and fits on the labels of rounds ``1 .. k`` every count
still improving; after each fit ``judge_{P}p`` plays the new file against round ``k - 1``'s
(seat-rotated duplicate deals, :func:`canasta_sim.run.compare.compare`): a count whose new
file does not win by more than its 95% interval keeps round ``k - 1``'s file and stops (is
neither labelled nor fitted again). The stages of 2 and 6 players come first, 4 players
last; the kept file of every count ends in ``out/weights/``. A stage done writes its marker
``STAGE.done`` (atomically, with its wall time and load average) and is skipped on a later
run; a labelling stage killed midway keeps its whole shards and makes only the missing ones
(:func:`.shards.make_labels`).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ..errors import BadArgument
from ..nb.bots.policies import EXPERT_PARAMS
from . import MOST_ROUNDS, PLAN_LEAST
from .shards import LabelPlan, load_labels, make_labels, missing_shards

#: The player counts the recipe trains, each with a weight file of its own.
COUNTS = (2, 3, 4, 6)

#: The file of a training folder that records its plan (:class:`TrainPlan`'s fields).
PLAN_FILE = "plan.json"

#: The recipe's version, recorded in ``plan.json``: a folder of another recipe (1: before the
#: per-count plans, no ``recipe`` field; 2: before the judge stages) is not resumed.
RECIPE = 3

#: The judge's seed offset: a round's file meets the file it would replace on the deals of
#: seed ``seed + JUDGE_SEED``, which no labelling stage plays (they use ``seed`` to
#: ``seed + 34``).
JUDGE_SEED = 40

#: The rounds' labelling stages of every round: name, folder, player counts, seed offset
#: (round ``k``'s seed is ``seed + 2 (k - 1) + offset``).
ROUND_STAGES = (("label_236", "labels_236", (2, 3, 6), 1), ("label_4p", "labels_4p", (4,), 0))

#: The pimc knobs of the rollout expert at its 4-player defaults at every player count (round
#: 1's labels; the expert had them at every count when they were first made, bots version 3).
FOUR_PLAYER_KNOBS = ",".join(
    f"rollout.{p.name}={p.default:g}" for p in EXPERT_PARAMS if p.by_players
)

#: Round 1's per-count plans: name (= folder), player count, pimc spec, seed offset (the
#: plan's seed is ``seed + offset``; 30 and 31 are the shipped 3-player file's 31 and 32 at
#: seed 1), and whether its shard count is ``shards_knobs`` (else ``shards_own``).
OWN_PLANS = (
    ("own_2p", 2, "pimc:top=4", 32, False),
    ("own_6p", 6, "pimc:top=4", 33, False),
    ("knobs4_3p", 3, f"pimc:top=4,{FOUR_PLAYER_KNOBS}", 30, True),
    ("own_3p", 3, "pimc:top=4", 31, False),
    ("own_4p", 4, "pimc:top=4", 34, False),
)

#: Round 1's stages in order: ``label_*`` / plan names, then ``fit_{P}p`` (2 and 6 players,
#: the counts with the fewest labels, first).
ROUND1_ORDER = (
    "label_236", "own_2p", "own_6p", "fit_2p", "fit_6p",
    "knobs4_3p", "own_3p", "fit_3p", "label_4p", "own_4p", "fit_4p",
)  # fmt: skip

#: The counts a round ``k`` > 1 fits after each of its labelling stages, in order (each
#: fit followed by its judge).
ROUND_FITS = {"label_236": (2, 6, 3), "label_4p": (4,)}


@dataclass(frozen=True)
class TrainPlan:
    """What ``canasta-sim train`` makes.

    Attributes
    ----------
    seed : int
        Master seed: round ``k``'s 4-player labels use seed ``seed + 2 (k - 1)``, its 2-, 3-
        and 6-player labels ``seed + 2 (k - 1) + 1``, round 1's per-count plans ``seed + 30``
        to ``seed + 34`` (:data:`OWN_PLANS`), the network fits ``seed``.
    rounds : int
        Rounds of labelling and fitting at most (1: expert rollouts only; 3, the default:
        two rounds of expert iteration, the shipped files' recipe; at most
        :data:`MOST_ROUNDS`); a count stops earlier when its judge says so.
    shards : int
        4-player shards of ``label_4p`` per round (at least 2: one per preset).
    shards_other : int
        2-, 3- and 6-player shards of ``label_236`` per round (at least 6: one per player
        count and preset).
    shards_own : int
        Shards of each per-count plan ``own_{P}p`` of round 1 (at least 2).
    shards_knobs : int
        Shards of round 1's ``knobs4_3p`` plan (at least 2).
    deals : int
        Deals per shard.
    worlds : int
        Sampled worlds per labelled decision.
    every : int
        About one decision in ``every`` is labelled.
    judge_deals : int
        Deals each judge stage plays (rounded up to a multiple of the sides).
    """

    seed: int = 1
    rounds: int = 3
    shards: int = 500
    shards_other: int = 180
    shards_own: int = 244
    shards_knobs: int = 160
    deals: int = 20
    worlds: int = 32
    every: int = 3
    judge_deals: int = 100_000

    def __post_init__(self):
        for name, low in PLAN_LEAST.items():
            if getattr(self, name) < low:
                raise BadArgument(
                    name, f"{name}={getattr(self, name)} is not allowed; allowed: {low} or more"
                )
        if self.rounds > MOST_ROUNDS:
            raise BadArgument(
                "rounds", f"rounds={self.rounds} is not allowed; allowed: 1 to {MOST_ROUNDS}"
            )

    def label_plan(
        self, out: Path, k: int, name: str, going: tuple[int, ...] = COUNTS
    ) -> tuple[LabelPlan, int]:
        """The labelling plan of round ``k``'s stage ``name`` (a :data:`ROUND_STAGES` or, in
        round 1, an :data:`OWN_PLANS` name) and its shard count; a round stage labels only
        the player counts in ``going`` (those still improving, :func:`going`).

        Raises
        ------
        KeyError
            For a stage name of neither.
        """
        presets = ("classic", "hoyle")
        for stage, _, players, offset in ROUND_STAGES:
            if stage == name:
                plan = LabelPlan(
                    seed=self.seed + 2 * (k - 1) + offset,
                    players=tuple(p for p in players if p in going),
                    presets=presets,
                    search=f"pimc:{FOUR_PLAYER_KNOBS}" if k == 1 else "pimc:rollout=apprentice",
                    weights=str(weights_dir(out, k - 1)) if k > 1 else "",
                    deals=self.deals,
                    worlds=self.worlds,
                    every=self.every,
                )
                return plan, self.shards if players == (4,) else self.shards_other
        _, count, search, offset, knobs = next(p for p in OWN_PLANS if p[0] == name)
        plan = LabelPlan(
            seed=self.seed + offset,
            players=(count,),
            presets=presets,
            search=search,
            deals=self.deals,
            worlds=self.worlds,
            every=self.every,
        )
        return plan, self.shards_knobs if knobs else self.shards_own


def label_folders(out, k: int, players: int) -> list[Path]:
    """The label folders the fit of ``players`` players in round ``k`` reads, in order (the
    order of the rows fixes the fit): per round ``r`` of ``1 .. k`` its round stage of that
    count, and after round 1's its per-count plans in :data:`OWN_PLANS` order."""
    folders = []
    for r in range(1, k + 1):
        folders += [round_dir(out, r) / f for _, f, ps, _ in ROUND_STAGES if players in ps]
        if r == 1:
            folders += [round_dir(out, 1) / n for n, p, *_ in OWN_PLANS if p == players]
    return folders


def round_dir(out, k: int) -> Path:
    return Path(out) / f"round_{k}"


def label_folder(out, k: int, name: str) -> Path:
    """The folder of round ``k``'s labelling stage ``name`` (a :data:`ROUND_STAGES` or an
    :data:`OWN_PLANS` name)."""
    return round_dir(out, k) / next((f for s, f, *_ in ROUND_STAGES if s == name), name)


def weights_dir(out, k: int) -> Path:
    """Where round ``k`` writes its weight files (``apprentice_{players}p.npz``)."""
    return round_dir(out, k) / "weights"


def _write_marker(path: Path, facts: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(facts, indent=1))
    os.replace(tmp, path)


def _check_plan(out: Path, facts: dict) -> None:
    """Refuse to resume the folder ``out`` with other options than it was made with (its
    ``plan.json``, or a stage marker of a folder made before it) but ``rounds``, which may
    grow, or with another recipe, and refuse a folder that holds other files; records
    ``facts`` (the plan and its ``recipe``) in ``plan.json`` on the way.

    Raises
    ------
    BadArgument
        Naming the first option whose value differs from the folder's, fewer rounds than the
        folder was run to, a folder of other files, or a folder that cannot be made.
    """
    path = out / PLAN_FILE
    if path.exists():
        before = json.loads(path.read_text())
    else:
        markers = sorted(out.glob("round_*/*.done"))
        before = json.loads(markers[0].read_text()) if markers else {}
        if not before and out.is_dir() and any(out.iterdir()):
            raise BadArgument(
                "out",
                f"the folder {out} holds files and is not a training folder of canasta-sim "
                f"train (no {PLAN_FILE}): give a new or empty folder, or one to resume",
            )
    if facts["rounds"] < before.get("rounds", 0):
        raise BadArgument(
            "rounds",
            f"rounds={facts['rounds']}, but the folder {out} was run to rounds="
            f"{before['rounds']} and its weights/ follow every round's judges: --rounds may "
            f"only grow (resume it with {before['rounds']} or more; each round's files are in "
            f"{out}/round_K/weights/)",
        )
    if before and before.get("recipe", 1) != RECIPE:
        raise BadArgument(
            "out",
            f"the folder {out} was made by recipe {before.get('recipe', 1)} of canasta-sim "
            f"train, this is recipe {RECIPE}: start over in another folder (--out)",
        )
    for name, value in facts.items():
        if name != "rounds" and name in before and before[name] != value:
            raise BadArgument(
                name,
                f"{name}={value}, but the folder {out} was made with {name}={before[name]}: "
                f"resume it with {before[name]}, or start over in another folder (--out)",
            )
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadArgument("out", f"the folder {out} cannot be made: {exc.strerror}") from None
    _write_marker(path, facts)


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
        For no labelled decision of ``players`` players with a value.
    """
    from . import network, train

    folders = label_folders(out, k, players)
    labels = load_labels([p for f in folders for p in sorted(f.glob("shard_*.npz"))])
    tr_all, te_all = train.split(labels)
    keep = labels["players"] == players
    tr, te = tr_all[keep[tr_all]], te_all[keep[te_all]]
    t = time.time()
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


def judge_count(
    out, k: int, players: int, plan: TrainPlan, threads: int = 1, scheduler=None
) -> dict:
    """Play round ``k``'s weight file for ``players`` players against round ``k - 1``'s (the
    file it would replace) over ``plan.judge_deals`` seat-rotated duplicate deals (rounded up
    to a multiple of the sides) of seed ``plan.seed + JUDGE_SEED``, the rules' classic preset.

    Returns
    -------
    dict
        ``deals``, ``seed``, the new file's mean difference in points a deal with its 95%
        interval (``mean_diff``, ``diff_low``, ``diff_high``) and ``gains``: whether the
        interval lies above 0 (then round ``k``'s file is kept, else round ``k - 1``'s).
    """
    from ..game.rules import Rules
    from ..run.compare import compare

    sides = Rules(players=players).sides
    deals = -(-plan.judge_deals // sides) * sides
    new, old = (weights_dir(out, r) / f"apprentice_{players}p.npz" for r in (k, k - 1))
    table, _ = compare(
        f"apprentice:weights={new}",
        f"apprentice:weights={old}",
        deals=deals,
        rules=Rules(players=players),
        seed=plan.seed + JUDGE_SEED,
        workers=threads,
        scheduler=scheduler,
        records=False,
    )
    row = table.iloc[0]
    facts: dict = {"deals": deals, "seed": plan.seed + JUDGE_SEED}
    facts |= {c: round(float(row[c]), 2) for c in ("mean_diff", "diff_low", "diff_high")}
    return facts | {"gains": bool(row["diff_low"] > 0)}


def going(out, k: int) -> tuple[int, ...]:
    """The player counts whose round-``k`` file is kept, in :data:`COUNTS` order: every count
    up to round 1 (``k`` 0 or 1), then those whose judge of every later round said it gains
    (read from the rounds' ``judge_{P}p.json``)."""
    counts: tuple[int, ...] = COUNTS
    for r in range(2, k + 1):
        counts = tuple(p for p in counts if json.loads(_judge_file(out, r, p).read_text())["gains"])
    return counts


def _judge_file(out, k: int, players: int) -> Path:
    return round_dir(out, k) / f"judge_{players}p.json"


def round_stages(out, k: int) -> tuple[str, ...]:
    """Round ``k``'s stages in order: :data:`ROUND1_ORDER` for round 1; for a later round
    each labelling stage of a count still improving after round ``k - 1`` (:func:`going`),
    followed by that count's fit and judge (:data:`ROUND_FITS`)."""
    if k == 1:
        return ROUND1_ORDER
    counts = going(out, k - 1)
    stages: list[str] = []
    for label, fits in ROUND_FITS.items():
        mine = [p for p in fits if p in counts]
        if mine:
            stages += [label] + [f"{s}_{p}p" for p in mine for s in ("fit", "judge")]
    return tuple(stages)


def keep_weights(out, rounds: int) -> Path:
    """Copy each count's kept weight file (the last round it gained in, :func:`going`) into
    ``out/weights/``, with ``kept.json`` naming the round of each and the judge that stopped
    it; returns that folder."""
    final = Path(out) / "weights"
    final.mkdir(exist_ok=True)
    last = {p: r for r in range(1, rounds + 1) for p in going(out, r)}  # later rounds win
    kept = {}
    for players in COUNTS:
        k = last[players]
        name = f"apprentice_{players}p.npz"
        tmp = final / (name + ".tmp")
        shutil.copyfile(weights_dir(out, k) / name, tmp)
        os.replace(tmp, final / name)
        stop = _judge_file(out, k + 1, players)
        kept[str(players)] = {
            "round": k,
            "stopped_by": json.loads(stop.read_text()) if stop.exists() else None,
        }
    _write_marker(final / "kept.json", kept)
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
    here = round_dir(out, k)
    if name.startswith(("fit_", "judge_")):
        kind, players = name.split("_")[0], int(name.split("_")[1][:-1])
        if kind == "fit":
            report = fit_count(out, k, players, plan.seed)
        else:
            report = judge_count(out, k, players, plan, threads, scheduler)
        _write_marker(here / f"{name}.json", report)
        return {}
    lplan, n = plan.label_plan(out, k, name, going(out, k - 1))
    make_labels(
        label_folder(out, k, name),
        lplan,
        n,
        threads=threads,
        scheduler=scheduler,
        progress=progress,
    )
    return {"plan": asdict(lplan), "shards_made": n}


def _announce(out: Path, plan: TrainPlan, k: int, name: str) -> str:
    """The line that starts stage ``name`` of round ``k``."""
    if name.startswith("fit_"):
        return f"round {k} {name}"
    if name.startswith("judge_"):
        return f"round {k} {name}: round {k} against round {k - 1}"
    lplan, n = plan.label_plan(out, k, name, going(out, k - 1))
    have = n - len(missing_shards(label_folder(out, k, name), n))
    shards = f"resuming, {have} of {n} shards already done" if have else f"{n} shards"
    return f"round {k} {name}: {shards}, seed {lplan.seed}, {lplan.search}"


def _verdict(out: Path, k: int, name: str) -> str:
    """A judge's result in words."""
    j = json.loads((round_dir(out, k) / f"{name}.json").read_text())
    players = name[len("judge_") : -1]
    keep = f"round {k} kept" if j["gains"] else f"round {k - 1} kept, {players} players stop"
    return (
        f"  {j['mean_diff']:+,.1f} [{j['diff_low']:+,.1f}, {j['diff_high']:+,.1f}] points a "
        f"deal over {j['deals']:,} deals: {keep}"
    )


def _progress(out: Path, rounds: int) -> tuple[int, int, bool]:
    """Stages done and stages in all of the rounds whose stages are known, and whether every
    round's are (a round's follow from the judges of the round before it)."""
    done = total = 0
    for k in range(1, rounds + 1):
        try:
            stages = round_stages(out, k)
        except FileNotFoundError:  # a judge of round k - 1 has not run yet
            return done, total, False
        total += len(stages)
        done += sum((round_dir(out, k) / f"{name}.done").exists() for name in stages)
    return done, total, True


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
    :func:`round_stages` order, until ``plan.rounds`` or until no count improves), then copy
    each count's kept file into ``out/weights/`` (:func:`keep_weights`) and return that
    folder. ``threads`` and ``scheduler`` are the labelling's and the judges'
    (:func:`.shards.make_labels`); ``echo`` gets one line per stage. Each stage's marker
    records its wall time (``seconds``) and the load average at its start and end.

    Raises
    ------
    ValueError
        For a bad plan, ``threads`` below 1 or a bad scheduler.
    BadArgument
        For a folder made with another plan (``rounds`` may differ) or recipe.
    KeyboardInterrupt
        For Ctrl-C; the stage it stops has no marker, so a rerun does it again.
    """
    out = Path(out)
    facts = {**asdict(plan), "recipe": RECIPE}
    _check_plan(out, facts)
    done, total, known = _progress(out, plan.rounds)
    if done:
        more = "" if known else " (and the stages of rounds their judges have yet to decide)"
        echo(f"resuming {out}: {done} of {total}{more} stages already done")
    for k in range(1, plan.rounds + 1):
        here = round_dir(out, k)
        stages = round_stages(out, k)
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
            _write_marker(
                marker,
                {**facts, **made, "seconds": seconds, "load_start": load, "load_end": _load()},
            )
            if name.startswith("judge_"):
                echo(_verdict(out, k, name))
    return keep_weights(out, plan.rounds)
