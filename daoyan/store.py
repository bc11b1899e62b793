"""The game's SQLite store (one file per game, beside its game file): raw responses, posts, every
distinct revision of a post, scans, cards and review decisions.

A director can open it in Datasette or the sqlite3 shell: `posts` is keyed by pid and holds the
current text; `revisions` keeps every text a post ever had, with when it was first and last seen,
so an edited or deleted post keeps its old words as evidence. Every page is written in one
transaction with its raw response, so a scan killed at any moment leaves the store consistent.
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
import zlib
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable

import sqlite_utils

from parsers.models import Post, ThreadPage

from gamedef.errors import StoreError

SCHEMA_VERSION = 2  # 2: edited_at holds an ISO time with its offset (1: the forum's raw text)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _revision_key(p: Post) -> str:
    """What makes a new revision: the words, and whether the forum hides them."""
    basis = json.dumps([p.text, p.hidden, p.author_banned], ensure_ascii=False)
    return hashlib.sha256(basis.encode("utf-8")).hexdigest()[:20]


class Store:
    """The SQLite file of one game."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if self.path.exists() and not self.path.is_file():
            what = "a folder" if self.path.is_dir() else "not a regular file"
            raise StoreError(f"{self.path}: cannot be the store: it is {what}; set `store =` in [game] to a file name")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # a scan writes its pages from its worker thread while the store was opened on the
            # caller's: one thread at a time, never two at once (the scan waits for each write)
            conn = sqlite3.connect(str(self.path), timeout=30, isolation_level=None, check_same_thread=False)
            conn.execute("pragma journal_mode=wal")
            conn.execute("pragma synchronous=normal")
            conn.execute("pragma foreign_keys=on")
        except (sqlite3.Error, OSError) as e:
            raise StoreError(f"{self.path}: cannot open the store: {_reason(e)}") from None
        self.db = sqlite_utils.Database(conn)
        try:
            self._migrate()
        except sqlite3.Error as e:
            conn.close()
            raise StoreError(f"{self.path}: cannot open the store: {_reason(e)}") from None

    def close(self) -> None:
        self.db.conn.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ------------------------------------------------------------ schema

    def _migrate(self) -> None:
        db = self.db
        try:
            tables = set(db.table_names())
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path}: not a daoyan store (not SQLite: {e})") from None
        if "meta" in tables:
            row = db.execute("select value from meta where key='schema_version'").fetchone()
            version = int(row[0]) if row else 0
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path}: store schema {version} is newer than this daoyan ({SCHEMA_VERSION}); upgrade daoyan")
            if version == SCHEMA_VERSION:
                return
            if version == 1:
                self._edit_times_as_times()
                return
        elif tables:
            raise StoreError(f"{self.path}: an SQLite file that is not a daoyan store (tables: {', '.join(sorted(tables))})")
        with db.conn:
            db.execute("begin")
            db["posts"].create({
                "pid": int, "tid": int, "floor": int, "author": str, "uid": int, "posted_at": str,
                "time_precision": str, "message_html": str, "text": str, "quotes": str, "reply_to": str,
                "edited": int, "edited_by": str, "edited_at": str, "smilies": int, "colors": str, "sizes": str,
                "links": str, "attachments": int, "hidden": int, "author_banned": int, "first": int,
                "source": str, "revision": int, "first_seen": str, "last_seen": str, "gone_at": str,
            }, pk="pid", if_not_exists=True)
            db["posts"].create_index(["tid", "floor"], if_not_exists=True)
            db["revisions"].create({
                "pid": int, "rev": int, "key": str, "text": str, "message_html": str, "hidden": int,
                "edited_at": str, "first_seen": str, "last_seen": str,
            }, pk=("pid", "rev"), if_not_exists=True)
            db["threads"].create({
                "tid": int, "subject": str, "fid": int, "last_page": int, "per_page": int, "replies": int,
                "max_floor": int, "api": int, "scanned_at": str, "complete": int, "replies_at": str,
            }, pk="tid", if_not_exists=True)
            db["pages"].create({
                "tid": int, "page": int, "source": str, "first_floor": int, "last_floor": int, "posts": int,
                "fetched_at": str,
            }, pk=("tid", "page", "source"), if_not_exists=True)
            db["responses"].create({
                "id": int, "url": str, "status": int, "content_type": str, "sha256": str, "size": int,
                "body": bytes, "first_fetched": str, "last_fetched": str,
            }, pk="id", if_not_exists=True)
            db["responses"].create_index(["url", "sha256"], unique=True, if_not_exists=True)
            db["scans"].create({
                "id": int, "started_at": str, "finished_at": str, "status": str, "requests": int,
                "new_posts": int, "changed_posts": int, "note": str,
            }, pk="id", if_not_exists=True)
            db["cards"].create({
                "id": int, "key": str, "day": int, "player": str, "card": str, "rule": str, "reason": str,
                "source": str, "pid": int, "floor": int, "created_at": str,
            }, pk="id", if_not_exists=True)
            db["cards"].create_index(["key"], unique=True, if_not_exists=True)
            db["decisions"].create({
                "flag_id": str, "day": int, "pid": int, "category": str, "state": str, "card": str,
                "note": str, "decided_at": str,
            }, pk="flag_id", if_not_exists=True)
            db["meta"].create({"key": str, "value": str}, pk="key", if_not_exists=True)
            db["meta"].upsert({"key": "schema_version", "value": str(SCHEMA_VERSION)}, pk="key")
            db["meta"].upsert({"key": "created_at", "value": _now()}, pk="key")

    def _edit_times_as_times(self) -> None:
        """Schema 1 → 2: `edited_at` was the forum's text (`2026-11-27 18:06`, local); it becomes an ISO
        time with the offset of the post's own time (the forum prints both in one zone). A text that
        is no time becomes NULL; nothing else changes."""
        from parsers.models import edit_time

        db = self.db
        with db.conn:
            db.execute("begin")
            for table, join in (("posts", "posts"), ("revisions", "posts")):
                rows = db.execute(
                    f"select t.rowid, t.edited_at, p.posted_at from [{table}] t join [{join}] p on p.pid = t.pid "
                    "where t.edited_at is not null").fetchall()
                for rowid, raw, posted in rows:
                    t = edit_time(raw, datetime.fromisoformat(posted) if posted else None)
                    db.execute(f"update [{table}] set edited_at=? where rowid=?", [t.isoformat() if t else None, rowid])
            db["meta"].upsert({"key": "schema_version", "value": str(SCHEMA_VERSION)}, pk="key")

    # ------------------------------------------------------------ writing

    def save_response(self, url: str, status: int, content_type: str, body: bytes) -> None:
        """Keep each distinct body of a URL once (compressed), with when it was first and last fetched."""
        sha = hashlib.sha256(body).hexdigest()
        now = _now()
        cur = self.db.execute("update responses set last_fetched=? where url=? and sha256=?", [now, url, sha])
        if cur.rowcount == 0:
            self.db.execute("insert into responses (url, status, content_type, sha256, size, body, first_fetched, "
                            "last_fetched) values (?, ?, ?, ?, ?, ?, ?, ?)",
                            [url, status, content_type, sha, len(body), zlib.compress(body, 6), now, now])

    def save_posts(self, posts: Iterable[Post], source: str) -> tuple[int, int]:
        """Upsert posts; changed words become a new revision. Returns (new, changed).

        An API read never overwrites a page read with the same words: the API drops font sizes
        and the edit marker, so it refines only the time (to the second) and when it was seen."""
        now = _now()
        new = changed = 0
        posts = list(posts)
        olds, lasts = self._stored_states([p.pid for p in posts])
        # an API read of floors already read from pages only touches times: one statement each
        timed: list[tuple] = []
        seen: list[tuple] = []
        seen_revs: list[tuple] = []
        for p in posts:
            key = _revision_key(p)
            old = olds.get(p.pid)
            last = lasts.get(p.pid)
            same = last is not None and last[1] == key
            if old is not None and same and source == "api" and old[4] == "html":
                at = p.posted_at.isoformat() if p.posted_at else None
                # the API's epoch is exact whatever zone the pages were shown in: it wins
                if p.time_precision == "second" and at is not None and (old[2] != "second" or old[3] != at):
                    timed.append((at, "second", p.pid))
                    olds[p.pid] = (old[0], old[1], "second", at, old[4])
                seen.append((now, p.pid))
                seen_revs.append((now, p.pid, last[0]))
                continue
            row = p.to_row()
            for k in ("quotes", "colors", "sizes", "links"):
                row[k] = json.dumps(row[k], ensure_ascii=False)
            row["reply_to"] = json.dumps(row["reply_to"], ensure_ascii=False) if row["reply_to"] else None
            row["source"] = source
            if old is None:
                new += 1
                rev = 1
                row.update(first_seen=now)
            else:
                rev = old[0] if same else (last[0] + 1 if last else 1)
                changed += 0 if same else 1
                row.update(first_seen=old[1])
                if old[2] == "second" and p.time_precision != "second":
                    row["posted_at"], row["time_precision"] = old[3], old[2]
            row.update(revision=rev, last_seen=now, gone_at=None)
            _upsert(self.db.conn, "posts", row, ("pid",))
            olds[p.pid] = (rev, row["first_seen"], row["time_precision"], row["posted_at"], source)
            lasts[p.pid] = (rev, key)
            if same:  # the API has no edit marker: a page read of the same words brings its time
                self.db.execute("update revisions set last_seen=?, edited_at=coalesce(edited_at, ?) where pid=? and rev=?",
                                [now, p.edit.at.isoformat() if p.edit and p.edit.at else None, p.pid, rev])
            else:
                self.db.execute("insert or replace into revisions (pid, rev, key, text, message_html, hidden, "
                                "edited_at, first_seen, last_seen) values (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                [p.pid, rev, key, p.text, p.message_html, int(p.hidden),
                                 p.edit.at.isoformat() if p.edit and p.edit.at else None, now, now])
        conn = self.db.conn
        self._remember_members(posts, now)
        conn.executemany("update posts set posted_at=?, time_precision=? where pid=?", timed)
        conn.executemany("update posts set last_seen=?, gone_at=null where pid=?", seen)
        conn.executemany("update revisions set last_seen=? where pid=? and rev=?", seen_revs)
        return new, changed

    def _remember_members(self, posts: list[Post], now: str) -> None:
        """Every (uid, name) a post was seen under. Discuz rewrites the author of every old post when
        an administrator renames a member (用户改名), so this table is the only memory that a role
        account once had its roster name."""
        pairs = {(p.uid, p.author) for p in posts if p.uid and p.author}
        if not pairs:
            return
        self.db.execute("create table if not exists members (uid integer, name text, first_seen text, last_seen text, "
                        "primary key (uid, name))")
        self.db.conn.executemany("insert into members (uid, name, first_seen, last_seen) values (?, ?, ?, ?) "
                                 "on conflict (uid, name) do update set last_seen = excluded.last_seen",
                                 [(uid, name, now, now) for uid, name in pairs])

    def member_names(self) -> dict[int, list[str]]:
        """uid → every name its posts were seen under, oldest first ({} before any scan saved one)."""
        if not self.db["members"].exists():
            return {}
        out: dict[int, list[str]] = {}
        for uid, name in self.db.execute("select uid, name from members order by uid, first_seen, name").fetchall():
            out.setdefault(uid, []).append(name)
        return out

    def _stored_states(self, pids: list[int]) -> tuple[dict[int, tuple], dict[int, tuple[int, str]]]:
        """For the posts of one page, in a few queries rather than two per post: pid → (revision,
        first_seen, time_precision, posted_at, source) of the stored post, and pid → (rev, key)
        of its latest revision."""
        olds: dict[int, tuple] = {}
        lasts: dict[int, tuple[int, str]] = {}
        unique = list(dict.fromkeys(pids))
        for i in range(0, len(unique), 500):
            chunk = unique[i:i + 500]
            marks = ", ".join("?" for _ in chunk)
            for pid, *rest in self.db.execute(
                    f"select pid, revision, first_seen, time_precision, posted_at, source from posts "
                    f"where pid in ({marks})", chunk):
                olds[pid] = tuple(rest)
            # SQLite takes the bare columns of a max() aggregate from the row holding the max
            for pid, rev, key in self.db.execute(
                    f"select pid, max(rev), key from revisions where pid in ({marks}) group by pid", chunk):
                lasts[pid] = (rev, key)
        return olds, lasts

    def save_page(self, url: str, status: int, content_type: str, body: bytes, page: ThreadPage,
                  source: str) -> tuple[int, int]:
        """A fetched page: its raw response, its posts and its place, in one transaction."""
        with self.transaction():
            self.save_response(url, status, content_type, body)
            counts = self.save_posts(page.posts, source)
            floors = [p.floor for p in page.posts]
            _upsert(self.db.conn, "pages", {"tid": page.tid, "page": page.page, "source": source,
                                            "first_floor": min(floors) if floors else None,
                                            "last_floor": max(floors) if floors else None, "posts": len(floors),
                                            "fetched_at": _now()}, ("tid", "page", "source"))
        return counts

    def mark_gone(self, pids: Iterable[int]) -> int:
        """Posts the forum no longer shows: kept, with when they went."""
        now = _now()
        n = 0
        for pid in pids:
            n += self.db.execute("update posts set gone_at=? where pid=? and gone_at is null", [now, pid]).rowcount
        return n

    def set_floors(self, floors: dict[int, int]) -> None:
        """pid → floor from the API's positions (stable across deletions, unlike page numbering)."""
        with self.transaction():
            self.db.conn.executemany("update posts set floor=? where pid=? and floor<>?",
                                     [(f, pid, f) for pid, f in floors.items()])

    def set_thread(self, **fields: Any) -> None:
        fields.setdefault("scanned_at", _now())
        self.db["threads"].upsert(fields, pk="tid", alter=True)

    def transaction(self) -> "_Tx":
        return _Tx(self.db.conn)

    # ------------------------------------------------------------ reading

    def stored_floors(self, tid: int) -> int:
        """How many of the thread's floors the store holds and the forum still shows (not gone)."""
        return int(self.db.execute("select count(*) from posts where tid=? and gone_at is null", [tid]).fetchone()[0])

    def thread(self, tid: int) -> dict[str, Any] | None:
        rows = list(self.db["threads"].rows_where("tid = ?", [tid]))
        return rows[0] if rows else None

    def posts(self, tid: int | None = None, *, include_gone: bool = False) -> list[Post]:
        where, args = [], []
        if tid is not None:
            where.append("tid = ?")
            args.append(tid)
        if not include_gone:
            where.append("gone_at is null")
        rows = self.db["posts"].rows_where(" and ".join(where) or None, args, order_by="tid, floor")
        return [Post.from_row(r) for r in rows]

    def floors(self, tid: int) -> dict[int, int]:
        """floor → pid of the stored, not gone posts of a thread."""
        return {f: p for f, p in self.db.execute(
            "select floor, pid from posts where tid=? and gone_at is null", [tid]).fetchall()}

    def post_keys(self, tid: int) -> dict[int, tuple[int, str, int]]:
        """pid → (floor, text, hidden) of the stored posts of a thread, for change detection."""
        return {pid: (fl, tx or "", hid) for pid, fl, tx, hid in self.db.execute(
            "select pid, floor, text, hidden from posts where tid=? and gone_at is null", [tid]).fetchall()}

    def revisions(self, pids: Iterable[int] | None = None) -> dict[int, list[tuple[datetime, str]]]:
        """pid → [(when, text), …] of every stored revision, oldest first. `when` is when the words
        were first seen, except that a later revision carrying the forum's edit marker is dated by
        the marker (本帖最后由 X 于 T 编辑): the edit happened then, whenever a scan saw it."""
        out: dict[int, list[tuple[datetime, str]]] = {}
        q = "select pid, first_seen, text, edited_at from revisions order by pid, rev"
        for pid, seen, text, edited in self.db.execute(q).fetchall():
            when = datetime.fromisoformat(seen)
            revs = out.setdefault(pid, [])
            if revs and edited:
                try:
                    at = datetime.fromisoformat(edited)
                    if at.tzinfo is not None:
                        when = max(revs[-1][0], min(when, at))  # the marker shows minutes: keep the order
                except ValueError:
                    pass
            revs.append((when, text or ""))
        if pids is not None:
            keep = set(pids)
            out = {k: v for k, v in out.items() if k in keep}
        return out

    def scan_started(self) -> int:
        return self.db["scans"].insert({"started_at": _now(), "status": "running"}).last_pk

    def scan_finished(self, scan_id: int, status: str, **fields: Any) -> None:
        self.db["scans"].update(scan_id, {"finished_at": _now(), "status": status, **fields}, alter=True)


def _reason(e: BaseException) -> str:
    """An OS or SQLite error as a director reads it (a read-only or full disk says so)."""
    if isinstance(e, OSError):
        return e.strerror or str(e)
    text = str(e)
    if "readonly" in text or "read-only" in text or "unable to open" in text:
        return f"{text} (is the file or its folder read-only? daoyan needs to write the store)"
    return text


def _upsert(conn: sqlite3.Connection, table: str, row: dict[str, Any], pk: tuple[str, ...]) -> None:
    """sqlite_utils' `upsert` (insert, or update the given columns of the existing row) as one
    statement: its per-call table introspection cost more than the rest of a page's save."""
    cols = list(row)
    sets = ", ".join(f"[{c}] = excluded.[{c}]" for c in cols if c not in pk)
    conn.execute(f"insert into [{table}] ({', '.join(f'[{c}]' for c in cols)}) values "
                 f"({', '.join('?' for _ in cols)}) on conflict ({', '.join(pk)}) do "
                 + (f"update set {sets}" if sets else "nothing"),
                 [row[c] for c in cols])


class _Tx:
    """`with store.transaction():` — BEGIN IMMEDIATE … COMMIT, rolled back on any error."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("begin immediate")

    def __exit__(self, exc_type: Any, *rest: Any) -> None:
        if exc_type is None:
            self.conn.execute("commit")
        else:
            self.conn.execute("rollback")


def _card_key(e: object) -> str:
    g = lambda k: getattr(e, k, None)  # noqa: E731
    return "|".join(str(x) for x in (g("source"), g("day"), g("player"), g("card"), g("rule"), g("pid")))


def sync_cards(store: Store, entries: list) -> int:
    """The card ledger in the store: exactly the entries given (lurking, accepted flags, manual),
    each with its reason and floor; rows are replaced in one transaction."""
    now = _now()
    with store.transaction():
        store.db.execute("delete from cards")
        for e in entries:
            store.db["cards"].insert({"key": _card_key(e), "day": e.day, "player": e.player, "card": e.card,
                                      "rule": e.rule, "reason": e.reason, "source": e.source, "pid": e.pid,
                                      "floor": e.floor, "created_at": now}, ignore=True)
    return len(entries)


def decide_flag(store: Store, flag_id: str, *, day: int, pid: int, category: str, state: str, card: str | None,
                note: str | None) -> None:
    """Record the director's decision on a flag; re-scans never touch it."""
    store.db["decisions"].upsert({"flag_id": flag_id, "day": day, "pid": pid, "category": category, "state": state,
                                  "card": card, "note": note, "decided_at": _now()}, pk="flag_id")
