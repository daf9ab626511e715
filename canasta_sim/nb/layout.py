"""Index constants of the integer arrays the kernels share.

These are structural enums (which slot of an array holds what), not rules or tables: numba
folds them into the compiled code as constants, which is what we want. Every rule value the
kernels use travels in the ``rules`` argument (``ndarray(int32, (RULES_LEN,))``), built once by
:meth:`canasta_sim.Rules.to_array`.
"""

N_KINDS = 15
RED_THREE = 0
BLACK_THREE = 1
FIRST_NATURAL = 2
LAST_NATURAL = 12
DEUCE = 13
JOKER = 14

# --- the rules array -------------------------------------------------------------------------
R_PLAYERS = 0
R_SIDES = 1
R_DEAL_SIZE = 2
R_DRAW_COUNT = 3
R_CANASTAS_TO_GO_OUT = 4
R_N_CARDS = 5
R_UPCARD_COVERS_BLACK_THREE = 6
R_RED_THREE_UPCARD_FREEZES = 7
R_WILDS_AT_MOST_NATURALS = 8
R_CONCEALED_CANASTA_BONUS = 9
R_CONCEALED_OUT_NEEDS_MINIMUM = 10
R_MELD_AFTER_LAST_RED_THREE = 11
R_NATURAL_CANASTA_BONUS = 12
R_MIXED_CANASTA_BONUS = 13
R_GOING_OUT_BONUS = 14
R_CONCEALED_GOING_OUT_BONUS = 15
R_MAX_TURNS = 16
R_NEGATIVE_MINIMUM = 17
R_GAME_TARGET = 18
R_VALUES = 19  # 15 card values (points), R-04
R_RED_THREE_TABLE = R_VALUES + N_KINDS  # red-three score for 0..6 red threes held, R-50
R_MIN_THRESHOLDS = R_RED_THREE_TABLE + 7  # 4 score thresholds (points), R-64
R_MIN_COUNTS = R_MIN_THRESHOLDS + 4  # minimum count at or above each threshold
# seat tables, so kernels look sides and turn order up instead of dividing:
R_SIDE_OF = R_MIN_COUNTS + 4  # 6 slots: the side of each seat (seat % sides)
R_NEXT_SEAT = R_SIDE_OF + 6  # 6 slots: the seat to each seat's left, who plays next
RULES_LEN = R_NEXT_SEAT + 6

# --- deal scalars: g, ndarray(int64, (G_LEN,)) -----------------------------------------------
G_STOCK_POS = 0  # index of the top stock card in the deck order
G_PILE_LEN = 1
G_PILE_FREEZE = 2  # wild cards (and red threes, R-13) in the pile; > 0 means frozen for all
G_CURRENT = 3  # seat to play
G_PHASE = 4
G_TURN = 5  # completed turns
G_END = 6
G_OUT_SEAT = 7
G_CONCEALED_OUT = 8
G_UPCARD_CARDS = 9
G_FROZEN_AT_START = 10
G_LAST_RED_THREE = 11  # 1 while the player who drew a last-card red three plays on, R-45
G_DEALER = 12
G_TOUCHED_OLD = 13  # 1 if this turn added to a meld made before the turn
G_MOVE = 14  # move counter (trace grouping)
G_FIRST_CANASTA_TURN = 15  # -1 until the first canasta of the deal
G_N_EVENTS = 16  # events written to the trace log
G_PILE_CARDS = 17  # 15 slots: cards per kind that came into the hand from the pile this turn
G_LEN = G_PILE_CARDS + N_KINDS

PHASE_DRAW = 0
PHASE_PLAY = 1
PHASE_OVER = 2

END_NONE = 0
END_WENT_OUT = 1
END_STOCK_EXHAUSTED = 2
END_LAST_RED_THREE = 3
END_TURN_LIMIT = 4

# --- side scalars: sides, ndarray(int32, (n_sides, S_LEN)) -----------------------------------
S_MELDED = 0  # 1 once the side made its initial meld
S_R3_DEALT = 1
S_R3_DRAWN = 2
S_R3_PILE = 3
S_MINIMUM = 4  # minimum count for this deal (points), R-64
# running counts of the side's melds (kept by the move kernels, see nb.state):
S_CANASTAS = 5  # melds of 7 or more cards
S_MELD_RANKS = 6  # bit r set while the side has a meld of rank r
S_LEN = 7

# --- seat scalars: seats, ndarray(int32, (n_players, P_LEN)) ---------------------------------
P_FIRST_MELD_TURN = 0  # turn of the player's first meld, -1 if none yet
P_LEN = 1

# --- meld flags: meld_flags, ndarray(int8, (n_sides, N_KINDS)) ------------------------------
FLAG_CONCEALED = 1  # a concealed canasta
FLAG_PILE_CARDS = 2  # started this turn with cards taken from the pile: cannot be concealed

# --- meld columns: melds, ndarray(int16, (n_sides, N_KINDS, 3)) -----------------------------
M_NATURALS = 0
M_DEUCES = 1
M_JOKERS = 2

# --- error codes returned by move kernels: 0 = legal, otherwise the rule id ----------------
OK = 0
ERR_PHASE = 1  # move not allowed in this phase / deal over
ERR_NOT_IN_HAND = 2  # cards not in the player's hand
ERR_EMPTY = 3  # a meld call with no cards

# --- trace events: log, ndarray(int32, (max_events, EV_LEN)) --------------------------------
EV_TYPE = 0
EV_SEAT = 1
EV_MOVE = 2
EV_KIND = 3
EV_NAT = 4
EV_DEUCE = 5
EV_JOKER = 6
EV_EXTRA = 7
EV_LEN = 8

E_UPCARD = 1
E_RED_THREE = 2  # EXTRA: source (0 dealt, 1 drawn, 2 pile)
E_DRAW = 3
E_TAKE_PILE = 4  # KIND: top card; NAT/DEUCE/JOKER: cards from hand melded with it
E_MELD = 5  # KIND: rank; cards added from hand
E_DISCARD = 6
E_END_TURN = 7  # no discard after a last-card red three
E_GO_OUT = 8  # EXTRA: concealed
E_END = 9  # EXTRA: end reason; KIND: turns

SOURCE_DEALT = 0
SOURCE_DRAWN = 1
SOURCE_PILE = 2

# --- score parts: ndarray(int32, (n_sides, SC_LEN)) -----------------------------------------
SC_RED_THREES = 0
SC_CANASTA_BONUS = 1
SC_GOING_OUT_BONUS = 2
SC_MELD_POINTS = 3
SC_HAND_PENALTY = 4
SC_TOTAL = 5
SC_LEN = 6

SCRATCH_ROWS = 40  # candidate meld plans a bot can hold at once

# --- records written per deal: deal row int32[D_LEN], side rows int32[n_sides, SR_LEN] ------
D_DEALER = 0
D_TURNS = 1
D_END = 2
D_OUT_SEAT = 3
D_CONCEALED_OUT = 4
D_UPCARD_CARDS = 5
D_FROZEN_AT_START = 6
D_FIRST_CANASTA_TURN = 7
D_LEN = 8

SR_R3_DEALT = 0
SR_R3_DRAWN = 1
SR_R3_PILE = 2
SR_NATURAL = 3
SR_MIXED = 4
SR_CONCEALED = 5
SR_MELDS = 6
SR_CANASTA_RANKS = 7  # bit (rank - 2) set for each rank 4..A in which the side has a canasta
SR_WENT_OUT = 8
SR_SCORE = 9  # the SC_LEN score parts follow
SR_LEN = SR_SCORE + SC_LEN
