"""A hand's report and a run at a glance (issue 43 items 7 and 8), without a browser: the
position and trace files of a run deal's and a played deal's decision read back by
``canasta-sim analyse`` and ``canasta-sim verify --trace``, and a run's statistics endpoint
against :func:`canasta_sim.results.statistics.summary` of the same folder."""

import json
import math
import warnings

import pytest
from click.testing import CliRunner

import canasta_sim as cs
from canasta_sim.cli import main
from canasta_sim.game.positions import position_mapping
from canasta_sim.results.report import read_run
from canasta_sim.results.statistics import summary
from canasta_sim.run.address import deal_of_run, info_set_from_run, replay_deal

pytest.importorskip("starlette", reason="the board extra is not installed")
with warnings.catch_warnings():  # Starlette 1.x would rather run its test client on httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from canasta_sim.board.app import create_app  # noqa: E402

GAME = {"seed": 1, "deal": 0, "players": 2, "bots": "greedy", "seat": 0}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two runs: deals 4 and 5 of 4 players (seed 11, expert against careful) and 3 deals of
    2 players (seed 5, greedy)."""
    root = tmp_path_factory.mktemp("runs")
    cs.simulate(2, rules=cs.Rules(), bots=["expert", "careful"], seed=11, first_deal=4,
                out=root / "run4")  # fmt: skip
    cs.simulate(3, rules=cs.Rules(players=2), bots=["greedy"], seed=5, out=root / "run2")
    return [root / "run4", root / "run2"]


@pytest.fixture(scope="module")
def client(runs):
    with TestClient(create_app(runs), base_url="http://127.0.0.1") as c:
        yield c


def read_back(files: dict, folder) -> tuple[dict, list[dict]]:
    """Write a report's files into ``folder``; check them with the CLI as a user would:
    ``analyse FILE --worlds 20`` and ``verify --trace FILE`` exit 0. Their position and
    trace."""
    (position_name,) = [n for n in files if n.endswith("-position.json")]
    (trace_name,) = [n for n in files if n.endswith("-trace.jsonl")]
    for name, text in files.items():
        (folder / name).write_text(text)
    analysed = CliRunner().invoke(main, ["analyse", str(folder / position_name), "--worlds", "20"])
    assert analysed.exit_code == 0, analysed.output
    verified = CliRunner().invoke(main, ["verify", "--trace", str(folder / trace_name)])
    assert verified.exit_code == 0 and "1 of 1 traces passed" in verified.output, verified.output
    trace = [json.loads(line) for line in files[trace_name].splitlines()]
    return json.loads(files[position_name]), trace


def play_out(client, game) -> None:
    """Draw, then discard the first card allowed, until the deal is over."""
    view = client.get(f"/api/play/{game}").json()
    while view["frame"]["phase"] != "over":
        legal = view["legal"]
        move = "draw" if "draw" in legal else next(
            a for a in legal if a.startswith(("discard:", "go_out", "end_deal"))
        )  # fmt: skip
        view = client.post(f"/api/play/{game}/act", json={"action": move}).json()


# --- item 7: a hand's report --------------------------------------------------------------------
def test_a_run_deals_report_reads_back(client, runs, tmp_path):
    """The position is the seat to play's information set at ``--from-run RUN:4:6:1`` and the
    trace is the whole deal's, as ``replay`` replays it."""
    answer = client.get("/api/report", params={"run": 0, "deal": 4, "turn": 6, "decision": 1})
    assert answer.status_code == 200, answer.text
    files = answer.json()["files"]
    assert sorted(files) == ["deal4-turn6-1-position.json", "deal4-turn6-1-trace.jsonl"]
    position, trace = read_back(files, tmp_path)
    assert position == position_mapping(info_set_from_run(f"{runs[0]}:4:6:1"))
    assert position["turn"] == 6 and position["phase"] == "play"  # decision 1: after the draw
    assert trace == replay_deal(deal_of_run(runs[0], 4))
    assert trace[-1]["event"] == "score" and trace[0]["seed"] == 11


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"run": 0, "deal": 4, "turn": 100_000, "decision": 0}, "turn"),
        ({"run": 0, "deal": 4, "turn": 6, "decision": 2}, "decision='2' is not allowed"),
        ({"run": 2, "deal": 4}, "run='2' is not allowed"),
        ({"run": 0, "deal": 4, "bots": "py:bot.py", "seed": 1}, "give run or seed"),
    ],
)
def test_bad_report_requests(client, params, message):
    answer = client.get("/api/report", params=params)
    assert answer.status_code == 400 and message in answer.json()["error"], answer.text


def test_a_played_deals_report_reads_back(client, tmp_path):
    """At the end of a played deal, the report of each of the user's decisions: decision 0
    of a turn is the user's information set before it (the review's deal before the turn),
    decision 1 after the draw holds two cards more (2 players draw 2, R-20; a red three drawn
    is replaced, R-16); the trace is the deal played."""
    game = client.post("/api/play", json=GAME).json()["game"]
    early = client.get(f"/api/play/{game}/report", params={"turn": 1, "decision": 0})
    assert early.status_code == 400 and "end of the deal" in early.json()["error"]
    play_out(client, game)
    view = client.get(f"/api/play/{game}").json()
    session = client.app.state.board.plays[game]
    first = session.turns[0][0]  # the deal before the user's first turn
    assert view["decisions"][:2] == [[first.turns, 0], [first.turns, 1]]
    before = client.get(f"/api/play/{game}/report", params={"turn": first.turns, "decision": 0})
    position, trace = read_back(before.json()["files"], tmp_path)
    assert position == position_mapping(first.info_set(0))
    assert trace == session.deal.trace()
    after = client.get(f"/api/play/{game}/report", params={"turn": first.turns, "decision": 1})
    drawn, _ = read_back(after.json()["files"], tmp_path)
    assert (drawn["phase"], position["phase"]) == ("play", "draw")
    assert len(drawn["hand"].split()) == len(position["hand"].split()) + 2
    theirs = client.get(f"/api/play/{game}/report", params={"turn": 0, "decision": 0})
    assert theirs.status_code == 400 and "is not yours" in theirs.json()["error"]


# --- item 8: a run at a glance ------------------------------------------------------------------
def same(a, b) -> bool:
    return (a is None and math.isnan(b)) or a == pytest.approx(b)


@pytest.mark.parametrize("run", [0, 1])
def test_a_runs_summary_is_the_reports(client, runs, run):
    """Every row of summary() of the folder, with its interval and count; the policy label;
    the figures' numbers: score fractions summing to 1 per side, the red threes' bars the
    summary's rows, canastas per kind within their intervals."""
    answer = client.get(f"/api/run/{run}/summary")
    assert answer.status_code == 200, answer.text
    got = answer.json()
    manifest, agg, rules = read_run(runs[run])
    table = summary(agg, rules)
    assert got["policy"] == ("side 0: expert, side 1: careful", "greedy on every seat")[run] + (
        f" (bots version {manifest['bots_version']})"
    )
    assert (got["deals"], got["players"]) == ((2, 4), (3, 2))[run]
    assert [r["statistic"] for r in got["rows"]] == list(table["statistic"])
    for row, (_, want) in zip(got["rows"], table.iterrows(), strict=True):
        assert row["group"] == want["group"] and row["n"] == want["n"]
        for key in ("value", "ci_low", "ci_high"):
            assert same(row[key], want[key]), (row, key)
    figures = got["figures"]
    assert len(figures["scores"]["sides"]) == rules.sides
    for side in figures["scores"]["sides"]:
        assert sum(side) == pytest.approx(1.0)  # fractions of the run's deals
        assert len(side) == len(figures["scores"]["edges"]) - 1
    bars = {b["source"]: b for b in figures["red_threes"]["bars"]}
    dealt = table[table["statistic"] == "red threes dealt per side per deal"].iloc[0]
    assert bars["dealt"]["value"] == pytest.approx(dealt["value"])
    assert figures["red_threes"]["exact"] == pytest.approx(dealt["exact"])
    assert figures["canastas"]["kinds"] == ["natural", "mixed", "concealed"]
    for side in figures["canastas"]["sides"]:
        for mean, low, high in side:
            assert low <= mean <= high


def test_bad_summary_requests(client):
    for run, message in (("2", "run='2' is not allowed"), ("x", "run='x' is not allowed")):
        answer = client.get(f"/api/run/{run}/summary")
        assert answer.status_code == 400 and message in answer.json()["error"]
    with TestClient(create_app([]), base_url="http://127.0.0.1") as empty:
        answer = empty.get("/api/run/0/summary")
        assert answer.status_code == 400 and "no run folders" in answer.json()["error"]
