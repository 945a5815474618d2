"""The fidelity bench's classifier (bench/fidelity.py, issue 25): each difference between
pdftotext's page and ours is counted once, under the cause that explains it."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import fidelity  # noqa: E402


def _one(reference: list[str], ours: list[str], furniture: list[str] = ()) -> fidelity.Tally:
    return fidelity.classify([reference], [ours], [list(furniture)])


def test_the_same_words_in_another_order_lose_and_invent_nothing():
    t = _one(["alpha beta", "gamma"], ["gamma alpha", "beta"])
    assert (t.words, sum(t.lost.values()), sum(t.invented.values())) == (3, 0, 0)


def test_a_word_joined_across_a_hyphenated_line_break_is_dehyphenation():
    t = _one(["the hyphen-", "ated word"], ["the hyphenated", "word"])
    assert t.lost == {"dehyphenation": 2} and t.invented == {"dehyphenation": 1}


def test_a_hyphenated_word_joined_across_a_page_break_is_dehyphenation():
    t = fidelity.classify(
        [["first page ends hyphen-"], ["ated here"]], [["first page ends hyphenated"], ["here"]], [[], []]
    )
    assert t.lost == {"dehyphenation": 2} and t.invented == {"dehyphenation": 1}


def test_a_name_split_at_a_spacing_accent_is_an_accent():
    t = _one(["works of Br\u00a8oker"], ["works of Bröker"])
    assert t.lost == {"accent": 2} and t.invented == {"accent": 1}


def test_a_line_our_normaliser_decoded_again_from_mojibake_is_encoding():
    t = _one(["Copyright \u00c2\u00a9 na\u00c3\u00afve, Chapter\u00c2 2.\u00c2 Steps"], ["Copyright © naïve, Chapter 2. Steps"])
    # lost: 'Â' twice, 'naÃ', 've', 'ChapterÂ'; invented: 'naïve', 'Chapter'
    assert t.lost == {"encoding": 5} and t.invented == {"encoding": 2}
    assert "encoding" in fidelity.NOT_LOST


def test_a_lone_lead_byte_pdftotext_set_apart_on_a_repaired_page_is_encoding_and_only_there():
    repaired_page = ["Chapter\u00c2 2.\u00c2 Steps", "\u00c2 \u00c2 \u00e2"]
    t = _one(repaired_page, ["Chapter 2. Steps"])
    assert t.lost == {"encoding": 5} and t.invented == {"encoding": 1}
    sound_page = _one(["a lone \u00e2 here", "plain"], ["a lone here", "plain"])
    assert sound_page.lost == {"unknown": 1}


def test_a_word_pdftotext_cuts_after_the_dotless_i_under_our_accent_is_an_accent():
    t = _one(["la bo\u0131 te et la cha\u0131 ne"], ["la boîte et la chaîne"])
    assert t.lost == {"accent": 4} and t.invented == {"accent": 2}
    turkish = _one(["k\u0131 z"], ["kiz"])  # a bare i of ours is no accent
    assert "accent" not in turkish.lost


def test_an_expanded_ligature_is_a_ligature():
    t = _one(["the \ufb01rst e\ufb03cient one"], ["the first efficient one"])
    assert t.lost == {"ligature": 2} and t.invented == {"ligature": 2}


def test_a_fake_bold_doubling_we_read_once_is_de_duplication():
    t = _one(["WWaarrnniinngg read this"], ["Warning read this"])
    assert t.lost["de-duplication"] == 1 and t.lost["unknown"] == 0


def test_a_line_our_rules_removed_as_furniture_is_furniture():
    t = _one(["Chapter Two Methods", "body text here"], ["body text here"], furniture=["Chapter Two Methods"])
    assert t.lost == {"furniture": 3} and not t.invented


def test_a_footnote_mark_glued_to_its_word_is_spacing():
    t = _one(["the text 5", "This note"], ["the text", "5This note"])
    assert t.lost == {"spacing": 2} and t.invented == {"spacing": 1}


def test_a_capital_split_from_its_smaller_capitals_by_pdftotext_is_small_caps_and_not_counted():
    # faked small caps: R at the body size, ETURN smaller; pdftotext splits where the size changes
    t = _one(["press the R ETURN key to return"], ["press the RETURN key to return"])
    assert t.lost == {"small caps": 2} and t.invented == {"small caps": 1}
    assert "small caps" in fidelity.UNMEASURED
    t = _one(["group N Z here"], ["group NZ here"])  # a one-letter tail is no small-caps word
    assert t.lost == {"spacing": 2}
    t = _one(["the meat M HAC here"], ["the meat MHAC here"])  # a subscript: no word of the book
    assert t.lost == {"spacing": 2}


def test_words_missing_for_no_known_reason_are_unknown():
    t = _one(["one two three four"], ["one four"])
    assert t.lost == {"unknown": 2} and t.invented["unknown"] == 0


def test_repeated_edge_lines_are_furniture_for_both_texts_and_bare_folios_too():
    words = "apple birch cedar daisy elm fern grape hazel iris juniper kale lime".split()
    pages = [
        [f"Running Title {i}", *(f"the {words[i]} said {words[k]}" for k in range(5)), f"{i}"]
        for i in range(1, 9)
    ]
    furniture = fidelity.edge_furniture(pages)
    assert fidelity.drop_furniture(pages[0], furniture) == pages[0][1:-1]


def test_a_symbol_pdftotext_reads_as_its_code_letter_is_a_glyph_map_and_no_loss():
    t = _one(["the hnumberi hequalsi here"], ["the ⟨number⟩ ⟨equals⟩ here"])
    assert t.lost == {"glyph map": 2} and t.invented == {"glyph map": 2}
    assert "glyph map" in fidelity.NOT_LOST


def test_a_short_word_bracketed_whole_is_a_glyph_map_too():
    # ``⟨box⟩``, ``⟨cs⟩``: two symbols around two or three letters, more than a third of the word
    t = _one(["the hboxi and hcsi here"], ["the ⟨box⟩ and ⟨cs⟩ here"])
    assert t.lost == {"glyph map": 2} and t.invented == {"glyph map": 2}
    # a symbol inside a short word stays counted
    t = _one(["the bhxi here"], ["the b⟨x⟩ here"])
    assert "glyph map" not in t.lost


def test_a_bracketed_name_pdftotext_cuts_at_its_bracket_is_a_glyph_map_piece_by_piece():
    # ``⟨n⟩`` read ``hn`` ``i`` and ``h`` ``ni``: an opening bracket where a piece starts, a
    # closing one where it ends (the lone ``i`` and ``h``, symbols alone, were already so)
    t = _one(["the hn i and h ni here"], ["the ⟨n⟩ and ⟨n⟩ here"])
    assert t.lost == {"glyph map": 4} and t.invented == {"glyph map": 2}
    # a closing bracket where the piece starts, an opening one where it ends, an ASCII bracket
    # (a text font's, read as itself), stay counted
    t = _one(["the is and nh here"], ["the ⟩s and n⟨ here"])
    assert t.lost["glyph map"] == 0 and t.lost["unknown"] == 2
    t = _one(["the 2y [2] here"], ["the y 2 [2] here"])
    assert t.lost["glyph map"] == 0 and t.lost["unknown"] == 1


def test_a_letter_of_ours_where_pdftotext_has_a_symbol_stays_counted():
    t = _one(["the ⟨number⟩ here"], ["the hnumberi here"])
    assert t.lost["glyph map"] == 0 and t.invented["unknown"] == 1


def test_a_private_use_glyph_of_ours_is_no_glyph_map():
    t = _one(["the number here"], ["the n\ue000mber here"])
    assert t.lost["glyph map"] == 0 and t.lost["unknown"] == 1


def test_a_word_pdftotext_spaces_letter_by_letter_is_letter_spacing():
    t = _one(["/* E x c e p t i o n : the map */"], ["/* Exception: the map */"])
    assert t.lost == {"letter spacing": 9} and t.invented == {"letter spacing": 1}


def test_a_tracked_name_pdftotext_reads_as_single_letters_and_a_few_pairs_is_letter_spacing():
    # a name in tracked small capitals, its letters evenly apart on the page: pdftotext reads a
    # pair of glyphs a hair closer as one piece, twice in one word
    t = _one(["when ta b l e m ac r o is loaded"], ["when tablemacro is loaded"])
    assert t.lost == {"letter spacing": 8} and t.invented == {"letter spacing": 1}
    # pieces longer than two letters, or pairs more than a third of them, stay counted
    t = _one(["when tab lem acro is loaded"], ["when tablemacro is loaded"])
    assert t.lost == {"spacing": 3}
    t = _one(["when ta bl em ac ro is loaded"], ["when tablemacro is loaded"])
    assert t.lost == {"spacing": 5}


def test_two_letters_pdftotext_spaces_apart_on_a_page_where_it_spaces_out_words_are_letter_spacing():
    # the same italic font's ``o f`` beside its ``E x c e p t i o n``; a tracked page number
    t = _one(["E x c e p t i o n o f the map, 2 8 3 and 2 8"], ["Exception of the map, 283 and 28"])
    assert t.lost == {"letter spacing": 16} and t.invented == {"letter spacing": 4}
    # not on a page without it, nor a symbol and its index (``σ 2``): those stay counted
    t = _one(["the map o f it"], ["the map of it"])
    assert t.lost == {"spacing": 2}
    t = _one(["E x c e p t i o n σ 2"], ["Exception σ2"])
    assert t.lost == {"letter spacing": 9, "spacing": 2}


def test_a_word_we_space_letter_by_letter_stays_counted_as_spacing():
    t = _one(["aàáâ here"], ["a à á â here"])
    assert t.lost == {"spacing": 1} and t.invented == {"spacing": 4}


def test_a_line_end_hyphen_we_keep_where_pdftotext_joins_is_dehyphenation():
    t = _one(["the multicore machine"], ["the multi-", "core machine"])
    assert t.lost == {"dehyphenation": 1} and t.invented == {"dehyphenation": 2}


def test_a_line_end_hyphen_we_keep_inside_a_joined_line_where_pdftotext_joins_is_dehyphenation():
    # the page breaks ``sum-of-`` / ``squares``: pdftotext drops the line's hyphen, our line keeps it
    t = _one(["the residual sum-ofsquares here"], ["the residual sum-of-squares here"])
    assert t.lost == {"dehyphenation": 1} and t.invented == {"dehyphenation": 2}
    # the same words without our hyphen between them stay counted
    t = _one(["the residual sum-ofsquares here"], ["the residual sum-of squares here"])
    assert t.lost == {"spacing": 1} and t.invented == {"spacing": 2}
    # a line-end hyphen pdftotext joins is matched before the same two words a space apart
    t = _one(["the DOE Macsyma and DOEMacsyma"], ["the DOE Macsyma and DOE-", "Macsyma"])
    assert t.lost == {"dehyphenation": 1} and t.invented == {"dehyphenation": 2}


def test_an_accent_pdftotext_composes_and_we_split_is_accent_missing_and_counted():
    t = _one(["molto più grande"], ["molto pi`u grande"])
    assert t.lost == {"accent missing": 1} and "accent missing" not in fidelity.NOT_LOST


def test_a_running_header_of_a_few_pages_is_furniture_by_position():
    def body(n):
        return [f"the {w} of page {'x' * n} text" for w in "apple birch cedar daisy elm fern".split()]

    pages = [["Preface", *body(0)]] + [["2. Short Section", *body(n), str(n)] for n in (1, 2)]
    pages += [[f"Other {'y' * n}", *body(n)] for n in range(3, 43)]
    edges = fidelity.edge_furniture(pages)
    assert fidelity.drop_furniture(pages[1], edges, 1) == body(1)
    assert fidelity.drop_furniture(pages[0], edges, 0) == pages[0]


def test_a_section_header_printed_on_one_page_is_furniture_when_the_next_header_has_its_shape():
    def body(n, heading=None):
        lines = [f"the {w} of page {'x' * n} text" for w in "apple birch cedar daisy elm fern".split()]
        return lines[:3] + [heading] + lines[3:] if heading else lines

    # right-hand pages headed by the current section and the folio, under or after the heading
    # it repeats; each short section's header stands on one page only, the left-hand pages'
    # header names the chapter
    pages = [
        ["2.3. COMMENTS 9", *body(0, "2.3 Comments")],
        ["10 CHAPTER 2. LEXICAL STRUCTURE", *body(1, "2.5 Numeric Literals")],
        ["2.5. NUMERIC LITERALS 11", *body(2)],
    ]
    edges = fidelity.edge_furniture(pages)
    assert fidelity.drop_furniture(pages[0], edges, 0) == body(0, "2.3 Comments")
    assert fidelity.drop_furniture(pages[2], edges, 2) == body(2)
    # the same header read as its number and its title apart
    split = ["2.5.", "NUMERIC LITERALS 11", *body(2)]
    assert fidelity.drop_furniture(split, fidelity.edge_furniture([*pages[:2], split]), 2) == body(2)
    # sections that open pages two apart: each heading is the only line naming its section
    opening = [["21.3. Radicals", *body(0)], ["Other text", *body(1)], ["21.4. Math accents", *body(2)]]
    edges = fidelity.edge_furniture(opening)
    assert fidelity.drop_furniture(opening[0], edges, 0) == opening[0]
    # a contents page's first entries (each named again on its own page, far away): their page
    # numbers do not advance with the page
    entries = [["2.3 Comments 9", *body(0, "2.3 Comments")], ["3.1 Errors 17", *body(2, "3.1 Errors")]]
    edges = fidelity.edge_furniture([entries[0], [], entries[1]])
    assert fidelity.drop_furniture(entries[0], edges, 0) == entries[0]


def test_a_section_header_printed_on_one_page_beside_its_folio_is_furniture_whatever_its_neighbours_shape():
    def body(n, heading=()):
        return [*heading, *(f"the {w} of page {'x' * n} text" for w in "apple birch cedar daisy elm fern".split())]

    # left-hand pages headed by the folio and the chapter, right-hand pages by the section and
    # the folio; the section's heading stands on the page before its one header
    pages = [
        ["14", "examples", *body(0, ["2.2", "another section in this chapter"])],
        ["2.2 another section in this chapter", "15", *body(1)],
        ["16", "examples", *body(2)],
    ]
    edges = fidelity.edge_furniture(pages)
    assert fidelity.drop_furniture(pages[1], edges, 1) == body(1)
    # a section opening at the top of a page beside its folio, named nowhere before: a heading
    opening = [["14", "examples", *body(0)], ["2.2 another section in this chapter", "15", *body(1)]]
    edges = fidelity.edge_furniture(opening)
    assert fidelity.drop_furniture(opening[1], edges, 1) == [opening[1][0], *body(1)]
    # the folios do not advance with the page: no header place
    still = [["14", "examples", *body(0, ["2.2", "another section in this chapter"])], pages[1][:1] + ["9", *body(1)]]
    edges = fidelity.edge_furniture(still)
    assert fidelity.drop_furniture(still[1], edges, 1) == [still[1][0], *body(1)]


def test_a_chapter_header_by_its_label_printed_once_beside_its_folio_after_its_heading_is_furniture():
    def body(n, heading=()):
        return [
            *heading,
            *(f"the {w} of page {'x' * n} text" for w in "apple birch cedar daisy elm fern".split()),
        ]

    # chapter 7 opens mid-page 0 under its heading, its number set apart from its title; page 1,
    # the short chapter's only other page, is headed by the folio and ``CHAPTER 7. SUMS``
    pages = [
        ["4", "CHAPTER 6. FIRST STEPS", *body(0)[:3], "—7—", "Sums", *body(0)[3:]],
        ["5", "CHAPTER 7. SUMS", *body(1)],
        ["6", "CHAPTER 8. PRODUCTS", *body(2)],
    ]
    edges = fidelity.edge_furniture(pages)
    assert fidelity.drop_furniture(pages[1], edges, 1) == body(1)
    # a caption at the foot of a page beside its folio, its section's title a heading above it
    foot = [[*body(0), "4"], ["Sums", *body(1), "Figure 5. Sums", "5"], [*body(2), "6"]]
    edges = fidelity.edge_furniture(foot)
    assert fidelity.drop_furniture(foot[1], edges, 1) == foot[1][:-1]
    # a chapter opening at the top of its page beside its folio, its title alone nowhere: a heading
    opening = [pages[0][:2] + body(0), pages[1], pages[2]]
    edges = fidelity.edge_furniture(opening)
    assert fidelity.drop_furniture(opening[1], edges, 1) == opening[1][1:]


def test_a_heading_left_outermost_by_our_removed_header_is_no_header():
    def body(n):
        return [f"the {w} of page {'x' * n} text" for w in "apple birch cedar daisy elm fern".split()]

    # right-hand pages headed by the current section; on page 2 the section opens at the top,
    # under its own header; our normaliser removed the header, so the heading ``1.4`` / ``Input
    # File Structure`` is the outermost line of our page
    reference = [["1.3 Input Files", "5", *body(0)], ["6", "Things to Know", *body(1)]]
    reference.append(["1.4 Input File Structure", "1.4 Input File Structure", *body(2), "7"])
    raw = [page[:] for page in reference[:2]] + [["1.4 Input File Structure", "7", "1.4", "Input File Structure", *body(2)]]
    ours = ["1.4", "Input File Structure", *body(2)]
    edges = fidelity.edge_furniture(reference, raw)
    ref, mine = fidelity.drop_furniture_alike(reference[2], ours, edges, 2, raw[2])
    assert ref == ["1.4 Input File Structure", *body(2)] and mine == ours
    assert not fidelity.classify([ref], [mine], [[]]).lost
    # without the header removed from ours, it goes from both texts as before
    ref, mine = fidelity.drop_furniture_alike(reference[2], ["1.4 Input File Structure", *ours], edges, 2, raw[2])
    assert ref == ["1.4 Input File Structure", *body(2)] and mine == ours


def test_a_header_our_normaliser_removed_over_its_heading_lower_on_the_page_leaves_the_heading():
    def body(n):
        return [f"the {w} of page {'x' * n} text" for w in "apple birch cedar daisy elm fern".split()]

    # chapter 6 opens mid-page 1 under its own running header, which page 2 repeats
    reference = [["5. The Charges Module", *body(0)]]
    reference.append(["6. The Names Module", *body(1)[:3], "6. The Names Module", *body(1)[3:]])
    reference.append(["6. The Names Module", *body(2)])
    ours = reference[1][1:]  # the header removed, the heading kept
    edges = fidelity.edge_furniture(reference, reference)
    ref, mine = fidelity.drop_furniture_alike(reference[1], ours, edges, 1, reference[1])
    assert ref == mine == ours


def test_a_chapter_header_printed_on_one_page_over_its_heading_is_furniture():
    def body(n):
        return [f"the {w} of page {'x' * n} text" for w in "apple birch cedar daisy elm fern".split()]

    # each one-page chapter headed by its own number and title, over the same words as its heading
    reference = [["8. The Phases Module", "8.2. Own Phases", *body(0)]]
    reference.append(["9. The Symbols Module", "9. The Symbols Module", *body(1)])
    ours = reference[1][1:]
    edges = fidelity.edge_furniture(reference, reference)
    ref, mine = fidelity.drop_furniture_alike(reference[1], ours, edges, 1, reference[1])
    assert ref == mine == ours


def test_a_furniture_line_read_further_in_by_one_extractor_is_dropped_from_both():
    words = "apple birch cedar daisy elm fern grape hazel iris juniper kale lime".split()
    body = [f"the {w} said" for w in words[:8]]
    pages = [["Running Head", *(f"{line} {'z' * (n + 1)}" for line in body)] for n in range(6)]
    edges = fidelity.edge_furniture(pages)
    ref, ours = fidelity.drop_furniture_alike(
        ["Running Head", *body], [*body[:4], "Running Head", *body[4:]], edges, 2
    )
    assert ref == ours == body


def test_a_furniture_line_our_normaliser_removed_is_dropped_where_pdftotext_reads_it_further_in():
    # our raw page ends with the running footer (furniture by position); the normaliser already
    # removed it from our text, and pdftotext reads it in the middle of the page
    words = "apple birch cedar daisy elm fern grape hazel".split()
    body = [f"the {w} said" for w in words]
    raw = [[*(f"{line} {'z' * (n + 1)}" for line in body), "Tree Manual, v4.0.0"] for n in range(6)]
    edges = fidelity.edge_furniture(raw)
    reference = [*body[:4], "Tree Manual, v4.0.0", *body[4:]]
    ref, ours = fidelity.drop_furniture_alike(reference, body, edges, 2, raw[2])
    assert ref == ours == body
    # a raw edge line the normaliser kept is cut with our own lines, not twice from pdftotext's
    ref, ours = fidelity.drop_furniture_alike(reference, [*body, "Tree Manual, v4.0.0"], edges, 2, raw[2])
    assert ref == ours == body


def test_a_contents_entrys_number_one_extractor_reads_on_a_line_of_its_own_is_no_furniture():
    # ours cuts ``6.3.2 Paragraph Formatting . . 112`` after its number: ``#.#.#`` stands at the
    # top of every contents page, but pdftotext keeps the number in a line it keeps
    pages = [[f"{n}.3.2", f"Entry {'q' * n} . . 112", f"{n}.3.3", "tail words"] for n in range(1, 9)]
    edges = fidelity.edge_furniture(pages)
    ref, ours = fidelity.drop_furniture_alike(
        ["5.3.2 Entry qqqqq . . 112", "5.3.3 tail words"], pages[4], edges, 4
    )
    assert ours[0] == "5.3.2" and "5.3.3" in ours


def test_a_contents_entrys_page_number_one_extractor_reads_on_a_line_of_its_own_is_no_folio():
    # ours reads ``License`` / ``14`` at the top of a contents page and ``… characters`` / ``34``
    # at its foot; pdftotext keeps each number on its entry's line, and the page's own folio
    # ``2`` on a line of its own
    entries = [f"Entry {'q' * n} 2{n}" for n in range(1, 8)]
    ours = ["Contents", "License", "14", *entries, "Letters and ⟨other⟩ characters", "34"]
    reference = ["Contents", "License 14", *entries, "Letters and hotheri characters 34", "2"]
    edges = fidelity.edge_furniture([reference], [ours])
    ref, mine = fidelity.drop_furniture_alike(reference, ours, edges, 0)
    assert mine[-1] == "34" and "14" in mine and "2" not in ref
    assert fidelity.classify([ref], [mine], [[]]).lost.get("unknown", 0) == 0


def test_a_footnote_mark_one_extractor_reads_on_a_line_of_its_own_at_the_foot_is_no_folio():
    body = [f"the {w} said so" for w in "apple birch cedar daisy elm fern".split()]
    reference = [*body, "4", "bidi does not support LuaTeX.", "25"]
    ours = [*body, "4 bidi does not support LuaTeX."]
    edges = fidelity.edge_furniture([reference], [ours])
    ref, mine = fidelity.drop_furniture_alike(reference, ours, edges, 0)
    assert ref == reference[:-1] and mine == ours
    assert not fidelity.classify([ref], [mine], [[]]).invented


def test_a_bare_number_cut_with_the_header_line_beside_it_stays_cut():
    # ours reads the running header ``8 Thanks`` as ``8`` / ``Thanks``; the chapter's heading
    # ``8 Thanks`` stands further down: the number is the header's, not the heading's
    def body(n):
        return [f"the {w} of page {'x' * n} text" for w in "apple birch cedar daisy elm fern".split()]

    reference = [["8 Thanks", *body(0)], ["8 Thanks", *body(1)[:3], "8 Thanks", *body(1)[3:]]]
    ours = [["8", "Thanks", *body(0)], ["8", "Thanks", *body(1)[:3], "8 Thanks", *body(1)[3:]]]
    edges = fidelity.edge_furniture(reference, ours)
    ref, mine = fidelity.drop_furniture_alike(reference[1], ours[1], edges, 1)
    assert "8" not in mine and "Thanks" not in mine


def test_a_section_number_dropped_with_its_running_header_stays_dropped():
    # a running header ``2.11 Environments``: ours reads the number on a line of its own; both
    # texts drop it (its number stays from page to page: ``_in_step``)
    pages = [["2.11", "Environments", f"body {'w' * n} text"] for n in range(1, 9)]
    reference = [["2.11 Environments", f"body {'w' * n} text"] for n in range(1, 9)]
    edges = fidelity.edge_furniture(reference, pages)
    ref, ours = fidelity.drop_furniture_alike(reference[3], pages[3], edges, 3)
    assert ref == ours == ["body wwww text"]


def test_a_run_of_han_characters_cut_between_two_of_them_is_a_cjk_boundary_and_no_loss():
    # the same characters, a cut Chinese does not mark: nothing lost, nothing invented
    t = _one(["第一章 讲述 基础"], ["第一章讲述基础"])
    assert t.lost == {"cjk boundary": 3} and t.invented == {"cjk boundary": 1}
    assert all(c in fidelity.NOT_LOST for c in t.lost)
    t = _one(["第一章讲述"], ["第一章 讲述"])
    assert t.lost == {"cjk boundary": 1} and t.invented == {"cjk boundary": 2}


def test_a_cut_next_to_a_latin_word_or_a_digit_in_cjk_text_stays_counted_as_spacing():
    t = _one(["LATEX の定義"], ["LATEXの定義"])
    assert t.lost == {"spacing": 2} and t.invented == {"spacing": 1}
    t = _one(["第4章"], ["第 4 章"])
    assert t.lost == {"spacing": 1} and t.invented == {"spacing": 3}


def test_a_number_row_dropped_at_one_texts_edge_drops_the_same_row_from_the_other_not_any_row():
    # a table of numbers each extractor orders its own way: pdftotext's edge rows ``23 81``
    # and ``23 95`` (their digit-blind key ``# #`` stands at the edge of every page, the same
    # numbers: ``_in_step``) are dropped from ours too, and not our row ``23 70`` in the stead
    # of ``23 81``
    def body(n: int) -> list[str]:
        return [f"town {w} {'t' * n}" for w in "alder birch cedar daisy elm fern".split()]

    pages = [["23 81", *body(n), "23 95"] for n in range(1, 9)]
    edges = fidelity.edge_furniture(pages)
    b = body(12)
    reference = ["23 81", *b[:3], "23 70", *b[3:], "23 95"]
    ours = [*b[:3], "23 70", "23 81", *b[3:], "23 95"]
    ref, mine = fidelity.drop_furniture_alike(reference, ours, edges, 12)
    assert ref == mine == [*b[:3], "23 70", *b[3:]]


def test_a_header_with_an_accent_one_text_decomposes_is_the_same_furniture_in_both():
    # a title page's authors repeated two pages on: pdftotext gives ``c`` + U+0301, our reader
    # the spacing acute before the ``c``, which our normaliser composes into ``ć``; one key
    def page(n: int, head: str) -> list[str]:
        return [head, *(f"the {w} of page {'x' * n} text" for w in "apple birch cedar daisy elm fern".split())]

    reference = [page(n, "ivo pletikosi c\u0301") for n in (0, 2)]
    raw = [page(n, "ivo pletikosi \u00b4c") for n in (0, 2)]
    ours = page(0, "ivo pletikosi \u0107")
    edges = fidelity.edge_furniture(reference, raw)
    ref, mine = fidelity.drop_furniture_alike(reference[0], ours, edges, 0, raw[0])
    assert ref == reference[0][1:] and mine == ours[1:]


def test_a_row_of_three_or_more_bare_numbers_is_never_furniture_by_position():
    # a record's numbered fields over its layout at the top of two pages running: we read the
    # row as one line, pdftotext broken over several; digit-blind (and as the same numbers) the
    # row matched the next page's, so it was cut from ours only and its numbers counted lost
    def page(name: str) -> list[str]:
        fields = [f"{k}) field {name} {k}" for k in range(1, 6)]
        return [name.upper(), f"The {name} record", "1   2 3   4 5", "$--REC,x.x,T,x.x,M,c--c*hh", *fields]

    ours = [page("alpha"), page("beta")]
    reference = [[*p[:2], "1", "2 3", "4 5", *p[3:]] for p in ours]
    edges = fidelity.edge_furniture(reference, ours)
    ref, mine = fidelity.drop_furniture_alike(reference[1], ours[1], edges, 1)
    t = fidelity.classify([ref], [mine], [[]])
    assert "1   2 3   4 5" in mine and (sum(t.lost.values()), sum(t.invented.values())) == (0, 0)


def test_glyph_map_matches_the_longest_reading_first_and_the_closest_place():
    # ``hdigitihdecimal`` is our ``⟨digit⟩⟨decimal``; the shorter ``hdecimal`` must not take the
    # ``⟨decimal`` inside it first
    t = _one(
        ["| hdecimal constantihdigiti", "| hdigitihdecimal constanti"],
        [
            "| \u27e8digit\u27e9\u27e8decimal constant\u27e9",
            "| \u27e8decimal constant\u27e9\u27e8digit\u27e9",
        ],
    )
    assert t.lost == {"glyph map": 4} and sum(t.invented.values()) == t.invented["glyph map"]
    # ``hplacementsi`` is our ``⟨placements⟩``, not the ``⟨placement⟩]`` that stands first
    t = _one(["hplacementsi or [hplacementi]"], ["[\u27e8placement\u27e9] or \u27e8placements\u27e9"])
    assert t.lost == {"glyph map": 2} and t.invented == {"glyph map": 2}


def test_a_vowelled_arabic_word_is_one_word_and_a_lone_mark_none():
    # its vowel marks are no ``\w``: the word fell apart into letters on both sides, and a
    # glued pair of words looked like the same letters
    assert [w for w, _ in fidelity.words(["اَلْحَمْدُ لِلّٰهِ \u064e"])] == ["اَلْحَمْدُ", "لِلّٰهِ"]
    t = _one(["اَلْحَمْدُ لِلّٰهِ"], ["اَلْحَمْدُلِلّٰهِ"])
    assert t.lost == {"spacing": 2} and t.invented == {"spacing": 1}


def _slant_pdf(path: Path, upright: str, slanted: str, degrees: int, sideways: str = "") -> Path:
    """A one-page PDF at ``path``: an ``upright`` line, ``slanted`` text turned ``degrees``, and
    a ``sideways`` line turned 90° (up the page)."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), upright, fontsize=11)
    at = pymupdf.Point(200, 300)
    page.insert_text(at, slanted, fontsize=11, morph=(at, pymupdf.Matrix(-degrees)))
    if sideways:
        page.insert_text((72, 500), sideways, fontsize=11, rotate=90)
    doc.save(path)
    return path


def test_text_set_at_a_slant_that_pdftotext_breaks_into_pieces_is_rotated_and_no_loss(tmp_path):
    lines = ("Upright words stay upright", "This text was rotated", 30, "Sideways labels read up the page")
    path = _slant_pdf(tmp_path / "slant.pdf", *lines)
    slanted = fidelity.slanted_words(path)
    assert slanted(0) == {"This": 1, "text": 1, "was": 1, "rotated": 1}
    # pdftotext's pieces of the slanted line, in no order; one upright word missing from ours
    reference = ["Upright words stay upright", "ated", "s", "Th", "i", "t", "ex", "rot", "wa", "t"]
    ours = ["Upright words stay", "This text was rotated"]
    t = fidelity.classify([reference], [ours], [[]], slanted=slanted)
    assert t.invented == {"rotated": 4}
    assert t.lost == {"rotated": 9, "unknown": 1}
    # without slanted lines on the page, the same pieces stay counted
    t = fidelity.classify([reference], [ours], [[]], slanted=lambda p: Counter())
    assert t.lost == {"unknown": 10} and t.invented == {"unknown": 4}


def test_a_tick_label_at_a_slant_pdftotext_reads_in_two_pieces_is_rotated_and_no_loss(tmp_path):
    path = _slant_pdf(tmp_path / "ticks.pdf", "Axis 1000 upright", "1000", 45)
    slanted = fidelity.slanted_words(path)
    assert slanted(0) == {"1000": 1}
    # pdftotext reads the slanted label as two pieces next to each other in its run
    t = fidelity.classify(
        [["Axis 1000 upright", "10", "00"]], [["Axis 1000 upright", "1000"]], [[]], slanted=slanted
    )
    assert t.lost == {"rotated": 2} and t.invented == {"rotated": 1}
    # the upright line's word read in pieces stays spacing: only as often as the slanted lines hold it
    t = fidelity.classify(
        [["Axis 10 00 upright", "10", "00"]], [["Axis 1000 upright", "1000"]], [[]], slanted=slanted
    )
    assert t.lost == {"rotated": 2, "spacing": 2} and t.invented == {"rotated": 1, "spacing": 1}
    # without slanted lines on the page, the same pieces stay counted
    t = fidelity.classify([["10", "00"]], [["1000"]], [[]], slanted=lambda p: Counter())
    assert t.lost == {"spacing": 2} and t.invented == {"spacing": 1}


def test_a_name_in_math_italic_pdftotext_cuts_at_an_italic_correction_is_math_italic_and_no_loss(tmp_path):
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "plot xMin here", fontsize=10, fontname="tiro")
    page.insert_text((72, 140), "xMin", fontsize=10, fontname="tiit")
    for xref, _, _, base, _, _ in page.get_fonts():
        if base == "Times-Italic":  # the formula's font: TeX's math italic
            doc.xref_set_key(xref, "BaseFont", "/ABCDEF+CMMI10")
    path = tmp_path / "math.pdf"
    doc.save(path)
    in_math = fidelity.math_italic_words(path)
    assert in_math(0) == {"xMin": 1}
    # pdftotext cuts the formula's name after the italic M; the line set upright too
    t = fidelity.classify(
        [["plot xM in here", "xM in"]], [["plot xMin here", "xMin"]], [[]], math_italic=in_math
    )
    assert t.lost == {"math italic": 2, "spacing": 2} and t.invented == {"math italic": 1, "spacing": 1}
    # without math italic on the page, the same pieces stay counted
    t = fidelity.classify([["xM in"]], [["xMin"]], [[]], math_italic=lambda p: Counter())
    assert t.lost == {"spacing": 2} and t.invented == {"spacing": 1}


def test_a_symbol_pdftotext_reads_as_the_letter_of_its_code_where_mupdf_reads_one_symbol_is_a_glyph_map(tmp_path):
    import pymupdf

    # a table of signs, one to a cell, in a font without a Unicode map whose glyph names
    # pdftotext does not know: it reads each glyph's code, ``a`` ``b`` ``c``; MuPDF reads the
    # names, ``≲`` ``△`` ``⊢``; the cell at code ``d`` holds the letter itself, which we lost
    doc = pymupdf.open()
    page = doc.new_page()
    font, helvetica, stream = doc.get_new_xref(), doc.get_new_xref(), doc.get_new_xref()
    diffs = "97 /lessorsimilar /triangle /turnstileleft"
    doc.update_object(
        font,
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 97 /LastChar 100 "
        f"/Widths [600 600 600 600] /Encoding << /Type /Encoding /Differences [{diffs}] >> >>",
    )
    doc.update_object(helvetica, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    doc.xref_set_key(page.xref, "Resources", f"<< /Font << /FS {font} 0 R /FH {helvetica} 0 R >> >>")
    cells = " ".join(f"40 0 Td <{code:02X}> Tj" for code in range(97, 101))
    doc.update_object(stream, "<<>>")
    doc.update_stream(stream, f"BT /FH 12 Tf 72 700 Td (Signs) Tj /FS 12 Tf {cells} ET".encode())
    doc.xref_set_key(page.xref, "Contents", f"{stream} 0 R")
    path = tmp_path / "signs.pdf"
    doc.save(path)
    symbols = fidelity.symbol_letters(path)
    assert symbols(0) == {"a": 1, "b": 1, "c": 1}
    reference, ours = ["Signs a", "b", "c", "d"], ["Signs \u2272 \u25b3 \u22a2"]
    t = fidelity.classify([reference], [ours], [[]], symbols=symbols)
    assert t.lost == {"glyph map": 3, "unknown": 1} and not t.invented
    # without the symbols' places only the letter on a line of words is matched (``_lone_glyphs``)
    t = fidelity.classify([reference], [ours], [[]], symbols=lambda p: Counter())
    assert t.lost == {"glyph map": 1, "unknown": 3}


def _page_pdf(path: Path, lines: dict[int, str], before: bytes = b"", after: bytes = b"") -> Path:
    """A one-page PDF at ``path``: ``lines`` (y: text) in Times, its content stream wrapped in
    raw PDF operators ``before`` and ``after`` (a clip, more text)."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    for y, text in lines.items():
        page.insert_text((72, y), text, fontsize=10, fontname="tiro")
    streams = page.get_contents()
    body = b"".join(doc.xref_stream(x) for x in streams)
    doc.update_stream(streams[0], before + b"\n" + body + b"\n" + after + b"\n")
    for x in streams[1:]:
        doc.update_stream(x, b"")
    doc.save(path)
    return path


def test_words_the_page_clip_hides_that_pdftotext_reads_are_clipped_and_no_loss(tmp_path):
    # a frame's clip: the page shows its top, the second line lies below the frame's edge
    lines = {100: "shown line stays", 350: "hidden words here"}
    path = _page_pdf(tmp_path / "clip.pdf", lines, b"q 0 548 612 244 re W n", b"Q")
    clipped = fidelity.clipped_words(path)
    assert clipped(0) == ({"hidden": 1, "words": 1, "here": 1}, Counter())
    reference = ["shown line stays", "hidden words here", "lost"]
    t = fidelity.classify([reference], [["shown line stays", "made"]], [[]], clipped=clipped)
    assert t.lost == {"clipped": 3, "unknown": 1} and t.invented == {"unknown": 1}
    # the pieces a clip leaves of a line it cuts (its ascenders) are clipped too, as often as held
    t = fidelity.classify(
        [["shown"]], [["shown h d h"]], [[]], clipped=lambda p: (Counter(), Counter({"h": 1, "d": 1}))
    )
    assert t.invented == {"clipped": 2, "unknown": 1}
    # without a clip, the same words stay counted
    t = fidelity.classify([reference], [["shown line stays", "made"]], [[]], clipped=lambda p: (Counter(), Counter()))
    assert t.lost == {"unknown": 4}


def test_a_tracked_word_pdftotext_cuts_at_one_of_its_even_gaps_is_letter_spacing_and_no_loss(tmp_path):
    # a name in the index set with its letters 0.1 em apart (1 pt character spacing at 10 pt)
    tracked = b"BT /tiro 10 Tf 1 Tc 72 600 Td (Holloway) Tj ET"
    path = _page_pdf(tmp_path / "tracked.pdf", {100: "plain Holloway"}, after=tracked)
    evenly = fidelity.tracked_words(path)
    assert evenly(0) == {"Holloway": 1}
    t = fidelity.classify([["plain Holloway", "H olloway"]], [["plain Holloway", "Holloway"]], [[]], tracked=evenly)
    assert t.lost == {"letter spacing": 2} and t.invented == {"letter spacing": 1}
    # on a page that sets the name solid, the same pieces stay counted
    t = fidelity.classify([["H olloway"]], [["Holloway"]], [[]], tracked=lambda p: Counter())
    assert t.lost == {"spacing": 2} and t.invented == {"spacing": 1}


def test_a_run_the_page_draws_apart_that_pdftotext_reads_as_one_word_is_letter_spacing_and_no_loss(tmp_path):
    # a font specimen's row: single letters with a space drawn between each, a word space apart,
    # which pdftotext (breaking words by gaps alone) takes for one evenly letter-spaced word
    path = _page_pdf(tmp_path / "specimen.pdf", {100: "sample a \u00e0 \u00e1 \u00e2 here"})
    drawn = fidelity.drawn_apart_words(path)
    assert drawn(0)[fidelity.SCRIPT_CUT.join(["a", "\u00e0", "\u00e1", "\u00e2"])] == 1
    reference, ours = [["sample a\u00e0\u00e1\u00e2 here"]], [["sample a \u00e0 \u00e1 \u00e2 here"]]
    t = fidelity.classify(reference, ours, [[]], drawn_apart=drawn)
    assert t.lost == {"letter spacing": 1} and t.invented == {"letter spacing": 4}
    # glyphs a word space apart with no space drawn: a fraction's ``d x``, 0.227 em apart
    apart = b"BT /tiro 10 Tf 72 600 Td [(d) -227 (x)] TJ ET"
    path = _page_pdf(tmp_path / "gaps.pdf", {100: "sample"}, after=apart)
    t = fidelity.classify([["sample dx"]], [["sample d x"]], [[]], drawn_apart=fidelity.drawn_apart_words(path))
    assert t.lost == {"letter spacing": 1} and t.invented == {"letter spacing": 2}
    # a word set with letter spacing, its letters a word space apart at even gaps, stays counted
    apart = b"BT /tiro 10 Tf 72 600 Td [(t) -300 (h) -300 (e)] TJ ET"
    path = _page_pdf(tmp_path / "tracked.pdf", {100: "sample"}, after=apart)
    t = fidelity.classify([["sample the"]], [["sample t h e"]], [[]], drawn_apart=fidelity.drawn_apart_words(path))
    assert t.lost == {"spacing": 1} and t.invented == {"spacing": 3}
    # letters nearer than a word space with no space drawn between them stay counted
    apart = b"BT /tiro 10 Tf 72 600 Td [(a) -150 (b) -150 (c) -150 (d)] TJ ET"
    path = _page_pdf(tmp_path / "near.pdf", {100: "sample"}, after=apart)
    drawn = fidelity.drawn_apart_words(path)
    assert not drawn(0)[fidelity.SCRIPT_CUT.join("abcd")]
    t = fidelity.classify([["sample abcd"]], [["sample a b c d"]], [[]], drawn_apart=drawn)
    assert t.lost == {"spacing": 1} and t.invented == {"spacing": 4}


def test_a_table_read_back_and_updated_for_some_books_sums_its_all_row_again():
    a = fidelity.classify([["alpha beta gamma"]], [["alpha beta"]], [[]])
    b = fidelity.classify([["delta epsilon"]], [["delta epsilon zeta"]], [[]])
    total = fidelity.Tally()
    total.add(a)
    total.add(b)
    text = fidelity.table([("a.pdf", a), ("b.pdf", b), ("**all**", total)])
    rows = fidelity.recorded_rows(text)
    assert [(n, t.words, dict(t.lost), dict(t.invented)) for n, t in rows] == [
        ("a.pdf", 3, {"unknown": 1}, {}),
        ("b.pdf", 2, {}, {"unknown": 1}),
    ]
    fixed = fidelity.classify([["delta epsilon"]], [["delta epsilon"]], [[]])
    merged = fidelity._merged(rows, [("b.pdf", fixed)])
    assert merged[-1][0] == "**all**" and merged[-1][1].words == 5 and merged[-1][1].invented == {}
    assert fidelity.recorded_rows("| book | words |\n|---|") is None


def test_a_glyph_pdftotext_reads_as_a_control_character_is_a_glyph_map_and_no_loss():
    # a ToUnicode map giving math italic chi the code U+001F: pdftotext writes the control
    # character, MuPDF reads the glyph's name
    t = _one(["the chromatic number \x1fG of the graph, and \x1f alone"], ["the chromatic number χG of the graph, and κ alone"])
    assert t.lost == {"glyph map": 1} and t.invented == {"glyph map": 2}
    # without the control character on pdftotext's page, the same words stay counted
    t = _one(["the chromatic number G of the graph, and alone"], ["the chromatic number χG of the graph, and κ alone"])
    assert t.lost == {"unknown": 1} and t.invented == {"unknown": 2}


def test_a_word_joined_across_a_soft_hyphen_pdftotext_keeps_is_dehyphenation():
    t = _one(["rotate it clockwise or counter\u00ad", "clockwise with the keys"], ["rotate it clockwise or counterclockwise", "with the keys"])
    assert t.lost == {"dehyphenation": 2} and t.invented == {"dehyphenation": 1}
    # inside a line a soft hyphen shows nothing: no word boundary
    t = _one(["see www.emma\u00adsoft.com now"], ["see www.emmasoft.com now"])
    assert not t.lost and not t.invented


def test_a_symbol_alone_pdftotext_reads_as_its_code_letter_is_a_glyph_map_and_no_loss():
    # ⟨ and ⟩ standing alone (a WEB program's module name), a dingbat bullet pdftotext reads
    # as Latin-1's ``ä``: the rest of the line ours, spaces aside
    t = _one(["label h Labels in the block 4 i", "ä Title: a book"], ["label ⟨ Labels in the block 4 ⟩", "➤ Title: a book"])
    assert t.lost == {"glyph map": 3} and not t.invented
    # the line's other words may hold symbols pdftotext read as letters too
    # (and the symbol may stand against punctuation: ``i()``)
    t = _one(["\\dg hword i here", "\\dg hname i() there"], ["\\dg ⟨word⟩ here", "\\dg ⟨name⟩() there"])
    assert t.lost == {"glyph map": 4} and t.invented == {"glyph map": 2}
    # a letter lost on a line that is not ours but for symbols stays counted
    t = _one(["label h Labels in the block"], ["label ⟨ Tables in the block"])
    assert "glyph map" not in t.lost
    # a letter of ours where pdftotext has it is no glyph map, nor is a lost letter against our word
    t = _one(["x h y"], ["x hy y"])
    assert "glyph map" not in t.lost


def test_a_letter_alone_on_a_line_or_with_the_line_mostly_symbols_of_ours_is_no_glyph_map():
    # a line that is little more than the letter would match any symbol of ours
    t = _one(["π", "the rest here"], ["the rest here ."])
    assert "glyph map" not in t.lost
    # most of the line's other letters must be ours as they are, not symbols
    t = _one(["ab cd h ef"], ["+- -+ ⟨ -+"])
    assert "glyph map" not in t.lost


def test_a_prime_pdftotext_reads_as_the_digit_zero_of_its_code_is_a_glyph_map_and_no_loss():
    # cmsy's prime sits at code 0x30: pdftotext reads ``y′′`` as ``y00``, ``X′`` as ``X0``
    t = _one(["so y00 = X0 here"], ["so y′′ = X′ here"])
    assert t.lost == {"glyph map": 2} and t.invented == {"glyph map": 2}
    # as many zeros as primes, on a word ending in a letter: else it stays counted
    for theirs, mine in (("so y00 here", "so y′ here"), ("so 10 here", "so 1′ here")):
        assert "glyph map" not in _one([theirs], [mine]).lost


def test_a_dotless_i_pdftotext_leaves_bare_under_our_accent_is_an_accent_and_no_loss():
    # ``cos\\`\\i``: the dotless i under a grave; pdftotext gives ``cosı``, the page ``così``
    t = _one(["e cosı via"], ["e così via"])
    assert t.lost == {"accent": 1} and t.invented == {"accent": 1}
    # a bare i of ours against a dotless letter of the page's (Turkish ``kırmızı``) stays counted
    t = _one(["a kırmızı b"], ["a kirmizi b"])
    assert "accent" not in t.lost and t.lost == {"unknown": 1}


def test_a_notes_mark_at_the_foot_of_pages_is_furniture_only_where_its_number_stays():
    def body(n: int) -> list[str]:
        return [f"the {w} of page {'x' * n} text" for w in "apple birch cedar daisy elm fern".split()]

    # pdftotext reads each translator's note's mark on a line of its own at the foot of its
    # page, our text with the note: ``(Note 3) The latest one``; the marks run through the
    # chapters, not with the pages, so the digit-blind key ``(note #)`` at six page feet is no
    # footer
    marks = [1, 3, 2, 1, 2, 3]
    reference = [[*body(n), f"(Note {m})", f"The latest one {'y' * n}"] for n, m in enumerate(marks)]
    ours = [[*body(n), f"(Note {m}) The latest one {'y' * n}"] for n, m in enumerate(marks)]
    edges = fidelity.edge_furniture(reference, ours)
    ref, mine = fidelity.drop_furniture_alike(reference[1], ours[1], edges, 1, ours[1])
    t = fidelity.classify([ref], [mine], [[]])
    assert "(Note 3)" in ref and not t.lost and not t.invented
    # marks on three pages running numbered 4, 5, 6 do not advance with the pages either
    reference = [[*body(n), f"(Note {n + 4})", f"The latest one {'y' * n}"] for n in range(3)]
    edges = fidelity.edge_furniture(reference)
    assert fidelity.drop_furniture(reference[1], edges, 1) == reference[1]
    # a footer whose folio advances with the page, and one whose numbers stay (no note mark),
    # are furniture
    for footer in ("Page {} of 9", "Version 2.1 of the Guide"):
        pages = [[*body(n), footer.format(n + 4)] for n in range(3)]
        edges = fidelity.edge_furniture(pages)
        assert fidelity.drop_furniture(pages[1], edges, 1) == body(1)


def test_a_heading_one_extractor_reads_with_a_space_between_cjk_characters_is_the_same_furniture_in_both():
    def body(n: int) -> list[str]:
        return [f"the {w} of page {'x' * n} text" for w in "apple birch cedar daisy elm fern".split()]

    # a chapter's heading atop its page, repeated as the running header of the next pages;
    # pdftotext reads the gap between the heading's label and its title as a space, our text
    # does not (the headers, set smaller, both texts read with it)
    head = "\u7b2c\u4e00\u7ae0 \u6a21\u677f\u529f\u80fd"
    reference = [[head, *body(n)] for n in range(3)]
    ours = [[head.replace(" ", "") if n == 0 else head, *body(n)] for n in range(3)]
    edges = fidelity.edge_furniture(reference, ours)
    ref, mine = fidelity.drop_furniture_alike(reference[0], ours[0], edges, 0, ours[0])
    assert ref == mine == body(0)
    # a space between a CJK character and a Latin letter or a digit stays in the key
    assert fidelity._key("\u7b2c 4 \u7ae0") != fidelity._key("\u7b2c4\u7ae0")


def test_a_dingbat_pdftotext_reads_as_the_digit_of_its_code_is_a_glyph_map_whatever_mupdf_reads(tmp_path):
    import pymupdf

    # a table's check marks in URW's Dingbats without a Unicode map: pdftotext reads their codes,
    # ``3`` and ``7``, and so does MuPDF (our reader gives the font its encoding's map: ✓ ✗);
    # the glyphs are dingbats all the same, the font holds no letter or digit
    doc = pymupdf.open()
    page = doc.new_page()
    font, helvetica, stream = doc.get_new_xref(), doc.get_new_xref(), doc.get_new_xref()
    doc.update_object(font, "<< /Type /Font /Subtype /Type1 /BaseFont /Dingbats >>")
    doc.update_object(helvetica, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    doc.xref_set_key(page.xref, "Resources", f"<< /Font << /FD {font} 0 R /FH {helvetica} 0 R >> >>")
    doc.update_object(stream, "<<>>")
    cells = b"BT /FH 12 Tf 72 700 Td (Title 3) Tj /FD 12 Tf 60 0 Td (3) Tj 40 0 Td (7) Tj ET"
    doc.update_stream(stream, cells)
    doc.xref_set_key(page.xref, "Contents", f"{stream} 0 R")
    path = tmp_path / "marks.pdf"
    doc.save(path)
    symbols = fidelity.symbol_letters(path)
    assert symbols(0) == {"3": 1, "7": 1}
    t = fidelity.classify([["Title 3", "3", "7"]], [["Title 3", "\u2713", "\u2717"]], [[]], symbols=symbols)
    assert t.lost == {"glyph map": 2} and not t.invented


def _helvetica_page(path, content: bytes):
    """A one-page PDF at ``path`` drawing ``content`` (a content stream) with Helvetica as ``/FH``."""
    return _set_page(path, {"FH": "Helvetica"}, content)


def test_a_word_set_solid_pdftotext_cuts_at_a_gap_no_wider_than_its_word_break_is_no_space_and_no_loss(tmp_path):
    # a logo, ``CS`` then ``plain`` 0.09 em after it (pdftotext, measuring otherwise, cuts it);
    # two words of a tight line 0.149 em apart that MuPDF glues; ``M`` and its index ``HAC`` set
    # smaller and touching; a sign made of two glyphs drawn over each other
    text = b"BT /FH 10 Tf 72 700 Td [(CS) -90 (plain)] TJ 0 -20 Td [(tight) -149 (line)] TJ 0 -20 Td (M) Tj"
    path = _helvetica_page(tmp_path / "solid.pdf", text + b" /FH 7 Tf 0 -2 Td [(HAC)] TJ /FH 10 Tf 0 -20 Td [(A) 600 (C)] TJ ET")
    unspaced = fidelity.unspaced_words(path)
    assert unspaced(0)["CSplain"] == 1 and not any(unspaced(0)[w] for w in ("tightline", "MHAC", "AC"))
    reference, ours = ["CS plain", "tight line", "M HAC"], ["CSplain", "tightline", "MHAC"]
    t = fidelity.classify([reference], [ours], [[]], unspaced=unspaced)
    assert t.lost == {"no space": 2, "spacing": 4} and t.invented == {"no space": 1, "spacing": 2}
    assert "no space" in fidelity.NOT_LOST
    # a word the page sets solid that pdftotext also reads whole lends no credit to its pieces of
    # the same word elsewhere (a drop cap ``N`` at three times the size, then ``o``)
    t = fidelity.classify([["N o one", "No one"]], [["No one", "No one"]], [[]], unspaced=lambda p: Counter({"No": 1}))
    assert t.lost == {"spacing": 2} and t.invented == {"spacing": 1}


def test_a_logo_whose_shifted_letter_pdftotext_reads_apart_is_no_space_where_the_page_sets_it_solid(tmp_path):
    # LaTeX's logo: ``L``, a smaller ``A`` raised and tucked back under it, ``T``, a lowered
    # ``E``, ``X``, set solid; below it ``e`` with its exponent ``x``, smaller, after it
    logo = b"BT /FH 10 Tf 1 0 0 1 72 700 Tm (L) Tj /FH 7 Tf 1 0 0 1 74 702.5 Tm (A) Tj /FH 10 Tf"
    logo += b" 1 0 0 1 77.6 700 Tm (T) Tj 1 0 0 1 82.2 697.8 Tm (E) Tj 1 0 0 1 87.7 700 Tm (X) Tj"
    power = b" 1 0 0 1 72 650 Tm (e) Tj /FH 7 Tf 1 0 0 1 77.9 654 Tm (x) Tj ET"
    path = _helvetica_page(tmp_path / "logo.pdf", logo + power)
    shifted = fidelity.shifted_words(path)
    assert shifted(0) == Counter({"LATEX": 1}) and fidelity.unspaced_words(path)(0)["ex"] == 0
    # pdftotext reads the lowered ``E`` on a line of its own, the rest of the logo in two pieces
    reference, ours = ["E", "see LAT X here", "e x"], ["see LATEX here", "ex"]
    t = fidelity.classify([reference], [ours], [[]], unspaced=fidelity.unspaced_words(path), shifted=shifted)
    assert t.lost == {"no space": 3, "spacing": 2} and t.invented == {"no space": 1, "spacing": 1}
    # only as often as the page sets the word so beyond the times pdftotext reads it whole
    t = fidelity.classify([["E LATEX LAT X"]], [["LATEX LATEX"]], [[]], shifted=lambda p: Counter({"LATEX": 1}))
    assert "no space" not in t.lost and t.lost == {"unknown": 3}


def test_a_logos_lowered_letter_pdftotext_reads_on_a_furniture_line_at_the_page_edge_is_no_space():
    # pdftotext reads the logo's lowered ``E`` on the last line of the page; the same lone ``E``
    # ends the next pages too, so the position rule drops it as furniture before words count
    reference = [["see LAT X here", "more text", "E"], ["body", "E"], ["body", "E"]]
    ours = [["see LATEX here", "more text"], ["body"], ["body"]]
    furniture = fidelity.edge_furniture(reference, ours)
    kept = [fidelity.drop_furniture_alike(r, o, furniture, p) for p, (r, o) in enumerate(zip(reference, ours))]
    assert all("E" not in r for r, _ in kept)
    alone = [fidelity.dropped_alone(r, k) for r, (k, _) in zip(reference, kept)]
    assert alone[0] == Counter({"E": 1})
    logo = lambda p: Counter({"LATEX": 1} if p == 0 else {})  # noqa: E731
    t = fidelity.classify([k for k, _ in kept], [o for _, o in kept], [[]] * 3, shifted=logo, alone=alone)
    assert t.lost == {"no space": 2} and t.invented == {"no space": 1}
    # the lone word is a piece only of a word the page sets solid with a glyph off the baseline,
    # and never counted itself: pieces all dropped explain nothing
    t = fidelity.classify([k for k, _ in kept], [o for _, o in kept], [[]] * 3, alone=alone, shifted=lambda p: Counter())
    assert "no space" not in t.lost and t.lost == {"unknown": 2}
    t = fidelity.classify([["text"]], [["E text"]], [[]], shifted=lambda p: Counter({"E": 1}), alone=[Counter({"E": 1})])
    assert "no space" not in t.invented


def test_a_notes_mark_set_small_and_raised_before_a_word_set_solid_is_no_part_of_it(tmp_path):
    # a note's mark ``2``, smaller and raised, right before LaTeX's logo set solid
    mark = b"BT /FH 7 Tf 1 0 0 1 68.2 704 Tm (2) Tj /FH 10 Tf 1 0 0 1 72 700 Tm (L) Tj /FH 7 Tf 1 0 0 1 74 702.5 Tm (A) Tj"
    mark += b" /FH 10 Tf 1 0 0 1 77.6 700 Tm (T) Tj 1 0 0 1 82.2 697.8 Tm (E) Tj 1 0 0 1 87.7 700 Tm (X) Tj ET"
    path = _helvetica_page(tmp_path / "mark.pdf", mark)
    assert fidelity.shifted_words(path)(0) == Counter({"LATEX": 1})
    # an exponent after its symbol stays no word set solid: ``e`` then a smaller raised ``x``
    power = b"BT /FH 10 Tf 1 0 0 1 72 650 Tm (e) Tj /FH 7 Tf 1 0 0 1 77.9 654 Tm (x) Tj ET"
    assert not fidelity.unspaced_words(_helvetica_page(tmp_path / "power.pdf", power))(0)


def test_a_formulas_symbol_and_its_script_set_solid_that_pdftotext_cuts_at_the_script_is_the_same_text(tmp_path):
    import pymupdf

    # ``e`` to the ``x`` and ``4a`` squared in a math font, each script smaller, raised and
    # touching its symbol; a word with a note's mark after it, ``word`` and a raised ``2`` in a
    # text font, set the same way
    doc = pymupdf.open()
    page = doc.new_page()
    math, text, stream = (doc.get_new_xref() for _ in range(3))
    doc.update_object(math, "<< /Type /Font /Subtype /Type1 /BaseFont /CMMI10 >>")
    doc.update_object(text, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    doc.xref_set_key(page.xref, "Resources", f"<< /Font << /FM {math} 0 R /FH {text} 0 R >> >>")
    content = b"BT /FM 10 Tf 1 0 0 1 72 700 Tm (e) Tj /FM 7 Tf 1 0 0 1 76.44 704 Tm (x) Tj"
    content += b" /FM 10 Tf 1 0 0 1 72 650 Tm (4a) Tj /FM 7 Tf 1 0 0 1 81.44 654 Tm (2) Tj"
    content += b" /FH 10 Tf 1 0 0 1 72 600 Tm (word) Tj /FH 7 Tf 1 0 0 1 93.13 604 Tm (2) Tj ET"
    doc.update_object(stream, "<<>>")
    doc.update_stream(stream, content)
    doc.xref_set_key(page.xref, "Contents", f"{stream} 0 R")
    doc.save(tmp_path / "scripts.pdf")
    scripts = fidelity.script_words(tmp_path / "scripts.pdf")
    cut = fidelity.SCRIPT_CUT
    assert scripts(0) == Counter({f"e{cut}x": 1, f"4a{cut}2": 1})
    # pdftotext reads the raised scripts apart, one on a line of its own elsewhere on the page
    reference, ours = ["x", "e", "4a 2", "word 2"], ["ex", "4a2", "word2"]
    t = fidelity.classify([reference], [ours], [[]], scripts=scripts)
    assert t.lost == {"script": 4, "spacing": 2} and t.invented == {"script": 2, "spacing": 1}
    assert "script" in fidelity.NOT_LOST
    # cut elsewhere than at the script, the word stays counted
    t = fidelity.classify([["4 a2"]], [["4a2"]], [[]], scripts=scripts)
    assert t.lost == {"spacing": 2}
    # the other way round: we cut the symbol from its index where pdftotext reads one word
    t = fidelity.classify([["Zi and Xi"]], [["Z i and X i"]], [[]], scripts=lambda p: Counter({f"Z{cut}i": 1}))
    assert t.lost == {"script": 1, "spacing": 1} and t.invented == {"script": 2, "spacing": 2}


def test_a_spacing_accent_before_a_symbol_that_pdftotext_reads_as_its_combining_form_after_it_is_an_accent():
    # a hat over B and over theta: MuPDF reads the spacing circumflex before the symbol,
    # pdftotext the symbol and the combining circumflex (no word character) after it
    t = _one(["the estimate B\u0302 and \u03b8\u0302 here"], ["the estimate \u02c6B and \u02c6\u03b8 here"])
    assert t.lost == {"accent": 2} and t.invented == {"accent": 2}
    # the hat read on a line of its own: the combining accent after a symbol of pdftotext's
    t = _one(["the estimate B\u0302 here"], ["\u02c6", "the estimate B here"])
    assert not t.lost and t.invented == {"accent": 1}
    # an accent pdftotext's page holds in no form, or after another word, stays counted
    assert _one(["the estimate B here"], ["the estimate \u02c6B here"]).invented == {"unknown": 1}
    t = _one(["the estimate C\u0302 B"], ["the estimate C \u02c6B"])
    assert "accent" not in t.invented and t.invented["unknown"] == 1


def test_a_furniture_line_dropped_from_one_text_is_dropped_from_the_other_as_the_same_line_first():
    # a table of statistics, each row ``min:…, max:…, pages:…`` with its own numbers, rows at
    # the page edges on every page: pdftotext reads the folio and a footer last, so one row
    # fewer stands at its page's edge than at ours; the row dropped from ours alone is dropped
    # from pdftotext's as that row, not as the first row of its shape
    def page(n, tail=()):
        rows = [f"name {w}{n}" for w in ("alpha", "beta", "gamma", "delta", "omega")]
        lines = [rows[0], "min:1, max:5, pages:9", rows[1], "min:2, max:6, pages:9", rows[2]]
        return [*lines, "min:3, max:7, pages:9", rows[3], "min:4, max:8, pages:9", rows[4], *tail, "min:9, max:10, pages:9"]

    reference = [page(n, [str(10 + n), "Statistics"]) for n in range(3)]
    ours = [page(n) for n in range(3)]
    furniture = fidelity.edge_furniture(reference, ours)
    ref, mine = fidelity.drop_furniture_alike(reference[1], ours[1], furniture, 1)
    assert "min:4, max:8, pages:9" not in ref and "min:2, max:6, pages:9" in ref
    assert not fidelity.classify([ref], [mine], [[]]).lost


def test_letters_of_mixed_sizes_on_one_baseline_set_solid_are_no_space_and_a_raised_script_is_not(tmp_path):
    # each letter in another font and size, on one baseline, touching: ``Hi``; a capital then
    # smaller capitals, ``CTRL``; an exponent, smaller and raised, after its symbol
    text = b"BT /FH 10 Tf 1 0 0 1 72 700 Tm (H) Tj /FH 12 Tf 1 0 0 1 79.22 700 Tm (i) Tj"
    text += b" /FH 10 Tf 1 0 0 1 72 650 Tm (C) Tj /FH 8 Tf 1 0 0 1 79.22 650 Tm (TRL) Tj"
    text += b" /FH 10 Tf 1 0 0 1 72 600 Tm (e) Tj /FH 7 Tf 1 0 0 1 77.56 604 Tm (x) Tj ET"
    path = _helvetica_page(tmp_path / "mixed.pdf", text)
    unspaced = fidelity.unspaced_words(path)
    assert unspaced(0) == Counter({"Hi": 1, "CTRL": 1})
    t = fidelity.classify([["H i", "C TRL", "e x"]], [["Hi", "CTRL", "ex"]], [[]], unspaced=unspaced)
    assert t.lost == {"no space": 4, "spacing": 2} and t.invented == {"no space": 2, "spacing": 1}


def test_symbol_letters_read_the_page_as_our_reader_where_a_fonts_unicode_map_gives_glyph_codes(tmp_path):
    from tests.test_text_fidelity_glyphs import _page_with_symbols

    # ``see ⟨ and ⟩ here``: the brackets' map says ``h`` and ``i`` (their codes in the font),
    # which pdftotext reads; MuPDF, as our reader reads it, the brackets
    path = tmp_path / "symbols.pdf"
    path.write_bytes(_page_with_symbols("<22> <0068> <23> <0069>", inner=" and "))
    assert fidelity.symbol_letters(path)(0) == {"h": 1, "i": 1}


def _page_body(n: int) -> list[str]:
    """Six body lines of page ``n``, each line's key its own (``_key``)."""
    return [f"the {w} of page {'x' * n} text" for w in "apple birch cedar daisy elm fern".split()]


def test_an_appendix_header_printed_on_one_page_over_its_heading_is_furniture():
    # appendices lettered A, B, C headed by their letter and title; appendix B opens mid-page 1
    # under its own header, printed there only, which our normaliser removed
    headers = ["A. Own Styles", "B. Support and Reports", "C. References"]
    pages = [[header, *_page_body(n)] for n, header in enumerate(headers)]
    pages[1][4:4] = [headers[1]]
    edges = fidelity.edge_furniture(pages, pages)
    assert fidelity.drop_furniture_alike(pages[1], pages[1][1:], edges, 1, pages[1]) == (pages[1][1:],) * 2
    # a line opening with an initial, its words named once: no header
    pages[1] = ["B. Smith wrote these notes", *_page_body(1)]
    assert fidelity.drop_furniture(pages[1], fidelity.edge_furniture(pages, pages), 1) == pages[1]


def test_a_glyph_pdftotext_reads_as_a_c1_control_character_is_a_glyph_map_and_no_loss():
    # a text font in the Cork encoding whose ToUnicode map gives each code its own value: the
    # capital Č at 0x83 comes out U+0083 from pdftotext, while MuPDF reads the glyph's name
    t = _one(["improvements by \x83ibej and \x92krekovski"], ["improvements by Čibej and Škrekovski"])
    assert t.lost == {"glyph map": 2} and t.invented == {"glyph map": 2}
    # without the control character on pdftotext's page, the same words stay counted
    t = _one(["improvements by ibej and krekovski"], ["improvements by Čibej and Škrekovski"])
    assert t.lost == {"unknown": 2} and t.invented == {"unknown": 2}


def test_a_glyph_pdftotext_reads_as_a_control_character_after_a_letter_is_a_glyph_map_and_no_loss():
    # kappa as an exponent set right after t: our ``tκ`` is pdftotext's ``t``, the control
    # character it gives kappa and nothing more
    t = _one(["the polynomial t\x14(G) of the graph"], ["the polynomial tκ(G) of the graph"])
    assert t.lost == {"glyph map": 1} and t.invented == {"glyph map": 1}
    # a word after the control character is no such glyph: ``tκG`` would be one word of ours
    t = _one(["the polynomial t\x14G of the graph"], ["the polynomial tκ G of the graph"])
    assert t.lost.get("glyph map", 0) == 0
    # without the control character, the same words stay counted
    t = _one(["the polynomial t(G) of the graph"], ["the polynomial tκ(G) of the graph"])
    assert t.lost == {"unknown": 1} and t.invented == {"unknown": 1}


def test_a_one_letter_name_in_brackets_pdftotext_reads_as_letters_is_a_glyph_map():
    # ``⟨n⟩`` read ``hni`` whole: two symbols in a word of three, the name's one letter between
    t = _one(["the example hni on page hqi here"], ["the example ⟨n⟩ on page ⟨q⟩ here"])
    assert t.lost == {"glyph map": 2} and t.invented == {"glyph map": 2}
    # the same letters around ASCII brackets or two closing brackets stay counted
    t = _one(["the hni and hqi here"], ["the (n) and ⟩q⟩ here"])
    assert t.lost.get("glyph map", 0) == 0 and t.lost["unknown"] == 2


def test_a_heading_one_extractor_reads_in_one_line_keeps_its_pieces_that_match_the_next_header():
    # the chapter opens on page 0 under its number and title, which pdftotext reads as one line
    # and we as two; page 1's running header prints the number and the title on two lines, in
    # both texts, so each of our pieces alone has a header's key
    header = ["88", "Chapter Seven", "Drawing Tools", *_page_body(1)]
    reference = [["Chapter Seven Drawing Tools", *_page_body(0)], header]
    ours = [["Chapter Seven", "Drawing Tools", *_page_body(0)], header]
    edges = fidelity.edge_furniture(reference, ours)
    assert fidelity.drop_furniture_alike(reference[0], ours[0], edges, 0, ours[0]) == (reference[0], ours[0])
    # the header's pieces on page 1 stay cut from both
    assert fidelity.drop_furniture_alike(header, header, edges, 1, header) == (_page_body(1),) * 2
    # a line the other text keeps whole whose own key stands at a page edge nearby (an example's
    # lines repeated at the foot of its pages) is furniture: the pieces stay cut
    body = _page_body(0)
    foot = [[*body, "3", "Then it ends."], [*_page_body(1), "3", "Then it ends."]]
    whole = [[*body[:3], "3 Then it ends.", *body[3:]], [*_page_body(1), "3 Then it ends."]]
    edges = fidelity.edge_furniture(foot, whole)
    assert fidelity.drop_furniture_alike(foot[0], whole[0], edges, 0)[0] == body


def _glyph_ids(text: str, shift: int = 29) -> tuple[str, dict[str, str]]:
    """``text`` as pdftotext writes a TrueType CID font without a Unicode map, each character
    its glyph id in the Macintosh glyph order (``a`` is glyph 68, written ``D``; the space, the
    full stop and the digits, ids under 32, dropped), and the font's ``cmap`` read backwards."""
    ids = {chr(c - shift): chr(c) for c in range(0x20, 0x7F)}
    return "".join(chr(ord(ch) - shift) for ch in text if ord(ch) - shift >= 0x20), ids


def test_glyph_ids_pdftotext_reads_of_a_truetype_cid_font_without_a_unicode_map_are_a_glyph_map():
    theirs, ids = _glyph_ids("the user's manual, version 2.4.10")
    assert theirs == "WKHXVHUVPDQXDOYHUVLRQ"
    ours = ["the user's manual, version 2.4.10 here"]
    t = fidelity.classify([[theirs, "here"]], [ours], [[]], glyph_ids=lambda p: ids)
    # every word of both texts, the digits pdftotext dropped among them
    assert t.lost == {"glyph map": 1} and t.invented == {"glyph map": 8}
    assert "glyph map" in fidelity.NOT_LOST


def test_a_word_of_ours_unlike_the_glyph_ids_read_through_the_fonts_map_stays_counted():
    theirs, ids = _glyph_ids("the package manager")
    t = fidelity.classify([[theirs]], [["the packing manager"]], [[]], glyph_ids=lambda p: ids)
    assert t.invented.get("glyph map", 0) == 2 and t.invented["unknown"] == 1
    # without the font's map, nothing is read through it
    t = fidelity.classify([[theirs]], [["the package manager"]], [[]])
    assert "glyph map" not in t.invented


def _set_page(path: Path, fonts: dict[str, str], content: bytes) -> Path:
    """A one-page PDF at ``path`` whose content stream is ``content``, its fonts the standard
    Type 1 fonts ``fonts`` names (resource name: base font), not embedded."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    names = []
    for name, base in fonts.items():
        xref = doc.get_new_xref()
        doc.update_object(xref, f"<< /Type /Font /Subtype /Type1 /BaseFont /{base} >>")
        names.append(f"/{name} {xref} 0 R")
    doc.xref_set_key(page.xref, "Resources", f"<< /Font << {' '.join(names)} >> >>")
    stream = doc.get_new_xref()
    doc.update_object(stream, "<<>>")
    doc.update_stream(stream, content)
    doc.xref_set_key(page.xref, "Contents", f"{stream} 0 R")
    doc.save(path)
    return path


def test_an_index_mupdf_reads_on_a_line_of_its_own_under_an_exponent_is_a_script_of_its_symbol(tmp_path):
    # ``J`` with an exponent ``*`` above and the index ``i1`` below, both touching it: MuPDF reads
    # the index on a line of its own, so we cut ``J`` from it where pdftotext reads ``Ji1``
    def page(x: float) -> Path:
        content = b"BT /FM 10 Tf 1 0 0 1 72 700 Tm (J) Tj /FM 7 Tf 1 0 0 1 75.9 705 Tm (*) Tj"
        content += b" 1 0 0 1 %.1f 697 Tm (i1) Tj /FM 10 Tf 1 0 0 1 95 700 Tm (= XY) Tj ET" % x
        return _set_page(tmp_path / f"stacked{x}.pdf", {"FM": "CMMI10"}, content)

    scripts = fidelity.script_words(page(75.9))
    assert scripts(0) == Counter({f"J{fidelity.SCRIPT_CUT}i1": 1})
    t = fidelity.classify([["Ji1 = XY"]], [["J*", "i1", "= XY"]], [[]], scripts=scripts)
    assert t.lost == {"script": 1} and t.invented == {"script": 2}
    # an index set a space after its symbol is none of its scripts: the cut stays counted
    scripts = fidelity.script_words(page(80.0))
    assert not scripts(0)
    t = fidelity.classify([["Ji1 = XY"]], [["J*", "i1", "= XY"]], [[]], scripts=scripts)
    assert t.lost == {"spacing": 1} and t.invented == {"spacing": 2}


def test_two_glyphs_drawn_one_over_the_other_read_in_another_order_are_an_accent_and_no_loss(tmp_path):
    # a hat (here a ``b``, as a math extension font's wide hat is read) drawn first, raised over
    # the ``B`` after it, then a smaller ``t``: MuPDF reads ``bBt``, pdftotext by left edges ``Bbt``
    def page(x: float) -> Path:
        content = b"BT /F1 10 Tf 1 0 0 1 %.1f 703 Tm (b) Tj 1 0 0 1 72 700 Tm (B) Tj" % x
        content += b" /F1 7 Tf 1 0 0 1 78.1 698 Tm (t) Tj ET"
        return _set_page(tmp_path / f"hat{x}.pdf", {"F1": "Times-Italic"}, content)

    stacked = fidelity.stacked_words(page(72.5))
    assert stacked(0) == Counter({("bBt", 0): 1})
    t = fidelity.classify([["see Bbt here"]], [["see bBt here"]], [[]], stacked=stacked)
    assert t.lost == {"accent": 1} and t.invented == {"accent": 1}
    # or pdftotext reads the hat as a word of its own
    t = fidelity.classify([["b", "see Bt here"]], [["see bBt here"]], [[]], stacked=stacked)
    assert t.lost == {"accent": 2} and t.invented == {"accent": 1}
    # the same letters side by side, one after the other, stay counted
    stacked = fidelity.stacked_words(page(60.0))
    assert not stacked(0)
    t = fidelity.classify([["see Bbt here"]], [["see bBt here"]], [[]], stacked=stacked)
    assert t.lost == {"unknown": 1} and t.invented == {"unknown": 1}
