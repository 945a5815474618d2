"""Where a chunk sits in the book: front matter, body, back matter, the contents or the index.

The rule, defined once (the chunker writes it into ``Chunk.matter``, the validator checks it, the
exclusion and the app read it):

* The book is cut into **units** at its chapter-level headings and parts (``FENCE_KINDS``: the
  chapter fences). A unit's matter comes from its heading: a title that names the contents or a
  list of figures/tables (``CONTENTS_TITLE``) is ``contents``; one that names an index
  (``INDEX_TITLE``: ``Index``, ``Concept Index``, ``Index of Commands``) is ``index``; else a
  ``front`` heading is ``front``, a ``back`` or ``appendix`` heading (the Chicago Manual's back
  matter) ``back``, a chapter or part ``body``.
* Text before the first unit is ``front`` (title page, copyright, dedication); a book without
  chapter-level headings is all ``body``.
* A chunk's matter is that of the unit holding its first non-whitespace character, as its
  ``chapter`` is. Under the chapter-aware strategies a chunk never crosses a unit (units are
  chapter fences); a ``fixed-window`` chunk may run on into the next unit.

``--exclude-matter contents,index`` (``Policy.exclude_matter``) leaves the chunks of those
matters out of the output (``exclude``): the chunks kept keep their ``order`` and ``id`` (the
same chunks as without the option), and the run reports how many chunks and tokens went.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .models import Chunk, Heading
from .rules import FENCE_KINDS, LIST_OF

MATTERS = ("front", "contents", "body", "back", "index")
"""Every value of ``Chunk.matter``, in book order: ``contents`` lies within the front matter and
``index`` within the back matter."""

CONTENTS_TITLE = re.compile(
    rf"^(?:(?:table of |brief |detailed |short )?contents(?: at a glance)?|{LIST_OF})(?:\s*\(continued\))?$",
    re.I,
)
"""Titles of the units that list the book's own pages: its contents and the lists after it."""
INDEX_TITLE = re.compile(r"^(?:[\w-]+\s+){0,3}(?:index|indices|indexes)$|^index of\b", re.I)
"""Titles of index units: ``Index``, ``General Index``, ``Index of Commands``."""

_BY_KIND = {"front": "front", "back": "back", "appendix": "back"}


def heading_matter(heading: Heading) -> str:
    """The matter of the unit a chapter-level heading or part opens (see the module docstring)."""
    title = " ".join(heading.title.split())
    if CONTENTS_TITLE.match(title):
        return "contents"
    if INDEX_TITLE.match(title):
        return "index"
    return _BY_KIND.get(heading.kind, "body")


class MatterIndex:
    """The matter at any offset of one book, built once from its headings, looked up by bisect."""

    def __init__(self, headings: Iterable[Heading]) -> None:
        units = sorted((h for h in headings if h.kind in FENCE_KINDS), key=lambda h: h.char_offset)
        self.starts: list[int] = [h.char_offset for h in units]
        self.matters: list[str] = [heading_matter(h) for h in units]
        self.before = "front" if units else "body"

    def at(self, offset: int) -> str:
        """The matter of the unit holding ``offset``."""
        i = bisect.bisect_right(self.starts, offset) - 1
        return self.matters[i] if i >= 0 else self.before

    def regions(self, length: int) -> list[tuple[int, int, str]]:
        """``(char_start, char_end, matter)`` runs covering ``[0, length)``, neighbours merged."""
        bounds = [0, *(min(max(s, 0), length) for s in self.starts), length]
        names = [self.before, *self.matters]
        out: list[tuple[int, int, str]] = []
        for a, b, name in zip(bounds, bounds[1:], names):
            if b <= a:
                continue
            if out and out[-1][2] == name:
                out[-1] = (out[-1][0], b, name)
            else:
                out.append((a, b, name))
        return out


def parse_exclusion(text: str) -> str:
    """``"index, contents"`` → the canonical ``Policy.exclude_matter`` value ``"contents,index"``
    (``MATTERS`` order, each once; ``,`` or ``+`` between names). ``""`` excludes nothing.

    Raises:
        ValueError: a name that is no matter (the message lists them).
    """
    names = [n.strip().casefold() for n in re.split(r"[,+]", text) if n.strip()]
    unknown = [n for n in names if n not in MATTERS]
    if unknown:
        raise ValueError(f"{unknown[0]!r} is no matter; choose from {', '.join(MATTERS)}")
    return ",".join(m for m in MATTERS if m in names)


def excluded_names(value: str) -> frozenset[str]:
    """The matters a canonical ``Policy.exclude_matter`` value names."""
    return frozenset(filter(None, value.split(",")))


@dataclass(frozen=True)
class Exclusion:
    """What ``exclude`` left out: the matters, how many chunks, and how many tokens of the book
    no kept chunk holds any more (a token two chunks shared counts once)."""

    matters: str = ""
    chunks: int = 0
    tokens: int = 0

    def to_dict(self) -> dict[str, object]:
        return {
            "matter": [m for m in self.matters.split(",") if m],
            "chunks": self.chunks,
            "tokens": self.tokens,
        }

    def message(self) -> str:
        """One line for stderr or a caption; ``""`` when nothing was asked to go."""
        if not self.matters:
            return ""
        *most, last = self.matters.split(",")
        names = f"{', '.join(most)} and {last}" if most else last
        return f"left out {self.chunks} {names} chunks ({self.tokens} tokens)"


def covered_tokens(chunks: Sequence[Chunk]) -> int:
    """Tokens held by at least one of ``chunks`` (in order, ``token_end`` increasing)."""
    total = end = 0
    for c in chunks:
        total += max(0, c.token_end - max(c.token_start, end))
        end = max(end, c.token_end)
    return total


def exclude(chunks: Sequence[Chunk], matters: str) -> tuple[list[Chunk], Exclusion]:
    """The chunks whose matter is not in ``matters`` (a ``Policy.exclude_matter`` value), in
    order with their own ``order`` and ``id``, and what went."""
    names = excluded_names(matters)
    if not names:
        return list(chunks), Exclusion()
    kept = [c for c in chunks if c.matter not in names]
    return kept, Exclusion(matters, len(chunks) - len(kept), covered_tokens(chunks) - covered_tokens(kept))
