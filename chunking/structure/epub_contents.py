"""Stage 3 (structure), EPUB: a contents printed inside a navigated document is a front unit.

A converter may print the book's own table of contents as a paragraph named ``Contents`` over a
list of links (Docutils' contents topic: ``<p class="topic-title">``, no heading tag), inside the
document that also holds the title and the chapters; the nav lists neither it nor its document,
so neither the nav nor the spine rule (``epub._unlisted``: documents no nav entry targets) finds
it, and its lines would be read as the opening of whatever unit comes before.

Contract: ``printed_contents(heads, docs, norm, top)`` returns the front units for such
contents: a line that is a contents name (``rules.CONTENTS_NAMES``), no unit of its own yet,
whose next lines name the book's chapter-level units that come after it (``MIN_LISTED`` of its
``LOOKAHEAD_LINES`` next lines). Under a contents name the markup makes a heading (``h1``-``h6``,
as LaTeXML heads the nav it prints in the text), a line may name its unit by number and title
(``3 Implicit behavior``); under a paragraph only by title, since a bold paragraph over numbered
entries is the contents on a DocBook title page, which is part of that title page. The entries
it lists are what makes it a contents: a line ``Contents`` over prose, or a section's local
contents listing only sections, is none. What stands before a book's contents is front matter:
an unnumbered chapter-level unit before it (the nav's entry for the title block) becomes front.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from ..normalise import NormalisedBook
from ..rules import CONTENTS_NAMES
from .epub_nav import Candidate, NavDoc
from .kinds import words_key

_CONTENTS_LINE = re.compile(rf"^[ \t]*((?:{CONTENTS_NAMES}):?)[ \t]*$", re.I | re.M)

LOOKAHEAD_LINES = 4
"""Non-blank lines read after the name: a contents opens with its first entries."""

MIN_LISTED = 2
"""Of those, how many must name a later chapter-level unit: one could be a chance match."""

UNIT_KINDS = frozenset({"chapter", "part", "appendix", "back"})
"""The kinds of unit a book's contents lists at its top."""


def printed_contents(
    heads: list[Candidate], docs: list[NavDoc], norm: NormalisedBook, top: int
) -> list[Candidate]:
    """The front units of contents printed inside navigated documents (module docstring), at
    ``top`` (the book's chapter level); the unnumbered chapters of ``heads`` before one turn front."""
    text = norm.text
    units = {words_key(c.title): c.offset for c in heads if c.kind in UNIT_KINDS}
    numbered = dict(units)
    numbered.update(
        (words_key(f"{c.number} {c.title}"), c.offset) for c in heads if c.kind in UNIT_KINDS and c.number
    )
    tags = {t.offset: t for d in docs for t in d.tags}
    taken = {c.offset for c in heads}
    starts = [p.char_start for p in norm.pages]
    for m in _CONTENTS_LINE.finditer(text):
        offset = m.start(1)
        if offset in taken:
            continue
        tag = tags.get(offset)
        keys = numbered if tag is not None else units
        lines = [line for line in text[m.end() :].split("\n", 3 * LOOKAHEAD_LINES)[:-1] if line.strip()]
        listed = [line for line in lines[:LOOKAHEAD_LINES] if keys.get(words_key(line), -1) > offset]
        if len(listed) < MIN_LISTED:
            continue
        page = bisect_right(starts, offset) - 1
        doc = next((d.path for d in docs if d.start <= offset < d.end), "")
        where = f"{m.group(1)!r} over {len(listed)} of its next {LOOKAHEAD_LINES} lines naming later units"
        evidence = [("contents", where)]
        if tag is not None:
            evidence.append(("html_heading", f"{tag.doc} h{tag.level} {tag.text!r}"))
        for c in heads:
            if c.kind == "chapter" and not c.number and c.offset < offset:
                c.kind = "front"
        return [Candidate(m.group(1), offset, page, doc, kind="front", level=top, evidence=evidence)]
    return []
