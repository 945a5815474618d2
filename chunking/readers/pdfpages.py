"""PDF page text with MuPDF's own text writer: what the PDF reader (``chunking.readers.pdf``)
reads from every page."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pymupdf

from .pdfactualtext import replacements_dropped
from .pdfbuiltin import builtin_mapped
from .pdfcidfonts import identity_fonts_mapped, shows_glyph_ids
from .pdfdingbats import dingbats_mapped, sets_dingbats
from .pdfligatures import with_ligatures_in_order
from .pdfshadows import with_shadow_runs_merged
from .pdfspaces import _text_lines, with_gap_spaces, with_mirrored_glyphs_joined, with_tracking_joined
from .pdfstyles import Styles, page_styles
from .pdftracked import with_tracked_capitals_joined
from .pdftypewriter import stext_lines, with_typewriter_blank_lines

# NOTE: MuPDF's messages are read from its log (``mupdf_warnings``), never printed.
pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)

_SURROGATES = re.compile("[\ud800-\udfff]")
"""Code points MuPDF may emit that no valid text holds (an orphaned surrogate in a font's map)."""

_MUPDF_NUL = b"\xc0\x80"
"""How MuPDF's writer encodes U+0000 (modified UTF-8)."""

OVERPRINT_SHARE = 0.2
"""Two lines of the same text whose boxes start within this share of the line's height of each
other (across and down) are one line drawn twice: a shadow or a fake bold prints the same text
again a fraction of a point away (0.3 pt is common); a line that really repeats stands at least
a line's height away."""

MIN_OVERPRINT_CHARS = 2
"""Only lines of at least this many non-space characters are compared (a repeated ``}`` or
bullet is no text worth writing the page again with its boxes)."""


TEXT_FLAGS = pymupdf.TEXTFLAGS_TEXT & ~pymupdf.TEXT_PRESERVE_LIGATURES
"""The structured-text flags of a page's text: ``get_text()``'s, but ligatures expanded by MuPDF.

Why (issue 25): MuPDF adds a word space where the next glyph starts a gap after the last one, but
only after a character of a few scripts (its ``may_add_space``), and a ligature glyph
(U+FB00-FB06) is none of them: ``turned oﬀ by default`` came out ``oﬀby``, a word lost at every
ligature that ends a word (``off``, ``stuff``, ``Dayhoff``). Expanded, the ligature's last
character is a letter and the space is found. The normaliser expands ligatures anyway."""


_UNKNOWN_AS_REPLACEMENT = TEXT_FLAGS & ~pymupdf.TEXT_CID_FOR_UNKNOWN_UNICODE
"""``TEXT_FLAGS`` with a glyph that has no Unicode read as U+FFFD instead of its character id
(``page_content`` tells such glyphs apart by it, ``_unknown_glyphs``)."""

_UNICODE_FROM_ID = pymupdf.mupdf.FZ_STEXT_UNICODE_IS_CID | pymupdf.mupdf.FZ_STEXT_UNICODE_IS_GID
"""A structured-text character's flags: its character is its glyph's id, the font gave none."""


def page_text(page: pymupdf.Page) -> str:
    """A page's plain text: every text line of MuPDF's structured text, in content order, each
    ended by one newline.

    This is ``page.get_text(flags=TEXT_FLAGS)``'s text (same structured text, same flags)
    written by MuPDF's own C text writer instead of PyMuPDF's per-character Python loop
    (tests/test_reads_match_public_api.py checks they agree). Two deliberate differences, both only on
    lines of unmapped font glyphs (TeX math fonts without a ToUnicode map): no blank lines
    (``get_text`` gives one after a newline glyph) and a line that ends with U+0000 still ends
    with a newline (``get_text`` glues it to the next line). Orphaned surrogates become U+FFFD,
    as in ``get_text``.
    """
    return _written(page, _stext(page))


def _stext(page: pymupdf.Page, flags: int = TEXT_FLAGS) -> Any:
    """The page's structured text (MuPDF's), with ``TEXT_FLAGS`` (or ``flags``)."""
    options = pymupdf.mupdf.FzStextOptions()
    options.flags = flags
    return pymupdf.mupdf.FzStextPage(page.this, options)


def _written(page: pymupdf.Page, stext: Any) -> str:
    """``stext`` written as text by MuPDF's writer (see ``page_text``)."""
    text = _writer_text(stext)
    if text is None:  # bytes MuPDF's writer should never produce: PyMuPDF's own path
        return _without_blank_lines(page.get_text())
    return _without_blank_lines(text)


def _spaced_read(page: pymupdf.Page, stext: Any) -> tuple[str, Any, Styles | None]:
    """``_written`` with the reader's word-space rules (``_spaced``), ``stext`` and the page's
    text runs: what ``_content_text`` gives."""
    text = _writer_text(stext)
    if text is None:
        return _without_blank_lines(page.get_text()), stext, None
    text, styles = _spaced(text, stext)
    return _without_blank_lines(text), stext, styles


def _writer_text(stext: Any) -> str | None:
    """``stext`` as MuPDF's text writer writes it (orphaned surrogates made U+FFFD); None when
    its bytes are no UTF-8."""
    buffer = pymupdf.mupdf.FzBuffer(4096)
    out = pymupdf.mupdf.FzOutput(buffer)
    pymupdf.mupdf.fz_print_stext_page_as_text(out, stext)
    out.fz_close_output()
    raw = pymupdf.mupdf.fz_buffer_extract(buffer).replace(_MUPDF_NUL, b"\x00")
    try:
        text = raw.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return None
    if b"\xed" in raw:  # NOTE: the lead byte of every surrogate's (invalid) UTF-8 form
        text = _SURROGATES.sub("\ufffd", text)
    return text


def _spaced(text: str, stext: Any) -> tuple[str, Styles | None]:
    """The reader's word-space rules on a page's written ``text`` (``stext`` written): the word
    spaces MuPDF leaves out put back (``with_gap_spaces``: after characters of most scripts, on
    tight lines, after a footnote mark, around a script set apart from its word, where the
    face changes between two words), a
    letter-spaced word read as one (``with_tracking_joined``; letter-spaced capitals read in
    pieces, ``pdftracked``), a mirrored glyph read back
    into its word (``with_mirrored_glyphs_joined``) and a right-to-left ligature read in its
    map's order (``with_ligatures_in_order``); and the page's text runs
    (``pdfstyles.page_styles``), which tell where the font size or the face changes inside a
    word."""
    styles = page_styles(stext)
    if styles is not None:
        text = with_gap_spaces(text, stext, styles.size_changes(text), styles.face_changes(text))
    else:
        text = with_gap_spaces(text, stext)
    text = with_tracked_capitals_joined(with_tracking_joined(text, stext), stext)
    return with_ligatures_in_order(with_mirrored_glyphs_joined(text, stext), stext), styles


def _content_text(page: pymupdf.Page) -> tuple[str, Any, Styles | None]:
    """A page's text with the word-space rules (``_spaced``) and glyphs without text dropped
    (``_unknown_glyphs``), the structured text it was read from and its text runs.

    Read first with an unknown glyph as U+FFFD (``_UNKNOWN_AS_REPLACEMENT``): a page without one
    (nearly every page) is read once, as before. Where one stands, the page is read again with
    MuPDF's own reading of such glyphs, by their character ids, and each U+FFFD becomes that
    reading, or nothing (``_unknown_glyphs``); a page without a CID-keyed font that maps its
    glyphs (``_textless_glyphs``: TeX's font tables, symbol fonts) is simply MuPDF's own reading,
    as before."""
    stext = _stext(page, _UNKNOWN_AS_REPLACEMENT)
    text = _writer_text(stext)
    if text is None:
        return _without_blank_lines(page.get_text()), stext, None
    if "\ufffd" not in text:
        spaced, styles = _spaced(text, stext)
        return _without_blank_lines(spaced), stext, styles
    textless = _textless_glyphs(page)
    again = _stext(page)
    if textless is None:
        return _spaced_read(page, again)
    readings = _unknown_glyphs(text, stext, again, textless)
    if readings is None:
        # NOTE: the two reads do not pair up (MuPDF orders a right-to-left line by its letters,
        # and U+FFFD has no direction): MuPDF's own reading, its glyphs without text marked
        stext = again
        marked = _writer_text(stext)
        if marked is None:
            return _without_blank_lines(page.get_text()), stext, None
        text, readings = _textless_marked(marked, stext, textless)
    spaced, styles = _spaced(text, stext)
    pieces = spaced.split("\ufffd")
    if len(pieces) != len(readings) + 1:
        stext = _stext(page)
        return _spaced_read(page, stext)
    out = [pieces[0]]
    last = pieces[0][-1:]
    for reading, piece in zip(readings, pieces[1:]):
        if reading == "" and last not in ("", " ", "\n") and piece[:1] not in ("", " ", "\n"):
            reading = " "  # NOTE: glyphs dropped between two others still part them
        elif reading == "" and last in ("", " ", "\n") and piece[:1] == " ":
            piece = piece[1:]  # NOTE: one word space where a dropped glyph stood between two
        elif reading.endswith(" ") and piece[:1] in (" ", "\n"):
            reading = reading[:-1]  # NOTE: a space the word-space rules put there too
        out.append(reading)
        out.append(piece)
        last = (reading + piece)[-1:] or last
    return _without_blank_lines("".join(out)), stext, styles


def _unknown_glyphs(text: str, stext: Any, again: Any, textless: Callable[[int], bool]) -> list[str] | None:
    """What each U+FFFD of ``text`` (``stext`` written, unknown glyphs read as U+FFFD) stands
    for, in order: nothing for a glyph a CID-keyed font's own map gives no text
    (``_textless_glyphs``), else MuPDF's own reading (the glyph's character id: a simple font's
    code, as TeX's font tables and symbol fonts without a map are read), or U+FFFD where MuPDF
    has none either. None when the page's second read does not pair up with the first.

    Why: a CID-keyed font's glyph id is no character. FontAwesome's icons, set by a PDF whose
    map gives them U+FFFD (no text), came out of MuPDF as the letters of their ids (``æ``,
    ``¼``, ``Ƥ``: over a thousand words in one manual), and a font specimen's glyph variants
    without Unicode as runs of Latin letters (``ǡǢǣ``). pdftotext reads nothing
    there; nor does the page show a letter."""
    lines = text.split("\n")
    numbered = [i for i, line in enumerate(lines) if line]
    first = _text_lines(stext)
    second = _text_lines(again)
    if len(numbered) != len(first) or len(first) != len(second):
        return None
    readings: list[str] = []
    for i, one, two in zip(numbered, first, second):
        line = lines[i]
        if "\ufffd" not in line:
            continue
        a, b, k = one.first_char, two.first_char, 0
        while a is not None and k < len(line):
            if b is None:
                return None
            added = b.c == 32 and a.c != 32 and b.flags & pymupdf.mupdf.FZ_STEXT_SYNTHETIC
            if a.c != b.c and (a.c != 0xFFFD or added):
                if not added or not k or line[k - 1] != "\ufffd":
                    return None
                # NOTE: the word space MuPDF adds after a glyph id it reads as a letter (not after
                # U+FFFD): kept with that reading, never with a glyph dropped
                if readings[-1]:
                    readings[-1] += " "
                b = b.next
                continue
            if line[k] == "\ufffd":
                if a.c == 0xFFFD and b.flags & _UNICODE_FROM_ID:
                    readings.append("" if textless(b.c) else _character(b.c))
                else:
                    readings.append(_character(b.c))
            a, b, k = a.next, b.next, k + 1
        if k != len(line):
            return None
    return readings


def _textless_marked(text: str, stext: Any, textless: Callable[[int], bool]) -> tuple[str, list[str]]:
    """``text`` (``stext`` written with MuPDF's own reading of unknown glyphs) with each glyph
    read by an id that a CID-keyed font's map gives no text (``_textless_glyphs``) made U+FFFD,
    and what each U+FFFD of the result stands for, in order (as ``_unknown_glyphs``): nothing
    for such a glyph, U+FFFD for one the text already had. Unchanged where the writer's lines
    do not pair up with the structured text's."""
    lines = text.split("\n")
    numbered = [i for i, line in enumerate(lines) if line]
    stext_lines = _text_lines(stext)
    if len(numbered) != len(stext_lines):
        return text, ["\ufffd"] * text.count("\ufffd")
    readings: list[str] = []
    for i, one in zip(numbered, stext_lines):
        line = list(lines[i])
        ch, k = one.first_char, 0
        while ch is not None and k < len(line):
            if line[k] == "\ufffd":
                readings.append("\ufffd")
            elif ch.flags & _UNICODE_FROM_ID and ch.c == ord(line[k]) and textless(ch.c):
                line[k] = "\ufffd"
                readings.append("")
            ch, k = ch.next, k + 1
        readings.extend("\ufffd" for c in line[k:] if c == "\ufffd")
        lines[i] = "".join(line)
    return "\n".join(lines), readings


def _character(code: int) -> str:
    """A structured-text character's code as text (an orphaned surrogate as U+FFFD)."""
    return "\ufffd" if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF else chr(code)


SIMPLE_CODES = 256
"""A simple font's character codes are one byte: MuPDF's reading of an unknown glyph at or
beyond this can only be a CID-keyed font's glyph id."""

_TO_NO_TEXT = re.compile(rb"<([0-9A-Fa-f]{2,8})>\s*<[Ff][Ff][Ff][Dd]>")
"""A ToUnicode map's entry giving a code U+FFFD (a ``bfchar`` pair): the PDF says the glyph has
no text."""


def _textless_glyphs(page: pymupdf.Page) -> Callable[[int], bool] | None:
    """Which of MuPDF's readings of a glyph without Unicode (its id) on ``page`` stand for a glyph
    without text: where the page sets a CID-keyed (Type0) font with a ToUnicode map, an id its
    map gives U+FFFD, or any id beyond a one-byte code (``SIMPLE_CODES``: no simple font's; the
    map gave it no entry), or any id at all where every font of the page is such a font (no
    simple font's code to read there: a font specimen set in one CID-keyed font, the glyph
    variants its map leaves out read as ``ý``, ``û``, ``ÿ``). The PDF says which text each glyph
    of such a font is; one it gives none has none. A simple font's code stays read as before
    (TeX's font tables, a symbol font without a map); None on a page without such a font (every
    id read as before).

    NOTE: by the id, not by the glyph's font: MuPDF's structured text names a font by its
    program's name, which need not be the PDF's."""
    doc = page.parent
    mapped, no_text, others = False, set[int](), False
    for xref, _ext, kind, *_ in page.get_fonts():
        if kind != "Type0":
            others = True
            continue
        key, value = doc.xref_get_key(xref, "ToUnicode")
        if key != "xref":
            others = True  # NOTE: a CID-keyed font without a map: its ids read as before
            continue
        mapped = True
        try:
            stream = doc.xref_stream(int(value.split()[0]))
        except (ValueError, RuntimeError):
            continue
        no_text.update(int(m.group(1), 16) for m in _TO_NO_TEXT.finditer(stream or b""))
    if not mapped:
        return None
    bound = SIMPLE_CODES if others else 0
    return lambda code: code in no_text or code >= bound


def _without_blank_lines(text: str) -> str:
    """``text`` with every run of line ends made one: MuPDF's writer ends each block with an empty
    line (and a line may hold a newline glyph); a page's text has no blank lines.

    NOTE: ``str.replace`` until no pair is left, not a regex: faster, and a page needs one pass
    unless it holds a newline glyph.
    """
    while "\n\n" in text:
        text = text.replace("\n\n", "\n")
    return text


def without_overprints(text: str, stext: Any) -> str:
    """``text`` (the page's ``page_text``, from ``stext``) with every line drawn again at nearly
    the same place (``OVERPRINT_SHARE``) kept once.

    Why: a shadow or a poor man's bold prints a line twice, a fraction of a point apart; MuPDF
    reads both copies as lines of their own, so the chunk, the index and every search hold the
    text twice (pdftotext reads it once). Only positions tell a copy from a line the book really
    repeats (a table's repeated cell, a refrain), so a page whose text repeats a line has its
    structured text written again with line boxes (MuPDF's JSON writer, from the same
    structured text: no second extraction). Those are the lines of ``text``; when the two do not
    pair up one for one, the text is left as it is rather than guessed at.
    """
    lines = text.split("\n")
    counts = Counter(
        line.strip() for line in lines if len(line.strip().replace(" ", "")) >= MIN_OVERPRINT_CHARS
    )
    if not counts or counts.most_common(1)[0][1] < 2:
        return text
    boxed = _boxed_lines(stext)
    kept_lines = [line for line in lines if line]
    if boxed is None or len(boxed) != len(kept_lines):
        return text
    # NOTE: spaces aside: ``text`` may hold word spaces the JSON writer's lines lack
    # (``with_gap_spaces``); the keys are ``text``'s lines.
    if any(a.replace(" ", "") != b.replace(" ", "") for (a, _), b in zip(boxed, kept_lines)):
        return text
    seen: dict[str, list[tuple[float, float, float]]] = {}
    drop = set()
    for k, ((_, box), line_text) in enumerate(zip(boxed, kept_lines)):
        key = line_text.strip()
        if counts.get(key, 0) < 2:
            continue
        if any(_overprinted(box, other) for other in seen.get(key, ())):
            drop.add(k)
        else:
            seen.setdefault(key, []).append(box)
    if not drop:
        return text
    out, k = [], 0
    for line in lines:
        if line:
            if k not in drop:
                out.append(line)
            k += 1
        else:
            out.append(line)
    return "\n".join(out)


def _boxed_lines(stext: Any) -> list[tuple[str, tuple[float, float, float]]] | None:
    """Every text line of ``stext`` as (text, (left, top, height)), from MuPDF's JSON writer (whole
    points, ``stext_lines``); None when its output cannot be read."""
    lines = stext_lines(stext)
    try:
        return (
            None
            if lines is None
            else [
                (ln["text"], (float(ln["bbox"]["x"]), float(ln["bbox"]["y"]), float(ln["bbox"]["h"])))
                for ln in lines
            ]
        )
    except (ValueError, KeyError, TypeError):
        return None


def _overprinted(box: tuple[float, float, float], other: tuple[float, float, float]) -> bool:
    """Whether two line boxes (left, top, height) start at nearly the same place
    (``OVERPRINT_SHARE`` of the height, at least one point: the JSON writer gives whole points)."""
    reach = max(1.0, OVERPRINT_SHARE * max(box[2], other[2]))
    return abs(box[0] - other[0]) <= reach and abs(box[1] - other[1]) <= reach


def page_content(page: pymupdf.Page) -> tuple[str, bool]:
    """A page's plain text (lines drawn twice at nearly one place kept once,
    ``without_overprints``; a shadowed line drawn run by run read as one line,
    ``pdfshadows.with_shadow_runs_merged``; a typewritten page's blank lines put back,
    ``with_typewriter_blank_lines``; a ZapfDingbats font without a Unicode map read as the
    dingbats it draws, ``pdfdingbats``; a Type 1 font whose declared encoding names glyphs it
    lacks read by its own encoding, ``pdfbuiltin``; a TrueType CID font without a Unicode map read
    by its program's own character map, ``pdfcidfonts``; replacement text MuPDF cannot lay over its glyphs
    dropped, ``pdfactualtext``) and whether it has a text layer.

    NOTE: a page without text is "without a text layer" only when it shows something (an image);
    a blank separator page is just empty.
    """
    text, stext, styles = _content_text(page)
    if styles is not None and sets_dingbats(styles.fonts) and dingbats_mapped(page):
        text, stext, styles = _content_text(page)
    if text and builtin_mapped(page):
        text, stext, styles = _content_text(page)
    if shows_glyph_ids(text) and identity_fonts_mapped(page):
        text, stext, styles = _content_text(page)
    if replacements_dropped(page, TEXT_FLAGS, text):
        text, stext, styles = _content_text(page)
    text = without_overprints(text, stext)
    text = with_shadow_runs_merged(text, stext)
    text = with_typewriter_blank_lines(
        text, stext, page, None if styles is None else styles.fonts, None if styles is None else styles.lines
    )
    return text, bool(text.strip()) or not page.get_images(full=False)


BOLD_FLAG = 16
"""PyMuPDF's span flag for a bold font (fonts that say "Bold" in their name count too)."""

_DICT_FLAGS = pymupdf.TEXTFLAGS_DICT & ~pymupdf.TEXT_PRESERVE_IMAGES
"""Span extraction without image blocks (their pixel data is never needed)."""


def page_lines(page: pymupdf.Page, top_share: float | None = None) -> list[tuple[str, float, bool, float]]:
    """A page's text lines in reading order as (text, largest size, every span bold, left x); with
    ``top_share`` only those in that top share of the page (a clip makes MuPDF skip the glyphs
    outside it: the top band costs about a quarter of the whole page)."""
    clip = None
    if top_share is not None:
        r = page.rect
        clip = pymupdf.Rect(r.x0, r.y0, r.x1, r.y0 + r.height * top_share)
    out = []
    for block in page.get_text("dict", flags=_DICT_FLAGS, clip=clip)["blocks"]:
        for line in block.get("lines", ()):
            spans = [s for s in line["spans"] if s["text"].strip()]
            if spans:
                out.append(
                    (
                        "".join(s["text"] for s in spans),
                        max(s["size"] for s in spans),
                        all(s["flags"] & BOLD_FLAG or "bold" in s["font"].casefold() for s in spans),
                        line["bbox"][0],
                    )
                )
    return out


def page_blocks(page: pymupdf.Page) -> list[tuple[float, float, str]]:
    """A page's text blocks as (top, bottom, text with lines by ``\\n``), in points from the page top."""
    return [(y0, y1, text) for _x0, y0, _x1, y1, text, *_ in page.get_text("blocks", flags=0)]


def page_image(page: pymupdf.Page, dpi: int) -> tuple[bytes, str]:
    """The page rendered grey at ``dpi`` as a PNM image, and the fingerprint of its pixels
    (``chunking.ocr.fingerprint.pixel_fingerprint``): what OCR needs of a page."""
    from ..ocr.fingerprint import pixel_fingerprint

    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
    return pix.tobytes("pnm"), pixel_fingerprint(pix)


def page_words(page: pymupdf.Page) -> list[tuple[float, float, float, float, str]]:
    """A page's words in reading order as (x0, y0, x1, y1, word), in points on the page as it
    is shown (its rotation applied, like ``page_picture``'s pixels)."""
    turn = page.rotation_matrix
    return [(*tuple(pymupdf.Rect(w[:4]) * turn), w[4]) for w in page.get_text("words")]


def page_picture(page: pymupdf.Page, zoom: float) -> tuple[int, int, bytes]:
    """The page rendered in RGB at ``zoom`` (1 = 72 dpi): width, height and the pixels' bytes."""
    pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
    return pix.width, pix.height, bytes(pix.samples)
