"""App responsiveness in a real browser (issues 7 and 14) — a measurement, not a test.

``python bench/app_latency.py [--runs N] [--book NAME]`` starts the app with the browser harness
of ``tests/browser_harness.py`` (``streamlit run`` + Debian chromium via Playwright), once per
run so every run starts with cold caches, and times what a user waits for, on two books: the
sample book ``--book`` (default: the largest) and the 400-chapter book of
``tests/many_chapters.py`` (uploaded):

* **first render** after choosing the book (the sample in the home page's "Sample book" box, the
  other one uploaded): until the Pages and Chunks metrics show that book's values (cold: read +
  tokenize + chunk; warm, sample only: chosen again after another book);
* **slider change** of "Max tokens" (one keyboard step, 16 tokens) on that book: until the home
  page's Chunks metric shows the new count, and until the Boundaries page's figure holds exactly
  the new chunks (its moves start once the page's first figure is drawn);
* **Compare**: from the click on Compare in the page list until every policy's progress line
  says done and both figures are drawn (the book already loaded), against
  ``python -m chunking compare BOOK`` (the same three policies) run in the same run; once after
  Boundaries, and once for a new visitor (a fresh browser context) straight from the Book page,
  the first page with a figure (Streamlit's 4.7 MB plotly.js bundle is fetched, compiled and
  started by the Book page's warm-up chart, ``inspector.views.chart_warmup``, or else by Compare).

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

import subprocess  # noqa: E402

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from browser_harness import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    VIEWPORT,
    new_context,
    start_app,
    stop_app,
    wait_idle,
)
from chunking.ingest import load_book  # noqa: E402
from chunking.models import END_REASONS  # noqa: E402
from chunking.policy import Policy  # noqa: E402
from chunking.strategies import chunk_book  # noqa: E402
from chunking.tokens import tokenize  # noqa: E402
from many_chapters import write_many_chapters_book  # noqa: E402
from run import write_results  # noqa: E402

TIMEOUT_MS = 120_000
TARGETS = {"slider_s": 1.0, "first_render_s": 3.0, "compare_x": 1.5}
"""Slider ≤ 1 s, first render ≤ 3 s, Compare ≤ 1.5 × the CLI's compare on the same book."""
MANY_CHAPTERS = Path("/tmp") / "bench-app-latency" / "many-chapters.pdf"
"""Where the 400-chapter book is generated (deterministic bytes, so a cached copy is reused)."""
MARK_START, MARK_END = "<!-- bench:app -->", "<!-- /bench:app -->"
STEP = 16  # the Max tokens slider's step
Timing = tuple[float, float, float]
"""Wall seconds, app-server CPU seconds, browser CPU seconds of one interaction."""

_METRIC_JS = """([label, value]) => [...document.querySelectorAll('[data-testid="stMetric"]')].some(m =>
    m.querySelector('[data-testid="stMetricLabel"]')?.innerText.trim() === label &&
    m.querySelector('[data-testid="stMetricValue"]')?.innerText.trim() === value)"""
_COMPARE_JS = """([policies, figures]) => [...document.querySelectorAll('[data-testid="stCaptionContainer"]')]
    .filter(c => /^✓ \\d+ chunks in/.test(c.innerText.trim())).length === policies &&
    document.querySelectorAll('.js-plotly-plot').length === figures"""
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


def upload_book(page: Page, server_pid: int, path: Path, pages: int, chunks: int) -> Timing:
    """Upload ``path`` on the home page; time until its Pages and Chunks metrics show."""
    box = page.get_by_test_id("stFileUploaderDropzoneInput").first
    out = _timed(
        server_pid,
        lambda: box.set_input_files(str(path)),
        lambda: _wait_metrics(page, {"Pages": pages, "Chunks": chunks}),
    )
    wait_idle(page)
    return out


def open_compare(page: Page, server_pid: int) -> Timing:
    """Click Compare in the page list; time until each policy is done and both figures show."""
    link = page.get_by_test_id("stSidebarNav").get_by_role("link", name="Compare", exact=True)

    def drawn() -> None:
        _wait_js(page, _COMPARE_JS, [3, 2])

    out = _timed(server_pid, link.click, drawn)
    wait_idle(page)
    return out


def cli_compare(book: Path) -> Timing:
    """``python -m chunking compare BOOK`` (the default three policies): wall and CPU seconds."""
    t0, c0 = time.perf_counter(), os.times()
    subprocess.run([sys.executable, "-m", "chunking", "compare", str(book)], check=True, capture_output=True)
    c1 = os.times()
    return (
        time.perf_counter() - t0,
        c1.children_user - c0.children_user + c1.children_system - c0.children_system,
        0.0,
    )


def one_run(
    browser, book: Path, pages: int, counts: dict[int, int], moves: int, sample: bool
) -> dict[str, list[Timing]]:
    """A fresh app server and session on one book: first render (cold; warm for a sample), slider
    moves on two pages, then Compare (and the CLI's compare of the same book)."""
    proc, url = start_app()
    out: dict[str, list[Timing]] = {key: [] for key, *_ in ROWS}
    context = new_context(browser, viewport=VIEWPORT)
    context.set_default_timeout(TIMEOUT_MS)
    default = Policy().max_tokens
    try:
        page = context.new_page()
        page.goto(url)
        page.get_by_test_id("stMetric").first.wait_for()
        wait_idle(page)
        if sample:
            out["first_render_cold"].append(choose_sample(page, proc.pid, book.name, pages, counts[default]))
            other = "lshort.pdf" if book.name != "lshort.pdf" else "r-intro.pdf"
            page.get_by_test_id("stSelectbox").filter(has_text="Sample book").click()
            page.get_by_role("option", name=other, exact=True).click()
            wait_idle(page)
            out["first_render_warm"].append(choose_sample(page, proc.pid, book.name, pages, counts[default]))
        else:
            out["first_render_cold"].append(upload_book(page, proc.pid, book, pages, counts[default]))
        for _ in range(moves):
            out["slider_home"].append(
                slide_max_tokens(page, proc.pid, lambda v: _wait_metrics(page, {"Chunks": counts[v]}))
            )
        page.get_by_test_id("stSidebarNav").get_by_role("link", name="Boundaries").click()
        page.wait_for_url("**/Boundaries", timeout=TIMEOUT_MS)
        wait_idle(page)
        # NOTE: the script is done before the browser has drawn the page's first chart (loading and
        # starting plotly.js, ≈ 0.3–0.5 s CPU here); wait for the figure, or the first move's time
        # holds that one-off cost instead of the slider step's.
        thumb = page.get_by_test_id("stSidebar").get_by_role("slider", name="Max tokens")
        _wait_js(page, _FIGURE_JS, [list(END_REASONS), counts[int(thumb.input_value())]])
        for _ in range(moves):
            out["slider_boundaries"].append(
                slide_max_tokens(
                    page, proc.pid, lambda v: _wait_js(page, _FIGURE_JS, [list(END_REASONS), counts[v]])
                )
            )
        out["compare"].append(open_compare(page, proc.pid))
        out["compare_cli"].append(cli_compare(book))
        # a new visitor (a fresh browser context, the same server, the book cached): the Book page,
        # then Compare
        fresh = new_context(browser, viewport=VIEWPORT)
        fresh.set_default_timeout(TIMEOUT_MS)
        first = fresh.new_page()
        first.goto(url)
        first.get_by_test_id("stMetric").first.wait_for()
        wait_idle(first)
        if sample:
            first.get_by_test_id("stSelectbox").filter(has_text="Sample book").click()
            first.get_by_role("option", name=book.name, exact=True).click()
        else:
            first.get_by_test_id("stFileUploaderDropzoneInput").first.set_input_files(str(book))
        _wait_metrics(first, {"Pages": pages, "Chunks": counts[default]})
        wait_idle(first)
        out["compare_first"].append(open_compare(first, proc.pid))
        fresh.close()
    finally:
        context.close()
        stop_app(proc)
    return out


ROWS = (
    (
        "first_render_cold",
        "first render after choosing the book, cold (read + tokenize + chunk)",
        "first_render_s",
    ),
    ("first_render_warm", "first render after choosing the book again, warm (cached book)", "first_render_s"),
    ("slider_home", "Max tokens slider −16 → home Chunks metric updated", "slider_s"),
    ("slider_boundaries", "Max tokens slider −16 → Boundaries figure holds the new chunks", "slider_s"),
    ("compare", "Compare page: click → three policies done, both figures drawn", "compare_x"),
    (
        "compare_first",
        "Compare page, a new visitor straight from the Book page (fresh browser context)",
        "compare_x",
    ),
    ("compare_cli", "`python -m chunking compare BOOK` (same policies; the Compare row's floor)", None),
)
"""Result key, row label, target key (None: a reference row)."""


def report(results: dict[str, dict[str, list[Timing]]], books: dict[str, int], runs: int, moves: int) -> str:
    """The Markdown block for ``bench/RESULTS.md``: one table per book."""
    lines = [
        f"## App responsiveness (`python bench/app_latency.py`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})",
        "",
        f"Debian chromium driven by Playwright; {runs} runs per book, each with a fresh `streamlit run` "
        f"server (cold caches) and {moves} slider moves per page; load average at the end "
        f"{os.getloadavg()[0]:.1f} on 2 cores. Wall: seconds from the click or key press until the browser "
        "shows the expected value (polled every animation frame). Server / browser CPU: CPU seconds the "
        "app server and chromium spent meanwhile (what the wall time would be on an idle machine, roughly). "
        "Compare's target is a ratio: its median wall time ÷ the median wall time of the CLI's `compare` "
        "on the same book (a fresh process: interpreter, read, tokenize, three policies), measured in the "
        "same runs.",
    ]
    for name, pages in books.items():
        res = results[name]
        lines += [
            "",
            f"### {name} ({pages} pages)",
            "",
            "| what the user waits for | median wall s | max wall s | server CPU s | browser CPU s | target | verdict |",
            "|---|---:|---:|---:|---:|---:|---|",
        ]
        cli = statistics.median(t[0] for t in res["compare_cli"]) if res.get("compare_cli") else None
        for key, label, target in ROWS:
            if not res.get(key):
                continue
            wall, server, browser = (list(col) for col in zip(*res[key]))
            med = statistics.median(wall)
            if target is None:
                goal, verdict = "", "(reference)"
            elif target == "compare_x":
                ratio = med / cli if cli else float("inf")
                goal = f"≤ {TARGETS[target]:.1f}× CLI"
                verdict = f"**{'met' if ratio <= TARGETS[target] else 'NOT met'}** ({ratio:.2f}×)"
            else:
                goal = f"≤ {TARGETS[target]:.0f} s"
                verdict = "**met**" if med <= TARGETS[target] else "**NOT met**"
            lines.append(
                f"| {label} | {med:.2f} | {max(wall):.2f} | {statistics.median(server):.2f} | "
                f"{statistics.median(browser):.2f} | {goal} | {verdict} |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh app servers per book (at least 3)")
    parser.add_argument("--moves", type=int, default=3, help="slider moves per page and run")
    parser.add_argument("--book", default=None, help="a sample book's file name (default: the largest)")
    parser.add_argument("--no-write", action="store_true", help="print only; leave RESULTS.md alone")
    parser.add_argument("--chapters", type=int, default=400, help="chapters of the generated book")
    args = parser.parse_args(argv)
    runs = max(3, args.runs)
    book = args.book or max((ROOT / "sample_books").glob("*.pdf"), key=lambda p: p.stat().st_size).name
    MANY_CHAPTERS.parent.mkdir(parents=True, exist_ok=True)
    many = write_many_chapters_book(MANY_CHAPTERS, chapters=args.chapters)
    books = [(ROOT / "sample_books" / book, True), (Path(many), False)]
    default = Policy().max_tokens
    expected = {
        path.name: expected_counts(path, [default - STEP * k for k in range(2 * args.moves + 1)])
        for path, _ in books
    }
    results: dict[str, dict[str, list[Timing]]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for r in range(runs):
                for path, sample in books:
                    pages, counts = expected[path.name]
                    res = results.setdefault(path.name, {})
                    for key, values in one_run(browser, path, pages, counts, args.moves, sample).items():
                        res.setdefault(key, []).extend(values)
                    print(
                        f"run {r + 1}/{runs} {path.name}: "
                        + ", ".join(
                            f"{k} {statistics.median(t[0] for t in v):.2f}s" for k, v in res.items() if v
                        ),
                        file=sys.stderr,
                    )
        finally:
            browser.close()
    block = report(results, {name: pages for name, (pages, _) in expected.items()}, runs, args.moves)
    print(block)
    if not args.no_write:
        write_results(block, MARK_START, MARK_END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
