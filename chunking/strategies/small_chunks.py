"""Stage 5 (chunk): ``min_chunk_tokens`` — no tiny chunks where a neighbour can take them.

Why: a part title alone on its page, the last few lines of a chapter cut off by the page limit or
a one-line chapter become chunks of a handful of tokens that retrieve badly. With
``min_chunk_tokens`` N > 0 (default 0: off) the window strategies apply two rules, defined here
once and used by the strategies and by the validator (``policy_fences``):

* **A small part opening joins its first chapter.** When the text from a part heading to the
  next fence holds fewer than N tokens (the part's title, perhaps an epigraph), that next fence
  is dropped (unless another part starts there): the part opening and its first chapter form one fenced segment, so the part's title
  starts that chapter's first chunk. No other fence is ever dropped: a chunk never holds text of
  two chapters.
* **A small chunk merges into a neighbour of its segment.** Walking the chunks in order, two
  neighbours merge when one of them holds fewer than N tokens, both lie inside one fenced segment
  (for ``fixed-window``, one chapter) and the merged chunk still keeps ``max_tokens`` (re-encoded
  when its edges are not safe cuts; with ``prefix_in_budget``, after its breadcrumb: ``budget``)
  and, for ``chapter-window``, ``max_pages``. The merged chunk
  runs from the first one's start to the second one's end, keeps the first one's overlap and the
  second one's end reason. A small chunk that fits nowhere stays as it is.
"""

from __future__ import annotations

import numpy as np

from ..policy import Policy
from ..tokens import TokenizedBook
from .budget import Budget
from .common import Span, page_count, stream_counts

WINDOW_STRATEGIES = ("chapter-window", "fixed-window")
"""The strategies ``min_chunk_tokens`` applies to (``section`` has ``min_section_tokens``)."""


def applies(policy: Policy) -> bool:
    """True when the policy merges small chunks (N > 0 and a window strategy)."""
    return policy.min_chunk_tokens > 0 and policy.strategy in WINDOW_STRATEGIES


def policy_fences(tb: TokenizedBook, policy: Policy, level: str | None = None) -> np.ndarray:
    """The inner fence tokens chunks of this policy must not cross, sorted.

    ``level``'s fences (the policy's ``fence`` by default) minus the fence right after a part
    opening shorter than ``min_chunk_tokens`` (when ``applies``).
    """
    fences = tb.fence_tokens[level or policy.fence]
    if not applies(policy) or not len(fences):
        return fences
    part_starts = {tb.token_at_char(h.char_offset) for h in tb.book.headings if h.kind == "part"}
    starts = [0, *fences.tolist()]
    keep = [
        f
        for prev, f in zip(starts, fences.tolist())
        if not (prev in part_starts and f not in part_starts and f - prev < policy.min_chunk_tokens)
    ]
    return np.asarray(keep, dtype=fences.dtype)


def merge_small(tb: TokenizedBook, policy: Policy, spans: list[Span], fences: np.ndarray) -> list[Span]:
    """Merge spans below ``min_chunk_tokens`` into a neighbour inside one fenced segment.

    Args:
        tb (TokenizedBook): the tokenized book.
        policy (Policy): the policy (``min_chunk_tokens``, ``max_tokens``, ``max_pages``).
        spans (list[Span]): the strategy's spans in book order.
        fences (np.ndarray): inner fence tokens (``policy_fences``) no merged span may cross.

    Returns:
        list[Span]: the spans with small ones merged (``spans`` itself when the rule is off).
    """
    if not applies(policy) or len(spans) < 2:
        return spans
    merger = _Merger(tb, policy, fences)
    out: list[Span] = [spans[0]]
    for span in spans[1:]:
        merged = merger.merged(out[-1], span)
        if merged is None:
            out.append(span)
        else:
            out[-1] = merged
    return out


class _Merger:
    """Decides whether two neighbouring spans may become one."""

    def __init__(self, tb: TokenizedBook, policy: Policy, fences: np.ndarray) -> None:
        self.tb = tb
        self.policy = policy
        self.fences = fences
        self.paged = policy.strategy != "fixed-window"
        # NOTE: a merged chunk starts where ``a`` does, so it carries ``a``'s breadcrumb.
        self.budget = Budget(tb, policy)

    def _segment(self, t: int) -> int:
        return int(self.fences.searchsorted(t, side="right"))

    def merged(self, a: Span, b: Span) -> Span | None:
        """``a`` and ``b`` as one span, or None when they must stay apart."""
        n = self.policy.min_chunk_tokens
        if a.token_end - a.token_start >= n and b.token_end - b.token_start >= n:
            return None
        start, end = a.token_start, b.token_end
        if self._segment(start) != self._segment(end - 1):
            return None
        if end - start > self.budget.limit(start):
            return None
        if self.paged and page_count(self.tb, start, end) > self.policy.max_pages:
            return None
        exact = self.budget.on or not stream_counts(self.tb, start, end)
        if exact and self.budget.excess(start, end) > 0:
            return None
        return Span(start, end, a.overlap_prev_tokens, b.end_reason)
