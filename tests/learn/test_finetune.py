"""``canasta-sim train``'s fine-tuning on outcomes (issue 41 item 3 and its reproducible
training): its stages of rounds run from a seed, a run killed while writing a round resumes
from the round before and gives the same bytes as a run never killed, a resume with other
settings is refused naming the option, and bad options are usage errors before any play."""

import json
import shutil
import sys

import numpy as np
import pytest
from click.testing import CliRunner

import canasta_sim.learn.finetune as finetune
from canasta_sim.cli import main
from canasta_sim.learn import TUNE_POOL
from canasta_sim.learn.plan import TrainPlan
from canasta_sim.players.weights import default_weights_path, load_weights

pytest.importorskip("jax")
pytest.importorskip("optax")

#: Fine-tuning only (no labels: --rounds 0) of version 9's 2-player file: 2 rounds of 8
#: deals, a stage each; the other counts keep version 9's files.
SMALL = [
    "--rounds", "0", "--start", "apprentice@9", "--outcome-rounds-2p", "2",
    "--outcome-deals-2p", "8", "--stage-rounds", "1", "--outcome-rounds-3p", "0",
    "--outcome-rounds-4p", "0", "--outcome-rounds-6p", "0",
]  # fmt: skip


def _train(out, *args):
    return CliRunner().invoke(main, ["train", "--out", str(out), "--quiet", *SMALL, *args])


def _arrays(path):
    """A file's arrays as bytes, but a weight file's report (it holds the round's times)."""
    with np.load(path) as z:
        return {k: z[k].tobytes() for k in z if k != "report"}


def _half_written(write):
    """``outcomes.write`` killed while writing round 1's weight file: a partial temporary
    file left, no round file."""

    def killed(path, *args):
        if path.name == "round_1.npz":
            path.with_name(path.name + ".tmp").write_bytes(b"PK\x03\x04 half")
            raise KeyboardInterrupt
        return write(path, *args)

    return killed


def test_stages_killed_and_resumed_give_the_bytes_of_a_run_never_killed(tmp_path, monkeypatch):
    whole = tmp_path / "whole"
    r = _train(whole)
    assert r.exit_code == 0, r.output
    tuned = whole / "outcomes_2p"
    # a stage a round, each marked with its rounds; seed 0 + 102 (bots version 10's)
    for name, rounds in (("outcomes_2p_1", [0, 1]), ("outcomes_2p_2", [1, 2])):
        assert f"{name}: rounds {rounds[0]} to {rounds[0]} of 2, 8 deals each, seed 102" in r.output
        marker = json.loads((tuned / f"{name}.done").read_text())
        assert marker["rounds"] == rounds and marker["seconds"] >= 0
        assert marker["start"] == str(default_weights_path(2, "apprentice9"))
    with np.load(tuned / "round_1.npz") as z:
        facts = json.loads(str(z["report"]))
    assert (facts["round"], facts["seed"], facts["pool"]) == (1, 102, ["self", "start"])
    assert facts["plan"]["lr"] == 3e-4 and facts["plan"]["seed"] == 102
    assert facts["decisions"] > 100
    # the final files: round 1's at 2 players, version 9's at the others
    kept = json.loads((whole / "weights" / "kept.json").read_text())
    assert kept["2"]["outcomes"] == {
        "stage": "outcomes_2p_2",
        "round": 1,
        "file": "outcomes_2p/round_1.npz",
    }
    assert kept["3"] == {"round": 0, "stopped_by": None, "distil": None, "outcomes": None}
    assert _arrays(whole / "weights" / "apprentice_2p.npz") == _arrays(tuned / "round_1.npz")
    shipped = default_weights_path(3, "apprentice9")
    assert (whole / "weights" / "apprentice_3p.npz").read_bytes() == shipped.read_bytes()
    load_weights(str(whole / "weights" / "apprentice_2p.npz"))  # a weight file that plays
    # killed while writing round 1 (stage 2): exit 130, round 0 and its marker kept, round 1
    # not done (its temporary file is no round file)
    killed = tmp_path / "killed"
    with monkeypatch.context() as m:
        m.setattr(finetune.outcomes, "write", _half_written(finetune.outcomes.write))
        r = _train(killed)
    assert r.exit_code == 130, r.output
    part = killed / "outcomes_2p"
    assert (part / "outcomes_2p_1.done").exists() and not (part / "outcomes_2p_2.done").exists()
    assert not (part / "round_1.npz").exists()
    first = (part / "round_0.npz").read_bytes()
    r = _train(killed)
    assert r.exit_code == 0, r.output
    assert f"resuming {killed}: 1 of 2 stages already done" in r.output
    assert "outcomes_2p_1: done before" in r.output
    assert (part / "round_0.npz").read_bytes() == first  # skipped, not made again
    for name in ("round_0", "critic_0", "round_1", "critic_1"):
        assert _arrays(part / f"{name}.npz") == _arrays(tuned / f"{name}.npz"), name
    assert _arrays(killed / "weights" / "apprentice_2p.npz") == _arrays(tuned / "round_1.npz")
    # a run of a finished folder plays nothing
    r = _train(killed)
    assert r.exit_code == 0 and "outcomes_2p_2: done before" in r.output, r.output
    assert "round 0:" not in r.output


def test_fewer_rounds_than_planned_but_not_than_made_and_damaged_files(tmp_path):
    """A run of 40 rounds killed after 2 may be resumed with any count from 2 (its kept.json
    names round 1), not with 1 (2 rounds are made). A round's file that cannot be read, or
    a plan.json that is not one, is a usage error naming the file and saying to delete it;
    a rerun after deleting a round's file makes the round again, the same bytes."""
    out = tmp_path / "o"
    assert _train(out).exit_code == 0
    tuned = out / "outcomes_2p"
    made = {name: _arrays(tuned / f"{name}.npz") for name in ("round_1", "critic_1")}
    plan = json.loads((out / "plan.json").read_text())
    (out / "plan.json").write_text(json.dumps({**plan, "outcome_rounds_2p": 40}))
    shutil.rmtree(out / "weights")
    r = _train(out, "--outcome-rounds-2p", "1")
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "--outcome-rounds-2p" in text, text
    assert "outcome_rounds_2p=1, but the folder" in text and "has 2 rounds on outcomes" in text
    r = _train(out)
    assert r.exit_code == 0, r.output
    kept = json.loads((out / "weights" / "kept.json").read_text())
    assert kept["2"]["outcomes"]["file"] == "outcomes_2p/round_1.npz"
    assert json.loads((out / "plan.json").read_text())["outcome_rounds_2p"] == 2
    critic = tuned / "critic_1.npz"
    critic.write_bytes(b"garbage")
    r = _train(out, "--outcome-rounds-2p", "3")
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and f"{critic} is damaged" in text and "allow_pickle" not in text
    assert "delete it and run the same command again" in text and "--out" in text, text
    assert not (tuned / "round_2.npz").exists()
    critic.unlink()
    r = _train(out, "--outcome-rounds-2p", "3")
    assert r.exit_code == 0, r.output
    assert {name: _arrays(tuned / f"{name}.npz") for name in made} == made
    weights = tuned / "round_2.npz"
    weights.write_bytes(weights.read_bytes()[:200])
    r = _train(out, "--outcome-rounds-2p", "4")
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and f"{weights} is damaged" in text, text
    assert "delete it and run the same command again" in text
    marker = tuned / "outcomes_2p_1.done"
    marker.write_bytes(b"\xff")
    r = _train(out, "--outcome-rounds-2p", "4")
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and f"{marker} is damaged" in text, text
    (out / "plan.json").write_text("{ half")
    r = _train(out, "--outcome-rounds-2p", "4")
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "plan.json is damaged" in text, text
    # deleting plan.json would leave a folder of files that is no training folder
    assert "start over in another folder ('--out')" in text and "Traceback" not in text
    assert "delete it" not in text


def test_files_damaged_after_their_stage_are_named_and_keep_the_final_file(tmp_path):
    """In a finished folder: the last round's weight file damaged does not replace the final
    file in weights/ (a usage error naming it); a stage marker of other settings than
    plan.json names itself, plan.json and the setting; a stage marker of valid JSON without
    its rounds, and a round's weight file copied over its critic file, are usage errors
    naming the file, not tracebacks."""
    out = tmp_path / "o"
    assert _train(out).exit_code == 0
    tuned, final = out / "outcomes_2p", out / "weights" / "apprentice_2p.npz"
    good = final.read_bytes()
    last = tuned / "round_1.npz"
    kept = last.read_bytes()
    last.write_bytes(b"garbage")
    r = _train(out)
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and f"{last} is damaged" in text, text
    assert final.read_bytes() == good
    last.write_bytes(kept)
    marker = tuned / "outcomes_2p_1.done"
    made = json.loads(marker.read_text())
    # a marker of other settings than the folder's plan.json (and the run's): the two
    # records disagree, said before any advice on the option
    marker.write_text(json.dumps({**made, "outcome_kl": 0.5}))
    r = _train(out)
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "--out" in text and f"marker {marker}" in text, text
    assert "plan.json says outcome_kl=0.1, but" in text and "says outcome_kl=0.5" in text
    marker.write_text('{"seed": 5}')
    r = _train(out)
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and f"{marker} is damaged" in text and "Traceback" not in text, text
    marker.unlink()
    critic = tuned / "critic_1.npz"
    critic.write_bytes(kept)  # a weight file: arrays A, b1, v, b2 of other shapes, no policy
    r = _train(out, "--outcome-rounds-2p", "3")
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and f"{critic} is damaged" in text, text
    assert not (tuned / "round_2.npz").exists()


def test_a_round_of_one_deal_says_deal(tmp_path):
    r = _train(tmp_path / "o", "--outcome-pool", "self", "--outcome-deals-2p", "1",
               "--outcome-rounds-2p", "1")  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "outcomes_2p_1: rounds 0 to 0 of 1, 1 deal each, seed 102, pool self" in r.output


def test_the_top_seed_fine_tunes(tmp_path):
    """--seed 2**64 - 1: the 2-player fine-tuning plays and updates at seed 102 - 1 (its
    offset wrapped round modulo 2**64), no overflow."""
    out = tmp_path / "top"
    r = _train(out, "--seed", str(2**64 - 1), "--outcome-rounds-2p", "1")
    assert r.exit_code == 0, r.output
    assert "rounds 0 to 0 of 1, 8 deals each, seed 101" in r.output
    with np.load(out / "outcomes_2p" / "round_0.npz") as z:
        assert json.loads(str(z["report"]))["seed"] == 101


def test_version_8s_files_are_fine_tuned_widened_as_they_play(tmp_path):
    """Bots version 8's files (feature version 1, no value output) are read as play reads
    them: A and B padded with zero columns for the later features; --rounds 0 --start
    apprentice@8 fine-tunes them into a file of today's feature version."""
    from canasta_sim.learn.outcomes import read_parts
    from canasta_sim.players.weights import FEATURE_VERSION, PARTS

    path = default_weights_path(2, "apprentice8")
    with np.load(path) as z:
        assert int(z["feature_version"]) == 1
        old = {k: z[k] for k in ("A", "B", "v")}
    parts = read_parts(path)
    for name in ("A", "B"):
        width = old[name].shape[1]
        assert parts[name].shape == PARTS[name] and width < PARTS[name][1]
        assert (parts[name][:, :width] == old[name]).all() and not parts[name][:, width:].any()
    assert (parts["v"] == old["v"]).all()
    out = tmp_path / "v8"
    r = _train(out, "--start", "apprentice@8", "--outcome-rounds-2p", "1")
    assert r.exit_code == 0, r.output
    with np.load(out / "outcomes_2p" / "round_0.npz") as z:
        assert int(z["feature_version"]) == FEATURE_VERSION
    load_weights(str(out / "weights" / "apprentice_2p.npz"))


@pytest.mark.parametrize(
    ("args", "option", "said"),
    [
        (["--outcome-lr", "1e-3"], "--outcome-lr", "outcome_lr=0.0003"),
        (["--outcome-pool", "self"], "--outcome-pool", "made with outcome_pool=self,start:"),
        (["--outcome-deals-2p", "10"], "--outcome-deals-2p", "outcome_deals_2p=8"),
        (["--outcome-rounds-2p", "1"], "--outcome-rounds-2p", "2 rounds on outcomes of 2 play"),
        (["--rounds", "1"], "--rounds", "has begun distilling or fine-tuning"),
    ],
)
def test_a_resume_with_other_settings_is_refused(tmp_path, args, option, said):
    """A folder whose fine-tuning has begun (its plan and rounds 0 and 1 of 2 players
    written) is resumed only with its settings: fewer rounds on outcomes than it made may not
    come, more rounds of imitation may not (they may change the file the fine-tuning
    started from)."""
    from dataclasses import asdict

    from canasta_sim.learn.train_folder import RECIPE

    out = tmp_path / "o"
    plan = TrainPlan(
        rounds=0,
        start="apprentice@9",
        outcome_rounds_2p=2,
        outcome_deals_2p=8,
        stage_rounds=1,
        outcome_rounds_3p=0,
        outcome_rounds_4p=0,
        outcome_rounds_6p=0,
    )
    (out / "outcomes_2p").mkdir(parents=True)
    (out / "plan.json").write_text(json.dumps({**asdict(plan), "recipe": RECIPE}))
    for k in (0, 1):
        (out / "outcomes_2p" / f"round_{k}.npz").write_bytes(b"")
    r = _train(out, *args)
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and option in text and said in text, text
    assert "Traceback" not in text and not (out / "outcomes_2p" / "critic_0.npz").exists()


@pytest.mark.parametrize(
    ("args", "option", "said"),
    [
        (["--outcome-rounds-2p", "-1"], "--outcome-rounds-2p", "allowed: 0 to"),
        (["--outcome-deals-6p", "0"], "--outcome-deals-6p", "allowed: 1 to"),
        (["--stage-rounds", "0"], "--stage-rounds", "allowed: 1 to"),
        (["--outcome-pool", "self,nobody"], "--outcome-pool", "'nobody' is not allowed"),
        (["--outcome-pool", ""], "--outcome-pool", "no opponent is not allowed"),
        (
            ["--outcome-temperature", "0"],
            "--outcome-temperature",
            "allowed: a finite number of at least 1",
        ),
        (["--outcome-temperature", "inf"], "--outcome-temperature", "temperature=inf is not"),
        (["--outcome-lr", "nan"], "--outcome-lr", "outcome_lr=nan is not allowed"),
        (["--outcome-lr", "inf"], "--outcome-lr", "allowed: a finite number above 0"),
        (["--outcome-lr", "x"], "--outcome-lr", "'x' is not a valid float"),
        (["--outcome-kl", "-0.5"], "--outcome-kl", "allowed: a finite number of at least 0"),
        (["--outcome-kl", "inf"], "--outcome-kl", "outcome_kl=inf is not allowed"),
        (["--outcome-kl", "-inf"], "--outcome-kl", "outcome_kl=-inf is not allowed"),
        (["--rounds", "0", "--start", "expert"], "--rounds", "start=expert has none"),
    ],
)
def test_bad_options_are_usage_errors_before_any_play(tmp_path, args, option, said):
    r = CliRunner().invoke(main, ["train", "--out", str(tmp_path / "o"), *args])
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and option in text and said in text, text
    assert "Traceback" not in text and not (tmp_path / "o").exists()


@pytest.mark.parametrize("temperature", ["1e-37", "0.999"])
def test_a_temperature_below_1_is_refused_before_anything_is_written(tmp_path, temperature):
    """At 1e-37 the update's logits (float32 scores over the temperature) of the shipped
    2-player file overflow to infinity and its weights to NaN, found only after a round's
    play with plan.json written; at 1 point or more no finite score's logit can (it is no
    larger than the score), so the least temperature is 1, checked before the folder is
    made."""
    out = tmp_path / "o"
    r = _train(out, "--outcome-temperature", temperature, "--outcome-rounds-2p", "1")
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "--outcome-temperature" in text, text
    assert f"outcome_temperature={float(temperature)} is not allowed" in text
    assert "allowed: a finite number of at least 1" in text and "Traceback" not in text
    assert not out.exists()


def test_an_update_to_nan_weights_stops_before_its_round_is_written(tmp_path):
    """A KL weight of 1e300 is finite but float32's infinity: the first update makes the
    policy NaN. The command stops with a usage error naming the weight file check's words
    and the settings, and writes no file of the round (nor the final weights); with no
    round on outcomes made the folder is resumed with another KL weight."""
    out = tmp_path / "o"
    r = _train(out, "--outcome-kl", "1e300", "--outcome-rounds-2p", "1")
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "--outcome-lr" in text and "Traceback" not in text, text
    assert "round 0 on outcomes of 2 players" in text and "outcome_kl=1e+300" in text
    assert "holds NaN or infinite weights" in text or "KL divergence from the start is" in text
    assert not list((out / "outcomes_2p").glob("*.npz")) and not (out / "weights").exists()
    # no round on outcomes is made: the folder takes a smaller KL weight
    r = _train(out, "--outcome-kl", "0.5", "--outcome-rounds-2p", "1")
    assert r.exit_code == 0, r.output
    assert json.loads((out / "plan.json").read_text())["outcome_kl"] == 0.5
    assert np.isfinite(load_weights(str(out / "weights" / "apprentice_2p.npz"))).all()


def test_missing_jax_names_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "optax", None)  # its import fails
    r = CliRunner().invoke(main, ["train", "--out", str(tmp_path / "o"), *SMALL])
    assert r.exit_code == 2 and 'pip install -e ".[train]"' in r.output, r.output
    assert not (tmp_path / "o").exists()
    # no round on outcomes needs no JAX
    nothing = [*SMALL, "--outcome-rounds-2p", "0"]
    r = CliRunner().invoke(main, ["train", "--out", str(tmp_path / "o"), "--quiet", *nothing])
    assert r.exit_code == 0, r.output


def test_the_default_is_bots_version_10s_recipe():
    """At seed 0 the fine-tuning of every count is the one bots version 10's files were made
    with (docs/learned.md, "The other player counts"): 40 rounds of 10,000 deals at 2 and 3
    players (seeds 102 and 103), 28 of 10,000 at 4 (seed 101), 40 of 5,000 at 6 (seed 106),
    the pool itself and its starting file, temperature 50, Adam at 3e-4, KL weight 0.1, the
    update's seed the deals'; stages of at most 20 rounds."""
    from canasta_sim.learn.outcomes import UpdatePlan

    plan = TrainPlan()
    for players, rounds, deals, seed in ((2, 40, 10_000, 102), (3, 40, 10_000, 103),
                                         (4, 28, 10_000, 101), (6, 40, 5_000, 106)):  # fmt: skip
        tune = plan.tune_plan(players)
        assert (plan.outcome_rounds(players), tune.deals, tune.seed) == (rounds, deals, seed)
        assert tune.pool == ("self", "start")
        assert tune.update_plan() == UpdatePlan(temperature=50.0, lr=3e-4, kl=0.1, seed=seed)
    assert plan.tune_stages(4) == [("outcomes_4p_1", 0, 20), ("outcomes_4p_2", 20, 28)]
    assert TrainPlan(seed=5).tune_plan(6).seed == 111


@pytest.mark.parametrize(
    ("rounds", "start", "pool", "kept"),
    [
        (0, "apprentice@9", "self,start,apprentice@9", ("self", "start")),
        # in TUNE_POOL's order whatever the order given: start before its family's name
        (0, "apprentice@9", "apprentice@9,self,start", ("self", "start")),
        (0, "apprentice@11", "start,apprentice@11,apprentice@8", ("start", "apprentice@8")),
        (0, "apprentice@8", "self,self,start", ("self", "start")),
        # with a round of imitation, start is a round's file: no shipped file's
        (1, "apprentice@9", "self,start,apprentice@9", ("self", "start", "apprentice@9")),
    ],
)
def test_pool_names_of_one_file_are_kept_once(rounds, start, pool, kept):
    """Names of the pool that play one weight file are kept once, the first: a round's
    deals are split over the files, not over their names."""
    plan = TrainPlan(rounds=rounds, start=start, outcome_pool=tuple(pool.split(",")),
                     outcome_deals_2p=12, outcome_deals_3p=12, outcome_deals_4p=12,
                     outcome_deals_6p=12)  # fmt: skip
    assert plan.outcome_pool == kept
    assert plan.tune_plan(3).pool == kept


def test_pool_names_are_read_in_any_case_as_bot_names(tmp_path, monkeypatch):
    """--outcome-pool reads its names as --start and bot specs read bot names: in any case,
    blanks around them ignored; a resume that names the same files is the same plan."""
    import canasta_sim.learn.pipeline as pipeline

    seen = []
    monkeypatch.setattr(pipeline, "run_training", lambda out, plan, **kw: seen.append(plan))
    r = _train(tmp_path / "o", "--outcome-pool", " Self, START ,Apprentice@9")
    assert r.exit_code == 0, r.output
    assert seen[0].outcome_pool == ("self", "start") and seen[0].start == "apprentice@9"


def test_the_pool_names_the_files_it_plays():
    assert TUNE_POOL[:2] == ("self", "start")
    assert finetune.pool_file("self", "learner.npz", "start.npz", 3) == "learner.npz"
    assert finetune.pool_file("start", "learner.npz", "start.npz", 3) == "start.npz"
    want = str(default_weights_path(3, "apprentice8"))
    assert finetune.pool_file("apprentice@8", "learner.npz", "start.npz", 3) == want
    assert finetune.pool_file("apprentice", "l", "s", 6) == str(default_weights_path(6))


@pytest.mark.parametrize(
    ("pool", "deals"), [(("self", "start"), 9), (("self", "start", "apprentice@8"), 100)]
)
def test_deals_need_not_be_a_multiple_of_the_pool(pool, deals):
    """A round's deals split over the pool give or take one (9 over 2: 4 and 5), so a plan
    takes any number of them, whatever the pool's size."""
    plan = TrainPlan(outcome_pool=pool, outcome_deals_2p=deals, outcome_deals_4p=deals)
    assert plan.tune_plan(4).deals == deals and plan.tune_plan(4).pool == pool


def test_the_progress_line_says_which_name_is_left_out_and_why(tmp_path, monkeypatch):
    """--start apprentice@11 distilled unchanged: its file plays apprentice@11's network, so
    the pool's apprentice@11 is left out of the rounds, and the stage's line says so."""
    import canasta_sim.learn.pipeline as pipeline

    start = _same_network(tmp_path / "distil_2p.npz", 2, "apprentice11")
    monkeypatch.setattr(pipeline, "tune_start", lambda out, plan, players: start)
    monkeypatch.setattr(pipeline, "tune_rounds", lambda folder, *args: folder.mkdir())
    plan = TrainPlan(rounds=0, start="apprentice@11", distil_drop=("kinds",),
                     outcome_pool=("self", "start", "apprentice@11"), outcome_rounds_2p=1,
                     outcome_deals_2p=7)  # fmt: skip
    lines: list[str] = []
    pipeline._tune_count(tmp_path, plan, 2, {}, lines.append)
    assert lines == [
        f"outcomes_2p_1: rounds 0 to 0 of 1, 7 deals each, seed 102, pool self,start "
        f"(apprentice@11: the same network as start), from {start}"
    ]


@pytest.mark.parametrize(
    ("pool", "said"),
    [
        ("self,start,self", "pool self,start (self: given twice)"),
        ("self,start,apprentice@9", "pool self,start (apprentice@9: the same file as start)"),
        ("apprentice@9,start,self,start", "pool self,start (start: given twice) "
         "(apprentice@9: the same file as start)"),
    ],
)  # fmt: skip
def test_the_progress_line_says_which_name_the_plan_left_out_and_why(tmp_path, monkeypatch,
                                                                     pool, said):  # fmt: skip
    """A fresh user's case: a name the plan leaves out when it is made (given twice, or the
    name of --start's own files with --rounds 0) was left out silently."""
    import canasta_sim.learn.pipeline as pipeline

    monkeypatch.setattr(pipeline, "tune_rounds", lambda folder, *args: folder.mkdir())
    plan = TrainPlan(rounds=0, start="apprentice@9", outcome_pool=tuple(pool.split(",")),
                     outcome_rounds_2p=1, outcome_deals_2p=7)  # fmt: skip
    lines: list[str] = []
    pipeline._tune_count(tmp_path, plan, 2, {}, lines.append)
    start = default_weights_path(2, "apprentice9")
    assert lines == [f"outcomes_2p_1: rounds 0 to 0 of 1, 7 deals each, seed 102, {said}, from "
                     f"{start}"]  # fmt: skip


def test_xla_runs_on_one_thread_unless_told(monkeypatch):
    monkeypatch.delenv("XLA_FLAGS", raising=False)
    finetune.need_jax()
    assert finetune.os.environ["XLA_FLAGS"] == "--xla_cpu_multi_thread_eigen=false"
    monkeypatch.setenv("XLA_FLAGS", "--mine")
    finetune.need_jax()
    assert finetune.os.environ["XLA_FLAGS"] == "--mine"


def _same_network(path, players: int, family: str = ""):
    """Write ``path``: the shipped file of ``family``'s network under another report (a
    distillation that leaves a file that reads no dropped block as it is)."""
    from canasta_sim.learn import outcomes

    parts = outcomes.read_parts(default_weights_path(players, family))
    outcomes.write(path, outcomes.policy_params(parts), parts, players, {"distilled": True})
    return str(path)


@pytest.mark.parametrize(
    ("pool", "kept"),
    [
        # start's network is version 11's, apprentice@11's: one share for it, the first name's
        (("self", "start", "apprentice@11"), ("self", "start")),
        (("apprentice@11", "self", "start", "apprentice@10"), ("apprentice@11", "self",
                                                               "apprentice@10")),
        (("self", "start", "apprentice@9", "apprentice@10"), ("self", "start", "apprentice@9",
                                                              "apprentice@10")),
    ],
)  # fmt: skip
def test_pool_names_of_one_network_play_once(tmp_path, pool, kept):
    """Names whose files play one network (another file, the same weights) are one
    opponent, the first name; self, the learner, is always one of its own; each name left
    out is paired with the first of its network."""
    start = _same_network(tmp_path / "distil_2p.npz", 2, "apprentice11")
    assert open(start, "rb").read() != default_weights_path(2, "apprentice11").read_bytes()
    plan = finetune.TunePlan(seed=0, players=2, deals=12, pool=pool)
    assert finetune.distinct_pool(plan, start) == kept
    twins = finetune.pool_twins(plan, start)
    assert set(twins) == set(pool) - set(kept)
    assert all(twins[n] in kept and pool.index(twins[n]) < pool.index(n) for n in twins)


def test_a_start_of_another_network_is_kept_beside_its_family(tmp_path):
    from canasta_sim.learn import outcomes

    parts = outcomes.read_parts(default_weights_path(3, "apprentice11"))
    parts["b2"] = parts["b2"] + np.float32(1.0)  # one weight changed: another network
    start = tmp_path / "start_3p.npz"
    outcomes.write(start, outcomes.policy_params(parts), parts, 3, {})
    plan = finetune.TunePlan(seed=0, players=3, deals=12, pool=("start", "apprentice"))
    assert finetune.distinct_pool(plan, str(start)) == ("start", "apprentice")


def test_a_round_splits_its_deals_over_the_pool_give_or_take_one(monkeypatch):
    """Round k plays deals k * deals ..; 9 deals over 2 opponents are 4 then 5, in order."""
    played = []

    def selfplay(learner, sp, first, deals):
        played.append((sp.pool, first, deals))
        return {"state": np.zeros((1, 3), np.float32), "meta": np.zeros((1, 6), np.int64),
                "score": np.zeros(1, np.float32)}  # fmt: skip

    monkeypatch.setattr(finetune, "selfplay", selfplay)
    plan = finetune.TunePlan(seed=0, players=2, deals=9, pool=("self", "start"))
    finetune.play_round(plan, 2, "learner.npz", "start.npz")
    assert played == [("learner.npz", 18, 4), ("start.npz", 22, 5)]
