"""Shared by every strategy: legal cut points, fenced segments and token span → ``Chunk``.

A strategy decides *where* to cut (a list of ``Span``s over the canonical token stream);
``build_chunks`` turns spans into ``Chunk``s with pages, labels, chapter/section, heading path
and id, after checking ``max_chunks`` (count first, build nothing when over the limit), and links
each chunk to its neighbours and its section span (``chunking.links``).

``is_cut`` says whether a token boundary is a place a chunk may start or end: a character
boundary (rule 6) that is also a boundary of tiktoken's pre-tokenizer pieces, so the chunk's text
re-encodes to exactly the tokens of its span (rule 1 by construction, no re-encoding needed).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ..errors import ChunkLimitError
from ..ids import chunk_id, id_salt
from ..matter import MatterIndex
from ..links import SectionSpans, section_id, with_neighbours
from ..models import Chunk
from ..policy import Policy
from ..rules import ContextIndex
from ..tokens import TokenizedBook, piece_boundary

_NON_SPACE = re.compile(r"\S")


class Span(NamedTuple):
    """One chunk-to-be: ``[token_start, token_end)`` plus its overlap and why it ended."""

    token_start: int
    token_end: int
    overlap_prev_tokens: int
    end_reason: str


def is_cut(tb: TokenizedBook, t: int) -> bool:
    """Return True when token boundary ``t`` is a safe place to start or end a chunk.

    Safe means: not inside a character, and a boundary of tiktoken's regex pieces (a heading
    offset where the text was encoded apart; a non-space followed by a space or tab; a letter or
    digit followed by a newline; a newline followed by a non-space other than ``/``). Then the text on either side
    re-encodes to exactly the stream's tokens.

    Args:
        tb (TokenizedBook): the tokenized book.
        t (int): a token boundary index, ``0 <= t <= n_tokens``.
    """
    if t <= 0 or t >= len(tb.tokens):
        return True
    if not tb.legal[t]:
        return False
    c = int(tb.char_starts[t])
    return tb.is_fence_char(c) or piece_boundary(tb.book.text, c)


def stream_counts(tb: TokenizedBook, start: int, end: int) -> bool:
    """Whether tokens ``[start, end)`` re-encode to exactly ``end - start`` tokens (rule 1 by
    construction): both edges are safe cuts (``is_cut``) and no heading inside cut a tiktoken
    piece apart (``TokenizedBook.has_seam``: a title glued to the word before it). Where not,
    a strategy counts the window by re-encoding it (``Budget.excess``)."""
    return is_cut(tb, start) and is_cut(tb, end) and not tb.has_seam(start, end)


def segments(
    tb: TokenizedBook, level: str | None, fences: Sequence[int] | np.ndarray | None = None
) -> list[tuple[int, int]]:
    """Split the token stream into fenced segments ``[start, end)``.

    Args:
        tb (TokenizedBook): the tokenized book.
        level (str | None): ``chapter`` or ``section`` fences, or None for one segment.
        fences (Sequence[int] | None): sorted inner fence tokens to use instead of ``level``'s
            (``small_chunks.policy_fences``). Defaults to None.

    Returns:
        list[tuple[int, int]]: non-empty segments in order, covering ``[0, n_tokens)``.
    """
    if fences is not None:
        inner = [int(f) for f in fences]
    else:
        inner = tb.fence_tokens[level].tolist() if level else []
    bounds = [0, *inner, tb.n_tokens]
    return [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]


def has_text(tb: TokenizedBook, t0: int, t1: int) -> bool:
    """Return True when tokens ``[t0, t1)`` hold at least one non-whitespace character."""
    return _NON_SPACE.search(tb.book.text, int(tb.char_starts[t0]), int(tb.char_starts[t1])) is not None


def page_count(tb: TokenizedBook, start: int, end: int) -> int:
    """Pages spanned by tokens ``[start, end)`` as ``build_chunks`` counts them: from the first to
    the last non-whitespace character (0 for a book without pages or a span without text)."""
    if not tb.text_pages:
        return 0
    text, cs = tb.book.text, tb.char_starts
    c0, c1 = int(cs[start]), int(cs[end])
    # NOTE: found without slicing the whole span: merge candidates are checked one by one.
    found = _NON_SPACE.search(text, c0, c1)
    if found is None:
        return 0
    first = found.start()
    last = _last_non_space(text, first, c1)
    pages = tb.text_pages
    return pages[tb.page_index_of_char(last)].number - pages[tb.page_index_of_char(first)].number + 1


def _last_non_space(text: str, lo: int, hi: int) -> int:
    """Offset of the last non-whitespace character in ``text[lo:hi]`` (which must hold one)."""
    step = 256
    while True:
        a = max(lo, hi - step)
        tail = text[a:hi].rstrip()
        if tail or a == lo:
            return a + len(tail) - 1
        hi, step = a, step * 4


def build_chunks(tb: TokenizedBook, policy: Policy, spans: list[Span]) -> list[Chunk]:
    """Turn token spans into ``Chunk``s with full provenance.

    Pages, labels and ``ocr`` come from the first and last non-whitespace character of the chunk (a
    leading separator or trailing blank line does not widen the page span); chapter, section and
    heading path from the innermost heading at or before the first non-whitespace character, and
    matter from the unit holding that character (``chunking.matter``).

    Args:
        tb (TokenizedBook): the tokenized book.
        policy (Policy): the policy (its profile and the book's corrections digest salt the ids,
            ``chunking.ids.id_salt``; ``max_chunks`` is enforced).
        spans (list[Span]): ordered, non-empty spans with text.

    Returns:
        list[Chunk]: one chunk per span, ``order`` 0, 1, 2, …

    Raises:
        ChunkLimitError: more spans than ``policy.max_chunks`` (nothing is built).
    """
    if len(spans) > policy.max_chunks:
        raise ChunkLimitError(
            f"book {tb.book.source_name or tb.book.book_id!r} needs {len(spans)} chunks; "
            f"max_chunks is {policy.max_chunks}: raise --max-chunks or --max-tokens"
        )
    text = tb.book.text
    book_id = tb.book.book_id
    salt = id_salt(policy, tb.book)
    contexts = ContextIndex(tb.book.headings)
    matters = MatterIndex(tb.book.headings)
    sections = SectionSpans(contexts.headings, len(text))
    cs = tb.char_starts
    chunks: list[Chunk] = []
    for order, (t0, t1, overlap, reason) in enumerate(spans):
        c0, c1 = int(cs[t0]), int(cs[t1])
        body = text[c0:c1]
        first = c0 + (len(body) - len(body.lstrip()))
        last = c0 + len(body.rstrip()) - 1
        p0 = tb.text_pages[tb.page_index_of_char(first)] if tb.text_pages else None
        p1 = tb.text_pages[tb.page_index_of_char(last)] if tb.text_pages else None
        position = contexts.position(first)
        ctx = contexts.at(first)
        chunks.append(
            Chunk(
                id=chunk_id(book_id, salt, order, t0, t1, c0, c1, body),
                book_id=book_id,
                order=order,
                text=body,
                chapter=ctx.chapter,
                section=ctx.section,
                heading_path=ctx.path,
                page_start=p0.number if p0 else 1,
                page_end=p1.number if p1 else 1,
                page_label_start=p0.label if p0 else "",
                page_label_end=p1.label if p1 else "",
                token_start=t0,
                token_end=t1,
                token_count=t1 - t0,
                char_start=c0,
                char_end=c1,
                overlap_prev_tokens=overlap,
                end_reason=reason,
                matter=matters.at(first),
                section_id=section_id(book_id, sections.span(position)),
                ocr=tb.ocr_between(first, last),
            )
        )
    return with_neighbours(chunks)
