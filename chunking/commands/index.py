"""``python -m chunking index RUN.jsonl --store lancedb:DIR [--embed-prefix breadcrumb] …``.

Applies a chunk file (its manifest beside it) to a LanceDB store (``chunking.index.apply``): the
first run embeds and inserts every chunk; a later run of the same book applies the upsert plan
``chunking diff`` computes, embedding only text the store has never embedded with the model
(WordLlama, offline). A progress bar on stderr while embedding (a terminal only), then one summary
line on stdout (``kept …, added …, deleted …, re-keyed …, embedded …, updated … in … s``), or
with ``--json`` the same counts as one object.

``--embed-prefix breadcrumb`` embeds ``Book title › Chapter › Section`` before each chunk's text
(``chunking.retrieval.breadcrumb``); the stored text stays the exact slice. ``--prefix-in-budget``
counts the prefix against the run's ``max_tokens``: a chunk whose prefixed text is longer is
refused before anything is written. A run chunked with ``chunk --prefix-in-budget``
(``Policy.prefix_in_budget``) was cut so that none is; the message of a refused run says so.

Exit 0; 2 when the store holds another book (``--replace-book`` for a new edition of it), a
chunk's prefixed text is over budget, or ``--store`` is not ``lancedb:DIR`` or is a file; 3 when
the chunk file, its manifest (a FIFO too) or the store cannot be read (damaged, or a table
``index`` did not write); 5 when the store folder cannot be made or the store cannot be written
(permissions, a full disk, a file where a table's folder belongs); 130 / 143 when stopped by
Ctrl-C / SIGTERM: every table keeps its last commit, and the same command run again finishes.
"""

from __future__ import annotations

import json as jsonlib
import sys
from dataclasses import asdict

from ..analysis.diff import read_run
from ..errors import UsageError
from ..index.apply import index_run
from ..index.store import Store, store_path
from ..retrieval.breadcrumb import embedding_texts, over_budget
from ..retrieval.embeddings import default_backend


def run(
    *,
    chunks: str,
    store: str,
    embed_prefix: str = "none",
    prefix_in_budget: bool = False,
    replace_book: bool = False,
    json: bool = False,
) -> int:
    """Index ``chunks`` into ``store`` and print what was done.

    Raises:
        UsageError: another book's store, a prefixed chunk over budget, a bad ``--store``.
        UnreadableInputError: the chunk file, its manifest or the store cannot be read.
        OutputError: the store folder cannot be made, or the store cannot be written.
    """
    path = store_path(store)
    run_ = read_run(chunks)
    if prefix_in_budget:
        _check_budget(run_, embed_prefix)
    from tqdm import tqdm

    bar = tqdm(total=0, unit="chunk", desc="embedding", file=sys.stderr, disable=None, dynamic_ncols=True)

    def planned(n: int) -> None:
        bar.total = n
        bar.refresh()

    try:
        summary = index_run(
            run_,
            Store(path, create=True),
            default_backend(),
            embed_prefix=embed_prefix,
            replace_book=replace_book,
            progress=bar.update,
            on_plan=planned,
        )
    finally:
        bar.close()
    if json:
        print(jsonlib.dumps(dict(asdict(summary), seconds=round(summary.seconds, 3))))
    else:
        print(f"indexed {run_.path.name} into {path} ({summary.table}): {summary.line()}")
    return 0


def _check_budget(run_, embed_prefix: str) -> None:
    """Refuse chunks whose prefixed text is over the run's ``max_tokens``."""
    policy = run_.manifest.get("policy") if isinstance(run_.manifest.get("policy"), dict) else {}
    max_tokens, encoding = policy.get("max_tokens"), run_.manifest.get("encoding")
    if not isinstance(max_tokens, int) or not isinstance(encoding, str):
        raise UsageError(f"--prefix-in-budget: the manifest of {run_.path.name} names no max_tokens/encoding")
    title = str(run_.manifest["book"].get("title") or "")
    texts = embedding_texts(run_.chunks, title, embed_prefix)
    over = over_budget(run_.chunks, texts, encoding, max_tokens)
    if over:
        raise UsageError(
            f"--prefix-in-budget: {len(over)} chunk(s) (the first: order {over[0].order}) are over "
            f"max_tokens {max_tokens} with their {embed_prefix} prefix; chunk the book again with "
            "'chunk --prefix-in-budget' (or a smaller --max-tokens)"
        )
