"""Letter-spaced capitals that MuPDF read apart here and there, read as words again (issue 25).

Why: MuPDF puts a word space wherever the gap after a glyph passes 0.15 em. Capitals and small
capitals are often set with letter spacing (tracking) of about that much; where the tracking
sits right at the threshold, rounding decides gap by gap, and a heading ``GRAPHICAL PRACTICE``
comes out ``GRA PHIC AL P RACT IC E``: every word broken, none found by search.
``pdfspaces.with_tracking_joined`` joins a word read wholly letter by letter (``A B S T R A C
T``); here the word is read in pieces of any length.

What tells such a space from a word space: the gap where MuPDF put the space is as wide as the
gaps between the letters inside the pieces (their middle one, within ``pdfspaces.TRACKING_EVEN``),
where a word space adds a space's width to the tracking. Since MuPDF spaces gaps of 0.15 em and
more, those letters then stand 0.1 em apart at least: a tracked word (an untracked word's letters
touch, kerning moving them by a few hundredths of an em). Only a
run of capitals in pieces, one of them a letter or two long, is looked at (``_PIECES``), and only
its line's glyphs are read.
"""

from __future__ import annotations

import re
from statistics import median
from typing import Any

from .pdfspaces import TRACKING_EVEN, TRACKING_MAX, line_glyphs, spaces_dropped

_CAPITAL = "A-ZÀ-ÖØ-Þ"
_PIECES = re.compile(rf"(?<![^\W_])[{_CAPITAL}]+(?: [{_CAPITAL}]+)+(?![^\W_])")
"""Capitals in two pieces or more, a space apart: where MuPDF may have read letter-spaced
capitals apart (``GRA PHIC AL``, ``T H EORY``)."""

_SHORT_PIECE = re.compile(rf"(?<![{_CAPITAL}])[{_CAPITAL}]{{1,2}}(?![{_CAPITAL}])")
"""A piece of one or two capitals: a run of long capital words only (``TABLE OF CONTENTS``) is no
word read apart."""

_CAPITAL_SHAPES = bytes(
    ord("A") if 65 <= b <= 90 else ord("a") if 97 <= b <= 122 else ord(" ") if b == 32 else ord(".")
    for b in range(256)
)
"""A byte table that reads a text's UTF-8 as ASCII capitals (``A``), small letters, spaces and the
rest: two pieces of capitals, one of them longer than a letter, hold ``AA A`` or ``A AA`` (found
in C, a tenth of the regular expression's cost). NOTE: a run whose every cut touches a capital
beyond ASCII (``É``) is missed; a character beyond ASCII counted as a capital let any page of
symbols through (``⟨a⟩ ⟨b⟩``)."""


def with_tracked_capitals_joined(written: str, stext: Any) -> str:
    """``written`` (as in ``pdfspaces.with_gap_spaces``) with letter-spaced capitals that MuPDF
    read in pieces joined into their words (see the module); a line whose glyphs are not its
    text's characters one for one is left as it is."""
    shapes = written.encode("utf-8", "surrogatepass").translate(_CAPITAL_SHAPES)
    if b"AA A" not in shapes and b"A AA" not in shapes:
        return written
    if not any(_SHORT_PIECE.search(m.group(0)) for m in _PIECES.finditer(written)):
        return written
    return spaces_dropped(written, stext, _short_runs, _tracked_spaces)


def _short_runs(text: str) -> list[tuple[int, int]]:
    """The runs of capital pieces in ``text`` with a piece of one or two letters."""
    return [m.span() for m in _PIECES.finditer(text) if _SHORT_PIECE.search(m.group(0))]


def _tracked_spaces(line: Any, text: str, runs: list[tuple[int, int]]) -> set[int]:
    """Indices of the spaces inside ``runs`` (spans of ``_PIECES`` in the line's ``text``) that
    stand inside a letter-spaced word; none on a vertical or turned line."""
    glyphs = line_glyphs(line, text, runs[-1][1] - 1)
    if glyphs is None:
        return set()

    def gap(a: int, b: int) -> float:
        size = glyphs[a].size
        return (glyphs[b].origin.x - glyphs[a].quad.lr.x) / size if size > 0 else TRACKING_MAX + 1

    drop: set[int] = set()
    for start, end in runs:
        spaces = [k for k in range(start, end) if text[k] == " "]
        inner = [gap(k, k + 1) for k in range(start, end - 1) if text[k] != " " and text[k + 1] != " "]
        if not inner:
            continue  # NOTE: single letters only: ``with_tracking_joined``'s
        tracking = median(inner)
        drop.update(
            k
            for k in spaces
            if abs(gap(k - 1, k + 1) - tracking) <= TRACKING_EVEN and gap(k - 1, k + 1) <= TRACKING_MAX
        )
    return drop
