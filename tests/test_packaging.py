"""The project installs as a package (issue 11): pyproject's pins are requirements.txt's, and the
`chunking` console script that `make install` puts on the venv's PATH works from any folder."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pymupdf

ROOT = Path(__file__).resolve().parent.parent
TEST_ONLY = {"ebooklib", "pytest", "pytest-xdist", "hypothesis", "ruff", "mypy", "playwright"}
"""requirements.txt pins only the tests and the lint in `make test` need (not package dependencies)."""
SCRIPT_TIMEOUT_S = 120
"""A two-page book chunks in about a second; this only stops a hang."""


def _requirement_pins() -> dict[str, str]:
    """``name -> "name==version"`` for every pin of requirements.txt."""
    pins = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        spec = line.split("#", 1)[0].strip()
        if spec:
            pins[re.split(r"[=<>!~ ]", spec, maxsplit=1)[0].lower()] = spec
    return pins


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_package_pins_are_the_runtime_pins_of_requirements_txt():
    project = _pyproject()["project"]
    declared = list(project["dependencies"]) + [d for extra in project["optional-dependencies"].values()
                                                for d in extra]
    runtime = {name: spec for name, spec in _requirement_pins().items() if name not in TEST_ONLY}
    assert sorted(declared) == sorted(runtime.values())


def test_build_system_is_pinned_and_the_package_is_the_library_only():
    data = _pyproject()
    assert all("==" in req for req in data["build-system"]["requires"])
    assert data["project"]["scripts"] == {"chunking": "chunking.cli:console"}
    assert data["tool"]["setuptools"]["packages"]["find"]["include"] == ["chunking", "chunking.*"]


def test_console_script_chunks_and_validates_from_another_folder(tmp_path):
    script = Path(sys.executable).parent / "chunking"
    assert script.exists(), f"{script} missing: `make install` installs the project (pip install -e .)"
    doc = pymupdf.open()
    for n in range(2):
        doc.new_page().insert_text((72, 72), f"Page {n + 1}: plain body text about the topic at hand.")
    book = tmp_path / "book.pdf"
    doc.save(book)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    chunk = subprocess.run([str(script), "chunk", str(book), "-o", "out.jsonl"], cwd=elsewhere,
                           capture_output=True, text=True, timeout=SCRIPT_TIMEOUT_S)
    assert chunk.returncode == 0, chunk.stderr
    assert (elsewhere / "out.jsonl").stat().st_size > 0
    check = subprocess.run([str(script), "validate", "out.jsonl"], cwd=elsewhere,
                           capture_output=True, text=True, timeout=SCRIPT_TIMEOUT_S)
    assert check.returncode == 0, check.stderr
    assert "Traceback" not in chunk.stderr + check.stderr
