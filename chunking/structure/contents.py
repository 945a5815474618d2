"""Stage 3 (structure), one signal: the book's own printed table of contents.

Contract: ``read_contents(norm)`` finds the contents pages of a printed book (PDF) near its
front, parses their entries (title, number, kind, level, printed page), maps each printed page
to a physical page and confirms the entry on that page, returning a ``Contents`` the structure
engine can use as candidates. It reads only the canonical lines (``norm.lines``) and labels: no
PDF access, no fonts. Cost is bounded: the contents pages are looked for among the first
``max(SCAN_MIN_PAGES, SCAN_SHARE × pages)`` pages, and afterwards only target pages are read.

Why each step works in general:

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

import math
import re
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from ..normalise import NormalisedBook
from .kinds import BACK_WORDS, FRONT_WORDS, NUMBER_RE, number_value, words_key

SCAN_MIN_PAGES = 40
"""Contents pages are looked for among at least this many front pages (long front matter)."""

SCAN_SHARE = 0.15
"""...or this share of the book when that is more: contents sit near the front, never deep in."""

MIN_PAGE_ENTRIES = 4
"""A contents page holds at least this many entries with a page number (a page of body text
with a few lines ending in a number does not)."""

MIN_HEADED_ENTRIES = 3
"""...or this many under a ``Contents`` heading (a short book's contents)."""

MIN_LINE_SHARE = 0.6
"""At least this share of a contents page's lines belong to entries with a page number."""

MIN_ORDERED_SHARE = 0.75
"""Printed page numbers on a contents page mostly grow: at least this share of neighbouring
arabic pairs do not go down (a table of values does not)."""

MAX_TITLE_LINES = 3
"""An entry's title may wrap over this many lines before its page number comes."""

ROMAN_MAX = 100
"""Lower-case roman page numbers above this are words (``mix``, ``mid``), not front folios."""

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

_CHAPTER_LEVEL = ("part", "chapter", "appendix", "front", "back")

_LEADER = r"(?:\s*[.·…_])"
_PAGE = r"(?P<page>\d{1,4}|[ivxlcdm]{1,7})"
_LEADER_LINE = re.compile(rf"^{_LEADER}{{3,}}\s*{_PAGE}?$")
_LEADER_CHARS = " .·…_"
_TAIL_TOKEN = re.compile(r"(?:\d{1,4}|[ivxlcdm]{1,7})$")
_ARABIC_LINE = re.compile(r"^\d{1,4}$")
_PAGED_TAIL = re.compile(r"(?:^|[\s.·…_])(?:\d{1,4}|[ivxlcdm]{1,7})\s*$|[.·…_]\s*[.·…_]\s*[.·…_]\s*$")
"""A line that ends in a page number (a word of its own) or in leaders: the cheap test."""
_ROMAN_LOWER = re.compile(r"^(?=[ivxlcdm])m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
_KEYWORDS = r"chapter|part|appendix|section|lecture|unit|book"
_NUMBER_LINE = re.compile(
    rf"^(?:(?P<kw>(?i:{_KEYWORDS}))\s+(?P<kn>\d{{1,3}}(?:\.\d{{1,3}})*|[A-Z]|{NUMBER_RE})"
    r"|(?P<num>\d{1,3}(?:\.\d{1,3})*|[A-Z](?:\.\d{1,3})*|[IVXLC]{1,6}))\s*[.:]?$"
)
"""A line that is only an entry number: ``2.3``, ``4.``, ``A``, ``IV``, ``Chapter 3``, ``Part I``."""
_LEAD_NUMBER = re.compile(
    rf"^(?:(?P<kw>(?i:{_KEYWORDS}))\s+(?P<kn>\d{{1,3}}(?:\.\d{{1,3}})*|[A-Z]|{NUMBER_RE})"
    r"\s*[.:\-–—]?\s+"
    r"|(?P<num>\d{1,3}(?:\.\d{1,3})*)\.?\s+"
    r"|(?P<glued>\d{1,3}(?:\.\d{1,3})+(?=[^\W\d_])|\d{1,3}(?=[A-Z][a-z]))"
    r"|(?P<sub>[A-Z](?:\.\d{1,3})+)\.?\s+"
    r"|(?P<let>[A-Z]|[IVXLC]{1,6})[.:]\s+)(?P<title>\S.*)$"
)
"""An entry number in front of its title: ``2.3 Title``, ``4. Title``, ``Chapter 3: Title``,
``A.1 Title``, ``A. Title`` (a bare letter needs its full stop: ``A FITS Primer`` is a title),
and numbers glued to their title by text extraction (``4.10Questions``, ``10Copy``)."""
_HEAD_GROUPS = ("kn", "num", "glued", "sub", "let")
_LETTER_TITLE = re.compile(r"^(?P<let>[A-Z])\s+(?P<title>[A-Z0-9].*)$")
_CONTENTS_HEADING = re.compile(r"^(?:table of\s+)?contents(?:\s*\(continued\))?$", re.I)
_LIST_HEADING = re.compile(r"^list of\s+\w+", re.I)
_LABEL_ONLY = re.compile(rf"^(?:(?i:{_KEYWORDS})|{NUMBER_RE}|[A-Z])\s*[.:]?$")
"""A line that labels the heading under it without a number we can compare (``CHAPTER``)."""
_HEAD_NUMBER = re.compile(
    rf"^(?:(?i:{_KEYWORDS})\s*(?P<kn>\d{{1,3}}(?:\.\d{{1,3}})*|[A-Z](?:\.\d{{1,3}})*|{NUMBER_RE})"
    r"(?:\s*[.:\-–—]\s*|\s+|$)"
    r"|(?P<num>\d{1,3}(?:\.\d{1,3})*)(?:\.\s*|\s+|$)"
    r"|(?P<glued>\d{1,3}(?:\.\d{1,3})+(?=[^\W\d_])|\d{1,3}(?=[A-Z][a-z]))"
    r"|(?P<sub>[A-Z](?:\.\d{1,3})+)(?:\.?\s+|\.?$)"
    r"|(?P<let>[A-Z]|[IVXLC]{1,6})(?:[.:]\s*|$))(?P<rest>.*)$"
)
"""A heading line's leading number: after a keyword (``CHAPTER1``, ``Appendix B``), arabic
(``3.2 Title``), or a letter/roman one with its full stop (``B. Title``) or alone (``IV``)."""


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
        return self.kind in _CHAPTER_LEVEL


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


@dataclass
class _Raw:
    """An entry while it is being read: number, title lines, page, where it came from."""

    number: str = ""
    keyword: str = ""
    titles: list[str] = field(default_factory=list)
    page: str = ""
    source_page: int = -1
    lines: int = 0


# ---------------------------------------------------------------- reading the contents pages


def _page_token(text: str) -> str | None:
    """``"13"`` or ``"iv"`` when the text is a page number (roman: lower case, small)."""
    if _ARABIC_LINE.match(text):
        return text
    if _ROMAN_LOWER.match(text) and number_value(text.upper()) <= ROMAN_MAX:
        return text
    return None


def _split_number(text: str) -> tuple[str, str, str] | None:
    """(keyword, number, title) when ``text`` starts with an entry number."""
    m = _LEAD_NUMBER.match(text)
    if not m:
        return None
    keyword = (m.group("kw") or "").casefold()
    number = next((m.group(g) for g in _HEAD_GROUPS if m.group(g)), "")
    return keyword, number, m.group("title")


def _strip_leaders(text: str) -> tuple[str, bool]:
    """The text without trailing dot leaders, and whether it had some (three dots or more)."""
    body = text.rstrip(_LEADER_CHARS)
    dots = sum(c != " " for c in text[len(body) :])
    return (body if dots >= 3 else text).strip(), dots >= 3


def _page_tail(text: str) -> tuple[str, str, bool] | None:
    """``Title . . . 12`` / ``Title 12`` → (title, page, had leaders); None without a page."""
    # NOTE: split by hand, not with one regex: leader runs of a hundred dots make a
    # backtracking pattern cost quadratic time on every line of every front page.
    m = _TAIL_TOKEN.search(text)
    if not m or not m.start() or text[m.start() - 1] not in _LEADER_CHARS or _page_token(m.group()) is None:
        return None
    head, last = text[: m.start()], m.group()
    body, leaders = _strip_leaders(head)
    return (body, last, leaders) if body else None


def _parse_lines(lines: list[tuple[int, str]]) -> tuple[list[_Raw], int]:
    """Read ``(page index, line)`` pairs into entries; also return how many lines the entries
    with a page number took (the contents-page test)."""
    out: list[_Raw] = []
    pending = _Raw()
    used = 0

    def finish(page: str) -> None:
        nonlocal pending, used
        pending.page = page
        if pending.titles or pending.number:
            out.append(pending)
            if page:
                used += pending.lines
        pending = _Raw()

    def start(index: int) -> None:
        if pending.source_page < 0:
            pending.source_page = index

    for pos, (index, raw) in enumerate(lines):
        text = " ".join(raw.split())
        if not text:
            continue
        if _CONTENTS_HEADING.match(text) and not pending.titles and not pending.number:
            continue
        leader = _LEADER_LINE.match(text)
        if leader:
            page = leader.group("page")
            if page and _page_token(page) and pending.titles:
                pending.lines += 1
                finish(page)
            elif pending.titles:
                pending.lines += 1
            continue
        token = _page_token(text)
        if token is not None and pending.titles:
            pending.lines += 1
            finish(token)
            continue
        number = _NUMBER_LINE.match(text)
        if number and (token is None or token.isdigit()):
            if pending.titles:
                finish("")
            pending = _Raw(
                number=number.group("kn") or number.group("num") or "",
                keyword=(number.group("kw") or "").casefold(),
                source_page=index,
                lines=1,
            )
            continue
        if token is not None:
            continue  # a lone roman folio with nothing pending: the page's own number
        tail = _page_tail(text)
        nxt = next((" ".join(t.split()) for _, t in lines[pos + 1 : pos + 2]), "")
        # NOTE: ``Title 3`` without leaders ends with its page unless a bare number follows
        # (``Windows 95`` / ``12``: then that number is the page).
        if tail and (tail[2] or _page_token(nxt) is None):
            body, page = tail[0], tail[1]
        else:
            body, page = _strip_leaders(text)[0], ""
        split = _split_number(body)
        if pending.titles and (split or len(pending.titles) >= MAX_TITLE_LINES):
            finish("")  # a new entry begins: the one pending had no page number
        if split and not pending.titles:
            pending.keyword, pending.number, body = split
        start(index)
        if body:
            pending.titles.append(body)
        pending.lines += 1
        if page:
            finish(page)
    if pending.titles or pending.number:
        finish("")
    return out, used


def _page_score(lines: list[tuple[int, str]]) -> tuple[int, int, int]:
    """(entries with a page number, first and last arabic printed page) of a contents page;
    (0, 0, 0) when the page is no contents page."""
    texts = [t for _, t in lines if t.strip()]
    if not texts or _LIST_HEADING.match(" ".join(texts[0].split())):
        return 0, 0, 0
    # NOTE: a cheap look before the parse (most of the cost): a contents page has at least
    # MIN_HEADED_ENTRIES lines that end in a page number or a leader; a page of prose has not.
    if sum(1 for t in texts if _PAGED_TAIL.search(t)) < MIN_HEADED_ENTRIES:
        return 0, 0, 0
    entries, used = _parse_lines(lines)
    paged = [e for e in entries if e.page]
    headed = any(_CONTENTS_HEADING.match(" ".join(t.split())) for t in texts[:3])
    enough = MIN_HEADED_ENTRIES if headed else MIN_PAGE_ENTRIES
    if len(paged) < enough or used < MIN_LINE_SHARE * len(texts):
        return 0, 0, 0
    arabic = [int(e.page) for e in paged if e.page.isdigit()]
    pairs = list(zip(arabic, arabic[1:]))
    if pairs and sum(b >= a for a, b in pairs) < MIN_ORDERED_SHARE * len(pairs):
        return 0, 0, 0
    return len(paged), (arabic[0] if arabic else 0), (arabic[-1] if arabic else 0)


def _find_pages(norm: NormalisedBook) -> list[int]:
    """The run of consecutive contents pages among the front pages: the run opened by a
    ``Contents`` heading when there is one, else the one with the most entries. A page whose
    printed numbers start over (a list of examples after the contents) begins a new run."""
    limit = min(len(norm.pages), max(SCAN_MIN_PAGES, math.ceil(SCAN_SHARE * len(norm.pages))))
    runs: list[list[int]] = []
    scores: dict[int, int] = {}
    last = 0
    for index in range(limit):
        lines = [(index, t) for _, t in norm.lines[index]]
        score, first, final = _page_score(lines)
        if not score:
            continue
        scores[index] = score
        if runs and runs[-1][-1] == index - 1 and (not first or first >= last):
            runs[-1].append(index)
        else:
            runs.append([index])
        last = final or last
    if not runs:
        return []

    def headed(run: list[int]) -> bool:
        return any(_CONTENTS_HEADING.match(" ".join(t.split())) for _, t in norm.lines[run[0]][:3])

    return max(runs, key=lambda run: (headed(run), sum(scores[i] for i in run)))


# ---------------------------------------------------------------- kinds and levels


def _kinds(raws: list[_Raw]) -> list[tuple[str, int]]:
    """(kind, level) per entry, from keyword, numbering depth and position."""
    kinds: list[str] = []
    depth: list[int] = []
    last_appendix = 0
    for raw in raws:
        number, keyword = raw.number.rstrip("."), raw.keyword
        kind, d = "", 1
        if keyword in ("part", "book"):
            kind = "part"
        elif keyword in ("chapter", "lecture", "unit"):
            kind = "chapter"
        elif keyword == "appendix":
            kind = "appendix"
        if "." in number:
            kind, d = "section", number.count(".") + 1
        elif keyword == "section":
            kind = "section"
        elif not kind and number.isdigit():
            kind = "chapter"
        elif not kind and number:
            roman = bool(re.fullmatch(r"[IVXLC]+", number))
            if len(number) == 1 and ord(number) - ord("A") + 1 == last_appendix + 1:
                kind = "appendix"  # the next letter of the appendices (``I`` after ``H``)
            elif roman:
                kind = "part"
            else:
                kind = "appendix"
        if kind == "appendix" and len(number) == 1 and number.isalpha():
            last_appendix = ord(number.upper()) - ord("A") + 1
        kinds.append(kind)
        depth.append(d)
    numbered = [i for i, r in enumerate(raws) if r.number]
    chapters = [i for i, k in enumerate(kinds) if k in ("chapter", "appendix", "part") and raws[i].number]
    first, last = (chapters[0], numbered[-1]) if chapters else (len(raws), len(raws))
    context = 1  # numbering depth of the last numbered entry
    for i, kind in enumerate(kinds):
        if kind:
            context = depth[i] if kind == "section" else 1
            continue
        title = _title(raws[i])
        nxt = raws[i + 1] if i + 1 < len(raws) else None
        # NOTE: an unnumbered title right before the first of a series (``User Manual`` /
        # ``1 Introduction``, ``Appendices`` / ``A Autolink``) is a part; one in the middle of
        # a chapter (``Inline Links`` after ``5.1.10 Links``) is a section one level down.
        firsts = {"chapter": ("1",), "appendix": ("A", "1"), "part": ("I", "1")}
        opener = nxt is not None and nxt.number.rstrip(".") in firsts.get(kinds[i + 1], ())
        inside = first <= i <= last
        if FRONT_WORDS.match(title):
            kinds[i] = "front"
        elif BACK_WORDS.match(title) if inside else BACK_WORDS.search(title) and len(title.split()) <= 4:
            kinds[i] = "back"  # in the middle only the bare word (``Index``, not ``Search index``)
        elif not chapters:
            kinds[i] = "chapter"
        elif opener:
            kinds[i] = "part"
        elif i < first:
            kinds[i] = "front"
        elif i > last:
            kinds[i] = "back"
        else:
            kinds[i], depth[i] = "section", context + 1
    has_parts = "part" in kinds
    out = []
    for kind, d in zip(kinds, depth):
        level = 1 if kind == "part" else 2 if kind != "section" else 1 + d
        out.append((kind, level - (0 if has_parts else 1)))
    return out


def _letter_numbers(raws: list[_Raw]) -> None:
    """``A Installing LaTeX``: a capital letter before an unnumbered title is an appendix number
    when such letters run A, B, C… over the entries, or the next entry is its ``A.1``."""
    chain: list[tuple[int, str, str]] = []
    for i, raw in enumerate(raws):
        m = _LETTER_TITLE.match(_title(raw)) if not raw.number else None
        if m and m.group("let") == chr(ord("A") + len(chain)):
            chain.append((i, m.group("let"), m.group("title")))
    if len(chain) == 1:
        i, letter, _ = chain[0]
        if i + 1 >= len(raws) or not raws[i + 1].number.startswith(letter + "."):
            chain = []
    for i, letter, title in chain if len(chain) >= 1 else []:
        raws[i].number, raws[i].titles = letter, [title]


def _title(raw: _Raw) -> str:
    return " ".join(" ".join(raw.titles).split()).strip(" .:-–—")


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
                m = _HEAD_NUMBER.match(text) if text[:1].isalnum() else None
                number = m and next((m.group(g) for g in _HEAD_GROUPS if m.group(g)), "")
                heads.append((number, words_key(m.group("rest"))) if m and number else None)
            self._cache[index] = ([words_key(t) for t in texts], heads)
        return self._cache[index]

    def find(self, index: int, title: str, number: str) -> int | None:
        """Index of the line on page ``index`` where the heading ``number`` ``title`` begins."""
        if not 0 <= index < len(self.norm.lines) or not self.norm.lines[index]:
            return None
        want = words_key(title)
        if not want:
            return None
        blob = self.blob(index)
        if want not in blob and (
            len(want) <= SHORT_TITLE or fuzz.partial_ratio(want, blob, score_cutoff=FUZZY_MIN - 5) == 0
        ):
            return None
        keys, heads = self.page(index)
        for j, key in enumerate(keys):
            head = heads[j]
            if head is not None and number and not _same_number(number, head[0]):
                continue  # another number's heading (``2.1 Introduction`` for chapter 1)
            if _same(want, key) or (head is not None and _same(want, head[1])):
                return self._top(j, keys, number)
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

    @staticmethod
    def _wrapped(want: str, keys: list[str], j: int) -> bool:
        return j + 1 < len(keys) and _same(want, keys[j] + " " + keys[j + 1])

    def _top(self, j: int, keys: list[str], number: str) -> int:
        """Walk up over label lines stacked above the title (``CHAPTER`` / ``ONE``)."""
        top = j
        for k in (j - 1, j - 2):
            text = keys[k] if k >= 0 else ""
            if k < 0 or not _LABEL_ONLY.match(text.upper() if text.isalpha() else text):
                break
            if number and text.isdigit() and not _same_number(number, text):
                break
            top = k
        return top


# ---------------------------------------------------------------- printed → physical


def _system(printed: str) -> tuple[str, int] | None:
    if printed.isdigit():
        return "arabic", int(printed)
    value = number_value(printed.upper()) if _ROMAN_LOWER.match(printed) else 0
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
    """Printed label → first physical page carrying it (contents pages aside)."""
    out: dict[str, int] = {}
    for index, page in enumerate(norm.pages):
        if page.label and index not in banned:
            out.setdefault(page.label.casefold(), index)
    return out


def _confirm(pages: _Pages, entry: ContentsEntry, target: int, banned: set[int]) -> ContentsEntry | None:
    """The entry confirmed on ``target`` (or on the first page with text after a blank one)."""
    norm = pages.norm
    for step in range(BLANK_SKIP + 1):
        index = target + step
        if index >= len(norm.pages) or index in banned:
            return None
        if step and norm.lines[index - 1]:
            return None  # only a page with no text passes the search on
        line = pages.find(index, entry.title, entry.number)
        if line is not None:
            return _replace(entry, page=index, line=line, offset=norm.lines[index][line][0], confirmed=True)
    return None


def _replace(entry: ContentsEntry, **changes) -> ContentsEntry:
    values = {name: getattr(entry, name) for name in entry.__dataclass_fields__}
    values.update(changes)
    return ContentsEntry(**values)


def _map(
    norm: NormalisedBook, entries: list[ContentsEntry], contents_pages: list[int], sections: bool = True
) -> Contents:
    pages = _Pages(norm)
    banned = set(contents_pages)
    labels = _label_pages(norm, banned)
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
                by_label += target is not None and pages.find(target, entry.title, entry.number) is not None
        use_labels[name] = labelled and by_label >= votes and by_label > 0
        if offset is not None:
            offsets[name] = offset
        mapping[name] = "labels" if use_labels[name] else "offset" if offset is not None else "none"
    out = []
    for entry in entries:
        sv = _system(entry.printed)
        if _CONTENTS_HEADING.match(entry.title) and contents_pages:
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


def read_contents(norm: NormalisedBook, sections: bool = True) -> Contents:
    """Read the book's printed table of contents, map and confirm its entries.

    Args:
        norm (NormalisedBook): the canonical text and per-page lines (a PDF: its pages are
            physical pages; synthetic pages have no printed contents to read).
        sections (bool): also map and confirm section entries (most of the cost: one target
            page each). Defaults to True; the structure engine asks for chapter level only.

    Returns:
        Contents: the contents pages, every entry (confirmed or not) in contents order, and
        how printed pages were mapped; empty when the book shows no contents pages.
    """
    if not norm.pages or all(p.synthetic for p in norm.pages):
        return Contents()
    found = _find_pages(norm)
    if not found:
        return Contents()
    lines = [(index, text) for index in found for _, text in norm.lines[index]]
    raws, _ = _parse_lines(lines)
    # NOTE: a continuation page's running header (its folio, then ``CONTENTS``) parses as a
    # numbered entry ``4 CONTENTS`` with the next entry's number as its page: not an entry.
    raws = [r for r in raws if _title(r) and not (r.number and _CONTENTS_HEADING.match(_title(r)))]
    _letter_numbers(raws)
    kinds = _kinds(raws)
    entries = [
        ContentsEntry(
            title=_title(r),
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
