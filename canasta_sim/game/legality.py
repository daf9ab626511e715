"""Which steps of a turn are legal in a deal's position, and the error of a refused move.

:class:`~canasta_sim.game.deals.Deal` answers its legality questions (``legal_pickups``,
``step_error``) and words its move kernels' refusals with these; the action deal and the batched
environment word theirs with :func:`move_error`. The engine decides (the step checks of
:mod:`canasta_sim.nb.engine.legal`); this module only calls it and names the result.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from .. import cards as C
from ..errors import IllegalMove, illegal_move
from ..nb.engine.legal import (
    check_discard_step_nb,
    check_draw_step_nb,
    check_end_deal_step_nb,
    check_go_out_nb,
    check_meld_step_nb,
    check_pickup_nb,
    legal_pickups_nb,
    way_alone_nb,
)
from ..nb.engine.state import STATE_DTYPE, StateView
from ..nb.enums import (
    EV_LEN,
    N_KINDS,
    N_PICKUP_WAYS,
    DealSlot,
    MoveError,
    Phase,
    PickupWay,
    SideSlot,
    label,
)
from .notation import meld_plan, plan_texts
from .rules import Rules

#: The steps of a turn :meth:`Deal.step_error` checks.
STEPS = ("draw", "take", "meld", "discard", "go_out", "end_deal")

#: The trials' event log: no rows, they record nothing.
NO_LOG = np.zeros((0, EV_LEN), np.int32)


@dataclass(frozen=True)
class LegalPickup:
    """A legal way to take the discard pile (:meth:`Deal.legal_pickups`), with one legal
    :meth:`Deal.take_pile` call that takes it that way.

    Attributes
    ----------
    way : str
        How the top card is used (:data:`~canasta_sim.nb.enums.PickupWay`): ``"onto_meld"``
        (R-33 c), ``"natural_pair"`` (R-32, R-33 a), ``"natural_deuce"`` or
        ``"natural_joker"`` (R-33 b).
    with_ : str
        The cards from hand melded with the top card (``""``: onto the side's meld).
    melds : tuple of str
        Further melds from hand laid in the same move.
    needs_melds : bool
        The way's cards alone are not legal: they fall short of the minimum count (R-64) or
        leave too few cards without the canastas to go out (R-22, R-40); ``with_`` and
        ``melds`` then hold cards from hand that mend it.
    """

    way: str
    with_: str
    melds: tuple[str, ...]
    needs_melds: bool


def find_legal_pickups(state: np.void, r: np.ndarray, view: StateView) -> list[LegalPickup]:
    """The legal pickups of the position in ``state`` (:meth:`Deal.legal_pickups`, which
    documents them), with ``r`` the rules array and ``view`` the state's views."""
    plans = np.zeros((N_PICKUP_WAYS, N_KINDS, 3), np.int8)
    errors = np.zeros(N_PICKUP_WAYS, np.int64)
    if not legal_pickups_nb(state, r, plans, errors):
        return []
    top = int(view.pile[int(view.g[DealSlot.pile_len]) - 1])
    found = []
    for way in np.nonzero(errors == MoveError.ok)[0].tolist():
        plan = plans[way]
        nat, deu, jok = (int(x) for x in plan[top])
        alone = np.zeros_like(plan)
        way_alone_nb(np.int64(way), np.int64(top), alone)
        found.append(
            LegalPickup(
                way=label(PickupWay, way),
                with_=C.meld_cards(top, nat, deu, jok) if nat + deu + jok else "",
                melds=plan_texts(plan, skip=top),
                needs_melds=bool((plan != alone).any()),
            )
        )
    return found


def step_check_code(
    state: np.void, r: np.ndarray, step: str, way: str, melds: Iterable[str], card: str
) -> int:
    """The :data:`~canasta_sim.nb.enums.MoveError` code of one step of the current player's
    turn in ``state``, checked without making it (:meth:`Deal.step_error` documents the
    steps and arguments).

    Raises
    ------
    ValueError
        For an unknown step or way, or a bad card text.
    """
    plan = meld_plan(melds)
    if step == "draw":
        code = check_draw_step_nb(state, r)
    elif step == "take":
        if way not in PickupWay._fields:
            raise ValueError(f"way: {way!r} is not a pickup way; allowed: {PickupWay._fields}")
        code = check_pickup_nb(
            state, r, np.int64(getattr(PickupWay, way)), plan, np.zeros_like(plan)
        )
    elif step == "meld":
        code = check_meld_step_nb(state, r, plan)
    elif step == "discard":
        code = check_discard_step_nb(state, r, np.int64(C.kind_index(card)))
    elif step == "go_out":
        kind = C.kind_index(card) if card else -1
        scratch = np.zeros(1, STATE_DTYPE)[0]
        code = check_go_out_nb(state, r, plan, np.int64(kind), scratch, NO_LOG)
    elif step == "end_deal":
        code = check_end_deal_step_nb(state)
    else:
        raise ValueError(f"step: {step!r} is not a step of a turn; allowed: {STEPS}")
    return int(code)


def move_error(code: int, view: StateView, rules: Rules) -> IllegalMove:
    """The :class:`IllegalMove` of a move kernel's MoveError ``code`` refused in the state of
    ``view``, its message filled from that state (phase, the side's minimum count) and
    ``rules``: the one formatting of the deal, the action deal and the batched environment.

    Parameters
    ----------
    code : int
        A non-zero :data:`~canasta_sim.nb.enums.MoveError` code.
    view : StateView
        The state the move was refused in (unchanged by the refusal).
    rules : Rules
    """
    side = int(view.g[DealSlot.current]) % rules.sides
    return illegal_move(
        code,
        phase=label(Phase, int(view.g[DealSlot.phase])),
        canastas=rules.canastas_to_go_out,
        minimum=int(view.sides[side, SideSlot.minimum]),
        wilds_rule=", never more wild cards than naturals" if rules.wilds_at_most_naturals else "",
    )
