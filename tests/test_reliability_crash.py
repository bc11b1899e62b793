"""Crash safety: `daoyan scan` killed with SIGKILL at a random moment, then run again, leaves the
store an uninterrupted scan leaves; and the store can be read (and reported on) while a scan in
another process is writing it.

The scans run as real subprocesses against a demo forum in this process with a little latency,
so the kill lands anywhere: between requests, inside a page's transaction, during a WAL write.
"""
from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from daoyan.demo import DemoForum

from .reliability_support import NOW, fast_game

ROOT = Path(__file__).resolve().parents[1]
LATENCY = 0.03

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


def daoyan(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "daoyan.cli", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"})


def run(*args: str) -> subprocess.CompletedProcess:
    p = daoyan(*args)
    out, err = p.communicate(timeout=120)
    return subprocess.CompletedProcess(p.args, p.returncode, out.decode(), err.decode())


def director_view(db: Path, *, recover: bool = False) -> dict[str, list[tuple]]:
    """What a director reads from the store: the posts and every revision of their words.

    A scan killed between opening the file (WAL mode writes its header) and committing the schema
    leaves a valid SQLite file with no tables at all; the schema is one transaction, so never some.
    Killed inside the very first write (a new file's header goes through a rollback journal), it
    leaves a hot journal that only a read-write open rolls back: `recover` opens it like that,
    as the next daoyan run (or any SQLite client but a read-only one) does."""
    con = None
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        con.execute("select count(*) from sqlite_master").fetchone()
    except sqlite3.OperationalError:
        if con is not None:
            con.close()
        if not recover:
            raise
        con = sqlite3.connect(db)
    try:
        assert con.execute("pragma integrity_check").fetchone() == ("ok",)
        tables = {r[0] for r in con.execute("select name from sqlite_master where type='table'")}
        if not tables:
            return {"posts": [], "revisions": []}
        return {
            "posts": con.execute("select pid, tid, floor, author, text, posted_at, hidden, gone_at is null "
                                 "from posts order by pid").fetchall(),
            "revisions": con.execute("select pid, rev, text, hidden from revisions order by pid, rev").fetchall(),
        }
    finally:
        con.close()


@pytest.fixture(scope="module")
def forum():
    with DemoForum(now=NOW, latency=LATENCY) as f:
        yield f


@pytest.fixture(scope="module")
def reference(forum, tmp_path_factory) -> tuple[dict, float]:
    """An uninterrupted scan, and how long it took."""
    folder = tmp_path_factory.mktemp("uninterrupted")
    game = fast_game(folder, forum.base_url)
    t0 = time.monotonic()
    r = run("scan", str(game), "-q")
    took = time.monotonic() - t0
    assert r.returncode == 0, r.stderr
    return director_view(folder / "game.sqlite"), took


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_killed_scan_then_rerun_gives_the_same_store(forum, reference, tmp_path: Path, seed: int) -> None:
    want, took = reference
    game = fast_game(tmp_path, forum.base_url)
    rng = random.Random(seed)
    delay = rng.uniform(0.3, max(0.6, took * 0.95))  # interpreter start-up included: early kills happen too
    p = daoyan("scan", str(game), "-q")
    time.sleep(delay)
    killed = p.poll() is None
    p.send_signal(signal.SIGKILL)
    p.communicate(timeout=30)
    db = tmp_path / "game.sqlite"
    if db.exists():
        director_view(db, recover=True)  # the half-written store is a valid SQLite file with whole pages
    r = run("scan", str(game), "-q")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    got = director_view(db)
    assert got == want, f"kill after {delay:.2f}s (still running: {killed}): {_differences(got, want)}"


def _differences(got: dict[str, list[tuple]], want: dict[str, list[tuple]]) -> str:
    """The first rows that differ, table by table: what a failure needs to be understood."""
    out = []
    for table in want:
        extra = sorted(set(got.get(table, [])) - set(want[table]))[:3]
        missing = sorted(set(want[table]) - set(got.get(table, [])))[:3]
        if extra or missing:
            out.append(f"{table}: {len(got.get(table, []))} rows, want {len(want[table])}; "
                       f"extra {extra}; missing {missing}")
    return "; ".join(out) or "same rows, another order"


def test_killed_twice_including_a_rescan(forum, reference, tmp_path: Path) -> None:
    """Killed in the first scan and again in the next one; the third run completes the store."""
    want, took = reference
    game = fast_game(tmp_path, forum.base_url)
    for delay in (took * 0.6, took * 0.35):
        p = daoyan("scan", str(game), "-q")
        time.sleep(delay)
        p.send_signal(signal.SIGKILL)
        p.communicate(timeout=30)
    r = run("scan", str(game), "-q")
    assert r.returncode == 0, r.stderr
    assert director_view(tmp_path / "game.sqlite") == want


def test_store_is_readable_while_a_scan_writes(forum, tmp_path: Path) -> None:
    """A reader never waits on the writer and never sees half a page: every page row it sees has
    all its posts (they were written in one transaction). A report run mid-scan succeeds."""
    game = fast_game(tmp_path, forum.base_url)
    db = tmp_path / "game.sqlite"
    run("scan", str(game), "-q")  # a first scan, so the re-scan below finds a store with days to report
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    writer = daoyan("scan", str(game), "-q")
    reads, counts, report = 0, [], None
    try:
        while writer.poll() is None:
            if not db.exists():
                time.sleep(0.01)
                continue
            try:
                con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.5)
            except sqlite3.OperationalError:
                time.sleep(0.01)
                continue
            try:
                if not con.execute("select 1 from sqlite_master where name='pages'").fetchone():
                    continue
                con.execute("begin")
                pages = con.execute("select tid, first_floor, last_floor, posts from pages where source='html'").fetchall()
                for tid, first, last, n in pages:
                    have = con.execute("select count(*) from posts where tid=? and floor between ? and ?",
                                       [tid, first, last]).fetchone()[0]
                    assert have >= n, f"tid {tid}: a page row without its posts"
                counts.append(con.execute("select count(*) from posts").fetchone()[0])
                con.execute("commit")
                reads += 1
            finally:
                con.close()
            if report is None and counts and counts[-1] > 150:
                report = run("report", str(game), "--day", "1", "--out", str(tmp_path / "mid"))
            time.sleep(0.02)
        out, err = writer.communicate(timeout=30)
        assert writer.returncode == 0, err.decode()
    finally:
        if writer.poll() is None:
            writer.kill()
    assert reads >= 5 and counts == sorted(counts) and counts[-1] > counts[0]
    assert report is not None and report.returncode == 0, report and report.stderr
    assert (tmp_path / "mid" / "day1.html").is_file()
