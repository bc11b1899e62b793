"""Stranger director 5, item 3: `[game] aliases`, another forum name of a player's account.

GLOSSARY: the forum username of a role account is the player's name in the game. When the forum
renames the account before daoyan first scans it, or the director lets a player post from a second
account, the director says so in the game file and the posts and ballots count for the player.
The rule that makes a second account the director's to allow: M84 违规判定 7(3) 非法尝试登录其他角色 …
的帐号 / 004 违规判定 10(1) 禁止两名或多名玩家使用同一账号 … 交替发言或投票 (one player, one account —
unless the director says otherwise: M84 游戏过程中，除非导演同意，否则禁止以下行为).
"""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

from daoyan.analysis import as_roster
from daoyan.cli import cli
from daoyan.demo.server import DemoForum
from daoyan.scan import scan_game
from engine.state import DayState
from engine.votes import count_votes
from gamedef.errors import GameFileError
from gamedef.gamefile import Day, load_game, parse_game
from gamedef.ruleset import load_ruleset
from parsers.models import Post

from .reliability_support import fast_game

GLOSSARY = "GLOSSARY: the forum username of a role account is the player's name in the game"
M84_DIRECTOR = "M84 违规判定: 游戏过程中，除非导演同意，否则禁止以下行为"

GOOD = """
[forum]
base_url = "http://127.0.0.1:8080/"

[game]
ruleset = "m84"
players = ["饺子", "包子", "馄饨"]
directors = ["导演A"]

[[day]]
number = 1
discussion_tid = 101
vote_tid = 102
opens = 2026-12-01T10:00:00
closes = 2026-12-02T22:00:00
"""


def with_aliases(line: str) -> str:
    return GOOD.replace('directors = ["导演A"]\n', f'directors = ["导演A"]\n{line}\n')


# (the aliases line, the words of the error) — each refused with one message naming game.aliases
BAD = [
    ('aliases = { "烧卖" = ["烧卖2"] }', "unknown player '烧卖'"),
    ('aliases = { "包子" = ["饺子"] }', "is the player '饺子'"),
    ('aliases = { "包子" = ["导演A"] }', "is the director '导演A'"),
    ('aliases = { "包子" = ["包子"] }', "is the player '包子'"),
    ('aliases = { "包子" = ["小号", "小号"] }', "listed twice"),
    ('aliases = { "包子" = ["小号"], "馄饨" = ["小号"] }', "already an alias of '包子'"),
    ('aliases = { "包子" = ["小号"], "馄饨" = ["ｓｈｏｕ 号"] }', None),  # different names: fine
    ('aliases = { "包子" = ["Xiao"], "馄饨" = ["xiao"] }', "already an alias of '包子'"),  # case set aside
    ('aliases = { "包子" = [] }', "expected a forum name or a list"),
    ('aliases = { "包子" = [3] }', "expected a forum username"),
    ('aliases = { "包子" = 3 }', "expected a forum name or a list"),
    ('aliases = ["包子新名"]', "expected a table"),
]


@pytest.mark.parametrize("line, words", BAD)
def test_aliases_are_checked(tmp_path: Path, line: str, words: str | None) -> None:
    text = with_aliases(line)
    if words is None:
        assert parse_game(text, tmp_path / "game.toml").aliases
        return
    with pytest.raises(GameFileError) as e:
        parse_game(text, tmp_path / "game.toml")
    assert "game.aliases" in str(e.value) and words in str(e.value), str(e.value)


@pytest.mark.parametrize("line, words", [b for b in BAD if b[1] is not None][:3])
def test_a_bad_alias_is_exit_two_with_one_line(tmp_path: Path, line: str, words: str) -> None:
    p = tmp_path / "game.toml"
    p.write_text(with_aliases(line), "utf-8")
    r = CliRunner().invoke(cli, ["votes", str(p), "--day", "1"])
    assert r.exit_code == 2 and words in r.output and "Traceback" not in r.output, r.output


def test_an_old_game_file_loads_with_no_aliases(tmp_path: Path) -> None:
    """DESIGN.md: a game file with only the contract's fields must work."""
    g = parse_game(GOOD, tmp_path / "game.toml")
    assert g.aliases == {} and g.alias_names() == {}


def test_one_name_or_several(tmp_path: Path) -> None:
    g = parse_game(with_aliases('aliases = { "包子" = "包子小号", "馄饨" = ["馄饨新名", "馄饨2"] }'), tmp_path / "g.toml")
    assert g.aliases == {"包子": ("包子小号",), "馄饨": ("馄饨新名", "馄饨2")}
    assert g.alias_names()["馄饨2"] == "馄饨"


# ------------------------------------------------------------------------------------------------ engine

TZ = timezone(timedelta(hours=8))
PLAYERS = ("饺子", "包子", "馄饨")
DAY = Day(number=1, discussion_tid=101, vote_tid=102, opens=datetime(2026, 12, 1, 10, tzinfo=TZ),
          closes=datetime(2026, 12, 2, 22, tzinfo=TZ))


def vote(floor: int, author: str, target: str) -> Post:
    text = f"投票对象：{target}\n投票理由：x"
    return Post(tid=102, pid=floor, floor=floor, author=author, uid=None, posted_at=DAY.opens + timedelta(hours=floor),
                time_precision="second", message_html=text, text=text)


@pytest.mark.parametrize("posts, tally, rule", [
    # the alias votes: the ballot is 包子's
    ([vote(2, "包子小号", "饺子")], {"饺子": ("包子",)}, M84_DIRECTOR),
    # a ballot naming the alias as its target is a vote for the player
    ([vote(2, "饺子", "包子小号")], {"包子": ("饺子",)}, GLOSSARY),
    # the player votes from the roster account, then the alias votes again: one player, one vote (限投一票)
    ([vote(2, "包子", "饺子"), vote(3, "包子小号", "馄饨")], {"饺子": ("包子",)}, "M84 投票规则：每名存活角色每个讨论日限投一票"),
])
def test_the_count_reads_an_alias_as_its_player(posts, tally, rule):
    st = DayState(day=1, at=DAY.opens, players=PLAYERS, living=PLAYERS, out=(), priest=None, whistled=(), excused=(),
                  accelerated_event=False, directors=("导演A",), aliases=(("包子小号", "包子"),))
    c = count_votes(posts, rules=load_ruleset("m84"), day=DAY, state=st)
    assert {e.target: e.voters for e in c.tally} == tally, rule
    assert all(b.voter in PLAYERS for b in c.ballots), rule


def test_posts_under_an_alias_are_the_player_s():
    posts = [vote(2, "包子小号", "饺子"), vote(3, "路人", "饺子")]
    mapped = as_roster(posts, {}, {"包子小号": "包子"})
    assert [p.author for p in mapped] == ["包子", "路人"]


# ---------------------------------------------------------------------------------------- the whole tool

def _json(*args) -> dict:
    r = CliRunner().invoke(cli, [str(a) for a in args] + ["--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def renamed(tmp_path_factory) -> tuple[Path, Path]:
    """The demo game scanned twice: as is, and with 青梅 renamed 青梅酒 before the first scan."""
    plain, moved = tmp_path_factory.mktemp("plain"), tmp_path_factory.mktemp("moved")
    with DemoForum() as forum:
        a = fast_game(plain, forum.base_url)
        scan_game(load_game(a))
    with DemoForum() as forum:
        forum.rename_member("青梅", "青梅酒")
        b = fast_game(moved, forum.base_url)
        scan_game(load_game(b))
    return a, b


def test_the_warning_says_to_add_an_alias(renamed):
    _, moved = renamed
    (w,) = [w for w in _json("votes", moved, "--day", "1")["warnings"] if w["kind"] == "unknown_account"]
    assert "aliases" in w["message"] and '"青梅" = ["青梅酒"]' in w["message"], GLOSSARY


def test_with_the_alias_written_the_counts_are_those_of_the_unrenamed_forum(renamed):
    plain, moved = renamed
    text = moved.read_text("utf-8")
    moved.write_text(text.replace("[game]\n", '[game]\naliases = { "青梅" = ["青梅酒"] }\n', 1), "utf-8")
    try:
        for command in ("votes", "activity"):
            got, want = _json(command, moved, "--day", "1"), _json(command, plain, "--day", "1")
            assert not [w for w in got.get("warnings", []) if w["kind"] in ("unknown_account", "renamed_account")]
            if command == "votes":
                assert got["tally"] == want["tally"] and got["not_voted"] == want["not_voted"], GLOSSARY
                assert any(b["voter"] == "青梅" and b["counted"] for b in got["ballots"]), GLOSSARY
            else:
                assert got["players"] == want["players"] and got["penalties"] == want["penalties"], GLOSSARY
        flags = _json("check", moved, "--day", "1")["flags"]
        assert not any(f.get("author") == "青梅酒" for f in flags)
    finally:
        moved.write_text(text, "utf-8")


def test_the_table_form_reads_the_same(tmp_path: Path) -> None:
    g = parse_game(with_aliases('[game.aliases]\n"包子" = ["包子小号"]'), tmp_path / "game.toml")
    assert g.aliases == {"包子": ("包子小号",)}


def test_an_alias_written_the_other_way_round_is_named(tmp_path: Path) -> None:
    with pytest.raises(GameFileError) as e:
        parse_game(with_aliases('aliases = { "包子小号" = ["包子"] }'), tmp_path / "game.toml")
    assert "unknown player '包子小号'" in str(e.value) and '"包子" = ["包子小号"]' in str(e.value)
