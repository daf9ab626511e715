"""Tuning a bot: a joint search of its parameters against a reference field of opponents.

Each candidate setting plays every bot of the field (:data:`DEFAULT_FIELD`: ``expert`` and
``careful`` at their current defaults) through :func:`canasta_sim.compare`: bots rotate over
the sides on shared, duplicate deals, so most of the luck of the deal cancels. The objective is
the mean over the field of either the candidate's mean score difference per deal (points) or
its win rate in full games (R-55). The search is Optuna's TPE sampler (multivariate, so the
parameters are modelled jointly) with a fixed sampler seed; trial 0 is the bot's own setting,
the baseline.

Seeds are never shared between the stages: the search plays its deals on seeds derived from
``(seed, 0, opponent)``, and the best setting found is then measured on fresh seeds derived from
``(seed, 1, opponent)`` (:func:`stage_seeds`), with both objectives, so the reported figures
carry no selection bias from the search.
"""

from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass

import numba
import numpy as np
import pandas as pd

from ..errors import BadArgument
from ..game.notation import check_int
from ..game.rules import Rules
from ..nb.engine.rng import SEED_SPAN
from ..players.specs import POLICIES, RUN_SET, Bot, Param, Policy, parse_bot, spec_params
from ..results.intervals import wilson_interval
from ..results.tables import align_columns, interval, number
from ..run.compare import compare
from ..run.outdir import make_manifest
from ..run.progress import Progress
from ..run.seating import Table, resolve_rules

DEFAULT_FIELD = ("expert", "careful")
OBJECTIVES = {
    "diff": "mean score difference per deal (points)",
    "wins": "win rate in full games",
}
SEARCH, FINAL = 0, 1  # stage codes of stage_seeds
MAX_TRIALS = 100_000
#: The final check's deals (games) per field bot, by default: this many times a trial's.
FINAL_TIMES = 5
#: Under the objective ``diff`` no games are played per trial: the final check's games then
#: follow the trials' deals, one game per this many deals (400 games for 10,000 deals).
DEALS_PER_GAME = 25


@dataclass
class TuneResult:
    """What :func:`tune` returns.

    Attributes
    ----------
    best : Bot
        The best setting the search found (fixed parameters included).
    history : pandas.DataFrame
        One row per trial: ``trial``, one column per searched parameter (the value played),
        ``spec``, ``objective``, ``low``, ``high`` (the trial's field objective with its 95%
        interval), ``vs_<spec>`` (the objective against each field bot) and ``seconds``.
    final : pandas.DataFrame
        The best setting on fresh seeds, one row per field bot plus a ``field`` row (their
        mean): ``opponent``, ``deals``, ``mean_diff``, ``diff_low``, ``diff_high`` (points per
        deal), ``games``, ``wins``, ``win_rate``, ``win_low``, ``win_high``.
    manifest : dict
        Rules, versions, the bots, and ``tune``: every setting of the search, the seeds of both
        stages, the sampler, the best spec and the wall seconds.
    """

    best: Bot
    history: pd.DataFrame
    final: pd.DataFrame
    manifest: dict


def stage_seeds(seed: int, stage: int, n: int) -> list[int]:
    """``n`` master seeds (0 .. 2**64 - 1) for one stage (:data:`SEARCH` or :data:`FINAL`) of a
    tuning run, one per field bot, from numpy's ``SeedSequence((seed, stage))``: the stages
    never share a seed in practice (64-bit hashes)."""
    state = np.random.SeedSequence([int(seed), int(stage)]).generate_state(n, np.uint64)
    return [int(s) for s in state]


def search_space(
    bot: str, params=None, ranges=None
) -> tuple[Policy, dict[str, float], list[Param], dict]:
    """The policy of ``bot``, the parameters it fixes, the parameters to search and their
    ranges.

    Parameters
    ----------
    bot : str
        Bot spec; the parameters it sets are fixed, the others are searched.
    params : list of str, optional
        Search only these (default: every parameter the spec leaves free).
    ranges : dict name -> (low, high), optional
        Narrower closed ranges for searched parameters, inside the allowed range.

    Returns
    -------
    (Policy, dict, list of Param, dict name -> (low, high))

    Raises
    ------
    ValueError
        For a bad spec, a policy without parameters, an unknown parameter, a parameter both
        fixed and searched, or a range that is empty, a single value, outside the allowed
        range or not whole for a whole-number parameter (each message names the value and what
        is allowed).
    """
    try:
        policy, fixed = spec_params(bot)
    except ValueError as exc:
        raise BadArgument("bot", str(exc)) from None
    # the weight set is the run's to set, from the spec's weights=PATH (RUN_SET), never a spec's
    names = [p.name for p in policy.params if p.name not in RUN_SET]
    # a search bot's parameters include its rollout bot (a code, not a number) and each of
    # its decisions costs whole rollouts: it is measured with compare, not tuned
    tunable = ", ".join(p.name for p in POLICIES.values() if p.params and not p.search)
    if not names or policy.search:
        raise BadArgument("bot", f"bot {policy.name!r} cannot be tuned; allowed: {tunable}")
    if params is None:
        params = [n for n in names if n not in fixed]
    params = list(params)
    for name in params:
        if name not in names:
            raise BadArgument(
                "params",
                f"unknown parameter {name!r} for bot {policy.name}; allowed: {', '.join(names)}",
            )
        if name in fixed:
            raise BadArgument(
                "params",
                f"parameter {name} is fixed in the bot spec {bot!r} and also searched; "
                f"allowed: fix it in the spec or search it, not both",
            )
    if len(set(params)) < len(params):
        raise BadArgument("params", f"params {params} repeat a name; give each parameter once")
    if not params:
        raise BadArgument("bot", f"the bot spec {bot!r} fixes every parameter: nothing to search")
    searched = [p for p in policy.params if p.name in params]
    bounds = {p.name: (p.low, p.high) for p in searched}
    for name, rng in (ranges or {}).items():
        param = next((p for p in searched if p.name == name), None)
        if param is None:
            raise BadArgument(
                "ranges",
                f"range given for {name!r}, which is not searched; allowed: "
                f"{', '.join(p.name for p in searched)}",
            )
        low, high = _range_values(name, rng)
        if low >= high:
            raise BadArgument(
                "ranges",
                f"range {name}={low:g}:{high:g} is empty or a single value; allowed: LOW < HIGH "
                f"(fix a single value in the bot spec instead)",
            )
        if low < param.low or high > param.high:
            raise BadArgument(
                "ranges",
                f"range {name}={low:g}:{high:g} leaves the allowed range "
                f"{param.low:g} to {param.high:g}",
            )
        if param.integer and not (low.is_integer() and high.is_integer()):
            raise BadArgument(
                "ranges",
                f"range {name}={low:g}:{high:g}: {name} takes whole numbers; allowed: whole "
                f"bounds from {param.low:g} to {param.high:g}",
            )
        bounds[name] = (low, high)
    return policy, fixed, searched, bounds


def _range_values(name: str, rng) -> tuple[float, float]:
    try:
        low, high = (float(v) for v in rng)
    except (TypeError, ValueError):
        raise ValueError(
            f"range for {name}: {rng!r} is not a pair (LOW, HIGH) of numbers"
        ) from None
    if not (math.isfinite(low) and math.isfinite(high)):
        raise ValueError(f"range for {name}: {rng!r} is not finite")
    return low, high


def parse_ranges(items) -> dict[str, tuple[float, float]]:
    """``["meld_keep=2:40", ...]`` -> ``{"meld_keep": (2.0, 40.0)}``.

    Raises
    ------
    ValueError
        For an item that is not ``NAME=LOW:HIGH`` with numbers, or a name given twice.
    """
    out: dict[str, tuple[float, float]] = {}
    for item in items:
        name, eq, text = item.partition("=")
        parts = text.split(":")
        if not eq or len(parts) != 2:
            raise ValueError(f"{item!r} is not NAME=LOW:HIGH (e.g. meld_keep=2:40)")
        name = name.strip()
        if name in out:
            raise ValueError(f"range for {name} given twice; give each parameter once")
        out[name] = _range_values(name, parts)
    return out


def _count(name: str, value, sides: int) -> int:
    """A deal or game count: a whole number >= ``sides``, a multiple of ``sides`` (seat
    rotation)."""
    value = check_int(name, value, sides, 10**12)
    if value % sides:
        raise BadArgument(
            name,
            f"{name}={value} is not allowed: a multiple of the {sides} sides (bots rotate "
            f"over the sides), from {sides} to 10**12",
        )
    return value


@dataclass(frozen=True)
class _Score:
    """One setting against the field on one objective: per field bot and their mean."""

    value: float
    low: float
    high: float
    per_opponent: tuple[float, ...]


def _against_field(
    bot: Bot, field: list[Bot], objective: str, count: int, seeds, rules, workers
) -> tuple[_Score, list[dict]]:
    """Play ``bot`` against each field bot (``count`` deals or games, seed ``seeds[i]``).

    The field's score difference is the mean of the per-opponent means, its interval from their
    independent normal intervals (half-width sqrt(sum h_i**2) / k). The field's win rate pools
    the wins (equal counts per opponent: the mean of the rates) with a Wilson interval, which
    is conservative for unequal rates. A field bot equal to ``bot`` is an even match by
    symmetry of the seat rotation: difference 0 exactly, 1/sides of the games won (ties
    aside), and is not played.
    """
    sides = rules.sides
    rows = []
    for opp, seed in zip(field, seeds):
        if opp.spec == bot.spec:
            rows.append({"diff": 0.0, "half": 0.0, "wins": count // sides, "n": count})
            continue
        deals, games = (count, None) if objective == "diff" else (None, count)
        table, _ = compare(
            bot, opp, deals=deals, games=games, rules=rules, seed=seed, workers=workers
        )
        r = table.iloc[0]
        rows.append(
            {
                "diff": float(r["mean_diff"]),
                "half": float(r["diff_high"] - r["mean_diff"]),
                "wins": int(r["wins"]),
                "n": int(r["n"]),
            }
        )
    k = len(rows)
    if objective == "diff":
        per = tuple(r["diff"] for r in rows)
        mean = sum(per) / k
        half = math.sqrt(sum(r["half"] ** 2 for r in rows)) / k
        return _Score(mean, mean - half, mean + half, per), rows
    per = tuple(r["wins"] / r["n"] for r in rows)
    wins, n = sum(r["wins"] for r in rows), sum(r["n"] for r in rows)
    low, high = wilson_interval(wins, n)
    return _Score(wins / n, low, high, per), rows


def _suggest(trial, param: Param, low: float, high: float) -> float:
    if param.integer:
        return float(trial.suggest_int(param.name, int(low), int(high)))
    # four significant digits: readable specs that replay exactly
    value = float(f"{trial.suggest_float(param.name, low, high):.4g}")
    return min(max(value, low), high)


def _make_bot(policy: Policy, fixed: dict[str, float], chosen: dict, players: int) -> Bot:
    """The candidate: the spec's fixed values and the searched ones that differ from their
    default at the tuned player count (an equal one is that default there, so the spec of
    the bot's own setting is the bot's name)."""
    defaults = {p.name: p.default_at(players) for p in policy.params}
    values = {**fixed, **{k: v for k, v in chosen.items() if v != defaults[k]}}
    # repr: a value fixed in the user's spec keeps every digit
    items = ",".join(f"{name}={repr(float(v))}" for name, v in values.items())
    return parse_bot(f"{policy.name}:{items}" if items else policy.name)


def tune(
    bot: str = "expert",
    *,
    field=DEFAULT_FIELD,
    params=None,
    ranges=None,
    objective: str = "diff",
    trials: int = 60,
    start: str | None = None,
    deals: int = 10_000,
    games: int = 400,
    final_deals: int | None = None,
    final_games: int | None = None,
    rules=None,
    seed: int = 0,
    workers: int | None = None,
    progress: bool = False,
) -> TuneResult:
    """Search ``bot``'s parameters jointly against a field of opponents, then measure the best
    setting on fresh seeds.

    Parameters
    ----------
    bot : str
        Bot spec whose policy has parameters (``expert``); parameters set in the spec stay
        fixed, the others are searched (or only ``params``).
    field : list of str
        Opponent bot specs (default :data:`DEFAULT_FIELD`, ``expert`` and ``careful`` at their
        defaults).
    params : list of str, optional
        Parameters to search (default: all that the spec leaves free).
    ranges : dict name -> (low, high), optional
        Narrower search ranges (closed) inside the allowed ones (:mod:`canasta_sim.players.specs`).
    objective : {"diff", "wins"}
        What the search maximises: the mean score difference per deal (points) over
        ``deals`` seat-rotated duplicate deals per field bot, or the win rate of ``games`` full
        games (R-55) per field bot; the mean over the field either way.
    trials : int
        Settings tried, >= 1; trial 0 is the baseline: the spec's own setting, or ``start``.
    start : str, optional
        Bot spec of the same policy whose values of the searched parameters trial 0 plays (a
        warm start, e.g. from an earlier search); they must lie inside the search ranges.
    deals, games : int
        Deals (objective ``diff``) or games (``wins``) per field bot per trial: multiples of
        the sides.
    final_deals, final_games : int, optional
        Deals and games per field bot for the best setting on fresh seeds (both objectives);
        default :data:`FINAL_TIMES` times a trial's deals and games (50,000 and 2,000 at the
        defaults; under ``diff`` a trial's games are its deals over :data:`DEALS_PER_GAME`,
        rounded down to a multiple of the sides, at least one board), so a small trial run
        has a small final check.
    rules, seed, workers, progress
        As for :func:`canasta_sim.compare`; ``seed`` also seeds the sampler.

    Returns
    -------
    TuneResult

    Raises
    ------
    ValueError
        For a bad bot, parameter, range, field, objective or count (the message names the
        value and what is allowed).
    """
    import optuna

    plan = _plan(
        bot,
        field,
        params,
        ranges,
        objective,
        trials,
        start,
        deals,
        games,
        final_deals,
        final_games,
        rules,
        seed,
    )
    sampler = optuna.samplers.TPESampler(seed=plan.sampler_seed, multivariate=True)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        study = optuna.create_study(direction="maximize", sampler=sampler)
    _enqueue_baseline(study, plan, start)
    t0 = time.perf_counter()
    history = _search(study, plan, workers, progress)
    search_seconds = time.perf_counter() - t0
    best_row = history.loc[history["objective"].idxmax()]
    best = parse_bot(best_row["spec"])
    final = _final(
        best, plan.field, plan.final_deals, plan.final_games, plan.final_seeds, plan.rules, workers
    )
    sampler_doc = (
        f"optuna {optuna.__version__} TPESampler(multivariate=True, seed={plan.sampler_seed})"
    )
    wall = time.perf_counter() - t0
    manifest = _tune_manifest(plan, best, best_row, sampler_doc, search_seconds, wall, workers)
    return TuneResult(best, history, final, manifest)


@dataclass(frozen=True)
class _Plan:
    """A tuning run's checked settings: what the search tries, against which field, with how
    many deals or games, on which seeds."""

    bot: str
    policy: Policy
    fixed: dict[str, float]
    searched: list[Param]
    bounds: dict[str, tuple[float, float]]
    field: list[Bot]
    objective: str
    rules: Rules
    trials: int
    count: int  # deals (objective diff) or games (wins) per field bot per trial
    final_deals: int
    final_games: int
    start: Bot  # trial 0's setting
    seed: int
    search_seeds: list[int]
    final_seeds: list[int]
    sampler_seed: int


def _plan(
    bot,
    field,
    params,
    ranges,
    objective,
    trials,
    start,
    deals,
    games,
    final_deals,
    final_games,
    rules,
    seed,
) -> _Plan:
    """:func:`tune`'s arguments checked, in the order its errors name them, with the seeds of
    both stages."""
    if objective not in OBJECTIVES:
        raise ValueError(f"objective {objective!r} is unknown; allowed: {', '.join(OBJECTIVES)}")
    rules = resolve_rules(rules)
    policy, fixed, searched, bounds = search_space(bot, params, ranges)
    field_bots = _field_bots(field)
    sides = rules.sides
    check_int("trials", trials, 1, MAX_TRIALS)
    count = _count(
        "deals" if objective == "diff" else "games", deals if objective == "diff" else games, sides
    )
    if final_deals is None:
        final_deals = FINAL_TIMES * _count("deals", deals, sides)
    if final_games is None:
        if objective == "diff":
            games = max(sides, _count("deals", deals, sides) // DEALS_PER_GAME // sides * sides)
        final_games = FINAL_TIMES * _count("games", games, sides)
    final_deals = _count("final_deals", final_deals, sides)
    final_games = _count("final_games", final_games, sides)
    check_int("seed", seed, 0, SEED_SPAN - 1)
    return _Plan(
        bot=bot,
        policy=policy,
        fixed=fixed,
        searched=searched,
        bounds=bounds,
        field=field_bots,
        objective=objective,
        rules=rules,
        trials=trials,
        count=count,
        final_deals=final_deals,
        final_games=final_games,
        start=_start_bot(bot, start, policy),
        seed=seed,
        search_seeds=stage_seeds(seed, SEARCH, len(field_bots)),
        final_seeds=stage_seeds(seed, FINAL, len(field_bots)),
        sampler_seed=int(seed % 2**32),  # the sampler takes a 32-bit seed
    )


def _field_bots(field) -> list[Bot]:
    """The field's bots: one or more specs (a str is one), each once."""
    if isinstance(field, str):
        field = [field]
    field_bots = [parse_bot(s) for s in field]
    if not field_bots:
        raise ValueError("field is empty; allowed: one or more opponent bot specs")
    specs = [b.spec for b in field_bots]
    for spec in specs:
        if specs.count(spec) > 1:
            raise ValueError(f"field lists {spec!r} twice; allowed: each bot once")
    return field_bots


def _start_bot(bot: str, start: str | None, policy: Policy) -> Bot:
    """Trial 0's bot: ``start`` if given (a setting of ``policy``), else ``bot``."""
    try:
        start_bot = parse_bot(bot if start is None else start)
    except ValueError as exc:
        raise BadArgument("start", str(exc)) from None
    if start_bot.policy.code != policy.code:
        raise BadArgument(
            "start",
            f"start {start!r} is not a setting of {policy.name}; allowed: a spec of "
            f"{policy.name}, e.g. {policy.name}:{policy.params[0].name}="
            f"{policy.params[0].default:g}",
        )
    return start_bot


def _enqueue_baseline(study, plan: _Plan, start: str | None) -> None:
    """Queue trial 0 (the start setting's searched values) when they lie inside the search
    ranges: a given ``start`` must, the bot's own setting may not (then the sampler starts)."""
    values = plan.start.parameters_at(plan.rules.players)
    baseline = {p.name: values[p.name] for p in plan.searched}
    bounds = plan.bounds
    outside = [n for n, v in baseline.items() if not bounds[n][0] <= v <= bounds[n][1]]
    if start is not None and outside:
        raise BadArgument(
            "start",
            f"start {start!r} sets {outside[0]} outside its search range "
            f"{bounds[outside[0]][0]:g} to {bounds[outside[0]][1]:g}",
        )
    if not outside:
        study.enqueue_trial(baseline)


def _search(study, plan: _Plan, workers, progress: bool) -> pd.DataFrame:
    """Play ``plan.trials`` settings the study suggests on the search seeds: one history row each
    (:attr:`TuneResult.history`)."""
    history = []
    with Progress(plan.trials, "trial", progress) as bar:
        for done in range(1, plan.trials + 1):
            trial = study.ask()
            chosen = {p.name: _suggest(trial, p, *plan.bounds[p.name]) for p in plan.searched}
            cand = _make_bot(plan.policy, plan.fixed, chosen, plan.rules.players)
            t = time.perf_counter()
            score, _ = _against_field(
                cand, plan.field, plan.objective, plan.count, plan.search_seeds, plan.rules, workers
            )
            study.tell(trial, score.value)
            history.append(
                {
                    "trial": trial.number,
                    **chosen,
                    "spec": cand.spec,
                    "objective": score.value,
                    "low": score.low,
                    "high": score.high,
                    **{f"vs_{b.spec}": v for b, v in zip(plan.field, score.per_opponent)},
                    "seconds": round(time.perf_counter() - t, 3),
                }
            )
            bar.update(done, f"best {study.best_value:.4g}")
    return pd.DataFrame(history)


def _tune_manifest(
    plan: _Plan, best: Bot, best_row, sampler_doc: str, search_seconds: float, wall: float, workers
) -> dict:
    """:attr:`TuneResult.manifest`: rules, versions and wall time as every run's manifest has
    them; the bots are the tuned setting and the field; ``tune`` holds the search's settings,
    seeds and outcome."""
    threads = workers if workers is not None else numba.get_num_threads()
    how = {"workers": threads, "threads_per_worker": 1, "scheduler": None}
    manifest = make_manifest(
        Table(plan.rules, ((best,) * plan.rules.sides,)),
        seed=int(plan.seed),
        first_deal=0,
        deals=0,
        wall=wall,
        how=how,
        chunk=0,
        records=False,
    )
    for key in ("first_deal", "deals", "deals_per_second", "chunk_size", "records"):
        manifest.pop(key, None)
    manifest["bots"] = {"tuned": best.spec, "field": [b.spec for b in plan.field]}
    manifest["bot_parameters"] = {
        b.spec: b.parameters_at(plan.rules.players) for b in (best, *plan.field)
    }
    manifest.update(
        tune={
            "bot": plan.bot,
            "objective": plan.objective,
            "objective_doc": OBJECTIVES[plan.objective],
            "fixed": plan.fixed,
            "searched": {n: [float(v) for v in plan.bounds[n]] for n in plan.bounds},
            "trials": int(plan.trials),
            "per_trial": {"deals" if plan.objective == "diff" else "games": plan.count},
            "final_deals": plan.final_deals,
            "final_games": plan.final_games,
            "search_seeds": plan.search_seeds,
            "final_seeds": plan.final_seeds,
            "sampler": sampler_doc,
            "baseline": plan.start.spec,
            "best_trial": int(best_row["trial"]),
            "best_search_objective": float(best_row["objective"]),
            "search_seconds": round(search_seconds, 3),
        }
    )
    return manifest


def _final(best, field_bots, deals, games, seeds, rules, workers) -> pd.DataFrame:
    """Both objectives for ``best`` on the fresh ``seeds``: one row per field bot and a
    ``field`` row."""
    diff, d_rows = _against_field(best, field_bots, "diff", deals, seeds, rules, workers)
    wins, w_rows = _against_field(best, field_bots, "wins", games, seeds, rules, workers)
    rows = []
    for opp, d, w in zip(field_bots, d_rows, w_rows):
        low, high = wilson_interval(w["wins"], w["n"])
        rows.append(
            {
                "opponent": opp.spec,
                "deals": d["n"],
                "mean_diff": d["diff"],
                "diff_low": d["diff"] - d["half"],
                "diff_high": d["diff"] + d["half"],
                "games": w["n"],
                "wins": w["wins"],
                "win_rate": w["wins"] / w["n"],
                "win_low": low,
                "win_high": high,
            }
        )
    rows.append(
        {
            "opponent": "field",
            "deals": deals * len(field_bots),
            "mean_diff": diff.value,
            "diff_low": diff.low,
            "diff_high": diff.high,
            "games": games * len(field_bots),
            "wins": sum(r["wins"] for r in w_rows),
            "win_rate": wins.value,
            "win_low": wins.low,
            "win_high": wins.high,
        }
    )
    return pd.DataFrame(rows)


def format_history(history: pd.DataFrame, objective: str) -> str:
    """Trials of a search (rows of :attr:`TuneResult.history`) for people: the trial, the
    value of each searched parameter, the field objective with its 95% interval and the
    objective against each field bot (points per deal, or a win rate in games)."""
    spec = "+,.1f" if objective == "diff" else ".1%"
    unit = "points per deal" if objective == "diff" else "win rate"
    fixed = {"trial", "spec", "objective", "low", "high", "seconds"}
    params = [c for c in history.columns if c not in fixed and not c.startswith("vs_")]
    versus = [c for c in history.columns if c.startswith("vs_")]
    head = ["trial", *params, f"objective, {unit} [95%]", *(f"vs {c[3:]}" for c in versus)]
    rows = [
        [
            str(r["trial"]),
            *(f"{r[p]:g}" for p in params),
            interval(r["objective"], r["low"], r["high"], spec),
            *(number(r[c], spec) for c in versus),
        ]
        for _, r in history.iterrows()
    ]
    return align_columns([head, *rows])


def format_final(final: pd.DataFrame) -> str:
    """The best setting on fresh seeds (:attr:`TuneResult.final`) for people: per field bot
    (and the whole field) the score difference per deal and the game win rate, each with its
    95% interval."""
    head = [
        "opponent",
        "deals",
        "difference, points per deal [95%]",
        "games",
        "wins",
        "game win rate [95%]",
    ]
    rows = [
        [
            r.opponent,
            f"{r.deals:,}",
            interval(r.mean_diff, r.diff_low, r.diff_high, "+,.1f"),
            f"{r.games:,}",
            f"{r.wins:,}",
            interval(r.win_rate, r.win_low, r.win_high, ".1%"),
        ]
        for r in final.itertuples()
    ]
    return align_columns([head, *rows])
