"""Small app rules of issue 24: no stray text above the Export header, the samples' README is no
sample book, the sample box points at the uploader where it is, and Streamlit's Deploy button is
hidden by the project's own config."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from inspector.data.book_picker import SAMPLE_DIR, sample_names

pytestmark = pytest.mark.usefixtures("fresh_streamlit_caches")

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")


def test_the_export_page_shows_no_stray_text_from_a_docstring():
    at = AppTest.from_file(APP, default_timeout=30)
    at.run()
    at.switch_page("pages/4_Export.py").run()
    assert not at.exception
    texts = [e.value for e in at.markdown] + [e.value for e in at.caption]
    assert not any("Records shown in each format" in t for t in texts), texts


def test_the_sample_folders_readme_is_not_offered_as_a_sample_book():
    assert (SAMPLE_DIR / "README.md").is_file()  # the trap is there
    names = sample_names()
    assert "README.md" not in names and names and all((SAMPLE_DIR / n).is_file() for n in names)


def test_the_sample_box_points_at_the_uploader_beside_it_not_above():
    at = AppTest.from_file(APP, default_timeout=30)
    at.run()
    at.file_uploader(key="home_upload").set_value(("notes.txt", ("word " * 500).encode(), "text/plain")).run()
    placeholder = at.selectbox(key="home_sample").proto.placeholder
    assert "see above" not in placeholder and "on the right" in placeholder


def test_streamlit_reads_the_projects_config_and_hides_the_deploy_button():
    code = ("from streamlit import config; config.get_config_options(force_reparse=True); "
            "print(config.get_option('client.toolbarMode'))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "minimal", out.stderr
