"""Evaluation probes: sentences of the book turned into damaged queries, drawn at random or from
the *boundary zones* where chunking policies differ.

Contract: ``sample_probes(tokenized, n, seed)`` draws up to ``n`` sentences anywhere in the book;
``boundary_probes(tokenized, n, seed, zone_tokens)`` draws up to ``n`` sentences that lie wholly
within the last or the first ``zone_tokens`` tokens of a chapter-level unit (between a fence of
``rules.fence_offsets(book, "chapter")`` and ``zone_tokens`` tokens before or after it). The same
book, ``n``, ``seed`` (and zone) always give the same sentences and queries.

Candidates. Sentences come from ``chunking.retrieval.space.sentence_starts`` (headings also end
one); a candidate has ``MIN_WORDS``–``MAX_WORDS`` words and at least ``MIN_LETTER_SHARE`` letters
among its non-space characters (code and tables are skipped). Its query keeps its words (bm25s's
word pattern, lower-cased) minus English stop words, then drops ``DROP_SHARE`` of the rest, chosen
by a generator seeded with ``(seed, sentence start)`` so a sentence's query does not depend on
``n``. At least ``MIN_QUERY_WORDS`` words are kept.

Why boundary zones: random sentences mostly lie deep inside a chapter, where every policy cuts
alike; a policy that ignores chapters only differs near their starts and ends.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from bm25s.stopwords import STOPWORDS_EN

from ..rules import fence_offsets
from .search import TOKEN_PATTERN
from .space import sentence_starts

if TYPE_CHECKING:  # NOTE: only for annotations; probes read .book, .char_starts and token_at_char
    from ..tokens import TokenizedBook

MIN_WORDS = 8
"""Shortest candidate sentence, in words (shorter ones are headings, captions, list items)."""

MAX_WORDS = 60
"""Longest candidate sentence, in words (longer ones are run-on extraction artefacts)."""

MIN_LETTER_SHARE = 0.7
"""Share of letters among a candidate's visible characters (code and tables fall below)."""

DROP_SHARE = 0.5
"""Share of a sentence's content words a query leaves out (so the query is not the sentence).

# NOTE: at 0.3, BM25 found nearly every sentence in its top 5 under every policy (hit@5 = 1.0 on
r-intro and chez-csug); half the words left out makes the proxy tell policies apart a little."""

MIN_QUERY_WORDS = 3
"""A query keeps at least this many words."""

BOUNDARY_TOKENS = 256
"""Default zone width: a boundary probe lies within this many tokens of a chapter start (half the
default ``max_tokens``, so a chapter-blind window of default size can reach across the fence)."""

ZONES = ("random", "boundary")
"""Where probes are drawn: anywhere, or in the boundary zones."""

_WORD = re.compile(TOKEN_PATTERN)
_STOP = frozenset(STOPWORDS_EN)


@dataclass(frozen=True)
class Probe:
    """One sampled sentence and the query made from it.

    Attributes:
        char_start (int): sentence start in ``book.text``.
        char_end (int): sentence end (exclusive).
        token_start (int): first token overlapping the sentence.
        token_end (int): end (exclusive) of the tokens overlapping the sentence.
        unit (int): index of the sentence's chapter-level unit (0 = before the first chapter).
        query (str): the damaged sentence used as the query.
        unit_token_start (int): first token of that unit.
        unit_token_end (int): end (exclusive) of the unit's tokens; -1 when unknown (then chapter
            purity is measured in characters).
        zone (str): one of ``ZONES``.
    """

    char_start: int
    char_end: int
    token_start: int
    token_end: int
    unit: int
    query: str
    unit_token_start: int = 0
    unit_token_end: int = -1
    zone: str = "random"


def make_query(sentence: str, seed: int, key: int) -> str:
    """Turn a sentence into a query: content words minus a deterministic ``DROP_SHARE``.

    Args:
        sentence (str): the sentence.
        seed (int): the evaluation seed.
        key (int): a per-sentence number (its start offset) so each sentence drops its own words.

    Returns:
        str: kept words, lower-cased, in sentence order, joined by spaces.
    """
    words = [w for w in (m.group().lower() for m in _WORD.finditer(sentence)) if w not in _STOP]
    n_drop = min(int(len(words) * DROP_SHARE), max(len(words) - MIN_QUERY_WORDS, 0))
    rng = np.random.default_rng([seed, key])
    drop = set(rng.choice(len(words), size=n_drop, replace=False).tolist()) if n_drop else set()
    return " ".join(w for i, w in enumerate(words) if i not in drop)


def _is_candidate(sentence: str) -> bool:
    words = len(_WORD.findall(sentence))
    if not MIN_WORDS <= words <= MAX_WORDS:
        return False
    visible = [c for c in sentence if not c.isspace()]
    return sum(c.isalpha() for c in visible) >= MIN_LETTER_SHARE * len(visible)


def candidate_spans(text: str, breaks: list[int]) -> list[tuple[int, int]]:
    """Character spans (stripped) of the candidate sentences of ``text``, in order."""
    starts = sentence_starts(text, breaks)
    ends = np.append(starts[1:], len(text))
    spans = []
    for s, e in zip(starts.tolist(), ends.tolist()):
        raw = text[s:e]
        lead = len(raw) - len(raw.lstrip())
        core = raw.strip()
        if core and _is_candidate(core):
            spans.append((s + lead, s + lead + len(core)))
    return spans


def _token_span(tokenized: "TokenizedBook", s: int, e: int) -> tuple[int, int]:
    return tokenized.token_at_char(s), tokenized.token_at_char(e - 1) + 1


def _draw(
    tokenized: "TokenizedBook", spans: list[tuple[int, int]], n: int, seed: int, zone: str
) -> list[Probe]:
    """``min(n, len(spans))`` of ``spans`` drawn with ``seed``, as probes in book order."""
    if not spans or n < 1:
        return []
    book = tokenized.book
    bounds = fence_offsets(book, "chapter")
    unit_tokens = [0, *(tokenized.token_at_char(b) for b in bounds), tokenized.n_tokens]
    rng = np.random.default_rng(seed)
    picked = sorted(rng.choice(len(spans), size=min(n, len(spans)), replace=False).tolist())
    probes = []
    for i in picked:
        s, e = spans[i]
        t0, t1 = _token_span(tokenized, s, e)
        unit = bisect.bisect_right(bounds, s)
        query = make_query(book.text[s:e], seed, s)
        probes.append(Probe(s, e, t0, t1, unit, query, unit_tokens[unit], unit_tokens[unit + 1], zone))
    return probes


def sample_probes(tokenized: "TokenizedBook", n: int, seed: int) -> list[Probe]:
    """Draw up to ``n`` sentences anywhere in the book (fewer when it has fewer), in book order."""
    book = tokenized.book
    return _draw(
        tokenized, candidate_spans(book.text, [h.char_offset for h in book.headings]), n, seed, "random"
    )


def in_boundary_zone(t0: int, t1: int, fence_tokens: list[int], zone_tokens: int) -> bool:
    """True when tokens ``[t0, t1)`` lie within ``zone_tokens`` before or after one fence token.

    After a fence ``f``: ``f <= t0`` and ``t1 <= f + zone_tokens``; before it: ``f - zone_tokens
    <= t0`` and ``t1 <= f``.
    """
    i = bisect.bisect_right(fence_tokens, t0)
    after = i > 0 and t1 <= fence_tokens[i - 1] + zone_tokens
    before = i < len(fence_tokens) and fence_tokens[i] - zone_tokens <= t0 and t1 <= fence_tokens[i]
    return after or before


def fence_tokens(tokenized: "TokenizedBook") -> list[int]:
    """The token offsets of the chapter-level fences (``rules.fence_offsets``), above 0, distinct."""
    return sorted({tokenized.token_at_char(f) for f in fence_offsets(tokenized.book, "chapter") if 0 < f})


def boundary_probes(
    tokenized: "TokenizedBook", n: int, seed: int, zone_tokens: int = BOUNDARY_TOKENS
) -> list[Probe]:
    """Draw up to ``n`` sentences lying wholly within ``zone_tokens`` of a chapter start.

    Args:
        tokenized (TokenizedBook): the book and its canonical token offsets.
        n (int): how many sentences to draw.
        seed (int): the random seed; same seed, same probes.
        zone_tokens (int): the zone's width on each side of a fence. Defaults to ``BOUNDARY_TOKENS``.

    Returns:
        list[Probe]: in book order, ``zone="boundary"``; empty for a book without chapters.
    """
    book = tokenized.book
    fences = fence_tokens(tokenized)
    spans = [
        (s, e)
        for s, e in candidate_spans(book.text, [h.char_offset for h in book.headings])
        if in_boundary_zone(*_token_span(tokenized, s, e), fences, zone_tokens)
    ]
    return _draw(tokenized, spans, n, seed, "boundary")
