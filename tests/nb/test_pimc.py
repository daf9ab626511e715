"""The search bot ``pimc``: legal deals, no reading of hidden cards, its bot-spec grammar, and
the meld-or-hold search (``melds=1``)."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

from canasta_sim.game.deals import Deal, trace_deal
from canasta_sim.game.rules import Rules
from canasta_sim.nb.bots.policies import EXPERT_PARAMS, PimcParam
from canasta_sim.players.specs import parse_bot
from canasta_sim.referee import check_trace

SEARCH = "pimc:worlds=4,top=2"


@pytest.mark.parametrize("players", [2, 4])
def test_referee_accepts_pimc_deals(players):
    """Every deal a search bot plays passes the referee (R-10..R-66), at 2 and 4 players,
    with the search bot on side 0 and on every side."""
    rules = Rules(players=players)
    for deal in range(12):
        bots = [SEARCH, "expert"] if deal % 2 == 0 else [SEARCH]
        verdict = check_trace(trace_deal(rules, bots, seed=7, deal=deal))
        assert verdict.ok, (deal, str(verdict))


MELD_SEARCH = "pimc:worlds=4,top=2,melds=1"


@pytest.mark.parametrize("preset", ["classic", "hoyle"])
@pytest.mark.parametrize("players", [2, 4])
def test_referee_accepts_meld_search_deals(players, preset):
    """Every deal of the meld-or-hold search passes the referee (R-10..R-66; R-64's minimum
    count, R-40's going out and R-45's end among them), under both presets, with the search
    bot on side 0 and on every side."""
    rules = Rules.preset(preset, players)
    for deal in range(6):
        bots = [MELD_SEARCH, "expert"] if deal % 2 == 0 else [MELD_SEARCH]
        verdict = check_trace(trace_deal(rules, bots, seed=11, deal=deal))
        assert verdict.ok, (deal, str(verdict))


# seat 0 (side 0, its initial meld made) can take the open pile with its pair of sevens or draw;
# the other seats' cards and the stock are laid out in three ways seat 0 cannot tell apart
OWN = "7 7 8 9 J Q 5 6 4 4 A"
HIDDEN = "5 5 6 6 8 8 9 9 10 10 J J Q Q A A 4 4 6 8 9 10 J Q A K K 5 10 J 8 9 Q B3 4 5 6 8 9"
STOCK_EXTRA = "10 J Q 4 5 6 8 9 10 J Q 2 JK R3"


def _position(order: list[str]) -> Deal:
    cards = order + STOCK_EXTRA.split()
    hands = [OWN] + [" ".join(cards[11 * i : 11 * (i + 1)]) for i in range(3)]
    stock = " ".join(cards[33:])
    return Deal.from_position(
        Rules(players=4),
        hands=hands,
        stock=stock,
        pile="5 10 7",
        melds={0: ["K K K"], 1: ["A A A"]},
        current=0,
    )


def _decisions(search: str) -> list[tuple]:
    hidden = HIDDEN.split()
    turns = []
    for order in [hidden, hidden[::-1], hidden[20:] + hidden[:20]]:
        d = _position(order)
        d.play_turn([search, "expert"])
        took = len(d.pile.split()) == 1  # a pickup leaves only the new discard
        turns.append((took, d.hand(0) if took else None, d.pile if took else None))
    return turns


@pytest.mark.parametrize("search", [SEARCH, "pimc:worlds=16,top=3"])
def test_pimc_reads_no_hidden_card(search):
    """Positions that differ only in the cards hidden from seat 0 (the other hands and the
    stock order) give the same decision: taking the pile or drawing, and after a pickup (all
    of whose cards are public) the same hand and discard. A search that read the hidden cards
    would see different futures in the three layouts, as ``see_hidden=1`` does: it draws in
    the first layout and takes the pile in the second."""
    turns = _decisions(search)
    assert turns[0] == turns[1] == turns[2]
    cheat = _decisions("pimc:worlds=16,top=3,see_hidden=1")
    assert (cheat[0][0], cheat[1][0]) == (False, True)


def test_pimc_spec_grammar():
    """``rollout=expert@1`` sets the rollout expert's parameters to the preset's values and
    ``rollout.NAME`` overrides one; the vector holds them after ``PimcParam.expert``."""
    bot = parse_bot("pimc:worlds=64,top=4,rollout=expert@1,rollout.safety=80")
    v = bot.vector(4)
    assert (v[PimcParam.worlds], v[PimcParam.top], v[PimcParam.see_hidden]) == (64, 4, 0)
    names = [p.name for p in EXPERT_PARAMS]
    rollout = v[PimcParam.expert : PimcParam.expert + len(names)]
    assert rollout[names.index("meld_keep")] == 8  # expert@1's meld_keep
    assert rollout[names.index("safety")] == 80
    assert np.array_equal(parse_bot("pimc").vector(4)[PimcParam.expert :][:1], [6.0])
    with pytest.raises(ValueError, match="rollout bot 'greedy'"):
        parse_bot("pimc:rollout=greedy")
    with pytest.raises(ValueError, match="unknown parameter 'rollout.nope'"):
        parse_bot("pimc:rollout.nope=1")


# seat 0, side 0 not yet melded, holds A A A (60 points: the minimum count of 50, R-64), so the
# rollout expert would lay its initial meld: the search weighs that against holding. The stock's
# top card (drawn by seat 0 unless it takes the pile) is the same in the three layouts.
MELD_OWN = "A A A 7 7 8 9 J Q 5 6"


def _meld_position(order: list[str]) -> Deal:
    extra = STOCK_EXTRA.split()
    hands = [MELD_OWN] + [" ".join(order[11 * i : 11 * (i + 1)]) for i in range(3)]
    stock = " ".join(extra[:1] + order[33:] + extra[1:])
    return Deal.from_position(
        Rules(players=4), hands=hands, stock=stock, pile="5 10 7", melds={1: ["K K K"]}
    )


@pytest.mark.parametrize("search", [MELD_SEARCH, "pimc:worlds=16,top=3,melds=1"])
def test_meld_search_reads_no_hidden_card(search):
    """Positions that differ only in the cards hidden from seat 0 give the same whole turn
    with the meld-or-hold search: the same hand, melds and pile afterwards."""
    hidden = HIDDEN.split()
    turns = []
    for order in [hidden, hidden[::-1], hidden[20:] + hidden[:20]]:
        d = _meld_position(order)
        d.play_turn([search, "expert"])
        turns.append((d.hand(0), d.melds(0), d.pile))
    assert turns[0] == turns[1] == turns[2]


def test_meld_search_melds_when_the_deal_ends_at_once():
    """A position whose deal ends after seat 0's turn in every world, so that melding is worth
    a known amount. Seat 0 (side 0 melded, no canasta, so it cannot go out, R-40) draws the
    stock's last card, a 4. The rollout expert, in the end game, melds K K K and discards a
    black three (two in hand always go); held, the K K K stay in hand and the same black three
    goes (``top=1``: one discard per plan). Seat 1 then must draw from the empty stock but
    cannot take the pile, blocked by the black three (R-23, R-44): the deal ends. Only side 0's
    score differs between the two candidates: the K K K count +30 on the table (R-53) against
    -30 in hand (R-54), so melding wins by 60 points in every world and the search must meld."""
    hidden = HIDDEN.split()
    hands = ["K K K B3 B3 9"] + [" ".join(hidden[11 * i : 11 * (i + 1)]) for i in range(3)]
    d = Deal.from_position(  # the red threes laid out: the one-card stock can hold none
        Rules(players=4),
        hands=hands,
        stock="4",
        pile="5 10 6",
        melds={0: ["A A A"]},
        red_threes={0: 2, 1: 2},
    )
    d.play_turn(["pimc:worlds=8,top=1,melds=1", "expert"])
    assert d.melds(0) == {"K": "K K K", "A": "A A A"}
    assert sorted(d.hand(0).split()) == sorted("B3 9 4".split())
    assert d.pile.split()[-1] == "B3"


def test_worlds_with_more_unseen_red_threes_than_stock_places():
    """A hand-built position may leave cards out (they are out of play), red threes too: here
    all four, with a two-card stock. Red threes are never held (R-15, R-16), so the sampler
    fills both stock places with red threes and none goes to a hand; it used to write the
    other two beyond the stock (a segmentation fault), hence the child process. The search bot
    then plays seat 0's turn: it draws the 4 (the true stock is played as it lies) and
    discards, leaving 7 cards in hand, one in the stock and two in the pile."""
    child = textwrap.dedent(
        """
        import numpy as np
        from canasta_sim import Deal
        from canasta_sim.nb.enums import N_KINDS, RED_THREE
        from canasta_sim.nb.rollout import worlds_nb
        from canasta_sim.nb.worlds import STRATA_OFF
        unseen = np.zeros(N_KINDS, np.int64)
        unseen[RED_THREE] = 4
        unseen[RED_THREE + 1 :] = 2  # two of every other kind: more than the places
        slots = np.array([0, 3, 3, 3], np.int64)
        base = np.zeros((4, N_KINDS), np.int8)
        hands = np.zeros((5, 4, N_KINDS), np.int8)
        stock = np.zeros((5, 2), np.int8)
        first = np.full(5, STRATA_OFF, np.int8)
        worlds_nb(unseen, slots, base, first, np.arange(5, dtype=np.uint64), hands, stock)
        print((stock == RED_THREE).all(), hands[:, :, RED_THREE].sum(), hands.sum(axis=2).tolist())
        d = Deal.from_position(
            hands=["5 5 6 7 8 9 K", "4 4 6 7 8 Q", "9 9 J J Q", "5 6 10 10 A"],
            stock="4 A",
            pile="7",
        )
        d.play_turn(seats=["pimc:worlds=4"] * 4)
        print(d.turns, len(d.hand(0).split()), d.stock_size, len(d.pile.split()))
        """
    )
    run = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split("\n")[:3] == ["True 0 " + str([[0, 3, 3, 3]] * 5), "1 7 1 2", ""]


def test_meld_search_plays_the_deal_that_stalled():
    """Deal 910 of ``compare pimc:melds=1 pimc`` (seed 0, 4 players: board 455 with team A,
    ``pimc:melds=1``, on side 0) never ended on the meld-search branch before it was merged:
    seat 0's turn 52 (two cards in hand) never returned. The whole deal must end by going
    out, an exhausted stock or a last-card red three (R-40, R-44, R-45), not by R-47's turn
    bound; the chunk kernel plays it as compare does. A child process with a time limit, so
    that a stall fails rather than hangs."""
    child = textwrap.dedent(
        """
        from canasta_sim.run.compare import rotation_table
        from canasta_sim.game.rules import Rules
        from canasta_sim.run.seating import play_rows
        table = rotation_table("pimc:melds=1", "pimc", Rules(players=4))
        seeds, seatings, deal_rows, side_rows = play_rows(table, 0, 910, 1)
        print(seatings[0], deal_rows[0]["end_reason"], deal_rows[0]["turns"] < Rules().max_turns)
        """
    )
    run = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    seating, end, bounded = run.stdout.split()
    assert seating == "0" and end in ("1", "2", "3") and bounded == "True"


def test_pimc_rollout_apprentice_spec():
    """``rollout=apprentice`` puts the learned bot's code in ``PimcParam.rollout``, its
    candidates' expert at today's defaults in the ``rollout.NAME`` slots; ``weights=PATH``
    is a parameter of that spec only."""
    from canasta_sim.nb.bots.policies import EXPERT_DEFAULTS, PolicyCode
    from canasta_sim.players.specs import search_rollout_bot
    from canasta_sim.players.weights import default_weights_path

    bot = parse_bot("pimc:rollout=apprentice")
    assert bot.spec == "pimc:rollout=apprentice"  # by name: the canonical spec parses again
    assert parse_bot(bot.spec) == bot
    v = bot.vector(4)
    assert v[PimcParam.rollout] == PolicyCode.apprentice
    assert tuple(v[PimcParam.expert : PimcParam.expert + len(EXPERT_PARAMS)]) == EXPERT_DEFAULTS
    path = str(default_weights_path(4))
    bot = parse_bot(f"pimc:rollout=apprentice,rollout.safety=80,weights={path}")
    inner = search_rollout_bot(bot)
    assert (inner.policy.name, inner.weights, inner.parameters["expert.safety"]) == (
        "apprentice",
        path,
        80,
    )
    with pytest.raises(ValueError, match="pimc:rollout=apprentice only"):
        parse_bot(f"pimc:weights={path}")


@pytest.mark.parametrize("bad", ["greedy", "pimc", "random", "apprentic", "expert@9"])
def test_bad_rollout_bots_are_refused_naming_the_allowed(bad):
    with pytest.raises(ValueError) as err:
        parse_bot(f"pimc:rollout={bad}")
    message = str(err.value)
    assert f"rollout bot {bad!r}" in message
    assert "allowed: expert, apprentice, expert@1, expert@2" in message


def test_rollout_apprentice_weights_reach_the_seat():
    """A run's weight sets hold the pimc seat's rollout apprentice's file, its index in the
    seat's ``PimcParam.weight_set``; a pimc with expert rollouts names none."""
    from canasta_sim.players.specs import seat_arrays, side_bots, weight_sets

    bots = side_bots(["pimc:rollout=apprentice", "pimc"], 2)
    _, params = seat_arrays(bots, 4)
    files, weights = weight_sets([bots], 4, params[None])
    assert len(files) == 1 and weights.shape[0] == 1
    assert params[0, PimcParam.weight_set] == 0 and params[1, PimcParam.weight_set] == 0
    files, _ = weight_sets([side_bots(["pimc", "expert"], 2)], 4, params[None])
    assert files == ()
