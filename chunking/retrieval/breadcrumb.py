"""What is embedded for a chunk: its text, or a breadcrumb of where it sits and then its text.

Why: a chunk cut from the middle of a chapter often never names its topic; the book title and the
chapter and section titles do. Prefixing them to the *stored* text would break the exact offsets
(``text == canonical[char_start:char_end]``) and skew BM25, so the prefix exists only here, in
the text handed to the embedding model. Stored text, BM25 and every export stay the exact slice.

``EMBED_PREFIXES``: ``none`` (the text itself) or ``breadcrumb``:
``"<book title> › <chapter> › <section>\\n\\n<text>"``, empty titles left out, a title equal to the
one before it said once.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import UsageError
from ..models import Chunk

EMBED_PREFIXES = ("none", "breadcrumb")
"""How a chunk's embedding text is built (see the module docstring)."""

SEPARATOR = " › "
"""Between the titles of a breadcrumb."""


def breadcrumb(title: str, chunk: Chunk) -> str:
    """``Book title › Chapter › Section`` of ``chunk`` (empty parts and repeats left out)."""
    parts: list[str] = []
    for part in (title, chunk.chapter, chunk.section):
        part = " ".join(part.split())
        if part and (not parts or parts[-1] != part):
            parts.append(part)
    return SEPARATOR.join(parts)


def prefix_of(mode: str, title: str, chunk: Chunk) -> str:
    """The text put before ``chunk.text`` for embedding under ``mode`` (``""`` for ``none``).

    Raises:
        UsageError: ``mode`` is not one of ``EMBED_PREFIXES``.
    """
    if mode == "none":
        return ""
    if mode == "breadcrumb":
        crumb = breadcrumb(title, chunk)
        return f"{crumb}\n\n" if crumb else ""
    raise UsageError(f"--embed-prefix must be one of {', '.join(EMBED_PREFIXES)}; got {mode!r}")


def embedding_texts(chunks: Sequence[Chunk], title: str, mode: str) -> list[str]:
    """The text embedded for each of ``chunks`` under ``mode``, in order."""
    return [prefix_of(mode, title, c) + c.text for c in chunks]


def over_budget(chunks: Sequence[Chunk], texts: Sequence[str], encoding: str, max_tokens: int) -> list[Chunk]:
    """The chunks whose embedding text (prefix and text, ``texts`` in the same order) re-encodes
    to more than ``max_tokens`` tokens of ``encoding``: what ``--prefix-in-budget`` refuses."""
    from ..encodings import get_encoding

    enc = get_encoding(encoding)
    return [c for c, t in zip(chunks, texts) if t != c.text and len(enc.encode_ordinary(t)) > max_tokens]
