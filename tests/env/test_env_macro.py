"""Macro actions (issue 27 item 2): every candidate the wrapper offers is reachable by
fine-grained actions and gives the state the candidate's own moves give."""

from __future__ import annotations

import numpy as np
import pytest

from canasta_sim import Deal, Rules
from canasta_sim.env.macro import MAX_MACROS, MacroDeal


def check_every_macro(md: MacroDeal) -> int:
    listed = md.candidates()
    assert md.mask().sum() == len(listed) > 0
    for i, cand in enumerate(listed):
        by_ids = MacroDeal(md.deal.copy())
        by_ids.step(i)  # raises IllegalMove if an id on the way is refused
        by_moves = md.deal.copy()
        cand.apply(by_moves)
        assert by_ids.deal.state.tobytes() == by_moves.state.tobytes(), cand.label
        assert by_ids.actions.staged_text() == ""
    return len(listed)


@pytest.mark.parametrize(("players", "preset"), [(4, "classic"), (2, "hoyle"), (3, "classic")])
def test_every_macro_is_made_by_fine_grained_actions_with_the_candidates_state(players, preset):
    rules = Rules.preset(preset, players=players)
    rng = np.random.default_rng(players)
    tried = 0
    for seed in range(2):
        md = MacroDeal(Deal.new(rules, seed))
        while not md.deal.is_over and tried < 400:
            tried += check_every_macro(md)
            md.step(int(rng.integers(len(md.candidates()))))
    assert tried > 100


def test_a_macro_out_of_range_is_refused():
    md = MacroDeal(Deal.new(Rules(), 1))
    assert md.mask().shape == (MAX_MACROS,)
    with pytest.raises(ValueError, match="no candidate of this decision; allowed: 0 .. "):
        md.step(63)
