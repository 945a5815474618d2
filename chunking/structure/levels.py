"""Stage 3 (structure), levels: which depth of a nested source (PDF outline, EPUB nav) holds the
chapters, and the final kind and level of every entry.

Why not "the most common depth": in a book with many numbered sections the sections outnumber
the chapters, and under a single outline root every entry is one level deeper than it should
be. What is true of outlines in general:

* a depth whose entries are mostly parts (``Part I``, or titles numbered ``I``, ``II``… above
  deeper entries) is the part level;
* the chapter depth is the shallowest other depth with at least two entries (a lone root holds
  the book, not a chapter); this holds of nested sources only: a lone chapter found in the text
  (a one-chapter offprint) is a chapter;
* numbering overrides depth entry by entry: an ``N.M`` entry is a section wherever the source
  put it, but in a markup source not under a lone title numbered ``N`` (``_under_numbered_root``);
* a lone root above the chapter depth is the book's title: it is not a heading (its page, the
  title page, then belongs to no chapter, as any text before the first chapter), except in a
  markup source (``title_unit``), where the document title opens the text above the first
  chapter as its title page, a front unit, as the plain-text structure reads a title line.

Levels: 1 is the top of this book's hierarchy (parts when the book has parts, else chapters);
front/back matter and appendices sit at chapter level; sections one level below, deeper source
depths deeper still.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import replace

from ..models import Heading
from ..normalise import NormalisedBook
from .evidence import confidence
from .guard import BARE_PAGE_WORDS
from .heading_lines import Draft
from .kinds import BACK_WORDS, FRONT_WORDS, number_value, spelled_out

PART_SHARE = 0.5
"""A depth is the part level when at least this share of its (non front/back) entries are parts."""

_CONTENTS = re.compile(r"^(?:table of )?contents:?$", re.I)
"""The contents, front matter wherever a book prints it (troff manuals print it last): an
``Acknowledgements`` after the chapters is back matter, a contents there is still the contents."""

CHAPTER_KINDS = ("chapter", "numbered", "appendix", "roman")
"""Draft kinds that open a chapter-level unit when they stand at the chapter depth."""


def _is_part_depth(drafts: list[Draft], deeper: bool) -> bool:
    body = [d for d in drafts if d.kind not in ("front", "back")]
    numbered = [d.offset for d in body if d.kind != "unnumbered"]
    if numbered:
        # NOTE: unnumbered entries before the first numbered one or after the last are front or
        # back matter (``_matter_kind``), whatever their names (``Zusammenfassung``, ``Listings``):
        # they do not vote on whether this depth holds parts.
        body = [d for d in body if d.kind != "unnumbered" or min(numbered) <= d.offset <= max(numbered)]
    if not deeper or not body:
        return False
    parts = [d for d in body if d.kind == "part"]
    romans = [d for d in body if d.kind == "roman"]
    # NOTE: roman-numbered titles are parts only as a run I, II, III… (a chapter ``V Title`` alone
    # is not a part level).
    roman_run = len(romans) >= 2 and [number_value(d.number) for d in romans][:2] == [1, 2]
    return len(parts) >= PART_SHARE * len(body) or (
        roman_run and len(parts) + len(romans) >= PART_SHARE * len(body)
    )


def choose_depths(drafts: list[tuple[Draft, int]], nested: bool = True) -> tuple[set[int], int]:
    """Return the part depths and the chapter depth of a nested source.

    Args:
        drafts: every entry with its source depth (1 = outermost).
        nested: the depths are a source's nesting (an outline, a nav, a markup's heading
            levels), where a lone root holds the whole book. False for headings found in the
            text, whose depth their kind gave: a lone chapter there is the book's one chapter
            (an offprint), never a wrapper.

    Returns:
        tuple[set[int], int]: depths that hold parts, and the depth that holds chapters.
    """
    by_depth: dict[int, list[Draft]] = defaultdict(list)
    for d, depth in drafts:
        by_depth[depth].append(d)
    depths = sorted(by_depth)
    parts: set[int] = set()
    for k, depth in enumerate(depths):
        deeper = k + 1 < len(depths)
        if _is_part_depth(by_depth[depth], deeper):
            parts.add(depth)
            continue
        if nested and len(by_depth[depth]) < 2 and deeper:
            continue  # a single root holds the whole book
        if nested and deeper and _numbered_below(drafts, depth, depths[k + 1]):
            if _holders(drafts, depth, depths[k + 1]) >= 2:
                parts.add(depth)  # unnumbered parts, each over its numbered chapters
            continue  # else a title or a wrapper above the numbered chapters
        return parts, depth
    return parts, depths[-1] if depths else 1


NUMBERED_RUN = 3
"""Whole numbers from 1 up, at a depth below one whose entries are all unnumbered, that make
that deeper depth the chapters' (``_numbered_below``)."""


def _numbered_below(drafts: list[tuple[Draft, int]], depth: int, below: int) -> bool:
    """Whether ``depth`` holds no numbered entry while the depth ``below`` it holds a run of
    chapter numbers: at least ``NUMBERED_RUN`` whole numbers, in book order 1, 2, 3… without a
    repeat (numbers that start again at 1 under each entry number sections, not chapters). A
    converted page sets its title and its top node one depth above its ``1``, ``2``… chapters
    (``# Title``, ``# Release``, ``## 1 Getting Started``); an outline sets unnumbered parts
    above ``Chapter 1``, ``Chapter 2``…: the numbering says where the chapters are."""
    if any(d.number for d, at in drafts if at == depth):
        return False
    numbers = [
        int(d.number) for d, at in drafts if at == below and d.kind in CHAPTER_KINDS and d.number.isdigit()
    ]
    return (
        len(numbers) >= NUMBERED_RUN and numbers[0] == 1 and all(b > a for a, b in zip(numbers, numbers[1:]))
    )


def _holders(drafts: list[tuple[Draft, int]], depth: int, below: int) -> int:
    """How many entries at ``depth`` hold an entry at the depth ``below`` it."""
    holders, current = set(), None
    for k, (_, at) in enumerate(drafts):
        if at <= depth:
            current = k if at == depth else None
        elif at == below and current is not None:
            holders.add(current)
    return len(holders)


def levelled(
    drafts: list[tuple[Draft, int]], norm: NormalisedBook, source: str, title_unit: bool = False
) -> tuple[tuple[Heading, ...], int]:
    """Give each draft its final kind and level (see the module docstring); with ``title_unit``
    a lone root that opens the book is its title page (a front unit). Drafts of ``source``
    ``headings`` (found in the text) carry depths their kind gave, not a nesting: a lone chapter
    among them stays a chapter.

    Returns:
        tuple[tuple[Heading, ...], int]: the headings in book order, and how many entries the
        source put at chapter level although they are numbered sections (moved down).
    """
    if not drafts:
        return (), 0
    part_depths, chapter_depth = choose_depths(drafts, nested=source != "headings")
    if title_unit:
        drafts = _under_numbered_root(drafts, part_depths, chapter_depth)
    at_chapter = [
        (d.offset, d.kind)
        for d, depth in drafts
        if depth == chapter_depth and d.kind in CHAPTER_KINDS and d.number
    ]
    # NOTE: front matter ends at the first numbered chapter, not at the first appendix: a book of
    # unnumbered chapters followed by ``Appendix A`` has no front matter but what its words say.
    opening = [offset for offset, kind in at_chapter if kind != "appendix"]
    first = min(opening) if opening else None
    last = max(offset for offset, _ in at_chapter) if at_chapter else None
    # NOTE: "Part …" below the chapter depth is a section that happens to start with "Part".
    has_parts = any(
        (depth in part_depths and depth < chapter_depth) or (d.kind == "part" and depth <= chapter_depth)
        for d, depth in drafts
    )
    top = 2 if has_parts else 1
    anchored = [
        d.offset
        for d, depth in drafts
        if depth in part_depths and d.kind not in ("unnumbered", "front", "back")
    ] or _holding(drafts, part_depths)
    parents = _parents(drafts)
    out: list[Heading] = []
    demoted = 0
    for k, (d, depth) in enumerate(drafts):
        kind, level, title, number = d.kind, top, d.title, d.number
        leaf = k + 1 == len(drafts) or drafts[k + 1][1] <= depth
        if depth < chapter_depth and depth not in part_depths and kind != "part":
            if title_unit and (d is drafts[0][0] or (first is not None and d.offset < first)):
                kind = "front"  # a markup source's title, or its top node above the chapters
            elif leaf and first is not None and last is not None and not first <= d.offset <= last:
                kind = "front" if d.offset < first else "back"  # matter beside the chapters' wrapper
            else:
                continue  # a lone root above the chapters: the book's own title, not a unit of it
        if depth in part_depths and depth < chapter_depth:
            if kind == "unnumbered" and leaf and anchored and not min(anchored) <= d.offset <= max(anchored):
                # NOTE: an unnumbered entry with nothing below it, before the first part or after
                # the last, is front or back matter (``Zusammenfassung``, ``Acronyms``), not a part.
                kind, level = ("front" if d.offset < min(anchored) else "back"), top
            elif kind in ("front", "back"):
                level = top
            else:
                kind, level = "part", 1
        elif depth <= chapter_depth and kind == "part":
            level = 1
        elif kind == "front" and depth > chapter_depth and not _opened(drafts, k, chapter_depth, part_depths):
            # NOTE: a front matter name set deeper than the chapters before any chapter or part
            # (``### Table of Contents`` under the title, the ``##`` chapters after it: a converter
            # guessed its depth from its type size) has no chapter to be a section of.
            level = top
        elif depth == chapter_depth and _back_matter(parents[k]):
            kind, level = "section", top + 1  # an index's letter groups, a bibliography's kinds
        elif kind == "section" or depth > chapter_depth:
            demoted += depth <= chapter_depth
            kind, level = "section", top + max(1, depth - chapter_depth)
            if d.kind == "part":
                title, number = f"Part {d.number} {d.title}".strip(), ""
        elif kind in ("numbered", "roman"):
            kind = "chapter"
        elif kind == "unnumbered":
            kind = _matter_kind(d, first, last)
            if kind == "chapter" and _title_page(drafts, k, chapter_depth, norm):
                kind = "front"
        elif kind == "front" and last is not None and d.offset > last and not _CONTENTS.match(title):
            kind = "back"  # a front matter name after the chapters (``_matter_kind``)
        if number and spelled_out(number):
            number = str(number_value(number))  # ``THREE`` → ``3``: the number, not its spelling
        page = norm.pages[d.page]
        out.append(
            Heading(
                level=level,
                kind=kind,
                title=title,
                number=number,
                page=page.number,
                page_label=page.label,
                char_offset=d.offset,
                source=source,
                evidence=tuple(d.evidence),
                confidence=_confidence(d),
            )
        )
    out.sort(key=lambda h: (h.char_offset, h.level))
    return tuple(out), demoted


def _holding(drafts: list[tuple[Draft, int]], part_depths: set[int]) -> list[int]:
    """The offsets of the unnumbered entries at a part depth that hold an entry below them: the
    parts, where none is numbered. An unnumbered entry there holding nothing, before the first
    of them or after the last, is front or back matter (the book's title over its first part),
    as it is beside numbered parts."""
    return [
        d.offset
        for k, (d, depth) in enumerate(drafts)
        if depth in part_depths
        and d.kind == "unnumbered"
        and k + 1 < len(drafts)
        and drafts[k + 1][1] > depth
    ]


def _under_numbered_root(
    drafts: list[tuple[Draft, int]], part_depths: set[int], chapter_depth: int
) -> list[tuple[Draft, int]]:
    """In a markup source, entries at the chapter depth numbered ``N.M`` under a lone root
    numbered ``N`` above them are the book's chapters, not sections: a markup source's lone top
    heading is its title (the single-root rule of ``choose_depths``; ``levelled`` makes it the
    title page), and a markup whose macros number every depth from the top (troff's ms, whose
    ``.NH 1`` title prints ``1`` and its ``.NH 2`` chapters ``1.1``, ``1.2``…) gives them the
    title's number first. ``N.M`` is a section only inside a chapter ``N``; here ``N`` is the
    whole book. Not in a PDF outline: there a lone ``N Title`` over its ``N.M`` entries is a
    one-chapter document (an offprint, a chapter printed alone), its sections below it."""
    above = [(d, depth) for d, depth in drafts if depth < chapter_depth and depth not in part_depths]
    if len(above) != 1 or above[0][0] is not drafts[0][0] or not above[0][0].number.isdigit():
        return drafts
    prefix = above[0][0].number + "."
    at_depth = [d for d, depth in drafts if depth == chapter_depth and d.number]
    if not at_depth or not all(
        d.kind == "section" and d.number.startswith(prefix) and d.number[len(prefix) :].isdigit()
        for d in at_depth
    ):
        return drafts
    return [
        (replace(d, kind="numbered") if depth == chapter_depth and d.number else d, depth)
        for d, depth in drafts
    ]


def _parents(drafts: list[tuple[Draft, int]]) -> list[Draft | None]:
    """Each entry's parent: the nearest entry before it at a shallower depth (one pass, a stack of
    the open ancestors)."""
    out: list[Draft | None] = []
    open_: list[tuple[Draft, int]] = []
    for d, depth in drafts:
        while open_ and open_[-1][1] >= depth:
            open_.pop()
        out.append(open_[-1][0] if open_ else None)
        open_.append((d, depth))
    return out


def _back_matter(parent: Draft | None) -> bool:
    """Whether an entry's parent is a back-matter unit (``Index`` over ``Symbols``, ``A``, ``B``…;
    ``Bibliography`` over ``Books``, ``Articles``): the entry is its part, not a chapter, however
    deep the source set the back matter."""
    return parent is not None and (parent.kind == "back" or BACK_WORDS.search(parent.title) is not None)


def _opened(drafts: list[tuple[Draft, int]], k: int, chapter_depth: int, part_depths: set[int]) -> bool:
    """Whether a chapter or a part opens before entry ``k`` (the book's title above the chapter
    depth opens none)."""
    return any(depth == chapter_depth or depth in part_depths for _, depth in drafts[:k])


def _confidence(d: Draft) -> float:
    return confidence((signal for signal, _ in d.evidence), d.confirmed)


def _title_page(drafts: list[tuple[Draft, int]], k: int, chapter_depth: int, norm: NormalisedBook) -> bool:
    """Whether unnumbered entry ``k`` is the book's title page: the first entry at the chapter
    depth or above, on a bare page (fewer than ``BARE_PAGE_WORDS`` words) with only bare pages
    (a cover, blank pages) before it, the next unit on a later page. A book of unnumbered
    chapters has no first numbered chapter to end its front matter, and its title page is no
    chapter; a chapter's opening page set bare comes after pages of text (the title page, the
    contents)."""
    d = drafts[k][0]
    if any(depth <= chapter_depth for _, depth in drafts[:k]):
        return False
    after = next((e for e, depth in drafts[k + 1 :] if depth <= chapter_depth), None)
    if after is not None and after.page <= d.page:
        return False
    words = [sum(len(text.split()) for _, text in norm.lines[i]) for i in range(d.page + 1)]
    return max(words) < BARE_PAGE_WORDS


def _matter_kind(d: Draft, first: int | None, last: int | None) -> str:
    """An unnumbered chapter-level entry: front before the first chapter, back after the last
    (an ``Acknowledgements`` or ``List of Figures`` after the chapters is back matter, whatever
    front matter usually holds); between them, or in a book without numbered chapters, its
    name decides."""
    if first is not None and d.offset < first:
        return "front"
    if last is not None and d.offset > last:
        return "back"
    if FRONT_WORDS.match(d.title):
        return "front"
    if BACK_WORDS.search(d.title):
        return "back"
    return "chapter"
