# The two commands of the README. Both create .venv and install requirements.txt on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8501

.PHONY: app test install chromium poppler tesseract renderers

$(BIN)/python:
	$(PY) -m venv $(VENV)

# Then the project itself, editable and without re-resolving dependencies: `chunking` lands on the
# venv's PATH and `import chunking` works from any folder. pip prints its progress: the first
# install downloads ~100 s of wheels.
$(VENV)/.installed: requirements.txt pyproject.toml | $(BIN)/python
	@echo "Installing requirements.txt into $(VENV): pip downloads the wheels, then prints"
	@echo "'Installing collected packages' and unpacks them without output for a while (first time only)..."
	$(BIN)/pip install --disable-pip-version-check -r requirements.txt
	@echo "Installing the project itself (editable, no dependencies)..."
	$(BIN)/pip install --disable-pip-version-check --no-deps -e .
	touch $@

install: $(VENV)/.installed

# Install and start the inspector (opens on a bundled sample book).
app: install
	$(BIN)/streamlit run app.py --server.headless true --server.address 127.0.0.1 \
		--server.port $(PORT) --browser.gatherUsageStats false

# Debian's chromium for the browser tests (never `playwright install`: it downloads browsers).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "Installing Debian chromium for the browser tests (apt-get update, then apt-get install chromium)..."; \
		apt-get update -qq && apt-get install -y -qq chromium >/dev/null && echo "chromium installed."; }

# poppler's pdftotext, the independent extractor bench/fidelity.py measures our text against
# (not needed by `make test`).
poppler:
	@command -v pdftotext >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq poppler-utils >/dev/null; }

# Debian's Tesseract and its English data: OCR of pages without a text layer (--ocr) and its tests.
tesseract:
	@command -v tesseract >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq tesseract-ocr tesseract-ocr-eng >/dev/null; }

# The Debian tools bench/fetch_books.py renders validation books with (`source.render`: pandoc,
# pod2markdown, rst2pdf, w3m, groff's gropdf (Debian's groff; the base system's groff-base has
# groff without it), mandoc, html2text, elinks, links2, html2markdown, asciidoctor, pdftotext,
# xhtml2pdf, lowdown, pod2texi and makeinfo (Debian's texinfo), vilistextum, cmark, mutool, odt2txt,
# pdf2txt, htmldoc and faketime, LibreOffice Writer with python3-uno, enscript, a2ps and Ghostscript's ps2pdf
# and txtwrite, xsltproc with the DocBook XSL stylesheets, unrtf, Asciidoctor PDF, AsciiDoc-py (without
# its recommended xmlto, which brings dblatex and TeX Live), docbook2X with the DocBook XML DTD, and
# Docutils' rst2latex, rst2xml and rst2man, AbiWord with the fonts it is given (Liberation 1.07, URW base 35), go-md2man, Emacs (emacs-nox: its shr, eww's HTML renderer), antiword, catdoc and unhtml, round 39's ronn (Ronn-NG) and cmark-gfm; pod2text and pod2man come with the base system): the slow outline-floor test fetches every validation
# book, and a book whose renderer is missing fails the fetch.
RENDERER_PROGRAMS := pandoc pod2markdown rst2pdf w3m gropdf mandoc html2text elinks links2 html2markdown asciidoctor pdftotext \
	xhtml2pdf3 lowdown pod2texi makeinfo vilistextum cmark mutool odt2txt pdf2txt htmldoc faketime soffice enscript ps2pdf \
	a2ps xsltproc unrtf asciidoctor-pdf asciidoc docbook2x-texi rst2latex rst2xml rst2man abiword go-md2man emacs antiword catdoc unhtml ronn cmark-gfm
RENDERER_PACKAGES := pandoc libpod-markdown-perl rst2pdf w3m groff mandoc html2text elinks links2 python3-html2text asciidoctor poppler-utils \
	python3-xhtml2pdf lowdown texinfo vilistextum cmark mupdf-tools odt2txt python3-pdfminer htmldoc faketime \
	libreoffice-writer-nogui python3-uno enscript ghostscript a2ps xsltproc docbook-xsl unrtf \
	ruby-asciidoctor-pdf docbook2x docbook-xml python3-docutils abiword fonts-liberation fonts-urw-base35 go-md2man emacs-nox antiword catdoc unhtml ronn cmark-gfm
RENDERER_PACKAGES_NO_RECOMMENDS := asciidoc-base
RENDERER_FILES := /usr/share/xml/docbook/stylesheet/docbook-xsl-nons/epub3/chunk.xsl
# Print paths (round 29): CUPS' texttopdf (cups-filters), Vim's :hardcopy, Emacs' ps-print and Ghostscript's gslp
# (both through ps2pdf), and Qt's QTextDocument through Debian's PyQt5; texttopdf and Qt are given only the DejaVu fonts.
RENDERER_PROGRAMS += vim gslp
RENDERER_PACKAGES += vim fonts-dejavu-core
RENDERER_PACKAGES_NO_RECOMMENDS += cups-filters python3-pyqt5
RENDERER_FILES += /usr/lib/cups/filter/texttopdf /usr/lib/python3/dist-packages/PyQt5/QtGui.abi3.so
# Round 41: Dompdf and TCPDF (PHP libraries, run by php-cli over cmark's HTML), kramdown's man and LaTeX
# converters, and trueprint (its PostScript through Ghostscript's ps2pdf).
RENDERER_PROGRAMS += php kramdown trueprint
RENDERER_PACKAGES += php-cli php-dompdf php-tcpdf kramdown trueprint
RENDERER_FILES += /usr/share/php/dompdf/autoload.php /usr/share/php/tcpdf/tcpdf.php
# Round 44: Pod::LaTeX (pod2latex's module) and Pod::Simple::Wiki's pod2wiki (mandoc's -Tman, lowdown's -Tlatex,
# kramdown's own converter and LibreOffice's DocBook export come with packages above).
RENDERER_PROGRAMS += pod2latex pod2wiki
RENDERER_PACKAGES += libpod-latex-perl libpod-simple-wiki-perl
# Round 46: doclifter (troff to DocBook) and Pod::2::DocBook's pod2docbook (cmark's XML writer comes with cmark).
RENDERER_PROGRAMS += doclifter pod2docbook
RENDERER_PACKAGES += doclifter libpod-2-docbook-perl
# Round 50: LibreOffice's PDF export is given only the URW base35, DejaVu and Droid Sans Fallback fonts (SiSU's
# object-number brackets need the last); AbiWord's EPUB, pandoc's Muse and DokuWiki writers come with packages above.
RENDERER_PACKAGES += fonts-droid-fallback
RENDERER_FILES += /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf
# Round 55: writerperfect's ebook2epub (libe-book's FictionBook reader, libepubgen's EPUB writer), PolyglotMan (rman) and
# WordGrinder; docbook2X's man writer comes with docbook2x above.
RENDERER_PROGRAMS += ebook2epub rman wordgrinder
RENDERER_PACKAGES += ebook2epub rman wordgrinder-ncurses
# Round 56: Writer2LaTeX's w2l (its EPUB; its LaTeX through pdfTeX, whose T1 fonts are cm-super-minimal's) and LaTeXML
# (which brings texlive-latex-base and so pdflatex); AbiWord's LaTeX export comes with abiword above.
RENDERER_PROGRAMS += w2l pdflatex latexmlc
RENDERER_PACKAGES += writer2latex latexml cm-super-minimal
RENDERER_FILES += /usr/share/texmf/fonts/map/dvips/cm-super/cm-super-minimal-t1.map
# Round 59: OpenJade's RTF back end with the DocBook DSSSL stylesheets (not docbook-utils, whose dependencies bring
# TeX Live: the renderer runs openjade as its docbook2rtf does); AbiWord's RTF and DocBook, LibreOffice's flat ODT and
# Writer2LaTeX's LaTeX come with packages above.
# Apache PDFBox 1.8's ExtractText runs on the Java that writer2latex brings, with commons-logging on its class path.
RENDERER_PROGRAMS += openjade
RENDERER_PACKAGES_NO_RECOMMENDS += openjade docbook-dsssl libpdfbox-java libcommons-logging-java
RENDERER_FILES += /usr/share/sgml/docbook/stylesheet/dsssl/modular/print/docbook.dsl /usr/share/java/pdfbox.jar \
	/usr/share/java/commons-logging.jar
# The PyPI renderers (the Typst compiler, pandoc 3, rinohtype, markdownify, inscriptis, the PDF extractors
# pymupdf4llm, pypdf, pdfplumber and pypdfium2, the DOCX readers mammoth, docx2txt and python-docx, the HTML
# extractors trafilatura, html-to-markdown, extractous, html-text, Resiliparse, selectolax, boilerpy3 and html2text-rs (jusText comes with trafilatura), docx2python and striprtf, round 28's ebooklib, fast-ebook, mkepub, readability-lxml and kreuzberg, and round 33's Sphinx builders (Texinfo, man, LaTeX; round 50's EPUB) and mistune, round 50's MyST-Parser (its Docutils LaTeX front end), round 52's fpdf2, xml2epub and ebookmaker: requirements-renderers.txt, every dependency pinned) go into
# their own venv, .venv-renderers, where bench/fetch_books.py runs them (RENDERER_PYTHON); kept out of .venv, since rinohtype brings Sphinx and another Docutils.
RENDERER_VENV := .venv-renderers

$(RENDERER_VENV)/.installed: requirements-renderers.txt
	$(PY) -m venv $(RENDERER_VENV)
	@# pip 25.3 first: the venv's own pip (23.2.1 here) stops with an internal resolver error when one pin asks
	@# for lxml[html_clean] and another for lxml[html-clean] (readability-lxml), the same extra spelt twice
	$(RENDERER_VENV)/bin/pip install --disable-pip-version-check -q pip==25.3
	@echo "Installing the pinned PyPI renderers of the validation books into $(RENDERER_VENV)..."
	$(RENDERER_VENV)/bin/pip install --disable-pip-version-check -q -r requirements-renderers.txt
	touch $@

renderers: $(RENDERER_VENV)/.installed
	@( for p in $(RENDERER_PROGRAMS); do command -v $$p >/dev/null 2>&1 || exit 1; done; \
	   for f in $(RENDERER_FILES); do test -e $$f || exit 1; done ) || { \
		echo "Installing the Debian renderers of the validation books ($(RENDERER_PACKAGES) $(RENDERER_PACKAGES_NO_RECOMMENDS))..."; \
		apt-get update -qq && apt-get install -y -qq $(RENDERER_PACKAGES) >/dev/null && \
		apt-get install -y -qq --no-install-recommends $(RENDERER_PACKAGES_NO_RECOMMENDS) >/dev/null && echo "renderers installed."; }

# Run every test: lint and format (ruff, the rules in pyproject.toml), types (mypy), then unit,
# property, CLI, AppTest and real-browser tests in parallel; last, in one process and a fixed
# order, AppTests before the tests that spawn workers, an order xdist's split may never produce
# (it once hid a worker that re-ran the app).
# Every step runs even when an earlier one fails: `$(STEP) name command` records "ok"/"FAIL" in
# $(STATUS); the last line prints the summary and fails when any step failed.
ORDER_SMOKE := tests/test_structure_page.py tests/test_batch.py tests/test_workerpool.py tests/test_hostile_batch.py
STATUS := .make-test-status
STEP = @step() { n=$$1; shift; echo "== $$n: $$*"; if "$$@"; then echo "ok   $$n" >>$(STATUS); \
	else echo "FAIL $$n (exit $$?)" >>$(STATUS); fi; }; step

test: install chromium tesseract renderers
	@rm -f $(STATUS)
	$(STEP) "ruff check" $(BIN)/ruff check chunking inspector pages app.py bench
	$(STEP) "ruff format" $(BIN)/ruff format --check chunking inspector pages app.py bench
	$(STEP) "mypy (type-checks chunking and inspector; the first run builds its cache)" $(BIN)/mypy
	$(STEP) "pytest" $(BIN)/python -m pytest -n 2 -q
	$(STEP) "ordered smoke run" $(BIN)/python -m pytest -p no:xdist -q $(ORDER_SMOKE)
	@echo "== make test summary:"; cat $(STATUS); ! grep -q '^FAIL' $(STATUS)
