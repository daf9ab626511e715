"""The fine-grained action space in Python: id names, one deal played by ids
(:class:`ActionDeal`) and the action table of ``docs/environment.md``.

The ids, their mask and their moves are the kernels' (:mod:`canasta_sim.nb.actions`, layout
:data:`~canasta_sim.nb.actions.ACTION_LAYOUT`); this module names them and plays them on a
:class:`~canasta_sim.Deal` one call at a time, for a board, a notebook or a test. The batched
environment (:class:`canasta_sim.env.VecCanasta`) steps many deals in one kernel call.
"""

from __future__ import annotations

import numpy as np

from .. import cards as C
from ..errors import IllegalMove
from ..game.deals import Deal
from ..game.legality import move_error
from ..nb.actions import (
    ACTION_LAYOUT,
    ENV_OBS_LEN,
    N_ACTIONS,
    action_mask_nb,
    apply_action_nb,
    env_observe_nb,
)
from ..nb.engine.observation import OBS_LEN
from ..nb.engine.state import new_state, state_view
from ..nb.enums import BLACK_THREE, EV_LEN, FIRST_NATURAL, N_KINDS, MeldCol, MoveError, PickupWay
from ..nb.vecenv import MAX_TURN_ACTIONS

NO_LOG = np.zeros((0, EV_LEN), np.int32)


def _field_names() -> list[str]:
    names = []
    for f in ACTION_LAYOUT:
        if f.count == 1:
            names.append(f.name)
        elif f.name == "take":
            names += [f"take:{w}" for w in PickupWay._fields]
        elif f.name == "discard":
            names += [f"discard:{C.KINDS[BLACK_THREE + i]}" for i in range(f.count)]
        else:
            first = BLACK_THREE if f.name.endswith("natural") else FIRST_NATURAL
            names += [f"{f.name}:{C.KINDS[first + i]}" for i in range(f.count)]
    return names


#: The name of every id, in id order: ``"draw"``, ``"take:natural_pair"``,
#: ``"stage_joker:K"``, ``"discard:B3"``, ... (``ACTION_NAMES[a]``).
ACTION_NAMES: tuple[str, ...] = tuple(_field_names())
_IDS = {name.lower(): i for i, name in enumerate(ACTION_NAMES)}


def action_id(name: str) -> int:
    """The id of an action name of :data:`ACTION_NAMES` (case-insensitive).

    Raises
    ------
    ValueError
        For a name that is not one, with examples of the allowed names.
    """
    try:
        return _IDS[str(name).strip().lower()]
    except KeyError:
        raise ValueError(
            f"unknown action {name!r}; allowed: names like 'draw', 'take:natural_pair', "
            f"'stage_natural:K', 'stage_deuce:K', 'unstage_joker:9', 'clear', 'discard:JK', "
            f"'go_out', 'end_deal' (docs/environment.md lists all {N_ACTIONS})"
        ) from None


def check_action(action) -> int:
    """``action`` as an id, checked: an int (Python or numpy, not a bool) in
    ``0 .. N_ACTIONS - 1`` or a name.

    Raises
    ------
    ValueError
        For a value of another type, an id out of range or an unknown name.
    """
    if isinstance(action, str):
        return action_id(action)
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise ValueError(
            f"action {action!r} of type {type(action).__name__}; allowed: an int id "
            f"0 .. {N_ACTIONS - 1} or an action name"
        )
    a = int(action)
    if not 0 <= a < N_ACTIONS:
        raise ValueError(f"action {action!r} out of range; allowed: ids 0 .. {N_ACTIONS - 1}")
    return a


class ActionDeal:
    """One deal played by fine-grained action ids (``docs/environment.md``): the deal, the
    cards the seat to play has staged, and the actions it took this turn.

    Parameters
    ----------
    deal : Deal
        Played in place (``Deal.new(..., trace=True)`` keeps its trace for the referee).
    """

    def __init__(self, deal: Deal):
        self.deal = deal
        self.staged = np.zeros((N_KINDS, 3), np.int8)
        self.turn_actions = 0
        self._scratch = new_state()
        self._plan = np.zeros((N_KINDS, 3), np.int8)
        self._mask = np.zeros(N_ACTIONS, np.bool_)

    def mask(self) -> np.ndarray:
        """The legal-action mask of the seat to play: ``ndarray(bool, (N_ACTIONS,))`` (all
        False once the deal is over)."""
        d = self.deal
        args = (self._scratch, self._plan, NO_LOG, self._mask)
        action_mask_nb(d.state, d.rules_array, self.staged, *args)
        return self._mask.copy()

    def legal_actions(self) -> list[int]:
        """The legal ids, ascending."""
        return [int(a) for a in np.flatnonzero(self.mask())]

    def step(self, action) -> None:
        """Take ``action`` (an id or a name of :data:`ACTION_NAMES`) for the seat to play.

        Raises
        ------
        ValueError
            For an id out of range or an unknown name.
        IllegalMove
            For an action the mask refuses (the state is unchanged): the message names the
            action and the rule it breaks.
        """
        a = check_action(action)
        d = self.deal
        turn = d.turns
        args = (self._scratch, self._plan, np.int64(a), d.event_log)
        code = int(apply_action_nb(d.state, d.rules_array, self.staged, *args))
        if code != MoveError.ok:
            err = move_error(code, state_view(d.state, d.rules_array), d.rules)
            raise IllegalMove(err.rule, f"action {a} ({ACTION_NAMES[a]}): {err.detail}")
        # a move that ends the turn starts the next player's count
        self.turn_actions = self.turn_actions + 1 if d.turns == turn else 0

    @property
    def truncated(self) -> bool:
        """Whether the seat to play took :data:`~canasta_sim.nb.vecenv.MAX_TURN_ACTIONS`
        actions this turn (the environments end such an episode as truncated)."""
        return self.turn_actions >= MAX_TURN_ACTIONS

    def staged_text(self) -> str:
        """The staged cards as card text per meld row (``"K K 2, 9 JK"``), ``""`` if none."""
        melds = []
        for r in range(BLACK_THREE, N_KINDS):
            n, dc, j = (int(self.staged[r, c]) for c in MeldCol)
            if n + dc + j:
                melds.append(C.meld_cards(r, n, dc, j))
        return ", ".join(melds)

    def observation(self, seat: int | None = None) -> np.ndarray:
        """What ``seat`` (default: the seat to play) knows: ``ndarray(int32,
        (ENV_OBS_LEN,))``, the observation array (``docs/observation.md``) then the staged
        cards, which only the seat to play sees (``docs/environment.md``)."""
        d = self.deal
        seat = d.current_player if seat is None else seat
        out = np.zeros(ENV_OBS_LEN, np.int32)
        env_observe_nb(d.state, d.rules_array, self.staged, np.int64(seat), out)
        return out


def actions_markdown() -> str:
    """The action table of ``docs/environment.md``, written from
    :data:`~canasta_sim.nb.actions.ACTION_LAYOUT` (``scripts/environment_doc.py``)."""
    rows = [
        f"| `{f.name}` | {f.offset}{f' .. {f.offset + f.count - 1}' if f.count > 1 else ''} | "
        f"{f.index or '-'} | {f.meaning} | {f.rules or '-'} |"
        for f in ACTION_LAYOUT
    ]
    return "\n".join(
        [
            f"{N_ACTIONS} ids. Id `offset + i` of a block acts on its `i`-th index (kinds R-02: "
            "black three, 4 .. A, deuce, joker; meld rows: black three, 4 .. A).",
            "",
            "| block | ids | index | what it does | rules |",
            "|---|---|---|---|---|",
            *rows,
            "",
            f"The observation is `int32[{ENV_OBS_LEN}]`: the observation array's {OBS_LEN} "
            "slots (docs/observation.md) then the staged cards, 12 meld rows (black three .. "
            "ace) by naturals, deuces, jokers, zero for every seat but the one to play. A "
            f"turn of more than {MAX_TURN_ACTIONS} actions ends the episode as truncated.",
        ]
    )
