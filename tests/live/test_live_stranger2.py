"""A new director's second day on a real Discuz X3.5: day 1's vote put 包子 out and the director
wrote no event for it; day 2's count, activity and check must treat 包子 as out (DESIGN.md: votes
decide who goes out by vote unless an event says otherwise), and say that the count decided it."""
from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest

from .conftest import DIRECTOR, DIRECTOR_B, PASSWORD, PLAYERS, SHANGHAI, daoyan

pytestmark = pytest.mark.live


def _local(t: datetime) -> str:
    return t.replace(tzinfo=None).isoformat(timespec="seconds")


def test_a_player_voted_out_on_day_one_is_out_on_day_two(forum_utf8, tmp_path) -> None:
    """M84 出局: 已公示出局的角色不允许在讨论帖、投票帖、进程帖中发言，不允许被选为技能或投票的目标;
    投票: 讨论日获得投票最多的角色将出局."""
    forum = forum_utf8
    now = datetime.now(SHANGHAI).replace(microsecond=0)
    o1, c1 = now - timedelta(hours=50), now - timedelta(hours=26)
    o2, c2 = now - timedelta(hours=24), now + timedelta(hours=6)

    def at(base: datetime, minutes: int) -> int:
        return int((base + timedelta(minutes=minutes)).timestamp())

    users = [{"name": DIRECTOR, "group": 1, "password": PASSWORD}] + \
        [{"name": p, "group": 10, "password": PASSWORD} for p in PLAYERS] + \
        [{"name": DIRECTOR_B, "group": 10, "password": PASSWORD}]
    day1 = [("饺子", "包子"), ("馄饨", "包子"), ("汤圆", "包子"), ("包子", "饺子"), ("烧卖", "饺子"), ("春卷", "弃权")]
    day2 = [("饺子", "馄饨"), ("馄饨", "饺子"), ("汤圆", "馄饨"), ("包子", "饺子"), ("烧卖", "饺子"), ("春卷", "饺子")]
    threads = []
    for n, (o, ballots) in enumerate(((o1, day1), (o2, day2)), start=1):
        talk = [{"author": p, "message": f"第{n}天第{i}帖：{p}的分析。", "time": at(o, 5 + 6 * i + j)}
                for i in range(5) for j, p in enumerate(PLAYERS)]
        votes = [{"author": v, "message": f"投票对象：{t}\n投票理由：第{n}天", "time": at(o, 60 + k)}
                 for k, (v, t) in enumerate(ballots)]
        threads += [{"key": f"d{n}", "fid": 2, "subject": f"[S2] 第{n}天讨论帖", "author": DIRECTOR, "time": at(o, 0),
                     "message": f"第{n}天讨论帖开门。", "posts": talk},
                    {"key": f"v{n}", "fid": 2, "subject": f"[S2] 第{n}天投票帖", "author": DIRECTOR, "time": at(o, 1),
                     "message": f"第{n}天投票帖。", "posts": votes}]
    keys = forum.seed({"users": users, "forums": [{"fid": 2, "name": "版杀"}], "threads": threads})

    lines = ["[forum]", f'base_url = "{forum.url}"', 'api = "auto"', "rate = 50", "connections = 4", "retries = 1",
             "timeout = 20", "", "[game]", 'ruleset = "m84"', 'timezone = "Asia/Shanghai"',
             "players = [" + ", ".join(f'"{p}"' for p in PLAYERS) + "]", f'directors = ["{DIRECTOR}", "{DIRECTOR_B}"]',
             f"rules_tid = {keys['d1']['tid']}"]
    for n, (o, c) in enumerate(((o1, c1), (o2, c2)), start=1):
        lines += ["", "[[day]]", f"number = {n}", f"discussion_tid = {keys[f'd{n}']['tid']}",
                  f"vote_tid = {keys[f'v{n}']['tid']}", f"opens = {_local(o)}", f"closes = {_local(c)}"]
    gf = tmp_path / "game.toml"
    gf.write_text("\n".join(lines) + "\n", "utf-8")

    r = daoyan("scan", gf, "-q")
    assert r.exit_code == 0, r.output
    v1 = json.loads(daoyan("votes", gf, "--day", 1, "--json").stdout)
    assert v1["outcome"]["out"] == "包子"

    v2 = json.loads(daoyan("votes", gf, "--day", 2, "--json").stdout)
    assert {t["target"]: t["weight"] for t in v2["tally"]} == {"饺子": 3, "馄饨": 2}
    b = next(x for x in v2["ballots"] if x["voter"] == "包子")
    assert not b["counted"] and "voter_out" in [p["code"] for p in b["problems"]]
    assert [w["player"] for w in v2["warnings"] if w["kind"] == "vote_out_inferred"] == ["包子"]
    assert "包子" not in v2["not_voted"]

    flags = json.loads(daoyan("check", gf, "--day", 2, "--json").stdout)["flags"]
    assert {f["author"] for f in flags if f["category"] == "dead_post"} == {"包子"}
    a = json.loads(daoyan("activity", gf, "--day", 2, "--json").stdout)
    assert "包子" not in [p["player"] for p in a["players"]]
