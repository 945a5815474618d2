"""Unnumbered units after a book's last chapter, set as its chapter headings are.

A paper or a manual whose chapters are numbered often ends with unnumbered units set in the very
type of its chapter headings: ``Data availability``, ``Acknowledgments``, ``References``,
mid-page after the last chapter's text. Named back matter is a candidate only at a page's top
(mid-page, ``References`` is as often a line of text), and a title without a back-matter name is
no candidate at all, so those pages were the last chapter's. Here two signals must agree: the
place (after the last chapter's opening, before the appendices) and the type (the size and the
weight every chapter heading of the book is set in, larger than the body). Only the pages from
the last chapter on are read, and only when they are few (``MAX_PAGES``, ``TAIL_SHARE``).
"""

from __future__ import annotations

import re

from ..normalise import NormalisedBook
from .heading_lines import SAME_SIZE, STACK_TITLE_LINES, Draft, draft_line
from .kinds import compact_key, parse_heading, title_like
from .outline_tail import TAIL_SHARE
from .typography import HEADING_RATIO, FontProbe

_NUMBER_ALONE = re.compile(r"[\d.]+|[A-Z]\.?")
"""A line holding only a (section) number or a letter: the label over a title below it."""

MIN_CHAPTERS = 2
"""Chapter headings needed to tell the style they share."""

STYLE_SAMPLE = 4
"""The last chapter headings whose style (all alike) is the chapters' style."""

MAX_PAGES = 10
"""The stretch read (from the last chapter's page to the appendices or the end) is at most this
many pages: each is read whole for its type, which costs several times its text. A paper's or a
report's closing units fit; a book whose last chapter runs long is left to its other signals."""

TITLE_WORDS = 8
"""A unit's title is at most this many words (a longer line in that type is a display)."""


def styled_back_matter(
    chapters: list[Draft],
    after: list[Draft],
    found: list[Draft],
    norm: NormalisedBook,
    probe: FontProbe,
) -> list[Draft]:
    """Back-matter units after the last of ``chapters`` (before the first of ``after``, the
    appendices, when they follow), each a title-like line alone, unnumbered, set in the style of
    the chapter headings; ``found`` are the headings already found (their lines and titles are
    theirs)."""
    if len(chapters) < MIN_CHAPTERS or probe.layout is None:
        return []
    last = chapters[-1]
    stop = min((d.page for d in after if d.offset > last.offset), default=len(norm.pages))
    pages = range(last.page, stop)
    if not pages or len(pages) > min(MAX_PAGES, TAIL_SHARE * len(norm.pages)):
        return []  # NOTE: before the chapters' style is read: that reads their pages whole
    style = _chapter_style(chapters[-STYLE_SAMPLE:], norm, probe)
    body = probe.body_size()
    if style is None or not body or style[0] < body * HEADING_RATIO:
        return []
    out: list[Draft] = []
    taken = {d.offset for d in found}
    for d in found:
        # NOTE: a found heading's own lines below it (``CHAPTER`` / ``SIX`` / ``Releases``)
        lines = norm.lines[d.page]
        at = next((k for k, (offset, _) in enumerate(lines) if offset >= d.offset), len(lines))
        taken.update(offset for offset, _ in lines[at : at + 1 + STACK_TITLE_LINES])
    titled = {compact_key(d.title) for d in found}
    for page in pages:
        above = ""
        for offset, raw in norm.lines[page]:
            text, above_text, above = raw.strip(), above, raw.strip()
            if offset <= last.offset or offset in taken or not title_like(text, max_words=TITLE_WORDS):
                continue
            if text[0].isdigit() or _NUMBER_ALONE.fullmatch(above_text) or compact_key(text) in titled:
                # NOTE: a number, or a title under a number alone, is a chapter's or a section's
                # (found or not); a found heading's title below its label is that heading's
                continue
            parsed = parse_heading(text)
            if parsed is not None and parsed.number:
                continue
            seen = probe.style_of(page, text)
            if seen is None or abs(seen[0] - style[0]) > SAME_SIZE or seen[1] != style[1]:
                continue
            where = f"p. {page + 1}: {seen[0]:.1f} pt{' bold' if seen[1] else ''}"
            out.append(
                Draft(
                    "back",
                    "",
                    text,
                    page,
                    offset,
                    evidence=[("typography", f"{where}, as the chapter headings")],
                )
            )
    return out


def _chapter_style(
    chapters: list[Draft], norm: NormalisedBook, probe: FontProbe
) -> tuple[float, bool] | None:
    """The size and weight the chapter headings are set in, when they agree."""
    styles = []
    for c in chapters:
        style = probe.style_of(c.page, draft_line(norm, c))
        if style is None:
            return None
        styles.append(style)
    sizes = [size for size, _ in styles]
    if max(sizes) - min(sizes) > SAME_SIZE or len({bold for _, bold in styles}) != 1:
        return None
    return styles[-1]
