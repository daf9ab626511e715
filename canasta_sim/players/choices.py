"""The legal choices at a decision, found with the engine's own legality (docs/analysis.md).

A *decision* is the seat to play's next choice in its turn (R-20):

- in the ``draw`` phase: draw from the stock, or take the discard pile in one of the engine's
  pickup ways (the top card onto the side's meld, with a natural pair, with a natural and a
  deuce, with a natural and a joker; a side without its initial meld also lays the melds from
  hand the engine picks to reach the minimum count, R-64);
- in the ``play`` phase: the rest of the turn, a meld plan laid in one call (possibly none:
  which melds, which wild cards, R-20, R-60..R-64) and then a discard of one kind, or going out
  (R-40) by melding the whole hand or discarding the last card; after a last-card red three,
  the plan and then the end of the deal without a discard (R-45). The plans are those of
  :func:`meld_plans` (pruned to a documented set when there are many), the candidates at most
  :data:`MAX_CANDIDATES`.

What happens after the candidate's moves (after a draw or a pickup, the rest of that turn;
then the other seats' turns) is left to the rollout bot. Each candidate is tried on a copy of the
deal's state (a live :class:`~canasta_sim.Deal`, or one built from an information set) by the
engine's move kernels, all of a decision's candidates in one kernel call
(:mod:`canasta_sim.nb.candidates`), as :func:`is_legal` tries one; its legality
reads only the seat's own hand and the public state, so it holds in every world, and a deal
and its seat's information set list the same candidates. Bots written in Python choose among
exactly these candidates (:mod:`canasta_sim.players.pybot`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple, overload

import numpy as np

from .. import cards as C
from ..errors import IllegalMove
from ..game.deals import NO_LOG, Deal
from ..game.infoset import InfoSet
from ..game.notation import check_int, meld_plan, plan_texts
from ..nb.bots.pickups import pickup_candidates_nb
from ..nb.candidates import check_plans_nb, out_plans_nb, try_candidates_nb
from ..nb.engine.state import STATE_DTYPE
from ..nb.enums import (
    DEUCE,
    FIRST_NATURAL,
    JOKER,
    LAST_NATURAL,
    N_KINDS,
    CandKind,
    DealSlot,
    MeldCol,
    MoveError,
    SideSlot,
)
from ..nb.plan_space import ROW_OPTIONS, plan_space_nb, row_options_nb
from ..nb.plans import fill_plan_nb, initial_plan_nb

MOVES = ("draw", "take", "play")

#: Most candidates listed at a play-phase decision by default (the cap of :func:`candidates`,
#: ``max_candidates`` of ``analyse`` and ``review``; docs/analysis.md).
MAX_CANDIDATES = 64


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
    end_deal : bool
        Play, after a last-card red three: the candidate ends the deal without a discard
        (``Deal.end_turn()`` after the melds, R-45).
    """

    label: str
    move: str
    with_: str = ""
    melds: tuple[str, ...] = ()
    discard: str = ""
    going_out: bool = False
    end_deal: bool = False

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
            if self.end_deal:
                deal.end_turn()

    def kernel_row(self, pile_top: int) -> tuple[int, np.ndarray, int]:
        """``(kind, plan, discard)`` for the rollout kernel (:data:`~canasta_sim.nb.enums.CandKind`;
        ``int8[N_KINDS, 3]``; kind code or -1); ``pile_top`` is the pile's top kind. An
        ``end_deal`` candidate has no discard: the kernel ends the deal after its melds (R-45)."""
        plan = meld_plan(self.melds).astype(np.int64)
        if self.move == "take":
            counts = C.parse_cards(self.with_)
            plan[pile_top] += [counts[pile_top], counts[DEUCE], counts[JOKER]]
        kind = getattr(CandKind, self.move)
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


class Listing(NamedTuple):
    """The candidates at a decision (:func:`list_candidates`) and what the cap left out.

    Attributes
    ----------
    candidates : list of Candidate
    plans_left_out : int
        Play phase: the meld plans of :func:`meld_plans` (each legal to lay, R-60..R-64) not
        listed because the list reached the cap; 0 when every plan is listed, and in the
        draw phase.
    """

    candidates: list[Candidate]
    plans_left_out: int


def candidates(position: Deal | InfoSet, cap: int = MAX_CANDIDATES) -> list[Candidate]:
    """The legal candidates at the decision of the seat to play (module docstring):
    :func:`list_candidates` without the count of plans the cap left out."""
    return list_candidates(position, cap).candidates


def list_candidates(position: Deal | InfoSet, cap: int = MAX_CANDIDATES) -> Listing:
    """The legal candidates at the decision of the seat to play (module docstring), each tried
    on a copy of the deal as :func:`is_legal` tries it (all in one kernel call,
    :func:`~canasta_sim.nb.candidates.try_candidates_nb`), and how many meld plans the cap
    left out.

    Parameters
    ----------
    position : Deal or InfoSet
        A live deal (the decision of its current player, the deal unchanged), or an
        information set, played on :func:`decision_deal`; both give the same candidates.
    cap : int
        Play phase: the most candidates listed (at least 1; :data:`MAX_CANDIDATES`, 64, by
        default): the plans of :func:`meld_plans` are taken in their order, each with all its
        discards, while the count stays within ``cap``; the empty plan's discards always.

    Returns
    -------
    Listing
        ``candidates``: draw phase: ``draw`` first, then the pickups; play phase: for each
        plan in the order of :func:`meld_plans` (the empty plan first), its discards by kind,
        or its going out. ``plans_left_out``: the plans after the cap.

    Raises
    ------
    ValueError
        When the observer is not the seat to play, for a deal that is over, or for a ``cap``
        below 1.
    """
    check_int("cap", cap, 1, 10_000)
    deal = decision_deal(position) if isinstance(position, InfoSet) else position
    if deal.phase == "draw":
        return Listing(_draw_phase(deal), 0)
    if deal.phase != "play":
        raise ValueError("phase 'over': the deal is over, no seat has a decision")
    return _play_phase(deal, cap)


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


class NoCandidate(RuntimeError):
    """A decision without a legal candidate: a position built by hand that no legal turn
    ends (every dealt position has one, R-20, R-45)."""


class Choices(Sequence[Candidate]):
    """The candidates offered to a Python bot at one decision (:mod:`canasta_sim.players.pybot`): a
    read-only sequence (index, slice, iterate, ``len``, ``in``, ``index``, ``count``) of
    exactly the :class:`Candidate` list :func:`candidates` gives for the decision, in its
    order.

    Listed as the bot reads it: at a play-phase decision, ``choices[i]`` for an ``i`` among
    the empty plan's candidates (:func:`empty_plan_candidates`, which come first) lists only
    those; anything else lists them all (after the empty plan's, if listed). Listings are
    made on ``deal`` until :meth:`close`, then on a copy of its state taken there: whoever
    moves the deal on closes its choices first (:mod:`canasta_sim.players.pybot` does, when the bot
    has answered), and they stay those of their decision. Reading past the end of an empty
    decision, or ``len``, ``in`` or iterating it, raises :class:`NoCandidate`.

    Parameters
    ----------
    deal : Deal
        A live deal at a decision (draw or play phase), unchanged until :meth:`close`.
    """

    def __init__(self, deal: Deal):
        self._deal = deal
        self._seat = deal.current_player
        self._first: list[Candidate] | None = None  # the empty plan's, once read
        self._all = candidates(deal) if deal.phase != "play" else None  # draw: few, listed now
        self._kept: np.ndarray | None = None  # the decision's state, from close()
        self._copy: Deal | None = None  # a deal over it, once read

    def close(self) -> None:
        """Keep the decision for later reading: a copy of the deal's state, if a listing is
        still to make (before the deal moves on)."""
        if self._all is None and self._kept is None:
            self._kept = np.zeros(1, STATE_DTYPE)  # the Deal over it is made if it is read
            self._kept[0] = self._deal.state

    def _position(self) -> Deal:
        """The decision's deal: the live one until :meth:`close`, then one over its copy."""
        if self._kept is None:
            return self._deal
        if self._copy is None:
            self._copy = Deal(self._deal.rules, self._kept[0])
        return self._copy

    def listed(self) -> list[Candidate]:
        """Every candidate of the decision (listed now if not yet), in order.

        Raises
        ------
        NoCandidate
            When the decision has none (a position built by hand that no legal turn ends).
        """
        if self._all is None:
            deal = self._position()
            plans = _plan_array(deal)
            if self._first is None:
                self._all = _play_listing(deal, plans, MAX_CANDIDATES)[0]
            else:  # the other plans' candidates after the empty plan's
                self._all = _play_listing(deal, plans[1:], MAX_CANDIDATES, self._first)[0]
        if not self._all:  # every legal position has a candidate
            raise NoCandidate(f"no legal candidate for seat {self._seat}")
        return self._all

    @overload
    def __getitem__(self, i: int) -> Candidate: ...

    @overload
    def __getitem__(self, i: slice) -> list[Candidate]: ...

    def __getitem__(self, i):
        if self._all is None and isinstance(i, int) and i >= 0:
            if self._first is None:
                self._first = empty_plan_candidates(self._position())
            if i < len(self._first):
                return self._first[i]
        return self.listed()[i]

    def __len__(self) -> int:
        return len(self.listed())

    def __iter__(self) -> Iterator[Candidate]:
        return iter(self.listed())

    def __contains__(self, answer: object) -> bool:
        return any(answer is c for c in self._first or ()) or answer in self.listed()

    def __repr__(self) -> str:
        return repr(self.listed())


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


def _draw_phase(deal: Deal) -> list[Candidate]:
    """``draw``, then the engine's pickups (:func:`pickup_candidates_nb`), the legal ones."""
    plans = np.zeros((5, N_KINDS, 3), np.int8)  # the draw's (empty), then the pickups'
    n = pickup_candidates_nb(deal.state, deal.rules_array, deal.current_player, plans[1:])
    kinds = np.array([CandKind.draw] + [CandKind.take] * n, np.int64)
    legal = _try(deal, kinds, plans, np.arange(n + 1), np.full(n + 1, -1), np.zeros(n + 1, bool))
    found = [Candidate("draw", "draw")]
    size = int(deal.view.g[DealSlot.pile_len])
    top = int(deal.view.pile[size - 1]) if size else -1
    for plan in plans[1 : n + 1]:
        nat, deu, jok = (int(x) for x in plan[top])
        with_ = " ".join([C.KINDS[top]] * nat + ["2"] * deu + ["JK"] * jok)
        melds = plan_texts(plan, skip=top)
        label = (
            f"take the pile with {with_}"
            if with_
            else f"take the pile onto the {C.KINDS[top]} meld"
        )
        if melds:
            label += f", meld {', '.join(melds)}"
        found.append(Candidate(label, "take", with_=with_, melds=melds))
    return [c for c, ok in zip(found, legal) if ok]


def empty_plan_candidates(deal: Deal) -> list[Candidate]:
    """The legal play-phase candidates of the empty plan (no melds) at ``deal``'s decision:
    its discards by kind, or its going out, or after a last-card red three its end of the deal
    (R-20, R-40, R-45). They are the first candidates :func:`candidates` lists there (the
    empty plan comes first and is always listed whole), found without building the other meld
    plans; ``deal`` is a live deal in the play phase (not checked here).
    """
    return _play_listing(deal, np.zeros((1, N_KINDS, 3), np.int8), MAX_CANDIDATES).candidates


def _play_phase(deal: Deal, cap: int) -> Listing:
    """The play-phase candidates: each plan of :func:`meld_plans` in its order with its
    discards (kind order), a plan taken whole while the count stays within ``cap`` (the empty
    plan always), and the number of plans left out."""
    return _play_listing(deal, _plan_array(deal), cap)


def _play_listing(
    deal: Deal, plans: np.ndarray, cap: int, first: list[Candidate] | None = None
) -> Listing:
    """:func:`_play_phase` for the meld plans ``plans`` (``ndarray(int8, (n, N_KINDS, 3))``,
    the empty plan first), or after the candidates ``first`` of the plans before them."""
    found: list[Candidate] = list(first or ())
    left = deal.view.hands[deal.current_player] - _plan_cards(plans)  # int64
    last_red_three = bool(deal.view.g[DealSlot.last_red_three])
    discarded = left > 0 if not last_red_three else np.zeros_like(left, bool)
    # per plan, its discards by kind, or one row without a discard (column 0: kind -1)
    groups, column = np.nonzero(np.column_stack([~discarded.any(axis=1), discarded]))
    discards = column - 1
    sizes = left.sum(axis=1)[groups]
    going_out = _goes_out(sizes, discards)
    kinds = np.full(len(groups), CandKind.play, np.int64)
    legal = _try(deal, kinds, plans, groups, discards, going_out, cap - len(found))
    by_plan: list[list[tuple[int, int]]] = [[] for _ in plans]  # the legal (discard, left)
    rows = zip(groups[legal].tolist(), discards[legal].tolist(), sizes[legal].tolist())
    for group, discard, size in rows:
        by_plan[group].append((discard, size))
    for taken, (plan, mine) in enumerate(zip(plans, by_plan)):
        if found and len(found) + len(mine) > cap:
            return Listing(found, len(plans) - taken)
        if mine:
            melds = plan_texts(plan)
            found += [_play(melds, k, left, last_red_three) for k, left in mine]
    return Listing(found, 0)


def _try(deal: Deal, kinds, plans, groups, discards, going_out, cap: int = 10_000):
    """Which candidates (as rows of :func:`try_candidates_nb`: candidate ``i`` lays
    ``plans[groups[i]]``) are legal on ``deal``, ``ndarray(bool, (n,))``: tried on a copy of
    its state (``is_legal``'s test); the plans after more than ``cap`` legal candidates are
    left untried (False)."""
    states = np.zeros(2, STATE_DTYPE)
    states[0] = deal.state
    legal = np.zeros(len(kinds), bool)
    try_candidates_nb(
        states,
        deal.rules_array,
        kinds,
        np.ascontiguousarray(plans, np.int8),
        groups.astype(np.int64),
        discards.astype(np.int64),
        going_out,
        np.int64(cap),
        NO_LOG,
        legal,
    )
    return legal


def play_candidate(plan: np.ndarray, discard: int, left: int, end_deal: bool = False) -> Candidate:
    """The play-phase candidate laying ``plan`` (``ndarray(int8, (N_KINDS, 3))``, possibly
    empty) then discarding a card of kind ``discard`` (-1: none), with ``left`` cards in hand
    after the plan: ``"meld K K K, 5 5 5 2, discard 9"``, ``"discard 9"``; ``"go out: ..."``
    when it empties the hand (R-40); with ``end_deal`` (after a last-card red three, R-45) and
    cards left, ``"meld K K K, end the deal"`` or ``"end the deal"``."""
    return _play(plan_texts(plan), discard, left, end_deal)


def _play(melds: tuple[str, ...], discard: int, left: int, end_deal: bool) -> Candidate:
    """:func:`play_candidate` for a plan whose meld texts are ``melds``."""
    parts = [f"meld {', '.join(melds)}"] if melds else []
    if discard >= 0:
        parts.append(f"discard {C.KINDS[discard]}")
    out = bool(_goes_out(left, discard))
    ends = end_deal and not out
    if ends:
        parts.append("end the deal")
    label = ("go out: " if out else "") + ", ".join(parts)
    text = C.KINDS[discard] if discard >= 0 else ""
    return Candidate(label, "play", melds=melds, discard=text, going_out=out, end_deal=ends)


def _goes_out(left, discard):
    """Whether a play with ``left`` cards in hand after its plan and then ``discard`` (-1:
    none) empties the hand (R-40): a bool, or for arrays of int an array of bool."""
    return (left == 0) | ((left == 1) & (discard >= 0))


def _plan_cards(plans: np.ndarray) -> np.ndarray:
    """The cards each plan (``ndarray(int8, (n, N_KINDS, 3))``) takes from hand,
    ``ndarray(int64, (n, N_KINDS))``."""
    cards = plans[:, :, MeldCol.naturals].astype(np.int64)
    cards[:, DEUCE] += plans[:, :, MeldCol.deuces].sum(axis=1)
    cards[:, JOKER] += plans[:, :, MeldCol.jokers].sum(axis=1)
    return cards


# --- meld plans ------------------------------------------------------------------------------
def meld_plans(deal: Deal) -> list[np.ndarray]:
    """The meld plans of the current seat's play-phase decision, in priority order
    (docs/analysis.md, "Decisions and candidates"), each ``ndarray(int8, (N_KINDS, 3))``.

    The *plan space*: per rank 4..A, the rank's naturals in hand laid all or none (onto the
    side's meld, or as a new meld), with any numbers of the hand's deuces and jokers that keep
    the meld legal (R-60, R-61); the black threes (3 or 4) only in a plan that goes out
    (R-41, R-63). When the space holds at most :data:`SPACE_LIMIT` plans, every plan of it is
    listed; otherwise the engine's plans, every plan of a single meld, and every sub-plan (set
    of rows) of the engine's plan that melds all it can.

    Order: the empty plan; the engine's going-out plans; its initial meld (R-64; a side
    without melds), the plan that melds all it can keeping two cards, the same without wild
    cards; then the others by the meld points they lay (R-04), most first, ties in enumeration
    order (ranks from the ace down). Only plans the engine's own check accepts
    (``check_plan_nb``: R-22, R-40..R-42, R-60..R-64) are kept.
    """
    return list(_plan_array(deal))


def _plan_array(deal: Deal) -> np.ndarray:
    """:func:`meld_plans` as one ``ndarray(int8, (n, N_KINDS, 3))``."""
    seat = deal.current_player
    state, r = deal.state, deal.rules_array
    hand = state["hands"][seat].astype(np.int64)
    table = state["melds"][seat % deal.rules.sides].astype(np.int64)
    full = _full_plan(deal)
    first = [np.zeros((N_KINDS, 3), np.int8), *_out_plans(deal), *_initial_plan(deal), full]
    first.append(_full_plan(deal, wilds=False))
    listed = _space(hand, table, r)
    space = (
        listed if listed is not None else np.concatenate([_singles(hand, table, r), _subsets(full)])
    )
    plans = np.concatenate([np.stack(first), space])
    points, errors = _checked(deal, plans)
    rest = len(first) + np.argsort(-points[len(first) :], kind="stable")  # ties: enumeration
    order = np.concatenate([np.arange(len(first)), rest])
    rows = np.ascontiguousarray(plans[order]).reshape(len(order), -1)
    _keys, firsts = np.unique(rows.view(np.dtype((np.void, rows.shape[1]))), return_index=True)
    kept = np.sort(firsts)  # each plan once, where it first comes
    kept = kept[(errors[order[kept]] == MoveError.ok) | ~rows[kept].any(axis=1)]
    return plans[order[kept]]


def _checked(deal: Deal, plans: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The meld points (R-04) of each plan and the engine's check of melding it now
    (``check_plan_nb``: R-22, R-40..R-42, R-60..R-64), ``ndarray(int64, (n,))`` each."""
    states = np.zeros(1, STATE_DTYPE)
    states[0] = deal.state
    points = np.zeros(len(plans), np.int64)
    errors = np.zeros(len(plans), np.int64)
    check_plans_nb(states, deal.rules_array, np.ascontiguousarray(plans, np.int8), points, errors)
    return points, errors


#: Most plans in a plan space listed whole (:func:`meld_plans`); a larger space is pruned.
SPACE_LIMIT = 512


def _row_options(rank: int, hand: np.ndarray, table: np.ndarray, r: np.ndarray) -> np.ndarray:
    """What a plan may lay on the row of ``rank`` (natural ranks), ``ndarray(int64, (n, 3))``
    of (naturals, deuces, jokers) from hand: :func:`~canasta_sim.nb.plan_space.row_options_nb`
    (nothing first; each leaves a legal meld, R-60, R-61)."""
    out = np.zeros((ROW_OPTIONS, 3), np.int64)
    return out[: row_options_nb(np.int64(rank), hand, table, r, out)]


def _space(hand: np.ndarray, table: np.ndarray, r: np.ndarray) -> np.ndarray | None:
    """Every plan of the plan space (:func:`meld_plans`), ranks from the ace down,
    ``ndarray(int8, (n, N_KINDS, 3))``, or ``None`` when it holds more than
    :data:`SPACE_LIMIT` plans (:func:`~canasta_sim.nb.plan_space.plan_space_nb`)."""
    plans = np.zeros((SPACE_LIMIT + 2, N_KINDS, 3), np.int8)
    n = plan_space_nb(
        hand,
        table,
        r,
        np.int64(SPACE_LIMIT),
        np.zeros((N_KINDS, ROW_OPTIONS, 3), np.int64),
        np.zeros((5, N_KINDS + 1), np.int64),
        np.zeros((N_KINDS, 3), np.int8),
        plans,
    )
    return plans[:n] if n >= 0 else None


def _singles(hand: np.ndarray, table: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Every plan of one row option (:func:`_row_options`): one meld laid or extended,
    ``ndarray(int8, (n, N_KINDS, 3))``."""
    plans = []
    for k in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
        for option in _row_options(k, hand, table, r)[1:].tolist():
            plan = np.zeros((N_KINDS, 3), np.int8)
            plan[k] = option
            plans.append(plan)
    return np.array(plans, np.int8).reshape(-1, N_KINDS, 3)


def _subsets(plan: np.ndarray) -> np.ndarray:
    """Every plan made of some of ``plan``'s rows (at most 2**11), ``ndarray(int8, (n,
    N_KINDS, 3))``, in the order of the masks 1, 2, 3, ... over its rows (row i: bit i)."""
    rows = np.nonzero(plan.any(axis=1))[0]
    masks = np.arange(1, 1 << len(rows))
    bits = (masks[:, None] >> np.arange(len(rows))) & 1  # (mask, row) -> row taken
    out = np.zeros((len(masks), N_KINDS, 3), np.int8)
    out[:, rows] = bits[:, :, None] * plan[rows][None]
    return out


def _full_plan(deal: Deal, wilds: bool = True) -> np.ndarray:
    """The engine's plan that melds all it can keeping two cards (R-22): naturals onto the
    side's melds and new melds of three, then (``wilds``) natural pairs with a wild card and
    the spare wild cards, jokers first."""
    plan = np.zeros((N_KINDS, 3), np.int8)
    fill_plan_nb(
        deal.state,
        deal.rules_array,
        deal.current_player,
        plan,
        np.int64(-1),
        np.int64(0),
        np.int64(2),
        np.bool_(wilds),
    )
    return plan


def _initial_plan(deal: Deal) -> list[np.ndarray]:
    """For a side without its initial meld, the engine's initial meld from hand (R-64; two
    cards kept): its naturals, then wild cards, deuces first, only while short of the minimum
    count (not always the fewest wild cards, docs/analysis.md); else nothing."""
    seat = deal.current_player
    if deal.view.sides[seat % deal.rules.sides, SideSlot.melded]:
        return []
    plan = np.zeros((N_KINDS, 3), np.int8)
    initial_plan_nb(
        deal.state, deal.rules_array, seat, plan, np.int64(-1), np.int64(0), np.int64(2)
    )
    return [plan]


def _out_plans(deal: Deal) -> list[np.ndarray]:
    """The engine's plans melding the whole hand, or all but one card of each kind in hand
    (R-40; :func:`~canasta_sim.nb.candidates.out_plans_nb`), the non-empty ones that do."""
    states = np.zeros(2, STATE_DTYPE)
    states[0] = deal.state
    plans = np.zeros((N_KINDS + 1, N_KINDS, 3), np.int8)
    ok = np.zeros(N_KINDS + 1, bool)
    n = out_plans_nb(states, deal.rules_array, plans, ok)
    return [plans[i] for i in range(n) if ok[i]]
