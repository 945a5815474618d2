"""The Streamlit inspector's helpers: shared sidebar and cached loaders (``state``), pure plotly
figures (``figures``), escaping/highlighting (``render``) and PDF page images (``pdfview``).

Nothing here chunks: every number comes from the ``chunking`` core.
"""
