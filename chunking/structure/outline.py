"""Stage 3 (structure), outline: cross-check the source's own outline and repair it.

Contract: ``check_outline(raw, norm)`` turns PDF bookmarks (or EPUB nav entries) into heading
drafts and reports what it repaired and dropped. Outlines are not ground truth:

* each PDF entry's title is looked for on its page, as a line (fuzzy, rapidfuzz), and, when
  absent, on the pages up to ``SEARCH_PAGES`` away: found elsewhere → moved (repaired); found
  nowhere → dropped. Among several matching lines the one nearest the destination's y wins,
  so mid-page starts are mid-page;
* a ``Chapter 1`` / ``Appendix A`` / ``Part I`` line just above the title is part of the
  heading: the start moves up to it and it gives the kind and number;
* titles lose junk (control characters, dot leaders, page numbers);
* levels are rebuilt from what the entries are: parts at level 1 with chapters at level 2
  stay so; ``N.M`` sections that the outline put at the chapter level move down (repaired).

EPUB entries carry an exact offset into their spine document and are trusted for position.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass, replace

from rapidfuzz import fuzz

from ..normalise import NormalisedBook
from ..readers.layout import PageLayout
from ..readers.raw import OutlineEntry, RawBook
from ..rules import (
    CHAPTER_KEYWORDS,
    KEYWORD_ALTERNATION,
    KIND_KEYWORDS,
    ROMAN_LABEL,
    ROMAN_SMALL,
    keyword_alternation,
)
from .heading_lines import Draft, is_contents_page
from .kinds import (
    BACK_WORDS,
    LETTER_HEADING,
    NUMBER_RE,
    OBJECT_NUMBER,
    SECTION_HEADING,
    SECTION_NUMBER_ONLY,
    clean_title,
    number_value,
    parse_heading,
    title_like,
    words_key,
)

SEARCH_PAGES = 3
"""How far (in pages) an entry may point off its real page and still be repaired."""

GAP_PAGES = 40
"""An entry whose destination does not resolve is looked for on at most this many pages, from
its outline neighbour's page before it towards the one after it."""

FUZZY_MIN = 88
"""rapidfuzz ratio (0-100) above which a line counts as the entry's title."""

WINDOW_LINES = 4
"""A heading may run over this many lines (a label line, a title wrapped up to three times)."""

SHORT_TITLE = 4
"""Titles of at most this many characters must match a line exactly (a ratio means little)."""

FOLIO_GAP = 0.2
"""A folio this share of the page height or more away from the next line stands apart from it."""

EDGE_SHARE = 0.2
"""A destination this share of the page height away from an edge does not point at the edge line."""

PREFIX_TOP_LINES = 3
"""A heading found by its outline title's short form stands among a page's first lines..."""

PREFIX_Y_SLACK = 24.0
"""...or within this many points of the outline's destination (about two lines)."""

Y_SLACK = 6.0
"""Points above a destination's y a line top may sit and still be the line it points at."""

_LEADING_NUMBER = re.compile(rf"^(?:\d{{1,3}}|[A-Z]|{ROMAN_LABEL})(?:\.\d{{1,3}})*\.?\s+")
_KEYWORD_START = re.compile(rf"\s*(?:{keyword_alternation(KIND_KEYWORDS)})\s", re.I)
_LABEL_LINE = re.compile(
    rf"^({KEYWORD_ALTERNATION})\s+\S+$|^\d{{1,3}}(\.\d{{1,3}})*\.?$|"
    rf"^({keyword_alternation(CHAPTER_KEYWORDS)})$|^{ROMAN_LABEL}\.?$|^{NUMBER_RE}$|^[A-Z]\.?$",
    re.I,
)
"""A line that labels the heading under it (``Chapter 7``, ``Part I``, ``7``, ``CHAPTER`` / ``ONE``)."""

_ROMAN_TITLE = re.compile(rf"^(?P<num>{ROMAN_SMALL})\.?\s+(?P<title>[A-Z].*)$")
"""``II Plotting styles``: an outline title numbered in roman (a part, when its depth says so)."""

_LETTER_LABEL = re.compile(r"^([A-Z])\.?$")

_NUMBER_LABEL = re.compile(rf"(?P<num>{NUMBER_RE})\.?")
"""A chapter number standing alone on the line above its title, with or without a full stop."""

_ROMAN_LETTERS = frozenset("IVXLCDM")

_GLUED_NUMBER = re.compile(r"(?P<num>\d{1,3})(?P<rest>[^\W\d].*)")
"""A heading's number run into its title with no space (``10chart styles``): a layout that sets
the number in a box of fixed width, which two digits overfill. Read so only when the rest is the
outline's title word for word."""

MIN_GROUPS = 2
"""Group entries (``groups_folded``) a depth must hold before they are read as groups."""

_LABEL_LINES_ABOVE = 2
"""How many label lines may stack above a title (Sphinx: ``CHAPTER`` / ``ONE`` / ``Title``)."""


@dataclass
class OutlineResult:
    """Drafts with their outline nesting depth, plus repair/drop counts and warnings."""

    drafts: list[tuple[Draft, int]]
    entries: int
    repaired: int
    dropped: int
    warnings: list[str]
    unconfirmed: int = 0


COMPACT = "\x01"
"""Marks a key written without its spaces: the form a letter-spaced line (``I N T R O D U C T I
O N``, small capitals tracked out) and an outline title are compared in, and only with each
other (the spaces between words are lost in such a line)."""

LETTER_SPACED_SHARE = 0.6
"""A line is letter-spaced when at least this share of its (at least 4) tokens are one letter."""


def _letter_spaced(line: str) -> bool:
    tokens = line.split()
    return len(tokens) >= 4 and sum(len(t) == 1 for t in tokens) >= LETTER_SPACED_SHARE * len(tokens)


def _compact(key: str) -> str:
    return COMPACT + key.replace(" ", "")


def _title_variants(line: str) -> list[str]:
    """A line and the line without its leading number or keyword (``12 Title`` → ``Title``); a
    letter-spaced line also in compact form (``S O M E K I N D`` → ``somekind``). An object number
    after the title (``Usage 「12」``, ``OBJECT_NUMBER``) is no part of it, as it is none of the
    outline's title (``clean_title``): a short title would miss its line by those digits."""
    line = OBJECT_NUMBER.sub("", line)
    out = [words_key(line)]
    m = _LEADING_NUMBER.match(line.strip())
    if m:
        out.append(words_key(line.strip()[m.end() :]))
    if _letter_spaced(line):
        out += [_compact(key) for key in out]
    # NOTE: only a keyword heading (``Chapter 3: Title``) gives parse_heading a title that the
    # two variants above lack; its numbered and front/back titles repeat them. Skipping it on
    # every other line halves the cost of the variants without changing their set.
    if _KEYWORD_START.match(line):
        parsed = parse_heading(line)
        if parsed is not None and parsed.title:
            out.append(words_key(parsed.title))
    m = LETTER_HEADING.match(line.strip())
    if m:
        out.append(words_key(m.group("title")))
    return out


def _wanted(title: str) -> list[str]:
    """The keys an outline title may appear under: as is, and without its number or keyword;
    each also compact, for a letter-spaced line."""
    out = []
    for variant in _title_variants(title):
        if variant and variant not in out:
            out.append(variant)
    return out + [_compact(key) for key in out if not key.startswith(COMPACT)]


def _best(wants: list[str], variants: list[str]) -> float:
    """The best score of a want against a variant; scores below ``FUZZY_MIN`` count as 0.

    NOTE: every caller only compares scores with ``FUZZY_MIN`` or ranks scores above it, so
    rapidfuzz may stop early on a pair that cannot reach it (``score_cutoff``): the same
    decisions at a fraction of the cost on outline-heavy books.
    """
    best = 0.0
    for want in wants:
        for v in variants:
            if want.startswith(COMPACT) != v.startswith(COMPACT):
                continue  # a compact key meets only a compact key
            if len(want) <= SHORT_TITLE or len(v) <= SHORT_TITLE:
                score = 100.0 if want == v else 0.0
            else:
                score = fuzz.ratio(want, v, score_cutoff=FUZZY_MIN)
            if score > best:
                best = score
    return best


@functools.lru_cache(maxsize=1 << 14)
def is_label_line(line: str) -> bool:
    return _LABEL_LINE.match(line.strip()) is not None


def _may_continue(wants: list[str], variants: list[str], line: str) -> bool:
    """Whether a window holding ``line`` so far may take the next line too."""
    if is_label_line(line):
        return True
    return any(len(v) >= 3 and any(w.startswith(v) for w in wants) for v in variants)


class _Pages:
    """Per-page lookups shared by all entries of one outline, each computed once: the title
    variants of every line and, when needed, the PDF's line positions."""

    def __init__(self, norm: NormalisedBook, layout: PageLayout | None):
        self.norm = norm
        self.layout = layout
        self._variants: dict[int, list[list[str]]] = {}
        self._windows: dict[tuple[int, int, int], tuple[int, list[str]]] = {}
        self._tops: dict[int, dict[str, list[float]]] = {}
        self._line_tops: dict[int, list[float | None]] = {}
        self._contents: dict[int, bool] = {}

    def is_contents(self, index: int) -> bool:
        """Whether page ``index`` reads as a contents (or index) page: most lines end in a number."""
        if index not in self._contents:
            self._contents[index] = is_contents_page([line.strip() for _, line in self.norm.lines[index]])
        return self._contents[index]

    def window(self, index: int, i: int, k: int) -> tuple[int, list[str]]:
        """The key length and title variants of page ``index``'s lines ``i``..``k`` joined by
        spaces: the same for every entry that looks at the page, so computed once."""
        key = (index, i, k)
        if key not in self._windows:
            joined = " ".join(line for _, line in self.norm.lines[index][i : k + 1])
            self._windows[key] = (len(words_key(joined)), _title_variants(joined))
        return self._windows[key]

    def variants(self, index: int) -> list[list[str]]:
        if index not in self._variants:
            self._variants[index] = [_title_variants(line) for _, line in self.norm.lines[index]]
        return self._variants[index]

    def tops(self, index: int) -> dict[str, list[float]]:
        """Line tops (points from the page top) by line text key, in page order."""
        if index not in self._tops:
            by_key: dict[str, list[float]] = {}
            # NOTE: "blocks" costs what plain text costs ("dict" four times more); a line's
            # top is interpolated inside its block, which is exact for one-line headings.
            assert self.layout is not None  # asked only when the book has a layout
            for block in self.layout.blocks(index):
                rows = block.text.rstrip("\n").split("\n")
                for k, row in enumerate(rows):
                    by_key.setdefault(words_key(row), []).append(
                        block.y0 + (block.y1 - block.y0) * k / len(rows)
                    )
            # NOTE: the lines the normaliser removed as furniture are no kept line's: each takes
            # the occurrence of its text nearest a page edge, so a chapter title that a running
            # header repeats (``INSTALL`` under ``INSTALL``) gets its own top, not the header's.
            height = self.layout.page_height(index)
            for text in self.norm.furniture[index] if index < len(self.norm.furniture) else ():
                tops = by_key.get(words_key(text))
                if tops:
                    tops.remove(min(tops, key=lambda top: min(top, height - top)))
            self._tops[index] = by_key
        return self._tops[index]

    def find(self, index: int, title: str, y: float | None) -> int | None:
        """Return the index of the kept line on page ``index`` that holds ``title``, or None.

        The title is compared with and without its leading number or keyword (``7 Title``
        against ``Chapter 7`` / ``Title``, ``I Basics`` against ``Part I`` / ``Basics``), and
        with windows of up to ``WINDOW_LINES`` lines (titles wrapped over two lines, a label line
        above the title). When several lines hold it, the one whose top is nearest the
        destination ``y`` wins (the PDF's line positions are read only then); without ``y``,
        the best match.
        """
        lines = self.norm.lines[index]
        wants = _wanted(title)
        if not wants or not lines:
            return None
        variants = self.variants(index)
        longest = max(len(w) for w in wants)
        hits: list[tuple[int, float]] = []
        ends: dict[int, int] = {}
        covered = 0
        for i, (_, line) in enumerate(lines):
            if len(line) > 3 * len(title) + 20 or self.detached_folio(index, i):
                continue
            score = _best(wants, variants[i])
            joined = line
            end = i + 1
            for k in range(i + 1, min(len(lines), i + WINDOW_LINES)):
                # NOTE: a window only grows while what it holds so far is a part of the title
                # (or a bare label line such as ``Part I``), so body lines are never joined.
                if score >= FUZZY_MIN or not _may_continue(
                    wants, variants[i] if k == i + 1 else self.window(index, i, k - 1)[1], joined
                ):
                    break
                joined = joined + " " + lines[k][1]
                key_length, joined_variants = self.window(index, i, k)
                if key_length > longest + 40:
                    break
                score = max(score, _best(wants, joined_variants))
                end = k + 1
            if score >= FUZZY_MIN:
                if hits and i < covered:
                    continue  # inside the window of the hit above: the same heading (``1.1`` / ``Title``)
                hits.append((i, score))
                ends[i] = end
                covered = end
        if not hits:
            return None
        # NOTE: one perfect hit among fuzzy ones is no reason to skip the positions: the perfect
        # one can be the running header while the wrapped heading matches at 88.
        if len(hits) > 1 and y is not None and self.layout is not None:
            hits = self._not_at_the_edges(index, hits, y)
        best = max(hits, key=lambda h: (h[1], -h[0]))[0]
        if len(hits) > 1 and y is not None and self.layout is not None:
            placed = [(abs(top - y), i) for i, _ in hits if (top := self._top(index, i)) is not None]
            if placed:
                best = min(placed)[1]
        # NOTE: a window may open with a label line above the destination (a part's ``Part V.``
        # / ``Appendix`` over its first appendix's ``A. Title``): the heading starts where the
        # destination points, not at another unit's label.
        while (
            best + 1 < ends.get(best, best + 1)
            and _labels_another(lines[best][1], title)
            and self.above_destination(index, best, y)
            and not self.above_destination(index, best + 1, y)
        ):
            best += 1
        return best

    def above_destination(self, index: int, i: int, y: float | None) -> bool:
        """Whether kept line ``i`` of page ``index`` stands above the destination ``y`` (its top
        more than ``Y_SLACK`` points higher): the line belongs to what comes before the entry."""
        if y is None or self.layout is None:
            return False
        top = self._top(index, i)
        return top is not None and top < y - Y_SLACK

    def detached_folio(self, index: int, i: int) -> bool:
        """Whether kept line ``i`` of page ``index`` is the page's folio standing apart from the
        line after it (a footer the reading order put first): the page's own number, its label
        or its physical number, whose top is ``FOLIO_GAP`` of the page height or more from the
        next line's. Such a line is never a label over the title after it; a chapter number set
        right above its title (``1`` over ``Introduction`` on page 1) still is."""
        lines = self.norm.lines[index]
        page = self.norm.pages[index]
        if (
            self.layout is None
            or i + 1 >= len(lines)
            or lines[i][1].strip() not in {page.label, str(page.number)}
        ):
            return False
        top, below = self._top(index, i), self._top(index, i + 1)
        return (
            top is not None
            and below is not None
            and abs(top - below) >= FOLIO_GAP * self.layout.page_height(index)
        )

    def find_prefix(self, index: int, title: str, y: float | None) -> int | None:
        """The first kept line of page ``index`` that begins with the whole title, two words or
        more (``Table des questions`` for the printed ``Table des questions fréquemment
        posées``), reads as a title, and stands where a heading the outline points at stands:
        among the page's first ``PREFIX_TOP_LINES`` lines, or at the destination ``y``. An
        outline may give the short form of a longer heading. Asked on an entry's own page only,
        before its neighbours: there the outline's destination and the line agree, where an
        exact match a page further is often the running header that prints the short form."""
        wants = [w for w in _wanted(title) if not w.startswith(COMPACT) and len(w.split()) >= 2]
        lines = self.norm.lines[index]
        for i, variants in enumerate(self.variants(index)):
            if not any(v.startswith(w + " ") for w in wants for v in variants):
                continue
            if not title_like(lines[i][1].strip(), max_words=20, any_case=True):
                continue
            if i < PREFIX_TOP_LINES:
                return i
            if y is not None and self.layout is not None:
                top = self._top(index, i)
                if top is not None and abs(top - y) <= PREFIX_Y_SLACK:
                    return i
        return None

    def nearest(self, index: int, y: float) -> int | None:
        """The kept line of page ``index`` whose top is nearest below-or-at ``y`` (an outline
        destination the text does not confirm: kept where the outline points)."""
        lines = self.norm.lines[index]
        if self.layout is None or not lines:
            return None
        best = None
        for i in range(len(lines)):
            top = self._top(index, i)
            if top is not None and top >= y - Y_SLACK and (best is None or top < best[0]):
                best = (top, i)
        return best[1] if best else None

    def _not_at_the_edges(
        self, index: int, hits: list[tuple[int, float]], y: float
    ) -> list[tuple[int, float]]:
        """Drop a hit on the page's first (last) kept line when the destination lies well below
        the top (above the bottom): that line sits at the page edge (a running header or
        footer repeating the title). Reading line positions costs about twice the page's plain
        text; this costs nothing and settles most cases."""
        assert self.layout is not None  # asked only when the book has a layout
        height = self.layout.page_height(index)
        last = len(self.norm.lines[index]) - 1
        kept = [
            (i, score)
            for i, score in hits
            if not (i == 0 and y > EDGE_SHARE * height) and not (i == last and y < (1 - EDGE_SHARE) * height)
        ]
        return kept or hits

    def _top(self, index: int, i: int) -> float | None:
        if index not in self._line_tops:
            by_key = self.tops(index)
            seen: dict[str, int] = {}
            aligned: list[float | None] = []
            for _, line in self.norm.lines[index]:
                key = words_key(line)
                k = seen.get(key, 0)
                seen[key] = k + 1
                tops = by_key.get(key, [])
                aligned.append(tops[k] if k < len(tops) else None)
            self._line_tops[index] = aligned
        return self._line_tops[index][i]


def check_outline(raw: RawBook, norm: NormalisedBook) -> OutlineResult:
    """Verify, repair and classify the outline of ``raw`` against its canonical text.

    Args:
        raw (RawBook): the reader's output (outline entries as the source states them).
        norm (NormalisedBook): canonical text and per-page lines.

    Returns:
        OutlineResult: drafts (kind, number, title, page, offset) with their outline depth.
    """
    drafts: list[tuple[Draft, int]] = []
    repaired = dropped = unconfirmed = 0
    warnings: list[str] = []
    n_pages = len(norm.pages)
    pages = _Pages(norm, raw.layout)
    placed: set[int] = set()  # the offsets of the confirmed drafts so far
    for k, entry in enumerate(raw.outline):
        if drafts and drafts[-1][0].confirmed:
            placed.add(drafts[-1][0].offset)
        title = clean_title(entry.title)
        if title != " ".join(entry.title.split()):
            repaired += 1
        if title and entry.page == 0 and raw.format != "epub":
            found = _between_neighbours(raw.outline, k, title, pages)
            if found is not None:
                repaired += 1
                drafts.append((found, entry.level))
                continue
        if not title or not 1 <= entry.page <= n_pages:
            dropped += 1
            continue
        if raw.format == "epub" or entry.offset is not None:
            drafts.append((_trusted(entry, title, norm, raw.format), entry.level))
            continue
        verified, moved = _verified(entry, title, pages, placed)
        if verified is None:
            dropped += 1
            continue
        repaired += moved
        unconfirmed += not verified.confirmed
        drafts.append((verified, entry.level))
    # NOTE: an unconfirmed entry that lands on the line where a confirmed entry starts adds
    # nothing but a duplicate: it is dropped (its title was not found anywhere).
    taken = {d.offset for d, _ in drafts if d.confirmed}
    kept = [(d, depth) for d, depth in drafts if d.confirmed or d.offset not in taken]
    dropped += len(drafts) - len(kept)
    unconfirmed -= len(drafts) - len(kept)
    drafts = kept
    if dropped:
        warnings.append(
            f"{dropped} of {len(raw.outline)} outline entries were not found in the text and were dropped"
        )
    if unconfirmed:
        warnings.append(
            f"{unconfirmed} of {len(raw.outline)} outline entries were not found in the text "
            "and were kept where their destination points (unconfirmed)"
        )
    return OutlineResult(
        _lettered_runs(_roman_letters(drafts)), len(raw.outline), repaired, dropped, warnings, unconfirmed
    )


def _roman_letters(drafts: list[tuple[Draft, int]]) -> list[tuple[Draft, int]]:
    """A lone ``I``, ``V`` or ``X`` labelling a title is a roman number, not appendix I, V or X,
    where the numbered entry before it at its depth is the roman number one less (``IV`` before
    ``V``) or the one after it one more (``II`` after ``I``): sections numbered in roman, as
    physics journals set them. An appendix after ``H`` is still appendix I."""
    out = list(drafts)
    for k, (d, depth) in enumerate(drafts):
        if d.kind != "appendix" or d.number not in _ROMAN_LETTERS:
            continue
        value = number_value(d.number)
        before = next((e for e, dep in reversed(drafts[:k]) if dep == depth and e.number), None)
        after = next((e for e, dep in drafts[k + 1 :] if dep == depth and e.number), None)
        if any(
            e is not None and re.fullmatch(ROMAN_SMALL, e.number) and number_value(e.number) == value + step
            for e, step in ((before, -1), (after, 1))
        ):
            out[k] = (replace(d, kind="numbered"), depth)
    return out


_LETTER_TITLE = re.compile(r"^(?P<num>[A-Z])[.:]?\s+(?P<title>\S.*)$")
"""``A Installation``: an outline title that a capital letter may label (an appendix)."""

MIN_LETTER_RUN = 2
"""Lettered titles that must run A, B… at one depth before their letters are read as labels."""


def _lettered_runs(drafts: list[tuple[Draft, int]]) -> list[tuple[Draft, int]]:
    """Entries titled ``A Title``, ``B Title``… at one depth, after a numbered entry at that depth,
    are appendices A, B… (back matter when the title names it: ``D Index``), the letter no part of
    the title: LaTeX's numbered bookmarks and many contents label appendices so. A title alone
    (``A Tutorial``) is ambiguous; a run whose letters follow one another from ``A`` after the
    numbered chapters is not. Entries deeper down between them (``A.1``) do not break a run, nor
    does a letter that reads as a roman number where the run reaches it (``I`` after ``H``)."""
    out = list(drafts)
    numbered_depths: set[int] = set()
    run: list[int] = []
    run_depth = -1

    def close() -> None:
        if len(run) >= MIN_LETTER_RUN:
            for k in run:
                d, depth = out[k]
                m = _LETTER_TITLE.match(d.title)
                number, title = (m.group("num"), m.group("title")) if m else (d.number, d.title)
                kind = "back" if BACK_WORDS.search(title) else "appendix"
                out[k] = (replace(d, kind=kind, number=number, title=title), depth)
        run.clear()

    for k, (d, depth) in enumerate(drafts):
        if run and depth < run_depth:
            close()
        if run and depth > run_depth:
            continue
        m = _LETTER_TITLE.match(d.title) if d.kind == "unnumbered" else None
        want = chr(ord("A") + len(run)) if depth == run_depth or not run else "A"
        if run and depth == run_depth and d.kind == "roman" and d.number == want:
            run.append(k)  # ``I Sources`` after ``H Tables``: the letter I, not the roman one
            continue
        if m and m.group("num") == want and depth in numbered_depths:
            run_depth = depth
            run.append(k)
            continue
        close()
        if m and m.group("num") == "A" and depth in numbered_depths:
            run_depth = depth
            run.append(k)
        if d.kind in ("numbered", "chapter"):
            numbered_depths.add(depth)
    close()
    return out


def groups_folded(drafts: list[tuple[Draft, int]], norm: NormalisedBook) -> list[tuple[Draft, int]]:
    """A PDF outline's drafts with each group folded into the chapter it holds: an unnumbered
    entry whose one child (the only entry one depth below it) is a numbered chapter opening on
    its page on the very next line, no text between (``_set_right_above``), is one heading set
    twice: a generator that writes a level's title over the numbered heading it opens (a group
    heading over each chapter, its title the chapter's or a paraphrase of it). The pair is one
    unit, the child's, at the child's depth: it starts at the group's line, with both entries'
    evidence. Entries beside such chapters at the group's depth are then what they are without
    the groups (parts over the chapters that follow them, by the chapters' numbering:
    ``levels.choose_depths``). Only where the groups are the outline's way (``MIN_GROUPS`` of
    them at a depth, and every entry there holding a numbered chapter one of them): a part that
    holds one chapter, set on its page right above it, among parts holding several is a part."""
    groups = {k for k in range(len(drafts) - 1) if _group_over(drafts, k, norm)}
    for depth in {drafts[k][1] for k in groups}:
        here = {k for k in groups if drafts[k][1] == depth}
        holders = {k for k, (_, at) in enumerate(drafts) if at == depth and _holds_numbered(drafts, k)}
        if len(here) < MIN_GROUPS or here != holders:
            groups -= here
    out: list[tuple[Draft, int]] = []
    k = 0
    while k < len(drafts):
        d, depth = drafts[k]
        if k in groups:
            child, child_depth = drafts[k + 1]
            merged = replace(child, offset=d.offset, evidence=[*d.evidence, *child.evidence])
            out.append((merged, child_depth))
            k += 2
            continue
        out.append((d, depth))
        k += 1
    return out


def _group_over(drafts: list[tuple[Draft, int]], k: int, norm: NormalisedBook) -> bool:
    """Whether draft ``k`` is a group heading over the next draft (``groups_folded``)."""
    d, depth = drafts[k]
    child, child_depth = drafts[k + 1]
    if d.kind != "unnumbered" or child.kind not in ("numbered", "chapter") or not child.number.isdigit():
        return False
    if child_depth <= depth or not (d.confirmed and child.confirmed) or d.page != child.page:
        return False
    held = []
    for _, at in drafts[k + 1 :]:
        if at <= depth:
            break
        held.append(at)
    return held.count(child_depth) == 1 and _set_right_above(d, child, norm)


def _holds_numbered(drafts: list[tuple[Draft, int]], k: int) -> bool:
    """Whether draft ``k`` holds a chapter numbered ``N`` among the drafts nested under it."""
    for d, at in drafts[k + 1 :]:
        if at <= drafts[k][1]:
            return False
        if d.kind in ("numbered", "chapter") and d.number.isdigit():
            return True
    return False


def _set_right_above(d: Draft, child: Draft, norm: NormalisedBook) -> bool:
    """Whether the text from ``d``'s line to ``child``'s is ``d``'s title alone (wrapped over
    lines, an object number after it at most): the child's heading is the next line."""
    if child.offset <= d.offset:
        return False
    between = norm.text[d.offset : child.offset].splitlines()
    return words_key(" ".join(OBJECT_NUMBER.sub("", line) for line in between)) == words_key(d.title)


def _trusted(entry: OutlineEntry, title: str, norm: NormalisedBook, raw_format: str) -> Draft:
    """An EPUB/Markdown entry: its position is exact; the line there tells kind and number."""
    index = entry.page - 1
    offset = norm.pages[index].char_start
    if entry.offset is not None:
        offset = norm.map_offset(index, entry.offset)
    lines = norm.lines[index]
    at = bisect.bisect_right([start for start, _ in lines], offset) - 1
    line = lines[at][1].strip() if at >= 0 else ""
    kind, number, clean = _classify(title, line if words_key(title) in words_key(line) else "")
    where = f"level {entry.level} '{title}' -> p. {entry.page}"
    return Draft(
        kind, number, clean, index, offset, evidence=[("nav" if raw_format == "epub" else "outline", where)]
    )


def _verified(
    entry: OutlineEntry, title: str, pages: _Pages, placed: frozenset[int] | set[int] = frozenset()
) -> tuple[Draft | None, int]:
    """The entry placed on the line that holds its title, on its page or up to ``SEARCH_PAGES``
    away (then it counts as moved). Not found anywhere but with a destination y: kept where it
    points, unconfirmed. Else None (dropped). A label line above the title (``Appendix``) that an
    entry before it was placed on (``placed``: their offsets) is that entry's heading, not a label
    of this one (a part titled ``Appendix`` over its first chapter's title)."""
    index = entry.page - 1
    order = [index] + [index + d * s for d in range(1, SEARCH_PAGES + 1) for s in (-1, 1)]
    for page in order:
        if not 0 <= page < len(pages.norm.pages):
            continue
        line_i = pages.find(page, title, entry.y if page == index else None)
        if line_i is None and page == index:
            line_i = pages.find_prefix(page, title, entry.y)
        if line_i is None:
            continue
        if page != index and line_i > 0 and pages.is_contents(page):
            continue  # a contents/index page lists titles; only its own heading (line 1) starts there
        lines = pages.norm.lines[page]
        label = ""
        y = entry.y if page == index else None
        for _ in range(_LABEL_LINES_ABOVE):
            above = lines[line_i - 1][1].strip() if line_i > 0 else ""
            if (
                above
                and _LABEL_LINE.match(above)
                and lines[line_i - 1][0] not in placed
                and not pages.detached_folio(page, line_i - 1)
                # NOTE: a title that carries its own label (``A. Title``) at the destination takes
                # no label from above it: that one labels another unit (``Part V.`` over it)
                and not (
                    _own_label(title, lines[line_i][1])
                    and _labels_another(above, title)
                    and pages.above_destination(page, line_i - 1, y)
                    and not pages.above_destination(page, line_i, y)
                )
            ):
                line_i -= 1
                label = lines[line_i][1].strip() + (" " + label if label else "")
            else:
                break
        heads = [" ".join(line for _, line in lines[line_i : line_i + k]) for k in range(2, WINDOW_LINES + 1)]
        kind, number, clean = _classify(title, label or lines[line_i][1].strip(), *heads)
        where = f"level {entry.level} '{title}' -> p. {page + 1} line {line_i + 1}"
        draft = Draft(kind, number, clean, page, lines[line_i][0], evidence=[("outline", where)])
        return draft, int(page != index)
    if entry.y is not None and 0 <= index < len(pages.norm.pages):
        line_i = pages.nearest(index, entry.y)
        if line_i is not None:
            lines = pages.norm.lines[index]
            kind, number, clean = _classify(title, "", "")
            where = f"level {entry.level} '{title}' -> p. {index + 1} y {entry.y:.0f} (title not on the page)"
            return Draft(
                kind, number, clean, index, lines[line_i][0], evidence=[("outline", where)], confirmed=False
            ), 0
    return None, 0


_KEYWORD_LABEL = re.compile(
    rf"^(?:(?:{keyword_alternation(KIND_KEYWORDS)})\b\.?\s*(?P<num>\S*?)|(?P<bare>\d{{1,3}}(?:\.\d{{1,3}})*))[.:]?$",
    re.I,
)


def _labels_another(line: str, title: str) -> bool:
    """Whether ``line`` is a label (``Part V.``, ``Appendix``, a bare ``1``) that may label another
    unit than the outline entry ``title``: one whose number is not the title's own (``Chapter 7``
    or ``7`` over ``7 Title`` labels it). Only such a line is worth reading the page's positions
    for."""
    m = _KEYWORD_LABEL.match(line.strip())
    if m is None:
        return False
    if m.group("bare"):
        parsed = parse_heading(title, any_case=True)
        return parsed is None or parsed.number != m.group("bare")
    parsed = parse_heading(title, any_case=True)
    own = parsed.number if parsed is not None and parsed.number else title.split(maxsplit=1)[0].rstrip(".:")
    return not m.group("num") or m.group("num") != own


def _own_label(title: str, line: str) -> bool:
    """Whether ``line`` opens with the label the outline title opens with (``A. Tables``
    for ``A Tables``): the heading carries its number itself."""
    m = _LEADING_NUMBER.match(line.strip())
    head = title.split(maxsplit=1)[0].rstrip(".:") if title.strip() else ""
    return m is not None and bool(head) and m.group(0).strip().rstrip(".:") == head


def _between_neighbours(outline: list[OutlineEntry], k: int, title: str, pages: _Pages) -> Draft | None:
    """Entry ``k``, whose destination does not resolve (a broken link in the file), placed where
    its title stands between the pages of the resolved entries before and after it: the outline
    lists the book in reading order, so the title is there or nowhere. Searched from the page
    before on, at most ``GAP_PAGES`` pages."""
    n = len(pages.norm.pages)
    lo = next((e.page for e in reversed(outline[:k]) if 1 <= e.page <= n), 1)
    hi = next((e.page for e in outline[k + 1 :] if 1 <= e.page <= n), n)
    for page in range(lo, min(hi, lo + GAP_PAGES) + 1):
        if pages.find(page - 1, title, None) is not None:
            draft, _ = _verified(OutlineEntry(outline[k].level, outline[k].title, page), title, pages)
            if draft is not None:
                draft.evidence = [
                    (signal, f"{where} (its destination does not resolve; found between its neighbours)")
                    for signal, where in draft.evidence
                ]
                return draft
    return None


def _classify(title: str, line: str, *heads: str) -> tuple[str, str, str]:
    """Kind, number and clean title from the outline title and the text that holds it.

    The text (the heading's first line, a label line when it has one, then its first 2, 3…
    lines joined, then the outline title itself) tells the kind and the number; the title is the
    outline's, without its number: it is whole where the printed title wraps over lines.
    A heading that ends in a full stop (``3. Title.``) counts: the outline vouches for it. So
    does one whose title ends in a number (``2 Using HTTP 2``), where the text read is the outline's
    title itself: it is no contents line, whose number would be its page.
    """
    m = _NUMBER_LABEL.fullmatch(line)
    if m and number_value(m.group("num")) and not _LETTER_LABEL.fullmatch(line):
        # ``3`` / ``II.`` / ``ONE`` standing above the title numbers it, whatever the title names
        # (``VIII.`` over ``Notes and References``); a lone letter that may be roman (``V``)
        # is read below and then by its neighbours (``_roman_letters``)
        return "numbered", m.group("num"), _strip_number(title, m.group("num"))
    own_words = words_key(title)
    m = _GLUED_NUMBER.fullmatch(line)
    if m and words_key(m.group("rest")) == own_words:
        return "numbered", m.group("num"), _strip_number(title)
    for text in (line, *heads, title):
        marked = bool(text) and words_key(text) == own_words
        parsed = (
            (
                parse_heading(text, any_case=True, marked=marked)
                or parse_heading(text, full_stop=True, lettered=True, any_case=True, marked=marked)
            )
            if text
            else None
        )
        if parsed is None:
            continue
        own = _strip_number(title, parsed.number) or parsed.title
        if parsed.kind == "section" and "." not in parsed.number:
            return "numbered", parsed.number, own  # ``Section 3`` labelling a chapter-level unit
        if parsed.kind in ("chapter", "part", "appendix", "section", "back", "front"):
            return parsed.kind, parsed.number, own
        if parsed.kind == "numbered":
            return "numbered", parsed.number, own
    m = SECTION_NUMBER_ONLY.match(line)
    if m:
        return "section", m.group("num"), _strip_number(title, m.group("num"))
    m = _LETTER_LABEL.match(line)
    if m:
        # NOTE: a lone capital letter standing above the title labels an appendix (``A`` /
        # ``Installation Notes``); in a title alone ``A Tutorial`` would be ambiguous.
        return "appendix", m.group(1), _strip_number(title, m.group(1))
    m = _ROMAN_TITLE.match(title)
    if m:
        return "roman", m.group("num"), m.group("title")
    return "unnumbered", "", _strip_number(title)


def _after_number(title: str, number: str) -> str | None:
    """What follows ``number`` + an optional ``.``/``:`` + whitespace at the start of ``title``,
    when something does (the regex ``{number}[.:]?\\s+(?=\\S)``, without compiling one per number);
    a dash set between spaces after the number is a separator too (``3 – Title``)."""
    if not title.startswith(number):
        return None
    j = len(number)
    for start in (j + 1, j) if title[j : j + 1] in (".", ":") else (j,):
        k = start
        while k < len(title) and title[k].isspace():
            k += 1
        if k > start and k < len(title):
            rest = title[k:]
            if rest[:1] in ("-", "–", "—") and rest[1:2].isspace() and rest[2:].strip():
                return rest[2:].lstrip()
            return rest
    return None


def _strip_number(title: str, number: str = "") -> str:
    """The title without a leading section/chapter number, or without ``number`` (``I Basics``
    under a ``Part I`` label line)."""
    rest = _after_number(title, number) if number else None
    if rest is not None:
        return rest
    m = SECTION_HEADING.match(title)
    if m:
        return m.group("title")
    parsed = parse_heading(title, any_case=True) or parse_heading(title, full_stop=True, any_case=True)
    if parsed is not None and parsed.title and parsed.kind in ("numbered", "chapter", "appendix", "part"):
        return parsed.title
    return title
