"""Stage 1 (read), Textile and Jira (Confluence) wiki markup: their ``hN.`` heading lines.

Both markups write a heading as a block whose line opens with ``h1.`` … ``h6.`` and a space, the
digit its level: Textile ``h2. Title``, with optional attributes before the dot
(``h2(#id). Title``, ``h3(class#id){color:red}[en]<. Title``); Jira ``h2. Title``, often with an
``{anchor:id}`` macro before the title. Textile starts every block after a blank line; Jira
does not need one (``{code}`` closes a code block on the line above a heading).

``textile_headings`` and ``jira_headings`` (``lines``, ``starts``) recognise a text by its
heading lines alone, at least ``MIN_HEADINGS`` of them at the margin, and tell the two apart by
Jira's own marks: a ``{code}``, ``{noformat}``, ``{quote}``, ``{panel}`` or ``{anchor:…}`` macro,
or ``{{monospace}}``, on ``JIRA_SHARE`` of the heading lines or at the start of a line
(``_jira``); a Textile text has none and its headings each start a block (a blank line or the
text's edge above). Nothing inside a code block is a heading: Jira's ``{code}``/``{noformat}``
… the same macro, Textile's ``<pre>``/``<notextile>`` … their end tag; a line inside a block
(not after a blank line: a ``bc.`` code paragraph's) is no Textile heading. (An extended block,
``bc..``, ends at the next block signature, a heading's too.)

Titles are what the page shows: Textile's ``@code@``, ``*strong*``, ``_em_``, ``??cite??``,
``==raw==`` markers dropped, a link ``"text":url`` shown by its text, HTML entities
(``&#45;``) as their characters; Jira's ``{anchor:…}`` and other macros dropped,
``{{monospace}}``, ``*strong*``, ``_em_``, ``??cite??``, ``+ins+`` markers dropped, a link
``[text|target]`` shown by its text, backslash escapes (``\\(``) as the sign.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from ..rules import SENTENCE_FINAL
from .markup_heading import Heading


MIN_HEADINGS = 2
"""``hN.`` heading lines a text needs before it is read as Textile or Jira."""

JIRA_SHARE = 0.5
"""Share of a text's heading lines whose title opens with Jira's ``{anchor:…}`` or holds
``{{monospace}}`` that makes it Jira without a macro line."""

_TEXTILE_HEADING = re.compile(
    r"h([1-6])((?:\([^()\s]*\)|\{[^{}]*\}|\[[^\]\s]*\]|<>|[<>=()])*)\.[ \t]+(\S.*?)[ \t]*$"
)
_JIRA_HEADING = re.compile(r"h([1-6])\.[ \t]+(\S.*?)[ \t]*$")
_JIRA_BLOCK = re.compile(r"\{(code|noformat)(?::[^}]*)?\}")
_JIRA_MARK = re.compile(r"\{(?:code|noformat|quote|panel)(?::[^}]*)?\}|\{anchor:[^}]*\}")
_TEXTILE_OPEN = re.compile(r"<(pre|notextile)\b[^>]*>")


def _jira(lines: list[str]) -> bool:
    """Whether a text with ``hN.`` heading lines is Jira: its macros (module docstring)."""
    if any(_JIRA_MARK.match(line) for line in lines):
        return True
    heads = [m.group(2) for line in lines if line[:1] == "h" and (m := _JIRA_HEADING.match(line))]
    marked = sum(t.startswith("{anchor:") or "{{" in t for t in heads)
    return bool(heads) and marked >= JIRA_SHARE * len(heads)


def jira_headings(lines: list[str], starts: list[int]) -> list[Heading] | None:
    """The ``hN.`` headings of a Jira wiki text, or None when the text is not one (module
    docstring)."""
    if not _jira(lines):
        return None
    out: list[Heading] = []
    block: str | None = None
    for i, line in enumerate(lines):
        if block is not None:
            if re.search(r"\{" + block + r"\}", line):
                block = None
            continue
        opened = _JIRA_BLOCK.search(line)
        if opened and not re.search(r"\{" + opened.group(1) + r"\}", line[opened.end() :]):
            block = opened.group(1)
            continue
        heading = _JIRA_HEADING.match(line) if line[:1] == "h" else None
        if heading and (title := jira_title(heading.group(2))):
            out.append((starts[i], int(heading.group(1)), title))
    return out if len(out) >= MIN_HEADINGS else None


def textile_headings(lines: list[str], starts: list[int]) -> list[Heading] | None:
    """The ``hN.`` headings of a Textile text, or None when the text is not one (module
    docstring)."""
    if _jira(lines):
        return None
    out: list[Heading] = []
    closing: str | None = None  # the end tag of an open <pre>/<notextile>
    for i, line in enumerate(lines):
        if closing is not None:
            if closing in line:
                closing = None
            continue
        start = i == 0 or not lines[i - 1].strip()
        opened = _TEXTILE_OPEN.match(line)
        if opened:
            if f"</{opened.group(1)}>" not in line[opened.end() :]:
                closing = f"</{opened.group(1)}>"
            continue
        heading = _TEXTILE_HEADING.match(line) if start and line[:1] == "h" else None
        if heading and (title := textile_title(heading.group(3))):
            out.append((starts[i], int(heading.group(1)), title))
    return out if len(out) >= MIN_HEADINGS else None


_TEXTILE_CODE = re.compile(r"(?<!\w)@(?=\S)(.+?)(?<=\S)@(?!\w)")
_TEXTILE_LINK = re.compile(
    rf'"([^"]+?)(?:\([^()"]*\))?":\S+?(?=[\s,;]|[{re.escape(SENTENCE_FINAL)})]*(?:\s|$))'
)
"""A link, ``"text":url``: the URL ends before a space, or before a sentence's end and a space."""
_TEXTILE_SPAN = re.compile(r"(?<!\w)(\*\*|\*|__|_|\?\?|==)(?=\S)(.+?)(?<=\S)\1(?!\w)")


def textile_title(title: str) -> str:
    """A Textile title as the page shows it (module docstring)."""

    def spans(text: str) -> str:
        return _TEXTILE_SPAN.sub(r"\2", _TEXTILE_LINK.sub(r"\1", text))

    return " ".join(html.unescape(render_outside(title, _TEXTILE_CODE, lambda m: m.group(1), spans)).split())


_JIRA_LITERAL = re.compile(r"\{\{(.*?)\}\}|\\(.)")
_JIRA_LINK = re.compile(r"\[(?:([^|\]]*)\|)?([^\]]*)\]")
_JIRA_MACRO = re.compile(r"\{[a-zA-Z]+(?::[^}]*)?\}")
_JIRA_SPAN = re.compile(r"(?<!\w)(\*|_|\?\?|\+)(?=\S)(.+?)(?<=\S)\1(?!\w)")


def jira_title(title: str) -> str:
    """A Jira title as the page shows it (module docstring)."""

    def literal(m: re.Match[str]) -> str:
        # NOTE: monospace shows its text as written, a backslash escaping a sign inside it too
        return re.sub(r"\\(.)", r"\1", m.group(1)) if m.group(1) is not None else m.group(2)

    def spans(text: str) -> str:
        text = _JIRA_LINK.sub(
            lambda m: m.group(1) if m.group(1) is not None else m.group(2), _JIRA_MACRO.sub("", text)
        )
        return _JIRA_SPAN.sub(r"\2", text)

    return " ".join(render_outside(title, _JIRA_LITERAL, literal, spans).split())


def render_outside(
    title: str, pattern: re.Pattern[str], shown: Callable[[re.Match[str]], str], markup: Callable[[str], str]
) -> str:
    """``title`` with ``markup`` applied to all but the runs ``pattern`` finds (code, escaped
    signs), each shown as ``shown`` gives it, untouched by the rest of the markup."""
    kept: list[str] = []

    def keep(m: re.Match[str]) -> str:
        kept.append(shown(m))
        return "\x00"

    parts = markup(pattern.sub(keep, title.replace("\x00", ""))).split("\x00")
    return "".join(p + (kept[k] if k < len(kept) else "") for k, p in enumerate(parts))
