"""The Retrieval page under Streamlit's AppTest: locate, search and evaluate show what the core
computes for the current book and the chosen policies, and book text stays escaped."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from chunking.analysis.compare import policy_label
from chunking.retrieval.book_index import parse_book_index
from chunking.retrieval.evaluate import evaluate_chunks, evaluate_index, index_queries, sample_probes
from chunking.retrieval.hybrid import build_index
from chunking.retrieval.probes import boundary_probes
from chunking.ingest import load_book
from chunking.retrieval.locate import SearchSpace, locate, match_chunks
from chunking.models import RETRIEVERS, STRATEGIES
from chunking.policy import Policy
from chunking.strategies import chunk_book
from chunking.tokens import tokenize

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("fresh_streamlit_caches")]

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
PAGE = "pages/6_Retrieval.py"
DEFAULT = ROOT / "sample_books" / "r-intro.pdf"


@pytest.fixture(scope="module")
def core():
    book = load_book(DEFAULT)
    tokenized = tokenize(book)
    chunks = {s: chunk_book(tokenized, Policy(strategy=s)) for s in STRATEGIES}
    return book, tokenized, chunks


def retrieval_page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def frames(at: AppTest, column: str) -> list:
    """The dataframes shown (in page order) that have a column named ``column``."""
    # NOTE: AppTest leaves a dataframe's proto id empty, so tables are told apart by their columns.
    return [e.value for e in at.dataframe if column in e.value.columns]


def html_text(at: AppTest) -> str:
    return "\n".join(e.proto.body for e in at.get("html"))


def test_page_runs_with_four_tabs_and_every_strategy_side_by_side():
    at = retrieval_page()
    assert [t.label for t in at.tabs] == ["Locate a passage", "Search", "Evaluate", "Search a store"]
    assert at.multiselect(key="retrieval_strategies").value == list(STRATEGIES)
    assert "r-intro.pdf" in html_text(at)
    assert not at.error


def test_locate_shows_the_cores_location_and_chunks_per_policy(core):
    book, _, chunks = core
    text = book.text
    start = text.index(" ", 80_000) + 1
    end = text.index(" ", start + 400)
    passage = "Some heading\n" + " ".join(text[start:end].split())
    at = retrieval_page()
    at.text_area(key="retrieval_passage").input(passage).run()
    assert not at.exception and len(at.success) == 1
    (location,) = frames(at, "value")
    facts = dict(zip(location[""], location["value"]))
    assert facts["characters"] == f"[{start:,}, {end:,})"
    space = SearchSpace.build(book)
    loc = locate(space, passage)
    assert facts["chapter"] == (loc.chapter or "–")
    (matches,) = frames(at, "straddles a boundary")
    assert list(matches["policy"]) == [policy_label(Policy(strategy=s)) for s in STRATEGIES]
    for s, shown, straddles in zip(STRATEGIES, matches["chunks"], matches["straddles a boundary"]):
        m = match_chunks(space, loc, chunks[s], s)
        assert shown == ", ".join(f"#{o}" for o in m.orders)
        assert straddles == ("yes" if m.straddles else "no")
    # the found span is highlighted in its context
    assert '<mark class="hit">' in html_text(at)


def test_locate_says_not_found_for_text_of_another_book():
    other = load_book(ROOT / "sample_books" / "haskell98-report.pdf").text
    at = retrieval_page()
    at.text_area(key="retrieval_passage").input(other[30_000:30_600]).run()
    assert not at.exception and not at.success
    assert len(at.warning) == 1 and "Not found" in at.warning[0].value


def test_search_shows_each_retrievers_top_k_side_by_side_for_each_policy(core):
    book, _, chunks = core
    query = "generalized linear models family binomial"
    at = retrieval_page()
    assert at.multiselect(key="retrieval_retrievers").value == list(RETRIEVERS)
    at.number_input(key="retrieval_k").set_value(3).run()
    at.text_input(key="retrieval_query").input(query).run()
    assert not at.exception
    tables = frames(at, "crosses chapter")
    assert len(tables) == len(STRATEGIES) * len(RETRIEVERS)
    shown = iter(tables)
    for s in STRATEGIES:
        for kind in RETRIEVERS:
            hits = build_index(kind, book, chunks[s]).search(query, 3)
            table = next(shown)
            assert list(table["chunk"]) == [f"#{h.order}" for h in hits], (s, kind)
            assert list(table["score"]) == [round(h.score, 3) for h in hits], (s, kind)


def test_evaluation_table_equals_the_core_for_the_chosen_n_k_seed(core):
    book, tokenized, chunks = core
    at = retrieval_page()
    at.multiselect(key="retrieval_strategies").set_value(["fixed-window", "section"]).run()
    at.multiselect(key="retrieval_retrievers").set_value(["bm25", "hybrid"]).run()
    at.number_input(key="retrieval_eval_n").set_value(25).run()
    at.number_input(key="retrieval_eval_k").set_value(2).run()
    at.number_input(key="retrieval_eval_seed").set_value(5).run()
    at.button(key="retrieval_eval_run").click().run()
    assert not at.exception
    (table,) = frames(at, "hit@k")
    probes = {"random": sample_probes(tokenized, 25, 5), "boundary": boundary_probes(tokenized, 25, 5)}
    rows = table.to_dict("records")
    assert [(r["policy"], r["retriever"], r["zone"]) for r in rows] == [
        (s, kind, zone) for s in ["fixed-window", "section"] for kind in ["bm25", "hybrid"]
        for zone in ["random", "boundary"]]
    for row in rows:
        index = build_index(row["retriever"], book, chunks[row["policy"]])
        expected = evaluate_chunks(probes[row["zone"]], index, 2, row["policy"])
        assert (row["n"], row["k"]) == (expected.n, 2)
        assert row["hit@k"] == round(expected.hit_at_k, 3)
        assert row["MRR"] == round(expected.mrr, 3)
        assert row["chapter purity"] == round(expected.chapter_purity, 3)
        assert row["token IoU"] == round(expected.iou, 3)
    # the printed index (r-intro has two) is scored per policy × retriever
    (judged,) = frames(at, "nDCG@10")
    parsed = parse_book_index(book)
    queries = index_queries(parsed.entries, 5)
    for row in judged.to_dict("records"):
        index = build_index(row["retriever"], book, chunks[row["policy"]])
        expected = evaluate_index(queries, index, 2, row["policy"], (parsed.char_start, parsed.char_end))
        assert row["recall@k"] == round(expected.recall_at_k, 3)
        assert row["nDCG@10"] == round(expected.ndcg_at_10, 3)
    # the page explains that this is a proxy
    assert any("proxy" in m.value for m in at.markdown)


def test_no_policy_chosen_asks_for_one():
    at = retrieval_page()
    at.multiselect(key="retrieval_strategies").set_value([]).run()
    assert not at.exception and "at least one policy" in at.info[0].value
    at = retrieval_page()
    at.multiselect(key="retrieval_retrievers").set_value([]).run()
    assert not at.exception and "one retriever" in at.info[0].value


def test_book_text_in_search_hits_is_escaped():
    hostile = (b"# One\n\nThe <script>alert(1)</script> marker word zanzibar appears here.\n\n"
               b"# Two\n\nOther text.\n")
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.file_uploader(key="home_upload").set_value(("hostile.md", hostile, "text/markdown")).run()
    at.switch_page(PAGE).run()
    at.text_input(key="retrieval_query").input("zanzibar").run()
    assert not at.exception
    body = html_text(at)
    assert "&lt;script&gt;" in body and "<script>" not in body
    assert '<mark class="hit">zanzibar</mark>' in body


def test_a_pasted_chunk_id_shows_that_chunk_with_its_provenance(core):
    _, _, chunks = core
    wanted = chunks["fixed-window"][7]
    at = retrieval_page()
    at.text_area(key="retrieval_passage").input(f' "id: {wanted.id.upper()}" ').run()
    assert not at.exception and len(at.success) == 1
    shown = [dict(zip(f[""], f["value"])) for f in frames(at, "value")]
    assert [(s["id"], s["chunk"]) for s in shown] == [(wanted.id, "#7")]
    assert at.subheader[0].value == f"{policy_label(Policy(strategy='fixed-window'))}: chunk 7"


def test_a_chunk_id_no_policy_has_says_so_instead_of_locating_text():
    at = retrieval_page()
    at.text_area(key="retrieval_passage").input("deadbeef00c0ffee").run()
    assert not at.exception and not at.success
    assert len(at.warning) == 1 and "No chunk of these policies has an id" in at.warning[0].value


def test_chunk_boundaries_inside_a_passage_are_marked_per_policy(core):
    book, _, chunks = core
    edge = chunks["chapter-window"][20].char_end  # a passage across the end of chunk 20
    start, end = book.text.index(" ", edge - 300) + 1, book.text.index(" ", edge + 300)
    at = retrieval_page()
    at.text_area(key="retrieval_passage").input(book.text[start:end]).run()
    assert not at.exception
    space = SearchSpace.build(book)
    loc = locate(space, book.text[start:end])
    expected = [len(match_chunks(space, loc, chunks[s], s).boundaries) for s in STRATEGIES]
    assert expected[0] >= 1
    shown = [b.proto.body.count('class="bci-bound ') for b in at.get("html") if 'class="bci-bound ' in b.proto.body]
    assert shown == [n for n in expected if n]
    assert "◂20┃" in html_text(at)


def test_open_on_boundaries_shows_the_chunk_under_its_policy(core):
    _, _, chunks = core
    wanted = chunks["section"][5]
    at = retrieval_page()
    at.text_area(key="retrieval_passage").input(wanted.id).run()
    at.button(key="retrieval_open_id_section_5").click().run()
    assert not at.exception
    assert at.selectbox(key="policy_strategy").value == "section"
    assert at.number_input(key="bnd_chunk").value == 5
    assert at.subheader[0].value == "Chunk 5"
