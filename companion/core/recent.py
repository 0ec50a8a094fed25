"""A small, thread-safe store of the most recently used values (least recently used go first).

Bounded in entries and, when given ``max_bytes``, in the bytes its values take (as
:func:`weigh` reckons them): a few very large values cannot fill the memory.

>>> seen = Recent(2)
>>> seen.put("a", 1); seen.put("b", 2); seen.get("a"); seen.put("c", 3)
1
>>> seen.get("b") is None, seen.get("a"), seen.get("c")
(True, 1, 3)
>>> small = Recent(100, max_bytes=1000)
>>> small.put("a", "x" * 400); small.put("b", "y" * 400); small.put("c", "z" * 400)
>>> small.get("a") is None, len(small), small.bytes <= 1000
(True, 2, True)
>>> small.put("huge", "h" * 5000); small.get("huge") is None  # larger than the whole cache: not kept
True

An entry nobody has asked for in a while (its table no longer played, its sheet printed) is
dropped by :meth:`Recent.forget_idle`; :func:`forget_idle_everywhere` does it for every cache
in the process and hands the freed memory back to the system, and :func:`start_sweeping` does
that every so often in the background (docs/ops.md, *The caches, and what bounds them*).

>>> import itertools
>>> kept = Recent(10, clock=itertools.count().__next__)  # a clock that ticks once a use
>>> kept.put("old", 1); kept.put("new", 2); kept.get("old")  # used at 0, 1 and 2
1
>>> kept.forget_idle(1.5, now=3), kept.get("new"), kept.get("old")  # "new" was last used at 1
(1, None, 1)
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging
import os
import sys
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import fields, is_dataclass
from typing import Any, Generic, TypeVar

V = TypeVar("V")


def weigh(value: Any, _depth: int = 0, _seen: set[int] | None = None) -> int:
    """About how many bytes ``value`` takes, counting what it holds (strings, lists, dicts, dataclasses);
    a list or dict held twice (a table's word list, in the table and in its scored game) counts once.

    >>> weigh("x" * 1000) >= 1000, weigh(["x" * 1000] * 3) >= 3000
    (True, True)
    >>> words = ["WORD"] * 1000
    >>> weigh([words, words]) < 1.5 * weigh(words)
    True
    """
    size = sys.getsizeof(value)
    if _depth > 12 or isinstance(value, str | bytes | int | float | bool) or value is None:
        return size
    seen = set() if _seen is None else _seen
    if id(value) in seen:
        return 0
    seen.add(id(value))
    if isinstance(value, Mapping):
        return size + sum(weigh(k, _depth + 1, seen) + weigh(v, _depth + 1, seen) for k, v in value.items())
    if isinstance(value, list | tuple | set | frozenset):
        return size + sum(weigh(v, _depth + 1, seen) for v in value)
    if is_dataclass(value):
        return size + sum(weigh(getattr(value, f.name), _depth + 1, seen) for f in fields(value))
    return size


#: Every cache in this process, so that idle entries can be dropped from all of them at once.
_EVERY_CACHE: weakref.WeakSet[Recent] = weakref.WeakSet()
_EVERY_CACHE_LOCK = threading.Lock()


class Recent(Generic[V]):
    def __init__(self, size: int, max_bytes: int | None = None, weight: Callable[[Any], int] = weigh,
                 clock: Callable[[], float] = time.monotonic):
        self.size = size
        self.max_bytes = max_bytes
        self.bytes = 0
        self._weight = weight
        self._clock = clock
        self._values: OrderedDict[Hashable, V] = OrderedDict()  # least recently used first
        self._sizes: dict[Hashable, int] = {}
        self._used: dict[Hashable, float] = {}
        self._lock = threading.Lock()
        with _EVERY_CACHE_LOCK:
            _EVERY_CACHE.add(self)

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
                self._used[key] = self._clock()
            return value

    def put(self, key: Hashable, value: V) -> None:
        cost = self._weight(value) if self.max_bytes is not None else 0
        if self.max_bytes is not None and cost > self.max_bytes:
            return
        with self._lock:
            if key in self._values:
                self.bytes -= self._sizes.pop(key, 0)
            self._values[key] = value
            self._sizes[key] = cost
            self._used[key] = self._clock()
            self.bytes += cost
            self._values.move_to_end(key)
            while len(self._values) > self.size or (self.max_bytes is not None and self.bytes > self.max_bytes):
                self._drop_oldest()

    def _drop_oldest(self) -> None:
        old, _ = self._values.popitem(last=False)
        self.bytes -= self._sizes.pop(old, 0)
        self._used.pop(old, None)

    def discard(self, key: Hashable) -> None:
        with self._lock:
            if self._values.pop(key, None) is not None:
                self.bytes -= self._sizes.pop(key, 0)
                self._used.pop(key, None)

    def forget_idle(self, seconds: float, now: float | None = None) -> int:
        """Drop the entries nobody has used for ``seconds``; returns how many went.

        The least recently used come first, so this stops at the first entry still in use."""
        cutoff = (self._clock() if now is None else now) - seconds
        dropped = 0
        with self._lock:
            while self._values and self._used.get(next(iter(self._values)), cutoff) < cutoff:
                self._drop_oldest()
                dropped += 1
        return dropped

    def __len__(self) -> int:
        return len(self._values)


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, which hands the free pages of the heap back to the system; None elsewhere."""
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):  # not glibc (musl, macOS): the memory is reused, not returned
        return None


_trim = _malloc_trim()


def forget_idle_everywhere(seconds: float) -> int:
    """Drop every cache's entries idle for ``seconds``; when any went, hand the freed memory back.

    Python frees the objects at once, but the allocator keeps their pages for the next ones: without
    the trim a server's size stays where its busiest hour took it."""
    with _EVERY_CACHE_LOCK:
        caches = list(_EVERY_CACHE)
    dropped = sum(cache.forget_idle(seconds) for cache in caches)
    if dropped:
        gc.collect()  # what the entries held in cycles goes now, not at the next full collection
        if _trim is not None:
            _trim(0)
    return dropped


_sweeper: tuple[int, threading.Thread] | None = None
_sweeper_lock = threading.Lock()


def start_sweeping(idle_seconds: Callable[[], float]) -> None:
    """Drop idle entries in the background, a few times per idle period (one thread per process:
    a server's worker forked from a parent that had one starts its own on its first call)."""
    global _sweeper
    with _sweeper_lock:
        if _sweeper is not None and _sweeper[0] == os.getpid() and _sweeper[1].is_alive():
            return

        def sweep() -> None:
            while True:
                seconds = float(idle_seconds())
                time.sleep(max(0.25, min(60.0, seconds / 4)))
                try:
                    forget_idle_everywhere(seconds)
                except Exception:  # noqa: BLE001 - a failed sweep leaves the caches bounded as before; try again
                    logging.getLogger(__name__).exception("dropping idle cache entries failed")

        thread = threading.Thread(target=sweep, name="courtier-cache-sweeper", daemon=True)
        thread.start()
        if _sweeper is None:  # a worker forked from this process (gunicorn --preload) sweeps its own caches
            os.register_at_fork(after_in_child=lambda: start_sweeping(idle_seconds))
        _sweeper = (os.getpid(), thread)
