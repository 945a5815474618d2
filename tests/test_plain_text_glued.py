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
    preface: bool = False,
) -> tuple[str, list[str]]:
    """A glued book and the text of each chapter's heading, in order. ``listed``: the titles its
    contents gives (the chapters' by default); ``topic``: the first word of every section title;
    ``at_line_start``: each heading starts a line (the page's source broke the line there);
    ``numbers``: the chapters' numbers, in the contents and the labels; ``prose``: words of the
    introduction; ``preface``: the contents lists the introduction first, unnumbered."""
    listed = TITLES if listed is None else listed
    numbers = numbers or list(range(1, len(TITLES) + 1))
    contents = "Introduction" if preface else ""
    contents += "".join(f"{n}. {title}{topic} {title.lower()}" for n, title in zip(numbers, listed))
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


def test_an_unnumbered_entry_listed_before_the_labelled_chapters_opens_a_unit_where_its_title_is_glued():
    """``Introduction`` heads the contents and opens the body, run on after the contents' last
    entry: a unit before chapter 1, mid-line; without the entry, no unit."""
    text, headings = _book(preface=True)
    _assert_glued(text, headings)
    at = text.index("IntroductionThis handbook")
    book = load_book(text.encode(), name="x.txt")
    assert [(h.level, h.title) for h in book.headings if h.char_offset == at] == [(1, "Introduction")]
    text, _ = _book()
    book = load_book(text.encode(), name="x.txt")
    assert not [h for h in book.headings if h.title == "Introduction"]


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


# --- unlabelled headings found by the titles a contents run together lists (``listed_headings``)

CHAPTERS = [
    ("Playing a game", ["Starting a new match", "Rolling the dice"]),
    ("Rules of the game", ["Setup", "Bearing Off"]),
    ("Working with matches", ["Storing matches", "Reviewing matches"]),
    ("Technical notes", ["Bearoff databases", "Python scripting"]),
]


def _listed_book(
    run_on: tuple[int, ...] = (0, 2, 3),
    listed: list[tuple[str, list[str]]] | None = None,
    prose: str = "",
    own_contents: bool = False,
) -> tuple[str, list[str]]:
    """A page's text nodes written with nothing between its blocks, its headings unlabelled:
    the title and the contents (every chapter's title and its sections', run together with no
    number) on the first line, then ``prose`` and a paragraph; each heading glued to the end of
    the paragraph before it. The chapters ``run_on`` names have no text before their first
    section: their heading runs straight on into that section's. ``listed``: what the contents
    lists (the chapters by default); ``own_contents``: each chapter repeats its sections glued
    after its heading, as its own contents. Returns the text and each chapter's heading text."""
    listed = CHAPTERS if listed is None else listed
    contents = "".join(c + "".join(ss) for c, ss in listed)
    text = f"The HandbookThe HandbookTable of Contents{contents}\n{prose}{_paragraphs(1)}"
    for k, (chapter, sections) in enumerate(CHAPTERS):
        text += chapter
        if own_contents:
            text += "Table of Contents" + "".join(sections)
        if k not in run_on:
            text += _paragraphs(1)
        for s in sections:
            text += s + _paragraphs(2)
    return text + "\n", [c for c, _ in CHAPTERS]


def _chapter_level(text: str) -> list[tuple[str, int]]:
    book = load_book(text.encode(), name="x.txt")
    return [
        (h.title, h.char_offset) for h in book.headings if h.kind in ("chapter", "appendix") and h.level == 1
    ]


def test_listed_headings_run_on_into_their_first_section_open_chapters_mid_line():
    """A heading run straight on into the next entry's is a level above it: a chapter, the
    first entry too; it opens where its title starts, glued to the sentence before it."""
    text, chapters = _listed_book()
    found = _chapter_level(text)
    body = text.index("\n")
    assert found == [(chapters[k], text.index(chapters[k] + CHAPTERS[k][1][0], body)) for k in (0, 2, 3)]
    assert all(text[at - 1] == "." for _, at in found)  # mid-line, after the paragraph before
    book = load_book(text.encode(), name="x.txt")
    sections = [(h.title, h.char_offset) for h in book.headings if h.kind == "section"]
    assert (CHAPTERS[0][1][0], text.index(CHAPTERS[0][0], body) + len(CHAPTERS[0][0])) in sections
    assert ("Table of Contents", text.index("Table of Contents")) in [
        (h.title, h.char_offset) for h in book.headings if h.kind == "front"
    ]


def test_a_listed_entry_with_text_before_its_first_section_is_a_section_the_levels_unshown():
    """``Rules of the game`` has a paragraph before ``Setup``: the flat contents and the body
    say nothing of its level, so it is no chapter."""
    text, chapters = _listed_book()
    assert chapters[1] not in [t for t, _ in _chapter_level(text)]


def test_a_listed_title_mentioned_in_prose_or_after_a_space_is_no_heading():
    """A mention runs on with a space and words, or follows a space with no sentence's end."""
    prose = "See Playing a game and Working with matches.Technical notes are last. Rules of the game is next."
    text, _ = _listed_book(prose=prose)
    lo, hi = text.index(prose), text.index(prose) + len(prose)
    assert not [at for _, at in _chapter_level(text) if lo <= at < hi]


def test_a_chapters_own_contents_glued_after_its_heading_is_no_run_of_headings():
    """The sections a chapter's own contents lists, run together after its name, are no
    headings there, and no run-on makes its first section a chapter."""
    text, chapters = _listed_book(own_contents=True, run_on=(0, 1, 2, 3))
    found = _chapter_level(text)
    assert [t for t, _ in found] == chapters
    assert [at for _, at in found] == [
        text.index(c + "Table of Contents", text.index("\n")) for c in chapters
    ]


def test_an_entry_a_chapters_own_contents_lists_is_a_section_though_it_runs_on_into_the_next():
    """A three-level contents: the last section of each chapter runs straight on into a
    subsection the contents lists too; the chapter's own contents lists that section, so it is
    none of the chapters."""
    listed = [(c, [*ss, f"Details of {ss[-1].lower()}"]) for c, ss in CHAPTERS]
    text, chapters = _listed_book(own_contents=True, run_on=(0, 1, 2, 3), listed=listed)
    for c, ss in CHAPTERS:
        text = text.replace(f"{ss[-1]}Paragraph", f"{ss[-1]}Details of {ss[-1].lower()}Paragraph", 1)
    assert [t for t, _ in _chapter_level(text)] == chapters


def test_headings_not_in_the_contents_are_none():
    listed = [(c.upper(), [s.upper() for s in ss]) for c, ss in CHAPTERS]
    text, _ = _listed_book(listed=listed)
    assert _chapter_level(text) == []


def test_a_flat_contents_whose_body_shows_no_run_on_says_no_levels():
    """No heading runs on into the next: the entries' levels are unknown, nothing opens a
    chapter by this rule (the first entry alone is one)."""
    text, _ = _listed_book(run_on=())
    assert len(_chapter_level(text)) < 2


def test_a_run_on_seam_inside_a_word_the_book_writes_elsewhere_is_one_title():
    """``JavaScript`` in the prose: ``Using JavaScript`` is one title, not ``Using Java`` over
    a section ``Script``."""
    chapters = [("Using JavaScript", ["Loading scripts", "Events"]), *CHAPTERS[1:]]
    listed = [*chapters]
    prose = "This handbook covers JavaScript and more."
    text, _ = _listed_book(listed=listed, prose=prose, run_on=(1, 2, 3))
    text = (
        text.replace("Playing a game", "Using JavaScript")
        .replace("Starting a new match", "Loading scripts")
        .replace("Rolling the dice", "Events")
    )
    found = [t for t, _ in _chapter_level(text)]
    assert "Using JavaScript" in found and "Using Java" not in found


def _title(text: str) -> list[tuple[str, int]]:
    book = load_book(text.encode(), name="x.txt")
    return [(h.title, h.char_offset) for h in book.headings if h.kind == "front" and h.char_offset == 0]


def _labelled(top: str) -> str:
    """``top`` over chapters labelled on lines of their own."""
    return (
        top + "\n\n" + "".join(f"Chapter {n}. {t}\n\n{_paragraphs(1)}\n\n" for n, t in enumerate(TITLES, 1))
    )


def test_a_title_written_twice_with_nothing_between_is_titled_by_its_first_copy():
    """A page's ``<title>`` and its heading run together (``The HandbookThe Handbook``)."""
    assert _title(_labelled("The HandbookThe Handbook")) == [("The Handbook", 0)]
    assert _title(_listed_book()[0]) == [("The Handbook", 0)]


def test_a_doubled_title_whose_second_copy_the_line_ends_is_titled_by_its_first_copy():
    """The heading wrapped by the page's own newline: ``The Handbook V2The Handbook`` / ``V2``."""
    assert _title(_labelled("The Handbook V2The Handbook\nV2")) == [("The Handbook V2", 0)]


def test_a_title_repeating_a_word_or_its_words_after_a_space_is_whole():
    for title in ("New York, New York", "WikiWiki Handbook"):
        assert _title(_labelled(title)) == [(title, 0)]


def _numbered_book(restart: bool) -> tuple[str, list[str]]:
    """A glued book whose contents numbers its entries: chapters ``1. Introduction``… and
    sections ``2.1. Introduction``… (``restart``: the sections numbered ``1.``, ``2.`` again in
    every chapter, the chapters unnumbered)."""
    chapters = ["Introduction", "Basic usage", "Advanced usage"]
    heads, contents = [], ""
    for n, c in enumerate(chapters, 1):
        head = c if restart else f"{n}. {c}"
        subs = [
            f"{m}. {s}" if restart else f"{n}.{m}. {s}" for m, s in enumerate(["Introduction", "Examples"], 1)
        ]
        heads.append((head, subs))
        contents += head + "".join(subs)
    text = f"The HandbookThe HandbookTable of Contents{contents}\n{_paragraphs(1)}"
    for head, subs in heads:
        text += head + "".join(s + _paragraphs(2) for s in subs)
    return text + "\n", [h for h, _ in heads]


def test_a_numbered_entry_is_at_its_numbers_level_and_a_sections_number_ends_no_contents():
    """``2.1. Introduction`` in the contents is no second ``1. Introduction`` (the first entry
    again, where the body would begin): every chapter is found, by its number, each heading
    run straight on into its first section's."""
    text, heads = _numbered_book(restart=False)
    body = text.index("\n")
    assert _chapter_level(text) == [(h.split(". ", 1)[1], text.index(h, body)) for h in heads]


def test_numbers_that_start_again_in_every_chapter_number_sections():
    """``1. Introduction`` under each chapter: numbers that restart give no level; the chapters
    are the entries run straight on into their first section's."""
    text, heads = _numbered_book(restart=True)
    body = text.index("\n")
    assert _chapter_level(text) == [(h, text.index(h + "1. Introduction", body)) for h in heads]


def test_a_contents_longer_than_a_page_runs_on_across_the_page_cut():
    """A contents line longer than a synthetic page is cut at a space by the text reader: the
    list runs on to the next page's first line, whose entries open nothing there."""
    words = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India", "Juliet"]
    chapters = [
        (f"{a} {b} handling", [f"Using the {a.lower()} {b.lower()} tools", f"Tuning {a.lower()} {b.lower()}"])
        for a in words[:6]
        for b in words
    ]
    text, heads = _listed_book(listed=chapters, run_on=())
    body = text.index("\n")
    assert body > 4000  # longer than a page
    text = (
        text[:body]
        + "".join(f"\n{c}{ss[0]}{_paragraphs(1)}{ss[1]}{_paragraphs(1)}" for c, ss in chapters)
        + "\n"
    )
    found = _chapter_level(text)
    assert [t for t, _ in found] == [c for c, _ in chapters]
    assert all(at > body for _, at in found)


def test_a_contents_run_together_of_thousands_of_entries_is_not_read():
    """A crafted list of 2,000 titles (``LISTED_ENTRIES`` at most are read), glued again in the
    body two by two after a sentence, the first of each pair run on into the second: no heading
    comes of it."""
    titles = [f"Part {k} notes" for k in range(2000)]
    pairs = "".join(f"Some text.{a}{b}" for a, b in zip(titles[::2], titles[1::2]))
    text = "Table of Contents" + "".join(titles) + "\n" + pairs + "\n"
    book = load_book(text.encode(), name="x.txt")
    assert not [h for h in book.headings if h.title in titles]
