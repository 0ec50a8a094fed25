"""A small, thread-safe store of the most recently used values (least recently used go first).

>>> seen = Recent(2)
>>> seen.put("a", 1); seen.put("b", 2); seen.get("a"); seen.put("c", 3)
1
>>> seen.get("b") is None, seen.get("a"), seen.get("c")
(True, 1, 3)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Recent(Generic[V]):
    def __init__(self, size: int):
        self.size = size
        self._values: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key: Hashable, value: V) -> None:
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)

    def discard(self, key: Hashable) -> None:
        with self._lock:
            self._values.pop(key, None)

    def __len__(self) -> int:
        return len(self._values)
