"""App stage (data): what the pages keep and read.

``state`` is the one import pages use for it (the sidebar policy from ``sidebar``, the current
book from ``book_picker``, its corrections from ``corrections``, the cached runs from ``cache``);
``tables`` and ``structure`` are pure functions from a book and its chunks to tables and
corrections (no Streamlit).
"""
