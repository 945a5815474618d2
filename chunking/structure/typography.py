"""Stage 3 (structure), typography: font-size probes on the few lines that could be headings.

Contract: ``FontProbe(layout)`` tells the font size of a candidate line (``size_of``) and of the
body text (``body_size``) of a printed book (``chunking.readers.layout.PageLayout``); a heading is set at least ``HEADING_RATIO`` times the
body. ``page.get_text("dict")`` is several times costlier than plain text, so it runs only on
pages that hold a candidate line (cached per page, often only their top band), and on a few
sample pages when those do not show enough body text. Without a layout (EPUB, text) every
answer is ``None`` (unknown).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..normalise import printed_chars
from ..readers.layout import LayoutLine, PageLayout
from .kinds import compact_key

HEADING_RATIO = 1.15
"""A heading's largest glyphs are at least this many times the body size."""

_SAMPLE_PAGES = 5

_ENOUGH_CHARS = 3000
"""Probed text needed to trust the body size without reading sample pages."""

TOP_BAND = 0.4
"""Share of the page height read for candidates among the first lines of a page."""


def _key(text: str) -> str:
    """``compact_key`` of the text with the canonical text's characters (``printed_chars``:
    PyMuPDF's spans keep ligatures and TeX's spacing accents apart)."""
    return compact_key(printed_chars(text))


class FontProbe:
    """Font sizes of candidate heading lines of one printed book.

    Args:
        layout (PageLayout | None): the book's page layout, or None for formats without one.
    """

    def __init__(self, layout: PageLayout | None):
        self.layout = layout
        self._pages: dict[tuple[int, bool], list[LayoutLine]] = {}
        self._keys: dict[tuple[int, bool], list[tuple[str, float]]] = {}
        self._body: float | None = None

    def styled_lines(self, index: int) -> list[tuple[str, float, bool, float]]:
        """Page ``index``'s lines as (text, largest size, every span bold, left x) (the whole
        page; only the weight-and-indent fallback needs weight and indent)."""
        return [(ln.text, ln.size, ln.bold, ln.x0) for ln in self._read(index, False)]

    def lines(self, index: int, top: bool = False) -> list[tuple[str, float]]:
        """Page ``index``'s text lines with their largest font size, in reading order (only the
        top band of the page with ``top``)."""
        return self._lines(index, top)

    def _read(self, index: int, top: bool) -> list[LayoutLine]:
        # NOTE: a clip makes MuPDF skip glyphs outside it: the top band of a page costs about a
        # quarter of the whole page, and most heading candidates stand there.
        key = (index, top)
        if key not in self._pages:
            assert self.layout is not None  # callers ask only when the book has a layout
            self._pages[key] = self.layout.lines(index, TOP_BAND if top else None)
        return self._pages[key]

    def _lines(self, index: int, top: bool = False) -> list[tuple[str, float]]:
        return [(ln.text, ln.size) for ln in self._read(index, top)]

    def body_size(self) -> float | None:
        """The most common font size, by characters, of the text read so far.

        NOTE: the pages already probed for candidates (whole pages or top bands, mostly body
        text) are reused when they hold enough text; otherwise a few evenly spread pages are
        read.
        """
        if self._body is None and self.layout is not None:
            sizes = self._sizes([(ln.text, ln.size) for ln in lines] for lines in self._pages.values())
            if sum(sizes.values()) < _ENOUGH_CHARS or len(self._pages) < 3:
                n = self.layout.page_count
                picks = sorted({int(i * n / _SAMPLE_PAGES) for i in range(_SAMPLE_PAGES)})
                sizes += self._sizes(self._lines(index) for index in picks)
            self._body = sizes.most_common(1)[0][0] if sizes else 0.0
        return self._body or None

    @staticmethod
    def _sizes(pages: Any) -> Counter:
        sizes: Counter = Counter()
        for lines in pages:
            for text, size in lines:
                sizes[round(size * 2) / 2] += len(text)
        return sizes

    def style_of(self, index: int, line: str) -> tuple[float, bool] | None:
        """The largest font size and the weight (every span bold) of the PDF line of page
        ``index`` (the whole page read) whose text is ``line``; None when no line has it."""
        if self.layout is None:
            return None
        target = _key(line)
        if not target:
            return None
        for ln in self._read(index, False):
            if _key(ln.text) == target:
                return ln.size, ln.bold
        return None

    def size_of(self, index: int, line: str, top: bool = False) -> float | None:
        """The largest font size on the PDF line of page ``index`` whose text is ``line``.

        Args:
            index (int): 0-based page index.
            line (str): the line's text (as in the canonical text).
            top (bool): the line is among the first lines of its page: only the top band of the
                page is read, which is much cheaper. Defaults to False.
        """
        if self.layout is None:
            return None
        target = _key(line)
        if not target:
            return None
        keyed = self._keys.get((index, top))
        if keyed is None:  # NOTE: keyed once per page read: a page is asked about several lines
            keyed = self._keys[(index, top)] = [(_key(text), size) for text, size in self._lines(index, top)]
        best = None
        for key, size in keyed:
            if key == target:
                best = size if best is None else max(best, size)
        return best
