"""Meld texts and the rule checks that need no deal: a meld text parsed into a plan, whether
cards form a legal meld on their own (R-60, R-63), the minimum count of a score (R-64), and
the package's one check of an integer argument (:func:`check_int`: counts, seeds,
indices, seats and scores, from the deal up to the runs and analyses).

A meld text is card notation (:mod:`canasta_sim.cards`) for the cards of one rank, naturals and
wild cards (``"K K K 2"``); a text of wild cards only names its rank first (``"K: 2"``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from .. import cards as C
from ..errors import BadArgument, IllegalMove
from ..nb.engine.melds import meld_ok_nb, minimum_count_nb
from ..nb.enums import BLACK_THREE, DEUCE, FIRST_NATURAL, JOKER, LAST_NATURAL, N_KINDS, RED_THREE
from .rules import Rules


def is_legal_meld(cards, rules: Rules | None = None, *, going_out: bool = False) -> bool:
    """Whether ``cards`` form a legal new meld on their own (R-60, R-63).

    Parameters
    ----------
    cards : str or ndarray(int8, (N_KINDS,))
        Card text or a count array.
    rules : Rules, optional
        ``wilds_at_most_naturals`` decides 9-9-2-2-2 (R-60).
    going_out : bool
        Black threes (3 or 4, no wild cards) may be melded only when going out (R-63).
    """
    rules = as_rules(rules)
    counts = C.parse_cards(cards) if isinstance(cards, str) else np.asarray(cards)
    naturals = [k for k in range(FIRST_NATURAL, LAST_NATURAL + 1) if counts[k]]
    wilds = int(counts[DEUCE]) + int(counts[JOKER])
    if counts[RED_THREE] or len(naturals) > 1:
        return False
    if counts[BLACK_THREE]:
        return bool(going_out and not naturals and wilds == 0 and 3 <= counts[BLACK_THREE] <= 4)
    if not naturals:
        return False
    return bool(
        meld_ok_nb(
            int(counts[naturals[0]]), int(counts[DEUCE]), int(counts[JOKER]), rules.to_array()
        )
    )


def minimum_count(score: int, rules: Rules | None = None) -> int:
    """The minimum count in points for a side whose cumulative score is ``score`` (R-64).

    Raises
    ------
    ValueError
        For a score that is not an integer from -2**31 to 2**31 - 1 (points).
    """
    check_int("score", score, -(2**31), 2**31 - 1)
    rules = as_rules(rules)
    return int(minimum_count_nb(np.int64(score), rules.to_array()))


def meld_row(text: str) -> tuple[int, np.ndarray]:
    """Parse one meld text into (rank kind, [naturals, deuces, jokers]); an optional
    ``"RANK:"`` prefix names the rank of a text of wild cards only."""
    rank = None
    if ":" in text:
        prefix, text = text.split(":", 1)
        rank = C.kind_index(prefix)
    text = text.strip()
    counts = C.parse_cards(text)
    kinds = [k for k in range(BLACK_THREE, LAST_NATURAL + 1) if counts[k]]
    if counts[RED_THREE]:
        raise IllegalMove("R-63", f"red threes are never melded: {text!r}")
    if len(kinds) > 1 or (rank is not None and kinds and kinds[0] != rank):
        raise IllegalMove("R-62", f"a meld holds cards of one rank only: {text!r}")
    if not counts.any():
        raise IllegalMove("R-60", f"a meld needs cards: {text!r}")
    if rank is None:
        if not kinds:
            raise IllegalMove(
                "R-60", f"a meld of wild cards only must name its rank, e.g. 'K: {text.strip()}'"
            )
        rank = kinds[0]
    if not (BLACK_THREE <= rank <= LAST_NATURAL):
        raise IllegalMove("R-60", f"melds are of ranks 4..A (or black threes): {text!r}")
    return rank, np.array([counts[rank], counts[DEUCE], counts[JOKER]], np.int8)


def text_list(name: str, texts, what: str) -> list[str]:
    """``texts`` as a list of str; a single str (whose characters iteration would read as the
    texts) or anything else is a TypeError naming ``name`` and ``what`` is allowed."""
    if isinstance(texts, str):
        raise TypeError(
            f"{name} must be a list of texts ({what}), not the str {texts!r}; write [{texts!r}]"
        )
    if isinstance(texts, Mapping):
        raise TypeError(f"{name} must be a list of texts ({what}), not the mapping {texts!r}")
    try:
        texts = list(texts)
    except TypeError:
        raise TypeError(f"{name} must be a list of texts ({what}), not {texts!r}") from None
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"{name}[{i}] must be a card text ({what}), not {text!r}")
    return texts


def meld_plan(texts: Iterable[str]) -> np.ndarray:
    """Meld texts summed into one plan, ``ndarray(int8, (N_KINDS, 3))``: per rank the
    naturals, deuces and jokers (texts of one rank add up to one meld).

    Raises
    ------
    TypeError
        For ``texts`` that are not a list of str.
    IllegalMove
        For a text that is not a meld of one rank (R-60, R-62, R-63).
    ValueError
        For more than 127 cards of one kind in a meld.
    """
    plan = np.zeros((N_KINDS, 3), np.int64)  # summed wide: int8 would wrap round silently
    for text in text_list("melds", texts, "meld texts such as 'K K K' or 'K: 2'"):
        rank, row = meld_row(text)
        plan[rank] += row
        if plan[rank].max() > 127:
            raise ValueError(
                f"melds: {plan[rank].max()} cards of one kind in the {C.KINDS[rank]} "
                f"meld; a count array holds at most 127"
            )
    return plan.astype(np.int8)


def as_rules(rules) -> Rules:
    """``rules`` as a :class:`Rules`: ``None`` is the classic default, a str names a preset.

    Raises
    ------
    TypeError
        For anything else.
    """
    if rules is None:
        return Rules()
    if isinstance(rules, str):
        return Rules.preset(rules)
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules or a preset name, not {rules!r}")
    return rules


def check_int(name: str, value, low: int, high: int) -> int:
    """The package's one check of an integer argument (a count, seed, index, seat or score):
    ``value`` must be an int or numpy integer (not a bool) from ``low`` to ``high``.

    Returns
    -------
    int
        ``value`` as a Python int.

    Raises
    ------
    BadArgument
        (a ValueError) Naming ``name``, the bad value and the allowed range.
    """
    if (
        not isinstance(value, (int, np.integer))
        or isinstance(value, (bool, np.bool_))
        or not (low <= value <= high)
    ):
        raise BadArgument(
            name, f"{name}={value!r} is not allowed; allowed: an integer from {low:,} to {high:,}"
        )
    return int(value)


def plan_texts(plan: np.ndarray, skip: int = -1) -> tuple[str, ...]:
    """The meld texts of a plan's rows (``ndarray(int8, (N_KINDS, 3))``: naturals, deuces,
    jokers per rank), one per rank, leaving out row ``skip``; a row without naturals names its
    rank (``"K: 2"``), as :func:`meld_row` reads it."""
    texts = []
    rows = plan.tolist()  # Python ints: reading the array element by element costs more
    for r in range(BLACK_THREE, LAST_NATURAL + 1):
        nat, deu, jok = rows[r]
        if r == skip or nat + deu + jok == 0:
            continue
        cards = C.meld_cards(r, nat, deu, jok)
        texts.append(cards if nat else f"{C.KINDS[r]}: {cards}")
    return tuple(texts)
