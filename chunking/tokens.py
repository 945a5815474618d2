"""Stage 4 (tokenize): the book's canonical token stream, once per (book, encoding).

Contract: ``tokenize(book, encoding)`` encodes ``book.text`` with tiktoken's ``encode_ordinary``
(special tokens are never recognised) and returns a ``TokenizedBook`` holding

* ``tokens``: the token ids, a numpy ``uint32`` array (``n_tokens`` long);
* ``char_starts``: numpy ``int64``, ``n_tokens + 1`` long: where token ``i`` starts in
  ``book.text``; the last entry is ``len(book.text)``.

The text is encoded in a few large pieces cut at every heading's ``char_offset``, so every place
a chunk may be fenced is a token boundary at both fence levels, and a chunk that starts or ends at
a fence re-encodes exactly as the stream has it. Token offsets are computed without per-token
Python work: a per-vocabulary byte-length table gives each token's byte length, their cumulative
sum gives byte offsets, and the UTF-8 continuation bytes of the text turn byte offsets into
character offsets (identity for ASCII text).

A token boundary can fall inside a multi-byte character (BPE splits some characters into byte
tokens). ``char_starts`` then holds the offset *after* that character and ``legal[i]`` is False:
no chunk may start or end there (rule 6: never split a character).
"""

from __future__ import annotations

import bisect
import functools
from dataclasses import dataclass, field

import numpy as np

from .encodings import get_encoding
from .models import CHAPTER_LEVEL_KINDS, Book, Page


@functools.lru_cache(maxsize=None)
def token_byte_lengths(encoding: str) -> np.ndarray:
    """Return the UTF-8 byte length of every token id of ``encoding`` (0 for unused ids).

    Built once per encoding and process, so turning a token array into byte offsets is one
    numpy gather.

    Args:
        encoding (str): a tiktoken encoding name.

    Returns:
        np.ndarray: ``int64`` array of length ``n_vocab``.
    """
    enc = get_encoding(encoding)
    lengths = np.zeros(enc.n_vocab, dtype=np.int64)
    ranks = getattr(enc, "_mergeable_ranks", None)
    if isinstance(ranks, dict):
        # NOTE: tiktoken keeps the vocabulary as {token bytes: id}; reading it is ~3x faster than
        # decoding 100k-200k ids one by one (its decode_tokens_bytes is a Python loop too).
        lengths[np.fromiter(ranks.values(), dtype=np.int64, count=len(ranks))] = np.fromiter(
            map(len, ranks), dtype=np.int64, count=len(ranks))
        return lengths
    for i in range(enc.n_vocab):  # public API fallback, if tiktoken ever hides the ranks
        try:
            lengths[i] = len(enc.decode_single_token_bytes(i))
        except KeyError:
            pass
    return lengths


@dataclass(frozen=True, eq=False)
class TokenizedBook:
    """A book's canonical token stream with its character offsets and page mapping.

    Attributes:
        book (Book): the book whose ``text`` was encoded.
        encoding (str): the tiktoken encoding name.
        tokens (np.ndarray): ``uint32`` token ids.
        char_starts (np.ndarray): ``int64``, ``n_tokens + 1`` entries; the start of each token in
            ``book.text`` and, last, ``len(book.text)``.
        legal (np.ndarray): ``bool``, ``n_tokens + 1`` entries; False where a token boundary
            falls inside a multi-byte character (no chunk may be cut there).
        fence_tokens (dict[str, np.ndarray]): per fence level (``chapter``/``section``), the
            sorted token indices where a fenced segment starts (0 excluded, ``n_tokens`` excluded).
        text_pages (tuple[Page, ...]): the pages that hold text (``char_end > char_start``).
    """

    book: Book
    encoding: str
    tokens: np.ndarray
    char_starts: np.ndarray
    legal: np.ndarray
    fence_tokens: dict[str, np.ndarray]
    text_pages: tuple[Page, ...] = field(repr=False)
    _page_ends: list[int] = field(repr=False)
    _fence_chars: frozenset[int] = field(repr=False)
    _page_numbers: list[int] = field(repr=False)

    @property
    def n_tokens(self) -> int:
        """Number of tokens in the canonical stream."""
        return int(self.tokens.shape[0])

    def token_at_char(self, c: int) -> int:
        """Return the index of the token that contains character ``c`` (``n_tokens`` at the end).

        Args:
            c (int): a character offset in ``book.text`` (``0 <= c <= len(text)``).
        """
        return int(self.char_starts.searchsorted(c, side="right")) - 1 if c < len(self.book.text) \
            else self.n_tokens

    def is_fence_char(self, c: int) -> bool:
        """True when character offset ``c`` starts a heading (the text was encoded apart there)."""
        return c in self._fence_chars

    def page_boundary_token(self, page_index: int) -> int:
        """Return the largest token boundary ``b`` such that every token before ``b`` ends on or
        before the page ``text_pages[page_index]`` (its trailing separator counts for it).

        Args:
            page_index (int): index into ``text_pages``.
        """
        return int(self.char_starts.searchsorted(self._page_ends[page_index] + 1, side="right")) - 1

    def last_page_index_within(self, page_index: int, pages: int) -> int:
        """Index of the last text page whose number is below ``text_pages[page_index].number +
        pages`` (a span of ``pages`` physical pages, empty pages included)."""
        limit = self.text_pages[page_index].number + pages - 1
        return bisect.bisect_right(self._page_numbers, limit) - 1

    def page_index_of_char(self, c: int) -> int:
        """Index into the non-empty pages of the page holding character ``c``.

        A page separator belongs to the page it introduces (the seed's convention).
        """
        return min(bisect.bisect_right(self._page_ends, c), len(self._page_ends) - 1)

    def page_of_char(self, c: int) -> int:
        """Return the 1-based physical page number holding character ``c``.

        A page separator (the ``"\\n"`` between two pages) counts for the page it introduces.
        Books without any text report page 1.

        Args:
            c (int): a character offset in ``book.text``.
        """
        if not self.text_pages:
            return 1
        return self.text_pages[self.page_index_of_char(c)].number


def _fence_offsets(book: Book) -> dict[str, list[int]]:
    """Character offsets where a chunk must be cut, per fence level (parts always fence)."""
    chapter = sorted({h.char_offset for h in book.headings if h.kind == "part" or h.kind in CHAPTER_LEVEL_KINDS})
    section = sorted({h.char_offset for h in book.headings})
    return {"chapter": chapter, "section": section}


def _char_offsets(text: str, byte_starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Turn byte offsets of token boundaries into character offsets plus a legality mask."""
    if text.isascii():
        return byte_starts, np.ones(byte_starts.shape[0], dtype=bool)
    raw = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    # NOTE: a UTF-8 continuation byte is 0b10xxxxxx; the character offset of byte p is p minus
    # the continuation bytes before it. Only their positions are kept (sparse for most books).
    continuation = np.flatnonzero((raw & 0xC0) == 0x80)
    del raw
    before = continuation.searchsorted(byte_starts, side="left")
    inside = np.zeros(byte_starts.shape[0], dtype=bool)
    hit = before < continuation.shape[0]
    inside[hit] = continuation[before[hit]] == byte_starts[hit]
    # NOTE: for a boundary inside a character, the count of lead bytes before it already
    # includes that character's lead, so it maps to the next character start (rounded up).
    # In place: the byte offsets are not needed afterwards (keeps peak memory down).
    byte_starts -= before
    return byte_starts, ~inside


def tokenize(book: Book, encoding: str = "cl100k_base") -> TokenizedBook:
    """Encode a book's canonical text once into a token stream with exact character offsets.

    Args:
        book (Book): the book (its ``text``, ``pages`` and ``headings`` are used).
        encoding (str): tiktoken encoding name. Defaults to ``"cl100k_base"``.

    Returns:
        TokenizedBook: tokens, ``char_starts``, legality mask, fence token indices, page mapping.

    Raises:
        PolicyError: the encoding is unknown or not available offline.
    """
    enc = get_encoding(encoding)
    text = book.text
    fences = _fence_offsets(book)
    cuts = [c for c in fences["section"] if 0 < c < len(text)]
    bounds = [0, *cuts, len(text)]
    # NOTE: encode_to_numpy with no special tokens allowed and none disallowed is encode_ordinary
    # (special-token text is encoded as text) returning a uint32 array without a Python list.
    parts = [enc.encode_to_numpy(text[a:b], allowed_special=set(), disallowed_special=())
             for a, b in zip(bounds, bounds[1:])]
    tokens = np.concatenate(parts).astype(np.uint32, copy=False) if parts else np.zeros(0, dtype=np.uint32)
    del parts
    byte_starts = np.zeros(tokens.shape[0] + 1, dtype=np.int64)
    np.cumsum(token_byte_lengths(encoding).take(tokens), out=byte_starts[1:])
    char_starts, legal = _char_offsets(text, byte_starts)
    # NOTE: side="right" - 1: boundaries inside a character share the next character's offset and
    # come before the legal boundary at that offset; the fence is the legal one.
    fence_tokens = {
        level: np.searchsorted(char_starts, np.asarray([c for c in offs if 0 < c < len(text)], dtype=np.int64),
                               side="right") - 1
        for level, offs in fences.items()
    }
    pages = [p for p in book.pages if p.char_end > p.char_start]
    return TokenizedBook(
        book=book,
        encoding=encoding,
        tokens=tokens,
        char_starts=char_starts,
        legal=legal,
        fence_tokens={k: np.unique(v).astype(np.int64) for k, v in fence_tokens.items()},
        text_pages=tuple(pages),
        _page_ends=[p.char_end for p in pages],
        _fence_chars=frozenset(cuts),
        _page_numbers=[p.number for p in pages],
    )
