"""A line drawn with a shadow run by run, read as one line again (issue 25).

Why: a heading set in faked small capitals with a drop shadow is drawn run by run, each run of
one size twice: ``1. I`` in grey, ``1. I`` in black, ``NTRODUCTION`` in grey, ``NTRODUCTION`` in
black. MuPDF starts a new line wherever the pen moves back, so it reads ``1. I`` / ``1.
INTRODUCTION`` / ``NTRODUCTION``: each line one copy of a run and the other copy of the next,
every line overlapping the one before it. The page shows one heading; the text holds its words
two or three times, broken (``OCUMENTATION``, ``NTRODUCTION``), so neither search nor structure
finds it. ``chunking.readers.pdfpages.without_overprints`` keeps one of two *equal* lines drawn at
one place; these lines are not equal, only their overlapping parts are.

What tells such a chain from text that merely stands close: consecutive lines on one baseline
(a fraction's numerator, which may open with its denominator's text, stands a line higher)
whose boxes overlap across, by about the width the text they
share takes (the end of one line is the start of the next, ``USTOMIZING`` at the end of ``4.
CUSTOMIZING`` and the start of ``USTOMIZING Y``), and the chain opens with a line that the next
one begins with whole (the first run's first copy). Text really set side by side does not
overlap; a line printed over a different text shares no letters at the overlap.
"""

from __future__ import annotations

from typing import Any

from .pdftypewriter import stext_lines

SHARED_WIDTH_SLACK = 0.3
"""How far (as a share of the width expected) the overlap of two lines' boxes may differ from
the width of the text they share, as measured by its share of the later line's characters:
small and full capitals differ in width, and the JSON writer gives whole points."""

SHARED_WIDTH_MIN_PT = 2.0
"""The least slack of that measure, in points (whole-point boxes)."""

BASELINE_SHARE = 0.2
"""Two lines stand on one baseline when their baselines are this share of the taller line's
height apart, or a point (the JSON writer gives whole points): a shadow is drawn a fraction of
a point off; a fraction's numerator, whose text may open its denominator's (``G(n)`` over
``G(n)−1``), stands a line's height above it."""

MIN_OPENING_CHARS = 2
"""Non-space characters of the chain's first line (``1. I``): a lone glyph that the next line
begins with is no evidence of a run drawn twice."""

Box = tuple[float, float, float, float, float]
"""A line's box: left, top, width, height, and its baseline (whole points, MuPDF's JSON writer)."""


def with_shadow_runs_merged(text: str, stext: Any) -> str:
    """``text`` (a page's plain text, from ``stext``) with each chain of shadowed runs
    (module docstring) read as the one line the page shows."""
    kept = [line for line in text.split("\n") if line]
    if not any(_opens_chain(a, b) for a, b in zip(kept, kept[1:])):
        return text
    boxes = _boxes(stext)
    if boxes is None or len(boxes) != len(kept):
        return text
    if any(a.replace(" ", "") != b.replace(" ", "") for (a, _), b in zip(boxes, kept)):
        return text
    merged = _chains(kept, [box for _, box in boxes])
    if not merged:
        return text
    out: list[str] = []
    k = 0
    for line in text.split("\n"):
        if not line:
            out.append(line)
            continue
        replaced = merged.get(k, line)
        if replaced:
            out.append(replaced)
        k += 1
    return "\n".join(out)


def _opens_chain(line: str, after: str) -> bool:
    """Whether ``after`` begins with the whole of ``line`` and goes on: the first copy of a
    shadowed run, then the other copy and the next run (the cheap test before any box is read)."""
    head = line.strip()
    return (
        len(head.replace(" ", "")) >= MIN_OPENING_CHARS
        and after.lstrip().startswith(head)
        and len(after.strip()) > len(head)
    )


def _boxes(stext: Any) -> list[tuple[str, Box]] | None:
    lines = stext_lines(stext)
    if lines is None:
        return None
    try:
        return [
            (
                ln["text"],
                (
                    float(ln["bbox"]["x"]),
                    float(ln["bbox"]["y"]),
                    float(ln["bbox"]["w"]),
                    float(ln["bbox"]["h"]),
                    float(ln["y"]),
                ),
            )
            for ln in lines
        ]
    except (ValueError, KeyError, TypeError):
        return None


def _chains(lines: list[str], boxes: list[Box]) -> dict[int, str]:
    """The lines of ``lines`` that chains replace, by index: a chain's first line by the chain's
    text read once, each later line of it by ``""`` (dropped)."""
    out: dict[int, str] = {}
    i = 0
    while i < len(lines):
        j, text = i, lines[i]
        if i + 1 < len(lines) and _opens_chain(lines[i], lines[i + 1]):
            while j + 1 < len(lines):
                shared = _shared(lines[j], lines[j + 1], boxes[j], boxes[j + 1])
                if shared is None:
                    break
                text += lines[j + 1][shared:]
                j += 1
        if j > i:
            out[i] = text
            for k in range(i + 1, j + 1):
                out[k] = ""
        i = j + 1
    return out


def _shared(line: str, after: str, box: Box, next_box: Box) -> int | None:
    """How many characters ``after`` begins with that end ``line`` where the two boxes overlap
    by the width those characters take; None when the two lines are no pair of a chain."""
    if abs(box[4] - next_box[4]) > max(1.0, BASELINE_SHARE * max(box[3], next_box[3])):
        return None
    overlap = min(box[0] + box[2], next_box[0] + next_box[2]) - max(box[0], next_box[0])
    if overlap <= 0 or not after:
        return None
    for k in range(min(len(line), len(after)), 0, -1):
        piece = after[:k]
        if piece.strip() and line.endswith(piece):
            expected = next_box[2] * k / len(after)
            if abs(overlap - expected) <= max(SHARED_WIDTH_MIN_PT, SHARED_WIDTH_SLACK * expected):
                return k
            return None
    return None
