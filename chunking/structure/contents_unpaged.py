"""Stage 3 (structure), one signal: a printed contents that numbers its chapters and gives no
page numbers.

Contract: ``unpaged_contents(norm, probe)`` finds, among the first pages of a PDF, a page headed
``Contents`` (``Table of Contents``) whose following lines number entries ``1.``, ``2.``, … in
sequence (over that page and the next ones), and places each entry where its title stands as a
line of its own after the contents, in the contents' order, set larger than the body. It
returns drafts for the placed entries, which the text detector takes as listed chapters.

Why: a contents set by hand or by a word processor's list may number the chapters and give no
pages (``1. Introduction`` … ``9. Index``). Its lines are no headings (``read_contents``
needs page numbers to know a contents page, and the lines themselves are rejected as small), yet
the order and the titles are the book's word on what its chapters are: a chapter whose heading
the text sets at the size of the sections (one that opens mid-page inside the chapter before
it) is still a chapter. Three things must agree before an entry is placed: its title alone on
a line, its place after the entry before it, and a type size above the body (a mention of the
title in a sentence, or a cross-reference line at the body size, is none).
"""

from __future__ import annotations

import re

from ..normalise import NormalisedBook
from .contents_lines import CONTENTS_HEADING, SCAN_MIN_PAGES, SCAN_SHARE
from .heading_lines import SAME_SIZE, Draft
from .kinds import title_like, words_key
from .typography import FontProbe

MIN_ENTRIES = 4
"""Fewest numbered entries that make a contents (a short numbered list is a list)."""

MAX_PAGES = 3
"""Pages a contents may run over, its heading's page included."""

_ENTRY = re.compile(r"^(\d{1,3})\.?\s+(\S.*)$")
_PAGED = re.compile(r"(?:\s|\.)\d{1,4}$")
"""A trailing page number: such a contents is ``read_contents``'s."""


def unpaged_contents(norm: NormalisedBook, probe: FontProbe) -> tuple[list[Draft], set[int]]:
    """The chapters an unpaged, numbered contents lists, placed on their heading lines (see the
    module docstring), and the offsets of the contents' own entry lines (no headings, whatever
    their size); both empty when the book has no such contents or places fewer than
    ``MIN_ENTRIES`` of its entries."""
    body = probe.body_size()
    if probe.layout is None or not body:
        return [], set()
    scan = min(len(norm.lines), max(SCAN_MIN_PAGES, int(SCAN_SHARE * len(norm.lines))))
    for page in range(scan):
        head = next(
            (k for k, (_, line) in enumerate(norm.lines[page]) if CONTENTS_HEADING.match(line.strip())), None
        )
        if head is None:
            continue
        entries, end = _entries(norm, page, head)
        if len(entries) >= MIN_ENTRIES:
            placed = _placed(norm, probe, body, entries, end, page)
            if len(placed) < MIN_ENTRIES:
                return [], set()
            return placed, {offset for offset, _, _ in entries}
    return [], set()


def _entries(
    norm: NormalisedBook, page: int, head: int
) -> tuple[list[tuple[int, str, str]], tuple[int, int]]:
    """The numbered entries after the contents heading at line ``head`` of ``page``, numbered
    from 1 in sequence (lines between them, sub-entries and lists of names, are passed over),
    each as (offset, number, title), and where the last stands (page, line). A line ending in a page number makes no entry
    list: the contents is a paged one."""
    entries: list[tuple[int, str, str]] = []
    end = (page, head)
    for index in range(page, min(page + MAX_PAGES, len(norm.lines))):
        found = False
        for k, (offset, line) in enumerate(norm.lines[index]):
            if index == page and k <= head:
                continue
            m = _ENTRY.match(line.strip())
            if not m or int(m.group(1)) != len(entries) + 1:
                continue
            title = m.group(2).strip()
            if _PAGED.search(title):
                return [], end
            if title_like(title):
                entries.append((offset, m.group(1), title))
                end, found = (index, k), True
        if not found and index > page:
            break
    return entries, end


def _placed(
    norm: NormalisedBook,
    probe: FontProbe,
    body: float,
    entries: list[tuple[int, str, str]],
    end: tuple[int, int],
    source: int,
) -> list[Draft]:
    """Each entry on the first line after the previous one placed (after the contents at first)
    that is its title alone, with or without its number, set larger than the body; titled as
    that line prints it."""
    out: list[Draft] = []
    cursor = (end[0], end[1] + 1)
    for _, number, title in entries:
        hit = _find(norm, probe, body, number, title, cursor)
        if hit is None:
            continue
        index, k = hit
        cursor = (index, k + 1)
        shown = _ENTRY.match(norm.lines[index][k][1].strip())
        printed = shown.group(2) if shown and shown.group(1) == number else norm.lines[index][k][1]
        title = " ".join(printed.split())  # NOTE: the title as the page prints it
        where = f"contents p. {source + 1}: '{number}. {title[:60]}' (no page numbers) -> p. {index + 1}"
        out.append(
            Draft("numbered", number, title, index, norm.lines[index][k][0], evidence=[("contents", where)])
        )
    return out


def _find(
    norm: NormalisedBook, probe: FontProbe, body: float, number: str, title: str, cursor: tuple[int, int]
) -> tuple[int, int] | None:
    """The first line from ``cursor`` that is the entry's heading (``_is_heading_of``) and is
    set larger than the body."""
    for index in range(cursor[0], len(norm.lines)):
        for k, (_, line) in enumerate(norm.lines[index]):
            if (index, k) < cursor or not _is_heading_of(line, number, title):
                continue
            size = probe.size_of(index, line)
            if size is not None and size > body + SAME_SIZE:
                return index, k
    return None


def _is_heading_of(line: str, number: str, title: str) -> bool:
    """Whether ``line`` is the heading of entry ``number``/``title``: its title, with or
    without the number, or the title less words at one end (two words left at least), as a
    contents and the page may word one title apart (``Binary File Formats`` listed, ``File
    Formats`` printed)."""
    m = _ENTRY.match(line.strip())
    if m and m.group(1) == number:
        line = m.group(2)
    got, want = words_key(line), words_key(title)
    if not got:
        return False
    if got == want:
        return True
    return len(got.split()) >= 2 and (want.endswith(" " + got) or want.startswith(got + " "))
