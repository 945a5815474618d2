"""The printed contents, read: which pages are contents pages, and their entries as lines say.

Part of the contents signal (``chunking.structure.contents``, whose docstring says why each step
works in general): lines are read as a stream, since PyMuPDF often splits an entry over lines
(``1`` / ``Introduction`` / ``1``; ``Title . . .`` / ``25``; a title wrapped over two lines): a
bare number with no title pending is the entry's number, one after a title is its page. Then each
entry gets its kind and level from its number and keyword.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ..normalise import NormalisedBook
from ..rules import (
    CONTENTS_NAMES,
    FENCE_KINDS,
    KEYWORD_ALTERNATION,
    ROMAN_FOLIO,
    ROMAN_LABEL,
    ROMAN_PATTERN,
    keyword_kind,
)
from .kinds import BACK_WORDS, FRONT_WORDS, NUMBER_RE, number_value

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

CHAPTER_LEVEL = FENCE_KINDS

_LEADER = r"(?:\s*[.·…_])"
_PAGE = rf"(?P<page>\d{{1,4}}|{ROMAN_FOLIO})"
_LEADER_LINE = re.compile(rf"^{_LEADER}{{3,}}\s*{_PAGE}?$")
_LEADER_CHARS = " .·…_"
_TAIL_TOKEN = re.compile(rf"(?:\d{{1,4}}|{ROMAN_FOLIO})$")
_ARABIC_LINE = re.compile(r"^\d{1,4}$")
_PAGED_TAIL = re.compile(rf"[\s.·…_](?:(?:\d{{1,4}}|{ROMAN_FOLIO})\s*$|(?<=[.·…_])\s*[.·…_]\s*[.·…_]\s*$)")
"""A line that ends in a page number after a space or a leader, or in three leaders (with
``_PAGE_ALONE``, the cheap test ``_ends_paged``).

NOTE: the pattern opens with one character class, so a search skips every other character
without trying a match there; opened by an alternation (``^`` or a space) it tries every
position of every line of the front pages, at twice the cost."""
_PAGE_ALONE = re.compile(rf"(?:\d{{1,4}}|{ROMAN_FOLIO})\s*$")
"""A line that is a page number alone."""
ROMAN_LOWER = re.compile(rf"^{ROMAN_PATTERN}$")
_KEYWORDS = KEYWORD_ALTERNATION
_NUMBER_LINE = re.compile(
    rf"^(?:(?P<kw>(?i:{_KEYWORDS}))\s+(?P<kn>\d{{1,3}}(?:\.\d{{1,3}})*|[A-Z]|{NUMBER_RE})"
    rf"|(?P<num>\d{{1,3}}(?:\.\d{{1,3}})*|[A-Z](?:\.\d{{1,3}})*|{ROMAN_LABEL}))\s*[.:]?$"
)
"""A line that is only an entry number: ``2.3``, ``4.``, ``A``, ``IV``, ``Chapter 3``, ``Part I``."""
_LEAD_NUMBER = re.compile(
    rf"^(?:(?P<kw>(?i:{_KEYWORDS}))\s+(?P<kn>\d{{1,3}}(?:\.\d{{1,3}})*|[A-Z]|{NUMBER_RE})"
    r"\s*[.:\-–—]?\s+"
    r"|(?P<num>\d{1,3}(?:\.\d{1,3})*)\.?\s+"
    r"|(?P<glued>\d{1,3}(?:\.\d{1,3})+(?=[^\W\d_])|\d{1,3}(?=[A-Z][a-z]))"
    r"|(?P<sub>[A-Z](?:\.\d{1,3})+)\.?\s+"
    rf"|(?P<let>[A-Z]|{ROMAN_LABEL})[.:]\s+)(?P<title>\S.*)$"
)
"""An entry number in front of its title: ``2.3 Title``, ``4. Title``, ``Chapter 3: Title``,
``A.1 Title``, ``A. Title`` (a bare letter needs its full stop: ``A FITS Primer`` is a title),
and numbers glued to their title by text extraction (``4.10Questions``, ``10Copy``)."""
HEAD_GROUPS = ("kn", "num", "glued", "sub", "let")
_LETTER_TITLE = re.compile(r"^(?P<let>[A-Z])\s+(?P<title>[A-Z0-9].*)$")
INDENT_MIN = 6.0
"""Points by which an entry must be set in from the contents' outermost entries to stand a level
below them (an em or more: a wrapped line or a ragged number column moves less)."""

INDENT_SAME = 2.0
"""Entries whose left edges differ by at most this many points share one indent."""

INDENT_ENTRIES = 2
"""Entries each indent must hold before the indents are read as levels."""

HEAD_LINES = 3
"""A contents heading stands among the first lines with text of its page (under a running header
or a printer's line at most)."""

CONTENTS_HEADING = re.compile(rf"^(?:{CONTENTS_NAMES})(?:\s*\(continued\))?$", re.I)
_LIST_HEADING = re.compile(r"^list of\s+\w+", re.I)
LABEL_ONLY = re.compile(rf"^(?:(?i:{_KEYWORDS})|{NUMBER_RE}|[A-Z])\s*[.:]?$")
"""A line that labels the heading under it without a number we can compare (``CHAPTER``)."""
HEAD_NUMBER = re.compile(
    rf"^(?:(?i:{_KEYWORDS})\s*(?P<kn>\d{{1,3}}(?:\.\d{{1,3}})*|[A-Z](?:\.\d{{1,3}})*|{NUMBER_RE})"
    r"(?:\s*[.:\-–—]\s*|\s+|$)"
    r"|(?P<num>\d{1,3}(?:\.\d{1,3})*)(?:\.\s*|\s+|$)"
    r"|(?P<glued>\d{1,3}(?:\.\d{1,3})+(?=[^\W\d_])|\d{1,3}(?=[A-Z][a-z]))"
    r"|(?P<sub>[A-Z](?:\.\d{1,3})+)(?:\.?\s+|\.?$)"
    rf"|(?P<let>[A-Z]|{ROMAN_LABEL})(?:[.:]\s*|$))(?P<rest>.*)$"
)
"""A heading line's leading number: after a keyword (``CHAPTER1``, ``Appendix B``), arabic
(``3.2 Title``), or a letter/roman one with its full stop (``B. Title``) or alone (``IV``)."""


@dataclass
class RawEntry:
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
    if ROMAN_LOWER.match(text) and number_value(text.upper()) <= ROMAN_MAX:
        return text
    return None


def _split_number(text: str) -> tuple[str, str, str] | None:
    """(keyword, number, title) when ``text`` starts with an entry number."""
    m = _LEAD_NUMBER.match(text)
    if not m:
        return None
    keyword = keyword_kind(m.group("kw") or "")
    number = next((m.group(g) for g in HEAD_GROUPS if m.group(g)), "")
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


def parse_lines(lines: list[tuple[int, str]]) -> tuple[list[RawEntry], int]:
    """Read ``(page index, line)`` pairs into entries; also return how many lines the entries
    with a page number took (the contents-page test)."""
    out: list[RawEntry] = []
    pending = RawEntry()
    used = 0

    def finish(page: str) -> None:
        nonlocal pending, used
        pending.page = page
        if pending.titles or pending.number:
            out.append(pending)
            if page:
                used += pending.lines
        pending = RawEntry()

    def start(index: int) -> None:
        if pending.source_page < 0:
            pending.source_page = index

    page_index, on_page = -1, 0  # the page of the line and how many lines with text stand above it there
    for pos, (index, raw) in enumerate(lines):
        text = " ".join(raw.split())
        if not text:
            continue
        page_index, on_page = index, (on_page + 1 if index == page_index else 0)
        # NOTE: a contents heading heads a page; one lower down with a page number on the line
        # below is an entry's title (a chapter section on making a book's contents)
        headed = CONTENTS_HEADING.match(text) and (on_page < HEAD_LINES or not _paged_below(lines, pos))
        if headed and (not out or not (pending.titles or pending.number)):
            # NOTE: lines above the first contents heading (the book's title set over it) are
            # no entry: what is pending then is dropped, not read as the first entry's title
            pending = RawEntry()
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
            pending = RawEntry(
                number=number.group("kn") or number.group("num") or "",
                keyword=keyword_kind(number.group("kw") or ""),
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


def _ends_paged(text: str) -> bool:
    """Whether a line ends in a page number (a word of its own) or in leaders."""
    return _PAGE_ALONE.match(text) is not None or _PAGED_TAIL.search(text) is not None


def _page_score(lines: list[tuple[int, str]]) -> tuple[int, int, int]:
    """(entries with a page number, first and last arabic printed page) of a contents page;
    (0, 0, 0) when the page is no contents page."""
    texts = [t for _, t in lines if t.strip()]
    if not texts or _LIST_HEADING.match(" ".join(texts[0].split())):
        return 0, 0, 0
    # NOTE: a cheap look before the parse (most of the cost): a contents page has at least
    # MIN_HEADED_ENTRIES lines that end in a page number or a leader; a page of prose has not.
    if sum(1 for t in texts if _ends_paged(t)) < MIN_HEADED_ENTRIES:
        return 0, 0, 0
    entries, used = parse_lines(lines)
    paged = [e for e in entries if e.page]
    headed = any(CONTENTS_HEADING.match(" ".join(t.split())) for t in texts[:HEAD_LINES])
    enough = MIN_HEADED_ENTRIES if headed else MIN_PAGE_ENTRIES
    if len(paged) < enough or used < MIN_LINE_SHARE * len(texts):
        return 0, 0, 0
    arabic = [int(e.page) for e in paged if e.page.isdigit()]
    pairs = list(zip(arabic, arabic[1:]))
    if pairs and sum(b >= a for a, b in pairs) < MIN_ORDERED_SHARE * len(pairs):
        return 0, 0, 0
    return len(paged), (arabic[0] if arabic else 0), (arabic[-1] if arabic else 0)


def find_pages(norm: NormalisedBook) -> list[int]:
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
        return any(CONTENTS_HEADING.match(" ".join(t.split())) for _, t in norm.lines[run[0]][:HEAD_LINES])

    return max(runs, key=lambda run: (headed(run), sum(scores[i] for i in run)))


# ---------------------------------------------------------------- kinds and levels


def _roman_run_without_chapters(raws: list[RawEntry], kinds: list[str]) -> None:
    """Bare roman numbers (``VII Token speak``) are parts only when chapters sit inside them: a
    contents with no chapter entry at all numbers its chapters in roman. Changes ``kinds`` in place.
    """
    if "chapter" in kinds or any(raw.keyword in ("part", "book") for raw in raws):
        return
    for i, raw in enumerate(raws):
        if kinds[i] == "part" and not raw.keyword:
            kinds[i] = "chapter"


def entry_kinds(raws: list[RawEntry]) -> list[tuple[str, int]]:
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
            roman = bool(re.fullmatch(ROMAN_LABEL, number))
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
    _roman_run_without_chapters(raws, kinds)
    numbered = [i for i, r in enumerate(raws) if r.number]
    chapters = [i for i, k in enumerate(kinds) if k in ("chapter", "appendix", "part") and raws[i].number]
    first, last = (chapters[0], numbered[-1]) if chapters else (len(raws), len(raws))
    context = 1  # numbering depth of the last numbered entry
    for i, kind in enumerate(kinds):
        if kind:
            context = depth[i] if kind == "section" else 1
            continue
        title = entry_title(raws[i])
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
        elif i > last and not _runs_on(raws, kinds, i):
            kinds[i] = "back"
        elif i > last:
            kinds[i], depth[i] = "section", context + 1
        else:
            kinds[i], depth[i] = "section", context + 1
    _lone_opener_is_front(raws, kinds, first)
    has_parts = "part" in kinds
    out = []
    for kind, d in zip(kinds, depth):
        level = 1 if kind == "part" else 2 if kind != "section" else 1 + d
        out.append((kind, level - (0 if has_parts else 1)))
    return out


def indents_tell_levels(kinds: list[tuple[str, int]]) -> bool:
    """Whether a contents of these entry kinds may tell its levels by indentation
    (``indented_levels``): one with no numbered part or section. The caller reads the entries'
    left edges only then, since that asks the PDF's layout of every contents page."""
    return bool(kinds) and not any(kind in ("part", "section") for kind, _ in kinds)


def indented_levels(kinds: list[tuple[str, int]], indents: list[float | None]) -> list[tuple[str, int]]:
    """The levels of a contents with no numbered chapter, told by its indentation: an entry set
    in (``INDENT_MIN`` or more) from the contents' outermost entries is a section one level below
    them, as a typesetter sets a chapter's sections under it. Read only where every entry's left
    edge is known and the entries fall into two or more indents (within ``INDENT_SAME``), each
    holding at least ``INDENT_ENTRIES`` entries, and the first entry stands at the outermost one
    (a contents that opens set in is no hierarchy). ``indents`` are the entries' left edges in
    points (None: unknown); a contents numbered by chapter tells its levels by its numbers."""
    if len(indents) != len(kinds) or any(x is None for x in indents) or not indents:
        return kinds
    if not indents_tell_levels(kinds):
        return kinds
    edges = [x for x in indents if x is not None]
    groups: list[list[float]] = []
    for x in sorted(edges):
        if groups and x - groups[-1][-1] <= INDENT_SAME:
            groups[-1].append(x)
        else:
            groups.append([x])
    if len(groups) < 2 or any(len(g) < INDENT_ENTRIES for g in groups):
        return kinds
    outer = groups[0][-1]
    if edges[0] > outer:
        return kinds
    out = []
    for (kind, level), x in zip(kinds, edges):
        if x - outer >= INDENT_MIN and kind == "chapter":
            out.append(("section", level + 1))
        else:
            out.append((kind, level))
    return out


def _lone_opener_is_front(raws: list[RawEntry], kinds: list[str], first: int) -> None:
    """An unnumbered title right before chapter 1 is a part only beside other parts: one that
    is the contents' only part (no other opener, no ``Part`` keyword, no roman run) is the
    book's introduction or preface in a language ``FRONT_WORDS`` does not know, set before
    the numbered chapters, so front matter. Changes ``kinds`` in place."""
    parts = [i for i, kind in enumerate(kinds) if kind == "part"]
    if len(parts) == 1 and parts[0] < first and not raws[parts[0]].number and not raws[parts[0]].keyword:
        kinds[parts[0]] = "front"


def _runs_on(raws: list[RawEntry], kinds: list[str], i: int) -> bool:
    """Whether the unnumbered, unnamed entry ``i`` after the last numbered one runs on inside the
    last chapter, or inside the back-matter unit before it (a licence's clauses): printed on the
    page of the chapter, back-matter unit or section just before it, or on the next page after a
    section of that run. Back matter opens a page of its own, pages after the end."""
    before = kinds[i - 1] if i else ""
    if before not in ("chapter", "section", "back") or not (
        raws[i].page.isdigit() and raws[i - 1].page.isdigit()
    ):
        return False
    gap = int(raws[i].page) - int(raws[i - 1].page)
    return gap == 0 or (before == "section" and gap == 1)


def letter_numbers(raws: list[RawEntry]) -> None:
    """``A Installing LaTeX``: a capital letter before an unnumbered title is an appendix number
    when such letters run A, B, C… over the entries, or the next entry is its ``A.1``."""
    chain: list[tuple[int, str, str]] = []
    for i, raw in enumerate(raws):
        m = _LETTER_TITLE.match(entry_title(raw)) if not raw.number else None
        if m and m.group("let") == chr(ord("A") + len(chain)):
            chain.append((i, m.group("let"), m.group("title")))
    if len(chain) == 1:
        i, letter, _ = chain[0]
        if i + 1 >= len(raws) or not raws[i + 1].number.startswith(letter + "."):
            chain = []
    for i, letter, title in chain if len(chain) >= 1 else []:
        raws[i].number, raws[i].titles = letter, [title]


def _paged_below(lines: list[tuple[int, str]], pos: int) -> bool:
    """Whether the next line with text after ``pos``, on the same page, is a bare page number."""
    for index, raw in lines[pos + 1 :]:
        if raw.strip():
            return index == lines[pos][0] and _page_token(" ".join(raw.split())) is not None
    return False


def entry_title(raw: RawEntry) -> str:
    """The entry's title as its lines give it, without a sign on a line of its own that parts
    it from its number (``1`` / ``\\`` / ``Title``) and the signs that close it."""
    titles = [t for t in raw.titles if t.strip() not in _SEPARATORS]
    return " ".join(" ".join(titles).split()).strip(" .:-–—")


_SEPARATORS = frozenset("\\|/")
"""Signs a contents may set between an entry's number and its title, read as lines of their own."""
