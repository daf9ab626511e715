"""Per-deal records: the kernels' integer rows turned into compact pandas DataFrames.

``deals``: one row per deal. ``sides``: one row per deal and side. Column meanings are in
:data:`DEAL_COLUMNS` and :data:`SIDE_COLUMNS`; points are deal points (R-50..R-54).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .nb import layout as L

END_REASONS = ["went_out", "stock_exhausted", "last_red_three", "turn_limit"]

#: deals columns: name -> (dtype, meaning)
DEAL_COLUMNS = {
    "deal": ("int64", "deal index in the run"),
    "seed": ("uint64", "the deal's own seed (from the master seed and the deal index)"),
    "players": ("int8", "players at the table"),
    "dealer": ("int8", "dealer's seat; the seat to its left plays first"),
    "turns": ("int16", "turns played"),
    "end_reason": ("category", "went_out, stock_exhausted, last_red_three or turn_limit"),
    "went_out_seat": ("int8", "seat that went out, -1 if nobody did"),
    "concealed_out": ("bool", "the player went out concealed (R-42)"),
    "upcard_cards": ("int8", "cards turned to make the upcard (R-12)"),
    "pile_frozen_at_start": ("bool", "a wild card or red three among them froze the pile (R-13)"),
    "first_canasta_turn": ("int16", "turn (0-based) of the deal's first canasta, -1 if none"),
}

#: sides columns: name -> (dtype, meaning)
SIDE_COLUMNS = {
    "deal": ("int64", "deal index in the run"),
    "side": ("int8", "side number (R-10)"),
    "bot": ("category", "bot spec of the side's players"),
    "red_threes": ("int8", "red threes laid out, all sources"),
    "red_threes_dealt": ("int8", "red threes in the dealt hand (R-15)"),
    "red_threes_drawn": ("int8", "red threes drawn from the stock, replacements included"),
    "red_threes_from_pile": ("int8", "red threes taken with the discard pile (R-14, R-34)"),
    "natural_canastas": ("int8", "R-65"),
    "mixed_canastas": ("int8", "R-65, R-67"),
    "concealed_canastas": ("int8", "R-66 (each is also natural or mixed)"),
    "melds": ("int8", "melds on the table at the end"),
    "canasta_ranks": ("int16", "bit r-4 set for a canasta of rank r (4 .. 14 = ace)"),
    "meld_points": ("int32", "card values in the side's melds (R-53)"),
    "canasta_bonus": ("int32", "R-51 plus R-66's concealed bonus"),
    "red_three_score": ("int32", "R-50, negative without a meld"),
    "going_out_bonus": ("int32", "R-52"),
    "hand_penalty": ("int32", "card values left in hand, subtracted (R-54)"),
    "score": ("int32", "the side's deal score"),
    "went_out": ("bool", "a player of this side went out"),
}


def deals_frame(
    first_deal: int, seeds: np.ndarray, players: int, deal_rows: np.ndarray
) -> pd.DataFrame:
    """Build the ``deals`` frame of one chunk.

    Parameters
    ----------
    first_deal : int
        Index of the chunk's first deal.
    seeds : ndarray(uint64, (n,))
    players : int
    deal_rows : ndarray(int32, (n, D_LEN))
    """
    n = deal_rows.shape[0]
    end = pd.Categorical.from_codes(
        deal_rows[:, L.D_END].astype(np.int8) - 1, categories=END_REASONS
    )
    return pd.DataFrame(
        {
            "deal": np.arange(first_deal, first_deal + n, dtype=np.int64),
            "seed": seeds,
            "players": np.full(n, players, np.int8),
            "dealer": deal_rows[:, L.D_DEALER].astype(np.int8),
            "turns": deal_rows[:, L.D_TURNS].astype(np.int16),
            "end_reason": end,
            "went_out_seat": deal_rows[:, L.D_OUT_SEAT].astype(np.int8),
            "concealed_out": deal_rows[:, L.D_CONCEALED_OUT].astype(bool),
            "upcard_cards": deal_rows[:, L.D_UPCARD_CARDS].astype(np.int8),
            "pile_frozen_at_start": deal_rows[:, L.D_FROZEN_AT_START].astype(bool),
            "first_canasta_turn": deal_rows[:, L.D_FIRST_CANASTA_TURN].astype(np.int16),
        }
    )


def sides_frame(
    first_deal: int, side_rows: np.ndarray, side_bots: list[str], bot_codes: np.ndarray
) -> pd.DataFrame:
    """Build the ``sides`` frame of one chunk.

    Parameters
    ----------
    first_deal : int
    side_rows : ndarray(int32, (n, n_sides, SR_LEN))
    side_bots : list of str
        Every bot spec of the run (the categories of the ``bot`` column).
    bot_codes : ndarray(int8, (n, n_sides))
        Index into ``side_bots`` of each deal's side.
    """
    n, n_sides, _ = side_rows.shape
    flat = side_rows.reshape(n * n_sides, -1)
    col = lambda i, dtype: flat[:, i].astype(dtype)  # noqa: E731
    dealt, drawn, pile = (col(i, np.int8) for i in (L.SR_R3_DEALT, L.SR_R3_DRAWN, L.SR_R3_PILE))
    score = L.SR_SCORE
    return pd.DataFrame(
        {
            "deal": np.repeat(np.arange(first_deal, first_deal + n, dtype=np.int64), n_sides),
            "side": np.tile(np.arange(n_sides, dtype=np.int8), n),
            "bot": pd.Categorical.from_codes(bot_codes.reshape(-1), categories=side_bots),
            "red_threes": (dealt + drawn + pile).astype(np.int8),
            "red_threes_dealt": dealt,
            "red_threes_drawn": drawn,
            "red_threes_from_pile": pile,
            "natural_canastas": col(L.SR_NATURAL, np.int8),
            "mixed_canastas": col(L.SR_MIXED, np.int8),
            "concealed_canastas": col(L.SR_CONCEALED, np.int8),
            "melds": col(L.SR_MELDS, np.int8),
            "canasta_ranks": col(L.SR_CANASTA_RANKS, np.int16),
            "meld_points": col(score + L.SC_MELD_POINTS, np.int32),
            "canasta_bonus": col(score + L.SC_CANASTA_BONUS, np.int32),
            "red_three_score": col(score + L.SC_RED_THREES, np.int32),
            "going_out_bonus": col(score + L.SC_GOING_OUT_BONUS, np.int32),
            "hand_penalty": col(score + L.SC_HAND_PENALTY, np.int32),
            "score": col(score + L.SC_TOTAL, np.int32),
            "went_out": col(L.SR_WENT_OUT, bool),
        }
    )
