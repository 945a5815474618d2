"""Section strategy: each rule of the section-based seed, and each of its bugs fixed, on tiny books."""

from __future__ import annotations

import re

import pytest
from synthetic_books import make_book

from chunking.encodings import get_encoding
from chunking.policy import Policy
from chunking.strategies import STRATEGY_FUNCS, chunk_book
from chunking.strategies.common import segments
from chunking.strategies.section import section_chunks
from chunking.tokens import tokenize

MAX = 200


def words(n: int, tag: str) -> str:
    """``n`` short sentences (each about three tokens), distinct per ``tag``."""
    return " ".join(f"{tag}{i} word." for i in range(n))


def policy(**kw) -> Policy:
    return Policy(**{"strategy": "section", "max_tokens": MAX, "overlap_tokens": 20, **kw})


def book_of(sections: list[tuple[str, str, str]], *, page_per_section: bool = False):
    """A one-page (or page-per-section) book: ``(kind, title, body)`` → heading line + body."""
    blocks = [f"{title}\n{body}" for _, title, body in sections]
    pages = blocks if page_per_section else ["\n\n".join(blocks)]
    heads, pos, page = [], 0, 0
    for (kind, title, _), block in zip(sections, blocks):
        heads.append((page, pos, kind, title))
        if page_per_section:
            page += 1
        else:
            pos += len(block) + 2
    return tokenize(make_book(pages, heads))


def n_tokens(tb, text: str) -> int:
    return len(get_encoding(tb.encoding).encode_ordinary(text))


def test_section_strategy_is_registered_and_selected_by_policy():
    assert STRATEGY_FUNCS["section"] is section_chunks
    tb = book_of([("chapter", "One", words(5, "a"))])
    assert chunk_book(tb, policy()) == section_chunks(tb, policy())


def test_small_sections_merge_with_their_neighbours_inside_a_chapter():
    tb = book_of(
        [
            ("chapter", "One", words(3, "a")),
            ("section", "S1", words(4, "b")),
            ("section", "S2", words(4, "c")),
            ("section", "S3", words(4, "d")),
        ]
    )
    chunks = section_chunks(tb, policy())
    assert len(chunks) == 1
    assert chunks[0].section == "S1 + S2 + S3"
    assert chunks[0].text == tb.book.text


def test_merged_run_of_small_sections_is_capped_at_max_tokens():
    tb = book_of(
        [("chapter", "One", words(2, "x"))] + [("section", f"S{i}", words(9, f"s{i}")) for i in range(40)]
    )
    chunks = section_chunks(tb, policy())
    assert len(chunks) > 1
    assert all(c.token_count <= MAX for c in chunks)
    # every merged chunk holds whole sections: it starts at a heading (or the chapter's start)
    assert all(c.text.startswith(("One", "S")) for c in chunks)


def test_medium_section_is_one_chunk_and_two_medium_sections_stay_apart():
    tb = book_of(
        [
            ("chapter", "One", words(20, "a")),
            ("section", "Mid1", words(30, "b")),
            ("section", "Mid2", words(30, "c")),
        ]
    )
    chunks = section_chunks(tb, policy(min_section_tokens=40))
    assert [c.section for c in chunks] == ["", "Mid1", "Mid2"]
    assert all(c.overlap_prev_tokens == 0 and c.end_reason in ("fence", "book_end") for c in chunks)


def test_small_section_merges_into_a_medium_neighbour_when_it_fits():
    tb = book_of(
        [
            ("chapter", "One", words(30, "a")),
            ("section", "Tiny", words(2, "b")),
            ("section", "Mid", words(30, "c")),
        ]
    )
    chunks = section_chunks(tb, policy(min_section_tokens=40))
    assert [c.section for c in chunks] == ["Tiny", "Mid"]
    assert chunks[0].text.startswith("One\n") and "b1 word." in chunks[0].text


def test_large_section_splits_into_overlapping_windows_labelled_part_n():
    tb = book_of(
        [
            ("chapter", "One", words(3, "a")),
            ("section", "Big", words(200, "b")),
            ("section", "After", words(30, "c")),
        ]
    )
    chunks = section_chunks(tb, policy())
    parts = [c for c in chunks if "(Part" in c.section]
    assert [c.section for c in parts] == [f"Big (Part {n})" for n in range(1, len(parts) + 1)]
    assert len(parts) >= 3
    assert all(c.token_count <= MAX for c in parts)
    assert [c.overlap_prev_tokens > 0 for c in parts] == [False] + [True] * (len(parts) - 1)
    assert all(0 < c.overlap_prev_tokens <= 20 for c in parts[1:])
    # no overlap crosses the section fence, in or out
    after = chunks[chunks.index(parts[-1]) + 1]
    assert (
        after.section == "After"
        and after.overlap_prev_tokens == 0
        and after.token_start == parts[-1].token_end
    )


def test_chapter_without_sections_is_its_own_unit_split_by_parts_of_the_chapter_title():
    tb = book_of([("chapter", "Long", words(200, "a")), ("chapter", "Short", words(5, "b"))])
    chunks = section_chunks(tb, policy())
    assert chunks[0].section == "Long (Part 1)"
    assert chunks[-1].chapter == "Short" and chunks[-1].section == ""


def test_merges_never_cross_a_chapter_start():
    tb = book_of(
        [
            ("chapter", "One", words(3, "a")),
            ("section", "S", words(3, "b")),
            ("chapter", "Two", words(3, "c")),
            ("section", "T", words(3, "d")),
        ]
    )
    chunks = section_chunks(tb, policy())
    assert [(c.chapter, c.section) for c in chunks] == [("One", "S"), ("Two", "T")]
    two = tb.book.text.index("Two\n")
    assert chunks[0].char_end == two == chunks[1].char_start


def test_section_fence_merges_nothing():
    tb = book_of(
        [("chapter", "One", words(3, "a")), ("section", "S", words(3, "b")), ("section", "T", words(3, "c"))]
    )
    chunks = section_chunks(tb, policy(fence="section"))
    assert [c.section for c in chunks] == ["", "S", "T"]


def test_min_section_tokens_defaults_to_a_quarter_of_max_tokens():
    body = words(11, "b")
    sections = [("chapter", "One", body), ("section", "S", body)]
    assert all(40 <= b - a < 50 for a, b in segments(book_of(sections), "section"))  # small only below 50
    assert len(section_chunks(book_of(sections), policy())) == 1
    assert len(section_chunks(book_of(sections), policy(min_section_tokens=40))) == 2


def test_header_is_metadata_only_and_not_counted_in_the_budget():
    tb = book_of([("chapter", "The Chapter", words(3, "a")), ("section", "S", words(200, "b"))])
    for c in section_chunks(tb, policy()):
        assert c.text == tb.book.text[c.char_start : c.char_end]
        assert c.token_count == n_tokens(tb, c.text) <= MAX
        assert c.chapter == "The Chapter" and c.heading_path[0] == "The Chapter"
        assert tb.book.title not in c.text or c.char_start == 0


def test_separators_between_merged_sections_are_the_books_real_blank_lines():
    tb = book_of([("chapter", "One", words(3, "a")), ("section", "S", words(3, "b"))])
    text = section_chunks(tb, policy())[0].text
    assert "a2 word.\n\nS\nb0" in text
    assert "\\n" not in text


def test_short_and_empty_texts_do_not_crash():
    tiny = tokenize(make_book(["Hi."]))
    assert [c.text for c in section_chunks(tiny, policy())] == ["Hi."]
    assert section_chunks(tokenize(make_book([""])), policy()) == []
    assert section_chunks(tokenize(make_book(["  \n  "])), policy()) == []


def test_heading_without_body_and_empty_title_drop_nothing():
    tb = book_of(
        [
            ("chapter", "One", ""),
            ("section", "", words(3, "b")),
            ("section", "Empty", ""),
            ("section", "Last", words(3, "c")),
        ]
    )
    chunks = section_chunks(tb, policy())
    covered = "".join(tb.book.text[c.char_start : c.char_end] for c in chunks)
    assert re.sub(r"\s", "", covered) == re.sub(r"\s", "", tb.book.text)
    assert chunks[0].section == "Empty + Last"  # the untitled section adds no name


def test_duplicate_section_titles_are_kept():
    tb = book_of(
        [
            ("chapter", "One", words(3, "a")),
            ("section", "Examples", words(3, "b")),
            ("section", "Examples", words(3, "c")),
        ]
    )
    assert section_chunks(tb, policy())[0].section == "Examples + Examples"
    apart = section_chunks(tb, policy(fence="section"))
    assert [c.section for c in apart] == ["", "Examples", "Examples"]
    assert "b0 word." in apart[1].text and "c0 word." in apart[2].text


def test_merged_title_names_three_sections_then_how_many_more():
    tb = book_of([("chapter", "One", "")] + [("section", f"S{i}", words(2, f"s{i}")) for i in range(5)])
    assert section_chunks(tb, policy())[0].section == "S0 + S1 + S2 + 2 more"


def test_section_spanning_more_than_max_pages_is_split_at_the_page_limit():
    tb = book_of(
        [
            ("chapter", "One", words(4, "a")),
            ("section", "S", words(4, "b")),
            ("section", "T", words(4, "c")),
            ("section", "U", words(4, "d")),
        ],
        page_per_section=True,
    )
    chunks = section_chunks(tb, policy(max_pages=2, target_pages=1))
    assert all(c.page_end - c.page_start + 1 <= 2 for c in chunks)
    assert len(chunks) == 2


def test_offsets_are_exact_for_non_ascii_text():
    tb = book_of(
        [
            ("chapter", "Einführung", "Größe ändern — 日本語のテキスト。 " * 40),
            ("section", "Überblick", "naïve café ✓ " * 10),
        ]
    )
    for c in section_chunks(tb, policy()):
        assert c.text == tb.book.text[c.char_start : c.char_end]
        assert c.token_count == n_tokens(tb, c.text) <= MAX


def test_same_book_and_policy_give_identical_chunks_and_policy_changes_ids():
    tb = book_of([("chapter", "One", words(50, "a")), ("section", "S", words(200, "b"))])
    first, again = section_chunks(tb, policy()), section_chunks(tb, policy())
    assert first == again
    other = section_chunks(tb, policy(min_section_tokens=10))
    assert {c.id for c in first}.isdisjoint(c.id for c in other)


@pytest.mark.parametrize("kind", ["part", "appendix", "front"])
def test_parts_and_chapter_level_kinds_fence_merges(kind):
    tb = book_of([("chapter", "One", words(3, "a")), (kind, "X", words(3, "b"))])
    assert len(section_chunks(tb, policy())) == 2
