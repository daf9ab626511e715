"""The board's levels (issue 43 item 1): named bots, weakest first, each a valid built-in bot
spec, measured in docs/board.md against the level below; the page's play request takes them
by name, opponents and partner apart."""

import re
import sys
import warnings
from pathlib import Path

import pytest

from canasta_sim.board.levels import LEVELS, level_seats, level_spec
from canasta_sim.errors import BadArgument
from canasta_sim.players.specs import parse_bot

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from docs_page import DOCS, blocks  # noqa: E402

NAMES = [level.name for level in LEVELS]


def test_levels_are_named_built_in_bots():
    assert 4 <= len(LEVELS) <= 6  # issue 43: four to six levels
    assert len(set(NAMES)) == len(NAMES) and all(n == n.lower() for n in NAMES)
    for level in LEVELS:
        assert not level.spec.startswith("py:")  # the page may not load code
        assert parse_bot(level.spec).spec  # raises for a bad spec
        assert level.description
    assert (LEVELS[0].spec, LEVELS[-1].name) == ("random", "grandmaster")


def table_rows() -> list[list[str]]:
    text = blocks(DOCS / "board.md")["board-levels"]
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    return [[c.strip() for c in row.strip("|").split("|")] for row in rows[1:]]


def test_the_table_lists_the_levels_in_order_each_beating_the_one_below():
    rows = table_rows()
    assert [r[0] for r in rows] == NAMES
    assert [r[1] for r in rows] == [f"`{level.spec}`" for level in LEVELS]
    figure = re.compile(r"\*\*([+-][\d.]+) \[([+-][\d.]+), ([+-][\d.]+)\]\*\*")
    for below, row in zip(LEVELS, rows[1:], strict=False):
        assert f" {below.spec} --deals " in row[3]  # measured against the level below
        match = figure.fullmatch(row[4])
        assert match, row[4]
        assert float(match.group(2)) > 0, row  # the interval above 0
    for row in rows:  # a turn within a second: the slowest of the timed turns, ms
        assert float(row[6].split(",")[0]) < 1000, row


def test_level_names_map_to_their_specs():
    assert level_spec("Master") == "apprentice"  # any case
    with pytest.raises(BadArgument, match="level 'wizard' is not allowed; allowed: beginner, "):
        level_spec("wizard")


def test_level_seats_set_partners_apart():
    # 4 players, you at seat 0: seat 2 is your partner, seats 1 and 3 the opponents
    assert level_seats(4, 0, "novice", "master") == "greedy,greedy,apprentice,greedy"
    # 6 players, you at seat 1: seats 3 and 5 are your partners
    seats = level_seats(6, 1, "beginner", "club").split(",")
    assert seats == ["random", "random", "random", "careful", "random", "careful"]
    # 2 players: no partner; the partner's level is still checked
    assert level_seats(2, 1, "strong", "novice") == "expert,expert"
    with pytest.raises(BadArgument, match="level 'x'"):
        level_seats(4, 0, "novice", "x")


pytest.importorskip("starlette", reason="the board extra is not installed")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from canasta_sim.board.app import create_app  # noqa: E402


@pytest.fixture()
def client():
    with TestClient(create_app([]), base_url="http://127.0.0.1") as c:
        yield c


def test_the_api_lists_the_levels(client):
    answer = client.get("/api/levels").json()
    assert [a["name"] for a in answer] == NAMES
    assert answer[0] == {"name": "beginner", "spec": "random", "description": LEVELS[0].description}


def test_a_game_against_levels(client):
    game = {"seed": 1, "deal": 0, "players": 4, "seat": 0, "opponents": "novice"}
    view = client.post("/api/play", json={**game, "partner": "club"}).json()["view"]
    assert view["seats"] == ["you", "greedy", "careful", "greedy"]
    view = client.post("/api/play", json=game).json()["view"]
    assert view["seats"] == ["you", "greedy", "greedy", "greedy"]
    bad = client.post("/api/play", json={**game, "opponents": "py:docs/example_bots.py:X"})
    assert bad.status_code == 400 and "allowed: beginner, novice" in bad.json()["error"]
    both = client.post("/api/play", json={**game, "bots": "expert"})
    assert both.status_code == 400 and "not both" in both.json()["error"]
    alone = client.post("/api/play", json={**game, "opponents": None, "partner": "club"})
    assert alone.status_code == 400 and "partner" in alone.json()["error"]
    for players in (2, 3):  # one side a player: no partners
        two = client.post("/api/play", json={**game, "players": players, "partner": "club"})
        assert two.status_code == 400
        assert f"no seat is your partner at {players} players" in two.json()["error"]


def test_every_level_can_be_played(client):
    """Each level's spec survives the page's bot list (the grandmaster's parameters are
    comma separated: a fresh user found it refused as "unknown bot 'prior_top=3'")."""
    for name, spec, _ in LEVELS:
        answer = client.post(
            "/api/play", json={"seed": 2, "deal": 0, "players": 2, "seat": 0, "opponents": name}
        )
        assert answer.status_code == 200, answer.json()
        assert answer.json()["view"]["seats"] == ["you", spec]
