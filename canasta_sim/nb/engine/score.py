"""Scoring a deal (R-50..R-54)."""

from ..jit import inline_kernel, kernel
from ..layout import (
    BLACK_THREE,
    DEUCE,
    FLAG_CONCEALED,
    G_CONCEALED_OUT,
    G_OUT_SEAT,
    JOKER,
    LAST_NATURAL,
    M_DEUCES,
    M_JOKERS,
    M_NATURALS,
    N_KINDS,
    R_CONCEALED_CANASTA_BONUS,
    R_CONCEALED_GOING_OUT_BONUS,
    R_GOING_OUT_BONUS,
    R_MIXED_CANASTA_BONUS,
    R_NATURAL_CANASTA_BONUS,
    R_PLAYERS,
    R_RED_THREE_TABLE,
    R_SIDES,
    R_VALUES,
    S_MELDED,
    S_R3_DEALT,
    S_R3_DRAWN,
    S_R3_PILE,
    SC_CANASTA_BONUS,
    SC_GOING_OUT_BONUS,
    SC_HAND_PENALTY,
    SC_MELD_POINTS,
    SC_RED_THREES,
    SC_TOTAL,
)
from .melds import meld_size_nb


@inline_kernel
def red_threes_nb(sides, side):
    """Red threes laid out by ``side``, all sources."""
    return sides[side, S_R3_DEALT] + sides[side, S_R3_DRAWN] + sides[side, S_R3_PILE]


@kernel
def score_side_nb(state, rules, side, out):
    """Write the score parts of ``side`` (points) into ``out`` (``int32[SC_LEN]``).

    R-50 red threes (negative if the side made no meld), R-51 canasta bonuses (+ R-66's
    concealed bonus), R-52 going out, R-53 card values in melds, R-54 cards left in hand."""
    hands, melds, meld_flags, sides, g = (
        state.hands,
        state.melds,
        state.meld_flags,
        state.sides,
        state.g,
    )
    red = rules[R_RED_THREE_TABLE + red_threes_nb(sides, side)]
    out[SC_RED_THREES] = red if sides[side, S_MELDED] != 0 else -red
    bonus = 0
    points = 0
    for r in range(BLACK_THREE, LAST_NATURAL + 1):
        d = melds[side, r, M_DEUCES]
        j = melds[side, r, M_JOKERS]
        points += melds[side, r, M_NATURALS] * rules[R_VALUES + r]
        points += d * rules[R_VALUES + DEUCE] + j * rules[R_VALUES + JOKER]
        if r != BLACK_THREE and meld_size_nb(melds, side, r) >= 7:
            if d + j == 0:
                bonus += rules[R_NATURAL_CANASTA_BONUS]
            else:
                bonus += rules[R_MIXED_CANASTA_BONUS]
            if meld_flags[side, r] & FLAG_CONCEALED:
                bonus += rules[R_CONCEALED_CANASTA_BONUS]
    out[SC_CANASTA_BONUS] = bonus
    out[SC_MELD_POINTS] = points
    out[SC_GOING_OUT_BONUS] = 0
    seat_out = g[G_OUT_SEAT]
    if seat_out >= 0 and seat_out % rules[R_SIDES] == side:
        if g[G_CONCEALED_OUT] != 0:
            out[SC_GOING_OUT_BONUS] = rules[R_CONCEALED_GOING_OUT_BONUS]
        else:
            out[SC_GOING_OUT_BONUS] = rules[R_GOING_OUT_BONUS]
    penalty = 0
    for seat in range(side, rules[R_PLAYERS], rules[R_SIDES]):
        for k in range(N_KINDS):
            penalty += hands[seat, k] * rules[R_VALUES + k]
    out[SC_HAND_PENALTY] = penalty
    out[SC_TOTAL] = out[SC_RED_THREES] + bonus + out[SC_GOING_OUT_BONUS] + points - penalty


@kernel
def score_nb(state, rules, out):
    """Score every side into ``out`` (``int32[n_sides, SC_LEN]``, points)."""
    for side in range(rules[R_SIDES]):
        score_side_nb(state, rules, side, out[side])
