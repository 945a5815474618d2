"""bench/fetch_books.py: a rendered EPUB's zip times are fixed without touching its other bytes; a book
of several pages gets them as one tar, in their order."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import fetch_books  # noqa: E402


def _zip(when: tuple[int, int, int, int, int, int]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype", when), b"application/epub+zip")
        info = zipfile.ZipInfo("EPUB/text/ch001.xhtml", when)
        info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, b"<h1>Introduction</h1>" * 50)
    return buf.getvalue()


def test_two_runs_minutes_apart_give_the_same_bytes_and_the_same_entries():
    a, b = _zip((2026, 12, 6, 13, 47, 50)), _zip((2026, 12, 6, 13, 49, 2))
    assert a != b
    fixed = fetch_books._zip_times_fixed(a)
    assert fixed == fetch_books._zip_times_fixed(b)
    assert len(fixed) == len(a)
    with zipfile.ZipFile(io.BytesIO(fixed)) as z:
        assert [i.date_time for i in z.infolist()] == [(1980, 1, 1, 0, 0, 0)] * 2
        assert z.read("EPUB/text/ch001.xhtml") == b"<h1>Introduction</h1>" * 50
        assert z.testzip() is None


def test_a_book_whose_source_changed_is_named_before_it_is_rendered(tmp_path, monkeypatch):
    monkeypatch.setattr(fetch_books, "_from_deb", lambda package, path, work: b"changed source")
    gt = {
        "file": "book.epub",
        "sha256": "0" * 64,
        "source": {
            "kind": "debian",
            "package": "p",
            "path": "/x",
            "source_sha256": "1" * 64,
            "render": "no-such",
        },
    }
    problem = fetch_books.fetch_one(gt, tmp_path, tmp_path)
    assert problem is not None and "source_sha256" in problem and fetch_books.CHECKSUM_CHANGED in problem
    assert not (tmp_path / "book.epub").exists()


def test_a_book_of_several_pages_gets_them_as_one_tar_in_their_order(tmp_path, monkeypatch):
    monkeypatch.setattr(fetch_books, "_from_deb", lambda package, path, work: path.encode() * 3)
    got = []
    monkeypatch.setattr(fetch_books, "_rendered", lambda data, render: got.append(data) or b"book")
    paths = ["/usr/share/doc/p/index.html", "/usr/share/doc/p/ch02.html", "/usr/share/doc/p/ch01.html"]
    gt = {
        "file": "b.txt",
        "sha256": "0" * 64,
        "source": {"kind": "debian", "package": "p", "paths": paths, "render": "r"},
    }
    fetch_books.fetch_one(gt, tmp_path, tmp_path)
    fetch_books.fetch_one(gt, tmp_path, tmp_path)
    assert len(got) == 2 and got[0] == got[1]
    with tarfile.open(fileobj=io.BytesIO(got[0])) as archive:
        members = archive.getmembers()
        assert [m.name for m in members] == ["index.html", "ch02.html", "ch01.html"]
        assert archive.extractfile(members[1]).read() == paths[1].encode() * 3  # type: ignore[union-attr]


def test_a_missing_renderer_is_named_with_the_package_that_brings_it(monkeypatch):
    monkeypatch.setattr(fetch_books.shutil, "which", lambda name, path=None: None)
    with pytest.raises(FileNotFoundError, match=r"pandoc is not installed \(make renderers"):
        fetch_books._rendered(b"# Title\n", "pandoc-markdown-epub3")


def test_a_renderer_that_cannot_read_a_pipe_gets_the_source_as_a_file(monkeypatch):
    monkeypatch.setitem(fetch_books.RENDERERS, "cat-file", ["cat", fetch_books.INPUT])
    assert fetch_books._rendered(b"<h1>Title</h1>\n", "cat-file") == b"<h1>Title</h1>\n"


def test_a_renderer_that_tells_the_format_by_the_name_gets_the_source_under_that_suffix(monkeypatch):
    # mutool opens an EPUB only as *.epub: '{input.epub}' names the source file so
    monkeypatch.setitem(
        fetch_books.RENDERERS, "name-file", ["sh", "-c", 'basename "$0"; cat "$0"', "{input.epub}"]
    )
    assert fetch_books._rendered(b"<h1>Title</h1>\n", "name-file") == b"source.epub\n<h1>Title</h1>\n"


def test_a_renderer_that_cannot_write_a_pipe_writes_the_book_to_a_file(monkeypatch):
    # xhtml2pdf fails writing to '-': the book is read back from the {output} file (cp prints nothing)
    monkeypatch.setitem(fetch_books.RENDERERS, "cp-file", ["cp", "/dev/stdin", fetch_books.OUTPUT])
    assert fetch_books._rendered(b"book\n", "cp-file") == b"book\n"


def test_groff_without_its_pdf_device_is_named_as_gropdf_from_debians_groff(monkeypatch):
    monkeypatch.setattr(
        fetch_books.shutil, "which", lambda name, path=None: None if name == "gropdf" else f"/usr/bin/{name}"
    )
    with pytest.raises(FileNotFoundError, match=r"gropdf is not installed.*apt-get install groff"):
        fetch_books._rendered(b".pp\nText.\n", "groff-me-pdf")


def test_a_pypi_renderer_without_its_venv_is_named_with_the_pinned_requirements(monkeypatch):
    monkeypatch.setattr(fetch_books.shutil, "which", lambda name, path=None: None)
    with pytest.raises(
        FileNotFoundError, match=r"make renderers, or the pinned PyPI renderers of requirements-renderers"
    ):
        fetch_books._rendered(b"<h1>Title</h1>\n", "markdownify")


def test_pinned_fonts_stay_the_only_fonts_when_another_config_adds_a_folder(tmp_path):
    """A package's file in /etc/fonts/conf.d may add a font folder (fonts-lmodern does): a renderer given
    pinned folders must still see only their fonts."""
    fonts = Path("/usr/share/fonts/truetype/dejavu")
    if shutil.which("fc-list") is None or not (fonts / "DejaVuSerif.ttf").exists():
        pytest.skip("needs fontconfig's fc-list and fonts-dejavu-core")
    pinned, other = tmp_path / "pinned", tmp_path / "other"
    pinned.mkdir()
    other.mkdir()
    shutil.copy(fonts / "DejaVuSans.ttf", pinned)
    shutil.copy(fonts / "DejaVuSerif.ttf", other)
    config = fetch_books._fontconfig((str(pinned),), str(tmp_path))
    wrapper = tmp_path / "wrapper.conf"
    wrapper.write_text(
        f'<?xml version="1.0"?>\n<fontconfig>\n  <include>{config}</include>\n  <dir>{other}</dir>\n</fontconfig>\n',
        encoding="utf-8",
    )
    listed = subprocess.run(
        ["fc-list", "--format", "%{file}\n"],
        env={"PATH": "/usr/bin:/bin", "FONTCONFIG_FILE": str(wrapper)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert listed == [str(pinned / "DejaVuSans.ttf")]
