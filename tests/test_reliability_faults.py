"""A scan against a forum that misbehaves the way busy Discuz forums do minutes before a deadline:
after every fault the store must hold every floor the forum shows, each exactly once.

The faults come from the demo forum's `FaultPlan` over real loopback HTTP. The client's backoff is
shortened (its schedule is tested in test_scraper_retry.py) so the whole file runs in seconds.
"""
from __future__ import annotations

import sqlite3
import time
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

import scraper.retry
from daoyan.cli import cli
from daoyan.demo import DemoForum, FaultPlan, build_sample
from gamedef.gamefile import load_game
from daoyan.scan import scan_game

from .reliability_support import NOW, fast_game, forum_floors, game_tids, stored_floors

USER, PASSWORD = "说书人", "fault-test-pw-81"


@pytest.fixture(autouse=True)
def quick_backoff(monkeypatch):
    monkeypatch.setattr(scraper.retry, "BASE_DELAY", 0.02)


def assert_every_floor_once(db: Path, forum: DemoForum, *, deleted: dict[int, tuple[int, int, str]] | None = None) -> None:
    """The store's live floors are the forum's floors; a post deleted after it was read may stay
    (its words are evidence), but nothing the forum shows is missing and no floor is doubled."""
    want = forum_floors(forum, game_tids(forum))
    got = stored_floors(db)
    for tid, floors in want.items():
        have = got.get(tid, [])
        counts = Counter(f for f, _, _ in have)
        assert all(n == 1 for n in counts.values()), f"tid {tid}: a floor stored twice: {counts.most_common(3)}"
        extra = set(have) - set(floors)
        if deleted and tid in deleted:
            extra.discard(deleted[tid])
        assert set(floors) <= set(have), f"tid {tid}: floors missing: {sorted(set(floors) - set(have))[:10]}"
        assert not extra, f"tid {tid}: floors the forum does not have: {sorted(extra)[:10]}"


def last_scan(db: Path) -> tuple[str, str | None]:
    con = sqlite3.connect(db)
    try:
        return con.execute("select status, note from scans order by id desc limit 1").fetchone()
    finally:
        con.close()


# ---------------------------------------------------------------- transport faults


FAULTS = {
    # kind: (share of URLs hit, times each is hit)
    "5xx": (0.5, 2),
    "reset": (0.5, 2),
    "truncate": (0.5, 2),
    "timeout": (0.15, 1),
    "429": (0.2, 1),
}


@pytest.mark.parametrize("api", ["auto", "never"])
@pytest.mark.parametrize("kind", list(FAULTS))
def test_transport_fault_loses_no_floor(tmp_path: Path, kind: str, api: str) -> None:
    rate, times = FAULTS[kind]
    plan = FaultPlan(seed=11, rate=rate, kinds=(kind,), max_per_url=times, targets=("all",),
                     timeout_seconds=2.6, retry_after=1)
    with DemoForum(now=NOW, faults=plan) as forum:
        game = load_game(fast_game(tmp_path, forum.base_url, extra=f'api = "{api}"\n'))
        started = time.monotonic()
        scan_game(game)
        took = time.monotonic() - started
        served = Counter(k for k, _ in forum.requests.faults)
        assert served[kind] >= 2, f"the plan served too few {kind} faults to prove anything: {served}"
        assert_every_floor_once(game.store_path, forum)
    assert last_scan(game.store_path)[0] == "ok"
    if kind == "429":
        assert took >= 1.0  # Retry-After: 1 was honoured, not hammered through


def test_every_fault_at_once_with_a_rescan(tmp_path: Path) -> None:
    """A burst of every kind across every URL, then a re-scan through the same faults: still exact."""
    plan = FaultPlan(seed=5, rate=0.4, kinds=("5xx", "reset", "truncate"), max_per_url=2, targets=("all",))
    with DemoForum(now=NOW, faults=plan) as forum:
        game = load_game(fast_game(tmp_path, forum.base_url))
        scan_game(game)
        assert_every_floor_once(game.store_path, forum)
        pid = forum.add_post(21, "青梅", "补一句：我还是怀疑霜降。")
        forum.add_post(22, "大寒", "投票对象：青梅<br />\n投票理由：补票")
        forum.faults.seed = 6  # new URLs fault on the re-scan too
        forum._fault_counts.clear()
        scan_game(game)
        assert_every_floor_once(game.store_path, forum)
        assert pid in {p for _, p, _ in stored_floors(game.store_path)[21]}
        assert len(set(k for k, _ in forum.requests.faults)) >= 3


# ---------------------------------------------------------------- login expiring mid-scan


def login_forum(**faults) -> DemoForum:
    return DemoForum(now=NOW, faults=FaultPlan(**faults), require_login=True, users={USER: PASSWORD})


@pytest.fixture
def credentials(monkeypatch):
    monkeypatch.setenv("DY_TEST_USER", USER)
    monkeypatch.setenv("DY_TEST_PASS", PASSWORD)
    return ("DY_TEST_USER", "DY_TEST_PASS")


@pytest.mark.parametrize("api", ["auto", "never"])
@pytest.mark.parametrize("expires_after", [4, 15])
def test_login_expiring_mid_scan_logs_in_again(tmp_path: Path, credentials, api: str, expires_after: int) -> None:
    with login_forum(login_expires_after=expires_after) as forum:
        game = load_game(fast_game(tmp_path, forum.base_url, login_env=credentials, extra=f'api = "{api}"\n'))
        scan_game(game)
        logins = len(forum.requests.matching("loginsubmit=yes"))
        assert logins >= 2, "the session never expired: the test proves nothing"
        assert_every_floor_once(game.store_path, forum)
    assert last_scan(game.store_path)[0] == "ok"


def test_sessions_flushed_while_scanning(tmp_path: Path, credentials) -> None:
    """The forum drops every session in the middle of a thread (its session store is flushed)."""
    with login_forum() as forum:
        game = load_game(fast_game(tmp_path, forum.base_url, login_env=credentials))
        calls = []

        def progress(label: str, done: int, total: int) -> None:
            calls.append(label)
            if len(calls) in (3, 12):
                forum.expire_logins()

        scan_game(game, progress=progress)
        assert len(forum.requests.matching("loginsubmit=yes")) >= 3
        assert_every_floor_once(game.store_path, forum)


# ---------------------------------------------------------------- a thread that does not exist


def test_missing_thread_is_a_clear_error_and_the_rest_is_stored(tmp_path: Path) -> None:
    with DemoForum(now=NOW, faults=FaultPlan(missing_tids=frozenset({23}))) as forum:
        game = fast_game(tmp_path, forum.base_url)
        r = CliRunner().invoke(cli, ["scan", str(game), "-q"])
        assert r.exit_code == 2, r.output
        assert "23" in r.output and "不存在" in r.output and "Traceback" not in r.output
        assert r.exception is None or isinstance(r.exception, SystemExit)
        want = forum_floors(forum, [t for t in game_tids(forum) if t != 23])
    got = stored_floors(tmp_path / "game.sqlite")
    assert 23 not in got
    assert {t: got.get(t) for t in want} == want
    status, note = last_scan(tmp_path / "game.sqlite")
    assert status == "partial" and "23" in note


# ---------------------------------------------------------------- a post deleted between two page reads


SAMPLE = build_sample()
DISCUSSION = SAMPLE.threads[21].posts


@pytest.mark.parametrize("api", ["auto", "never"])
@pytest.mark.parametrize("after_requests,index", [(1, 4), (3, 9), (5, 10), (8, 35), (2, 0), (12, 120)])
def test_post_deleted_between_pages_skips_no_floor(tmp_path: Path, api: str, after_requests: int, index: int) -> None:
    """Discuz moves every later floor back one slot: a page read after the deletion starts one
    floor later than the page read before it ended. The scanner must see the gap and read again."""
    victim = DISCUSSION[index]
    plan = FaultPlan(delete_after=((after_requests, victim.pid),))
    with DemoForum(now=NOW, faults=plan, latency=0.01) as forum:
        game = load_game(fast_game(tmp_path, forum.base_url, extra=f'api = "{api}"\n'))
        scan_game(game)
        assert victim.pid not in {p.pid for p in forum.sample.threads[21].posts}
        assert forum.requests.count > after_requests + 3  # it was deleted while the scan went on
        assert_every_floor_once(game.store_path, forum, deleted={21: (victim.position, victim.pid, victim.author)})


@pytest.mark.parametrize("api", ["auto", "never"])
def test_deletion_between_scans_then_new_floors(tmp_path: Path, api: str) -> None:
    """Between two scans a page-1 post is deleted and a dozen floors are added: the re-scan gets
    every new floor although each later one now sits a slot earlier."""
    with DemoForum(now=NOW) as forum:
        game = load_game(fast_game(tmp_path, forum.base_url, extra=f'api = "{api}"\n'))
        scan_game(game)
        victim = forum.sample.threads[21].posts[3]
        forum.delete_post(victim.pid)
        for i in range(12):
            forum.add_post(21, SAMPLE.players[i], f"第{i}条新发言")
        scan_game(game)
        assert_every_floor_once(game.store_path, forum, deleted={21: (victim.position, victim.pid, victim.author)})
