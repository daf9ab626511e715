"""Each policy ranks the candidates it is offered (docs/analysis.md, "Ranking candidates").

The ranking serves the search bot's "top candidates" idea outside the kernels: ``analyse`` with
``top=K`` rolls out only the rollout bot's K first candidates, and ``review`` bounds its
candidates the same way. The order:

1. the policy's own choice, found by letting it play the decision on a copy of the deal and
   matching the result to a candidate (:func:`policy_choice`);
2. then, for the ``expert`` (and its presets, and the search bot's rollout expert) in the play
   phase, its discard ranking (:func:`~canasta_sim.nb.bots.discards.choose_discard_nb`, its
   choice, then its choice without that kind, and so on, as the search bot ranks its discards)
   after each plan is laid: the plans in turn (the policy's own plan first, then the empty
   plan, then the candidates' order), each giving its best-ranked discard not yet listed,
   round after round;
3. otherwise (the draw phase, other policies) the candidates' own order.
"""

from __future__ import annotations

import numpy as np

from ..game.deals import Deal
from ..game.infoset import InfoSet
from ..nb.bots.discards import choose_discard_nb
from ..nb.bots.expert import PAIR_KEEP
from ..nb.bots.memory import new_bot
from ..nb.bots.policies import EXPERT_DEFAULTS, ExpertParam, PimcParam, PolicyCode
from ..nb.enums import N_KINDS, DealSlot
from .choices import Candidate, decision_deal, lay_plan, play_candidate
from .pybot import seated
from .specs import Bot, parse_bot


def rank_candidates(position, found: list[Candidate], bot="expert") -> list[Candidate]:
    """``found`` in the order the policy ``bot`` ranks them (module docstring).

    Parameters
    ----------
    position : Deal or InfoSet
        The decision; a :class:`~canasta_sim.InfoSet` is played on
        :func:`~canasta_sim.players.choices.decision_deal` (its seat must be the seat to play).
    found : list of Candidate
        Candidates of that decision (:func:`~canasta_sim.players.choices.candidates`).
    bot : str or Bot
        Bot spec (``canasta_sim.players.specs``), also a bot written in Python.

    Returns
    -------
    list of Candidate
        The same candidates, reordered; the policy's own choice first, added in front when
        it is a play-phase choice missing from ``found`` (a plan the pruning left out), so
        the result can be one longer than ``found``.

    Raises
    ------
    ValueError
        For an unknown bot spec, or an information set whose seat is not to play.
    """
    deal = decision_deal(position) if isinstance(position, InfoSet) else position
    bot = parse_bot(bot) if isinstance(bot, str) else bot
    own = policy_choice(deal, found, bot)
    rest = [c for c in found if c != own]
    params = _rollout_params(bot, deal.rules.players)
    if deal.phase == "play" and params is not None:
        rest = _by_discard_ranking(deal, rest, own, params)
    return ([own] if own is not None else []) + rest


def policy_choice(deal: Deal, found: list[Candidate], bot) -> Candidate | None:
    """The candidate the policy ``bot`` (str or Bot) plays at ``deal``'s decision.

    The policy plays the rest of the turn on a copy of ``deal``; the choice is the candidate
    of ``found`` that, followed by the same policy for the rest of that turn, leaves the same
    hands, melds, pile and stock. In the play phase a choice not in ``found`` is built from
    the melds it laid and its discard (:func:`~canasta_sim.players.choices.play_candidate`).
    ``None`` when nothing matches: a draw-phase choice outside ``found``.
    """
    spec = bot.spec if isinstance(bot, Bot) else bot
    played = deal.copy()
    played.play_turn(seated(deal.rules, spec))
    for c in found:
        trial = deal.copy()
        c.apply(trial)
        if trial.phase == "play" and trial.current_player == deal.current_player:
            trial.play_turn(seated(deal.rules, spec))
        if _same_board(trial, played):
            return c
    if deal.phase != "play":
        return None
    return played_candidate(deal, played)


def played_candidate(before: Deal, after: Deal) -> Candidate | None:
    """The play-phase candidate that took ``before`` to ``after`` (the end of the same turn):
    the melds the side gained, then the card the pile gained, or the end of the deal after a
    last-card red three (R-45); ``None`` for any other turn that ended without a discard or
    going out."""
    seat = before.current_player
    side = seat % before.rules.sides
    plan = (after.view.melds[side] - before.view.melds[side]).astype(np.int8)
    n = int(before.view.g[DealSlot.pile_len])
    discard = int(after.view.pile[n]) if int(after.view.g[DealSlot.pile_len]) == n + 1 else -1
    left = int(before.view.hands[seat].sum()) - int(plan.sum())
    end_deal = after.end_reason == "last_red_three"
    if discard < 0 and after.went_out != seat and not end_deal:
        return None
    return play_candidate(plan, discard, left, end_deal)


def _same_board(a: Deal, b: Deal) -> bool:
    """Whether two deals hold the same cards in the same places (hands, melds, pile, stock)."""
    va, vb = a.view, b.view
    return (
        np.array_equal(va.hands, vb.hands)
        and np.array_equal(va.melds, vb.melds)
        and a.pile == b.pile
        and a.stock_size == b.stock_size
        and a.current_player == b.current_player
        and a.phase == b.phase
    )


def _rollout_params(bot: Bot, players: int) -> np.ndarray | None:
    """The expert parameters behind ``bot``'s discards with ``players`` at the table (the
    search bot's: its rollout expert's), or ``None`` for a policy without a discard ranking."""
    if bot.is_python:
        return None
    if bot.policy.code == PolicyCode.expert:
        return bot.vector(players)[: len(EXPERT_DEFAULTS)]
    if bot.policy.code == PolicyCode.pimc:
        return bot.vector(players)[PimcParam.expert : PimcParam.expert + len(EXPERT_DEFAULTS)]
    return None


def _by_discard_ranking(deal: Deal, rest, own, params) -> list[Candidate]:
    """``rest`` ordered round by round over the plans (``own``'s plan, the empty plan, then
    ``rest``'s order), each round taking every plan's best-ranked discard left."""
    groups: dict[bytes, list[Candidate]] = {}
    first = [own.plan.tobytes()] if own is not None else []
    for key in [*first, np.zeros((N_KINDS, 3), np.int8).tobytes()]:
        groups[key] = []
    for c in rest:
        groups.setdefault(c.plan.tobytes(), []).append(c)
    ranked = [_ranked_discards(deal, group, params) for group in groups.values() if group]
    out = []
    for i in range(max((len(g) for g in ranked), default=0)):
        out += [g[i] for g in ranked if i < len(g)]
    return out


def _ranked_discards(deal: Deal, group: list[Candidate], params) -> list[Candidate]:
    """The candidates of one plan, their discards in the expert's ranking after the plan is
    laid (kinds it does not rank, and a going out without a discard, after those it ranks)."""
    trial = deal.copy()
    plan = group[0].plan
    if plan.any():
        lay_plan(trial, plan)
    state = trial.state
    seat = trial.current_player
    hand = state["hands"][seat]
    bot = new_bot()
    order = []
    while True:
        k = choose_discard_nb(
            state,
            trial.rules_array,
            bot,
            seat,
            params[ExpertParam.safety],
            int(params[ExpertParam.block_at]),
            params[ExpertParam.freeze_risk],
            np.int64(0),
            PAIR_KEEP,
        )
        if k < 0 or hand[k] == 0:
            break
        order.append(int(k))
        hand[k] = 0  # the copy's hand: its next best kind
    rank = {k: i for i, k in enumerate(order)}
    return sorted(group, key=lambda c: rank.get(c.discard_kind, len(order)))
