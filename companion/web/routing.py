"""URL rules whose builders are compiled once per process.

Werkzeug compiles two small functions for every URL rule (to build its URLs), through Python's
`ast` and `compile`: about 70 ms for Courtier's seventy-odd rules, most of what making an app
costs. Every app a process makes has the same rules (the test suite makes over a thousand), and a
builder depends only on its rule's pattern and defaults: it reaches the rule's converters through
the rule it is called on. So one compiled builder serves every app's copy of a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from werkzeug.routing import Rule

_builders: dict[tuple[Any, ...], Callable[..., tuple[str, str]]] = {}


class SharedBuilderRule(Rule):
    """A Werkzeug rule that takes its builder from the process's compiled ones when it can."""

    def _compile_builder(self, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
        defaults = tuple(sorted((self.defaults or {}).items()))
        key = (self.rule, tuple(self._trace), defaults, append_unknown)
        try:
            hash(key)
        except TypeError:  # a default that cannot be a key: compile it for this rule alone
            return super()._compile_builder(append_unknown)
        builder = _builders.get(key)
        if builder is None:  # two threads may both compile it: setdefault keeps the first, for both
            builder = _builders.setdefault(key, super()._compile_builder(append_unknown))
        return builder
