"""Book Chunk Inspector — the entry point: declares the pages and runs the chosen one.

Run with ``make app`` (or ``streamlit run app.py``). The home page is "Book"
(``inspector.views.home.book_page``: pick a book, read its summary); the other pages stay in
``pages/*.py`` (so ``AppTest.switch_page("pages/x.py")`` keeps working) and are registered
here with ``st.navigation``. Every page shares the sidebar policy and the cached book from
``inspector.data.state``.
"""

import streamlit as st

from inspector.views.home import book_page

st.set_page_config(page_title="Book Chunk Inspector", page_icon="📚", layout="wide")
PAGES = [
    st.Page(book_page, title="Book", icon="📚", url_path="book", default=True),
    st.Page("pages/1_Boundaries.py"),
    st.Page("pages/2_Overlap.py"),
    st.Page("pages/3_Chunks.py"),
    st.Page("pages/4_Export.py"),
    st.Page("pages/5_Compare.py"),
    st.Page("pages/6_Retrieval.py"),
    st.Page("pages/7_Structure.py"),
]
st.navigation(PAGES).run()
