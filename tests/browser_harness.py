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

Helpers wait for *state*, never for a time, nor for ``networkidle`` (which is not "rendered"):

* a value shown (``expect(...).to_have_text``);
* the app's runs: every context made by ``new_context`` counts, in the page, the reruns the
  browser asks for and the runs the server starts and finishes (``RUNS_JS``, from the websocket's
  own messages). ``wait_idle`` waits until every rerun asked for has run to its end and Streamlit
  shows it done; ``with rerun(page): action()`` waits for the rerun that ``action`` asks for;
* a chart drawn (``wait_charts_drawn``: every plotly chart has its SVG, traces and annotations, and
  the page has not changed between consecutive animation frames).

``TIMEOUT_MS`` bounds each wait. It only catches a hang: on two cores shared with a full
``make test`` a single rerun of a heavy page has taken longer than a minute.
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
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORT = {"width": 1500, "height": 2400}
TIMEOUT_MS = 240_000
"""A bound on one wait, for a hang only: every wait is for the page's own state, and on two cores
shared with a whole ``make test`` one rerun of a heavy page (a book read and tokenized, pages
rendered) has taken more than 60 s."""
expect.set_options(timeout=TIMEOUT_MS)  # NOTE: Playwright's own default is 5 s
CHARTS_ON_OPEN = {"Boundaries": 1, "Overlap": 3, "Compare": 2}
"""Plotly charts each page draws as soon as it opens (``wait_charts_drawn`` waits for them)."""

RUNS_JS = """(() => {
    if (window.__bciRuns) return;
    // Script runs as the websocket tells them, numbered in the order they happen: the last rerun
    // the browser asked for (BackMsg.rerun_script, field 11), the last run the server started
    // (ForwardMsg.new_session, field 4) and the last run chain it finished (ForwardMsg.script_finished,
    // field 6, any status but FINISHED_EARLY_FOR_RERUN = 2: that one is followed by another run).
    const runs = window.__bciRuns = {seq: 0, requests: 0, requestedAt: 0, startedAt: 0, finishedAt: 0};
    const topFields = (data) => {  // a protobuf message's top-level field numbers → varint value or null
        const b = data instanceof ArrayBuffer ? new Uint8Array(data)
            : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
        const out = new Map();
        let i = 0;
        const varint = () => {
            let v = 0, m = 1, x;
            do { x = b[i++]; v += (x & 127) * m; m *= 128; } while (x & 128 && i < b.length);
            return v;
        };
        while (i < b.length) {
            const tag = varint(), field = Math.floor(tag / 8), wire = tag & 7;
            if (wire === 0) out.set(field, varint());
            else if (wire === 2) { const n = varint(); out.set(field, null); i += n; }
            else if (wire === 1) i += 8;
            else if (wire === 5) i += 4;
            else break;
        }
        return out;
    };
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
        constructor(...args) {
            super(...args);
            this.addEventListener('message', (event) => {
                if (!(event.data instanceof ArrayBuffer)) return;
                const f = topFields(event.data);
                if (f.has(4)) runs.startedAt = ++runs.seq;
                if (f.has(6) && f.get(6) !== 2) runs.finishedAt = ++runs.seq;
            });
        }
        send(data) {
            if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) {
                if (topFields(data).has(11)) { runs.requests++; runs.requestedAt = ++runs.seq; }
            }
            return super.send(data);
        }
    };
})();"""
"""Installed in every page of a ``new_context`` before the app's own scripts (``add_init_script``)."""

IDLE_JS = """(since) => {
    const r = window.__bciRuns, app = document.querySelector('[data-testid="stApp"]');
    return !!r && !!app && r.requests > since && r.startedAt > r.requestedAt && r.finishedAt > r.startedAt
        && app.dataset.testScriptState === 'notRunning' && app.dataset.testConnectionState === 'CONNECTED';
}"""
"""True once more than ``since`` reruns were asked for, a run started after the last of them and
finished its chain, and Streamlit shows the app connected and not running (it has handled the
finish). Every rerun the browser asks for makes the server start a run after it arrives."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_app(
    app: Path = ROOT / "app.py",
    port: int | None = None,
    timeout: float = TIMEOUT_MS / 1000,
    log: Path | None = None,
    options: tuple[str, ...] = (),
) -> tuple[subprocess.Popen, str]:
    """Start ``streamlit run APP`` on 127.0.0.1 and wait until it answers its health check.

    Args:
        app (Path): the entry script. Defaults to the project's ``app.py``.
        port (int | None): port to listen on. Defaults to a free one.
        timeout (float): seconds to wait for ``/_stcore/health`` → ``ok`` (a bound on a hang; the
            check is polled). Defaults to ``TIMEOUT_MS``.
        log (Path | None): a file for the server's output (stdout and stderr). Defaults to a pipe.
        options (tuple[str, ...]): more ``streamlit run`` options (``--logger.level``, ...).

    Returns:
        tuple[subprocess.Popen, str]: the server process and its base URL.

    Raises:
        RuntimeError: the server exited or did not answer in time (its output is included).
    """
    port = port or free_port()
    cmd = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(app),
        "--server.headless",
        "true",
        "--server.address",
        "127.0.0.1",
        "--server.port",
        str(port),
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",
        *options,
    ]
    out = log.open("wb") if log is not None else subprocess.PIPE
    try:
        proc = subprocess.Popen(
            cmd,
            cwd=app.parent,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    finally:
        if log is not None:
            out.close()  # type: ignore[union-attr]

    def output() -> str:
        if log is not None:
            return log.read_text(errors="replace")[-2000:]
        return proc.stdout.read().decode()[-2000:] if proc.stdout else ""  # type: ignore[union-attr]

    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with {proc.returncode}: {output()}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return proc, url
        except OSError:
            time.sleep(0.3)  # NOTE: the poll's interval; the wait is for the health check's answer
    stop_app(proc)
    raise RuntimeError(f"streamlit did not answer on {url} within {timeout:.0f}s: {output()}")


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
            executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
    return _shared["browser"]  # type: ignore[return-value]


@pytest.fixture(scope="session")
def app_url() -> str:
    return shared_app_url()


@pytest.fixture(scope="session")
def browser() -> Browser:
    return shared_browser()


def new_context(browser: Browser, **options: Any) -> BrowserContext:
    """A browser context (a new Streamlit session per page) whose pages count the app's runs
    (``RUNS_JS``) and whose waits are bounded by ``TIMEOUT_MS``. ``options`` go to Playwright's
    ``new_context`` (``viewport`` defaults to ``VIEWPORT``)."""
    context = browser.new_context(**{"viewport": VIEWPORT, **options})
    context.add_init_script(RUNS_JS)
    context.set_default_timeout(TIMEOUT_MS)
    return context


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = new_context(browser, accept_downloads=True)
    pg = context.new_page()
    try:
        yield pg
    finally:
        context.close()


def rerun_requests(page: Page) -> int:
    """How many reruns this page has asked the app for so far."""
    return int(page.evaluate("() => window.__bciRuns ? window.__bciRuns.requests : 0"))


def wait_idle(page: Page, since: int = 0) -> None:
    """Wait until every rerun the page asked for (and more than ``since`` of them) has run to its end.

    Right after an input, the rerun it asks for may not be asked yet (a widget sends its value
    once React has drawn it): wrap the input in ``rerun(page)`` instead, which waits for it.
    """
    page.wait_for_function(IDLE_JS, arg=since, timeout=TIMEOUT_MS)


@contextmanager
def rerun(page: Page) -> Iterator[None]:
    """Wait, after the block, for the rerun an input in the block asks for, run to its end.

    The block must ask for one (a changed widget, a button, a page link, an upload), or this
    waits until ``TIMEOUT_MS``.
    """
    since = rerun_requests(page)
    yield
    wait_idle(page, since)


CHARTS_DRAWN_JS = """(want) => {
    const charts = Array.from(document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot'));
    const app = document.querySelector('[data-testid="stApp"]');
    const drawn = charts.length >= want && charts.every(gd => gd._fullLayout && gd.calcdata
        && gd.querySelector('.main-svg')
        && gd.querySelectorAll('.infolayer g.annotation').length === (gd._fullLayout.annotations || []).length
        && ((gd.data || []).length === 0 || gd.querySelector('.trace, .hm') !== null));
    // what the page looks like this frame: each chart's layout size and box, its text, the page height
    const look = JSON.stringify([charts.map(gd => { const r = gd.getBoundingClientRect();
        return [gd._fullLayout && gd._fullLayout.width, gd._fullLayout && gd._fullLayout.height,
                r.left, r.top, r.width, r.height, gd.querySelectorAll('text').length]; }),
        document.querySelector('[data-testid="stMain"]').scrollHeight,
        app && app.dataset.testScriptState]);
    const same = drawn && window.__bciLook === look;
    window.__bciLook = look;
    window.__bciSameFrames = same ? (window.__bciSameFrames || 0) + 1 : 0;
    return window.__bciSameFrames >= 2;
}"""
"""Polled once per animation frame: true once the main area holds ``want`` plotly charts, each drawn
(its layout, calc data, SVG, every annotation and a trace), and nothing of them or of the page's
height has changed over the last two frames (plotly lays text out and redraws after a resize in
frames after its SVG appears)."""


def wait_charts_drawn(page: Page, count: int = 0) -> None:
    """Wait until the app is idle and ``count`` (or more) plotly charts are drawn and still."""
    wait_idle(page)
    page.evaluate("() => { window.__bciLook = null; window.__bciSameFrames = 0; }")
    page.wait_for_function(CHARTS_DRAWN_JS, arg=count, polling="raf", timeout=TIMEOUT_MS)


def open_app(page: Page, app_url: str) -> None:
    """Open the home page and wait until its first run has finished (metrics shown)."""
    page.goto(app_url)
    wait_idle(page)
    expect(page.get_by_test_id("stMetric").first).to_be_visible(timeout=TIMEOUT_MS)


def open_page(page: Page, app_url: str, title: str) -> None:
    """Switch to the page titled ``title`` through the sidebar's page list (same session)."""
    if not page.url.startswith(app_url):
        open_app(page, app_url)
    with rerun(page):
        page.get_by_test_id("stSidebarNav").get_by_role("link", name=re.compile(title)).click()
    page.wait_for_url(re.compile(re.sub(r"\s+", "_", title)), timeout=TIMEOUT_MS)


def metric(page: Page, label: str):
    """The ``st.metric`` whose label is exactly ``label`` (a Playwright locator)."""
    return page.get_by_test_id("stMetric").filter(
        has=page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True)
    )


def metric_value(page: Page, label: str) -> str:
    """The displayed value of the metric labelled ``label``."""
    return metric(page, label).get_by_test_id("stMetricValue").inner_text().strip()


def upload(page: Page, path: Path) -> None:
    """Upload ``path`` through the first file uploader's real ``<input type=file>``; wait until the
    rerun that reads it has finished."""
    with rerun(page):
        page.get_by_test_id("stFileUploaderDropzoneInput").first.set_input_files(str(path))


def screenshot(page: Page, path: Path) -> Path:
    """Save a full screenshot of the app's main area to ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=True)
    return path
