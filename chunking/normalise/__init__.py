"""Stage 2 (normalise): raw pages → one canonical text, ``Page`` spans and an offset map.

The package: this module (per-character and per-line clean-up, the canonical text), ``furniture``
(running headers, footers and folios found and removed) and ``folios`` (printed page numbers
fitted into runs, which label the pages).

Contract (see ``chunking.models`` for the offset conventions):

* Per character: CRLF/CR → LF; overstrikes resolved (``X\\bY`` → ``Y``: bold and underline in
  nroff text, counted with the control characters); a terminal's escape sequences removed whole
  (``ESC[1m``, an OSC 8 hyperlink: ``chunking.normalise.terminal``, counted with the control
  characters); control characters other than ``\\n``/``\\t`` removed; NFC;
  ligatures (ﬁ ﬂ ﬀ ﬃ ﬄ ﬅ ﬆ) expanded; trailing whitespace cut from every line. None of these
  adds or removes a line break, so raw line *i* of a page is canonical line *i*.
* Per book: the printed folios are read from the page furniture and fitted into runs, which
  give pages without a source label their printed label and cross-check the source's labels
  (``chunking.folios``); running headers/footers, printer slugs and folios are removed, on
  printed pages only (``chunking.furniture``; a synthetic page has no furniture: its bare numbers
  are content) and exposed per page (``NormalisedBook.furniture``);
  words hyphenated across a line break, or from one printed page's last kept line to the next
  one's first, are joined when the joined word occurs elsewhere in the book, or when the right
  fragment is no word of its own there (``long-term`` survives; ``_dehyphenate``); the right
  fragment's whole token moves up, punctuation included. Across pages the token leaves the
  lower page for the upper one: page spans still tile the text and ``map_offset`` maps into the
  lower page's (shortened) first line. Leading/trailing blank lines of a page go.
* A line that was UTF-8 read as a single-byte encoding (``na\u00c3\u00afve``) decoded again
  (``mojibake``, ftfy's ``fix_encoding``), before anything else reads its characters.
* Spacing accents composed with their letter in the order TeX sets them (``Br¨oker`` →
  ``Bröker``; ``SPACING_ACCENTS_BEFORE``/``_AFTER``), when a precomposed character exists.
* ``c``/``r`` + U+20DD (combining enclosing circle) become ``©``/``®``: no precomposed form exists.
* Every removal is counted in ``NormalisedBook.counts``; nothing disappears silently.
* ``NormalisedBook.map_offset(page_index, raw_offset)`` maps a position in a raw page's text
  (e.g. an EPUB anchor) to the canonical text.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from itertools import accumulate

from ..models import Page
from ..readers.raw import RawPage
from .folios import choose_labels, infer_folios
from .furniture import PageNumbers, find_furniture, zones
from .mojibake import repaired
from .terminal import ESCAPE, sgr_bold_lines

LIGATURES = {"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"}
_LIGATURE_TABLE = str.maketrans(LIGATURES)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_OVERSTRIKE = re.compile(r"[^\n\x08]\x08")
"""A character struck over by the next one (``M\\bM`` bold, ``_\\bE`` underlined: nroff/groff
text for a terminal): the later character is the one a reader sees, as ``col -b`` keeps it."""
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BOLD_GLYPH = re.compile(r"([^\x08\n])(?:\x08\1)+")
"""A character struck over by itself: terminal bold (``M\\bM``)."""
MIN_BOLD_GLYPHS = 2
"""A line is set in bold when it holds at least this many bold glyphs and nothing else but spaces."""
_PUNCTUATION = "\"'“”‘’()[]{}<>.,;:!?*_/\\|`~"
_HYPHEN_TAIL = re.compile(r"([^\W\d_]+)[-\u00ad]$")
SOFT_HYPHEN = "\u00ad"
"""A discretionary hyphen: a typesetter writes it only where it broke a word at the line end
(``pro\u00ad`` / ``cess``), so the two pieces are always one word, whatever the book's
vocabulary says (a hard hyphen may join a compound, ``long-term``, so ``_joins`` decides)."""
_HYPHEN_HEAD = re.compile(r"^(([^\W\d_]+)\S*)\s*")
"""The right fragment of a hyphenated word: its whole token (group 1: ``spectively.``, ``iates),``,
which moves up punctuation and all) and the token's leading letters (group 2, the word part)."""
HYPHEN_PREFIXES = frozenset("non sub semi quasi meta multi pre post self anti co inter pseudo".split())
"""Prefixes that keep their hyphen before a word (``non-linear``) though they are no words."""
ENCLOSED = {"c\u20dd": "©", "C\u20dd": "©", "r\u20dd": "®", "R\u20dd": "®"}
"""A letter + U+20DD COMBINING ENCLOSING CIRCLE (LaTeX ``\\textcircled``) is a glyph most fonts
lack; NFC has no precomposed form, so map the two that mean a sign."""
_ENCLOSED = re.compile("[cCrR]\u20dd")

SPACING_ACCENTS_BEFORE = {
    "\u00a8": "\u0308",  # ¨ diaeresis
    "\u00b4": "\u0301",  # ´ acute
    "\u02c6": "\u0302",  # ˆ circumflex
    "\u02dc": "\u0303",  # ˜ tilde
    "\u00af": "\u0304",  # ¯ macron
    "\u02d8": "\u0306",  # ˘ breve
    "\u02d9": "\u0307",  # ˙ dot above
    "\u02da": "\u030a",  # ˚ ring above
    "\u02dd": "\u030b",  # ˝ double acute
    "\u02c7": "\u030c",  # ˇ caron
}
"""Spacing accents TeX's ``\\accent`` primitive sets *before* the letter (``Br¨oker``,
``Juh´asz``): the PDF holds the accent glyph, then the letter. Each maps to its combining mark,
at a word's start too (``´Etienne``; before a lowercase letter on a printed page only, and not a
tilde or a circumflex: ``´el`eve``, an accents table's ``¨o``, ``CODE_ACCENTS``).
ASCII ``^`` is left alone: code uses it. ASCII `````` is TeX's grave accent as MuPDF reads it
(the ``grave`` glyph of a TeX text font comes out as U+0060: ``pi`u``, ``pu`o``, ``sar`a``), but
code quotes with it too; so it composes only on a printed page, inside a word or on a lone
capital (``GRAVE_ACCENT``)."""
GRAVE_ACCENT = "`"
r"""TeX's ``\``` accent as MuPDF reads it from a TeX text font (U+0060, set before the letter).
Composed (``pi`u`` → ``più``, ``PI`U`` → ``PIÙ``, ```E`` → ``È``) only on a printed page (a PDF's:
TeX's ``\accent`` exists there only; a plain-text or Markdown source quotes code with it), and
only after a letter of the same word, before a capital that is a word by itself, or before a lone
``a``/``e`` (``è``, ``à``): a backtick opening a word (`````echo a`````, ```o``, ```e```) or ending
one is code or a quote, and stays."""
_GRAVE = re.compile(
    r"(?<=[^\W\d_])`(?=[^\W\d_])|(?<![^\W_])`(?=[^\W\d_a-z](?![^\W_]))|(?<![^\W_])`(?=[ae](?![\w`]))"
)
"""A backtick after a letter and before a letter, or before a lone capital at a word's start, or
before a lone ``a``/``e`` not closed by another backtick (``è``, ``à``: words of their own in
Italian and French; ```e``` is code)."""
SPACING_ACCENTS_BELOW = {"\u00b8": "\u0327", "\u02db": "\u0328"}
"""Cedilla ¸ and ogonek ˛, which TeX sets under the letter. ``\\c`` uses ``\\accent`` (accent
first: ``Fran¸cois``) on a letter of x-height (``X_HEIGHT``), else overlays the cedilla on the
letter drawn first (``C¸``); ``\\k`` always overlays (``a˛``). So a cedilla takes an x-height
letter after it, else the letter before it; an ogonek takes the letter before it."""
CODE_ACCENTS = frozenset("\u02dc\u02c6")
"""Spacing accents that open words of code: ``˜apat`` or ``ˆcntrl`` at a word's start is code
typeset with a spacing tilde or circumflex (a TeX ``\\~{}``), so these compose there only with a
capital (``˜Nandu``). Any other spacing accent opening a lowercase word composes with its letter
on a printed page (a PDF's: ``´el`eve``, TeX sets ``\\'e`` as the accent, then the ``e``), where
no code opens a word with one; not in plain text, where groff quotes with an acute (``´in``)."""
CIRCUMFLEX_VOWELS = frozenset("aeiou")
"""A spacing circumflex opening a word before one of these is an accent on a printed page
(``ˆetre``: French ``être``, TeX's ``\\^e``): code opens a word with a caret before a name
(``ˆcntrl``), a reader's text opens a word with ``â``, ``ê``, ``î``, ``ô``, ``û``."""


def _code_accent(accent: str, after: str) -> bool:
    """Whether ``accent`` opening a word before ``after`` may be code (``CODE_ACCENTS``): a tilde
    always, a circumflex unless a vowel follows (``CIRCUMFLEX_VOWELS``)."""
    return accent in CODE_ACCENTS and not (accent == "\u02c6" and after in CIRCUMFLEX_VOWELS)


X_HEIGHT = frozenset("acegmnopqrsuvwxyz")
"""Lowercase letters no taller than the x-height (TeX's ``\\ifdim\\ht=1ex`` test in ``\\c``)."""
_ACCENT = re.compile(f"[{''.join(SPACING_ACCENTS_BEFORE)}{''.join(SPACING_ACCENTS_BELOW)}]")
_DOTLESS = {"\u0131": "i", "\u0237": "j"}
"""TeX accents ``\\i``/``\\j`` (dotless i, j) above: ``¨ı`` is ``ï``."""


@dataclass
class NormalisedBook:
    """The canonical text and how it maps back to the raw pages.

    Attributes:
        text (str): the canonical text.
        pages (tuple[Page, ...]): one ``Page`` per raw page, spans over ``text``.
        lines (list[list[tuple[int, str]]]): per page, its kept lines as ``(offset in text, line)``
            in order; structure detection reads these.
        counts (Counter): removals by kind: ``control_chars``, ``ligatures``, ``header_lines``,
            ``footer_lines``, ``page_numbers``, ``dehyphenated``, ``accents_composed``,
            ``encoding_repaired`` (lines, not removals).
        furniture (list[list[str]]): per page, the texts of its removed header/footer lines and
            folios, stripped, in page order (top zone first). Structure detection may read the
            running header's content: where a header naming the chapter changes, a chapter starts.
        page_labels (str): where ``Page.label`` comes from: ``source`` (the reader's labels),
            ``inferred`` (printed folios, see ``chunking.folios``) or ``none``.
        inferred_labels (int): pages whose label is an inferred folio.
        warnings (list[str]): e.g. PDF labels that disagree with the printed folios.
        bold_lines (frozenset[int]): canonical offsets of the kept lines the source set wholly in
            terminal bold (overstruck ``X\\bX``, which overstrike resolution removes): a plain-text
            book's only typography.
    """

    text: str
    pages: tuple[Page, ...]
    lines: list[list[tuple[int, str]]]
    counts: Counter = field(default_factory=Counter)
    furniture: list[list[str]] = field(default_factory=list)
    page_labels: str = "none"
    inferred_labels: int = 0
    warnings: list[str] = field(default_factory=list)
    bold_lines: frozenset[int] = frozenset()
    _raw_texts: list[str] = field(default_factory=list, repr=False)
    _printed: list[bool] = field(default_factory=list, repr=False)
    _keep: list[list[int]] = field(default_factory=list, repr=False)
    _lead_cuts: dict[tuple[int, int], int] = field(default_factory=dict, repr=False)

    def map_offset(self, page_index: int, raw_offset: int) -> int:
        """Map a position in raw page ``page_index``'s text to an offset in ``text``.

        Args:
            page_index (int): 0-based index into ``pages``.
            raw_offset (int): position in that page's raw text.

        Returns:
            int: the canonical offset of that character, or of the next kept character when the
            line it sits on was removed; clamped to the page's span.
        """
        page = self.pages[page_index]
        kept = self.lines[page_index]
        if not kept:
            return page.char_start
        # NOTE: built on demand: only EPUB anchors need the map, and only a few pages of them.
        raw = self._raw_texts[page_index]
        raw_starts = [0] + [m.end() for m in _LINE_BREAK.finditer(raw)]
        line = bisect.bisect_right(raw_starts, raw_offset) - 1
        keep = self._keep[page_index]
        k = bisect.bisect_left(keep, line)
        if k >= len(keep):
            return page.char_end
        start, text = kept[k]
        if keep[k] != line:
            return start  # the line was removed: the next kept line's start
        raw_line = raw[raw_starts[line] : raw_offset]
        prefix = _char_normalise(raw_line, self._printed[page_index])[0]
        inner = min(max(0, len(prefix) - self._lead_cuts.get((page_index, line), 0)), len(text))
        return min(max(start + inner, page.char_start), page.char_end)


def _bold_lines(text: str) -> set[int]:
    """Indices of the lines of a raw page set wholly in terminal bold: every visible character
    struck over by itself (``B\\bBo\\bol\\bld``, as nroff and text browsers write bold for a
    terminal), at least ``MIN_BOLD_GLYPHS`` of them. Overstrike resolution removes the mark; this
    keeps what it said. Lines count as ``_char_normalise`` splits them."""
    out = set()
    for i, line in enumerate(_LINE_BREAK.sub("\n", text).split("\n")):
        if "\x08" in line and len(_BOLD_GLYPH.findall(line)) >= MIN_BOLD_GLYPHS:
            if not _BOLD_GLYPH.sub("", line).strip():
                out.add(i)
    return out


def printed_chars(text: str) -> str:
    """A printed page's line with the canonical text's characters: spacing accents composed,
    ligatures spelled out, NFC (``_char_normalise``), so that a line read from the page's layout
    meets its canonical line (``r´esum´e`` is ``résumé``)."""
    return _char_normalise(text, printed=True)[0] if not text.isascii() or "`" in text else text


def _char_normalise(text: str, printed: bool = False) -> tuple[str, int, int, int, int]:
    """Per-character steps; return the text, control characters removed, ligatures expanded,
    spacing accents composed (TeX's grave accent only on a ``printed`` page, ``GRAVE_ACCENT``)
    and lines repaired from UTF-8 read as a single-byte encoding (``mojibake``: before control
    characters go, since such a line's ``â\x80\x99`` is one ``’``)."""
    text = _LINE_BREAK.sub("\n", text) if "\r" in text else text
    text, repaired_lines = repaired(text)
    struck = 0
    if "\x08" in text:
        text, struck = _OVERSTRIKE.subn("", text)
    escapes = 0
    if "\x1b" in text:
        text, escapes = ESCAPE.subn("", text)
    text, controls = _CONTROL.subn("", text)
    controls += struck + escapes
    if "\u20dd" in text:
        text = _ENCLOSED.sub(lambda m: ENCLOSED[m.group(0)], text)
    accents = 0
    if printed and "`" in text:
        text, accents = _compose_graves(text)
    if not text.isascii():
        text, more = _compose_accents(text, printed)
        accents += more
    ligatures = sum(text.count(lig) for lig in LIGATURES) if not text.isascii() else 0
    if ligatures:
        text = text.translate(_LIGATURE_TABLE)
    if not text.isascii() and not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    return text, controls, ligatures, accents, repaired_lines


def _compose_accents(text: str, printed: bool = False) -> tuple[str, int]:
    """Compose each spacing accent with the letter TeX set it on (``¨o`` → ``ö``, ``c¸`` → ``ç``,
    see ``SPACING_ACCENTS_BEFORE``/``_BELOW``) when a precomposed character exists; an accent
    next to no such letter stays as it is. Returns the text and the number of accents composed.

    NOTE: the canonical text is built from this text and offsets are lengths of it, so a pair
    made one character moves no chunk off its text (``map_offset`` normalises the same way).
    """
    out: list[str] = []
    pos = composed = 0
    for m in _ACCENT.finditer(text):
        i = m.start()
        if i < pos:
            continue  # already composed with the letter before it
        accent = text[i]
        after = text[i + 1] if i + 1 < len(text) else ""
        before = text[i - 1] if i > pos else ""
        if accent in SPACING_ACCENTS_BEFORE:
            # NOTE: at a word's start before a lowercase letter only on a printed page, and never
            # a tilde or a circumflex (``CODE_ACCENTS``): ``˜apat``, ``ˆcntrl`` are code set with
            # a spacing accent; groff's plain text quotes with an acute (``´in``).
            inside = i > 0 and text[i - 1].isalpha()
            code = not inside and not after.isupper() and (_code_accent(accent, after) or not printed)
            letter = "" if code else _DOTLESS.get(after, after)
            single = _composed(letter, SPACING_ACCENTS_BEFORE[accent])
            start, end = i, i + 2
        else:
            mark = SPACING_ACCENTS_BELOW[accent]
            single = _composed(after, mark) if accent == "\u00b8" and after in X_HEIGHT else ""
            start, end = i, i + 2
            if not single:
                single, start, end = _composed(before, mark), i - 1, i + 1
        if single:
            out.append(text[pos:start])
            out.append(single)
            pos = end
            composed += 1
    if not composed:
        return text, 0
    out.append(text[pos:])
    return "".join(out), composed


def _compose_graves(text: str) -> tuple[str, int]:
    """TeX's grave accents (``GRAVE_ACCENT``) composed with the letter after them, where a
    precomposed character exists (``pi`u`` → ``più``, ``cos`ı`` → ``così``)."""
    out: list[str] = []
    pos = composed = 0
    for m in _GRAVE.finditer(text):
        if m.start() < pos:
            continue
        letter = text[m.end()]
        single = _composed(_DOTLESS.get(letter, letter), "\u0300")
        if single:
            out.append(text[pos : m.start()])
            out.append(single)
            pos = m.end() + 1
            composed += 1
    if not composed:
        return text, 0
    out.append(text[pos:])
    return "".join(out), composed


def _composed(letter: str, mark: str) -> str:
    """The one precomposed character of ``letter`` + combining ``mark``, else ``""``."""
    if not letter.isalpha():
        return ""
    single = unicodedata.normalize("NFC", letter + mark)
    return single if len(single) == 1 else ""


def normalise(raw_pages: list[RawPage]) -> NormalisedBook:
    """Build the canonical text of a book from its raw pages.

    Args:
        raw_pages (list[RawPage]): every page in order, as the reader returned them.

    Returns:
        NormalisedBook: canonical text, pages, kept lines and removal counts.
    """
    counts: Counter = Counter()
    page_lines: list[list[str]] = []
    texts: list[str] = []
    bold: list[set[int]] = []
    for raw in raw_pages:
        text, controls, ligatures, accents, repaired_lines = _char_normalise(raw.text, raw.typeset)
        counts["encoding_repaired"] += repaired_lines
        counts["control_chars"] += controls
        counts["ligatures"] += ligatures
        counts["accents_composed"] += accents
        texts.append(text)
        page_lines.append([line.rstrip() for line in text.split("\n")])
        bold.append(_bold_lines(raw.text) if "\x08" in raw.text else set())
        if "\x1b[" in raw.text:
            bold[-1] |= sgr_bold_lines(_LINE_BREAK.sub("\n", raw.text))

    # NOTE: synthetic pages have no zones, so they stay out of the folio runs and of the running
    # line counts too: a mixed book learns its furniture from its printed pages only.
    page_zones = [([], []) if raw.synthetic else zones(lines) for raw, lines in zip(raw_pages, page_lines)]
    folios = infer_folios(raw_pages, [top + bottom for top, bottom in page_zones], page_lines)
    labels = choose_labels(raw_pages, folios)
    numbers = PageNumbers([raw.label for raw in raw_pages], folios, labels)
    removed, furniture = find_furniture(page_lines, page_zones, numbers, counts)
    lead_cuts = _dehyphenate(page_lines, removed, texts, counts, [not raw.synthetic for raw in raw_pages])
    book = _assemble(raw_pages, labels.labels, page_lines, removed, lead_cuts, counts)
    book.bold_lines = frozenset(
        start
        for kept, keep, struck in zip(book.lines, book._keep, bold)
        if struck
        for (start, _), line in zip(kept, keep)
        if line in struck
    )
    book.furniture = furniture
    book.page_labels = labels.source
    book.inferred_labels = labels.inferred_pages
    book.warnings = list(labels.warnings)
    if counts["encoding_repaired"]:
        book.warnings.append(
            f"{counts['encoding_repaired']} lines were UTF-8 text read as a single-byte encoding"
            " (mojibake such as '\u00c3\u00a9' for '\u00e9'); they were decoded again"
        )
    return book


def _assemble(raw_pages, labels, page_lines, removed, lead_cuts, counts) -> NormalisedBook:
    parts: list[str] = []
    pages: list[Page] = []
    kept_lines: list[list[tuple[int, str]]] = []
    keeps: list[list[int]] = []
    offset = 0
    for index, raw in enumerate(raw_pages):
        lines = page_lines[index]
        gone = removed[index]
        keep = [i for i in range(len(lines)) if i not in gone] if gone else list(range(len(lines)))
        while keep and not lines[keep[0]].strip():
            keep.pop(0)
        while keep and not lines[keep[-1]].strip():
            keep.pop()
        kept: list[tuple[int, str]] = []
        if keep:
            if parts:
                offset += 1  # the "\n" between two non-empty pages belongs to neither
            start = offset
            texts = [lines[i] for i in keep]
            starts = accumulate((len(t) + 1 for t in texts[:-1]), initial=start)
            kept = list(zip(starts, texts))
            page_text = "\n".join(texts)
            parts.append(page_text)
            offset = start + len(page_text)
        else:
            start = offset
        pages.append(
            Page(
                number=raw.number,
                label=labels[index],
                char_start=start,
                char_end=offset,
                synthetic=raw.synthetic,
                source_doc=raw.source_doc,
                has_text_layer=raw.has_text_layer,
                ocr=raw.ocr,
                lost=raw.lost is not None,
            )
        )
        kept_lines.append(kept)
        keeps.append(keep)
    return NormalisedBook(
        text="\n".join(parts),
        pages=tuple(pages),
        lines=kept_lines,
        counts=counts,
        _raw_texts=[raw.text for raw in raw_pages],
        _printed=[raw.typeset for raw in raw_pages],
        _keep=keeps,
        _lead_cuts=lead_cuts,
    )


def _dehyphenate(
    page_lines: list[list[str]],
    removed: list[set[int]],
    texts: list[str],
    counts: Counter,
    printed: list[bool],
) -> dict[tuple[int, int], int]:
    """Join ``hyphen-`` + ``ated`` across a line break, also from the last kept line of a
    printed page to the first kept line of the next printed page.

    Rule (``_joins``): join when the book uses the joined word elsewhere; else keep the hyphen
    when the book uses the hyphenated form elsewhere (``long-term``), or when the right fragment
    is a word elsewhere in the book and so is the left one or it is a prefix
    (``well-``/``known``, ``non-``/``linear``, ``HYPHEN_PREFIXES``); else join (``ho-``/``moscedastic``,
    ``state-``/``ment``, ``affil-``/``iates``: a right fragment that is no word of its own). A
    soft hyphen at the line end (``pro\u00ad``/``cess``, ``SOFT_HYPHEN``) always joins.
    The right fragment's whole token (``spectively.``: its punctuation too) moves up to the end
    of the upper line, so line numbers stay stable and the text of a page stays on its page
    except that token. Returns, per page and line, how many characters were cut from the line's
    start (``map_offset`` reads them).
    """
    lead_cuts: dict[tuple[int, int], int] = {}
    candidates = []
    kept_per_page = []
    for index, lines in enumerate(page_lines):
        gone = removed[index]
        kept = [i for i in range(len(lines)) if i not in gone and lines[i].strip()]
        kept_per_page.append(kept)
        if "-\n" not in texts[index] and SOFT_HYPHEN not in texts[index]:
            continue
        for a, b in zip(kept, kept[1:]):
            if all(i in gone for i in range(a + 1, b)):  # a blank line between: a paragraph ends
                candidates.append((index, a, index, b))
    # NOTE: across pages only on printed pages: a synthetic page (TXT, EPUB) ends at a paragraph.
    for index in range(len(page_lines) - 1):
        if printed[index] and printed[index + 1] and kept_per_page[index] and kept_per_page[index + 1]:
            candidates.append((index, kept_per_page[index][-1], index + 1, kept_per_page[index + 1][0]))
    found = []
    for ia, a, ib, b in candidates:
        if page_lines[ia][a].endswith(("-", SOFT_HYPHEN)):
            tail = _HYPHEN_TAIL.search(page_lines[ia][a])
            head = _HYPHEN_HEAD.match(page_lines[ib][b])
            if tail and head and head.group(2)[0].islower():
                found.append((ia, a, ib, b, tail.group(1), head.group(2)))
    if not found:
        return lead_cuts
    vocabulary = _vocabulary(texts)
    as_fragment = Counter(right.casefold() for *_, right in found)
    for ia, a, ib, b, left, right in found:
        upper, lower = page_lines[ia], page_lines[ib]
        if not upper[a].endswith(SOFT_HYPHEN) and not _joins(left, right, vocabulary, as_fragment):
            continue
        if not upper[a].endswith(("-", SOFT_HYPHEN)) or not lower[b].startswith(right):
            continue  # an earlier join already changed one of these lines
        head = _HYPHEN_HEAD.match(lower[b])
        if head is None:  # never: the line starts with the letters of ``right``
            continue
        upper[a] = upper[a][:-1] + head.group(1)
        lower[b] = lower[b][head.end() :]
        lead_cuts[(ib, b)] = lead_cuts.get((ib, b), 0) + head.end()
        counts["dehyphenated"] += 1
    return lead_cuts


def _joins(left: str, right: str, vocabulary: Counter, as_fragment: Counter) -> bool:
    """Whether ``left-`` + ``right`` is one word broken by hyphenation (see ``_dehyphenate``).

    ``vocabulary`` counts every word of the book; a right fragment is always counted once per
    break it starts (``as_fragment``), so only counts beyond those mean "a word elsewhere".
    """
    joined, hyphenated = (left + right).casefold(), f"{left}-{right}".casefold()
    if vocabulary[joined]:
        return True
    if vocabulary[hyphenated]:
        return False
    head, tail = left.casefold(), right.casefold()
    right_is_word = vocabulary[tail] > as_fragment[tail]
    return not (right_is_word and (vocabulary[head] or head in HYPHEN_PREFIXES))


def _vocabulary(texts: list[str]) -> Counter:
    """Every word of the book, casefolded, without surrounding punctuation, with its count. The
    fragments around a break never spell the joined word, so they need not be left out."""
    # NOTE: page by page: one list of every word of the book would hold ~6x the text in memory.
    # The raw tokens are counted book-wide first (Counter.update of a list counts in C), so the
    # Python loop that strips punctuation runs once per distinct token, not once per page's.
    tokens: Counter = Counter()
    for text in texts:
        tokens.update(text.casefold().split())
    words: Counter = Counter()
    for token, n in tokens.items():
        words[token.strip(_PUNCTUATION)] += n
    return words
