"""Stage 3 (structure), outline depths checked against type sizes: a chapter the outline nests too deep.

Contract: ``relevel_by_size(drafts, probe, norm)`` returns the outline's drafts with the depth
of every entry that the book sets as a chapter, but the outline nests below the chapter depth,
raised to the chapter depth; each such entry carries a ``typography`` evidence line that says so.

Why: some producers write bookmarks whose depth drifts from the document's heading levels (an
HTML page exported to PDF whose later top-level headings come out one or two levels deeper, as
siblings of sub-sections). The outline alone cannot tell; the type can, as an independent
signal, and only where it is unambiguous:

* the chapter-depth entries found on their pages are set large: their typical (median) size is
  at least ``HEADING_RATIO`` × the book's body size;
* the deeper entry is set at that size (within ``SAME_SIZE``);
* the entries below the chapter depth are mostly set smaller (their median is more than
  ``SIZE_GAP`` points below the chapters'): those depths hold sub-headings, and this entry stands
  out among them. They are measured on every entry that may be a chapter (a numbered, lettered,
  front or back matter title) and on a sample of ``SECTION_SAMPLE`` of the section entries: an
  outline that drifts deeper and deeper (each appendix a level below the last) leaves such an
  entry alone at its depth, so the depths are judged together.

An entry is measured only where the outline check placed it on a line of its page. Outlines with
more than ``MAX_MEASURED`` entries below the chapter depth are left as they are: measuring them
all would cost more than the whole structure step, and such long outlines come from typesetters
whose depths follow the document.
"""

from __future__ import annotations

from statistics import median

from ..normalise import NormalisedBook
from .heading_lines import SAME_SIZE, Draft, draft_line
from .levels import choose_depths
from .typography import HEADING_RATIO, FontProbe

SIZE_GAP = 1.0
"""Points by which a depth's own entries must be smaller than the chapters' to call it sub-headings."""

MAX_MEASURED = 150
"""At most this many entries below the chapter depth are measured (one page probe each)."""

MIN_CHAPTERS = 2
"""Chapter-depth entries that must be measured before their size means anything."""

SECTION_SAMPLE = 12
"""Section entries below the chapter depth measured (evenly spread) to tell those depths' size."""


def relevel_by_size(
    drafts: list[tuple[Draft, int]], probe: FontProbe, norm: NormalisedBook
) -> list[tuple[Draft, int]]:
    """Raise to the chapter depth the entries set like the chapters but nested below them.

    Args:
        drafts: the outline's drafts with their source depth (``check_outline``).
        probe: the book's font probe (answers None without a PDF layout).
        norm: the canonical text with per-page lines.

    Returns:
        list[tuple[Draft, int]]: the same drafts, in order, some with a smaller depth.
    """
    if probe.layout is None or len(drafts) < 3:
        return drafts
    _, chapter_depth = choose_depths(drafts)
    deeper = [k for k, (d, depth) in enumerate(drafts) if depth > chapter_depth and d.confirmed]
    if not deeper or len(deeper) > MAX_MEASURED:
        return drafts
    # NOTE: every entry that may be a chapter is measured, and a sample of the deeper section
    # entries: they tell what size the depths below the chapters are set at.
    sections = [k for k in deeper if drafts[k][0].kind == "section"]
    sample = set(sections[:: max(1, -(-len(sections) // SECTION_SAMPLE))])
    sizes: dict[int, float] = {}
    for k, (d, depth) in enumerate(drafts):
        if depth >= chapter_depth and d.confirmed and (d.kind != "section" or k in sample):
            size = probe.size_of(d.page, draft_line(norm, d))
            if size is not None:
                sizes[k] = size
    chapters = [sizes[k] for k, (_, depth) in enumerate(drafts) if depth == chapter_depth and k in sizes]
    body = probe.body_size()
    if len(chapters) < MIN_CHAPTERS or not body:
        return drafts
    chapter_size = median(chapters)
    if chapter_size < body * HEADING_RATIO:
        return drafts
    below = [sizes[k] for k in deeper if k in sizes]
    out = list(drafts)
    for k in deeper:
        d, depth = drafts[k]
        size = sizes.get(k)
        if d.kind == "section" or size is None or abs(size - chapter_size) > SAME_SIZE:
            continue
        if median(below) > chapter_size - SIZE_GAP:
            break  # the depths below the chapters are set like them: the outline's depths stand
        d.evidence.append(
            (
                "typography",
                f"p. {d.page + 1}: {size:.1f} pt like the chapters ({chapter_size:.1f} pt), "
                f"though the outline nests it at depth {depth}",
            )
        )
        out[k] = (d, chapter_depth)
    return out
