"""Chunk ids: 32 hex digits of sha256 over the NUL-joined provenance fields (CHUNKING.md)."""

from __future__ import annotations

import hashlib

from chunking.ids import chunk_id


def test_id_is_sha256_prefix_of_the_documented_fields():
    text = "hello\nworld"
    fields = ["b1", "chapter-window-v1:p", "0", "0", "3", "0", "11", hashlib.sha256(text.encode()).hexdigest()]
    expected = hashlib.sha256("\0".join(fields).encode()).hexdigest()[:32]
    assert chunk_id("b1", "chapter-window-v1:p", 0, 0, 3, 0, 11, text) == expected


def test_every_field_salts_the_id():
    base = ("b1", "profile", 2, 10, 20, 100, 180, "some text")
    ids = {chunk_id(*base)}
    for i in range(len(base)):
        changed = list(base)
        changed[i] = changed[i] + 1 if isinstance(changed[i], int) else changed[i] + "x"
        ids.add(chunk_id(*changed))
    assert len(ids) == len(base) + 1


def test_id_is_deterministic_and_lowercase_hex():
    a = chunk_id("b", "p", 0, 0, 1, 0, 1, "é")
    assert a == chunk_id("b", "p", 0, 0, 1, 0, 1, "é")
    assert len(a) == 32 and all(ch in "0123456789abcdef" for ch in a)


def test_the_id_salt_is_the_policy_profile_plus_the_book_corrections_digest():
    from dataclasses import replace

    from chunking.ids import id_salt
    from chunking.models import Book, Diagnostics
    from chunking.policy import Policy

    book = Book("b" * 16, "0" * 64, "t", "txt", "x", (), (), Diagnostics())
    assert id_salt(Policy(), book) == Policy().profile()
    corrected = replace(book, corrections="0123456789abcdef")
    assert id_salt(Policy(), corrected) == Policy().profile() + ":corrections=0123456789abcdef"
