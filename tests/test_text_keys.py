"""The structure signals match titles with one pair of text keys (``chunking.structure.kinds``),
not a private copy each (issue 11: one home for each rule)."""

from __future__ import annotations

import re
from pathlib import Path

from chunking.structure.kinds import compact_key, words_key
from chunking.structure.typography import _key as typography_key

STRUCTURE = Path(__file__).resolve().parent.parent / "chunking" / "structure"


def test_words_key_keeps_words_drops_punctuation_and_case():
    assert words_key("Chapter 3: Objects, their modes") == "chapter 3 objects their modes"
    assert words_key("CHAPTER 3 — OBJECTS\u00a0THEIR\tMODES") == "chapter 3 objects their modes"
    assert words_key("snake_case  Straße") == "snake_case strasse"
    assert words_key(" ... ") == ""


def test_compact_key_drops_every_space_and_case():
    assert compact_key("Intro duction") == compact_key("INTRODUCTION") == "introduction"
    assert compact_key("I N D E X\u2003\n") == "index"


def test_typography_key_spells_ligatures_out_first():
    assert typography_key("Ef\ufb01cient  Code") == compact_key("Efficient Code")


def test_no_structure_module_defines_its_own_title_key():
    own = [path.name for path in STRUCTURE.glob("*.py") if path.name != "kinds.py"
           if re.search(r"""re\.sub\(r["']\[\^\\w(\\s)?\]\+?["']""", path.read_text(encoding="utf-8"))]
    assert own == []
