"""Stage 1 (read), EPUB markup: safe XML parsing and XHTML → text with anchors and page breaks.

Contract:

* ``parse_xml`` never expands an entity and never touches the network: a document that declares
  a DOCTYPE internal subset (where entities are declared, as in "billion laughs") is refused
  before the parser sees it, and the parser runs with ``resolve_entities=False``,
  ``no_network=True``, ``load_dtd=False`` and ``huge_tree`` (libxml2's size limits lifted, since
  the input is already bounded; a document past its hard nesting limit is refused, never cut).
* ``extract_text`` turns one XHTML document into plain text: ``script``/``style``/``svg``/
  ``math``/``head`` are skipped; block elements end lines, paragraph-level blocks leave a blank
  line; whitespace inside a line collapses to one space; ``<pre>`` keeps its lines verbatim.
  Every element ``id`` (and ``<a name>``) is recorded with the offset in the text where that
  element's text starts, so ``#fragment`` targets land at exact offsets. Headings ``h1``-``h6``
  (tag level, text, offset) and links to other documents (offset, href as written) are recorded
  too: structure detection uses them as evidence next to the nav (``chunking.structure.epub``).
  A note inside a heading (``is_note``: its mark, or the whole note as LaTeXML writes it) stays
  in the text but is no part of the heading's recorded title; ``label_text`` reads a nav label so.

Navigation documents (nav, NCX) are read by ``chunking.readers.navigation``.
"""

from __future__ import annotations

import html.entities
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import islice

from lxml import etree

from ..errors import UnreadableInputError

OPS_TYPE = "{http://www.idpf.org/2007/ops}type"
"""The ``epub:type`` attribute (EPUB 3 structural semantics)."""

_SKIP = frozenset({"script", "style", "svg", "math", "head", "title", "noscript", "template"})
_PARAGRAPH = frozenset(
    "p h1 h2 h3 h4 h5 h6 pre blockquote table ul ol dl figure hr section article aside header footer nav main"
    " address fieldset form details".split()
)
"""Blocks that end a paragraph: a blank line before and after."""
_HEADINGS = frozenset("h1 h2 h3 h4 h5 h6".split())
_LINE = frozenset("div li dt dd tr td th caption figcaption br tbody thead tfoot summary body".split())
"""Blocks that end a line."""

# A DOCTYPE without an internal subset: name, optional PUBLIC/SYSTEM literals, then ">".
_DOCTYPE_START = re.compile(rb"<!DOCTYPE", re.IGNORECASE)
_PLAIN_DOCTYPE = re.compile(
    rb"""<!DOCTYPE\s+[^\s\[>]+(?:\s+(?:PUBLIC\s+(?:"[^"]*"|'[^']*')(?:\s+(?:"[^"]*"|'[^']*'))?"""
    rb"""|SYSTEM\s+(?:"[^"]*"|'[^']*')))?\s*>""",
    re.IGNORECASE,
)
_NAMED_ENTITY = re.compile(rb"&([A-Za-z][A-Za-z0-9]{1,31});")
_XML_ENTITIES = frozenset({b"amp", b"lt", b"gt", b"quot", b"apos"})
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
_LIMIT_ERROR = re.compile(r"excessive depth|huge|too long|too large|maximum|limit", re.IGNORECASE)
"""libxml2 errors that mean "stopped at a hard limit" (text past it is lost), not "malformed"."""


class MalformedXmlError(UnreadableInputError):
    """The document is not XML the parser can recover; callers may skip the document with a warning."""


def _numeric_entity(match: re.Match[bytes]) -> bytes:
    """Replace an HTML named entity (``&nbsp;``) with numeric references XML understands."""
    name = match.group(1)
    if name in _XML_ENTITIES:
        return match.group(0)
    chars = html.entities.html5.get(name.decode("ascii") + ";")
    if chars is None:
        return match.group(0)
    return "".join(f"&#{ord(c)};" for c in chars).encode("ascii")


def _as_utf8(data: bytes) -> bytes:
    """UTF-16 documents (allowed by EPUB) become UTF-8 so the byte-level checks below see them."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        text = data.decode("utf-16")
        return _XML_DECLARATION.sub("", text, count=1).encode("utf-8")
    return data


def parse_xml(data: bytes, where: str, notes: list[str] | None = None) -> etree._Element:
    """Parse one XML/XHTML document from an EPUB without ever expanding entities.

    Args:
        data (bytes): the document's bytes.
        where (str): ``"<file>: <entry path>"``, used to start every error and note.
        notes (list[str] | None): receives one note when libxml2 had to recover from errors
            (mismatched tags, undefined entities), since recovered text may be incomplete.
            Defaults to None (recover silently).

    Returns:
        etree._Element: the root element.

    Raises:
        UnreadableInputError: the document declares entities (DOCTYPE internal subset), or hits a
            hard parser limit even with ``huge_tree`` (nesting deeper than 2048): never cut silently.
        MalformedXmlError: the document is not XML even in libxml2's recover mode.
    """
    data = _as_utf8(data)
    doctype = _DOCTYPE_START.search(data)
    # NOTE: only a plain DOCTYPE is allowed; an internal subset ("[...]") is where entities are
    # declared, so refusing it up front means no entity can be expanded (billion laughs) or
    # fetched (external entities), whatever the parser would do with it.
    if doctype is not None and not _PLAIN_DOCTYPE.match(data, doctype.start()):
        raise UnreadableInputError(
            f"{where} declares XML entities (DOCTYPE internal subset); refused as unsafe"
        )
    if b"&" in data:
        data = _NAMED_ENTITY.sub(_numeric_entity, data)
    # NOTE: huge_tree lifts libxml2's limits (a text node of 10 M characters, nesting of 256),
    # which otherwise cut the text silently even in recover mode. The input is already bounded
    # (``archive.MAX_ENTRY_BYTES``) and entities are refused above, so nothing can blow up.
    parser = etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=True,
        recover=True,
        remove_comments=True,
        remove_pis=True,
    )
    try:
        root = etree.fromstring(data, parser=parser)
    except (etree.XMLSyntaxError, ValueError) as exc:
        raise MalformedXmlError(f"{where} is not well-formed XML ({exc})") from None
    if root is None:
        raise MalformedXmlError(f"{where} is not well-formed XML")
    errors = [e for e in parser.error_log if e.level >= etree.ErrorLevels.ERROR]
    limit = next((e for e in errors if _LIMIT_ERROR.search(e.message)), None)
    if limit is not None:
        # Recover mode would drop everything past the limit: refuse rather than lose text.
        raise UnreadableInputError(
            f"{where} exceeds the XML parser's limits ({collapse(limit.message)[:120]}, line {limit.line});"
            " refused rather than read incompletely"
        )
    if errors and notes is not None:
        notes.append(
            f"{where} is not well-formed XML ({collapse(errors[0].message)}, line {errors[0].line});"
            " read what could be recovered"
        )
    dtd = root.getroottree().docinfo.internalDTD
    if dtd is not None and any(True for _ in dtd.iterentities()):
        raise UnreadableInputError(f"{where} declares XML entities; refused as unsafe")
    return root


def local_name(element: etree._Element) -> str:
    """The tag without its namespace, lower-cased ("" for comments and entities)."""
    tag = element.tag
    if not isinstance(tag, str):
        return ""
    return tag.rpartition("}")[2].lower()


def collapse(text: str) -> str:
    """Collapse all whitespace runs to single spaces and trim (titles, labels)."""
    return " ".join(text.split())


_NOTE_TYPES = frozenset("noteref footnote footnotes endnote endnotes note rearnote rearnotes".split())
"""``epub:type`` values (EPUB 3 structural semantics) of a note or a note's mark."""
_NOTE_ROLES = frozenset("doc-noteref doc-footnote doc-endnote doc-endnotes".split())
"""DPUB-ARIA roles of a note or a note's mark."""
_NOTE_CLASS = re.compile(r"footnote|endnote", re.IGNORECASE)
"""A class token naming a note or its mark, as several generators write it: LaTeXML
``ltx_role_footnote``, Pandoc ``footnote-ref``, Docutils ``footnote-reference``, DocBook XSL and
Asciidoctor ``footnote``, Word ``MsoFootnoteReference``, InDesign ``_idFootnoteLink``."""
_NOTE_MARK = re.compile(r"[\[(]?(?:\d{1,3}|[a-z]|[*\u2020\u2021\u00a7\u00b6]{1,3})[\])]?")
"""The text of a bare note mark: a number, a letter or a reference symbol, maybe bracketed."""
MARK_ELEMENTS = 4
"""At most this many elements make a bare note mark (``<a>``, ``<sup>`` and a span or two)."""


def is_note(element: etree._Element) -> bool:
    """True for a note or a note's mark: ``epub:type`` ``noteref``/``footnote``/``endnote``…, a
    ``doc-noteref``/``doc-footnote``/``doc-endnote`` role, a class naming a footnote or endnote
    (``_NOTE_CLASS``), or a bare superscript mark linking to a fragment (``<a href="#n1"><sup>1``
    or ``<sup><a href="#n1">1``). Inside a heading such an element is no part of its title."""
    if not element.attrib and local_name(element) != "sup":
        return False
    if _NOTE_TYPES.intersection((element.get(OPS_TYPE) or "").split()) or element.get("role") in _NOTE_ROLES:
        return True
    if any(_NOTE_CLASS.search(token) for token in (element.get("class") or "").split()):
        return True
    name = local_name(element)
    if name == "a" and "#" in (element.get("href") or ""):
        inner = "sup"
    elif name == "sup":
        inner = "a"
    else:
        return False
    # NOTE: a mark is a few elements: reading at most MARK_ELEMENTS of them keeps a long chain
    # of nested <sup><a> (hostile input) linear, each element looked at a bounded number of times.
    elements = list(islice(element.iter(), MARK_ELEMENTS + 1))
    if len(elements) > MARK_ELEMENTS:
        return False
    text = "".join((e.text or "") + (e.tail or "" if e is not element else "") for e in elements)
    return _NOTE_MARK.fullmatch(collapse(text)) is not None and any(
        local_name(child) == inner and (inner == "sup" or "#" in (child.get("href") or ""))
        for child in element
    )


def label_text(element: etree._Element) -> str:
    """An element's text, whitespace-collapsed, without the notes inside it (``is_note``)."""
    parts = [element.text or ""]
    stack = [(child, False) for child in reversed(element)]
    while stack:
        child, closing = stack.pop()
        if closing or is_note(child):
            parts.append(child.tail or "")
            continue
        parts.append((child.text or "") if isinstance(child.tag, str) else "")
        stack.append((child, True))
        stack.extend((grandchild, False) for grandchild in reversed(child))
    return collapse("".join(parts))


def is_pagebreak(element: etree._Element) -> bool:
    """True for an EPUB 3 / DPUB-ARIA print page-break marker."""
    return "pagebreak" in (element.get(OPS_TYPE) or "").split() or element.get("role") == "doc-pagebreak"


@dataclass
class Extracted:
    """One XHTML document as text.

    Attributes:
        text (str): the document's text (lines separated by ``"\\n"``, paragraphs by a blank line).
        anchors (dict[str, int]): element id → offset in ``text`` where its text starts.
        pagebreaks (list[tuple[int, str]]): print page-break markers as (offset, label), in order.
        headings (list[tuple[int, str, int]]): ``h1``-``h6`` as (tag level, text, offset), in order.
        links (list[tuple[int, str]]): ``<a href>`` to another document (not a bare ``#fragment``)
            as (offset, href as written), in order.
    """

    text: str
    anchors: dict[str, int] = field(default_factory=dict)
    pagebreaks: list[tuple[int, str]] = field(default_factory=list)
    headings: list[tuple[int, str, int]] = field(default_factory=list)
    links: list[tuple[int, str]] = field(default_factory=list)


class _Writer:
    """Accumulates text with collapsed whitespace and resolves anchors at the next written text."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.line_open = False  # the current line already has text
        self.space = False  # whitespace seen since the last written text on this line
        self.hold = ""  # verbatim (<pre>) whitespace not yet written
        self.brk = 0  # pending break: 1 = end of line, 2 = blank line
        self.verbatim = 0  # depth of <pre> elements
        self.waiting: list[str] = []
        self.waiting_breaks: list[str] = []
        self.waiting_spans: list[list[int]] = []  # heading [start, end] spans, start -1 until text
        self.waiting_links: list[str] = []
        self.spans: list[tuple[int, list[int]]] = []  # (tag level, span) of every heading
        self.headings_open = 0  # depth of heading elements
        self.holes: list[list[int]] = []  # [start, end] of each note inside a heading, in order
        self.in_hole = False
        self.out = Extracted("")

    def block(self, level: int) -> None:
        self.brk = max(self.brk, level)

    def mark(self, anchor: str) -> None:
        self.waiting.append(anchor)

    def mark_pagebreak(self, label: str) -> None:
        self.waiting_breaks.append(label)

    def _write(self, separator: str, text: str) -> None:
        if separator:
            self.parts.append(separator)
            self.length += len(separator)
        for anchor in self.waiting:
            self.out.anchors.setdefault(anchor, self.length)
        for label in self.waiting_breaks:
            self.out.pagebreaks.append((self.length, label))
        for span in self.waiting_spans:
            span[0] = self.length
        for href in self.waiting_links:
            self.out.links.append((self.length, href))
        self.waiting.clear()
        self.waiting_breaks.clear()
        self.waiting_spans.clear()
        self.waiting_links.clear()
        self.parts.append(text)
        self.length += len(text)
        self.line_open = True
        self.brk = 0
        self.space = False
        self.hold = ""

    def text(self, s: str) -> None:
        if not s:
            return
        if self.verbatim:
            self._text_verbatim(s)
            return
        words = s.split()
        if not words:
            self.space = True
            return
        if self.brk and self.length:
            separator = "\n" * self.brk
        elif self.line_open and (self.space or s[0].isspace()):
            separator = " "
        else:
            separator = ""
        self._write(separator, " ".join(words))
        self.space = s[-1].isspace()

    def _text_verbatim(self, s: str) -> None:
        body = s.rstrip()
        if not body:
            self.hold += s
            return
        pending = self.hold + body
        if self.brk or not self.length:
            # NOTE: a <pre> starts on a fresh line: drop its leading blank lines, keep indentation.
            pending = re.sub(r"^(?:[ \t]*\n)+", "", pending)
            separator = "\n" * self.brk if self.length else ""
        else:
            separator = " " if self.space and not self.hold else ""
        self._write(separator, pending)
        self.hold = s[len(body) :]

    def finish(self) -> Extracted:
        for anchor in self.waiting:
            self.out.anchors.setdefault(anchor, self.length)
        for label in self.waiting_breaks:
            self.out.pagebreaks.append((self.length, label))
        self.out.text = "".join(self.parts)
        for level, (start, end) in self.spans:
            title = self._title(start, end) if start >= 0 else ""
            if title:
                self.out.headings.append((level, title, start))
        return self.out

    def _title(self, start: int, end: int) -> str:
        """The text of ``start:end`` without the notes inside it (holes are in order, disjoint)."""
        parts, at = [], start
        first = bisect_right(self.holes, [start, start])
        if first and self.holes[first - 1][1] > start:
            first -= 1  # a note that opened before the heading's first text (its separator)
        for k in range(first, len(self.holes)):
            hole_start, hole_end = self.holes[k]
            if hole_start >= end:
                break
            parts.append(self.out.text[at:hole_start])
            at = max(at, hole_end)
        parts.append(self.out.text[at:end])
        return collapse("".join(parts))


def _walk(root: etree._Element, w: _Writer) -> None:
    """Write ``root``'s text in document order.

    NOTE: iterative (an explicit stack, not recursion): libxml2 with ``huge_tree`` accepts
    nesting far deeper than Python's recursion limit.
    """
    # An entry is (element, None) to open it, or (element, (name, level, span, hole)) to close it.
    stack: list[tuple[etree._Element, tuple[str, int, list[int] | None, list[int] | None] | None]]
    stack = [(root, None)]
    while stack:
        element, closing = stack.pop()
        if closing is not None:
            name, level, span, hole = closing
            if name == "pre":
                w.verbatim -= 1
            if span is not None:
                span[1] = w.length
                w.headings_open -= 1
            if hole is not None:
                hole[1] = w.length
                w.in_hole = False
            if level:
                w.block(level)
            w.text(element.tail or "")
            continue
        tag = element.tag
        name = tag[tag.rfind("}") + 1 :].lower() if isinstance(tag, str) else ""
        if not name or name in _SKIP:
            w.text(element.tail or "")
            continue
        level = 2 if name in _PARAGRAPH else 1 if name in _LINE else 0
        if level:
            w.block(level)
        if element.attrib:
            ident = element.get("id") or (element.get("name") if name == "a" else None)
            if ident:
                w.mark(ident)
            if is_pagebreak(element):
                # The marker's own text is the page number, not book text.
                label = element.get("title") or element.get("aria-label") or "".join(element.itertext())
                w.mark_pagebreak(collapse(label))
                w.text(element.tail or "")
                continue
        if name == "a" and (href := (element.get("href") or "").strip()) and not href.startswith("#"):
            w.waiting_links.append(href)
        span = hole = None
        if name in _HEADINGS:
            span = [-1, -1]
            w.spans.append((int(name[1]), span))
            w.waiting_spans.append(span)
            w.headings_open += 1
        elif w.headings_open and not w.in_hole and is_note(element):
            hole = [w.length, w.length]
            w.holes.append(hole)
            w.in_hole = True
        if name == "pre":
            w.verbatim += 1
        w.text(element.text or "")
        stack.append((element, (name, level, span, hole)))
        stack.extend((child, None) for child in reversed(element))


def extract_text(root: etree._Element) -> Extracted:
    """Turn a parsed XHTML document into text, anchors and print page-break markers.

    Args:
        root (etree._Element): the document root from ``parse_xml``.

    Returns:
        Extracted: text, id → offset anchors and (offset, label) page breaks.
    """
    w = _Writer()
    _walk(root, w)
    return w.finish()
