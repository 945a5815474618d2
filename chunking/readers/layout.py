"""What the structure stage may ask of a page's layout, typed: lines with fonts, blocks, heights.

The structure engine needs a little more than text for a printed book: the font size (and
weight, and left edge) of candidate heading lines, where lines sit on the page (to resolve an
outline destination's y), and the page height. ``PageLayout`` is that view; ``PdfLayout``
answers it for a PDF, every question about a page's content under the page limits (it asks the
bounded page reader, ``chunking.readers.pdfchild``). Readers of formats without a layout
(EPUB, TXT, Markdown) give None, and every layout signal then stays silent. The structure stage
never sees the document itself, so it cannot reach into the reader's objects.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import pymupdf

from ..errors import PageRefused

if TYPE_CHECKING:
    from ..ocr.lines import OcrLine


@dataclass(frozen=True)
class LayoutLine:
    """One text line of a page as laid out.

    Attributes:
        text (str): the line's text (its non-blank spans joined).
        size (float): the line's type size, in points: the font size (em) of its largest
            type. A text layer states it (the largest span's size); an OCR'd line's is measured
            from its words' boxes (``chunking.ocr.lines``), so headings on scanned pages stand
            out from the body as they do on born-digital ones.
        bold (bool): every non-blank span is bold (never known on an OCR'd line: False).
        x0 (float): the line's left edge, in points from the page's left.
    """

    text: str
    size: float
    bold: bool
    x0: float


@dataclass(frozen=True)
class LayoutBlock:
    """One text block: its top and bottom (points from the page top) and its text, lines by ``\\n``."""

    y0: float
    y1: float
    text: str


class PageLayout(Protocol):
    """The layout questions a structure signal may ask, by 0-based page index."""

    @property
    def page_count(self) -> int:
        """Pages in the book."""
        ...

    def lines(self, index: int, top_share: float | None = None) -> list[LayoutLine]:
        """The page's text lines in reading order; with ``top_share`` only those in that top
        share of the page (much cheaper: glyphs outside are skipped)."""
        ...

    def blocks(self, index: int) -> list[LayoutBlock]:
        """The page's text blocks (as cheap as plain text)."""
        ...

    def page_height(self, index: int) -> float:
        """The page's height in points."""
        ...

    def close(self) -> None:
        """Release what the layout holds (an open file)."""
        ...


class PageQuestions(Protocol):
    """Where a page's content is read, bounded (``chunking.readers.pdfchild.BoundedPdf``)."""

    def ask(self, question: str, index: int, arg: Any = None) -> Any:
        """The answer to ``question`` about page ``index``; raises ``PageRefused``."""
        ...

    def close(self) -> None:
        """Close the file."""
        ...


class PdfLayout:
    """``PageLayout`` of a PDF: the page count and heights from the reader's open document (no
    page content is interpreted for them), the lines and blocks from the bounded page reader
    that holds the file (``chunking.readers.pdfchild.BoundedPdf``), where every question about a
    page's content is answered under the page limits. ``close`` closes both.

    A page read by OCR answers from its OCR lines, not from the PDF: it has no text layer, or
    one that is garbage (``chunking.ocr.quality``), whose lines are not the page's text. A page
    whose reading was stopped (``RawPage.lost``) has no lines and no blocks, and neither has a
    page whose question the reader stopped now (``BoundedPdf.stopped``: the reader names them).

    Args:
        doc (pymupdf.Document): the open document.
        pages (PageQuestions): the same file, open in the bounded page reader.
        ocr_lines (Mapping[int, Sequence[OcrLine]] | None): by 0-based page index, the lines of
            the pages read by OCR. Defaults to None (none).
        lost (Collection[int]): 0-based indexes of the pages whose reading was stopped.
            Defaults to none.
    """

    def __init__(
        self,
        doc: pymupdf.Document,
        pages: PageQuestions,
        ocr_lines: Mapping[int, Sequence[OcrLine]] | None = None,
        lost: Collection[int] = (),
    ) -> None:
        self._doc = doc
        self._pages = pages
        self._ocr = dict(ocr_lines or {})
        self._lost = frozenset(lost)

    @property
    def page_count(self) -> int:
        return int(self._doc.page_count)

    def lines(self, index: int, top_share: float | None = None) -> list[LayoutLine]:
        if index in self._lost:
            return []
        if index in self._ocr:
            limit = self.page_height(index) * top_share if top_share is not None else math.inf
            return [LayoutLine(ln.text, ln.size, False, ln.x0) for ln in self._ocr[index] if ln.y0 < limit]
        try:
            return [LayoutLine(*line) for line in self._pages.ask("lines", index, top_share)]
        except PageRefused:
            return []

    def blocks(self, index: int) -> list[LayoutBlock]:
        if index in self._lost:
            return []
        if index in self._ocr:
            return [LayoutBlock(ln.y0, ln.y1, ln.text) for ln in self._ocr[index]]
        try:
            return [LayoutBlock(*block) for block in self._pages.ask("blocks", index)]
        except PageRefused:
            return []

    def page_height(self, index: int) -> float:
        return float(self._doc.page_cropbox(index).height)

    def close(self) -> None:
        self._pages.close()
        self._doc.close()
