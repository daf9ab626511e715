"""A whole game and undo in practice in a real browser (issue 43 items 2 and 5), with the
harness of ``test_board_browser.py`` (the system's Chromium, ``canasta-sim board`` as a
subprocess): a 2-player game against greedy played to its end through the page, left in the
middle of a deal and resumed from its address, its score sheet checked against the referee's
replay of every deal's trace; a staged card and a discard taken back by Undo, revealing no card.

The screenshots go where ``test_board_browser.py`` puts them (``CANASTA_BOARD_SCREENSHOTS=
docs/img`` makes ``board-game.png`` and ``board-undo.png`` of docs/board.md).
"""

import json
import re
import urllib.request

import test_board_browser as harness

from canasta_sim.referee import check_trace

# the board's browser harness: its fixtures (the runs, the server, the browser) and helpers
By, Select = harness.By, harness.Select
play_click, wait_for = harness.play_click, harness.wait_for
runs, positions, server, shots, browser = (
    harness.runs,
    harness.positions,
    harness.server,
    harness.shots,
    harness.browser,
)

TARGET = 3000  # a short game: 2 or 3 deals against greedy (the rules' 5000 plays more)
PARTS = ("red_threes", "canasta_bonus", "going_out_bonus", "meld_points", "hand_penalty", "total")


def minimum_count(score: int) -> int:
    """R-64's table (2 to 4 players), points."""
    if score < 0:
        return 15
    return 50 if score < 1500 else 90 if score < 3000 else 120


def text(browser, element_id: str) -> str:
    return browser.find_element(By.ID, element_id).text


def actions(browser) -> dict:
    return {
        b.get_attribute("data-action"): b
        for b in browser.find_elements(By.CSS_SELECTOR, "#play-actions button")
    }


def your_hand(browser) -> list[str]:
    box = browser.find_element(By.CSS_SELECTOR, '#play-table .seat[data-seat="0"]')
    return [c.get_attribute("data-card") for c in box.find_elements(By.CSS_SELECTOR, ".card")]


def sheet(browser) -> list[dict]:
    """The score sheet's rows: per deal, per side, part -> points."""
    rows = []
    for tr in browser.find_elements(By.CSS_SELECTOR, "#game-sheet tr.sheet-row"):
        sides: dict[int, dict] = {}
        for td in tr.find_elements(By.CSS_SELECTOR, "td[data-part]"):
            side = int(td.get_attribute("data-side"))
            sides.setdefault(side, {})[td.get_attribute("data-part")] = int(td.text)
        rows.append({"deal": int(tr.get_attribute("data-deal")), "sides": sides})
    return rows


def fetch(server: str, path: str):
    with urllib.request.urlopen(server + path.lstrip("/"), timeout=60) as answer:
        return json.loads(answer.read())


def test_a_whole_game_played_to_its_end(browser, server, shots):
    """New game (2 players, greedy, target 3000): the human seat draws and discards the first
    card it may until the game is over, dealing each next deal from the page; in the middle of
    the second deal the page is left and the game resumed from its address with the same hand
    and sheet. Every deal's trace passes the referee, whose score parts are the sheet's; each
    deal's minimum counts follow the cumulative scores (R-64); the game ends after the first
    deal in which a side reaches the target, the highest total winning (R-55)."""
    browser.get("about:blank")
    browser.get(server)
    browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="play"]').click()
    Select(browser.find_element(By.ID, "play-players")).select_by_visible_text("2")
    browser.find_element(By.ID, "play-bots").clear()
    browser.find_element(By.ID, "play-bots").send_keys("greedy")
    browser.find_element(By.ID, "game-target").send_keys(str(TARGET))
    play_click(browser, browser.find_element(By.ID, "game-start"))
    first = f"Deal 1 of the game to {TARGET}: you (side 0) 0, side 1 0"
    assert text(browser, "game-status") == first
    assert "#game=" in browser.current_url and "target=3000" in browser.current_url
    resumed = False
    for _ in range(2000):
        status = text(browser, "game-status")
        if status.startswith("Game over"):
            break
        if browser.find_element(By.ID, "game-next").is_displayed():
            rows = len(sheet(browser))
            play_click(browser, browser.find_element(By.ID, "game-next"))
            assert len(sheet(browser)) == rows and text(browser, "play-status") == "your turn"
            continue
        legal = actions(browser)
        if not resumed and len(sheet(browser)) == 1 and "draw" in legal:
            # leave the game in its second deal and come back to its address
            address = browser.find_element(By.ID, "game-address").get_attribute("href")
            before = (your_hand(browser), sheet(browser), sorted(legal))
            browser.get("about:blank")
            browser.get(address)
            wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "tr.sheet-row"), "resume")
            wait_for(browser, lambda b: actions(b), "your turn again")
            assert (your_hand(browser), sheet(browser), sorted(actions(browser))) == before
            assert browser.current_url == address
            resumed = True
            continue
        ends = ("discard:", "go_out", "end_deal")
        move = "draw" if "draw" in legal else next(a for a in legal if a.startswith(ends))
        play_click(browser, legal[move])
        assert not browser.find_element(By.ID, "error").is_displayed()
    status = text(browser, "game-status")
    final = re.fullmatch(
        r"Game over after (\d+) deals: (You win \(side 0\)|Side 1 wins) with (-?\d+) points "
        rf"to (-?\d+) \(target {TARGET}, R-55\)\.",
        status,
    )
    assert final, status
    assert resumed
    browser.execute_script("window.scrollTo(0, 0)")  # the picture: the form, the sheet
    browser.save_screenshot(str(shots / "board-game.png"))
    rows = sheet(browser)
    assert len(rows) == int(final.group(1)) >= 2
    game = browser.execute_script("return play.game")
    cumulative = [0, 0]
    for j, row in enumerate(rows):
        assert row["deal"] == j
        trace = fetch(server, f"/api/game/{game}/trace?deal={j}")["trace"]
        verdict = check_trace(trace)
        assert verdict.ok, verdict
        start = trace[0]
        assert start["rules"]["game_target"] == TARGET and start["dealer"] == j % 2
        scores = {e["side"]: e for e in trace if e["event"] == "score"}
        assert not max(cumulative) >= TARGET  # no deal after the one reaching the target
        for side in (0, 1):
            cells = row["sides"][side]
            assert cells["minimum"] == start["minimums"][side] == minimum_count(cumulative[side])
            assert {p: cells[p] for p in PARTS} == {p: scores[side][p] for p in PARTS}
            assert cells["total"] == sum(cells[p] for p in PARTS[:4]) - cells["hand_penalty"]
            cumulative[side] += scores[side]["total"]
            assert cells["cumulative"] == cumulative[side]
    assert max(cumulative) >= TARGET and cumulative[0] != cumulative[1]
    winner = cumulative.index(max(cumulative))
    assert final.group(2) == ("You win (side 0)" if winner == 0 else "Side 1 wins")
    points = (int(final.group(3)), int(final.group(4)))
    assert points == (cumulative[winner], cumulative[1 - winner])
    # the minimum count followed the score: some deal was dealt at another than 50
    assert any(minimum_count(s["cumulative"]) != 50 for r in rows[:-1] for s in r["sides"].values())
    assert not browser.find_element(By.ID, "game-next").is_displayed()
    assert actions(browser) == {}


def seen(browser) -> dict:
    """What the page shows of the deal: the table's text, every card face and back on it, the
    staged cards and the move log."""
    cards = browser.find_elements(By.CSS_SELECTOR, "#play-table .card")
    return {
        "table": text(browser, "play-table"),
        "cards": [c.get_attribute("data-card") or c.get_attribute("class") for c in cards],
        "staged": text(browser, "play-staged"),
        "log": [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#log li")],
    }


def test_an_undo_reveals_no_card(browser, server, shots):
    """Practice against greedy (2 players): after the draw, a staged card and then the
    turn's discard are taken back by Undo, and the page shows exactly what it showed after the
    draw (the other hand still backs, the stock and the pile as they were, no move of the bots
    in the log); the draw itself is never undone, and once Done let the bots play, Undo is
    off. The status marks the deal as practice."""
    browser.get("about:blank")
    browser.get(server)
    browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="play"]').click()
    Select(browser.find_element(By.ID, "play-players")).select_by_visible_text("2")
    browser.find_element(By.ID, "play-bots").clear()
    browser.find_element(By.ID, "play-bots").send_keys("greedy")
    browser.find_element(By.ID, "play-practice").click()
    play_click(browser, browser.find_element(By.ID, "play-start"))
    undo = browser.find_element(By.ID, "play-undo")
    assert undo.is_displayed() and not undo.is_enabled()  # nothing of this turn to take back
    play_click(browser, actions(browser)["draw"])
    assert not undo.is_enabled()  # the draw showed a card: never undone
    after_draw = seen(browser)
    naturals = [a for a in actions(browser) if a.startswith("stage_natural:")]
    rank = naturals[0].split(":")[1]
    hand = browser.find_element(By.CSS_SELECTOR, '#play-table .seat[data-seat="0"]')
    play_click(browser, hand.find_element(By.CSS_SELECTOR, f'.card[data-card="{rank}"]'))
    assert seen(browser)["staged"] != after_draw["staged"]
    play_click(browser, undo)
    assert seen(browser) == after_draw
    assert text(browser, "play-status") == "your turn \u00b7 practice deal (1 undo)"
    discard = next(a for a in actions(browser) if a.startswith("discard:"))
    play_click(browser, actions(browser)[discard])
    waiting = seen(browser)
    assert browser.find_element(By.ID, "play-done").is_displayed() and undo.is_enabled()
    assert waiting["log"] == [*after_draw["log"], f"seat 0 discards {discard.split(':')[1]}"]
    backs = [c for c in after_draw["cards"] if "back" in c]
    assert [c for c in waiting["cards"] if "back" in c] == backs  # no card of the bots shown
    browser.save_screenshot(str(shots / "board-undo.png"))
    play_click(browser, undo)
    assert seen(browser) == after_draw
    assert text(browser, "play-status") == "your turn \u00b7 practice deal (2 undos)"
    play_click(browser, actions(browser)[discard])
    play_click(browser, browser.find_element(By.ID, "play-done"))
    assert text(browser, "play-status").startswith(("your turn", "deal over"))
    assert not undo.is_enabled() and not browser.find_element(By.ID, "play-done").is_displayed()
    assert not browser.find_element(By.ID, "error").is_displayed()
