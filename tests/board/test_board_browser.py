"""The browser board in a real browser (issue 28): the system's Chromium (Debian's
``chromium`` and ``chromium-driver``, never a browser a library downloads) driven by Selenium
against ``canasta-sim board`` started as a subprocess: open a run's deal, step through it,
run an analysis and see the ranked candidates, save a position and read it back with
``analyse``; the static export opened from a file.

Screenshots and timings go to a temporary folder, or to the folder named by the environment
variable ``CANASTA_BOARD_SCREENSHOTS`` (``docs/img`` makes the pictures of docs/board.md).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import canasta_sim as cs
from canasta_sim.board.frames import replay_frames
from canasta_sim.cli import main
from canasta_sim.players.choices import candidates
from canasta_sim.run.address import deal_of_run, info_set_from_run
from canasta_sim.search.reasons import MAX_PARTS, NOISE, NOISE_BEST

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
if not (Path(CHROMIUM).is_file() and Path(CHROMEDRIVER).is_file()):
    pytest.skip(
        "the system's Chromium is missing: apt-get install chromium chromium-driver "
        "(the browser tests use no browser a library downloads)",
        allow_module_level=True,
    )
pytest.importorskip("starlette", reason="the board extra is not installed")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

WAIT = 120  # seconds for anything the page waits on (an analysis on a busy machine)


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = os.environ.get("CANASTA_BOARD_SCREENSHOTS")
    out = Path(folder) if folder else tmp_path_factory.mktemp("shots")
    out.mkdir(parents=True, exist_ok=True)
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A 4-player run (deals 0 and 1, seed 21) and a 6-player run (deal 0, seed 4)."""
    base = tmp_path_factory.mktemp("runs")
    cs.simulate(2, rules=cs.Rules(), seed=21, out=base / "run4")
    cs.simulate(1, rules=cs.Rules(players=6), seed=4, out=base / "run6")
    return base / "run4", base / "run6"


@pytest.fixture(scope="module")
def positions(tmp_path_factory):
    return tmp_path_factory.mktemp("positions")


@pytest.fixture(scope="module")
def server(runs, positions):
    """``canasta-sim board run4 run6 --positions DIR`` as a subprocess started in the runs'
    folder (the addresses name ``run4``, as a user's would); its address."""
    command = [sys.executable, "-m", "canasta_sim", "board", "run4", "run6"]
    process = subprocess.Popen(
        [*command, "--positions", str(positions)],
        cwd=runs[0].parent,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(map(os.path.abspath, sys.path[1:]))},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, f"the board printed {line!r}"
        yield match.group(0)
    finally:
        process.terminate()
        process.wait(20)


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    options.add_argument("--window-size=1400,900")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def wait_for(browser, condition, what):
    return WebDriverWait(browser, WAIT).until(lambda b: condition(b), message=what)


def where(browser) -> str:
    return browser.find_element(By.ID, "where").text


def seat_cards(browser, seat: int) -> list[str]:
    box = browser.find_element(By.CSS_SELECTOR, f'#table .seat[data-seat="{seat}"]')
    return [c.get_attribute("data-card") for c in box.find_elements(By.CSS_SELECTOR, ".card")]


def open_at(browser, server, fragment: str, text: str):
    browser.get("about:blank")  # a new load, not a change of the address's fragment
    browser.get(f"{server}#{fragment}")
    wait_for(browser, lambda b: text in where(b), f"the page to show {text!r}")


def test_replay_steps_through_a_deal(browser, server, runs, shots):
    """The deal opens at the address's decision with the run's hands; arrow keys and the
    buttons step forward and back and the address follows; one seat's view hides the other
    hands; page load and step times are recorded (docs/board.md)."""
    run4 = runs[0]
    replay = replay_frames(deal_of_run(run4, 1), title="t", address=None, command="c")
    index = next(i for i, f in enumerate(replay.frames) if (f["turn"], f["decision"]) == (8, 1))
    frame = replay.frames[index]
    open_at(browser, server, "run=0&deal=1&turn=8&decision=1", "turn 8, decision 1")
    assert browser.find_element(By.ID, "address").text == "--from-run run4:1:8:1"
    for seat in range(4):
        assert seat_cards(browser, seat) == frame["hands"][seat].split()
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    assert "turn 9, decision 0" in where(browser)
    assert browser.current_url.endswith("run=0&deal=1&turn=9&decision=0")
    body.send_keys(Keys.ARROW_LEFT)
    assert "turn 8, decision 1" in where(browser)
    browser.find_element(By.ID, "jump-turn").clear()
    browser.find_element(By.ID, "jump-turn").send_keys("12")
    browser.find_element(By.ID, "jump").click()
    assert "turn 12, decision 0" in where(browser)
    done = browser.find_elements(By.CSS_SELECTOR, "#log li.done")
    later = replay.frames[replay.frames.index(frame) + 7]
    assert (later["turn"], later["decision"]) == (12, 0)
    assert len(done) == later["events"]  # the move log up to the shown decision
    browser.find_element(By.ID, "view-seat").send_keys("seat 0")
    backs = browser.find_elements(By.CSS_SELECTOR, '#table .seat[data-seat="1"] .card.back')
    assert len(backs) == len(later["hands"][1].split())
    browser.find_element(By.ID, "view-seat").send_keys("every hand")
    browser.find_element(By.ID, "last").click()
    assert "end of the deal" in where(browser)
    totals = [r["total"] for r in replay.frames[-1]["result"]]
    sides = browser.find_elements(By.CSS_SELECTOR, "#sides .side .result")
    assert [int(re.search(r"deal score (-?\d+)", s.text).group(1)) for s in sides] == totals

    # timings: a fresh load (the deal's frames cached by the server), then 40 steps
    open_at(browser, server, "run=0&deal=1&turn=8&decision=1", "turn 8, decision 1")
    timing = browser.execute_script(
        "const n = performance.getEntriesByType('navigation')[0];"
        "return {dom: n.domContentLoadedEventEnd, load: n.loadEventEnd, "
        "drawn: window.boardTimings.load};"
    )
    body = browser.find_element(By.TAG_NAME, "body")
    browser.execute_script("window.boardTimings.steps.length = 0")
    for key in [Keys.ARROW_RIGHT] * 20 + [Keys.ARROW_LEFT] * 20:
        body.send_keys(key)
    steps = browser.execute_script("return window.boardTimings.steps")
    assert len(steps) == 40
    steps = sorted(steps)
    timing.update(step_median=steps[20], step_max=steps[-1], steps=40)
    (shots / "board-timings.json").write_text(json.dumps(timing, indent=1) + "\n")
    open_at(browser, server, "run=0&deal=1&turn=14&decision=1", "turn 14, decision 1")
    browser.save_screenshot(str(shots / "board-replay-4p.png"))


def test_replay_six_players(browser, server, shots):
    open_at(browser, server, "run=1&deal=0&turn=30&decision=1", "turn 30, decision 1")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#table .seat")) == 6
    assert len(browser.find_elements(By.CSS_SELECTOR, "#sides .side")) == 2  # 3 a side
    browser.save_screenshot(str(shots / "board-replay-6p.png"))


#: Run in the page before its script: the answers for run 0's deals come 2.5 s late (an abort
#: still ends the wait at once), as a slow deal's would.
SLOW_RUN_0 = """
const original = window.fetch;
window.fetch = (url, options) => {
  const answer = original(url, options);
  if (!String(url).startsWith("/api/deal?run=0")) return answer;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(answer), 2500);
    const signal = options && options.signal;
    if (signal) signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new DOMException("aborted", "AbortError"));
    });
  });
};
"""


def test_a_late_first_deal_leaves_the_users_pick(browser, server):
    """The page opens run 0's first deal by itself; when its answer comes after the user
    picked run 1 (and opened its deal, or not yet), the Run menu stays on run 1 and run 0's
    deal is not shown (issue 39)."""
    added = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SLOW_RUN_0})
    try:
        for press_open in (True, False):
            browser.get("about:blank")
            browser.get(server)
            # the menu fills while run 0's first deal is on its way
            wait_for(
                browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#pick-run option"), "runs"
            )
            Select(browser.find_element(By.ID, "pick-run")).select_by_value("1")
            if press_open:
                browser.find_element(By.ID, "pick-deal").clear()
                browser.find_element(By.ID, "pick-deal").send_keys("0")
                browser.find_element(By.ID, "open-run").click()
                wait_for(
                    browser, lambda b: "run6" in b.find_element(By.ID, "deal-title").text, "run6"
                )
            time.sleep(3)  # run 0's answer would have come by now
            title = browser.find_element(By.ID, "deal-title").text
            assert browser.find_element(By.ID, "pick-run").get_attribute("value") == "1"
            assert title == ("run6, deal 0" if press_open else "")
            if not press_open:
                status = browser.find_element(By.ID, "pick-status").text
                assert status == "run 0, deal 0 not opened: another run picked; press Open"
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", added)


def test_a_slow_deal_is_cancelled_from_the_page(browser, server):
    """A deal of search bots with 10,000 worlds takes tens of seconds: Cancel beside Open
    stops it, on the server too (its worker is ended), so the next deal opens at once, and the
    page answered every step meanwhile (issue 39)."""
    open_at(browser, server, "run=0&deal=0&turn=4&decision=1", "turn 4, decision 1")
    bots = browser.find_element(By.ID, "pick-bots")
    bots.clear()
    bots.send_keys("pimc:worlds=10000")
    browser.find_element(By.ID, "open-seed").click()
    wait_for(browser, lambda b: b.find_element(By.ID, "pick-cancel").is_displayed(), "Cancel")
    time.sleep(2)  # the worker plays the slow deal
    browser.find_element(By.ID, "next").click()  # the page steps the deal shown meanwhile
    assert "turn 5, decision 0" in where(browser)
    browser.find_element(By.ID, "pick-cancel").click()
    assert browser.find_element(By.ID, "pick-status").text == "seed 1, deal 0 not opened: cancelled"
    t0 = time.monotonic()
    Select(browser.find_element(By.ID, "pick-run")).select_by_value("1")
    browser.find_element(By.ID, "open-run").click()
    wait_for(browser, lambda b: "run6" in b.find_element(By.ID, "deal-title").text, "run6")
    assert time.monotonic() - t0 < 15  # not after the slow deal: its replay was ended
    bots.clear()
    bots.send_keys("expert")


#: For every card 10 with a card after it on the same row: the boxes of its rank's text (as
#: drawn, transforms included), of its card and of the next card (left edges), in pixels.
TEN_BOXES = """
const out = [];
for (const c of document.querySelectorAll('#table .card[data-card="10"]')) {
  const next = c.nextElementSibling;
  const box = c.getBoundingClientRect();
  if (!next || next.getBoundingClientRect().top !== box.top) continue;
  const range = document.createRange();
  range.selectNodeContents(c.firstElementChild);
  const text = range.getBoundingClientRect();
  out.push({small: c.classList.contains("small"), left: text.left, right: text.right,
            card: [box.left, box.right], next: next.getBoundingClientRect().left});
}
return out;
"""


@pytest.mark.parametrize("run, players", [(0, 4), (1, 6)])
def test_a_fanned_10_is_not_covered_by_the_next_card(browser, server, runs, run, players):
    """The rank 10 of a fanned hand is drawn whole in the strip the next card leaves visible,
    full-size cards (4 players) and small ones (6 players, where it read "1(") (issue 39)."""
    replay = replay_frames(deal_of_run(runs[run], 0), title="t", address=None, command="c")
    turn, decision = next(
        (f["turn"], f["decision"])
        for f in replay.frames
        if f["decision"] is not None and any(re.search(r"\b10 \S", h) for h in f["hands"])
    )
    open_at(browser, server, f"run={run}&deal=0&turn={turn}&decision={decision}", f"turn {turn},")
    tens = browser.execute_script(TEN_BOXES)
    assert tens and all(t["small"] == (players == 6) for t in tens)
    for t in tens:
        assert t["card"][0] < t["left"] < t["right"] <= t["next"] <= t["card"][1], t


def test_analysis_shows_ranked_candidates(browser, server, runs, shots):
    """One click analyses the shown decision (the seat's information set): every legal
    candidate appears, ranked, with its bar and the command line that gives the same answer."""
    open_at(browser, server, "run=0&deal=0&turn=10&decision=1", "turn 10, decision 1")
    worlds = browser.find_element(By.ID, "an-worlds")
    worlds.clear()
    worlds.send_keys("100")
    browser.find_element(By.ID, "an-run").click()
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, ".cands tr.cand"), "candidates")
    rows = browser.find_elements(By.CSS_SELECTOR, ".cands tr.cand")
    labels = [r.find_element(By.CSS_SELECTOR, ".label").text for r in rows]
    expected = candidates(info_set_from_run(f"{runs[0]}:0:10:1"))
    assert sorted(labels) == sorted(c.label for c in expected)
    assert len(browser.find_elements(By.CSS_SELECTOR, ".cands .bar .ci")) == len(rows)
    command = browser.find_element(By.CSS_SELECTOR, "#an-result .command").text
    assert command == (
        "canasta-sim analyse --from-run run4:0:10:1 --worlds 100 --seed 0 --rollout expert"
    )
    assert "100 worlds" in browser.find_element(By.CSS_SELECTOR, "#an-result .settings").text
    browser.save_screenshot(str(shots / "board-analysis.png"))


def test_analysis_cancelled_from_the_page(browser, server):
    open_at(browser, server, "run=0&deal=0&turn=4&decision=1", "turn 4, decision 1")
    worlds = browser.find_element(By.ID, "an-worlds")
    worlds.clear()
    worlds.send_keys("100000")
    browser.find_element(By.ID, "an-run").click()
    wait_for(browser, lambda b: b.find_element(By.ID, "an-cancel").is_displayed(), "Cancel")
    browser.find_element(By.ID, "an-cancel").click()
    wait_for(browser, lambda b: b.find_element(By.ID, "an-status").text == "cancelled", "cancel")
    browser.find_element(By.ID, "next").click()  # the page still steps
    assert "turn 5, decision 0" in where(browser)


def test_position_saved_and_analysed(browser, server, positions):
    """The editor takes the shown decision, saves it into the --positions folder, and
    ``canasta-sim analyse`` reads the file."""
    open_at(browser, server, "run=0&deal=0&turn=6&decision=0", "turn 6, decision 0")
    browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="editor"]').click()
    browser.find_element(By.ID, "ed-from-replay").click()
    wait_for(browser, lambda b: "legal" in b.find_element(By.ID, "ed-status").text, "check")
    hand = browser.find_element(By.ID, "ed-hand")
    assert hand.get_attribute("value")  # the seat to play's hand
    name = browser.find_element(By.ID, "ed-name")
    name.clear()
    name.send_keys("from_browser")
    browser.find_element(By.ID, "ed-save").click()
    wait_for(browser, lambda b: "saved" in b.find_element(By.ID, "ed-status").text, "save")
    path = positions / "from_browser.json"
    result = CliRunner().invoke(main, ["analyse", str(path), "--worlds", "4"])
    assert result.exit_code == 0, result.output
    assert "draw" in result.output
    browser.find_element(By.ID, "ed-hand").clear()
    browser.find_element(By.ID, "ed-hand").send_keys("R3 4")
    browser.find_element(By.ID, "ed-check").click()
    wait_for(browser, lambda b: b.find_element(By.ID, "error").is_displayed(), "the error")
    assert "red three" in browser.find_element(By.ID, "error").text
    browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="replay"]').click()


def play_click(browser, element):
    """Click and wait for the play view to be redrawn from the server's answer."""
    before = browser.execute_script("return window.boardPlayUpdates || 0")
    element.click()
    wait_for(
        browser,
        lambda b: (
            b.execute_script("return window.boardPlayUpdates || 0") > before
            or b.find_element(By.ID, "error").is_displayed()
        ),
        "the play view",
    )


def test_play_a_deal_with_a_hint_and_its_review(browser, server, shots):
    """Take seat 0 against greedy (2 players), stage a card by clicking it and take it back,
    use the hint once, play the deal to its end with the action buttons, and read the review."""
    browser.get("about:blank")
    browser.get(server)
    browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="play"]').click()
    browser.find_element(By.ID, "play-players").send_keys("2")
    browser.find_element(By.ID, "play-bots").clear()
    browser.find_element(By.ID, "play-bots").send_keys("greedy")
    play_click(browser, browser.find_element(By.ID, "play-start"))
    assert browser.find_element(By.ID, "play-status").text == "your turn"
    worlds = browser.find_element(By.ID, "an-worlds")
    worlds.clear()
    worlds.send_keys("30")
    hinted = staged = False
    for _ in range(400):
        status = browser.find_element(By.ID, "play-status").text
        if status.startswith("deal over"):
            break
        actions = {
            b.get_attribute("data-action"): b
            for b in browser.find_elements(By.CSS_SELECTOR, "#play-actions button")
        }
        if "draw" in actions:
            play_click(browser, actions["draw"])
            continue
        if not hinted:  # the hint: the analysis of this decision, then its picture
            browser.find_element(By.ID, "play-hint").click()
            wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, ".cands tr.cand"), "hint")
            # timings, reported (docs/board.md): the hint from its click to its table drawn
            hint = browser.execute_script("return window.boardTimings.analyses")
            assert len(hint) == 1
            count = len(browser.find_elements(By.CSS_SELECTOR, ".cands tr.cand"))
            (shots / "board-hint-timing.json").write_text(
                json.dumps({"hint": hint[0], "worlds": 30, "candidates": count}, indent=1) + "\n"
            )
            # the command reads the file the page offers the position in (issue 39)
            command = browser.find_element(By.CSS_SELECTOR, "#an-result .command").text
            assert command.startswith("canasta-sim analyse position.json --worlds 30 ")
            link = browser.find_element(By.CSS_SELECTOR, "#an-result a.position-file")
            assert link.get_attribute("download") == "position.json"
            assert link.get_attribute("href").startswith("blob:")
            browser.save_screenshot(str(shots / "board-play.png"))
            hinted = True
        naturals = [a for a in actions if a.startswith("stage_natural:")]
        if not staged and naturals:  # a click stages a natural, a click on it takes it back
            rank = naturals[0].split(":")[1]
            hand = browser.find_element(By.CSS_SELECTOR, '#play-table .seat[data-seat="0"]')
            play_click(browser, hand.find_element(By.CSS_SELECTOR, f'.card[data-card="{rank}"]'))
            cards = browser.find_elements(By.CSS_SELECTOR, "#play-staged .card")
            assert [c.get_attribute("data-card") for c in cards] == [rank]
            play_click(browser, cards[0])
            assert browser.find_elements(By.CSS_SELECTOR, "#play-staged .card") == []
            staged = True
            continue
        move = next(a for a in actions if a.startswith(("discard:", "go_out", "end_deal")))
        play_click(browser, actions[move])
    assert browser.find_element(By.ID, "play-status").text.startswith("deal over")
    assert hinted and staged
    worlds = browser.find_element(By.ID, "play-review-worlds")
    assert worlds.get_attribute("value") == "2000"  # the default (docs/board.md, "Review")
    worlds.clear()
    worlds.send_keys("8")
    browser.find_element(By.ID, "play-review").click()
    wait_for(
        browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#play-review-result tr"), "review"
    )
    rows = browser.find_elements(By.CSS_SELECTOR, "#play-review-result .review tr")
    kinds = [r.find_elements(By.TAG_NAME, "td")[0].text for r in rows[1:]]
    assert kinds == ["pickup", "meld_timing", "wild_cards", "discard", "going_out", "all"]
    # every regret with its interval, "within noise" exactly where it holds 0 (issue 39)
    figure = re.compile(r"([+-]\d+\.\d) \[([+-]\d+\.\d), ([+-]\d+\.\d)\]( within noise)?$")
    cells = browser.find_elements(By.CSS_SELECTOR, "#play-review-result tr td:last-child")
    assert len(cells) > len(kinds)  # the summary's and at least one decision's
    for cell in cells:
        match = figure.match(cell.text)
        assert match, cell.text
        value, lo, hi = (float(match.group(i)) for i in (1, 2, 3))
        assert lo <= value <= hi
        assert bool(match.group(4)) == (lo < hi and lo <= 0 <= hi), cell.text
    assert "8 worlds a candidate" in browser.find_element(By.ID, "play-review-result").text
    assert not browser.find_element(By.ID, "error").is_displayed()


def test_a_hints_reasons_shown(browser, server, shots):
    """The hint panel gives each candidate its reason: "within noise" exactly where the
    paired interval to the best (for the best, the runner-up's) holds 0, else phrases of what
    the move changes (search/reasons.py)."""
    browser.get("about:blank")
    browser.get(server)
    browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="play"]').click()
    browser.find_element(By.ID, "play-players").send_keys("2")
    browser.find_element(By.ID, "play-bots").clear()
    browser.find_element(By.ID, "play-bots").send_keys("greedy")
    play_click(browser, browser.find_element(By.ID, "play-start"))
    draw = browser.find_elements(By.CSS_SELECTOR, '#play-actions button[data-action="draw"]')
    if draw:  # the hint at the play decision: more candidates to tell apart
        play_click(browser, draw[0])
    worlds = browser.find_element(By.ID, "an-worlds")
    worlds.clear()
    worlds.send_keys("200")
    browser.find_element(By.ID, "play-hint").click()
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, ".cands tr.cand"), "hint")
    heads = [h.text for h in browser.find_elements(By.CSS_SELECTOR, ".cands th")]
    assert heads[-1] == "reason"
    interval = re.compile(r"[+-]\d+\.\d \[([+-]\d+\.\d), ([+-]\d+\.\d)\]$")
    rows = [
        [td.text for td in tr.find_elements(By.TAG_NAME, "td")]
        for tr in browser.find_elements(By.CSS_SELECTOR, ".cands tr.cand")
    ]
    assert len(rows) >= 2
    holds_zero = []
    for row in rows[1:]:
        lo, hi = (float(x) for x in interval.match(row[4]).groups())
        holds_zero.append(lo <= 0 <= hi)
    assert (rows[0][-1] == NOISE_BEST) == holds_zero[0], rows[0]
    for row, noise in zip(rows[1:], holds_zero):
        assert (row[-1] == NOISE) == noise, row
    for row in rows:  # the others: one or two phrases of what the move changes
        if row[-1] not in (NOISE, NOISE_BEST):
            assert 1 <= len(row[-1].split("; ")) <= MAX_PARTS and row[-1].strip(), row
    assert not browser.find_element(By.ID, "error").is_displayed()
    browser.save_screenshot(str(shots / "board-hint-reasons.png"))


def test_levels_by_name_and_a_refused_actions_why_link(browser, server, shots):
    """Issue 43: the Play tab offers the levels by name, the opponents' and the partner's
    apart; a refused action (a discard before the draw: R-20, the turn's order) shows its
    message with a "Why?" link that lands on the rule in the board's rule book."""
    browser.get("about:blank")
    browser.get(server)
    browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="play"]').click()
    opponents = Select(browser.find_element(By.ID, "play-opponents"))
    wait_for(browser, lambda b: len(opponents.options) > 1, "the levels")
    names = [o.text for o in opponents.options]
    assert names == ["bots field", "beginner", "novice", "club", "strong", "master", "grandmaster"]
    partner = Select(browser.find_element(By.ID, "play-partner"))
    assert [o.text for o in partner.options] == ["as opponents", *names[1:]]
    Select(browser.find_element(By.ID, "play-players")).select_by_visible_text("4")
    opponents.select_by_visible_text("novice")
    assert not browser.find_element(By.ID, "play-bots").is_enabled()  # the level replaces it
    partner.select_by_visible_text("club")
    play_click(browser, browser.find_element(By.ID, "play-start"))
    assert browser.find_element(By.ID, "play-status").text == "your turn"
    names = [
        n.text for n in browser.find_elements(By.CSS_SELECTOR, "#play-table .seat .name")
    ]  # seat 0 is yours; the partner (seat 2) plays careful, the opponents greedy
    assert names == [
        "seat 0 \u00b7 you",
        "seat 1 \u00b7 greedy",
        "seat 2 \u00b7 careful",
        "seat 3 \u00b7 greedy",
    ]
    hand = browser.find_element(By.CSS_SELECTOR, '#play-table .seat[data-seat="0"]')
    natural = next(
        c
        for c in hand.find_elements(By.CSS_SELECTOR, ".card")
        if c.get_attribute("data-card") not in ("2", "JK", "B3", "R3")
    )
    browser.find_element(By.ID, "play-discard").click()  # a click on a card discards it
    play_click(browser, natural)  # a discard before the draw: refused
    error = browser.find_element(By.ID, "error")
    assert error.text.startswith("R-20: ") and error.text.endswith("Why?")
    why = error.find_element(By.CSS_SELECTOR, "a.why")
    assert why.get_attribute("href") == f"{server}rules#R-20"
    browser.save_screenshot(str(shots / "board-why.png"))
    game = browser.current_window_handle
    why.click()  # opens the rule book in a new tab: the game stays
    wait_for(browser, lambda b: len(b.window_handles) == 2, "the rule book's tab")
    browser.switch_to.window(next(h for h in browser.window_handles if h != game))
    try:
        wait_for(browser, lambda b: b.current_url.endswith("/rules#R-20"), "the rule book")
        target = browser.execute_script("return document.querySelector(':target')")
        assert target.get_attribute("id") == "R-20"
        assert target.text.startswith("R-20 A turn: (1) draw from the stock")
        assert browser.execute_script("return window.scrollY") > 0  # scrolled to the rule
    finally:
        browser.close()
        browser.switch_to.window(game)


def test_static_export_in_the_browser(browser, runs, tmp_path):
    out = tmp_path / "deal.html"
    result = CliRunner().invoke(main, ["replay", str(runs[1]), "--deal", "0", "--html", str(out)])
    assert result.exit_code == 0, result.output
    browser.get_log("browser")  # reading the log empties it: only this page's entries follow
    browser.get(out.as_uri())
    wait_for(browser, lambda b: "turn 0, decision 0" in where(b), "the first decision")
    assert not browser.find_element(By.ID, "analysis").is_displayed()
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    assert "end of the deal" in where(browser)
    assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
