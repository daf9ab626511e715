"""Commands that play many deals of one table and keep or check them: ``simulate``,
``games``, ``merge``, ``verify``, ``warmup``."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from .._version import BOTS_VERSION
from ..nb.engine.rng import DEAL_LIMIT
from ..players.specs import DEFAULT_BOT
from .options import (
    BOTS,
    CHUNK,
    COUNT,
    FORMAT,
    OVERWRITE,
    QUIET,
    SCHEDULER,
    SCORES,
    SEATS,
    SEED_OPTION,
    Folder,
    Integer,
    _bots,
    _emit,
    _new_out,
    _no_records_option,
    _note,
    api_errors,
    build_rules,
    integer_option,
    rules_options,
    run_options,
    table_run,
    trace_option,
)


@click.command()
@click.option("--deals", type=COUNT, required=True, help="Deals to play.")
@rules_options
@click.option(
    "--bots",
    default=None,
    metavar="SPEC[,SPEC...]",
    help="One bot spec for every side, or one per side (side 0 first) [default: "
    f"{DEFAULT_BOT}, the learned bot; expert: the hand-written one].",
)
@SEATS
@SCORES
@integer_option(
    "--first-deal",
    Integer(0, DEAL_LIMIT - 1),
    0,
    help="Index of the first deal: extend a run with the same seed (then canasta-sim merge).",
)
@click.option(
    "--chunk-size",
    type=CHUNK,
    default=None,
    help="Deals per kernel call (default 50000, at most 1000000); results do not "
    "depend on it, but chunks under a few thousand deals run much slower.",
)
@run_options(
    "Results folder to write (Parquet records written chunk by chunk, manifest.json, "
    "aggregates.json, summary.json). Without it only the aggregates are kept."
)
@_no_records_option
@SCHEDULER
@FORMAT
@click.option(
    "--parts",
    is_flag=True,
    help="With --scheduler and --out: workers write the records as Parquet parts "
    "into --out (a path every worker reaches) instead of sending them back.",
)
def simulate(
    deals,
    players,
    rules_opt,
    settings,
    bots,
    seats,
    scores,
    first_deal,
    chunk_size,
    no_records,
    scheduler,
    fmt,
    parts,
    opts,
):
    """Play DEALS independent deals and print their statistics."""
    from ..results.stats import format_summary
    from ..results.tables import count, json_document
    from ..run.simulate import simulate as run

    if parts and (scheduler is None or opts.out is None or no_records):
        raise click.UsageError(
            "'--parts' needs '--scheduler', '--out' and records (not '--no-records')"
        )
    setting = table_run(players, rules_opt, settings, bots, seats, scores, scheduler, opts)
    rules = setting["rules"]
    with api_errors():
        result = run(
            deals,
            **setting,
            first_deal=first_deal,
            chunk_size=chunk_size,
            scheduler=scheduler,
            parts=parts,
            **opts.api(),
            **opts.writes(no_records),
        )
    m = result.manifest
    deal_range = f" (deals {first_deal:,} to {first_deal + deals - 1:,})" if first_deal else ""
    _note(
        fmt,
        f"{count(deals, 'deal')}{deal_range}, {rules.players} players, "
        f"bots {', '.join(m['bots'][0])}, seed {opts.seed}: {m['wall_seconds']:.1f} s "
        f"({m['deals_per_second']:,.0f} deals/s)",
    )
    table = result.summary()
    if fmt == "csv":  # the table and the JSON document name the play themselves
        _note(fmt, f"statistics of the play of {table.attrs['policy']}")
    _emit(
        fmt,
        lambda: format_summary(table),
        lambda: table,
        lambda: json_document(
            "simulate",
            {
                "deals": deals,
                "first_deal": first_deal,
                "players": rules.players,
                "bots": m["bots"][0],
                "policy": table.attrs["policy"],
                "bots_version": BOTS_VERSION,
                "seed": opts.seed,
                "wall_seconds": m["wall_seconds"],
                "deals_per_second": m["deals_per_second"],
            },
            summary=table,
        ),
    )
    if opts.out is not None:
        _note(fmt, f"results written to {opts.out}")


@click.command()
@click.argument("runs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--out", type=Folder(), required=True, help="The merged results folder.")
@OVERWRITE
@click.option(
    "--no-records",
    is_flag=True,
    help="Write the aggregates only: the way to merge runs of which some kept records and "
    "some did not (without it such runs are refused: no records are dropped silently).",
)
def merge(runs, out, overwrite, no_records):
    """Merge simulate run folders RUNS (same rules, bots and versions; no deal twice) into one."""
    from ..results.stats import format_summary
    from ..run.merge import merge_runs

    _new_out(out, overwrite)
    with api_errors("RUNS"):
        result = merge_runs(runs, out, overwrite=overwrite, records=not no_records)
    ranges = ", ".join(
        f"seed {s}: deals {f:,} to {f + n - 1:,}" for s, f, n in result.manifest["ranges"]
    )
    click.echo(f"{result.manifest['deals']:,} deals from {len(runs)} runs ({ranges})")
    click.echo(format_summary(result.summary()))
    click.echo(f"results written to {out}")


@click.command()
@click.option("--games", type=COUNT, required=True, help="Games to play.")
@rules_options
@BOTS
@SEATS
@SCORES
@run_options("Folder for games.csv, deals.parquet and sides.parquet (written chunk by chunk).")
@_no_records_option
@SCHEDULER
@FORMAT
def games(
    games,
    players,
    rules_opt,
    settings,
    bots,
    seats,
    scores,
    no_records,
    scheduler,
    fmt,
    opts,
):
    """Play GAMES full games to the target score (R-55) and print win rates."""
    from ..results.game_totals import format_game_sides, game_sides
    from ..results.tables import count, json_document
    from ..run.games import MAX_DEALS, play_games

    setting = table_run(players, rules_opt, settings, bots, seats, scores, scheduler, opts)
    rules = setting["rules"]
    with api_errors():
        result = play_games(
            games,
            **setting,
            scheduler=scheduler,
            **opts.api(),
            **opts.writes(no_records),
        )
    t = result.totals
    wall = result.manifest["wall_seconds"]
    _note(
        fmt,
        f"{count(games, 'game')}, {rules.players} players, target {rules.game_target}, seed "
        f"{opts.seed}: {wall:.1f} s; mean {t.deals / t.games:.2f} deals per game",
    )
    sides = game_sides(t, result.manifest["bots"][0], result.manifest["scores"])
    _emit(
        fmt,
        lambda: format_game_sides(sides),
        lambda: sides,
        lambda: json_document(
            "games",
            {
                "games": games,
                "players": rules.players,
                "target": rules.game_target,
                "scores": result.manifest["scores"],
                "seed": opts.seed,
                "deals": t.deals,
                "deals_per_game": t.deals / t.games,
                "unfinished": t.unfinished,
                "wall_seconds": wall,
            },
            sides=sides,
        ),
    )
    if t.unfinished:
        _note(
            fmt,
            f"{t.unfinished} of {games:,} games ended unfinished at the bound of "
            f"{MAX_DEALS} deals per game (no side reached {rules.game_target} points); "
            f"they count as no win",
        )
    if opts.out is not None:
        _note(fmt, f"results written to {opts.out}")


@click.command()
@integer_option(
    "--deals",
    Integer(1, 10**9),
    None,
    shown=False,
    help="Deals to referee (required unless --trace).",
)
@trace_option("traces", "Referee", "playing deals; repeat for several", multiple=True)
@rules_options
@BOTS
@SEED_OPTION
@integer_option(
    "--workers",
    Integer(min=1),
    1,
    help="Worker processes: the referee is pure Python, so it runs in processes, not "
    "threads; the verdicts do not depend on it.",
)
@SCHEDULER
@click.option(
    "--show", type=Integer(min=1), default=5, show_default=True, help="Failures to print."
)
@QUIET
def verify(
    deals, traces, players, rules_opt, settings, bots, seed, workers, scheduler, show, quiet
):
    """Referee DEALS deals (or the trace files of --trace) with the independent rules checker;
    exit code 1 if any fails."""
    from ..players.pybot import seated
    from ..run.progress import Progress
    from ..run.verify import verify as run

    if traces:
        if deals is not None:
            raise click.UsageError("'--trace' and '--deals' exclude each other")
        _verify_traces(traces)
        return
    if deals is None:
        raise click.UsageError("Missing option '--deals' (or give '--trace FILE')")
    if scheduler is not None and workers != 1:
        raise click.UsageError("'--workers' and '--scheduler' exclude each other")
    rules = build_rules(players, rules_opt, settings)
    specs = [b.spec for b in _bots(bots, rules)]
    with api_errors("--bots"):  # the table refuses a seat's weight file or rollout's prior
        seated(rules, specs)
    start = time.perf_counter()
    with Progress(deals, "deal", not quiet) as bar:
        done = 0

        def tick(n):
            nonlocal done
            done += n
            bar.update(done)

        with api_errors("--scheduler"):
            failures = run(
                rules, specs, seed, deals, workers=workers, scheduler=scheduler, progress=tick
            )
    seconds = time.perf_counter() - start
    click.echo(
        f"{deals - len(failures):,} of {deals:,} deals passed ({rules.players} players, "
        f"bots {', '.join(specs)}, seed {seed}) in {seconds:.1f} s"
    )
    for failure in failures[:show]:
        click.echo(f"  deal {failure.deal}: {failure.verdict}")
    if failures:
        sys.exit(1)


def _verify_traces(traces) -> None:
    from ..referee import check_trace_file

    failed = 0
    for path in traces:
        try:
            verdict = check_trace_file(path)
        except ValueError as exc:  # not JSON lines (nor a JSON list), or not UTF-8 text
            raise click.UsageError(f"'--trace {path}': not a trace file ({exc})") from None
        click.echo(f"{path}: {verdict}")
        failed += not verdict.ok
    click.echo(f"{len(traces) - failed} of {len(traces)} traces passed")
    if failed:
        sys.exit(1)


@click.command()
@integer_option(
    "--processes",
    Integer(min=1),
    None,
    shown=False,
    help="Processes compiling independent kernels side by side (default: 2, or 1 on one "
    "core; more gain nothing).",
)
def warmup(processes):
    """Compile every kernel (into numba's cache) and report the seconds it took."""
    from ..warmup import warm_up

    start = time.perf_counter()
    warm_up(processes, note=True)
    click.echo(f"kernels ready in {time.perf_counter() - start:.1f} s")
