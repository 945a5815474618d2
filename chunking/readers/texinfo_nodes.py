"""Stage 1 (read), a Texinfo manual's HTML written out as text without its headings: its nodes,
named by their navigation lines.

Contract: ``node_headings(lines, starts)`` returns the nodes of a text that keeps the navigation
line Texinfo's HTML prints above every node (``Next: Overview, Previous: Top, Up: Top
[Contents][Index]``) but not the heading below it (a main-content extractor dropped every
``<h1>``-``<h3>``), each at its navigation line, or None when the text is no such dump.

A navigation line names its node's neighbours, never the node itself, so each node is named by
its siblings: of two sibling lines (the same ``Up:``) in text order, the first's ``Next:`` is the
second's name and the second's ``Previous:`` the first's, unless the two name the same node (a
node between them whose line is lost). The top node's line has no ``Up:`` (or one into another
manual, ``(dir)``); its ``Next:`` is the first chapter (else the node whose line follows its
own is), and the chapters' ``Up:`` is its name.
Depths follow the ``Up:`` links from the top node (level 0, the manual's title page; its
children the chapters, level 1); a node whose name or parent no line gives is left out.

Only where the headings are gone: when most named nodes' names stand on the first line below
their navigation line (a dump that kept the headings: the plain-text reader reads those
titles), this says None; so it does with fewer than ``MIN_CHAPTERS`` named chapters.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .markup_heading import Heading

MIN_CHAPTERS = 3
"""Named children of the top node a text needs before its navigation lines are its outline."""

_LABELS = {"Next": "next", "Previous": "prev", "Prev": "prev", "Up": "up"}

_NAVIGATION = re.compile(r"(?:Next|Previous|Prev|Up): \S")
"""A line opening a node's navigation (``Next: Overview, Previous: Top, Up: Top``)."""

_FIELD = re.compile(r"(Next|Previous|Prev|Up): (.*?)(?=,\s+(?:Next|Previous|Prev|Up): |$)")
"""One link of a navigation line: its label and the node it names (a name may hold commas)."""

_BUTTONS = re.compile(r"(?:\s*\\?\[\s*[^\[\]]*?\s*\\?\](?:\([^()]*\))?\\?\]?)+\s*$")
"""The ``[Contents][Index]`` buttons closing a navigation line (escaped ``\\[Contents\\]`` in
Markdown, ``[[Contents](#SEC_Contents)]`` as a Markdown link)."""

_LINK = re.compile(r"\[([^\[\]]*)\]\([^()]*\)")
"""A Markdown link: its text is the name it shows."""

_OTHER_MANUAL = re.compile(r"\(\S+\)")
"""A link into another manual (``(dir)``, ``(emacs)Top``)."""


def _links(text: str) -> dict[str, str] | None:
    """The links of a navigation line (``next``, ``prev``, ``up`` → the name shown), or None."""
    if not _NAVIGATION.match(text):
        return None
    body = _BUTTONS.sub("", _LINK.sub(r"\1", text.rstrip()))
    links = {_LABELS[m[1]]: " ".join(m[2].split()) for m in _FIELD.finditer(body)}
    return links if links and all(links.values()) else None


def node_headings(
    lines: list[str], starts: list[int], render: Callable[[str], str] = str
) -> list[Heading] | None:
    """The nodes of a Texinfo HTML dump whose headings are gone, named by their navigation lines.

    Args:
        lines (list[str]): the text's lines.
        starts (list[int]): the offset of each line in the text.
        render (Callable[[str], str]): how a name is shown (a Markdown text's escapes read).

    Returns:
        list[Heading] | None: ``(offset of the navigation line, depth, name)`` in text order, the
        top node at depth 0; None when the text is no such dump (see the module docstring).
    """
    navigation = [(i, links) for i, line in enumerate(lines) if (links := _links(line)) is not None]
    roots = [
        k for k, (_, links) in enumerate(navigation) if _OTHER_MANUAL.fullmatch(links.get("up", "(dir)"))
    ]
    if len(navigation) <= MIN_CHAPTERS or not roots:
        return None
    root = roots[0]
    names: dict[int, str] = {}
    siblings: dict[str, list[int]] = {}
    for k, (_, links) in enumerate(navigation):
        if k != root and "up" in links:
            siblings.setdefault(links["up"], []).append(k)
    for group in siblings.values():
        for a, b in zip(group, group[1:]):
            following, before = navigation[a][1].get("next"), navigation[b][1].get("prev")
            if following and before and following != before:
                names.setdefault(b, following)
                names.setdefault(a, before)
    top = navigation[root][1].get("next")
    parents = [up for up, group in siblings.items() if top is not None and names.get(group[0]) == top]
    if not parents and root + 1 < len(navigation):
        parents = [navigation[root + 1][1].get("up", "")]  # NOTE: the top node's first child follows it
    if len(parents) != 1 or parents[0] not in siblings:
        return None
    parent = parents[0]
    if top is not None:
        names.setdefault(siblings[parent][0], top)
    names[root] = parent
    depth = {parent: 0}
    named = {name: k for k, name in names.items()}
    order = sorted(names)
    for k in order:  # NOTE: in text order a parent's line comes before its children's
        up = navigation[k][1].get("up")
        if k != root and up in depth and names[k] not in depth:
            depth[names[k]] = depth[up] + 1
    kept = [k for k in order if names[k] in depth and named[names[k]] == k]
    if sum(depth[names[k]] == 1 for k in kept) < MIN_CHAPTERS or _titled(lines, navigation, names, kept):
        return None
    return [(starts[navigation[k][0]], depth[names[k]], render(names[k])) for k in kept]


def _titled(
    lines: list[str], navigation: list[tuple[int, dict[str, str]]], names: dict[int, str], kept: list[int]
) -> bool:
    """Whether most nodes show their name on the first line below their navigation line (a
    number or label before it allowed): the headings are there, and read as the text's own."""
    shown = 0
    for k in kept:
        i = navigation[k][0] + 1
        while i < len(lines) and not lines[i].strip():
            i += 1
        shown += i < len(lines) and _key(lines[i]).endswith(_key(names[k]))
    return 2 * shown > len(kept)


def _key(text: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", text).casefold().split())
