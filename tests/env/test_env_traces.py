"""An episode of the learning environment exported as a trace file, which ``verify --trace``
and ``replay --trace`` read (issue 27 item 4)."""

from __future__ import annotations

import json

import numpy as np
from click.testing import CliRunner

from canasta_sim.cli import main
from canasta_sim.env import VecCanasta
from canasta_sim.game.trace import save_trace


def episode_file(tmp_path) -> str:
    env = VecCanasta(1, seed=8, opponents="expert", record=True)
    result = env.reset()
    rng = np.random.default_rng(0)
    while not (result.get("terminated", [False])[0] or result.get("truncated", [False])[0]):
        mask = result["legal_action_mask"][0]
        result = env.step(np.array([rng.choice(np.flatnonzero(mask))]))
    path = tmp_path / "episode.jsonl"
    save_trace(env.trace(0), path)
    return str(path)


def test_verify_and_replay_read_an_episode_trace(tmp_path):
    path = episode_file(tmp_path)
    runner = CliRunner()
    result = runner.invoke(main, ["verify", "--trace", path])
    assert result.exit_code == 0, result.output
    assert "OK" in result.output and "1 of 1 traces passed" in result.output
    result = runner.invoke(main, ["replay", "--trace", path, "--check"])
    assert result.exit_code == 0, result.output
    assert "discard" in result.output and "referee: OK" in result.output


def test_a_broken_trace_fails_verify_and_options_that_clash_are_usage_errors(tmp_path):
    path = episode_file(tmp_path)
    lines = open(path).read().splitlines()
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(lines[:1] + lines[2:]) + "\n")  # the upcard is missing
    runner = CliRunner()
    result = runner.invoke(main, ["verify", "--trace", str(broken)])
    assert result.exit_code == 1 and "FAIL" in result.output
    result = runner.invoke(main, ["verify", "--trace", path, "--deals", "5"])
    assert result.exit_code == 2 and "'--trace' and '--deals' exclude each other" in result.output
    result = runner.invoke(main, ["verify"])
    assert result.exit_code == 2 and "Missing option '--deals'" in result.output
    result = runner.invoke(main, ["replay", "--trace", path, "--seed", "3"])
    said = "'--seed': '--trace' replays the file as it is"
    assert result.exit_code == 2 and said in result.output


def test_replay_names_a_trace_it_cannot_read_and_the_line_of_bad_json(tmp_path):
    path = episode_file(tmp_path)
    lines = open(path).read().splitlines()
    start = json.loads(lines[0])
    start["rules"]["players"] = 5  # not a player count of the game
    bad_rules = tmp_path / "rules.jsonl"
    bad_rules.write_text("\n".join([json.dumps(start)] + lines[1:]) + "\n")
    runner = CliRunner()
    result = runner.invoke(main, ["replay", "--trace", str(bad_rules)])
    said = " ".join(result.output.split())
    assert result.exit_code == 2 and "not a trace file" in said and "players=5" in said
    assert f"'canasta-sim verify --trace {bad_rules}' referees it" in said
    no_rules = tmp_path / "no_rules.jsonl"
    no_rules.write_text("\n".join([json.dumps({"event": "start"})] + lines[1:]) + "\n")
    result = runner.invoke(main, ["replay", "--trace", str(no_rules)])
    assert result.exit_code == 2 and "an event lacks 'rules'" in result.output, result.output
    bad_json = tmp_path / "json.jsonl"
    bad_json.write_text("\n".join(lines[:50] + ["{oops"] + lines[50:]) + "\n")
    for command in ("replay", "verify"):
        result = runner.invoke(main, [command, "--trace", str(bad_json)])
        assert result.exit_code == 2 and "line 51:" in result.output, result.output


def test_verify_checks_the_start_events_rules(tmp_path):
    path = episode_file(tmp_path)
    lines = open(path).read().splitlines()
    runner = CliRunner()
    for edit, says in (
        ({"mixed_canasta_bonus": "300"}, "mixed_canasta_bonus='300' is not of the switch's type"),
        ({"foo": 1}, "unknown switch(es) foo"),
        ({"max_turns": -1}, "max_turns=-1 is not of the switch's type"),
        ({"wilds_at_most_naturals": 1}, "wilds_at_most_naturals=1 is not of the switch's type"),
    ):
        start = json.loads(lines[0])
        start["rules"].update(edit)
        bad = tmp_path / "bad.jsonl"
        bad.write_text("\n".join([json.dumps(start)] + lines[1:]) + "\n")
        result = runner.invoke(main, ["verify", "--trace", str(bad)])
        assert result.exit_code == 1 and "FAIL" in result.output, result.output
        assert says in " ".join(result.output.split())
