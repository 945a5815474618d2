"""The fidelity bench's classifier (bench/fidelity.py, issue 25): each difference between
pdftotext's page and ours is counted once, under the cause that explains it."""

from __future__ import annotations

import sys
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
    t = fidelity.classify([["first page ends hyphen-"], ["ated here"]],
                          [["first page ends hyphenated"], ["here"]], [[], []])
    assert t.lost == {"dehyphenation": 2} and t.invented == {"dehyphenation": 1}


def test_a_name_split_at_a_spacing_accent_is_an_accent():
    t = _one(["works of Br\u00a8oker"], ["works of Bröker"])
    assert t.lost == {"accent": 2} and t.invented == {"accent": 1}


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


def test_words_missing_for_no_known_reason_are_unknown():
    t = _one(["one two three four"], ["one four"])
    assert t.lost == {"unknown": 2} and t.invented["unknown"] == 0


def test_repeated_edge_lines_are_furniture_for_both_texts_and_bare_folios_too():
    words = "apple birch cedar daisy elm fern grape hazel iris juniper kale lime".split()
    pages = [[f"Running Title {i}", *(f"the {words[i]} said {words[k]}" for k in range(5)), f"{i}"]
             for i in range(1, 9)]
    furniture = fidelity.edge_furniture(pages)
    assert fidelity.drop_furniture(pages[0], furniture) == pages[0][1:-1]
