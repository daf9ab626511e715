"""The ``canasta-sim`` command line (click). Thin: parse, call the API, print, write files.

Bad input is a usage error (exit code 2) naming the value and what is allowed.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

import click

from . import __version__
from .rules import PRESETS, Rules, preset_name


# --- option parsing -------------------------------------------------------------------------
def _parse_switch_value(text: str):
    low = text.strip().lower()
    if low in ("true", "on", "yes"):
        return True
    if low in ("false", "off", "no"):
        return False
    if "," in low:
        return tuple(int(v) for v in low.split(","))
    return int(low)


def build_rules(players: str | None, rules_opt: str, settings: tuple[str, ...]) -> Rules:
    """Rules from ``--players``, ``--rules classic|hoyle|FILE.json`` and ``--set K=V``."""
    switches, given = {}, {}
    for item in settings:
        key, eq, value = item.partition("=")
        if not eq:
            raise click.BadParameter(f"{item!r} is not SWITCH=VALUE", param_hint="--set")
        try:
            parsed = _parse_switch_value(value)
        except ValueError:
            raise click.BadParameter(
                f"{item!r}: the value must be true/false, an integer or a comma list of integers",
                param_hint="--set",
            ) from None
        _set_once(switches, given, key.strip(), parsed, f"--set {item.strip()}")
    if players is not None:
        _set_once(switches, given, "players", int(players), f"--players {players}")
    try:
        if preset_name(rules_opt) is not None:
            return Rules.preset(rules_opt, **switches)
        return Rules.from_dict({**_rules_file(rules_opt), **switches})
    except (ValueError, TypeError) as exc:
        raise click.BadParameter(str(exc), param_hint="--rules/--set/--players") from None


def _set_once(switches: dict, given: dict, key: str, value, option: str) -> None:
    """Set ``switches[key]``; a switch given twice with different values (``--set players=6
    --players 2``) is a usage error rather than one of them winning silently. ``given`` maps
    each switch to the option text that set it, for the message."""
    if key in switches and switches[key] != value:
        raise click.UsageError(
            f"{given[key]} and {option} set {key} to different values; "
            f"allowed: one value (give {key} once, or the same value twice)"
        )
    switches[key] = value
    given[key] = option


def _rules_file(text: str) -> dict:
    path = Path(text)
    if not path.is_file():
        raise click.BadParameter(
            f"{text!r} is neither a preset ({', '.join(PRESETS)}, any case) nor a JSON file",
            param_hint="--rules",
        )
    try:
        data = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise click.BadParameter(
            f"{text!r} is not valid JSON ({exc})", param_hint="--rules"
        ) from None
    if not isinstance(data, dict):
        raise click.BadParameter(
            f"{text!r} must hold a JSON object of switches", param_hint="--rules"
        )
    return data


def _bots(text: str | None, rules: Rules, hint: str = "--bots"):
    from .bots import side_bots

    try:
        return side_bots(text, rules.sides)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=hint) from None


def _api(call, hint: str):
    """Run an API call; a ValueError (bad input found while running) is a usage error."""
    try:
        return call()
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=hint) from None


def rules_options(f):
    """Options shared by every command that plays deals."""
    f = click.option(
        "--set",
        "settings",
        multiple=True,
        metavar="SWITCH=VALUE",
        help="Change one rules switch (repeatable), e.g. --set wilds_at_most_naturals=false.",
    )(f)
    f = click.option(
        "--rules",
        "rules_opt",
        default="classic",
        show_default=True,
        metavar="classic|hoyle|FILE.json",
        help="Rules preset (any case) or JSON file.",
    )(f)
    f = click.option(
        "--players",
        type=click.Choice(["2", "3", "4", "6"]),
        default=None,
        help="Players at the table [default: 4, or the rules file's].",
    )(f)
    return f


SEED = click.IntRange(0, 2**64 - 1)
COUNT = click.IntRange(1, 10**12)
CHUNK = click.IntRange(1, 1_000_000)  # simulate.MAX_CHUNK (not imported: keeps --help fast)


def _scheduler(ctx, param, value):
    if value is None:
        return None
    from .cluster import _import_distributed, parse_scheduler

    try:
        parse_scheduler(value)
        _import_distributed()
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    return value


SCHEDULER = click.option(
    "--scheduler",
    default=None,
    callback=_scheduler,
    metavar="local:N|tcp://HOST:8786",
    help="Run on Dask: a LocalCluster of N worker processes (at most 4 per core), or an "
    "existing scheduler (needs pip install 'canasta-sim[dask]').",
)


class _Main(click.Group):
    """The command group; a failed write (disk full, read-only folder, naming the file) and
    Ctrl-C (exit code 130) are reported in one line, without a traceback (the run's staging
    folder is already removed by then)."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            # Ctrl-C: the shell's convention 128 + SIGINT, one line (the staging folder is
            # already removed by then)
            click.echo("Interrupted.", err=True)
            raise SystemExit(128 + signal.SIGINT) from None
        except BrokenPipeError:
            # the reader of our output went away (``| head``): stop quietly, as Unix tools do
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise SystemExit(1) from None
        except OSError as exc:
            where = f": {exc.filename}" if exc.filename else ""
            raise click.ClickException(f"{exc.strerror or exc}{where}") from None


# --- commands -------------------------------------------------------------------------------
@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="canasta-sim")
def main():
    """Rule-exact Canasta simulation: millions of bot-vs-bot deals, statistics, reports."""
    # SIGTERM (kill, a batch system's time limit) unwinds like Ctrl-C, so a run's staging
    # folder is removed and no half-written results stay behind
    signal.signal(signal.SIGTERM, _terminated)


def _terminated(signum, frame):
    raise SystemExit(128 + signum)


@main.command()
@click.option("--deals", type=COUNT, required=True, help="Deals to play.")
@rules_options
@click.option(
    "--bots",
    default=None,
    metavar="SPEC[,SPEC...]",
    help="One bot spec for every side, or one per side (side 0 first).",
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Master seed.")
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Threads (default: all cores); results do not depend on it.",
)
@click.option(
    "--chunk-size",
    type=CHUNK,
    default=None,
    help="Deals per kernel call (default 50000, at most 1000000); results do not "
    "depend on it, but chunks under a few thousand deals run much slower.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Results folder to write (Parquet, manifest.json, summary.json).",
)
@click.option("--no-records", is_flag=True, help="Keep aggregates only (constant memory).")
@click.option("--overwrite", is_flag=True, help="Replace an existing --out folder.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@SCHEDULER
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
    seed,
    workers,
    chunk_size,
    out,
    no_records,
    overwrite,
    quiet,
    scheduler,
    parts,
):
    """Play DEALS independent deals and print their statistics."""
    from .simulate import simulate as run
    from .stats import format_summary

    rules = build_rules(players, rules_opt, settings)
    side_bots = _bots(bots, rules)
    _check_workers(workers, scheduler)
    if parts and (scheduler is None or out is None or no_records):
        raise click.UsageError("--parts needs --scheduler, --out and records (not --no-records)")
    _new_out(out, overwrite)
    result = _api(
        lambda: run(
            deals,
            rules=rules,
            bots=[b.spec for b in side_bots],
            seed=seed,
            workers=workers,
            chunk_size=chunk_size,
            out=out,
            records=not no_records,
            progress=not quiet,
            overwrite=overwrite,
            scheduler=scheduler,
            parts=parts,
        ),
        "--scheduler/--out",
    )
    m = result.manifest
    click.echo(
        f"{deals:,} deals, {rules.players} players, bots {', '.join(m['bots'][0])}, seed "
        f"{seed}: {m['wall_seconds']:.1f} s ({m['deals_per_second']:,.0f} deals/s)"
    )
    click.echo(format_summary(result.summary()))
    if out is not None:
        click.echo(f"results written to {out}")


@main.command()
@click.argument("run_dir", type=click.Path(path_type=Path))
def report(run_dir):
    """Write RUN_DIR/report.md with plots, from the run's files."""
    from .report import write_report

    try:
        path = write_report(run_dir)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="RUN_DIR") from None
    click.echo(f"report written to {path}")


@main.command()
@click.option("--seed", type=SEED, default=0, show_default=True, help="Master seed of the run.")
@click.option(
    "--deal",
    "deal_index",
    type=click.IntRange(0, 2**63 - 1),
    default=0,
    show_default=True,
    help="Deal index within the run.",
)
@rules_options
@click.option("--bots", default=None, metavar="SPEC[,SPEC...]", help="As for simulate.")
@click.option("--json", "as_json", is_flag=True, help="Print the trace as JSON lines.")
@click.option("--check", is_flag=True, help="Referee the deal; exit code 1 if it fails.")
def replay(seed, deal_index, players, rules_opt, settings, bots, as_json, check):
    """Replay deal DEAL of a run with seed SEED, move by move in card notation."""
    from .deal import trace_deal
    from .trace import format_trace

    rules = build_rules(players, rules_opt, settings)
    trace = trace_deal(rules, [b.spec for b in _bots(bots, rules)], seed, deal_index)
    if as_json:
        for event in trace:
            click.echo(json.dumps(event))
    else:
        click.echo(format_trace(trace))
    if check:
        from .referee import check_trace

        verdict = check_trace(trace)
        click.echo(f"referee: {verdict}", err=as_json)  # keep --json output pure JSON lines
        if not verdict.ok:
            sys.exit(1)


@main.command()
def warmup():
    """Compile every kernel (into numba's cache) and report the seconds it took."""
    from .warmup import warm_up

    start = time.perf_counter()
    warm_up()
    click.echo(f"kernels ready in {time.perf_counter() - start:.1f} s")


def _common_run_options(f):
    f = click.option("--quiet", is_flag=True, help="No progress bar.")(f)
    f = click.option(
        "--workers",
        type=click.IntRange(min=1),
        default=None,
        help="Threads (default: all cores); results do not depend on it.",
    )(f)
    f = click.option("--seed", type=SEED, default=0, show_default=True, help="Master seed.")(f)
    return f


def _check_workers(workers, scheduler=None):
    """``--workers`` is numba threads per process: at most this machine's cores (remote Dask
    workers are not checked here)."""
    import numba

    remote = scheduler is not None and not scheduler.startswith("local:")
    if workers is not None and not remote and workers > numba.config.NUMBA_NUM_THREADS:
        raise click.BadParameter(
            f"{workers} is more than the {numba.config.NUMBA_NUM_THREADS} cores of this machine",
            param_hint="--workers",
        )


def _new_out(out: Path | None, overwrite: bool) -> Path | None:
    from .simulate import prepare_out

    if out is None:
        return None
    try:
        return prepare_out(out, overwrite)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--out") from None


def _write_frames(target: Path, files: dict) -> None:
    """Write a new results folder atomically (staging folder, then rename): ``.csv`` and
    ``.parquet`` files from DataFrames, ``.json`` files from dicts, any other file by calling
    its item with the path. An error names the file that could not be written."""
    from .simulate import commit_out, json_text, staging_folder, write_text, writing

    with staging_folder(target) as tmp:
        for name, item in files.items():
            path = tmp / name
            if name.endswith(".json"):
                write_text(path, json_text(item))
                continue
            with writing(path):
                if name.endswith(".csv"):
                    item.to_csv(path, index=False)
                elif name.endswith(".parquet"):
                    item.to_parquet(path, index=False)
                else:
                    item(path)
        commit_out(tmp, target)


def _print_table(frame) -> None:
    import pandas as pd

    with pd.option_context(
        "display.width", 200, "display.max_columns", 30, "display.float_format", "{:.4g}".format
    ):
        click.echo(frame.to_string(index=False))


@main.command()
@click.option("--games", type=COUNT, required=True, help="Games to play.")
@rules_options
@click.option("--bots", default=None, metavar="SPEC[,SPEC...]", help="As for simulate.")
@_common_run_options
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder for games.csv, deals.parquet and sides.parquet.",
)
@click.option("--overwrite", is_flag=True, help="Replace an existing --out folder.")
@SCHEDULER
def games(
    games, players, rules_opt, settings, bots, seed, workers, quiet, out, overwrite, scheduler
):
    """Play GAMES full games to the target score (R-55) and print win rates."""
    from .games import MAX_DEALS, play_games
    from .stats import wilson_interval

    rules = build_rules(players, rules_opt, settings)
    side_bots = _bots(bots, rules)
    _check_workers(workers, scheduler)
    target = _new_out(out, overwrite)
    result = _api(
        lambda: play_games(
            games,
            rules=rules,
            bots=[b.spec for b in side_bots],
            seed=seed,
            workers=workers,
            progress=not quiet,
            scheduler=scheduler,
        ),
        "--scheduler",
    )
    g = result.games
    click.echo(
        f"{games:,} games, {rules.players} players, target {rules.game_target}, seed "
        f"{seed}: {result.manifest['wall_seconds']:.1f} s; mean {g['deals'].mean():.2f} "
        f"deals per game"
    )
    for side in range(rules.sides):
        wins = int((g["winner"] == side).sum())
        low, high = wilson_interval(wins, games)
        click.echo(
            f"  side {side} ({side_bots[side].spec}): {wins} wins, win rate "
            f"{wins / games:.4f} [{low:.4f}, {high:.4f}], mean final score "
            f"{g[f'score_{side}'].mean():.1f}"
        )
    unfinished = int((g["winner"] < 0).sum())
    if unfinished:
        click.echo(
            f"  {unfinished} of {games:,} games ended unfinished at the bound of "
            f"{MAX_DEALS} deals per game (no side reached {rules.game_target} points); "
            f"they count as no win"
        )
    if target is not None:
        _write_frames(
            target,
            {
                "games.csv": g,
                "deals.parquet": result.deals,
                "sides.parquet": result.sides,
                "manifest.json": result.manifest,
            },
        )
        click.echo(f"results written to {out}")


@main.command()
@click.argument("bot_a")
@click.argument("bot_b")
@click.option("--deals", type=COUNT, default=None, help="Deals to play.")
@click.option("--games", type=COUNT, default=None, help="Play full games instead of deals.")
@rules_options
@_common_run_options
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder for the table (CSV) and the raw rows (Parquet).",
)
@click.option("--overwrite", is_flag=True, help="Replace an existing --out folder.")
def compare(
    bot_a, bot_b, deals, games, players, rules_opt, settings, seed, workers, quiet, out, overwrite
):
    """Compare BOT_A with BOT_B: bots rotate over the sides on shared deals."""
    from .compare import compare as run

    if (deals is None) == (games is None):
        raise click.UsageError("give exactly one of --deals N and --games N")
    rules = build_rules(players, rules_opt, settings)
    from .compare import rotation_table

    _api(lambda: rotation_table(bot_a, bot_b, rules), "BOT_A/BOT_B")  # two different bots
    _check_workers(workers)
    target = _new_out(out, overwrite)
    table, raw = _api(
        lambda: run(
            bot_a,
            bot_b,
            deals=deals,
            games=games,
            rules=rules,
            seed=seed,
            workers=workers,
            progress=not quiet,
        ),
        "--games" if games else "--deals",
    )  # the bots are checked above
    unit = "games" if games else "deals"
    click.echo(f"{games or deals:,} {unit}, {rules.players} players, seed {seed}")
    _print_table(table)
    if target is not None:
        _write_frames(
            target,
            {
                "compare.csv": table,
                f"{unit}.parquet": raw,
                "manifest.json": table.attrs["manifest"],
            },
        )
        click.echo(f"results written to {out}")


@main.command()
@click.argument("bot")
@click.option(
    "--param",
    required=True,
    metavar="NAME=START:STOP:STEP",
    help="Parameter and values, e.g. pile_threshold=2:12:2 or hold_wilds=0,1.",
)
@click.option("--vs", required=True, metavar="SPEC", help="Opponent bot spec.")
@click.option("--deals", type=COUNT, required=True, help="Deals per value.")
@rules_options
@_common_run_options
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder for sweep.csv, sweep.parquet and sweep.png [default: results/sweep-BOT-PARAM].",
)
@click.option("--overwrite", is_flag=True, help="Replace an existing --out folder.")
def sweep(
    bot, param, vs, deals, players, rules_opt, settings, seed, workers, quiet, out, overwrite
):
    """Sweep one parameter of BOT against the --vs bot: one comparison per value."""
    from .bots import parse_bot
    from .compare import parse_range, plot_sweep, sweep_specs
    from .compare import sweep as run

    name, eq, spec = param.partition("=")
    if not eq:
        raise click.BadParameter(f"{param!r} is not NAME=START:STOP:STEP", param_hint="--param")
    try:
        values = parse_range(spec)
        specs = sweep_specs(bot, name, values)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--param") from None
    rules = build_rules(players, rules_opt, settings)
    opponent = _api(lambda: parse_bot(vs).spec, "--vs")  # one bot, not a list per side
    if opponent in specs:
        raise click.BadParameter(
            f"the swept bot equals the opponent {opponent!r} at one of "
            f"the values; choose another --vs or range",
            param_hint="--vs",
        )
    _check_workers(workers)
    out = out or Path("results") / f"sweep-{bot.split(':')[0]}-{name}"
    target = _new_out(out, overwrite)
    frame = _api(
        lambda: run(
            bot,
            name,
            values,
            opponent,
            deals=deals,
            rules=rules,
            seed=seed,
            workers=workers,
            progress=not quiet,
        ),
        "--deals",
    )
    _print_table(frame.drop(columns=["param"]))
    _write_frames(
        target,
        {
            "sweep.csv": frame,
            "sweep.parquet": frame,
            "sweep.png": lambda p: plot_sweep(frame, p),
            "manifest.json": frame.attrs["manifest"],
        },
    )
    click.echo(f"results written to {out}")


@main.command()
@click.option("--deals", type=click.IntRange(1, 10**9), required=True, help="Deals to referee.")
@rules_options
@click.option("--bots", default=None, metavar="SPEC[,SPEC...]", help="As for simulate.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Master seed.")
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Worker processes: the referee is pure Python, so it runs in processes, not "
    "threads; the verdicts do not depend on it.",
)
@SCHEDULER
@click.option(
    "--show", type=click.IntRange(min=1), default=5, show_default=True, help="Failures to print."
)
def verify(deals, players, rules_opt, settings, bots, seed, workers, scheduler, show):
    """Referee DEALS deals with the independent rules checker; exit code 1 if any fails."""
    from .verify import verify as run

    if scheduler is not None and workers != 1:
        raise click.UsageError("--workers and --scheduler exclude each other")
    rules = build_rules(players, rules_opt, settings)
    specs = [b.spec for b in _bots(bots, rules)]
    start = time.perf_counter()
    with click.progressbar(length=deals, label="refereeing", file=sys.stderr) as bar:
        try:
            failures = run(
                rules, specs, seed, deals, workers=workers, scheduler=scheduler, progress=bar.update
            )
        except ValueError as exc:  # a Dask scheduler that cannot be reached
            raise click.UsageError(str(exc)) from None
    seconds = time.perf_counter() - start
    click.echo(
        f"{deals - len(failures):,} of {deals:,} deals passed ({rules.players} players, "
        f"bots {', '.join(specs)}, seed {seed}) in {seconds:.1f} s"
    )
    for failure in failures[:show]:
        click.echo(f"  deal {failure.deal}: {failure.verdict}")
    if failures:
        sys.exit(1)
