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
  nav's top level moves one level down. Such a chapter opens twice, with one title: where its
  heading stands in the hub (the paragraphs under it introduce the chapter and are its text) and
  again at the first document the heading links to, so every section file falls inside its
  chapter and no chunk holds two chapters' text.
* **spine**: a chapter that starts its document is supported by the spine; a linear document
  that no nav entry targets and that comes before the first chapter (an HTML table of contents)
  or after the last one is front or back matter, titled by a front/back name among its first
  lines (``keyword``) or else its first heading.
* **contents**: a contents printed inside a navigated document, a line with a contents name over
  lines naming the chapters after it, is a front unit (``epub_contents``).
* **numbering**: an entry whose number continues the chapter sequence is supported by it.

Spine documents marked ``linear="no"`` (covers, translations, copies) stay in the text (the
reader keeps them: dropping them would lose text silently) but never yield a chapter unless the
nav lists them; each one is named in ``rejected``.

Modes: ``outline`` uses the nav signal alone (with the same levelling), ``headings`` the HTML
headings and spine alone, ``auto`` all signals. Every accepted heading carries its ``evidence``
and a ``confidence`` from ``evidence.confidence`` (the one formula: ``0.35 + 0.25`` per signal).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Callable

from ..models import Disagreement, Heading, Rejected
from ..normalise import NormalisedBook
from ..readers.raw import RawBook
from .evidence import confidence
from .kinds import BACK_WORDS, FRONT_WORDS, clean_title, number_value, words_key
from .result import StructureResult
from .epub_contents import printed_contents
from .epub_nav import (
    Candidate,
    HUB_MIN_RATIO,
    MIN_CHAPTERS,
    NavDoc,
    TITLE_LINES,
    chapter_depth,
    classify,
    is_sequence,
    line_at,
    merge_wrappers,
    nav_candidates,
    nav_docs,
    numbers,
    part_pages,
    tag_at,
    title_label,
)

Generic = Callable[[RawBook, NormalisedBook, str], StructureResult]


def _hub(docs: list[NavDoc], nav_top: list[Candidate]) -> tuple[list[Candidate], list[tuple[int, str, str]]]:
    """Chapters from a hub document's headings (see the module docstring), or ``[]``, with where
    each heading stands in the hub: ``(offset, hub document, evidence)``."""
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
            if sum(1 for tag, _ in linked if words_key(title_label(tag.text).title) in titles) * 2 >= len(
                linked
            ):
                continue  # the nav already lists these headings: the hub is only a table of contents
            firsts = [targets[0] for _, targets in linked]
            if firsts != sorted(firsts) or len(set(firsts)) != len(firsts) or firsts[0] <= index[doc.path]:
                continue
            covered = sum(1 for c in nav_top if index.get(c.doc, -1) >= firsts[0])
            if covered < HUB_MIN_RATIO * len(linked):
                continue
            out, openings = [], []
            for tag, targets in linked:
                target = docs[targets[0]]
                label = title_label(tag.text)
                openings.append((tag.offset, doc.path, f"{doc.path} h{level} {tag.text!r}"))
                out.append(
                    Candidate(
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
            return out, openings
    return [], []


def _hub_openings(
    hub: list[Candidate], openings: list[tuple[int, str, str]], norm: NormalisedBook
) -> list[Candidate]:
    """Each hub chapter's first opening, where its heading stands in the hub (module docstring):
    the levelled chapter's kind, number, title and level, supported by the heading."""
    starts = [page.char_start for page in norm.pages]
    out = []
    for cand, (offset, path, where) in zip(hub, openings, strict=True):
        if offset < cand.offset:
            page = max(0, bisect_right(starts, offset) - 1)
            out.append(
                Candidate(
                    cand.title,
                    offset,
                    page,
                    path,
                    kind=cand.kind,
                    number=cand.number,
                    level=cand.level,
                    evidence=[("html_heading", where)],
                )
            )
    return out


def _unlisted(
    docs: list[NavDoc], nav: list[Candidate], norm: NormalisedBook, rejected: list[Rejected]
) -> list[Candidate]:
    """Linear spine documents no nav entry targets, as front/back candidates with their title."""
    targeted = {c.doc for c in nav}
    out = []
    for doc in docs:
        if doc.path in targeted:
            continue
        if doc.start >= doc.end:
            continue
        if not doc.linear:
            why = 'linear="no" and in no nav entry; not a chapter'
            rejected.append(Rejected("spine", doc.path, why, doc.first + 1, f"spine: {doc.path} is {why}"))
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
            why = "in no nav entry and has no title; read with the text before it"
            rejected.append(Rejected("spine", doc.path, why, doc.first + 1, f"spine: {doc.path} is {why}"))
            continue
        out.append(Candidate(title, doc.start, doc.first, doc.path, kind="unlisted", evidence=evidence))
    opening = _opening_before_nav(docs, nav)
    return [opening, *out] if opening is not None else out


def _opening_before_nav(docs: list[NavDoc], nav: list[Candidate]) -> Candidate | None:
    """The book's opening when the first nav entry points into its document past a heading: a
    one-file book whose title (an ``h1``, with the author and copyright under it) stands above
    the first chapter's fragment. That stretch is in no entry; its heading titles it, as an
    un-navigated document's first heading does. A document that opens with text and no heading
    before the entry gives nothing (a lead-in paragraph is the first chapter's)."""
    if not nav:
        return None
    first = min(nav, key=lambda c: c.offset)
    doc = next((d for d in docs if d.path == first.doc), None)
    if (
        doc is None
        or not doc.linear
        or any(d.start < doc.start and d.linear and d.start < d.end for d in docs)
    ):
        return None
    tag = doc.tags[0] if doc.tags else None
    if (
        tag is None
        or not doc.start <= tag.offset < first.offset
        or words_key(tag.text) == words_key(first.title)
    ):
        return None  # NOTE: a title block repeating the first entry's title is that entry's
    evidence = [
        ("spine", f"{doc.path} opens before its first nav entry {first.title!r}"),
        ("html_heading", f"{doc.path} h{tag.level} {tag.text!r}"),
    ]
    return Candidate(
        clean_title(tag.text), doc.start, doc.first, doc.path, kind="unlisted", evidence=evidence
    )


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
    rejected: list[Rejected] = []
    notes: list[str] = []
    docs = nav_docs(raw, norm)
    tags = [t for d in docs for t in d.tags]
    nav = nav_candidates(raw, norm, rejected) if mode in ("auto", "outline") else []
    if mode == "outline" and not nav:
        return generic(raw, norm, mode)
    source = "outline" if nav else "headings"
    nav = nav or _from_tags(docs, notes)
    if not nav:
        return generic(raw, norm, "headings")
    use_tags = mode != "outline"
    for cand in nav:
        tag = tag_at(cand, tags) if use_tags else None
        if tag is not None:
            cand.evidence.append(("html_heading", f"{tag.doc} h{tag.level} {tag.text!r}"))
        classify(cand, tag or line_at(cand, norm))
    nav = merge_wrappers(nav, rejected)
    depth, parts_above = chapter_depth(nav, notes)
    has_parts = parts_above
    if part_pages(nav, depth, docs, norm):
        has_parts = True
        notes.append("unnumbered title-only documents between numbered chapters are parts")
    hub, openings = _hub(docs, [c for c in nav if c.depth <= depth]) if use_tags else ([], [])
    if hub:
        notes.append(
            f"{len(hub)} chapters from the headings of a hub document; the nav's depth {depth} "
            "entries are their sections"
        )
    heads = _levelled(nav, depth, parts_above, has_parts, hub, docs)
    heads += _hub_openings(hub, openings, norm)
    disagreements: list[Disagreement] = []
    if use_tags:
        heads += _matter(_unlisted(docs, nav, norm, rejected), heads, 2 if has_parts else 1, disagreements)
        heads += printed_contents(heads, docs, norm, 2 if has_parts else 1)
    if tags and source == "outline":
        disagreements += [
            _disagreement("no_html_heading", ("nav",), c, f"nav {c.title!r}: no HTML heading at its target")
            for c in heads
            if c.kind == "chapter" and all(s != "html_heading" for s, _ in c.evidence)
        ]
    return _result(heads, norm, source, len(raw.outline), notes, rejected, disagreements)


def _disagreement(case: str, signals: tuple[str, ...], c: Candidate, message: str) -> Disagreement:
    return Disagreement(case, signals, c.kind, c.number or "", c.title, c.page + 1, message)


def _matter(
    unlisted: list[Candidate], heads: list[Candidate], top: int, disagreements: list[Disagreement]
) -> list[Candidate]:
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
            message = (
                f"spine: {cand.doc} ({cand.title!r}) is in no nav entry; read as part of "
                "the chapter before it"
            )
            disagreements.append(_disagreement("unnavigated", ("spine",), cand, message))
            continue
        out.append(cand)
    return out


def _from_tags(docs: list[NavDoc], notes: list[str]) -> list[Candidate]:
    """Without a nav: each linear document's first heading, at depth 1 (sections are not guessed)."""
    out = []
    for doc in docs:
        if not doc.tags:
            continue
        tag = min(doc.tags, key=lambda t: (t.level, t.offset))
        if not doc.linear:
            continue
        out.append(
            Candidate(
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
    nav: list[Candidate],
    depth: int,
    parts_above: bool,
    has_parts: bool,
    hub: list[Candidate],
    docs: list[NavDoc],
) -> list[Candidate]:
    """Give every candidate its kind and level (levels as in ``chunking.structure``)."""
    top = 2 if has_parts else 1
    shift = 1 if hub else 0
    hub_span = (hub[0].offset, _group_end(hub[-1], docs, nav)) if hub else None
    chapters: list[Candidate] = list(hub)
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
    if len(keyed) >= MIN_CHAPTERS and is_sequence(numbers(keyed)):
        # "Chapter N" headings carry the chapter sequence: bare "N Title" entries beside them are sections
        for cand in chapters:
            if cand.kind == "numbered":
                cand.kind, cand.level = "section", top + 1
        chapters = [c for c in chapters if c.kind != "section"]
    values = numbers(chapters)
    in_sequence = is_sequence(values)
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


def _group_end(last: Candidate, docs: list[NavDoc], nav: list[Candidate]) -> int:
    """End of the last hub chapter: before the first later top-level entry that names back matter."""
    later = [
        c.offset for c in nav if c.offset > last.offset and (BACK_WORDS.search(c.title) or c.kind == "back")
    ]
    return min(later) if later else docs[-1].end + 1


def _doc_start(cand: Candidate, docs: list[NavDoc]) -> int:
    return next((d.start for d in docs if d.path == cand.doc), -1)


def _result(
    cands: list[Candidate],
    norm: NormalisedBook,
    source: str,
    entries: int,
    notes: list[str],
    rejected: list[Rejected],
    disagreements: list[Disagreement],
) -> StructureResult:
    cands.sort(key=lambda c: (c.offset, c.level))
    headings = []
    counts: Counter = Counter()
    seen: set[int] = set()
    for c in cands:
        if c.kind != "section":
            if c.offset in seen:
                why = "a second chapter-level start at the same place"
                rejected.append(
                    Rejected(
                        c.evidence[0][0] if c.evidence else "nav",
                        c.title,
                        why,
                        c.page + 1,
                        f"{c.title!r}: {why}",
                    )
                )
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
                confidence=confidence(s for s, _ in signals),
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
