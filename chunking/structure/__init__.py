"""Stage 3 (structure): the book's parts, chapters, appendices, front/back matter and sections.

Contract: ``detect_structure(raw, norm, mode)`` returns ``Heading``s in book order with exact
canonical offsets, each with its ``evidence`` and ``confidence``, plus what it did
(``StructureResult``: signal counts, disagreements, rejected candidates). The contract for users
is docs/STRUCTURE.md. Modes (``chunking.models.STRUCTURE_SOURCES``):

* ``outline``: the source's outline, cross-checked and repaired (``outline.py``; EPUB:
  ``epub.py``);
* ``headings``: found in the text: numbering, keywords, font size, the printed contents
  (``headings.py``, ``contents.py``), and as last resorts the display size or weight
  (``display.py``);
* ``auto``: one engine over both: the outline when it holds up (at most ``OUTLINE_MAX_DROPPED``
  of its entries not found in the text, and at least two chapters or no more than the text
  shows), with the text, the printed contents and the running headers (``running.py``) as
  evidence (``evidence.py``); else the text, with the outline as evidence;
* ``none``.

The headings of a markup source (Markdown ``#`` headings, format ``md``; POD ``=head`` and
AsciiDoc ``==`` titles in a ``.txt``: ``RawBook.markup``) are the author's own structure: trusted,
source ``markdown``, ``pod``, ``wiki``, ``asciidoc``, ``org`` or ``rst``. Levels and kinds are given by ``levels.py``: 1 is the top of this book's
hierarchy (parts when the book has parts, else chapters); front/back matter and appendices sit
at chapter level; sections one level below.
"""

from __future__ import annotations

import dataclasses
import statistics

from ..models import Heading, Rejected
from ..normalise import NormalisedBook
from ..readers.layout import PageLayout
from ..readers.markup import ENCODED
from ..readers.raw import RawBook
from ..rules import FENCE_KINDS
from .baseline import outline_baseline
from .contents import ContentsEntry, listing_offsets, read_contents
from .contents_unpaged import unpaged_contents
from .display import display_headings, numbered_bold_headings, outdented_headings
from .evidence import corroborate, signal_counts
from .guard import keep_outline
from .heading_lines import SAME_SIZE, Draft, draft_line, rejected_draft
from .kinds import compact_key, words_key
from .headings import detect_headings
from .levels import choose_depths
from .levels import levelled as _levelled
from .lost_chapters import lost_chapters
from .outline import check_outline, groups_folded
from .outline_runs import as_set
from .outline_sizes import relevel_by_size
from .outline_tail import tail_back_matter, tail_filled, tail_pages
from .result import StructureResult
from .running import running_evidence
from .typography import FontProbe

OUTLINE_MAX_DROPPED = 0.4
"""``auto`` falls back to the text when more than this share of outline entries do not hold."""

CONTENTS_TRUSTED = 0.8
"""A printed contents whose chapter-level entries were found on their pages at least this often
places the rest of them by its page numbers alone (a chapter opening drawn as outlines, or an
image, leaves no title in the text layer)."""

TYPEWRITTEN_SHARE = 0.8
"""Share of a PDF's pages that must be typewritten (``_typewritten``) for it to read as a text."""

FULL_PAGES_SHARE = 0.5
"""Share of a PDF's pages with text that must hold blank lines (or be OCR'd printouts) before its
full pages without one count as typewritten too (``_typewritten``): the book is then mostly a
printout, and a page of it as long as its median blank-lined page is one of its pages."""

LISTED_SIZES_MIN = 2
"""Chapters the printed contents placed (and whose size was read) before their size bounds the
headings found by size alone."""


def detect_structure(raw: RawBook, norm: NormalisedBook, mode: str = "auto") -> StructureResult:
    """Find the structure of a book.

    Args:
        raw (RawBook): the reader's output (outline, format, open PDF).
        norm (NormalisedBook): the canonical text and per-page lines.
        mode (str): ``auto``, ``outline``, ``headings`` or ``none``. Defaults to ``auto``.

    Returns:
        StructureResult: headings in ascending ``char_offset`` and the source actually used.
    """
    if mode == "none":
        return StructureResult((), "none", outline_entries=len(raw.outline))
    if raw.format == "epub":
        from .epub import epub_structure  # NOTE: EPUB-only modules, not loaded for other formats

        return epub_structure(raw, norm, mode, _generic)
    return _generic(raw, norm, mode)


def _generic(raw: RawBook, norm: NormalisedBook, mode: str) -> StructureResult:
    """The format-independent detector (``_engine``), then, in ``auto`` on a PDF with an outline,
    the guard: no outline entry dropped or demoted without two independent signals (``guard.py``).
    A PDF's outline is first read as its pages set the headings (``outline_runs.as_set``: styled
    runs of one heading line joined, a destination past its page's text moved to the next page);
    the engine and the plain reading both read that outline."""
    read_as_set: list[str] = []
    if mode in ("auto", "outline"):
        read = as_set(raw, norm)
        read_as_set = read.warnings(len(raw.outline))
        if read_as_set:
            raw = dataclasses.replace(raw, outline=read.entries)
    result = _engine(raw, norm, mode)
    result.warnings[:0] = read_as_set
    if mode == "auto" and raw.format == "pdf" and raw.outline:
        baseline = outline_baseline(raw.outline, len(norm.pages))
        headings, notes = keep_outline(result.headings, baseline, norm)
        if headings is not result.headings:
            result.headings = headings
            result.signal_counts = signal_counts(headings)
        result.disagreements += notes
    return result


def _engine(raw: RawBook, norm: NormalisedBook, mode: str) -> StructureResult:
    """The format-independent detector: the outline cross-checked, else headings in the text.

    In ``auto`` both are computed: the one chosen is the structure, the other is evidence
    (``evidence.corroborate``) and the source of the disagreements Diagnostics lists.
    """
    if raw.markup and mode in ("auto", "outline"):
        checked = check_outline(raw, norm)
        drafts = checked.drafts if raw.markup in ENCODED else _with_opening_title(checked.drafts, norm)
        levelled = _levelled(drafts, norm, raw.markup, title_unit=True)[0]
        return StructureResult(
            lost_chapters(levelled, norm),
            raw.markup,
            checked.entries,
        )
    if (raw.format == "txt" or (raw.format == "pdf" and not raw.outline and _typewritten(raw))) and mode in (
        "auto",
        "headings",
    ):
        from .plain_text import plain_text_structure  # NOTE: plain-text books only

        plain = plain_text_structure(norm)
        if plain is not None:
            return plain
    warnings: list[str] = []
    rejected: list[Rejected] = []
    if mode in ("auto", "outline") and raw.outline:
        checked = check_outline(raw, norm)
        drafts = groups_folded(checked.drafts, norm) if raw.format == "pdf" else checked.drafts
        drafts = relevel_by_size(drafts, FontProbe(raw.layout), norm) if mode == "auto" else drafts
        headings, demoted = _levelled(drafts, norm, "outline")
        outlined = StructureResult(
            headings,
            "outline",
            checked.entries,
            checked.dropped,
            checked.repaired + demoted,
            list(checked.warnings),
        )
        if mode == "outline":
            return _explained(outlined, norm, (), "the outline", rejected)
        missing = checked.dropped + checked.unconfirmed
        holds = (
            missing <= OUTLINE_MAX_DROPPED * max(1, checked.entries) or _top_holds(raw, checked.drafts)
        ) and headings
        if holds and _chapter_count(headings) >= 2:
            # NOTE: the text is then evidence only, read on the pages of chapter-level entries
            # (reading and probing the whole book would cost more than the outline check).
            pages = {h.page - 1 for h in headings if h.kind in FENCE_KINDS}
            tail = tail_pages(headings, norm)
            found = _from_text(raw, norm, [], None, pages | tail)
            drafts_listed = _listed(norm, raw.layout)[0] if raw.format == "pdf" else []
            listed = _levelled([(d, 1) for d in drafts_listed], norm, "headings")[0] if drafts_listed else ()
            outlined.headings = _numbering_filled(outlined.headings, drafts_listed, norm)
            outlined.headings = tail_back_matter(outlined.headings, norm, FontProbe(raw.layout), tail)
            outlined.headings = tail_filled(outlined.headings, found.headings, tail)
            return _explained(outlined, norm, found.headings, "the outline", rejected, listed)
        found = _from_text(raw, norm, warnings, rejected)
        if holds and _chapter_count(found.headings) <= _chapter_count(headings):
            return _explained(outlined, norm, found.headings, "the outline", rejected)
        if holds:
            warnings.append(
                f"the outline has {_chapter_count(headings)} chapter-level entries, the text "
                f"{_chapter_count(found.headings)}; using headings found in the text"
            )
        else:
            warnings.append(
                f"the outline does not hold up ({missing} of {checked.entries} entries "
                "not found in the text); using headings found in the text"
            )
        found.outline_entries, found.outline_dropped = checked.entries, checked.dropped
        return _explained(found, norm, headings, "the text headings", rejected)
    if mode == "outline":
        return StructureResult((), "outline", 0, warnings=["the book has no outline; no structure found"])
    return _explained(_from_text(raw, norm, warnings, rejected), norm, (), "the text headings", rejected)


def _numbering_filled(
    headings: tuple[Heading, ...], listed: list[Draft], norm: NormalisedBook
) -> tuple[Heading, ...]:
    """The outline's headings with the chapters its own numbering lacks put in from the printed
    contents: where the outline's chapters are numbered (``2`` … ``7``) and a number below the
    last is missing (``1``), the contents' chapter of that number, found on its page, is a
    chapter. Two independent signals agree on it: the numbering the outline's own chapters
    follow, and the contents with the page's text (an outline that starts at ``1.1 Scope`` under
    a ``1. Overview`` it never bookmarked)."""
    chapters = [h for h in headings if h.kind == "chapter" and h.number.isdigit()]
    have = {int(h.number) for h in chapters}
    if len(have) < 2:
        return headings
    level = chapters[0].level
    missing = set(range(1, max(have) + 1)) - have
    taken = {h.char_offset for h in headings if h.kind in FENCE_KINDS}
    titled = {compact_key(h.title) for h in headings if h.kind in FENCE_KINDS}
    added = []
    for d in listed:
        if not (d.confirmed and d.number.isdigit() and int(d.number) in missing and d.offset not in taken):
            continue
        if compact_key(d.title) in titled:
            continue  # the outline has it, unnumbered (its title without the number)
        missing.discard(int(d.number))
        filled = _levelled([(d, 1)], norm, "headings")[0]
        for h in filled:
            evidence = (
                *h.evidence,
                ("numbering", f"chapter {d.number} of the outline's chapters {min(have)}..{max(have)}"),
            )
            added.append(dataclasses.replace(h, level=level, kind="chapter", evidence=evidence))
    if not added:
        return headings
    return tuple(sorted((*headings, *added), key=lambda h: (h.char_offset, h.level)))


def _with_opening_title(drafts: list[tuple[Draft, int]], norm: NormalisedBook) -> list[tuple[Draft, int]]:
    """A markup source's headings with the title it sets as plain text above the first of them
    (``plain_text.opening_title``) put first, at the top depth: its title page, a front unit;
    not when that first heading is the same title (then it is the document's title). With no
    title above, a contents printed above the first heading is put first; with none there
    either, the contents printed under it is looked for (``_with_contents_under_title``): front
    matter or a site header above a page's title heading sets no title of its own."""
    if not drafts:
        return drafts
    if drafts[0][0].offset == 0:
        return _with_contents_under_title(drafts, norm)
    # NOTE: text-reading rules, loaded for markup sources only
    from .plain_text import opening_contents, opening_title

    title = opening_title(norm, drafts[0][0].offset)
    if title is None:
        keys = [key for d, _ in drafts for key in (words_key(f"{d.number} {d.title}"), words_key(d.title))]
        depth = min(depth for _, depth in drafts)
        above = opening_contents(norm, drafts[0][0].offset, keys)
        # NOTE: no contents above the first heading: it may stand under it, the page's title
        return [(d, depth) for d in above] + drafts if above else _with_contents_under_title(drafts, norm)
    if words_key(title.title) == words_key(drafts[0][0].title):
        # NOTE: the first heading says the same words: the title set twice (a converted page
        # writes its ``<title>`` above its ``<h1>``), and the heading is the one that counts
        return _with_contents_under_title(drafts, norm)
    return [(title, min(depth for _, depth in drafts)), *drafts]


def _with_contents_under_title(
    drafts: list[tuple[Draft, int]], norm: NormalisedBook
) -> list[tuple[Draft, int]]:
    """A markup source's headings with the contents it prints as plain text under its first
    heading, before the next heading of that depth (``plain_text.opening_contents`` from the
    first heading on): a converted page sets its title as its first heading, then the author,
    the abstract and a contents box in bold over lines linking to the chapters. Only the
    headings from that next one on count as entries, so a chapter's own contents, which lists
    its sections, makes no front unit. The contents goes in at the first heading's depth, in
    book order; not when its header line is a heading already."""
    # NOTE: text-reading rules, loaded for markup sources only
    from .plain_text import opening_contents

    first, depth = drafts[0]
    after = next((i for i, (_, d) in enumerate(drafts[1:], 1) if d <= depth), None)
    if after is None:
        return drafts
    keys = [
        key for d, _ in drafts[after:] for key in (words_key(f"{d.number} {d.title}"), words_key(d.title))
    ]
    found = opening_contents(norm, drafts[after][0].offset, keys, after=first.offset + 1)
    if not found or any(d.offset == found[-1].offset for d, _ in drafts):
        return drafts
    return sorted([*drafts, (found[-1], depth)], key=lambda item: item[0].offset)


def _top_holds(raw: RawBook, drafts: list[tuple[Draft, int]]) -> bool:
    """Whether the outline's entries down to its chapter depth hold (at most
    ``OUTLINE_MAX_DROPPED`` of them not found), however many deeper ones do not: a manual that
    prints each section under another heading than its outline entry (a file name over the
    section the outline calls ``Creation``) still has the chapters its outline gives."""
    if not drafts:
        return False
    _, chapter_depth = choose_depths(drafts)
    wanted = sum(1 for entry in raw.outline if entry.level <= chapter_depth)
    found = sum(1 for d, depth in drafts if depth <= chapter_depth and d.confirmed)
    return wanted >= 2 and wanted - found <= OUTLINE_MAX_DROPPED * wanted


def _explained(
    result: StructureResult,
    norm: NormalisedBook,
    others: tuple[Heading, ...],
    label: str,
    rejected: list[Rejected],
    contents: tuple[Heading, ...] = (),
) -> StructureResult:
    """``result`` with the evidence of ``others`` and of the printed contents merged in, its
    signal counts, disagreements and the candidates the text detector rejected."""
    headings, disagreements = corroborate(result.headings, others, label)
    if contents:
        headings, more = corroborate(headings, contents, label)
        disagreements += more
    headings, more = running_evidence(headings, norm)
    disagreements += more
    result.headings = headings
    result.signal_counts = signal_counts(headings)
    result.disagreements = list(dict.fromkeys(disagreements))  # each disagreement once
    result.rejected = rejected
    return result


def _listed(norm: NormalisedBook, layout: PageLayout | None = None) -> tuple[list[Draft], set[int]]:
    """The printed contents' chapter-level entries found on their page, as drafts; and those
    between two found neighbours whose title no line of their page holds (``_in_gap``), at
    the top of the page the contents gives, unconfirmed. With them, the offsets of the contents'
    listing lines (``listing_offsets``), which are never headings."""
    contents = read_contents(norm, sections=False, layout=layout)
    chapters = [e for e in contents.entries if e.chapter_level and e.page is not None]
    found = [e for e in chapters if e.confirmed and e.offset is not None]
    out = []
    for k, e in enumerate(chapters):
        if e.page is None:
            continue
        printed = f" … {e.printed}" if e.printed else ""
        where = (
            f"contents p. {e.source_page + 1}: '{(e.number + ' ' + e.title).strip()[:60]}'{printed}"
            f" -> p. {e.page + 1}"
        )
        kind = {"chapter": "numbered" if e.number else "chapter"}.get(e.kind, e.kind)
        if e.confirmed and e.offset is not None:
            out.append(Draft(kind, e.number, e.title, e.page, e.offset, evidence=[("contents", where)]))
        elif len(found) >= CONTENTS_TRUSTED * len(chapters) and _in_gap(chapters, k):
            where += " (its title is not in the page's text: the contents alone places it)"
            page = norm.pages[e.page]
            out.append(
                Draft(
                    kind,
                    e.number,
                    e.title,
                    e.page,
                    page.char_start,
                    evidence=[("contents", where)],
                    confirmed=False,
                )
            )
    return out, listing_offsets(contents, norm) if contents.entries else set()


def _in_gap(chapters: list[ContentsEntry], k: int) -> bool:
    """Whether the unconfirmed entry ``k`` lies strictly between the pages of its confirmed
    neighbours in the contents (so the page mapping that found them holds for it too, and its
    page opens no other chapter)."""
    page = chapters[k].page
    before = next((e for e in reversed(chapters[:k]) if e.confirmed), None)
    after = next((e for e in chapters[k + 1 :] if e.confirmed), None)
    return (
        page is not None
        and before is not None
        and after is not None
        and before.page is not None
        and after.page is not None
        and before.page < page < after.page
    )


def _from_text(
    raw: RawBook,
    norm: NormalisedBook,
    warnings: list[str],
    rejected: list[Rejected] | None = None,
    pages: set[int] | None = None,
) -> StructureResult:
    listed, contents_lines = (
        _listed(norm, raw.layout) if raw.format == "pdf" and pages is None else ([], set())
    )
    probe = FontProbe(raw.layout)
    if raw.format == "pdf" and pages is None and not listed:
        listed, contents_lines = unpaged_contents(norm, probe)  # numbered chapters, no pages
    drafts = detect_headings(norm, probe, rejected, pages, listed, contents_lines)
    if (
        pages is None
        and raw.layout is not None
        and sum(d.kind in ("chapter", "appendix") for d in drafts) < 2
    ):
        # NOTE: nothing but size is left: chapters set in the book's display size (costly, so
        # only here; see structure/display.py).
        shown = display_headings(norm, probe)
        if len(shown) < 2:
            shown = outdented_headings(norm, probe)  # not even a display size: weight and place
        if len(shown) < 2:
            shown = numbered_bold_headings(norm, probe)  # weight and a run of numbers
        shown = _no_smaller_than_listed(shown, listed, norm, probe, rejected)
        if len(shown) >= 2:
            drafts = detect_headings(norm, probe, rejected, pages, listed + shown, contents_lines)
    if contents_lines:
        drafts = _not_contents_lines(drafts, contents_lines, norm, rejected)
    headings, _ = _levelled([(d, 2 if d.kind == "section" else 1) for d in drafts], norm, "headings")
    return StructureResult(headings, "headings", len(raw.outline), warnings=warnings)


def _not_contents_lines(
    drafts: list[Draft], offsets: set[int], norm: NormalisedBook, rejected: list[Rejected] | None
) -> list[Draft]:
    """``drafts`` less those on the lines of a printed contents (``listing_offsets``,
    ``contents_unpaged``): an entry set larger than the body is still the contents' line, its
    chapter opens where the contents placed it."""
    kept = []
    for d in drafts:
        if d.offset not in offsets:
            kept.append(d)
        elif rejected is not None:
            rejected.append(rejected_draft(norm, d, "a line of the printed contents"))
    return kept


def _typewritten(raw: RawBook) -> bool:
    """Whether a PDF is a printout of a plain text (enscript, an RFC): most of its pages with
    text hold blank lines, which only a typewritten page's text does (the reader puts them back
    from its line pitch, ``readers/pdftypewriter.py``), or are OCR'd pages taken for a printout
    (``ocr/printout.py``: rebuilt from their rows, so that one without a blank line, a dense
    page of a table or a listing, counts too), or, in a book where at least ``FULL_PAGES_SHARE``
    of the pages are so, are full pages (as many lines as its median such page: a printer fills
    every page alike, and a dense page of settings has no blank line). Its structure is read as a
    plain text's: a fixed
    pitch offers no type sizes, only what a text file offers."""
    pages = [p for p in raw.pages if p.text.strip()]
    typed = [p for p in pages if "\n\n" in p.text or p.ocr_printout]
    if len(typed) >= FULL_PAGES_SHARE * len(pages):
        # NOTE: a printer fills every page with as many lines, blank ones included: a page of it
        # without a blank line (a table of settings) holds as many text lines as the others
        full = statistics.median(_line_count(p.text) for p in typed)
        seen = {id(p) for p in typed}
        typed += [p for p in pages if id(p) not in seen and _line_count(p.text) >= full]
    return bool(pages) and len(typed) >= TYPEWRITTEN_SHARE * len(pages)


def _line_count(text: str) -> int:
    return len(text.rstrip("\n").split("\n"))


def _no_smaller_than_listed(
    shown: list[Draft],
    listed: list[Draft],
    norm: NormalisedBook,
    probe: FontProbe,
    rejected: list[Rejected] | None,
) -> list[Draft]:
    """The headings found by size alone, less those set smaller than every chapter the printed
    contents listed and found on its page: where two signals (the contents and the page) place
    the chapters, a heading set below their size is a section of one (``Options`` in
    bold at body size under a 14 pt ``The Parser``, in every chapter), not a chapter the contents forgot."""
    sizes = [
        size
        for d in listed
        if d.kind != "section" and (size := probe.size_of(d.page, draft_line(norm, d))) is not None
    ]
    if len(sizes) < LISTED_SIZES_MIN:
        return shown
    smallest = min(sizes)
    kept = []
    for d in shown:
        size = probe.size_of(d.page, draft_line(norm, d))
        if size is not None and size < smallest - SAME_SIZE:
            if rejected is not None:
                line = draft_line(norm, d)
                why = f"set at {size:.1f} pt, below every chapter the contents lists ({smallest:.1f} pt)"
                message = f"p. {d.page + 1} '{line[:60]}': {why}"
                rejected.append(Rejected("headings", line, why, d.page + 1, message))
            continue
        kept.append(d)
    return kept


def _chapter_count(headings: tuple[Heading, ...]) -> int:
    return sum(1 for h in headings if h.kind in ("chapter", "appendix"))
