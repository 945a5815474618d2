"""Stage 3 (structure), text: find parts, chapters, appendices and sections in the page text.

Contract: ``detect_headings(norm, probe)`` returns ``Heading`` drafts (kind, number, title,
page index, offset) found in the canonical lines, for books whose outline is missing or does
not hold up. A line can start a heading anywhere on a page, but:

* numbered chapters (``Chapter 12``, ``12. System Operations``, ``12 Graphical procedures``,
  Sphinx ``CHAPTER``/``ONE``/``TITLE``) must form a sequence 1, 2, 3… in book order (the
  longest such chain wins), so list items and cross references drop out;
* bare ``N Title`` lines (no keyword) count only near the top of a page or when set large;
* with a PDF, every chapter-level candidate is probed for its font size and rejected when it
  is not clearly larger than the body: running headers (``CHAPTER 4. DECLARATIONS``) are set
  at body size or smaller; a keyword label at the top of its page set at body size over a title
  set large (``APPENDIX A`` above the title in display type) counts by its title's size;
* ``Chapter 7`` alone on its line, the chapter's text right below (a novel's untitled
  chapters), counts only when set large; a line below a large label that is set at body size
  is the chapter's first line of text, not its title;
* contents pages (mostly lines ending in page numbers) only yield their own title;
* front matter names (Preface, Contents) count only before the first chapter, back matter
  names (Index, References) only after the last one;
* a numbered ``N. title`` in small letters (``4. norm usage``; a list item or a command reads
  the same) stays out of the chain, and joins it only where its number is one the chain misses
  next to a member and it is set in that member's size and weight;
* sections are ``N.M Title`` lines (or ``N.M`` with the title on the next line) whose ``N`` is
  the current chapter's number and whose ``M`` increases.
"""

from __future__ import annotations

from bisect import bisect_left

from ..models import Rejected
from ..normalise import NormalisedBook
from .heading_lines import (
    MAX_GAP,
    SAME_SIZE,
    STACK_TITLE_LINES,
    Draft,
    draft_line,
    line_candidates,
    rejected_draft,
)
from .kinds import SECTION_NUMBER_ONLY, number_value, parse_heading, title_like
from .styled_back import styled_back_matter
from .typography import HEADING_RATIO, FontProbe


CROWDED = 3
"""Chain members on successive lines of one page from which they are a list of the chapters
(see ``_crowded_pages``)."""

PAGES_PER_CHAPTER = 3
"""...in a book of at least this many pages per chain member."""


def detect_headings(
    norm: NormalisedBook,
    probe: FontProbe,
    rejected: list[Rejected] | None = None,
    pages: set[int] | None = None,
    listed: list[Draft] | None = None,
    contents_lines: set[int] | None = None,
) -> list[Draft]:
    """Find chapter-level and section headings in the text of a book.

    Args:
        norm (NormalisedBook): the canonical text with per-page kept lines.
        probe (FontProbe): font-size probe (answers None for non-PDF books).
        rejected (list[Rejected] | None): when given, one ``Rejected`` is appended per
            chapter-level candidate that was not accepted, saying why.
        pages (set[int] | None): read only these 0-based pages (evidence for headings another
            signal placed there); None reads the whole book.
        listed (list[Draft] | None): chapter-level headings the printed contents lists and that
            were found on their page: they are accepted whatever their size or number (two
            signals agree), and merged with a text candidate on the same line.
        contents_lines (set[int] | None): offsets of a printed contents' listing lines: no
            candidate there (an entry set large, ``PART I``, is the contents' line, and would
            stand for the part's own opening as its first occurrence).

    Returns:
        list[Draft]: parts, chapters, appendices, front/back matter and sections in book order;
        each carries its evidence (keyword, typography, numbering).
    """
    found = line_candidates(norm, pages)
    if contents_lines:
        if rejected is not None:
            why = "a line of the printed contents"
            rejected += [rejected_draft(norm, c, why) for c in found if c.offset in contents_lines]
        found = [c for c in found if c.offset not in contents_lines]
    candidates = _with_listed(found, listed or [])
    small = [c for c in candidates if c.small_letters and not c.listed]
    candidates = [c for c in candidates if not (c.small_letters and not c.listed)]
    # NOTE: a font probe reads a page's spans (several times its plain text). Candidates that
    # only count when set large (a bare ``7``, ``9. Title.``) are many and mostly noise, so they
    # are probed lazily: assumed large until they would join the chapter chain, then probed,
    # until the chain holds only probed members. Probing one can only lower its score, so the
    # chain is the one probing all of them would give. The others are probed at once.
    lazy = [c for c in candidates if c.kind in ("chapter", "numbered") and c.needs_large]
    eager = [
        c
        for c in candidates
        if c.kind != "section" and not (c.kind in ("chapter", "numbered") and c.needs_large)
    ]
    sizes = {id(c): probe.size_of(c.page, draft_line(norm, c), top=c.top) for c in eager}
    body = probe.body_size()  # after the probes: their pages tell the body size too

    def settle(cs: list[Draft]) -> None:
        for c in cs:
            size = sizes[id(c)]
            c.large = None if size is None or not body else size >= body * HEADING_RATIO
            if c.large:
                c.evidence.append(("typography", f"p. {c.page + 1}: {size:.1f} pt, body {body:.1f} pt"))
            elif c.large is False and body and c.top and c.kind in LABEL_KINDS:
                below = _title_size_below(norm, probe, c)
                if below is not None and below >= body * HEADING_RATIO:
                    c.large = True
                    c.evidence.append(
                        (
                            "typography",
                            f"p. {c.page + 1}: the title below set at {below:.1f} pt, body {body:.1f} pt",
                        )
                    )

    settle(eager)
    for c in lazy:
        c.large = True
    seen_crowded: set[int] = set()
    while True:
        chapterish = [c for c in candidates if c.large is True or (c.large is None and not c.needs_large)]
        chapters = _chapter_chain([c for c in chapterish if c.kind in ("chapter", "numbered")])
        todo = [c for c in chapters if id(c) not in sizes]
        listing = _listing_pages(chapters) if not todo else set()
        crowded = _crowded_pages(chapters, norm) if not todo else set()
        # NOTE: a list of the chapters runs on over the page before or after (``11.``, ``12.``)
        crowded |= (
            {c.page for c in chapters if {c.page - 1, c.page + 1} & seen_crowded} if not todo else set()
        )
        seen_crowded |= crowded
        if listing or crowded:
            # NOTE: a contents page whose entries are set large: several chain members on one
            # contents-like page are its entries, not chapter openings (one opening mid-page is).
            for c in candidates:
                if (c.page in listing and c.in_listing) or (
                    c.page in crowded and c.kind in ("chapter", "numbered")
                ):
                    c.large = False
            continue
        if not todo:
            break
        for c in todo:
            sizes[id(c)] = probe.size_of(c.page, draft_line(norm, c), top=c.top)
        settle(todo)
    for c in lazy:
        if id(c) not in sizes:
            c.large = None  # never probed: unknown, and so not accepted (it needs to be large)
    parts = _first_per_number([c for c in chapterish if c.kind == "part"])
    for run in [chapters, *_restarted(chapterish, chapters, parts)]:
        if len(run) >= 2:
            span = f"{run[0].number}..{run[-1].number}"
            for k, c in enumerate(run):
                c.evidence.append(("numbering", f"{k + 1} of {len(run)} in the chapter sequence {span}"))
        if run is not chapters:
            chapters = sorted(chapters + run, key=lambda d: d.offset)
    chapters = _small_letter_chapters(small, chapters, norm, probe)
    for c in chapters:
        c.kind = "chapter"
    appendices = _appendices(
        [c for c in chapterish if c.kind == "appendix" or (c.kind == "back" and c.number)], chapters
    )
    for run in (parts, appendices):
        if len(run) >= 2:
            for k, c in enumerate(run):
                c.evidence.append(
                    ("numbering", f"{k + 1} of {len(run)} in the sequence {run[0].number}..{run[-1].number}")
                )
    numbered = chapters + appendices
    if body:
        for c in numbered:
            if c.stacked:
                _retitle_stacked(c, norm, probe)
            elif c.title_below and c.large:
                _untitle_body_line(c, norm, probe, body)
            elif not c.title and c.large:
                # NOTE: a label set large (``Chapter 4``) over lines set at a heading size has
                # them for its title, though the first does not read as a title alone: a title
                # that wraps after a comma, or opens with a glyph the text layer gives as a
                # letter (a large brace of a math font around the title). An untitled label
                # (a novel's) has its chapter's text below it, set at body size.
                _retitle_stacked(c, norm, probe, least=body * HEADING_RATIO)
        _extend_titles(parts + numbered, norm, probe, body)
    first = min((c.offset for c in numbered + parts), default=None)
    last = max((c.offset for c in chapters), default=None)
    matter = _front_back([c for c in chapterish if c.kind in ("front", "back") and not c.number], first, last)
    listed_after = [c for c in matter if c.listed and c.kind == "back"]
    dropped = {id(c) for c in listed_after} - {
        id(c) for c in _not_after_smaller(listed_after, chapters, sizes, norm, probe, rejected)
    }
    matter = [c for c in matter if id(c) not in dropped]
    if pages is None and body:
        styled = styled_back_matter(chapters, appendices, parts + numbered + matter, norm, probe)
        matter = sorted(matter + styled, key=lambda d: d.offset)
    sections = _sections(
        [c for c in candidates if c.kind == "section"], sorted(chapters + appendices, key=lambda d: d.offset)
    )
    taken = {id(c) for c in parts + numbered + matter}
    # NOTE: listed headings the rules above left out (an unnumbered chapter, a number outside the
    # chain) come in as they are; levelling makes unnumbered ones front/back by position.
    extra = [c for c in candidates if c.listed and id(c) not in taken]
    extra = _not_after_smaller(extra, chapters, sizes, norm, probe, rejected)
    for c in extra:
        c.kind = {"chapter": "unnumbered" if not c.number else "chapter"}.get(c.kind, c.kind)
        if c.kind == "numbered":
            c.kind = "chapter"
    numbered = numbered + extra
    if rejected is not None:
        accepted = {id(c) for c in parts + numbered + matter}
        for c in sorted(candidates + small, key=lambda d: d.offset):
            if c.kind == "section" or id(c) in accepted:
                continue
            why = (
                "a title in small letters, not a number the chapter sequence misses in its headings' type"
                if c.small_letters and not c.listed
                else "not set larger than the body text"
                if c.large is False or (c.large is None and c.needs_large)
                else "outside the chapter number sequence"
                if c.kind in ("chapter", "numbered")
                else "a repeat, or front/back matter out of place"
            )
            line = draft_line(norm, c)
            message = f"p. {c.page + 1} '{line[:60]}': {why}"
            rejected.append(Rejected("headings", line, why, c.page + 1, message))
    return sorted(parts + numbered + matter + sections, key=lambda d: d.offset)


def _small_letter_chapters(
    small: list[Draft], chapters: list[Draft], norm: NormalisedBook, probe: FontProbe
) -> list[Draft]:
    """The chapter chain with the ``N. title`` lines in small letters (``4. norm usage``: a
    title that opens with a program's name) that two signals of the book place in it: the line's
    number is one the chain misses next to a member (``3`` … ``5`` in book order, or one past
    either end), and it is set as that member's heading, the same size within ``SAME_SIZE`` and
    the same weight, larger than the body. A numbered list item or a line of code in small
    letters is set in the body's or the code's type, and a number the chain already holds, or
    out of its order, does not fit.

    Args:
        small (list[Draft]): the small-letter candidates, in book order.
        chapters (list[Draft]): the accepted chapter chain, in book order (two members at least,
            else it is returned as it is).
        norm (NormalisedBook): the canonical text (for the candidates' lines).
        probe (FontProbe): the font probe (no layout: nothing is added).

    Returns:
        list[Draft]: the chain with the candidates that fit, in book order; those carry the
        numbering and typography evidence.
    """
    body = probe.body_size()
    if len(chapters) < 2 or not small or not body:
        return chapters
    styles: dict[int, tuple[float, bool] | None] = {}

    def style(d: Draft) -> tuple[float, bool] | None:
        if id(d) not in styles:
            styles[id(d)] = probe.style_of(d.page, draft_line(norm, d))
        return styles[id(d)]

    chain = list(chapters)
    offsets = [d.offset for d in chain]
    taken: set[int] = set()
    # NOTE: forward, then backward: a run of two missing numbers fills from either member
    for order in (small, small[::-1]):
        for c in order:
            if c.in_listing or id(c) in taken:
                continue
            k = bisect_left(offsets, c.offset)
            before, after = chain[k - 1] if k else None, chain[k] if k < len(chain) else None
            value = number_value(c.number)
            if (before and number_value(before.number) >= value) or (
                after and number_value(after.number) <= value
            ):
                continue
            near = [d for d in (before, after) if d and abs(number_value(d.number) - value) == 1]
            own = style(c) if near else None
            if own is None or own[0] < body * HEADING_RATIO:
                continue
            same = next(
                (
                    d
                    for d in near
                    if (s := style(d)) is not None and abs(s[0] - own[0]) <= SAME_SIZE and s[1] == own[1]
                ),
                None,
            )
            if same is None:
                continue
            weight = " bold" if own[1] else ""
            span = " and ".join(d.number for d in (before, after) if d)
            c.large = True
            c.evidence += [
                (
                    "typography",
                    f"p. {c.page + 1}: {own[0]:.1f} pt{weight}, body {body:.1f} pt, as chapter {same.number}'s heading",
                ),
                ("numbering", f"{c.number}: the number the chapter sequence misses next to {span}"),
            ]
            chain.insert(k, c)
            offsets.insert(k, c.offset)
            taken.add(id(c))
    return chain


def _not_after_smaller(
    extra: list[Draft],
    chapters: list[Draft],
    sizes: dict[int, float | None],
    norm: NormalisedBook,
    probe: FontProbe,
    rejected: list[Rejected] | None,
) -> list[Draft]:
    """The contents' unnumbered entries less those after the last numbered chapter that are set
    smaller than every chapter heading: a section of the last chapter whose contents line lost
    what marks it as one (its leaders, its indent), not back matter. A back-matter name stays."""
    known = [size for c in chapters if (size := sizes.get(id(c))) is not None]
    if not chapters or not known:
        return extra
    last, smallest = chapters[-1].offset, min(known)
    kept = []
    for c in extra:
        if c.number or c.offset <= last or parse_heading(c.title) is not None:
            kept.append(c)
            continue
        size = probe.size_of(c.page, draft_line(norm, c), top=c.top)
        if size is None or size >= smallest - SAME_SIZE:
            kept.append(c)
        elif rejected is not None:
            why = "listed after the last chapter, set smaller than every chapter (a section of it)"
            rejected.append(rejected_draft(norm, c, why))
    return kept


def _listing_pages(chapters: list[Draft]) -> set[int]:
    """Contents-like pages holding more than one member of the chapter chain."""
    per_page: dict[int, int] = {}
    for c in chapters:
        if c.in_listing:
            per_page[c.page] = per_page.get(c.page, 0) + 1
    return {page for page, n in per_page.items() if n > 1}


def _crowded_pages(chapters: list[Draft], norm: NormalisedBook) -> set[int]:
    """Pages where ``CROWDED`` or more members of the chapter chain stand on successive lines,
    nothing between them, in a book of at least ``PAGES_PER_CHAPTER`` pages per member: a
    numbered list of the chapters (a contents without page numbers, which no line ending in a
    number marks as one), not their openings. Chapters, and a short paper's numbered sections,
    open with their text below them."""
    if len(chapters) < CROWDED or len(norm.pages) < PAGES_PER_CHAPTER * len(chapters):
        return set()
    per_page: dict[int, int] = {}
    for c in chapters:
        per_page[c.page] = per_page.get(c.page, 0) + 1
    out = set()
    for page in (page for page, n in per_page.items() if n >= CROWDED):
        starts = {offset: i for i, (offset, _) in enumerate(norm.lines[page])}
        rows = sorted(starts[c.offset] for c in chapters if c.page == page and c.offset in starts)
        adjacent = sum(1 for a, b in zip(rows, rows[1:]) if b == a + 1)
        if adjacent >= CROWDED - 1:
            out.add(page)
    return out


def _retitle_stacked(d: Draft, norm: NormalisedBook, probe: FontProbe, least: float = 0.0) -> None:
    """The title under a bare chapter number is the lines set at the size of its first line
    (text alone cannot tell ``Introduction`` from the body line under it); none when that line
    is set smaller than ``least``."""
    lines = norm.lines[d.page]
    starts = [offset for offset, _ in lines]
    if d.offset not in starts:
        return
    i = starts.index(d.offset)
    if i + 1 >= len(lines):
        return
    first = lines[i + 1][1].strip()
    size = probe.size_of(d.page, first, top=d.top)
    if size is None or size < least:
        return
    parts = [first]
    for k in range(i + 2, min(len(lines), i + 1 + STACK_TITLE_LINES)):
        text = lines[k][1].strip()
        nxt = probe.size_of(d.page, text, top=d.top)
        if SECTION_NUMBER_ONLY.match(text) or nxt is None or abs(nxt - size) > SAME_SIZE:
            break
        parts.append(text)
    d.title = " ".join(parts)


def _untitle_body_line(d: Draft, norm: NormalisedBook, probe: FontProbe, body: float) -> None:
    """A label set large (``Chapter 7``) whose "title" below is set at body size has no title:
    that line is the chapter's first line of text (text alone cannot tell a short sentence from
    a title)."""
    lines = norm.lines[d.page]
    starts = [offset for offset, _ in lines]
    if d.offset not in starts or starts.index(d.offset) + 1 >= len(lines):
        return
    below = lines[starts.index(d.offset) + 1][1]
    size = probe.size_of(d.page, below, top=d.top)
    if size is not None and size < body * HEADING_RATIO:
        d.title = ""


def _extend_titles(drafts: list[Draft], norm: NormalisedBook, probe: FontProbe, body: float) -> None:
    """A title set large may wrap: the lines after it that are set as large as the title line
    (and read like a title) belong to it (``Ordinary Differential Equations in`` / ``Practice``)."""
    for d in drafts:
        lines = norm.lines[d.page]
        starts = [offset for offset, _ in lines]
        if d.offset not in starts or not d.title:
            continue
        i = starts.index(d.offset)
        # the line that holds the end of the title as found so far
        end = next(
            (
                k
                for k in range(i, min(len(lines), i + STACK_TITLE_LINES + 1))
                if lines[k][1].strip() and d.title.endswith(lines[k][1].strip())
            ),
            None,
        )
        if end is None:
            continue
        size = probe.size_of(d.page, lines[end][1], top=d.top)
        if size is None or size < body * HEADING_RATIO:
            continue
        parts = [d.title]
        for k in range(end + 1, min(len(lines), end + STACK_TITLE_LINES)):
            text = lines[k][1].strip()
            if not title_like(text, max_words=12) and not (
                text and text[0].islower() and len(text.split()) <= 4
            ):
                break
            nxt = probe.size_of(d.page, text, top=d.top)
            if nxt is None or abs(nxt - size) > SAME_SIZE:
                break
            parts.append(text)
        d.title = " ".join(parts)


def _with_listed(candidates: list[Draft], listed: list[Draft]) -> list[Draft]:
    """The text candidates with the printed contents' confirmed entries (and the headings found
    by size alone) merged in by offset: two drafts of one line are one heading."""
    at = {c.offset: c for c in candidates}
    out = list(candidates)
    for d in listed:
        c = at.get(d.offset)
        if c is None:
            d.listed = True
            out.append(d)
            at[d.offset] = d
            continue
        c.listed = True
        c.evidence.extend(pair for pair in d.evidence if pair[0] != "keyword")
        if c.kind == "section" and d.kind != "section":
            c.kind, c.number, c.title = d.kind, d.number, d.title
    return sorted(out, key=lambda c: c.offset)


LABEL_KINDS = ("chapter", "appendix", "part")
"""Keyword labels (``Appendix A``, ``附件一``) that may be set small above a large title."""


def _title_size_below(norm: NormalisedBook, probe: FontProbe, draft: Draft) -> float | None:
    """The size of the line right below a keyword label that opens its page (its first line, not
    ending a sentence; the line below no numbered heading of its own): a label set at
    body size over its title set large (``APPENDIX A`` small, the title below in display type) is
    a heading by the title's size, as a stacked heading is."""
    lines = [line for _, line in norm.lines[draft.page] if line.strip()]
    if len(lines) < 2 or lines[0] != draft_line(norm, draft) or lines[0].rstrip().endswith("."):
        return None  # not the page's first line, or a sentence's end wrapped onto the page
    below = lines[1].strip()
    if SECTION_NUMBER_ONLY.match(below) or parse_heading(below) is not None:
        return None  # a numbered heading of its own below, not this label's title
    return probe.size_of(draft.page, lines[1], top=True)


def _chapter_chain(cands: list[Draft]) -> list[Draft]:
    """The longest run of candidates numbered n, n+1, n+2… in book order.

    Unkeyed ``N Title`` lines below the top of a page join only when the font probe said they
    are large. Ties go to the chain with more confirmed-large / top-of-page members, then to
    the earliest one.
    """
    cands = [c for c in cands if c.kind == "chapter" or c.top or c.large]
    if not cands:
        return []
    # NOTE: candidates come in book order, so the best chain ending at number v is the best
    # chain ending at v - 1 so far plus this one: one pass, O(n). Only a strictly better
    # chain replaces a stored one, so ties keep the earlier candidate.
    best_at: dict[int, tuple[int, int, int]] = {}  # value -> (length, score, candidate index)
    back: list[int] = []
    for j, c in enumerate(cands):
        value = number_value(c.number)
        # NOTE: a chapter the text does not show (an image page) may leave a gap, but only a
        # heading whose size was confirmed may close one; each missing number costs score.
        gaps = range(1, MAX_GAP + 2) if c.large else (1,)
        options = [
            (length + 1, score - 2 * (gap - 1), i)
            for gap in gaps
            for length, score, i in [best_at.get(value - gap, (0, 0, -1))]
        ]
        length, score, i = max(options, key=lambda o: (o[0], o[1], -o[2]))
        entry = (length, score + _score(c), j)
        back.append(i)
        if entry[:2] > best_at.get(value, (0, 0, -1))[:2]:
            best_at[value] = entry
    end = max(best_at.values(), key=lambda e: (e[0], e[1], -e[2]))[2]
    chain = []
    while end >= 0:
        chain.append(cands[end])
        end = back[end]
    chain.reverse()
    return chain if len(chain) >= 2 or chain[0].kind == "chapter" else []


def _restarted(chapterish: list[Draft], chain: list[Draft], parts: list[Draft]) -> list[list[Draft]]:
    """The chapters of the parts the chain does not reach, where each part numbers its own
    chapters from 1 again (``Part 2`` / ``Chapter 1``…): the chain runs through one part only,
    so in every other part that holds none of its members the run that starts at 1 there is
    that part's chapters. Only keyword ``Chapter N`` lines and lines confirmed large count, as a
    chain's members must be; a run must hold two chapters or more."""
    if len(parts) < 2 or not chain:
        return []
    bounds = [p.offset for p in sorted(parts, key=lambda d: d.offset)] + [float("inf")]
    runs = []
    for start, end in zip(bounds, bounds[1:]):
        if any(start < c.offset < end for c in chain):
            continue
        inside = [
            c
            for c in chapterish
            if start < c.offset < end
            and c.kind in ("chapter", "numbered")
            and (c.kind == "chapter" or c.large)
        ]
        run = _chapter_chain(inside)
        if len(run) >= 2 and number_value(run[0].number) == 1:
            runs.append(run)
    return runs


def _score(c: Draft) -> int:
    return (2 if c.large else 0) + (1 if c.top else 0) + (1 if c.kind == "chapter" else 0)


def _appendices(cands: list[Draft], chapters: list[Draft]) -> list[Draft]:
    """Appendices come after the chapters: a keyword appendix (``Appendix A``) after the first
    chapter, a bare lettered one (``A. Notes``) after the last, in a run A, B, C… (a title page's
    ``A. N. Author`` is none)."""
    first = chapters[0].offset if chapters else -1
    last = chapters[-1].offset if chapters else -1
    keyed = [c for c in cands if any(s == "keyword" for s, _ in c.evidence) and c.offset > first]
    lettered = [c for c in cands if not any(s == "keyword" for s, _ in c.evidence) and c.offset > last]
    keyed = _first_per_number(keyed)
    taken = {c.number.upper() for c in keyed}  # ``APPENDIX`` / ``A`` / title: one heading
    run: list[Draft] = []
    for c in _first_per_number([c for c in lettered if c.number.upper() not in taken]):
        if number_value(c.number) == len(run) + 1:
            run.append(c)
    return sorted(keyed + run, key=lambda c: c.offset)


def _first_per_number(cands: list[Draft]) -> list[Draft]:
    seen: set[str] = set()
    out = []
    for c in cands:
        if c.number.upper() not in seen:
            seen.add(c.number.upper())
            out.append(c)
    return out


def _front_back(cands: list[Draft], first: int | None, last: int | None) -> list[Draft]:
    out: list[Draft] = []
    for c in cands:
        if c.kind == "front" and first is not None and c.offset > first:
            continue
        if c.kind == "back" and last is not None and c.offset < last:
            continue
        if out and out[-1].title.casefold() == c.title.casefold() and c.page - out[-1].page <= 2:
            continue  # the same name again on the next pages: a running header left over
        out.append(c)
    return out


def _major_key(number: str) -> str:
    """What a chapter number and its sections' first component share: ``3``/``Three``/``III``
    → ``3``; an appendix letter stays a letter (``A`` is not chapter 1)."""
    if len(number) == 1 and number.isalpha() and number.upper() not in "IVX":
        return number.upper()
    return str(number_value(number))


def _sections(cands: list[Draft], chapters: list[Draft]) -> list[Draft]:
    """Sections ``N.M`` inside chapter ``N`` with ``M`` increasing, in book order.

    A running header that names the section (``2.7. LAYOUT``) can stand above the section's own
    heading (``2.7`` / ``Layout``) on the same page; when a number has both, the upper-case
    ones are dropped.
    """
    mixed = {c.number for c in cands if not c.title.isupper()}
    cands = [c for c in cands if not (c.title.isupper() and c.number in mixed)]
    out: list[Draft] = []
    bounds = [(c.offset, _major_key(c.number)) for c in chapters]
    k, current, last_minor = -1, None, 0
    for c in cands:
        while k + 1 < len(bounds) and bounds[k + 1][0] <= c.offset:
            k += 1
            current, last_minor = bounds[k][1], 0
        major, _, rest = c.number.partition(".")
        minor = int(rest.split(".")[0])
        if current is not None and _major_key(major) == current and minor > last_minor:
            out.append(c)
            last_minor = minor
    return out
