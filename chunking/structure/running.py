"""Stage 3 (structure), running headers as evidence: the header printed over the pages after a
chapter opening names that chapter.

Contract: ``running_evidence(headings, norm)`` adds a ``running_header`` pair to every
chapter-level heading whose following pages carry a removed header line that names it (its
title, fuzzy, or ``Chapter N`` / ``N.`` with its number), and lists the header runs that name a
numbered chapter no heading opens (a disagreement: a chapter the detector missed, or a header
that outlived its chapter). It reads only what normalisation removed
(``NormalisedBook.furniture``), so it costs nothing on the PDF.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter

from rapidfuzz import fuzz

from ..models import Disagreement, Heading
from ..normalise import NormalisedBook
from ..rules import KEYWORD_WORDS, keyword_alternation
from .evidence import CHAPTER_LEVEL, confidence
from .kinds import words_key

FOLLOW_PAGES = 3
"""A chapter's running header shows within this many pages after its opening page."""

BOOK_WIDE_SHARE = 0.5
"""A header on more than this share of the pages that carry headers is the book's, not a chapter's."""

NAME_MIN = 85
"""rapidfuzz partial ratio (0-100) above which a header names a heading's title."""

_LETTERS = re.compile(r"[^\W\d_]{3}")
_CHAPTER_NUMBER = re.compile(
    rf"^(?:{keyword_alternation((*KEYWORD_WORDS['chapter'], *KEYWORD_WORDS['appendix']))})\s+([0-9]{{1,3}}|[A-Z])\b[.:]?"
    r"|^([0-9]{1,3}|[A-Z])\.\s",
    re.I,
)


def _headers(norm: NormalisedBook) -> list[list[str]]:
    """Per page, the removed furniture lines that have words and change through the book (folios,
    slugs and a book-wide header such as the book's own title name no chapter)."""
    if not norm.furniture:
        return [[] for _ in norm.pages]
    pages = [[line for line in lines if _LETTERS.search(line)] for lines in norm.furniture]
    shapes = {line: _shape(line) for lines in pages for line in lines}  # NOTE: each line's once
    counts = Counter(shapes[line] for lines in pages for line in set(lines))
    printed = sum(1 for lines in pages if lines)
    constant = {key for key, n in counts.items() if n > BOOK_WIDE_SHARE * printed}
    return [[line for line in lines if shapes[line] not in constant] for lines in pages]


def _shape(line: str) -> str:
    """A header line with its numbers blanked: the same header on every page has one shape."""
    return words_key(re.sub(r"\d+", "#", line))


def _names(header: str, h: Heading) -> bool:
    m = _CHAPTER_NUMBER.match(header.strip())
    if m and h.number and (m.group(1) or m.group(2)).upper() == h.number.upper():
        return True
    title = words_key(h.title)
    return len(title) >= 4 and fuzz.partial_ratio(title, words_key(header)) >= NAME_MIN


def running_evidence(
    headings: tuple[Heading, ...], norm: NormalisedBook
) -> tuple[tuple[Heading, ...], list[Disagreement]]:
    """Headings with ``running_header`` evidence added, and disagreements (see the module docstring)."""
    headers = _headers(norm)
    if not any(headers):
        return headings, []
    out = []
    for h in headings:
        if h.kind not in CHAPTER_LEVEL or any(s == "running_header" for s, _ in h.evidence):
            out.append(h)
            continue
        index = h.page - 1
        found: tuple[int, str] | None = None
        for page in range(index, min(len(headers), index + 1 + FOLLOW_PAGES)):
            line = next((line for line in headers[page] if _names(line, h)), None)
            if line:
                found = (page, line)
                break
        if found is None:
            out.append(h)
            continue
        evidence = h.evidence + (("running_header", f"p. {found[0] + 1}: '{found[1][:70]}'"),)
        confirmed = h.confidence >= confidence(s for s, _ in h.evidence) - 1e-9
        out.append(
            dataclasses.replace(
                h, evidence=evidence, confidence=confidence((s for s, _ in evidence), confirmed)
            )
        )
    numbers = {h.number.upper() for h in headings if h.kind in CHAPTER_LEVEL and h.number}
    disagreements: list[Disagreement] = []
    seen: set[str] = set()
    for page, lines in enumerate(headers):
        for line in lines:
            m = _CHAPTER_NUMBER.match(line.strip())
            if not m or not line.strip().lower().startswith(("chapter", "appendix")):
                continue
            number = (m.group(1) or m.group(2)).upper()
            if number not in numbers and number not in seen:
                seen.add(number)
                message = (
                    f"running_header: '{line.strip()[:60]}' on p. {page + 1} names chapter "
                    f"{number}, which no heading opens"
                )
                disagreements.append(
                    Disagreement(
                        "unopened", ("running_header",), "chapter", number, line.strip(), page + 1, message
                    )
                )
    return tuple(out), disagreements
