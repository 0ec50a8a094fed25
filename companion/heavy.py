"""Heavy work -- score sheets, round packs, seating plans -- in one small bounded pool.

A sheet of a long game takes seconds of CPU, and any view link can ask for one, so
the server never renders more than ``HEAVY_WORKERS`` at once nor keeps more than
``HEAVY_QUEUE`` waiting (companion.limits). Beyond that the answer is "busy, try
again": 503 with Retry-After, at once, and the requests that are cheap (a board, a
form, a save) keep their threads. A job that waits in the queue waits at most
``HEAVY_WAIT`` seconds for the pool: if it has not started by then it is dropped and
answered 503 too, never a silent wait behind another sheet.

The PDF rendering itself (WeasyPrint, pure CPU) runs in worker processes (:meth:`Pool.in_process`):
in a thread it would hold Python's lock for seconds at a time and every other request
would queue behind it.
"""

from __future__ import annotations

import multiprocessing
import threading
import weakref
from collections.abc import Callable, Hashable
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

from flask import Flask, current_app

T = TypeVar("T")


class Busy(Exception):
    """The pool and its queue are full: ask again in a moment."""


class Pool:
    """A thread pool that refuses work beyond ``workers + queue`` jobs, and runs a job asked for
    twice at once (the same ``key``) only once.

    >>> pool = Pool(1, 0)
    >>> pool.run(lambda: 6 * 7)
    42
    """

    def __init__(self, workers: int, queue: int, wait: float | None = None):
        self.workers, self.queue, self.wait = workers, queue, wait
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="courtier-heavy")
        self._slots = threading.BoundedSemaphore(workers + queue)
        self._lock = threading.Lock()
        self._running: dict[Hashable, Future] = {}
        self._processes: ProcessPoolExecutor | None = None
        #: Jobs started and not yet done, and jobs waiting for a worker: what an operator watches.
        self.busy = self.waiting = 0
        #: Called with the pool after each change to those counts, or each refusal (companion.metrics).
        self.observer: Callable[[Pool, bool], None] | None = None
        weakref.finalize(self, self._executor.shutdown, wait=False)

    def _counted(self, busy: int = 0, waiting: int = 0, refused: bool = False) -> None:
        with self._lock:
            self.busy += busy
            self.waiting += waiting
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
                if self.observer is not None:
                    self.observer(self, True)
                raise Busy()
            started = threading.Event()

            def job() -> T:
                started.set()
                self._counted(busy=1, waiting=-1)
                try:
                    return fn(*args)
                finally:
                    self._counted(busy=-1)

            self.waiting += 1
            future = self._executor.submit(job)
            future.started = started  # type: ignore[attr-defined] - read by run()
            if key is not None:
                self._running[key] = future

        def done(_: Future) -> None:
            with self._lock:
                if key is not None:
                    self._running.pop(key, None)
            self._slots.release()
            if not started.is_set():  # dropped before it started (it waited too long)
                self._counted(waiting=-1)

        if self.observer is not None:
            self.observer(self, False)
        future.add_done_callback(done)
        return future

    def run(self, fn: Callable[..., T], *args: Any, key: Hashable | None = None) -> T:
        """Run ``fn`` in the pool and wait for it; :class:`Busy` when the pool is full, or when the job has
        waited ``wait`` seconds behind others without starting (it is then dropped)."""
        future = self.submit(fn, *args, key=key)
        if self.wait is not None and not future.started.wait(self.wait) and future.cancel():
            raise Busy()
        try:
            return future.result()
        except CancelledError:  # the same job, asked for by another request that gave up waiting
            raise Busy() from None


def init_app(app: Flask) -> None:
    from . import limits

    app.extensions["courtier.heavy"] = Pool(limits.get("HEAVY_WORKERS"), limits.get("HEAVY_QUEUE"),
                                            limits.get("HEAVY_WAIT"))


def pool() -> Pool:
    return current_app.extensions["courtier.heavy"]
