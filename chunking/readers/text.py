"""Stage 1 (read), plain text and Markdown: bytes → ``RawBook`` of synthetic pages.

Contract: the text is decoded without losing a character silently (UTF-8, with or without BOM,
or UTF-16 with BOM; invalid UTF-8 falls back to cp1252, its five undefined bytes as U+FFFD, with
a warning), line ends become ``"\\n"``, and the text is cut into synthetic pages of about
``PAGE_CHARS`` characters at paragraph ends (``cut_pages``, shared with the EPUB reader).
Synthetic pages have the label ``""``. In ``.md`` files, ATX headings (``#`` … ``######``)
outside fenced code blocks become outline entries at the exact page and offset of the heading
line.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from pathlib import PurePath

from ..errors import UnreadableInputError
from .raw import OutlineEntry, RawBook, RawPage

PAGE_CHARS = 2000
"""Target length of a synthetic page; pages run from half to 1.5 times this, cut at paragraph ends."""

HEADING_CHARS = 80
"""Longest line that counts as heading-like when choosing where a page ends."""

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def cut_pages(text: str, page_chars: int = PAGE_CHARS) -> list[tuple[int, int]]:
    """Cut text into spans of about ``page_chars`` characters, preferring paragraph ends.

    A page ends at the last blank line between half and all of ``page_chars`` that does not
    follow a heading-like line (so a heading stays on the page of its first paragraph); failing
    that, the first blank line up to 1.5x; then the last line end, then the last space in that
    range; only a text with no break at all is cut hard. Whitespace between pages belongs to no
    page.

    Args:
        text (str): the text (lines separated by ``"\\n"``).
        page_chars (int): target page length. Defaults to ``PAGE_CHARS``.

    Returns:
        list[tuple[int, int]]: half-open ``(start, end)`` spans in order; each span's text has no
        leading or trailing whitespace. ``[]`` for a text that is only whitespace.
    """
    spans: list[tuple[int, int]] = []
    n = len(text)
    start = _skip_space(text, 0)
    low, high = page_chars // 2, page_chars + page_chars // 2
    while start < n:
        if n - start <= page_chars:
            cut = n
        else:
            cut = _paragraph_end(text, start + low, start + page_chars)
            if cut < 0:
                cut = text.find("\n\n", start + page_chars, start + high)
            if cut < 0:
                cut = text.rfind("\n", start + low, start + high)
            if cut < 0:
                cut = text.rfind(" ", start + low, start + high)
            if cut < 0:
                cut = start + page_chars
        end = cut
        while end > start and text[end - 1].isspace():
            end -= 1
        if end > start:
            spans.append((start, end))
        start = _skip_space(text, cut)
    return spans


def _paragraph_end(text: str, low: int, high: int) -> int:
    """The last blank line in ``[low, high)`` not right after a heading-like line, else the last
    blank line there, else -1."""
    last = cut = text.rfind("\n\n", low, high)
    while cut >= 0:
        line = text[text.rfind("\n", low, cut) + 1 : cut]
        # NOTE: heading-like = one short line without closing punctuation ("4.2. Scope").
        if len(line) > HEADING_CHARS or line.rstrip()[-1:] in tuple(".!?:;,") or not line.strip():
            return cut
        cut = text.rfind("\n\n", low, cut)
    return last


def _skip_space(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i].isspace():
        i += 1
    return i


CP1252_UNDEFINED = frozenset(b"\x81\x8d\x8f\x90\x9d")
"""The five bytes cp1252 leaves undefined; old text dumps often hold one in otherwise cp1252 text."""


def _decode_legacy(data: bytes) -> tuple[str, str]:
    """Decode non-UTF-8 bytes as cp1252 (what most non-UTF-8 English text is); return the text
    and what was done, for the warning.

    NOTE: latin-1 would decode any byte, but reads cp1252's quotes, dashes and € (0x80-0x9F) as
    C1 control characters, which normalisation then removes: one undefined byte in a cp1252 file
    would cost every curly quote. Undefined bytes become U+FFFD instead, and are counted. Text in
    latin-1 proper has no bytes in 0x80-0x9F, so it decodes the same either way.
    """
    try:
        return data.decode("cp1252"), "decoded as cp1252"
    except UnicodeDecodeError:
        pass
    undefined = sum(data.count(bytes([b])) for b in CP1252_UNDEFINED)
    return (
        data.decode("cp1252", errors="replace"),
        f"decoded as cp1252 with {undefined} undefined byte(s) replaced by U+FFFD",
    )


def decode_text(data: bytes, name: str) -> tuple[str, list[str]]:
    """Decode a text file's bytes, never dropping a character silently.

    Args:
        data (bytes): the file's bytes.
        name (str): the file name, for messages.

    Returns:
        tuple[str, list[str]]: the text with ``"\\n"`` line ends, and warnings (fallback decoding).

    Raises:
        UnreadableInputError: the bytes hold NUL characters (a binary file, not text).
    """
    warnings: list[str] = []
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise UnreadableInputError(
                f"{name}: invalid UTF-16 text ({exc.reason} at byte {exc.start})"
            ) from None
    elif b"\x00" in data:
        raise UnreadableInputError(f"{name}: contains NUL bytes, so it is a binary file, not text")
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            text, note = _decode_legacy(data)
            warnings.append(f"{name}: not valid UTF-8 (first bad byte at offset {exc.start}); {note}")
    return text.replace("\r\n", "\n").replace("\r", "\n"), warnings


def markdown_headings(text: str) -> list[tuple[int, int, str]]:
    """ATX headings outside fenced code blocks.

    Args:
        text (str): Markdown text with ``"\\n"`` line ends.

    Returns:
        list[tuple[int, int, str]]: ``(offset of the heading's "#", level, title)`` in order;
        headings with an empty title are left out.
    """
    headings: list[tuple[int, int, str]] = []
    fence = ""
    offset = 0
    for line in text.split("\n"):
        opener = _FENCE.match(line)
        if fence:
            # A fence closes with the same character, at least as long, and nothing after it.
            closer = opener.group(1) if opener else ""
            if (
                opener
                and closer[:1] == fence[0]
                and len(closer) >= len(fence)
                and not line[opener.end() :].strip()
            ):
                fence = ""
        elif opener:
            fence = opener.group(1)
        else:
            match = _ATX.match(line)
            if match and match.group(2) and match.group(2).strip():
                indent = len(line) - len(line.lstrip(" "))
                headings.append((offset + indent, len(match.group(1)), match.group(2).strip()))
        offset += len(line) + 1
    return headings


def read_text(data: bytes, name: str) -> RawBook:
    """Read a ``.txt`` or ``.md`` book.

    Args:
        data (bytes): the whole file.
        name (str): the file name; ``.md`` turns on Markdown headings, the stem is the title.

    Returns:
        RawBook: format ``"md"`` or ``"txt"``, synthetic pages, Markdown headings as outline.

    Raises:
        UnreadableInputError: a binary file, or one with no text at all.
    """
    text, warnings = decode_text(data, name)
    spans = cut_pages(text)
    if not spans:
        raise UnreadableInputError(f"{name}: the file holds no text (only whitespace)")
    pages = [RawPage(number=i, label="", text=text[s:e], synthetic=True) for i, (s, e) in enumerate(spans, 1)]
    is_markdown = PurePath(name).suffix.lower() == ".md"
    outline: list[OutlineEntry] = []
    if is_markdown:
        starts = [s for s, _ in spans]
        for offset, level, title in markdown_headings(text):
            index = max(bisect_right(starts, offset) - 1, 0)
            outline.append(
                OutlineEntry(level=level, title=title, page=index + 1, offset=offset - starts[index])
            )
    return RawBook(
        format="md" if is_markdown else "txt",
        title=PurePath(name).stem,
        pages=pages,
        outline=outline,
        warnings=warnings,
    )
