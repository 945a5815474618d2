"""Text fidelity (issue 25): how many of a PDF's words the canonical text loses or invents,
measured against an independent extractor, poppler's ``pdftotext``.

Run: ``python bench/fidelity.py [PDF ...]`` (default: every bench PDF: the samples, the corpus, the
extra and the validation books, from the cache ``bench/corpus.py`` fetches into); writes the table
to stdout, ``--write`` rewrites ``bench/FIDELITY.md``, ``--show [--cause C]`` prints every counted
difference per page to stderr; ``--only a,b`` keeps the bench PDFs whose names hold one of the
pieces, ``--over 0.5`` those whose lost or invented share in ``bench/FIDELITY.md``'s table is above
0.5 %; with a selection, ``--write`` replaces only those books' rows of the table and sums the
``**all**`` row again (the table must have this version's cause columns). Needs ``pdftotext``
(``make poppler``).

Method, per page, the same for both texts:

* a page our reader OCR'd (no text layer, or a garbage one: ``chunking.ocr``) is left out of
  both: pdftotext reads the same unusable layer, so it is no reference there (OCR's own word
  accuracy is ``bench/ocr.py``'s);

* **furniture by position, not by our rules** (``edge_furniture``): among the first and last
  ``EDGE_LINES`` lines of every page, a line whose digits-blind key repeats on at least
  ``max(3, 5 %)`` of the pages, or a bare page number, is furniture (a row of three or more bare
  numbers never is, ``_by_position``), and so is a page's outermost
  line that names a numbered section where another page's within ``NEAR_PAGES`` does too
  (``EdgeLines.is_section_header``: a running header of a section one page long); both texts drop it, the
  other text wherever it reads the same line (``drop_furniture_alike``; for our text, a line at
  the edge of the reader's page that the normaliser already removed counts too).
* words are runs of letters and digits, with Hebrew and Arabic marks inside (``WORD``), NFC; the
  page's word multisets are compared: **lost** = in pdftotext's page, not in ours;
  **invented** = in ours, not in pdftotext's.
* each difference is given a cause where one is known (``classify``): ``dehyphenation``
  (``hyphen-`` / ``ated`` joined), ``accent`` (``Br¨oker`` read as ``Br`` ``oker``), ``ligature``
  (``ﬁ`` expanded), ``de-duplication`` (a fake-bold ``TTiittllee``), ``furniture`` (a line our own
  rules removed as a running header, footer or folio), ``spacing`` (the same letters with other
  word boundaries: a footnote mark glued to the next word, ``LATEX2ε`` as one word or two),
  ``reference`` (a page pdftotext itself could not read whole: it reports a syntax error in the
  page's content and stops there, ``reference_failures``), ``rotated`` (text set at a slant,
  which pdftotext breaks into pieces and MuPDF reads as words, ``_rotated``), ``math italic``
  (a name in a formula that pdftotext cuts at a letter's italic correction, ``yM ax``,
  ``math_italic_words``); the rest is ``unknown``.
* **lost** and **invented** count every cause but those in ``NOT_LOST``: the rewritings of our
  own rules that keep the page's letters (``REWRITTEN``) and the places where pdftotext departs
  from the page (``UNMEASURED``): where the reference extractor broke off, a word it lacks is its
  own loss, not one we invented (``xotcl-tutorial``'s pages write numbers as ``3.05176e-05``,
  which is no PDF number; poppler stops the page at the first, MuPDF skips the token and reads
  on). A difference either extractor could be to blame for (``spacing``: a footnote mark glued to
  a word; ``accent missing``: pdftotext has the accent, we do not) stays counted.
"""

from __future__ import annotations

import argparse
import bisect
import difflib
import html
import re
import shutil
import subprocess
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from typing import Any, TypeVar
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from chunking.normalise import LIGATURES  # noqa: E402  (the ligatures we expand, the same table)
from chunking.normalise.mojibake import repaired  # noqa: E402  (the same repair, line by line)

EDGE_LINES = 3
"""Lines at the top and at the bottom of a page that may be furniture."""
NEAR_PAGES = 2
"""A running header recurs within this many pages (every other page for left/right headers)."""
WORD = re.compile(r"[^\W_](?:[^\W_]|[\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed])*")
"""A word: a run of letters and digits, with the vowel signs and other marks of Hebrew and Arabic
after its first letter (they are no word characters to ``\\w``, so a vowelled Arabic word fell
apart into its letters, on both sides, and no word boundary of either text could be told right
from wrong); a mark standing alone is no word."""
CAUSES = (
    "furniture",
    "dehyphenation",
    "ligature",
    "accent",
    "encoding",
    "accent missing",
    "de-duplication",
    "glyph map",
    "letter spacing",
    "small caps",
    "rotated",
    "math italic",
    "no space",
    "clipped",
    "cjk boundary",
    "script",
    "spacing",
    "reference",
    "unknown",
)
REWRITTEN = ("dehyphenation", "ligature", "accent", "encoding", "de-duplication")
"""Causes under which our text holds the same letters as pdftotext's, rewritten by a rule of our
own normaliser that the reference does not apply: a hyphenated word joined (``hyphen-`` ``ated`` →
``hyphenated``) or a line-end hyphen kept where pdftotext joins (``multi-`` ``core``), a ligature
glyph expanded (``ﬁle`` → ``file``), a spacing accent composed with its letter (``Br¨oker`` →
``Bröker``), a line that was UTF-8 read as a single-byte encoding decoded again (``naÃ¯ve``
→ ``naïve``, ``_encoding``), a fake-bold doubling read once (``TThhee`` → ``The``). No letter
of the page is missing or added; each column still shows how many words these rules rewrote."""
_SET_APART = ("letter spacing", "small caps", "rotated", "math italic", "no space")
"""Causes where pdftotext cuts or spaces a word the page sets whole (``_spacing``, ``_SetSo``)."""
UNMEASURED = ("reference", "glyph map", *_SET_APART, "clipped")
"""Causes where pdftotext, not our text, departs from the page: it stopped reading the page
(``reference``), read a symbol glyph as the letter of its character code (inside a word or
alone, ``_lone_glyphs``; a prime as the ``0`` of its code, ``_primes``) or as the control
character a broken ToUnicode map gives it
(``glyph map``, ``_control_glyphs``), put a
space between every letter of a word, or joined into one word words the page sets apart, a
space drawn between each or a word space between their glyphs (single letters at even gaps it
takes for a word's letter spacing, a line of a few single glyphs) (``letter spacing``,
``drawn_apart_words``), between a word's full-size capital
and the smaller capitals after it (``small caps``), broke text set at a slant into pieces
(``rotated``), cut a name set in TeX's math italic at a letter's italic correction (``math
italic``), cut a word whose glyphs stand, at one size, no further apart than its own word break
(``no space``), or read text the page's clip hides (``clipped``); see ``classify``,
``_spacing``, ``_rotated``, ``math_italic_words``, ``unspaced_words``, ``drawn_apart_words`` and
``clipped_words``."""
SAME_TEXT = ("cjk boundary", "script")
"""Causes where both texts hold the same characters in the same order and differ only in a word
boundary the page does not show: Chinese and Japanese set no word spaces, so a run of Han or
kana cut between two of its characters by one extractor and not by the other (``第一章 讲述`` /
``第一章讲述``: a gap pdftotext reads as a space and we, between two CJK characters, as
justification) loses and invents no character (``_spacing``); a formula's symbol and its
exponent or index, set solid, which pdftotext cuts where the size and the baseline change and
MuPDF reads as one word (``𝑒`` ``𝑥`` / ``𝑒𝑥`` for e to the x: ``script_words``)."""
NOT_LOST = REWRITTEN + UNMEASURED + SAME_TEXT
"""Causes the headline lost/invented shares leave out; every other cause (``furniture``,
``accent missing``, ``spacing``, ``unknown``) is counted."""
_CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
"""Han ideographs and kana: scripts without word spaces (Hangul, which has them, is not here)."""
_CJK_GAP = re.compile(f"(?<={_CJK.pattern}) (?={_CJK.pattern})")
"""A space between two Han or kana characters, which no line's key holds (``_key``): a chapter's
heading set with a gap between its label and its title, ``第一章 模板功能介绍``, that one
extractor reads as a space and the other does not (``cjk boundary``) is one line, and the
running header that repeats it on the next pages the same; with the space in one key only, the
heading atop its page was dropped as that header from one text alone, and its words counted."""
_SYNTAX_ERROR = b"Syntax Error"
_PRESENTATION = re.compile("[\ufb50-\ufdff\ufe70-\ufeff]+")
"""Arabic presentation forms A and B."""
_FOLIO = re.compile(r"^(?:\d{1,4}|[ivxlcdm]{1,7})$", re.I)
_NUMBERING = re.compile(r"^\d+(?:\.\d+)+\.?$")
"""A bare section number (``6.3.2``): one extractor may put it on a line of its own, where its
digit-blind key repeats at the edges of many pages (``drop_furniture_alike``)."""
PDFTOTEXT_TIMEOUT_S = 300
SLANT = 0.05
"""A line whose direction's smaller component (its cosine or sine) passes this stands at a
slant, neither across nor up or down the page (``_rotated``): 0.05 is 3°."""


def _key(line: str) -> str:
    """``line``'s digit-blind key: case folded, whitespace collapsed and dropped between two Han
    or kana characters (``_CJK_GAP``), NFC (``_nfc``), every run of digits ``#``."""
    return re.sub(r"\d+", "#", _CJK_GAP.sub("", " ".join(_nfc(line).casefold().split())))


_NOTE_MARK = re.compile(r"[(\[][^()\[\]]*?(\d+)\s*[)\]]")
"""A number closing a bracketed group: a note's mark, ``(3)``, ``[12]``, ``(Note 3)``, ``(訳注 3)``
(``_numbers``)."""


def _numbers(line: str) -> tuple[tuple[int, bool], ...]:
    """The numbers of ``line`` that its digit-blind key (``_key``) hides, in order, each with
    whether it is free (``_in_step``): any but a note's mark (``_NOTE_MARK``), whose number is
    the note's."""
    text = _nfc(line)
    marks = {m.start(1) for m in _NOTE_MARK.finditer(text)}
    return tuple((int(m.group(0)), m.start() not in marks) for m in re.finditer(r"\d+", text))


def _in_step(numbers: tuple[tuple[int, bool], ...], other: tuple[tuple[int, bool], ...]) -> bool:
    """Whether a line's ``numbers`` (``_numbers``) and those of another line of the same key are
    those of one running header or footer: its note's marks (``_NOTE_MARK``) the same; the other
    numbers, digit-blind, any (a folio, a chapter's number)."""
    return len(numbers) == len(other) and all(b == a or free for (a, free), (b, _) in zip(numbers, other))


_DIACRITIC = re.compile("[\u0300-\u036f]")
"""A combining diacritical mark of the Latin, Greek and Cyrillic letters (``_nfc``)."""


def _nfc(line: str) -> str:
    """``line`` in NFC where it holds a combining diacritical mark (``_DIACRITIC``): pdftotext may
    give an accented letter as its letter and the mark (``pletikosic`` + U+0301) where our text
    has the precomposed letter, and the same header line must have the same key in both texts.
    Other lines stay as read: NFC also reorders the vowel marks of Arabic, and vowelled Arabic
    sample lines repeated at the foot of pages running (a font manual's) then matched each
    other's keys in one text only."""
    return unicodedata.normalize("NFC", line) if not line.isascii() and _DIACRITIC.search(line) else line


_NUMBER_ROW = re.compile(r"^\d+(?: +\d+){2,}$")
"""A line of three or more bare numbers and nothing else: a table's row, a diagram's numbered
columns (``1 2 3 4 5 6 7`` over the fields of a record), never a running header or footer
(``_by_position``)."""


def _by_position(line: str, furniture: EdgeLines, page: int | None) -> bool:
    """Whether ``line``, at the edge of ``page``, is furniture by position: its key repeats at
    page edges (``EdgeLines.is_furniture``) or it is a bare folio. A row of bare numbers
    (``_NUMBER_ROW``) is none: digit-blind, a diagram's numbered columns at the top of one page
    matched any row of as many numbers at the top of the next (and the field numbers of two
    records are the same numbers), so the row was cut from the text that read it as one line
    and kept by the other, which read it broken over several lines (``1`` / ``2 3`` / ``4 5``),
    and counted lost. Kept in both texts, its words count wherever each text reads them on
    the page."""
    bare = " ".join(line.split())
    if _NUMBER_ROW.match(bare):
        return False
    return furniture.is_furniture(_key(line), page, _numbers(line)) or _FOLIO.match(bare) is not None


def _edges(lines: list[str]) -> list[int]:
    kept = [i for i, line in enumerate(lines) if line.strip()]
    return sorted(set(kept[:EDGE_LINES] + kept[-EDGE_LINES:]))


_SECTION_HEADER = re.compile(r"^(?:(\d+) )?(\d+(?:\.\d+)+\.?) ((?=[^\W\d_]).*?)(?: (\d+))?$")
"""A line that opens with a section's number and its title's first letter, a folio before or
after it or none: ``2.3. COMMENTS 9``, ``1.2 Basics``, ``10 4.1 Tables`` (``_section_shape``)."""
_CHAPTER_HEADER = re.compile(r"^(?:(\d+) )?(\d+\.|[A-Z]\.) ((?=[^\W\d_]).*?)(?: (\d+))?$")
"""The same for a chapter's number and title, ``9. The symbols Module``: its number one figure
and a full stop (``_numbered``), or an appendix's capital letter and a full stop, ``B. Support
and Reports`` (its shape letter-blind, ``_section_shape``: appendix B's header has appendix A's
shape). Not counted towards a contents page (``_outer``): a numbered list's items have that
shape too. A line opening with a name's initial (``B. Smith wrote``) has the shape, but is named
once on its page: no header (``is_section_header``)."""


_LABELLED_HEADER = re.compile(r"^(?:\d+ )?[^\W\d_]+ \d+[.:]? ((?=[^\W\d_]).*?)(?: \d+)?$")
"""A line that names a chapter by a word, its number and its title, a folio before or after it or
none: ``CHAPTER 7. SUMS``, ``18 KAPITEL 7. SUMMEN`` (``labelled_header``)."""
_LETTER = re.compile(r"[^\W\d_]")


def _letters(text: str) -> str:
    """``text``'s letters and digits, case aside: a title as its header and its heading say it."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _numbered(line: str) -> re.Match | None:
    """``line`` (whitespace collapsed) as a section's or a chapter's number and title."""
    text = " ".join(line.split())
    return _SECTION_HEADER.match(text) or _CHAPTER_HEADER.match(text)


def _section_shape(line: str) -> tuple[str, int | None] | None:
    """The shape of a line that names a numbered section (``_SECTION_HEADER``): its number's
    digit-blind shape, an appendix's letter as a digit, and where a folio stands (``#.#. … #``),
    and that folio; None for any other line."""
    m = _numbered(line)
    if m is None:
        return None
    folio = m.group(1) or m.group(4)
    number = re.sub(r"\d+|^[A-Z](?=\.$)", "#", m.group(2))
    shape = ("# " if m.group(1) else "") + number + (" … #" if m.group(4) else " …")
    return shape, None if folio is None else int(folio)


def _section_name(line: str) -> str | None:
    """The section a line names (``_SECTION_HEADER``): its number and its title's letters and
    digits, case aside (``2.3. COMMENTS 9`` and ``2.3 Comments`` name one section); None for
    any other line."""
    m = _numbered(line)
    if m is None:
        return None
    return m.group(2).rstrip(".") + " " + "".join(ch for ch in m.group(3).casefold() if ch.isalnum())


def _with_numbers_joined(lines: list[str]) -> list[str]:
    """``lines`` without empty ones, a bare section number (``_NUMBERING``) joined to the line
    after it: a heading that an extractor reads as its number and its title on two lines
    (``1.2`` / ``Acquiring and Installing``) names its section as one line does."""
    kept = [line.strip() for line in lines if line.strip()]
    out = []
    for k, line in enumerate(kept):
        if k and _NUMBERING.match(kept[k - 1]):
            out[-1] = kept[k - 1] + " " + line
        else:
            out.append(line)
    return out


CONTENTS_SECTIONS = 4
"""A page with this many lines that name a numbered section (``_section_shape``) lists them: a
contents page, whose entries are no running headers (``_outer``)."""


def _outer(lines: list[str]) -> list[tuple[list[int], str, str]]:
    """The first and the last line of a page that is not a bare number (a folio, a section
    number read on a line of its own), where a running header stands: each as its lines'
    indices and text, with a bare section number (``_NUMBERING``) right before it joined to it
    (``1.4`` / ``Input File Structure``: an extractor may read a header's number and title
    apart), and the edge it stands at (``top``, ``bottom``). None on a page too short to hold a header above or below its body (``EDGE_LINES``
    each way: a page with only a heading) or on a contents page (``CONTENTS_SECTIONS``)."""
    filled = [i for i, line in enumerate(lines) if line.strip()]
    kept = [i for i in filled if not lines[i].strip().replace(".", "").isdigit()]
    if len(kept) <= 2 * EDGE_LINES:
        return []
    if sum(_SECTION_HEADER.match(" ".join(lines[i].split())) is not None for i in kept) >= CONTENTS_SECTIONS:
        return []
    found = []
    for i, edge in ((kept[0], "top"), (kept[-1], "bottom")):
        k = filled.index(i)
        before = filled[k - 1] if k else None
        if before is not None and _NUMBERING.match(lines[before].strip()):
            found.append(([before, i], lines[before].strip() + " " + lines[i].strip(), edge))
        else:
            found.append(([i], lines[i], edge))
    return found


def _edge_folios(lines: list[str]) -> tuple[list[tuple[str, int]], list[tuple[str, str, int]]]:
    """The bare numbers (arabic, ``_FOLIO``'s size) among the first two and the last two lines
    of a page, with their edge (``top``, ``bottom``), where a folio stands beside its header or
    footer line; and each outermost line that is no bare number, with its edge and a bare number
    standing right before or after it (``EdgeLines.folio_beside``)."""
    filled = [" ".join(line.split()) for line in lines if line.strip()]
    if len(filled) <= 2 * EDGE_LINES:
        return [], []

    def number(k: int) -> int | None:
        ok = 0 <= k < len(filled) and filled[k].isascii() and filled[k].isdigit() and len(filled[k]) <= 4
        return int(filled[k]) if ok else None

    folios, beside = [], []
    for edge, ks in (("top", range(len(filled))), ("bottom", range(len(filled) - 1, -1, -1))):
        order = list(ks)
        folios += [(edge, n) for k in order[:2] if (n := number(k)) is not None]
        outer = next((k for k in order[:EDGE_LINES] if number(k) is None), None)
        if outer is not None:
            beside += [
                (edge, filled[outer], n) for k in (outer - 1, outer + 1) if (n := number(k)) is not None
            ]
    return folios, beside


class EdgeLines(dict):
    """Per digit-blind key, the 0-based pages on which a line with that key stands at the top or
    bottom edge (``_edges``), over every text of the book; per section shape, the pages whose
    outermost line has it, with its folio (``sections``, ``_section_shape``); and the book's
    page count."""

    pages: int = 0

    def __init__(self) -> None:
        super().__init__()
        self.sections: dict[str, set[tuple[int, int | None]]] = {}
        self.numbers: dict[str, set[tuple[int, tuple[tuple[int, bool], ...]]]] = {}
        """Per digit-blind key, (page, the line's numbers, ``_numbers``) of its lines at the edges."""
        self.folios: dict[str, set[tuple[int, int]]] = {"top": set(), "bottom": set()}
        """Per edge, (page, number) of the bare numbers standing there (``_edge_folios``)."""
        self.beside: dict[tuple[int, str, str], set[int]] = {}
        """Per (page, edge, outermost line's text), the bare numbers standing right before or
        after that line in some text of the book (``_edge_folios``)."""
        self.named: dict[str, Counter] = {}
        """Per section (``_section_name``), on how many lines of each page it is named (in the
        text that names it most there)."""
        self.lines: dict[str, set[int]] = {}
        """Per line's letters and digits, case aside (``_letters``), the pages on which a line of
        some text of the book says that and nothing more (a heading: ``labelled_header``)."""

    def is_section_header(self, line: str, page: int | None, edge: str = "top") -> bool:
        """Whether ``line``, the outermost line of ``page`` at ``edge`` (``_outer``), is a
        running header (or footer) that names the current section: the outermost line of
        another page within ``NEAR_PAGES`` at the same edge has the same section shape
        (``_section_shape``), and its folio, if the shape has one, advances with the page.

        Why: a book that heads its right-hand pages with the current section (``2.3. COMMENTS
        9``, ``1.2 Basics``) prints a short section's header on one page only; its digit-blind
        key recurs nowhere, but the next right-hand page's header has the same shape, the next
        section's number and title (``2.5. NUMERIC LITERALS 11``). Position and shape, not our
        rules, make it furniture. A header repeats its section's heading, which stands on its
        page or a page before it (within ``NEAR_PAGES``): a heading that opens a page, of a
        book whose sections start at the top of pages two apart, is the only line naming its
        section there. A contents page's first entry has the shape too, but its page number
        does not advance with the page."""
        found = _section_shape(line) if page is not None else None
        if found is None or page is None:
            return page is not None and self.labelled_header(line, page, edge)
        named = self.named.get(_section_name(line) or "", Counter())
        if sum(named[q] for q in range(page - NEAR_PAGES, page + 1)) < 2:
            return False
        shape, folio = found
        return any(
            q != page and abs(q - page) <= NEAR_PAGES and (folio is None or other == folio + q - page)
            for q, other in self.sections.get(f"{edge} {shape}", ())
        ) or self.folio_beside(line, page, edge)

    def labelled_header(self, line: str, page: int, edge: str) -> bool:
        """Whether ``line``, the top line of ``page`` (``edge``), is a running header that
        names its chapter by a word, the chapter's number and its title (``_LABELLED_HEADER``:
        ``CHAPTER 7. SUMS``), printed beside the page's folio (``folio_beside``), where the
        title alone, case aside, is a line of this page or of one within ``NEAR_PAGES`` before
        it: the chapter's heading, set apart from its number (``—7—`` / ``Sums``), the chapter
        opening lower on this page or on one before. Never at the foot of a page, where a
        caption beside the folio (``Figure 5: Power Supply``, its section's title a heading
        above it) or a copyright line (``Copyright 2013 A. Author``) has the shape too. A short chapter's header stands on one
        page only and its shape with another number matches no neighbour's key; a chapter's own
        opening at the top of its page (``Chapter 7. Sums`` over its text) is its heading's only
        line: its title stands alone nowhere."""
        m = _LABELLED_HEADER.match(" ".join(line.split())) if edge == "top" else None
        if m is None:
            return False
        found = self.lines.get(_letters(m.group(1)), set())
        near = any(q in found for q in range(page - NEAR_PAGES, page + 1))
        return near and self.folio_beside(line, page, edge)

    def folio_beside(self, line: str, page: int, edge: str) -> bool:
        """Whether ``line``, the outermost line of ``page`` at ``edge``, stands right beside a bare
        number in some text of the book (the same line, word for word and case kept), and that
        number advances with the page from a bare number at the same edge of another page within
        ``NEAR_PAGES``: the page's folio, printed with its header (or footer) line. A
        section-shaped line there, named again as a heading on its page or one before
        (``is_section_header``), is that header, whatever the shape of its neighbours' headers
        (``14`` / ``examples`` on a left-hand page, ``2.2 another section`` / ``15`` on the
        right-hand page after it). The heading a header repeats is set in another case or stands
        further from the folio, so it is no such line."""
        here = self.beside.get((page, edge, " ".join(line.split())), set())
        return any(
            q != page and abs(q - page) <= NEAR_PAGES and n - (q - page) in here for q, n in self.folios[edge]
        )

    def is_furniture(
        self, key: str, page: int | None = None, numbers: tuple[tuple[int, bool], ...] | None = None
    ) -> bool:
        """Whether a line with ``key`` at the edge of ``page`` is furniture: its key stands at the
        edge of at least ``max(3, 5 %)`` of the pages (a header of the whole book), or of another
        page within ``NEAR_PAGES`` of this one (a running header of one chapter or section, left
        and right pages alike). ``page=None`` asks the first question only.

        Given the line's ``numbers`` (``_numbers``), only the pages whose line of that key has
        the same note's marks count (``_in_step``; its other numbers stay digit-blind). Why: a
        note's mark at the foot of a page, ``(Note 3)`` read on a line of its own, has the
        digit-blind key of every other note's mark at the foot of other pages, but its number is
        the note's, counted through the chapter; one extractor reads it on a line of its own at
        the page's edge, the other with the note's text (``(Note 3) The latest version…``), so
        dropped by its key it was dropped from one text only and its words counted as invented.
        (Every number staying or advancing with the page was tried first: it took furniture from
        lines one extractor reads whole and the other in pieces at chapter openings, ``Chapter 1``
        against ``Chapter`` / ``1``, and from folios glued to their marks, ``-12-``, ``12/40``.)
        """
        if numbers is not None and page is not None:
            held = self.numbers.get(key, set())
            found: Collection[int] = {q for q, other in held if _in_step(numbers, other)}
        else:
            found = self.get(key, ())
        if len(found) >= max(3, round(0.05 * self.pages)):
            return True
        return page is not None and any(q != page and abs(q - page) <= NEAR_PAGES for q in found)


def edge_furniture(*books: list[list[str]]) -> EdgeLines:
    """Where the lines at the top or bottom of pages stand, over every given text of the same
    book (pdftotext's and ours: a line is furniture for both or for neither).

    Decision (issue 25, "body words"): a running header that names the current chapter or
    section repeats at the page edge on the few pages of that chapter only (``11. Syntactic
    Extension and Modules`` on 4 of chez-csug's 500 pages), far below a book-wide floor of 5 % of
    the pages; it is furniture all the same, so a key at the edge of a page within
    ``NEAR_PAGES`` counts too. Both texts drop such a line alike, so it never counts as lost or
    invented; what our own rules remove beyond it (a line deeper in the page, a header printed
    once) is still counted as ``furniture``. Caveat: a heading at the very top of a page, printed
    word for word as the running header of the next page, is dropped from both texts too; our
    rules keep exactly that line (``chunking.normalise.furniture``: the first page of a run),
    so the bench then misses nothing of ours."""
    seen = EdgeLines()
    for pages in books:
        seen.pages = max(seen.pages, len(pages))
        for p, lines in enumerate(pages):
            for i in _edges(lines):
                seen.setdefault(_key(lines[i]), set()).add(p)
                seen.numbers.setdefault(_key(lines[i]), set()).add((p, _numbers(lines[i])))
            folios, beside = _edge_folios(lines)
            for edge, number in folios:
                seen.folios[edge].add((p, number))
            for edge, text, number in beside:
                seen.beside.setdefault((p, edge, text), set()).add(number)
            for _, text, edge in _outer(lines):
                found = _section_shape(text)
                if found is not None:
                    seen.sections.setdefault(f"{edge} {found[0]}", set()).add((p, found[1]))
            names = Counter(filter(None, map(_section_name, _with_numbers_joined(lines))))
            for name, n in names.items():
                counts = seen.named.setdefault(name, Counter())
                counts[p] = max(counts[p], n)
            for line in lines:
                if _LETTER.search(line):
                    seen.lines.setdefault(_letters(line), set()).add(p)
    return seen


def _furniture_at(lines: list[str], furniture: EdgeLines, page: int | None) -> set[int]:
    found = {i for i in _edges(lines) if _by_position(lines[i], furniture, page)}
    return found | _section_headers_at(lines, furniture, page)


def _section_headers_at(
    lines: list[str], furniture: EdgeLines, page: int | None, apart: bool = False
) -> set[int]:
    """The lines of a page that are a running header naming its section
    (``EdgeLines.is_section_header``), its number and title read apart or not; ``apart``: only
    those of a header read as its number and its title apart."""
    found: set[int] = set()
    for at, text, edge in _outer(lines):
        if (len(at) > 1 or not apart) and furniture.is_section_header(text, page, edge):
            found.update(at)
    return found


def drop_furniture(lines: list[str], furniture: EdgeLines, page: int | None = None) -> list[str]:
    """``lines`` (of page ``page``) without the edge lines that are furniture
    (``EdgeLines.is_furniture``) or a bare page number."""
    gone = _furniture_at(lines, furniture, page)
    return [line for i, line in enumerate(lines) if i not in gone]


def _alike_key(line: str) -> str:
    """The key by which a furniture line dropped from one text is found in the other: the
    digit-blind ``_key``, but a line without a letter (a bare folio, a table's row of numbers
    that one extractor reads last) by its own digits: it is the same line in the other text,
    not any line of that shape (a table row ``0 23 93`` dropped from ours must not drop
    ``0 23 82`` from pdftotext's)."""
    bare = " ".join(_nfc(line).split())
    return bare if not any(c.isalpha() for c in bare) else _key(line)


def drop_furniture_alike(
    reference: list[str], ours: list[str], furniture: EdgeLines, page: int, ours_raw: list[str] = ()
) -> tuple[list[str], list[str]]:
    """Both texts of one page without their furniture, the same lines from both.

    Why: the two extractors may order a page differently, so a furniture line at the edge of one
    text may stand further in on the other (a margin label, a header read after the first body
    line). Dropped from one text only, its words would count as lost or invented; so a
    furniture line dropped from one text is dropped from the other too, wherever it stands there
    (the same key: the same words).

    ``ours_raw`` is our page as the reader gave it, before the normaliser: a furniture line at
    its edge that the normaliser has already removed from ``ours`` (a running footer our rules
    know too) is no line of ``ours`` to drop, but it is furniture by position all the same, so
    pdftotext's reading of it further in on the page (``C++/Tree Mapping User Manual`` read in
    the middle of a contents page) is dropped too."""
    gone = [_furniture_at(reference, furniture, page), _furniture_at(ours, furniture, page)]
    left, by_key = _headings_left(ours, ours_raw, furniture, page) if ours_raw else (set(), set())
    gone[1] -= left - by_key
    texts = (reference, ours)
    # NOTE: a section header (``_section_headers_at``) read as its number and its title apart is
    # found in each text by its own place there: it is not looked for by its lines' keys in the
    # other text (the title alone would match the title of the heading it repeats), and its
    # number stays dropped with it
    headers = [_section_headers_at(text, furniture, page, apart=True) for text in texts]
    headers[1] -= left
    for this, other in ((0, 1), (1, 0)):
        gone[this] -= _numbers_read_on(texts[this], gone[this], texts[other], gone[other]) - headers[this]
        gone[this] -= _numbers_read_in_line(texts[this], gone[this], texts[other], gone[other])
    for this, other in ((0, 1), (1, 0)):
        gone[this] -= _read_whole(texts[this], gone[this], texts[other], gone[other], furniture, page)
    keys = [
        Counter(_alike_key(text[i]) for i in cut - cut_headers)
        for text, cut, cut_headers in zip(texts, gone, headers)
    ]
    if ours_raw:
        # NOTE: only the raw edge lines no longer in ``ours``: one the normaliser kept is cut (or
        # not) with ``ours``'s own lines. Counted over the whole page: a running header the
        # normaliser removed over the heading it repeats, lower on the same page (a chapter
        # opening mid-page), leaves that heading in ``ours`` with the header's words; the header
        # is gone all the same, and the heading is no furniture to cut.
        raw_lines = list(ours_raw)
        raw_cut = _furniture_at(raw_lines, furniture, page) - _section_headers_at(
            raw_lines, furniture, page, apart=True
        )
        raw = Counter(_alike_key(raw_lines[i]) for i in raw_cut)
        on_raw = Counter(_alike_key(line) for line in raw_lines if line.strip())
        on_ours = Counter(_alike_key(line) for line in ours if line.strip())
        keys[1] += Counter({k: min(n, on_raw[k] - on_ours[k]) for k, n in raw.items()})
    for this, other in ((0, 1), (1, 0)):
        missing = keys[other] - keys[this]
        # NOTE: the same line first, then any of its shape: a table of statistics repeating
        # ``min:632849, max:1959607, pages:320`` at the page edges, each row with its own
        # numbers, one extractor reading one row at the edge and the other another
        same = Counter(" ".join(_nfc(texts[other][i]).split()) for i in gone[other])
        for exact in (True, False):
            for i, line in enumerate(texts[this]):
                k = _alike_key(line)
                if missing[k] <= 0 or i in gone[this]:
                    continue
                if exact:
                    text = " ".join(_nfc(line).split())
                    if same[text] <= 0:
                        continue
                    same[text] -= 1
                gone[this].add(i)
                missing[k] -= 1
    return tuple(  # type: ignore[return-value]
        [line for i, line in enumerate(text) if i not in cut] for text, cut in zip(texts, gone)
    )


def dropped_alone(reference: list[str], kept: list[str]) -> Counter:
    """The words of pdftotext's page ``reference`` that stand alone on a line of its own which
    the furniture rules dropped (``kept``: what ``drop_furniture_alike`` left of it): TeX's
    lowered ``E``, read apart from its logo on the page's last line (``_scattered_pieces``)."""
    gone = Counter(" ".join(line.split()) for line in reference) - Counter(
        " ".join(line.split()) for line in kept
    )
    return Counter(line for line in gone.elements() if [w for w, _ in words([line])] == [line])


def _said(line: str) -> str:
    """What ``line`` says: ``_key`` with its digits kept."""
    return _CJK_GAP.sub("", " ".join(_nfc(line).casefold().split()))


JOINED_LINES = 3
"""The most consecutive lines of one text ``_read_whole`` joins into one line of the other."""


def _read_whole(
    lines: list[str], cut: set[int], other: list[str], other_cut: set[int], furniture: EdgeLines, page: int
) -> set[int]:
    """The lines of ``cut`` that, with the lines next to them (two to ``JOINED_LINES`` non-empty
    lines in a row), say what one line the ``other`` text keeps says (``_key``): a heading one
    extractor reads in one line (``第七章 绘图功能``, ``7.2 TikZ 绘图语言``) and the other in two
    (``_said``: its numbers too, not digit-blind: ``2`` / ``\\vspace{7mm}`` is no ``1 \\vspace{7mm}``),
    whose pieces alone have the keys of the running header the next page prints in two lines
    (its chapter's number, its title). The whole line is no furniture by position, so neither
    are its pieces; only lines whose joined key the other text holds on a line of its own, more
    often than this text does whole, are kept, never a piece alone, and only where that line's
    own key stands at no page edge nearby (``EdgeLines.is_furniture``: a slide's lines repeated
    at the foot of the pages of an example, cut from both texts by their keys, stay cut)."""
    if not cut:
        return set()
    # NOTE: a line the other text keeps that this text keeps whole too is that line, not these
    # pieces (a header read in two lines over the heading it repeats, whole, further down)
    kept = Counter(
        _said(line)
        for i, line in enumerate(other)
        if i not in other_cut
        and line.strip()
        and not furniture.is_furniture(_key(line), page, _numbers(line))
    )
    kept -= Counter(_said(line) for i, line in enumerate(lines) if i not in cut and line.strip())
    filled = [i for i, line in enumerate(lines) if line.strip()]
    found: set[int] = set()
    for start in range(len(filled)):
        for n in range(2, JOINED_LINES + 1):
            run = filled[start : start + n]
            key = _said(" ".join(lines[i] for i in run))
            if len(run) == n and cut & set(run) and kept[key] > 0:
                kept[key] -= 1
                found.update(i for i in run if i in cut)
    return found


def _headings_left(
    ours: list[str], ours_raw: list[str], furniture: EdgeLines, page: int
) -> tuple[set[int], set[int]]:
    """The lines of ``ours`` that ``_section_headers_at`` takes for a running header but that are
    the heading it repeats: our normaliser removed the header above it (``1.4 Input File
    Structure`` over the heading ``1.4`` / ``Input File Structure``), so the heading is now the
    outermost line of our page. Told by count: our page names that section on fewer lines than
    the reader's page did (``ours_raw``), so the line named twice there lost its header copy;
    a heading whose words the position rule finds at the edge of a page nearby (the header of the
    next page repeats it word for word) is cut from both texts alike, as before; a line the
    position rule also finds (its key, a folio: the second set returned) stays cut
    by that rule (a bare section number there is kept when the other text reads it at the start
    of a line it keeps, ``_numbers_read_on``)."""
    by_key = {i for i in _edges(ours) if _by_position(ours[i], furniture, page)}
    raw_names = Counter(filter(None, map(_section_name, _with_numbers_joined(ours_raw))))
    left = set()
    for at, text, edge in _outer(ours):
        name = _section_name(text)
        if name is None or not furniture.is_section_header(text, page, edge):
            continue
        if furniture.is_furniture(_key(text), page, _numbers(text)):
            continue  # the heading's own words stand at the edge nearby: cut from both texts alike
        named = sum(_section_name(line) == name for line in _with_numbers_joined(ours))
        if named < raw_names[name]:
            left.update(set(at))
    return left, by_key


def _numbers_read_on(lines: list[str], cut: set[int], other: list[str], other_cut: set[int]) -> set[int]:
    """The lines of ``cut`` that are a bare section number (``_NUMBERING``) which the ``other``
    text reads at the start of a line it keeps: a contents entry (``6.3.2 Paragraph Formatting
    . . . 112``) one extractor cuts after its number. Its digit-blind key (``#.#.#``) stands at
    the edge of many pages, but the line is the entry's, no furniture; a number the other text
    drops with its line (a running header ``2.11 Environments``) stays dropped."""
    kept = {
        line.split()[0]
        for i, line in enumerate(other)
        if i not in other_cut and line.split() and _NUMBERING.match(line.split()[0])
    }
    return {i for i in cut if _NUMBERING.match(lines[i].strip()) and lines[i].strip() in kept}


def _numbers_read_in_line(lines: list[str], cut: set[int], other: list[str], other_cut: set[int]) -> set[int]:
    """The lines of ``cut`` that are a bare number (``_FOLIO``) which the ``other`` text reads in
    a line it keeps: at the end of the line before it, a contents entry's page number
    (``License`` / ``14`` in one text, ``License 14`` in the other) at the top or foot of a
    contents page; or at the start of the line after it, a footnote's mark (``4`` / ``bidi does
    not support LuaTeX.`` in one, ``4 bidi does not support LuaTeX.`` in the other) at the foot
    of a page. Neither is a folio, whatever its shape: the page's own folio stands on no line
    of the page's text in the other extractor's reading. The other line is found by the number
    and the word next to it, and the word at its other end: the words between may be read
    otherwise (``⟨number⟩s`` / ``hnumberis``)."""
    ends, starts = set(), set()
    for i, line in enumerate(other):
        words = line.split()
        if i not in other_cut and len(words) >= 2:
            ends.add((words[0], words[-1]))
            starts.add((words[0], words[1]))
    found = set()
    for i in cut:
        number = lines[i].strip()
        if not _FOLIO.match(number):
            continue
        before = next((k for k in range(i - 1, -1, -1) if lines[k].strip()), None)
        after = next((k for k in range(i + 1, len(lines)) if lines[k].strip()), None)
        # NOTE: only beside a line this text keeps: a header ``8`` / ``Thanks`` cut as a whole
        # keeps its number cut, though its heading ``8 Thanks`` stands further down
        if before is not None and before not in cut and (lines[before].split()[0], number) in ends:
            found.add(i)
        elif after is not None and after not in cut and (number, lines[after].split()[0]) in starts:
            found.add(i)
    return found


def words(lines: list[str]) -> list[tuple[str, bool]]:
    """The words of ``lines`` in order, each with whether it ends its line with a hyphen (or a
    soft hyphen, U+00AD, which pdftotext keeps where a word was broken; one inside a line, where
    the page shows nothing, is no word boundary).

    Arabic presentation forms (``_PRESENTATION``: the initial, medial, final and isolated glyph
    shapes of one letter, and lam-alef ligatures) are read as their letters, on both sides: the
    two extractors give shapes for the same letters in different proportions (context-mk's Arabic
    pages), and a shape is no other text than its letter."""
    out = []
    for line in lines:
        line = unicodedata.normalize("NFC", line)
        if _PRESENTATION.search(line):
            line = _PRESENTATION.sub(lambda m: unicodedata.normalize("NFKC", m.group(0)), line)
        if "\u00ad" in line:  # invisible inside a line: ``emma\u00adsoft`` is one word
            line = line.rstrip()
            line = line[:-1].replace("\u00ad", "") + line[-1:]
        found = list(WORD.finditer(line))
        for k, m in enumerate(found):
            last = k == len(found) - 1
            out.append(
                (
                    m.group(0),
                    last and line.rstrip().endswith(("-", "\u00ad")) and m.end() == len(line.rstrip()) - 1,
                )
            )
    return out


def _bare(word: str) -> str:
    """A word without its accents (combining marks) and with ligatures expanded."""
    decomposed = unicodedata.normalize("NFD", "".join(LIGATURES.get(ch, ch) for ch in word))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@dataclass
class Tally:
    """Words of one book: pdftotext's body words, and those lost or invented, by cause."""

    words: int = 0
    lost: Counter = field(default_factory=Counter)
    invented: Counter = field(default_factory=Counter)
    seen: list[tuple[int, str, str, str]] = field(default_factory=list)
    """Per counted difference (a cause not in ``NOT_LOST``): its 0-based page, cause, and the
    words lost and invented, for ``--show``."""

    def add(self, other: Tally) -> None:
        self.words += other.words
        self.lost.update(other.lost)
        self.invented.update(other.invented)

    def note(self, p: int, cause: str, lost: Collection[str], invented: Collection[str]) -> None:
        """Keep one difference of a counted cause as an example (``--show``)."""
        if cause not in NOT_LOST:
            self.seen.append((p, cause, " ".join(lost), " ".join(invented)))


def classify(
    reference: list[list[str]],
    ours: list[list[str]],
    our_furniture: list[list[str]],
    failed: Collection[int] = (),
    slanted: Callable[[int], Counter] | None = None,
    math_italic: Callable[[int], Counter] | None = None,
    clipped: Callable[[int], tuple[Counter, Counter]] | None = None,
    tracked: Callable[[int], Counter] | None = None,
    symbols: Callable[[int], Counter] | None = None,
    unspaced: Callable[[int], Counter] | None = None,
    shifted: Callable[[int], Counter] | None = None,
    alone: list[Counter] | None = None,
    scripts: Callable[[int], Counter] | None = None,
    glyph_ids: Callable[[int], dict[str, str]] | None = None,
    drawn_apart: Callable[[int], Counter] | None = None,
    stacked: Callable[[int], Counter] | None = None,
) -> Tally:
    """Compare two texts of one book page by page and give each difference a cause.

    Args:
        reference: pdftotext's lines per page, furniture already dropped (``drop_furniture``).
        ours: our canonical lines per page, furniture dropped the same way.
        our_furniture: per page, the lines our normaliser removed as furniture.
        failed: 0-based pages pdftotext could not read whole (``reference_failures``): what
            differs there is counted under ``reference``, after the causes that explain it.
        slanted: per 0-based page, the words MuPDF reads on its lines set at a slant
            (``slanted_words``), asked only of a page with differences left (``_rotated``).
        math_italic: per 0-based page, the words MuPDF reads in a math italic font
            (``math_italic_words``), asked only of a page where pdftotext reads one of ours in
            pieces (``_joined_pieces``).
        tracked: per 0-based page, the words MuPDF reads with their letters evenly spaced out
            (``tracked_words``), asked only of a page where pdftotext reads one of ours in
            pieces (``_joined_pieces``).
        clipped: per 0-based page, the words the page's clip hides and the pieces of them it
            leaves (``clipped_words``), asked only of a page with differences left.
        symbols: per 0-based page, pdftotext's one-character words whose place on the page
            MuPDF reads as one symbol (``symbol_letters``), asked only of a page where such a
            word is lost after the other causes.
        unspaced: per 0-based page, the words MuPDF reads with their glyphs at one size and no
            gap between two of them over pdftotext's own word break (``unspaced_words``),
            asked only of a page where pdftotext reads one of ours in pieces that no other
            setting explains (``_joined_pieces``).
        shifted: per 0-based page, the words of ``unspaced`` with a glyph off the baseline
            (``shifted_words``), asked only of a page where pdftotext's lost words left spell
            one of ours in pieces not next to each other (``_scattered_pieces``).
        alone: per page, pdftotext's words alone on a line of their own that the position rule
            dropped as furniture (``dropped_alone``), pieces ``_scattered_pieces`` may spell a
            word of ``shifted`` with, uncounted.
        scripts: per 0-based page, the formulas' words MuPDF reads set solid with a script
            (``script_words``), asked only of a page where pdftotext reads one of ours in pieces
            that no other setting explains (``_joined_pieces``).
        glyph_ids: per 0-based page, what the glyph ids of its TrueType CID fonts without a
            Unicode map stand for, by their fonts' own ``cmap`` (``glyph_id_maps``), asked only
            of a page with words both lost and invented (``_glyph_ids``).
        drawn_apart: per 0-based page, the runs of words MuPDF reads set apart, a space the page
            draws between each two and a gap over pdftotext's word break, or a word space
            between their glyphs (``drawn_apart_words``),
            asked only of a page where pdftotext reads as one word a run of ours
            (``_split_words``).
        stacked: per 0-based page, the words MuPDF reads with two glyphs in a row drawn one over
            the other (``stacked_words``), asked only of a page with words both lost and
            invented left (``_stacked``).
    """
    tally = Tally()
    ref_words = [words(page) for page in reference]
    lost = [Counter(w for w, _ in page) for page in ref_words]
    invented = []
    for p, page in enumerate(ours):
        mine = Counter(w for w, _ in words(page))
        lost[p] -= mine
        invented.append(mine - Counter(w for w, _ in ref_words[p]))
        tally.words += len(ref_words[p])
    vocabulary = {w.casefold() for page in ref_words for w, _ in page}
    for p in range(len(ours)):
        if glyph_ids is not None and +lost[p] and +invented[p]:
            _glyph_ids(p, reference[p], ours[p], glyph_ids(p), lost, invented, tally)
        spaced = _letter_spaced(p, ref_words, lost, invented)
        on_slant = _asked(slanted, p)
        set_so = _SetSo(
            (
                ("rotated", on_slant),
                ("math italic", _asked(math_italic, p)),
                ("letter spacing", _asked(tracked, p)),
                ("no space", _asked(_beyond_whole(unspaced, ref_words), p)),
                ("script", _asked(scripts, p)),
            )
        )
        _joined_pieces(p, ref_words, lost, invented, tally, vocabulary, spaced, set_so)
        _long_runs(p, ref_words, lost, invented, tally, set_so)
        if shifted is not None:
            dropped = alone[p] if alone is not None and p < len(alone) else Counter()
            _scattered_pieces(p, lost, invented, tally, _asked(_beyond_whole(shifted, ref_words), p), dropped)
        if scripts is not None:
            _scattered_scripts(p, lost, invented, tally, set_so)
        _split_words(
            p, words(ours[p]), lost, invented, tally, set_so, _asked(drawn_apart, p), _hyphened(ours[p])
        )
        _encoding(p, reference[p], lost, invented, tally)
        _single_words(p, lost, invented, ours, tally)
        _glyph_map(p, ours, lost, invented, tally)
        _primes(p, ours, lost, invented, tally)
        _combined_accents(p, reference[p], lost, invented, tally)
        if stacked is not None and +lost[p] and +invented[p]:
            _stacked(p, stacked(p), lost, invented, tally)
        _control_glyphs(p, reference[p], lost, invented, tally)
        _lone_glyphs(p, reference[p], ours, lost, tally)
        if symbols is not None and any(n > 0 and len(w) == 1 for w, n in lost[p].items()):
            _symbol_letters(p, symbols(p), lost, tally)
        if slanted is not None and (+lost[p] or +invented[p]):
            _rotated(p, on_slant(), lost, invented, tally)
        if clipped is not None and (+lost[p] or +invented[p]):
            _clipped(p, *clipped(p), lost, invented, tally)
        furniture = (
            Counter(w for line in our_furniture[p] for w in WORD.findall(line))
            if p < len(our_furniture)
            else Counter()
        )
        for w, n in list(lost[p].items()):
            k = min(n, furniture[w])
            if k:
                tally.lost["furniture"] += k
                lost[p][w] -= k
                tally.note(p, "furniture", [w] * k, [])
        rest = "reference" if p in failed else "unknown"
        tally.lost[rest] += sum(lost[p].values())
        tally.invented[rest] += sum(invented[p].values())
        if +lost[p] or +invented[p]:
            tally.note(p, rest, sorted((+lost[p]).elements()), sorted((+invented[p]).elements()))
    tally.lost, tally.invented = +tally.lost, +tally.invented  # no zero counts
    return tally


def _beyond_whole(of_page: Callable[[int], Counter] | None, ref_words) -> Callable[[int], Counter] | None:
    """``of_page`` less, per page, the words pdftotext reads whole there: a word the page sets so
    (``unspaced_words``) that pdftotext also reads whole is none it cut; only the times the page
    holds it beyond those are left to its pieces (a drop cap's ``N o``, set at two sizes, does
    not take the credit of a plain ``No`` further down the page)."""
    if of_page is None:
        return None
    return lambda p: of_page(p) - Counter(w for w, _ in ref_words[p])


def _asked(of_page: Callable[[int], Counter] | None, p: int) -> Callable[[], Counter]:
    """Page ``p``'s words of ``of_page`` (``slanted_words``, ``math_italic_words``), read once
    and only when asked."""
    got: list[Counter] = []

    def page_words() -> Counter:
        if not got:
            got.append(of_page(p) if of_page is not None else Counter())
        return got[0]

    return page_words


class _SetSo:
    """Words of one page that MuPDF reads set so that a cut pdftotext makes inside one is no word
    space: per cause, the page's words of that setting (``slanted_words``, ``math_italic_words``,
    ``tracked_words``), each read when first asked, each word taken as often as the page holds
    it."""

    def __init__(self, settings: tuple[tuple[str, Callable[[], Counter]], ...]) -> None:
        self.settings = settings
        self.left: dict[str, Counter] = {}

    def held(self, why: str) -> Counter:
        """The words of setting ``why`` not yet taken."""
        return self.left.setdefault(why, Counter(dict(self.settings)[why]()))

    def cause(self, cause: str, target: str, pieces: Sequence[str] = (), only: str = "") -> str:
        """``cause`` of pdftotext's ``pieces`` of our word ``target``: when ``spacing``, the cause
        of the first setting that holds ``target`` (once more), else ``spacing``. A ``script``
        word is held with its cuts (``script_words``): the pieces must be cut there. ``only``:
        that setting alone."""
        for why, _ in self.settings if cause == "spacing" else ():
            if only and why != only:
                continue
            held = self.held(why)
            key = SCRIPT_CUT.join(pieces) if why == "script" else target
            if held[key] > 0:
                held[key] -= 1
                return why
        return cause


def _joined_pieces(
    p: int,
    ref_words,
    lost: list[Counter],
    invented: list[Counter],
    tally: Tally,
    vocabulary: Collection[str] = (),
    spaced: bool = False,
    set_so: _SetSo | None = None,
) -> None:
    """Invented words of page ``p`` that are two or three lost pieces of pdftotext's run joined:
    dehyphenation (the first piece ends its line with a hyphen; the second may open the next
    page), the same letters with other word boundaries (``_spacing``), else an accent (a spacing
    accent split the word, or pdftotext cut it after the dotless ``ı`` under an accent of ours,
    ``boı`` ``te`` for ``boîte``: ``_dotless``) or a ligature. Pieces of a word MuPDF reads on a slanted line of the
    page (``set_so``: a tick label turned 45°, ``1000`` that pdftotext reads ``10`` ``00``) are
    ``rotated``, as many times as the page's slanted lines hold the word (``_rotated``); pieces
    of a word MuPDF reads whole in a math italic font (``yM ax`` for our ``yMax``)
    are ``math italic``, as many times as the page's math italic holds the word
    (``math_italic_words``); pieces of a word MuPDF reads with its letters evenly spaced out
    (a name in tracked small capitals, ``A rseneau``, pdftotext cutting at one of its
    equal gaps) are ``letter spacing``, as many times as the page holds the word so
    (``tracked_words``)."""
    run = [(w, h, p) for w, h in ref_words[p]]
    if p + 1 < len(ref_words):
        run += [(w, h, p + 1) for w, h in ref_words[p + 1][:1]]
    for n in (2, 3):
        for i in range(len(run) - n + 1):
            pieces = run[i : i + n]
            need = Counter((w, q) for w, _, q in pieces)
            if any(lost[q][w] < k for (w, q), k in need.items()):
                continue
            joined = "".join(w for w, _, _ in pieces)
            for target in invented[p]:
                if invented[p][target] <= 0:
                    continue
                if joined == target and pieces[0][1] and n == 2:
                    cause = "dehyphenation"
                elif joined == target and all(q == p for _, _, q in pieces):
                    cause = _spacing([w for w, _, _ in pieces], vocabulary, spaced)
                    if set_so is not None:
                        cause = set_so.cause(cause, target, [w for w, _, _ in pieces])
                elif _bare(joined) == _bare(target) and joined != target and _bare(target) != target:
                    cause = "accent" if unicodedata.normalize("NFD", target) != target else "ligature"
                elif all(q == p for _, _, q in pieces) and _dotless(joined, target):
                    cause = "accent"  # ``boı`` ``te``: pdftotext cut the word where TeX's accent sat
                elif "".join(LIGATURES.get(c, c) for c in joined) == target and joined != target:
                    cause = "ligature"
                else:
                    continue
                for (w, q), k in need.items():
                    lost[q][w] -= k
                invented[p][target] -= 1
                tally.lost[cause] += n
                tally.invented[cause] += 1
                tally.note(p, cause, [w for w, _, _ in pieces], [target])
                break


MAX_PIECES = 6
"""The most pieces ``_scattered_pieces`` spells a word of (a logo with two glyphs apart: ``MiKT``
``E`` ``X``)."""


def _scattered_pieces(
    p: int,
    lost: list[Counter],
    invented: list[Counter],
    tally: Tally,
    shifted: Callable[[], Counter],
    alone: Counter | None = None,
) -> None:
    """Invented words of page ``p`` that lost words of the page spell, two to ``MAX_PIECES``
    of them in the word's order wherever pdftotext reads them (``_tiling``), where the page sets
    the word solid with a glyph off the baseline (``shifted``, ``shifted_words``): pdftotext
    builds its lines from baselines and reads TeX's lowered ``E`` apart, on a line of its own
    (``E LAT X`` for the page's ``LATEX``, ``MiKT X`` and an ``E`` elsewhere). Those pieces are
    ``no space``, as many times as the page sets the word so beyond the times pdftotext reads it
    whole.

    ``alone`` (``dropped_alone``): pdftotext's words that stand alone on a line the position rule
    dropped as furniture. The lowered glyph pdftotext reads on a line of its own may be the last
    line of its page, and the same lone ``E`` ends many pages of a book that sets the logo often:
    an edge line that repeats, furniture, gone from pdftotext's text before words are counted.
    Such a word may be one of the pieces, never counted itself (it is no word of the page's
    count), each used once; the pieces still need a word of ours the page sets solid with a
    glyph off the baseline, spelled in order with lost words of the page."""
    if not any(n > 0 for n in invented[p].values()) or not any(n > 0 for n in lost[p].values()):
        return
    spare = +Counter(alone or ())
    held: Counter | None = None
    for target in sorted(w for w, n in invented[p].items() if n > 0):
        while invented[p][target] > 0:
            pieces = _tiling(target, lost[p] + spare)
            if not pieces:
                break
            if held is None:
                held = Counter(shifted())
            if held[target] <= 0:
                break
            held[target] -= 1
            counted = Counter(pieces) & +lost[p]
            if not counted:
                break  # pieces all dropped as furniture: nothing of pdftotext's count to explain
            lost[p] -= counted
            spare -= Counter(pieces) - counted
            invented[p][target] -= 1
            tally.lost["no space"] += sum(counted.values())
            tally.invented["no space"] += 1
            tally.note(p, "no space", pieces, [target])


def _scattered_scripts(
    p: int, lost: list[Counter], invented: list[Counter], tally: Tally, set_so: _SetSo
) -> None:
    """Invented words of page ``p`` that the page sets as a formula's symbol and its script
    (``script_words``) whose pieces, cut exactly where the script starts or ends, are lost words
    of the page wherever pdftotext reads them (it may read a display's raised exponent on a line
    of its own): ``script``, as many times as the page sets the word so and the pieces are
    lost."""
    if not any(n > 0 for n in invented[p].values()) or not any(n > 0 for n in lost[p].values()):
        return
    held = set_so.held("script")
    for key in sorted(k for k, n in held.items() if n > 0):
        word, pieces = key.replace(SCRIPT_CUT, ""), key.split(SCRIPT_CUT)
        need = Counter(pieces)
        while held[key] > 0 and invented[p][word] > 0 and all(lost[p][w] >= k for w, k in need.items()):
            held[key] -= 1
            lost[p] -= need
            invented[p][word] -= 1
            tally.lost["script"] += len(pieces)
            tally.invented["script"] += 1
            tally.note(p, "script", pieces, [word])


def _tiling(word: str, lost: Counter) -> list[str]:
    """The fewest words of ``lost`` (two at least, ``MAX_PIECES`` at most) that spell ``word`` in
    its order, each as often as ``lost`` holds it; none when they do not."""
    best: list[str] = []

    def walk(at: int, taken: list[str], left: Counter) -> None:
        nonlocal best
        if at == len(word):
            if len(taken) >= 2 and (not best or len(taken) < len(best)):
                best = list(taken)
            return
        if len(taken) >= (len(best) - 1 if best else MAX_PIECES):
            return
        for end in range(len(word), at, -1):
            piece = word[at:end]
            if piece != word and left[piece] > 0:
                left[piece] -= 1
                taken.append(piece)
                walk(end, taken, left)
                taken.pop()
                left[piece] += 1

    walk(0, [], +lost)
    return best


def _spacing(pieces: list[str], vocabulary: Collection[str] = (), spaced: bool = False) -> str:
    """The cause of pdftotext's ``pieces`` read by us as one word: ``cjk boundary`` when every
    cut falls between two Han or kana characters (``_cjk_junctions``); ``letter spacing`` when
    pdftotext put a space between (nearly) every letter (``_spaced_out``: ``E x c e p t i o n``,
    ``ta b l e m ac r o``: an italic or letter-spaced font whose glyphs pdftotext places apart;
    the page shows one word, MuPDF reads one), or two
    single letters, or two single digits, on a page where pdftotext spaces out longer words so
    (``spaced``, ``_letter_spaced``: the same font's ``o f`` beside its ``E x c e p t i o n``,
    an index's tracked page number ``2 8`` beside its ``2 8 3``; a letter and a digit, ``σ 2``,
    is a symbol and its index, and stays ``spacing``); else
    ``small caps`` when pdftotext split a capital from the capitals after it (``R ETURN``,
    ``P ETER``: a word in faked small caps, its first capital at the body size, the rest smaller
    and barely apart; pdftotext starts a new word wherever the font size changes, MuPDF and the
    page have one word), only when pdftotext reads the joined word elsewhere in the book in any
    case (``return``: a word of the book, not a subscript glued to its symbol, ``M HAC`` for
    M with subscript HAC, which stays ``spacing``); else ``spacing`` (``5This``: a footnote mark glued to its word;
    ``LATEX2ε``), which either extractor may be to blame for and which stays counted."""
    if _cjk_junctions(pieces):
        return "cjk boundary"
    if _spaced_out(pieces):
        return "letter spacing"
    if spaced and len(pieces) == 2 and all(len(w) == 1 for w in pieces):
        if pieces[0].isalpha() == pieces[1].isalpha():  # NOTE: ``σ 2``, ``x 2``: an index, no
            return "letter spacing"
    head, *tail = pieces
    if len(tail) == 1 and len(head) == 1 and head.isupper() and len(tail[0]) >= 2:
        if tail[0].isalpha() and tail[0].isupper() and (head + tail[0]).casefold() in vocabulary:
            return "small caps"
    return "spacing"


PAIRS_SHARE = 1 / 3
"""At most this share of a word's pieces read two letters together where pdftotext spaces out a
longer word (``_spaced_out``)."""


def _spaced_out(pieces: list[str]) -> bool:
    """Whether ``pieces`` (one word of ours, pdftotext's pieces of it) are a word pdftotext spaced
    out letter by letter: three pieces or more, all but one a single character; or four or more,
    none longer than two characters and at most ``PAIRS_SHARE`` of them two (``ch e m m ac r o
    s``: a name in tracked small capitals, its letters evenly apart on the page, which pdftotext
    reads in pieces where a pair of glyphs stands a hair closer)."""
    if len(pieces) >= 3 and sum(len(w) > 1 for w in pieces) <= 1:
        return True
    pairs = sum(len(w) == 2 for w in pieces)
    return len(pieces) >= 4 and all(len(w) <= 2 for w in pieces) and pairs <= PAIRS_SHARE * len(pieces)


def _letter_spaced(p: int, ref_words, lost: list[Counter], invented: list[Counter]) -> bool:
    """Whether pdftotext spaces out a word letter by letter on page ``p``: an invented word of
    ours is three or more consecutive lost pieces of pdftotext's run, spaced out
    (``_spaced_out``, ``_spacing``'s ``letter spacing``). Looked at before any difference of the page
    is given a cause, nothing taken."""
    run = [w for w, _ in ref_words[p]]
    for i in range(len(run)):
        joined, longer, long = "", 0, False
        for j in range(i, min(len(run), i + MAX_RUN)):
            if lost[p][run[j]] <= 0:
                break
            longer += len(run[j]) > 1
            long = long or len(run[j]) > 2
            if longer > 1 and long:
                break  # NOTE: neither way of spacing out (``_spaced_out``) can hold any more
            joined += run[j]
            if j - i >= 2 and invented[p][joined] > 0 and _spaced_out(run[i : j + 1]):
                return True
    return False


def _cjk_junctions(pieces: list[str]) -> bool:
    """Whether every junction of consecutive ``pieces`` (one word read as these pieces) falls
    between two Han or kana characters (``_CJK``): a boundary these scripts do not mark, so no
    word of either text is lost there (``SAME_TEXT``). A junction with a Latin letter or a digit
    on either side (``LATEXの``, ``第4章``) is a word boundary and stays ``spacing``."""
    return all(_CJK.match(a[-1]) and _CJK.match(b[0]) for a, b in zip(pieces, pieces[1:]))


MAX_RUN = 64
"""The most pieces ``_long_runs`` joins (a letter-spaced word of up to that many letters)."""


def _long_runs(
    p: int,
    ref_words,
    lost: list[Counter],
    invented: list[Counter],
    tally: Tally,
    set_so: _SetSo | None = None,
) -> None:
    """Invented words of page ``p`` that are four or more consecutive lost pieces of pdftotext's
    run of the page joined, letter for letter (``_spacing`` names the cause, or ``set_so`` where
    the page sets the word so: ``_joined_pieces``)."""
    if not any(n > 0 for n in invented[p].values()):
        return
    longest = max(len(w) for w, n in invented[p].items() if n > 0)
    run = [w for w, _ in ref_words[p]]
    for i in range(len(run)):
        joined = ""
        for j in range(i, min(len(run), i + MAX_RUN)):
            joined += run[j]
            if len(joined) > longest:
                break
            n = j - i + 1
            if n < 4 or invented[p][joined] <= 0:
                continue
            need = Counter(run[i : j + 1])
            if any(lost[p][w] < k for w, k in need.items()):
                continue
            cause = _spacing(run[i : j + 1])
            if set_so is not None:
                cause = set_so.cause(cause, joined, run[i : j + 1])
            lost[p] -= need
            invented[p][joined] -= 1
            tally.lost[cause] += n
            tally.invented[cause] += 1
            tally.note(p, cause, run[i : j + 1], [joined])
            break


def _split_words(
    p: int,
    mine: list[tuple[str, bool]],
    lost: list[Counter],
    invented: list[Counter],
    tally: Tally,
    set_so: _SetSo | None = None,
    drawn_apart: Callable[[], Counter] | None = None,
    hyphened: Counter | None = None,
) -> None:
    """Lost words of page ``p`` that are two or more consecutive invented words of ours joined:
    pdftotext joined a word across a line break that our text keeps hyphenated (``multi-`` /
    ``core``: ``dehyphenation``, our rule keeps a prefix's hyphen; or the line joined with its
    hyphen kept, ``sum-of-squares`` where pdftotext reads ``sum-ofsquares``: two words of ours
    that ``hyphened`` holds, as often as it does, ``_hyphened``), or joined words we read apart
    (``spacing``, counted; ``script`` where we cut a formula's word exactly where the page sets
    its script, ``J`` ``i1`` for pdftotext's ``Ji1``, and the page sets it so: ``set_so``,
    ``script_words``; ``letter spacing`` where the page sets each two of our words apart, a space
    drawn between them and a gap over pdftotext's own word break, or a word space between their
    glyphs, as often as it does so: ``drawn_apart``, ``drawn_apart_words``), or composed an accent that our text leaves split (``pi`u`` read as
    ``pi`` ``u``: ``accent missing``, counted: the accent is lost in our text). Hyphenated pairs
    are matched first: the same two words may stand elsewhere on the page a space apart."""
    if not any(n > 0 for n in lost[p].values()):
        return
    hyphened = hyphened if hyphened is not None else Counter()
    for (a, broken), (b, _) in zip(mine, mine[1:]):
        need = Counter((a, b))
        if lost[p][a + b] <= 0 or any(invented[p][w] < k for w, k in need.items()):
            continue
        if not broken and hyphened[(a, b)] <= 0:
            continue
        if not broken:
            hyphened[(a, b)] -= 1
        invented[p] -= need
        lost[p][a + b] -= 1
        tally.lost["dehyphenation"] += 1
        tally.invented["dehyphenation"] += 2
        tally.note(p, "dehyphenation", [a + b], [a, b])
    if not any(n > 0 for n in lost[p].values()):
        return
    longest = max(len(w) for w, n in lost[p].items() if n > 0)
    bare = {_bare(w): w for w, n in lost[p].items() if n > 0}
    for i in range(len(mine)):
        joined = ""
        for j in range(i, min(len(mine), i + MAX_RUN)):
            joined += mine[j][0]
            if len(joined) > longest + 4:
                break
            if j == i:
                continue
            target = joined if lost[p][joined] > 0 else bare.get(_bare(joined), "")
            if not target or lost[p][target] <= 0:
                continue
            need = Counter(w for w, _ in mine[i : j + 1])
            if any(invented[p][w] < k for w, k in need.items()):
                continue
            if target != joined:
                cause = "accent missing" if _marks(target) > _marks(joined) else "accent"
            else:
                cause = "cjk boundary" if _cjk_junctions([w for w, _ in mine[i : j + 1]]) else "spacing"
                if cause == "spacing" and set_so is not None:
                    cause = set_so.cause(cause, joined, [w for w, _ in mine[i : j + 1]], only="script")
                if cause == "spacing" and drawn_apart is not None:
                    held = drawn_apart()
                    key = SCRIPT_CUT.join(w for w, _ in mine[i : j + 1])
                    if held[key] > 0:
                        held[key] -= 1
                        cause = "letter spacing"
            invented[p] -= need
            lost[p][target] -= 1
            tally.lost[cause] += 1
            tally.invented[cause] += j - i + 1
            tally.note(p, cause, [target], [w for w, _ in mine[i : j + 1]])
            break


_HYPHENED = re.compile(f"(?=({WORD.pattern})-({WORD.pattern}))")
"""Two words joined by a hyphen inside a line (``_hyphened``), overlapping matches found too
(``sum-of-squares``: ``sum-of`` and ``of-squares``)."""


def _hyphened(lines: list[str]) -> Counter:
    """The pairs of words ``lines`` write joined by a hyphen inside a line (``_HYPHENED``), each
    as often as written: where pdftotext reads the two as one word, it dropped a hyphen that
    ended the page's line, which our text keeps (``_split_words``); no rule of ours adds a
    hyphen, and pdftotext drops none inside a line."""
    found: Counter = Counter()
    for line in lines:
        line = unicodedata.normalize("NFC", line)
        for m in _HYPHENED.finditer(line):
            if m.start() == 0 or not WORD.match(line, m.start() - 1):
                found[(m.group(1), m.group(2))] += 1
    return found


MATH_ACCENTS = {
    "\u02c6": "\u0302",
    "\u02c7": "\u030c",
    "\u02c9": "\u0304",
    "\u02ca": "\u0301",
    "\u02cb": "\u0300",
}
"""The spacing accents that are letters (modifier letters, so word characters), each with its
combining form: circumflex, caron, macron, acute and grave, TeX's ``\\hat``, ``\\check``,
``\\bar``, ``\\acute``, ``\\grave`` over a symbol (``_combined_accents``)."""


def _stacked(p: int, stacked: Counter, lost: list[Counter], invented: list[Counter], tally: Tally) -> None:
    """Invented words of page ``p`` that MuPDF reads with two glyphs in a row drawn one over the
    other (``stacked``, ``stacked_words``: the word and the place of the pair) where pdftotext's
    lost word is the same with those two read the other way round: a formula's symbol under a
    wide hat, which MuPDF reads in the order drawn, the hat first, and pdftotext in the order of
    their left edges, the symbol first (``bβθ`` / ``βbθ``, both reading the hat of a math
    extension font as the ``b`` of its code); or where pdftotext reads one of the two glyphs as
    a word of its own (a tall hat read with another line: ``b`` and ``βθ`` for our ``bβθ``).
    Glyphs drawn one over the other have no order on the page; both texts hold the same
    characters: ``accent``, as often as the page sets the word so."""
    for (word, k), n in sorted(stacked.items()):
        swapped = word[:k] + word[k + 1] + word[k] + word[k + 2 :]
        apart = [(word[k], word[:k] + word[k + 1 :]), (word[k + 1], word[: k + 1] + word[k + 2 :])]
        while n > 0 and invented[p][word] > 0:
            if lost[p][swapped] > 0:
                pieces = [swapped]
            else:
                pieces = next(
                    (
                        [glyph, rest]
                        for glyph, rest in apart
                        if lost[p][glyph] > 0 and lost[p][rest] > 0 and glyph != rest
                    ),
                    [],
                )
            if not pieces:
                break
            invented[p][word] -= 1
            lost[p] -= Counter(pieces)
            n -= 1
            tally.lost["accent"] += len(pieces)
            tally.invented["accent"] += 1
            tally.note(p, "accent", pieces, [word])


def _combined_accents(
    p: int, reference: list[str], lost: list[Counter], invented: list[Counter], tally: Tally
) -> None:
    """Invented words of page ``p`` that are a spacing accent (``MATH_ACCENTS``) and a lost word
    of the page, where pdftotext's page holds that word followed by the accent's combining form:
    a formula's symbol under a hat, which MuPDF reads as the spacing accent before the symbol,
    ``ˆθ``, and pdftotext as the symbol and the combining accent, ``θ̂`` (a word to ``WORD``
    without its mark: ``θ``). A spacing accent alone, MuPDF reading it on a line of its own,
    is the combining accent pdftotext puts after a symbol of the page with no spacing accent
    of ours taken for it. Both texts hold the accent, in two forms: ``accent``, each combining
    accent of pdftotext's page used once."""
    if not any(n > 0 and w[0] in MATH_ACCENTS for w, n in invented[p].items()):
        return
    combined: Counter = Counter()
    for line in reference:
        for m in WORD.finditer(line):
            if line[m.end() : m.end() + 1] in MATH_ACCENTS.values() and m.end() < len(line):
                combined[line[m.end()], m.group(0)] += 1
    for word in sorted(w for w, n in invented[p].items() if n > 0 and len(w) > 1 and w[0] in MATH_ACCENTS):
        key = (MATH_ACCENTS[word[0]], word[1:])
        while invented[p][word] > 0 and combined[key] > 0 and lost[p][word[1:]] > 0:
            combined[key] -= 1
            invented[p][word] -= 1
            lost[p][word[1:]] -= 1
            tally.lost["accent"] += 1
            tally.invented["accent"] += 1
            tally.note(p, "accent", [word[1:]], [word])
    for accent in sorted(a for a in MATH_ACCENTS if invented[p][a] > 0):
        for key in sorted(k for k, n in combined.items() if n > 0 and k[0] == MATH_ACCENTS[accent]):
            k = min(combined[key], invented[p][accent])
            combined[key] -= k
            invented[p][accent] -= k
            tally.invented["accent"] += k
            tally.note(p, "accent", [], [accent] * k)


def _dotless(lost: str, ours: str) -> bool:
    """Whether pdftotext's ``lost`` word is ``ours`` with a dotless ``ı`` (``ȷ``) bare where ours
    has an accented ``i`` (``j``), every other letter the same: TeX sets an accented i as the
    dotless letter under the accent (``cos\\`\\i``), and pdftotext, not composing the two, gives
    the bare ``ı`` (``cosı`` for the page's ``così``): ``accent``, an accent of ours it lacks.
    A dotless letter of ours against pdftotext's, or a bare ``i`` of ours against a Turkish
    ``ı``, is no such word."""
    if len(lost) != len(ours) or not any(c in "ıȷ" for c in lost):
        return False
    for a, b in zip(lost, ours):
        if a in "ıȷ":
            base = unicodedata.normalize("NFD", b)
            if base[:1] != ("i" if a == "ı" else "j") or len(base) < 2:
                return False
        elif a != b:
            return False
    return True


def _marks(word: str) -> int:
    """How many combining marks (accents) ``word`` holds, decomposed."""
    return sum(1 for ch in unicodedata.normalize("NFD", word) if unicodedata.combining(ch))


GLYPH_MAP_CATEGORIES = ("Sm", "Ps", "Pe", "Pd", "Po", "So")
"""Unicode categories of the symbols that pdftotext may read as the letter of their character
code (``_glyph_map``): math symbols, brackets, dashes, other punctuation and symbols. Private-use
code points, U+FFFD and letters are never among them: a glyph we read as one of those may be a
letter we lost."""


def _glyph_map(
    p: int, ours: list[list[str]], lost: list[Counter], invented: list[Counter], tally: Tally
) -> None:
    """Lost words of page ``p`` that our page holds letter for letter, but for symbols where
    pdftotext has a letter: ``hnumberi`` for our ``⟨number⟩``.

    Why this is pdftotext's reading, not our loss: TeX's math symbol fonts (cmsy and their
    kin) have no ToUnicode map; their glyphs are named (``angbracketleft``) and sit at character
    codes that are letters in ASCII (⟨ at ``h``, ⟩ at ``i``). MuPDF maps the glyph by its name,
    pdftotext falls back to the code, and the page shows the bracket. Only a symbol of ours
    (``GLYPH_MAP_CATEGORIES``) against a letter or digit of pdftotext's, at the same place of
    the same run of characters, counts, and only where the symbols are at most a third of the
    word, or are its first and last characters around two or more (``hboxi`` for our
    ``⟨box⟩``), or are one bracket at its edge, opening where it starts or closing where it ends,
    in a word of two or three (``hx`` for our ``⟨x``, ``ni`` for our ``n⟩``: pdftotext reads
    ``⟨n⟩`` as ``h`` and ``ni``, cut at the bracket, ``_edge_bracket``); ours then keeps every
    other letter of the word. The longest lost words are matched
    first, each at the place that needs the fewest symbols. The reverse (a letter of ours where
    pdftotext has a symbol) stays counted.
    """
    if not any(n > 0 for n in lost[p].values()):
        return
    text = "\n".join(ours[p])
    used: list[tuple[int, int]] = []
    # NOTE: longest first: ``hdigitihdecimal`` (our ``⟨digit⟩⟨decimal``) before ``hdecimal``,
    # which would otherwise take the ``⟨decimal`` inside it
    for w in sorted((w for w, n in lost[p].items() if n > 0 and len(w) >= 2), key=len, reverse=True):
        pattern = "".join(f"(?:{re.escape(c)}|[^\\w\\s])" for c in w)
        found = list(re.finditer(rf"(?<![^\W_]){pattern}(?![^\W_])", text))
        # NOTE: fewest symbols first: ``hplacementsi`` is our ``⟨placements⟩``, not ``⟨placement⟩]``
        found.sort(key=lambda m: sum(a != b for a, b in zip(m.group(0), w)))
        for m in found:
            if lost[p][w] <= 0:
                break
            piece = m.group(0)
            diff = [a for a, b in zip(piece, w) if a != b]
            # NOTE: a word bracketed whole (``hboxi``: our ``⟨box⟩``) is one however short
            bracketed = len(w) >= 4 and all(a == b for a, b in zip(piece[1:-1], w[1:-1]))
            bracketed = bracketed or _edge_bracket(piece, w) or _one_bracketed(piece, w)
            if not diff or (len(diff) * 2 > len(w) - len(diff) and not bracketed):
                continue  # most of the word must be the same letters
            if any(unicodedata.category(a) not in GLYPH_MAP_CATEGORIES for a in diff):
                continue
            if any(a < m.end() and m.start() < b for a, b in used):
                continue
            need = Counter(WORD.findall(piece))
            if any(invented[p][x] < k for x, k in need.items()):
                continue
            used.append(m.span())
            invented[p] -= need
            lost[p][w] -= 1
            tally.lost["glyph map"] += 1
            tally.invented["glyph map"] += sum(need.values())


def _edge_bracket(ours: str, theirs: str) -> bool:
    """Whether ``ours`` is ``theirs`` but for one character at an edge, an opening bracket of ours
    where the word starts or a closing one where it ends, not an ASCII one (``⟨x`` for
    pdftotext's ``hx``, ``n⟩`` for its ``ni``: a bracketed name pdftotext reads in two pieces,
    cut at the bracket's italic correction; ``_glyph_map``)."""
    diff = [i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]
    if len(diff) != 1 or len(ours) != len(theirs):
        return False
    at = diff[0]
    wanted = "Ps" if at == 0 else "Pe" if at == len(ours) - 1 else ""
    # NOTE: an ASCII bracket is set from a text font, whose code is the bracket: pdftotext reads
    # no letter for it (``[2]`` of ours is no ``2y`` of its)
    return bool(wanted) and unicodedata.category(ours[at]) == wanted and not ours[at].isascii()


def _one_bracketed(ours: str, theirs: str) -> bool:
    """Whether ``ours`` is one letter or digit of ``theirs`` between an opening and a closing
    bracket, neither an ASCII one, where ``theirs`` has letters (``⟨n⟩`` for pdftotext's
    ``hni``: a one-letter name in a math font's angle brackets, read whole; two symbols of three
    characters are over ``_glyph_map``'s third, and a word bracketed whole counts from four)."""
    return (
        len(ours) == len(theirs) == 3
        and ours[1] == theirs[1]
        and unicodedata.category(ours[0]) == "Ps"
        and unicodedata.category(ours[2]) == "Pe"
        and not (ours[0].isascii() or ours[2].isascii())
    )


_PRIMES = {"\u2032": 1, "\u2033": 2, "\u2034": 3}
"""Prime, double prime, triple prime: how many primes each draws (``_primes``)."""
_PRIMED = re.compile(r"(?<![^\W_])([^\W_]*[^\W\d_])([\u2032-\u2034]+)")
"""A word of ours ending in a letter, primed (``y′′``)."""


def _primes(
    p: int, ours: list[list[str]], lost: list[Counter], invented: list[Counter], tally: Tally
) -> None:
    """Lost words of page ``p`` that are a word of ours with a ``0`` for each prime after it on
    our page: ``y00`` for our ``y′′``, ``X0`` for our ``X′``.

    Why this is pdftotext's reading, not our loss: TeX's math symbol font (cmsy, no ToUnicode
    map) has the prime at character code 0x30, ASCII's ``0``; MuPDF maps the glyph by its name
    (``prime``), pdftotext falls back to the code. ``_glyph_map`` leaves these alone, the symbol
    being too much of so short a word. Only where our page holds the word with exactly that
    many primes (``_PRIMES``), the word ending in a letter, and as often as both are taken: a
    lost ``y0`` against our bare ``y`` stays counted, and so does a number (``10`` for our
    ``1′``)."""
    if not any(n > 0 and w.endswith("0") for w, n in lost[p].items()):
        return
    primed: Counter = Counter()
    for m in _PRIMED.finditer(unicodedata.normalize("NFC", "\n".join(ours[p]))):
        primed[m.group(1) + "0" * sum(_PRIMES[c] for c in m.group(2))] += 1
    for w, n in list(lost[p].items()):
        base = w.rstrip("0")
        k = min(n, primed[w], invented[p][base]) if n > 0 and base != w else 0
        if k > 0:
            lost[p][w] -= k
            invented[p][base] -= k
            tally.lost["glyph map"] += k
            tally.invented["glyph map"] += k


LONE_CONTEXT = 4
"""The letters and digits a line of pdftotext's must hold besides its lone letters for
``_lone_glyphs`` to look for it on our page."""


def _lone_glyphs(
    p: int, reference: list[str], ours: list[list[str]], lost: list[Counter], tally: Tally
) -> None:
    """Lost one-character words of page ``p`` that stand alone on a line of pdftotext's where
    our page has that line with a symbol (``GLYPH_MAP_CATEGORIES``) in their place: ``label h
    Labels in the outer block 4 i`` for our ``label ⟨ Labels in the outer block 4 ⟩``, a
    bullet's ``ä`` for our ``➤``.

    Why this is pdftotext's reading, not our loss: the same as ``_glyph_map``'s (a math symbol
    font without a map has ⟨ at ``h``, ⟩ at ``i``; a dingbats font's arrow sits at code 0xE4,
    Latin-1's ``ä``, and pdftotext falls back to the code), but the symbol stands alone, so no
    word of ours holds it and ``_glyph_map`` cannot see it. Only where the whole line is ours
    but for symbols (spaces aside; a letter of its other words may be a symbol of ours too,
    ``\\dg hword i`` for our ``\\dg ⟨word⟩``, but two thirds of them must be ours as they
    are, and the line must hold ``LONE_CONTEXT`` of them) does it count; a symbol is no word, so
    nothing of ours was invented there."""
    alone = {w for w, n in lost[p].items() if n > 0 and len(w) == 1}
    if not alone:
        return
    text = "\n".join(ours[p])
    for line in reference:
        found = [m for m in WORD.finditer(line) if m.group(0) in alone]
        if not any(lost[p][m.group(0)] > 0 for m in found):
            continue
        context = sum(c.isalnum() for c in line) - len(found)
        if context < LONE_CONTEXT:
            continue  # NOTE: a line of little more than the letter matches any symbol of ours
        parts, k = [], 0
        for w in found:
            parts.append(_loosely(line[k : w.start()]))
            parts.append(f"(?:{re.escape(w.group(0))}|([^\\w\\s]))")
            k = w.end()
        parts.append(_loosely(line[k:]))
        at = re.search("".join(parts), text)
        if at is None or 3 * sum(c.isalnum() for c in at.group(0)) < 2 * context:
            continue  # NOTE: most of the line's other letters must be ours letter for letter
        for k, t in enumerate(w.group(0) for w in found):
            glyph = at.group(k + 1)
            if glyph is not None and unicodedata.category(glyph) in GLYPH_MAP_CATEGORIES and lost[p][t] > 0:
                lost[p][t] -= 1
                tally.lost["glyph map"] += 1
                tally.note(p, "glyph map", [t], [])


def _symbol_letters(p: int, symbols: Counter, lost: list[Counter], tally: Tally) -> None:
    """Lost one-character words of page ``p`` that pdftotext reads where MuPDF reads one symbol
    (``symbols``, ``symbol_letters``), each as often as the page holds it so: ``glyph map``."""
    for w, n in list(lost[p].items()):
        k = min(n, symbols[w]) if len(w) == 1 else 0
        if k > 0:
            lost[p][w] -= k
            tally.lost["glyph map"] += k
            tally.note(p, "glyph map", [w] * k, [])


def _loosely(piece: str) -> str:
    """A regular expression for a piece of pdftotext's line as our text may hold it: any run of
    spaces as any (or none), a letter or digit as itself or a symbol (``_lone_glyphs``)."""
    return "".join(
        r"\s*" if c.isspace() else f"(?:{re.escape(c)}|[^\\w\\s])" if c.isalnum() else re.escape(c)
        for c in piece
    )


def _rotated(p: int, slanted: Counter, lost: list[Counter], invented: list[Counter], tally: Tally) -> None:
    """Text set at a slant (neither across nor up or down the page: a label turned 30°) that
    pdftotext breaks into pieces: ``This text was rotated`` comes out ``T`` ``h`` ``is t``
    ``ate`` ``rot``, in no order, where the page and MuPDF have the words. An invented word of
    ours that MuPDF reads on a slanted line of the page (``slanted``) is such text, and a lost
    word of pdftotext's that is a piece of one of those words is one of its pieces, up to as
    many letters as the slanted words found hold (so a lost word of the page's upright text
    is never taken for a piece unless such words are missing too)."""
    if not slanted:
        return
    letters = 0
    for w, n in list(invented[p].items()):
        k = min(n, slanted[w])
        if k > 0:
            invented[p][w] -= k
            tally.invented["rotated"] += k
            letters += k * len(w)
    pieces = [w for w in slanted if len(w) > 1]
    for w, n in sorted(lost[p].items(), key=lambda item: -len(item[0])):
        if n <= 0 or not any(w in whole for whole in pieces):
            continue
        k = min(n, letters // len(w))
        if k > 0:
            lost[p][w] -= k
            tally.lost["rotated"] += k
            letters -= k * len(w)


def _clipped(
    p: int, hidden: Counter, slivers: Counter, lost: list[Counter], invented: list[Counter], tally: Tally
) -> None:
    """Text the page's clip hides (``clipped_words``): a lost word of pdftotext's that MuPDF reads
    only when told to ignore the clip (``hidden``), and an invented word of ours that MuPDF reads
    only with the clip (``slivers``: the letters whose tops show above the clip's edge, ``h d``
    for a line cut at its x-height), each as often as the page holds it so: ``clipped``."""
    for side, found in ((lost, hidden), (invented, slivers)):
        for w, n in list(side[p].items()):
            k = min(n, found[w])
            if k > 0:
                side[p][w] -= k
                if side is lost:
                    tally.lost["clipped"] += k
                else:
                    tally.invented["clipped"] += k


_CONTROL = re.compile(r"(\w*)[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]+(\w*)")
"""A run of control characters in pdftotext's text, with the word right before it and the word
right after it: C0 (a math font's codes below 0x20, ``<1f>`` for χ) and C1 (a text font's in
0x80–0x9F, the Cork encoding's accented capitals: ``<83>`` for ``Č``)."""


def _control_glyphs(
    p: int, reference: list[str], lost: list[Counter], invented: list[Counter], tally: Tally
) -> None:
    """Glyphs pdftotext reads as control characters: a font whose ToUnicode map gives a code its
    own value below U+0020 (``<1f> <001f>`` for math italic χ) or from U+0080 to U+009F
    (``<83> <0083>`` for a Cork-encoded ``Č``, ``Čibej`` read ``ibej``) has pdftotext write that
    control character, which no page shows and no word holds, where MuPDF, finding no text in the
    map, reads the glyph's name (``chi``: χ). Our ``χG`` against pdftotext's control character
    and ``G`` (χ with the index G), our ``tκ`` against its ``t`` and control character with no
    word after it (κ an exponent set right after t), or our lone ``κ`` against a lone control
    character, is that glyph read by its name: ``glyph map``, pdftotext departing from the page.
    Only a word of ours that starts (or ends) with one or two letters outside ASCII, the rest
    pdftotext's word right after (or right before) a control character on the same page, or
    wholly such letters, one for each lone control character; each run of control characters
    explains one word of ours."""
    runs: list[tuple[str, str]] = []
    for line in reference:
        runs += [(m.group(1), m.group(2)) for m in _CONTROL.finditer(unicodedata.normalize("NFC", line))]
    if not runs:
        return

    def used(before: str | None, after: str) -> bool:
        # any word before, a run with none first: one with a word before may be a ``tκ`` of ours
        fits = sorted((r for r in runs if r[1] == after and before in (None, r[0])), key=lambda r: r[0] != "")
        found = fits[0] if fits else None
        if found is not None:
            runs.remove(found)
        return found is not None

    def outside(chars: str) -> int:
        return len(chars) - len(chars.lstrip("".join(ch for ch in chars if not ch.isascii())))

    for w in list(invented[p]):
        head, tail = outside(w), outside(w[::-1])
        while invented[p][w] > 0:
            if 0 < head <= 2 and w[head:] and lost[p][w[head:]] > 0 and used(None, w[head:]):
                lost[p][w[head:]] -= 1
                tally.lost["glyph map"] += 1
            elif 0 < head <= 2 and not w[head:] and used(None, ""):
                pass
            elif 0 < tail <= 2 and w[:-tail] and lost[p][w[:-tail]] > 0 and used(w[:-tail], ""):
                lost[p][w[:-tail]] -= 1
                tally.lost["glyph map"] += 1
            else:
                break
            invented[p][w] -= 1
            tally.invented["glyph map"] += 1


def _glyph_ids(
    p: int,
    reference: list[str],
    ours: list[str],
    ids: dict[str, str],
    lost: list[Counter],
    invented: list[Counter],
    tally: Tally,
) -> None:
    """Glyph ids pdftotext reads as characters: a TrueType font embedded as a CID font with an
    ``Identity`` encoding and no ``ToUnicode`` map gives pdftotext only its glyph ids, which it
    writes as characters (``PDQXDO`` for ``manual`` in a font in the Macintosh glyph order),
    dropping those under 32 (the space, the full stop, the digits there); our reader reads such a
    font by its program's own ``cmap`` (``chunking.readers.pdfcidfonts``). ``ids`` is that same
    ``cmap`` read backwards for the page's fonts (``glyph_id_maps``): pdftotext's page is read
    through it character by character, and where its letters and digits, in order, are our
    page's (those of our glyphs whose id is under 32 left out, which pdftotext dropped), the
    words there are ``glyph map`` on both sides: a lost word of pdftotext's whose characters all
    fall in the common stretches (or all read as no letter or digit: the ids of quotes, bullets
    and rules, ``ܧ`` for ``“``), a word of ours whose do (or that is wholly of such dropped
    glyphs: the digits of ``2.4.10``, between two). A word of ours that differs from the page
    by a single letter leaves its stretch, and stays counted."""
    if not ids:
        return
    dropped = {ch for gid, ch in ids.items() if ord(gid) < 0x20}
    theirs = "\n".join(unicodedata.normalize("NFC", line) for line in reference)
    read = "".join(ids.get(ch, ch) for ch in theirs)
    mine = "\n".join(ours)
    our_spans = [m.span() for m in WORD.finditer(mine)]
    their_spans = [m.span() for m in WORD.finditer(theirs)]
    a = [(i, ch) for s, e in our_spans for i, ch in zip(range(s, e), mine[s:e]) if ch not in dropped]
    b = [(i, ch) for i, ch in enumerate(read) if WORD.fullmatch(ch)]
    matcher = difflib.SequenceMatcher(None, [ch for _, ch in a], [ch for _, ch in b], autojunk=False)
    ours_common, theirs_common = set(), set()
    for x, y, n in matcher.get_matching_blocks():
        ours_common.update(i for i, _ in a[x : x + n])
        theirs_common.update(i for i, _ in b[y : y + n])
    if not theirs_common:
        return
    for s, e in their_spans:
        word = theirs[s:e]
        kept = [i for i in range(s, e) if WORD.fullmatch(read[i])]
        spells = all(i in theirs_common for i in kept) if kept else all(ch in ids for ch in word)
        if spells and lost[p][word] > 0:
            lost[p][word] -= 1
            tally.lost["glyph map"] += 1
    for s, e in our_spans:
        word = mine[s:e]
        kept = [i for i in range(s, e) if mine[i] not in dropped]
        between = bool(ours_common) and min(ours_common) < s < max(ours_common)
        if (all(i in ours_common for i in kept) if kept else between) and invented[p][word] > 0:
            invented[p][word] -= 1
            tally.invented["glyph map"] += 1


T = TypeVar("T")


def _per_page(path: Path, read: Callable[[Any], T]) -> Callable[[int], T]:
    """``read`` of a 0-based page of the PDF at ``path`` (a MuPDF page), the PDF opened when
    first asked."""
    doc: list = []

    def of_page(p: int) -> T:
        if not doc:
            import pymupdf

            doc.append(pymupdf.open(path))
        return read(doc[0][p])

    return of_page


def slanted_words(path: Path) -> Callable[[int], Counter]:
    """Per 0-based page of the PDF at ``path``, the words (``WORD``) of the lines MuPDF reads
    at a slant (``SLANT``), read when first asked (``classify``'s ``slanted``)."""

    def of_page(page) -> Counter:
        found: Counter = Counter()
        for block in page.get_text("dict")["blocks"]:
            for line in block.get("lines", ()):
                dx, dy = line["dir"]
                if min(abs(dx), abs(dy)) > SLANT:
                    found.update(
                        WORD.findall(unicodedata.normalize("NFC", "".join(s["text"] for s in line["spans"])))
                    )
        return found

    return _per_page(path, of_page)


MATH_ITALIC = re.compile(r"(?i)(?:^|\+)cmmib?\d|mathitalic")
"""The name of a TeX math italic font: Computer Modern's ``CMMI10`` (``CMMIB10`` bold), Latin
Modern's ``LMMathItalic10-Regular`` (a subset's ``ABCDEF+`` prefix allowed)."""


def math_italic_words(path: Path) -> Callable[[int], Counter]:
    """Per 0-based page of the PDF at ``path``, the words (``WORD``) MuPDF reads in one span of a
    TeX math italic font (``MATH_ITALIC``), read when first asked (``classify``'s
    ``math_italic``). TeX sets a formula's letters with no word space between them (math mode
    has no interword glue; its smallest space, ``\\,``, is 3/18 em, over MuPDF's 0.15 em word
    break), but after a letter it adds the letter's italic correction, 0.11 em after an italic
    ``M``: a gap of the glyph's slant, not of a space, where pdftotext,
    breaking words at 0.1 em, cuts ``yMax`` into ``yM ax``. A word of ours read whole in such a
    span is one word on the page, and pdftotext's pieces of it are ``math italic``."""

    def of_page(page) -> Counter:
        found: Counter = Counter()
        for block in page.get_text("dict")["blocks"]:
            for line in block.get("lines", ()):
                for span in line["spans"]:
                    if MATH_ITALIC.search(span["font"]):
                        found.update(WORD.findall(unicodedata.normalize("NFC", span["text"])))
        return found

    return _per_page(path, of_page)


TRACKED_GAP = 0.05
"""Letters set at least this share of the font size apart are spaced out (``tracked_words``); a
word's own letters sit about 0 apart, kerned by a few hundredths of an em."""
TRACKED_EVEN = 0.02
"""Gaps within this share of the font size of each other are one tracking (``tracked_words``)."""
TRACKED_SHARE = 2 / 3
"""At least this share of a tracked word's gaps are its widest (``tracked_words``): the rest are
kerned pairs. A tight line's glued words have a few wide gaps among many of 0 em."""


def tracked_words(path: Path) -> Callable[[int], Counter]:
    """Per 0-based page of the PDF at ``path``, the words (``WORD``, two letters or more, in one
    span) that MuPDF reads with their letters evenly spaced out, read when first asked
    (``classify``'s ``tracked``): its widest gap between two glyphs at least ``TRACKED_GAP`` em,
    at least two of its gaps and ``TRACKED_SHARE`` of them that wide (within ``TRACKED_EVEN``
    em), the others narrower (a kerned pair, ``au``). A name in tracked small capitals sets its letters 0.1 em apart, which
    pdftotext, breaking words at 0.1 em, cuts where a glyph's width rounds it over (``A
    rseneau``); the page shows one evenly spaced word. Two words we glued would stand a word
    space apart, wider than the gaps between their letters, set solid: no such word (a tight
    line's ``stepsinas``, 0.15 em twice among 0 em gaps, is none)."""

    def of_page(page) -> Counter:
        found: Counter = Counter()
        for block in page.get_text("rawdict")["blocks"]:
            for line in block.get("lines", ()):
                for span in line["spans"]:
                    size = span["size"] or 1.0
                    run: list = []
                    for c in [*span["chars"], None]:
                        if c is not None and WORD.fullmatch(c["c"]):
                            run.append(c)
                            continue
                        gaps = [(b["bbox"][0] - a["bbox"][2]) / size for a, b in zip(run, run[1:])]
                        widest = max(gaps, default=0.0)
                        even = sum(g >= widest - TRACKED_EVEN for g in gaps)
                        if widest >= TRACKED_GAP and even >= max(2, TRACKED_SHARE * len(gaps)):
                            found[unicodedata.normalize("NFC", "".join(g["c"] for g in run))] += 1
                        run = []
        return found

    return _per_page(path, of_page)


NO_SPACE = 0.1
"""pdftotext's own word break, as a share of the font size (``TIGHT_DIST`` in
``chunking.readers.pdfspaces``): a gap no wider is no word space (``unspaced_words``)."""
ONE_SIZE = 0.01
"""Glyphs whose sizes differ by at most this share are of one size (``unspaced_words``)."""
OVERPRINT = 0.25
"""A glyph standing over the one before it by more than this share of the font size is drawn
over it, no letter of a word set solid: a sign composed of two glyphs (0.7 em over each other).
A logo's kerns reach a sixth of an em (TeX's ``T`` and lowered ``E``, 0.167 em; ``CS``'s
lowered ``S`` under its ``C``, 0.108 em) (``unspaced_words``)."""
LOWERED = 0.25
"""A glyph off the baseline of the one before it by at most this share of the font size may
stand in one word with it: a logo's lowered letter (TeX's ``E``, ``CS``'s ``S``: half an ex,
0.22 em); a table's stacked entries stand further apart (``unspaced_words``)."""


def unspaced_words(path: Path) -> Callable[[int], Counter]:
    """Per 0-based page of the PDF at ``path``, the words (``WORD``, two characters or more, on
    one horizontal line) that MuPDF reads with every glyph at one size (``ONE_SIZE``), or at
    another on the baseline of the one before (letters of mixed fonts, faked small capitals), and no gap
    between two glyphs in a row over ``NO_SPACE`` em, read when first asked (``classify``'s
    ``unspaced``). Such a word is one word on the page, set solid: the narrowest word space TeX
    sets is 0.22 em (Computer Modern's space shrunk in full), the tightest line of the bench
    0.147 em, a thin space ``\\,`` 0.17 em, and MuPDF breaks words at 0.15 em. pdftotext cuts
    one where it measures the gap over its 0.1 em otherwise, at a change of font: a logo set
    from a math font's calligraphic capitals, one of them lowered, before text letters 0.0999
    em after it, ``CS plain`` for the page's ``CSplain``. Its pieces of such a word of ours are
    ``no space``. Two words we glued stand a word space apart, over the bound, so none is such a
    word; nor is a symbol with its index or exponent set smaller (``M HAC`` for ``M`` with
    ``HAC`` below it, ``e x`` for e to the x: either extractor may be said to be right there),
    nor glyphs drawn over each other (``OVERPRINT``) or stacked (``LOWERED``), nor a word on a
    slant (``rotated``). One glyph may be set smaller only tucked into the one before it
    (``_tucked``: LaTeX's logo, its small ``A`` raised under the ``L``'s arm); an exponent stands
    after its symbol, not inside it."""
    return _per_page(path, lambda page: _solid_words(page))


WORD_GAP = 0.22
"""A gap between two glyphs of a line of at least this share of the font size is a word space,
whatever the page draws there (``drawn_apart_words``): TeX's narrowest word space (Computer
Modern's shrunk in full); the letters of a word, kerned or set in a formula, stand closer, and
letter spacing the reader joins stays under its 0.25 em (``TRACKING_MAX`` in
``chunking.readers.pdfspaces``)."""


def drawn_apart_words(path: Path) -> Callable[[int], Counter]:
    """Per 0-based page of the PDF at ``path``, read when first asked (``classify``'s
    ``drawn_apart``): every run of two or more words (``WORD``, up to ``MAX_RUN``) that MuPDF,
    adding no space of its own (``TEXT_INHIBIT_SPACES``), reads on one line each a gap over
    ``NO_SPACE`` em (pdftotext's word break) from the next with a space character the page
    draws between them, or a gap of ``WORD_GAP`` em or more with or without one; each run its
    words joined by ``SCRIPT_CUT``. The page writes or sets such words apart and shows them
    apart; pdftotext, which ignores drawn spaces and breaks words by the gaps, reads glyphs set
    at even gaps as one letter-spaced word (a font specimen's row ``a à á â``, a space drawn
    between each, 0.28 em apart: its ``aàáâ``), and a line of a few single glyphs as one word
    whatever their gaps (a fraction's denominator ``d x``, its letters 0.227 em apart: its
    ``dx``); its word where our text holds that run is ``letter spacing``. A line of letters
    evenly a word space apart is a word set with letter spacing: its gaps count only where a
    space is drawn (``_wide_gaps``)."""

    def of_page(page) -> Counter:
        import pymupdf

        found: Counter = Counter()
        flags = (pymupdf.TEXTFLAGS_RAWDICT | pymupdf.TEXT_INHIBIT_SPACES) & ~pymupdf.TEXT_PRESERVE_LIGATURES
        for block in page.get_text("rawdict", flags=flags)["blocks"]:
            for line in block.get("lines", ()):
                if abs(line["dir"][1]) > 1e-3 or line["dir"][0] <= 0:
                    continue
                glyphs = [(c, span["size"] or 1.0) for span in line["spans"] for c in span["chars"]]
                wide = _wide_gaps(glyphs)
                text, at = [], []  # NOTE: a space put where two glyphs stand a word space apart
                for k, (c, _) in enumerate(glyphs):
                    if k in wide:
                        text.append(" ")
                        at.append(k)
                    text.append(c["c"])
                    at.append(k)
                line_text = "".join(text)
                found_words = list(WORD.finditer(line_text))
                pieces = [unicodedata.normalize("NFC", m.group(0)) for m in found_words]
                apart = []
                for m, n in zip(found_words, found_words[1:]):
                    (a, size), (b, other) = glyphs[at[m.end() - 1]], glyphs[at[n.start()]]
                    between = line_text[m.end() : n.start()]
                    gap = b["bbox"][0] - a["bbox"][2]
                    apart.append(bool(between) and between.isspace() and gap > NO_SPACE * max(size, other))
                for i in range(len(pieces)):
                    for j in range(i + 1, min(len(pieces), i + MAX_RUN)):
                        if not apart[j - 1]:
                            break
                        found[SCRIPT_CUT.join(pieces[i : j + 1])] += 1
        return found

    return _per_page(path, of_page)


TRACKED_RUN = 3
"""Letters in a row this many or more, each a word space or more from the next at even gaps
(``TRACKED_EVEN``), are a letter-spaced word, no words (``_wide_gaps``)."""


def _wide_gaps(glyphs: list) -> set[int]:
    """The places of a line's ``glyphs`` (MuPDF's glyphs and their sizes, no space of its own
    among them) where a glyph stands ``WORD_GAP`` em or more after the one before it, no drawn
    space between; none on a line holding ``TRACKED_RUN`` letters or digits in a row so apart at
    even gaps: a word set with letter spacing (a demonstration of tracking, ``t h e``), whose
    gaps are no word spaces (``drawn_apart_words``)."""
    gaps: dict[int, float] = {}
    for k in range(1, len(glyphs)):
        (a, before), (b, size) = glyphs[k - 1], glyphs[k]
        if a["c"].isspace() or b["c"].isspace():
            continue
        gap = (b["bbox"][0] - a["bbox"][2]) / max(size, before)
        if gap >= WORD_GAP:
            gaps[k] = gap
    run: list[float] = []
    for k in range(1, len(glyphs) + 1):
        letters = k < len(glyphs) and glyphs[k - 1][0]["c"].isalnum() and glyphs[k][0]["c"].isalnum()
        if letters and k in gaps and (not run or max(*run, gaps[k]) - min(*run, gaps[k]) <= TRACKED_EVEN):
            run.append(gaps[k])
            if len(run) + 1 >= TRACKED_RUN:
                return set()
        else:
            run = [gaps[k]] if letters and k in gaps else []
    return set(gaps)


def shifted_words(path: Path) -> Callable[[int], Counter]:
    """Per 0-based page of the PDF at ``path``, the words of ``unspaced_words`` with a glyph off
    the baseline of the one before it by more than ``SHIFTED`` em (TeX's lowered ``E``, LaTeX's
    raised ``A``), read when first asked (``classify``'s ``shifted``): pdftotext builds its lines
    from baselines and may read such a glyph apart from the rest of its word, elsewhere in its
    text (``E LAT X``, ``MiKT X`` with the ``E`` on a line of its own): ``_scattered_pieces``."""
    return _per_page(path, lambda page: _solid_words(page, shifted=True))


SHIFTED = 0.1
"""A glyph off the baseline of the one before it by more than this share of the font size is set
lower or higher, no letter of its line (``shifted_words``); a baseline's own jitter is a few
hundredths of a point."""


def _solid_words(page, shifted: bool = False) -> Counter:
    """The words of a MuPDF ``page`` set solid (``_set_solid``; ``unspaced_words``), only those
    with a glyph off the baseline when ``shifted`` (``shifted_words``). A run of Han or kana
    glyphs next to other letters is a word of its own (``_CJK``): those scripts mark no word
    boundary with a space, so ``LATEXの`` holds the word ``LATEX``."""
    found: Counter = Counter()
    for block in page.get_text("rawdict")["blocks"]:
        for line in block.get("lines", ()):
            if abs(line["dir"][1]) > 1e-3 or line["dir"][0] <= 0:
                continue
            run: list = []
            glyphs = [(c, span["size"] or 1.0) for span in line["spans"] for c in span["chars"]]
            for glyph in [*glyphs, None]:
                if glyph is not None and WORD.fullmatch(glyph[0]["c"]):
                    if not run or bool(_CJK.match(run[-1][0]["c"])) == bool(_CJK.match(glyph[0]["c"])):
                        run.append(glyph)
                        continue
                run = _after_mark(run)
                if len(run) > 1 and _set_solid(run) and (not shifted or _off_baseline(run)):
                    found[unicodedata.normalize("NFC", "".join(c["c"] for c, _ in run))] += 1
                run = [glyph] if glyph is not None and WORD.fullmatch(glyph[0]["c"]) else []
    return found


def _after_mark(run: list) -> list:
    """``run`` without the glyphs that open it set smaller and raised over the glyph after them:
    a note's mark before its word (``²CTEX``), which both extractors read apart from it, is no
    part of the word. Only at the run's start: an exponent stands after its symbol, and a glyph
    tucked into the one before it (``_tucked``) stays."""
    start = 0
    while start + 1 < len(run):
        (mark, small), (glyph, size) = run[start], run[start + 1]
        if not (small < size * (1 - ONE_SIZE) and mark["origin"][1] < glyph["origin"][1]):
            break
        start += 1
    return run[start:]


def _off_baseline(run: list) -> bool:
    """Whether a glyph of ``run`` stands off the baseline of the one before it by more than
    ``SHIFTED`` em."""
    return any(abs(b["origin"][1] - a["origin"][1]) > SHIFTED * s for (a, s), (b, _) in zip(run, run[1:]))


def _tucked(before: tuple, glyph: tuple) -> bool:
    """Whether ``glyph`` (a MuPDF character with its span's size) is set smaller than ``before``,
    raised, and tucked into it: its left edge inside ``before``'s box, more than ``OVERPRINT`` em
    left of its right edge (LaTeX's logo sets its ``A`` small and raised, 0.49 em back under the
    ``L``). An exponent or an index stands after its symbol, a sign's two glyphs are of one size:
    neither is tucked."""
    (a, size), (b, small) = before, glyph
    return (
        small < size * (1 - ONE_SIZE)
        and b["origin"][1] < a["origin"][1]
        and a["bbox"][0] <= b["bbox"][0]
        and b["bbox"][0] - a["bbox"][2] < -OVERPRINT * size
    )


def _set_solid(run: list) -> bool:
    """Whether the glyphs of ``run`` (MuPDF's characters, each with its span's size) are of one
    size, or of another size on the baseline of the one before (``ONE_SIZE`` em: letters of
    mixed fonts, a script stands off it), and stand, each from the one before it, no further apart than ``NO_SPACE`` em, nor
    over it by more than ``OVERPRINT`` em, nor off its baseline by more than ``LOWERED`` em; a
    glyph tucked into the one before it (``_tucked``) is passed over, the next measured from the
    one before it."""
    size = run[0][1]
    before = run[0]
    for glyph in run[1:]:
        if _tucked(before, glyph):
            continue
        (a, _), (b, s) = before, glyph
        if abs(s - size) > ONE_SIZE * size and abs(b["origin"][1] - a["origin"][1]) > ONE_SIZE * max(s, size):
            return False  # NOTE: another size on one baseline: letters of mixed fonts, no script
        if not -OVERPRINT * size <= b["bbox"][0] - a["bbox"][2] <= NO_SPACE * size:
            return False
        if abs(b["origin"][1] - a["origin"][1]) > LOWERED * size:
            return False
        before = glyph
    return True


MATH_FONT = re.compile(r"(?i)math|(?:^|\+)cm(?:mi|sy|ex)b?\d")
"""The name of a font of a formula's symbols: a Unicode math font (``XITSMath-Regular``,
``LatinModernMath-Regular``) or one of TeX's math fonts, Computer Modern's math italic, symbols
and extension (``CMMI10``, ``CMSY10``, ``CMEX10``; ``LMMathItalic10`` holds ``Math``)."""
SCRIPT_CUT = "\x00"
"""Marks in a word of ``script_words`` where its script starts or ends."""


def glyph_id_maps(path: Path) -> Callable[[int], dict[str, str]]:
    """Per 0-based page of the PDF at ``path``, what pdftotext's characters stand for where the
    page sets a TrueType CID font without a Unicode map (``classify``'s ``glyph_ids``): each
    glyph id, as the character pdftotext writes for it, and the character the font program's
    own ``cmap`` maps to that glyph. Read once per font."""
    from chunking.readers.pdfcidfonts import glyph_characters, unmapped_identity_truetype

    fonts: dict[int, dict[str, str]] = {}

    def of_page(page) -> dict[str, str]:
        doc = page.parent
        found: dict[str, str] = {}
        for xref, ext, kind, *_ in page.get_fonts():
            if xref not in fonts:
                fonts[xref] = (
                    {chr(g): chr(c) for g, c in glyph_characters(doc, xref).items()}
                    if unmapped_identity_truetype(doc, xref, ext, kind)
                    else {}
                )
            found.update(fonts[xref])
        return found

    return _per_page(path, of_page)


def script_words(path: Path) -> Callable[[int], Counter]:
    """Per 0-based page of the PDF at ``path``, read when first asked (``classify``'s
    ``scripts``): the words (``WORD``, on one horizontal line) that MuPDF reads set solid (no
    gap between two glyphs over ``NO_SPACE`` em of the larger, none over the other by more than
    ``OVERPRINT``), opening with a glyph of a math font (``MATH_FONT``), where the size changes
    and the baseline shifts by more than ``SHIFTED`` em of the larger between two glyphs, each
    word with ``SCRIPT_CUT`` at every such place: a formula's symbol and its exponent or index,
    ``𝑒`` then a smaller raised ``𝑥``, ``4𝑎`` then a smaller raised ``2``. pdftotext starts a
    word where the size and the baseline change; MuPDF reads the glyphs it sets solid as one word:
    both texts hold the same characters, and its pieces of such a word, cut exactly at those
    places, are ``script``. A footnote's mark after a word in a text font, a symbol and its
    script in text fonts (``M HAC``), a denominator glued to what follows it at the same size,
    and glyphs set apart stay counted.

    A script MuPDF reads on a line of its own (an index under an exponent, ``Λ`` with ``⊤``
    above and ``θ`` below it, the index read with the line below) is held too, as the word
    before it and the script's word with ``SCRIPT_CUT`` between (``_stacked_scripts``)."""

    def of_page(page) -> Counter:
        found: Counter = Counter()
        runs: list[tuple[int, list]] = []
        for number, line in enumerate(
            line for block in page.get_text("rawdict")["blocks"] for line in block.get("lines", ())
        ):
            if abs(line["dir"][1]) > 1e-3 or line["dir"][0] <= 0:
                continue
            glyphs = [(c, span["size"] or 1.0, span["font"]) for span in line["spans"] for c in span["chars"]]
            run: list = []
            for glyph in [*glyphs, None]:
                if glyph is not None and WORD.fullmatch(glyph[0]["c"]):
                    run.append(glyph)
                    continue
                key = _scripted(run)
                if key:
                    found[key] += 1
                if run:
                    runs.append((number, run))
                run = []
        found.update(_stacked_scripts(runs))
        return found

    return _per_page(path, of_page)


STACKED_SHIFT = 0.75
"""The furthest a script's baseline stands from its symbol's, as a share of the larger size
(``_stacked_scripts``): an exponent is raised and an index lowered by less than half an em; the
next line of text stands over an em below."""


def _stacked_scripts(runs: list[tuple[int, list]]) -> Counter:
    """Each pair of a word's glyph run and a run MuPDF reads on another line (``runs``: the
    line's number and the run's glyphs, as ``script_words`` reads them) that starts where the
    word ends (no gap over ``NO_SPACE`` em of the larger size, no overlap over ``OVERPRINT``), at
    another size, its baseline shifted by more than ``SHIFTED`` em and at most
    ``STACKED_SHIFT``, one of the two glyphs in a math font (``MATH_FONT``): the word and its
    script, set solid, the script read with another line (stacked under an exponent), as the
    two words with ``SCRIPT_CUT`` between."""
    found: Counter = Counter()
    starts = sorted(((run[0][0]["bbox"][0], k) for k, (_, run) in enumerate(runs)), key=lambda x: x[0])
    xs = [x for x, _ in starts]
    for number, run in runs:
        a, size, font = run[-1]
        end = a["bbox"][2]
        for _, k in starts[
            bisect.bisect_left(xs, end - OVERPRINT * size * 4) : bisect.bisect_right(
                xs, end + NO_SPACE * size * 4
            )
        ]:
            other_number, other = runs[k]
            b, other_size, other_font = other[0]
            full = max(size, other_size)
            shift = abs(b["origin"][1] - a["origin"][1])
            if (
                other_number != number
                and -OVERPRINT * full <= b["bbox"][0] - end <= NO_SPACE * full
                and abs(size - other_size) > ONE_SIZE * full
                and SHIFTED * full < shift <= STACKED_SHIFT * full
                and (MATH_FONT.search(font) or MATH_FONT.search(other_font))
            ):
                word = "".join(g[0]["c"] for g in run)
                script = "".join(g[0]["c"] for g in other)
                found[unicodedata.normalize("NFC", word + SCRIPT_CUT + script)] += 1
    return found


STACKED_SHARE = 0.5
"""Two glyphs whose left-to-right extents overlap by at least this share of the narrower one's
stand one over the other (``stacked_words``)."""


def stacked_words(path: Path) -> Callable[[int], Counter]:
    """Per 0-based page of the PDF at ``path``, read when first asked (``classify``'s
    ``stacked``): the words (``WORD``, on one horizontal line, as MuPDF reads them) holding two
    glyphs in a row drawn one over the other, their extents overlapping by ``STACKED_SHARE`` of
    the narrower and their baselines more than ``SHIFTED`` em of the larger size apart (a wide
    hat over its symbol), each with the place of the first of the two in the word."""

    def of_page(page) -> Counter:
        found: Counter = Counter()
        for block in page.get_text("rawdict")["blocks"]:
            for line in block.get("lines", ()):
                if abs(line["dir"][1]) > 1e-3 or line["dir"][0] <= 0:
                    continue
                glyphs = [(c, span["size"] or 1.0) for span in line["spans"] for c in span["chars"]]
                text = "".join(c["c"] for c, _ in glyphs)
                for m in WORD.finditer(text):
                    word = m.group(0)
                    if unicodedata.normalize("NFC", word) != word:
                        continue
                    for k in range(m.start(), m.end() - 1):
                        (a, size), (b, other) = glyphs[k], glyphs[k + 1]
                        narrower = min(a["bbox"][2] - a["bbox"][0], b["bbox"][2] - b["bbox"][0])
                        overlap = min(a["bbox"][2], b["bbox"][2]) - max(a["bbox"][0], b["bbox"][0])
                        shift = abs(b["origin"][1] - a["origin"][1])
                        if (
                            narrower > 0
                            and overlap >= STACKED_SHARE * narrower
                            and shift > SHIFTED * max(size, other)
                        ):
                            found[(word, k - m.start())] += 1
        return found

    return _per_page(path, of_page)


def _scripted(run: list) -> str:
    """``run``'s word with ``SCRIPT_CUT`` where a script starts or ends (``script_words``), or
    ``""`` when it is no such word."""
    if len(run) < 2 or not MATH_FONT.search(run[0][2]):
        return ""
    out, cuts = [run[0][0]["c"]], 0
    for (a, size, _), (b, other, _) in zip(run, run[1:]):
        full = max(size, other)
        if not -OVERPRINT * full <= b["bbox"][0] - a["bbox"][2] <= NO_SPACE * full:
            return ""
        if abs(size - other) > ONE_SIZE * full and abs(b["origin"][1] - a["origin"][1]) > SHIFTED * full:
            out.append(SCRIPT_CUT)
            cuts += 1
        out.append(b["c"])
    return unicodedata.normalize("NFC", "".join(out)) if cuts else ""


_BBOX_WORD = re.compile(
    r'<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">([^<]*)</word>'
)
"""A word of ``pdftotext -bbox``'s output, with its box (points, from the page's top left)."""


def symbol_letters(path: Path) -> Callable[[int], Counter]:
    """Per 0-based page of the PDF at ``path``, read when first asked (``classify``'s
    ``symbols``): pdftotext's one-character words (its own word boxes, ``pdftotext -bbox``)
    whose box holds the middle of one glyph of MuPDF's reading of the page and no other, a
    symbol (``GLYPH_MAP_CATEGORIES``). A symbol font without a Unicode map (a table of math
    symbols, one to a cell: ``≲`` at code 0x2E, ``⊏`` at 0x40) is read by pdftotext as the
    character of each glyph's code, by MuPDF by the glyph's name: the same glyph, one letter or
    digit of pdftotext's for one symbol on the page, where ``_lone_glyphs`` has no line of
    letters around it to match. A letter MuPDF reads as a letter there is never such a word, so
    a letter our text lost stays counted. A glyph of a ZapfDingbats font (``sets_dingbats``: the
    standard font of dingbats, which holds no letter or digit) is such a symbol whatever MuPDF
    reads for it: without a Unicode map MuPDF gives its glyph id, a control character (a table's
    check marks ✓ ✗, which pdftotext reads ``3`` and ``7``, their codes). MuPDF reads the page as
    our reader does where a font's Unicode map gives its glyphs' codes in the font (``pdfbuiltin``:
    TeX's angle brackets, ``⟨`` where pdftotext reads ``h``)."""
    from chunking.readers.pdfbuiltin import builtin_mapped
    from chunking.readers.pdfdingbats import sets_dingbats

    def of_page(page) -> Counter:
        builtin_mapped(page)
        done = subprocess.run(
            ["pdftotext", "-f", str(page.number + 1), "-l", str(page.number + 1), "-bbox", str(path), "-"],
            capture_output=True,
            timeout=PDFTOTEXT_TIMEOUT_S,
            check=False,
        )
        boxes = [
            (tuple(float(m.group(k)) for k in range(1, 5)), html.unescape(m.group(5)))
            for m in _BBOX_WORD.finditer(done.stdout.decode("utf-8", "replace"))
        ]
        boxes = [(box, w) for box, w in boxes if len(w) == 1 and w.isalnum()]
        if not boxes:
            return Counter()
        middles = [
            (
                "\u2756" if sets_dingbats({span["font"]}) else char["c"],
                (char["bbox"][0] + char["bbox"][2]) / 2,
                (char["bbox"][1] + char["bbox"][3]) / 2,
            )
            for block in page.get_text("rawdict")["blocks"]
            for line in block.get("lines", ())
            for span in line["spans"]
            for char in span["chars"]
            if not char["c"].isspace()
        ]
        found: Counter = Counter()
        for (x0, y0, x1, y1), w in boxes:
            inside = [c for c, x, y in middles if x0 <= x <= x1 and y0 <= y <= y1]
            if len(inside) == 1 and unicodedata.category(inside[0]) in GLYPH_MAP_CATEGORIES:
                found[w] += 1
        return found

    return _per_page(path, of_page)


def clipped_words(path: Path) -> Callable[[int], tuple[Counter, Counter]]:
    """Per 0-based page of the PDF at ``path``, read when first asked (``classify``'s
    ``clipped``): the words (``WORD``) MuPDF reads with its clip flag off and not with it on,
    text the page's clip hides (an example page drawn inside a frame, its last line below the
    frame's edge; pdftotext reads what the clip hides), and the words it reads only with the flag
    on, the pieces a clip leaves of a line it cuts (MuPDF keeps a glyph whose box reaches into
    the clip: a line cut near its x-height leaves letters with ascenders, ``h``, ``d``)."""
    import pymupdf

    def of_page(page) -> tuple[Counter, Counter]:
        flags = pymupdf.TEXTFLAGS_TEXT | pymupdf.TEXT_MEDIABOX_CLIP
        seen, whole = (
            Counter(WORD.findall(unicodedata.normalize("NFC", page.get_text(flags=f))))
            for f in (flags, flags & ~pymupdf.TEXT_MEDIABOX_CLIP)
        )
        return whole - seen, seen - whole

    return _per_page(path, of_page)


def _encoding(
    p: int, reference: list[str], lost: list[Counter], invented: list[Counter], tally: Tally
) -> None:
    """pdftotext's words that our normaliser's mojibake repair (``chunking.normalise.mojibake``,
    the same function) rewrites in their line, against the words the repair gives: ``encoding``,
    only as many of each as the page lost and invented. On a page where the repair rewrote a line
    of pdftotext's, a lost word made only of the lead bytes of a no-break space, a Latin-1 letter
    or a punctuation mark as Latin-1 reads them (``_LEAD_BYTES``: ``Â``, ``Ã``, ``â``) is one too:
    pdftotext puts the rest of such a sequence apart or on a line of its own (``Â Â Â``, ``helpâ
    ˝``), where the line-by-line repair cannot see it."""
    rewritten = False
    for line in reference:
        fixed, count = repaired(line)
        if not count:
            continue
        rewritten = True
        before, after = Counter(w for w, _ in words([line])), Counter(w for w, _ in words([fixed]))
        gone, new = before - after, after - before
        for w, n in gone.items():
            k = min(n, lost[p][w])
            lost[p][w] -= k
            tally.lost["encoding"] += k
        for w, n in new.items():
            k = min(n, invented[p][w])
            invented[p][w] -= k
            tally.invented["encoding"] += k
    if rewritten:
        for w, n in list(lost[p].items()):
            if n > 0 and not w.strip(_LEAD_BYTES):
                lost[p][w] = 0
                tally.lost["encoding"] += n


_LEAD_BYTES = "\u00c2\u00c3\u00e2"
"""Bytes C2, C3 and E2 as Latin-1 reads them: the first byte of UTF-8's no-break space and Latin-1
letters, and of its general punctuation (``’``, ``—``, ``…``)."""


def _single_words(
    p: int, lost: list[Counter], invented: list[Counter], ours: list[list[str]], tally: Tally
) -> None:
    """One lost word for one invented word of the same page: a ligature or an accent read
    differently (``accent`` when ours has more accents, ``accent missing`` when pdftotext has;
    a dotless ``ı`` of pdftotext's where ours has the accented ``ì``, ``_dotless``);
    a lost fake-bold doubling (``TThhee``) of a word we have is de-duplication."""
    for w in list(lost[p]):
        for target in list(invented[p]):
            if lost[p][w] <= 0 or invented[p][target] <= 0:
                continue
            if _bare(w) != _bare(target) and not _dotless(w, target):
                continue
            if any(c in LIGATURES for c in w + target):
                cause = "ligature"
            else:
                cause = "accent missing" if _marks(w) > _marks(target) else "accent"
            k = min(lost[p][w], invented[p][target])
            lost[p][w] -= k
            invented[p][target] -= k
            tally.lost[cause] += k
            tally.invented[cause] += k
            tally.note(p, cause, [w] * k, [target] * k)
    mine = Counter(WORD.findall("\n".join(ours[p])))
    for w, n in list(lost[p].items()):
        if n > 0 and len(w) >= 4 and len(w) % 2 == 0 and w[::2] == w[1::2] and mine[w[::2]]:
            lost[p][w] = 0
            tally.lost["de-duplication"] += n


def pdftotext_pages(path: Path) -> tuple[list[list[str]], bytes]:
    """pdftotext's text of every page, as lines (pages split at form feeds), and its messages."""
    done = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(path), "-"],
        capture_output=True,
        timeout=PDFTOTEXT_TIMEOUT_S,
        check=True,
    )
    pages = done.stdout.decode("utf-8", "replace").split("\f")
    if pages and not pages[-1].strip():
        pages.pop()
    return [page.split("\n") for page in pages], done.stderr


def reference_failures(path: Path, pages: int, messages: bytes) -> set[int]:
    """0-based pages on which pdftotext reports a syntax error in the content (and so may have
    stopped reading the page). Its ``messages`` (stderr of the whole book's run) name a byte
    offset, not a page: only a book whose run reports one is read again page by page."""
    if _SYNTAX_ERROR not in messages:
        return set()
    failed = set()
    for index in range(pages):
        one = subprocess.run(
            ["pdftotext", "-f", str(index + 1), "-l", str(index + 1), str(path), "/dev/null"],
            capture_output=True,
            timeout=PDFTOTEXT_TIMEOUT_S,
            check=False,
        )
        if _SYNTAX_ERROR in one.stderr:
            failed.add(index)
    return failed


def measure(path: Path) -> tuple[Tally, list[str]]:
    """The fidelity tally of one PDF and our reader's warnings for it."""
    from chunking.normalise import normalise
    from chunking.readers import read_raw

    raw = read_raw(path.read_bytes(), path.name)
    try:
        norm = normalise(raw.pages)
        warnings = list(raw.warnings)
    finally:
        raw.close()
    ours = [norm.text[p.char_start : p.char_end].split("\n") for p in norm.pages]
    reference, messages = pdftotext_pages(path)
    if len(reference) != len(ours):
        raise RuntimeError(f"{path.name}: pdftotext gives {len(reference)} pages, we read {len(ours)}")
    raw_lines = [page.text.split("\n") for page in raw.pages]
    furniture = edge_furniture(reference, raw_lines)
    ref, mine = [], []
    for p, (theirs, lines) in enumerate(zip(reference, ours)):
        if raw.pages[p].ocr:
            # NOTE: an OCR'd page has no usable text layer, and pdftotext reads that same layer:
            # no reference for it (OCR's own accuracy is bench/ocr.py's)
            ref.append([])
            mine.append([])
            continue
        a, b = drop_furniture_alike(theirs, lines, furniture, p, raw_lines[p])
        ref.append(a)
        mine.append(b)
    failed = reference_failures(path, len(reference), messages)
    alone = [dropped_alone(theirs, kept) for theirs, kept in zip(reference, ref)]
    tally = classify(
        ref,
        mine,
        norm.furniture,
        failed,
        slanted_words(path),
        math_italic_words(path),
        clipped_words(path),
        tracked_words(path),
        symbol_letters(path),
        unspaced_words(path),
        shifted_words(path),
        alone,
        script_words(path),
        glyph_id_maps(path),
        drawn_apart_words(path),
        stacked_words(path),
    )
    return tally, warnings


def bench_pdfs() -> list[Path]:
    """Every bench PDF: the sample books and the cached corpus, extra and validation books."""
    import corpus

    found = sorted(corpus.SAMPLES.glob("*.pdf"))
    for folder in ("corpus", "extra-books", "validation-books"):
        found += sorted((corpus.CACHE / folder).glob("*.pdf"))
    return found


def recorded_over(percent: float, doc: Path = HERE / "FIDELITY.md") -> set[str]:
    """The books whose lost or invented share in ``doc``'s table is above ``percent``."""
    names = set()
    for line in doc.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > 3 and cells[2].endswith("%") and cells[3].endswith("%"):
            if max(float(cells[2][:-1]), float(cells[3][:-1])) > percent:
                names.add(cells[0])
    names.discard("**all**")
    return names


def select(paths: list[Path], only: str = "", over: float | None = None) -> list[Path]:
    """The PDFs ``--only`` (pieces of their names) and ``--over`` (their recorded shares) keep."""
    pieces = [p for p in only.split(",") if p]
    if pieces:
        paths = [p for p in paths if any(x in p.name for x in pieces)]
    if over is not None:
        keep = recorded_over(over)
        paths = [p for p in paths if p.name in keep]
    return paths


def _share(n: int, total: int) -> str:
    return f"{100 * n / max(total, 1):.2f}%"


def table(rows: list[tuple[str, Tally]]) -> str:
    head = "| book | words | lost | invented | " + " | ".join(f"lost: {c}" for c in CAUSES) + " |"
    lines = [head, "|" + "---|" * (4 + len(CAUSES))]
    for name, t in rows:
        lost = sum(n for c, n in t.lost.items() if c not in NOT_LOST)
        inv = sum(n for c, n in t.invented.items() if c not in NOT_LOST)
        causes = " | ".join(f"{t.lost[c]}/{t.invented[c]}" for c in CAUSES)
        lines.append(f"| {name} | {t.words} | {_share(lost, t.words)} | {_share(inv, t.words)} | {causes} |")
    return "\n".join(lines)


def show(name: str, tally: Tally, cause: str = "") -> None:
    """Print the counted differences of one book, page by page (1-based), to stderr."""
    for p, why, lost, invented in tally.seen:
        if not cause or why == cause:
            print(f"{name} p{p + 1} {why}: -[{lost}] +[{invented}]", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--write", action="store_true", help="rewrite bench/FIDELITY.md's table")
    parser.add_argument(
        "--show",
        action="store_true",
        help="print to stderr, per book and page, the counted lost/invented words",
    )
    parser.add_argument("--cause", default="", help="with --show: only the differences of this cause")
    parser.add_argument(
        "--only",
        default="",
        help="comma-separated pieces of file names: only the bench PDFs whose name holds one",
    )
    parser.add_argument(
        "--over",
        type=float,
        default=None,
        metavar="PERCENT",
        help="only the bench PDFs whose lost or invented share in bench/FIDELITY.md's table is above PERCENT",
    )
    args = parser.parse_args(argv)
    partial = bool(args.only or args.over is not None or args.pdfs)
    if shutil.which("pdftotext") is None:
        print("fidelity: pdftotext not found; install poppler-utils (make poppler)", file=sys.stderr)
        return 2
    rows: list[tuple[str, Tally]] = []
    total = Tally()
    for path in select(args.pdfs or bench_pdfs(), args.only, args.over):
        tally, warnings = measure(path)
        rows.append((path.name, tally))
        total.add(tally)
        if args.show:
            show(path.name, tally, args.cause)
        for w in warnings:
            if "repaired" in w or "damaged" in w:
                print(f"{path.name}: {w}", file=sys.stderr)
    rows.append(("**all**", total))
    out = table(rows)
    print(out)
    if args.write:
        doc = HERE / "FIDELITY.md"
        text = doc.read_text(encoding="utf-8") if doc.exists() else ""
        start, end = "<!-- table -->\n", "\n<!-- /table -->"
        if start in text and end in text:
            old = text[text.index(start) + len(start) : text.index(end)]
            if partial:
                merged = recorded_rows(old)
                if merged is None:
                    parser.error("--write with a selection needs a table of the same causes to update")
                out = table(_merged(merged, rows[:-1]))
            text = text[: text.index(start) + len(start)] + out + text[text.index(end) :]
            doc.write_text(text, encoding="utf-8")
    return 0


def recorded_rows(table_text: str) -> list[tuple[str, Tally]] | None:
    """The per-book rows of a table ``table`` wrote, read back (the ``**all**`` row left out);
    None when its columns are not this version's causes."""
    lines = table_text.strip().splitlines()
    if not lines or lines[0] != table([]).splitlines()[0]:
        return None
    rows = []
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "**all**":
            continue
        t = Tally(words=int(cells[1]))
        for cause, cell in zip(CAUSES, cells[4:]):
            lost, invented = cell.split("/")
            t.lost[cause], t.invented[cause] = int(lost), int(invented)
        t.lost, t.invented = +t.lost, +t.invented
        rows.append((cells[0], t))
    return rows


def _merged(recorded: list[tuple[str, Tally]], measured: list[tuple[str, Tally]]) -> list[tuple[str, Tally]]:
    """``recorded`` rows with the ``measured`` books' rows in their place (new books at the end),
    and the ``**all**`` row summed again over them."""
    fresh = dict(measured)
    rows = [(name, fresh.pop(name, t)) for name, t in recorded] + list(fresh.items())
    total = Tally()
    for _, t in rows:
        total.add(t)
    return rows + [("**all**", total)]


if __name__ == "__main__":
    raise SystemExit(main())
