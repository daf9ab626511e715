"""Exceptions, and the messages behind the move kernels' error codes."""

from __future__ import annotations

import traceback

from .nb.enums import MOVE_ERROR_RULES, MoveError


class IllegalMove(ValueError):
    """A move the rules do not allow; ``rule`` is the rule id it breaks (e.g. ``"R-32"``).

    The deal it was tried on is left unchanged.
    """

    def __init__(self, rule: str, message: str):
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.detail = message  # the message without the rule id, to quote it in another


#: The message of each MoveError code ({phase}, {canastas}, {minimum}, {wilds_rule}: context).
_MESSAGES = {
    MoveError.phase: ("that move is not allowed in this phase of the turn ({phase})"),
    MoveError.not_in_hand: ("the player's hand does not hold those cards"),
    MoveError.empty: ("a meld needs cards"),
    MoveError.nothing_staged: (
        "no such card is staged: unstaging takes back a card staged this turn, and clearing "
        "needs staged cards"
    ),
    MoveError.pile_top: (
        "the pile cannot be taken when it is empty or a wild card or black three is on top"
    ),
    MoveError.frozen_pile: (
        "the pile is frozen for this side: the top card must be melded with a natural "
        "pair from hand"
    ),
    MoveError.pile_pickup: (
        "the top card must be melded with two naturals, a natural and a wild card, or "
        "put on the side's meld of its rank"
    ),
    MoveError.one_card_pile: ("a player holding one card may not take a one-card pile"),
    MoveError.going_out: (
        "going out (including melding down to one card, R-22) needs {canastas} "
        "canasta(s) for the side"
    ),
    MoveError.forced_pickup: (
        "with the stock empty the pile must be taken when its top card matches a meld "
        "of the side (and may be taken only that way or with a natural pair)"
    ),
    MoveError.last_red_three: (
        "only a player who drew a red three as the last stock card ends the turn "
        "without a discard (any other turn ends with one, R-20); that player cannot "
        "discard, and may meld only if meld_after_last_red_three is on"
    ),
    MoveError.new_meld: (
        "a meld needs 3+ cards of one rank 4..A, 2+ naturals, at most 3 wild cards{wilds_rule}"
    ),
    MoveError.meld_addition: (
        "the meld with the added cards breaks R-60 (2+ naturals, at most 3 wild cards{wilds_rule})"
    ),
    MoveError.black_threes: (
        "black threes are melded only as 3 or 4 black threes, without wild cards, when going out"
    ),
    MoveError.minimum_count: (
        "the initial meld must reach the side's minimum count of {minimum} points"
    ),
}


def illegal_move(code: int, **context) -> IllegalMove:
    """Build the :class:`IllegalMove` for a move kernel's :data:`~canasta_sim.nb.enums.MoveError`
    code (the rule id it names, :data:`~canasta_sim.nb.enums.MOVE_ERROR_RULES`)."""
    rule = MOVE_ERROR_RULES.get(code, f"R-{code}")
    text = _MESSAGES.get(code, "illegal move")
    return IllegalMove(rule, text.format_map(_Default(context)))


class _Default(dict):
    def __missing__(self, key):
        return "?"


class BadArgument(ValueError):
    """A bad value of one argument; ``argument`` is its keyword name (``"scores"``), so the
    command line can name the one option at fault (``--scores``)."""

    def __init__(self, argument: str, message: str):
        super().__init__(message)
        self.argument = argument

    def __reduce__(self):
        return type(self), (self.argument, str(self))


class BadSwitch(ValueError):
    """A rules switch (RULES.md section 8) that is unknown or has a value it does not allow;
    ``switch`` is its name, so the command line can name the option that set it."""

    def __init__(self, switch: str, message: str):
        super().__init__(message)
        self.switch = switch

    def __reduce__(self):
        return type(self), (self.switch, str(self))


class InterruptedAfterCommit(KeyboardInterrupt):
    """Ctrl-C (a ``KeyboardInterrupt``) that arrives once a run's results folder is in place
    (:func:`canasta_sim.run.outdir.commit_out`): the run it stops is finished, its results
    complete in ``folder`` (a :class:`pathlib.Path`). A caller that runs more (a study's
    next cell) stops as on any Ctrl-C; the command line reports the run as finished."""

    def __init__(self, folder):
        super().__init__(str(folder))
        self.folder = folder


class BotError(Exception):
    """An exception raised inside a bot written in Python (``py:FILE.py:CLASS``), or an answer
    of it that is not a candidate: the bot's fault, not the input's.

    ``spec`` is the bot's spec; the message names it, the seat and decision, the exception and
    the bot's own frames (file and line), and the original exception is the ``__cause__``.
    """

    def __init__(self, spec: str, message: str):
        super().__init__(f"the Python bot {spec} {message}")
        self.spec = spec

    @classmethod
    def raised(cls, spec: str, when: str, exc: BaseException, frames) -> BotError:
        """The error for ``exc``, raised by the bot's own code ``when`` (``"of seat 0 at the
        draw decision"``), with the traceback ``frames`` (a traceback object from the bot's
        first frame on, or ``None``) as file, line and source."""
        text = "".join(traceback.format_exception_only(type(exc), exc)).rstrip()
        if "\n" in text:  # a syntax error: its file, line and caret, then its message
            text = f"{type(exc).__name__}:\n{text}"
        where = "".join(traceback.format_list(traceback.extract_tb(frames))).rstrip()
        return cls(spec, f"{when} raised {text}" + (f":\n{where}" if where else ""))

    def __reduce__(self):
        return type(self), (self.spec, str(self).removeprefix(f"the Python bot {self.spec} "))


def missing_extra(what: str, extra: str, exc: ImportError) -> ModuleNotFoundError:
    """The error for ``what`` (e.g. ``"the board"``) needing the optional extra ``extra``
    whose import ``exc`` failed: it names the extra, the missing module and the install line
    of a checkout (the project is not on a package index).

    Returns
    -------
    ModuleNotFoundError
        With ``name`` the missing module; raise it ``from None``.
    """
    return ModuleNotFoundError(
        f"{what} needs the optional extra '{extra}' ({exc.name} is missing): "
        f'pip install -e ".[{extra}]" in the checkout',
        name=exc.name,
    )
