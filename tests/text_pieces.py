"""Hypothesis text built from the pieces tiktoken's pre-tokenizer treats specially.

Letters (Latin, CJK, Arabic digits), a combining mark, emoji, digits runs, every kind of space and
line break (NBSP, U+2028, a control separator), contractions, and the punctuation its pieces swallow
(``/`` after a newline under o200k). The tests of every cut rule (chunker, threads, validator) draw
from this one alphabet, so a trap found for one rule is tried on all.
"""

from __future__ import annotations

from hypothesis import strategies as st

PIECES = (
    "a", "Z", "Zq", "7", "12345", "é", "日", "😀", "\u0301", "_", " ", "  ", "\n", "\n\n", "\r",
    "\r\n", "\t", ".", "!", ",", "'s", "'", "/", "-", "(", "١", "\u00a0", "\u2028", "\x1c",
)  # fmt: skip
"""The pieces a generated text is made of."""


def texts(max_pieces: int = 60) -> st.SearchStrategy[str]:
    """Texts of up to ``max_pieces`` pieces of ``PIECES``."""
    return st.lists(st.sampled_from(PIECES), max_size=max_pieces).map("".join)
