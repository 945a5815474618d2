"""``min_chunk_tokens`` (issue 24): tiny chunks merge into a neighbour of their chapter, a tiny
part opening joins its first chapter, no merge crosses a chapter start or breaks a limit, and the
validator accepts every result (rules 1–7). Default 0 changes nothing."""

from __future__ import annotations

import json
import subprocess
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from synthetic_books import make_book, words
from test_windows_properties import books, policies

from chunking.errors import PolicyError
from chunking.models import CHAPTER_LEVEL_KINDS
from chunking.policy import Policy
from chunking.strategies import chunk_book
from chunking.tokens import tokenize
from chunking.validate import validate_chunks


def _part_book():
    """Part I's title alone on its page, then two chapters; chapter 2 ends in a tiny tail page."""
    pages = [
        "Part One\nFoundations",
        "Chapter 1\n" + words(150),
        "Chapter 2\n" + words(150),
        words(5, "tail"),
    ]
    heads = [(0, 0, "part", "Part One"), (1, 0, "chapter", "Chapter 1"), (2, 0, "chapter", "Chapter 2")]
    return tokenize(make_book(pages, heads))


def _chapter_of_each_char(tb):
    """Each chapter-level unit's [start, end) character range (a part or the next chapter ends it)."""
    fences = [h for h in tb.book.headings if h.kind in CHAPTER_LEVEL_KINDS | {"part"}]
    ends = [h.char_offset for h in fences[1:]] + [len(tb.book.text)]
    return [(h.char_offset, end) for h, end in zip(fences, ends) if h.kind in CHAPTER_LEVEL_KINDS]


def _chapters_holding_text(tb, c):
    """Indices of the chapter-level units whose non-whitespace text the chunk holds."""
    out = set()
    for i, (a, b) in enumerate(_chapter_of_each_char(tb)):
        lo, hi = max(a, c.char_start), min(b, c.char_end)
        if lo < hi and tb.book.text[lo:hi].strip():
            out.add(i)
    return out


def test_min_chunk_tokens_default_is_off_and_changes_nothing():
    tb = _part_book()
    base = Policy(max_tokens=128, overlap_tokens=16)
    assert base.min_chunk_tokens == 0
    assert chunk_book(tb, base) == chunk_book(tb, base.with_(min_chunk_tokens=0))
    assert "min_chunk" not in base.profile()


def test_a_part_title_alone_is_no_longer_a_tiny_chunk_with_min_chunk_tokens_32():
    tb = _part_book()
    policy = Policy(max_tokens=256, overlap_tokens=16)
    before = chunk_book(tb, policy)
    assert before[0].text.strip() == "Part One\nFoundations" and before[0].token_count < 32
    merged = policy.with_(min_chunk_tokens=32)
    after = chunk_book(tb, merged)
    assert all(c.token_count >= 32 for c in after)
    assert after[0].text.startswith("Part One\nFoundations") and "Chapter 1" in after[0].text
    assert validate_chunks(after, tb, merged).ok
    # the tiny tail page of chapter 2 joined chapter 2's chunk, not a new one
    assert after[-1].text.rstrip().endswith("tail") and "Chapter 2" in after[-1].text


def test_min_chunk_tokens_never_merges_across_a_chapter_start():
    pages = ["Chapter 1\n" + words(3), "Chapter 2\n" + words(3), "Chapter 3\n" + words(40)]
    heads = [(i, 0, "chapter", f"Chapter {i + 1}") for i in range(3)]
    tb = tokenize(make_book(pages, heads))
    policy = Policy(max_tokens=256, overlap_tokens=16, min_chunk_tokens=100)
    chunks = chunk_book(tb, policy)
    assert [c.chapter for c in chunks] == ["Chapter 1", "Chapter 2", "Chapter 3"]
    assert validate_chunks(chunks, tb, policy).ok


def test_a_small_chunk_stays_when_merging_would_pass_max_tokens():
    pages = ["Chapter 1\n" + words(120), words(6, "tail")]
    tb = tokenize(make_book(pages, [(0, 0, "chapter", "Chapter 1")]))
    policy = Policy(max_tokens=128, overlap_tokens=0, target_pages=1, max_pages=1, min_chunk_tokens=32)
    chunks = chunk_book(tb, policy)
    assert len(chunks) == 2 and chunks[1].token_count < 32
    assert validate_chunks(chunks, tb, policy).ok


def test_min_chunk_tokens_must_lie_between_0_and_max_tokens():
    for bad in (-1, 600):
        try:
            Policy(min_chunk_tokens=bad)
        except PolicyError as exc:
            assert exc.field == "min_chunk_tokens"
        else:
            raise AssertionError(f"min_chunk_tokens={bad} was accepted")


def test_min_chunk_tokens_is_in_the_profile_of_window_strategies_only():
    assert "min_chunk=32" in Policy(min_chunk_tokens=32).profile()
    assert "min_chunk=32" in Policy(strategy="fixed-window", min_chunk_tokens=32).profile()
    assert Policy(strategy="section", min_chunk_tokens=32).profile() == Policy(strategy="section").profile()


# --- property: the window properties' random books and policies, plus min_chunk_tokens ----------


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(books(), policies(), st.integers(1, 160))
def test_merged_chunks_keep_max_tokens_never_hold_two_chapters_and_validate(book, policy, n):
    policy = policy.with_(min_chunk_tokens=min(n, policy.max_tokens))
    tb = tokenize(book, policy.encoding)
    chunks = chunk_book(tb, policy)
    report = validate_chunks(chunks, tb, policy)
    assert report.ok, report.message
    plain = chunk_book(tb, policy.with_(min_chunk_tokens=0))
    for c in chunks:
        assert c.token_count <= policy.max_tokens
        if policy.strategy == "chapter-window":
            assert c.page_end - c.page_start + 1 <= policy.max_pages
        # a merged chunk (one the plain run does not have) holds text of one chapter at most
        if (c.token_start, c.token_end) not in {(p.token_start, p.token_end) for p in plain}:
            assert len(_chapters_holding_text(tb, c)) <= 1


def test_the_cli_takes_min_chunk_tokens_into_the_manifest_and_rejects_a_bad_value_in_one_line(tmp_path):
    book = tmp_path / "b.md"
    book.write_text("# Part One\n\n# Chapter 1\n\n" + words(300) + "\n", encoding="utf-8")
    out = tmp_path / "b.jsonl"
    args = [sys.executable, "-m", "chunking", "chunk", str(book), "-o", str(out), "--min-chunk-tokens", "32"]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    manifest_path = next(tmp_path.glob("b.jsonl.manifest.json"))
    assert json.loads(manifest_path.read_text())["policy"]["min_chunk_tokens"] == 32
    bad = subprocess.run([*args[:-1], "9999"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "min_chunk_tokens" in bad.stderr and "Traceback" not in bad.stderr
