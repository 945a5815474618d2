"""The link rule: each chunk's neighbours and the section span it belongs to.

Why: a retriever's hit is more useful with its context ("expand to the section", the previous and
next chunk), and a vector store needs that context as metadata on every record. These fields are
set once, when chunks are built (``chunking.strategies.common.build_chunks``), so every export
format, the index and the app carry the same links.

* ``prev_id`` / ``next_id``: the ids of the chunks before and after in the book's chunk list
  (``""`` at either end).
* ``section_id``: the span of the innermost heading in force at the chunk's first non-space
  character (the heading whose title ends ``heading_path``), from the heading's offset to the
  next heading of the same or a higher level (smaller ``level``), else the end of the text; text
  before the first heading is one span of its own. Written ``<book_id>:<start>-<end>``
  (character offsets in the canonical text), so the id names its span exactly:
  ``section_span(section_id)`` reads it back.

``expansion_span`` is what ``search --expand section|neighbours`` returns: a span of the canonical
text, so the text shown is an exact slice of it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from .errors import UsageError
from .models import Chunk, Heading


class SectionSpans:
    """The span of every heading of one book, and of the text before the first, built once."""

    def __init__(self, headings: Sequence[Heading], text_length: int) -> None:
        """``headings`` in book order (``ContextIndex.headings``: ``position`` indexes them)."""
        ends = [text_length] * len(headings)
        open_: list[int] = []
        for j, h in enumerate(headings):
            while open_ and headings[open_[-1]].level >= h.level:
                ends[open_.pop()] = h.char_offset
            open_.append(j)
        self._spans = [(h.char_offset, end) for h, end in zip(headings, ends)]
        self._before = (0, headings[0].char_offset if headings else text_length)

    def span(self, position: int) -> tuple[int, int]:
        """The span of the heading at ``position`` (``ContextIndex.position``; -1: before the first)."""
        return self._spans[position] if position >= 0 else self._before


def section_id(book_id: str, span: tuple[int, int]) -> str:
    """The ``section_id`` of a span of the book ``book_id``."""
    return f"{book_id}:{span[0]}-{span[1]}"


def section_span(sid: str) -> tuple[int, int]:
    """The ``(start, end)`` character span a ``section_id`` names.

    Raises:
        ValueError: ``sid`` is not a section id.
    """
    _, _, span = sid.rpartition(":")
    start, sep, end = span.partition("-")
    if not (sep and start.isdigit() and end.isdigit()) or int(start) > int(end):
        raise ValueError(f"not a section id: {sid[:60]!r}")
    return int(start), int(end)


def with_neighbours(chunks: Sequence[Chunk]) -> list[Chunk]:
    """``chunks`` (in order) with ``prev_id`` and ``next_id`` set."""
    ids = [c.id for c in chunks]
    return [
        dataclasses.replace(
            c, prev_id=ids[i - 1] if i > 0 else "", next_id=ids[i + 1] if i + 1 < len(ids) else ""
        )
        for i, c in enumerate(chunks)
    ]


EXPANSIONS = ("section", "neighbours")
"""What ``search --expand`` widens a hit to: its section span, or it and its two neighbours."""


def expansion_span(chunk: Chunk, how: str, by_id: Mapping[str, Chunk]) -> tuple[int, int]:
    """The character span ``chunk`` expands to: its ``section_id``'s span (``section``), or from
    the start of the previous chunk to the end of the next (``neighbours``; the chunk itself at
    either end of the book).

    Raises:
        UsageError: an unknown ``how``, or chunks written before links (no ``section_id``).
    """
    if how == "section":
        try:
            return section_span(chunk.section_id)
        except ValueError:
            raise UsageError(
                "these chunks have no section links (written by an older version): chunk the book again"
            ) from None
    if how == "neighbours":
        before = by_id.get(chunk.prev_id, chunk)
        after = by_id.get(chunk.next_id, chunk)
        return before.char_start, after.char_end
    raise UsageError(f"--expand must be one of {', '.join(EXPANSIONS)}; got {how!r}")
