"""Stage 1 (read), Markdown: the headings of a ``.md`` book, as CommonMark reads them.

Contract: ``markdown_headings`` parses the text with markdown-it-py (the CommonMark preset,
block rules only) and returns the book's top-level headings, ATX (``## Title``) and setext
(``Title`` underlined by ``===`` or ``---``), each at the exact offset in the text where its
source starts: the ``#`` of an ATX heading, the first character of a setext heading's text.
An ATX heading may follow empty anchor elements on its line (``_ANCHORED_ATX``).
What CommonMark does not read as a heading is not one: ``#`` lines in fenced or indented code,
``#tag`` without a space, headings inside block quotes and list items (quoted or listed, not the
book's structure). A YAML (``---``) or TOML (``+++``) front matter block at the top of the file
is metadata, not a ``---`` setext heading. A file that sets its title alone in setext ``=`` and
its chapters in ATX ``#`` has the title at level 0 and its setext ``-`` headings at the
chapters' level (``setext_title_apart``).

Speed: markdown-it-py's cost is per line, and most lines of a book sit inside paragraphs that
can be nothing else. So the parser is handed the text without
the lines that cannot change the block structure (``_skeleton``) and its line numbers are mapped
back; a setext heading's title is then read from the text's own lines.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

_FRONT_MATTER = {"---": (("---", "..."), ":"), "+++": (("+++",), "=")}
"""Front matter fences: the opening line → (the lines that may close it, what its first line
holds: YAML ``key: value``, TOML ``key = value``)."""


@cache
def _parser() -> MarkdownIt:
    """The CommonMark block parser (inline parsing off: only block structure is needed)."""
    # NOTE: imported here: only .md books need markdown-it, and importing it is not free.
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").disable(["inline", "text_join"])


def _front_matter_lines(lines: list[str]) -> int:
    """How many lines a leading front matter block takes (its fences included), 0 when none.

    NOTE: a block only when it looks like one (as Pandoc reads a YAML block): its first line is a
    ``key: value`` (``key = value``), no line in it is blank, and a closing line ends it; a ``---``
    rule opening a book is not metadata.
    """
    ends, mark = _FRONT_MATTER.get(lines[0].rstrip(), ((), "")) if lines else ((), "")
    if not ends or len(lines) < 3 or mark not in lines[1]:
        return 0
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ends:
            return i + 1
        if not lines[i].strip():
            break
    return 0


_ANCHORED_ATX = re.compile(
    r"""(?:<(a|span)\b[^<>]*\b(?:id|name)\s*=\s*["'][^"'<>]*["'][^<>]*>\s*</\1>\s*)+(?=#{1,6}(?:[ \t]|$))"""
)
"""Empty anchor elements before an ATX heading's ``#`` (``<a id="usage"></a># Usage``): a
converter of a word-processor document (mammoth) or of a web page sets each bookmark as a link
target at the start of its heading's line. CommonMark reads that line as a paragraph; the
heading is what the page shows, so it is read as one, starting at its line's first anchor."""

_ATTRIBUTES = re.compile(r"\s*\{\s*[#.][^{}]*\}$")
"""Pandoc's heading attributes after the title (``# Usage {#usage .unnumbered}``): no part of it."""

_TAG_UNCLOSED = re.compile(r"<[A-Za-z][\w-]*(?:\s[^<>]*)?$")
"""A raw HTML tag opened at the end of a line, its ``>`` not on it (``<a href="#x"``)."""

_LINK_OPEN = re.compile(r"<a\b[^<>]*>", re.I)
_LINK_CLOSE = re.compile(r"</a\s*>", re.I)

WRAPPED_TAG_LINES = 3
"""Most lines a raw HTML link left open at a line's end runs on over (``html_left_open``)."""


def html_left_open(text: str) -> bool:
    """Whether ``text`` leaves a raw HTML tag open at its end: a tag whose ``>`` is not on it
    (``<a href="#x"``), or a link ``<a …>`` whose ``</a>`` is not. A converter that wraps its
    Markdown (pandoc's ``gfm`` writer at 72 columns) wraps a heading or a list item holding a raw
    HTML link too, its tag and its words running on over the next lines; the tag closing there
    is where the heading's or the item's words end."""
    return bool(_TAG_UNCLOSED.search(text)) or len(_LINK_OPEN.findall(text)) > len(_LINK_CLOSE.findall(text))


def run_on_wrapped_tag(text: str, following: list[str]) -> tuple[str, int]:
    """``text`` with the lines of ``following`` that a raw HTML tag left open at its end runs on
    over (``html_left_open``), up to the line that closes it, at most ``WRAPPED_TAG_LINES``, and
    how many lines of ``following`` that took; a blank line, or no closing within them, runs on
    over nothing: ``(text, 0)``."""
    if not html_left_open(text):
        return text, 0
    joined = text
    for used, line in enumerate(following[:WRAPPED_TAG_LINES], 1):
        if not line.strip():
            break
        joined = f"{joined} {line.strip()}"
        if not html_left_open(joined):
            return joined, used
    return text, 0


_TITLE_KEY = re.compile(r"""^title\s*[:=]\s*(?:"(.+)"|'(.+)'|(.+?))\s*$""")
"""A front matter's title line (YAML ``title: "…"``, TOML ``title = "…"``), unquoted or quoted."""


def _front_matter_title(block: list[str]) -> str:
    """The document's title as its front matter gives it (Pandoc, R Markdown, static site
    generators: ``title:``), whitespace collapsed and its inline markup read (``rendered_text``);
    ``""`` when it gives none. A quoted title may fold over the indented lines below its key
    (YAML's flow scalars: ``title: "A Long`` over ``  Title"``); a title whose quote never
    closes there is none."""
    body = block[1:-1]
    for k, line in enumerate(body):
        if not (m := _TITLE_KEY.match(line)):
            continue
        if m[1] or m[2]:
            return rendered_text(" ".join((m[1] or m[2]).split()))
        value = m[3]
        quote = value[0] if value[0] in "\"'" else ""
        if not quote:
            return rendered_text(" ".join(value.split()))
        folded = [value[1:]]
        for more in body[k + 1 :]:
            if not more[:1].isspace():
                break  # the next key: the quote never closed
            folded.append(more.strip())
            if folded[-1].endswith(quote):
                folded[-1] = folded[-1][:-1]
                return rendered_text(" ".join(" ".join(folded).split()))
        return ""
    return ""


_PLAIN = re.compile(r"( {0,3})[^\W\d_][^<>\[\]]*").fullmatch
"""A plain line: at most 3 spaces, a letter, and no ``<>[]`` anywhere. It starts no block (every
block marker is a digit, punctuation or a deeper indent), cannot underline a setext heading or
close a fence, and cannot end an HTML block (its ends hold ``>``) or a link reference
definition (``]``)."""


def _skeleton(lines: list[str]) -> list[int]:
    """Indices of the lines the parser needs: all but a plain line right after a plain line of
    the same indent.

    NOTE: such a line is in whatever block the line before it is in (a paragraph, fenced code or
    an HTML block in the same container: the same indent meets the same container), so leaving
    it out changes no block's kind or extent, only a paragraph's text.
    """
    kept: list[int] = []
    previous = -1
    for i, line in enumerate(lines):
        plain = _PLAIN(line)
        indent = plain.end(1) if plain else -1
        if indent < 0 or indent != previous:
            kept.append(i)
        previous = indent
    return kept


_INLINE_MARKS = re.compile(r"[\\`*_\[\]<>&!]")
"""A character that may open inline markup (an escape, code, emphasis, a link, HTML, an entity)."""


@cache
def _inline_parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark")


def rendered_text(title: str) -> str:
    """A heading's text as the page shows it: CommonMark's inline markup read (``1\\. Setup`` →
    ``1. Setup``, ```--flag``` → ``--flag``, ``*very*`` → ``very``, ``[text](url)`` → ``text``,
    ``&amp;`` → ``&``, an image → its alt text, inline HTML tags dropped), so a title is matched,
    numbered and shown as printed. A title without such a mark comes back as it is."""
    if not _INLINE_MARKS.search(title):
        return title
    inline = _inline_parser().parseInline(title)
    parts: list[str] = []
    tokens = (inline[0].children or []) if inline else []
    for k, token in enumerate(tokens):
        if _broken_word(tokens, k, parts):
            parts[-1] = parts[-1][:-1]  # NOTE: ``**configura-** **tion**``: one word, its runs apart
            continue
        if token.type in ("text", "code_inline"):
            parts.append(token.content)
        elif token.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif token.type == "image":
            parts.append("".join(child.content for child in token.children or []))
    return " ".join("".join(parts).split())


_SUSPENDED = frozenset("and or nor to und oder bis et ou y o e".split())
"""Words after a suspended hyphen (``pre- and post-processing``, ``Ein- und Ausgabe``): the hyphen
there ends a word of its own, which stays."""


def _broken_word(tokens: list, k: int, parts: list[str]) -> bool:
    """Whether token ``k`` is the space between two emphasis runs that split one word at a
    hyphen (``**configura-** **tion**``): a converter of a PDF sets each line of a wrapped heading as
    a run of its own, the first ending in the hyphen the page broke the word with."""
    token = tokens[k]
    if token.type != "text" or token.content.strip() or not 0 < k < len(tokens) - 2:
        return False
    before, after, nxt = tokens[k - 1], tokens[k + 1], tokens[k + 2]
    return (
        before.type.endswith("_close")
        and after.type.endswith("_open")
        and nxt.type == "text"
        and nxt.content[:1].islower()
        and nxt.content.split()[0].casefold() not in _SUSPENDED
        and bool(parts)
        and len(parts[-1]) > 1
        and parts[-1][-1] == "-"
        and parts[-1][-2].isalpha()
    )


def markdown_headings(text: str) -> list[tuple[int, int, str]]:
    """ATX and setext headings of a Markdown text, outside code, block quotes and lists.

    Args:
        text (str): Markdown text with ``"\\n"`` line ends.

    Returns:
        list[tuple[int, int, str]]: ``(offset, level, title)`` in order: ``offset`` is where the
        heading's source starts in ``text`` (its ``#``, or the first character of a setext
        heading's text); ``title`` is the heading's text as rendered (``rendered_text``), whitespace
        collapsed (a setext heading may span lines), ATX closing ``#``s removed. Headings with an empty title
        are left out.
    """
    lines = text.split("\n")
    starts = [0] * len(lines)
    for i in range(1, len(lines)):
        starts[i] = starts[i - 1] + len(lines[i - 1]) + 1
    front = _front_matter_lines(lines)
    source = [""] * front + lines[front:]  # blanked: the parser's line numbers stay the text's
    for i in range(front, len(source)):
        if source[i].startswith("<") and (anchors := _ANCHORED_ATX.match(source[i])):
            source[i] = source[i][anchors.end() :]
    headings: list[tuple[int, int, str]] = []
    marks: list[str] = []  # each heading's syntax: its setext underline's character, ``#`` for ATX
    if front and (title := _front_matter_title(lines[:front])):
        headings.append((0, 1, title))  # the title page: the front matter that names it
        marks.append("")
    kept = _skeleton(source)
    tokens = _parser().parse("\n".join(source[i] for i in kept))
    for i, token in enumerate(tokens):
        if token.type != "heading_open" or token.level != 0 or token.map is None:
            continue
        first = kept[token.map[0]]
        if token.markup in ("=", "-"):  # setext: the text's lines down to the underline
            title = " ".join(" ".join(lines[first : kept[token.map[1] - 1]]).split())
        else:  # NOTE: a raw HTML link a converter wrapped runs the heading on (``run_on_wrapped_tag``)
            title, _ = run_on_wrapped_tag(
                tokens[i + 1].content, source[first + 1 : first + 1 + WRAPPED_TAG_LINES]
            )
            title = " ".join(title.split())
        title = rendered_text(_ATTRIBUTES.sub("", title))
        if not title:
            continue
        line = lines[first]
        indent = len(line) - len(line.lstrip(" \t"))
        headings.append((starts[first] + indent, int(token.tag[1:]), title))
        marks.append(token.markup[:1])
    if front and len(headings) > 1 and headings[0][0] == 0 and _same_words(headings[0][2], headings[1][2]):
        del headings[0]  # NOTE: the first heading repeats the front matter's title: that heading is the title
        del marks[0]
    return setext_title_apart(headings, marks)


def setext_title_apart(headings: list[tuple[int, int, str]], marks: list[str]) -> list[tuple[int, int, str]]:
    """The headings of a file that writes its title in setext and its chapters in ATX one level
    up: the title (level 0) and the setext ``-`` headings under it at the chapters' level 1.

    Markdown has two syntaxes for its two top levels; a file that sets its first heading alone in
    setext ``=`` (no other ``=`` underline), its ``-`` underlines only above its first ``#``
    heading, and then writes ``#`` headings, gives its title a mark none of the ``#`` headings
    shares: the title stands above them, not beside them (the document's title, as AsciiDoc's
    ``= Title`` is), and a ``-`` heading between it and the first ``#`` is the first of the
    units under it, not a section of the title.

    Args:
        headings (list[tuple[int, int, str]]): ``(offset, level, title)`` in order.
        marks (list[str]): each heading's syntax: ``=`` or ``-`` (setext), ``#`` (ATX), ``""``
            (a front matter's title).
    """
    if not marks or marks[0] != "=" or marks.count("=") != 1:
        return headings
    top_atx = next((k for k, mark in enumerate(marks) if mark == "#" and headings[k][1] == 1), None)
    if top_atx is None or "-" in marks[top_atx:]:
        return headings
    return [
        (offset, level - (mark in ("=", "-")), title) for (offset, level, title), mark in zip(headings, marks)
    ]


def _same_words(a: str, b: str) -> bool:
    return re.sub(r"\W+", " ", a).casefold().split() == re.sub(r"\W+", " ", b).casefold().split()
