"""Bots written in Python: a seat's view in card notation, the candidates, one answer.

A Python bot is a class with a ``choose(view, choices)`` method (docs/strategy.md). At each of
the two decisions of its turn (docs/analysis.md, "Decisions and candidates": the ``draw``
phase, then the ``play`` phase, the rest of the turn) the engine builds the seat's
:class:`SeatView` (what the player may know: its own hand, the discard pile, the melds, red
threes, scores and minimum counts of every side, every hand's size, the cards known to be in
each hand, the stock's size) and offers the :class:`~canasta_sim.candidates.Candidate` list of
:func:`canasta_sim.candidates.candidates` at that decision, the same list ``analyse`` and
``review`` use; the bot returns one of them and the engine applies it
(:meth:`Candidate.apply`, the deal's own move kernels).

An answer that is not one of the candidates raises :class:`BadChoice` naming the decision and
the legal labels. The bot is loaded from a spec ``py:FILE.py:CLASS``
(:func:`canasta_sim.bots.load_class`) and instantiated once per seat for each chunk of deals; it
runs in this Python process only (not on Dask workers, and never inside the kernels, so it is
no rollout bot), so it plays far fewer deals per second than the kernel bots
(docs/strategy.md gives the figures).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import cards as C
from .candidates import Candidate, candidates
from .deal import Deal
from .nb.enums import BLACK_THREE, LAST_NATURAL, DealSlot, Phase, RuleSlot, SideSlot


@dataclass(frozen=True)
class SeatView:
    """What a seat may know when it decides (all card texts in card notation).

    A subset of the seat's :class:`~canasta_sim.InfoSet`, read straight from the deal: it
    needs no full pack (positions built by hand hold part of one) and costs far less to build.

    Attributes
    ----------
    decision : str
        ``"draw"`` (the turn's first move) or ``"play"`` (the rest of the turn).
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
    known : tuple of str
        Per seat: cards known to be in its hand (taken with the pile and not since melded or
        discarded; ``""`` for the seat deciding).
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
    known: tuple[str, ...]
    stock: int


class BadChoice(ValueError):
    """A Python bot answered something that is not one of the candidates offered."""


def view_of(deal: Deal) -> SeatView:
    """The :class:`SeatView` of the seat to play in ``deal`` (draw or play phase)."""
    state, rules = deal._state, deal._r
    g, sides = state["g"], state["sides"]
    n_sides, players = int(rules[RuleSlot.sides]), int(rules[RuleSlot.players])
    seat = int(g[DealSlot.current])
    side = seat % n_sides
    pile = state["pile"][: int(g[DealSlot.pile_len])]
    rows = state["melds"][:n_sides].tolist()  # Python ints: numpy element reads cost more
    melds = tuple(
        {
            C.KINDS[r]: C.meld_cards(r, *rows[s][r])
            for r in range(BLACK_THREE, LAST_NATURAL + 1)
            if any(rows[s][r])
        }
        for s in range(n_sides)
    )
    r3 = sides[:n_sides, SideSlot.r3_dealt : SideSlot.r3_pile + 1].sum(axis=1)
    known = [C.format_cards(state["known"][p]) for p in range(players)]
    known[seat] = ""
    return SeatView(
        decision=deal.phase,
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
        known=tuple(known),
        stock=int(rules[RuleSlot.n_cards] - g[DealSlot.stock_pos]),
    )


def _ask(bot, deal: Deal) -> Candidate:
    """The candidate ``bot`` chooses at ``deal``'s decision."""
    offered = candidates(deal)
    if not offered:  # every legal position has a candidate
        raise RuntimeError(f"no legal candidate for seat {deal.current_player}: {deal!r}")
    view = view_of(deal)
    answer = bot.choose(view, list(offered))
    if answer in offered:
        return answer
    what = (
        "a Candidate not offered at this decision"
        if isinstance(answer, Candidate)
        else f"a {type(answer).__name__}, not a Candidate"
    )
    raise BadChoice(
        f"the Python bot {type(bot).__name__} of seat {view.seat} answered {answer!r} ({what}) "
        f"to the {view.decision} decision; allowed: one of the candidates "
        f"{', '.join(repr(c.label) for c in offered)}"
    )


def play_turn(deal: Deal, bot) -> None:
    """Play the current seat's whole turn with the Python ``bot``: its draw-phase candidate,
    then (unless that ended the turn) its play-phase candidate, each applied to ``deal``
    (changed) with the deal's move kernels.

    Raises
    ------
    BadChoice
        When the bot answers something that is not one of the candidates.
    RuntimeError
        For a position with no legal candidate (one built by hand that no legal turn ends).
    """
    if deal.phase == "draw":
        _ask(bot, deal).apply(deal)
    if deal.phase == "play":  # the same seat: a draw or pickup that ends the turn ends the deal
        _ask(bot, deal).apply(deal)


# --- whole deals --------------------------------------------------------------------------------
class Seated:
    """The players of one seating for Python-driven play: each seat's :class:`Bot`, an
    instance of every Python bot (one per seat), and the kernel arrays for the others."""

    def __init__(self, bots, players: int):
        from .bots import per_seat, seat_arrays, weight_sets

        self.bots = per_seat(bots, players)
        self.players = {s: b.player() for s, b in enumerate(self.bots) if b.is_python}
        self.policies, self.params = seat_arrays(self.bots, players)
        _, self.weights = weight_sets([self.bots], players, self.params[None])

    def play_turn(self, deal: Deal) -> None:
        """The current seat's whole turn on ``deal`` (its state and trace log): its Python
        bot's (:func:`play_turn`) or its kernel policy's
        (:func:`canasta_sim.nb.bots.turn.play_turn`)."""
        from .nb.bots.turn import play_turn as kernel_turn

        seat = deal.current_player
        if seat in self.players:
            play_turn(deal, self.players[seat])
        else:
            kernel_turn(deal._state, deal._r, self.policies, self.params, self.weights, deal._log)


Deal.python_seating = Seated  # Deal.play_turn seats bots written in Python with it


def play_python_deals(table, seeds, dealers, minimums, scores, seatings, deal_rows, side_rows):
    """:func:`canasta_sim.runner.play_deals` for a table with Python bots: every deal is
    dealt and recorded by the same kernels as the chunk kernel's, and its turns are played
    from Python (:class:`Seated`) on a :class:`~canasta_sim.Deal` over the same state, one
    deal after another in this thread.

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
    deal = Deal(table.rules, state)  # no trace: its log has no rows
    for i in range(len(seeds)):
        start_deal_nb(state, rules, seeds[i], dealers[i], minimums[i], deal._log)
        state["sides"][:n_sides, SideSlot.score] = scores[i]
        table_now = seated[int(seatings[i])]
        while state["g"][DealSlot.phase] != Phase.over:
            table_now.play_turn(deal)
        record_deal_nb(state, rules, deal_rows[i], side_rows[i])
