"""A training folder's records held to the run's plan (``canasta_sim/learn/train_folder.py``):
the distillation's settings free in a folder made without one, and a ``plan.json`` or stage
marker whose field has another JSON type than the run's (or a value no plan takes) damaged.
Every folder here is ``--rounds 0`` with no round on outcomes: nothing is played."""

import json
from dataclasses import asdict

import pytest
from click.testing import CliRunner

from canasta_sim.cli import main
from canasta_sim.cli.training import _pool
from canasta_sim.errors import BadArgument
from canasta_sim.learn import PLAN_RANGES
from canasta_sim.learn.plan import TrainPlan
from canasta_sim.learn.train_folder import RECIPE, check_plan

#: A folder of --start's shipped files: no labels, no distillation, no round on outcomes.
NOTHING = [
    "--quiet", "--rounds", "0", "--start", "apprentice@9",
    *(f"--outcome-rounds-{p}p=0" for p in (2, 3, 4, 6)),
]  # fmt: skip


def _train(out, *args):
    return CliRunner().invoke(main, ["train", "--out", str(out), *NOTHING, *args])


def _plain(out) -> dict:
    """Make the folder ``out`` with the defaults and return its plan.json."""
    r = _train(out)
    assert r.exit_code == 0, r.output
    return json.loads((out / "plan.json").read_text())


def test_a_folder_made_without_a_distillation_takes_other_distil_settings(tmp_path):
    """--distil-deals and --distil-steps do nothing without --distil-drop: a resume with
    others is no other plan, and plan.json records the run's (a stage marker of the rounds
    of imitation recording the defaults is not held to them either)."""
    out = tmp_path / "t"
    plan = _plain(out)
    assert (plan["distil_drop"], plan["distil_deals"], plan["distil_steps"]) == ([], 4000, 3000)
    (out / "round_1").mkdir()
    (out / "round_1" / "fit_2p.done").write_text(json.dumps(plan))
    r = _train(out, "--distil-deals", "10", "--distil-steps", "7")
    assert r.exit_code == 0, r.output
    again = json.loads((out / "plan.json").read_text())
    assert (again["distil_deals"], again["distil_steps"]) == (10, 7)
    r = _train(out, "--distil-drop", "kinds", "--distil-deals", "10", "--distil-steps", "7")
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "--distil-drop" in text, text
    assert "was made with distil_drop='': resume it with ''" in text


@pytest.mark.parametrize(
    "args, said",
    [
        (["--distil-deals", "10"], "distil_deals=10, but the folder {out} was made with "
         "distil_deals=4000: resume it with 4000, or start over"),
        (["--distil-steps", "7"], "distil_steps=7, but the folder {out} was made with "
         "distil_steps=3000: resume it with 3000, or start over"),
    ],
)  # fmt: skip
def test_a_folder_with_a_distillation_refuses_other_distil_settings(tmp_path, args, said):
    pytest.importorskip("jax")  # a distillation needs the train extra before any check
    out = tmp_path / "t"
    out.mkdir()
    plan = TrainPlan(rounds=0, start="apprentice@9", distil_drop=("kinds",),
                     **{f"outcome_rounds_{p}p": 0 for p in (2, 3, 4, 6)})  # fmt: skip
    record = json.dumps({**asdict(plan), "recipe": RECIPE})
    (out / "plan.json").write_text(record)
    r = _train(out, "--distil-drop", "kinds", *args)
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and args[0] in text and said.format(out=out) in text, text
    assert "Traceback" not in text and (out / "plan.json").read_text() == record
    assert not (out / "distil").exists()


@pytest.mark.parametrize(
    "field, value, said",
    [
        ("distil_deals", "10", 'its distil_deals is "10", a string where a plan has a number'),
        ("seed", "0", 'its seed is "0", a string where a plan has a number'),
        ("seed", True, "its seed is true, a boolean where a plan has a number"),
        ("recipe", str(RECIPE), f'its recipe is "{RECIPE}", a string where a plan has a number'),
        ("distil_drop", "", 'its distil_drop is "", a string where a plan has a list of strings'),
        ("distil_drop", [1], "its distil_drop is [1], a list of other values where a plan has "
         "a list of strings"),
        ("outcome_pool", {"self": 1}, "its outcome_pool is {\"self\": 1}, an object where a "
         "plan has a list of strings"),
        ("distil_drop", ["bogus"], 'its distil_drop is ["bogus"]: "bogus" is not allowed; '
         'allowed: a JSON list of any of "kinds", "neighbours" (in lower case), each at most '
         "once, in that order (empty: no distillation)"),
        ("distil_drop", ["KINDS"], 'its distil_drop is ["KINDS"]: "KINDS" is not allowed; '
         'allowed: a JSON list of any of "kinds", "neighbours" (in lower case)'),
        ("outcome_pool", [], "its outcome_pool is []: an empty list is not allowed; allowed: "
         'a JSON list of one or more of "self", "start", "apprentice", '),
        # a value the option refuses: of no integer, or out of the option's range
        ("seed", -1, "seed=-1 is not allowed; allowed: an integer, 0 to "
         "18,446,744,073,709,551,615"),
        ("seed", 1e30, "seed=1e+30 is not allowed; allowed: an integer, 0 to "
         "18,446,744,073,709,551,615"),
        ("seed", 2**64, f"seed={2**64} is not allowed; allowed: an integer, 0 to "),
        ("rounds", 0.5, "rounds=0.5 is not allowed; allowed: an integer, 0 to 15"),
        ("rounds", 16, "rounds=16 is not allowed; allowed: an integer, 0 to 15"),
        ("worlds", 99999, "worlds=99999 is not allowed; allowed: an integer, 1 to 10,000"),
        ("shards_2p", 1, "shards_2p=1 is not allowed; allowed: an integer, 2 to "),
        ("outcome_temperature", 0.5, "outcome_temperature=0.5 is not allowed; allowed: a "
         "finite number of at least 1"),
        # a list in another form than a plan records it: a resume could never match it
        ("distil_drop", ["kinds", "kinds"], 'its distil_drop is ["kinds", "kinds"], which a '
         'plan records as ["kinds"]; allowed: a JSON list of any of "kinds", "neighbours" (in '
         "lower case), each at most once, in that order"),
        ("distil_drop", ["neighbours", "kinds"], 'its distil_drop is ["neighbours", "kinds"], '
         'which a plan records as ["kinds", "neighbours"]; allowed: a JSON list of any of'),
        ("outcome_pool", ["self", "start", "self"], 'its outcome_pool is ["self", "start", '
         '"self"], which a plan records as ["self", "start"]; allowed: a JSON list of one or '
         'more of "self", "start", "apprentice", "apprentice@8", "apprentice@9", '
         '"apprentice@10", "apprentice@11" (in lower case), each once, in that order'),
    ],
)  # fmt: skip
def test_a_plan_json_field_of_another_type_or_no_plans_value_is_damaged(
    tmp_path, field, value, said
):
    """A hand-edited plan.json whose field holds another JSON type than the run's plan (a
    string "10" prints as the number 10) or a value no plan takes is damaged, naming the
    field, not a plan to resume with that value; it is left as it was."""
    out = tmp_path / "t"
    plan = _plain(out)
    path = out / "plan.json"
    record = json.dumps({**plan, field: value})
    path.write_text(record)
    r = _train(out)
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "--out" in text, text
    assert f"{path} is damaged (not a record of canasta-sim train: {said}" in text
    assert "start over in another folder ('--out')" in text and "Traceback" not in text
    assert path.read_text() == record


@pytest.mark.parametrize(
    "spelled",
    ["apprentice@8,self", " SELF , Apprentice@8", "apprentice@8,self,self", "self,apprentice@9"],
)
def test_a_resume_names_the_pool_in_any_order_and_spelling(tmp_path, spelled):
    """A fresh user's case: a fine-tuning begun with --outcome-pool self,apprentice@8 was
    refused on resume with apprentice@8,self; the plan takes a pool's names in one order,
    each once, so the same names are the same plan (another name is not)."""
    out = tmp_path / "t"
    r = _train(out, "--outcome-pool", "self,apprentice@8")
    assert r.exit_code == 0, r.output
    (out / "outcomes_2p").mkdir()
    (out / "outcomes_2p" / "round_0.npz").write_bytes(b"")  # a fine-tuning begun
    plan = TrainPlan(rounds=0, start="apprentice@9", outcome_pool=_pool(None, None, spelled),
                     **{f"outcome_rounds_{p}p": int(p == 2) for p in (2, 3, 4, 6)})  # fmt: skip
    facts = json.loads(json.dumps({**asdict(plan), "recipe": RECIPE}))
    if "@9" in spelled:
        with pytest.raises(BadArgument, match="^outcome_pool=self,apprentice@9, but the folder"):
            check_plan(out, facts)
    else:
        check_plan(out, facts)
    assert json.loads((out / "plan.json").read_text())["outcome_pool"] == ["self", "apprentice@8"]


@pytest.mark.parametrize(
    "emptied, said",
    [
        ([], "its distil_drop is [] and its rounds 0, so the fine-tuning starts from the shipped "
         "files of its start, apprentice@9, which its outcome_pool [\"self\", \"start\", "
         "\"apprentice@9\"] names twice (a plan records it as [\"self\", \"start\"]); "),
        ("", 'its distil_drop is "", a string where a plan has a list of strings; '),
    ],
)  # fmt: skip
def test_a_distil_drop_emptied_in_plan_json_is_its_damage(tmp_path, emptied, said):
    """A fresh user's case: distil_drop emptied in plan.json of a distillation whose pool
    names --start's name beside start (two files with the distillation, one without) was
    damage of outcome_pool, in its words; it is distil_drop's, saying what it takes."""
    out = tmp_path / "t"
    out.mkdir()
    pool = ("self", "start", "apprentice@9")
    plan = TrainPlan(rounds=0, start="apprentice@9", distil_drop=("kinds",), outcome_pool=pool,
                     **{f"outcome_rounds_{p}p": 0 for p in (2, 3, 4, 6)})  # fmt: skip
    assert plan.outcome_pool == pool
    path = out / "plan.json"
    path.write_text(json.dumps({**asdict(plan), "recipe": RECIPE, "distil_drop": emptied}))
    r = _train(out)
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "Traceback" not in text, text
    allowed = ('allowed: a JSON list of any of "kinds", "neighbours" (in lower case), each at '
               "most once, in that order (empty: no distillation)")  # fmt: skip
    assert f"{path} is damaged (not a record of canasta-sim train: {said}{allowed}" in text


def test_a_plan_json_that_lost_its_recipe_is_damaged_not_recipe_1(tmp_path):
    """A fresh user's case: recipe deleted from plan.json was read as recipe 1 (its plan.json
    recorded none), which holds none of the later recipes' fields; it is a missing field."""
    out = tmp_path / "t"
    plan = _plain(out)
    path = out / "plan.json"
    del plan["recipe"]
    path.write_text(json.dumps(plan))
    r = _train(out)
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "Traceback" not in text, text
    assert (
        f"{path} is damaged (not a record of canasta-sim train: no recipe, which every plan "
        f"after recipe 1 records; allowed: a number, {RECIPE} for a folder of this recipe)"
    ) in text
    # recipe 1's plan.json, of its own fields only, is that recipe's folder
    old = {"seed": 1, "rounds": 2, "shards": 500, "shards_other": 180, "deals": 20,
           "worlds": 32, "every": 3}  # fmt: skip
    path.write_text(json.dumps(old))
    text = " ".join(_train(out).output.split())
    assert f"the folder {out} was made by recipe 1 of canasta-sim train, this is recipe" in text


@pytest.mark.parametrize("recorded", [["neighbours"], ["kinds", "neighbours"], []])
def test_the_advice_of_another_distil_drop_is_a_value_the_option_takes(tmp_path, recorded):
    """A folder whose plan drops other blocks than the run's is resumed with the value the
    refusal names: --distil-drop reads it as the plan the folder records."""
    pytest.importorskip("jax")  # a distillation needs the train extra before any check
    out = tmp_path / "t"
    out.mkdir()
    plan = TrainPlan(rounds=0, start="apprentice@9", distil_drop=tuple(recorded),
                     **{f"outcome_rounds_{p}p": 0 for p in (2, 3, 4, 6)})  # fmt: skip
    (out / "plan.json").write_text(json.dumps({**asdict(plan), "recipe": RECIPE}))
    r = _train(out, "--distil-drop", "kinds,kinds" if recorded != ["kinds"] else "neighbours")
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "--distil-drop" in text, text
    advised = text.split(" resume it with ")[1].split(", or start over")[0]
    taken = _pool(None, None, "" if advised == "''" else advised)
    assert list(TrainPlan(distil_drop=taken).distil_drop) == recorded


def test_a_number_recorded_as_an_integer_or_not_is_one_number(tmp_path):
    """JSON has one number type: 50 recorded for a float setting, 0.0 for an integer one, are
    the plan's values, and the resume rewrites them as the run's."""
    out = tmp_path / "t"
    plan = _plain(out)
    path = out / "plan.json"
    path.write_text(json.dumps({**plan, "outcome_temperature": 50, "seed": 0.0, "every": 3.0}))
    r = _train(out)
    assert r.exit_code == 0, r.output
    again = json.loads(path.read_text())
    assert (again["outcome_temperature"], again["seed"], again["every"]) == (50.0, 0, 3)
    assert isinstance(again["outcome_temperature"], float) and isinstance(again["seed"], int)


def test_a_fine_tuning_marker_holds_its_own_rounds_but_the_plans_types(tmp_path):
    """A fine-tuning stage's marker records its rounds as a list and its starting file under
    the plan's names: no other type than the plan's there, but any other field of another
    type makes it damaged, naming it and what to do."""
    out = tmp_path / "t"
    plan = _plain(out)
    (out / "outcomes_2p").mkdir()
    marker = out / "outcomes_2p" / "outcomes_2p_1.done"
    marker.write_text(json.dumps({**plan, "rounds": [0, 1], "start": "some/file.npz"}))
    r = _train(out)
    assert r.exit_code == 0, r.output
    marker.write_text(json.dumps({**plan, "rounds": [0, 1], "every": "3"}))
    r = _train(out)
    text = " ".join(r.output.split())
    assert r.exit_code == 2, text
    assert f'{marker} is damaged (not a record of canasta-sim train: its every is "3", a ' in text
    assert "delete it and run the same command again" in text and "Traceback" not in text


@pytest.mark.parametrize("name", list(PLAN_RANGES))
def test_the_plan_and_its_option_refuse_the_same_values(name):
    """Each integer of the plan is refused by TrainPlan (so by a plan.json) just outside the
    range its option takes, and taken at both ends of it: one range for both."""
    low, high = PLAN_RANGES[name]
    option = "--" + name.replace("_", "-")
    for value in (low - 1, high + 1):
        with pytest.raises(BadArgument, match=f"^{name}={value} is not allowed"):
            TrainPlan(**{name: value})
        r = CliRunner().invoke(main, ["train", "--out", "/never/made", option, str(value)])
        text = r.output
        assert r.exit_code == 2 and f"Invalid value for '{option}': {value} is not" in text, text
    # rounds=0 with the default start fine-tunes its files; a round's deals are at least the
    # pool's opponents (one here)
    alone = {"outcome_pool": ("self",)} if name.startswith("outcome_deals") else {}
    if name != "rounds":
        assert getattr(TrainPlan(**{name: low}, **alone), name) == low
    assert getattr(TrainPlan(**{name: high}), name) == high


@pytest.mark.parametrize(
    "field, edited, made",
    [("seed", 5, 0), ("outcome_pool", ["self"], ["self", "start"]), ("outcome_kl", 0.2, 0.1)],
)
def test_a_plan_json_edited_against_a_finished_stage_says_so_first(tmp_path, field, edited, made):
    """plan.json edited to a value that a finished stage's marker contradicts: the refusal
    names both records and asks to restore plan.json's value (not to resume with the edited
    value, which the marker would refuse next), with or without the option of the edit;
    restored as it says, the folder resumes."""
    out = tmp_path / "t"
    plan = _plain(out)
    marker = out / "outcomes_2p" / "outcomes_2p_1.done"
    marker.parent.mkdir()
    marker.write_text(json.dumps({**plan, "rounds": [0, 0], "start": "some/file.npz"}))
    (out / "outcomes_2p" / "round_0.npz").write_bytes(b"")  # a fine-tuning begun
    path = out / "plan.json"
    path.write_text(json.dumps({**plan, field: edited}))
    option = "--" + field.replace("_", "-")
    for args in ([], [option, ",".join(edited) if isinstance(edited, list) else str(edited)]):
        r = _train(out, "--outcome-rounds-2p", "1", *args)
        text = " ".join(r.output.split())
        assert r.exit_code == 2 and "Traceback" not in text, text
        assert (
            f"{path} says {field}={json.dumps(edited)}, but the marker {marker} of its finished "
            f"stage outcomes_2p_1 says {field}={json.dumps(made)}: restore {field} in plan.json "
            f"to {json.dumps(made)}, or start over in another folder ('--out')"
        ) in text
    path.write_text(json.dumps({**plan, field: made}))
    (out / "outcomes_2p" / "round_0.npz").unlink()
    assert _train(out).exit_code == 0


def test_a_plan_json_edited_against_a_distillation_says_so_and_then_advises_its_value(tmp_path):
    """The user's case: plan.json's distil_drop edited to ["neighbours"] in a folder whose
    distillation marker says ["kinds"]: said first, whatever --distil-drop; plan.json
    restored, the advice is the marker's value, not one the marker would refuse."""
    out = tmp_path / "t"
    plan = _plain(out)
    marker = out / "distil" / "distil_2p.done"
    marker.parent.mkdir()
    marker.write_text(json.dumps({**plan, "distil_drop": ["kinds"]}))
    path = out / "plan.json"
    path.write_text(json.dumps({**plan, "distil_drop": ["neighbours"]}))
    r = _train(out)
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "Traceback" not in text, text
    assert (
        f'{path} says distil_drop=["neighbours"], but the marker {marker} of its finished stage '
        'distil_2p says distil_drop=["kinds"]: restore distil_drop in plan.json to ["kinds"]'
    ) in text
    path.write_text(json.dumps({**plan, "distil_drop": ["kinds"]}))
    r = _train(out)
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "--distil-drop" in text, text
    assert "was made with distil_drop=kinds: resume it with kinds, or start over" in text


def _distilled_with_plan_edit(tmp_path, **edit):
    """A folder of the defaults with a finished distillation (its marker the plan), its
    plan.json edited by ``edit``, run again: plan.json, the marker and the
    refusal's text (exit code 2, no traceback)."""
    out = tmp_path / "t"
    plan = _plain(out)
    marker = out / "distil" / "distil_2p.done"
    marker.parent.mkdir()
    marker.write_text(json.dumps(plan))
    path = out / "plan.json"
    path.write_text(json.dumps({**plan, **edit}))
    r = _train(out)
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "Traceback" not in text, text
    return path, marker, text


def test_a_plan_json_whose_rounds_were_edited_after_a_distillation_says_so(tmp_path):
    """A fresh user's case: plan.json's rounds edited from 0 to 1 in a folder whose
    distillation is done; the advice was "resume it with 1 or more", which then reran
    imitation rounds before the finished distillation. No round follows a distillation, so
    its marker holds plan.json to its rounds."""
    path, marker, text = _distilled_with_plan_edit(tmp_path, rounds=1)
    assert f"{path} says rounds=1, but the marker {marker}" in text
    assert "restore rounds in plan.json to 0" in text


def test_fewer_deals_a_round_than_opponents_in_the_pool_is_refused_up_front():
    """Each opponent of the pool plays a share of a round's deals: fewer deals than
    opponents left one of them none, and the run stopped after its distillation."""
    plan = asdict(TrainPlan(rounds=0, start="apprentice@9", outcome_rounds_2p=1))
    plan.update(outcome_pool=("self", "start", "apprentice@8"), outcome_deals_2p=2)
    with pytest.raises(BadArgument, match="outcome_deals_2p=2 is fewer than the 3 opponents"):
        TrainPlan(**plan)
    plan.update(outcome_deals_2p=3)
    assert TrainPlan(**plan).outcome_deals_2p == 3


def test_a_plan_json_with_a_field_no_plan_has_is_damaged_not_its_markers(tmp_path):
    """A fresh user's case: "extra": 1 added to plan.json was blamed on every stage marker
    (each lacking it), whose advice deleted finished stages one by one."""
    path, marker, text = _distilled_with_plan_edit(tmp_path, extra=1)
    assert f"{path} is damaged (not a record of canasta-sim train: a field no plan has, extra)" in (
        text
    )
    assert str(marker) not in text


def test_a_plan_json_of_an_earlier_bots_versions_apprentice_is_no_damage(tmp_path):
    """A fresh user's case: a folder made before bots version 12 with --start apprentice (then
    a full network; today's apprentice files are head networks, no start) was reported
    damaged. It says which version wrote it and resumes with --start apprentice@11, its
    stage markers of start apprentice too; plan.json then records that start."""
    out = tmp_path / "t"
    plan = _plain(out)
    path = out / "plan.json"
    earlier = json.dumps({**plan, "start": "apprentice"})
    path.write_text(earlier)
    (out / "round_1").mkdir()
    (out / "round_1" / "fit_2p.done").write_text(earlier)
    r = _train(out)  # --start apprentice@9
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "Traceback" not in text and "damaged" not in text, text
    assert (
        f"Invalid value for '--start': start=apprentice@9, but {path} says start=apprentice: "
        "it was written by an earlier bots version (10 or 11), whose apprentice was a full "
        "network; today's apprentice is a head network (bots version 12), which no training "
        "starts from. Resume it with '--start apprentice@11'"
    ) in text
    assert "'--start apprentice@10' for a folder made by bots version 10" in text
    assert path.read_text() == earlier
    r = _train(out, "--start", "apprentice@11")
    assert r.exit_code == 0, r.output
    assert json.loads(path.read_text())["start"] == "apprentice@11"
