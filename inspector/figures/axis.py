"""App stage (figures): the page axis every figure shares, and helpers of their hover text.

Positions along the book are *page coordinates*: ``page + fraction``, where the fraction is how
far into that page's canonical text (``Page.char_start``…``Page.char_end``) a character lies; so
``int(position)`` is always the physical page of the character and a bar's base equals its
chunk's ``page_start``. Token spans are half-open ``[token_start, token_end)`` (``chunking.models``).
Book strings put into a figure are HTML-escaped: plotly renders a few tags (``<b>``, ``<a href>``)
in text and decodes entities back for display.
"""

from __future__ import annotations

import html
from typing import Sequence

import numpy as np

from chunking.models import Book, Chunk
from chunking.readers.text import PAGE_CHARS


def page_positions(book: Book, chars: Sequence[int] | np.ndarray) -> np.ndarray:
    """Map char offsets of ``book.text`` to page coordinates (``page + fraction`` within the page).

    A char between two pages (the separator) maps to the end of the earlier page.

    Args:
        book (Book): the book whose pages define the axis.
        chars (Sequence[int] | np.ndarray): offsets into ``book.text``.

    Returns:
        np.ndarray: float positions, one per offset.
    """
    pages = [p for p in book.pages if p.char_end > p.char_start] or list(book.pages[:1])
    starts = np.array([p.char_start for p in pages], dtype=np.int64)
    ends = np.array([p.char_end for p in pages], dtype=np.int64)
    numbers = np.array([p.number for p in pages], dtype=np.float64)
    c = np.asarray(chars, dtype=np.int64)
    idx = np.clip(np.searchsorted(starts, c, side="right") - 1, 0, len(pages) - 1)
    length = np.maximum(ends[idx] - starts[idx], 1)
    # NOTE: 0.999 keeps the end of a page on that page, so int(position) is the page number.
    frac = np.clip((c - starts[idx]) / length, 0.0, 0.999)
    return numbers[idx] + frac


def chunk_lanes(chunks: Sequence[Chunk]) -> list[int]:
    """Assign each chunk the lowest lane free at its start, so overlapping chunks never share one.

    Returns:
        list[int]: lane per chunk (0-based), in the chunks' order.
    """
    lane_end: list[int] = []
    lanes = []
    for c in chunks:
        for lane, end in enumerate(lane_end):
            if end <= c.token_start:
                lane_end[lane] = c.token_end
                lanes.append(lane)
                break
        else:
            lane_end.append(c.token_end)
            lanes.append(len(lane_end) - 1)
    return lanes


def page_label(page: int, label: str) -> str:
    """``"12 (p. xii)"``: a physical page and its printed label, HTML-escaped (the label is book
    data; plotly renders ``<b>``, ``<br>``, ``<span style>`` and ``<a href>`` in hover text)."""
    return f"{page} (p. {html.escape(label)})" if label else str(page)


def book_end(book: Book) -> int:
    """The page coordinate just past the book's last page (the right end of every page axis)."""
    return max((p.number for p in book.pages), default=1) + 1


def page_axis_name(book: Book) -> str:
    """What the page axis counts, in a few words: a PDF's physical pages, an EPUB's print pages, or
    the synthetic pages a reader cut (TXT, Markdown, EPUB without a page list), so an axis never
    calls a synthetic page "physical"."""
    if book.format == "pdf":
        return "physical page"
    synthetic = sum(p.synthetic for p in book.pages)
    if synthetic == 0:
        return "print page"
    if synthetic == len(book.pages):
        return f"synthetic page (≈{PAGE_CHARS:,} characters)"
    return "page (print or synthetic)"
