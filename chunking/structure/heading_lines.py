"""Heading candidates, line by line: which lines of a page may open a chapter, part or section.

Part of the text signal (``chunking.structure.headings``, whose docstring gives the rules): a
candidate is a line that parses as a heading (``chunking.structure.kinds.parse_heading``), with
the stacked forms (``CHAPTER`` / ``ONE`` / title; a bare number above a title) read as one
heading, and contents pages (mostly lines ending in page numbers) recognised so they yield only
their own title. ``Draft`` is the candidate every structure signal passes on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..models import Rejected
from ..normalise import NormalisedBook
from ..rules import CHAPTER_KEYWORDS, KIND_KEYWORDS, ROMAN_LABEL, keyword_alternation
from .kinds import SECTION_NUMBER_ONLY, is_spelled_number, parse_heading, title_like

TOP_LINES = 3
"""Lines from the top of a page (after header removal) where an unkeyed ``N Title`` may start."""

MAX_GAP = 2
"""At most this many chapter numbers may be missing between two confirmed chapter headings."""

_MAY_START = re.compile(
    rf"\d|[-–—]\s*\d|{keyword_alternation(KIND_KEYWORDS)}|[A-Z]\.\s|[A-Z]\.\d|[A-Z]$", re.I
)
"""Cheap test before the full patterns: every heading but front/back names (first line only)
starts with a digit or a keyword."""

_MAY_START_CJK = re.compile(r"第|附录|附件|付録|[〇零一二两三四五六七八九十百]{1,5}\s*[、．.]")
"""The same for Chinese and Japanese books (``第…章``, ``附录``, ``一、``), tried on non-ASCII lines only."""


_ROMAN_LINE = re.compile(ROMAN_LABEL.lower() + "$")
_TRAILING_NUMBER = re.compile(r"\d{1,4}$")

RISING_SHARE = 0.6
"""On a contents or index page at least this share of successive line-end numbers do not fall."""

_STACK_KEYWORDS = CHAPTER_KEYWORDS
_LETTER_LINE = re.compile(r"[A-Z]\.?")
"""A line that is a capital letter alone (``A``, ``A.``): an appendix label, when set large."""

_KEYWORD_START = re.compile(rf"(?:{keyword_alternation(KIND_KEYWORDS)})\b", re.I)

FRAMED_NUMBER = re.compile(r"[-–—]?\s*(\d{1,2})\s*[-–—]?")
"""``7``, ``—7—``, ``- 7 -``: a chapter number alone on its line, maybe framed by dashes (the
title follows on the next lines)."""

STACK_TITLE_LINES = 3
"""A title under a bare chapter number may wrap over this many lines."""

SAME_SIZE = 0.5
"""Points within which two lines of one heading are set at the same size."""

STACK_TITLE_CHARS = 100
"""...and is at most this long (longer is body text)."""


@dataclass
class Draft:
    """A heading found but not yet levelled: ``page`` is a 0-based page index."""

    kind: str
    number: str
    title: str
    page: int
    offset: int
    large: bool | None = None
    top: bool = False
    needs_large: bool = False
    evidence: list[tuple[str, str]] = field(default_factory=list)
    confirmed: bool = True
    listed: bool = False
    stacked: bool = False
    in_listing: bool = False
    title_below: bool = False
    """The title was taken from the line below the label (``Chapter 7`` / ``Title``): the size
    decides whether that line is the title or already the chapter's text."""
    small_letters: bool = False
    """An unkeyed ``N. title`` whose title starts in a small letter (``4. norm usage``): a list
    item or a line of code reads the same, so it stays out of the chapter chain and counts only
    where the chain and its headings' type place it (``headings._small_letter_chapters``)."""


def is_contents_page(texts: list[str]) -> bool:
    """Most lines end in a page number (or carry dot leaders), and those numbers mostly rise: a
    contents or index page. A page of numeric output (a matrix, a table of values) ends many lines
    in numbers too, but they do not rise."""
    if len(texts) < 6:
        return False
    hits = [line for line in texts if _contents_like(line)]
    if len(hits) < 0.4 * len(texts):
        return False
    if sum(". ." in line or "..." in line for line in hits) >= 0.5 * len(hits):
        return True
    numbers = [int(m.group(0)) for line in hits if (m := _TRAILING_NUMBER.search(line))]
    pairs = list(zip(numbers, numbers[1:]))
    return not pairs or sum(a <= b for a, b in pairs) >= RISING_SHARE * len(pairs)


def _contents_like(line: str) -> bool:
    """A contents/index line: ends with a page number, has dot leaders, or is a roman number."""
    if not line:
        return False
    return line[-1].isdigit() or ". ." in line or "..." in line or bool(_ROMAN_LINE.match(line))


def line_candidates(norm: NormalisedBook, pages: set[int] | None = None) -> list[Draft]:
    out: list[Draft] = []
    may_start = _MAY_START.match  # NOTE: one lookup for the book's every line
    for index, lines in enumerate(norm.lines):
        if pages is not None and index not in pages:
            continue
        texts = [line.strip() for _, line in lines]
        found = []
        for i, text in enumerate(texts):
            if i and not may_start(text) and (text[:1] <= "\x7f" or not _MAY_START_CJK.match(text)):
                continue
            draft = _candidate(texts, i, index, lines[i][0])
            if draft is not None:
                found.append(draft)
        if found and is_contents_page(texts):
            # NOTE: on a contents page (or a page of numbers: an index, a data table, program
            # output) every line looks like a heading; its own title (the first line) stands, an
            # unkeyed ``7 Title`` there only when set large, and any other line only when set
            # large (a real chapter opening mid-page under a table of numbers is).
            for d in found:
                first = d.offset == lines[0][0]
                d.in_listing = not first
                d.needs_large = d.kind == "numbered" or not first
                d.top = d.top and first
                if not first and d.kind in ("front", "back"):
                    d.kind = "rejected"
        out.extend(found)
    return out


def _next_title(texts: list[str], i: int) -> str:
    nxt = texts[i + 1] if i + 1 < len(texts) else ""
    return nxt if title_like(nxt, max_words=12) else ""


def _stacked_title(texts: list[str], i: int) -> str:
    """The title under a bare number line: the next 1-``STACK_TITLE_LINES`` title-like lines."""
    parts: list[str] = []
    for k in range(i + 1, min(len(texts), i + 1 + STACK_TITLE_LINES)):
        line = texts[k]
        if not title_like(line, max_words=12) or len(" ".join(parts + [line])) > STACK_TITLE_CHARS:
            break
        parts.append(line)
        if k == i + 1 and not line.isupper() and len(line.split()) >= 4:
            break  # a full mixed-case title line rarely wraps at a short first line
    return " ".join(parts)


def _stack_number(line: str, keyword: str) -> bool:
    """The number line of a stacked keyword heading: a number for chapters and parts, a letter
    (or number) for appendices."""
    line = line.strip()
    return is_spelled_number(line) or (keyword == "appendix" and bool(_LETTER_LINE.fullmatch(line)))


def _candidate(texts: list[str], i: int, index: int, offset: int) -> Draft | None:
    text = texts[i]
    top = i < TOP_LINES
    word = text.casefold()
    if word in _STACK_KEYWORDS and i + 2 < len(texts) and _stack_number(texts[i + 1], word):
        # ``CHAPTER`` / ``ONE`` / ``Title`` (Sphinx and others), ``APPENDIX`` / ``A`` / ``Title``
        title = texts[i + 2] if title_like(texts[i + 2].title()) else ""
        if not title:
            return None
        kind = "chapter" if word == "chapter" else word
        return Draft(
            kind,
            texts[i + 1],
            title.title() if title.isupper() else title,
            index,
            offset,
            top=top,
            evidence=[("keyword", f"p. {index + 1}: '{text}' / '{texts[i + 1]}'")],
        )
    if _LETTER_LINE.fullmatch(text):
        # NOTE: ``A`` / ``Installation Notes``: an appendix letter above its title; must be set
        # large, and appendices must follow the chapters in a run A, B, C (see _appendices).
        title = _stacked_title(texts, i)
        letter = text.rstrip(".")
        if not title:
            return None
        return Draft("appendix", letter, title, index, offset, top=top, needs_large=True, stacked=True)
    m = SECTION_NUMBER_ONLY.match(text)
    if m and m.group("num").count(".") == 1:
        title = _next_title(texts, i)
        return Draft("section", m.group("num"), title, index, offset, top=top) if title else None
    bare = FRAMED_NUMBER.fullmatch(text)
    if bare:
        # NOTE: a bare number then the title on 1-3 lines (``3`` / ``Graphical`` / ``procedures``):
        # a page number or a table cell looks the same, so it must be set large.
        title = _stacked_title(texts, i)
        if not title:
            return None
        return Draft("numbered", bare.group(1), title, index, offset, top=top, needs_large=True, stacked=True)
    if text.isdecimal():
        # NOTE: a longer number alone on its line (an index's or a contents' page number, a
        # table's value) is no heading: numbered headings carry a title. Said here so that the
        # many such lines of an index skip the heading patterns.
        return None
    parsed = parse_heading(text)
    needs_large = False
    if parsed is None:
        # NOTE: ``9. Power Series.``: some books end every heading with a full stop; so do
        # sentences, so such a line must be set large.
        parsed = parse_heading(text, full_stop=True, lettered=True)
        needs_large = True
        if parsed is None:
            parsed = parse_heading(text, any_case=True)
            if parsed is None or parsed.kind != "numbered" or not parsed.title[:1].islower():
                return None
            if len(parsed.title.split()) > 8:
                return None
            return Draft(
                "numbered",
                parsed.number,
                parsed.title,
                index,
                offset,
                top=top,
                needs_large=True,
                small_letters=True,
            )
    kind, number, title = parsed.kind, parsed.number, parsed.title
    keyword = bool(_KEYWORD_START.match(text))
    if kind == "section" and keyword and number.isdigit():
        kind, needs_large = "numbered", True  # ``Section 3`` used for chapters: the chain decides
    below = False
    if kind in ("chapter", "part", "appendix", "back", "numbered") and number and not title:
        title = _next_title(texts, i)
        below = bool(title)
        if not title and kind == "chapter" and keyword:
            # NOTE: ``Chapter 7`` alone, the chapter's text right below (a novel's chapters have
            # no titles): a label like a cross reference wrapped onto its own line, so it must
            # be set large.
            return Draft(
                kind,
                number,
                "",
                index,
                offset,
                top=top,
                needs_large=True,
                evidence=[("keyword", f"p. {index + 1}: '{text[:60]}'")],
            )
        if not title and kind in ("chapter", "numbered"):
            return None
    if kind == "section" and (not title or number.count(".") != 1):
        return None
    evidence = [("keyword", f"p. {index + 1}: '{text[:60]}'")] if keyword else []
    if kind == "numbered" and not top:
        if len(title.split()) > 8:
            return None
        return Draft(
            kind, number, title, index, offset, top=False, needs_large=needs_large, evidence=evidence
        )
    if kind in ("front", "back") and not number and i != 0:
        return None
    return Draft(
        kind,
        number,
        title,
        index,
        offset,
        top=top,
        needs_large=needs_large,
        evidence=evidence,
        title_below=below,
    )


def rejected_draft(norm: NormalisedBook, draft: Draft, why: str) -> Rejected:
    """A candidate heading left out, with why (what ``--explain`` lists)."""
    line = draft_line(norm, draft)
    return Rejected("headings", line, why, draft.page + 1, f"p. {draft.page + 1} '{line[:60]}': {why}")


def draft_line(norm: NormalisedBook, draft: Draft) -> str:
    """The kept line of the draft's page that starts at its offset (the line to probe for its
    type size), else its title."""
    for offset, line in norm.lines[draft.page]:
        if offset == draft.offset:
            return line
    return draft.title
