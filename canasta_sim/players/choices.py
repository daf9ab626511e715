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

import threading
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple, overload

import numpy as np

from .. import cards as C
from ..errors import IllegalMove
from ..game.deals import Deal
from ..game.infoset import InfoSet
from ..game.legality import NO_LOG, move_error
from ..game.notation import check_int, meld_plan, plan_texts
from ..nb.candidates import (
    CANDIDATE_DTYPE,
    LISTING_WORK_DTYPE,
    MAX_CANDIDATES,
    list_candidates_nb,
    meld_plans_nb,
)
from ..nb.candidates import (
    SPACE_LIMIT as SPACE_LIMIT,  # the plan space listed whole up to it (meld_plans)
)
from ..nb.engine.moves import discard_nb, draw_nb, end_turn_nb, meld_nb, take_pile_nb
from ..nb.engine.state import STATE_DTYPE
from ..nb.enums import (
    DEUCE,
    FIRST_NATURAL,
    JOKER,
    LAST_NATURAL,
    N_KINDS,
    DealSlot,
    MoveError,
    Phase,
)
from ..nb.worlds import CandKind

MOVES = ("draw", "take", "play")  # by CandKind code


class Candidate:
    """One choice at a decision, written as the :class:`~canasta_sim.Deal` moves it makes.

    Made by the candidate layer from a record of
    :data:`~canasta_sim.nb.candidates.CANDIDATE_DTYPE` (its texts are written when first
    read), or by a caller from texts: ``Candidate(label, move, with_="", melds=(),
    discard="", going_out=False, end_deal=False)``. Read-only; two candidates are equal when
    they make the same moves (both from records) or have the same texts.

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
    record : numpy.void or None
        The candidate's record of ``CANDIDATE_DTYPE`` (kind, pickup way, plan, discard, ...),
        or ``None`` for a candidate made from texts.
    """

    __slots__ = ("_rows", "_i", "_top", "_texts")
    _rows: np.ndarray | None  # the listing's records (this one is row _i), or None
    _i: int
    _top: int
    _texts: tuple | None  # the fields' texts, label first, once written

    def __init__(
        self,
        label: str,
        move: str,
        with_: str = "",
        melds: tuple[str, ...] = (),
        discard: str = "",
        going_out: bool = False,
        end_deal: bool = False,
    ):
        self._rows = None
        self._i = 0
        self._top = -1
        self._texts = (label, move, with_, tuple(melds), discard, going_out, end_deal)

    @classmethod
    def of_record(cls, rows: np.ndarray, i: int, pile_top: int) -> Candidate:
        """The candidate of record ``i`` of ``rows`` (``ndarray(CANDIDATE_DTYPE, (n,))``, not
        to be changed after); ``pile_top`` is the pile's top kind at the decision (-1: no
        pile), which a pickup's texts name."""
        self = cls.__new__(cls)
        self._rows = rows
        self._i = i
        self._top = pile_top
        self._texts = None
        return self

    @property
    def _record(self) -> Any:
        """The record (a candidate of the layer only)."""
        assert self._rows is not None
        return self._rows[self._i]

    @property
    def record(self) -> np.void | None:
        return self._rows[self._i] if self._rows is not None else None

    @property
    def label(self) -> str:
        return self._text()[0]

    @property
    def move(self) -> str:
        return MOVES[self._record["kind"]] if self._rows is not None else self._text()[1]

    @property
    def with_(self) -> str:
        return self._text()[2]

    @property
    def melds(self) -> tuple[str, ...]:
        return self._text()[3]

    @property
    def discard(self) -> str:
        if self._rows is None:
            return self._text()[4]
        d = self.discard_kind
        return C.KINDS[d] if d >= 0 else ""

    @property
    def plan(self) -> np.ndarray:
        """The cards from hand the candidate lays, ``ndarray(int8, (N_KINDS, 3))`` (naturals,
        deuces, jokers per rank; a pickup's top-card row holds the hand's cards laid with
        the top card); a copy."""
        if self._rows is not None:
            return self._record["plan"].copy()
        naturals = np.nonzero(C.parse_cards(self.with_)[FIRST_NATURAL : LAST_NATURAL + 1])[0]
        top = FIRST_NATURAL + int(naturals[0]) if len(naturals) else FIRST_NATURAL
        return self.kernel_row(top)[1]

    @property
    def discard_kind(self) -> int:
        """The kind code of :attr:`discard` (R-02), -1 for none."""
        if self._rows is not None:
            return int(self._record["discard"])
        return C.kind_index(self.discard) if self.discard else -1

    @property
    def going_out(self) -> bool:
        return bool(self._record["going_out"]) if self._rows is not None else self._text()[5]

    @property
    def end_deal(self) -> bool:
        return bool(self._record["end_deal"]) if self._rows is not None else self._text()[6]

    def _text(self) -> tuple:
        """``(label, move, with_, melds, discard, going_out, end_deal)``, written once."""
        if self._texts is None:
            self._texts = _texts(self._record, self._top)
        return self._texts

    def _key(self) -> tuple:
        """What the candidate does, from its record: kind, the top card a pickup names, plan,
        discard, going out, end of the deal."""
        r = self._record
        top = self._top if r["kind"] == CandKind.take else -1
        return (
            int(r["kind"]),
            top,
            r["plan"].tobytes(),
            int(r["discard"]),
            self.going_out,
            self.end_deal,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Candidate):
            return NotImplemented
        if self._rows is not None and other._rows is not None:
            return self._key() == other._key()
        return self._text() == other._text()

    def __hash__(self) -> int:
        return hash((self.move, self.discard, self.going_out, self.end_deal))

    def __repr__(self) -> str:
        label, move, with_, melds, discard, going_out, end_deal = self._text()
        return (
            f"Candidate(label={label!r}, move={move!r}, with_={with_!r}, melds={melds!r}, "
            f"discard={discard!r}, going_out={going_out!r}, end_deal={end_deal!r})"
        )

    def __reduce__(self):
        return (Candidate, self._text())

    def apply(self, deal: Deal) -> None:
        """Make the candidate's moves on ``deal``.

        Raises
        ------
        IllegalMove
            If a move is not legal there.
        """
        if self._rows is not None:
            _apply_record(deal, self._record)
        elif self.move == "draw":
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
        """``(kind, plan, discard)`` for the rollout kernel
        (:data:`~canasta_sim.nb.worlds.CandKind`; ``int8[N_KINDS, 3]``; kind code or -1);
        ``pile_top`` is the pile's top kind. An ``end_deal`` candidate has no discard: the
        kernel ends the deal after its melds (R-45).
        A candidate of the layer gives its record's fields (no text is read)."""
        if self._rows is not None:
            r = self._record
            return int(r["kind"]), r["plan"].copy(), int(r["discard"])
        plan = meld_plan(self.melds).astype(np.int64)
        if self.move == "take":
            counts = C.parse_cards(self.with_)
            plan[pile_top] += [counts[pile_top], counts[DEUCE], counts[JOKER]]
        return getattr(CandKind, self.move), plan.astype(np.int8), self.discard_kind


def _texts(r: np.void, top: int) -> tuple:
    """The texts of a candidate's record (:class:`Candidate`'s fields, label first)."""
    kind, plan, discard = int(r["kind"]), r["plan"], int(r["discard"])
    if kind == CandKind.draw:
        return ("draw", "draw", "", (), "", False, False)
    if kind == CandKind.take:
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
        return (label, "take", with_, melds, "", False, False)
    melds = plan_texts(plan)
    going_out, end_deal = bool(r["going_out"]), bool(r["end_deal"])
    parts = [f"meld {', '.join(melds)}"] if melds else []
    if discard >= 0:
        parts.append(f"discard {C.KINDS[discard]}")
    if end_deal:
        parts.append("end the deal")
    label = ("go out: " if going_out else "") + ", ".join(parts)
    text = C.KINDS[discard] if discard >= 0 else ""
    return (label, "play", "", melds, text, going_out, end_deal)


def _apply_record(deal: Deal, r: np.void) -> None:
    """Make the moves of a candidate's record on ``deal`` with the deal's move kernels (as
    ``Deal.draw``, ``take_pile``, ``meld``, ``discard`` and ``end_turn`` make them).

    Raises
    ------
    IllegalMove
        At the first move that is not legal there.
    """
    state, rules, log = deal.state, deal.rules_array, deal.event_log
    # a writable copy: numba compiles the move kernels again for a read-only plan
    kind, plan, discard = int(r["kind"]), r["plan"].copy(), int(r["discard"])
    if kind == CandKind.draw:
        _check(deal, draw_nb(state, rules, log))
    elif kind == CandKind.take:
        _check(deal, take_pile_nb(state, rules, plan, log))
    else:
        if plan.any():
            _check(deal, meld_nb(state, rules, plan, log))
        if discard >= 0:
            _check(deal, discard_nb(state, rules, np.int64(discard), log))
        if r["end_deal"]:
            _check(deal, end_turn_nb(state, rules, log))


def lay_plan(deal: Deal, plan: np.ndarray) -> None:
    """Lay the meld plan ``plan`` (``ndarray(int8, (N_KINDS, 3))``) from hand on ``deal`` with
    its meld kernel, as ``Deal.meld`` lays the plan of its texts (R-60..R-64).

    Raises
    ------
    IllegalMove
        If the melds break a rule (the message names it).
    """
    _check(
        deal,
        meld_nb(deal.state, deal.rules_array, np.ascontiguousarray(plan, np.int8), deal.event_log),
    )


def _check(deal: Deal, code: int) -> None:
    """Raise the :class:`IllegalMove` of a move kernel's MoveError ``code`` (not ``ok``)."""
    if code != MoveError.ok:
        raise move_error(int(code), deal.view, deal.rules)


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
    :func:`candidate_array`), and how many meld plans the cap left out. The candidates keep
    their records; their texts are written when read.

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
    deal = decision_deal(position) if isinstance(position, InfoSet) else position
    rows, left_out = candidate_array(deal, cap)
    return Listing(_of_records(deal, rows), left_out)


def candidate_array(position: Deal | InfoSet, cap: int = MAX_CANDIDATES) -> tuple[np.ndarray, int]:
    """The candidates of :func:`list_candidates` as one structured array, made in one kernel
    call (:func:`~canasta_sim.nb.candidates.list_candidates_nb`), no text written.

    Parameters
    ----------
    position : Deal or InfoSet
        As for :func:`list_candidates`.
    cap : int
        As for :func:`list_candidates` (1 .. 10,000).

    Returns
    -------
    rows : ndarray(CANDIDATE_DTYPE, (n,))
        One record per candidate, in the listing's order
        (:data:`~canasta_sim.nb.candidates.CANDIDATE_DTYPE`: kind, pickup way, plan, discard,
        going out, end of the deal, plan index, cards melded and left, meld points).
    plans_left_out : int
        The meld plans the cap left out (0 in the draw phase).

    Raises
    ------
    ValueError
        As :func:`list_candidates`.
    """
    check_int("cap", cap, 1, 10_000)
    deal = decision_deal(position) if isinstance(position, InfoSet) else position
    if deal.state["g"][DealSlot.phase] == Phase.over:  # read as a code: the label costs more
        raise ValueError("phase 'over': the deal is over, no seat has a decision")
    return _listing(deal, cap, False)


def _listing(deal: Deal, cap: int, empty_only: bool) -> tuple[np.ndarray, int]:
    """:func:`~canasta_sim.nb.candidates.list_candidates_nb` at ``deal``'s decision (draw or
    play phase): its records (a read-only copy) and the plans left out."""
    states, work, out = _buffers(cap)
    states[0] = deal.state
    n, left_out = list_candidates_nb(
        states, deal.rules_array, np.int64(cap), np.bool_(empty_only), work, out, NO_LOG
    )
    # a read-only copy through bytes: numpy copies a record array field by field, 30 times slower
    return np.frombuffer(out[:n].tobytes(), CANDIDATE_DTYPE), int(left_out)


_THREAD = threading.local()  # each thread's listing buffers (the kernel clears what it reads)


def _buffers(cap: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """This thread's ``(states, work, out)`` for a listing within ``cap``: two state records,
    the kernel's scratch record and room for ``cap + N_KINDS + 1`` candidates."""
    if not hasattr(_THREAD, "work"):
        _THREAD.states = np.zeros(2, STATE_DTYPE)
        _THREAD.work = np.zeros(1, LISTING_WORK_DTYPE)
        _THREAD.out = np.zeros(0, CANDIDATE_DTYPE)
    if len(_THREAD.out) < cap + N_KINDS + 1:
        _THREAD.out = np.zeros(cap + N_KINDS + 1, CANDIDATE_DTYPE)
    return _THREAD.states, _THREAD.work, _THREAD.out


def _of_records(deal: Deal, rows: np.ndarray) -> list[Candidate]:
    """The :class:`Candidate` of each record of ``rows`` (texts not yet written)."""
    state = deal.state
    size = int(state["g"][DealSlot.pile_len])
    top = int(state["pile"][size - 1]) if size else -1
    return [Candidate.of_record(rows, i, top) for i in range(len(rows))]


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
            found = _of_records(deal, _listing(deal, MAX_CANDIDATES, False)[0])
            first = self._first or []
            self._all = first + found[len(first) :]  # the empty plan's, as already read
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


def empty_plan_candidates(deal: Deal) -> list[Candidate]:
    """The legal play-phase candidates of the empty plan (no melds) at ``deal``'s decision:
    its discards by kind, or its going out, or after a last-card red three its end of the deal
    (R-20, R-40, R-45). They are the first candidates :func:`candidates` lists there (the
    empty plan comes first and is always listed whole), found without building the other meld
    plans; ``deal`` is a live deal in the play phase (not checked here).
    """
    return _of_records(deal, _listing(deal, MAX_CANDIDATES, True)[0])


def play_candidate(plan: np.ndarray, discard: int, left: int, end_deal: bool = False) -> Candidate:
    """The play-phase candidate laying ``plan`` (``ndarray(int8, (N_KINDS, 3))``, possibly
    empty) then discarding a card of kind ``discard`` (-1: none), with ``left`` cards in hand
    after the plan: ``"meld K K K, 5 5 5 2, discard 9"``, ``"discard 9"``; ``"go out: ..."``
    when it empties the hand (R-40); with ``end_deal`` (after a last-card red three, R-45) and
    cards left, ``"meld K K K, end the deal"`` or ``"end the deal"``."""
    rows = np.zeros(1, CANDIDATE_DTYPE)
    record = rows[0]
    going_out = left == 0 or (left == 1 and discard >= 0)
    record["kind"], record["way"], record["plan"] = CandKind.play, -1, plan
    record["discard"], record["going_out"] = discard, going_out
    record["end_deal"] = end_deal and not going_out
    record["plan_index"], record["left"] = -1, left
    record["melded"] = int(np.asarray(plan, np.int64).sum())
    return Candidate.of_record(rows, 0, -1)


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
    states = np.zeros(2, STATE_DTYPE)
    states[0] = deal.state
    work = np.zeros(1, LISTING_WORK_DTYPE)
    n = meld_plans_nb(states, deal.rules_array, work)
    return list(work[0]["plans"][work[0]["order"][:n]])
