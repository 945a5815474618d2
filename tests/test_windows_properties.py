"""Property tests: random books (empty pages, headings anywhere, non-ASCII text, emoji, CJK) ×
random valid policies → the window strategies satisfy rules 1–7 (checked by the validator and
directly), deterministically."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunking.encodings import get_encoding
from chunking.policy import Policy
from chunking.strategies import chunk_book
from chunking.tokens import tokenize
from chunking.validate import validate_chunks
from synthetic_books import make_book

FRAGMENTS = ["word", "chapter", "internationalization", "naïve", "façade", "日本語のテキスト", "😀", "🎉🙂",
             "𝔘𝔫𝔦", "Ωμέγα", "1234567", ".", ". ", "!", "?\n", ",", " ", "  ", "\t", "\n", "\n\n", "—", "«q»",
             "e\u0301", "\u200b", "x" * 40]

page_text = st.one_of(
    st.just(""),
    st.lists(st.sampled_from(FRAGMENTS), max_size=60).map("".join),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=120),
)


@st.composite
def books(draw):
    pages = draw(st.lists(page_text, min_size=1, max_size=8))
    headings = []
    for i, body in enumerate(pages):
        if body and draw(st.booleans()):
            offset = draw(st.integers(0, len(body) - 1))
            kind = draw(st.sampled_from(["part", "chapter", "section", "appendix", "front"]))
            headings.append((i, offset, kind, draw(st.sampled_from(["A", "B", "Ünï", "😀"]))))
    return make_book(pages, headings)


@st.composite
def policies(draw):
    max_tokens = draw(st.integers(4, 160))
    target = draw(st.integers(1, 4))
    return Policy(
        strategy=draw(st.sampled_from(["chapter-window", "fixed-window"])),
        max_tokens=max_tokens,
        overlap_tokens=draw(st.integers(0, max_tokens - 1)),
        target_pages=target,
        max_pages=draw(st.integers(target, 5)),
        fence=draw(st.sampled_from(["chapter", "section"])),
        snap=draw(st.sampled_from(["none", "sentence", "paragraph"])),
        encoding=draw(st.sampled_from(["cl100k_base", "o200k_base"])),
    )


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(book=books(), policy=policies())
def test_random_books_and_policies_satisfy_rules_1_to_7(book, policy):
    tb = tokenize(book, policy.encoding)
    chunks = chunk_book(tb, policy)
    report = validate_chunks(chunks, tb, policy)
    assert report.ok, report.message
    enc = get_encoding(policy.encoding)
    for prev, c in zip([None, *chunks], chunks):
        # Rule 1 and 6 directly: exact slice, re-encoded count within the limit.
        assert c.text == book.text[c.char_start:c.char_end]
        assert len(enc.encode_ordinary(c.text)) <= policy.max_tokens
        assert c.token_count <= policy.max_tokens
        assert c.text.strip()
        if prev is not None:
            assert c.token_end > prev.token_end and c.token_start >= prev.token_start
            assert prev.token_end - c.token_start <= policy.overlap_tokens
    # Rule 5 directly: every uncovered token is whitespace.
    covered = [False] * tb.n_tokens
    for c in chunks:
        covered[c.token_start:c.token_end] = [True] * c.token_count
    for t, hit in enumerate(covered):
        if not hit:
            assert not book.text[tb.char_starts[t]:tb.char_starts[t + 1]].strip()
    # Rule 7: deterministic.
    assert chunk_book(tokenize(book, policy.encoding), policy) == chunks


@settings(max_examples=60, deadline=None)
@given(book=books(), policy=policies())
def test_chapter_windows_never_cross_a_fence(book, policy):
    policy = policy.with_(strategy="chapter-window")
    tb = tokenize(book, policy.encoding)
    fences = set(tb.fence_tokens[policy.fence].tolist())
    for c in chunk_book(tb, policy):
        assert not any(c.token_start < f < c.token_end for f in fences)
        assert c.page_end - c.page_start + 1 <= policy.max_pages
