"""Where Courtier's files live and the policies every response carries.

The project runs from its checkout (``make run`` installs it editable), so the folders
beside the package -- templates/, static/, scoresheets/, docs/rules/ -- are found from here.
"""

from __future__ import annotations

from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent.parent
TEMPLATES_DIR = PROJECT_ROOT / "templates"
STATIC_DIR = PROJECT_ROOT / "static"
SHEETS_DIR = PROJECT_ROOT / "scoresheets"
RULES_DIR = PROJECT_ROOT / "docs" / "rules"

#: Strict by design: scripts and styles come only from our own static files.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
