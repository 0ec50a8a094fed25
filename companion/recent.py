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
"""

from __future__ import annotations

import sys
import threading
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


class Recent(Generic[V]):
    def __init__(self, size: int, max_bytes: int | None = None, weight: Callable[[Any], int] = weigh):
        self.size = size
        self.max_bytes = max_bytes
        self.bytes = 0
        self._weight = weight
        self._values: OrderedDict[Hashable, V] = OrderedDict()
        self._sizes: dict[Hashable, int] = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
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
            self.bytes += cost
            self._values.move_to_end(key)
            while len(self._values) > self.size or (self.max_bytes is not None and self.bytes > self.max_bytes):
                old, _ = self._values.popitem(last=False)
                self.bytes -= self._sizes.pop(old, 0)

    def discard(self, key: Hashable) -> None:
        with self._lock:
            self._values.pop(key, None)

    def __len__(self) -> int:
        return len(self._values)
