"""Small real PDFs built with PyMuPDF for the ingestion tests (no fixtures on disk).

``make_pdf`` lays out each page's lines top to bottom, each with its own font size, so tests
can build running headers (small), chapter headings (large), outlines with destinations
(``doc.set_toc``), page labels and passwords exactly as real books have them.

A line is either ``(text, size)`` (Helvetica at ``LEFT``) or a ``Text`` with its own font
(PyMuPDF base14: ``helv``/``hebo``, ``tiro``/``tibo``, ``cour``/``cobo``), size, x position or
alignment and extra space above it, so generated books can vary typography the way real ones do.
``header``/``footer`` give each page its furniture as a function of the 0-based page index
(folios, a running header naming the current chapter, a printer slug whose digits change).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import pymupdf

BODY = 10.0
TOP = 60.0
LEFT = 72.0
WIDTH = 595.0
HEIGHT = 842.0
RIGHT = WIDTH - LEFT
LEADING = 1.5
"""Line pitch as a multiple of the font size (what ``line_tops`` has always used)."""
HEADER_TOP = 30.0
"""Top y of the first header line: above ``TOP``, where real running heads sit."""
FOOTER_BOTTOM = HEIGHT - 30.0
"""Baseline of the last footer line: below any body line a generated page holds."""


@dataclass(frozen=True)
class Text:
    """One line with its own typography.

    Attributes:
        text: the line's text.
        size: font size in points.
        font: a PyMuPDF base14 font name (``helv``, ``hebo``, ``tiro``, ``tibo``, ``cour``...).
        x: left edge in points, or None for ``LEFT`` (ignored unless ``align`` is ``left``).
        align: ``left``, ``center`` or ``right`` (between ``LEFT`` and ``RIGHT``).
        space_before: extra points above the line (paragraph gaps, space above headings).
        inline: drawn on the previous line's baseline (a folio beside a running header),
            taking no vertical space of its own.
    """

    text: str
    size: float = BODY
    font: str = "helv"
    x: float | None = None
    align: str = "left"
    space_before: float = 0.0
    inline: bool = False

    def width(self) -> float:
        return text_width(self.text, self.font, self.size)

    def left(self) -> float:
        if self.align == "center":
            return (LEFT + RIGHT - self.width()) / 2
        if self.align == "right":
            return RIGHT - self.width()
        return LEFT if self.x is None else self.x


@lru_cache(maxsize=4096)
def _glyph_width(char: str, font: str) -> float:
    return pymupdf.get_text_length(char, fontname=font, fontsize=1.0)


def text_width(text: str, font: str = "helv", size: float = BODY) -> float:
    """Width of ``text`` in points as ``insert_text`` sets it (base14 fonts: no kerning, so the
    sum of cached glyph widths; ``get_text_length`` per call was the generators' main cost)."""
    return size * sum(_glyph_width(char, font) for char in text)


Line = tuple[str, float]
AnyLine = Line | Text
Furniture = Callable[[int], list[AnyLine]]


def as_text(line: AnyLine) -> Text:
    """A ``(text, size)`` tuple as the ``Text`` ``make_pdf`` always drew it (Helvetica at LEFT)."""
    return line if isinstance(line, Text) else Text(line[0], line[1])


def body(n: int, start: int = 0, words: str = "plain body text about the topic at hand") -> list[Line]:
    """``n`` distinct body-size lines (distinct so none looks like a running header)."""
    return [(f"Line {start + i} {words} number {start + i}.", BODY) for i in range(n)]


def line_tops(lines: list[AnyLine], top: float = TOP) -> list[float]:
    """The top y (points from the page top) where ``make_pdf`` places each line."""
    tops, y = [], top
    for line in lines:
        item = as_text(line)
        if item.inline and tops:
            tops.append(tops[-1])
            continue
        y += item.space_before
        tops.append(y)
        y += item.size * LEADING
    return tops


def lines_height(lines: list[AnyLine]) -> float:
    """Vertical space ``make_pdf`` uses for ``lines`` (so generators can paginate)."""
    items = [as_text(line) for line in lines]
    return sum(i.space_before + i.size * LEADING for n, i in enumerate(items) if not (i.inline and n))


def _draw(shape: pymupdf.Shape, lines: list[AnyLine], top: float) -> None:
    for line, y in zip(lines, line_tops(lines, top)):
        item = as_text(line)
        shape.insert_text((item.left(), y + item.size), item.text, fontsize=item.size, fontname=item.font)


def make_pdf(
    pages: list[list[AnyLine]],
    *,
    toc: list[tuple[int, str, int, float | None]] | None = None,
    labels: list[dict] | None = None,
    title: str = "",
    password: str | None = None,
    image_pages: tuple[int, ...] = (),
    header: Furniture | None = None,
    footer: Furniture | None = None,
) -> bytes:
    """Build a PDF.

    Args:
        pages: per page, its lines as (text, font size) or ``Text``; an empty list makes a blank page.
        toc: outline entries (level, title, 1-based page, top y in points or None).
        labels: ``doc.set_page_labels`` rules.
        title: metadata title.
        password: encrypt with this user password (AES-256).
        image_pages: 0-based pages that get a small image and no text.
        header: 0-based page index -> lines drawn from ``HEADER_TOP`` down, before the body (in
            content order, as typesetters emit them). Lines on one baseline: give them the same
            baseline with ``Text(..., inline=True)``.
        footer: 0-based page index -> lines drawn so the last one ends at ``FOOTER_BOTTOM``,
            after the body.
    """
    doc = pymupdf.open()
    for index, lines in enumerate(pages):
        page = doc.new_page(width=WIDTH, height=HEIGHT)
        shape = page.new_shape()  # one commit per page: page.insert_text per line cost 0.6 ms each
        if header is not None:
            _draw(shape, header(index), HEADER_TOP)
        _draw(shape, lines, TOP)
        if footer is not None:
            below = footer(index)
            if below:
                last = as_text(below[-1])
                _draw(shape, below, FOOTER_BOTTOM - lines_height(below) + last.size * (LEADING - 1))
        shape.commit()
        if index in image_pages:
            pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 8, 8), False)
            pix.clear_with(200)
            page.insert_image(pymupdf.Rect(100, 100, 200, 200), pixmap=pix)
    if toc:
        items = []
        for level, name, page, top in toc:
            dest = {"kind": pymupdf.LINK_GOTO, "page": page - 1}
            if top is not None:
                # NOTE: set_toc takes the point in page space (origin top-left) and writes the
                # PDF's /XYZ in PDF space itself (842 - top).
                dest["to"] = pymupdf.Point(LEFT, top)
            items.append([level, name, page, dest])
        doc.set_toc(items)
    if labels:
        doc.set_page_labels(labels)
    if title:
        doc.set_metadata({"title": title})
    if password:
        return doc.tobytes(
            encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw=password, owner_pw=password + "-owner"
        )
    return doc.tobytes()


def gutter_printout(pages: list[list[str]], numbered: bool = False, size: float = 10.0) -> bytes:
    """A text file printed in Courier by a printer that sets a gutter before each line in a
    smaller size (seven tenths of ``size``) on the line's baseline: blank, or the line's number
    when ``numbered``; a blank line of the file is the gutter alone. Each page under a header in
    Helvetica (date and ``Page N of M``) and over a footer (``- N``)."""
    doc = pymupdf.open()
    small, pitch, left = size * 0.7, size * 1.1, 36.0
    number = 0
    for k, lines in enumerate(pages):
        page = doc.new_page(width=WIDTH, height=HEIGHT)
        page.insert_text((left, 40), "Fri Jan 01 00:00:00 1980", fontsize=size, fontname="helv")
        page.insert_text((RIGHT, 40), f"Page {k + 1} of {len(pages)}", fontsize=size, fontname="helv")
        for j, line in enumerate(lines):
            number += 1
            y = 70 + j * pitch
            gutter = f"{number:>5} " if numbered else " "
            if line:
                page.insert_text((left, y), gutter, fontsize=small, fontname="cour")
                page.insert_text((left + len(gutter) * small * 0.6, y), line, fontsize=size, fontname="cour")
            else:
                page.insert_text(
                    (left, y), f"{number:>5}" if numbered else " " * 11, fontsize=small, fontname="cour"
                )
        page.insert_text((WIDTH / 2, HEIGHT - 30), f"- {k + 1}", fontsize=size, fontname="helv")
    return doc.tobytes()
