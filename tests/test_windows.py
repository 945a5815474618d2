"""Window strategies: the seed's chunker behaviours (A.3–A.6) ported with real tiktoken, plus
the fixes (target pages, UTF-8, whitespace windows, max_chunks) and snapping."""

from __future__ import annotations

import pytest

from chunking.encodings import get_encoding
from chunking.errors import ChunkLimitError
from chunking.policy import Policy
from chunking.strategies import STRATEGY_FUNCS, chunk_book
from chunking.tokens import tokenize
from chunking.validate import validate_chunks
from synthetic_books import make_book, words

ENC = get_encoding("cl100k_base")


def ntok(text: str) -> int:
    return len(ENC.encode_ordinary(text))


def run(book, **policy):
    p = Policy(**policy)
    tb = tokenize(book, p.encoding)
    chunks = chunk_book(tb, p)
    report = validate_chunks(chunks, tb, p)
    assert report.ok, report.message
    return chunks, tb


def test_registry_names_the_window_strategies():
    assert STRATEGY_FUNCS["chapter-window"] and STRATEGY_FUNCS["fixed-window"]


def test_carries_chapter_across_pages_and_spans_pages():
    book = make_book(["Chapter IV Safe Example\nalpha", "beta gamma"], [(0, 0, "chapter", "Safe Example")])
    chunks, _ = run(book, max_tokens=64, overlap_tokens=8)
    assert len(chunks) == 1
    c = chunks[0]
    assert (c.page_start, c.page_end, c.chapter, c.section) == (1, 2, "Safe Example", "")
    assert c.heading_path == ("Safe Example",) and c.end_reason == "book_end"


def test_no_overlap_crosses_into_a_new_chapter():
    # 202 tokens of preface, then a chapter: the seed's [0,185), [65,202), then the chapter chunk.
    book = make_book([words(202), "Chapter I Start\n" + words(30)], [(1, 0, "chapter", "Start")])
    chunks, tb = run(book, max_tokens=185, overlap_tokens=120)
    first_chapter = next(c for c in chunks if c.chapter == "Start")
    fence = int(tb.fence_tokens["chapter"][0])
    assert first_chapter.token_start == fence and first_chapter.overlap_prev_tokens == 0
    assert first_chapter.text.startswith("Chapter I Start")
    before = [c for c in chunks if c.order < first_chapter.order]
    assert before and all(c.token_end <= fence and c.chapter == "" for c in before)
    assert before[-1].end_reason == "fence"
    assert [(c.token_start, c.token_end) for c in before] == [(0, 185), (65, fence)]


def test_exact_final_window_is_emitted_once():
    book = make_book([words(40)])
    chunks, _ = run(book, max_tokens=40, overlap_tokens=10)
    assert [(c.token_start, c.token_end, c.end_reason) for c in chunks] == [(0, 40, "book_end")]


def test_bounded_overlapping_windows_advance_and_keep_overlap():
    book = make_book([words(100)])
    chunks, _ = run(book, max_tokens=40, overlap_tokens=10)
    assert [(c.token_start, c.token_end) for c in chunks] == [(0, 40), (30, 70), (60, 100)]
    assert [c.overlap_prev_tokens for c in chunks] == [0, 10, 10]
    assert [c.end_reason for c in chunks] == ["token_limit", "token_limit", "book_end"]


def test_overlap_only_tail_is_dropped():
    # 70 tokens at 40/10: a third window would hold only the previous window's overlap.
    book = make_book([words(70)])
    chunks, _ = run(book, max_tokens=40, overlap_tokens=10)
    assert [(c.token_start, c.token_end) for c in chunks] == [(0, 40), (30, 70)]
    assert all(b.token_end > a.token_end for a, b in zip(chunks, chunks[1:]))


def test_one_separator_across_blank_pages():
    book = make_book(["hello", "", "world"])
    chunks, tb = run(book, max_tokens=20, overlap_tokens=2)
    assert book.text == "hello\nworld" and tb.n_tokens == 3
    assert [(c.text, c.page_start, c.page_end) for c in chunks] == [("hello\nworld", 1, 3)]


def test_large_overlap_with_short_page_limited_windows_still_advances():
    # The seed's sparse-pages case: a 17-token page-limited window is shorter than the overlap,
    # so the next window starts where it ended (no overlap) and nothing repeats.
    book = make_book(["", words(17), "", "   ", "eighteen"])
    chunks, _ = run(book, max_tokens=800, overlap_tokens=120, target_pages=1, max_pages=1)
    assert [(c.token_start, c.token_end, c.page_start, c.page_end) for c in chunks][0] == (0, 17, 2, 2)
    assert (chunks[1].text, chunks[1].page_start, chunks[1].overlap_prev_tokens) == ("eighteen", 5, 0)
    assert chunks[0].end_reason == "page_limit" and len(chunks) == 2


def test_page_limit_is_hard_and_counts_empty_pages():
    book = make_book([words(50), "", words(50), words(50), words(50)])
    chunks, _ = run(book, max_tokens=500, overlap_tokens=0, target_pages=2, max_pages=2)
    assert all(c.page_end - c.page_start + 1 <= 2 for c in chunks)
    assert chunks[0].page_end == 1 and chunks[0].end_reason == "page_limit"


def test_target_pages_ends_at_the_page_boundary_when_half_the_budget_is_kept():
    pages = [words(150)] * 6
    chunks, tb = run(make_book(pages), max_tokens=512, overlap_tokens=0, target_pages=2, max_pages=3)
    assert chunks[0].end_reason == "target_pages"
    assert (chunks[0].page_start, chunks[0].page_end) == (1, 2)
    assert chunks[0].char_end == tb.book.pages[2].char_start  # cut exactly where page 3 begins
    # target_pages == max_pages reproduces the seed: only tokens and max pages decide.
    seed, _ = run(make_book(pages), max_tokens=512, overlap_tokens=0, target_pages=3, max_pages=3)
    assert "target_pages" not in {c.end_reason for c in seed}
    assert seed[0].token_end > chunks[0].token_end


def test_target_pages_is_skipped_when_it_would_keep_less_than_half():
    pages = [words(100)] * 6  # two pages hold ~200 tokens < 512 / 2
    chunks, _ = run(make_book(pages), max_tokens=512, overlap_tokens=0, target_pages=2, max_pages=3)
    assert "target_pages" not in {c.end_reason for c in chunks}
    assert chunks[0].end_reason == "page_limit" and chunks[0].page_end == 3


def test_parts_always_fence_and_sections_fence_only_when_asked():
    pages = ["Part One\n" + words(30), "Chapter A\n" + words(30) + "\nSection x\n" + words(30), words(30)]
    heads = [(0, 0, "part", "One"), (1, 0, "chapter", "A"), (1, 10 + len(words(30)) + 1, "section", "x")]
    book = make_book(pages, heads)
    chunks, tb = run(book, max_tokens=500, overlap_tokens=20)
    assert [c.chapter for c in chunks] == ["One", "A"]
    assert chunks[1].heading_path == ("One", "A") and chunks[1].section == ""
    by_section, _ = run(book, max_tokens=500, overlap_tokens=20, fence="section")
    assert [(c.chapter, c.section) for c in by_section] == [("One", ""), ("A", ""), ("A", "x")]
    assert by_section[2].heading_path == ("One", "A", "x")
    assert [c.end_reason for c in by_section] == ["fence", "fence", "book_end"]


def test_fixed_window_ignores_chapters_and_pages():
    pages = [words(30), "Chapter B\n" + words(30), words(30)]
    book = make_book(pages, [(1, 0, "chapter", "B")])
    chunks, _ = run(book, strategy="fixed-window", max_tokens=500, overlap_tokens=20, max_pages=1,
                    target_pages=1)
    assert len(chunks) == 1 and (chunks[0].page_start, chunks[0].page_end) == (1, 3)


def test_windows_never_split_a_character_and_reencode_within_the_limit():
    # Emoji and CJK without spaces: cl100k splits characters into byte tokens.
    book = make_book(["😀🎉🙂" * 40, "日本語のテキストを分割します" * 20])
    chunks, tb = run(book, max_tokens=16, overlap_tokens=4)
    for c in chunks:
        assert ntok(c.text) <= 16
        assert tb.legal[c.token_start] and tb.legal[c.token_end]


def test_windows_end_between_words_not_inside_them():
    book = make_book([" ".join(["internationalization"] * 60)])
    chunks, _ = run(book, max_tokens=25, overlap_tokens=5)
    for c in chunks[:-1]:
        assert c.text.endswith("internationalization"), c.text[-30:]
        assert len(ENC.encode_ordinary(c.text)) == c.token_count


def test_whitespace_only_windows_are_skipped_without_failing_the_book():
    book = make_book([words(20), " " * 3000 + "\t" * 500, words(20)])
    chunks, _ = run(book, max_tokens=30, overlap_tokens=5)
    assert all(c.text.strip() for c in chunks)
    assert chunks[0].text.startswith("word") and chunks[-1].text.rstrip().endswith("word")


def test_max_chunks_counts_first_and_names_the_need():
    book = make_book([words(400)])
    with pytest.raises(ChunkLimitError, match=r"needs 10 chunks; max_chunks is 3"):
        chunk_book(tokenize(book), Policy(max_tokens=40, overlap_tokens=0, max_chunks=3))


@pytest.mark.parametrize("snap,reason", [("sentence", "sentence"), ("paragraph", "paragraph")])
def test_snap_ends_token_limited_windows_at_sentence_or_paragraph_ends(snap, reason):
    para = "This is a sentence about windows. Another one follows here. " * 3
    text = "\n\n".join([para.strip()] * 12)
    chunks, _ = run(make_book([text]), max_tokens=60, overlap_tokens=10, snap=snap)
    snapped = [c for c in chunks if c.end_reason == reason]
    assert snapped, {c.end_reason for c in chunks}
    for c in snapped:
        tail = c.text.rstrip()
        assert tail.endswith("."), tail[-20:]
        if snap == "paragraph":
            assert c.text.endswith("\n\n") or c.text.endswith(".")
        assert c.token_count >= 40  # only the last third of the window is searched


def test_same_input_gives_identical_chunks_and_a_changed_policy_changes_ids():
    book = make_book([words(300), "Chapter 2\n" + words(300)], [(1, 0, "chapter", "Two")])
    a, _ = run(book, max_tokens=100, overlap_tokens=20)
    b, _ = run(book, max_tokens=100, overlap_tokens=20)
    assert a == b
    c, _ = run(book, max_tokens=100, overlap_tokens=21)
    assert not {x.id for x in a} & {x.id for x in c}
    assert all(len(x.id) == 32 for x in a) and len({x.id for x in a}) == len(a)


def test_page_labels_come_from_the_first_and_last_text_pages():
    book = make_book(["", words(20), words(20)], labels=["i", "ii", "1"])
    chunks, _ = run(book, max_tokens=100, overlap_tokens=0)
    assert (chunks[0].page_label_start, chunks[0].page_label_end) == ("ii", "1")


def test_empty_book_has_no_chunks():
    chunks, _ = run(make_book(["", "  "]), max_tokens=10, overlap_tokens=0)
    assert chunks == []


def test_overlap_only_tail_before_a_new_chapter_is_dropped():
    book = make_book(["one", "two", "three", "Chapter I Start"], [(3, 0, "chapter", "Start")])
    chunks, _ = run(book, max_tokens=100, overlap_tokens=20)
    assert [(c.page_start, c.page_end, c.chapter) for c in chunks] == [(1, 3, ""), (4, 4, "Start")]


def test_page_window_limit_gives_two_chunks_over_four_short_pages():
    book = make_book(["one", "two", "three", "four"])
    chunks, _ = run(book, max_tokens=100, overlap_tokens=2, target_pages=3, max_pages=3)
    assert len(chunks) == 2
    assert (chunks[0].page_start, chunks[0].page_end) == (1, 3)
    assert chunks[1].page_start >= 3 and chunks[1].page_end == 4


def test_page_windows_are_capped_by_max_tokens():
    book = make_book(["one two", "three four", "five six", "seven"])
    chunks, _ = run(book, max_tokens=4, overlap_tokens=1, target_pages=3, max_pages=3)
    assert all(c.token_count <= 4 for c in chunks)
    for a, b in zip(chunks, chunks[1:]):
        assert b.token_end > a.token_end and b.token_start <= a.token_end and a.token_end - b.token_start <= 1


def test_a_page_separator_never_widens_the_page_span():
    book = make_book(["hello", "world"])  # tokens: "hello", "\n", "world"
    chunks, _ = run(book, max_tokens=2, overlap_tokens=1, target_pages=1, max_pages=1)
    assert [(c.text, c.page_start, c.page_end) for c in chunks] == [("hello\n", 1, 1), ("\nworld", 2, 2)]


def test_no_separator_is_carried_across_a_heading():
    book = make_book(["preface", "Chapter I Start\nbody"], [(1, 0, "chapter", "Start")])
    chunks, _ = run(book, max_tokens=50, overlap_tokens=5)
    assert [c.text.strip() for c in chunks] == ["preface", "Chapter I Start\nbody"]
    assert chunks[1].text.startswith("Chapter") and chunks[1].overlap_prev_tokens == 0


SAMPLE_POLICIES = [
    Policy(),
    Policy(strategy="fixed-window"),
    Policy(max_tokens=256, overlap_tokens=64, target_pages=1, max_pages=2, fence="section", snap="sentence"),
    Policy(max_tokens=1024, overlap_tokens=0, target_pages=3, max_pages=3, snap="paragraph", encoding="o200k_base"),
]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["chez-csug.pdf", "haskell98-report.pdf", "lshort.pdf", "r-intro.pdf",
                                  "debian-policy.epub"])
def test_every_sample_book_validates_at_several_policies(name):
    from chunking.ingest import load_book
    from conftest import SAMPLES

    book = load_book(SAMPLES / name)
    tokenized = {}
    for policy in SAMPLE_POLICIES:
        tb = tokenized.setdefault(policy.encoding, tokenize(book, policy.encoding))
        chunks = chunk_book(tb, policy)
        report = validate_chunks(chunks, tb, policy)
        assert report.ok, f"{policy.profile()}: {report.message}"


def test_window_spans_of_one_segment_match_the_strategy():
    from chunking.strategies.window import window_spans

    book = make_book([words(300), "Chapter 2\n" + words(300)], [(1, 0, "chapter", "Two")])
    tb = tokenize(book)
    policy = Policy(max_tokens=100, overlap_tokens=20)
    fence = int(tb.fence_tokens["chapter"][0])
    spans = window_spans(tb, policy, 0, fence, "fence") + window_spans(tb, policy, fence, tb.n_tokens, "book_end")
    assert [(s.token_start, s.token_end, s.end_reason) for s in spans] == \
        [(c.token_start, c.token_end, c.end_reason) for c in chunk_book(tb, policy)]


@pytest.mark.parametrize("strategy", ["chapter-window", "section"])
@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_a_window_across_headings_glued_to_the_word_before_keeps_its_re_encoded_count(strategy, encoding):
    """A heading glued to the word before it (``…Thespace``) cuts a tiktoken piece apart: the
    stream counts ``The`` and ``space`` as two tokens, the chunk's text re-encodes the word as
    three. Windows across such headings are counted by re-encoding and stay within the limit."""
    page = "".join(f"Item {k} of the list: The" + "space that follows it. " for k in range(120))
    glued = [i + len("The") for i in range(len(page)) if page.startswith("Thespace", i)]
    headings = [(0, 0, "chapter", "One")] + [(0, c, "section", "space") for c in glued]
    enc = get_encoding(encoding)
    chunks, _ = run(make_book([page], headings), strategy=strategy, max_tokens=40, overlap_tokens=8,
                    fence="chapter", encoding=encoding)
    assert max(len(enc.encode_ordinary(c.text)) for c in chunks) <= 40
