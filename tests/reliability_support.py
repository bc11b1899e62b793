"""Shared by the reliability, crash, secrets and hostile-content tests: a fast game file for a
running demo forum, and the floors the store holds compared with the floors the forum shows."""
from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

from daoyan.demo.gamefile import write_game_file
from daoyan.demo.sample import TZ

NOW = datetime(2026, 11, 14, 12, 0, tzinfo=TZ)
RULES_TID = 11  # found on the board by the scanner: its floors are stored too

Floor = tuple[int, int, str]  # (floor, pid, author)


def fast_game(folder: Path, base_url: str, *, extra: str = "", login_env: tuple[str, str] | None = None,
              login_extra: str = "", sample=None) -> Path:
    """The demo game file with test politeness: many requests a second, a 2 s timeout, retries."""
    p = write_game_file(folder / "game.toml", base_url, sample, login_env=login_env)
    text = p.read_text("utf-8")
    text = text.replace("[forum]\n", "[forum]\nrate = 500\nconnections = 4\ntimeout = 2\nretries = 6\n" + extra, 1)
    if login_extra:
        text = text.replace("[forum.login]\n", "[forum.login]\n" + login_extra, 1)
    p.write_text(text, "utf-8")
    return p


def forum_floors(forum, tids) -> dict[int, list[Floor]]:
    """What the forum shows now, thread by thread, in floor order."""
    with forum._lock:
        return {tid: [(p.position, p.pid, p.author) for p in forum.sample.threads[tid].posts] for tid in tids}


def stored_floors(db: Path, tids=None, *, include_gone: bool = False) -> dict[int, list[Floor]]:
    """The store's floors (not gone ones unless asked), thread by thread, in floor order."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = con.execute("select tid, floor, pid, author from posts"
                           + ("" if include_gone else " where gone_at is null") + " order by tid, floor, pid").fetchall()
    finally:
        con.close()
    out: dict[int, list[Floor]] = {}
    for tid, floor, pid, author in rows:
        if tids is None or tid in tids:
            out.setdefault(tid, []).append((floor, pid, author))
    return out


def posts_table(db: Path) -> list[tuple]:
    """The posts a director reads, in a comparable form."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return con.execute("select pid, tid, floor, author, text, posted_at, hidden, gone_at is null "
                           "from posts order by pid").fetchall()
    finally:
        con.close()


def game_tids(forum) -> list[int]:
    s = forum.sample
    tids: list[int] = []
    for d in s.days:
        for t in (d.discussion_tid, d.vote_tid, d.progress_tid, d.election_tid):
            if t and t not in tids:
                tids.append(t)
    return tids + [RULES_TID]


def one_line_exit_2(r) -> str:
    """A CliRunner result that failed the way a director should see it: one line, exit 2, no traceback."""
    assert r.exit_code == 2, (r.exit_code, r.output, r.exception)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    err = r.stderr.strip()
    assert err.startswith("daoyan: ") and "\n" not in err and "Traceback" not in r.output, err
    return err


def scanned_demo(folder: Path) -> Path:
    """The demo game scanned once after both days closed (its game file; the store beside it)."""
    from daoyan.demo.server import DemoForum
    from daoyan.scan import scan_game
    from gamedef.gamefile import load_game

    with DemoForum() as forum:
        path = fast_game(folder, forum.base_url)
        scan_game(load_game(path))
    return path


def game_variant(scanned: Path, folder: Path, edit) -> Path:  # type: ignore[no-untyped-def]
    """A copy of a scanned game's file (and its store) in `folder`, its text changed by `edit`."""
    import shutil

    shutil.copy(scanned.with_suffix(".sqlite"), folder / "game.sqlite")
    p = folder / "game.toml"
    p.write_text(edit(scanned.read_text("utf-8")), "utf-8")
    return p
