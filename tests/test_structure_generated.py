"""Property-style structure tests on generated books (issue 10, "Rules").

Each case is a whole book from ``book_layouts.make_book``: an opener style x page furniture x
outline (none, right, wrong levels, a few pages off, a single root) x chapters opening a page or
running on mid-page. The structure found by ``load_book`` must give exactly the chapter starts
the book was built with (same kinds, numbers and pages, in order; the offset at the heading's
first line; the title), remove every running header, slug and folio, and lose no body sentence.
The cases cover every (opener, furniture, outline) triple once, with mid-page starts alternating
so every value of every axis meets every opener; a few books add parts; hypothesis draws more.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

import pymupdf
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from book_layouts import CHAPTER_LEVEL, FURNITURE, OPENERS, OUTLINES, Truth, make_book, squash
from chunking.ingest import load_book
from pdf_factory import HEIGHT, LEFT, RIGHT, Text, line_tops, make_pdf

SPELLED = "zero one two three four five six seven eight nine ten eleven twelve".split()
ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6}
LONE_NUMBER = re.compile(r"^(\d{1,4}|[ivxlcdm]{1,7})$")


def _cases() -> list[dict]:
    """Two Latin squares per opener: each furniture meets each outline kind once per square, the
    pairing shifted per opener and square, so every (opener, furniture), (opener, outline) and
    (furniture, outline) pair occurs and mid-page/new-page each meet every value of every axis
    (66 books instead of the full product's 300 keeps the module near 20 s on 2 busy cores)."""
    cases = []
    for o, opener in enumerate(OPENERS):
        for square in (0, 2):
            for f, furniture in enumerate(FURNITURE):
                outline = OUTLINES[(f + square + o) % len(OUTLINES)]
                cases.append(dict(opener=opener, furniture=furniture, outline=outline,
                                  mid_page=bool((f + square // 2 + o) % 2), seed=len(cases)))
    for o, opener in enumerate(OPENERS):  # books with parts, every outline kind among them
        cases.append(dict(opener=opener, furniture=FURNITURE[(o + 2) % len(FURNITURE)],
                          outline=OUTLINES[o % len(OUTLINES)], mid_page=bool(o % 2), seed=1000 + o,
                          parts=True))
    return cases


CASES = _cases()


def _case_id(case: dict) -> str:
    return "-".join([case["opener"], case["furniture"], case["outline"],
                     "midpage" if case["mid_page"] else "newpage"] + (["parts"] if case.get("parts") else []))


@lru_cache(maxsize=None)
def _load(key: tuple) -> tuple[Truth, object]:
    pdf, truth = make_book(**dict(key))
    try:
        return truth, load_book(pdf, name="book.pdf")
    except Exception as error:  # cached too, so each rule's test reports it without re-reading
        return truth, error


def _built(key: tuple) -> tuple[Truth, object]:
    truth, book = _load(key)
    if isinstance(book, Exception):
        raise AssertionError(f"load_book failed: {book!r}\nparams: {truth.params}") from book
    return truth, book


@pytest.fixture(scope="module", params=CASES, ids=[_case_id(c) for c in CASES])
def generated(request) -> tuple[Truth, object]:
    """(truth, Book) for one case; module scope so every rule's test of a case runs together."""
    return _built(tuple(sorted(request.param.items())))


def _number(number: str) -> str:
    """A heading number in one spelling: ``THREE``/``3`` → ``3``, ``II`` → ``2``, ``A`` → ``A``."""
    n = number.strip().rstrip(".")
    if n.isdigit():
        return str(int(n))
    if n.casefold() in SPELLED:
        return str(SPELLED.index(n.casefold()))
    if n in ROMAN:
        return str(ROMAN[n])
    return n.upper()


def _title(title: str) -> str:
    return " ".join(title.split()).strip(" .:").casefold()


def _chapter_level(book) -> list:
    return [h for h in book.headings if h.kind in CHAPTER_LEVEL]


def _describe(truth: Truth, book) -> str:
    want = [(s.kind, s.number, s.page, s.title) for s in truth.chapter_level()]
    got = [(h.kind, h.number, h.page, h.title) for h in _chapter_level(book)]
    return f"\nparams: {truth.params}\nexpected: {want}\nfound:    {got}"


def _matched(truth: Truth, book) -> list[tuple]:
    """(truth start, found heading) pairs with the same kind and number."""
    by_key = {(s.kind, _number(s.number)): s for s in truth.chapter_level()}
    return [(by_key[(h.kind, _number(h.number))], h) for h in _chapter_level(book)
            if (h.kind, _number(h.number)) in by_key]


def test_chapter_level_starts_are_exactly_the_generated_ones(generated):
    truth, book = generated
    want = [(s.kind, _number(s.number), s.page) for s in truth.chapter_level()]
    got = [(h.kind, _number(h.number), h.page) for h in _chapter_level(book)]
    assert got == want, _describe(truth, book)


def test_front_and_back_matter_found_is_matter_the_book_has(generated):
    truth, book = generated
    allowed = {(s.kind, _title(s.title), s.page) for s in truth.starts if s.kind in ("front", "back")}
    extra = [(h.kind, h.title, h.page) for h in book.headings if h.kind in ("front", "back")
             and (h.kind, _title(h.title), h.page) not in allowed]
    assert not extra, f"front/back headings the book does not have: {extra}{_describe(truth, book)}"


def test_chapter_heading_offset_is_at_the_start_of_its_first_line(generated):
    truth, book = generated
    pairs = _matched(truth, book)
    assert pairs, "no chapter-level heading found to check" + _describe(truth, book)
    wrong = []
    for start, h in pairs:
        at_line_start = h.char_offset == 0 or book.text[h.char_offset - 1] == "\n"
        if not (at_line_start and book.text[h.char_offset:].startswith(start.first_line)):
            found = book.text[h.char_offset:h.char_offset + 40]
            wrong.append((start.kind, start.number, start.first_line, found))
    assert not wrong, f"(kind, number, expected first line, text at offset): {wrong}{_describe(truth, book)}"


def test_chapter_titles_are_the_printed_titles(generated):
    truth, book = generated
    pairs = _matched(truth, book)
    assert pairs, "no chapter-level heading found to check" + _describe(truth, book)
    wrong = [(s.number, s.title, h.title) for s, h in pairs if _title(s.title) != _title(h.title)]
    assert not wrong, f"(number, expected, found): {wrong}\nparams: {truth.params}"


def test_page_furniture_never_survives_in_the_text(generated):
    truth, book = generated
    left = [text for text in truth.furniture if book.text.count(text) > truth.printed.get(text, 0)]
    assert not left, f"{len(left)} furniture lines survive, e.g. {left[:3]}\nparams: {truth.params}"
    lone = Counter(line.strip() for line in book.text.split("\n") if LONE_NUMBER.match(line.strip()))
    assert lone == Counter(truth.lone_numbers), (
        f"lone number lines (folios) {dict(lone)}, expected only the chapter numbers "
        f"{dict(Counter(truth.lone_numbers))}\nparams: {truth.params}")


def test_no_body_sentence_is_lost(generated):
    truth, book = generated
    text = squash(book.text)
    lost = [s for s in truth.sentences if squash(s) not in text]
    assert not lost, (f"{len(lost)} of {len(truth.sentences)} sentences lost, e.g. {lost[:2]}"
                      f"\nparams: {truth.params}")


@settings(max_examples=8, deadline=None, derandomize=True, phases=(Phase.generate,))  # no shrinking:
# each example is a whole book (~0.1 s); shrinking one failure cost a minute on 2 busy cores
@given(opener=st.sampled_from(OPENERS), furniture=st.sampled_from(FURNITURE),
       outline=st.sampled_from(OUTLINES), mid_page=st.booleans(), chapters=st.integers(3, 8),
       parts=st.booleans(), seed=st.integers(0, 10_000))
def test_any_generated_book_gets_exactly_its_chapter_starts(opener, furniture, outline, mid_page, chapters,
                                                             parts, seed):
    params = dict(opener=opener, furniture=furniture, outline=outline, mid_page=mid_page, chapters=chapters,
                  parts=parts, seed=seed)
    truth, book = _built(tuple(sorted(params.items())))
    want = [(s.kind, _number(s.number), s.page) for s in truth.chapter_level()]
    got = [(h.kind, _number(h.number), h.page) for h in _chapter_level(book)]
    assert got == want, _describe(truth, book)


# --- the generator itself: the truth must be true of the PDF, or the tests above prove nothing ---

@pytest.mark.parametrize("opener", OPENERS)
def test_generated_truth_pages_carry_their_heading_line(opener):
    for outline, mid_page, seed in (("none", False, 1), ("off_by", True, 2)):
        pdf, truth = make_book(opener=opener, furniture="chapter_header", outline=outline, mid_page=mid_page,
                               seed=seed, parts=seed == 2)
        doc = pymupdf.open(stream=pdf)
        for s in truth.starts:
            assert s.first_line in doc[s.page - 1].get_text().split("\n"), (s, truth.params)
        if outline == "off_by":
            dests = {title: page for _, title, page, _ in truth.toc}
            assert all(dests[t] != s.page for s in truth.chapter_level()
                       for t in dests if t.endswith(s.title) and s.kind == "chapter")


def test_generated_body_lines_never_repeat_across_pages():
    for opener in OPENERS:
        pdf, truth = make_book(opener=opener, furniture="fixed_header", mid_page=True, seed=7)
        doc = pymupdf.open(stream=pdf)
        pages_of = Counter(line for page in doc for line in set(page.get_text().split("\n"))
                           if len(line) > 15)
        repeated = {line for line, n in pages_of.items() if n > 1}
        assert repeated <= set(truth.furniture), repeated - set(truth.furniture)
        assert len(set(truth.sentences)) == len(truth.sentences)


def test_run_on_books_put_two_chapter_starts_on_one_page():
    for opener in OPENERS:
        _, truth = make_book(opener=opener, mid_page=True, seed=3)
        assert max(Counter(s.page for s in truth.chapter_level()).values()) >= 2, truth.params
        _, truth = make_book(opener=opener, mid_page=False, seed=3)
        assert max(Counter(s.page for s in truth.chapter_level()).values()) == 1, truth.params


def test_generated_books_carry_the_traps_real_books_have():
    pdf, truth = make_book(opener="bold_numbered", furniture="none", seed=5, contents=True)
    pages = [page.get_text().split("\n") for page in pymupdf.open(stream=pdf)]
    assert any(page and page[0].startswith("2. Named reference") for page in pages)  # a list item tops a page
    assert any(re.match(r"\d+\. Of course", line) for page in pages for line in page)
    assert any("see Chapter" in s for s in truth.sentences)
    assert any(re.search(r"\. \. \. \d+$", line) for page in pages[:4] for line in page)  # contents + folios


def test_factory_text_lines_keep_their_font_size_and_position():
    lines = [Text("Centred Bold Title", 24.0, "hebo", align="center"),
             Text("indented", 10.0, "tiro", x=100.0), ("plain tuple line", 10.0)]

    def header(i: int) -> list[Text]:
        return [Text(f"HEAD {i}", 8.0), Text(str(i + 1), 8.0, inline=True, align="right")]
    pdf = make_pdf([lines, lines[1:]], header=header, footer=lambda i: [Text(f"slug {i}.indd", 7.0)])
    doc = pymupdf.open(stream=pdf)
    spans = [s for b in doc[0].get_text("dict")["blocks"] for ln in b["lines"] for s in ln["spans"]]
    by_text = {s["text"]: s for s in spans}
    title = by_text["Centred Bold Title"]
    assert "Bold" in title["font"] and round(title["size"]) == 24
    assert abs((title["bbox"][0] + title["bbox"][2]) / 2 - (LEFT + RIGHT) / 2) < 1.0
    assert round(by_text["indented"]["bbox"][0]) == 100 and "Times" in by_text["indented"]["font"]
    assert round(by_text["plain tuple line"]["bbox"][0]) == LEFT
    assert by_text["HEAD 0"]["bbox"][1] < by_text["Centred Bold Title"]["bbox"][1]
    assert abs(by_text["1"]["bbox"][3] - by_text["HEAD 0"]["bbox"][3]) < 0.5  # same baseline
    assert by_text["slug 0.indd"]["bbox"][3] > HEIGHT - 40
    assert "HEAD 1" in doc[1].get_text() and "slug 1.indd" in doc[1].get_text()


def test_factory_plain_tuples_are_placed_as_before():
    lines = [("a", 10.0), ("b", 20.0), ("c", 8.0)]
    assert line_tops(lines) == [60.0, 75.0, 105.0]
