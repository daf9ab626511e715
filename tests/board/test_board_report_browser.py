"""A hand's report and a run at a glance in a real browser (issue 43 items 7 and 8), with the
harness of ``test_board_browser.py`` (the system's Chromium, ``canasta-sim board`` as a
subprocess): the report's links of a run deal's decision and of a played deal's decision
downloaded and read back by ``canasta-sim analyse`` and ``canasta-sim verify --trace``; a
run's statistics page with its table and figures, and two runs side by side.

Screenshots go where ``test_board_browser.py`` puts them (``CANASTA_BOARD_SCREENSHOTS=docs/img``
makes ``board-report-hand.png`` and ``board-run-stats.png`` of docs/board.md).
"""

import time

import pytest
import test_board_browser as harness
from click.testing import CliRunner

from canasta_sim.cli import main
from canasta_sim.results.report import read_run
from canasta_sim.results.statistics import summary

# the board's browser harness: its fixtures (the runs, the server) and helpers
By, Select, webdriver, Service = harness.By, harness.Select, harness.webdriver, harness.Service
open_at, play_click, wait_for = harness.open_at, harness.play_click, harness.wait_for
runs, positions, server, shots = harness.runs, harness.positions, harness.server, harness.shots


@pytest.fixture(scope="module")
def downloads(tmp_path_factory):
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def browser(downloads):
    """Headless Chromium saving downloads into ``downloads`` without asking."""
    options = webdriver.ChromeOptions()
    options.binary_location = harness.CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    options.add_argument("--window-size=1400,900")
    options.add_experimental_option(
        "prefs",
        {"download.default_directory": str(downloads), "download.prompt_for_download": False},
    )
    driver = webdriver.Chrome(service=Service(harness.CHROMEDRIVER), options=options)
    driver.execute_cdp_cmd(
        "Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
    )
    yield driver
    driver.quit()


def download(links, folder) -> dict:
    """Click each report link; the files downloaded, by suffix (position, trace)."""
    files = {}
    for link in links:
        name = link.get_attribute("download")
        assert link.get_attribute("href").startswith("blob:")  # made in the page, no path
        link.click()
        path = folder / name
        for _ in range(200):
            if path.is_file() and path.stat().st_size:
                break
            time.sleep(0.1)
        assert path.is_file(), f"{name} was not downloaded"
        files[name.rsplit("-", 1)[1]] = path
    return files


def check_files(files) -> None:
    """The position reads back with ``analyse FILE --worlds 20``, the trace passes ``verify
    --trace FILE``."""
    assert sorted(files) == ["position.json", "trace.jsonl"]
    analysed = CliRunner().invoke(main, ["analyse", str(files["position.json"]), "--worlds", "20"])
    assert analysed.exit_code == 0, analysed.output
    verified = CliRunner().invoke(main, ["verify", "--trace", str(files["trace.jsonl"])])
    assert verified.exit_code == 0 and "1 of 1 traces passed" in verified.output, verified.output


def test_a_reported_hand_read_back_by_analyse_and_verify_trace(browser, server, downloads, shots):
    """Report this hand at decision 8:1 of deal 1 of run4, then at a decision of a 2-player
    deal played to its end against greedy: both files of each downloaded and read back."""
    open_at(browser, server, "run=0&deal=1&turn=8&decision=1", "turn 8, decision 1")
    browser.find_element(By.ID, "report-hand").click()
    wait_for(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, "#report-files a")) == 2,
             "the report's links")  # fmt: skip
    links = browser.find_elements(By.CSS_SELECTOR, "#report-files a")
    names = [a.get_attribute("download") for a in links]
    assert names == ["deal1-turn8-1-position.json", "deal1-turn8-1-trace.jsonl"]
    browser.save_screenshot(str(shots / "board-report-hand.png"))
    check_files(download(links, downloads))
    # a step leaves the decision: its report's links go
    browser.find_element(By.ID, "next").click()
    assert browser.find_elements(By.CSS_SELECTOR, "#report-files a") == []

    browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="play"]').click()
    browser.find_element(By.ID, "play-players").send_keys("2")
    browser.find_element(By.ID, "play-bots").clear()
    browser.find_element(By.ID, "play-bots").send_keys("greedy")
    play_click(browser, browser.find_element(By.ID, "play-start"))
    assert not browser.find_element(By.ID, "play-report-box").is_displayed()
    for _ in range(400):
        if browser.find_element(By.ID, "play-status").text.startswith("deal over"):
            break
        actions = {
            b.get_attribute("data-action"): b
            for b in browser.find_elements(By.CSS_SELECTOR, "#play-actions button")
        }
        move = "draw" if "draw" in actions else next(
            a for a in actions if a.startswith(("discard:", "go_out", "end_deal"))
        )  # fmt: skip
        play_click(browser, actions[move])
    at = Select(browser.find_element(By.ID, "play-report-at"))
    decisions = [o.text for o in at.options]
    assert decisions[:2] == ["1:0", "1:1"]  # seat 1 plays turn 0; the user turn 1
    at.select_by_visible_text("1:1")
    browser.find_element(By.ID, "play-report").click()
    wait_for(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, "#play-report-files a")) == 2,
             "the played hand's report")  # fmt: skip
    links = browser.find_elements(By.CSS_SELECTOR, "#play-report-files a")
    assert [a.get_attribute("download") for a in links] == [
        "play-turn1-1-position.json",
        "play-turn1-1-trace.jsonl",
    ]
    check_files(download(links, downloads))
    assert not browser.find_element(By.ID, "error").is_displayed()


def cell_rows(pane) -> list[list[str]]:
    rows = pane.find_elements(By.CSS_SELECTOR, ".stats-table tr:not(.group)")[1:]
    return [[td.text for td in r.find_elements(By.TAG_NAME, "td")] for r in rows]


def test_a_runs_statistics_page(browser, server, runs, shots):
    """The Statistics tab shows run4's table (every statistic of summary() with its value
    and interval), its play and its three figures; picking run6 beside it shows both."""
    browser.get("about:blank")
    browser.get(server)
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#stats-run option"), "runs")
    browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="stats"]').click()
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, ".stats-pane"), "the stats")
    (pane,) = browser.find_elements(By.CSS_SELECTOR, ".stats-pane")
    manifest, agg, rules = read_run(runs[0])
    table = summary(agg, rules)
    rows = cell_rows(pane)
    assert [r[0] for r in rows] == list(table["statistic"])
    dealt = table[table["statistic"] == "red threes dealt per side per deal"].iloc[0]
    row = rows[list(table["statistic"]).index(dealt["statistic"])]
    assert float(row[1]) == pytest.approx(dealt["value"], rel=1e-3)
    low, high = (float(x) for x in row[2].strip("[]").split(", "))
    assert (low, high) == (pytest.approx(dealt["ci_low"], rel=1e-3, abs=1e-9),
                           pytest.approx(dealt["ci_high"], rel=1e-3))  # fmt: skip
    policy = pane.find_element(By.CSS_SELECTOR, ".policy").text
    assert policy == f"play: apprentice on every seat (bots version {manifest['bots_version']})"
    captions = [c.text for c in pane.find_elements(By.TAG_NAME, "figcaption")]
    assert captions[0] == "Deal score per side"
    assert len(pane.find_elements(By.CSS_SELECTOR, "figure svg path.stairs")) == rules.sides
    bars = pane.find_elements(By.CSS_SELECTOR, "figure svg rect.fig-bar")
    assert len(bars) == 4 + 3 * rules.sides  # 4 red-three sources; 3 canasta kinds a side
    deals = [a.get_attribute("href") for a in pane.find_elements(By.CSS_SELECTOR, ".deals a")]
    assert [d.split("#")[1] for d in deals] == ["run=0&deal=0", "run=0&deal=1"]
    Select(browser.find_element(By.ID, "stats-other")).select_by_value("1")
    wait_for(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, ".stats-pane")) == 2,
             "two runs side by side")  # fmt: skip
    left, right = browser.find_elements(By.CSS_SELECTOR, ".stats-pane")
    assert (left.get_attribute("data-run"), right.get_attribute("data-run")) == ("0", "1")
    assert "6 players" in right.find_element(By.TAG_NAME, "h2").text
    assert left.location["y"] == right.location["y"] and left.location["x"] < right.location["x"]
    browser.save_screenshot(str(shots / "board-run-stats.png"))
    # a deal's link opens it in the replay
    left.find_element(By.CSS_SELECTOR, ".deals a").click()
    wait_for(browser, lambda b: "turn 0, decision 0" in b.find_element(By.ID, "where").text,
             "the deal opened")  # fmt: skip
    assert browser.find_element(By.ID, "replay-view").is_displayed()
    assert not browser.find_element(By.ID, "error").is_displayed()
