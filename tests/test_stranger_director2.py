"""A new director runs the demo game past its first day the way a stranger would: a game file
written by hand (events forgotten, no game name), commands in any order, and reads votes, check,
report. Each test says what a careful director expects, quoting the rule sentence it rests on."""
from __future__ import annotations

import json
import re
import shutil
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from click.testing import CliRunner

from daoyan.cli import cli
from daoyan.demo.server import DemoForum
from daoyan.scan import scan_game
from gamedef.gamefile import load_game

from .reliability_support import fast_game, game_variant, scanned_demo


def run(*args: object):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, [str(a) for a in args])


def run_json(*args: object) -> dict:
    r = run(*args, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo game scanned once after both days closed; variants of its game file share the store."""
    return scanned_demo(tmp_path_factory.mktemp("director2"))


variant = game_variant


def without_events(text: str) -> str:
    return text[:text.index("[[event]]")] if "[[event]]" in text else text


# 1 ------------------------------------------------------------------------------------------------

def test_the_day_before_s_vote_puts_its_leader_out_without_an_event(scanned: Path, tmp_path: Path) -> None:
    """M84 投票: 讨论日获得投票最多的角色将出局. 出局: 已公示出局的角色不允许在讨论帖、投票帖、进程帖中发言，
    不允许被选为技能或投票的目标. DESIGN.md: votes decide who goes out by vote unless an event says
    otherwise. A director who has not (yet) written day 1's result as an event must not see 霜降,
    voted out on day 1, vote on day 2 — nor miss his 诈尸."""
    path = variant(scanned, tmp_path, without_events)
    v = run_json("votes", path, "--day", 2)
    voters = [x for t in v["tally"] for x in t["voters"]]
    assert "霜降" not in voters
    mine = [b for b in v["ballots"] if b["voter"] == "霜降"]
    assert mine and not mine[0]["counted"] and "voter_out" in [p["code"] for p in mine[0]["problems"]]
    w = [w for w in v["warnings"] if w["kind"] == "vote_out_inferred"]
    assert [(x["player"], x["from_day"]) for x in w] == [("霜降", 1)]
    # the same count as with the event written by hand
    assert v["tally"] == run_json("votes", scanned, "--day", 2)["tally"]
    a = run_json("activity", path, "--day", 2)
    assert "霜降" not in [p["player"] for p in a["penalties"]]
    dead = [f for f in run_json("check", path, "--day", 2)["flags"] if f["category"] == "dead_post"]
    assert {f["author"] for f in dead} == {"霜降"}


def test_an_out_event_naming_the_vote_says_otherwise(scanned: Path, tmp_path: Path) -> None:
    """The director's own word wins: an `out` event of day 2 with reason "vote" names who went out by
    vote, and daoyan adds nobody of its own."""
    def edit(text: str) -> str:
        return without_events(text) + '\n[[event]]\nday = 2\nkind = "out"\nplayer = "青梅"\nreason = "vote"\n'
    path = variant(scanned, tmp_path, edit)
    v = run_json("votes", path, "--day", 2)
    assert not [w for w in v["warnings"] if w["kind"] == "vote_out_inferred"]
    assert "霜降" in [x for t in v["tally"] for x in t["voters"]]


# 2 ------------------------------------------------------------------------------------------------

def test_the_announcement_names_this_game_not_the_preset_s(scanned: Path, tmp_path: Path) -> None:
    """M84 公示: 讨论日进行时、投票结束时都会随时公示游戏流程相关信息. The demo game 节气夜话 plays by the
    m84 preset; its announcement must not be headed with the name of the game the preset's rules
    were taken from (『埃尔梅罗二世事件簿』), which the game file nowhere names. Without `name`, the
    scanned rule thread's subject names it."""
    assert 'name =' not in scanned.read_text("utf-8")
    r = run("report", scanned, "--day", 2, "--out", tmp_path)
    assert r.exit_code == 0, r.output
    bb = (tmp_path / "day2.bbcode.txt").read_text("utf-8")
    html = (tmp_path / "day2.html").read_text("utf-8")
    first = bb.splitlines()[0].replace("\u200d", "")
    assert "埃尔梅罗" not in bb and "埃尔梅罗" not in html
    assert "节气夜话 第2天 投票公示" in first and "规则" not in first
    assert re.search(r"<title>\[M84\] 节气夜话 第2天", html)


def test_a_name_in_the_game_file_heads_the_announcement(scanned: Path, tmp_path: Path) -> None:
    path = variant(scanned, tmp_path, lambda t: t.replace("[game]\n", '[game]\nname = "春分夜谈"\n', 1))
    r = run("report", path, "--day", 1, "--out", tmp_path)
    assert r.exit_code == 0, r.output
    assert "春分夜谈 第1天 投票公示" in (tmp_path / "day1.bbcode.txt").read_text("utf-8").splitlines()[0]


# 3 ------------------------------------------------------------------------------------------------

def night_out(player: str, day: int = 2) -> str:
    return f'\n[[event]]\nday = {day}\nkind = "out"\nplayer = "{player}"\nreason = "night"\n'


def test_a_priest_out_without_a_successor_is_warned(scanned: Path, tmp_path: Path) -> None:
    """M84 神父 殉职<强制>: 神父并非因为罚下而出局后，须选择一名未出局的角色来继任神父. 青梅, elected on
    day 1, dies in the night; the game file names no successor, so day 2 is counted with nobody's
    vote at 1.5 — the director must be told, not left to find the 1.5 missing in the announcement."""
    path = variant(scanned, tmp_path, lambda t: without_events(t) + night_out("青梅"))
    v = run_json("votes", path, "--day", 2)
    assert v["priest"] is None
    w = [w for w in v["warnings"] if w["kind"] == "priest_missing"]
    assert [x["player"] for x in w] == ["青梅"] and "1.5" in w[0]["message"]
    assert all(t["weight"] == int(t["weight"]) for t in v["tally"])


def test_a_named_successor_silences_the_warning_and_weighs_1_5(scanned: Path, tmp_path: Path) -> None:
    """神的代言人<强制>: 计算投票数量时神父投出的票计为1.5票 — the successor's vote, once named."""
    succ = '\n[[event]]\nday = 2\nkind = "priest"\nplayer = "竹马"\n'
    path = variant(scanned, tmp_path, lambda t: without_events(t) + night_out("青梅") + succ)
    v = run_json("votes", path, "--day", 2)
    assert v["priest"] == "竹马"
    assert not [w for w in v["warnings"] if w["kind"] == "priest_missing"]
    baili = next(t for t in v["tally"] if t["target"] == "白露")
    assert "竹马" in baili["voters"] and baili["weight"] == 3.5  # 竹马 1.5 + 芒种 + 立夏


def test_a_living_priest_is_no_warning(scanned: Path) -> None:
    v = run_json("votes", scanned, "--day", 2)
    assert v["priest"] == "青梅" and not [w for w in v["warnings"] if w["kind"] == "priest_missing"]


# 4 ------------------------------------------------------------------------------------------------

TZ = ZoneInfo("Asia/Shanghai")
LIVING3 = ("青梅", "竹马", "小满", "芒种", "谷雨", "惊蛰", "清明", "立夏", "寒露")


def _d3(hh: int, mm: int, ss: int = 0) -> datetime:
    return datetime(2026, 11, 16, hh, mm, ss, tzinfo=TZ)


@pytest.fixture(scope="module")
def three_days(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo game with a third day (Monday 16 November) the director added by hand: 白露 voted out
    on day 2 (no event written), 大寒 sent off on day 2 by his fourth yellow (3 yellows = 1 red)."""
    out = tmp_path_factory.mktemp("three_days")
    with DemoForum() as forum:
        path = fast_game(out, forum.base_url)
        disc = forum.add_thread("[M84] 节气夜话 · 第三天讨论", posted_at=_d3(10, 0), first_html="第三天开始")
        vote = forum.add_thread("[M84] 节气夜话 · 第三天投票", posted_at=_d3(10, 0), role="vote", first_html="投票")
        for i in range(6):
            for j, p in enumerate(LIVING3):
                forum.add_post(disc, p, f"第三天第{i}条：我看{LIVING3[(i + j + 1) % 9]}有问题。", _d3(11 + i, j))
        for k, (v, t) in enumerate((("青梅", "竹马"), ("竹马", "小满"), ("小满", "竹马"), ("芒种", "小满"),
                                    ("谷雨", "小满"), ("惊蛰", "弃权"), ("清明", "竹马"), ("立夏", "竹马"),
                                    ("寒露", "竹马"))):
            forum.add_post(vote, v, f"投票对象：{t}<br />投票理由：第三天", _d3(12, k))
        prog = forum.add_thread("[M84] 节气夜话 · 第三天进程", posted_at=_d3(10, 0), role="progress", first_html="进程")
        for k, p in enumerate(("青梅", "竹马", "小满", "芒种", "白露")):
            forum.add_post(prog, p, "申请加速", _d3(15, k))
        forum.add_post(disc, "白露", "我出局了但还想说两句", _d3(13, 30))
        forum.add_post(vote, "大寒", "投票对象：青梅<br />投票理由：罚下了也投", _d3(13, 31))
        with path.open("a", encoding="utf-8") as f:
            f.write(f"\n[[day]]\nnumber = 3\ndiscussion_tid = {disc}\nvote_tid = {vote}\n"
                    "opens = 2026-11-16T10:00:00\ncloses = 2026-11-16T22:00:00\n")
        scan_game(load_game(path))
        accel = out / "accel.toml"
        accel.write_text(path.read_text("utf-8").replace(f"vote_tid = {vote}\n", f"vote_tid = {vote}\nprogress_tid = {prog}\n"),
                         "utf-8")
        scan_game(load_game(accel))
    return path


def test_a_player_sent_off_earlier_posting_is_flagged(three_days: Path) -> None:
    """M84 违规判定 6(2): 已出局角色在讨论帖、投票帖、进程帖中发言（即“诈尸”）; 红牌: 玩家受到红牌判罚时出局
    （称为“红牌罚下”）. 大寒 was sent off at day 2's settlement; his day-3 ballot is 诈尸, as 白露's post
    (voted out on day 2) is."""
    dead = {(f["author"], f["floor"]) for f in run_json("check", three_days, "--day", 3)["flags"]
            if f["category"] == "dead_post"}
    assert {a for a, _ in dead} == {"大寒", "白露"}
    v = run_json("votes", three_days, "--day", 3)
    assert "大寒" not in [x for t in v["tally"] for x in t["voters"]]
    assert {t["target"]: t["weight"] for t in v["tally"]} == {"竹马": 5.5, "小满": 3}  # 青梅 the priest: 1.5


def test_three_short_days_in_a_row_earn_one_yellow_each(three_days: Path) -> None:
    """M84 违规判定 5(2): 连续三个未执行加速的讨论日发言均不足十帖 (固定判罚一张“黄牌”). Only players in
    the game on day 3 are judged; 白露 and 大寒, out, are not."""
    a = run_json("activity", three_days, "--day", 3)
    got = {(p["player"], p["rule"]) for p in a["penalties"]}
    assert got == {(p, "M84 违规判定 5(2)") for p in ("谷雨", "清明", "立夏", "寒露")}


def test_a_request_by_a_player_voted_out_does_not_accelerate(three_days: Path) -> None:
    """M84 讨论日长短: 未出局角色可在进程帖中申请加速或延时。当日申请人数在讨论日结束三个小时前 … 大于等于
    存活人数的一半，即判定加速或延迟成功. On day 3 nine players are in the game (霜降, 白露 voted out,
    大寒 sent off); four of them ask, and 白露, voted out on day 2 with no event written, asks too.
    Four of nine is under half: the day is not accelerated and its lurking cards stand."""
    accel = three_days.with_name("accel.toml")
    v = run_json("votes", accel, "--day", 3)
    assert v["accelerated"] is False
    a = run_json("activity", accel, "--day", 3)
    assert a["accelerated"] is False
    assert {p["player"] for p in a["penalties"]} == {"谷雨", "清明", "立夏", "寒露"}


# 5 ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("precision, warned", [("minute", True), ("second", False)])
def test_a_ballot_shown_at_the_closing_minute_is_warned(precision: str, warned: bool) -> None:
    """004 投票规则: 投票截止时间是当天白天结束 … 时间以论坛发帖时间为准. Without the mobile API a page
    shows 22:00 for a post made any time from 22:00:00 to 22:00:59: the count takes the page's word
    (counted), but the director must be told the ballot may be late; a time read to the second is
    not in doubt."""
    from engine.votes import count_votes
    from engine.state import DayState
    from gamedef.gamefile import Day
    from gamedef.ruleset import load_ruleset
    from parsers.models import Post

    day = Day(number=1, discussion_tid=1, vote_tid=2, opens=datetime(2026, 12, 1, 10, tzinfo=TZ),
              closes=datetime(2026, 12, 1, 22, tzinfo=TZ))
    players = ("饺子", "包子")
    st = DayState(day=1, at=day.opens, players=players, living=players, out=(), priest=None, whistled=(),
                  excused=(), accelerated_event=False)
    text = "投票对象：包子\n投票理由：卡点"
    posts = [Post(tid=2, pid=102, floor=2, author="饺子", uid=None, posted_at=datetime(2026, 12, 1, 22, 0, tzinfo=TZ),
                  time_precision=precision, message_html=text, text=text)]
    c = count_votes(posts, rules=load_ruleset("004"), day=day, state=st)
    b = c.ballots[0]
    assert b.counted and c.outcome.out == "包子"
    assert ("close_minute" in b.codes) is warned


# 6 ------------------------------------------------------------------------------------------------

def test_a_tied_election_says_why_the_winner_won(scanned: Path, tmp_path: Path) -> None:
    """M84 神父 推举<强制>: 在游戏的第一天投票结束后，最先获得投票数最多的角色当选神父. The demo's election
    ends 青梅 4, 白露 4: an announcement that shows two equal counts and one winner must say what
    decided it, or every player reads it as a mistake."""
    r = run("report", scanned, "--day", 1, "--out", tmp_path)
    assert r.exit_code == 0, r.output
    bb = (tmp_path / "day1.bbcode.txt").read_text("utf-8")
    why = next(line for line in bb.splitlines() if "同为" in line)
    assert "青梅、白露 同为 4 票" in why and "青梅 于 2026-11-10 15:32 最先达到" in why
    assert "最先获得投票数最多的角色当选神父" in why


def test_the_announcement_says_whose_vote_weighs_1_5(scanned: Path, tmp_path: Path) -> None:
    """M84 神父 神的代言人<强制>: 计算投票数量时神父投出的票计为1.5票. Day 2 shows 白露 4.5 from four
    voters; the announcement names the priest whose vote made the half."""
    r = run("report", scanned, "--day", 2, "--out", tmp_path)
    assert r.exit_code == 0, r.output
    bb = (tmp_path / "day2.bbcode.txt").read_text("utf-8")
    assert "神父 青梅 的票计 1.5 票" in bb
    r = run("report", scanned, "--day", 1, "--out", tmp_path)
    assert "的票计" not in (tmp_path / "day1.bbcode.txt").read_text("utf-8")  # no priest yet on day 1


# 7 ------------------------------------------------------------------------------------------------

def test_events_dated_the_day_they_were_decided_are_warned(scanned: Path, tmp_path: Path) -> None:
    """A director writes "霜降 went out on day 1, 青梅 became priest on day 1" as day = 1 events. An
    event counts from its day's opening (DESIGN.md: in force from `day` on), so day 1's count loses
    every vote for 霜降 and names another player out. M84 投票: 讨论日获得投票最多的角色将出局; 推举:
    在游戏的第一天投票结束后 … 当选神父 — both happen at day 1's end, so both belong to day 2. The count
    follows the file, and says why it looks wrong."""
    path = variant(scanned, tmp_path, lambda t: t.replace("[[event]]\nday = 2\n", "[[event]]\nday = 1\n"))
    v = run_json("votes", path, "--day", 1)
    w = {x["player"]: x["message"] for x in v["warnings"] if x["kind"] == "event_day"}
    assert set(w) == {"霜降", "青梅"}
    assert "day = 2" in w["霜降"] and "day = 2" in w["青梅"]
    assert not [x for x in run_json("votes", scanned, "--day", 2)["warnings"] if x["kind"] == "event_day"]


# 8 ------------------------------------------------------------------------------------------------

def test_a_player_renamed_on_the_forum_is_still_the_player(tmp_path: Path) -> None:
    """GLOSSARY: the forum username of a role account is the player's name in the game. An
    administrator renames 青梅 to 青梅酒 after day 2 (Discuz rewrites the author of every old post);
    the director scans again. 青梅 did post and vote: no lurking card, no 未投票 for her, her
    priest's 1.5 still counts (M84 神的代言人), a change naming 青梅酒 is a vote for her, and the
    director is told of the rename."""
    with DemoForum() as forum:
        path = fast_game(tmp_path, forum.base_url)
        scan_game(load_game(path))
        before = run_json("votes", path, "--day", 2)
        forum.rename_member("青梅", "青梅酒")
        day2 = forum.sample.threads[32].posts
        change = next(x for x in day2 if x.author == "小满")  # 小满 changes to the new name, quoting her vote
        forum.add_post(32, "小满", "改票对象：青梅酒<br />改票理由：改名了也照投", datetime(2026, 11, 13, 20, 0, tzinfo=TZ),
                       quote_pid=change.pid)
        scan_game(load_game(path), full=True)
    v = run_json("votes", path, "--day", 2)
    weights = {t["target"]: t["weight"] for t in v["tally"]}
    assert weights["青梅"] == 1 and weights["竹马"] == 3  # 小满's change to 青梅酒 is a change to 青梅
    assert {t["target"]: t["weight"] for t in before["tally"]}["竹马"] == 4
    assert weights["白露"] == 4.5 and "青梅" not in v["not_voted"]  # her 1.5 as priest still counts
    assert [w["names"] for w in v["warnings"] if w["kind"] == "renamed_account"] == [["青梅酒"]]
    a = run_json("activity", path, "--day", 2)
    assert "青梅" not in [p["player"] for p in a["penalties"]]
    assert next(p for p in a["players"] if p["player"] == "青梅")["posts"] > 0


# 9 ------------------------------------------------------------------------------------------------

def test_a_proxy_change_in_the_game_file_says_how_to_write_it(scanned: Path, tmp_path: Path) -> None:
    """M84 投票规则: 演员可以委托导演代投 … 改票只允许进行一次. 竹马 voted in the thread, then asked the
    director to change to 清明; a [[proxy]] without `change = true` is a second vote and not counted —
    the message must say what to write in the game file, not to quote a floor the director has not got."""
    proxy = '\n[[proxy]]\nday = 2\nplayer = "竹马"\ntarget = "清明"\nat = 2026-11-13T15:00:00\n'
    path = variant(scanned, tmp_path, lambda t: t + proxy)
    b = next(x for x in run_json("votes", path, "--day", 2)["ballots"] if x["voter"] == "竹马" and x["pid"] is None)
    assert not b["counted"] and "change = true" in b["problems"][0]["message"]
    path.write_text(path.read_text("utf-8") + "change = true\n", "utf-8")
    b = next(x for x in run_json("votes", path, "--day", 2)["ballots"] if x["voter"] == "竹马" and x["pid"] is None)
    assert b["counted"] and b["kind"] == "change" and b["target"] == "清明"


def test_the_desk_lists_the_outs_the_counts_imply(three_days: Path) -> None:
    """The desk's event list is where a director checks who is out: 白露 (voted out on day 2) and 大寒
    (sent off on day 2) are listed for day 3 although the game file names neither."""
    from daoyan.commands._common import open_game
    from daoyan.desk.shaping import day_page

    g, store = open_game(str(three_days))
    with store:
        page = day_page(g, store, 3, None, now=g.now())
    outs = {e.player for e in page["game"].events if e.kind == "out" and e.day <= 3}
    assert {"霜降", "白露", "大寒"} <= outs
