"""The ``canasta-sim`` command line (click). Thin: parse, call the API, print, write files.

Bad input is a usage error (exit code 2) naming the value and what is allowed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading

import click

from .._version import __version__
from .comparison import compare, study, sweep, tune
from .decisions import analyse_command, review_command
from .folders import replay, report
from .serve import board
from .simulation import games, merge, simulate, verify, warmup
from .training import train


class _Main(click.Group):
    """The command group. For the time of a command, SIGTERM (kill, a batch system's time
    limit) unwinds like Ctrl-C, so a run's staging folder is removed and no half-written
    results stay behind; the previous handler is restored after it. A failed write (disk
    full, read-only folder, naming the file), Ctrl-C (exit code 130; 0 once the run's
    results folder is in place, with a note naming it) and an error inside a
    bot written in Python (exit code 1, the bot's own frames) are reported without the
    package's traceback (the run's staging folder is already removed by then)."""

    def invoke(self, ctx):
        with _sigterm_unwinds():
            return self._invoke(ctx)

    def _invoke(self, ctx):
        from ..errors import BotError, InterruptedAfterCommit

        try:
            return super().invoke(ctx)
        except InterruptedAfterCommit as exc:  # the results are whole: no failure to report
            click.echo(f"Interrupted after the run finished: {exc.folder} is complete.", err=True)
            return None
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


# --- the command group: one module per group of commands (simulation, comparison, folders,
# decisions), options shared by them in options.py ------------------------------------------
@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="canasta-sim")
def main():
    """Rule-exact Canasta simulation: millions of bot-vs-bot deals, statistics, reports."""


for _command in (
    simulate,
    games,
    merge,
    verify,
    warmup,
    compare,
    sweep,
    tune,
    study,
    report,
    replay,
    analyse_command,
    review_command,
    board,
    train,
):
    main.add_command(_command)
