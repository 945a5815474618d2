"""Tesseract, run as the ``tesseract`` command on one page image: its text and word confidences.

NOTE: not PyMuPDF's ``Page.get_textpage_ocr``: its text page holds characters only, with no
word confidence (MuPDF's OCR device drops Tesseract's), and the manifest reports each OCR'd
page's mean word confidence and names the low ones. The command's TSV output has both. Running
the command also keeps Tesseract in a child process of its own: a page that takes too long is
killed at ``PAGE_TIMEOUT_S`` (a hostile image cannot hang the run), and a crash of Tesseract or
Leptonica on a bad image is one failed page, not a dead interpreter.

The image goes in on stdin as PNM (uncompressed: no PNG encoding cost) with its dpi given, the
TSV comes out on stdout. ``OMP_THREAD_LIMIT=1`` in the child's environment: the caller runs one
Tesseract per core (``chunking.ocr.pages``), and Tesseract's own OpenMP threads would fight them
for the same cores.

NOTE: stdin is an unnamed file holding the image (``_image_file``: in memory where the system
has such files), written in one call, not a pipe fed by ``communicate``: ``communicate`` writes a
pipe 4 KB at a time and takes the GIL back for each of the ~2,000 writes a 9 MB page needs, while
this process renders the next pages (PyMuPDF holds the GIL) and measures line sizes. Measured
(issue 25, bench/ocr_feed.py, bench/OCR.md): while the process rendered, feeding one page that
way took twice to three times as long as from a file (85 against 43 ms, 360 against 109 ms on a
busier machine, up to 1.2 s), time in which that core's Tesseract sat waiting for its image.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
import threading
from dataclasses import dataclass, field
from typing import BinaryIO

from ..errors import UsageError
from .lines import OcrLine, OcrWord, build_lines

PAGE_TIMEOUT_S = 120
"""Longest one page may take (a dense 300-dpi page takes about a second); then it is killed."""

DEBIAN_PACKAGE = "tesseract-ocr"
"""What to install where Tesseract is missing (Debian and Ubuntu; one package per language)."""

_LANGUAGE_PACKAGE = "tesseract-ocr-{}"


class OcrFailed(Exception):
    """Tesseract could not read one page (timed out, crashed, refused the image)."""


@dataclass(frozen=True)
class PageOcr:
    """What OCR read on one page.

    Attributes:
        text (str): the words, one line per Tesseract text line, in Tesseract's reading order.
        confidence (float): mean word confidence, 0-100 (0 when no word was found).
        words (int): words found.
        lines (tuple[OcrLine, ...]): the lines of ``text``, in its order, with their type size
            and place in points (``chunking.ocr.lines``): what the structure engine's
            typography reads on a page without a text layer.
    """

    text: str
    confidence: float
    words: int
    lines: tuple[OcrLine, ...] = field(default=())


def tesseract_path() -> str | None:
    """The ``tesseract`` command on ``PATH``, None when it is not installed (read on every call)."""
    return shutil.which("tesseract")


@functools.lru_cache(maxsize=8)
def _version(path: str) -> str:
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    first = (out.stdout or out.stderr).strip().splitlines()
    return first[0].strip() if first else ""


@functools.lru_cache(maxsize=8)
def _languages(path: str) -> frozenset[str]:
    try:
        out = subprocess.run([path, "--list-langs"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    lines = (out.stdout or "").splitlines()
    return frozenset(line.strip() for line in lines[1:] if line.strip())


def tesseract_version(path: str) -> str:
    """``tesseract --version``'s first line (``tesseract 5.3.0``), once per executable."""
    return _version(path)


def missing_languages(path: str, language: str) -> list[str]:
    """The languages of ``language`` (``eng+deu``) that this Tesseract has no data for."""
    have = _languages(path)
    return [lang for lang in language.split("+") if lang not in have]


def language_package(languages: list[str]) -> str:
    """The Debian packages that add ``languages`` (``tesseract-ocr-deu``)."""
    return ", ".join(_LANGUAGE_PACKAGE.format(lang.lower().replace("_", "-")) for lang in languages)


def check_always(mode: str, language: str) -> None:
    """Refuse ``--ocr always`` where Tesseract or its language data is missing: the user asked for
    OCR, so running without it would be silently wrong.

    Raises:
        UsageError: one line naming the Debian package to install (exit 2).
    """
    if mode != "always":
        return
    path = tesseract_path()
    if path is None:
        raise UsageError(
            f"--ocr always needs Tesseract, which is not installed (Debian package {DEBIAN_PACKAGE})"
        )
    missing = missing_languages(path, language)
    if missing:
        raise UsageError(
            f"--ocr always: Tesseract has no data for language {'+'.join(missing)} "
            f"(Debian package {language_package(missing)})"
        )


def command(path: str, language: str, dpi: int) -> list[str]:
    """The command line: image on stdin, TSV on stdout, default page segmentation (columns)."""
    return [path, "stdin", "stdout", "-l", language, "--dpi", str(dpi), "tsv"]


def image_file(image: bytes) -> BinaryIO:
    """``image`` in an unnamed file, at its start, to be a child's stdin (see the module's NOTE):
    a memory file where the system has them (``os.memfd_create``, Linux), else a temporary file
    (deleted when closed). The caller closes it.

    Raises:
        OSError: the file cannot be made or written (no memory, a full disk).
    """
    memfd = getattr(os, "memfd_create", None)
    fh: BinaryIO = open(memfd("page-image"), "w+b") if memfd else tempfile.TemporaryFile()
    try:
        fh.write(image)
        fh.seek(0)
    except BaseException:
        fh.close()
        raise
    return fh


def parse_tsv(tsv: str, dpi: int = 300, image: bytes | None = None) -> PageOcr:
    """Tesseract's TSV → words joined by spaces, one line per text line, the mean word
    confidence, and each line's type size and box (``chunking.ocr.lines``; the boxes are in
    pixels at ``dpi``, measured on ``image``, the grey PNM Tesseract read, when given). Rows of level 5 are words; (block, paragraph, line) groups them into
    lines."""
    lines: dict[tuple[str, str, str], list[OcrWord]] = {}
    confidences: list[float] = []
    for row in tsv.splitlines()[1:]:
        cells = row.split("\t")
        if len(cells) != 12 or cells[0] != "5":
            continue
        word = cells[11].strip()
        try:
            conf = float(cells[10])
            left, top, width, height = (int(c) for c in cells[6:10])
        except ValueError:
            continue
        if not word or conf < 0:
            continue
        lines.setdefault((cells[2], cells[3], cells[4]), []).append(
            OcrWord(word, left, top, width, height, conf)
        )
        confidences.append(min(100.0, conf))
    words = list(lines.values())
    text = "\n".join(" ".join(w.text for w in line) for line in words)
    mean = round(sum(confidences) / len(confidences), 1) if confidences else 0.0
    return PageOcr(
        text=text, confidence=mean, words=len(confidences), lines=tuple(build_lines(words, dpi, image))
    )


class Children:
    """The Tesseract processes running now, so that an interrupted run kills every one of them
    (no orphan keeps a core busy after Ctrl-C or SIGTERM)."""

    def __init__(self) -> None:
        self._live: set[subprocess.Popen] = set()
        self._lock = threading.Lock()

    def add(self, proc: subprocess.Popen) -> None:
        with self._lock:
            self._live.add(proc)

    def discard(self, proc: subprocess.Popen) -> None:
        with self._lock:
            self._live.discard(proc)

    def kill_all(self) -> None:
        with self._lock:
            live, self._live = list(self._live), set()
        for proc in live:
            proc.kill()
            proc.wait()


def recognise(
    image: bytes,
    path: str,
    language: str,
    dpi: int,
    children: Children,
    timeout: float = PAGE_TIMEOUT_S,
) -> PageOcr:
    """OCR one page image (PNM bytes) with the Tesseract at ``path``.

    Raises:
        OcrFailed: Tesseract timed out, exited with an error or could not be started.
    """
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    try:
        with image_file(image) as stdin:  # NOTE: the child has its own handle once started
            proc = subprocess.Popen(
                command(path, language, dpi),
                stdin=stdin,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
            )
    except OSError as exc:
        raise OcrFailed(f"cannot start tesseract ({exc.strerror or type(exc).__name__})") from None
    children.add(proc)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise OcrFailed(f"timed out after {timeout:g} s") from None
    finally:
        children.discard(proc)
    if proc.returncode != 0:
        reason = " ".join(err.decode("utf-8", "replace").split())[:120] or f"exit {proc.returncode}"
        raise OcrFailed(f"tesseract failed ({reason})")
    return parse_tsv(out.decode("utf-8", "replace"), dpi, image)
