"""Stage 1 (read), PDF: the blank lines of a typewritten page.

A PDF printed from a text file (enscript, a2ps, an RFC, a manual kept as plain text) sets every
line in one monospaced font at one pitch, and draws a blank line as nothing: MuPDF's text of the
page has none, so the paragraphs, the rules above headings and the space around titles, which a
plain text's structure is read from (``chunking.structure.plain_text``), are gone. On such a
page the blank lines come back from the line pitch: a gap of two pitches between two lines is one
blank line, three are two. A printer's own header in another font (a2ps's date and ``Page N/M``
over each page, Emacs' boxed file name, page and date) is passed over: the monospaced lines must
hold ``MONOSPACED_SHARE`` of the page's characters, and either ``INDENTED_SHARE`` of its lines
must open with spaces (the file's margin, which a typeset page with code on it never draws) or
every line in another font must stand apart from them, above their first line or below their
last with a blank line's space between (``APART_PITCHES``: a header or footer in the page's
margin, where a typeset listing's caption or heading sits right over it); only gaps between the
monospaced lines count. The decision rests on the body, whatever font the furniture is in. A
page whose lines do not keep one pitch is left as it is. A page with a blank line after every
line (a list of figures, a contents) has no gap of one pitch: a smallest gap of ``SPARSE_PITCHES``
type sizes or more is two pitches.

A printer that sets each line at its column by moving the pen (CUPS' texttopdf), not by drawing
the file's leading spaces, leaves MuPDF's lines without them: the indents, the centring and the
flush-left headings a text file's structure is read from. On a typewritten page each
monospaced line gets back a space per character advance between its start and the page's
leftmost line's, where no line opens with a drawn space (``_with_columns``).

A printer that numbers lines (trueprint, enscript, a2ps) sets them in a gutter before each line,
in a smaller size than the text: its runs, blank or holding a line number, are no text of the
line, and a line of the gutter alone is a blank line of the file (``_without_gutter``); so is a
line of spaces alone. Else every line would open with the gutter's glyphs, and the file's blank
lines, drawn as a gutter, would be lines of text.
"""

from __future__ import annotations

import json
import re
import statistics
from collections import Counter
from collections.abc import Collection
from typing import Any

import pymupdf

MONOSPACED_NAME = re.compile(
    r"courier|mono|typewriter|cmtt|lmtt|consol|menlo|fixed|terminal|letter ?gothic|ocr-?[ab]", re.I
)
"""Font names of monospaced faces: a cheap test before the page's lines are read with their fonts."""

MAX_BLANK_LINES = 3
"""Blank lines put back for one gap at most (a page's lower part left empty is no text)."""

ON_PITCH = 0.9
"""Share of the gaps between successive lines that must be whole multiples of the pitch, or the
page keeps no one pitch (a form, a table laid out by position)."""

MONOSPACED_SHARE = 0.9
"""Share of a page's characters that must be set in a monospaced font (the rest: a printer's
header, short lines of a date, a file name and ``Page N/M``)."""

INDENTED_SHARE = 0.85
"""Share of a page's lines that open with spaces, on a page with fonts of both kinds, before it is
taken for a printout under a printer's header: a printout keeps the text file's own spaces as
glyphs (its margin, its indents), which a typeset page, code listings and all, never draws."""

APART_PITCHES = 2.0
"""How far (line pitches) a line in another font must stand above the first monospaced line or
below the last one to be the printer's header or footer: a blank line's space at least."""

GUTTER = re.compile(r"[ \d]+")
"""A gutter's run: blank, or a line number."""

GUTTER_SHARE = 0.9
"""Share of a page's monospaced lines that must open with a gutter (a run of ``GUTTER`` set
smaller than the line's text, or the smaller size alone) before the page is taken to have one."""

SIZE_SLACK = 0.1
"""Points by which two readings of one size may differ (MuPDF's JSON and HTML writers round it
differently)."""

SPARSE_PITCHES = 1.9
"""Type sizes from one line to the next (the page's smallest gap) at which the gap is two pitches,
a blank line between every two lines: a printer sets a text's lines 1 to 1.5 sizes apart."""

COLUMN_LINE = 20
"""Characters a monospaced line needs to measure the page's character advance by (its width per
character: a short line's bearings weigh too much)."""

PITCH_SLACK = 0.15
"""How far from a whole multiple of the pitch (a share of it) a gap may be and still be on it."""


def with_typewriter_blank_lines(
    text: str,
    stext: Any,
    page: pymupdf.Page,
    fonts: Collection[str] | None = None,
    runs: list[list[tuple[float, str]]] | None = None,
) -> str:
    """``text`` (the page's lines, one per line, as ``page_text`` writes ``stext``) with the blank
    lines a typewritten page draws as nothing put back (module docstring); any other page's
    ``text`` unchanged. ``fonts``: the names of the fonts the page's text is set in
    (``pdfstyles.Styles.fonts``, with MuPDF's generic family); by default the page's font
    resources are read for them (NOTE: a tenth of a page read more). ``runs``: per line, its
    runs as (size, text) where it has two sizes (``pdfstyles.Styles.lines``), which tell a
    printer's gutter (``_without_gutter``)."""
    if fonts is None:
        fonts = [font[3] for font in page.get_fonts(full=False)]
    monospaced = [bool(MONOSPACED_NAME.search(name)) for name in fonts]
    if not any(monospaced):
        return text
    lines = text.split("\n")
    written = [line for line in lines if line]
    indented = all(monospaced) or sum(line.startswith(" ") for line in written) >= INDENTED_SHARE * len(
        written
    )
    boxed = _lines(stext)
    if boxed is None or len(boxed) != len(written):
        return text
    if any(a.replace(" ", "") != b.replace(" ", "") for (a, _, _, _), b in zip(boxed, written)):
        return text
    typed_chars = sum(len(line.strip()) for line, _, mono, _ in boxed if mono)
    if typed_chars < MONOSPACED_SHARE * sum(len(line.strip()) for line, _, _, _ in boxed):
        return text
    typed = [pos for _, pos, mono, _ in boxed if mono]
    gaps = [below - above for above, below in zip(typed, typed[1:]) if below > above]
    pitch = _pitch(gaps)
    if pitch is None:
        return text
    sizes = sorted(size for _, _, mono, size in boxed if mono)
    if sizes and pitch >= SPARSE_PITCHES * sizes[len(sizes) // 2]:
        # NOTE: a page whose every line stands a blank line from the next (a list with a blank
        # line after each entry) has no two lines one pitch apart: its smallest gap is two
        pitch /= 2
    if not indented and not _furniture_apart(boxed, pitch):
        return text  # NOTE: a typeset page with code in it, not a printout under a header
    written = _without_gutter(written, boxed, runs)
    written = _with_columns(written, stext, [mono for _, _, mono, _ in boxed])
    out = [written[0]]
    above: float | None = boxed[0][1] if boxed[0][2] else None
    header = None if boxed[0][2] else boxed[0][1]
    for (_, below, mono, _), line in zip(boxed[1:], written[1:]):
        if mono and above is not None:
            blanks = round((below - above) / pitch) - 1
            out.extend([""] * max(0, min(blanks, MAX_BLANK_LINES)))
        elif mono and header is not None and below - header >= APART_PITCHES * pitch * (1 - PITCH_SLACK):
            out.append("")  # NOTE: the printer's header stands apart from the text below it
        if mono:
            above = below
        elif above is None:
            header = below if header is None else max(header, below)
        out.append(line)
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def _without_gutter(
    written: list[str],
    boxed: list[tuple[str, float, bool, float]],
    runs: list[list[tuple[float, str]]] | None,
) -> list[str]:
    """``written`` (a typewritten page's lines, one per line of ``boxed``) with a printer's gutter
    taken off (module docstring): where ``GUTTER_SHARE`` of the monospaced lines open with a run
    of ``GUTTER`` set smaller than the rest of the line, or are set at that smaller size alone
    and hold nothing else, that run is dropped and such a line is blank; a line of spaces alone
    is blank too. ``runs`` as ``with_typewriter_blank_lines`` takes them."""
    out = ["" if mono and not line.strip() else line for line, (_, _, mono, _) in zip(written, boxed)]
    if runs is None or len(runs) != len(written):
        return out
    opened = [
        r[0][0]
        for r, line in zip(runs, written)
        if len(r) >= 2
        and r[0][0] < max(size for size, _ in r)
        and GUTTER.fullmatch(r[0][1])
        and "".join(t for _, t in r) == line
    ]
    if not opened:
        return out
    size = Counter(opened).most_common(1)[0][0]
    mono = [k for k, (_, _, is_mono, _) in enumerate(boxed) if is_mono]
    cut: dict[int, int] = {}
    for k in mono:
        r = runs[k]
        if r and r[0][0] == size and GUTTER.fullmatch(r[0][1]) and "".join(t for _, t in r) == written[k]:
            cut[k] = len(r[0][1])
        elif not r and abs(boxed[k][3] - size) <= SIZE_SLACK and GUTTER.fullmatch(written[k]):
            cut[k] = len(written[k])
    if len(cut) < GUTTER_SHARE * len(mono):
        return out
    return [line[cut[k] :] if k in cut else line for k, line in enumerate(out)]


def _with_columns(written: list[str], stext: Any, monospaced: list[bool]) -> list[str]:
    """``written`` with each monospaced line that starts right of the page's leftmost one given
    a space for each character advance in between (module docstring: a printer that moves the
    pen to a line's column instead of drawing its leading spaces); the advance is the median
    width per character of the page's monospaced lines of ``COLUMN_LINE`` characters or more.
    A page where a monospaced line opens with a space is left as it is: its printer draws the
    file's spaces, and a line starting further in is no column of the file (a header set apart)."""
    if any(line.startswith(" ") for line, mono in zip(written, monospaced) if mono):
        return written  # NOTE: the printer draws its spaces: its lines' starts are no columns
    lines = stext_lines(stext)
    if lines is None or len(lines) != len(written):
        return written
    try:
        lefts = [float(ln["bbox"]["x"]) for ln in lines]
        advances = [
            float(ln["bbox"]["w"]) / len(ln["text"])
            for ln, mono in zip(lines, monospaced)
            if mono and len(ln["text"]) >= COLUMN_LINE
        ]
    except (ValueError, KeyError, TypeError, ZeroDivisionError):
        return written
    if not advances or (advance := statistics.median(advances)) <= 0:
        return written
    left = min(x for x, mono in zip(lefts, monospaced) if mono)
    return [
        " " * max(0, round((x - left) / advance)) + line if mono and line.strip() else line
        for line, x, mono in zip(written, lefts, monospaced)
    ]


def _furniture_apart(boxed: list[tuple[str, float, bool, float]], pitch: float) -> bool:
    """Whether every line of ``boxed`` in another font than the monospaced body stands above its
    first line or below its last by ``APART_PITCHES`` pitches or more (a printer's header or
    footer in the page's margin)."""
    typed = [pos for _, pos, mono, _ in boxed if mono]
    if not typed:
        return False
    top, bottom, apart = min(typed), max(typed), APART_PITCHES * pitch * (1 - PITCH_SLACK)
    return all(pos <= top - apart or pos >= bottom + apart for _, pos, mono, _ in boxed if not mono)


def _pitch(gaps: list[float]) -> float | None:
    """The line pitch of a page whose gaps between successive lines (points) are whole multiples
    of one pitch: the smallest gap, or else the smallest that recurs (a stray line a little off
    the grid), when ``ON_PITCH`` of the gaps are within ``PITCH_SLACK`` of a multiple of it;
    else None (a page laid out by position). Baselines come in whole points, so a pitch of 8.96
    reads as gaps of 8 and 9: the mean of the gaps within a point of the smallest is tried too."""
    counts = Counter(round(g) for g in gaps if round(g) > 0)
    recurring = [g for g, n in counts.items() if n >= 2]
    smallest = min(counts, default=0)
    near = [g for g in gaps if abs(g - smallest) <= 1]
    mean = round(sum(near) / len(near), 2) if smallest and near else 0
    for pitch in sorted({smallest, min(recurring, default=0), mean} - {0}):
        on = sum(abs(g / pitch - round(g / pitch)) <= PITCH_SLACK for g in gaps)
        if on >= ON_PITCH * len(gaps):
            return float(pitch)
    return None


def stext_lines(stext: Any) -> list[dict] | None:
    """Every text line of ``stext`` as MuPDF's JSON writer gives it (``text``, ``bbox`` in whole
    points, baseline ``y``, ``font`` with its ``family``), in the order its text writer writes
    them; None when its output cannot be read."""
    buffer = pymupdf.mupdf.FzBuffer(4096)
    out = pymupdf.mupdf.FzOutput(buffer)
    pymupdf.mupdf.fz_print_stext_page_as_json(out, stext, 1.0)
    out.fz_close_output()
    try:
        blocks = json.loads(pymupdf.mupdf.fz_buffer_extract(buffer).decode("utf-8", "replace"))["blocks"]
        return [line for block in blocks if block.get("type") == "text" for line in block["lines"]]
    except (ValueError, KeyError, TypeError):
        return None


def _monospaced(font: dict) -> bool:
    """Whether a line's font (MuPDF's JSON) is monospaced: MuPDF's generic family says so, or
    the font's name does (``MONOSPACED_NAME``): a TrueType program without the tables that state
    a fixed pitch (no ``post``, no ``OS/2``) is a serif face to MuPDF, whatever it draws."""
    return font["family"] == "monospace" or bool(MONOSPACED_NAME.search(font["name"]))


def _lines(stext: Any) -> list[tuple[str, float, bool, float]] | None:
    """Every text line of ``stext`` as (text, baseline y, set in a monospaced font, the size of
    its first glyph); None when MuPDF's JSON cannot be read."""
    lines = stext_lines(stext)
    try:
        return (
            None
            if lines is None
            else [
                (ln["text"], float(ln["y"]), _monospaced(ln["font"]), float(ln["font"]["size"]))
                for ln in lines
            ]
        )
    except (ValueError, KeyError, TypeError):
        return None
