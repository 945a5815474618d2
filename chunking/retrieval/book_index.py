"""The book's printed index as relevance judgments: find it, parse its entries, map their pages.

Contract: ``parse_book_index(book)`` returns a ``BookIndex``: where the index is (a character span
of ``book.text``), every entry parsed (term, printed page references, sub-entry of which term) and,
per entry, the physical pages its references map to through the book's page labels
(``Page.label``). Nothing is guessed when the book has no labels: entries are parsed, none mapped.

Where the index is: every chapter-level heading titled like ``INDEX_TITLE`` (``Index``,
``Concept index``, ``Index of Routines``…), each up to the next chapter-level fence or the end
(a book with two indexes gives both); when no
heading names it, the first page in the back half whose first line is such a title and whose
lines are mostly entries (``MIN_ENTRY_SHARE``), continued while the following pages are too.

How a line reads (the canonical text of the index pages, one line at a time; a two-column page is
two runs of lines, column after column, which is all the parser needs):

* ignored: the index title, folio lines (a number or a roman numeral alone), letter group
  headers (one letter alone, which also close an open parent), and prose (a line without
  references of more than ``MAX_HEADING_WORDS`` words or ending in a full stop);
* dot leaders (``term . . . . 12``) read as ``term, 12``; a line that ends with ``,`` or a
  hyphen continues on the next; a line of references only continues the previous entry's;
* references: the trailing comma-separated tokens that look like page references: numbers,
  roman numerals in lower case (``xiv``), ranges ``12-15`` / ``12–15`` / ``123-25`` (each page
  counted; at most ``MAX_RANGE_PAGES``), ``12f`` (12 and the next page), ``12ff`` (12 and the
  ``FF_PAGES`` after it). Tokens with a letter prefix or suffix (``t270``: a reference into
  another volume) are references too but map to nothing;
* ``see X`` / ``see also X`` (after a comma, a full stop or a parenthesis) are cross references:
  kept in ``see``; an entry with only a ``see`` has no pages;
* sub-entries: a line without references or ``see`` is a heading; the lines after it are its
  sub-entries (their query is ``heading + sub-term``) until a line that sorts after the heading
  and begins with the same letter, a letter header, or another heading. Plain text has no
  indentation, so a sub-entry of an entry that *has* references reads as an entry of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..models import CHAPTER_LEVEL_KINDS, Book, Page
from ..rules import ROMAN_PATTERN, fence_offsets, roman_value

INDEX_TITLE = re.compile(
    r"^\W*(?:appendix\s+\w{1,3}\W+)?(?:(?:[\w-]+\s+){0,3}index|index\s+of(?:\s+[\w-]+){1,3})\W*$",
    re.IGNORECASE,
)
"""An index's title line or heading: ``Index``, ``INDEX``, ``Concept index``, ``Function and
variable index``, ``Index of Routines``, ``Appendix E Concept index`` (at most three words besides
"index")."""

MIN_ENTRY_SHARE = 0.5
"""A page is index-like when at least this share of its non-empty lines are entries with references."""

BACK_SHARE = 0.5
"""Without a heading, the index is looked for only in this last share of the book's pages."""

MAX_RANGE_PAGES = 20
"""A range longer than this (``1-500``: an extraction artefact) is read as its first page only."""

FF_PAGES = 2
"""``12ff`` means page 12 and this many pages after it (``12f``: one after)."""

MAX_HEADING_WORDS = 6
"""A line without references longer than this (or ending in a full stop) is prose (an index's
preamble, "Entries in bold are definitions."), not a heading."""

_LEADER = re.compile(r"\s*(?:\.\s*){3,}")
_SEE = re.compile(r"(?:^|[,.;(]\s*)\(?\b(see\s+also|see)\b\s*(.*?)\)?\s*$", re.IGNORECASE)
_NUMBER = re.compile(r"^(\d{1,5})$")
_RANGE = re.compile(r"^(\d{1,5})\s*[-–—]\s*(\d{1,5})$")
_FF = re.compile(r"^(\d{1,5})\s*(ff?)\.?$")
MAX_ROMAN_REF = 400
"""A lower-case roman page reference (front matter) is below this; ``mix`` (1009) is a word."""
_FOREIGN_REF = re.compile(r"^[A-Za-z]{1,3}[-:.]?\d{1,5}[a-z]?$|^\d{1,5}[a-z]$")
_FOLIO = re.compile(rf"^(\d{{1,5}}|{ROMAN_PATTERN})$", re.I)
_LETTER = re.compile(r"^[A-Za-z]$")


@dataclass(frozen=True)
class IndexEntry:
    """One parsed entry.

    Attributes:
        term (str): the entry's own term as printed.
        parent (str): the heading it is a sub-entry of, ``""`` for a main entry.
        refs (tuple[str, ...]): the printed page references (``"12"``, ``"12-15"``, ``"xiv"``).
        see (tuple[str, ...]): cross references (``see`` / ``see also`` targets).
        pages (tuple[int, ...]): physical pages the references map to (sorted, distinct).
    """

    term: str
    parent: str = ""
    refs: tuple[str, ...] = ()
    see: tuple[str, ...] = ()
    pages: tuple[int, ...] = ()

    @property
    def query(self) -> str:
        """What an evaluation searches for: the heading and the term."""
        return f"{self.parent} {self.term}".strip()


@dataclass
class BookIndex:
    """A book's printed index, parsed.

    Attributes:
        char_start (int): where the index starts in ``book.text`` (-1 when the book has none).
        char_end (int): where it ends (exclusive).
        page_start (int): its first physical page (0 when none).
        page_end (int): its last physical page.
        entries (list[IndexEntry]): every entry parsed, in index order.
    """

    char_start: int = -1
    char_end: int = -1
    page_start: int = 0
    page_end: int = 0
    entries: list[IndexEntry] = field(default_factory=list)

    @property
    def mapped(self) -> list[IndexEntry]:
        """The entries with at least one physical page."""
        return [e for e in self.entries if e.pages]


def expand_ref(ref: str) -> list[str]:
    """The printed page labels a reference names (``"12-14"`` → ``["12", "13", "14"]``).

    ``"xiv"`` → ``["xiv"]``; ``"12f"`` → 12, 13; ``"12ff"`` → 12 and ``FF_PAGES`` more; a foreign
    reference (``"t270"``) or anything else → ``[]``.
    """
    ref = ref.strip()
    if _NUMBER.match(ref):
        return [ref]
    m = _RANGE.match(ref)
    if m:
        a, b_text = int(m.group(1)), m.group(2)
        b = int(b_text)
        if b < a and len(b_text) < len(m.group(1)):  # "123-25" → 123-125
            b = int(m.group(1)[: -len(b_text)] + b_text)
        if b < a or b - a + 1 > MAX_RANGE_PAGES:
            return [str(a)]
        return [str(p) for p in range(a, b + 1)]
    m = _FF.match(ref)
    if m:
        a = int(m.group(1))
        return [str(p) for p in range(a, a + 1 + (1 if m.group(2) == "f" else FF_PAGES))]
    if ref.islower() and 0 < roman_value(ref) < MAX_ROMAN_REF:
        return [ref]
    return []


def _is_ref(token: str) -> bool:
    token = token.strip()
    return bool(expand_ref(token)) or bool(_FOREIGN_REF.match(token))


def split_line(line: str) -> tuple[str, list[str], list[str]]:
    """``(term, refs, see)`` of one (joined) index line; refs empty when the line has none."""
    line = _LEADER.sub(", ", line.strip())
    see: list[str] = []
    m = _SEE.search(line)
    if m and m.start() > 0:
        see = [t.strip() for t in re.split(r"[;,]\s*", m.group(2)) if t.strip()]
        line = line[: m.start()].rstrip(" ,.;(")
    parts = [p.strip() for p in line.split(",")]
    refs: list[str] = []
    while len(parts) > 1 and parts[-1] and _is_ref(parts[-1]):
        refs.insert(0, parts.pop())
    if len(parts) > 1 and not parts[-1]:  # a trailing comma: references follow on the next line
        parts.pop()
    return ", ".join(parts).strip(), refs, see


def _sort_key(text: str) -> str:
    return "".join(c for c in text.casefold() if c.isalnum())


def parse_entries(lines: list[str]) -> list[tuple[str, str, list[str], list[str]]]:
    """Parse index lines into ``(term, parent, refs, see)`` tuples (module docstring rules)."""
    joined: list[str] = []
    for raw in lines:
        line = raw.strip()
        continues = bool(joined) and (joined[-1].endswith(",") or joined[-1].endswith("-"))
        if not line or INDEX_TITLE.match(line) or (_FOLIO.match(line) and not continues):
            continue
        if continues:
            prev = joined.pop()
            joined.append(prev[:-1] + line if prev.endswith("-") else prev + " " + line)
        else:
            joined.append(line)
    out: list[tuple[str, str, list[str], list[str]]] = []
    heading = ""
    for line in joined:
        if _LETTER.match(line):
            heading = ""
            continue
        if all(_is_ref(t) for t in line.split(",") if t.strip()) and out:
            term, parent, refs, see = out[-1]
            out[-1] = (term, parent, refs + [t.strip() for t in line.split(",") if t.strip()], see)
            continue
        term, refs, see = split_line(line)
        if not term:
            continue
        if not refs and not see:
            if len(term.split()) > MAX_HEADING_WORDS or term.endswith("."):
                continue
            heading = term
            out.append((term, "", [], []))
            continue
        closes = _sort_key(term)[:1] == _sort_key(heading)[:1] and _sort_key(term) > _sort_key(heading)
        if heading and closes:
            heading = ""
        out.append((term, heading, refs, see))
    return out


def label_map(pages: tuple[Page, ...] | list[Page]) -> dict[str, int]:
    """Printed label (case-folded) → physical page number; the first page wins a repeated label."""
    out: dict[str, int] = {}
    for p in pages:
        if p.label:
            out.setdefault(p.label.strip().casefold(), p.number)
    return out


def _page_lines(book: Book, page: Page) -> list[str]:
    return book.text[page.char_start : page.char_end].splitlines()


def _entry_share(lines: list[str]) -> float:
    """Share of a page's non-empty lines that read as entries with references."""
    lines = [ln for ln in lines if ln.strip() and not _FOLIO.match(ln.strip())]
    if not lines:
        return 0.0
    return sum(bool(split_line(ln)[1]) for ln in lines) / len(lines)


def find_index_pages(book: Book) -> list[Page]:
    """The pages holding the book's printed index, in order (empty when none is found)."""
    text_pages = [p for p in book.pages if p.char_end > p.char_start]
    heads = [h for h in book.headings if h.kind in CHAPTER_LEVEL_KINDS and INDEX_TITLE.match(h.title)]
    if heads:
        fences = fence_offsets(book, "chapter")
        spans = [
            (h.char_offset, next((f for f in fences if f > h.char_offset), len(book.text))) for h in heads
        ]
        return [p for p in text_pages if any(p.char_end > s and p.char_start < e for s, e in spans)]
    back = text_pages[int(len(text_pages) * (1 - BACK_SHARE)) :]
    for i, page in enumerate(back):
        first = next((ln.strip() for ln in _page_lines(book, page) if ln.strip()), "")
        if INDEX_TITLE.match(first) and _entry_share(_page_lines(book, page)) >= MIN_ENTRY_SHARE:
            run = [page]
            for nxt in back[i + 1 :]:
                if _entry_share(_page_lines(book, nxt)) < MIN_ENTRY_SHARE:
                    break
                run.append(nxt)
            return run
    return []


def parse_book_index(book: Book) -> BookIndex:
    """Find, parse and map the book's printed index (see the module docstring)."""
    pages = find_index_pages(book)
    if not pages:
        return BookIndex()
    labels = label_map(book.pages)
    lines = [ln for p in pages for ln in _page_lines(book, p)]
    index = BookIndex(pages[0].char_start, pages[-1].char_end, pages[0].number, pages[-1].number)
    inside = set(range(index.page_start, index.page_end + 1))
    for term, parent, refs, see in parse_entries(lines):
        physical = {labels[lab.casefold()] for r in refs for lab in expand_ref(r) if lab.casefold() in labels}
        physical -= inside
        index.entries.append(IndexEntry(term, parent, tuple(refs), tuple(see), tuple(sorted(physical))))
    return index
