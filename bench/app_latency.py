"""App responsiveness in a real browser (issue 7, point 3) — a measurement, not a test.

``python bench/app_latency.py [--runs N] [--book NAME]`` starts the app with the browser harness
of ``tests/browser_harness.py`` (``streamlit run`` + Debian chromium via Playwright), once per
run so every run starts with cold caches, and times what a user waits for:

* **first render** after choosing the sample book ``--book`` (default: the largest) in the home
  page's "Sample book" box: from the click on the option until the Pages and Chunks metrics show
  that book's values (cold: read + tokenize + chunk; warm: chosen again after another book);
* **slider change** of "Max tokens" (one keyboard step, 16 tokens) on that book: until the home
  page's Chunks metric shows the new count, and until the Boundaries page's figure holds exactly
  the new chunks.

Expected values come from the library (``load_book`` + ``tokenize`` + ``chunk_book``), so a
wait ends only on the right value, never on "something changed". Timing is polled in the browser
every animation frame (``requestAnimationFrame``). Targets: slider ≤ 1 s, first render ≤ 3 s.
The medians go into ``bench/RESULTS.md`` between the ``bench:app`` markers.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# chunking is installed (`make install`) and bench/ is this script's own folder; only the tests'
# browser harness (a helper, not a package) needs its folder on the path.
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from browser_harness import CHROMIUM, CHROMIUM_ARGS, VIEWPORT, start_app, stop_app, wait_idle  # noqa: E402
from chunking.ingest import load_book  # noqa: E402
from chunking.models import END_REASONS  # noqa: E402
from chunking.policy import Policy  # noqa: E402
from chunking.strategies import chunk_book  # noqa: E402
from chunking.tokens import tokenize  # noqa: E402
from run import write_results  # noqa: E402

TIMEOUT_MS = 120_000
TARGETS = {"slider_s": 1.0, "first_render_s": 3.0}
MARK_START, MARK_END = "<!-- bench:app -->", "<!-- /bench:app -->"
STEP = 16  # the Max tokens slider's step
Timing = tuple[float, float, float]
"""Wall seconds, app-server CPU seconds, browser CPU seconds of one interaction."""

_METRIC_JS = """([label, value]) => [...document.querySelectorAll('[data-testid="stMetric"]')].some(m =>
    m.querySelector('[data-testid="stMetricLabel"]')?.innerText.trim() === label &&
    m.querySelector('[data-testid="stMetricValue"]')?.innerText.trim() === value)"""
_FIGURE_JS = """([reasons, count]) => {
    const plot = document.querySelector('.js-plotly-plot');
    if (!plot || !plot.data) return false;
    const bars = plot.data.filter(t => reasons.includes(t.name)).reduce((n, t) => n + (t.x ? t.x.length : 0), 0);
    return bars === count;
}"""


def _cpu_by_pid() -> dict[int, tuple[int, float]]:
    """Every process's parent and CPU seconds so far (user + system, from ``/proc``)."""
    out = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # the process ended meanwhile
                continue
            out[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    return out


def cpu_split(server_pid: int) -> tuple[float, float]:
    """CPU seconds so far of the app server and of the browser (our other descendants: Playwright's
    driver and chromium), so an interaction's cost can be split between them."""
    procs = _cpu_by_pid()
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in procs.items():
        children.setdefault(ppid, []).append(pid)

    def tree(root: int) -> float:
        total, stack = 0.0, [root]
        while stack:
            pid = stack.pop()
            total += procs.get(pid, (0, 0.0))[1]
            stack.extend(children.get(pid, []))
        return total

    server = tree(server_pid)
    return server, tree(os.getpid()) - procs.get(os.getpid(), (0, 0.0))[1] - server


def expected_counts(book: Path, max_tokens: list[int]) -> tuple[int, dict[int, int]]:
    """Pages of ``book`` and its chunk count under the default policy with each ``max_tokens``."""
    tokenized = tokenize(load_book(book))
    return len(tokenized.book.pages), {
        m: len(chunk_book(tokenized, Policy(max_tokens=m))) for m in max_tokens
    }


def _wait_js(page: Page, script: str, arg: list) -> None:
    page.wait_for_function(script, arg=arg, polling="raf", timeout=TIMEOUT_MS)


def _wait_metrics(page: Page, values: dict[str, int]) -> None:
    for label, value in values.items():
        _wait_js(page, _METRIC_JS, [label, str(value)])


def _timed(server_pid: int, action, wait) -> Timing:
    """Wall seconds from ``action()`` until ``wait()`` returns, and the server's and browser's CPU seconds."""
    s0, b0 = cpu_split(server_pid)
    t0 = time.perf_counter()
    action()
    wait()
    elapsed = time.perf_counter() - t0
    s1, b1 = cpu_split(server_pid)
    return elapsed, s1 - s0, b1 - b0


def choose_sample(page: Page, server_pid: int, name: str, pages: int, chunks: int) -> Timing:
    """Pick ``name`` in the Sample book box; time until its Pages and Chunks metrics show."""
    page.get_by_test_id("stSelectbox").filter(has_text="Sample book").click()
    option = page.get_by_role("option", name=name, exact=True)
    out = _timed(server_pid, option.click, lambda: _wait_metrics(page, {"Pages": pages, "Chunks": chunks}))
    wait_idle(page)
    return out


def slide_max_tokens(page: Page, server_pid: int, wait) -> Timing:
    """Move Max tokens one step left by keyboard; time until ``wait(new value)`` holds."""
    thumb = page.get_by_test_id("stSidebar").get_by_role("slider", name="Max tokens")
    thumb.focus()
    value = int(thumb.input_value()) - STEP

    def press() -> None:
        thumb.press("ArrowLeft")
        page.keyboard.press("Tab")  # NOTE: as tests/test_browser.py does: the blur commits the value

    out = _timed(server_pid, press, lambda: wait(value))
    wait_idle(page)
    return out


def one_run(browser, book: str, pages: int, counts: dict[int, int], moves: int) -> dict[str, list[Timing]]:
    """A fresh app server and session: first render (cold, then warm), then slider moves on two pages."""
    proc, url = start_app()
    out: dict[str, list[Timing]] = {
        "first_render_cold": [],
        "first_render_warm": [],
        "slider_home": [],
        "slider_boundaries": [],
    }
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(url)
        page.get_by_test_id("stMetric").first.wait_for()
        wait_idle(page)
        default = Policy().max_tokens
        out["first_render_cold"].append(choose_sample(page, proc.pid, book, pages, counts[default]))
        other = "lshort.pdf" if book != "lshort.pdf" else "r-intro.pdf"
        page.get_by_test_id("stSelectbox").filter(has_text="Sample book").click()
        page.get_by_role("option", name=other, exact=True).click()
        wait_idle(page)
        out["first_render_warm"].append(choose_sample(page, proc.pid, book, pages, counts[default]))
        for _ in range(moves):
            out["slider_home"].append(
                slide_max_tokens(page, proc.pid, lambda v: _wait_metrics(page, {"Chunks": counts[v]}))
            )
        page.get_by_test_id("stSidebarNav").get_by_role("link", name="Boundaries").click()
        page.wait_for_url("**/Boundaries", timeout=TIMEOUT_MS)
        wait_idle(page)
        for _ in range(moves):
            out["slider_boundaries"].append(
                slide_max_tokens(
                    page, proc.pid, lambda v: _wait_js(page, _FIGURE_JS, [list(END_REASONS), counts[v]])
                )
            )
    finally:
        context.close()
        stop_app(proc)
    return out


def report(results: dict[str, list[Timing]], book: str, pages: int, runs: int, moves: int) -> str:
    """The Markdown block for ``bench/RESULTS.md``."""
    rows = [
        (
            "first render after choosing the book, cold (read + tokenize + chunk)",
            "first_render_cold",
            "first_render_s",
        ),
        (
            "first render after choosing the book again, warm (cached book)",
            "first_render_warm",
            "first_render_s",
        ),
        ("Max tokens slider −16 → home Chunks metric updated", "slider_home", "slider_s"),
        ("Max tokens slider −16 → Boundaries figure holds the new chunks", "slider_boundaries", "slider_s"),
    ]
    lines = [
        f"## App responsiveness (`python bench/app_latency.py`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})",
        "",
        f"{book} ({pages} pages) in Debian chromium driven by Playwright; {runs} runs, each with a fresh "
        f"`streamlit run` server (cold caches) and {moves} slider moves per page; load average at the end "
        f"{os.getloadavg()[0]:.1f} on 2 cores. Wall: seconds from the click or key press until the browser "
        "shows the expected value (polled every animation frame). Server / browser CPU: CPU seconds the "
        "app server and chromium spent meanwhile (what the wall time would be on an idle machine, roughly).",
        "",
        "| what the user waits for | median wall s | max wall s | server CPU s | browser CPU s | target | verdict |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for label, key, target in rows:
        wall, server, browser = (list(col) for col in zip(*results[key]))
        med = statistics.median(wall)
        verdict = "**met**" if med <= TARGETS[target] else "**NOT met**"
        lines.append(
            f"| {label} | {med:.2f} | {max(wall):.2f} | {statistics.median(server):.2f} | "
            f"{statistics.median(browser):.2f} | ≤ {TARGETS[target]:.0f} s | {verdict} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh app servers (at least 5)")
    parser.add_argument("--moves", type=int, default=3, help="slider moves per page and run")
    parser.add_argument("--book", default=None, help="a sample book's file name (default: the largest)")
    parser.add_argument("--no-write", action="store_true", help="print only; leave RESULTS.md alone")
    args = parser.parse_args(argv)
    runs = max(5, args.runs)
    book = args.book or max((ROOT / "sample_books").glob("*.pdf"), key=lambda p: p.stat().st_size).name
    default = Policy().max_tokens
    pages, counts = expected_counts(
        ROOT / "sample_books" / book, [default - STEP * k for k in range(2 * args.moves + 1)]
    )
    results: dict[str, list[Timing]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for r in range(runs):
                for key, values in one_run(browser, book, pages, counts, args.moves).items():
                    results.setdefault(key, []).extend(values)
                print(
                    f"run {r + 1}/{runs}: "
                    + ", ".join(f"{k} {statistics.median(t[0] for t in v):.2f}s" for k, v in results.items()),
                    file=sys.stderr,
                )
        finally:
            browser.close()
    block = report(results, book, pages, runs, args.moves)
    print(block)
    if not args.no_write:
        write_results(block, MARK_START, MARK_END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
