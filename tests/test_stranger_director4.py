"""A stranger director's fourth report: each case quotes the rule sentence it rests on.

(7) water: a single "+1" is not a 水帖 flag (004 has no rule on water posts beyond leaving them out
of the count; M84's is about many in a day), and a "+1" the acceleration count takes as a request
says something.
(2) acceleration: when the requests are set against the living (ruleset `acceleration.judged`), a
player leaving mid-day, and the numbers printed being the numbers used.
(1) a player renamed on the forum before the first scan: the roster name has no post while an
unknown account posts in the game's threads; the director is told, and the lurking cards wait.
"""
from __future__ import annotations

import dataclasses
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from daoyan.analysis import unknown_account_warnings
from daoyan.cli import cli
from daoyan.demo.server import DemoForum
from daoyan.scan import scan_game
from gamedef.gamefile import load_game

from gamedef.gamefile import Day
from gamedef.ruleset import load_ruleset
from engine.acceleration import acceleration
from engine.activity import count_activity, water_heavy
from engine.state import DayState
from moderation.checker import get_checker
from parsers.models import Post

from .reliability_support import fast_game

TZ = timezone(timedelta(hours=8))
M84 = load_ruleset("m84")
R004 = load_ruleset("004")
RS = {"m84": M84, "004": R004}
PLAYERS = ("青梅", "竹马", "白露", "霜降", "小满", "芒种", "谷雨", "惊蛰", "清明", "立夏", "寒露", "大寒")
OPENS = datetime(2026, 11, 23, 10, tzinfo=TZ)
DAY = Day(number=1, discussion_tid=34, vote_tid=35, progress_tid=36, opens=OPENS, closes=OPENS + timedelta(hours=12))


def at(hhmm: str) -> datetime:
    h, m = hhmm.split(":")
    return OPENS.replace(hour=int(h), minute=int(m))


def post(pid: int, author: str, text: str, when: str, tid: int = 36) -> Post:
    return Post(tid=tid, pid=pid, floor=pid + 1, author=author, uid=None, posted_at=at(when),
                time_precision="second", message_html="", text=text)


def state(players=PLAYERS) -> DayState:
    return DayState(day=1, at=OPENS, players=players, living=players, out=(), priest=None, whistled=(), excused=(),
                    accelerated_event=False)


def progress(n_requests: int, *seconds: str) -> list[Post]:
    """`n_requests` players ask at 12:00, 12:01, …; then each of `seconds` replies "+1" at 12:30, 12:31, …"""
    out = [post(i + 1, PLAYERS[i], "申请加速", f"12:{i:02d}") for i in range(n_requests)]
    out += [post(100 + i, PLAYERS[n_requests], text, f"12:{30 + i}") for i, text in enumerate(seconds)]
    return out


# ---------------------------------------------------------------------------------------------- (7)

@pytest.mark.parametrize("rs, text, rule", [
    ("004", "+1", "004 违规判定 5(1)：连续三个讨论日均不足十帖（不含纯水帖） — water only leaves the count"),
    ("004", "顶", "004 违规判定 5(1)：（不含纯水帖） — 004 has no rule on many water posts"),
    ("m84", "+1", "M84 违规判定 6(5)：大量无意义水帖 — about many posts, not one"),
    ("m84", "附议", "M84 违规判定 6(5)：大量无意义水帖"),
])
def test_a_single_water_post_is_not_flagged(rs, text, rule):
    flags = get_checker(RS[rs]).check_post(post(7, "芒种", text, "12:30"), RS[rs])
    assert "water" not in [f.category for f in flags], rule


def _water_flagged(rs, by_role, acc=None):
    act = count_activity(by_role, ruleset=rs, day=DAY, state=state())
    return water_heavy(act, by_role, threshold=rs.activity.water_flag_per_day, acceleration=acc)


@pytest.mark.parametrize("rs, count_in, texts, role, flagged, rule", [
    # 004.toml: 004 has no rule on many water posts (纯水帖 only do not count as posts): never flagged as such
    ("004", ("discussion",), ["顶"] * 8, "discussion", False, "004 违规判定 5(1)（不含纯水帖）"),
    ("004", ("discussion", "progress"), ["+1"] * 8, "progress", False, "004 违规判定 5(1)（不含纯水帖）"),
    # M84 违规判定 6(5) 大量无意义水帖: five or more meaningless posts in a day
    ("m84", ("discussion",), ["顶"] * 5, "discussion", True, "M84 违规判定 6(5)：大量无意义水帖"),
    ("m84", ("discussion",), ["顶"] * 4, "discussion", False, "M84 违规判定 6(5)：大量无意义水帖"),
    # a "+1" under a request is that player's request (M84 当日申请人数; seconding = request): not meaningless
    ("m84", ("discussion", "progress"), ["+1"] * 5, "progress", False, "M84 游戏进程 讨论日长短：未出局角色可在进程帖中申请加速"),
])
def test_water_per_day_follows_the_ruleset_field(rs, count_in, texts, role, flagged, rule):
    base = RS[rs]
    ruleset = dataclasses.replace(base, activity=dataclasses.replace(base.activity, count_in=count_in))
    prog = progress(3, *texts) if role == "progress" else progress(3)
    disc = [post(200 + i, "芒种", text, f"13:{i:02d}", tid=34) for i, text in enumerate(texts)] if role == "discussion" else []
    by_role = {"discussion": disc, "progress": prog}
    acc = acceleration(prog, ruleset=ruleset, day=DAY, state=state())
    if role == "progress":
        assert acc.requests[-1] == PLAYERS[3], "the +1 is counted as a request"
    assert bool(_water_flagged(ruleset, by_role, acc)) is flagged, rule


# ---------------------------------------------------------------------------------------------- (2)

R004_TEXT = "004 游戏流程 讨论日长短：如果在进程帖中申请加速的玩家超过所有存活玩家的二分之一则游戏进程加速"
M84_TEXT = "M84 游戏进程 讨论日长短：当日申请人数在讨论日结束三个小时前…大于等于存活人数的一半，即判定加速或延迟成功"
WITHDRAW = [post(50, "青梅", "撤回申请", "13:00")]


@pytest.mark.parametrize("rs, players, seconds, extra, out_at, accelerated, granted, living, needed, counted, rule", [
    # the stranger's day: 6 of 12 ask by 12:30 (not more than half); 立夏's red card at 15:00 leaves 11
    ("004", 12, ["+1"], [], {"立夏": "15:00"}, True, "15:00", 11, 6, 6, R004_TEXT),
    ("004", 12, ["+1"], [], {}, False, None, 12, 7, 6, R004_TEXT),
    # a requester who leaves takes the request along: 5 of 11
    ("004", 12, ["+1"], [], {"青梅": "15:00"}, False, None, 11, 6, 5, R004_TEXT),
    # reached at 12:30 already with 11 alive; a withdrawal afterwards does not undo it
    ("004", 11, ["+1"], WITHDRAW, {}, True, "12:30", 11, 6, 6, R004_TEXT),
    # M84: 6 of 12 is 大于等于一半 at 12:30, but withdrawn at 13:00: at the 19:00 cut-off 5 of 12 stand
    ("m84", 12, ["+1"], WITHDRAW, {}, False, None, 12, 6, 5, M84_TEXT),
    ("m84", 12, ["+1"], [], {}, True, "12:30", 12, 6, 6, M84_TEXT),
    # 5 of 11 is not half; 寒露 out at 15:00 leaves 10 before the cut-off: 5 of 10 from then on
    ("m84", 11, [], [], {"寒露": "15:00"}, True, "15:00", 10, 5, 5, M84_TEXT),
    # out after the 19:00 cut-off: the count was judged before
    ("m84", 11, [], [], {"寒露": "20:00"}, False, None, 11, 6, 5, M84_TEXT),
    # reached at 12:30; the numbers used are those of the cut-off (大寒 out at 15:00, 寒露 only at 20:00)
    ("m84", 12, ["+1"], [], {"大寒": "15:00", "寒露": "20:00"}, True, "12:30", 11, 6, 6, M84_TEXT),
])
def test_acceleration_is_judged_as_the_ruleset_reads_the_rule(rs, players, seconds, extra, out_at, accelerated,
                                                              granted, living, needed, counted, rule):
    roster = PLAYERS[:players]
    a = acceleration(progress(5, *seconds) + extra, ruleset=RS[rs], day=DAY, state=state(roster),
                     out_at={k: at(v) for k, v in out_at.items()})
    assert a.accelerated is accelerated, rule
    assert (a.granted_at == at(granted)) if granted else a.granted_at is None, rule
    assert (a.living, a.needed, a.counted) == (living, needed, counted), rule
    assert a.judged == RS[rs].acceleration.judged
    # the numbers printed are the numbers the answer rests on
    assert RS[rs].acceleration.granted(a.counted, a.living) is a.accelerated
    judged_at = a.cutoff if rs == "m84" or not a.accelerated else a.granted_at
    assert a.to_json()["judged_at"] == judged_at.isoformat()


@pytest.mark.parametrize("rs, reading", [("004", "when_reached"), ("m84", "at_cutoff")])
def test_the_reading_is_shown(rs, reading):
    got = {r["field"]: r for r in RS[rs].readings()}["acceleration.judged"]
    assert got["reading"] == reading and "存活" in got["rule"]


# ---------------------------------------------------------------------------------------------- (1)

GLOSSARY = "GLOSSARY: the forum username of a role account is the player's name in the game"
LURK = "004 违规判定 5(1)：在未加快进程的单个讨论日没有发言 — a card for no post needs the player's posts"


def _game(players=PLAYERS[:4], directors=("说书人",)):
    return SimpleNamespace(players=players, directors=directors, day=lambda n: DAY, alias_names=dict)


@pytest.mark.parametrize("authors, warned, rule", [
    # 寒露 renamed to 寒露酱 before the first scan: the roster name is silent, the new name posts
    ({"青梅": 3, "竹马": 2, "白露": 1, "寒露酱": 7}, {"霜降": ["寒露酱"]}, GLOSSARY),
    # everyone on the roster posted: a passer-by is not a renamed player
    ({"青梅": 3, "竹马": 2, "白露": 1, "霜降": 1, "路人": 2}, {}, GLOSSARY),
    # a silent player and nobody unknown: a plain lurker (004 违规判定 5(1))
    ({"青梅": 3, "竹马": 2, "白露": 1}, {}, LURK),
    # the only other poster is a director: directors post by right
    ({"青梅": 3, "竹马": 2, "白露": 1, "说书人": 4}, {}, GLOSSARY),
    # posted outside the day (before the opening): not in the game's threads that day
    ({"青梅": 3, "竹马": 2, "白露": 1, "寒露酱@08:00": 2}, {}, GLOSSARY),
])
def test_a_silent_player_beside_an_unknown_account_is_warned(authors, warned, rule):
    posts, pid = [], 1
    for who, n in authors.items():
        name, _, when = who.partition("@")
        for _ in range(n):
            p = post(pid, name, "我觉得还要再看看", "11:00", tid=34)
            if when:
                p = dataclasses.replace(p, posted_at=OPENS.replace(hour=8))
            posts.append(p)
            pid += 1
    ws = unknown_account_warnings(_game(), 1, {"discussion": posts}, state(PLAYERS[:4]))
    assert {w["player"]: [a["name"] for a in w["accounts"]] for w in ws} == warned, rule
    for w in ws:
        assert w["kind"] == "unknown_account" and w["player"] in w["message"]
        assert all(a["name"] in w["message"] for a in w["accounts"]) and "aliases" in w["message"]


def _run_json(*args):
    r = CliRunner().invoke(cli, [str(a) for a in args] + ["--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def renamed_first(tmp_path_factory) -> Path:
    """The demo game, 青梅 renamed to 青梅酒 on the forum before daoyan ever scanned it."""
    folder = tmp_path_factory.mktemp("renamed_first")
    with DemoForum() as forum:
        forum.rename_member("青梅", "青梅酒")
        path = fast_game(folder, forum.base_url)
        scan_game(load_game(path))
    return path


@pytest.mark.parametrize("command", ["votes", "activity", "cards", "remind", "report"])
def test_every_count_names_the_unknown_account(renamed_first, command, tmp_path):
    """GLOSSARY: a role account's forum username is the player's name — under a name the store never
    saw, 青梅's posts are a stranger's; every output that counts them says so and names both."""
    if command == "report":
        r = CliRunner().invoke(cli, ["report", str(renamed_first), "--day", "1", "--out", str(tmp_path)])
        assert r.exit_code == 0, r.output
        data = json.loads((tmp_path / "day1.json").read_text("utf-8"))
        assert "青梅酒" in (tmp_path / "day1.html").read_text("utf-8")
        assert "青梅酒" in r.stderr
    else:
        args = ["--day", "1"] + (["--at", "2026-11-12T21:00"] if command == "remind" else [])
        data = _run_json(command, renamed_first, *args)
    ws = [w for w in data["warnings"] if w["kind"] == "unknown_account"]
    assert [w["player"] for w in ws] == ["青梅"] and ws[0]["accounts"][0]["name"] == "青梅酒", GLOSSARY


def test_the_lurking_cards_of_that_player_are_provisional(renamed_first):
    """004/M84 违规判定 5 潜水: a card for posting too little rests on the player's posts; while they may
    sit under an unknown name, the card is provisional (the clock alone would make it final)."""
    a = _run_json("activity", renamed_first, "--day", "1")
    assert a["penalties_final"] is True  # the day is closed and scanned after close
    mine = [p for p in a["penalties"] if p["player"] == "青梅"]
    assert mine and all(p["provisional"] and p["provisional_why"] == "unknown_account" for p in mine)
    assert all(not p["provisional"] for p in a["penalties"] if p["player"] != "青梅")
    cards = _run_json("cards", renamed_first, "--day", "1")
    players = cards["players"] if isinstance(cards["players"], list) else list(cards["players"].values())
    entries = [e for p in players if p["player"] == "青梅" for e in p["entries"] if e["source"] == "lurking"]
    assert entries and all(e["provisional"] for e in entries)


def test_no_warning_when_the_store_knew_the_old_name(tmp_path):
    """A rename after the first scan is tied by uid (renamed_account), not warned as unknown."""
    with DemoForum() as forum:
        path = fast_game(tmp_path, forum.base_url)
        scan_game(load_game(path))
        forum.rename_member("青梅", "青梅酒")
        scan_game(load_game(path), full=True)
    kinds = [w["kind"] for w in _run_json("votes", path, "--day", "1")["warnings"]]
    assert "renamed_account" in kinds and "unknown_account" not in kinds
