"""A right-to-left ligature's letters put back in their order (issue 25).

A glyph whose Unicode map gives it several characters (an Arabic ligature: ``ﷲ`` mapped to
``الله``, lam-alef to ``لا``) comes out of MuPDF as its first character over the glyph's box and
the others after it, each of no width, at the box's end. On a right-to-left line MuPDF then
orders the characters by their places, right to left: the characters of no width, at the right
end of the box, come before the first, and the glyph's text is read backwards (``هللا`` for
``الله``), a word the page does not show. Where a run of such characters stands at the very end
of the box of the right-to-left letter that follows it, the letter and the run are one glyph's
text, and they are read in the map's order: that letter, then the run reversed. A left-to-right
glyph's extra characters follow its first one (``ﬁ`` read ``f``, ``i``): never such a run; nor
are an Arabic vowel's marks (no letters), which stand over their letter.
"""

from __future__ import annotations

import re
from typing import Any

from .pdfspaces import _RTL_BYTES, _RTL_LETTERS, lines_rewritten

_RTL_LETTER = re.compile(f"[{_RTL_LETTERS}]")
"""One letter of a right-to-left script (``pdfspaces._RTL_LETTERS``)."""

SAME_X = 0.01
"""Points within which two places on a line are one (a glyph's end, the characters of no width
MuPDF puts there)."""


def with_ligatures_in_order(written: str, stext: Any) -> str:
    """``written`` (MuPDF's text writer's output for ``stext``, word spaces put in or not) with
    every right-to-left ligature MuPDF read backwards read in its map's order (see the module).
    Cheap: a page without a right-to-left letter is left at once; the lines holding one have
    their characters read."""
    shapes = written.encode("utf-8", "surrogatepass").translate(_RTL_BYTES)
    if b"R" not in shapes and b"Ex" not in shapes:
        return written

    def rewrite(line: Any, text: str) -> str:
        if not _RTL_LETTER.search(text):
            return text
        for backwards, forwards in _reversed_ligatures(line):
            text = text.replace(backwards, forwards, 1)
        return text

    return lines_rewritten(written, stext, rewrite)


def _reversed_ligatures(line: Any) -> list[tuple[str, str]]:
    """The ligatures MuPDF read backwards on the structured text's ``line``, in order: each as
    read and as its map gives it; none on a line that is not horizontal."""
    if line.wmode != 0 or abs(line.dir.y) > 1e-3 or line.dir.x <= 0:
        return []
    chars = []
    ch = line.first_char
    while ch is not None:
        chars.append(ch)
        ch = ch.next
    found = []
    k = 0
    while k < len(chars):
        x = _left(chars[k])
        j = k
        while (
            j < len(chars)
            and _no_width(chars[j])
            and abs(_left(chars[j]) - x) <= SAME_X
            and _letter(chars[j])
        ):
            j += 1
        if (
            j > k
            and j < len(chars)
            and _letter(chars[j])
            and abs(_right(chars[j]) - x) <= SAME_X
            and _left(chars[j]) < x - SAME_X
        ):
            run = "".join(chr(c.c) for c in chars[k:j])
            found.append((run + chr(chars[j].c), chr(chars[j].c) + run[::-1]))
            k = j + 1
            continue
        k = max(j, k + 1)
    return found


def _left(ch: Any) -> float:
    return min(ch.quad.ll.x, ch.quad.ul.x)


def _right(ch: Any) -> float:
    return max(ch.quad.lr.x, ch.quad.ur.x)


def _no_width(ch: Any) -> bool:
    return _right(ch) - _left(ch) <= SAME_X


def _letter(ch: Any) -> bool:
    return 0 < ch.c <= 0x10FFFF and not 0xD800 <= ch.c <= 0xDFFF and _RTL_LETTER.match(chr(ch.c)) is not None
