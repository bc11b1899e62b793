"""Rule decisions end to end (issue 18): threads on the demo forum, a real scan, the CLI.

An M84 day accelerated mid-day by requests (one "+1" seconding, an objection and a question that do
not count), a change before the acceleration that stands and one after it that is void, ballots
with a look-alike colon and an @name, and a vote edited inside the lock before any scan saw it. A
004 day where the leader survives (捍卫) and a red card during the day takes a player's ballot and
the votes for them out of the count. `votes`, `activity`, `report` and `remind` must agree.
"""
from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from click.testing import CliRunner

from daoyan.cli import cli
from daoyan.demo.sample import GAME_FID
from daoyan.demo.server import DemoForum
from gamedef.gamefile import load_game
from daoyan.scan import scan_game

TZ = ZoneInfo("Asia/Shanghai")
A, B, C, D, E, F = "青梅", "竹马", "白露", "霜降", "小满", "芒种"
DIRECTOR = "说书人"


def at(s: str) -> datetime:
    d, hm = s.split()
    h, m = hm.split(":")
    return datetime(2026, 12, int(d), int(h), int(m), tzinfo=TZ)


def V(target: str, colon: str = "：") -> str:
    return f"投票对象{colon}{target}<br />投票理由{colon}理由"


def C_(target: str) -> str:
    return f"改票对象：{target}<br />改票理由：想换"


G = "谷雨"  # out before the 004 day: posts in the rule thread are 诈尸


def game_text(base: str, ruleset: str, tids: dict[str, int], extra: str = "", more: tuple[str, ...] = ()) -> str:
    players = ", ".join(f'"{p}"' for p in (A, B, C, D, E, F, *more))
    return (f'[forum]\nbase_url = "{base}"\napi = "never"\n\n[game]\nruleset = "{ruleset}"\ntimezone = "Asia/Shanghai"\n'
            f'players = [{players}]\ndirectors = ["{DIRECTOR}"]\nrules_tid = 11\n\n[[day]]\nnumber = 1\n'
            f'discussion_tid = {tids["discussion"]}\nvote_tid = {tids["vote"]}\nprogress_tid = {tids["progress"]}\n'
            f'opens = 2026-12-01T10:00:00\ncloses = 2026-12-02T22:00:00\n' + extra)


def run(*args: str) -> dict:
    r = CliRunner().invoke(cli, [*args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("rules18")
    paths = {}
    with DemoForum() as forum:
        # M84: accelerated at 15:00 (3 of 6: 青梅, 竹马's "+1", 小满)
        m = {"discussion": forum.add_thread("[T1] 第一天讨论", fid=GAME_FID, author=DIRECTOR, posted_at=at("1 10:00"),
                                            first_html="第一天开门。关门时间：12月2日 22:00"),
             "vote": forum.add_thread("[T1] 第一天投票", fid=GAME_FID, author=DIRECTOR, posted_at=at("1 10:00")),
             "progress": forum.add_thread("[T1] 第一天进程", fid=GAME_FID, author=DIRECTOR, posted_at=at("1 10:00"))}
        req = forum.add_post(m["progress"], A, "申请加速", at("1 11:00"))
        forum.add_post(m["progress"], B, "+1", at("1 11:30"), reply_pid=req)
        forum.add_post(m["progress"], C, "我不想加速，还没聊够", at("1 12:00"))
        forum.add_post(m["progress"], D, "谁申请加速了？", at("1 12:10"))
        forum.add_post(m["progress"], E, "申请加速", at("1 15:00"))
        va = forum.add_post(m["vote"], A, V(D), at("1 11:00"))
        vb = forum.add_post(m["vote"], B, V(C), at("1 11:10"))
        forum.add_post(m["vote"], C, V(D, "∶"), at("1 11:20"))
        forum.add_post(m["vote"], D, V("@" + C), at("1 11:25"))
        ve = forum.add_post(m["vote"], E, V(C), at("1 11:30"))
        forum.add_post(m["vote"], A, C_(C), at("1 13:00"), quote_pid=va)  # before acceleration: stands
        forum.add_post(m["vote"], B, C_(D), at("1 16:00"), quote_pid=vb)  # after it: void
        forum.edit_post(ve, V(F), at=at("2 21:30"))  # inside the lock, never seen before the edit
        paths["m84"] = out / "m84.toml"
        paths["m84"].write_text(game_text(forum.base_url, "m84", m), "utf-8")
        scan_game(load_game(paths["m84"]))

        # 004: 青梅 leads but survives (捍卫); 竹马 red-carded at 15:00 (before the vote)
        f = {"discussion": forum.add_thread("[T2] 第一天讨论", fid=GAME_FID, author=DIRECTOR, posted_at=at("1 10:00")),
             "vote": forum.add_thread("[T2] 第一天投票", fid=GAME_FID, author=DIRECTOR, posted_at=at("1 10:00")),
             "progress": forum.add_thread("[T2] 第一天进程", fid=GAME_FID, author=DIRECTOR, posted_at=at("1 10:00"))}
        for who, target, when in ((B, A, "1 11:00"), (C, A, "1 11:10"), (D, A, "1 11:20"), (E, B, "1 11:30"),
                                  (F, B, "1 11:40"), (A, E, "1 11:50")):
            forum.add_post(f["vote"], who, V(target), at(when))
        forum.add_post(11, G, "我觉得规则里捍卫写得不清楚", at("1 12:00"))  # the rule thread (tid 11)
        extra = ('\n[[event]]\nday = 1\nkind = "survives"\nplayer = "青梅"\nreason = "捍卫"\n'
                 '\n[[event]]\nday = 1\nkind = "out"\nplayer = "谷雨"\nreason = "night"\n'
                 '\n[[card]]\nday = 1\nplayer = "竹马"\ncard = "red"\nrule = "违规判定 2(1)"\nreason = "侮辱"\n'
                 'at = 2026-12-01T15:00:00\n')
        paths["004"] = out / "004.toml"
        paths["004"].write_text(game_text(forum.base_url, "004", f, extra, more=(G,)), "utf-8")
        scan_game(load_game(paths["004"]))
    return paths


def test_m84_acceleration_by_stance_and_moment(games: dict[str, Path]) -> None:
    v = run("votes", str(games["m84"]), "--day", "1")
    acc = v["acceleration"]
    assert acc["accelerated"] and v["accelerated_since"].startswith("2026-12-01T15:00")
    assert [r["player"] for r in acc["counted_requests"]] == [A, B, E]
    readings = {r["player"]: r["reading"] for r in acc["readings"] if r["player"] != DIRECTOR}
    assert readings == {A: {"accelerate": "request"}, B: {"accelerate": "second"}, C: {"accelerate": "objection"},
                        D: {"accelerate": "question"}, E: {"accelerate": "request"}}
    changes = {b["voter"]: b for b in v["ballots"] if b["kind"] == "change"}
    assert changes[A]["counted"] and not changes[B]["counted"]
    assert [p["code"] for p in changes[B]["problems"]] == ["change_while_accelerated"]
    by_voter = {b["voter"]: b for b in v["ballots"] if b["kind"] == "vote"}
    assert by_voter[C]["target"] == D and by_voter[C]["counted"]  # 投票对象∶ (U+2236)
    assert by_voter[D]["target"] == C and by_voter[D]["counted"]  # @白露
    assert "edited_original_unknown" in [p["code"] for p in by_voter[E]["problems"]] and by_voter[E]["counted"]
    assert {t["target"]: t["weight"] for t in v["tally"]} == {C: 3, D: 1, F: 1}  # 青梅 (changed), 竹马 (change void), 霜降
    assert v["warnings"] == []  # closes agrees with the rule post and the opening post
    act = run("activity", str(games["m84"]), "--day", "1")
    assert act["accelerated"] and act["penalties"] == []
    rem = run("remind", str(games["m84"]), "--day", "1", "--at", "2026-12-02T21:00:00")
    assert rem["not_voted"] == v["not_voted"]
    assert rem["accelerated"] and rem["below"] == []  # 执行加速时 … 发言不足或未投票者将不被判罚


def test_m84_report_shows_every_progress_post(games: dict[str, Path], tmp_path: Path) -> None:
    r = CliRunner().invoke(cli, ["report", str(games["m84"]), "--day", "1", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    html = (tmp_path / "day1.html").read_text("utf-8")
    assert 'id="progress"' in html and "附议第2楼的加速申请" in html and "加速反对" in html and "加速提问" in html
    bb = (tmp_path / "day1.bbcode.txt").read_text("utf-8")
    assert "起执行加速，此后的改票作废" in bb


def test_004_survivor_and_red_card_before_the_vote(games: dict[str, Path], tmp_path: Path) -> None:
    v = run("votes", str(games["004"]), "--day", "1")
    o = v["outcome"]
    assert o["out"] is None and o["survives"] == {"player": A, "reason": "捍卫"}
    assert o["red_carded"] == [B] and o["red_resolves"] == "before_vote"
    assert {t["target"]: t["weight"] for t in v["tally"]} == {A: 2, E: 1}  # 竹马's ballot and the two votes for 竹马 left
    act = run("activity", str(games["004"]), "--day", "1")
    carded = {p["player"] for p in act["penalties"]}
    assert B not in carded and A in carded  # sent off at 15:00: out from then, no lurking card for the day
    assert run("remind", str(games["004"]), "--day", "1", "--at", "2026-12-02T21:00:00")["not_voted"] == v["not_voted"]
    r = CliRunner().invoke(cli, ["report", str(games["004"]), "--day", "1", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    bb = (tmp_path / "day1.bbcode.txt").read_text("utf-8")
    assert f"{A}[/b][/color] 出局" not in bb and "因捍卫不出局" in bb and "红牌罚下" in bb


def test_004_dead_post_in_the_rule_thread_is_flagged(games: dict[str, Path]) -> None:
    """004 违规判定 6(1): 禁止已出局角色在讨论帖、投票帖、进程帖或规则帖中发言."""
    flags = run("check", str(games["004"]), "--day", "1")["flags"]
    dead = [f for f in flags if f["category"] == "dead_post"]
    assert [(f["author"], f["tid"], f["thread"]) for f in dead] == [(G, 11, "rules")]
