"""The `scans` table tells the truth: a scan killed with SIGKILL is marked interrupted by the next
one, and two scans running at once never both count the same post as new."""
from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from daoyan.demo import DemoForum

from .reliability_support import NOW, fast_game, posts_table

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


def daoyan(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "daoyan.cli", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"})


def scans(db: Path) -> list[tuple]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return con.execute("select id, status, new_posts from scans order by id").fetchall()
    finally:
        con.close()


def test_a_killed_scan_is_marked_interrupted_by_the_next(tmp_path: Path) -> None:
    with DemoForum(now=NOW, latency=0.05) as forum:
        game = fast_game(tmp_path, forum.base_url)
        db = tmp_path / "game.sqlite"
        p = daoyan("scan", str(game), "-q")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # kill it once it has begun storing pages
            time.sleep(0.1)
            if db.exists():
                try:
                    if scans(db) and posts_table(db):
                        break
                except sqlite3.OperationalError:
                    pass
        p.send_signal(signal.SIGKILL)
        p.wait(30)
        assert [s[1] for s in scans(db)] == ["running"]
        q = daoyan("scan", str(game), "-q")
        out, err = q.communicate(timeout=120)
        assert q.returncode == 0, err.decode()
    assert [s[1] for s in scans(db)] == ["interrupted", "ok"]


def test_a_scan_still_running_is_not_marked_interrupted(tmp_path: Path) -> None:
    """The other side of the rule: a scan whose process lives stays `running`."""
    from daoyan.scanlog import begin_scan, mark_interrupted
    from daoyan.store import Store

    with Store(tmp_path / "s.sqlite") as store:
        mine = begin_scan(store)
        assert mark_interrupted(store) == 0
        assert store.db.execute("select status from scans where id=?", [mine]).fetchone() == ("running",)


def _new(out: str) -> int:
    return sum(int(n) for n in re.findall(r"\((\d+) new", out))


def test_two_scans_at_once_count_each_new_post_once(tmp_path: Path) -> None:
    """Two directors (or a `watch` and a hand-run scan) scanning the same store at the same time:
    the new posts they report add up to the posts stored, not twice as many."""
    with DemoForum(now=NOW, latency=0.02) as forum:
        game = fast_game(tmp_path, forum.base_url)
        first = daoyan("scan", str(game), "-q")
        time.sleep(0.3)
        second = daoyan("scan", str(game), "-q")
        outs = [p.communicate(timeout=180) for p in (first, second)]
    for (out, err), p in zip(outs, (first, second)):
        assert p.returncode == 0, err.decode()
    stored = len(posts_table(tmp_path / "game.sqlite"))
    counted = [_new(out.decode()) for out, _ in outs]
    assert sum(counted) == stored, counted
    assert all(n > 0 for n in counted) or stored in counted
    assert sorted(s[2] for s in scans(tmp_path / "game.sqlite")) == sorted(counted)
