"""Scenario games on the demo forum (which renders Discuz X3.5's markup: `回复 N#` headers, quote
blocks, 本帖最后由 … 编辑 markers), one rule decision each, scanned for real and read through the CLI.
Each test quotes the rule sentence it rests on."""
from __future__ import annotations

from pathlib import Path

import pytest

from daoyan.demo.sample import GAME_FID
from daoyan.demo.server import DemoForum
from daoyan.scan import scan_game
from gamedef.gamefile import load_game

from .test_rule_decisions_e2e import A, B, C, D, DIRECTOR, E, F, G, C_, V, at, game_text, run


def _threads(forum: DemoForum, tag: str) -> dict[str, int]:
    return {role: forum.add_thread(f"[{tag}] 第一天{zh}", fid=GAME_FID, author=DIRECTOR, posted_at=at("1 10:00"))
            for role, zh in (("discussion", "讨论"), ("vote", "投票"), ("progress", "进程"))}


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("scenarios")
    paths: dict[str, Path] = {}

    def save(name: str, forum: DemoForum, ruleset: str, tids: dict[str, int], extra: str = "",
             more: tuple[str, ...] = ()) -> None:
        paths[name] = out / f"{name}.toml"
        paths[name].write_text(game_text(forum.base_url, ruleset, tids, extra, more), "utf-8")
        scan_game(load_game(paths[name]))

    with DemoForum() as forum:
        # 004: 芒种 red-carded at 12:00 (before the vote: out from then); 3 of the 5 left ask after it
        g = _threads(forum, "S1")
        for who, when in ((A, "1 13:00"), (B, "1 13:10"), (C, "1 13:20")):
            forum.add_post(g["progress"], who, "申请加速", at(when))
        save("red_living", forum, "004", g, '\n[[card]]\nday = 1\nplayer = "芒种"\ncard = "red"\n'
             'rule = "违规判定 2(1)"\nreason = "侮辱"\nat = 2026-12-01T12:00:00\n')

        # M84: labels in brackets, as the rule post prints 【投票格式】
        g = _threads(forum, "S2")
        forum.add_post(g["vote"], A, f"【投票对象】：{B}<br />\n【投票理由】：理由", at("1 11:00"))
        forum.add_post(g["vote"], B, f"<strong>【投票对象】</strong>：{C}<br />\n<strong>【投票理由】</strong>：理由",
                       at("1 11:10"))
        save("brackets", forum, "m84", g)

        # M84: a request after 讨论日结束三个小时前 does not count; the change after it stands
        g = _threads(forum, "S3")
        forum.add_post(g["progress"], A, "申请加速", at("1 11:00"))
        forum.add_post(g["progress"], B, "申请加速", at("1 12:00"))
        forum.add_post(g["progress"], C, "申请加速", at("2 19:30"))
        va = forum.add_post(g["vote"], A, V(D), at("1 11:00"))
        forum.add_post(g["vote"], A, C_(E), at("2 20:00"), reply_pid=va)
        save("late_request", forum, "m84", g)

        # M84: a player out before the day asks too: not counted (未出局角色可在进程帖中申请加速)
        g = _threads(forum, "S4")
        for who, when in ((A, "1 11:00"), (B, "1 11:10"), (G, "1 11:20")):
            forum.add_post(g["progress"], who, "申请加速", at(when))
        save("dead_request", forum, "m84", g, '\n[[event]]\nday = 1\nkind = "out"\nplayer = "谷雨"\nreason = "night"\n',
             more=(G,))

        # M84: accelerated at 13:00, a delay granted at 16:00 ends it; a change at 14:00 is void, one at 17:00 stands
        g = _threads(forum, "S5")
        for who, text, when in ((A, "申请加速", "1 11:00"), (B, "申请加速", "1 12:00"), (C, "申请加速", "1 13:00"),
                                (D, "申请延时", "1 14:30"), (E, "申请延时", "1 15:00"), (F, "申请延时", "1 16:00")):
            forum.add_post(g["progress"], who, text, at(when))
        va = forum.add_post(g["vote"], A, V(B), at("1 11:00"))
        vb = forum.add_post(g["vote"], B, V(C), at("1 11:10"))
        forum.add_post(g["vote"], A, C_(C), at("1 14:00"), quote_pid=va)
        forum.add_post(g["vote"], B, C_(D), at("1 17:00"), quote_pid=vb)
        save("delay_ends", forum, "m84", g)

        # M84: the @ link Discuz X3.5 renders for @名字, half-width colons with target and reason on one line,
        # and a change by the 回复 button (改票需回复原投票楼层)
        g = _threads(forum, "S6")
        mention = ('投票对象：<a href="home.php?mod=space&amp;username=%E7%99%BD%E9%9C%B2" target="_blank">@白露</a>'
                   '<br />\n投票理由：理由')
        forum.add_post(g["vote"], A, mention, at("1 11:00"))
        vb = forum.add_post(g["vote"], B, f"投票对象:{D} 投票理由:理由", at("1 11:10"))
        forum.add_post(g["vote"], B, C_(E), at("1 12:00"), reply_pid=vb)
        save("markup_m84", forum, "m84", g)

        # 004: 改票时必须引用原投票帖 — a change by the 回复 button alone is void, one by 引用 counts
        g = _threads(forum, "S7")
        va = forum.add_post(g["vote"], A, V(B), at("1 11:00"))
        vb = forum.add_post(g["vote"], B, V(C), at("1 11:10"))
        forum.add_post(g["vote"], A, C_(C), at("1 12:00"), reply_pid=va)
        forum.add_post(g["vote"], B, C_(D), at("1 12:10"), quote_pid=vb)
        save("quote_004", forum, "004", g)
    return paths


def test_004_a_red_during_the_day_leaves_the_living_count(games: dict[str, Path]) -> None:
    """004 用语定义: 白天红牌罚下在被投票出局之前; 讨论日长短: 如果在进程帖中申请加速的玩家超过所有存活玩家的二分之一
    则游戏进程加速 — from 12:00 five are living, and three of them ask: more than half."""
    v = run("votes", str(games["red_living"]), "--day", "1")
    assert v["outcome"]["red_carded"] == [F]
    acc = v["acceleration"]
    assert acc["living"] == 5 and acc["accelerated"], acc
    act = run("activity", str(games["red_living"]), "--day", "1")
    assert act["accelerated"]


def test_m84_bracketed_labels_are_ballots(games: dict[str, Path]) -> None:
    """M84 【投票格式】 投票对象：饺子 / 投票理由：饺子好吃; 讨论结束时，未回复投票帖者将被判罚黄牌."""
    v = run("votes", str(games["brackets"]), "--day", "1")
    assert {t["target"]: t["voters"] for t in v["tally"]} == {B: [A], C: [B]}
    assert A not in v["not_voted"] and B not in v["not_voted"]
    rem = run("remind", str(games["brackets"]), "--day", "1", "--at", "2026-12-02T20:00:00")
    assert A not in rem["not_voted"] and B not in rem["not_voted"]


def test_m84_request_after_the_cutoff_does_not_accelerate(games: dict[str, Path]) -> None:
    """M84 讨论日长短: 当日申请人数在讨论日结束三个小时前（一般为最后一个自然日的18:00）大于等于存活人数的一半."""
    v = run("votes", str(games["late_request"]), "--day", "1")
    assert not v["acceleration"]["accelerated"] and [r["player"] for r in v["acceleration"]["counted_requests"]] == [A, B]
    change = next(b for b in v["ballots"] if b["kind"] == "change")
    assert change["counted"] and {t["target"]: t["weight"] for t in v["tally"]} == {E: 1}


def test_m84_a_dead_players_request_does_not_count(games: dict[str, Path]) -> None:
    """M84 讨论日长短: 未出局角色可在进程帖中申请加速 — 2 of 6 living ask; 谷雨 (out) does not count."""
    v = run("votes", str(games["dead_request"]), "--day", "1")
    acc = v["acceleration"]
    assert not acc["accelerated"] and acc["living"] == 6 and G not in [r["player"] for r in acc["counted_requests"]]


def test_m84_changes_while_accelerated_stay_void_after_a_delay(games: dict[str, Path]) -> None:
    """M84 讨论日长短: 执行加速时，所有人不可改票 … 延迟成功时，不再视为“执行加速”状态."""
    v = run("votes", str(games["delay_ends"]), "--day", "1")
    acc = v["acceleration"]
    assert not acc["accelerated"] and acc["delayed"] and acc["was_accelerated"][0].startswith("2026-12-01T13:00")
    changes = {b["voter"]: b for b in v["ballots"] if b["kind"] == "change"}
    assert not changes[A]["counted"] and [p["code"] for p in changes[A]["problems"]] == ["change_while_accelerated"]
    assert changes[B]["counted"]
    assert {t["target"]: t["weight"] for t in v["tally"]} == {B: 1, D: 1}
    act = run("activity", str(games["delay_ends"]), "--day", "1")
    assert not act["accelerated"]  # the day ends not accelerated: lurking is judged as on any day


def test_m84_genuine_markup_ballots(games: dict[str, Path]) -> None:
    """M84: 投票格式中标点符号不区分全半角。投票对象与投票理由之间可以不换行; 【改票格式】改票需回复原投票楼层."""
    v = run("votes", str(games["markup_m84"]), "--day", "1")
    assert {t["target"]: t["voters"] for t in v["tally"]} == {C: [A], E: [B]}


def test_004_change_must_quote(games: dict[str, Path]) -> None:
    """004 投票规则: 改票时必须引用原投票帖."""
    v = run("votes", str(games["quote_004"]), "--day", "1")
    changes = {b["voter"]: b for b in v["ballots"] if b["kind"] == "change"}
    assert not changes[A]["counted"] and [p["code"] for p in changes[A]["problems"]] == ["change_without_reference"]
    assert changes[B]["counted"]
    assert {t["target"]: t["weight"] for t in v["tally"]} == {B: 1, D: 1}


@pytest.mark.parametrize("name", ["red_living", "brackets", "late_request", "dead_request", "delay_ends",
                                  "markup_m84", "quote_004"])
def test_report_remind_and_votes_agree(games: dict[str, Path], name: str, tmp_path: Path) -> None:
    """Every scenario: `report` writes the announcement, and `remind` names the same unvoted players as `votes`."""
    from click.testing import CliRunner

    from daoyan.cli import cli
    v = run("votes", str(games[name]), "--day", "1")
    r = CliRunner().invoke(cli, ["report", str(games[name]), "--day", "1", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    bb = (tmp_path / "day1.bbcode.txt").read_text("utf-8")
    out = v["outcome"]["out"]
    assert (out is None) or out in bb
    rem = run("remind", str(games[name]), "--day", "1", "--at", "2026-12-02T21:30:00")
    assert rem["not_voted"] == v["not_voted"]
