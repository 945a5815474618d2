"""Stage 1 (read), SGML and XML book sources: the sectioning elements of a LinuxDoc, DebianDoc,
DocBook or Texinfo XML document. (JATS articles and BITS books, whose ``<article>`` and
``<book>`` roots these share, are read before them by ``chunking.readers.markup_jats``, with
this module's tokenizer.)

These DTDs name a book's structure with elements:

* **LinuxDoc** (``<!doctype linuxdoc system>``): ``<article>``, ``<report>`` or ``<book>`` with
  its ``<title>``; ``<part>``, ``<chapt>``, ``<sect>``, ``<sect1>`` … ``<sect4>``, each titled by
  the text after its tag up to ``<p>`` or ``<label>`` (``<sect>Title<p>``; the DTD lets both end
  tags be omitted) or by a ``<heading>``; an empty ``<appendix>`` makes the units after it, at
  the level of the first one, appendices.
* **DebianDoc** (``<!doctype debiandoc …>``): ``<book>`` with ``<titlepag><title>``;
  ``<chapt>``, ``<appendix>``, ``<sect>``, ``<sect1>`` …, each titled by its ``<heading>``.
* **DocBook**, SGML or XML (a DocBook doctype or the DocBook 5 namespace): ``<book>``,
  ``<article>``, ``<set>``; ``<part>``; ``<chapter>``, ``<appendix>``, ``<preface>``,
  ``<reference>``, ``<glossary>``, ``<bibliography>``, ``<index>``…; ``<sect1>`` … ``<sect5>``,
  nested ``<section>``, ``<simplesect>``, ``<refentry>``. The title is the element's first
  ``<title>`` child, or the one in its ``<info>``/``<bookinfo>``/``<chapterinfo>``… (a
  ``<refentry>``'s ``<refentrytitle>``, else its ``<refname>``); a ``<preface>``, ``<index>``,
  ``<glossary>`` or ``<bibliography>`` without one has the name the stylesheets print, and a
  ``<toc>`` (LinuxDoc, DebianDoc, DocBook) is a ``Table of Contents`` unit where it stands.
* **Docutils XML** (``rst2xml``: a ``<document>`` root): the ``<document>``'s ``<title>`` is the
  document title, nested ``<section>`` elements and ``<topic>`` blocks (the generated contents,
  titled ``Contents``) its units; written without line breaks between elements, a section's
  start tag often follows the end of the previous section's text on one line.
* **Texinfo XML** (``makeinfo --xml``: a TexinfoML doctype or a ``<texinfo>`` root): ``<top>``
  (the manual's title; untitled, the ``<settitle>``'s), ``<part>``, ``<chapter>``,
  ``<unnumbered>``, ``<appendix>``, ``<centerchap>``, ``<section>``, ``<unnumberedsec>``,
  ``<appendixsec>``, ``<subsection>``… (``TEXINFO_RANKS``, ``TEXINFO_NESTED``), each titled by
  its ``<sectiontitle>``; ``<chapheading>``, ``<majorheading>``, ``<heading>``,
  ``<subheading>``, ``<subsubheading>`` open no section and hold their own title, a heading at
  the depth Texinfo prints it (``TEXINFO_HEADINGS``). Its ``<code>`` and ``<verb>`` are inline,
  ``<sc>`` text is set in capitals as the Info output writes it (``@sc{Widget}`` → ``WIDGET``),
  ``<accent>`` composes with its letter, and the DTD's own entities render as the manual shows
  them (``&tex;`` → ``TeX``, ``&textrsquo;`` → ``’``; ``TEXINFO_ENTITIES``). ``<macro>``
  bodies are Texinfo text, not elements; ``<contents>`` is no unit (the Info output prints
  none).

Levels follow the nesting: the document's title (the root element's) 0, a child one deeper
than its parent (so ``<sect>`` under a LinuxDoc ``<article>`` is 1, ``<sect1>`` under a DocBook
``<chapter>`` 2). An element may omit its end tag (SGML): a new ``<sect>``, ``<chapt>``…
closes the open ones of its rank or deeper (``RANKS``); nested ``<section>`` elements, which
have no rank, close at their end tags only. In a document with parts, everything below the title
that is not in a part moves one level down, as ``chunking.readers.markup_latex`` does, so the
title stays the lone root above the parts. Titles carry the labels the formatters print, counted
through the document: ``Part II. Title``, ``Appendix A. Title``, and ``3. Title`` for a chapter
(``<chapter>``, ``<chapt>``, or a section straight under an article's root); a title that
already starts with a number or its word keeps its own. The structure stage reads from them what
each unit is (an unnumbered unit before the first numbered one is front matter).

Titles are what the printed book shows: entities rendered (``&amp;``, ``&mdash;``, ``&#8212;``
and entities the doctype's internal subset defines as literal text), inline elements (``<tt/x/``
in SGML's short form, ``<command>``, ``<emphasis>``) reduced to their text, index terms,
footnotes (paragraphs and all: the title reads on after one) and remarks dropped. Nothing inside a comment, a CDATA section, an ``IGNORE`` marked
section, a processing instruction or a verbatim element (``<programlisting>``, ``<screen>``,
``<literallayout>``, ``<synopsis>``, ``<verb>``, ``<code>``, ``<example>``: each up to its end
tag) is an element. Offsets: the start of the line where the element's start tag is when only
indentation precedes the tag there, else the tag itself (an earlier heading, or the previous
section's text, on that line: a document written on one line).

``sgml_headings(text)`` recognises such a source by its own marks: its first non-blank character
opens markup, and it has a LinuxDoc, DebianDoc or DocBook doctype (or the DocBook namespace) and
one heading below the title, or a root element of these DTDs (``ROOTS``) and ``MIN_HEADINGS``
headings; an ``.sgml`` or ``.xml`` file needs one heading. An HTML page (its doctype, its
``<html>`` root) is never read here: its ``<title>`` names no sectioning element.

The scanner (``_tokens``) is a small tokenizer over tag positions, not an XML parser: SGML omits
end tags and writes ``<tt/x/``, which ``xml.etree`` refuses. Malformed markup is text; nothing in
it raises, and every step is bounded (``TITLE_CHARS``, ``LOOKAHEAD_CHARS``, ``MAX_LEVEL``).
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterator
from typing import NamedTuple

from ..rules import SOURCE_FILE_NAME, to_roman
from .markup_heading import Heading


MIN_HEADINGS = 2
"""Headings below the title a source needs without a doctype before it is read as SGML/XML."""

TITLE_CHARS = 600
"""A title is read over at most this many characters of source."""

LOOKAHEAD_CHARS = 20_000
"""An element's title is looked for this far after its start tag (past a long ``<bookinfo>``)."""

NET_CHARS = 300
"""SGML's short form ``<tt/text/`` holds at most this many characters before its closing ``/``."""

MAX_LEVEL = 12
"""Deeper nesting than this is given this level (a hostile file nests thousands deep)."""

TEXINFO_RANKS = {"top": 0, "unnumbered": 2, "centerchap": 2}
"""Texinfo XML's chapter-level elements besides ``<part>``, ``<chapter>`` and ``<appendix>``
(whose ranks ``RANKS`` gives), and its ``<top>``, the manual's title (``makeinfo --xml``)."""

TEXINFO_NESTED = frozenset(
    "unnumberedsec appendixsec appendixsection subsection unnumberedsubsec appendixsubsec "
    "subsubsection unnumberedsubsubsec appendixsubsubsec".split()
)
"""Texinfo XML's section-level elements below a chapter (``<section>`` is ``NESTED``): XML, so
each closes at its end tag."""

TEXINFO_HEADINGS = {"majorheading": 1, "chapheading": 1, "heading": 2, "subheading": 3, "subsubheading": 4}
"""Texinfo XML's headings that open no section (``@chapheading``…): the element holds its
title; the depth is the sectioning depth it is printed at (chapter 1, section 2…)."""

TEXINFO_DEPTHS = {
    **dict.fromkeys(("top", "part"), 0),
    **dict.fromkeys(("chapter", "unnumbered", "appendix", "centerchap"), 1),
    **dict.fromkeys(("section", "unnumberedsec", "appendixsec", "appendixsection"), 2),
    **dict.fromkeys(("subsection", "unnumberedsubsec", "appendixsubsec"), 3),
    **dict.fromkeys(("subsubsection", "unnumberedsubsubsec", "appendixsubsubsec"), 4),
}
"""The sectioning depth of each Texinfo XML element (Texinfo's own, ``markup_texinfo.LEVELS``)."""

RANKS = {
    **dict.fromkeys(("set",), -1),
    **dict.fromkeys(("book", "article", "report", "document"), 0),
    "part": 1,
    **dict.fromkeys(
        (
            "chapter",
            "chapt",
            "appendix",
            "preface",
            "reference",
            "colophon",
            "dedication",
            "acknowledgements",
        ),
        2,
    ),  # fmt: skip
    "sect": 3,
    **{f"sect{n}": 3 + n for n in range(1, 6)},
    **TEXINFO_RANKS,
}
"""Ranked sectioning elements: one closes every open element of its rank or deeper (SGML's
omitted end tags). Rank orders LinuxDoc's ``article > sect > sect1``, DebianDoc's
``book > chapt > sect > sect1`` and DocBook's ``book > part > chapter > sect1`` alike."""

NESTED = (
    frozenset(("section", "simplesect", "refentry", "glossary", "bibliography", "index", "topic"))
    | frozenset(("refsynopsisdiv", "refsection", "refsect1", "refsect2", "refsect3"))
    | TEXINFO_NESTED
)
"""Sectioning elements without a rank: children of whatever is open, closed by their end tags.
A ``<topic>`` is a titled block (Docutils XML's contents, abstract or dedication; a DITA topic): a
unit where it stands, at its depth (inside a section, a section of it). A reference page's
``<refsect1>`` (``<refsection>``) is a section of its ``<refentry>``: a man page's ``.SH``."""

SECTIONING = frozenset(RANKS) | NESTED

ROOTS = frozenset(
    ("book", "article", "report", "set", "part", "chapter", "preface", "appendix", "reference", "texinfo")
)
"""Root elements that, with ``MIN_HEADINGS`` headings, make a source without a doctype SGML/XML."""

DEFAULT_TITLES = {
    "refsynopsisdiv": "Synopsis",
    "preface": "Preface",
    "index": "Index",
    "glossary": "Glossary",
    "bibliography": "Bibliography",
}
"""What the DocBook stylesheets print for these elements without a title."""

TITLES = frozenset(("title", "heading", "refentrytitle", "refname", "sectiontitle"))
"""Elements that hold a sectioning element's title."""

WRAPPERS = frozenset(
    "info bookinfo articleinfo chapterinfo appendixinfo prefaceinfo partinfo referenceinfo sectioninfo "
    "sect1info sect2info sect3info sect4info sect5info refentryinfo refsynopsisdivinfo glossaryinfo "
    "bibliographyinfo indexinfo setinfo docinfo titlepag refmeta refnamediv indexterm beginpage".split()
)
"""Elements between a sectioning element's tag and its title (metadata around the title)."""

DIRECT = frozenset(("chapt", "sect", "sect1", "sect2", "sect3", "sect4"))
"""LinuxDoc's sectioning elements, whose title may be the text straight after the tag (no other
DTD here has one: an HTML ``<section>`` followed by its text is not titled by it)."""

INLINE = frozenset(
    "tt em bf it sl rm sf cf idx cdx f var package prgn file strong qref manref ref url htmlurl "
    "emphasis literal command filename".split()
)
"""Inline elements that may open a LinuxDoc/DebianDoc title written straight after its tag."""

STOPS = frozenset(
    "p para simpara formalpara label author authorgroup date abstract toc lof lot subtitle titleabbrev "
    "titlepag title heading version copyright legalnotice itemize enum enumerate descrip list verb "
    "code tscreen quote figure table programlisting screen example note warning tip caution important "
    "itemizedlist orderedlist variablelist informaltable blockquote epigraph highlights".split()
)
"""Start tags that end a title whose end tag was omitted (the body has begun)."""

_COMMONMARK = re.compile(r"commonmark\.org/xml|CommonMark\.dtd", re.I)
"""What names a CommonMark XML document: its namespace or its DTD."""

_LEVEL_ATTRIBUTE = re.compile(r"""\blevel\s*=\s*["'](\d)["']""")

COMMONMARK_INLINE = frozenset(("text", "code", "emph", "strong", "link", "image", "html_inline", "softbreak"))
"""CommonMark XML's inline elements: the pieces of a heading's text."""

TEXINFO_INLINE = frozenset(("code", "verb"))
"""Texinfo XML's inline ``<code>`` and ``<verb>`` (``@code{x}``), which in LinuxDoc open a
verbatim block (``STOPS``)."""

DOCUTILS_INLINE = frozenset(("reference",))
"""Docutils XML's inline ``<reference>`` (a hyperlink), which in DocBook is a sectioning element
(``RANKS``): in a Docutils document it opens nothing and is part of a title's text."""

DROPPED = frozenset(("indexterm", "footnote", "nidx", "ncdx", "remark", "comment", "anchor"))
"""Inline elements whose content the printed title does not show."""

UPPER = frozenset(("sc",))
"""Inline elements whose text is printed in capitals: Texinfo's ``<sc>`` (``@sc{Widget}``), which
the Info and plain-text output write upper case."""

ACCENTS = {
    "uml": "\u0308", "tilde": "\u0303", "circ": "\u0302", "grave": "\u0300", "acute": "\u0301",
    "cedil": "\u0327", "ring": "\u030a", "ogon": "\u0328", "macr": "\u0304", "doubleacute": "\u030b",
    "breve": "\u0306", "caron": "\u030c", "dotaccent": "\u0307", "tieaccent": "\u0361",
    "ubaraccent": "\u0332", "udotaccent": "\u0323",
}  # fmt: skip
"""Texinfo XML's ``<accent type="…">`` (makeinfo's accent names) → the combining mark it sets on
the letter it holds."""

TEXINFO_ENTITIES = {
    "tex": "TeX", "latex": "LaTeX", "ellipsis": "…", "bullet": "•", "copyright": "©", "registered": "®",
    "pounds": "£", "linebreak": " ", "dots": "…", "enddots": "…", "textlsquo": "‘", "textrsquo": "’",
    "textldquo": "“", "textrdquo": "”", "textmdash": "—", "textndash": "–", "guillemotleft": "«",
    "guillemotright": "»", "formfeed": "", "period": ".", "eosperiod": ".", "quest": "?", "eosquest": "?",
    "excl": "!", "eosexcl": "!", "hyphenbreak": "", "slashbreak": "/", "noeos": "", "arobase": "@",
    "lbrace": "{", "rbrace": "}", "comma": ",", "atchar": "@", "ampchar": "&", "lbracechar": "{",
    "rbracechar": "}", "backslashchar": "\\", "hashchar": "#", "expansion": "→", "point": "★",
    "printglyph": "⊣", "errorglyph": "error-->", "result": "⇒", "equiv": "≡",
}  # fmt: skip
"""The entities the TexinfoML DTD defines that HTML's do not (or defines otherwise), as the DTD
expands them (``&tex;`` is ``<logo>TeX</logo>``): a Texinfo XML document uses them without
declaring them."""

VERBATIM = frozenset(("programlisting", "screen", "literallayout", "synopsis", "verb", "code", "example"))
"""Elements whose content is literal: no tag inside one is an element."""


class Token(NamedTuple):
    """A piece of the source: ``kind`` is ``start``, ``end``, ``empty`` (``<x/>``) or ``text``;
    ``name`` the element's, lower case, without a namespace prefix."""

    kind: str
    name: str
    start: int
    end: int


_NAME = r"[A-Za-z][\w.:-]{0,80}"
_TAG = re.compile(
    rf"""<(?:
      (?P<comment>!--)
    | (?P<marked>!\[)
    | (?P<decl>![A-Za-z])
    | (?P<pi>\?)
    | /(?P<ename>{_NAME})?\s*>
    | (?P<name>{_NAME})(?:\s+[^\s=>/<"']{{1,80}}(?:\s*=\s*(?:"[^"]{{0,2000}}"|'[^']{{0,2000}}'|[^\s>"'<]{{1,2000}}))?){{0,100}}\s*(?P<close>/>|>|/)
    )""",
    re.X,
)
_MARKED = re.compile(r"<!\[\s*([A-Za-z%][\w.%;-]*)\s*\[")
_DOCTYPE = re.compile(r"<!doctype\s+(\S+)", re.I)
_ENTITY = re.compile(r"""<!ENTITY\s+(?!%)([\w.-]+)\s+(?:"([^"]*)"|'([^']*)')\s*>""", re.I)
_ENTITY_REF = re.compile(r"&[#\w.-]*;?")
_MARKUP_FIRST = re.compile(r"\s*<")
_NUMBERED = re.compile(r"(?i)\d|chapter\b")
_SUBSET_END = re.compile(r"\]\s*>")
_ACCENT_TYPE = re.compile(r"""\stype\s*=\s*["']?([a-z]+)""")
_ENDS: dict[str, re.Pattern[str]] = {}


def _end_tag(name: str) -> re.Pattern[str]:
    if name not in _ENDS:
        _ENDS[name] = re.compile(rf"</{re.escape(name)}\s*>", re.I)
    return _ENDS[name]


def _local(name: str) -> str:
    return name.rsplit(":", 1)[-1].lower()


def _tokens(text: str, pos: int = 0, declarations: list[str] | None = None) -> Iterator[Token]:
    """The tags and texts of ``text`` from ``pos``: comments, processing instructions,
    declarations (collected into ``declarations``) and ``IGNORE`` sections are skipped; a CDATA
    section and a verbatim element's content are one text; ``<x/text/`` is a start tag, a text
    and an end tag; a ``<`` that opens no markup is text."""
    n = len(text)
    while pos < n:
        lt = text.find("<", pos)
        if lt < 0:
            yield Token("text", "", pos, n)
            return
        m = _TAG.match(text, lt)
        if m is None:
            # NOTE: not markup (``a < b``): text, and the scan goes on after it.
            yield Token("text", "", pos, lt + 1)
            pos = lt + 1
            continue
        if lt > pos:
            yield Token("text", "", pos, lt)
        if m.group("comment"):
            close = text.find("-->", lt + 4)
            pos = n if close < 0 else close + 3
        elif m.group("pi"):
            close = text.find(">", lt + 2)
            pos = n if close < 0 else close + 1
        elif m.group("decl"):
            pos = _declaration_end(text, lt)
            if declarations is not None:
                declarations.append(text[lt:pos])
        elif m.group("marked"):
            marked = _MARKED.match(text, lt)
            keyword = marked.group(1).upper() if marked else ""
            if keyword in ("CDATA", "IGNORE", "RCDATA"):
                close = text.find("]]>", marked.end() if marked else lt)
                stop = n if close < 0 else close
                if keyword != "IGNORE":
                    yield Token("text", "", marked.end() if marked else lt, stop)
                pos = n if close < 0 else close + 3
            else:
                pos = marked.end() if marked else lt + 3  # INCLUDE or a parameter entity: read on
        elif m.group("name") is None:
            yield Token("end", _local(m.group("ename") or ""), lt, m.end())
            pos = m.end()
        else:
            name, close_mark = _local(m.group("name")), m.group("close")
            pos = m.end()
            if close_mark == "/>":
                yield Token("empty", name, lt, pos)
                continue
            if close_mark == "/":
                net = text.find("/", pos, pos + NET_CHARS)
                if net >= 0 and "<" not in text[pos:net]:
                    yield Token("start", name, lt, pos)
                    yield Token("text", "", pos, net)
                    yield Token("end", name, net, net + 1)
                    pos = net + 1
                    continue
                yield Token("text", "", lt, pos)  # NOTE: ``<a/b`` with no closing ``/``: text
                continue
            yield Token("start", name, lt, pos)
            if name in VERBATIM:
                # NOTE: a verbatim element that nothing closes is no block (it would hide the
                # rest of the book): its tag is read as any other.
                end = _end_tag(m.group("name")).search(text, pos)
                if end is not None:
                    yield Token("text", "", pos, end.start())
                    yield Token("end", name, end.start(), end.end())
                    pos = end.end()


def _declaration_end(text: str, lt: int) -> int:
    """Where a ``<!…>`` declaration ends: after its ``>``, or after the ``]>`` of a doctype's
    internal subset."""
    gt = text.find(">", lt)
    bracket = text.find("[", lt, gt if gt >= 0 else len(text))
    if bracket >= 0:
        close = _SUBSET_END.search(text, bracket)
        return len(text) if close is None else close.end()
    return len(text) if gt < 0 else gt + 1


class _Element(NamedTuple):
    name: str
    level: int
    parted: bool  # inside a part (or is one)


def sgml_headings(text: str, named: bool = False) -> list[Heading] | None:
    """The headings of a LinuxDoc, DebianDoc or DocBook source, or None when the text does not
    read as one (module docstring); ``named``: the file's name says it is SGML or XML
    (``.sgml``, ``.xml``), one heading suffices."""
    if not _MARKUP_FIRST.match(text):
        return None
    declarations: list[str] = []
    seen = 0  # declarations looked at
    doctype = ""
    root = ""
    signed = False
    found: list[tuple[int, int, str, bool]] = []  # (offset, level, title, parted)
    stack: list[_Element] = []
    opened: dict[str, int] = {}  # how many of each name the stack holds (an end tag's look is bounded)
    appendix_parent: int | None = None  # LinuxDoc: the stack depth whose children are appendices
    letters = parts = chapters = 0
    entities: dict[str, str] = {}
    texinfo = False  # a Texinfo XML document (``makeinfo --xml``): its doctype or its root
    commonmark = False  # a CommonMark XML document (``cmark -t xml``): its namespace or its DTD
    inline: frozenset[str] = frozenset()  # this DTD's inline elements among other DTDs' blocks
    settitle = ""  # Texinfo: the ``<settitle>``, an untitled ``<top>``'s title
    for token in _tokens(text, 0, declarations):
        if len(declarations) > seen and not doctype:
            doctype = _doctype(declarations[seen:], entities)
            seen = len(declarations)
            kind = _DOCTYPE.match(doctype)
            if kind is not None and kind.group(1).rstrip(">[").lower() == "html":
                return None
            signed = any(
                word in doctype.lower() for word in ("linuxdoc", "debiandoc", "docbook", "texinfoml")
            )
            texinfo = kind is not None and kind.group(1).rstrip(">[").lower() == "texinfo"
        if token.kind == "end":
            if opened.get(token.name):
                while stack:
                    closed = stack.pop()
                    opened[closed.name] -= 1
                    if closed.name == token.name:
                        break
            if appendix_parent is not None and len(stack) < appendix_parent:
                appendix_parent = None
            continue
        if token.name == "toc" and token.kind in ("start", "empty"):
            # NOTE: LinuxDoc's (and DocBook's) ``<toc>``: the formatters print the contents there
            at, level = _line_start(text, token.start, found), stack[-1].level + 1 if stack else 1
            found.append((at, min(level, MAX_LEVEL), "Table of Contents", bool(stack) and stack[-1].parted))
            continue
        if token.kind == "empty" and token.name in DEFAULT_TITLES and token.name in SECTIONING:
            # NOTE: ``<index/>``: the stylesheets generate the unit under its name
            at, level = _line_start(text, token.start, found), stack[-1].level + 1 if stack else 1
            found.append(
                (at, min(level, MAX_LEVEL), DEFAULT_TITLES[token.name], bool(stack) and stack[-1].parted)
            )
        if token.kind != "start":
            continue
        if not root:
            root = token.name
            if root == "html":
                return None
            signed = signed or "docbook.org/ns/docbook" in text[token.start : token.end]
            texinfo = texinfo or root == "texinfo"
            commonmark = (
                root == "document" and _COMMONMARK.search(text[token.start : token.end] + doctype) is not None
            )
            signed = signed or commonmark
            if commonmark:
                continue  # NOTE: its root is no unit: its headings say what the document is
            inline = TEXINFO_INLINE if texinfo else DOCUTILS_INLINE if root == "document" else frozenset()
            if texinfo:
                entities.update((k, v) for k, v in TEXINFO_ENTITIES.items() if k not in entities)
        name = token.name
        if commonmark and name == "heading":
            # NOTE: CommonMark XML (``cmark -t xml``): a ``<heading level="N">``, Markdown's
            # ``N`` signs, is a title and the unit it opens at once
            depth = _LEVEL_ATTRIBUTE.search(text, token.start, token.end)
            title = _title(text, token.end, entities, COMMONMARK_INLINE)
            if depth is not None and title:
                found.append(
                    (_line_start(text, token.start, found), min(int(depth[1]), MAX_LEVEL), title, False)
                )
            continue
        if texinfo and name == "settitle" and not settitle:
            settitle = _title(text, token.end, entities, TEXINFO_INLINE)
            continue
        if texinfo and name in TEXINFO_HEADINGS:
            # NOTE: ``<chapheading>``: a heading that opens no section, printed at its depth
            title = _title(text, token.end, entities, TEXINFO_INLINE)
            if title:
                level, parted = _texinfo_level(stack, TEXINFO_HEADINGS[name])
                found.append((_line_start(text, token.start, found), min(level, MAX_LEVEL), title, parted))
            continue
        if name not in SECTIONING or name in inline:
            continue
        rank = RANKS.get(name)
        if rank is not None:
            while stack and RANKS.get(stack[-1].name, -9) >= rank:
                opened[stack.pop().name] -= 1
        title = _find_title(text, token.end, entities, name in DIRECT, inline)
        if not title and name == "appendix":
            appendix_parent, letters = len(stack), 0  # NOTE: LinuxDoc's empty <appendix> marker
            continue
        title = title or DEFAULT_TITLES.get(name, "") or (settitle if texinfo and name == "top" else "")
        parent = stack[-1] if stack else None
        if parent is not None:
            level = parent.level + 1
        else:
            level = 0 if (rank is not None and rank <= 0) or name == "refentry" else 1
            # NOTE: a reference page as the document (a man page lifted to DocBook): its
            # ``<refsect1>`` are the units
        parted = name == "part" or (parent is not None and parent.parted)
        top = (
            parent is not None and RANKS.get(parent.name, 9) <= 0 and parent.name not in ("top", "document")
        )  # an article's (Docutils numbers its sections only where the source asks: never here)
        if title and name == "part":
            parts += 1
            if not re.match(r"(?i)part\b", title):
                title = f"Part {to_roman(parts).upper()}. {title}"
        elif title and (
            name == "appendix" or (appendix_parent is not None and len(stack) == appendix_parent)
        ):
            letters += 1
            if not re.match(r"(?i)appendix\b", title):
                title = f"Appendix {_letter(letters)}. {title}"
        elif title and (
            name in ("chapter", "chapt", "centerchap") or (name in ("sect", "sect1", "section") and top)
        ):
            chapters += 1
            if not _NUMBERED.match(title):
                title = f"{chapters}. {title}"
        if title and not (level == 0 and (name == "refentry" or SOURCE_FILE_NAME.fullmatch(title))):
            # NOTE: a converter's title that is its input file's name (``input.pod``) is none;
            # a reference page's own title is its header's (a man page's ``.TH``), no unit
            found.append((_line_start(text, token.start, found), min(level, MAX_LEVEL), title, parted))
        stack.append(_Element(name, level, parted))
        opened[name] = opened.get(name, 0) + 1
    below = sum(1 for h in found if h[1] >= 1)
    if not below or not (named or signed or (root in ROOTS and below >= MIN_HEADINGS)):
        return None
    shift = any(h[3] for h in found)
    return [
        (offset, min(level + 1, MAX_LEVEL) if shift and level >= 1 and not parted else level, title)
        for offset, level, title, parted in found
    ]


def _texinfo_level(stack: list[_Element], depth: int) -> tuple[int, bool]:
    """The level and the part flag of a Texinfo heading printed at ``depth`` (``TEXINFO_HEADINGS``):
    under the innermost open element of a lesser depth, as deep below it as the depths differ."""
    for element in reversed(stack):
        own = TEXINFO_DEPTHS.get(element.name)
        if own is not None and own < depth:
            return element.level + depth - own, element.parted
    return depth, False


def _doctype(declarations: list[str], entities: dict[str, str]) -> str:
    """The first doctype declaration among ``declarations`` (``""`` when none is), its internal
    subset's literal general entities recorded in ``entities``."""
    for declaration in declarations:
        if _DOCTYPE.match(declaration):
            for m in _ENTITY.finditer(declaration):
                entities.setdefault(m.group(1), m.group(2) if m.group(2) is not None else m.group(3))
            return declaration
    return ""


def _letter(n: int) -> str:
    return chr(ord("A") + n - 1) if 0 < n <= 26 else str(n)


def _line_start(text: str, at: int, found: list[tuple[int, int, str, bool]]) -> int:
    """The start of the line of ``at`` when only indentation precedes the tag there, else ``at``
    itself: the last heading already starts on that line, or the end of the previous section's
    text does (XML written without line breaks between elements), which belongs to that section.
    NOTE: looks back only to the last heading (``at`` grows), so a file on one line costs no
    rescan per heading."""
    since = found[-1][0] if found else 0
    start = text.rfind("\n", since, at) + 1
    if start == 0 and found:
        return at
    if found and found[-1][0] >= start:
        return at
    return start if text[start:at].isspace() or start == at else at


def _find_title(
    text: str, pos: int, entities: dict[str, str], direct: bool, inline: frozenset[str] = frozenset()
) -> str:
    """The title of the sectioning element whose start tag ends at ``pos`` (module docstring):
    its first title element, past metadata wrappers, or (``direct``: LinuxDoc) the text straight
    after its tag."""
    depth = 0  # open wrappers
    for token in _tokens(text, pos):
        if token.start - pos > LOOKAHEAD_CHARS:
            return ""
        if token.kind == "text":
            if depth == 0 and text[token.start : token.end].strip():
                return _title(text, token.start, entities) if direct else ""
            continue
        if token.kind == "empty":
            continue
        if token.kind == "end":
            if depth > 0 and token.name in WRAPPERS:
                depth -= 1
                continue
            if depth > 0:
                continue
            return ""  # NOTE: the element (or one around it) closed without a title
        if token.name in TITLES:
            return _title(text, token.end, entities, inline)
        if token.name in SECTIONING:
            return ""  # NOTE: a title is never past the next sectioning element (bounds the look)
        if token.name in WRAPPERS:
            depth += 1
        elif depth == 0:
            return _title(text, token.start, entities) if direct and token.name in INLINE else ""
    return ""


def _title(text: str, pos: int, entities: dict[str, str], inline: frozenset[str] = frozenset()) -> str:
    """A title's text from ``pos``: up to its end tag, a start tag that begins the body
    (``STOPS``, a sectioning element; inside a dropped element such as a footnote, its
    paragraphs are no body), the end tag of an element around it, or a blank line. Text in
    ``UPPER`` elements is set in capitals, an ``<accent>`` composed with its letter; ``inline``:
    elements of ``STOPS`` or ``SECTIONING`` that are inline in this document's DTD
    (``TEXINFO_INLINE``, ``DOCUTILS_INLINE``)."""
    parts: list[str] = []
    inner: list[str] = []  # elements opened inside the title
    marks: list[str] = []  # the combining mark of each open <accent>
    dropped = upper = 0
    for token in _tokens(text, pos):
        if token.start - pos > TITLE_CHARS:
            break
        if token.kind == "text":
            piece = text[token.start : min(token.end, pos + TITLE_CHARS)]
            blank = re.search(r"\n[ \t]*\n", piece)
            stop = bool(blank and "".join(parts).strip() + piece[: blank.start()].strip())
            if blank and stop:
                piece = piece[: blank.start()]
            if not dropped:
                piece = _references(piece, entities)
                parts.append(piece.upper() if upper else piece)
            if stop:
                break
            continue
        if token.kind == "empty":
            continue
        if token.kind == "start":
            if token.name not in inline and (
                token.name in SECTIONING or (token.name in STOPS and not dropped)
            ):
                break
            inner.append(token.name)
            dropped += token.name in DROPPED
            upper += token.name in UPPER
            if token.name == "accent":
                kind = _ACCENT_TYPE.search(text, token.start, token.end)
                marks.append(ACCENTS.get(kind.group(1), "") if kind else "")
            continue
        if token.name not in inner:
            break  # the title's own end tag, or an enclosing element's
        closed = inner[len(inner) - 1 - inner[::-1].index(token.name) :]
        del inner[len(inner) - len(closed) :]
        for name in reversed(closed):
            if name == "accent" and marks:
                mark = marks.pop()
                if not dropped:
                    parts.append(mark)
        dropped = sum(name in DROPPED for name in inner)
        upper = sum(name in UPPER for name in inner)
    return unicodedata.normalize("NFC", " ".join("".join(parts).split()))


def rendered(title: str, entities: dict[str, str] | None = None) -> str:
    """A title's source text as the book prints it: the doctype's literal entities, then HTML's
    named and numeric references, rendered; references to anything else dropped; white space
    collapsed."""
    return " ".join(_references(title, entities).split())


def _references(title: str, entities: dict[str, str] | None = None) -> str:
    """``title`` with its entity and character references rendered (``rendered``), white space
    kept."""
    defined = entities or {}

    def one(m: re.Match[str]) -> str:
        ref = m.group(0)
        name = ref[1:].rstrip(";")
        if name in defined:
            return defined[name]
        if ref == "&":
            return "&"
        ref = ref if ref.endswith(";") else ref + ";"
        out = html.unescape(ref)
        return "" if out == ref else out  # NOTE: unchanged: an entity nothing here defines

    return _ENTITY_REF.sub(one, title)
