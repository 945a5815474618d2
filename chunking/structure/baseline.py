"""Stage 3 (structure), baseline: the plain reading of a book's own outline (PDF bookmarks, EPUB
nav), with no other signal.

Why it exists: the outline is what the book says its structure is. The engine (``auto``) may
overrule an outline entry, but only on evidence from independent signals (``guard.py``); this
reading is what "the outline says" means, and the bench scores it beside the engine on every book
(``bench/structure.py``) so that the engine can never quietly do worse than its own input.

A PDF's outline comes here as its pages set the headings (``outline_runs.as_set``: the styled runs
of one heading line joined into one entry, a destination past its page's text moved to the next
page), the outline the engine reads too. The reading, and all of it (``outline_baseline``):

* entries whose destination does not resolve, or whose title is empty, are skipped;
* each title is read for what it says it is (``kinds.parse_heading``): ``Part …``, ``Chapter N``,
  ``Appendix X``, ``N Title``, ``N.M Title`` (a section wherever it sits), front/back matter words;
* **wrappers**: from the top, a depth is skipped while one of its entries holds at least
  ``WRAPPER_SHARE`` of all the other entries from that depth down and its title does not say it
  is a unit (``1 Setup`` holding its sections is a chapter, not a wrapper) (a lone book-title root, or title-page entries with the
  whole book nested under one of them), and what it holds starts at or after its own page (an
  entry whose children mostly point back to earlier pages lists links into the book, as a
  program's module names under the last entry do: it wraps nothing), and no more than one
  sibling after it reads as a chapter opening a page of its own (``WRAPPER_FOLLOWERS``: two
  such siblings, not front or back matter, appendices or parts, make the depth the chapter
  level with one big chapter among them);
* **parts**: a depth (with deeper entries) is the part level when at least ``PART_SHARE`` of its
  body entries say ``Part``, or are roman-numbered in sequence, or when it holds no chapter words
  itself while its children do (``Chapter N`` below unnumbered level-1 titles) or the chapter
  numbers inside it (numbered children, or the ``N`` of ``N.M`` sections below) run on across its
  entries (1, 2 | 3 | 4, 5: not restarting, and not one number per entry as chapters' sections),
  or restart in each with sections of their own below (volumes of a work), unless most of its
  entries list their own references (contributed chapters or articles, each numbering its
  sections from 1);
* the **chapter level** is the next depth; entries there are chapters, appendices (``Appendix``,
  or lettered after the chapters), front or back matter (by their words, or unnumbered before the
  first / after the last numbered chapter); entries at the part level that say ``Chapter`` are
  chapters beside the parts; every deeper entry is a section, and so is every entry nested under
  back matter at the part level (``Index`` over its letter groups ``Symbols``, ``A``, ``B``…).

The result is a list of ``BaselineEntry`` (kind, title, number, 0-based page, offset into that
page's raw text for EPUB, depth), in outline order.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ..readers.raw import OutlineEntry
from ..rules import FENCE_KINDS as CHAPTER_LEVEL
from ..rules import roman_value
from .kinds import BACK_WORDS, FRONT_WORDS, clean_title, parse_heading

WRAPPER_SHARE = 0.75
"""A depth is a wrapper (skipped) while one of its entries holds this share of all deeper entries."""

WRAPPER_FOLLOWERS = 2
"""Siblings after a big entry, each opening a page of its own past it, that make its depth the
chapter level rather than a wrapper (``_followed``)."""

PART_SHARE = 0.5
"""A depth is the part level when this share of its body entries are parts (``Part``, roman run)."""

MIN_GROUPS = 2
"""Group entries (``_groups``) a depth must hold before they are read as groups."""

GROUP_GAP = 48.0
"""Points below a group entry's destination within which its one chapter's destination stands when
the two are one heading set twice (the next heading line: a few lines of type at most)."""


@dataclass(frozen=True)
class BaselineEntry:
    """One outline entry as the plain reading takes it.

    Attributes:
        kind (str): ``part``, ``chapter``, ``appendix``, ``front``, ``back``, ``section``, or
            ``book`` for a wrapper (an entry above the units: the book's title or title pages).
        title (str): the cleaned title (its number and keyword kept out where the title says them).
        number (str): ``"3"``, ``"IV"``, ``"A"``, ``""``.
        page (int): 0-based page index of the destination.
        offset (int | None): EPUB: offset into that page's raw text; None for PDF.
        depth (int): the entry's depth in the source (1 = outermost).
        outline_title (str): the title as the outline states it (cleaned of junk only).
    """

    kind: str
    title: str
    number: str
    page: int
    offset: int | None
    depth: int
    outline_title: str

    @property
    def chapter_level(self) -> bool:
        return self.kind in CHAPTER_LEVEL


@dataclass(frozen=True)
class _Read:
    entry: OutlineEntry
    title: str
    said: str  # what the title says: part, chapter, appendix, section, numbered, front, back, ""
    number: str
    rest: str
    children: int  # entries nested under this one (all depths)


def _read(outline: list[OutlineEntry], pages: int) -> list[_Read]:
    """Resolved entries with what their titles say and how many entries each holds (a group
    over its chapter left out: ``_groups``)."""
    kept = [e for e in outline if 1 <= e.page <= pages and clean_title(e.title)]
    groups = _groups(kept)
    kept = [e for i, e in enumerate(kept) if i not in groups]
    out = []
    for i, e in enumerate(kept):
        held = 0
        for later in kept[i + 1 :]:
            if later.level <= e.level:
                break
            held += 1
        title = clean_title(e.title)
        parsed = parse_heading(title, full_stop=True, any_case=True)
        said, number, rest = ("", "", title) if parsed is None else (parsed.kind, parsed.number, parsed.title)
        if said == "numbered" and not number.isdigit():
            said = ""
        out.append(_Read(e, title, said, number, rest or title, held))
    return out


def _says(title: str) -> tuple[str, str]:
    parsed = parse_heading(clean_title(title), full_stop=True, any_case=True)
    return ("", "") if parsed is None else (parsed.kind, parsed.number)


def _groups(kept: list[OutlineEntry]) -> set[int]:
    """The indices of group entries: an entry whose title says nothing (no number, no word of a
    kind) and whose one child, the only entry one depth below it, is a numbered chapter pointing
    at its page right below it (within ``GROUP_GAP``) is the title of a group set over that
    chapter, one heading set twice; the chapter is the unit. Without them, the entries beside
    the chapters at the groups' depth hold the chapters that follow them (parts, by
    ``_is_parts``). Only where the groups are the outline's way (``MIN_GROUPS`` of them at a
    depth, and every entry there holding a numbered chapter one of them): a part holding one
    chapter on its page among parts holding several is a part."""
    out = set()
    for i, e in enumerate(kept[:-1]):
        child = kept[i + 1]
        if child.level <= e.level or child.page != e.page or e.y is None or child.y is None:
            continue
        if not 0 <= child.y - e.y <= GROUP_GAP or _says(e.title)[0]:
            continue
        kind, number = _says(child.title)
        if kind not in ("numbered", "chapter") or not number.isdigit():
            continue
        held = []
        for later in kept[i + 1 :]:
            if later.level <= e.level:
                break
            held.append(later.level)
        if held.count(child.level) == 1:
            out.add(i)
    for level in {kept[i].level for i in out}:
        here = {i for i in out if kept[i].level == level}
        holders = {i for i, e in enumerate(kept) if e.level == level and _holds_numbered(kept, i)}
        if len(here) < MIN_GROUPS or here != holders:
            out -= here
    return out


def _holds_numbered(kept: list[OutlineEntry], i: int) -> bool:
    """Whether entry ``i`` holds a chapter numbered ``N`` among the entries nested under it."""
    for later in kept[i + 1 :]:
        if later.level <= kept[i].level:
            return False
        kind, number = _says(later.title)
        if kind in ("numbered", "chapter") and number.isdigit():
            return True
    return False


def _is_parts(here: list[_Read], below: list[_Read], read: list[_Read] | None = None) -> bool:
    """Whether the entries ``here`` (one depth, with ``below`` under them) are parts."""
    body = [r for r in here if r.said not in ("front", "back")]
    if not body or not below:
        return False
    parts = sum(r.said == "part" for r in body)
    if parts >= PART_SHARE * len(body):
        return True
    romans = [_roman_prefix(r.title) for r in body if r.said == "" and _roman_prefix(r.title)]
    # NOTE: roman-numbered titles are parts only as a run I, II, III… (``C French`` and
    # ``D British`` after ``A``, ``B`` are letters, and a lone ``V Title`` is a chapter).
    if len(romans) >= 2 and romans[:2] == [1, 2] and parts + len(romans) >= PART_SHARE * len(body):
        return True
    holders = [r for r in body if r.children]
    if len(holders) < 2 or any(r.said in ("chapter", "numbered", "appendix") for r in body):
        return False
    if [r.said for r in below].count("chapter") >= 2:
        return True  # ``Chapter N`` below unnumbered titles: those titles are parts
    if read is None:
        return False
    return _numbers_run_on(holders, read) or (
        _chapters_restart(holders, read) and not _own_references(holders, read)
    )


def _own_references(holders: list[_Read], read: list[_Read]) -> bool:
    """Whether most holders list their own references or bibliography among their children:
    the contributed chapters of an edited volume or the articles of a journal issue, each
    numbering its sections from 1, not the volumes of a work restarting their chapters."""
    index = {id(r): i for i, r in enumerate(read)}
    holding = 0
    for h in holders:
        start = index[id(h)]
        inside = read[start + 1 : start + 1 + h.children]
        holding += any(r.entry.level == h.entry.level + 1 and BACK_WORDS.search(r.title) for r in inside)
    return holding >= PART_SHARE * len(holders)


def _numbers_run_on(holders: list[_Read], read: list[_Read]) -> bool:
    """Whether the chapter numbers inside the holders run on across them (1, 2 | 3 | 4, 5) rather
    than restart or stay one per holder: a chapter number is the ``N`` of a numbered entry or of
    an ``N.M`` section below a holder. Holders that number on, one holding two numbers or more,
    hold chapters: they are parts."""
    index = {id(r): i for i, r in enumerate(read)}
    ranges = []
    for h in holders:
        start = index[id(h)]
        numbers = []
        for r in read[start + 1 : start + 1 + h.children]:
            head = r.number.split(".")[0] if r.said in ("numbered", "section") else ""
            if head.isdigit():
                numbers.append(int(head))
        if numbers:
            ranges.append(sorted(set(numbers)))
    if len(ranges) < 2 or all(len(r) < 2 for r in ranges):
        return False
    return all(a[-1] < b[0] for a, b in zip(ranges, ranges[1:]))


def _chapters_restart(holders: list[_Read], read: list[_Read]) -> bool:
    """Whether at least two holders each number their own chapters from 1, and those carry
    sections numbered from their own number (``2. Basics`` over ``2.1.``, ``2.2.``): the
    books of a set or the volumes of a work, each restarting its chapters, are parts. Children
    numbered ``1, 2`` with no ``N.M`` of their own below stay the sections of their holder
    (``_numbers_run_on``'s restart case)."""
    index = {id(r): i for i, r in enumerate(read)}
    restarting = 0
    for h in holders:
        start = index[id(h)]
        inside = read[start + 1 : start + 1 + h.children]
        own = [
            (k, r)
            for k, r in enumerate(inside)
            if r.entry.level == h.entry.level + 1 and r.said == "numbered" and r.number.isdigit()
        ]
        if len(own) < 2 or int(own[0][1].number) != 1:
            continue
        if any(
            r.said == "section" and r.number.split(".")[0] == child.number
            for k, child in own
            for r in inside[k + 1 : k + 1 + child.children]
        ):
            restarting += 1
    return restarting >= 2


def _points_back(holder: _Read, read: list[_Read]) -> bool:
    """Whether most entries nested under ``holder`` point to pages before its own: a list of
    links back into the book (the names of a program's modules under the last entry, an index
    of names), not a wrapper. A wrapper holds the book: what it holds starts at or after it."""
    start = next(i for i, r in enumerate(read) if r is holder)
    inside = read[start + 1 : start + 1 + holder.children]
    return sum(r.entry.page < holder.entry.page for r in inside) > len(inside) / 2


def _followed(holder: _Read, here: list[_Read]) -> bool:
    """Whether at least ``WRAPPER_FOLLOWERS`` siblings after ``holder`` open pages of their own
    past its page (on as many different pages) and read as chapters (a ``Chapter``/``N`` title
    or none that says a kind: no front or back matter, appendix, part or section): chapters
    beside a big one, not a wrapper's leftovers. A wrapper holds the book: the title pages come
    before it, at most an index or references after it; ``Part II`` after it says it is a part
    (``_is_parts``)."""
    after = here[next(i for i, r in enumerate(here) if r is holder) + 1 :]
    pages = {
        r.entry.page
        for r in after
        if r.entry.page > holder.entry.page
        and r.said in ("", "chapter", "numbered")
        and not (FRONT_WORDS.match(r.title) or BACK_WORDS.search(r.title))
    }
    return len(pages) >= WRAPPER_FOLLOWERS


def _roman_prefix(title: str) -> int:
    """The value of the capital roman numeral that opens ``title`` before more words (``IV
    Results`` → 4), 0 when none does (a letter that is no numeral, ``A Setup``, is none)."""
    head = title.split(" ", 1)[0].rstrip(".:")
    if not (head.isupper() and len(title.split()) > 1):
        return 0
    return roman_value(head)


def outline_baseline(outline: list[OutlineEntry], pages: int) -> list[BaselineEntry]:
    """The plain reading of ``outline`` (see the module docstring).

    Args:
        outline: the source's outline entries, in order.
        pages: how many pages (PDF) or spine pages (EPUB) the book has.

    Returns:
        list[BaselineEntry]: every resolved entry with its kind, in outline order.
    """
    read = _read(outline, pages)
    if not read:
        return []
    by_depth: dict[int, list[_Read]] = defaultdict(list)
    for r in read:
        by_depth[r.entry.level].append(r)
    depths = sorted(by_depth)
    k = 0
    while k + 1 < len(depths):  # wrappers: one entry holds nearly everything below
        here = by_depth[depths[k]]
        others = len(here) - 1 + sum(len(by_depth[d]) for d in depths[k + 1 :])
        holder = max(here, key=lambda r: r.children)
        if (
            holder.said not in ("part", "chapter", "appendix", "numbered", "section")
            and holder.children >= WRAPPER_SHARE * others
            and not _points_back(holder, read)
            and not _followed(holder, here)
            and not _is_parts(here, [r for d in depths[k + 1 :] for r in by_depth[d]], read)
        ):
            k += 1
            continue
        break
    part_depth = None
    if k + 1 < len(depths) and _is_parts(by_depth[depths[k]], by_depth[depths[k + 1]], read):
        part_depth, chapter_depth = depths[k], depths[k + 1]
    else:
        chapter_depth = depths[k]
    at_chapter = [r for r in read if r.entry.level == chapter_depth]
    numbered = [
        i for i, r in enumerate(read) if r.entry.level == chapter_depth and r.said in ("chapter", "numbered")
    ]
    first, last = (numbered[0], numbered[-1]) if numbered else (None, None)
    inner_first = next((i for i, r in enumerate(read) if r.entry.level == chapter_depth), None)
    out: list[BaselineEntry] = []
    above = ""  # the kind of the last entry read above the chapter depth
    for i, r in enumerate(read):
        depth = r.entry.level
        if depth < chapter_depth:
            above = ""
        if depth < (part_depth if part_depth is not None else chapter_depth):
            out.append(BaselineEntry("book", r.title, "", r.entry.page - 1, r.entry.offset, depth, r.title))
            continue  # a wrapper: the book's title (or its title pages), not a unit of it
        if depth == part_depth:
            kind = {"chapter": "chapter", "numbered": "chapter", "appendix": "appendix"}.get(r.said, "part")
            if r.said in ("front", "back") or (FRONT_WORDS.match(r.title) or BACK_WORDS.search(r.title)):
                kind = _matter(r, i, first if first is not None else inner_first)
            elif kind == "part" and r.said != "part" and r.children == 0:
                # NOTE: a part holds chapters: an unnamed entry with nothing below it at the part
                # depth (``Zusammenfassung``, ``Acronyms``) is front or back matter.
                kind = _matter(r, i, first if first is not None else inner_first)
            above = kind
        elif depth == chapter_depth:
            # NOTE: entries under a back-matter entry are its parts (an index's letter groups)
            kind = "section" if above == "back" else _chapter_kind(r, i, first, last, at_chapter)
        else:
            kind = "section"
        title = r.rest if kind in ("part", "chapter", "appendix") and r.said else r.title
        number = r.number if r.said in ("part", "chapter", "appendix", "numbered", "section") else ""
        out.append(BaselineEntry(kind, title, number, r.entry.page - 1, r.entry.offset, depth, r.title))
    return out


def _matter(r: _Read, i: int, first: int | None) -> str:
    """Front or back matter: by its words, else by whether it comes before the first chapter."""
    if BACK_WORDS.search(r.title) or r.said == "back":
        return "back"
    if FRONT_WORDS.match(r.title) or r.said == "front":
        return "front"
    return "front" if first is None or i < first else "back"


def _chapter_kind(r: _Read, i: int, first: int | None, last: int | None, at_chapter: list[_Read]) -> str:
    if r.said == "section":
        return "section"
    if r.said in ("chapter", "numbered", "part"):
        return "chapter" if r.said != "part" else "part"
    if r.said == "appendix":
        return "appendix"
    if r.said in ("front", "back"):
        return r.said if first is None or r.said == "back" or i < first else "back"
    if first is not None and i < first:
        return "front"
    if last is not None and i > last:
        return "back" if BACK_WORDS.search(r.title) else "appendix" if _lettered(r.title) else "chapter"
    return "chapter"


def _lettered(title: str) -> bool:
    head = title.split(" ", 1)[0].rstrip(".:")
    return len(head) == 1 and head.isupper() and len(title.split()) > 1
