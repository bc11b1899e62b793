"""`daoyan init` over real HTTP against a replay of the genuine X3.5 captures: from a thread, a
board or the forum root to the game file the captures' own game.toml describes, every value
commented; a re-run keeps the director's edits and adds only what is new."""
from __future__ import annotations

import tomllib
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

from daoyan.cli import cli
from gamedef.gamefile import load_game
from daoyan.init import guess_close, split_url
from gamedef.ruleset import ScheduleRules
from parsers.board import parse_board_page, parse_index_boards
from parsers.game_threads import announcements, classify, close_time_in

from .conftest import Replay


def _init(url: str, out: Path, *extra: str):
    return CliRunner().invoke(cli, ["init", url, "--out", str(out), *extra], catch_exceptions=False)


def _truth_game(captures: Path) -> dict:
    return tomllib.loads((captures / "x35-utf8" / "game.toml").read_text("utf-8"))


@pytest.mark.parametrize("where", ["forum.php?mod=viewthread&tid=4", "forum.php?mod=forumdisplay&fid=2", ""])
def test_init_finds_the_game_the_captures_hold(captures: Path, replay_utf8: Replay, tmp_path: Path, where: str) -> None:
    out = tmp_path / "game.toml"
    r = _init(replay_utf8.base_url + where, out)
    assert r.exit_code == 0, r.output
    g = load_game(out)  # a game file the loader takes as it is
    truth = _truth_game(captures)
    assert [(d.number, d.discussion_tid, d.vote_tid, d.progress_tid, d.election_tid) for d in g.days] == \
        [(d["number"], d["discussion_tid"], d["vote_tid"], d.get("progress_tid"), d.get("election_tid")) for d in truth["day"]]
    # opens: floor 1 of the discussion thread; closes: 关门时间 11月27日 22:00 in that floor
    assert [(d.opens.replace(tzinfo=None), d.closes.replace(tzinfo=None)) for d in g.days] == \
        [(d["opens"], d["closes"]) for d in truth["day"]]
    assert sorted(g.players) == sorted(truth["game"]["players"])
    assert g.directors == ("导演A",)  # 导演B opened no thread of the board (only the hidden one)
    assert g.rules_tid == 1 and g.ruleset.name == "m84"
    text = out.read_text("utf-8")
    for line in text.splitlines():
        if "=" in line and not line.startswith("#") and not line.startswith("["):
            assert " # " in line, f"no source on {line!r}"
    assert "「第一天讨论帖开门，关门时间 11月27日 22:00」" in text or "关门时间 11月27日 22:00" in text


def test_announced_events_are_commented_suggestions(captures: Path, replay_utf8: Replay, tmp_path: Path) -> None:
    out = tmp_path / "game.toml"
    _init(replay_utf8.base_url + "forum.php?mod=forumdisplay&fid=2", out)
    text = out.read_text("utf-8")
    assert "[[event]]" not in [ln.strip() for ln in text.splitlines()]  # suggestions only, never in force
    events = _uncomment_all(text)
    truth = _truth_game(captures)["event"]
    assert [(e["day"], e["kind"], e["player"], e.get("reason")) for e in events] == \
        [(e["day"], e["kind"], e["player"], e.get("reason")) for e in truth]
    assert "(tid 7 floor 1, 导演A" in text


def _uncomment_all(text: str) -> list[dict]:
    blocks, cur = [], None
    for line in text.splitlines():
        if line.startswith("# [[event]]"):
            cur = []
            blocks.append(cur)
        elif cur is not None and line.startswith("# ") and "=" in line:
            cur.append(line[2:])
        else:
            cur = None
    return [tomllib.loads("\n".join(b)) for b in blocks]


def test_rerun_keeps_edits_and_adds_what_is_new(replay_utf8: Replay, tmp_path: Path) -> None:
    out = tmp_path / "game.toml"
    _init(replay_utf8.base_url, out)
    text = out.read_text("utf-8")
    # the director: drops day 2 (as if it had not opened yet), confirms the roster by hand, takes one suggestion
    head, _, rest = text.partition("[[day]]\nnumber = 2")
    tail = rest[rest.index("\n# suggested"):]
    edited = head.replace('players = [', '# 12 confirmed at sign-up\nplayers = [') + tail
    edited = edited.replace('# [[event]]\n# day = 2\n# kind = "out"\n# player = "包子"',
                            '[[event]]\nday = 2\nkind = "out"\nplayer = "包子"', 1)
    edited = edited.replace('# reason = "vote"', 'reason = "vote"', 1)
    out.write_text(edited, "utf-8")
    load_game(out)
    r = _init(replay_utf8.base_url, out)
    assert r.exit_code == 0, r.output
    again = out.read_text("utf-8")
    assert "# 12 confirmed at sign-up" in again  # the director's own lines stay
    g = load_game(out)
    assert [d.number for d in g.days] == [1, 2]  # day 2 is back
    assert [(e.kind, e.player) for e in g.events] == [("out", "包子")]
    assert again.count("suggested: day=2 kind=out player=包子") == 1  # taken, not suggested again
    assert again.count("suggested: day=2 kind=priest player=饺子") == 1  # not duplicated
    r = _init(replay_utf8.base_url, out)
    assert "nothing new" in r.output and out.read_text("utf-8") == again


def test_private_board_asks_for_a_login(captures: Path, tmp_path: Path) -> None:
    rp = Replay(captures / "x35-utf8")
    try:
        r = CliRunner().invoke(cli, ["init", rp.base_url + "forum.php?mod=forumdisplay&fid=3", "--out",
                                     str(tmp_path / "g.toml")])
    finally:
        rp.close()
    assert r.exit_code == 2 and "没有权限" in r.output and "--user" in r.output
    assert not (tmp_path / "g.toml").exists()


@pytest.mark.parametrize("url", ["not a url", "ftp://x/", "http://127.0.0.1:9/forum.php?mod=forumdisplay&fid=2"])
def test_bad_addresses_exit_2(url: str, tmp_path: Path) -> None:
    r = CliRunner().invoke(cli, ["init", url, "--out", str(tmp_path / "g.toml")])
    assert r.exit_code == 2 and "Traceback" not in r.output


def test_broken_existing_file_is_not_overwritten(replay_utf8: Replay, tmp_path: Path) -> None:
    out = tmp_path / "game.toml"
    out.write_text("[game\nbroken", "utf-8")
    r = CliRunner().invoke(cli, ["init", replay_utf8.base_url, "--out", str(out)])
    assert r.exit_code == 2 and "not valid TOML" in r.output
    assert out.read_text("utf-8") == "[game\nbroken"


# ----------------------------------------------------------------- the pure readings

def test_board_listing_of_the_capture(captures: Path) -> None:
    page = parse_board_page((captures / "x35-utf8" / "pages" / "forumdisplay-fid2.html").read_text("utf-8"))
    assert page.fid == 2 and page.name == "版杀"
    assert [(t.tid, t.author) for t in page.threads][:2] == [(7, "导演A"), (8, "导演A")]
    assert {t.tid for t in page.threads} == {1, 3, 4, 5, 6, 7, 8}
    assert parse_index_boards((captures / "x35-utf8" / "pages" / "index.html").read_text("utf-8")) == [(2, "版杀")]


@pytest.mark.parametrize("subject,role,day", [
    ("[M84] 第一天讨论帖", "discussion", 1), ("[M84] 第二天投票帖", "vote", 2), ("[M84] 第一天进程帖", "progress", 1),
    ("[M84] 神父推举帖", "election", None), ("[M84] 规则帖", "rules", None), ("【004】第1天 讨论贴", "discussion", 1),
    ("[K12] D3 投票帖", "vote", 3), ("[K12] Day 2 进程帖", "progress", 2), ("[K12]第十二天讨论帖", "discussion", 12),
    ("[K12] 警长竞选帖", "election", None), ("[K12]D1讨论帖", "discussion", 1), ("[K12] D2投票贴", "vote", 2),
    ("[K12] Dead Man 讨论帖", "discussion", None), ("[K12]第一天讨论帖（已关门）", "discussion", 1), ("[K12] 揭秘帖", None, None), ("导演工作帖（仅管理员可见）", None, None),
])
def test_subjects(subject: str, role: str | None, day: int | None) -> None:
    got = classify(subject)
    assert (got.role, got.day) == (role, day) if role else got is None


TZ = timezone(timedelta(hours=8))
OPENED = datetime(2026, 11, 26, 10, 0, tzinfo=TZ)  # a Thursday


@pytest.mark.parametrize("text,close", [
    ("第一天讨论帖开门，关门时间 11月27日 22:00。", datetime(2026, 11, 27, 22, 0, tzinfo=TZ)),
    ("关门时间：2026-11-28 21:30", datetime(2026, 11, 28, 21, 30, tzinfo=TZ)),
    ("明天晚上十点关门。", datetime(2026, 11, 27, 22, 0, tzinfo=TZ)),
    ("本帖周六22:00关门", datetime(2026, 11, 28, 22, 0, tzinfo=TZ)),
    ("今晚9点关帖", datetime(2026, 11, 26, 21, 0, tzinfo=TZ)),
])
def test_closing_times(text: str, close: datetime) -> None:
    assert close_time_in(text, OPENED)[0] == close


def test_no_closing_time() -> None:
    assert close_time_in("请各位演员积极发言。", OPENED) is None


def test_guessed_close_from_the_rules() -> None:
    # M84 讨论日长短: 一般讨论日持续两天，每逢周末时讨论日延长一天 (a Thursday opening runs to Friday)
    m84 = ScheduleRules(length_days=2, weekend_extra_days=1, close_time="21:00")
    assert guess_close(OPENED, m84, 1)[0] == datetime(2026, 11, 27, 21, 0, tzinfo=TZ)
    # a Friday opening runs into the weekend: one day more
    assert guess_close(OPENED + timedelta(days=1), m84, 2)[0] == datetime(2026, 11, 29, 21, 0, tzinfo=TZ)
    # 004: 第一天讨论日不因周末而延长
    s004 = ScheduleRules(length_days=1, weekend_extra_days=1, first_day_extends=False)
    sat = datetime(2026, 11, 28, 10, 0, tzinfo=TZ)
    assert guess_close(sat, s004, 1)[0].date() == sat.date()
    assert guess_close(sat, s004, 2)[0].date() == sat.date() + timedelta(days=1)
    assert guess_close(OPENED, ScheduleRules(), 1) is None


def test_announcements_need_the_director_words() -> None:
    names = ["包子", "月饼", "饺子", "烧卖"]
    got = announcements("公示：第一天投票出局：包子。昨夜出局：月饼。神父：饺子。黑哨：烧卖。", names)
    assert [(a.kind, a.player, a.reason) for a in got] == [
        ("out", "包子", "vote"), ("out", "月饼", "night"), ("priest", "饺子", None), ("whistled", "烧卖", None)]
    assert announcements("申请加速或延时请在本帖回复。", names) == []
    # the demo forum's words: 公示：霜降被投出；青梅当选神父。
    assert [(a.kind, a.player, a.reason) for a in announcements("公示：包子被投出；饺子当选神父。", names)] == [
        ("out", "包子", "vote"), ("priest", "饺子", None)]
    assert [a.kind for a in announcements("公示：今日执行加速。", names)] == ["accelerated"]


@pytest.mark.parametrize("url,root,query", [
    ("http://h/bbs/forum.php?mod=viewthread&tid=7", "http://h/bbs/", {"mod": "viewthread", "tid": "7"}),
    ("http://h/thread-7-1-1.html", "http://h/", {"tid": "7"}),
    ("https://h/forum-2-1.html", "https://h/", {"fid": "2"}),
    ("http://h", "http://h/", {}),
])
def test_split_url(url: str, root: str, query: dict) -> None:
    assert split_url(url) == (root, query)


def test_rerun_reads_later_announcements_from_the_store(replay_utf8: Replay, tmp_path: Path) -> None:
    from daoyan.store import Store
    from parsers.models import Post

    out = tmp_path / "game.toml"
    _init(replay_utf8.base_url, out)
    at = datetime(2026, 11, 29, 18, 5, tzinfo=TZ)
    with Store(tmp_path / "game.sqlite") as store:  # as `daoyan scan` would have stored it
        store.save_posts([Post(tid=7, pid=99001, floor=60, author="导演A", uid=2, posted_at=at, time_precision="second",
                               message_html="", text="公示：进程帖申请人数已过半，今日执行加速。")], "api")
    r = _init(replay_utf8.base_url, out)
    assert r.exit_code == 0 and "1 event suggestion(s)" in r.output, r.output
    text = out.read_text("utf-8")
    assert "suggested: day=2 kind=accelerated — 「公示：进程帖申请人数已过半，今日执行加速」 (tid 7 floor 60" in text
    block = _uncomment_all(text)[-1]
    assert block == {"day": 2, "kind": "accelerated", "at": datetime(2026, 11, 29, 18, 5)}


@pytest.mark.parametrize("text", ["申请加速或延时请在本帖回复。存活人数过半申请加速则执行加速。",
                                  "如果申请人数过半，则执行加速。", "加速申请请在18:00之前提交。"])
def test_rules_in_opening_posts_are_no_events(text: str) -> None:
    assert announcements(text, ["饺子"]) == []


def test_gbk_forum_gives_the_same_game(captures: Path, tmp_path: Path) -> None:
    rp = Replay(captures / "x35-gbk")
    try:
        r = _init(rp.base_url + "forum.php?mod=forumdisplay&fid=2", tmp_path / "game.toml")
    finally:
        rp.close()
    assert r.exit_code == 0, r.output
    g = load_game(tmp_path / "game.toml")
    truth = _truth_game(captures)
    assert [(d.number, d.discussion_tid, d.vote_tid, d.closes.replace(tzinfo=None)) for d in g.days] == \
        [(d["number"], d["discussion_tid"], d["vote_tid"], d["closes"]) for d in truth["day"]]
    assert sorted(g.players) == sorted(truth["game"]["players"]) and g.directors == ("导演A",)


def test_init_on_the_demo_forum(tmp_path: Path) -> None:
    from daoyan.demo.gamefile import write_game_file
    from daoyan.demo.server import DemoForum

    with DemoForum() as forum:
        r = _init(forum.base_url, tmp_path / "game.toml")
        ref = load_game(write_game_file(tmp_path / "ref.toml", forum.base_url))
    assert r.exit_code == 0, r.output
    g = load_game(tmp_path / "game.toml")
    assert [(d.number, d.tids, d.opens, d.closes) for d in g.days] == [(d.number, d.tids, d.opens, d.closes) for d in ref.days]
    assert set(ref.players) <= set(g.players)  # and the spectator 过路客, to be confirmed away
    assert set(g.players) - set(ref.players) == {"过路客"}
    events = _uncomment_all((tmp_path / "game.toml").read_text("utf-8"))
    assert [(e["day"], e["kind"], e["player"]) for e in events] == [(e.day, e.kind, e.player) for e in ref.events]


def test_private_thread_asks_for_the_login_option(replay_utf8: Replay, tmp_path: Path) -> None:
    r = CliRunner().invoke(cli, ["init", replay_utf8.base_url + "forum.php?mod=viewthread&tid=2", "--out",
                                 str(tmp_path / "g.toml")])
    assert r.exit_code == 2 and "--user NAME" in r.output and "DAOYAN_PASSWORD" in r.output
