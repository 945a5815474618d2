"""Stage 2 (normalise): text that was UTF-8, decoded as a single-byte encoding on its way here.

A file written in UTF-8 and read back as Latin-1 or Windows-1252 before it was printed or
converted (a text printer, a converter run in the wrong locale, a file converted twice) shows
each non-ASCII character as two or three others: ``Chapter\u00c2\u00a01.`` for a no-break space,
``Rapha\u00c3\u00abl`` for ``Raphaël``, ``don\u00e2\u0080\u0099t`` for ``don’t``. Such words are
unsearchable, and a heading whose space became ``Â`` + no-break space is no numbered heading.

``repaired`` hands each line that carries the signature of that accident (``SIGNATURE``: a Latin-1
letter that opens a UTF-8 sequence followed by a character that continues one) to ftfy's
``fix_encoding``, which re-encodes it and keeps the result only where it decodes as UTF-8 and reads
better by ftfy's own measure of mojibake, so real text with such pairs (``«café»``) stays as it is.
Line by line, because a page may mix repaired and sound lines, and so that a line's prefix repairs
as the whole line does (``NormalisedBook.map_offset``). A line break is ASCII and never part of a
sequence, so the lines stay the lines of the raw page.
"""

from __future__ import annotations

import re

from ftfy import fix_encoding

SIGNATURE = re.compile(
    "[\u00c2-\u00f4]"
    "[\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc"
    "\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122]"
    "|[\u00c2\u00c3] "
)
"""A character that opens a UTF-8 sequence as Latin-1 reads its lead byte (``Â`` to ``ô``:
bytes C2 to F4) followed by one that continues it as Latin-1 or Windows-1252 reads a continuation
byte (80 to BF), or ``Â``/``Ã`` before a plain space (a no-break space's byte A0 turned into a
space on the way, ``Chapter\u00c2 1.``): a cheap test before ftfy weighs the line."""


def repaired(text: str) -> tuple[str, int]:
    """``text`` with each line that was UTF-8 read as a single-byte encoding decoded again.

    Returns:
        tuple[str, int]: the text and the number of lines repaired.
    """
    if text.isascii() or not SIGNATURE.search(text):
        return text, 0
    lines = text.split("\n")
    count = 0
    for i, line in enumerate(lines):
        if SIGNATURE.search(line):
            fixed = fix_encoding(line)
            if fixed != line and "\n" not in fixed and "\r" not in fixed:
                lines[i] = fixed
                count += 1
    return "\n".join(lines), count
