"""Replacement text (``/ActualText``) that MuPDF cannot lay over its glyphs, dropped from a page's
content so the page reads as it shows (what the PDF reader's ``pdfpages.page_content`` reads).

Why (issue 25): a marked sequence with an ``/ActualText`` replaces its glyphs' text. MuPDF lays
the replacement over the glyphs one character per glyph, past the longest prefix and suffix that
match; a replacement of several words drawn as glyphs with gaps for its word spaces (an acronym
list's ``Open Software Foundation``, a tagging package's words) has one character
more than its glyphs per space, so every letter after the first space lands on the glyph before
its own, the rest are piled on one glyph, and the line falls apart (``Open Soft`` /
``ware Foundation``, ``(fondation pour les`` / ``logiciels ouverts)``). A replacement that
encloses another (``CG`` inside ``CG Comité Général``, replaced by ``Comité Général``)
is written out whole where the inner one begins, before the glyphs it replaces
(``Comité Gé Général``). poppler's ``pdftotext`` reads such lines as they show: it keeps the
innermost replacement only.
"""

from __future__ import annotations

import re

import pymupdf

_ACTUAL = b"/ActualText"

_TOKEN = re.compile(rb"%[^\r\n]*|\(|<<|>>|<[0-9A-Fa-f\s]*>|/[^\s()<>\[\]{}/%]*|[^\s()<>\[\]{}/%]+|[\[\]{}]")
"""A content stream's tokens: a comment, the opening of a literal string (``_string_end`` finds its
end), a dictionary's brackets, a hexadecimal string, a name, a number or an operator, an array's
or a procedure's bracket."""

_ESCAPES = {ord("n"): 10, ord("r"): 13, ord("t"): 9, ord("b"): 8, ord("f"): 12}

_SPACE = re.compile(r"\s")

_NOT_LETTER = re.compile(r"[\W_]+")
"""What a replacement and its glyphs are compared without: spaces, punctuation (a typewriter
``'`` replacing a typeset ``’``), symbols."""


def _letters(text: str) -> str:
    """``text``'s letters and digits, case aside (``TeX`` replacing the logo's ``TEX``)."""
    return _NOT_LETTER.sub("", text).casefold()


def _string_end(data: bytes, start: int) -> int:
    """The index after the literal string opening at ``data[start]`` (``(``): balanced parentheses,
    a backslash escaping the next byte; the end of ``data`` if it never closes."""
    depth, k, n = 0, start, len(data)
    while k < n:
        c = data[k]
        if c == 0x5C:  # backslash
            k += 2
            continue
        if c == 0x28:
            depth += 1
        elif c == 0x29:
            depth -= 1
            if depth == 0:
                return k + 1
        k += 1
    return n


def _dict_end(data: bytes, start: int) -> int:
    """The index after the dictionary opening at ``data[start]`` (``<<``), strings inside skipped;
    the end of ``data`` if it never closes."""
    depth, k, n = 0, start, len(data)
    while k < n:
        if data.startswith(b"<<", k):
            depth += 1
            k += 2
        elif data.startswith(b">>", k):
            depth -= 1
            k += 2
            if depth == 0:
                return k
        elif data[k] == 0x28:
            k = _string_end(data, k)
        else:
            k += 1
    return n


def _literal(raw: bytes) -> bytes:
    """A literal string's bytes (``raw`` without its parentheses), escapes resolved."""
    out = bytearray()
    k, n = 0, len(raw)
    while k < n:
        c = raw[k]
        if c != 0x5C or k + 1 >= n:
            out.append(c)
            k += 1
            continue
        e = raw[k + 1]
        if e in _ESCAPES:
            out.append(_ESCAPES[e])
            k += 2
        elif 0x30 <= e <= 0x37:
            m = re.match(rb"[0-7]{1,3}", raw[k + 1 : k + 4])
            assert m is not None
            out.append(int(m.group(), 8) & 0xFF)
            k += 1 + len(m.group())
        elif e in (10, 13):  # a line continuation
            k += 3 if raw[k + 1 : k + 3] == b"\r\n" else 2
        else:
            out.append(e)
            k += 2
    return bytes(out)


def _text_string(data: bytes) -> str:
    """A PDF text string's text: UTF-16BE after its byte-order mark, else PDFDocEncoding (read as
    Latin-1, which it matches on letters)."""
    if data.startswith(b"\xfe\xff"):
        return data[2:].decode("utf-16-be", "replace")
    return data.decode("latin-1")


def actual_text(data: bytes, at: int = 0) -> str | None:
    """The ``/ActualText`` at or after ``at`` in ``data`` (a marked-content property dictionary, or
    a content stream), its string decoded; None when there is none or it is given other than as a
    string."""
    at = data.find(_ACTUAL, at)
    if at < 0:
        return None
    k = at + len(_ACTUAL)
    while k < len(data) and data[k] in b" \t\r\n":
        k += 1
    if data[k : k + 1] == b"(":
        return _text_string(_literal(data[k + 1 : _string_end(data, k) - 1]))
    if data[k : k + 1] == b"<" and data[k : k + 2] != b"<<":
        end = data.find(b">", k)
        digits = re.sub(rb"\s", b"", data[k + 1 : end])
        return _text_string(bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode("ascii")))
    return None


_MARKS = re.compile(rb"/ActualText|\bBDC\b|\bBMC\b|\bEMC\b")
"""The marked-content operators and the ``/ActualText`` keys of a content stream, strings and all
(``_may_need_dropping``)."""


def _may_need_dropping(content: bytes) -> bool:
    """The cheap test before a stream is followed token by token: whether an ``/ActualText`` of
    ``content`` holds a space inside it, or one seems to open inside another (operators found
    by a plain search, strings not skipped: text that looks like an operator may make a nesting
    that is not there, which the tokens then rule out)."""
    at = content.find(_ACTUAL)
    while at >= 0:
        text = actual_text(content, at)
        if text is not None and _SPACE.search(text.strip()):
            return True
        at = content.find(_ACTUAL, at + 1)
    stack: list[bool] = []
    pending = False
    for m in _MARKS.finditer(content):
        token = m.group()
        if token == _ACTUAL:
            pending = True
        elif token == b"EMC":
            if stack:
                stack.pop()
        else:
            if pending and any(stack):
                return True
            stack.append(pending and token == b"BDC")
            pending = False
    return False


def actual_texts(content: bytes) -> list[tuple[int, int, str, bool]] | None:
    """Every marked sequence of ``content`` with an ``/ActualText`` given in its ``BDC`` operator:
    its property dictionary's byte span, its replacement text and whether another such sequence
    opens inside it; None when the stream cannot be followed (an inline image, whose data is no
    token, or an ``EMC`` that closes nothing)."""
    stack: list[int | None] = []
    found: list[tuple[int, int, str, bool]] = []
    operand: tuple[bytes, int, int] | None = None
    k, n = 0, len(content)
    while k < n:
        m = _TOKEN.search(content, k)
        if m is None:
            break
        token, start = m.group(), m.start()
        k = m.end()
        if token == b"(":
            k = _string_end(content, start)
            operand = (token, start, k)
        elif token == b"<<":
            k = _dict_end(content, start)
            operand = (token, start, k)
        elif token[:1] == b"%":
            continue
        elif token[:1] in (b"/", b"<", b"[", b"]", b"{", b"}", b">") or re.match(rb"[-+.\d]", token):
            operand = (token, start, k)
        elif token == b"BI":
            return None
        elif token in (b"BDC", b"BMC", b"EMC"):
            if token == b"EMC":
                if not stack:
                    return None
                stack.pop()
                continue
            text = None
            if token == b"BDC" and operand is not None and operand[0] == b"<<":
                text = actual_text(content[operand[1] : operand[2]])
            if text is None or operand is None:
                stack.append(None)
                continue
            for open_at in stack:
                if open_at is not None:
                    s, e, t, _ = found[open_at]
                    found[open_at] = (s, e, t, True)
            stack.append(len(found))
            found.append((operand[1], operand[2], text, False))
        else:
            operand = None
    return found


def replacements_dropped(page: pymupdf.Page, flags: int, read: str) -> bool:
    """Drop from ``page``'s content, in the open document (never the file), every ``/ActualText``
    that encloses another, and every one of several words that only repeats its glyphs: its
    property list is left empty and the glyphs are read as drawn. Whether any was dropped (the
    page must then be read again). ``read`` is the page's text as MuPDF read it, replacements
    laid over their glyphs; ``flags`` its structured-text flags.

    A replacement repeats its glyphs when its letters and digits (case, spaces and punctuation
    aside, ``_letters``) stand in a row in the page's glyphs (read with replacement text
    ignored) at least as often as in ``read``: a replacement that differs from the glyphs it
    covers adds its letters to ``read`` (a copy icon replaced by the command it copies, printed
    in full above it: twice in ``read``, once in the glyphs). A replacement of one word stays
    (``CG`` for small capitals read ``cg``, an empty one over line numbers not to be copied):
    MuPDF lays those over their glyphs one for one. Only a page whose content names
    ``/ActualText`` is followed token by token."""
    content = page.read_contents()
    if _ACTUAL not in content or not _may_need_dropping(content):
        return False
    spans = actual_texts(content)
    if not spans:
        return False
    several = [(s, e, _letters(t)) for s, e, t, outer in spans if not outer and _SPACE.search(t.strip())]
    drop = [(s, e) for s, e, _, outer in spans if outer]
    if several:
        shown = _letters(page.get_text(flags=flags | pymupdf.TEXT_IGNORE_ACTUALTEXT))
        replaced = _letters(read)
        drop += [
            (s, e)
            for s, e, letters in several
            if letters and shown.count(letters) >= max(1, replaced.count(letters))
        ]
    if not drop:
        return False
    out, last = [], 0
    for start, end in sorted(drop):
        out += [content[last:start], b"<<>>"]
        last = end
    out.append(content[last:])
    doc = page.parent
    xref = doc.get_new_xref()
    doc.update_object(xref, "<<>>")
    doc.update_stream(xref, b"".join(out))
    page.set_contents(xref)
    return True
