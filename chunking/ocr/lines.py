"""The lines of an OCR'd page with their type size, from Tesseract's word boxes.

Why: the structure engine tells a heading by its size relative to the book's body text
(``chunking.structure.typography``). A text layer states each span's font size; a scanned page
has none, so without this an OCR'd page is typographically blind and a scanned book loses every
chapter that only its size reveals. Tesseract's TSV already gives every word's box in pixels at
a known dpi, which is enough to recover the size the line was set in.

**Line size, one definition for every page**: the font size (the em) in points of the type a
line is set in. A text layer states it (``LayoutLine.size``: the largest span's size). For an
OCR'd line it is measured: a word's box spans from the top of its tallest glyph to the bottom of
its deepest one, and which glyphs those are follows from its letters. Capitals, digits and
ascenders (``b d f h k l``) rise to about ``TALL`` of the em, other lower-case letters to the
x-height ``X_HEIGHT``; descenders (``g j p q y``) fall ``DESCENDER`` below the baseline, a comma
``COMMA``. So a word's em is its box height over the sum of the two; e.g. ``library`` at 12 pt
and 300 dpi is 45 px tall, 0.91 em, 50 px = 12 pt. The ratios are those of common book faces
(Times, Computer Modern, Palatino within a few per cent); the structure engine compares sizes
within one book, where a face's own offset cancels out.

* Words whose extent the rules cannot tell (``t`` as the only letter above the x-height: it
  stands between the two; letters with accents; other scripts; symbols) are not measured; a
  line none of whose words is measured takes the median word height over ``MIXED_EXTENT``.
* A line's size is the **lower quartile** of its measured words, not their largest (as a text
  layer's is): specks of noise that Tesseract merges into a word's box only ever make it
  taller (on a speckled scan most boxes of a line are), and a body line must not become a
  heading by them. Words Tesseract is unsure of (below ``MIN_CONFIDENCE``) are not measured:
  their letters, and so their extent, may be wrong.
* A scanned page is often turned a degree or two on the scanner's glass, and an upright box
  around a turned word is taller by its width times the sine of the angle (1.5 degrees adds
  8 % to a body word). The page's skew is measured from the words' bottoms along each line
  (only words without descenders sit on the baseline) and taken out of every box.
* OCR measures one type size a little differently line by line, and the structure engine
  compares sizes in half-point steps (the same style must land in one step on every page that
  opens a chapter). ``snap_sizes`` makes one size of the sizes a book's OCR'd lines measure
  within ``SAME_SIZE_SHARE`` of each other, most common first.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass, replace

TALL = 0.70
"""Top of capitals, digits and ascenders, in ems above the baseline."""

X_HEIGHT = 0.47
"""Top of lower-case letters without ascenders, in ems above the baseline."""

DESCENDER = 0.21
"""Bottom of ``g j p q y`` (and brackets), in ems below the baseline."""

COMMA = 0.14
"""Bottom of a comma or semicolon, in ems below the baseline."""

MIXED_EXTENT = 0.80
"""Ems a word of unknown glyphs spans (between a word of x-height letters and one with both an
ascender and a descender): the fallback for a line without a measurable word."""

MIN_CONFIDENCE = 60.0
"""Words read with less confidence (0-100) are not measured: their letters may be wrong."""

MIN_SHARE_OF_MEDIAN = 0.5
"""A word measured under this share of its line's median em is misread (a box around one mark
of a word, a letter read for a dash) and left out."""

MIN_SKEW_WORDS = 3
"""Words on the baseline a line needs to measure the page's skew from."""

SKEW_SHARE = 0.5
"""Share of a turned word's width times the sine of the angle that its box gains in height:
measured on generated pages turned 1-2 degrees, a body word's box gains about 0.4 of it (its
ink rarely reaches two opposite corners); the whole of it would shrink turned pages' sizes."""

MAX_SKEW = 0.1
"""Largest skew (slope) believed, about 6 degrees: beyond it Tesseract does not read the page
as lines anyway, and a slope that steep from the fit is a misread line."""

SAME_SIZE_SHARE = 0.08
"""Sizes measured within this share of a book's size are that size: OCR measures one type size
within a few per cent line by line (more on a turned, speckled page), and a heading is at least
15 % larger than the body (``chunking.structure.typography.HEADING_RATIO``)."""

INK_THRESHOLD = 128
"""Grey levels below this are ink."""

INK_SIGMAS = 4.0
"""A row holds ink when its dark pixels exceed the page's speckle by this many standard
deviations (Poisson): a row of speckle alone passes about once in 30,000."""

INK_MIN_PIXELS = 2
"""...and at least this many (a clean page has no speckle: one stray pixel is no glyph)."""

_DARK = bytes(1 if value < INK_THRESHOLD else 0 for value in range(256))

_TALL_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789bdfhkl!?&%$#@/\\|()[]{}'\"ij")
_SHORT_CHARS = frozenset("acemnorsuvwxzgpqy.,;:-–—*+=<>")
_DEEP_CHARS = frozenset("gjpqy()[]{}|Q")
_COMMA_CHARS = frozenset(",;")


@dataclass(frozen=True)
class OcrWord:
    """One word of Tesseract's TSV: its text, box in pixels (origin top left) and confidence."""

    text: str
    left: int
    top: int
    width: int
    height: int
    confidence: float = 100.0


@dataclass(frozen=True)
class OcrLine:
    """One text line of an OCR'd page, in points from the page's top left.

    Attributes:
        text (str): its words joined by spaces (a line of the page's OCR text).
        size (float): its type size in points (see the module docstring).
        x0 (float): left edge.
        y0 (float): top.
        y1 (float): bottom.
        words (tuple[tuple[float, float, float], ...]): each word's left and right ink edge
            and its bottom on the upright page (the page's skew taken out: ``upright``), in the
            order of ``text.split(" ")``; empty when not measured. What tells a monospaced
            printout on a page without fonts (``chunking.ocr.printout``).
    """

    text: str
    size: float
    x0: float
    y0: float
    y1: float
    words: tuple[tuple[float, float, float], ...] = ()


class Ink:
    """The dark pixels of a grey page image (binary PNM ``P5``, 8 bits), one byte per pixel
    (1 dark, 0 light), to measure words' boxes by their ink rather than by Tesseract's boxes.

    Why: Tesseract's box around a word takes in the specks of noise it merged with the word's
    glyphs; on a speckled scan a heading's box comes out half again as tall, a different size
    on every page. A row of the box belongs to the word when it holds more dark pixels than
    the page's speckle explains (``INK_SIGMAS``), so the measured height is that of the glyphs.
    """

    def __init__(self, image: bytes) -> None:
        magic, width, height, depth, pixels = image.split(maxsplit=4)
        if magic != b"P5" or depth != b"255" or len(pixels) < int(width) * int(height):
            raise ValueError("not an 8-bit grey PNM")
        self.width, self.height = int(width), int(height)
        self.dark = pixels[: self.width * self.height].translate(_DARK)

    def trimmed(self, words: list[OcrWord]) -> list[OcrWord]:
        """``words`` with each box's top and bottom moved in to its first and last row of ink."""
        counts = [self._rows(w) for w in words]
        inside = sum(sum(c) for c in counts)
        area = sum(w.width * len(c) for w, c in zip(words, counts))
        spare = self.width * self.height - area
        speckle = max(0.0, (self.dark.count(1) - inside) / spare) if spare > 0 else 0.0
        out = []
        for word, rows in zip(words, counts):
            expected = speckle * word.width
            threshold = max(INK_MIN_PIXELS, expected + INK_SIGMAS * math.sqrt(expected))
            inked = [i for i, n in enumerate(rows) if n >= threshold]
            if len(inked) < 2:
                out.append(word)
                continue
            top = word.top + inked[0]
            out.append(
                OcrWord(word.text, word.left, top, word.width, inked[-1] - inked[0] + 1, word.confidence)
            )
        return out

    def _rows(self, word: OcrWord) -> list[int]:
        left, right = max(0, word.left), min(self.width, word.left + word.width)
        top, bottom = max(0, word.top), min(self.height, word.top + word.height)
        if right <= left:
            return []
        return [self.dark.count(1, y * self.width + left, y * self.width + right) for y in range(top, bottom)]


def word_extent(text: str) -> float | None:
    """Ems the box of ``text`` spans from its tallest glyph's top to its deepest glyph's bottom,
    or None when its glyphs do not say (see the module docstring)."""
    chars = set(text)
    if not any(c.isalnum() for c in chars) or not chars <= _TALL_CHARS | _SHORT_CHARS | {"t"}:
        return None
    if chars & _TALL_CHARS:
        top = TALL
    elif "t" in chars:
        return None  # NOTE: ``t`` rises between the x-height and an ascender, by face
    else:
        top = X_HEIGHT
    bottom = DESCENDER if chars & _DEEP_CHARS else COMMA if chars & _COMMA_CHARS else 0.0
    return top + bottom


def page_skew(lines: list[list[OcrWord]]) -> float:
    """The page's skew as a slope (pixels down per pixel right): the median, over lines with at
    least ``MIN_SKEW_WORDS`` words standing on the baseline, of the least-squares slope of those
    words' bottoms; 0 when no line has enough."""
    slopes = []
    for words in lines:
        on_baseline = [w for w in words if not set(w.text) & (_DEEP_CHARS | _COMMA_CHARS)]
        if len(on_baseline) < MIN_SKEW_WORDS:
            continue
        xs = [w.left + w.width / 2 for w in on_baseline]
        ys = [float(w.top + w.height) for w in on_baseline]
        mx, my = statistics.fmean(xs), statistics.fmean(ys)
        spread = sum((x - mx) ** 2 for x in xs)
        if spread:
            slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / spread
            if abs(slope) <= MAX_SKEW:
                slopes.append(slope)
    return statistics.median(slopes) if slopes else 0.0


def upright_height(word: OcrWord, skew: float) -> float:
    """The height of ``word``'s box before the page was turned by ``skew``: an upright box
    around a turned rectangle of width w and height h is w·sin(a) + h·cos(a) tall, but a word's
    ink fills the rectangle's corners only where its tallest and deepest glyphs stand at its two
    ends, so only ``SKEW_SHARE`` of the width's rise is taken out."""
    angle = math.atan(abs(skew))
    return max(1.0, (word.height - SKEW_SHARE * word.width * math.sin(angle)) / math.cos(angle))


def line_size(words: list[OcrWord], skew: float, dpi: int) -> float:
    """A line's type size in points (see the module docstring), from its words' boxes: the
    lower quartile of its measured words' ems (noise only ever makes a box taller), leaving out
    an em under ``MIN_SHARE_OF_MEDIAN`` of the median (a misread word's letters say the wrong
    extent)."""
    ems = []
    for word in words:
        extent = word_extent(word.text) if word.confidence >= MIN_CONFIDENCE else None
        if extent is not None:
            ems.append(upright_height(word, skew) / extent)
    if ems:
        middle = statistics.median(ems)
        ems = sorted(e for e in ems if e >= middle * MIN_SHARE_OF_MEDIAN)
        em = ems[(len(ems) - 1) // 4]
    else:
        em = statistics.median(upright_height(w, skew) for w in words) / MIXED_EXTENT
    return round(em * 72 / dpi, 2)


def upright(x: float, y: float, skew: float) -> tuple[float, float]:
    """The point (x, y) of a page turned by ``skew`` (a small slope) where it stood on the
    upright page: turned back about the image's top left corner."""
    return x + skew * y, y - skew * x


def line_baseline(line: OcrLine) -> float | None:
    """The baseline of ``line`` on the upright page (points), from its words' bottoms
    (``OcrLine.words``): the median of those of two letters or digits or more that stand on it
    (no descender, no comma), else of its words of two letters or digits or more, else of all,
    each raised by its deepest glyph's depth (``DESCENDER``, ``COMMA``); None when its words
    were not measured. Marks say little: a table's bar reaches below the line, and a bullet
    read as a letter (``e``) floats above it."""
    texts = line.text.split(" ")
    if not line.words or len(texts) != len(line.words):
        return None
    words = list(zip(texts, line.words))
    spelled = [(t, w) for t, w in words if sum(c.isalnum() for c in t) >= 2]
    standing = [(t, w) for t, w in spelled if not set(t) & (_DEEP_CHARS | _COMMA_CHARS)]

    def depth(text: str) -> float:
        chars = set(text)
        return line.size * (DESCENDER if chars & _DEEP_CHARS else COMMA if chars & _COMMA_CHARS else 0.0)

    return statistics.median(bottom - depth(t) for t, (_, _, bottom) in standing or spelled or words)


def build_lines(lines: list[list[OcrWord]], dpi: int, image: bytes | None = None) -> list[OcrLine]:
    """The page's lines (words in Tesseract's reading order) with their sizes and boxes in
    points; with the page ``image`` Tesseract read (grey PNM), boxes trimmed to their ink."""
    if image is not None:
        try:
            ink = Ink(image)
        except ValueError:
            pass  # NOTE: not the image this module reads: Tesseract's boxes as they are
        else:
            flat = ink.trimmed([w for words in lines for w in words])
            it = iter(flat)
            lines = [[next(it) for _ in words] for words in lines]
    skew = page_skew(lines)
    scale = 72 / dpi
    out = []
    for words in lines:
        if not words:
            continue
        out.append(
            OcrLine(
                text=" ".join(w.text for w in words),
                size=line_size(words, skew, dpi),
                x0=round(min(w.left for w in words) * scale, 2),
                y0=round(min(w.top for w in words) * scale, 2),
                y1=round(max(w.top + w.height for w in words) * scale, 2),
                words=tuple(
                    (
                        round(upright(w.left, w.top + w.height / 2, skew)[0] * scale, 2),
                        round(upright(w.left + w.width, w.top + w.height / 2, skew)[0] * scale, 2),
                        round(upright(w.left + w.width / 2, w.top + w.height, skew)[1] * scale, 2),
                    )
                    for w in words
                ),
            )
        )
    return out


def _weighted_median(values: list[float], weights: list[int]) -> float:
    """The value at half the total weight of ``values`` (sorted ascending)."""
    half, total = sum(weights) / 2, 0
    for value, weight in zip(values, weights):
        total += weight
        if total >= half:
            return value
    return values[-1]


def snap_sizes(pages: list[list[OcrLine]]) -> list[list[OcrLine]]:
    """The same lines with the sizes OCR measured within ``SAME_SIZE_SHARE`` of each other made
    one size: the most common measured size (by characters, in tenths of a point) is taken with
    every size within the share of it, and they all become their median; then the most common of
    what is left, and so on."""
    weights: Counter = Counter()
    for lines in pages:
        for line in lines:
            weights[round(line.size, 1)] += len(line.text)
    snapped: dict[float, float] = {}
    left = dict(weights)
    while left:
        mode = max(left, key=lambda s: (left[s], -s))
        members = sorted(s for s in left if abs(s - mode) <= mode * SAME_SIZE_SHARE)
        centre = _weighted_median(members, [left[s] for s in members])
        for s in members:
            snapped[s] = centre
            del left[s]
    return [[replace(line, size=snapped[round(line.size, 1)]) for line in lines] for lines in pages]
