"""Hostile and broken EPUBs: each gets one exact one-line ``UnreadableInputError``, fast, no hang.

Every file is generated here. Each case is checked for the error class, the exact message and
that it returns (no hang: under HANG_SECONDS) through ``read_raw`` (the reader dispatch), and then
through the CLI (``outline``: exit 3, that one line on stderr, nothing on stdout).
"""

from __future__ import annotations

import contextlib
import io
import random
import struct
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import pytest
from test_epub_reader import CONTAINER_XML, build_epub, nav_doc, xhtml

from chunking.cli import main
from chunking.errors import UnreadableInputError

HANG_SECONDS = 10
"""A guard against hangs and unbounded work, not a speed test (speed lives in bench/)."""
from chunking.readers import read_raw
from chunking.readers.archive import MAX_ENTRIES

LAUGHS = (
    '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
    + "".join(f'<!ENTITY lol{i} "' + f"&lol{i - 1};" * 10 + '">' for i in range(2, 10))
    + "]>"
)
"""The classic billion-laughs internal subset: ``&lol9;`` expands to 10^9 "lol"s."""

ONE_DOC = {"a.xhtml": xhtml("<h1>One</h1><p>Text.</p>")}
NAV = nav_doc('<li><a href="a.xhtml">One</a></li>')


def refused(data: bytes, name: str) -> str:
    """Read ``data`` as ``name``; return the error message, checking class, one line and speed,
    and that ``python -m chunking outline`` on the same file exits 3 with that line only."""
    start = time.perf_counter()
    with pytest.raises(UnreadableInputError) as info:
        read_raw(data, name)
    assert time.perf_counter() - start < HANG_SECONDS
    message = str(info.value)
    assert "\n" not in message and type(info.value) is UnreadableInputError
    assert run_cli(data, name) == (3, "", f"chunking: error: {message}\n")
    return message


def run_cli(data: bytes, name: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``outline`` on ``data`` saved as ``name``, in process."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, name)
        path.write_bytes(data)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["outline", str(path)])
    return code, out.getvalue(), err.getvalue()


def patch_sizes(data: bytes, entry: str, *, size: int | None = None, flags: int | None = None) -> bytes:
    """Rewrite an entry's declared uncompressed size and/or flag bits in the zip's headers."""
    out = bytearray(data)
    name = entry.encode()
    for signature, flag_at, size_at, name_at in ((b"PK\x01\x02", 8, 24, 46), (b"PK\x03\x04", 6, 22, 30)):
        at = out.find(signature)
        while at >= 0:
            if out[at + name_at : at + name_at + len(name)] == name:
                if size is not None:
                    out[at + size_at : at + size_at + 4] = struct.pack("<I", size)
                if flags is not None:
                    out[at + flag_at : at + flag_at + 2] = struct.pack("<H", flags)
            at = out.find(signature, at + 4)
    return bytes(out)


def zip_of(entries: dict[str, bytes | str], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as zf:
        for path, content in entries.items():
            zf.writestr(path, content)
    return buf.getvalue()


# --- not an EPUB at all ----------------------------------------------------------------------


def test_random_bytes_named_epub_are_not_a_zip():
    data = random.Random(7).randbytes(4096)
    assert (
        refused(data, "noise.epub")
        == "noise.epub: not a valid zip archive, so not an EPUB (File is not a zip file)"
    )


def test_truncated_epub_is_not_a_zip():
    data = build_epub(ONE_DOC, nav=NAV)
    assert refused(data[: len(data) // 2], "cut.epub") == (
        "cut.epub: not a valid zip archive, so not an EPUB (File is not a zip file)"
    )


def test_zip_without_container_is_not_an_epub():
    assert (
        refused(zip_of({"hello.txt": "hi"}), "plain.epub")
        == "plain.epub: no META-INF/container.xml, so not an EPUB"
    )


def test_container_naming_a_missing_package_is_refused():
    data = zip_of({"META-INF/container.xml": CONTAINER_XML})
    assert refused(data, "noopf.epub") == (
        "noopf.epub: META-INF/container.xml names 'OEBPS/content.opf', which is not in the archive"
    )


def test_package_without_spine_is_refused():
    opf = (
        '<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/><manifest>'
        '<item id="a" href="a.xhtml" media-type="application/xhtml+xml"/></manifest></package>'
    )
    assert refused(build_epub(ONE_DOC, opf=opf), "nospine.epub") == (
        "nospine.epub: the package 'OEBPS/content.opf' has no spine (no reading order)"
    )


def test_spine_without_xhtml_documents_is_refused():
    opf = (
        '<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/><manifest>'
        '<item id="i" href="c.png" media-type="image/png"/></manifest>'
        '<spine><itemref idref="i"/></spine></package>'
    )
    assert refused(build_epub({}, opf=opf, files={"OEBPS/c.png": b"png"}), "empty.epub") == (
        "empty.epub: the spine of 'OEBPS/content.opf' lists no XHTML documents"
    )


# --- DRM -------------------------------------------------------------------------------------


def encryption_xml(algorithm: str, *uris: str) -> str:
    refs = "".join(
        f'<enc:EncryptedData><enc:EncryptionMethod Algorithm="{algorithm}"/>'
        f'<enc:CipherData><enc:CipherReference URI="{uri}"/></enc:CipherData></enc:EncryptedData>'
        for uri in uris
    )
    return (
        '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
        f'xmlns:enc="http://www.w3.org/2001/04/xmlenc#">{refs}</encryption>'
    )


def test_encrypted_content_is_refused_as_drm():
    files = {
        "META-INF/encryption.xml": encryption_xml(
            "http://www.w3.org/2001/04/xmlenc#aes128-cbc", "OEBPS/a.xhtml"
        )
    }
    assert refused(build_epub(ONE_DOC, nav=NAV, files=files), "drm.epub") == (
        "drm.epub: this EPUB is DRM-protected (META-INF/encryption.xml encrypts 1 content file);"
        " only DRM-free EPUBs can be read"
    )


def test_font_obfuscation_is_not_drm():
    files = {
        "META-INF/encryption.xml": encryption_xml("http://www.idpf.org/2008/embedding", "OEBPS/f.otf"),
        "OEBPS/f.otf": b"font",
    }
    book = read_raw(build_epub(ONE_DOC, nav=NAV, files=files), "fonts.epub")
    assert book.pages[0].text == "One\n\nText." and not book.warnings


# --- entities (billion laughs, external entities) -------------------------------------------


@pytest.mark.parametrize(
    "entry", ["META-INF/container.xml", "OEBPS/content.opf", "OEBPS/a.xhtml", "OEBPS/nav.xhtml"]
)
def test_entity_declarations_are_refused_in_every_xml_file(entry):
    data = build_epub(ONE_DOC, nav=NAV)
    original = zipfile.ZipFile(io.BytesIO(data)).read(entry).decode()
    body = original.replace('<?xml version="1.0" encoding="UTF-8"?>', "").replace("<!DOCTYPE html>", "")
    hostile = '<?xml version="1.0" encoding="UTF-8"?>\n' + LAUGHS + body.replace("Text.", "&lol9;")
    assert refused(build_epub(ONE_DOC, nav=NAV, files={entry: hostile}), "lol.epub") == (
        f"lol.epub: {entry} declares XML entities (DOCTYPE internal subset); refused as unsafe"
    )


def test_external_entity_is_refused():
    doc = xhtml("<p>&xxe;</p>", doctype='<!doctype html [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>')
    assert refused(build_epub({"a.xhtml": doc}, nav=NAV), "xxe.epub") == (
        "xxe.epub: OEBPS/a.xhtml declares XML entities (DOCTYPE internal subset); refused as unsafe"
    )


def test_standard_xhtml_doctype_is_accepted():
    doctype = (
        '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">'
    )
    book = read_raw(
        build_epub({"a.xhtml": xhtml("<p>caf&eacute;&nbsp;ok</p>", doctype=doctype)}, nav=NAV), "ok.epub"
    )
    assert book.pages[0].text == "café ok"


# --- hrefs escaping the archive --------------------------------------------------------------


@pytest.mark.parametrize(
    ("href", "why"),
    [
        ("../../etc/passwd", "points outside the archive"),
        ("../%2E%2E/secret.xhtml", "points outside the archive"),
        ("/etc/passwd", "is an absolute or unsafe path"),
        ("..\\\\evil.xhtml", "is an absolute or unsafe path"),
        ("C:/evil.xhtml", "is an absolute or unsafe path"),
    ],
)
def test_manifest_href_escaping_the_archive_is_refused(href, why):
    data = build_epub(
        ONE_DOC, nav=NAV, extra_manifest=f'<item id="bad" href="{href}" media-type="text/css"/>'
    )
    assert refused(data, "esc.epub") == f"esc.epub: manifest item 'bad' href {href!r} {why}; refused"


def test_nav_href_escaping_the_archive_is_refused():
    nav = nav_doc('<li><a href="../../../etc/passwd">Evil</a></li>')
    assert refused(build_epub(ONE_DOC, nav=nav), "navesc.epub") == (
        "navesc.epub: OEBPS/nav.xhtml href '../../../etc/passwd' points outside the archive; refused"
    )


def test_container_path_escaping_the_archive_is_refused():
    container = CONTAINER_XML.replace("OEBPS/content.opf", "../content.opf")
    assert refused(build_epub(ONE_DOC, nav=NAV, files={"META-INF/container.xml": container}), "c.epub") == (
        "c.epub: META-INF/container.xml href '../content.opf' points outside the archive; refused"
    )


# --- zip bombs -------------------------------------------------------------------------------


def test_entry_declaring_a_huge_size_is_refused_before_reading():
    data = patch_sizes(build_epub(ONE_DOC, nav=NAV), "OEBPS/a.xhtml", size=2**31 - 1)
    assert refused(data, "big.epub") == (
        "big.epub: entry 'OEBPS/a.xhtml' expands to 2047 MiB or more (limit 64 MiB);"
        " refused as a possible zip bomb"
    )


def test_entry_with_a_bomb_ratio_is_refused():
    zeros = xhtml("<p>" + " " * (3 * 2**20) + "x</p>")
    data = build_epub({"a.xhtml": zeros}, nav=NAV)
    compressed = zipfile.ZipFile(io.BytesIO(data)).getinfo("OEBPS/a.xhtml")
    ratio = compressed.file_size // compressed.compress_size
    assert refused(data, "ratio.epub") == (
        f"ratio.epub: entry 'OEBPS/a.xhtml' expands {ratio}x (limit 200x); refused as a possible zip bomb"
    )


def test_entries_expanding_past_the_total_limit_are_refused():
    rng = random.Random(3)
    files = {f"OEBPS/blob{i}.bin": rng.randbytes(330_000) for i in range(9)}
    data = build_epub(ONE_DOC, nav=NAV, files=files)
    for i in range(9):
        data = patch_sizes(data, f"OEBPS/blob{i}.bin", size=60 * 2**20)
    assert refused(data, "total.epub").startswith(
        "total.epub: entries expand to 540 MiB in all (limit 512 MiB); refused as a possible zip bomb"
    )


def test_entry_lying_about_its_size_stops_at_the_declared_size():
    # 12 MiB of markup declared as 2 KiB: reading stops at 2 KiB and the checksum gives it away.
    huge = xhtml("<p>" + "ha " * (4 * 2**20) + "</p>")
    data = patch_sizes(build_epub({"a.xhtml": huge}, nav=NAV), "OEBPS/a.xhtml", size=2048)
    assert refused(data, "liar.epub") == (
        "liar.epub: entry 'OEBPS/a.xhtml' is corrupt (Bad CRC-32 for file 'OEBPS/a.xhtml')"
    )


def test_too_many_entries_are_refused():
    data = zip_of({f"e{i}": b"" for i in range(MAX_ENTRIES + 1)}, zipfile.ZIP_STORED)
    assert (
        refused(data, "many.epub")
        == f"many.epub: {MAX_ENTRIES + 1} zip entries (limit {MAX_ENTRIES}); refused"
    )


def test_password_protected_entry_is_refused():
    data = patch_sizes(build_epub(ONE_DOC, nav=NAV), "OEBPS/content.opf", flags=0x1)
    assert refused(data, "pw.epub") == "pw.epub: entry 'OEBPS/content.opf' is password-protected; refused"


def test_corrupt_compressed_entry_is_refused():
    data = bytearray(build_epub({"a.xhtml": xhtml("<p>" + "some text " * 200 + "</p>")}, nav=NAV))
    info = zipfile.ZipFile(io.BytesIO(bytes(data))).getinfo("OEBPS/a.xhtml")
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    data[start : start + 8] = b"\xff" * 8
    message = refused(bytes(data), "bad.epub")
    assert message.startswith("bad.epub: entry 'OEBPS/a.xhtml' is corrupt (")


# --- broken but readable ---------------------------------------------------------------------


def test_malformed_xhtml_is_recovered_with_a_warning():
    doc = xhtml("<p>kept <b>bold</p><p>after</p>")
    book = read_raw(build_epub({"a.xhtml": doc}, nav=NAV), "tags.epub")
    assert "kept bold" in book.pages[0].text
    assert [w.split(" (")[0] for w in book.warnings] == ["tags.epub: OEBPS/a.xhtml is not well-formed XML"]


def test_nesting_deeper_than_the_parser_limit_is_refused_not_crashed():
    doc = xhtml("<p>start</p>" + "<div>" * 5000 + "deep" + "</div>" * 5000)
    start = time.perf_counter()
    with pytest.raises(UnreadableInputError, match="exceeds the XML parser's limits .Excessive depth"):
        read_raw(build_epub({"a.xhtml": doc}, nav=NAV), "deep.epub")
    assert time.perf_counter() - start < HANG_SECONDS


def test_python_m_chunking_outline_prints_one_line_and_exits_3(tmp_path):
    hostile = '<?xml version="1.0"?>' + LAUGHS + "<container>&lol9;</container>"
    path = tmp_path / "lol.epub"
    path.write_bytes(build_epub(ONE_DOC, nav=NAV, files={"META-INF/container.xml": hostile}))
    done = subprocess.run(
        [sys.executable, "-m", "chunking", "outline", str(path)], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout) == (3, "")
    assert done.stderr == (
        "chunking: error: lol.epub: META-INF/container.xml declares XML entities"
        " (DOCTYPE internal subset); refused as unsafe\n"
    )


def test_many_entries_are_refused_from_the_end_record_before_parsing():
    # Only the end-of-central-directory record claims 60,000 entries; the real zip has a few.
    data = bytearray(build_epub(ONE_DOC, nav=NAV))
    end = data.rfind(b"PK\x05\x06")
    data[end + 8 : end + 12] = struct.pack("<HH", 60_000, 60_000)
    assert refused(bytes(data), "claims.epub") == (
        f"claims.epub: 60000 zip entries (limit {MAX_ENTRIES}); refused"
    )


def test_duplicate_zip_entries_are_refused():
    buf = io.BytesIO(build_epub(ONE_DOC, nav=NAV))
    with zipfile.ZipFile(buf, "a") as zf, pytest.warns(UserWarning, match="Duplicate name"):
        zf.writestr("OEBPS/a.xhtml", xhtml("<p>Other text.</p>"))
    assert refused(buf.getvalue(), "dup.epub") == "dup.epub: zip entry 'OEBPS/a.xhtml' appears twice; refused"


def test_href_that_is_not_a_url_leaves_its_entry_unresolved():
    nav = nav_doc('<li><a href="a.xhtml">One</a></li><li><a href="http://[broken">Broken</a></li>')
    book = read_raw(build_epub(ONE_DOC, nav=nav), "url.epub")
    assert [(e.title, e.page) for e in book.outline] == [("One", 1), ("Broken", 0)]


def test_zip64_entry_count_is_read_from_the_zip64_end_record():
    data = bytearray(build_epub(ONE_DOC, nav=NAV))
    end = data.rfind(b"PK\x05\x06")
    data[end + 8 : end + 12] = struct.pack("<HH", 0xFFFF, 0xFFFF)
    zip64_end = b"PK\x06\x06" + struct.pack("<QHHIIQQQQ", 44, 45, 45, 0, 0, 70_000, 70_000, 0, 0)
    data[end:end] = zip64_end
    assert refused(bytes(data), "z64.epub") == f"z64.epub: 70000 zip entries (limit {MAX_ENTRIES}); refused"


def test_entity_declarations_are_refused_in_the_ncx():
    ncx = NCX_BOOK.replace('<?xml version="1.0" encoding="UTF-8"?>', '<?xml version="1.0"?>' + LAUGHS)
    data = build_epub(ONE_DOC, ncx=ncx.replace("<text>One</text>", "<text>&lol9;</text>"))
    assert refused(data, "ncx.epub") == (
        "ncx.epub: OEBPS/toc.ncx declares XML entities (DOCTYPE internal subset); refused as unsafe"
    )


NCX_BOOK = """<?xml version="1.0" encoding="UTF-8"?>
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
<head/><docTitle><text>T</text></docTitle>
<navMap><navPoint id="n1"><navLabel><text>One</text></navLabel><content src="a.xhtml"/></navPoint></navMap>
</ncx>"""
