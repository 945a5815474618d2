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

A text printed through PostScript in a base font without an encoding of its own reads its bytes by
Adobe's standard encoding (``STANDARD``), Latin-1 where that names no glyph: a no-break space
prints as ``´ `` (C2 is an acute there), ``©`` as ``´'``. ftfy knows no such
encoding: ``standard_repaired`` maps a line that carries its signature (``STANDARD_SIGNATURE``)
back to bytes and keeps it decoded where the whole line is UTF-8.
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


STANDARD = dict(
    zip(
        "’‘¡¢£⁄¥ƒ§¤'“«‹›ﬁﬂ"
        "–†‡·¶•‚„”»…‰¿"
        "`´ˆ˜¯˘˙¨˚¸˝˛ˇ—"
        "ÆªŁØŒºæıłøœß",
        [
            0x27, 0x60, *range(0xA1, 0xB0),
            0xB1, 0xB2, 0xB3, 0xB4, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xBB, 0xBC, 0xBD, 0xBF,
            *range(0xC1, 0xC9), 0xCA, 0xCB, 0xCD, 0xCE, 0xCF, 0xD0,
            0xE1, 0xE3, 0xE8, 0xE9, 0xEA, 0xEB, 0xF1, 0xF5, 0xF8, 0xF9, 0xFA, 0xFB,
        ],
        strict=True,
    )
)  # fmt: skip
"""Adobe's standard encoding (PostScript's ``StandardEncoding``, the base fonts' own) where it
differs from ASCII and Latin-1: each glyph's character and its byte. A byte it names no glyph for
reads as Latin-1 does. NOTE: ``'`` is its quotesingle (A9) inside a UTF-8 sequence only; elsewhere
an ASCII quote, as it reads in a file that was never misread."""

STANDARD_LEADS = "".join(c for c, b in STANDARD.items() if 0xC2 <= b <= 0xCF and ord(c) != b)
"""The spacing accents the standard encoding reads UTF-8's lead bytes C2 to CF as (``´``
for C2, ``ˆ`` for C3: the Latin letters and signs past ASCII), where Latin-1 reads letters.
NOTE: not its ``—`` (D0, a Cyrillic lead) nor its letters for E1 to F4: a real dash before
a quote (``—“``) is a valid UTF-8 pair once mapped back, and no sign of the accident;
a line whose quotes alone were misread (E2 reads as Latin-1 does) is ftfy's to repair."""

STANDARD_SIGNATURE = re.compile(
    f"[{re.escape(STANDARD_LEADS)}]"
    f"[{re.escape(''.join(sorted({c for c, b in STANDARD.items() if 0x80 <= b < 0xC0})))}- °µ¾]"
)
"""A lead byte as only the standard encoding reads it, followed by a continuation byte as it reads
one (its glyph, or Latin-1 where it names none: ``´ `` for a no-break space)."""


def standard_repaired(line: str) -> str:
    """``line`` decoded again where it is UTF-8 read by the standard encoding (module docstring):
    every character mapped back to its byte (``STANDARD``, else Latin-1) and the whole line
    UTF-8; else ``line`` as it is."""
    out = bytearray()
    pending = 0
    for c in line:
        b = 0xA9 if c == "'" and pending else STANDARD.get(c, ord(c))
        if b > 0xFF:
            return line
        if 0x80 <= b < 0xC0:
            pending = max(0, pending - 1)
        else:
            pending = 1 if 0xC2 <= b <= 0xDF else 2 if 0xE0 <= b <= 0xEF else 3 if 0xF0 <= b <= 0xF4 else 0
        out.append(b)
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        return line


def repaired(text: str) -> tuple[str, int]:
    """``text`` with each line that was UTF-8 read as a single-byte encoding decoded again.

    Returns:
        tuple[str, int]: the text and the number of lines repaired.
    """
    if text.isascii():
        return text, 0
    standard = STANDARD_SIGNATURE.search(text) is not None
    if not standard and not SIGNATURE.search(text):
        return text, 0
    lines = text.split("\n")
    count = 0
    for i, line in enumerate(lines):
        if standard and STANDARD_SIGNATURE.search(line):
            fixed = standard_repaired(line)
            if fixed != line and "\n" not in fixed and "\r" not in fixed:
                lines[i] = fixed
                count += 1
                continue
        if SIGNATURE.search(line):
            fixed = fix_encoding(line)
            if fixed != line and "\n" not in fixed and "\r" not in fixed:
                lines[i] = fixed
                count += 1
    return "\n".join(lines), count
