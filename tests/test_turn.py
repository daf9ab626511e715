"""The policy dispatch (canasta_sim/nb/bots/turn.py) derived from the policy table
(canasta_sim/nb/bots/policies.py), and the chunk loop's search work arrays
(canasta_sim/nb/play.py)."""

import pytest

from canasta_sim import Deal, Rules, simulate
from canasta_sim.nb.bots.policies import POLICIES, ROLLOUT_CODES, SEARCH_CODES, PolicyCode
from canasta_sim.nb.bots.turn import turn_kernel


def test_the_table_says_which_codes_search_and_which_play_rollouts():
    # the search bot alone needs work arrays; every other bot may play in rollouts
    assert SEARCH_CODES == (PolicyCode.pimc,)
    assert ROLLOUT_CODES == (
        PolicyCode.random,
        PolicyCode.greedy,
        PolicyCode.careful,
        PolicyCode.expert,
    )


@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: p.name)
def test_each_code_calls_the_turn_kernel_the_table_names(policy):
    kernel = turn_kernel(policy.code)
    assert kernel.__name__ == f"{policy.name}_turn_nb"
    assert kernel.py_func.__module__ == f"canasta_sim.nb.bots.{policy.name}"


def test_every_policy_plays_alike_in_the_chunk_kernel_and_from_python():
    """Deal ``k`` of a run plays the same in the chunk kernel (the kernel if-chain) and move by
    move from Python (:func:`turn.play_turn`, the table's turn kernels): same scores, turns
    and end, for seats of all five policies."""
    rules = Rules()
    for seats in (["random", "greedy", "careful", "expert"], ["pimc:worlds=2", "expert"] * 2):
        run = simulate(3, seats=seats, seed=11)
        for k in range(3):
            deal = Deal.new(rules, 11, deal=k)
            deal.play_out(seats=seats)
            rows = run.sides[run.sides["deal"] == k]
            score = deal.score()
            assert list(rows["score"]) == [score[s]["total"] for s in range(rules.sides)]
            assert run.deals.loc[k, "turns"] == deal.turns
            assert run.deals.loc[k, "end_reason"] == deal.end_reason


@pytest.mark.parametrize("seats, searching", [("greedy", False), ("pimc:worlds=1", True)])
def test_the_chunk_carries_search_work_only_when_a_seat_searches(seats, searching, monkeypatch):
    """``play_chunk`` makes the search bot's rollout states and work records (one per block)
    only for a run with a search bot, and otherwise plays the block kernel without the search
    bot."""
    from canasta_sim.nb import play

    sizes = []

    def spy(n):
        sizes.append(n)
        return real(n)

    real = play.search_work
    monkeypatch.setattr(play, "search_work", spy)
    simulate(4, seats=[seats, "expert", "expert", "expert"], seed=2, workers=1, chunk_size=4)
    assert bool(sizes) == searching
    assert all(n > 0 for n in sizes)
