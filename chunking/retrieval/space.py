"""Passage lookup, part 1: a book's text in the *search space* (letters and digits only, NFKC,
case-folded), indexed by rare n-grams, with its sentence starts.

``SearchSpace.build(book)`` is built once per book and reused (callers cache it); every position of
the normalised text maps back to ``book.text`` through ``SearchSpace.index``, so lookups never use
``str.find`` on chunk text. ``chunking.retrieval.align`` aligns passages in it and
``chunking.retrieval.locate`` reports what was found.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..models import Book
from ..rules import next_sentence_starts

ANCHOR_LEN = 12
"""Characters of the search space per anchor n-gram (about two words)."""

ANCHOR_STEP = 6
"""The book's n-grams are indexed every this many positions: any exact run of
``ANCHOR_LEN + ANCHOR_STEP - 1`` characters shared with the passage is guaranteed an anchor."""

_HASH_BASE = np.uint64(1_000_003)
_CONTEXT_CHARS = 400


def _char_map(ch: str) -> str:
    """The search-space form of one character: NFKC, case-folded, letters and digits only."""
    return "".join(c for c in unicodedata.normalize("NFKC", ch).casefold() if c.isalnum())


def normalise(text: str) -> tuple[str, np.ndarray]:
    """Map ``text`` into the search space.

    Args:
        text (str): any text (a whole book or a passage).

    Returns:
        tuple[str, np.ndarray]: the normalised string and an int64 array of the same length giving,
        for each of its characters, the offset in ``text`` it comes from (a ligature such as
        ``"ﬁ"`` yields two characters with the same offset).
    """
    if not text:
        return "", np.zeros(0, dtype=np.int64)
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    # NOTE: vectorised over the distinct code points (a few hundred per book): no per-character
    # Python loop over the book.
    uniq, inverse = np.unique(codes, return_inverse=True)
    mapped = [_char_map(chr(int(c))) for c in uniq]
    lengths = np.array([len(m) for m in mapped], dtype=np.int64)
    first = np.array([ord(m[0]) if m else 0 for m in mapped], dtype=np.uint32)
    counts = lengths[inverse]
    index = np.repeat(np.arange(len(codes), dtype=np.int64), counts)
    out = np.repeat(first[inverse], counts)
    long_codes = [i for i, m in enumerate(mapped) if len(m) > 1]
    if long_codes:
        ends = np.cumsum(counts)
        for pos in np.nonzero(np.isin(inverse, long_codes))[0]:
            m = mapped[inverse[pos]]
            start = ends[pos] - len(m)
            out[start : start + len(m)] = [ord(c) for c in m]
    return out.astype("<u4").tobytes().decode("utf-32-le"), index


def _ngram_hashes(norm: str, positions: np.ndarray) -> np.ndarray:
    """Polynomial hashes (mod 2**64) of the ``ANCHOR_LEN``-grams of ``norm`` starting at ``positions``."""
    codes = np.frombuffer(norm.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    h = np.zeros(len(positions), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(ANCHOR_LEN):
            h = h * _HASH_BASE + codes[positions + j]
    return h


@dataclass
class SearchSpace:
    """One book prepared for passage lookup; build once per book and reuse (callers cache it).

    Attributes:
        book (Book): the book.
        norm (str): the book's text in the search space.
        index (np.ndarray): ``index[i]`` = offset in ``book.text`` of ``norm[i]``.
        anchor_hashes (np.ndarray): sorted hashes of the n-grams at every ``ANCHOR_STEP``-th position.
        anchor_positions (np.ndarray): the ``norm`` position of each hash, same order.
        sentence_starts (np.ndarray): offsets in ``book.text`` where sentences start (0 included).
    """

    book: Book
    norm: str
    index: np.ndarray
    anchor_hashes: np.ndarray
    anchor_positions: np.ndarray
    sentence_starts: np.ndarray

    @classmethod
    def build(cls, book: Book) -> "SearchSpace":
        """Normalise ``book.text``, index its n-grams and find its sentence starts."""
        norm, index = normalise(book.text)
        positions = np.arange(0, max(len(norm) - ANCHOR_LEN + 1, 0), ANCHOR_STEP, dtype=np.int64)
        hashes = _ngram_hashes(norm, positions)
        order = np.argsort(hashes, kind="stable")
        starts = sentence_starts(book.text, [h.char_offset for h in book.headings])
        return cls(book, norm, index, hashes[order], positions[order], starts)


def sentence_starts(text: str, breaks: Sequence[int] = ()) -> np.ndarray:
    """Offsets in ``text`` where sentences start, sorted and distinct.

    A sentence starts at 0, where ``chunking.rules.next_sentence_starts`` puts one (after a
    sentence or paragraph end and its whitespace: the ends ``snap`` and the scorecard use, CJK
    ``。！？`` included), and at every offset in ``breaks`` (pass the headings' offsets: a heading
    line has no full stop but ends the sentence before it).
    """
    cuts = next_sentence_starts(text)
    extra = [b for b in breaks if 0 < b < len(text)]
    return np.unique(np.array([0, *cuts, *extra], dtype=np.int64))


def edge_context(space: SearchSpace, start: int, end: int) -> tuple[str, str]:
    """The sentence parts just outside ``[start, end)`` (at most ``_CONTEXT_CHARS`` each).

    Returns:
        tuple[str, str]: text from the start of the sentence holding ``start - 1`` up to ``start``
        (the head a boundary cut off, or the previous sentence), and text from ``end`` to the end
        of the sentence holding ``end``.
    """
    text, starts = space.book.text, space.sentence_starts
    before = ""
    if start > 0:
        s = int(starts[np.searchsorted(starts, start - 1, side="right") - 1])
        before = text[max(s, start - _CONTEXT_CHARS) : start]
    after = ""
    if end < len(text):
        j = np.searchsorted(starts, end, side="right")
        e = int(starts[j]) if j < len(starts) else len(text)
        after = text[end : min(e, end + _CONTEXT_CHARS)]
    return before.strip(), after.strip()
