"""Stage 1 (read), plain text and Markdown: bytes → ``RawBook`` of synthetic pages.

Contract: the text is decoded without losing a character silently (UTF-8, with or without BOM,
or UTF-16 with BOM; invalid UTF-8 is a legacy encoding, with a warning naming it: cp1252, its
five undefined bytes as U+FFFD, unless ``charset-normalizer`` finds another one that reads the
bytes better, such as cp1251 or Shift-JIS), line ends become ``"\\n"``, and the text is cut into synthetic pages of about
``PAGE_CHARS`` characters at paragraph ends (``cut_pages``, shared with the EPUB reader).
Synthetic pages have the label ``""``. In ``.md`` files, the ATX and setext headings that
CommonMark reads (``chunking.readers.markdown``, markdown-it-py: none in code) become outline
entries at the exact page and offset where the heading starts; a ``.txt`` file written in POD,
AsciiDoc, DokuWiki, Jira wiki, Textile, BBCode, Djot, Org, reStructuredText, LaTeX, ConTeXt, Texinfo, Muse,
troff or SGML/XML (LinuxDoc, DebianDoc,
DocBook, Texinfo XML, JATS, BITS) (``chunking.readers.markup``, recognised by its own syntax), and any ``.org``,
``.rst``, ``.tex``, ``.texi``, ``.sgml`` or ``.xml`` file, gets its section headings the same way.
A LyX document (``.lyx`` or any other name; ``chunking.readers.markup_lyx``, known by its
``#LyX`` header) is read as its rendering, which keeps the file's lines (line *i* of the text is
line *i* of the file) but holds only the text the document prints: its pages and chunks are cut
from that text, not from LyX's markup. A text (``.md`` or ``.txt``) that keeps a Texinfo HTML
manual's navigation lines but not its headings has its nodes for outline
(``chunking.readers.texinfo_nodes``: markup ``nodes``), whatever else its lines look like.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from pathlib import PurePath

from ..errors import UnreadableInputError
from .markdown import rendered_text, markdown_headings
from .markup import markup_source
from .texinfo_nodes import node_headings
from .raw import OutlineEntry, RawBook, RawPage

PAGE_CHARS = 2000
"""Target length of a synthetic page; pages run from half to 1.5 times this, cut at paragraph ends."""

HEADING_CHARS = 80
"""Longest line that counts as heading-like when choosing where a page ends."""


def cut_pages(text: str, page_chars: int = PAGE_CHARS) -> list[tuple[int, int]]:
    """Cut text into spans of about ``page_chars`` characters, preferring paragraph ends.

    A page ends at the last blank line between half and all of ``page_chars`` that does not
    follow a heading-like line (so a heading stays on the page of its first paragraph); failing
    that, the first blank line up to 1.5x; then the last line end, then the last space in that
    range; only a text with no break at all is cut hard. Blank lines between pages belong to no
    page; a page's first line keeps its indentation (an indented contents entry or list item
    stays indented, which the plain-text structure reads).

    Args:
        text (str): the text (lines separated by ``"\\n"``).
        page_chars (int): target page length. Defaults to ``PAGE_CHARS``.

    Returns:
        list[tuple[int, int]]: half-open ``(start, end)`` spans in order; each span starts at the
        start of a line (after its indentation only spaces and tabs) and has no trailing
        whitespace. ``[]`` for a text that is only whitespace.
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
    """Where the text after ``i`` resumes: at the first non-space character, or at the start of
    its line when only blank lines and indentation lie between (the indentation is kept)."""
    n, first = len(text), i
    while i < n and text[i].isspace():
        i += 1
    if i == n:
        return n
    start = i
    while start > first and text[start - 1] in " \t":
        start -= 1
    return start if start == 0 or text[start - 1] == "\n" else i


CP1252_UNDEFINED = frozenset(b"\x81\x8d\x8f\x90\x9d")
"""The five bytes cp1252 leaves undefined; old text dumps often hold one in otherwise cp1252 text."""


LEGACY_CANDIDATES = 5
"""How many of ``charset-normalizer``'s best guesses are weighed against cp1252."""


def _detect_legacy(data: bytes) -> str | None:
    """The legacy encoding of non-UTF-8 bytes: ``"cp1252"`` unless ``charset-normalizer`` finds a
    better reading; None when it finds none.

    Its least chaotic guesses are weighed (``LEGACY_CANDIDATES``). cp1252 wins when one of them
    reads the bytes exactly as cp1252 does: detectors cannot tell Western code pages apart on
    mostly-ASCII text (``café`` reads the same in cp1250, cp1252 and cp775) and cp1252 is what
    most non-UTF-8 English text is. The five bytes cp1252 leaves undefined are read as ``?`` for
    the detection, so one stray byte in a cp1252 file does not make it another encoding. Among
    the others, a Windows code page (``cp1251``) goes before a Mac or DOS one that reads the bytes
    as well (detectors rank ``mac_cyrillic`` and ``cp1251`` alike).
    """
    from charset_normalizer import from_bytes

    probe = data.translate(_UNDEFINED_AS_QUESTION_MARK)
    matches = [m for m in from_bytes(probe) if not m.encoding.startswith(("utf_16", "utf_32"))]
    if not matches:
        return None
    least = min(m.chaos for m in matches)
    best = [m.encoding for m in matches if m.chaos <= least + 0.01][:LEGACY_CANDIDATES]
    western = probe.decode("cp1252")
    for encoding in best:
        try:
            if probe.decode(encoding) == western:
                return "cp1252"
        except (UnicodeDecodeError, LookupError):
            continue
    return next((e for e in best if e.startswith("cp125")), best[0])


_UNDEFINED_AS_QUESTION_MARK = bytes(0x3F if b in CP1252_UNDEFINED else b for b in range(256))


def _decode_legacy(data: bytes) -> tuple[str, str]:
    """Decode non-UTF-8 bytes in their legacy encoding (``_detect_legacy``); return the text and
    what was done, for the warning.

    NOTE: latin-1 would decode any byte, but reads cp1252's quotes, dashes and € (0x80-0x9F) as
    C1 control characters, which normalisation then removes: one undefined byte in a cp1252 file
    would cost every curly quote. Undefined bytes become U+FFFD instead, and are counted. Text in
    latin-1 proper has no bytes in 0x80-0x9F, so it decodes the same either way.
    """
    encoding = _detect_legacy(data) or "cp1252"
    if encoding != "cp1252":
        try:
            return data.decode(encoding), f"decoded as {encoding} (detected by charset-normalizer)"
        except (UnicodeDecodeError, LookupError):
            pass
    try:
        return data.decode("cp1252"), "decoded as cp1252"
    except UnicodeDecodeError:
        pass
    undefined = sum(data.count(bytes([b])) for b in CP1252_UNDEFINED)
    return (
        data.decode("cp1252", errors="replace"),
        f"decoded as cp1252 with {undefined} undefined byte(s) replaced by U+FFFD",
    )


INFO_MARKER = re.compile(rb"\x00\x08\[[^\x00]{0,1000}?\x00\x08\]")
"""A Texinfo info file's in-text marker (``^@^H[index^@^H]``, ``^@^H[image src=…^@^H]``): its
only NUL bytes."""


def _is_info(data: bytes) -> bool:
    """A Texinfo info file, not a binary: it has info's node separators (``\\x1f``) and every NUL
    byte belongs to one of its markers (``INFO_MARKER``). Its other control bytes (``\\x1f``,
    ``\\x7f`` in the tag table, ``\\x08``) are removed by normalisation like any control
    character."""
    return b"\x1f" in data and b"\x00" not in INFO_MARKER.sub(b"", data)


UTF16_SAMPLE = 4096
"""Bytes looked at to tell UTF-16 without a byte order mark from a binary file."""

UTF16_NUL_SHARE = 0.3
"""UTF-16 text of a Latin script has a NUL in this share of its code units or more, all on the
same side of each unit (the high byte of ASCII letters and punctuation); a binary file's NULs
fall on both sides."""


def _utf16_without_bom(data: bytes) -> tuple[str, str] | None:
    """The text and encoding name of UTF-16 without a byte order mark, or None.

    UTF-16 files are written without a BOM by some tools; their NUL bytes are the high bytes of
    Latin characters. The file must be of even length, its sample's NULs all on one side of the
    code units (odd offsets: little-endian; even: big-endian) and in at least ``UTF16_NUL_SHARE``
    of them, and the whole file must decode strictly to text without U+0000."""
    if len(data) % 2:
        return None
    sample = data[:UTF16_SAMPLE]
    units = len(sample) // 2
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    for encoding, high, low in (("utf-16-le", odd, even), ("utf-16-be", even, odd)):
        if low == 0 and high >= UTF16_NUL_SHARE * units:
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError:
                return None
            return (text, encoding.upper().replace("UTF-16-", "UTF-16")) if "\x00" not in text else None
    return None


def decode_text(data: bytes, name: str) -> tuple[str, list[str]]:
    """Decode a text file's bytes, never dropping a character silently.

    Args:
        data (bytes): the file's bytes.
        name (str): the file name, for messages.

    Returns:
        tuple[str, list[str]]: the text with ``"\\n"`` line ends, and warnings (fallback decoding).

    Raises:
        UnreadableInputError: the bytes hold NUL characters (a binary file, not text), other
            than a Texinfo info file's markers (``INFO_MARKER``, removed, with a warning).
    """
    warnings: list[str] = []
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise UnreadableInputError(
                f"{name}: invalid UTF-16 text ({exc.reason} at byte {exc.start})"
            ) from None
    elif b"\x00" in data and (utf16 := _utf16_without_bom(data)) is not None:
        text, encoding = utf16
        warnings.append(f"{name}: UTF-16 text without a byte order mark; decoded as {encoding}")
    elif b"\x00" in data and not _is_info(data):
        raise UnreadableInputError(f"{name}: contains NUL bytes, so it is a binary file, not text")
    else:
        if b"\x00" in data:
            data, markers = INFO_MARKER.subn(b"", data)
            warnings.append(f"{name}: a Texinfo info file; {markers} \\0\\b[…\\0\\b] marker(s) removed")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            text, note = _decode_legacy(data)
            warnings.append(f"{name}: not valid UTF-8 (first bad byte at offset {exc.start}); {note}")
    return text.replace("\r\n", "\n").replace("\r", "\n"), warnings


def _nodes(text: str, is_markdown: bool) -> list[tuple[int, int, str]] | None:
    """The nodes of a Texinfo HTML dump that kept its navigation lines but not its headings
    (``chunking.readers.texinfo_nodes``), their names read as Markdown in a ``.md``."""
    if "Next: " not in text:
        return None
    lines = text.split("\n")
    starts = [0] * len(lines)
    for i in range(1, len(lines)):
        starts[i] = starts[i - 1] + len(lines[i - 1]) + 1
    return node_headings(lines, starts, rendered_text if is_markdown else str)


def read_text(data: bytes, name: str) -> RawBook:
    """Read a ``.txt`` or ``.md`` book.

    Args:
        data (bytes): the whole file.
        name (str): the file name; ``.md`` turns on Markdown headings, ``.org`` and ``.rst`` name
            their markup, the stem is the title.

    Returns:
        RawBook: format ``"md"`` or ``"txt"``, synthetic pages, the headings of its markup
        (Markdown; Org, rST; POD, AsciiDoc, Org or rST in a ``.txt``) as outline and ``markup`` naming it.

    Raises:
        UnreadableInputError: a binary file, or one with no text at all.
    """
    text, warnings = decode_text(data, name)
    suffix = PurePath(name).suffix.lower()
    is_markdown = suffix == ".md"
    nodes = _nodes(text, is_markdown)
    if nodes is not None:
        markup, headings = "nodes", nodes
    elif is_markdown:
        markup, headings = "markdown", markdown_headings(text)
    else:
        text, markup, headings = markup_source(text, suffix)  # NOTE: a LyX document's rendering
    spans = cut_pages(text)
    if not spans:
        raise UnreadableInputError(f"{name}: the file holds no text (only whitespace)")
    pages = [RawPage(number=i, label="", text=text[s:e], synthetic=True) for i, (s, e) in enumerate(spans, 1)]
    outline: list[OutlineEntry] = []
    starts = [s for s, _ in spans]
    for offset, level, title in headings:
        index = max(bisect_right(starts, offset) - 1, 0)
        outline.append(OutlineEntry(level=level, title=title, page=index + 1, offset=offset - starts[index]))
    return RawBook(
        format="md" if is_markdown else "txt",
        title=PurePath(name).stem,
        pages=pages,
        outline=outline,
        warnings=warnings,
        markup=markup if outline else "",
    )
