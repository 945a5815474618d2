"""App stage (figures): which labels fit where, from an estimate of their width on screen.

A figure is drawn by the browser, but its labels are chosen here, before it is sent: a label is
shown only when its estimated width (``text_width_px``) fits the space its unit has on screen
(``fit_label``), and otherwise shortened or left out (every unit keeps its full title in hover).
The estimate errs wide (``CHAR_EM``), so a label judged to fit does fit in plotly's default font;
the browser test checks the estimate against the widths chromium measures.
"""

from __future__ import annotations

from collections.abc import Sequence

LABEL_FONT_PX = 11
"""Font size of band and margin labels (plotly's default font, "Open Sans", in px)."""
CHAR_EM = {"narrow": 0.34, "space": 0.30, "digit": 0.62, "upper": 0.76, "other": 0.62, "wide": 1.0}
"""Estimated advance of a character as a fraction of the font size, by class; at or above Open
Sans's widest glyph in each class (``m``/``w`` are "upper", CJK and emoji "wide")."""
NARROW = frozenset("iljtfr.,:;'!|()[] ")
"""Characters of the "narrow" class (``i``, ``l``, punctuation)."""
INSIDE_PAD_PX = 8
"""Room a label inside a bar needs beyond its text (plotly pads inside text 3 px each side)."""
ELLIPSIS = "…"
MIN_SHORTENED = 4
"""Fewest characters a shortened title keeps before its ellipsis (shorter says nothing)."""
DEFAULT_PLOT_PX = 900
"""Width of a figure's plot area (px) when the page does not know better: the main column of a
wide Streamlit page at a 1500 px window, minus the figure's margins, rounded down (a label that
fits here fits on any wider screen; narrower ones hide labels in the browser too)."""


def char_em(char: str) -> float:
    """Estimated advance of ``char`` as a fraction of the font size (``CHAR_EM``)."""
    if char == " ":
        return CHAR_EM["space"]
    if char in NARROW:
        return CHAR_EM["narrow"]
    if char.isdigit():
        return CHAR_EM["digit"]
    if ord(char) > 0x2E80:
        return CHAR_EM["wide"]
    if char.isupper() or char in "mwMW@%&":
        return CHAR_EM["upper"]
    return CHAR_EM["other"]


def text_width_px(text: str, font_px: float = LABEL_FONT_PX) -> float:
    """Estimated width of ``text`` in px at ``font_px`` (sum of ``char_em``; errs wide)."""
    return font_px * sum(char_em(c) for c in text)


def shorten(text: str, width_px: float, font_px: float = LABEL_FONT_PX) -> str:
    """``text`` cut to fit ``width_px`` with an ellipsis; ``""`` when fewer than ``MIN_SHORTENED``
    characters would remain."""
    if text_width_px(text, font_px) <= width_px:
        return text
    room = width_px - text_width_px(ELLIPSIS, font_px)
    used, keep = 0.0, 0
    for char in text:
        used += font_px * char_em(char)
        if used > room:
            break
        keep += 1
    cut = text[:keep].rstrip()
    return cut + ELLIPSIS if len(cut) >= MIN_SHORTENED else ""


def fit_label(variants: Sequence[str], width_px: float, font_px: float = LABEL_FONT_PX) -> str:
    """The first of ``variants`` (longest first: ``"12 Title"``, then ``"12"``) that fits in a bar
    ``width_px`` wide, else ``""``. The first is shortened with an ellipsis instead when that keeps
    at least ``MIN_SHORTENED`` characters more than the next variant (so "Part I:…" never
    replaces "Part I")."""
    room = width_px - INSIDE_PAD_PX
    for k, text in enumerate(variants):
        if not text:
            continue
        if text_width_px(text, font_px) <= room:
            return text
        if k == 0:
            short = shorten(text, room, font_px)
            nxt = next((v for v in variants[1:] if v), "")
            if short and len(short) - 1 >= len(nxt) + MIN_SHORTENED:
                return short
    return ""


def overlapping(extents: Sequence[tuple[float, float]]) -> list[tuple[int, int]]:
    """Pairs of intervals (by index, in order of their start) that overlap: the figures' tests and
    the browser test use it on the label extents a figure declares or chromium measures."""
    order = sorted(range(len(extents)), key=lambda k: extents[k][0])
    pairs, reach = [], -1
    for a, b in zip(order, order[1:]):
        if reach < 0 or extents[a][1] > extents[reach][1]:
            reach = a
        if extents[b][0] < extents[reach][1]:
            pairs.append((reach, b))
    return pairs
