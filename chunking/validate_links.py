"""Rule 8 of the validator (``chunking.validate``): a chunk's links and headings are the book's.

Why: a vector store keeps ``prev_id``, ``next_id``, ``section_id`` and ``heading_path`` as the
metadata a retriever expands a hit with ("the previous chunk", "the whole section", the
breadcrumb it embeds). A file whose links were edited, shuffled or joined from two runs still
passes rules 1–7 (they never read these fields), yet sends every expansion to the wrong text.
So each one is recomputed from the book and the file itself:

* ``prev_id`` / ``next_id`` name the chunks before and after in reading order (``""`` at either
  end). With ``exclude_matter`` a neighbour may have been left out (an ``order`` skipped): the
  link then names a chunk not in the file, so it must only be non-empty; after the file's last
  chunk, left-out chunks may follow or not, so its ``next_id`` is not checked.
* ``section_id`` is ``<book_id>:<start>-<end>`` and names the span of the innermost heading in
  force at the chunk's first non-space character (``chunking.links``): a span that holds it.
* ``chapter``, ``section`` and ``heading_path`` are those of the headings in force there. The
  ``section`` strategy labels its chunks (``chunking.strategies.section``): a window of a large
  unit is ``<title> (Part n)``, the title one of ``heading_path`` (or none); a run of merged
  units names its section titles joined with `` + ``, so it starts with the title of the first
  section heading inside the chunk.

A file written before links existed (every ``prev_id``, ``next_id`` and ``section_id`` empty)
claims no links: only its headings are checked.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .links import SectionSpans, section_span
from .links import section_id as make_section_id
from .models import Book, Chunk
from .rules import ContextIndex


_PART = re.compile(r"(?:(.*) )?\(Part \d+\)")
"""A window of a large unit in the ``section`` strategy: ``<title> (Part n)``."""


def _claims_links(chunks: Sequence[Chunk]) -> bool:
    return any(c.prev_id or c.next_id or c.section_id for c in chunks)


class LinkChecker:
    """Recomputes rule 8 for each chunk of one file; ``problem(i)`` says what is wrong, or None."""

    def __init__(
        self,
        chunks: Sequence[Chunk],
        book: Book,
        skipped: Callable[[Chunk, Chunk | None], bool],
        excluding: bool,
        labelled: bool = False,
    ) -> None:
        """``skipped(c, prev)``: chunks were left out between ``prev`` and ``c``; ``excluding``:
        the policy leaves matter out, so left-out chunks may also follow the last one;
        ``labelled``: the ``section`` strategy's labels stand for ``section``."""
        self.chunks = chunks
        self.labelled = labelled
        self.excluding = excluding
        self.book = book
        self.skipped = skipped
        self.links = _claims_links(chunks)
        self.contexts = ContextIndex(book.headings)
        self.spans = SectionSpans(self.contexts.headings, len(book.text))

    def _expected_prev(self, i: int) -> str | None:
        """The ``prev_id`` chunk ``i`` must have; None: a left-out chunk's (any non-empty id)."""
        c = self.chunks[i]
        prev = self.chunks[i - 1] if i else None
        if self.skipped(c, prev):
            return None
        return prev.id if prev is not None else ""

    def _expected_next(self, i: int) -> str | None:
        """The ``next_id`` chunk ``i`` must have; None: a left-out chunk's (any non-empty id)."""
        c = self.chunks[i]
        after = self.chunks[i + 1] if i + 1 < len(self.chunks) else None
        if after is None:
            # NOTE: left-out chunks may follow the last one, or none: either link is the book's
            return c.next_id if self.excluding else ""
        return None if self.skipped(after, c) else after.id

    def _neighbour(self, field: str, got: str, want: str | None, what: str) -> str | None:
        if want is None:
            return None if got else f"{field} is empty, but the {what} chunk (left out) exists"
        if got != want:
            shown = (
                repr(want)
                if want
                else "'' (none: this is the book's " + ("first" if what == "previous" else "last") + " chunk)"
            )
            return f"{field} {got!r} does not name the {what} chunk in reading order: expected {shown}"
        return None

    def problem(self, i: int) -> str | None:
        """What breaks rule 8 at chunk ``i``, or None."""
        c = self.chunks[i]
        first = c.char_start + (len(c.text) - len(c.text.lstrip()))
        ctx = self.contexts.at(first)
        if tuple(c.heading_path) != ctx.path:
            return f"heading_path {list(c.heading_path)} is not the headings in force at its start {list(ctx.path)}"
        if c.chapter != ctx.chapter:
            return f"chapter {c.chapter!r} is not the chapter its heading_path names ({ctx.chapter!r})"
        if not self._section_ok(c, ctx.section, ctx.path):
            return f"section {c.section!r} is not the section its heading_path names ({ctx.section!r})"
        if not self.links:
            return None
        found = self._neighbour("prev_id", c.prev_id, self._expected_prev(i), "previous") or self._neighbour(
            "next_id", c.next_id, self._expected_next(i), "next"
        )
        if found:
            return found
        return self._section(c, first)

    def _section_ok(self, c: Chunk, in_force: str, path: tuple[str, ...]) -> bool:
        if c.section == in_force:
            return True
        if not self.labelled:
            return False
        part = _PART.fullmatch(c.section)
        if part:
            return (part.group(1) or "") in ("", *path)
        inside = [
            h.title
            for h in self.contexts.headings
            if h.kind == "section" and h.title and c.char_start <= h.char_offset < c.char_end
        ]
        return bool(inside) and c.section.startswith(inside[0])

    def _section(self, c: Chunk, first: int) -> str | None:
        want = make_section_id(self.book.book_id, self.spans.span(self.contexts.position(first)))
        try:
            start, end = section_span(c.section_id)
        except ValueError:
            return f"section_id {c.section_id[:60]!r} is not a section id (<book_id>:<start>-<end>); expected {want!r}"
        if not c.section_id.startswith(f"{self.book.book_id}:"):
            return f"section_id {c.section_id!r} names a span of another book; expected {want!r}"
        if not start <= first < end:
            return f"section_id {c.section_id!r} names characters {start}-{end}, which do not hold the chunk's start ({first})"
        if c.section_id != want:
            return (
                f"section_id {c.section_id!r} is not the span of the section in force at its start ({want!r})"
            )
        return None
