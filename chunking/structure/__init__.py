"""Stage 3 (structure): the book's parts, chapters, appendices, front/back matter and sections.

Contract: ``detect_structure(raw, norm, mode)`` returns ``Heading``s in book order with exact
canonical offsets, plus what it did (``StructureResult``). Modes (``chunking.models.
STRUCTURE_SOURCES``): ``outline`` (the source's outline, cross-checked and repaired,
``outline.py``), ``headings`` (found in the text and its typography, ``headings.py``),
``auto`` (the outline when it holds up: at most ``OUTLINE_MAX_DROPPED`` of its entries not
found in the text, and at least two chapters or no more than the text shows; else the text)
and ``none``. Markdown ``#`` headings (format ``md``) are the author's own structure: trusted,
source ``markdown``.

Levels: 1 is the top of this book's hierarchy (parts when the book has parts, else chapters);
front/back matter and appendices sit at chapter level; sections one level below.
"""

from __future__ import annotations

from collections import Counter

from ..models import Heading
from ..normalise import NormalisedBook
from ..readers.raw import RawBook
from .headings import Draft, detect_headings
from .kinds import BACK_WORDS, FRONT_WORDS
from .epub import epub_structure
from .outline import check_outline
from .result import StructureResult
from .typography import FontProbe

OUTLINE_MAX_DROPPED = 0.4
"""``auto`` falls back to the text when more than this share of outline entries do not hold."""


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
        return epub_structure(raw, norm, mode, _generic)
    return _generic(raw, norm, mode)


def _generic(raw: RawBook, norm: NormalisedBook, mode: str) -> StructureResult:
    """The format-independent detector: the outline cross-checked, else headings in the text."""
    if raw.format == "md" and mode in ("auto", "outline"):
        checked = check_outline(raw, norm)
        return StructureResult(_levelled(checked.drafts, norm, "markdown")[0], "markdown", checked.entries)
    warnings: list[str] = []
    if mode in ("auto", "outline") and raw.outline:
        checked = check_outline(raw, norm)
        headings, demoted = _levelled(checked.drafts, norm, "outline")
        outlined = StructureResult(headings, "outline", checked.entries, checked.dropped,
                                   checked.repaired + demoted, list(checked.warnings))
        holds = checked.dropped <= OUTLINE_MAX_DROPPED * max(1, checked.entries) and headings
        if mode == "outline" or (holds and _chapter_count(headings) >= 2):
            return outlined
        found = _from_text(raw, norm, warnings)
        if holds and _chapter_count(found.headings) <= _chapter_count(headings):
            return outlined
        if holds:
            warnings.append(f"the outline has {_chapter_count(headings)} chapter-level entries, the text "
                            f"{_chapter_count(found.headings)}; using headings found in the text")
        else:
            warnings.append(f"the outline does not hold up ({checked.dropped} of {checked.entries} entries "
                            "not found in the text); using headings found in the text")
        found.outline_entries, found.outline_dropped = checked.entries, checked.dropped
        return found
    if mode == "outline":
        return StructureResult((), "outline", 0, warnings=["the book has no outline; no structure found"])
    return _from_text(raw, norm, warnings)


def _from_text(raw: RawBook, norm: NormalisedBook, warnings: list[str]) -> StructureResult:
    drafts = detect_headings(norm, FontProbe(raw.pdf))
    headings, _ = _levelled([(d, 2 if d.kind == "section" else 1) for d in drafts], norm, "headings")
    return StructureResult(headings, "headings", len(raw.outline), warnings=warnings)


def _chapter_count(headings: tuple[Heading, ...]) -> int:
    return sum(1 for h in headings if h.kind in ("chapter", "appendix"))


def _levelled(
    drafts: list[tuple[Draft, int]], norm: NormalisedBook, source: str
) -> tuple[tuple[Heading, ...], int]:
    """Give each draft its final kind and level (see the module docstring).

    Returns:
        tuple[tuple[Heading, ...], int]: the headings in book order, and how many entries the
        source put at chapter level although they are numbered sections (moved down).
    """
    if not drafts:
        return (), 0
    chapter_kinds = ("chapter", "numbered", "appendix")
    depths = Counter(depth for d, depth in drafts if d.kind in chapter_kinds)
    if not depths:
        depths = Counter(depth for d, depth in drafts if d.kind != "part")
    chapter_depth = min(depths, key=lambda k: (-depths[k], k)) if depths else 1
    chapters = [d.offset for d, depth in drafts if depth <= chapter_depth and d.kind in chapter_kinds]
    first, last = (min(chapters), max(chapters)) if chapters else (None, None)
    # NOTE: "Part …" below the chapter depth is a section that happens to start with "Part".
    has_parts = any(d.kind == "part" and depth <= chapter_depth for d, depth in drafts)
    top = 2 if has_parts else 1
    out: list[Heading] = []
    demoted = 0
    for d, depth in drafts:
        kind, level = d.kind, top
        if kind == "part" and depth <= chapter_depth:
            level = 1
        elif kind == "section" or depth > chapter_depth:
            demoted += depth <= chapter_depth
            kind, level = "section", top + max(1, depth - chapter_depth)
        elif kind == "numbered":
            kind = "chapter"
        elif kind == "unnumbered":
            kind = _matter_kind(d, first, last)
        title, number = d.title, d.number
        if d.kind == "part" and kind == "section":
            title, number = f"Part {d.number} {d.title}".strip(), ""
        page = norm.pages[d.page]
        out.append(Heading(level=level, kind=kind, title=title, number=number, page=page.number,
                           page_label=page.label, char_offset=d.offset, source=source))
    out.sort(key=lambda h: (h.char_offset, h.level))
    return tuple(out), demoted


def _matter_kind(d: Draft, first: int | None, last: int | None) -> str:
    """An unnumbered chapter-level entry: front before the first chapter, back after the last."""
    if FRONT_WORDS.match(d.title) or (first is not None and d.offset < first):
        return "front"
    if BACK_WORDS.search(d.title) or (last is not None and d.offset > last):
        return "back"
    return "chapter"
