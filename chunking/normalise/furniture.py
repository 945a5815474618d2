"""Page furniture: running headers, footers, printer slugs and folios in the top/bottom lines.

What is true of furniture in general, and what these rules use:

* it sits in the **zone**: the first or last ``ZONE_LINES`` non-empty lines of a printed page
  (synthetic pages, cut by a reader, have no furniture);
* it **recurs on a dense share of a stretch of consecutive pages**, compared with digits masked
  (``x.indd 12 2/3/2020 10:12 AM``, ``Book / No 117 / 3 Jan 2020``: page numbers, dates and times
  vary) and with the page's own folio stripped (``Chapter 12: Graphs 74``);
* its varying numbers vary **like furniture**: from one occurrence to the next each number stays
  the same (a date, a chapter number) or advances with the page (a folio, a slug's page number);
  body lines that differ only in their numbers (``Line 12 …``, ``(%i12)``) do neither;
* it is **not common text**: a line that also stands often in the body of pages (a code line, a
  definition's ``libraries: (chezscheme)``) recurs because the book says it often.

A furniture line is removed wherever it sits in its zone, also below a line that is not furniture.
Two guards keep body text: a zone holds one running *title* (a second recurring line under it is
content, e.g. a definition's first line, unless it is *constant*: in the same zone on nearly every
page of the book, or of its left- or right-hand pages, which a body line never is), and a
top-zone title is kept on the first page of its
run, because that is where the heading it repeats stands (unless the heading stands lower on that
page: a chapter opening mid-page under its own running header). Keys keep their case: a header is
usually set in another case than its heading (``STORAGE MANAGEMENT`` over ``Storage
Management``), so the heading never joins the header's run. A bare number is removed only when it
is the page's folio (``chunking.folios``), and only once per page: a chapter number ``1`` above
the title stays when the page prints its folio elsewhere (the bottom one goes).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass

from ..rules import KEYWORD_ALTERNATION, ROMAN_PATTERN, SENTENCE_FINAL
from .folios import Folios, Labels, edge_numbers, page_token

_NOT_WORD = re.compile(r"[^\w]+")

ZONE_LINES = 3
"""How many non-empty lines at the top and at the bottom of a page can be header/footer lines."""

RUNNING_MIN_PAGES = 3
"""A zone line repeated on this many pages is a running header/footer."""

RUNNING_SHARE = 0.3
"""A running line appears on at least this share of the pages from its first to its last
appearance (every page or every other page for real headers and footers)."""

TITLE_DEPTH = 1
"""A running title may sit below this many other lines of its zone (a one-off line, a wrapped
slug): furniture is printed at the page edge, and a recurring line deeper in is content."""

OUTSIDE_MIN_PAGES = 2
"""Pages on which a numbered line shape must stand right outside the folio to be a header there:
the place (nothing but it between the folio and the edge) is the strong part of the evidence."""

NEAR_PAGES = 2
"""A running line recurs within this many pages (every other page for left/right headers)."""

SLOT_SHARE = 0.6
"""A number of a running line stays the same or advances with the page from one occurrence to
the next at least this often (dates, chapter numbers, folios, slug page numbers)."""

SLOT_BAD_SHARE = 1 / 3
"""At most this share of a line's numbers may vary otherwise (a slug's print time)."""

SLUG_CONSTANT_SLOTS = 3
"""A running line with this many fixed numbers carries a print date/time: a printer's slug. It
may hold one number advancing with the page (its page counter), is never a heading and is
furniture besides the zone's running title."""

CONSTANT_SHARE = 0.8
"""A zone line standing in the same zone, its digits aside, on this share of a book's printed
pages, or of its left-hand or of its right-hand pages (a verso's running head), is the book's
constant furniture: its title, a manual's name, a print date, the parts of a three-part header
that the text layer splits into lines (``TOOL(1)`` / ``General Commands Manual`` / ``TOOL(1)``)."""

CONSTANT_MIN_PAGES = 5
"""Pages a constant line must stand on: on fewer, a recurring body line looks the same."""

COMMON_SHARE = 0.5
"""A line that stands in page bodies more often than this share of its zone appearances (plus
``COMMON_SLACK``) is common text, not furniture."""

COMMON_SLACK = 2
"""Body occurrences any running line may have anyway (its heading, a contents entry)."""

_LETTERS = re.compile(r"[^\W\d_].*[^\W\d_].*[^\W\d_]")
"""A running header has words: at least three letters (``⇒``, ``|``, ``#t`` never are one)."""
_DIGITS = re.compile(r"\d+")
_LABEL = re.compile(r"[^\W\d_]{1,3}\.?")
"""A short label a page prints before or after its own number (``No 15``, ``S. 15``, ``p 15``):
with the number stripped as the page's folio, a key too short for a running title's words, yet
the line is furniture where it stands on nearly every page (``_constant_lines``)."""
_HEADING_LABEL = re.compile(
    rf"^(?:{KEYWORD_ALTERNATION})(?:\s+(?:\d{{1,3}}|[A-Z]|{ROMAN_PATTERN}))?\.?$",
    re.I,
)
"""A line that is only a heading keyword (and its number): the first line of a stacked heading
(``CHAPTER`` / ``ONE`` / ``Title``), never a running header, which names a chapter or section. On a
book of short chapters it recurs on pages close together, like furniture."""
_LABEL_SHAPE = re.compile(rf"[^\W\d_]+\s+(?:\d{{1,3}}|[A-Z]|(?i:{ROMAN_PATTERN}))\.?")
"""A word and a number, in any language (``CHAPTER 2.``, ``CAPITOLO 2.``, ``KAPITEL 3``): the first
line of a header set on two lines over the title it names."""
_SENTENCE = re.compile(rf"^[^\W\d_A-Z].*[{re.escape(SENTENCE_FINAL)},;:]$")
"""The tail of a sentence (``as part of the memoir class.``): body text, however often it recurs;
a running title does not start in lower case and end with sentence-final punctuation
(``rules.SENTENCE_FINAL``) or ``, ; :``."""
_SHAPE = re.compile(r"^(?:[^\W\d_]+\s+)?(?:\d+|[A-Z])(?:[.:]\d+)*[.:]?(?=\s)")
"""The numbered start of a header line: ``CHAPTER 3.``, ``1.4.``, ``Chapter 12:``, ``A.2.``."""
_SECTION_NUMBER = re.compile(r"\d{1,3}(?:\.\d{1,3})+\.?")
"""A bare section number (``10.2.``): the first line of a section's header set on two lines."""
_SHAPE_NUMBER = re.compile(r"\d+|\b[A-Z]\b")
_KEYWORD_WORD = re.compile(rf"^(?:{KEYWORD_ALTERNATION})\b", re.I)


class PageNumbers:
    """Decides whether a token is the printed number of a given page: its source label or the
    folio its run predicts (``chunking.folios``); a number fitting no page sequence is content."""

    def __init__(self, source_labels: list[str], folios: Folios, labels: Labels):
        self.accepted = [
            {x.casefold() for x in (s, f, c) if x}
            for s, f, c in zip(source_labels, folios.inferred, labels.labels)
        ]

    def is_number_of(self, token: str, index: int) -> bool:
        """True when ``token`` (``"326"``, ``"iv"``) is the printed number of page ``index``."""
        return token.casefold() in self.accepted[index]


def zones(lines: list[str]) -> tuple[list[int], list[int]]:
    """Indices of the top zone lines (from the top down) and bottom zone lines (from the bottom up)."""
    nonempty = [i for i, line in enumerate(lines) if line.strip()]
    top = nonempty[:ZONE_LINES]
    return top, [i for i in nonempty[-ZONE_LINES:][::-1] if i > top[-1]] if top else []


@dataclass
class _Line:
    index: int
    pos: int  # 0 = at the page edge
    folio: bool  # a bare line that is this page's folio
    embedded: bool  # this page's folio stands at an end of the line
    exact: str  # whitespace collapsed, folio stripped, case kept
    masked: str  # ``exact`` with every digit run as ``#``
    digits: tuple[int, ...]


def _zone_line(line: str, line_index: int, index: int, pos: int, numbers: PageNumbers) -> _Line:
    text = line.strip()
    token = page_token(text)
    folio = token is not None and numbers.is_number_of(token, index)
    embedded = False
    if not folio:
        for number, rest in edge_numbers(text):
            if numbers.is_number_of(number, index):
                text, embedded = rest, True
                break
    exact = " ".join(text.split())
    found = _DIGITS.findall(exact)
    if not found:  # most zone lines of a book: no digit run to mask
        return _Line(line_index, pos, folio, embedded, exact, exact, ())
    return _Line(
        line_index, pos, folio, embedded, exact, _DIGITS.sub("#", exact), tuple(int(d[:9]) for d in found)
    )


def _running(pages: set[int], text: str) -> bool:
    """A line recurring on ``RUNNING_MIN_PAGES`` pages that fill ``RUNNING_SHARE`` of their span."""
    if len(pages) < RUNNING_MIN_PAGES or not _LETTERS.search(text):
        return False
    return len(pages) >= RUNNING_SHARE * (max(pages) - min(pages) + 1)


def _slug_pages(occurrences: list[tuple[int, tuple[int, ...]]], masked: str) -> set[int]:
    """Pages on which a digit-masked line is a printer's slug: a dense stretch of pages on which
    ``SLUG_CONSTANT_SLOTS`` of its numbers stay fixed and at most one advances with the page."""
    if "#" not in masked or len(occurrences) < RUNNING_MIN_PAGES:
        return set()
    first: dict[int, tuple[int, ...]] = {}
    for page, digits in occurrences:
        first.setdefault(page, digits)
    out: set[int] = set()
    stretch: list[tuple[int, tuple[int, ...]]] = []
    for item in sorted(first.items()) + [(10**9, ())]:
        if stretch and item[0] - stretch[-1][0] > NEAR_PAGES:
            pages = {p for p, _ in stretch}
            if _running(pages, masked) and _is_slug(stretch):
                out |= pages
            stretch = []
        stretch.append(item)
    return out


def _constant_lines(
    masked: dict[tuple[str, str], list[tuple[int, tuple[int, ...]]]], printed: list[int], labels: Counter
) -> dict[tuple[str, str], set[int]]:
    """Zone lines (by zone and digit-masked text) that are constant furniture (``CONSTANT_SHARE``
    of the ``printed`` pages, 0-based, or of those of one parity), with the pages to remove them
    from: all but the first, where a top line may be the title page's own title. A line without
    words counts only when its numbers never change (a print date); numbers that vary (``2.7``,
    ``10.3``, ``cv37=1``) are section numbers, table cells or a specimen's entries. A line with
    words counts only when its numbers vary like furniture (``_numbers_like_furniture``); so does
    a short label that stood beside its page's own folio wherever it stood (``_LABEL``, counted
    in ``labels``: ``No 15``, the folio stripped)."""
    out: dict[tuple[str, str], set[int]] = {}
    sides = [printed, [i for i in printed if i % 2 == 0], [i for i in printed if i % 2]]
    for (where, key), occurrences in masked.items():
        if _HEADING_LABEL.match(key) or _SENTENCE.match(key):
            continue
        label = labels[(where, key)] == len(occurrences) and _LABEL.fullmatch(key) is not None
        if (
            not _LETTERS.search(key)
            and not label
            and ("#" not in key or len({digits for _, digits in occurrences}) > 1)
        ):
            continue
        pages = {page for page, _ in occurrences}
        if len(pages) < CONSTANT_MIN_PAGES or not _numbers_like_furniture(occurrences):
            continue
        if any(side and len(pages.intersection(side)) >= CONSTANT_SHARE * len(side) for side in sides):
            out[(where, key)] = pages - {min(pages)} if where == "top" else pages
    return out


def _numbers_like_furniture(occurrences: list[tuple[int, tuple[int, ...]]]) -> bool:
    """Whether each number of a recurring line stays the same or advances with the page from one
    occurrence to the next (``SLOT_SHARE`` of the time): a chapter number, a date, a folio do;
    the numbers of a body line that recurs with other values (``Step 12 … 4``) do not."""
    series = sorted(dict(occurrences).items())
    pairs = [(a, b) for a, b in zip(series, series[1:]) if len(a[1]) == len(b[1])]
    return all(
        sum(db[s] == da[s] or db[s] - da[s] == pb - pa for (pa, da), (pb, db) in pairs)
        >= SLOT_SHARE * len(pairs)
        for s in range(len(series[0][1]) if pairs else 0)
    )


def _is_slug(series: list[tuple[int, tuple[int, ...]]]) -> bool:
    slots = len(series[0][1])
    pairs = [(a, b) for a, b in zip(series, series[1:]) if len(a[1]) == len(b[1]) == slots]
    if not pairs or slots < SLUG_CONSTANT_SLOTS:
        return False
    bad = advancing = constant = 0
    for s in range(slots):
        same = sum(1 for (pa, da), (pb, db) in pairs if db[s] == da[s])
        step = sum(1 for (pa, da), (pb, db) in pairs if db[s] - da[s] == pb - pa)
        constant += same >= SLOT_SHARE * len(pairs)
        advancing += same < SLOT_SHARE * len(pairs) <= step
        bad += same + step < SLOT_SHARE * len(pairs)
    # NOTE: body lines that differ only in their numbers (``Line 12 …``, ``(%i12)``) have
    # numbers that neither stay fixed nor advance with the page, or two that advance.
    return constant >= SLUG_CONSTANT_SLOTS and advancing <= 1 and bad <= SLOT_BAD_SHARE * slots


def find_furniture(
    page_lines: list[list[str]],
    page_zones: list[tuple[list[int], list[int]]],
    numbers: PageNumbers,
    counts: Counter,
) -> tuple[list[set[int]], list[list[str]]]:
    """Mark furniture lines for removal and count them (``header_lines``, ``footer_lines``,
    ``page_numbers``).

    Returns:
        tuple[list[set[int]], list[list[str]]]: per page, the indices of the removed lines, and
        their texts in page order (top zone first).
    """
    lines_of: list[dict[str, list[_Line]]] = []
    masked: dict[tuple[str, str], list[tuple[int, tuple[int, ...]]]] = defaultdict(list)
    exact: dict[tuple[str, str], set[int]] = defaultdict(set)
    folded: dict[tuple[str, str], set[int]] = defaultdict(set)  # a header after its heading's page
    # NOTE: where a line stands as a header would: by the folio, or the outermost line of its
    # zone (a contents page's first entry, a few lines down, is neither)
    beside: dict[tuple[str, str], set[int]] = defaultdict(set)
    labels: Counter = Counter()  # lines that stood beside their page's own folio, by zone and key
    for index, (top, bottom) in enumerate(page_zones):
        page = {}
        for where, indices in (("top", top), ("bottom", bottom)):
            page[where] = [
                _zone_line(page_lines[index][i], i, index, pos, numbers) for pos, i in enumerate(indices)
            ]
            folios = {zl.pos for zl in page[where] if zl.folio}
            outermost = True
            for zl in page[where]:
                if not zl.folio:
                    masked[(where, zl.masked)].append((index, zl.digits))
                    if zl.embedded:
                        labels[(where, zl.masked)] += 1
                    exact[(where, zl.exact)].add(index)
                    if zl.embedded or zl.pos - 1 in folios or zl.pos + 1 in folios or outermost:
                        beside[(where, zl.exact)].add(index)
                    if where == "bottom" or not _listed_entry(page_lines[index], zl.index, index):
                        folded[(where, zl.exact.casefold())].add(index)
                    outermost = False
        lines_of.append(page)
    running = {key for key, pages in exact.items() if _running(pages, key[1])}
    # NOTE: a slug is judged over both zones: on a page that is blank but for it, it is the top line.
    either: dict[str, list[tuple[int, tuple[int, ...]]]] = defaultdict(list)
    for (where, key), occ in masked.items():
        either[key].extend(occ)
    slugs = {key: found for key, occ in either.items() if (found := _slug_pages(occ, key))}
    common = _common_lines(page_lines, page_zones, lines_of)
    constant = _constant_lines(masked, [i for i, (top, _) in enumerate(page_zones) if top], labels)

    removed: list[set[int]] = [set() for _ in page_lines]
    for index, page in enumerate(lines_of):
        _remove_folio(page, removed[index], counts)
    outside = _outside_folio(lines_of, removed)
    for index, page in enumerate(lines_of):
        # NOTE: bottom lines that recur at the foot of other pages: a running footer, never the
        # heading a header repeats (``_stands_below``)
        footers = {zl.index for zl in page["bottom"] if len(exact[("bottom", zl.exact)]) >= 2}
        for where, counter in (("top", "header_lines"), ("bottom", "footer_lines")):
            zone = page[where]
            folio_pos = {zl.pos for zl in zone if zl.index in removed[index]}
            title_taken = False
            edge = 0  # folios and slugs between the line and the page edge
            label: _Line | None = None  # a heading label line just above, kept so far
            for zl in zone:
                if zl.index in removed[index]:
                    edge += 1
                    continue
                above, label = label, None
                pages = exact[(where, zl.exact)]
                slug = index in slugs.get(zl.masked, ())
                steady = index in constant.get((where, zl.masked), ()) and zl.exact not in common
                depth = zl.pos - edge  # other lines between it and the page edge
                if slug:
                    edge += 1
                adjacent = zl.embedded or (zl.pos - 1) in folio_pos or (zl.pos + 1) in folio_pos
                # NOTE: the outermost line beside the page's own folio that recurs on a
                # neighbouring page is a running header (``326`` / ``12. System Operations``) even
                # on two pages only, and so is a second one between the folio and the edge (``CONTENTS``
                # / ``Manual 5.4`` / ``5``); a line further in (``3.2 Title`` / ``45`` / body) is not.
                # On a neighbouring page before it, it stands by the folio or outermost there too
                # (``beside``): a contents page's first entry, a few lines down, repeats no header.
                beyond = bool(folio_pos) and zl.pos < min(folio_pos)  # between the folio and the edge
                numbered = (
                    adjacent
                    and (depth == 0 or beyond)
                    and zl.exact not in common
                    and _LETTERS.search(zl.exact)
                    and (
                        (
                            len(pages) >= 2
                            and _near(pages - _before(pages, index) | beside[(where, zl.exact)], index, True)
                        )
                        or _near(folded[(where, zl.exact.casefold())], index, False)
                    )
                )
                # NOTE: ``CHAPTER`` / ``Appendix B`` alone names nothing: it opens a stacked heading,
                # however often it recurs (short chapters); beside the folio it is a wrapped header.
                recurs = (
                    (where, zl.exact) in running
                    and zl.exact not in common
                    and not _SENTENCE.match(zl.exact)
                    and not _HEADING_LABEL.match(zl.exact)
                    and depth <= TITLE_DEPTH
                    and _near(pages, index, True)
                )
                if numbered or slug or steady or (index, zl.index) in outside:
                    take = True
                elif recurs and not title_taken:
                    # the first page of a header's run is where the heading it repeats stands,
                    # unless that heading stands lower on the page (a chapter opening mid-page
                    # under its own running header): then this line is the header
                    take = (
                        where == "bottom"
                        or _near(pages, index, False)
                        or _stands_below(page_lines[index], zl, footers)
                    )
                elif (
                    where == "top"
                    and depth == 0
                    and (len(pages) >= 2 or _SHAPE.match(zl.exact) is not None)
                    and not title_taken
                    and zl.exact not in common
                    and not _HEADING_LABEL.match(zl.exact)
                ):
                    # a header of a short chapter (on two pages only, too few to be a run; or on
                    # one, when it names a numbered heading) over the heading it names, lower on
                    # the page where the chapter opens mid-page
                    take = _stands_below(page_lines[index], zl, footers)
                elif (
                    above is not None
                    and above.pos == zl.pos - 1
                    and (above.embedded or above.pos - 1 in folio_pos)
                    and where == "top"
                    and not title_taken
                    and zl.exact not in common
                ):
                    # a header set on two lines beside the folio, ``CHAPTER 2.`` over the title, on
                    # the page where the chapter opens lower down under its heading: both lines
                    # are the header (a chapter's own opening, ``Chapter 14`` / ``Token Lists`` at
                    # the top of its page, has no folio beside it)
                    take = _stands_below(page_lines[index], zl, footers) or _stood_before(
                        page_lines, index, zl
                    )
                    if take:
                        removed[index].add(above.index)
                        counts[counter] += 1
                else:
                    take = False
                if not take:
                    label = zl if depth == 0 and _LABEL_SHAPE.fullmatch(zl.exact) else None
                    continue
                # NOTE: a label alone (``CHAPTER 4.``) is the first line of a header set on two
                # lines over its title, which may follow it as the zone's running title
                title_taken = title_taken or not (slug or _LABEL_SHAPE.fullmatch(zl.exact))
                removed[index].add(zl.index)
                counts[counter] += 1
    _split_headers(page_lines, lines_of, removed, common, exact, counts)
    furniture = [[page_lines[i][j].strip() for j in sorted(cut)] for i, cut in enumerate(removed)]
    return removed, furniture


def _split_headers(
    page_lines: list[list[str]],
    lines_of: list[dict[str, list[_Line]]],
    removed: list[set[int]],
    common: set[str],
    exact: dict[tuple[str, str], set[int]],
    counts: Counter,
) -> None:
    """Take the rest of a header the text layer splits into lines, where one of them was taken:
    the title under a label taken beside the folio (``CHAPTER 3.`` / ``FIRST STEPS``)
    when the heading it repeats stands on a page before (``_stood_before``: the first page of
    the header's run is then no heading's page); and a bare section number at the page edge
    outside a taken header line beside the folio (``10.2.`` / ``ERROR MESSAGES`` / ``23``),
    at the top of another page within ``NEAR_PAGES`` too: it names no heading on its own (a
    section number that stands once is a heading's)."""
    for index, page in enumerate(lines_of):
        cut = removed[index]
        folios = {zl.pos for zl in page["top"] if zl.index in cut}
        for outer, inner in zip(page["top"], page["top"][1:]):
            if inner.pos != outer.pos + 1 or outer.folio or inner.folio:
                continue
            if outer.index in cut and inner.index not in cut:
                take = (
                    (outer.embedded or outer.pos - 1 in folios)
                    and _LABEL_SHAPE.fullmatch(outer.exact) is not None
                    and inner.exact not in common
                    and not _SENTENCE.match(inner.exact)
                    and _stood_before(page_lines, index, inner)
                )
                line = inner
            else:
                take = inner.index in cut and outer.index not in cut and outer.pos == 0
                take = take and (inner.embedded or inner.pos + 1 in folios)
                take = take and _SECTION_NUMBER.fullmatch(outer.exact) is not None
                take = take and _near(exact[("top", outer.exact)], index, True)
                line = outer
            if take:
                cut.add(line.index)
                counts["header_lines"] += 1


def _stood_before(page_lines: list[list[str]], index: int, zl: _Line) -> bool:
    """Whether a line of one of the ``NEAR_PAGES`` pages before page ``index`` says what the
    top-zone line ``zl`` says, word for word (case, punctuation and quotes aside): the heading a
    header repeats, where the chapter opened lower on an earlier page."""
    key = _words(zl.exact)
    return bool(key) and any(
        _words(line) == key for q in range(max(0, index - NEAR_PAGES), index) for line in page_lines[q]
    )


def _words(text: str) -> list[str]:
    return _NOT_WORD.sub(" ", text.casefold()).split()


def _stands_below(lines: list[str], zl: _Line, footers: set[int]) -> bool:
    """Whether a line further down the page, not one of its running ``footers`` (line indices),
    says what the top-zone line ``zl`` says, word for word (case, punctuation and quotes aside):
    the heading a running header repeats, on the page where the chapter opens mid-page. A running
    footer that names the chapter under its heading at the top of the page is no such line."""
    key = _words(zl.exact)
    return bool(key) and any(
        _words(line) == key for k, line in enumerate(lines[zl.index + 1 :], zl.index + 1) if k not in footers
    )


def _keyword_class(m: re.Match) -> str:
    """``CHAPTER`` and ``APPENDIX`` headers share one shape (an appendix's header is printed in its
    chapters' style, often on a page or two only); the keyword's case stays part of the shape."""
    word = m.group(0)
    return "KW" if word.isupper() else "Kw" if word[:1].isupper() else "kw"


def _outside_folio(lines_of: list[dict[str, list[_Line]]], removed: list[set[int]]) -> set[tuple[int, int]]:
    """(page, line) of edge lines that are running headers by their place, printed once or not.

    The folio is furniture, so is the one line between it and the page edge (``CHAPTER 3.
    TITLE`` / ``17``), and an edge line that carries the folio itself (``Chapter 3: Title 17``),
    when the book prints such lines in that place with the same numbered shape (``CHAPTER #.``,
    ``#.#.``, ``Chapter #:``) on ``OUTSIDE_MIN_PAGES`` pages: a heading above a number that happens
    to equal the folio (``Contents`` / ``I``) has no numbered shape, or not that one.
    """
    found: list[tuple[int, str, _Line]] = []
    for index, page in enumerate(lines_of):
        lines = page["top"] + page["bottom"]
        last = max((zl.index for zl in lines), default=-1)
        for where, zone in page.items():
            folio = [zl for zl in zone if zl.index in removed[index]]
            if folio and folio[0].pos == 1 and not (where == "top" and folio[0].index == last):
                found.append((index, where, zone[0]))  # not a footer folio on a short page
            elif not folio and zone and zone[0].embedded:
                found.append((index, where, zone[0]))
    shapes: Counter[tuple[str, str]] = Counter()
    keyed = []
    for index, where, zl in found:
        m = _SHAPE.match(zl.exact)
        if m and _LETTERS.search(zl.exact):
            key = (where, _KEYWORD_WORD.sub(_keyword_class, _SHAPE_NUMBER.sub("#", m.group(0)), count=1))
            shapes[key] += 1
            keyed.append((index, zl.index, key))
    # NOTE: left and right pages often carry different shapes (``CHAPTER 3. TITLE`` / ``3.2.
    # SECTION``), and a section header may be printed on one page only: a shape seen once counts
    # when the book prints numbered lines in that place on more than OUTSIDE_MIN_PAGES pages.
    places: Counter[str] = Counter()
    for key, n in shapes.items():
        places[key[0]] += n
    return {
        (index, line)
        for index, line, key in keyed
        if shapes[key] >= OUTSIDE_MIN_PAGES or places[key[0]] > OUTSIDE_MIN_PAGES
    }


def _remove_folio(page: dict[str, list[_Line]], removed: set[int], counts: Counter) -> None:
    """A page prints its folio once: remove the bottom zone's match nearest the edge, else the top
    zone's; another bare line with the same number is content (a chapter number above a title)."""
    for where in ("bottom", "top"):
        for zl in page[where]:
            if zl.folio:
                removed.add(zl.index)
                counts["page_numbers"] += 1
                return


def _listed_entry(lines: list[str], i: int, index: int) -> bool:
    """Whether line ``i`` of page ``index`` (0-based) is a contents entry over the number of a
    later page (``Getting Started`` / ``3`` on page 2): the heading it names opens that page,
    where no header repeats it. A number not beyond the page (``List of Tables`` / ``1``, an
    entry's own number) says nothing."""
    below = lines[i + 1].strip() if i + 1 < len(lines) else ""
    return _ARABIC.fullmatch(below) is not None and int(below) > index + 1


_ARABIC = re.compile(r"[0-9]{1,4}")
"""A bare page number in ASCII digits (``str.isdigit`` takes a superscript ``¹`` too)."""


def _before(pages: set[int], index: int) -> set[int]:
    """The pages of ``pages`` before page ``index``."""
    return {page for page in pages if page < index}


def _near(pages: set[int], index: int, both: bool) -> bool:
    """True when ``pages`` holds a page within ``NEAR_PAGES`` before ``index`` (or after, if ``both``)."""
    return any(index - d in pages or (both and index + d in pages) for d in range(1, NEAR_PAGES + 1))


def _common_lines(page_lines, page_zones, lines_of) -> set[str]:
    """Exact texts of zone lines that also stand often in page bodies."""
    zone_count: Counter = Counter()
    for page in lines_of:
        for where, zone in page.items():
            for zl in zone:
                if not zl.folio:
                    zone_count[zl.exact] += 1
    body: Counter = Counter()
    for lines, (top, bottom) in zip(page_lines, page_zones):
        if not top:
            continue
        inner = set(top) | set(bottom)
        for i, line in enumerate(lines):
            if i not in inner:
                text = line.strip()
                if text in zone_count:
                    body[text] += 1
    return {text for text, n in body.items() if n > COMMON_SHARE * zone_count[text] + COMMON_SLACK}
