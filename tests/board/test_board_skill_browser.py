"""Luck and skill after a deal in a real browser (issue 43 item 6), with the harness of
``test_board_browser.py`` (the system's Chromium, ``canasta-sim board`` as a subprocess): a
2-player deal against the novice played to its end through the page, whose end panel shows
the user's result, the novice bot's in the user's seat with the same cards, and the
difference between the two.

The screenshot goes where ``test_board_browser.py`` puts them (``CANASTA_BOARD_SCREENSHOTS=
docs/img`` makes ``board-luck-skill.png`` of docs/board.md).
"""

import re

import test_board_browser as harness

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


def test_the_end_panel_shows_your_result_the_bots_and_the_difference(browser, server, shots):
    """Seat 0 against the novice (2 players): draw and discard the first card allowed until
    the deal is over; the panel's three figures: your side's points and difference (the
    status line's points), the novice's in your seat, and yours minus the bot's."""
    browser.get("about:blank")
    browser.get(server)
    browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="play"]').click()
    Select(browser.find_element(By.ID, "play-players")).select_by_visible_text("2")
    opponents = Select(browser.find_element(By.ID, "play-opponents"))
    wait_for(browser, lambda b: len(opponents.options) > 1, "the levels")
    opponents.select_by_value("novice")
    play_click(browser, browser.find_element(By.ID, "play-start"))
    assert not browser.find_element(By.ID, "play-skill").is_displayed()  # while the deal runs
    for _ in range(400):
        status = browser.find_element(By.ID, "play-status").text
        if status.startswith("deal over"):
            break
        legal = {
            b.get_attribute("data-action"): b
            for b in browser.find_elements(By.CSS_SELECTOR, "#play-actions button")
        }
        move = "draw" if "draw" in legal else next(a for a in legal if a.startswith("discard:"))
        play_click(browser, legal[move])
    yours = int(re.search(r"your side (-?\d+) points", status).group(1))
    assert browser.find_element(By.ID, "play-skill").is_displayed()
    figure = r"(-?\d+) points, ([+-]?\d+)"
    you = re.fullmatch(
        figure + " against the other side", browser.find_element(By.ID, "skill-you").text
    )
    bot = re.fullmatch(figure, browser.find_element(By.ID, "skill-bot").text)
    assert you and bot, browser.find_element(By.ID, "play-skill").text
    assert int(you.group(1)) == yours
    assert "the novice bot (greedy) in your seat" in browser.find_element(By.ID, "play-skill").text
    more = int(you.group(2)) - int(bot.group(2))
    word = "more" if more > 0 else "less"
    expected = (
        f"{'+' if more > 0 else ''}{more} points: you scored {abs(more)} points {word} than "
        "the novice bot (greedy) would have with these cards"
    )
    if more == 0:
        expected = "0 points: you scored as the novice bot (greedy) would have with these cards"
    assert browser.find_element(By.ID, "skill-more").text == expected
    assert "the same cards, not the same deal" in browser.find_element(By.ID, "play-skill").text
    browser.execute_script(
        "arguments[0].scrollIntoView()", browser.find_element(By.ID, "play-view")
    )
    browser.save_screenshot(str(shots / "board-luck-skill.png"))
