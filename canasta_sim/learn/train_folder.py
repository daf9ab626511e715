"""A training folder's records and their checks (``canasta-sim train``, :mod:`.pipeline`):
its ``plan.json`` and stage markers held to the run's plan, the judges' reports, and the
lock a run holds on the folder. A record that cannot be read as what it is is a usage error
naming it (:func:`.finetune.damaged`)."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from ..errors import BadArgument
from ..players.weights import STATE_BLOCKS, default_weights_path, is_head_network
from . import TUNE_POOL
from .finetune import damaged
from .plan import COUNTS, TrainPlan, round_dir, tune_folder

#: The file of a training folder that records its plan (:class:`.plan.TrainPlan`'s fields).
PLAN_FILE = "plan.json"

#: The lock file of a training folder (:func:`locked`): held by the run in the folder, it is
#: no file of the training (never damage, nor a file of another kind in the folder).
LOCK_FILE = "train.lock"

#: The recipe's version, recorded in ``plan.json``: a folder of another recipe (1: before the
#: per-count plans, no ``recipe`` field; 2: before the judge stages; 3: bots version 8's, round
#: 1 from the expert's rollouts; 4: before the distillation stages) is not resumed.
RECIPE = 5

#: What a record of this recipe that names the start ``apprentice`` may be resumed with:
#: bots versions 10 and 11 wrote it (this recipe's), when the apprentice was a full network,
#: the files that these presets play today (version 11's first); version 12's apprentice
#: files are head networks, which no training starts from (:func:`_earlier_apprentice`).
EARLIER_APPRENTICES = ("apprentice@11", "apprentice@10")

#: The fields of recipe 1's plan, which recorded no ``recipe``: a record without ``recipe``
#: that holds another field of the run's plan is a later recipe's that lost it (damaged).
RECIPE_1 = ("seed", "rounds", "shards", "shards_other", "deals", "worlds", "every")

#: The plan's fields a resume may change: the rounds of imitation may grow (never shrink:
#: the weights follow every round; and only before any fine-tuning: they may change the file
#: it starts from), the rounds on outcomes of each count take any number at or above the
#: rounds already made (:func:`_tuned_rounds`).
GROWS = ("rounds", *(f"outcome_rounds_{p}p" for p in COUNTS))

#: The fine-tuning's other settings: a folder with no round on outcomes made yet takes other
#: values of them (nothing made depends on them; a round whose update diverged is not made).
TUNING = (
    "stage_rounds",
    "outcome_temperature",
    "outcome_lr",
    "outcome_kl",
    "outcome_pool",
    *(f"outcome_deals_{p}p" for p in COUNTS),
)

#: The distillation's settings: a folder whose plan has no distillation (``distil_drop``
#: empty) takes other values of them (they do nothing without one); a folder with one is
#: resumed with its own (its distilled files follow them).
DISTIL = ("distil_deals", "distil_steps")

#: The plan's lists: the names each takes, how many at least, and the form a plan records
#: it in (:class:`.plan.TrainPlan` puts a list it is given in it): a record of a list of
#: other names, or in another form, is no plan's.
LISTS = {
    "outcome_pool": (
        TUNE_POOL,
        1,
        "each once, in that order, no name of the weight file an earlier one names",
    ),
    "distil_drop": (STATE_BLOCKS, 0, "each at most once, in that order (empty: no distillation)"),
}

#: The plan's fields a fine-tuning stage's marker records its own values under: its rounds
#: (``[first, stop]``) and the weight file it started from.
TUNE_MARKS = ("rounds", "start")


def write_marker(path: Path, facts: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(facts, indent=1))
    os.replace(tmp, path)


def check_plan(out: Path, facts: dict) -> None:
    """Refuse to resume the folder ``out`` (made, and locked by this run) with other options
    than it was made with (its ``plan.json``, or a stage marker of a folder made before it)
    but those of :data:`GROWS`, which may change as it says, of :data:`TUNING` before any
    round on outcomes is made, and of :data:`DISTIL` when the folder's plan has no
    distillation (``distil_drop`` empty), or with another recipe, and refuse a stage marker
    that records other settings than ``plan.json`` (:func:`_check_plan_file`, checked
    first: advice to resume with ``plan.json``'s value would meet the marker's) or the run's
    (:func:`_check_markers`); records ``facts`` (the plan and its ``recipe``) in
    ``plan.json`` on the way.

    Raises
    ------
    BadArgument
        Of ``out`` for a ``plan.json`` that differs from a stage marker, naming both; naming
        the first option whose value differs from the folder's (or a marker's),
        fewer rounds of imitation than the folder was run to, more once a fine-tuning has
        begun, fewer rounds on outcomes of a count than it has made, or a damaged
        ``plan.json`` or marker (:func:`read_facts`: a field of the plan missing or of
        another JSON type than the run's; ``plan.json`` holding a field no plan has).
    """
    path = out / PLAN_FILE
    if path.exists():
        before = read_facts(path, facts)
        unknown = [k for k in before if k not in facts]
        if unknown and before.get("recipe", 1) == RECIPE:  # else the recipe is refused below
            raise damaged(
                path,
                f"not a record of canasta-sim train: a field no plan has, {unknown[0]}",
                "start over in another folder ('--out')",
            )
    else:
        markers = sorted(out.glob("round_*/*.done"))
        before = read_facts(markers[0], facts) if markers else {}
    if before and before.get("recipe", 1) != RECIPE:
        raise BadArgument(
            "out",
            f"the folder {out} was made by recipe {before.get('recipe', 1)} of canasta-sim "
            f"train, this is recipe {RECIPE}: start over in another folder ('--out')",
        )
    free = GROWS + (() if _tuned(out) else TUNING) + (() if before.get("distil_drop") else DISTIL)
    if path.exists():
        _check_plan_file(out, before, free)
    if facts["rounds"] < before.get("rounds", 0):
        raise BadArgument(
            "rounds",
            f"rounds={facts['rounds']}, but the folder {out} was run to rounds="
            f"{before['rounds']} and its weights/ follow every round: it may only grow (resume "
            f"it with {before['rounds']} or more, or start over in another folder ('--out'))",
        )
    for players in COUNTS:
        name, made = f"outcome_rounds_{players}p", _tuned_rounds(out, players)
        if facts[name] < made:
            raise BadArgument(
                name,
                f"{name}={facts[name]}, but the folder {out} has {made} round"
                f"{'' if made == 1 else 's'} on outcomes of "
                f"{players} players done (up to {tune_folder(out, players).name}/round_"
                f"{made - 1}.npz): resume it with {made} or more, or start over in another "
                "folder ('--out')",
            )
    if facts["rounds"] > before.get("rounds", facts["rounds"]) and (_tuned(out) or _distilled(out)):
        raise BadArgument(
            "rounds",
            f"rounds={facts['rounds']}, but the folder {out} was run to rounds="
            f"{before['rounds']} and has begun distilling or fine-tuning their files (distil/, "
            f"outcomes_*p/): resume it with {before['rounds']}, or start over in another folder "
            "('--out')",
        )
    for name, value in facts.items():
        if name not in free and name in before and before[name] != value:
            was = _shown(before[name])
            raise BadArgument(
                name,
                f"{name}={_shown(value)}, but the folder {out} was made with {name}={was}: "
                f"resume it with {was}, or start over in another folder ('--out')",
            )
    _check_markers(out, facts, free)
    write_marker(path, facts)


def check_foreign(out: Path) -> None:
    """Refuse a folder ``out`` that holds files (but its lock, :data:`LOCK_FILE`) and no
    record of a training: neither ``plan.json`` nor a stage marker of a folder made before
    it.

    Raises
    ------
    BadArgument
        Of ``out``, naming the folder.
    """
    if (out / PLAN_FILE).exists() or any(out.glob("round_*/*.done")) or not out.is_dir():
        return
    if any(p.name != LOCK_FILE for p in out.iterdir()):
        raise BadArgument(
            "out",
            f"the folder {out} holds files and is not a training folder of canasta-sim "
            f"train (no {PLAN_FILE}): give a new or empty folder, or one to resume",
        )


@contextlib.contextmanager
def locked(out: Path):
    """Make the folder ``out`` and hold its lock (:data:`LOCK_FILE`, an exclusive
    :class:`filelock.FileLock`) inside the block: two runs in one folder would write the
    same files.

    Raises
    ------
    BadArgument
        Of ``out``, naming the folder, when it cannot be made or another run holds its lock
        (at once: no waiting).
    """
    from filelock import FileLock, Timeout

    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadArgument("out", f"the folder {out} cannot be made: {exc.strerror}") from None
    lock = FileLock(out / LOCK_FILE, timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise BadArgument(
            "out",
            f"the folder {out} is in use: another run of canasta-sim train holds its lock "
            f"({LOCK_FILE}); wait for it to end, or give another folder ('--out')",
        ) from None
    try:
        yield
    finally:
        lock.release()


def _check_plan_file(out: Path, plan: dict, free: tuple[str, ...]) -> None:
    """Refuse the folder ``out`` whose ``plan.json`` (read as ``plan``) differs from a stage
    marker in a field the marker holds to (:func:`_marker_clash`): a hand-edited
    ``plan.json``, which the options are then held to in vain (a resume with its value
    would meet the marker's).

    Raises
    ------
    BadArgument
        Of ``out``, naming the field, both values, the marker and its stage.
    """
    clash = _marker_clash(out, plan, free)
    if clash:
        name, marker, made = clash
        raise BadArgument(
            "out",
            f"{out / PLAN_FILE} says {name}={json.dumps(plan[name])}, but the marker {marker} "
            f"of its finished stage {marker.stem} says {name}={json.dumps(made)}: restore "
            f"{name} in {PLAN_FILE} to {json.dumps(made)}, or start over in another folder "
            "('--out')",
        )


def _check_markers(out: Path, facts: dict, free: tuple[str, ...]) -> None:
    """Refuse a stage marker of the folder ``out`` whose recorded plan differs from the run's
    ``facts`` in a field not ``free`` (:func:`_marker_clash`: a folder that mixes settings,
    a marker copied from another folder).

    Raises
    ------
    BadArgument
        Of the first differing field, naming it and the marker; of ``out`` for a damaged
        marker.
    """
    clash = _marker_clash(out, facts, free)
    if clash:
        name, marker, made = clash
        raise BadArgument(
            name,
            f"{name}={_shown(facts[name])}, but the stage marker {marker} was made with "
            f"{name}={_shown(made)}: the folder {out} mixes settings, start over in another "
            "folder ('--out')",
        )


def _marker_clash(out: Path, facts: dict, free: tuple[str, ...]) -> tuple[str, Path, object] | None:
    """The first field, stage marker of the folder ``out`` and its value there where the
    marker's recorded plan differs from the plan ``facts`` in a field not ``free``, or None.
    A marker of the rounds of imitation or of a distillation is held to neither
    :data:`TUNING` (its stage does not read them) nor the other ``free`` fields (a
    distillation's to the plan's rounds, which no round follows), and a
    fine-tuning stage's marker records its own rounds and starting file under the plan's
    names of :data:`TUNE_MARKS`.

    Raises
    ------
    BadArgument
        Of ``out`` for a damaged marker (:func:`read_facts`).
    """
    imitation = GROWS + TUNING + free
    # no round of imitation follows a distillation: its marker holds the plan's rounds
    distilled = tuple(name for name in imitation if name != "rounds")
    stages: list[tuple[Path, tuple[str, ...], tuple[str, ...]]] = [
        (m, imitation, ()) for m in sorted(out.glob("round_*/*.done"))
    ]
    stages += [(m, distilled, ()) for m in sorted(out.glob("distil/*.done"))]
    tuned = sorted(out.glob("outcomes_*p/*.done"))
    stages += [(m, free + TUNE_MARKS, TUNE_MARKS) for m in tuned]
    for marker, skip, own in stages:
        made = read_facts(marker, facts, own)
        for name, value in facts.items():
            if name not in skip and name in made and made[name] != value:
                return name, marker, made[name]
    return None


def _shown(value) -> str:
    """A plan's value as its option is written: a list (the pool) comma-separated, an
    empty one ``''``."""
    if isinstance(value, list):
        return ",".join(map(str, value)) or "''"
    return str(value)


def read_facts(path: Path, fields: dict | None = None, own: tuple[str, ...] = ()) -> dict:
    """A training folder's ``plan.json`` or a stage marker (each holds the plan): a JSON
    object holding every field of ``fields`` (the run's plan, as ``plan.json`` reads), or of
    another recipe's plan (``recipe`` another number, or none: recipe 1, whose plan holds
    only fields of :data:`RECIPE_1`; a plan of more lost its ``recipe``) the ``seed`` and
    ``rounds`` every recipe records; each of these fields and ``recipe`` of the JSON type of
    the run's (:func:`_json_type`: a hand-edited ``"seed": "1"`` is no plan's), and the plan
    of this recipe one :class:`.plan.TrainPlan` takes (``"distil_drop": ["bogus"]`` is not),
    its lists in the form the plan records them (:data:`LISTS`: ``"distil_drop": ["kinds",
    "kinds"]`` is not), but for the fields of ``own``, which the record holds values of its
    own under (a fine-tuning stage's marker, :data:`TUNE_MARKS`).

    Raises
    ------
    BadArgument
        Of ``out``, naming the file and the first field missing, of another type or of a
        value no plan takes, when it is not such a record (a damaged file: a marker
        deleted, a rerun writes it again; ``plan.json`` cannot be, the folder's other files
        follow it).
    """
    plan = _json_object(path)
    if isinstance(plan, dict) and fields:
        plan = _earlier_apprentice(path, plan, fields, own)
    why = _not_a_plan(plan, fields or {}, own) if isinstance(plan, dict) else plan
    if why is None and isinstance(plan, dict):
        return plan
    raise damaged(
        path,
        f"not a record of canasta-sim train: {why}",
        "start over in another folder ('--out')"
        if path.name == PLAN_FILE
        else "delete it and run the same command again, or start over in another folder ('--out')",
    )


def _earlier_apprentice(path: Path, plan: dict, fields: dict, own: tuple[str, ...]) -> dict:
    """The record ``plan`` (of the file ``path``) of this recipe whose start is
    ``apprentice`` while that name's shipped files are head networks: a folder of bots
    version 10 or 11, whose apprentice was a full network, read with the run's start (of
    ``fields``) when that is one of :data:`EARLIER_APPRENTICES` (the user says which
    version made it; ``plan.json`` then records it). Any other record is returned as it is.

    Raises
    ------
    BadArgument
        Of ``start`` for such a record and another start of the run, naming the file, why
        and the starts to resume it with.
    """
    if plan.get("start") != "apprentice" or plan.get("recipe") != RECIPE or "start" in own:
        return plan
    if not is_head_network(str(default_weights_path(2))):  # today's apprentice can start
        return plan
    if fields.get("start") in EARLIER_APPRENTICES:
        return {**plan, "start": fields["start"]}
    newest, older = EARLIER_APPRENTICES
    raise BadArgument(
        "start",
        f"start={fields.get('start')}, but {path} says start=apprentice: it was written by "
        f"an earlier bots version (10 or 11), whose apprentice was a full network; today's "
        f"apprentice is a head network (bots version 12), which no training starts from. "
        f"Resume it with '--start {newest}' (bots version 11's full networks; "
        f"'--start {older}' for a folder made by bots version 10): {PLAN_FILE} then records "
        f'that start, as an edit of its "start" to "{newest}" would; or start over in another '
        "folder ('--out')",
    )


def _not_a_plan(plan: dict, fields: dict, own: tuple[str, ...]) -> str | None:
    """Why the record ``plan`` is not one of the run's plan ``fields`` (:func:`read_facts`),
    or None."""
    if "recipe" not in plan and any(k in fields and k not in RECIPE_1 for k in plan):
        return (
            f"no recipe, which every plan after recipe 1 records; allowed: a number, {RECIPE} "
            "for a folder of this recipe"
        )
    same = plan.get("recipe", 1) == RECIPE
    held = list(fields) if same else ["seed", "rounds"]
    lacks = [k for k in held if k not in plan]
    if lacks:
        return f"no {lacks[0]}"
    typed = [k for k in (*held, "recipe") if k in plan and k in fields and k not in own]
    wrong = [k for k in typed if _json_type(plan[k]) != _json_type(fields[k])]
    if wrong:
        was, kind = plan[wrong[0]], _json_type(fields[wrong[0]])
        allowed = f"; {_list_allowed(wrong[0])}" if wrong[0] in LISTS else ""
        return (
            f"its {wrong[0]} is {json.dumps(was)}, {_json_type(was)} where a plan has {kind}"
            f"{allowed}"
        )
    if not (same and fields):
        return None
    for k, (names, least, _) in LISTS.items():
        bad = [v for v in plan[k] if v not in names]
        if k not in own and (bad or len(plan[k]) < least):
            what = json.dumps(bad[0]) if bad else "an empty list"
            return f"its {k} is {json.dumps(plan[k])}: {what} is not allowed; {_list_allowed(k)}"
    try:
        made = TrainPlan(**{k: (fields if k in own else plan)[k] for k in fields if k != "recipe"})
    except BadArgument as exc:
        return str(exc)
    # a plan records its lists as it takes them: a resume could never name another list
    wrong = [k for k in LISTS if k not in own and plan[k] != list(getattr(made, k))]
    if wrong:
        k = wrong[0]
        # a pool of each name once in the plan's order that the plan takes shorter names
        # the start's shipped file twice: the record's distillation (or rounds) undone by hand
        if k == "outcome_pool" and plan[k] == [n for n in TUNE_POOL if n in plan[k]]:
            return (
                f"its distil_drop is [] and its rounds 0, so the fine-tuning starts from the "
                f"shipped files of its start, {plan['start']}, which its outcome_pool "
                f"{json.dumps(plan[k])} names twice (a plan records it as "
                f"{json.dumps(list(made.outcome_pool))}); {_list_allowed('distil_drop')}, "
                "one or more with this outcome_pool"
            )
        return (
            f"its {k} is {json.dumps(plan[k])}, which a plan records as "
            f"{json.dumps(list(getattr(made, k)))}; {_list_allowed(k)}"
        )
    return None


def _list_allowed(name: str) -> str:
    """The lists of :data:`LISTS` a record of the plan holds as ``name``, in JSON's words."""
    names, least, form = LISTS[name]
    return (
        f"allowed: a JSON list of {'one or more' if least else 'any'} of "
        f"{', '.join(json.dumps(n) for n in names)} (in lower case), {form}"
    )


def _json_type(value) -> str:
    """The JSON type of a value as json reads it: a number (an integer or not: ``50`` is
    ``50.0``), boolean, string, list of strings (a plan's tuple is written as one, an empty
    one too), other list, object or null."""
    if isinstance(value, bool):  # a bool is an int to Python, not to JSON
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        strings = all(isinstance(v, str) for v in value)
        return "a list of strings" if strings else "a list of other values"
    return "an object" if isinstance(value, dict) else "null"


def _json_object(path: Path) -> dict | str:
    """The JSON object the file ``path`` holds, or why it holds none (the file missing or
    unreadable, not UTF-8, not JSON, or JSON of no object)."""
    try:
        value = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        return str(exc)
    return value if isinstance(value, dict) else f"{value!r} is no JSON object"


def _tuned_rounds(out: Path, players: int) -> int:
    """Rounds on outcomes of ``players`` players made in the folder ``out``: one more than
    the last round's weight file (rounds are made in order, a round's file last)."""
    names = (p.stem[len("round_") :] for p in tune_folder(out, players).glob("round_*.npz"))
    return max((int(k) for k in names if k.isdigit()), default=-1) + 1


def _tuned(out: Path) -> bool:
    """Whether a fine-tuning of the folder ``out`` has begun (a round of it is written)."""
    return any(out.glob("outcomes_*p/round_*.npz"))


def _distilled(out: Path) -> bool:
    """Whether a distillation of the folder ``out`` is written (a ``distil/`` file)."""
    return any(out.glob("distil/*.npz"))


def _judge_file(out, k: int, players: int) -> Path:
    return round_dir(out, k) / f"judge_{players}p.json"


#: A judge's report (:func:`.pipeline.judge_count`, ``judge_{P}p.json``): its fields and
#: their types.
JUDGE_FIELDS: dict[str, type | tuple[type, ...]] = {
    "deals": int,
    "seed": int,
    "against": str,
    "mean_diff": (int, float),
    "diff_low": (int, float),
    "diff_high": (int, float),
    "gains": bool,
}


def judged(out, k: int, players: int) -> dict | None:
    """Round ``k``'s judge report of ``players`` players (:data:`JUDGE_FIELDS`), or None
    while its marker ``judge_{P}p.done`` is missing (the judge has not finished).

    Raises
    ------
    BadArgument
        Of ``out``, naming the report, when its judge is marked done and it is missing or
        not such a report: deleted with its marker, a rerun plays the judge again.
    """
    path = _judge_file(out, k, players)
    marker = path.with_suffix(".done")
    if not marker.exists():
        return None
    report = _json_object(path)
    if isinstance(report, dict):
        wrong = [n for n, kind in JUDGE_FIELDS.items() if not isinstance(report.get(n), kind)]
        if not wrong:
            return report
        report = f"its {wrong[0]} is {report.get(wrong[0])!r}"
    raise damaged(
        path,
        f"not a judge's report: {report}",
        f"delete it and {marker.name} beside it and run the same command again, which "
        "plays the judge again",
    )
