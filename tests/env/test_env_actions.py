"""The learning environment's fine-grained actions (issue 27 item 1, ``nb/actions.py``).

On uniformly random masked play (2, 3, 4 and 6 players; ``classic`` and ``hoyle``) every id
the mask allows is accepted and every other refused, tried on a copy at sampled decisions;
every deal ends and its trace passes the referee. Hand-built positions show the ids that
commit staged cards, named after the rules they implement.
"""

from __future__ import annotations

import numpy as np
import pytest

from canasta_sim import Deal, Rules
from canasta_sim.env import ACTION_NAMES, ActionDeal, VecCanasta, action_id
from canasta_sim.env.stepping import NO_LOG, actions_markdown
from canasta_sim.errors import IllegalMove
from canasta_sim.nb.actions import ENV_OBS_LEN, N_ACTIONS, apply_action_nb
from canasta_sim.nb.engine.observation import OBS_LEN
from canasta_sim.nb.engine.state import STATE_DTYPE
from canasta_sim.nb.enums import N_KINDS, MoveError
from canasta_sim.referee import check_trace


def refused(ad: ActionDeal) -> np.ndarray:
    """Per id: whether ``apply_action_nb`` refuses it, each tried on a fresh copy."""
    d = ad.deal
    out = np.zeros(N_ACTIONS, np.bool_)
    for a in range(N_ACTIONS):
        trial = np.zeros(2, STATE_DTYPE)
        trial[0] = d.state
        staged = ad.staged.copy()
        plan = np.zeros((N_KINDS, 3), np.int8)
        code = apply_action_nb(trial[0], d.rules_array, staged, trial[1], plan, np.int64(a), NO_LOG)
        out[a] = code != MoveError.ok
        if out[a]:  # a refused id changes nothing
            assert trial[0].tobytes() == d.state.tobytes()
            assert (staged == ad.staged).all()
    return out


def random_masked_deal(rules: Rules, seed: int, check_every: int) -> tuple[ActionDeal, int]:
    """Play one deal by uniformly random legal ids, checking the mask against every id at
    every ``check_every``-th action and at every draw decision."""
    ad = ActionDeal(Deal.new(rules, seed, trace=True))
    rng = np.random.default_rng(seed)
    steps = 0
    while not ad.deal.is_over:
        mask = ad.mask()
        assert mask.any(), f"no legal id: {ad.deal!r}"
        if steps % check_every == 0 or ad.deal.phase == "draw":
            assert (mask == ~refused(ad)).all(), (ad.deal, np.flatnonzero(mask != ~refused(ad)))
        ad.step(int(rng.choice(np.flatnonzero(mask))))
        assert not ad.truncated
        steps += 1
    return ad, steps


@pytest.mark.parametrize("preset", ["classic", "hoyle"])
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_random_masked_play_agrees_with_the_move_kernels_and_passes_the_referee(players, preset):
    rules = Rules.preset(preset, players=players)
    for seed in range(2):
        ad, steps = random_masked_deal(rules, seed, check_every=25)
        assert ad.deal.end_reason in ("went_out", "stock_exhausted", "last_red_three")
        assert not ad.mask().any()  # nothing is legal once the deal is over
        verdict = check_trace(ad.deal.trace())
        assert verdict.ok, str(verdict)
        assert steps > ad.deal.turns  # at least one id per turn


def test_action_names_and_ids():
    assert len(ACTION_NAMES) == N_ACTIONS == 90
    assert ACTION_NAMES[0] == "draw"
    assert action_id("take:natural_pair") == 2
    assert action_id("STAGE_NATURAL:B3") == 5
    assert ACTION_NAMES[action_id("stage_deuce:K")] == "stage_deuce:K"
    assert ACTION_NAMES[-1] == "end_deal"
    assert ACTION_NAMES[action_id("discard:JK")] == "discard:JK"
    with pytest.raises(ValueError, match="unknown action 'meld'.*allowed"):
        action_id("meld")


def test_an_illegal_id_raises_and_changes_nothing():
    ad = ActionDeal(Deal.from_position(hands=["9 9 5", "4", "4", "4"], stock="7 8", pile="6"))
    before = ad.deal.state.tobytes()
    with pytest.raises(IllegalMove, match=r"action 74 \(discard:B3\)"):
        ad.step("discard:B3")  # the draw phase
    with pytest.raises(ValueError, match="out of range; allowed: ids 0 .. 89"):
        ad.step(90)
    assert ad.deal.state.tobytes() == before


def test_r64_a_pickup_commits_the_staged_melds_that_reach_the_minimum_count():
    # K K K is 30 points, short of 50; with Q Q Q staged from hand, 60
    ad = ActionDeal(
        Deal.from_position(hands=["K K Q Q Q 9 5", "4", "4", "4"], stock="5 5", pile="7 K")
    )
    assert not ad.mask()[action_id("take:natural_pair")]
    for _ in range(3):
        ad.step("stage_natural:Q")
    assert ad.staged_text() == "Q Q Q"
    legal = {ACTION_NAMES[a] for a in ad.legal_actions()}
    assert {"draw", "take:natural_pair", "unstage_natural:Q", "clear"} <= legal
    assert "take:onto_meld" not in legal  # no K meld on the table
    ad.step("take:natural_pair")
    assert ad.deal.melds(0) == {"Q": "Q Q Q", "K": "K K K"}
    assert ad.staged_text() == ""  # committed


def test_r60_a_wild_card_is_staged_only_on_a_row_with_naturals():
    ad = ActionDeal(Deal.from_position(hands=["9 9 9 2 5", "4", "4", "4"], stock="7", pile="6"))
    ad.step("draw")
    mask = ad.mask()
    assert not mask[action_id("stage_deuce:9")]
    ad.step("stage_natural:9")
    assert ad.mask()[action_id("stage_deuce:9")]
    assert not ad.mask()[action_id("stage_deuce:K")]
    with pytest.raises(IllegalMove, match="R-60"):
        ad.step("stage_deuce:K")


def test_r20_r64_discarding_commits_the_staged_melds_first():
    # 9 9 9 2 is 50 points: the minimum count of a side with no score
    ad = ActionDeal(Deal.from_position(hands=["9 9 9 2 5", "4", "4", "4"], stock="7", pile="6"))
    ad.step("draw")
    for name in ("stage_natural:9", "stage_natural:9"):
        ad.step(name)
    assert not ad.mask()[action_id("discard:5")]  # 9 9 is no meld
    ad.step("stage_natural:9")
    assert not ad.mask()[action_id("discard:5")]  # 30 points: short of 50
    ad.step("stage_deuce:9")
    assert ad.mask()[action_id("discard:5")]
    assert not ad.mask()[action_id("discard:2")]  # the deuce is staged
    ad.step("discard:5")
    assert ad.deal.melds(0) == {"9": "9 9 9 2"}
    assert (ad.deal.hand(0), ad.deal.current_player) == ("7", 1)


def test_r40_go_out_melds_the_whole_hand_with_the_side_canasta():
    table = {0: ["K K K K K K K"]}
    ad = ActionDeal(
        Deal.from_position(hands=["9 9", "4", "4", "4"], stock="9", pile="6", melds=table)
    )
    ad.step("draw")
    assert not ad.mask()[action_id("go_out")]
    for _ in range(3):
        ad.step("stage_natural:9")
    assert ad.mask()[action_id("go_out")]
    assert not ad.mask()[action_id("discard:9")]  # every 9 is staged
    ad.step("go_out")
    assert (ad.deal.end_reason, ad.deal.went_out) == ("went_out", 0)


def test_r45_end_deal_after_a_last_card_red_three():
    ad = ActionDeal(
        Deal.from_position(
            hands=["9 9 9 5", "4", "4", "4"], stock="R3", pile="6", melds={0: ["K K K"]}
        )
    )
    assert not ad.mask()[action_id("end_deal")]
    ad.step("draw")
    mask = ad.mask()
    assert mask[action_id("end_deal")] and not mask[action_id("discard:5")]
    ad.step("end_deal")
    assert ad.deal.end_reason == "last_red_three"


def test_staged_cards_are_seen_only_by_the_seat_to_play():
    ad = ActionDeal(Deal.from_position(hands=["9 9 9 2 5", "4", "4", "4"], stock="7", pile="6"))
    ad.step("draw")
    ad.step("stage_natural:9")
    own, other = ad.observation(0), ad.observation(1)
    assert own.shape == (ENV_OBS_LEN,) and own.dtype == np.int32
    row9 = OBS_LEN + 3 * (7 - 1)  # the 9 is kind 7, meld row 6
    assert own[row9] == 1 and own[OBS_LEN:].sum() == 1
    assert not other[OBS_LEN:].any()


def test_the_action_table_in_the_docs_is_up_to_date():
    from pathlib import Path

    page = (Path(__file__).parents[2] / "docs" / "environment.md").read_text()
    assert actions_markdown() in page, "run python scripts/environment_doc.py"


def test_r60_an_illegal_action_message_has_its_rule_once_and_no_placeholder():
    # finding: "R-60: action .. : R-60: a meld needs ... at most 3 wild cards?"
    ad = ActionDeal(Deal.from_position(hands=["9 9 9 2 5", "4", "4", "4"], stock="7", pile="6"))
    ad.step("draw")
    with pytest.raises(IllegalMove) as caught:
        ad.step("stage_deuce:K")
    text = str(caught.value)
    assert text.startswith("R-60: action ")
    assert text.count("R-60") == 1
    assert "?" not in text and "at most 3 wild cards" in text


@pytest.mark.parametrize("action", ["clear", "unstage_natural:9"])
def test_clearing_or_unstaging_with_nothing_staged_says_so(action):
    """Not "R-60: a meld needs cards" (no meld is made): what is wrong is that no such card is
    staged; the batched environment says the same."""
    position = dict(hands=["9 9 9 2 5", "4", "4", "4"], stock="7", pile="6")
    ad = ActionDeal(Deal.from_position(**position))
    ad.step("draw")
    with pytest.raises(IllegalMove) as caught:
        ad.step(action)
    a = action_id(action)
    assert str(caught.value) == (
        f"R-20: action {a} ({action}): no such card is staged: unstaging takes back a card "
        f"staged this turn, and clearing needs staged cards"
    )
    env = VecCanasta(1, start=Deal.from_position(**position))
    env.reset()
    with pytest.raises(IllegalMove, match=rf"environment 0, action {a} \({action}\): no such card"):
        env.step(np.array([a]))


def test_an_illegal_action_message_names_the_phase():
    ad = ActionDeal(Deal.from_position(hands=["9 9 9 2 5", "4", "4", "4"], stock="7", pile="6"))
    with pytest.raises(IllegalMove, match=r"phase of the turn \(draw\)$"):
        ad.step("discard:5")


@pytest.mark.parametrize("action", [None, True, 3.5, np.float64(1.0)])
def test_an_action_is_an_int_or_a_name(action):
    ad = ActionDeal(Deal.from_position(hands=["9 9 9 2 5", "4", "4", "4"], stock="7", pile="6"))
    with pytest.raises(ValueError, match=r"allowed: an int id 0 .. 89 or an action name"):
        ad.step(action)
    assert ad.deal.phase == "draw"  # nothing taken


def test_a_numpy_integer_action_is_accepted():
    ad = ActionDeal(Deal.from_position(hands=["9 9 9 2 5", "4", "4", "4"], stock="7", pile="6"))
    ad.step(np.int64(action_id("draw")))
    assert ad.deal.phase == "play"
