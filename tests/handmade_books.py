"""Hand-built books and chunks for the inspector's tests (pages, headings and spans by hand).

Offsets follow ``chunking.models``: pages joined by one ``"\\n"``; an empty page adds nothing.
"""

from __future__ import annotations

from chunking.models import Book, Chunk, Diagnostics, Heading, Page


def make_book(page_texts: list[str], chapters: list[tuple[int, int, str]]) -> Book:
    """A Book per the models.py conventions: pages joined by one "\\n"; empty pages add nothing.

    chapters: (page number, offset within that page, title).
    """
    pages, parts, pos = [], [], 0
    for number, text in enumerate(page_texts, start=1):
        if text:
            if parts:
                pos += 1
            parts.append(text)
        pages.append(Page(number=number, label=str(number + 10), char_start=pos, char_end=pos + len(text)))
        pos += len(text)
    headings = tuple(Heading(level=1, kind="chapter", title=t, number=str(k + 1), page=p,
                             page_label=str(p + 10), char_offset=pages[p - 1].char_start + off,
                             source="outline")
                     for k, (p, off, t) in enumerate(chapters))
    return Book(book_id="0" * 16, sha256="0" * 64, title="t", format="txt", text="\n".join(parts),
                pages=tuple(pages), headings=headings, diagnostics=Diagnostics())


def make_chunks(book: Book, spans: list[tuple[int, int]], chapters: list[str] | None = None,
                reasons: list[str] | None = None) -> list[Chunk]:
    """Chunks over char spans; one "token" per char so token spans equal char spans."""
    out = []
    for k, (s, e) in enumerate(spans):
        ps = next(p for p in book.pages if p.char_end > max(s, p.char_start))
        pe = next(p for p in reversed(book.pages) if p.char_end > p.char_start and p.char_start < e)
        prev_end = spans[k - 1][1] if k else s
        out.append(Chunk(id=f"{k:032x}", book_id=book.book_id, order=k, text=book.text[s:e],
                         chapter=(chapters or [""] * len(spans))[k], section="", heading_path=(),
                         page_start=ps.number, page_end=pe.number, page_label_start=ps.label,
                         page_label_end=pe.label, token_start=s, token_end=e, token_count=e - s,
                         char_start=s, char_end=e, overlap_prev_tokens=max(0, prev_end - s),
                         end_reason=(reasons or ["token_limit"] * len(spans))[k]))
    return out


def four_page_book() -> Book:
    """4 pages of 100 chars, page 3 empty; chapter One at page 1, chapter Two mid-page 4 (offset 252)."""
    return make_book(["a" * 100, "b" * 100, "", "c" * 50 + "d" * 50], [(1, 0, "One"), (4, 50, "Two")])
