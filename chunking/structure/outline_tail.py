"""The pages an outline leaves out at the end of the book, read for the units it does not name.

An outline that stops at the last chapter (no appendices, no references, no index in it) would
make those pages part of the last chapter. When its last chapter-level unit is no back matter
and the pages from its last entry on are few (``TAIL_SHARE``), the text is read there: the
appendices, back matter and chapters numbered on that the text detector finds
(``tail_filled``), and back matter opening mid-page under a heading set as the outline's own
chapter headings are (``tail_back_matter``).
"""

from __future__ import annotations

import dataclasses

from ..models import Heading
from ..normalise import NormalisedBook
from ..rules import FENCE_KINDS
from .heading_lines import SAME_SIZE, Draft
from .kinds import compact_key, parse_heading
from .levels import levelled
from .typography import HEADING_RATIO, FontProbe

CHAPTER_SIZE_SAMPLE = 3
"""The outline's last chapter headings whose size (all alike) is its chapter headings' size."""


TAIL_SHARE = 0.4
"""The outline's tail is read for the units it left out only when the pages after its last entry
are at most this share of the book (an outline that stops a few pages early, not one that holds
the front matter alone)."""


def tail_pages(headings: tuple[Heading, ...], norm: NormalisedBook) -> set[int]:
    """The 0-based pages from the page of the outline's last entry on, when they are few
    (``TAIL_SHARE``) and its last chapter-level unit is no back matter: where an outline that
    stops at the last chapter leaves the appendices and the back matter after it. One that
    reaches its index has said where the book ends (an index's letter groups are no units)."""
    fence = [h for h in headings if h.kind in FENCE_KINDS]
    if not fence or fence[-1].kind == "back":
        return set()
    last = max(h.page for h in headings) - 1
    tail = set(range(last, len(norm.pages)))  # NOTE: its own page too, from the entry's line on
    return tail if len(tail) <= TAIL_SHARE * len(norm.pages) else set()


def tail_filled(
    headings: tuple[Heading, ...], found: tuple[Heading, ...], tail: set[int]
) -> tuple[Heading, ...]:
    """The outline's headings with the appendices, back matter and chapters numbered on from its
    last chapter that the text finds on the pages after its last entry (``tail_pages``): an
    outline that stops at chapter 6 leaves ``A. Grammar`` and ``B. Listings`` out, and they would
    be chapter 6's pages. Set at the outline's chapter level; a heading the outline has is kept
    once."""
    chapters = [h for h in headings if h.kind in ("chapter", "appendix")]
    if not tail or not chapters:
        return headings
    level = chapters[0].level
    numbers = [int(h.number) for h in chapters if h.number.isdigit()]
    following = str(max(numbers) + 1) if numbers else ""
    end = max(h.char_offset for h in headings)
    titled = {compact_key(h.title) for h in headings}
    added = []
    for h in found:
        if h.page - 1 not in tail or h.char_offset <= end or compact_key(h.title) in titled:
            continue
        if h.kind in ("appendix", "back") or (h.kind == "chapter" and following and h.number == following):
            if h.kind == "chapter":
                following = str(int(following) + 1)
            added.append(dataclasses.replace(h, level=level))
    if not added:
        return headings
    return tuple(sorted((*headings, *added), key=lambda h: (h.char_offset, h.level)))


def tail_back_matter(
    headings: tuple[Heading, ...], norm: NormalisedBook, probe: FontProbe, tail: set[int]
) -> tuple[Heading, ...]:
    """The outline's headings with the back matter that opens mid-page in its tail: a line that
    is a back-matter name alone (``References``, ``Index``), set at the size of the outline's own
    chapter headings and larger than the body, after its last entry. The text detector takes a
    name alone only at a page's top (mid-page it is as often a line of text, a table's label or
    a cross reference); set as the chapters are, it opens the book's references after the last
    chapter's end on the same page. Two signals agree: the name and the chapters' typography."""
    chapters = [h for h in headings if h.kind in ("chapter", "appendix")]
    if not tail or not chapters or probe.layout is None:
        return headings
    size = _chapter_size(chapters[-CHAPTER_SIZE_SAMPLE:], norm, probe)
    body = probe.body_size()
    if size is None or not body or size < body * HEADING_RATIO:
        return headings
    end = max(h.char_offset for h in headings)
    titled = {compact_key(h.title) for h in headings}
    added: list[Heading] = []
    for page in sorted(tail):
        for offset, raw in norm.lines[page]:
            text = raw.strip()
            if offset <= end or not text:
                continue
            parsed = parse_heading(text)
            if (
                parsed is None
                or parsed.kind != "back"
                or parsed.number
                or compact_key(parsed.title) in titled
            ):
                continue
            line_size = probe.size_of(page, text)
            if line_size is None or abs(line_size - size) > SAME_SIZE:
                continue
            draft = Draft("back", "", parsed.title, page, offset)
            draft.evidence.append(
                ("typography", f"p. {page + 1}: {line_size:.1f} pt, as the chapter headings")
            )
            for h in levelled([(draft, 1)], norm, "headings")[0]:
                added.append(dataclasses.replace(h, level=chapters[0].level))
            titled.add(compact_key(parsed.title))
    if not added:
        return headings
    return tuple(sorted((*headings, *added), key=lambda h: (h.char_offset, h.level)))


def _chapter_size(chapters: list[Heading], norm: NormalisedBook, probe: FontProbe) -> float | None:
    """The size the chapter headings are set at, when they agree (within ``SAME_SIZE``)."""
    sizes = []
    for h in chapters:
        line = norm.text[h.char_offset :].split("\n", 1)[0].strip()
        size = probe.size_of(h.page - 1, line)
        if size is None:
            return None
        sizes.append(size)
    return sizes[-1] if max(sizes) - min(sizes) <= SAME_SIZE else None
