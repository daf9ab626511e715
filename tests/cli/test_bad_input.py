"""Bad input a fresh user tried (issue 24 item 7, issue 26's leftovers): every one a usage
error (exit code 2) that names the value given and what is allowed, never a traceback; install
hints for a project installed from a checkout."""

import importlib
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import canasta_sim
from canasta_sim.cli import main
from canasta_sim.players.weights import load_value

#: Bots version 11's weight file shipped for 4 players (a full network).
SHIPPED_4P = Path(canasta_sim.__file__).parent / "data" / "apprentice11_4p.npz"


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize(
    "args, message",
    [
        # click's own message said "'abc' is not a valid integer range" and no range
        (
            ["simulate", "--deals", "abc"],
            "Invalid value for '--deals': 'abc' is not an integer; allowed: 1 to 1,000,000,000,000",
        ),
        (
            ["simulate", "--deals", "1e3"],
            "'1e3' is not an integer; allowed: 1 to 1,000,000,000,000",
        ),
        (["games", "--games", "0"], "'--games': 0 is not allowed; allowed: 1 to 1,000,000,000,000"),
        (
            ["simulate", "--deals", "10", "--seed", "-1"],
            "'--seed': -1 is not allowed; allowed: 0 to 18,446,744,073,709,551,615",
        ),
        (["simulate", "--deals", "10", "--workers", "0"], "0 is not allowed; allowed: 1 or more"),
        (
            ["compare", "expert", "greedy", "--deals", "10", "--chunk-size", "x"],
            "'--chunk-size': 'x' is not an integer; allowed: 1 to 1,000,000",
        ),
        (["verify", "--deals", "ten"], "'--deals': 'ten' is not an integer; allowed: 1 to"),
        (["replay", "--deal", "-1"], "'--deal': -1 is not allowed; allowed: 0 to"),
        (["board", "--port", "70000"], "'--port': 70000 is not allowed; allowed: 0 to 65,535"),
        (["tune", "expert", "--trials", "many"], "'many' is not an integer; allowed: 1 to 100,000"),
        (["warmup", "--processes", "0"], "'--processes': 0 is not allowed; allowed: 1 or more"),
    ],
)
def test_an_integer_option_names_the_value_and_the_integers_allowed(args, message):
    r = invoke(*args)
    assert r.exit_code == 2, r.output
    assert message in r.output


@pytest.mark.parametrize(
    "content",
    [
        "not json at all\n",  # verify raised JSONDecodeError with a traceback
        "[1, 2]\n",  # replay raised TypeError: JSON, but not trace events
    ],
)
@pytest.mark.parametrize("command", ["verify", "replay"])
def test_a_trace_file_that_is_no_trace_is_a_usage_error(tmp_path, command, content):
    path = tmp_path / "trace.jsonl"
    path.write_text(content)
    r = invoke(command, "--trace", path)
    if command == "verify" and content.startswith("["):
        # the referee reads a JSON list as a trace and gives its verdict: a failure, exit 1
        assert r.exit_code == 1 and "0 of 1 traces passed" in r.output
        return
    assert r.exit_code == 2, r.output
    assert f"'--trace {path}': not a trace file" in r.output


def test_the_board_without_its_extra_says_how_to_install_it_from_a_checkout(monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    r = invoke("board")
    assert r.exit_code == 2
    assert 'pip install -e ".[board]"' in r.output
    assert "canasta-sim[board]" not in r.output  # the project is not on an index


def test_train_without_its_extra_is_a_usage_error_naming_it(monkeypatch, tmp_path):
    """As the board: exit 2 (not 1), the extra and its install line named."""
    monkeypatch.setitem(sys.modules, "sklearn", None)
    r = invoke("train", "--out", tmp_path / "t", "--quiet")
    assert r.exit_code == 2, r.output
    assert "training needs the optional extra 'train' (sklearn is missing)" in r.output
    assert 'pip install -e ".[train]" in the checkout' in r.output
    assert not (tmp_path / "t").exists()


@pytest.mark.parametrize(
    "module, missing, extra",
    [
        ("canasta_sim.env.gym_env", "gymnasium", "env"),
        ("canasta_sim.env.pettingzoo_env", "pettingzoo", "env"),
        ("canasta_sim.env.spiel", "pyspiel", "openspiel"),
    ],
)
def test_an_adapter_without_its_extra_names_the_extra(monkeypatch, module, missing, extra):
    """Importing an adapter without its extra is no bare ModuleNotFoundError of a third-party
    name: the message names the extra and how to install it."""
    monkeypatch.setitem(sys.modules, missing, None)
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(ModuleNotFoundError) as caught:
        importlib.import_module(module)
    assert str(caught.value) == (
        f"{module} needs the optional extra '{extra}' ({missing} is missing): "
        f'pip install -e ".[{extra}]" in the checkout'
    )


def test_the_scheduler_help_says_how_to_install_dask_from_a_checkout():
    r = invoke("simulate", "--help")
    assert r.exit_code == 0
    assert 'pip install -e ".[dask]"' in " ".join(r.output.split())


@pytest.mark.parametrize("command", [["simulate"], ["compare", "expert", "greedy"]])
def test_no_records_without_out_is_a_usage_error(command):
    # --no-records only leaves rows out of a results folder: alone it would do nothing.
    r = invoke(*command, "--deals", "10", "--no-records")
    assert r.exit_code == 2, r.output
    assert "'--no-records' needs '--out'" in r.output


def test_one_seat_spec_is_counted_in_the_singular():
    r = invoke("simulate", "--deals", "10", "--seats", "expert")
    assert r.exit_code == 2, r.output
    assert "seats: 1 spec given for 4 players; allowed: 4 (one per seat" in r.output


@pytest.mark.parametrize(
    "option, specs, message",
    [
        ("--bots", "expert,expert,expert", "bots: 3 specs given for 2 sides; allowed: 1 (every "
         "side) or 2 (one per side)"),
        ("--seats", "expert,expert,expert", "seats: 3 specs given for 4 players; allowed: 4 "
         "(one per seat, seat 0 first)"),
    ],
)  # fmt: skip
def test_a_count_of_bots_the_players_do_not_take_names_the_option(option, specs, message):
    """Bots that do not fit --players: a usage error of the option that gave them, named as
    click names an option ('--bots'), with the counts allowed."""
    r = invoke("simulate", "--players", 4, option, specs, "--deals", 1)
    assert r.exit_code == 2, r.output
    assert f"Invalid value for '{option}': {message}" in " ".join(r.output.split())


@pytest.mark.parametrize(
    "content, reason",
    [
        (b"plain text, no archive\n", "not an .npz archive"),  # numpy talked of pickled data
        (None, "no such file"),
        ("folder", "a folder: give one of its files, e.g. "),  # train's weights/ folder
    ],
)
def test_a_weights_file_that_is_no_npz_says_so(tmp_path, content, reason):
    path = tmp_path / "w.npz"
    if content == "folder":
        path.mkdir()
        reason += str(path / "apprentice_4p.npz")
    elif content is not None:
        path.write_bytes(content)
    r = invoke("simulate", "--deals", "10", "--bots", f"apprentice:weights={path}")
    assert r.exit_code == 2, r.output
    assert f"weights={path}: not an apprentice weight file ({reason})" in r.output
    assert "pickle" not in r.output


def test_a_weights_file_of_the_wrong_shape_says_allowed_once(tmp_path):
    """A part of another shape is named with the shape it needs, inside the message's one
    list of what is allowed (a fresh user found "allowed:" twice in it)."""
    path = tmp_path / "w.npz"
    np.savez(path, A=np.zeros(3, np.float32))
    r = invoke("simulate", "--deals", "10", "--bots", f"apprentice:weights={path}")
    assert r.exit_code == 2, r.output
    message = " ".join(r.output.split())
    said = f"weights={path}: not an apprentice weight file (network part A of shape (3,), not (32,"
    assert said in message
    assert message.count("allowed:") == 1
    assert "; allowed: an .npz with A of shape (32," in message


def test_a_weights_file_without_a_part_names_the_part_missing(tmp_path):
    """A file holding no ``A`` (only ``a``) says the part is missing, not that it has shape
    (0,) (a fresh user's finding)."""
    path = tmp_path / "w.npz"
    np.savez(path, a=np.zeros((32, 118), np.float32))
    r = invoke("simulate", "--deals", "10", "--bots", f"apprentice:weights={path}")
    assert r.exit_code == 2, r.output
    message = " ".join(r.output.split())
    assert "not an apprentice weight file (no network part A (an array of shape (32, 118)))" in (
        message
    )
    assert "(0,)" not in message


def test_report_of_a_compare_folder_says_what_the_folder_is(tmp_path):
    # it said "aggregates.json missing", as if the folder were broken
    out = tmp_path / "cmp"
    assert (
        invoke("compare", "expert", "greedy", "--deals", "20", "--quiet", "--out", out).exit_code
        == 0
    )
    r = invoke("report", out)
    assert r.exit_code == 2, r.output
    assert "is a folder of canasta-sim compare: its table is compare.csv" in r.output


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
def test_a_weights_file_with_non_finite_weights_is_refused(tmp_path, value):
    # it played a broken policy: every candidate scored NaN (a fresh user's finding)
    shipped = Path(canasta_sim.__file__).parent / "data" / "apprentice11_4p.npz"  # B: full
    parts = dict(np.load(shipped))
    parts["B"][3, 5] = value
    path = tmp_path / "w.npz"
    np.savez(path, **parts)
    r = invoke("simulate", "--deals", "10", "--bots", f"apprentice:weights={path}")
    assert r.exit_code == 2, r.output
    assert f"weights={path}: part B holds NaN or infinite weights" in r.output
    assert "every weight a finite number" in r.output


@pytest.mark.parametrize("command", [["simulate", "--deals", "10"], ["merge", "a"], ["train"]])
def test_an_empty_out_is_a_usage_error(command):
    # click read "" as the current folder: "'.' already exists" (a fresh user's finding)
    r = invoke(*command, "--out", "")
    assert r.exit_code == 2, r.output
    assert "'' is an empty folder name; allowed: a folder path" in r.output


# --- the value as written, the option at fault ---------------------------------------------------
def test_the_cli_names_the_trailing_comma_of_bots():
    r = invoke("simulate", "--deals", 1, "--bots", "expert:pile_threshold=6,")
    assert r.exit_code == 2
    assert "empty item after 'expert:pile_threshold=6'" in " ".join(r.output.split())


@pytest.mark.parametrize(
    "setting, shown",
    [("card_values=1,2", "card_values=1,2 is not allowed"), ("players=true", "players=true is")],
)
def test_set_echoes_the_value_as_written(setting, shown):
    r = invoke("simulate", "--deals", 1, "--set", setting)
    assert r.exit_code == 2
    text = " ".join(r.output.split())
    assert shown in text and "(1, 2)" not in text and "True" not in text


def test_an_existing_out_folder_names_the_option_not_the_argument(tmp_path):
    (tmp_path / "x").mkdir()
    r = invoke("simulate", "--deals", 1, "--out", tmp_path / "x")
    assert r.exit_code == 2
    text = " ".join(r.output.split())
    assert "already exists; choose a new folder or add '--overwrite'" in text
    assert "overwrite=True" not in text


@pytest.mark.parametrize("scores, side, value", [("6000,0", 0, 6000), ("0,5000", 1, 5000)])
def test_games_from_scores_at_the_target_are_refused(scores, side, value):
    r = invoke("games", "--games", 1, "--scores", scores)
    assert r.exit_code == 2
    text = " ".join(r.output.split())
    assert f"side {side} starts with {value} points, at or above the game's target of 5000" in text
    with pytest.raises(ValueError, match="at or above the game's target of 5000"):
        canasta_sim.play_games(1, scores=[int(v) for v in scores.split(",")])


def test_analyse_names_the_rollout_of_a_weight_file_of_another_player_count():
    position = Path(__file__).parents[2] / "docs" / "positions" / "go_out_2p.json"
    r = invoke(
        "analyse", position, "--worlds", "20", "--rollout", f"apprentice:weights={SHIPPED_4P}"
    )
    assert r.exit_code == 2, r.output
    assert "Invalid value for '--rollout'" in r.output
    assert f"weights={SHIPPED_4P} was fitted for 4 players, this table has 2" in r.output


def _damaged_weights(tmp_path, member: str) -> Path:
    """A copy of the shipped 4-player weight file with one byte of ``member``'s stored data
    flipped: still a zip archive, but reading that member fails its CRC check."""
    path = tmp_path / "w.npz"
    np.savez(path, **dict(np.load(SHIPPED_4P)))  # stored, not compressed: the byte is the data's
    with zipfile.ZipFile(path) as z:
        names = [i.filename for i in z.infolist()]
        after = z.infolist()[names.index(f"{member}.npy") + 1].header_offset
    data = bytearray(path.read_bytes())
    data[after - 100] ^= 0xFF  # inside the member's data, before the next member's header
    path.write_bytes(bytes(data))
    return path


def test_a_damaged_weights_file_is_a_usage_error(tmp_path):
    path = _damaged_weights(tmp_path, "A")
    r = invoke("simulate", "--deals", "10", "--bots", f"apprentice:weights={path}")
    assert r.exit_code == 2, r.output
    assert f"weights={path}: not an apprentice weight file (Bad CRC-32" in r.output


def test_a_damaged_value_output_says_the_file_is_no_weight_file(tmp_path):
    path = _damaged_weights(tmp_path, "value_A")
    with pytest.raises(ValueError, match=r"not a weight file \(Bad CRC-32 for file 'value_A"):
        load_value(str(path))


@pytest.mark.parametrize(
    "players, spec, said",
    [
        (3, f"apprentice:weights={SHIPPED_4P}", "was fitted for 4 players, this table has 3"),
        (4, "pimc:rollout=apprentice,prior_top=3", "prior_top=3 needs a full network"),
    ],
)
def test_verify_names_bots_for_a_seat_the_table_refuses(players, spec, said):
    # it named '--scheduler', which was not given
    r = invoke("verify", "--deals", "2", "--players", players, "--bots", spec)
    assert r.exit_code == 2, r.output
    assert "Invalid value for '--bots'" in r.output and said in r.output


#: A search seat whose prior reads the rollout apprentice's scores, which today's apprentice
#: (a head network) has not: refused at any table.
PRIOR_ON_HEAD = "pimc:rollout=apprentice,prior_top=3"


@pytest.mark.parametrize(
    "args, named",
    [
        (["simulate", "--deals", 2, "--bots", "{spec}"], "--bots"),
        (["simulate", "--deals", 2, "--seats", "{spec}{others}"], "--seats"),
        (["games", "--games", 1, "--bots", "{spec}"], "--bots"),
        (["compare", "{spec}", "expert", "--deals", 2], "BOT_A"),
        (["compare", "expert", "{spec}", "--deals", 2], "BOT_B"),
        (["review", "--deals", 1, "--bots", "{spec}"], "--bots"),
    ],
)
@pytest.mark.parametrize(
    "players, spec, said",
    [
        (4, PRIOR_ON_HEAD, "prior_top=3 needs a full network; the rollout apprentice's file "),
        (3, f"apprentice:weights={SHIPPED_4P}", f"weights={SHIPPED_4P} was fitted for 4 "
         "players, this table has 3; allowed: a file fitted for 3 players"),
    ],
)  # fmt: skip
def test_a_seat_the_table_refuses_is_a_usage_error_of_the_option_that_gave_it(
    args, named, players, spec, said
):
    """A fresh user's case: a prior on a head network or a weight file of another player
    count was an error naming no option (the other errors of --bots name it)."""
    others = ",expert" * (players - 1)  # --seats: the seat 0 refused, the others expert
    given = [a.format(spec=spec, others=others) if isinstance(a, str) else a for a in args]
    r = invoke(*given, "--players", players)
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "Traceback" not in text, text
    assert f"Error: Invalid value for '{named}': {said}" in text


def _no_review(*args, **kwargs):
    raise AssertionError("the review ran: its --rollout was not checked up front")


@pytest.mark.parametrize(
    "weights, said",
    [
        (SHIPPED_4P, f"weights={SHIPPED_4P} was fitted for 4 players, this table has 2; "),
        ("{tmp}/w.npz", "weights={tmp}/w.npz: not an apprentice weight file (Bad CRC-32"),
    ],
)
def test_review_checks_the_rollouts_weight_file_before_the_review(
    tmp_path, monkeypatch, weights, said
):
    """A fresh user's case: review's --rollout apprentice:weights=FILE of another player
    count (or a damaged one) was refused only once the review ran, after its first deal's
    play."""
    _damaged_weights(tmp_path, "A")  # w.npz: a byte of part A flipped
    monkeypatch.setattr(importlib.import_module("canasta_sim.search.review"), "review", _no_review)
    rollout = f"apprentice:weights={str(weights).format(tmp=tmp_path)}"
    r = invoke("review", "--deals", 1, "--players", 2, "--rollout", rollout)
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "Traceback" not in text, text
    assert f"Error: Invalid value for '--rollout': {said.format(tmp=tmp_path)}" in text


def test_review_of_a_run_folder_checks_the_rollouts_weight_file_for_its_players(
    tmp_path, monkeypatch
):
    """The run folder's player count (2 here) is the table's: a 4-player file is refused."""
    run = tmp_path / "run"
    made = invoke("simulate", "--deals", 2, "--players", 2, "--bots", "expert", "--out", run)
    assert made.exit_code == 0, made.output
    monkeypatch.setattr(importlib.import_module("canasta_sim.search.review"), "review", _no_review)
    r = invoke("review", run, "--rollout", f"apprentice:weights={SHIPPED_4P}")
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "Traceback" not in text, text
    assert f"Invalid value for '--rollout': weights={SHIPPED_4P} was fitted for 4 players, " in text
    assert "this table has 2" in text
