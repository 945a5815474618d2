"""PDF page text read in a child process that the reader bounds, page by page (issue 26).

Why a child: MuPDF reads a page's text in one C call that holds the GIL. A page that draws a
fan-out of form XObjects (each drawing the one below it ten times, ten levels deep) keeps that
call busy for hours and its memory growing; no Python thread or signal handler of the same process
runs meanwhile (SIGTERM waited for the page), and no deadline can be checked. So every page's text
is read in a worker process (``chunking.workerpool.Worker``: started from the fork server,
never a fork of the caller, which has MuPDF documents open) and the caller waits for each page on
the worker's pipe (``multiprocessing.connection.wait``: poll, no sleeping), at most
``PAGE_TIMEOUT_S``:

- The text is ``pdfpages.page_content``'s, computed the same way, byte for byte; only where it
  runs changed. The file goes to the worker through its pipe (no temp file), which opens it once
  and answers one page per request, ``IN_FLIGHT`` requests ahead so it never idles. A worker that read
  a book to its end is kept for the process's next PDF (``IDLE_KEPT``): the fork server starts
  once per process (the first PDF it reads, under a second), a worker's start and first page
  cost about 15 ms, a kept worker's next book about 1 ms more than reading in-process. Figures:
  bench/RESULTS.md, *Page limits*.
- **Time**: a page that has not come back ``PAGE_TIMEOUT_S`` after the one before (or the open)
  is stopped: the worker is killed (SIGKILL: it starts no process of its own) and reaped, and a new
  worker goes on from the next page. One bad page costs one deadline and itself only.
- **Memory**: the worker limits its own address space (``RLIMIT_AS``, Linux) to its size before
  its first file plus ``MEMORY_LIMIT_MB`` plus twice the file's size (its bytes, MuPDF's copy). A page
  that needs more makes MuPDF's allocation fail; MuPDF raises, the page is reported stopped, and
  the worker is replaced (a fresh heap for the next page).
- A worker that dies by itself (a crash, the system's out-of-memory killer) has its page tried
  once more in a new one, then the page is stopped.
- **At most ``MAX_STOPPED_PAGES`` stopped pages per book**: then the rest of the book is not
  read (its pages are lost too). Without it a book of 200 bad pages would take 200 deadlines
  (100 minutes at the default); with it a read takes at most ``MAX_STOPPED_PAGES`` deadlines
  more than its good pages do. Later good pages are lost with them: a book with that many
  pathological pages is hostile, and every lost page is named.
- A page whose reading raises anything else (a broken content stream MuPDF gives up on) refuses
  the book as corrupt, as reading it in-process always did (``PageError``).
- Every stopped or unread page comes back in ``Extracted.lost`` with why; the reader marks its
  ``RawPage.lost`` and names it in one warning (``Extracted.warning``). Such a page is never a
  page "without a text layer": OCR would render it and hang the same way, so OCR and the layout
  (the structure engine's font probe) leave it alone.
- **Lifetime**: the worker dies with its caller, ``kill -9`` included, even in the middle of a
  page: its lifeline pipe is armed so that the kernel sends it SIGIO when the caller's end closes
  (``workerpool``; a thread could not act while MuPDF holds the GIL, and ``PR_SET_PDEATHSIG``
  would watch the fork server, which outlives the caller while a worker lives). An interrupted
  read (Ctrl-C, SIGTERM: the CLI's handler raises) kills the worker before the error goes on.

The limits: ``PageLimits`` (a parameter of ``read_pdf``), by default from the environment:
``BOOK_CHUNK_INSPECTOR_PDF_PAGE_TIMEOUT_S`` (seconds per page) and
``BOOK_CHUNK_INSPECTOR_PDF_MEMORY_MB`` (megabytes of address space).
"""

from __future__ import annotations

import os
import threading
import weakref
from pathlib import Path
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from typing import Any, NoReturn

import pymupdf

from ..workerpool import TaskRaised, Worker, WorkerDied, start_worker, worker_context
from ..errors import PageRefused, UnreadableInputError, one_line, positive_from_env
from .pdfpages import page_blocks, page_content, page_image, page_lines, page_picture, page_words
from .raw import pages_named

PAGE_TIMEOUT_S = 30.0
"""Longest a page's text may take by default (the sample books read 400-1,200 pages a second
here; the worst real page seen took under a second)."""

TIMEOUT_ENV = "BOOK_CHUNK_INSPECTOR_PDF_PAGE_TIMEOUT_S"
"""Environment variable overriding ``PAGE_TIMEOUT_S`` (seconds)."""

MEMORY_LIMIT_MB = 2048.0
"""Address space a page reader may add by default, beyond the file and what it started with."""

MEMORY_ENV = "BOOK_CHUNK_INSPECTOR_PDF_MEMORY_MB"
"""Environment variable overriding ``MEMORY_LIMIT_MB`` (megabytes)."""

MAX_STOPPED_PAGES = 5
"""Stopped pages after which the rest of a book is not read (module docstring)."""

IN_FLIGHT = 8
"""Page requests sent ahead, so the worker starts the next page while this process takes one."""

IDLE_KEPT = 1
"""Workers a process keeps once they have read a book to its end, for its next PDFs (about 50 MB
each): a worker's start, its first file and its first page cost about 15 ms more than the next
one's (bench/RESULTS.md, *Page limits*), and a process that reads many PDFs (the app, a batch
worker, the tests) pays them once."""

PRELOAD = ("chunking.readers.pdfchild",)
"""What the fork server imports once for every page reader (PyMuPDF and the page writer)."""

_OPEN, _END, _STATE = -1, -2, -3
"""Task numbers of the requests that are not a page (pages are numbered from 0)."""

_MEMORY_WORDS = ("malloc", "calloc", "realloc", "out of memory", "memoryerror")


@dataclass(frozen=True)
class PageLimits:
    """What one page may cost: ``timeout_s`` seconds, ``memory_mb`` megabytes of address space;
    ``max_stopped`` stopped pages end a book's reading."""

    timeout_s: float = PAGE_TIMEOUT_S
    memory_mb: float = MEMORY_LIMIT_MB
    max_stopped: int = MAX_STOPPED_PAGES

    @classmethod
    def from_env(cls) -> PageLimits:
        """The defaults, or ``$BOOK_CHUNK_INSPECTOR_PDF_PAGE_TIMEOUT_S`` and
        ``$BOOK_CHUNK_INSPECTOR_PDF_MEMORY_MB`` where set.

        Raises:
            UsageError: a variable that is set is not a positive number (one line naming it).
        """
        return cls(
            positive_from_env(TIMEOUT_ENV, PAGE_TIMEOUT_S),
            positive_from_env(MEMORY_ENV, MEMORY_LIMIT_MB, "megabytes"),
        )


@dataclass
class Extracted:
    """A book's pages as read: ``(text, has_text_layer)`` per page (``("", True)`` for a lost
    one); ``lost``: 0-based page → why its text is missing; ``skipped``: the first page not read
    after ``max_stopped`` stops (None: every page was tried); MuPDF's messages and whether it
    repaired the file while reading pages."""

    pages: list[tuple[str, bool]]
    lost: dict[int, str] = field(default_factory=dict)
    skipped: int | None = None
    messages: list[str] = field(default_factory=list)
    repaired: bool = False
    document: BoundedPdf | None = None
    """The file, still open in the reader that read its last page, for the questions asked of
    its pages after their text (``BoundedPdf``); the caller closes it."""

    def warning(self, limits: PageLimits) -> str | None:
        """One line naming every lost page and why; None when none was lost."""
        stopped = sorted((i, why) for i, why in self.lost.items() if self.skipped is None or i < self.skipped)
        if not stopped and self.skipped is None:
            return None
        if len(stopped) == 1:
            index, why = stopped[0]
            line = f"page {index + 1}: text extraction {why}; its text is missing"
        else:
            by_why: dict[str, list[str]] = {}
            for index, why in stopped:
                by_why.setdefault(why.removeprefix("stopped").lstrip(": "), []).append(str(index + 1))
            listed = "; ".join(f"{why}: {pages_named(numbers)}" for why, numbers in by_why.items())
            line = f"text extraction was stopped on {len(stopped)} pages ({listed}); their text is missing"
        if self.skipped is not None:
            last = len(self.pages)
            line += (
                f"; pages {self.skipped + 1}-{last} were not read ({limits.max_stopped} stopped pages end a book's"
                " reading): their text is missing too"
            )
        return line + f" (limits: {TIMEOUT_ENV}, {MEMORY_ENV})"


class PageError(Exception):
    """Reading a page raised (not for lack of memory): the book is corrupt."""


def extract_pages(data: bytes, page_count: int, name: str, limits: PageLimits | None = None) -> Extracted:
    """Every page's text and text-layer flag, read in bounded worker processes (module docstring).

    Raises:
        PageError: a page's reading raised; the message says what.
        UnreadableInputError: no worker process could be started.
    """
    limits = limits or PageLimits.from_env()
    out = Extracted([("", True)] * page_count)
    context = worker_context(PRELOAD)
    retried: set[int] = set()
    index = 0
    kept: Worker | None = None
    while index < page_count:
        if len(out.lost) >= limits.max_stopped:
            out.skipped = index
            out.lost.update((i, "not read") for i in range(index, page_count))
            break
        worker = _take(context)
        if isinstance(worker, str):
            raise UnreadableInputError(f"{name}: cannot read its pages: {worker}")
        reading = _Reading(worker, limits, out)
        try:
            index = reading.run(data, index, retried)
        finally:
            if reading.open:
                kept = worker
            else:
                _retire(worker)
    out.document = BoundedPdf(data, limits, kept)
    return out


_idle: list[Worker] = []
"""Workers that read a book to its end, kept for the next read (at most ``IDLE_KEPT``)."""

_idle_owner = os.getpid()
_idle_lock = threading.Lock()


_prestart: threading.Thread | None = None

_open_readers: weakref.WeakSet[BoundedPdf] = weakref.WeakSet()
"""Every ``BoundedPdf`` alive, for ``readers_cpu_s``."""


def prestart() -> None:
    """Start this process's first page reader in the background, once: for a command about to
    read a PDF, so that the fork server's start (a fresh interpreter importing PyMuPDF, about
    0.3 s) runs beside the command's own imports instead of before the first page."""
    global _prestart
    with _idle_lock:
        if _idle or _prestart is not None:
            return
        _prestart = threading.Thread(target=_start_idle, name="pdf-page-reader", daemon=True)
        _prestart.start()


_retired_cpu_s = 0.0
"""CPU seconds of the page readers this process has ended (``_retire``)."""
_retired_lock = threading.Lock()


def _retire(worker: Worker) -> None:
    """End a page reader, adding the CPU it used to ``_retired_cpu_s`` first."""
    global _retired_cpu_s
    used = _cpu_s(worker.process.pid) if worker.process.pid is not None else 0.0
    with _retired_lock:
        _retired_cpu_s += used
    worker.kill()


def readers_cpu_s() -> float:
    """CPU seconds the page readers of this process have used so far: those it keeps (idle, or
    holding an open book's file) and those it ended (Linux ``/proc``; 0 for a reader it cannot
    read). The benches add it to
    their own clock: the pages are read there, where ``time.process_time`` does not see."""
    with _retired_lock:
        total = _retired_cpu_s
    with _idle_lock:
        pids = [worker.process.pid for worker in _idle]
        pids += [worker.process.pid for reader in list(_open_readers) for worker in list(reader._held)]
    for pid in pids:
        total += _cpu_s(pid)
    return total


def _cpu_s(pid: int) -> float:
    """CPU seconds of process ``pid``: the scheduler's count (nanoseconds) where the kernel keeps
    one, else user plus system time in clock ticks (a hundredth of a second); 0 when unreadable."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9
    except (OSError, IndexError, ValueError):
        pass
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def _start_idle() -> None:
    worker = start_worker(worker_context(PRELOAD), work)
    if not isinstance(worker, str):  # NOTE: else the read starts one itself, and says why it cannot
        _give_back(worker)


def _take(context: Any) -> Worker | str:
    """An idle worker of this process that is still alive (the one ``prestart`` is starting,
    once it is up), or a new one (``start_worker``)."""
    global _idle_owner
    if _prestart is not None:
        _prestart.join()
    with _idle_lock:
        if _idle_owner != os.getpid():  # NOTE: a fork of the process that kept them: not ours
            _idle.clear()
            _idle_owner = os.getpid()
        while _idle:
            worker = _idle.pop()
            if worker.process.is_alive():
                return worker
            worker.kill()  # NOTE: dead already: its CPU can no longer be read
    return start_worker(context, work)


def _give_back(worker: Worker) -> None:
    """Keep ``worker`` for the next read, or end it when ``IDLE_KEPT`` are kept already."""
    with _idle_lock:
        if len(_idle) < IDLE_KEPT and _idle_owner == os.getpid():
            _idle.append(worker)
            return
    _retire(worker)


class _Reading:
    """One worker's share of a book: from a page on, until the book ends or a page is stopped."""

    def __init__(self, worker: Worker, limits: PageLimits, out: Extracted) -> None:
        self.worker, self.limits, self.out = worker, limits, out
        self.open = False
        """The worker read the book to its end and holds it open (``BoundedPdf``)."""

    def run(self, data: bytes, start: int, retried: set[int]) -> int:
        """Read pages from ``start``; return the page to go on from (the page count: done)."""
        count = len(self.out.pages)
        sent = start
        if not self._send(_OPEN, ("open", (data, int(self.limits.memory_mb * 2**20)))):
            return self._died(start, retried)
        while sent < min(count, start + IN_FLIGHT):
            self._send(sent, ("page", sent))
            sent += 1
        index = start
        while True:
            if not wait([self.worker.conn], self.limits.timeout_s):
                self.out.lost[index] = f"stopped after {self.limits.timeout_s:g} s"
                return index + 1
            try:
                task, result = self.worker.conn.recv()
            except (EOFError, OSError):
                return self._died(index, retried)
            if isinstance(result, TaskRaised):
                result = _Failed(result.message)
            if isinstance(result, _Failed):
                if not result.memory:
                    raise PageError(result.message)
                self.out.lost[index] = f"stopped at the memory limit ({self.limits.memory_mb:g} MB)"
                return index + 1
            if task == _STATE:
                self.out.messages.append(result[0])
                self.out.repaired |= result[1]
                self.open = True
                return count
            if task == _OPEN:
                continue
            self.out.pages[task] = result
            index = task + 1
            if sent < count:
                self._send(sent, ("page", sent))
                sent += 1
            elif index == count:
                self._send(_STATE, ("state", None))

    def _send(self, task: int, args: tuple) -> bool:
        try:
            self.worker.conn.send((task, args))
            return True
        except (OSError, ValueError):  # NOTE: it died already; EOF on its pipe tells
            return False

    def _died(self, index: int, retried: set[int]) -> int:
        """The worker died on page ``index``: try the page once more in a new one, then stop it."""
        if index >= len(self.out.pages):
            return index
        if index not in retried:
            retried.add(index)
            return index
        self.worker.process.join(1.0)
        self.out.lost[index] = f"stopped: {WorkerDied(self.worker.process.exitcode).describe()}"
        return index + 1


@dataclass(frozen=True)
class _Failed:
    """A page's reading raised in the worker: ``message``, and whether for lack of memory."""

    message: str

    @property
    def memory(self) -> bool:
        return any(word in self.message.casefold() for word in _MEMORY_WORDS)


class BoundedPdf:
    """A PDF open in a page reader, for the questions asked of its pages after their text: a
    page's lines with their fonts (the structure engine's font probe), its text blocks, its
    image (OCR), its words and its picture (the app's page view). Each answer is bounded as a page's text is (``PageLimits``), because each
    interprets the page's content again, and a page whose text came back in time may still draw
    for hours (an image drawn a hundred thousand times costs the text nothing and the renderer
    all of it). A question that runs out of time or memory, or whose reader dies, is stopped: the
    reader is killed, the page is recorded in ``stopped`` and refused from then on, and the next
    question opens the file in a new reader. After ``max_stopped`` stops every question is
    refused.

    The reader that read the book's text answers first (``extract_pages`` keeps it with the file
    open): its fonts are loaded already. ``close`` gives it back for the next book (or ends it);
    a BoundedPdf dropped unclosed ends its reader when it is collected.

    Args:
        data (bytes): the file.
        limits (PageLimits): time and memory per question.
        worker (Worker | None): a reader that holds ``data`` open, or None (one is started on
            the first question).
    """

    def __init__(self, data: bytes, limits: PageLimits, worker: Worker | None = None) -> None:
        self._data, self._limits = data, limits
        self._held: list[Worker] = [worker] if worker is not None else []
        self._release = weakref.finalize(self, _kill_all, self._held)
        self._lock = threading.Lock()
        self._task = 0
        self.stopped: dict[int, tuple[str, str]] = {}
        """0-based page → (the question, why it was stopped)."""
        with _idle_lock:
            _open_readers.add(self)

    def ask(self, question: str, index: int, arg: Any = None) -> Any:
        """The answer to ``question`` (one of ``_ASKED``) about page ``index``.

        Raises:
            PageRefused: the question was stopped now or before (``stopped``), too many were,
                no reader could be started, or MuPDF could not answer it.
        """
        with self._lock:
            if index in self.stopped:
                raise PageRefused(self.stopped[index][1])
            if len(self.stopped) >= self._limits.max_stopped:
                raise PageRefused(f"not read ({self._limits.max_stopped} stopped pages end a book's reading)")
            worker = self._reader(question, index)
            result = self._answer(worker, question, index, (question, (index, arg)))
            if isinstance(result, TaskRaised):
                result = _Failed(result.message)
            if isinstance(result, _Failed):
                if result.memory:
                    self._stop(
                        question, index, f"stopped at the memory limit ({self._limits.memory_mb:g} MB)"
                    )
                raise PageRefused(result.message)
            return result

    def _reader(self, question: str, index: int) -> Worker:
        """The reader holding the file open, started and opened here when there is none."""
        if self._held:
            return self._held[0]
        worker = _take(worker_context(PRELOAD))
        if isinstance(worker, str):
            raise PageRefused(worker)
        self._held.append(worker)
        result = self._answer(
            worker, question, index, ("open", (self._data, int(self._limits.memory_mb * 2**20)))
        )
        if isinstance(result, TaskRaised | _Failed):
            self._stop(question, index, f"cannot open the file again: {result.message}")
        return worker

    def _answer(self, worker: Worker, question: str, index: int, request: tuple) -> Any:
        """Send ``request`` and wait for its answer, at most the deadline (else stop the page)."""
        self._task += 1
        try:
            worker.conn.send((self._task, request))
        except (OSError, ValueError):
            pass  # NOTE: it died already; EOF on its pipe tells
        while True:
            if not wait([worker.conn], self._limits.timeout_s):
                self._stop(question, index, f"stopped after {self._limits.timeout_s:g} s")
            try:
                task, result = worker.conn.recv()
            except (EOFError, OSError):
                worker.process.join(1.0)
                self._stop(question, index, f"stopped: {WorkerDied(worker.process.exitcode).describe()}")
            if task == self._task:
                return result

    def _stop(self, question: str, index: int, why: str) -> NoReturn:
        _kill_all(self._held)
        self.stopped[index] = (question, why)
        raise PageRefused(why)

    def close(self) -> None:
        """Close the file; give its reader back for the next book when it is fit for one."""
        with self._lock:
            self._release.detach()
            if not self._held:
                return
            worker = self._held.pop()
            self._task += 1
            try:
                worker.conn.send((self._task, ("end", None)))
                if wait([worker.conn], self._limits.timeout_s):
                    task, result = worker.conn.recv()
                    if task == self._task and isinstance(result, tuple) and result[2]:
                        _give_back(worker)
                        return
            except (EOFError, OSError, ValueError):
                pass
            _retire(worker)


def _kill_all(held: list[Worker]) -> None:
    while held:
        _retire(held.pop())


_doc: Any = None
"""The worker's open document (one at a time)."""

_fresh: int | None = None
"""The worker's address space before its first file (bytes; None: not known, not Linux)."""

_budget = 0


_ASKED = {
    "lines": lambda page, arg: page_lines(page, arg),
    "blocks": lambda page, arg: page_blocks(page),
    "image": lambda page, arg: page_image(page, arg),
    "words": lambda page, arg: page_words(page),
    "picture": lambda page, arg: page_picture(page, arg),
}
"""The questions ``BoundedPdf`` asks of one page (``arg``: the top share, none, the dpi, none,
the zoom); ``chunking.readers.pdfpages`` answers each."""


def work(op: str, arg: Any) -> Any:
    """The worker's side (``workerpool``'s task function): ``open`` the file (``arg``: the bytes
    and the memory budget), read ``page`` ``arg``, answer one of ``_ASKED`` (``arg``: the page
    and the question's own argument), ``state``: MuPDF's messages and whether it repaired the
    file, or ``end``: close the file; the same, and whether the worker is fit for another (its
    address space has not grown by half its budget)."""
    global _doc, _budget
    if op == "open":
        data, _budget = arg
        _limit_memory(len(data), _budget)
        pymupdf.TOOLS.mupdf_warnings(reset=True)
        _doc = pymupdf.open(stream=data, filetype="pdf")
        return _doc.page_count
    if op == "page" or op in _ASKED:
        try:
            if op == "page":
                return page_content(_doc[arg])
            index, own = arg
            return _ASKED[op](_doc[index], own)
        except Exception as exc:  # noqa: BLE001 - MuPDF's own error classes: reported, never raised
            return _Failed(f"{type(exc).__name__}: {one_line(exc)}"[:300])
    if op == "state":
        return pymupdf.TOOLS.mupdf_warnings(reset=True), bool(_doc.is_repaired)
    repaired = bool(_doc.is_repaired)
    _doc.close()
    _doc = None
    size = _address_space()
    fit = _fresh is not None and size is not None and size - _fresh < _budget // 2
    return pymupdf.TOOLS.mupdf_warnings(reset=True), repaired, fit


def _limit_memory(file_size: int, budget: int) -> None:
    """Limit this process's address space to what it had before its first file, plus the file
    twice (its bytes and MuPDF's copy) and ``budget`` bytes (Linux; elsewhere no limit is set).

    NOTE: measured from the first file on, not from now: a worker that reads several books has
    the same limit for each (one whose heap grew too much is not kept, ``work``'s ``end``).
    """
    global _fresh
    size = _address_space()
    if size is None:
        return
    if _fresh is None:
        _fresh = size - file_size  # NOTE: the file's bytes have just arrived
    try:
        import resource

        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = _fresh + 2 * file_size + budget
        resource.setrlimit(
            resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(hard, limit), hard)
        )
    except (ImportError, OSError, ValueError):
        pass


def _address_space() -> int | None:
    """This process's address space in bytes (``/proc``, Linux), None elsewhere."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return None
