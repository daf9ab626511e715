"""The board's levels: named bots from a beginner to the strongest bot that answers a turn
within a second, each measured against the level below (docs/board.md, figure
``board-levels``, written by ``scripts/board_levels.py``).

A level is offered by name on the page; the server maps the name to its bot spec
(:func:`level_spec`), so the page never needs to know a spec.
"""

from __future__ import annotations

from typing import NamedTuple

from ..errors import BadArgument


class Level(NamedTuple):
    """One level: its ``name`` (lower case, shown on the page), its bot ``spec``
    (docs/bots.md) and a one-line ``description``."""

    name: str
    spec: str
    description: str


#: The levels, weakest first; each beats the one before it (docs/board.md).
LEVELS: tuple[Level, ...] = (
    Level("beginner", "random", "plays a random legal turn"),
    Level("novice", "greedy", "takes the pile whenever it can and melds everything at once"),
    Level("club", "careful", "keeps pairs for pickups, melds late and discards safely"),
    Level("strong", "expert", "the hand-written bot after the strategy books"),
    Level("master", "apprentice", "the learned bot, canasta-sim's default"),
    Level(
        "grandmaster",
        "pimc:rollout=apprentice@11,prior_top=3,margin_z=1",
        "searches the apprentice's best turns by Monte Carlo rollouts",
    ),
)


def level_names() -> str:
    """The level names, weakest first, comma separated (for messages)."""
    return ", ".join(level.name for level in LEVELS)


def level_spec(name: str) -> str:
    """The bot spec of the level called ``name`` (any case).

    Raises
    ------
    BadArgument
        For a name that is no level's (the message lists the levels).
    """
    for level in LEVELS:
        if isinstance(name, str) and level.name == name.strip().lower():
            return level.spec
    raise BadArgument("level", f"level {name!r} is not allowed; allowed: {level_names()}")


def level_of(spec: str) -> str | None:
    """The name of the level whose bot is ``spec`` (a checked spec, as
    :func:`canasta_sim.board.pages.page_bot` gives it), or None for a bot that is no level's."""
    from ..players.specs import parse_bot

    for level in LEVELS:
        if parse_bot(level.spec).spec == spec:
            return level.name
    return None


def level_seats(players: int, you: int, opponents: str, partner: str | None = None) -> str:
    """One bot spec per seat, comma separated (as ``--seats``): the ``opponents`` level on the
    other side's seats, the ``partner`` level (default: the opponents') on your partners'
    seats, and the opponents' on your own seat (not played).

    Parameters
    ----------
    players : int
        Players at the table (2, 3, 4 or 6; checked by the caller).
    you : int
        Your seat; seats ``you % sides`` apart are your side's (R-10).
    opponents, partner : str
        Level names (any case).

    Raises
    ------
    BadArgument
        For a name that is no level's (the message lists the levels).
    """
    from ..game.rules import PLAYER_TABLE

    sides = PLAYER_TABLE[players][0]
    theirs = level_spec(opponents)
    ours = theirs if partner is None else level_spec(partner)
    return ",".join(
        ours if seat % sides == you % sides and seat != you else theirs for seat in range(players)
    )
