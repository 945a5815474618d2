"""The crossing check of the structure bench (``bench/crossings.py``, issue 22): where a true
chapter start is, and which chunks cross it. Generated text books; no ``../shared`` needed."""

from __future__ import annotations

import sys
from pathlib import Path

from chunking.pipeline import run_book
from chunking.policy import Policy

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import crossings  # noqa: E402

TITLES = ["Getting Started", "Binary Packages", "Source Packages"]


def _body(k: int) -> str:
    return "\n\n".join(
        f"Paragraph {j} says something about the subject at hand, at some length, so that it\n"
        "wraps over two lines like the body of a real manual does, and then some more words."
        for j in range(k)
    )


def _book(tmp_path: Path, hidden: str | None = None) -> tuple[Path, dict]:
    """A text book of three ``Chapter N.`` chapters; ``hidden`` adds a true chapter whose title line
    carries no mark the engine could see, between chapters 2 and 3. Returns the file and its truth."""
    text, entries = "", []
    for n, title in enumerate(TITLES, 1):
        if n == 3 and hidden:
            entries.append({"title": hidden, "kind": "chapter", "href": f"b.txt#L{text.count(chr(10)) + 1}"})
            text += f"{hidden}\n{_body(30)}\n\n"
        entries.append({"title": title, "kind": "chapter", "href": f"b.txt#L{text.count(chr(10)) + 1}"})
        text += f"Chapter {n}. {title}\n\nThe chapter on {title.lower()} begins here.\n\n{_body(30)}\n\n"
        if n < len(TITLES):  # a mention of the next title just above it, on the same page
            text += f"What comes next is {TITLES[n]}, the following chapter.\n\n"
    path = tmp_path / "b.txt"
    path.write_text(text, encoding="utf-8")
    return path, {"format": "txt", "file": "b.txt", "entries": entries}


def _located(tmp_path: Path, fmt: str, text: str, entries: list[dict]) -> tuple:
    """The run of the text book ``b.<fmt>`` holding ``text``, and its true starts by ``entries``."""
    path = tmp_path / f"b.{fmt}"
    path.write_text(text, encoding="utf-8")
    run = run_book(path, Policy())
    return run, crossings.true_starts(run.book, {"format": fmt, "file": path.name, "entries": entries}, path)


def test_true_starts_are_the_heading_lines_not_a_mention_of_the_title(tmp_path):
    path, gt = _book(tmp_path)
    run = run_book(path, Policy())
    starts = crossings.true_starts(run.book, gt, path)
    assert [s.title for s in starts] == TITLES
    for s in starts:
        line_start = run.book.text.rfind("\n", 0, s.offset) + 1
        assert run.book.text[line_start : s.offset + len(s.title)].startswith("Chapter ")


def test_a_found_structure_crosses_no_true_start(tmp_path):
    path, gt = _book(tmp_path)
    run = run_book(path, Policy())
    starts = crossings.true_starts(run.book, gt, path)
    assert all(s.offset is not None for s in starts)
    assert crossings.crossings(run.book, run.chunks, starts) == []


def test_a_chapter_the_engine_misses_is_crossed_by_a_chunk(tmp_path):
    path, gt = _book(tmp_path, hidden="an unmarked chapter opening")
    run = run_book(path, Policy())
    starts = crossings.true_starts(run.book, gt, path)
    crossed = crossings.crossings(run.book, run.chunks, starts)
    assert [s.title for s, _ in crossed] == ["an unmarked chapter opening"]
    start, chunk = crossed[0]
    assert chunk.char_start < start.offset < chunk.char_end


def test_an_entry_whose_title_is_not_on_its_page_is_unlocated_not_guessed(tmp_path):
    path, gt = _book(tmp_path)
    gt["entries"].append({"title": "Nowhere In This Book", "kind": "chapter", "href": "b.txt#L3"})
    run = run_book(path, Policy())
    starts = crossings.true_starts(run.book, gt, path)
    assert starts[-1].title == "Nowhere In This Book" and starts[-1].offset is None


def test_of_two_title_lines_on_a_page_the_true_start_is_the_one_the_truth_names(tmp_path):
    """A list of topics above the chapters repeats their titles as lines of their own (``* Title``):
    in a text book the truth names the heading's line, and of the title lines the one nearest it
    is the start."""
    path, gt = _book(tmp_path)
    text = path.read_text(encoding="utf-8")
    topics = "Topics covered:\n\n" + "".join(f"* {t}\n" for t in TITLES) + "\n"
    path.write_text(topics + text, encoding="utf-8")
    shift = topics.count("\n")
    for entry in gt["entries"]:
        stem, _, line = entry["href"].partition("#L")
        entry["href"] = f"{stem}#L{int(line) + shift}"
    run = run_book(path, Policy())
    starts = crossings.true_starts(run.book, gt, path)
    for s in starts:
        line_start = run.book.text.rfind("\n", 0, s.offset) + 1
        assert run.book.text[line_start : s.offset].startswith("Chapter "), s.title


def test_of_two_title_lines_on_a_pdf_page_the_true_start_is_the_one_set_largest(tmp_path):
    """A running header (or a margin note) repeats the chapter's title on the page where the
    chapter opens mid-page, in small type above the heading: the heading, set large, is the start."""
    import pymupdf

    doc = pymupdf.open()
    for n, title in enumerate(TITLES, 1):
        page = doc.new_page()
        page.insert_text((72, 40), f"{title}   {n}", fontsize=9)  # header naming this page's chapter
        y = 80
        for j in range(12):
            page.insert_text(
                (72, y), f"Body line {j} of the text before the chapter opens here.", fontsize=10
            )
            y += 14
        page.insert_text((72, y + 20), f"{n}  {title}", fontsize=18)
        y += 50
        for j in range(12):
            page.insert_text(
                (72, y), f"Body line {j} of chapter {n}, which talks about {title.lower()}.", fontsize=10
            )
            y += 14
    path = tmp_path / "b.pdf"
    doc.save(path)
    gt = {
        "format": "pdf",
        "file": "b.pdf",
        "chapter_start_pages": [1, 2, 3],
        "entries": [
            {"title": t, "kind": "chapter", "start_page": n, "starts_mid_page": True}
            for n, t in enumerate(TITLES, 1)
        ],
    }
    run = run_book(path, Policy())
    starts = crossings.true_starts(run.book, gt, path)
    for s in starts:
        line_start = run.book.text.rfind("\n", 0, s.offset) + 1
        line = run.book.text[line_start : run.book.text.find("\n", s.offset)]
        assert line.split()[0].isdigit() and line.endswith(s.title), (s.title, line)


def test_a_centred_title_line_is_a_title_line_not_a_mention(tmp_path):
    """A title page centres the book's title: its indent is no label before it, so the centred line
    is the start, not a running header repeating the title further down the page."""
    path, gt = _book(tmp_path)
    text = path.read_text(encoding="utf-8")
    opening = " " * 24 + "THE WIDGET MANUAL\n\n" + _body(2) + "\n\nThe Widget Manual   1\n\n"
    path.write_text(opening + text, encoding="utf-8")
    shift = opening.count("\n")
    for entry in gt["entries"]:
        stem, _, line = entry["href"].partition("#L")
        entry["href"] = f"{stem}#L{int(line) + shift}"
    gt["entries"].insert(0, {"title": "The Widget Manual", "kind": "front", "href": "b.txt#L1"})
    run = run_book(path, Policy())
    starts = crossings.true_starts(run.book, gt, path)
    assert run.book.text[starts[0].offset :].startswith("THE WIDGET MANUAL\n")


def test_a_han_title_after_its_label_with_no_space_is_found(tmp_path):
    """Han script sets no space between words: ``第二章数据结构`` is the label ``第二章`` and the
    title ``数据结构``, with no word boundary between them."""
    titles = ["基本概念", "数据结构", "算法分析"]
    text, entries = "", []
    for n, title in zip("一二三", titles):
        entries.append({"title": title, "kind": "chapter", "href": f"b.txt#L{text.count(chr(10)) + 1}"})
        text += f"第{n}章{title}\n\n" + "本章讲述有关内容，并给出例子与说明。\n\n" * 40
    run, starts = _located(tmp_path, "txt", text, entries)
    assert [run.book.text[s.offset : s.offset + 4] for s in starts] == titles


def test_a_texinfo_sources_entries_are_located_by_the_line_the_truth_names(tmp_path):
    text, entries = "\\input texinfo\n@settitle The Widget\n\n", []
    for title in TITLES:
        entries.append({"title": title, "kind": "chapter", "href": f"b.texi#L{text.count(chr(10)) + 1}"})
        text += f"@node {title}\n@chapter {title}\n\n{_body(20)}\n\n"
    run, starts = _located(tmp_path, "texi", text, entries)
    assert [s.offset is not None for s in starts] == [True] * len(TITLES)


def test_the_title_on_the_line_the_truth_names_is_the_start_though_a_later_line_is_the_bare_title(tmp_path):
    """A converter writes each heading as a link (``[2 Title](#id2)`` over a setext underline), and
    the chapter's text later has a line that is only the title's words (``binary packages:``
    before a code block): the line the truth names holds the start, not the bare line below it."""
    text, entries = "", []
    for n, title in enumerate(TITLES, 1):
        entries.append({"title": title, "kind": "chapter", "href": f"b.md#L{text.count(chr(10)) + 1}"})
        text += f"[{n} {title}](#id{n})\n{'-' * 30}\n\n{_body(3)}\n\nSet it up for\n{title.lower()}:\n\n{_body(3)}\n\n"
    run, starts = _located(tmp_path, "md", text, entries)
    for s in starts:
        line_start = run.book.text.rfind("\n", 0, s.offset) + 1
        assert run.book.text[line_start : s.offset].startswith("["), s.title
    assert crossings.crossings(run.book, run.chunks, starts) == []


def test_a_title_glued_to_markup_or_to_the_next_block_on_the_named_line_is_the_start(tmp_path):
    """An extractor glues a heading to the block after it (``Chapter 2. TitleContents…``), and troff
    opens a heading with a request line (the line the truth names) over its title set with a font
    escape against its first word (``\\fBTitle\\fR``); the prose just below mentions the title: the
    start is on the named line or the title line under its request, not at the mention."""
    text, entries = "", []
    for n, title in enumerate(TITLES, 1):
        heading = f"Chapter {n}. {title}Contents1. Overview" if n % 2 else f".NH 1\n\\fB{title}\\fR"
        entries.append({"title": title, "kind": "chapter", "href": f"b.txt#L{text.count(chr(10)) + 1}"})
        text += f"{heading}\nOn {title.lower()}, in short.\n\n{_body(20)}\n\n"
    run, starts = _located(tmp_path, "txt", text, entries)
    for s in starts:
        line_start = run.book.text.rfind("\n", 0, s.offset) + 1
        assert not run.book.text[line_start : s.offset].startswith("On"), s.title
        assert s.offset is not None and run.book.text[s.offset : s.offset + len(s.title)] == s.title
