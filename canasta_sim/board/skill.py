"""Luck and skill after a deal on the board (docs/board.md, "Luck and skill"): the user's
result beside what the bot of the user's seat would have scored with the same cards.

The bot's result is the user's deal played again from the same shuffle, dealer and cumulative
scores (so the same minimum counts, R-64) with every seat played by its bot, the user's seat
by the bot the seating puts there: with levels, the opponents' level (as
:func:`canasta_sim.board.levels.level_seats` seats it), else the user's side's (or seat's)
bot of ``bots``. The other bots react to different play, so it is the same cards, not the
same line of play. A deal's result is its score difference: the user's side's deal score
minus the mean of the other sides' (points).
"""

from __future__ import annotations

from typing import Any

from .levels import level_of
from .session import PlaySession


def score_difference(scores: dict[int, dict[str, int]], side: int) -> float:
    """``side``'s deal total minus the mean of the other sides' totals (points, R-50..R-54).

    Parameters
    ----------
    scores : dict
        Each side's score parts, as :meth:`canasta_sim.game.deals.Deal.score` gives them.
    side : int
        A side of ``scores``.
    """
    others = [parts["total"] for s, parts in scores.items() if s != side]
    return scores[side]["total"] - sum(others) / len(others)


def luck_and_skill(session: PlaySession) -> dict[str, Any] | None:
    """The user's result and the bot's with the same cards, once the deal is over (None
    while it runs); computed once per session (one deal played by the bots) and kept in
    :attr:`PlaySession.skill`.

    Returns
    -------
    dict or None
        ``you``: ``score`` (the user's side's deal total, points) and ``difference``
        (:func:`score_difference`); ``bot``: the same for the deal played with the bot in the
        user's seat, with its ``spec`` and ``level`` (the level's name, None for a bot that is
        no level's); ``more``: the user's difference minus the bot's (points: positive when
        the user scored more than the bot would have with these cards).
    """
    if not session.deal.is_over:
        return None
    if session.skill is None:
        run, side = session.run, session.you % session.deal.rules.sides
        again = run.new_deal(trace=False)
        again.play_out(seats=list(run.seats))
        yours, bots = session.deal.score(), again.score()
        mine, theirs = score_difference(yours, side), score_difference(bots, side)
        spec = run.seats[session.you]
        session.skill = {
            "you": {"score": yours[side]["total"], "difference": mine},
            "bot": {
                "spec": spec,
                "level": level_of(spec),
                "score": bots[side]["total"],
                "difference": theirs,
            },
            "more": mine - theirs,
        }
    return session.skill
