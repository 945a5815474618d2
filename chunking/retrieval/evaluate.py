"""Retrieval debugging, stage 3: self-retrieval evaluation of chunk sets (no LLM, no network).

Contract: ``sample_probes(tokenized, n, seed)`` draws up to ``n`` sentences of the book; the same
book, ``n`` and ``seed`` always give the same sentences and queries. ``evaluate_chunks(probes,
index, k)`` retrieves the top ``k`` chunks of one policy (BM25, ``chunking.retrieval.search``) for every
probe's query and averages the metrics below. It is a *proxy*: the "question" is a damaged copy
of a sentence, so it measures how well a policy's chunks keep a sentence findable and whole, not
answer quality.

Probes. Sentences come from ``chunking.retrieval.space.sentence_starts`` (headings also end one); a candidate has
``MIN_WORDS``–``MAX_WORDS`` words and at least ``MIN_LETTER_SHARE`` letters among its non-space
characters (code and tables are skipped). Its query keeps its words (bm25s's word pattern,
lower-cased) minus English stop words, then drops ``DROP_SHARE`` of the rest, chosen by a
generator seeded with ``(seed, sentence start)`` so a sentence's query does not depend on ``n``.
At least ``MIN_QUERY_WORDS`` words are kept.

Metrics for one probe with evidence E (the sentence's tokens in the canonical token stream, a
half-open range) and retrieved chunks C_1..C_r (r ≤ k, token ranges, best first):

* ``hit_at_k``: 1 when some C_i contains the whole sentence (in characters), else 0.
* ``chapter_precision_at_k``: the mean over C_1..C_r of the share of the chunk's characters that
  lie in the sentence's chapter-level unit (the text between two consecutive chapter-level or part
  headings); a chunk wholly in that chapter counts 1, one straddling two chapters counts the part
  inside. 0 when r = 0.
* Token metrics, as Chroma's chunking evaluation defines them (with canonical tokens instead of
  characters, and a fixed k instead of "as many chunks as the evidence needs"):
  ``I = |E ∩ (C_1 ∪ … ∪ C_r)|`` (tokens of the sentence that were retrieved),
  ``precision = I / Σ|C_i|`` (a token held by two overlapping chunks counts twice: redundancy
  costs), ``recall = I / |E|``, ``iou = I / (Σ|C_i| + |E| - I)``. All are 0 when r = 0.

The reported value of each metric is its mean over the probes.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np
from bm25s.stopwords import STOPWORDS_EN

from ..models import Chunk
from .space import sentence_starts
from .search import TOKEN_PATTERN, ChunkIndex, chapter_starts

if TYPE_CHECKING:  # NOTE: only for annotations; probes read .book and .char_starts
    from ..tokens import TokenizedBook

MIN_WORDS = 8
MAX_WORDS = 60
MIN_LETTER_SHARE = 0.7
DROP_SHARE = 0.5
"""Share of a sentence's content words a query leaves out (so the query is not the sentence).

# NOTE: at 0.3, BM25 found nearly every sentence in its top 5 under every policy (hit@5 = 1.0 on
r-intro and chez-csug); half the words left out makes the proxy tell policies apart a little."""

MIN_QUERY_WORDS = 3

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
    """

    char_start: int
    char_end: int
    token_start: int
    token_end: int
    unit: int
    query: str


@dataclass(frozen=True)
class PolicyScore:
    """Mean metrics of one policy (see the module docstring for the definitions).

    Attributes:
        policy (str): the policy's label.
        n (int): probes evaluated.
        k (int): chunks retrieved per probe at most.
        hit_at_k (float): share of probes whose sentence lies whole in a retrieved chunk.
        chapter_precision_at_k (float): mean share of retrieved chunks from the sentence's chapter.
        iou (float): mean token IoU.
        precision (float): mean token precision.
        recall (float): mean token recall.
    """

    policy: str
    n: int
    k: int
    hit_at_k: float
    chapter_precision_at_k: float
    iou: float
    precision: float
    recall: float

    def to_dict(self) -> dict[str, Any]:
        """The ``evaluate --json`` record (metrics rounded to 4 decimals)."""
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in asdict(self).items()}


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


def sample_probes(tokenized: "TokenizedBook", n: int, seed: int) -> list[Probe]:
    """Draw up to ``n`` sentences (fewer when the book has fewer candidates), in book order.

    Args:
        tokenized (TokenizedBook): the book and its canonical token offsets.
        n (int): how many sentences to draw.
        seed (int): the random seed; same seed, same probes.

    Returns:
        list[Probe]: the probes sorted by position.
    """
    text = tokenized.book.text
    starts = sentence_starts(text, [h.char_offset for h in tokenized.book.headings])
    ends = np.append(starts[1:], len(text))
    spans = []
    for s, e in zip(starts.tolist(), ends.tolist()):
        raw = text[s:e]
        lead = len(raw) - len(raw.lstrip())
        core = raw.strip()
        if core and _is_candidate(core):
            spans.append((s + lead, s + lead + len(core)))
    if not spans or n < 1:
        return []
    rng = np.random.default_rng(seed)
    picked = sorted(rng.choice(len(spans), size=min(n, len(spans)), replace=False).tolist())
    bounds = chapter_starts(tokenized.book)
    probes = []
    for i in picked:
        s, e = spans[i]
        t0 = tokenized.token_at_char(s)
        t1 = tokenized.token_at_char(e - 1) + 1
        probes.append(Probe(s, e, t0, t1, bisect.bisect_right(bounds, s), make_query(text[s:e], seed, s)))
    return probes


def span_metrics(
    evidence: tuple[int, int], retrieved: Sequence[tuple[int, int]]
) -> tuple[float, float, float]:
    """Token precision, recall and IoU of retrieved ranges against one evidence range.

    Args:
        evidence (tuple[int, int]): half-open token range of the sentence.
        retrieved (Sequence[tuple[int, int]]): half-open token ranges of the retrieved chunks.

    Returns:
        tuple[float, float, float]: ``(precision, recall, iou)`` as the module docstring defines.
    """
    e0, e1 = evidence
    if not retrieved or e1 <= e0:
        return 0.0, 0.0, 0.0
    covered = np.zeros(e1 - e0, dtype=bool)
    for c0, c1 in retrieved:
        lo, hi = max(c0, e0), min(c1, e1)
        if lo < hi:
            covered[lo - e0 : hi - e0] = True
    inter = int(covered.sum())
    total = sum(c1 - c0 for c0, c1 in retrieved)
    precision = inter / total if total else 0.0
    return precision, inter / (e1 - e0), inter / (total + (e1 - e0) - inter)


def chapter_share(unit: int, retrieved: Sequence[Chunk], bounds: Sequence[int]) -> float:
    """Mean share of each retrieved chunk's characters that lie in chapter-level unit ``unit``.

    Args:
        unit (int): the unit index (``bisect_right(bounds, offset)``).
        retrieved (Sequence[Chunk]): the retrieved chunks.
        bounds (Sequence[int]): ``chapter_starts(book)``.

    Returns:
        float: 0 when nothing was retrieved.
    """
    if not retrieved:
        return 0.0
    u_start = bounds[unit - 1] if unit > 0 else 0
    u_end = bounds[unit] if unit < len(bounds) else max(c.char_end for c in retrieved)
    shares = [
        max(0, min(c.char_end, u_end) - max(c.char_start, u_start)) / max(c.char_end - c.char_start, 1)
        for c in retrieved
    ]
    return sum(shares) / len(shares)


def evaluate_chunks(probes: Sequence[Probe], index: ChunkIndex, k: int, label: str) -> PolicyScore:
    """Retrieve the top ``k`` chunks for each probe and average the metrics.

    Args:
        probes (Sequence[Probe]): from ``sample_probes`` (same book as the index).
        index (ChunkIndex): one policy's chunk index.
        k (int): chunks retrieved per probe at most.
        label (str): the policy's label to report.

    Returns:
        PolicyScore: means over the probes (all 0 when there are no probes).
    """
    bounds = chapter_starts(index.book)
    docs, _ = index.top_k([p.query for p in probes], k) if probes else ([], [])
    rows = []
    for probe, found in zip(probes, docs):
        chunks = [index.chunks[i] for i in found]
        hit = any(c.char_start <= probe.char_start and probe.char_end <= c.char_end for c in chunks)
        precision, recall, iou = span_metrics(
            (probe.token_start, probe.token_end), [(c.token_start, c.token_end) for c in chunks]
        )
        rows.append((float(hit), chapter_share(probe.unit, chunks, bounds), iou, precision, recall))
    means = np.mean(rows, axis=0).tolist() if rows else [0.0] * 5
    return PolicyScore(label, len(probes), k, *means)
