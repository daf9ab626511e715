"""Strategy authoring: bots per seat, starting scores, pile statistics, replays of run folders
and bots written in Python.

Positions are built with ``Deal.from_position`` (4 players: side 0 = seats 0 and 2, side 1 =
seats 1 and 3; the stock's first card is the top, the pile's last card the top).
"""

import pytest

import canasta_sim as cs
from canasta_sim import Deal
from canasta_sim.players.pybot import seated


# --- bots per seat ---------------------------------------------------------------------------
def _pickup_position(current: int) -> Deal:
    """Side 0 has made its initial meld (K K K); the pile (5 9, top 9) is not frozen. The
    player to move holds one 9 and a deuce: greedy takes the pile with them (R-33 b, a
    natural and a wild card), careful takes the pile only with naturals, so it draws."""
    hand = "9 2 4 6 8 10 J"
    other = "4 5 6 7 8 10 Q"
    hands = [other] * 4
    hands[current] = hand
    return Deal.from_position(
        hands=hands,
        stock="7 7 7 Q Q Q",
        pile="5 9",
        melds={0: ["K K K"]},
        current=current,
    )


def _took_pile(d: Deal) -> bool:
    # a draw takes the stock's top card; a pickup leaves the stock and empties the pile
    # before the player's discard
    return d.stock_size == 6 and len(d.pile.split()) == 1


@pytest.mark.parametrize("seats", [("greedy", "careful"), ("careful", "greedy")])
def test_partners_play_their_own_bots(seats):
    first, second = seats  # bots of seat 0 and seat 2, partners on side 0
    spec = [first, "random", second, "random"]
    for seat, bot in ((0, first), (2, second)):
        d = _pickup_position(seat)
        d.play_turn(seats=spec)
        assert _took_pile(d) == (bot == "greedy"), (seat, bot)
        if bot == "careful":
            assert d.stock_size == 5  # drew the 7


def test_bots_and_seats_are_exclusive_and_seats_need_one_spec_per_seat():
    d = _pickup_position(0)
    with pytest.raises(ValueError, match="one of them"):
        d.play_turn("expert", seats=["expert"] * 4)
    with pytest.raises(ValueError, match="allowed: 4 \\(one per seat"):
        d.play_turn(seats=["expert", "careful"])


def test_seat_labels_and_records_carry_each_seat():
    res = cs.simulate(8, seats="greedy,careful,expert,careful", seed=2, workers=1)
    assert res.manifest["bots"] == [["greedy/expert", "careful"]]
    assert res.manifest["seats"] == [["greedy", "careful", "expert", "careful"]]
    deals = res.deals
    assert list(deals["bot_seat_0"].unique()) == ["greedy"]
    assert list(deals["bot_seat_2"].unique()) == ["expert"]
    assert set(res.sides["bot"].unique()) == {"greedy/expert", "careful"}


def test_compare_rotation_moves_sides_and_keeps_seat_order():
    from canasta_sim.run.compare import rotation_table

    table = rotation_table(None, None, cs.Rules(), seats="expert,careful,greedy,careful")
    # team A = side 0's seats (expert at its first seat, greedy at its second), team B careful
    assert table.seat_specs == (
        ("expert", "careful", "greedy", "careful"),
        ("careful", "expert", "careful", "greedy"),
    )
    assert table.bot_specs == ("expert/greedy", "careful")


# --- starting scores -------------------------------------------------------------------------
VALUES = {"JK": 50, "2": 20, "A": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10}


def _points(cards: str) -> int:
    """Card values (R-04): joker 50, deuce and ace 20, K..8 10, 7..4 and black three 5."""
    return sum(VALUES.get(c, 5) for c in cards.split())


def initial_meld_points(trace: list[dict], sides: int) -> dict[int, int]:
    """Points of each side's initial meld, counted by hand from a trace: every card laid in
    the move (``move``) of the side's first meld or pickup, the pile's top card included."""
    first: dict[int, tuple[int, int]] = {}
    points: dict[int, int] = {}
    for e in trace:
        if e["event"] not in ("meld", "take_pile"):
            continue
        side = e["seat"] % sides
        first.setdefault(side, (e["seat"], e["move"]))
        if first[side] != (e["seat"], e["move"]):
            continue
        if e["event"] == "meld":
            points[side] = points.get(side, 0) + _points(e["cards"])
        else:
            laid = [e["top"], e["with"]] + [m["cards"] for m in e["melds"]]
            points[side] = points.get(side, 0) + _points(" ".join(laid))
    return points


def test_a_side_at_3000_needs_120_for_its_initial_meld_in_simulate():
    rules = cs.Rules()
    res = cs.simulate(40, bots="greedy", scores=[3000, 0], seed=11, workers=1)
    assert (res.sides.query("side == 0")["score_before"] == 3000).all()
    low = {0: [], 1: []}
    for k in range(40):
        trace = cs.trace_deal(rules, "greedy", 11, k, scores=[3000, 0])
        assert trace[0]["minimums"] == [120, 50]  # 3,000 and more needs 120
        # the deal simulate played is this one
        scores = [e["total"] for e in trace if e["event"] == "score"]
        assert scores == res.sides.query(f"deal == {k}")["score"].tolist()
        for side, pts in initial_meld_points(trace, 2).items():
            low[side].append(pts)
    assert low[0] and min(low[0]) >= 120
    # greedy melds as soon as it may: side 1 (at 0) makes initial melds under 120 points
    assert min(low[1]) < 120 and min(low[1]) >= 50


def test_scores_are_checked():
    with pytest.raises(ValueError, match="one cumulative score per side"):
        cs.simulate(2, scores=[3000], workers=1)


def test_games_from_4900_end_in_under_two_deals():
    near = cs.play_games(600, scores=[4900, 0], seed=4, workers=1, records=False).totals
    fresh = cs.play_games(600, seed=4, workers=1, records=False).totals
    assert near.deals / near.games < 2
    assert fresh.deals / fresh.games > 3
    assert near.wins[0] > 0.75 * near.games  # 100 points more win side 0 the game


def _out_position(score: int) -> Deal:
    """Seat 0 (side 0, a natural canasta of kings on the table) holds 9 9 9 and draws a 4: it
    may go out (meld 9 9 9, discard 4). Its estimated deal score if it goes out is about 700
    points (kings 70 + 500, nines 30, going out 100, less its partner's 5 hidden cards at 8),
    far below the expert's out_lead of 3,000, and no opponent threatens to go out."""
    return Deal.from_position(
        hands=["9 9 9", "4 5 6 7 8", "4 5 6 7 8", "4 5 6 7 8"],
        stock="4 10 10 10 J J J Q Q Q A A A",
        pile="6",
        melds={0: ["K K K K K K K"], 1: ["Q Q Q"]},
        scores={0: score},
    )


def test_expert_goes_out_when_that_wins_the_game():
    d = _out_position(4500)  # 4,500 + about 700 reaches 5,000
    d.play_turn("expert")
    assert d.went_out == 0
    d = _out_position(0)  # the same hand at 0 points holds back to build canastas
    d.play_turn("expert")
    assert not d.is_over and d.went_out == -1


# --- pile and timeline statistics ------------------------------------------------------------
def pile_counts(trace: list[dict], rules) -> dict[int, dict[str, int]]:
    """The pile and timeline fields of each side, counted by hand from a trace: the pile grows
    by each upcard and discard and empties at a pickup; a pile is frozen while it holds a wild
    card (or a red three upcard with ``red_three_upcard_freezes``, R-13, R-31); a turn ends
    with a discard, going out or R-45's end."""
    sides = rules.sides
    out = {
        s: dict.fromkeys(
            (
                "pickups",
                "pickups_pair",
                "pickups_wild",
                "pickups_onto_meld",
                "pile_cards_taken",
                "pickups_0_4",
                "pickups_5_9",
                "pickups_10_14",
                "pickups_15_19",
                "pickups_20_24",
                "pickups_25_up",
                "wild_freezes",
                "black_three_blocks",
            ),
            0,
        )
        for s in range(sides)
    }
    for s in out:
        out[s]["initial_meld_turn"] = -1
    freezing = {"2", "JK"} | ({"R3"} if rules.red_three_upcard_freezes else set())
    bins = ("0_4", "5_9", "10_14", "15_19", "20_24", "25_up")
    pile: list[str] = []
    turn = 0
    for i, e in enumerate(trace):
        kind = e["event"]
        if kind == "upcard":
            pile.append(e["card"])
        elif kind in ("meld", "take_pile"):
            side = out[e["seat"] % sides]
            if side["initial_meld_turn"] < 0:
                side["initial_meld_turn"] = turn
        if kind == "take_pile":
            side = out[e["seat"] % sides]
            naturals = e["with"].split().count(e["top"])
            how = "pair" if naturals >= 2 else "wild" if naturals == 1 else "onto_meld"
            side["pickups"] += 1
            side[f"pickups_{how}"] += 1
            side["pile_cards_taken"] += len(pile)
            side[f"pickups_{bins[min(len(pile) // 5, 5)]}"] += 1
            pile = []
        elif kind == "discard":
            side = out[e["seat"] % sides]
            going_out = trace[i + 1]["event"] == "go_out"
            if e["card"] in ("2", "JK") and not freezing & set(pile) and not going_out:
                side["wild_freezes"] += 1
            if e["card"] == "B3" and not going_out:
                side["black_three_blocks"] += 1
            pile.append(e["card"])
            turn += 1
        elif kind in ("end_turn",) or (kind == "go_out" and trace[i - 1]["event"] != "discard"):
            turn += 1
    return out


@pytest.mark.parametrize(("players", "bots"), [(4, "expert"), (2, "greedy"), (3, "careful")])
def test_pile_statistics_match_hand_counted_traces(players, bots):
    rules = cs.Rules(players=players)
    n = 6
    res = cs.simulate(n, rules=rules, bots=bots, seed=7, workers=1)
    sides = res.sides
    fields = list(pile_counts([], rules)[0])
    seen = dict.fromkeys(fields, 0)
    for k in range(n):
        counted = pile_counts(cs.trace_deal(rules, bots, 7, k), rules)
        for s in range(rules.sides):
            row = sides.query(f"deal == {k} and side == {s}").iloc[0]
            assert {f: int(row[f]) for f in fields} == counted[s], (k, s)
            for f in fields:
                seen[f] += counted[s][f] > 0
    assert seen["pickups"] and seen["black_three_blocks"]  # the check counted something


def test_pile_aggregates_merge_exactly_and_give_intervals():
    from canasta_sim.results.aggregate import Aggregates

    whole = cs.simulate(40, bots="greedy", seed=3, workers=1, chunk_size=40)
    parts = cs.simulate(40, bots="greedy", seed=3, workers=1, chunk_size=7)
    for key in ("pickups_sum", "pile_taken_cross", "pickup_size", "initial_meld_turn"):
        assert (whole.aggregates.counts[key] == parts.aggregates.counts[key]).all()
    sides = whole.sides
    table = whole.summary().set_index("statistic")
    row = table.loc["pile size at a pickup (cards, top card included)"]
    assert row["value"] == pytest.approx(sides["pile_cards_taken"].sum() / sides["pickups"].sum())
    assert row["ci_low"] < row["value"] < row["ci_high"]
    row = table.loc["pile pickups per side per deal"]
    assert row["value"] == pytest.approx(sides["pickups"].mean())
    assert row["n"] == 80
    agg = Aggregates.from_json(whole.aggregates.to_json())
    assert (agg.counts["pickup_size"] == whole.aggregates.counts["pickup_size"]).all()


# --- bots written in Python ------------------------------------------------------------------
RECORDER = """
import random

class Recorder:
    seen = []

    def choose(self, view, choices):
        Recorder.seen.append((view, list(choices)))
        return choices[-1] if view.phase_label == "draw" else choices[0]

class Wanderer:
    \"\"\"Any candidate, from its own seeded stream, so the deal visits varied positions.\"\"\"
    seen = []

    def __init__(self):
        self.rng = random.Random(7)

    def choose(self, view, choices):
        answer = self.rng.choice(choices)
        Wanderer.seen.append((view, list(choices), answer))
        return answer

class Nonsense:
    def choose(self, view, choices):
        return "take everything"

class Number:
    def choose(self, view, choices):
        return 1000000

class Label:
    \"\"\"Answers a candidate's label, not the candidate.\"\"\"
    def choose(self, view, choices):
        return choices[0].label

class Stale:
    \"\"\"Answers the play decision with the draw decision's first candidate.\"\"\"
    def choose(self, view, choices):
        if view.phase_label == "draw":
            self.first = choices[0]
            return choices[0]
        return self.first
"""


@pytest.fixture
def bot_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my_bots.py").write_text(RECORDER)
    return "my_bots.py"


def _bot_class(spec: str):
    from canasta_sim.players.specs import parse_bot

    cls = type(parse_bot(spec).player())
    cls.seen.clear()
    return cls


def test_python_bot_sees_its_view_and_the_candidates(bot_file):
    cls = _bot_class(f"py:{bot_file}:Recorder")
    d = _pickup_position(0)  # a position built by hand: part of a pack
    d.play_turn(seated(d.rules, seats=[f"py:{bot_file}:Recorder", "random", "random", "random"]))
    view, choices = cls.seen[0]
    assert isinstance(view, cs.Observation)  # the seat's observation (docs/observation.md)
    assert view.phase_label == "draw" and view.seat == 0 and view.side == 0
    assert cs.format_cards(view.hand_counts) == "4 6 8 9 10 J 2"
    assert view.pile_codes.tolist() == [cs.KINDS.index("5"), cs.KINDS.index("9")]
    assert view.pile_frozen == 0  # side 0 has melded, no wild card in the pile
    assert view.side_melds[0, cs.KINDS.index("K") - 1].tolist() == [3, 0, 0]
    assert view.side_melds[1].sum() == 0 and view.side_melded.tolist() == [1, 0]
    assert view.seat_hand_sizes.tolist() == [7, 7, 7, 7] and view.stock_size == 6
    assert view.seat_known_counts.sum() == 0
    # the 9 on top goes with a natural and a wild card (one 9, one deuce); no pair,
    # no joker, no 9s meld on the table
    assert [c.label for c in choices] == ["draw", "take the pile with 9 2"]
    assert (choices[1].move, choices[1].with_, choices[1].melds) == ("take", "9 2", ())
    # the recorder took the pile (its last choice): 9 9 2 melded, the 5 in hand; its one
    # play decision offers the empty plan's discards, one per kind (no 9 or wild card left to
    # meld, no K to add to the K meld)
    assert len(cls.seen) == 2
    view, choices = cls.seen[1]
    assert view.phase_label == "play" and cs.format_cards(view.hand_counts) == "4 5 6 8 10 J"
    # the 9 9 2 melded: the top card and the one 9 from hand, the deuce (R-33 b)
    assert view.side_melds[0, cs.KINDS.index("9") - 1].tolist() == [2, 1, 0]
    assert [c.label for c in choices] == [f"discard {k}" for k in "4 5 6 8 10 J".split()]
    assert d.pile == "4" and d.current_player == 1


def test_the_old_card_text_view_still_answers_with_a_deprecation_warning(bot_file):
    """Bots written against SeatView's card-text attributes (bots version 3) keep running:
    each old name gives the old value (sides and seats in table order) and warns."""
    cls = _bot_class(f"py:{bot_file}:Recorder")
    d = _pickup_position(1)  # seat 1 (side 1) decides: its rows come first in the observation
    d.play_turn(seated(d.rules, seats=["random", f"py:{bot_file}:Recorder", "random", "random"]))
    view = cls.seen[0][0]
    old = {
        "decision": "draw",
        "hand": "4 6 8 9 10 J 2",
        "pile": "5 9",
        "melds": ({"K": "K K K"}, {}),
        "red_threes": (0, 0),
        "scores": (0, 0),
        "minimums": (50, 50),  # R-64 at score 0
        "melded": (True, False),
        "hand_sizes": (7, 7, 7, 7),
        "known": ("", "", "", ""),
        "stock": 6,
    }
    for name, value in old.items():
        with pytest.warns(DeprecationWarning, match=f"SeatView.{name} is deprecated"):
            assert getattr(view, name) == value
    assert view.side_melded.tolist() == [0, 1]  # the observation: its own side first
    assert (view.seat, view.side, view.turn, bool(view.pile_frozen)) == (1, 1, 0, True)


def test_python_bot_is_offered_exactly_the_candidates_of_its_information_set(bot_file):
    """At each of the first 40 decisions of a dealt deal (four Python bots), the bot is offered
    the list ``candidates`` gives for the seat's information set (a world with other hidden
    cards), in the same order."""
    from canasta_sim.players.choices import candidates

    spec = f"py:{bot_file}:Wanderer"
    cls = _bot_class(spec)
    d = cs.Deal.new(seed=5)
    table = seated(d.rules, spec)
    while len(cls.seen) < 40 and not d.is_over:
        d.play_turn(table)
    replay = cs.Deal.new(seed=5)  # the same deal, its decisions replayed one by one
    for view, offered, answer in cls.seen:
        assert view.seat == replay.current_player and view.phase_label == replay.phase
        expected = candidates(replay.info_set(replay.current_player))
        assert [c.label for c in offered] == [c.label for c in expected]
        assert offered == expected  # the same moves, not only the same labels
        answer.apply(replay)
    assert replay.hands == d.hands and replay.pile == d.pile
    moves = {c.move for _, offered, _ in cls.seen for c in offered}
    assert moves == {"draw", "take", "play"} and len(cls.seen) >= 40


def test_a_deal_given_a_python_bot_by_its_spec_says_to_seat_it(bot_file):
    # Deal plays kernel bots; a bot written in Python plays at a table the caller seats
    d = _pickup_position(0)
    spec = f"py:{bot_file}:Recorder"
    with pytest.raises(ValueError, match=r"is written in Python: seat it at a table") as info:
        d.play_turn(seats=[spec, "random", "random", "random"])
    assert spec in str(info.value) and "pybot.seated(deal.rules" in str(info.value)
    with pytest.raises(ValueError, match="a table of bots and seats are both given"):
        d.play_turn(seated(d.rules, spec), seats=["random"] * 4)
    assert d.turns == 0 and d.phase == "draw"  # nothing was played


def test_python_bot_answer_outside_the_candidates_is_refused(bot_file):
    from canasta_sim.players.pybot import BadChoice

    d = _pickup_position(0)
    with pytest.raises(BadChoice) as info:
        d.play_turn(
            seated(d.rules, seats=[f"py:{bot_file}:Nonsense", "random", "random", "random"])
        )
    message = str(info.value)
    assert "Nonsense of seat 0" in message
    assert "'take everything' (a str, not a Candidate) to the draw decision" in message
    assert message.endswith("allowed: one of the candidates 'draw', 'take the pile with 9 2'")
    d = _pickup_position(0)
    with pytest.raises(BadChoice, match=r"answered 1000000 \(an int, not a Candidate\)"):
        d.play_turn(seated(d.rules, seats=[f"py:{bot_file}:Number", "random", "random", "random"]))
    d = _pickup_position(0)
    with pytest.raises(BadChoice) as info:  # a candidate of another decision
        d.play_turn(seated(d.rules, seats=[f"py:{bot_file}:Stale", "random", "random", "random"]))
    message = str(info.value)
    assert "(a Candidate not offered at this decision) to the play decision" in message
    assert "'discard 4'" in message
    assert "'draw'" not in message.split("allowed")[1]


LABEL = "py:my_bots.py:Label"


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--deals", "2", "--bots", f"{LABEL},expert"],
        ["simulate", "--deals", "2", "--seats", f"{LABEL},expert,expert,expert"],
        ["compare", LABEL, "expert", "--deals", "2", "--quiet"],
        ["games", "--games", "1", "--bots", f"{LABEL},expert", "--quiet"],
        ["review", "--bots", f"{LABEL},expert", "--rollout", "expert", "--worlds", "2"],
        ["replay", "--deal", "0", "--bots", f"{LABEL},expert"],
        ["verify", "--deals", "2", "--bots", f"{LABEL},expert"],
    ],
)
def test_an_answer_outside_the_candidates_is_the_bots_error(bot_file, args):
    """The spec was good, the bot's answer was not: exit code 1, no option blamed."""
    from click.testing import CliRunner

    from canasta_sim.cli import main

    r = CliRunner().invoke(main, args)
    assert r.exit_code == 1, r.output
    assert f"Error: the Python bot {LABEL} of seat" in r.output
    assert "Invalid value" not in r.output
    assert "answered 'draw' (a str, not a Candidate) to the draw decision" in r.output
    assert "Traceback" not in r.output


def test_python_bot_specs_are_checked(bot_file):
    with pytest.raises(ValueError, match="has no class Missing"):
        cs.simulate(2, bots=f"py:{bot_file}:Missing", workers=1)
    with pytest.raises(ValueError, match="does not exist"):
        cs.simulate(2, bots="py:nowhere.py:Bot", workers=1)
    with pytest.raises(ValueError, match="not on Dask workers"):
        cs.simulate(2, bots=f"py:{bot_file}:Recorder", workers=1, scheduler="local:1")


@pytest.mark.parametrize(
    "deals", [2, pytest.param(12, id="slow", marks=pytest.mark.slow)], ids=lambda n: f"{n}"
)
def test_example_bots_play_legal_deals_that_the_referee_accepts(monkeypatch, deals):
    from pathlib import Path

    from canasta_sim.referee import check_trace

    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    hoarder, eager = "py:docs/example_bots.py:PileHoarder", "py:docs/example_bots.py:EagerMelder"
    for players, bots in ((4, [hoarder, eager]), (2, [eager, "expert"]), (3, [hoarder])):
        rules = cs.Rules(players=players)
        res = cs.simulate(deals, rules=rules, bots=bots, seed=8, workers=1)
        for k in range(deals):
            trace = cs.trace_deal(rules, seated(rules, bots), 8, k)
            assert check_trace(trace).ok
            scores = [e["total"] for e in trace if e["event"] == "score"]
            assert scores == res.sides.query(f"deal == {k}")["score"].tolist()


def test_the_minimal_bot_of_strategy_md_plays_deals_the_referee_accepts(tmp_path, monkeypatch):
    import re
    from pathlib import Path

    from canasta_sim.referee import check_trace

    doc = (Path(__file__).resolve().parents[2] / "docs/strategy.md").read_text()
    code = re.search(r"```python\n(class Minimal:.*?)```", doc, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "minimal.py").write_text(code)
    bots = ["py:minimal.py:Minimal", "careful"]
    trace = cs.trace_deal(cs.Rules(), seated(cs.Rules(), bots), 4, 0)
    assert check_trace(trace).ok
    takes = [e for e in trace if e["event"] == "take_pile" and e["seat"] % 2 == 0]
    assert takes and all(e["cards"] >= 10 for e in takes)  # only piles of 10 cards or more


def test_example_bots_express_their_strategies(monkeypatch):
    """The pile hoarder lays melds only in a pickup or when going out; the eager melder lays
    the plan with the most cards at every play decision (going out first)."""
    from pathlib import Path

    from canasta_sim.players.choices import candidates
    from canasta_sim.players.pybot import view_of

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2] / "docs"))
    import example_bots as ex

    d = cs.Deal.new(seed=3)
    hoarder, eager = ex.PileHoarder(), ex.EagerMelder()
    plays = 0
    while not d.is_over and d.turns < 60:
        bot = hoarder if d.current_player % 2 == 0 else eager
        found = candidates(d)
        choice = bot.choose(view_of(d), found)
        if d.phase == "play":
            plays += 1
            if bot is hoarder:
                assert not choice.melds or choice.going_out
            else:
                best = max((c.going_out, ex.cards_laid(c)) for c in found)
                assert (choice.going_out, ex.cards_laid(choice)) == best
        elif bot is hoarder and any(c.move == "take" for c in found):
            assert choice.move == "take"
        choice.apply(d)
    assert plays >= 20


def test_a_python_bot_class_needing_arguments_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "needy.py").write_text(
        "class Needy:\n    def __init__(self, a):\n        pass\n\n"
        "    def choose(self, view, choices):\n        return choices[0]\n"
    )
    with pytest.raises(ValueError, match="class Needy cannot be made without arguments"):
        cs.simulate(2, bots="py:needy.py:Needy", workers=1)


def test_a_python_bot_is_not_a_rollout_bot(bot_file):
    """Rollouts run in the kernels: a bot written in Python is refused, not replaced."""
    from pathlib import Path

    info = cs.InfoSet.from_file(Path(__file__).parents[2] / "docs/positions/go_out_2p.json")
    with pytest.raises(
        ValueError, match="is written in Python, and the rollouts run in the kernels"
    ):
        cs.analyse(info, worlds=2, rollout=f"py:{bot_file}:Recorder")


def test_choices_are_the_candidates_listed_only_as_far_as_the_bot_reads(monkeypatch):
    """A bot that reads only the first play-phase choice (the empty plan's first discard, kind
    order: R-02, R-20) is not made to wait for the meld plans; any further reading gives the
    whole list of its decision, even after the deal has moved on."""
    from canasta_sim.players import choices as layer

    d = _pickup_position(0)
    d.draw()
    expected = layer.candidates(d)
    plans = []  # the listings that build the meld plans (not the empty plan's alone)
    listing = layer._listing
    monkeypatch.setattr(
        layer,
        "_listing",
        lambda deal, cap, empty_only: (
            plans.append(1) or listing(deal, cap, empty_only)
            if not empty_only
            else listing(deal, cap, empty_only)
        ),
    )
    offered = layer.Choices(d)
    first = offered[0]
    assert (first.label, plans) == ("discard 4", [])
    assert first in offered and plans == []
    offered.close()
    d.discard("4")  # the decision is over; its choices stay its own
    assert list(offered) == expected and len(expected) > 8
    assert offered[0] is first and plans == [1]
    assert offered[-1] == expected[-1] and offered[1:3] == expected[1:3]


def test_a_decision_without_a_candidate_is_the_positions_error_not_the_bots(bot_file):
    """R-40: a side without a canasta may not go out, so a hand built empty that draws one
    card has no legal play (no meld, and discarding it would go out)."""
    from canasta_sim.players.choices import NoCandidate

    d = Deal.from_position(
        hands=["", "4 5 6", "4 5 6", "4 5 6"], stock="9 9 9 Q Q", pile="5 7", current=0
    )
    d.draw()
    with pytest.raises(NoCandidate, match="no legal candidate for seat 0"):
        d.play_turn(
            seated(d.rules, seats=[f"py:{bot_file}:Recorder", "random", "random", "random"])
        )
