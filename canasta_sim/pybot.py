"""Bots written in Python: a seat's view in card notation, the legal choices, one answer.

A Python bot is a class with a ``choose(view, choices)`` method (docs/strategy.md). At each
decision of its turn the engine builds the seat's :class:`SeatView` (what the player may
know: its own hand, the discard pile, the melds, red threes, scores and minimum counts of
every side, every hand's size, the stock's size) and the list of legal choices, checked by the
engine's own move kernels (a choice is offered only if the kernels accept it), and the bot
returns one of them:

- ``"draw"``: :class:`Draw` or one :class:`TakePile` per legal pickup (the top card onto the
  side's meld, with a natural pair, with a natural and a deuce or a joker; a side without its
  initial meld adds melds from hand to reach its minimum count, R-30..R-35, R-64);
- ``"meld"`` (repeated until it answers :class:`Stop`): :class:`Stop` or one :class:`Meld`,
  each a legal meld call now: one rank's naturals with 0 to 2 wild cards, or wild cards added
  to a meld; before the initial meld, also sets of two or three such melds laid together
  (R-60..R-64, R-40 for going out);
- ``"discard"``: one :class:`Discard` per kind of card that may be discarded (R-23, R-24,
  R-40).

An answer that is not one of the choices raises :class:`BadChoice` naming the decision and
the choices. The bot is loaded from a spec ``py:FILE.py:CLASS``
(:func:`canasta_sim.bots.load_class`) and
instantiated once per seat for each chunk of deals; it runs in this Python process only (not
on Dask workers, and never inside the kernels), so it plays far fewer deals per second than
the kernel bots (docs/strategy.md gives the figures).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from . import cards as C
from .nb.bots.pickups import pickup_candidates_nb
from .nb.engine.melds import check_plan_nb, meld_ok_nb
from .nb.engine.moves import check_take_nb, discard_nb, draw_nb, end_turn_nb, meld_nb, take_pile_nb
from .nb.engine.state import STATE_DTYPE
from .nb.enums import (
    BLACK_THREE,
    DEUCE,
    EV_LEN,
    FIRST_NATURAL,
    JOKER,
    LAST_NATURAL,
    N_KINDS,
    DealSlot,
    MoveError,
    Phase,
    RuleSlot,
    SideSlot,
)
from .notation import plan_texts

MAX_COMBO = 3  # melds laid together in one initial-meld choice
NO_LOG = np.zeros((0, EV_LEN), np.int32)  # moves tried on a copy record no trace


# --- choices ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Draw:
    """Draw from the stock (R-20)."""


@dataclass(frozen=True)
class TakePile:
    """Take the discard pile: ``with_`` the cards from hand melded with the top card (``""``:
    the top card goes on the side's meld), ``melds`` further melds from hand in the same move
    (card texts as for :meth:`canasta_sim.Deal.take_pile`); ``cards`` the pile's size."""

    with_: str
    melds: tuple[str, ...]
    cards: int


@dataclass(frozen=True)
class Meld:
    """Lay ``melds`` (card texts, one per rank, ``"K: 2"`` for wild cards only) in one call;
    ``out`` is True when the call leaves no card to keep (it goes out, R-40)."""

    melds: tuple[str, ...]
    out: bool = False


@dataclass(frozen=True)
class Stop:
    """Meld no more this turn."""


@dataclass(frozen=True)
class Discard:
    """Discard one card (``"B3"``, ``"9"``, ``"JK"``); the last card goes out (R-40)."""

    card: str


@dataclass(frozen=True)
class SeatView:
    """What a seat may know when it decides (all card texts in card notation).

    Attributes
    ----------
    decision : str
        ``"draw"``, ``"meld"`` or ``"discard"``.
    seat, side, turn : int
        The seat deciding, its side (``seat % sides``, R-10), turns completed.
    hand : str
        The seat's hand.
    pile : str
        The discard pile, bottom first (every discard is public, R-20).
    pile_frozen : bool
        Frozen for this seat (a wild card or red three in it, or no initial meld, R-31).
    melds : tuple of dict
        Per side: rank (``"K"``) -> the meld's cards.
    red_threes, scores, minimums : tuple of int
        Per side: red threes laid out; cumulative score before the deal (points, R-55);
        minimum count (points, R-64).
    melded : tuple of bool
        Per side: made its initial meld.
    hand_sizes : tuple of int
        Per seat: cards in hand.
    stock : int
        Cards left in the stock.
    """

    decision: str
    seat: int
    side: int
    turn: int
    hand: str
    pile: str
    pile_frozen: bool
    melds: tuple[dict, ...]
    red_threes: tuple[int, ...]
    scores: tuple[int, ...]
    minimums: tuple[int, ...]
    melded: tuple[bool, ...]
    hand_sizes: tuple[int, ...]
    stock: int


class BadChoice(ValueError):
    """A Python bot answered something that is not one of the choices offered."""


# --- a turn -------------------------------------------------------------------------------------
def _copy(state):
    box = np.empty(1, STATE_DTYPE)
    box[0] = state
    return box[0]


def _part_text(r: int, n: int, d: int, j: int) -> str:
    """The meld text of ``n`` naturals of rank ``r`` with ``d`` deuces and ``j`` jokers
    (``"K: 2"`` names the rank of wild cards alone)."""
    cards = C.meld_cards(r, n, d, j)
    return cards if n else f"{C.KINDS[r]}: {cards}"


def _plan(rows) -> np.ndarray:
    plan = np.zeros((N_KINDS, 3), np.int8)
    for r, n, d, j in rows:
        plan[r] += (n, d, j)
    return plan


def view_of(state, rules, decision: str) -> SeatView:
    """The :class:`SeatView` of the seat to play (``rules``: ``ndarray(int32)``)."""
    g, sides = state["g"], state["sides"]
    n_sides, players = int(rules[RuleSlot.sides]), int(rules[RuleSlot.players])
    seat = int(g[DealSlot.current])
    side = seat % n_sides
    pile = state["pile"][: int(g[DealSlot.pile_len])]
    melds = tuple(
        {
            C.KINDS[r]: C.meld_cards(r, *(int(x) for x in state["melds"][s, r]))
            for r in range(BLACK_THREE, LAST_NATURAL + 1)
            if state["melds"][s, r].any()
        }
        for s in range(n_sides)
    )
    r3 = sides[:n_sides, SideSlot.r3_dealt : SideSlot.r3_pile + 1].sum(axis=1)
    return SeatView(
        decision=decision,
        seat=seat,
        side=side,
        turn=int(g[DealSlot.turn]),
        hand=C.format_cards(state["hands"][seat]),
        pile=C.format_sequence(pile),
        pile_frozen=bool(g[DealSlot.pile_freeze] > 0 or sides[side, SideSlot.melded] == 0),
        melds=melds,
        red_threes=tuple(int(x) for x in r3),
        scores=tuple(int(sides[s, SideSlot.score]) for s in range(n_sides)),
        minimums=tuple(int(sides[s, SideSlot.minimum]) for s in range(n_sides)),
        melded=tuple(bool(sides[s, SideSlot.melded]) for s in range(n_sides)),
        hand_sizes=tuple(int(x) for x in state["hand_sizes"][:players]),
        stock=int(rules[RuleSlot.n_cards] - g[DealSlot.stock_pos]),
    )


def draw_choices(state, rules) -> list:
    """The legal choices of the draw decision (see the module docstring), with their plans."""
    seat = int(state["g"][DealSlot.current])
    out: list[tuple[object, np.ndarray | None]] = []
    trial = _copy(state)
    if draw_nb(trial, rules, NO_LOG) == MoveError.ok:
        out.append((Draw(), None))
    cands = np.zeros((4, N_KINDS, 3), np.int8)
    size = int(state["g"][DealSlot.pile_len])
    top = int(state["pile"][size - 1]) if size else -1
    for i in range(pickup_candidates_nb(state, rules, seat, cands)):
        plan = cands[i].copy()
        err, _, _ = check_take_nb(state, rules, seat, plan)
        if err == MoveError.ok:
            with_ = C.meld_cards(top, *(int(x) for x in plan[top]))
            choice = TakePile(with_, plan_texts(plan, top), size)
            out.append((choice, plan))
    return out


def meld_choices(state, rules) -> list:
    """The legal choices of a meld decision: ``(Meld, plan)`` pairs (see the module
    docstring)."""
    g, hands, melds = state["g"], state["hands"], state["melds"]
    seat = int(g[DealSlot.current])
    side = seat % int(rules[RuleSlot.sides])
    hand = hands[seat]
    wilds = [(d, j) for d in range(3) for j in range(3) if 0 < d + j <= 2]
    wilds = [(d, j) for d, j in wilds if d <= hand[DEUCE] and j <= hand[JOKER]]
    rows = []
    for r in range(FIRST_NATURAL, LAST_NATURAL + 1):
        n = int(hand[r])
        on_table = melds[side, r].sum() > 0
        if n:
            rows.append([(r, n, 0, 0)])
            rows += [[(r, n, d, j)] for d, j in wilds]
        elif on_table:
            rows += [[(r, 0, d, j)] for d, j in wilds]
    if hand[BLACK_THREE] >= 3:
        rows.append([(BLACK_THREE, int(hand[BLACK_THREE]), 0, 0)])
    # a row whose meld is no legal meld on its own is in no legal choice; its
    # points decide cheaply which sets of rows can reach the minimum count
    shaped = [
        (row, _plan(row), _row_points(row, rules))
        for row in rows
        if row[0][0] == BLACK_THREE or _shape_ok(melds[side], row[0], rules)
    ]
    legal = [(row, plan) for row, plan, _ in shaped if _meld_ok(state, rules, seat, plan)]
    if not state["sides"][side, SideSlot.melded]:
        # the initial meld may need several melds at once: sets of ranks
        need = int(state["sides"][side, SideSlot.minimum])
        for k in range(2, MAX_COMBO + 1):
            for combo in itertools.combinations(shaped, k):
                ranks = {row[0][0] for row, _, _ in combo}
                if len(ranks) < k or sum(pts for _, _, pts in combo) < need:
                    continue
                plan = np.sum([p.astype(np.int16) for _, p, _ in combo], axis=0).astype(np.int8)
                if _meld_ok(state, rules, seat, plan):
                    legal.append((sum((row for row, _, _ in combo), []), plan))
    out = []
    size = int(state["hand_sizes"][seat])
    for parts, plan in legal:
        left = size - sum(n + d + j for _, n, d, j in parts)
        out.append((Meld(tuple(_part_text(*part) for part in sorted(parts)), left <= 1), plan))
    return out


def _row_points(row, rules) -> int:
    """Card values (R-04) of one meld row ``[(rank, naturals, deuces, jokers)]``."""
    r, n, d, j = row[0]
    values = rules[RuleSlot.values : RuleSlot.values + N_KINDS]
    return int(n * values[r] + d * values[DEUCE] + j * values[JOKER])


def _shape_ok(side_melds, part, rules) -> bool:
    """Whether the side's meld of the row's rank with the row's cards is a legal meld (R-60,
    R-61), by the engine's meld check."""
    r, n, d, j = part
    on = side_melds[r]
    return bool(meld_ok_nb(int(on[0]) + n, int(on[1]) + d, int(on[2]) + j, rules))


def _meld_ok(state, rules, seat, plan) -> bool:
    """Whether the move kernel accepts melding ``plan`` now: a cheap check of the plan, then
    the move itself on a copy of the state (it also knows the turn's own restrictions)."""
    err, _, _ = check_plan_nb(state, rules, seat, plan, np.int64(-1), np.int64(0))
    return err == MoveError.ok and meld_nb(_copy(state), rules, plan, NO_LOG) == MoveError.ok


def discard_choices(state, rules) -> list:
    """``(Discard, kind)`` for every kind the seat may discard (tried on a copy of the state,
    so the move kernel decides)."""
    seat = int(state["g"][DealSlot.current])
    out = []
    for kind in np.nonzero(state["hands"][seat])[0]:
        trial = _copy(state)
        if discard_nb(trial, rules, np.int64(kind), NO_LOG) == MoveError.ok:
            out.append((Discard(C.KINDS[kind]), int(kind)))
    return out


def _ask(bot, state, rules, decision: str, options: list):
    choices = [c for c, _ in options]
    answer = bot.choose(view_of(state, rules, decision), list(choices))
    for choice, payload in options:
        if answer == choice:
            return choice, payload
    seat = int(state["g"][DealSlot.current])
    raise BadChoice(
        f"the Python bot {type(bot).__name__} of seat {seat} answered {answer!r} to the "
        f"{decision} decision; allowed: one of {choices!r}"
    )


def play_turn(state, rules, bot, log) -> None:
    """Play the current seat's whole turn with the Python ``bot`` through the move kernels
    (``state``: a record of STATE_DTYPE, changed; ``log``: the trace log).

    Raises
    ------
    BadChoice
        When the bot answers something that is not one of the choices.
    """
    g = state["g"]
    if g[DealSlot.phase] == Phase.draw:
        choice, plan = _ask(bot, state, rules, "draw", draw_choices(state, rules))
        if plan is None:
            draw_nb(state, rules, log)
        else:
            take_pile_nb(state, rules, plan, log)
    while g[DealSlot.phase] == Phase.play:
        options = meld_choices(state, rules)
        if not options:
            break
        choice, plan = _ask(bot, state, rules, "meld", [(Stop(), None)] + options)
        if plan is None:
            break
        meld_nb(state, rules, plan, log)
    if g[DealSlot.phase] != Phase.play:
        return
    options = discard_choices(state, rules)
    if not options:  # a last-card red three ends the deal without a discard
        end_turn_nb(state, rules, log)
        return
    _, kind = _ask(bot, state, rules, "discard", options)
    discard_nb(state, rules, np.int64(kind), log)


# --- whole deals --------------------------------------------------------------------------------
class Seated:
    """The players of one seating for Python-driven play: each seat's :class:`Bot`, an
    instance of every Python bot (one per seat), and the kernel arrays for the others."""

    def __init__(self, bots, players: int):
        from .bots import per_seat, seat_arrays

        self.bots = per_seat(bots, players)
        self.players = {s: b.player() for s, b in enumerate(self.bots) if b.is_python}
        self.policies, self.params = seat_arrays(self.bots, players)

    def play_turn(self, state, rules, log) -> None:
        """The current seat's whole turn: its Python bot's (:func:`play_turn`) or its kernel
        policy's (:func:`canasta_sim.nb.bots.turn.play_turn`)."""
        from .nb.bots.turn import play_turn as kernel_turn

        seat = int(state["g"][DealSlot.current])
        if seat in self.players:
            play_turn(state, rules, self.players[seat], log)
        else:
            kernel_turn(state, rules, self.policies, self.params, log)


def play_python_deals(table, seeds, dealers, minimums, scores, seatings, deal_rows, side_rows):
    """:func:`canasta_sim.runner.play_deals` for a table with Python bots: every deal is
    dealt and recorded by the same kernels as the chunk kernel's, and its turns are played
    from Python (:class:`Seated`), one deal after another in this thread.

    Parameters
    ----------
    table : canasta_sim.runner.Table
    seeds : ndarray(uint64, (n,))
    dealers : ndarray(int32, (n,))
    minimums, scores : ndarray(int32, (n, sides))
        Minimum counts (R-64) and cumulative scores before the deal (points).
    seatings : ndarray(int32, (n,))
    deal_rows : ndarray(deal_dtype, (n,)), written
    side_rows : ndarray(side_dtype, (n, sides)), written
    """
    from .nb.engine.deal import start_deal_nb
    from .nb.engine.state import new_state
    from .nb.play import record_deal_nb

    rules, players, n_sides = table.rules_array, table.rules.players, table.rules.sides
    seated = [Seated(seating, players) for seating in table.seatings]
    state = new_state()
    for i in range(len(seeds)):
        start_deal_nb(state, rules, seeds[i], dealers[i], minimums[i], NO_LOG)
        state["sides"][:n_sides, SideSlot.score] = scores[i]
        table_now = seated[int(seatings[i])]
        while state["g"][DealSlot.phase] != Phase.over:
            table_now.play_turn(state, rules, NO_LOG)
        record_deal_nb(state, rules, deal_rows[i], side_rows[i])
