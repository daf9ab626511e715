"""Commands that set bots or rules against each other: ``compare``, ``sweep``, ``tune``,
``study``."""

from __future__ import annotations

import signal

import click

from ..players.specs import DEFAULT_BOT, parse_bot
from .options import (
    CHUNK,
    COUNT,
    FORMAT,
    SCHEDULER,
    SCORES,
    Integer,
    _check_seat_files,
    _check_workers,
    _emit,
    _no_records_option,
    _note,
    _write_frames,
    api_errors,
    build_rules,
    integer_option,
    rules_options,
    run_options,
)


@click.command()
@click.argument("bot_a", required=False)
@click.argument("bot_b", required=False)
@click.option(
    "--seats",
    default=None,
    metavar="SPEC,SPEC,...",
    help="Instead of BOT_A BOT_B: one bot spec per seat; team A plays side 0's seats, team B "
    "side 1's (partners may differ). The rotation moves whole sides; a side's seats keep "
    "their order.",
)
@SCORES
@click.option("--deals", type=COUNT, default=None, help="Deals to play.")
@click.option("--games", type=COUNT, default=None, help="Play full games instead of deals.")
@rules_options
@click.option(
    "--chunk-size",
    type=CHUNK,
    default=None,
    help="Deals (games) per chunk, rounded up to whole boards; results do not depend on it.",
)
@click.option(
    "--until",
    default=None,
    metavar="decided|POINTS",
    help="Stop early: play blocks of --block deals and stop after the first block whose "
    "always-valid 95% interval of the difference (a confidence sequence) excludes 0 "
    "(decided) or is at most POINTS either side; --deals (--games) is then the most to play.",
)
@click.option(
    "--block",
    type=COUNT,
    default=None,
    help="With --until: deals (games) between two looks (default 1,000), rounded up to whole "
    "boards.",
)
@run_options(
    "Folder for the table (CSV) and the raw rows (Parquet, written chunk by chunk: one row per "
    "deal and side, naming its bot)."
)
@_no_records_option
@SCHEDULER
@FORMAT
def compare(
    bot_a,
    bot_b,
    seats,
    scores,
    deals,
    games,
    players,
    rules_opt,
    settings,
    chunk_size,
    until,
    block,
    no_records,
    scheduler,
    fmt,
    opts,
):
    """Compare BOT_A with BOT_B (or the two teams of --seats): bots rotate over the sides
    on shared deals. Under the table, one line says how to read it: points decide games,
    so the points per deal say which bot is stronger; the deal win rate ignores margins."""
    from ..results.paired import (
        comparison_reading,
        comparison_settings,
        format_comparison,
        table_notes,
    )
    from ..results.tables import json_document
    from ..run.compare import check_until, rotation_table
    from ..run.compare import compare as run

    if (deals is None) == (games is None):
        raise click.UsageError("give exactly one of '--deals N' and '--games N'")
    _check_bots_or_seats(bot_a, bot_b, seats)
    if block is not None and until is None:
        raise click.UsageError(
            "'--block' is the deals between two looks of '--until': give '--until'"
        )
    with api_errors("--until"):
        check_until(until)
    rules = build_rules(players, rules_opt, settings)
    for hint, spec in (("BOT_A", bot_a), ("BOT_B", bot_b)) if seats is None else ():
        with api_errors(hint):
            bot = parse_bot(spec)
        _check_seat_files([bot], rules, hint)  # its weight file, its prior
    with api_errors("--seats" if seats else None):
        rotation_table(bot_a, bot_b, rules, seats)
    with api_errors("--scores"):
        rotation_table(bot_a, bot_b, rules, seats, scores)
    opts.check(scheduler)
    with api_errors():
        table, _ = run(
            bot_a,
            bot_b,
            seats=seats,
            scores=scores,
            deals=deals,
            games=games,
            rules=rules,
            chunk_size=chunk_size,
            scheduler=scheduler,
            until=until,
            block=block,
            **opts.api(),
            **opts.writes(no_records),
        )  # the bots are checked above
    unit = "games" if games else "deals"
    reading = comparison_reading(table, unit)
    played = table.attrs["manifest"][unit]
    _note(fmt, f"{played:,} {unit}, {rules.players} players, seed {opts.seed}")
    if until is not None:
        stop = table.attrs["manifest"]["until"]
        rule = stop["rule"] if stop["rule"] == "decided" else f"{stop['rule']:g}"
        _note(fmt, f"until {rule}: stopped ({stop['stopped']}) of at most {stop['most']:,}")
    _emit(
        fmt,
        lambda: "\n".join([format_comparison(table, unit), reading, *table_notes(table)]),
        lambda: table,
        lambda: json_document(
            "compare", {**comparison_settings(table), "reading": reading}, table=table
        ),
    )
    if opts.out is not None:
        _note(fmt, f"results written to {opts.out}")


def _check_bots_or_seats(bot_a, bot_b, seats) -> None:
    """compare's players: two bots or ``--seats``; both given is a usage error naming both."""
    if seats is not None and bot_a is not None:
        named = " ".join(b for b in (bot_a, bot_b) if b is not None)
        raise click.UsageError(
            f"both bots ({named}) and '--seats {seats}' were given; give two bots BOT_A BOT_B "
            f"or '--seats' (one bot per seat), not both: drop one"
        )
    if seats is None and (bot_a is None or bot_b is None):
        raise click.UsageError("give two bots BOT_A BOT_B, or '--seats' (one bot per seat)")


@click.command()
@click.argument("bot")
@click.option(
    "--param",
    required=True,
    metavar="NAME=START:STOP:STEP",
    help="Parameter and values: a range with STOP included (pile_threshold=2:12:2 is 2, 4, "
    "..., 12) or a list (hold_wilds=0,1). A value equal to the opponent's setting gives "
    "the baseline row.",
)
@click.option("--vs", required=True, metavar="SPEC", help="Opponent bot spec.")
@click.option("--deals", type=COUNT, required=True, help="Deals per value.")
@rules_options
@run_options(
    "Folder for sweep.csv, sweep.parquet, sweep.png and manifest.json. Without it the "
    "sweep is printed and nothing is written."
)
@SCHEDULER
@FORMAT
def sweep(
    bot,
    param,
    vs,
    deals,
    players,
    rules_opt,
    settings,
    scheduler,
    fmt,
    opts,
):
    """Sweep one parameter of BOT against the --vs bot: one comparison per value."""
    from ..results.paired import format_sweep, plot_sweep, sweep_settings, sweep_title
    from ..results.tables import json_document
    from ..run.compare import parse_range, sweep_specs
    from ..run.compare import sweep as run

    name, eq, spec = param.partition("=")
    name, spec = name.strip(), spec.strip()
    if not eq:
        raise click.BadParameter(f"{param!r} is not NAME=START:STOP:STEP", param_hint=["--param"])
    try:
        values = parse_range(spec)
        sweep_specs(bot, name, values)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=["--param"]) from None
    rules = build_rules(players, rules_opt, settings)
    with api_errors("--vs"):
        opponent = parse_bot(vs).spec  # one bot, not a list per side
    target = opts.check(scheduler)
    with api_errors("--deals"):
        frame = run(
            bot,
            name,
            values,
            opponent,
            deals=deals,
            rules=rules,
            scheduler=scheduler,
            **opts.api(),
        )
    _note(fmt, sweep_title(frame))
    rows = frame.drop(columns=["param"])
    _emit(
        fmt,
        lambda: (
            format_sweep(frame)
            + (
                "\nbaseline: the row whose bot equals the opponent (a difference of 0 is even)"
                if frame["baseline"].any()
                else ""
            )
        ),
        lambda: rows,
        lambda: json_document("sweep", sweep_settings(frame), table=rows),
    )
    if target is None:
        return
    with api_errors("--out"):
        _write_frames(
            target,
            {
                "sweep.csv": frame,
                "sweep.parquet": frame,
                "sweep.png": lambda p: plot_sweep(frame, p),
                "manifest.json": frame.attrs["manifest"],
            },
        )
    _note(fmt, f"results written to {opts.out}")


#: tune's counts: the bots rotate over the sides, so a count is a multiple of them (2 sides,
#: 3 with 3 players; search.tune checks it), and 2 is the least any table allows.
SIDES_COUNT = Integer(2, 10**12)
_ROTATED = "a multiple of the sides (2, or 3 with 3 players)"


@click.command()
@click.argument("bot", default="expert")
@click.option(
    "--vs",
    "field",
    multiple=True,
    metavar="SPEC",
    help="A bot of the reference field (repeatable) [default: expert and careful].",
)
@click.option(
    "--param",
    "params",
    multiple=True,
    metavar="NAME",
    help="Search only this parameter (repeatable) [default: all that BOT's spec leaves free].",
)
@click.option(
    "--range",
    "ranges",
    multiple=True,
    metavar="NAME=LOW:HIGH",
    help="Search a parameter in a narrower closed range (repeatable), e.g. meld_keep=2:40.",
)
@click.option(
    "--objective",
    type=click.Choice(["diff", "wins"]),
    default="diff",
    show_default=True,
    help="diff: mean score difference per deal; wins: win rate in full games.",
)
@integer_option(
    "--trials",
    Integer(1, 100_000),
    60,
    help="Settings to try; trial 0 is the baseline.",
)
@click.option(
    "--start",
    default=None,
    metavar="SPEC",
    help="Setting of BOT's policy played as trial 0 (a warm start) [default: BOT's own].",
)
@click.option(
    "--deals",
    type=SIDES_COUNT,
    default=10_000,
    show_default=True,
    help=f"Deals per field bot per trial (objective diff), {_ROTATED}.",
)
@click.option(
    "--games",
    type=SIDES_COUNT,
    default=400,
    show_default=True,
    help=f"Games per field bot per trial (objective wins), {_ROTATED}.",
)
@click.option(
    "--final-deals",
    type=SIDES_COUNT,
    default=None,
    help=f"Deals per field bot for the best setting, on fresh seeds, {_ROTATED} [default: 5 "
    "times --deals, 50,000 at its default].",
)
@click.option(
    "--final-games",
    type=SIDES_COUNT,
    default=None,
    help=f"Games per field bot for the best setting, on fresh seeds, {_ROTATED} [default: 5 "
    "times --games, or with --objective diff 5 times --deals / 25; 2,000 at the defaults].",
)
@rules_options
@run_options(
    "Folder for history.csv, final.csv and manifest.json. Without it the result is "
    "printed and nothing is written."
)
@FORMAT
def tune(
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
    players,
    rules_opt,
    settings,
    fmt,
    opts,
):
    """Tune BOT's parameters jointly against a field of bots (docs/tune.md): a seeded TPE
    search on seat-rotated duplicate deals, then the best setting on fresh seeds."""
    from ..search.tune import (
        DEFAULT_FIELD,
        parse_ranges,
        search_space,
    )
    from ..search.tune import tune as run

    try:
        bounds = parse_ranges(ranges)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=["--range"]) from None
    with api_errors():
        search_space(bot, list(params) or None, bounds)
    field = list(field) or list(DEFAULT_FIELD)
    for spec in field:
        with api_errors("--vs"):  # one bot per --vs
            parse_bot(spec)
    rules = build_rules(players, rules_opt, settings)
    target = opts.check()
    with api_errors():
        result = run(
            bot,
            field=field,
            params=list(params) or None,
            ranges=bounds,
            objective=objective,
            trials=trials,
            start=start,
            deals=deals,
            games=games,
            final_deals=final_deals,
            final_games=final_games,
            rules=rules,
            **opts.api(),
        )  # bot, params, ranges and field are checked above
    _show_tune(fmt, result, bot, objective, trials, rules, opts.seed)
    if target is None:
        return
    _write_frames(
        target,
        {
            "history.csv": result.history,
            "final.csv": result.final,
            "manifest.json": result.manifest,
        },
    )
    _note(fmt, f"results written to {opts.out}")


def _show_tune(fmt, result, bot: str, objective: str, trials: int, rules, seed: int) -> None:
    """Print a tune's settings line, then its best trials and the best setting on fresh
    seeds (or its final table as CSV, or all of it as JSON, by ``fmt``)."""
    from ..results.tables import json_document
    from ..search.tune import format_final, format_history

    info = result.manifest["tune"]
    _note(
        fmt,
        f"{trials} trials, objective {objective} ({info['objective_doc']}), field "
        f"{', '.join(result.manifest['bots']['field'])}, {rules.players} players, "
        f"seed {seed}: {result.manifest['wall_seconds']:.1f} s",
    )
    _emit(
        fmt,
        lambda: "\n".join(
            [
                "best trials of the search (search seeds):",
                format_history(result.history.nlargest(5, "objective"), objective),
                f"best: {result.best.spec} (trial {info['best_trial']})",
                "on fresh seeds (95% intervals):",
                format_final(result.final),
            ]
        ),
        lambda: result.final,
        lambda: json_document(
            "tune",
            {
                "bot": bot,
                "best": result.best.spec,
                "best_trial": info["best_trial"],
                "objective": objective,
                "trials": trials,
                "field": result.manifest["bots"]["field"],
                "players": rules.players,
                "seed": seed,
            },
            history=result.history,
            final=result.final,
        ),
    )


@click.command()
@click.option(
    "--axis",
    "axes",
    multiple=True,
    required=True,
    metavar="NAME=V1|V2|...",
    help="A grid axis (repeatable; the axes are crossed): players=2|3|4|6, "
    "preset=classic|hoyle, switch:SWITCH=V1|V2 (any rules switch; commas stay inside a "
    "value, e.g. card_values), bots=SPEC|SPEC;SPEC (';' separates one spec per side; "
    f"without a bots axis every cell plays {DEFAULT_BOT}).",
)
@click.option("--deals", type=COUNT, required=True, help="Deals per cell.")
@integer_option(
    "--baseline",
    Integer(min=0),
    0,
    help="Number of the cell the others are compared with (grid order, first axis slowest).",
)
@run_options(
    "Study folder: manifest.json, cells/ (one run folder per cell), study.csv and "
    "study.png. Without it the study is printed and nothing is written."
)
@click.option(
    "--resume",
    is_flag=True,
    help="Continue an interrupted study in --out: play only the missing cells.",
)
def study(axes, deals, baseline, resume, opts):
    """Run a grid of variants (one run per cell, the same seed) and compare the cells."""
    from ..results.study_table import format_study, unfinished_study
    from ..run.study import StudyInterrupted, grid_cells, parse_axis, run_study

    parsed = []
    for text in axes:
        try:
            parsed.append(parse_axis(text))
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint=["--axis"]) from None
    try:
        cells = grid_cells(parsed)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=["--axis"]) from None
    if baseline >= len(cells):
        raise click.BadParameter(
            f"{baseline} is not a cell; allowed: 0 to {len(cells) - 1}", param_hint=["--baseline"]
        )
    if resume and opts.overwrite:
        raise click.UsageError("'--resume' and '--overwrite' exclude each other; give one")
    if resume and opts.out is None:
        raise click.UsageError("'--resume' needs '--out', the folder of the study to continue")
    if resume:  # --out is the study to continue
        _check_workers(opts.workers)
    else:
        unfinished = None if opts.overwrite or opts.out is None else unfinished_study(opts.out)
        if unfinished is not None:
            raise click.BadParameter(
                f"{str(opts.out)!r} is an unfinished study ({unfinished[0]} of {unfinished[1]} "
                f"cells done); run the same command with '--resume' to finish it, or add "
                f"'--overwrite' to start it again (the finished cells are deleted)",
                param_hint=["--out"],
            )
        opts.check()

    def done(cell, played):
        how = "played" if played else "read from its folder"
        click.echo(f"cell {cell.index + 1}/{len(cells)} {cell.name}: {how}", err=True)

    try:
        with api_errors("--out" if resume else "--axis"):
            table = run_study(
                parsed,
                deals=deals,
                out=opts.out,
                baseline=baseline,
                resume=resume,
                overwrite=opts.overwrite,
                **opts.api(),
                on_cell=done,
            )
    except StudyInterrupted as exc:  # the finished cells stay: say how to finish the rest
        how = "with '--resume' instead of '--overwrite'" if opts.overwrite else "with '--resume'"
        how = "again" if resume else how
        click.echo(
            f"Interrupted: {exc.done} of {exc.total} cells done in {opts.out}; run the same "
            f"command {how} to finish it",
            err=True,
        )
        raise SystemExit(128 + signal.SIGINT) from None
    click.echo(f"study of {len(cells)} cells, {deals:,} deals per cell, seed {opts.seed}")
    click.echo(f"statistics of the play of {table.attrs['policy']}")
    click.echo(format_study(table))
    if opts.out is not None:
        click.echo(f"results written to {opts.out}")
