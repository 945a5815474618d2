"""Stage 1 (read), Texinfo source: the sectioning commands of a ``.texi`` manual.

A Texinfo source names its structure with commands at the start of a line (the Texinfo manual,
"Chapter Structuring"): ``@top`` (the Top node, the manual's title page, level 0), ``@part``
(level 0: a part, above the chapters), ``@chapter``, ``@unnumbered``, ``@appendix`` and the
heading-only ``@chapheading``/``@majorheading``/``@centerchap`` (level 1), then ``@section``
and its ``unnumbered``/``appendix`` twins and ``@heading`` (2), ``@subsection``… (3),
``@subsubsection``… (4). The rest of the line is the title.

``texinfo_headings(lines, starts)`` recognises a source by its own marks: a first line
``\\input texinfo`` (every Texinfo file meant for TeX has it), or ``@node`` lines and a
``@setfilename``/``@settitle`` line with at least ``MIN_HEADINGS`` sectioning commands.
Nothing inside a block whose content is not the manual's text is a heading: ``@ignore``,
``@verbatim``, ``@example`` and its kin, ``@macro``, raw ``@tex``/``@html``/``@latex``… blocks,
each to its own ``@end``.

Titles are what the printed manual shows: ``@LaTeX{}`` → ``LaTeX``, ``@code{x}`` → ``x``,
``@'e`` → ``é``, ``@@`` → ``@``, ``@tie{}`` → a no-break space; an ``@top`` without a title takes
the ``@settitle`` one.
"""

from __future__ import annotations

import re
import unicodedata
from .markup_heading import Heading


MIN_HEADINGS = 2
"""Sectioning commands a text needs (without ``\\input texinfo``) before it is read as Texinfo."""

LEVELS = {
    **dict.fromkeys(("top", "part"), 0),
    **dict.fromkeys(("chapter", "unnumbered", "appendix", "chapheading", "majorheading", "centerchap"), 1),
    **dict.fromkeys(("section", "unnumberedsec", "appendixsec", "appendixsection", "heading"), 2),
    **dict.fromkeys(("subsection", "unnumberedsubsec", "appendixsubsec", "subheading"), 3),
    **dict.fromkeys(("subsubsection", "unnumberedsubsubsec", "appendixsubsubsec", "subsubheading"), 4),
}
"""Depth of each sectioning command."""

LITERAL_BLOCKS = frozenset(
    "ignore verbatim example smallexample lisp smalllisp display smalldisplay format smallformat "
    "macro rmacro tex html latex docbook xml".split()
)
"""Blocks whose lines are never headings (literal text, macro bodies, another format's raw code)."""

_COMMAND = re.compile(r"@([a-z]+)(?:[ \t]+(.*?))?[ \t]*$")
_BRACED = re.compile(r"@([a-zA-Z]+)\{([^{}]*)\}")
_ACCENT = re.compile(r"""@(['`^"~=.,])(?:\{(\w)\}|(\w))""")
_COMBINING = {
    "'": "\u0301",
    "`": "\u0300",
    "^": "\u0302",
    '"': "\u0308",
    "~": "\u0303",
    "=": "\u0304",
    ".": "\u0307",
    ",": "\u0327",
}
_WORDS = {"LaTeX": "LaTeX", "TeX": "TeX", "dots": "…", "enddots": "…", "tie": "\u00a0", "copyright": "©", "registeredsymbol": "®", "bullet": "•", "minus": "−", "result": "⇒", "expansion": "↦", "equiv": "≡", "error": "error→", "point": "∗"}  # fmt: skip


def texinfo_headings(lines: list[str], starts: list[int], named: bool = False) -> list[Heading] | None:
    """The headings of a Texinfo source, or None when the text does not read as one (module
    docstring); ``named``: the file's name says it is Texinfo (``.texi``), one sectioning
    command suffices."""
    signed = next((line for line in lines if line.strip()), "").startswith("\\input texinfo")
    found: list[Heading] = []
    nodes = titled = 0
    settitle = ""
    block: list[str] = []  # open literal blocks, innermost last
    for i, line in enumerate(lines):
        command = _COMMAND.match(line) if line.startswith("@") else None
        if command is None:
            continue
        name, rest = command.group(1), command.group(2) or ""
        if block:
            if name == "end" and rest.split()[:1] == [block[-1]]:
                block.pop()
            elif name == block[-1] and block[-1] not in ("verbatim", "ignore"):
                block.append(name)  # NOTE: the same block nested (an example in an example)
            continue
        if name in LITERAL_BLOCKS:
            block.append(name)
        elif name == "node":
            nodes += 1
        elif name in ("setfilename", "settitle"):
            titled += 1
            settitle = rendered(rest) if name == "settitle" else settitle
        elif name in LEVELS:
            title = rendered(rest)
            if title or name == "top":
                found.append((starts[i], LEVELS[name], title))
    if not found or not (named or ((signed or (nodes and titled)) and len(found) >= MIN_HEADINGS)):
        return None
    return [(offset, level, title or settitle) for offset, level, title in found if title or settitle]


def rendered(text: str) -> str:
    """A Texinfo title as the printed manual shows it: accents composed, ``@word{}`` symbols
    written out, formatting commands reduced to their text, ``@@``/``@{``/``@}`` unescaped, a
    trailing ``@c`` comment dropped."""
    text = re.split(r"[ \t]@c(?:omment)?\b", text, maxsplit=1)[0]
    text = _ACCENT.sub(lambda m: unicodedata.normalize("NFC", (m[2] or m[3]) + _COMBINING[m[1]]), text)
    previous = None
    while previous != text:  # NOTE: innermost braces first: ``@code{@var{x}}``
        previous = text
        text = _BRACED.sub(lambda m: _WORDS.get(m[1], m[2]), text)
    text = text.replace("@@", "\0").replace("@{", "{").replace("@}", "}").replace("\0", "@")
    return re.sub(r"[ \t\n]+", " ", text).strip()
