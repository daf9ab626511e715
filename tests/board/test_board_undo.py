"""Undo in practice (issue 43 item 5) without a browser: undo takes back the user's staged
cards and discard within the turn and reveals no card, never goes back past the turn's draw or
pickup nor past the bots' play; the deal's trace holds the line finally played; a deal with an
undo is marked as practice in its review, its hand's report and a game's score sheet."""

import warnings

import pytest

from canasta_sim.board.session import replay_session
from canasta_sim.referee import check_trace

pytest.importorskip("starlette", reason="the board extra is not installed")
with warnings.catch_warnings():  # Starlette 1.x would rather run its test client on httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from canasta_sim.board.app import create_app  # noqa: E402

DEAL = {"seed": 1, "deal": 0, "players": 2, "bots": "greedy", "seat": 0, "practice": True}
#: What the user sees of the table (the view without the undo count and flag).
TABLE = ("frame", "hidden", "legal", "staged", "staged_rows", "log", "actions", "decisions")


@pytest.fixture()
def client():
    with TestClient(create_app([]), base_url="http://127.0.0.1") as c:
        yield c


def post(client, path, body=None, status=200):
    response = client.post(path, json=body or {})
    assert response.status_code == status, response.text
    return response.json()


def table(view) -> dict:
    return {k: view[k] for k in TABLE}


def wait_review(client, job):
    import time

    for _ in range(1500):
        status = client.get(f"/api/jobs/{job}").json()
        if status["state"] != "running":
            return status
        time.sleep(0.2)
    raise AssertionError(f"job {job} still running")


def test_undo_takes_back_staged_cards_and_the_discard_revealing_nothing(client):
    game = post(client, "/api/play", DEAL)["game"]
    view = post(client, f"/api/play/{game}/act", {"action": "draw"})
    refused = post(client, f"/api/play/{game}/undo", status=400)
    assert refused["error"] == (
        "undo refused: your turn's draw or pickup showed cards: undo goes back no further"
    )
    after_draw = table(view)
    assert view["undo"] is False and view["practice"] is True
    natural = next(a for a in view["legal"] if a.startswith("stage_natural:"))
    staged = post(client, f"/api/play/{game}/act", {"action": natural})
    assert staged["staged_rows"] and staged["undo"] is True
    view = post(client, f"/api/play/{game}/undo")
    assert table(view) == after_draw and view["undos"] == 1
    discard = next(a for a in view["legal"] if a.startswith("discard:"))
    view = post(client, f"/api/play/{game}/act", {"action": discard})
    # the turn is over and the bots wait: nothing of theirs is shown yet
    assert view["waiting"] and view["legal"] == [] and view["undo"]
    card = discard.split(":")[1]
    assert view["log"] == [*after_draw["log"], f"  seat 0 discards {card}"]
    assert view["frame"]["stock"] == after_draw["frame"]["stock"]
    assert view["hidden"] == after_draw["hidden"]
    refused = post(client, f"/api/play/{game}/act", {"action": "draw"}, status=400)
    assert refused["error"].startswith("your turn is over")
    view = post(client, f"/api/play/{game}/undo")
    assert table(view) == after_draw and view["undos"] == 2 and not view["waiting"]
    post(client, f"/api/play/{game}/act", {"action": discard})
    view = post(client, f"/api/play/{game}/done")
    assert not view["waiting"] and view["legal"] and view["frame"]["turn"] > 1
    refused = post(client, f"/api/play/{game}/undo", status=400)
    assert "the bots have played since your last action" in refused["error"]
    refused = post(client, f"/api/play/{game}/done", status=400)
    assert refused["error"].startswith("the bots wait only after your turn")


def test_undo_is_for_practice(client):
    game = post(client, "/api/play", dict(DEAL, practice=False))["game"]
    refused = post(client, f"/api/play/{game}/undo", status=400)
    assert refused["error"] == "undo refused: undo is for practice: start the deal with practice on"
    bad = post(client, "/api/play", dict(DEAL, practice="yes"), status=400)
    assert bad["error"] == "practice='yes' is not allowed; allowed: true or false"


def test_done_is_for_practice(client):
    """Outside practice the bots never wait: done says it is for practice, as undo does."""
    game = post(client, "/api/play", dict(DEAL, practice=False))["game"]
    refused = post(client, f"/api/play/{game}/done", status=400)
    assert refused["error"] == "done is for practice: start the deal with practice on"
    body = {k: v for k, v in DEAL.items() if k not in ("deal", "practice")}
    game = post(client, "/api/game", body)["id"]
    refused = post(client, f"/api/game/{game}/done", status=400)
    assert refused["error"] == "done is for practice: start the deal with practice on"
    bad = post(client, "/api/play", dict(DEAL, practice=None), status=400)
    assert bad["error"] == "practice=null is not allowed; allowed: true or false"


def test_the_trace_holds_the_line_finally_played_and_the_deal_is_marked(client):
    """A discard taken back and another card discarded: the trace has the second discard
    only, passes the referee and is the trace of the actions kept, played again; the review
    and the hand's report say the deal is a practice deal."""
    game = post(client, "/api/play", DEAL)["game"]
    view = post(client, f"/api/play/{game}/act", {"action": "draw"})
    discards = [a for a in view["legal"] if a.startswith("discard:")]
    first, second = discards[0], discards[-1]
    assert first != second
    post(client, f"/api/play/{game}/act", {"action": first})
    post(client, f"/api/play/{game}/undo")
    view = post(client, f"/api/play/{game}/act", {"action": second})
    while view["frame"]["phase"] != "over":
        if view["waiting"]:
            view = post(client, f"/api/play/{game}/done")
            continue
        legal = view["legal"]
        move = "draw" if "draw" in legal else next(a for a in legal if a.startswith("discard:"))
        view = post(client, f"/api/play/{game}/act", {"action": move})
    session = client.app.state.board.plays[game]
    trace = session.deal.trace()
    assert check_trace(trace).ok
    ours = [e for e in trace if e["event"] == "discard" and e["seat"] == 0]
    assert ours[0]["card"] == second.split(":")[1]
    assert session.actions[:2] == ["draw", second]
    assert replay_session(session.source, 0, session.actions).deal.trace() == trace
    turn, decision = view["decisions"][0]
    report = client.get(f"/api/play/{game}/report?turn={turn}&decision={decision}").json()
    assert sorted(report["files"]) == [
        f"practice-play-turn{turn}-{decision}-position.json",
        f"practice-play-turn{turn}-{decision}-trace.jsonl",
    ]
    job = post(client, "/api/analyse", {"review": game, "worlds": 2})["job"]
    review = wait_review(client, job)
    assert review["state"] == "done" and review["undos"] == 1


def test_a_practice_game_keeps_its_undos(client):
    """In a game in practice, an undo marks its deal as practice on the sheet and in the
    record, which resumes the game with the mark; undos without practice are refused."""
    body = {"seed": 1, "players": 2, "bots": "greedy", "seat": 0, "target": 3000}
    answer = post(client, "/api/game", dict(body, practice=True))
    game = answer["id"]
    while not answer["game"]["sheet"]:
        view = answer["view"]
        if view["waiting"]:
            answer = post(client, f"/api/game/{game}/done")
            continue
        legal = view["legal"]
        if "draw" in legal:
            answer = post(client, f"/api/game/{game}/act", {"action": "draw"})
            continue
        move = next(a for a in legal if a.startswith(("discard:", "go_out", "end_deal")))
        answer = post(client, f"/api/game/{game}/act", {"action": move})
        if answer["view"]["undos"] == 0 and answer["view"]["undo"]:
            answer = post(client, f"/api/game/{game}/undo")
            assert answer["view"]["undos"] == 1
    record = answer["game"]["record"]
    assert record["practice"] is True and record["undos"] == [1]
    assert answer["game"]["sheet"][0]["practice"] is True
    again = post(client, "/api/game/resume", record)
    assert again["game"] == answer["game"]
    refused = post(client, "/api/game/resume", dict(record, practice=False), status=400)
    assert refused["error"].startswith("undos: give one count from 0 to 20000 per deal")


def practice_turn(client, game, answer) -> dict:
    """The user's plain play in practice: done while the bots wait, else draw, else the first
    discard (or going out) allowed."""
    view = answer["view"]
    if view["waiting"]:
        return post(client, f"/api/game/{game}/done")
    legal = view["legal"]
    move = (
        "draw"
        if "draw" in legal
        else next(a for a in legal if a.startswith(("discard:", "go_out", "end_deal")))
    )
    return post(client, f"/api/game/{game}/act", {"action": move})


def test_a_practice_game_resumes_after_a_deal_the_bots_ended(client):
    """The record keeps no presses of done: a deal that the bots ended after the user's last
    turn (deal 0 of seed 10: greedy goes out after the user's done) is played on when the game is
    resumed, and the game stands in deal 1 as it was left."""
    body = {"seed": 10, "players": 2, "bots": "greedy", "seat": 0, "target": 1500}
    answer = post(client, "/api/game", dict(body, practice=True))
    game = answer["id"]
    while not answer["game"]["sheet"]:
        done = answer["view"]["waiting"]
        answer = practice_turn(client, game, answer)
    assert done and answer["game"]["sheet"][0]["end"] == "went_out"
    answer = post(client, f"/api/game/{game}/next")
    answer = practice_turn(client, game, answer)
    record = answer["game"]["record"]
    assert len(record["moves"]) == 2 and record["moves"][1] == ["draw"]
    again = post(client, "/api/game/resume", record)
    assert again["game"] == answer["game"]
    assert again["view"] == answer["view"]
