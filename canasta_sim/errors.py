"""Exceptions, and the messages behind the move kernels' error codes."""

from __future__ import annotations

from .nb import layout as L


class IllegalMove(ValueError):
    """A move the rules do not allow; ``rule`` is the rule id it breaks (e.g. ``"R-32"``).

    The deal it was tried on is left unchanged.
    """

    def __init__(self, rule: str, message: str):
        super().__init__(f"{rule}: {message}")
        self.rule = rule


_MESSAGES = {
    L.ERR_PHASE: ("R-20", "that move is not allowed in this phase of the turn ({phase})"),
    L.ERR_NOT_IN_HAND: ("R-20", "the player's hand does not hold those cards"),
    L.ERR_EMPTY: ("R-60", "a meld needs cards"),
    30: (
        "R-30",
        "the pile cannot be taken when it is empty or a wild card or black three is on top",
    ),
    32: (
        "R-32",
        "the pile is frozen for this side: the top card must be melded with a natural "
        "pair from hand",
    ),
    33: (
        "R-33",
        "the top card must be melded with two naturals, a natural and a wild card, or "
        "put on the side's meld of its rank",
    ),
    35: ("R-35", "a player holding one card may not take a one-card pile"),
    40: (
        "R-40",
        "going out (including melding down to one card, R-22) needs {canastas} "
        "canasta(s) for the side",
    ),
    44: (
        "R-44",
        "with the stock empty the pile must be taken when its top card matches a meld "
        "of the side (and may be taken only that way or with a natural pair)",
    ),
    45: (
        "R-45",
        "only a player who drew a red three as the last stock card ends the turn "
        "without a discard (any other turn ends with one, R-20); that player cannot "
        "discard, and may meld only if meld_after_last_red_three is on",
    ),
    60: (
        "R-60",
        "a meld needs 3+ cards of one rank 4..A, 2+ naturals, at most 3 wild cards{wilds_rule}",
    ),
    61: (
        "R-61",
        "the meld with the added cards breaks R-60 (2+ naturals, at most 3 wild cards{wilds_rule})",
    ),
    62: ("R-62", "a meld holds cards of one rank only"),
    63: (
        "R-63",
        "black threes are melded only as 3 or 4 black threes, without wild cards, when going out",
    ),
    64: ("R-64", "the initial meld must reach the side's minimum count of {minimum} points"),
}


def illegal_move(code: int, **context) -> IllegalMove:
    """Build the :class:`IllegalMove` for a kernel error code (a rule id or an ``ERR_*``)."""
    rule, text = _MESSAGES.get(code, (f"R-{code}", "illegal move"))
    return IllegalMove(rule, text.format_map(_Default(context)))


class _Default(dict):
    def __missing__(self, key):
        return "?"
