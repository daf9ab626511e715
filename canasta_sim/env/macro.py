"""Macro actions: the candidate layer's candidates as a fixed ``Discrete(64)`` action space with
a mask, each played as the fine-grained ids that make it (``docs/environment.md``).

The candidates are a pruned set (:func:`canasta_sim.players.choices.candidates`: the draw and
every legal pickup, the meld plans of the candidate layer with each discard, at most
:data:`MAX_MACROS`); macro ``i`` is candidate ``i`` of the decision. A macro is made by staging
its meld cards one at a time and committing them with the pickup, the discard, going out or
ending the deal, so every macro is reachable by fine-grained actions and leaves the state the
candidate's own moves leave (``tests/env/test_env_macro.py``).
"""

from __future__ import annotations

import numpy as np

from .. import cards as C
from ..game.deals import Deal
from ..game.notation import meld_plan
from ..nb.enums import BLACK_THREE, DEUCE, JOKER, LAST_NATURAL, DealSlot, MeldCol, PickupWay
from ..players.choices import MAX_CANDIDATES, Candidate, candidates
from .stepping import ActionDeal, action_id

#: Macro actions: the most candidates a decision lists.
MAX_MACROS = MAX_CANDIDATES

_STAGE = {
    MeldCol.naturals: "stage_natural",
    MeldCol.deuces: "stage_deuce",
    MeldCol.jokers: "stage_joker",
}


def fine_actions(candidate: Candidate, pile_top: int) -> list[int]:
    """The fine-grained ids that make ``candidate`` (the pile's top kind ``pile_top`` for a
    pickup): each meld card staged, naturals of a row before its wild cards, then the
    committing id."""
    if candidate.move == "draw":
        return [action_id("draw")]
    plan = meld_plan(candidate.melds).astype(np.int64)
    ids = []
    if candidate.move == "take":
        with_ = C.parse_cards(candidate.with_)
        n, d, j = int(with_[pile_top]), int(with_[DEUCE]), int(with_[JOKER])
        way, used = _way(n, d, j)
        plan[pile_top] += [n - used[0], d - used[1], j - used[2]]
        commit = f"take:{PickupWay._fields[way]}"
    elif candidate.discard:
        commit = f"discard:{candidate.discard}"
    elif candidate.end_deal:
        commit = "end_deal"
    else:
        commit = "go_out"
    for r in range(BLACK_THREE, LAST_NATURAL + 1):
        for col in MeldCol:
            if plan[r, col]:
                ids += [action_id(f"{_STAGE[col]}:{C.KINDS[r]}")] * int(plan[r, col])
    return ids + [action_id(commit)]


def _way(naturals: int, deuces: int, jokers: int) -> tuple[int, tuple[int, int, int]]:
    """The pickup way of a candidate melding these cards with the top card, and the cards
    the way itself uses (the rest are staged)."""
    if naturals >= 2:
        return PickupWay.natural_pair, (2, 0, 0)
    if naturals == 1 and deuces:
        return PickupWay.natural_deuce, (1, 1, 0)
    if naturals == 1 and jokers:
        return PickupWay.natural_joker, (1, 0, 1)
    return PickupWay.onto_meld, (0, 0, 0)


class MacroDeal:
    """One deal played by macro actions: ``step(i)`` plays candidate ``i`` of the decision.

    Parameters
    ----------
    deal : Deal
        Played in place.
    """

    def __init__(self, deal: Deal):
        self.actions = ActionDeal(deal)
        self._listed: tuple[bytes, list[Candidate]] | None = None

    @property
    def deal(self) -> Deal:
        return self.actions.deal

    def candidates(self) -> list[Candidate]:
        """The decision's candidates (at most :data:`MAX_MACROS`; none once the deal is over)."""
        key = self.deal.state.tobytes()
        if self._listed is None or self._listed[0] != key:
            listed = [] if self.deal.is_over else candidates(self.deal, MAX_MACROS)
            self._listed = (key, listed)
        return self._listed[1]

    def mask(self) -> np.ndarray:
        """``ndarray(bool, (MAX_MACROS,))``: True for the decision's candidates."""
        out = np.zeros(MAX_MACROS, np.bool_)
        out[: len(self.candidates())] = True
        return out

    def step(self, macro: int) -> None:
        """Play candidate ``macro`` by its fine-grained ids.

        Raises
        ------
        ValueError
            For a macro the mask refuses (the deal is unchanged): it names the candidates
            the decision has.
        """
        listed = self.candidates()
        if not 0 <= int(macro) < len(listed):
            raise ValueError(
                f"macro {macro} is no candidate of this decision; allowed: 0 .. "
                f"{len(listed) - 1} ({len(listed)} candidates)"
            )
        size = int(self.deal.view.g[DealSlot.pile_len])
        top = int(self.deal.view.pile[size - 1]) if size else -1
        for a in fine_actions(listed[int(macro)], top):
            self.actions.step(a)
