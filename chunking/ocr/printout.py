"""An OCR'd page printed from a text file: its blank lines and columns put back.

Why: a text file printed in one monospaced font (a manual kept as plain text, a program's
printout) marks its headings only with what a fixed-width page offers: blank lines, indents,
centring, underlines (``chunking.structure.plain_text``). A born-digital printout keeps its
spaces as glyphs and gets its blank lines back from the line pitch
(``chunking.readers.pdftypewriter``); an OCR'd one has neither: Tesseract gives words joined by
one space, one line per text line it found, in blocks of its own making. So such a book, scanned
or with a text layer of glyph ids, lost every heading a text file shows by its layout.

Tesseract names no font, so the printout is told by its geometry, once per page, on its body
(a furniture line in another face is a few words among hundreds):

* **one character advance**: a word's ink width grows by one advance per character; fitted over
  the page's words of two characters or more (``width = advance * n + b``), ``ADVANCE_SHARE`` of
  them lie within ``ADVANCE_SLACK`` advances of the fit. A proportional face's words of one
  length differ by their letters (``mill`` and ``moon``): about half of them do. The advance
  is then refined to the one that sets the words on one grid most closely (``REFINE_STEPS``).
* **one grid of columns**: every word stands in whole columns: its ink centre, less half its
  characters in advances, is a whole number of advances from the page's phase (a monospaced
  face centres each glyph in its cell, so the first and last glyphs' bearings mostly cancel).
  ``GRID_SHARE`` of the words after a row's first lie within ``GRID_SLACK`` of a column; a
  justified or proportional line's inner words fall anywhere (about half do).
* **one line pitch**: ``ON_PITCH`` of the gaps between rows' baselines are within
  ``PITCH_SLACK`` of whole multiples of one pitch (``_pitch``), as on a born-digital printout
  (``pdftypewriter``).

Each needs ``MIN_WORDS`` measured words. A page that is a printout is rebuilt as its text file
was: rows by baseline (Tesseract's lines at one height are one row, whatever blocks it put them
in), a blank line for each whole pitch between two rows (at most ``MAX_BLANK_LINES``), each word
at its column. Columns count from the book's left margin: the leftmost column at which the
printout pages start a line, shared by at least two pages (one page's stray mark is no margin),
so that a page whose lines are all indented keeps its indent.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..readers.pdftypewriter import MAX_BLANK_LINES, ON_PITCH, PITCH_SLACK
from .lines import OcrLine, line_baseline

MIN_WORDS = 12
"""Words of two characters or more a page needs (and inner words of a row) before it is
judged a printout: fewer say nothing about a face."""

ADVANCE_SHARE = 0.85
"""Share of a page's words whose width must fit one advance per character."""

ADVANCE_SLACK = 0.5
"""How far (advances) a word's width may be from the fit: the first and last glyphs' bearings
vary by a fraction of a cell; a letter more or less is a whole one."""

GRID_SHARE = 0.85
"""Share of the words after a row's first that must stand on the page's grid of columns."""

GRID_SLACK = 0.25
"""How far (advances) from a column a word may stand and still be on it."""

REFINE_STEPS = (0.003, 0.0003)
REFINE_TRIES = 20
"""The fitted advance is refined to the one that sets the words closest to one grid: tried in
steps of the first share of it, ``REFINE_TRIES`` either way (6 %), then around the best in
steps of the second. A word's ink width says the advance within a few per cent (a page with a
drawing in characters, a misread word, less), and a per cent is most of a column across a line
of 80; a grid's peak is about half a per cent wide there, wider than the coarse steps."""

SAME_ROW = 0.4
"""Lines whose baselines are within this share of their type size stand on one row."""


@dataclass(frozen=True)
class _Grid:
    """A printout page: its character advance and line pitch (points), its rows (row number
    counted in pitches from the first, the words at their columns) and its leftmost column's
    left edge (points)."""

    advance: float
    rows: list[tuple[int, list[tuple[int, str]]]]
    left_column: int
    left: float


def printout_texts(pages: Sequence[Sequence[OcrLine]]) -> list[str | None]:
    """For each OCR'd page of one book (its lines), the text of the text file it was printed
    from when it is a monospaced printout (module docstring), else None (left as OCR read it)."""
    grids = [_grid(lines) for lines in pages]
    lefts = [g.left for g in grids if g is not None]
    out: list[str | None] = []
    for grid in grids:
        if grid is None:
            out.append(None)
            continue
        margin = _margin(lefts, grid.advance)
        indent = max(0, round((grid.left - margin) / grid.advance))
        out.append(_text(grid, indent))
    return out


def _margin(lefts: list[float], advance: float) -> float:
    """The book's left margin: the leftmost of the pages' left edges that another page shares
    within half an advance (the only page's own when there is one)."""
    shared = [x for x in lefts if sum(abs(y - x) <= advance / 2 for y in lefts) >= min(2, len(lefts))]
    return min(shared) if shared else min(lefts)


def _text(grid: _Grid, indent: int) -> str:
    """The page's text: rows with their blank lines, each word at its column (``indent`` columns
    in from the book's margin at the page's leftmost one); a word that would overlap the one
    before it on its row (a misread count of characters) follows it after one space."""
    out: list[str] = []
    above: int | None = None
    for row, words in grid.rows:
        if above is not None:
            out.extend([""] * min(row - above - 1, MAX_BLANK_LINES))
        above = row
        line = ""
        for column, word in sorted(words):
            at = column - grid.left_column + indent
            at = max(at, len(line) + 1) if line else at
            line += " " * (at - len(line)) + word
        out.append(line)
    return "\n".join(out)


def _grid(lines: Sequence[OcrLine]) -> _Grid | None:
    """The page's grid when it is a monospaced printout (module docstring), else None."""
    words = [
        (text, left, right)
        for line in lines
        if len(line.words) == len(texts := line.text.split(" "))
        for text, (left, right, _) in zip(texts, line.words)
    ]
    fitted = _advance([(len(text), right - left) for text, left, right in words if len(text) >= 2])
    if fitted is None:
        return None
    rows = _rows([line for line in lines if line.words])
    if rows is None:
        return None
    centres = [((left + right) / 2, len(text)) for text, left, right in words]
    advance = fitted
    for step in REFINE_STEPS:  # NOTE: coarse to fine, each round around the last one's best
        advance = max(
            (advance * (1 + k * step) for k in range(-REFINE_TRIES, REFINE_TRIES + 1)),
            key=lambda a: _concentration([c / a - n / 2 for c, n in centres]),
        )
    phase = _phase([c / advance - n / 2 for c, n in centres])
    placed: list[tuple[int, list[tuple[int, str]]]] = []
    inner: list[float] = []
    for row, row_lines in rows:
        cells = []
        for line in row_lines:
            for text, (left, right, _) in zip(line.text.split(" "), line.words):
                u = (left + right) / 2 / advance - len(text) / 2 - phase
                cells.append((u, text))
        cells.sort()
        inner.extend(u - round(u) for u, _ in cells[1:])
        placed.append((row, [(round(u), text) for u, text in cells]))
    if len(inner) < MIN_WORDS or sum(abs(d) <= GRID_SLACK for d in inner) < GRID_SHARE * len(inner):
        return None
    left_column = min(column for _, cells in placed for column, _ in cells)
    return _Grid(advance, placed, left_column, (left_column + phase) * advance)


def _advance(measured: list[tuple[int, float]]) -> float | None:
    """The advance (points a character) of a page whose words (characters, ink width) fit one
    (``ADVANCE_SHARE`` within ``ADVANCE_SLACK``), fitted by least squares; else None."""
    if len(measured) < MIN_WORDS:
        return None
    mean_n = statistics.fmean(n for n, _ in measured)
    mean_w = statistics.fmean(w for _, w in measured)
    spread = sum((n - mean_n) ** 2 for n, _ in measured)
    if not spread:
        return None
    advance = sum((n - mean_n) * (w - mean_w) for n, w in measured) / spread
    if advance <= 0:
        return None
    offset = mean_w - advance * mean_n
    fits = sum(abs(w - advance * n - offset) <= ADVANCE_SLACK * advance for n, w in measured)
    return advance if fits >= ADVANCE_SHARE * len(measured) else None


def _phase(positions: list[float]) -> float:
    """Where a page's columns fall (a share of an advance): the circular mean of the words'
    positions (in advances) modulo one."""
    angles = [2 * math.pi * p for p in positions]
    return math.atan2(sum(map(math.sin, angles)), sum(map(math.cos, angles))) / (2 * math.pi)


def _concentration(positions: list[float]) -> float:
    """How closely the words' positions (in advances) gather on one phase: the length of their
    mean on the unit circle (1: all on whole columns of one grid; near 0: anywhere)."""
    angles = [2 * math.pi * p for p in positions]
    return math.hypot(sum(map(math.sin, angles)), sum(map(math.cos, angles))) / max(1, len(angles))


def _rows(lines: list[OcrLine]) -> list[tuple[int, list[OcrLine]]] | None:
    """The page's lines gathered into rows by baseline (``SAME_ROW``), each row numbered in line
    pitches from the first, when the gaps between rows keep one pitch; else None."""
    based = sorted(
        ((b, line) for line in lines if (b := line_baseline(line)) is not None), key=lambda bl: bl[0]
    )
    if not based:
        return None
    rows: list[list[tuple[float, OcrLine]]] = []
    for b, line in based:
        if rows and b - rows[-1][0][0] <= SAME_ROW * line.size:
            rows[-1].append((b, line))
        else:
            rows.append([(b, line)])
    heights = [statistics.median(b for b, _ in row) for row in rows]
    if len(heights) < 2:
        return None
    pitch = _pitch([b - a for a, b in zip(heights, heights[1:])])
    if pitch is None:
        return None
    return [(round((h - heights[0]) / pitch), [line for _, line in row]) for h, row in zip(heights, rows)]


def _pitch(gaps: list[float]) -> float | None:
    """The line pitch of a page whose gaps between rows (points) keep one: the smallest gap that
    recurs (or the smallest of all) on which ``ON_PITCH`` of the gaps are whole multiples within
    ``PITCH_SLACK``, taken as the mean of the gaps within a point of it; else None. NOTE: not
    the smallest gap alone, as on a born-digital page (``pdftypewriter``): a baseline measured
    on the ink is off by a point or two now and then (a row of brackets, bars and quotes), and
    so is the smallest gap."""
    counts = Counter(round(g) for g in gaps if round(g) > 0)
    smallest = min(counts, default=0)
    for gap in sorted(g for g, n in counts.items() if n >= 2 or g == smallest):
        pitch = statistics.fmean(g for g in gaps if abs(g - gap) <= 1)
        if sum(abs(g / pitch - round(g / pitch)) <= PITCH_SLACK for g in gaps) >= ON_PITCH * len(gaps):
            return pitch
    return None
