"""``python -m chunking evaluate BOOK [--policy …]… [-n 200] [-k 5] [--seed 0] [--json]``.

Self-retrieval evaluation (``chunking.retrieval.evaluate``): ``n`` sentences drawn with ``seed`` become
damaged queries; each policy's chunks are searched with BM25 and scored on hit@k, chapter
precision@k and Chroma-style token IoU / precision / recall. Without ``--policy`` every strategy
is evaluated at the default policy. Prints a table, or with ``--json`` a list of ``{"policy", "n",
"k", "hit_at_k", "chapter_precision_at_k", "iou", "precision", "recall"}``. Exit 0.
"""

from __future__ import annotations

import json as jsonlib

from ..errors import UsageError
from ..models import STRATEGIES
from ..policy import Policy
from ..retrieval.evaluate import PolicyScore, evaluate_chunks, sample_probes
from ..retrieval.search import ChunkIndex
from ..structure_file import load_optional
from .search import chunked_runs, parse_policies

COLUMNS = ("hit_at_k", "chapter_precision_at_k", "iou", "precision", "recall")


def run(
    *, book: str, policy: list[str], n: int, k: int, seed: int, json: bool, structure_file: str | None = None
) -> int:
    """Evaluate each policy's chunks of one book by self-retrieval and print the scores.

    Args:
        book (str): path of the book file.
        policy (list[str]): policy specs; every strategy at defaults when empty.
        n (int): sentences to sample.
        k (int): chunks retrieved per query.
        seed (int): sampling seed (same seed, same sentences and queries).
        json (bool): print JSON instead of a table.

    Returns:
        int: 0.

    Raises:
        UsageError: ``n`` or ``k`` below 1, or a negative seed.
        PolicyError: a policy spec is invalid.
        UnreadableInputError: the book cannot be read.
    """
    for name, value, low in (("-n", n, 1), ("-k", k, 1), ("--seed", seed, 0)):
        if value < low:
            raise UsageError(f"{name} must be at least {low}; got {value}")
    policies = parse_policies(policy, [Policy(strategy=s) for s in STRATEGIES])
    scores = []
    probes_by_book: dict[int, list] = {}
    for r in chunked_runs(book, policies, load_optional(structure_file)):
        key = id(r.tokenized)
        if key not in probes_by_book:
            probes_by_book[key] = sample_probes(r.tokenized, n, seed)
        scores.append(evaluate_chunks(probes_by_book[key], ChunkIndex.build(r.book, r.chunks), k, r.label))
    if json:
        print(jsonlib.dumps([s.to_dict() for s in scores], indent=1))
    else:
        print(format_table(scores))
    return 0


def format_table(scores: list[PolicyScore]) -> str:
    """Plain-text table: one row per policy, means of every metric."""
    header = ["policy", "n", "k", *COLUMNS]
    rows = [header] + [
        [s.policy, str(s.n), str(s.k), *(f"{getattr(s, c):.3f}" for c in COLUMNS)] for s in scores
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
        for row in rows
    )
