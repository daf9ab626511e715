"""Decision analysis: every candidate at a decision rolled out in sampled worlds, on common
random numbers, with paired intervals and racing (docs/analysis.md).

Each world (the hidden hands, the stock order and the bots' random stream, from
:meth:`InfoSet.sample_worlds`) is played once per candidate still in the race, so the
difference between two candidates in a world is paired: the luck of the world cancels.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import numba
import numpy as np
import pandas as pd

from ..game.infoset import InfoSet, Worlds
from ..game.notation import check_int
from ..game.rules import Rules
from ..nb.bots.learned_calls import candidate_scores
from ..nb.bots.policies import ROLLOUT_CODES, ApprenticeParam
from ..nb.play import Seating
from ..nb.rollout import CandidateRows, Pairs, RolloutCol, WorldCards, rollouts
from ..players.choices import (
    MAX_CANDIDATES,
    Candidate,
    decision_deal,
    find_candidate,
    is_legal,
    list_candidates,
)
from ..players.ranking import rank_candidates
from ..players.specs import (
    POLICIES,
    PRESETS,
    Bot,
    find_policy,
    seat_arrays,
    side_bots,
    split_bot_list,
    weight_sets,
)
from ..run.compiling import compile_watch
from .equity import in_scope, p_win_game, play_out, table_policy
from .race import FinishedRace, RaceSettings, format_table, objective_values, race_tables

#: Objectives the race can be run on, and the column of the table holding each.
OBJECTIVES = {
    "score_diff": "the deal score of the own side minus the best other side's (points)",
    "own_score": "the own side's deal score (points)",
    "win_deal": "1 if the own side scores more than every other side this deal, else 0",
}
#: How P(win the game) is found (docs/analysis.md, "P(win the game)").
WIN_GAME = {
    "auto": "the game-equity table where it covers the rules, else playing the game out",
    "table": "the game-equity table (n/a where it does not cover the rules)",
    "play-out": "every world's game played out after the deal by the rollout bots",
}
DROP_Z = 2.33  # a candidate this many paired standard errors behind the best leaves the race
BATCH = 1000  # worlds added per round of the race after the first min_worlds


@dataclass(frozen=True)
class AnalysisResult:
    """The outcome of :func:`analyse`.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per candidate, best first (by the objective): ``candidate`` (label),
        ``score_diff`` with ``score_diff_lo``/``score_diff_hi`` (95% interval, points),
        ``vs_best`` with ``vs_best_lo``/``vs_best_hi`` (the paired difference of the objective
        to the best candidate over the worlds both played, 95% interval), ``p_win_deal``,
        ``p_win_game`` (from the scores after the deal: the game-equity table, or the game
        played out, :mod:`canasta_sim.search.equity` and ``win_game``; NaN where neither was
        used),
        ``own_score`` and ``own_score_sd`` (points), ``p_own_out``, ``p_other_out`` (a seat
        of another side went out), ``worlds``; with the learned bot ``apprentice`` as the
        analysed side's rollout bot, ``learned``: its own score of the candidate (points, the
        learned value of the score difference; NaN for one it does not generate: with a
        head network, every candidate of a draw decision, which the expert makes).
    settings : str
        One line: seed, worlds, rollout bots, stratification, elapsed seconds (and apart, the
        seconds a first use spent compiling the kernels, ``meta["compile_seconds"]``), how much the
        pairing shrank the variance of the differences, why the race stopped.
    per_world : pandas.DataFrame
        One row per rollout: ``world``, ``candidate``, ``own_score``, ``other_score`` (the
        best other side's), ``out_seat`` (-1: nobody went out), ``end`` (end reason code),
        ``win_game`` (the world's P(win the game): the table's value, 1 or 0 from the game
        played out, NaN).
    info_set : InfoSet
    candidates : list of Candidate
        In the table's order.
    meta : dict
        The settings as values (JSON-able).
    """

    table: pd.DataFrame
    settings: str
    per_world: pd.DataFrame
    info_set: InfoSet
    candidates: list
    meta: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return format_table(self.table) + "\n" + self.settings

    def write(self, out) -> Path:
        """Write ``analysis.json`` (settings, table, position) and ``per_world.parquet`` into
        the new folder ``out``, complete or not at all (staged, then renamed).

        Raises
        ------
        ValueError
            If ``out`` exists or cannot be written.
        """
        from ..results.run_folder import writing
        from ..run.outdir import commit_out, json_text, prepare_out, staging_folder, write_text

        target = prepare_out(out, overwrite=False)
        with staging_folder(target) as tmp:
            doc = {
                "settings": self.settings,
                "meta": self.meta,
                "position": _position(self.info_set),
                "table": json.loads(self.table.to_json(orient="records")),
            }
            write_text(tmp / "analysis.json", json_text(doc))
            with writing(tmp / "per_world.parquet"):
                self.per_world.to_parquet(tmp / "per_world.parquet", index=False)
            commit_out(tmp, target)
        return target.path


def rollout_names() -> str:
    """Every bot name a rollout spec may start with (the policies the rollout kernel plays and
    their presets), for messages."""
    names = [*POLICIES, *PRESETS]  # a preset's policy is the name before its "@"
    return ", ".join(n for n in names if POLICIES[n.partition("@")[0]].code in ROLLOUT_CODES)


def rollout_bots(rollout, sides: int) -> list[Bot]:
    """The rollout bots of a spec for every side or one per side (:func:`side_bots`): the
    policies the rollout kernel plays (random, greedy, careful, expert and its presets,
    apprentice and its presets).

    Raises
    ------
    ValueError
        For a bad spec (as :func:`side_bots`; an unknown bot's message lists the rollout bots
        alone), a bot written in Python (it plays outside the kernels) or the search bot
        ``pimc`` (the rollouts hold no search; docs/pimc.md).
    """
    # an unknown name is refused here: side_bots' message would list every bot, pimc included
    specs = split_bot_list(rollout) if isinstance(rollout, str) else rollout
    for spec in specs if isinstance(specs, (list, tuple)) else ():
        name = spec.partition(":")[0].strip() if isinstance(spec, str) else "py"
        if name.lower() != "py" and find_policy(name) is None:
            raise ValueError(f"unknown rollout bot {name!r}; allowed: {rollout_names()}")
    bots = side_bots(rollout, sides)
    for bot in bots:
        if bot.policy.code not in ROLLOUT_CODES:
            why = (
                "is written in Python, and the rollouts run in the kernels"
                if bot.is_python
                else "is the search bot, which cannot be a rollout bot (docs/pimc.md)"
            )
            raise ValueError(
                f"rollout bot {bot.spec!r} {why}; pass an expert spec (e.g. 'expert', "
                f"'expert@1', 'expert:safety=80') or 'apprentice'; allowed: {rollout_names()}"
            )
    return bots


def rollout_seating(rollout, rules: Rules) -> tuple[list[Bot], Seating, np.ndarray]:
    """The rollout bots of a spec (:func:`rollout_bots`) at a table of ``rules``, their
    seating and their weight sets (:func:`~canasta_sim.players.specs.weight_sets`).

    Raises
    ------
    ValueError
        As :func:`rollout_bots`, or as :func:`~canasta_sim.players.specs.weight_sets`: an
        apprentice's ``weights=PATH`` fitted for another player count or not a weight file.
    """
    bots = rollout_bots(rollout, rules.sides)
    policies, params = seat_arrays(bots, rules.players)
    _, weights = weight_sets([bots], rules.players, params[None])  # writes the weight sets
    return bots, Seating(policies[None], params[None]), weights


def analyse(
    info_set: InfoSet,
    candidates=None,
    *,
    worlds: int | None = None,
    min_worlds: int = 1000,
    max_worlds: int = 200_000,
    target_se: float = 5.0,
    rollout="expert",
    seed: int = 0,
    objective: str = "score_diff",
    stratify: bool = True,
    threads: int | None = None,
    top: int | None = None,
    win_game: str = "auto",
    max_candidates: int = MAX_CANDIDATES,
) -> AnalysisResult:
    """Roll out each candidate of the decision in shared sampled worlds and rank them.

    The race: every candidate plays the first ``min_worlds`` worlds; after that, rounds of
    :data:`BATCH` worlds; a candidate whose objective is more than :data:`DROP_Z` (2.33)
    standard errors of the paired difference behind the best candidate's leaves the race.
    The race stops when every remaining paired standard error is below ``target_se`` or at
    ``max_worlds``; a single candidate (a forced move, or one asked for) plays ``min_worlds``
    worlds (``worlds`` when given), since no difference is left to measure.

    Parameters
    ----------
    info_set : InfoSet
        The decision; its seat must be the seat to play.
    candidates : list of str or Candidate, optional
        Labels (as :func:`canasta_sim.players.choices.candidates` writes them) or candidates; all
        legal candidates when ``None``.
    worlds : int, optional
        Play exactly this many worlds for every candidate (no race).
    min_worlds, max_worlds : int
        Worlds before any candidate is dropped; the most worlds a candidate plays.
    target_se : float
        Standard error of the paired differences at which the race stops, in the objective's
        unit (points; a probability for ``win_deal``).
    rollout : str or list of str
        Bot spec for every side, or one per side (``canasta_sim.players.specs``); plays the rest of
        the deal, the analysed seat's turn included.
    seed : int
        Master seed of the worlds (0 .. 2**64 - 1).
    objective : str
        What the race ranks: a key of :data:`OBJECTIVES`.
    stratify : bool
        Stratify the next stock card over the worlds (:meth:`InfoSet.sample_worlds`).
    threads : int, optional
        Threads for the rollouts (all cores by default).
    top : int, optional
        Roll out only the ``top`` candidates the own side's rollout bot ranks first
        (:func:`canasta_sim.players.ranking.rank_candidates`: its own choice first); all by default.
    win_game : str
        How P(win the game) is found, a key of :data:`WIN_GAME`: ``"auto"`` (the
        game-equity table where it covers the rules, else the play-out), ``"table"`` or
        ``"play-out"`` (each world's game played on after the deal by the rollout bots to
        R-55's end, :func:`canasta_sim.search.equity.play_out`: slower, several deals a world).
    max_candidates : int
        The candidate layer's cap (``cap`` of :func:`canasta_sim.players.choices.candidates`, 64
        by default): the most play-phase candidates listed, meld plans taken whole in their
        order; the settings and ``meta["plans_left_out"]`` say how many plans it left out.

    Returns
    -------
    AnalysisResult

    Raises
    ------
    TypeError
        For an ``info_set`` that is not an :class:`InfoSet`.
    ValueError
        For an unknown candidate label, bot spec or objective, counts out of range, or an
        information set whose seat is not to play.
    """
    t0 = time.perf_counter()
    if not isinstance(info_set, InfoSet):
        raise TypeError(
            f"info_set={info_set!r} is not an InfoSet; allowed: an InfoSet, from "
            f"Deal.info_set(seat), InfoSet.from_file(path) or info_set_from_run('RUN:DEAL')"
        )
    if objective not in OBJECTIVES:
        raise ValueError(f"objective={objective!r}; allowed: {', '.join(OBJECTIVES)}")
    if win_game not in WIN_GAME:
        raise ValueError(f"win_game={win_game!r}; allowed: {', '.join(WIN_GAME)}")
    if worlds is not None:
        check_int("worlds", worlds, 1, 10_000_000)
        min_worlds = max_worlds = worlds
    check_int("min_worlds", min_worlds, 1, 10_000_000)
    check_int("max_worlds", max_worlds, 1, 10_000_000)
    if max_worlds < min_worlds:
        raise ValueError(f"max_worlds={max_worlds} is below min_worlds={min_worlds}")
    if not (isinstance(target_se, (int, float)) and target_se > 0):
        raise ValueError(f"target_se={target_se!r}; allowed: a positive number")
    # a first use compiles the rollout kernels: the reported time is the analysis's own
    with compile_watch(note=False) as compiling:
        setup = _prepare(info_set, rollout, threads, candidates, max_candidates, top)
        settings = RaceSettings(
            seed, objective, setup.bots, stratify, min_worlds, max_worlds, target_se
        )
        race = _run_race(info_set, setup, settings, worlds_given=worlds is not None)
        games, game_meta = _win_game(info_set, setup.bots, win_game, race, setup.threads)
    notes = {
        **game_meta,
        "max_candidates": max_candidates,
        "plans_left_out": setup.left_out,
        "compile_seconds": compiling.seconds,
    }
    elapsed = time.perf_counter() - t0 - compiling.seconds
    done = race_tables(info_set, setup.cands, settings, race, games, notes, elapsed)
    cands = [setup.cands[c] for c in done.order]
    result = AnalysisResult(done.table, done.settings, done.per_world, info_set, cands, done.meta)
    if setup.bots[info_set.side].policy.learned:  # the learned bot's own value of each candidate
        seat_params = setup.seating.params[0, info_set.seat]
        one = setup.weights[int(seat_params[ApprenticeParam.weight_set])]
        result.table["learned"] = learned_scores(info_set, result.candidates, seat_params, one)
    return result


@dataclass(frozen=True)
class _Setup:
    """What every round of the race's rollouts shares: the rollout bots (one per side), their
    seating, weight sets and threads; the candidates, the meld plans the cap left out and the
    candidates' kernel rows; the position (one public state) and the rules array."""

    bots: list[Bot]
    seating: Seating
    weights: np.ndarray
    threads: int
    cands: list[Candidate]
    left_out: int
    rows: CandidateRows
    public: np.ndarray
    rules_array: np.ndarray


def _prepare(
    info: InfoSet, rollout, threads: int | None, candidates, max_candidates: int, top: int | None
) -> _Setup:
    """The :class:`_Setup` of :func:`analyse`'s arguments (the ``top`` candidates the own
    side's rollout bot ranks first, when given)."""
    rules = info.rules
    bots, seating, weights = rollout_seating(rollout, rules)
    threads = (
        numba.config.NUMBA_NUM_THREADS
        if threads is None
        else check_int("threads", threads, 1, 10_000_000)
    )
    cands, left_out = _chosen(info, candidates, max_candidates)
    if top is not None:
        check_int("top", top, 1, 10_000_000)
        cands = rank_candidates(info, cands, bots[info.side])[:top]
    rows_of = kernel_rows(info, cands)
    rows = CandidateRows(
        np.array([k for k, _, _ in rows_of], np.int64),
        np.stack([plan for _, plan, _ in rows_of]).astype(np.int8),
        np.array([d for _, _, d in rows_of], np.int64),
    )
    public = np.array([info.public_state()])
    return _Setup(bots, seating, weights, threads, cands, left_out, rows, public, rules.to_array())


def kernel_rows(info: InfoSet, cands) -> list[tuple[int, np.ndarray, int]]:
    """Each of ``cands`` as the kernels' ``(kind, plan, discard)`` row at ``info``'s
    decision."""
    top = int(info.pile_codes[-1]) if len(info.pile_codes) else 0
    return [c.kernel_row(top) for c in cands]


def _run_race(
    info: InfoSet, setup: _Setup, settings: RaceSettings, worlds_given: bool
) -> FinishedRace:
    """The finished race of ``setup``'s candidates (:func:`analyse`): rounds of sampled
    worlds, each played by every candidate still in the race, until a stop rule holds
    (``worlds_given``: ``analyse`` was given ``worlds``)."""
    side = info.side
    n_c = len(setup.cands)
    active = np.ones(n_c, bool)
    played = np.zeros(n_c, np.int64)
    own: list[list[np.ndarray]] = [[] for _ in range(n_c)]
    other: list[list[np.ndarray]] = [[] for _ in range(n_c)]
    outs: list[list[np.ndarray]] = [[] for _ in range(n_c)]
    ends: list[list[np.ndarray]] = [[] for _ in range(n_c)]
    deal_scores: list[list[np.ndarray]] = [[] for _ in range(n_c)]  # every side's
    world_seeds = []
    done = 0
    while True:
        m = min(settings.min_worlds if done == 0 else BATCH, settings.max_worlds - done)
        w = info.sample_worlds(m, settings.seed, start=done, stratify=settings.stratify)
        live = np.nonzero(active)[0]
        scores, outcome = _play_round(setup, w, live)
        mine = scores[:, side].astype(np.int64)
        best_other = np.delete(scores, side, axis=1).max(axis=1).astype(np.int64)
        for j, c in enumerate(live):
            sel = slice(j, None, len(live))
            own[c].append(mine[sel])
            other[c].append(best_other[sel])
            outs[c].append(outcome[sel, RolloutCol.out_seat])
            ends[c].append(outcome[sel, RolloutCol.end])
            deal_scores[c].append(scores[sel])
        world_seeds.append(w.seeds)
        played[live] += m
        done += m
        ses = _drop_behind(settings.objective, own, other, active)
        reason = _stop_reason(done, active, ses, settings, worlds_given)
        if reason:
            return FinishedRace(
                own, other, outs, ends, deal_scores, world_seeds, played, active, reason
            )


def _play_round(setup: _Setup, w: Worlds, live: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every candidate of ``live`` rolled out in each of the worlds ``w`` (rollout
    ``i * len(live) + j``: world ``i``, candidate ``live[j]``): every side's deal scores and
    the rollouts' outcome rows (:class:`RolloutCol`).

    Raises
    ------
    RuntimeError
        If a candidate broke a rule (never expected).
    """
    m = len(w.seeds)
    cand_of = np.tile(live.astype(np.int64), m)
    scores, outcome = rollouts(
        setup.public,
        setup.rules_array,
        WorldCards(w.hands, w.stock, w.seeds),
        setup.rows,
        Pairs(np.repeat(np.arange(m, dtype=np.int64), len(live)), cand_of),
        setup.seating,
        setup.threads,
        setup.weights,
    )
    bad = np.nonzero(outcome[:, RolloutCol.error])[0]
    if len(bad):  # legality reads only public cards and the own hand: never expected
        c = setup.cands[cand_of[bad[0]]]
        raise RuntimeError(f"candidate {c.label!r} broke rule {outcome[bad[0], RolloutCol.error]}")
    return scores, outcome


def _drop_behind(objective: str, own, other, active: np.ndarray) -> dict:
    """The paired standard errors of the candidates still in the race to the best one, by
    candidate (the best left out), after dropping from ``active`` (in place) those more than
    :data:`DROP_Z` of them behind (or behind it with no spread at all)."""
    values = [
        objective_values(objective, np.concatenate(own[c]), np.concatenate(other[c]))
        for c in range(len(active))
    ]
    best = max(np.nonzero(active)[0], key=lambda c: values[c].mean())
    ses = {}
    for c in np.nonzero(active)[0]:
        if c == best:
            continue
        d = values[c] - values[best][: len(values[c])]
        se = d.std(ddof=1) / np.sqrt(len(d)) if len(d) > 1 else np.inf
        if d.mean() < -DROP_Z * se or (se == 0 and d.mean() < 0):
            active[c] = False
        else:
            ses[c] = se
    return ses


def _stop_reason(
    done: int, active: np.ndarray, ses: dict, settings: RaceSettings, worlds_given: bool
) -> str:
    """Why the race stops after ``done`` worlds (``ses``: the paired standard errors of
    :func:`_drop_behind`), or ``""`` while it goes on."""
    if done >= settings.max_worlds:
        return "worlds given" if worlds_given else "max_worlds"
    if len(active) == 1:  # a forced move: no difference to measure, its value from min_worlds
        return "one candidate: nothing to compare"
    if active.sum() == 1:
        return "one candidate left"
    if all(se < settings.target_se for se in ses.values()):
        return "target standard error reached"
    return ""


def learned_scores(info: InfoSet, cands, params: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The learned bot's score of each of ``cands`` at ``info``'s decision (points,
    ``float64[len(cands)]``; NaN for a candidate it does not generate, every one at a draw
    decision with a head network, which the expert makes), with its parameters
    ``params`` (``float64[N_PARAMS]``) and one weight set ``weights``
    (:func:`canasta_sim.nb.bots.learned_calls.candidate_scores`)."""
    kinds, plans, discards, scores = candidate_scores(
        info.public_state(), info.rules.to_array(), params, weights
    )
    own = {
        (int(k), p.tobytes(), int(d)): float(v)
        for k, p, d, v in zip(kinds, plans, discards, scores)
    }
    return np.array(
        [
            own.get((int(k), np.asarray(p, np.int8).tobytes(), int(d)), np.nan)
            for k, p, d in kernel_rows(info, cands)
        ]
    )


def _win_game(info, bots, how, race: FinishedRace, threads):
    """Each candidate's per-world P(win the game) after its deal in ``race``
    (``float64[worlds]``), and the meta entries saying how it was found (``win_game``,
    ``play_out_deals``, ``play_out_seconds``)."""
    rules = info.rules
    own, other = race.own, race.other
    side = info.side
    if how == "table" or (how == "auto" and in_scope(rules)):
        before = info.scores[side], max(x for s, x in enumerate(info.scores) if s != side)
        games = [
            p_win_game(rules, before[0] + np.concatenate(a), before[1] + np.concatenate(b))
            for a, b in zip(own, other)
        ]
        if games[0] is None:
            nan = [np.full(sum(map(len, a)), np.nan) for a in own]
            none = ("win_game", "win_game_bots", "play_out_deals", "play_out_seconds")
            return nan, dict.fromkeys(none)
        return games, {
            "win_game": "table",
            "win_game_bots": table_policy(),
            "play_out_deals": None,
            "play_out_seconds": None,
        }
    # one play-out of every candidate's worlds together (fewer rounds of kernel calls); a
    # world's later deals are shuffled alike for every candidate (common random numbers)
    start = time.perf_counter()
    after = [np.array(info.scores, np.int64) + np.concatenate(x) for x in race.deal_scores]
    seeds = np.concatenate(race.world_seeds)
    masters = np.concatenate([seeds[: len(x)] for x in after])
    winner, deals = play_out(rules, bots, np.concatenate(after), masters, info.dealer, threads)
    cut = np.cumsum([len(x) for x in after])[:-1]
    games = [(w == side).astype(np.float64) for w in np.split(winner, cut)]
    return games, {
        "win_game": "play-out",
        "win_game_bots": "/".join(dict.fromkeys(b.spec for b in bots)),
        "play_out_deals": float(deals.mean()),
        "play_out_seconds": time.perf_counter() - start,
    }


def _chosen(info: InfoSet, chosen, cap: int) -> tuple[list[Candidate], int]:
    """The candidates to roll out (the ``chosen`` ones, or all the layer lists within
    ``cap``) and the meld plans the cap left out of the listing."""
    found, left_out = list_candidates(info, cap)
    if chosen is None:
        return found, left_out
    if isinstance(chosen, (str, Candidate)):
        chosen = [chosen]
    out = []
    for c in chosen:
        c = find_candidate(found, c) if isinstance(c, str) else c
        if not isinstance(c, Candidate):
            raise ValueError(f"candidates: {c!r} is neither a label nor a Candidate")
        if c not in found and not is_legal(decision_deal(info), c):
            # a Candidate built by the caller (a bot's own melds before its discard) is
            # accepted when its moves are legal in the position
            raise ValueError(f"candidate {c.label!r} is not legal here")
        if c not in out:
            out.append(c)
    if not out:
        raise ValueError("candidates: an empty list; give at least one label")
    return out, left_out


def _position(info: InfoSet) -> dict:
    return {
        "players": info.rules.players,
        "rules": info.rules.to_dict(),
        "seat": info.seat,
        "phase": info.phase,
        "hand": info.hand,
        "pile": info.pile,
        "melds": [list(m) for m in info.melds],
        "red_threes": list(info.red_threes),
        "scores": list(info.scores),
        "hand_sizes": list(info.hand_sizes),
        "stock": info.stock_size,
        "known": list(info.known),
        "turn": info.turn,
    }
