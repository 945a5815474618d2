"""Stage 5 (chunk): token windows — ``chapter-window`` (the default) and ``fixed-window``.

Contract (rules of issue 3, checked by ``chunking.validate``):

* ``chapter-window``: the token stream is cut into fenced segments at every part and
  chapter-level heading (every heading with ``fence="section"``). Inside a segment, windows hold
  at most ``max_tokens`` tokens and span at most ``max_pages`` pages; a window that reaches past
  ``target_pages`` pages ends at that page boundary when that keeps at least half of
  ``max_tokens`` (end reason ``target_pages``). The next window starts ``overlap_tokens`` before
  the previous end, or later when the page limit or a safe cut point requires it; overlap never
  crosses a fence. The last window of a segment ends with reason ``fence`` (``book_end`` at the
  end of the book).
* ``fixed-window``: the same token windows over the whole stream, no fences, no page limits.
* ``snap`` (``sentence``/``paragraph``): a token-limited window ends at the last sentence or
  paragraph end inside its last third, if there is one.

Every window starts and ends at a safe cut (``common.is_cut``: never inside a character or a
tiktoken piece), so its text re-encodes to exactly its token count. Where no safe cut exists
(long runs of text without spaces), the window ends at the nearest character boundary and its
text is re-encoded and shortened until it fits ``max_tokens``; so is a window across a heading
that cut a tiktoken piece apart (``common.stream_counts``). Windows whose new tokens are only
whitespace are skipped: they hold nothing a reader could lose.

``prefix_in_budget`` (default off) holds every window to ``max_tokens`` less the breadcrumb prefix
of its own chapter and section, re-encoded with it (``budget``).

``min_chunk_tokens`` (default off) then merges tiny windows into a neighbour and lets a tiny part
opening join its first chapter (``small_chunks``).
"""

from __future__ import annotations

import numpy as np

from ..models import Chunk
from ..policy import Policy
from ..rules import PARAGRAPH_END, SENTENCE_END, cut_range
from ..tokens import TokenizedBook
from .budget import Budget
from .common import Span, build_chunks, has_text, is_cut, segments, stream_counts
from .small_chunks import merge_small, policy_fences

_SNAP_PATTERNS = {"sentence": SENTENCE_END, "paragraph": PARAGRAPH_END}
"""Where ``snap`` may end a window: the sentence and paragraph ends of ``chunking.rules`` (the
scorecard's clean ends are the same)."""


class _Windower:
    """Cuts one tokenized book into window spans under one policy."""

    def __init__(self, tb: TokenizedBook, policy: Policy, paged: bool, budget: Budget | None = None) -> None:
        self.tb = tb
        self.policy = policy
        self.budget = budget or Budget(tb, policy)
        self.paged = paged and bool(tb.text_pages)
        self.cs = tb.char_starts
        self.min_target_tokens = (policy.max_tokens + 1) // 2
        self.snap = _SNAP_PATTERNS.get(policy.snap)

    def spans(self, fences: np.ndarray | None) -> list[Span]:
        """Windows of every segment between ``fences`` (None: the whole book is one segment)."""
        out: list[Span] = []
        n = self.tb.n_tokens
        for seg_start, seg_end in segments(self.tb, None, fences):
            self._segment(seg_start, seg_end, "book_end" if seg_end == n else "fence", out)
        return out

    def _segment(self, s: int, e: int, final_reason: str, out: list[Span]) -> None:
        """Append the windows of one fenced segment ``[s, e)`` to ``out``."""
        emitted = s  # every token before this one is covered (or whitespace that was skipped)
        last_start, last_end = s - 1, s  # the last window emitted in this segment
        first = len(out)
        while emitted < e:
            n = len(out) - first + 1  # this window's number in its segment (budget names)
            start = self._overlap_start(s, emitted, last_start)
            end, reason = self._end(start, emitted, e, final_reason, n)
            if end <= emitted or (start < emitted and self._over(start, end, n)):
                # The page or prefix budget seen from the overlap start cannot reach a new
                # token: no overlap.
                start = emitted
                end, reason = self._end(start, emitted, e, final_reason, n)
            if has_text(self.tb, emitted, end):
                if self._over(start, end, n):
                    self.budget.refuse(start, end, n)
                out.append(Span(start, end, max(0, last_end - start), reason))
                last_start, last_end = start, end
            emitted = end

    def _over(self, start: int, end: int, n: int) -> bool:
        """Whether the window is still over its prefix budget once shortened as far as it goes:
        it must drop its overlap, or (without one) it is a character too long for the room."""
        return self.budget.on and self.budget.excess(start, end, n) > 0

    def _overlap_start(self, s: int, emitted: int, last_start: int) -> int:
        """First token of the next window: ``overlap_tokens`` before the last end, moved forward
        to a safe cut; the whole previous window when that would not pass its start (the seed's
        rule for short page-limited windows: they advance without overlap)."""
        if emitted == s:
            return s
        start = max(s, emitted - self.policy.overlap_tokens)
        if start <= last_start:
            return emitted
        while start < emitted and not is_cut(self.tb, start):
            start += 1
        return start

    def _end(self, start: int, emitted: int, e: int, final_reason: str, n: int) -> tuple[int, str]:
        """End (exclusive) and end reason of the ``n``-th window of its segment, from ``start``.

        The end is ``> emitted`` except when the page limit or the prefix budget, seen from an
        overlap start, leaves no room for a new token; then it is ``<= emitted`` and the caller
        drops the overlap.
        """
        tb, policy = self.tb, self.policy
        end = min(start + self.budget.limit(start, n), e)
        reason = final_reason if end == e else "token_limit"
        if self.paged:
            first_page = tb.page_index_of_char(int(self.cs[start]))
            last_page = tb.last_page_index_within(first_page, policy.max_pages)
            by_pages = tb.page_boundary_token(last_page)
            if by_pages < end:
                if by_pages <= emitted and start < emitted:
                    return by_pages, "page_limit"
                end, reason = max(by_pages, emitted + 1), "page_limit"
            target_page = tb.last_page_index_within(first_page, policy.target_pages)
            if end < e and target_page < last_page:
                by_target = tb.page_boundary_token(target_page)
                if emitted < by_target < end and by_target - start >= self.min_target_tokens:
                    end, reason = by_target, "target_pages"
        if reason == "token_limit" and self.snap is not None:
            snapped = self._snap(start, emitted, end)
            if snapped is not None:
                end, reason = snapped, policy.snap
        if not is_cut(tb, end):
            end = self._safe_end(emitted, end)
            if end <= emitted:
                if start < emitted:
                    return end, reason  # no character boundary among the new tokens: drop the overlap
                end = self._next_legal(emitted + 1)
        if self.budget.on or not stream_counts(tb, start, end):
            end = self._fit(start, emitted, end, n)
        return end, reason

    def _snap(self, start: int, emitted: int, end: int) -> int | None:
        """Last sentence/paragraph end in the window's last third that is a safe cut, if any."""
        cs, tb = self.cs, self.tb
        lo_token = max(start + (2 * (end - start)) // 3, emitted + 1)
        if lo_token >= end:
            return None
        assert self.snap is not None  # _snap runs only under a snap policy
        matches = list(self.snap.finditer(tb.book.text, int(cs[lo_token]), int(cs[end])))
        for m in reversed(matches):
            # The cut may sit after the punctuation or after the whitespace that follows it.
            low, high = cut_range(m)
            for c in (high, low):
                t = tb.token_at_char(c)
                if lo_token <= t < end and int(cs[t]) == c and is_cut(tb, t):
                    return t
        return None

    def _safe_end(self, emitted: int, end: int) -> int:
        """Move ``end`` back to the last safe cut after ``emitted``; failing that, to the last
        character boundary after it (``_fit`` then checks the token count); ``emitted`` when
        there is none (the window must start later or take a whole character past its budget)."""
        tb = self.tb
        t = end - 1
        while t > emitted:
            if is_cut(tb, t):
                return t
            t -= 1
        t = end
        while t > emitted and not tb.legal[t]:
            t -= 1
        return t

    def _next_legal(self, t: int) -> int:
        """The first character boundary at or after token boundary ``t``."""
        while not self.tb.legal[t]:
            t += 1
        return t

    def _fit(self, start: int, emitted: int, end: int, n: int) -> int:
        """Shorten a window whose edges are not safe cuts, that holds a seam, or whose text is
        held to a prefix budget, until it re-encodes (after its prefixes) to at most ``max_tokens`` tokens
        (rule 1), keeping ``end`` on a character boundary past ``emitted``."""
        tb = self.tb
        # NOTE: without prefix_in_budget only windows inside long runs without spaces (CJK,
        # base64, hashes) get here, so re-encoding their text stays off the fast path.
        while True:
            excess = self.budget.excess(start, end, n)
            if excess <= 0 or end <= emitted + 1:
                return end
            t = max(emitted + 1, end - excess)
            while t > emitted + 1 and not tb.legal[t]:
                t -= 1
            if not tb.legal[t] or t >= end:
                return end
            end = t


def window_spans(
    tokenized: TokenizedBook,
    policy: Policy,
    start: int,
    end: int,
    final_reason: str,
    *,
    paged: bool = True,
    budget: Budget | None = None,
) -> list[Span]:
    """Window spans over one fenced segment ``[start, end)`` (for strategies that split a unit).

    Args:
        tokenized (TokenizedBook): the book's token stream.
        policy (Policy): the policy (tokens, overlap, pages, snap).
        start (int): first token of the segment (a safe cut: a heading or the book start).
        end (int): end (exclusive) of the segment (a heading or the book end).
        final_reason (str): the end reason of the segment's last window (``fence``/``book_end``).
        paged (bool): apply ``max_pages``/``target_pages``. Defaults to True.
        budget (Budget | None): the windows' token budget (``section`` passes its part names);
            None: ``Budget(tokenized, policy)``.

    Returns:
        list[Span]: windows covering the segment's text, overlap inside the segment only.
    """
    out: list[Span] = []
    _Windower(tokenized, policy, paged, budget)._segment(start, end, final_reason, out)
    return out


def chapter_window(tokenized: TokenizedBook, policy: Policy) -> list[Chunk]:
    """Chapter-aware page windows (the default strategy; see the module docstring).

    Args:
        tokenized (TokenizedBook): the book's token stream.
        policy (Policy): the policy; ``fence`` picks the fence level.

    Returns:
        list[Chunk]: chunks in book order.

    Raises:
        ChunkLimitError: the book needs more than ``policy.max_chunks`` chunks.
    """
    fences = policy_fences(tokenized, policy)
    spans = _Windower(tokenized, policy, paged=True).spans(fences)
    return build_chunks(tokenized, policy, merge_small(tokenized, policy, spans, fences))


def fixed_window(tokenized: TokenizedBook, policy: Policy) -> list[Chunk]:
    """Plain token windows of ``max_tokens`` with ``overlap_tokens`` overlap (the baseline).

    Args:
        tokenized (TokenizedBook): the book's token stream.
        policy (Policy): the policy; page limits and fences are ignored.

    Returns:
        list[Chunk]: chunks in book order.

    Raises:
        ChunkLimitError: the book needs more than ``policy.max_chunks`` chunks.
    """
    spans = _Windower(tokenized, policy, paged=False).spans(None)
    chapters = policy_fences(tokenized, policy, "chapter")
    return build_chunks(tokenized, policy, merge_small(tokenized, policy, spans, chapters))
