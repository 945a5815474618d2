"""``Policy.prefix_in_budget`` (issue 27, item 3): the breadcrumb embedded before a chunk
(``Book title › Chapter › Section``) counts against ``max_tokens``, in the chunker, once.

Each test is named after the rule it protects: with the option every chunk's own breadcrumb plus
its text fit ``max_tokens`` (real sample books, random books); without it the cut and the ids are
the ones they were before the option existed; ``validate`` and ``index`` hold runs to the rule;
the CLI flag reaches the policy.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from synthetic_books import make_book
from test_windows_properties import books as random_books

from chunking.cli import main
from chunking.encodings import get_encoding
from chunking.errors import PolicyError
from chunking.ingest import load_book
from chunking.policy import Policy, parse_policy
from chunking.retrieval.breadcrumb import breadcrumb_prefix, prefixed_tokens
from chunking.strategies import chunk_book
from chunking.tokens import tokenize
from chunking.validate import validate_chunks

SAMPLES = Path(__file__).resolve().parent.parent / "sample_books"
LONG_TITLE = "A Very Long Book Title About Many Things: Second Edition, Revised, Expanded and Annotated"
STRATEGIES = ("chapter-window", "fixed-window", "section")
SENTENCE = "The quick brown fox jumps over the lazy dog near the river bank. "


def budget_book(title: str = "budget-book"):
    """Three chapters, each an opening and sections of 1, 2 and 13 sentences (small ones merge
    under ``section``, the large one is split), as a synthetic book titled ``title``."""
    pages, heads = [], []
    for ch in range(1, 4):
        pages.append(f"Chapter {ch}\n" + SENTENCE * 12)
        heads.append((len(pages) - 1, 0, "chapter", f"Chapter {ch}"))
        for sec, sentences in enumerate((1, 2, 13), 1):
            pages.append(f"Section {ch}.{sec}\n" + SENTENCE * sentences)
            heads.append((len(pages) - 1, 0, "section", f"Section {ch}.{sec} on foxes, dogs and rivers"))
    return dataclasses.replace(make_book(pages, heads, name="budget-book"), title=title)


def over_budget(chunks, title: str, policy: Policy) -> list[tuple[int, int]]:
    """(order, tokens) of the chunks whose breadcrumb and text encode to more than max_tokens."""
    enc = get_encoding(policy.encoding)
    counts = [
        (c.order, prefixed_tokens(enc, breadcrumb_prefix(title, c.chapter, c.section), c.text))
        for c in chunks
    ]
    return [(order, n) for order, n in counts if n > policy.max_tokens]


@pytest.fixture(scope="module")
def sample_tokenized():
    """Two real sample books (a PDF, an EPUB) under a long title, tokenized once."""
    out = {}
    for name in ("r-intro.pdf", "debian-policy.epub"):
        book = dataclasses.replace(load_book(SAMPLES / name), title=LONG_TITLE)
        out[name] = tokenize(book, "cl100k_base")
    return out


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("name", ["r-intro.pdf", "debian-policy.epub"])
def test_with_prefix_in_budget_every_sample_chunk_fits_max_tokens_with_its_breadcrumb(
    sample_tokenized, name, strategy
):
    tb = sample_tokenized[name]
    policy = Policy(
        strategy=strategy, max_tokens=128, overlap_tokens=24, snap="sentence", prefix_in_budget=True
    )
    chunks = chunk_book(tb, policy)
    assert over_budget(chunks, LONG_TITLE, policy) == []
    report = validate_chunks(chunks, tb, policy)
    assert report.ok, report.message
    # The rule is real: the same book cut without the option has chunks over once prefixed.
    assert over_budget(
        chunk_book(tb, dataclasses.replace(policy, prefix_in_budget=False)), LONG_TITLE, policy
    )


PINNED = {
    "chapter-window": "f33f80c62e1ecf5b541a28cd1d0816bf473264fc1f5b55d4c03dc63d86959611",
    "fixed-window": "8ec1d08ee09ff5c3c02c8dd27c6c478ef22c2b6bbf4d0c46bc1577df3c6570ab",
    "section": "4bb330c2d31be8a975d7abca26441cec37362a989f19a2dd3afa4aeae484ce09",
}
"""sha256 of the space-joined ids of ``budget_book`` (max_tokens 96, overlap 16, snap sentence),
computed by the chunker of aaf9434, the commit before ``prefix_in_budget`` existed."""


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_without_prefix_in_budget_ids_are_byte_identical_to_before_the_option(strategy):
    policy = Policy(strategy=strategy, max_tokens=96, overlap_tokens=16, snap="sentence")
    ids = [c.id for c in chunk_book(tokenize(budget_book(), "cl100k_base"), policy)]
    assert hashlib.sha256(" ".join(ids).encode()).hexdigest() == PINNED[strategy]


def test_prefix_in_budget_salts_the_profile_only_when_on():
    off = Policy()
    assert "prefix" not in off.profile()
    assert (
        off.profile()
        == "chapter-window-v1:cl100k_base:structure=auto:max=512:overlap=120:target=2:pages=3:fence=chapter"
    )
    assert Policy(prefix_in_budget=True).profile() == off.profile() + ":prefix=breadcrumb"


@pytest.mark.parametrize("strategy", ["chapter-window", "fixed-window"])
def test_prefix_in_budget_changes_the_cut_only_through_the_breadcrumb(strategy):
    """A book with no title and no headings has no breadcrumb: the same spans, other ids.
    (``section`` names the windows of a split section ``(Part n)`` even there, so it has one.)"""
    book = dataclasses.replace(budget_book(), title="", headings=())
    tb = tokenize(book, "cl100k_base")
    off = chunk_book(tb, Policy(strategy=strategy, max_tokens=96, overlap_tokens=16))
    on = chunk_book(tb, Policy(strategy=strategy, max_tokens=96, overlap_tokens=16, prefix_in_budget=True))
    assert [(c.token_start, c.token_end) for c in on] == [(c.token_start, c.token_end) for c in off]
    assert not {c.id for c in on} & {c.id for c in off}


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_with_prefix_in_budget_merged_and_split_sections_fit_with_the_names_they_carry(strategy):
    policy = Policy(strategy=strategy, max_tokens=160, overlap_tokens=16, prefix_in_budget=True)
    tb = tokenize(budget_book(LONG_TITLE), "cl100k_base")
    chunks = chunk_book(tb, policy)
    assert over_budget(chunks, LONG_TITLE, policy) == []
    assert validate_chunks(chunks, tb, policy).ok
    if strategy == "section":
        sections = {c.section for c in chunks}
        assert any(" + " in s for s in sections) and any("(Part 2)" in s for s in sections)


def test_a_breadcrumb_that_leaves_no_room_is_a_policy_error_naming_max_tokens():
    tb = tokenize(budget_book(LONG_TITLE), "cl100k_base")
    with pytest.raises(PolicyError, match="max_tokens") as caught:
        chunk_book(tb, Policy(max_tokens=16, overlap_tokens=4, prefix_in_budget=True))
    assert caught.value.field == "max_tokens"


TITLES = ["", "synthetic", LONG_TITLE, "Ünï 😀 日本語のテキスト"]


@st.composite
def budget_policies(draw) -> Policy:
    max_tokens = draw(st.integers(8, 160))
    target = draw(st.integers(1, 4))
    strategy = draw(st.sampled_from(STRATEGIES))
    return Policy(
        strategy=strategy,
        max_tokens=max_tokens,
        overlap_tokens=draw(st.integers(0, max_tokens - 1)),
        target_pages=target,
        max_pages=draw(st.integers(target, 5)),
        fence=draw(st.sampled_from(["chapter", "section"])),
        snap=draw(st.sampled_from(["none", "sentence", "paragraph"])),
        encoding=draw(st.sampled_from(["cl100k_base", "o200k_base"])),
        min_chunk_tokens=0 if strategy == "section" else draw(st.sampled_from([0, 0, 4, 8])),
        prefix_in_budget=True,
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(book=random_books(), policy=budget_policies(), title=st.sampled_from(TITLES))
def test_random_books_with_prefix_in_budget_keep_breadcrumb_plus_text_within_max_tokens(book, policy, title):
    book = dataclasses.replace(book, title=title)
    tb = tokenize(book, policy.encoding)
    try:
        chunks = chunk_book(tb, policy)
    except PolicyError as exc:
        # Only when some breadcrumb alone leaves no token for text.
        assert exc.field == "max_tokens" and "leaves no room" in str(exc)
        return
    assert over_budget(chunks, title, policy) == []
    report = validate_chunks(chunks, tb, policy)
    assert report.ok, report.message


def test_parse_policy_reads_prefix_in_budget_as_a_yes_no_field():
    assert parse_policy("prefix_in_budget=true").prefix_in_budget is True
    assert parse_policy("prefix-in-budget=off").prefix_in_budget is False
    with pytest.raises(PolicyError, match="prefix_in_budget"):
        parse_policy("prefix_in_budget=maybe")
    with pytest.raises(PolicyError, match="true or false"):
        Policy(prefix_in_budget=1)  # type: ignore[arg-type]


def write_markdown_book(path: Path) -> Path:
    """A small Markdown book with chapters and sections long enough to fill 64-token chunks."""
    parts = [f"# {LONG_TITLE}\n"]
    for ch in range(1, 3):
        parts.append(f"## Chapter {ch} on foxes\n\n" + SENTENCE * 10)
        for sec in range(1, 3):
            parts.append(f"### Section {ch}.{sec} on dogs and rivers\n\n" + SENTENCE * 9)
    path.write_text("\n\n".join(parts) + "\n", encoding="utf-8")
    return path


def chunk_cli(book: Path, out: Path, *extra: str) -> Path:
    args = ["chunk", str(book), "-o", str(out), "--max-tokens", "64", "--overlap", "8", *extra]
    assert main(args) == 0
    return out


def test_chunk_cli_prefix_in_budget_flag_reaches_the_policy_and_the_manifest(tmp_path):
    book = write_markdown_book(tmp_path / "book.md")
    on = chunk_cli(book, tmp_path / "on.jsonl", "--prefix-in-budget")
    off = chunk_cli(book, tmp_path / "off.jsonl")
    manifest = json.loads((tmp_path / "on.jsonl.manifest.json").read_text())
    assert manifest["policy"]["prefix_in_budget"] is True
    assert (
        json.loads((tmp_path / "off.jsonl.manifest.json").read_text())["policy"]["prefix_in_budget"] is False
    )
    ids = [{json.loads(line)["id"] for line in p.read_text().splitlines()} for p in (on, off)]
    assert not ids[0] & ids[1]


def test_batch_mode_prefix_in_budget_flag_reaches_every_books_policy(tmp_path):
    books = tmp_path / "books"
    books.mkdir()
    write_markdown_book(books / "one.md")
    out = tmp_path / "out"
    args = ["chunk", str(books), "-o", str(out), "--max-tokens", "64", "--overlap", "8", "--workers", "1"]
    assert main([*args, "--prefix-in-budget"]) == 0
    manifest = json.loads((out / "one.md.jsonl.manifest.json").read_text())
    assert manifest["policy"]["prefix_in_budget"] is True and manifest["validation"]["ok"]
    assert manifest["profile"].endswith(":prefix=breadcrumb")


def test_validate_fails_rule_1_on_a_hand_edited_chunk_over_its_breadcrumb_budget(tmp_path, capsys):
    run = chunk_cli(write_markdown_book(tmp_path / "book.md"), tmp_path / "on.jsonl", "--prefix-in-budget")
    assert main(["validate", str(run)]) == 0
    lines = run.read_text().splitlines()
    edited = json.loads(lines[2])
    edited["section"] = "A section renamed by hand to a title far too long for the budget " * 2
    lines[2] = json.dumps(edited)
    run.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main(["validate", str(run)]) == 4
    out = capsys.readouterr()
    report = out.out + out.err
    assert "rule 1 fails at chunk 2" in report and "prefix_in_budget" in report


def test_index_prefix_in_budget_refuses_only_runs_chunked_without_the_option(tmp_path, capsys):
    book = write_markdown_book(tmp_path / "book.md")
    on = chunk_cli(book, tmp_path / "on.jsonl", "--prefix-in-budget")
    off = chunk_cli(book, tmp_path / "off.jsonl")
    flags = ["--embed-prefix", "breadcrumb", "--prefix-in-budget", "--json"]
    capsys.readouterr()
    assert main(["index", str(off), "--store", f"lancedb:{tmp_path / 'refused'}", *flags]) == 2
    err = capsys.readouterr().err
    assert "chunk --prefix-in-budget" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "refused").exists()
    assert main(["index", str(on), "--store", f"lancedb:{tmp_path / 'store'}", *flags]) == 0
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["added"] > 0


@pytest.mark.usefixtures("fresh_streamlit_caches")
def test_the_sidebar_breadcrumb_in_budget_checkbox_reaches_the_policy():
    from streamlit.testing.v1 import AppTest

    from chunking import Policy as CorePolicy

    at = AppTest.from_file(str(SAMPLES.parent / "app.py"), default_timeout=60)
    at.run()
    at.slider(key="policy_max_tokens").set_value(128).run()
    at.checkbox(key="policy_prefix_in_budget").check().run()
    assert not at.exception, [e.value for e in at.exception]
    policy = at.session_state["policy"]
    assert policy == CorePolicy(max_tokens=128, prefix_in_budget=True)
    tokenized = tokenize(load_book(SAMPLES / "r-intro.pdf"), "cl100k_base")
    shown = {m.label: m.value for m in at.metric}["Chunks"]
    assert shown == str(len(chunk_book(tokenized, policy)))
