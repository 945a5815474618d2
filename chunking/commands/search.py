"""``python -m chunking search BOOK "query" [-k 5] [--retriever bm25|dense|hybrid] [--policy …]… [--json]``.

Top-k chunks per policy, retrieved by BM25 (default), dense embeddings (WordLlama, offline) or
hybrid (reciprocal rank fusion of both; ``chunking.retrieval.hybrid``).

Each ``--policy`` is ``key=value`` pairs over ``Policy`` field names, as for ``compare``; without
one the default policy is used. The book is read once per structure source and tokenized once per
(structure, encoding); one index is built per policy. Prints, per policy, the ranked hits
(score, chunk id, pages, chapter, matched terms, ``crosses chapter`` flag) or, with ``--json``, a
list of ``{"policy", "retriever", "hits": [{"id", "score", "page_start", "page_end", "chapter",
"crosses_chapter"}]}``. Exit 0 (also when nothing matches: the hit lists are then empty).

``--store lancedb:DIR`` (no BOOK) searches a store built by ``index`` instead: its chunks, its
vectors through LanceDB (``chunking.index.query``), one result labelled with the store's policy
profile; ``--policy`` and ``--structure-file`` do not apply. ``--expand section|neighbours``
adds to each hit the span it expands to (``chunking.links.expansion_span``) and that exact slice
of the canonical text (``"expanded": {"how", "char_start", "char_end", "text"}`` in JSON).
Exit 2 for a bad ``--store``, BOOK with ``--store`` or neither; 3 when the store cannot be read.
"""

from __future__ import annotations

import json as jsonlib
import textwrap

from ..analysis.compare import chunked_runs
from ..errors import UsageError
from ..links import expansion_span
from ..policy import Policy, parse_policies
from ..retrieval.hybrid import build_index
from ..models import RETRIEVERS
from ..structure_file import load_optional


def run(
    *,
    book: str | None,
    query: str,
    k: int,
    policy: list[str],
    json: bool,
    structure_file: str | None = None,
    retriever: str = "bm25",
    store: str | None = None,
    expand: str | None = None,
) -> int:
    """Search one book's chunks under each policy (or a store's) and print the top ``k`` hits.

    Args:
        book (str | None): path of the book file; None with ``store``.
        query (str): the question or keywords.
        k (int): hits per policy at most.
        policy (list[str]): policy specs; default policy when empty.
        json (bool): print JSON instead of text.
        structure_file (str | None): structure corrections to apply. Defaults to None.
        retriever (str): one of ``RETRIEVERS``. Defaults to ``"bm25"``.
        store (str | None): ``lancedb:DIR`` to search instead of the book. Defaults to None.
        expand (str | None): ``chunking.links.EXPANSIONS``. Defaults to None.

    Returns:
        int: 0.

    Raises:
        UsageError: ``k`` below 1, an empty query, an unknown retriever, BOOK and ``store``
            both given or neither.
        PolicyError: a policy spec is invalid.
        UnreadableInputError: the book or the store cannot be read.
    """
    if k < 1:
        raise UsageError(f"-k must be at least 1; got {k}")
    if not query.strip():
        raise UsageError("the query is empty")
    if retriever not in RETRIEVERS:
        raise UsageError(f"unknown retriever {retriever!r}; choose one of {', '.join(RETRIEVERS)}")
    if (book is None) == (store is None):
        raise UsageError("search: give a BOOK or --store lancedb:DIR (not both)")
    results = []
    if book is None:
        results.append(_search_store(str(store), query, k, retriever, expand))
    else:
        policies = parse_policies(policy, [Policy()])
        for r in chunked_runs(book, policies, load_optional(structure_file)):
            hits = build_index(retriever, r.book, r.chunks).search(query, k)
            results.append((r.label, hits, _expanded(hits, r.chunks, expand, r.book.text.__getitem__)))
    if json:
        records = [
            {
                "policy": label,
                "retriever": retriever,
                "hits": [dict(h.to_dict(), **({"expanded": e} if e else {})) for h, e in zip(hits, wide)],
            }
            for label, hits, wide in results
        ]
        print(jsonlib.dumps(records, indent=1))
        return 0
    for label, hits, wide in results:
        print(f"== {label} ({retriever}): {len(hits)} hit(s)")
        for h, e in zip(hits, wide):
            pages = f"p.{h.page_start}" + (f"-{h.page_end}" if h.page_end != h.page_start else "")
            flag = "  [crosses chapter]" if h.crosses_chapter else ""
            print(f"{h.rank:>3}. {h.score:8.3f}  {h.id}  {pages}  {h.chapter or '-'}{flag}")
            print(f"      terms: {', '.join(h.terms) or '-'}")
            if e:
                print(f"      {e['how']}: characters {e['char_start']}-{e['char_end']}")
                print(textwrap.indent(e["text"], "      | "))
    return 0


def _expanded(hits, chunks, how: str | None, text_slice) -> list[dict | None]:
    """Per hit, its expansion (``chunking.links.expansion_span``) with the exact text, or None."""
    if how is None:
        return [None] * len(hits)
    by_id = {c.id: c for c in chunks}
    out: list[dict | None] = []
    for h in hits:
        start, end = expansion_span(by_id[h.id], how, by_id)
        out.append({"how": how, "char_start": start, "char_end": end, "text": text_slice(slice(start, end))})
    return out


def _search_store(store: str, query: str, k: int, retriever: str, expand: str | None):
    """``(label, hits, expansions)`` of a store built by ``index``."""
    from ..index.query import read_store, store_index
    from ..index.store import Store, store_path
    from ..retrieval.embeddings import default_backend

    opened = Store(store_path(store), create=False)
    stored = read_store(opened)
    hits = store_index(retriever, stored, opened, default_backend()).search(query, k)
    label = str(stored.record.manifest.get("profile") or stored.record.table)
    wide = _expanded(hits, stored.chunks, expand, lambda s: stored.exact_slice(s.start, s.stop))
    return label, hits, wide
