"""Stage 1 (read), pandoc's native format (``pandoc -t native``, the Haskell syntax tree as
text): each ``Header`` block is a heading.

A native document is the ``Pandoc`` value (``pandoc -s``: ``Pandoc Meta { … } [ blocks ]``, or
``Pandoc (Meta {…}) [blocks]`` from pandoc before 2.15), or its list of blocks alone (``[ Header
…, Para … ]`` without ``-s``). A heading is ``Header N ( "id" , [ classes ] , [ attrs ] ) [
inlines ]``, its level N, pretty-printed on one line or split over several (pandoc 2.15 on: the
level, the attributes and each inline on lines of their own). Its title is the inlines as a
reader sees them: ``Str "…"`` the string (Haskell escapes decoded: ``\\233``, ``\\"``,
``\\n``, ``\\&``), ``Space``, ``SoftBreak`` and ``LineBreak`` a space, ``Code`` and ``Math``
their text, ``Emph``, ``Strong``, ``Link``, ``Image``, ``Span``, ``Cite`` … their inlines,
``Quoted`` its inlines in quotation marks; a footnote (``Note``), raw markup (``RawInline``)
and everything in parentheses or braces (attributes, a link's target, a citation's record) are
no part of it. The document title in the metadata (``( "title" , MetaInlines [ … ] )`` or
``MetaString "…"``) is the heading of level 0, at the ``Pandoc`` token. The text stays the
source's (as with every markup source), so a heading's offset is where its ``Header`` token
starts. The tree is read as tokens: a string literal is one token, so the word ``Header``
inside one (a ``CodeBlock`` of native text, a ``Str``) is no heading.

Contract: ``native_headings(text)`` returns ``(offset, level, title)`` headings, or None when
the text is no native document (it opens with neither ``Pandoc`` and its ``Meta`` nor a ``[``
and a block constructor).
"""

from __future__ import annotations

import re

from .markup_heading import Heading

_BLOCKS = (
    "Plain|Para|LineBlock|CodeBlock|RawBlock|BlockQuote|OrderedList|BulletList|DefinitionList"
    "|Header|HorizontalRule|Table|Figure|Div|Null"
)
_OPENING = re.compile(rf"\A\s*(?:Pandoc\s*\(?\s*Meta\b|\[\s*(?:{_BLOCKS})\b)")

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[A-Za-z_][\w\']*|-?\d+(?:\.\d+)?(?:[eE]-?\d+)?|[^\s"\w]', re.S)
"""A string literal (escapes kept), a name, a number or one punctuation character."""

_ESCAPE = re.compile(
    r"\\(?:(\d+)|x([0-9a-fA-F]+)|o([0-7]+)|\^([@-_])|([A-Z][A-Z0-9]{1,2})|(\s+\\)|(.))", re.S
)

_ASCII = (
    "NUL SOH STX ETX EOT ENQ ACK BEL BS HT LF VT FF CR SO SI DLE DC1 DC2 DC3 DC4 NAK SYN ETB CAN EM"
    " SUB ESC FS GS RS US SP"
).split()
_CONTROL = {name: chr(i) for i, name in enumerate(_ASCII)} | {"DEL": "\x7f"}
_SIMPLE = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "&": ""}

_SPACES = frozenset(("Space", "SoftBreak", "LineBreak"))
_QUOTES = {"SingleQuote": ("\u2018", "\u2019"), "DoubleQuote": ("\u201c", "\u201d")}
_SKIPPED = frozenset(("Note", "RawInline"))
"""Inlines that are no text a reader sees in the heading: a footnote, raw markup."""

_OPEN = {"[": "]", "(": ")", "{": "}"}
_CLOSE = frozenset(_OPEN.values())


def native_headings(text: str) -> list[Heading] | None:
    """The headings of a pandoc native document, or None when ``text`` is not one (module
    docstring)."""
    if not _OPENING.match(text):
        return None
    out: list[Heading] = []
    found = _TOKEN.finditer(text)
    first = next(found, None)
    if (
        first is not None
        and first.group() == "Pandoc"
        and (title := _meta_title(_group(text, first.end(), inlines=False)))
    ):
        out.append((first.start(), 0, title))
    for m in found:
        if m.group() != "Header":
            continue
        tokens = _group(text, m.end(), inlines=True)  # NOTE: the level, the attributes, the inlines
        if len(tokens) < 3 or not tokens[0].isdigit():
            continue
        j = _after(tokens, 1) if tokens[1] == "(" else 1
        if j < len(tokens) and tokens[j] == "[":
            title = _render(tokens, j, len(tokens))
            if title:
                out.append((m.start(), int(tokens[0]), title))
    return out


def _group(text: str, at: int, *, inlines: bool) -> list[str]:
    """The tokens of ``text`` from ``at`` up to the end of the first bracketed group at the top:
    with ``inlines``, the first ``[ … ]`` (after a ``Header``'s level and attributes), else any
    (the metadata: ``Meta { … }``, or ``(Meta {…})`` before pandoc 2.15)."""
    tokens: list[str] = []
    closers: list[str] = []
    for m in _TOKEN.finditer(text, at):
        token = m.group()
        tokens.append(token)
        if token in _OPEN:
            closers.append(_OPEN[token])
        elif closers and token == closers[-1]:
            closers.pop()
            if not closers and (not inlines or token == "]"):
                break
        elif not closers and len(tokens) > 3 and inlines:
            break  # NOTE: no inline list where a heading's stands: not a heading
    return tokens


def _after(tokens: list[str], i: int) -> int:
    """The index after the bracket that closes the one opened at ``tokens[i]``."""
    closers = [_OPEN[tokens[i]]]
    i += 1
    while i < len(tokens) and closers:
        token = tokens[i]
        if token in _OPEN:
            closers.append(_OPEN[token])
        elif token == closers[-1]:
            closers.pop()
        i += 1
    return i


def _render(tokens: list[str], start: int, end: int) -> str:
    """The text the inlines in ``tokens[start:end]`` (a ``[ … ]`` list) show, whitespace
    collapsed (module docstring)."""
    parts: list[str] = []
    closers: list[str] = []  # what each open bracket adds when it closes
    i = start
    while i < end:
        token = tokens[i]
        if token in _OPEN and token != "[":
            i = _after(tokens, i)  # NOTE: attributes, a target, a record: no text
            continue
        if token in _SKIPPED:
            if token == "RawInline":
                i = _after(tokens, i + 1) + 1 if i + 1 < end and tokens[i + 1] == "(" else i + 3
            else:
                i = _after(tokens, i + 1) if i + 1 < end and tokens[i + 1] == "[" else i + 1
            continue
        if token == "[":
            closers.append("")
        elif token == "]" and closers:
            parts.append(closers.pop())
        elif token in _SPACES:
            parts.append(" ")
        elif token in _QUOTES and i + 1 < end and tokens[i + 1] == "[":
            opening, closing = _QUOTES[token]
            parts.append(opening)
            closers.append(closing)
            i += 2
            continue
        elif token.startswith('"'):
            parts.append(_string(token))
        i += 1
    return " ".join("".join(parts).split())


def _string(literal: str) -> str:
    """A Haskell string literal's value."""
    return _ESCAPE.sub(_unescape, literal[1:-1])


def _unescape(m: re.Match[str]) -> str:
    decimal, hexadecimal, octal, control, name, gap, char = m.groups()
    if decimal or hexadecimal or octal:
        value = int(decimal or hexadecimal or octal, 10 if decimal else 16 if hexadecimal else 8)
        return chr(value) if value <= 0x10FFFF and not 0xD800 <= value <= 0xDFFF else "\ufffd"
    if control:
        return chr(ord(control) - 64)
    if name:
        return _CONTROL.get(name, name)
    if gap:
        return ""
    return _SIMPLE.get(char, char)


def _meta_title(tokens: list[str]) -> str:
    """The document title in a ``Pandoc`` value's metadata record (``tokens``: up to its closing
    ``}``), or ``""``: the value of its top ``"title"`` key (``MetaInlines [ … ]`` rendered,
    ``MetaString "…"``)."""
    depth = 0
    keys: int | None = None  # the depth of the map's key-value pairs
    for i, token in enumerate(tokens[:-3]):
        if token in _OPEN:
            depth += 1
        elif token in _CLOSE:
            depth -= 1
        elif token == "fromList" and keys is None:
            keys = depth + 2  # NOTE: ``fromList [ ( "key" , value ) , … ]``
        elif token == '"title"' and depth == keys and tokens[i - 1] == "(" and tokens[i + 1] == ",":
            kind, value = tokens[i + 2], tokens[i + 3]
            if kind in ("MetaInlines", "MetaBlocks") and value == "[":
                return _render(tokens, i + 3, _after(tokens, i + 3))
            if kind == "MetaString" and value.startswith('"'):
                return " ".join(_string(value).split())
            return ""
    return ""
