"""The board's rule book (issue 43 item 4): canasta_sim/board/static/rules.html, generated from
docs/RULES.md by scripts/board_rules.py and shipped as package data, with an anchor per rule
id; the board serves it at /rules, where a refused action's "Why?" link lands."""

import re
import sys
import warnings
from pathlib import Path

import pytest

from canasta_sim.board.export import STATIC
from canasta_sim.nb.enums import MOVE_ERROR_RULES

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import board_rules  # noqa: E402

SHIPPED = (STATIC / "rules.html").read_text()
RULE_IDS = re.findall(r"^- (R-\d\d) ", board_rules.SOURCE.read_text(), re.M)


def test_the_shipped_rule_book_is_up_to_date():
    assert SHIPPED == board_rules.convert(board_rules.SOURCE.read_text()), (
        "docs/RULES.md changed: run python scripts/board_rules.py"
    )


def test_every_rule_has_one_anchor():
    assert len(RULE_IDS) == 44  # R-01..R-04, R-10..R-16, R-20..R-24, R-30..R-35, ...
    anchors = re.findall(r'<li id="(R-\d\d)">', SHIPPED)
    assert anchors == RULE_IDS
    # every rule id a refused move can name has its anchor
    named = {rule for rule in MOVE_ERROR_RULES.values() if rule}
    assert named <= set(anchors), sorted(named - set(anchors))


def test_the_converter():
    markdown = (
        "# Title\n\nA *word* and `a<b` in a\nparagraph.\n\n"
        "- R-60 A meld, see R-64 and\n  more.\n- plain\n\n"
        "| a | b |\n|---|---|\n| 1 | R-04 |\n\n1. one\n   two\n"
    )
    body = board_rules.convert(markdown).split("<body>\n")[1]
    assert body == (
        "<h1>Title</h1>\n"
        "<p>A <em>word</em> and <code>a&lt;b</code> in a paragraph.</p>\n"
        "<ul>\n"
        '<li id="R-60"><strong>R-60</strong> A meld, see <a href="#R-64">R-64</a> and more.</li>\n'
        "<li>plain</li>\n</ul>\n"
        "<table>\n<tr><th>a</th><th>b</th></tr>\n"
        '<tr><td>1</td><td><a href="#R-04">R-04</a></td></tr>\n</table>\n'
        "<ol>\n<li>one two</li>\n</ol>\n</body>\n</html>\n"
    )


pytest.importorskip("starlette", reason="the board extra is not installed")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from canasta_sim.board.app import create_app  # noqa: E402


def test_the_board_serves_the_rule_book():
    with TestClient(create_app([]), base_url="http://127.0.0.1") as client:
        response = client.get("/rules")
        assert response.status_code == 200 and response.headers["content-type"].startswith(
            "text/html"
        )
        assert '<li id="R-60">' in response.text
        # the Host check covers it (DNS rebinding)
        assert client.get("/rules", headers={"Host": "evil.example"}).status_code != 200
