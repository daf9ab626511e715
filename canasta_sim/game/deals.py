"""`Deal`: one deal as a Python object over the same kernels the batch simulator runs.

For tests, debugging, replays and positions built by hand. Moves are validated by the kernels;
an illegal move raises :class:`~canasta_sim.errors.IllegalMove` and leaves the deal unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import numpy as np

from .. import cards as C
from ..errors import IllegalMove, illegal_move
from ..nb.bots.turn import play_turn
from ..nb.engine.deal import start_deal_nb
from ..nb.engine.moves import discard_nb, draw_nb, end_turn_nb, meld_nb, take_pile_nb
from ..nb.engine.rng import DEAL_LIMIT, SEED_SPAN, deal_seed_nb
from ..nb.engine.score import score_nb
from ..nb.engine.state import STATE_DTYPE, StateView, new_state, state_view
from ..nb.enums import (
    BLACK_THREE,
    DEUCE,
    EV_LEN,
    FIRST_NATURAL,
    JOKER,
    LAST_NATURAL,
    SC_LEN,
    DealSlot,
    EndReason,
    MoveError,
    Phase,
    ScorePart,
    SideSlot,
    label,
)
from .layout import card_counts, pack_counts, position_state, side_minimums, side_scores
from .legality import LegalPickup, find_legal_pickups, move_error, step_check_code
from .notation import as_rules, check_int, meld_plan
from .observe import Observation, observe
from .rules import Rules
from .trace import trace_from_log


class Deal:
    """One deal of Canasta under ``rules``.

    Build it with :meth:`new` (shuffled and dealt from a seed) or :meth:`from_position`
    (a position written in card notation). Seats are numbered 0 .. players-1 clockwise; the
    side of seat ``s`` is ``s % rules.sides`` (R-10).
    """

    _deal_seed: np.uint64  # set by :meth:`new`

    def __init__(
        self, rules: Rules, state: np.void, *, trace: bool = False, seed: int = 0, minimums=None
    ):
        self.rules = rules
        self._r = rules.to_array()
        self._state = state  # what the kernels take and change
        self._view = state_view(state, self._r)  # views of it that Python code reads
        self._minimums = minimums
        # cumulative scores before the deal (side -> points), if given
        self._scores: Mapping[int, int] | None = None
        self._seed = seed
        rows = 30 * rules.max_turns + 1000 if trace else 0
        self._log = np.zeros((rows, EV_LEN), np.int32)

    # --- construction ------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        rules: Rules | None = None,
        seed: int = 0,
        *,
        deal: int = 0,
        dealer: int | None = None,
        scores: Mapping[int, int] | None = None,
        trace: bool = False,
    ) -> Deal:
        """Shuffle and deal (R-10..R-16).

        Parameters
        ----------
        rules : Rules or str, optional
            Defaults to ``Rules()`` (classic, 4 players); a str names a preset.
        seed : int
            Master seed (0 .. 2**64-1); with ``deal`` it gives the same deal as deal number
            ``deal`` of a simulation run with this seed.
        deal : int
            Deal index within the run.
        dealer : int, optional
            Dealer's seat; the player to the dealer's left plays first. Default
            ``deal % players``, the dealer of deal ``deal`` of a simulation run.
        scores : mapping side -> points, optional
            Cumulative scores before the deal; they set the minimum counts (R-64), and the
            bots read them (``expert`` goes out when that wins the game, R-55).
        trace : bool
            Record the deal's events (see :meth:`trace`).

        Raises
        ------
        ValueError
            For a seed, deal index or dealer out of range.
        TypeError
            For ``rules`` that are not a Rules or a preset name.
        """
        rules = as_rules(rules)
        check_int("seed", seed, 0, SEED_SPAN - 1)
        check_int("deal", deal, 0, DEAL_LIMIT - 1)
        if dealer is None:
            dealer = deal % rules.players
        check_int("dealer", dealer, 0, rules.players - 1)
        minimums = side_minimums(rules, scores)
        r = rules.to_array()
        state = new_state()
        self = cls(rules, state, trace=trace, seed=seed, minimums=minimums)
        self._scores = scores
        self._deal_seed = np.uint64(deal_seed_nb(np.uint64(seed), np.int64(deal)))
        start_deal_nb(state, r, self._deal_seed, np.int32(dealer), minimums, self._log)
        self._view.sides[:, SideSlot.score] = side_scores(rules, scores)  # what the seats read
        return self

    @classmethod
    def from_position(
        cls,
        rules: Rules | None = None,
        *,
        hands: Iterable[str],
        stock: str,
        pile: str,
        melds: Mapping[int, Iterable[str]] | None = None,
        red_threes: Mapping[int, int] | None = None,
        current: int = 0,
        scores: Mapping[int, int] | None = None,
    ) -> Deal:
        """Build a position by hand, at the start of ``current``'s turn (draw phase).

        Parameters
        ----------
        rules : Rules or str, optional
            As for :meth:`new`.
        hands : list of str
            One card text per seat.
        stock : str
            The stock, first card on top.
        pile : str
            The discard pile, last card on top. It is frozen for everyone if it holds a wild
            card (or a red three with ``red_three_upcard_freezes``), R-13/R-31.
        melds : mapping side -> list of str, optional
            Each side's melds on the table (a side with melds has made its initial meld).
        red_threes : mapping side -> int, optional
            Red threes already laid out by each side (recorded as dealt).
        current : int
            Seat to play.
        scores : mapping side -> points, optional
            Cumulative scores before the deal (minimum counts, R-64; the bots read them).

        Raises
        ------
        ValueError
            On a bad card token, a wrong number of hands, a red three in a hand (they are laid
            out, R-15), more cards of a kind than the pack holds, or an illegal meld on the
            table (the melds of a rank given in several texts are checked together).
        TypeError
            For ``hands`` that is not a list of card texts, or ``melds`` that is not a mapping
            of sides to lists of meld texts.
        """
        rules = as_rules(rules)
        state, minimums = position_state(
            rules,
            hands=hands,
            stock=stock,
            pile=pile,
            melds=melds,
            red_threes=red_threes,
            current=current,
            scores=scores,
        )
        self = cls(rules, state, minimums=minimums)
        self._scores = scores
        return self

    # --- reading the position ------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """Seat whose turn it is."""
        return int(self._g[DealSlot.current])

    @property
    def phase(self) -> str:
        """``"draw"``, ``"play"`` (after drawing or taking the pile) or ``"over"``."""
        return label(Phase, int(self._g[DealSlot.phase]))

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def end_reason(self) -> str | None:
        """``None`` while the deal runs, then ``"went_out"``, ``"stock_exhausted"``,
        ``"last_red_three"`` or ``"turn_limit"``."""
        code = int(self._g[DealSlot.end])
        return None if code == EndReason.none else label(EndReason, code)

    @property
    def turns(self) -> int:
        """Completed turns."""
        return int(self._g[DealSlot.turn])

    @property
    def went_out(self) -> int:
        """Seat that went out, or -1."""
        return int(self._g[DealSlot.out_seat])

    @property
    def concealed_out(self) -> bool:
        """Whether the player who went out did so concealed (R-42)."""
        return bool(self._g[DealSlot.concealed_out])

    def hand(self, seat: int) -> str:
        """Cards in ``seat``'s hand as card text."""
        check_int("seat", seat, 0, self.rules.players - 1)
        return C.format_cards(self._view.hands[seat])

    @property
    def hands(self) -> list[str]:
        return [self.hand(s) for s in range(self.rules.players)]

    @property
    def stock_size(self) -> int:
        return int(self.rules.n_cards - self._g[DealSlot.stock_pos])

    @property
    def pile(self) -> str:
        """The discard pile, bottom first (the last card is the top)."""
        return C.format_sequence(self._view.pile[: int(self._g[DealSlot.pile_len])])

    @property
    def pile_frozen(self) -> bool:
        """Frozen for everyone by a wild card or red three in it (R-31); a side without its
        initial meld finds it frozen anyway."""
        return bool(self._g[DealSlot.pile_freeze] > 0)

    def melds(self, side: int) -> dict[str, str]:
        """The side's melds: rank name -> cards (card text, naturals then wild cards)."""
        check_int("side", side, 0, self.rules.sides - 1)
        out = {}
        md = self._view.melds
        for r in range(BLACK_THREE, LAST_NATURAL + 1):
            nat, deu, jok = (int(x) for x in md[side, r])
            if nat + deu + jok:
                out[C.KINDS[r]] = C.meld_cards(r, nat, deu, jok)
        return out

    def canastas(self, side: int) -> int:
        check_int("side", side, 0, self.rules.sides - 1)
        return int(self._view.sides[side, SideSlot.canastas])

    def red_threes(self, side: int) -> int:
        check_int("side", side, 0, self.rules.sides - 1)
        sd = self._view.sides
        return int(
            sd[side, SideSlot.r3_dealt] + sd[side, SideSlot.r3_drawn] + sd[side, SideSlot.r3_pile]
        )

    def can_take_pile(self) -> bool:
        """Whether the current player may take the pile now: whether some :meth:`take_pile`
        call is legal (R-30..R-35, R-40, R-44, R-64), i.e. :meth:`legal_pickups` is not empty.

        Exact: the engine lists every pickup way with the melds from hand it may need
        (:func:`~canasta_sim.nb.engine.legal.legal_pickups_nb`), judged by the check
        :meth:`take_pile` runs.
        """
        return bool(self.legal_pickups())

    def legal_pickups(self) -> list[LegalPickup]:
        """The legal ways for the current player to take the pile now (R-30..R-35, R-40, R-44,
        R-64), in :data:`~canasta_sim.nb.enums.PickupWay` order: onto the side's meld, with a
        natural pair, with a natural and a deuce, with a natural and a joker. Empty outside
        the draw phase or when the pile cannot be taken.

        Each comes with one legal :meth:`take_pile` call (``take_pile(p.with_, p.melds)``):
        the way's cards alone when they are legal, else with melds from hand that reach the
        minimum count or go out (``needs_melds``).
        """
        return find_legal_pickups(self._state, self._r, self._view)

    def step_error(
        self, step: str, *, way: str = "", melds: Iterable[str] = (), card: str = ""
    ) -> IllegalMove | None:
        """Whether one step of the current player's turn is legal now, without making it: the
        error :meth:`draw`, :meth:`take_pile`, ... would raise (not raised), or None.

        Parameters
        ----------
        step : str
            ``"draw"`` (R-20, R-44); ``"take"``: take the pile in pickup ``way`` with
            ``melds`` from hand laid in the same move (R-30..R-35, R-64); ``"meld"``: lay
            ``melds`` from hand, counted together (R-20, R-22, R-40..R-42, R-60..R-64);
            ``"discard"``: discard ``card`` (R-20, R-40, R-45); ``"go_out"``: lay ``melds``
            (may be none) then discard ``card`` (if given) and so go out (R-22, R-40..R-42,
            R-63); ``"end_deal"``: end the deal without a discard after a last-card red three
            (R-45).
        way : str
            For ``"take"``: ``"onto_meld"``, ``"natural_pair"``, ``"natural_deuce"`` or
            ``"natural_joker"`` (:data:`~canasta_sim.nb.enums.PickupWay`).
        melds : list of str
            Meld texts as for :meth:`meld`.
        card : str
            One card, as for :meth:`discard`.

        Returns
        -------
        IllegalMove or None
            The rule the step breaks (``.rule``, e.g. ``"R-64"``, and the message), or None
            when it is legal.

        Raises
        ------
        ValueError
            For an unknown step or way, or a bad card text.
        """
        return self._error(step_check_code(self._state, self._r, step, way, melds, card))

    def observation(self, seat: int | None = None) -> Observation:
        """What ``seat`` knows now, as the observation array in readable form (an
        :class:`~canasta_sim.game.observe.Observation`; layout in ``docs/observation.md``).

        Parameters
        ----------
        seat : int, optional
            The observer (default: the seat to play).

        Raises
        ------
        ValueError
            For a seat out of range.
        """
        seat = self.current_player if seat is None else seat
        check_int("seat", seat, 0, self.rules.players - 1)
        return Observation(self.rules, seat, observe(self._state, self.rules, seat))

    def info_set(self, seat: int):
        """What ``seat`` knows now: its hand and the public state (an
        :class:`~canasta_sim.InfoSet`, see :mod:`canasta_sim.game.infoset`), built from
        :meth:`observation`.

        Raises
        ------
        ValueError
            For a seat out of range, a deal that is over (no decision left), or a position
            that leaves part of the pack out (the message names the missing cards: an
            information set places every card of the pack).
        """
        from .infoset import InfoSet

        check_int("seat", seat, 0, self.rules.players - 1)
        if self.is_over:
            raise ValueError("phase 'over': the deal is over, no seat has a decision to analyse")
        missing = pack_counts(self.rules) - card_counts(self._view)
        if missing.any():
            raise ValueError(
                f"the position leaves {missing.sum()} cards of the {self.rules.n_cards}-card "
                f"pack out ({C.format_tally(missing)}); an information set places every card "
                f"of the pack: add them to the stock (Deal.from_position(..., stock=...)) or to "
                f"the hands"
            )
        return InfoSet.from_observation(self.observation(seat))

    def copy(self) -> Deal:
        """An independent copy of the deal (state and trace so far): moves on one do not
        change the other."""
        state = np.zeros(1, STATE_DTYPE)
        state[0] = self._state
        other = Deal(self.rules, state[0], seed=self._seed, minimums=self._minimums)
        other._scores = self._scores
        other._log = self._log.copy()
        return other

    # --- moves -------------------------------------------------------------------------------
    def draw(self) -> None:
        """Draw from the stock (R-16, R-20, R-44..R-46); with an empty stock this ends the deal
        unless R-44 forces taking the pile.

        Raises
        ------
        IllegalMove
            Outside the draw phase, or when R-44 forces a pickup.
        """
        self._run(draw_nb(self._state, self._r, self._log))

    def take_pile(self, with_: str = "", melds: Iterable[str] = ()) -> None:
        """Take the discard pile (R-30..R-35).

        Parameters
        ----------
        with_ : str
            Cards from hand melded with the top card (naturals of its rank and wild cards);
            ``""`` puts the top card on the side's existing meld of its rank (R-33 c).
        melds : list of str
            Further melds from hand laid down in the same move, counted toward the minimum
            count together with the top card and ``with_`` (R-64).

        Raises
        ------
        IllegalMove
            If the pickup breaks a rule (the message names it).
        """
        plan = meld_plan(melds)
        top = (
            int(self._view.pile[self._g[DealSlot.pile_len] - 1])
            if self._g[DealSlot.pile_len]
            else -1
        )
        counts = C.parse_cards(with_)
        if counts.any():
            others = counts.copy()
            others[[top, DEUCE, JOKER]] = 0
            if not FIRST_NATURAL <= top <= LAST_NATURAL:
                raise illegal_move(30)  # no pile, or a black three or wild card on top
            if others.any():
                raise IllegalMove(
                    "R-32",
                    f"the cards melded with the top card must be of its "
                    f"rank or wild cards; got {with_!r}",
                )
            plan[top] += [counts[top], counts[DEUCE], counts[JOKER]]
        code = take_pile_nb(self._state, self._r, plan, self._log)
        self._run(code)

    def meld(self, *texts: str) -> None:
        """Meld from hand (R-60..R-64): each text creates or extends the side's meld of its
        rank (a text of wild cards only names its rank with a prefix: ``"K: 2 JK"``). The melds
        of one call count together toward the minimum count.

        Raises
        ------
        IllegalMove
            If the melds break a rule (the message names it).
        """
        self._run(meld_nb(self._state, self._r, meld_plan(texts), self._log))

    def discard(self, card: str) -> None:
        """Discard one card, ending the turn; the last card goes out (R-40).

        Raises
        ------
        IllegalMove
            If the card is not in hand, or going out is not allowed yet.
        """
        kind = C.kind_index(card)
        self._run(discard_nb(self._state, self._r, np.int64(kind), self._log))

    def end_turn(self) -> None:
        """R-45: end the deal without a discard after drawing a red three as the last stock
        card.

        Raises
        ------
        IllegalMove
            In any other position.
        """
        self._run(end_turn_nb(self._state, self._r, self._log))

    def play_turn(self, bots=None, *, seats=None) -> None:
        """Let the bots play the current player's whole turn.

        Parameters
        ----------
        bots : str, list of str or Seated, optional
            One bot spec for every side or one per side, as for :func:`canasta_sim.simulate`
            (default: the default bot, ``"apprentice"``); or a table with bots written in Python
            (:func:`canasta_sim.players.pybot.seated`), which plays its seats' turns.
        seats : str or list of str, optional
            One bot spec per seat instead of ``bots`` (partners may differ).

        Raises
        ------
        IllegalMove
            If the deal is over.
        ValueError
            For a bad bot spec, both ``bots`` and ``seats``, or a bot written in Python given
            by its spec (seat it with :func:`canasta_sim.players.pybot.seated`).
        RuntimeError
            If the bot made no move (a position built by hand that no legal turn can end).
        """
        if self.is_over:
            raise IllegalMove("R-20", "the deal is over")
        self._bot_turn(self._turn_player(bots, seats))

    def play_out(self, bots=None, *, seats=None) -> None:
        """Play turns with the bots (see :meth:`play_turn`) until the deal is over."""
        turn = self._turn_player(bots, seats)
        while not self.is_over:
            self._bot_turn(turn)

    def _bot_turn(self, turn: Callable[[Deal], None]) -> None:
        g = self._g
        before = (g[DealSlot.move], g[DealSlot.turn], g[DealSlot.phase])
        turn(self)
        if (g[DealSlot.move], g[DealSlot.turn], g[DealSlot.phase]) == before:  # would loop for ever
            raise RuntimeError(
                f"the bot of seat {self.current_player} found no legal move in "
                f"this position: {self!r}"
            )

    def _turn_player(self, bots, seats) -> Callable[[Deal], None]:
        """What plays the current seat's turn: a table's own ``play_turn`` (bots written in
        Python: the caller seats them, as the players' layer builds on Deal), else the
        kernel policies of the bot specs."""
        if callable(getattr(bots, "play_turn", None)):
            if seats is not None:
                raise ValueError("a table of bots and seats are both given; allowed: one of them")
            return bots.play_turn
        policies, params, weights = self._bot_arrays(bots, seats)

        def kernel_turn(deal: Deal) -> None:
            play_turn(deal._state, deal._r, policies, params, weights, deal._log)

        return kernel_turn

    def _bot_arrays(self, bots, seats):
        from ..players.specs import seat_arrays, table_bots, weight_sets

        key = tuple(tuple(x) if isinstance(x, (list, tuple)) else x for x in (bots, seats))
        if getattr(self, "_bots_key", object()) != key:
            seated = table_bots(bots, seats, self.rules)  # checks them
            python = [b.spec for b in seated if b.is_python]
            if python:
                raise ValueError(
                    f"bot {python[0]!r} is written in Python: seat it at a table, "
                    f"deal.play_turn(canasta_sim.players.pybot.seated(deal.rules, bots, "
                    f"seats=seats)); allowed as a spec here: the kernel bots"
                )
            self._bots_key = key
            policies, params = seat_arrays(seated, self.rules.players)
            _, weights = weight_sets([seated], self.rules.players, params[None])
            self._bots = policies, params, weights  # the apprentice's weight sets too
        return self._bots

    # --- results -----------------------------------------------------------------------------
    def score(self) -> dict[int, dict[str, int]]:
        """Each side's score parts in points (R-50..R-54): ``red_threes``, ``canasta_bonus``,
        ``going_out_bonus``, ``meld_points``, ``hand_penalty`` (subtracted) and ``total``."""
        out = np.zeros((self.rules.sides, SC_LEN), np.int32)
        score_nb(self._state, self._r, out)
        return {
            side: dict(zip(ScorePart._fields, (int(v) for v in out[side])))
            for side in range(self.rules.sides)
        }

    def trace(self) -> list[dict]:
        """The deal's events as plain dicts (docs/trace.md); needs ``trace=True`` at
        :meth:`new`."""
        if self._log.shape[0] == 0:
            raise ValueError("this deal records no trace; build it with Deal.new(..., trace=True)")
        scores = self.score() if self.is_over else None
        return trace_from_log(self.rules, self._seed, self._view, self._log, self._minimums, scores)

    # --- the kernels' arrays ------------------------------------------------------------------
    # For code that runs the kernels on this deal (the candidate layer, Python bots, tests):
    # the same arrays the deal's own moves use, not copies, so a kernel move changes the deal.
    @property
    def state(self) -> np.void:
        """The deal's state record (one ``STATE_DTYPE`` record,
        :mod:`canasta_sim.nb.engine.state`): what the move kernels take and change."""
        return self._state

    @property
    def rules_array(self) -> np.ndarray:
        """The rules in the kernels' form: ``ndarray(int32, (RULES_LEN,))``, slots
        :data:`~canasta_sim.nb.enums.RuleSlot` (:meth:`Rules.to_array`)."""
        return self._r

    @property
    def view(self) -> StateView:
        """Named NumPy views of :attr:`state` cut to the table's size (hands, stock, pile,
        melds, sides, seats, ``g`` the deal slots :data:`~canasta_sim.nb.enums.DealSlot`)."""
        return self._view

    @property
    def event_log(self) -> np.ndarray:
        """The log the kernels write the deal's events to: ``ndarray(int32, (rows, EV_LEN))``,
        no rows unless the deal was built with ``trace=True`` (docs/trace.md)."""
        return self._log

    # --- internals ---------------------------------------------------------------------------
    @property
    def _g(self):
        return self._view.g

    def _run(self, code: int) -> None:
        error = self._error(code)
        if error is not None:
            raise error

    def _error(self, code: int) -> IllegalMove | None:
        """The :class:`IllegalMove` of a move kernel's MoveError ``code``, or None for ``ok``."""
        if code == MoveError.ok:
            return None
        return move_error(int(code), self._view, self.rules)

    def __repr__(self) -> str:
        return (
            f"Deal(players={self.rules.players}, current={self.current_player}, "
            f"phase={self.phase!r}, stock={self.stock_size}, pile={self.pile!r})"
        )


def trace_deal(rules: Rules, bots, seed: int, deal: int, *, seats=None, scores=None) -> list[dict]:
    """Replay deal number ``deal`` of a run with master seed ``seed`` (same dealer, seeding
    and bots as :func:`canasta_sim.simulate`) and return its trace (docs/trace.md).

    Parameters
    ----------
    rules : Rules
    bots : str, list of str or Seated
        As for :func:`canasta_sim.simulate`, or a table with bots written in Python
        (:func:`canasta_sim.players.pybot.seated`).
    seed, deal : int
    seats : str or list of str, optional
        One bot per seat instead of ``bots``, as for :func:`canasta_sim.simulate`.
    scores : list of int, optional
        Each side's cumulative score before the deal (points), as for
        :func:`canasta_sim.simulate`.
    """
    given = None if scores is None else dict(enumerate(scores))
    d = Deal.new(rules, seed, deal=deal, dealer=deal % rules.players, scores=given, trace=True)
    d.play_out(bots, seats=seats)
    return d.trace()
