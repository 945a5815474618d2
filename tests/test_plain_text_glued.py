"""Labelled headings an HTML-to-text extractor glued into the lines around them
(``chunking.structure.plain_text_glued``), on generated ``.txt`` books.

Each book is what a page's text nodes give written out with nothing between its blocks: the
title, the contents and the opening run together on the first line, every paragraph run on from
the one before (``…manual does.Paragraph 2…``), each chapter's label and title glued to the end
of the text before it and to its own contents after it. The tests vary one trait at a time and
assert where each chapter opens (the label's first character, mid-line) and what it is titled;
the negative ones assert what must stay prose.
"""

from __future__ import annotations

from chunking.ingest import load_book
from chunking.policy import Policy
from chunking.strategies import chunk_book
from chunking.tokens import tokenize
from chunking.validate import validate_chunks

TITLES = ["First Steps", "Binary Packages", "Source Packages", "Control Files"]
NBSP = "\u00a0"


def _paragraphs(k: int) -> str:
    """``k`` paragraphs run on into each other, each wrapped where the page's source wraps it."""
    return "".join(
        f"Paragraph {j} says something about the subject at hand, at some length, so that it\n"
        f"wraps over two lines like the body of a real manual does."
        for j in range(k)
    )


def _book(
    listed: list[str] | None = None,
    topic: str = "About",
    at_line_start: bool = False,
    numbers: list[int] | None = None,
    prose: str = "",
) -> tuple[str, list[str]]:
    """A glued book and the text of each chapter's heading, in order. ``listed``: the titles its
    contents gives (the chapters' by default); ``topic``: the first word of every section title;
    ``at_line_start``: each heading starts a line (the page's source broke the line there);
    ``numbers``: the chapters' numbers, in the contents and the labels; ``prose``: words of the introduction."""
    listed = TITLES if listed is None else listed
    numbers = numbers or list(range(1, len(TITLES) + 1))
    contents = "".join(f"{n}. {title}{topic} {title.lower()}" for n, title in zip(numbers, listed))
    text = f"The HandbookThe HandbookTable of Contents{contents}IntroductionThis handbook says what it does.{prose}\n"
    text += _paragraphs(2)
    headings = []
    for n, title in zip(numbers, TITLES):
        heading = f"Chapter{NBSP}{n}.{NBSP}{title}"
        headings.append(heading)
        section = f"{topic} {title.lower()}"
        text += (
            "\n" if at_line_start else ""
        ) + f"{heading}Table of Contents{section}{section}{_paragraphs(3)}"
    return text + "\n", headings


def _chapters(text: str) -> list[tuple[str, str, str, int]]:
    book = load_book(text.encode(), name="x.txt")
    return [(h.kind, h.number, h.title, h.char_offset) for h in book.headings if h.kind == "chapter"]


def _assert_glued(text: str, headings: list[str]) -> None:
    found = _chapters(text)
    assert [(k, n, t) for k, n, t, _ in found] == [("chapter", str(n), t) for n, t in enumerate(TITLES, 1)]
    assert [offset for *_, offset in found] == [
        text.rindex(h) for h in headings
    ]  # the last: the prose comes first


def test_a_label_glued_after_a_sentence_opens_its_chapter_mid_line_where_the_contents_lists_it_and_the_numbers_run():
    text, headings = _book()
    assert all(text[text.rindex(h) - 1] == "." for h in headings)  # glued to the sentence before
    _assert_glued(text, headings)
    book = load_book(text.encode(), name="x.txt")
    chapter = next(h for h in book.headings if h.kind == "chapter")
    assert {"keyword", "contents", "numbering"} <= {signal for signal, _ in chapter.evidence}
    contents = [h for h in book.headings if h.kind == "front" and h.title == "Table of Contents"]
    assert [text[h.char_offset :].startswith("Table of Contents1.") for h in contents] == [True]


def test_a_label_starting_a_line_with_its_first_block_run_on_after_its_title_opens_its_chapter():
    text, headings = _book(at_line_start=True)
    assert all(text[text.rindex(h) - 1] == "\n" for h in headings)
    _assert_glued(text, headings)


def test_a_glued_title_ends_where_the_contents_and_the_body_part_though_their_next_blocks_share_first_letters():
    """The contents runs ``First Steps`` into ``Telling…``, the body into ``Table of
    Contents``: the title is ``First Steps``, not ``First StepsT``."""
    text, headings = _book(topic="Telling")
    _assert_glued(text, headings)


def test_a_chapter_mentioned_in_prose_is_no_heading():
    """A mention after a space, and a paragraph that opens with the label and title glued to
    the sentence before but runs on with words or a full stop, open nothing."""
    prose = (
        f"Chapter{NBSP}1.{NBSP}First Steps explains the first steps, and see "
        f"Chapter{NBSP}2.{NBSP}Binary Packages for more.Chapter 3. Source Packages."
    )
    text, headings = _book(prose=prose)
    _assert_glued(text, headings)
    assert all(offset > text.index(prose) + len(prose) for *_, offset in _chapters(text))


def test_a_glued_label_the_contents_does_not_list_is_no_heading():
    text, headings = _book(listed=["Installing", "Upgrading", "Removing", "Configuring"])
    starts = {text.rindex(h) for h in headings}
    assert not starts & {offset for *_, offset in _chapters(text)}


def test_glued_labels_whose_numbers_do_not_run_are_no_headings():
    text, headings = _book(numbers=[1, 3, 5, 7])
    starts = {text.rindex(h) for h in headings}
    assert not starts & {offset for *_, offset in _chapters(text)}


def test_a_chapter_opening_mid_line_fences_the_chunks_at_its_label():
    """The chunks are spans over the canonical text: a chapter that opens mid-line starts a chunk
    at its label's first character, and the chunk set holds rules 1-8."""
    text, headings = _book()
    book = load_book(text.encode(), name="x.txt")
    policy = Policy(max_tokens=64, overlap_tokens=8)
    tb = tokenize(book)
    chunks = chunk_book(tb, policy)
    assert validate_chunks(chunks, tb, policy).ok
    starts = {c.char_start for c in chunks}
    assert {book.text.rindex(h) for h in headings} <= starts
    assert all(book.text[book.text.rindex(h) - 1] != "\n" for h in headings)  # mid-line


def _run_together_book() -> tuple[str, list[tuple[str, str]]]:
    """A word processor's document as a converter writes it: every heading a bare line between
    blank lines, a flat contents (titles and page numbers, chapters and sections alike), and
    each chapter, with no text before its first section, written straight on into that
    section's heading. Returns the text and, per chapter, its title and its first section's."""
    chapters = [(t, f"About {t.lower()}") for t in TITLES]
    contents = "Contents\n\n" + "".join(
        f"{c}  {2 * k + 3}\n\n{s}  {2 * k + 3}\n\n" for k, (c, s) in enumerate(chapters)
    )
    body = "".join(f"{c}{s}\n\n{_paragraphs(1)}\n\n" for c, s in chapters)
    return "The Handbook\n\n" + contents + body.replace("does.Paragraph", "does.\n\nParagraph"), chapters


def test_two_contents_entries_run_together_on_a_line_are_two_headings_the_second_a_level_below():
    """A converter that ends a heading with no break runs the next heading into it: a line that
    is two consecutive contents entries, joined at a capital, opens the first at its start and
    the second, a section of it, at the seam."""
    text, chapters = _run_together_book()
    book = load_book(text.encode(), name="handbook.txt")
    for c, s in chapters:
        line = f"{c}{s}\n"
        at = book.text.index(line, book.text.index(f"{s}  "))
        assert [(h.kind, h.title) for h in book.headings if h.char_offset == at] == [("chapter", c)]
        assert [(h.kind, h.title) for h in book.headings if h.char_offset == at + len(c)] == [("section", s)]
