"""Every module imports on its own, and the library stays free of UI packages (issue 11).

Each module under ``chunking/`` and ``inspector/`` is imported first thing in a fresh interpreter:
an import cycle (``a`` imports ``b`` which imports a name from the half-initialised ``a``) or an
import-time error fails the test named after that module, whichever module the rest of the suite
happens to import first.
"""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("chunking", "inspector")
"""The importable code of the repository (app.py and pages/ are Streamlit scripts, run not imported)."""
UI_PACKAGES = ("streamlit", "plotly")
"""Packages the library must not import: `chunking/` serves the CLI and the app alike."""
IMPORT_TIMEOUT_S = 60
"""Importing one module takes well under 2 s (streamlit ~1 s); this only stops a hang."""


def _modules(package: str) -> list[str]:
    """Dotted names of ``package`` and every module and subpackage under it (not ``__main__``).

    # NOTE: pkgutil.walk_packages imports each subpackage to find its children; listing with
    # iter_modules folder by folder keeps collection free of imports, so a broken ``__init__``
    # fails its own test instead of the collection.
    """
    names = [package]
    folders = [(ROOT / package, package)]
    while folders:
        folder, prefix = folders.pop()
        for info in pkgutil.iter_modules([str(folder)]):
            name = f"{prefix}.{info.name}"
            if info.name != "__main__":  # the ``python -m`` entry point runs the CLI when imported
                names.append(name)
            if info.ispkg:
                folders.append((folder / info.name, name))
    return sorted(names)


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=IMPORT_TIMEOUT_S)


LIBRARY = _modules("chunking")
ALL = [name for package in PACKAGES for name in _modules(package)]


def test_module_list_finds_the_subpackages():
    assert {"chunking.cli", "chunking.readers.pdf", "chunking.structure.kinds", "chunking.strategies.window",
            "chunking.commands.chunk", "inspector.figures"} <= set(ALL)


@pytest.mark.parametrize("module", ALL)
def test_every_module_imports_first_in_a_fresh_interpreter(module):
    proc = _run(f"import importlib; importlib.import_module({module!r})")
    assert proc.returncode == 0, f"import {module} failed:\n{proc.stderr[-2000:]}"


def test_chunking_never_imports_streamlit_or_plotly_at_import_time():
    code = ("import importlib, sys\n"
            f"for name in {LIBRARY!r}:\n"
            "    importlib.import_module(name)\n"
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {UI_PACKAGES!r}))\n")
    proc = _run(code)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "[]"


PURE = [name for name in _modules("inspector") if name.startswith("inspector.figures")] + [
    "inspector.data.tables", "inspector.data.structure"]
"""The app's pure functions: figures (data -> plotly Figure), tables and the Structure page's edits."""


def test_the_apps_pure_modules_never_import_streamlit():
    code = ("import importlib, sys\n"
            f"for name in {PURE!r}:\n"
            "    importlib.import_module(name)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'streamlit'))\n")
    proc = _run(code)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "[]"


def test_chunking_sources_have_no_streamlit_or_plotly_import_statement():
    """Also the imports inside functions, which importing the modules does not run."""
    found = []
    for path in sorted((ROOT / "chunking").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            found += [f"{path.relative_to(ROOT)}:{node.lineno}: {name}" for name in names
                      if name.split(".")[0] in UI_PACKAGES]
    assert found == []


def _import_graph(package: str) -> dict[str, set[str]]:
    """Module → the package's modules it imports, counting imports inside functions too.

    A function-level import only postpones a cycle (``__init__`` → pipeline → export → ``from .
    import __version__``) until the function runs; the graph counts it as the cycle it is.
    """
    modules: dict[str, tuple[Path, list[str]]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
            home = parts
        else:
            home = parts[:-1]
        modules[".".join(parts)] = (path, home)
    graph: dict[str, set[str]] = {}
    for name, (path, home) in modules.items():
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.ImportFrom):
                base = home[: len(home) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                candidates = [target] + [f"{target}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                candidates = [a.name for a in node.names]
            else:
                continue
            deps |= {c for c in candidates if c in modules and c != name}
        graph[name] = deps
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_cycle_finder_sees_a_cycle_through_a_function_level_import():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle_even_through_imports_inside_functions(package):
    assert _cycles(_import_graph(package)) == []


def test_no_command_imports_another_command():
    """Commands share code through the library (``chunking.analysis``, ``chunking.retrieval``),
    never through each other: one module per subcommand, each replaceable alone."""
    graph = _import_graph("chunking")
    commands = {m for m in graph if m.startswith("chunking.commands.")}
    assert {(m, d) for m in commands for d in graph[m] if d in commands} == set()


def test_the_cli_and_chunk_command_start_without_the_engines_heavy_imports():
    """Parsing the command line and refusing a usage error need no engine: importing the CLI and
    the chunk command must not pull in numpy, tiktoken or PyMuPDF (the pipeline loads them)."""
    code = ("import sys, chunking.cli, chunking.commands.chunk\n"
            "print(sorted(m for m in ('numpy', 'tiktoken', 'pymupdf') if m in sys.modules))\n")
    proc = _run(code)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "[]"
