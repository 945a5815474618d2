"""A font's ``ToUnicode`` map that gives glyphs their codes in the font, read by their names (issue 25).

Why: a simple font re-encoded for the page (a ``/Differences`` array: code 0x22 draws the glyph
``angbracketleft``) may carry a ``ToUnicode`` map written from the glyphs' codes in the font
program's own (built-in) encoding instead of their characters: TeX's math symbol font (cmsy)
holds ``angbracketleft`` at 0x68 and ``angbracketright`` at 0x69, and the map says ``h`` and
``i``. The page shows ``⟨color⟩``; MuPDF's text, taking the map at its word, gives ``hcolori``,
two letters the page does not show glued to a word it does.

How: for each embedded Type 1 font of a page (``pfa``/``pfb``: its built-in encoding is the
``dup N /name put`` lines of its clear-text part) with a ``ToUnicode`` map and a ``/Differences``
array, read once per document, a code whose map gives exactly the built-in code of the glyph the
array names for it (0x22 → ``h`` where the array says ``angbracketleft`` and the program puts
``angbracketleft`` at ``h``), while the name is a character of its own (MuPDF's glyph list, TeX's
names among them), is mapped to that character. The font in the open document gets the corrected
map (never the file), and the page is read again. A map that agrees with the glyphs' names, or
that this module cannot read whole (a ``bfrange`` to an array, codes of two bytes), is kept.
"""

from __future__ import annotations

import re

import pymupdf

_CHECKED = "_bci_builtin_checked"
"""The attribute of an open document holding the fonts (xrefs) already looked at."""

_BUILTIN = re.compile(rb"dup (\d{1,3}) ?/([^\s/\[\]{}()<>%]+) put")
"""One code of a Type 1 program's built-in encoding, in its clear-text part."""

_DIFFERENCES = re.compile(r"/Differences\s*\[([^\]]*)\]")
_TOKEN = re.compile(r"(\d+)|/([^\s/\[\]]+)")

_BLOCK = re.compile(r"begin(bfchar|bfrange)(.*?)end\1", re.S)
_HEX = re.compile(r"<\s*([0-9A-Fa-f\s]*)>|(\[)")

_NO_CHAR = (0, 0xFFFD)
"""What MuPDF's glyph list gives for a name it does not know."""


def builtin_mapped(page: pymupdf.Page) -> bool:
    """Correct each embedded Type 1 font of ``page`` whose ``ToUnicode`` map gives glyphs their
    built-in codes (``_corrected``), in the open document; whether any font was corrected (the
    page must then be read again)."""
    doc = page.parent
    checked = getattr(doc, _CHECKED, None)
    if checked is None:
        checked = set()
        setattr(doc, _CHECKED, checked)
    changed = False
    for xref, ext, kind, *_ in page.get_fonts():
        if xref in checked:
            continue
        checked.add(xref)
        if kind != "Type1" or ext not in ("pfa", "pfb"):
            continue
        chars = _corrected(doc, xref)
        if chars:
            give_to_unicode(doc, xref, _to_unicode_cmap(chars))
            changed = True
    return changed


def give_to_unicode(doc: pymupdf.Document, xref: int, cmap: bytes) -> None:
    """Give the font at ``xref`` the ``ToUnicode`` CMap ``cmap``, in the open document (a new
    stream object; never in the file)."""
    stream = doc.get_new_xref()
    doc.update_object(stream, "<<>>")
    doc.update_stream(stream, cmap)
    doc.xref_set_key(xref, "ToUnicode", f"{stream} 0 R")


def _differences(doc: pymupdf.Document, xref: int) -> dict[int, str]:
    """The glyph name the font's ``/Encoding`` ``/Differences`` gives each code it names."""
    kind, value = doc.xref_get_key(xref, "Encoding")
    if kind == "xref":
        value = doc.xref_object(int(value.split()[0]))
    elif kind != "dict":
        return {}
    found = _DIFFERENCES.search(value)
    names: dict[int, str] = {}
    code = 0
    for number, name in _TOKEN.findall(found.group(1) if found else ""):
        if number:
            code = int(number)
        else:
            names[code] = name
            code += 1
    return names


def _to_unicode(doc: pymupdf.Document, xref: int) -> dict[int, str] | None:
    """The font's ``ToUnicode`` map, one-byte code → text; ``None`` when it has none or holds
    what this reader does not read (a ``bfrange`` to an array, a code of two bytes)."""
    kind, value = doc.xref_get_key(xref, "ToUnicode")
    if kind != "xref":
        return None
    try:
        stream = doc.xref_stream(int(value.split()[0])) or b""
    except (RuntimeError, ValueError):
        return None
    chars: dict[int, str] = {}
    for kind, body in _BLOCK.findall(stream.decode("latin-1")):
        tokens = _HEX.findall(body)
        if any(bracket for _, bracket in tokens):
            return None
        values = ["".join(h.split()) for h, _ in tokens]
        width = 3 if kind == "bfrange" else 2
        if len(values) % width:
            return None
        for i in range(0, len(values), width):
            first, *rest = values[i : i + width]
            last, target = (rest[0], rest[1]) if kind == "bfrange" else (first, rest[0])
            if len(first) != 2 or len(last) != 2 or len(target) % 4:
                return None
            text = bytes.fromhex(target).decode("utf-16-be", errors="replace")
            for n, code in enumerate(range(int(first, 16), int(last, 16) + 1)):
                chars[code] = text[:-1] + chr(ord(text[-1]) + n) if text else text
    return chars


def _corrected(doc: pymupdf.Document, xref: int) -> dict[int, str]:
    """The font's ``ToUnicode`` map with each code that gives its glyph's built-in code mapped to
    the glyph's own character (the module's rule); empty when no code does."""
    differences = _differences(doc, xref)
    if not differences:
        return {}
    chars = _to_unicode(doc, xref)
    if not chars:
        return {}
    try:
        buffer = doc.extract_font(xref)[3]
    except (RuntimeError, ValueError):
        return {}
    clear = buffer[: buffer.find(b"eexec")] if b"eexec" in buffer else b""
    builtin = {int(c): n.decode("latin-1") for c, n in _BUILTIN.findall(clear) if int(c) < 256}
    changed = False
    for code, name in differences.items():
        given = chars.get(code, "")
        if len(given) != 1 or builtin.get(ord(given)) != name:
            continue
        char = pymupdf.mupdf.fz_unicode_from_glyph_name(name)
        if char not in _NO_CHAR and chr(char) != given:
            chars[code] = chr(char)
            changed = True
    return chars if changed else {}


def _to_unicode_cmap(chars: dict[int, str]) -> bytes:
    """``chars`` (one-byte code → text) as a ``ToUnicode`` CMap."""
    entries = [
        f"<{code:02X}> <{text.encode('utf-16-be').hex().upper()}>"
        for code, text in sorted(chars.items())
        if text
    ]
    blocks = "".join(
        f"{len(entries[i : i + 100])} beginbfchar\n" + "\n".join(entries[i : i + 100]) + "\nendbfchar\n"
        for i in range(0, len(entries), 100)
    )
    return (
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
        "1 begincodespacerange\n<00> <FF>\nendcodespacerange\n"
        f"{blocks}"
        "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
    ).encode("ascii")
