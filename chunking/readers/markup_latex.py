"""Stage 1 (read), LaTeX source: the sectioning commands of a ``.tex`` document.

A LaTeX source names its structure with commands (LaTeX's own ``\\part``, ``\\chapter``,
``\\section``, ``\\subsection``, ``\\subsubsection``, each with a ``*`` form and an optional short
title ``[…]``) and prints some units under fixed names: ``\\tableofcontents`` (Sphinx's ``\\sphinxtableofcontents``) a "Contents",
``\\listoffigures``/``\\listoftables`` their lists, ``\\printindex`` an "Index",
``\\printglossary`` a "Glossary", ``\\printnomenclature`` (nomencl) a "Nomenclature",
``\\bibliography{…}``/``\\printbibliography`` a "Bibliography" ("References" in a document
without chapters, as the article class prints it); the ``\\title{…}`` that ``\\maketitle`` sets
is the title page; with no ``\\title`` (or an empty one), the first bold or enlarged line of a centred
block between ``\\begin{document}`` and the first sectioning command is (``_title_block``: a
converter sets the title page as paragraphs); a named unit renamed by ``\\renewcommand`` of its name macro
(``\\contentsname``) prints that name. (``levelled``, which numbers and levels the commands, also serves
``chunking.readers.markup_lyx``, whose layouts are these commands.)

``latex_headings(lines, starts)`` recognises a source by its own marks: its first line (comments
aside) is a command, and it holds ``\\documentclass`` or ``\\begin{document}`` and a sectioning
command, or ``MIN_HEADINGS`` sectioning commands and a ``\\usepackage``/``\\begin{…}``; a
``.tex`` file needs one sectioning command. Commands count at the start of a line only (a
manual about LaTeX quotes them indented in its examples). Levels: the title 0, ``\\chapter`` 1
and ``\\section`` 2 (in a document without ``\\chapter``, the article classes, ``\\section`` is
1), each deeper command one more; in a document with ``\\part``, parts are 1 and everything
below one level deeper, so the title stays the root; a document without ``\\title`` or
``\\chapter`` whose only ``\\section`` opens it, everything else below it (a Markdown page
converted to LaTeX), has that section for its title and its ``\\subsection`` commands at level
1. Titles carry the numbers LaTeX prints
(``Part I Title``, ``3 Title``, ``3.2 Title``; after ``\\appendix`` ``Appendix A Title``,
``A.1 Title``); a starred command's none (an unnumbered unit: a preface before the first
chapter is front matter). Nothing in a comment (``%`` to the line's end) or in
a ``verbatim``/``lstlisting``/``minted``/``comment`` environment is a command. Titles are what
the printed document shows: ``\\texttt{x}`` → ``x``, ``\\LaTeX`` → ``LaTeX``, ``~`` → a space,
the text macros of signs (``\\textendash``, Sphinx's ``\\sphinxhyphen{}``) → what they print,
``\\label``/``\\index`` and a colour's name (``\\color{red}``) dropped; a title may run over a few lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..rules import to_roman
from .markup_heading import Heading


MIN_HEADINGS = 2
"""Sectioning commands a text needs without ``\\documentclass`` before it is read as LaTeX."""

TITLE_LINES = 4
"""A command's braced argument is looked for over at most this many lines."""

DEPTHS = {"part": 0, "chapter": 1, "section": 2, "subsection": 3, "subsubsection": 4}

NAMED = {
    "tableofcontents": "Contents",
    "sphinxtableofcontents": "Contents",  # NOTE: Sphinx's LaTeX writer wraps \tableofcontents
    "listoffigures": "List of Figures",
    "listoftables": "List of Tables",
    "printindex": "Index",
    "printglossary": "Glossary",
    "printglossaries": "Glossary",
    "printnomenclature": "Nomenclature",
    "printbibliography": "",  # NOTE: "Bibliography", or "References" without chapters
    "bibliography": "",
}
"""Commands that print a unit under a fixed name (at chapter level)."""

VERBATIM = frozenset(
    "verbatim verbatim* Verbatim Verbatim* lstlisting minted comment filecontents filecontents*".split()
)
"""Environments whose lines are never commands."""

_COMMAND = re.compile(
    r"\\(part|chapter|section|subsection|subsubsection|title|appendix|" + "|".join(NAMED) + r")\b(\*?)"
)
_BEGIN = re.compile(r"\\begin\{([^}]+)\}")
_COMMENT = re.compile(r"(?<!\\)%.*")
_DROPPED = re.compile(
    r"\\(?:label|index|footnote|thanks|protect|hspace|vspace|newline|linebreak)\*?(?:\{[^{}]*\})?"
    r"|\\(?:color|textcolor|colorbox)(?:\[[^\]]*\])?\{[^{}]*\}"
)
"""Commands whose argument prints nothing of the title: a label, an index entry, a note, a space;
a colour's name (``\\color{red}``, ``\\textcolor{red}{…}``: the text after it stays)."""
_WORDS = {"LaTeX": "LaTeX", "TeX": "TeX", "LaTeXe": "LaTeX2e", "ldots": "…", "dots": "…", "&": "&", "_": "_", "%": "%", "#": "#", "$": "$",
          "textendash": "–", "textemdash": "—", "textquoteleft": "‘", "textquoteright": "’", "slash": "/",
          "textbackslash": "\\", "textasciitilde": "~", "textunderscore": "_", "sphinxhyphen": "-"}  # fmt: skip
"""Text macros and what they print; ``\\sphinxhyphen{}`` is Sphinx's LaTeX writer's hyphen (one
the line may break after), in every hyphenated word it writes."""
_MACRO = re.compile(r"\\([a-zA-Z]+|[&_%#$])\*?(?:\{\})?")


def latex_headings(lines: list[str], starts: list[int], named: bool = False) -> list[Heading] | None:
    """The headings of a LaTeX source, or None when the text does not read as one (module
    docstring); ``named``: the file's name says it is LaTeX (``.tex``), one sectioning command
    suffices."""
    source = [_COMMENT.sub("", line) for line in lines]
    text = "\n".join(source)
    marked = "\\documentclass" in text or "\\begin{document}" in text
    found: list[tuple[int, str, str, bool]] = []  # (line, command, title, starred)
    verbatim: str | None = None
    for i, line in enumerate(source):
        if verbatim is not None:
            if f"\\end{{{verbatim}}}" in lines[i]:
                verbatim = None
            continue
        opened = next((m.group(1) for m in _BEGIN.finditer(line) if m.group(1) in VERBATIM), None)
        if opened is not None:
            if f"\\end{{{opened}}}" not in line[line.index(opened) :]:
                verbatim = opened
            continue
        command = _COMMAND.match(line)
        if command is None:
            continue
        name, starred = command.group(1), bool(command.group(2))
        rest = "\n".join(source[i : i + TITLE_LINES])[command.end() :]
        title = _argument(rest) if name not in NAMED and name != "appendix" else ""
        if title is not None:
            found.append((i, name, title, starred))
    found = _renamed(found, source)
    if _BEAMER.search(text):
        found = _with_frames(found, source)
    commands = [f for f in found if f[1] != "title"]
    if commands and not any(rendered(f[2]) for f in found if f[1] == "title"):
        block = _title_block(source, commands[0][0])
        if block is not None:
            found = [(block[0], "title", block[1], False), *commands]
    sectioning = sum(name in DEPTHS for _, name, _, _ in found)
    usual = "\\usepackage" in text or "\\begin{" in text
    first = next((line for line in source if line.strip()), "")
    if not sectioning or not (
        named or (first.startswith("\\") and (marked or (sectioning >= MIN_HEADINGS and usual)))
    ):
        return None
    return levelled(found, starts)


NAME_MACROS = {
    "contentsname": ("tableofcontents", "sphinxtableofcontents"),
    "listfigurename": ("listoffigures",),
    "listtablename": ("listoftables",),
    "indexname": ("printindex",),
}
"""The macros that hold the name a command prints its unit under (``\\renewcommand\\contentsname{…}``)."""

_RENAME = re.compile(r"\\renewcommand\s*\{?\\(" + "|".join(NAME_MACROS) + r")\}?\s*\{([^{}]*)\}")


def _renamed(found: list[tuple[int, str, str, bool]], source: list[str]) -> list[tuple[int, str, str, bool]]:
    """``found`` with each named unit titled as the document renames it (``NAME_MACROS``): the
    last ``\\renewcommand`` of its macro above it, when one sets a name."""
    names: dict[str, list[tuple[int, str]]] = {}
    for i, line in enumerate(source):
        for m in _RENAME.finditer(line):
            for command in NAME_MACROS[m.group(1)]:
                names.setdefault(command, []).append((i, rendered(m.group(2))))
    if not names:
        return found
    out = []
    for i, name, title, starred in found:
        given = [named for at, named in names.get(name, []) if at <= i and named]
        out.append((i, name, given[-1] if given and not title else title, starred))
    return out


TITLE_BLOCK_LINES = 12
"""Lines a centred block above the first sectioning command is read over (``_title_block``)."""

_CENTRED = re.compile(r"\{\s*\\centering\b|\\begin\{(?:center|titlepage)\}")
_DISPLAY = re.compile(r"\\(?:bfseries|textbf|bf|large|Large|LARGE|huge|Huge)\b")
_BLOCK_BREAK = re.compile(r"\\\\(?:\[[^\]]*\])?|\\par\b|\\end\{[^}]*\}|\n[ \t]*\n")
_NO_TEXT = re.compile(r"\\includegraphics\*?(?:\[[^\]]*\])?\{[^{}]*\}|\\begin\{[^}]*\}")
"""What a title block sets that is no text of its title: a logo, an environment's name."""


def _title_block(source: list[str], first: int) -> tuple[int, str] | None:
    """The title a document with no ``\\title`` sets as its title page: the first line of bold or
    enlarged text (``\\bfseries``, ``\\textbf``, ``\\Large`` …) in a centred block (``{\\centering
    …}``, a ``center`` or ``titlepage`` environment) between ``\\begin{document}`` and the first
    sectioning command (line ``first``): ``(line, title source)``, or None."""
    begin = next((i for i, line in enumerate(source[:first]) if "\\begin{document}" in line), None)
    if begin is None:
        return None
    for i in range(begin, first):
        opened = _CENTRED.search(source[i])
        if opened is None:
            continue
        block = "\n".join(source[i : min(i + TITLE_BLOCK_LINES, first)])[opened.start() :]
        at = 0
        for piece in _BLOCK_BREAK.finditer(block + "\n\n"):
            lines = _NO_TEXT.sub("", block[at : piece.start()]).split("\n")
            shown = next((k for k, line in enumerate(lines) if rendered(line)), None)
            if shown is not None and _DISPLAY.search(block[: piece.start()]):
                return i + block[:at].count("\n") + shown, "\n".join(lines[shown:])
            if piece.group(0).startswith("\\end") or not piece.group(0).strip():
                break
            at = piece.end()
    return None


_BEAMER = re.compile(r"\\documentclass\s*(?:\[[^\]]*\])?\s*\{beamer\}")
"""A Beamer slide deck's class: its frames are its units."""

_FRAME = re.compile(r"\\begin\{frame\}\s*(?:<[^>]*>\s*)?(?:\[[^\]]*\]\s*)?")
_FRAME_TITLE = re.compile(r"\\frametitle\b")

FRAME_TITLE_LINES = 3
"""Lines after ``\\begin{frame}`` where its ``\\frametitle`` may stand."""


def _with_frames(
    found: list[tuple[int, str, str, bool]], source: list[str]
) -> list[tuple[int, str, str, bool]]:
    """``found`` with a Beamer deck's titled frames (``\\begin{frame}{Title}``, or a
    ``\\frametitle{Title}`` right inside it) as unnumbered units one level below the deepest
    sectioning command the deck uses (``\\section`` where it uses none): a slide's title heads
    the slide as a section heads its text. A frame without a title (the title page) is none."""
    used = [DEPTHS[name] for _, name, _, _ in found if name in DEPTHS]
    depth = min(max(used, default=DEPTHS["section"] - 1) + 1, DEPTHS["subsubsection"])
    command = next(name for name, d in DEPTHS.items() if d == depth)
    frames = []
    for i, line in enumerate(source):
        m = _FRAME.search(line)
        if m is None:
            continue
        title = _argument(line[m.end() :]) if line[m.end() :].lstrip().startswith("{") else None
        if not title:
            for k in range(i + 1, min(i + 1 + FRAME_TITLE_LINES, len(source))):
                if (t := _FRAME_TITLE.search(source[k])) is not None:
                    title = _argument("\n".join(source[k : k + TITLE_LINES])[t.end() :])
                    break
        if title:
            frames.append((i, command, title, True))
    return sorted(found + frames)


def levelled(
    found: list[tuple[int, str, str, bool]], starts: list[int], render: Callable[[str], str] | None = None
) -> list[Heading]:
    """The commands as headings: levels, numbers as LaTeX prints them, named units' titles.
    With parts, everything below the title moves one level down, so the title stays the lone
    root above the parts.

    Args:
        found (list[tuple[int, str, str, bool]]): ``(line, command, title, starred)`` in order;
            a named unit's (``NAMED``) title, when not empty, is the one it prints.
        starts (list[int]): each line's offset.
        render (Callable[[str], str] | None): how a title's source becomes its text; None:
            LaTeX's (``rendered``). (``markup_lyx`` gives titles already rendered.)
    """
    render = render or rendered
    chapters = any(name == "chapter" for _, name, _, _ in found)
    base = 1 if any(name == "part" for _, name, _, _ in found) else 0
    top = "chapter" if chapters else "section"
    shift = 0 if chapters else 1
    commands = [k for k, (_, name, _, _) in enumerate(found) if name in DEPTHS and name != "part"]
    sections = [k for k in commands if found[k][1] == "section"]
    lone = not chapters and not base and sections == commands[:1] and len(commands) > 1
    if lone:
        # NOTE: one \section opening the document, the rest below it: it is the title (in place
        # of a \title, which a converter may fill with a placeholder: the page's own heading is
        # the section, and \maketitle's block before it is no unit of its own), and its
        # subsections are numbered from the chapter level (``3``, ``3.2``), as the units they are
        shift, top = 2, "subsection"
    counters = dict.fromkeys(DEPTHS, 0)
    out: list[Heading] = []
    appendix = False
    for i, name, title, starred in found:
        if name == "appendix":
            appendix, counters[top] = True, 0
            continue
        if name == "title" and lone:
            continue
        if name == "title" or (lone and name == "section"):
            out.append((starts[i], 0, render(title)))
        elif name in NAMED:
            named = title or NAMED[name] or ("Bibliography" if chapters else "References")
            out.append((starts[i], base + 1, named))
        else:
            label = ""
            if not starred:
                counters[name] += 1
                for deeper in list(DEPTHS)[DEPTHS[name] + 1 :]:
                    counters[deeper] = 0
                label = _number(name, counters, top, appendix) + " "
            level = 0 if name == "part" else max(1, DEPTHS[name] - shift)
            out.append((starts[i], base + level, label + render(title)))
    return [h for h in out if h[2]]


def _number(name: str, counters: dict[str, int], top: str, appendix: bool) -> str:
    """The number LaTeX prints for a command: ``Part I``, ``3``, ``3.2``, and after
    ``\\appendix`` ``Appendix A``, ``A.2`` (the chapter level lettered)."""
    if name == "part":
        return f"Part {to_roman(counters['part']).upper()}"
    names = list(DEPTHS)[DEPTHS[top] : DEPTHS[name] + 1]
    if not names:
        return ""
    head = counters[top]
    first = (chr(ord("A") + head - 1) if 0 < head <= 26 else str(head)) if appendix else str(head)
    number = ".".join([first, *(str(counters[n]) for n in names[1:])])
    return f"Appendix {number}" if appendix and name == top else number


def _argument(rest: str) -> str | None:
    """The mandatory braced argument at the start of ``rest`` (after an optional ``[…]`` short
    title), braces balanced; None when there is none."""
    k = 0
    while k < len(rest) and rest[k] in " \t\n":
        k += 1
    if k < len(rest) and rest[k] == "[":
        depth = 0
        while k < len(rest):
            depth += {"[": 1, "]": -1}.get(rest[k], 0)
            k += 1
            if depth == 0:
                break
        while k < len(rest) and rest[k] in " \t\n":
            k += 1
    if k >= len(rest) or rest[k] != "{":
        return None
    depth, begin = 0, k + 1
    for j in range(k, len(rest)):
        if rest[j] == "\\":
            continue
        if rest[j] == "{" and (j == 0 or rest[j - 1] != "\\"):
            depth += 1
        elif rest[j] == "}" and rest[j - 1] != "\\":
            depth -= 1
            if depth == 0:
                return rest[begin:j]
    return None


def rendered(title: str) -> str:
    """A LaTeX title as the document prints it (see the module docstring)."""
    title = _DROPPED.sub("", title.replace("\\\\", " "))
    title = _MACRO.sub(lambda m: _WORDS.get(m.group(1), ""), title)
    title = title.replace("~", " ").replace("{", "").replace("}", "").replace("``", "“").replace("''", "”")
    return " ".join(title.split())
