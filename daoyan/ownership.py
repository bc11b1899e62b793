"""Which game a store belongs to, and whether a day was ever scanned into it.

A store records the forum and the threads of the game that scanned into it, so a game file
pointing at another game's store (`store = "other.sqlite"`) is refused instead of counting
nobody, and `scan` never merges two games into one file. A command that reads a day whose
threads were never scanned says so instead of printing an empty count.
"""
from __future__ import annotations

import json
import sqlite3
from urllib.parse import urlsplit

from gamedef.errors import StoreError
from gamedef.gamefile import Game
from .store import Store


def forum_key(base_url: str) -> str:
    """The forum a base URL names, as recorded: scheme, lower-case host, port, path; never credentials."""
    parts = urlsplit(base_url.strip())
    host = (parts.hostname or "").lower()
    try:
        port = parts.port
    except ValueError:
        port = None
    netloc = f"[{host}]" if ":" in host else host
    if port and port != {"http": 80, "https": 443}.get(parts.scheme):
        netloc += f":{port}"
    path = parts.path if parts.path.endswith("/") else parts.path + "/"
    return f"{parts.scheme.lower()}://{netloc}{path}"


def _same_forum(a: str, b: str) -> bool:
    """Whether two recorded forums are one: a forum that moved from http to https is the same."""
    return a.split("://", 1)[-1] == b.split("://", 1)[-1]


def _meta(store: Store, key: str) -> str | None:
    row = store.db.execute("select value from meta where key=?", [key]).fetchone()
    return row[0] if row else None


def _stored_tids(store: Store) -> set[int]:
    """Threads the store holds for its game: those it recorded, those it scanned, those with posts."""
    tids: set[int] = set()
    raw = _meta(store, "game_tids")
    if raw:
        try:
            tids.update(int(t) for t in json.loads(raw))
        except (ValueError, TypeError):
            pass
    tids.update(r[0] for r in store.db.execute("select tid from threads"))
    tids.update(r[0] for r in store.db.execute("select distinct tid from posts"))
    rules = _meta(store, "rules_tid")
    if rules and rules.isdigit():
        tids.discard(int(rules))  # found on the board: the game file never names it
    return tids


def check_owner(store: Store, game: Game) -> None:
    """Refuse a store that holds another game: another forum, or none of this game's threads."""
    forum = _meta(store, "forum")
    mine = forum_key(game.forum.base_url)
    if forum is not None and not _same_forum(forum, mine):
        raise StoreError(f"{store.path}: this store belongs to a game on {forum}, not to {game.path} "
                         f"(forum {mine}); give each game its own store (`store =` in [game]), or, if the "
                         f"forum itself moved, record its new address: sqlite3 {store.path} "
                         f"\"update meta set value='{mine}' where key='forum'\"")
    held = _stored_tids(store)
    if held and not held & set(game.tids):
        name = _meta(store, "game_name")
        raise StoreError(f"{store.path}: this store holds another game{f' ({name})' if name else ''} "
                         f"(threads {', '.join(map(str, sorted(held)[:6]))}), none of the threads of "
                         f"{game.path}; give each game its own store (`store =` in [game])")


def claim(store: Store, game: Game) -> None:
    """Before a scan writes: check the owner, then record this game as the store's owner."""
    check_owner(store, game)
    tids = sorted(_stored_tids(store) | set(game.tids))
    rows = [("forum", forum_key(game.forum.base_url)), ("game_tids", json.dumps(tids))]
    if game.name:
        rows.append(("game_name", game.name))
    with store.transaction():
        store.db.conn.executemany("insert into meta (key, value) values (?, ?) "
                                  "on conflict (key) do update set value = excluded.value", rows)


def scanned_days(store: Store, game: Game) -> list[int]:
    """The days every thread of which was scanned into the store at least once."""
    done = {r[0] for r in store.db.execute("select tid from threads where complete=1")}
    return [d.number for d in game.days if all(t in done for t in d.tids.values())]


def require_scanned(store: Store, game: Game, day: int) -> None:
    """A day whose threads were never scanned cannot be counted: say so instead of counting nobody."""
    try:
        done = {r[0] for r in store.db.execute("select tid from threads where complete=1")}
    except sqlite3.DatabaseError as e:
        raise StoreError(f"{store.path}: cannot read the store: {e}") from None
    missing = [f"{role} thread {tid}" for role, tid in game.day(day).tids.items() if tid not in done]
    if missing:
        raise StoreError(f"{store.path}: day {day}'s {', '.join(missing)} never scanned into this store; "
                         f"run `daoyan scan {game.path}` first (a day with no posts read is not a day nobody posted)")
