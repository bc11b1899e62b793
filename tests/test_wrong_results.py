"""Mistakes that used to give a wrong count with exit 0: invisible characters in names, one
thread given two roles, a store that is empty or belongs to another game. Each now either counts
right or stops with one line and exit 2."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from daoyan.cli import cli
from daoyan.demo import DemoForum
from gamedef.errors import GameFileError
from gamedef.gamefile import parse_game
from gamedef.names import normalize_name
from daoyan.scan import scan_game
from gamedef.gamefile import load_game
from parsers.ballot import parse_ballot
from parsers.models import Post

from .reliability_support import NOW, fast_game, one_line_exit_2

PLAYERS_LINE = 'players = ["青梅", "竹马", "白露", "霜降", "小满", "芒种", "谷雨", "惊蛰", "清明", "立夏", "寒露", "大寒"]'


def run(*args: str):
    return CliRunner().invoke(cli, list(args))



@pytest.fixture(scope="module")
def scanned(tmp_path_factory):
    """The demo game scanned once; its folder."""
    folder = tmp_path_factory.mktemp("demo")
    with DemoForum(now=NOW) as forum:
        scan_game(load_game(fast_game(folder, forum.base_url)))
        yield folder, forum.base_url


# ------------------------------------------------------------------ invisible characters

@pytest.mark.parametrize("mark", ["\u200b", "\u200f", "\u202e", "\ufeff", "\u2060", "\u00ad", "\u200d"])
def test_format_characters_fold_away(mark: str) -> None:
    assert normalize_name(f"饺{mark}子") == normalize_name("饺子") == normalize_name(f"{mark}饺子{mark}")


def test_a_ballot_for_the_bare_name_counts_for_the_marked_roster_name() -> None:
    """M84: “投票对象：xxx” names a player; an invisible mark in the game file is no other player."""
    game = parse_game(GAME.replace('"饺子"', '"饺子\u200b"', 1), Path("g.toml"))
    post = Post(tid=102, pid=1, floor=2, author="包\u200f子", uid=None, posted_at=None, time_precision="second",
                message_html="", text="投票对象：饺子\n投票理由：他太安静")
    b = parse_ballot(post, game.ruleset.vote, game.players, game.directors)
    assert b is not None and not b.problems, b
    assert b.target == "饺子" and b.voter == "包子"
    assert game.players[0] == "饺子"  # the shown name carries no invisible character either


@pytest.mark.parametrize("second", ["饺\u200b子", "饺子\u200f", "ＢＯ", "b o"])
def test_roster_names_that_fold_together_are_refused(second: str) -> None:
    first = "bo" if second in ("ＢＯ", "b o") else "饺子"
    text = GAME.replace('players = ["饺子", "包子", "馄饨"]', f'players = ["{first}", "包子", "{second}"]')
    with pytest.raises(GameFileError) as e:
        parse_game(text, Path("g.toml"))
    assert e.value.field == "game.players" and repr(second) in str(e.value) and repr(first) in str(e.value)


def test_invisible_marks_in_the_game_file_change_no_count(scanned, tmp_path: Path) -> None:
    """The issue's case: 饺子\u200b in the game file cost a player six votes and two cards. Here every
    name carries a mark, and the day's votes and activity are exactly those of the clean file."""
    folder, _ = scanned
    clean = folder / "game.toml"
    text = clean.read_text("utf-8")
    marked_line = PLAYERS_LINE
    for name, mark in (("青梅", "\u200b"), ("白露", "\u200f"), ("大寒", "\u202e"), ("谷雨", "\ufeff")):
        marked_line = marked_line.replace(f'"{name}"', f'"{name}{mark}"')
    assert PLAYERS_LINE in text
    marked = tmp_path / "game.toml"
    marked.write_text(text.replace(PLAYERS_LINE, marked_line).replace(
        '[game]\n', f'[game]\nstore = "{(folder / "game.sqlite").as_posix()}"\n', 1), "utf-8")
    for day in ("1", "2"):
        for what in ("votes", "activity"):
            want = run(what, str(clean), "--day", day, "--json")
            got = run(what, str(marked), "--day", day, "--json")
            assert want.exit_code == got.exit_code == 0, got.output
            assert json.loads(got.stdout) == json.loads(want.stdout)


# ------------------------------------------------------------------ one thread, one role

GAME = """
[forum]
base_url = "http://127.0.0.1:8080/"

[game]
ruleset = "m84"
players = ["饺子", "包子", "馄饨"]

[[day]]
number = 1
discussion_tid = 101
vote_tid = 102
progress_tid = 103
opens = 2026-12-01T10:00:00
closes = 2026-12-02T22:00:00

[[day]]
number = 2
discussion_tid = 201
vote_tid = 202
opens = 2026-12-03T10:00:00
closes = 2026-12-04T22:00:00
"""


@pytest.mark.parametrize("change,field,other", [
    (("vote_tid = 202", "vote_tid = 102"), "day[1].vote_tid", "day[0].vote_tid"),
    (("vote_tid = 102", "vote_tid = 101"), "day[0].vote_tid", "day[0].discussion_tid"),
    (("progress_tid = 103", "progress_tid = 201"), "day[1].discussion_tid", "day[0].progress_tid"),
])
def test_one_thread_for_two_roles_is_refused(change, field: str, other: str) -> None:
    text = GAME.replace(*change)
    assert text != GAME
    with pytest.raises(GameFileError) as e:
        parse_game(text, Path("g.toml"))
    assert e.value.field == field and other in str(e.value)


# ------------------------------------------------------------------ whose store is it


def _game_with_store(folder: Path, tmp_path: Path, store: Path, *, tids: tuple[int, int] | None = None,
                     base_url: str | None = None) -> Path:
    text = (folder / "game.toml").read_text("utf-8")
    text = text.replace('[game]\n', f'[game]\nstore = "{store.as_posix()}"\n', 1)
    if tids:
        for old, new in zip((21, 22, 23, 24, 31, 32), range(tids[0], tids[1])):
            text = text.replace(f"_tid = {old}\n", f"_tid = {new}\n")
    if base_url:
        text = text.replace('base_url = "', f'base_url = "{base_url}" #', 1)
    p = tmp_path / "other.toml"
    p.write_text(text, "utf-8")
    return p


@pytest.mark.parametrize("command", [["votes", "--day", "1"], ["activity", "--day", "2"], ["cards"],
                                     ["report", "--day", "1"], ["check", "--day", "1"]])
def test_an_empty_store_says_never_scanned(scanned, tmp_path: Path, command: list[str]) -> None:
    folder, _ = scanned
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    game = _game_with_store(folder, tmp_path, empty)
    r = run(command[0], str(game), *command[1:])
    err = one_line_exit_2(r)
    assert "never scanned" in err, err
    assert not (tmp_path / "reports").exists()


def test_a_day_not_yet_scanned_says_so(scanned, tmp_path: Path) -> None:
    """Day 2 added to the game file after the last scan: its count is refused, day 1's still works."""
    folder, _ = scanned
    store = tmp_path / "s.sqlite"
    shutil.copy(folder / "game.sqlite", store)
    game = _game_with_store(folder, tmp_path, store)
    text = game.read_text("utf-8").replace("discussion_tid = 31", "discussion_tid = 41")
    game.write_text(text, "utf-8")
    assert run("votes", str(game), "--day", "1", "--json").exit_code == 0
    err = one_line_exit_2(run("votes", str(game), "--day", "2"))
    assert "day 2" in err and "41" in err and "never scanned" in err


def test_the_store_of_another_game_is_refused(scanned, tmp_path: Path) -> None:
    """Another game's threads (or another forum) in the store: no count, and no scan into it."""
    folder, base_url = scanned
    store = tmp_path / "s.sqlite"
    shutil.copy(folder / "game.sqlite", store)
    before = store.read_bytes()
    other = _game_with_store(folder, tmp_path, store, tids=(61, 67))
    for args in (["votes", str(other), "--day", "1"], ["cards", str(other)], ["scan", str(other)]):
        err = one_line_exit_2(run(*args))
        assert "another game" in err, err
    elsewhere = _game_with_store(folder, tmp_path, store, base_url="http://forum.example.org/")
    for args in (["votes", str(elsewhere), "--day", "1"], ["scan", str(elsewhere)]):
        err = one_line_exit_2(run(*args))
        assert "belongs to a game on " + base_url in err, err
    import sqlite3
    con = sqlite3.connect(store)
    try:
        assert {r[0] for r in con.execute("select distinct tid from posts")}.isdisjoint(range(61, 67))
        assert con.execute("select value from meta where key='forum'").fetchone() == (base_url,)
    finally:
        con.close()
    assert len(before) > 0


def test_a_forum_that_moved_keeps_its_store(scanned, tmp_path: Path) -> None:
    """The same forum over https, or at a new address the director records, is no other game."""
    import sqlite3

    folder, base_url = scanned
    store = tmp_path / "s.sqlite"
    shutil.copy(folder / "game.sqlite", store)
    https = _game_with_store(folder, tmp_path, store, base_url=base_url.replace("http://", "https://"))
    assert run("votes", str(https), "--day", "1", "--json").exit_code == 0
    moved = _game_with_store(folder, tmp_path, store, base_url="http://bbs.new-home.example/")
    err = one_line_exit_2(run("votes", str(moved), "--day", "1"))
    update = err.split("sqlite3 ", 1)[1].split(" ", 1)[1].strip().strip('"')
    con = sqlite3.connect(store)
    con.execute(update)
    con.commit()
    con.close()
    assert run("votes", str(moved), "--day", "1", "--json").exit_code == 0
