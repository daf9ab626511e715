"""The legal choices at a decision, found with the engine's own legality (docs/analysis.md).

A *decision* is the seat to play's next choice in its turn (R-20):

- in the ``draw`` phase: draw from the stock, or take the discard pile in one of the engine's
  pickup ways (the top card onto the side's meld, with a natural pair, with a natural and a
  deuce, with a natural and a joker; a side without its initial meld also lays the melds from
  hand the engine picks to reach the minimum count, R-64);
- in the ``play`` phase: discard a card of one kind now (each kind in hand the rules allow), or
  go out (R-40): meld the whole hand, or meld all but one card and discard that one.

What happens after the candidate's moves (the rest of the turn: melds and the discard after a
draw or a pickup; the other seats' turns) is left to the rollout bot. Meld choices short of going
out are not candidates. Each candidate is tried on a copy of a deal built from the information
set; its legality reads only the seat's own hand and the public state, so it holds in every
world.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import cards as C
from .deal import Deal
from .errors import IllegalMove
from .infoset import InfoSet
from .nb.bots.pickups import pickup_candidates_nb
from .nb.bots.plans import black_three_plan_nb, fill_plan_nb
from .nb.engine.state import STATE_DTYPE
from .nb.enums import DEUCE, JOKER, N_KINDS
from .nb.worlds import CAND_DRAW, CAND_PLAY, CAND_TAKE
from .notation import meld_plan, plan_texts

MOVES = ("draw", "take", "play")


@dataclass(frozen=True)
class Candidate:
    """One choice at a decision, written as the :class:`~canasta_sim.Deal` moves it makes.

    Attributes
    ----------
    label : str
        In card notation: ``"draw"``, ``"take the pile with 9 9"``, ``"discard K"``,
        ``"go out: meld 7 7 7, discard B3"``.
    move : str
        ``"draw"``, ``"take"`` (``Deal.take_pile(with_, melds)``) or ``"play"``
        (``Deal.meld(*melds)`` if any, then ``Deal.discard(discard)`` if any).
    with_ : str
        Take: the cards from hand melded with the top card (``""``: onto the side's meld).
    melds : tuple of str
        Melds from hand laid in the same move (``"K K K"``, ``"K: 2"``).
    discard : str
        Play: the card discarded, or ``""``.
    going_out : bool
        The candidate ends the deal by going out (R-40).
    """

    label: str
    move: str
    with_: str = ""
    melds: tuple[str, ...] = ()
    discard: str = ""
    going_out: bool = False

    def apply(self, deal: Deal) -> None:
        """Make the candidate's moves on ``deal``.

        Raises
        ------
        IllegalMove
            If a move is not legal there.
        """
        if self.move == "draw":
            deal.draw()
        elif self.move == "take":
            deal.take_pile(self.with_, self.melds)
        else:
            if self.melds:
                deal.meld(*self.melds)
            if self.discard:
                deal.discard(self.discard)

    def kernel_row(self, pile_top: int) -> tuple[int, np.ndarray, int]:
        """``(kind, plan, discard)`` for the rollout kernel (``nb.worlds.CAND_*``;
        ``int8[N_KINDS, 3]``; kind code or -1); ``pile_top`` is the pile's top kind."""
        plan = meld_plan(self.melds).astype(np.int64)
        if self.move == "take":
            counts = C.parse_cards(self.with_)
            plan[pile_top] += [counts[pile_top], counts[DEUCE], counts[JOKER]]
        kind = {"draw": CAND_DRAW, "take": CAND_TAKE, "play": CAND_PLAY}[self.move]
        discard = C.kind_index(self.discard) if self.discard else -1
        return kind, plan.astype(np.int8), discard


def decision_deal(info: InfoSet) -> Deal:
    """A deal in the information set's position, with the hidden cards of world 0 (seed 0):
    the board on which candidates are tried.

    Raises
    ------
    ValueError
        When the observer is not the seat to play (the decision is not theirs).
    """
    if info.seat != info.current:
        raise ValueError(
            f"seat {info.seat} is not to play (current={info.current}): the decision belongs "
            f"to seat {info.current}; analyse its information set"
        )
    world = info.sample_worlds(1, seed=0)
    state = np.zeros(1, STATE_DTYPE)
    state[0] = info.public_state()
    state = state[0]
    state["hands"][: info.rules.players] = world.hands[0]
    pos = info.rules.n_cards - info.stock_size
    state["stock"][pos : info.rules.n_cards] = world.stock[0]
    return Deal(info.rules, state)


def candidates(info: InfoSet) -> list[Candidate]:
    """The legal candidates at the information set's decision (module docstring), each tried
    on a copy of :func:`decision_deal`.

    Returns
    -------
    list of Candidate
        Draw phase: ``draw`` first, then the pickups; play phase: the discards by kind, then the
        ways to go out.

    Raises
    ------
    ValueError
        When the observer is not the seat to play.
    """
    deal = decision_deal(info)
    found = _draw_phase(info, deal) if info.phase == "draw" else _play_phase(info, deal)
    return [c for c in found if is_legal(deal, c)]


def find_candidate(found: list[Candidate], label: str) -> Candidate:
    """The candidate labelled ``label`` (spaces and case do not matter).

    Raises
    ------
    ValueError
        For a label that is not among ``found``; the message lists the labels.
    """
    key = " ".join(label.lower().split())
    for c in found:
        if " ".join(c.label.lower().split()) == key:
            return c
    raise ValueError(
        f"unknown candidate {label!r}; the legal ones here: {', '.join(c.label for c in found)}"
    )


# --- enumeration -------------------------------------------------------------------------------
def is_legal(deal: Deal, cand: Candidate) -> bool:
    """Whether ``cand``'s moves are legal on ``deal`` (tried on a copy; a going-out candidate
    must end the deal by going out, R-40)."""
    trial = deal.copy()
    try:
        cand.apply(trial)
    except IllegalMove:
        return False
    return not cand.going_out or trial.went_out == deal.current_player


def _draw_phase(info: InfoSet, deal: Deal) -> list[Candidate]:
    found = [Candidate("draw", "draw")]
    cands = np.zeros((4, N_KINDS, 3), np.int8)
    n = pickup_candidates_nb(deal._state, deal._r, info.seat, cands)
    top = int(info.pile_codes[-1]) if len(info.pile_codes) else -1
    for plan in cands[:n]:
        nat, deu, jok = (int(x) for x in plan[top])
        with_ = " ".join([C.KINDS[top]] * nat + ["2"] * deu + ["JK"] * jok)
        rest = plan.copy()
        rest[top] = 0
        melds = plan_texts(rest)
        label = (
            f"take the pile with {with_}"
            if with_
            else f"take the pile onto the {C.KINDS[top]} meld"
        )
        if melds:
            label += f", meld {', '.join(melds)}"
        found.append(Candidate(label, "take", with_=with_, melds=melds))
    return found


def _play_phase(info: InfoSet, deal: Deal) -> list[Candidate]:
    hand = info.hand_counts
    last = int(hand.sum()) == 1
    found = [
        Candidate(
            f"go out: discard {C.KINDS[k]}" if last else f"discard {C.KINDS[k]}",
            "play",
            discard=C.KINDS[k],
            going_out=last,
        )
        for k in np.nonzero(hand)[0]
    ]
    outs: dict[str, Candidate] = {}
    for k in [-1, *np.nonzero(hand)[0]]:  # meld the whole hand, or all but one card of kind k
        plan = _out_plan(deal, info.seat, int(k))
        if plan is None:
            continue
        melds = plan_texts(plan)
        label = f"go out: meld {', '.join(melds)}"
        if k >= 0:
            label += f", discard {C.KINDS[k]}"
        discard = C.KINDS[k] if k >= 0 else ""
        outs.setdefault(
            label, Candidate(label, "play", melds=melds, discard=discard, going_out=True)
        )
    return found + list(outs.values())


def _out_plan(deal: Deal, seat: int, keep_kind: int):
    """A plan melding the whole hand but one card of ``keep_kind`` (-1: the whole hand), from
    the engine's plan builder (black threes, naturals, then wild cards); ``None`` if the plan
    leaves other cards or is empty."""
    trial = deal.copy()
    state = trial._state
    if keep_kind >= 0:
        state["hands"][seat, keep_kind] -= 1
        state["hand_sizes"][seat] -= 1
    plan = np.zeros((N_KINDS, 3), np.int8)
    black_three_plan_nb(state["hands"][seat], plan)
    left = fill_plan_nb(
        state, trial._r, seat, plan, np.int64(-1), np.int64(0), np.int64(0), np.bool_(True)
    )
    if left != 0 or not plan.any():
        return None
    return plan
