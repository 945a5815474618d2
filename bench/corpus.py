"""Where the structure bench finds its books and its scorer, shared by ``bench/structure.py`` and
``tests/test_corpus_structure.py`` (issue 10).

Three sets of books with verified chapter starts:

* the development corpus: ground truth in ``../shared/corpus/*.json``, books fetched by
  ``../shared/corpus/fetch.sh`` into a cache outside the repo;
* books outside the corpus: ground truth in ``bench/extra-books/*.json``, books fetched by
  ``bench/extra-books/fetch.sh`` (same format, same rules);
* the sample books: ``sample_books/reference/*.json`` plus the front matter those references leave
  out (``bench/sample-books-supplement.json``), merged into a temporary copy, never edited;
* the validation books: ground truth in ``bench/validation-books/*.json`` (each names its
  ``family``), books fetched by ``bench/fetch_books.py`` from the packages the JSONs name.

**Tuning and validation** (issue 22): every book has a producer family (``family_of``). The
families of the books the structure work was tuned on (sample, corpus, extra: ``bench/families.json``)
are the tuning families; a validation book of a tuning family is scored with the tuning set
(``split_of``), so no family is ever in both.

``../shared`` is resolved beside the repo root (the checkout's parent folder), as in CI, where a
fresh clone sits next to a copy of ``shared/``. The scoring rules live in one place,
``../shared/corpus/score.py``: the bench runs it, the test imports its functions.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from collections.abc import Iterator
from types import ModuleType

from chunking.user_cache import cache_root

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = ROOT.parent / "shared"
CORPUS_GT = SHARED / "corpus"
SCORE_PY = CORPUS_GT / "score.py"
EXTRA_GT = HERE / "extra-books"
SAMPLES = ROOT / "sample_books"
SAMPLE_GT = SAMPLES / "reference"
SUPPLEMENT = HERE / "sample-books-supplement.json"
VALIDATION_GT = HERE / "validation-books"
FAMILIES = HERE / "families.json"
CACHE = Path(os.environ.get("BOOK_CHUNK_CACHE") or cache_root())
"""Books are fetched under here (``corpus/``, ``extra-books/``): the package's cache root
(``chunking.user_cache``); ``$BOOK_CHUNK_CACHE`` overrides it."""
CHECKSUM_CHANGED = "does not match the sha256"
"""What a fetch script prints when a Debian package changed under a ground truth (not a failure of ours)."""


class ChecksumChanged(RuntimeError):
    """A book's package no longer has the file its ground truth was built from. The other books
    were fetched: ``folder`` holds them (the changed one is absent)."""

    def __init__(self, message: str, folder: Path) -> None:
        super().__init__(message)
        self.folder = folder


class FetchFailed(RuntimeError):
    """A fetch script failed for any other reason (no apt, no network, a bug)."""


@contextlib.contextmanager
def _one_fetcher(dest: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``dest`` while fetching into it: parallel test workers (xdist)
    and benches share one cache, and two ``apt-get download`` runs in one folder race."""
    dest.mkdir(parents=True, exist_ok=True)
    with open(dest.parent / f".{dest.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def fetch(script: Path, dest: Path) -> Path:
    """Run a fetch script (``fetch.sh DIR``) and return the folder of books.

    Raises:
        ChecksumChanged: the script said a file does not match its sha256.
        FetchFailed: it failed for any other reason.
    """
    with _one_fetcher(dest):
        proc = subprocess.run(["bash", str(script), str(dest)], capture_output=True, text=True)
    if proc.returncode != 0:
        tail = (proc.stderr.strip() or proc.stdout.strip())[-600:]
        if CHECKSUM_CHANGED in proc.stderr:
            raise ChecksumChanged(tail, dest)
        raise FetchFailed(f"{script} exited {proc.returncode}: {tail}")
    return dest


def fetch_corpus(dest: Path | None = None) -> Path:
    """The 13 corpus books, fetched (idempotently) into ``dest`` or the cache."""
    return fetch(CORPUS_GT / "fetch.sh", dest or CACHE / "corpus")


def fetch_extra(dest: Path | None = None) -> Path:
    """The books outside the corpus, fetched (idempotently) into ``dest`` or the cache."""
    return fetch(EXTRA_GT / "fetch.sh", dest or CACHE / "extra-books")


def fetch_validation(dest: Path | None = None) -> Path:
    """The validation books, fetched (idempotently) into ``dest`` or the cache."""
    dest = dest or CACHE / "validation-books"
    script = HERE / "fetch_books.py"
    with _one_fetcher(dest):
        proc = subprocess.run(
            [sys.executable, str(script), str(VALIDATION_GT), str(dest)], capture_output=True, text=True
        )
    if proc.returncode != 0:
        tail = proc.stderr.strip()[-600:]
        if CHECKSUM_CHANGED in proc.stderr:
            raise ChecksumChanged(tail, dest)
        raise FetchFailed(f"{script} exited {proc.returncode}: {tail}")
    return dest


def tuning_families() -> dict[str, str]:
    """Book stem → family, for every book the structure work was tuned on.

    Raises:
        ValueError: the file holds more than its ``about`` and ``books``: a family filed beside
            ``books`` would be read as no tuning family, and its books scored as validation.
    """
    data = json.loads(FAMILIES.read_text(encoding="utf-8"))
    if set(data) != {"about", "books"}:
        raise ValueError(f"{FAMILIES}: keys must be 'about' and 'books', not {sorted(data)}")
    return data["books"]


def family_of(stem: str, gt: dict) -> str:
    """A book's producer family: its JSON's ``family``, else ``bench/families.json``'s."""
    return gt.get("family") or tuning_families().get(stem, "unknown")


def split_of(family: str) -> str:
    """``tuning`` for a family any tuning book belongs to, else ``validation``."""
    return "tuning" if family in set(tuning_families().values()) else "validation"


def load_scorer() -> ModuleType:
    """``score.py`` as a module (its ``score_pdf``, ``score_epub``, ``f1``, ``CHAPTER_LEVEL``)."""
    spec = importlib.util.spec_from_file_location("corpus_score", SCORE_PY)
    module = importlib.util.module_from_spec(spec)
    # NOTE: no __pycache__ beside score.py: shared/ is not ours (and read-only in CI).
    before, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        spec.loader.exec_module(module)
    finally:
        sys.dont_write_bytecode = before
    return module


def _unicode_norm(title: str | None) -> str:
    """score.py's title key with every script's letters and digits kept (its own keeps a-z0-9)."""
    title = re.sub(r"\{[^}]*\}", " ", title or "")
    return " ".join(re.sub(r"[\W_]+", " ", title.casefold()).split())


def load_unicode_scorer() -> ModuleType:
    """``score.py`` as a module of its own whose title key keeps every script: a book whose titles
    are Chinese or Korean is empty under score.py's ``a-z0-9`` key, so nothing could match. The
    rules (what matches, what counts) stay score.py's; only the key changes."""
    module = load_scorer()
    module.norm = _unicode_norm
    return module


def needs_unicode_titles(gt: dict, scorer: ModuleType) -> bool:
    """A book scored by title (not a PDF) with a title that score.py's key empties."""
    return gt.get("format") != "pdf" and any(
        e.get("title", "").strip() and not scorer.norm(e["title"]) for e in gt.get("entries", [])
    )


def truths(folder: Path) -> dict[str, dict]:
    """Ground-truth JSONs of a folder by stem, those score.py would read (with ``entries``, ``file``)."""
    out = {}
    for path in sorted(folder.glob("*.json")):
        gt = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(gt, dict) and "entries" in gt and "file" in gt:
            out[path.stem] = gt
    return out


def sample_truths() -> dict[str, dict]:
    """The sample books' references with the supplement's front and back matter added (in page order)."""
    extra = json.loads(SUPPLEMENT.read_text(encoding="utf-8"))["books"]
    out = {}
    for name, gt in truths(SAMPLE_GT).items():
        added = extra.get(name, [])
        if added:
            merged = gt["entries"] + added
            if gt["format"] == "pdf":
                merged.sort(key=lambda e: e["start_page"])
            gt = dict(gt, entries=merged)
        out[name] = gt
    return out


def write_truths(gts: dict[str, dict], folder: Path) -> Path:
    """Write ground truths as ``<stem>.json`` into ``folder`` (for score.py's ``--gt``)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, gt in gts.items():
        (folder / f"{name}.json").write_text(json.dumps(gt, indent=1), encoding="utf-8")
    return folder


def score(scorer: ModuleType, gt: dict, headings: list[dict]) -> tuple[float, float, float, str]:
    """Precision, recall, F1 and notes (misses, false starts) of headings, by score.py's rules."""
    rule = scorer.score_pdf if gt["format"] == "pdf" else scorer.score_epub
    p, r, missed, false = rule(gt, headings)
    return p, r, scorer.f1(p, r), "; ".join(x for x in (missed, false) if x)
