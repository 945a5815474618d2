"""Stage 2 (normalise): raw pages → one canonical text, ``Page`` spans and an offset map.

Contract (see ``chunking.models`` for the offset conventions):

* Per character: CRLF/CR → LF; control characters other than ``\\n``/``\\t`` removed; NFC;
  ligatures (ﬁ ﬂ ﬀ ﬃ ﬄ ﬅ ﬆ) expanded; trailing whitespace cut from every line. None of these
  adds or removes a line break, so raw line *i* of a page is canonical line *i*.
* Per book: running headers/footers (lines repeated in the top or bottom lines of many pages,
  compared with the page's own printed number stripped) and bare page numbers are removed, on
  printed pages only (a synthetic page has no furniture: its bare numbers are content);
  words hyphenated across a line break are joined only when the joined word also occurs
  elsewhere in the book (so ``long-term`` survives). Leading/trailing blank lines of a page go.
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

from .models import Page
from .readers.raw import RawPage

LIGATURES = {"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"}
_LIGATURE_TABLE = str.maketrans(LIGATURES)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_PUNCTUATION = "\"'“”‘’()[]{}<>.,;:!?*_/\\|`~"
_HYPHEN_TAIL = re.compile(r"([^\W\d_]+)-$")
_HYPHEN_HEAD = re.compile(r"^([^\W\d_]+)(\s*)")
_ROMAN = re.compile(r"^(?=[ivxlcdm])m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
_PAGE_TOKEN = re.compile(
    r"^(?:page\s+)?[-–—|]?\s*([0-9]{1,4}|[ivxlcdm]{1,7})\s*[-–—|]?(?:\s+of\s+\d+)?$", re.I)
_NUMBER = re.compile(r"[0-9]{1,4}|[ivxlcdm]{1,7}", re.I)

_LETTERS = re.compile(r"[^\W\d_].*[^\W\d_].*[^\W\d_]")
"""A running header has words: at least three letters (``⇒``, ``|``, ``#t`` never are one)."""
_KEYWORD = re.compile(r"^(chapter|part|section|appendix|lecture|unit|book|volume)$", re.I)

ZONE_LINES = 3
"""How many non-empty lines at the top and at the bottom of a page can be header/footer lines."""

RUNNING_MIN_PAGES = 3
"""A zone line repeated on this many pages is a running header/footer."""

RUNNING_SHARE = 0.3
"""An unnumbered running line appears on at least this share of the pages from its first to its
last appearance (every page or every other page for real headers and footers)."""


@dataclass
class NormalisedBook:
    """The canonical text and how it maps back to the raw pages.

    Attributes:
        text (str): the canonical text.
        pages (tuple[Page, ...]): one ``Page`` per raw page, spans over ``text``.
        lines (list[list[tuple[int, str]]]): per page, its kept lines as ``(offset in text, line)``
            in order; structure detection reads these.
        counts (Counter): removals by kind: ``control_chars``, ``ligatures``, ``header_lines``,
            ``footer_lines``, ``page_numbers``, ``dehyphenated``.
    """

    text: str
    pages: tuple[Page, ...]
    lines: list[list[tuple[int, str]]]
    counts: Counter = field(default_factory=Counter)
    _raw_texts: list[str] = field(default_factory=list, repr=False)
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
        raw_line = raw[raw_starts[line]:raw_offset]
        prefix = _char_normalise(raw_line)[0]
        inner = min(max(0, len(prefix) - self._lead_cuts.get((page_index, line), 0)), len(text))
        return min(max(start + inner, page.char_start), page.char_end)


def _char_normalise(text: str) -> tuple[str, int, int]:
    """Per-character steps; return the text, control characters removed, ligatures expanded."""
    text = _LINE_BREAK.sub("\n", text) if "\r" in text else text
    text, controls = _CONTROL.subn("", text)
    ligatures = sum(text.count(lig) for lig in LIGATURES) if not text.isascii() else 0
    if ligatures:
        text = text.translate(_LIGATURE_TABLE)
    if not text.isascii() and not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    return text, controls, ligatures


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
    for raw in raw_pages:
        text, controls, ligatures = _char_normalise(raw.text)
        counts["control_chars"] += controls
        counts["ligatures"] += ligatures
        texts.append(text)
        page_lines.append([line.rstrip() for line in text.split("\n")])

    removed = _remove_headers_and_numbers(raw_pages, page_lines, counts)
    lead_cuts = _dehyphenate(page_lines, removed, texts, counts)
    return _assemble(raw_pages, page_lines, removed, lead_cuts, counts)


def _assemble(raw_pages, page_lines, removed, lead_cuts, counts) -> NormalisedBook:
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
        pages.append(Page(number=raw.number, label=raw.label, char_start=start, char_end=offset,
                          synthetic=raw.synthetic, source_doc=raw.source_doc,
                          has_text_layer=raw.has_text_layer))
        kept_lines.append(kept)
        keeps.append(keep)
    return NormalisedBook(text="\n".join(parts), pages=tuple(pages), lines=kept_lines, counts=counts,
                          _raw_texts=[raw.text for raw in raw_pages], _keep=keeps, _lead_cuts=lead_cuts)


class PageNumbers:
    """Decides whether a token is the printed number of a given page.

    A page's printed number is its label when the PDF defines one; otherwise it is learnt from
    the book: bare numbers in the top/bottom lines whose difference to the physical page number
    repeats on several pages (``326`` on physical page 336 → offset −10).
    """

    def __init__(self, raw_pages: list[RawPage], zones: list[list[int]], page_lines: list[list[str]]):
        offsets: Counter = Counter()
        for index, zone in enumerate(zones):
            for i in zone:
                for token in _number_tokens(page_lines[index][i]):
                    offsets[_token_offset(token, raw_pages[index].number)] += 1
        self.labels = [p.label.casefold() for p in raw_pages]
        self.numbers = [p.number for p in raw_pages]
        self.offsets = {key for key, n in offsets.items() if key is not None and n >= RUNNING_MIN_PAGES}

    def is_number_of(self, token: str, index: int) -> bool:
        """True when ``token`` (``"326"``, ``"iv"``) is the printed number of page ``index``."""
        token = token.casefold()
        if self.labels[index] and token == self.labels[index]:
            return True
        return _token_offset(token, self.numbers[index]) in self.offsets


def _page_token(line: str) -> str | None:
    m = _PAGE_TOKEN.match(line.strip())
    if not m:
        return None
    token = m.group(1)
    return token if token.isdigit() or _ROMAN.match(token.casefold()) else None


def _edge_numbers(text: str) -> list[tuple[str, str]]:
    """``(number, rest)`` for a number token at the start and/or the end of a line, unless the
    rest is a heading keyword (``Chapter 1``: that number is the chapter's, not the page's)."""
    out = []
    head = text.split(None, 1)
    if len(head) == 2 and _NUMBER.fullmatch(head[0]):
        out.append((head[0], head[1]))
    tail = text.rsplit(None, 1)
    if len(tail) == 2 and _NUMBER.fullmatch(tail[1]):
        out.append((tail[1], tail[0]))
    return [(n, rest) for n, rest in out if not _KEYWORD.match(rest)]


def _number_tokens(line: str) -> list[str]:
    """Tokens of a zone line that may be its page's number: the whole line, or a number at
    either end of it (``Chapter 12: Graphs 74``)."""
    token = _page_token(line)
    if token is not None:
        return [token]
    return [n for n, _ in _edge_numbers(line.strip())[:1] if n.isdigit() or _ROMAN.match(n.casefold())]


def _token_offset(token: str, number: int) -> tuple[str, int] | None:
    if token.isdigit():
        return ("arabic", int(token) - number)
    value = _roman_value(token.casefold())
    return ("roman", value - number) if value else None


def _roman_value(token: str) -> int:
    if not _ROMAN.match(token):
        return 0
    values = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
    total = 0
    for a, b in zip(token, token[1:] + " "):
        va, vb = values[a], values.get(b, 0)
        total += -va if va < vb else va
    return total


def _zones(lines: list[str]) -> tuple[list[int], list[int]]:
    nonempty = [i for i, line in enumerate(lines) if line.strip()]
    return nonempty[:ZONE_LINES], nonempty[-ZONE_LINES:][::-1] if len(nonempty) > ZONE_LINES else []


def _line_key(line: str, index: int, numbers: PageNumbers) -> str:
    """Compare running lines without the page's own number (``Chapter 12: Graphs 74``)."""
    text = line.strip()
    for number, rest in _edge_numbers(text)[:1]:
        if numbers.is_number_of(number, index):
            text = rest
    return " ".join(text.casefold().split())


def _remove_headers_and_numbers(raw_pages, page_lines, counts) -> list[set[int]]:
    """Mark running headers/footers and bare page numbers for removal; count them by kind.

    Synthetic pages (cut by the reader: EPUB without a page-list, text, Markdown) have no printed
    furniture, so they have no zones: a bare number there is content (an EPUB footnote label).
    """
    # NOTE: leaving synthetic pages out of the zones also keeps them out of PageNumbers and of
    # the running-line counts, so a mixed book learns its furniture from printed pages only.
    zones = [([], []) if raw.synthetic else _zones(lines) for raw, lines in zip(raw_pages, page_lines)]
    numbers = PageNumbers(raw_pages, [top + bottom for top, bottom in zones], page_lines)
    top_keys: list[dict[int, str]] = []
    bottom_keys: list[dict[int, str]] = []
    seen: dict[str, Counter] = {"top": Counter(), "bottom": Counter()}
    span: dict[str, dict[str, list[int]]] = {"top": {}, "bottom": {}}  # key -> [first, last] page
    for index, (top, bottom) in enumerate(zones):
        lines = page_lines[index]
        tk = {i: _line_key(lines[i], index, numbers) for i in top}
        bk = {i: _line_key(lines[i], index, numbers) for i in bottom if i not in tk}
        top_keys.append(tk)
        bottom_keys.append(bk)
        seen["top"].update(set(tk.values()))
        seen["bottom"].update(set(bk.values()))
        for where, keys in (("top", tk), ("bottom", bk)):
            for key in keys.values():
                span[where].setdefault(key, [index, index])[1] = index

    removed: list[set[int]] = [set() for _ in page_lines]
    for index in range(len(page_lines)):
        lines = page_lines[index]
        edges = (("top", top_keys, "header_lines"), ("bottom", bottom_keys, "footer_lines"))
        for where, keys, counter in edges:
            zone = keys[index]
            order = list(zone)  # from the page edge inwards
            numbered = {p for p, i in enumerate(order) if _is_page_number(lines[i], index, numbers)}
            headers_before = False
            keys_gone: set[str] = set()  # a header printed above the same heading: keep the heading
            for p in sorted(numbered):
                if p <= 1:  # the page's own number as the first or second line from the edge
                    removed[index].add(order[p])
                    counts["page_numbers"] += 1
            for p, i in enumerate(order):
                if p in numbered:
                    if i not in removed[index]:
                        removed[index].add(i)
                        counts["page_numbers"] += 1
                    continue
                key = zone[i]
                n = seen[where][key]
                embedded = key != " ".join(lines[i].casefold().split())
                adjacent = embedded or (p - 1) in numbered or (p + 1) in numbered
                near = any(key in keys[j].values() for j in (index - 2, index - 1, index + 1, index + 2)
                           if 0 <= j < len(keys))
                prev = any(key in keys[j].values() for j in (index - 2, index - 1) if j >= 0)
                # NOTE: a line next to the page's own number that recurs on a neighbouring page
                # is a running header (``326`` / ``12. System Operations``, ``x`` / ``Preface``).
                # Without a number it must be the outermost line and recur on RUNNING_MIN_PAGES
                # pages; a header must also not open its run, because the first page of a run
                # is where the chapter heading itself stands (footers have no such page), and
                # it must fill its stretch of pages (a content line such as ``libraries:
                # (chezscheme)`` that ends a page now and then does not).
                # Anything else ends the header block.
                run = prev if where == "top" else near
                numbered_header = adjacent and n >= 2 and near
                first, last = span[where][key]
                dense = n >= RUNNING_SHARE * (last - first + 1)
                bare_header = not headers_before and n >= RUNNING_MIN_PAGES and run and dense
                if key not in keys_gone and _LETTERS.search(key) and (numbered_header or bare_header):
                    removed[index].add(i)
                    counts[counter] += 1
                    headers_before = True
                    keys_gone.add(key)
                    continue
                break
    return removed


def _is_page_number(line: str, index: int, numbers: PageNumbers) -> bool:
    token = _page_token(line)
    return token is not None and numbers.is_number_of(token, index)


def _dehyphenate(page_lines: list[list[str]], removed: list[set[int]], texts: list[str],
                 counts: Counter) -> dict[tuple[int, int], int]:
    """Join ``hyphen-`` + ``ated`` across a line break when ``hyphenated`` occurs elsewhere.

    The right fragment moves up to the end of the upper line, so line numbers stay stable.
    Returns, per page and line, how many characters were cut from the line's start.
    """
    lead_cuts: dict[tuple[int, int], int] = {}
    candidates = []
    for index, lines in enumerate(page_lines):
        if "-\n" not in texts[index]:
            continue
        gone = removed[index]
        kept = [i for i in range(len(lines)) if i not in gone]
        for a, b in zip(kept, kept[1:]):
            if lines[a].endswith("-"):
                tail = _HYPHEN_TAIL.search(lines[a])
                head = _HYPHEN_HEAD.match(lines[b])
                if tail and head and head.group(1)[0].islower():
                    candidates.append((index, a, b, tail.group(1), head.group(1)))
    if not candidates:
        return lead_cuts
    vocabulary = _vocabulary(texts)
    for index, a, b, left, right in candidates:
        if (left + right).casefold() not in vocabulary:
            continue
        lines = page_lines[index]
        if not lines[a].endswith("-") or not lines[b].startswith(right):
            continue  # an earlier join already changed one of these lines
        cut = _HYPHEN_HEAD.match(lines[b]).end()
        lines[a] = lines[a][:-1] + right
        lines[b] = lines[b][cut:]
        lead_cuts[(index, b)] = lead_cuts.get((index, b), 0) + cut
        counts["dehyphenated"] += 1
    return lead_cuts


def _vocabulary(texts: list[str]) -> set[str]:
    """Every word of the book, casefolded, without surrounding punctuation. The fragments
    around a break never spell the joined word, so they need not be left out."""
    # NOTE: page by page: one list of every word of the book would hold ~6x the text in memory.
    tokens: set[str] = set()
    for text in texts:
        tokens.update(text.casefold().split())
    return {token.strip(_PUNCTUATION) for token in tokens}
