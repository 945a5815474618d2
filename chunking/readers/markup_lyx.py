"""Stage 1 (read), LyX source: a ``.lyx`` document (LyX 1.4 and later, ``\\begin_layout`` files)
rendered as the text a reader sees, line for line, with its sectioning layouts as headings.

A LyX file is LyX's own markup, not text: a header (``\\textclass``, a LaTeX preamble, branch
and author lists) up to ``\\begin_body``, then every paragraph a ``\\begin_layout Name`` …
``\\end_layout`` block whose text runs over lines that join without a separator (LyX breaks a long
line before a space, so the next line starts with it), between lines of markup: font changes
(``\\family sans``, ``\\emph on``), paragraph settings (``\\align center``), escapes
(``\\backslash`` for ``\\``, ``\\SpecialChar LyX`` for the logo) and insets (``\\begin_inset …``
… ``\\end_inset``: notes, footnotes, index entries, labels, formulas, quotes, raw LaTeX ``ERT``,
tables, floats), which hold parameter lines and layouts of their own. Most of its lines are
markup, so its chunks would hold more markup than text.

``lyx_source(text)`` returns the document's **rendering** and its headings, or None when the text
is no LyX document. The rendering keeps the source's lines: line *i* of it stands for line *i*
of the source (a ground truth, a search hit or a crossings bench naming ``#L<n>`` of the file
names the same line of the text the chunks are cut from), and

* a paragraph's text stands on its ``\\begin_layout`` line, rendered: font and paragraph
  commands dropped, ``\\backslash`` → ``\\``, ``\\SpecialChar LyX`` → ``LyX`` (``SPECIAL``),
  quotes as the glyphs of their style (``QUOTES``), spaces and line breaks as a space, a
  formula as its LaTeX (a displayed one set apart by spaces), a link as its name, a table row
  as its cells joined by ``" | "`` on the row's line, an ``Itemize`` item after ``•``, an
  ``Enumerate`` item after its number, a ``Bibliography`` item after its ``[label]``; every
  other line is empty;
* what the printed document does not show is not rendered: the header and preamble, notes
  (``Note Note``, ``Note Comment``), raw LaTeX (``ERT``), index and nomenclature entries,
  labels, cross-references and citations (their numbers are LaTeX's to compute), optional
  arguments, ``Info`` insets, graphics, a branch the header does not select, and text deleted
  under change tracking;
* a footnote, a margin note, a float, a box, a listing, a selected branch or a greyed-out note
  is a block: its paragraphs stand on their own lines, after the paragraph that holds it; any
  other inset (``Flex`` character styles, captions, table cells) is read into its paragraph.

Headings: ``\\begin_layout Title`` is the document's title (level 0); ``Part``, ``Chapter``,
``Section``, ``Subsection``, ``Subsubsection``, their starred forms and KOMA-Script's
``Addpart``/``Addchap``/``Addsec`` (unnumbered) are LaTeX's ``\\part`` … ``\\subsubsection``
(``chunking.readers.markup_latex``'s levels and numbers: ``3 Title``, ``3.2 Title``, ``Part I
Title``; numbered down to the header's ``\\secnumdepth``), and ``\\start_of_appendix`` in a
paragraph is LaTeX's ``\\appendix`` before it (``Appendix A Title``, ``A.1 Title``). Units LaTeX
prints under a fixed name: a ``CommandInset toc`` ("Contents"), a run of ``Bibliography``
paragraphs or a ``CommandInset bibtex`` ("Bibliography", "References" without chapters), a
``CommandInset index_print`` (its ``name``, else "Index") and ``nomencl_print``
("Nomenclature"). A heading's title is its paragraph rendered (insets the page does not show
left out) and stands, with its number, on its line of the rendering, where its offset is: the
``\\begin_layout`` line, the inset's line for a named unit (a ``Bibliography`` run's first item
then moves to the next line). Only a paragraph of the body is a heading: one inside an inset
(a note, a footnote, a box, a table) is none, except inside a selected branch, which LaTeX
prints in place.

A text is a LyX document only on its own evidence: its first non-blank line is LyX's ``#LyX
<version> created this file`` with a ``\\lyxformat`` line right after (``HEADER_LINES``), and it has
a ``\\begin_body``; whatever its file's name. Malformed markup never raises: an unclosed
inset or layout ends with the document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .markup_latex import DEPTHS, levelled
from .markup_heading import Heading


HEADER_LINES = 4
"""The ``\\lyxformat`` line is at most this many lines below the ``#LyX`` line."""

HEADER_CHARS = 2000
"""How much of the text's start is read to find those lines."""

SECTIONING = {
    "Title": ("title", False),
    **{name: (name.lower(), False) for name in ("Part", "Chapter", "Section", "Subsection", "Subsubsection")},
    **{
        f"{name}*": (name.lower(), True)
        for name in ("Part", "Chapter", "Section", "Subsection", "Subsubsection")
    },
    "Addpart": ("part", True),
    "Addchap": ("chapter", True),
    "Addsec": ("section", True),
}
"""Layout → (the LaTeX command it is, starred: unnumbered)."""

NAMED_INSETS = {
    "toc": ("tableofcontents", ""),
    "bibtex": ("bibliography", ""),
    "index_print": ("printindex", ""),
    "nomencl_print": ("printnomenclature", "Nomenclature"),
}
"""``CommandInset`` → (the LaTeX command that prints a unit under a fixed name, its title;
``""``: ``markup_latex.NAMED``'s, or an ``index_print``'s ``name``)."""

SPECIAL = {
    "LyX": "LyX", "TeX": "TeX", "LaTeX": "LaTeX", "LaTeX2e": "LaTeX2e", "ldots": "…", "\\ldots{}": "…",
    "menuseparator": "▸", "\\menuseparator": "▸", "slash": "/", "\\slash{}": "/", "nobreakdash": "-",
    "\\nobreakdash-": "-", "softhyphen": "", "\\-": "", "ligaturebreak": "", "\\textcompwordmark{}": "",
    "endofsentence": "", "\\@.": "", "allowbreak": "",
}  # fmt: skip
"""``\\SpecialChar X`` (LyX 2.2 and later, and the ``\\``-spelled names of older formats) → text."""

QUOTES = {
    "e": "“”‘’", "s": "””’’", "g": "„“‚‘", "p": "„”‚’", "c": "«»‹›", "a": "»«›‹", "q": "\"\"''",
    "b": "‘’“”", "w": "»»››", "f": "«»“”", "i": "«»«»", "r": "«»„“", "j": "「」『』", "k": "《》〈〉",
    "h": "„”»«", "x": "“”‘’",
}  # fmt: skip
"""A ``Quotes`` inset's style letter → its left and right double, left and right single marks
(``Quotes eld`` is English, left, double: “); ``x``, dynamic, is the header's
``\\quotes_style``."""

QUOTES_STYLES = {
    "english": "e", "swedish": "s", "german": "g", "polish": "p", "swiss": "c", "danish": "a", "plain": "q",
    "british": "b", "swedishg": "w", "french": "f", "frenchin": "i", "russian": "r", "cjk": "j",
    "cjkangle": "k", "hungarian": "h",
}  # fmt: skip
"""The header's ``\\quotes_style`` → its letter."""

BLOCK = frozenset(("Foot", "Marginal", "Float", "Wrap", "Box", "listings", "Note Greyedout", "Branch"))
"""Insets whose paragraphs stand on their own lines (a selected ``Branch`` only)."""

DROPPED = frozenset(
    "ERT Note Index Nomenclature Argument OptArg Info Phantom Graphics External VSpace FormulaMacro "
    "Include Newpage Separator Line".split()
)
"""Insets the printed page does not show as text (``Note`` but ``Note Greyedout``)."""

GLYPHS = {"space": " ", "Newline": " ", "Quotes": ""}
"""Insets that are one character of the paragraph (a ``Quotes`` inset's is its style's)."""

_FIRST = re.compile(r"\S")
_SPACES = re.compile(r"  +")
FREE_SPACING = frozenset(("LyX-Code", "Verbatim", "Verbatim*"))
"""Layouts whose spaces are the author's, kept as they are (code; so are a listing's lines)."""

_HEADER = re.compile(r"#LyX \S+ created this file")
_FORMAT = re.compile(r"\\lyxformat \d+\s*$")
_PARAMETER = re.compile(r'(\w+)\s+(?:"((?:[^"\\]|\\.)*)"|(\S.*))?$')


@dataclass
class _Layout:
    name: str
    line: int
    heading: bool  # a paragraph of the body (or of a selected branch): may be a heading
    pieces: list[str] = field(default_factory=list)
    appendix: bool = False
    deleted: bool = False  # inside text deleted under change tracking


@dataclass
class _Inset:
    kind: str  # body, block, inline, cell, drop, formula, glyph, command, tabular
    line: int
    head: str
    transparent: bool = False  # a heading inside counts (the body, a selected branch in one)
    pieces: list[str] = field(default_factory=list)
    params: dict[str, str] = field(default_factory=dict)
    cells: list[str] = field(default_factory=list)
    row: int = -1
    depth: int = 0  # \begin_deeper nesting of the paragraphs it holds
    last: str = ""  # the layout of its last paragraph (a Bibliography run)
    numbers: dict[int, int] = field(default_factory=dict)  # Enumerate counters by depth


def looks_like_lyx(text: str) -> bool:
    """Whether a text is a LyX document by its own header (module docstring). Reads only the
    text's first lines."""
    first = _FIRST.search(text)
    if first is None:
        return False
    start = text.rfind("\n", 0, first.start()) + 1  # NOTE: the first non-blank line's start
    if not _HEADER.match(text, start):
        return False
    head = text[start : start + HEADER_CHARS].split("\n")[1 : 1 + HEADER_LINES]
    return any(_FORMAT.match(line) for line in head)


def lyx_source(text: str) -> tuple[str, list[Heading]] | None:
    """A LyX document's rendering and its headings (offsets into the rendering), or None when
    the text is no LyX document (module docstring)."""
    if not looks_like_lyx(text):
        return None
    lines = text.split("\n")
    body = next((i for i, line in enumerate(lines) if line.rstrip() == "\\begin_body"), None)
    if body is None:
        return None
    out, found = _render(lines, body, _header(lines[:body]))
    rendering = "\n".join(out)
    starts = [0] * len(out)
    for i in range(1, len(out)):
        starts[i] = starts[i - 1] + len(out[i - 1]) + 1
    return rendering, [(starts[line], level, title) for line, level, title in found]


@dataclass
class _Settings:
    secnumdepth: int | None = None
    branches: set[str] = field(default_factory=set)  # the selected ones
    quotes: str = "e"  # the document's quote style (a dynamic ``Quotes x…``)


def _header(lines: list[str]) -> _Settings:
    """What the header says that the body's rendering needs: the numbering depth, the selected
    branches."""
    settings = _Settings()
    branch = ""
    preamble = False
    for line in lines:
        line = line.rstrip()
        if preamble:
            preamble = line != "\\end_preamble"
            continue
        if line == "\\begin_preamble":
            preamble = True
        elif line.startswith("\\secnumdepth "):
            value = line.split()[1] if len(line.split()) > 1 else ""
            settings.secnumdepth = int(value) if re.fullmatch(r"-?\d{1,2}", value) else None
        elif line.startswith("\\quotes_style "):
            settings.quotes = QUOTES_STYLES.get(line.split()[-1], "e")
        elif line.startswith("\\branch "):
            branch = line[len("\\branch ") :].strip()
        elif line == "\\selected 1" and branch:
            settings.branches.add(branch)
        elif line == "\\end_branch":
            branch = ""
    return settings


def _render(lines: list[str], body: int, settings: _Settings) -> tuple[list[str], list[Heading]]:
    """The rendering's lines and the headings (line index, level, title) of the body that
    starts after line ``body``."""
    out = [""] * len(lines)
    found: list[tuple[int, str, str, bool]] = []  # (line, LaTeX command, title, starred)
    stack: list[_Layout | _Inset] = [_Inset("body", body, "", transparent=True)]
    for i in range(body + 1, len(lines)):
        line = lines[i].rstrip("\r")
        top = stack[-1]
        if isinstance(top, _Inset) and top.kind == "drop":
            if line.startswith("\\begin_inset"):
                stack.append(_Inset("drop", i, ""))
            elif line.startswith("\\end_inset"):
                stack.pop()
            continue
        if isinstance(top, _Inset) and top.kind == "formula" and not line.startswith("\\end_inset"):
            top.pieces.append(line)
            continue
        if line.startswith("\\begin_layout"):
            name = line[len("\\begin_layout") :].strip()
            heading = top.transparent if isinstance(top, _Inset) else top.heading
            stack.append(_Layout(name, i, heading))
        elif line.startswith("\\end_layout"):
            if isinstance(top, _Layout):
                stack.pop()
                _deliver(top, stack[-1], out, found)
        elif line.startswith("\\begin_inset"):
            stack.append(_inset(line[len("\\begin_inset") :].strip(), i, top, settings))
        elif line.startswith("\\end_inset"):
            while len(stack) > 1:
                frame = stack.pop()
                if isinstance(frame, _Inset):
                    _close(frame, stack[-1], found)
                    break
                _deliver(frame, stack[-1], out, found)
        elif line == "\\end_body":
            break
        elif isinstance(top, _Layout):
            _text(top, line)
        elif top.kind in ("command", "glyph"):
            parameter = _PARAMETER.match(line)
            if parameter is not None:
                value = parameter.group(2) if parameter.group(2) is not None else parameter.group(3) or ""
                top.params.setdefault(parameter.group(1), value.replace('\\"', '"'))
        elif top.kind == "tabular":
            if line.startswith("<row"):
                top.row, top.cells = i, []
            elif line.startswith("</row>") and top.row >= 0:
                out[top.row] = " | ".join(cell for cell in top.cells)
                top.row = -1
        elif line == "\\begin_deeper":
            top.depth += 1
        elif line == "\\end_deeper":
            top.depth = max(0, top.depth - 1)
    while len(stack) > 1:  # NOTE: an unclosed layout or inset ends with the document
        frame = stack.pop()
        if isinstance(frame, _Layout):
            _deliver(frame, stack[-1], out, found)
        else:
            _close(frame, stack[-1], found)
    found.sort(key=lambda h: h[0])
    return out, _levelled(found, out, settings)


def _inset(head: str, line: int, top: _Layout | _Inset, settings: _Settings) -> _Inset:
    """The frame a ``\\begin_inset head`` opens; a glyph inset's character goes to the text now."""
    words = head.split()
    kind = words[0] if words else ""
    if kind == "Note" and words[1:2] == ["Greyedout"]:
        kind = "Note Greyedout"
    if kind == "Branch":
        selected = " ".join(words[1:]) in settings.branches
        inherited = top.heading if isinstance(top, _Layout) else top.transparent
        return _Inset("block" if selected else "drop", line, head, transparent=selected and inherited)
    if kind in DROPPED:
        return _Inset("drop", line, head)
    if kind == "Formula":
        return _Inset("formula", line, head, pieces=[head[len("Formula") :].strip()])
    if kind in GLYPHS:
        glyph = GLYPHS[kind]
        if kind == "Quotes":
            style = words[1] if len(words) > 1 else "eld"
            letter = settings.quotes if style[:1] == "x" else style[:1]
            marks = QUOTES.get(letter, QUOTES["e"])
            glyph = marks[(0 if style[1:2] != "r" else 1) + (2 if style[2:3] == "s" else 0)]
        elif kind == "space" and "neg" in head:
            glyph = ""
        _append(top, glyph)
        return _Inset("glyph", line, head)
    if kind == "CommandInset":
        return _Inset("command", line, head, params={"": words[1] if len(words) > 1 else ""})
    if kind == "Tabular":
        return _Inset("tabular", line, head)
    if kind == "Text" and isinstance(top, _Inset) and top.kind == "tabular":
        return _Inset("cell", line, head)
    return _Inset("block" if kind in BLOCK else "inline", line, head)


def _append(frame: _Layout | _Inset, text: str) -> None:
    if text and not (isinstance(frame, _Layout) and frame.deleted):
        frame.pieces.append(text)


def _text(layout: _Layout, line: str) -> None:
    """One line of a paragraph: text, an escape, or a command that prints nothing. A literal
    backslash is always ``\\backslash``, so a ``\\`` inside a line starts a command: LyX writes
    ``\\SpecialChar X`` at the end of the line of the text before it."""
    escape = line.find("\\")
    if escape < 0:
        _append(layout, line)
        return
    if escape > 0:
        _append(layout, line[:escape])
        line = line[escape:]
    command, _, rest = line.partition(" ")
    if command == "\\change_deleted":
        layout.deleted = True
    elif command in ("\\change_inserted", "\\change_unchanged"):
        layout.deleted = False
    elif command == "\\backslash":
        _append(layout, "\\" + rest)
    elif command == "\\SpecialChar":
        _append(layout, SPECIAL.get(rest.strip(), ""))
    elif command == "\\start_of_appendix":
        layout.appendix = True


def _close(inset: _Inset, parent: _Layout | _Inset, found: list[tuple[int, str, str, bool]]) -> None:
    """An inset ends: what it renders goes to its paragraph (or its table); a named unit's
    title to its own line."""
    if inset.kind == "formula":
        formula = " ".join(" ".join(inset.pieces).split())
        display = formula.startswith(("\\[", "\\begin"))  # NOTE: set apart from the text around it
        _append(parent, f" {formula} " if display else formula)
    elif inset.kind in ("inline", "cell"):
        text = " ".join(piece for piece in inset.pieces if piece)
        if inset.kind == "cell" and isinstance(parent, _Inset):
            parent.cells.append(text)
        else:
            _append(parent, text)
    elif inset.kind == "command":
        command = inset.params.get("", "")
        if command in NAMED_INSETS:
            if isinstance(parent, _Layout) and parent.heading:
                latex, title = NAMED_INSETS[command]
                name = inset.params.get("name", "") if command == "index_print" else ""
                found.append((inset.line, latex, name or title, False))
        elif command == "href":
            _append(parent, inset.params.get("name") or inset.params.get("target", ""))
        elif command == "bibitem":
            label = inset.params.get("label") or inset.params.get("key", "")
            _append(parent, f"[{label}] " if label else "")


def _deliver(
    layout: _Layout, parent: _Layout | _Inset, out: list[str], found: list[tuple[int, str, str, bool]]
) -> None:
    """A paragraph ends: its text goes into the inset that reads it in (a caption, a cell), else
    onto its own line; a heading is recorded."""
    text = "".join(layout.pieces)
    listing = isinstance(parent, _Inset) and parent.head.startswith("listings")
    if layout.name not in FREE_SPACING and not listing:
        text = _SPACES.sub(" ", text)  # NOTE: LyX keeps no two spaces in a row: a dropped inset's
    if isinstance(parent, _Layout) or parent.kind in ("inline", "cell"):
        _append(parent, " ".join(text.split()))
        return
    name = layout.name
    previous, parent.last = parent.last, name
    for deeper in [d for d in parent.numbers if d > parent.depth]:
        del parent.numbers[deeper]
    if name.startswith("Enumerate"):
        number = parent.numbers.get(parent.depth, 0) + 1
        parent.numbers[parent.depth] = number
        text = f"{number}. {text.lstrip()}"
    else:
        parent.numbers.pop(parent.depth, None)
        if name == "Itemize":
            text = "• " + text.lstrip()
    line = layout.line
    if layout.heading and layout.appendix:
        found.append((line, "appendix", "", False))
    if layout.heading and name in SECTIONING:
        latex, starred = SECTIONING[name]
        found.append((line, latex, " ".join(text.split()), starred))
        return  # NOTE: its line gets the title as numbered (``_levelled``)
    if layout.heading and name == "Bibliography" and previous != "Bibliography" and line + 1 < len(out):
        found.append((line, "bibliography", "", False))
        line += 1  # NOTE: the unit's name stands on the layout's line, its first item below
    out[line] = " ".join(x for x in (out[line], text.strip()) if x)


def _levelled(found: list[tuple[int, str, str, bool]], out: list[str], settings: _Settings) -> list[Heading]:
    """The headings as LaTeX numbers and levels them (``markup_latex.levelled``), each title
    written on its line; beyond ``\\secnumdepth`` a unit is unnumbered."""
    depth = settings.secnumdepth
    commands = [
        (line, latex, title, starred or (depth is not None and latex in DEPTHS and DEPTHS[latex] - 1 > depth))
        for line, latex, title, starred in found
    ]
    headings = levelled(commands, list(range(len(out))), render=lambda title: title)
    for line, _, title in headings:
        out[line] = title
    return headings
