"""Stage 3 (structure), plain text: the chapters of a ``.txt`` book, which has no typography.

A plain-text book marks its headings with the few means a fixed-width page offers. Each is a
signal true of plain-text books in general (Sphinx' and Texinfo's text output, DocBook and
nroff/troff manuals, RFC-style specifications, hand-written text files), and the detector
combines them, line by line, in one pass plus a few linear passes over the candidates:

* **underlines** (``typography``): a title line followed by a line of one repeated character
  (``= - * ~ ^ # + _ "``) of about its length, setext style (optionally with an overline). Which
  character is which level is the book's own choice (Texinfo puts ``*`` under chapters and ``=``
  under sections, Sphinx' text builder the other way round), so it is decided per book: the
  character under most single-numbered titles (``N`` or ``Chapter N``) is the chapter level, else
  the first character used more than once; characters first used before it are parts (or, used
  once, the book's own title), characters first used after it are sections, in order of first
  appearance. Numbering overrides the character heading by heading (``N.M`` is a section).
* **terminal bold** (``typography``): a line set wholly in bold (overstruck ``X\\bX``, as nroff
  and text browsers write it, or an SGR escape's bold; ``NormalisedBook.bold_lines``), alone
  between blank lines and read as a title (an API's name too: ``_code_title``), is marked like an
  underline (``BOLD``); a bold first line is the title. A line framed
  by two identical rules is marked by their character whatever its length. Where bold headings
  carry no level, a bulleted list before the first heading it names (``Topics covered:`` /
  ``* Title``) names the chapters; the bold headings after them that it leaves out are sections.
* **help headings** (``typography``): in the help format (Vim's ``:help`` files), a line right
  under a separator rule that ends in help tags (``*tag*``) is marked by the rule's character
  (``_help_heading``); tags are no part of its title; the first tagged line standing alone
  before such chapters is the book's title (``_help_title``).
* **keyword labels** (``keyword``): ``Chapter N. Title``, ``Appendix A. Title``, ``Part I`` on a
  line of their own (any spaces, NO-BREAK SPACE included, between the word and the number); a
  bare ``APPENDIX A`` takes its title from the next title-like line a few lines below (a centred
  title).
* **numbering** (``numbering``): ``N.  TITLE`` at column 0 (nroff/troff, RFC style), after a
  blank line. Columns count from the book's own left margin (the least indent of any line). The chapters are the longest run 1, 2, 3… of such lines in book order (a run may
  skip candidates: a quoted ``6.  Security Considerations`` inside chapter 2 does not break it);
  a block of numbered lines with no text between them is a list, not headings, and so is a
  numbered line whose paragraph hangs at its title's column, in from the body's margin
  (``1.  Download it`` over ``    Download the…``: ``_list_item``). ``N.M Title``
  lines are sections of chapter ``N`` when they sit inside it.
* **reference pages** (``keyword``): in a book holding several (a manual's command reference,
  man pages printed one after another), a ``Name`` header standing alone over a name line set
  further in (``grep — print lines that match patterns``) and another of a reference page's
  section headers (``Synopsis``) opens a chapter-level unit titled by its command (``_man_pages``).
* **front and back matter** (``keyword``): ``Preface``, ``Abstract``, ``Index``… alone between
  blank lines, before the first chapter (front) or after the last one opens (back). The book's
  title on the file's first line, alone or over a short title block (authors, date), is its title
  page (``typography``): a front unit (a title written twice, a page's ``<title>`` run into its
  heading, is titled by its first copy: ``_undoubled``); so is, when the first line is no title (a frame of
  dashes, a memo's two-column header), the first centred line of the opening, before any
  heading or prose, with the centred lines right below it (a title over two lines).
  A line set as such a named front-matter heading is (its column, alone between blank lines,
  over text set further in) is a front unit too (``_front_by_form``), and so is, before the first
  chapter, a title standing alone below a Texinfo node's navigation line (``Next: Introduction``,
  as a dump of Texinfo's HTML prints it above every node): the manual's top node
  (``_top_node``).
* **standing alone** (``typography``), the very last resort, for a text in which nothing at all
  was found, not even headings set apart by wider breaks (``_spaced_apart``), or only front and
  back units one of which would hold most of the book (``_ends_hold_the_body``): title-like lines
  between blank lines over a paragraph of prose, chapters and sections alike (a converter's plain
  text that sets every heading as a bare line: ``_standing_alone``), but for a heading right
  below another, which is a level below it.
* **indentation** (``typography``), only for a book the marks above leave without chapters: where
  the body is indented, title-like lines less indented than the body are headings (``_outdented``:
  a man page as ``man`` shows it).
* **a printed contents** (``contents``): a ``Contents`` / ``Table of Contents`` line followed by
  entry lines, with or without page numbers, at the start or at the end of the file. Its lines are
  never headings themselves (a contents list without page numbers looks like the chapters); its
  entries confirm candidates and place the chapters it lists that nothing else found (a
  stand-alone line with the entry's title).
* **glued headings** (``keyword``, ``contents``, ``numbering``): a keyword label an HTML-to-text
  extractor ran into the text around it (``…as shown above.Chapter 2. ToolsTable of Contents…``)
  opens its chapter mid-line where the book's contents lists its title under its number and the
  listed labels run 1, 2, 3… (``plain_text_glued``); the line model is split there
  (``_unglued``), with the contents' name, which opens a front unit.
  A line that is two consecutive contents entries run together (``PrefaceWho is this book
  for?``) is split at their seam (``_run_apart``), and the second is a level below the first
  (``_below_run_on``). Where no label is glued, a contents run together on one line with no
  numbers gives the titles: each entry set at a seam in the body, in the contents' order, opens
  mid-line, a chapter where the body shows it above the next entry (run straight on into it, or
  into its own contents' name) or as the first, else a section (``listed_headings``,
  ``_bare_headings``).
* **a heading's own contents** (``contents``): a contents named again right under a heading
  (``Chapter 1. Getting started`` / ``Table of Contents`` / its sections, as a DocBook dump
  prints every chapter's own) whose entries name lines standing alone below it, in order, makes
  the heading a unit (``Introduction`` before chapter 1 too) and its entries its sections, never
  chapters or front units (``_local_contents``, ``_local_units``); where those lines open
  chapters by their own labels (a reference page's ``Name``), the heading is their part.
* **running headers and footers** of paginated text repeat verbatim; a candidate line whose
  exact text occurs ``RUNNING_REPEATS`` times or more is furniture after its first occurrence
  (the chapter's own opening), unless it is underlined.

``plain_text_structure`` returns None when these find fewer than two chapter-level units, and the
generic text detector runs instead.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from ..models import Rejected
from ..normalise import NormalisedBook
from ..rules import (
    CHAPTER_KEYWORDS,
    CONTENTS_NAMES,
    ROMAN_FOLIO,
    SENTENCE_CLOSERS,
    SENTENCE_FINAL,
    keyword_alternation,
)
from .evidence import signal_counts
from .heading_lines import FRAMED_NUMBER, Draft
from .kinds import (
    BACK_WORDS,
    LIST_OF,
    SECTION_HEADING,
    clean_title,
    number_value,
    parse_heading,
    title_like,
    words_key,
)
from ..readers.markdown import WRAPPED_TAG_LINES, run_on_wrapped_tag
from .levels import levelled
from .plain_text_glued import Glued, glued_headings, listed_headings, run_together
from .result import StructureResult

UNDERLINE = re.compile(r"^(\s*)([=\-*~^#+_\"`.:])\2{2,}\s*$")
"""A line of one repeated punctuation character (at least three): an underline or overline."""

ELLIPSIS = "..."
"""Three dots alone on a line: an elision (``if {`` / ``...`` / ``}``), never an underline."""

UNDERLINE_SLACK = 0.25
"""An underline is within this share of its title's length (at least 2 characters either way)."""

MAX_TITLE_CHARS = 100
"""A heading line is at most this long; a longer line is body text."""

RUNNING_REPEATS = 3
"""A line whose exact text occurs this many times is a running header or footer."""

_NUMBERED_LINE = re.compile(r"\d{1,3}\.?\s+\S")
"""A line opening with a chapter number (``2.  Expression syntax``)."""

GLUED_UNDERLINES = 2
"""An underlined line glued to the text above it is a heading when this many headings standing
apart carry the same underline."""

LIST_RUN = 3
"""This many numbered lines in a row with no text between them are a list or a contents."""

LABEL_TITLE_LINES = 4
"""A bare ``APPENDIX A`` / ``Chapter 3`` takes its title from within this many lines below."""

SECTION_INDENT = 8
"""A numbered section line (``N.M Title``) may be indented up to this many columns."""

SEPARATOR_CHARS = 60
"""A rule line this long is a separator, which sets off the next line like a blank line."""

OUTDENT_BODY = 3
"""A book sets headings off by indentation only when its body is indented at least this much."""

OUTDENT_MIN = 3
"""Fewer outdented lines than this at the least indent are not a book's chapters."""

_DOTTED_CHAPTER = re.compile(r"\d+\.(?!\d)")
"""A chapter number followed by a full stop (``1. Title``), not a section's (``1.2``)."""

TEXT_UNDER_CAP = 20
"""Lines under a numbered line counted, at most, when two runs 1, 2, 3… are as long (``_chain``)."""

UNWRAPPED_CHARS = 100
"""A line longer than this is a whole paragraph on one line (a word processor's text export), not
a line of a text wrapped to a page's width."""

UNWRAPPED_MIN = 20
"""...and a text needs at least this many of them to be read as one written a paragraph a line."""

RUN_ON_SHARE = 0.2
"""...whose paragraphs run on without a blank line between them: at most this share of those long
lines has a blank line after it (the last paragraph before a code block or a list that blank lines
set off); a text that parts its paragraphs by blank lines has one after nearly every such line."""

BLANKLESS_SHARE = 0.04
"""A text with at most this many runs of blank lines per line was written without blank lines
between its paragraphs (a few stand in its examples); a text that has them has one every few
lines (a tenth of its lines or more in every bench text)."""

_DIGITS = re.compile(r"\d+")
_SUB_NUMBER = re.compile(r"\d+\.\d+")
"""A heading numbered below the chapters (``9.6.3.1.``)."""

LISTED_FORM = 0.8
"""Share of the chapters a contents placed that must stand out of the body at the chapter indent
before every line set so is a chapter (``_set_as_listed``)."""

TITLE_WORDS = 12
"""A book's title on its first line is at most this many words."""

TITLE_BLOCK_LINES = 8
"""A title block (the title over its authors, date, revision) is at most this many lines."""

TITLE_BLOCK_WIDTH = 0.85
"""A title block's lines are shorter than this share of the book's wrapped line length."""

CENTRED_INDENT = 4
"""A centred title line is at least this many columns off the margin."""

CENTRED_SLACK = 0.15
"""A centred line's room on its left and on its right differ by at most this share of the line
width (a hand-centred line is off by a few columns)."""

OPENING_LINES = 40
"""A title page's centred title is within this many non-blank lines of the file's start."""

TITLE_LINES = 3
"""A centred title is set over at most this many lines."""

WRAP_QUANTILE = 0.9
"""The book's wrapped line length: this quantile of its line lengths (prose fills its lines)."""

APPENDICES = re.compile(r"^(?:the\s+)?appendi(?:ces|xes)$", re.I)
"""A heading that names the appendices as a whole (``Appendices``): a divider before them."""

BOLD = "bold"
"""The mark of a heading set in terminal bold, among the underline characters (``_char_levels``)."""

BULLET = re.compile(r"^[*•o+-]\s+(\S.*)$")
"""A bulleted list item: its text."""

SHORT_CHARS = 40
"""An unnumbered heading line without a keyword (``Acknowledgements``) is at most this long."""

_UNDERLINE_CHARS = frozenset('=-*~^#+_"`.:')
_CONTENTS_HEADER = re.compile(rf"^(?:{CONTENTS_NAMES}|{LIST_OF}):?$", re.I)
"""The header of a printed list: the contents, or a list of figures, tables, examples…"""
_CONTENTS_NAME = re.compile(rf"^(?:{CONTENTS_NAMES}):?$", re.I)
_ENTRY_PAGE = re.compile(rf"(?:\s*\.{{2,}}\s*|\s{{2,}}|\t)(\d{{1,4}}|{ROMAN_FOLIO})$", re.I)
_KEYWORD = re.compile(
    rf"^(?:({keyword_alternation(CHAPTER_KEYWORDS)})\b|第[^章部篇编卷]{{1,5}}(?:章|部|篇|编|卷)|附录|附件|付録)",
    re.I,
)
"""A keyword label: ``Chapter``, ``Part``, ``Appendix``; in Chinese and Japanese ``第…章``, ``附录``."""


@dataclass(slots=True)
class _Line:
    offset: int  # of the first non-space character
    text: str  # stripped, whitespace collapsed
    indent: int
    page: int
    blank_before: bool
    raw: str = ""  # stripped, inner spacing kept (a contents line's page number after 2 spaces)
    blank_after: bool = False  # a blank line or a separator rule follows
    gap_after: bool = False  # a blank line follows (a separator rule does not count)
    bold: bool = False  # set wholly in terminal bold (``NormalisedBook.bold_lines``)
    blanks_before: int = 0  # blank lines right above it (0 on a page's first line)


@dataclass
class _Candidate:
    index: int  # line index
    kind: str  # part|chapter|appendix|numbered|section|front|back|unnumbered
    number: str
    title: str
    evidence: list[tuple[str, str]] = field(default_factory=list)
    char: str = ""  # the underline character, when underlined
    offset: int = -1  # when the heading starts above its title line (an overline, a label)


def plain_text_structure(norm: NormalisedBook) -> StructureResult | None:
    """The headings of a plain-text book (see the module docstring), or None when fewer than two
    chapter-level units are found."""
    lines, glued, bare = _unglued(_lines(norm))
    rejected: list[Rejected] = []
    local = _local_contents(lines)
    listing, entries = _contents(lines, local)
    lines, glued, run_on = _run_apart(lines, glued, entries)
    if run_on:
        local = _local_contents(lines)
        listing, entries = _contents(lines, local)
    for own in local:
        listing.update(range(own.header, own.end))  # NOTE: a heading's own contents lists, it heads nothing
    candidates = sorted(
        _candidates(lines, listing, rejected) + _man_pages(lines, listing), key=lambda c: c.index
    )
    chosen = _choose(lines, candidates, entries, listing, rejected, local, _bare_headings(lines, bare, glued))
    _below_run_on(lines, chosen, run_on)
    if sum(depth == 1 and c.kind != "part" for c, depth in chosen) < 2:
        chosen = _outdented(lines, listing) or chosen
    else:
        chosen = _outdented_over(lines, listing, chosen) or chosen
    if sum(depth == 1 and c.kind not in ("part", "front", "back") for c, depth in chosen) < 2:
        # NOTE: still no chapters (a title page and a back unit are none): the last resort
        spaced = _spaced_apart(lines, listing)
        if not spaced and (sum(depth == 1 for _, depth in chosen) < 2 or _ends_hold_the_body(lines, chosen)):
            # NOTE: headings that only stand alone, only where nothing at all was found (units
            # named as front or back matter all through are the book's units, whatever their kind)
            # or where the front and back units found hold the book's body between them
            spaced = _standing_alone(lines, listing, frozenset(c.index for c, _ in chosen))
        chosen = _with_ends(chosen, spaced) if spaced else chosen
    else:
        chosen = _set_as_listed(lines, listing, chosen)
    drafts = []
    for c, depth in chosen:
        c.evidence += [e for e in glued.get(c.index, []) if e not in c.evidence]
        line = lines[c.index]
        offset = c.offset if c.offset >= 0 else line.offset
        drafts.append((Draft(c.kind, c.number, c.title, line.page, offset, evidence=c.evidence), depth))
    if sum(depth == 1 and c.kind != "part" for c, depth in chosen) < 2:
        return None
    headings, _ = levelled(drafts, norm, "headings")
    return StructureResult(headings, "headings", signal_counts=signal_counts(headings), rejected=rejected)


def _lines(norm: NormalisedBook) -> list[_Line]:
    """Every non-blank line of the canonical text; the first line of a synthetic page counts as
    after a blank line (pages are cut at paragraph ends, and the blank line between them is not
    kept). Indents are counted from the book's left margin, the least indent of any line: a text
    set with a uniform margin (every line two columns in, as some formatters and ``pr -o`` write
    it) is read as the same text set flush left, so ``N.  Title`` at the margin is at "column 0".
    Lines repeated ``RUNNING_REPEATS`` times or more, their digits aside (a printer's header left
    in the text), do not set the margin; one further out counts as at it."""
    out: list[_Line] = []
    gaps = 0  # runs of blank lines inside pages
    for page, kept in enumerate(norm.lines):
        previous_blank = gap = True
        blanks = 0
        for offset, raw in kept:
            stripped = raw.strip()
            if not stripped:
                gaps += not previous_blank
                previous_blank = gap = True
                blanks += 1
                continue
            if previous_blank and out:
                out[-1].blank_after = True
            if gap and out:
                out[-1].gap_after = True
            gap = False
            indent = len(raw) - len(raw.lstrip())
            text = " ".join(stripped.split()) if len(stripped) <= MAX_TITLE_CHARS else stripped
            out.append(_Line(offset + indent, text, indent, page, previous_blank, stripped))
            out[-1].bold = offset in norm.bold_lines
            out[-1].blanks_before, blanks = blanks, 0
            # NOTE: a separator rule (a long line of one character) sets off what follows as a
            # blank line would: ``=====`` over ``1. INTRODUCTION`` opens a chapter.
            previous_blank = len(stripped) >= SEPARATOR_CHARS and UNDERLINE.match(stripped) is not None
    if out:
        out[-1].blank_after = out[-1].gap_after = True
        unwrapped = [line for line in out if len(line.raw) > UNWRAPPED_CHARS]
        run_on = len(unwrapped) >= UNWRAPPED_MIN and sum(line.gap_after for line in unwrapped) <= (
            RUN_ON_SHARE * len(unwrapped)
        )
        if gaps <= BLANKLESS_SHARE * len(out) or run_on:
            # NOTE: an extractor that writes no blank lines between paragraphs (Ghostscript's
            # txtwrite; UnRTF, a paragraph a line) leaves no line after one: every line may then
            # stand alone, and the other marks decide. Its code blocks may still be set off by
            # blank lines: a text whose paragraphs, each one long unwrapped line, run on without
            # a blank line between them (``run_on``) is written so too.
            for line in out:
                line.blank_before = line.blank_after = line.gap_after = True
                line.blanks_before = 1
        masked = Counter(_DIGITS.sub("#", line.text) for line in out)
        # NOTE: the margin is the body's: a line repeated page after page (a printer's header
        # left in the text, ``Page 3/96``) may stand further out than any of the book's own
        body_lines = [line.indent for line in out if masked[_DIGITS.sub("#", line.text)] < RUNNING_REPEATS]
        margin = min(body_lines or [line.indent for line in out])
        for line in out:
            line.indent = max(0, line.indent - margin)
    return out


def _unglued(lines: list[_Line]) -> tuple[list[_Line], dict[int, list[tuple[str, str]]], dict[int, Glued]]:
    """The lines with each heading an extractor glued into a line (``plain_text_glued``) and the
    contents' name above them set on lines of their own, standing apart as a heading stands
    between blank lines: the break the extractor dropped, put back in the line model only (the
    canonical text is unchanged, and the heading opens mid-line). Returns the lines and, by the
    index of each heading's line, the evidence of its contents entry and number run."""
    header, found = glued_headings([(line.offset, line.raw) for line in lines])
    # NOTE: a line a page ends may run on to the next page's first (a line longer than a page)
    cut = {i for i in range(len(lines) - 1) if lines[i + 1].page != lines[i].page}
    if not found:
        header, found = listed_headings([(line.offset, line.raw) for line in lines], cut)
    elif (before := listed_headings([(line.offset, line.raw) for line in lines], cut, chapters=1)[1]) and (
        front := [g for g in before if g.depth == 1 and g.kind == "unnumbered" and g.end <= found[0].start]
    ):
        # NOTE: where labelled chapters are glued, an unlabelled entry listed before them is found
        # by its title alone (``Introduction``, a preface): a front unit
        found = sorted(found + front, key=lambda g: g.start)
    if not found:
        return lines, {}, {}
    spans = ([header] if header is not None else []) + [(g.start, g.end) for g in found]
    apart = {start for start, _ in spans}
    heads = {g.start: g for g in found}
    out: list[_Line] = []
    evidence: dict[int, list[tuple[str, str]]] = {}
    for line in lines:
        end = line.offset + len(line.raw)
        cuts = sorted(
            {x for span in spans if line.offset <= span[0] < end for x in span if line.offset < x < end}
        )
        if not cuts:
            out.append(line)
            continue
        bounds = [line.offset, *cuts, end]
        pieces = [line.raw[a - line.offset : b - line.offset] for a, b in zip(bounds, bounds[1:])]
        pieces_at = [(a + len(p) - len(p.lstrip()), p.strip()) for a, p in zip(bounds, pieces) if p.strip()]
        for j, (start, raw) in enumerate(pieces_at):
            first, last, alone = j == 0, j == len(pieces_at) - 1, start in apart
            text = " ".join(raw.split()) if len(raw) <= MAX_TITLE_CHARS else raw
            piece = _Line(
                start,
                text,
                line.indent if first else 0,
                line.page,
                not first or alone or line.blank_before,
                raw,
            )
            piece.blank_after = line.blank_after if last and not alone else True
            piece.gap_after = line.gap_after if last and not alone else True
            piece.blanks_before = max(line.blanks_before, alone) if first else 1
            out.append(piece)
            if (g := heads.get(start)) is not None:
                evidence[len(out) - 1] = _glued_evidence(g, len(out))
    return out, evidence, {g.start: g for g in found if g.bare}


def _glued_evidence(g: Glued, number: int) -> list[tuple[str, str]]:
    """The evidence of a glued heading (``plain_text_glued``) split out as line ``number``."""
    where = f"line {number}: '{g.title[:60]}'"
    if g.bare:
        return [
            (
                "contents",
                f"{where}: listed in the contents run together (offset {g.listed}), at a seam here: {g.why}",
            )
        ]
    return [
        ("contents", f"{where}: listed in the contents (offset {g.listed}) under its number"),
        ("numbering", f"{where}: {g.kind} {g.number} of a run of glued headings"),
    ]


def _run_apart(
    lines: list[_Line],
    glued: dict[int, list[tuple[str, str]]],
    entries: list[tuple[str, str, int, int]],
) -> tuple[list[_Line], dict[int, list[tuple[str, str]]], set[int]]:
    """The lines with each line that is two consecutive contents entries run together
    (``plain_text_glued.run_together``) set as two lines standing apart, as two headings stand,
    the canonical text unchanged. Returns the lines, ``glued`` by the new indices and the
    indices of the second headings."""
    blocks: dict[int, list[str]] = {}
    for key, _, _, block in entries:
        blocks.setdefault(block, []).append(key)
    below = [""] * len(lines)
    for i in range(len(lines) - 2, -1, -1):
        if not lines[i].blank_after and len(below[i + 1]) <= MAX_TITLE_CHARS:
            below[i] = f"{lines[i + 1].raw} {below[i + 1]}".strip()
    seams = run_together(
        [(line.offset, line.raw, below[i]) for i, line in enumerate(lines)], list(blocks.values())
    )
    if not seams:
        return lines, glued, set()
    out: list[_Line] = []
    moved: dict[int, int] = {}
    for i, line in enumerate(lines):
        moved[i] = len(out)
        if i not in seams:
            out.append(line)
            continue
        at = seams[i] - line.offset
        head, tail = line.raw[:at], line.raw[at:]
        out.append(replace(line, text=" ".join(head.split()), raw=head, blank_after=True, gap_after=True))
        second = _Line(seams[i], " ".join(tail.split()), line.indent, line.page, True, tail)
        second.blank_after, second.gap_after, second.blanks_before = line.blank_after, line.gap_after, 1
        out.append(second)
    return out, {moved[i]: v for i, v in glued.items()}, {moved[i] + 1 for i in seams}


def _bare_headings(
    lines: list[_Line], bare: dict[int, Glued], glued: dict[int, list[tuple[str, str]]]
) -> dict[int, tuple[_Candidate, int]]:
    """The headings found glued by their listed titles alone (``plain_text_glued.listed_headings``),
    by the index of the line each opens, with their depths: the contents and the body gave
    their levels, which no other mark of the line does."""
    out = {}
    for i, line in enumerate(lines):
        if (g := bare.get(line.offset)) is not None:
            out[i] = (_Candidate(i, g.kind, g.number, g.title, list(glued.get(i, []))), g.depth)
    return out


def _below_run_on(lines: list[_Line], chosen: list[tuple[_Candidate, int]], run_on: set[int]) -> None:
    """A heading run straight on after the heading above it (``_run_apart``), both chosen, is a
    level below that heading: a heading with no text of its own before the next opens the
    next one's parent (a chapter run into its first section)."""
    at = {c.index: k for k, (c, _) in enumerate(chosen)}
    for i in sorted(run_on):
        if i not in at or i - 1 not in at:
            continue
        c, depth = chosen[at[i]]
        above = chosen[at[i - 1]][1]
        if depth > above:
            continue
        c.kind = "section"
        c.evidence.append(
            ("contents", f"line {i + 1}: '{lines[i].text[:60]}' run on after the heading above it")
        )
        chosen[at[i]] = (c, above + 1)


def _underline(line: _Line, title: _Line) -> str:
    """The character ``line`` underlines ``title`` with, or ``""``. An underline sits right below
    its title: a rule after a blank line is a separator."""
    if line.blank_before:
        return ""
    m = UNDERLINE.match(line.text) if line.text[0] in _UNDERLINE_CHARS else None
    if not m or line.text == ELLIPSIS:
        return ""  # ``...`` under a line is an elision in an example, not an underline
    size, wanted = len(line.text), len(title.text)
    slack = max(2, UNDERLINE_SLACK * wanted)
    if abs(size - wanted) > slack or abs(line.indent - title.indent) > slack:
        return ""
    return m.group(2)


def _framed(lines: list[_Line], i: int) -> str:
    """The character of the two identical rules that frame line ``i`` (one right above, one
    right below, text after a blank line), or ``""``. A framed line that reads as a title is a
    heading whatever its length: a title spread over the line (``A.`` flush left, the title
    centred in the rest) is framed by rules of the full width. A table's header row between
    rules is no such line (its rows follow the lower rule directly), nor is a sentence (a
    displayed example between rules)."""
    if i == 0 or i + 1 >= len(lines):
        return ""
    above, below = lines[i - 1], lines[i + 1]
    if above.text != below.text or below.blank_before or not below.gap_after:
        return ""
    if parse_heading(lines[i].text) is None and not title_like(lines[i].text):
        return ""  # a sentence between rules is a displayed example, not a title
    m = UNDERLINE.match(below.text) if below.text[0] in _UNDERLINE_CHARS else None
    return m.group(2) if m and below.text != ELLIPSIS else ""


def _contents(
    lines: list[_Line], local: list[_LocalContents] | None = None
) -> tuple[set[int], list[tuple[str, str, int, int]]]:
    """The lines of printed contents (never headings) and their entries, as
    ``(words key of the title, number, indent, line of the block's header)``. A heading's own
    contents (``local``, ``_local_contents``) is none of them, and a block ends at its heading."""
    local_headings = {c.heading for c in local or []}
    local_headers = {c.header for c in local or []}
    listing: set[int] = set()
    entries: list[tuple[str, str, int, int]] = []
    listed: set[str] = set()
    for i, line in enumerate(lines):
        if i in local_headers:
            continue
        if not _CONTENTS_HEADER.match(line.text) or not (line.blank_before or line.text[0].isupper()):
            continue  # NOTE: a header set right under a paragraph (no blank line) is still one
        k = i + 1
        if k < len(lines) and UNDERLINE.match(lines[k].text):
            k += 1
        found: list[tuple[str, str, int]] = []
        bulleted = False  # the first entry has a bullet: the contents is a bulleted list
        seen = set(listed)  # a title an earlier list gave: the chapters themselves
        while k < len(lines):
            entry = lines[k]
            if k + 1 < len(lines) and _underline(lines[k + 1], entry):
                break  # an underlined title: the body has begun
            if k in local_headings:
                break  # a heading over its own contents: the body has begun
            if entry.blank_before and _CONTENTS_HEADER.match(entry.text):
                break  # the next list (``List of Examples`` after the contents): a block of its own
            if not any(ch.isalpha() for ch in entry.text):
                if _label_over_listed(lines, k, seen):
                    break
                # NOTE: a line of only a number or leaders (an extractor that cuts an entry
                # into pieces): a number is the next entry's own when that entry starts with a
                # letter and the number is a section's (``1.2.4`` / ``Further Reading``) or
                # the next chapter's (``2`` / ``Basics`` after chapter 1); else a page number.
                nxt_line = lines[k + 1] if k + 1 < len(lines) else None
                if (
                    _BARE_NUMBER.fullmatch(entry.text)
                    and nxt_line is not None
                    and nxt_line.text[:1].isalpha()
                    and ("." in entry.text.rstrip(".") or entry.text.rstrip(".") == _next_chapter(found))
                ):
                    number = entry.text.rstrip(".")
                    k += 1
                    parsed = _entry(f"{number} {lines[k].raw}")
                    entry = lines[k]
                else:
                    k += 1
                    continue
            else:
                if found and bulleted and not _BULLET.match(entry.raw):
                    break  # NOTE: a bulleted contents ends where its bullets do
                parsed = _entry(entry.raw)
            if not found:
                bulleted = _BULLET.match(entry.raw) is not None
            top = min((indent for _, _, indent in found), default=entry.indent)
            paged = _ENTRY_PAGE.search(entry.raw) is not None
            if parsed is None and found and (resume := _contents_resumed(lines, k)) is not None:
                k = resume  # NOTE: a page break inside the contents: its folio and running head
                continue
            if (
                parsed is None
                or (parsed[0] in seen and entry.indent <= top and not paged)
                or _label_over_listed(lines, k, seen)
            ):
                break  # prose, or a top-level title listed already: the chapters themselves
            if entry.indent <= top:
                seen.add(parsed[0])  # sub-entries may repeat (two sections named ``Input Focus``)
            found.append((parsed[0], parsed[1], entry.indent))
            k += 1
        if len(found) >= 2:
            listed.update(key for key, _, _ in found)
            listing.update(range(i, k))
            entries.extend((key, number, indent, i) for key, number, indent in found)
    if not entries and (headerless := _headerless_contents(lines)) is not None:
        block, found = headerless
        listing.update(block)
        entries.extend((key, number, indent, block.start) for key, number, indent in found)
    return listing, entries


HEADERLESS_ENTRIES = 3
"""Top-level items of a bulleted list that make it a contents without a header
(``_headerless_contents``)."""


def _headerless_contents(lines: list[_Line]) -> tuple[range, list[tuple[str, str, int]]] | None:
    """A contents set as a bulleted list with no header above it, as a text browser renders a
    web page's table of contents (a ``<div class="toc">`` of nested links): a run of bullet lines
    (blank lines between them allowed) starting within the first ``OPENING_LINES`` lines, whose
    top-level items (the least indented), at least ``HEADERLESS_ENTRIES`` of them, each name a
    line standing alone below the list, in the list's order. Returns the list's lines and its
    entries (``(words key of the title, number, indent)``), or None. Only where the file has no
    contents under a header (``_contents``)."""
    for i, line in enumerate(lines[:OPENING_LINES]):
        if not _BULLET.match(line.raw) or (i and _BULLET.match(lines[i - 1].raw)):
            continue
        end = i
        while end < len(lines) and _BULLET.match(lines[end].raw):
            end += 1
        items = [(_entry(lines[k].raw), lines[k].indent) for k in range(i, end)]
        if any(entry is None for entry, _ in items):
            continue
        found = [(entry[0], entry[1], indent) for entry, indent in items if entry is not None]
        top = min(indent for _, _, indent in found)
        at = end
        for key, _, indent in found:
            if indent != top:
                continue
            at = next(
                (
                    m + 1
                    for m in range(at, len(lines))
                    if lines[m].blank_before and lines[m].blank_after and words_key(lines[m].text) == key
                ),
                -1,
            )
            if at < 0:
                break
        if at >= 0 and sum(indent == top for _, _, indent in found) >= HEADERLESS_ENTRIES:
            return range(i, end), found
    return None


_APPENDIX_WORD = re.compile(r"appendix|appendices|anhang|annexe?", re.I)
"""An unnumbered appendix's name, read as a contents entry's words key."""

CONTENTS_BREAK_LINES = 4
"""Lines a page break may put inside a contents (a folio, a running head over two lines)."""


def _contents_resumed(lines: list[_Line], k: int) -> int | None:
    """Where a contents with page numbers resumes after a page break at line ``k`` (a text
    extracted from a PDF keeps the folio and the running head between its pages): the next line,
    within ``CONTENTS_BREAK_LINES``, that is an entry with a page number, when the line before ``k``
    was one too; else None."""
    if k == 0 or _ENTRY_PAGE.search(lines[k - 1].raw) is None:
        return None
    for j in range(k + 1, min(k + 1 + CONTENTS_BREAK_LINES, len(lines))):
        if _ENTRY_PAGE.search(lines[j].raw) is not None and _entry(lines[j].raw) is not None:
            return j
    return None


def _label_over_listed(lines: list[_Line], k: int, seen: set[str]) -> bool:
    """Whether line ``k`` is a chapter label alone (``Chapter 1``, or a number framed by dashes,
    ``—1—``) over a title the contents has listed already: the first chapter's opening, the body
    begun, not an entry. (A bare ``2`` over a title not yet listed is an entry an extractor cut in
    two.)"""
    if k + 1 >= len(lines):
        return False
    text = lines[k].text
    if not FRAMED_NUMBER.fullmatch(text):
        parsed = parse_heading(text)
        if parsed is None or parsed.title or not _KEYWORD.match(text):
            return False
    below = _entry(lines[k + 1].raw)
    return below is not None and below[0] in seen


def _next_chapter(found: list[tuple[str, str, int]]) -> str:
    """The chapter number a contents' next chapter entry would carry: one after the last
    whole-number entry so far, ``1`` before any."""
    numbers = [int(number) for _, number, _ in found if number.isdigit()]
    return str(numbers[-1] + 1 if numbers else 1)


_BULLET = re.compile(r"[*+•·◦▪‣o-]\s+(?=\S)")
"""A bullet before a contents entry (a web page's contents list as a text browser or converter
sets it: ``*`` for the chapters, ``+`` and ``o`` below them): no part of its title."""


def _entry(text: str) -> tuple[str, str] | None:
    """A contents line: ``(words key of its title, number)``, or None for prose. Its length is
    the title's, without the leaders and page (a contents may run its leaders over the line)."""
    bullet = _BULLET.match(text)
    title = clean_title(_ENTRY_PAGE.sub("", text[bullet.end() :] if bullet else text))
    if len(title) > MAX_TITLE_CHARS:
        return None
    parsed = parse_heading(title, full_stop=True, lettered=True)
    if parsed is not None:
        return (words_key(parsed.title), parsed.number) if parsed.title else (words_key(title), parsed.number)
    if not title_like(title, max_words=16, full_stop=True, any_case=bullet is not None):
        return None  # NOTE: a bulleted entry may start in lower case, as its heading does
    dotted = _DOTTED_NUMBER.match(title)  # a section whose title reads like none (``5.1.3 eval()``)
    return words_key(title), dotted.group(1) if dotted else ""


def _rejected(lines: list[_Line], index: int, why: str) -> Rejected:
    """Line ``index`` considered and left out, with why."""
    line = lines[index]
    message = f"line {index + 1}: '{line.text[:60]}': {why}"
    return Rejected("plain_text", line.text, why, line.page + 1, message, line_number=index + 1)


def _candidates(lines: list[_Line], listing: set[int], rejected: list[Rejected]) -> list[_Candidate]:
    """Every line that may open a part, chapter or section, by what marks it."""
    counts = Counter(line.text for line in lines)
    seen: set[str] = set()
    out: list[_Candidate] = []
    glued: list[_Candidate] = []  # underlined right below a line of text
    margin = _body_margin(lines)
    skip = -1
    for i, line in enumerate(lines):
        if i <= skip or i in listing or len(line.text) > MAX_TITLE_CHARS:
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else None
        is_rule = line.text[0] in _UNDERLINE_CHARS and UNDERLINE.match(line.text)
        char = (_underline(nxt, line) or _framed(lines, i)) if nxt is not None and not is_rule else ""
        if char:
            over = i > 0 and lines[i - 1].text == nxt.text if nxt else False
            if line.blank_before or over or (nxt is not None and nxt.blank_after):
                where = f"line {i + 1}: '{line.text[:60]}'"
                c = _parsed(i, line.text, True)
                c.char = char
                c.evidence.append(("typography", f"{where} underlined with '{char}'"))
                if over:
                    c.offset = lines[i - 1].offset
                if line.blank_before or over:
                    out.append(c)
                else:
                    glued.append(c)
                skip = i + 1
                continue
        if (tagged := _help_heading(lines, i)) is not None:
            out.append(tagged)
            continue
        if _bold_heading(line):
            c = _parsed(i, line.text, True)
            c.char = BOLD
            c.evidence.append(("typography", f"line {i + 1}: '{line.text[:60]}' set in bold"))
            out.append(c)
            continue
        if (linked := _permalinked(line)) is not None:
            c = _parsed(i, linked, True)
            c.char = PERMALINK
            c.evidence.append(("typography", f"line {i + 1}: '{line.text[:60]}' ends in a permalink sign"))
            out.append(c)
            continue
        repeated = counts[line.text] >= RUNNING_REPEATS and line.text in seen
        seen.add(line.text)
        if not line.blank_before or not _may_head(line.text):
            continue
        text = _wrapped_heading(lines, i) or line.text
        stop = _KEYWORD.match(text) is not None and (line.blank_after or text != line.text)
        # NOTE: a keyword line standing alone is a heading even where the book ends its titles
        # with a full stop (``Chapter 1. The Voyage.``): the keyword, not the title, marks it.
        parsed = parse_heading(text, full_stop=stop)
        if parsed is None and text != line.text:
            text, stop = line.text, False
            parsed = parse_heading(text)
        alone = parsed is None and line.blank_after
        if alone:
            # NOTE: a numbered or keyword line standing alone may end in a number of its title's
            # (``3. Updating from Release 3``): a contents line's page number stands in a list
            parsed = parse_heading(text, full_stop=stop, marked=True)
            if parsed is not None and parsed.kind not in _ALONE_KINDS:
                parsed = None
        if parsed is None:
            continue
        where = f"line {i + 1}: '{line.text[:60]}'"
        if repeated:
            rejected.append(
                _rejected(lines, i, f"repeats {counts[line.text]} times (a running header or footer)")
            )
            continue
        c = _parsed(i, text, False, full_stop=stop, marked=alone)
        if _KEYWORD.match(line.text) and c.kind in ("chapter", "part", "appendix", "back"):
            if not c.title:
                c.title = _title_below(lines, i)
            c.evidence.append(("keyword", where))
        elif c.kind == "numbered":
            if line.indent or not (line.blank_after or (nxt is not None and nxt.indent > 0)):
                continue
            if _list_item(line, lines[i + 1 : i + 3], margin):
                continue
        elif c.kind == "section":
            if line.indent > SECTION_INDENT:
                continue
        elif c.kind in ("front", "back"):
            if not line.blank_after:
                continue
            c.evidence.append(("keyword", where))
        else:
            continue
        out.append(c)
    # NOTE: an underlined title glued to the line above (a contents list run straight into the
    # title of the top node, no blank line between) is a heading where the book underlines other
    # headings, standing apart, with the same character.
    chars = Counter(c.char for c in out if c.char and c.char != BOLD)
    out += [c for c in glued if chars[c.char] >= GLUED_UNDERLINES and title_like(lines[c.index].text)]
    return sorted(out, key=lambda c: c.index)


MAN_PAGES_MIN = 2
"""Reference pages (``_man_pages``) a book needs before each opens a unit: a single one is
the whole text, whose ``NAME`` and ``SYNOPSIS`` are its sections or chapters (``_outdented``)."""

MAN_SECTION_LINES = 6
"""Lines below a reference page's name line within which its next section header stands."""

_MAN_NAME = re.compile(r"([\w.:+@/\-\u2010\u2212]+(?:\s*,\s*[\w.:+@/\-\u2010\u2212]+)*)\s+[^\w\s]{1,2}\s+\S")
"""A reference page's name line: the command (or commands, by commas; troff's hyphens may come
out as minus signs), a dash (or whatever mark a font without its glyph left), what it does
(``grep — print lines that match patterns``)."""

_MAN_SECTION = re.compile(r"(?:name|synopsis|description|options)", re.I)
"""The section headers of a reference page (a man page's ``NAME``, ``SYNOPSIS``…)."""


def _man_pages(lines: list[_Line], listing: set[int]) -> list[_Candidate]:
    """The reference pages of a book that holds several (a manual's command reference, man pages
    printed one after another, DocBook's ``refentry`` as text): a ``Name`` header standing alone,
    over its name line set further in (``grep — print lines that match patterns``) and, within
    ``MAN_SECTION_LINES`` lines, another of the page's section headers at the ``Name`` header's
    column (``Synopsis``). Each opens a chapter-level unit titled by its command, where the book
    has ``MAN_PAGES_MIN`` of them or more."""
    found = []
    for i, line in enumerate(lines[:-1]):
        if i in listing or line.text.casefold() != "name" or not (line.blank_before and line.blank_after):
            continue
        below = lines[i + 1]
        m = _MAN_NAME.match(below.text)
        if m is None or below.indent <= line.indent:
            continue
        after = lines[i + 2 : i + 2 + MAN_SECTION_LINES]
        if not any(
            b.indent == line.indent and b.blank_before and _MAN_SECTION.fullmatch(b.text) for b in after
        ):
            continue
        where = f"line {i + 1}: '{line.text}' over '{below.text[:60]}'"
        found.append(_Candidate(i, "chapter", "", m.group(1), [("keyword", f"{where}: a reference page")]))
    return found if len(found) >= MAN_PAGES_MIN else []


_ITEM_NUMBER = re.compile(r"\d{1,3}[.)]?\s+")


def _body_margin(lines: list[_Line]) -> int:
    """The indent of most long lines: where the book's paragraphs start."""
    body = Counter(line.indent for line in lines if len(line.text) > SHORT_CHARS).most_common(1)
    return body[0][0] if body else 0


def _list_item(line: _Line, below: list[_Line], margin: int) -> bool:
    """Whether numbered ``line`` is an item of a numbered list: the paragraph below it (``below``:
    its first lines) hangs at the column where the item's own text starts (``1.  Download it`` over
    ``    Download the…``), in from the body's ``margin``, as every plain-text writer sets a list
    item's paragraphs. A chapter's text below its numbered title starts at the body's margin,
    even where that margin happens to be the title's column (``1. Introduction`` over a body set
    three columns in), and a paragraph whose first line alone is indented (nroff's ``.PP``)
    returns to the margin on its second line."""
    m = _ITEM_NUMBER.match(line.raw or line.text)
    if m is None or not below:
        return False
    column = line.indent + m.end()
    paragraph = below[:1] + [b for b in below[1:2] if not b.blank_before]
    return column > margin and all(b.indent == column for b in paragraph)


def _wrapped_heading(lines: list[_Line], i: int) -> str:
    """A keyword heading wrapped over the lines below it (``Chapter 12. Of the Older Maps and
    the Newer`` / ``Charts of the Coast``): the lines joined, where the keyword line carries
    a title of its own and the block ends in a blank line within ``TITLE_LINES`` lines; else
    ``""``. A label alone (``Chapter 3`` over its title) is ``_title_below``'s."""
    line = lines[i]
    if line.blank_after or not _KEYWORD.match(line.text):
        return ""
    parsed = parse_heading(line.text, full_stop=True)
    if parsed is not None and not parsed.title:
        return ""
    block = [line.text]
    for below in lines[i + 1 : i + TITLE_LINES]:
        if below.blank_before:
            return ""
        block.append(below.text)
        if below.blank_after:
            return " ".join(block)
    return ""


_ALONE_KINDS = ("numbered", "chapter", "part", "appendix", "section")
"""Headings whose number or keyword, on a line standing alone, lets their title end in a number."""


def _bold_heading(line: _Line) -> bool:
    """A line set wholly in terminal bold, alone between blank lines, that reads as a title: a
    heading of a text whose only typography is bold (nroff, a text browser's rendering of HTML,
    a converter's terminal output), marked like an underline with the pseudo-character ``BOLD``.
    Bold marks it, so its title may be an API's name in small letters (``_code_title``)."""
    return (
        line.bold
        and line.blank_before
        and line.gap_after
        and (parse_heading(line.text) is not None or title_like(line.text) or _code_title(line.text))
    )


_CODE_TITLE = re.compile(r"[a-z_$][\w$]*(?:\.[\w$]+)+(?:\(.*\))?|[a-z_$][\w$]*\(.*\)")
"""An API's name as a heading's whole title, in small letters: a dotted name (``os.path``) or
a call (``fetch(url[, options])``, ``buffer.slice(start)``)."""


def _code_title(text: str) -> bool:
    """Whether ``text`` is wholly an API's name (``_CODE_TITLE``): a title a heading marked as one
    (set in bold) may carry, though it opens in small letters, as a reference manual titles an
    entry by the function it documents."""
    return len(text) <= MAX_TITLE_CHARS and _CODE_TITLE.fullmatch(text) is not None


_HELP_TAGS = re.compile(r"\s((?:\*[^*\s|]+\*\s*)+)$")
"""Help tags closing a line (``*how-it-works*``, ``*expression* *expr*``): the targets a Vim help
file (or any text written in its format) sets right-aligned on a heading's line."""

_HELP_CONCEALED = re.compile(r"`([^`\n]+)`|\|([^|\s]+)\|")
"""Marks the help format shows without their signs: code in backquotes, a ``|link|``."""


def _help_shown(text: str) -> str:
    """A help line's title as the help format shows it: its concealed signs dropped."""
    return _HELP_CONCEALED.sub(lambda t: t.group(1) or t.group(2), text).strip()


def _help_heading(lines: list[_Line], i: int) -> _Candidate | None:
    """A heading in the help format (Vim's ``:help`` files, and the converters that write them):
    a line right under a separator rule (``SEPARATOR_CHARS`` of one character, no blank line
    between) that ends in help tags (``_HELP_TAGS``) after a title. The rule's character is the
    heading's mark, as an underline's is (``_char_levels``: a ``=`` rule over the book's title
    and ``-`` rules over its chapters, or ``=`` rules over numbered chapters); the tags are no
    part of the title, nor are the signs the format conceals (``_HELP_CONCEALED``). A rule over a
    table or a paragraph marks no heading: their lines end in no tag."""
    if i == 0:
        return None
    rule, line = lines[i - 1], lines[i]
    if rule.gap_after or len(rule.text) < SEPARATOR_CHARS or rule.text[0] not in _UNDERLINE_CHARS:
        return None
    m = UNDERLINE.match(rule.text)
    tags = _HELP_TAGS.search(line.text)
    if m is None or tags is None:
        return None
    title = _help_shown(line.text[: tags.start()])
    if not title or (parse_heading(title) is None and not title_like(title, any_case=True, marked=True)):
        return None
    c = _parsed(i, title, True)
    c.char = m.group(2)
    c.evidence.append(
        ("typography", f"line {i + 1}: '{line.text[:60]}' under a rule of '{c.char}', help tags")
    )
    return c


def _help_title(lines: list[_Line], chosen: dict[int, tuple[_Candidate, int]]) -> _Candidate | None:
    """The title of a book whose chapters are help headings (``_help_heading``): the first line
    before them that stands alone and ends in help tags, its title reading as one (a help file
    tags its title as it tags its headings: ``Expression evaluation   *expression* *expr*``,
    under the file's own tag line, or under a rule of its own); a front unit. None where another
    unit comes first or the chapters are not help headings."""
    helped = sorted(
        i for i, (c, depth) in chosen.items() if depth == 1 and c.char and _HELP_TAGS.search(lines[i].text)
    )
    if len(helped) < 2 or min(chosen) < helped[0]:
        return None
    for i, line in enumerate(lines[: helped[0]]):
        tags = _HELP_TAGS.search(line.text)
        if tags is None or not line.blank_before or line.text.startswith("*"):
            continue  # NOTE: the file's tag line (``*name.txt*  For version 9``) opens with its tag
        title = _help_shown(line.text[: tags.start()])
        if title_like(title):
            where = f"line {i + 1}: '{line.text[:60]}' tagged before the chapters (the title)"
            return _Candidate(i, "front", "", title, [("typography", where)])
    return None


PERMALINK = "¶"
"""The sign a web page's heading ends in, its permalink (Sphinx, MkDocs: ``<a class="headerlink">¶</a>``),
which a text rendering of the page keeps: the line is a heading, as an underline marks one (its
pseudo-character in ``_char_levels``)."""


def _permalinked(line: _Line) -> str | None:
    """The title of a line that ends in a permalink sign (``PERMALINK``) right after its last
    word and reads as a heading (``2.1. Installing from source¶``), else None; a sign after
    a space or alone is a pilcrow in the text, not a link."""
    if not line.text.endswith(PERMALINK) or len(line.text) < 2 or line.text[-2].isspace():
        return None
    title = line.text[:-1]
    return title if parse_heading(title, marked=True) is not None or title_like(title, marked=True) else None


def _may_head(text: str) -> bool:
    """Cheap test before ``parse_heading``: a numbered or keyword line, or a short one (a front or
    back matter name); never an underline."""
    first = text[0]
    if first in _UNDERLINE_CHARS and UNDERLINE.match(text):
        return False
    return first.isdigit() or len(text) <= SHORT_CHARS or bool(_KEYWORD.match(text))


def _parsed(i: int, text: str, underlined: bool, full_stop: bool = False, marked: bool = False) -> _Candidate:
    parsed = parse_heading(
        text, full_stop=underlined or full_stop, lettered=underlined, marked=underlined or marked
    )
    if parsed is None and underlined and (m := SECTION_HEADING.match(text)):
        # NOTE: an underline already marks the line as a heading, so its ``N.M`` number counts
        # even when the title does not read like one (``38.1 lower-case options``).
        return _Candidate(i, "section", m["num"], m["title"])
    if parsed is None:
        return _Candidate(i, "unnumbered", "", text.title() if text.isupper() else text)
    title = parsed.title.title() if parsed.title.isupper() else parsed.title
    return _Candidate(i, parsed.kind, parsed.number, title)


def _title_below(lines: list[_Line], i: int) -> str:
    """The title of a bare label line (``APPENDIX A``): the first line below it, within
    ``LABEL_TITLE_LINES`` lines, if it reads like a title."""
    for line in lines[i + 1 : i + 1 + LABEL_TITLE_LINES]:
        if UNDERLINE.match(line.text):
            continue
        if title_like(line.text, max_words=12):
            return line.text.title() if line.text.isupper() else line.text
        return ""
    return ""


def _depth(c: _Candidate) -> int:
    """What the numbering alone says: 0 part, 1 chapter level, 2+ section depth, -1 nothing."""
    if c.kind == "part":
        return 0
    if c.kind in ("chapter", "appendix", "numbered"):
        return 1
    if c.kind == "section":
        return c.number.count(".") + 1
    return -1


def _choose(
    lines: list[_Line],
    candidates: list[_Candidate],
    entries: list[tuple[str, str, int, int]],
    listing: set[int],
    rejected: list[Rejected],
    local: list[_LocalContents] | None = None,
    placed: dict[int, tuple[_Candidate, int]] | None = None,
) -> list[tuple[_Candidate, int]]:
    """The accepted candidates with their depth (1 chapter level, parts too; 2+ sections);
    ``placed``: headings already placed with their depths, by line index."""
    chosen: dict[int, tuple[_Candidate, int]] = dict(placed or {})
    underlined = [c for c in candidates if c.char]
    levels = _char_levels(underlined)
    for c in underlined:
        depth = _depth(c)
        level = levels[c.char]
        if c.index == 0 and c.char == BOLD and depth == -1:
            continue  # the book's title in bold on the first line: placed by ``_title_line``
        if level == -1:
            if c.index != 0:
                rejected.append(_rejected(lines, c.index, "underlined once above the chapters (a title)"))
            continue  # the book's own title on the first line is placed by ``_title_line``
        if depth == -1 and APPENDICES.match(c.title):
            # NOTE: the divider that opens the appendices groups them as a part does, whatever
            # mark sets it off
            c.kind = "part"
            chosen[c.index] = (c, 1)
        elif depth >= 2 or (depth == -1 and level >= 2):
            c.kind = "section" if c.kind != "part" else c.kind
            chosen[c.index] = (c, max(depth, level, 2))
        elif level == 0 or c.kind == "part":
            c.kind = "part"
            chosen[c.index] = (c, 1)
        else:
            chosen[c.index] = (c, 1)
    plain = [c for c in candidates if not c.char]
    lone = _lone_label(plain)
    running = _running_openings(lines, plain)
    for c in plain:
        if id(c) in running:
            rejected.append(
                _rejected(lines, c.index, "a running header naming a chapter that opens elsewhere")
            )
        elif c is lone:
            rejected.append(
                _rejected(lines, c.index, "the book's only chapter label, and not chapter 1 (an example)")
            )
        elif c.kind in ("chapter", "part", "appendix") or (c.kind == "back" and c.number):
            chosen.setdefault(c.index, (c, 1))
    numbered = [c for c in plain if c.kind == "numbered"]
    labelled = sorted(c.index for c in plain if c.kind == "chapter" and c.number)
    if len(labelled) >= 2:
        # NOTE: where the book labels its chapters (``Chapter 3. Title``), a bare ``N. Title``
        # is a section of the labelled chapter it sits in (its numbers restart in each one).
        for c in numbered:
            where = f"line {c.index + 1}: '{lines[c.index].text[:60]}'"
            if c.index < labelled[0]:
                rejected.append(_rejected(lines, c.index, "a bare number before the first labelled chapter"))
                continue
            c.kind = "section"
            c.evidence.append(("numbering", f"{where}: numbered inside a labelled chapter"))
            chosen.setdefault(c.index, (c, 2))
        numbered = []
    marked = [c for c, depth in chosen.values() if depth == 1 and c.char and c.number and c.kind != "part"]
    if len(marked) >= 2:
        # NOTE: where the chapters are numbered and underlined, a bare ``N. Title`` line is an
        # item of a numbered list (its own 1, 2, 3… inside a chapter), never a chapter.
        for c in numbered:
            rejected.append(_rejected(lines, c.index, "a bare number where the chapters are underlined"))
        numbered = []
    for c in _chain(lines, numbered, rejected):
        c.evidence.append(("numbering", f"line {c.index + 1}: chapter {c.number} of a run 1, 2, 3…"))
        chosen.setdefault(c.index, (c, 1))
    _contents_evidence(lines, candidates, entries, chosen, listing)
    starts = sorted(i for i, (c, depth) in chosen.items() if depth == 1 and c.kind != "part")
    first, last = (starts[0], starts[-1]) if starts else (len(lines), -1)
    before = next((i for i in starts if chosen[i][0].number), first)
    for block in sorted({e[3] for e in entries}):
        # NOTE: the book's own contents (before the chapters, or at the end of the file) is a
        # front-matter unit, as a contents page is in a printed book; a chapter's own is not.
        # Before the chapters: before the first numbered one where they are numbered (an
        # unnumbered ``Copyright Notice`` set as a chapter may come first).
        if (block < before or block > last) and not _opens(starts, block) and block not in chosen:
            if _BULLET.match(lines[block].raw):
                continue  # NOTE: a headerless contents (``_headerless_contents``) opens no unit of its own
            title = lines[block].text
            chosen[block] = (
                _Candidate(block, "front", "", title, [("contents", f"line {block + 1}: '{title}'")]),
                1,
            )
    title_page = _title_line(lines, listing, candidates)
    if title_page is not None and all(title_page.index < i for i in chosen):
        chosen[title_page.index] = (title_page, 1)
    elif title_page is None and (help_title := _help_title(lines, chosen)) is not None:
        chosen[help_title.index] = (help_title, 1)
    numbers = {c.number: i for i, (c, depth) in chosen.items() if depth == 1 and c.number}
    for c in plain:
        if c.index in chosen:
            continue
        where = f"line {c.index + 1}: '{lines[c.index].text[:60]}'"
        if c.kind == "front" and title_page is not None and _on_title_page(lines, title_page.index, c.index):
            rejected.append(
                _rejected(lines, c.index, "set off the margin under the title (part of the title page)")
            )
        elif c.kind == "front" and c.index < first or c.kind == "back" and c.index > last:
            chosen[c.index] = (c, 1)
        elif c.kind == "section":
            chapter = c.number.split(".")[0]
            at = numbers.get(chapter)
            following = bisect_right(starts, at) if at is not None else len(starts)
            if at is not None and at < c.index and (following == len(starts) or c.index < starts[following]):
                c.evidence.append(("numbering", f"{where}: a section of chapter {chapter}"))
                chosen[c.index] = (c, c.number.count(".") + 1)
            else:
                rejected.append(_rejected(lines, c.index, f"section number outside chapter {chapter}"))
        elif c.kind in ("front", "back"):
            rejected.append(_rejected(lines, c.index, f"{c.kind} matter name inside the chapters"))
    _front_by_form(lines, chosen, listing, first)
    _top_node(lines, chosen, listing, first)
    _chapter_nodes(lines, chosen, listing, first)
    _levels_from_intro_list(lines, chosen)
    _local_units(lines, chosen, local or [], listing)
    _drop_repeated_titles(lines, chosen, rejected)
    return [chosen[i] for i in sorted(chosen)]


LOCAL_CONTENTS_GAP = 2
"""Lines from a heading to the name of its own contents (a rule between them, no text)."""

LOCAL_CONTENTS_ENTRIES = 400
"""Most entries a heading's own contents is read for (``_local_contents``): a chapter lists its
sections, hundreds at most; the runs tried are as many as its entries, each as long, so a list
without end (a hostile text) would cost their square."""


@dataclass
class _LocalContents:
    """A contents named again right under a heading: that heading's own (``_local_contents``)."""

    heading: int  # the heading's line
    header: int  # the contents' name (``Table of Contents``)
    end: int  # the line after its entries
    found: list[int]  # the stand-alone lines below it that its entries name, in order


def _local_contents(lines: list[_Line]) -> list[_LocalContents]:
    """The contents a book names again right under a heading (``Chapter 1. Getting started`` /
    ``Table of Contents`` / ``Using the program`` …, as a DocBook or Texinfo dump prints each
    chapter's own contents): a contents name after the book's first one, within
    ``LOCAL_CONTENTS_GAP`` lines below a title-like line standing after a blank line (only lines
    without letters, a rule, between them), over entry lines that each name a line standing alone
    further down, in the contents' order (two of them at least; the list ends at the first line
    that names none: a title in lower case is an entry too, its line below confirms it). The
    search stops at the next contents name (the next heading's own)."""
    names = [i for i, line in enumerate(lines) if _CONTENTS_NAME.match(line.text)]
    out = []
    for n, i in enumerate(names[1:], 1):
        h = i - 1
        while h > 0 and i - h < LOCAL_CONTENTS_GAP and not any(ch.isalpha() for ch in lines[h].text):
            h -= 1
        heading = lines[h]
        if not heading.blank_before or _entry(heading.raw) is None or _CONTENTS_HEADER.match(heading.text):
            continue
        limit = names[n + 1] if n + 1 < len(names) else len(lines)
        alone: dict[str, list[int]] = {}
        for m in range(i + 1, limit):
            if lines[m].blank_before and lines[m].blank_after:
                alone.setdefault(words_key(lines[m].text), []).append(m)
        keys: list[str] = []
        k = i + 1
        while k < limit and len(lines[k].text) <= MAX_TITLE_CHARS and len(keys) < LOCAL_CONTENTS_ENTRIES:
            key = words_key(clean_title(lines[k].text))
            if not key or not any(m > k for m in alone.get(key, [])):
                break
            keys.append(key)
            k += 1
        for size in range(len(keys), 1, -1):
            # NOTE: the longest run of entries whose lines all follow it in order (the line
            # after the contents may itself name a line further down: a ``Name`` header)
            found = _in_order(keys[:size], alone, i + 1 + size)
            if found is not None:
                out.append(_LocalContents(h, i, i + 1 + size, found))
                break
    return out


def _in_order(keys: list[str], alone: dict[str, list[int]], at: int) -> list[int] | None:
    """The first lines from ``at`` on (of ``alone``'s, by words key) bearing ``keys`` one after
    another, or None when one is missing."""
    found = []
    for key in keys:
        m = next((m for m in alone.get(key, []) if m >= at), None)
        if m is None:
            return None
        found.append(m)
        at = m + 1
    return found


def _local_units(
    lines: list[_Line],
    chosen: dict[int, tuple[_Candidate, int]],
    local: list[_LocalContents],
    listing: set[int],
) -> None:
    """Each heading over its own contents (``_local_contents``) is a unit, and its contents'
    name no unit of its own. Where the lines its entries name open chapters by their own labels
    (``Chapter 3``, a reference page's ``Name``), the heading groups them: a part; else they are
    its sections (a unit the printed contents alone made chapter-level is demoted)."""
    for lc in local:
        if lc.heading in listing:
            continue
        if lc.header in chosen and chosen[lc.header][0].kind == "front":
            del chosen[lc.header]
        labelled = [
            m
            for m in lc.found
            if any(
                j in chosen and chosen[j][1] == 1 and chosen[j][0].kind in ("chapter", "appendix", "part")
                for j in range(m - LABEL_TITLE_LINES, m + 1)
            )
        ]
        title = lines[lc.heading].text[:60]
        where = f"line {lc.heading + 1}: '{title}' over its own contents"
        if lc.heading not in chosen:
            text = lines[lc.heading].text
            parsed = parse_heading(text)
            c = (
                _Candidate(lc.heading, parsed.kind, parsed.number, parsed.title or text)
                if parsed is not None
                else _Candidate(lc.heading, "unnumbered", "", text)
            )
            c.evidence.append(("contents", where))
            chosen[lc.heading] = (c, 1)
        if len(labelled) == len(lc.found):
            chosen[lc.heading][0].kind = "part"
            continue
        for m in lc.found:
            if m in labelled:
                continue
            evidence = (
                "contents",
                f"line {m + 1}: '{lines[m].text[:60]}' listed in the own contents of '{title}'",
            )
            if m not in chosen:
                chosen[m] = (_Candidate(m, "section", "", lines[m].text, [evidence]), 2)
            elif chosen[m][1] == 1 and chosen[m][0].kind in ("unnumbered", "front", "numbered"):
                chosen[m][0].kind = "section"
                chosen[m][0].evidence.append(evidence)
                chosen[m] = (chosen[m][0], 2)


def _drop_repeated_titles(
    lines: list[_Line], chosen: dict[int, tuple[_Candidate, int]], rejected: list[Rejected]
) -> None:
    """A heading right above another of the same title, no text between them (only rules and
    markers without letters, ``「3」``), is one heading set twice: a generator that writes a
    level's title over the numbered heading it opens. The lower, numbered one stays."""
    order = sorted(chosen)
    for upper, lower in zip(order, order[1:]):
        a, b = chosen[upper][0], chosen[lower][0]
        if words_key(a.title) != words_key(b.title) or a.number or not b.number:
            continue
        between = lines[upper + 1 : lower]
        if all(not any(ch.isalpha() for ch in line.text) for line in between):
            rejected.append(
                _rejected(lines, upper, f"the title of the heading below it, set twice (line {lower + 1})")
            )
            del chosen[upper]


def _running_openings(lines: list[_Line], plain: list[_Candidate]) -> set[int]:
    """The ``id``s of keyword headings that are running headers: their line's text recurs
    ``RUNNING_REPEATS`` times or more in the book while another heading of the same kind and
    number does not (``CHAPTER 2. DATA TYPES`` atop the pages after ``Chapter 2`` /
    ``Data Types``: a text extraction keeps a PDF's running heads). An opening whose
    title no line below it gave takes the header's. Where the opening itself reads as its
    running header, the first of them stands (``_candidates``)."""
    counts = Counter(line.text for line in lines)
    keyed = [c for c in plain if c.kind in ("chapter", "part", "appendix") and c.number]
    opened = {
        (c.kind, number_value(c.number)): c for c in keyed if counts[lines[c.index].text] < RUNNING_REPEATS
    }
    running = set()
    for c in keyed:
        opening = opened.get((c.kind, number_value(c.number)))
        if counts[lines[c.index].text] >= RUNNING_REPEATS and opening is not None:
            running.add(id(c))
            if not opening.title:
                opening.title = c.title  # an opening whose title no line below gave: the header's
    return running


def _front_by_form(
    lines: list[_Line], chosen: dict[int, tuple[_Candidate, int]], listing: set[int], first: int
) -> None:
    """Front-matter headings known by their form, not their name: before the first chapter,
    after a front-matter heading found by its name (``Abstract``, ``Contents``), a line set as
    that heading is (at its column, alone between blank lines, reading as a title) over text set
    further in (``Status of This Memo`` / ``Copyright Notice`` between a memo's ``Abstract`` and
    its contents) opens a front unit of its own. Only where the named headings stand out of the
    front matter's indented body (``_body_margin`` of its lines): in a flush-left text a line
    over an indented block (a table's cells, a code example) labels the block; and never a line
    that is the title of a chapter or section further on (a Texinfo menu's group label over its
    items: ``Hash functions``)."""
    named = sorted(
        i
        for i, (c, _) in chosen.items()
        if c.kind == "front" and i < first and any(kind in ("keyword", "contents") for kind, _ in c.evidence)
    )
    if not named:
        return
    body = _body_margin(lines[named[0] : first])
    columns = {lines[i].indent for i in named if lines[i].indent < body}
    if not columns:
        return  # NOTE: headings at the front matter's own margin: a flush-left text, no heading form
    later = {words_key(c.title) for i, (c, _) in chosen.items() if i >= first}
    for i in range(named[0] + 1, min(first, len(lines) - 1)):
        line, below = lines[i], lines[i + 1]
        if i in chosen or i in listing or line.indent not in columns or below.indent <= line.indent:
            continue
        if words_key(line.text) in later:
            continue  # the title of a chapter or section further on: a menu's or a list's label
        if not (line.blank_before and line.gap_after and len(line.text) <= SHORT_CHARS):
            continue
        if parse_heading(line.text) is not None or not title_like(line.text, max_words=TITLE_WORDS):
            continue
        where = f"line {i + 1}: '{line.text[:60]}'"
        evidence = [("typography", f"{where} set as the front matter's headings, over an indented text")]
        chosen[i] = (_Candidate(i, "front", "", line.text, evidence), 1)


_NODE_NAVIGATION = re.compile(r"(?:Next|Previous|Prev|Up): \S")
"""A Texinfo node's navigation line as its HTML prints it above the node (``Next: Overview,
Previous: Top, Up: Top  [Contents][Index]``)."""


_UP_TOP = re.compile(r"\bUp: Top\b")
"""A node's navigation line naming the top node as its parent: the node is a chapter."""


def _chapter_nodes(
    lines: list[_Line], chosen: dict[int, tuple[_Candidate, int]], listing: set[int], first: int
) -> None:
    """A text dumped from Texinfo's HTML says ``Up: Top`` above every chapter-level node. Where
    most such nodes open a chapter already found (two or more), one that opens none has its
    title right below: an unnumbered chapter between the numbered ones (a licence's full text,
    ``Version 3`` on the line under its title), or a back-matter unit by its name. After the
    first chapter only; before it ``_top_node`` reads the top node."""
    marked = [
        i
        for i in range(len(lines) - 1)
        if _NODE_NAVIGATION.match(lines[i].text) and _UP_TOP.search(lines[i].text)
    ]
    opened = [i for i in marked if i + 1 in chosen or i + 2 in chosen]
    if len(opened) < 2 or 2 * len(opened) < len(marked):
        return
    for i in marked:
        k = i + 1
        if k <= first or k in chosen or i + 2 in chosen or k in listing:
            continue
        line = lines[k]
        if not line.blank_before or not title_like(line.text, max_words=TITLE_WORDS):
            continue
        kind = "back" if BACK_WORDS.search(line.text) else "unnumbered"
        where = f"line {k + 1}: '{line.text[:60]}'"
        evidence = [
            ("typography", f"{where} below a navigation line up to the top node, as the chapters are")
        ]
        chosen[k] = (_Candidate(k, kind, "", line.text, evidence), 1)


def _top_node(
    lines: list[_Line], chosen: dict[int, tuple[_Candidate, int]], listing: set[int], first: int
) -> None:
    """A text dumped from Texinfo's HTML prints a navigation line above every node, then the
    node's title alone. Before the first chapter that title opens the manual's top node (what the
    manual is, its version, its copying terms): a front unit, not the end of the contents or of
    the title page. Only where the chapters carry the same line above them (two or more nodes),
    so a stray ``Next: step`` in a text is no mark."""
    marked = [i for i in range(len(lines) - 1) if _NODE_NAVIGATION.match(lines[i].text)]
    if sum(1 for i in marked if i + 1 in chosen or i + 2 in chosen) < 2:
        return
    for i in marked:
        k = i + 1
        if k >= first or k in chosen or k in listing:
            continue
        line = lines[k]
        if not (line.blank_before and line.blank_after) or not title_like(line.text, max_words=TITLE_WORDS):
            continue
        where = f"line {k + 1}: '{line.text[:60]}'"
        evidence = [("typography", f"{where} below a node's navigation line, before the first chapter")]
        chosen[k] = (_Candidate(k, "front", "", line.text, evidence), 1)


def _lone_label(plain: list[_Candidate]) -> _Candidate | None:
    """The book's only ``Chapter N`` label when N is not its first chapter's number: a label
    shown in an example (``CHAPTER 5`` / ``CONCLUSIONS``, what a macro prints) or a cross
    reference on a line of its own; a book that labels its chapters labels more than one, and
    a book of one chapter calls it 1."""
    labelled = [c for c in plain if c.kind == "chapter" and c.number]
    if len(labelled) != 1:
        return None
    value = number_value(labelled[0].number)
    return labelled[0] if value is not None and value > 1 else None


def _levels_from_intro_list(lines: list[_Line], chosen: dict[int, tuple[_Candidate, int]]) -> None:
    """Where bold headings are the chapter level but nothing sets their levels apart, a bulleted
    list before the first of them that names at least two of them (``Topics covered in this
    document:`` / ``* Title``) is the book's contents: the headings it names are the chapters,
    the bold headings it leaves out are sections. Without such a list nothing changes."""
    bold = sorted(
        i for i, (c, depth) in chosen.items() if c.char == BOLD and depth == 1 and c.kind != "front"
    )
    if len(bold) < 2:
        return
    keys = {i: words_key(chosen[i][0].title) for i in bold}
    pairs = []  # (bullet line, the first bold heading after it with the item's words)
    for j, line in enumerate(lines[: bold[-1]]):
        if m := BULLET.match(line.text):
            key = words_key(m[1])
            i = next((i for i in bold if i > j and keys[i] == key), None)
            if i is not None:
                pairs.append((j, i))
    first = min((i for _, i in pairs), default=0)
    named = {i for j, i in pairs if j < first}
    if len(named) < 2:
        return
    for i in bold:
        c, _ = chosen[i]
        if i in named:
            c.evidence.append(("contents", f"named by the list of topics before line {first + 1}"))
        elif i > first and not c.number:
            c.kind = "section"
            chosen[i] = (c, 2)


def _outdented(lines: list[_Line], listing: set[int]) -> list[tuple[_Candidate, int]]:
    """Headings set off by indentation alone, for a book the other marks leave without chapters
    (a man page as ``man`` shows it, ``pod2text`` output): where the body is indented (the indent
    of most long lines, at least ``OUTDENT_BODY`` columns), a title-like line less indented than
    the body, after a blank line and followed by deeper text, is a heading; the least indented
    ones are the chapter level (at least ``OUTDENT_MIN`` of them), each further indent a level
    below. Lines that repeat (a header, a footer) are not headings."""
    body_indents = Counter(line.indent for line in lines if len(line.text) > SHORT_CHARS)
    if not body_indents:
        return []
    body = body_indents.most_common(1)[0][0]
    if body < OUTDENT_BODY:
        return []
    repeats = Counter(line.text for line in lines)
    found = []
    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else None
        if line.indent >= body or i in listing or not line.blank_before or nxt is None:
            continue
        if nxt.indent <= line.indent or repeats[line.text] >= RUNNING_REPEATS:
            continue
        if len(line.text) > MAX_TITLE_CHARS or not title_like(line.text, max_words=TITLE_WORDS):
            continue
        found.append(i)
    indents = sorted({lines[i].indent for i in found})
    if sum(1 for i in found if lines[i].indent == (indents[0] if indents else -1)) < OUTDENT_MIN:
        return []
    out = []
    for i in found:
        line = lines[i]
        title = line.text.title() if line.text.isupper() else line.text
        where = f"line {i + 1}: '{line.text[:60]}' at column {line.indent}, the body at column {body}"
        out.append(
            (_Candidate(i, "unnumbered", "", title, [("typography", where)]), indents.index(line.indent) + 1)
        )
    return out


def _outdented_over(
    lines: list[_Line], listing: set[int], chosen: list[tuple[_Candidate, int]]
) -> list[tuple[_Candidate, int]]:
    """The headings set off by indentation (``_outdented``) where they hold the chapters chosen
    from other marks one level down: a man page as ``man`` shows it sets its sections at the
    margin and its subsections a few columns in, each in bold, but only the subsections stand
    between blank lines, so bold alone chose them. When every chosen chapter is one of the
    indented headings below the least indented ones, those are the chapters; [] otherwise."""
    chapters = [c.index for c, depth in chosen if depth == 1 and c.kind not in ("part", "front", "back")]
    outer = _outdented(lines, listing)
    levels = {c.index: depth for c, depth in outer}
    if not chapters or not all(levels.get(i, 1) > 1 for i in chapters):
        return []
    return outer


ENDS_SHARE = 0.5
"""A front- or back-matter unit holds at most this share of a book's text (``_ends_hold_the_body``)."""


def _ends_hold_the_body(lines: list[_Line], chosen: list[tuple[_Candidate, int]]) -> bool:
    """Whether one of the units ``chosen`` (a title page, front and back matter: no chapters)
    runs over more than ``ENDS_SHARE`` of the text: a title page, an ``Abstract`` or an
    ``Acknowledgements`` is never most of a book, so the chapters between them are still to be
    found. Units set as the front matter's headings all through the book (each a small share of
    it) are the book's own."""
    starts = sorted(lines[c.index].offset for c, depth in chosen if depth == 1)
    if not starts or not lines:
        return False
    end = lines[-1].offset + len(lines[-1].raw or lines[-1].text)
    spans = [b - a for a, b in zip(starts, starts[1:] + [end])]
    return max(spans) > ENDS_SHARE * (end - lines[0].offset)


def _with_ends(
    chosen: list[tuple[_Candidate, int]], fallback: list[tuple[_Candidate, int]]
) -> list[tuple[_Candidate, int]]:
    """The fallback's headings with the front and back units already found on lines of their
    own (the title page, a ``Further reading``), in text order; a line both found stays the
    front or back unit it was found as (the title page on the first line), and a unit named as
    front matter after the fallback's last heading (``Acknowledgements`` at the end) is back
    matter (a printed contents stays a front unit wherever it stands)."""
    ends = [(c, d) for c, d in chosen if c.kind in ("front", "back")]
    taken = {c.index for c, _ in ends}
    heads = [c.index for c, _ in fallback if c.index not in taken]
    for c, _ in ends:
        if (
            c.kind == "front"
            and heads
            and c.index > max(heads)
            and any(s == "keyword" for s, _ in c.evidence)
        ):
            c.kind = "back"
    return sorted(
        [item for item in fallback if item[0].index not in taken] + ends, key=lambda item: item[0].index
    )


SPACED_SHARE = 3
"""Paragraph breaks of one blank line must outnumber wider breaks this many times before a
wider break is read as setting a heading apart (``_spaced_apart``)."""


def _spaced_apart(lines: list[_Line], listing: set[int]) -> list[tuple[_Candidate, int]]:
    """Headings set apart by space alone, for a book nothing else gives chapters (an nroff
    rendering, its bold lost: ``.SH``/``.NH`` leave two blank lines above a heading where a
    paragraph gets one): where paragraphs are parted by one blank line (``SPACED_SHARE`` times
    as often as by more), a title-like line after two or more is a heading, at the chapter level
    (at least ``OUTDENT_MIN`` of them). Lines that repeat (a header, a footer), end in a colon or
    a full stop, start in lower case or stand in from the body's margin (a centred title page)
    are not."""
    single = sum(1 for line in lines if line.blanks_before == 1)
    wide = [i for i, line in enumerate(lines) if line.blanks_before >= 2 and i not in listing]
    if not wide or single < SPACED_SHARE * len(wide):
        return []
    repeats = Counter(line.text for line in lines)
    margin = _body_margin(lines)
    found = []
    for i in wide:
        line = lines[i]
        text = line.text
        if not _bare_title(line, margin, repeats):
            continue
        title = text.title() if text.isupper() else text
        where = f"line {i + 1}: '{text[:60]}' after {line.blanks_before} blank lines, paragraphs after one"
        found.append((_Candidate(i, "unnumbered", "", title, [("typography", where)]), 1))
    return found if len(found) >= OUTDENT_MIN else []


_SENTENCE_END = re.compile(rf"[a-z]{{3,}}[{re.escape(SENTENCE_FINAL)}]\s+(?:[\"'“‘]?[A-Z]|\()")
"""A sentence's end inside a line (``rules.SENTENCE_FINAL``): a word in lower case, its full
stop, and a capital or an opening bracket after it."""


def _bare_title(line: _Line, margin: int, repeats: Counter) -> bool:
    """Whether ``line``, with no mark of its own, may be a heading: title-like, at the body's
    ``margin`` or out of it (a line set in is a centred title page line, an indented item), not
    repeated (a header, a footer), not ending in a colon or a full stop, not in lower case. A
    sentence's end inside closing brackets or quotes is its end (``(Adapted from an older manual.)``,
    ``"A quotation."``), and a line with a sentence's end inside it, a word's full stop before a
    capital or a bracket (``Merge them into one. Keep a list?``), is prose, not a title."""
    text = line.text
    end = text.rstrip(SENTENCE_CLOSERS) or text
    return (
        line.indent <= margin
        and len(text) <= MAX_TITLE_CHARS
        and repeats[text] < RUNNING_REPEATS
        and end[-1] not in ".:;,"
        and _SENTENCE_END.search(text) is None
        and not text[0].islower()
        and title_like(text, max_words=TITLE_WORDS)
    )


STANDALONE_MAX_SHARE = 0.15
"""Title-like lines standing alone may be at most this share of a text's lines to be its headings
(``_standing_alone``): more, and the text is set in short lines (a list, verse, a table)."""


def _standing_alone(
    lines: list[_Line], listing: set[int], units: frozenset[int] = frozenset()
) -> list[tuple[_Candidate, int]]:
    """Headings that only stand alone, for a book nothing else, not even wider breaks, gives
    chapters (a converter's plain text that sets every heading as a bare line, as it sets a
    paragraph: pandoc's ``plain`` writer): a title-like line at the body's margin, between blank
    lines, over prose (``_prose``: a line longer than ``SHORT_CHARS``, or a sentence), at the
    chapter level (at least ``OUTDENT_MIN`` of them). Chapters and their sections look alike there, so both are
    taken: a chunk then never holds the end of one heading's text and the start of the next. Only
    a heading right below another, with no text between them, is told apart: it is the first of
    the headings under the one above, a level below it (a unit already found, ``units``: a title
    page over the first chapter, heads none). The exclusions are ``_spaced_apart``'s (a line
    that repeats, ends in a colon or a full stop, starts in lower case or stands in from the
    margin)."""
    repeats = Counter(line.text for line in lines)
    margin = _body_margin(lines)
    found: list[tuple[_Candidate, int]] = []
    heads = False  # whether the line below the current one is such a heading
    for i in range(len(lines) - 2, -1, -1):  # NOTE: bottom up: a heading may stand over its first section's
        line, nxt = lines[i], lines[i + 1]
        text = line.text
        below = heads
        heads = False
        if (
            i in listing
            or not (line.blank_before and line.gap_after)
            or not _bare_title(line, margin, repeats)
        ):
            continue
        if not below and (nxt.indent != margin or not _prose(nxt.text)):
            continue  # NOTE: over another short line or an indented block: a list, not a heading
        heads = True
        where = f"line {i + 1}: '{text[:60]}' alone between blank lines, over a paragraph"
        found.append(
            (
                _Candidate(
                    i, "unnumbered", "", text.title() if text.isupper() else text, [("typography", where)]
                ),
                1,
            )
        )
    if len(found) < OUTDENT_MIN or len(found) > STANDALONE_MAX_SHARE * len(lines):
        return []
    out: list[tuple[_Candidate, int]] = []
    for c, depth in found[::-1]:
        above = out[-1] if out else None
        if above is not None and above[0].index == c.index - 1 and above[0].index not in units:
            # NOTE: a heading right below another, no text between them, is the first of the
            # headings under it: a level below
            depth = above[1] + 1
            c.kind = "section"
            c.evidence.append(
                ("typography", f"line {c.index + 1}: right below the heading '{above[0].title[:60]}'")
            )
        out.append((c, depth))
    return out


def _prose(text: str) -> bool:
    """Whether a line is prose, not a list item or a table cell: longer than ``SHORT_CHARS``, or a
    sentence, ending in a full stop or a colon (``See the next part.``, ``It works as follows:``)."""
    return len(text) > SHORT_CHARS or (text.rstrip(SENTENCE_CLOSERS) or text)[-1] in ".:"


def _set_as_listed(
    lines: list[_Line], listing: set[int], chosen: list[tuple[_Candidate, int]]
) -> list[tuple[_Candidate, int]]:
    """``chosen`` with the lines set as the contents' chapters are: where the chapters the printed
    contents placed (``LISTED_FORM`` of them, at least ``OUTDENT_MIN``) all stand out of an indented
    body at one indent (``_outdented``'s chapter level), every such line is a chapter. A contents
    that names a chapter otherwise than its heading (``Tools and Sessions`` for ``Sessions``), or
    two on one line, then leaves none out: two signals agree on the form. Never a line numbered
    below the chapters (``9.6.3.1.``), nor one that recurs with other numbers (a running header
    with its folio), nor one longer than the listed chapters' or run on into its text where they
    stand apart (a definition list's term)."""
    listed = [
        c
        for c, depth in chosen
        if depth == 1 and c.kind not in ("part", "front") and any(s == "contents" for s, _ in c.evidence)
    ]
    if len(listed) < OUTDENT_MIN:
        return chosen
    outdented = {c.index: c for c, depth in _outdented(lines, listing) if depth == 1}
    if sum(c.index in outdented for c in listed) < LISTED_FORM * len(listed):
        return chosen
    taken = {c.index for c, _ in chosen}
    first = min(c.index for c in listed)
    masked = Counter(_DIGITS.sub("#", line.text) for line in lines)
    apart = sum(lines[c.index].blank_after for c in listed) >= LISTED_FORM * len(listed)
    longest = max(len(lines[c.index].text) for c in listed)
    for i, c in outdented.items():
        text = lines[i].text
        if (
            i in taken
            or i < first
            or _SUB_NUMBER.match(text)
            or masked[_DIGITS.sub("#", text)] >= RUNNING_REPEATS
            or (apart and not lines[i].blank_after)
            or len(text) > longest
        ):
            continue  # a numbered section, a running header with its page number, not of their form
        c.evidence.append(("contents", "set as the chapters the contents lists are"))
        chosen.append((c, 1))
    return sorted(chosen, key=lambda item: item[0].index)


def _title_line(lines: list[_Line], listing: set[int], candidates: list[_Candidate]) -> _Candidate | None:
    """The book's title page as a front-matter unit: the file's first line, when it stands alone
    (a blank line or its underline below) or heads a title block (``_title_block``) and reads like a title, as a printed book's title page
    is a unit before its contents. A first line that is a sentence (``This file documents version 4
    of the tool.``), a rule or a contents header is no title."""
    if not lines or 0 in listing:
        return None
    linked = next((c for c in candidates if c.char == PERMALINK), None)
    if linked is not None and linked.index > 0 and linked.kind == "unnumbered":
        return None  # NOTE: a web page's title carries its permalink as its headings do: the chrome above it is none
    start = _converter_banner(lines)
    if start:
        # NOTE: read the title below a converter's banner as the file's first line
        shifted = [replace(c, index=c.index - start) for c in candidates if c.index >= start]
        inner = _title_line(lines[start:], {i - start for i in listing if i >= start}, shifted)
        return replace(inner, index=inner.index + start) if inner is not None else None
    line = lines[0]
    nxt = lines[1] if len(lines) > 1 else None
    first = next((c for c in candidates if c.index == 0), None)
    if first is not None and not first.char:
        return None  # a heading of its own (``Abstract``, ``1. Introduction``)
    if first is not None:
        return _Candidate(0, "front", "", first.title, first.evidence, first.char)
    # NOTE: a converter's decoration before it (``: Title``) is no part of it
    text = _undoubled(clean_title(line.text))
    if (
        (line.blank_after or (nxt is not None and UNDERLINE.match(nxt.text)) or _title_block(lines))
        and not UNDERLINE.match(line.text)
        and _title_page_like(text)
    ):
        text = " ".join([text, *_capitals_below(lines)])
        title = text.title() if text.isupper() else text
        return _Candidate(
            0,
            "front",
            "",
            title,
            [("typography", f"line 1: '{line.text[:60]}' alone at the top (the title)")],
        )
    return _centred_title(lines, listing, candidates) or _boxed_title(lines, listing)


_WORD_OF_TWO = re.compile(r"[^\W\d_]{2,}")


def _undoubled(text: str) -> str:
    """A title an extractor wrote twice with nothing between them (a web page's ``<title>`` and
    its heading: ``Git User ManualGit User Manual``): its first copy, which the second repeats
    from a seam (a capital or digit run straight on), words and spaces alike, up to its own end
    or the line's (a heading the page wraps: ``…Manual V1.00.0GNU Backgammon Manual``). A copy
    holds two words of two letters at least: one word repeated (``WikiWiki``) or letters (an
    overstruck ``S SY YN…``) are none."""
    for p in range(2, min(len(text), 2 * MAX_TITLE_CHARS)):
        if text[p - 1].isspace() or not (text[p].isupper() or text[p].isdigit()):
            continue
        m = min(p, len(text) - p)
        if len(_WORD_OF_TWO.findall(text[:m])) >= 2 and text[p : p + m] == text[:m]:
            return text[:p]
    return text


_COMMENT = re.compile(r"(?:#{2,}|%{1,2}|//)\s")
"""A converter's comment line (``###  Translation from RTF performed by UnRTF``)."""


_NAV_BAR = re.compile(r"[^|]{1,40}(?:\s\|\s[^|]{1,40}){2,}")
"""A web page's navigation bar as a text rendering prints it: three or more short links parted by
`` | `` on one line (``Home | About | Users | Reference``)."""


def _converter_banner(lines: list[_Line]) -> int:
    """How many lines at the top of the file are a converter's banner: its comment lines and a
    rule below them, or a web page's navigation bar (``_NAV_BAR``) standing alone (0 when the
    file opens with its own text)."""
    k = 0
    while k < min(len(lines) - 1, TITLE_BLOCK_LINES) and _COMMENT.match(lines[k].text):
        k += 1
    if not k and len(lines) > 1 and lines[0].blank_after and _NAV_BAR.fullmatch(lines[0].text):
        return 1
    while k and k < len(lines) - 1 and UNDERLINE.match(lines[k].text):
        k += 1
    return k


def _boxed_title(lines: list[_Line], listing: set[int]) -> _Candidate | None:
    """The title of a file that opens with a title block boxed between two identical rules
    (``=====`` / the title / its authors, copyright / ``=====``), as a converted page's banner
    sets it: the first line in the box, when it reads like a title. A rule that closes no box
    within ``TITLE_BLOCK_LINES`` lines is a separator."""
    if len(lines) < 3 or not UNDERLINE.match(lines[0].text) or 1 in listing:
        return None
    box = lines[1 : TITLE_BLOCK_LINES + 2]
    close = next((k for k, line in enumerate(box, 1) if line.text == lines[0].text), None)
    text = clean_title(lines[1].text)
    if close is None or close < 2 or UNDERLINE.match(text) or not _title_page_like(text):
        return None
    where = f"line 2: '{lines[1].text[:60]}' first in the box that opens the file (the title)"
    return _Candidate(1, "front", "", text, [("typography", where)])


_MAN_HEADER = re.compile(r"[\w.:+-]+\(\d\w*\)(?:\s|$)")
"""A manual page's header: its name and section, ``TOOL(1)``, ``Git::Repo(3pm)``."""


def opening_title(norm: NormalisedBook, before: int) -> Draft | None:
    """The document title a markup source sets as plain text above its first heading (at
    ``before``): read as a plain text's title line is (``_title_line``), so a converted page
    whose ``<h1>`` came out as a bare line, or as a banner boxed between rules, still has its
    title page. None when the text above the first heading holds no such line, or when that
    line is a manual page's header (``TOOL(1) - General Commands Manual``: the page's name and
    section, printed atop every page of it, not a title the page's own headings lack)."""
    lines = [line for line in _lines(norm) if line.offset < before]
    title = _title_line(lines, set(), []) if lines else None
    if title is None or _MAN_HEADER.match(lines[title.index].text):
        return None
    line = lines[title.index]
    return Draft("front", "", title.title, line.page, line.offset, evidence=title.evidence)


PRELUDE_ENTRIES = 3
"""Lines naming the book's own headings, in their order, that make a contents of the text above
the first heading (``opening_contents``)."""

_LINK_TARGET = re.compile(r"\]\([^)]*\)|\]\[[^\]]*\]")
"""A Markdown link's target, inline (``[Install](#install)``) or by reference (``[Install][5]``):
no part of the words a contents entry shows."""


_HTML_TAG = re.compile(r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>")
"""A raw HTML tag in a Markdown line (``<a href="#intro" class="reference">``): no part of the
words a contents entry shows."""


def _entry_texts(lines: list[_Line]) -> Iterator[str]:
    """The texts of a contents' entries, a line each, raw HTML tags aside; an entry whose raw HTML
    link a converter wrapped is read on over the lines its tag runs on
    (``readers.markdown.run_on_wrapped_tag``)."""
    j = 0
    while j < len(lines):
        text, used = run_on_wrapped_tag(
            lines[j].text, [line.text for line in lines[j + 1 : j + 1 + WRAPPED_TAG_LINES]]
        )
        yield _HTML_TAG.sub("", text)
        j += 1 + used


def opening_contents(norm: NormalisedBook, before: int, headings: list[str], after: int = 0) -> list[Draft]:
    """The contents a markup source prints as plain text above its first heading (at
    ``before``; from ``after`` on), as a converted web page sets its contents box above its first
    ``<h1>``: a line
    that names the contents (``_CONTENTS_HEADER``, a decoration such as ``►`` or bold's ``**``
    aside) over at
    least ``PRELUDE_ENTRIES`` lines that each name one of the book's own headings, in their
    order (``headings``: the words keys of each heading's ``number title`` and of its title).
    Returned as a front draft at its header, after the document's title when the line right
    above the header stands alone and reads like a title (a page sets its title over its
    contents box); [] when there is no such contents."""
    lines = [line for line in _lines(norm) if after <= line.offset < before]
    for i, line in enumerate(lines):
        header = clean_title(line.text.lstrip("►▼▶▸•*#>-– ").rstrip("*_ "))
        if not _CONTENTS_HEADER.match(header):
            continue
        at, named = 0, 0
        for entry in _entry_texts(lines[i + 1 :]):
            key = words_key(_LINK_TARGET.sub("]", entry).lstrip("*+-• "))
            hit = next((k for k in range(at, len(headings)) if key and headings[k] == key), None)
            if hit is None:
                break
            at, named = hit + 1, named + 1
        if named < PRELUDE_ENTRIES:
            continue
        where = f"'{header}' over {named} lines naming the headings in order (a contents)"
        out = [Draft("front", "", header, line.page, line.offset, evidence=[("contents", where)])]
        above = lines[i - 1] if i else None
        if above is not None and above.blank_after and above.blank_before and _title_page_like(above.text):
            if not _LINK_TARGET.search(above.text) and not BULLET.match(above.text):
                evidence = [("typography", f"'{above.text[:60]}' alone over the contents (the title)")]
                out.insert(0, Draft("front", "", above.text, above.page, above.offset, evidence=evidence))
        return out
    return []


def _capitals_below(lines: list[_Line]) -> list[str]:
    """The lines that continue a title set centred in capitals on the file's first line: the
    centred capital lines right below it, a blank line between them at most, as a title page
    spaces out ``THE WIDGET`` over ``INSTALLATION AND OPERATION GUIDE``; the first line in mixed
    case (the author) ends it. A title at the margin, or in mixed case, is one line."""
    right = _right_edge(lines)
    if not lines[0].text.isupper() or not _centred(lines[0], right):
        return []
    out: list[str] = []
    for line in lines[1:TITLE_LINES]:
        if line.blanks_before > 1 or not line.text.isupper() or not _centred(line, right):
            break
        if not _title_page_like(line.text):
            break
        out.append(line.text)
    return out


def _centred_title(lines: list[_Line], listing: set[int], candidates: list[_Candidate]) -> _Candidate | None:
    """The title of a file whose first line is no title (a frame of dashes, a memo's two-column
    header, a version line): the first centred line of its opening, before its first heading
    and its first line of prose, as a title page centres it; the centred lines right below it
    (no blank line between) continue it, a title set over two or three lines. Centred: set
    ``CENTRED_INDENT`` or more off the margin, with about as much room on its right
    (``_centred``). A centred line of prose or a date is no title (``title_like``)."""
    end = min([c.index for c in candidates] + sorted(listing)[:1] + [len(lines)])
    right = _right_edge(lines)
    for i in range(min(end, OPENING_LINES)):
        line = lines[i]
        if len(line.raw) >= TITLE_BLOCK_WIDTH * right and not _COLUMN_GAP.search(line.raw):
            return None  # prose has begun (a memo's header sets two columns apart: no prose)
        if not _centred(line, right) or UNDERLINE.match(line.text):
            continue
        if not _title_page_like(line.text, centred=True):
            return None
        parts = [line.text]
        for below in lines[i + 1 : min(end, i + TITLE_LINES)]:
            if below.blank_before or not _centred(below, right) or UNDERLINE.match(below.text):
                break
            parts.append(below.text)
        text = " ".join(parts)
        if not _title_page_like(text, centred=True):
            return None
        title = text.title() if text.isupper() else text
        where = f"line {i + 1}: '{line.text[:60]}'"
        return _Candidate(i, "front", "", title, [("typography", f"{where} centred at the top (the title)")])
    return None


_TWO_LETTERS = re.compile(r"[^\W\d_]{2}")
"""Two letters in a row: some word of a title."""

_LEADING_SIGN = re.compile(r"[-−.#@+]+(?=[A-Z0-9])")
"""A sign glued to a name's first letter (``−ME``, ``.NET``, ``#1``): part of the name, no list mark."""


_CAMEL_NAME = re.compile(r"[a-z]+[A-Z][\w-]*(?=\s)")
"""A name set in camel case with a small first letter (``reStructuredText``, ``iOS``, ``pdfTeX``)."""

_NAME_OVER_CAPITALS = re.compile(r"[a-z][\w+-]*(?:\s+[A-Z][\w'’-]*)+")
"""A program's name in small letters before capitalised words (``frob Command Manual``, ``qux
User's Guide``): every word after the first capitalised, as a title is."""


def _title_page_like(text: str, centred: bool = False) -> bool:
    """``title_like`` for the title at the top of a book, a sign glued to its first word aside:
    ``−ME Reference Manual`` names a macro package; a list's dash stands apart (``- item``). A
    title may open with a name in camel case (``macOS Setup Guide``): its capital is
    inside the word; or with a name in small letters before capitalised words (``frob Command
    Manual``). (Only here, at the top of the book: a line in a book's body that opens
    with one is more often an identifier in code.) A title holds a word of two letters at least:
    a line of signs and one letter (a troff source's preprocessor line ``'\\" t``) is none.
    A title ``centred`` on the page, as a title page sets it, may be all in small letters
    (``widget user's manual``): its place marks it, not its capitals."""
    if not _TWO_LETTERS.search(text):
        return False
    sign = _LEADING_SIGN.match(text)
    text = text[sign.end() :] if sign else text
    named = centred or _CAMEL_NAME.match(text) is not None or _NAME_OVER_CAPITALS.fullmatch(text) is not None
    return title_like(text, max_words=TITLE_WORDS, any_case=named)


_DOTTED_NUMBER = re.compile(r"(\d+(?:\.\d+)+)\.?\s")
"""A section number opening a contents line: ``5.1.3 ``."""

_BARE_NUMBER = re.compile(r"\d+(?:\.\d+)*\.?")
"""A contents line holding only a (section) number: ``1.2.4``, ``12``."""

_COLUMN_GAP = re.compile(r"\S {3,}\S")
"""Two columns on one line (``Request for Comments: 6787        Voxeo``), never prose."""


def _right_edge(lines: list[_Line]) -> int:
    """The column where the book's prose ends: the ``WRAP_QUANTILE`` line end."""
    ends = sorted(line.indent + len(line.raw) for line in lines)
    return ends[min(len(ends) - 1, int(WRAP_QUANTILE * len(ends)))] if ends else 0


def _centred(line: _Line, right: int) -> bool:
    """Whether ``line`` is centred between the margin and the prose's right edge ``right``: at
    least ``CENTRED_INDENT`` in, and its room on the left within ``CENTRED_SLACK`` of the line
    width of its room on the right."""
    room = right - line.indent - len(line.raw)
    return line.indent >= CENTRED_INDENT and room > 0 and abs(line.indent - room) <= CENTRED_SLACK * right


def _on_title_page(lines: list[_Line], title: int, index: int) -> bool:
    """Whether line ``index`` is still on the title page that opens at line ``title``: the title
    is set off the book's margin (centred) and so is every line from it down to ``index``. A
    centred ``ABSTRACT`` under a centred title and author belongs to that title page, as on a
    paper's first page; an ``Abstract`` at the margin opens a unit of its own."""
    return title < index and all(line.indent > 0 for line in lines[title : index + 1])


def _title_block(lines: list[_Line]) -> bool:
    """Whether the file opens with a title block: at most ``TITLE_BLOCK_LINES`` lines before the
    first blank line, none as long as the book's wrapped prose (``TITLE_BLOCK_WIDTH`` of its
    ``WRAP_QUANTILE`` line length): a title over its authors and date, not a paragraph. A sentence
    run over short lines is none: its second line goes on in small letters and its last ends with
    a full stop (a generator's banner, ``This is tool.info, produced by makeinfo … from`` over
    ``tool.texi.``), where a title's next line (``by A. Author``, ``for version 2``) ends in none."""
    block = next((k + 1 for k, line in enumerate(lines) if line.blank_after), len(lines))
    if block > TITLE_BLOCK_LINES or parse_heading(lines[0].text) is not None:
        return False  # a long block is prose; a numbered or keyword first line is a list or a heading
    if block > 1 and lines[1].text[:1].islower() and lines[block - 1].text.endswith("."):
        return False
    widths = sorted(len(line.raw) for line in lines)
    wrap = widths[min(len(widths) - 1, int(WRAP_QUANTILE * len(widths)))]
    return all(len(line.raw) < TITLE_BLOCK_WIDTH * wrap for line in lines[:block])


def _char_levels(underlined: list[_Candidate]) -> dict[str, int]:
    """Per underline character: -1 the book's title (used once, before the chapters), 0 parts,
    1 chapters, 2+ sections (see the module docstring)."""
    order: list[str] = []
    uses: Counter = Counter()
    votes: Counter = Counter()
    for c in underlined:
        if c.char not in uses:
            order.append(c.char)
        uses[c.char] += 1
        votes[c.char] += _depth(c) == 1
    if not order:
        return {}
    chapter = max(order, key=lambda ch: (votes[ch], -order.index(ch))) if any(votes.values()) else ""
    if not chapter:
        chapter = next((ch for ch in order if uses[ch] >= 2), order[0])
    rank = order.index(chapter)
    levels = {}
    for k, ch in enumerate(order):
        if k < rank:
            levels[ch] = 0 if uses[ch] >= 2 else -1
        else:
            levels[ch] = 1 + k - rank
    return levels


OPENING_NUMBER = 2
"""The highest number a run of chapter numbers may open with (``_chain``)."""


def _chain(lines: list[_Line], numbered: list[_Candidate], rejected: list[Rejected]) -> list[_Candidate]:
    """The longest run of chapter numbers 1, 2, 3… (or 0, 1, 2…, or 2, 3, 4… of at least
    ``LIST_RUN`` chapters: a boilerplate remover drops a page's first heading with its lead) among column-0 numbered lines,
    in book order, skipping lines outside it; lines in a list block (``LIST_RUN`` numbered lines
    with no text between, or a numbered line over such lines run on below it: a contents without
    a header) never count. A run keeps one form of number, with or without a full stop after it:
    a book numbers its chapters one way (``1 Introduction``), and a numbered list inside a
    chapter (``1. The first step, …``) another."""
    listed: set[int] = set()
    run: list[int] = []
    for index in [c.index for c in numbered] + [-2]:
        if run and index == run[-1] + 1:
            run.append(index)
            continue
        if len(run) >= LIST_RUN:
            listed.update(run)
        run = [index]
    listed.update(c.index for c in numbered if _heads_a_list(lines, c.index))
    # NOTE: of two runs as long, the one with more text under its lines: a contents without a
    # header lists the numbers its chapters carry further on, each entry over the next one.
    below = [min(b.index, len(lines)) - c.index for c, b in zip(numbered, numbered[1:])] + [len(lines)]
    best: dict[
        tuple[bool, int], tuple[int, int, int, int]
    ] = {}  # (form, value) -> (length, lines under, position, numbers with their sections under them)
    back: list[int] = []
    for k, c in enumerate(numbered):
        back.append(-1)
        if c.index in listed or not c.number.isdigit():
            continue
        value = int(c.number)
        form = _DOTTED_CHAPTER.match(lines[c.index].text) is not None
        before = best.get((form, value - 1))
        length = before[0] + 1 if before else (1 if value <= OPENING_NUMBER else 0)
        text = (before[1] if before else 0) + min(below[k], TEXT_UNDER_CAP)
        sectioned = (before[3] if before else 0) + _sections_under(lines, c.index, value, below[k])
        if before:
            back[k] = before[2]
        if length and (length, text) > best.get((form, value), (0, 0, -1, 0))[:2]:
            best[(form, value)] = (length, text, k, sectioned)
    if not best:
        return []
    # NOTE: of the longest run of each form of number, the one whose numbers have their own
    # sections under them (``2`` over ``2.1``, ``2.2``; ``SECTIONED_SHARE`` of them, two at least)
    # is the chapters, however long a numbered list of the other form runs inside a section
    # (a list of steps ``1.`` … ``18.``)
    runs = [max(v for (f, _), v in best.items() if f == form) for form in {f for f, _ in best}]
    length, _, k, _ = max(runs, key=lambda v: (v[3] >= 2 and v[3] >= SECTIONED_SHARE * v[0], v[0], v[1]))
    if length < 2 or (length < LIST_RUN and int(numbered[k].number) - length + 1 == OPENING_NUMBER):
        return []  # NOTE: a run that opens at 2 is one only when long: ``2.`` ``3.`` alone is a list's end
    keep: list[int] = []
    while k >= 0:
        keep.append(k)
        k = back[k]
    kept = {numbered[k].index for k in keep}
    for c in numbered:
        if c.index not in kept:
            why = "in a list of numbered lines" if c.index in listed else "outside the sequence 1, 2, 3…"
            rejected.append(_rejected(lines, c.index, why))
    return [numbered[k] for k in reversed(keep)]


SECTIONED_SHARE = 0.25
"""Share of a run's numbers with their sections under them that makes it the chapters (``_chain``)."""

SECTIONS_LOOKAHEAD = 40
"""Lines below a numbered line searched for its first section (``_sections_under``)."""


def _sections_under(lines: list[_Line], i: int, value: int, under: int) -> int:
    """1 when a section numbered under line ``i``'s number (``3.1 Title`` under ``3 Title``) stands
    at the margin among the ``under`` lines below it (up to the next numbered line), within
    ``SECTIONS_LOOKAHEAD`` lines, else 0."""
    prefix = f"{value}."
    for line in lines[i + 1 : i + min(under, SECTIONS_LOOKAHEAD)]:
        m = SECTION_HEADING.match(line.text) if line.indent == 0 else None
        if m and m.group("num").startswith(prefix):
            return 1
    return 0


def _heads_a_list(lines: list[_Line], i: int) -> bool:
    """Whether numbered line ``i`` opens a block of numbered lines run on below it, no blank line
    between, with only indented numbered sub-entries among them (``1.  Variables`` /
    ``    1.1 Variable types`` / ``2.  Expression syntax`` …): a contents without a header."""
    count = 0
    for line in lines[i + 1 :]:
        if line.blank_before:
            break
        if line.indent > 0 and SECTION_HEADING.match(line.text):
            continue
        if line.indent > 0 or not _NUMBERED_LINE.match(line.text):
            break
        count += 1
    return count >= LIST_RUN - 1


def _label_over_entry(lines: list[_Line], i: int, wanted: dict[str, str]) -> _Candidate | None:
    """A chapter opening set as two lines, its number alone (``3``, ``—3—``, ``- 3 -``) over its
    title, where the contents lists that title under that number: the heading starts at the label.

    A framed number alone is also a common folio, so the label counts only with the title the
    contents gives it right below, and the pair stands apart from the text around it (a page's
    first line stands apart above)."""
    line = lines[i]
    if i + 1 >= len(lines) or not (m := FRAMED_NUMBER.fullmatch(line.text)):
        return None
    if not (line.blank_before or i == 0 or lines[i - 1].page != line.page):
        return None
    below = lines[i + 1]
    if line.blank_after or not below.blank_after or below.page != line.page:
        return None
    key = words_key(below.text)
    if wanted.get(key) != m[1].lstrip("0"):
        return None
    title = below.text.title() if below.text.isupper() else below.text
    evidence = f"line {i + 1}: '{line.text}' over '{below.text[:60]}', listed in the contents as {m[1]}"
    return _Candidate(i, "numbered", m[1].lstrip("0"), title, [("contents", evidence)])


def _opens(starts: list[int], block: int) -> bool:
    """Whether a contents block at line ``block`` comes right after a chapter heading (within
    ``LABEL_TITLE_LINES`` lines): the chapter's own table of contents."""
    k = bisect_right(starts, block) - 1
    return k >= 0 and block - starts[k] <= LABEL_TITLE_LINES


def _contents_evidence(
    lines: list[_Line],
    candidates: list[_Candidate],
    entries: list[tuple[str, str, int, int]],
    chosen: dict[int, tuple[_Candidate, int]],
    listing: set[int],
) -> None:
    """Add the printed contents' evidence to the chosen headings it lists, and place the
    top-level entries nothing else found at a stand-alone line bearing their title.

    A contents block that stands between two chapters the other signals found is that chapter's
    own table of contents: its entries are sections, evidence only, never placed as chapters."""
    if not entries:
        return
    starts = sorted(i for i, (c, depth) in chosen.items() if depth == 1 and c.kind != "part")
    if len(starts) >= 2:
        entries = [e for e in entries if not (starts[0] < e[3] < starts[-1] or _opens(starts, e[3]))]
        if not entries:
            return
    top = min(indent for _, _, indent, _ in entries)
    listed: dict[str, tuple[str, int]] = {}
    for key, number, indent, _ in entries:
        # NOTE: a title listed twice (chapter ``1 Introduction``, section ``3.1 Introduction``)
        # keeps its shallowest entry, so the chapter is still wanted
        if key not in listed or indent < listed[key][1]:
            listed[key] = (number, indent)
    for c, _ in chosen.values():
        key = words_key(c.title)
        if key in listed:
            c.evidence.append(("contents", f"contents entry '{c.title[:60]}'"))
            listed.pop(key)
    # NOTE: where the contents numbers its chapters (and letters its appendices) and sets every
    # entry flush, an unnumbered entry listed after the first of them is one of their sections
    # (only the numbers tell the levels apart), unless its name is back matter's (``Index``);
    # unnumbered entries before the first (prefaces) stay wanted. A contents that indents its
    # sections says which unnumbered entries are chapter-level (``Closing Remarks`` flush).
    numbered_at = [
        k
        for k, (_, number, indent, _) in enumerate(entries)
        if indent == top and (number.isdigit() or (len(number) == 1 and number.isupper()))
    ]
    inside = (
        {
            key
            for key, number, _, _ in entries[numbered_at[0] :]
            if not number and not BACK_WORDS.search(key) and not _APPENDIX_WORD.match(key)
        }
        if sum(entries[k][1].isdigit() for k in numbered_at) >= 2 and all(e[2] == top for e in entries)
        else set()
    )
    wanted = {
        key: number
        for key, (number, indent) in listed.items()
        if indent == top and "." not in number and key not in inside
    }
    if not wanted:
        return
    taken = {c.index for c in candidates if c.char}
    # NOTE: first the lines that carry the entry's number too (``1 Introduction``), then bare
    # titles: a running header repeating a title bare may stand before its numbered heading.
    for numbered in (True, False):
        for i, line in enumerate(lines):
            if i in listing or i in chosen or i in taken or len(line.text) > MAX_TITLE_CHARS:
                continue
            if numbered and (label := _label_over_entry(lines, i, wanted)) is not None:
                chosen[i] = (label, 1)
                del wanted[words_key(label.title)]
                continue
            if not (line.blank_before and line.blank_after):
                continue
            parsed = parse_heading(line.text)
            key, number = words_key(line.text), ""
            if numbered:
                if parsed is None or not parsed.number or not parsed.title:
                    continue
                key, number = words_key(parsed.title), parsed.number.rstrip(".")
                if wanted.get(key) != number:
                    continue
            elif key not in wanted:
                continue
            title = parsed.title if number and parsed is not None else line.text
            title = title.title() if title.isupper() else title
            kind = "numbered" if number else "unnumbered"
            if parsed is not None and parsed.kind in ("front", "back"):
                kind = parsed.kind
            c = _Candidate(
                i,
                kind,
                number,
                title,
                [("contents", f"line {i + 1}: '{line.text[:60]}' listed in the contents")],
            )
            chosen[i] = (c, 1)
            del wanted[key]
