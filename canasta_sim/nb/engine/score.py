"""Scoring a deal (R-50..R-54)."""

from ..enums import (
    BLACK_THREE,
    DEUCE,
    JOKER,
    LAST_NATURAL,
    N_KINDS,
    DealSlot,
    MeldCol,
    MeldFlag,
    RuleSlot,
    ScorePart,
    SideSlot,
)
from ..jit import inline_kernel, kernel
from .melds import meld_size_nb


@inline_kernel
def red_threes_nb(sides, side):
    """Red threes laid out by ``side``, all sources."""
    return (
        sides[side, SideSlot.r3_dealt]
        + sides[side, SideSlot.r3_drawn]
        + sides[side, SideSlot.r3_pile]
    )


@kernel
def side_score_nb(state, rules, side):
    """The score parts of ``side`` (points), in :data:`~canasta_sim.nb.enums.ScorePart` order:
    R-50 red threes (negative if the side made no meld), R-51 canasta bonuses (+ R-66's
    concealed bonus), R-52 going out, R-53 card values in melds, R-54 cards left in hand
    (subtracted), and the total."""
    hands, melds, meld_flags, sides, g = (
        state.hands,
        state.melds,
        state.meld_flags,
        state.sides,
        state.g,
    )
    red = rules[RuleSlot.red_three_table + red_threes_nb(sides, side)]
    if sides[side, SideSlot.melded] == 0:
        red = -red
    bonus = 0
    points = 0
    for r in range(BLACK_THREE, LAST_NATURAL + 1):
        d = melds[side, r, MeldCol.deuces]
        j = melds[side, r, MeldCol.jokers]
        points += melds[side, r, MeldCol.naturals] * rules[RuleSlot.values + r]
        points += d * rules[RuleSlot.values + DEUCE] + j * rules[RuleSlot.values + JOKER]
        if r != BLACK_THREE and meld_size_nb(melds, side, r) >= 7:
            if d + j == 0:
                bonus += rules[RuleSlot.natural_canasta_bonus]
            else:
                bonus += rules[RuleSlot.mixed_canasta_bonus]
            if meld_flags[side, r] & MeldFlag.concealed:
                bonus += rules[RuleSlot.concealed_canasta_bonus]
    going_out = 0
    seat_out = g[DealSlot.out_seat]
    if seat_out >= 0 and seat_out % rules[RuleSlot.sides] == side:
        if g[DealSlot.concealed_out] != 0:
            going_out = rules[RuleSlot.concealed_going_out_bonus]
        else:
            going_out = rules[RuleSlot.going_out_bonus]
    penalty = 0
    for seat in range(side, rules[RuleSlot.players], rules[RuleSlot.sides]):
        for k in range(N_KINDS):
            penalty += hands[seat, k] * rules[RuleSlot.values + k]
    return red, bonus, going_out, points, penalty, red + bonus + going_out + points - penalty


@kernel
def score_nb(state, rules, out):
    """Score every side into ``out`` (``int32[n_sides, SC_LEN]``, points; columns
    :data:`~canasta_sim.nb.enums.ScorePart`)."""
    for side in range(rules[RuleSlot.sides]):
        red, bonus, going_out, points, penalty, total = side_score_nb(state, rules, side)
        out[side, ScorePart.red_threes] = red
        out[side, ScorePart.canasta_bonus] = bonus
        out[side, ScorePart.going_out_bonus] = going_out
        out[side, ScorePart.meld_points] = points
        out[side, ScorePart.hand_penalty] = penalty
        out[side, ScorePart.total] = total
