"""The readable trace listing (``canasta-sim replay``, docs/trace.md)."""

from click.testing import CliRunner

from canasta_sim import Rules
from canasta_sim.cli import main
from canasta_sim.game.trace import format_trace


def _ev(event, **keys):
    return {"event": event, **keys}


def test_listing_names_replacements_and_the_meld_cards_are_added_to():
    """4 players (sides 0 and 1: seats 0 and 2, seats 1 and 3): replacements at the deal
    (R-15, a replacement red three replaced in turn) and in play (R-16); additions to a meld
    the seat's side (not the other side) already has."""
    trace = [
        _ev(
            "start", rules=Rules(players=4).to_dict(), seed=0, dealer=3, deck="", minimums=[50, 50]
        ),
        _ev("upcard", card="7"),
        _ev("red_three", seat=0, source="dealt"),
        _ev("red_three", seat=0, source="dealt"),
        _ev("draw", seat=0, card="R3"),
        _ev("red_three", seat=0, source="drawn"),
        _ev("draw", seat=0, card="9"),
        _ev("draw", seat=0, card="5"),
        _ev("red_three", seat=1, source="dealt"),
        _ev("draw", seat=1, card="K"),
        _ev("draw", seat=0, card="8"),
        _ev("meld", seat=0, move=1, rank="8", cards="8 8 8"),
        _ev("meld", seat=0, move=2, rank="8", cards="2"),
        _ev("discard", seat=0, card="4"),
        _ev(
            "take_pile",
            seat=1,
            move=3,
            top="4",
            melds=[{"rank": "K", "cards": "K K JK"}],
            **{"with": "4 4"},
        ),
        _ev("red_three", seat=1, source="pile"),
        _ev("discard", seat=1, card="8"),
        _ev("take_pile", seat=2, move=4, top="8", melds=[], **{"with": "2"}),
        _ev("discard", seat=2, card="K"),
        _ev(
            "take_pile",
            seat=3,
            move=5,
            top="K",
            melds=[{"rank": "4", "cards": "4 2"}],
            **{"with": ""},
        ),
        _ev("discard", seat=3, card="9"),
        _ev("draw", seat=0, card="R3"),
        _ev("red_three", seat=0, source="drawn"),
        _ev("draw", seat=0, card="Q"),
        _ev("meld", seat=0, move=6, rank="8", cards="8 JK"),
        _ev("discard", seat=0, card="9"),
        _ev("draw", seat=1, card="J"),
    ]
    assert format_trace(trace).splitlines() == [
        "deal: 4 players, dealer seat 3, minimum counts [50, 50]",
        "  upcard 7",
        "  seat 0 lays out a red three (dealt)",
        "  seat 0 lays out a red three (dealt)",
        "  seat 0 draws a replacement: R3",
        "  seat 0 lays out a red three (drawn)",
        "  seat 0 draws a replacement: 9",
        "  seat 0 draws a replacement: 5",
        "  seat 1 lays out a red three (dealt)",
        "  seat 1 draws a replacement: K",
        "  seat 0 draws 8",
        "  seat 0 melds 8 8 8",
        "  seat 0 adds 2 to the 8s meld",
        "  seat 0 discards 4",
        "  seat 1 takes the pile: 4 with 4 4 + meld K K JK",
        "  seat 1 lays out a red three (pile)",
        "  seat 1 discards 8",
        "  seat 2 takes the pile: 8 with 2 to the 8s meld",
        "  seat 2 discards K",
        "  seat 3 takes the pile: K to the Ks meld + 4 2 to the 4s meld",
        "  seat 3 discards 9",
        "  seat 0 draws R3",
        "  seat 0 lays out a red three (drawn)",
        "  seat 0 draws a replacement: Q",
        "  seat 0 adds 8 JK to the 8s meld",
        "  seat 0 discards 9",
        "  seat 1 draws J",
    ]


def test_replay_labels_the_replacements_of_dealt_red_threes():
    """Seed 1, deal 7, 2 players: each seat is dealt one red three and draws its replacement
    before the first turn (R-15); the listing of the deal start follows from the deck alone."""
    r = CliRunner().invoke(main, ["replay", "--seed", "1", "--deal", "7", "--players", "2"])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[:6] == [
        "deal: 2 players, dealer seat 1, minimum counts [50, 50]",
        "  upcard 5",
        "  seat 0 lays out a red three (dealt)",
        "  seat 0 draws a replacement: Q",
        "  seat 1 lays out a red three (dealt)",
        "  seat 1 draws a replacement: A",
    ]


def test_an_unknown_event_is_listed_not_dropped():
    # replay --trace of a file of unknown events printed nothing at all
    listing = format_trace([_ev("discard", seat=1, card="7"), _ev("nosuch", seat=2, x=1)])
    assert listing.splitlines() == [
        "  seat 1 discards 7",
        "  unknown event 'nosuch' (not in docs/trace.md): seat 2, x 1",
    ]
