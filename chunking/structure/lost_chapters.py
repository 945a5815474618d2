"""Stage 3 (structure), markup sources: a chapter whose heading the text lost, where two signals
place it.

A book joined from the pages of a site (a crawler's main-content extraction of each page, the
pages one after another) keeps some pages' headings and drops others: the dropped chapter's text
runs on under the previous chapter. Two signals of the book itself still say where it opens:

* **numbering**: its sections keep their numbers (``2.1``, ``2.3``) under a chapter numbered
  below (``1``), and no heading numbers chapter ``2``: chapter ``2`` opens after the last heading
  numbered below it and before its first section;
* **the page's opening**: a paragraph that opens the text under every chapter heading found (the
  notice each page of the site carries at its top, the same words under each), standing again
  in that span, is where the page, and so the chapter, starts.

Only where both agree is a chapter put in, at that paragraph. Its title is the one the book's
own cross-references give chapter ``N`` (``"Chapter 3. Title"`` quoted, ``Chapter 3, *Title*``
with the title in emphasis: DocBook's cross-reference text and link titles), where they give
every found chapter they name its heading's title; else it is untitled, as a ``Chapter 7``
label alone is.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

from ..models import Heading
from ..normalise import NormalisedBook
from ..rules import KEYWORD_WORDS
from .evidence import confidence
from .kinds import words_key

OPENED_MIN = 2
"""Chapter headings a paragraph must open before it is read as every page's opening."""

OPENED_SHARE = 0.75
"""Share of the numbered chapters found that the paragraph must open: a notice on every page
opens them all; a few chapters that share a first sentence by chance are not pages of a site."""

OPENING_WORDS = 12
"""Words of a paragraph's start compared: a notice is the same words on every page, and a page's
end may run the text after it on (pages joined by one line break)."""

NOTICE_WORDS = 6
"""Fewest words of a paragraph read as a notice: a word or three (``Note``, ``See also``) open
many paragraphs of any book."""

_SECTION = re.compile(r"(\d+)\.\d")
"""A section number ``N.M`` (``N.M.K``), its chapter ``N``."""

_CHAPTER = "|".join(KEYWORD_WORDS["chapter"])
_XREF = re.compile(
    rf"""(?:(["“\[])(?:{_CHAPTER})\s+(\d+)[.:,]?\s+([^"”\]\n]+?)(["”\]]))"""
    rf"""|(?:\b(?:{_CHAPTER})\s+(\d+),\s+\*([^*\n]+)\*)""",
    re.IGNORECASE,
)
"""A cross-reference naming a chapter with its title: the whole quoted or bracketed
(``"Chapter 3. Title"``, ``[Chapter 3: Title]``), or the title in emphasis after the number
(``Chapter 3, *Title*``)."""

_CLOSE = {'"': '"', "“": "”", "[": "]"}


def lost_chapters(headings: tuple[Heading, ...], norm: NormalisedBook) -> tuple[Heading, ...]:
    """``headings`` with the chapters whose heading the text lost put in (module docstring)."""
    chapters = [h for h in headings if h.kind == "chapter" and h.number.isdigit()]
    if len(chapters) < OPENED_MIN:
        return headings
    text = norm.text
    openers = Counter(_opening(text, h.char_offset)[1] for h in chapters)
    banner, opened = openers.most_common(1)[0]
    if len(banner.split()) < NOTICE_WORDS or opened < max(OPENED_MIN, OPENED_SHARE * len(chapters)):
        return headings
    found = {int(h.number) for h in chapters}
    starts = {_opening(text, h.char_offset)[0] for h in headings}
    offsets = [h.char_offset for h in headings]
    titles = _referenced_titles(text, chapters)
    page_starts = [p.char_start for p in norm.pages]
    added: list[Heading] = []
    for at in _paragraphs_reading(text, banner):
        if at in starts:
            continue  # the opening under a heading the text kept
        k = bisect_right(offsets, at)
        number = _lost_number(headings[:k], headings[k:], found)
        if number is None:
            continue
        found.add(number)
        page = norm.pages[max(0, bisect_right(page_starts, at) - 1)]
        evidence = (
            ("numbering", f"sections {number}.M with no chapter {number} before them"),
            ("running_header", "the paragraph that opens every chapter found opens this page"),
        )
        added.append(
            replace(
                chapters[0],
                title=titles.get(number, ""),
                number=str(number),
                page=page.number,
                page_label=page.label,
                char_offset=at,
                evidence=evidence,
                confidence=confidence(signal for signal, _ in evidence),
            )
        )
    if not added:
        return headings
    return tuple(sorted((*headings, *added), key=lambda h: (h.char_offset, h.level)))


def _lost_number(before: tuple[Heading, ...], after: tuple[Heading, ...], found: set[int]) -> int | None:
    """The chapter the numbering says opens between ``before`` and ``after``: the chapter ``N``
    of the first section after, when no chapter ``N`` was found, no chapter-level heading stands
    between, and every numbered heading before is numbered below ``N``."""
    nxt = next((h for h in after if h.kind != "section" or _SECTION.match(h.number)), None)
    section = _SECTION.match(nxt.number) if nxt is not None and nxt.kind == "section" else None
    if section is None or (number := int(section[1])) in found:
        return None
    prior = [int(m[1]) for h in before if (m := re.match(r"(\d+)(?:\.|$)", h.number))]
    return number if prior and max(prior) < number else None


def _opening(text: str, offset: int) -> tuple[int, str]:
    """Where the first paragraph after the heading at ``offset`` starts (its block, title and
    underline, ends at a blank line) and its first ``OPENING_WORDS`` words."""
    end = text.find("\n\n", offset)
    if end < 0:
        return -1, ""
    start = end
    while start < len(text) and text[start] in " \t\n":
        start += 1
    start = text.rfind("\n", 0, start) + 1  # NOTE: from its line's start, its indent included
    return start, _opening_words(text, start)


def _opening_words(text: str, start: int) -> str:
    return " ".join(text[start : _paragraph_end(text, start)].split()[:OPENING_WORDS])


_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def _paragraph_end(text: str, start: int) -> int:
    stop = _BLANK_LINE.search(text, start)
    return stop.start() if stop else len(text)


def _paragraphs_reading(text: str, words: str) -> Iterator[int]:
    """The starts of the paragraphs that open with ``words``, in book order."""
    head = words.split()[0]
    at = text.find(head)
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        before = text[start:at]
        if not before.strip() and (
            start < 2 or not text[text.rfind("\n", 0, start - 1) + 1 : start - 1].strip()
        ):
            if _opening_words(text, start) == words:
                yield start
        at = text.find(head, at + len(head))


def _referenced_titles(text: str, chapters: list[Heading]) -> dict[int, str]:
    """The title the book's cross-references give each chapter number, when they give each found
    chapter they name the title of its heading (``{}`` otherwise)."""
    named: dict[int, Counter[str]] = {}
    for m in _XREF.finditer(text):
        if m[1] and _CLOSE[m[1]] != m[4]:
            continue
        number, title = (m[2], m[3]) if m[1] else (m[5], m[6])
        title = " ".join(title.replace("`", "").replace("*", "").split()).rstrip(".")
        named.setdefault(int(number), Counter())[title] += 1
    own = {int(h.number): words_key(h.title) for h in chapters}
    checked = [n for n in named if n in own]
    if not checked or any(words_key(named[n].most_common(1)[0][0]) != own[n] for n in checked):
        return {}
    return {n: titles.most_common(1)[0][0] for n, titles in named.items() if n not in own}
