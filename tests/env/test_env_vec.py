"""The batched environment ``VecCanasta`` (issue 27 item 4): episodes played through it pass the
referee, the same seed gives byte-identical batches on 1 and 2 threads, rewards are the deal's
score difference (or a game's result), illegal actions raise, and observations hold no hidden
card."""

from __future__ import annotations

import numpy as np
import pytest

from canasta_sim import Deal, Rules
from canasta_sim.env import ActionDeal, VecCanasta, action_id
from canasta_sim.errors import IllegalMove
from canasta_sim.nb.actions import ENV_OBS_LEN, N_ACTIONS
from canasta_sim.nb.enums import EndReason
from canasta_sim.referee import check_trace


def random_actions(result: dict, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in result["legal_action_mask"]])


def play(env: VecCanasta, steps: int, seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    out = [env.reset()]
    for _ in range(steps):
        out.append(env.step(random_actions(out[-1], rng)))
    return out


@pytest.mark.parametrize(
    ("players", "opponents"),
    [(4, "random"), (2, "expert"), (3, None), (6, "greedy"), (2, "apprentice"), (4, "careful")],
)
def test_episodes_through_the_environment_pass_the_referee(players, opponents):
    env = VecCanasta(4, Rules(players=players), seed=3, opponents=opponents, record=True)
    rng = np.random.default_rng(0)
    result = env.reset()
    checked = 0
    while checked < 6:
        result = env.step(random_actions(result, rng))
        for i in np.flatnonzero(result["terminated"] | result["truncated"]):
            verdict = check_trace(env.trace(int(i)))
            assert verdict.ok, str(verdict)
            checked += 1
        if opponents is not None:  # only the learner's seat acts
            assert (result["current_player"] == 0).all()
        assert result["legal_action_mask"].any(axis=1).all()


def test_the_same_seed_gives_byte_identical_batches_on_1_and_2_threads():
    runs = [play(VecCanasta(64, seed=11, opponents="random", threads=t), 300, 5) for t in (1, 2)]
    for a, b in zip(*runs):
        for key in ("observation", "legal_action_mask", "current_player", "rewards"):
            if key in a:
                assert a[key].tobytes() == b[key].tobytes(), key
    ended = sum(int(r["terminated"].sum()) for r in runs[0][1:])
    assert ended > 0  # the run covers autoresets


def test_rewards_are_the_deal_score_difference_and_shapes():
    env = VecCanasta(16, Rules(players=4), seed=2, opponents="random")
    result = env.reset()
    assert result["observation"].shape == (16, ENV_OBS_LEN)
    assert result["legal_action_mask"].shape == (16, N_ACTIONS)
    rng = np.random.default_rng(1)
    seen = 0
    while seen < 5:
        result = env.step(random_actions(result, rng))
        assert result["rewards"].shape == (16, 4)
        for i in np.flatnonzero(result["terminated"]):
            scores = result["info"]["deal_scores"][i]
            assert result["info"]["end_reason"][i] != EndReason.none
            # seats 0 and 2 play side 0, seats 1 and 3 side 1
            diff = scores[0] - scores[1]
            assert result["rewards"][i].tolist() == [diff, -diff, diff, -diff]
            seen += 1
        quiet = ~(result["terminated"] | result["truncated"])
        assert not result["rewards"][quiet].any()


def test_a_game_episode_ends_at_the_target_with_plus_and_minus_one():
    # from 4,900 to 10 a side needs one good deal to pass the target
    env = VecCanasta(4, seed=4, opponents="expert", game=True, scores=[4900, 4900])
    result = env.reset()
    rng = np.random.default_rng(2)
    games = 0
    for _ in range(20_000):
        result = env.step(random_actions(result, rng))
        for i in np.flatnonzero(result["terminated"]):
            assert sorted(result["rewards"][i].tolist()) == [-1.0, -1.0, 1.0, 1.0]
            games += 1
        if games >= 2:
            break
    assert games >= 2


def test_an_illegal_action_raises_and_names_the_environment():
    env = VecCanasta(2, seed=1, opponents="random")
    result = env.reset()
    actions = random_actions(result, np.random.default_rng(0))
    actions[1] = action_id("discard:JK")  # the draw phase: no discard
    with pytest.raises(IllegalMove, match=r"environment 1, action 87 \(discard:JK\)"):
        env.step(actions)
    with pytest.raises(ValueError, match="out of range; allowed: ids 0 .. 89"):
        env.step(np.array([0, 90]))
    with pytest.raises(ValueError, match=r"allowed: \(2,\) integers"):
        env.step(np.zeros(3, np.int64))


@pytest.mark.parametrize(
    "spec", ["pimc", "pimc:worlds=4", "py:docs/example_bots.py:PileHoarder", "nosuch"]
)
def test_the_search_bot_python_bots_and_unknown_names_cannot_be_opponents(spec):
    # The allowed list names only what the kernel plays: neither pimc nor py: in it.
    with pytest.raises(ValueError) as error:
        VecCanasta(1, opponents=spec)
    message = str(error.value)
    assert message.startswith(f"opponents {spec!r}: not a bot the environment's kernel plays")
    allowed = message.partition("allowed: ")[2]
    assert "random, greedy, careful, expert, apprentice, expert@1" in allowed
    assert "pimc" not in allowed and "py:" not in allowed


def test_without_autoreset_an_ended_episode_needs_a_reset():
    env = VecCanasta(1, seed=5, opponents="expert", autoreset=False)
    result = env.reset()
    rng = np.random.default_rng(3)
    while not (result.get("terminated", [False])[0] or result.get("truncated", [False])[0]):
        result = env.step(random_actions(result, rng))
    assert not result["legal_action_mask"].any()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(np.zeros(1, np.int64))
    assert env.reset()["legal_action_mask"].any()


def position(stock: str, other_hands: list[str], pile: str = "6 7") -> ActionDeal:
    deal = Deal.from_position(
        hands=["9 9 9 2 5 K", *other_hands], stock=stock, pile=pile, melds={1: ["Q Q Q"]}
    )
    return ActionDeal(deal)


def test_changing_only_hidden_cards_leaves_the_observation_byte_identical():
    a = position("4 5 6 8", ["10 10 J", "A A 4", "8 8 5"])
    b = position("8 6 5 4", ["A 8 6", "10 J 8", "5 4 10"])  # other hands, stock order
    assert a.observation(0).tobytes() == b.observation(0).tobytes()
    c = position("4 5 6 8", ["10 10 J", "A A 4", "8 8 5"], pile="6 8")  # a visible card
    assert a.observation(0).tobytes() != c.observation(0).tobytes()


def test_episodes_start_from_a_deal_or_from_worlds_of_an_information_set():
    deal = Deal.from_position(
        hands=["9 9 9 2 5 K", "10 10 J", "A A 4", "8 8 5"],
        stock="4 5 6 8",
        pile="6 7",
        melds={1: ["Q Q Q"]},
    )
    env = VecCanasta(3, start=deal, opponents="expert")
    first = env.reset()["observation"]
    assert (first == ActionDeal(deal).observation(0)).all()
    # every world of the information set fills the hidden cards differently: same observation
    dealt = Deal.new(Rules(), 5)
    dealt.draw()
    info = dealt.info_set(dealt.current_player)
    env = VecCanasta(8, start=info, opponents="random", seed=2, seat=info.seat)
    first = env.reset()["observation"]
    assert (first == first[0]).all()
    stocks = {bytes(s["stock"]) for s in env._rec.states}
    assert len(stocks) > 1
    with pytest.raises(ValueError, match="other rules than rules="):
        VecCanasta(1, Rules(players=2), start=deal)
    with pytest.raises(ValueError, match=r"start=42: allowed: None \(new deals\), a Deal"):
        VecCanasta(4, "classic", start=42)


def test_an_illegal_action_steps_no_environment_and_a_retry_steps_once():
    # finding: the legal environments stepped before the error, so a retry stepped them twice
    env = VecCanasta(3, seed=4, opponents="random")
    first = env.reset()
    legal = random_actions(first, np.random.default_rng(2))
    bad = legal.copy()
    bad[2] = action_id("discard:JK")  # the draw phase: no discard yet
    with pytest.raises(IllegalMove, match=r"environment 2, action 87 \(discard:JK\)"):
        env.step(bad)
    retried = env.step(legal)
    clean = VecCanasta(3, seed=4, opponents="random")
    clean.reset()
    expected = clean.step(legal)
    np.testing.assert_array_equal(retried["observation"], expected["observation"])
    np.testing.assert_array_equal(retried["legal_action_mask"], expected["legal_action_mask"])
    np.testing.assert_array_equal(retried["rewards"], expected["rewards"])


def test_an_illegal_action_message_names_the_phase():
    env = VecCanasta(1, seed=1, opponents="random")
    env.reset()
    with pytest.raises(IllegalMove, match=r"phase of the turn \(draw\)$"):
        env.step(np.array([action_id("discard:JK")]))


def _first_finished(env: VecCanasta, seed: int) -> dict:
    """Step with random legal actions until environment 0 finishes a deal; that step's
    result."""
    rng = np.random.default_rng(seed)
    result = env.reset()
    while True:
        result = env.step(random_actions(result, rng))
        if result["info"]["end_reason"][0] != EndReason.none:
            return result


def test_traces_from_a_start_deal_begin_at_its_deck_and_pass_the_referee():
    """The trace of an episode from a start Deal holds the deal's events before the start
    too (from its deck), so the referee accepts it; a start without such events (an
    information set's worlds) has no trace to give, and says so."""
    deal = Deal.new(Rules(players=2), seed=6, trace=True)
    for _ in range(4):
        deal.play_turn("expert")
    before = deal.trace()  # its events so far
    env = VecCanasta(2, start=deal, opponents="expert", seat=deal.current_player, record=True)
    _first_finished(env, 1)
    trace = env.trace(0)
    assert trace[: len(before)] == before
    assert check_trace(trace).ok, str(check_trace(trace))
    info = VecCanasta(2, start=deal.info_set(deal.current_player), record=True)
    _first_finished(info, 1)
    with pytest.raises(ValueError, match="the start position has no events from a deck"):
        info.trace(0)


def test_a_game_deal_trace_states_its_own_minimum_counts():
    """game=True: the trace of a finished deal that does not end the game names the minimum
    counts it was played under (R-64: 50 from 1,495 points), not the next deal's (90 for a
    side that scored), so the referee accepts it."""
    env = VecCanasta(1, seed=2, opponents="expert", game=True, scores=[1495, 1495], record=True)
    result = _first_finished(env, 0)
    assert not result["terminated"][0]  # the game goes on
    assert 90 in env._rec.envs[0]["minimums"][:2]  # the next deal's
    trace = env.trace(0)
    assert trace[0]["minimums"] == [50, 50]
    assert check_trace(trace).ok, str(check_trace(trace))
