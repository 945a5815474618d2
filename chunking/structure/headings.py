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
  at body size or smaller;
* contents pages (mostly lines ending in page numbers) only yield their own title;
* front matter names (Preface, Contents) count only before the first chapter, back matter
  names (Index, References) only after the last one;
* sections are ``N.M Title`` lines (or ``N.M`` with the title on the next line) whose ``N`` is
  the current chapter's number and whose ``M`` increases.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..normalise import NormalisedBook
from ..rules import CHAPTER_KEYWORDS, KIND_KEYWORDS, keyword_alternation
from .kinds import SECTION_NUMBER_ONLY, is_spelled_number, number_value, parse_heading, title_like
from .typography import HEADING_RATIO, FontProbe

TOP_LINES = 3
"""Lines from the top of a page (after header removal) where an unkeyed ``N Title`` may start."""

MAX_GAP = 2
"""At most this many chapter numbers may be missing between two confirmed chapter headings."""

_MAY_START = re.compile(r"\d|[-–—]\s*\d|chapter|part|section|appendix|[A-Z]\.\s|[A-Z]\.\d|[A-Z]$", re.I)
"""Cheap test before the full patterns: every heading but front/back names (first line only)
starts with a digit or a keyword."""

_ROMAN_LINE = re.compile(r"[ivxlc]{1,6}$")
_TRAILING_NUMBER = re.compile(r"\d{1,4}$")

RISING_SHARE = 0.6
"""On a contents or index page at least this share of successive line-end numbers do not fall."""

_STACK_KEYWORDS = CHAPTER_KEYWORDS
_LETTER_LINE = re.compile(r"[A-Z]")
"""A line that is a capital letter alone (``A``): an appendix label, when set large."""

_KEYWORD_START = re.compile(rf"(?:{keyword_alternation(KIND_KEYWORDS)})\b", re.I)

_BARE_NUMBER = re.compile(r"[-–—]?\s*(\d{1,2})\s*[-–—]?")
"""``7``, ``—7—``, ``- 7 -``: a chapter number alone on its line, maybe framed by dashes."""
"""A chapter number standing alone on its line (the title follows on the next lines)."""

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


def detect_headings(
    norm: NormalisedBook,
    probe: FontProbe,
    rejected: list[str] | None = None,
    pages: set[int] | None = None,
    listed: list[Draft] | None = None,
) -> list[Draft]:
    """Find chapter-level and section headings in the text of a book.

    Args:
        norm (NormalisedBook): the canonical text with per-page kept lines.
        probe (FontProbe): font-size probe (answers None for non-PDF books).
        rejected (list[str] | None): when given, one line is appended per chapter-level
            candidate that was not accepted, saying why.
        pages (set[int] | None): read only these 0-based pages (evidence for headings another
            signal placed there); None reads the whole book.
        listed (list[Draft] | None): chapter-level headings the printed contents lists and that
            were found on their page: they are accepted whatever their size or number (two
            signals agree), and merged with a text candidate on the same line.

    Returns:
        list[Draft]: parts, chapters, appendices, front/back matter and sections in book order;
        each carries its evidence (keyword, typography, numbering).
    """
    candidates = _with_listed(_candidates(norm, pages), listed or [])
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
    sizes = {id(c): probe.size_of(c.page, _line_at(norm, c), top=c.top) for c in eager}
    body = probe.body_size()  # after the probes: their pages tell the body size too

    def settle(cs: list[Draft]) -> None:
        for c in cs:
            size = sizes[id(c)]
            c.large = None if size is None or not body else size >= body * HEADING_RATIO
            if c.large:
                c.evidence.append(("typography", f"p. {c.page + 1}: {size:.1f} pt, body {body:.1f} pt"))

    settle(eager)
    for c in lazy:
        c.large = True
    while True:
        chapterish = [c for c in candidates if c.large is True or (c.large is None and not c.needs_large)]
        chapters = _chapter_chain([c for c in chapterish if c.kind in ("chapter", "numbered")])
        todo = [c for c in chapters if id(c) not in sizes]
        listing = _listing_pages(chapters) if not todo else set()
        if listing:
            # NOTE: a contents page whose entries are set large: several chain members on one
            # contents-like page are its entries, not chapter openings (one opening mid-page is).
            for c in candidates:
                if c.page in listing and c.in_listing:
                    c.large = False
            continue
        if not todo:
            break
        for c in todo:
            sizes[id(c)] = probe.size_of(c.page, _line_at(norm, c), top=c.top)
        settle(todo)
    for c in lazy:
        if id(c) not in sizes:
            c.large = None  # never probed: unknown, and so not accepted (it needs to be large)
    for c in chapters:
        c.kind = "chapter"
    if len(chapters) >= 2:
        span = f"{chapters[0].number}..{chapters[-1].number}"
        for k, c in enumerate(chapters):
            c.evidence.append(("numbering", f"{k + 1} of {len(chapters)} in the chapter sequence {span}"))
    parts = _first_per_number([c for c in chapterish if c.kind == "part"])
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
        _extend_titles(parts + numbered, norm, probe, body)
    first = min((c.offset for c in numbered + parts), default=None)
    last = max((c.offset for c in chapters), default=None)
    matter = _front_back([c for c in chapterish if c.kind in ("front", "back") and not c.number], first, last)
    sections = _sections(
        [c for c in candidates if c.kind == "section"], sorted(chapters + appendices, key=lambda d: d.offset)
    )
    taken = {id(c) for c in parts + numbered + matter}
    # NOTE: listed headings the rules above left out (an unnumbered chapter, a number outside the
    # chain) come in as they are; levelling makes unnumbered ones front/back by position.
    extra = [c for c in candidates if c.listed and id(c) not in taken]
    for c in extra:
        c.kind = {"chapter": "unnumbered" if not c.number else "chapter"}.get(c.kind, c.kind)
        if c.kind == "numbered":
            c.kind = "chapter"
    numbered = numbered + extra
    if rejected is not None:
        accepted = {id(c) for c in parts + numbered + matter}
        for c in candidates:
            if c.kind == "section" or id(c) in accepted:
                continue
            why = (
                "not set larger than the body text"
                if c.large is False or (c.large is None and c.needs_large)
                else "outside the chapter number sequence"
                if c.kind in ("chapter", "numbered")
                else "a repeat, or front/back matter out of place"
            )
            rejected.append(f"p. {c.page + 1} '{_line_at(norm, c)[:60]}': {why}")
    return sorted(parts + numbered + matter + sections, key=lambda d: d.offset)


def _listing_pages(chapters: list[Draft]) -> set[int]:
    """Contents-like pages holding more than one member of the chapter chain."""
    per_page: dict[int, int] = {}
    for c in chapters:
        if c.in_listing:
            per_page[c.page] = per_page.get(c.page, 0) + 1
    return {page for page, n in per_page.items() if n > 1}


def _retitle_stacked(d: Draft, norm: NormalisedBook, probe: FontProbe) -> None:
    """The title under a bare chapter number is the lines set at the size of its first line
    (text alone cannot tell ``Introduction`` from the body line under it)."""
    lines = norm.lines[d.page]
    starts = [offset for offset, _ in lines]
    if d.offset not in starts:
        return
    i = starts.index(d.offset)
    if i + 1 >= len(lines):
        return
    first = lines[i + 1][1].strip()
    size = probe.size_of(d.page, first, top=d.top)
    if size is None:
        return
    parts = [first]
    for k in range(i + 2, min(len(lines), i + 1 + STACK_TITLE_LINES)):
        text = lines[k][1].strip()
        nxt = probe.size_of(d.page, text, top=d.top)
        if SECTION_NUMBER_ONLY.match(text) or nxt is None or abs(nxt - size) > SAME_SIZE:
            break
        parts.append(text)
    d.title = " ".join(parts)


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
    """The text candidates with the printed contents' confirmed entries merged in by offset."""
    at = {c.offset: c for c in candidates}
    out = list(candidates)
    for d in listed:
        c = at.get(d.offset)
        if c is None:
            d.listed = True
            out.append(d)
            continue
        c.listed = True
        c.evidence.extend(pair for pair in d.evidence if pair[0] != "keyword")
        if c.kind == "section" and d.kind != "section":
            c.kind, c.number, c.title = d.kind, d.number, d.title
    return sorted(out, key=lambda c: c.offset)


def _line_at(norm: NormalisedBook, draft: Draft) -> str:
    for offset, line in norm.lines[draft.page]:
        if offset == draft.offset:
            return line
    return draft.title


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


def _candidates(norm: NormalisedBook, pages: set[int] | None = None) -> list[Draft]:
    out: list[Draft] = []
    for index, lines in enumerate(norm.lines):
        if pages is not None and index not in pages:
            continue
        texts = [line.strip() for _, line in lines]
        found = []
        for i, (offset, _) in enumerate(lines):
            if i and not _MAY_START.match(texts[i]):
                continue
            draft = _candidate(texts, i, index, offset)
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
        return Draft("appendix", text, title, index, offset, top=top, needs_large=True) if title else None
    m = SECTION_NUMBER_ONLY.match(text)
    if m and m.group("num").count(".") == 1:
        title = _next_title(texts, i)
        return Draft("section", m.group("num"), title, index, offset, top=top) if title else None
    bare = _BARE_NUMBER.fullmatch(text)
    if bare:
        # NOTE: a bare number then the title on 1-3 lines (``3`` / ``Graphical`` / ``procedures``):
        # a page number or a table cell looks the same, so it must be set large.
        title = _stacked_title(texts, i)
        if not title:
            return None
        return Draft("numbered", bare.group(1), title, index, offset, top=top, needs_large=True, stacked=True)
    parsed = parse_heading(text)
    needs_large = False
    if parsed is None:
        # NOTE: ``9. Power Series.``: some books end every heading with a full stop; so do
        # sentences, so such a line must be set large.
        parsed = parse_heading(text, full_stop=True, lettered=True)
        needs_large = True
        if parsed is None:
            return None
    kind, number, title = parsed.kind, parsed.number, parsed.title
    keyword = bool(_KEYWORD_START.match(text))
    if kind == "section" and keyword and number.isdigit():
        kind, needs_large = "numbered", True  # ``Section 3`` used for chapters: the chain decides
    if kind in ("chapter", "part", "appendix", "back", "numbered") and number and not title:
        title = _next_title(texts, i)
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
    return Draft(kind, number, title, index, offset, top=top, needs_large=needs_large, evidence=evidence)


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
