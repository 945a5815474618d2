"""Label words in the languages books are printed in (``chunking.rules.KEYWORD_WORDS``).

A German, French, Polish or Russian book labels its units ``Kapitel 3``, ``Chapitre 3``,
``Rozdział 3``, ``Глава 3`` (and its parts and appendices with their words) as an English book
prints ``Chapter 3``: the same rules must read them, in a PDF without an outline (label over
title, running headers on the other pages) and in a plain-text book.
"""

from __future__ import annotations

import pytest

from chunking.ingest import load_book
from chunking.rules import keyword_kind
from pdf_factory import body, make_pdf

BIG = 20.0
SMALL = 8.0

LANGUAGES = {
    # language: (part word, chapter word, appendix word, three chapter titles, appendix title)
    "de": ("Teil", "Kapitel", "Anhang", ("Grundlagen", "Verfahren", "Ergebnisse"), "Tabellen"),
    "fr": ("Partie", "Chapitre", "Annexe", ("Principes", "Méthodes", "Résultats"), "Tableaux"),
    "pl": ("Część", "Rozdział", "Dodatek", ("Podstawy", "Metody", "Wyniki"), "Tabele"),
    "ru": ("Часть", "Глава", "Приложение", ("Основы", "Методы", "Результаты"), "Таблицы"),
}


def _chapter_level(book) -> list[tuple[str, str, str, int]]:
    return [(h.kind, h.number, h.title, h.page) for h in book.headings if h.kind != "section"]


def _pdf_book(part: str, chapter: str, appendix: str, titles: tuple[str, ...], annex: str) -> bytes:
    """A part opener, three chapters and an appendix, each label over its title at display size;
    every other page carries a running header ``<folio>`` / ``<LABEL N. TITLE>`` in small type."""
    pages = [[(f"{part} I", BIG), ("Theorie", BIG)] + body(6)]
    units = [(chapter, str(n), title) for n, title in enumerate(titles, 1)] + [(appendix, "A", annex)]
    for k, (word, number, title) in enumerate(units):
        pages.append([(f"{word} {number}", BIG), (title, BIG)] + body(14, 100 * (k + 1)))
        for extra in range(2):
            header = [(str(len(pages) + 1), SMALL), (f"{word.upper()} {number}. {title.upper()}", SMALL)]
            pages.append(header + body(14, 100 * (k + 1) + 20 * (extra + 1)))
    return make_pdf(pages)


@pytest.mark.parametrize("language", ["de", "fr"])  # the factory's base-14 fonts set Latin-1 only
def test_a_pdf_labelled_in_its_own_language_has_its_parts_chapters_and_appendices(language):
    part, chapter, appendix, titles, annex = LANGUAGES[language]
    book = load_book(_pdf_book(part, chapter, appendix, titles, annex), name=f"{language}.pdf")
    assert _chapter_level(book) == [
        ("part", "I", "Theorie", 1),
        ("chapter", "1", titles[0], 2),
        ("chapter", "2", titles[1], 5),
        ("chapter", "3", titles[2], 8),
        ("appendix", "A", annex, 11),
    ]
    assert f"{chapter.upper()} 2. {titles[1].upper()}" not in book.text  # a running header, removed


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_a_plain_text_book_labelled_in_its_own_language_has_its_chapters(language):
    _, chapter, appendix, titles, annex = LANGUAGES[language]
    paragraph = (
        "Paragraph text says something about the subject at hand, at some length, so that it\n"
        "wraps over two lines like the body of a real manual does.\n\n"
    )
    text = ""
    for n, title in enumerate(titles, 1):
        text += f"{chapter} {n}. {title}\n\n" + paragraph * 3
    text += f"{appendix} A. {annex}\n\n" + paragraph * 2
    book = load_book(text.encode(), name=f"{language}.txt")
    assert [(h.kind, h.number, h.title) for h in book.headings if h.kind != "section"] == [
        ("chapter", "1", titles[0]),
        ("chapter", "2", titles[1]),
        ("chapter", "3", titles[2]),
        ("appendix", "A", annex),
    ]
    for h in book.headings:
        assert book.text.startswith(f"{chapter} {h.number}." if h.kind == "chapter" else appendix, h.char_offset)


@pytest.mark.parametrize(
    "word,kind",
    [("Kapitel", "chapter"), ("CHAPITRE", "chapter"), ("глава", "chapter"), ("Teil", "part"),
     ("ANNEXE", "appendix"), ("Příloha", "appendix"), ("Chapter", "chapter"), ("lecture", "lecture"), ("", "")],
)
def test_a_label_word_names_its_kind_in_english(word, kind):
    assert keyword_kind(word) == kind


@pytest.mark.parametrize(
    ("label", "letters"), [("Приложение", "АБ"), ("Appendix", "ΑΒ"), ("Appendix", "AB")]
)
def test_an_appendix_label_takes_the_capital_letter_of_its_books_alphabet(label: str, letters: str):
    """``Приложение А`` is appendix А as ``Appendix A`` is appendix A: a Cyrillic or Greek
    capital after the label word is the appendix's letter, not the start of its title."""
    text = "\n\n".join(f"Это обычный текст абзаца номер {i}, в котором много слов подряд." for i in range(4))
    titles = ["1 Введение", "2 Настройка", "3 Использование"] + [f"{label} {c} Расположение {c}" for c in letters]
    book = load_book("".join(f"# {t}\n\n{text}\n\n" for t in titles).encode(), name="book.md")
    assert [(h.kind, h.number) for h in book.headings][3:] == [("appendix", c) for c in letters]


@pytest.mark.parametrize("name", ["Table des matières", "Inhaltsverzeichnis", "Contents"])
def test_a_contents_page_named_in_its_books_language_is_a_front_unit(name):
    """The contents page opens a front unit under its name in the languages
    ``rules.CONTENTS_NAMES`` knows, as ``Contents`` does in an English book."""
    dots = " . . . . . . . . . . . . . . . ."
    titles = ("Grundlagen", "Verfahren", "Ergebnisse")
    contents = [(name, BIG)] + [(f"{n} {t}{dots} {1 + 3 * n}", 10.0) for n, t in enumerate(titles, 1)]
    pages = [[("Ein Buch", BIG)] + body(4), contents]
    for n, title in enumerate(titles, 1):
        pages.append([(f"{n} {title}", BIG)] + body(14, 100 * n))
        pages += [body(14, 100 * n + 20 * k) for k in (1, 2)]
    book = load_book(make_pdf(pages), name="book.pdf")
    assert ("front", name, 2) in [(h.kind, h.title, h.page) for h in book.headings]
