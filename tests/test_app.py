"""The inspector app under Streamlit's AppTest: every page runs, shows what the core computes,
keeps the book cached while the policy moves, escapes book text and reports errors in one line."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest

import inspector.data.cache
from chunking import export, rules
from chunking.analysis.scorecard import scorecard
from chunking.ingest import load_book
from chunking.models import END_REASONS
from chunking.policy import Policy
from chunking.strategies import chunk_book
from chunking.tokens import tokenize
from inspector import figures, views
from inspector.data import tables

pytestmark = pytest.mark.usefixtures("fresh_streamlit_caches")

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
PAGES = ["pages/1_Boundaries.py", "pages/2_Overlap.py", "pages/3_Chunks.py", "pages/4_Export.py"]
DEFAULT = ROOT / "sample_books" / "r-intro.pdf"

HOSTILE_MD = """# Chapter One <script>alert('x')</script>

Some text with <img src=x onerror=alert(1)> and **bold markdown** and [a link](javascript:alert(2)).

## A section

<script>document.title='owned'</script> More words here so the chunk has a body. | a | b |

# Chapter Two

Second chapter text, plain and simple, with a `code span` and _emphasis_.
"""


@pytest.fixture
def downloads(monkeypatch: pytest.MonkeyPatch) -> dict[str, bytes]:
    """File name → bytes of every download button the app renders."""
    seen: dict[str, bytes] = {}
    real = MemoryMediaFileStorage.load_and_get_id

    def capture(self, path_or_data, mimetype, kind, filename=None):  # noqa: ANN001
        if filename is not None and isinstance(path_or_data, bytes):
            seen[filename] = path_or_data
        return real(self, path_or_data, mimetype, kind, filename)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", capture)
    return seen


def run_app(page: str | None = None, at: AppTest | None = None) -> AppTest:
    at = at or AppTest.from_file(APP, default_timeout=30)
    at.run()
    if page:
        at.switch_page(page)
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def plotly(at: AppTest, key: str) -> dict:
    (el,) = [e for e in at.get("plotly_chart") if e.proto.id.endswith(key) or key in e.proto.id]
    return json.loads(el.proto.spec)


def html_text(at: AppTest) -> str:
    return "\n".join(e.proto.body for e in at.get("html"))


@pytest.fixture(scope="module")
def core_default():
    book = load_book(DEFAULT)
    tokenized = tokenize(book)
    return book, tokenized, chunk_book(tokenized, Policy())


@pytest.mark.parametrize("page", [None, *PAGES])
def test_every_page_runs_on_the_default_sample(page: str | None) -> None:
    at = run_app(page)
    assert "r-intro.pdf" in html_text(at)
    assert not at.error


@pytest.mark.slow
@pytest.mark.parametrize("name", ["chez-csug.pdf", "debian-policy.epub", "haskell98-report.pdf", "lshort.pdf",
                                  "r-intro.pdf"])
def test_every_page_works_on_every_sample_book(name: str) -> None:
    at = run_app()
    at.selectbox(key="home_sample").set_value(name).run()
    assert not at.exception and not at.error
    assert metrics(at)["Pages"] == str(len(load_book(ROOT / "sample_books" / name).pages))
    for page in PAGES:
        at.switch_page(page).run()
        assert not at.exception, (page, [e.value for e in at.exception])
        assert not at.error, (page, [e.value for e in at.error])
        assert name in html_text(at)


def test_home_metrics_equal_what_the_core_computes(core_default) -> None:
    book, tokenized, chunks = core_default
    m = metrics(run_app())
    assert list(m) == ["Pages", "Chapters", "Tokens", "Chunks", "Chapter-crossing chunks"]
    assert m["Pages"] == str(len(book.pages))
    assert m["Chapters"] == str(len(rules.chapter_headings(book)))
    assert m["Tokens"] == str(tokenized.n_tokens)
    assert m["Chunks"] == str(len(chunks))
    crossing = scorecard(chunks, tokenized, Policy())["chapter_crossing_chunks"]
    assert m["Chapter-crossing chunks"] == str(crossing)


def test_home_shows_detected_structure_and_diagnostics(core_default) -> None:
    book = core_default[0]
    at = run_app()
    structure = at.dataframe[0].value  # the first table page
    rows = views.TABLE_ROWS
    assert list(structure["title"]) == [h.title for h in book.headings[:rows]]
    assert list(structure["page"]) == [h.page for h in book.headings[:rows]]
    last = -(-len(book.headings) // rows)
    at.number_input(key="home_structure_page").set_value(last).run()
    assert list(at.dataframe[0].value["title"]) == [h.title for h in book.headings[(last - 1) * rows :]]
    facts = dict(zip(at.dataframe[1].value["fact"], at.dataframe[1].value["value"]))
    assert facts["structure_source"] == book.diagnostics.structure_source


def test_changing_max_tokens_rechunks_to_the_cores_count(core_default) -> None:
    _, tokenized, _ = core_default
    at = run_app()
    at.slider(key="policy_max_tokens").set_value(256).run()
    assert metrics(at)["Chunks"] == str(len(chunk_book(tokenized, Policy(max_tokens=256))))


def test_moving_a_slider_neither_rereads_nor_retokenizes(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = {"load_book": 0, "tokenize": 0}
    real_load, real_tokenize = inspector.data.cache.load_book, inspector.data.cache.tokenize

    def counted_load(*args, **kwargs):  # noqa: ANN002, ANN003
        calls["load_book"] += 1
        return real_load(*args, **kwargs)

    def counted_tokenize(*args, **kwargs):  # noqa: ANN002, ANN003
        calls["tokenize"] += 1
        return real_tokenize(*args, **kwargs)

    monkeypatch.setattr(inspector.data.cache, "load_book", counted_load)
    monkeypatch.setattr(inspector.data.cache, "tokenize", counted_tokenize)
    at = run_app()
    for value in (256, 384, 1024):
        at.slider(key="policy_max_tokens").set_value(value).run()
    at.slider(key="policy_overlap_tokens").set_value(40).run()
    assert not at.exception
    assert calls == {"load_book": 1, "tokenize": 1}
    at.selectbox(key="policy_encoding").set_value("o200k_base").run()
    assert calls == {"load_book": 1, "tokenize": 2}


def test_policy_error_names_the_field_in_the_sidebar_and_keeps_the_last_valid_view(core_default) -> None:
    _, tokenized, _ = core_default
    at = run_app()
    at.slider(key="policy_max_tokens").set_value(128).run()
    at.slider(key="policy_overlap_tokens").set_value(200).run()
    assert not at.exception
    assert len(at.sidebar.error) == 1 and "overlap_tokens" in at.sidebar.error[0].value
    assert len(at.error) == 1  # one message, beside the inputs
    assert "last valid policy" in at.warning[0].value
    # the page still shows the last valid policy (max tokens 128, overlap 120)
    assert metrics(at)["Chunks"] == str(len(chunk_book(tokenized, Policy(max_tokens=128))))
    at.slider(key="policy_overlap_tokens").set_value(40).run()
    assert not at.error
    assert metrics(at)["Chunks"] == str(len(chunk_book(tokenized, Policy(max_tokens=128, overlap_tokens=40))))


def test_too_many_chunks_is_explained_in_the_sidebar_and_keeps_the_last_valid_view(core_default) -> None:
    _, _, chunks = core_default
    at = run_app()
    at.number_input(key="policy_max_chunks").set_value(10).run()
    assert not at.exception
    assert len(at.sidebar.error) == 1 and "max_chunks" in at.sidebar.error[0].value
    assert len(at.error) == 1  # one message, in the sidebar
    assert "last valid policy" in at.warning[0].value and "max_chunks" in at.warning[0].value
    assert metrics(at)["Chunks"] == str(len(chunks))  # the page still shows the default run
    at.number_input(key="policy_max_chunks").set_value(50_000).run()
    assert not at.error and not at.warning and metrics(at)["Chunks"] == str(len(chunks))


@pytest.mark.parametrize("key, bad, good, field", [
    ("policy_max_pages", 1, 3, "max_pages"),  # below target pages: an invalid field
    ("policy_max_chunks", 5, 50_000, "max_chunks"),  # valid, but the book needs more chunks
])
def test_a_policy_error_keeps_the_chapter_jump_and_zoom_on_boundaries(core_default, key, bad, good, field) -> None:
    book, _, _ = core_default
    fences = rules.fence_headings(book)
    k = next(i for i, h in enumerate(fences) if h.kind == "chapter" and h.number == "3")
    at = run_app(PAGES[0])
    at.selectbox(key="bnd_chapter").set_value(k).run()
    zoom = at.slider(key="bnd_range").value
    at.number_input(key=key).set_value(bad).run()
    assert not at.exception and field in at.sidebar.error[0].value
    assert at.get("plotly_chart")  # the figure of the last valid policy, not a blank page
    at.number_input(key=key).set_value(good).run()
    at.selectbox(key="policy_strategy").set_value("fixed-window").run()
    assert not at.exception and not at.error
    assert at.selectbox(key="bnd_chapter").value == k
    assert at.slider(key="bnd_range").value == zoom


def test_policy_survives_a_page_switch(core_default) -> None:
    _, tokenized, _ = core_default
    at = run_app()
    at.slider(key="policy_max_tokens").set_value(300).run()
    at.switch_page("pages/3_Chunks.py").run()
    assert at.slider(key="policy_max_tokens").value == 300
    assert metrics(at)["Chunks shown"].endswith(f"of {len(chunk_book(tokenized, Policy(max_tokens=300)))}")


def test_corrupt_upload_shows_the_readers_one_line_error() -> None:
    at = run_app()
    broken = ("broken.pdf", b"%PDF-1.7\n%garbage, not a PDF", "application/pdf")
    at.file_uploader(key="home_upload").set_value(broken)
    at.run()
    assert not at.exception
    assert len(at.error) == 1
    message = at.error[0].value
    assert "broken.pdf" in message and "\n" not in message.strip()


def test_a_failed_upload_keeps_its_error_on_every_page_instead_of_another_book() -> None:
    at = run_app()
    broken = ("broken[x](y).pdf", b"%PDF-1.7\n%garbage, not a PDF", "application/pdf")
    at.file_uploader(key="home_upload").set_value(broken).run()
    for page in [*PAGES, "pages/5_Compare.py"]:
        at.switch_page(page).run()
        assert not at.exception, page
        assert [e.value for e in at.error] == [at.error[0].value] and "broken" in at.error[0].value, page
        assert "](" not in at.error[0].value  # escaped: the name's Markdown link is inert
        assert "r-intro" not in html_text(at) and not at.metric, page


def test_the_sample_box_names_no_sample_while_an_upload_is_current() -> None:
    at = run_app()
    assert at.selectbox(key="home_sample").value == "r-intro.pdf"
    at.file_uploader(key="home_upload").set_value(("notes.md", b"# One\n\nText.\n", "text/markdown")).run()
    assert at.selectbox(key="home_sample").value is None
    assert "notes.md (uploaded)" in html_text(at)
    at.selectbox(key="home_sample").set_value("lshort.pdf").run()
    assert not at.exception and "lshort.pdf (bundled sample)" in html_text(at)
    assert at.selectbox(key="home_sample").value == "lshort.pdf"
    assert not any(u.value for u in at.get("file_uploader"))  # the uploader was emptied


def test_every_page_header_names_the_book_its_format_and_what_a_page_is() -> None:
    at = run_app()
    at.file_uploader(key="home_upload").set_value(("notes.txt", ("word " * 3000).encode(), "text/plain")).run()
    for page in [None, *PAGES, "pages/5_Compare.py", "pages/6_Retrieval.py", "pages/7_Structure.py"]:
        if page:
            at.switch_page(page).run()
        header = next(e.proto.body for e in at.get("html") if "current-book" in e.proto.body)
        assert "notes.txt (uploaded)" in header and "TXT" in header, page
        assert "synthetic" in header and "2,000 characters" in header, page
        assert "structure: " in header, page


def test_home_page_is_named_book_in_the_navigation() -> None:
    at = run_app()
    assert at.title[0].value == "Book Chunk Inspector"
    source = Path(APP).read_text()
    assert "st.navigation" in source and 'title="Book"' in source


def test_max_tokens_number_box_moves_the_slider_and_back(core_default) -> None:
    _, tokenized, _ = core_default
    at = run_app()
    at.number_input(key="policy_max_tokens_box").set_value(300).run()
    assert at.slider(key="policy_max_tokens").value == 300
    assert metrics(at)["Chunks"] == str(len(chunk_book(tokenized, Policy(max_tokens=300))))
    at.slider(key="policy_max_tokens").set_value(256).run()
    assert at.number_input(key="policy_max_tokens_box").value == 256


def test_overlap_of_half_max_tokens_or_more_warns_of_token_inflation() -> None:
    at = run_app()
    assert not at.sidebar.warning
    at.slider(key="policy_overlap_tokens").set_value(256).run()  # max tokens 512
    assert len(at.sidebar.warning) == 1 and "inflation" in at.sidebar.warning[0].value
    at.slider(key="policy_overlap_tokens").set_value(248).run()
    assert not at.sidebar.warning


def test_fields_a_strategy_ignores_are_disabled_with_a_note() -> None:
    at = run_app()
    assert not at.number_input(key="policy_max_pages").disabled
    assert at.number_input(key="policy_min_section_tokens").disabled
    at.selectbox(key="policy_strategy").set_value("fixed-window").run()
    for key in ("policy_target_pages", "policy_max_pages", "policy_min_section_tokens"):
        assert at.number_input(key=key).disabled, key
    assert at.selectbox(key="policy_fence").disabled
    assert not at.slider(key="policy_max_tokens").disabled
    assert any("does not use" in c.value and "Max pages" in c.value for c in at.sidebar.caption)
    at.selectbox(key="policy_strategy").set_value("section").run()
    assert not at.number_input(key="policy_min_section_tokens").disabled


def test_uploaded_book_text_is_escaped_never_rendered_as_html_or_markdown() -> None:
    at = run_app()
    at.file_uploader(key="home_upload").set_value(("hostile.md", HOSTILE_MD.encode(), "text/markdown")).run()
    assert not at.exception and not at.error
    for page in PAGES[:3]:
        at.switch_page(page).run()
        assert not at.exception
        body = html_text(at)
        assert "hostile.md" in body
        assert "<script>" not in body and "<img" not in body
        assert all("<script" not in m.value and "<img" not in m.value for m in at.markdown)
    at.switch_page(PAGES[0]).run()
    body = html_text(at)
    assert "&lt;img src=x onerror=alert(1)&gt;" in body and "**bold markdown**" in body
    assert "[a link](javascript:alert(2))" in body


def test_boundaries_figure_bars_equal_the_chunks(core_default) -> None:
    book, _, chunks = core_default
    spec = plotly(run_app(PAGES[0]), "bnd_fig")
    bars = {row[0]: (base, base + x) for t in spec["data"] if t["name"] in END_REASONS
            for base, x, row in zip(t["base"], t["x"], t["customdata"])}
    assert sorted(bars) == [c.order for c in chunks]
    for c in chunks:
        assert int(bars[c.order][0]) == c.page_start and int(bars[c.order][1]) == c.page_end
    (chap,) = [t for t in spec["data"] if t["name"] == "Chapters"]
    assert len(chap["base"]) == len(rules.fence_headings(book))


def test_boundaries_next_button_and_number_input_open_that_chunks_detail(core_default) -> None:
    _, _, chunks = core_default
    at = run_app(PAGES[0])
    at.button(key="bnd_next").click().run()
    assert at.number_input(key="bnd_chunk").value == 1
    assert at.subheader[0].value == "Chunk 1"
    at.number_input(key="bnd_chunk").set_value(7).run()
    assert at.subheader[0].value == "Chunk 7"
    meta = at.dataframe[0].value
    assert dict(zip(meta["field"], meta["value"]))["id"] == chunks[7].id
    assert len(at.image) == chunks[7].page_end - chunks[7].page_start + 1  # its PDF pages


def test_jump_to_a_chapter_start_zooms_and_lists_the_chunks_around_it(core_default) -> None:
    book, _, chunks = core_default
    fences = rules.fence_headings(book)
    k = next(i for i, h in enumerate(fences) if h.kind == "chapter" and h.number == "3")
    at = run_app(PAGES[0])
    at.selectbox(key="bnd_chapter").set_value(k).run()
    assert not at.exception
    assert at.slider(key="bnd_range").value == (fences[k].page - 2, fences[k].page + 2)
    around = at.dataframe[0].value
    assert list(around["order"]) == list(tables.chunks_at(chunks, fences[k].char_offset)["order"])
    assert at.number_input(key="bnd_chunk").value == around["order"].iloc[0]


def test_after_a_chapter_jump_a_new_strategy_opens_the_first_crossing_chunk(core_default) -> None:
    book, tokenized, _ = core_default
    fences = rules.fence_headings(book)
    k = next(i for i, h in enumerate(fences) if h.kind == "chapter" and h.number == "3")
    at = run_app(PAGES[0])
    at.selectbox(key="bnd_chapter").set_value(k).run()
    at.selectbox(key="policy_strategy").set_value("fixed-window").run()
    around = tables.chunks_at(chunk_book(tokenized, Policy(strategy="fixed-window")), fences[k].char_offset)
    crossing = around[around["where"] == "crosses"]
    assert len(crossing)  # fixed-window cuts through the chapter start
    assert at.number_input(key="bnd_chunk").value == crossing["order"].iloc[0]
    assert at.subheader[0].value == f"Chunk {crossing['order'].iloc[0]}"


def test_zoom_sets_the_boundaries_page_range() -> None:
    at = run_app(PAGES[0])
    at.slider(key="bnd_range").set_value((10, 20)).run()
    assert plotly(at, "bnd_fig")["layout"]["xaxis"]["range"] == [10, 21]


def test_page_zoom_survives_rechunking_and_the_figure_shows_the_new_chunks(core_default) -> None:
    _, tokenized, _ = core_default
    at = run_app(PAGES[0])
    at.slider(key="bnd_range").set_value((10, 20)).run()
    at.slider(key="policy_max_tokens").set_value(256).run()
    assert at.slider(key="bnd_range").value == (10, 20)
    spec = plotly(at, "bnd_fig")
    assert spec["layout"]["xaxis"]["range"] == [10, 21]
    orders = sorted(row[0] for t in spec["data"] if t["name"] in END_REASONS for row in t["customdata"])
    assert orders == list(range(len(chunk_book(tokenized, Policy(max_tokens=256)))))


def test_overlap_figures_and_coverage_equal_the_chunks_spans(core_default) -> None:
    book, tokenized, chunks = core_default
    at = run_app(PAGES[1])
    z = np.array(plotly(at, "ovl_band")["data"][0]["z"], dtype=float)
    a, b = at.slider(key="ovl_range").value
    assert np.array_equal(z, figures.banded_matrix(chunks[a : b + 1]), equal_nan=True)
    marks = plotly(at, "ovl_boundaries")["data"]
    assert sum(len(t["y"]) for t in marks) == len(chunks) - 1
    cov = np.array(plotly(at, "ovl_coverage")["data"][0]["z"], dtype=float)
    assert np.array_equal(cov, figures.coverage_grid(book, chunks), equal_nan=True)
    m = metrics(at)
    assert m["Overlap tokens across chapters"] == "0"  # chapter-window never carries text across
    assert m["Uncovered tokens"] == str(scorecard(chunks, tokenized, Policy())["uncovered_tokens"])


def test_fixed_window_overlap_crosses_chapters() -> None:
    at = run_app()
    at.selectbox(key="policy_strategy").set_value("fixed-window").run()
    at.switch_page(PAGES[1]).run()
    assert int(metrics(at)["Overlap tokens across chapters"]) > 0


def test_chunks_table_filters_by_end_reason_chapter_tokens_and_text(core_default) -> None:
    _, _, chunks = core_default
    rows = views.TABLE_ROWS
    at = run_app(PAGES[2])
    assert metrics(at)["Chunks shown"] == f"{len(chunks)} of {len(chunks)}"
    assert list(at.dataframe[0].value["order"]) == [c.order for c in chunks[:rows]]
    at.multiselect(key="chk_reasons").set_value(["fence"]).run()
    fence = [c.order for c in chunks if c.end_reason == "fence"]
    assert metrics(at)["Chunks shown"].startswith(f"{len(fence)} of")
    assert list(at.dataframe[0].value["order"]) == fence[:rows]
    at.multiselect(key="chk_reasons").set_value([]).run()
    chapter = chunks[-1].chapter
    at.multiselect(key="chk_chapters").set_value([chapter]).run()
    assert list(at.dataframe[0].value["order"]) == [c.order for c in chunks if c.chapter == chapter][:rows]
    at.multiselect(key="chk_chapters").set_value([]).run()
    at.text_input(key="chk_query").set_value("regression").run()
    assert list(at.dataframe[0].value["order"]) == [
        c.order for c in chunks if "regression" in c.text.casefold()][:rows]


def test_chunks_table_is_paged_to_its_rows_with_full_ids(core_default) -> None:
    _, _, chunks = core_default
    rows = views.TABLE_ROWS
    at = run_app(PAGES[2])
    last = -(-len(chunks) // rows)
    at.number_input(key="chk_table_page").set_value(last).run()
    table = at.dataframe[0].value
    assert list(table["order"]) == [c.order for c in chunks[(last - 1) * rows :]]
    assert list(table["id"]) == [c.id for c in chunks[(last - 1) * rows :]]  # full ids, never cut


def test_export_preview_is_a_table_of_the_first_records(core_default) -> None:
    _, _, chunks = core_default
    at = run_app(PAGES[3])
    jsonl, csv, parquet, langchain = (d.value for d in at.dataframe)  # one per format tab
    for frame in (jsonl, csv, parquet):
        assert list(frame["id"]) == [c.id for c in chunks[:5]]
        assert list(frame["text"]) == [c.text for c in chunks[:5]]
    assert list(langchain["page_content"]) == [c.text for c in chunks[:5]]


def test_each_download_is_confirmed_with_a_message() -> None:
    at = run_app(PAGES[3])
    assert not at.info
    at.download_button(key="exp_csv").click().run()
    assert not at.exception
    assert any("Downloaded r-intro.csv" in i.value for i in at.info)
    assert any("Downloaded r-intro.csv" in t.value for t in at.toast)


def test_downloads_equal_the_cli_output(tmp_path: Path, downloads: dict[str, bytes]) -> None:
    at = run_app()
    at.slider(key="policy_max_tokens").set_value(400).run()
    at.switch_page(PAGES[3]).run()
    assert not at.exception and at.success
    for fmt, name in [("jsonl", "r-intro.jsonl"), ("csv", "r-intro.csv"), ("parquet", "r-intro.parquet"),
                      ("langchain", "r-intro.langchain.jsonl")]:
        out = tmp_path / fmt / name
        subprocess.run([sys.executable, "-m", "chunking", "chunk", str(DEFAULT), "-o", str(out),
                        "--format", fmt, "--max-tokens", "400"], check=True, cwd=ROOT, capture_output=True)
        assert downloads[name] == out.read_bytes(), fmt
    # The manifest button defaults to the JSONL file's manifest.
    # Byte for byte but the book's path relative to the output (a download's folder is unknown).
    cli_manifest = json.loads((tmp_path / "jsonl" / "r-intro.jsonl.manifest.json").read_text())
    assert cli_manifest["book"]["relative_path"]
    cli_manifest["book"]["relative_path"] = None
    assert downloads["r-intro.jsonl.manifest.json"].decode() == export.manifest_text(cli_manifest)
    rows = [json.loads(line) for line in downloads["r-intro.jsonl"].decode().splitlines()]
    table = pd.read_parquet(io.BytesIO(downloads["r-intro.parquet"]))
    assert list(table["id"]) == [r["id"] for r in rows]
