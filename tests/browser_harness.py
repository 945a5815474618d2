"""Real-browser test harness: the app under ``streamlit run`` and a Debian chromium page.

Reusable by every page's browser test. In a test module::

    from browser_harness import app_url, browser, page  # noqa: F401  (pytest fixtures)
    from browser_harness import open_page, metric_value, wait_idle

    @pytest.mark.browser
    def test_my_page(page, app_url):
        open_page(page, app_url, "Compare")          # via the sidebar's page list
        assert metric_value(page, "Chunks") == "184"

Fixtures:
    * ``app_url`` (session): starts ``streamlit run app.py`` on a free port of 127.0.0.1 (headless,
      no usage stats), waits for ``/_stcore/health`` and returns ``http://127.0.0.1:PORT``; one
      server per test process, stopped when the process exits.
    * ``browser`` (session): Debian's ``/usr/bin/chromium`` driven by Playwright (never
      ``playwright install``), with the launch flags CI needs; one per test process.
    * ``page`` (function): a fresh context (downloads accepted, tall viewport because ``stMain``
      is the scroll container) and page; a new page is a new Streamlit session.

Helpers wait for *values*, never for ``networkidle`` (which is not "rendered").
"""

from __future__ import annotations

import atexit
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
VIEWPORT = {"width": 1500, "height": 2400}
TIMEOUT_MS = 60_000
"""Generous: two busy cores, and the first run of a page reads and tokenizes a book."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_app(app: Path = ROOT / "app.py", port: int | None = None,
              timeout: float = 60.0) -> tuple[subprocess.Popen, str]:
    """Start ``streamlit run APP`` on 127.0.0.1 and wait until it answers its health check.

    Args:
        app (Path): the entry script. Defaults to the project's ``app.py``.
        port (int | None): port to listen on. Defaults to a free one.
        timeout (float): seconds to wait for ``/_stcore/health`` → ``ok``. Defaults to 60.

    Returns:
        tuple[subprocess.Popen, str]: the server process and its base URL.

    Raises:
        RuntimeError: the server exited or did not answer in time (its output is included).
    """
    port = port or free_port()
    cmd = [sys.executable, "-m", "streamlit", "run", str(app), "--server.headless", "true",
           "--server.address", "127.0.0.1", "--server.port", str(port),
           "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    proc = subprocess.Popen(cmd, cwd=app.parent, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            output = proc.stdout.read().decode()[-2000:]
            raise RuntimeError(f"streamlit exited with {proc.returncode}: {output}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return proc, url
        except OSError:
            time.sleep(0.3)
    stop_app(proc)
    raise RuntimeError(f"streamlit did not answer on {url} within {timeout:.0f}s")


def stop_app(proc: subprocess.Popen) -> None:
    """Stop a server started by ``start_app`` (terminate, then kill after 10 s)."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


_shared: dict[str, object] = {}
"""One server and one browser per test process, whichever test module asks first.

# NOTE: every browser test module imports these fixtures, and pytest then holds one session
fixture *per importing module*; two live ``sync_playwright()`` instances in one thread fail
("Sync API inside the asyncio loop"). So the fixtures hand out process-wide singletons, closed
when the process exits.
"""


def _close_shared() -> None:
    if "browser" in _shared:
        _shared.pop("browser").close()  # type: ignore[attr-defined]
        _shared.pop("playwright").stop()  # type: ignore[attr-defined]
    if "server" in _shared:
        stop_app(_shared.pop("server"))  # type: ignore[arg-type]


def shared_app_url() -> str:
    """The URL of this process's app server (started on first use)."""
    if "server" not in _shared:
        if not _shared:
            atexit.register(_close_shared)
        _shared["server"], _shared["url"] = start_app()
    return _shared["url"]  # type: ignore[return-value]


def shared_browser() -> Browser:
    """This process's chromium (launched on first use)."""
    if "browser" not in _shared:
        if not _shared:
            atexit.register(_close_shared)
        _shared["playwright"] = sync_playwright().start()
        _shared["browser"] = _shared["playwright"].chromium.launch(  # type: ignore[attr-defined]
            executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    return _shared["browser"]  # type: ignore[return-value]


@pytest.fixture(scope="session")
def app_url() -> str:
    return shared_app_url()


@pytest.fixture(scope="session")
def browser() -> Browser:
    return shared_browser()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(accept_downloads=True, viewport=VIEWPORT)
    context.set_default_timeout(TIMEOUT_MS)
    pg = context.new_page()
    try:
        yield pg
    finally:
        context.close()


def wait_idle(page: Page) -> None:
    """Wait until the app is not running a script (the status widget's "Running" is gone)."""
    page.wait_for_timeout(300)  # a rerun starts a moment after the input that caused it
    expect(page.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=TIMEOUT_MS)


def open_app(page: Page, app_url: str) -> None:
    """Open the home page and wait until its first run has finished (metrics shown)."""
    page.goto(app_url)
    expect(page.get_by_test_id("stMetric").first).to_be_visible(timeout=TIMEOUT_MS)
    wait_idle(page)


def open_page(page: Page, app_url: str, title: str) -> None:
    """Switch to the page titled ``title`` through the sidebar's page list (same session)."""
    if not page.url.startswith(app_url):
        open_app(page, app_url)
    page.get_by_test_id("stSidebarNav").get_by_role("link", name=re.compile(title)).click()
    page.wait_for_url(re.compile(re.sub(r"\s+", "_", title)), timeout=TIMEOUT_MS)
    wait_idle(page)


def metric(page: Page, label: str):
    """The ``st.metric`` whose label is exactly ``label`` (a Playwright locator)."""
    return page.get_by_test_id("stMetric").filter(
        has=page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True))


def metric_value(page: Page, label: str) -> str:
    """The displayed value of the metric labelled ``label``."""
    return metric(page, label).get_by_test_id("stMetricValue").inner_text().strip()


def upload(page: Page, path: Path) -> None:
    """Upload ``path`` through the first file uploader's real ``<input type=file>``."""
    page.get_by_test_id("stFileUploaderDropzoneInput").first.set_input_files(str(path))


def screenshot(page: Page, path: Path) -> Path:
    """Save a full screenshot of the app's main area to ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=True)
    return path
