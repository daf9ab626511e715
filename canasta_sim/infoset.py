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

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import cards as C
from .nb.engine.deal import freezes_pile_nb, is_upcard_cover_nb
from .nb.engine.rng import deal_seeds_nb
from .nb.engine.state import STATE_DTYPE, new_state, recount_nb
from .nb.enums import (
    BLACK_THREE,
    DEUCE,
    JOKER,
    LAST_NATURAL,
    N_KINDS,
    RED_THREE,
    STRATA_OFF,
    DealSlot,
    MeldCol,
    MeldFlag,
    Phase,
    SeatSlot,
    SideSlot,
)
from .nb.rollout import strata_nb, worlds_nb
from .notation import check_int, is_legal_meld, meld_plan, minimum_count
from .rules import PLAYER_TABLE, Rules

try:
    import tomllib
except ImportError:  # Python 3.10: positions in JSON only
    tomllib = None  # type: ignore[assignment,unused-ignore]

PHASES = ("draw", "play")


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
        file; keys in ``docs/analysis.md``).

        Raises
        ------
        ValueError
            On an unknown or missing key, a bad card text, a position that breaks the pack,
            hand sizes that disagree with the stock size, or a phase with no decision; the
            message names the value.
        """
        return _from_dict(data)

    @classmethod
    def from_file(cls, path) -> InfoSet:
        """Read a position file: TOML (``.toml``) or JSON (``.json``).

        Raises
        ------
        ValueError
            As :meth:`from_dict`, or for a file that is not valid TOML/JSON (the message names
            the file).
        """
        path = Path(path)
        text = path.read_text()
        is_json = path.suffix.lower() == ".json"
        if not is_json and tomllib is None:
            raise ValueError(f"{path}: TOML positions need Python 3.11 or later; use JSON")
        try:
            data = json.loads(text) if is_json else tomllib.loads(text)
        except (ValueError, json.JSONDecodeError) as exc:  # TOMLDecodeError is a ValueError
            raise ValueError(f"{path}: not a valid position file: {exc}") from None
        return cls.from_dict(data)

    # --- derived values ----------------------------------------------------------------------
    @property
    def side(self) -> int:
        """The observer's side (R-10)."""
        return self.seat % self.rules.sides

    @property
    def hand_counts(self) -> np.ndarray:
        """The observer's hand, ``ndarray(int8, (N_KINDS,))``."""
        return C.parse_cards(self.hand)

    @property
    def pile_codes(self) -> np.ndarray:
        """The pile's kind codes, bottom first, ``ndarray(int8, (pile size,))``."""
        return C.parse_sequence(self.pile)

    @property
    def known_counts(self) -> np.ndarray:
        """Known cards per seat, ``ndarray(int8, (players, N_KINDS))``."""
        return np.stack([C.parse_cards(t) for t in self.known])

    @property
    def unseen_counts(self) -> np.ndarray:
        """Cards of each kind the observer cannot place: in the stock or among the unknown
        cards of the other hands, ``ndarray(int64, (N_KINDS,))``."""
        return _pack(self.rules) - _seen(self)

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
        check_int("seed", seed, 0, 2**64 - 1)
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


def top_card_weights(unseen: np.ndarray, stock_size: int) -> np.ndarray | None:
    """Probability of each kind being the top stock card given the unseen counts: red threes
    lie only in the stock (R-15, R-16), the other unseen cards spread evenly over the free
    places of hands and stock. ``None`` for an empty stock (nothing to stratify).

    Returns
    -------
    ndarray(float64, (N_KINDS,)) or None
    """
    if stock_size == 0:
        return None
    unseen = np.asarray(unseen, np.float64)
    red = unseen[RED_THREE]
    others = unseen.copy()
    others[RED_THREE] = 0.0
    w = np.zeros(N_KINDS)
    if others.sum() > 0:
        w = (1.0 - red / stock_size) * others / others.sum()
    w[RED_THREE] = red / stock_size
    return w


# --- from a live deal -------------------------------------------------------------------------
def info_set_from_state(rules: Rules, state: np.void, seat: int, scores) -> InfoSet:
    """The information set of ``seat`` in a kernel state (what :meth:`Deal.info_set` calls).

    Parameters
    ----------
    rules : Rules
    state : record of STATE_DTYPE
    seat : int
    scores : sequence of int
        Cumulative scores before the deal, per side (points).

    Raises
    ------
    ValueError
        When the deal is over (no decision is left).
    """
    g = state["g"]
    if g[DealSlot.phase] == Phase.over:
        raise ValueError("phase 'over': the deal is over, no seat has a decision to analyse")
    players, sides = rules.players, rules.sides
    turn = int(g[DealSlot.turn])
    melds, meld_turn, flags = state["melds"], state["meld_turn"], state["meld_flags"]
    current = int(g[DealSlot.current])
    cur_side = current % sides
    sd = state["sides"]

    def ranks(s, test):
        return tuple(
            C.KINDS[r]
            for r in range(BLACK_THREE, LAST_NATURAL + 1)
            if melds[s, r].sum() > 0 and test(r)
        )

    play = g[DealSlot.phase] == Phase.play
    this_turn = ranks(cur_side, lambda r: meld_turn[cur_side, r] == turn) if play else ()
    known = [C.format_cards(state["known"][p]) for p in range(players)]
    known[seat] = ""
    return InfoSet(
        rules=rules,
        seat=seat,
        current=current,
        phase=PHASES[int(g[DealSlot.phase])],
        hand=C.format_cards(state["hands"][seat]),
        pile=C.format_sequence(state["pile"][: int(g[DealSlot.pile_len])]),
        melds=tuple(_meld_texts(melds[s]) for s in range(sides)),
        red_threes=tuple(
            int(sd[s, SideSlot.r3_dealt] + sd[s, SideSlot.r3_drawn] + sd[s, SideSlot.r3_pile])
            for s in range(sides)
        ),
        scores=tuple(int(x) for x in scores),
        hand_sizes=tuple(int(x) for x in state["hand_sizes"][:players]),
        stock_size=int(rules.n_cards - g[DealSlot.stock_pos]),
        known=tuple(known),
        turn=turn,
        first_meld_turns=tuple(int(x) for x in state["seats"][:players, SeatSlot.first_meld_turn]),
        melds_this_turn=this_turn,
        pile_melds=tuple(
            k for k in this_turn if flags[cur_side, C.kind_index(k)] & MeldFlag.pile_cards
        ),
        concealed_canastas=tuple(
            ranks(s, lambda r, s=s: flags[s, r] & MeldFlag.concealed) for s in range(sides)
        ),
        touched_old=bool(play and g[DealSlot.touched_old]),
        from_pile=C.format_cards(g[DealSlot.pile_cards : DealSlot.pile_cards + N_KINDS])
        if play
        else "",
        last_red_three=bool(play and g[DealSlot.last_red_three]),
        upcard_cards=int(g[DealSlot.upcard_cards]),
    )


# --- from a position mapping ------------------------------------------------------------------
_KEYS = {
    "players": "number of players (2, 3, 4 or 6)",
    "rules": "rules preset name (classic, hoyle)",
    "switches": "table of rules switches",
    "seat": "the observer's seat",
    "current": "seat to play (default: seat)",
    "phase": "draw or play",
    "hand": "the observer's hand (card text)",
    "pile": "discard pile, bottom first (card text)",
    "melds": "per side, a list of meld texts",
    "red_threes": "per side, red threes laid out",
    "scores": "per side, cumulative score before the deal",
    "hand_sizes": "per seat, cards in hand",
    "stock": "cards left in the stock",
    "known": "per seat, cards known to be in its hand (card text)",
    "turn": "completed turns",
    "melded_seats": "seats that made a meld before this turn",
    "melds_this_turn": "play phase: ranks melded for the first time this turn",
    "pile_melds": "play phase: those of them holding cards from the pile",
    "concealed_canastas": "per side, ranks of concealed canastas",
    "touched_old": "play phase: added to a meld made before this turn",
    "from_pile": "play phase: cards taken with the pile this turn, still in hand",
    "last_red_three": "play phase: drew a red three as the last stock card",
    "upcard_cards": "the count of cards at the bottom of the pile turned to start it",
}
_REQUIRED = ("players", "seat", "phase", "hand", "pile", "hand_sizes", "stock")


def _from_dict(data) -> InfoSet:
    if not isinstance(data, Mapping):
        raise ValueError(f"a position is a table of keys, not {data!r}")
    unknown = sorted(set(data) - set(_KEYS))
    if unknown:
        raise ValueError(f"unknown position key {unknown[0]!r}; allowed: {', '.join(_KEYS)}")
    missing = [k for k in _REQUIRED if k not in data]
    if missing:
        raise ValueError(f"position key {missing[0]!r} is missing ({_KEYS[missing[0]]})")
    players = data["players"]
    if not isinstance(players, int) or isinstance(players, bool) or players not in PLAYER_TABLE:
        raise ValueError(f"players={players!r} is not allowed; allowed: 2, 3, 4 or 6")
    rules = Rules.preset(_str(data, "rules", "classic"), players=players, **_switches(data))
    sides = rules.sides
    seat = data["seat"]
    check_int("seat", seat, 0, players - 1)
    # in any case, as rules presets are
    phase = _str(data, "phase", "draw").strip().lower()
    if phase not in PHASES:
        raise ValueError(
            f"phase={data['phase']!r} has no decision to analyse; allowed: draw (the turn's "
            f"first move), play (meld, discard or go out), in any case"
        )
    check_int("stock", data["stock"], 0, rules.n_cards)
    melds = tuple(
        tuple(_card_texts(f"melds[{s}]", m))
        for s, m in enumerate(_per(data, "melds", sides, [], list))
    )
    melded = tuple(s for s in range(sides) if melds[s])
    this_turn = tuple(_str_list(data, "melds_this_turn"))
    default_melded = [p for p in range(players) if p % sides in melded]
    melded_seats = data.get("melded_seats", default_melded)
    if not isinstance(melded_seats, list):
        raise ValueError(f"melded_seats must be a list of seats, not {melded_seats!r}")
    for p in melded_seats:
        check_int("melded_seats item", p, 0, players - 1)
    turn = data.get("turn", 1 if melded_seats else 0)
    check_int("turn", turn, 0, rules.max_turns - 1)
    if melded_seats and turn == 0:
        raise ValueError(
            f"turn=0 with melded_seats={melded_seats}: a meld made before this turn needs turn >= 1"
        )
    current = data.get("current", seat)
    check_int("current", current, 0, players - 1)
    first = [turn - 1 if p in melded_seats else -1 for p in range(players)]
    if this_turn and first[current] < 0:
        first[current] = turn
    known = _per(data, "known", players, "", str, per="seat")
    info = InfoSet(
        rules=rules,
        seat=seat,
        current=current,
        phase=phase,
        hand=_str(data, "hand", ""),
        pile=_str(data, "pile", ""),
        melds=melds,
        red_threes=tuple(_per(data, "red_threes", sides, 0, int)),
        scores=tuple(_per(data, "scores", sides, 0, int)),
        hand_sizes=tuple(_per(data, "hand_sizes", players, None, int, per="seat")),
        stock_size=data["stock"],
        known=tuple(known),
        turn=turn,
        first_meld_turns=tuple(first),
        melds_this_turn=this_turn,
        pile_melds=tuple(_str_list(data, "pile_melds")),
        concealed_canastas=tuple(
            tuple(_card_texts(f"concealed_canastas[{s}]", c))
            for s, c in enumerate(_per(data, "concealed_canastas", sides, [], list))
        ),
        touched_old=_bool(data, "touched_old"),
        from_pile=_str(data, "from_pile", ""),
        last_red_three=_bool(data, "last_red_three"),
        upcard_cards=data.get("upcard_cards", 0),
    )
    _check_upcard(info)
    return info


def _switches(data) -> dict:
    """The ``switches`` table: rules switches only (``players`` is a position key)."""
    switches = data.get("switches", {})
    if not isinstance(switches, Mapping):
        raise ValueError(f"switches must be a table of rules switches, not {switches!r}")
    if "players" in switches:
        raise ValueError(
            f"switches.players={switches['players']!r}: players is a top-level key of the "
            f"position (players = {switches['players']!r}), not a rules switch"
        )
    allowed = sorted(f.name for f in dataclasses.fields(Rules) if f.name != "players")
    unknown = sorted(set(switches) - set(allowed))
    if unknown:
        raise ValueError(
            f"unknown rules switch {unknown[0]!r} in switches; allowed: {', '.join(allowed)}"
        )
    return dict(switches)


def _check_upcard(info: InfoSet) -> None:
    """In a position file the pile's bottom ``upcard_cards`` cards are those turned to start
    it (R-12): covers, then one card that is not a cover. (A live deal keeps the count after
    the pile is taken, so this is not checked in :func:`_validate`.)"""
    n, codes = info.upcard_cards, info.pile_codes
    if n > len(codes):
        raise ValueError(
            f"upcard_cards={n} but the pile holds {len(codes)} cards; allowed: 0 to "
            f"{len(codes)} (the count of cards at the bottom of the pile turned to start it)"
        )
    r = info.rules.to_array()
    for i, k in enumerate(codes[:n]):
        if bool(is_upcard_cover_nb(int(k), r)) != (i < n - 1):
            raise ValueError(
                f"upcard_cards={n} with the pile {info.pile!r}: card {i + 1} from the bottom, "
                f"{C.KINDS[k]!r}, cannot be turned there (R-12: wild cards, red threes and "
                f"black threes with upcard_covers_black_three are covered by the next card "
                f"turned, and the last card turned is none of them)"
            )


def _str(data, key, default) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise ValueError(f"{key}={value!r} must be a text ({_KEYS[key]})")
    return value


def _bool(data, key) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise ValueError(f"{key}={value!r} must be true or false ({_KEYS[key]})")
    return value


def _str_list(data, key) -> list[str]:
    value = data.get(key, [])
    return _card_texts(key, value)


def _card_texts(name, value) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{name}={value!r} must be a list of card texts")
    return value


def _per(data, key, n, default, kind, per="side") -> list:
    value = data.get(key)
    if value is None:
        if default is None:
            raise ValueError(f"position key {key!r} is missing ({_KEYS[key]})")
        return [default] * n
    if not isinstance(value, list) or len(value) != n:
        raise ValueError(f"{key}={value!r} must be a list with one entry per {per} ({n})")
    for i, v in enumerate(value):
        if kind is int:
            if not isinstance(v, int) or isinstance(v, bool):
                raise ValueError(f"{key}[{i}]={v!r} must be an integer ({_KEYS[key]})")
        elif not isinstance(v, kind):
            raise ValueError(f"{key}[{i}]={v!r} has the wrong type ({_KEYS[key]})")
    return value


# --- validation and the kernel state ---------------------------------------------------------
def _pack(rules: Rules) -> np.ndarray:
    return C.KIND_COUNTS_108.astype(np.int64) * rules.n_cards // 108


def _meld_plan(info: InfoSet, side: int) -> np.ndarray:
    try:
        return meld_plan(info.melds[side])
    except ValueError as exc:
        raise ValueError(f"melds[{side}]: {exc}") from None


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


def _validate(info: InfoSet) -> None:
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
    for p, size in enumerate(info.hand_sizes):
        check_int(f"hand_sizes[{p}]", size, 0, rules.n_cards)
        if size == 0:
            raise ValueError(
                f"hand_sizes[{p}]=0: a player without cards has gone out (R-40) and the deal "
                f"is over; allowed: 1 to {rules.n_cards} cards in every hand"
            )
    hand = C.parse_cards(info.hand)
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
    for p, text in enumerate(info.known):
        counts = C.parse_cards(text)
        if p == info.seat and counts.any():
            raise ValueError(f"known[{p}]={text!r}: the observer's own hand is given as hand")
        if counts[RED_THREE]:
            raise ValueError(f"known[{p}]={text!r} holds a red three; red threes are never held")
        size = info.hand_sizes[p]
        check_int(f"hand_sizes[{p}]", size, 0, rules.n_cards)
        if counts.sum() > size:
            raise ValueError(
                f"known[{p}]={text!r} has {counts.sum()} cards but hand_sizes[{p}]={size}"
            )
    for s in range(sides):
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
    check_int("stock", info.stock_size, 0, rules.n_cards)
    check_int("turn", info.turn, 0, rules.max_turns - 1)
    check_int("upcard_cards", info.upcard_cards, 0, rules.n_cards)
    _check_pile_red_threes(info)
    for s, ranks in enumerate(info.concealed_canastas):
        _check_concealed(info, s, ranks)
    seen = _seen(info)
    pack = _pack(rules)
    for k in np.nonzero(seen > pack)[0]:
        raise ValueError(
            f"the position breaks the pack: it shows {seen[k]} cards of kind {C.KINDS[k]}, "
            f"the {rules.n_cards}-card pack has {pack[k]}"
        )
    unseen = pack - seen
    hidden = sum(info.hand_sizes) - info.hand_sizes[info.seat] - info.known_counts.sum()
    if hidden + info.stock_size != unseen.sum():
        raise ValueError(
            f"hand sizes {list(info.hand_sizes)} and stock size {info.stock_size} disagree "
            f"with the pack: they leave {hidden + info.stock_size} places for unseen cards "
            f"(other hands' unknown cards plus the stock), but {unseen.sum()} of the "
            f"{rules.n_cards} cards are not in view"
        )
    if unseen[RED_THREE] > info.stock_size:
        raise ValueError(
            f"{unseen[RED_THREE]} red threes are not in view but the stock holds only "
            f"{info.stock_size} cards; red threes are never held (R-15, R-16): give them as "
            f"red_threes"
        )
    cur_side = info.current % sides
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
    for p, text in enumerate(info.known):
        state["known"][p] = C.parse_cards(text)
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
    if any(md.sum() >= 7 for s in range(sides) for md in _meld_plan(info, s)):
        g[DealSlot.first_canasta_turn] = max(turn - 1, 0)
    recount_nb(state, r)
    state["hand_sizes"][:players] = info.hand_sizes
    return np.array([state])
