"""Bots written in Python: a seat's observation, the candidates, one answer.

A Python bot is a class with a ``choose(view, choices)`` method (docs/strategy.md). At each of
the two decisions of its turn (docs/analysis.md, "Decisions and candidates": the ``draw``
phase, then the ``play`` phase, the rest of the turn) the engine builds the seat's
:class:`SeatView`, its :class:`~canasta_sim.game.observe.Observation` (what the player may
know: its own hand, the discard pile, the melds, red threes, scores and minimum counts of
every side, every hand's size, the cards known to be in each hand, the stock's size; layout in
``docs/observation.md``) and offers the candidates
(:class:`~canasta_sim.players.choices.Candidate`) of :func:`canasta_sim.players.choices.candidates`
at that decision, the same list ``analyse`` and ``review`` use, as a
:class:`~canasta_sim.players.choices.Choices` sequence listed as the bot reads it; the bot returns
one of them and the engine applies it (:meth:`Candidate.apply`, the deal's own move kernels).

An exception raised inside the bot is re-raised as :class:`~canasta_sim.errors.BotError`
naming the bot's spec, the seat, the decision and the bot's own frames (file and line); an
answer that is not one of the candidates raises :class:`BadChoice`, a ``BotError`` naming the
decision and the legal labels. The bot is loaded from a spec ``py:FILE.py:CLASS``
(:func:`canasta_sim.players.specs.load_class`) and instantiated once per seat for each chunk of
deals; it runs in this Python process only (not on Dask workers, and never inside the kernels, so
it is no rollout bot), so it plays far fewer deals per second than the kernel bots
(docs/strategy.md gives the figures).
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from typing import Any

from .. import cards as C
from ..errors import BotError
from ..game.deals import Deal
from ..game.observe import Observation, observe
from ..game.rules import Rules
from ..nb.enums import BLACK_THREE, DealSlot, Phase, SideSlot
from .choices import Candidate, Choices, NoCandidate


def _old_melds(view: Observation) -> tuple[dict, ...]:
    rows = view.side_melds.tolist()
    return tuple(
        {
            C.KINDS[BLACK_THREE + i]: C.meld_cards(BLACK_THREE + i, *row)
            for i, row in enumerate(rows[(s - view.side) % view.rules.sides])
            if any(row)
        }
        for s in range(view.rules.sides)
    )


def _per_side(view: Observation, values, cast=int) -> tuple:
    return tuple(cast(values[(s - view.side) % view.rules.sides]) for s in range(view.rules.sides))


def _per_seat(view: Observation, values) -> tuple:
    players = view.rules.players
    return tuple(values[(p - view.seat) % players] for p in range(players))


#: SeatView's card-text attributes before the observation (bots version 3): what each returns
#: (the same values as then, sides and seats in table order) and what replaces it.
_OLD_ATTRIBUTES: dict[str, tuple[Callable[[Observation], Any], str]] = {
    "decision": (lambda v: v.phase_label, "phase_label"),
    "hand": (lambda v: C.format_cards(v.hand_counts), "hand_counts"),
    "pile": (lambda v: C.format_sequence(v.pile_codes), "pile_codes"),
    "melds": (_old_melds, "side_melds"),
    "red_threes": (lambda v: _per_side(v, v.side_red_threes), "side_red_threes"),
    "scores": (lambda v: _per_side(v, v.side_scores), "side_scores"),
    "minimums": (lambda v: _per_side(v, v.side_minimums), "side_minimums"),
    "melded": (lambda v: _per_side(v, v.side_melded, bool), "side_melded"),
    "hand_sizes": (lambda v: _per_seat(v, v.seat_hand_sizes.tolist()), "seat_hand_sizes"),
    "known": (
        lambda v: _per_seat(v, [C.format_cards(k) for k in v.seat_known_counts]),
        "seat_known_counts",
    ),
    "stock": (lambda v: v.stock_size, "stock_size"),
}


class SeatView(Observation):
    """What a Python bot's seat knows when it decides: the seat's
    :class:`~canasta_sim.game.observe.Observation` (fields in ``docs/observation.md``; seats
    and sides counted from the seat's own).

    Deprecated: the card-text attributes of the view before the observation (``decision``,
    ``hand``, ``pile``, ``melds``, ``red_threes``, ``scores``, ``minimums``, ``melded``,
    ``hand_sizes``, ``known``, ``stock``; sides and seats in table order) still answer as
    they did, each read with a :class:`DeprecationWarning` naming the field that replaces it.
    ``seat``, ``side``, ``turn`` and ``pile_frozen`` (now 0 or 1) are observation fields.
    """

    def __getattr__(self, name: str) -> Any:
        old = _OLD_ATTRIBUTES.get(name)
        if old is None:
            return super().__getattr__(name)
        value, new = old
        warnings.warn(
            f"SeatView.{name} is deprecated; read the observation's {new} instead "
            f"(docs/observation.md)",
            DeprecationWarning,
            stacklevel=2,
        )
        return value(self)


class BadChoice(BotError):
    """A Python bot answered something that is not one of the candidates offered."""


def view_of(deal: Deal) -> SeatView:
    """The :class:`SeatView` of the seat to play in ``deal`` (draw or play phase)."""
    seat = deal.current_player
    return SeatView(deal.rules, seat, observe(deal.state, deal.rules, seat))


def _ask(bot, deal: Deal, spec: str) -> Candidate:
    """The candidate ``bot`` (of spec ``spec``) chooses at ``deal``'s decision."""
    offered = Choices(deal)
    view = view_of(deal)
    try:
        answer = bot.choose(view, offered)
    except NoCandidate:  # the position's fault, not the bot's
        raise
    # the user's code: its error (sys.exit too: a run would end quietly), with its own frames
    except (Exception, SystemExit) as exc:
        when = f"of seat {view.seat} at the {deal.phase} decision"
        frames = exc.__traceback__.tb_next if exc.__traceback__ is not None else None
        raise BotError.raised(spec, when, exc, frames) from exc
    finally:
        offered.close()  # before the deal moves on: a bot may keep its choices
    if answer in offered:
        return answer
    name = type(answer).__name__
    what = (
        "a Candidate not offered at this decision"
        if isinstance(answer, Candidate)
        else f"{'an' if name[0].lower() in 'aeiou' else 'a'} {name}, not a Candidate"
    )
    raise BadChoice(
        spec,
        f"of seat {view.seat} answered {answer!r} ({what}) to the {deal.phase} decision; "
        f"allowed: one of the candidates {', '.join(repr(c.label) for c in offered)}",
    )


def _spec_of(bot) -> str:
    """``py:FILE.py:CLASS`` of a bot instance (for a bot played without its spec)."""
    cls = type(bot)
    return f"py:{getattr(sys.modules.get(cls.__module__), '__file__', '?')}:{cls.__name__}"


def play_turn(deal: Deal, bot, spec: str | None = None) -> None:
    """Play the current seat's whole turn with the Python ``bot``: its draw-phase candidate,
    then (unless that ended the turn) its play-phase candidate, each applied to ``deal``
    (changed) with the deal's move kernels. ``spec`` names the bot in errors [default:
    ``py:FILE.py:CLASS`` of its class].

    Raises
    ------
    canasta_sim.errors.BotError
        When the bot raises an exception (the message holds the bot's own frames).
    BadChoice
        When the bot answers something that is not one of the candidates.
    canasta_sim.players.choices.NoCandidate
        A ``RuntimeError``, for a position with no legal candidate (one built by hand that
        no legal turn ends).
    """
    spec = spec or _spec_of(bot)
    if deal.phase == "draw":
        _ask(bot, deal, spec).apply(deal)
    if deal.phase == "play":  # the same seat: a draw or pickup that ends the turn ends the deal
        _ask(bot, deal, spec).apply(deal)


# --- whole deals --------------------------------------------------------------------------------
class Seated:
    """The players of one seating for Python-driven play: each seat's :class:`Bot`, an
    instance of every Python bot (one per seat), and the kernel arrays for the others.

    A :class:`~canasta_sim.Deal` plays its turns with it (``deal.play_turn(table)``,
    ``deal.play_out(table)``): Deal builds no Python bot itself, as this module builds on
    Deal (through the candidate layer). Make one with :func:`seated`.
    """

    def __init__(self, bots, players: int):
        from .specs import per_seat, seat_arrays, weight_sets

        self.bots = per_seat(bots, players)
        self.players = {s: b.player() for s, b in enumerate(self.bots) if b.is_python}
        self.policies, self.params = seat_arrays(self.bots, players)
        _, self.weights = weight_sets([self.bots], players, self.params[None])

    def play_turn(self, deal: Deal) -> None:
        """The current seat's whole turn on ``deal`` (its state and trace log): its Python
        bot's (:func:`play_turn`) or its kernel policy's
        (:func:`canasta_sim.nb.bots.turn.play_turn`)."""
        from ..nb.bots.turn import play_turn as kernel_turn

        seat = deal.current_player
        if seat in self.players:
            play_turn(deal, self.players[seat], self.bots[seat].spec)
        else:
            kernel_turn(
                deal.state,
                deal.rules_array,
                self.policies,
                self.params,
                self.weights,
                deal.event_log,
            )


def seated(rules: Rules, bots=None, *, seats=None) -> Seated:
    """The table of one seating, bots written in Python (``py:FILE.py:CLASS``) among them,
    for :meth:`Deal.play_turn <canasta_sim.Deal.play_turn>` and ``play_out``: a new instance
    of every Python bot, which keeps its state while the table plays.

    Parameters
    ----------
    rules : Rules
        The table's rules (its player count and sides).
    bots : str or list of str, optional
        One bot spec for every side or one per side, as for :func:`canasta_sim.simulate`
        (default: the default bot, ``"apprentice"``).
    seats : str or list of str, optional
        One bot spec per seat instead of ``bots`` (partners may differ).

    Raises
    ------
    ValueError
        For a bad bot spec, or both ``bots`` and ``seats``.
    canasta_sim.errors.BotError
        When a Python bot's file or class cannot be loaded or instantiated.
    """
    from .specs import table_bots

    return Seated(table_bots(bots, seats, rules), rules.players)


def play_python_deals(table, seeds, dealers, minimums, scores, seatings, deal_rows, side_rows):
    """:func:`canasta_sim.run.seating.play_deals` for a table with Python bots: every deal is
    dealt and recorded by the same kernels as the chunk kernel's, and its turns are played
    from Python (:class:`Seated`) on a :class:`~canasta_sim.Deal` over the same state, one
    deal after another in this thread.

    Parameters
    ----------
    table : canasta_sim.run.seating.Table
    seeds : ndarray(uint64, (n,))
    dealers : ndarray(int32, (n,))
    minimums, scores : ndarray(int32, (n, sides))
        Minimum counts (R-64) and cumulative scores before the deal (points).
    seatings : ndarray(int32, (n,))
    deal_rows : ndarray(deal_dtype, (n,)), written
    side_rows : ndarray(side_dtype, (n, sides)), written
    """
    from ..nb.engine.deal import start_deal_nb
    from ..nb.engine.state import new_state
    from ..nb.play import record_deal_nb

    rules, players, n_sides = table.rules_array, table.rules.players, table.rules.sides
    seated = [Seated(seating, players) for seating in table.seatings]
    state = new_state()
    deal = Deal(table.rules, state)  # no trace: its log has no rows
    for i in range(len(seeds)):
        start_deal_nb(state, rules, seeds[i], dealers[i], minimums[i], deal.event_log)
        state["sides"][:n_sides, SideSlot.score] = scores[i]
        table_now = seated[int(seatings[i])]
        while state["g"][DealSlot.phase] != Phase.over:
            table_now.play_turn(deal)
        record_deal_nb(state, rules, deal_rows[i], side_rows[i])
