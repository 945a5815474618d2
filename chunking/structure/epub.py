"""Stage 3 (structure), EPUB: chapters from the nav/NCX, the spine and the documents' HTML headings.

Contract: ``epub_structure(raw, norm, mode, generic)`` returns the ``StructureResult`` of an EPUB.
``generic`` is the format-independent detector (``chunking.structure``'s outline check + text
headings), used when the book gives this module nothing to work with (no nav and no headings).

Candidates come from independent signals and are accepted and levelled by agreement:

* **nav** (nav or NCX entries with their depth). An entry that repeats its parent (same target,
  same title: NCX producers double every navPoint) is dropped. The chapter depth is chosen from
  the evidence, not from "the most common depth": a single root holding everything is the
  book's title page (front matter), so the chapters are one level down; among the remaining
  depths, the shallowest one with several entries is the chapter level unless its entries are
  ``Part`` headings or unnumbered while the next depth carries one book-wide numbering sequence
  (1, 2, 3…), in which case they are parts and the next depth holds the chapters. A depth whose
  numbers restart under every parent is a section level. An entry whose only child repeats its
  title (a title page and its chapter) is one unit; an unnumbered entry between numbered chapters
  whose document holds only its title is a part's title page.
* **html_heading** (``h1``-``h6`` recorded by the reader). A heading at an entry's target that
  says the same confirms it and tells its kind and number (``Chapter 1. TeX``, ``Appendix A.``).
  A *hub* document, one with several headings of one tag level each followed by links to later
  spine documents that the nav lists at its top level (a Sphinx master page whose ``<h2>``
  groups the section files), is a level the nav lacks: its headings become the chapters and the
  nav's top level moves one level down. Such a chapter starts at the first document its heading
  links to (the chapter's text is there; the hub's own paragraphs stay with the hub), so every
  section file falls inside its chapter.
* **spine**: a chapter that starts its document is supported by the spine; a linear document
  that no nav entry targets and that comes before the first chapter (an HTML table of contents)
  or after the last one is front or back matter, titled by a front/back name among its first
  lines (``keyword``) or else its first heading.
* **numbering**: an entry whose number continues the chapter sequence is supported by it.

Spine documents marked ``linear="no"`` (covers, translations, copies) stay in the text (the
reader keeps them: dropping them would lose text silently) but never yield a chapter unless the
nav lists them; each one is named in ``rejected``.

Modes: ``outline`` uses the nav signal alone (with the same levelling), ``headings`` the HTML
headings and spine alone, ``auto`` all signals. Every accepted heading carries its ``evidence``
and a ``confidence`` of ``1 - 0.5 ** signals``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from ..models import Heading
from ..rules import CHAPTER_KEYWORDS, keyword_alternation
from ..normalise import NormalisedBook
from ..readers.raw import RawBook
from .kinds import BACK_WORDS, FRONT_WORDS, clean_title, number_value, parse_heading, words_key
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
    rf"^(?P<kw>{keyword_alternation(CHAPTER_KEYWORDS)})\s+(?P<num>[0-9]{{1,3}}|[IVXLC]{{1,6}}|[A-Z])\b[.:]?\s*"
    r"(?P<title>.*)$",
    re.I,
)
_NUMBER = re.compile(r"^(?P<num>[0-9]{1,3})\.?\s+(?P<title>\S.*)$")
_LETTER = re.compile(r"^(?P<num>[A-Z])\.\s+(?P<title>\S.*)$")
_SECTION = re.compile(r"^(?:[0-9]{1,3}|[A-Z])(?:\.[0-9]{1,3})+\.?\s+\S")


@dataclass
class _Label:
    """What a title says it is: ``kind`` in part|chapter|appendix|section|front|back|numbered|""."""

    kind: str
    number: str
    title: str


def _label(text: str) -> _Label:
    """Kind, number and bare title of a nav title or heading text (tolerant of lower-case titles)."""
    text = clean_title(text)
    m = _KEYWORD.match(text)
    if m:
        kind = m.group("kw").casefold()
        return _Label(kind, m.group("num"), m.group("title").strip() or text)
    if _SECTION.match(text):
        num, _, title = text.partition(" ")
        return _Label("section", num.rstrip("."), title.strip())
    m = _NUMBER.match(text)
    if m:
        return _Label("numbered", m.group("num"), m.group("title"))
    m = _LETTER.match(text)
    if m:
        return _Label("letter", m.group("num"), m.group("title"))
    parsed = parse_heading(text)
    if parsed is not None and parsed.kind in ("front", "back"):
        return _Label(parsed.kind, "", text)
    return _Label("", "", text)


@dataclass
class _Tag:
    """An HTML heading: tag level, text, canonical offset, page index, spine document."""

    level: int
    text: str
    offset: int
    page: int
    doc: str


@dataclass
class _Doc:
    """A spine document: its pages, where it starts in the canonical text, whether it is linear."""

    path: str
    first: int
    last: int
    start: int
    end: int
    linear: bool
    tags: list[_Tag] = field(default_factory=list)
    links: list[tuple[int, str]] = field(default_factory=list)  # (canonical offset, target doc)


@dataclass
class _Cand:
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


def _docs(raw: RawBook, norm: NormalisedBook) -> list[_Doc]:
    """The spine documents in reading order (a document's pages are consecutive)."""
    docs: list[_Doc] = []
    for i, (rp, page) in enumerate(zip(raw.pages, norm.pages, strict=True)):
        if not docs or docs[-1].path != rp.source_doc:
            docs.append(_Doc(rp.source_doc, i, i, page.char_start, page.char_end, rp.linear))
        doc = docs[-1]
        doc.last, doc.end = i, page.char_end
        for level, text, off in rp.html_headings:
            doc.tags.append(_Tag(level, text, norm.map_offset(i, off), i, rp.source_doc))
        doc.links += [(norm.map_offset(i, off), target) for off, target in rp.links]
    return docs


def _nav(raw: RawBook, norm: NormalisedBook, rejected: list[str]) -> list[_Cand]:
    """The nav/NCX entries placed in the canonical text, doubled entries dropped."""
    out: list[_Cand] = []
    for entry in raw.outline:
        title = clean_title(entry.title)
        if not title or not 1 <= entry.page <= len(norm.pages):
            rejected.append(f"nav: level {entry.level} {entry.title!r}: target not in the spine")
            continue
        index = entry.page - 1
        offset = norm.pages[index].char_start
        if entry.offset is not None:
            offset = norm.map_offset(index, entry.offset)
        doc = raw.pages[index].source_doc
        if out and out[-1].offset == offset and words_key(out[-1].title) == words_key(title):
            rejected.append(f"nav: level {entry.level} {title!r} repeats the entry above it")
            continue
        where = f"level {entry.level} {title!r} -> {doc}"
        out.append(_Cand(title, offset, index, doc, entry.level, evidence=[("nav", where)]))
    return out


def _sequence(values: list[int]) -> bool:
    """True when the numbers step by one through the book (1, 2, 3…) for most neighbours."""
    if len(values) < MIN_CHAPTERS:
        return False
    steps = sum(1 for a, b in zip(values, values[1:]) if b == a + 1)
    return steps >= SEQUENCE_SHARE * (len(values) - 1)


def _numbers(cands: list[_Cand]) -> list[int]:
    return [number_value(c.number) for c in cands if c.kind in ("chapter", "numbered") and c.number]


def _chapter_depth(nav: list[_Cand], notes: list[str]) -> tuple[int, bool]:
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
    if not _sequence(_numbers(at)) and _sequence(_numbers(below)):
        notes.append(f"depth {d + 1} carries the book-wide chapter numbering; depth {d} holds parts")
        return d + 1, True
    return d, False


def _single_root(nav: list[_Cand], depth: int) -> bool:
    """True when one entry at ``depth`` holds everything below it and its siblings (if any) are
    front/back matter by name (``Contents``, ``Index``): that entry is the book's title page."""
    at = [k for k, c in enumerate(nav) if c.depth == depth]
    parents = [k for k in at if k + 1 < len(nav) and nav[k + 1].depth > depth]
    return len(parents) == 1 and all(nav[k].kind in ("front", "back") for k in at if k != parents[0])


def _merge_wrappers(nav: list[_Cand], rejected: list[str]) -> list[_Cand]:
    """An entry whose only child has its title (``About this manual`` > ``1. About this manual``,
    a title page and its chapter in two documents) is one unit: the parent keeps its place and
    takes the child's number; the child's own children move up one depth."""
    out: list[_Cand] = []
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
            rejected.append(f"nav: {child.title!r} repeats its parent's title; merged into it")
            for j in range(k + 2, end):
                nav[j].depth -= 1
            k += 2
            continue
        k += 1
    return out


def _part_pages(nav: list[_Cand], depth: int, docs: list[_Doc], norm: NormalisedBook) -> bool:
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


def _tag_at(cand: _Cand, tags: list[_Tag]) -> _Tag | None:
    """The HTML heading standing at a candidate's target and saying the same, if any."""
    want = words_key(_label(cand.title).title) or words_key(cand.title)
    for tag in tags:
        if tag.offset < cand.offset:
            continue
        if tag.offset > cand.offset + TAG_WINDOW:
            break
        have = words_key(tag.text)
        if want and (want in have or have in words_key(cand.title)):
            return tag
    return None


def _line_at(cand: _Cand, norm: NormalisedBook) -> _Tag | None:
    """The text line at a candidate's target as a stand-in heading (a book without HTML headings)."""
    lines = norm.lines[cand.page]
    at = bisect_right([start for start, _ in lines], cand.offset) - 1
    if at < 0 or not lines:
        return None
    return _Tag(0, lines[at][1].strip(), lines[at][0], cand.page, cand.doc)


def _classify(cand: _Cand, tag: _Tag | None) -> None:
    """Kind and number from the heading at the target (richer) or from the nav title."""
    label = _label(cand.title)
    if tag is not None:
        from_tag = _label(tag.text)
        if words_key(label.title) not in words_key(tag.text):
            from_tag = _Label("", "", tag.text)
        if from_tag.kind and from_tag.kind != "front" or not label.kind:
            label = _Label(from_tag.kind, from_tag.number, label.title if label.kind else from_tag.title)
    if label.kind in ("chapter", "part", "appendix", "numbered", "letter", "section"):
        cand.title = label.title
    cand.kind, cand.number = label.kind, label.number


def _hub(docs: list[_Doc], nav_top: list[_Cand]) -> list[_Cand]:
    """Chapters from a hub document's headings (see the module docstring), or ``[]``."""
    index = {d.path: i for i, d in enumerate(docs)}
    listed = {c.doc for c in nav_top} & set(index)
    titles = {words_key(c.title) for c in nav_top}
    for doc in docs:
        if not doc.linear:
            continue
        for level in sorted({t.level for t in doc.tags}):
            heads = [t for t in doc.tags if t.level == level]
            if len(heads) < MIN_CHAPTERS:
                continue
            groups = []
            for tag in heads:
                stop = next(
                    (t.offset for t in doc.tags if t.offset > tag.offset and t.level <= level), doc.end
                )
                targets = sorted(
                    {
                        index[t]
                        for off, t in doc.links
                        if tag.offset <= off < stop and t in listed and t != doc.path
                    }
                )
                groups.append((tag, targets))
            linked = [(tag, targets) for tag, targets in groups if targets]
            if len(linked) < MIN_CHAPTERS or len(linked) < len(heads) - 1:
                continue
            if sum(1 for tag, _ in linked if words_key(_label(tag.text).title) in titles) * 2 >= len(linked):
                continue  # the nav already lists these headings: the hub is only a table of contents
            firsts = [targets[0] for _, targets in linked]
            if firsts != sorted(firsts) or len(set(firsts)) != len(firsts) or firsts[0] <= index[doc.path]:
                continue
            covered = sum(1 for c in nav_top if index.get(c.doc, -1) >= firsts[0])
            if covered < HUB_MIN_RATIO * len(linked):
                continue
            out = []
            for tag, targets in linked:
                target = docs[targets[0]]
                label = _label(tag.text)
                out.append(
                    _Cand(
                        label.title,
                        target.start,
                        target.first,
                        target.path,
                        kind="chapter",
                        number=label.number if label.kind in ("chapter", "numbered") else "",
                        evidence=[
                            ("html_heading", f"{doc.path} h{level} {tag.text!r}"),
                            ("nav", f"lists the {len(targets)} documents it links to"),
                            ("spine", f"{target.path} starts"),
                        ],
                    )
                )
            return out
    return []


def _unlisted(docs: list[_Doc], nav: list[_Cand], norm: NormalisedBook, rejected: list[str]) -> list[_Cand]:
    """Linear spine documents no nav entry targets, as front/back candidates with their title."""
    targeted = {c.doc for c in nav}
    out = []
    for doc in docs:
        if doc.path in targeted:
            continue
        if doc.start >= doc.end:
            continue
        if not doc.linear:
            rejected.append(f'spine: {doc.path} is linear="no" and in no nav entry; not a chapter')
            continue
        lines = [line for page in range(doc.first, doc.last + 1) for _, line in norm.lines[page]][
            :TITLE_LINES
        ]
        named = next(
            (
                line.strip()
                for line in lines
                if FRONT_WORDS.match(line.strip()) or BACK_WORDS.match(line.strip())
            ),
            "",
        )
        evidence = [("spine", f"{doc.path} starts; in no nav entry")]
        if named:
            evidence.append(("keyword", f"{doc.path}: {named!r}"))
            title = named
        elif doc.tags:
            evidence.append(("html_heading", f"{doc.path} h{doc.tags[0].level} {doc.tags[0].text!r}"))
            title = clean_title(doc.tags[0].text)
        else:
            rejected.append(
                f"spine: {doc.path} is in no nav entry and has no title; read with the text before it"
            )
            continue
        out.append(_Cand(title, doc.start, doc.first, doc.path, kind="unlisted", evidence=evidence))
    return out


def _confidence(evidence: list[tuple[str, str]]) -> float:
    return round(1 - 0.5 ** len({s for s, _ in evidence}), 3)


def epub_structure(raw: RawBook, norm: NormalisedBook, mode: str, generic: Generic) -> StructureResult:
    """The structure of an EPUB from its nav, HTML headings, spine and numbering (module docstring).

    Args:
        raw (RawBook): the reader's output (outline, pages with headings, links and linearity).
        norm (NormalisedBook): the canonical text.
        mode (str): ``auto``, ``outline`` or ``headings``.
        generic (Generic): the format-independent detector, for books without nav and headings.

    Returns:
        StructureResult: headings in ascending ``char_offset`` with evidence and confidence.
    """
    rejected: list[str] = []
    notes: list[str] = []
    docs = _docs(raw, norm)
    tags = [t for d in docs for t in d.tags]
    nav = _nav(raw, norm, rejected) if mode in ("auto", "outline") else []
    if mode == "outline" and not nav:
        return generic(raw, norm, mode)
    source = "outline" if nav else "headings"
    nav = nav or _from_tags(docs, notes)
    if not nav:
        return generic(raw, norm, "headings")
    use_tags = mode != "outline"
    for cand in nav:
        tag = _tag_at(cand, tags) if use_tags else None
        if tag is not None:
            cand.evidence.append(("html_heading", f"{tag.doc} h{tag.level} {tag.text!r}"))
        _classify(cand, tag or _line_at(cand, norm))
    nav = _merge_wrappers(nav, rejected)
    depth, parts_above = _chapter_depth(nav, notes)
    has_parts = parts_above
    if _part_pages(nav, depth, docs, norm):
        has_parts = True
        notes.append("unnumbered title-only documents between numbered chapters are parts")
    hub = _hub(docs, [c for c in nav if c.depth <= depth]) if use_tags else []
    if hub:
        notes.append(
            f"{len(hub)} chapters from the headings of a hub document; the nav's depth {depth} "
            "entries are their sections"
        )
    heads = _levelled(nav, depth, parts_above, has_parts, hub, docs)
    disagreements: list[str] = []
    if use_tags:
        heads += _matter(_unlisted(docs, nav, norm, rejected), heads, 2 if has_parts else 1, disagreements)
    if tags and source == "outline":
        disagreements += [
            f"nav {c.title!r}: no HTML heading at its target"
            for c in heads
            if c.kind == "chapter" and all(s != "html_heading" for s, _ in c.evidence)
        ]
    return _result(heads, norm, source, len(raw.outline), notes, rejected, disagreements)


def _matter(unlisted: list[_Cand], heads: list[_Cand], top: int, disagreements: list[str]) -> list[_Cand]:
    """Un-navigated documents before the first chapter are front matter, after the last one (with
    a back-matter name) back matter; in between they are read as part of the chapter before."""
    marks = [c.offset for c in heads if c.kind in ("chapter", "appendix", "part")]
    out = []
    for cand in unlisted:
        if marks and cand.offset < min(marks):
            cand.kind, cand.level = "front", top
        elif marks and cand.offset > max(marks) and BACK_WORDS.search(cand.title):
            cand.kind, cand.level = "back", top
        else:
            disagreements.append(
                f"spine: {cand.doc} ({cand.title!r}) is in no nav entry; read as part of "
                "the chapter before it"
            )
            continue
        out.append(cand)
    return out


def _from_tags(docs: list[_Doc], notes: list[str]) -> list[_Cand]:
    """Without a nav: each linear document's first heading, at depth 1 (sections are not guessed)."""
    out = []
    for doc in docs:
        if not doc.tags:
            continue
        tag = min(doc.tags, key=lambda t: (t.level, t.offset))
        if not doc.linear:
            continue
        out.append(
            _Cand(
                clean_title(tag.text),
                tag.offset,
                tag.page,
                doc.path,
                1,
                evidence=[("html_heading", f"{doc.path} h{tag.level} {tag.text!r}")],
            )
        )
    if out:
        notes.append(f"no usable nav: {len(out)} documents' first headings")
    return out


def _levelled(
    nav: list[_Cand], depth: int, parts_above: bool, has_parts: bool, hub: list[_Cand], docs: list[_Doc]
) -> list[_Cand]:
    """Give every candidate its kind and level (levels as in ``chunking.structure``)."""
    top = 2 if has_parts else 1
    shift = 1 if hub else 0
    hub_span = (hub[0].offset, _group_end(hub[-1], docs, nav)) if hub else None
    chapters: list[_Cand] = list(hub)
    for cand in hub:
        cand.level = top
    for k, cand in enumerate(nav):
        inside = hub_span is not None and hub_span[0] <= cand.offset < hub_span[1]
        parent = k + 1 < len(nav) and nav[k + 1].depth > cand.depth
        if cand.depth < depth and parent:
            # above the chapters: a part, or (a single root) the book's title page
            part = parts_above and cand.depth == depth - 1
            cand.kind, cand.level = ("part", 1) if part else ("front", top)
        elif cand.depth > depth or cand.kind == "section" or inside:
            cand.kind, cand.level = "section", top + max(1, cand.depth - depth + shift)
        else:
            cand.level = top
            chapters.append(cand)
    keyed = [c for c in chapters if c.kind == "chapter" and c not in hub]
    if len(keyed) >= MIN_CHAPTERS and _sequence(_numbers(keyed)):
        # "Chapter N" headings carry the chapter sequence: bare "N Title" entries beside them are sections
        for cand in chapters:
            if cand.kind == "numbered":
                cand.kind, cand.level = "section", top + 1
        chapters = [c for c in chapters if c.kind != "section"]
    values = _numbers(chapters)
    in_sequence = _sequence(values)
    marks = [c.offset for c in chapters if c.kind in ("chapter", "numbered", "appendix", "letter", "part")]
    first, last = (min(marks), max(marks)) if marks else (None, None)
    previous = 0
    for cand in chapters:
        if cand.kind in ("numbered", "chapter"):
            cand.kind = "chapter"
            value = number_value(cand.number)
            if in_sequence and value and value in (1, previous + 1):
                cand.evidence.append(
                    ("numbering", f"chapter {cand.number} follows {previous or 'the start'}")
                )
            previous = value or previous
            cand.title = cand.title or cand.number
        elif cand.kind in ("letter", "appendix"):
            cand.kind = "appendix"
        elif cand.kind == "part":
            cand.level = 1
        elif FRONT_WORDS.match(cand.title) or (first is not None and cand.offset < first):
            cand.kind = "front"
        elif BACK_WORDS.search(cand.title) or (last is not None and cand.offset > last):
            cand.kind = "back"
        else:
            cand.kind = "chapter"
    for cand in nav:
        if cand.offset == _doc_start(cand, docs):
            cand.evidence.append(("spine", f"{cand.doc} starts"))
    return hub + nav


def _group_end(last: _Cand, docs: list[_Doc], nav: list[_Cand]) -> int:
    """End of the last hub chapter: before the first later top-level entry that names back matter."""
    later = [
        c.offset for c in nav if c.offset > last.offset and (BACK_WORDS.search(c.title) or c.kind == "back")
    ]
    return min(later) if later else docs[-1].end + 1


def _doc_start(cand: _Cand, docs: list[_Doc]) -> int:
    return next((d.start for d in docs if d.path == cand.doc), -1)


def _result(
    cands: list[_Cand],
    norm: NormalisedBook,
    source: str,
    entries: int,
    notes: list[str],
    rejected: list[str],
    disagreements: list[str],
) -> StructureResult:
    cands.sort(key=lambda c: (c.offset, c.level))
    headings = []
    counts: Counter = Counter()
    seen: set[int] = set()
    for c in cands:
        if c.kind != "section":
            if c.offset in seen:
                rejected.append(f"{c.title!r}: a second chapter-level start at the same place")
                continue
            seen.add(c.offset)
        signals: list[tuple[str, str]] = []
        for s, where in c.evidence:
            if s not in [x for x, _ in signals]:
                signals.append((s, where))
        if c.kind != "section":
            counts.update(s for s, _ in signals)
        page = norm.pages[c.page]
        headings.append(
            Heading(
                level=c.level,
                kind=c.kind,
                title=c.title,
                number=c.number or "",
                page=page.number,
                page_label=page.label,
                char_offset=c.offset,
                source=source,
                evidence=tuple(signals),
                confidence=_confidence(signals),
            )
        )
    return StructureResult(
        tuple(headings),
        source,
        entries,
        0,
        0,
        warnings=notes,
        signal_counts=dict(counts),
        disagreements=disagreements,
        rejected=rejected,
    )
