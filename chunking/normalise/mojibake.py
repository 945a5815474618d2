"""Stage 2 (normalise): text that was UTF-8, decoded as a single-byte encoding on its way here.

A file written in UTF-8 and read back as Latin-1 or Windows-1252 before it was printed or
converted (a text printer, a converter run in the wrong locale, a file converted twice) shows
each non-ASCII character as two or three others: ``Chapter\u00c2\u00a01.`` for a no-break space,
``na\u00c3\u00afve`` for ``naïve``, ``don\u00e2\u0080\u0099t`` for ``don’t``. Such words are
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

CONTINUATIONS = "".join(
    {bytes([b]).decode(codec, errors="ignore") for b in range(0x80, 0xC0) for codec in ("latin-1", "cp1252")}
)
"""The characters a UTF-8 continuation byte (80 to BF) reads as in Latin-1 or Windows-1252."""

SIGNATURE = re.compile(f"[\u00c2-\u00f4][{re.escape(''.join(sorted(CONTINUATIONS)))}]|[\u00c2\u00c3] ")
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
