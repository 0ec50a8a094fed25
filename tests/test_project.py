"""The project's own description (pyproject.toml) as packaging tools read it."""

from __future__ import annotations

import tomllib
from pathlib import Path

PYPROJECT = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_licence_is_an_spdx_expression():
    """A table ({text = "MIT"}) is deprecated: setuptools warns on every install that such a project stops
    building after 2027-02-18. The SPDX string needs setuptools 77 or newer to build, and no licence classifier
    beside it (setuptools refuses both at once)."""
    assert PYPROJECT["project"]["license"] == "MIT"
    assert PYPROJECT["build-system"]["requires"] == ["setuptools>=77"]
    assert not [c for c in PYPROJECT["project"].get("classifiers", []) if c.startswith("License ::")]
