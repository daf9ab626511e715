"""What one seat knows, as one fixed-length integer array: the observation.

:func:`observe_nb` writes it from the deal state; the layout is the table
:data:`OBS_LAYOUT` (slots :data:`ObsSlot`, documented
in ``docs/observation.md``). It reads only what the seat may know: its own hand, the cards known
to be in the other hands, the public table, and counts. The other hands' unknown cards and the
stock order are never read, so two deals that differ only in them give the same array.

Seat-relative: seats are counted from the observer (0 the observer, 1 the next player in turn
order, ...) and sides from the observer's side (with ``players`` a multiple of ``sides``, the
seat ``i`` places after the observer plays for side ``i % sides``). One length
(:data:`OBS_LEN`) for every table, sized for the largest (6 players, 3
sides, 162 cards): one layout, one kernel and batches that mix tables; a smaller table leaves
the rows of absent seats and sides, and the pile's free places, at their ``pad`` value.
"""

from collections import namedtuple
from math import prod
from typing import Any, NamedTuple

from ..enums import (
    BLACK_THREE,
    DEUCE,
    JOKER,
    LAST_NATURAL,
    MAX_CARDS,
    MAX_PLAYERS,
    MAX_SIDES,
    N_KINDS,
    RED_THREE,
    DealSlot,
    MeldCol,
    MeldFlag,
    Phase,
    RuleSlot,
    SeatSlot,
    SideSlot,
)
from ..jit import inline_kernel, kernel
from .deal import pack_count_nb


# --- the observation: what one seat knows, as one fixed-length array --------------------------
class ObsField(NamedTuple):
    """One entry of the observation layout: ``shape`` slots from ``offset`` (row-major), what
    they hold, the rule ids that read it, what its rows are (``"seat"`` or ``"side"``, counted
    from the observer's; ``"pile"``, places from the bottom; ``""`` for one row) and the value
    of the slots a smaller table leaves unused (absent seats and sides, the pile's free
    places)."""

    name: str
    shape: tuple[int, ...]
    meaning: str
    rules: str
    rows: str = ""
    pad: int = 0
    offset: int = 0

    @property
    def length(self) -> int:
        return prod(self.shape)


#: Meld rows of the observation: black three (melded only when going out, R-63) to ace.
OBS_RANKS = LAST_NATURAL - BLACK_THREE + 1

_OBS_FIELDS = (
    ObsField("players", (1,), "players at the table: 2, 3, 4 or 6", "R-10"),
    ObsField("sides", (1,), "sides: 2, 3, 2 or 2 (players 2, 3, 4, 6)", "R-10"),
    ObsField("phase", (1,), "Phase: 0 draw, 1 play, 2 over", "R-20"),
    ObsField("current", (1,), "seat to play, counted from the observer (0: the observer)", "R-11"),
    ObsField("dealer", (1,), "the dealer's seat, counted from the observer", "R-11"),
    ObsField("turn", (1,), "completed turns in this deal", "R-47"),
    ObsField("max_turns", (1,), "the turn limit: the deal ends after this many turns", "R-47"),
    ObsField("stock_size", (1,), "cards left in the stock", "R-20, R-44, R-45, R-46"),
    ObsField("pile_size", (1,), "cards in the discard pile", "R-30, R-35"),
    ObsField("pile_top", (1,), "kind of the pile's top card, -1 for an empty pile", "R-30"),
    ObsField(
        "pile_freeze",
        (1,),
        "wild cards (and red threes, with red_three_upcard_freezes) in the pile: above 0 the "
        "pile is frozen for everyone",
        "R-13, R-24, R-31",
    ),
    ObsField(
        "pile_frozen",
        (1,),
        "1 if the pile is frozen for the observer's side: pile_freeze above 0, or the side has "
        "not made its initial meld",
        "R-31, R-32",
    ),
    ObsField(
        "pile_blocked",
        (1,),
        "1 if a black three is on top: the pile cannot be taken (the next player is blocked)",
        "R-23, R-30",
    ),
    ObsField(
        "upcard_cards",
        (1,),
        "cards turned to start the pile; while the pile has not been taken, its bottom cards",
        "R-12, R-14",
    ),
    ObsField(
        "last_red_three",
        (1,),
        "play phase: 1 if the player to play drew a red three as the last stock card (melds "
        "only, no discard)",
        "R-45",
    ),
    ObsField(
        "touched_old",
        (1,),
        "play phase: 1 if the player to play added to a meld made before this turn (no "
        "concealed going out)",
        "R-42",
    ),
    ObsField("hand_counts", (N_KINDS,), "the observer's hand: cards per kind", "R-02"),
    ObsField(
        "from_pile_counts",
        (N_KINDS,),
        "play phase: cards per kind taken with the pile this turn and still in the hand of the "
        "player to play",
        "R-66",
    ),
    ObsField(
        "unseen_counts",
        (N_KINDS,),
        "cards per kind the observer cannot place: in the stock or among the unknown cards of "
        "other hands (the pack less the hand, known cards, pile, melds and red threes)",
        "R-01, R-02",
    ),
    ObsField(
        "seat_hand_sizes",
        (MAX_PLAYERS,),
        "per seat from the observer: cards in hand",
        "R-22, R-40",
        rows="seat",
    ),
    ObsField(
        "seat_known_counts",
        (MAX_PLAYERS, N_KINDS),
        "per seat from the observer: cards per kind known to be in its hand, taken with the "
        "pile and not since melded or discarded (0 for the observer, whose hand is hand_counts)",
        "R-34",
        rows="seat",
    ),
    ObsField(
        "seat_first_meld_turns",
        (MAX_PLAYERS,),
        "per seat from the observer: turn of its first meld in this deal, -1 if none",
        "R-42",
        rows="seat",
        pad=-1,
    ),
    ObsField(
        "side_melds",
        (MAX_SIDES, OBS_RANKS, 3),
        "per side from the observer's, per rank black three .. ace: naturals, deuces, jokers "
        "in its meld",
        "R-60, R-61, R-62",
        rows="side",
    ),
    ObsField(
        "side_canastas",
        (MAX_SIDES,),
        "per side: melds of 7 or more cards",
        "R-40, R-65",
        rows="side",
    ),
    ObsField(
        "side_concealed_canastas",
        (MAX_SIDES, OBS_RANKS),
        "per side and rank: 1 if the meld is a concealed canasta",
        "R-51, R-66",
        rows="side",
    ),
    ObsField(
        "side_melds_this_turn",
        (MAX_SIDES, OBS_RANKS),
        "play phase, per side and rank: 1 if the meld was started this turn",
        "R-42, R-66",
        rows="side",
    ),
    ObsField(
        "side_pile_melds",
        (MAX_SIDES, OBS_RANKS),
        "play phase, per side and rank: 1 if the meld was started this turn and holds cards "
        "taken with the pile (it cannot become a concealed canasta)",
        "R-66",
        rows="side",
    ),
    ObsField("side_red_threes", (MAX_SIDES,), "per side: red threes laid out", "R-50", rows="side"),
    ObsField(
        "side_scores",
        (MAX_SIDES,),
        "per side: cumulative score before this deal (points)",
        "R-55, R-64",
        rows="side",
    ),
    ObsField(
        "side_minimums",
        (MAX_SIDES,),
        "per side: minimum count of the initial meld (points)",
        "R-64",
        rows="side",
    ),
    ObsField(
        "side_melded",
        (MAX_SIDES,),
        "per side: 1 once it has made its initial meld",
        "R-64",
        rows="side",
    ),
    ObsField(
        "pile_codes",
        (MAX_CARDS,),
        "the discard pile's kinds, bottom first (the top card at pile_size - 1), -1 beyond it",
        "R-20, R-30",
        rows="pile",
        pad=-1,
    ),
)


def _with_offsets(fields: tuple[ObsField, ...]) -> tuple[ObsField, ...]:
    out, offset = [], 0
    for f in fields:
        out.append(f._replace(offset=offset))
        offset += f.length
    return tuple(out)


#: The observation layout (:func:`observe_nb`): one entry per
#: named block, in array order. ``docs/observation.md`` is written from it.
OBS_LAYOUT = _with_offsets(_OBS_FIELDS)
#: Slots of the observation: ``obs[ObsSlot.turn]``, ``obs[ObsSlot.known + i * N_KINDS + k]``
#: (the first slot of each block of :data:`OBS_LAYOUT`; a namedtuple built from the table, so
#: numba folds its values into the kernels as constants).
ObsSlot: Any = namedtuple("ObsSlot", [f.name for f in OBS_LAYOUT])(*(f.offset for f in OBS_LAYOUT))
#: Length of the observation array (``ndarray(int32, (OBS_LEN,))``), the same for every table.
OBS_LEN = OBS_LAYOUT[-1].offset + OBS_LAYOUT[-1].length


@kernel
def observe_nb(state, rules, seat, out):
    """Write what ``seat`` knows into ``out`` (layout :data:`OBS_LAYOUT`).

    Parameters
    ----------
    state : record of STATE_DTYPE
        The deal (read only; the other hands' unknown cards and the stock order are not read).
    rules : ndarray(int32, (RULES_LEN,))
    seat : int64
        The observer, ``0 .. players - 1``.
    out : ndarray(int32, (OBS_LEN,))
        Written in full (no allocation).
    """
    g, sides = state.g, state.sides
    players = rules[RuleSlot.players]
    n_sides = rules[RuleSlot.sides]
    n_cards = rules[RuleSlot.n_cards]
    side = rules[RuleSlot.side_of + seat]
    play = g[DealSlot.phase] == Phase.play
    turn = g[DealSlot.turn]
    current = g[DealSlot.current]
    pile_len = g[DealSlot.pile_len]
    out[:] = 0
    out[ObsSlot.players] = players
    out[ObsSlot.sides] = n_sides
    out[ObsSlot.phase] = g[DealSlot.phase]
    out[ObsSlot.current] = (current - seat + players) % players
    # the player to the dealer's left played turn 0 and turns pass left, so the dealer
    # follows from the turn; a position built by hand has no other dealer
    out[ObsSlot.dealer] = ((current - 1 - turn - seat) % players + players) % players
    out[ObsSlot.turn] = turn
    out[ObsSlot.max_turns] = rules[RuleSlot.max_turns]
    out[ObsSlot.stock_size] = n_cards - g[DealSlot.stock_pos]
    out[ObsSlot.pile_size] = pile_len
    top = state.pile[pile_len - 1] if pile_len > 0 else -1
    out[ObsSlot.pile_top] = top
    out[ObsSlot.pile_freeze] = g[DealSlot.pile_freeze]
    frozen = g[DealSlot.pile_freeze] > 0 or sides[side, SideSlot.melded] == 0
    out[ObsSlot.pile_frozen] = 1 if frozen else 0
    out[ObsSlot.pile_blocked] = 1 if top == BLACK_THREE else 0
    out[ObsSlot.upcard_cards] = g[DealSlot.upcard_cards]
    if play:
        out[ObsSlot.last_red_three] = 1 if g[DealSlot.last_red_three] != 0 else 0
        out[ObsSlot.touched_old] = 1 if g[DealSlot.touched_old] != 0 else 0
        for k in range(N_KINDS):
            out[ObsSlot.from_pile_counts + k] = g[DealSlot.pile_cards + k]
    for k in range(N_KINDS):
        out[ObsSlot.hand_counts + k] = state.hands[seat, k]
        out[ObsSlot.unseen_counts + k] = pack_count_nb(n_cards, k) - state.hands[seat, k]
    for i in range(pile_len):
        out[ObsSlot.pile_codes + i] = state.pile[i]
        out[ObsSlot.unseen_counts + state.pile[i]] -= 1
    for i in range(pile_len, MAX_CARDS):
        out[ObsSlot.pile_codes + i] = -1
    observe_seats_nb(state, rules, seat, out)
    observe_sides_nb(state, rules, side, out)


@inline_kernel
def observe_seats_nb(state, rules, seat, out):
    """The per-seat blocks of :func:`observe_nb` (hand sizes, known cards, first melds), seats
    counted from ``seat``; the known cards leave the unseen counts."""
    players = rules[RuleSlot.players]
    for i in range(MAX_PLAYERS):
        if i >= players:
            out[ObsSlot.seat_first_meld_turns + i] = -1
            continue
        p = (seat + i) % players
        out[ObsSlot.seat_hand_sizes + i] = state.hand_sizes[p]
        out[ObsSlot.seat_first_meld_turns + i] = state.seats[p, SeatSlot.first_meld_turn]
        if i > 0:  # the observer's whole hand is in hand_counts
            for k in range(N_KINDS):
                out[ObsSlot.seat_known_counts + i * N_KINDS + k] = state.known[p, k]
                out[ObsSlot.unseen_counts + k] -= state.known[p, k]


@inline_kernel
def observe_sides_nb(state, rules, side, out):
    """The per-side blocks of :func:`observe_nb` (melds and their flags, canastas, red
    threes, scores, minimum counts, initial meld), sides counted from ``side``; the cards
    laid out leave the unseen counts."""
    g, sides, melds = state.g, state.sides, state.melds
    n_sides = rules[RuleSlot.sides]
    play = g[DealSlot.phase] == Phase.play
    turn = g[DealSlot.turn]
    for j in range(n_sides):
        s = (side + j) % n_sides
        out[ObsSlot.side_canastas + j] = sides[s, SideSlot.canastas]
        red_threes = (
            sides[s, SideSlot.r3_dealt] + sides[s, SideSlot.r3_drawn] + sides[s, SideSlot.r3_pile]
        )
        out[ObsSlot.side_red_threes + j] = red_threes
        out[ObsSlot.unseen_counts + RED_THREE] -= red_threes
        out[ObsSlot.side_scores + j] = sides[s, SideSlot.score]
        out[ObsSlot.side_minimums + j] = sides[s, SideSlot.minimum]
        out[ObsSlot.side_melded + j] = 1 if sides[s, SideSlot.melded] != 0 else 0
        for r in range(BLACK_THREE, LAST_NATURAL + 1):
            nat = melds[s, r, MeldCol.naturals]
            deu = melds[s, r, MeldCol.deuces]
            jok = melds[s, r, MeldCol.jokers]
            if nat + deu + jok == 0:
                continue
            out[ObsSlot.unseen_counts + r] -= nat
            out[ObsSlot.unseen_counts + DEUCE] -= deu
            out[ObsSlot.unseen_counts + JOKER] -= jok
            row = j * OBS_RANKS + r - BLACK_THREE
            out[ObsSlot.side_melds + 3 * row + MeldCol.naturals] = nat
            out[ObsSlot.side_melds + 3 * row + MeldCol.deuces] = deu
            out[ObsSlot.side_melds + 3 * row + MeldCol.jokers] = jok
            flags = state.meld_flags[s, r]
            if flags & MeldFlag.concealed:
                out[ObsSlot.side_concealed_canastas + row] = 1
            if play and state.meld_turn[s, r] == turn:
                out[ObsSlot.side_melds_this_turn + row] = 1
                if flags & MeldFlag.pile_cards:
                    out[ObsSlot.side_pile_melds + row] = 1
