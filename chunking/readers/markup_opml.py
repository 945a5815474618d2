"""Stage 1 (read), OPML outlines: each ``<outline text="…">`` is a heading at its nesting depth.

An OPML document (``pandoc -t opml``, an outliner's export) is an outline and nothing else: its
``<head>``'s ``<title>`` names the document, and every ``<outline>`` element under ``<body>`` is
a heading whose title is its ``text`` attribute, nested outlines its sections; the text under a
heading rides in the element's ``_note`` attribute. The text stays the source's (as with every
markup source), so a heading's offset is where its ``<outline`` tag starts.

Contract: ``opml_headings(text)`` returns ``(offset, level, title)`` headings, the head's title at
level 0 and the body's outlines from level 1, or None when the text is no OPML document (its root
element is not ``<opml>``).
"""

from __future__ import annotations

import html
import re

from .markup_heading import Heading

_ROOT = re.compile(r"\A\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*<opml\b", re.S)

_TAG = re.compile(r"""<(/?)(outline|title|body)\b((?:[^>"']|"[^"]*"|'[^']*')*)>""")
"""An ``<outline>``, ``<title>`` or ``<body>`` tag (start, end or empty), its attributes kept whole:
a quoted value may hold ``>``."""

_TEXT = re.compile(r"""\btext\s*=\s*(?:"([^"]*)"|'([^']*)')""")

_TITLE_CHARS = 300
"""Characters of a ``<title>`` element's text read."""


def opml_headings(text: str) -> list[Heading] | None:
    """The headings of an OPML document, or None when ``text`` is not one (module docstring)."""
    if not _ROOT.match(text):
        return None
    out: list[Heading] = []
    depth = 0
    in_body = False
    for m in _TAG.finditer(text):
        closing, name, attributes = m.group(1), m.group(2), m.group(3)
        if name == "body":
            in_body = not closing
        elif name == "title" and not closing and not in_body and not out:
            end = text.find("</title>", m.end(), m.end() + _TITLE_CHARS)
            title = " ".join(html.unescape(text[m.end() : end]).split()) if end >= 0 else ""
            if title:
                out.append((m.start(), 0, title))
        elif name == "outline" and in_body:
            if closing:
                depth = max(0, depth - 1)
                continue
            value = _TEXT.search(attributes)
            title = " ".join(html.unescape(value.group(1) or value.group(2) or "").split()) if value else ""
            if title:
                out.append((m.start(), depth + 1, title))
            if not attributes.rstrip().endswith("/"):
                depth += 1
    return out if any(level >= 1 for _, level, _ in out) else None
