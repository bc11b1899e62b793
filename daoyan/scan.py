"""`daoyan scan`: every configured thread into the store, incrementally.

A first scan reads every desktop page (markup: fonts, edit markers, quotes) and, where the forum
has the mobile API, the whole thread in a few large API pages (exact seconds). A re-scan asks the
API for the thread once: only pages with new or changed floors are fetched again, so an unchanged
thread costs one request. Without the API, a re-scan reads from the last known page onward.
Floors are checked for gaps (a post deleted between two page reads shifts later floors back a
page): a gap is fetched again before the scan ends.
"""
from __future__ import annotations

import asyncio
import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone, tzinfo
from functools import partial
from typing import Any, Callable, NamedTuple, TypeVar

from parsers.discuz import (game_tag, load_api_json, parse_api_thread, parse_forum_threads, parse_thread_page,
                            stated_utc_offset)
from parsers.models import Post, ThreadPage
from scraper.client import Fetched, ForumClient

from gamedef.errors import ForumError, LoginRequired, PageFormatError, ThreadMissing
from gamedef.gamefile import Game
from .ownership import claim
from .scanlog import begin_scan
from .store import Store

Progress = Callable[[str, int, int], None]  # (label, done, total)
T = TypeVar("T")
API_REDIRECT_RETRIES = 2  # an API answer redirected to a desktop page is asked for again this often
LOGIN_RETRIES = 5  # logins again for one page before the scan gives up on the session


@dataclass
class ThreadScan:
    tid: int
    subject: str = ""
    pages: int = 0
    posts: int = 0
    new: int = 0
    changed: int = 0
    gone: int = 0
    requests: int = 0
    api: bool = False


@dataclass
class ScanResult:
    threads: list[ThreadScan] = field(default_factory=list)
    requests: int = 0
    session: str | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def new(self) -> int:
        return sum(t.new for t in self.threads)

    @property
    def changed(self) -> int:
        return sum(t.changed for t in self.threads)


class ScanIncomplete(ForumError):
    """Some threads failed; `result` holds what the scan did store."""

    def __init__(self, message: str, result: ScanResult):
        super().__init__(message)
        self.result = result


def stored_lines(result: ScanResult) -> list[str]:
    """One line per scanned thread, for the director: what is now in the store."""
    return [f"tid {t.tid} {t.subject}: {t.posts} floors on {t.pages} pages"
            f" ({t.new} new, {t.changed} changed{', ' + str(t.gone) + ' gone' if t.gone else ''};"
            f" {t.requests} request{'s' if t.requests != 1 else ''})"
            f"{' [API]' if t.api else ''}" for t in result.threads]


class Scanner:
    """Scans the game's threads with one client into one store."""

    wait_notice = 10.0  # seconds a request may go unanswered before the scan says what it waits for

    def __init__(self, game: Game, store: Store, client: ForumClient, *, full: bool = False,
                 progress: Progress | None = None, on_thread: "Callable[[ThreadScan], None] | None" = None,
                 waiting: Callable[[str], None] | None = None):
        self.game, self.store, self.client = game, store, client
        self.waiting = waiting or (lambda message: None)
        self.full = full
        self.progress = progress or (lambda label, done, total: None)
        self.on_thread = on_thread or (lambda ts: None)
        self.api_ok: bool | None = {"always": True, "never": False}.get(game.forum.api)
        self.logged_in = False
        self.session: str | None = None  # "reused" (a saved session still live) or "logged in"
        self.warnings: set[str] = set()
        self._html_seen: dict[int, int] = {}  # pid → floor of the posts the desktop pages showed this thread
        self._login_lock = asyncio.Lock()
        self._login_gen = 0  # how many logins so far: a task whose request predates the last one just retries
        self._worker: ThreadPoolExecutor | None = None
        self._inserted = 0  # posts this scan stored first, in the thread being scanned
        self._reported: tuple[str, int] | None = None  # (when, replies) the forum last printed for the thread
        # pages fetched but not yet read and stored, at most: a forum faster than the reading
        # cannot pile a whole thread's responses up in memory
        self._unread = asyncio.Semaphore(2 * game.forum.connections)

    # ------------------------------------------------------------ fetching

    async def _off_loop(self, fn: Callable[..., T], *args: Any, **kw: Any) -> T:
        """Reading a page and storing it run on the scan's one worker thread, in the order asked:
        on the event loop they would hold back the requests of the other connections (a page
        read while a request is half sent delays that request by the whole read). One thread
        keeps the store's writes in order, one at a time, on its one connection."""
        if self._worker is None:
            raise RuntimeError("pages are read and stored only within scan_thread")
        return await asyncio.get_running_loop().run_in_executor(self._worker, partial(fn, *args, **kw))

    async def _login(self) -> None:
        creds = self.game.credentials()
        if creds is None:
            return
        self.session = await self.client.login(*creds, question=self.game.security_question())
        self.logged_in = True
        self._login_gen += 1

    async def _relogin(self, seen: int) -> None:
        """The session expired mid-scan: log in again, once for every task that noticed at the same time."""
        async with self._login_lock:
            if self._login_gen == seen:
                await self._login()

    async def _html(self, tid: int, page: int) -> tuple[Fetched, ThreadPage]:
        expired = 0
        broken = 0
        while True:
            gen = self._login_gen
            f = await self.client.thread_page(tid, page)
            what = f"thread {tid} page {page}"
            try:
                tp = await self._off_loop(parse_thread_page, f.text, tz=self._page_zone(f.text),
                                          edit_tz=self.game.timezone, tid_hint=tid, what=what)
                self._html_seen.update((p.pid, p.floor) for p in tp.posts)
                return f, _in_zone(tp, self.game.timezone)
            except LoginRequired:
                expired += 1
                if self.game.forum.login is None or expired > LOGIN_RETRIES:
                    raise
                await self._relogin(gen)
            except PageFormatError:
                broken += 1
                if broken >= 3:
                    raise

    def _page_zone(self, text: str) -> tzinfo:
        """The zone a desktop page's times are written in: the one the page states (the account's
        own 时区 setting, or the forum's), never assumed to be the game's. A page whose zone
        disagrees with the game's is read in its own zone and converted, and the scan says so."""
        stated = stated_utc_offset(text)
        if stated is None:
            return self.game.timezone
        # Discuz's dgmdate() applies intval() of the offset: a member at GMT+9.5 is shown times
        # at +9 (the footer still says 9.5; seen on X3.5)
        zone = timezone(timedelta(hours=math.trunc(stated)))
        game_offset = datetime.now(self.game.timezone).utcoffset() or timedelta(0)
        if abs(game_offset.total_seconds() - stated * 3600) >= 60:
            self.warnings.add(
                f"the forum shows this account its times in GMT{stated:+g} but the game is in "
                f"{self.game.timezone.key} (GMT{game_offset.total_seconds() / 3600:+g}): the pages' times "
                f"were read as GMT{math.trunc(stated):+d}{'' if stated == math.trunc(stated) else ' (Discuz drops the half hour)'} and converted (exact API times are used where there are "
                "any); set the account's 时区 to the forum default to make the pages match the game")
        return zone

    async def _api(self, tid: int, page: int, ppp: int) -> tuple[Fetched, ThreadPage] | None:
        expired = 0
        redirected = 0
        while True:
            if self.api_ok is False:
                return None
            gen = self._login_gen
            try:
                f = await self.client.api_thread(tid, page, ppp)
            except ForumError:
                if self.api_ok:
                    raise
                self.api_ok = False
                return None
            what = f"thread {tid} (mobile API page {page})"
            if "api/mobile/" not in f.url and redirected < API_REDIRECT_RETRIES:
                # the first API request after a moderator deletes a post is redirected once to
                # the desktop page (Discuz records the thread's gap in positions); the next is JSON
                redirected += 1
                continue
            try:
                tp = await self._off_loop(_read_api_thread, f.text, self.game.timezone, what)
            except ThreadMissing:
                raise
            except LoginRequired:
                if self.game.forum.login is not None:
                    expired += 1
                    if expired > LOGIN_RETRIES:
                        raise
                    await self._relogin(gen)  # the session expired mid-scan
                    continue
                if self.api_ok:
                    raise
                self.api_ok = False  # the API is closed to guests here: desktop pages only
                return None
            except PageFormatError:
                if self.api_ok:
                    raise
                self.api_ok = False  # no mobile API here: desktop pages only
                return None
            self.api_ok = True
            return f, tp

    async def _api_thread(self, tid: int, known_floors: int = 0) -> "list[_Seen] | None":
        """The whole thread from the API. A re-scan asks for the floors it knows plus a page size
        of new ones in one request (X3.5 honours any ppp), so an unchanged thread costs one."""
        ppp = self.game.forum.api_page_size + known_floors
        first = await self._api(tid, 1, ppp)
        if first is None:
            return None
        f, tp = first
        await self._save(f, tp, "api")
        posts = [_seen(p) for p in tp.posts]
        if tp.last_page > 1:
            # one page failing stops the others (gather alone would leave them running, writing
            # after the thread's scan has ended)
            tasks = [asyncio.create_task(self._api_saved(tid, n, ppp)) for n in range(2, tp.last_page + 1)]
            try:
                rest = await asyncio.gather(*tasks)
            finally:
                await _cancel(tasks)
            for seen in rest:
                if seen is not None:
                    posts += seen
        return posts

    async def _api_saved(self, tid: int, page: int, ppp: int) -> "list[_Seen] | None":
        """An API page fetched and stored at once: a finished task keeps only what the scan needs."""
        r = await self._api(tid, page, ppp)
        if r is None:
            return None
        await self._save(r[0], r[1], "api")
        return [_seen(p) for p in r[1].posts]

    async def _html_saved(self, tid: int, page: int) -> ThreadPage:
        """A desktop page fetched and stored at once; the answer is the page without its posts, so
        the tasks of a 2,000-page thread do not hold every response and Post until the end."""
        async with self._unread:
            f, tp = await self._html(tid, page)
            await self._save(f, tp, "html")
        return _summary(tp)

    async def _save(self, f: Fetched, tp: ThreadPage, source: str) -> tuple[int, int]:
        if tp.replies is not None:  # the API's thread.replies, desktop page 1's 回复 counter
            self._reported = (datetime.now(timezone.utc).isoformat(timespec="seconds"), tp.replies)
        new, changed = await self._off_loop(self.store.save_page, f.url, f.status,
                                            f.headers.get("content-type", ""), self.client.scrubbed(f.content),
                                            tp, source)
        self._inserted += new  # decided inside the page's transaction: a scan running beside this
        return new, changed    # one never makes both count the same post as new

    # ------------------------------------------------------------ one thread

    async def scan_thread(self, tid: int) -> ThreadScan:
        """One thread into the store. Its pages are read and stored on a worker thread that this
        call starts and, however it ends, waits for: no write outlives the scan of its thread."""
        with ThreadPoolExecutor(1, thread_name_prefix="daoyan-scan") as self._worker:
            try:
                return await self._scan_thread(tid)
            finally:
                self._worker = None

    async def _scan_thread(self, tid: int) -> ThreadScan:
        ts = ThreadScan(tid=tid)
        requests_before = int(self.client.stats.get("requests", 0))
        # what the store holds is the forum as of when this reading began: a post made while a
        # long thread is read may land on a page already read, so the end is no guarantee
        started = datetime.now(timezone.utc).isoformat(timespec="seconds")
        self._inserted = 0
        self._reported = None
        known = self.store.thread(tid)
        before = self.store.post_keys(tid)
        self._html_seen = {}
        api_task = asyncio.create_task(self._api_thread(tid, int((known or {}).get("max_floor") or 0)))
        html_pages: dict[int, ThreadPage] = {}
        label = f"tid {tid} {(known or {}).get('subject') or ''}".strip()
        planned = done = 0

        async def read(pages: list[int]) -> None:
            """Read pages, then any the forum's pager shows past them."""
            nonlocal planned, done, label
            todo = [n for n in pages if n not in html_pages]
            while todo:
                planned += len(todo)
                self.progress(label, done, planned)
                tasks = [asyncio.create_task(self._html_saved(tid, n)) for n in todo]
                try:
                    for fut in asyncio.as_completed(tasks):
                        tp = await fut
                        html_pages[tp.page] = tp
                        done += 1
                        self.progress(label, done, planned)
                finally:
                    await _cancel(tasks)
                seen_last = max(tp.last_page for tp in html_pages.values())
                todo = [n for n in range(max(html_pages) + 1, seen_last + 1) if n not in html_pages]

        try:
            if known is None or self.full or not known.get("per_page"):
                api_posts = None
                planned = 1
                self.progress(label, 0, planned)
                f1, p1 = await self._html(tid, 1)
                label = f"tid {tid} {p1.subject}".strip()
                html_pages[1] = _summary(p1)
                await self._save(f1, p1, "html")
                done = 1
                per_page = len(p1.posts) if p1.last_page > 1 else (known or {}).get("per_page") or max(10, len(p1.posts))
                await read(list(range(2, p1.last_page + 1)))
            else:
                per_page = int(known["per_page"])
                api_posts = await api_task
                last = int(known.get("last_page") or 1)
                if api_posts is None and self._reread_whole(tid):
                    # no API to list edits: the vote thread decides the count, so all of it is read
                    todo = list(range(1, last + 1))
                else:
                    todo = self._pages_to_refetch(tid, known, before, api_posts, per_page)
                await read(todo)
            if api_posts is None:
                api_posts = await api_task
        finally:
            await _cancel([api_task])
        last_page = max([tp.last_page for tp in html_pages.values()] + [int((known or {}).get("last_page") or 1)])
        per_page = max(per_page, self._fullest_page(tid, last_page))
        if api_posts is not None:
            missing = await self._fill_from_api(tid, api_posts, per_page)
            ts.gone = self.store.mark_gone(set(before) - {p.pid for p in api_posts})
            # the API's position is the post's floor for good: desktop pages renumber the floors
            # after a deletion (row order), the API does not
            self.store.set_floors({p.pid: p.floor for p in api_posts})
            ts.api = True
            if missing:
                last_page = max(last_page, max(missing))
        else:
            shifted = any(before[pid][0] != floor for pid, floor in self._html_seen.items() if pid in before)
            complete = all(n in html_pages for n in range(1, last_page + 1))
            if shifted and not complete:
                # a floor moved: a post before it is gone; read the whole thread to know which
                await read(list(range(1, last_page + 1)))
                last_page = max(tp.last_page for tp in html_pages.values())
                complete = True
            await self._fill_gaps(tid, per_page, last_page, set(html_pages))
            if complete:
                ts.gone = await self._mark_unseen_gone(tid, before, per_page)
        after = self.store.post_keys(tid)
        ts.new = self._inserted
        ts.changed = sum(1 for pid, k in after.items() if pid in before and before[pid][1:] != k[1:])
        ts.posts = len(after)
        subject = next((tp.subject for tp in html_pages.values() if tp.subject), (known or {}).get("subject") or "")
        fid = next((tp.fid for tp in html_pages.values() if tp.fid), (known or {}).get("fid"))
        ts.subject, ts.pages = subject, last_page
        ts.requests = int(self.client.stats.get("requests", 0)) - requests_before
        reported = {"replies": self._reported[1], "replies_at": self._reported[0]} if self._reported else {}
        self.store.set_thread(tid=tid, subject=subject, fid=fid, last_page=last_page, per_page=per_page,
                              max_floor=max((k[0] for k in after.values()), default=0),
                              api=int(bool(api_posts is not None)), complete=1, scanned_at=started, **reported)
        return ts

    def _reread_whole(self, tid: int) -> bool:
        """Whether a desktop-only re-scan reads all of this thread: the vote and election threads,
        where an edit to a ballot on a page not read again would change the count unseen."""
        role = self.game.role_of(tid)
        return role is not None and role[1] in ("vote", "election")

    async def _fill_gaps(self, tid: int, per_page: int, last_page: int, read: set[int]) -> None:
        """Without the API: floors missing between the ones this scan read are fetched again from
        the pages around them (once): a post deleted between two page reads moves the later ones
        a page back. A gap that stays is a deleted post; pages this scan did not read are not
        asked about again (a gap there was settled when they were read)."""
        seen = sorted(set(self._html_seen.values()))
        if not seen:
            return
        have = set(seen)
        gaps = [f for f in range(seen[0], seen[-1]) if f not in have]
        pages = sorted({(g - 1) // per_page + 1 for g in gaps} | {(g - 1) // per_page for g in gaps if g > per_page})
        pages = [p for p in pages if 1 <= p <= last_page and (p in read or p + 1 in read)]
        for n in pages[:20]:
            f, tp = await self._html(tid, n)
            await self._save(f, tp, "html")

    async def _mark_unseen_gone(self, tid: int, before: dict[int, tuple[int, str, int]], per_page: int) -> int:
        """After a read of every page: stored posts no page showed are gone (kept, marked). A post
        deleted during the read moves later ones a page back, so a missing post's old page and
        the one before it are read once more before it is marked."""
        unseen = set(before) - set(self._html_seen)
        if not unseen:
            return 0
        pages = set()
        for pid in unseen:
            old = (before[pid][0] - 1) // max(1, per_page) + 1
            pages.update({old - 1, old})
        for n in sorted(p for p in pages if p >= 1):
            f, tp = await self._html(tid, n)
            await self._save(f, tp, "html")
        return self.store.mark_gone(unseen - set(self._html_seen))

    def _pages_to_refetch(self, tid: int, known: dict, before: dict[int, tuple[int, str, int]],
                          api_posts: "list[_Seen] | None", per_page: int) -> list[int]:
        """Pages with new or changed floors, by the API's list, or from the last known page onward."""
        last = int(known.get("last_page") or 1)
        if api_posts is None:
            return list(range(last, last + 1))
        pages: set[int] = set()
        for i, p in enumerate(sorted(api_posts, key=lambda x: x.floor)):
            old = before.get(p.pid)
            if old is None or old[1] != p.text or bool(old[2]) != p.hidden:
                pages.add(i // per_page + 1)
        return sorted(pages)

    async def _fill_from_api(self, tid: int, api_posts: "list[_Seen]", per_page: int) -> list[int]:
        """Posts the API lists that no page read holds (a page read before a deletion shifted
        them): fetch their pages again; what is still missing is kept from the API read. Posts
        are matched by pid: after a deletion the pages number floors by row order, the API by
        position."""
        order = sorted(api_posts, key=lambda x: x.floor)
        from_pages = self._html_pids(tid)
        missing_pages = sorted({i // per_page + 1 for i, p in enumerate(order) if p.pid not in from_pages})
        for n in missing_pages:
            f, tp = await self._html(tid, n)
            await self._save(f, tp, "html")
        return missing_pages

    def _html_pids(self, tid: int) -> set[int]:
        return {r[0] for r in self.store.db.execute(
            "select pid from posts where tid=? and source='html'", [tid]).fetchall()}

    def _fullest_page(self, tid: int, last_page: int) -> int:
        """The forum's page size, as the fullest stored page before the last shows it (page 1 alone
        may be short of one: a deleted floor)."""
        row = self.store.db.execute("select max(posts) from pages where tid=? and source='html' and page<?",
                                    [tid, last_page]).fetchone()
        return int(row[0] or 0)

    async def _rules_tid(self, result: ScanResult) -> int | None:
        """The game's rule post (规则帖), whose floors the rules also cover: from the game file, or
        found once on the board by the game's subject tag and remembered in the store."""
        if self.game.rules_tid:
            return self.game.rules_tid
        row = self.store.db.execute("select value from meta where key='rules_tid'").fetchone()
        if row:
            return int(row[0]) if row[0] else None
        fids = {r[0] for r in self.store.db.execute("select fid from threads where fid is not null").fetchall()}
        tag = game_tag(t.subject for t in result.threads if t.subject)
        found = None
        if len(fids) == 1 and tag:
            fid = fids.pop()
            listed: list[tuple[int, str]] = []
            for _ in range(2):
                gen = self._login_gen
                try:
                    f = await self.client.get("forum.php", {"mod": "forumdisplay", "fid": fid})
                except ForumError:
                    return None
                listed = parse_forum_threads(f.text)
                if listed or self.game.forum.login is None:
                    break
                await self._relogin(gen)  # a notice instead of the board: the session may have expired
            if not listed:
                return None  # not a board listing (a notice, an error page): ask again next scan
            found = next((tid for tid, subj in listed
                          if subj.startswith(tag) and "规则" in subj and tid not in self.game.tids), None)
        self.store.db["meta"].upsert({"key": "rules_tid", "value": str(found or "")}, pk="key")
        return found

    # ------------------------------------------------------------ all threads

    async def _say_what_we_wait_for(self) -> None:
        """A forum that stalls leaves the scan silent: every `wait_notice` seconds, name the
        request that has waited longest, for how long, and when it gives up."""
        while True:
            await asyncio.sleep(self.wait_notice)
            slow = [(what, t) for what, t in self.client.waiting if t >= self.wait_notice]
            if slow:
                what, t = slow[0]
                more = f" (and {len(slow) - 1} more)" if len(slow) > 1 else ""
                self.waiting(f"waiting for the forum: {what} for {t:.0f} s{more}; a request gives up after "
                             f"{self.client.deadline:g} s of waiting (forum.deadline)")

    async def scan(self) -> ScanResult:
        watch = asyncio.create_task(self._say_what_we_wait_for())
        try:
            return await self._scan()
        finally:
            await _cancel([watch])

    async def _scan(self) -> ScanResult:
        if self.game.forum.login is not None:
            await self._login()
        result = ScanResult(session=self.session)
        scan_id = begin_scan(self.store)
        status = "failed"
        errors: list[str] = []
        try:
            for tid in self.game.tids:
                try:
                    result.threads.append(await self.scan_thread(tid))
                    self.on_thread(result.threads[-1])
                except (ThreadMissing, PageFormatError) as e:
                    errors.append(str(e))
            rules = await self._rules_tid(result)
            if rules is not None and rules not in self.game.tids:
                try:
                    result.threads.append(await self.scan_thread(rules))
                    self.on_thread(result.threads[-1])
                except (ThreadMissing, PageFormatError) as e:
                    errors.append(str(e))
            status = "ok" if not errors else "partial"
        finally:
            result.requests = int(self.client.stats.get("requests", 0))
            result.warnings = sorted(self.warnings)
            self.store.scan_finished(scan_id, status, requests=result.requests, new_posts=result.new,
                                     changed_posts=result.changed, note="; ".join(errors + result.warnings) or None)
        if errors:
            raise ScanIncomplete("; ".join(errors) + " (everything else was scanned and stored)", result)
        return result


class _Seen(NamedTuple):
    """What a scan keeps of an API post once it is stored: enough to find changed pages and gaps
    (the Post itself, markup and all, would be held for every floor of the thread)."""

    pid: int
    floor: int
    text: str
    hidden: bool


def _read_api_thread(text: str, tz: tzinfo, what: str) -> ThreadPage:
    doc = load_api_json(text, what)
    if "Variables" not in doc:
        raise PageFormatError(f"{what}: not a Discuz mobile API answer")
    return parse_api_thread(doc, tz=tz, what=what)


def _in_zone(tp: ThreadPage, tz: tzinfo) -> ThreadPage:
    """The page with every post time in the game's zone (the same instant)."""
    posts = [p if p.posted_at is None or p.posted_at.tzinfo is tz else replace(p, posted_at=p.posted_at.astimezone(tz))
             for p in tp.posts]
    return replace(tp, posts=posts)


def _seen(p: Post) -> _Seen:
    return _Seen(p.pid, p.floor, p.text, p.hidden)


def _summary(tp: ThreadPage) -> ThreadPage:
    """A stored page without its posts: the scan needs only its place and the pager."""
    return replace(tp, posts=[])


async def _cancel(tasks: list[asyncio.Task]) -> None:
    """Stop the tasks still running (a page failed, or the scan was interrupted) and wait for them,
    so none outlives the client it is using."""
    pending = [t for t in tasks if not t.done()]
    for t in pending:
        t.cancel()
    if pending:
        await asyncio.gather(*pending, return_exceptions=True)
    for t in tasks:
        if t.done() and not t.cancelled():
            t.exception()  # retrieved: a failure already reported through another task is not logged twice


def make_client(game: Game, transport=None) -> ForumClient:
    f = game.forum
    cookie = None
    if f.login and f.login.cookie_file:
        cookie = (game.path.parent / f.login.cookie_file)
    return ForumClient(f.base_url, charset=f.charset, rate=f.rate, connections=f.connections, timeout=f.timeout,
                       retries=f.retries, user_agent=f.user_agent, transport=transport, cookie_file=cookie,
                       deadline=f.deadline, max_body=int(f.max_page_mb * 2**20))


async def scan_game_async(game: Game, store: Store, *, full: bool = False, progress: Progress | None = None,
                          transport=None, on_thread: "Callable[[ThreadScan], None] | None" = None,
                          waiting: Callable[[str], None] | None = None) -> ScanResult:
    async with make_client(game, transport) as client:
        return await Scanner(game, store, client, full=full, progress=progress, on_thread=on_thread,
                             waiting=waiting).scan()


def scan_game(game: Game, *, full: bool = False, progress: Progress | None = None, transport=None,
              on_thread: "Callable[[ThreadScan], None] | None" = None,
              waiting: Callable[[str], None] | None = None) -> ScanResult:
    """Scan every thread of the game into its store. Raises DaoyanError subclasses on bad input.
    `progress(label, pages done, pages planned)` as pages arrive; `on_thread` as each thread ends."""
    with Store(game.store_path) as store:
        claim(store, game)
        return asyncio.run(scan_game_async(game, store, full=full, progress=progress, transport=transport,
                                           on_thread=on_thread, waiting=waiting))
