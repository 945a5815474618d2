"""One home per rule (issue 23): each rule below is defined once and every user reads it from there.

Each test is named after the rule it protects; the source checks (``_defined_in``) fail when a
copy of a rule reappears elsewhere in the package, the behaviour checks when a user stops
following the one definition.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

import chunking
from chunking import atomic
from chunking.analysis.scorecard import ends_cleanly, scorecard
from chunking.batch import output_path
from chunking.cli import build_parser
from chunking.cores import available_cores
from chunking.errors import OutputError
from chunking.export import format_for_path, read_chunks, write_outputs
from chunking.normalise.folios import number_tokens, page_token
from chunking.policy import POLICY_DEFAULTS, UNUSED_FIELDS, Policy
from chunking.readers import SUPPORTED_EXTENSIONS
from chunking.readers.text import decode_text
from chunking.retrieval.space import sentence_starts
from chunking.rules import (
    BOOK_FORMATS,
    EXPORT_FORMATS,
    ROMAN_PATTERN,
    book_format,
    ends_paragraph,
    ends_sentence,
    export_format,
    next_sentence_starts,
    roman_value,
)
from chunking.strategies import chunk_book
from chunking.tokens import tokenize
from chunking.user_cache import cache_root
from chunking.validate import validate_chunks
from synthetic_books import make_book

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "chunking"


def _sources(under: Path = PACKAGE, skip: tuple[str, ...] = ()) -> dict[str, str]:
    """Relative path → source of every module of the package, but those under ``skip``."""
    return {
        p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(under.rglob("*.py"))
        if not p.relative_to(ROOT).as_posix().startswith(skip)
    }


def _defined_in(pattern: str, skip: tuple[str, ...] = ()) -> list[str]:
    """The package modules whose source matches ``pattern``."""
    rx = re.compile(pattern)
    return [path for path, text in _sources(skip=skip).items() if rx.search(text)]


# --- formats and file extensions ------------------------------------------------------------------


def test_formats_one_table_names_langchain_files_alike_in_batch_app_and_cli(tmp_path):
    book = tmp_path / "books" / "b.pdf"
    assert output_path(book, tmp_path / "books", tmp_path / "out", "langchain").name == "b.pdf.langchain.jsonl"
    for fmt, ext in EXPORT_FORMATS.items():
        assert output_path(book, tmp_path / "books", tmp_path / "out", fmt).name == "b.pdf" + ext
        assert format_for_path(f"x{ext}", None) == fmt == export_format(f"X{ext.upper()}")
    assert format_for_path("x.json", None) == "jsonl" and format_for_path("x.txt", None) == "jsonl"
    assert build_parser().parse_args(["chunk", "b.pdf", "--format", "langchain"]).format == "langchain"
    assert _defined_in(r'"langchain":\s*"') == ["chunking/rules.py"]


def test_formats_one_table_names_the_book_formats_the_readers_accept():
    assert SUPPORTED_EXTENSIONS == tuple(BOOK_FORMATS)
    assert [book_format(f"b{ext.upper()}") for ext in BOOK_FORMATS] == list(BOOK_FORMATS.values())
    assert book_format("b.docx") is None and book_format(".md") is None
    assert _defined_in(r'\(\s*"\.pdf",\s*"\.epub"') == []


def test_formats_one_table_langchain_file_reads_back_as_langchain(tmp_path):
    tb = tokenize(make_book(["Some words here. " * 40]))
    chunks = chunk_book(tb, Policy(max_tokens=64, overlap_tokens=8))
    report = validate_chunks(chunks, tb, Policy(max_tokens=64, overlap_tokens=8))
    out = tmp_path / "b.langchain.jsonl"
    write_outputs(chunks, {"book": {}, "validation": report.to_dict()}, out, format_for_path(out, None))
    assert read_chunks(out) == (chunks, "langchain")


# --- policy defaults ------------------------------------------------------------------------------


def test_policy_defaults_are_read_by_the_cli_parser_from_policy():
    args = vars(build_parser().parse_args(["chunk", "b.pdf"]))
    assert {k: args[k] for k in POLICY_DEFAULTS} == POLICY_DEFAULTS == Policy().to_dict()
    sources = _sources(PACKAGE / "commands") | {"chunking/cli.py": (PACKAGE / "cli.py").read_text()}
    for path, text in sources.items():
        assert not re.search(r"default=(512|120|50_000|\"chapter-window\"|\"cl100k_base\")", text), path


def test_policy_defaults_are_read_by_the_app_sidebar_from_policy():
    import inspector.data.sidebar as sidebar

    text = Path(sidebar.__file__).read_text(encoding="utf-8")
    assert "POLICY_DEFAULTS" in text and "f.default" not in text
    assert sidebar.UNUSED_FIELDS is UNUSED_FIELDS
    for strategy, unused in UNUSED_FIELDS.items():
        profile = Policy(strategy=strategy).profile()
        changed = {"target_pages": 1, "max_pages": 7, "fence": "section", "min_section_tokens": 3,
                   "min_chunk_tokens": 3}
        for name in unused:
            assert Policy(strategy=strategy, **{name: changed[name]}).profile() == profile, name


# --- the version ----------------------------------------------------------------------------------


def test_version_literal_once():
    assert _defined_in(r"__version__\s*=\s*['\"]") == ["chunking/version.py"]
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in pyproject["project"] and "version" in pyproject["project"]["dynamic"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "chunking.version.__version__"}
    from chunking.version import __version__

    assert chunking.__version__ == __version__


# --- CPU count ------------------------------------------------------------------------------------


def test_cpu_count_by_affinity_in_one_function(monkeypatch):
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {3}, raising=False)
    monkeypatch.setattr("os.cpu_count", lambda: 64)
    assert available_cores() == 1
    monkeypatch.delattr("os.sched_getaffinity", raising=False)
    assert available_cores() == 64
    assert _defined_in(r"cpu_count\(|sched_getaffinity\(") == ["chunking/cores.py"]


# --- one atomic writer ----------------------------------------------------------------------------


def test_one_atomic_writer_failed_write_leaves_no_temp_file_and_the_old_target(tmp_path):
    target = tmp_path / "out.bin"
    target.write_bytes(b"the old, whole file")

    def half_then_fail(fh):
        fh.write(b"half of the new")
        raise RuntimeError("the writer broke")

    with pytest.raises(RuntimeError):
        atomic.atomic_write(target, half_then_fail)
    assert target.read_bytes() == b"the old, whole file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]

    def disk_full(fh):
        fh.write(b"x")
        raise OSError(28, "No space left on device")

    with pytest.raises(OutputError, match="No space left"):
        atomic.atomic_write(tmp_path / "new.bin", disk_full)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]  # no half-written new.bin
    atomic.atomic_write(target, lambda fh: fh.write(b"new"))
    assert target.read_bytes() == b"new" and sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]


def test_one_atomic_writer_is_the_only_temp_and_rename():
    assert _defined_in(r"mkstemp\(|os\.replace\(|\.rename\(") == ["chunking/atomic.py"]


# --- sentence and paragraph ends ------------------------------------------------------------------

CJK = "这是第一个句子。然后是第二个句子！\n第三个句子是问题吗？\n「引号里的句子。」\n" * 30
"""CJK prose as a PDF gives it: no space after a sentence, line breaks at some sentence ends (a
window can only end where tiktoken's pieces do: after the line break, not after ``。`` itself)."""


def test_sentence_ends_cjk_need_no_space():
    first = CJK.index("。") + 1
    assert ends_sentence(CJK, first) and not ends_sentence(CJK, first - 1)
    assert ends_sentence(CJK, CJK.index("」") + 1) and ends_sentence(CJK, CJK.index("？") + 1)
    assert ends_sentence("Stop. Go", 5) and ends_sentence("Stop. Go", 6) and not ends_sentence("e.g.x", 4)
    assert ends_paragraph("as follows:\nnext", 11) and ends_paragraph("a\n\nb", 1)
    assert not ends_paragraph("a\nb", 1)


def test_sentence_ends_snap_and_scorecard_agree_on_cjk_text():
    policy = Policy(max_tokens=60, overlap_tokens=10, snap="sentence")
    tb = tokenize(make_book([CJK]))
    chunks = chunk_book(tb, policy)
    assert validate_chunks(chunks, tb, policy).ok
    snapped = [c for c in chunks if c.end_reason == "sentence"]
    assert snapped, {c.end_reason for c in chunks}
    assert all(c.text.rstrip()[-1] in "！？」" for c in snapped)
    assert all(ends_cleanly(tb.book, c.char_end) for c in snapped)
    assert scorecard(snapped, tb, policy)["mid_sentence_share"] == 0.0


_SENTENCE_FINAL_CLASS = re.compile(r"\[[^\]\n]*\]")
"""A regular-expression character class in source text (``[.!?]``, ``[!?.…]``)."""


def _spells_sentence_final(source: str) -> bool:
    """Whether ``source`` spells sentence-final punctuation itself: a character class holding
    ``.``, ``!`` and ``?`` (in any order), a CJK full stop or mark (``。！？``), or their escapes."""
    if re.search(r"\\u3002|\\uff01|\\uff1f|\\u2026", source):
        return True
    return any(
        {".", "!", "?"} <= set(m.group()) or set("\u3002\uff01\uff1f") & set(m.group())
        for m in _SENTENCE_FINAL_CLASS.finditer(source)
    )


def test_sentence_ends_defined_once():
    spelled = [path for path, text in _sources().items() if _spells_sentence_final(text)]
    assert spelled == ["chunking/rules.py"]
    # the check itself sees the copies it is there to catch, in any order and in CJK
    for copy in (r"(?<=[.!?])\s+(?=[A-Z])", r"[!?.]\s", "[。！]", r"[\u3002]"):
        assert _spells_sentence_final(copy), copy
    assert not _spells_sentence_final(r"[.,;]\s|[A-Z]\.")


def test_sentence_ends_retrieval_sentences_start_where_the_rule_ends_one():
    """Passage context (``locate``) and evaluation probes read sentences through the rule."""
    text = "Stop. go on. Then \u201cmore.\u201d Fin\n\nNext para 1.5 here\u2026 done."
    starts = sentence_starts(text).tolist()
    assert starts == [0, *next_sentence_starts(text)]
    # a lower-case word after a full stop (``e.g. the``, ``… done``) opens no sentence
    assert starts == [0, text.index("Then"), text.index("Fin"), text.index("Next")]
    assert all(ends_sentence(text, s) or ends_paragraph(text, s) for s in starts[1:])
    # contents dot leaders are no row of sentences
    leaders = "Introduction . . . . . . . 12\nGetting started . . . . . 14\n"
    assert sentence_starts(leaders).tolist() == [0]
    # CJK: a sentence starts right after 。！？ with no space, where ends_sentence ends one
    cjk = "这是第一个句子。然后是第二个句子！\n第三个句子是问题吗？\n「引号里的句子。」\n末尾"
    starts = sentence_starts(cjk).tolist()
    assert starts == [0, cjk.index("然后"), cjk.index("第三"), cjk.index("「"), cjk.index("末尾")]
    assert all(ends_sentence(cjk, s) for s in starts[1:])
    assert sentence_starts(CJK).tolist() == [0, *next_sentence_starts(CJK)]


# --- the cache folder and legacy encodings --------------------------------------------------------


def test_cache_folder_honours_xdg_cache_home(monkeypatch, tmp_path):
    monkeypatch.delenv("BOOK_CHUNK_INSPECTOR_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_root() == tmp_path / "xdg" / "book-chunk-inspector"
    monkeypatch.setenv("BOOK_CHUNK_INSPECTOR_CACHE", str(tmp_path / "ours"))
    assert cache_root() == tmp_path / "ours"


@pytest.mark.parametrize(
    "text,encoding",
    [
        ("Привет, как дела? Это проверка русского текста. " * 20, "cp1251"),
        ("これは日本語の文章です。吾輩は猫である。名前はまだ無い。" * 20, "shift_jis"),
        ("Καλημέρα, τι κάνεις; Αυτό είναι ελληνικό κείμενο. " * 20, "cp1253"),
    ],
)
def test_legacy_encodings_detected_by_charset_normalizer(text, encoding):
    decoded, warnings = decode_text(text.encode(encoding), "old.txt")
    assert decoded == text
    assert len(warnings) == 1 and "charset-normalizer" in warnings[0]


def test_legacy_encodings_cp1252_with_undefined_bytes_stays_cp1252():
    data = ("Le c\u0153ur a ses raisons \u2013 \u201cna\u00efve\u201d caf\u00e9. " * 20).encode("cp1252")
    decoded, warnings = decode_text(data + b"\x81 end", "old.txt")
    assert decoded.startswith("Le c\u0153ur a ses raisons \u2013 \u201cna\u00efve\u201d") and "\ufffd end" in decoded
    assert warnings == ["old.txt: not valid UTF-8 (first bad byte at offset 4); decoded as cp1252 with "
                        "1 undefined byte(s) replaced by U+FFFD"]


# --- roman numerals -------------------------------------------------------------------------------


def test_roman_numerals_one_pattern_and_value():
    assert re.fullmatch(ROMAN_PATTERN, "mcmxcix") and not re.fullmatch(ROMAN_PATTERN, "")
    assert re.fullmatch(ROMAN_PATTERN.upper(), "XIV") and not re.fullmatch(ROMAN_PATTERN, "iiii")
    assert [roman_value(t) for t in ("xiv", "XIV", "iiii", "vx", "", "mix")] == [14, 14, 0, 0, 0, 1009]
    # folios read roman numerals through the rule: well-formed ones only
    assert page_token("- xiv -") == "xiv" and page_token("iiii") is None
    assert number_tokens("Preface ix") == ["ix"] and number_tokens("Preface vx") == []
    well_formed = r"[mM]\{0,3\}|X\{0,3\}"
    assert _defined_in(well_formed) == ["chunking/rules.py"]


def test_roman_numerals_loose_letter_classes_defined_once():
    """Folio and label letter classes (``[ivxlcdm]{1,7}``, ``[IVXLC]{1,6}``) live in rules only."""
    assert _defined_in(r"\[ivxlcdm\]|\[IVXLC\]|\[ivxlc\]|\[IVXLCDM\]") == ["chunking/rules.py"]


def _is_chapter_level_set(kinds: set[str]) -> bool:
    """The chapter-level kinds, with or without ``part``; a list of every kind (``section`` too) is not."""
    return {"chapter", "appendix", "front", "back"} <= kinds and "section" not in kinds


def test_chapter_level_kinds_one_set():
    """The chapter-level kinds (what fences a chunk) are one set: no module spells it out again."""
    literal = re.compile(r'[({\[]((?:"[a-z]+", )+"[a-z]+")[)}\]]')
    spelled = sorted(
        path
        for path, text in _sources().items()
        for m in literal.finditer(text)
        if _is_chapter_level_set(set(re.findall(r'"([a-z]+)"', m.group(1))))
    )
    assert spelled == ["chunking/models.py"]
