"""What each benchmarked system does inside its own process (run by ``bench/run.py``).

``python bench/systems.py SYSTEM BOOK --text TEXT --out JSON`` runs one system once and writes
its inner timings as one JSON object to ``--out``. ``bench/run.py`` starts one fresh process per
system and run, times it from outside and reads its peak memory (``os.wait4``), so no system
ever shares a process, an import or a cache with another.

Systems:

* ``text`` — not timed: writes the book's canonical text for the peers.
* ``baseline`` — the CLI (``chunking.cli.main(["chunk", …])``) on a one-page PDF: interpreter,
  imports and the loaded encoding, i.e. the fixed cost of every run. It also records the module
  list the CLI imported (``--modules``), which ``floor`` imports too.
* ``floor`` — the same imports, then PyMuPDF ``page.get_text()`` over all pages and tiktoken
  ``encode_ordinary`` of the joined text: the least any PDF → tokens tool must do.
* ``ingest`` — ``chunking.ingest.load_book`` (read, normalise, find structure).
* ``rechunk`` — on one loaded book: ``encode_ordinary`` of its canonical text, ``tokenize``, then
  ``chunk_book`` with the default policy after a warm-up with another policy (a slider move).
* peers (``lc-token``, ``chonkie-token``, ``semchunk``, ``lc-recursive``, ``llama-sentence``) —
  each splits the book's canonical text (``--text``) at 512/120 cl100k tokens, offline (the
  vocabulary comes from ``chunking.encodings``; tokenizers are passed explicitly).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

MAX_TOKENS, OVERLAP = 512, 120
ENCODING = "cl100k_base"


def _timed(name: str, fn: Callable[[], object], into: dict) -> object:
    """Call ``fn``; store its wall time as ``<name>_s`` and its CPU time as ``<name>_cpu`` in ``into``.

    # NOTE: CPU time is kept beside wall time because the bench machine is shared: under load
    # the wall clock measures the scheduler too, CPU time of single-threaded code does not.
    """
    w0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    into[f"{name}_s"], into[f"{name}_cpu"] = time.perf_counter() - w0, time.process_time() - c0
    return out


def text(book: Path, args: argparse.Namespace) -> dict:
    """Not timed: write the book's canonical text (``load_book``) to ``--text`` for the peers."""
    from chunking.ingest import load_book

    loaded = load_book(book)
    Path(args.text).write_text(loaded.text, encoding="utf-8")
    return {
        "chars": len(loaded.text),
        "text_bytes": len(loaded.text.encode("utf-8")),
        "pages": len(loaded.pages),
        "headings": len(loaded.headings),
        "structure": loaded.diagnostics.structure_source,
    }


def baseline(book: Path, args: argparse.Namespace) -> dict:
    """Run the CLI in this process on ``book`` (a tiny PDF); record the modules it imported."""
    from chunking.cli import main

    code = main(["chunk", str(book), "-o", str(Path(args.out).with_suffix(".chunks.jsonl"))])
    if code != 0:
        raise RuntimeError(f"the CLI exited {code} on the baseline book")
    if args.modules:
        names = sorted(n for n in sys.modules if n != "__main__")
        Path(args.modules).write_text(json.dumps(names))
    return {}


def floor(book: Path, args: argparse.Namespace) -> dict:
    """Plain extraction + encode, after importing what the CLI imports (``--modules``)."""
    if args.modules:
        for name in json.loads(Path(args.modules).read_text()):
            try:
                importlib.import_module(name)
            except Exception:  # NOTE: a module that only imports inside its package's import order
                pass
    import pymupdf

    from chunking.encodings import get_encoding

    enc = get_encoding(ENCODING)

    def extract() -> str:
        with pymupdf.open(book) as doc:
            return "\n".join(page.get_text() for page in doc)

    res: dict = {}
    text = _timed("extract", extract, res)
    tokens = _timed("encode", lambda: enc.encode_ordinary(text), res)
    for unit in ("s", "cpu"):
        res[f"floor_{unit}"] = res[f"extract_{unit}"] + res[f"encode_{unit}"]
    return res | {"chars": len(text), "tokens": len(tokens)}


def ingest(book: Path, args: argparse.Namespace) -> dict:
    """``load_book`` once, timed."""
    from chunking.ingest import load_book

    res: dict = {}
    loaded = _timed("load", lambda: load_book(book), res)
    return res | {"pages": len(loaded.pages), "headings": len(loaded.headings)}


def rechunk(book: Path, args: argparse.Namespace) -> dict:
    """Encode, tokenize and re-chunk one loaded book, each timed in this process."""
    from chunking.encodings import get_encoding
    from chunking.ingest import load_book
    from chunking.policy import Policy
    from chunking.strategies import chunk_book
    from chunking.tokens import token_byte_lengths, tokenize

    loaded = load_book(book)
    enc = get_encoding(ENCODING)
    # NOTE: the per-vocabulary byte-length table is built once per encoding and process, like
    # the vocabulary itself (whose loading no system is timed for): build it before timing.
    token_byte_lengths(ENCODING)
    res: dict = {}
    _timed("encode", lambda: enc.encode_ordinary(loaded.text), res)
    # NOTE: every peer splits on one core, so ours is timed on one core too (``workers=1``); the
    # default (two threads on a big book: lower wall time, ~30 % more CPU on two busy vCPUs) is
    # timed beside it for reference. Both give the same arrays (tests/test_parallel_single_book.py).
    tokenized = _timed("tokenize", lambda: tokenize(loaded, ENCODING, workers=1), res)
    _timed("tokenize_threads", lambda: tokenize(loaded, ENCODING), res)
    chunk_book(tokenized, Policy(max_tokens=400, overlap_tokens=80))  # warm-up: the previous slider value
    chunks = _timed(
        "rechunk", lambda: chunk_book(tokenized, Policy(max_tokens=MAX_TOKENS, overlap_tokens=OVERLAP)), res
    )
    for unit in ("s", "cpu"):
        res[f"ours_{unit}"] = res[f"tokenize_{unit}"] + res[f"rechunk_{unit}"]
    return res | {
        "chunks": len(chunks),
        "tokens": tokenized.n_tokens,
        "chars": len(loaded.text),
        "text_bytes": len(loaded.text.encode("utf-8")),
        "pages": len(loaded.pages),
    }


def _peer_splitter(name: str) -> Callable[[str], list]:
    """Build one peer's splitter at 512/120 cl100k, offline; return ``text -> chunks``."""
    from chunking.encodings import get_encoding, seed_cache

    seed_cache(ENCODING)  # NOTE: peers that call tiktoken.get_encoding themselves find it cached
    enc = get_encoding(ENCODING)
    if name == "lc-token":
        from langchain_text_splitters import TokenTextSplitter

        return TokenTextSplitter(
            encoding_name=ENCODING, chunk_size=MAX_TOKENS, chunk_overlap=OVERLAP
        ).split_text
    if name == "lc-recursive":
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        return RecursiveCharacterTextSplitter.from_tiktoken_encoder(
            encoding_name=ENCODING, chunk_size=MAX_TOKENS, chunk_overlap=OVERLAP
        ).split_text
    if name == "chonkie-token":
        from chonkie import TokenChunker

        return TokenChunker(tokenizer=enc, chunk_size=MAX_TOKENS, chunk_overlap=OVERLAP).chunk
    if name == "semchunk":
        import semchunk

        chunker = semchunk.chunkerify(enc, chunk_size=MAX_TOKENS)
        return lambda text: chunker(text, overlap=OVERLAP)
    if name == "llama-sentence":
        from llama_index.core.node_parser import SentenceSplitter

        return SentenceSplitter(chunk_size=MAX_TOKENS, chunk_overlap=OVERLAP, tokenizer=enc.encode).split_text
    raise ValueError(f"unknown peer {name!r}")


PEERS = ("lc-token", "chonkie-token", "semchunk", "lc-recursive", "llama-sentence")
"""Peer systems, in the order issue 7 lists them."""


def peer(name: str) -> Callable[[Path, argparse.Namespace], dict]:
    def run(book: Path, args: argparse.Namespace) -> dict:
        try:
            split = _peer_splitter(name)
        except ImportError as exc:
            return {"missing": f"{exc.name or exc} (pip install -r requirements-bench.txt)"}
        text = Path(args.text).read_text(encoding="utf-8")
        res: dict = {}
        chunks = _timed("step", lambda: split(text), res)
        return res | {"chunks": len(chunks)}

    return run


SYSTEMS: dict[str, Callable[[Path, argparse.Namespace], dict]] = {
    "text": text,
    "baseline": baseline,
    "floor": floor,
    "ingest": ingest,
    "rechunk": rechunk,
    **{name: peer(name) for name in PEERS},
}


def main() -> int:
    parser = argparse.ArgumentParser(description="Run one benchmarked system once (see bench/run.py).")
    parser.add_argument("system", choices=sorted(SYSTEMS))
    parser.add_argument("book", type=Path)
    parser.add_argument("--out", required=True, help="JSON file for the timings")
    parser.add_argument("--text", help="peers: the canonical text to split; text: where to write it")
    parser.add_argument(
        "--modules", help="baseline: write the imported module names here; floor: import them"
    )
    args = parser.parse_args()
    result = SYSTEMS[args.system](args.book, args)
    Path(args.out).write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
