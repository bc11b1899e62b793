"""Reminders on the demo game (its own forum, a real scan): before the lock, inside it, after close;
a player who goes out mid-day; everyone voted; the remind arithmetic itself."""
from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from daoyan.cli import cli
from daoyan.demo.gamefile import write_game_file
from daoyan.demo.sample import EXPECTED
from daoyan.demo.server import DemoForum
from gamedef.gamefile import load_game
from daoyan.scan import scan_game


@pytest.fixture(scope="module")
def demo_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("remind")
    with DemoForum() as forum:
        path = write_game_file(out / "game.toml", forum.base_url)
        scan_game(load_game(path))
    return path


def remind(path: Path, day: int, at: str) -> dict:
    r = CliRunner().invoke(cli, ["remind", str(path), "--day", str(day), "--at", at, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def test_before_the_lock_inside_it_and_after_close(demo_game: Path) -> None:
    d = load_game(demo_game).day(1)
    before = remind(demo_game, 1, (d.closes - timedelta(hours=3)).strftime("%Y-%m-%dT%H:%M:%S"))
    inside = remind(demo_game, 1, (d.closes - timedelta(minutes=20)).strftime("%Y-%m-%dT%H:%M:%S"))
    after = remind(demo_game, 1, (d.closes + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%S"))
    assert before["lock_in_s"] == 2 * 3600 and before["closes_in_s"] == 3 * 3600
    assert inside["lock_in_s"] == -40 * 60 and inside["closes_in_s"] == 20 * 60
    assert after["closes_in_s"] < 0
    assert after["not_voted"] == EXPECTED["days"][1]["not_voted"]
    assert {b["player"]: b["posts"] for b in after["below"]} == \
        {p: n for p, n in EXPECTED["days"][1]["posts"].items() if n < 5}
    assert set(inside["not_voted"]) <= set(before["not_voted"])
    assert all(b["needed"] == 5 - b["posts"] for b in before["below"])


def test_a_player_out_mid_day_is_no_longer_reminded(demo_game: Path, tmp_path: Path) -> None:
    g = load_game(demo_game)
    d = g.day(1)
    late = EXPECTED["days"][1]["not_voted"][0]
    text = demo_game.read_text("utf-8") + (
        f'\n[[event]]\nday = 1\nkind = "out"\nplayer = "{late}"\nat = {(d.opens + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M:%S")}\n')
    moved = tmp_path / "game.toml"
    moved.write_text(text.replace('[game]\n', f'[game]\nstore = "{g.store_path}"\n', 1), "utf-8")
    r = remind(moved, 1, (d.closes - timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M:%S"))
    assert late not in r["not_voted"]


def test_everyone_voted_reads_so() -> None:
    from engine.remind import Reminder, reminder_bbcode

    r = Reminder(day=1, at=datetime(2026, 11, 11, 20, 0), closes_in_s=7200, lock_in_s=3600, not_voted=(),
                 below=(), threshold=5)
    text = reminder_bbcode(r)
    assert "所有玩家均已投票" in text and "[b]2小时0分[/b]" in text
