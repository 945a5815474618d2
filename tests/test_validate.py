"""The validator catches each hand-broken chunk set and names the rule and the chunk."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunking.ids import chunk_id
from chunking.policy import Policy
from chunking.strategies import chunk_book
from chunking.tokens import tokenize
from chunking.validate import validate_chunks
from synthetic_books import make_book, words

POLICY = Policy(max_tokens=60, overlap_tokens=10, target_pages=2, max_pages=3)


@pytest.fixture(scope="module")
def good():
    pages = [words(50), words(50), "Chapter 2\n" + words(50), words(50), words(50)]
    book = make_book(pages, [(2, 0, "chapter", "Two")])
    tb = tokenize(book)
    chunks = chunk_book(tb, POLICY)
    assert validate_chunks(chunks, tb, POLICY).ok
    return tb, chunks


def rehash(tb, c, policy=POLICY):
    """Give a modified chunk a correct id, so only the intended rule breaks."""
    return replace(c, id=chunk_id(c.book_id, policy.profile(), c.order, c.token_start, c.token_end,
                                  c.char_start, c.char_end, c.text))


def respan(tb, c, t0, t1, policy=POLICY):
    """Move a chunk to tokens [t0, t1) with consistent text, chars, count and id."""
    c0, c1 = int(tb.char_starts[t0]), int(tb.char_starts[t1])
    moved = replace(c, token_start=t0, token_end=t1, token_count=t1 - t0, char_start=c0, char_end=c1,
                    text=tb.book.text[c0:c1])
    return rehash(tb, moved, policy)


def check(tb, chunks, rule, order, policy=POLICY):
    report = validate_chunks(chunks, tb, policy)
    assert not report.ok
    assert (report.rule, report.chunk_order) == (rule, order), report.message
    assert f"rule {rule}" in report.message and f"chunk {order}" in report.message
    assert report.to_dict()["ok"] is False


def test_valid_set_reports_ok(good):
    tb, chunks = good
    report = validate_chunks(chunks, tb, POLICY)
    assert report.ok and report.rule is None and report.chunks == len(chunks)


def test_rule1_text_over_max_tokens_after_reencoding(good):
    tb, chunks = good
    check(tb, chunks, 1, 0, policy=POLICY.with_(max_tokens=chunks[0].token_count - 1, overlap_tokens=0))


def test_rule2_page_span_over_max_pages(good):
    tb, chunks = good
    check(tb, chunks, 2, next(c.order for c in chunks if c.page_end > c.page_start),
          policy=POLICY.with_(max_pages=1, target_pages=1))


def test_rule3_chunk_crossing_a_chapter(good):
    tb, chunks = good
    fence = int(tb.fence_tokens["chapter"][0])
    i = next(c.order for c in chunks if c.token_end == fence)
    broken = list(chunks)
    broken[i] = respan(tb, chunks[i], chunks[i].token_start, fence + 3)
    check(tb, broken, 3, i)


def test_rule3_excess_overlap(good):
    tb, chunks = good
    broken = list(chunks)
    c = chunks[1]
    broken[1] = replace(respan(tb, c, c.token_start - 5, c.token_end), overlap_prev_tokens=c.overlap_prev_tokens + 5)
    broken[1] = rehash(tb, broken[1])
    check(tb, broken, 3, 1)


def test_rule3_wrong_overlap_field(good):
    tb, chunks = good
    broken = list(chunks)
    broken[1] = replace(chunks[1], overlap_prev_tokens=chunks[1].overlap_prev_tokens + 1)
    check(tb, broken, 3, 1)


def test_rule4_non_advancing_window(good):
    tb, chunks = good
    broken = list(chunks)
    broken[2] = respan(tb, chunks[2], chunks[1].token_end - 5, chunks[1].token_end)
    broken[2] = rehash(tb, replace(broken[2], overlap_prev_tokens=5))
    check(tb, broken, 4, 2)


def test_rule4_order_not_contiguous(good):
    tb, chunks = good
    broken = list(chunks)
    broken[3] = rehash(tb, replace(chunks[3], order=7))
    check(tb, broken, 4, 3)


def test_rule4_whitespace_only_chunk():
    book = make_book([words(10) + "\n\n\n\n" + words(10)])
    tb = tokenize(book)
    p = Policy(max_tokens=100, overlap_tokens=0)
    chunks = chunk_book(tb, p)
    t_ws = next(t for t in range(tb.n_tokens) if not book.text[tb.char_starts[t]:tb.char_starts[t + 1]].strip())
    c = chunks[0]
    first = respan(tb, c, 0, t_ws, p)
    ws = rehash(tb, replace(respan(tb, c, t_ws, t_ws + 1, p), order=1), p)
    last = rehash(tb, replace(respan(tb, c, t_ws + 1, tb.n_tokens, p), order=2), p)
    check(tb, [first, ws, last], 4, 1, policy=p)


def test_rule5_gap(good):
    tb, chunks = good
    broken = [c for c in chunks if c.order != 1]
    broken = [rehash(tb, replace(c, order=i, overlap_prev_tokens=0 if i == 1 else c.overlap_prev_tokens))
              for i, c in enumerate(broken)]
    check(tb, broken, 5, 1)


def test_rule5_missing_tail(good):
    tb, chunks = good
    check(tb, chunks[:-1], 5, len(chunks) - 2)


def test_rule6_text_not_the_slice(good):
    tb, chunks = good
    broken = list(chunks)
    broken[2] = rehash(tb, replace(chunks[2], text=chunks[2].text.replace(" word", " ward", 1)))
    check(tb, broken, 6, 2)


def test_rule6_wrong_page(good):
    tb, chunks = good
    broken = list(chunks)
    broken[0] = replace(chunks[0], page_start=chunks[0].page_start + 1)
    check(tb, broken, 6, 0)


def test_rule6_cut_inside_a_character():
    book = make_book(["😀" * 30])
    tb = tokenize(book)
    p = Policy(max_tokens=200, overlap_tokens=0)
    chunks = chunk_book(tb, p)
    t = next(i for i in range(1, tb.n_tokens) if not tb.legal[i])
    first = respan(tb, chunks[0], 0, t, p)
    second = rehash(tb, replace(respan(tb, chunks[0], t, tb.n_tokens, p), order=1), p)
    check(tb, [first, second], 6, 0, policy=p)


def test_rule7_wrong_id(good):
    tb, chunks = good
    broken = list(chunks)
    broken[4] = replace(chunks[4], id="0" * 32)
    check(tb, broken, 7, 4)


def test_rule7_id_depends_on_the_policy(good):
    tb, chunks = good
    check(tb, chunks, 7, 0, policy=POLICY.with_(snap="sentence"))


def test_no_chunks_for_a_book_with_text_is_a_loss(good):
    tb, _ = good
    report = validate_chunks([], tb, POLICY)
    assert (report.ok, report.rule) == (False, 5)


@pytest.fixture(scope="module")
def sections():
    body = [words(12), words(15), words(10), words(200), words(30)]
    pages = ["Chapter 1\n" + "\n".join(f"S{i}\n{b}" for i, b in enumerate(body))]
    heads = [(0, 0, "chapter", "One")]
    pos = len("Chapter 1\n")
    for i, b in enumerate(body):
        heads.append((0, pos, "section", f"S{i}"))
        pos += len(f"S{i}\n{b}") + 1
    book = make_book(pages, heads)
    tb = tokenize(book)
    policy = Policy(strategy="section", max_tokens=80, overlap_tokens=10)
    chunks = chunk_book(tb, policy)
    assert validate_chunks(chunks, tb, policy).ok
    return tb, chunks, policy


def test_rule3_section_strategy_merges_only_whole_sections(sections):
    tb, chunks, policy = sections
    heads = tb.fence_tokens["section"].tolist()
    merged = next(c for c in chunks if any(c.token_start < h < c.token_end for h in heads))
    broken = list(chunks)
    broken[merged.order] = respan(tb, merged, merged.token_start, merged.token_end - 3, policy)
    check(tb, broken, 3, merged.order, policy=policy)


def test_rule3_section_strategy_overlap_never_crosses_a_heading(sections):
    tb, chunks, policy = sections
    i = next(c.order for c in chunks if c.order and c.overlap_prev_tokens == 0 and c.token_count <= 70
             and c.token_start in set(tb.fence_tokens["section"].tolist()))
    broken = list(chunks)
    c = chunks[i]
    broken[i] = rehash(tb, replace(respan(tb, c, c.token_start - 2, c.token_end, policy), overlap_prev_tokens=2),
                       policy)
    check(tb, broken, 3, i, policy=policy)
