"""Self-play experience for learning from outcomes (issue 41 item 3): the learner's decisions
logged by :func:`canasta_sim.nb.selfplay.selfplay_deals_nb`, played in chunks of deals and
joined.

Deal ``i`` of a round is deal ``first + i`` of the master seed (its dealing and its random
stream: :func:`~canasta_sim.nb.engine.rng.deal_seeds_nb`), dealt by seat ``i % players``;
the learner holds side ``i % sides``, so it plays every position against the dealer.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..game.rules import Rules
from ..nb.bots.features import N_CAND_FEAT, N_STATE_FEAT, feature_work
from ..nb.bots.memory import new_bot
from ..nb.bots.policies import APPRENTICE_PARAMS, ApprenticeParam
from ..nb.bots.search_candidates import search_work
from ..nb.engine.rng import deal_seeds_nb
from ..nb.engine.state import STATE_DTYPE
from ..nb.enums import EV_LEN
from ..nb.selfplay import PLAY_LEN, selfplay_deals_nb
from ..players.specs import parse_bot
from ..players.weights import check_players, load_weights, refuse_head_network
from ..run.seating import minimum_counts

#: Deals a call of the kernel plays at most, and the rows its arrays hold per deal (a deal
#: has about 120 decisions, half of them the learner's at 4 players; candidates about 5 a
#: decision). A call that runs out of rows stops before the deal and the next goes on.
CHUNK_DEALS = 256
DECISIONS_PER_DEAL = 90
CANDIDATES_PER_DECISION = 8

#: The most discards a meld plan of the apprentice's candidates can keep (its ``top``'s range).
MAX_TOP = int(APPRENTICE_PARAMS[ApprenticeParam.top].high)

#: The logged arrays (:func:`~canasta_sim.nb.selfplay.selfplay_deals_nb`'s ``logs``).
LOGS = ("state", "meta", "cands", "score", "prob", "positions", "outcome")


@dataclass(frozen=True)
class SelfPlayPlan:
    """What a self-play round plays.

    Attributes
    ----------
    seed : int
        Master seed of the deals (and of the sampling: each deal's own random stream).
    players : int
        Players at the table (2, 3, 4 or 6).
    preset : str
        Rule preset (``classic``, ``hoyle``).
    temperature : float
        The learner's sampling temperature (points; 0: its best candidate).
    pool : str
        The other seats' weight file; empty: the learner's own weights (self-play). They
        play at temperature 0.
    top : int
        The discards each meld plan of a play decision is followed by, the kinds the expert
        ranks highest (1 .. 14), in the learner's and the pool's candidates alike
        (``ApprenticeParam.top``; 4, the apprentice's default, as it plays).
    """

    seed: int = 0
    players: int = 4
    preset: str = "classic"
    temperature: float = 50.0
    pool: str = ""
    top: int = 4


def selfplay(learner: str, plan: SelfPlayPlan, first: int, deals: int) -> dict[str, np.ndarray]:
    """Play deals ``first .. first + deals - 1`` of ``plan`` with the learner's weight file
    ``learner`` and log its decisions.

    Returns
    -------
    dict
        ``state`` ``float32[D, N_STATE_FEAT]``, ``meta`` ``int64[D, PLAY_LEN]``
        (:data:`~canasta_sim.nb.selfplay.PlayCol`, ``first`` indexing the joined candidate
        rows), ``cands`` ``float32[C, N_CAND_FEAT]``, ``score`` ``float32[C]`` (points),
        ``prob`` ``float64[C]`` (the sampling's probability of each candidate),
        ``positions`` ``STATE_DTYPE[D]``, ``outcome`` ``float32[D]`` (points, R-50..R-54).

    Raises
    ------
    ValueError
        For ``deals`` below 1, a negative temperature, ``top`` outside 1 .. 14, a weight
        file that is not one or was fitted for another player count, or a learner's file
        that is a head network (:func:`~canasta_sim.players.weights.refuse_head_network`; the
        pool's may be one: its seats only play).
    """
    if deals < 1:
        raise ValueError(f"deals={deals}: allowed: 1 or more")
    if not 1 <= plan.top <= MAX_TOP:
        raise ValueError(f"top={plan.top}: allowed: 1 .. {MAX_TOP} (discards a meld plan)")
    if plan.temperature < 0:
        raise ValueError(f"temperature={plan.temperature}: allowed: 0 or more (points)")
    rules = Rules.preset(plan.preset, plan.players)
    files = [learner] + ([plan.pool] if plan.pool else [])
    for f in files:
        check_players(f, plan.players)
    refuse_head_network(learner, "the learner")  # its decisions' features are logged
    weights = np.stack([load_weights(f) for f in files])
    lparams = parse_bot("apprentice").vector(plan.players)
    lparams[ApprenticeParam.temperature] = plan.temperature
    pparams = parse_bot("apprentice").vector(plan.players)
    pparams[ApprenticeParam.weight_set] = len(files) - 1
    lparams[ApprenticeParam.top] = pparams[ApprenticeParam.top] = plan.top
    parts: dict[str, list] = {k: [] for k in LOGS}
    done, rows = 0, 0
    while done < deals:
        n = min(CHUNK_DEALS, deals - done)
        played, chunk = _play_chunk(rules, plan, first + done, n, lparams, pparams, weights)
        if played == 0:
            raise RuntimeError(f"deal {first + done}: its decisions fill no chunk's arrays")
        chunk["meta"][:, 5] += rows
        rows += len(chunk["score"])
        for k in LOGS:
            parts[k].append(chunk[k])
        done += played
    return {k: np.concatenate(v) for k, v in parts.items()}


def _play_chunk(rules, plan, first, n, lparams, pparams, weights):
    """Deals ``first .. first + n - 1``: the deals played (whole ones) and their logs."""
    r = rules.to_array()
    deal_ids = np.arange(first, first + n, dtype=np.int64)
    seeds = deal_seeds_nb(np.uint64(plan.seed), np.int64(first), n)
    dealers = (deal_ids % plan.players).astype(np.int32)
    scores = np.zeros((n, rules.sides), np.int32)
    cap = max(n, 4) * DECISIONS_PER_DEAL  # room for a long deal alone
    logs = (
        np.zeros((cap, N_STATE_FEAT), np.float32),
        np.zeros((cap, PLAY_LEN), np.int64),
        np.zeros((cap * CANDIDATES_PER_DECISION, N_CAND_FEAT), np.float32),
        np.zeros(cap * CANDIDATES_PER_DECISION, np.float32),
        np.zeros(cap * CANDIDATES_PER_DECISION, np.float64),
        np.zeros(cap, STATE_DTYPE),
        np.zeros(cap, np.float32),
    )
    rstates, works = search_work(1)
    played, nd, nc = selfplay_deals_nb(
        np.zeros(1, STATE_DTYPE)[0],
        r,
        new_bot(),
        seeds,
        deal_ids,
        dealers,
        minimum_counts(scores, rules),
        scores,
        deal_ids % rules.sides,
        lparams,
        pparams,
        weights,
        rstates[0],
        works[0],
        feature_work(1)[0],
        logs,
        np.zeros((0, EV_LEN), np.int32),
    )
    sizes = (nd, nd, nc, nc, nc, nd, nd)
    return int(played), {k: a[:m].copy() for k, a, m in zip(LOGS, logs, sizes)}
