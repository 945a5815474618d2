"""Word spaces MuPDF leaves out after characters of most scripts (issue 25).

MuPDF's structured text adds a space where a glyph starts a gap of more than 0.15 em after the
last one, but only when the last character is of the Latin, Greek, Cyrillic, Hebrew or Arabic
blocks, general punctuation or currency (its ``may_add_space``: below U+0700 or in
U+2000-U+20CF). After any other character the gap is dropped: ``⟨language⟩ is`` came out
``⟨language⟩is``, ``x ∈ A`` as ``x ∈A``, a CJK phrase glued to the number after it
(``中文约 500`` as ``中文约500``). pdftotext, and the page, have the space; between two CJK
characters a gap is justification and stays without one. This module finds those
gaps in the page's own glyph positions and puts the space back, by MuPDF's own measure, so a
gap after ``⟩`` counts as it would after ``)``.
"""

from __future__ import annotations

import re
from typing import Any

SPACE_DIST = 0.15
"""MuPDF's threshold: a gap wider than this share of the font size is a word space."""

SPACE_MAX_DIST = 0.8
"""Beyond this share MuPDF starts a new line; such glyphs never share a line, so no gap is larger."""

_AFTER_UNSPACED = re.compile(r"[^\s\x00-\u06ff\u2000-\u20cf](?=[^\W_])")
"""A character after which MuPDF adds no space, followed by a letter or digit on the same line:
where a word space may be missing (the only places this module looks at; before punctuation a
missing space splits no word)."""


_WIDE = re.compile("[\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]")
"""CJK characters, kana and their punctuation: a line of them has no word spaces, and a gap
between two of them is justification (letter spacing), no word boundary."""


def with_gap_spaces(written: str, stext: Any) -> str:
    """``written`` (MuPDF's text writer's output for ``stext``: each line ended by a newline,
    each block by another) with a space put into every gap MuPDF skipped (see the module).

    Cheap on most pages: a regular expression over the text finds the lines that hold such a
    character before another; only those lines' glyphs are read. When the writer's lines do not
    pair up one for one with the structured text's, the text is left as it is."""
    if not _AFTER_UNSPACED.search(written):
        return written
    lines = written.split("\n")
    numbered = [i for i, line in enumerate(lines) if line]
    stext_lines = [line for block in stext if block.m_internal.type == 0 for line in block]
    if len(numbered) != len(stext_lines):
        return written
    changed = False
    for i, line in zip(numbered, stext_lines):
        text = lines[i]
        spots = [
            m.start()
            for m in _AFTER_UNSPACED.finditer(text)
            if not (_WIDE.match(text, m.start()) and _WIDE.match(text, m.start() + 1))
        ]
        if not spots:
            continue
        gaps = _gaps(line.m_internal, text, spots)
        if gaps:
            for k in reversed(gaps):
                text = text[: k + 1] + " " + text[k + 1 :]
            lines[i] = text
            changed = True
    return "\n".join(lines) if changed else written


def _gaps(line: Any, text: str, spots: list[int]) -> list[int]:
    """Which of ``spots`` (indices of characters in the line's ``text``) a gap of more than
    ``SPACE_DIST`` em follows, measured along a horizontal line from the end of the glyph's
    advance to the next glyph's origin; none on a vertical or turned line, or where the line's
    glyphs are not the text's characters one for one."""
    if line.wmode != 0 or abs(line.dir.y) > 1e-3 or line.dir.x <= 0:
        return []
    found = []
    want = set(spots)
    last = spots[-1]
    ch, k = line.first_char, 0
    while ch is not None and k <= last:
        nxt = ch.next
        if k in want:
            if nxt is None or ch.c != ord(text[k]):
                return []
            gap = nxt.origin.x - ch.quad.lr.x
            if ch.size > 0 and SPACE_DIST < gap / ch.size < SPACE_MAX_DIST:
                found.append(k)
        ch, k = nxt, k + 1
    return found
