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
"""

from __future__ import annotations

from collections import namedtuple
from math import prod
from typing import Any, NamedTuple

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
#: ``not_in_hand`` and ``empty`` the value is the id of the rule broken (``pile_top`` = R-30).
MoveError = _MoveError()

#: The rule id of each :data:`MoveError` code.
MOVE_ERROR_RULES = {
    code: f"R-{code}" if code >= 10 else {0: "", 1: "R-20", 2: "R-20", 3: "R-60"}[code]
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


# --- slots of the learned bot's feature vectors (docs/learned.md) --------------------------
class _StateFeat(NamedTuple):
    bias: int = 0  # 1.0
    stock: int = 1  # stock left / cards in the pack
    hand: int = 2  # own hand size / 15
    next_hand: int = 3  # next player's hand size / 15
    partner_hand: int = 4  # partners' mean hand size / 15 (0 without a partner)
    opp_hand_min: int = 5  # smallest opponent hand / 15
    pile: int = 6  # discard pile size / 20
    frozen: int = 7  # 1 if the pile is frozen for all
    melded: int = 8  # 1 if the own side has made its initial meld
    next_melded: int = 9  # 1 if the next player's side has made its initial meld
    canastas: int = 10  # own side's canastas / 2
    opp_canastas: int = 11  # most canastas of another side / 2
    table: int = 12  # own side's table points / 1000
    opp_table: int = 13  # most table points of another side / 1000
    minimum: int = 14  # own side's minimum count / 100
    score: int = 15  # own side's cumulative score / 5000
    opp_score: int = 16  # best other side's cumulative score / 5000
    wilds: int = 17  # wild cards in own hand / 4
    threat: int = 18  # 1 if an opponent may go out soon (the expert's test)
    endgame: int = 19  # 1 if the stock is down to two rounds of draws
    can_out: int = 20  # 1 if the own side has the canastas to go out
    next_known: int = 21  # cards known to be in the next player's hand / 5
    play_phase: int = 22  # 1 at the play decision, 0 at the draw decision
    turn: int = 23  # completed turns / 100


#: Slots of the learned bot's state features (``float32[N_STATE_FEAT]``).
StateFeat = _StateFeat()
N_STATE_FEAT = len(StateFeat)


class _CandFeat(NamedTuple):
    draw: int = 0  # 1: draw from the stock
    take: int = 1  # 1: take the discard pile
    hold: int = 2  # 1: play phase, no meld laid
    laid: int = 3  # cards laid from hand / 10
    left: int = 4  # cards in hand after the move / 15
    points: int = 5  # card points laid (with the pile's top card) / 100
    natural_made: int = 6  # natural canastas completed
    mixed_made: int = 7  # mixed canastas completed
    closer: int = 8  # melds grown to 4..6 cards
    wilds_spent: int = 9  # wild cards laid / 2
    new_melds: int = 10  # melds started
    initial: int = 11  # 1: the side's initial meld
    pile_taken: int = 12  # cards of the pile taken / 20
    pile_points: int = 13  # card points of the pile taken / 100
    pile_wilds: int = 14  # wild cards in the pile taken / 2
    danger: int = 15  # chance the next player can take the pile after the discard
    handed: int = 16  # pile size after the discard / 20
    danger_handed: int = 17  # danger x handed
    wild_discard: int = 18  # 1: a wild card discarded
    freezes: int = 19  # 1: the discard freezes an open pile
    black_three: int = 20  # 1: a black three discarded
    pair_break: int = 21  # 1: the discard is one of two or more of its kind held
    discard_points: int = 22  # card points of the discard / 50
    next_meld: int = 23  # 1: the next side has a meld of the discard's rank
    next_known: int = 24  # 1: the next player is known to hold the discard's kind
    passed: int = 25  # 1: the next player passed on the discard's rank
    going_out: int = 26  # 1: the move empties the hand
    stock_left: int = 27  # stock fraction x left
    endgame_left: int = 28  # endgame flag x left
    initial_minimum: int = 29  # initial x minimum count / 100
    pile_frozen: int = 30  # pile_taken x frozen
    points_stock: int = 31  # points x stock fraction


#: Slots of the learned bot's candidate features (``float32[N_CAND_FEAT]``).
CandFeat = _CandFeat()
N_CAND_FEAT = len(CandFeat)

# --- the learned bot's network ------------------------------------------------------------------
#: Hidden units of the apprentice's network: ``score = v . relu(A s + B c + b1) + b2``. Its
#: state half ``A s + b1`` is kept in the feature work's ``half`` (NET_HIDDEN floats).
NET_HIDDEN = 32


class _NetSlot(NamedTuple):
    # A and B are packed transposed (one feature's NET_HIDDEN weights side by side), so that
    # the kernel sums the hidden units side by side over contiguous weights
    a: int = 0  # A transposed, (N_STATE_FEAT, NET_HIDDEN): state features -> hidden
    b: int = NET_HIDDEN * N_STATE_FEAT  # B transposed, (N_CAND_FEAT, NET_HIDDEN): candidate
    b1: int = NET_HIDDEN * (N_STATE_FEAT + N_CAND_FEAT)  # hidden biases (NET_HIDDEN)
    v: int = NET_HIDDEN * (N_STATE_FEAT + N_CAND_FEAT + 1)  # output weights (NET_HIDDEN)
    b2: int = NET_HIDDEN * (N_STATE_FEAT + N_CAND_FEAT + 2)  # output bias (points)


#: Offsets of the network's parts in one packed weight set (``float32[NET_LEN]``).
NetSlot = _NetSlot()
NET_LEN = NetSlot.b2 + 1


class _FeatCtx(NamedTuple):
    q: int = 0  # chance that one unseen card sits in the next player's hand
    p_wild: int = 1  # chance that the next player holds a wild card
    passed: int = 2  # bit mask: ranks the next player passed on
    discarded: int = 3  # bit mask: ranks the next player discarded
    frozen_next: int = 4  # 1 if the pile is frozen for the next player
    next_melded: int = 5  # 1 if the next player's side has its initial meld
    next_ranks: int = 6  # bit mask: the next side's meld ranks
    stock: int = 7  # stock fraction (StateFeat.stock)
    endgame: int = 8  # StateFeat.endgame
    minimum: int = 9  # own minimum count / 100


#: Slots of the per-decision values the candidate features read (``float64[N_FEAT_CTX]``).
FeatCtx = _FeatCtx()
N_FEAT_CTX = len(FeatCtx)


class _LabelCol(NamedTuple):
    deal: int = 0  # the deal's index in the labelling run
    turn: int = 1  # completed turns at the decision
    phase: int = 2  # Phase: draw or play decision
    seat: int = 3  # the seat to play
    n_cands: int = 4  # candidates of the decision
    first: int = 5  # row of its first candidate in the candidate arrays
    expert: int = 6  # candidate the expert plays (-1: none of them)
    best: int = 7  # candidate with the best rollout value (pimc's choice)


#: Columns of the labelled decisions' metadata (``int64[n_decisions, LABEL_LEN]``).
LabelCol = _LabelCol()
LABEL_LEN = len(LabelCol)
# --- table sizes ------------------------------------------------------------------------------
#: The largest table (R-10, R-01): 6 players in 3 sides with a 162-card pack. The state and the
#: observation are sized for it; kernels use the first ``players``/``sides``/``n_cards`` rows.
MAX_PLAYERS = 6
MAX_SIDES = 3
MAX_CARDS = 162


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


#: The observation layout (:func:`canasta_sim.nb.engine.observation.observe_nb`): one entry per
#: named block, in array order. ``docs/observation.md`` is written from it.
OBS_LAYOUT = _with_offsets(_OBS_FIELDS)
#: Slots of the observation: ``obs[ObsSlot.turn]``, ``obs[ObsSlot.known + i * N_KINDS + k]``
#: (the first slot of each block of :data:`OBS_LAYOUT`; a namedtuple built from the table, so
#: numba folds its values into the kernels as constants).
ObsSlot: Any = namedtuple("ObsSlot", [f.name for f in OBS_LAYOUT])(*(f.offset for f in OBS_LAYOUT))
#: Length of the observation array (``ndarray(int32, (OBS_LEN,))``), the same for every table.
OBS_LEN = OBS_LAYOUT[-1].offset + OBS_LAYOUT[-1].length


# --- masks and bounds the bots share ------------------------------------------------------
#: Bit ``r`` set for every natural rank ``r`` (4 .. A): the natural ranks of a ``meld_ranks``
#: mask (``SideSlot.meld_ranks``).
NATURAL_RANKS = ((1 << (LAST_NATURAL + 1)) - 1) ^ ((1 << FIRST_NATURAL) - 1)

#: A room (cards) or a points target that never binds, for the bots' plan builders.
NO_LIMIT = 1 << 30


# --- sampled worlds, candidates and rollouts -------------------------------------------------
#: ``first`` kind of a world whose next stock card is not stratified (:func:`~.rollout.worlds_nb`).
STRATA_OFF = -1


class _CandKind(NamedTuple):
    draw: int = 0  # draw from the stock
    take: int = 1  # take the pile with the candidate's plan (R-30..R-35)
    # meld the candidate's plan (if any cards), then discard its kind (if >= 0); after a
    # last-card red three, no discard: the deal ends
    play: int = 2


#: What a candidate's first move is (``cand_kind`` of the rollouts, the search bot's ``kind``).
CandKind = _CandKind()


class _RolloutCol(NamedTuple):
    out_seat: int = 0  # seat that went out, or -1
    end: int = 1  # end reason (EndReason)
    error: int = 2  # MoveError.ok, or the error of the candidate's move (never expected)
    turns: int = 3  # turns played in the rollout


#: Columns of a rollout's ``info`` row: ``ndarray(int32, (n, RO_LEN))``.
RolloutCol = _RolloutCol()
RO_LEN = len(RolloutCol)


# --- the learning environment's fine-grained actions (canasta_sim.env, docs/environment.md) --
class ActionField(NamedTuple):
    """One block of the fine-grained action space: ``count`` ids from ``offset``, what id
    ``offset + i`` does (``index`` says what ``i`` counts), and the rule ids it implements."""

    name: str
    count: int
    index: str
    meaning: str
    rules: str
    offset: int = 0


#: Natural ranks (4 .. A): the rows a wild card can be staged on.
N_RANKS = LAST_NATURAL - FIRST_NATURAL + 1
#: Kinds a player can discard (black three .. joker; a red three is never held, R-14).
N_DISCARDS = N_KINDS - BLACK_THREE

_ACTION_FIELDS = (
    ActionField(
        "draw",
        1,
        "",
        "draw from the stock (with the stock empty: the deal ends, unless the pile must be "
        "taken); staged cards stay staged",
        "R-20, R-44, R-46",
    ),
    ActionField(
        "take",
        N_PICKUP_WAYS,
        "PickupWay: onto the side's meld, natural pair, natural and deuce, natural and joker",
        "take the discard pile, the top card used this way, the staged cards melded in the "
        "same move (they count toward the minimum count)",
        "R-30..R-35, R-64",
    ),
    ActionField(
        "stage_natural",
        OBS_RANKS,
        "meld row: black three, 4 .. A",
        "stage one natural of the row's rank from hand (draw phase: only with a natural on "
        "top of the pile)",
        "R-60, R-63",
    ),
    ActionField(
        "stage_deuce",
        N_RANKS,
        "rank 4 .. A",
        "stage one deuce from hand onto the rank's meld; only a row with naturals (the side's "
        "meld, staged ones or the pile's top card)",
        "R-60, R-61",
    ),
    ActionField(
        "stage_joker",
        N_RANKS,
        "rank 4 .. A",
        "stage one joker from hand onto the rank's meld; only a row with naturals",
        "R-60, R-61",
    ),
    ActionField(
        "unstage_natural", OBS_RANKS, "meld row: black three, 4 .. A", "unstage one natural", ""
    ),
    ActionField("unstage_deuce", N_RANKS, "rank 4 .. A", "unstage one deuce from the row", ""),
    ActionField("unstage_joker", N_RANKS, "rank 4 .. A", "unstage one joker from the row", ""),
    ActionField("clear", 1, "", "unstage every staged card", ""),
    ActionField(
        "discard",
        N_DISCARDS,
        "kind: black three, 4 .. A, deuce, joker",
        "meld the staged cards (if any) and discard one card of the kind: the turn ends "
        "(the last card goes out)",
        "R-20, R-23, R-24, R-40, R-60..R-64",
    ),
    ActionField(
        "go_out",
        1,
        "",
        "meld the staged cards and go out without a discard: they empty the hand, or leave one "
        "card that completes the canasta the side needs and is melded too",
        "R-40..R-42, R-63",
    ),
    ActionField(
        "end_deal",
        1,
        "",
        "after drawing a red three as the last stock card: meld the staged cards (if any, by "
        "switch) and end the deal without a discard",
        "R-45",
    ),
)


def _action_offsets(fields: tuple[ActionField, ...]) -> tuple[ActionField, ...]:
    out, offset = [], 0
    for f in fields:
        out.append(f._replace(offset=offset))
        offset += f.count
    return tuple(out)


#: The fine-grained action space (:mod:`canasta_sim.nb.actions`): one entry per block of ids,
#: in id order. ``docs/environment.md`` is written from it.
ACTION_LAYOUT = _action_offsets(_ACTION_FIELDS)
#: First id of each block: ``ActionSlot.discard + kind - BLACK_THREE`` (folded into kernels).
ActionSlot: Any = namedtuple("ActionSlot", [f.name for f in ACTION_LAYOUT])(
    *(f.offset for f in ACTION_LAYOUT)
)
#: Number of fine-grained action ids.
N_ACTIONS = ACTION_LAYOUT[-1].offset + ACTION_LAYOUT[-1].count
#: Actions one player may take in one turn before the episode is truncated (staging and
#: unstaging can go on for ever; uniformly random masked play takes about 40 actions a turn
#: and rarely over 300).
MAX_TURN_ACTIONS = 1000
#: The environment's observation: the observation array (:data:`OBS_LEN` slots) followed by the
#: staged cards, meld rows black three .. ace by naturals, deuces, jokers.
ENV_OBS_LEN = OBS_LEN + OBS_RANKS * 3


class _EnvSlot(NamedTuple):
    deals: int = 0  # deals started by this environment (deal k is seeded by (master, k))
    episodes: int = 1  # episodes started
    episode_deals: int = 2  # deals started in the running episode (a game has several)
    turn_actions: int = 3  # actions of the seat to play in this turn


#: Slots of an environment's counters (``ctl`` of :data:`canasta_sim.nb.vecenv.ENV_DTYPE`).
EnvSlot = _EnvSlot()
ENV_CTL_LEN = len(EnvSlot)


class _EnvTodo(NamedTuple):
    skip: int = -1  # leave the environment as it is
    step: int = 0  # take the given action
    reset: int = 1  # start a new episode


#: What the batched step does with each environment (``todo[i]``).
EnvTodo = _EnvTodo()


# --- the layout of a run's aggregate counts (the counts: canasta_sim.nb.chunk_counts) ---------
class _CountCol(NamedTuple):
    start: int = 0  # the count's first element in the flat array
    row: int = 1  # elements per index of its first axis (its shape's other axes, multiplied)
    bins: int = 2  # length of its last axis (a histogram's bins)


#: Rows of the count layout table, ``ndarray(int64, (COUNT_COLS, len(Count)))``: element
#: ``[i, j]`` of count ``k`` (``j`` the flat index over its other axes) is
#: ``flat[layout[CountCol.start, k] + i * layout[CountCol.row, k] + j]``.
CountCol = _CountCol()
COUNT_COLS = len(CountCol)
