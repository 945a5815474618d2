"""What is embedded for a chunk: its text, or a breadcrumb of where it sits and then its text.

Why: a chunk cut from the middle of a chapter often never names its topic; the book title and the
chapter and section titles do. Prefixing them to the *stored* text would break the exact offsets
(``text == canonical[char_start:char_end]``) and skew BM25, so the prefix exists only here, in
the text handed to the embedding model. Stored text, BM25 and every export stay the exact slice.

``EMBED_PREFIXES``: ``none`` (the text itself) or ``breadcrumb``:
``"<book title> › <chapter> › <section>\\n\\n<text>"``, empty titles left out, a title equal to the
one before it said once.

``Policy.prefix_in_budget`` cuts chunks so that ``breadcrumb_prefix`` of a chunk's own chapter and
section plus its text fit ``max_tokens`` (``prefixed_tokens``, used by the chunker's
``chunking.strategies.budget`` and by the validator): the string and its count are defined here
once, so what is cut, checked and embedded is one text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import UsageError
from ..models import Chunk

EMBED_PREFIXES = ("none", "breadcrumb")
"""How a chunk's embedding text is built (see the module docstring)."""

SEPARATOR = " › "
"""Between the titles of a breadcrumb."""


def crumb(title: str, chapter: str, section: str) -> str:
    """``Book title › Chapter › Section`` (empty parts and repeats left out, spaces collapsed)."""
    parts: list[str] = []
    for part in (title, chapter, section):
        part = " ".join(part.split())
        if part and (not parts or parts[-1] != part):
            parts.append(part)
    return SEPARATOR.join(parts)


def breadcrumb(title: str, chunk: Chunk) -> str:
    """``Book title › Chapter › Section`` of ``chunk`` (``crumb`` of its chapter and section)."""
    return crumb(title, chunk.chapter, chunk.section)


def breadcrumb_prefix(title: str, chapter: str, section: str) -> str:
    """The text embedded before a chunk's text under ``breadcrumb``: its crumb and a blank line,
    ``""`` when book, chapter and section are all untitled."""
    found = crumb(title, chapter, section)
    return f"{found}\n\n" if found else ""


def prefixed_tokens(encoder: Any, prefix: str, text: str) -> int:
    """Tokens of ``prefix + text`` under ``encoder`` (a tiktoken ``Encoding``), encoded as one
    string: the prefix's last piece may join the text's first, so the sum of the two counts is
    not the count the embedding model sees."""
    return len(encoder.encode_ordinary(prefix + text))


def prefix_of(mode: str, title: str, chunk: Chunk) -> str:
    """The text put before ``chunk.text`` for embedding under ``mode`` (``""`` for ``none``).

    Raises:
        UsageError: ``mode`` is not one of ``EMBED_PREFIXES``.
    """
    if mode == "none":
        return ""
    if mode == "breadcrumb":
        return breadcrumb_prefix(title, chunk.chapter, chunk.section)
    raise UsageError(f"--embed-prefix must be one of {', '.join(EMBED_PREFIXES)}; got {mode!r}")


def embedding_texts(chunks: Sequence[Chunk], title: str, mode: str) -> list[str]:
    """The text embedded for each of ``chunks`` under ``mode``, in order."""
    return [prefix_of(mode, title, c) + c.text for c in chunks]


def over_budget(chunks: Sequence[Chunk], texts: Sequence[str], encoding: str, max_tokens: int) -> list[Chunk]:
    """The chunks whose embedding text (prefix and text, ``texts`` in the same order) re-encodes
    to more than ``max_tokens`` tokens of ``encoding``: what ``--prefix-in-budget`` refuses."""
    from ..encodings import get_encoding

    enc = get_encoding(encoding)
    return [c for c, t in zip(chunks, texts) if t != c.text and prefixed_tokens(enc, "", t) > max_tokens]
