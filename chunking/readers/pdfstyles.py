"""The fonts and sizes of a page's text runs, from MuPDF's own HTML writer (issue 25).

MuPDF's structured text gives each glyph its font and size, but reading them glyph by glyph
from Python costs about as much as the whole page's text (a quarter more on every page). Its
HTML writer walks the same structured text in C and opens a ``<span>`` wherever the font or
the size changes, one ``<p>`` per text line: written and scanned, it tells for a tenth of a
page read which fonts the page's text is set in (``Styles.fonts``, what
``pdftypewriter`` asks of a page first) and on which lines the size changes between two
letters or digits (``Styles.size_changes``, where a script may stand apart from its word:
``pdfspaces.script_apart``), so only those lines have their glyphs read.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

import pymupdf

_SPAN = re.compile(r'<span style="font-family:([^;"]*);font-size:([0-9.]+)pt[^"]*">([^<]*)</span>')
"""A run of the HTML writer: its font family (the font's name cut at ``-``, then a generic
family), its size (points, one decimal) and its text (escaped)."""

_SIZE = re.compile(r"font-size:([0-9.]+)pt")
_FAMILY = re.compile(r'font-family:([^;"]*)')


@dataclass
class Styles:
    """A page's text runs as MuPDF's HTML writer gives them: per text line (in the order of its
    text writer's lines), the runs as (size, text), none on a line set at one size; and every
    font family the runs are set in, as the writer names it: the font's name cut at ``-``, a
    comma, MuPDF's generic family (``Courier,monospace``, ``CMR10,serif``)."""

    lines: list[list[tuple[float, str]]]
    fonts: set[str]

    def size_changes(self, written: str) -> dict[int, list[int]]:
        """Per line of ``written`` (the page's text writer's output, lines split at newlines;
        0-based), the indices of the characters after which the size changes and both that
        character and the next are letters or digits (``str.isalnum``). Only a line whose runs
        spell it exactly is looked at, and only one with a run of two characters or more
        (between spaces and changes of size): glyphs set one by one, as a formula's
        pieces often are (``d`` and its exponent alone on a line), are spaced by their own
        gaps, which a script's gap does not stand out from. None when the lines do not pair up
        one for one."""
        lines = written.split("\n")
        numbered = [i for i, line in enumerate(lines) if line]
        if len(numbered) != len(self.lines):
            return {}
        found: dict[int, list[int]] = {}
        for i, runs in zip(numbered, self.lines):
            if len(runs) < 2 or len({size for size, _ in runs}) < 2:
                continue
            if "".join(text for _, text in runs) != lines[i]:
                continue
            if all(len(piece) < 2 for text in _size_runs(runs) for piece in text.split()):
                continue  # NOTE: glyphs set one by one (``d`` and its exponent alone on a line)
            k, spots = 0, []
            for (size, text), (next_size, after) in zip(runs, runs[1:]):
                k += len(text)
                if size != next_size and text[-1:].isalnum() and after[:1].isalnum():
                    spots.append(k - 1)
            if spots:
                found[i] = spots
        return found


def _size_runs(runs: list[tuple[float, str]]) -> list[str]:
    """The texts of ``runs`` with neighbours of one size joined (a change of font alone, ``2``
    upright and ``σ`` italic, parts no word)."""
    joined: list[str] = []
    last = None
    for size, text in runs:
        if size == last:
            joined[-1] += text
        else:
            joined.append(text)
        last = size
    return joined


def page_styles(stext: Any) -> Styles | None:
    """The text runs of ``stext`` (see ``Styles``), from MuPDF's HTML writer; None when its
    output is no UTF-8."""
    buffer = pymupdf.mupdf.FzBuffer(4096)
    out = pymupdf.mupdf.FzOutput(buffer)
    pymupdf.mupdf.fz_print_stext_page_as_html(out, stext, 0)
    out.fz_close_output()
    try:
        written = pymupdf.mupdf.fz_buffer_extract(buffer).decode("utf-8")
    except UnicodeDecodeError:
        return None
    fonts = set(_FAMILY.findall(written))
    paragraphs = written.split("<p ")[1:]
    if len(set(_SIZE.findall(written))) < 2:  # NOTE: a page set at one size has no size change
        return Styles([[] for _ in paragraphs], fonts)
    lines: list[list[tuple[float, str]]] = []
    for paragraph in paragraphs:
        # NOTE: only a line of two runs or more is parsed (a regular expression per run costs
        # more than the page's HTML did to write)
        if paragraph.count("font-size:") < 2 or len(set(_SIZE.findall(paragraph))) < 2:
            lines.append([])
            continue
        lines.append(
            [
                (float(size), html.unescape(text) if "&" in text else text)
                for _, size, text in _SPAN.findall(paragraph)
            ]
        )
    return Styles(lines, fonts)
