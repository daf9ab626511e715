"""Where a cold start's compile time goes: numba's compile events (``numba.core.event``) of one
command run in this process, per kernel and argument types, in self CPU seconds (a kernel's
compile minus the compiles of the kernels it calls, which numba runs inside it), and how many
times each kernel was compiled (more than once: another argument type, or a constant typed as
a literal).

Run: ``NUMBA_CACHE_DIR=$(mktemp -d) python benchmarks/compile_profile.py [--top 40] -- simulate
--deals 1000 --quiet``: the arguments after ``--`` are a ``canasta-sim`` command (default: the
cold default-bot ``simulate`` of issue 24). With a warm cache it lists nothing. Prints a table,
longest first, and the total; writes nothing.
"""

import argparse
import contextlib
import os
import sys
import time
from collections import defaultdict

from numba.core import event


class SelfTimes(event.Listener):
    """Self CPU seconds of each compile, keyed by (kernel, argument types)."""

    def __init__(self):
        self.stack: list[list] = []  # [key, start, seconds in the compiles it started]
        self.seconds: dict[tuple[str, str], float] = defaultdict(float)
        self.count: dict[tuple[str, str], int] = defaultdict(int)

    def on_start(self, ev):
        key = (ev.data["dispatcher"].py_func.__qualname__, str(ev.data["args"]))
        self.stack.append([key, time.process_time(), 0.0])

    def on_end(self, ev):
        key, start, children = self.stack.pop()
        total = time.process_time() - start
        self.seconds[key] += total - children
        self.count[key] += 1
        if self.stack:
            self.stack[-1][2] += total


def at_least_one(text: str) -> int:
    """``--top``'s value: a whole number, 1 or more (argparse shows the message, exit 2)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not allowed; allowed: a whole number, 1 or more"
        )
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=at_least_one, default=40, help="kernels listed (default 40)")
    parser.add_argument("command", nargs="*", default=["simulate", "--deals", "1000", "--quiet"])
    args = parser.parse_args()
    import click

    from canasta_sim.cli import main as cli

    times = SelfTimes()
    event.register("numba:compile", times)
    start = time.process_time()
    try:
        with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet):
            # its statistics table is not wanted here
            cli(args.command, prog_name="canasta-sim", standalone_mode=False)
    except click.ClickException as e:  # a bad command: click's own usage message, not a traceback
        e.show()
        sys.exit(e.exit_code)
    finally:
        event.unregister("numba:compile", times)
    cpu = time.process_time() - start
    names: dict[str, int] = defaultdict(int)
    for name, _ in times.seconds:
        names[name] += 1
    rows = sorted(times.seconds.items(), key=lambda kv: -kv[1])
    print(f"{'self CPU s':>10}  {'compiles':>8}  kernel (argument types; * : compiled for more)")
    for (name, types), seconds in rows[: args.top]:
        mark = " *" if names[name] > 1 else ""
        print(f"{seconds:10.2f}  {times.count[(name, types)]:8d}  {name}{mark} {types[:120]}")
    compiled = sum(times.seconds.values())
    print(
        f"{len(rows)} compiles of {len(names)} kernels, {compiled:.1f} CPU s of compiling; "
        f"the command {cpu:.1f} CPU s in this process"
    )
    twice = sorted(name for name, n in names.items() if n > 1)
    if twice:
        print("compiled for more than one signature:", ", ".join(twice))


if __name__ == "__main__":
    main()
