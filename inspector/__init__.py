"""The Streamlit inspector, in three subpackages:

* ``inspector.data``: what pages keep and read — the sidebar policy, the current book, its
  corrections and the cached runs (``state`` re-exports them), and pure tables (``tables``,
  ``structure``);
* ``inspector.figures``: pure functions from a book and its chunks to plotly Figures (no
  Streamlit);
* ``inspector.views``: Streamlit rendering — the blocks pages share (the package itself) and one
  module per page's parts, escaping/highlighting (``render``) and PDF page images (``pdfview``).

``palette`` (colours), ``safe`` (inert Markdown) and ``flow`` (stop a page) serve all three.
Nothing here chunks: every number comes from the ``chunking`` core.
"""
