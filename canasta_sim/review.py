"""Review: where a bot loses points, decision by decision (docs/pimc.md, "Review").

Every decision of one seat in a set of deals is analysed with a fixed budget
(:func:`canasta_sim.analyse` with ``worlds=``), and its *regret* is the best candidate's mean
score difference minus the mean of the bot's own choice (points, paired over the worlds).
Picking the best of noisy means inflates that figure, so the regret is re-scored on fresh
worlds (another analysis seed) for the two candidates only: the best and the bot's choice.

The decisions of a turn (R-20):

- ``pickup``: the turn's first move, draw from the stock or take the discard pile (R-30..R-35),
  with the candidates of :func:`canasta_sim.candidates.candidates`;
- ``discard`` and ``going_out``: the choice after the first move. The candidates are those of
  :func:`~canasta_sim.candidates.candidates` at that point (discard a kind now, go out with
  the engine's melds) and, for each kind left in hand after the bot's own melds of the turn,
  those melds then a discard of that kind; the bot's choice is its melds and its discard (or
  its going out). The decision is ``going_out`` when a candidate goes out (R-40), else
  ``discard``. A turn that ends by R-45 (no discard) has no second decision.

The rest of every rollout is played by the deal's own bots unless ``rollout`` is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from . import cards as C
from .address import RunAddress, deal_from_run
from .analysis import Z95, analyse
from .bots import side_bots
from .candidates import Candidate, candidates
from .deal import Deal
from .notation import as_rules

#: Decision types, in the order of the summary.
TYPES = ("pickup", "discard", "going_out")

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
        (count), ``bot_choice`` and ``best`` (labels), ``best_mean`` and ``bot_mean`` (mean
        score difference, points), ``regret`` with ``regret_lo``/``regret_hi`` (best minus the
        bot's choice in the analysis worlds, paired 95% interval, points), ``rescored`` with
        ``rescored_lo``/``rescored_hi`` (the same difference on fresh worlds), ``worlds`` (per
        candidate), ``reference`` (where to replay it). A decision with one candidate has
        regret 0 and no rollouts.
    summary : pandas.DataFrame
        One row per decision type and ``all``: ``decisions`` (count), ``per_deal`` (decisions
        per deal), ``not_best`` (share of decisions where the bot's choice is not the
        analysis best), ``regret`` (raw, mean per deal) and ``rescored`` with
        ``rescored_lo``/``rescored_hi`` (mean re-scored regret per deal, 95% interval over
        the deals, points).
    settings : dict
        What made the review (JSON-able).
    """

    decisions: pd.DataFrame
    summary: pd.DataFrame
    settings: dict

    def top(self, k: int = 10) -> pd.DataFrame:
        """The ``k`` decisions with the largest re-scored regret."""
        return self.decisions.sort_values("rescored", ascending=False, kind="stable").head(k)

    def __str__(self) -> str:
        return format_summary(self.summary) + "\n\n" + format_top(self.top())


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
        Bots of the rollouts (default: the deal's own bots).
    analysis_seed : int
        Master seed of the analysis worlds (0 .. 2**32 - 1); each decision's worlds and its
        re-scoring worlds come from it, the deal and the decision.
    progress : callable, optional
        Called with the deal index after each deal.

    Returns
    -------
    ReviewResult

    Raises
    ------
    ValueError
        For a bad count, seat, bot spec or seed, ``run`` given with ``rules``, ``bots`` other
        than the default or ``seed``, or a run folder :func:`canasta_sim.deal_from_run` refuses.
    """
    _count("worlds", worlds)
    rescore_worlds = worlds if rescore_worlds is None else _count("rescore_worlds", rescore_worlds)
    _count("analysis_seed", analysis_seed, 0, 2**32 - 1)
    if run is not None:
        if rules is not None or seed != 0 or bots != "expert":
            raise ValueError(
                "run= gives the deals, rules and bots; do not give rules, bots or seed"
            )
        rules, n, boards = _run_deals(run, deals)
    else:
        rules = as_rules(rules)
        n = _count("deals", 1 if deals is None else deals)
        _count("seed", seed, 0, 2**64 - 1)
        specs = [b.spec for b in side_bots(bots, rules.sides)]
        boards = (
            (f"seed {seed} deal {k}", Deal.new(rules, seed, deal=k, trace=True), specs)
            for k in range(n)
        )
    _count("seat", seat, 0, rules.players - 1)
    if rollout is not None:
        side_bots(rollout, rules.sides)  # checks the spec before any rollout
    rows = []
    used = set()
    for index, (name, deal, specs) in enumerate(boards):
        used.update(specs)
        plays = rollout if rollout is not None else specs
        while not deal.is_over:
            if deal.current_player == seat:
                for row in _review_turn(
                    deal, specs, plays, worlds, rescore_worlds, (analysis_seed, index)
                ):
                    row.update(deal=index, seat=seat, bot=specs[seat % rules.sides])
                    row["reference"] = f"{name}:{row['turn']}:{row['decision']}"
                    rows.append(row)
            deal.play_turn(specs)
        if progress is not None:
            progress(index)
    decisions = pd.DataFrame.from_records(rows, columns=list(COLUMNS))
    settings = {
        "deals": n,
        "seat": seat,
        "worlds": worlds,
        "rescore_worlds": rescore_worlds,
        "analysis_seed": analysis_seed,
        "rules": rules.to_dict(),
        "bots": sorted(used),
        "rollout": rollout,
        "objective": "score_diff",
        **({"run": str(run)} if run is not None else {"seed": seed}),
    }
    return ReviewResult(decisions, summarise(decisions, n), settings)


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


def format_summary(summary: pd.DataFrame) -> str:
    """The summary as text: regret per deal in points, intervals in brackets."""
    lines = [
        f"{'decision':<10} {'count':>7} {'per deal':>8} {'not best':>8} {'raw regret':>10} "
        f"{'re-scored regret per deal [95%]':>32}"
    ]
    for r in summary.itertuples():
        ci = f"{r.rescored:+.2f} [{r.rescored_lo:+.2f}, {r.rescored_hi:+.2f}]"
        lines.append(
            f"{r.type:<10} {r.decisions:>7,} {r.per_deal:>8.2f} {r.not_best:>8.1%} "
            f"{r.regret:>+10.2f} {ci:>32}"
        )
    return "\n".join(lines)


def format_top(top: pd.DataFrame) -> str:
    """The largest-regret decisions, one block each: reference, hand, pile top, choices."""
    lines = []
    for r in top.itertuples():
        lines.append(
            f"{r.reference}  {r.type}  re-scored regret {r.rescored:+.1f} "
            f"[{r.rescored_lo:+.1f}, {r.rescored_hi:+.1f}] (raw {r.regret:+.1f})\n"
            f"    hand {r.hand} | pile top {r.pile_top or '-'}\n"
            f"    bot: {r.bot_choice}  ({r.bot_mean:+.1f})\n"
            f"    best: {r.best}  ({r.best_mean:+.1f})"
        )
    return "\n".join(lines)


# --- one turn ----------------------------------------------------------------------------------
def _review_turn(deal: Deal, specs, plays, worlds, rescore_worlds, key) -> list[dict]:
    """The rows of the current seat's turn on ``deal`` (left unchanged): its first move, then
    the choice after it."""
    trial = deal.copy()
    start = len(trial.trace())
    trial.play_turn(specs)
    events = trial.trace()[start:]
    seat, turn = deal.current_player, deal.turns
    info = deal.info_set(seat)
    found = candidates(info)
    firsts = [e for e in events if e["event"] in ("draw", "take_pile")]
    if not firsts or firsts[0]["event"] == "draw":
        chosen = Candidate("draw", "draw")
    else:
        e = firsts[0]
        melds = tuple(f"{m['rank']}: {m['cards']}" for m in e["melds"])
        chosen = Candidate(f"take the pile with {e['with']}", "take", with_=e["with"], melds=melds)
    rows = [_row(info, found, chosen, turn, 0, "pickup", plays, worlds, rescore_worlds, key)]
    work = deal.copy()
    _same(found, chosen, info).apply(work)
    if work.is_over or work.current_player != seat or work.phase != "play":
        return rows
    if any(e["event"] == "end_turn" for e in events):  # no discard decision
        return rows
    after = [e for e in events if e["event"] in ("meld", "discard")]
    melds = tuple(f"{e['rank']}: {e['cards']}" for e in after if e["event"] == "meld")
    thrown = next((e["card"] for e in after if e["event"] == "discard"), "")
    info = work.info_set(seat)
    melded = work.copy()
    if melds:
        melded.meld(*melds)
    left = C.parse_cards(melded.hand(seat))
    prefix = f"meld {', '.join(melds)}, " if melds else ""
    found = list(candidates(info))
    out = trial.went_out == seat
    own = [
        Candidate(
            ("go out: " if left.sum() == 1 else "") + f"{prefix}discard {C.KINDS[k]}",
            "play",
            melds=melds,
            discard=C.KINDS[k],
            going_out=bool(left.sum() == 1),
        )
        for k in np.nonzero(left)[0]
    ]
    if left.sum() == 0:
        own.append(
            Candidate(f"go out: meld {', '.join(melds)}", "play", melds=melds, going_out=True)
        )
    for c in own:
        if not any(_key(c, info) == _key(f, info) for f in found):
            found.append(c)
    chosen = Candidate("", "play", melds=melds, discard=thrown, going_out=out)
    kind = "going_out" if any(c.going_out for c in found) else "discard"
    rows.append(_row(info, found, chosen, turn, 1, kind, plays, worlds, rescore_worlds, key))
    return rows


def _key(c: Candidate, info) -> tuple:
    kind, plan, discard = c.kernel_row(int(info.pile_codes[-1]) if len(info.pile_codes) else 0)
    return kind, plan.tobytes(), discard


def _same(found: list[Candidate], chosen: Candidate, info) -> Candidate:
    """The candidate of ``found`` making the same moves as ``chosen``, or ``chosen`` itself."""
    return next((c for c in found if _key(c, info) == _key(chosen, info)), chosen)


def _row(info, found, chosen, turn, decision, kind, plays, worlds, rescore_worlds, key) -> dict:
    chosen = _same(found, chosen, info)
    if chosen not in found:
        found = [*found, chosen]
    row = {
        "turn": turn,
        "decision": decision,
        "type": kind,
        "hand": info.hand,
        "pile_top": C.KINDS[int(info.pile_codes[-1])] if len(info.pile_codes) else "",
        "candidates": len(found),
        "bot_choice": chosen.label,
    }
    if len(found) == 1:
        return {
            **row,
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
    result = analyse(info, found, worlds=worlds, rollout=plays, seed=int(seeds[0]), threads=None)
    table = result.table.set_index("candidate")
    best = result.candidates[0]
    mine = table.loc[chosen.label]
    row.update(
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
    fresh = analyse(info, [best, chosen], worlds=rescore_worlds, rollout=plays, seed=int(seeds[1]))
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


def _run_deals(run, deals) -> tuple:
    """The rules of ``run`` and a generator of ``(name, deal at its start, bots per side)``
    for its first ``deals`` deals (default: all)."""
    from .outdir import read_manifest

    folder = Path(run)
    manifest = read_manifest(folder)
    total = int(manifest.get("deals", 0))
    n = total if deals is None else _count("deals", deals, 1, max(total, 1))
    first, bots = deal_from_run(RunAddress(folder, 0))  # checks the folder and its versions

    def boards():
        for k in range(n):
            deal, bots = deal_from_run(RunAddress(folder, k))
            yield f"{folder}:{k}", deal, bots

    return first.rules, n, boards()


def _count(name: str, value, low: int = 1, high: int = 10_000_000) -> int:
    if (
        not isinstance(value, (int, np.integer))
        or isinstance(value, bool)
        or not (low <= value <= high)
    ):
        raise ValueError(f"{name}={value!r}; allowed: an integer from {low:,} to {high:,}")
    return int(value)
