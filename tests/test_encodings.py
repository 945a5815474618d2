"""Offline tiktoken: bundled vocabularies seed tiktoken's cache and give identical token ids."""

from __future__ import annotations

import hashlib
import marshal
import os

import pytest

from chunking.errors import PolicyError


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("BOOK_CHUNK_INSPECTOR_CACHE", str(tmp_path / "ours"))
    import chunking.encodings as enc

    enc.get_encoding.cache_clear()
    yield tmp_path
    enc.get_encoding.cache_clear()


@pytest.mark.parametrize("name, cache_file, ids", [
    ("cl100k_base", "9b5ad71b2ce5302211f9c61530b329a4922fc6a4", [15339, 1917]),
    ("o200k_base", "fb374d419588a4632f3f557e76b4b70aebbca790", [24912, 2375]),
])
def test_bundled_encoding_loads_without_network(fresh_cache, monkeypatch, name, cache_file, ids):
    import tiktoken.load

    def no_network(*args, **kwargs):
        raise ConnectionError("network disabled in this test")

    monkeypatch.setattr(tiktoken.load, "read_file", no_network)
    from chunking.encodings import get_encoding

    enc = get_encoding(name)
    assert enc.encode_ordinary("hello world") == ids
    seeded = fresh_cache / cache_file
    assert seeded.exists()
    url = f"https://openaipublic.blob.core.windows.net/encodings/{name}.tiktoken"
    assert hashlib.sha1(url.encode()).hexdigest() == cache_file


def test_seeding_leaves_no_temp_files(fresh_cache):
    from chunking.encodings import get_encoding

    get_encoding("cl100k_base")
    assert [p for p in os.listdir(fresh_cache) if p.startswith(".seed-")] == []


def test_unknown_encoding_names_the_field(fresh_cache):
    from chunking.encodings import get_encoding

    with pytest.raises(PolicyError, match="'encoding'"):
        get_encoding("cl200k_base")


SAMPLE = "Chapter 1\n  déjà vu: naïve café, 3.14159, ∑ x_i, 😀 <|endoftext|> tabs\tand    spaces\n"
"""Letters, accents, digits, symbols, an emoji, a special token's text and runs of whitespace."""


def _load(name: str):
    import chunking.encodings as enc

    enc.get_encoding.cache_clear()
    return enc.get_encoding(name)


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_an_encoding_built_from_its_snapshot_equals_tiktokens_own(fresh_cache, name):
    import tiktoken

    from chunking.encodings import snapshot_path

    first = _load(name)
    assert snapshot_path(name).is_file()
    again = _load(name)  # from the snapshot
    reference = tiktoken.get_encoding(name)
    assert again is not first
    assert again.encode_ordinary(SAMPLE) == reference.encode_ordinary(SAMPLE)
    assert again.encode(SAMPLE, allowed_special="all") == reference.encode(SAMPLE, allowed_special="all")
    assert (again.n_vocab, again.special_tokens_set) == (reference.n_vocab, reference.special_tokens_set)


def test_a_corrupt_snapshot_is_ignored_and_rewritten(fresh_cache):
    from chunking.encodings import read_snapshot, snapshot_path

    path = snapshot_path("cl100k_base")
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x00not marshal at all")
    enc = _load("cl100k_base")
    assert enc.encode_ordinary("hello world") == [15339, 1917]
    assert read_snapshot(path, "cl100k_base")["name"] == "cl100k_base"


def test_a_snapshot_of_another_encoding_is_not_used(fresh_cache):
    from chunking.encodings import snapshot_path

    _load("o200k_base")
    path = snapshot_path("cl100k_base")
    path.write_bytes(snapshot_path("o200k_base").read_bytes())  # wrong name inside
    assert _load("cl100k_base").encode_ordinary("hello world") == [15339, 1917]


def test_a_snapshot_names_the_vocabulary_tiktoken_and_python_it_was_made_by():
    import sys

    import tiktoken

    from chunking.encodings import snapshot_path

    name = snapshot_path("cl100k_base").name
    assert "223921b76ee99bde" in name and tiktoken.__version__ in name
    assert f"py{sys.version_info.major}{sys.version_info.minor}m{marshal.version}" in name
    assert snapshot_path("r50k_base") is None  # not bundled: tiktoken's own loader


def test_a_snapshot_another_user_owns_is_not_read(fresh_cache, monkeypatch):
    import chunking.encodings as enc

    _load("o200k_base")
    path = enc.snapshot_path("cl100k_base")
    path.write_bytes(enc.snapshot_path("o200k_base").read_bytes())  # would load the wrong vocabulary
    read = []
    real_loads = enc.marshal.loads
    monkeypatch.setattr(enc.marshal, "loads", lambda data: read.append(1) or real_loads(data))
    monkeypatch.setattr(enc.os, "getuid", lambda: path.stat().st_uid + 1)
    assert _load("cl100k_base").encode_ordinary("hello world") == [15339, 1917]
    assert read == []  # not even unmarshalled
