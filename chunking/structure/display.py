"""Stage 3 (structure), typography alone: chapter openings that carry no number, no keyword and
no outline entry, found by their size (the last resort of the text detector).

Contract: ``display_headings(norm, probe)`` reads the top band of every page (``FontProbe``,
about a quarter of a page's span extraction each) and returns drafts for the lines set in the
book's *chapter display size*: the largest size, clearly above the body
(``DISPLAY_RATIO``), that opens at least ``MIN_OPENINGS`` pages but no more than
``MAX_OPENING_SHARE`` of them. Why these rules hold for books in general: a chapter title is set
in the largest type the book uses more than once or twice (the title page is larger, once);
chapters open at the top of a page; and a size used on most pages is a running header, not a
heading. Consecutive lines at that size are one title (a title wrapped over lines). A line in
that size may open in lower case (a program's or a module's name: ``libwidget event loop``), where it
is otherwise title-like and nothing says it goes on from a line above (``_lower_case_title``).
The book's title set larger still, once, opening its first page, is its title page: a front unit
(``_book_title``).

It costs a top-band read of every page and then a whole-page read of every page (chapters also
open mid-page, one or more on a page), more than the rest of the detector together, so
``chunking.structure`` calls it only when nothing else (outline, numbering, keywords, the
printed contents) found two chapters.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection

from ..normalise import NormalisedBook
from .heading_lines import Draft
from .kinds import compact_key, parse_heading, title_like
from .typography import FontProbe

DISPLAY_RATIO = 1.15
"""A chapter display size is at least this many times the body size: 14 pt chapter titles over a
12 pt body (a word processor's Heading 1) are display type. The tier is the LARGEST size that opens
enough pages, so section heads set smaller do not compete with the chapters'."""

MIN_OPENINGS = 3
"""A size that opens fewer pages than this is a title page or a one-off, not the chapter style."""

MAX_OPENING_SHARE = 0.5
"""...and one that opens more than this share of the pages with text is a running header."""

SIZE_STEP = 0.5
"""Sizes are compared rounded to this many points (the same style comes out 14.35 or 14.4)."""

MAX_TITLE_LINES = 3
"""A display title may wrap over this many lines."""


def display_headings(norm: NormalisedBook, probe: FontProbe) -> list[Draft]:
    """Chapter openings found by their display size alone (see the module docstring)."""
    body = probe.body_size()
    if probe.layout is None or not body:
        return []
    tops: dict[int, list[tuple[str, float]]] = {}
    for index, lines in enumerate(norm.lines):
        if lines:
            tops[index] = probe.lines(index, top=True)
    sizes: Counter = Counter()
    for index, top_lines in tops.items():
        seen = {
            round(size / SIZE_STEP) * SIZE_STEP
            for text, size in top_lines
            if size >= body * DISPLAY_RATIO and _display_title(text.strip())
        }
        sizes.update(seen)
    pages_with_text = len(tops)
    tiers = sorted(
        (s for s, n in sizes.items() if MIN_OPENINGS <= n <= MAX_OPENING_SHARE * pages_with_text),
        reverse=True,
    )
    if not tiers:
        return []
    tier = tiers[0]
    out = []
    for index in tops:
        # NOTE: the tier is proven by the page tops; a chapter that opens lower on its page
        # (after the previous one's last lines, or after a short chapter that opened at its
        # top) is set in it too: every page is read whole for its openings.
        out += _openings(norm, index, probe, tier, body)
    return _book_title(norm, probe, tier, tops) + _once_in_lower_case(out)


def _display_title(text: str) -> bool:
    """Whether a line set in a display size reads as a title: title-like (a full stop may end it),
    or a name that opens with a sign (``--pipe``, ``/etc``: ``_heading_text``)."""
    return title_like(text, full_stop=True) or _heading_text(text, larger=True)


def _at(size: float | None, tier: float) -> bool:
    """Whether ``size`` is the display tier (compared rounded to ``SIZE_STEP``)."""
    return size is not None and abs(round(size / SIZE_STEP) * SIZE_STEP - tier) < 1e-6


def _runs(lines: list[tuple[str, float]], tier: float) -> list[tuple[int, list[str]]]:
    """The runs of consecutive lines set at ``tier`` (each at most ``MAX_TITLE_LINES`` long),
    each with the index of its first line in ``lines``."""
    runs: list[tuple[int, list[str]]] = []
    run: list[str] = []
    first = 0
    for i, (text, size) in enumerate(lines):
        if _at(size, tier) and len(run) < MAX_TITLE_LINES:
            if not run:
                first = i
            run.append(text.strip())
        elif run:
            runs.append((first, run))
            run = []
    return runs + [(first, run)] if run else runs


def _openings(norm: NormalisedBook, index: int, probe: FontProbe, tier: float, body: float) -> list[Draft]:
    """Every run of lines set at ``tier`` on the page that reads as a title, placed on its
    canonical line (each canonical line once)."""
    out: list[Draft] = []
    lines = probe.lines(index)
    kept = norm.lines[index]
    start = 0
    for first, run in _runs(lines, tier):
        if not _display_title(run[0]) and not _lower_case_title(norm, probe, index, lines, first, tier):
            continue
        want = compact_key(run[0])
        for k in range(start, len(kept)):
            offset, line = kept[k]
            if compact_key(line) == want:
                title = " ".join(run).rstrip(".")
                size_note = f"p. {index + 1}: {tier:.1f} pt display size, body {body:.1f} pt"
                out.append(
                    Draft("unnumbered", "", title, index, offset, evidence=[("typography", size_note)])
                )
                start = k + 1
                break
    return out


def _lower_case_title(
    norm: NormalisedBook,
    probe: FontProbe,
    index: int,
    lines: list[tuple[str, float]],
    first: int,
    tier: float,
) -> bool:
    """Whether the run of display lines opening at ``lines[first]`` is a title although it opens
    in lower case: a chapter may be titled by a program's or a module's name (``libwidget event
    loop``, ``widget:core module methods``), set in the chapters' type like every other title.
    The size is the chapters' (the tier is proven by the title-like lines at page tops) and the
    line is title-like otherwise (short, no sentence's end). What else a lower-case line in that
    type may be is ruled out: a title's wrapped line (the line above, or the last line of the
    page before when it opens its page, is set at the tier too: the title ran over
    ``MAX_TITLE_LINES`` or over the page break), a word's rest after a drop cap (the line above is
    one letter alone) and a running head (``_once_in_lower_case``)."""
    text = lines[first][0].strip()
    if not text[:1].islower() or not title_like(text, any_case=True):
        return False
    above = lines[first - 1][0].strip() if first else ""
    if first and (_at(lines[first - 1][1], tier) or (len(above) == 1 and above.isalpha())):
        return False
    kept = norm.lines[index]
    if kept and compact_key(kept[0][1]) == compact_key(text):
        before = next((k for k in range(index - 1, -1, -1) if norm.lines[k]), None)
        if before is not None and _at(probe.size_of(before, norm.lines[before][-1][1]), tier):
            return False  # a title wrapped over the page break: its last line opens this page
    return True


def _book_title(norm: NormalisedBook, probe: FontProbe, tier: float, pages: Collection[int]) -> list[Draft]:
    """The book's title, a front unit: the first line of the first page with text, title-like
    (in either case: ``aptitude user's manual``), set larger than the chapters' display tier in a
    size no other page uses (a title is set once, in the largest type; a size that recurs is a
    part's or a cover's and its title page's). Its page need not be bare: a document printed from
    the web sets its title over its opening paragraphs, and its first chapter may open below them
    on the same page. Lines set right below it in display type larger than the chapters' are its
    wrapped lines, or the rest of a title a cover sets in stepped sizes (``Widgetrix`` over
    ``User's Manual``)."""
    first = next((index for index in pages if norm.lines[index]), None)
    if first is None:
        return []
    offset, line = norm.lines[first][0]
    lines = probe.lines(first)
    at = next((i for i, (text, _) in enumerate(lines) if compact_key(text) == compact_key(line)), None)
    if at is None:
        return []
    size = round(lines[at][1] / SIZE_STEP) * SIZE_STEP
    if size <= tier or not title_like(line, any_case=True):
        return []
    if any(
        other >= size - SIZE_STEP / 2 for index in pages if index != first for _, other in probe.lines(index)
    ):
        return []
    run = [line.strip()]
    for text, other in lines[at + 1 : at + MAX_TITLE_LINES]:
        if not tier < round(other / SIZE_STEP) * SIZE_STEP <= size or not title_like(text, any_case=True):
            break
        run.append(text.strip())
    note = f"p. {first + 1}: {lines[at][1]:.1f} pt, once, larger than the chapters' {tier:.1f} pt: the book's title"
    return [Draft("front", "", " ".join(run), first, offset, evidence=[("typography", note)])]


def _once_in_lower_case(drafts: list[Draft]) -> list[Draft]:
    """``drafts`` less the titles opening in lower case that stand on two pages or more: a line
    the chapters' type repeats from page to page is a running head the furniture pass left (a
    book's or a program's name over its pages), not a chapter's opening, which stands once."""
    pages: dict[str, set[int]] = {}
    for d in drafts:
        if d.title[:1].islower():
            pages.setdefault(compact_key(d.title), set()).add(d.page)
    return [d for d in drafts if len(pages.get(compact_key(d.title), ())) < 2]


OUTDENT = 6.0
"""Points left of the body's usual left edge a heading line must start (body text is indented)."""

MAX_WEIGHT_WORDS = 8
"""A heading set in bold at body size is short."""

INDENT_SLACK = 3.0
"""Points within which outdented headings stand at one indent (the outermost are the chapters)."""

_CAPS = re.compile(r"^[^a-z]*[A-Z]{2}[^a-z]*$")
_SIGNS = "-/.@$%#:"
"""Signs a name may open with (an option, a path, a directive, a variable)."""
_SUB_NUMBER = re.compile(r"\d+\.\d+")
"""A heading numbered below the chapters (``2.1.``): a section, whatever its weight and place."""


def outdented_headings(norm: NormalisedBook, probe: FontProbe) -> list[Draft]:
    """Chapter-level headings set only apart by weight and place: whole bold lines at body size,
    standing left of the body's usual left edge (``.SH NAME`` in a man page, a report's run-in
    titles). The very last resort: a whole-page span read of every page with text, used only when
    neither size nor anything else found two chapters. Upper-case or title-like lines only, and at
    least ``MIN_OPENINGS`` of them, so an emphasised phrase does not make a structure. Where such
    lines stand at several indents (chapters further out than their sections), only the outermost
    are chapters, and a line numbered below the chapters (``2.1.``) never is one.
    """
    body = probe.body_size()
    if probe.layout is None or not body:
        return []
    pages = {index: probe.styled_lines(index) for index, lines in enumerate(norm.lines) if lines}
    edges: Counter = Counter()
    for lines in pages.values():
        for text, size, bold, x0 in lines:
            if abs(size - body) <= SIZE_STEP and not bold:
                edges[round(x0)] += len(text)
    if not edges:
        return []
    body_edge = edges.most_common(1)[0][0]
    found: list[tuple[float, float, Draft]] = []  # (left x, size, draft)
    for index, lines in pages.items():
        kept = {compact_key(line): offset for offset, line in reversed(norm.lines[index])}
        for text, size, bold, x0 in lines:
            text = text.strip()
            if not (bold and size >= body - SIZE_STEP and x0 <= body_edge - OUTDENT):
                continue
            if len(text.split()) > MAX_WEIGHT_WORDS or not _heading_text(text, size > body + SIZE_STEP):
                continue
            offset = kept.get(compact_key(text))
            if offset is not None and not _SUB_NUMBER.match(text):
                note = f"p. {index + 1}: bold at {size:.1f} pt, {body_edge - x0:.0f} pt left of the body"
                draft = Draft(
                    "unnumbered",
                    "",
                    text.title() if text.isupper() else text,
                    index,
                    offset,
                    evidence=[("typography", note)],
                )
                found.append((x0, size, draft))
    # NOTE: headings at two or more indents (chapters 30 pt out, their sections 15 pt): the
    # outermost are the chapters; the others are found as sections by the line reading
    outermost = min((x0 for x0, _, _ in found), default=0.0)
    out = _largest_size([(size, d) for x0, size, d in found if x0 <= outermost + INDENT_SLACK])
    out = _without_summary(out)
    return out if len(out) >= MIN_OPENINGS else []


def numbered_bold_headings(norm: NormalisedBook, probe: FontProbe) -> list[Draft]:
    """Chapter-level headings set apart by weight alone, flush with the body at its size, and
    numbered: whole bold lines at body size reading ``N. Title`` whose numbers run 1, 2, 3… in
    book order, none skipped or repeated (an -ms paper's ``.NH 1`` headings, Times-Bold 10 pt in
    a Times-Roman 10 pt body, without an outline). Two signals agree, the weight and an unbroken
    run of chapter numbers, where neither alone would do (a bold term in a list, a numbered
    list item). The last resort after ``outdented_headings``: it reads every page's spans, and
    only a run of at least ``MIN_OPENINGS`` counts."""
    body = probe.body_size()
    if probe.layout is None or not body:
        return []
    run: list[Draft] = []
    for index, kept_lines in enumerate(norm.lines):
        if not kept_lines:
            continue
        kept = {compact_key(line): offset for offset, line in reversed(kept_lines)}
        for text, size, bold, _ in probe.styled_lines(index):
            text = text.strip()
            if not bold or abs(size - body) > SIZE_STEP or not text[:1].isdigit():
                continue
            parsed = parse_heading(text)
            offset = kept.get(compact_key(text))
            if parsed is None or parsed.kind != "numbered" or offset is None:
                continue
            if parsed.number.isdigit() and int(parsed.number) == len(run) + 1:
                note = f"p. {index + 1}: bold at {size:.1f} pt, body {body:.1f} pt, chapter {parsed.number} of a run"
                run.append(
                    Draft(
                        "numbered",
                        parsed.number,
                        parsed.title,
                        index,
                        offset,
                        evidence=[("typography", note)],
                    )
                )
    return run if len(run) >= MIN_OPENINGS else []


def _heading_text(text: str, larger: bool) -> bool:
    """Whether a bold outdented line reads as a heading: upper case or title-like; set larger
    than the body, also a name that opens with a sign and goes on in lower case (a command-line
    option ``--pipe``, a path ``/etc``, a directive ``.include``), which a manual's chapter may be
    titled by. At body size such a line is a term in a list, not a heading."""
    if _CAPS.match(text) or title_like(text):
        return True
    name = text.lstrip(_SIGNS)
    return larger and name != text and bool(name) and title_like(name, any_case=True)


def _largest_size(found: list[tuple[float, Draft]]) -> list[Draft]:
    """Of bold headings set at several sizes (12 pt chapters over 11 pt sections, bold 10 pt
    below them), those of the largest size that ``MIN_OPENINGS`` or more are set in, with any set
    larger still (a title, once): a book steps its heading levels down in size where it does
    not in place. The smaller ones are found as sections by the line reading."""
    sizes = sorted({round(size / SIZE_STEP) * SIZE_STEP for size, _ in found}, reverse=True)
    for tier in sizes:
        run = [d for size, d in found if abs(size - tier) <= SIZE_STEP / 2 or size > tier]
        if sum(abs(size - tier) <= SIZE_STEP / 2 for size, _ in found) >= MIN_OPENINGS:
            return run
    return [d for _, d in found]


def _without_summary(drafts: list[Draft]) -> list[Draft]:
    """``drafts`` without a summary's copies of the headings: where the titles printed twice
    (``MIN_OPENINGS`` of them or more) all stand once in a run before they all stand again (an
    API page printed from the web: a summary of its sections over tables of names, then the
    sections), the first run is the summary. Titles that recur in every chapter (``Global
    Variables`` under each module) interleave and are left as they are."""
    seen: dict[str, list[int]] = {}
    for k, d in enumerate(drafts):
        seen.setdefault(compact_key(d.title), []).append(k)
    twice = [ks for ks in seen.values() if len(ks) == 2]
    if len(twice) < MIN_OPENINGS or max(ks[0] for ks in twice) > min(ks[1] for ks in twice):
        return drafts
    first = {ks[0] for ks in twice}
    return [d for k, d in enumerate(drafts) if k not in first]
