"""A run's progress on stderr: a bar on a terminal, a line every few seconds in a log."""

from __future__ import annotations

import math
import sys
import time

#: Seconds between progress lines when stderr is not a terminal (a log file).
LOG_INTERVAL = 5.0


class Progress:
    """Progress of a run on stderr: a tqdm bar on a terminal; in a log (stderr not a
    terminal) one line every :data:`LOG_INTERVAL` seconds, and none for runs shorter than
    that. Disabled, it prints nothing.

    Parameters
    ----------
    total : int
        Units of the whole run.
    unit : str
        What a unit is ("deal", "game").
    enabled : bool
    stream : file, optional
        Default ``sys.stderr``.
    """

    def __init__(self, total: int, unit: str, enabled: bool, stream=None):
        self.total, self.unit, self.enabled = total, unit, enabled
        self.stream = sys.stderr if stream is None else stream
        self._bar = None
        self._start = self._last = time.monotonic()
        self._done = 0
        if enabled and _is_terminal(self.stream):
            from tqdm import tqdm

            self._bar = tqdm(total=total, unit=unit, unit_scale=True, leave=False, file=self.stream)

    def update(self, done: int, note: str = "") -> None:
        """Record that ``done`` units (in total, not since the last call) are complete;
        ``note`` (e.g. ``"best 12.5"``) is shown after the count."""
        if self._bar is not None:
            if note:
                self._bar.set_postfix_str(note, refresh=False)
            self._bar.update(done - self._done)
        elif self.enabled:
            now = time.monotonic()
            if now - self._last >= LOG_INTERVAL and done < self.total:
                self._last = now
                print(self.line(done, now - self._start, note), file=self.stream, flush=True)
        self._done = done

    def line(self, done: int, seconds: float, note: str = "") -> str:
        """One progress line: done, percent, elapsed and estimated remaining time, then
        ``note``."""
        left = seconds * (self.total - done) / done if done else math.nan
        eta = "" if math.isnan(left) else f", about {_short(left)} left"
        tail = f", {note}" if note else ""
        return (
            f"{done:,} of {self.total:,} {self.unit}s ({100 * done / self.total:.1f}%), "
            f"{_short(seconds)}{eta}{tail}"
        )

    def __enter__(self) -> Progress:
        return self

    def close(self) -> None:
        """Remove the bar (on a terminal); nothing in a log."""
        if self._bar is not None:
            self._bar.close()

    def __exit__(self, *exc) -> None:
        self.close()


def _short(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
