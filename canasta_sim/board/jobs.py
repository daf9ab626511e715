"""Work run for the board in worker processes, so that a long piece never blocks the server
and can be cancelled (the process is ended; the kernels cannot be interrupted in a thread).

An analysis job (:class:`Jobs`) is one :func:`canasta_sim.analyse` call at an information set
given as a position mapping (:func:`canasta_sim.game.positions.position_mapping`), or at a
``--from-run`` address; its answer is JSON data (:func:`analysis_answer`). A page request
(:class:`PageWorker`) is a deal's frames or a decision's position, which the page waits for:
a deal played by search bots takes as long as an analysis.
"""

from __future__ import annotations

import asyncio
import itertools
import math
import multiprocessing
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

#: Jobs that may run at once: each uses every core through the rollout kernels.
MAX_RUNNING = 1
#: Seconds between two looks at a page request's worker (and at the page's connection).
POLL = 0.02


class Busy(RuntimeError):
    """An analysis is already running (the server answers 409)."""


@dataclass
class _Job:
    process: Any
    conn: Connection
    state: str = "running"
    answer: dict = field(default_factory=dict)


#: The file name the command of a position's analysis reads: the page offers the position
#: analysed as a download of that name.
POSITION_FILE = "position.json"


def analysis_answer(result, address: str | None, command: str, position=None) -> dict:
    """An :class:`~canasta_sim.search.analysis.AnalysisResult` as JSON data: ``candidates``
    (rows of the ranked table, best first, NaN as None, each with its ``reason``:
    :func:`canasta_sim.search.reasons.hint_reasons`), ``settings`` (the settings line),
    ``address`` (the ``--from-run`` address or None), ``command`` (the command line that
    gives the same answer) and, for an analysis of a position, ``position`` (the position
    mapping analysed) and ``file`` (:data:`POSITION_FILE`, the file the command reads)."""
    from ..search.reasons import hint_reasons

    rows = json_rows(result.table)
    for row, why in zip(rows, hint_reasons(result)):
        row["reason"] = why
    answer = {"candidates": rows, "settings": result.settings, "address": address}
    answer["command"] = command
    if position is not None:
        answer.update(position=position, file=POSITION_FILE)
    return answer


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
    ``you``, ``actions`` and ``undos``), returning
    :func:`canasta_sim.board.session.review_session`'s tables as ``summary`` and
    ``decisions`` rows, with the ``worlds`` and ``seed`` that made them and the deal's
    ``undos`` (a practice deal's review says so)."""
    from ..game.infoset import InfoSet
    from ..run.address import info_set_from_run
    from ..search.analysis import analyse

    if "review" in request:
        from .session import review_session

        r = request["review"]
        decisions, summary = review_session(
            r["source"], r["you"], r["actions"], request["worlds"], request["seed"]
        )
        tables = {"summary": json_rows(summary), "decisions": json_rows(decisions)}
        # a deal played with undo is a practice deal: its review says so
        tables["undos"] = r.get("undos", 0)
        return {**tables, "worlds": request["worlds"], "seed": request["seed"]}
    address = request.get("address")
    info = info_set_from_run(address) if address else InfoSet.from_dict(request["position"])
    worlds, seed, rollout = request["worlds"], request["seed"], request["rollout"]
    result = analyse(info, worlds=worlds, seed=seed, rollout=rollout)
    where = f"--from-run {address}" if address else POSITION_FILE
    command = f"canasta-sim analyse {where} --worlds {worlds} --seed {seed} --rollout {rollout}"
    return analysis_answer(
        result, str(address) if address else None, command, request.get("position")
    )


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


class Cancelled(RuntimeError):
    """The page closed a request it waited for (it opened another deal, or cancelled)."""


def page_answer(request: dict) -> dict:
    """Answer one page request (in the worker process): ``{"deal": source}`` the deal's frames
    (:meth:`canasta_sim.board.frames.DealReplay.to_dict` of
    :func:`canasta_sim.board.pages.deal_replay`), or ``{"position": source, "turn": T,
    "decision": D}`` the position mapping of
    :func:`canasta_sim.board.pages.deal_position`, or ``{"report": source, "turn": T,
    "decision": D}`` the hand's report of :func:`canasta_sim.board.pages.hand_report`;
    ``source`` is checked by the server."""
    from .pages import deal_position, deal_replay, hand_report

    if "position" in request:
        return deal_position(request["position"], request["turn"], request["decision"])
    if "report" in request:
        return hand_report(request["report"], request["turn"], request["decision"])
    return deal_replay(request["deal"]).to_dict()


def _serve(conn: Connection) -> None:
    """The page worker's loop: answer requests until the server closes the pipe."""
    while True:
        try:
            request = conn.recv()
        except EOFError:
            return
        try:
            conn.send(("done", page_answer(request)))
        except ValueError as exc:  # bad input found while replaying: a 400 naming it
            conn.send(("bad", str(exc)))
        except Exception as exc:  # noqa: BLE001 - the server answers 500 and logs it
            conn.send(("failed", f"{type(exc).__name__}: {exc}"))


class PageWorker:
    """One worker process kept for the requests the page waits on (:func:`page_answer`), so
    the server's event loop answers every other request while one runs, and a request the
    page gives up on ends with its process (the next request starts another). Requests run
    one at a time; the next waits, without blocking the event loop. For the event loop's
    thread only."""

    def __init__(self) -> None:
        self._process: Any = None
        self._conn: Connection | None = None
        self._busy = False
        self._context = multiprocessing.get_context("spawn")  # no fork of the server's threads

    async def call(self, request: dict, gone: Callable[[], Awaitable[bool]]) -> dict:
        """The answer of :func:`page_answer` to ``request``, run in the worker process.

        Parameters
        ----------
        request : dict
            As :func:`page_answer` takes it.
        gone : async callable
            True once the page has closed the request (starlette's
            ``Request.is_disconnected``); the worker is then ended.

        Raises
        ------
        Cancelled
            When ``gone`` turns true before the answer.
        ValueError
            For bad input found while answering (the message names it).
        RuntimeError
            When the worker fails or its process ends.
        """
        while self._busy:  # another request runs: wait for it, or for the page to give up
            if await gone():
                raise Cancelled("the page closed the request")
            await asyncio.sleep(POLL)
        self._busy = True
        try:
            state, answer = await self._run(request, gone)
        finally:
            self._busy = False
        if state == "bad":
            raise ValueError(answer)
        if state == "failed":
            raise RuntimeError(answer)
        return answer

    async def _run(self, request: dict, gone) -> tuple[str, Any]:
        conn = self._started()
        conn.send(request)
        while not conn.poll():
            if await gone():
                self.close()
                raise Cancelled("the page closed the request")
            if not self._process.is_alive():
                self.close()
                raise RuntimeError("the board's worker process ended")
            await asyncio.sleep(POLL)
        return conn.recv()

    def _started(self) -> Connection:
        if self._conn is not None and not self._process.is_alive():
            self.close()  # it ended between two requests: start another
        if self._conn is None:
            ours, theirs = self._context.Pipe()
            self._process = self._context.Process(target=_serve, args=(theirs,), daemon=True)
            self._process.start()
            theirs.close()
            self._conn = ours
        return self._conn

    @property
    def alive(self) -> bool:
        """Whether the worker process runs."""
        return self._process is not None and self._process.is_alive()

    def close(self) -> None:
        """End the worker process (a request given up on, or the server stops)."""
        if self._process is not None:
            self._process.terminate()
            self._process.join(5)
            assert self._conn is not None
            self._conn.close()
        self._process = self._conn = None
