"""Word spaces MuPDF leaves out, and spaces it puts inside a word (issue 25).

MuPDF's structured text adds a space where a glyph starts a gap of more than 0.15 em after the
last one, but only when the last character is of the Latin, Greek, Cyrillic, Hebrew or Arabic
blocks, general punctuation or currency (its ``may_add_space``: below U+0700 or in
U+2000-U+20CF). After any other character the gap is dropped: ``⟨language⟩ is`` came out
``⟨language⟩is``, ``x ∈ A`` as ``x ∈A``, a CJK phrase glued to the number after it
(``中文约 500`` as ``中文约500``). pdftotext, and the page, have the space; between two CJK
characters a gap is justification and stays without one. This module finds those
gaps in the page's own glyph positions and puts the space back, by MuPDF's own measure, so a
gap after ``⟩`` counts as it would after ``)``.

More places where the page shows a word boundary and MuPDF reads none, found the same way:

* **tight lines**: a line whose interword glue TeX shrank under 0.15 em (ConTeXt sets 0.13 em
  on tight lines) comes out as glued words, ``whichcouldfollowcompletely``. A word gap is then
  still far wider than the gaps between a word's own letters (about 0, kerned by a few
  hundredths of an em). A run of ``TIGHT_RUN`` lowercase letters, of any script with case
  (``préféréeélectricité``), may be such words: the gaps inside it are read, and when one is over
  ``TIGHT_DIST`` em (pdftotext's own word break) and such gaps cut the run into pieces of
  ``TIGHT_PIECE`` letters or more on average (words, not the letters of a tracked word) the
  page sets tight lines, and every gap of every line over ``TIGHT_DIST`` em is a word space (a
  tight line's short words, ``sogood``, make no long run of their own).
* **footnote marks**: a script (a footnote mark, an index, an exponent) is set smaller and off
  the baseline; it belongs to what stands before it, so a glyph back at the full size after it
  starts a new word (``script_ends``). Where digits open a word before a capitalised word, a
  CJK character or a web address, or open a line before any word (``5This``, ``16assuming``:
  a footnote's mark and its first word, MuPDF reads one word), the two glyphs are read and a
  space goes between them when the digit is such a script; an index after its symbol (``e1``)
  stays one word, as pdftotext reads it, and so does a unit after its number (``12pt``).
* **a name and its version**: the LaTeX2e logo sets its ``2`` 0.15 em after the ``X``, no more
  than MuPDF's threshold, so ``LATEX2ε`` came out as one word, the name lost; where capitals
  touch a digit and a letter (``_DIGIT_SPOT``), a gap over ``TIGHT_DIST`` is a word space.
* **a number and its unit**: set a thin space apart (``1\\,em``, 0.12 em), under MuPDF's
  threshold: ``1em``; where a number opening a word, a decimal one too (``2.7\\,ex``), touches
  lowercase letters (``_UNIT_SPOT``), a gap over ``TIGHT_DIST`` is a word space (``12pt`` set
  solid stays one).
* **a change of face**: a command's name set in a monospaced face, then a prose word on a line
  TeX shrank: ``\\hspace sets`` 0.14 em apart, under MuPDF's threshold, came out
  ``\\hspacesets``; an operator's upright name and its italic variable a thin space apart,
  ``sin x`` (0.11 em), came out ``sinx``. Where the face changes (monospaced or not, italic or
  upright) between two letters or digits (``pdfstyles.Styles.face_changes``), a gap over
  ``TIGHT_DIST`` is a word space (a typewriter or italic word with a plural ``s`` in the text
  face touches it, 0 em).
* **a Latin word before CJK text**: Chinese and Japanese typesetting set the two scripts apart
  by a glue (``xkanjiskip``) that shrinks under MuPDF's threshold on a full line, ``layoutを``;
  where a Latin letter touches a Han or kana character (``_BEFORE_CJK``), a gap over
  ``TIGHT_DIST`` is a word space.
* **a change of direction**: right-to-left text sets each glyph left of the one before; where
  a line switches direction (a vowel mark, to which MuPDF gives none, after a word's last
  letter; a comma; a Latin word before an Arabic one) MuPDF ignores the jump and adds no space,
  and vowelled Arabic came out with every word glued. There the gap is measured between the
  run of glyphs since the last space and the next glyph, on whichever side it stands
  (``_DIRECTION_SPOT``, ``_run_gap``).

And two where MuPDF breaks a word the page shows whole: a letter-spaced (tracked) heading read
letter by letter (``with_tracking_joined``) and a mirrored glyph inside a word, the XeTeX logo's
``E`` (``with_mirrored_glyphs_joined``).

Only the lines that hold such a place are read glyph by glyph (reading a glyph costs about as
much as MuPDF's whole text of its line); on other pages the cost is a byte-table pass over the
page's text and the regular expressions it lets through.
"""

from __future__ import annotations

from statistics import median

import re
from bisect import bisect_right
from collections.abc import Callable
from typing import Any

SPACE_DIST = 0.15
"""MuPDF's threshold: a gap wider than this share of the font size is a word space."""

SPACE_MAX_DIST = 0.8
"""Beyond this share MuPDF starts a new line; such glyphs never share a line, so no gap is larger."""

TIGHT_DIST = 0.1
"""On a tight line (``_TIGHT``), a gap wider than this share of the font size is a word space:
pdftotext's word break (its ``minWordBreakSpace``); the letters of a word sit about 0 apart,
kerned by a few hundredths of an em at most."""

TIGHT_RUN = 16
"""A run of this many lowercase letters may be glued words (few words of prose are that long):
the gaps inside it are read, and one over ``TIGHT_DIST`` em marks the page as one of tight
lines, whose every gap is then read."""

SCRIPT_SIZE = 0.85
"""A script glyph is set at most this share of the full size (TeX: 7/10, 5/7, 8/10)"""

SCRIPT_SHIFT = 0.15
"""and its baseline is raised or lowered by at least this share of the full size."""

SCRIPT_KERN = -0.1
"""Glyphs whose gap is below this share of the full size are kerned into each other (the raised
small ``A`` of the LaTeX logo): one word, whatever their sizes."""

_AFTER_UNSPACED = re.compile(r"[^\s\x00-\u06ff\u2000-\u20cf](?=[^\W_]|\ufffd)")
"""A character after which MuPDF adds no space, followed by a letter or digit on the same line:
where a word space may be missing (before punctuation a missing space splits no word); or by
U+FFFD, a glyph the page's text read could not map (``pdfpages._content_text`` reads it again,
often as a letter)."""

TIGHT_PIECE = 2
"""A run's gaps over ``TIGHT_DIST`` mark tight lines only where they cut it into pieces this many
letters long on average: glued words (``putitinthetwoplaces``, 3.8 letters a piece), not a
tracked word's letters set apart one by one (a kerned pair here and there)."""

_TIGHT = re.compile(f"[^\\W\\d_]{{{TIGHT_RUN},}}")
"""A run of letters that may be glued words (``TIGHT_RUN``), taken where every letter is
lowercase and has a capital (``_lowercase_runs``: Latin, Greek, Cyrillic…; a caseless script,
CJK or Arabic, or a formula's mathematical italic makes no run); one after a backslash is a
TeX control word (``\\displaywidowpenalty``), no glued words, up to a change of face after
which the text's own words follow (``_places``, ``_after_control_word``). NOTE: no
look-behind in the pattern: a pattern that opens with a character class is scanned for in C,
fast."""

_DIGIT_SPOT = re.compile(
    r"\d(?:(?=[A-Z\u00c0-\u00de][a-z\u00df-\u00ff]|[\u3400-\u9fff]|https?:|www\.)"
    r"|(?<=[A-Z]{2}\d)(?=[^\W\d_]))"
)
"""A digit where a word may glue to another, two cases in one scan (``_places`` tells them
apart by the character before the digit):

* before a capitalised word, a CJK character or a web address: where a footnote's mark may touch
  the footnote's first word (``5This``, ``3https://…``); not a unit after a number (``12pt``),
  which is no script (and too common to read the glyphs of every one);
* after two capitals and before a letter: where a name may touch its version set a thin space
  apart (``LATEX2ε``: the logo sets the ``2`` 0.15 em after the ``X``, no more than MuPDF's
  threshold, so no space); the gap there is read as on a tight line (``TIGHT_DIST``)."""

SCRIPT_DIGITS = 3
"""A footnote mark opens its word with at most this many digits (``_places``)."""

_UNIT_SPOT = re.compile(r"(?:\d*[.,])?\d+(?=[a-z])")
"""A number touching lowercase letters: where a number and its unit set a thin space apart
(``1\\,em``: 0.12 em, under MuPDF's threshold) came out as one word (``1em``); a decimal one
too, its point inside the number (``2.7\\,ex``, ``.4\\,ex``, ``0,5\\,cm``: ``2.7ex``);
``_places`` keeps only a number that opens its word (not ``x2y``, ``v1.2a``)."""

_LATIN = "A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff"
_HAN_KANA = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_BEFORE_CJK = re.compile(f"(?:[{_LATIN}]|(?<![{_HAN_KANA}0-9{_LATIN}])[0-9{_LATIN}]*\\d)(?=[{_HAN_KANA}])")
"""A Latin, Greek or Cyrillic letter touching a Han or kana character, or the digit ending a word
of such letters and digits (``vrt2``, ``42``) that does not open right after one: where Chinese
and Japanese typesetting set a Latin word apart from the CJK text after it by a glue (pTeX's and
LuaTeX-ja's ``xkanjiskip``, xeCJK's space: a quarter em, shrunk on a full line to about 0.12 em),
under MuPDF's threshold, so ``layout を`` came out ``layoutを``; a gap there over ``TIGHT_DIST``
(pdftotext's word break) is a word space (at the match's last character). A number inside a CJK
label, a chapter's ``第1章`` set with that glue on both sides, stays with its label as the other
side reads it (after a CJK character MuPDF adds no space, and ``_AFTER_UNSPACED`` asks for more
than ``SPACE_DIST``)."""

_LINE_MARK = re.compile(r"\n\d{1,3}(?=[^\W\d_]{3})")
"""Digits opening a line before a word of three letters or more: where a footnote's mark may
touch the footnote's first word whatever its case (``16assuming``, ``14CTAN``); the glyphs tell
a mark (``script_ends``) from a number set at the full size (``100pages``). NOTE: not before one
or two letters, a unit or a table's cell (``12pt``, ``97a``), which TeX manuals open lines with
by the hundred."""

_WIDE = re.compile("[\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]")
"""CJK characters, kana and their punctuation: a line of them has no word spaces, and a gap
between two of them is justification (letter spacing), no word boundary."""

_RTL_LETTERS = (
    "\u05d0-\u05ea\u05ef-\u05f2\u0620-\u064a\u066e\u066f\u0671-\u06d3\u06d5\u06ee\u06ef"
    "\u06fa-\u06fc\u06ff\u0750-\u077f\u08a0-\u08c9\ufb1d-\ufb4f\ufb50-\ufdfb\ufe70-\ufefc"
)
"""Letters of the right-to-left scripts MuPDF reads (Hebrew, Arabic, their presentation forms)."""

_RTL_MARKS = "\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u08d3-\u08ff"
"""Their vowel signs and other marks."""

_DIRECTION_SPOT = re.compile(
    f"[^\\s{_RTL_LETTERS}](?=[{_RTL_LETTERS}])|[{_RTL_LETTERS}{_RTL_MARKS}](?=[^\\s{_RTL_LETTERS}{_RTL_MARKS}])"
)
"""A right-to-left letter after a character that is none (a mark, a comma, a Latin word), or a
character that is none after a right-to-left letter or mark, with no space between: where
MuPDF may have glued two words (``with_gap_spaces``, ``_run_gap``)."""

_RTL_BYTES = bytes(
    ord("R")
    if 0xD6 <= b <= 0xDD
    else ord("E")
    if b in (0xE0, 0xEF)
    else ord("x")
    if 0xA2 <= b <= 0xBB
    else 32
    for b in range(256)
)
"""A byte table that reads a text's UTF-8 as the lead bytes of ``_RTL_LETTERS``'s blocks (``R``:
U+0580-U+077F; ``Ex``: U+08A0-U+08FF and U+FB00-U+FEFF, and some neighbours): a page whose
bytes hold neither has no ``_DIRECTION_SPOT`` (NOTE: found in C, ten times faster than a
regular expression over the bytes)."""

_UNSPACED, _TIGHT_GAP, _SCRIPT_GAP, _VERSION_GAP, _DIRECTION_GAP, _SIZE_GAP = 1, 2, 4, 8, 16, 32
"""What to look for after a character (bits): a gap over ``SPACE_DIST``, over ``TIGHT_DIST`` (on
a tight line, before a version number, between a number and its unit, where the face
changes, or between a Latin word and the Han or kana after it), a script's end, a
gap between the run of glyphs before and the next glyph wherever that one stands
(``_run_gap``), a script set apart from its word (``script_apart``)."""


def _paired(written: str, stext: Any) -> tuple[list[str], list[int], list[Any]] | None:
    """``written``'s lines, the indices of its non-empty ones and the structured text's lines
    they are, one for one; None when they do not pair up (the text is then left as it is)."""
    lines = written.split("\n")
    numbered = [i for i, line in enumerate(lines) if line]
    stext_lines = _text_lines(stext)
    return (lines, numbered, stext_lines) if len(numbered) == len(stext_lines) else None


def with_gap_spaces(
    written: str,
    stext: Any,
    size_changes: dict[int, list[int]] | None = None,
    face_changes: dict[int, list[int]] | None = None,
) -> str:
    """``written`` (MuPDF's text writer's output for ``stext``: each line ended by a newline,
    each block by another) with a space put into every gap MuPDF skipped (see the module).
    ``size_changes``: per line of ``written``, the characters after which the font size changes
    between two letters or digits (``pdfstyles.Styles.size_changes``), where a script may stand
    apart from its word (``script_apart``); ``face_changes``: those after which the face
    changes (``pdfstyles.Styles.face_changes``), where a gap over ``TIGHT_DIST`` is a word
    space.

    Cheap on most pages: regular expressions over the page's text find the places to look at;
    only the lines that hold one have their glyphs read. When the writer's lines do not pair up
    one for one with the structured text's, the text is left as it is."""
    wanted = _places(written, face_changes)
    for changes, bit in ((size_changes, _SIZE_GAP), (face_changes, _VERSION_GAP)):
        for i, spots in (changes or {}).items():
            line = wanted.setdefault(i, {})
            for k in spots:
                line[k] = line.get(k, 0) | bit
    if not wanted:
        return written
    paired = _paired(written, stext)
    if paired is None:
        return written
    lines, numbered, stext_lines = paired
    found: dict[int, list[tuple[int, bool]]] = {}
    for i, line in zip(numbered, stext_lines):
        if i in wanted:
            found[i] = _gaps(line, lines[i], wanted[i])
    if any(_glued(lines[i], [k for k, tight in gaps if tight]) for i, gaps in found.items()):
        # NOTE: the page sets tight lines: any gap of any line may be a word gap MuPDF missed
        for i, line in zip(numbered, stext_lines):
            found[i] = _gaps(line, lines[i], _every_gap(lines[i], wanted.get(i, {})))
    else:  # NOTE: a run's wide gaps that cut it into no words (a tracked word's letters) are none
        for i, line in zip(numbered, stext_lines):
            if any(tight for _, tight in found.get(i, ())):
                other = {k: look & ~_TIGHT_GAP for k, look in wanted[i].items() if look & ~_TIGHT_GAP}
                found[i] = _gaps(line, lines[i], other)
    changed = False
    for i, gaps in found.items():
        text = lines[i]
        for k, _ in reversed(gaps):
            text = text[: k + 1] + " " + text[k + 1 :]
            changed = True
        lines[i] = text
    return "\n".join(lines) if changed else written


def _glued(text: str, wide: list[int]) -> bool:
    """Whether the gaps over ``TIGHT_DIST`` after characters ``wide`` of the line ``text`` cut a
    run of letters into glued words: pieces of ``TIGHT_PIECE`` letters or more on average, not a
    tracked word's single letters."""
    for k in wide:
        start, end = k, k + 1
        while start > 0 and text[start - 1].isalpha():
            start -= 1
        while end < len(text) and text[end].isalpha():
            end += 1
        cuts = sum(1 for j in wide if start <= j < end - 1)
        if end - start >= TIGHT_PIECE * (cuts + 1):
            return True
    return False


def _text_lines(stext: Any) -> list[Any]:
    """Every text line of ``stext`` (MuPDF's ``fz_stext_line``), in order.

    NOTE: a block's first line through PyMuPDF's iterator, the rest by the lines' own ``next``
    links: a third cheaper than iterating every line."""
    found = []
    for block in stext:
        if block.m_internal.type != 0:
            continue
        for first in block:
            line = first.m_internal
            while line is not None:
                found.append(line)
                line = line.next
            break
    return found


_SHAPES = bytes(
    ord("a")
    if 97 <= b <= 122
    else ord("A")
    if 65 <= b <= 90
    else ord("0")
    if 48 <= b <= 57
    else ord("C")
    if 0xE3 <= b <= 0xE9
    else 32
    for b in range(256)
)
"""A byte table that reads a text's UTF-8 as the shapes of its ASCII characters: ``a`` a
lowercase letter, ``A`` a capital, ``0`` a digit, ``C`` the lead byte of a character in
U+3000-U+9FFF (CJK), a space anything else. NOTE: a page's text read
through it and searched for a few shapes tells in C, in a few microseconds, whether the regular
expressions of ``_places`` can match at all (they cost ten times as much on every page)."""

_TIGHT_SHAPE = b"a" * TIGHT_RUN
"""``_TIGHT``'s run, in ``_SHAPES``."""


def _places(written: str, face_changes: dict[int, list[int]] | None = None) -> dict[int, dict[int, int]]:
    """Per line of ``written`` (0-based, lines split at newlines), per index of a character in
    that line, what to look for in the gap after it (the ``_UNSPACED``/``_TIGHT_GAP``/
    ``_SCRIPT_GAP``/``_VERSION_GAP`` bits). ``face_changes`` (as in ``with_gap_spaces``) ends
    a TeX control word where the face changes: the letters after it are the text's
    (``_after_control_word``)."""
    found: list[tuple[int, int]] = []
    ascii_only = written.isascii()
    encoded = written.encode("utf-8", "surrogatepass")
    shapes = encoded.translate(_SHAPES)
    if not ascii_only:
        for m in _AFTER_UNSPACED.finditer(written):
            k = m.start()
            if not (_WIDE.match(written, k) and _WIDE.match(written, k + 1)):
                found.append((k, _UNSPACED))
    # NOTE: ``AA0`` and anything after it: the version may be a Greek letter (``LATEX2ε``), a
    # byte ``_SHAPES`` reads as a space
    digit_spots = b"0A" in shapes or b"AA0" in shapes or b"0C" in shapes
    if not digit_spots and ("http" in written or "www." in written):
        digit_spots = b"0a" in shapes
    for m in _DIGIT_SPOT.finditer(written) if digit_spots else ():
        k = start = m.start()
        if k >= 2 and "A" <= written[k - 1] <= "Z":  # a version after a name: the last capital
            found.append((k - 1, _VERSION_GAP))
            continue
        while start > 0 and k - start < SCRIPT_DIGITS - 1 and written[start - 1].isdigit():
            start -= 1
        if start == 0 or not (written[start - 1].isalnum() or written[start - 1] == "_"):
            found.append((k, _SCRIPT_GAP))  # digits that open a word: a footnote's mark
    for m in _UNIT_SPOT.finditer(written) if b"0a" in shapes else ():
        start = m.start()
        if start == 0 or not (written[start - 1].isalnum() or written[start - 1] in "_.,"):
            # NOTE: ``v1.2a``'s number follows a letter, ``1.2.3a``'s ``.3`` a digit: no unit
            found.append((m.end() - 1, _VERSION_GAP))  # a number and its unit, a thin space apart
    for m in _LINE_MARK.finditer("\n" + written) if b"0a" in shapes or b"0A" in shapes else ():
        found.append((m.end() - 2, _SCRIPT_GAP))  # NOTE: ``m`` counts the newline put first
    if b"C" in shapes:
        found.extend((m.end() - 1, _VERSION_GAP) for m in _BEFORE_CJK.finditer(written))
    rtl = encoded.translate(_RTL_BYTES) if not ascii_only else b""
    if b"R" in rtl or b"Ex" in rtl:
        found.extend((m.start(), _DIRECTION_GAP) for m in _DIRECTION_SPOT.finditer(written))
    for m in _TIGHT.finditer(written) if not ascii_only or _TIGHT_SHAPE in shapes else ():
        for start, end in _lowercase_runs(written, m.start(), m.end()):
            if start and written[start - 1] == "\\":  # a TeX control word, up to a change of face
                start = _after_control_word(written, start, end, face_changes)
            if end - start >= TIGHT_RUN:
                found.extend((k, _TIGHT_GAP) for k in range(start, end - 1))
    if not found:
        return {}
    starts = [0] + [m.end() for m in re.finditer("\n", written)]
    places: dict[int, dict[int, int]] = {}
    for pos, bit in found:
        i = bisect_right(starts, pos) - 1
        spots = places.setdefault(i, {})
        spots[pos - starts[i]] = spots.get(pos - starts[i], 0) | bit
    return places


def _after_control_word(written: str, start: int, end: int, face_changes: dict[int, list[int]] | None) -> int:
    """Where the letters of the run ``start``-``end`` of ``written`` after a backslash stop being
    a TeX control word: after the first change of face inside it (``face_changes``), the
    control word set in a monospaced face and glued words of the text after it
    (``\\scantokenscommandwasrather``, a tight line); ``end`` (none of it) without one."""
    line = written.count("\n", 0, start)
    first = written.rfind("\n", 0, start) + 1
    cuts = [first + k for k in (face_changes or {}).get(line, ()) if start <= first + k < end - 1]
    return min(cuts) + 1 if cuts else end


def _lowercase_runs(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The runs of ``TIGHT_RUN`` lowercase letters or more (``str.islower``, any script with
    case) in the letters ``text[start:end]``; a letter without a capital (a mathematical italic
    ``𝑎``, lowercase to ``str.islower`` but a formula's, whose italic corrections open gaps) is
    none."""
    runs: list[tuple[int, int]] = []
    if text[start:end] == text[start:end].upper():
        return runs  # NOTE: no lowercase letter (a run of CJK characters): a C-speed test first
    first = start
    for k in range(start, end + 1):
        if k == end or not text[k].islower() or text[k].upper() == text[k]:
            if k - first >= TIGHT_RUN:
                runs.append((first, k))
            first = k + 1
    return runs


def _every_gap(text: str, spots: dict[int, int]) -> dict[int, int]:
    """``spots`` of a line of a page of tight lines, with every gap between two characters of
    the line ``text`` looked at as a tight line's (``_TIGHT_GAP``)."""
    every = dict(spots)
    for k in range(len(text) - 1):
        if not text[k].isspace() and not text[k + 1].isspace():
            every[k] = every.get(k, 0) | _TIGHT_GAP
    return every


def _gaps(line: Any, text: str, spots: dict[int, int]) -> list[tuple[int, bool]]:
    """Which of ``spots`` (indices of characters in the line's ``text``, with what to look for)
    a word space follows, measured along a horizontal line from the end of the glyph's advance
    to the next glyph's origin; none on a vertical or turned line, or where the line's glyphs are
    not the text's characters one for one. Each with whether it is a tight line's gap (over
    ``TIGHT_DIST``, not over ``SPACE_DIST``)."""
    if not spots or line.wmode != 0 or abs(line.dir.y) > 1e-3 or line.dir.x <= 0:
        return []
    found = []
    last = max(spots)
    runs = any(look & _DIRECTION_GAP for look in spots.values())
    left = right = 0.0
    ch, k = line.first_char, 0
    while ch is not None and k <= last:
        nxt = ch.next
        look = spots.get(k)
        if runs:  # NOTE: the box of the run of glyphs since the last space (``_run_gap``)
            if ch.c == 32 or k == 0:
                left, right = (ch.quad.ll.x, ch.quad.lr.x) if ch.c != 32 else (float("inf"), float("-inf"))
            else:
                left, right = min(left, ch.quad.ll.x), max(right, ch.quad.lr.x)
        if look:
            if nxt is None or ch.c != ord(text[k]) or nxt.c != ord(text[k + 1]):
                return []
            space = _space_between(ch, nxt, look & ~_DIRECTION_GAP)
            if not space and look & _DIRECTION_GAP and _run_gap(left, right, nxt, ch.size):
                space = _DIRECTION_GAP
            if space:
                found.append((k, space == _TIGHT_GAP))
        ch, k = nxt, k + 1
    return found


def _run_gap(left: float, right: float, nxt: Any, size: float) -> bool:
    """Whether glyph ``nxt`` stands over ``SPACE_DIST`` of ``size`` apart from the run of glyphs
    before it on its line (``left``..``right``, since the last space), on either side.

    Why: MuPDF measures a gap from the pen's last position, forwards; right-to-left text sets
    each glyph left of the one before, and where a line switches direction (a vowel mark, which
    MuPDF gives no direction, after a word's last letter; a comma; a Latin word before an
    Arabic one) MuPDF "ignores the jump" and adds no space: vowelled Arabic set by ConTeXt came
    out as ``اَلْحَمْدُلِلّٰهِحَمْدَ``. The next word's glyph stands a word space left of the last
    word's leftmost glyph (right of its rightmost, in a left-to-right run); a glyph of the same
    word touches the run."""
    if size <= 0:
        return False
    near, far = nxt.quad.ll.x, nxt.quad.lr.x
    if far <= left:
        return (left - far) / size > SPACE_DIST
    if near >= right:
        return (near - right) / size > SPACE_DIST
    return False


def _space_between(ch: Any, nxt: Any, look: int) -> int:
    """Which rule (``look``'s bit: ``_UNSPACED``, ``_TIGHT_GAP``, ``_SCRIPT_GAP``) finds a word
    boundary between glyphs ``ch`` and ``nxt`` of one line; 0 when none does."""
    size = ch.size
    if size <= 0:
        return 0
    gap = (nxt.origin.x - ch.quad.lr.x) / size
    if gap >= SPACE_MAX_DIST:
        return 0
    if look & _UNSPACED and gap > SPACE_DIST:
        return _UNSPACED
    if look & _TIGHT_GAP and gap > TIGHT_DIST:
        return _TIGHT_GAP
    if look & _VERSION_GAP and gap > TIGHT_DIST:
        return _VERSION_GAP
    if look & _SCRIPT_GAP and script_ends(size, ch.origin.y, nxt.size, nxt.origin.y, gap * size):
        return _SCRIPT_GAP
    if look & _SIZE_GAP and script_apart(size, ch.origin.y, nxt.size, nxt.origin.y, gap * size):
        return _SIZE_GAP
    return 0


def script_ends(size: float, base: float, next_size: float, next_base: float, gap: float) -> bool:
    """Whether a glyph (font size, baseline) is a script that ends before the next glyph, back at
    the full size: smaller by ``SCRIPT_SIZE``, its baseline off the next's by ``SCRIPT_SHIFT``
    of the next's size, and not kerned into it (``SCRIPT_KERN``); sizes, baselines and the gap
    between the two glyphs in points.

    A script belongs to what stands before it (TeX hangs an index or an exponent on the symbol
    before it, a footnote mark ends the word it follows, or stands before the footnote's text
    as its label); a glyph back at the full size after it starts a word: ``5This`` is the mark
    ``5`` and the word ``This``; ``e1`` (e with index 1) stays one word."""
    if next_size <= 0 or gap < SCRIPT_KERN * next_size:
        return False
    return size <= SCRIPT_SIZE * next_size and abs(base - next_base) >= SCRIPT_SHIFT * next_size


SCRIPT_APART = 0.03
"""A script standing at least this share of the full size away from the glyph before or after
it is a word of its own (``script_apart``)."""

SCRIPT_APART_SHIFT = 0.1
"""A script set apart (``script_apart``) has its baseline off its word's by at least this share
of the full size: TeX lowers a subscript by 0.15 em, which a glyph's rounded position may bring
just under ``SCRIPT_SHIFT``; small capitals stand on the baseline."""


def script_apart(size: float, base: float, next_size: float, next_base: float, gap: float) -> bool:
    """Whether two glyphs of one line (font size, baseline), one a script of the other (smaller
    by ``SCRIPT_SIZE``, its baseline off by ``SCRIPT_APART_SHIFT`` of the full size), stand
    ``SCRIPT_APART`` of the full size apart or more (``gap``, like the sizes and baselines, in
    points): a script set apart from its word is a word.

    Why: TeX sets an index or an exponent on its symbol, touching it (``x2``, ``e1``: 0.003 em),
    but a script after an italic word or a symbol with a wide side bearing stands apart
    (``exp i``: 0.06 em after the italic ``p``; ``M HAC``, ``jth``), and so does a word after a
    script (TeX's ``\\scriptspace``). MuPDF's structured text reads such glyphs as one word
    (``expi``, ``MHAC``) wherever they stand under its 0.15 em; pdftotext starts a word at every
    change of size and sets it apart at 0.03 em, as the page shows it. Small capitals change
    size on one baseline and stay one word (``RETURN``)."""
    full = max(size, next_size)
    if full <= 0 or min(size, next_size) > SCRIPT_SIZE * full:
        return False
    return abs(base - next_base) >= SCRIPT_APART_SHIFT * full and gap >= SCRIPT_APART * full


MIRROR_REACH = 0.3
"""A mirrored glyph joins the lines before and after it when it starts within this share of its
height (its box's, or its font size where that is more) of the first's end and ends within it
of the second's start: the logo kerns its ``E`` 0.17 em into the letters on either side."""

_LONE_CAPITAL = re.compile(r"\n\n?([A-Z])(?=\n\n?[^\W\d_])")
"""A capital on a line of its own (or a block: MuPDF makes a turned glyph a block of its own)
between a line that ends with a letter and one that starts with one: where a mirrored glyph may
stand inside a word (``X``, ``E``, ``TEX``). The line after is looked ahead at, not taken: it
may be a capital alone too (a word that opens its line: ``X`` / ``E`` / ``TEX``, the ``X``
alone on its line because the mirrored ``E`` breaks it there)."""


def with_mirrored_glyphs_joined(written: str, stext: Any) -> str:
    """``written`` (as in ``with_gap_spaces``) with every mirrored glyph set inside a word read
    back into it: the XeTeX logo draws its ``E`` reflected, MuPDF makes that glyph a line of its
    own (running right to left) and the word came out as ``X``, ``E``, ``TEX`` on three lines,
    read ``X E TEX``: the word ``XeTeX`` lost. Where such a one-glyph line runs right to left
    and touches the end of the line before it and the start of the line after it on the same
    height (``MIRROR_REACH``), the three are one line. Cheap: only a page whose text holds a
    capital alone on a line between two letters (``_LONE_CAPITAL``) has its lines' boxes read."""
    if "\n" not in written or not _LONE_CAPITAL.search(written):
        return written
    paired = _paired(written, stext)
    if paired is None:
        return written
    lines, numbered, stext_lines = paired
    boxes = dict(zip(numbered, stext_lines))
    changed = False
    for m in _LONE_CAPITAL.finditer(written):
        if not (m.start() and written[m.start() - 1].isalpha()):
            continue
        i = written.count("\n", 0, m.start(1))
        k = numbered.index(i)
        if k == 0 or k + 1 == len(numbered):
            continue
        before, after = numbered[k - 1], numbered[k + 1]
        if not (lines[before] and lines[after] and lines[i]):
            continue  # NOTE: a line already joined into another
        if _inside_word(boxes[before], boxes[i], boxes[after]):
            lines[before] += lines[i] + lines[after]
            lines[i] = lines[after] = ""
            changed = True
    return "\n".join(lines) if changed else written


def _inside_word(before: Any, glyph: Any, after: Any) -> bool:
    """Whether the one-glyph line ``glyph`` is drawn mirrored (running right to left) between
    the end of line ``before`` and the start of line ``after`` (``MIRROR_REACH``)."""
    if glyph.dir.x >= 0 or before.dir.x <= 0 or after.dir.x <= 0:
        return False
    box, left, right = glyph.bbox, before.bbox, after.bbox
    # NOTE: the box's height is the font's ascender less its descender, which a font's
    # descriptor may state short (0.5 em and 0: the glyph's box half its size): the size, too
    reach = MIRROR_REACH * max(box.y1 - box.y0, glyph.first_char.size)
    return (
        abs(box.x0 - left.x1) <= reach
        and abs(right.x0 - box.x1) <= reach
        and min(box.y1, left.y1, right.y1) > max(box.y0, left.y0, right.y0)
    )


TRACKING_MAX = 0.25
"""Letters set apart by at most this share of the font size, evenly (``TRACKING_EVEN``), are one
letter-spaced word: a word space is wider (TeX's shrinks to 0.22 em at the least, Times' is
0.25 em), a tracked heading's letters stand 0.16 em apart (``L I S T`` of ``LIST OF FIGURES``)."""

TRACKING_EVEN = 0.05
"""A letter-spaced word's gaps differ from the narrowest of its run by at most this share of the
font size; a gap wider than that is a word space between two tracked words."""

_TRACKED = re.compile(r"(?<![^\W_])(?:[^\W\d_] ){3,}[^\W\d_](?![^\W_])")
"""Four letters or more, each a word of its own: where MuPDF may have read a letter-spaced word
letter by letter (``A B S T R A C T``)."""

_LETTER_SHAPES = bytes(
    ord("a") if 65 <= b <= 90 or 97 <= b <= 122 or b >= 0x80 else ord(" ") if b == 32 else ord(".")
    for b in range(256)
)
"""A byte table that reads a text's UTF-8 as letters (``a``: ASCII letters and the lead byte of a
character beyond ASCII, its continuation bytes deleted: ``_CONTINUATION``), spaces and the rest:
a page whose shapes hold no ``a a a a`` holds no ``_TRACKED`` run, found in C (NOTE: the regular
expression costs ten times as much)."""

_CONTINUATION = bytes(range(0x80, 0xC0))
"""The continuation bytes of UTF-8."""


def with_tracking_joined(written: str, stext: Any) -> str:
    """``written`` (as in ``with_gap_spaces``) with every letter-spaced word read as one word.

    Why: a heading set with letter spacing (tracking) stands each letter 0.16 em from the next,
    more than MuPDF's 0.15 em, so MuPDF puts a space after every letter: ``A B S T R A C T``, the
    word lost to search. In a run of single letters (``_TRACKED``), the gaps between the letters
    are read from the glyphs: evenly narrow gaps (``TRACKING_MAX``, ``TRACKING_EVEN``) join their
    letters; a wider gap stays a word space (``LIST OF FIGURES``). The bound is the even gaps'
    own, their median: letters evenly apart across it are all joined or none (a row of keys,
    each a letter a word space apart, 0.26 em and once 0.249 em, are single letters; joining the
    one gap under the bound glued two keys, ``ôÔ`` in ``ô Ô ù Ù``). Cheap: such runs are rare,
    and only the lines holding one are read."""
    shapes = written.encode("utf-8", "surrogatepass").translate(_LETTER_SHAPES, _CONTINUATION)
    if b"a a a a" not in shapes:
        return written
    if not _TRACKED.search(written):
        return written
    return spaces_dropped(
        written, stext, lambda text: [m.span() for m in _TRACKED.finditer(text)], _tracked_spaces
    )


def spaces_dropped(
    written: str,
    stext: Any,
    runs_of: Callable[[str], list[tuple[int, int]]],
    spaces_in: Callable[[Any, str, list[tuple[int, int]]], set[int]],
) -> str:
    """``written`` with, on every line paired with its stext line (``_paired``), the spaces that
    ``spaces_in(line, text, runs)`` names inside the line's ``runs_of(text)`` taken out: the one
    pass of both letter-spacing rules (this module's and ``pdftracked``'s)."""

    def rewrite(line: Any, text: str) -> str:
        runs = runs_of(text)
        drop = spaces_in(line, text, runs) if runs else set()
        return "".join(c for k, c in enumerate(text) if k not in drop) if drop else text

    return lines_rewritten(written, stext, rewrite)


def lines_rewritten(written: str, stext: Any, rewrite: Callable[[Any, str], str]) -> str:
    """``written`` with every line paired with its stext line (``_paired``) made
    ``rewrite(line, text)``; as it is when the two do not pair up."""
    paired = _paired(written, stext)
    if paired is None:
        return written
    lines, numbered, stext_lines = paired
    changed = False
    for i, line in zip(numbered, stext_lines):
        text = rewrite(line, lines[i])
        if text != lines[i]:
            lines[i] = text
            changed = True
    return "\n".join(lines) if changed else written


def line_glyphs(line: Any, text: str, last: int) -> dict[int, Any] | None:
    """The glyphs of ``text[: last + 1]`` on MuPDF's stext ``line``, by index into the text; None
    on a vertical or turned line, or where the glyphs are not the text's characters one for one
    (the positions of a letter-spaced run are then unknown)."""
    if line.wmode != 0 or abs(line.dir.y) > 1e-3 or line.dir.x <= 0:
        return None
    glyphs: dict[int, Any] = {}
    ch, k = line.first_char, 0
    while ch is not None and k <= last:
        if ch.c != ord(text[k]):
            return None
        glyphs[k] = ch
        ch, k = ch.next, k + 1
    return glyphs if k > last else None


def _tracked_spaces(line: Any, text: str, runs: list[tuple[int, int]]) -> set[int]:
    """Indices of the spaces inside ``runs`` (spans of single letters and spaces in the line's
    ``text``) that stand between two letters of one letter-spaced word (see
    ``with_tracking_joined``); none on a vertical or turned line, or where the line's glyphs are
    not the text's characters one for one."""
    glyphs = line_glyphs(line, text, runs[-1][1] - 1)
    if glyphs is None:
        return set()
    drop: set[int] = set()
    for start, end in runs:
        letters = list(range(start, end, 2))
        gaps = []
        for a, b in zip(letters, letters[1:]):
            size = glyphs[a].size
            gap = (glyphs[b].origin.x - glyphs[a].quad.lr.x) / size if size > 0 else SPACE_MAX_DIST
            gaps.append(gap)
        narrowest = min(gaps)
        even = [gap - narrowest <= TRACKING_EVEN for gap in gaps]
        if median(gap for ok, gap in zip(even, gaps) if ok) > TRACKING_MAX:
            continue  # NOTE: evenly apart, mostly over the bound: single letters (``a A e E``)
        drop.update(a + 1 for a, ok in zip(letters, even) if ok)
    return drop
