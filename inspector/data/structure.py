"""App stage (Structure page data): the evidence table, the rejected candidates, and the
corrections built from what the user picked. Pure functions (no Streamlit); the page's blocks
are ``inspector.views.structure``. The diagnostics are read by their fields
(``chunking.models.Disagreement`` / ``Rejected``), never parsed from sentences.

Evidence marks, one column per signal (``chunking.models.SIGNALS``):

* ✓ the signal supports the heading (it is in ``Heading.evidence``);
* ✗ the signal speaks in this book (it supports some chapter-level heading) but not this one;
* — the signal has no say: the book has none of it, or it cannot apply (``numbering`` for an
  unnumbered heading).

A row is a *disagreement* when some signal says ✓ and another ✗, when its confidence is below
``DISAGREE_CONFIDENCE``, or when a ``Diagnostics.structure_disagreements`` record names it (its
page and title). The frames go to
``st.dataframe``, which draws cell text as text, so book data needs no escaping here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pandas as pd
from rapidfuzz import fuzz

from chunking.models import SIGNALS, Book, Heading
from chunking.titles import MAX_TEXT_FIELD, safe_title
from chunking.structure_file import (
    CORRECTION_SOURCE,
    Anchor,
    Correction,
    heading_anchor,
    line_span,
    page_lines,
)

TABLE_KINDS = ("part", "chapter", "appendix", "front", "back")
"""The heading kinds the evidence table lists (chapter level and parts; sections are too many)."""
DISAGREE_CONFIDENCE = 0.6
"""Below this confidence (one signal or fewer, or unconfirmed) a row counts as a disagreement."""
LINE_MATCH_MIN = 80.0
"""rapidfuzz ratio above which a page line counts as a rejected candidate's quoted text."""
COLUMNS_SIGNALS = (*SIGNALS, CORRECTION_SOURCE)
"""Evidence columns: every engine signal, then the user's corrections."""
YES, NO, NONE = "✓", "✗", "—"


def table_headings(book: Book) -> list[int]:
    """Indices into ``book.headings`` of the headings the evidence table lists."""
    return [i for i, h in enumerate(book.headings) if h.kind in TABLE_KINDS]


def _signals(h: Heading) -> set[str]:
    return {signal for signal, _ in h.evidence}


def _disputed(book: Book) -> set[tuple[int, str]]:
    """(page, title key) of the headings the diagnostics' disagreements name (with and without
    their number)."""
    out = set()
    for d in book.diagnostics.structure_disagreements:
        if d.page is not None and d.title:
            out.add((d.page, _key(d.title)))
            out.add((d.page, _key(f"{d.number} {d.title}".strip())))
    return out


def mixed_marks(marks: dict[str, str]) -> bool:
    """Some signal supports the heading and another, speaking in this book, does not."""
    return YES in marks.values() and NO in marks.values()


def _key(text: str) -> str:
    return " ".join(text.split()).casefold()[:40]


def evidence_table(book: Book) -> pd.DataFrame:
    """One row per part/chapter/appendix/front/back heading: its index in ``book.headings``, kind,
    level, number, title, page, printed label, confidence, one ✓/✗/— column per signal and a
    ``disagree`` flag (see the module docstring)."""
    rows = table_headings(book)
    speaking = set().union(*(_signals(book.headings[i]) for i in rows)) if rows else set()
    disputed = _disputed(book)
    data: dict[str, list] = {
        k: []
        for k in (
            "heading",
            "kind",
            "level",
            "number",
            "title",
            "page",
            "label",
            "confidence",
            *COLUMNS_SIGNALS,
            "disagree",
        )
    }
    for i in rows:
        h = book.headings[i]
        have = _signals(h)
        marks = {}
        for s in COLUMNS_SIGNALS:
            if s in have:
                marks[s] = YES
            elif s not in speaking or s == CORRECTION_SOURCE or (s == "numbering" and not h.number):
                marks[s] = NONE
            else:
                marks[s] = NO
        named = {(h.page, _key(f"{h.number} {h.title}".strip())), (h.page, _key(h.title))} & disputed
        flagged = bool(named) or mixed_marks(marks) or h.confidence < DISAGREE_CONFIDENCE
        for k, v in (
            ("heading", i),
            ("kind", h.kind),
            ("level", h.level),
            ("number", h.number),
            ("title", h.title),
            ("page", h.page),
            ("label", h.page_label),
            ("confidence", h.confidence),
            ("disagree", flagged),
        ):
            data[k].append(v)
        for s in COLUMNS_SIGNALS:
            data[s].append(marks[s])
    return pd.DataFrame(data)


@dataclass(frozen=True)
class Candidate:
    """A heading the engine considered and left out: where, the quoted line, and why."""

    page: int | None
    text: str
    why: str
    origin: str

    def label(self) -> str:
        where = f"p. {self.page}" if self.page else "no page"
        return f"{where}: {self.text[:70]} — {self.why}"


def candidates(book: Book) -> list[Candidate]:
    """The rejected candidates (``structure_rejected``), then the chapter-level headings another
    signal found that the chosen structure lacks (``structure_disagreements`` of case
    ``missing``), read from the diagnostics' fields."""
    out = [Candidate(r.page, r.line, r.reason, "rejected") for r in book.diagnostics.structure_rejected]
    for d in book.diagnostics.structure_disagreements:
        if d.case == "missing":
            why = f"found by {', '.join(d.signals)}; not in the chosen structure"
            out.append(Candidate(d.page, f"{d.number} {d.title}".strip(), why, "unlisted"))
    return out


def find_line(book: Book, page: int, text: str) -> tuple[int, str] | None:
    """The line of ``page`` a candidate quotes (its start offset and text): the first that starts
    with the quoted text, else the best fuzzy match above ``LINE_MATCH_MIN``; None if none."""
    want = " ".join(text.split()).casefold()
    lines = page_lines(book, page)
    for offset, line in lines:
        if want and " ".join(line.split()).casefold().startswith(want):
            return offset, line
    scored = [(fuzz.ratio(want, " ".join(line.split()).casefold()), offset, line) for offset, line in lines]
    best = max(scored, default=None)
    return (best[1], best[2]) if best and best[0] >= LINE_MATCH_MIN else None


def chapter_level(book: Book) -> int:
    """The level chapters have in this book (the commonest; 1 when it has none)."""
    levels = Counter(h.level for h in book.headings if h.kind == "chapter")
    return levels.most_common(1)[0][0] if levels else 1


def heading_at(book: Book, offset: int) -> int | None:
    """Index of the heading starting at ``offset``, if any."""
    for i, h in enumerate(book.headings):
        if h.char_offset == offset:
            return i
    return None


def add_op(
    book: Book,
    page: int,
    offset: int,
    line: str,
    kind: str = "chapter",
    level: int | None = None,
    title: str = "",
) -> Correction:
    """The correction that makes the line at ``offset`` a ``kind`` start: an ``add``, or a ``set``
    when a heading (a section, say) already starts there."""
    fields: list[tuple[str, object]] = [("kind", kind), ("level", level or chapter_level(book))]
    title = safe_title(title, MAX_TEXT_FIELD).strip()  # the structure file's rule (chunking.titles)
    if title:
        fields.append(("title", title))
    i = heading_at(book, offset)
    if i is not None:
        return Correction("set", heading_anchor(book, book.headings[i]), None, tuple(fields))
    return Correction("add", Anchor(page, line, offset), None, tuple(fields))


def remove_op(book: Book, i: int) -> Correction:
    """The correction removing heading ``i``."""
    return Correction("remove", heading_anchor(book, book.headings[i]))


def move_op(book: Book, i: int, page: int, offset: int, line: str) -> Correction:
    """The correction moving heading ``i`` to the line at ``offset`` of ``page``."""
    return Correction("move", heading_anchor(book, book.headings[i]), Anchor(page, line, offset))


def set_op(book: Book, i: int, **changes: object) -> Correction | None:
    """The correction changing heading ``i``'s kind/level/title/number to ``changes`` (only the
    fields that differ); None when nothing changes."""
    h = book.headings[i]
    fields = tuple((k, v) for k, v in changes.items() if v != getattr(h, k))
    return Correction("set", heading_anchor(book, h), None, fields) if fields else None


def heading_line(book: Book, h: Heading) -> tuple[int, int]:
    """``[start, end)`` of the heading's line relative to its page's text (for highlighting)."""
    page = book.pages[h.page - 1]
    a, b = line_span(book.text, h.char_offset)
    return max(a, page.char_start) - page.char_start, min(b, page.char_end) - page.char_start


def op_label(c: Correction) -> str:
    """One line describing a correction (shown as text, never Markdown)."""
    if c.op == "move":
        assert c.to is not None  # parse_correction gives every move its target
        return f"move p. {c.anchor.page} {c.anchor.line_text[:50]!r} → p. {c.to.page} {c.to.line_text[:50]!r}"
    extra = ", ".join(f"{k}={v!r}" for k, v in c.fields)
    return f"{c.op} p. {c.anchor.page} {c.anchor.line_text[:60]!r}" + (f" ({extra})" if extra else "")
