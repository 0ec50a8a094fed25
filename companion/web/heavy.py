"""Heavy work -- score sheets, round packs, seating plans -- in one small bounded pool.

A sheet of a long game takes seconds of CPU, and any view link can ask for one, so
the server never renders more than ``HEAVY_WORKERS`` at once nor keeps more than
``HEAVY_QUEUE`` waiting (companion.core.limits). Beyond that the answer is "busy, try
again": 503 with Retry-After, at once, and the requests that are cheap (a board, a
form, a save) keep their threads. A job that waits in the queue waits at most
``HEAVY_WAIT`` seconds for the pool: if it has not started by then it is dropped and
answered 503 too, never a silent wait behind another sheet.

The PDF rendering itself (WeasyPrint, pure CPU) runs in worker processes (:meth:`Pool.in_process`):
in a thread it would hold Python's lock for seconds at a time and every other request
would queue behind it.

A second pool of the same size, :func:`checks`, takes the referee's whole-deal checks (the Monarchy
checker): each is milliseconds once its input is bounded, but never more of them at once than
the pool holds, and never behind a sheet being drawn.
"""

from __future__ import annotations

import contextvars
import multiprocessing
import threading
import time
import weakref
from collections.abc import Callable, Hashable
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

from flask import Flask, current_app

from ..core.messages import say

T = TypeVar("T")


#: What a refusal says when the pool that prints is full.
PRINTING = say("Courtier is busy printing for other tables. Try again in a few seconds.")
#: What a refusal says when the pool of the referee's checks is full.
CHECKING = say("Courtier is busy checking other deals. Try again in a few seconds.")
#: The least a job that could start at once is given to start, however late it was asked for.
MIN_WAIT = 0.1


class Busy(Exception):
    """The pool and its queue are full: ask again in a moment (``message`` says so in words)."""

    def __init__(self, message: str = PRINTING):
        super().__init__(message)
        self.message = message


class Pool:
    """A thread pool that refuses work beyond ``workers + queue`` jobs, and runs a job asked for
    twice at once (the same ``key``) only once.

    >>> pool = Pool(1, 0)
    >>> pool.run(lambda: 6 * 7)
    42
    """

    def __init__(self, workers: int, queue: int, wait: float | None = None, busy: str = PRINTING):
        self.workers, self.queue, self.wait, self.busy = workers, queue, wait, busy
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="courtier-heavy")
        self._slots = threading.BoundedSemaphore(workers + queue)
        self._lock = threading.Lock()
        self._running: dict[Hashable, Future] = {}
        self._taken = 0  # jobs running or waiting, each holding a slot
        self._processes: ProcessPoolExecutor | None = None
        #: Jobs started and not yet done, and jobs waiting for a worker: what an operator watches.
        self.jobs_running = self.jobs_waiting = 0
        #: Called with the pool after each change to those counts, or each refusal (companion.web.metrics).
        self.observer: Callable[[Pool, bool], None] | None = None
        weakref.finalize(self, self._executor.shutdown, wait=False)

    def _counted(self, running: int = 0, waiting: int = 0) -> None:
        with self._lock:
            self.jobs_running += running
            self.jobs_waiting += waiting
        self._observed()

    def _observed(self, refused: bool = False) -> None:
        if self.observer is not None:
            self.observer(self, refused)

    def in_process(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in one of the pool's worker processes (started on first use) and wait.

        Called from a job already in the pool (which holds the slot); ``fn`` and its arguments
        must pickle (module functions, strings, bytes).
        """
        with self._lock:
            if self._processes is None:
                self._processes = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
                weakref.finalize(self, self._processes.shutdown, wait=False, cancel_futures=True)
        return self._processes.submit(fn, *args).result()

    def submit(self, fn: Callable[..., T], *args: Any, key: Hashable | None = None) -> Future:
        with self._lock:
            if key is not None and key in self._running:
                return self._running[key]
            if not self._slots.acquire(blocking=False):
                self._observed(refused=True)
                raise Busy(self.busy)
            self._taken += 1
            self.jobs_waiting += 1
            started = threading.Event()
            # The job says what it says in the language of the request that asked for it.
            context = contextvars.copy_context()

            def job() -> T:
                started.set()
                self._counted(running=1, waiting=-1)
                try:
                    return context.run(fn, *args)
                finally:
                    self._counted(running=-1)

            future = self._executor.submit(job)
            future.started = started  # type: ignore[attr-defined] - read by run()
            if key is not None:
                self._running[key] = future

        def done(_: Future) -> None:
            with self._lock:
                if key is not None:
                    self._running.pop(key, None)
                self._taken -= 1
            self._slots.release()
            if not started.is_set():  # dropped before it started (it waited too long)
                self._counted(waiting=-1)

        self._observed()
        future.add_done_callback(done)
        return future

    def free(self) -> int:
        """How many more jobs the pool takes now (its workers' and its queue's places not taken)."""
        with self._lock:
            return self.workers + self.queue - self._taken

    def check_room(self) -> None:
        """:class:`Busy` at once when every worker and place in the queue is taken: a request refuses
        before it builds what it would hand the pool."""
        if not self._slots.acquire(blocking=False):
            self._observed(refused=True)
            raise Busy(self.busy)
        self._slots.release()

    def run(self, fn: Callable[..., T], *args: Any, key: Hashable | None = None,
            deadline: float | None = None) -> T:
        """Run ``fn`` in the pool and wait for it; :class:`Busy` when the pool is full, or when the job has
        waited ``wait`` seconds behind others without starting (it is then dropped).

        ``deadline`` (a :func:`time.monotonic` time) shortens that wait so that a request that spent time
        before asking still answers "busy" by then (a job a free worker takes at once still runs)."""
        future = self.submit(fn, *args, key=key)
        wait = self.wait
        if deadline is not None:
            left = max(deadline - time.monotonic(), MIN_WAIT)
            wait = left if wait is None else min(wait, left)
        if wait is not None and not future.started.wait(wait) and future.cancel():
            raise Busy(self.busy)
        try:
            return future.result()
        except CancelledError:  # the same job, asked for by another request that gave up waiting
            raise Busy(self.busy) from None


def init_app(app: Flask) -> None:
    from ..core import limits

    size = (limits.get("HEAVY_WORKERS"), limits.get("HEAVY_QUEUE"), limits.get("HEAVY_WAIT"))
    app.extensions["courtier.heavy"] = Pool(*size)
    app.extensions["courtier.checks"] = Pool(*size, busy=CHECKING)


def pool() -> Pool:
    """The pool that prints: sheets, packs, standings, seatings."""
    return current_app.extensions["courtier.heavy"]


def checks() -> Pool:
    """The pool of the referee's whole-deal checks (the Monarchy checker)."""
    return current_app.extensions["courtier.checks"]
