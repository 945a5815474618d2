"""Stage 4 started early: the canonical text is encoded while the structure is still being found.

``tokenize`` cuts the text at every heading, and the headings come from the structure stage,
which runs after the canonical text exists and holds one core for a while (pure Python). So the
pipeline starts ``EarlyTokens(text, …)`` the moment normalisation ends: the whole text is encoded
on a background thread (tiktoken releases the GIL, so it runs on the other core; one thread, as a
second one would take its core from the structure stage), and more threads join in once the
structure is found. The text is cut only at
*safe* newlines (``tokens._is_safe``: a letter or digit, a newline, a letter or digit), where a
cut leaves every token as it is. When the headings are known, ``tokenized(book)`` re-encodes only
a short window around each heading that is not itself at a safe newline, from the last safe
newline before it to the first one after it (usually the line it starts on), and splices the
windows in. The result is array for array ``tokenize(book)`` (tests/test_early_tokens.py).

It runs only where ``tokenize`` itself would use several threads (``chunking.cores``) and for the
encodings whose safe newlines are proven (``tokens.SAFE_SPLIT_ENCODINGS``); a heading with no safe
newline within ``SEARCH_CHARS`` on a side (a book that is one endless line) makes it fall back
to ``tokenize``.

NOTE: the background thread takes the GIL only between two pieces, and a thread that wants it
back while the structure stage runs Python waits up to the switch interval (5 ms), so the pieces
are large (``PIECE_CHARS``), not one per page.
"""

from __future__ import annotations

import threading

import numpy as np

from .cores import resolve_workers
from .encodings import get_encoding
from .models import FENCES, Book
from .rules import fence_offsets
from .tokens import (
    _SAFE_SPLIT,
    PARALLEL_MIN_CHARS,
    SAFE_SPLIT_ENCODINGS,
    TokenizedBook,
    _assemble,
    _byte_starts_into,
    _bytes_to_chars,
    _encode_piece,
    _is_safe,
    _offset_dtype,
    _utf8_length,
    token_byte_lengths,
    tokenize,
)

PIECE_CHARS = 1 << 19
"""Characters per early piece (512 Ki, ~30 ms of encoding): few GIL hand-overs, a few MiB of
temporaries, and little left over for one thread when the others are done."""
SEARCH_CHARS = 1 << 16
"""How far from a heading a safe newline is looked for on each side before falling back."""
_FIRST_SEARCH = 256
"""The first look-back window (doubled up to ``SEARCH_CHARS``): most headings start a line."""


def _safe_points(text: str, every: int) -> list[int]:
    """Safe newlines about ``every`` characters apart (the first one at or after each multiple)."""
    points: list[int] = []
    for target in range(every, len(text), every):
        if points and points[-1] >= target:
            continue
        for m in _SAFE_SPLIT.finditer(text, target, min(len(text), target + SEARCH_CHARS)):
            if _is_safe(text, m.start()):
                points.append(m.start())
                break
    return points


def _safe_before(text: str, c: int, limit: int) -> int | None:
    """The last safe newline before ``c`` (0 when the text starts within ``limit``), else None."""
    width = _FIRST_SEARCH
    while True:
        lo = max(0, c - width)
        last = None
        for m in _SAFE_SPLIT.finditer(text, lo, c):
            if _is_safe(text, m.start()):
                last = m.start()
        if last is not None:
            return last
        if lo == 0:
            return 0
        if width >= limit:
            return None
        width *= 2


def _safe_after(text: str, c: int, limit: int) -> int | None:
    """The first safe newline after ``c`` (``len(text)`` when it ends within ``limit``), else None."""
    hi = min(len(text), c + 1 + limit)
    for m in _SAFE_SPLIT.finditer(text, c + 1, hi):
        if _is_safe(text, m.start()):
            return m.start()
    return len(text) if hi == len(text) else None


def _windows(text: str, cuts: list[int], limit: int) -> list[tuple[int, int, list[int]]] | None:
    """Per group of nearby cuts that are not safe newlines: ``(start, end, cuts)`` with safe
    (or text-edge) bounds, merged where they overlap; None when a bound is out of reach."""
    windows: list[tuple[int, int, list[int]]] = []
    for c in cuts:
        if _is_safe(text, c):
            continue  # a cut there changes no token
        if windows and c < windows[-1][1]:
            windows[-1][2].append(c)
            continue
        start, end = _safe_before(text, c, limit), _safe_after(text, c, limit)
        if start is None or end is None:
            return None
        if windows and start < windows[-1][1]:
            a, b, inner = windows.pop()
            windows.append((min(a, start), max(b, end), [*inner, c]))
        else:
            windows.append((start, end, [c]))
    return windows


class EarlyTokens:
    """The whole-text encoding running in the background (see the module docstring).

    One background thread encodes the pieces in order while the structure is found (the main
    thread holds the other core then); when ``tokenized`` is called, ``threads - 1`` more threads
    take the pieces still left, and the main thread turns each finished piece's tokens into
    character offsets meanwhile.

    Args:
        text (str): the canonical text (``Book.text`` once the structure is found).
        encoding (str): a ``SAFE_SPLIT_ENCODINGS`` name.
        threads (int): threads that encode once ``tokenized`` is called (≥ 1).
        piece_chars (int): characters per piece. Defaults to ``PIECE_CHARS``.
        search_chars (int): how far a safe newline is looked for around a heading. Defaults to
            ``SEARCH_CHARS``.
    """

    def __init__(
        self,
        text: str,
        encoding: str,
        threads: int,
        *,
        piece_chars: int = PIECE_CHARS,
        search_chars: int = SEARCH_CHARS,
    ) -> None:
        if encoding not in SAFE_SPLIT_ENCODINGS:
            raise ValueError(f"early tokens need a safe-split encoding; got {encoding!r}")
        self.text, self.encoding, self.threads = text, encoding, max(1, threads)
        self._search = search_chars
        self._enc = get_encoding(encoding)
        bounds = [0, *_safe_points(text, piece_chars), len(text)]
        self._pieces = list(zip(bounds, bounds[1:]))
        self._parts: list[np.ndarray | None] = [None] * len(self._pieces)
        self._done = [threading.Event() for _ in self._pieces]
        self._next = 0
        self._lock = threading.Lock()
        self._error: BaseException | None = None
        self._background = threading.Thread(target=self._work, name="early-tokens", daemon=True)
        self._background.start()

    @classmethod
    def start(cls, text: str, encoding: str, workers: int | None) -> EarlyTokens | None:
        """Start encoding ``text`` when ``tokenize`` would use several threads for it and the
        encoding allows it; else None (the caller calls ``tokenize``). Never raises: a vocabulary
        that cannot load fails in ``tokenize``, with its message."""
        threads = resolve_workers(workers, len(text), PARALLEL_MIN_CHARS)
        if threads < 2 or encoding not in SAFE_SPLIT_ENCODINGS:
            return None
        try:
            return cls(text, encoding, threads)
        except Exception:  # noqa: BLE001 - tokenize raises it again, with its message
            return None

    def _work(self) -> None:
        """Encode pieces until none is left (any number of threads may run it)."""
        while True:
            with self._lock:
                k, self._next = self._next, self._next + 1
            if k >= len(self._pieces):
                return
            a, b = self._pieces[k]
            try:
                if self._error is None:
                    # NOTE: encode_ordinary as a uint32 array (tokens._encode_into).
                    self._parts[k] = self._enc.encode_to_numpy(
                        self.text[a:b], allowed_special=set(), disallowed_special=()
                    )
            except BaseException as exc:  # noqa: BLE001 - reported by falling back to tokenize
                self._error = exc
            finally:
                self._done[k].set()

    def _collect(self, dtype: type) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """The stream's tokens, character offsets and legality, or None when an encoding failed.

        NOTE: the calling thread never encodes. Measured (tiktoken 0.x, 2 cores): when the main
        thread encodes while another thread does, both run at half speed (0.33 s for the
        2,000-page book's text on two threads, 0.27 s on one); two non-main threads take 0.20 s.
        It computes each finished piece's offsets instead (numpy, the GIL mostly released).
        """
        lengths = token_byte_lengths(self.encoding)
        starts: list[np.ndarray] = []
        legals: list[np.ndarray] = []
        for k, (a, b) in enumerate(self._pieces):
            self._done[k].wait()
            part = self._parts[k]
            if part is None:
                return None
            piece = self.text[a:b]
            offsets = np.empty(part.shape[0] + 1, dtype=np.int64)
            _byte_starts_into(part, part.shape[0], lengths, offsets)
            legal = np.ones(part.shape[0] + 1, dtype=bool)
            if not piece.isascii():
                _bytes_to_chars(piece, offsets, legal)
            starts.append((offsets[:-1] + a).astype(dtype))
            legals.append(legal[:-1])
        tokens = np.concatenate([p for p in self._parts if p is not None]).astype(np.uint32, copy=False)
        self._parts = []
        starts.append(np.asarray([len(self.text)], dtype=dtype))
        legals.append(np.ones(1, dtype=bool))
        return tokens, np.concatenate(starts), np.concatenate(legals)

    def tokenized(self, book: Book) -> TokenizedBook:
        """``tokenize(book, encoding)`` for ``book`` (its text must be the text encoded; any
        other text, or a failed encoding, is tokenized from scratch)."""
        extra = [threading.Thread(target=self._work, daemon=True) for _ in range(self.threads - 1)]
        for thread in extra:
            thread.start()
        text = self.text
        same = book.text is text or book.text == text
        fences = {fence: fence_offsets(book, fence) for fence in FENCES}
        cuts = [c for c in fences["section"] if 0 < c < len(text)]
        windows = _windows(text, cuts, self._search) if same else None
        if windows is None:
            self._error = ValueError("not used")  # the threads take no further piece
        arrays = self._collect(_offset_dtype(_utf8_length(text))) if windows is not None else None
        for thread in [self._background, *extra]:
            thread.join()
        if arrays is None or windows is None:
            return tokenize(book, self.encoding, workers=self.threads)
        tokens, char_starts, legal = arrays
        if windows:
            tokens, char_starts, legal = self._splice(windows, tokens, char_starts, legal)
        return _assemble(book, self.encoding, tokens, char_starts, legal, fences, cuts)

    def _splice(
        self,
        windows: list[tuple[int, int, list[int]]],
        tokens: np.ndarray,
        char_starts: np.ndarray,
        legal: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The arrays with each window's tokens replaced by its pieces', encoded apart at its cuts.

        A window's bounds are safe newlines or the text's ends, so each is exactly one token
        boundary of the early stream (the character before a safe newline is one byte: no boundary
        inside a character shares its offset).
        """
        text, dtype = self.text, char_starts.dtype
        n = tokens.shape[0]
        parts: list[tuple[np.ndarray, ...]] = []
        prev = 0
        for start, end, inner in windows:
            i = int(char_starts.searchsorted(dtype.type(start), side="left"))
            j = n if end == len(text) else int(char_starts.searchsorted(dtype.type(end), side="left"))
            parts.append((tokens[prev:i], char_starts[prev:i], legal[prev:i]))
            bounds = [start, *inner, end]
            for a, b in zip(bounds, bounds[1:]):
                if a < b:
                    parts.append(_encode_piece(self._enc, self.encoding, text, a, b, dtype))
            prev = j
        parts.append((tokens[prev:], char_starts[prev:], legal[prev:]))  # with the end boundary
        return (
            np.concatenate([p[0] for p in parts]).astype(np.uint32, copy=False),
            np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]),
        )
