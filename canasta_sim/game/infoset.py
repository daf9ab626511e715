"""What one seat knows at a decision: the information set, and worlds sampled from it.

An :class:`InfoSet` holds the public part of a deal (the discard pile, every side's melds and
red threes, the scores, every hand's size, the stock's size, whose turn and phase, the cards
known to be in each hand) plus the observer's own hand, and nothing else. It is made from a live
deal (:meth:`canasta_sim.Deal.info_set`) or from a position file (:meth:`InfoSet.from_file`,
format in ``docs/analysis.md``).

:meth:`InfoSet.sample_worlds` fills the hidden cards (the other hands' unknown cards and the
stock order) exactly, without rejection: known cards are placed first and the unseen cards are
shuffled into the remaining places. Red threes are never held (R-15, R-16), so unseen red threes
only ever go to the stock. The sampler reads only the information set.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .. import cards as C
from ..nb.engine.deal import freezes_pile_nb
from ..nb.engine.rng import SEED_SPAN, deal_seeds_nb
from ..nb.engine.state import STATE_DTYPE, new_state, recount_nb
from ..nb.enums import (
    BLACK_THREE,
    DEUCE,
    JOKER,
    LAST_NATURAL,
    N_KINDS,
    RED_THREE,
    DealSlot,
    MeldCol,
    MeldFlag,
    Phase,
    SeatSlot,
    SideSlot,
)
from ..nb.rollout import strata_nb, worlds_nb
from ..nb.worlds import STRATA_OFF
from .layout import pack_counts
from .notation import check_int, is_legal_meld, meld_plan, minimum_count
from .observe import Observation, observe
from .positions import PHASES, check_upcard, position_fields, read_position
from .rules import Rules
from .strata import top_card_weights


@dataclass(frozen=True)
class InfoSet:
    """What seat ``seat`` knows: its own hand and the public state of the deal.

    Card fields are card text (``canasta_sim.cards``); ``*_counts`` properties give the count
    arrays. Sides are numbered ``seat % sides`` (R-10), lists indexed by side or by seat.

    Attributes
    ----------
    rules : Rules
    seat : int
        The observer.
    current : int
        Seat to play.
    phase : str
        ``"draw"`` (the turn's first move: draw or take the pile) or ``"play"`` (after it:
        meld, discard or go out).
    hand : str
        The observer's hand.
    pile : str
        The discard pile, bottom first (the last card is the top), R-30.
    melds : tuple of tuple of str
        Per side, its melds on the table (one text per rank, naturals then wild cards).
    red_threes : tuple of int
        Per side, red threes laid out (R-50).
    scores : tuple of int
        Per side, cumulative score before this deal (points); sets the minimum counts (R-64).
    hand_sizes : tuple of int
        Cards in each seat's hand.
    stock_size : int
        Cards left in the stock.
    known : tuple of str
        Per seat, cards known to be in its hand: taken with the pile and not since melded or
        discarded (``""`` for the observer, whose whole hand is known).
    turn : int
        Completed turns in this deal (R-47 counts them).
    first_meld_turns : tuple of int
        Per seat, the turn of its first meld in this deal, ``-1`` if none (R-42).
    melds_this_turn : tuple of str
        Play phase: ranks of the current side's melds started this turn (R-42, R-66).
    pile_melds : tuple of str
        Play phase: those of them holding cards taken with the pile (never concealed, R-66).
    concealed_canastas : tuple of tuple of str
        Per side, ranks of its concealed canastas (R-66).
    touched_old : bool
        Play phase: the current player added to a meld made before this turn (R-42).
    from_pile : str
        Play phase: cards taken with the pile this turn and still in hand (R-66).
    last_red_three : bool
        Play phase: the player drew a red three as the last stock card (R-45).
    upcard_cards : int
        The count of cards turned to start the pile (R-12): while the pile has not been
        taken, its bottom cards; bots read the pile's history with it.
    """

    rules: Rules
    seat: int
    current: int
    phase: str
    hand: str
    pile: str
    melds: tuple[tuple[str, ...], ...]
    red_threes: tuple[int, ...]
    scores: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    known: tuple[str, ...]
    turn: int = 0
    first_meld_turns: tuple[int, ...] = ()
    melds_this_turn: tuple[str, ...] = ()
    pile_melds: tuple[str, ...] = ()
    concealed_canastas: tuple[tuple[str, ...], ...] = ()
    touched_old: bool = False
    from_pile: str = ""
    last_red_three: bool = False
    upcard_cards: int = 0
    _public: bytes = field(default=b"", repr=False, compare=False)

    def __post_init__(self):
        _validate(self)
        _normalise(self)
        object.__setattr__(self, "_public", _public_state(self).tobytes())

    # --- construction ------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: Mapping) -> InfoSet:
        """An information set from a position mapping (the parsed TOML or JSON of a position
        file; keys in ``docs/analysis.md``; parsed by :mod:`canasta_sim.game.positions`).

        Raises
        ------
        ValueError
            On an unknown or missing key, a bad card text, a position that breaks the pack or
            leaves part of it out (the message names the cards and how to complete it), or a
            phase with no decision; the message names the value.
        """
        info = cls(**position_fields(data))
        check_upcard(info)
        return info

    @classmethod
    def from_observation(cls, observation: Observation) -> InfoSet:
        """The information set of an observation (:meth:`canasta_sim.Deal.observation`): the
        same knowledge in card text, in seat and side order; ``from_observation(info
        .observation()) == info``.

        Raises
        ------
        ValueError
            For an observation of a deal that is over (no decision left), or one that breaks
            the pack (as the constructor).
        """
        return _from_observation(observation)

    @classmethod
    def from_file(cls, path) -> InfoSet:
        """Read a position file: TOML (``.toml``) or JSON (``.json``)
        (:func:`canasta_sim.game.positions.read_position`).

        Raises
        ------
        ValueError
            As :meth:`from_dict`, or for a file that is not valid TOML/JSON (the message names
            the file).
        """
        return cls.from_dict(read_position(path))

    # --- derived values ----------------------------------------------------------------------
    @property
    def side(self) -> int:
        """The observer's side (R-10)."""
        return self.seat % self.rules.sides

    # the card texts are parsed once (building an information set reads them a few dozen
    # times); the arrays are read-only, since the information set is a value
    @cached_property
    def hand_counts(self) -> np.ndarray:
        """The observer's hand, ``ndarray(int8, (N_KINDS,))``, read-only."""
        return _read_only(C.parse_cards(self.hand))

    @cached_property
    def pile_codes(self) -> np.ndarray:
        """The pile's kind codes, bottom first, ``ndarray(int8, (pile size,))``, read-only."""
        return _read_only(C.parse_sequence(self.pile))

    @cached_property
    def known_counts(self) -> np.ndarray:
        """Known cards per seat, ``ndarray(int8, (players, N_KINDS))``, read-only."""
        return _read_only(np.stack([C.parse_cards(t) for t in self.known]))

    @property
    def unseen_counts(self) -> np.ndarray:
        """Cards of each kind the observer cannot place: in the stock or among the unknown
        cards of the other hands, ``ndarray(int64, (N_KINDS,))``."""
        return pack_counts(self.rules) - _seen(self)

    @property
    def frozen(self) -> bool:
        """The pile is frozen for everyone: it holds a wild card (or a red three, R-13), R-31.
        A side without its initial meld finds it frozen anyway (R-32)."""
        r = self.rules.to_array()
        return any(freezes_pile_nb(int(k), r) for k in self.pile_codes)

    @property
    def blocked(self) -> bool:
        """A black three on top blocks the pile for the next player (R-23, R-30)."""
        codes = self.pile_codes
        return bool(len(codes) and codes[-1] == BLACK_THREE)

    @property
    def dealer(self) -> int:
        """The dealer's seat: the player to the dealer's left played turn 0 (R-11)."""
        return (self.current - 1 - self.turn) % self.rules.players

    def observation(self) -> Observation:
        """The observation of this information set: the kernel's array
        (:func:`~canasta_sim.nb.engine.observation.observe_nb`) over :meth:`public_state` with
        the scores. ``InfoSet.from_observation(info.observation()) == info``, and for a live
        deal ``deal.info_set(seat).observation() == deal.observation(seat)``."""
        state = self.public_state()
        state["sides"][: self.rules.sides, SideSlot.score] = self.scores
        return Observation(self.rules, self.seat, observe(state, self.rules, self.seat))

    def public_state(self) -> np.void:
        """A kernel state (record of ``STATE_DTYPE``) holding this information set: the public
        fields, the observer's hand and the known cards; the other hands' unknown cards and
        the stock are empty. A fresh copy on every call."""
        return np.frombuffer(self._public, STATE_DTYPE).copy()[0]

    # --- worlds ------------------------------------------------------------------------------
    def sample_worlds(self, n: int, seed: int = 0, *, start: int = 0, stratify: bool = True):
        """Worlds ``start .. start + n - 1``: the hidden cards filled in, exactly and without
        rejection.

        World ``i`` depends only on this information set, ``seed`` and ``i`` (its own
        splitmix64 stream seeded by ``(seed, i)``, as deals are), so worlds do not depend on how
        a run asks for them. With ``stratify``, the kind of the next stock card follows a
        fixed low-discrepancy sequence over the world indices with the exact probabilities
        of each kind on top of the stock, so that every prefix ``0 .. m - 1`` holds each kind
        within one world of its expected share; the other cards are then shuffled given it.

        Parameters
        ----------
        n : int
            Number of worlds (1 .. 10,000,000).
        seed : int
            Master seed (0 .. 2**64 - 1).
        start : int
            Index of the first world.
        stratify : bool
            Stratify the next stock card (off: every world is a plain uniform shuffle).

        Returns
        -------
        Worlds

        Raises
        ------
        ValueError
            For ``n``, ``seed`` or ``start`` out of range.
        """
        check_int("n", n, 1, 10_000_000)
        check_int("seed", seed, 0, SEED_SPAN - 1)
        check_int("start", start, 0, 2**40)
        players = self.rules.players
        known = self.known_counts.astype(np.int8)
        slots = np.array(self.hand_sizes, np.int64) - known.sum(axis=1)
        slots[self.seat] = 0
        base = known.copy()
        base[self.seat] = self.hand_counts
        unseen = self.unseen_counts
        weights = top_card_weights(unseen, self.stock_size) if stratify else None
        first = np.full(n, STRATA_OFF, np.int8)
        if weights is not None:
            strata_nb(weights, np.int64(start), first)
        seeds = deal_seeds_nb(np.uint64(seed), np.int64(start), np.int64(n))
        hands = np.empty((n, players, N_KINDS), np.int8)
        stock = np.empty((n, self.stock_size), np.int8)
        worlds_nb(unseen, slots, base, first, seeds, hands, stock)
        return Worlds(self, start, seeds, first, hands, stock)


@dataclass(frozen=True)
class Worlds:
    """Sampled worlds of an information set (:meth:`InfoSet.sample_worlds`).

    Attributes
    ----------
    info_set : InfoSet
    start : int
        Index of the first world.
    seeds : ndarray(uint64, (n,))
        Each world's seed; the sampler's stream starts from it and the bots' random stream in
        a rollout from ``mix64(seed)`` (:mod:`canasta_sim.nb.rollout`).
    first_kind : ndarray(int8, (n,))
        The stratum: the kind put on top of the stock, or -1 when not stratified.
    hands : ndarray(int8, (n, players, N_KINDS))
        Every hand, the observer's included.
    stock : ndarray(int8, (n, stock_size))
        The stock, top card first.
    """

    info_set: InfoSet
    start: int
    seeds: np.ndarray
    first_kind: np.ndarray
    hands: np.ndarray
    stock: np.ndarray

    def __len__(self) -> int:
        return len(self.seeds)


# --- from and to the observation -------------------------------------------------------------
def _from_observation(obs: Observation) -> InfoSet:
    """The information set of an observation (:meth:`InfoSet.from_observation`): the
    seat-relative rows of the array put back in seat and side order."""
    rules, seat = obs.rules, obs.seat
    players, sides = rules.players, rules.sides
    if obs.phase == Phase.over:
        raise ValueError("phase 'over': the deal is over, no seat has a decision to analyse")
    by_seat = [(p - seat) % players for p in range(players)]  # row of each seat
    by_side = [(s - obs.side) % sides for s in range(sides)]
    current = obs.seat_of(obs.current)
    cur_row = obs.current % sides  # the side to play, counted from the observer's

    def plan(j: int) -> np.ndarray:
        md = np.zeros((N_KINDS, 3), np.int64)
        md[BLACK_THREE : LAST_NATURAL + 1] = obs.side_melds[j]
        return md

    def ranks(flags) -> tuple[str, ...]:
        return tuple(C.KINDS[BLACK_THREE + int(i)] for i in np.nonzero(flags)[0])

    known = [C.format_cards(obs.seat_known_counts[i]) for i in by_seat]
    return InfoSet(
        rules=rules,
        seat=seat,
        current=current,
        phase=PHASES[obs.phase],
        hand=C.format_cards(obs.hand_counts),
        pile=C.format_sequence(obs.pile_codes),
        melds=tuple(_meld_texts(plan(j)) for j in by_side),
        red_threes=tuple(int(obs.side_red_threes[j]) for j in by_side),
        scores=tuple(int(obs.side_scores[j]) for j in by_side),
        hand_sizes=tuple(int(obs.seat_hand_sizes[i]) for i in by_seat),
        stock_size=obs.stock_size,
        known=tuple(known),
        turn=obs.turn,
        first_meld_turns=tuple(int(obs.seat_first_meld_turns[i]) for i in by_seat),
        melds_this_turn=ranks(obs.side_melds_this_turn[cur_row]),
        pile_melds=ranks(obs.side_pile_melds[cur_row]),
        concealed_canastas=tuple(ranks(obs.side_concealed_canastas[j]) for j in by_side),
        touched_old=bool(obs.touched_old),
        from_pile=C.format_cards(obs.from_pile_counts),
        last_red_three=bool(obs.last_red_three),
        upcard_cards=obs.upcard_cards,
    )


# --- validation and the kernel state ---------------------------------------------------------
def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


def _meld_plan(info: InfoSet, side: int) -> np.ndarray:
    """The side's melds as a plan (``int8[N_KINDS, 3]``, read-only), parsed once per
    information set."""
    plans = info.__dict__.setdefault("_meld_plans", {})  # beside the frozen fields
    if side not in plans:
        try:
            plans[side] = _read_only(meld_plan(info.melds[side]))
        except ValueError as exc:
            raise ValueError(f"melds[{side}]: {exc}") from None
    return plans[side]


def _seen(info: InfoSet) -> np.ndarray:
    """Cards of each kind the observer can place (int64[N_KINDS]): own hand, known cards,
    pile, melds and red threes."""
    seen = info.hand_counts.astype(np.int64) + info.known_counts.sum(axis=0)
    seen += np.bincount(info.pile_codes, minlength=N_KINDS)
    for s in range(info.rules.sides):
        md = _meld_plan(info, s).astype(np.int64)
        seen[BLACK_THREE : LAST_NATURAL + 1] += md[BLACK_THREE : LAST_NATURAL + 1, 0]
        seen[DEUCE] += md[:, MeldCol.deuces].sum()
        seen[JOKER] += md[:, MeldCol.jokers].sum()
    seen[RED_THREE] += sum(info.red_threes)
    return seen


def _check_card_texts(info: InfoSet) -> None:
    """Each card text parses; a bad token is named with its key (``hand='9 X': ...``)."""
    texts = [("hand", info.hand, C.parse_cards), ("pile", info.pile, C.parse_sequence)]
    texts += [(f"known[{p}]", t, C.parse_cards) for p, t in enumerate(info.known)]
    texts.append(("from_pile", info.from_pile, C.parse_cards))
    for key, text, parse in texts:
        try:
            parse(text)
        except ValueError as exc:
            raise ValueError(f"{key}={text!r}: {exc}") from None


def _validate(info: InfoSet) -> None:
    """Check every field and the whole position; the first broken check raises."""
    _check_shape(info)
    _check_card_texts(info)
    _check_hands(info)
    _check_sides(info)
    rules = info.rules
    check_int("stock", info.stock_size, 0, rules.n_cards)
    check_int("turn", info.turn, 0, rules.max_turns - 1)
    check_int("upcard_cards", info.upcard_cards, 0, rules.n_cards)
    _check_pile_red_threes(info)
    for s, ranks in enumerate(info.concealed_canastas):
        _check_concealed(info, s, ranks)
    _check_places(info)
    _check_turn_so_far(info)


def _check_shape(info: InfoSet) -> None:
    """The rules, the seats and the phase, and one entry per side or seat in each list."""
    rules = info.rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, not {rules!r}")
    players, sides = rules.players, rules.sides
    check_int("seat", info.seat, 0, players - 1)
    check_int("current", info.current, 0, players - 1)
    if info.phase not in PHASES:
        raise ValueError(
            f"phase={info.phase!r} has no decision to analyse; allowed: {', '.join(PHASES)}"
        )
    for name, n, what in (
        ("melds", sides, "side"),
        ("red_threes", sides, "side"),
        ("scores", sides, "side"),
        ("hand_sizes", players, "seat"),
        ("known", players, "seat"),
    ):
        if len(getattr(info, name)) != n:
            raise ValueError(f"{name}={getattr(info, name)!r} needs one entry per {what} ({n})")
    if info.first_meld_turns and len(info.first_meld_turns) != players:
        raise ValueError(f"first_meld_turns={info.first_meld_turns!r} needs one entry per seat")
    if info.concealed_canastas and len(info.concealed_canastas) != sides:
        raise ValueError(f"concealed_canastas={info.concealed_canastas!r} needs one entry per side")


def _check_hands(info: InfoSet) -> None:
    """Every hand's size, the observer's hand and the cards known in the other hands."""
    n_cards = info.rules.n_cards
    for p, size in enumerate(info.hand_sizes):
        check_int(f"hand_sizes[{p}]", size, 0, n_cards)
        if size == 0:
            raise ValueError(
                f"hand_sizes[{p}]=0: a player without cards has gone out (R-40) and the deal "
                f"is over; allowed: 1 to {n_cards} cards in every hand"
            )
    hand = info.hand_counts
    if hand[RED_THREE]:
        raise ValueError(
            f"hand={info.hand!r} holds a red three; red threes are laid out (R-15), give them "
            f"as red_threes"
        )
    if hand.sum() != info.hand_sizes[info.seat]:
        raise ValueError(
            f"hand={info.hand!r} has {hand.sum()} cards but hand_sizes[{info.seat}]="
            f"{info.hand_sizes[info.seat]}"
        )
    for p, (text, counts) in enumerate(zip(info.known, info.known_counts)):
        if p == info.seat and counts.any():
            raise ValueError(f"known[{p}]={text!r}: the observer's own hand is given as hand")
        if counts[RED_THREE]:
            raise ValueError(f"known[{p}]={text!r} holds a red three; red threes are never held")
        size = info.hand_sizes[p]
        check_int(f"hand_sizes[{p}]", size, 0, n_cards)
        if counts.sum() > size:
            raise ValueError(
                f"known[{p}]={text!r} has {counts.sum()} cards but hand_sizes[{p}]={size}"
            )


def _check_sides(info: InfoSet) -> None:
    """Each side's red threes and score, and its melds legal on the table (R-60, R-61,
    R-63)."""
    rules = info.rules
    for s in range(rules.sides):
        check_int(f"red_threes[{s}]", info.red_threes[s], 0, rules.n_cards // 27)
        check_int(f"scores[{s}]", info.scores[s], -(2**31), 2**31 - 1)
        md = _meld_plan(info, s)
        for rank in np.nonzero(md.any(axis=1))[0]:
            counts = np.zeros(N_KINDS, np.int8)
            counts[[int(rank), DEUCE, JOKER]] = md[rank]
            if not is_legal_meld(counts, rules):
                raise ValueError(
                    f"melds[{s}]: {C.format_cards(counts)!r} is not a legal meld on the "
                    f"table (R-60, R-61, R-63)"
                )


def _check_places(info: InfoSet) -> None:
    """The pack: no more cards of a kind in view than it holds, and a place out of view (the
    other hands' unknown cards, the stock) for each card it holds out of view."""
    seen = _seen(info)
    pack = pack_counts(info.rules)
    for k in np.nonzero(seen > pack)[0]:
        raise ValueError(
            f"the position breaks the pack: it shows {seen[k]} cards of kind {C.KINDS[k]}, "
            f"the {info.rules.n_cards}-card pack has {pack[k]}"
        )
    unseen = pack - seen
    hidden = sum(info.hand_sizes) - info.hand_sizes[info.seat] - info.known_counts.sum()
    if hidden + info.stock_size != unseen.sum():
        raise ValueError(_places_message(info, unseen, hidden))
    if unseen[RED_THREE] > info.stock_size:
        raise ValueError(
            f"{unseen[RED_THREE]} red threes are not in view but the stock holds only "
            f"{info.stock_size} cards; red threes are never held (R-15, R-16): give them as "
            f"red_threes"
        )


def _check_turn_so_far(info: InfoSet) -> None:
    """What the turn being played did (melds made, pile cards, a last-card red three):
    given only in the play phase, its melds among the side's."""
    cur_side = info.current % info.rules.sides
    for name in ("melds_this_turn", "pile_melds"):
        ranks = getattr(info, name)
        if ranks and info.phase != "play":
            raise ValueError(f"{name}={list(ranks)!r} is only allowed in the play phase")
        md = _meld_plan(info, cur_side)
        for text in ranks:
            if not md[C.kind_index(text)].any():
                raise ValueError(
                    f"{name}: the side to play (side {cur_side}) has no meld of rank {text!r}"
                )
    for attr in ("touched_old", "last_red_three"):
        if getattr(info, attr) and info.phase != "play":
            raise ValueError(f"{attr}=true is only allowed in the play phase")
    if info.from_pile and info.phase != "play":
        raise ValueError(f"from_pile={info.from_pile!r} is only allowed in the play phase")


def _places_message(info: InfoSet, unseen: np.ndarray, hidden: int) -> str:
    """Why the places out of view (the other hands' unknown cards plus the stock) do not
    match the cards of the pack out of view, and how to complete the pack."""
    n, stock = int(unseen.sum()), info.stock_size
    short = n - (hidden + stock)  # > 0: cards of the pack with no place
    if short > 0:
        fix = f"it leaves {_cards(short)} of the pack out: give stock = {stock + short}"
    elif stock + short >= 0:
        fix = f"it has {_places(-short)} too many: give stock = {stock + short}"
    else:
        fix = f"it has {_places(-short)} too many: give stock = 0 and "
        fix += f"{_cards(-short - stock)} fewer in the other hands"
    return (
        f"hand sizes {list(info.hand_sizes)} and stock size {stock} disagree with the pack: "
        f"{n} of the {info.rules.n_cards} cards are not in view ({C.format_tally(unseen)}), "
        f"but the other hands' unknown cards plus the stock make {hidden + stock} places; "
        f"{fix} (or change the other hands' sizes by the difference), so that every card of "
        f"the pack has a place"
    )


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _places(n: int) -> str:
    return f"{n} place" if n == 1 else f"{n} places"


def _check_pile_red_threes(info: InfoSet) -> None:
    """R-12, R-14: a red three is in the pile only as one of the cards turned to start it,
    under the upcard (red threes drawn are laid out, R-15, R-16, so none is discarded)."""
    for i in np.nonzero(info.pile_codes == RED_THREE)[0]:
        if i >= info.upcard_cards - 1:
            raise ValueError(
                f"pile={info.pile!r} has a red three at place {i + 1} from the bottom but "
                f"upcard_cards={info.upcard_cards}: a red three is in the pile only among the "
                f"cards turned to start it, under the upcard (R-12, R-14); give upcard_cards"
            )


def _check_concealed(info: InfoSet, side: int, ranks) -> None:
    """Each concealed canasta (R-66) is a meld of the side with at least 7 cards (R-65)."""
    md = _meld_plan(info, side)
    for text in ranks:
        try:
            rows = md[C.kind_index(text)]
        except ValueError as exc:
            raise ValueError(f"concealed_canastas[{side}]: {exc}") from None
        if not rows.any():
            raise ValueError(
                f"concealed_canastas[{side}]: side {side} has no meld of rank {text!r}"
            )
        if rows.sum() < 7:
            raise ValueError(
                f"concealed_canastas[{side}]: side {side}'s meld of rank {text!r} has "
                f"{rows.sum()} cards; a canasta has at least 7 (R-65)"
            )


def _meld_texts(plan) -> tuple[str, ...]:
    """One text per meld of a side's table (``int[N_KINDS, 3]``): naturals, deuces, jokers."""
    return tuple(
        " ".join([C.KINDS[r]] * int(nat) + ["2"] * int(deu) + ["JK"] * int(jok))
        for r, (nat, deu, jok) in enumerate(plan)
        if nat + deu + jok
    )


def _normalise(info: InfoSet) -> None:
    """Write the card fields in one spelling (kinds in count-array order, melds as naturals
    then wild cards), so that the same knowledge compares equal however it was written."""
    put = object.__setattr__
    put(info, "hand", C.format_cards(C.parse_cards(info.hand)))
    put(info, "pile", C.format_sequence(C.parse_sequence(info.pile)))
    put(info, "known", tuple(C.format_cards(C.parse_cards(t)) for t in info.known))
    put(info, "from_pile", C.format_cards(C.parse_cards(info.from_pile)))
    put(info, "melds", tuple(_meld_texts(_meld_plan(info, s)) for s in range(info.rules.sides)))
    for name in ("melds_this_turn", "pile_melds"):
        put(info, name, tuple(C.KINDS[C.kind_index(k)] for k in getattr(info, name)))
    if info.concealed_canastas:
        put(
            info,
            "concealed_canastas",
            tuple(
                tuple(C.KINDS[C.kind_index(k)] for k in side) for side in info.concealed_canastas
            ),
        )


def _public_state(info: InfoSet) -> np.ndarray:
    """The kernel state of an information set, as a one-element array (see
    :meth:`InfoSet.public_state`)."""
    rules = info.rules
    r = rules.to_array()
    state = new_state()
    players, sides, turn = rules.players, rules.sides, info.turn
    state["hands"][info.seat] = info.hand_counts
    state["known"][:players] = info.known_counts
    pile = info.pile_codes
    state["pile"][: len(pile)] = pile
    g = state["g"]
    g[DealSlot.pile_len] = len(pile)
    g[DealSlot.pile_freeze] = sum(bool(freezes_pile_nb(int(k), r)) for k in pile)
    g[DealSlot.stock_pos] = rules.n_cards - info.stock_size
    g[DealSlot.current] = info.current
    g[DealSlot.phase] = PHASES.index(info.phase)
    g[DealSlot.turn] = turn
    g[DealSlot.dealer] = info.dealer
    g[DealSlot.upcard_cards] = info.upcard_cards
    g[DealSlot.touched_old] = int(info.touched_old)
    g[DealSlot.last_red_three] = int(info.last_red_three)
    g[DealSlot.pile_cards : DealSlot.pile_cards + N_KINDS] = C.parse_cards(info.from_pile)
    sd = state["sides"]
    minimums = [int(minimum_count(s, rules)) for s in info.scores]
    cur_side = info.current % sides
    this_turn = {C.kind_index(k) for k in info.melds_this_turn}
    pile_melds = {C.kind_index(k) for k in info.pile_melds}
    for s in range(sides):
        md = _meld_plan(info, s)
        state["melds"][s] = md
        for k in np.nonzero(md.any(axis=1))[0]:
            new = s == cur_side and k in this_turn
            state["meld_turn"][s, k] = turn if new else turn - 1
            if s == cur_side and k in pile_melds:
                state["meld_flags"][s, k] |= MeldFlag.pile_cards
        for text in info.concealed_canastas[s] if info.concealed_canastas else ():
            state["meld_flags"][s, C.kind_index(text)] |= MeldFlag.concealed
        sd[s, SideSlot.melded] = int(md.any())
        sd[s, SideSlot.r3_dealt] = info.red_threes[s]
        sd[s, SideSlot.minimum] = minimums[s]
    if info.first_meld_turns:
        state["seats"][:players, SeatSlot.first_meld_turn] = info.first_meld_turns
    if any((_meld_plan(info, s).sum(axis=1) >= 7).any() for s in range(sides)):
        g[DealSlot.first_canasta_turn] = max(turn - 1, 0)
    recount_nb(state, r)
    state["hand_sizes"][:players] = info.hand_sizes
    return np.array([state])
