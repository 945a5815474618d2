"""OCR of PDF pages without a usable text layer (Tesseract), for ``chunking.readers.pdf``.

Modules, one job each: ``quality`` (is a text layer garbage?), ``engine`` (one page image →
Tesseract's words and confidences), ``lines`` (each OCR'd line's type size from the word
boxes, for the structure engine's typography), ``cache`` (results per page image and settings under the
user cache), ``pages`` (which pages, in parallel, with the warnings). Nothing is imported here:
the CLI's commands load ``engine`` alone to refuse ``--ocr always`` early.
"""
