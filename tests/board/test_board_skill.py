"""Luck and skill after a deal on the board (issue 43 item 6): the user's result beside what
the bot of the user's seat would have scored with the same cards."""

import warnings

import pytest

from canasta_sim.env import ACTION_NAMES
from canasta_sim.env.macro import fine_actions
from canasta_sim.game.rules import Rules
from canasta_sim.nb.enums import DealSlot
from canasta_sim.players.choices import candidates
from canasta_sim.players.ranking import policy_choice
from canasta_sim.run.address import RunDeal, replay_deal

pytest.importorskip("starlette", reason="the board extra is not installed")
with warnings.catch_warnings():  # Starlette 1.x would rather run its test client on httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from canasta_sim.board.app import create_app  # noqa: E402

# two players against the novice (greedy): the novice's bot is the one in the user's seat
GAME = {"seed": 3, "deal": 1, "players": 2, "opponents": "novice", "seat": 1}


@pytest.fixture()
def client():
    with TestClient(create_app([]), base_url="http://127.0.0.1") as c:
        yield c


def act(client, game, action):
    response = client.post(f"/api/play/{game}/act", json={"action": action})
    assert response.status_code == 200, response.text
    return response.json()


def bot_actions(deal, spec: str) -> list[str]:
    """The actions that play the decision of ``deal`` as the bot ``spec`` plays it."""
    choice = policy_choice(deal, candidates(deal), spec)
    assert choice is not None, deal
    size = int(deal.view.g[DealSlot.pile_len])
    top = int(deal.view.pile[size - 1]) if size else -1
    return [ACTION_NAMES[a] for a in fine_actions(choice, top)]


def bots_alone(spec_seats: list[str]) -> list[int]:
    """Each side's deal total of GAME's deal played by the bots alone (its trace's scores)."""
    rules = Rules.preset("classic", players=2)
    run = RunDeal.of_seed(rules, GAME["seed"], GAME["deal"], spec_seats)
    return [e["total"] for e in replay_deal(run) if e["event"] == "score"]


def test_playing_as_the_bot_plays_scores_as_the_bot(client):
    """The user's seat played with the novice bot's own choices: the same line as the bots
    alone, so the user's result equals the bot's and the difference is 0."""
    start = client.post("/api/play", json=GAME).json()
    game, view = start["game"], start["view"]
    assert view["skill"] is None  # while the deal runs
    session = client.app.state.board.plays[game]
    while view["frame"]["phase"] != "over":
        for action in bot_actions(session.deal, "greedy"):
            view = act(client, game, action)
    skill = view["skill"]
    assert skill["bot"]["spec"] == "greedy" and skill["bot"]["level"] == "novice"
    totals = bots_alone(["greedy", "greedy"])
    assert skill["you"]["score"] == skill["bot"]["score"] == totals[1]
    assert skill["you"]["difference"] == skill["bot"]["difference"] == totals[1] - totals[0]
    assert skill["more"] == 0
    assert client.get(f"/api/play/{game}").json()["skill"] == skill  # kept


def test_another_line_is_reported_with_its_sign(client):
    """Draw and discard the first card allowed every turn: a result other than the bot's, and
    the difference is the user's minus the bot's (hand-checked from both deals' scores)."""
    start = client.post("/api/play", json=GAME).json()
    game, view = start["game"], start["view"]
    while view["frame"]["phase"] != "over":
        legal = view["legal"]
        move = "draw" if "draw" in legal else next(a for a in legal if a.startswith("discard:"))
        view = act(client, game, move)
    yours = [side["total"] for side in view["frame"]["result"]]
    theirs = bots_alone(["greedy", "greedy"])
    skill = view["skill"]
    assert skill["you"] == {"score": yours[1], "difference": yours[1] - yours[0]}
    assert skill["bot"]["score"] == theirs[1]
    assert skill["bot"]["difference"] == theirs[1] - theirs[0]
    more = (yours[1] - yours[0]) - (theirs[1] - theirs[0])
    assert more != 0 and skill["more"] == more


def test_a_game_deal_is_compared_from_its_own_scores(client):
    """The second deal of a whole game: the bots' deal is dealt as the game's (dealer 1, the
    first deal's totals as the cumulative scores, so the same minimum counts, R-64); the
    opponents' level sits in the user's seat."""
    body = {"seed": 5, "players": 2, "opponents": "novice", "seat": 0}
    answer = client.post("/api/game", json=body).json()
    game = answer["id"]
    for deal in range(2):
        view = answer["view"]
        while view["frame"]["phase"] != "over":
            legal = view["legal"]
            move = "draw" if "draw" in legal else next(a for a in legal if a.startswith("discard:"))
            answer = client.post(f"/api/game/{game}/act", json={"action": move}).json()
            view = answer["view"]
        if deal == 0:
            first = [side["total"] for side in view["frame"]["result"]]
            answer = client.post(f"/api/game/{game}/next").json()
    session = client.app.state.board.games[game].session
    assert session.run.dealer == 1 and session.run.scores == tuple(first)
    totals = [e["total"] for e in replay_deal(session.run) if e["event"] == "score"]
    skill = view["skill"]
    assert skill["bot"]["level"] == "novice" and skill["bot"]["score"] == totals[0]
    assert skill["bot"]["difference"] == totals[0] - totals[1]
    assert skill["more"] == skill["you"]["difference"] - skill["bot"]["difference"]
