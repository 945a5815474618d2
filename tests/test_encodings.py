"""Offline tiktoken: bundled vocabularies seed tiktoken's cache and give identical token ids."""

from __future__ import annotations

import hashlib
import importlib
import os

import pytest

from chunking.errors import PolicyError


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
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
