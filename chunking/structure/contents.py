"""Stage 3 (structure), one signal: the book's own printed table of contents.

Contract: ``read_contents(norm)`` finds the contents pages of a printed book (PDF) near its
front, parses their entries (title, number, kind, level, printed page), maps each printed page
to a physical page and confirms the entry on that page, returning a ``Contents`` the structure
engine can use as candidates. It reads only the canonical lines (``norm.lines``) and labels, no
fonts; where the engine gives the layout, also the entries' left edges on the contents pages
(an unnumbered contents tells its levels by indentation). Cost is bounded: the contents pages
are looked for among the first ``max(SCAN_MIN_PAGES, SCAN_SHARE × pages)`` pages, and
afterwards only target pages are read.

Reading the contents pages and their lines is ``chunking.structure.contents_lines``; mapping and
confirming the entries is here. Why each step works in general:

* Contents pages are pages where most lines belong to entries that end with a page number
  (arabic, or lower-case roman for front matter), with or without dot leaders. PyMuPDF often
  splits an entry over lines (``1`` / ``Introduction`` / ``1``; ``Title . . .`` / ``25``; a
  title wrapped over two lines), so lines are read as a stream: a bare number with no title
  pending is the entry's number, one after a title is its page.
* Printed pages map to physical pages through the PDF's page labels when they hold, else
  through one offset (physical − printed) per numbering system (roman front matter, arabic
  body), fitted as the offset that puts the most chapter-level titles on their target pages.
  Labels are checked the same way and lose to the fit when they confirm fewer titles (labels
  can run a few pages ahead of the printed folios).
* An entry is confirmed when its title stands on its target page as a line (fuzzy), alone,
  after its number (``3 Title``, ``Chapter 3: Title``), under a label line (``Chapter 3`` /
  ``Title``, ``CHAPTER`` / ``THREE`` / ``Title``) or wrapped over two lines. A target page with
  no text (a blank page before a chapter opening) passes the search to the next page.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rapidfuzz import fuzz

from ..normalise import NormalisedBook
from ..readers.layout import PageLayout
from .contents_lines import (
    CHAPTER_LEVEL,
    CONTENTS_HEADING,
    HEAD_GROUPS,
    HEAD_NUMBER,
    LABEL_ONLY,
    ROMAN_LOWER,
    entry_kinds,
    entry_title,
    find_pages,
    indented_levels,
    indents_tell_levels,
    letter_numbers,
    RawEntry,
    parse_lines,
)
from .kinds import compact_key, number_value, words_key

FIT_PROBES = 16
"""Chapter-level entries used to fit a page offset (spread over the contents): enough to
outvote chance matches, few enough to keep the fit cheap."""

SEED_PROBES = 3
"""Probes that search the whole offset window; their offsets are then checked on all probes."""

MAX_FRONT_EXTRA = 60
"""How many physical pages after the contents the arabic page 1 may still come."""

FUZZY_MIN = 88
"""rapidfuzz ratio (0-100) above which a line counts as the entry's title."""

SHORT_TITLE = 4
"""Titles of at most this many characters must match a line exactly (a ratio means little)."""

BLANK_SKIP = 2
"""Pages with no text after a target page that pass the search on (a blank verso before an
opening); the entry then confirms on the first page with text."""


@dataclass(frozen=True)
class ContentsEntry:
    """One entry of the printed contents, mapped and (maybe) confirmed.

    Attributes:
        title (str): the title without number, leaders and page number.
        number (str): ``"3"``, ``"2.3"``, ``"A"``, ``"IV"`` or ``""`` (unnumbered).
        kind (str): ``part``, ``chapter``, ``appendix``, ``section``, ``front`` or ``back``.
        level (int): 1 = top of this contents (parts when it has parts, else chapters).
        printed (str): the printed page number as the contents gives it (``"13"``, ``"iv"``),
            ``""`` when the entry has none.
        page (int | None): 0-based physical page the entry starts on (where it was confirmed,
            else where its printed number maps), None when it cannot be mapped.
        offset (int | None): canonical char offset of the heading's first line (the number or
            keyword line above the title when the heading is stacked) when confirmed.
        line (int | None): index of that line in ``norm.lines[page]`` when confirmed.
        confirmed (bool): the title was found on ``page``.
        source_page (int): 0-based index of the contents page the entry was read from.
    """

    title: str
    number: str
    kind: str
    level: int
    printed: str
    page: int | None
    offset: int | None
    line: int | None
    confirmed: bool
    source_page: int

    @property
    def chapter_level(self) -> bool:
        """Parts, chapters, appendices and front/back matter (what starts a chapter fence)."""
        return self.kind in CHAPTER_LEVEL


@dataclass(frozen=True)
class Contents:
    """What the printed contents say about a book.

    Attributes:
        pages (tuple[int, ...]): 0-based indices of the contents pages (empty: none found).
        entries (tuple[ContentsEntry, ...]): the entries in contents order.
        offsets (dict[str, int]): per numbering system (``arabic``, ``roman``) the fitted
            physical − printed offset (0-based physical index minus printed value), when one fit.
        mapping (dict[str, str]): per numbering system, ``labels`` or ``offset`` (what mapped it).
    """

    pages: tuple[int, ...] = ()
    entries: tuple[ContentsEntry, ...] = ()
    offsets: dict[str, int] = field(default_factory=dict)
    mapping: dict[str, str] = field(default_factory=dict)

    @property
    def confirmed(self) -> list[ContentsEntry]:
        """Entries found on their page."""
        return [e for e in self.entries if e.confirmed]


# ---------------------------------------------------------------- finding a title on a page


def _same(want: str, got: str) -> bool:
    if not want or not got:
        return False
    if len(want) <= SHORT_TITLE or len(got) <= SHORT_TITLE:
        return want == got
    return fuzz.ratio(want, got, score_cutoff=FUZZY_MIN) > 0


def _number_value(number: str) -> int:
    return int(number) if number.isdigit() else number_value(number) or number_value(number.upper())


def _same_number(want: str, got: str) -> bool:
    """``3`` and ``3.``, ``Three``, ``III``: the same number; ``2.1`` only equals ``2.1``."""
    want, got = want.rstrip(".").casefold(), got.rstrip(".").casefold()
    if want == got:
        return True
    if "." in want or "." in got:
        return False
    value = _number_value(want)
    return value > 0 and value == _number_value(got)


class _Pages:
    """Per-page lookups, each computed once: the page's key (for a quick test that a title may
    be there at all) and, only for pages that pass it, line keys and leading numbers."""

    def __init__(self, norm: NormalisedBook):
        self.norm = norm
        self._blobs: dict[int, str] = {}
        self._cache: dict[int, tuple[list[str], list[tuple[str, str] | None]]] = {}
        self._keys: dict[str, str] = {}

    def key(self, text: str) -> str:
        """``words_key`` of an entry's title or number, computed once: the fit looks for the same
        few titles on every page of its window."""
        if text not in self._keys:
            self._keys[text] = words_key(text)
        return self._keys[text]

    def blob(self, index: int) -> str:
        if index not in self._blobs:
            page = self.norm.pages[index]
            self._blobs[index] = words_key(self.norm.text[page.char_start : page.char_end])
        return self._blobs[index]

    def page(self, index: int) -> tuple[list[str], list[tuple[str, str] | None]]:
        if index not in self._cache:
            texts = [" ".join(t.split()) for _, t in self.norm.lines[index]]
            heads = []
            for text in texts:
                m = HEAD_NUMBER.match(text) if text[:1].isalnum() else None
                number = m and next((m.group(g) for g in HEAD_GROUPS if m.group(g)), "")
                heads.append((number, words_key(m.group("rest"))) if m and number else None)
            self._cache[index] = ([words_key(t) for t in texts], heads)
        return self._cache[index]

    def find(self, index: int, title: str, number: str, start: int = 0) -> int | None:
        """Index of the line on page ``index`` (from line ``start`` on) where the heading
        ``number`` ``title`` begins."""
        if not 0 <= index < len(self.norm.lines) or not self.norm.lines[index]:
            return None
        want = self.key(title)
        if not want:
            return None
        blob = self.blob(index)
        if want not in blob and (
            len(want) <= SHORT_TITLE or fuzz.partial_ratio(want, blob, score_cutoff=FUZZY_MIN - 5) == 0
        ):
            return None
        keys, heads = self.page(index)
        own = self.key(number) + " " if number else ""
        for j, key in enumerate(keys):
            if j < start:
                continue
            head = heads[j]
            if head is not None and number and not _same_number(number, head[0]):
                continue  # another number's heading (``2.1 Introduction`` for chapter 1)
            if _same(want, key) or (head is not None and _same(want, head[1])):
                return self._top(j, keys, number)
            if own and key.startswith(own) and _same(want, key[len(own) :]):
                return j  # the entry's own number then its title: ``VII Token speak``
            if head is not None and not head[1] and (not number or _same_number(number, head[0])):
                # a label line: ``Chapter 3`` / ``3`` above the title (maybe ``CHAPTER`` / ``ONE``)
                for k in (j + 1, j + 2):
                    if k < len(keys) and (_same(want, keys[k]) or self._wrapped(want, keys, k)):
                        return j
            if len(key) >= 3 and want.startswith(key) and self._wrapped(want, keys, j):
                return self._top(j, keys, number)
            if (
                head is not None
                and head[1]
                and len(head[1]) >= 3
                and want.startswith(head[1])
                and j + 1 < len(keys)
                and _same(want, head[1] + " " + keys[j + 1])
            ):
                return j
        return None

    def find_outside(self, index: int, title: str, number: str, banned: set[int]) -> int | None:
        """``find`` outside the contents listing: never on a contents page (``banned``) but the
        last one, and there only below its listing (``_below_listing``)."""
        if index not in banned:
            return self.find(index, title, number)
        if index != max(banned):
            return None
        return self.find(index, title, number, _below_listing(self.norm.lines[index]))

    @staticmethod
    def _wrapped(want: str, keys: list[str], j: int) -> bool:
        return j + 1 < len(keys) and _same(want, keys[j] + " " + keys[j + 1])

    def _top(self, j: int, keys: list[str], number: str) -> int:
        """Walk up over label lines stacked above the title (``CHAPTER`` / ``ONE``)."""
        top = j
        for k in (j - 1, j - 2):
            text = keys[k] if k >= 0 else ""
            if k < 0 or not LABEL_ONLY.match(text.upper() if text.isalpha() else text):
                break
            if number and text.isdigit() and not _same_number(number, text):
                break
            top = k
        return top


# ---------------------------------------------------------------- printed → physical


def _system(printed: str) -> tuple[str, int] | None:
    if printed.isdigit():
        return "arabic", int(printed)
    value = number_value(printed.upper()) if ROMAN_LOWER.match(printed) else 0
    return ("roman", value) if value else None


def _probes(items: list[tuple[ContentsEntry, str, int]]) -> list[tuple[ContentsEntry, str, int]]:
    chapters = [it for it in items if it[0].chapter_level]
    pool = chapters if len(chapters) >= 3 else items
    if len(pool) <= FIT_PROBES:
        return pool
    step = len(pool) / FIT_PROBES
    return [pool[int(i * step)] for i in range(FIT_PROBES)]


def _fit(pages: _Pages, probes, lo: int, hi: int, banned: set[int]) -> tuple[int | None, int]:
    """The offset in ``[lo, hi]`` that confirms most probes (the smallest on a tie: a running
    header repeats a title on the pages after its start, never before).

    Only the first ``SEED_PROBES`` probes found anywhere in the window search it all; the
    offsets they give are then tried on every probe, so the rest touch one page per offset.
    """
    n = len(pages.norm.pages)

    def hit(entry: ContentsEntry, target: int) -> bool:
        return (
            0 <= target < n
            and target not in banned
            and pages.find(target, entry.title, entry.number) is not None
        )

    candidates: set[int] = set()
    seeds = 0
    for entry, _, value in probes:
        if seeds >= SEED_PROBES:
            break
        found = {offset for offset in range(lo, hi + 1) if hit(entry, value + offset)}
        candidates |= found
        seeds += bool(found)
    votes = {offset: sum(hit(entry, value + offset) for entry, _, value in probes) for offset in candidates}
    if not votes:
        return None, 0
    best = max(votes.values())
    return min(o for o, v in votes.items() if v == best), best


def _label_pages(norm: NormalisedBook, banned: set[int]) -> dict[str, int]:
    """Printed label → first physical page carrying it (the contents pages ``banned`` aside)."""
    out: dict[str, int] = {}
    for index, page in enumerate(norm.pages):
        if page.label and index not in banned:
            out.setdefault(page.label.casefold(), index)
    return out


BODY_RUN = 3
"""Lines in a row that are no listing lines: the text under a contents listing."""


def _confirm(pages: _Pages, entry: ContentsEntry, target: int, banned: set[int]) -> ContentsEntry | None:
    """The entry confirmed on ``target`` (or on the first page with text after a blank one).

    A contents page confirms nothing, but for the last one below its listing: a short book
    (an article, a vignette) opens its first section on the page its contents ends on.
    """
    norm = pages.norm
    for step in range(BLANK_SKIP + 1):
        index = target + step
        if index >= len(norm.pages) or (step and index in banned):
            return None
        if step and norm.lines[index - 1]:
            return None  # only a page with no text passes the search on
        line = pages.find_outside(index, entry.title, entry.number, banned)
        if line is not None:
            return _replace(entry, page=index, line=line, offset=norm.lines[index][line][0], confirmed=True)
    return None


def listing_offsets(contents: Contents, norm: NormalisedBook) -> set[int]:
    """Canonical offsets of the lines of the contents pages from the second down to the end of
    the listing (``_below_listing``): entries, however large they are set (``PART I`` over its
    title), never headings of the book. A contents heading itself (``Contents``, ``Table of
    Contents``) and the line right above it (a label, ``Chapter 1`` over ``Contents``) are not."""
    out: set[int] = set()
    for index in contents.pages:
        lines = norm.lines[index]
        heading = {k for k, (_, text) in enumerate(lines) if CONTENTS_HEADING.match(text.strip())}
        out.update(
            offset
            for k, (offset, _) in enumerate(lines[: _below_listing(lines)])
            if k and k not in heading and k + 1 not in heading
        )
    return out


def _below_listing(lines: list[tuple[int, str]]) -> int:
    """The first line of a contents page after its listing: after the last listing line (one
    ending in a page number or dot leaders) that comes before ``BODY_RUN`` lines in a row that
    are none (a title wrapped or set apart from its number and page is one or two lines; prose
    is more); past the end when the listing runs to the foot of the page."""
    last, run = -1, 0
    for j, (_, text) in enumerate(lines):
        text = text.rstrip()
        if text[-1:].isdigit() or ". ." in text or "..." in text:
            if last >= 0 and run >= BODY_RUN:
                break
            last, run = j, 0
        else:
            run += 1
    return last + 1


def _replace(entry: ContentsEntry, **changes) -> ContentsEntry:
    values = {name: getattr(entry, name) for name in entry.__dataclass_fields__}
    values.update(changes)
    return ContentsEntry(**values)


def _map(
    norm: NormalisedBook, entries: list[ContentsEntry], contents_pages: list[int], sections: bool = True
) -> Contents:
    pages = _Pages(norm)
    banned = set(contents_pages)
    labels = _label_pages(norm, banned - {max(banned, default=-1)})
    labelled = sum(bool(p.label) for p in norm.pages) >= len(norm.pages) / 2
    systems: dict[str, list[tuple[ContentsEntry, str, int]]] = {}
    for entry in entries:
        sv = _system(entry.printed)
        if sv:
            systems.setdefault(sv[0], []).append((entry, sv[0], sv[1]))
    offsets: dict[str, int] = {}
    mapping: dict[str, str] = {}
    use_labels: dict[str, bool] = {}
    end = contents_pages[-1] if contents_pages else 0
    for name, items in systems.items():
        probes = _probes(items)
        if name == "arabic":
            lo = end + 1 - min(v for _, _, v in items)
            hi = lo + MAX_FRONT_EXTRA
        else:
            lo, hi = -1, end + MAX_FRONT_EXTRA
        offset, votes = _fit(pages, probes, lo, hi, banned)
        by_label = 0
        if labelled:
            for entry, _, _ in probes:
                target = labels.get(entry.printed.casefold())
                by_label += (
                    target is not None
                    and pages.find_outside(target, entry.title, entry.number, banned) is not None
                )
        use_labels[name] = labelled and by_label >= votes and by_label > 0
        if offset is not None:
            offsets[name] = offset
        mapping[name] = "labels" if use_labels[name] else "offset" if offset is not None else "none"
    out = []
    for entry in entries:
        sv = _system(entry.printed)
        if CONTENTS_HEADING.match(entry.title) and contents_pages:
            # the contents listing itself: it stands on the first contents page
            first = contents_pages[0]
            line = pages.find(first, entry.title, "")
            out.append(
                _replace(
                    entry,
                    page=first,
                    line=line,
                    confirmed=line is not None,
                    offset=None if line is None else norm.lines[first][line][0],
                )
            )
            continue
        if sv is None or (not sections and not entry.chapter_level):
            out.append(entry)
            continue
        name, value = sv
        primary = labels.get(entry.printed.casefold()) if use_labels[name] else None
        fitted = value + offsets[name] if name in offsets else None
        targets = [t for t in (primary, fitted) if t is not None and 0 <= t < len(norm.pages)]
        done = None
        for target in dict.fromkeys(targets):
            done = _confirm(pages, entry, target, banned)
            if done:
                break
        out.append(done or _replace(entry, page=targets[0] if targets else None))
    return Contents(pages=tuple(contents_pages), entries=tuple(out), offsets=offsets, mapping=mapping)


# ---------------------------------------------------------------- the whole signal


def _indents(raws: list[RawEntry], layout: PageLayout | None) -> list[float | None]:
    """Each entry's left edge on its contents page (the first layout line that opens with its
    first title line), None where the layout is unknown or no line matches."""
    if layout is None:
        return [None] * len(raws)
    lines: dict[int, list[tuple[str, float]]] = {}
    out: list[float | None] = []
    for raw in raws:
        if raw.source_page not in lines:
            lines[raw.source_page] = [
                (compact_key(line.text), line.x0) for line in layout.lines(raw.source_page)
            ]
        want = compact_key(raw.titles[0])[:INDENT_KEY] if raw.titles else ""
        out.append(next((x for text, x in lines[raw.source_page] if want and text.startswith(want)), None))
    return out


INDENT_KEY = 16
"""Characters of an entry's first title line that find its layout line (leaders and page follow)."""


def read_contents(norm: NormalisedBook, sections: bool = True, layout: PageLayout | None = None) -> Contents:
    """Read the book's printed table of contents, map and confirm its entries.

    Args:
        norm (NormalisedBook): the canonical text and per-page lines (a PDF: its pages are
            physical pages; synthetic pages have no printed contents to read).
        sections (bool): also map and confirm section entries (most of the cost: one target
            page each). Defaults to True; the structure engine asks for chapter level only.
        layout (PageLayout | None): the PDF's layout: where given, the entries' left edges on
            the contents pages tell the levels of a contents with no numbered chapter
            (``indented_levels``).

    Returns:
        Contents: the contents pages, every entry (confirmed or not) in contents order, and
        how printed pages were mapped; empty when the book shows no contents pages.
    """
    if not norm.pages or all(p.synthetic for p in norm.pages):
        return Contents()
    found = find_pages(norm)
    if not found:
        return Contents()
    lines = [(index, text) for index in found for _, text in norm.lines[index]]
    raws, _ = parse_lines(lines)
    # NOTE: a continuation page's running header (its folio, then ``CONTENTS``) parses as a
    # numbered entry ``4 CONTENTS`` with the next entry's number as its page: not an entry.
    raws = [r for r in raws if entry_title(r) and not (r.number and CONTENTS_HEADING.match(entry_title(r)))]
    letter_numbers(raws)
    kinds = entry_kinds(raws)
    if layout is not None and indents_tell_levels(kinds):
        kinds = indented_levels(kinds, _indents(raws, layout))
    entries = [
        ContentsEntry(
            title=entry_title(r),
            number=r.number.rstrip("."),
            kind=kind,
            level=level,
            printed=r.page,
            page=None,
            offset=None,
            line=None,
            confirmed=False,
            source_page=r.source_page if r.source_page >= 0 else found[0],
        )
        for r, (kind, level) in zip(raws, kinds)
    ]
    return _map(norm, entries, found, sections)
