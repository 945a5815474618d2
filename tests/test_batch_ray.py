"""``chunk DIR -o OUTDIR --engine ray`` (issue 15, item 3) on a real local Ray with 2 CPUs.

One library (the sample books, generated PDFs, a Markdown book in a subfolder and a corrupt PDF)
is chunked once by the local batch and once by the Ray engine, through the real CLI in
subprocesses; the runs are shared by every test here (and across xdist workers, under a lock),
because each Ray start costs seconds.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.dataset as pads
import pytest

from chunking.batch.ray_engine import WORKER_DIED
from chunking.errors import UnreadableInputError, UsageError
from chunking.export import read_chunks

from conftest import SAMPLES
from pdf_factory import body, make_pdf

RUN_TIMEOUT_S = 900
"""Stops a hung run; a run takes well under a minute even on two busy cores."""
RAY_CPUS = "2"
"""The local Ray's CPUs (and the local batch's workers): the CI machine's two cores."""
CONNECT_S = 5.0
"""How long a check that the cluster still listens may take."""
GENERATED_BOOKS = 3
"""Generated PDFs added to the sample books (different lengths, so the work is uneven)."""

pytestmark = pytest.mark.usefixtures("ray_machine")  # one module with a local Ray at a time


def _generated_pdf(index: int) -> bytes:
    """A small PDF with an outline: ``index + 2`` chapters of a few pages each."""
    pages, toc = [], []
    for chapter in range(index + 2):
        toc.append((1, f"Chapter {chapter + 1}: Part {chapter} of book {index}", len(pages) + 1, None))
        pages.append([(f"Chapter {chapter + 1}", 20.0), *body(30, chapter * 100, f"book {index} topic")])
        pages.extend(body(40, chapter * 100 + k * 40, f"book {index} more") for k in range(1, 3))
    return make_pdf(pages, toc=toc)


def _markdown(title: str, chapters: int) -> str:
    out = [f"# {title}\n"]
    for c in range(1, chapters + 1):
        out.append(f"\n## Chapter {c}\n\n" + " ".join(f"{title} word{(c * 13 + k) % 89}" for k in range(900)))
    return "".join(out) + "\n"


def _build_library(root: Path) -> None:
    (root / "more").mkdir(parents=True)
    for book in sorted(SAMPLES.iterdir()):
        if book.suffix in (".pdf", ".epub"):
            shutil.copy(book, root / book.name)
    for i in range(GENERATED_BOOKS):
        (root / f"generated-{i}.pdf").write_bytes(_generated_pdf(i))
    (root / "more" / "notes.md").write_text(_markdown("Notes", 3), encoding="utf-8")
    whole = (root / "generated-0.pdf").read_bytes()
    (root / "more" / "corrupt.pdf").write_bytes(whole[: len(whole) // 2])


def _cli(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "chunking", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
        env={**os.environ, **(env or {})},
    )


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def runs(tmp_path_factory, ray_machine) -> dict:
    """The library, the local batch's outputs and the Ray engine's (with ``--dataset``), built once."""
    # NOTE: this session's temp root, shared by its xdist workers only: a folder above it would
    # hand a later session the runs of an earlier one (other code, stale results).
    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "ray-batch-runs"
    shared.mkdir(exist_ok=True)
    with open(shared / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # NOTE: xdist workers wait for the first one's runs
        done = shared / "runs.json"
        if not done.exists():
            library = shared / "books"
            _build_library(library)
            local = _cli("chunk", library, "-o", shared / "local", "--workers", RAY_CPUS)
            ray = _cli(
                "chunk",
                library,
                "-o",
                shared / "ray",
                "--engine",
                "ray",
                "--workers",
                RAY_CPUS,
                "--dataset",
                shared / "dataset",
            )
            done.write_text(
                json.dumps({"local": [local.returncode, local.stderr], "ray": [ray.returncode, ray.stderr]})
            )
    result = json.loads(done.read_text())
    return {"root": shared, **{k: {"code": v[0], "stderr": v[1]} for k, v in result.items()}}


def test_ray_outputs_are_byte_identical_to_the_local_batch(runs):
    local, ray = _files(runs["root"] / "local"), _files(runs["root"] / "ray")
    books = [p for p in _files(runs["root"] / "books") if not p.startswith("more/corrupt")]
    assert len(books) >= 8
    assert (
        sorted(ray)
        == sorted(local)
        == sorted([b + ".jsonl" for b in books] + [b + ".jsonl.manifest.json" for b in books])
    )
    assert ray == local


def test_a_corrupt_book_is_reported_like_the_local_batch_and_the_rest_succeed(runs):
    def failures(stderr: str) -> list[str]:
        return [line for line in stderr.splitlines() if line.startswith("chunking: failed:")]

    assert failures(runs["ray"]["stderr"]) == failures(runs["local"]["stderr"])
    assert [line.split(": ")[2] for line in failures(runs["ray"]["stderr"])] == ["more/corrupt.pdf"]
    # NOTE: the batch's rule: the failed books' shared exit code (3, unreadable), else 1.
    assert runs["ray"]["code"] == runs["local"]["code"] == UnreadableInputError.exit_code
    assert "Traceback" not in runs["ray"]["stderr"]
    n_books = len(list((runs["root"] / "books").rglob("*.*"))) - 1
    assert f"{n_books} written, 0 skipped (already done), 1 failed" in runs["ray"]["stderr"]


def test_a_rerun_skips_every_finished_book(runs):
    out = runs["root"] / "ray"
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    again = _cli("chunk", runs["root"] / "books", "-o", out, "--engine", "ray", "--workers", RAY_CPUS)
    n_done = len(before) // 2
    assert f"0 written, {n_done} skipped (already done), 1 failed" in again.stderr, again.stderr
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()} == before
    assert again.returncode == UnreadableInputError.exit_code


def test_dataset_is_partitioned_by_book_and_its_rows_equal_the_per_book_files(runs):
    table = pads.dataset(runs["root"] / "dataset", format="parquet", partitioning="hive").to_table()
    rows: dict[str, list[dict]] = {}
    for row in table.to_pylist():
        rows.setdefault(row.pop("book"), []).append(row)
    out = runs["root"] / "ray"
    expected = {
        str(f.relative_to(out))[: -len(".jsonl")]: [c.to_dict() for c in read_chunks(f)[0]]
        for f in sorted(out.rglob("*.jsonl"))
    }
    assert sorted(rows) == sorted(expected) and "more/notes.md" in rows
    for book, chunks in expected.items():
        assert sorted(rows[book], key=lambda r: r["order"]) == chunks


def test_an_unreachable_ray_address_is_one_line_and_exit_2(runs, tmp_path):
    for env, args in (({}, ["--ray-address", "127.0.0.1:1"]), ({"RAY_ADDRESS": "127.0.0.1:1"}, [])):
        r = _cli("chunk", runs["root"] / "books", "-o", tmp_path / "out", "--engine", "ray", *args, env=env)
        assert r.returncode == UsageError.exit_code, r.stderr
        assert r.stderr.splitlines() == [r.stderr.strip()] and "127.0.0.1:1" in r.stderr, r.stderr
        assert not (tmp_path / "out").exists()


def test_without_ray_engine_ray_is_one_line_exit_2_and_the_local_engine_never_imports_ray(tmp_path):
    books = tmp_path / "books"
    books.mkdir()
    (books / "a.md").write_text(_markdown("Alpha", 2), encoding="utf-8")
    script = (
        "import sys\n"
        "if sys.argv[1] == 'hide': sys.modules['ray'] = None  # as if ray were not installed\n"
        "from chunking.cli import main\n"
        "code = main(sys.argv[2:])\n"
        "print('ray' in sys.modules and sys.modules['ray'] is not None)\n"
        "sys.exit(code)\n"
    )

    def run(mode: str, *args: str | Path) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-c", script, mode, "chunk", *map(str, args)],
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT_S,
        )

    hidden = run("hide", books, "-o", tmp_path / "out", "--engine", "ray")
    assert hidden.returncode == UsageError.exit_code
    assert hidden.stderr.splitlines() == [hidden.stderr.strip()] and "ray==" in hidden.stderr
    local = run("keep", books, "-o", tmp_path / "out", "--workers", "1")
    assert local.returncode == 0, local.stderr
    assert local.stdout.strip() == "False"
    assert (tmp_path / "out" / "a.md.jsonl").is_file()


def _ray_workers(root: int) -> list[int]:
    """The chunking actors' processes under ``root`` (Ray titles them after the actor class)."""
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        for task in Path(f"/proc/{pid}/task").glob("*"):
            try:
                todo += [int(k) for k in (task / "children").read_text().split()]
            except OSError:
                continue
        try:
            if Path(f"/proc/{pid}/comm").read_text().startswith("ray::BookChunk"):
                found.append(pid)
        except OSError:
            continue
    return found


def test_a_killed_ray_worker_fails_only_its_book_and_a_fresh_one_takes_the_rest(tmp_path):
    from test_batch import _markdown_book
    from test_hostile_batch import _bytes_read

    books, out = tmp_path / "books", tmp_path / "out"
    books.mkdir()
    large = _markdown_book("Large", 100, 600)  # several seconds of work: handed out first
    (books / "a-large.md").write_text(large, encoding="utf-8")
    small = [f"small{k:02d}.md" for k in range(12)]
    for k, name in enumerate(small):
        (books / name).write_text(_markdown_book(f"Small{k}", 30, 100), encoding="utf-8")
    cmd = [sys.executable, "-m", "chunking", "chunk", str(books), "-o", str(out), "--engine", "ray"]
    batch = subprocess.Popen([*cmd, "--workers", RAY_CPUS], stderr=subprocess.PIPE, text=True)
    try:
        victim, deadline = None, time.monotonic() + RUN_TIMEOUT_S
        while victim is None and time.monotonic() < deadline and batch.poll() is None:
            read = {pid: _bytes_read(pid) for pid in _ray_workers(batch.pid)}
            done = list(out.glob("small*.manifest.json")) if out.is_dir() else []
            # NOTE: the large book's worker has read it whole, the other only small books; a small
            # book written means both are at work.
            if done and len(read) == 2 and max(read.values()) - min(read.values()) > len(large) // 2:
                victim = max(read, key=read.__getitem__)
            time.sleep(0.05)
        assert victim is not None, "the large book's worker was never seen"
        assert len(list(out.glob("small*.manifest.json"))) < len(small), "too late: test is void"
        os.kill(victim, signal.SIGKILL)
        _, err = batch.communicate(timeout=RUN_TIMEOUT_S)
    finally:
        if batch.poll() is None:
            batch.kill()
            batch.wait()
    failures = [line for line in err.splitlines() if line.startswith("chunking: failed:")]
    assert failures == [f"chunking: failed: a-large.md: {WORKER_DIED}"], err
    assert f"{len(small)} written, 0 skipped (already done), 1 failed" in err
    assert batch.returncode == 1 and "Traceback" not in err
    assert not (out / "a-large.md.jsonl.manifest.json").exists()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_an_existing_cluster_runs_the_same_batch_and_is_left_running(runs):
    port = _free_port()
    ray_cli = Path(sys.executable).with_name("ray")
    head = subprocess.Popen(
        [
            str(ray_cli),
            "start",
            "--head",
            "--block",
            "--port",
            str(port),
            "--num-cpus",
            RAY_CPUS,
            "--include-dashboard",
            "false",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        out = runs["root"] / "cluster"  # NOTE: beside "local": manifests hold relative paths
        env = {"RAY_AUTH_MODE": "token"}
        address = f"127.0.0.1:{port}"
        deadline = time.monotonic() + RUN_TIMEOUT_S
        while time.monotonic() < deadline:  # NOTE: the head is up when its GCS port accepts
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        # A driver without RAY_AUTH_MODE sends no token: refused in one line that says what to set.
        plain = {k: v for k, v in os.environ.items() if k != "RAY_AUTH_MODE"}
        refused = subprocess.run(
            [sys.executable, "-m", "chunking", "chunk", str(runs["root"] / "books"), "-o", str(out)]
            + ["--engine", "ray", "--ray-address", address],
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT_S,
            env=plain,
        )
        assert refused.returncode == UsageError.exit_code, refused.stderr
        assert refused.stderr.splitlines() == [refused.stderr.strip()], refused.stderr
        assert "RAY_AUTH_MODE=token" in refused.stderr and not out.exists()
        run = _cli(
            "chunk", runs["root"] / "books", "-o", out, "--engine", "ray", "--ray-address", address, env=env
        )
        assert run.returncode == UnreadableInputError.exit_code, run.stderr  # the corrupt book
        assert _files(out) == _files(runs["root"] / "local")
        assert head.poll() is None  # the driver disconnected; the cluster is still there
        socket.create_connection(("127.0.0.1", port), timeout=CONNECT_S).close()
    finally:
        head.terminate()  # NOTE: `ray start --block` stops the processes it started on SIGTERM
        head.wait(timeout=RUN_TIMEOUT_S)


LOCAL_SESSION = """
import json, os, time
from pathlib import Path
import ray
from chunking.batch import ray_engine
with ray_engine._ray_session(ray, None, 1):
    answer = ray.get(ray.remote(num_cpus=1)(lambda: 42).remote())
    pids, todo = [], [os.getpid()]
    while todo:
        pid = todo.pop()
        pids.append(pid)
        for task in Path(f"/proc/{pid}/task").glob("*"):
            try:
                todo += [int(k) for k in (task / "children").read_text().split()]
            except OSError:
                pass
    auth = os.environ.get("RAY_AUTH_MODE")
    cpus = ray.cluster_resources().get("CPU")
others = [pid for pid in pids if pid != os.getpid()]
deadline = time.monotonic() + 30
while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in others):
    time.sleep(0.2)
left = [pid for pid in others if Path(f"/proc/{pid}").exists()]
print(json.dumps({"answer": answer, "started": len(others), "left": left, "auth": auth, "cpus": cpus}))
"""
"""Starts a local Ray as the engine does for a run, runs one task on it, ends the session and
reports which of the session's processes are still there."""


@pytest.fixture(scope="module")
def local_session(ray_machine) -> dict:
    """What a local Ray started for a run did (one real start, shared here)."""
    env = {k: v for k, v in os.environ.items() if k not in ("RAY_AUTH_MODE", "RAY_ADDRESS")}
    done = subprocess.run(
        [sys.executable, "-c", LOCAL_SESSION], capture_output=True, text=True, timeout=RUN_TIMEOUT_S, env=env
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_local_ray_for_the_run_has_the_asked_cpus_and_is_gone_after_the_run(local_session):
    assert local_session["answer"] == 42 and local_session["cpus"] == 1
    assert local_session["started"] > 0 and local_session["left"] == []


def test_a_local_ray_for_the_run_keeps_token_auth(local_session):
    assert local_session["auth"] == "token"  # NOTE: ray.init's own default for a Ray it starts
