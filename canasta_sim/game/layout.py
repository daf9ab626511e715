"""A deal's position laid out from what a caller gives: card texts, red threes, scores.

:meth:`Deal.from_position <canasta_sim.game.deals.Deal.from_position>` builds its state here and
:meth:`Deal.new <canasta_sim.game.deals.Deal.new>` its cumulative scores and minimum counts;
every value is checked and a bad one named. :func:`pack_counts` and :func:`card_counts` count the
pack and the cards a position places (``Deal.info_set`` and ``InfoSet`` check the pack with them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from .. import cards as C
from ..nb.engine.deal import freezes_pile_nb
from ..nb.engine.state import StateView, new_state, recount_nb, state_view
from ..nb.enums import (
    BLACK_THREE,
    DEUCE,
    FIRST_NATURAL,
    JOKER,
    LAST_NATURAL,
    N_KINDS,
    RED_THREE,
    DealSlot,
    MeldCol,
    SideSlot,
)
from .notation import check_int, is_legal_meld, meld_plan, minimum_count, text_list
from .rules import Rules


def position_state(
    rules: Rules,
    *,
    hands: Iterable[str],
    stock: str,
    pile: str,
    melds: Mapping[int, Iterable[str]] | None,
    red_threes: Mapping[int, int] | None,
    current: int,
    scores: Mapping[int, int] | None,
) -> tuple[np.void, np.ndarray]:
    """The kernel state of a position written in card notation, at the start of ``current``'s
    turn, and each side's minimum count (``ndarray(int32, (sides,))``, points, R-64).

    The arguments and the errors raised are those of :meth:`Deal.from_position
    <canasta_sim.game.deals.Deal.from_position>`.
    """
    hands = text_list("hands", hands, "one card text per seat, e.g. ['4 5 6', ...]")
    if len(hands) != rules.players:
        raise ValueError(f"hands: {len(hands)} given, {rules.players} players need {rules.players}")
    check_int("current", current, 0, rules.players - 1)
    r = rules.to_array()
    state = new_state()
    view = state_view(state, r)
    h, st, pl, sd, g = view.hands, view.stock, view.pile, view.sides, view.g
    for seat, text in enumerate(hands):
        h[seat] = C.parse_cards(text)
        if h[seat, RED_THREE]:
            raise ValueError(
                f"hands[{seat}]: {text!r} holds a red three; red threes are "
                f"laid out, not held (R-15): give them as red_threes="
            )
    seq = C.parse_sequence(stock)
    n = rules.n_cards
    if len(seq) > n:
        raise ValueError(f"stock: {len(seq)} cards, the pack has {n}")
    st[n - len(seq) :] = seq
    g[DealSlot.stock_pos] = n - len(seq)
    pseq = C.parse_sequence(pile)
    if len(pseq) > n:
        raise ValueError(f"pile: {len(pseq)} cards, the pack has {n}")
    pl[: len(pseq)] = pseq
    g[DealSlot.pile_len] = len(pseq)
    g[DealSlot.pile_freeze] = sum(bool(freezes_pile_nb(k, r)) for k in pseq)
    _lay_melds(rules, view, melds)
    _check_mapping("red_threes", red_threes, "{0: 1}")
    for side, count in (red_threes or {}).items():
        check_int("red_threes side", side, 0, rules.sides - 1)
        check_int(f"red_threes[{side}]", count, 0, rules.n_cards // 27)
        sd[side, SideSlot.r3_dealt] = count
    minimums = side_minimums(rules, scores)
    sd[:, SideSlot.minimum] = minimums
    sd[:, SideSlot.score] = side_scores(rules, scores)
    g[DealSlot.current] = current
    _check_pack(rules, view)
    recount_nb(state, r)
    return state, minimums


def _lay_melds(rules: Rules, view: StateView, melds: Mapping[int, Iterable[str]] | None) -> None:
    """Each side's melds on the table, checked: they are legal melds (R-60, R-61, R-63)."""
    md, sd = view.melds, view.sides
    _check_mapping("melds", melds, "{0: ['K K K']}")
    for side, texts in (melds or {}).items():
        check_int("melds side", side, 0, rules.sides - 1)
        md[side] = meld_plan(texts)  # the texts of one rank add up to one meld
        for rank in np.nonzero(md[side].any(axis=1))[0]:
            counts = np.zeros(N_KINDS, np.int8)
            counts[[rank, DEUCE, JOKER]] = md[side, rank]
            if not is_legal_meld(counts, rules):  # black threes only when going out
                raise ValueError(
                    f"melds[{side}]: {C.format_cards(counts)!r} is not a "
                    f"legal meld on the table (R-60, R-61, R-63)"
                )
        if md[side].any():
            sd[side, SideSlot.melded] = 1


def side_scores(rules: Rules, scores: Mapping[int, int] | None) -> np.ndarray:
    """The cumulative score of every side, ``ndarray(int32, (sides,))`` in points (0 where
    ``scores``, a mapping side -> points, names none).

    Raises
    ------
    TypeError
        For ``scores`` that is not a mapping.
    ValueError
        For a side or score out of range.
    """
    _check_mapping("scores", scores, "{0: 1500}")
    scores = dict(scores or {})
    for side, score in scores.items():
        check_int("scores side", side, 0, rules.sides - 1)
        check_int(f"scores[{side}]", score, -(2**31), 2**31 - 1)
    return np.array([int(scores.get(s, 0)) for s in range(rules.sides)], np.int32)


def side_minimums(rules: Rules, scores: Mapping[int, int] | None) -> np.ndarray:
    """Each side's minimum count for its cumulative score (R-64), ``ndarray(int32,
    (sides,))`` in points; ``scores`` and the errors as for :func:`side_scores`."""
    return np.array([minimum_count(int(x), rules) for x in side_scores(rules, scores)], np.int32)


def _check_mapping(name: str, value, example: str) -> None:
    if value is not None and not isinstance(value, Mapping):
        raise TypeError(f"{name} must map each side to its value, e.g. {example}, not {value!r}")


def pack_counts(rules: Rules) -> np.ndarray:
    """Cards of each kind in the pack (R-01, R-02), ``ndarray(int64, (N_KINDS,))``."""
    return C.KIND_COUNTS_108.astype(np.int64) * rules.n_cards // 108


def card_counts(view: StateView) -> np.ndarray:
    """Cards of each kind anywhere in the deal: hands, stock, pile, melds and red threes laid
    out, ``ndarray(int64, (N_KINDS,))``."""
    h, st, pl, md, sd, g = view.hands, view.stock, view.pile, view.melds, view.sides, view.g
    counts = h.sum(axis=0).astype(np.int64)
    counts += np.bincount(st[g[DealSlot.stock_pos] :], minlength=N_KINDS)
    counts += np.bincount(pl[: g[DealSlot.pile_len]], minlength=N_KINDS)
    counts[FIRST_NATURAL - 1 : LAST_NATURAL + 1] += md[
        :, BLACK_THREE : LAST_NATURAL + 1, MeldCol.naturals
    ].sum(axis=0)
    counts[DEUCE] += md[:, :, MeldCol.deuces].sum()
    counts[JOKER] += md[:, :, MeldCol.jokers].sum()
    counts[RED_THREE] += sd[:, SideSlot.r3_dealt : SideSlot.r3_pile + 1].sum()
    return counts


def _check_pack(rules: Rules, view: StateView) -> None:
    counts, pack = card_counts(view), pack_counts(rules)
    for k in np.nonzero(counts > pack)[0]:
        raise ValueError(
            f"the position has {counts[k]} cards of kind {C.KINDS[k]}, the "
            f"{rules.n_cards}-card pack has {pack[k]}"
        )
