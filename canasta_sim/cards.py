"""Card kinds and the card notation (RULES.md R-01..R-04).

Suits never matter in Canasta except for the colour of threes, so a hand, a meld or a deck is a
*count array*: ``ndarray(int8, (N_KINDS,))`` holding how many cards of each kind it has. The
kinds, in count-array order, are listed in :data:`KINDS`.

Notation: tokens separated by spaces or hyphens, case-insensitive: ``4`` .. ``10`` (also ``T``),
``J``, ``Q``, ``K``, ``A``, ``2`` (deuce), ``JK`` (joker), ``R3`` (red three), ``B3`` (black
three). Example: ``"9 9 9 2 2 JK"`` or ``"9-9-9-2-2-JK"``.
"""

from __future__ import annotations

import re

import numpy as np

KINDS: tuple[str, ...] = (
    "R3",
    "B3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "J",
    "Q",
    "K",
    "A",
    "2",
    "JK",
)
"""Kind names in count-array order (R-02): red 3, black 3, 4 .. A, deuce, joker."""
N_KINDS = len(KINDS)
"""Number of card kinds (15): the length of every count array."""

RED_THREE = 0
BLACK_THREE = 1
FIRST_NATURAL = 2  # the 4
LAST_NATURAL = 12  # the ace
DEUCE = 13
JOKER = 14

#: Cards of each kind in one 108-card pack (two decks plus four jokers), R-01/R-02.
KIND_COUNTS_108 = np.array([4, 4] + [8] * 11 + [8, 4], dtype=np.int8)

_ALIASES = {"T": "10", "JOKER": "JK"}
_INDEX = {name: i for i, name in enumerate(KINDS)}
_SPLIT = re.compile(r"[\s\-]+")


def kind_index(token: str) -> int:
    """Return the count-array index of one card token.

    Parameters
    ----------
    token : str
        One card in the notation of this module, case-insensitive (``"k"``, ``"JK"``, ``"t"``).

    Returns
    -------
    int
        Index into a count array, ``0 <= index < N_KINDS``.

    Raises
    ------
    ValueError
        If the token is not a card; the message names it and lists the allowed tokens.
    TypeError
        If ``token`` is not a str.
    """
    if not isinstance(token, str):
        raise TypeError(f"a card token must be a str such as 'K', not {token!r}")
    name = token.strip().upper()
    name = _ALIASES.get(name, name)
    if name not in _INDEX:
        raise ValueError(
            f"unknown card token {token!r}; allowed: {', '.join(KINDS)} (and T for 10)"
        )
    return _INDEX[name]


def parse_sequence(text: str) -> np.ndarray:
    """Parse card text into the kind code of each card, in the order written.

    Parameters
    ----------
    text : str
        Card tokens separated by spaces or hyphens; the empty string means no cards.

    Returns
    -------
    ndarray(int8, (n_cards,))
        Kind codes (indexes into :data:`KINDS`).

    Raises
    ------
    ValueError
        If a token is not a card.
    TypeError
        If ``text`` is not a str.
    """
    if not isinstance(text, str):
        raise TypeError(f"card text must be a str such as 'K K 2', not {text!r}")
    tokens = [t for t in _SPLIT.split(text.strip()) if t]
    return np.array([kind_index(t) for t in tokens], dtype=np.int8)


def parse_cards(text: str) -> np.ndarray:
    """Parse card text into a count array.

    Parameters
    ----------
    text : str
        Card tokens separated by spaces or hyphens, any order, case-insensitive.

    Returns
    -------
    ndarray(int8, (N_KINDS,))
        How many cards of each kind the text names.

    Raises
    ------
    ValueError
        If a token is not a card (the message names it), or a kind is named more than 127
        times.

    Examples
    --------
    >>> format_cards(parse_cards("jk 2-9 9 9 2"))
    '9 9 9 2 2 JK'
    """
    counts = np.bincount(parse_sequence(text), minlength=N_KINDS)
    if counts.max(initial=0) > 127:
        raise ValueError(f"{counts.max()} cards of one kind: a count array holds at most 127")
    return counts.astype(np.int8)


def format_sequence(codes) -> str:
    """Format kind codes, in the given order, as card text (inverse of :func:`parse_sequence`)."""
    return " ".join(KINDS[int(c)] for c in codes)


def format_cards(counts) -> str:
    """Format a count array as card text, kinds in :data:`KINDS` order.

    Parameters
    ----------
    counts : array_like of int, shape (N_KINDS,)
        Non-negative card counts.

    Returns
    -------
    str
        Space-separated tokens; ``parse_cards(format_cards(c))`` equals ``c``.

    Raises
    ------
    ValueError
        If the array has the wrong length or a negative count.
    """
    counts = np.asarray(counts)
    if counts.shape != (N_KINDS,) or (counts < 0).any():
        raise ValueError(
            f"a count array has shape ({N_KINDS},) and no negative counts; got {counts!r}"
        )
    return " ".join(name for name, n in zip(KINDS, counts) for _ in range(int(n)))


def format_tally(counts) -> str:
    """Format a count array as a tally, kinds in :data:`KINDS` order: ``"R3 x2, K x3"`` (the
    short form of many cards, for messages).

    Parameters
    ----------
    counts : array_like of int, shape (N_KINDS,)
        Non-negative card counts.

    Raises
    ------
    ValueError
        As :func:`format_cards`.
    """
    format_cards(counts)  # the same checks
    return ", ".join(f"{name} x{int(n)}" for name, n in zip(KINDS, counts) if n > 0)


def meld_cards(rank: int, naturals: int, deuces: int, jokers: int) -> str:
    """Card text of one meld row: ``naturals`` cards of kind ``rank``, then the deuces and
    jokers (``meld_cards(11, 3, 1, 0) == "K K K 2"``; R-60)."""
    return " ".join([KINDS[rank]] * naturals + ["2"] * deuces + ["JK"] * jokers)
