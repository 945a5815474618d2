"""Issue 27 item 4: the Retrieval page searches a store built by ``chunking index`` like
``chunking search --store`` (real LanceDB in a temp folder, real WordLlama), shows the hits' chunk
ids, opens a hit on Boundaries under the store's policy, and refuses a bad, empty, damaged or
another book's store with one escaped message, never a traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import lancedb
import pytest
from streamlit.testing.v1 import AppTest
from test_index import write_book

from chunking.analysis.diff import read_run
from chunking.cli import main
from chunking.index.query import read_store, store_index
from chunking.index.store import Store
from chunking.retrieval.embeddings import default_backend

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("fresh_streamlit_caches")]

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
PAGE = "pages/6_Retrieval.py"
POLICY = ["--max-tokens", "200", "--overlap", "20"]


def build_store(tmp: Path, name: str, seed: int = 0) -> tuple[Path, Path]:
    """A book file and a store indexed from its chunk file (``chunk`` then ``index``, the CLI)."""
    book = tmp / f"{name}.md"
    write_book(book, seed=seed)
    out = tmp / f"{name}.jsonl"
    assert main(["chunk", str(book), "-o", str(out), *POLICY]) == 0
    store = tmp / f"store-{name}"
    assert main(["index", str(out), "--store", f"lancedb:{store}"]) == 0
    return book, store


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("stores")
    book, store = build_store(tmp, "book")
    _, other = build_store(tmp, "other", seed=7)
    return tmp, book, store, other


def store_page(book: Path, spec: str | None = None) -> AppTest:
    """The Retrieval page with ``book`` uploaded as the open book and ``spec`` typed as the store."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.file_uploader(key="home_upload").set_value((book.name, book.read_bytes(), "text/markdown")).run()
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    if spec is not None:
        at.text_input(key="retrieval_store").input(spec).run()
    return at


def hit_ids(at: AppTest) -> list[str]:
    (table,) = [e.value for e in at.dataframe if "crosses chapter" in e.value.columns]
    return list(table["id"])


@pytest.mark.parametrize("kind", ["dense", "hybrid"])
def test_store_search_on_the_page_equals_search_store(built, kind):
    _, book, store, _ = built
    at = store_page(book, f"lancedb:{store}")
    assert [t.label for t in at.tabs][-1] == "Search a store"
    assert (
        at.selectbox(key="retrieval_store_table").value == read_store(Store(store, create=False)).record.table
    )
    at.selectbox(key="retrieval_store_kind").set_value(kind).run()
    at.number_input(key="retrieval_store_k").set_value(4).run()
    at.text_input(key="retrieval_store_query").input("violin harbour glacier").run()
    assert not at.exception and not at.error
    opened = Store(store, create=False)
    want = store_index(kind, read_store(opened), opened, default_backend()).search(
        "violin harbour glacier", 4
    )
    assert hit_ids(at) == [h.id for h in want] and len(want) == 4
    assert [e.label for e in at.expander][-4:] == [
        f"#{h.rank} · chunk {h.order} · {h.id} · score {h.score:.3f}" for h in want
    ]


def test_a_bare_folder_is_read_as_a_lancedb_store(built):
    _, book, store, _ = built
    at = store_page(book, str(store))
    at.text_input(key="retrieval_store_query").input("meadow").run()
    assert not at.exception and not at.error and hit_ids(at)


def test_a_store_hit_opens_its_chunk_on_boundaries_under_the_stores_policy(built):
    _, book, store, _ = built
    at = store_page(book, f"lancedb:{store}")
    at.text_input(key="retrieval_store_query").input("lantern orchard").run()
    first = hit_ids(at)[0]
    order = next(c.order for c in read_store(Store(store, create=False)).chunks if c.id == first)
    at.button(key="retrieval_store_open_1").click().run()
    assert not at.exception
    assert (at.slider(key="policy_max_tokens").value, at.slider(key="policy_overlap_tokens").value) == (
        200,
        20,
    )
    assert at.number_input(key="bnd_chunk").value == order
    assert at.subheader[0].value == f"Chunk {order}"


def damaged(tmp: Path, store: Path) -> Path:
    """A copy of ``store`` whose chunk table's data files are cut short."""
    copy = tmp / "damaged"
    if not copy.exists():
        shutil.copytree(store, copy)
        for f in next(copy.glob("chunks_*.lance")).joinpath("data").iterdir():
            f.write_bytes(b"cut short")
    return copy


@pytest.mark.parametrize(
    "case, expected",
    [
        ("missing", "no store here"),
        ("a file", "not a folder"),
        ("another scheme", "only LanceDB stores"),
        ("an empty folder", "no store here"),
        ("another book", "another book"),
        ("damaged", "not a readable LanceDB store"),
        ("markdown in the path", "no store here"),
    ],
)
def test_a_bad_store_is_one_escaped_error_never_a_traceback(built, case, expected):
    tmp, book, store, other = built
    (tmp / "a-file").write_text("not a store")
    (tmp / "empty").mkdir(exist_ok=True)
    spec = {
        "missing": f"lancedb:{tmp / 'nowhere'}",
        "a file": f"lancedb:{tmp / 'a-file'}",
        "another scheme": "pinecone:index-1",
        "an empty folder": f"lancedb:{tmp / 'empty'}",
        "another book": f"lancedb:{other}",
        "damaged": f"lancedb:{damaged(tmp, store)}",
        "markdown in the path": f"lancedb:{tmp}/![x](http://evil.example/x.png)",
    }[case]
    at = store_page(book, spec)
    assert not at.exception
    assert len(at.error) == 1 and expected in at.error[0].value.replace("\\", "")
    shown = at.error[0].value
    assert "](" not in shown and "Traceback" not in shown and "\n" not in shown
    assert not [e for e in at.dataframe if "crosses chapter" in e.value.columns]


def test_a_table_no_record_names_is_listed_but_refused(built, tmp_path):
    _, book, store, _ = built
    copy = tmp_path / "store"
    shutil.copytree(store, copy)
    db = lancedb.connect(str(copy))
    current = read_store(Store(copy, create=False)).record.table
    db.create_table("chunks_0000000000000000", db.open_table(current).to_arrow().slice(0, 3))
    at = store_page(book, f"lancedb:{copy}")
    box = at.selectbox(key="retrieval_store_table")
    assert box.options[0].startswith(current) and "unfinished" in box.options[1]
    assert not at.error
    box.set_value("chunks_0000000000000000").run()
    assert (
        not at.exception
        and len(at.error) == 1
        and "run 'chunking index' again" in at.error[0].value.replace("\\", "")
    )


def test_a_store_is_named_lancedb_dir_or_a_bare_folder_and_no_other_kind():
    from chunking.errors import UsageError
    from chunking.index.catalog import parse_store

    assert parse_store("lancedb:/srv/store") == parse_store(" /srv/store ") == Path("/srv/store")
    assert parse_store("C:\\stores\\a") == Path("C:\\stores\\a")  # a drive letter is no scheme
    assert parse_store("/data/run:2") == Path("/data/run:2")
    for bad in ("", "   ", "pinecone:index", "chroma:/x"):
        with pytest.raises(UsageError):
            parse_store(bad)


def test_the_page_searches_the_store_as_a_reindex_left_it(built, tmp_path):
    tmp, book, store, _ = built
    copy = tmp_path / "store"
    shutil.copytree(store, copy)
    at = store_page(book, f"lancedb:{copy}")
    at.text_input(key="retrieval_store_query").input("quartz meadow").run()
    before = set(hit_ids(at))
    assert before <= {c.id for c in read_run(tmp / "book.jsonl").chunks}
    again = tmp_path / "b.jsonl"
    assert main(["chunk", str(book), "-o", str(again), "--max-tokens", "150", "--overlap", "20"]) == 0
    assert main(["index", str(again), "--store", f"lancedb:{copy}"]) == 0
    at.run()
    assert not at.exception and not at.error
    assert set(hit_ids(at)) <= {c.id for c in read_run(again).chunks}
    assert not set(hit_ids(at)) & before  # another policy: every id is new
