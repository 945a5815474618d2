"""The book model's rules, defined once: what fences, what holds an offset, how numbers read.

Every stage, the app and the retrieval tools ask these questions of a ``Book``; each answer is
written here and nowhere else, so a chunk's ``chapter``, ``locate``'s chapter, the scorecard's
crossings and the figures' chapter bands can never disagree:

* **fences**: which headings cut chunks (``fence_offsets``): at ``fence="chapter"`` every
  chapter-level heading and every part; at ``fence="section"`` every heading;
* **context at an offset** (``ContextIndex``): the innermost chapter-level heading at or before
  the offset names the chapter; under a part with no chapter yet, the part's title does (a part's
  own introduction is not chapterless text); the innermost section below that chapter names the
  section; the heading path is the stack of open headings;
* **page at an offset** (``PageIndex``): pages without text are skipped; a page separator (the
  ``"\\n"`` between two pages) belongs to the page it introduces;
* **numbering**: roman numerals (``ROMAN_PATTERN``, ``roman_value``, ``to_roman``) and the
  keywords that label a heading (``HEADING_KEYWORDS``);
* **sentence and paragraph ends** (``SENTENCE_END``, ``PARAGRAPH_END``, ``ends_sentence``,
  ``ends_paragraph``, ``next_sentence_starts``): where ``snap`` may end a window, where the
  scorecard calls an end clean and where retrieval's sentences start;
* **formats** (``BOOK_FORMATS``, ``EXPORT_FORMATS``): which file extension names which book format
  (what the readers accept) and which extension each export format's files get (the CLI, batch
  mode and the app's downloads).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePath

from .models import CHAPTER_LEVEL_KINDS, Book, Heading, Page

FENCE_KINDS = CHAPTER_LEVEL_KINDS | {"part"}
"""Heading kinds whose start is a chapter boundary: chapter-level units and parts."""

KEYWORD_WORDS: dict[str, tuple[str, ...]] = {
    "chapter": (
        "chapter",
        "chapitre",
        "kapitel",
        "kapittel",
        "capítulo",
        "capitolo",
        "hoofdstuk",
        "rozdział",
        "kapitola",
        "глава",
    ),
    "part": ("part", "partie", "teil", "parte", "deel", "część", "část", "часть"),
    "appendix": (
        "appendix",
        "annexe",
        "anhang",
        "apéndice",
        "appendice",
        "anexo",
        "bijlage",
        "dodatek",
        "příloha",
        "приложение",
    ),
    "section": ("section",),
}
"""The words that label a numbered heading with its kind, per kind, in the languages books are
printed in most (English, French, German, the Scandinavian languages, Spanish, Portuguese,
Italian, Dutch, Polish, Czech and Slovak, Russian): ``Kapitel 3``, ``Partie II``, ``Anhang A``
and ``Глава 2`` are read as ``Chapter 3``, ``Part II``, ``Appendix A`` and ``Chapter 2`` are.
Only words that never label anything else; a word that means a chapter in one book and a
division of a law in another (Russian ``Раздел``) stays out, and ``section`` is English alone
(a label a sectioned heading rarely prints). Chinese and Japanese labels are patterns of their
own (``chunking.structure.kinds``)."""

_KIND_OF_WORD = {word: kind for kind, words in KEYWORD_WORDS.items() for word in words}

CHAPTER_KEYWORDS = (*KEYWORD_WORDS["chapter"], *KEYWORD_WORDS["part"], *KEYWORD_WORDS["appendix"])
"""Words that open a chapter-level unit or a part when a number follows (``Chapter 3``,
``Kapitel 3``)."""

KIND_KEYWORDS = (*CHAPTER_KEYWORDS, *KEYWORD_WORDS["section"])
"""Words that name a heading's kind (``Section 2.1`` is a section): the ``HEADING_KINDS`` a
heading line can spell out."""

HEADING_KEYWORDS = (*KIND_KEYWORDS, "lecture", "unit", "book", "volume")
"""Every word that labels a numbered heading (``Lecture 4``, ``Volume II``). The words beyond
``KIND_KEYWORDS`` label a heading without saying its kind, so they count as labels (a contents
line, a folio's neighbour, a label line above a title), never as a kind."""


def keyword_kind(word: str) -> str:
    """The kind a label word names, in English: ``"Kapitel"`` → ``"chapter"``, ``"ANNEXE"`` →
    ``"appendix"``; a word of ``HEADING_KEYWORDS`` that names no kind (``lecture``) comes back
    casefolded, and ``""`` stays ``""``."""
    word = word.casefold()
    return _KIND_OF_WORD.get(word, word)


def keyword_alternation(words: Sequence[str], cases: bool = False) -> str:
    """``words`` as a regular-expression alternation; with ``cases`` each in lower, UPPER and
    Title case only (``chapter|CHAPTER|Chapter``: a mixed-case word is not a keyword)."""
    if not cases:
        return "|".join(words)
    return "|".join(v for w in words for v in (w, w.upper(), w.title()))


LIST_OF = (
    r"list of (?:figures|tables|examples|listings|illustrations|plates|maps|symbols|abbreviations|"
    r"algorithms|procedures|equations)"
)
"""The names of the lists a book prints after its contents (front matter, each a unit)."""

CONTENTS_NAMES = (
    r"(?:table of\s+)?contents|table\s+des\s+mati[eè]res|sommaire|inhaltsverzeichnis|inhalt|"
    r"[íi]ndice(?:\s+general)?|contenidos?|sum[aá]rio|inhoud(?:sopgave)?|innehåll|indholdsfortegnelse|"
    r"innhold|spis\s+treści|obsah|содержание|оглавление|目录|目次|目錄"
)
"""The names a book prints over its table of contents, in the languages its headings come in
(``Table des matières``, ``Inhaltsverzeichnis``, ``Índice``, ``Содержание``, ``目次``), as a
regular-expression alternation to compile with ``re.I``. (``Índice`` may also name an index at
the back: only a page of paged entries below it, or its place in the front, makes it a contents.)"""

SOURCE_FILE_NAME = re.compile(
    r"[\w.-]+\.(?:pod|md|markdown|txt|rst|tex|texi|xml|sgml|html?|adoc|asciidoc|org|docx?|odt)", re.I
)
"""A source document's file name (``input.pod``, ``README.md``): what a converter writes for a
document's title when the source gives none. Matched whole (``fullmatch``), it is no title."""

KEYWORD_ALTERNATION = "|".join(HEADING_KEYWORDS)
"""``HEADING_KEYWORDS`` as a regular-expression alternation."""

ROMAN_PATTERN = r"(?=[ivxlcdm])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})"
"""A well-formed, non-empty roman numeral in lower case (``xiv``; not ``iiii``, ``vx``), as a
regular expression without anchors or groups, to embed in a larger one. Compile with ``re.I``
for either case, or use ``ROMAN_PATTERN.upper()`` for capitals only; ``roman_value`` gives its
value."""

ROMAN_FOLIO = r"[ivxlcdm]{1,7}"
"""A printed page number in lower-case roman letters, as it is set in a folio or a contents line's
page column (``xiv``). Loose on purpose: a folio is read as a token, and ``roman_value`` decides
whether it is a numeral."""

ROMAN_LABEL = r"[IVXLC]{1,6}"
"""A capital roman number as it labels a part, chapter or contents entry (``IV``, ``XII``); loose,
like ``ROMAN_FOLIO``: the numbering sequence, not the pattern, decides which labels count."""

ROMAN_SMALL = r"(?=[IVXLC])X{0,3}(?:IX|IV|V?I{0,3})"
"""A well-formed capital roman numeral below 40 (``XXXIX``): the numbers of parts and chapters
printed before a title (``IV. Results``), strict so that a capitalised word is not taken."""

_ROMAN = re.compile(ROMAN_PATTERN, re.IGNORECASE)
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_ROMAN_DIGITS = (
    (1000, "m"),
    (900, "cm"),
    (500, "d"),
    (400, "cd"),
    (100, "c"),
    (90, "xc"),
    (50, "l"),
    (40, "xl"),
    (10, "x"),
    (9, "ix"),
    (5, "v"),
    (4, "iv"),
    (1, "i"),
)


def is_fence(heading: Heading, fence: str = "chapter") -> bool:
    """True when ``heading`` cuts chunks under ``fence`` (``"chapter"`` or ``"section"``)."""
    return fence == "section" or heading.kind in FENCE_KINDS


def fence_offsets(book: Book, fence: str = "chapter") -> list[int]:
    """Sorted, distinct character offsets where chunks are cut under ``fence``.

    Args:
        book (Book): the book.
        fence (str): ``"chapter"`` (chapter-level headings and parts) or ``"section"`` (every
            heading).
    """
    return sorted({h.char_offset for h in book.headings if is_fence(h, fence)})


def fence_headings(book: Book) -> list[Heading]:
    """The headings that fence at chapter level (chapter-level units and parts), in book order."""
    return [h for h in book.headings if h.kind in FENCE_KINDS]


def chapter_headings(book: Book) -> list[Heading]:
    """The chapter-level headings (what a book's chapter count counts): no parts, no sections."""
    return [h for h in book.headings if h.kind in CHAPTER_LEVEL_KINDS]


def crosses_fence(text: str, start: int, end: int, fences: Sequence[int]) -> bool:
    """True when a fence lies inside ``[start, end)`` with non-whitespace text on both sides.

    Whitespace before or after a boundary (page separators, blank lines) is nobody's text, so a
    span that is only blank lines and then the heading does not cross.
    """
    i = bisect.bisect_right(fences, start)
    while i < len(fences) and fences[i] < end:
        if text[start : fences[i]].strip() and text[fences[i] : end].strip():
            return True
        i += 1
    return False


@dataclass(frozen=True)
class Context:
    """Where an offset sits in the book's structure.

    Attributes:
        chapter (str): the chapter-level unit's title (the part's, under a part with no chapter).
        section (str): the innermost section's title below that chapter, ``""`` when none.
        path (tuple[str, ...]): titles of every open heading, outermost first.
    """

    chapter: str = ""
    section: str = ""
    path: tuple[str, ...] = ()


class ContextIndex:
    """The ``Context`` at any offset of one book, built once (O(headings)) and looked up by bisect."""

    def __init__(self, headings: Iterable[Heading]) -> None:
        self._offsets: list[int] = []
        self._contexts: list[Context] = []
        self.headings: list[Heading] = sorted(headings, key=lambda h: h.char_offset)
        """The headings in book order (``position`` indexes this list)."""
        stack: list[Heading] = []
        for h in self.headings:
            while stack and stack[-1].level >= h.level:
                stack.pop()
            stack.append(h)
            chapter_at = next(
                (i for i in range(len(stack) - 1, -1, -1) if stack[i].kind in CHAPTER_LEVEL_KINDS), -1
            )
            if chapter_at < 0:
                chapter_at = next((i for i in range(len(stack) - 1, -1, -1) if stack[i].kind == "part"), -1)
            chapter = stack[chapter_at].title if chapter_at >= 0 else ""
            section = next((s.title for s in reversed(stack[chapter_at + 1 :]) if s.kind == "section"), "")
            self._offsets.append(h.char_offset)
            self._contexts.append(Context(chapter, section, tuple(s.title for s in stack)))

    def position(self, offset: int) -> int:
        """Index (in book order) of the innermost heading at or before ``offset``; -1 before the first."""
        return bisect.bisect_right(self._offsets, offset) - 1

    def at(self, offset: int) -> Context:
        """The context of the innermost heading at or before ``offset`` (empty before the first)."""
        i = self.position(offset)
        return self._contexts[i] if i >= 0 else Context()


def context_at(book: Book, offset: int) -> Context:
    """``ContextIndex(book.headings).at(offset)``, for one-off lookups."""
    return ContextIndex(book.headings).at(offset)


class PageIndex:
    """The page holding any character offset of one book's text.

    Pages without text are skipped (they hold no offset); a page separator belongs to the page it
    introduces; offsets past the text belong to the last page with text.
    """

    def __init__(self, pages: Iterable[Page]) -> None:
        self.pages: list[Page] = [p for p in pages if p.char_end > p.char_start]
        self.ends: list[int] = [p.char_end for p in self.pages]
        """Each page's ``char_end``, in order (a page holds ``[char_start, char_end)`` and the separator after it)."""

    def index_at(self, offset: int) -> int:
        """Index into ``self.pages`` of the page holding ``offset`` (0 for a book without text)."""
        return min(bisect.bisect_right(self.ends, offset), max(len(self.ends) - 1, 0))

    def page_at(self, offset: int) -> Page | None:
        """The page holding ``offset``; None when the book has no text."""
        return self.pages[self.index_at(offset)] if self.pages else None

    def number_at(self, offset: int) -> int:
        """The 1-based physical page number holding ``offset`` (1 for a book without text)."""
        page = self.page_at(offset)
        return page.number if page else 1


def roman_value(token: str) -> int:
    """``"xiv"`` or ``"XIV"`` → 14; 0 when ``token`` is not a well-formed roman numeral."""
    if not _ROMAN.fullmatch(token):
        return 0
    low = token.casefold()
    total = 0
    for a, b in zip(low, low[1:] + " "):
        va, vb = _ROMAN_VALUES[a], _ROMAN_VALUES.get(b, 0)
        total += -va if va < vb else va
    return total


def to_roman(value: int) -> str:
    """14 → ``"xiv"`` (lower case; ``.upper()`` for capitals)."""
    out = []
    for number, letters in _ROMAN_DIGITS:
        while value >= number:
            out.append(letters)
            value -= number
    return "".join(out)


SENTENCE_FINAL = ".!?\u2026"
"""Punctuation that ends a sentence when whitespace follows it: ``. ! ? …``."""

CJK_SENTENCE_FINAL = "\u3002\uff01\uff1f\uff61"
"""Full-width punctuation that ends a sentence by itself (``。！？｡``): Chinese and Japanese text
puts no space after a sentence, so no whitespace need follow."""

SENTENCE_CLOSERS = "\"')]\u00bb\u201d\u2019\u300d\u300f\u3011\uff09"
"""Closing quotes and brackets that may follow sentence-final punctuation (``."``, ``。」``)."""

SENTENCE_END = re.compile(
    rf"[{re.escape(SENTENCE_FINAL)}][{re.escape(SENTENCE_CLOSERS)}]*\s+"
    rf"|[{CJK_SENTENCE_FINAL}][{re.escape(SENTENCE_CLOSERS)}]*\s*"
)
"""One sentence end: its final punctuation, closing quotes, then the whitespace after it (at
least one character of it, except after ``CJK_SENTENCE_FINAL``). A text may be cut anywhere
from the end of the punctuation to the end of the whitespace."""

PARAGRAPH_END = re.compile(
    rf"\n[ \t]*\n\s*|[{re.escape(SENTENCE_FINAL)}{CJK_SENTENCE_FINAL}:][{re.escape(SENTENCE_CLOSERS)}]*[ \t]*\n\s*"
)
"""One paragraph end: a blank line, or a line break after a line that ends a sentence or with a
colon (PDF text has few blank lines: its paragraphs are lines ending in ``. ! ? :``), with the
whitespace around it. A text may be cut anywhere from the end of the line's last non-space
character to the end of the whitespace."""


_NON_SPACE = re.compile(r"\S")


def cut_range(match: re.Match[str]) -> tuple[int, int]:
    """Where a text may be cut at one ``SENTENCE_END`` or ``PARAGRAPH_END`` match: from the end of
    its punctuation (the match without its trailing whitespace) to the end of the whitespace."""
    return match.start() + len(match.group().rstrip()), match.end()


def _ends_at(pattern: re.Pattern[str], text: str, pos: int) -> bool:
    """Whether a cut at ``pos`` lies in the cut range of a ``pattern`` match."""
    k = pos
    while k > 0 and text[k - 1].isspace():
        k -= 1
    # NOTE: the punctuation and closers of one end are a few characters before the whitespace;
    # 16 characters back and the whitespace up to 64 after ``pos`` cover every match that can
    # hold ``pos`` in its cut range.
    for m in pattern.finditer(text, max(0, k - 16), min(len(text), pos + 64)):
        low, high = cut_range(m)
        if low <= pos <= high:
            return True
        if m.start() > pos:
            break
    return False


def ends_sentence(text: str, pos: int) -> bool:
    """True when a cut at ``pos`` ends a sentence: it lies after a ``SENTENCE_END``'s punctuation
    and within its whitespace, or only whitespace follows it to the end of ``text``."""
    return _ends_at(SENTENCE_END, text, pos) or _NON_SPACE.search(text, pos) is None


def ends_paragraph(text: str, pos: int) -> bool:
    """True when a cut at ``pos`` ends a paragraph (``PARAGRAPH_END``) or the text."""
    return _ends_at(PARAGRAPH_END, text, pos) or _NON_SPACE.search(text, pos) is None


def next_sentence_starts(text: str) -> list[int]:
    """Where the next sentence starts after each sentence or paragraph end of ``text``, sorted,
    distinct, below ``len(text)``; 0 is not included.

    Every paragraph end (``PARAGRAPH_END``) starts one; a sentence end (``SENTENCE_END``) starts
    one when what follows can open a sentence: a capital, a digit, an opening
    quote or bracket, or a letter of a script without case, as CJK), so ``e.g. the`` and a row of
    contents dot leaders (``. . . 12``) start none. A cut at each start ends a sentence
    (``ends_sentence``) or a paragraph (``ends_paragraph``): the sentences that retrieval reads are
    those that ``snap`` and the scorecard see, CJK sentences right after ``。！？`` with no space.
    """
    ends = {m.end() for m in PARAGRAPH_END.finditer(text)}
    ends.update(
        m.end()
        for m in SENTENCE_END.finditer(text)
        if _opens_sentence(text, m.end()) and text[max(0, m.start() - 2) : m.start()] not in _LEADER_TAILS
    )
    return sorted(e for e in ends if e < len(text))


_LEADER_TAILS = frozenset({". ", "..", " .", "· "})
"""What comes before the last dot of a row of leaders (``. . . .``, ``....``): no sentence ends
there, whatever follows (a page number)."""


def _opens_sentence(text: str, pos: int) -> bool:
    if pos >= len(text):
        return False
    ch = text[pos]
    return ch.isupper() or ch.isdigit() or ch in "\"'([“‘«「『" or (ch.isalpha() and not ch.islower())


BOOK_FORMATS = {
    ".pdf": "pdf",
    ".epub": "epub",
    ".txt": "txt",
    ".md": "md",
    ".rst": "txt",
    ".org": "txt",
    ".tex": "txt",
    ".texi": "txt",
    ".sgml": "txt",
    ".xml": "txt",
    ".lyx": "txt",
}
"""File extension (lower case) → the book format its reader gives ``Book.format``; the readers
accept exactly these. Org, reStructuredText, LaTeX, Texinfo, LyX and SGML/XML (LinuxDoc, DebianDoc,
DocBook, Texinfo XML, JATS, BITS) sources are text books whose markup gives their headings
(``chunking.readers.markup``); a LyX document's text is its rendering (``markup_lyx``)."""

EXPORT_FORMATS = {
    "jsonl": ".jsonl",
    "csv": ".csv",
    "parquet": ".parquet",
    "langchain": ".langchain.jsonl",
}
"""Export format (``--format``) → the extension its files get: batch mode's outputs, the app's
downloads, and what ``-o`` without ``--format`` is read as (the longest matching extension wins,
so ``x.langchain.jsonl`` is LangChain and ``x.jsonl`` plain JSONL)."""

EXPORT_READ_ALIASES = {".json": "jsonl"}
"""Further extensions a chunk file is read back from (and ``-o`` is read as)."""


def book_format(name: str) -> str | None:
    """The book format a file name's extension names (``"b.PDF"`` → ``"pdf"``); None when unsupported."""
    return BOOK_FORMATS.get(PurePath(name).suffix.lower())


def export_format(name: str) -> str | None:
    """The export format a file name's extension names (the longest match); None when none does."""
    low = name.lower()
    known = [(ext, fmt) for fmt, ext in EXPORT_FORMATS.items()] + list(EXPORT_READ_ALIASES.items())
    for ext, fmt in sorted(known, key=lambda pair: -len(pair[0])):
        if low.endswith(ext):
            return fmt
    return None
