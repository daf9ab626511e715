"""Review: where a bot loses points, decision by decision (docs/pimc.md, "Review").

Every decision of one seat in a set of deals is analysed with a fixed budget
(:func:`canasta_sim.analyse` with ``worlds=``), and its *regret* is the best candidate's mean
score difference minus the mean of the bot's own choice (points, paired over the worlds).
Picking the best of noisy means inflates that figure, so the regret is re-scored on fresh
worlds (another analysis seed) for the two candidates only: the best and the bot's choice.

The decisions of a turn (R-20), with the candidates of
:func:`canasta_sim.players.choices.candidates` (bounded by ``top_candidates`` with
:func:`canasta_sim.players.ranking.rank_candidates`, the bot's own choice always kept):

- decision 0, the turn's first move: draw from the stock or take the discard pile
  (R-30..R-35);
- decision 1, the rest of the turn after it: a meld plan laid in one call (possibly none) and a
  discard, or going out (R-40). The bot's choice is the melds it laid in the turn and its
  discard. A turn that ends by R-45 (no discard) has no second decision.

Each decision's type (:data:`TYPES`, :func:`decision_type`) compares the bot's choice with the
best candidate (with the runner-up when they are the same): ``pickup`` for decision 0;
``going_out`` when either goes out; ``meld_timing`` when they lay different naturals (other
melds, or melds against none); ``wild_cards`` when they lay the same naturals with other wild
cards; ``discard`` when they lay the same plan and discard other kinds.

The rest of every rollout is played by the deal's own bots (a search bot's by its own rollout
bot, :func:`own_rollout`) unless ``rollout`` is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .. import cards as C
from ..game.deals import Deal
from ..game.notation import as_rules, check_int
from ..nb.engine.rng import SEED_SPAN
from ..players.choices import MAX_CANDIDATES, Candidate, list_candidates
from ..players.pybot import seated
from ..players.ranking import played_candidate, rank_candidates
from ..players.specs import parse_bot, search_rollout_bot, side_bots
from ..results.tables import DASH, align_columns, interval, number
from ..run.address import RunAddress, deal_from_run
from .analysis import analyse, rollout_bots, rollout_seating
from .race import Z95

#: Decision types, in the order of the summary (:func:`decision_type`).
TYPES = ("pickup", "meld_timing", "wild_cards", "discard", "going_out")

#: Columns of :attr:`ReviewResult.decisions`.
COLUMNS = (
    "deal",
    "turn",
    "decision",
    "type",
    "seat",
    "bot",
    "hand",
    "pile_top",
    "candidates",
    "plans_left_out",
    "bot_choice",
    "best",
    "best_mean",
    "bot_mean",
    "regret",
    "regret_lo",
    "regret_hi",
    "rescored",
    "rescored_lo",
    "rescored_hi",
    "worlds",
    "reference",
)


@dataclass(frozen=True)
class ReviewResult:
    """The outcome of :func:`review`.

    Attributes
    ----------
    decisions : pandas.DataFrame
        One row per decision (:data:`COLUMNS`): ``deal``, ``turn`` (from 0 in the deal),
        ``decision`` (0: first move, 1: after it), ``type`` (:data:`TYPES`), ``seat``, ``bot``
        (spec), ``hand`` and ``pile_top`` (card notation, at the decision), ``candidates``
        (count), ``plans_left_out`` (meld plans the candidates' cap left out,
        ``max_candidates`` of :func:`review`), ``bot_choice`` and ``best`` (labels),
        ``best_mean`` and ``bot_mean`` (mean score difference, points), ``regret`` with
        ``regret_lo``/``regret_hi`` (best minus the bot's choice in the analysis worlds,
        paired 95% interval, points), ``rescored`` with ``rescored_lo``/``rescored_hi`` (the
        same difference on fresh worlds), ``worlds`` (per candidate), ``reference`` (where to
        replay it). A decision with one candidate has
        regret 0 and no rollouts.
    summary : pandas.DataFrame
        One row per decision type and ``all``: ``decisions`` (count), ``per_deal`` (decisions
        per deal), ``not_best`` (share of decisions where the bot's choice is not the
        analysis best), ``regret`` (raw, mean per deal) and ``rescored`` with
        ``rescored_lo``/``rescored_hi`` (mean re-scored regret per deal, 95% interval over
        the deals, points).
    settings : dict
        What made the review (JSON-able); ``rollout`` is the spec of the rollout bots that
        played (by default each side's own bot: ``"expert"``, ``"greedy,expert"``; ``"; "``
        between the seatings of a run whose deals had different bots).
    """

    decisions: pd.DataFrame
    summary: pd.DataFrame
    settings: dict

    def top(self, k: int = 10) -> pd.DataFrame:
        """The ``k`` decisions with the largest re-scored regret."""
        return self.decisions.sort_values("rescored", ascending=False, kind="stable").head(k)

    def __str__(self) -> str:
        text = format_summary(self.summary) + "\n\n" + format_top(self.top())
        return text + cap_note(self.decisions, self.settings["max_candidates"])


def cap_note(decisions: pd.DataFrame, cap: int) -> str:
    """A closing line on the meld plans the candidates' cap left out, if any."""
    cut = decisions["plans_left_out"] > 0
    if not cut.any():
        return ""
    return (
        f"\n\nThe cap of {cap:,} candidates left out meld plans at {int(cut.sum()):,} of "
        f"{len(decisions):,} decisions ({int(decisions['plans_left_out'].sum()):,} plans in all; "
        "max_candidates raises it)."
    )


def review(
    rules=None,
    *,
    deals: int | None = None,
    bots="expert",
    seed: int = 0,
    run=None,
    seat: int = 0,
    worlds: int = 200,
    rescore_worlds: int | None = None,
    rollout=None,
    analysis_seed: int = 0,
    top_candidates: int | None = None,
    max_candidates: int = MAX_CANDIDATES,
    progress=None,
) -> ReviewResult:
    """Analyse every decision of ``seat`` in ``deals`` deals and measure the bot's regret.

    Parameters
    ----------
    rules : Rules or str, optional
        Rules of the deals played (default classic, 4 players); not with ``run``.
    deals : int, optional
        Deals to review: deals 0 .. deals-1 of seed ``seed`` (as ``simulate`` deals them), or
        the first ``deals`` deals of ``run`` (default: all of them).
    bots : str or list of str
        One bot spec for every side or one per side; not with ``run``.
    seed : int
        Master seed of the deals (0 .. 2**64 - 1); not with ``run``.
    run : str or pathlib.Path, optional
        A run folder of ``simulate`` or ``compare``: its deals, rules and bots.
    seat : int
        The seat whose decisions are reviewed.
    worlds : int
        Worlds per candidate in the analysis (1 .. 10,000,000).
    rescore_worlds : int, optional
        Worlds for the re-scoring of the best candidate and the bot's choice (default
        ``worlds``).
    rollout : str or list of str, optional
        Bots of the rollouts (default: the deal's own bots, :func:`own_rollout`).
    analysis_seed : int
        Master seed of the analysis worlds (0 .. 2**32 - 1); each decision's worlds and its
        re-scoring worlds come from it, the deal and the decision.
    top_candidates : int, optional
        Analyse at most this many candidates per decision: the reviewed bot's ranking
        (:func:`canasta_sim.players.ranking.rank_candidates`, its own choice first); all by default.
    max_candidates : int
        The candidate layer's cap (``cap`` of :func:`canasta_sim.players.choices.candidates`, 64
        by default): the most play-phase candidates listed per decision, meld plans taken whole;
        the column ``plans_left_out`` and the printed result say where it left plans out.
    progress : callable, optional
        Called as ``progress(done, total)`` (deals) once the input is checked, then after
        each deal.

    Returns
    -------
    ReviewResult

    Raises
    ------
    ValueError
        For a bad count, seat, bot spec or seed, a rollout bot's weight file missing,
        damaged or fitted for another player count, ``top_candidates`` or ``max_candidates``
        below 1, ``run`` given with ``rules``, ``bots`` other than the default or ``seed``, or
        a run folder :func:`canasta_sim.deal_from_run` refuses.
    """
    check_int("worlds", worlds, 1, 10_000_000)
    if rescore_worlds is None:
        rescore_worlds = worlds
    check_int("rescore_worlds", rescore_worlds, 1, 10_000_000)
    check_int("analysis_seed", analysis_seed, 0, 2**32 - 1)
    if top_candidates is not None:
        check_int("top_candidates", top_candidates, 1, 10_000_000)
    check_int("max_candidates", max_candidates, 1, 10_000)
    if run is not None:
        if rules is not None or seed != 0 or bots != "expert":
            raise ValueError(
                "run= gives the deals, rules and bots; do not give rules, bots or seed"
            )
        rules, n, boards = _run_deals(run, deals)
    else:
        rules = as_rules(rules)
        n = check_int("deals", 1 if deals is None else deals, 1, 10_000_000)
        check_int("seed", seed, 0, SEED_SPAN - 1)
        specs = [b.spec for b in side_bots(bots, rules.sides)]
        if rollout is None:
            own_rollout(specs, rules.sides)  # checks the default before any rollout
        boards = (
            (f"seed {seed} deal {k}", Deal.new(rules, seed, deal=k, trace=True), specs)
            for k in range(n)
        )
    check_int("seat", seat, 0, rules.players - 1)
    if rollout is not None:
        rollout_seating(rollout, rules)  # checks the spec and its weight files before any rollout
    rows = []
    used: dict[str, None] = {}  # the bots in the order given
    rolled: dict[str, None] = {}  # the rollout bots that played, in order
    if progress is not None:
        progress(0, n)
    budget = (worlds, rescore_worlds, top_candidates, max_candidates)
    for index, (name, deal, specs) in enumerate(boards):
        used.update(dict.fromkeys(specs))
        plays = rollout if rollout is not None else own_rollout(specs, rules.sides)
        rolled[_spec_text(plays)] = None
        table = seated(rules, specs)
        while not deal.is_over:
            if deal.current_player == seat:
                for row in _review_turn(deal, specs, plays, budget, (analysis_seed, index)):
                    row.update(deal=index, seat=seat, bot=specs[seat % rules.sides])
                    row["reference"] = f"{name}:{row['turn']}:{row['decision']}"
                    rows.append(row)
            deal.play_turn(table)
        if progress is not None:
            progress(index + 1, n)
    decisions = pd.DataFrame.from_records(rows, columns=list(COLUMNS))
    settings = {
        "deals": n,
        "seat": seat,
        "worlds": worlds,
        "rescore_worlds": rescore_worlds,
        "analysis_seed": analysis_seed,
        "top_candidates": top_candidates,
        "max_candidates": max_candidates,
        "rules": rules.to_dict(),
        "bots": list(used),
        "rollout": "; ".join(rolled),
        "objective": "score_diff",
        **({"run": str(run)} if run is not None else {"seed": seed}),
    }
    return ReviewResult(decisions, summarise(decisions, n), settings)


def _spec_text(plays) -> str:
    """Rollout bots as one spec text: ``"expert"`` when every side's is the same, else the
    specs of the sides joined by commas (side 0 first)."""
    specs = [plays] if isinstance(plays, str) else list(plays)
    return specs[0] if len(set(specs)) == 1 else ",".join(specs)


def own_rollout(specs, sides: int) -> list[str]:
    """Review's default rollout bots: each side's own bot of ``specs`` (one spec per side), a
    search bot's (``pimc``) replaced by its own rollout bot
    (:func:`canasta_sim.players.specs.search_rollout_bot`: its ``rollout=`` preset and
    ``rollout.NAME`` parameters), which plays its rollouts too.

    Raises
    ------
    ValueError
        For a bot written in Python, which plays no rollouts (give ``rollout``).
    """
    bots = [parse_bot(s) for s in specs]
    for bot in bots:
        if bot.is_python:
            raise ValueError(
                f"the deal's bot {bot.spec!r} is written in Python and plays no rollouts "
                f"(by default the rollouts play the deal's own bots); give the rollout bots "
                f"('--rollout'), e.g. 'expert'"
            )
    plays = [search_rollout_bot(b).spec if b.policy.search else b.spec for b in bots]
    rollout_bots(plays, sides)
    return plays


def summarise(decisions: pd.DataFrame, deals: int) -> pd.DataFrame:
    """Mean regret per deal by decision type (and ``all``), with 95% intervals over the deals
    (see :attr:`ReviewResult.summary`); ``deals`` counts the deals reviewed, those without a
    decision of a type included (their regret is 0)."""
    records = []
    for kind in (*TYPES, "all"):
        part = decisions if kind == "all" else decisions[decisions["type"] == kind]
        per_deal = np.zeros(deals)
        np.add.at(per_deal, part["deal"].to_numpy(int), part["rescored"].to_numpy(float))
        half = Z95 * per_deal.std(ddof=1) / np.sqrt(deals) if deals > 1 else float("nan")
        records.append(
            {
                "type": kind,
                "decisions": len(part),
                "per_deal": len(part) / deals,
                "not_best": float((part["bot_choice"] != part["best"]).mean())
                if len(part)
                else float("nan"),
                "regret": float(part["regret"].sum()) / deals,
                "rescored": per_deal.mean(),
                "rescored_lo": per_deal.mean() - half,
                "rescored_hi": per_deal.mean() + half,
            }
        )
    return pd.DataFrame.from_records(records)


def deal_summary(decisions: pd.DataFrame) -> pd.DataFrame:
    """:func:`summarise` over the decisions of one deal, with 95% intervals for this deal's
    regret given the deal: each decision is re-scored on worlds of its own, so the variance
    of a sum of re-scored regrets is the sum of the decisions' variances (half-widths added
    in quadrature). A decision whose choice is the analysis best adds 0 and no variance; an
    interval is NaN when a decision's is (one world gives no spread).

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`summarise`, one row per decision type and ``all``.
    """
    summary = summarise(decisions, 1)
    variance = ((decisions["rescored_hi"] - decisions["rescored_lo"]) / 2) ** 2
    for i, kind in enumerate(summary["type"]):
        part = variance if kind == "all" else variance[decisions["type"] == kind]
        half = float(np.sqrt(part.sum(skipna=False)))
        summary.loc[i, "rescored_lo"] = summary.loc[i, "rescored"] - half
        summary.loc[i, "rescored_hi"] = summary.loc[i, "rescored"] + half
    return summary


def format_summary(summary: pd.DataFrame) -> str:
    """The summary as text: regret per deal in points, intervals in brackets, ``-`` for a share
    of no decisions or the interval of a single deal."""
    head = ["decision", "count", "per deal", "not best", "raw regret, points"]
    rows = [
        [
            r.type,
            f"{r.decisions:,}",
            f"{r.per_deal:.2f}",
            number(r.not_best, ".1%"),
            number(r.regret, "+.2f"),
            interval(r.rescored, r.rescored_lo, r.rescored_hi, "+.2f"),
        ]
        for r in summary.itertuples()
    ]
    return align_columns([[*head, "re-scored regret, points per deal [95%]"], *rows])


def format_top(top: pd.DataFrame) -> str:
    """The largest-regret decisions, one block each: reference, hand, pile top, choices
    (points; a dash where a decision had nothing to measure, as one with a single
    candidate)."""
    lines = []
    for r in top.itertuples():
        lines.append(
            f"{r.reference}  {r.type}  re-scored regret "
            f"{interval(r.rescored, r.rescored_lo, r.rescored_hi, '+.1f')} "
            f"(raw {number(r.regret, '+.1f')})\n"
            f"    hand {r.hand} | pile top {r.pile_top or DASH}\n"
            f"    bot: {r.bot_choice}  ({number(r.bot_mean, '+.1f')})\n"
            f"    best: {r.best}  ({number(r.best_mean, '+.1f')})"
        )
    return "\n".join(lines)


# --- one turn ----------------------------------------------------------------------------------
def _review_turn(deal: Deal, specs, plays, budget, key) -> list[dict]:
    """The rows of the current seat's turn on ``deal`` (left unchanged) as its bot plays it:
    its first move, then the rest of the turn."""
    trial = deal.copy()
    trial.play_turn(seated(deal.rules, specs))
    return _played_turn(
        deal, trial, specs[deal.current_player % deal.rules.sides], plays, budget, key
    )


def review_turns(
    turns, seats, *, worlds: int = 200, seed: int = 0, max_candidates: int = MAX_CANDIDATES
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Review turns played by someone other than the bots (the board's user): each turn
    given as the deal before it and the deal after it, analysed as :func:`review` analyses a
    bot's (the chosen candidates read from the turn played), in one deal.

    Parameters
    ----------
    turns : list of (Deal, Deal)
        Each turn: a copy of the deal at its start (draw phase) and one at its end (the same
        deal played on, its trace continuing the first's).
    seats : list of str
        The deal's bot spec per seat; the rollouts play each side's first seat's bot
        (:func:`own_rollout`).
    worlds : int
        Worlds per candidate, and for the re-scoring.
    seed : int
        The analysis seed (0 .. 2**32 - 1), as ``analysis_seed`` of :func:`review`.

    Returns
    -------
    decisions, summary : pandas.DataFrame
        As :attr:`ReviewResult.decisions` (``bot`` is ``"you"``) and
        :func:`deal_summary` (the one deal's regret, with intervals from its decisions').
    """
    check_int("worlds", worlds, 1, 10_000_000)
    check_int("analysis_seed", seed, 0, 2**32 - 1)
    rows = []
    if turns:
        sides = turns[0][0].rules.sides
        specs = [seats[s] for s in range(sides)]
        plays = own_rollout(specs, sides)
        budget = (worlds, worlds, None, max_candidates)
        for before, after in turns:
            seat = before.current_player
            for row in _played_turn(before, after, specs[seat % sides], plays, budget, (seed, 0)):
                row.update(deal=0, seat=seat, bot="you", reference=f"turn {row['turn']}")
                rows.append(row)
    decisions = pd.DataFrame.from_records(rows, columns=list(COLUMNS))
    return decisions, deal_summary(decisions)


def _played_turn(deal: Deal, trial: Deal, bot, plays, budget, key) -> list[dict]:
    """The rows of the current seat's turn on ``deal`` (left unchanged), played on ``trial``
    (a copy of ``deal`` played to the turn's end): its first move, then the rest of the
    turn; ``bot`` ranks the candidates when the budget bounds them."""
    start = len(deal.trace())
    events = trial.trace()[start:]
    seat, turn = deal.current_player, deal.turns
    cap = budget[3]
    info = deal.info_set(seat)
    found, left_out = list_candidates(info, cap)
    e = next((e for e in events if e["event"] in ("draw", "take_pile")), None)
    if e is None or e["event"] == "draw":  # None: the deal ended at an empty stock
        chosen = Candidate("draw", "draw")
    else:
        melds = tuple(f"{m['rank']}: {m['cards']}" for m in e["melds"])
        chosen = Candidate(f"take the pile with {e['with']}", "take", with_=e["with"], melds=melds)
    chosen = _same(found, chosen, info)
    rows = [_row(deal, info, found, chosen, bot, turn, 0, plays, budget, key)]
    rows[0]["plans_left_out"] = left_out
    work = deal.copy()
    chosen.apply(work)
    if work.is_over or work.current_player != seat or work.phase != "play":
        return rows
    rest = played_candidate(work, trial)
    if rest is None:  # no discard decision
        return rows
    info = work.info_set(seat)
    found, left_out = list_candidates(info, cap)
    rows.append(_row(work, info, found, _same(found, rest, info), bot, turn, 1, plays, budget, key))
    rows[1]["plans_left_out"] = left_out
    return rows


def decision_type(chosen: Candidate, best: Candidate) -> str:
    """The type of a decision (:data:`TYPES`) from the bot's choice and the best candidate
    (module docstring): ``pickup`` when either is a draw or a pickup; ``going_out`` when
    either goes out (R-40); ``meld_timing`` when their plans lay different naturals;
    ``wild_cards`` when they lay the same naturals and other wild cards; else ``discard``."""
    if chosen.move != "play" or best.move != "play":
        return "pickup"
    if chosen.going_out or best.going_out:
        return "going_out"
    a, b = chosen.plan, best.plan
    if (a[:, 0] != b[:, 0]).any():
        return "meld_timing"
    if (a != b).any():
        return "wild_cards"
    return "discard"


def _key(c: Candidate, info) -> tuple:
    kind, plan, discard = c.kernel_row(int(info.pile_codes[-1]) if len(info.pile_codes) else 0)
    return kind, plan.tobytes(), discard


def _same(found: list[Candidate], chosen: Candidate, info) -> Candidate:
    """The candidate of ``found`` making the same moves as ``chosen``, or ``chosen`` itself."""
    return next((c for c in found if _key(c, info) == _key(chosen, info)), chosen)


def _row(deal, info, found, chosen, bot, turn, decision, plays, budget, key) -> dict:
    """One decision's row: ``found`` (bounded by the bot's ranking, ``chosen`` kept) analysed
    with ``plays`` as the rollout bots."""
    worlds, rescore_worlds, top, cap = budget
    if top is not None and len(found) > top:
        found = rank_candidates(deal, found, bot)[:top]
    if chosen not in found:
        found = [*found, chosen]
    row = {
        "turn": turn,
        "decision": decision,
        "hand": info.hand,
        "pile_top": C.KINDS[int(info.pile_codes[-1])] if len(info.pile_codes) else "",
        "candidates": len(found),
        "bot_choice": chosen.label,
    }
    if len(found) == 1:
        kind = "pickup" if decision == 0 else decision_type(chosen, chosen)
        return {
            **row,
            "type": kind,
            "best": chosen.label,
            "best_mean": np.nan,
            "bot_mean": np.nan,
            "regret": 0.0,
            "regret_lo": 0.0,
            "regret_hi": 0.0,
            "rescored": 0.0,
            "rescored_lo": 0.0,
            "rescored_hi": 0.0,
            "worlds": 0,
        }
    seeds = np.random.SeedSequence([*key, turn, decision]).generate_state(2, np.uint64)
    result = analyse(
        info,
        found,
        worlds=worlds,
        rollout=plays,
        seed=int(seeds[0]),
        threads=None,
        max_candidates=cap,
    )
    table = result.table.set_index("candidate")
    best = result.candidates[0]
    mine = table.loc[chosen.label]
    # the nearest alternative names the decision when the bot's choice is the best
    other = result.candidates[1] if best == chosen else best
    row.update(
        type="pickup" if decision == 0 else decision_type(chosen, other),
        best=best.label,
        best_mean=float(table["score_diff"].iloc[0]),
        bot_mean=float(mine["score_diff"]),
        regret=-float(mine["vs_best"]),
        regret_lo=-float(mine["vs_best_hi"]),
        regret_hi=-float(mine["vs_best_lo"]),
        worlds=worlds,
    )
    if best == chosen:
        return {**row, "rescored": 0.0, "rescored_lo": 0.0, "rescored_hi": 0.0}
    fresh = analyse(
        info,
        [best, chosen],
        worlds=rescore_worlds,
        rollout=plays,
        seed=int(seeds[1]),
        max_candidates=cap,
    )
    per = fresh.per_world
    value = (per["own_score"] - per["other_score"]).to_numpy(float)
    d = (
        value[per["candidate"].to_numpy() == best.label]
        - value[per["candidate"].to_numpy() == chosen.label]
    )
    half = Z95 * d.std(ddof=1) / np.sqrt(len(d)) if len(d) > 1 else float("nan")
    return {
        **row,
        "rescored": d.mean(),
        "rescored_lo": d.mean() - half,
        "rescored_hi": d.mean() + half,
    }


def run_rules(run) -> tuple:
    """The rules of the run folder ``run`` and its number of deals.

    Raises
    ------
    ValueError
        For a folder :func:`canasta_sim.deal_from_run` refuses.
    """
    from ..results.run_folder import read_manifest

    folder = Path(run)
    manifest = read_manifest(folder)
    first, _bots = deal_from_run(RunAddress(folder, 0))  # checks the folder and its versions
    return first.rules, int(manifest.get("deals", 0))


def _run_deals(run, deals) -> tuple:
    """The rules of ``run`` and a generator of ``(name, deal at its start, bots per side)``
    for its first ``deals`` deals (default: all)."""
    folder = Path(run)
    rules, total = run_rules(folder)
    n = total if deals is None else check_int("deals", deals, 1, max(total, 1))

    def boards():
        for k in range(n):
            deal, bots = deal_from_run(RunAddress(folder, k))
            yield f"{folder}:{k}", deal, bots

    return rules, n, boards()
