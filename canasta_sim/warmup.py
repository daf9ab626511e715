"""Compile every kernel once so later runs start from numba's on-disk cache."""

from __future__ import annotations

from .analysis import analyse
from .deal import Deal, is_legal_meld, minimum_count
from .rules import Rules
from .simulate import simulate


def warm_up() -> None:
    """Compile the chunk kernel (through a tiny run), every kernel a :class:`Deal` calls
    (each move, scoring, traces) and the analysis kernels (worlds, rollouts). Kernels take
    one dtype per argument, so one call each covers every player count and rules variant."""
    simulate(8, rules=Rules(), records=True)
    deal = Deal.new(Rules(), 0, trace=True)
    deal.can_take_pile()
    deal.draw()
    for move in (lambda: deal.meld("4 4 4"), lambda: deal.take_pile("")):
        try:
            move()
        except ValueError:
            pass
    deal.play_out()
    deal.trace()
    deal.score()
    try:
        deal.discard("4")
    except ValueError:
        pass
    try:
        deal.end_turn()
    except ValueError:
        pass
    is_legal_meld("5 5 2")
    minimum_count(0)
    start = Deal.new(Rules(), 0)
    analyse(start.info_set(start.current_player), worlds=2)  # worlds, candidates, rollouts
