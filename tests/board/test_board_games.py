"""Whole games on the board (issue 43 item 2) without a browser: a game's request checked, its
deals dealt as ``canasta-sim games`` deals them, played to the target (R-55) with the minimum
counts following the score (R-64), and resumed from its record."""

import warnings

import pytest

from canasta_sim import Rules, play_games
from canasta_sim.referee import check_trace
from canasta_sim.run.address import deal_of_run

pytest.importorskip("starlette", reason="the board extra is not installed")
with warnings.catch_warnings():  # Starlette 1.x would rather run its test client on httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from canasta_sim.board.app import create_app  # noqa: E402

PARTS = ("red_threes", "canasta_bonus", "going_out_bonus", "meld_points", "hand_penalty", "total")
GAME = {"seed": 1, "players": 2, "bots": "greedy", "seat": 0, "target": 3000}


@pytest.fixture()
def client():
    with TestClient(create_app([]), base_url="http://127.0.0.1") as c:
        yield c


def act(client, game, action):
    response = client.post(f"/api/game/{game}/act", json={"action": action})
    assert response.status_code == 200, response.text
    return response.json()


def user_turn(answer) -> str:
    """The user's plain play: draw, then discard the first card allowed."""
    legal = answer["view"]["legal"]
    if "draw" in legal:
        return "draw"
    return next(a for a in legal if a.startswith(("discard:", "go_out", "end_deal")))


def play_game(client, answer) -> dict:
    """Play the game of ``answer`` to its end; its last answer."""
    game = answer["id"]
    while answer["game"]["winner"] is None:
        if answer["view"]["frame"]["phase"] == "over":
            answer = client.post(f"/api/game/{game}/next").json()
        else:
            answer = act(client, game, user_turn(answer))
    return answer


def minimum_count(score: int) -> int:
    """R-64's table (2 to 4 players), points."""
    if score < 0:
        return 15
    return 50 if score < 1500 else 90 if score < 3000 else 120


def test_a_game_request_is_checked(client):
    # only a JSON integer (or plain ASCII digits): not what Python's int() also reads
    wrong = ("3_000", " 3000 ", "\u0663\u0660\u0660\u0660")  # the last in Arabic-Indic digits
    for target, shown in (
        (0, "0"),
        ("x", "'x'"),
        (1.5, "1.5"),
        (10**8, "100000000"),
        (True, "true"),
        *((text, repr(text)) for text in wrong),
    ):
        response = client.post("/api/game", json=dict(GAME, target=target))
        assert response.status_code == 400
        assert response.json()["error"] == (
            f"target={shown} is not allowed; allowed: an integer from 1 to 10000000"
        )
    response = client.post("/api/game", json=dict(GAME, deal=3))
    assert response.status_code == 400 and "a game starts at its first deal" in response.text
    response = client.post("/api/game", json=dict(GAME, bots="py:docs/example_bots.py:PileHoarder"))
    assert response.status_code == 400 and "bots written in Python" in response.json()["error"]
    response = client.post("/api/game", json=dict(GAME, bots=None))
    assert response.json()["error"] == (
        "bots=null is not allowed; allowed: bot specs, comma separated"
    )
    answer = client.post("/api/game", json=GAME).json()
    game = answer["id"]
    assert answer["game"]["target"] == 3000 and answer["game"]["sheet"] == []
    early = client.post(f"/api/game/{game}/next")
    assert early.status_code == 400 and "not over" in early.json()["error"]
    trace = client.get(f"/api/game/{game}/trace?deal=0")
    assert trace.status_code == 400 and "its trace comes at its end" in trace.json()["error"]
    trace = client.get(f"/api/game/{game}/trace?deal=1")
    assert trace.json()["error"] == "deal='1' is not allowed; allowed: an integer from 0 to 0"
    assert client.get("/api/game/77").status_code == 404
    refused = client.post(f"/api/game/{game}/act", json={"action": "discard:K"})
    assert refused.status_code == 400 and refused.json()["rule"].startswith("R-")
    # the rules' target by default (R-55): 5000 with 2 players
    default = client.post("/api/game", json={k: v for k, v in GAME.items() if k != "target"})
    assert default.json()["game"]["target"] == 5000


def test_a_games_deals_are_game_0_of_canasta_sim_games(client, tmp_path):
    """Deal 0 of the board's game of seed 1 holds the cards of deal 0 of game 0 of
    ``canasta-sim games --seed 1`` (the seats' bots aside: one seat is the user's)."""
    answer = client.post("/api/game", json=GAME).json()
    session = client.app.state.board.games[answer["id"]].session
    rules = Rules(players=2, game_target=3000)
    play_games(1, rules=rules, bots="greedy", seed=1, out=tmp_path / "g")
    run = deal_of_run(tmp_path / "g", 0, game=0)
    assert run.new_deal().trace()[0]["deck"] == session.run.new_deal().trace()[0]["deck"]
    assert (run.seed, run.deal, run.dealer) == (session.run.seed, 0, session.run.dealer)


def test_a_game_to_its_end_passes_the_referee(client):
    """Every deal's trace passes the referee with the sheet's parts; each deal's minimum
    counts are R-64's for the scores before it; the game ends after the first deal in which a
    side reaches the target (R-55) and deals no further."""
    answer = play_game(client, client.post("/api/game", json=GAME).json())
    game, sheet = answer["id"], answer["game"]["sheet"]
    assert len(sheet) >= 2
    before = [0, 0]
    for j, row in enumerate(sheet):
        assert max(before) < GAME["target"]
        trace = client.get(f"/api/game/{answer['id']}/trace?deal={j}").json()["trace"]
        assert check_trace(trace).ok
        scores = {e["side"]: e for e in trace if e["event"] == "score"}
        for side, cells in enumerate(row["sides"]):
            assert cells["minimum"] == trace[0]["minimums"][side] == minimum_count(before[side])
            assert {k: cells[k] for k in PARTS} == {k: scores[side][k] for k in PARTS}
            before[side] += cells["total"]
            assert cells["cumulative"] == before[side]
    assert answer["game"]["scores"] == before and max(before) >= GAME["target"]
    assert answer["game"]["winner"] == before.index(max(before))
    late = client.post(f"/api/game/{game}/next")
    assert late.status_code == 400 and "the game is over (R-55)" in late.json()["error"]


def test_a_game_resumes_from_its_record(client):
    """The record played again gives the same game, in the middle of a deal; a record whose
    action the rules refuse, or with a deal after one not over, is refused naming it."""
    answer = client.post("/api/game", json=GAME).json()
    while not answer["game"]["sheet"]:
        answer = act(client, answer["id"], user_turn(answer))
    answer = client.post(f"/api/game/{answer['id']}/next").json()
    for _ in range(3):
        answer = act(client, answer["id"], user_turn(answer))
    record = answer["game"]["record"]
    assert len(record["moves"]) == 2 and len(record["moves"][1]) == 3
    again = client.post("/api/game/resume", json=record)
    assert again.status_code == 200, again.text
    again = again.json()
    assert again["id"] != answer["id"]
    assert again["view"] == answer["view"]
    assert again["game"] == answer["game"]
    bad = dict(record, moves=[record["moves"][0], ["discard:K", *record["moves"][1]]])
    refused = client.post("/api/game/resume", json=bad)
    assert refused.status_code == 400
    assert refused.json()["error"] == (  # a discard before the turn's draw
        "moves: deal 1: R-20: action 84 (discard:K): that move is not allowed in this phase of "
        "the turn (draw)"
    )
    early = dict(record, moves=[record["moves"][0][:2], record["moves"][1]])
    refused = client.post("/api/game/resume", json=early)
    assert refused.status_code == 400
    assert refused.json()["error"] == (
        "moves: deal 1: the deal at the table is not over: finish it first"
    )
    for moves in ("draw", [], [["draw"]] * 201, [[3]]):
        refused = client.post("/api/game/resume", json=dict(record, moves=moves, undos=None))
        assert refused.status_code == 400 and refused.json()["error"].startswith("moves: ")


def test_a_request_with_an_unknown_key_is_refused(client):
    """A misspelt key is refused, naming it and the request's keys, instead of leaving its
    value at the default (``targte``: a 5,000 game)."""
    game_keys = "seed, players, seat, bots, opponents, partner, target, practice"
    for path, body, key, keys in (
        ("/api/game", dict(GAME, targte=3000), "targte", game_keys),
        (
            "/api/game/resume",
            dict(GAME, moves=[[]], undo=[0]),
            "undo",
            f"{game_keys}, moves, undos",
        ),
        (
            "/api/play",
            {"seed": 1, "run": 0},
            "run",
            "seed, deal, players, seat, bots, opponents, partner, practice",
        ),
    ):
        response = client.post(path, json=body)
        assert response.status_code == 400
        assert response.json()["error"] == f"unknown key {key!r}; allowed: {keys}"
    answer = client.post("/api/game", json=GAME).json()
    for path in (f"/api/game/{answer['id']}/act", f"/api/play/{answer['play']}/act"):
        response = client.post(path, json={"action": "draw", "seat": 1})
        assert response.status_code == 400
        assert response.json()["error"] == "unknown key 'seat'; allowed: action"
