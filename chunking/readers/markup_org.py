"""Stage 1 (read), Org sources: the headlines of an Org-mode text, as Org's syntax defines them.

Contract (the Org syntax reference, "Headings" and "Blocks"): a headline is a line that starts,
at column 0, with one or more ``*`` followed by a space or tab; its level is the number of stars
(``#+STARTUP: odd`` files use odd levels only: 1, 3, 5 stars are levels 1, 2, 3). A headline's
title is what a reader of the exported book sees: the TODO keyword (``TODO``/``DONE`` and those a
``#+TODO:``/``#+SEQ_TODO:``/``#+TYP_TODO:`` line declares), the priority cookie ``[#A]``, the
``COMMENT`` keyword, statistics cookies (``[2/5]``, ``[40%]``) and trailing tags (``:work:home:``)
are dropped; a link ``[[target][description]]`` shows its description (else its target);
verbatim, code and bold markers (``=x=``, ``~x~``, ``*x*``) are removed. The ``#+TITLE:`` keyword
is the document title, level 0. Nothing inside a block (``#+BEGIN_SRC`` … ``#+END_SRC`` and every
other ``#+BEGIN_NAME``, dynamic blocks ``#+BEGIN:`` … ``#+END:``) is a headline.
"""

from __future__ import annotations

import re

HEADLINE = re.compile(r"(\*+)[ \t]+(.*?)[ \t]*$")
KEYWORD = re.compile(r"#\+([A-Za-z_]+):[ \t]*(.*?)[ \t]*$")
"""An Org keyword line (``#+TITLE: A book``), at column 0."""
BEGIN = re.compile(r"[ \t]*#\+begin(?:_(\S+)|:)", re.IGNORECASE)

DEFAULT_TODO = ("TODO", "DONE")
_PRIORITY = re.compile(r"\[#[A-Za-z0-9]+\][ \t]*")
_COOKIE = re.compile(r"[ \t]*\[(?:\d*%|\d*/\d*)\]")
_TAGS = re.compile(r"[ \t]+:(?:[\w@#%]+:)+$")
_LINK = re.compile(r"\[\[([^\]]*)\](?:\[([^\]]*)\])?\]")
_MARKERS = re.compile(r"(?<![\w])([=~*])(\S(?:.*?\S)?)\1(?![\w])")


def org_headings(lines: list[str], starts: list[int]) -> list[tuple[int, int, str]]:
    """The headlines of an Org text as ``(offset, level, title)``, with ``#+TITLE:`` at level 0.

    Args:
        lines (list[str]): the text's lines.
        starts (list[int]): the offset where each line starts.

    Returns:
        list[tuple[int, int, str]]: in order; headlines whose title is empty once cleaned are
        left out.
    """
    todo, odd = _settings(lines)
    out: list[tuple[int, int, str]] = []
    titled = False
    end: re.Pattern[str] | None = None  # the line that closes the open block
    for i, line in enumerate(lines):
        if end is not None:
            if end.match(line):
                end = None
            continue
        begin = BEGIN.match(line)
        if begin:
            name = re.escape(begin.group(1)) if begin.group(1) else ""
            end = re.compile(rf"[ \t]*#\+end{'_' + name if name else ':'}[ \t]*$", re.IGNORECASE)
            continue
        keyword = KEYWORD.match(line)
        if keyword and keyword.group(1).upper() == "TITLE" and not titled:
            titled = True
            title = clean_title(keyword.group(2), ())
            if title:
                out.append((starts[i], 0, title))
            continue
        headline = HEADLINE.match(line)
        if headline:
            stars = len(headline.group(1))
            title = clean_title(headline.group(2), todo)
            if title:
                out.append((starts[i], (stars + 1) // 2 if odd else stars, title))
    return out


def _settings(lines: list[str]) -> tuple[tuple[str, ...], bool]:
    """The TODO keywords the text declares (with the defaults) and whether it uses odd levels."""
    todo = list(DEFAULT_TODO)
    odd = False
    for line in lines:
        keyword = KEYWORD.match(line)
        if keyword is None:
            continue
        name, value = keyword.group(1).upper(), keyword.group(2)
        if name in ("TODO", "SEQ_TODO", "TYP_TODO"):
            todo += [re.sub(r"\(.*\)$", "", w) for w in value.split() if w != "|"]
        elif name == "STARTUP":
            words = value.lower().split()
            odd = "odd" in words or (odd and "oddeven" not in words)
    return tuple(w for w in todo if w), odd


def clean_title(text: str, todo: tuple[str, ...]) -> str:
    """A headline's text as the exported book shows it (see the module docstring)."""
    words = text.split(None, 1)
    if words and words[0] in todo:
        text = words[1] if len(words) > 1 else ""
    text = _PRIORITY.sub("", text, count=1)
    if text == "COMMENT" or text.startswith(("COMMENT ", "COMMENT\t")):
        text = text[len("COMMENT") :]
    text = _TAGS.sub("", text)
    text = _COOKIE.sub("", text)
    text = _LINK.sub(lambda m: m.group(2) or m.group(1), text)
    text = _MARKERS.sub(r"\2", text)
    return " ".join(text.split())


def looks_like_org(lines: list[str]) -> bool:
    """Whether a text without an ``.org`` name is written in Org: it holds an Org keyword line
    (``#+TITLE:``, ``#+OPTIONS:`` …) or a ``#+BEGIN_`` block, or declares ``mode: org`` on its
    first line. Star-led lines alone do not make Org: plain text uses ``* item`` bullets."""
    if lines and re.search(r"-\*-.*\bmode:[ \t]*org\b", lines[0], re.IGNORECASE):
        return True
    return any(line.startswith("#+") and (KEYWORD.match(line) or BEGIN.match(line)) for line in lines)
