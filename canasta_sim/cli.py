"""The ``canasta-sim`` command line (click). Thin: parse, call the API, print, write files.

Bad input is a usage error (exit code 2) naming the value and what is allowed.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import click

from ._version import __version__
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
    """Rules from ``--players``, ``--rules classic|hoyle|FILE.json`` and ``--set K=V``; a bad
    switch is a usage error of the option that set it."""
    from .errors import BadSwitch

    switches: dict[str, Any] = {}
    given: dict[str, str] = {}
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
    except BadSwitch as exc:  # the switch at fault: the option that set it, else the rules
        option = given.get(exc.switch, "--rules").split()[0]
        raise click.BadParameter(str(exc), param_hint=option) from None
    except (ValueError, TypeError) as exc:
        raise click.BadParameter(str(exc), param_hint="--rules") from None


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


def _seating(bots: str | None, seats: str | None, rules: Rules) -> list[str]:
    """The bot specs of ``--bots`` (per side) or ``--seats`` (per seat), checked."""
    from .bots import table_bots

    if bots is not None and seats is not None:
        raise click.UsageError("give --bots (one bot per side) or --seats (one per seat), not both")
    try:
        return [b.spec for b in table_bots(bots, seats, rules)]
    except ValueError as exc:
        raise click.BadParameter(
            str(exc), param_hint="--seats" if seats is not None else "--bots"
        ) from None


def _scores(ctx, param, value):
    if value is None:
        return None
    try:
        return [int(v) for v in value.split(",")]
    except ValueError:
        raise click.BadParameter(
            f"{value!r} is not a comma list of integers (one cumulative score per side)"
        ) from None


SCORES = click.option(
    "--scores",
    default=None,
    callback=_scores,
    metavar="S0,S1[,S2]",
    help="Each side's cumulative score before every deal (games: before the game), points; "
    "sets the minimum counts (R-64), and the bots read it [default: 0 each].",
)

SEATS = click.option(
    "--seats",
    default=None,
    metavar="SPEC,SPEC,...",
    help="One bot spec per seat instead of --bots (seat 0 first; seat s plays for side "
    "s % sides), e.g. expert,careful,expert,careful.",
)


def _api(call, hint: str | None = None):
    """Run an API call. A bad argument (:class:`~canasta_sim.errors.BadArgument`) is a usage
    error of the command's option or argument of that name; any other ValueError (bad input
    found while running) one of ``hint``, the one option or argument the call reads (or, with
    none, a usage error naming no option); a results folder written by another run meanwhile
    is one of ``--out``."""
    from .errors import BadArgument
    from .outdir import OutConflict

    try:
        return call()
    except OutConflict as exc:
        raise click.BadParameter(str(exc), param_hint="--out") from None
    except ValueError as exc:
        if isinstance(exc, BadArgument):
            hint = _option_named(exc.argument) or hint
        if hint is None:
            raise click.UsageError(str(exc)) from None
        raise click.BadParameter(str(exc), param_hint=hint) from None


def _option_named(argument: str) -> str | None:
    """How the running command spells its parameter ``argument`` (``--first-deal`` for
    ``first_deal``, ``BOT_A`` for ``bot_a``), or ``None`` when it has none of that name."""
    ctx = click.get_current_context(silent=True)
    for param in ctx.command.params if ctx is not None else ():
        if param.name == argument:
            return param.opts[0] if isinstance(param, click.Option) else param.human_readable_name
    return None


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
CHUNK = click.IntRange(1, 1_000_000)  # runner.MAX_CHUNK (not imported: keeps --help fast)


def _scheduler(ctx, param, value):
    if value is None:
        return None
    from .cluster import import_distributed, parse_scheduler

    try:
        parse_scheduler(value)
        import_distributed()
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


FORMAT = click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "csv", "json"]),
    default="table",
    show_default=True,
    help="table: aligned text with units and 95% intervals; csv: the main table; json: the "
    "settings and every table (fields in docs/cli.md). Notes go to stderr with csv and json.",
)


class _Main(click.Group):
    """The command group. For the time of a command, SIGTERM (kill, a batch system's time
    limit) unwinds like Ctrl-C, so a run's staging folder is removed and no half-written
    results stay behind; the previous handler is restored after it. A failed write (disk
    full, read-only folder, naming the file), Ctrl-C (exit code 130) and an error inside a
    bot written in Python (exit code 1, the bot's own frames) are reported without the
    package's traceback (the run's staging folder is already removed by then)."""

    def invoke(self, ctx):
        with _sigterm_unwinds():
            return self._invoke(ctx)

    def _invoke(self, ctx):
        from .errors import BotError

        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("Interrupted.", err=True)  # the shell's convention 128 + SIGINT
            raise SystemExit(128 + signal.SIGINT) from None
        except BrokenPipeError:
            # the reader of our output went away (``| head``): stop quietly, as Unix tools do
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise SystemExit(1) from None
        except OSError as exc:
            where = f": {exc.filename}" if exc.filename else ""
            raise click.ClickException(f"{exc.strerror or exc}{where}") from None
        except BotError as exc:  # the user's bot failed, not the command's input
            raise click.ClickException(str(exc)) from None


@contextlib.contextmanager
def _sigterm_unwinds():
    """SIGTERM raises ``SystemExit(143)`` inside the block; the handler before it comes back
    after it. Only the main thread may set handlers: elsewhere (a command called from a
    thread) the block runs with the handler it finds."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)


def _terminated(signum, frame):
    raise SystemExit(128 + signum)


# --- commands -------------------------------------------------------------------------------
@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="canasta-sim")
def main():
    """Rule-exact Canasta simulation: millions of bot-vs-bot deals, statistics, reports."""


@main.command()
@click.option("--deals", type=COUNT, required=True, help="Deals to play.")
@rules_options
@click.option(
    "--bots",
    default=None,
    metavar="SPEC[,SPEC...]",
    help="One bot spec for every side, or one per side (side 0 first).",
)
@SEATS
@SCORES
@click.option("--seed", type=SEED, default=0, show_default=True, help="Master seed.")
@click.option(
    "--first-deal",
    type=click.IntRange(0, 2**63 - 2),
    default=0,
    show_default=True,
    help="Index of the first deal: extend a run with the same seed (then canasta-sim merge).",
)
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
    help="Results folder to write (Parquet records written chunk by chunk, manifest.json, "
    "aggregates.json, summary.json). Without it only the aggregates are kept.",
)
@click.option("--no-records", is_flag=True, help="With --out: write aggregates only.")
@click.option("--overwrite", is_flag=True, help="Replace an existing --out folder.")
@click.option("--quiet", is_flag=True, help="No progress.")
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
    seed,
    first_deal,
    workers,
    chunk_size,
    out,
    no_records,
    overwrite,
    quiet,
    scheduler,
    fmt,
    parts,
):
    """Play DEALS independent deals and print their statistics."""
    from .simulate import simulate as run
    from .stats import format_summary
    from .tables import json_document

    rules = build_rules(players, rules_opt, settings)
    specs = _seating(bots, seats, rules)
    _check_workers(workers, scheduler)
    if parts and (scheduler is None or out is None or no_records):
        raise click.UsageError("--parts needs --scheduler, --out and records (not --no-records)")
    _new_out(out, overwrite)
    result = _api(
        lambda: run(
            deals,
            rules=rules,
            bots=None if seats else specs,
            seats=specs if seats else None,
            scores=scores,
            seed=seed,
            first_deal=first_deal,
            workers=workers,
            chunk_size=chunk_size,
            out=out,
            records=out is not None and not no_records,  # records are only ever written
            progress=not quiet,
            overwrite=overwrite,
            scheduler=scheduler,
            parts=parts,
        )
    )
    m = result.manifest
    deal_range = f" (deals {first_deal:,} to {first_deal + deals - 1:,})" if first_deal else ""
    _note(
        fmt,
        f"{deals:,} deals{deal_range}, {rules.players} players, bots {', '.join(m['bots'][0])}, "
        f"seed {seed}: {m['wall_seconds']:.1f} s ({m['deals_per_second']:,.0f} deals/s)",
    )
    table = result.summary()
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
                "seed": seed,
                "wall_seconds": m["wall_seconds"],
                "deals_per_second": m["deals_per_second"],
            },
            summary=table,
        ),
    )
    if out is not None:
        _note(fmt, f"results written to {out}")


@main.command()
@click.argument("runs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--out", type=click.Path(path_type=Path), required=True, help="The merged results folder."
)
@click.option("--overwrite", is_flag=True, help="Replace an existing --out folder.")
@click.option(
    "--no-records",
    is_flag=True,
    help="Write the aggregates only: the way to merge runs of which some kept records and "
    "some did not (without it such runs are refused: no records are dropped silently).",
)
def merge(runs, out, overwrite, no_records):
    """Merge simulate run folders RUNS (same rules, bots and versions; no deal twice) into one."""
    from .merge import merge_runs
    from .stats import format_summary

    _new_out(out, overwrite)
    result = _api(
        lambda: merge_runs(runs, out, overwrite=overwrite, records=not no_records), "RUNS"
    )
    ranges = ", ".join(
        f"seed {s}: deals {f:,} to {f + n - 1:,}" for s, f, n in result.manifest["ranges"]
    )
    click.echo(f"{result.manifest['deals']:,} deals from {len(runs)} runs ({ranges})")
    click.echo(format_summary(result.summary()))
    click.echo(f"results written to {out}")


@main.command()
@click.argument("run_dir", type=click.Path(path_type=Path))
def report(run_dir):
    """Write RUN_DIR/report.md with plots, from the run's files."""
    from .outdir import VersionMismatch, check_run_versions, read_manifest
    from .report import write_report

    path = _api(lambda: write_report(run_dir), "RUN_DIR")
    try:
        check_run_versions(read_manifest(run_dir), run_dir)
    except VersionMismatch as exc:
        click.echo(f"warning: {exc}", err=True)  # a report of an older run is still a report
    click.echo(f"report written to {path}")


@main.command()
@click.argument("run_folder", required=False, type=click.Path(path_type=Path))
@click.option("--seed", type=SEED, default=0, show_default=True, help="Master seed of the run.")
@click.option(
    "--deal",
    type=click.IntRange(0, 2**63 - 1),
    default=0,
    show_default=True,
    help="Deal index within the run (within the game with --game).",
)
@click.option(
    "--game",
    type=click.IntRange(0, 2**63 - 1),
    default=None,
    help="With a games folder (games, compare --games): the game whose deal to replay.",
)
@click.option(
    "--value",
    type=float,
    default=None,
    help="With a sweep folder: the swept value whose comparison to replay.",
)
@rules_options
@click.option("--bots", default=None, metavar="SPEC[,SPEC...]", help="As for simulate.")
@SEATS
@SCORES
@click.option(
    "--hands",
    "show_hands",
    is_flag=True,
    help="Show every hand at the deal and before each turn.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the trace as JSON lines.")
@click.option("--check", is_flag=True, help="Referee the deal; exit code 1 if it fails.")
@click.pass_context
def replay(
    ctx,
    run_folder,
    seed,
    deal,
    game,
    value,
    players,
    rules_opt,
    settings,
    bots,
    seats,
    scores,
    show_hands,
    as_json,
    check,
):
    """Replay deal DEAL move by move in card notation: of the run in RUN_FOLDER (its
    manifest gives rules, bots, seed and scores), or of a run with seed SEED and the given
    rules and bots."""
    from .replay import RunDeal, deal_of_run, replay_deal
    from .trace import format_trace

    if run_folder is not None:
        given = [
            f"--{name.replace('_opt', '').replace('_', '-')}"
            for name in ("seed", "players", "rules_opt", "settings", "bots", "seats", "scores")
            if ctx.get_parameter_source(name) != click.core.ParameterSource.DEFAULT
        ]
        if given:
            raise click.UsageError(
                f"{', '.join(given)}: with RUN_FOLDER the rules, bots, seed and scores come "
                f"from its manifest (other bots would replay a deal the run never played); "
                f"give RUN_FOLDER or these options, not both"
            )
        run = _api(lambda: deal_of_run(run_folder, deal, game=game, value=value), "RUN_FOLDER")
    else:
        if game is not None or value is not None:
            raise click.UsageError("--game and --value need RUN_FOLDER")
        rules = build_rules(players, rules_opt, settings)
        from .bots import parse_bot, per_seat

        specs = _seating(bots, seats, rules)  # per side or per seat
        seated = [b.spec for b in per_seat([parse_bot(x) for x in specs], rules.players)]
        start = _api(lambda: _check_scores(scores, rules), "--scores")
        run = RunDeal(rules, seed, deal, deal % rules.players, tuple(seated), start)
    trace = _api(lambda: replay_deal(run, hands=show_hands), "--seats" if seats else "--bots")
    if as_json:
        for event in trace:
            click.echo(json.dumps(event))
    else:
        click.echo(format_trace(trace))
    if check:
        from .referee import check_trace

        verdict = check_trace([e for e in trace if e["event"] != "hands"])
        click.echo(f"referee: {verdict}", err=as_json)  # keep --json output pure JSON lines
        if not verdict.ok:
            sys.exit(1)


def _check_scores(scores, rules):
    from .runner import check_scores

    return check_scores(scores, rules)


@main.command()
@click.option(
    "--processes",
    type=click.IntRange(min=1),
    default=None,
    help="Processes compiling independent kernels side by side (default: 2, or 1 on one "
    "core; more gain nothing).",
)
def warmup(processes):
    """Compile every kernel (into numba's cache) and report the seconds it took."""
    from .warmup import warm_up

    start = time.perf_counter()
    warm_up(processes)
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


def _new_out(out: Path | None, overwrite: bool):
    """Check ``--out`` before the run starts (a usage error, not a failure hours later);
    returns the :class:`~canasta_sim.outdir.Target` or ``None``."""
    from .outdir import prepare_out

    if out is None:
        return None
    try:
        return prepare_out(out, overwrite)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--out") from None


def _write_frames(target, files: dict) -> None:
    """Write a new results folder (a :class:`~canasta_sim.outdir.Target`) atomically
    (staging folder, then rename): ``.csv`` and ``.parquet`` files from DataFrames, ``.json``
    files from dicts, any other file by calling its item with the path. An error names the
    file that could not be written."""
    from .outdir import commit_out, json_text, staging_folder, write_text, writing

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


def _emit(fmt: str, text, main_table, document) -> None:
    """Print a command's result in ``--format`` ``fmt``: ``text()`` (aligned tables for
    people), the frame ``main_table()`` as CSV, or the JSON text ``document()``. Callables,
    so only the output asked for is built."""
    from .tables import csv_text

    if fmt == "table":
        click.echo(text())
    elif fmt == "csv":
        click.echo(csv_text(main_table()), nl=False)
    else:
        click.echo(document())


def _note(fmt: str, line: str) -> None:
    """A line about the run (what ran, where results went): on stdout beside a table, on
    stderr beside CSV or JSON so that stdout stays one parseable document."""
    click.echo(line, err=fmt != "table")


def _no_records_option(f):
    return click.option(
        "--no-records",
        is_flag=True,
        help="With --out: write the tables and the manifest only, not the per-deal rows.",
    )(f)


@main.command()
@click.option("--games", type=COUNT, required=True, help="Games to play.")
@rules_options
@click.option("--bots", default=None, metavar="SPEC[,SPEC...]", help="As for simulate.")
@SEATS
@SCORES
@_common_run_options
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder for games.csv, deals.parquet and sides.parquet (written chunk by chunk).",
)
@_no_records_option
@click.option("--overwrite", is_flag=True, help="Replace an existing --out folder.")
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
    seed,
    workers,
    quiet,
    out,
    no_records,
    overwrite,
    scheduler,
    fmt,
):
    """Play GAMES full games to the target score (R-55) and print win rates."""
    from .games import MAX_DEALS, play_games
    from .stats import format_game_sides, game_sides
    from .tables import json_document

    rules = build_rules(players, rules_opt, settings)
    specs = _seating(bots, seats, rules)
    _check_workers(workers, scheduler)
    _new_out(out, overwrite)
    result = _api(
        lambda: play_games(
            games,
            rules=rules,
            bots=None if seats else specs,
            seats=specs if seats else None,
            scores=scores,
            seed=seed,
            workers=workers,
            progress=not quiet,
            scheduler=scheduler,
            records=out is not None and not no_records,
            out=out,
            overwrite=overwrite,
        )
    )
    t = result.totals
    wall = result.manifest["wall_seconds"]
    _note(
        fmt,
        f"{games:,} games, {rules.players} players, target {rules.game_target}, seed "
        f"{seed}: {wall:.1f} s; mean {t.deals / t.games:.2f} deals per game",
    )
    sides = game_sides(t, result.manifest["bots"][0])
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
                "seed": seed,
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
    if out is not None:
        _note(fmt, f"results written to {out}")


@main.command()
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
@_common_run_options
@click.option(
    "--chunk-size",
    type=CHUNK,
    default=None,
    help="Deals (games) per chunk, rounded up to whole boards; results do not depend on it.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder for the table (CSV) and the raw rows (Parquet, written chunk by chunk).",
)
@_no_records_option
@click.option("--overwrite", is_flag=True, help="Replace an existing --out folder.")
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
    seed,
    workers,
    quiet,
    chunk_size,
    out,
    no_records,
    overwrite,
    scheduler,
    fmt,
):
    """Compare BOT_A with BOT_B (or the two teams of --seats): bots rotate over the sides
    on shared deals. Under the table, one line says how to read it: points decide games,
    so the points per deal say which bot is stronger; the deal win rate ignores margins."""
    from .compare import compare as run
    from .compare import (
        comparison_reading,
        comparison_settings,
        format_comparison,
        rotation_table,
        table_notes,
    )
    from .tables import json_document

    if (deals is None) == (games is None):
        raise click.UsageError("give exactly one of --deals N and --games N")
    if (seats is None) == (bot_a is None or bot_b is None) or (seats and bot_a is not None):
        raise click.UsageError("give two bots BOT_A BOT_B, or --seats (one bot per seat)")
    rules = build_rules(players, rules_opt, settings)
    _api(lambda: rotation_table(bot_a, bot_b, rules, seats), "--seats" if seats else None)
    _api(lambda: rotation_table(bot_a, bot_b, rules, seats, scores), "--scores")
    _check_workers(workers, scheduler)
    _new_out(out, overwrite)
    table, _ = _api(
        lambda: run(
            bot_a,
            bot_b,
            seats=seats,
            scores=scores,
            deals=deals,
            games=games,
            rules=rules,
            seed=seed,
            workers=workers,
            chunk_size=chunk_size,
            progress=not quiet,
            records=out is not None and not no_records,
            out=out,
            overwrite=overwrite,
            scheduler=scheduler,
        )
    )  # the bots are checked above
    unit = "games" if games else "deals"
    reading = comparison_reading(table, unit)
    _note(fmt, f"{games or deals:,} {unit}, {rules.players} players, seed {seed}")
    _emit(
        fmt,
        lambda: "\n".join([format_comparison(table, unit), reading, *table_notes(table)]),
        lambda: table,
        lambda: json_document(
            "compare", {**comparison_settings(table), "reading": reading}, table=table
        ),
    )
    if out is not None:
        _note(fmt, f"results written to {out}")


@main.command()
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
@_common_run_options
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder for sweep.csv, sweep.parquet, sweep.png and manifest.json. Without it the "
    "sweep is printed and nothing is written.",
)
@click.option("--overwrite", is_flag=True, help="Replace an existing --out folder.")
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
    seed,
    workers,
    quiet,
    out,
    overwrite,
    scheduler,
    fmt,
):
    """Sweep one parameter of BOT against the --vs bot: one comparison per value."""
    from .bots import parse_bot
    from .compare import (
        format_sweep,
        parse_range,
        plot_sweep,
        sweep_settings,
        sweep_specs,
        sweep_title,
    )
    from .compare import sweep as run
    from .tables import json_document

    name, eq, spec = param.partition("=")
    name, spec = name.strip(), spec.strip()
    if not eq:
        raise click.BadParameter(f"{param!r} is not NAME=START:STOP:STEP", param_hint="--param")
    try:
        values = parse_range(spec)
        sweep_specs(bot, name, values)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--param") from None
    rules = build_rules(players, rules_opt, settings)
    opponent = _api(lambda: parse_bot(vs).spec, "--vs")  # one bot, not a list per side
    _check_workers(workers, scheduler)
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
            scheduler=scheduler,
        ),
        "--deals",
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
    _api(
        lambda: _write_frames(
            target,
            {
                "sweep.csv": frame,
                "sweep.parquet": frame,
                "sweep.png": lambda p: plot_sweep(frame, p),
                "manifest.json": frame.attrs["manifest"],
            },
        ),
        "--out",
    )
    _note(fmt, f"results written to {out}")


@main.command()
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
@click.option(
    "--trials",
    type=click.IntRange(1, 100_000),
    default=60,
    show_default=True,
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
    type=COUNT,
    default=10_000,
    show_default=True,
    help="Deals per field bot per trial (objective diff).",
)
@click.option(
    "--games",
    type=COUNT,
    default=400,
    show_default=True,
    help="Games per field bot per trial (objective wins).",
)
@click.option(
    "--final-deals",
    type=COUNT,
    default=50_000,
    show_default=True,
    help="Deals per field bot for the best setting, on fresh seeds.",
)
@click.option(
    "--final-games",
    type=COUNT,
    default=2_000,
    show_default=True,
    help="Games per field bot for the best setting, on fresh seeds.",
)
@rules_options
@_common_run_options
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder for history.csv, final.csv and manifest.json. Without it the result is "
    "printed and nothing is written.",
)
@click.option("--overwrite", is_flag=True, help="Replace an existing --out folder.")
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
    seed,
    workers,
    quiet,
    out,
    overwrite,
    fmt,
):
    """Tune BOT's parameters jointly against a field of bots (docs/tune.md): a seeded TPE
    search on seat-rotated duplicate deals, then the best setting on fresh seeds."""
    from .bots import parse_bot
    from .tables import json_document
    from .tune import DEFAULT_FIELD, format_final, format_history, parse_ranges, search_space
    from .tune import tune as run

    try:
        bounds = parse_ranges(ranges)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--range") from None
    _api(lambda: search_space(bot, list(params) or None, bounds))
    field = list(field) or list(DEFAULT_FIELD)
    for spec in field:
        _api(lambda spec=spec: parse_bot(spec), "--vs")  # one bot per --vs
    rules = build_rules(players, rules_opt, settings)
    _check_workers(workers)
    target = _new_out(out, overwrite)
    result = _api(
        lambda: run(
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
            seed=seed,
            workers=workers,
            progress=not quiet,
        )
    )  # bot, params, ranges and field are checked above
    info = result.manifest["tune"]
    _note(
        fmt,
        f"{trials} trials, objective {objective} ({info['objective_doc']}), field "
        f"{', '.join(result.manifest['bots']['field'])}, {rules.players} players, seed {seed}: "
        f"{result.manifest['wall_seconds']:.1f} s",
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
    _note(fmt, f"results written to {out}")


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
@click.option("--quiet", is_flag=True, help="No progress.")
def verify(deals, players, rules_opt, settings, bots, seed, workers, scheduler, show, quiet):
    """Referee DEALS deals with the independent rules checker; exit code 1 if any fails."""
    from .runner import Progress
    from .verify import verify as run

    if scheduler is not None and workers != 1:
        raise click.UsageError("--workers and --scheduler exclude each other")
    rules = build_rules(players, rules_opt, settings)
    specs = [b.spec for b in _bots(bots, rules)]
    start = time.perf_counter()
    with Progress(deals, "deal", not quiet) as bar:
        done = 0

        def tick(n):
            nonlocal done
            done += n
            bar.update(done)

        failures = _api(
            lambda: run(
                rules, specs, seed, deals, workers=workers, scheduler=scheduler, progress=tick
            ),
            "--scheduler",  # a Dask scheduler that cannot be reached
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


# --- analyse: one decision, its candidates rolled out (docs/analysis.md) ---------------------
@main.command("analyse")
@click.argument("position", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--from-run",
    "address",
    default=None,
    metavar="RUN_FOLDER:DEAL[:TURN[:DECISION]]",
    help="Analyse a decision of a run's deal instead (decision 0: draw or take the pile; "
    "1: the melds, then the discard or going out).",
)
@click.option(
    "--worlds",
    type=click.IntRange(1, 10_000_000),
    default=None,
    help="Play exactly this many worlds per candidate (no race).",
)
@click.option(
    "--min-worlds",
    type=click.IntRange(1, 10_000_000),
    default=1000,
    show_default=True,
    help="Worlds before a candidate may be dropped.",
)
@click.option(
    "--max-worlds",
    type=click.IntRange(1, 10_000_000),
    default=200_000,
    show_default=True,
    help="Most worlds per candidate.",
)
@click.option(
    "--target-se",
    type=click.FloatRange(min=0, min_open=True),
    default=5.0,
    show_default=True,
    help="Stop when every paired standard error is below this (points).",
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Master seed of the worlds.")
@click.option(
    "--rollout",
    default="expert",
    show_default=True,
    metavar="SPEC[,SPEC...]",
    help="Bot that plays the rest of the deal (one for every side or one per side): random, "
    "greedy, careful or an expert spec; not pimc or a bot written in Python.",
)
@click.option(
    "--candidate",
    "chosen",
    multiple=True,
    metavar="LABEL",
    help="Analyse only this candidate, e.g. 'discard K' (repeatable; default: all legal).",
)
@click.option(
    "--top",
    type=click.IntRange(1, 10_000),
    default=None,
    help="Analyse only the K candidates the rollout bot ranks first (its own choice first).",
)
@click.option(
    "--max-candidates",
    type=click.IntRange(1, 10_000),
    default=64,
    show_default=True,
    help="The candidate layer's cap: the most play-phase candidates listed, meld plans taken "
    "whole in their order (docs/analysis.md); the settings line says how many plans it left out.",
)
@click.option(
    "--objective",
    type=click.Choice(["score_diff", "own_score", "win_deal"]),
    default="score_diff",
    show_default=True,
    help="What the race ranks.",
)
@click.option(
    "--win-game",
    type=click.Choice(["auto", "table", "play-out"]),
    default="auto",
    show_default=True,
    help="P(win game) from the game-equity table, or by playing each world's game out with "
    "the rollout bots (slower); auto: the table where it covers the rules (2, 4, 6 players, "
    "classic), else the play-out.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="New folder for analysis.json and per_world.parquet.",
)
@FORMAT
def analyse_command(
    position,
    address,
    worlds,
    min_worlds,
    max_worlds,
    target_se,
    seed,
    rollout,
    chosen,
    top,
    max_candidates,
    objective,
    win_game,
    out,
    fmt,
):
    """Rank the candidates at the decision in POSITION (a TOML or JSON position file,
    docs/analysis.md), or at a decision of a run (--from-run), by rolling each out in the
    same sampled worlds."""
    from .address import info_set_from_run
    from .analysis import analyse, rollout_bots
    from .candidates import candidates, find_candidate
    from .infoset import InfoSet
    from .outdir import prepare_out
    from .tables import json_document

    if position is None and address is None:
        raise click.UsageError("give POSITION (a position file) or --from-run RUN:DEAL[:TURN]")
    if position is not None and address is not None:
        raise click.UsageError("give either POSITION (a position file) or --from-run, not both")
    if not math.isfinite(target_se):
        raise click.BadParameter(f"{target_se} is not a number of points", param_hint="--target-se")
    if address is not None:
        info = _api(lambda: info_set_from_run(address), "--from-run")
        _note(fmt, f"position: {address}, seat {info.seat} to play ({info.phase} phase)")
    elif not position.is_file():
        raise click.BadParameter(f"{str(position)!r} is not a file", param_hint="POSITION")
    else:
        info = _api(lambda: InfoSet.from_file(position), "POSITION")
    _api(lambda: rollout_bots(rollout, info.rules.sides), "--rollout")
    found = _api(lambda: candidates(info, max_candidates), "POSITION")
    picked = [_api(lambda c=c: find_candidate(found, c), "--candidate") for c in chosen]
    if worlds is None and max_worlds < min_worlds:
        raise click.BadParameter(
            f"--max-worlds {max_worlds} is below --min-worlds {min_worlds}",
            param_hint="--max-worlds",
        )
    if out is not None:
        if out.exists():
            raise click.BadParameter(
                f"{str(out)!r} exists; analyse writes a new folder only: name another",
                param_hint="--out",
            )
        _api(lambda: prepare_out(out, overwrite=False), "--out")
    result = analyse(
        info,
        picked or None,
        worlds=worlds,
        min_worlds=min_worlds,
        max_worlds=max_worlds,
        target_se=target_se,
        rollout=rollout,
        seed=seed,
        objective=objective,
        top=top,
        win_game=win_game,
        max_candidates=max_candidates,
    )
    _emit(
        fmt,
        lambda: str(result),
        lambda: result.table,
        lambda: json_document(
            "analyse", {"line": result.settings, **result.meta}, candidates=result.table
        ),
    )
    if out is not None:
        result.write(out)
        _note(fmt, f"wrote {out}")


@main.command()
@click.option(
    "--axis",
    "axes",
    multiple=True,
    required=True,
    metavar="NAME=V1|V2|...",
    help="A grid axis (repeatable; the axes are crossed): players=2|3|4|6, "
    "preset=classic|hoyle, switch:SWITCH=V1|V2 (any rules switch; commas stay inside a "
    "value, e.g. card_values), bots=SPEC|SPEC;SPEC (';' separates one spec per side).",
)
@click.option("--deals", type=COUNT, required=True, help="Deals per cell.")
@click.option(
    "--baseline",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Number of the cell the others are compared with (grid order, first axis slowest).",
)
@_common_run_options
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Study folder: manifest.json, cells/ (one run folder per cell), study.csv and "
    "study.png. Without it the study is printed and nothing is written.",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Continue an interrupted study in --out: play only the missing cells.",
)
@click.option("--overwrite", is_flag=True, help="Replace an existing --out folder.")
def study(axes, deals, baseline, seed, workers, quiet, out, resume, overwrite):
    """Run a grid of variants (one run per cell, the same seed) and compare the cells."""
    from .grid import format_study, grid_cells, parse_axis, run_study

    parsed = []
    for text in axes:
        try:
            parsed.append(parse_axis(text))
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--axis") from None
    try:
        cells = grid_cells(parsed)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--axis") from None
    if baseline >= len(cells):
        raise click.BadParameter(
            f"{baseline} is not a cell; allowed: 0 to {len(cells) - 1}", param_hint="--baseline"
        )
    if resume and overwrite:
        raise click.UsageError("--resume and --overwrite exclude each other; give one")
    if resume and out is None:
        raise click.UsageError("--resume needs --out, the folder of the study to continue")
    _check_workers(workers)
    if not resume:
        _new_out(out, overwrite)

    def done(cell, played):
        how = "played" if played else "read from its folder"
        click.echo(f"cell {cell.index + 1}/{len(cells)} {cell.name}: {how}", err=True)

    table = _api(
        lambda: run_study(
            parsed,
            deals=deals,
            out=out,
            seed=seed,
            baseline=baseline,
            resume=resume,
            overwrite=overwrite,
            workers=workers,
            progress=not quiet,
            on_cell=done,
        ),
        "--out" if resume else "--axis",
    )
    click.echo(f"study of {len(cells)} cells, {deals:,} deals per cell, seed {seed}")
    click.echo(format_study(table))
    if out is not None:
        click.echo(f"results written to {out}")


# --- review: where a bot loses points (docs/pimc.md, "Review") --------------------------------
@main.command("review")
@click.argument("run_folder", required=False, type=click.Path(path_type=Path))
@click.option(
    "--deals",
    type=COUNT,
    default=None,
    help="Deals to play and review [default: 1], or the first deals of RUN_FOLDER [default: all].",
)
@rules_options
@click.option(
    "--bots",
    default=None,
    metavar="SPEC[,SPEC...]",
    help="One bot spec for every side, or one per side [default: expert].",
)
@click.option("--seed", type=SEED, default=None, help="Master seed of the deals [default: 0].")
@click.option(
    "--seat", type=click.IntRange(min=0), default=0, show_default=True, help="Seat reviewed."
)
@click.option(
    "--worlds",
    type=click.IntRange(1, 10_000_000),
    default=200,
    show_default=True,
    help="Worlds per candidate at each decision.",
)
@click.option(
    "--rescore-worlds",
    type=click.IntRange(1, 10_000_000),
    default=None,
    help="Fresh worlds re-scoring the best candidate against the bot's choice [default: --worlds].",
)
@click.option(
    "--rollout",
    default=None,
    metavar="SPEC[,SPEC...]",
    help="Bots of the rollouts [default: the deal's own bots; for pimc, its own rollout bot].",
)
@click.option(
    "--analysis-seed",
    type=click.IntRange(0, 2**32 - 1),
    default=0,
    show_default=True,
    help="Master seed of the analysis worlds.",
)
@click.option(
    "--top",
    type=click.IntRange(min=0),
    default=10,
    show_default=True,
    help="Decisions with the largest regret to list.",
)
@click.option(
    "--top-candidates",
    type=click.IntRange(1, 10_000),
    default=None,
    help="Analyse at most K candidates per decision, the reviewed bot's first-ranked (its own "
    "choice always) [default: all].",
)
@click.option(
    "--max-candidates",
    type=click.IntRange(1, 10_000),
    default=64,
    show_default=True,
    help="The candidate layer's cap per decision (docs/analysis.md); the output says where it "
    "left meld plans out.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="New folder for decisions.parquet (one row per decision), summary.csv, review.json.",
)
@click.option("--overwrite", is_flag=True, help="Replace an existing --out folder.")
@click.option("--quiet", is_flag=True, help="No progress.")
@FORMAT
def review_command(
    run_folder,
    deals,
    players,
    rules_opt,
    settings,
    bots,
    seed,
    seat,
    worlds,
    rescore_worlds,
    rollout,
    analysis_seed,
    top,
    top_candidates,
    max_candidates,
    out,
    overwrite,
    quiet,
    fmt,
):
    """Analyse every decision of one seat in DEALS deals played by the bots (or in the deals
    of RUN_FOLDER) and print the regret: the best candidate's mean score difference minus
    the bot's choice's, re-scored on fresh worlds, per deal by decision type."""
    from .analysis import rollout_bots
    from .review import cap_note, format_summary, format_top, own_rollout, review, run_rules
    from .tables import json_document

    if run_folder is not None:
        given = [
            name
            for name, value in (
                ("--players", players),
                ("--set", settings or None),
                ("--bots", bots),
                ("--seed", seed),
                ("--rules", None if rules_opt == "classic" else rules_opt),
            )
            if value is not None
        ]
        if given:
            raise click.UsageError(
                f"{', '.join(given)}: RUN_FOLDER gives the deals, rules and bots; drop them"
            )
        if not run_folder.is_dir():
            raise click.BadParameter(
                f"{str(run_folder)!r} is not a folder", param_hint="RUN_FOLDER"
            )
        rules, total = _api(lambda: run_rules(run_folder), "RUN_FOLDER")
        if deals is not None and deals > total:
            raise click.BadParameter(
                f"{deals} deals; RUN_FOLDER holds {total:,}: allowed 1 to {total:,}",
                param_hint="--deals",
            )
    else:
        rules = build_rules(players, rules_opt, settings)
        specs = [b.spec for b in _bots(bots, rules)]
        if rollout is None:  # the rollouts play the deal's own bots
            _api(lambda: own_rollout(specs, rules.sides), "--bots")
    if seat >= rules.players:
        raise click.BadParameter(
            f"{seat} is not a seat; allowed: 0 to {rules.players - 1}", param_hint="--seat"
        )
    if rollout is not None:
        _api(lambda: rollout_bots(rollout, rules.sides), "--rollout")
    target = _new_out(out, overwrite)
    bar = None

    def tick(done, total):
        nonlocal bar
        if bar is None:  # the input is checked: the bar starts
            from tqdm import tqdm

            bar = tqdm(total=total, unit="deal", file=sys.stderr)
        else:
            bar.update()

    result = _api(
        lambda: review(
            None if run_folder is not None else rules,
            deals=deals,
            bots=bots or "expert",
            seed=seed or 0,
            run=run_folder,
            seat=seat,
            worlds=worlds,
            rescore_worlds=rescore_worlds,
            rollout=rollout,
            analysis_seed=analysis_seed,
            top_candidates=top_candidates,
            max_candidates=max_candidates,
            progress=None if quiet else tick,
        ),
        "RUN_FOLDER" if run_folder is not None else None,
    )
    if bar is not None:
        bar.close()
    s = result.settings
    _note(
        fmt,
        f"review of seat {seat}: {s['deals']:,} deals, bots {', '.join(s['bots'])}, "
        f"{worlds} worlds per candidate, re-scored on {s['rescore_worlds']} fresh worlds; "
        f"regret in points per deal (score difference)",
    )
    worst = result.top(top)
    text = format_summary(result.summary)
    if top:
        text += f"\n\nlargest re-scored regret ({len(worst)} decisions):\n{format_top(worst)}"
    _emit(
        fmt,
        lambda: text,
        lambda: result.summary,
        lambda: json_document("review", s, summary=result.summary, top=worst),
    )
    note = cap_note(result.decisions, max_candidates)
    if note:
        _note(fmt, note.lstrip("\n"))
    if target is not None:
        _write_frames(
            target,
            {
                "decisions.parquet": result.decisions,
                "summary.csv": result.summary,
                "review.json": result.settings,
            },
        )
        _note(fmt, f"wrote {out}")
