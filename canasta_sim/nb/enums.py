"""Named integers the kernels share: enums with their labels, and the slots of the state's
small integer arrays, one namespace per concern (vectorbt's enums style).

Each namespace is an instance of a ``NamedTuple`` whose fields are ints: kernels read them as
``Phase.play`` or ``g[DealSlot.turn]``, and numba folds them into the compiled code as
constants (the values are fixed in this source, so the kernel cache follows them). The labels
of an enum are its field names (:func:`label`), or, for :data:`MoveError`, the rule ids
(:data:`MOVE_ERROR_RULES`).

These are structure (which slot of an array holds what) and codes, never rules or tables:
every rule value travels in the ``rules`` argument (``ndarray(int32, (RULES_LEN,))``), built
once by :meth:`canasta_sim.Rules.to_array` and indexed by :data:`RuleSlot`.

The card kinds (count-array indices, R-02) are those of :mod:`canasta_sim.cards`.

The layouts of one kernel's arrays sit beside that kernel, one index table each: the
observation (:mod:`canasta_sim.nb.engine.observation`), the fine-grained actions
(:mod:`canasta_sim.nb.actions`) and the environments' counters (:mod:`canasta_sim.nb.vecenv`),
the learned bot's features (:mod:`canasta_sim.nb.bots.features`) and network
(:mod:`canasta_sim.nb.bots.apprentice`), the candidates' kinds (:mod:`canasta_sim.nb.worlds`),
the rollouts' columns (:mod:`canasta_sim.nb.rollout`), the labelled decisions
(:mod:`canasta_sim.nb.labels`) and a run's counts (:mod:`canasta_sim.nb.chunk_counts`).
"""

from __future__ import annotations

from typing import NamedTuple

from ..cards import BLACK_THREE, DEUCE, FIRST_NATURAL, JOKER, LAST_NATURAL, N_KINDS, RED_THREE

__all__ = [
    "BLACK_THREE",
    "DEUCE",
    "FIRST_NATURAL",
    "JOKER",
    "LAST_NATURAL",
    "N_KINDS",
    "RED_THREE",
]


def label(enum: NamedTuple, code: int) -> str:
    """The label of ``code`` in ``enum`` (its field name): ``label(Phase, 1) == "play"``.

    Raises
    ------
    ValueError
        If no field of ``enum`` has the value ``code``.
    """
    for name, value in zip(enum._fields, enum):
        if value == code:
            return name
    raise ValueError(f"{code!r} is not a code of {type(enum).__name__}; allowed: {tuple(enum)}")


# --- enums (codes stored in the state, the trace log and the records) ------------------------
class _Phase(NamedTuple):
    draw: int = 0  # the turn starts: draw from the stock or take the pile (R-20 step 1)
    play: int = 1  # meld, then discard (R-20 steps 2, 3)
    over: int = 2  # the deal has ended


#: Phase of the turn (``g[DealSlot.phase]``).
Phase = _Phase()


class _EndReason(NamedTuple):
    none: int = 0  # the deal runs
    went_out: int = 1
    stock_exhausted: int = 2
    last_red_three: int = 3
    turn_limit: int = 4


#: Why a deal ended (``g[DealSlot.end]``, the records' ``end_reason``).
EndReason = _EndReason()


class _Event(NamedTuple):
    upcard: int = 1  # KIND: the card turned
    red_three: int = 2  # EXTRA: the Source
    draw: int = 3  # KIND: the card drawn
    take_pile: int = 4  # KIND: top card; NAT/DEUCE/JOKER: cards from hand melded with it
    meld: int = 5  # KIND: rank; NAT/DEUCE/JOKER: cards added from hand
    discard: int = 6  # KIND: the card
    end_turn: int = 7  # no discard after a last-card red three
    go_out: int = 8  # EXTRA: 1 if concealed
    end: int = 9  # EXTRA: the EndReason; KIND: turns played


#: Trace events (``log[i, EventCol.type]``).
Event = _Event()


class _Source(NamedTuple):
    dealt: int = 0  # in the dealt hand
    drawn: int = 1  # from the stock, replacements included
    pile: int = 2  # taken with the discard pile


#: Where a red three came from.
Source = _Source()


class _MeldFlag(NamedTuple):
    concealed: int = 1  # a concealed canasta
    pile_cards: int = 2  # started this turn with cards taken from the pile: not concealed


#: Bits of ``meld_flags[side, rank]``.
MeldFlag = _MeldFlag()


class _MoveError(NamedTuple):
    ok: int = 0  # the move is legal (and was made)
    phase: int = 1  # not allowed in this phase of the turn, or the deal is over
    not_in_hand: int = 2  # the cards are not in the player's hand
    empty: int = 3  # a meld with no cards
    nothing_staged: int = 4  # unstage or clear an action id with no such card staged
    pile_top: int = 30  # no pile, or a black three, wild card or red three on top
    frozen_pile: int = 32  # a frozen pile needs a natural pair with the top card
    pile_pickup: int = 33  # the top card needs a pair, a natural and a wild, or a meld
    one_card_pile: int = 35  # one card in hand may not take a one-card pile
    going_out: int = 40  # going out needs the side's canastas (R-22 counts 1 card left)
    forced_pickup: int = 44  # the stock is empty: the pile must (or may only) be taken
    last_red_three: int = 45  # after a last-card red three: no discard, melds by switch
    new_meld: int = 60  # a new meld breaks R-60
    meld_addition: int = 61  # the meld with the added cards breaks R-60
    black_threes: int = 63  # black threes: 3 or 4, no wild cards, only when going out
    minimum_count: int = 64  # the initial meld is short of the minimum count


#: What the move kernels return: ``ok`` (0) or why the move is illegal; apart from ``phase``,
#: ``not_in_hand``, ``empty`` and ``nothing_staged`` the value is the id of the rule broken
#: (``pile_top`` = R-30).
MoveError = _MoveError()

#: The rule id of each :data:`MoveError` code.
MOVE_ERROR_RULES = {
    code: f"R-{code}" if code >= 10 else {0: "", 1: "R-20", 2: "R-20", 3: "R-60", 4: "R-20"}[code]
    for code in MoveError
}


class _PickupWay(NamedTuple):
    onto_meld: int = 0  # the top card onto the side's meld of its rank (R-33 c)
    natural_pair: int = 1  # with two naturals of its rank from hand (R-32, R-33 a)
    natural_deuce: int = 2  # with one natural and a deuce (R-33 b)
    natural_joker: int = 3  # with one natural and a joker (R-33 b)


#: How the top card of the discard pile is used when it is taken
#: (:mod:`canasta_sim.nb.engine.legal`): the fewest cards from hand that use of it needs.
PickupWay = _PickupWay()
N_PICKUP_WAYS = len(PickupWay)


# --- slots of the state's integer arrays --------------------------------------------------
class _RuleSlot(NamedTuple):
    players: int = 0
    sides: int = 1
    deal_size: int = 2
    draw_count: int = 3
    canastas_to_go_out: int = 4
    n_cards: int = 5
    upcard_covers_black_three: int = 6
    red_three_upcard_freezes: int = 7
    wilds_at_most_naturals: int = 8
    concealed_canasta_bonus: int = 9
    concealed_out_needs_minimum: int = 10
    meld_after_last_red_three: int = 11
    natural_canasta_bonus: int = 12
    mixed_canasta_bonus: int = 13
    going_out_bonus: int = 14
    concealed_going_out_bonus: int = 15
    max_turns: int = 16
    negative_minimum: int = 17
    game_target: int = 18
    values: int = 19  # N_KINDS slots: card values (points), R-04
    red_three_table: int = 19 + N_KINDS  # 7 slots: score for 0..6 red threes held, R-50
    min_thresholds: int = 26 + N_KINDS  # 4 slots: score thresholds (points), R-64
    min_counts: int = 30 + N_KINDS  # 4 slots: minimum count at or above each threshold
    side_of: int = 34 + N_KINDS  # 6 slots: the side of each seat (seat % sides), R-10
    next_seat: int = 40 + N_KINDS  # 6 slots: the seat to each seat's left, who plays next


#: Slots of the rules array (kernels look sides and turn order up instead of dividing).
RuleSlot = _RuleSlot()
RULES_LEN = RuleSlot.next_seat + 6


class _DealSlot(NamedTuple):
    stock_pos: int = 0  # index of the top stock card in the deck order
    pile_len: int = 1
    pile_freeze: int = 2  # wild cards (and red threes, R-13) in the pile; > 0: frozen for all
    current: int = 3  # seat to play
    phase: int = 4  # Phase
    turn: int = 5  # completed turns
    end: int = 6  # EndReason
    out_seat: int = 7  # seat that went out, -1 if none
    concealed_out: int = 8
    upcard_cards: int = 9
    frozen_at_start: int = 10
    last_red_three: int = 11  # 1 while the player who drew a last-card red three plays on
    dealer: int = 12
    touched_old: int = 13  # 1 if this turn added to a meld made before the turn
    move: int = 14  # move counter (trace grouping)
    first_canasta_turn: int = 15  # -1 until the first canasta of the deal
    n_events: int = 16  # events written to the trace log
    pile_cards: int = 17  # N_KINDS slots: cards per kind from the pile taken this turn


#: Slots of the deal scalars ``g``: ``ndarray(int64, (G_LEN,))``.
DealSlot = _DealSlot()
G_LEN = DealSlot.pile_cards + N_KINDS


class _SideSlot(NamedTuple):
    melded: int = 0  # 1 once the side made its initial meld
    r3_dealt: int = 1  # red threes laid out, by Source
    r3_drawn: int = 2
    r3_pile: int = 3
    minimum: int = 4  # minimum count for this deal (points), R-64
    canastas: int = 5  # running count: melds of 7 or more cards
    meld_ranks: int = 6  # running count: bit r set while the side has a meld of rank r
    # canasta timing: turn in which the side completed its 1st, 2nd, 3rd canasta (-1: not
    # yet); consecutive slots, so the k-th (0-based) is canasta_turn_1 + k
    canasta_turn_1: int = 7
    canasta_turn_2: int = 8
    canasta_turn_3: int = 9
    canasta_mixed: int = 10  # bit k set if the (k+1)-th canasta was mixed when completed
    score: int = 11  # cumulative score before the deal (points, public)
    # pile and timeline tallies of the deal (records only; no rule reads them)
    pickups: int = 12  # discard piles taken (R-30..R-35)
    pickups_pair: int = 13  # ... with a natural pair (or more) of the top card's rank
    pickups_wild: int = 14  # ... with one natural and wild cards (R-33 b)
    pickups_meld: int = 15  # ... by putting the top card on the side's meld (R-33 c)
    pile_taken: int = 16  # cards in the piles taken (top card included)
    wild_freezes: int = 17  # wild cards discarded onto a pile not frozen before
    black_three_blocks: int = 18  # black threes discarded without going out
    pickup_sizes: int = 19  # PICKUP_BINS slots: piles taken of 0-4, 5-9, ..., 25+ cards


#: Slots of the side scalars: ``sides``, ``ndarray(int32, (n_sides, S_LEN))``.
SideSlot = _SideSlot()
#: Bins of ``SideSlot.pickup_sizes``: bin ``min(cards // PICKUP_BIN, PICKUP_BINS - 1)``.
PICKUP_BIN = 5
PICKUP_BINS = 6
S_LEN = SideSlot.pickup_sizes + PICKUP_BINS


class _SeatSlot(NamedTuple):
    first_meld_turn: int = 0  # turn of the player's first meld, -1 if none yet


#: Slots of the seat scalars: ``seats``, ``ndarray(int32, (n_players, P_LEN))``.
SeatSlot = _SeatSlot()
P_LEN = len(SeatSlot)


class _MeldCol(NamedTuple):
    naturals: int = 0
    deuces: int = 1
    jokers: int = 2


#: Columns of a meld row (``melds[side, rank]``, and a meld plan's rows).
MeldCol = _MeldCol()


class _EventCol(NamedTuple):
    type: int = 0  # Event
    seat: int = 1
    move: int = 2
    kind: int = 3
    nat: int = 4
    deuce: int = 5
    joker: int = 6
    extra: int = 7


#: Columns of the trace log: ``log``, ``ndarray(int32, (max_events, EV_LEN))``.
EventCol = _EventCol()
EV_LEN = len(EventCol)


class _ScorePart(NamedTuple):
    red_threes: int = 0  # R-50, negative without a meld
    canasta_bonus: int = 1  # R-51 plus R-66's concealed bonus
    going_out_bonus: int = 2
    meld_points: int = 3  # card values in melds, R-53
    hand_penalty: int = 4  # card values left in hand (subtracted), R-54
    total: int = 5


#: The parts of a side's deal score (points): ``ndarray(int32, (n_sides, SC_LEN))``.
ScorePart = _ScorePart()
SC_LEN = len(ScorePart)


class _StateFault(NamedTuple):
    ok: int = 0  # every check holds
    cards: int = 1  # a kind's cards do not add up to the pack (where: the kind), R-01, R-02
    negative: int = 2  # a negative card count in a hand (where: the seat)
    hand_sizes: int = 3  # hand_sizes differs from the hand (where: the seat)
    pile_counts: int = 4  # pile_counts differs from the pile (where: the kind)
    melded: int = 5  # melded differs from the melds (where: the kind)
    canastas: int = 6  # SideSlot.canastas differs from the melds (where: the side)
    meld_ranks: int = 7  # SideSlot.meld_ranks differs from the melds (where: the side)


#: What :func:`canasta_sim.nb.engine.validate.check_state_nb` finds wrong with a state.
StateFault = _StateFault()


# --- table sizes ------------------------------------------------------------------------------
#: The largest table (R-10, R-01): 6 players in 3 sides with a 162-card pack. The state and the
#: observation are sized for it; kernels use the first ``players``/``sides``/``n_cards`` rows.
MAX_PLAYERS = 6
MAX_SIDES = 3
MAX_CARDS = 162


# --- masks and bounds the bots share ------------------------------------------------------
#: Bit ``r`` set for every natural rank ``r`` (4 .. A): the natural ranks of a ``meld_ranks``
#: mask (``SideSlot.meld_ranks``).
NATURAL_RANKS = ((1 << (LAST_NATURAL + 1)) - 1) ^ ((1 << FIRST_NATURAL) - 1)

#: A room (cards) or a points target that never binds, for the bots' plan builders.
NO_LIMIT = 1 << 30
