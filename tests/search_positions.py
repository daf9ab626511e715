"""Decisions the search bot's tests share: a deal played by the expert up to a draw decision
with a pickup to weigh against the draw."""

from __future__ import annotations

from canasta_sim import Deal, Rules
from canasta_sim.nb.bots.search_candidates import draw_candidates_nb, search_work


def position(players: int, deal: int, turns: int) -> Deal:
    """Deal ``deal`` of seed 3 after ``turns`` expert turns or more: the first draw decision
    from then on with a pickup to weigh against the draw."""
    d = Deal.new(Rules(players=players), 3, deal=deal)
    work = search_work(1)[1][0]
    while d.turns < turns or draw_candidates_nb(d.state, d.rules.to_array(), work) < 2:
        d.play_turn("expert")
        assert not d.is_over
    return d
