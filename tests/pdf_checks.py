"""What a printed page holds, read back from the PDF: each text span's size (pypdf), each word's box
(poppler's pdftotext -bbox), and the text (pdftotext), for the print tests."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

import pytest
from pypdf import PdfReader

MM = 72 / 25.4
#: No word comes nearer than this to the paper's edge, in points.
EDGE = 5 * MM
#: Nothing is printed smaller than this, in points.
SMALLEST = 7.5
BIDI_CONTROLS = dict.fromkeys([*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F])


def needs_poppler() -> None:
    if shutil.which("pdftotext") is None:
        pytest.skip("needs poppler-utils (pdftotext): scripts/system-deps.sh installs it")


def text_sizes(pdf: bytes) -> list[tuple[float, str]]:
    """Every non-blank span of text and its printed size in points: the font size through the text
    matrix and the page's transformations (an SVG chart scaled to its column included)."""
    found: list[tuple[float, str]] = []

    def visit(text, cm, tm, _font, size):
        if not text.strip() or not size:
            return
        a, b, c, d = tm[0] * cm[0] + tm[1] * cm[2], tm[0] * cm[1] + tm[1] * cm[3], \
            tm[2] * cm[0] + tm[3] * cm[2], tm[2] * cm[1] + tm[3] * cm[3]
        found.append((round(size * abs(a * d - b * c) ** 0.5, 2), text.strip()))

    for page in PdfReader(BytesIO(pdf)).pages:
        page.extract_text(visitor_text=visit)
    return found


def too_small(pdf: bytes) -> list[tuple[float, str]]:
    return sorted({(size, text[:40]) for size, text in text_sizes(pdf) if size < SMALLEST - 0.01})


@dataclass(frozen=True)
class Word:
    page: int
    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    width: float
    height: float

    def edge_gap(self) -> float:
        """How near the word comes to the nearest edge of its paper, in points."""
        return min(self.x0, self.y0, self.width - self.x1, self.height - self.y1)


def _poppler(tool: list[str], pdf: bytes) -> str:
    needs_poppler()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "sheet.pdf"
        path.write_bytes(pdf)
        return subprocess.run([*tool, str(path), "-"], capture_output=True, text=True, check=True).stdout


def words(pdf: bytes) -> list[Word]:
    """Every word on every page with its box, as poppler lays the text out."""
    out = []
    pages = re.findall(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', _poppler(["pdftotext", "-bbox"], pdf),
                       re.S)
    for n, (width, height, body) in enumerate(pages, 1):
        for x0, y0, x1, y1, text in re.findall(
                r'<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">(.*?)</word>', body):
            out.append(Word(n, text, float(x0), float(y0), float(x1), float(y1), float(width), float(height)))
    return out


def near_the_edge(pdf: bytes) -> list[Word]:
    """The words that come within 5 mm of the paper's edge."""
    return [w for w in words(pdf) if w.edge_gap() < EDGE - 0.01]


def page_texts(pdf: bytes) -> list[str]:
    """Each page's text as poppler reads it (bidi controls taken out)."""
    return _poppler(["pdftotext"], pdf).translate(BIDI_CONTROLS).split("\f")[:-1]


def page_count(pdf: bytes) -> int:
    return len(PdfReader(BytesIO(pdf)).pages)


def page_words(pdf: bytes, page: int) -> list[tuple[str, float, float]]:
    """A page's words with their places measured from its first word's, in reading order."""
    found = [w for w in words(pdf) if w.page == page]
    x, y = found[0].x0, found[0].y0
    return sorted((w.text, round(w.x0 - x, 1), round(w.y0 - y, 1)) for w in found)


def layout_differences(one: bytes, other: bytes) -> list:
    """Where two PDFs of the same sheet differ but for their margins: the page counts, or words that are not
    the same or not in the same place (within half a point) on the same page."""
    if page_count(one) != page_count(other):
        return [("pages", page_count(one), page_count(other))]
    for page in range(1, page_count(one) + 1):
        a, b = page_words(one, page), page_words(other, page)
        if [w[0] for w in a] != [w[0] for w in b]:
            return [("words on page", page)]
        moved = [(x, y) for x, y in zip(a, b, strict=True) if max(abs(x[1] - y[1]), abs(x[2] - y[2])) > 0.5]
        if moved:
            return moved[:5]
    return []
