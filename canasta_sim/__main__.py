"""``python -m canasta_sim`` and the ``canasta-sim`` command: the command line."""

import signal
import sys


def run() -> None:
    """Load and run the command line (:func:`canasta_sim.cli.main`).

    Loading it imports NumPy, pandas and numba, which takes a second or two; a Ctrl-C in that
    time exits as one during a command does (``Interrupted.``, exit code 130), not with
    Python's traceback of the imports.
    """
    try:
        from .cli import main
    except KeyboardInterrupt:
        sys.stderr.write("Interrupted.\n")
        raise SystemExit(128 + signal.SIGINT) from None
    main(prog_name="canasta-sim")


if __name__ == "__main__":
    run()
