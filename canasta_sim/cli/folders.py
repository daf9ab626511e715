"""Commands that read a results folder: ``report``, ``replay``."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import click

from ..nb.engine.rng import DEAL_LIMIT
from .options import (
    BOTS,
    SCORES,
    SEATS,
    SEED,
    FileName,
    Folder,
    Integer,
    _check_scores,
    _seating,
    api_errors,
    build_rules,
    integer_option,
    rules_options,
    trace_option,
)


@click.command()
@click.argument("run_dir", type=Folder())
def report(run_dir):
    """Write RUN_DIR/report.md with plots, from a run folder of simulate or of study."""
    from ..results.report import write_report
    from ..results.run_folder import VersionMismatch, check_run_versions, read_manifest

    _check_writable(run_dir)
    with api_errors("RUN_DIR"):
        path = write_report(run_dir)
    try:
        check_run_versions(read_manifest(run_dir), run_dir)
    except VersionMismatch as exc:
        click.echo(f"warning: {exc}", err=True)  # a report of an older run is still a report
    click.echo(f"report written to {path}")


def _check_writable(run_dir: Path) -> None:
    """A usage error naming ``run_dir`` when it is a folder that cannot be written: ``report``
    writes its plots and ``report.md`` into it, and finding that out before the plots are
    drawn saves the drawing (a missing folder is for the report to name)."""
    if not run_dir.is_dir():
        return
    try:
        tempfile.TemporaryFile(dir=run_dir).close()
    except OSError as exc:
        raise click.BadParameter(
            f"{str(run_dir)!r} is not writable ({exc.strerror or exc}): report writes "
            f"report.md and its plots into the run folder; copy the folder somewhere writable "
            f"and report the copy",
            param_hint=["RUN_DIR"],
        ) from None


@click.command()
@click.argument("run_folder", required=False, type=Folder())
@click.option("--seed", type=SEED, default=0, show_default=True, help="Master seed of the run.")
@integer_option(
    "--deal",
    Integer(0, DEAL_LIMIT - 1),
    0,
    help="Deal index within the run (within the game with --game).",
)
@integer_option(
    "--game",
    Integer(0, 2**63 - 1),
    None,
    shown=False,
    help="With a games folder (games, compare --games): the game whose deal to replay.",
)
@click.option(
    "--value",
    type=float,
    default=None,
    help="With a sweep folder: the swept value whose comparison to replay.",
)
@rules_options
@BOTS
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
@trace_option("trace_file", "Replay", "a deal of a run")
@click.option(
    "--html",
    "html_file",
    type=FileName(),
    default=None,
    help="Write the deal as one self-contained HTML page (the board's replay, no server) "
    "instead of printing its moves.",
)
@click.option("--overwrite", is_flag=True, help="Replace an existing --html file.")
@click.pass_context
def replay(
    ctx,
    trace_file,
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
    html_file,
    overwrite,
):
    """Replay deal DEAL move by move in card notation: of the run in RUN_FOLDER (its
    manifest gives rules, bots, seed and scores), or of a run with seed SEED and the given
    rules and bots; or the trace file of --trace. With --html, writes the page instead and
    prints only where."""
    from ..run.address import RunDeal, deal_of_run, replay_deal

    if trace_file is not None:
        trace = _trace_of_file(ctx, trace_file, run_folder)
    elif run_folder is not None:
        given = [
            f"'--{name.replace('_opt', '').replace('_', '-')}'"
            for name in ("seed", "players", "rules_opt", "settings", "bots", "seats", "scores")
            if ctx.get_parameter_source(name) != click.core.ParameterSource.DEFAULT
        ]
        if given:
            raise click.UsageError(
                f"{', '.join(given)}: with RUN_FOLDER the rules, bots, seed and scores come "
                f"from its manifest (other bots would replay a deal the run never played); "
                f"give RUN_FOLDER or these options, not both"
            )
        with api_errors("RUN_FOLDER"):
            run = deal_of_run(run_folder, deal, game=game, value=value)
    else:
        if game is not None or value is not None:
            raise click.UsageError("'--game' and '--value' need RUN_FOLDER")
        rules = build_rules(players, rules_opt, settings)
        from ..players.specs import parse_bot, per_seat

        specs = _seating(bots, seats, rules)  # per side or per seat
        seated = [b.spec for b in per_seat([parse_bot(x) for x in specs], rules.players)]
        with api_errors("--scores"):
            start = _check_scores(scores, rules)
        run = RunDeal.of_seed(rules, seed, deal, seated, start)
    if trace_file is None:
        with api_errors("--seats" if seats else "--bots"):
            trace = replay_deal(run, hands=show_hands)
    if html_file is not None:
        if trace_file is not None:
            raise click.UsageError("'--html' writes a deal replayed here; it takes no '--trace'")
        if html_file.exists() and not overwrite:
            raise click.UsageError(
                f"'--html {html_file}': the file exists; give '--overwrite' to replace it"
            )
        _write_html(run, run_folder, deal, game, value, html_file)
    elif as_json:
        for event in trace:
            click.echo(json.dumps(event))
    else:
        click.echo(_listing(trace, trace_file))
    if check:
        from ..referee import check_trace

        verdict = check_trace([e for e in trace if e["event"] != "hands"])
        click.echo(f"referee: {verdict}", err=as_json)  # keep --json output pure JSON lines
        if not verdict.ok:
            sys.exit(1)


def _trace_of_file(ctx, trace_file, run_folder) -> list[dict]:
    """The trace in ``--trace``'s file; a usage error for a file that holds no trace, or for
    a deal named besides it (the file is replayed as it is)."""
    from ..game.trace import load_trace

    given = [
        f"'--{name.replace('_opt', '').replace('_', '-')}'"
        for name in ("seed", "deal", "game", "value", "players", "rules_opt", "settings")
        + ("bots", "seats", "scores")
        if ctx.get_parameter_source(name) != click.core.ParameterSource.DEFAULT
    ]
    if run_folder is not None or given:
        raise click.UsageError(
            f"{', '.join(given) or 'RUN_FOLDER'}: '--trace' replays the file as it is; "
            f"give '--trace' or a deal to replay, not both"
        )
    try:
        trace = load_trace(trace_file)
    except ValueError as exc:
        raise click.UsageError(f"'--trace {trace_file}': not a trace file ({exc})") from None
    if not trace or not all(isinstance(e, dict) and "event" in e for e in trace):
        raise click.UsageError(
            f"'--trace {trace_file}': not a trace file (allowed: JSON lines, each an object "
            f"with an 'event' field, as save_trace writes them; docs/trace.md)"
        )
    return trace


def _listing(trace: list[dict], trace_file) -> str:
    """The readable listing of ``trace``; a file given with ``--trace`` that it cannot read
    (a start event of rules the game does not allow, an event missing a field) is a usage
    error naming the file (the listing does not referee: ``verify --trace`` does)."""
    from ..game.trace import format_trace

    try:
        return format_trace(trace)
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        if trace_file is None:  # a deal replayed here: a fault of this package, not input
            raise
        what = f"an event lacks {exc.args[0]!r}" if isinstance(exc, KeyError) else exc
        raise click.UsageError(
            f"'--trace {trace_file}': not a trace file ({what}); "
            f"'canasta-sim verify --trace {trace_file}' referees it event by event"
        ) from None


def _write_html(run, run_folder, deal, game, value, path) -> None:
    """The static export of ``replay --html``: a deal of a deals folder is addressed like
    ``--from-run``; a game's deal, a sweep's or one given by seed names its replay command."""
    from ..board.export import write_deal_html
    from ..board.frames import replay_frames
    from ..board.pages import run_replay

    if run_folder is not None and game is None and value is None:
        replay = run_replay(run, run_folder, deal)
    else:
        where = f"{run_folder}" if run_folder is not None else f"--seed {run.seed}"
        more = "".join(
            f" --{k} {v}" for k, v in (("game", game), ("value", value)) if v is not None
        )
        replay = replay_frames(
            run,
            title=f"{where}, deal {deal}{more}",
            address=None,
            command=f"canasta-sim replay {where} --deal {deal}{more}",
        )
    try:
        write_deal_html(replay, path)
    except OSError as exc:
        raise click.BadParameter(f"{str(path)!r}: {exc.strerror}", param_hint=["--html"]) from None
    click.echo(f"wrote {path}")
