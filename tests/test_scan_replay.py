"""`daoyan scan` over real HTTP against a replay of the genuine captures: every floor once,
incremental re-scans, and nothing lost on bad answers."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from daoyan.cli import cli
from gamedef.gamefile import load_game
from daoyan.store import Store

from .conftest import Replay, capture_game_file


def _floors(db: Path) -> list[tuple[int, int, str]]:
    con = sqlite3.connect(db)
    try:
        return con.execute("select pid, floor, author from posts order by pid").fetchall()
    finally:
        con.close()


def _truth_floors(captures: Path, build: str) -> list[tuple[int, int, str]]:
    t = json.loads((captures / build / "ground_truth.json").read_text("utf-8"))
    return sorted((f["pid"], f["floor"], f["author"]) for th in t["threads"] if th["fid"] == 2 for f in th["floors"])


def test_scan_stores_every_floor_once_and_rescans_cheaply(captures: Path, replay_utf8: Replay, tmp_path: Path) -> None:
    game = capture_game_file(captures, "x35-utf8", replay_utf8.base_url, tmp_path)
    r = CliRunner().invoke(cli, ["scan", str(game), "-q"])
    assert r.exit_code == 0, r.output
    assert _floors(tmp_path / "game.sqlite") == _truth_floors(captures, "x35-utf8")
    before = replay_utf8.stats()["requests"]
    r = CliRunner().invoke(cli, ["scan", str(game), "-q"])
    assert r.exit_code == 0, r.output
    threads = len(load_game(game).tids) + 1  # and the rules thread found on the board
    assert replay_utf8.stats()["requests"] - before <= 2 * threads
    assert "0 new, 0 changed" in r.output


def test_gbk_forum_gives_the_same_store(captures: Path, tmp_path: Path) -> None:
    rp = Replay(captures / "x35-gbk")
    try:
        game = capture_game_file(captures, "x35-gbk", rp.base_url, tmp_path)
        r = CliRunner().invoke(cli, ["scan", str(game), "-q"])
        assert r.exit_code == 0, r.output
    finally:
        rp.close()
    assert _floors(tmp_path / "game.sqlite") == _truth_floors(captures, "x35-gbk")
    with Store(tmp_path / "game.sqlite") as s:
        texts = {p.pid: p.text for p in s.posts()}
    assert texts[49] == "我对天发誓我不是齐格复制品"


def test_html_only_scan_matches(captures: Path, replay_utf8: Replay, tmp_path: Path) -> None:
    game = capture_game_file(captures, "x35-utf8", replay_utf8.base_url, tmp_path, extra='api = "never"\n')
    r = CliRunner().invoke(cli, ["scan", str(game), "-q"])
    assert r.exit_code == 0, r.output
    assert _floors(tmp_path / "game.sqlite") == _truth_floors(captures, "x35-utf8")


def test_missing_thread_is_a_clear_error_and_keeps_the_rest(captures: Path, replay_utf8: Replay, tmp_path: Path) -> None:
    game = capture_game_file(captures, "x35-utf8", replay_utf8.base_url, tmp_path)
    game.write_text(game.read_text("utf-8").replace("progress_tid = 5", "progress_tid = 9999"), "utf-8")
    r = CliRunner().invoke(cli, ["scan", str(game), "-q"])
    assert r.exit_code == 2 and "9999" in r.output and "不存在" in r.output
    assert "Traceback" not in r.output
    pids = {p for p, _, _ in _floors(tmp_path / "game.sqlite")}
    assert {125, 126, 245} <= pids  # the other threads are stored


def test_faulty_forum_still_gives_every_floor(captures: Path, tmp_path: Path) -> None:
    rp = Replay(captures / "x35-utf8", "--faults", "0.3", "--seed", "3")
    try:
        game = capture_game_file(captures, "x35-utf8", rp.base_url, tmp_path, extra="timeout = 2\nretries = 6\n")
        r = CliRunner().invoke(cli, ["scan", str(game), "-q"])
        assert r.exit_code == 0, r.output
    finally:
        rp.close()
    assert _floors(tmp_path / "game.sqlite") == _truth_floors(captures, "x35-utf8")
