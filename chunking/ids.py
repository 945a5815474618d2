"""Chunk ids: content-addressed, deterministic, one formatter for the whole package.

Format: the first 32 hex digits (128 bits) of sha256 over the NUL-joined fields
``book_id, salt, order, token_start, token_end, char_start, char_end, sha256(text)`` (numbers
in decimal, the text hash in lowercase hex), where ``salt`` is ``id_salt(policy, book)``: the
policy's ``Policy.profile()``, plus ``:corrections=<digest>`` when the book's structure was
corrected (``Book.corrections``). Scope: an id is stable for the same book bytes (``book_id``),
the same policy, the same corrections and the same package version's canonical text; a changed
policy or other corrections change every id, unchanged ones never do (rule 7).
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .models import Book
    from .policy import Policy

ID_HEX_DIGITS = 32
"""Length of a chunk id in hex digits."""


def id_salt(policy: Policy, book: Book) -> str:
    """The ``profile`` field of every id of ``book``'s chunks under ``policy``.

    ``policy.profile()``, plus ``:corrections=<Book.corrections>`` for a corrected book: the
    salt comes from the book itself, so no caller can chunk a corrected book with the ids of
    the uncorrected one.
    """
    profile = policy.profile()
    return f"{profile}:corrections={book.corrections}" if book.corrections else profile


def chunk_id(
    book_id: str,
    profile: str,
    order: int,
    token_start: int,
    token_end: int,
    char_start: int,
    char_end: int,
    text: str,
) -> str:
    """Return the content-addressed id of one chunk.

    Args:
        book_id (str): the book's id (first 16 hex of the source file's sha256).
        profile (str): ``id_salt(policy, book)``: the profile of the policy that cut the chunk
            and the book's corrections digest.
        order (int): 0-based position of the chunk in the book's chunk list.
        token_start (int): first token (inclusive) in the canonical token stream.
        token_end (int): last token (exclusive).
        char_start (int): start of the chunk in the canonical text.
        char_end (int): end (exclusive) in the canonical text.
        text (str): the chunk's text (``canonical_text[char_start:char_end]``).

    Returns:
        str: 32 lowercase hex digits.
    """
    text_hash = hashlib.sha256(text.encode("utf-8")).hexdigest()
    fields = (
        book_id,
        profile,
        str(order),
        str(token_start),
        str(token_end),
        str(char_start),
        str(char_end),
        text_hash,
    )
    return hashlib.sha256("\0".join(fields).encode("utf-8")).hexdigest()[:ID_HEX_DIGITS]
