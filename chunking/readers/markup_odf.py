"""Stage 1 (read), OpenDocument text as XML (a flat ``.fodt``, or a ``content.xml`` as pandoc's
``opendocument`` writer gives it): ``<text:h text:outline-level="N">`` elements are the headings.

OpenDocument marks a heading as such: a ``<text:h>`` paragraph whose ``text:outline-level`` is
its level; its title is the element's text, its bookmarks, spans and notes' markup aside. The text
stays the source's (as with every markup source), so a heading's offset is where its tag starts.

Above the first heading, the body may open with a title block and a table of contents written as
paragraphs, not headings; ODF says what they are by their styles and elements (``front_headings``):
the document's title is the first paragraph of the ``Title`` style (ODF's own name, any producer
uses it) or, when none, the first paragraph set at least ``TITLE_SIZE`` times the body's size (the
paragraph style most of the text is set in, sizes resolved through the styles' parents), joined
with the paragraphs right below it set the same; the contents' title is the ``<text:index-title>``
of a ``<text:table-of-content>``. The title is level 0 (a document's title, as the other
readers give it), the contents' title at the headings' top level.

Contract: ``odf_headings(text)`` returns ``(offset, level, title)`` headings, or None when the
text is no OpenDocument XML (its root is not ``<office:document>`` or
``<office:document-content>``) or holds no heading.
"""

from __future__ import annotations

import html
import re

from .markup_heading import Heading

_ROOT = re.compile(r"\A\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*<office:document(?:-content)?\b", re.S)

_HEADING = re.compile(r"""<text:h\b((?:[^>"']|"[^"]*"|'[^']*')*)>(.*?)</text:h>""", re.S)

_LEVEL = re.compile(r"""\btext:outline-level\s*=\s*["'](\d+)["']""")

_NOTE = re.compile(r"<text:note\b.*?</text:note>", re.S)
"""A footnote inside a heading: its text is the note's, not the title's."""

_TAG = re.compile(r"<[^>]*>")


def odf_headings(text: str) -> list[Heading] | None:
    """The headings of an OpenDocument XML text, or None when ``text`` is not one (module
    docstring)."""
    if not _ROOT.match(text):
        return None
    out: list[Heading] = []
    for m in _HEADING.finditer(text):
        level = _LEVEL.search(m.group(1))
        title = _text(m.group(2))
        if title:
            out.append((m.start(), int(level.group(1)) if level else 1, title))
    if not out:
        return None
    return front_headings(text, out[0][0], min(level for _, level, _ in out)) + out


def _text(markup: str) -> str:
    """An element's text: its notes, tags and spacing aside, its entities resolved."""
    return " ".join(html.unescape(_TAG.sub("", _NOTE.sub("", markup))).split())


TITLE_SIZE = 1.4
"""How many times the body's font size a paragraph above the first heading is set at to be the
document's title (``front_headings``)."""

_BODY = re.compile(r"<office:text[\s>]")

_STYLE = re.compile(r"""<style:(default-)?style\b((?:[^>"']|"[^"]*"|'[^']*')*)>""")
"""A style's start tag; its properties run to the next style's (``_styles``)."""

_SIZE = re.compile(r"""<style:text-properties\b[^>]*?\bfo:font-size\s*=\s*["']([^"']*)["']""")

_OPEN = re.compile(r"""<text:[ph]\b((?:[^>"'/]|"[^"]*"|'[^']*')*)>""")
"""A paragraph's or heading's start tag (not an empty one): a paragraph's text runs to the next."""

_CONTENTS = re.compile(r"<text:table-of-content\b")

_INDEX_TITLE = re.compile(r"<text:index-title\b")


def _attribute(attributes: str, name: str) -> str | None:
    m = re.search(rf"""\b{name}\s*=\s*["']([^"']*)["']""", attributes)
    return html.unescape(m.group(1)) if m else None


def _styles(text: str) -> dict[str, tuple[str | None, str | None, str | None]]:
    """The paragraph styles by name: ``(parent, display name, font size)``; the default style
    under the empty name."""
    out: dict[str, tuple[str | None, str | None, str | None]] = {}
    opens = list(_STYLE.finditer(text))
    for i, m in enumerate(opens):
        if _attribute(m.group(2), "style:family") != "paragraph":
            continue
        # NOTE: up to the next style's tag, so an unclosed style reads no further (linear)
        body = (
            ""
            if m.group(0).endswith("/>")
            else text[m.end() : opens[i + 1].start() if i + 1 < len(opens) else len(text)]
        )
        size = _SIZE.search(body.split("</style:", 1)[0])
        name = "" if m.group(1) else _attribute(m.group(2), "style:name")
        if name is not None:
            out[name] = (
                _attribute(m.group(2), "style:parent-style-name"),
                _attribute(m.group(2), "style:display-name"),
                size.group(1) if size else None,
            )
    return out


def _resolved(
    styles: dict[str, tuple[str | None, str | None, str | None]], name: str
) -> tuple[float | None, bool]:
    """A paragraph style's font size in points (its own or its parents', a percentage of the
    parent's applied) and whether it is, or derives from, the ``Title`` style."""
    factor, titled, seen = 1.0, False, set()
    at: str | None = name
    while at is not None and at not in seen:
        seen.add(at)
        parent, display, size = styles.get(at, (None, None, None))
        titled = titled or "Title" in (at, display)
        points = _number(size[:-2]) if size and size.endswith("pt") else None
        if points is not None:
            return factor * points, titled
        share = _number(size[:-1]) if size and size.endswith("%") else None
        factor *= share / 100 if share is not None else 1.0
        at = parent if parent is not None else ("" if at else None)
    return None, titled


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def front_headings(text: str, before: int, level: int) -> list[Heading]:
    """The title block's title (level 0) and the contents' title (at ``level``, the headings'
    top) above the first heading (at ``before``; module docstring)."""
    body = _BODY.search(text, 0, before)
    if body is None:
        return []
    styles = _styles(text[: body.start()])
    opens = list(_OPEN.finditer(text, body.start()))
    weights: dict[str, int] = {}
    paragraphs: list[tuple[int, str, str]] = []
    for i, m in enumerate(opens):
        end = opens[i + 1].start() if i + 1 < len(opens) else len(text)
        if not m.group(0).startswith("<text:p"):
            continue
        style = _attribute(m.group(1), "text:style-name") or ""
        content = _text(text[m.end() : end].split("</text:p>", 1)[0])
        weights[style] = weights.get(style, 0) + len(content)
        if m.start() < before:
            paragraphs.append((m.start(), style, content))
    out: list[Heading] = []
    body_size = _resolved(styles, max(weights, key=weights.__getitem__))[0] if weights else None
    title = _title(paragraphs, styles, body_size)
    if title is not None:
        out.append((title[0], 0, title[1]))
    contents = _CONTENTS.search(text, body.start(), before)
    index_title = _INDEX_TITLE.search(text, contents.end(), before) if contents else None
    if index_title is not None:
        named = next(((at, words) for at, _, words in paragraphs if at > index_title.start() and words), None)
        if named is not None and (not out or named[0] > out[0][0]):
            out.append((named[0], level, named[1]))
    return out


def _title(
    paragraphs: list[tuple[int, str, str]],
    styles: dict[str, tuple[str | None, str | None, str | None]],
    body: float | None,
) -> tuple[int, str] | None:
    """The document's title among the paragraphs above the first heading: the first of the
    ``Title`` style, else the first set ``TITLE_SIZE`` times the body's size, with the
    paragraphs right below it set the same (empty ones, a logo's, passed over)."""
    sized = [(at, _resolved(styles, style), words) for at, style, words in paragraphs]
    titled = next(((at, words) for at, (_, is_title), words in sized if is_title and words), None)
    if titled is not None or body is None:
        return titled
    first = next(
        (k for k, (_, (size, _), words) in enumerate(sized) if words and size and size >= TITLE_SIZE * body),
        None,
    )
    if first is None:
        return None
    size = sized[first][1][0]
    words = [sized[first][2]]
    for _, (other, _), more in sized[first + 1 :]:
        if not more:
            continue
        if other != size:
            break
        words.append(more)
    return sized[first][0], " ".join(words)
