"""The ``canasta-sim`` command line (click). Thin: parse, call the API, print, write files.

Bad input is a usage error (exit code 2) naming the value and what is allowed.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import click

from . import __version__
from .rules import PRESETS, Rules


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
    switches = {}
    for item in settings:
        key, eq, value = item.partition("=")
        if not eq:
            raise click.BadParameter(f"{item!r} is not SWITCH=VALUE", param_hint="--set")
        try:
            switches[key.strip()] = _parse_switch_value(value)
        except ValueError:
            raise click.BadParameter(f"{item!r}: the value must be true/false, an integer or "
                                     f"a comma list of integers", param_hint="--set") from None
    if players is not None:
        switches["players"] = int(players)
    try:
        if rules_opt in PRESETS:
            return Rules.preset(rules_opt, **switches)
        return Rules.from_dict({**_rules_file(rules_opt), **switches})
    except (ValueError, TypeError) as exc:
        raise click.BadParameter(str(exc), param_hint="--rules/--set/--players") from None


def _rules_file(text: str) -> dict:
    path = Path(text)
    if not path.is_file():
        raise click.BadParameter(f"{text!r} is neither a preset ({', '.join(PRESETS)}) nor a "
                                 f"JSON file", param_hint="--rules")
    try:
        data = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise click.BadParameter(f"{text!r} is not valid JSON ({exc})",
                                 param_hint="--rules") from None
    if not isinstance(data, dict):
        raise click.BadParameter(f"{text!r} must hold a JSON object of switches",
                                 param_hint="--rules")
    return data


def _bots(text: str | None, rules: Rules):
    from .bots import side_bots

    try:
        return side_bots(text, rules.sides)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--bots") from None


def rules_options(f):
    """Options shared by every command that plays deals."""
    f = click.option("--set", "settings", multiple=True, metavar="SWITCH=VALUE",
                     help="Change one rules switch (repeatable), e.g. --set "
                          "wilds_at_most_naturals=false.")(f)
    f = click.option("--rules", "rules_opt", default="classic", show_default=True,
                     metavar="classic|hoyle|FILE.json", help="Rules preset or JSON file.")(f)
    f = click.option("--players", type=click.Choice(["2", "3", "4", "6"]), default=None,
                     help="Players at the table [default: 4, or the rules file's].")(f)
    return f


SEED = click.IntRange(0, 2**64 - 1)


# --- commands -------------------------------------------------------------------------------
@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="canasta-sim")
def main():
    """Rule-exact Canasta simulation: millions of bot-vs-bot deals, statistics, reports."""


@main.command()
@click.option("--deals", type=click.IntRange(min=1), required=True, help="Deals to play.")
@rules_options
@click.option("--bots", default=None, metavar="SPEC[,SPEC...]",
              help="One bot spec for every side, or one per side (side 0 first).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Master seed.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Threads (default: all cores); results do not depend on it.")
@click.option("--chunk-size", type=click.IntRange(min=1), default=None,
              help="Deals per kernel call (default 50000); results do not depend on it.")
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="Results folder to write (Parquet, manifest.json, summary.json).")
@click.option("--no-records", is_flag=True, help="Keep aggregates only (constant memory).")
@click.option("--overwrite", is_flag=True, help="Replace an existing --out folder.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def simulate(deals, players, rules_opt, settings, bots, seed, workers, chunk_size, out,
             no_records, overwrite, quiet):
    """Play DEALS independent deals and print their statistics."""
    import numba

    from .simulate import prepare_out, simulate as run
    from .stats import format_summary

    rules = build_rules(players, rules_opt, settings)
    side_bots = _bots(bots, rules)
    if workers is not None and workers > numba.config.NUMBA_NUM_THREADS:
        raise click.BadParameter(f"{workers} is more than the {numba.config.NUMBA_NUM_THREADS} "
                                 f"cores of this machine", param_hint="--workers")
    if out is not None:
        try:
            prepare_out(out, overwrite)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--out") from None
    result = run(deals, rules=rules, bots=[b.spec for b in side_bots], seed=seed,
                 workers=workers, chunk_size=chunk_size, out=out, records=not no_records,
                 progress=not quiet, overwrite=overwrite)
    m = result.manifest
    click.echo(f"{deals:,} deals, {rules.players} players, bots {', '.join(m['bots'][0])}, seed "
               f"{seed}: {m['wall_seconds']:.1f} s ({m['deals_per_second']:,.0f} deals/s)")
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
@click.option("--deal", "deal_index", type=click.IntRange(min=0), default=0, show_default=True,
              help="Deal index within the run.")
@rules_options
@click.option("--bots", default=None, metavar="SPEC[,SPEC...]", help="As for simulate.")
@click.option("--json", "as_json", is_flag=True, help="Print the trace as JSON lines.")
def replay(seed, deal_index, players, rules_opt, settings, bots, as_json):
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


@main.command()
def warmup():
    """Compile every kernel (into numba's cache) and report the seconds it took."""
    from .warmup import warm_up

    start = time.perf_counter()
    warm_up()
    click.echo(f"kernels ready in {time.perf_counter() - start:.1f} s")

