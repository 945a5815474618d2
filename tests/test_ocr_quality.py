"""The garbage-text-layer rule (``chunking.ocr.quality``) and the OCR cache's distrust of its
own entries (``chunking.ocr.cache``). No Tesseract needed."""

from __future__ import annotations

import json
import os

import pytest

from chunking.ocr import cache
from chunking.ocr.engine import PageOcr, parse_tsv
from chunking.ocr.quality import MAX_UNMAPPED_SHARE, MIN_JUDGED_CHARS, MIN_WORD_SHARE, is_garbage, measure
from chunking.user_cache import CACHE_ENV

PROSE = (
    "The river ran north past the station, and the engine waited in the morning light while the "
    "farmers gathered their baskets. Nobody counted the hours; the market opened late that winter."
)


def test_prose_is_a_usable_text_layer():
    assert not is_garbage(PROSE * 3)


def test_a_layer_of_unmapped_glyphs_is_garbage():
    unmapped = " ".join("\ufffd" * 6 for _ in range(40))
    assert measure(unmapped).unmapped_share >= MAX_UNMAPPED_SHARE
    assert is_garbage(unmapped)
    assert is_garbage(" ".join("\ue021\ue022\ue023" for _ in range(40)))  # private-use code points


@pytest.mark.parametrize(
    "text",
    [
        "第二章 内容示例\n用户环境示例\n列表样式\n这是第一层\n这也是第一层\n正文示例 微分学 导数 微分",
        "まえがき\n文書の作り方\n日本語 入門書 説明します\n第一章 はじめに\n組版 文字 行間",
        "الفصل الأول مقدمة في علم الحساب والهندسة والجبر للطلاب المبتدئين في الجامعة",
        "इस पुस्तक में गणित के मूल सिद्धांतों का परिचय दिया गया है और अभ्यास भी हैं",
    ],
    ids=["Chinese", "Japanese", "Arabic", "Hindi"],
)
def test_a_text_layer_in_a_caseless_script_is_not_garbage(text):
    """A script without letter case has no case pattern to break: its words are word-like, so
    a born-digital page in it keeps its text (it was read by OCR in English before)."""
    page = "\n".join([text] * 4 + ["Figure 2 shows the TeX source, v1.2 (2023)."] * 2)
    assert not is_garbage(page)


def test_a_layer_of_junk_letters_is_garbage():
    junk = " ".join(["xQzTrk", "pLkmnv", "bRtWqz", "mnGhtk"] * 20)
    assert measure(junk).word_share < MIN_WORD_SHARE
    assert is_garbage(junk)


def test_code_numbers_and_dot_leaders_are_not_garbage():
    code = "\n".join(
        ["int main(int argc, char **argv) {", '  x_coord["left"]=7.518;', "  return 0x1F;", "}"] * 12
    )
    table = "\n".join(f"{n}  {n * 3.7:.2f}  {n**2}  0x{n:04X}" for n in range(60))
    index = "\n".join(f"CLANG_OPTION_{n} . . . . . . . . . . {n * 7}" for n in range(40))
    for text in (code, table, index):
        assert not is_garbage(text), text[:60]


def test_too_little_text_is_not_judged():
    short = "\ufffd" * (MIN_JUDGED_CHARS - 1)
    assert not is_garbage(short)
    assert is_garbage(short + "\ufffd")


def test_tsv_words_become_lines_with_their_mean_confidence():
    rows = [
        "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext",
        "1\t1\t0\t0\t0\t0\t0\t0\t100\t100\t-1\t",
        "5\t1\t1\t1\t1\t1\t0\t0\t10\t10\t90\tHello",
        "5\t1\t1\t1\t1\t2\t0\t0\t10\t10\t80\tworld",
        "5\t1\t1\t1\t2\t1\t0\t0\t10\t10\t70\tagain",
        "5\t1\t1\t1\t2\t2\t0\t0\t10\t10\t95\t ",
    ]
    result = parse_tsv("\n".join(rows))
    assert (result.text, result.confidence, result.words) == ("Hello world\nagain", 80.0, 3)
    assert [line.text for line in result.lines] == ["Hello world", "again"]


def _word(text: str, left: int, top: int, width: int, height: int) -> str:
    return f"5\t1\t1\t1\t1\t1\t{left}\t{top}\t{width}\t{height}\t96\t{text}"


def test_tsv_line_size_is_the_em_its_words_boxes_show_at_the_dpi():
    # NOTE: boxes Tesseract gave for 12 pt Times at 300 dpi (50 px to the em): ``Carried`` rises
    # to the cap height, ``library`` has ascenders and descenders, ``across`` neither.
    header = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext"
    rows = [
        _word("Carried", 301, 502, 149, 35),
        _word("library", 615, 502, 130, 45),
        _word("across", 2053, 513, 121, 24),
    ]
    (line,) = parse_tsv("\n".join([header, *rows]), dpi=300).lines
    assert line.size == pytest.approx(12.0, abs=0.3)
    assert (line.x0, line.y0) == pytest.approx((301 * 0.24, 502 * 0.24))
    (half,) = parse_tsv("\n".join([header, *rows]), dpi=150).lines
    assert half.size == pytest.approx(2 * line.size)


@pytest.fixture
def entry(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    key = cache.page_key("f" * 64, "eng", 300)
    cache.save(key, "tesseract 5.3.0", PageOcr(text="Hello", confidence=91.5, words=1))
    path = next(cache.cache_dir().rglob("*.json"))
    return key, path


def test_a_good_entry_is_used_by_its_version_or_without_tesseract(entry):
    key, _ = entry
    assert cache.load(key, "tesseract 5.3.0") == PageOcr(text="Hello", confidence=91.5, words=1)
    assert cache.load(key, None) is not None
    assert cache.load(key, "tesseract 5.4.0") is None  # another Tesseract: OCR again


def test_entry_of_another_key_or_with_a_wrong_digest_is_ignored(entry):
    key, path = entry
    record = json.loads(path.read_text())
    moved = cache.cache_dir() / "00" / ("0" * 64 + ".json")
    moved.parent.mkdir(parents=True, exist_ok=True)
    moved.write_text(json.dumps(record))
    assert cache.load("0" * 64, None) is None
    record["confidence"] = 99.0
    path.write_text(json.dumps(record))
    assert cache.load(key, None) is None


def test_oversized_fifo_and_non_json_entries_are_ignored_without_blocking(entry):
    key, path = entry
    path.write_bytes(b" " * (cache.MAX_ENTRY_BYTES + 1))
    assert cache.load(key, None) is None
    path.unlink()
    os.mkfifo(path)  # NOTE: opening a FIFO would block until a writer comes: never opened
    assert cache.load(key, None) is None
    path.unlink()
    path.write_bytes(b"\xff\xfe not json")
    assert cache.load(key, None) is None


def test_an_unwritable_cache_never_fails_the_run(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv(CACHE_ENV, str(blocker))
    cache.save(cache.page_key("a" * 64, "eng", 300), "tesseract 5.3.0", PageOcr("x", 50.0, 1))
    assert cache.load(cache.page_key("a" * 64, "eng", 300), None) is None


def test_an_index_of_camel_case_identifiers_is_not_garbage():
    """A programming manual's index (``getClassDef (getClass), 1250``) is identifiers, each word
    with a vowel: a real text layer, where junk letters (``xQzTrk``) have words without one."""
    names = ["getClassDef", "callNextMethod", "canCoerce", "getCRANmirrors", "jQuery", "TkWidgets"]
    page = "\n".join(f"{name} ({name.lower()[:5]}), {100 + k}" for k, name in enumerate(names * 8))
    assert not is_garbage(page)
    assert is_garbage(" ".join(["xQzTrk", "pLkmnv", "bRtWqz", "mnGhtk"] * 20))


def test_caseless_script_tokens_are_neutral_so_a_chinese_page_with_word_spaces_is_no_garbage():
    # a Chinese page read with its word spaces (issue 25): its tokens have no case to judge
    page = "学位论文电子文档用 WORD 输入 或 PDF 矢量文件格式 其他格式应经校档案馆特许 原则上应能 " * 3
    assert measure(page).tokens == 6  # WORD and PDF on each of 3 copies: the cased tokens only
    assert not is_garbage(page)


def glyph_ids(text: str) -> str:
    """``text`` as a TrueType font embedded without a Unicode map reads: each printable ASCII
    character as its glyph id in the standard glyph order, 29 below its code (space → U+0003)."""
    return "".join(chr(ord(ch) - 29) if " " <= ch <= "~" else ch for ch in text)


@pytest.mark.parametrize(
    "text",
    [
        "Příliš žluťoučký kůň úpěl ďábelské ódy. Strč prst skrz krk a vlk zmokl v lese u řeky, "
        "kde byl mlýn a kostel se zvonicí; hrad stál na skále nad městem a lidé šli na trh.",
        "Zażółć gęślą jaźń. Chrząszcz brzmi w trzcinie w Szczebrzeszynie, a pszczoły zbierają "
        "miód na łące przy drodze do miasta, gdzie stoi stary kościół z wysoką wieżą.",
        "Mae'r llyfr hwn yn dangos sut i ysgrifennu rhaglenni bach yn y gwaith bob dydd, gyda "
        "chymorth y cyfrifiadur a'r llawlyfr sydd wrth law yn y llyfrgell leol.",
        "Tiếng Việt có nhiều dấu thanh và chữ cái đặc biệt trong những câu văn dài của sách "
        "này, người đọc học cách viết chương trình máy tính.",
        "Die Schriftsteller schrieben nächtelang Geschichten über Angstschweiß und Herbststürme, "
        "während draußen die Strumpfwirkerei Deutschlands stillstand.",
    ],
    ids=["Czech", "Polish", "Welsh", "Vietnamese", "German"],
)
def test_a_layer_of_glyph_ids_is_garbage_and_latin_script_prose_is_not(text):
    """A font without a Unicode map reads as glyph ids: its letters keep a case pattern (``WKH``
    for ``the``) but stand mostly for consonants, where the words of every language written in
    Latin letters spell about a third of their letters with vowels."""
    page = "\n".join([text, PROSE] * 3)
    assert not is_garbage(page)
    assert not is_garbage(text * 3)
    shifted = glyph_ids(PROSE * 3)
    assert "\x03" in shifted and not measure(shifted).unmapped_share >= MAX_UNMAPPED_SHARE
    assert is_garbage(shifted)
    assert is_garbage(shifted.replace("\x03", " "))  # the same glyphs drawn with real spaces


def test_a_list_of_one_name_a_line_is_no_running_text_and_not_judged_by_its_vowels():
    """A programming library's index of routines (``zzopen``, ``zzclos``…), one a line: their
    shared prefix makes their letters consonants, but a list is no running text."""
    names = [
        f"zz{stem}"
        for stem in ("calc", "clos", "cmsg", "copy", "crhd", "crim", "dcol", "delt", "dhdu", "dkey")
    ]
    page = "\n".join(f"{name}{suffix}" for name in names for suffix in ("", "x", "k", "s"))
    assert measure(page).vowel_share < 0.26
    assert not is_garbage(page)
