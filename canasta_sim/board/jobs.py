"""Analyses run for the board in worker processes, so that a long one never blocks the page
and can be cancelled (the process is ended; the kernels cannot be interrupted in a thread).

A job is one :func:`canasta_sim.analyse` call at an information set given as a position
mapping (:func:`canasta_sim.game.positions.position_mapping`), or at a ``--from-run`` address;
its answer is JSON data (:func:`analysis_answer`).
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import threading
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

#: Jobs that may run at once: each uses every core through the rollout kernels.
MAX_RUNNING = 1


class Busy(RuntimeError):
    """An analysis is already running (the server answers 409)."""


@dataclass
class _Job:
    process: Any
    conn: Connection
    state: str = "running"
    answer: dict = field(default_factory=dict)


def analysis_answer(result, address: str | None, command: str) -> dict:
    """An :class:`~canasta_sim.search.analysis.AnalysisResult` as JSON data: ``candidates``
    (rows of the ranked table, best first, NaN as None), ``settings`` (the settings line),
    ``address`` (the ``--from-run`` address or None) and ``command`` (the command line that
    gives the same answer)."""
    rows = json_rows(result.table)
    return {"candidates": rows, "settings": result.settings, "address": address, "command": command}


def json_rows(frame) -> list[dict]:
    """The rows of a DataFrame as JSON data (NaN as None: JSON has no NaN)."""
    return [
        {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()}
        for row in frame.to_dict(orient="records")
    ]


def run_analysis(request: dict) -> dict:
    """Run one analysis request (in the worker process): ``address`` (the
    :class:`~canasta_sim.run.address.RunAddress` of a ``--from-run`` position) or ``position``
    (a position mapping), ``worlds``, ``seed`` and ``rollout`` (checked by the server),
    returning :func:`analysis_answer`'s data; or ``review`` (a play session's ``source``,
    ``you`` and ``actions``), returning :func:`canasta_sim.board.session.review_session`'s
    tables as ``summary`` and ``decisions`` rows."""
    from ..game.infoset import InfoSet
    from ..run.address import info_set_from_run
    from ..search.analysis import analyse

    if "review" in request:
        from .session import review_session

        r = request["review"]
        decisions, summary = review_session(
            r["source"], r["you"], r["actions"], request["worlds"], request["seed"]
        )
        return {"summary": json_rows(summary), "decisions": json_rows(decisions)}
    address = request.get("address")
    info = info_set_from_run(address) if address else InfoSet.from_dict(request["position"])
    worlds, seed, rollout = request["worlds"], request["seed"], request["rollout"]
    result = analyse(info, worlds=worlds, seed=seed, rollout=rollout)
    where = f"--from-run {address}" if address else "POSITION"
    command = f"canasta-sim analyse {where} --worlds {worlds} --seed {seed} --rollout {rollout}"
    return analysis_answer(result, str(address) if address else None, command)


def _worker(conn: Connection, request: dict) -> None:
    try:
        conn.send(("done", run_analysis(request)))
    except ValueError as exc:  # bad input found while running: the page shows the message
        conn.send(("failed", {"error": str(exc)}))
    except Exception as exc:  # noqa: BLE001 - reported to the page without a traceback
        conn.send(("failed", {"error": f"the analysis failed: {type(exc).__name__}: {exc}"}))
    finally:
        conn.close()


class Jobs:
    """The analyses of one server: start, poll, cancel. Thread-safe."""

    def __init__(self) -> None:
        self._jobs: dict[str, _Job] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._context = multiprocessing.get_context("spawn")  # no fork of the server's threads

    def start(self, request: dict) -> str:
        """Start an analysis; returns its id.

        Raises
        ------
        Busy
            When :data:`MAX_RUNNING` analyses are running.
        """
        with self._lock:
            running = [j for j in self._jobs.values() if self._poll(j) == "running"]
            if len(running) >= MAX_RUNNING:
                raise Busy("an analysis is running: wait for it or cancel it")
            ours, theirs = self._context.Pipe(duplex=False)
            process = self._context.Process(target=_worker, args=(theirs, request), daemon=True)
            process.start()
            theirs.close()
            job_id = str(next(self._ids))
            self._jobs[job_id] = _Job(process, ours)
            return job_id

    def status(self, job_id: str) -> dict:
        """``{"state": running|done|failed|cancelled, ...answer}``.

        Raises
        ------
        KeyError
            For an unknown job id.
        """
        with self._lock:
            job = self._jobs[job_id]
            return {"state": self._poll(job), **job.answer}

    def cancel(self, job_id: str) -> dict:
        """End the job's process if it runs; its state becomes ``cancelled``.

        Raises
        ------
        KeyError
            For an unknown job id.
        """
        with self._lock:
            job = self._jobs[job_id]
            if self._poll(job) == "running":
                job.process.terminate()
                job.process.join(5)
                job.state = "cancelled"
            return {"state": job.state}

    def close(self) -> None:
        """End every running job (the server stops)."""
        for job_id in list(self._jobs):
            self.cancel(job_id)

    @staticmethod
    def _poll(job: _Job) -> str:
        if job.state == "running":
            if job.conn.poll():
                try:
                    job.state, job.answer = job.conn.recv()
                except EOFError:
                    job.state, job.answer = "failed", {"error": "the analysis process ended"}
                job.process.join(5)
            elif not job.process.is_alive():
                job.state, job.answer = "failed", {"error": "the analysis process ended"}
        return job.state
