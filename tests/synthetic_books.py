"""Hand-made books for the core's tests: pages of text + headings → a ``Book`` whose offsets
follow ``chunking.models`` exactly (pages joined by one ``"\\n"``, empty pages add nothing)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from chunking.models import Book, Diagnostics, Heading, Page


def make_book(pages: Sequence[str], headings: Sequence[tuple[int, int, str, str]] = (),
              *, labels: Sequence[str] | None = None, name: str = "synthetic") -> Book:
    """Build a Book from page texts and headings.

    Args:
        pages: the text of each page (1-based page i+1); ``""`` is an empty page.
        headings: ``(page_index, offset_in_page, kind, title)``; level 1 for parts (or
            chapter-level kinds when there are no parts), +1 per level below.
        labels: printed page labels, default ``""``.
        name: source file name (salts the book id).
    """
    text_parts: list[str] = []
    page_objs: list[Page] = []
    pos = 0
    for i, body in enumerate(pages):
        if body and text_parts:
            pos += 1  # the separator belongs to neither page
        start = pos
        if body:
            text_parts.append(body)
            pos += len(body)
        page_objs.append(Page(number=i + 1, label=(labels[i] if labels else ""), char_start=start,
                              char_end=pos if body else start))
    text = "\n".join(text_parts)
    assert len(text) == pos
    has_parts = any(k == "part" for _, _, k, _ in headings)
    level_of = {"part": 1, "section": 3 if has_parts else 2}
    objs = []
    for page_index, offset, kind, title in headings:
        level = level_of.get(kind, 2 if has_parts else 1)
        page = page_objs[page_index]
        objs.append(Heading(level=level, kind=kind, title=title, number="", page=page.number,
                            page_label=page.label, char_offset=page.char_start + offset, source="headings"))
    objs.sort(key=lambda h: h.char_offset)
    sha = hashlib.sha256((name + "\0" + text).encode()).hexdigest()
    return Book(book_id=sha[:16], sha256=sha, title=name, format="txt", text=text, pages=tuple(page_objs),
                headings=tuple(objs), diagnostics=Diagnostics(pages=len(pages)), source_name=name + ".txt")


def words(k: int, word: str = "word") -> str:
    """A text of exactly ``k`` cl100k/o200k tokens: ``word`` then ``k - 1`` times `` word``."""
    return " ".join([word] * k)


def assert_same_tokenized(a, b) -> None:
    """Two ``TokenizedBook`` are array for array the same stream: tokens, offsets, legality,
    fence token indices, fence characters and pages."""
    import numpy as np

    for name in ("tokens", "char_starts", "legal"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and np.array_equal(x, y), name
    assert a.fence_tokens.keys() == b.fence_tokens.keys()
    for level in a.fence_tokens:
        assert np.array_equal(a.fence_tokens[level], b.fence_tokens[level]), level
    assert a.text_pages == b.text_pages and a._fence_chars == b._fence_chars
    assert a._page_numbers == b._page_numbers and a.encoding == b.encoding
