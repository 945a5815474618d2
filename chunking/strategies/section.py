"""Stage 5 (chunk): the ``section`` strategy — whole sections, small ones merged, large ones split.

Contract (the section-based seed, seed-behaviours.md part B, with its bugs fixed):

* **Units.** The token stream is cut at every heading (parts, chapters, sections at any depth):
  each unit runs from one heading to the next, so a chapter without sections is one unit (the
  fallback to chapter level), a chapter's text before its first section is its own unit, and so is
  the text before the book's first heading. A heading directly followed by another heading is a
  unit of its own and is kept (the seed dropped it).
* **Fence groups.** Units merge only inside one fence group: a part or chapter-level unit with
  ``fence="chapter"`` (the default), or a single unit with ``fence="section"`` (then nothing
  merges, and rule 3 holds at section level).
* **Small / medium / large.** A unit is *large* when it holds more than ``max_tokens`` tokens or
  spans more than ``max_pages`` pages; it is split into the chapter-window strategy's overlapping
  windows (``overlap_tokens``, ``target_pages``, ``snap``) and, when that gives two or more
  windows, their ``section`` is labelled ``"<title> (Part n)"`` (1-based). Other units are walked
  in order and merged greedily with their neighbours while at least one side is *small* (fewer
  than ``min_section_tokens`` tokens; 0 means ``max_tokens // 4``) and the merged run still fits
  ``max_tokens`` and ``max_pages`` — so runs of small sections are capped (the seed's runs grew
  without limit) and two medium sections are never glued together. A merged run's ``section`` is
  its section titles joined with ``" + "`` (the first three, then ``"+ n more"``); duplicate titles
  are kept.
* **Header: metadata only.** The seed prefixed every chunk with the book and chapter title and
  counted it (or not) in the budget. Here chunk text is always an exact slice of the canonical text
  (rule 6), so the header is not in ``text`` and does not count toward ``max_tokens``: the chapter
  title is the chunk's ``chapter`` and the head of its ``heading_path`` (both in every export,
  e.g. the LangChain ``metadata``), and the book title is the manifest's ``book.title``; a
  consumer that wants the header in its embedding input prepends it from there
  (``index --embed-prefix breadcrumb``). With ``prefix_in_budget`` that breadcrumb, built with the
  chunk's own ``section`` (a merged run's joined titles, a split's ``(Part n)``), counts against
  ``max_tokens`` when units are merged and sections split (``budget``).
  Separators between merged sections are the book's own blank lines and page breaks.
* **Offsets.** Spans are token spans of the canonical stream, turned into chunks by the shared
  ``common.build_chunks``; headings are token boundaries (``chunking.tokens``), so every unit edge
  is a safe cut. Merged and whole-section chunks have no overlap; windows overlap only inside
  their section. Units holding only whitespace are never chunks of their own (nothing a reader can
  lose), exactly like the window strategies' whitespace-only windows.

End reasons: a whole or merged chunk ends with ``fence`` (at a heading) or ``book_end``; windows
of a large section keep the window strategy's reasons.
"""

from __future__ import annotations

from dataclasses import replace

from ..models import Chunk
from ..policy import Policy
from ..tokens import TokenizedBook
from .budget import Budget
from .common import Span, build_chunks, has_text, page_count, segments, stream_counts

# NOTE: large sections reuse the chapter-window strategy's windower itself (page limits, target
# pages, snapping, safe cut points), so split sections obey exactly the rules windows obey.
from .window import window_spans

MAX_TITLES = 3
"""How many section titles a merged chunk's ``section`` names before ``+ n more``."""


def section_chunks(tokenized: TokenizedBook, policy: Policy) -> list[Chunk]:
    """Cut a book into section-based chunks (see the module docstring).

    Args:
        tokenized (TokenizedBook): the book's token stream.
        policy (Policy): the policy: ``max_tokens``, ``max_pages``, ``overlap_tokens``,
            ``min_section_tokens`` and ``fence`` are used.

    Returns:
        list[Chunk]: chunks in book order; ``section`` names merged runs and ``(Part n)`` splits.

    Raises:
        ChunkLimitError: the book needs more than ``policy.max_chunks`` chunks.
    """
    planner = _Planner(tokenized, policy)
    units = segments(tokenized, "section")
    i = 0
    for _, group_end in segments(tokenized, policy.fence):
        # NOTE: every chapter fence is also a section fence, so groups partition the units.
        j = i
        while j < len(units) and units[j][0] < group_end:
            j += 1
        planner.group(units[i:j])
        i = j
    chunks = build_chunks(tokenized, policy, planner.spans)
    return [replace(c, section=label) if label is not None else c for c, label in zip(chunks, planner.labels)]


class _Planner:
    """Decides the spans (and their section labels) of one book under one policy."""

    def __init__(self, tb: TokenizedBook, policy: Policy) -> None:
        self.tb = tb
        self.policy = policy
        self.min_tokens = policy.min_section_tokens or policy.max_tokens // 4
        self.spans: list[Span] = []
        self.labels: list[str | None] = []
        self.titles = _unit_titles(tb)
        self.budget = Budget(tb, policy)

    def group(self, units: list[tuple[int, int]]) -> None:
        """Plan the chunks of one fence group's units (in order)."""
        run: list[tuple[int, int]] = []
        for unit in units:
            if not self._fits([unit]):
                self._flush(run)
                run = []
                self._split(*unit)
            elif (
                run
                and self._fits([*run, unit])
                and (self._small(run[0][0], run[-1][1]) or self._small(*unit))
            ):
                run.append(unit)
            else:
                self._flush(run)
                run = [unit]
        self._flush(run)

    def _small(self, start: int, end: int) -> bool:
        return end - start < self.min_tokens

    def _fits(self, run: list[tuple[int, int]]) -> bool:
        """Whether ``run`` (units in order) can be one chunk: within ``max_tokens`` (with the
        breadcrumb of the section name it would carry, under ``prefix_in_budget``) and
        ``max_pages``."""
        start, end = run[0][0], run[-1][1]
        label = self._label(run)
        budget = self.budget.named(lambda n: (label,))
        if end - start > budget.limit(start) or page_count(self.tb, start, end) > self.policy.max_pages:
            return False
        return (not budget.on and stream_counts(self.tb, start, end)) or budget.excess(start, end) <= 0

    def _label(self, run: list[tuple[int, int]]) -> str | None:
        """The ``section`` of a merged run (``_joined`` titles); None keeps the one in force."""
        # NOTE: untitled sections and chapter openings add no name; duplicate titles are kept.
        titles = [
            title
            for title, is_section in (self.titles.get(u, ("", False)) for u in run)
            if is_section and title
        ]
        return _joined(titles) if len(run) > 1 and titles else None

    def _flush(self, run: list[tuple[int, int]]) -> None:
        """Emit a whole section or a merged run of sections as one chunk (if it holds text)."""
        if not run:
            return
        start, end = run[0][0], run[-1][1]
        if not has_text(self.tb, start, end):
            return
        self.spans.append(Span(start, end, 0, "book_end" if end == self.tb.n_tokens else "fence"))
        self.labels.append(self._label(run))

    def _split(self, start: int, end: int) -> None:
        """Emit a large section as overlapping windows labelled ``(Part n)``."""
        reason = "book_end" if end == self.tb.n_tokens else "fence"
        title = self.titles.get((start, end), ("", False))[0]
        # NOTE: how many windows there are is known only after the cut, so window n is held to
        # both names it may carry: "(Part n)" and, alone in its section, the plain one.
        budget = self.budget.named(lambda n: (None, _part(title, n)))
        windows = window_spans(self.tb, self.policy, start, end, reason, budget=budget)
        for n, span in enumerate(windows, 1):
            self.spans.append(span)
            self.labels.append(_part(title, n) if len(windows) > 1 else None)


def _unit_titles(tb: TokenizedBook) -> dict[tuple[int, int], tuple[str, bool]]:
    """Unit span → (title of the heading that opens it, whether that heading is a section).

    Units before the first heading are absent. Where headings share an offset the innermost
    (deepest level) names the unit.
    """
    starts: dict[int, tuple[int, str, bool]] = {}
    for h in tb.book.headings:
        t = tb.token_at_char(h.char_offset)
        if t not in starts or h.level > starts[t][0]:
            starts[t] = (h.level, h.title, h.kind == "section")
    return {(a, b): starts[a][1:] for a, b in segments(tb, "section") if a in starts}


def _part(title: str, n: int) -> str:
    """The ``section`` of the ``n``-th window of a section split in two or more."""
    return f"{title} (Part {n})".strip()


def _joined(titles: list[str]) -> str:
    """``"A + B + C + 2 more"``: the seed's name for a merged run, duplicates kept."""
    head = " + ".join(titles[:MAX_TITLES])
    return head + (f" + {len(titles) - MAX_TITLES} more" if len(titles) > MAX_TITLES else "")
