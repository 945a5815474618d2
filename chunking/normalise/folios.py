"""Printed page numbers (folios): read them from the page furniture, fit runs, choose page labels.

Why: chunks carry the page label a reader sees. Many PDFs define no ``/PageLabels`` although
every page prints its folio (``326`` on physical page 336), and some define labels that are wrong
(four ahead of the print). The folios in the top/bottom lines tell the truth in both cases.

How:

* **Candidates.** In the top/bottom zone lines of every printed page (see ``chunking.normalise``),
  a bare folio line (``17``, ``- 17 -``, ``Page 17``, ``Page 17 of 120``, ``17 / 92``, ``xiv``) or
  a number at either end of a zone line (``Chapter 12: Graphs 74``), arabic or roman; a number
  after a heading keyword (``Chapter 1``) is the chapter's, not the page's.
* **Runs.** Each candidate gives an offset, its value minus the physical page number, per kind
  (roman front matter, then arabic). A run is a stretch of pages on which one (kind, offset)
  recurs: at least ``FOLIO_MIN_PAGES`` pages (``FOLIO_MIN_BARE`` when every folio is a line of
  its own; one for roman folios counted from the first sheet), no gap over ``FOLIO_GAP`` pages,
  at least ``FOLIO_SHARE`` of its stretch printing it, and ``FOLIO_OVER_CONFLICTS`` times more
  pages than nearby lone numbers off its sequence (chapter numbers of one-page chapters advance
  like folios for a while). A page that prints the folios of two runs (a chapter number equal to
  some other run's folio) goes to the run of its neighbours. A run's folio is inferred on every
  page between two of its pages (also those that print none, e.g. chapter openings) and on up to
  ``FOLIO_GAP`` unclaimed pages before its first printed folio, down to 1 / i (the first page of
  a run rarely prints its folio). A bare number is the page's folio only when it is the folio of
  *that* page (``chunking.normalise.furniture.PageNumbers``), not when it fits some other run's offset.
* **Decision: which label a page carries** (``choose_labels``):

  - the source defines no labels: the inferred folio on every page a run covers, ``""``
    elsewhere; ``page_labels = "inferred"`` (``"none"`` when no run was found);
  - the source's labels agree with the printed folios on most pages that print one (or too few
    pages print one to tell): the source's labels, unchanged; ``page_labels = "source"``;
  - they disagree on most of those pages: **the printed folio wins** on every page a run covers
    (it is what a reader sees on the page and what a printed contents or index cites); the
    source's label stays on the other pages; a warning says so; ``page_labels = "inferred"``.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from dataclasses import dataclass, field

from ..readers.raw import RawPage
from ..rules import KEYWORD_ALTERNATION, ROMAN_FOLIO, roman_value, to_roman

FOLIO_MIN_PAGES = 3
"""A (kind, offset) printed on fewer pages is a coincidence (a chapter number, a list item)."""

FOLIO_MIN_BARE = 2
"""Folios printed as lines of their own (``ii``, ``iii``) make a run on fewer pages: a short front
matter has two or three numbered pages, and a bare number line in the zone is rarely content."""

FOLIO_GAP = 5
"""Longest stretch of pages without a printed folio inside one run (openings, blanks, figures)."""

FOLIO_SHARE = 0.5
"""A run prints its folio on at least this share of its stretch (real books: nearly every page)."""

FOLIO_OVER_CONFLICTS = 2
"""A run prints its folio on at least this many times as many pages as nearby pages print a bare
number of the same kind off its sequence: chapter numbers on consecutive one-page chapters
(``3``, ``4``, ``5`` on pages 6-8 after ``1``, ``2`` on pages 2 and 4) advance like folios too."""

LABELS_DISAGREE_SHARE = 0.5
"""The source's labels are rejected when they differ from the printed folio on more than this
share of the pages that print one."""

_PAGE_TOKEN = re.compile(
    rf"^(?:(?:page|p\.)\s*)?[-–—|]?\s*([0-9]{{1,4}}|{ROMAN_FOLIO})\s*[-–—|]?"
    r"(?:\s*(?:of|/)\s*\d{1,4})?$",
    re.I,
)
_NUMBER = re.compile(rf"[0-9]{{1,4}}|{ROMAN_FOLIO}", re.I)
_KEYWORD = re.compile(rf"^(?:{KEYWORD_ALTERNATION})$", re.I)


ZONE_CACHE = 1 << 14
"""Zone lines whose ``page_token`` and ``edge_numbers`` are remembered: the folio fit and the
furniture pass ask both of every zone line (three and two times), and a book has a few thousand."""


@functools.lru_cache(maxsize=ZONE_CACHE)
def page_token(line: str) -> str | None:
    """The folio of a line that is nothing but a folio (``- 17 -``, ``Page 3 of 120``), else None."""
    m = _PAGE_TOKEN.match(line.strip())
    if not m:
        return None
    token = m.group(1)
    return token if token.isdigit() or roman_value(token) else None


@functools.lru_cache(maxsize=ZONE_CACHE)
def edge_numbers(text: str) -> tuple[tuple[str, str], ...]:
    """``(number, rest)`` for a number token at the start and/or the end of a line, unless the
    rest is a heading keyword (``Chapter 1``: that number is the chapter's, not the page's)."""
    out = []
    head = text.split(None, 1)
    if len(head) == 2 and _NUMBER.fullmatch(head[0]):
        out.append((head[0], head[1]))
    tail = text.rsplit(None, 1)
    if len(tail) == 2 and _NUMBER.fullmatch(tail[1]):
        out.append((tail[1], tail[0]))
    return tuple((n, rest) for n, rest in out if not _KEYWORD.match(rest))


def number_tokens(line: str) -> list[str]:
    """Tokens of a zone line that may be its page's folio: the whole line, or a number at either
    end of it (``Chapter 12: Graphs 74``)."""
    token = page_token(line)
    if token is not None:
        return [token]
    return [n for n, _ in edge_numbers(line.strip()) if n.isdigit() or roman_value(n)]


def _kind_value(token: str) -> tuple[str, int] | None:
    if token.isdigit():
        return ("arabic", int(token))
    value = roman_value(token)
    return ("roman", value) if value else None


@dataclass
class _Run:
    kind: str
    offset: int
    pages: list[int]  # indices of the pages that print this run's folio
    upper: bool = False  # roman folios printed in capitals (``XIV``)

    def folio(self, number: int) -> str:
        value = number + self.offset
        if self.kind == "arabic":
            return str(value)
        roman = to_roman(value)
        return roman.upper() if self.upper else roman


@dataclass
class Folios:
    """The printed folios of a book.

    Attributes:
        inferred (list[str]): per page, the folio its run predicts, ``""`` outside every run.
        printed (list[str]): per page, the folio found printed on it, ``""`` when none.
        runs (int): how many runs were fitted.
    """

    inferred: list[str]
    printed: list[str]
    runs: int = 0

    @property
    def found(self) -> bool:
        return self.runs > 0


def infer_folios(raw_pages: list[RawPage], zones: list[list[int]], page_lines: list[list[str]]) -> Folios:
    """Fit folio runs from the zone lines of each page (see the module docstring).

    Args:
        raw_pages (list[RawPage]): every page in order (``number`` is the physical page).
        zones (list[list[int]]): per page, indices of its top/bottom zone lines (none for a
            synthetic page).
        page_lines (list[list[str]]): per page, its lines.

    Returns:
        Folios: per page the inferred and the printed folio.
    """
    support: dict[tuple[str, int], list[int]] = defaultdict(list)
    capitals: dict[tuple[str, int], int] = defaultdict(int)
    bare: dict[tuple[str, int], int] = defaultdict(int)
    bare_at: dict[int, set[tuple[str, int]]] = defaultdict(set)
    for index, zone in enumerate(zones):
        number = raw_pages[index].number
        seen = set()
        for i in zone:
            alone = page_token(page_lines[index][i]) is not None
            for token in number_tokens(page_lines[index][i]):
                kv = _kind_value(token)
                if kv is None or (kv[0], kv[1] - number) in seen:
                    continue
                key = (kv[0], kv[1] - number)
                seen.add(key)
                support[key].append(index)
                capitals[key] += token.isupper()
                bare[key] += alone
                if alone:
                    bare_at[index].add(key)
    runs = []
    for (kind, offset), pages in support.items():
        least = FOLIO_MIN_BARE if bare[(kind, offset)] == len(pages) else FOLIO_MIN_PAGES
        if kind == "roman" and offset == 0 and bare[(kind, offset)] == len(pages):
            least = 1  # front matter numbered from the first sheet: one printed folio will do
        for stretch in _stretches(pages):
            conflicts = _conflicts((kind, offset), stretch, bare_at, support)
            if (
                len(stretch) >= least
                and len(stretch) >= FOLIO_SHARE * (stretch[-1] - stretch[0] + 1)
                and len(stretch) >= FOLIO_OVER_CONFLICTS * conflicts
            ):
                runs.append(_Run(kind, offset, stretch, upper=2 * capitals[(kind, offset)] > len(pages)))
    owner = _assign(runs, len(raw_pages))
    accepted = [run for run in runs if any(o is run for o in owner)]
    for run in accepted:  # the opening pages of a run, which print no folio
        first = min(i for i, o in enumerate(owner) if o is run)
        i = first - 1
        while (
            i >= 0
            and first - i <= FOLIO_GAP
            and owner[i] is None
            and raw_pages[i].number + run.offset >= 1
            and not raw_pages[i].synthetic
        ):
            owner[i] = run
            i -= 1
    inferred = [run.folio(raw_pages[i].number) if run else "" for i, run in enumerate(owner)]
    printed = [""] * len(raw_pages)
    for run in accepted:
        for i in run.pages:
            if owner[i] is run:
                printed[i] = inferred[i]
    return Folios(inferred=inferred, printed=printed, runs=len(accepted))


def _assign(runs: list[_Run], n: int) -> list[_Run | None]:
    """Each page's run: the one whose folio it prints (when two do, the run of its neighbours, else
    the better supported); a page printing none, between two pages of one run, is that run's."""
    claims: dict[int, list[_Run]] = defaultdict(list)
    for run in sorted(runs, key=lambda r: (-len(r.pages), r.pages[0])):
        for i in run.pages:
            claims[i].append(run)
    owner: list[_Run | None] = [None] * n
    for i, rs in claims.items():
        if len(rs) == 1:
            owner[i] = rs[0]
    for i, rs in claims.items():
        if len(rs) > 1:
            near = [owner[j] for j in (i - 1, i + 1) if 0 <= j < n and owner[j] in rs]
            owner[i] = near[0] if near else rs[0]
    for weak in runs:  # a run printed on too few pages of its own is no run
        if sum(1 for i in weak.pages if owner[i] is weak) < min(FOLIO_MIN_PAGES, len(weak.pages)):
            owner = [None if o is weak else o for o in owner]
    last: tuple[int, _Run] | None = None
    for i in range(n):
        current = owner[i]
        if current is None:
            continue
        if last and last[1] is current:
            for j in range(last[0] + 1, i):
                owner[j] = current
        last = (i, current)
    return owner


def _conflicts(
    key: tuple[str, int],
    stretch: list[int],
    bare_at: dict[int, set[tuple[str, int]]],
    support: dict[tuple[str, int], list[int]],
) -> int:
    """Pages near a stretch that print a lone bare number of its kind off its sequence (one that
    fits no sequence of its own: a neighbouring run's folios are no conflict)."""
    near = range(stretch[0] - FOLIO_GAP, stretch[-1] + FOLIO_GAP + 1)
    return sum(
        1
        for i in near
        if any(
            other[0] == key[0] and other != key and len(support[other]) < FOLIO_MIN_PAGES
            for other in bare_at.get(i, ())
        )
    )


def _stretches(pages: list[int]) -> list[list[int]]:
    """Split sorted page indices where more than ``FOLIO_GAP`` pages print no such folio."""
    out: list[list[int]] = []
    for index in pages:
        if out and index - out[-1][-1] <= FOLIO_GAP + 1:
            out[-1].append(index)
        else:
            out.append([index])
    return out


@dataclass
class Labels:
    """The labels pages carry, and where they came from (see the module docstring).

    Attributes:
        labels (list[str]): per page.
        source (str): ``"source"`` (the PDF's /PageLabels or EPUB page-list, kept),
            ``"inferred"`` (printed folios used) or ``"none"``.
        inferred_pages (int): pages whose label is an inferred folio.
        warnings (list[str]): one line each.
    """

    labels: list[str]
    source: str
    inferred_pages: int = 0
    warnings: list[str] = field(default_factory=list)


def choose_labels(raw_pages: list[RawPage], folios: Folios) -> Labels:
    """Pick each page's label from the source's labels and the printed folios."""
    source = [p.label for p in raw_pages]
    if not any(source):
        if not folios.found:
            return Labels(source, "none")
        return Labels(list(folios.inferred), "inferred", sum(1 for f in folios.inferred if f))
    compared = [(i, source[i], f) for i, f in enumerate(folios.printed) if f and source[i]]
    wrong = [(i, s, f) for i, s, f in compared if not _same_label(s, f)]
    if len(compared) < FOLIO_MIN_PAGES or len(wrong) <= LABELS_DISAGREE_SHARE * len(compared):
        return Labels(source, "source")
    labels = [f or s for s, f in zip(source, folios.inferred)]
    i, s, f = wrong[len(wrong) // 2]
    warning = (
        f"PDF page labels disagree with the printed page numbers on {len(wrong)} of "
        f"{len(compared)} pages that print one (e.g. page {raw_pages[i].number}: label {s!r}, "
        f"printed {f!r}); chunks carry the printed numbers"
    )
    return Labels(labels, "inferred", sum(1 for f in folios.inferred if f), [warning])


def _same_label(label: str, folio: str) -> bool:
    """``"iv"`` = ``"IV"``; a label with a prefix (``A-12``) agrees with its number."""
    label, folio = label.casefold(), folio.casefold()
    return label == folio or label.rsplit("-", 1)[-1] == folio
