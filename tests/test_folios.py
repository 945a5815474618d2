"""Printed folios: runs fitted from the page furniture, inferred labels, and the PDF-label check."""

from __future__ import annotations

from chunking.ingest import load_book
from chunking.normalise import normalise
from chunking.readers.raw import RawPage
from pdf_factory import body, make_pdf


def _text(n: int, folio: str = "") -> str:
    lines = [f"Page {n} line {i} tells its own story about topic {n * 10 + i}." for i in range(6)]
    return "\n".join(lines + ([folio] if folio else []))


def _book(folios: list[str], labels: list[str] | None = None) -> list[RawPage]:
    labels = labels or [""] * len(folios)
    return [RawPage(number=i + 1, label=labels[i], text=_text(i + 1, f)) for i, f in enumerate(folios)]


def test_labels_are_inferred_from_printed_folios_roman_then_arabic():
    # title page and chapter 1's opening page print no folio
    folios = ["", "ii", "iii", "iv", ""] + [str(n) for n in range(2, 10)]
    norm = normalise(_book(folios))
    assert [p.label for p in norm.pages] == ["i", "ii", "iii", "iv"] + [str(n) for n in range(1, 10)]
    assert norm.page_labels == "inferred" and norm.inferred_labels == 13


def test_a_page_between_two_pages_of_a_run_that_prints_no_folio_gets_the_runs_folio():
    folios = [str(n) for n in range(11, 21)]
    folios[4] = ""  # a chapter opening page
    norm = normalise(_book(folios))
    assert norm.pages[4].label == "15"


def test_pages_outside_every_run_stay_unlabelled_and_a_book_without_folios_has_none():
    folios = ["", "", "", "", "", "", "", ""] + [str(n) for n in range(1, 9)]
    norm = normalise(_book(folios))
    assert [p.label for p in norm.pages[:3]] == ["", "", ""]
    plain = normalise(_book([""] * 8))
    assert plain.page_labels == "none" and all(p.label == "" for p in plain.pages)


def test_pdf_labels_that_disagree_with_the_printed_folios_are_warned_and_the_printed_ones_win():
    folios = [str(n) for n in range(1, 13)]
    wrong = [str(n + 4) for n in range(1, 13)]
    norm = normalise(_book(folios, wrong))
    assert [p.label for p in norm.pages] == folios
    assert norm.page_labels == "inferred"
    assert len(norm.warnings) == 1
    assert "disagree with the printed page numbers on 12 of 12" in norm.warnings[0]


def test_pdf_labels_that_agree_with_the_printed_folios_are_kept_without_a_warning():
    folios = ["", "ii", "iii"] + [str(n) for n in range(1, 10)]
    labels = ["i", "ii", "iii"] + [str(n) for n in range(1, 10)]
    norm = normalise(_book(folios, labels))
    assert [p.label for p in norm.pages] == labels
    assert norm.page_labels == "source" and norm.warnings == []


def test_chapter_numbers_on_consecutive_one_page_chapters_are_not_a_folio_run():
    numbers = {2: 1, 4: 2, 6: 3, 7: 4, 8: 5}  # page -> chapter number; 3, 4, 5 advance with the page
    titles = {2: "Sorting", 4: "Graphs", 6: "Hashing", 7: "Heaps", 8: "Tries"}
    pages = [RawPage(number=n, label="", text=(f"{numbers[n]}\n{titles[n]}\n" if n in numbers else "")
                     + _text(n)) for n in range(1, 9)]
    norm = normalise(pages)
    assert norm.page_labels == "none"
    for n, chapter in numbers.items():
        page = norm.pages[n - 1]
        assert norm.text[page.char_start:page.char_end].startswith(f"{chapter}\n{titles[n]}")


def test_a_pdf_without_page_labels_gets_inferred_labels_in_its_chunks_and_manifest():
    from chunking.pipeline import run_book
    from chunking.policy import Policy

    pages = [[("Chapter 1", 20.0), ("Getting Started", 20.0)] + body(20)]
    pages += [body(20, 100 * n) + [(str(n), 9.0)] for n in range(2, 8)]
    result = run_book(make_pdf(pages), Policy(max_tokens=200, overlap_tokens=0), name="book.pdf")
    assert [p.label for p in result.book.pages] == [str(n) for n in range(1, 8)]
    assert result.manifest["diagnostics"]["page_labels"] == "inferred"
    assert result.manifest["diagnostics"]["page_labels_inferred"] == 7
    assert result.chunks[-1].page_label_end == "7"
