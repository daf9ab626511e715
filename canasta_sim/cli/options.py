"""What the commands share: the rules, bots and run options declared once, turning API errors
into usage errors naming the option, checking ``--out`` and writing results folders, and
printing a result in ``--format``."""

from __future__ import annotations

import contextlib
import functools
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from ..game.rules import BOOL_SWITCHES, PRESETS, Rules, preset_name, switch_from_text
from ..nb.engine.rng import SEED_SPAN
from ..players.specs import DEFAULT_BOT, side_bots, table_bots


# --- option parsing -------------------------------------------------------------------------
def build_rules(players: str | None, rules_opt: str, settings: tuple[str, ...]) -> Rules:
    """Rules from ``--players``, ``--rules classic|hoyle|FILE.json`` and ``--set K=V``; a bad
    switch is a usage error of the option that set it."""
    from ..errors import BadSwitch

    switches: dict[str, Any] = {}
    given: dict[str, str] = {}
    written: dict[str, str] = {}  # switch -> its value as --set wrote it
    for item in settings:
        key, eq, value = item.partition("=")
        if not eq:
            raise click.BadParameter(f"{item!r} is not SWITCH=VALUE", param_hint=["--set"])
        try:
            parsed = switch_from_text(key.strip(), value)
        except BadSwitch as exc:  # the value as the user wrote it, as below
            message = str(exc).replace(f"={value.strip()!r}", f"={value.strip()}")
            raise click.BadParameter(message, param_hint=["--set"]) from None
        _set_once(switches, given, key.strip(), parsed, f"--set {item.strip()}")
        written[key.strip()] = value.strip()
    if players is not None:
        _set_once(switches, given, "players", int(players), f"--players {players}")
    try:
        if preset_name(rules_opt) is not None:
            return Rules.preset(rules_opt, **switches)
        return Rules.from_dict({**_rules_file(rules_opt), **switches})
    except BadSwitch as exc:  # the switch at fault: the option that set it, else the rules
        option = given.get(exc.switch, "--rules").split()[0]
        message = str(exc)
        if exc.switch in written:  # the value as the user wrote it, not as Python prints it
            message = message.replace(
                f"{exc.switch}={switches[exc.switch]!r}", f"{exc.switch}={written[exc.switch]}"
            )
        elif option == "--rules" and exc.switch in BOOL_SWITCHES:
            message += " (a rules file gives JSON true or false, unquoted)"
        raise click.BadParameter(message, param_hint=[option]) from None
    except (ValueError, TypeError) as exc:
        raise click.BadParameter(str(exc), param_hint=["--rules"]) from None


def _set_once(switches: dict, given: dict, key: str, value, option: str) -> None:
    """Set ``switches[key]``; a switch given twice with different values (``--set players=6
    --players 2``) is a usage error rather than one of them winning silently. ``given`` maps
    each switch to the option text that set it, for the message."""
    if key in switches and switches[key] != value:
        raise click.UsageError(
            f"'{given[key]}' and '{option}' set {key} to different values; "
            f"allowed: one value (give {key} once, or the same value twice)"
        )
    switches[key] = value
    given[key] = option


def _rules_file(text: str) -> dict:
    path = Path(text)
    if not path.is_file():
        raise click.BadParameter(
            f"{text!r} is neither a preset ({', '.join(PRESETS)}, any case) nor a JSON file",
            param_hint=["--rules"],
        )
    try:
        data = json.loads(path.read_text(), object_pairs_hook=_JsonObject.of)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise click.BadParameter(
            f"{text!r} is not valid JSON ({exc})", param_hint=["--rules"]
        ) from None
    if not isinstance(data, _JsonObject):
        raise click.BadParameter(
            f"{text!r} must hold a JSON object of switches", param_hint=["--rules"]
        )
    if data.twice:
        key, first, second = data.twice
        raise click.BadParameter(
            f"{text!r} gives {key!r} twice ({json.dumps(first)} and {json.dumps(second)}); "
            "allowed: each switch once",
            param_hint=["--rules"],
        )
    return dict(data)


class _JsonObject(dict):
    """A JSON object as json keeps it (a key given twice: its last value), and the first key
    it gives twice with both values (``twice``, empty: none). Only the rules file's own
    object is held to each key once: its keys are switches, a nested object's are not (a
    switch named by none is reported as unknown)."""

    twice: tuple = ()

    @classmethod
    def of(cls, pairs: list[tuple[str, Any]]) -> _JsonObject:
        data = cls()
        for key, value in pairs:
            if key in data and not data.twice:
                data.twice = (key, data[key], value)
            data[key] = value
        return data


def _bots(text: str | None, rules: Rules, hint: str = "--bots"):
    try:
        return side_bots(text, rules.sides)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=[hint]) from None


def _seating(bots: str | None, seats: str | None, rules: Rules) -> list[str]:
    """The bot specs of ``--bots`` (per side) or ``--seats`` (per seat), checked."""
    if bots is not None and seats is not None:
        raise click.UsageError(
            "give '--bots' (one bot per side) or '--seats' (one per seat), not both"
        )
    hint = "--seats" if seats is not None else "--bots"
    try:
        seating = table_bots(bots, seats, rules)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=[hint]) from None
    _check_seat_files(seating, rules, hint)
    return [b.spec for b in seating]


def _check_seat_files(bots, rules: Rules, hint: str) -> None:
    """Refuse, before any deal is played, a seat the table refuses: a learned seat's weight
    file missing, damaged or fitted for another player count, or a search seat's prior on a
    head network; a usage error of ``hint``, the option or argument that gave the bots
    (one per side or one per seat, as :class:`~canasta_sim.players.specs.Bot`)."""
    from ..players.specs import seat_arrays, weight_sets

    with api_errors(hint):
        _, params = seat_arrays(list(bots), rules.players)
        weight_sets([list(bots)], rules.players, params[None])


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


@contextlib.contextmanager
def api_errors(hint: str | None = None):
    """API calls inside the block fail as usage errors of the command. A bad argument
    (:class:`~canasta_sim.errors.BadArgument`) is a usage error of the command's option or
    argument of that name; any other ValueError (bad input found while running) one of
    ``hint``, the one option or argument the calls read (or, with none, a usage error naming
    no option); a results folder written by another run meanwhile is one of ``--out``."""
    from ..errors import BadArgument

    try:
        yield
    except ValueError as exc:
        from ..run.outdir import OutConflict, OutExists  # (parquet: on this path only)

        if isinstance(exc, OutConflict):
            raise click.BadParameter(str(exc), param_hint=["--out"]) from None
        if isinstance(exc, OutExists):
            raise _out_exists(exc.out) from None
        if isinstance(exc, BadArgument):
            hint = _option_named(exc.argument) or hint
        if hint is None:
            raise click.UsageError(str(exc)) from None
        raise click.BadParameter(str(exc), param_hint=[hint]) from None


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
        help="Rules preset (any case) or JSON file; --players and --set override its switches.",
    )(f)
    f = click.option(
        "--players",
        type=click.Choice(["2", "3", "4", "6"]),
        default=None,
        help="Players at the table [default: 4, or the rules file's].",
    )(f)
    return f


class Integer(click.IntRange):
    """An integer option or argument in a closed range (``min`` or ``max`` may be ``None``)
    whose errors name the value given and the integers allowed, e.g. ``'abc' is not an
    integer; allowed: 1 to 1,000`` (click's own says "not a valid integer range")."""

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            try:
                number = int(str(value).strip())
            except ValueError:
                self.fail(f"{value!r} is not an integer; allowed: {self.allowed()}", param, ctx)
        too_low = self.min is not None and number < self.min
        if too_low or (self.max is not None and number > self.max):
            self.fail(f"{number} is not allowed; allowed: {self.allowed()}", param, ctx)
        return number

    def allowed(self) -> str:
        """The allowed integers in words: ``1 to 1,000``, ``1 or more`` or ``at most 9``."""
        if self.max is None:
            return f"{self.min:,} or more"
        if self.min is None:
            return f"at most {self.max:,}"
        return f"{self.min:,} to {self.max:,}"


class Number(click.FloatRange):
    """A finite number option or argument above ``min`` (at least it unless ``min_open``)
    whose errors name the value given and the numbers allowed in :class:`Integer`'s words,
    e.g. ``'abc' is not a number; allowed: a finite number above 0`` (click's own says "not
    a valid float range" and "not in the range x>0", and takes nan and inf)."""

    def convert(self, value, param, ctx):
        try:
            number = float(value if isinstance(value, float) else str(value).strip())
        except ValueError:
            self.fail(f"{value!r} is not a number; allowed: {self.allowed()}", param, ctx)
        low = self.min is not None and (number <= self.min if self.min_open else number < self.min)
        if low or not math.isfinite(number):
            self.fail(f"{number:g} is not allowed; allowed: {self.allowed()}", param, ctx)
        return number

    def allowed(self) -> str:
        """The allowed numbers in words: ``a finite number above 0`` or ``... of at least 0``."""
        return f"a finite number {'above' if self.min_open else 'of at least'} {self.min:g}"

    def _describe_range(self) -> str:
        """The range ``--help`` shows, in the words of the other number options' help
        (``above 0``, ``0 or more``) rather than click's ``x>0``."""
        return f"above {self.min:g}" if self.min_open else f"{self.min:g} or more"


def integer_option(name: str, type: Integer, default, help: str, shown: bool = True):
    """An integer option of range ``type``; its default is shown in ``--help`` when
    ``shown`` (a default of ``None`` means the help says what stands in for it)."""
    return click.option(name, type=type, default=default, show_default=shown, help=help)


SEED = Integer(0, SEED_SPAN - 1)


COUNT = Integer(1, 10**12)


CHUNK = Integer(1, 1_000_000)  # runner.MAX_CHUNK (not imported: keeps --help fast)


def _scheduler(ctx, param, value):
    if value is None:
        return None
    from ..run.cluster import import_distributed, parse_scheduler

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
    'existing scheduler (needs pip install -e ".[dask]" in the checkout).',
)


#: Every command's ``--format``, in any case: click gives the value as listed (lower case).
FORMAT = click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "csv", "json"], case_sensitive=False),
    default="table",
    show_default=True,
    help="table: aligned text with units and 95% intervals; csv: the main table; json: the "
    "settings and every table (fields in docs/cli.md). Notes go to stderr with csv and json.",
)


def _check_scores(scores, rules):
    from ..run.seating import check_scores

    return check_scores(scores, rules)


#: The run options every command that plays deals shares, declared once.
SEED_OPTION = click.option("--seed", type=SEED, default=0, show_default=True, help="Master seed.")
QUIET = click.option("--quiet", is_flag=True, help="No progress bar.")
OVERWRITE = click.option(
    "--overwrite",
    is_flag=True,
    help="Replace an existing --out folder (only a results folder of canasta-sim).",
)
WORKERS = click.option(
    "--workers",
    type=Integer(min=1),
    default=None,
    help="Threads, at most this machine's cores (default: all of them; with a remote "
    "--scheduler not checked here); results do not depend on it.",
)
BOTS = click.option(
    "--bots",
    default=None,
    metavar="SPEC[,SPEC...]",
    help=f"As for simulate [default: {DEFAULT_BOT}].",
)


class _Named(click.Path):
    """A path to write or read (a :class:`pathlib.Path`); an empty name is a usage error
    (click would read it as the current folder, and a message would name ``'.'``)."""

    #: What the path names, in the message of an empty one.
    noun = "path"

    def __init__(self, **kwargs):
        super().__init__(path_type=Path, **kwargs)

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip():
            noun = self.noun
            self.fail(f"{value!r} is an empty {noun} name; allowed: a {noun} path", param, ctx)
        return super().convert(value, param, ctx)


class Folder(_Named):
    """A folder to write or read; an empty name is a usage error (``'' is an empty folder
    name``)."""

    noun = "folder"


class FileName(_Named):
    """A file to write (no folder); an empty name is a usage error (``'' is an empty file
    name``)."""

    noun = "file"

    def __init__(self, **kwargs):
        super().__init__(dir_okay=False, **kwargs)


def out_option(help: str):
    """``--out FOLDER`` (no default: nothing written without it); ``help`` says what the
    command writes there."""
    return click.option("--out", type=Folder(), default=None, help=help)


@dataclass(frozen=True)
class RunOptions:
    """The run options a command that plays many deals shares (:func:`run_options`), as
    given: ``--seed``, ``--workers`` (threads, ``None``: all cores), ``--quiet``, ``--out``
    (``None``: nothing written) and ``--overwrite``."""

    seed: int
    workers: int | None
    quiet: bool
    out: Path | None
    overwrite: bool

    def api(self) -> dict:
        """The keyword arguments these options give every run function of the API:
        ``seed``, ``workers`` and ``progress``."""
        return {"seed": self.seed, "workers": self.workers, "progress": not self.quiet}

    def writes(self, no_records: bool) -> dict:
        """The keyword arguments these options give a run function that writes a results
        folder: ``out``, ``overwrite`` and ``records`` (kept only to be written, and not with
        ``--no-records``).

        Raises
        ------
        click.UsageError
            ``--no-records`` without ``--out`` (nothing would be written for it to leave out).
        """
        if no_records and self.out is None:
            raise click.UsageError(
                "'--no-records' needs '--out': it leaves the per-deal rows out of the results "
                "folder, and without '--out' nothing is written"
            )
        records = self.out is not None and not no_records
        return {"out": self.out, "overwrite": self.overwrite, "records": records}

    def check(self, scheduler: str | None = None):
        """Check ``--workers`` against this machine (unless ``scheduler`` is remote) and
        ``--out`` before the run starts; the :class:`~canasta_sim.run.outdir.Target` of
        ``--out``, or ``None``."""
        _check_workers(self.workers, scheduler)
        return _new_out(self.out, self.overwrite)


def run_options(out_help: str):
    """The run options of every command that plays many deals, declared once: ``--seed``,
    ``--workers``, ``--quiet``, ``--out`` (``out_help`` says what the command writes there)
    and ``--overwrite``, passed to the command as one :class:`RunOptions`, ``opts``. The
    rules options are :func:`rules_options`."""

    def decorate(f):
        @functools.wraps(f)
        def command(*args, seed, workers, quiet, out, overwrite, **kwargs):
            return f(*args, opts=RunOptions(seed, workers, quiet, out, overwrite), **kwargs)

        for option in (OVERWRITE, out_option(out_help), QUIET, WORKERS, SEED_OPTION):
            command = option(command)
        return command

    return decorate


def table_run(players, rules_opt, settings, bots, seats, scores, scheduler, opts: RunOptions):
    """The checks of a command that plays one table (``simulate``, ``games``), in the order a
    user reads the options: the rules, the bots (``--bots`` per side or ``--seats`` per seat),
    ``--workers`` and ``--out``.

    Returns
    -------
    dict
        The keyword arguments of the table in the API call: ``rules``
        (:class:`~canasta_sim.game.rules.Rules`), ``bots`` and ``seats`` (one of them
        ``None``), ``scores``.
    """
    rules = build_rules(players, rules_opt, settings)
    specs = _seating(bots, seats, rules)
    opts.check(scheduler)
    bots, seats = (None, specs) if seats else (specs, None)
    return {"rules": rules, "bots": bots, "seats": seats, "scores": scores}


def trace_option(name: str, verb: str, instead: str, multiple: bool = False):
    r"""``--trace FILE`` (the parameter ``name``): an existing trace file that the command
    ``verb``\s instead of ``instead``."""
    return click.option(
        "--trace",
        name,
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        multiple=multiple,
        default=() if multiple else None,
        help=f"{verb} this trace file (JSON lines, e.g. a learning environment's episode "
        f"written by save_trace) instead of {instead}.",
    )


def _check_workers(workers, scheduler=None, option="--workers"):
    """``--workers`` (or ``option``, another name of it) is numba threads per process: at most
    this machine's cores (remote Dask workers are not checked here)."""
    import numba

    remote = scheduler is not None and not scheduler.startswith("local:")
    if workers is not None and not remote and workers > numba.config.NUMBA_NUM_THREADS:
        raise click.BadParameter(
            f"{workers} is more than the {numba.config.NUMBA_NUM_THREADS} cores of this "
            f"machine; allowed: 1 to {numba.config.NUMBA_NUM_THREADS}",
            param_hint=[option],
        )


def _new_out(out: Path | None, overwrite: bool):
    """Check ``--out`` before the run starts (a usage error, not a failure hours later);
    returns the :class:`~canasta_sim.run.outdir.Target` or ``None``."""
    from ..run.outdir import OutExists, prepare_out

    if out is None:
        return None
    try:
        return prepare_out(out, overwrite)
    except OutExists:
        raise _out_exists(out) from None
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=["--out"]) from None


def _out_exists(out) -> click.BadParameter:
    """``--out`` names a folder that exists: the remedy is the command's option
    (``--overwrite``), not the API's argument."""
    return click.BadParameter(
        f"{str(out)!r} already exists; choose a new folder or add '--overwrite'",
        param_hint=["--out"],
    )


def _write_frames(target, files: dict) -> None:
    """Write a new results folder (a :class:`~canasta_sim.run.outdir.Target`) atomically
    (staging folder, then rename): ``.csv`` and ``.parquet`` files from DataFrames, ``.json``
    files from dicts, any other file by calling its item with the path. An error names the
    file that could not be written."""
    from ..results.run_folder import writing
    from ..run.outdir import commit_out, json_text, staging_folder, write_text

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
    from ..results.tables import csv_text

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
