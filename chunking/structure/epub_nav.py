"""EPUB structure, the candidates: nav entries, the documents' HTML headings, chapter depth.

Part of ``chunking.structure.epub`` (whose docstring gives the rules): nav/NCX entries become
candidates with their depth, doubled entries and wrappers merge, the chapter depth is chosen from
the evidence, and each candidate is classified by the heading at its target.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from ..models import Rejected
from ..rules import CHAPTER_KEYWORDS, ROMAN_LABEL, keyword_alternation, keyword_kind
from ..normalise import NormalisedBook
from ..readers.raw import RawBook
from .kinds import clean_title, number_value, parse_heading, title_like, words_key
from .result import StructureResult

Generic = Callable[[RawBook, NormalisedBook, str], StructureResult]

MIN_CHAPTERS = 2
"""A depth (or a tag level) must hold at least this many entries to be the chapter level."""

SEQUENCE_SHARE = 0.6
"""Share of consecutive numbered entries that must step by one for a book-wide numbering sequence."""

TAG_WINDOW = 200
"""Characters after a nav target within which an HTML heading still stands at that target."""

TITLE_LINES = 3
"""Lines at the top of an un-navigated document searched for a front/back name (its title)."""

PART_PAGE_CHARS = 40
"""A document with at most this many characters besides its title is a part's title page."""

HUB_MIN_RATIO = 1.5
"""A hub's groups must cover at least this many top-level nav entries per group, else the nav
already has the hub's level and the hub is only a table of contents."""

_KEYWORD = re.compile(
    rf"^(?P<kw>{keyword_alternation(CHAPTER_KEYWORDS)})\s+(?P<num>[0-9]{{1,3}}|{ROMAN_LABEL}|[A-Z])\b[.:]?\s*"
    r"(?P<title>.*)$",
    re.I,
)
ROLE_LABEL = re.compile(r"(?:(?:half[- ])?title|cover|front cover)(?: page)?", re.I)
"""A nav label that names a page's role, not its text (``Title``, ``Title Page``, ``Cover``): the
unit takes the heading the page shows (the book's title) where it has one."""
_NUMBER = re.compile(r"^(?P<num>[0-9]{1,3})(?:\s+[-–—]|\.?)\s+(?P<title>\S.*)$")
"""``3 Title``, ``3. Title`` and ``3 – Title`` (a dash set between spaces after the number, as
``kinds.NUMBERED_HEADING`` reads it)."""
_LETTER = re.compile(r"^(?P<num>[A-Z])\.\s+(?P<title>\S.*)$")
_SECTION = re.compile(r"^(?P<num>(?:[0-9]{1,3}|[A-Z])(?:\.[0-9]{1,3})+)\.?(?:\s+[-–—])?\s+(?P<title>\S.*)$")
"""``2.1 Title``, ``2.1. Title`` and ``2.1 – Title``."""


@dataclass
class TitleLabel:
    """What a title says it is: ``kind`` in part|chapter|appendix|section|front|back|numbered|""."""

    kind: str
    number: str
    title: str


def title_label(text: str) -> TitleLabel:
    """Kind, number and bare title of a nav title or heading text (tolerant of lower-case titles)."""
    text = clean_title(text)
    m = _KEYWORD.match(text)
    if m:
        kind = keyword_kind(m.group("kw"))
        return TitleLabel(kind, m.group("num"), m.group("title").strip() or text)
    m = _SECTION.match(text)
    if m:
        return TitleLabel("section", m.group("num"), m.group("title"))
    m = _NUMBER.match(text)
    if m:
        return TitleLabel("numbered", m.group("num"), m.group("title"))
    m = _LETTER.match(text)
    if m:
        return TitleLabel("letter", m.group("num"), m.group("title"))
    parsed = parse_heading(text)
    if parsed is not None and parsed.kind in ("front", "back"):
        return TitleLabel(parsed.kind, "", text)
    if parsed is not None and parsed.kind == "section":
        # NOTE: ``Section 2`` / ``Section 2. Basics``: a section by its word, as the outline's
        # plain reading (``baseline.py``) takes it; a generator's placeholder label for an
        # untitled document reads so too.
        return TitleLabel("section", parsed.number, parsed.title or text)
    return TitleLabel("", "", text)


@dataclass
class Tag:
    """An HTML heading: tag level, text, canonical offset, page index, spine document."""

    level: int
    text: str
    offset: int
    page: int
    doc: str


@dataclass
class NavDoc:
    """A spine document: its pages, where it starts in the canonical text, whether it is linear."""

    path: str
    first: int
    last: int
    start: int
    end: int
    linear: bool
    tags: list[Tag] = field(default_factory=list)
    links: list[tuple[int, str]] = field(default_factory=list)  # (canonical offset, target doc)


@dataclass
class Candidate:
    """A candidate heading with the signals that support it."""

    title: str
    offset: int
    page: int
    doc: str
    depth: int = 1
    kind: str = ""
    number: str = ""
    level: int = 0
    evidence: list[tuple[str, str]] = field(default_factory=list)


def nav_docs(raw: RawBook, norm: NormalisedBook) -> list[NavDoc]:
    """The spine documents in reading order (a document's pages are consecutive)."""
    docs: list[NavDoc] = []
    for i, (rp, page) in enumerate(zip(raw.pages, norm.pages, strict=True)):
        if not docs or docs[-1].path != rp.source_doc:
            docs.append(NavDoc(rp.source_doc, i, i, page.char_start, page.char_end, rp.linear))
        doc = docs[-1]
        doc.last, doc.end = i, page.char_end
        for level, text, off in rp.html_headings:
            doc.tags.append(Tag(level, text, norm.map_offset(i, off), i, rp.source_doc))
        doc.links += [(norm.map_offset(i, off), target) for off, target in rp.links]
    return docs


def nav_candidates(raw: RawBook, norm: NormalisedBook, rejected: list[Rejected]) -> list[Candidate]:
    """The nav/NCX entries placed in the canonical text, doubled entries dropped."""
    out: list[Candidate] = []
    for entry in raw.outline:
        title = clean_title(entry.title)
        if not title or not 1 <= entry.page <= len(norm.pages):
            why = "target not in the spine"
            message = f"nav: level {entry.level} {entry.title!r}: {why}"
            rejected.append(Rejected("nav", entry.title, why, None, message))
            continue
        index = entry.page - 1
        offset = norm.pages[index].char_start
        if entry.offset is not None:
            offset = norm.map_offset(index, entry.offset)
        doc = raw.pages[index].source_doc
        if out and out[-1].offset == offset and words_key(out[-1].title) == words_key(title):
            why = "repeats the entry above it"
            message = f"nav: level {entry.level} {title!r} {why}"
            rejected.append(Rejected("nav", title, why, entry.page, message))
            continue
        where = f"level {entry.level} {title!r} -> {doc}"
        out.append(Candidate(title, offset, index, doc, entry.level, evidence=[("nav", where)]))
    prefix = shared_prefix([c.title for c in out])
    for c in out if prefix else ():
        c.title = c.title[len(prefix) :] if c.title.startswith(prefix) else c.title
    return out


TITLE_SEPARATORS = (": ", " - ", " – ", " — ", " | ")
"""What a page title puts between a site's or book's name and the page's own title."""

MIN_PREFIXED = 3
"""Entries that must all carry one prefix before it is read as the book's name, not a title's."""


def shared_prefix(titles: list[str]) -> str:
    """The book's name and a separator that every entry's title opens with (``The Widget
    Manual: 1. Introduction``, ``Manual - Installing``), or ``""``. A binder that labels each
    page by its HTML ``<title>`` writes the name into every entry; the entries' own titles (and
    their numbers) follow it. An entry that is the name alone (the title page) keeps it."""
    for sep in TITLE_SEPARATORS:
        heads = {t.split(sep, 1)[0] for t in titles if sep in t}
        if len(heads) != 1:
            continue
        prefix = heads.pop() + sep
        carrying = sum(t.startswith(prefix) and bool(t[len(prefix) :].strip()) for t in titles)
        if carrying >= MIN_PREFIXED and all(t.startswith(prefix) or t == prefix[: -len(sep)] for t in titles):
            return prefix
    return ""


def is_sequence(values: list[int]) -> bool:
    """True when the numbers step by one through the book (1, 2, 3…) for most neighbours."""
    if len(values) < MIN_CHAPTERS:
        return False
    steps = sum(1 for a, b in zip(values, values[1:]) if b == a + 1)
    return steps >= SEQUENCE_SHARE * (len(values) - 1)


def numbers(cands: list[Candidate]) -> list[int]:
    return [number_value(c.number) for c in cands if c.kind in ("chapter", "numbered") and c.number]


def chapter_depth(nav: list[Candidate], notes: list[str]) -> tuple[int, bool]:
    """(chapter depth, whether the depth just above holds parts), from the evidence (module
    docstring); entries above that are the book's title page."""
    count = Counter(c.depth for c in nav)
    depths = sorted(count)
    d = depths[0]
    while any(k > d for k in depths) and _single_root(nav, d):
        nxt = min(k for k in depths if k > d)
        notes.append(f"the nav has a single root at depth {d}: the book's title; chapters from depth {nxt}")
        d = nxt
    while count[d] < MIN_CHAPTERS and any(k > d for k in depths):
        d = min(k for k in depths if k > d)
    at = [c for c in nav if c.depth == d]
    below = [c for c in nav if c.depth == d + 1]
    if not below:
        return d, False
    parts = sum(1 for c in at if c.kind == "part")
    if parts >= max(1, len(at) // 2):
        notes.append(f"depth {d} entries are parts; chapters from depth {d + 1}")
        return d + 1, True
    if not is_sequence(numbers(at)) and is_sequence(numbers(below)):
        notes.append(f"depth {d + 1} carries the book-wide chapter numbering; depth {d} holds parts")
        return d + 1, True
    return d, False


def _single_root(nav: list[Candidate], depth: int) -> bool:
    """True when one entry at ``depth`` holds everything below it and its siblings (if any) are
    front/back matter by name (``Contents``, ``Index``): that entry is the book's title page."""
    at = [k for k, c in enumerate(nav) if c.depth == depth]
    parents = [k for k in at if k + 1 < len(nav) and nav[k + 1].depth > depth]
    return len(parents) == 1 and all(nav[k].kind in ("front", "back") for k in at if k != parents[0])


def merge_wrappers(nav: list[Candidate], rejected: list[Rejected]) -> list[Candidate]:
    """An entry whose only child has its title (``About this manual`` > ``1. About this manual``,
    a title page and its chapter in two documents) is one unit: the parent keeps its place and
    takes the child's number; the child's own children move up one depth."""
    out: list[Candidate] = []
    k = 0
    while k < len(nav):
        cand = nav[k]
        out.append(cand)
        child = nav[k + 1] if k + 1 < len(nav) else None
        end = next((j for j in range(k + 1, len(nav)) if nav[j].depth <= cand.depth), len(nav))
        siblings = [j for j in range(k + 1, end) if nav[j].depth == cand.depth + 1]
        if (
            child is not None
            and len(siblings) == 1
            and child.depth == cand.depth + 1
            and not cand.number
            and child.number
            and words_key(child.title) == words_key(cand.title)
        ):
            cand.number, cand.kind = child.number, child.kind
            cand.evidence += [e for e in child.evidence if e[0] != "nav"] + [("nav", child.evidence[0][1])]
            why = "repeats its parent's title; merged into it"
            rejected.append(Rejected("nav", child.title, why, child.page + 1, f"nav: {child.title!r} {why}"))
            for j in range(k + 2, end):
                nav[j].depth -= 1
            k += 2
            continue
        k += 1
    return out


def part_pages(nav: list[Candidate], depth: int, docs: list[NavDoc], norm: NormalisedBook) -> bool:
    """Mark part title pages at the chapter depth: an unnumbered entry, not front/back matter,
    between numbered chapters, at the start of a document that holds little more than its title
    (``PART_PAGE_CHARS``). Entries below such a part move up one depth (its chapters)."""
    at = [k for k, c in enumerate(nav) if c.depth == depth]
    numbered = [k for k in at if nav[k].kind in ("chapter", "numbered") and nav[k].number]
    if len(numbered) < MIN_CHAPTERS:
        return False
    by_path = {d.path: d for d in docs}
    found = False
    for k in at:
        cand, doc = nav[k], by_path.get(nav[k].doc)
        if cand.kind or doc is None or cand.offset != doc.start or not numbered[0] < k < numbered[-1]:
            continue
        if len(norm.text[doc.start : doc.end].strip()) > len(cand.title) + PART_PAGE_CHARS:
            continue
        cand.kind = "part"
        cand.evidence.append(("spine", f"{doc.path} holds only the title"))
        found = True
        for j in range(k + 1, len(nav)):
            if nav[j].depth <= depth:
                break
            nav[j].depth -= 1
    return found


def tag_at(cand: Candidate, tags: list[Tag]) -> Tag | None:
    """The HTML heading standing at a candidate's target and saying the same, if any."""
    want = words_key(title_label(cand.title).title) or words_key(cand.title)
    for tag in tags:
        if tag.offset < cand.offset:
            continue
        if tag.offset > cand.offset + TAG_WINDOW:
            break
        have = words_key(tag.text)
        if want and (want in have or have in words_key(cand.title)):
            return tag
    return None


def line_at(cand: Candidate, norm: NormalisedBook) -> Tag | None:
    """The text line at a candidate's target as a stand-in heading (a book without HTML headings)."""
    lines = norm.lines[cand.page]
    at = bisect_right([start for start, _ in lines], cand.offset) - 1
    if at < 0 or not lines:
        return None
    return Tag(0, lines[at][1].strip(), lines[at][0], cand.page, cand.doc)


def _titled_line(tag: Tag, cand: Candidate) -> bool:
    """Whether the line at a candidate's target reads as a title of its own (not its label)."""
    return title_like(tag.text, any_case=True) and words_key(tag.text) != words_key(cand.title)


def classify(cand: Candidate, tag: Tag | None) -> None:
    """Kind and number from the heading at the target (richer) or from the nav title."""
    label = title_label(cand.title)
    if (
        label.kind == "section"
        and label.title == cand.title.strip()
        and tag is not None
        and _titled_line(tag, cand)
    ):
        # NOTE: a bare ``Section 1`` is a generator's placeholder for a document without a
        # heading (a title page): the line it opens with is its title, as a role label's heading is
        cand.title = clean_title(tag.text)
        label = TitleLabel("", "", cand.title)
        tag = None
    if tag is not None:
        from_tag = title_label(tag.text)
        if words_key(label.title) not in words_key(tag.text):
            from_tag = TitleLabel("", "", tag.text)
        if from_tag.kind and from_tag.kind != "front" or not label.kind:
            label = TitleLabel(from_tag.kind, from_tag.number, label.title if label.kind else from_tag.title)
    if label.kind in ("chapter", "part", "appendix", "numbered", "letter", "section"):
        cand.title = label.title
    elif tag is not None and ROLE_LABEL.fullmatch(cand.title.strip()) and title_like(tag.text, any_case=True):
        cand.title = clean_title(tag.text)  # ``Title`` names the page's role; its heading, the book
    cand.kind, cand.number = label.kind, label.number
