"""Stage 1 (read), TEI sources: the divisions of a document in the Text Encoding Initiative's XML
(TEI P5, ``<TEI xmlns="http://www.tei-c.org/ns/1.0">``, and P4's ``<TEI.2>``), as digital
libraries, Project Gutenberg's TEI editions and pandoc's ``tei`` writer write them.

* **Document title**: the ``<title>`` of ``<teiHeader>``/``<fileDesc>``/``<titleStmt>`` (the
  one typed ``main`` where several are, else the first not typed ``sub``), a level-0 heading at
  the start of the root's line: the header is metadata no renderer prints, so the text before the
  first division (a title page, an untitled opening) is the title's unit, as a JATS article's
  front is (``chunking.readers.markup_jats``). Without a header title, the ``<docTitle>`` of the
  text's ``<titlePage>`` (its first ``<titlePart>``) stands in.
* **Units**: the divisions of ``<text>``'s ``<front>``, ``<body>`` and ``<back>``: ``<div>``
  (nested, whatever its ``type``: pandoc's ``level1``…, ``chapter``, ``section``…), the numbered
  ``<div0>`` … ``<div7>``, and ``<divGen>`` (a division the processor generates: contents,
  index); each titled by its first ``<head>`` child. A division in a ``<floatingText>`` (a letter
  quoted in a chapter) or in an example (``<egXML>``, ``<eg>``) is no unit of the document.
* **Collections**: a ``<teiCorpus>`` holds ``<TEI>`` documents, each a unit titled by its own
  header's title (the corpus's header titles the whole); a ``<group>`` of ``<text>`` elements
  (an anthology, a collection of letters) is a unit when it has a ``<head>``, and each grouped
  ``<text>`` is one, titled by its ``<front>``'s ``<docTitle>``, else by a ``<head>`` straight in
  its ``<front>`` or ``<body>``.

Levels follow the nesting of titled units: the document title 0, a unit one below the nearest
titled unit around it (a ``<div>`` straight in ``<body>`` 1). An untitled division adds no level:
its titled children take its place (a ``<div>`` that only groups, or a ``<div1>`` that pandoc's
reader of another format left without a head, is not a level the reader sees). Levels are the
nesting, not the ``type`` value or a ``<divN>``'s digit: pandoc's ``level3`` straight under a
``level1`` is its child, as printed.

Kinds: TEI's ``type`` is free text, so only two values are read, where the printed title does
not already say so: ``type="part"`` (any case) makes a part, ``Part II. Title`` (parts counted
through the document), at level 1, everything outside a part one level down (as
``chunking.readers.markup_sgml`` does for DocBook's ``<part>``), and ``type="appendix"`` an
appendix, ``Appendix A. Title``; a title that starts with the word (``Part One``, ``Appendix
B``) is kept as it is. ``type="chapter"`` needs no word: a division at the chapter level is a
chapter. Front and back matter: the reader hands on titles and levels only (the markup readers'
contract), so a ``<front>`` or ``<back>`` division is front or back matter as the structure stage
reads every markup unit (before the first numbered chapter or after the last, or by its name:
``Preface``, ``Index``), which is what its position in ``<front>``/``<back>`` says wherever the
body's chapters are numbered. An untitled front or back division (and a ``<divGen>``) whose
``type`` names a matter a renderer prints under a fixed name (``DEFAULT_TITLES``: ``toc``,
``index``, ``bibliography``…) is a unit under that name.

Titles are what the printed page shows: inline markup (``<hi>``, ``<ref>``, ``<seg>``,
``<title>``…) reduced to its text, ``<lb/>`` a space (none with ``break="no"``), notes, index
entries and forme work (``<note>``, ``<index>``, ``<fw>``) dropped, of a ``<choice>`` only its
first reading; entities rendered. Offsets: the start of the line of the unit's start tag when
only indentation precedes it, else the tag (``markup_sgml._line_start``).

``tei_headings(text)`` recognises a TEI source by its root alone (``ROOTS``: no other DTD names its
root ``TEI``), never by its file name or a namespace prefix (names are read by their local part);
its first non-blank character must open markup. Markup is read by ``markup_sgml``'s tokenizer
(tags by position, not an XML parser): malformed or truncated XML is text, nothing in it raises,
and every step is bounded (``markup_sgml.TITLE_CHARS`` per title, ``MAX_LEVEL``).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..rules import keyword_kind, to_roman
from .markup_jats import close_element, inline_title, nested_levels, xml_doctype
from .markup_sgml import (
    _MARKUP_FIRST,
    MAX_LEVEL,
    Heading,
    Token,
    _letter,
    _line_start,
    _tokens,
)

ROOTS = frozenset(("tei", "teicorpus", "tei.2"))
"""Root elements of a TEI document (P5's ``TEI`` and ``teiCorpus``, P4's ``TEI.2``), by local name."""

DOCUMENTS = frozenset(("tei", "tei.2", "teicorpus"))
"""Elements whose ``<teiHeader>`` titles them (the root; a document in a corpus)."""

DIVISIONS = frozenset(("div", "divgen", *(f"div{n}" for n in range(8))))
"""Elements that open a division (a unit when titled)."""

BOXES = frozenset(("floatingtext", "egxml", "eg"))
"""Elements whose divisions are not units of the document: an embedded text, an example."""

MATTER = frozenset(("front", "body", "back"))
"""The parts of a ``<text>``: a ``<head>`` straight in one of a grouped text titles the text."""

DEFAULT_TITLES = {
    "toc": "Contents",
    "contents": "Contents",
    "index": "Index",
    "bibliography": "Bibliography",
    "references": "References",
    "glossary": "Glossary",
    "preface": "Preface",
    "foreword": "Foreword",
    "dedication": "Dedication",
    "acknowledgments": "Acknowledgments",
    "acknowledgements": "Acknowledgements",
    "colophon": "Colophon",
    "notes": "Notes",
}
"""The name a renderer prints for an untitled front or back division (or a ``<divGen>``) of this
``type``."""

DROPPED = frozenset(("note", "index", "fw", "figdesc", "interp"))
"""Inline elements whose content the printed title does not show."""

BREAKS = frozenset(("lb", "cb"))
"""Empty elements that break a title's line: a space, unless ``break="no"`` (a word divided)."""

STOPS = frozenset(("p", "ab", "lg", "sp", "list", "table", "figure", "head", "text", "front", "body", "back"))
"""Start tags that end a title whose end tag is missing (the division's body has begun)."""

_ATTR_TYPE = re.compile(r"""\stype\s*=\s*["']?([\w.-]+)""")
_NO_BREAK = re.compile(r"""\sbreak\s*=\s*["']?no\b""")
_HEADER_PATH = ("teiheader", "filedesc", "titlestmt")


class _Unit(NamedTuple):
    """A unit found at its start tag: ``parent`` is the index of the unit around it (-1: none);
    ``titles`` collects ``(rank, title)`` candidates (lowest rank wins) as they are read."""

    name: str
    offset: int
    parent: int
    kind: str  # the ``type`` attribute, lower case ("" when none)
    matter: bool  # in a ``<front>`` or ``<back>``
    titles: list[tuple[int, str]]


def tei_headings(text: str) -> list[Heading] | None:
    """The headings of a TEI document, or None when the text is not one (module docstring)."""
    if not _MARKUP_FIRST.match(text):
        return None
    declarations: list[str] = []
    seen = 0
    entities: dict[str, str] = {}
    units: list[_Unit] = []
    stack: list[tuple[str, int]] = []  # open elements: (name, index of the unit it opens or -1)
    opened: dict[str, int] = {}
    open_units: list[int] = []
    for token in _tokens(text, 0, declarations):
        if len(declarations) > seen:
            if xml_doctype(declarations[seen:], entities) is None:
                return None
            seen = len(declarations)
        if token.kind == "end":
            close_element(token.name, stack, opened, open_units)
            continue
        if token.kind not in ("start", "empty"):
            continue
        name = token.name
        if not units:
            if token.kind != "start" or name not in ROOTS:
                return None  # NOTE: not a TEI root: looked at no further
            units.append(_Unit(name, _line_start(text, token.start, []), -1, "", False, []))
            open_units.append(0)
            stack.append((name, 0))
            opened[name] = 1
            continue
        index = -1
        boxed = any(opened.get(box) for box in BOXES)
        if not boxed and _opens_unit(name, stack, opened):
            typed = _ATTR_TYPE.search(text, token.start, token.end)
            parent = open_units[-1] if open_units else -1
            matter = any(opened.get(m) for m in ("front", "back")) and name in DIVISIONS
            units.append(
                _Unit(name, token.start, parent, typed.group(1).lower() if typed else "", matter, [])
            )
            index = len(units) - 1
            if token.kind == "start":
                open_units.append(index)
        elif token.kind == "start" and open_units:
            _take_title(text, token, units, stack, open_units[-1], entities)
        if token.kind == "start":
            stack.append((name, index))
            opened[name] = opened.get(name, 0) + 1
    if not units:
        return None
    return _levelled(text, units)


def _opens_unit(name: str, stack: list[tuple[str, int]], opened: dict[str, int]) -> bool:
    """Whether an element opens a unit where it stands: a division in a text, a document in a
    corpus, a group, or a text in a group (the document's own ``<text>`` is the title's unit)."""
    if name in DIVISIONS:
        return bool(opened.get("text"))
    if name in DOCUMENTS:
        return bool(stack) and stack[-1][0] == "teicorpus"
    if name == "group":
        return True  # NOTE: a unit where titled; an untitled group adds no level
    if name == "text":
        return bool(stack) and stack[-1][0] == "group"
    return False


def _take_title(
    text: str,
    token: Token,
    units: list[_Unit],
    stack: list[tuple[str, int]],
    inner: int,
    entities: dict[str, str],
) -> None:
    """Record a title the start tag ``token`` opens for the innermost open unit ``inner``: a
    ``<head>`` straight in it (or straight in a grouped text's front, body or back), a header's
    ``<title>`` for a document, a ``<docTitle>``'s ``<titlePart>`` for a text."""
    name, start, end = token.name, token.start, token.end
    unit = units[inner]
    parent, owner = stack[-1] if stack else ("", -1)
    if name == "head":
        if owner == inner and unit.name not in DOCUMENTS:
            _add(unit, 0, _head_text(text, end, entities))
        elif unit.name == "text" and parent in MATTER and len(stack) >= 2 and stack[-2][1] == inner:
            _add(unit, 4, _head_text(text, end, entities))  # NOTE: after its <docTitle> (rank 3)
        return
    if name == "title" and unit.name in DOCUMENTS and len(stack) >= 3:
        if tuple(n for n, _ in stack[-3:]) == _HEADER_PATH:
            typed = _ATTR_TYPE.search(text, start, end)
            kind = typed.group(1).lower() if typed else ""
            _add(unit, 0 if kind == "main" else 2 if kind == "sub" else 1, _head_text(text, end, entities))
        return
    if name == "titlepart" and parent == "doctitle" and (unit.name == "text" or unit.parent < 0):
        _add(unit, 3, _head_text(text, end, entities))


def _add(unit: _Unit, rank: int, title: str) -> None:
    """Keep ``title`` as a candidate of ``rank`` (the lowest wins: a header's main title 0, its
    untyped one 1, its subtitle 2, a ``<docTitle>`` 3, a grouped text's ``<head>`` 4) unless one
    of that rank is already kept."""
    if title and all(r != rank for r, _ in unit.titles):
        unit.titles.append((rank, title))


def _title_of(unit: _Unit) -> str:
    if unit.titles:
        return min(unit.titles)[1]
    if unit.matter or unit.name == "divgen":
        return DEFAULT_TITLES.get(unit.kind, "")
    return ""


def _levelled(text: str, units: list[_Unit]) -> list[Heading]:
    """Titles worded by kind (parts, appendices), levels by the nesting of titled units, parts
    alone at level 1 when there are any."""
    titles = [_title_of(u) for u in units]
    parts = letters = 0
    is_part = [False] * len(units)
    for i, u in enumerate(units):
        if i == 0 or not titles[i]:
            continue
        first = titles[i].split()[0].rstrip(".:") if titles[i].split() else ""
        if u.kind == "part":
            is_part[i] = True
            parts += 1
            if keyword_kind(first) != "part":
                titles[i] = f"Part {to_roman(parts).upper()}. {titles[i]}"
        elif u.kind == "appendix":
            letters += 1
            if keyword_kind(first) != "appendix":
                titles[i] = f"Appendix {_letter(letters)}. {titles[i]}"
    level, inside = nested_levels([u.parent for u in units], [bool(t) for t in titles], is_part)
    shift = any(is_part)
    out: list[Heading] = []
    found: list[tuple[int, int, str, bool]] = []  # the offsets so far, as ``_line_start`` reads them
    for i, u in enumerate(units):
        if not titles[i]:
            continue
        at = u.offset if i == 0 else _line_start(text, u.offset, found)
        lv = level[i] + (1 if shift and i > 0 and not inside[i] else 0)
        found.append((at, 0, "", False))
        out.append((at, min(lv, MAX_LEVEL), titles[i]))
    return out


def _head_text(text: str, pos: int, entities: dict[str, str]) -> str:
    """A head's text from ``pos`` (the end of its start tag) to its end tag
    (``markup_jats.inline_title``): ``DROPPED`` elements left out, of a ``<choice>`` the first
    reading only, ``<lb/>`` a space; a block or a division that starts ends it."""
    return inline_title(text, pos, entities, STOPS | DIVISIONS, _dropped, "choice", _break)


def _dropped(text: str, token: Token) -> bool:
    return token.name in DROPPED


def _break(text: str, token: Token) -> str:
    if token.name not in BREAKS:
        return ""
    return "" if _NO_BREAK.search(text, token.start, token.end) else " "
