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
    found = list(_TOKEN.finditer(text))
    tokens = [m.group() for m in found]
    closing = _closing(tokens)
    out: list[Heading] = []
    if tokens and tokens[0] == "Pandoc":
        meta = 1 + (tokens[1:2] == ["("])
        end = closing[meta + 1] if meta + 1 < len(tokens) and tokens[meta + 1] == "{" else meta
        if meta < len(tokens) and (title := _meta_title(tokens, closing, 1, min(end + 2, len(tokens)))):
            out.append((found[0].start(), 0, title))
    headers = [0]  # ``Header`` tokens before each token: a heading's inlines hold none
    for token in tokens:
        headers.append(headers[-1] + (token == "Header"))
    for h, token in enumerate(tokens):
        if token != "Header" or h + 2 >= len(tokens) or not tokens[h + 1].isdigit():
            continue
        j = closing[h + 2] + 1 if tokens[h + 2] == "(" else h + 2  # NOTE: the attributes
        if j >= len(tokens) or tokens[j] != "[" or closing[j] >= len(tokens):
            continue
        if headers[closing[j]] != headers[j]:
            continue  # NOTE: a list left open over later headers: no heading's inlines
        title = _render(tokens, closing, j, closing[j] + 1)
        if title:
            out.append((found[h].start(), int(tokens[h + 1]), title))
    return out


def _closing(tokens: list[str]) -> list[int]:
    """For each opening bracket of ``tokens``, the index of the bracket that closes it
    (``len(tokens)`` when none does); a closing bracket of another kind than the innermost open
    one closes nothing. Other tokens: their own index. One pass: every group is found once, so
    a text of brackets left open costs no more than one of closed ones."""
    out = list(range(len(tokens)))
    stack: list[int] = []
    for i, token in enumerate(tokens):
        if token in _OPEN:
            out[i] = len(tokens)
            stack.append(i)
        elif stack and token == _OPEN[tokens[stack[-1]]]:
            out[stack.pop()] = i
    return out


def _render(tokens: list[str], closing: list[int], start: int, end: int) -> str:
    """The text the inlines in ``tokens[start:end]`` (a ``[ … ]`` list) show, whitespace
    collapsed (module docstring)."""
    parts: list[str] = []
    closers: list[str] = []  # what each open bracket adds when it closes
    i = start
    while i < end:
        token = tokens[i]
        if token in _OPEN and token != "[":
            i = closing[i] + 1  # NOTE: attributes, a target, a record: no text
            continue
        if token in _SKIPPED:
            if token == "RawInline":
                i = closing[i + 1] + 2 if i + 1 < end and tokens[i + 1] == "(" else i + 3
            else:
                i = closing[i + 1] + 1 if i + 1 < end and tokens[i + 1] == "[" else i + 1
            continue
        if token == "[":
            closers.append("")
        elif token == "]" and closers:
            parts.append(closers.pop())
        elif token in _SPACES:
            parts.append(" ")
        elif token in _QUOTES and i + 1 < end and tokens[i + 1] == "[":
            opening, ending = _QUOTES[token]
            parts.append(opening)
            closers.append(ending)
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


def _meta_title(tokens: list[str], closing: list[int], start: int, end: int) -> str:
    """The document title in a ``Pandoc`` value's metadata record (``tokens[start:end]``: up to
    its closing ``}``), or ``""``: the value of its top ``"title"`` key (``MetaInlines [ … ]``
    rendered, ``MetaString "…"``)."""
    depth = 0
    keys: int | None = None  # the depth of the map's key-value pairs
    for i in range(start, end - 3):
        token = tokens[i]
        if token in _OPEN:
            depth += 1
        elif token in _CLOSE:
            depth -= 1
        elif token == "fromList" and keys is None:
            keys = depth + 2  # NOTE: ``fromList [ ( "key" , value ) , … ]``
        elif token == '"title"' and depth == keys and tokens[i - 1] == "(" and tokens[i + 1] == ",":
            kind, value = tokens[i + 2], tokens[i + 3]
            if kind in ("MetaInlines", "MetaBlocks") and value == "[":
                return _render(tokens, closing, i + 3, closing[i + 3] + 1)
            if kind == "MetaString" and value.startswith('"'):
                return " ".join(_string(value).split())
            return ""
    return ""
