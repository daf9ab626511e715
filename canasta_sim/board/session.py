"""Play a deal from the board: one seat is the user's, the others play the bots of a seating
(as ``--bots``/``--seats``), and the user's turn is entered with the learning environment's
fine-grained actions (:class:`canasta_sim.env.ActionDeal`, docs/environment.md): stage cards
onto melds and take them back, then a discard (or going out) commits the turn. The legality
of every action is the environment's, so every legal turn can be played and an illegal action
is refused with its rule id.

A session is replayable from its deal and the user's actions alone (the bots are
deterministic, docs/bots.md): :func:`replay_session` rebuilds it, which is how the deal's
review (:func:`review_session`) runs in a worker process.

In practice (``practice=True``) the bots wait after each of the user's turns until the user is
done (:func:`play_on`), and :func:`undo` takes back the user's last action of the turn: a
staged card, a ``clear`` or the turn's discard, never the turn's draw or pickup (it showed
cards) nor anything once the bots have played (they drew from the stock) or the deal is over
(its end shows every hand). An undo plays the session again without the action, so the deal
and its trace hold the line finally played; a deal in which undo was used is a practice deal
(``undos``), marked so in its review and its hand's report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from .. import cards as C
from ..env import ACTION_NAMES, ActionDeal
from ..errors import BadArgument
from ..game.deals import Deal
from ..game.notation import check_int
from ..game.trace import format_trace
from ..nb.enums import BLACK_THREE, LAST_NATURAL
from ..run.address import RunDeal
from .frames import table_frame
from .pages import report_files, run_deal


@dataclass
class PlaySession:
    """One deal being played by the user at seat ``you``.

    Attributes
    ----------
    source : dict
        The deal: ``seed``, ``deal``, ``players``, ``bots`` (checked, as the board's seed form).
    you : int
        The user's seat.
    run : RunDeal
    game : ActionDeal
        The deal and the user's staged cards.
    actions : list of str
        The user's actions so far, by name (:data:`canasta_sim.env.ACTION_NAMES`).
    turns : list of (Deal, Deal)
        Each of the user's completed turns: copies of the deal before and after it.
    positions : dict
        ``(turn, decision) -> position mapping`` of the user at each of the user's decisions
        (:func:`canasta_sim.game.positions.position_mapping`): what a hand's report gives.
    practice : bool
        Whether undo is allowed: the bots wait after each of the user's turns.
    waiting : bool
        In practice, whether the user's turn is over and the bots wait for :func:`play_on`.
    undos : int
        The undos used in the deal (a deal with any is a practice deal).
    skill : dict or None
        Once the deal is over and asked for, the user's result beside the bot's with the same
        cards (:func:`canasta_sim.board.skill.luck_and_skill`).
    """

    source: dict
    you: int
    run: RunDeal
    game: ActionDeal
    actions: list[str] = field(default_factory=list)
    turns: list[tuple[Deal, Deal]] = field(default_factory=list)
    positions: dict[tuple[int, int], dict] = field(default_factory=dict)
    practice: bool = False
    waiting: bool = False
    undos: int = 0
    skill: dict | None = None
    _before: Deal | None = None

    @property
    def deal(self) -> Deal:
        return self.game.deal


def new_session(source: dict, you: int, practice: bool = False) -> PlaySession:
    """Deal the deal of ``source`` and let the bots play up to the user's first turn
    (``practice``: undo allowed, :class:`PlaySession`).

    Raises
    ------
    BadArgument
        For a seat out of range.
    """
    run = run_deal(source)
    try:
        check_int("seat", you, 0, run.rules.players - 1)
    except ValueError as exc:
        raise BadArgument("seat", str(exc)) from None
    session = PlaySession(source, you, run, ActionDeal(run.new_deal(trace=True)), practice=practice)
    _bots_play(session)
    return session


def _bots_play(session: PlaySession) -> None:
    """The bots' turns until the user's turn or the end of the deal."""
    deal = session.deal
    while not deal.is_over and deal.current_player != session.you:
        deal.play_turn(seats=list(session.run.seats))
    if not deal.is_over:
        session._before = deal.copy()
        _keep_position(session, 0)


def _keep_position(session: PlaySession, decision: int) -> None:
    """Keep the user's position at ``decision`` of the turn now."""
    from ..game.positions import position_mapping

    deal = session.deal
    key = (deal.turns, decision)
    if key not in session.positions:
        session.positions[key] = position_mapping(deal.info_set(session.you))


def act(session: PlaySession, action: str) -> None:
    """Take the user's ``action`` (a name of :data:`canasta_sim.env.ACTION_NAMES`); when it
    ends the user's turn, the bots play on to the user's next turn.

    In practice the bots wait instead, until :func:`play_on`.

    Raises
    ------
    BadArgument
        When the deal is over, or the user's turn is over and the bots wait.
    ValueError
        For an unknown action name.
    canasta_sim.errors.IllegalMove
        For an action the rules refuse (the deal unchanged); the message names the rule.
    """
    deal = session.deal
    if deal.is_over:
        raise BadArgument("action", "the deal is over: start another")
    if session.waiting:
        raise BadArgument(
            "action", "your turn is over: done lets the bots play, undo takes it back"
        )
    turn = deal.turns
    session.game.step(action)
    session.actions.append(str(action))
    if deal.turns != turn or deal.is_over:  # the turn is complete
        assert session._before is not None
        session.turns.append((session._before, deal.copy()))
        session._before = None
        session.waiting = session.practice and not deal.is_over
        if not session.waiting:
            _bots_play(session)
    elif deal.phase == "play":  # after the turn's first move: decision 1
        _keep_position(session, 1)


def play_on(session: PlaySession) -> None:
    """In practice, once the user's turn is over: the bots play on to the user's next turn.

    Raises
    ------
    BadArgument
        Outside practice, or when the user's turn is not over (or the deal is).
    """
    if not session.practice:  # the bots never wait
        raise BadArgument("done", "done is for practice: start the deal with practice on")
    if not session.waiting:
        raise BadArgument("done", "the bots wait only after your turn: finish it first")
    session.waiting = False
    _bots_play(session)


#: The actions that start a turn: they show cards (a stock card, the pile), never undone.
FIRST_MOVES = ("draw", "take:")


def undo_refusal(session: PlaySession) -> str | None:
    """Why :func:`undo` is refused now, or None when it is allowed."""
    if not session.practice:
        return "undo is for practice: start the deal with practice on"
    if session.deal.is_over:
        return "the deal is over: its end showed every hand"
    if not session.actions:
        return "you have played nothing yet"
    if session.waiting:
        return None  # the turn's discard, before the bots play
    if session.deal.phase == "draw":
        return "the bots have played since your last action: they drew from the stock"
    if session.actions[-1].startswith(FIRST_MOVES):
        return "your turn's draw or pickup showed cards: undo goes back no further"
    return None


def undo(session: PlaySession) -> None:
    """Take back the user's last action of the turn (practice only): the session is played
    again without it (:func:`replay_session`), so its deal and trace hold the line finally
    played; ``undos`` counts it.

    Raises
    ------
    BadArgument
        Naming why, when undo is refused (:func:`undo_refusal`).
    """
    why = undo_refusal(session)
    if why is not None:
        raise BadArgument("undo", f"undo refused: {why}")
    again = replay_session(session.source, session.you, session.actions[:-1], practice=True)
    again.undos = session.undos + 1
    vars(session).update(vars(again))  # the session kept by the board, played again


def replay_session(
    source: dict, you: int, actions: list[str], practice: bool = False
) -> PlaySession:
    """The session of ``source`` after the user's ``actions``, played again (``practice``:
    the bots wait after the last action if it ends a turn, as they did).

    Raises
    ------
    ValueError
        As :func:`new_session` and :func:`act`.
    """
    session = new_session(source, you, practice)
    for action in actions:
        if session.waiting:  # the user acted again: the bots had played
            play_on(session)
        act(session, action)
    return session


def session_view(session: PlaySession) -> dict[str, Any]:
    """What the user sees, as JSON data: ``frame`` (the table, :func:`table_frame`, with the
    other seats' hands hidden while the deal runs: ``hidden`` counts their cards), ``legal``
    (the names of the user's legal actions now), ``staged`` (the staged cards as meld texts)
    and ``staged_rows`` (per meld row: ``rank``, ``cards``), ``log`` (the move log so far),
    ``you``, ``players``, ``sides``, ``seats`` (``"you"`` at the user's), ``actions``
    (the user's actions so far), ``decisions`` (the user's decisions so far, ``[turn,
    decision]``, as :func:`session_report` takes them), ``practice``, ``waiting`` and
    ``undos`` (:class:`PlaySession`), ``undo`` (whether :func:`undo` is allowed now) and
    ``skill`` (once the deal is over, the user's result beside the bot's with the same
    cards, :func:`canasta_sim.board.skill.luck_and_skill`, when computed; else None)."""
    deal = session.deal
    decision = 0 if deal.phase == "draw" else 1
    frame = table_frame(deal, decision, session.run.scores)
    hidden = [0] * deal.rules.players
    if not deal.is_over:  # at the end every hand is shown
        for s in range(deal.rules.players):
            if s != session.you:
                hidden[s] = len(frame["hands"][s].split())
                frame["hands"][s] = ""
    yours = not deal.is_over and deal.current_player == session.you
    return {
        "frame": frame,
        "hidden": hidden,
        "legal": [ACTION_NAMES[a] for a in session.game.legal_actions()] if yours else [],
        "staged": session.game.staged_text(),
        "staged_rows": _staged_rows(session.game.staged),
        "log": format_trace(deal.trace()).splitlines(),
        "you": session.you,
        "players": deal.rules.players,
        "sides": deal.rules.sides,
        "seats": ["you" if s == session.you else b for s, b in enumerate(session.run.seats)],
        "actions": list(session.actions),
        "decisions": [[t, d] for t, d in session.positions],
        "practice": session.practice,
        "waiting": session.waiting,
        "undos": session.undos,
        "undo": undo_refusal(session) is None,
        "skill": session.skill,
    }


def session_report(session: PlaySession, turn: int, decision: int) -> dict[str, Any]:
    """The report of the user's hand at one of the user's decisions, once the deal is over:
    the user's position there and the deal's trace, as
    :func:`canasta_sim.board.pages.report_files` gives them.

    Raises
    ------
    BadArgument
        While the deal runs (a report would show the hidden hands of the trace), or for a
        decision that is not the user's (the message lists the user's decisions).
    """
    if not session.deal.is_over:
        raise BadArgument("play", "a hand's report comes at the end of the deal")
    position = session.positions.get((turn, decision))
    if position is None:
        yours = ", ".join(f"{t}:{d}" for t, d in session.positions)
        raise BadArgument(
            "turn",
            f"turn {turn}, decision {decision} is not yours; allowed (turn:decision): {yours}",
        )
    # a deal played with undo is a practice deal: its files say so
    name = f"{'practice-' if session.undos else ''}play-turn{turn}-{decision}"
    return report_files(position, session.deal.trace(), name)


def _staged_rows(staged) -> list[dict]:
    """The staged cards per meld row: ``{rank, cards}`` (card text)."""
    rows = []
    for r in range(BLACK_THREE, LAST_NATURAL + 1):
        n, d, j = (int(x) for x in staged[r])
        if n + d + j:
            rows.append({"rank": C.KINDS[r], "cards": C.meld_cards(r, n, d, j)})
    return rows


def review_session(
    source: dict, you: int, actions: list[str], worlds: int, seed: int
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The review of the user's deal (:func:`canasta_sim.search.review.review_turns`): every
    decision of the user analysed with ``worlds`` worlds per candidate (the deal's bots as
    rollout bots) and the regret per decision type. Runs in the board's worker process.

    Returns
    -------
    decisions, summary : pandas.DataFrame
        ``decisions``: ``turn``, ``decision``, ``type``, ``choice`` (the user's), ``best``,
        ``regret``, and ``rescored`` with its paired 95% interval ``rescored_lo`` ..
        ``rescored_hi`` (points); ``summary``: the rows of
        :func:`canasta_sim.search.review.deal_summary` for this one deal.
    """
    from ..search.review import review_turns

    session = replay_session(source, you, actions)
    decisions, summary = review_turns(
        session.turns, list(session.run.seats), worlds=worlds, seed=seed
    )
    keep = ["turn", "decision", "type", "bot_choice", "best", "regret"]
    keep += ["rescored", "rescored_lo", "rescored_hi"]
    return decisions[keep].rename(columns={"bot_choice": "choice"}), summary
