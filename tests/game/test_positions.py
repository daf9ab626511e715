"""Position files in their own module (issue 24 item 2), and what a position that leaves part
of the pack out is told."""

import json
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from canasta_sim import Deal, InfoSet, Rules
from canasta_sim import cards as C
from canasta_sim.cli import main
from canasta_sim.game.positions import PHASES, position_fields, read_position

POSITIONS = Path(__file__).resolve().parents[2] / "docs" / "positions"
GO_OUT = POSITIONS / "go_out_2p.json"


def test_infoset_reads_position_files_through_the_positions_module(tmp_path):
    data = read_position(GO_OUT)
    assert data == json.loads(GO_OUT.read_text())
    fields = position_fields(data)
    assert fields["rules"] == Rules(players=2) and fields["phase"] == "play"
    assert InfoSet(**fields) == InfoSet.from_dict(data) == InfoSet.from_file(GO_OUT)
    assert PHASES == ("draw", "play")
    bad = tmp_path / "bad.json"
    bad.write_text("{players: 2")
    with pytest.raises(ValueError, match="bad.json: not a valid position file"):
        InfoSet.from_file(bad)


def test_a_deal_that_leaves_part_of_the_pack_out_names_the_missing_cards():
    # 11 cards in view (two hands and the pile) and an empty stock: 97 of the 108 are nowhere
    d = Deal.from_position(Rules(players=2), hands=["4 4 4 K K", "5 5 5 Q Q"], stock="", pile="6")
    with pytest.raises(ValueError) as err:
        d.info_set(0)
    message = str(err.value)
    assert "leaves 97 cards of the 108-card pack out" in message
    # per deck pair: 4 red and 4 black threes, 8 of each rank, 8 deuces, 4 jokers
    assert "(R3 x4, B3 x4, 4 x5, 5 x5, 6 x7, 7 x8," in message
    assert "Q x6, K x6, A x8, 2 x8, JK x4)" in message
    assert "add them to the stock" in message
    assert "hand sizes" not in message and "stock size" not in message


def test_a_deal_with_the_whole_pack_has_an_info_set():
    hands = ["4 4 4 K K", "5 5 5 Q Q"]
    rest = C.KIND_COUNTS_108.astype(np.int64) - C.parse_cards(" ".join(hands)) - C.parse_cards("6")
    d = Deal.from_position(Rules(players=2), hands=hands, stock=C.format_cards(rest), pile="6")
    assert d.info_set(0).stock_size == 108 - 11


@pytest.mark.parametrize(
    "stock, fix",
    [
        (42, "it leaves 1 card of the pack out: give stock = 43"),
        (40, "it leaves 3 cards of the pack out: give stock = 43"),
        (45, "it has 2 places too many: give stock = 43"),
    ],
)
def test_a_position_with_the_wrong_stock_says_how_to_complete_the_pack(stock, fix):
    # docs/positions/take_or_draw.toml: 71 cards not in view, 28 unknown cards in the other
    # hands (7 + 11 + 10, seat 1's 8 8 known) leave 43 for the stock
    pytest.importorskip("tomllib")  # a TOML position (Python 3.11+)
    data = {**read_position(POSITIONS / "take_or_draw.toml"), "stock": stock}
    with pytest.raises(ValueError) as err:
        InfoSet.from_dict(data)
    message = str(err.value)
    assert fix in message
    assert "71 of the 108 cards are not in view (R3 x3," in message
    assert f"make {28 + stock} places" in message


# --- files that are no position files ------------------------------------------------------------
def test_a_binary_position_file_is_no_text_position_file(tmp_path):
    path = tmp_path / "p.toml"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff\xfe")
    with pytest.raises(ValueError, match="not a text position file") as info:
        InfoSet.from_file(path)
    assert "codec" not in str(info.value)
    r = CliRunner().invoke(main, ["analyse", str(path)])
    assert r.exit_code == 2 and "not a text position file" in r.output


@pytest.mark.parametrize(
    "old, new, named",
    [
        (
            'hand = "9 9 K K 5 7 A A J 2 4"',
            'hand = "9 9 K K 5 7 A A J 2 X"',
            "hand='9 9 K K 5 7 A A J 2 X'",
        ),
        ('pile = "4 7 8 9 J 6 5 Q 9"', 'pile = "4 7 8 9 J 6 5 Q X"', "pile='4 7 8 9 J 6 5 Q X'"),
        ('known = ["", "8 8", "", ""]', 'known = ["", "8 X", "", ""]', "known[1]='8 X'"),
    ],
)
def test_an_unknown_card_token_names_its_key(tmp_path, old, new, named):
    text = (POSITIONS / "take_or_draw.toml").read_text()
    assert old in text
    (tmp_path / "p.toml").write_text(text.replace(old, new))
    with pytest.raises(ValueError, match=re.escape(f"{named}: unknown card token 'X'")):
        InfoSet.from_file(tmp_path / "p.toml")
