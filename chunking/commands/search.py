"""``python -m chunking search BOOK "query" [-k 5] [--retriever bm25|dense|hybrid] [--policy …]… [--json]``.

Top-k chunks per policy, retrieved by BM25 (default), dense embeddings (WordLlama, offline) or
hybrid (reciprocal rank fusion of both; ``chunking.retrieval.hybrid``).

Each ``--policy`` is ``key=value`` pairs over ``Policy`` field names, as for ``compare``; without
one the default policy is used. The book is read once per structure source and tokenized once per
(structure, encoding); one index is built per policy. Prints, per policy, the ranked hits
(score, chunk id, pages, chapter, matched terms, ``crosses chapter`` flag) or, with ``--json``, a
list of ``{"policy", "retriever", "hits": [{"id", "score", "page_start", "page_end", "chapter",
"crosses_chapter"}]}``. Exit 0 (also when nothing matches: the hit lists are then empty).
"""

from __future__ import annotations

import json as jsonlib

from ..analysis.compare import chunked_runs
from ..errors import UsageError
from ..policy import Policy, parse_policies
from ..retrieval.hybrid import build_index
from ..models import RETRIEVERS
from ..structure_file import load_optional


def run(
    *,
    book: str,
    query: str,
    k: int,
    policy: list[str],
    json: bool,
    structure_file: str | None = None,
    retriever: str = "bm25",
) -> int:
    """Search one book's chunks under each policy and print the top ``k`` hits.

    Args:
        book (str): path of the book file.
        query (str): the question or keywords.
        k (int): hits per policy at most.
        policy (list[str]): policy specs; default policy when empty.
        json (bool): print JSON instead of text.
        structure_file (str | None): structure corrections to apply. Defaults to None.
        retriever (str): one of ``RETRIEVERS``. Defaults to ``"bm25"``.

    Returns:
        int: 0.

    Raises:
        UsageError: ``k`` below 1, an empty query or an unknown retriever.
        PolicyError: a policy spec is invalid.
        UnreadableInputError: the book cannot be read.
    """
    if k < 1:
        raise UsageError(f"-k must be at least 1; got {k}")
    if not query.strip():
        raise UsageError("the query is empty")
    if retriever not in RETRIEVERS:
        raise UsageError(f"unknown retriever {retriever!r}; choose one of {', '.join(RETRIEVERS)}")
    policies = parse_policies(policy, [Policy()])
    results = []
    for r in chunked_runs(book, policies, load_optional(structure_file)):
        results.append((r.label, build_index(retriever, r.book, r.chunks).search(query, k)))
    if json:
        records = [
            {"policy": label, "retriever": retriever, "hits": [h.to_dict() for h in hits]}
            for label, hits in results
        ]
        print(jsonlib.dumps(records, indent=1))
        return 0
    for label, hits in results:
        print(f"== {label} ({retriever}): {len(hits)} hit(s)")
        for h in hits:
            pages = f"p.{h.page_start}" + (f"-{h.page_end}" if h.page_end != h.page_start else "")
            flag = "  [crosses chapter]" if h.crosses_chapter else ""
            print(f"{h.rank:>3}. {h.score:8.3f}  {h.id}  {pages}  {h.chapter or '-'}{flag}")
            print(f"      terms: {', '.join(h.terms) or '-'}")
    return 0
