"""Stage 4 (tokenize): the book's canonical token stream, once per (book, encoding).

Contract: ``tokenize(book, encoding)`` encodes ``book.text`` with tiktoken's ``encode_ordinary``
(special tokens are never recognised) and returns a ``TokenizedBook`` holding

* ``tokens``: the token ids, a numpy ``uint32`` array (``n_tokens`` long);
* ``char_starts``: numpy ``int32`` (``int64`` for texts of 2 GiB and more), ``n_tokens + 1``
  long: where token ``i`` starts in ``book.text``; the last entry is ``len(book.text)``.

The text is encoded in a few large pieces cut at every heading's ``char_offset``, so every place
a chunk may be fenced is a token boundary at both fence levels, and a chunk that starts or ends at
a fence re-encodes exactly as the stream has it. Token offsets are computed without per-token
Python work: a per-vocabulary byte-length table gives each token's byte length, their cumulative
sum gives byte offsets, and the UTF-8 continuation bytes of the text turn byte offsets into
character offsets (identity for ASCII text).

One encoder (``_encode``) does this for ``tokenize`` and ``retokenize``. With several workers
(``chunking.cores``) it groups the pieces into one run per thread, each starting at a heading or
at a *safe newline* (a letter or digit, a newline, a letter or digit: for ``SAFE_SPLIT_ENCODINGS``
a cut there leaves every token as it is, ``is_safe_cut``), and encodes the runs on threads
(tiktoken releases the GIL while it encodes); the tokens do not depend on the number of threads.

Memory: only the three result arrays are book-sized. Each piece's tokens go straight into the
result array, and offsets are computed in fixed-size blocks of tokens and characters, so the
temporaries stay a few MiB whatever the book's size (the 2,000-page bench book's peak is issue 7).

A token boundary can fall inside a multi-byte character (BPE splits some characters into byte
tokens). ``char_starts`` then holds the offset *after* that character and ``legal[i]`` is False:
no chunk may start or end there (rule 6: never split a character).
"""

from __future__ import annotations

import bisect
import functools
import re
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from .cores import resolve_workers
from .encodings import get_encoding, mergeable_ranks
from .models import FENCES, Book, Page
from .rules import PageIndex, fence_offsets

if TYPE_CHECKING:
    import numpy.typing as npt


def sorted_unique(values: np.ndarray) -> np.ndarray:
    """``np.unique(values)`` as int64, without importing ``numpy.ma``.

    # NOTE: ``np.unique`` imports ``numpy.ma`` on first use only to ask whether its input is
    # masked; a sort and a neighbour test do the same without that import.
    """
    ordered = np.sort(np.asarray(values, dtype=np.int64))
    if ordered.size < 2:
        return ordered
    keep = np.empty(ordered.size, dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


@functools.lru_cache(maxsize=None)
def token_byte_lengths(encoding: str) -> np.ndarray:
    """Return the UTF-8 byte length of every token id of ``encoding`` (0 for unused ids).

    Built once per encoding and process, so turning a token array into byte offsets is one
    numpy gather.

    Args:
        encoding (str): a tiktoken encoding name.

    Returns:
        np.ndarray: array of length ``n_vocab``, of the smallest unsigned dtype that holds the
        longest token (``uint8`` for the tiktoken encodings: their tokens have ≤ 128 bytes), so
        a gather over a block of tokens costs one byte per token.
    """
    enc = get_encoding(encoding)
    ranks = mergeable_ranks(encoding)
    if isinstance(ranks, dict):
        # NOTE: the vocabulary {token bytes: id} the encoding was built from (``encodings``);
        # reading it is faster than decoding 100k-200k ids one by one.
        lengths = np.zeros(enc.n_vocab, dtype=np.int64)
        lengths[np.fromiter(ranks.values(), dtype=np.int64, count=len(ranks))] = np.fromiter(
            map(len, ranks), dtype=np.int64, count=len(ranks)
        )
    else:  # an encoding tiktoken loaded itself (not bundled): its public API, id by id
        lengths = np.zeros(enc.n_vocab, dtype=np.int64)
        for i in range(enc.n_vocab):
            try:
                lengths[i] = len(enc.decode_single_token_bytes(i))
            except KeyError:
                pass
    return lengths.astype(np.min_scalar_type(int(lengths.max(initial=0))))


@dataclass(frozen=True, eq=False)
class TokenizedBook:
    """A book's canonical token stream with its character offsets and page mapping.

    Attributes:
        book (Book): the book whose ``text`` was encoded.
        encoding (str): the tiktoken encoding name.
        tokens (np.ndarray): ``uint32`` token ids.
        char_starts (np.ndarray): ``int32`` (``int64`` for texts of 2 GiB and more),
            ``n_tokens + 1`` entries; the start of each token in ``book.text`` and, last,
            ``len(book.text)``. Search it with a scalar of its own dtype
            (``char_starts.dtype.type(c)``) or through ``token_at_char``: numpy's
            ``searchsorted`` copies an ``int32`` array to ``int64`` for a Python int.
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
    _page_index: PageIndex = field(repr=False)
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
        return self._boundaries_upto(c) - 1 if c < len(self.book.text) else self.n_tokens

    def is_fence_char(self, c: int) -> bool:
        """True when character offset ``c`` starts a heading (the text was encoded apart there)."""
        return c in self._fence_chars

    @functools.cached_property
    def seam_tokens(self) -> np.ndarray:
        """Sorted token boundaries where a heading cut one of tiktoken's pieces apart (a title
        glued to the word before it, ``…the messageChapter 1``): the stream was encoded apart
        there, a re-encoding of text across the place is not, and may count other tokens."""
        text = self.book.text
        seams = [c for c in self._fence_chars if 0 < c < len(text) and not piece_boundary(text, c)]
        return sorted_unique(np.array([self._boundaries_upto(c) - 1 for c in seams], dtype=np.int64))

    def has_seam(self, start: int, end: int) -> bool:
        """Whether a seam (``seam_tokens``) lies strictly inside tokens ``[start, end)``."""
        seams = self.seam_tokens
        i = int(np.searchsorted(seams, start, side="right"))
        return i < seams.size and int(seams[i]) < end

    def page_boundary_token(self, page_index: int) -> int:
        """Return the largest token boundary ``b`` such that every token before ``b`` ends on or
        before the page ``text_pages[page_index]`` (its trailing separator counts for it).

        Args:
            page_index (int): index into ``text_pages``.
        """
        return self._boundaries_upto(self._page_index.ends[page_index] + 1) - 1

    def _boundaries_upto(self, c: int) -> int:
        """Number of token boundaries at or before character offset ``c``.

        # NOTE: ``searchsorted`` with a Python int converts an ``int32`` array to ``int64`` first
        # (a book-sized copy per call); a scalar of the array's own dtype searches it in place.
        """
        return int(self.char_starts.searchsorted(self.char_starts.dtype.type(c), side="right"))

    def last_page_index_within(self, page_index: int, pages: int) -> int:
        """Index of the last text page whose number is below ``text_pages[page_index].number +
        pages`` (a span of ``pages`` physical pages, empty pages included)."""
        limit = self.text_pages[page_index].number + pages - 1
        return bisect.bisect_right(self._page_numbers, limit) - 1

    def page_index_of_char(self, c: int) -> int:
        """Index into the non-empty pages of the page holding character ``c``.

        A page separator belongs to the page it introduces (the seed's convention).
        """
        return self._page_index.index_at(c)

    def ocr_between(self, first: int, last: int) -> bool:
        """True when text between characters ``first`` and ``last`` (inclusive) was read by OCR:
        a page holding text there is ``Page.ocr`` (what ``Chunk.ocr`` says)."""
        if not self.text_pages or not any(p.ocr for p in self.text_pages):
            return False
        i0, i1 = self.page_index_of_char(first), self.page_index_of_char(last)
        return any(p.ocr for p in self.text_pages[i0 : i1 + 1])

    def page_of_char(self, c: int) -> int:
        """Return the 1-based physical page number holding character ``c``.

        A page separator (the ``"\\n"`` between two pages) counts for the page it introduces.
        Books without any text report page 1.

        Args:
            c (int): a character offset in ``book.text``.
        """
        return self._page_index.number_at(c)


_TOKEN_BLOCK = 1 << 16
"""Tokens per numpy step of the byte-offset sum (its temporary: one byte per token)."""
_CHAR_BLOCK = 1 << 14
"""Characters per numpy step of the byte → character mapping. Its temporaries cost ~20 bytes per
token of the block, so for dense multi-byte text (~1 token per character) they stay under 0.5 MiB."""


def _utf8_length(text: str) -> int:
    """Byte length of ``text`` in UTF-8, encoding one block of characters at a time."""
    if text.isascii():
        return len(text)
    step = 16 * _CHAR_BLOCK
    return sum(len(text[i : i + step].encode("utf-8")) for i in range(0, len(text), step))


def _encode_into(enc, text: str, bounds: list[int], tokens: np.ndarray) -> int:
    """Encode ``text`` piece by piece (``bounds``) into ``tokens``; return the token count.

    ``tokens`` must hold at least one slot per byte of ``text`` (every token has ≥ 1 byte).
    """
    n = 0
    for a, b in zip(bounds, bounds[1:]):
        # NOTE: encode_to_numpy with no special tokens allowed and none disallowed is
        # encode_ordinary (special-token text is encoded as text) returning a uint32 array
        # without a Python list; only one piece's array exists at a time.
        part = enc.encode_to_numpy(text[a:b], allowed_special=set(), disallowed_special=())
        tokens[n : n + part.shape[0]] = part
        n += part.shape[0]
    return n


def _byte_starts_into(tokens: np.ndarray, n: int, lengths: np.ndarray, starts: np.ndarray) -> None:
    """Write the byte offset of each token boundary (``n + 1`` of them) into ``starts``."""
    starts[0] = 0
    for i in range(0, n, _TOKEN_BLOCK):
        j = min(i + _TOKEN_BLOCK, n)
        block = starts[i + 1 : j + 1]
        np.cumsum(lengths.take(tokens[i:j]), dtype=starts.dtype, out=block)
        block += starts[i]


def _bytes_to_chars(text: str, starts: np.ndarray, legal: np.ndarray, block: int = _CHAR_BLOCK) -> None:
    """Turn byte offsets of token boundaries into character offsets, in place; mark boundaries
    inside a character illegal.

    Works through the text ``block`` characters at a time, so only one block's UTF-8 bytes and
    masks exist at once.

    Args:
        text (str): the encoded text.
        starts (np.ndarray): the byte offsets (increasing; the last is the text's byte length),
            overwritten with character offsets.
        legal (np.ndarray): bool, as long as ``starts`` and all True; set False where a
            boundary falls inside a multi-byte character.
        block (int): characters per step. Defaults to ``_CHAR_BLOCK``.
    """
    i = 0  # first boundary not converted yet
    byte0 = 0  # byte offset of the block's first character
    skipped = 0  # continuation bytes before the block
    for c0 in range(0, len(text), block):
        chars = text[c0 : c0 + block]
        raw = chars.encode("utf-8")
        byte1 = byte0 + len(raw)
        j = i + int(starts[i:].searchsorted(starts.dtype.type(byte1), side="left"))
        if len(raw) == len(chars):
            starts[i:j] -= skipped
        elif j > i:
            rel = starts[i:j] - byte0
            # NOTE: a UTF-8 continuation byte is 0b10xxxxxx; the character offset of byte p is p
            # minus the continuation bytes before it. A non-ASCII block has at least one.
            continuation = np.flatnonzero((np.frombuffer(raw, dtype=np.uint8) & 0xC0) == 0x80)
            before = continuation.searchsorted(rel, side="left")
            # A boundary is inside a character when the next continuation byte is at the boundary
            # (past the last one, the last one is before it: not equal either).
            np.not_equal(
                continuation.take(np.minimum(before, continuation.shape[0] - 1)), rel, out=legal[i:j]
            )
            # NOTE: for a boundary inside a character, the count of lead bytes before it already
            # includes that character's lead, so it maps to the next character start (rounded up).
            before += skipped
            np.subtract(starts[i:j], before, out=starts[i:j], casting="unsafe")
        skipped += len(raw) - len(chars)
        i, byte0 = j, byte1
    starts[i:] -= skipped  # the end of the text


PARALLEL_MIN_CHARS = 1 << 19
"""Automatic mode encodes texts shorter than this (512 Ki characters, ~200 pages) on one thread:
below it a second thread saves less than starting it costs."""
SAFE_SPLIT_ENCODINGS = frozenset({"cl100k_base", "o200k_base"})
"""Encodings whose pre-tokenizer never puts a letter or digit, a newline and a letter or digit
in one piece, so the text may be cut after such a newline with identical tokens (checked in
tests/test_tokens.py); other encodings are split at heading offsets only."""
_SAFE_SPLIT = re.compile(r"(?<=[^\W_]\n)(?=[^\W_])")
"""A newline between two word characters (refined to letters and digits by ``is_safe_cut``)."""
_SPLIT_SEARCH = 1 << 16
"""Characters searched for a safe newline after a thread's target start before giving up on it."""


def is_safe_cut(text: str, p: int) -> bool:
    """True when ``text[p-2:p+1]`` is letter-or-digit, newline, letter-or-digit (``\\p{L}``/``\\p{N}``):
    for ``SAFE_SPLIT_ENCODINGS``, ``text[:p]`` and ``text[p:]`` encode to the tokens of ``text``."""
    return (
        1 < p < len(text)
        and text[p - 1] == "\n"
        and unicodedata.category(text[p - 2])[0] in "LN"
        and unicodedata.category(text[p])[0] in "LN"
    )


def _groups(text: str, cuts: list[int], encoding: str, workers: int) -> list[list[int]]:
    """Split the piece bounds ``[0, *cuts, len]`` into ``workers`` runs of about equal length.

    Each run starts at a heading cut or, for ``SAFE_SPLIT_ENCODINGS``, at a safe newline
    (``is_safe_cut``) near its share of the text, so the pieces encode to the one-thread tokens.
    """
    bounds = [0, *cuts, len(text)]
    if workers <= 1 or len(text) < 2:
        return [bounds]
    starts = {0}
    for k in range(1, workers):
        target = len(text) * k // workers
        i = bisect.bisect_left(cuts, target)
        best = cuts[i] if i < len(cuts) else len(text)
        if encoding in SAFE_SPLIT_ENCODINGS:
            for m in _SAFE_SPLIT.finditer(text, target, min(len(text), target + _SPLIT_SEARCH)):
                if is_safe_cut(text, m.start()):
                    best = min(best, m.start())
                    break
        if 0 < best < len(text):
            starts.add(best)
    points = sorted(set(bounds) | starts)
    edges = sorted(starts) + [len(text)]
    return [[p for p in points if a <= p <= b] for a, b in zip(edges, edges[1:])]


def _offset_dtype(n_bytes: int) -> type:
    return np.int32 if n_bytes < np.iinfo(np.int32).max else np.int64


def _encode(
    enc, encoding: str, text: str, cuts: list[int], threads: int, dtype: npt.DTypeLike | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The encoder: ``text`` encoded apart at every offset of ``cuts`` (sorted, inside the text).

    With ``threads`` > 1 the pieces are grouped into runs that start at a cut or a safe newline
    (``_groups``) and each run is encoded on its own thread into its byte-sized share of one token
    array (tiktoken releases the GIL while it encodes); the runs are then moved together.

    Returns:
        tuple: ``tokens`` (uint32), ``char_starts`` (``n + 1`` entries, relative to ``text``, the
        last ``len(text)``; of ``dtype``, default by the text's byte length) and ``legal``.
    """
    groups = _groups(text, cuts, encoding, threads)
    offsets = [0]  # where each run's share of the token array starts: its text's byte offset
    for g in groups:
        offsets.append(offsets[-1] + _utf8_length(text[g[0] : g[-1]] if len(groups) > 1 else text))
    n_bytes = offsets[-1]
    # NOTE: the token array is allocated for the worst case (one token per byte) and shrunk in
    # place (realloc) once the count is known: the unused tail is never written, so it never
    # becomes resident memory, and no second copy of the tokens is made.
    tokens = np.empty(n_bytes, dtype=np.uint32)
    if len(groups) == 1:
        n = _encode_into(enc, text, groups[0], tokens)
    else:

        def run(k: int) -> int:
            return _encode_into(enc, text, groups[k], tokens[offsets[k] : offsets[k + 1]])

        with ThreadPoolExecutor(len(groups)) as pool:
            counts = list(pool.map(run, range(len(groups))))
        n = counts[0]
        for k in range(1, len(groups)):
            tokens[n : n + counts[k]] = tokens[offsets[k] : offsets[k] + counts[k]]
            n += counts[k]
    tokens.resize(n, refcheck=False)
    char_starts: np.ndarray = np.empty(n + 1, dtype=dtype or _offset_dtype(n_bytes))
    _byte_starts_into(tokens, n, token_byte_lengths(encoding), char_starts)
    legal = np.ones(n + 1, dtype=bool)
    if n_bytes != len(text):
        _bytes_to_chars(text, char_starts, legal)
    return tokens, char_starts, legal


def tokenize(book: Book, encoding: str = "cl100k_base", *, workers: int | None = None) -> TokenizedBook:
    """Encode a book's canonical text once into a token stream with exact character offsets.

    Args:
        book (Book): the book (its ``text``, ``pages`` and ``headings`` are used).
        encoding (str): tiktoken encoding name. Defaults to ``"cl100k_base"``.
        workers (int | None): threads that encode (``chunking.cores``); None: all cores for a
            text of ``PARALLEL_MIN_CHARS`` and more. The result does not depend on it.

    Returns:
        TokenizedBook: tokens, ``char_starts``, legality mask, fence token indices, page mapping.

    Raises:
        PolicyError: the encoding is unknown or not available offline.
    """
    enc = get_encoding(encoding)
    fences = {fence: fence_offsets(book, fence) for fence in FENCES}
    cuts = [c for c in fences["section"] if 0 < c < len(book.text)]
    threads = resolve_workers(workers, len(book.text), PARALLEL_MIN_CHARS)
    tokens, char_starts, legal = _encode(enc, encoding, book.text, cuts, threads)
    return _assemble(book, encoding, tokens, char_starts, legal, fences, cuts)


def _assemble(
    book: Book,
    encoding: str,
    tokens: np.ndarray,
    char_starts: np.ndarray,
    legal: np.ndarray,
    fences: dict[str, list[int]],
    cuts: list[int],
) -> TokenizedBook:
    """The ``TokenizedBook`` of finished token arrays: fence token indices and the page maps."""
    text = book.text
    # NOTE: side="right" - 1: boundaries inside a character share the next character's offset and
    # come before the legal boundary at that offset; the fence is the legal one.
    fence_tokens = {
        level: np.searchsorted(
            char_starts,
            np.asarray([c for c in offs if 0 < c < len(text)], dtype=char_starts.dtype),
            side="right",
        )
        - 1
        for level, offs in fences.items()
    }
    pages = [p for p in book.pages if p.char_end > p.char_start]
    return TokenizedBook(
        book=book,
        encoding=encoding,
        tokens=tokens,
        char_starts=char_starts,
        legal=legal,
        fence_tokens={k: sorted_unique(v) for k, v in fence_tokens.items()},
        text_pages=tuple(pages),
        _page_index=PageIndex(pages),
        _fence_chars=frozenset(cuts),
        _page_numbers=[p.number for p in pages],
    )


def piece_boundary(text: str, c: int) -> bool:
    """Whether character offset ``c`` is a boundary of tiktoken's regex pieces whatever the
    encoding, so the text on either side re-encodes to the tokens of the whole: a non-space
    followed by a space or tab; a letter or digit followed by a newline; a newline followed by
    a non-space other than ``/``. The ends of the text are boundaries."""
    if c <= 0 or c >= len(text):
        return True
    prev, cur = text[c - 1], text[c]
    if cur.isspace():
        if prev.isspace():
            return False
        # NOTE: tiktoken's punctuation piece ` ?[^\s\p{L}\p{N}]+[\r\n]*` swallows the newlines
        # after it, so only a letter or digit before a newline is a piece boundary.
        return cur not in "\r\n" or prev.isalnum()
    # NOTE: o200k's punctuation piece ``[^\s\p{L}\p{N}]+[\r\n/]*`` runs on past a newline into a
    # "/", so a newline then "/" is no piece boundary there (never cut: safe for every encoding).
    return prev in "\r\n" and cur != "/"


def retokenize(tb: TokenizedBook, book: Book) -> TokenizedBook:
    """``tokenize(book, tb.encoding)`` for a book with ``tb.book``'s text and other headings.

    A structure correction adds, removes or moves headings. The text is encoded apart at every
    heading, so a piece between two headings that were both there before keeps its tokens and
    offsets; each run of pieces whose bounds changed is encoded again by the same encoder as
    ``tokenize`` (a new cut splits one piece, a removed cut merges two).

    Args:
        tb (TokenizedBook): the tokenized book before the correction.
        book (Book): the corrected book (same ``text``).

    Returns:
        TokenizedBook: equal, array for array, to ``tokenize(book, tb.encoding)``.

    Raises:
        ValueError: ``book.text`` is not ``tb.book.text`` (re-read books need ``tokenize``).
    """
    text = book.text
    if text is not tb.book.text and text != tb.book.text:
        raise ValueError("retokenize needs the text the book was tokenized from; call tokenize")
    enc = get_encoding(tb.encoding)
    fences = {fence: fence_offsets(book, fence) for fence in FENCES}
    cuts = [c for c in fences["section"] if 0 < c < len(text)]
    old = [0, *sorted(tb._fence_chars), len(text)]
    old_end = dict(zip(old, old[1:]))
    cs, dtype = tb.char_starts, tb.char_starts.dtype.type
    parts: list[tuple[np.ndarray, ...]] = []

    def encode_run(a: int, b: int) -> None:
        tokens, starts, legal = _encode(
            enc, tb.encoding, text[a:b], [c - a for c in cuts if a < c < b], 1, cs.dtype
        )
        parts.append((tokens, starts[:-1] + dtype(a), legal[:-1]))

    new = [0, *cuts, len(text)]
    changed: int | None = None  # where the current run of changed pieces starts
    for a, b in zip(new, new[1:]):
        if old_end.get(a) != b:
            changed = a if changed is None else changed
            continue
        if changed is not None:
            encode_run(changed, a)
            changed = None
        i = int(cs.searchsorted(dtype(a), side="right")) - 1
        j = int(cs.searchsorted(dtype(b), side="right")) - 1
        parts.append((tb.tokens[i:j], cs[i:j], tb.legal[i:j]))  # the same piece: the same tokens
    if changed is not None:
        encode_run(changed, len(text))
    tokens = np.concatenate([p[0] for p in parts]).astype(np.uint32, copy=False)
    char_starts = np.concatenate([*(p[1] for p in parts), np.asarray([len(text)], dtype=cs.dtype)])
    legal = np.concatenate([*(p[2] for p in parts), np.ones(1, dtype=bool)])
    return _assemble(book, tb.encoding, tokens, char_starts, legal, fences, cuts)
