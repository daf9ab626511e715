"""Per-deal records: the rows the chunk kernel writes, and the pandas frames built from them.

The kernel writes one :data:`deal_dtype` row per deal and one :data:`side_dtype` row per deal
and side (NumPy structured dtypes with compact fields). ``deals`` and ``sides`` frames are
built from those rows directly, plus the columns only the run knows (deal index, seed, players,
side, bot). Every column, with its dtype and meaning, is listed once, in :data:`DEAL_COLUMNS`
and :data:`SIDE_COLUMNS`; points are deal points (R-50..R-54).

A side row names its deal by ``deal`` and ``seed`` together: a folder merged from runs of
different master seeds holds each deal number once per seed, so ``sides.merge(deals,
on=["deal", "seed"])`` is the join (on ``deal`` alone it multiplies rows).

The count columns are compact (``int8``, ``int16``) and pandas keeps their dtype in arithmetic:
``sides.red_threes * 100`` wraps around (-112 for 4 red threes) and ``500 *
sides.natural_canastas`` raises ``OverflowError``. Cast with ``.astype("int64")`` before
arithmetic that can leave the dtype's range.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..nb.enums import EndReason

#: The ``end_reason`` categories: every :data:`~canasta_sim.nb.enums.EndReason` of a finished
#: deal, in code order (code 1 is the first).
END_REASONS = list(EndReason._fields[1:])

#: Columns the kernel writes per deal: (name, dtype, meaning).
_DEAL_FIELDS = (
    ("dealer", "int8", "dealer's seat; the seat to its left plays first"),
    ("turns", "int16", "turns played"),
    ("end_reason", "int8", "went_out, stock_exhausted, last_red_three or turn_limit"),
    ("went_out_seat", "int8", "seat that went out, -1 if nobody did"),
    ("concealed_out", "bool", "the player went out concealed (R-42)"),
    ("upcard_cards", "int8", "cards turned to make the upcard (R-12)"),
    ("pile_frozen_at_start", "bool", "a wild card or red three among them froze the pile (R-13)"),
    ("first_canasta_turn", "int16", "turn (0-based) of the deal's first canasta, -1 if none"),
)

#: Columns the kernel writes per deal and side: (name, dtype, meaning).
_SIDE_FIELDS = (
    ("red_threes", "int8", "red threes laid out, all sources"),
    ("red_threes_dealt", "int8", "red threes in the dealt hand (R-15)"),
    ("red_threes_drawn", "int8", "red threes drawn from the stock, replacements included"),
    ("red_threes_from_pile", "int8", "red threes taken with the discard pile (R-14, R-34)"),
    ("natural_canastas", "int8", "R-65"),
    ("mixed_canastas", "int8", "R-65, R-67"),
    ("concealed_canastas", "int8", "R-66 (each is also natural or mixed)"),
    ("melds", "int8", "melds on the table at the end"),
    ("canasta_ranks", "int16", "bit r-4 set for a canasta of rank r (4 .. 14 = ace)"),
    ("meld_points", "int32", "card values in the side's melds (R-53)"),
    ("canasta_bonus", "int32", "R-51 plus R-66's concealed bonus"),
    ("red_three_score", "int32", "R-50, negative without a meld"),
    ("going_out_bonus", "int32", "R-52"),
    ("hand_penalty", "int32", "card values left in hand, subtracted (R-54)"),
    ("score", "int32", "the side's deal score"),
    ("went_out", "bool", "a player of this side went out"),
    # canasta timing: the side's first three canastas in the order completed
    ("canasta_1_turn", "int16", "turn (0-based) the side completed its 1st canasta, -1 if none"),
    ("canasta_2_turn", "int16", "turn (0-based) of the side's 2nd canasta, -1 if none"),
    ("canasta_3_turn", "int16", "turn (0-based) of the side's 3rd canasta, -1 if none"),
    ("canasta_1_mixed", "bool", "the 1st canasta was mixed when completed (R-67)"),
    ("canasta_2_mixed", "bool", "the 2nd canasta was mixed when completed"),
    ("canasta_3_mixed", "bool", "the 3rd canasta was mixed when completed"),
    ("score_before", "int32", "the side's cumulative score before the deal (points; R-64)"),
    ("pickups", "int8", "discard piles the side took (R-30..R-35)"),
    ("pickups_pair", "int8", "... with a natural pair or more of the top card's rank"),
    ("pickups_wild", "int8", "... with one natural and wild cards (R-33 b)"),
    ("pickups_onto_meld", "int8", "... putting the top card on the side's meld (R-33 c)"),
    ("pile_cards_taken", "int16", "cards in the piles the side took, top cards included"),
    ("pickups_0_4", "int8", "pickups of a pile of 0 to 4 cards"),
    ("pickups_5_9", "int8", "pickups of 5 to 9 cards"),
    ("pickups_10_14", "int8", "pickups of 10 to 14 cards"),
    ("pickups_15_19", "int8", "pickups of 15 to 19 cards"),
    ("pickups_20_24", "int8", "pickups of 20 to 24 cards"),
    ("pickups_25_up", "int8", "pickups of 25 cards or more"),
    ("wild_freezes", "int8", "wild cards discarded onto a pile not yet frozen (R-24, R-31)"),
    ("black_three_blocks", "int8", "black threes discarded, not going out (R-23)"),
    ("initial_meld_turn", "int16", "turn (0-based) of the side's initial meld, -1 if none"),
)

#: The side fields counting pickups by pile size, in bin order (bins of
#: :data:`~canasta_sim.nb.enums.PICKUP_BIN` cards, the last open).
PICKUP_SIZE_FIELDS = (
    "pickups_0_4",
    "pickups_5_9",
    "pickups_10_14",
    "pickups_15_19",
    "pickups_20_24",
    "pickups_25_up",
)

#: Side columns of the canasta timing: (turn, mixed) of the 1st, 2nd and 3rd canasta.
CANASTA_TIMING = tuple((f"canasta_{k}_turn", f"canasta_{k}_mixed") for k in (1, 2, 3))

#: A deal's record row as the chunk kernel writes it (``end_reason``: the EndReason code).
deal_dtype = np.dtype([(name, dtype) for name, dtype, _ in _DEAL_FIELDS])

#: A side's record row as the chunk kernel writes it.
side_dtype = np.dtype([(name, dtype) for name, dtype, _ in _SIDE_FIELDS])

#: deals columns: name -> (dtype, meaning)
DEAL_COLUMNS = {
    "deal": ("int64", "deal index in the run"),
    "seed": ("uint64", "the deal's own seed (from the master seed and the deal index)"),
    "players": ("int8", "players at the table"),
    **{
        name: ("category" if name == "end_reason" else dtype, doc)
        for name, dtype, doc in _DEAL_FIELDS
    },
}

#: sides columns: name -> (dtype, meaning); ``deal`` and ``seed`` together name the deal
SIDE_COLUMNS = {
    "deal": ("int64", "deal index in the run"),
    "seed": ("uint64", "the deal's own seed, as in deals (with deal, names the deal)"),
    "side": ("int8", "side number (R-10)"),
    "bot": (
        "category",
        "bot spec of the side's players; partners with different bots: their specs in "
        "seat order joined by '/'",
    ),
    **{name: (dtype, doc) for name, dtype, doc in _SIDE_FIELDS},
}


def deals_frame(
    first_deal: int,
    seeds: np.ndarray,
    players: int,
    deal_rows: np.ndarray,
    seat_bots: list[str],
    seat_codes: np.ndarray,
) -> pd.DataFrame:
    """Build the ``deals`` frame of one chunk (columns :data:`DEAL_COLUMNS`, then
    ``bot_seat_0`` .. ``bot_seat_{players-1}``: the bot spec of each seat).

    Parameters
    ----------
    first_deal : int
        Index of the chunk's first deal.
    seeds : ndarray(uint64, (n,))
    players : int
    deal_rows : ndarray(deal_dtype, (n,))
    seat_bots : list of str
        Every seat's bot spec of the run (the categories of the ``bot_seat_*`` columns).
    seat_codes : ndarray(int8, (n, players))
        Index into ``seat_bots`` of each deal's seats.
    """
    n = deal_rows.shape[0]
    frame = pd.DataFrame(deal_rows)
    frame["end_reason"] = pd.Categorical.from_codes(
        deal_rows["end_reason"] - 1, categories=END_REASONS
    )
    frame.insert(0, "deal", np.arange(first_deal, first_deal + n, dtype=np.int64))
    frame.insert(1, "seed", seeds)
    frame.insert(2, "players", np.full(n, players, np.int8))
    for seat in range(players):
        frame[f"bot_seat_{seat}"] = pd.Categorical.from_codes(
            seat_codes[:, seat], categories=seat_bots
        )
    return frame


def sides_frame(
    first_deal: int,
    seeds: np.ndarray,
    side_rows: np.ndarray,
    side_bots: list[str],
    bot_codes: np.ndarray,
) -> pd.DataFrame:
    """Build the ``sides`` frame of one chunk (columns :data:`SIDE_COLUMNS`).

    Parameters
    ----------
    first_deal : int
    seeds : ndarray(uint64, (n,))
        Each deal's own seed (the ``seed`` of its ``deals`` row).
    side_rows : ndarray(side_dtype, (n, n_sides))
    side_bots : list of str
        Every bot spec of the run (the categories of the ``bot`` column).
    bot_codes : ndarray(int8, (n, n_sides))
        Index into ``side_bots`` of each deal's side.
    """
    n, n_sides = side_rows.shape
    frame = pd.DataFrame(side_rows.reshape(-1))
    frame.insert(
        0, "deal", np.repeat(np.arange(first_deal, first_deal + n, dtype=np.int64), n_sides)
    )
    frame.insert(1, "seed", np.repeat(np.asarray(seeds, np.uint64), n_sides))
    frame.insert(2, "side", np.tile(np.arange(n_sides, dtype=np.int8), n))
    frame.insert(3, "bot", pd.Categorical.from_codes(bot_codes.reshape(-1), categories=side_bots))
    return frame


def record_frame(result, i: int, name: str) -> pd.DataFrame | None:
    """Record frame ``i`` (file ``NAME.parquet``) of a run's ``result``, a
    :class:`~canasta_sim.run.simulate.SimulationResult` or a
    :class:`~canasta_sim.run.games.GamesResult`: held in ``result.frames`` by a run without
    ``out``, else read from ``result.folder`` when the run kept records; ``None`` when it
    kept none."""
    if result.frames is not None:
        return result.frames[i]
    if result.folder is not None and result.manifest["records"]:
        return pd.read_parquet(result.folder / f"{name}.parquet")
    return None
