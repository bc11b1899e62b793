"""A scan recorded with vcrpy replays offline into the same store: the cassette is the forum."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import vcr

from daoyan.demo.gamefile import write_game_file
from daoyan.demo.server import DemoForum
from gamedef.gamefile import load_game
from daoyan.scan import scan_game


def _table(db: Path) -> list[tuple]:
    con = sqlite3.connect(db)
    try:
        return con.execute("select pid, tid, floor, author, posted_at, text from posts order by pid").fetchall()
    finally:
        con.close()


def test_scan_from_a_cassette_gives_the_same_store(tmp_path: Path) -> None:
    cassette = tmp_path / "scan.yaml"
    rec = vcr.VCR(record_mode="all", match_on=["method", "path", "query"])
    with DemoForum() as forum:
        live = write_game_file(tmp_path / "live" / "game.toml", forum.base_url)
        with rec.use_cassette(str(cassette)):
            scan_game(load_game(live))
        base = forum.base_url
    assert cassette.stat().st_size > 0
    # the forum is gone: the same scan now comes from the cassette alone
    off = write_game_file(tmp_path / "offline" / "game.toml", base)
    play = vcr.VCR(record_mode="none", match_on=["method", "path", "query"])
    with play.use_cassette(str(cassette)):
        scan_game(load_game(off))
    assert _table(tmp_path / "offline" / "game.sqlite") == _table(tmp_path / "live" / "game.sqlite")
    assert len(_table(tmp_path / "live" / "game.sqlite")) > 200
