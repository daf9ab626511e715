"""The policy dispatch (canasta_sim/nb/bots/turn.py) derived from the policy table
(canasta_sim/nb/bots/policies.py), and the chunk loop's search work arrays
(canasta_sim/nb/play.py)."""

import pytest

from canasta_sim import Deal, Rules, simulate
from canasta_sim.nb.bots.policies import (
    LEARNED_CODES,
    PLAIN_CODES,
    POLICIES,
    ROLLOUT_CODES,
    SEARCH_CODES,
    WORK_CODES,
    PolicyCode,
)
from canasta_sim.nb.bots.turn import turn_kernel


def test_the_table_says_which_codes_search_and_which_play_rollouts():
    # the search bot searches and the apprentice is learned: both need the search work
    # arrays (the apprentice for its candidates); every bot but the search bot may play in
    # rollouts, and play_turn_nb plays the four that need no work arrays
    assert SEARCH_CODES == (PolicyCode.pimc,)
    assert LEARNED_CODES == (PolicyCode.apprentice,)
    assert WORK_CODES == (PolicyCode.pimc, PolicyCode.apprentice)
    plain = (PolicyCode.random, PolicyCode.greedy, PolicyCode.careful, PolicyCode.expert)
    assert PLAIN_CODES == plain
    assert ROLLOUT_CODES == (*plain, PolicyCode.apprentice)


@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: p.name)
def test_each_code_calls_the_turn_kernel_the_table_names(policy):
    kernel = turn_kernel(policy.code)
    assert kernel.__name__ == f"{policy.name}_turn_nb"
    assert kernel.py_func.__module__ == f"canasta_sim.nb.bots.{policy.name}"


def test_every_policy_plays_alike_in_the_chunk_kernel_and_from_python():
    """Deal ``k`` of a run plays the same in the chunk kernel (the kernel if-chain) and move by
    move from Python (:func:`turn.play_turn`, the table's turn kernels): same scores, turns
    and end, for seats of all six policies."""
    rules = Rules()
    for seats in (
        ["random", "greedy", "careful", "expert"],
        ["pimc:worlds=2", "expert"] * 2,
        ["apprentice", "expert", "apprentice:top=2", "careful"],
        ["pimc:worlds=2,rollout=apprentice", "expert"] * 2,
    ):
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
    """``play_chunk`` makes the search bot's rollout states and work records only for a run
    with a search bot: zero of each otherwise (the kernel never touches them)."""
    from canasta_sim.nb import play

    sizes = []

    def spy(n):
        sizes.append(n)
        return real(n)

    real = play.search_work
    monkeypatch.setattr(play, "search_work", spy)
    simulate(4, seats=[seats, "expert", "expert", "expert"], seed=2, workers=1, chunk_size=4)
    assert sizes and all((n > 0) == searching for n in sizes)


@pytest.mark.parametrize(
    "seat, search, learned",
    [
        ("greedy", False, False),
        ("pimc:worlds=1", True, False),
        ("apprentice", True, True),
        ("pimc:worlds=1,rollout=apprentice", True, True),
    ],
)
def test_the_chunk_carries_feature_work_only_when_a_seat_plays_the_apprentice(
    seat, search, learned, monkeypatch
):
    """The apprentice's feature work records are made only for a run with an apprentice seat
    or a pimc seat rolling out with it, the search work arrays (its candidates' too) for a run
    with a pimc or apprentice seat."""
    from canasta_sim.nb import play

    sizes: dict[str, list[int]] = {"search": [], "features": []}

    def spy(name, real):
        def call(n):
            sizes[name].append(n)
            return real(n)

        return call

    monkeypatch.setattr(play, "search_work", spy("search", play.search_work))
    monkeypatch.setattr(play, "feature_work", spy("features", play.feature_work))
    simulate(4, seats=[seat, "expert", "expert", "expert"], seed=2, workers=1, chunk_size=4)
    assert sizes["search"] and all((n > 0) == search for n in sizes["search"])
    assert sizes["features"] and all((n > 0) == learned for n in sizes["features"])
