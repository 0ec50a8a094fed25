"""The printed sheets' text layer: what copying, searching or a screen reader gets from the PDF, the same
words as the page shows, in every script.

WeasyPrint maps each glyph to the text of the first cluster it drew it in, for the whole document: in
Devanagari a vowel sign drawn before its consonant (ि in दि) is one glyph of a cluster of two, so the
vowel sign's glyph maps to nothing (some readers then print the glyph's number as a letter, "ɞ") and the
consonant's glyph to "दि" ever after ("बादि" for बाद); an Arabic ligature is read in the wrong order.
:func:`install` makes two changes to how WeasyPrint draws a line of text:

- each glyph is mapped to the letter it is the font's own glyph for, and a glyph of a cluster that is no
  letter's own (a vowel sign's variant, a conjunct, a ligature) to the rest of its cluster, so the font's
  map is right whatever cluster a glyph came first in;
- a line of a script whose glyphs are reordered or joined (Indic, Arabic, Hebrew, Thai ...) is marked
  with its text as set (PDF's ``/ActualText``), which readers that honour it (poppler's pdftotext,
  Acrobat) extract in place of the glyphs, in logical order.
"""

from __future__ import annotations

import re
from io import BytesIO

#: Scripts whose shaping reorders, splits or joins letters: Hebrew to Arabic's presentation forms, the Indic
#: scripts to Myanmar, Khmer, and the Arabic presentation forms.
SHAPED = re.compile("[\u0590-\u08ff\u0900-\u0dff\u0e00-\u0eff\u0f00-\u109f\u1780-\u17ff\ufb1d-\ufdff\ufe70-\ufefc]")

_installed = False


def install() -> None:
    """Draw every later sheet's text with the text layer described above (once per process)."""
    global _installed
    if _installed:
        return
    from weasyprint.draw import text as drawing

    drawn = drawing.draw_first_line

    def draw_first_line(stream, textbox, text_overflow, block_ellipsis, matrix):
        text = textbox.pango_layout.text
        if not SHAPED.search(text or "") or not text.strip():
            return drawn(stream, textbox, text_overflow, block_ellipsis, matrix)
        _map_glyphs(stream, textbox)
        import pydyf

        stream.begin_marked_content("Span", pydyf.Dictionary({"ActualText": pydyf.String(_line_text(textbox))}))
        try:
            return drawn(stream, textbox, text_overflow, block_ellipsis, matrix)
        finally:
            stream.end_marked_content()

    drawing.draw_first_line = draw_first_line
    _installed = True


def _line_text(textbox) -> str:
    """The text of the first line of ``textbox``'s layout, run by run from left to right as drawn, a
    right-to-left run's letters reversed: as the glyphs stand, which is how readers take a text layer,
    turning each right-to-left word back themselves."""
    from weasyprint.text.ffi import ffi

    first_line, _ = textbox.pango_layout.get_first_line()
    encoded = textbox.pango_layout.text.encode()
    said = []
    run = first_line.runs[0]
    while run != ffi.NULL:
        item, run = run.data.item, run.next
        text = encoded[item.offset:item.offset + item.length].decode()
        said.append(text[::-1] if item.analysis.level % 2 else text)
    return "".join(said)


#: Each font file's own glyphs (:func:`_own_glyphs`), by WeasyPrint's hash of the file.
_OWN: dict[str, dict[int, str]] = {}


def _own_glyphs(font) -> dict[int, str]:
    """Each glyph that is a letter's own in ``font`` (by its cmap), and that letter."""
    if font.hash not in _OWN:
        _OWN[font.hash] = _read_cmap(font.file_content, font.index)
    return _OWN[font.hash]


def _read_cmap(file_content: bytes, index: int) -> dict[int, str]:
    from fontTools.ttLib import TTFont

    font = TTFont(BytesIO(file_content), fontNumber=index, lazy=True)
    order = {name: gid for gid, name in enumerate(font.getGlyphOrder())}
    own: dict[int, str] = {}
    for codepoint, name in sorted(font.getBestCmap().items()):
        own.setdefault(order[name], chr(codepoint))
    return own


def _map_glyphs(stream, textbox) -> None:
    """Map the first line's glyphs not yet mapped: each to its own letter, or to what its cluster has left."""
    from weasyprint.text.ffi import ffi, pango

    first_line, _ = textbox.pango_layout.get_first_line()
    encoded = textbox.pango_layout.text.encode()
    run = first_line.runs[0]
    while run != ffi.NULL:
        glyph_item, run = run.data, run.next
        font, _ = stream.add_font(glyph_item.item.analysis.font)
        if font.bitmap:
            continue
        own = _own_glyphs(font)
        glyphs = glyph_item.glyphs
        offset, length = glyph_item.item.offset, glyph_item.item.length
        starts = [glyphs.log_clusters[i] for i in range(glyphs.num_glyphs)]
        ids = [glyphs.glyphs[i].glyph for i in range(glyphs.num_glyphs)]
        bounds = sorted(set(starts)) + [length]
        for start in set(starts):
            end = bounds[bounds.index(start) + 1]
            cluster = encoded[offset + start:offset + end].decode()
            members = [gid for gid, at in zip(ids, starts, strict=True) if at == start
                       and gid != pango.PANGO_GLYPH_EMPTY and not gid & pango.PANGO_GLYPH_UNKNOWN_FLAG]
            rtl = glyph_item.item.analysis.level % 2
            _map_cluster(font.to_unicode, own, members, cluster[::-1] if rtl else cluster)


def _map_cluster(mapped: dict[int, str], own: dict[int, str], members: list[int], cluster: str) -> None:
    """Map a cluster's glyphs: a glyph that is a letter's own to that letter, the first other to the letters
    left over (in the order set), any further one to nothing."""
    left = list(cluster)
    for gid in members:
        if own.get(gid) in left:
            left.remove(own[gid])
    rest = "".join(left)
    for gid in members:
        if gid in mapped:
            continue
        if gid in own and own[gid] in cluster:
            mapped[gid] = own[gid]
        else:
            mapped[gid], rest = rest, ""
