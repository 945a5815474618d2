"""The inspector's one colour scheme: every page, figure, text highlight and page image takes its
colours from here, so a colour means the same thing everywhere.

* **Overlap** (text shared by two neighbouring chunks) is ``OVERLAP`` everywhere: the marks in a
  chunk's text, the paint on a PDF page image, the "overlapped" cells of the coverage map and the
  inside-a-chapter bars of the overlap-per-boundary figure. Highlights in text and on page images
  are the same colour at the same opacity (``HIGHLIGHT_OPACITY``) over white paper.
* **Policies** wear a colour chosen by their *name* (``policy_colours``), never by their position
  on a page, so Compare and Retrieval show one policy in one colour.
* **Coverage**: lost text ``LOST`` (red), covered once ``ONCE`` (pale), overlapped ``OVERLAP``.

Nothing here imports Streamlit or plotly; colours are ``#rrggbb`` strings, converted where a
consumer needs another form (``rgb01`` for PyMuPDF, ``css_rgba`` for HTML).
"""

from __future__ import annotations

import hashlib
import re

OVERLAP = "#ff8c1a"
"""Text shared with a neighbouring chunk (orange): text marks, page images, coverage, figures."""
CHUNK = "#4cbb4c"
"""A chunk's own text painted on its page image (green)."""
SEARCH_HIT = "#4cbb4c"
"""Retrieval: the terms or passage a search matched (green, the chunk's own text colour)."""
HIGHLIGHT_OPACITY = 0.4
"""Opacity of every highlight over paper, in text and on page images (so both look the same)."""
ACROSS = "#7b3294"
"""Overlap that crosses a chapter boundary (purple: a different fact from overlap inside one)."""
LOST = "#d62728"
"""Text in no chunk (red)."""
ONCE = "#c6dbef"
"""Text in exactly one chunk (pale blue: the normal case, quiet)."""
NO_TEXT = "#ffffff"
"""A cell with no text (blank page, whitespace only)."""
CUT = "#d62728"
"""The ⟦ ⟧ marks at a chunk's edges in its text."""
CONTEXT = "#888888"
"""Text just outside a chunk, shown around it."""
PART_FILLS = ("#8c8c8c", "#a6a6a6")
"""Alternating fills of the parts row (darker than chapters: parts sit above them)."""
CHAPTER_FILLS = ("#bdbdbd", "#d9d9d9")
"""Alternating fills of the chapters row."""
BAND_FILL = "#f0f0f0"
"""Shading of every other chapter (or part) behind the chunk lanes."""
OCR_PAGES = "#e45756"
"""Pages whose text was read by OCR (the boundary map's OCR row)."""
SELECTED_OUTLINE = "#000000"
"""Outline of the selected chunk (on its own trace, never in the legend)."""

END_REASON_COLOURS = {
    "token_limit": "#4c78a8",
    "page_limit": "#17becf",
    "target_pages": "#54a24b",
    "fence": "#b279a2",
    "book_end": "#9d755d",
    "sentence": "#72b7b2",
    "paragraph": "#eeca3b",
}
"""One colour per ``END_REASONS`` value, shared by every figure and the legend; none is orange
(``OVERLAP``) or red (``LOST``), which mean other things."""
UNKNOWN = "#7f7f7f"
"""Fallback for a value without a colour of its own."""

STRATEGY_COLOURS = {
    "chapter-window": ("#4c78a8", "#9ecae9"),
    "fixed-window": ("#b279a2", "#e2b8d6"),
    "section": ("#54a24b", "#9fd98f"),
}
"""A strategy's default policy: (colour, light variant for alternate chunks). No orange: that is
overlap."""
VARIANT_COLOURS = (
    ("#1b6a7a", "#7fc4d1"),
    ("#8c564b", "#c49c94"),
    ("#bcbd22", "#dbdb8d"),
    ("#393b79", "#9c9ede"),
    ("#e377c2", "#f7b6d2"),
    ("#637939", "#b5cf6b"),
)
"""Any other policy (changed fields): one of these, picked by a stable hash of its name."""

_DISPLAY_PREFIX = re.compile(r"^P\d+:\s*")
"""A page's numbering in front of a policy name (``P2: fixed-window``), ignored for its colour."""


def policy_colours(name: str) -> tuple[str, str]:
    """The (colour, light variant) of the policy called ``name`` (``policy_label`` text).

    A strategy's default policy (its name is just the strategy) wears ``STRATEGY_COLOURS``; any
    other name one of ``VARIANT_COLOURS`` chosen by a hash of the name, the same in every process
    (Python's ``hash`` is salted per process, sha1 is not). A ``"P1: "`` prefix is ignored.
    """
    bare = _DISPLAY_PREFIX.sub("", name).strip()
    if bare in STRATEGY_COLOURS:
        return STRATEGY_COLOURS[bare]
    digest = int(hashlib.sha1(bare.encode()).hexdigest(), 16)
    return VARIANT_COLOURS[digest % len(VARIANT_COLOURS)]


def policy_colour(name: str) -> str:
    """The main colour of the policy called ``name`` (see ``policy_colours``)."""
    return policy_colours(name)[0]


def rgb01(colour: str) -> tuple[float, float, float]:
    """``"#ff8000"`` → ``(1.0, 0.50…, 0.0)``: the form PyMuPDF's drawing calls take."""
    value = colour.lstrip("#")
    return tuple(int(value[k : k + 2], 16) / 255 for k in (0, 2, 4))  # type: ignore[return-value]


def css_rgba(colour: str, alpha: float) -> str:
    """``"#ff8000"``, 0.4 → ``"rgba(255, 128, 0, 0.4)"`` for CSS and plotly."""
    r, g, b = (round(v * 255) for v in rgb01(colour))
    return f"rgba({r}, {g}, {b}, {alpha:g})"


def on_paper(colour: str, alpha: float = HIGHLIGHT_OPACITY) -> str:
    """The opaque ``#rrggbb`` that ``colour`` at ``alpha`` makes over white paper (a highlight's
    look on a page image, as a solid colour for legends and CSS)."""
    mixed = (round(255 * (1 - alpha) + v * 255 * alpha) for v in rgb01(colour))
    return "#" + "".join(f"{v:02x}" for v in mixed)
