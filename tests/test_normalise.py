"""Normalisation: canonical text rules, counted removals, page spans and the raw → canonical map."""

from __future__ import annotations

import pytest

from chunking.normalise import normalise
from chunking.readers.raw import RawPage


def _pages(*texts: str, labels: tuple[str, ...] = ()) -> list[RawPage]:
    return [RawPage(number=i + 1, label=labels[i] if labels else "", text=t) for i, t in enumerate(texts)]


def _body(n: int, tag: str) -> str:
    return "\n".join(f"{tag} sentence {i} says something different from the others." for i in range(n))


def test_crlf_and_lone_cr_become_lf_and_trailing_whitespace_is_cut():
    norm = normalise(_pages("A  \r\nB\rC\t \nD"))
    assert norm.text == "A\nB\nC\nD"


def test_control_characters_are_removed_and_counted_but_tab_and_newline_kept():
    norm = normalise(_pages("A\x00\tB\x07\nC\x1bD"))
    assert norm.text == "A\tB\nCD"
    assert norm.counts["control_chars"] == 3


def test_text_is_nfc():
    norm = normalise(_pages("Cafe\u0301 cre\u0300me"))
    assert norm.text == "Caf\u00e9 cr\u00e8me"


def test_ligatures_are_expanded_and_counted():
    norm = normalise(_pages("ﬁne ﬂow oﬀ eﬃcient baﬄe ﬅ ﬆ"))
    assert norm.text == "fine flow off efficient baffle st st"
    assert norm.counts["ligatures"] == 7


def test_hyphenated_line_break_joins_words_the_book_uses_and_keeps_compounds_of_its_words():
    text = "The affiliates agree on the long term.\nOur affil-\niates and a long-\nterm plan.\nNothing else."
    norm = normalise(_pages(text))
    assert "Our affiliates\nand a long-\nterm plan." in norm.text
    assert norm.counts["dehyphenated"] == 1


def test_a_soft_hyphen_at_a_line_break_always_joins_the_word_it_broke():
    # ``cess`` is a word of its own elsewhere and so is ``pro``: a hard hyphen would stay
    text = "The pro and the cess.\nTools that pro\u00ad\ncess data files, and vari\u00ad\nables too.\nA pro-\ncess."
    norm = normalise(_pages(text))
    assert "Tools that process\ndata files, and variables\ntoo." in norm.text
    assert "A pro-\ncess." in norm.text and norm.counts["dehyphenated"] == 2


def test_running_headers_and_page_numbers_are_removed_and_counted_per_kind():
    pages = ["1. Start\n" + _body(8, "opening")]
    for n in range(2, 8):
        if n % 2 == 0:
            pages.append(f"{n}\n1. Start\n" + _body(8, f"page{n}"))
        else:
            pages.append("1.1. Detail\n" + f"{n}\n" + _body(8, f"page{n}"))
    norm = normalise(_pages(*pages))
    assert norm.counts["page_numbers"] == 6
    assert norm.counts["header_lines"] == 6
    # the heading that opens the run stays; its repeats on later pages go
    assert norm.text.startswith("1. Start\nopening sentence 0")
    assert norm.text.count("1. Start") == 1 and "1.1. Detail" not in norm.text
    second = norm.pages[1]
    assert norm.text[second.char_start : second.char_end].startswith("page2 sentence 0")


def test_header_with_the_page_number_on_the_same_line_is_removed():
    pages = [f"Chapter 12: Graphical procedures {n + 60}\n" + _body(6, f"p{n}") for n in range(5)]
    norm = normalise(_pages(*pages))
    assert "Graphical procedures" not in norm.text
    assert norm.counts["header_lines"] == 5


def test_chapter_keyword_number_is_not_mistaken_for_a_page_number():
    pages = [f"{n}\nThings You Need to Know\n" + _body(6, f"p{n}") for n in range(2, 6)]
    pages.insert(0, "Chapter 1\nThings You Need to Know\n" + _body(6, "open"))
    norm = normalise(_pages(*pages, labels=("1", "2", "3", "4", "5")))
    assert norm.text.startswith("Chapter 1\nThings You Need to Know\nopen sentence 0")
    assert norm.text.count("Things You Need to Know") == 1


def test_footer_page_numbers_follow_the_page_offset_and_body_numbers_stay():
    pages = [_body(6, f"p{n}") + f"\n{n + 10}" for n in range(1, 6)]
    pages[2] = _body(6, "p3") + "\n42"  # a number that is not this page's number
    norm = normalise(_pages(*pages))
    assert norm.counts["page_numbers"] == 4
    assert "\n42" in norm.text


def test_body_lines_repeated_below_a_header_are_kept():
    # a definition's first line under the running title on some pages, as a reference manual's
    # pages open with one now and then (on nearly every page it would be constant furniture)
    opens = {1, 2, 4, 7, 8}
    pages = [
        f"{n}\nRunning Title\n" + ("procedure\n" if n in opens else "") + _body(6, f"p{n}")
        for n in range(1, 11)
    ]
    norm = normalise(_pages(*pages))
    assert norm.text.count("procedure") == len(opens)


def test_a_line_beside_the_running_title_on_nearly_every_page_is_furniture():
    """A three-part header the text layer splits into lines (``CLISP(1)`` / ``Platform: …`` /
    ``CLISP(1)``): the parts after the first stand on every page, so they go too."""
    pages = [f"TOOL(1)\nGeneral Commands Manual\nTOOL(1)\n{_body(6, f'p{n}')}\n{n}" for n in range(1, 9)]
    norm = normalise(_pages(*pages))
    after_the_first = norm.text[norm.pages[1].char_start :]  # a title page's own title may stand on the first
    assert "General Commands Manual" not in after_the_first and "TOOL(1)" not in after_the_first
    assert all(f"p{n} sentence 0" in norm.text for n in range(1, 9))


def test_a_running_head_on_every_left_hand_page_under_the_header_is_furniture():
    pages = []
    for n in range(1, 13):
        head = "A Class for Journal Articles\nJ. Doe and R. Roe\n" if n % 2 == 0 else f"{n // 2}. Section\n"
        pages.append(head + _body(6, f"p{n}") + f"\n{n}")
    norm = normalise(_pages(*pages))
    assert "J. Doe and R. Roe" not in norm.text[norm.pages[2].char_start :]  # its first page keeps it


def test_a_fixed_print_date_in_the_footer_is_furniture_but_varying_numbers_stay():
    pages = [
        f"{n}.{n % 3 + 1}\nSome Heading {n}\n{_body(6, f'p{n}')}\n{n}\nThe Manual\n06/01/2012"
        for n in range(1, 9)
    ]
    norm = normalise(_pages(*pages))
    assert "06/01/2012" not in norm.text
    assert all(f"{n}.{n % 3 + 1}" in norm.text for n in range(1, 9))


def test_a_short_label_beside_the_pages_own_number_atop_every_page_is_furniture():
    """A proof's slug over every page, ``No 12`` (the sheet's number, the page's) under the
    running title: with its number taken for the folio, ``No`` is too short for a running title's
    words, yet it stands in the same place on every page."""
    pages = [f"The Book\nNo {n}\n{_body(6, f'p{n}')}\n{n}" for n in range(1, 11)]
    norm = normalise(_pages(*pages, labels=tuple(str(n) for n in range(1, 11))))
    later = norm.text[norm.pages[1].char_start :]
    assert not any(line.startswith("No ") for line in later.split("\n"))
    assert all(f"p{n} sentence 0" in norm.text for n in range(1, 11))


def test_pages_join_with_one_newline_and_empty_pages_have_empty_spans():
    norm = normalise(_pages("one", "   \n  ", "two\n\n"))
    assert norm.text == "one\ntwo"
    spans = [(p.char_start, p.char_end) for p in norm.pages]
    assert spans == [(0, 3), (3, 3), (4, 7)]


def test_offset_map_sends_a_raw_position_to_the_same_character_in_the_canonical_text():
    raw = "12\nRunning\r\nﬁrst line  \n\x00second line here"
    other = [f"{n}\nRunning\n" + _body(3, f"p{n}") for n in range(13, 16)]
    norm = normalise(_pages(raw, *other, labels=("12", "13", "14", "15")))
    target = raw.index("second")
    mapped = norm.map_offset(0, target)
    assert norm.text[mapped : mapped + 6] == "second"
    assert norm.text[norm.map_offset(0, raw.index("rst line"))] == "r"
    # a position inside a removed header maps to the next kept line
    assert norm.text[norm.map_offset(0, 1) :].startswith("first line")


def test_offset_map_follows_a_dehyphenated_fragment_that_moved_up():
    raw = "The affiliates agree.\naffil-\niates meet here."
    norm = normalise(_pages(raw))
    mapped = norm.map_offset(0, raw.index("meet"))
    assert norm.text[mapped : mapped + 4] == "meet"


def test_kept_lines_carry_their_canonical_offsets():
    norm = normalise(_pages("alpha\nbeta", "gamma"))
    for lines in norm.lines:
        for offset, line in lines:
            assert norm.text[offset : offset + len(line)] == line


def test_running_header_printed_above_the_same_heading_removes_only_the_header():
    pages = ["PREFACE\nvii\nPreface\n" + _body(6, "open")]
    pages += [
        f"viii\nPREFACE\n{_body(6, 'p8')}",
        f"PREFACE\nix\n{_body(6, 'p9')}",
        f"x\nPREFACE\n{_body(6, 'p10')}",
    ]
    norm = normalise(_pages(*pages))
    assert norm.text.startswith("Preface\nopen sentence 0")
    assert norm.counts["header_lines"] == 4 and norm.counts["page_numbers"] == 4


def test_page_number_below_a_one_off_header_line_is_still_removed():
    pages = [f"Section Title {n}\n{n + 100}\n" + _body(6, f"p{n}") for n in range(1, 6)]
    norm = normalise(_pages(*pages, labels=tuple(str(n + 100) for n in range(1, 6))))
    assert norm.counts["page_numbers"] == 5
    assert all(f"\n{n + 100}\n" not in norm.text for n in range(1, 6))


def test_unnumbered_running_footer_goes_everywhere_and_header_except_where_it_opens_its_run():
    pages = [f"Storage Management\n{_body(6, f'p{n}')}\nACME Press confidential" for n in range(6)]
    norm = normalise(_pages(*pages))
    assert norm.counts["header_lines"] == 5  # page 1 keeps it: that is where the chapter starts
    assert norm.counts["footer_lines"] == 6  # a footer has no heading to protect
    assert "ACME" not in norm.text
    assert norm.text.startswith("Storage Management\np0 sentence 0")
    assert norm.text.count("Storage Management") == 1


def test_a_content_line_that_ends_a_page_now_and_then_is_not_a_footer():
    tail = "\nlibraries: (chezscheme)"
    pages = [_body(6, f"p{n}") + (tail if n in (0, 1, 2, 12, 30) else "") for n in range(40)]
    norm = normalise(_pages(*pages))
    assert norm.counts["footer_lines"] == 0
    assert norm.text.count("libraries: (chezscheme)") == 5


def _numbered_pages(synthetic: bool) -> list[RawPage]:
    """Six pages that open with their own number, then a repeated line, then body text."""
    return [
        RawPage(
            number=n, label="", synthetic=synthetic, text=f"{n}\nDebian Policy Manual\n{_body(6, f'p{n}')}"
        )
        for n in range(1, 7)
    ]


def test_synthetic_pages_have_no_furniture_so_their_bare_numbers_and_repeated_lines_stay():
    printed = normalise(_numbered_pages(synthetic=False))
    assert printed.counts["page_numbers"] == 6 and printed.counts["header_lines"] > 0
    cut = normalise(_numbered_pages(synthetic=True))  # EPUB without a page-list, .txt, .md
    assert cut.counts["page_numbers"] == cut.counts["header_lines"] == cut.counts["footer_lines"] == 0
    for n, page in enumerate(cut.pages, 1):
        assert cut.text[page.char_start : page.char_end].startswith(f"{n}\nDebian Policy Manual\np{n}")


def test_printed_pages_learn_page_numbers_without_the_synthetic_pages_of_the_same_book():
    cut = [
        RawPage(number=n, label="", synthetic=True, text=f"{n}\n{_body(4, f'front{n}')}") for n in (1, 2, 3)
    ]
    printed = [RawPage(number=n, label="", text=f"{_body(6, f'p{n}')}\n{n - 3}") for n in range(4, 10)]
    norm = normalise(cut + printed)
    assert norm.counts["page_numbers"] == 6
    assert [norm.text[p.char_start : p.char_end].split("\n")[0] for p in norm.pages[:3]] == ["1", "2", "3"]


def test_vocabulary_is_built_page_by_page_so_its_peak_memory_stays_below_the_text():
    import tracemalloc

    from chunking.normalise import _vocabulary

    texts = [" ".join(f"w{i % 50}" for i in range(500)) for _ in range(400)]  # 400 pages, 50 words
    tracemalloc.start()
    words = _vocabulary(texts)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert set(words) == {f"w{i}" for i in range(50)}
    assert peak < sum(map(len, texts))


# --- furniture that is not byte-identical, or not where the old scan looked (issue 10) ---


def test_a_printer_slug_whose_page_number_and_time_vary_is_removed_on_every_page():
    pages = [f"{_body(6, f'p{n}')}\nmanual.indd {n} 3/14/2021 9:{n * 7 % 60:02d} AM" for n in range(1, 9)]
    pages[3] = "manual.indd 4 3/14/2021 9:28 AM"  # a page blank but for its slug
    norm = normalise(_pages(*pages))
    assert "indd" not in norm.text
    assert norm.counts["footer_lines"] + norm.counts["header_lines"] == 8


def test_lines_that_differ_only_in_numbers_advancing_with_the_page_are_not_slugs():
    pages = [f"Step {3 * n} of the method sets x to {n} here\n{_body(6, f'p{n}')}" for n in range(1, 9)]
    norm = normalise(_pages(*pages))
    assert norm.text.count("of the method sets x") == 8


def test_a_running_header_below_an_unrecognised_line_is_removed():
    words = "alpha beta gamma delta epsilon zeta eta theta".split()
    pages = [f"Draft note {w} only\nStorage Systems\n{_body(6, f'p{i}')}" for i, w in enumerate(words)]
    norm = normalise(_pages(*pages))
    assert norm.text.count("Storage Systems") == 1  # the run's first page keeps it: its heading
    assert norm.counts["header_lines"] == 7
    assert norm.text.count("Draft note") == 8


def test_a_heading_equal_to_the_running_header_ignoring_case_stays_on_the_runs_first_page():
    pages = [f"12\nStorage Management\n{_body(6, 'open')}"]
    pages += [f"{n}\nSTORAGE MANAGEMENT\n{_body(6, f'p{n}')}" for n in range(13, 18)]
    norm = normalise(_pages(*pages))
    assert norm.text.startswith("Storage Management\nopen sentence 0")
    assert "STORAGE MANAGEMENT" not in norm.text and norm.counts["header_lines"] == 5


def test_a_chapter_number_above_its_title_stays_when_the_page_prints_its_folio_elsewhere():
    pages = [f"1\nIntroduction\n{_body(6, 'open')}\n1"] + [f"{_body(6, f'p{n}')}\n{n}" for n in range(2, 8)]
    norm = normalise(_pages(*pages))
    assert norm.text.startswith("1\nIntroduction\nopen sentence 0")
    assert norm.counts["page_numbers"] == 7


def test_a_bare_number_is_a_folio_only_in_the_sequence_of_its_own_pages():
    # two runs (labels restart): 1-8 on pages 1-8, then 1-8 on pages 9-16; page 12 prints 4
    pages = [f"{_body(6, f'{part}{n}')}\n{n}" for part in "ab" for n in range(1, 9)]
    pages[11] = f"12\nParallel Worlds\n{_body(6, 'open')}\n4"  # chapter 12 opens on page 12
    norm = normalise(_pages(*pages))
    page = norm.pages[11]
    assert norm.text[page.char_start : page.char_end].startswith("12\nParallel Worlds")
    assert [p.label for p in norm.pages] == [str(n) for n in range(1, 9)] * 2


def test_a_numbered_header_printed_once_outside_the_folio_is_removed():
    pages = [
        f"{n}.{n % 3 + 1}. SECTION {'ABCDEFGH'[n]} NAME\n{n + 20}\n{_body(6, f'p{n}')}" for n in range(8)
    ]
    norm = normalise(_pages(*pages))
    assert "SECTION" not in norm.text and norm.counts["header_lines"] == 8


def test_a_chapter_label_over_its_title_beside_the_folio_is_one_header_not_a_title_and_a_body_line():
    # left-hand pages headed ``10`` / ``CHAPTER 4.`` / ``VARIOUS TOOLS``: after the first page of
    # the run (where the heading it repeats would stand) both lines go
    titles = ["VARIOUS TOOLS", "OPERATOR NAMES", "ERROR MESSAGES"]
    pages = [f"{n}\nCHAPTER {n // 6 + 3}.\n{titles[n // 6]}\n{_body(6, f'p{n}')}" for n in range(18)]
    norm = normalise(_pages(*pages, labels=tuple(str(n) for n in range(18))))
    assert [norm.text.count(title) for title in titles] == [1, 1, 1] and "CHAPTER" not in norm.text


def test_an_unnumbered_heading_above_a_number_equal_to_the_folio_stays():
    pages = [f"Contents\nI\nUser Manual 1\n{_body(6, 'toc')}"]
    pages += [f"{r}\n{_body(6, f'p{r}')}" for r in ("II", "III", "IV", "V", "VI")]
    norm = normalise(_pages(*pages, labels=("I", "II", "III", "IV", "V", "VI")))
    assert norm.text.startswith("Contents\n")


def test_removed_furniture_is_exposed_per_page_in_page_order():
    pages = [f"{n}\nCHAPTER 2. GRAPHS\n{_body(6, f'p{n}')}\nACME Press" for n in range(10, 16)]
    norm = normalise(_pages(*pages))
    assert norm.furniture[1] == ["11", "CHAPTER 2. GRAPHS", "ACME Press"]
    assert len(norm.furniture) == len(norm.pages)


def test_a_running_header_over_a_chapter_opening_mid_page_goes_and_the_heading_stays():
    """The header names the new chapter on the page where it opens mid-page, above the old
    chapter's last lines: the header goes, the heading lower on the page stays."""
    pages = [f"1. Alpha\n{_body(6, f'a{n}')}\n{n}" for n in range(1, 4)]
    pages.append(f"2. Beta\n{_body(3, 'a-tail')}\n2 Beta\n{_body(3, 'open')}\n4")
    pages += [f"2. Beta\n{_body(6, f'b{n}')}\n{n}" for n in range(5, 8)]
    norm = normalise(_pages(*pages))
    page = norm.pages[3]
    assert norm.text[page.char_start : page.char_end].startswith("a-tail sentence 0")
    assert "\n2 Beta\nopen sentence 0" in norm.text


def test_a_first_line_printed_once_and_repeated_lower_on_its_page_stays():
    """A line that stands at the top of one page only is no header, even when the same words
    come again lower on that page (a code line, a repeated phrase): nothing is lost."""
    pages = [f"{_body(6, f'p{n}')}\n{n}" for n in range(1, 4)]
    pages.append(f"return the value\n{_body(3, 'mid')}\nreturn the value\n{_body(3, 'end')}\n4")
    norm = normalise(_pages(*pages))
    page = norm.pages[3]
    assert norm.text[page.char_start : page.char_end].startswith("return the value\nmid sentence 0")


@pytest.mark.parametrize("header_pages, below", [(2, 3), (1, 3), (1, 1)])
def test_the_header_of_a_short_chapter_over_its_mid_page_opening_goes(header_pages, below):
    """A short chapter's header stands on two pages or on one only (too few for a running line);
    where the chapter opens mid-page under it it is still the header and goes, the heading below
    stays. On one page the header must name a numbered heading (``2. Beta``); ``below`` = 1 puts
    the opening among the page's last lines."""
    pages = [f"1. Alpha\n{_body(6, f'a{n}')}\n{n}" for n in range(1, 4)]
    pages.append(f"2. Beta\n{_body(3, 'a-tail')}\n2 Beta\n{_body(below, 'open')}\n4")
    if header_pages == 2:
        pages.append(f"2. Beta\n{_body(6, 'b5')}\n5")
    pages += [f"3. Gamma\n{_body(6, f'c{n}')}\n{n}" for n in range(6, 9)]
    norm = normalise(_pages(*pages))
    page = norm.pages[3]
    assert norm.text[page.char_start : page.char_end].startswith("a-tail sentence 0")
    assert "\n2 Beta\nopen sentence 0" in norm.text


def test_a_heading_at_the_top_of_its_page_stays_when_the_running_footer_repeats_it():
    """A chapter that opens at the top of its page, under a footer that names it: the footer says
    the heading's words lower on the page, but the heading is no header."""
    pages = [f"1. Alpha\n{_body(6, f'a{n}')}\n1. Alpha\n{n}" for n in range(1, 4)]
    pages.append(f"2. Beta\n{_body(6, 'open')}\n2. Beta\n4")
    pages += [f"{_body(6, f'b{n}')}\n2. Beta\n{n}" for n in range(5, 8)]
    norm = normalise(_pages(*pages))
    page = norm.pages[3]
    assert norm.text[page.char_start : page.char_end].startswith("2. Beta\nopen sentence 0")


def test_a_two_line_header_beside_the_folio_over_a_chapter_opening_lower_on_the_page_goes():
    """``CAPITOLO 2.`` / ``OPZIONI …`` beside the folio at the top of the page where chapter 2
    opens mid-page under its heading: the header goes, the heading stays; a chapter whose own
    two-line heading opens its page (no folio beside it) keeps it."""
    pages = [f"{n}\nRunning Title\n{_body(6, f'p{n}')}" for n in range(1, 4)]
    pages.append("4\nKAPITEL 2.\nDIE OPTIONEN\n" + _body(4, "end1") + "\nKapitel 2\nDie Optionen\n" + _body(4, "ch2"))
    pages.append("Kapitel 3\nDie Befehle\n" + _body(3, "ch3") + "\nDie Befehle\n" + _body(3, "more") + "\n5")
    norm = normalise(_pages(*pages))
    assert "KAPITEL 2." not in norm.text and "DIE OPTIONEN" not in norm.text
    assert "Kapitel 2\nDie Optionen" in norm.text
    assert norm.text.count("Die Befehle") == 2 and "Kapitel 3" in norm.text


def test_a_chapter_title_at_the_top_of_its_page_that_the_contents_page_before_lists_stays():
    """The contents page lists the first chapter a few lines down its top (``2`` / ``Contents`` /
    ``System Requirements`` / ``3``); that chapter opens the next page under its folio. The
    title repeats no header: on the contents page it stands neither by the folio nor outermost."""
    titles = ["System Requirements", "Installing", "Game Basics", "Credits"]
    contents = "2\nContents\n" + "".join(f"{t}\n{3 + k}\n" for k, t in enumerate(titles))
    pages = [f"1\n{_body(6, 'cover')}", contents]
    pages += [f"{3 + k}\n{t}\n{_body(8, f'p{k}')}" for k, t in enumerate(titles)]
    norm = normalise(_pages(*pages))
    opening = norm.pages[2]
    assert norm.text[opening.char_start : opening.char_end].startswith("System Requirements\n")


def test_a_superscript_digit_under_a_top_line_is_no_page_number():
    pages = [f"{n}\nA Note On Terms\n¹\n{_body(6, f'p{n}')}" for n in range(1, 6)]
    norm = normalise(_pages(*pages))
    assert "¹" in norm.text


def test_a_two_line_header_after_its_chapters_mid_page_opening_goes_also_on_the_first_page_of_its_run():
    """Chapter 4 opens lower on a page under its heading; the pages after it are headed ``12`` /
    ``CHAPTER 4.`` / ``VARIOUS TOOLS``: on the first of them too the title is the header's second
    line, not the heading (which stood on the page before)."""
    pages = [f"{n}\nCHAPTER 3.\nFIRST THINGS\n{_body(6, f'p{n}')}" for n in range(8, 11)]
    pages.append(
        f"11\nCHAPTER 3.\nFIRST THINGS\n{_body(3, 'end3')}\nChapter 4\nVarious Tools\n{_body(3, 'ch4')}"
    )
    pages += [f"{n}\nCHAPTER 4.\nVARIOUS TOOLS\n{_body(6, f'p{n}')}" for n in range(12, 16)]
    norm = normalise(_pages(*pages, labels=tuple(str(n) for n in range(8, 16))))
    assert "VARIOUS TOOLS" not in norm.text and "CHAPTER 4." not in norm.text
    assert "Chapter 4\nVarious Tools\nch4 sentence 0" in norm.text


def test_a_two_line_header_printed_once_after_its_chapters_mid_page_opening_goes():
    """A short chapter's header, ``CHAPTER 7.`` / ``SUMS`` beside the folio, stands on one page
    only, the one after the page where the chapter opened lower down under its heading."""
    pages = [f"{n}\n{_body(6, f'p{n}')}" for n in range(1, 4)]
    pages.append(f"4\n{_body(3, 'end6')}\nChapter 7\nSums\n{_body(3, 'ch7')}")
    pages.append(f"5\nCHAPTER 7.\nSUMS\n{_body(6, 'p5')}")
    pages += [f"{n}\n{_body(6, f'p{n}')}" for n in range(6, 9)]
    norm = normalise(_pages(*pages, labels=tuple(str(n) for n in range(1, 9))))
    assert "SUMS" not in norm.text and "CHAPTER 7." not in norm.text and "Chapter 7\nSums" in norm.text


def test_a_section_number_read_apart_from_its_header_beside_the_folio_goes_with_it():
    """A section's header split into ``10.2.`` / ``ERROR MESSAGES`` / ``23`` on the right-hand
    pages: the title and the folio go, and so does the bare number at the edge outside them."""
    pages = []
    for n in range(20, 28):
        top = "10.2.\nERROR MESSAGES\n" + str(n) if n % 2 else f"{n}\nCHAPTER 10.\nMESSAGES"
        pages.append(f"{top}\n{_body(6, f'p{n}')}")
    norm = normalise(_pages(*pages, labels=tuple(str(n) for n in range(20, 28))))
    assert "10.2." not in norm.text and "ERROR MESSAGES" not in norm.text
