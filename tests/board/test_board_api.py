"""The browser board without a browser (issue 28): the frames of a replayed deal, every
endpoint of the app with good and bad input, the folders and hosts it refuses, analyses that
give the command line's answer and can be cancelled, position files saved and read back, and
the static export."""

import asyncio
import json
import re
import time
import warnings

import pandas as pd
import pytest
from click.testing import CliRunner

import canasta_sim as cs
from canasta_sim.board.export import deal_html
from canasta_sim.board.frames import replay_frames
from canasta_sim.cli import main
from canasta_sim.game.infoset import InfoSet
from canasta_sim.run.address import RunAddress, deal_from_run, deal_of_run, info_set_from_run

starlette = pytest.importorskip("starlette", reason="the board extra is not installed")
with warnings.catch_warnings():  # Starlette 1.x would rather run its test client on httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from canasta_sim.board.app import create_app  # noqa: E402

DEALS = (4, 5)  # the run's deals (first_deal 4)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Deals 4 and 5 of a 4-player run (seed 11), expert against careful."""
    folder = tmp_path_factory.mktemp("runs") / "run4"
    cs.simulate(2, rules=cs.Rules(), bots=["expert", "careful"], seed=11, first_deal=4, out=folder)
    return folder


@pytest.fixture(scope="module")
def positions(tmp_path_factory):
    return tmp_path_factory.mktemp("positions")


@pytest.fixture(scope="module")
def client(run, positions):
    with TestClient(create_app([run], positions), base_url="http://127.0.0.1") as c:
        yield c


def wait(client, job, timeout=300):
    t0 = time.time()
    while time.time() - t0 < timeout:
        status = client.get(f"/api/jobs/{job}").json()
        if status["state"] != "running":
            return status
        time.sleep(0.2)
    raise AssertionError(f"analysis {job} still running after {timeout} s")


def pack_count(frame) -> int:
    """Cards of a frame anywhere: hands, stock, pile, melds, red threes laid out."""
    cards = lambda text: len(text.split())  # noqa: E731
    melds = sum(cards(m["cards"]) for side in frame["melds"] for m in side)
    return (
        sum(cards(h) for h in frame["hands"])
        + frame["stock"]
        + cards(frame["pile"])
        + melds
        + sum(frame["red_threes"])
    )


# --- frames -------------------------------------------------------------------------------------
def test_frames_follow_the_run(run):
    """Every frame holds the 108 cards (R-01); the deal starts with 11 cards a hand (R-11)
    and seat (dealer + 1) to play at turn 0; decisions alternate 0, 1 within a turn; the last
    frame's deal scores are the run's records."""
    sides = pd.read_parquet(run / "sides.parquet")
    for k in DEALS:
        replay = replay_frames(deal_of_run(run, k), title="t", address=None, command="c")
        first, last = replay.frames[0], replay.frames[-1]
        assert [len(h.split()) for h in first["hands"]] == [11] * 4
        assert (first["turn"], first["decision"], first["seat"]) == (0, 0, (k % 4 + 1) % 4)
        assert all(pack_count(f) == 108 for f in replay.frames)
        for a, b in zip(replay.frames, replay.frames[1:-1]):
            if a["decision"] == 0:  # the turn's first move, then the rest of the same turn
                assert (b["turn"], b["decision"], b["seat"]) == (a["turn"], 1, a["seat"])
            else:
                assert (b["turn"], b["decision"]) == (a["turn"] + 1, 0)
        assert last["phase"] == "over" and last["decision"] is None
        recorded = sides[sides.deal == k].sort_values("side")["score"].tolist()
        assert [r["total"] for r in last["result"]] == recorded
        assert last["events"] == len(replay.log)  # the whole move log is played


def test_a_frame_is_the_position_of_its_address(run):
    """The frame of TURN:DECISION shows the deal that ``--from-run RUN:DEAL:TURN:DECISION``
    replays (its hands, pile and stock)."""
    replay = replay_frames(deal_of_run(run, 5), title="t", address=None, command="c")
    for frame in replay.frames[7:13]:
        deal, _ = deal_from_run(f"{run}:5:{frame['turn']}:{frame['decision']}")
        assert frame["hands"] == deal.hands
        assert (frame["pile"], frame["stock"]) == (deal.pile, deal.stock_size)


# --- the app --------------------------------------------------------------------------------------
def test_page_and_static_files(client):
    page = client.get("/")
    assert page.status_code == 200 and "board.js" in page.text
    assert client.get("/static/board.js").status_code == 200
    assert client.get("/static/board.css").status_code == 200
    assert client.get("/static/../app.py").status_code == 404


def test_runs_lists_the_folders_given(client, run):
    assert client.get("/api/runs").json() == [
        {
            "run": 0,
            "name": str(run),
            "players": 4,
            "first_deal": 4,
            "deals": 2,
            "seats": [["expert", "careful", "expert", "careful"]],
        }
    ]


def test_deal_of_a_run(client, run):
    answer = client.get("/api/deal", params={"run": 0, "deal": 5}).json()
    assert answer["address"] == f"{run}:5"
    assert answer["seats"] == ["expert", "careful", "expert", "careful"]
    assert answer["sides"] == 2 and answer["log"][0].startswith("deal: 4 players")
    assert (
        answer["frames"]
        == replay_frames(deal_of_run(run, 5), title="t", address=None, command="c").frames
    )


def test_deal_of_a_seed(client):
    """A 2-player deal by seed: 15 cards a hand (R-11), the bots per side."""
    answer = client.get(
        "/api/deal", params={"seed": 3, "deal": 0, "players": 2, "bots": "greedy,careful"}
    ).json()
    assert answer["address"] is None and answer["seats"] == ["greedy", "careful"]
    assert [len(h.split()) for h in answer["frames"][0]["hands"]] == [15, 15]
    assert "--seed 3 --deal 0 --players 2 --bots greedy,careful" in answer["command"]


@pytest.mark.parametrize(
    "params, message",
    [
        ({"run": 1, "deal": 4}, "run='1' is not allowed; allowed: an integer from 0 to 0"),
        ({"run": "../run4", "deal": 4}, "run='../run4' is not allowed"),
        ({"run": 0, "deal": 9}, "deal=9 is not in .* holds deals 4 to 5"),
        ({"run": 0, "deal": -1}, "deal='-1' is not allowed"),
        ({"run": 0, "seed": 1}, "give run or seed, not both"),
        ({"deal": 0}, "give run"),
        # the refusal lists the presets too (a fresh user found only the six bots listed)
        (
            {"seed": 1, "bots": "py:docs/example_bots.py:PileHoarder"},
            r"bots written in Python are not taken from the page; allowed: .*expert@2, .*"
            r"apprentice@8",
        ),
        ({"seed": 1, "bots": "expert:nosuch=1"}, "nosuch"),
        ({"seed": 1, "players": 5}, "players=5 is not allowed; allowed: 2, 3, 4 or 6"),
        # every player count of R-10's table, not a range that holds 5
        ({"seed": 1, "players": 7}, "players=7 is not allowed; allowed: 2, 3, 4 or 6$"),
        ({"seed": 1, "players": "x"}, "players=x is not allowed; allowed: 2, 3, 4 or 6$"),
        # one bot for every seat, one per side or one per seat: every count the table takes
        (
            {"seed": 1, "players": 4, "bots": "expert,greedy,careful"},
            "3 specs given with 4 players; allowed: 1 .every seat., 2 .one per side. or 4 "
            ".one per seat.$",
        ),
        (
            {"seed": 1, "players": 3, "bots": "expert,greedy"},
            "2 specs given with 3 players; allowed: 1 .every seat. or 3 .one per side.$",
        ),
        (
            {"seed": 1, "players": 6, "bots": "expert,greedy,careful"},
            "allowed: 1 .every seat., 2 .one per side. or 6 .one per seat.$",
        ),
    ],
)
def test_bad_deal_requests(client, params, message):
    response = client.get("/api/deal", params=params)
    assert response.status_code == 400
    assert re.search(message, response.json()["error"])


def test_a_foreign_host_is_refused(run):
    """A page elsewhere reaching the app by DNS rebinding sends its own Host header."""
    with TestClient(create_app([run]), base_url="http://evil.example") as c:
        response = c.get("/api/runs")
    assert response.status_code == 400
    assert response.json()["error"].startswith("Host header 'evil.example' refused")
    with TestClient(create_app([run]), base_url="http://localhost:8123") as c:
        assert c.get("/api/runs").status_code == 200
        assert c.get("/api/runs", headers={"Host": "LOCALHOST:8123"}).status_code == 200
        for host in ("127.0.0.1:8123@evil.example", "127.0.0.1:x", "127.0.0.1.evil.example"):
            response = c.get("/api/runs", headers={"Host": host})
            assert response.status_code == 400  # a fresh user's finding: the first passed
            assert response.json()["error"].startswith(f"Host header {host!r} refused")


def test_only_run_folders(tmp_path):
    with pytest.raises(ValueError, match="is not a run folder"):
        create_app([tmp_path])
    with pytest.raises(ValueError, match="is not a folder"):
        create_app([], tmp_path / "none")


def test_position_of_a_decision(client, run):
    """The position mapping reads back (``analyse``'s reader) into the information set of
    ``--from-run`` at that decision; the turn of a first meld is kept only as "before this
    turn" (position_mapping's docstring)."""
    mapping = client.get(
        "/api/position", params={"run": 0, "deal": 5, "turn": 9, "decision": 1}
    ).json()
    expected = info_set_from_run(f"{run}:5:9:1")
    got = InfoSet.from_dict(mapping)
    assert (got.hand, got.pile, got.melds, got.phase) == (
        expected.hand,
        expected.pile,
        expected.melds,
        "play",
    )
    assert [t >= 0 for t in got.first_meld_turns] == [t >= 0 for t in expected.first_meld_turns]
    bad = client.get("/api/position", params={"run": 0, "deal": 5, "turn": 9, "decision": 2})
    assert bad.status_code == 400 and "decision='2'" in bad.json()["error"]
    late = client.get("/api/position", params={"run": 0, "deal": 5, "turn": 5000})
    assert late.status_code == 400 and "turn 5000 is not played" in late.json()["error"]


def test_analysis_gives_the_command_lines_answer(client, run):
    """The board's analysis at a decision is ``analyse --from-run`` with the same settings:
    the same candidates and values."""
    request = {"at": {"run": 0, "deal": 4, "turn": 6, "decision": 0}, "worlds": 16, "seed": 3}
    job = client.post("/api/analyse", json=request).json()["job"]
    status = wait(client, job)
    assert status["state"] == "done", status
    expected = cs.analyse(info_set_from_run(f"{run}:4:6:0"), worlds=16, seed=3)
    assert [c["candidate"] for c in status["candidates"]] == list(expected.table.candidate)
    assert [c["score_diff"] for c in status["candidates"]] == pytest.approx(
        list(expected.table.score_diff)
    )
    assert status["address"] == f"{run}:4:6:0"
    assert status["command"] == (
        f"canasta-sim analyse --from-run {run}:4:6:0 --worlds 16 --seed 3 --rollout expert"
    )


def test_the_worker_is_given_the_run_address(client, run, monkeypatch):
    """The server passes its analysis worker the decision as a RunAddress, not text."""
    sent = []
    jobs = client.app.state.board.jobs
    monkeypatch.setattr(jobs, "start", lambda request: sent.append(request) or "0")
    request = {"at": {"run": 0, "deal": 5, "turn": 3, "decision": 1}, "worlds": 8}
    assert client.post("/api/analyse", json=request).json() == {"job": "0", "state": "running"}
    assert sent[0]["address"] == RunAddress(run, 5, 3, 1)


def test_analysis_can_be_cancelled_and_one_runs_at_a_time(client):
    long = {"at": {"run": 0, "deal": 4, "turn": 2}, "worlds": 100_000}
    job = client.post("/api/analyse", json=long).json()["job"]
    busy = client.post("/api/analyse", json=long)
    assert busy.status_code == 409 and "cancel it" in busy.json()["error"]
    assert client.delete(f"/api/jobs/{job}").json() == {"state": "cancelled"}
    assert client.get(f"/api/jobs/{job}").json()["state"] == "cancelled"
    assert client.get("/api/jobs/999").status_code == 404
    assert client.get("/api/jobs/x1").status_code == 404


@pytest.mark.parametrize(
    "body, message",
    [
        ({"at": {"run": 0, "deal": 4}, "worlds": 0}, "worlds=0 is not allowed"),
        ({"at": {"run": 0, "deal": 4}, "worlds": 1.5}, "worlds=1.5 is not allowed"),
        ({"at": {"run": 0, "deal": 4}, "rollout": "py:x.py:Bot"}, "bots written in Python"),
        ({"at": {"run": 0, "deal": 4}, "rollout": "pimc"}, "cannot be a rollout bot"),
        ({"at": {"seed": 1, "deal": 0}}, "needs a run folder"),
        ({"at": {"run": "/etc", "deal": 0}}, "run='/etc' is not allowed"),
        ({"worlds": 5}, "give at"),
        ({"position": {"players": 4}}, "position key 'seat' is missing"),
    ],
)
def test_bad_analysis_requests(client, body, message):
    response = client.post("/api/analyse", json=body)
    assert response.status_code == 400 and message in response.json()["error"]


def test_bad_bodies(client):
    response = client.post("/api/check-position", content=b"{not json")
    assert response.status_code == 400 and "not JSON" in response.json()["error"]
    response = client.post("/api/check-position", json=[1, 2])
    assert response.status_code == 400 and "JSON object" in response.json()["error"]
    # a position sent as the body itself, not under "position"
    response = client.post("/api/check-position", json={"hand": "AS KS"})
    assert response.status_code == 400
    assert response.json()["error"].startswith('the body needs a "position" key')
    assert response.json()["error"].endswith("got the keys ['hand']")


def test_positions_saved_and_read_back(client, run, positions):
    """A position saved by the editor lands in the --positions folder as NAME.json, which
    ``canasta-sim analyse`` reads; names that could be paths are refused."""
    mapping = client.get("/api/position", params={"run": 0, "deal": 4, "turn": 3}).json()
    saved = client.put("/api/positions/take_it", json={"position": mapping}).json()
    assert saved["file"] == "take_it.json" and (positions / "take_it.json").is_file()
    assert client.get("/api/positions").json() == {"positions": ["take_it"]}
    assert client.get("/api/positions/take_it").json()["position"] == mapping
    result = CliRunner().invoke(
        main, ["analyse", str(positions / "take_it.json"), "--worlds", "4", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    assert InfoSet.from_file(positions / "take_it.json") == InfoSet.from_dict(mapping)
    for name in ("a.b", "..", "x" * 65):
        response = client.put(f"/api/positions/{name}", json={"position": mapping})
        assert response.status_code in (400, 404), name
    assert client.get("/api/positions/nosuch").status_code == 404
    bad = dict(mapping, hand="9 9 9 R3")
    response = client.put("/api/positions/bad", json={"position": bad})
    assert response.status_code == 400 and "red three" in response.json()["error"]
    assert not (positions / "bad.json").exists()


def test_no_positions_folder(run):
    with TestClient(create_app([run]), base_url="http://127.0.0.1") as c:
        response = c.get("/api/positions")
    assert response.status_code == 404 and "download" in response.json()["error"]


# --- the static export and the command line ----------------------------------------------------
def test_static_export(run, tmp_path):
    """One file: no script, style or image fetched; the deal's frames embedded."""
    out = tmp_path / "deal.html"
    result = CliRunner().invoke(main, ["replay", str(run), "--deal", "5", "--html", str(out)])
    assert result.exit_code == 0, result.output
    html = out.read_text()
    assert not re.search(r"""(src|href)=["'](https?:|/)""", html)
    embedded = re.search(r"window.BOARD_EMBED = (.*?);</script>", html).group(1)
    deal = json.loads(embedded.replace("<\\/", "</"))["deal"]
    assert deal["address"] == f"{run}:5"
    replay = replay_frames(deal_of_run(run, 5), title="t", address=None, command="c")
    assert deal["frames"] == replay.frames
    assert "</script>" not in embedded.replace("<\\/", "")  # the JSON cannot end the script
    assert deal_html(replay).count("<script") == 2
    from canasta_sim.game.trace import save_trace

    save_trace(cs.Deal.new(seed=1, trace=True).trace(), tmp_path / "t.jsonl")
    args = ["replay", "--trace", str(tmp_path / "t.jsonl"), "--html", str(tmp_path / "t.html")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "takes no '--trace'" in result.output


def test_board_command_errors(tmp_path, run):
    result = CliRunner().invoke(main, ["board", str(tmp_path)])
    assert result.exit_code == 2 and "is not a run folder" in result.output
    result = CliRunner().invoke(main, ["board", str(run), "--port", "70000"])
    assert result.exit_code == 2 and "--port" in result.output


def test_replay_html_prints_only_where_it_wrote_and_keeps_an_existing_file(run, tmp_path):
    out = tmp_path / "deal.html"
    args = ["replay", str(run), "--deal", "5", "--html", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert result.output == f"wrote {out}\n"  # no move log
    out.write_text("mine")
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "give '--overwrite'" in result.output
    assert out.read_text() == "mine"
    result = CliRunner().invoke(main, [*args, "--overwrite"])
    assert result.exit_code == 0 and out.read_text().startswith("<!")


def test_board_refuses_a_corrupt_run_folder_and_a_tune_folder_at_start_up(tmp_path, run):
    # finding: a manifest.json of {} made /api/runs fail with 500 for every run
    corrupt = tmp_path / "corrupt"
    corrupt.mkdir()
    (corrupt / "manifest.json").write_text("{}")
    result = CliRunner().invoke(main, ["board", str(run), str(corrupt)])
    assert result.exit_code == 2
    assert "corrupt" in result.output and "lacks rules, seed, deals" in result.output
    tune = tmp_path / "tune"
    tune.mkdir()
    manifest = json.loads((run / "manifest.json").read_text())
    del manifest["deals"]
    manifest["tune"] = {"bot": "expert"}
    (tune / "manifest.json").write_text(json.dumps(manifest))
    result = CliRunner().invoke(main, ["board", str(tune)])
    assert result.exit_code == 2 and "is a tune folder" in result.output


def test_board_names_a_study_folder_and_its_cells(tmp_path):
    # finding: a study folder was "a partial or edited manifest" lacking rules, seed, deals
    from canasta_sim.run.study import parse_axis, run_study

    run_study([parse_axis("players=2")], deals=20, out=tmp_path / "s", seed=1, workers=1)
    result = CliRunner().invoke(main, ["board", str(tmp_path / "s")])
    assert result.exit_code == 2 and "is a study folder" in result.output
    assert "one of its cells/ folders" in result.output and "partial" not in result.output


@pytest.mark.parametrize(
    "path, body, message",
    [
        ("/api/play", '{"seed": 1e400}', "seed=1e400 is not allowed; allowed: an integer from 0"),
        ("/api/play", '{"seed": 1, "deal": 1e400}', "deal=1e400 is not allowed"),
        ("/api/play", '{"seed": 1, "players": 1e400}', "players=1e400 is not allowed; allowed: 2"),
        ("/api/play", '{"seed": 1, "seat": -1e400}', "seat=-1e400 is not allowed"),
        ("/api/analyse", '{"at": {"run": 0, "deal": 1e400}}', "deal=1e400 is not allowed"),
        ("/api/analyse", '{"at": {"run": 0, "deal": 4}, "seed": 1e400}', "seed=1e400 is not"),
        ("/api/analyse", '{"at": {"run": 0, "deal": 4}, "worlds": 1e400}', "worlds=1e400 is not"),
    ],
)
def test_numbers_too_large_for_a_float_are_named(client, path, body, message):
    """JSON reads 1e400 as infinity: the answer is a 400 naming the number as sent, not a
    server error (issue 39)."""
    response = client.post(path, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 400, response.text
    assert message in response.json()["error"]


@pytest.mark.parametrize("path", ["/api/play", "/api/analyse", "/api/check-position"])
def test_a_body_nested_too_deep_is_not_json(client, path):
    """20,000 nested lists (40 kB, under the body's bound) overflow the JSON parser's stack:
    a 400, not a server error (a fresh user's finding)."""
    body = '{"seed": ' + "[" * 20_000 + "]" * 20_000 + "}"
    response = client.post(path, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 400, response.text
    assert response.json()["error"] == "the request body is not JSON"


async def asgi_get(app, path, query="", leave=None):
    """A GET sent straight to the ASGI app (the test client sends no disconnect): the page
    closes the request once the event ``leave`` is set. Returns the status and the JSON."""
    messages = [{"type": "http.request", "body": b"", "more_body": False}]
    sent = []

    async def receive():
        if messages:
            return messages.pop()
        await (leave or asyncio.Event()).wait()
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query.encode(),
        "headers": [(b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 80),
    }
    await app(scope, receive, send)
    return sent[0]["status"], json.loads(b"".join(m.get("body", b"") for m in sent[1:]))


def test_a_slow_deal_blocks_no_other_request_and_ends_when_the_page_leaves(run):
    """A deal played by search bots (pimc with 10,000 worlds: tens of seconds) is replayed
    in the board's worker process: the server answers /api/runs meanwhile, and the page
    closing the request ends the worker; the next request starts another (issue 39)."""
    app = create_app([run])
    slow = "seed=1&deal=0&players=2&bots=pimc%3Aworlds%3D10000"

    async def scenario():
        leave = asyncio.Event()
        replay = asyncio.ensure_future(asgi_get(app, "/api/deal", slow, leave))
        t0 = time.monotonic()
        await asyncio.sleep(3)  # the worker starts and plays
        slept = time.monotonic() - t0
        running = not replay.done()
        t0 = time.monotonic()
        runs = await asgi_get(app, "/api/runs")
        answered = time.monotonic() - t0
        leave.set()
        t0 = time.monotonic()
        closed = await asyncio.wait_for(replay, 30)
        return slept, running, runs, answered, closed, time.monotonic() - t0

    slept, running, runs, answered, closed, ended = asyncio.run(scenario())
    assert slept < 4 and running  # the event loop was free while the deal played
    assert runs[0] == 200 and runs[1][0]["run"] == 0 and answered < 2
    assert closed[0] == 499 and ended < 2
    worker = app.state.board.worker
    assert not worker.alive
    with TestClient(app, base_url="http://127.0.0.1") as c:
        fresh = c.get("/api/deal", params={"seed": 1, "deal": 0, "players": 2, "bots": "greedy"})
        assert fresh.status_code == 200 and fresh.json()["players"] == 2
        worker._process.kill()  # a worker that died between two requests is replaced
        worker._process.join(5)
        again = c.get("/api/deal", params={"seed": 1, "deal": 1, "players": 2, "bots": "greedy"})
        assert again.status_code == 200 and worker.alive
    assert not worker.alive  # the server's end ends the worker
