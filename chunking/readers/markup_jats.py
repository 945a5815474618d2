"""Stage 1 (read), JATS and BITS sources: the sections, back matter and book parts of a journal
article or a book in the NISO Journal Article Tag Suite and its book model.

* **JATS** (NISO Z39.96, NLM's journal DTDs; an ``<article>`` root): the document title is the
  ``<article-title>`` in ``<front>``/``<article-meta>``/``<title-group>``; ``<abstract>`` in
  ``<article-meta>`` is a front unit; ``<body>`` holds nested ``<sec>`` elements, each titled by
  its first ``<title>`` child, after the ``<label>`` that gives its printed number
  (``<sec><label>2.1</label><title>Methods</title>`` → ``2.1 Methods``); ``<back>`` holds
  ``<ack>``, ``<app-group>``/``<app>`` (appendices), ``<ref-list>``, ``<glossary>``,
  ``<notes>``, ``<fn-group>`` and ``<sec>``. A ``<sub-article>`` or ``<response>`` (a review, a
  reply, a translation bound with the article) is a unit titled by its own ``<article-title>``.
* **BITS** (the Book Interchange Tag Suite, and the NLM Book DTD before it; a ``<book>`` or
  ``<book-part-wrapper>`` root): the title is ``<book-meta>``/``<book-title-group>``/
  ``<book-title>``; ``<front-matter>`` holds ``<preface>``, ``<foreword>``, ``<dedication>``,
  ``<front-matter-part>``, ``<toc>``…; ``<book-body>`` nests ``<book-part>`` elements
  (``book-part-type="part"``, ``"chapter"``…) titled in their ``<book-part-meta>``/
  ``<title-group>`` (a ``<label>``, a ``<title>``), whose ``<body>`` holds ``<sec>`` elements;
  ``<book-back>`` holds ``<book-app>``, ``<app-group>``, ``<ref-list>``, ``<glossary>``,
  ``<index>``….

A unit without a title of its own has the name a renderer prints for it (``DEFAULT_TITLES``:
``References``, ``Acknowledgments``, ``Index``…) where it stands in the front or back matter
(``DEFAULT_PARENTS``), and is no unit elsewhere: an untitled ``<ref-list>`` inside a section
titled ``References`` is that section's list, not a second unit. An untitled ``<fn-group>`` is
no unit anywhere: its notes are set where their marks are (at the foot of the page, in a pop-up)
as often as at the end, and the source names no heading for them. A ``<sec>`` inside a figure,
table, box, quotation, list or footnote (``BOXES``) is no unit of the document.

Levels follow the nesting: the document title 0, a unit one below the nearest titled unit around
it (a ``<sec>`` straight in ``<body>`` 1: the chapter level of an article, as an article's
``<sect1>`` is in DocBook). An untitled unit adds no level. A BITS book's parts (a
``<book-part>`` typed ``part``, or an untyped one holding book parts) stand at level 1, and
everything outside a part moves one level down, as ``chunking.readers.markup_sgml`` does for
DocBook, so the chapters of every part and the front and back matter beside them share a level.
Titles are printed with their labels; where the element says what a unit is but its printed text
does not, the word is put before it so the structure stage reads its kind as a renderer would
print it: an appendix (``<app>``, ``<book-app>``) whose label is a bare letter or number, or that
has none, is ``Appendix A. Title`` (letters counted through the document when unlabelled), a part
``Part II. Title``; a label or title that already starts with the word (``Appendix B``,
``Anhang B``, ``Part One``) is kept as it is.

Titles are what the printed document shows: entities rendered, inline markup (``<italic>``,
``<bold>``, ``<sc>`` in its own case, ``<monospace>``, ``<xref>``, ``<inline-formula>``) reduced to
its text, ``<break/>`` a space; footnotes (``<fn>`` and the ``<xref ref-type="fn">`` that marks
one), index terms and alternative text dropped; of an ``<alternatives>`` only its first form
(a formula given as MathML and as TeX is read once). Offsets: the start of the line of the
unit's start tag (the root's, for the document title).

``jats_headings(text)`` recognises such a source by its own marks, never by its file name: its
first non-blank character opens markup, and its doctype names a JATS, NLM or BITS DTD
(``SIGNS``), or its root is a ``<book-part-wrapper>``, an ``<article>`` whose first child is a
``<front>``, ``<body>`` or ``<back>``, or a ``<book>`` whose first child is a ``<book-meta>``,
``<front-matter>``, ``<book-body>``… (``FIRST_CHILDREN``); and it has one unit below the title.
An HTML page, a DocBook ``<article>`` or ``<book>`` (first child ``<info>``, ``<title>``…) is
left at its root, so the other readers pay for one look at it. Markup is read by
``markup_sgml``'s tokenizer (tags by position, not an XML parser): malformed or truncated XML is
text, nothing in it raises, and every step is bounded (``TITLE_CHARS``, ``MAX_WRAPPERS``,
``MAX_LEVEL``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from ..rules import keyword_kind, to_roman
from .markup_sgml import (
    _DOCTYPE,
    _MARKUP_FIRST,
    MAX_LEVEL,
    TITLE_CHARS,
    Heading,
    Token,
    _doctype,
    _line_start,
    _references,
    _tokens,
)

SIGNS = re.compile(r"JATS|-//NLM//DTD|BITS|Book Interchange|Journal (?:Publishing|Archiving)")
"""What a doctype's public or system id says of a JATS or BITS document (and of the NLM journal
and book DTDs they grew from)."""

FIRST_CHILDREN = {
    "article": frozenset(("processing-meta", "front", "body", "back")),
    "book": frozenset(("processing-meta", "collection-meta", "book-meta", "book-front", "front-matter", "book-body", "book-back")),
}  # fmt: skip
"""A root without a JATS/BITS doctype is read as one when its first child is one of these (a
DocBook ``<article>`` or ``<book>`` opens with ``<info>``, ``<title>``…; an HTML one with a
heading or a paragraph)."""

SIGNED_ROOTS = frozenset(("book-part-wrapper",))
"""Roots no other DTD has: evidence on their own."""

UNITS = frozenset(
    "sec abstract trans-abstract ack app app-group ref-list glossary notes fn-group sub-article response "
    "book-part book-app book-app-group preface foreword dedication front-matter-part toc index index-group".split()
)
"""Elements that open a unit of the document (a heading in the outline) when titled."""

DEFAULT_TITLES = {
    "abstract": "Abstract",
    "trans-abstract": "Abstract",
    "ack": "Acknowledgments",
    "ref-list": "References",
    "glossary": "Glossary",
    "notes": "Notes",
    "preface": "Preface",
    "foreword": "Foreword",
    "dedication": "Dedication",
    "toc": "Contents",
    "index": "Index",
}
"""The name a renderer prints for a unit without a title (an appendix's, ``Appendix`` and its
letter, is given with the titled ones': ``_worded``)."""

DEFAULT_PARENTS = frozenset(
    "back book-back front-matter book-front article-meta front-stub book-meta book-part-meta app-group book-app-group".split()
)
"""Where an untitled unit of ``DEFAULT_TITLES`` is still a unit: in the front or back matter
(and an abstract in the metadata), not inside a section that already titles it."""

BOXES = frozenset(
    "boxed-text fig fig-group table-wrap table-wrap-group disp-quote statement fn list list-item def-list "
    "caption chem-struct-wrap supplementary-material verse-group speech bio sig-block question-wrap "
    "answer explanation array table".split()
)
"""Elements whose sections are part of a figure, box or note, not units of the document."""

WRAPPERS = frozenset(
    "front front-stub article-meta title-group book-meta book-title-group book-part-meta "
    "index-title-group toc-title-group".split()
)
"""Elements between a unit's start tag and its title (metadata around the title)."""

MAX_WRAPPERS = 4
"""A title is at most this many wrappers inside its unit (``article`` > ``front`` >
``article-meta`` > ``title-group`` > ``article-title``): bounds the look back over open elements."""

TITLES = frozenset(("title", "article-title", "book-title"))
"""Elements that title a unit (a section's, an article's, a book's)."""

DROPPED = frozenset(("fn", "index-term", "alt-text", "long-desc", "target"))
"""Inline elements whose content the printed title does not show."""

BLOCKS = frozenset(("p", "sec", "body", "book-body", "back", "book-back", "front-matter"))
"""Start tags that end a title whose end tag is missing (the body has begun)."""

_BARE = re.compile(r"\w{1,4}[.:]?")
_ATTR_TYPE = re.compile(r"""\s(?:book-part-type|ref-type)\s*=\s*["']?([\w-]+)""", re.I)


class _Unit(NamedTuple):
    """A unit found at its start tag: ``parent`` is the index of the unit around it (-1: none);
    ``label`` and ``title`` are filled in when read (one-item lists, so the tuple stays put)."""

    name: str
    offset: int
    parent: int
    kind: str  # book-part-type, lower case ("" when none)
    default: bool  # where an untitled unit still takes its DEFAULT_TITLES name
    label: list[str]
    title: list[str]
    holds_parts: list[bool]


def jats_headings(text: str) -> list[Heading] | None:
    """The headings of a JATS article or a BITS book, or None when the text does not read as one
    (module docstring)."""
    if not _MARKUP_FIRST.match(text):
        return None
    declarations: list[str] = []
    seen = 0
    signed = False
    root = ""
    evidence = False
    stack: list[tuple[str, int]] = []  # open elements: (name, index of the unit it opens or -1)
    opened: dict[str, int] = {}
    units: list[_Unit] = []
    open_units: list[int] = []  # indices into ``units`` of the units open, innermost last
    entities: dict[str, str] = {}
    for token in _tokens(text, 0, declarations):
        if len(declarations) > seen:
            doctype = xml_doctype(declarations[seen:], entities)
            seen = len(declarations)
            if doctype is None:
                return None
            signed = signed or bool(doctype and SIGNS.search(doctype))
        if token.kind == "end":
            close_element(token.name, stack, opened, open_units)
            continue
        if token.kind != "start":
            continue
        name = token.name
        if not root:
            root = name
            evidence = signed or name in SIGNED_ROOTS
            units.append(_Unit(name, _line_start(text, token.start, []), -1, "", False, [], [], [False]))
            open_units.append(0)
            stack.append((name, 0))
            opened[name] = 1
            continue
        if not evidence:
            if name not in FIRST_CHILDREN.get(root, frozenset()):
                return None  # NOTE: no JATS/BITS root and first child: looked at no further
            evidence = True
        index = -1
        if name in UNITS and not any(opened.get(box) for box in BOXES):
            parent = open_units[-1] if open_units else -1
            typed = _ATTR_TYPE.search(text, token.start, token.end) if name == "book-part" else None
            units.append(
                _Unit(
                    name,
                    token.start,
                    parent,
                    typed.group(1).lower() if typed else "",
                    bool(stack) and stack[-1][0] in DEFAULT_PARENTS,
                    [],
                    [],
                    [False],
                )
            )
            index = len(units) - 1
            if name == "book-part" and parent >= 0:
                units[parent].holds_parts[0] = True
            open_units.append(index)
        elif (name in TITLES or name == "label") and open_units:
            _take_title(text, token.end, name, units[open_units[-1]], stack, open_units[-1], entities)
        stack.append((name, index))
        opened[name] = opened.get(name, 0) + 1
    if not evidence or not units:
        return None
    headings = _levelled(text, units)
    if not any(level >= 1 for _, level, _ in headings):
        return None
    return headings


def xml_doctype(declarations: list[str], entities: dict[str, str]) -> str | None:
    """The doctype among ``declarations`` (``""`` when none is; its literal entities recorded in
    ``entities``), or None when it declares an HTML page, which no XML vocabulary here reads."""
    doctype = _doctype(declarations, entities)
    declared = _DOCTYPE.match(doctype) if doctype else None
    if declared is not None and declared.group(1).rstrip(">[").lower() == "html":
        return None
    return doctype


def close_element(
    name: str, stack: list[tuple[str, int]], opened: dict[str, int], open_units: list[int]
) -> None:
    """Close the innermost open element ``name`` and every element still open inside it (their
    end tags omitted or misplaced), and the units they opened; ``stack`` holds the open elements
    as ``(name, index of the unit it opens or -1)``, ``opened`` counts them by name (an end tag of
    nothing open closes nothing, without a look down the stack)."""
    if not opened.get(name):
        return
    while stack:
        closed, unit = stack.pop()
        opened[closed] -= 1
        if unit >= 0 and open_units and open_units[-1] == unit:
            open_units.pop()
        if closed == name:
            return


def _take_title(
    text: str,
    pos: int,
    name: str,
    unit: _Unit,
    stack: list[tuple[str, int]],
    index: int,
    entities: dict[str, str],
) -> None:
    """Record the title (or label) element whose start tag ends at ``pos`` as ``unit``'s when it
    is the unit's child or inside its wrappers only, and the unit has none yet."""
    if unit.title:
        return
    for depth in range(1, MAX_WRAPPERS + 2):
        if depth > len(stack):
            return
        name_at, owner = stack[-depth]
        if owner == index:
            break
        if name_at not in WRAPPERS:
            return
    else:
        return
    words = _title(text, pos, entities)
    if name == "label":
        if not unit.label:
            unit.label.append(words)
    else:
        unit.title.append(words)


def _levelled(text: str, units: list[_Unit]) -> list[Heading]:
    """The headings of the units read: titles with their labels (and the word an appendix or a
    part is printed with), levels by the nesting of titled units, parts alone at level 1."""
    titles = [_printed(u) for u in units]
    letters = parts = 0
    is_part = [False] * len(units)
    for i, u in enumerate(units):
        if i == 0:
            continue
        if u.name in ("app", "book-app") and (titles[i] or u.default):
            letters += 1
            titles[i] = _worded("Appendix", "appendix", u, titles[i], _letter(letters))
        elif u.name == "book-part" and (u.kind == "part" or (not u.kind and u.holds_parts[0])):
            is_part[i] = bool(titles[i])
            parts += is_part[i]
            titles[i] = titles[i] and _worded("Part", "part", u, titles[i], to_roman(parts).upper())
    level, inside = nested_levels([u.parent for u in units], [bool(t) for t in titles], is_part)
    shift = any(is_part[i] and titles[i] for i in range(len(units)))
    out: list[Heading] = []
    found: list[tuple[int, int, str, bool]] = []  # the offsets so far, as ``_line_start`` reads them
    for i, u in enumerate(units):
        if not titles[i]:
            continue
        at = _line_start(text, u.offset, found)
        lv = level[i] + (1 if shift and i > 0 and not inside[i] else 0)
        found.append((at, 0, "", False))
        out.append((at, min(lv, MAX_LEVEL), titles[i]))
    return out


def nested_levels(parents: list[int], titled: list[bool], parted: list[bool]) -> tuple[list[int], list[bool]]:
    """The level of each unit by the nesting of titled units (unit 0, the document, at 0; a unit
    one below the nearest titled unit around it: an untitled one adds no level), and whether it
    is inside a part (or one); ``parents[i]`` is the index of the unit around unit ``i`` (-1:
    none, the document's child), always before ``i``."""
    level = [0] * len(parents)
    base = [1] * len(parents)  # the level a unit's children take
    inside = [False] * len(parents)
    for i in range(1, len(parents)):
        p = parents[i] if parents[i] >= 0 else 0
        level[i] = base[p]
        base[i] = level[i] + 1 if titled[i] else base[p]
        inside[i] = parted[i] or inside[p]
    return level, inside


def _printed(unit: _Unit) -> str:
    """A unit's title as printed: its label and title, else the name a renderer gives it."""
    label = unit.label[0] if unit.label else ""
    title = unit.title[0] if unit.title else ""
    words = " ".join(w for w in (label, title) if w)
    if words or unit.parent < 0:
        return words
    return DEFAULT_TITLES.get(unit.name, "") if unit.default else ""


def _worded(word: str, kind: str, unit: _Unit, printed: str, count: str) -> str:
    """``printed`` with ``word`` and the unit's number before it when it does not start with a
    word of that ``kind`` (``rules.keyword_kind``) and its label, if any, is a bare number or
    letter (``A``, ``2.``, ``IV``): ``Appendix A. Title``, ``Part II. Title``; a label that is a
    phrase (``Supplement 1``) is printed as it is."""
    first = printed.split()[0].rstrip(".:") if printed.split() else ""
    label = (unit.label[0] if unit.label else "").strip()
    if (printed and keyword_kind(first) == kind) or (label and not _BARE.fullmatch(label)):
        return printed
    number = label.rstrip(".:") or count
    title = unit.title[0] if unit.title else ""
    return f"{word} {number}. {title}" if title else f"{word} {number}"


def _letter(n: int) -> str:
    return chr(ord("A") + n - 1) if 0 < n <= 26 else str(n)


def _title(text: str, pos: int, entities: dict[str, str]) -> str:
    """A title's text from ``pos`` (the end of its start tag) to its end tag (``inline_title``):
    ``DROPPED`` elements and a footnote's ``<xref>`` left out, of an ``<alternatives>`` the first
    form only, ``<break/>`` a space; a block or a unit that starts ends it."""
    return inline_title(text, pos, entities, BLOCKS | UNITS, _dropped, "alternatives", _break)


def _dropped(text: str, token: Token) -> bool:
    if token.name == "xref":
        ref = _ATTR_TYPE.search(text, token.start, token.end)
        return bool(ref and ref.group(1).lower() == "fn")
    return token.name in DROPPED


def _break(text: str, token: Token) -> str:
    return " " if token.name == "break" else ""


def inline_title(
    text: str,
    pos: int,
    entities: dict[str, str],
    stops: frozenset[str],
    dropped: Callable[[str, Token], bool],
    alternatives: str,
    breaks: Callable[[str, Token], str],
) -> str:
    """A title's text from ``pos`` (the end of its start tag) to its end tag, in an XML vocabulary
    whose inline elements print their text: an element ``dropped`` says of is left out with its
    content, of an ``alternatives`` element only the first child is read, an empty element
    gives what ``breaks`` says (a space for a line break); a start tag in ``stops`` (a missing end
    tag: the body has begun), the end tag of an element around the title or ``TITLE_CHARS`` of
    source end it."""
    parts: list[str] = []
    inner: list[tuple[str, bool]] = []  # elements open inside the title: (name, dropped)
    children: list[int] = []  # per open ``alternatives``: its child elements so far
    for token in _tokens(text, pos):
        if token.start - pos > TITLE_CHARS:
            break
        hidden = any(drop for _, drop in inner)
        if token.kind == "text":
            if not hidden:
                parts.append(_references(text[token.start : min(token.end, pos + TITLE_CHARS)], entities))
            continue
        if token.kind == "empty":
            if not hidden:
                parts.append(breaks(text, token))
            continue
        if token.kind == "start":
            if token.name in stops and not hidden:
                break
            drop = dropped(text, token)
            if inner and inner[-1][0] == alternatives and children:
                children[-1] += 1
                drop = drop or children[-1] > 1
            if token.name == alternatives:
                children.append(0)
            inner.append((token.name, drop))
            continue
        names = [n for n, _ in inner]
        if token.name not in names:
            break  # the title's own end tag, or an enclosing element's
        at = len(names) - 1 - names[::-1].index(token.name)
        for n, _ in inner[at:]:
            if n == alternatives and children:
                children.pop()
        del inner[at:]
    return " ".join("".join(parts).split())
