"""Text written for a terminal: ANSI escape sequences, which are no text, and the bold they set.

A program that writes for a terminal (a converter's ``ansi`` output, a pager's dump, a coloured
log) styles its text with escape sequences (ECMA-48): CSI ``ESC [`` parameters, intermediates
and a final byte (``ESC[1m`` bold, ``ESC[0m`` reset, SGR), OSC ``ESC ]`` … ended by BEL or by
ST ``ESC \\`` (OSC 8 hyperlinks: ``ESC]8;;url ESC\\``), the string commands DCS, SOS, PM and APC
ended by ST, and escapes with intermediate bytes (``ESC(B``). None of it is text: ``ESCAPE`` removes each
sequence whole, as normalisation removes a control character (``chunking.normalise``), before
the canonical text is built, so offsets stay exact. Removing only the ESC byte would leave
``[1m`` and ``[0m`` in the text as words nobody wrote.

What the sequences said survives where the plain-text structure has a place for it: a line set
wholly in bold (``sgr_bold_lines``), as nroff's overstruck bold is (``NormalisedBook.bold_lines``).
"""

from __future__ import annotations

import re

ESCAPE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: parameters, intermediates, final byte
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\|(?=\x1b)|$)"  # OSC, ended by BEL or ST
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\|(?=\x1b)|$)"  # DCS, SOS, PM, APC, ended by ST
    r"|\x1b[ -/]+[0-~]"  # an escape with intermediates (``ESC(B``: a character set chosen)
)
"""An ECMA-48 escape sequence, whole (module docstring); an unterminated string command ends
at the next ESC or the text's end. An ESC before a lone letter is left to the control
characters' removal, which keeps the letter: a stray ESC byte is likelier than a bare ``ESC D``."""

_SGR = re.compile(r"\x1b\[([0-9;:]*)m")
"""Select Graphic Rendition: ``ESC[`` parameters ``m``."""

BOLD_ON = "1"
"""SGR parameter: bold (increased intensity)."""

BOLD_OFF = frozenset({"", "0", "22"})
"""SGR parameters that end bold: a reset (``0``, or none at all) and normal intensity (``22``)."""

EXTENDED_COLOUR = {"38", "48", "58"}
"""SGR parameters that take a colour after them (``38;5;n``, ``38;2;r;g;b``): those numbers are
the colour's, not attributes."""

MIN_BOLD_CHARS = 2
"""A line is set in bold when at least this many characters of it are bold and nothing else
but spaces (as ``chunking.normalise.MIN_BOLD_GLYPHS`` for overstruck bold)."""


def _bold_after(params: str, bold: bool) -> bool:
    """Whether bold is on after an SGR sequence with ``params``, bold being ``bold`` before it."""
    values = params.split(";")
    k = 0
    while k < len(values):
        value = values[k].split(":")[0]
        if value in EXTENDED_COLOUR and ":" not in values[k]:
            k += {"5": 3, "2": 5}.get(values[k + 1] if k + 1 < len(values) else "", 1)
            continue
        if value == BOLD_ON:
            bold = True
        elif value in BOLD_OFF:
            bold = False
        k += 1
    return bold


def _visible(text: str) -> int:
    """Characters of ``text`` a terminal shows: neither spaces nor control characters."""
    return sum(ch.isprintable() and not ch.isspace() for ch in text)


def sgr_bold_lines(text: str) -> set[int]:
    """Indices of the lines of ``text`` (split at ``"\\n"``) whose visible characters are all set
    in bold by SGR sequences, at least ``MIN_BOLD_CHARS`` of them; bold carries over a line end
    until a sequence ends it, as on a terminal."""
    out: set[int] = set()
    bold = False
    for i, line in enumerate(text.split("\n")):
        if "\x1b" not in line:
            if bold and _visible(line) >= MIN_BOLD_CHARS:
                out.add(i)
            continue
        shown = plain = 0
        pos = 0
        for m in ESCAPE.finditer(line):
            run = _visible(line[pos : m.start()])
            shown, plain = shown + run * bold, plain + run * (not bold)
            if (sgr := _SGR.fullmatch(m.group(0))) is not None:
                bold = _bold_after(sgr.group(1), bold)
            pos = m.end()
        run = _visible(line[pos:])
        shown, plain = shown + run * bold, plain + run * (not bold)
        if shown >= MIN_BOLD_CHARS and not plain:
            out.add(i)
    return out
