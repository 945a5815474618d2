"""The fonts and sizes of a page's text runs, from MuPDF's own HTML writer (issue 25).

MuPDF's structured text gives each glyph its font and size, but reading them glyph by glyph
from Python costs about as much as the whole page's text (a quarter more on every page). Its
HTML writer walks the same structured text in C and opens a ``<span>`` wherever the font or
the size changes, one ``<p>`` per text line: written and scanned, it tells for a tenth of a
page read which fonts the page's text is set in (``Styles.fonts``, what
``pdftypewriter`` asks of a page first) and on which lines the size changes between two
letters or digits (``Styles.size_changes``, where a script may stand apart from its word:
``pdfspaces.script_apart``), so only those lines have their glyphs read.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pymupdf

from .pdftypewriter import MONOSPACED_NAME

_SPAN = re.compile(r'<span style="font-family:([^;"]*);font-size:([0-9.]+)pt[^"]*">([^<]*)</span>')
"""A run of the HTML writer: its font family (the font's name cut at ``-``, then a generic
family), its size (points, one decimal) and its text (escaped)."""

_JOIN = re.compile(r'</span>(?:</?(?:b|i|tt|sup)>)*<span style="[^"]*">(?=[^\W_]|&#x)')
"""Two runs that meet before a letter or digit (or a character the writer escapes, ``&#x30b3;``),
the writer's tags for bold, italic, monospaced and raised text between them
(``</span></tt><span``); ``_joined`` asks for a letter or digit before it too (or an escape's
end): where a change of face may fall inside what MuPDF reads as one word (``Styles.faces``,
whose ``face_changes`` asks for letters or digits on both sides).
NOTE: the pattern opens with a literal, which the scan finds fast; a look-behind first makes it
scan every character, forty times slower."""


_FACE_TOKEN = re.compile(r'<(/?)i>|<span style="font-family:([^;"]*);[^"]*">([^<]*)</span>')
"""The HTML writer's italic tags and runs (font family, text), in order (``_face_runs``)."""

_SIZE = re.compile(r"font-size:([0-9.]+)pt")
_FAMILY = re.compile(r'font-family:([^;"]*)')


@dataclass
class Styles:
    """A page's text runs as MuPDF's HTML writer gives them: per text line (in the order of its
    text writer's lines), the runs as (size, text), none on a line set at one size; and every
    font family the runs are set in, as the writer names it: the font's name cut at ``-``, a
    comma, MuPDF's generic family (``Courier,monospace``, ``CMR10,serif``)."""

    lines: list[list[tuple[float, str]]]
    fonts: set[str]
    faces: list[list[tuple[tuple[bool, bool], str]]] = field(default_factory=list)
    """Per text line, the runs as (face, text), the face whether the run is monospaced
    (``MONOSPACED_NAME``) and whether italic, only on a line where runs of two faces meet
    between two letters or digits; none elsewhere."""

    def face_changes(self, written: str) -> dict[int, list[int]]:
        """Per line of ``written`` (as ``size_changes``), the indices of the characters after
        which the face changes (monospaced or not, italic or upright) and both that character
        and the next are letters or digits (``str.isalnum``): where a typewriter word (a
        command's name) may touch the prose word after it, or an operator's upright name its
        italic variable (``sin x``), a gap over ``pdfspaces.TIGHT_DIST`` there being a word
        space (``pdfspaces.with_gap_spaces``). Only a line whose runs spell it exactly is
        looked at."""
        return _per_line(written, self.faces, _changes)

    def size_changes(self, written: str) -> dict[int, list[int]]:
        """Per line of ``written`` (the page's text writer's output, lines split at newlines;
        0-based), the indices of the characters after which the size changes and both that
        character and the next are letters or digits (``str.isalnum``). Only a line whose runs
        spell it exactly is looked at, and only one with a run of two characters or more
        (between spaces and changes of size): glyphs set one by one, as a formula's
        pieces often are (``d`` and its exponent alone on a line), are spaced by their own
        gaps, which a script's gap does not stand out from. None when the lines do not pair up
        one for one."""
        return _per_line(written, self.lines, _size_spots)


def _size_spots(runs: list[tuple[float, str]]) -> list[int]:
    """``Styles.size_changes`` of one line's ``runs``."""
    if len({size for size, _ in runs}) < 2:
        return []
    if all(len(piece) < 2 for text in _size_runs(runs) for piece in text.split()):
        return []  # NOTE: glyphs set one by one (``d`` and its exponent alone on a line)
    return _changes(runs)


def _per_line(
    written: str, lines_runs: list[list[Any]], spots: Callable[[list[Any]], list[int]]
) -> dict[int, list[int]]:
    """Per line of ``written`` (lines split at newlines, 0-based) that its ``lines_runs`` (one
    per non-empty line) spell exactly in two runs or more, its ``spots``; none when the lines
    do not pair up one for one."""
    lines = written.split("\n")
    numbered = [i for i, line in enumerate(lines) if line]
    if len(numbered) != len(lines_runs):
        return {}
    found: dict[int, list[int]] = {}
    for i, runs in zip(numbered, lines_runs):
        if len(runs) < 2 or "".join(text for _, text in runs) != lines[i]:
            continue
        at = spots(runs)
        if at:
            found[i] = at
    return found


def _changes(runs: list[tuple[Any, str]]) -> list[int]:
    """The indices, in the line ``runs`` spell, of the characters after which a run's key (its
    size, or whether its face is monospaced) changes, both that character and the next letters
    or digits."""
    k, spots = 0, []
    for (key, text), (next_key, after) in zip(runs, runs[1:]):
        k += len(text)
        if key != next_key and text[-1:].isalnum() and after[:1].isalnum():
            spots.append(k - 1)
    return spots


def _joined(paragraph: str) -> bool:
    """Whether two runs of ``paragraph`` (a line of the HTML writer's) meet between two letters
    or digits (``_JOIN``), escaped ones read back (``&#x30b3;``)."""
    for m in _JOIN.finditer(paragraph):
        k, end = m.start(), m.end()
        before, after = paragraph[k - 1], paragraph[end]
        if before == ";":
            amp = paragraph.rfind("&#x", max(0, k - 12), k)
            before = _escaped(paragraph[amp + 3 : k - 1]) if amp >= 0 else ""
        if after == "&":
            after = _escaped(paragraph[end + 3 : paragraph.find(";", end, end + 12)])
        if before.isalnum() and after.isalnum():
            return True
    return False


def _escaped(digits: str) -> str:
    """The character of the HTML writer's escape ``&#x<digits>;``; empty when it is none."""
    try:
        return chr(int(digits, 16))
    except ValueError:
        return ""


def _monospaced(family: str) -> bool:
    """Whether a font family the HTML writer names (``PLTypewriter10,serif``) is a monospaced
    face, by its name (``MONOSPACED_NAME``) or MuPDF's generic family."""
    return family.endswith(",monospace") or bool(MONOSPACED_NAME.search(family))


def _size_runs(runs: list[tuple[float, str]]) -> list[str]:
    """The texts of ``runs`` with neighbours of one size joined (a change of font alone, ``2``
    upright and ``σ`` italic, parts no word)."""
    joined: list[str] = []
    last = None
    for size, text in runs:
        if size == last:
            joined[-1] += text
        else:
            joined.append(text)
        last = size
    return joined


def page_styles(stext: Any) -> Styles | None:
    """The text runs of ``stext`` (see ``Styles``), from MuPDF's HTML writer; None when its
    output is no UTF-8."""
    buffer = pymupdf.mupdf.FzBuffer(4096)
    out = pymupdf.mupdf.FzOutput(buffer)
    pymupdf.mupdf.fz_print_stext_page_as_html(out, stext, 0)
    out.fz_close_output()
    try:
        written = pymupdf.mupdf.fz_buffer_extract(buffer).decode("utf-8")
    except UnicodeDecodeError:
        return None
    fonts = set(_FAMILY.findall(written))
    paragraphs = written.split("<p ")[1:]
    faces = _face_runs(written, paragraphs, fonts)
    if len(set(_SIZE.findall(written))) < 2:  # NOTE: a page set at one size has no size change
        return Styles([[] for _ in paragraphs], fonts, faces)
    lines: list[list[tuple[float, str]]] = []
    for paragraph in paragraphs:
        # NOTE: only a line of two runs or more is parsed (a regular expression per run costs
        # more than the page's HTML did to write)
        if paragraph.count("font-size:") < 2 or len(set(_SIZE.findall(paragraph))) < 2:
            lines.append([])
            continue
        lines.append(
            [
                (float(size), html.unescape(text) if "&" in text else text)
                for _, size, text in _SPAN.findall(paragraph)
            ]
        )
    return Styles(lines, fonts, faces)


def _face_runs(
    written: str, paragraphs: list[str], fonts: set[str]
) -> list[list[tuple[tuple[bool, bool], str]]]:
    """Per paragraph (a text line) of the HTML writer's page, its runs as (face, text), the face
    whether the run is monospaced and whether italic (the writer's ``<i>``), where two runs of
    different faces meet between two letters or digits (``Styles.faces``); none on a page set
    in one face."""
    mono = sum(_monospaced(font) for font in fonts)
    if not (0 < mono < len(fonts) or "<i>" in written) or not _joined(written):
        return [[] for _ in paragraphs]
    faces: list[list[tuple[tuple[bool, bool], str]]] = []
    for paragraph in paragraphs:
        # NOTE: only a line with two runs meeting between two letters or digits (``_joined``)
        # is parsed: a change of face mostly meets a space
        if not _joined(paragraph):
            faces.append([])
            continue
        italic, runs = False, []
        for m in _FACE_TOKEN.finditer(paragraph):
            if m.group(2) is None:
                italic = not m.group(1)
                continue
            text = m.group(3)
            runs.append(((_monospaced(m.group(2)), italic), html.unescape(text) if "&" in text else text))
        faces.append(runs if len({face for face, _ in runs}) > 1 else [])
    return faces
