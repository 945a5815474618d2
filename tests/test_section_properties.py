"""Section strategy, property-based: rules 1–7 on random books and random valid policies.

Rule 3 at section level for this strategy: no chunk crosses a fence of ``policy.fence``'s level;
a chunk that crosses a section heading consists of whole sections (it starts and ends at
headings, or at the book's ends); overlap never crosses a heading.
"""

from __future__ import annotations

import bisect
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from synthetic_books import make_book

from chunking.encodings import get_encoding
from chunking.ids import chunk_id
from chunking.policy import Policy
from chunking.strategies.section import section_chunks
from chunking.tokens import tokenize
from chunking.validate import validate_chunks

WORDS = [
    "the",
    "section",
    "merge",
    "Größe",
    "naïve",
    "日本語",
    "テキスト",
    "x",
    "1.2",
    "—",
    "🙂",
    "co-op",
    "\t",
]
ENDS = [" ", " ", " ", ". ", ".\n", "\n\n", ", ", "? "]


@st.composite
def page_text(draw) -> str:
    n = draw(st.integers(0, 60))
    return "".join(draw(st.sampled_from(WORDS)) + draw(st.sampled_from(ENDS)) for _ in range(n))


@st.composite
def books(draw):
    pages = draw(st.lists(page_text(), min_size=1, max_size=6))
    heads = []
    for i, body in enumerate(pages):
        starts = [0] + [m.end() for m in re.finditer(r"\n", body) if m.end() < len(body)]
        for offset in sorted(set(draw(st.lists(st.sampled_from(starts), max_size=3)))) if body else []:
            kind = draw(st.sampled_from(["chapter", "section", "section", "appendix"]))
            heads.append((i, offset, kind, draw(st.sampled_from(["Intro", "Intro", "", "Über", "A"]))))
    return tokenize(make_book(pages, heads))


@st.composite
def policies(draw) -> Policy:
    max_tokens = draw(st.integers(4, 160))
    target = draw(st.integers(1, 3))
    return Policy(
        strategy="section",
        max_tokens=max_tokens,
        overlap_tokens=draw(st.integers(0, max_tokens - 1)),
        target_pages=target,
        max_pages=draw(st.integers(target, 4)),
        min_section_tokens=draw(st.integers(0, max_tokens)),
        fence=draw(st.sampled_from(["chapter", "section"])),
    )


SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(books(), policies())
def test_section_chunks_keep_rules_1_to_7(tb, policy):
    chunks = section_chunks(tb, policy)
    text, cs, enc = tb.book.text, tb.char_starts, get_encoding(policy.encoding)
    heads = tb.fence_tokens["section"].tolist()
    fences = tb.fence_tokens[policy.fence].tolist()
    edges = {0, tb.n_tokens, *heads}
    reach = 0
    for i, c in enumerate(chunks):
        assert c.order == i
        # 1: within budget when re-encoded (a merged run may re-encode shorter than its stream tokens)
        assert c.token_count == c.token_end - c.token_start <= policy.max_tokens
        assert len(enc.encode_ordinary(c.text)) <= policy.max_tokens
        # 2: page span
        assert c.page_end - c.page_start + 1 <= policy.max_pages
        # 3: fences, whole sections, overlap
        k = bisect.bisect_right(fences, c.token_start)
        assert k == len(fences) or fences[k] >= c.token_end
        k = bisect.bisect_right(heads, c.token_start)
        if k < len(heads) and heads[k] < c.token_end:
            assert c.token_start in edges and c.token_end in edges
        overlap = max(0, reach - c.token_start)
        assert overlap == c.overlap_prev_tokens <= policy.overlap_tokens
        if overlap:
            k = bisect.bisect_right(heads, c.token_start - 1)
            assert k == len(heads) or heads[k] >= reach
        # 4: advance, no whitespace-only chunk
        assert c.token_end > reach and c.text.strip()
        # 5: anything skipped is whitespace
        assert not text[int(cs[reach]) : c.char_start].strip() or c.token_start <= reach
        # 6: exact slice
        assert c.text == text[c.char_start : c.char_end] and (c.char_start, c.char_end) == (
            cs[c.token_start],
            cs[c.token_end],
        )
        # 7: content-addressed id
        assert c.id == chunk_id(
            c.book_id, policy.profile(), c.order, c.token_start, c.token_end, c.char_start, c.char_end, c.text
        )
        reach = c.token_end
    assert not text[int(cs[reach]) :].strip()
    # 7: deterministic
    assert section_chunks(tb, policy) == chunks


@SETTINGS
@given(books(), policies())
def test_section_output_passes_the_core_validator(tb, policy):
    report = validate_chunks(section_chunks(tb, policy), tb, policy)
    assert report.ok, report.message
