"""Stage 1 (read), FictionBook 2 (``.fb2``, ``pandoc -t fb2``): nested ``<section>`` elements
titled by their ``<title>`` are the headings.

A FictionBook body is a tree of sections, each opening with a ``<title>`` of paragraphs; a
section's depth is its level, the ``<body>``'s own title (the book's) level 0. Notes bodies
(``<body name="notes">``) hold footnotes, not the book's structure. The text stays the source's
(as with every markup source), so a heading's offset is where its ``<title>`` tag starts.

Contract: ``fb2_headings(text)`` returns ``(offset, level, title)`` headings, or None when the
text is no FictionBook (its root is not ``<FictionBook>``) or holds no titled section.
"""

from __future__ import annotations

import html
import re

from .markup_heading import Heading

_ROOT = re.compile(r"\A\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*<FictionBook\b", re.S)

_TAG = re.compile(r"""<(/?)(body|section|title)\b((?:[^>"']|"[^"]*"|'[^']*')*?)(/?)>""")

_NOTES = re.compile(r"""\bname\s*=\s*["']notes["']""")

_MARKUP = re.compile(r"<[^>]*>")


def fb2_headings(text: str) -> list[Heading] | None:
    """The headings of a FictionBook, or None when ``text`` is not one (module docstring)."""
    if not _ROOT.match(text):
        return None
    out: list[Heading] = []
    depth = 0
    in_body = in_notes = False
    for m in _TAG.finditer(text):
        closing, name, attributes, empty = m.groups()
        if name == "body":
            in_body = not closing and not empty
            in_notes = in_body and _NOTES.search(attributes) is not None
            depth = 0
        elif not in_body or in_notes or empty:
            continue
        elif name == "section":
            depth += -1 if closing else 1
        elif name == "title" and not closing:
            end = text.find("</title>", m.end())
            inner = text[m.end() : end] if end >= 0 else ""
            title = " ".join(html.unescape(_MARKUP.sub(" ", inner)).split())
            if title:
                out.append((m.start(), max(depth, 0), title))
    return out if any(level >= 1 for _, level, _ in out) else None
