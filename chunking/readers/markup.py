"""Stage 1 (read), markup sources: the section headings of an RTF, pandoc native, SGML/XML
(LinuxDoc, DebianDoc, DocBook, Texinfo XML, CommonMark XML, JATS, BITS, OPML, ICML, OpenDocument,
FictionBook, pandoc's XML), Texinfo, ConTeXt, LaTeX, LyX, POD, wiki, Jira, Textile,
AsciiDoc, Djot, Org or rST book.

Contract: ``markup_headings(text, suffix)`` recognises a text file written in one of four
lightweight markups (Org and reStructuredText: ``chunking.readers.markup_org`` and
``markup_rst``, also named by an ``.org`` or ``.rst`` file name) by what the text itself holds, and returns its section headings as its syntax defines
them, each at the exact offset where the heading's source line starts:

* **POD** (Perl's "plain old documentation", perlpodspec): ``=head1`` … ``=head6`` command
  paragraphs (level = the digit). A command starts at the start of a paragraph; verbatim
  (indented) paragraphs, ``=begin``/``=end`` data regions and ``=for`` paragraphs hold none.
  Formatting codes in a title are rendered (``C<dump>`` → ``dump``, ``E<gt>`` → ``>``; ``X<>``
  index entries and ``Z<>`` dropped), since the title is what a reader of the book sees.
* **AsciiDoc** (the AsciiDoc and Asciidoctor syntax): one-line titles ``= Title`` (level 0, the
  document title) to ``====== Title`` (level 5), and two-line titles underlined by ``=``, ``-``,
  ``~``, ``^``, ``+`` (levels 0-4) whose underline is as long as the title give or take two
  characters (the AsciiDoc rule; Asciidoctor's ±1 is stricter). Nothing inside a delimited block
  (listing ``----``, literal ``....``, example ``====``, sidebar ``****``, quote ``____``,
  passthrough ``++++``, comment ``////``, open ``--``, table ``|===``, fenced ```` ``` ````) is a
  title, nor a ``//`` comment line. A delimiter line that no identical line follows opens no
  block: Asciidoctor would run such a block to the end of the document (with a warning), but in
  a real book it is a rule of a neighbouring markup (RDoc's and Markdown's ``----``), and reading
  the rest of the book as a listing lost its last headings.
  MediaWiki's headings (``= Title =`` an ``<h1>``, ``== Section ==`` below, more signs deeper) read
  the same way but for the top: where two or more one-sign titles stand and every title is
  closed by signs (MediaWiki always closes; AsciiDoc's closing run is optional and rare), the
  one-sign titles are chapters, not a document title, and every level is one down.

A ``.txt`` is taken to be in one of these markups only on its own evidence: POD needs at least
``MIN_HEADINGS`` ``=head`` commands and AsciiDoc at least ``MIN_HEADINGS`` one-line section
titles below the document title, or a ``= Title`` document header on its first line and
``MIN_HEADINGS`` two-line titles; Org an Org keyword line (``#+TITLE:``) or block and
``MIN_HEADINGS`` headlines; rST a directive or two explicit markup lines (``.. _target:``) and
``MIN_HEADINGS`` section titles; a LyX document (``chunking.readers.markup_lyx``: its ``#LyX …
created this file`` and ``\\lyxformat`` header lines) comes before all, whatever the file's name;
an RTF document (``chunking.readers.markup_rtf``: its ``{\\rtf`` opening; paragraphs at an
``\\outlinelevel`` or in a ``heading N`` style) and pandoc's native syntax tree
(``chunking.readers.markup_native``: ``Pandoc`` and its ``Meta``, or a ``[`` and a block
constructor, ``[ Header``, ``[ Para``…, at the top; its ``Header`` blocks) come next, each
opening as no other markup's text can (no tag, no command, no heading line); an OPML outline
(``chunking.readers.markup_opml``: an ``<opml>`` root) then, an ICML story
(``chunking.readers.markup_icml``: an ``<?aid`` instruction before its ``<Document>``), an
OpenDocument text as XML (``chunking.readers.markup_odf``: an ``<office:document>`` root), a
FictionBook (``chunking.readers.markup_fb2``: a ``<FictionBook>`` root) and pandoc's XML
(``chunking.readers.markup_pandocxml``: a ``<Pandoc>`` root, its ``<Header level>`` blocks); a JATS journal article or BITS book (``chunking.readers.markup_jats``: a JATS, NLM or BITS
doctype, or an ``<article>``/``<book>`` root whose first child is JATS's ``<front>``, BITS's
``<book-meta>``…, never its name) is tried next, before the other XML vocabularies whose
``<article>`` and ``<book>`` roots it shares; a TEI document (``chunking.readers.markup_tei``: a
``<TEI>``, ``<teiCorpus>`` or ``<TEI.2>`` root) then; an SGML or XML source (``chunking.readers.markup_sgml``: LinuxDoc, DebianDoc, DocBook or Texinfo
XML, by its doctype, or a root element of theirs and ``MIN_HEADINGS`` sectioning elements, its
first non-blank character opening markup; never an HTML page) is tried first of the rest, no other markup starting with a tag, then a Texinfo source (``chunking.readers.markup_texinfo``: its
``\\input texinfo`` line, or ``@node`` lines and ``@settitle``) is tried first, its ``@chapter``
lines being unlike any other markup's, then a ConTeXt source (``chunking.readers.markup_context``:
its ``\\starttext`` body, no LaTeX ``\\documentclass``; ``\\startchapter[title=…]``,
``\\startsectionlevel`` nested, ``\\section{…}``), then a LaTeX source (``chunking.readers.markup_latex``:
``\\documentclass`` or ``\\begin{document}``, or its sectioning commands with its
``\\usepackage``/``\\begin``), then an Emacs Muse source (``chunking.readers.markup_muse``: a
``#title`` or ``#author`` directive at the top and ``*`` headings), then a troff source
(``chunking.readers.markup_troff``: man, ms, me or mm requests), then a Typst source
(``chunking.readers.markup_typst``: ``=`` heading lines, one sign the top, beside ``#set``/``#show``
lines or ``<label>``s, its title a ``title:`` argument); a DokuWiki or Zim page (``chunking.readers.markup_wiki``) is
tried after POD and before AsciiDoc, whose one-line titles it shares with its signs counted the
other way, and after it a Jira (Confluence) wiki page, then a Textile page
(``chunking.readers.markup_textile``: ``MIN_HEADINGS`` ``h1.`` … ``h6.`` heading lines, Jira
told by its ``{code}``/``{anchor:…}`` macros), then a BBCode text
(``chunking.readers.markup_bbcode``: paragraphs wholly one title in emphasis tags, ``[b]Title[/b]``,
with BBCode's own ``[url=…]``/``[code]`` tags besides). The markups are tried in that order; then a Djot
text (``djot_headings``: ``MIN_ATX`` ATX headings each under a ``{#id}`` block attribute line,
which would keep a Markdown reading from seeing them stand apart) is read as Djot; last, a ``.txt`` with ``MIN_ATX`` Markdown ATX
headings standing apart (``looks_like_markdown``: a README, a Markdown renderer's terminal output)
is read as Markdown (``chunking.readers.markdown``). A plain-text book whose titles are merely underlined
(``INTRODUCTION`` over ``====``) is not AsciiDoc by that alone: the plain-text structure
(``chunking.structure.plain_text``) reads those. A text written for a terminal is read with its
escape sequences removed (``_unescaped``), its headings' offsets the source's.

The text a source's chunks are cut from is the source itself, except a LyX document's:
``markup_source(text, suffix)`` gives its rendering (``markup_lyx``: line for line, the text
the document prints, so ``#L<n>`` of the file is line *n* of it), with headings at offsets into
that rendering; ``markup_headings`` gives a LyX document's headings at the starts of the same
lines of the source.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from itertools import accumulate

from ..normalise.terminal import ESCAPE

from .markdown import markdown_headings
from .markup_bbcode import bbcode_headings
from .markup_context import context_headings
from .markup_latex import latex_headings
from .markup_lyx import lyx_source
from .markup_muse import muse_headings
from .markup_jats import jats_headings
from .markup_org import looks_like_org, org_headings
from .markup_rst import looks_like_rst, rst_headings
from .markup_fb2 import fb2_headings
from .markup_pandocxml import pandoc_xml_headings
from .markup_native import native_headings
from .markup_rtf import rtf_headings
from .markup_icml import icml_headings
from .markup_odf import odf_headings
from .markup_opml import opml_headings
from .markup_sgml import sgml_headings
from .markup_tei import tei_headings
from .markup_texinfo import texinfo_headings
from .markup_textile import jira_headings, textile_headings
from .markup_typst import typst_headings
from .markup_troff import troff_headings
from .markup_wiki import wiki_headings
from .markup_heading import Heading

ENCODED = frozenset(("rtf", "native", "troff"))
"""Markups whose text before the first heading is no text the document sets (RTF's control words
and groups, pandoc's syntax tree, troff's requests and comments: a man page's title is its
``.TH``, an ms paper's its ``.TL``, which the troff reader reads): the structure stage reads
nothing above their first heading as a title or contents set as plain text."""

MIN_HEADINGS = 2
"""How many headings of its syntax a text needs before it is read as POD or AsciiDoc."""


def markup_source(text: str, suffix: str = "") -> tuple[str, str, list[Heading]]:
    """The text a source's chunks are cut from, its markup and its headings (offsets into that
    text): a LyX document's rendering, line for line (``chunking.readers.markup_lyx``: its
    source is more markup than text), else the text itself with ``markup_headings``.

    Args:
        text (str): the book's text with ``"\\n"`` line ends.
        suffix (str): the file's extension, lower case (``markup_headings``).

    Returns:
        tuple[str, str, list[Heading]]: ``(text, markup, headings)``; ``markup`` is ``"lyx"``
        for a LyX document, else as ``markup_headings`` says.
    """
    lyx = lyx_source(text)
    if lyx is not None:
        return lyx[0], "lyx", lyx[1]
    return (text, *markup_headings(text, suffix))


def markup_headings(text: str, suffix: str = "") -> tuple[str, list[Heading]]:
    """The markup a text is written in and its headings.

    Args:
        text (str): the book's text with ``"\\n"`` line ends.
        suffix (str): the file's extension, lower case: ``.rst``, ``.org``, ``.tex``, ``.texi``,
            ``.sgml`` and ``.xml`` name their markup (one heading then suffices); any other is
            judged by the text alone.

    Returns:
        tuple[str, list[Heading]]: ``("markdown", …)``, ``("rtf", …)``, ``("native", …)``, ``("opml", …)``, ``("icml", …)``, ``("odf", …)``, ``("fb2", …)``, ``("pandoc-xml", …)``, ``("jats", …)``, ``("tei", …)``, ``("sgml", …)``, ``("texinfo", …)``, ``("context", …)``, ``("latex", …)``, ``("muse", …)``, ``("troff", …)``, ``("pod", …)``, ``("typst", …)``, ``("wiki", …)``,
        ``("jira", …)``, ``("textile", …)``, ``("bbcode", …)``, ``("asciidoc", …)``, ``("djot", …)``, ``("org", …)``, ``("rst", …)``, or ``("", [])`` when the text is none of them; headings in order,
        empty titles left out.
    """
    lines = text.split("\n")
    starts = _line_starts(lines)
    lyx = lyx_source(text)
    if lyx is not None:
        # NOTE: the rendering keeps the source's lines: a heading's line is the same here
        rendering, found = lyx
        line = at = 0
        source: list[Heading] = []
        for offset, level, title in found:  # NOTE: in order: the lines are counted once
            line, at = line + rendering.count("\n", at, offset), offset
            source.append((starts[line], level, title))
        return "lyx", source
    if "\x1b" in text and ESCAPE.search(text):
        return _unescaped(text, suffix)
    return _read_markup(text, lines, starts, suffix)


def _read_markup(text: str, lines: list[str], starts: list[int], suffix: str) -> tuple[str, list[Heading]]:
    """``markup_headings`` of a text that is no LyX document, its ``lines`` starting at ``starts``."""
    if suffix == ".org":
        return _named("org", org_headings(lines, starts))
    if suffix == ".rst":
        return _named("rst", rst_headings(lines, starts))
    # NOTE: in this order: each reader recognises its markup by the text's own marks and says
    # None for a text that is not in it (see the module docstring).
    recognisers: list[tuple[str, Callable[[], list[Heading] | None]]] = [
        ("rtf", lambda: rtf_headings(text)),
        ("native", lambda: native_headings(text)),
        ("opml", lambda: opml_headings(text)),
        ("icml", lambda: icml_headings(text)),
        ("odf", lambda: odf_headings(text)),
        ("fb2", lambda: fb2_headings(text)),
        ("pandoc-xml", lambda: pandoc_xml_headings(text)),
        ("jats", lambda: jats_headings(text)),
        ("tei", lambda: tei_headings(text)),
        ("sgml", lambda: sgml_headings(text, named=suffix in (".sgml", ".xml"))),
        ("texinfo", lambda: texinfo_headings(lines, starts, named=suffix == ".texi")),
        ("context", lambda: context_headings(lines, starts, named=suffix == ".tex")),
        ("latex", lambda: latex_headings(lines, starts, named=suffix == ".tex")),
        ("muse", lambda: muse_headings(lines, starts)),
        ("troff", lambda: troff_headings(lines, starts)),
        ("pod", lambda: pod if len(pod := pod_headings(lines, starts)) >= MIN_HEADINGS else None),
        ("typst", lambda: typst_headings(lines, starts)),
        ("wiki", lambda: wiki_headings(lines, starts)),
        ("jira", lambda: jira_headings(lines, starts)),
        ("textile", lambda: textile_headings(lines, starts)),
        ("bbcode", lambda: bbcode_headings(lines, starts)),
        ("asciidoc", lambda: asciidoc_headings(lines, starts)),
    ]
    for markup, recognise in recognisers:
        headings = recognise()
        if headings is not None and (markup not in _LIGHT or _spread(headings, len(text))):
            return markup, headings
    if looks_like_org(lines):
        org = org_headings(lines, starts)
        if sum(level >= 1 for _, level, _ in org) >= MIN_HEADINGS and _spread(org, len(text)):
            return "org", org
    if looks_like_rst(lines):
        rst = rst_headings(lines, starts)
        if len({title for _, _, title in rst}) >= MIN_HEADINGS and _spread(rst, len(text)):
            # NOTE: distinct titles: a text about the markup shows its title styles on one
            # example title (``Section Title`` under each adornment), and is not written in it
            return "rst", rst
    djot = djot_headings(text, lines, starts)
    if djot is not None and _spread(djot, len(text)):
        return "djot", djot
    if looks_like_markdown(lines):
        headings = markdown_headings(text)
        if _spread(headings, len(text)):
            return "markdown", headings
    return "", []


def _line_starts(lines: list[str]) -> list[int]:
    """The offset each of ``lines`` starts at in the text they were split from at ``"\\n"``."""
    return [0, *accumulate(len(line) + 1 for line in lines[:-1])]


def _unescaped(text: str, suffix: str) -> tuple[str, list[Heading]]:
    """``markup_headings`` of a text written for a terminal, read with its escape sequences
    removed (``chunking.normalise.terminal.ESCAPE``: they are no text, and a renderer's styled
    ``## Title`` line opens with one), each heading's offset moved back into ``text``: after
    the character before it, so a line's heading starts at the line's first escape. A terminal
    renderer wraps a long heading with its marks repeated on each line (lowdown's ``## ``), and
    sets headings apart by blank lines: Markdown headings of one level on consecutive lines are
    one heading, at its first line, the titles joined."""
    escapes = list(ESCAPE.finditer(text))
    plain, at = [], 0
    for m in escapes:
        plain.append(text[at : m.start()])
        at = m.end()
    plain.append(text[at:])
    stripped = "".join(plain)
    kept_before = list(accumulate(len(piece) for piece in plain[:-1]))  # plain characters before escape j
    removed = list(accumulate(m.end() - m.start() for m in escapes))
    lines = stripped.split("\n")
    starts = _line_starts(lines)
    markup, headings = _read_markup(stripped, lines, starts, suffix)
    out: list[Heading] = []
    last = -2  # the line of the last heading kept
    for offset, level, title in headings:
        line = bisect_left(starts, offset + 1) - 1
        if markup == "markdown" and out and line == last + 1 and out[-1][1] == level:
            out[-1], last = (out[-1][0], level, f"{out[-1][2]} {title}"), line
            continue
        last = line
        j = bisect_left(kept_before, offset)  # escapes standing after fewer than ``offset`` characters
        out.append((offset + (removed[j - 1] if j else 0), level, title))
    return markup, out


_LIGHT = ("wiki", "jira", "textile", "bbcode", "asciidoc")
"""Markups whose marks a text may show as an example (``==== title ====`` in a shell script's
output, ``== Title`` in a quoted snippet): read by the text alone only when their headings
structure it (``_spread``). The marks of the others (``@chapter``, ``\\section``, ``.SH``, XML
elements, ``=head1``) are the file's own."""

SPREAD_SHARE = 0.1
"""Share of a text the headings of a markup read by its marks alone must span (``_spread``)."""


def _spread(headings: list[Heading], size: int) -> bool:
    """Whether ``headings`` (of a text ``size`` characters long) span at least ``SPREAD_SHARE``
    of it, first to last: a few headings bunched in one place are an example the text quotes
    (a wiki page's or a script's ``==== title ====`` lines in a manual), not its structure."""
    if len(headings) < 2 or not size:
        return bool(headings)
    return headings[-1][0] - headings[0][0] >= SPREAD_SHARE * size


MIN_ATX = 3
"""ATX headings (``## Title``) a ``.txt`` needs before it is read as Markdown."""

ATX_WORDS = 16
"""Words an ATX heading's title may have (``_heading_like``)."""

ATX_SHARE = 0.8
"""Share of the margin's ``#`` lines that must be headings standing apart (``looks_like_markdown``)."""

_ATX = re.compile(r"#{1,6}[ \t]+\S")
_FENCE = re.compile(r"(`{3,}|~{3,})")


def _heading_like(title: str) -> bool:
    """A heading's title, not a comment's sentence: at most ``ATX_WORDS`` words, no sentence end
    (``.``, ``;``, ``,``; a title may end in ``?``, ``!`` or ``)``: an API entry's
    ``filehandle.chmod(mode)``)."""
    return len(title.split()) <= ATX_WORDS and title[-1:] not in ".;,"


def looks_like_markdown(lines: list[str]) -> bool:
    """Whether a text that is no other markup is Markdown by its ATX headings: at least
    ``MIN_ATX`` lines ``#`` … ``######`` and a heading-like title (``_heading_like``), flush left,
    with a blank line (or the text's edge) on both sides, outside fenced code, and ``ATX_SHARE``
    of the lines that open with ``#`` at the margin so. A configuration file's or a script's
    comments at the margin run on into each other or into their commands and read as sentences;
    a Markdown heading in a ``.txt`` (a README, a renderer's terminal output) stands apart as the
    format writes it."""
    apart = marked = 0
    fence = ""
    for i, line in enumerate(lines):
        opened = _FENCE.match(line)
        if opened and (not fence or opened.group(1).startswith(fence)):
            fence = "" if fence else opened.group(1)[:3]
            continue
        if fence or not line.startswith("#") or line.startswith("#!"):
            continue
        marked += 1
        if not _ATX.match(line):
            continue
        before = i == 0 or not lines[i - 1].strip()
        after = i + 1 == len(lines) or not lines[i + 1].strip()
        apart += before and after and _heading_like(line.lstrip("#").strip())
    return apart >= MIN_ATX and apart >= ATX_SHARE * marked


_ATTRIBUTES = re.compile(
    r"\{(?:[ \t]*(?:#[\w:.-]+|\.[\w-]+|[\w-]+=(?:\"[^\"]*\"|[^\s}]+)|%[^%]*%))+[ \t]*\}[ \t]*"
)
"""A Djot block attribute line: ``{#id}``, ``{.class}``, ``{key="value"}``, ``{% comment %}``."""


def djot_headings(text: str, lines: list[str], starts: list[int]) -> list[Heading] | None:
    """The headings of a Djot text, or None when the text does not read as Djot.

    Djot writes its headings as Markdown's ATX headings, often with a block attribute line
    (``_ATTRIBUTES``: ``{#id}``) right above, which belongs to the heading: the heading's source
    starts there. A text is Djot when ``MIN_ATX`` of its ATX headings have attribute lines
    above them that start a block (a blank line or the text's edge above) and, those lines set
    aside, it reads as Markdown (``looks_like_markdown``); its headings are then read as
    Markdown's, the attribute lines blanked, each heading's offset moved up to its attribute
    lines.
    """
    attribute = [_ATTRIBUTES.fullmatch(line) is not None for line in lines]
    if sum(attribute) < MIN_ATX:
        return None
    attributed = 0
    for i, line in enumerate(lines):
        if attribute[i] or not _ATX.match(line):
            continue
        first = i
        while first > 0 and attribute[first - 1]:
            first -= 1
        attributed += first < i and (first == 0 or not lines[first - 1].strip())
    if attributed < MIN_ATX or not looks_like_markdown(
        [line for i, line in enumerate(lines) if not attribute[i]]
    ):
        return None
    # NOTE: blanked in place: the offsets stay the text's
    blanked = "\n".join(" " * len(line) if attribute[i] else line for i, line in enumerate(lines))
    index = {start: i for i, start in enumerate(starts)}
    out: list[Heading] = []
    for offset, level, title in markdown_headings(blanked):
        at = index.get(offset)
        while at is not None and at > 0 and attribute[at - 1]:
            at -= 1
        out.append((starts[at] if at is not None else offset, level, title))
    return out


def _named(markup: str, headings: list[Heading]) -> tuple[str, list[Heading]]:
    return (markup, headings) if headings else ("", [])


# --- POD -------------------------------------------------------------------------------------

_COMMAND = re.compile(r"=([a-zA-Z][a-zA-Z0-9]*)(?:[ \t]+(.*))?$")
_HEAD = re.compile(r"head([1-6])")


def pod_headings(lines: list[str], starts: list[int]) -> list[Heading]:
    """The ``=headN`` commands of a POD text (perlpodspec): a command is a paragraph whose first
    line starts with ``=`` and a letter; its text runs to the paragraph's end. ``=begin X`` …
    ``=end X`` (X not starting with ``:``) and ``=for`` hold data, not headings."""
    out: list[Heading] = []
    region: list[str] = []  # open =begin regions whose content is data
    paragraph_start = True
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if not line.strip():
            paragraph_start = True
            i += 1
            continue
        command = _COMMAND.match(line) if paragraph_start else None
        paragraph_start = False
        if command is None:
            i += 1
            continue
        name, rest = command.group(1), command.group(2) or ""
        body = [rest]
        j = i + 1
        while j < n and lines[j].strip():
            body.append(lines[j])
            j += 1
        words = " ".join(" ".join(body).split())
        if name == "begin":
            region.append(words.split(" ")[0] if words else "")
        elif name == "end" and region:
            region.pop()
        head = _HEAD.fullmatch(name)
        data = any(not r.startswith(":") for r in region)
        if head and not data:
            title = render_pod(words)
            if title:
                out.append((starts[i], int(head.group(1)), title))
        i = j
    return out


_NUMERIC = re.compile(r"(0[xX][0-9a-fA-F]+)|(0[0-7]+)|[0-9]+")
"""``E<0x41>`` (hex), ``E<0101>`` (octal), ``E<65>`` (decimal)."""
_ENTITIES = {"lt": "<", "gt": ">", "verbar": "|", "sol": "/", "quot": '"', "amp": "&", "nbsp": "\u00a0"}


def render_pod(text: str) -> str:
    """``text`` with POD formatting codes rendered: ``B<…>``, ``I<…>``, ``C<…>``, ``F<…>``,
    ``S<…>`` give their content, ``L<text|target>`` its text (else its target), ``E<name>`` the
    character, ``X<…>`` and ``Z<>`` nothing. Codes nest, and ``C<< … >>`` (more brackets, then a
    space) holds ``>`` freely."""
    out, _ = _render(text, 0, None)
    return " ".join(out.split())


def _render(text: str, i: int, close: str | None) -> tuple[str, int]:
    """Render from ``i`` up to ``close`` (None: the end); return the text and where it stopped
    (after ``close``)."""
    parts: list[str] = []
    n = len(text)
    while i < n:
        if close is not None and text.startswith(close, i):
            return "".join(parts), i + len(close)
        code = text[i]
        if code in "BICFSLEXZ" and i + 1 < n and text[i + 1] == "<":
            j = i + 1
            while j < n and text[j] == "<":
                j += 1
            brackets = j - i - 1
            if brackets > 1 and j < n and text[j] in " \t":
                inner, i = _render(text, j + 1, " " + ">" * brackets)
                inner = inner.strip()
            else:
                inner, i = _render(text, i + 2, ">")
            parts.append(_code(code, inner))
            continue
        parts.append(code)
        i += 1
    return "".join(parts), i


def _code(code: str, inner: str) -> str:
    if code in "XZ":
        return ""
    if code == "E":
        number = _NUMERIC.fullmatch(inner)
        if number is None:
            return _ENTITIES.get(inner, "")
        value = int(inner[2:], 16) if number.group(1) else int(inner, 8 if number.group(2) else 10)
        return chr(value) if value <= 0x10FFFF and not 0xD800 <= value <= 0xDFFF else ""
    if code == "L":
        return inner.split("|", 1)[0] if "|" in inner else inner
    return inner


# --- AsciiDoc --------------------------------------------------------------------------------

_ONE_LINE = re.compile(r"(={1,6})[ \t]+(\S.*?)(?:[ \t]+=+)?[ \t]*$")
_CLOSED = re.compile(r"\S[ \t]+=+[ \t]*$")
"""A one-line title closed by a run of signs (``= Title =``), as MediaWiki writes every heading."""
_TIGHT = re.compile(r"(={1,6})([^=\s](?:.*?[^=\s])?)\1[ \t]*$")
"""A MediaWiki title set tight between runs of one length (``==Title==``): no AsciiDoc title (one
wants a space after its signs), so it counts as closed."""
_UNDERLINE_LEVEL = {"=": 0, "-": 1, "~": 2, "^": 3, "+": 4}
_DELIMITER = re.compile(r"(-{4,}|\.{4,}|={4,}|\*{4,}|_{4,}|\+{4,}|/{4,}|--|\|={3,}|`{3}.*)[ \t]*$")
_LETTER = re.compile(r"[^\W_]")
UNDERLINE_SLACK = 2
"""How much longer or shorter than its title an AsciiDoc two-line title's underline may be."""


def _underline(title: str, line: str) -> int | None:
    """The level ``line`` gives ``title`` as its underline, or None."""
    mark = line.rstrip()
    if len(mark) < 2 or mark[0] not in _UNDERLINE_LEVEL or mark != mark[0] * len(mark):
        return None
    if (
        not re.search(r"\w", title)
        or title[0] in " \t.[/<|"
        or abs(len(title.rstrip()) - len(mark)) > UNDERLINE_SLACK
    ):
        return None
    return _UNDERLINE_LEVEL[mark[0]]


_INLINE_ANCHOR = re.compile(r"\[\[[^\]]*\]\]|\[#[^\]#]*\]#([^#]*)#|\[#[^\]#]*\]")
"""AsciiDoc's inline anchors in a title, as the page does not show them: ``[[intro]]``, and an
id on a marked run, ``[#INTRO]#Chapter 1 - Introduction#`` (pandoc writes each heading's HTML
id so), whose text stays."""


def _asciidoc_title(title: str) -> str:
    """A section title as the page shows it: its anchors dropped (``_INLINE_ANCHOR``), whitespace
    collapsed."""
    if "[" in title:
        title = _INLINE_ANCHOR.sub(lambda m: m.group(1) or "", title)
    return " ".join(title.split())


def asciidoc_headings(lines: list[str], starts: list[int]) -> list[Heading] | None:
    """The section titles of an AsciiDoc text, or None when the text does not read as AsciiDoc
    (see the module docstring)."""
    one_line: list[Heading] = []
    two_line: list[Heading] = []
    fence: str | None = None  # the delimiter line that closes the open block
    closed = 0  # one-line titles closed by signs (``= Title =``)
    i, n = 0, len(lines)
    last: dict[
        str, int
    ] = {}  # NOTE: where each line last occurs: a delimiter never seen again closes nothing
    for k, text in enumerate(lines):
        last[text.rstrip()] = k
    while i < n:
        line = lines[i].rstrip()
        if fence is not None:
            if line == fence:
                fence = None
            i += 1
            continue
        if i + 1 < n and line and line == line.lstrip():
            level = _underline(line, lines[i + 1])
            if level is not None and not _ONE_LINE.match(line):
                two_line.append((starts[i], level, " ".join(line.split())))
                i += 2
                continue
        if line.startswith("//") and not line.startswith("////"):
            i += 1
            continue
        delimiter = _DELIMITER.fullmatch(line)
        if delimiter:
            closing = "```" if line.startswith("```") else line
            if last.get(closing, -1) > i:
                fence = closing
                i += 1
                continue
        title = _ONE_LINE.fullmatch(line) or _TIGHT.fullmatch(line)
        if title and _LETTER.search(title.group(2)):  # NOTE: ``=====  =====`` is a table's border
            one_line.append((starts[i], len(title.group(1)) - 1, _asciidoc_title(title.group(2))))
            closed += bool(_CLOSED.search(line)) or title.re is _TIGHT
        i += 1
    if closed == len(one_line) and sum(level == 0 for _, level, _ in one_line) >= MIN_HEADINGS:
        one_line = [(offset, level + 1, title) for offset, level, title in one_line]  # MediaWiki's
    sections = [h for h in one_line if h[1] >= 1]
    first = next((line for line in lines if line.strip() and not line.startswith("//")), "")
    header = _ONE_LINE.fullmatch(first.rstrip()) is not None and first.startswith("= ")
    if len(sections) >= MIN_HEADINGS:
        return sorted(one_line + two_line)
    if header and len(two_line) >= MIN_HEADINGS:
        return sorted(one_line + two_line)
    return None
