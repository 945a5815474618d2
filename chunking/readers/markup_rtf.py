"""Stage 1 (read), RTF documents (``{\\rtf1 …``: Word, LibreOffice, AbiWord, pandoc's ``-t rtf``):
paragraphs at an outline level, or in a heading style, are the headings.

RTF has no sectioning: a document is a run of paragraphs, each ended by ``\\par``, its
properties set after a ``\\pard`` and kept by the group (``{…}``) they are set in. A paragraph
is a heading in either of the two forms producers write, whichever the document uses:

* its own ``\\outlinelevelN`` (N from 0 to 8: level N+1; 9 and up is body text), as pandoc's
  writer marks every heading and LibreOffice and Word mark theirs besides their style;
* its style ``\\sN``, when the document's ``{\\stylesheet …}`` names that style with a heading
  word and K as its last word (Word's built-in ``heading K``, LibreOffice's and AbiWord's
  ``Heading K``, Pod::Simple's ``pod-headK``, ``hK``: level K; a page ``header`` is none), or gives the
  style an ``\\outlinelevelN`` of its own (a heading style under a translated name).

The title is the paragraph's text as a reader sees it: control words give nothing (``\\tab``
and ``\\line`` a space, ``\\emdash``, ``\\lquote`` … their characters), ``\\'hh`` is decoded by
the document's code page (``\\ansicpg``; ``\\mac``, ``\\pc``, ``\\pca``; cp1252 by default),
``\\uN`` is the character N (negative N read as unsigned, surrogate pairs joined) and the
``\\ucN`` characters after it, its fallback for older readers, are skipped. Groups that are no
text of the paragraph are skipped whole: every destination marked ``{\\*\\…}`` (bookmarks, field
instructions, generator), the font, colour, style and list tables, ``\\info``, pictures and
objects, headers, footers, footnotes, a list's generated number (``\\listtext``), index and
contents entries, and hidden text (``\\v``). A field gives its result (``\\fldrslt``). The text
stays the source's (as with every markup source), so a heading's offset is where its paragraph
opens: its ``\\pard`` (the ``{`` before it when the group opens with it), else its first token.

Contract: ``rtf_headings(text)`` returns ``(offset, level, title)`` headings (an RTF document
without one gives none), or None when the text is no RTF document (it does not open with
``{\\rtf``).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from .markup_heading import Heading

_OPENING = re.compile(r"\A\ufeff?\s*\{\\rtf(?![a-zA-Z])")

_TOKEN = re.compile(
    r"\\([a-zA-Z]{1,32})(-?\d{1,10})? ?"  # a control word, its parameter and its delimiting space
    r"|\\'([0-9a-fA-F]{2})"  # a byte in the code page
    r"|\\(.)"  # a control symbol (a backslash and a line end: a paragraph end)
    r"|([{}])"
    r"|[\r\n]+"  # line ends: no text in RTF
    r"|([^\\{}\r\n]+)",
    re.S,
)

_SKIPPED = frozenset(
    (
        "fonttbl colortbl stylesheet info pict object objdata result header headerl headerr headerf"
        " footer footerl footerr footerf footnote annotation listtable listoverridetable listtext"
        " pntext pntxta pntxtb pnseclvl fldinst xe tc tcn txe rxe bkmkstart bkmkend shp shpinst"
        " nonshppict themedata colorschememapping datastore latentstyles rsidtbl revtbl generator"
        " filetbl template userprops pgdsctbl ftnsep ftnsepc aftnsep aftnsepc atnid atnauthor"
        " atndate atnref atrfstart atrfend"
    ).split()
)
"""Destinations written without ``\\*`` whose group is no text of a paragraph."""

_ENDS = frozenset(("par", "sect", "cell", "nestcell", "row"))
"""Control words that end a paragraph (``\\row`` after a table's last cell)."""

_CHARACTERS = {
    "tab": " ",
    "line": " ",
    "emdash": "\u2014",
    "endash": "\u2013",
    "emspace": " ",
    "enspace": " ",
    "qmspace": " ",
    "lquote": "\u2018",
    "rquote": "\u2019",
    "ldblquote": "\u201c",
    "rdblquote": "\u201d",
    "bullet": "\u2022",
}
_SYMBOLS = {"~": "\u00a0", "_": "\u2011", "\\": "\\", "{": "{", "}": "}"}
"""Control symbols that are text; the others (``\\-`` an optional hyphen, ``\\*``) are none."""

_CODE_PAGES = (("ansicpg", None), ("mac", "mac_roman"), ("pca", "cp850"), ("pc", "cp437"))

_HEADING_STYLE = re.compile(r"(?:.*[ _-])?(?:heading|head|h) ?([1-9])", re.I)
"""A style sheet's name for a heading style of level K: its last word a heading word and K
(``heading 1``, ``Heading1``, ``numbered heading 2``, Pod::Simple's ``pod-head1``, ``h3``);
``Header`` and ``header 1``, a page header's style, are none."""

_BODY_LEVEL = 9
"""``\\outlinelevel`` this high or higher is body text."""


@dataclass(frozen=True)
class _Group:
    """What a group sets and its subgroups inherit."""

    skip: bool = False  # a destination that is no text
    hidden: bool = False  # ``\v``
    uc: int = 1  # fallback characters after a ``\u``
    style: int = 0
    outline: int | None = None


def rtf_headings(text: str) -> list[Heading] | None:
    """The headings of an RTF document, or None when ``text`` is not one (module docstring)."""
    if not _OPENING.match(text):
        return None
    styles = _style_levels(text)
    codec = _codec(text)
    out: list[Heading] = []
    group = _Group()
    stack: list[_Group] = []
    chars: list[str] = []  # the open paragraph's text (UTF-16 halves joined at its end)
    raw = bytearray()  # ``\'hh`` bytes not yet decoded
    opened: int | None = None  # a ``{`` no token has followed yet
    start: int | None = None  # the open paragraph's first token
    pard: int | None = None  # its first ``\pard``
    fallback = 0  # characters still to skip after a ``\u``

    def flush() -> None:
        if raw:
            chars.append(raw.decode(codec, "replace"))
            raw.clear()

    for kind, at, value, number in _tokens(text):
        first, brace = opened is not None, opened
        opened = None
        if kind == "{":
            stack.append(group)
            opened = at
            continue
        if kind == "}":
            group = stack.pop() if stack else group
            fallback = 0
            continue
        if first and (kind == "word" and value in _SKIPPED or kind == "symbol" and value == "*"):
            group = replace(group, skip=True)
        if group.skip:
            continue
        if kind == "newline":
            continue
        if fallback and kind in ("text", "byte", "word", "symbol"):
            if kind == "text" and len(value) > fallback:
                value, fallback = value[fallback:], 0
            else:
                fallback -= len(value) if kind == "text" else 1
                continue
        if start is None and not (kind == "text" and value.isspace()):
            start = brace if first and brace is not None else at
        if kind == "byte":
            if not group.hidden:
                raw.append(int(value, 16))
            continue
        flush()
        if kind == "text":
            if not group.hidden:
                chars.append(value)
        elif kind == "symbol":
            if value in "\r\n":
                value = "par"
            elif not group.hidden:
                chars.append(_SYMBOLS.get(value, ""))
                continue
        if kind == "symbol" or kind == "word":
            if value == "pard":
                group = replace(group, style=0, outline=None)
                if pard is None:
                    pard = brace if first and brace is not None else at
            elif value == "s":
                group = replace(group, style=int(number or 0))
            elif value == "outlinelevel":
                group = replace(group, outline=int(number or 0))
            elif value == "uc":
                group = replace(group, uc=max(int(number or 0), 0))
            elif value == "v":
                group = replace(group, hidden=number != "0")
            elif value == "plain":
                group = replace(group, hidden=False)
            elif value == "u" and number is not None:
                if not group.hidden:
                    chars.append(chr(int(number) % 0x10000))
                fallback = group.uc
            elif value in _CHARACTERS and not group.hidden:
                chars.append(_CHARACTERS[value])
            elif value in _ENDS:
                level = _level(group, styles)
                title = " ".join(_joined(chars).split())
                where = pard if pard is not None else start
                if level is not None and title and where is not None:
                    out.append((where, level, title))
                chars.clear()
                start = pard = None
    return out


def _level(group: _Group, styles: dict[int, int]) -> int | None:
    """A paragraph's heading level by its own outline level, else by its style's, else None."""
    if group.outline is not None:
        return group.outline + 1 if 0 <= group.outline < _BODY_LEVEL else None
    return styles.get(group.style)


def _joined(chars: list[str]) -> str:
    """The paragraph's text, ``\\u`` halves of a surrogate pair joined into one character."""
    text = "".join(chars)
    if any("\ud800" <= c <= "\udfff" for c in text):
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def _tokens(text: str, at: int = 0) -> Iterator[tuple[str, int, str, str | None]]:
    """``(kind, offset, value, parameter)`` from ``at``: kind ``word`` (a control word),
    ``byte`` (``\\'hh``: value the hex digits), ``symbol``, ``{``, ``}``, ``newline`` or
    ``text``."""
    for m in _TOKEN.finditer(text, at):
        word, number, byte, symbol, brace, plain = m.groups()
        if word is not None:
            yield "word", m.start(), word, number
        elif byte is not None:
            yield "byte", m.start(), byte, None
        elif symbol is not None:
            yield "symbol", m.start(), symbol, None
        elif brace is not None:
            yield brace, m.start(), brace, None
        elif plain is not None:
            yield "text", m.start(), plain, None
        else:
            yield "newline", m.start(), "", None


def _codec(text: str) -> str:
    """The code page the document's ``\\'hh`` bytes are in: its header's ``\\ansicpg``, else
    the character set it names, else cp1252."""
    end = text.find("{", text.find("{") + 1)
    header = text[: end if end >= 0 else 400]
    for word, name in _CODE_PAGES:
        m = re.search(rf"\\{word}(\d*)(?![a-zA-Z])", header)
        if m is None:
            continue
        name = name or f"cp{m.group(1)}"
        try:
            return codecs.lookup(name).name
        except LookupError:
            break
    return "cp1252"


def _style_levels(text: str) -> dict[int, int]:
    """Heading level by paragraph style number, from the document's ``{\\stylesheet …}``: a
    style named ``heading K`` (before any ``,`` alias) is level K, else one with an
    ``\\outlinelevelN`` of its own is level N+1. Character (``\\*\\csN``) and table styles are
    none."""
    m = re.search(r"\{\\stylesheet(?![a-zA-Z])", text)
    if m is None:
        return {}
    levels: dict[int, int] = {}
    depth = 0
    style: int | None = 0
    outline: int | None = None
    name: list[str] = []
    for kind, _, value, number in _tokens(text, m.start()):
        if kind == "{":
            depth += 1
            if depth == 2:
                style, outline, name = 0, None, []
            continue
        if kind == "}":
            depth -= 1
            if depth == 1 and style is not None:
                words = "".join(name).split(";")[0].split(",")[0]
                heading = _HEADING_STYLE.fullmatch(" ".join(words.split()))
                if heading is not None:
                    levels[style] = int(heading.group(1))
                elif outline is not None and 0 <= outline < _BODY_LEVEL:
                    levels[style] = outline + 1
            if depth <= 0:
                break
            continue
        if depth != 2:
            continue
        if kind == "symbol" and value == "*":
            style = None  # a character, table or section style
        elif kind == "word" and value == "s" and style is not None:
            style = int(number or 0)
        elif kind == "word" and value == "outlinelevel":
            outline = int(number or 0)
        elif kind == "text":
            name.append(value)
    return levels
