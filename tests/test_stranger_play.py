"""A new director plays the demo game the way a stranger would: scans, then the forum changes
(a ballot edited after close, a ballot deleted, a ballot in the wrong thread, progress posts in
other wordings), scans again, and reads votes / remind / report. Each test names what a director
would expect, and quotes the rule sentence where a rule decides it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from daoyan.cli import cli
from daoyan.demo.sample import _at
from daoyan.demo.server import DemoForum
from daoyan.scan import scan_game
from gamedef.gamefile import load_game

from .reliability_support import fast_game


def run(*args: object) -> "CliRunner.invoke":
    return CliRunner().invoke(cli, [str(a) for a in args])


def run_json(*args: object) -> dict:
    r = run(*args, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def ballot_by_pid(votes: dict, pid: int) -> dict:
    return next(b for b in votes["ballots"] if b["pid"] == pid)


class Played:
    """The game file and what was done to the forum between the two scans (pids)."""

    path: Path
    edited: int  # 青梅's day-1 vote, edited after close to another target
    deleted: int  # 寒露's day-1 vote, deleted after the first scan
    wrong_thread: int  # 大寒's ballot posted in the day-1 discussion thread


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    out = tmp_path_factory.mktemp("stranger")
    p = Played()
    with DemoForum() as forum:
        p.path = fast_game(out, forum.base_url)
        scan_game(load_game(p.path))  # the demo game closed long ago: this scan is after close
        vote1 = forum.sample.threads[22].posts
        p.edited = next(x.pid for x in vote1 if x.author == "青梅")
        forum.edit_post(p.edited, "投票对象：竹马<br />投票理由：关门后想了想还是竹马")
        p.deleted = next(x.pid for x in vote1 if x.author == "寒露")
        forum.delete_post(p.deleted)
        p.wrong_thread = forum.add_post(21, "大寒", "投票对象：霜降<br />投票理由：投错帖了", _at(11, 20, 0))
        scan_game(load_game(p.path))
    return p


# 1 ------------------------------------------------------------------------------------------------

def test_a_ballot_edited_after_close_counts_as_posted(played: Played) -> None:
    """M84: 改票需回复原投票楼层 / 关门前一小时不允许改票 — an edit after close is no change at all:
    the ballot stands as it was posted before close, and the director is told of the edit."""
    v = run_json("votes", played.path, "--day", 1)
    b = ballot_by_pid(v, played.edited)
    assert (b["target"], b["valid"], b["counted"]) == ("霜降", True, True)
    assert "edited_after_lock" in [x["code"] for x in b["problems"]]
    tally = {t["target"]: t["voters"] for t in v["tally"]}
    assert "青梅" in tally["霜降"] and "青梅" not in tally.get("竹马", [])


def test_the_announcement_mentions_the_edit(played: Played, tmp_path: Path) -> None:
    r = run("report", played.path, "--day", 1, "--out", tmp_path)
    assert r.exit_code == 0, r.output
    text = (tmp_path / "day1.bbcode.txt").read_text("utf-8")
    assert "编辑" in text and "青梅" in text.split("编辑说明")[1]


# 2 ------------------------------------------------------------------------------------------------

def test_a_player_whose_only_ballot_is_invalid_is_named(played: Played) -> None:
    """M84: 投票格式或投票对象有误的票无效。无效票须通过重新发帖来更正。 谷雨's one ballot has no
    reason: the director must see 谷雨 by name, not find them merely absent from the tally."""
    v = run_json("votes", played.path, "--day", 1)
    assert set(v["only_invalid"]) == {"谷雨", "寒露"}  # 寒露's vote was deleted: his change stands alone
    assert any(w["kind"] == "only_invalid" and w["player"] == "谷雨" and "第8楼" in w["message"] for w in v["warnings"])
    text = run("votes", played.path, "--day", 1).output
    assert "只有无效票" in text and "谷雨" in text.split("只有无效票")[1]
    r = run_json("remind", played.path, "--day", 1, "--at", "2026-11-11T20:00")
    assert "谷雨" in r["only_invalid"]
    said = run("remind", played.path, "--day", 1, "--at", "2026-11-11T20:00").output
    assert "投票无效：谷雨" in said


# 3 ------------------------------------------------------------------------------------------------

def test_a_ballot_deleted_after_a_scan_is_warned(played: Played) -> None:
    """寒露's vote was stored by the first scan, then deleted on the forum. The count follows the
    forum (the vote is gone), but the director is told what it was and that it is gone."""
    v = run_json("votes", played.path, "--day", 1)
    assert played.deleted not in {b["pid"] for b in v["ballots"]}
    w = [w for w in v["warnings"] if w["kind"] == "deleted_ballot"]
    assert [(x["pid"], x["player"]) for x in w] == [(played.deleted, "寒露")]
    assert "删除" in w[0]["message"] and "青梅" in w[0]["message"]  # the target it named
    text = run("votes", played.path, "--day", 1).output
    assert "寒露" in text and "删除" in text


# 4 ------------------------------------------------------------------------------------------------

def _game_file(folder: Path, *, opens: str = "2026-12-01T10:00:00", closes: str = "2026-12-02T22:00:00",
               directors: str = '["导演A"]') -> Path:
    p = folder / "game.toml"
    p.write_text("[forum]\nbase_url = \"http://127.0.0.1:9/\"\n\n[game]\nruleset = \"m84\"\n"
                 f"players = [\"饺子\", \"包子\", \"馄饨\"]\ndirectors = {directors}\n\n"
                 f"[[day]]\nnumber = 1\ndiscussion_tid = 101\nvote_tid = 102\nopens = {opens}\ncloses = {closes}\n", "utf-8")
    return p


def test_a_time_without_seconds_is_accepted(tmp_path: Path) -> None:
    """`closes = 2026-12-02T22:00` names one moment; TOML 1.0 wants seconds, a director does not."""
    g = load_game(_game_file(tmp_path, opens="2026-12-01T10:00", closes="2026-12-02T22:00  # 关门"))
    assert (g.day(1).opens.strftime("%H:%M:%S"), g.day(1).closes.strftime("%d %H:%M:%S")) == ("10:00:00", "02 22:00:00")
    g = load_game(_game_file(tmp_path, closes='"2026-12-02 22:00"'))
    assert g.day(1).closes.hour == 22


@pytest.mark.parametrize("closes", ["2026-12-02", '"2026-12-02"'])
def test_a_bare_date_is_refused_in_one_line(tmp_path: Path, closes: str) -> None:
    """A date without a time could be midnight or the evening close: no guess, one clear line, exit 2."""
    from .reliability_support import one_line_exit_2

    err = one_line_exit_2(run("votes", _game_file(tmp_path, closes=closes), "--day", 1))
    assert "day[0].closes" in err and "no time of day" in err and "2026-12-02T22:00:00" in err


def test_a_name_both_player_and_director_is_refused_in_one_line(tmp_path: Path) -> None:
    """A director's posts are never counted as a player's, so a name in both lists has no reading."""
    from .reliability_support import one_line_exit_2

    err = one_line_exit_2(run("votes", _game_file(tmp_path, directors='["导演A", "包子"]'), "--day", 1))
    assert "包子" in err and "both a player and a director" in err


# 5 ------------------------------------------------------------------------------------------------

def test_counts_before_close_are_provisional(played: Played) -> None:
    """Before the vote closes a count can still change: the director must not paste it as final."""
    early = run_json("votes", played.path, "--day", 1, "--at", "2026-11-11T18:00")
    assert early["provisional"] is True and early["seen_until"]
    assert {"day", "ballots", "tally", "not_voted", "outcome"} <= set(early)  # DESIGN.md's shape stays
    assert "暂时结果" in run("votes", played.path, "--day", 1, "--at", "2026-11-11T18:00").output
    final = run_json("votes", played.path, "--day", 1)
    assert final["provisional"] is False and final["seen_until"] > final["closes"]
    assert "暂时结果" not in run("votes", played.path, "--day", 1).output


def test_a_provisional_announcement_says_so(played: Played, tmp_path: Path) -> None:
    r = run("report", played.path, "--day", 1, "--out", tmp_path)
    assert r.exit_code == 0, r.output
    assert "暂时结果" not in (tmp_path / "day1.bbcode.txt").read_text("utf-8")
    assert json.loads((tmp_path / "day1.json").read_text("utf-8"))["provisional"] is False


def test_the_announcement_of_a_provisional_count_says_so() -> None:
    from reports.bbcode import render_bbcode

    golden = json.loads((Path(__file__).parent / "golden" / "day1.analysis.json").read_text("utf-8"))
    golden["votes"]["provisional"] = True
    assert "暂时结果" in render_bbcode(golden)


# 6 ------------------------------------------------------------------------------------------------

def test_a_scan_older_than_the_close_is_warned_before_the_counts(played: Played, tmp_path: Path) -> None:
    """A store last read before close misses the last ballots: say so before any count is read."""
    import shutil
    import sqlite3

    for name in ("game.toml", "game.sqlite"):
        shutil.copy(played.path.parent / name, tmp_path / name)
    con = sqlite3.connect(tmp_path / "game.sqlite")
    with con:
        con.execute("update threads set scanned_at='2026-11-11T12:00:00+00:00'")  # 20:00 in the game's zone
    con.close()
    game = tmp_path / "game.toml"
    v = run_json("votes", game, "--day", 1)
    w = [x for x in v["warnings"] if x["kind"] == "stale_scan"]
    assert len(w) == 1 and "早于关门" in w[0]["message"] and v["provisional"] is True
    text = run("votes", game, "--day", 1).output
    assert "早于关门" in text and text.index("早于关门") < text.index("票型")
    fresh = run_json("votes", played.path, "--day", 1)
    assert not [x for x in fresh["warnings"] if x["kind"] == "stale_scan"]
    r = run("remind", game, "--day", 1, "--json")
    assert r.exit_code == 0, r.output
    reminder = json.loads(r.stdout)  # a script reads stdout; the warning must be in it, not only on stderr
    assert [x["kind"] for x in reminder["warnings"]] == ["stale_scan"]
    assert reminder["seen_until"].startswith("2026-11-11T20:00")
    assert run_json("remind", played.path, "--day", 1)["warnings"] == []


# 7 ------------------------------------------------------------------------------------------------

def test_lurking_cards_are_final_only_after_close(played: Played) -> None:
    """M84 5(1) 在未执行加速的讨论日发言不足五帖: a day's post count is known only once the day has
    closed and been read; before that a card is a forecast, marked provisional."""
    early = run_json("activity", played.path, "--day", 1, "--at", "2026-11-11T18:00")
    assert early["penalties_final"] is False and early["penalties"]
    assert all(p["provisional"] is True for p in early["penalties"])
    assert "暂定" in run("activity", played.path, "--day", 1, "--at", "2026-11-11T18:00").output
    final = run_json("activity", played.path, "--day", 1)
    assert final["penalties_final"] is True and all(p["provisional"] is False for p in final["penalties"])


# 11 -----------------------------------------------------------------------------------------------

def test_remind_after_close_says_the_vote_has_closed(played: Played) -> None:
    """A reminder after close would tell players to vote when no vote can count any more."""
    for args in ((), ("--bbcode",)):
        text = run("remind", played.path, "--day", 1, *args).output
        assert "投票已截止" in text and "尚未投票" not in text and "请尽快" not in text
    assert run_json("remind", played.path, "--day", 1)["closed"] is True
    before = run("remind", played.path, "--day", 1, "--at", "2026-11-11T20:00").output
    assert "尚未投票" in before and "投票已截止" not in before


# 10 -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("preset", ["m84", "004"])
@pytest.mark.parametrize("written", ["饺子:", "饺子：", "【饺子】", "“饺子”", "「饺子」", "「饺子」："])
def test_a_decorated_target_is_the_player(preset: str, written: str) -> None:
    """M84 【投票格式】 投票对象：饺子 — and 特别地，投票格式中标点符号不区分全半角: the brackets,
    quotes or a stray colon around the name are punctuation, the name is 饺子."""
    from .test_ballot_parse import parse

    b = parse(f"投票对象：{written}\n投票理由：饺子好吃", author="包子", preset=preset)
    assert b is not None and b.target == "饺子" and b.valid, b


def test_a_decorated_unknown_name_is_still_unknown() -> None:
    from .test_ballot_parse import parse

    b = parse("投票对象：【饺子皮】\n投票理由：x", author="包子")
    assert b is not None and "unknown_target" in b.codes


# 9 ------------------------------------------------------------------------------------------------

def test_acceleration_requests_in_other_wordings(tmp_path: Path) -> None:
    """M84 未出局角色可在进程帖中申请加速或延时。 申請加速 (traditional) and 申请加快 ask for it;
    申请加速。撤回 takes the request back in the same post, so it asks for nothing."""
    with DemoForum() as forum:
        path = fast_game(tmp_path, forum.base_url)
        asked = {forum.add_post(23, "竹马", "申請加速", _at(11, 15, 0)): True,
                 forum.add_post(23, "白露", "申请加快", _at(11, 15, 1)): True,
                 forum.add_post(23, "小满", "申请加速。撤回", _at(11, 15, 2)): False}
        scan_game(load_game(path))
    acc = run_json("votes", path, "--day", 1)["acceleration"]
    counted = {r["pid"] for r in acc["counted_requests"]}
    assert {pid for pid, want in asked.items() if want} <= counted
    assert not {pid for pid, want in asked.items() if not want} & counted
    assert "小满" not in acc["requests"] and {"竹马", "白露"} <= set(acc["requests"])


# 8 ------------------------------------------------------------------------------------------------

def test_a_ballot_in_the_discussion_thread_is_warned(played: Played) -> None:
    """M84 讨论结束时，未回复投票帖者将被判罚黄牌: only the vote thread counts. 大寒's ballot in the
    discussion thread is neither counted nor silently dropped: the director is told where it is."""
    v = run_json("votes", played.path, "--day", 1)
    assert played.wrong_thread not in {b["pid"] for b in v["ballots"]}
    assert "大寒" in v["not_voted"]
    w = [x for x in v["warnings"] if x["kind"] == "ballot_in_wrong_thread"]
    assert [(x["pid"], x["player"], x["thread"]) for x in w] == [(played.wrong_thread, "大寒", "discussion")]
    assert "讨论帖" in w[0]["message"] and "霜降" in w[0]["message"]
    assert "讨论帖" in run("votes", played.path, "--day", 1).output


# 12 -----------------------------------------------------------------------------------------------

def test_a_deleted_discussion_post_is_warned_and_its_words_still_flagged(tmp_path: Path) -> None:
    """A player insults another, the first scan reads it, then the post is deleted on the forum. The
    count follows the forum (the post is gone), but the director is told which post went and what the
    count would be with it, and the insult (M84 违规判定 2(3) 侮辱性词汇) is still in `check`."""
    with DemoForum() as forum:
        path = fast_game(tmp_path, forum.base_url)
        pid = forum.add_post(21, "大寒", "霜降你这个傻逼，别装了", _at(11, 15, 0))
        scan_game(load_game(path))
        before = {p["player"]: p["counted_posts"] for p in run_json("activity", path, "--day", 1)["players"]}
        forum.delete_post(pid)
        scan_game(load_game(path))
    act = run_json("activity", path, "--day", 1)
    after = {p["player"]: p["counted_posts"] for p in act["players"]}
    assert after["大寒"] == before["大寒"] - 1
    w = [x for x in act["warnings"] if x["kind"] == "deleted_post"]
    assert [(x["pid"], x["player"], x["thread"]) for x in w] == [(pid, "大寒", "discussion")]
    assert f"现计{after['大寒']}帖，算上此帖{before['大寒']}帖" in w[0]["message"]
    assert "删除" in run("activity", path, "--day", 1).output
    assert [x["pid"] for x in run_json("votes", path, "--day", 1)["warnings"] if x["kind"] == "deleted_post"] == [pid]
    flags = [f for f in run_json("check", path, "--day", 1)["flags"] if f["pid"] == pid]
    assert flags and flags[0]["category"] == "insult" and flags[0]["gone_at"]
    assert "已从论坛删除" in flags[0]["evidence"]
