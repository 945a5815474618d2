"""Stage 1 (read), EPUB container: bounded, path-checked, DRM-aware access to an EPUB's zip.

Contract: nothing in an EPUB is decompressed without a bound. Opening the archive checks the
entry count and every entry's declared size and compression ratio; reading an entry streams it
in blocks and re-checks the size, the ratio and the running total of everything read, so a zip
bomb (honest or lying headers) stops at a fixed limit instead of filling memory. Hrefs are
resolved inside the archive or refused. DRM is detected from ``META-INF/encryption.xml``.
Every refusal is an ``UnreadableInputError`` with one line naming the file.

The book's root is the folder that holds ``META-INF/container.xml``: the top of the zip, as the
OCF spec says, or else the one top-level folder that holds it (``book/META-INF/container.xml``,
a book folder zipped whole), as reading systems that look for the container open it. Entry
paths are then relative to that folder and nothing outside it can be read or pointed at; two
such folders are ambiguous and refused.
"""

from __future__ import annotations

import io
import posixpath
import struct
import zipfile
import zlib
from urllib.parse import unquote, urlsplit

from ..errors import UnreadableInputError
from .xhtml import MalformedXmlError, parse_xml

MAX_ENTRIES = 10_000
"""Most zip entries an EPUB may have (real books have tens to a few thousand)."""
MAX_ENTRY_BYTES = 64 * 2**20
"""Largest uncompressed size of one entry (declared or actual)."""
MAX_TOTAL_BYTES = 512 * 2**20
"""Largest uncompressed size of all entries together (declared), and of all bytes read."""
MAX_RATIO = 200
"""Largest uncompressed/compressed ratio of an entry once it is past ``RATIO_FLOOR`` bytes.
Text and markup compress 3-20x; a deflate bomb reaches ~1000x."""
RATIO_FLOOR = 2**20
"""Entries smaller than this are never refused for their ratio (tiny files compress oddly)."""
_BLOCK = 2**20

CONTAINER = "META-INF/container.xml"
ENCRYPTION_XML = "META-INF/encryption.xml"
_ENC_NS = "{http://www.w3.org/2001/04/xmlenc#}"
FONT_OBFUSCATION = frozenset({"http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"})
"""Encryption "algorithms" that only obfuscate embedded fonts: allowed, the text stays readable."""
_MEDIA_SUFFIXES = tuple(".ttf .otf .woff .woff2 .jpg .jpeg .png .gif .webp .mp3 .mp4".split())
"""Encrypted files with these suffixes hold no text: encrypting them is not DRM on the text."""

_MIB = 2**20


def resolve_href(doc_path: str, href: str, where: str) -> tuple[str, str] | None:
    """Resolve an href found in ``doc_path`` to a zip entry path and a fragment.

    Args:
        doc_path (str): zip path of the document holding the href (its folder is the base).
        href (str): the href as written (percent-encoded, maybe with ``#fragment``).
        where (str): ``"<file>: <what>"`` for the error message.

    Returns:
        tuple[str, str] | None: ``(zip path, fragment)``; ``fragment`` is ``""`` when absent and the
        path is ``doc_path`` itself for a bare ``#fragment``. None for external links (``http:``…)
        and for hrefs that are not URLs at all.

    Raises:
        UnreadableInputError: the href is absolute, uses backslashes or climbs out of the archive.
    """
    raw_path, _, fragment = href.strip().partition("#")
    try:
        parts = urlsplit(raw_path)
    except ValueError:
        return None  # not even a URL ("http://[x"): nothing in the book to point at
    if len(parts.scheme) > 1:
        return None  # http:, mailto:, … : outside the book, nothing to read
    path = unquote(raw_path)
    if not path:
        return doc_path, unquote(fragment)
    if path.startswith("/") or "\\" in path or parts.scheme or "\x00" in path:
        raise UnreadableInputError(f"{where} href {href!r} is an absolute or unsafe path; refused")
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(doc_path), path))
    if resolved == ".." or resolved.startswith("../"):
        raise UnreadableInputError(f"{where} href {href!r} points outside the archive; refused")
    return resolved, unquote(fragment)


def _declared_entry_count(data: bytes) -> int:
    """Entry count from the zip's end-of-central-directory record (ZIP64 aware); 0 if not found."""
    at = data.rfind(b"PK\x05\x06", max(0, len(data) - 65_557))
    if at < 0 or at + 22 > len(data):
        return 0
    count = struct.unpack_from("<H", data, at + 10)[0]
    zip64 = data.rfind(b"PK\x06\x06", max(0, at - 4096), at)
    if count == 0xFFFF and zip64 >= 0 and zip64 + 40 <= len(data):
        count = struct.unpack_from("<Q", data, zip64 + 32)[0]
    return count


class EpubArchive:
    """The zip inside an EPUB, opened with limits.

    Args:
        data (bytes): the whole file.
        name (str): the file name, for messages.

    Raises:
        UnreadableInputError: not a zip, too many entries, an entry or the total too large or
            too compressible (zip bomb), two entries with one name, no container at the top
            and two or more top-level folders holding one (ambiguous).
    """

    def __init__(self, data: bytes, name: str) -> None:
        self.name = name
        # NOTE: checked before zipfile parses the central directory, which is slow for millions
        # of entries; the real count is checked again below.
        declared_entries = _declared_entry_count(data)
        if declared_entries > MAX_ENTRIES:
            raise UnreadableInputError(
                f"{name}: {declared_entries} zip entries (limit {MAX_ENTRIES}); refused"
            )
        try:
            self._zip = zipfile.ZipFile(io.BytesIO(data))
            infos = self._zip.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
            raise UnreadableInputError(f"{name}: not a valid zip archive, so not an EPUB ({exc})") from None
        if len(infos) > MAX_ENTRIES:
            raise UnreadableInputError(f"{name}: {len(infos)} zip entries (limit {MAX_ENTRIES}); refused")
        self._infos: dict[str, zipfile.ZipInfo] = {}
        declared = 0
        for info in infos:
            self._check_size(info.filename, info.file_size, info.compress_size)
            declared += info.file_size
            if info.filename in self._infos:
                # Two entries with one name: readers disagree on which one counts, so refuse.
                raise UnreadableInputError(f"{name}: zip entry {info.filename!r} appears twice; refused")
            self._infos[info.filename] = info
        if declared > MAX_TOTAL_BYTES:
            raise UnreadableInputError(
                f"{name}: entries expand to {declared // _MIB} MiB in all"
                f" (limit {MAX_TOTAL_BYTES // _MIB} MiB);"
                " refused as a possible zip bomb"
            )
        self._read_total = 0
        self.root = self._find_root()
        """The folder of the zip the book sits in (``""`` at the top, else ``"book/"``); every
        path this archive takes or reports is relative to it."""
        if self.root:
            size = len(self.root)
            self._infos = {
                p[size:]: i for p, i in self._infos.items() if p.startswith(self.root) and p[size:]
            }

    def _find_root(self) -> str:
        """``""`` when the container is at the top; else the one top-level folder holding it.

        Raises:
            UnreadableInputError: no container at the top and two or more folders hold one.
        """
        if CONTAINER in self._infos:
            return ""
        folders = sorted(
            {
                folder
                for path in self._infos
                if (folder := path.partition("/")[0]) not in ("", ".", "..")
                and "\\" not in folder
                and path == f"{folder}/{CONTAINER}"
            }
        )
        if len(folders) > 1:
            shown = ", ".join(repr(f + "/") for f in folders[:3])
            raise UnreadableInputError(
                f"{self.name}: no {CONTAINER} at the top of the zip, and {len(folders)} folders hold one"
                f" ({shown}{', …' if len(folders) > 3 else ''}); which one is the book is ambiguous, so refused"
            )
        return f"{folders[0]}/" if folders else ""

    def _check_size(self, path: str, size: int, compressed: int) -> None:
        if size > MAX_ENTRY_BYTES:
            raise UnreadableInputError(
                f"{self.name}: entry {path!r} expands to {size // _MIB} MiB or more"
                f" (limit {MAX_ENTRY_BYTES // _MIB} MiB); refused as a possible zip bomb"
            )
        if size > RATIO_FLOOR and size > MAX_RATIO * max(compressed, 1):
            raise UnreadableInputError(
                f"{self.name}: entry {path!r} expands {size // max(compressed, 1)}x"
                f" (limit {MAX_RATIO}x); refused as a possible zip bomb"
            )

    def has(self, path: str) -> bool:
        """True when the archive holds an entry at ``path`` (nothing is read)."""
        return path in self._infos

    def read(self, path: str) -> bytes | None:
        """Read one entry within the limits.

        Args:
            path (str): the zip entry path.

        Returns:
            bytes | None: the entry's bytes, None when the archive has no such entry.

        Raises:
            UnreadableInputError: the entry breaks a limit while being read, is encrypted at zip
                level, or is corrupt.
        """
        info = self._infos.get(path)
        if info is None:
            return None
        if info.flag_bits & 0x1:
            raise UnreadableInputError(f"{self.name}: entry {path!r} is password-protected; refused")
        blocks: list[bytes] = []
        size = 0
        try:
            with self._zip.open(info) as fh:
                while block := fh.read(_BLOCK):
                    size += len(block)
                    self._read_total += len(block)
                    # NOTE: zipfile already stops at the declared size; re-checking the actual
                    # bytes keeps the bound even if that ever changes, and enforces the ratio.
                    self._check_size(path, size, info.compress_size)
                    if self._read_total > MAX_TOTAL_BYTES:
                        raise UnreadableInputError(
                            f"{self.name}: more than {MAX_TOTAL_BYTES // _MIB} MiB read from the archive;"
                            " refused as a possible zip bomb"
                        )
                    blocks.append(block)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError) as exc:
            raise UnreadableInputError(f"{self.name}: entry {path!r} is corrupt ({exc})") from None
        return b"".join(blocks)

    def check_drm(self) -> None:
        """Refuse an EPUB whose ``META-INF/encryption.xml`` encrypts text-bearing files.

        Font obfuscation (IDPF/Adobe) and encrypted images or fonts leave the text readable, so
        they pass; anything else encrypted means DRM.

        Raises:
            UnreadableInputError: "<file>: this EPUB is DRM-protected (…)".
        """
        data = self.read(ENCRYPTION_XML)
        if data is None:
            return
        try:
            root = parse_xml(data, f"{self.name}: {ENCRYPTION_XML}")
        except MalformedXmlError:
            raise UnreadableInputError(
                f"{self.name}: this EPUB is DRM-protected or damaged ({ENCRYPTION_XML} cannot be parsed);"
                " only DRM-free EPUBs can be read"
            ) from None
        encrypted = []
        for item in root.iter(f"{_ENC_NS}EncryptedData"):
            method = item.find(f"{_ENC_NS}EncryptionMethod")
            if method is not None and method.get("Algorithm") in FONT_OBFUSCATION:
                continue
            uris = [ref.get("URI") or "" for ref in item.iter(f"{_ENC_NS}CipherReference")]
            if not uris:
                encrypted.append("")  # encrypted data without a named file: assume content
            encrypted += [uri for uri in uris if not uri.lower().endswith(_MEDIA_SUFFIXES)]
        if encrypted:
            raise UnreadableInputError(
                f"{self.name}: this EPUB is DRM-protected ({ENCRYPTION_XML} encrypts {len(encrypted)} content"
                f" file{'s' if len(encrypted) != 1 else ''}); only DRM-free EPUBs can be read"
            )
