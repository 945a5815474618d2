"""Issue 27: ``chunking index`` applies the upsert plan to a real LanceDB store in a temp folder,
embeds only text it has never embedded (counted through the embedding plug-in interface, the real
WordLlama model underneath), survives an interrupted run, refuses another book's store, and
``search --store`` answers like the in-memory search of the same chunks."""

from __future__ import annotations

import json
import random

import lancedb
import numpy as np
import pytest

from chunking.analysis.diff import diff_runs, read_run
from chunking.cli import main
from chunking.index.apply import index_run
from chunking.index.query import read_store, store_index
from chunking.index.store import Store
from chunking.pipeline import run_book
from chunking.policy import Policy
from chunking.retrieval.embeddings import default_backend
from chunking.retrieval.hybrid import build_index

WORDS = (
    "lattice harbour violin quartz meadow cipher glacier lantern orchard falcon ember tundra "
    "saffron compass beacon marble thistle canyon willow prism anchor velvet summit copper"
).split()


def write_book(path, seed: int = 0, long_words: int = 1500) -> None:
    """A Markdown book: four short chapters (one chunk under both test policies) and a long one
    with sections (cut differently when the token budget changes)."""
    rng = random.Random(seed)

    def para(n: int) -> str:
        return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."

    parts = []
    for i in range(1, 5):
        parts.append(f"# Chapter {i} Short\n\n{para(40)}\n")
    parts.append("# Chapter 5 Long\n")
    for s in range(1, 4):
        parts.append(f"## Section 5.{s}\n\n" + "\n\n".join(para(50) for _ in range(long_words // 150)) + "\n")
    path.write_text("\n".join(parts), encoding="utf-8")


class CountingBackend:
    """The real embedding backend behind the plug-in interface, counting the texts it embeds."""

    def __init__(self, inner=None, fail_after_calls: int | None = None) -> None:
        self.inner = inner or default_backend()
        self.name = self.inner.name
        self.texts: list[str] = []
        self.calls = 0
        self.fail_after_calls = fail_after_calls

    def embed(self, texts):
        if self.fail_after_calls is not None and self.calls >= self.fail_after_calls:
            raise KeyboardInterrupt  # what Ctrl-C raises mid-run
        self.calls += 1
        self.texts.extend(texts)
        return self.inner.embed(texts)


def chunk(book, out, *options: str):
    assert main(["chunk", str(book), "-o", str(out), *options]) == 0
    return out


@pytest.fixture
def runs(tmp_path):
    book = tmp_path / "book.md"
    write_book(book)
    a = chunk(book, tmp_path / "a.jsonl", "--max-tokens", "200", "--overlap", "20")
    b = chunk(book, tmp_path / "b.jsonl", "--max-tokens", "150", "--overlap", "20")
    return book, a, b


def table_ids(store_dir, name):
    table = lancedb.connect(str(store_dir)).open_table(name)
    return sorted(table.to_arrow().column("id").to_pylist())


def test_first_index_embeds_and_inserts_every_chunk(runs, tmp_path):
    _, a, _ = runs
    run = read_run(a)
    backend = CountingBackend()
    summary = index_run(run, Store(tmp_path / "store", create=True), backend)
    assert (summary.kept, summary.added, summary.deleted) == (0, len(run.chunks), 0)
    assert summary.embedded == len({c.text for c in run.chunks}) == len(backend.texts)
    assert table_ids(tmp_path / "store", summary.table) == sorted(c.id for c in run.chunks)
    stored = lancedb.connect(str(tmp_path / "store")).open_table(summary.table).to_arrow().to_pylist()
    by_id = {r["id"]: r for r in stored}
    for c in run.chunks:
        assert by_id[c.id]["text"] == c.text and by_id[c.id]["section_id"] == c.section_id
    vec = np.array(by_id[run.chunks[0].id]["vector"], dtype=np.float32)
    assert np.allclose(vec, default_backend().embed([run.chunks[0].text])[0], atol=1e-6)


def test_reindex_after_a_policy_change_applies_diffs_plan_and_reuses_vectors(runs, tmp_path, capsys):
    _, a, b = runs
    store = tmp_path / "store"
    assert main(["index", str(a), "--store", f"lancedb:{store}", "--json"]) == 0
    capsys.readouterr()
    backend = CountingBackend()
    summary = index_run(read_run(b), Store(store, create=True), backend)
    assert main(["diff", str(a), str(b), "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)["summary"]
    assert (summary.kept, summary.added, summary.deleted) == (plan["keep"], plan["add"], plan["delete"])
    old_texts = {c.text for c in read_run(a).chunks}
    new_texts = {c.text for c in read_run(b).chunks}
    assert summary.embedded == len(backend.texts) == len(new_texts - old_texts)
    assert summary.rekeyed >= 4  # the four short chapters: same text under new ids
    assert summary.rekeyed == sum(c.text in old_texts for c in read_run(b).chunks if c.id in set(plan_ids(b, a)))
    assert table_ids(store, summary.table) == sorted(c.id for c in read_run(b).chunks)


def plan_ids(new, old):
    return diff_runs(read_run(old), read_run(new)).add


def test_reindexing_the_same_run_embeds_nothing_and_changes_nothing(runs, tmp_path, capsys):
    _, a, _ = runs
    store = tmp_path / "store"
    assert main(["index", str(a), "--store", f"lancedb:{store}"]) == 0
    version = Store(store, create=False).chunk_table(read_store(Store(store, create=False)).record.table).version
    assert main(["index", str(a), "--store", f"lancedb:{store}", "--json"]) == 0
    out = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert (out["added"], out["deleted"], out["embedded"], out["updated"]) == (0, 0, 0, 0)
    # NOTE: merge_insert commits a new version even when no row changes; the rows are the same
    assert Store(store, create=False).chunk_table(out["table"]).version >= version


def test_an_interrupted_run_leaves_the_store_consistent_and_a_rerun_finishes(runs, tmp_path):
    _, a, b = runs
    store_dir = tmp_path / "store"
    index_run(read_run(a), Store(store_dir, create=True), CountingBackend())
    stopping = CountingBackend(fail_after_calls=1)
    with pytest.raises(KeyboardInterrupt):
        index_run(read_run(b), Store(store_dir, create=True), stopping, batch=2)
    stored = read_store(Store(store_dir, create=False))
    assert stored.record.manifest == read_run(a).manifest  # still the last finished run
    assert [c.id for c in stored.chunks] == [c.id for c in read_run(a).chunks]
    assert store_index("hybrid", stored, Store(store_dir, create=False), default_backend()).search("violin", 3)
    rerun = CountingBackend()
    summary = index_run(read_run(b), Store(store_dir, create=True), rerun, batch=2)
    new_texts = {c.text for c in read_run(b).chunks} - {c.text for c in read_run(a).chunks}
    assert len(stopping.texts) == 2 and summary.embedded == len(new_texts) - 2 == len(rerun.texts)
    assert set(stopping.texts).isdisjoint(rerun.texts)
    finished = read_store(Store(store_dir, create=False))
    assert [c.id for c in finished.chunks] == [c.id for c in read_run(b).chunks]
    assert finished.record.manifest == read_run(b).manifest


def test_a_store_refuses_another_books_run_unless_replace_book(runs, tmp_path, capsys):
    _, a, _ = runs
    other_book = tmp_path / "other.md"
    write_book(other_book, seed=7)
    other = chunk(other_book, tmp_path / "other.jsonl", "--max-tokens", "200", "--overlap", "20")
    store = tmp_path / "store"
    assert main(["index", str(a), "--store", f"lancedb:{store}"]) == 0
    first = read_store(Store(store, create=False)).record
    capsys.readouterr()
    assert main(["index", str(other), "--store", f"lancedb:{store}"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--replace-book" in err and "Traceback" not in err
    assert read_store(Store(store, create=False)).record == first
    assert main(["index", str(other), "--store", f"lancedb:{store}", "--replace-book"]) == 0
    replaced = read_store(Store(store, create=False))
    assert replaced.record.sha256 == read_run(other).book_sha256
    assert [c.id for c in replaced.chunks] == [c.id for c in read_run(other).chunks]
    assert first.table not in lancedb.connect(str(store)).list_tables().tables


@pytest.mark.parametrize("kind", ["dense", "hybrid"])
def test_store_search_equals_the_in_memory_search_of_the_same_chunks(runs, tmp_path, kind):
    book, a, _ = runs
    store_dir = tmp_path / "store"
    index_run(read_run(a), Store(store_dir, create=True), default_backend())
    stored = read_store(Store(store_dir, create=False))
    result = run_book(book, Policy(max_tokens=200, overlap_tokens=20), workers=1)
    assert stored.book.text == result.book.text  # rebuilt from the stored chunks
    memory = build_index(kind, result.book, result.chunks)
    lance = store_index(kind, stored, Store(store_dir, create=False), default_backend())
    for query in ("violin harbour", "glacier summit copper", "Section 5.2"):
        want, got = memory.search(query, 5), lance.search(query, 5)
        assert [h.id for h in got] == [h.id for h in want]
        assert np.allclose([h.score for h in got], [h.score for h in want], atol=1e-5)
        assert [h.crosses_chapter for h in got] == [h.crosses_chapter for h in want]


def test_search_store_cli_matches_search_book_cli(runs, tmp_path, capsys):
    book, a, _ = runs
    store = tmp_path / "store"
    assert main(["index", str(a), "--store", f"lancedb:{store}"]) == 0
    capsys.readouterr()
    policy = ["--policy", "max_tokens=200,overlap_tokens=20"]
    assert main(["search", str(book), "lantern orchard", "--retriever", "dense", "--json", *policy]) == 0
    want = json.loads(capsys.readouterr().out)[0]["hits"]
    assert main(["search", "lantern orchard", "--store", f"lancedb:{store}", "--retriever", "dense", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)[0]["hits"]
    assert [h["id"] for h in got] == [h["id"] for h in want]


@pytest.mark.parametrize("how", ["section", "neighbours"])
def test_search_expand_returns_exact_slices_of_the_canonical_text(runs, tmp_path, capsys, how):
    book, a, _ = runs
    store = tmp_path / "store"
    assert main(["index", str(a), "--store", f"lancedb:{store}"]) == 0
    capsys.readouterr()
    result = run_book(book, Policy(max_tokens=200, overlap_tokens=20), workers=1)
    by_id = {c.id: c for c in result.chunks}
    assert main(["search", "meadow cipher", "--store", f"lancedb:{store}", "--expand", how, "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)[0]["hits"]
    assert hits
    for h in hits:
        e, c = h["expanded"], by_id[h["id"]]
        assert e["text"] == result.book.text[e["char_start"] : e["char_end"]]
        assert e["char_start"] <= c.char_start + len(c.text) - len(c.text.lstrip()) < e["char_end"]
        if how == "neighbours":
            first, last = by_id.get(c.prev_id, c), by_id.get(c.next_id, c)
            assert (e["char_start"], e["char_end"]) == (first.char_start, last.char_end)
        else:
            heading_offsets = {hd.char_offset for hd in result.book.headings} | {0}
            assert e["char_start"] in heading_offsets


def test_breadcrumb_is_embedded_but_never_stored_nor_seen_by_bm25(runs, tmp_path):
    _, a, _ = runs
    run = read_run(a)
    store_dir = tmp_path / "store"
    backend = CountingBackend()
    index_run(run, Store(store_dir, create=True), backend, embed_prefix="breadcrumb")
    long_chunk = next(c for c in run.chunks if c.section)
    crumb = f"book › {long_chunk.chapter} › {long_chunk.section}\n\n"
    assert crumb + long_chunk.text in backend.texts
    stored = read_store(Store(store_dir, create=False))
    assert [c.text for c in stored.chunks] == [c.text for c in run.chunks]
    bm25 = store_index("bm25", stored, Store(store_dir, create=False), backend)
    assert "book" not in " ".join(c.text for c in run.chunks).lower()
    assert bm25.search("book", 5) == []  # the title is in every breadcrumb, in no stored text


def test_a_prefix_over_budget_is_refused_before_anything_is_written(runs, tmp_path, capsys):
    _, a, _ = runs
    store = tmp_path / "store"
    code = main(
        ["index", str(a), "--store", f"lancedb:{store}", "--embed-prefix", "breadcrumb", "--prefix-in-budget"]
    )
    err = capsys.readouterr().err
    assert code == 2 and "max_tokens 200" in err and len(err.strip().splitlines()) == 1
    assert not store.exists()


def test_search_store_without_a_store_is_one_clear_line(tmp_path, capsys):
    assert main(["search", "anything", "--store", f"lancedb:{tmp_path / 'none'}"]) == 3
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "no store here" in err
    assert main(["search", "anything", "--store", "pinecone:x"]) == 2
    assert main(["search", "anything"]) == 2


@pytest.mark.usefixtures("fresh_streamlit_caches")
def test_compare_pages_index_costs_are_what_index_does_from_a_store_of_p1(tmp_path):
    from tests.test_diff import BOOK, compare_page_upsert_summary

    _, facts = compare_page_upsert_summary()
    p1 = chunk(BOOK, tmp_path / "p1.jsonl", "--strategy", "chapter-window")
    p2 = chunk(BOOK, tmp_path / "p2.jsonl", "--strategy", "fixed-window")
    index_run(read_run(p1), Store(tmp_path / "store", create=True), default_backend())
    done = index_run(read_run(p2), Store(tmp_path / "store", create=True), default_backend())
    assert (facts["index: embed"], facts["index: reuse (re-keyed)"]) == (str(done.embedded), str(done.rekeyed))
