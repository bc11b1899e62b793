"""The scan reads and stores its pages on one worker thread, off the event loop that sends the
requests: the writes go one at a time, a fast forum cannot pile responses up in memory, and a
scan that fails waits for its writes before it returns.

Against the demo forum over loopback HTTP, with the store's `save_page` wrapped to watch it.
"""
from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from daoyan.demo import DemoForum, FaultPlan
from daoyan.demo.gamefile import write_game_file
from gamedef.errors import ForumError, ThreadMissing
from gamedef.gamefile import load_game
from daoyan.scan import Scanner, make_client
from daoyan.store import Store

from .reliability_support import NOW

CONNECTIONS = 4
FLOORS = 300  # 30 pages of 10


class Watch:
    """Who calls save_page, how many at once, and how many requests the forum had answered."""

    def __init__(self, forum: DemoForum, pause: float = 0.0):
        self.forum, self.pause = forum, pause
        self.threads: set[int] = set()
        self.running = self.most = 0
        self.answered_at_start: list[int] = []
        self.urls: list[str] = []
        self._lock = threading.Lock()

    def wrap(self, save):  # type: ignore[no-untyped-def]
        def watched(store, *a, **kw):  # type: ignore[no-untyped-def]
            with self._lock:
                self.threads.add(threading.get_ident())
                self.running += 1
                self.most = max(self.most, self.running)
                self.answered_at_start.append(self.forum.requests.count)
                self.urls.append(a[0] if a else kw.get("url", ""))
            try:
                if self.pause:
                    time.sleep(self.pause)
                return save(store, *a, **kw)
            finally:
                with self._lock:
                    self.running -= 1
        return watched


def _game(folder: Path, forum: DemoForum, api: str = "never", extra: str = ""):  # type: ignore[no-untyped-def]
    path = write_game_file(folder / "game.toml", forum.base_url, forum.sample)
    text = path.read_text("utf-8").replace(
        "[forum]\n", f'[forum]\nrate = 1000\nconnections = {CONNECTIONS}\nretries = 0\ntimeout = 2\n'
                     f'api = "{api}"\n{extra}', 1)
    path.write_text(text, "utf-8")
    return load_game(path)


@pytest.fixture
def big(tmp_path: Path):  # type: ignore[no-untyped-def]
    with DemoForum(now=NOW, per_page=10) as forum:
        tid = forum.add_thread("[M84] 大帖 · 白天讨论", first_html="白天开始。")
        forum.fill_thread(tid, FLOORS - 1)
        yield forum, _game(tmp_path, forum), tid


async def _scan(game, store: Store, tid: int):  # type: ignore[no-untyped-def]
    async with make_client(game) as client:
        return await Scanner(game, store, client).scan_thread(tid)


def _stored(store: Store, tid: int) -> list[int]:
    return sorted(store.floors(tid))


def test_pages_are_stored_one_at_a_time_off_the_event_loop(big, tmp_path: Path, monkeypatch) -> None:
    forum, game, tid = big
    watch = Watch(forum)
    monkeypatch.setattr(Store, "save_page", watch.wrap(Store.save_page))
    with Store(tmp_path / "s.sqlite") as store:
        ts = asyncio.run(_scan(game, store, tid))
        assert _stored(store, tid) == list(range(1, FLOORS + 1))
    assert ts.new == FLOORS and ts.pages == FLOORS // 10
    assert watch.most == 1, "two pages were written at once"
    assert threading.get_ident() not in watch.threads, "a page was written on the event loop's thread"
    assert len(watch.threads) == 1


def test_a_slow_store_holds_the_fetching_back(big, tmp_path: Path, monkeypatch) -> None:
    """With a forum answering at once and a store taking 20 ms a page, the pages fetched but not
    yet stored stay within twice the connections (plus the page being written)."""
    forum, game, tid = big
    watch = Watch(forum, pause=0.02)
    monkeypatch.setattr(Store, "save_page", watch.wrap(Store.save_page))
    with Store(tmp_path / "s.sqlite") as store:
        asyncio.run(_scan(game, store, tid))
        assert _stored(store, tid) == list(range(1, FLOORS + 1))
    ahead = [answered - k for k, answered in enumerate(watch.answered_at_start)]
    assert max(ahead) <= 2 * CONNECTIONS + 1, ahead


def test_a_failed_scan_returns_only_after_its_writes(big, tmp_path: Path, monkeypatch) -> None:
    """A page that cannot be fetched ends the thread's scan with a ForumError while other pages
    are still being written; by then no write is running, and every page written is whole."""
    forum, game, tid = big
    watch = Watch(forum, pause=0.05)
    monkeypatch.setattr(Store, "save_page", watch.wrap(Store.save_page))
    forum.faults = FaultPlan(rate=1.0, kinds=("reset",), max_per_url=99)
    original = forum._fault_for

    def only_page_15(path: str, target: str):  # type: ignore[no-untyped-def]
        return original(path, target) if path.endswith("page=15") else None

    monkeypatch.setattr(forum, "_fault_for", only_page_15)
    with Store(tmp_path / "s.sqlite") as store:
        with pytest.raises(ForumError):
            asyncio.run(_scan(game, store, tid))
        assert watch.running == 0, "a write outlived the scan"
        assert store.db.execute("pragma integrity_check").fetchone()[0] == "ok"
        pages = store.db.execute("select page, first_floor, last_floor, posts from pages").fetchall()
        floors = set(store.floors(tid))
    assert len(watch.answered_at_start) >= 2, "the failure came before any page but the first was written"
    assert [p for p in pages if p[0] == 15] == []
    for page, first, last, posts in pages:
        assert (first, last, posts) == ((page - 1) * 10 + 1, page * 10, 10)
        assert set(range(first, last + 1)) <= floors


def test_a_failed_api_page_stops_the_others(big, tmp_path: Path, monkeypatch) -> None:
    """The thread vanishes while its API pages are read: the pages still being read stop, and
    none is written after the thread's scan has ended, not even into the next thread's scan."""
    forum, _, tid = big
    other = forum.add_thread("[M84] 另一个帖", first_html="另一个。")
    forum.fill_thread(other, 99)
    game = _game(tmp_path, forum, api="always", extra="api_page_size = 50\n")
    watch = Watch(forum)
    monkeypatch.setattr(Store, "save_page", watch.wrap(Store.save_page))
    real = Scanner._api

    async def api(self, tid_, page, ppp):  # type: ignore[no-untyped-def]
        if tid_ == tid and page == 2:
            raise ThreadMissing("the thread was deleted mid-scan")
        if tid_ == tid and page >= 3:
            await asyncio.sleep(0.3)
        elif tid_ == other:
            await asyncio.sleep(0.8)  # the next thread's scan is still running when they would land
        return await real(self, tid_, page, ppp)

    monkeypatch.setattr(Scanner, "_api", api)
    late: list[str] = []

    async def run() -> None:
        async with make_client(game) as client:
            scanner = Scanner(game, store, client)
            with pytest.raises(ThreadMissing):
                await scanner.scan_thread(tid)
            n = len(watch.urls)
            await scanner.scan_thread(other)
            late.extend(u for u in watch.urls[n:] if f"tid={tid}&" in u + "&")

    with Store(tmp_path / "s.sqlite") as store:
        asyncio.run(run())
    assert late == [], "a page of the failed thread was written after its scan ended"
