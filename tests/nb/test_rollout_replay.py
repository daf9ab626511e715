"""The rollout kernel checked against an independent replay (issue 19, the trust check of
``review``'s regrets, docs/pimc.md "Review").

A kernel rollout (:func:`canasta_sim.analyse`) loads a sampled world into the information set's
public state, makes the candidate's moves and lets the bots play the deal out. The replay does
the same on its own path: the world written into a :class:`~canasta_sim.Deal` the way
:func:`canasta_sim.players.choices.decision_deal` builds one (the stock's top cards moved to the
bottom for a pickup, as the rollout documents), the bots' stream set to ``mix64(world seed)``,
the candidate made with the Deal API from its label's cards, and the deal played turn by turn
with :meth:`Deal.play_turn`. Both must give every world the same deal scores. A second check:
the public state filled with the *true* hidden cards plays exactly as a copy of the real deal
(the information set loses nothing the bots read).

The positions are those of the 4-player classic review of ``expert`` at bots version 2
(``expert@2``): its two largest regrets (an early initial meld), a pickup and a going out.
"""

import numpy as np
import pytest

from canasta_sim import Deal, Rules, analyse
from canasta_sim.nb.engine.rng import mix64_nb
from canasta_sim.nb.engine.state import STATE_DTYPE
from canasta_sim.players.choices import Candidate, candidates, find_candidate
from canasta_sim.run.address import first_move

BOTS = "expert@2"
WORLDS = 12
SEED = 7


def position(deal: int, turn: int, decision: int) -> Deal:
    """``seed 0 deal DEAL:TURN:DECISION`` of the review (4 players, classic, ``expert@2``)."""
    d = Deal.new(Rules(), 0, deal=deal, trace=True)
    while d.turns < turn:
        d.play_turn(BOTS)
    if decision == 1:
        first_move(d, [BOTS, BOTS])
    return d


def bots_choice(d: Deal) -> Candidate:
    """The bot's own melds and discard of the turn (the review's choice at decision 1)."""
    trial = d.copy()
    start = len(trial.trace())
    trial.play_turn(BOTS)
    events = trial.trace()[start:]
    melds = tuple(f"{e['rank']}: {e['cards']}" for e in events if e["event"] == "meld")
    thrown = next(e["card"] for e in events if e["event"] == "discard")
    return Candidate("bot", "play", melds=melds, discard=thrown)


def board(info, hands: np.ndarray, stock: np.ndarray, seed: int, shift: int) -> Deal:
    """A Deal holding the information set's public state with ``hands`` (every seat's,
    ``int8[players, N_KINDS]``) and ``stock`` (top card first, its first ``shift`` cards moved
    to the bottom), the bots' stream at ``mix64(seed)``."""
    rules = info.rules
    state = np.zeros(1, STATE_DTYPE)
    state[0] = info.public_state()
    state = state[0]
    state["hands"][: rules.players] = hands
    state["stock"][rules.n_cards - info.stock_size : rules.n_cards] = np.roll(stock, -shift)
    state["rng"][0] = mix64_nb(np.uint64(seed))
    return Deal(rules, state)


def own_other(info, deal: Deal) -> tuple[int, int]:
    score = deal.score()
    own = score[info.side]["total"]
    return own, max(v["total"] for s, v in score.items() if s != info.side)


CASES = {
    # the two largest regrets of the review: the bot's early initial meld against a discard
    "189:2:1": ((189, 2, 1), ["discard 10", "discard 4"]),
    "770:29:1": ((770, 29, 1), ["discard 4", "discard 10"]),
    "191:16:0 pickup": ((191, 16, 0), ["draw", "take the pile with Q Q", "take the pile with Q 2"]),
    "189:62:1 going out": ((189, 62, 1), ["go out: meld 6 6, 9, discard 7", "discard 7"]),
}


@pytest.mark.parametrize(
    "case, rollout",
    [(case, BOTS) for case in CASES]
    + [("191:16:0 pickup", "random")]
    + [(case, "apprentice") for case in ("189:2:1", "191:16:0 pickup")]
    + [("189:62:1 going out", "apprentice:temperature=50")],
)
def test_each_world_of_a_rollout_equals_its_replay(case, rollout):
    """``expert`` draws no random numbers; ``random`` checks the bots' stream too, and so does
    the apprentice with a temperature (it samples its candidates from the stream); the
    apprentice plays with its weight file in the kernel and through the Deal API."""
    where, labels = CASES[case]
    d = position(*where)
    info = d.info_set(d.current_player)
    found = candidates(info)
    cands = [find_candidate(found, label) for label in labels]
    if where[2] == 1 and not cands[0].going_out:
        cands.append(bots_choice(d))  # the initial meld and a discard: one move of melds
        assert cands[-1].melds and cands[-1].discard
    result = analyse(info, cands, worlds=WORLDS, rollout=rollout, seed=SEED)
    per = result.per_world
    worlds = info.sample_worlds(WORLDS, SEED)
    for cand in cands:
        rows = per[per["candidate"] == cand.label].sort_values("world")
        kernel = list(zip(rows["own_score"], rows["other_score"]))
        shift = info.rules.cards_drawn if cand.move == "take" else 0
        replay = []
        for w in range(WORLDS):
            deal = board(info, worlds.hands[w], worlds.stock[w], worlds.seeds[w], shift)
            cand.apply(deal)
            deal.play_out(rollout)
            replay.append(own_other(info, deal))
        assert kernel == replay, cand.label
    # the check compares something: the candidates' worlds do not all end alike
    assert per.groupby("candidate")["own_score"].apply(tuple).nunique() == len(cands)


@pytest.mark.parametrize("case", CASES)
def test_the_public_state_with_the_true_cards_plays_as_the_deal(case):
    """The information set's public state holding the real hidden cards, and a copy of the
    real deal, with the same bots' stream, play every candidate to the same end."""
    where, labels = CASES[case]
    d = position(*where)
    info = d.info_set(d.current_player)
    found = candidates(info)
    players = info.rules.players
    stock = d.state["stock"][info.rules.n_cards - info.stock_size : info.rules.n_cards]
    for k, label in enumerate(labels):
        cand = find_candidate(found, label)
        real = d.copy()
        real.state["rng"][0] = mix64_nb(np.uint64(k))
        rebuilt = board(info, d.state["hands"][:players], stock, k, 0)
        for deal in (real, rebuilt):
            cand.apply(deal)
            deal.play_out(BOTS)
        assert (real.turns, real.went_out, real.score()) == (
            rebuilt.turns,
            rebuilt.went_out,
            rebuilt.score(),
        ), label
