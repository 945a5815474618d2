"""Stage 6 (validate): re-check a chunk set against rules 1–7 of issue 3 and rule 8 (links), independently.

The validator trusts nothing the chunker computed: it re-encodes every chunk's text (rule 1;
a chunk that provably re-encodes to the tokenizer's stream of its span takes that count, see
``_Counts``),
re-slices the canonical text (rule 6), recomputes pages and ids (rules 2, 6, 7) and walks
neighbours for overlap, fences, advance and coverage (rules 3–5). It reports the first violation
in chunk order (for one chunk, the lowest rule number among its violations, after the sanity
checks of its order and span that the other checks rely on):

1. re-encoded token count ≤ ``max_tokens``; ``token_count == token_end - token_start``; with
   ``prefix_in_budget``, the breadcrumb prefix of the chunk's own ``chapter`` and ``section``
   (``chunking.retrieval.breadcrumb``) and its text, encoded as one string, ≤ ``max_tokens`` too.
2. page span ≤ ``max_pages`` (not for ``fixed-window``, which has no page limit).
3. no chunk crosses a fence of the policy's ``fence`` level (not for ``fixed-window``; with
   ``min_chunk_tokens``, a tiny part opening may join its first chapter,
   ``chunking.strategies.small_chunks.policy_fences``); with the
   ``section`` strategy, a chunk holding a section heading inside holds whole sections and no
   overlap crosses a section heading; overlap with the previous chunk ≤
   ``overlap_tokens``, so zero across a fence (both chunks would have to hold the shared tokens), and equal
   to ``overlap_prev_tokens``.
4. ``order`` is 0, 1, 2, …; spans are non-empty, ``token_start`` never decreases and
   ``token_end`` strictly increases (no overlap-only or repeated window); no chunk is empty or
   whitespace only.
5. nothing is lost: tokens not covered by any chunk are whitespace only.
6. ``text == canonical_text[char_start:char_end]``, the char span is the token span's, both ends
   are character boundaries; pages and labels are those of the first and last non-space chars;
   ``matter`` is that of the unit holding the first (``chunking.matter``; ``""``, a file written
   before the field existed, claims none) and not an excluded one.
With ``Policy.exclude_matter`` (``chunking.matter``), the chunks of those matters are left out:
``order`` then only increases (the kept chunks keep theirs), a gap in the coverage (rule 5) must
lie in units of excluded matter where a chunk was left out (an ``order`` skipped) — a
``fixed-window`` chunk that started in one may have run on into the next unit, up to
``max_tokens`` past it — and overlap is re-checked only between neighbours in the full order.

7. ``book_id`` is the book's and ``id`` is the content-addressed id (``chunking.ids``), salted
   with the policy's profile and the book's own corrections digest (``Book.corrections``); a run
   that claims other corrections than the book's (``validate_chunks(..., corrections=…)``: the
   digest its manifest records) fails rule 7 before any chunk is checked.
8. links and headings (``chunking.validate_links``): ``prev_id`` / ``next_id`` name the
   neighbours in reading order, ``section_id`` the span of the section in force at the chunk's
   first non-space character, and ``chapter``, ``section`` and ``heading_path`` the headings in
   force there. A file written before links (all three link fields empty) is checked for its
   headings only. Rule 8 is checked once rules 1–7 hold for every chunk: a link names its
   neighbour's id, so it can only be judged once that id is right (a chunk moved or edited is
   reported where it breaks rules 1–7, not as its neighbour's broken link).
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from .cores import resolve_workers
from .encodings import get_encoding
from .ids import chunk_id, id_salt
from .matter import MatterIndex, excluded_names
from .models import Chunk
from .policy import Policy
from .retrieval.breadcrumb import breadcrumb_prefix, prefixed_tokens
from .strategies.small_chunks import policy_fences
from .tokens import SAFE_SPLIT_ENCODINGS, TokenizedBook
from .validate_links import LinkChecker

_NON_SPACE = re.compile(r"\S")
PARALLEL_MIN_CHUNKS = 256
"""Automatic mode re-encodes fewer chunks than this on the calling thread (a pool costs more)."""
_BATCH = 64
"""Chunks re-encoded per thread task: the checks wait for one batch at a time, in order."""


def stable_cut(text: str, p: int) -> bool:
    """True when cutting ``text`` at ``p`` leaves tiktoken's pieces on both sides unchanged.

    The validator's own rule, not the chunker's (``SAFE_SPLIT_ENCODINGS`` only; the lemma
    ``encode(t[:p]) + encode(t[p:]) == encode(t)`` is property-tested in
    tests/test_validate_edges.py): a non-space then a space or tab (no piece holds a non-space
    and the space after it); a letter or digit then a newline; a newline then a non-space other
    than ``/``.
    """
    if not 0 < p < len(text):
        return True
    prev, cur = text[p - 1], text[p]
    if cur in " \t":
        return not prev.isspace()
    if cur in "\r\n":
        return unicodedata.category(prev)[0] in "LN"
    # NOTE: o200k's punctuation piece ``[^\s\p{L}\p{N}]+[\r\n/]*`` runs on past a newline into a "/".
    return prev == "\n" and not cur.isspace() and cur != "/"


class _Counts:
    """Rule 1's re-encoded token counts: ``len(encode_ordinary(chunk.text))``, or what equals it.

    A chunk whose text is the canonical slice of its token span, whose two edges are piece
    boundaries of the stream (heading offsets, where the text was encoded apart) or
    ``stable_cut``s, and whose inner heading offsets are ``stable_cut``s, re-encodes to exactly
    the stream's tokens of that span: its count is ``token_end - token_start``. Every other chunk
    is re-encoded, on threads ahead of the checks (tiktoken releases the GIL while it encodes,
    so with two cores that runs beside the pure-Python checks).

    NOTE: what is trusted is the tokenizer's stream (``chunking.tokens``), never a number the
    chunker wrote: a chunk whose text, span or token count is wrong takes the re-encoding path
    or fails its own rule.
    """

    def __init__(self, enc, chunks: Sequence[Chunk], tb: TokenizedBook, encoding: str, workers: int) -> None:
        self.enc, self.chunks, self.tb = enc, chunks, tb
        self.cuts = sorted(tb._fence_chars)
        trusted = encoding in SAFE_SPLIT_ENCODINGS
        self.stream = [trusted and self._from_stream(c) for c in chunks]
        self.needed = [i for i, ok in enumerate(self.stream) if not ok]
        self.where = {i: k for k, i in enumerate(self.needed)}
        self.pool = ThreadPoolExecutor(workers) if workers > 1 and len(self.needed) > 1 else None
        self.batches: list[Future] = []
        if self.pool is not None:
            self.batches = [self.pool.submit(self._batch, k) for k in range(0, len(self.needed), _BATCH)]

    def _from_stream(self, c: Chunk) -> bool:
        """Whether ``c`` re-encodes to the stream's tokens of its span (see the class)."""
        tb, text = self.tb, self.tb.book.text
        t0, t1 = c.token_start, c.token_end
        if not (isinstance(t0, int) and isinstance(t1, int) and 0 <= t0 < t1 <= tb.n_tokens):
            return False
        a, b = int(tb.char_starts[t0]), int(tb.char_starts[t1])
        if (c.char_start, c.char_end) != (a, b) or not (tb.legal[t0] and tb.legal[t1]):
            return False
        if not isinstance(c.text, str) or text[a:b] != c.text:
            return False
        fences = tb._fence_chars
        if not ((a in fences or stable_cut(text, a)) and (b in fences or stable_cut(text, b))):
            return False
        i = bisect.bisect_right(self.cuts, a)
        while i < len(self.cuts) and self.cuts[i] < b:
            if not stable_cut(text, self.cuts[i]):
                return False
            i += 1
        return True

    def _one(self, chunk: Chunk) -> int | Exception:
        try:
            return len(self.enc.encode_ordinary(chunk.text))
        except Exception as exc:  # noqa: BLE001 - raised where the serial check would raise it
            return exc

    def _batch(self, start: int) -> list[int | Exception]:
        return [self._one(self.chunks[i]) for i in self.needed[start : start + _BATCH]]

    def count(self, i: int) -> int:
        c = self.chunks[i]
        if self.stream[i]:
            return c.token_end - c.token_start
        if self.pool is None:
            return len(self.enc.encode_ordinary(c.text))
        k = self.where[i]
        value = self.batches[k // _BATCH].result()[k % _BATCH]
        if isinstance(value, Exception):
            raise value
        return value

    def close(self) -> None:
        if self.pool is not None:
            for batch in self.batches:
                batch.cancel()
            self.pool.shutdown(wait=True)


@dataclass(frozen=True)
class ValidationReport:
    """The outcome of ``validate_chunks``.

    Attributes:
        ok (bool): True when every rule holds.
        rule (int | None): the first violated rule (1–8), None when ok.
        chunk_order (int | None): ``order`` (list position) of the offending chunk, None when ok.
        message (str): one line a user can act on.
        chunks (int): how many chunks were checked.
    """

    ok: bool
    rule: int | None
    chunk_order: int | None
    message: str
    chunks: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "rule": self.rule,
            "chunk_order": self.chunk_order,
            "message": self.message,
            "chunks": self.chunks,
        }


def _corrections_named(digest: str) -> str:
    return f"corrections digest {digest}" if digest else "no structure corrections"


class _Violation(Exception):
    def __init__(self, rule: int, message: str) -> None:
        super().__init__(message)
        self.rule = rule


class _Checker:
    """Holds what every per-chunk check needs; ``check(i)`` raises ``_Violation``."""

    def __init__(self, chunks: Sequence[Chunk], tb: TokenizedBook, policy: Policy, workers: int = 1) -> None:
        self.chunks = chunks
        self.tb = tb
        self.policy = policy
        self.text = tb.book.text
        self.enc = get_encoding(policy.encoding)
        self.counts = _Counts(self.enc, chunks, tb, policy.encoding, workers)
        self.salt = id_salt(policy, tb.book)
        self.paged = policy.strategy != "fixed-window"
        self.level = policy.fence
        self.fences = policy_fences(tb, policy) if self.paged else np.zeros(0, dtype=np.int64)
        self.sections = policy.strategy == "section"
        self.heads = tb.fence_tokens["section"]
        self.matters = MatterIndex(tb.book.headings)
        self.excluded = excluded_names(policy.exclude_matter)
        self.regions = self.matters.regions(len(self.text)) if self.excluded else []
        self.links = LinkChecker(chunks, tb.book, self.skipped, bool(self.excluded), self.sections)

    def skipped(self, c: Chunk, prev: Chunk | None) -> bool:
        """Whether chunks were left out (``exclude_matter``) between ``prev`` and ``c``."""
        return bool(self.excluded) and c.order > (prev.order + 1 if prev else 0)

    def excluded_gap(self, t0: int, t1: int) -> bool:
        """Whether the text of tokens ``[t0, t1)`` that is not whitespace lies in units of excluded
        matter, or (``fixed-window``: no fences) in the next unit, less than ``max_tokens`` past
        the excluded unit's end (where a window that started in it may have run on)."""
        cs = self.tb.char_starts
        c0, c1 = int(cs[t0]), int(cs[t1])
        for k, (a, b, name) in enumerate(self.regions):
            lo, hi = max(a, c0), min(b, c1)
            if name in self.excluded or lo >= hi:
                continue
            inside = self.text[lo:hi]
            if not _NON_SPACE.search(inside):
                continue
            if self.paged or k == 0 or self.regions[k - 1][2] not in self.excluded:
                return False
            last = lo + len(inside.rstrip()) - 1
            if (
                int(cs.searchsorted(last, side="right")) - 1
                >= int(cs.searchsorted(a)) + self.policy.max_tokens
            ):
                return False
        return True

    def _whitespace_only(self, t0: int, t1: int) -> bool:
        cs = self.tb.char_starts
        return _NON_SPACE.search(self.text, int(cs[t0]), int(cs[t1])) is None

    @staticmethod
    def _inside(marks: np.ndarray, t0: int, t1: int) -> int | None:
        """A token index of ``marks`` strictly inside ``(t0, t1)``, if any."""
        i = int(marks.searchsorted(t0, side="right"))
        return int(marks[i]) if i < len(marks) and marks[i] < t1 else None

    def _fence_inside(self, t0: int, t1: int) -> int | None:
        return self._inside(self.fences, t0, t1)

    def _check_whole_sections(self, c: Chunk, overlap: int, prev: Chunk | None) -> None:
        """``section`` strategy: merged chunks hold whole sections; overlap stays in its section."""
        edges = self.heads
        n = self.tb.n_tokens
        if self._inside(edges, c.token_start, c.token_end) is not None:
            for t in (c.token_start, c.token_end):
                if t not in (0, n) and self._inside(edges, t - 1, t + 1) != t:
                    raise _Violation(3, f"holds a section heading but its edge at token {t} is mid-section")
        if (
            overlap
            and prev is not None
            and self._inside(edges, c.token_start - 1, prev.token_end) is not None
        ):
            raise _Violation(3, f"its {overlap}-token overlap crosses a section heading")

    def check(self, i: int) -> None:
        c, tb, policy = self.chunks[i], self.tb, self.policy
        n = tb.n_tokens
        prev = self.chunks[i - 1] if i else None
        # Rule 4 first where later checks would index out of range.
        if self.excluded:
            if c.order < (prev.order + 1 if prev else 0):
                raise _Violation(4, f"order is {c.order}, not more than the previous chunk's")
        elif c.order != i:
            raise _Violation(4, f"order is {c.order}, expected {i} (orders must be 0, 1, 2, …)")
        if not (0 <= c.token_start < c.token_end <= n):
            raise _Violation(4, f"token span [{c.token_start}, {c.token_end}) is empty or outside [0, {n})")
        if c.token_count != c.token_end - c.token_start:
            raise _Violation(
                1, f"token_count {c.token_count} != token_end - token_start ({c.token_end - c.token_start})"
            )
        count = self.counts.count(i)
        if count > policy.max_tokens:
            raise _Violation(
                1, f"text re-encodes to {count} tokens, more than max_tokens {policy.max_tokens}"
            )
        if policy.prefix_in_budget:
            self._check_prefix_budget(c)
        if self.paged and c.page_end - c.page_start + 1 > policy.max_pages:
            raise _Violation(
                2, f"spans pages {c.page_start}-{c.page_end}, more than max_pages {policy.max_pages}"
            )
        fence = self._fence_inside(c.token_start, c.token_end)
        if fence is not None:
            raise _Violation(
                3,
                f"crosses a {self.level} fence at token {fence} (char "
                f"{int(tb.char_starts[fence])}): text from two {self.level}s",
            )
        overlap = max(0, prev.token_end - c.token_start) if prev else 0
        if overlap > policy.overlap_tokens:
            raise _Violation(
                3,
                f"overlaps the previous chunk by {overlap} tokens, more than overlap_tokens "
                f"{policy.overlap_tokens}",
            )
        if self.sections:
            self._check_whole_sections(c, overlap, prev)
        if self.skipped(c, prev):
            if overlap > c.overlap_prev_tokens:  # the chunk before it (left out) ended later
                raise _Violation(
                    3, f"overlap_prev_tokens is {c.overlap_prev_tokens}, the spans overlap by {overlap}"
                )
        elif overlap != c.overlap_prev_tokens:
            raise _Violation(
                3, f"overlap_prev_tokens is {c.overlap_prev_tokens}, the spans overlap by {overlap}"
            )
        if prev and (c.token_end <= prev.token_end or c.token_start < prev.token_start):
            raise _Violation(
                4,
                f"window [{c.token_start}, {c.token_end}) does not advance past the previous "
                f"[{prev.token_start}, {prev.token_end})",
            )
        if not _NON_SPACE.search(c.text):
            raise _Violation(4, "chunk text is empty or whitespace only")
        gap_start = prev.token_end if prev else 0
        if c.token_start > gap_start and not self._whitespace_only(gap_start, c.token_start):
            if not (self.skipped(c, prev) and self.excluded_gap(gap_start, c.token_start)):
                raise _Violation(
                    5, f"tokens [{gap_start}, {c.token_start}) before this chunk are in no chunk"
                )
        if i == len(self.chunks) - 1 and c.token_end < n and not self._whitespace_only(c.token_end, n):
            if not (self.excluded and self.excluded_gap(c.token_end, n)):
                raise _Violation(5, f"tokens [{c.token_end}, {n}) after the last chunk are in no chunk")
        self._check_provenance(c)
        if c.book_id != tb.book.book_id:
            raise _Violation(7, f"book_id {c.book_id!r} is not the book's {tb.book.book_id!r}")
        expected = chunk_id(
            c.book_id, self.salt, c.order, c.token_start, c.token_end, c.char_start, c.char_end, c.text
        )
        if c.id != expected:
            raise _Violation(
                7,
                f"id {c.id!r} is not the content-addressed id {expected!r} (this policy, "
                f"{_corrections_named(tb.book.corrections)})",
            )

    def _check_prefix_budget(self, c: Chunk) -> None:
        """Rule 1 under ``prefix_in_budget``: the text embedded for ``c`` (its breadcrumb, then
        its text) fits ``max_tokens``, counted as the chunker and ``index`` count it."""
        prefix = breadcrumb_prefix(self.tb.book.title, c.chapter, c.section)
        count = prefixed_tokens(self.enc, prefix, c.text)
        if prefix and count > self.policy.max_tokens:
            raise _Violation(
                1,
                f"with its breadcrumb {prefix.strip()!r} the text encodes to {count} tokens, more "
                f"than max_tokens {self.policy.max_tokens} (prefix_in_budget)",
            )

    def _check_provenance(self, c: Chunk) -> None:
        """Rule 6: the text is the exact slice, char span = token span, pages from the text."""
        tb = self.tb
        if self.text[c.char_start : c.char_end] != c.text:
            raise _Violation(6, f"text differs from canonical_text[{c.char_start}:{c.char_end}]")
        cs0, cs1 = int(tb.char_starts[c.token_start]), int(tb.char_starts[c.token_end])
        if (c.char_start, c.char_end) != (cs0, cs1):
            raise _Violation(
                6, f"char span [{c.char_start}, {c.char_end}) is not the token span's [{cs0}, {cs1})"
            )
        if not (tb.legal[c.token_start] and tb.legal[c.token_end]):
            raise _Violation(6, "the chunk starts or ends inside a character")
        first = c.char_start + (len(c.text) - len(c.text.lstrip()))
        matter = self.matters.at(first)
        if c.matter and c.matter != matter:
            raise _Violation(6, f"matter is {c.matter!r}, but its text lies in the {matter!r} matter")
        if matter in self.excluded:
            raise _Violation(6, f"its matter {matter!r} is one the policy excludes")
        if tb.text_pages:
            last = c.char_start + len(c.text.rstrip()) - 1
            p0 = tb.text_pages[tb.page_index_of_char(first)]
            p1 = tb.text_pages[tb.page_index_of_char(last)]
            got = (c.page_start, c.page_end, c.page_label_start, c.page_label_end)
            if got != (p0.number, p1.number, p0.label, p1.label):
                raise _Violation(
                    6,
                    f"pages {got} are not those of the text ({p0.number}, {p1.number}, "
                    f"{p0.label!r}, {p1.label!r})",
                )
            if c.ocr != tb.ocr_between(first, last):
                raise _Violation(6, f"ocr is {c.ocr} but its pages say {not c.ocr} (Page.ocr)")


def validate_chunks(
    chunks: Sequence[Chunk],
    tokenized: TokenizedBook,
    policy: Policy,
    *,
    workers: int | None = None,
    corrections: str | None = None,
) -> ValidationReport:
    """Check a chunk set against rules 1–8 and report the first violation.

    Args:
        chunks (Sequence[Chunk]): the chunks, in order.
        tokenized (TokenizedBook): the book they were cut from, tokenized with ``policy.encoding``;
            its ``book.corrections`` salts the ids they must have.
        policy (Policy): the policy they claim to follow.
        workers (int | None): threads that re-encode chunk texts (``chunking.cores``); None: all
            cores from ``PARALLEL_MIN_CHUNKS`` chunks. The report does not depend on it.
        corrections (str | None): the corrections digest the run claims (its manifest's); rule 7
            fails when it is not the book's. None (default): nothing claimed.

    Returns:
        ValidationReport: ``ok`` or the first violated rule, the chunk's order and a message.
    """
    actual = tokenized.book.corrections
    if corrections is not None and corrections != actual:
        return ValidationReport(
            False,
            7,
            None,
            f"rule 7 fails: the run records {_corrections_named(corrections)} but the book has "
            f"{_corrections_named(actual)}: the ids of one are not the ids of the other",
            len(chunks),
        )
    checker = _Checker(chunks, tokenized, policy, resolve_workers(workers, len(chunks), PARALLEL_MIN_CHUNKS))
    if not chunks:
        checker.counts.close()
        if tokenized.n_tokens and _NON_SPACE.search(tokenized.book.text):
            if not (checker.excluded and checker.excluded_gap(0, tokenized.n_tokens)):
                return ValidationReport(False, 5, None, "no chunks, but the book has text", 0)
            return ValidationReport(True, None, None, "every chunk is of excluded matter", 0)
        return ValidationReport(True, None, None, "no text, no chunks", 0)
    try:
        for i in range(len(chunks)):
            try:
                checker.check(i)
            except _Violation as v:
                return ValidationReport(
                    False, v.rule, i, f"rule {v.rule} fails at chunk {i}: {v}", len(chunks)
                )
    finally:
        checker.counts.close()
    for i in range(len(chunks)):  # rule 8, once every id is right (see the module docstring)
        broken = checker.links.problem(i)
        if broken:
            return ValidationReport(False, 8, i, f"rule 8 fails at chunk {i}: {broken}", len(chunks))
    return ValidationReport(True, None, None, f"rules 1-8 hold for {len(chunks)} chunks", len(chunks))
