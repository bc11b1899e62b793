"""The announcement (公示): the golden file, hostile names, nothing secret, no HTML.

Regenerate the golden file after an intended change with DAOYAN_REGEN_GOLDEN=1.
"""
from __future__ import annotations

import copy
import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from reports import render_json, write_reports
from reports._text import clean
from reports.bbcode import render_bbcode

GOLDEN = Path(__file__).parent / "golden"
ANALYSIS = GOLDEN / "day1.analysis.json"

# Discuz tags and HTML a player could put in a name or a reason.
HOSTILE = ["[/b]", "[/table]", "[url=http://evil.example/]点我[/url]", "[img]http://evil.example/x.png[/img]",
           "[color=red]", "[/list]", "[*]", "[size=7]", "<div>", "<br>", "<script>alert(1)</script>"]
TAG = re.compile(r"\[/?(b|i|u|s|url|img|color|size|table|tr|td|list|quote|code|hide|free|media|audio|flash|email|align|font|\*)(=[^\]]*)?\]",
                 re.I)


def load() -> dict:
    return json.loads(ANALYSIS.read_text("utf-8"))


def test_golden_day1():
    got = render_bbcode(load())
    path = GOLDEN / "day1.bbcode.txt"
    if os.environ.get("DAOYAN_REGEN_GOLDEN"):
        path.write_text(got, "utf-8", newline="\n")
    assert path.exists(), "golden file missing: run with DAOYAN_REGEN_GOLDEN=1"
    assert got.encode("utf-8") == path.read_bytes()


def test_fixture_matches_ground_truth(truth):
    """The golden analysis is the capture's day 1, so the golden file says what the forum says."""
    a, want = load(), truth["game"]["days"]["1"]
    assert a["votes"]["tally"] == [{"target": t["target"], "weight": t["weight"], "voters": t["voters"]}
                                   for t in want["tally"]]
    assert a["votes"]["outcome"] == want["outcome"]
    assert a["votes"]["not_voted"] == want["not_voted"]
    assert a["votes"]["abstained"] == want["abstained"]
    assert [(p["player"], p["card"], p["rule"]) for p in a["activity"]["penalties"]] == \
        [(p["player"], p["card"], p["rule"]) for p in want["penalties"]]
    assert {p["player"]: p["posts"] for p in a["activity"]["players"]} == want["posts"]


def test_announcement_says_what_matters():
    text = render_bbcode(load())
    assert "[b]结果：[/b][color=#D00000][b]包子[/b][/color] 出局" in text
    row = next(line for line in text.splitlines() if line.startswith("[tr][td][b]包子"))
    assert row.index("饺子") < row.index("馄饨") < row.index("汤圆") < row.index("烧卖") < row.index("煎饼") < row.index("锅贴")
    assert "[td]6[/td]" in row
    assert "[b]未投票：[/b]月饼" in text
    for who in ("麻花", "锅贴", "月饼"):
        assert re.search(rf"\[\*\]\[b\]{who}\[/b\] \[color=[^\]]+\]\[b\]黄牌\[/b\]\[/color\]（M84 违规判定 5\(\d\)）", text)
    assert "改票只允许1次" in text and "#19" in text


@pytest.mark.parametrize("card,zh", [("yellow", "黄牌"), ("blue", "蓝牌"), ("red", "红牌"), ("green", "绿牌")])
def test_cards_in_chinese(card, zh):
    a = load()
    a["activity"]["penalties"] = [{"player": "麻花", "card": card, "rule": "M84 违规判定 5(1)", "reason": ""}]
    assert f"[b]{zh}[/b]" in render_bbcode(a)


def test_tie_nobody_out():
    a = load()
    a["votes"]["tally"] = [{"target": "馄饨", "weight": 3, "voters": ["汤圆", "春卷", "粽子"]},
                           {"target": "饺子", "weight": 3, "voters": ["馄饨", "油条", "煎饼"]}]
    a["votes"]["outcome"] = {"out": None, "tie": ["馄饨", "饺子"]}
    text = render_bbcode(a)
    assert "平票，无人出局" in text and "馄饨、饺子" in text and "出局[/b]" in text
    assert "[color=#D00000][b]馄饨[/b][/color] 出局" not in text


def test_nothing_secret():
    a = load()
    a["game"]["roles"] = {"饺子": "死灵魔术师"}
    a["flags"][0]["evidence"] = "秘密证据甲乙丙"
    a["flags"][0]["context"] = "上下文丁戊己"
    a["flags"][0]["note"] = "导演私下备注"
    a["activity"]["uncounted"] = [{"pid": 999, "floor": 99, "player": "麻花", "why": "water", "message": "纯水帖庚辛"}]
    text = render_bbcode(a)
    for f in a["flags"]:
        for key in ("evidence", "context", "note", "id"):
            if f.get(key):
                assert f[key] not in text, (key, f[key])
    for secret in ("死灵魔术师", "纯水帖庚辛", "mod=redirect", "pid=", "待审"):
        assert secret not in text


def _with(insert: str) -> dict:
    a = load()
    name = f"坏{insert}人"
    a["votes"]["tally"][0]["target"] = name
    a["votes"]["tally"][0]["voters"][0] = name
    a["votes"]["ballots"][0]["voter"] = name
    a["votes"]["outcome"]["out"] = name
    a["votes"]["not_voted"] = [name]
    a["activity"]["penalties"][0]["player"] = name
    a["activity"]["penalties"][0]["reason"] = f"理由{insert}"
    a["votes"]["ballots"][5]["problems"][0]["message"] = f"问题{insert}"
    a["game"]["name"] = f"局{insert}"
    return a


@pytest.mark.parametrize("hostile", HOSTILE)
def test_hostile_names_and_reasons_stay_text(hostile):
    benign = render_bbcode(_with("安全"))
    text = render_bbcode(_with(hostile))
    # The tags Discuz would parse are exactly the renderer's own, as many as with a harmless name.
    assert TAG.findall(text) == TAG.findall(benign)
    assert not re.search(r"<[a-zA-Z/!]", text), "HTML in the announcement"
    # And the text still shows as written (the joiner is invisible).
    assert hostile in text.replace("\u200d", "")


def test_invisible_characters_stripped_and_newlines_cannot_forge_lines():
    a = load()
    sneaky = "包\u200b子\u202e\u2066"
    a["votes"]["not_voted"] = [sneaky, "月饼\n[b]结果：[/b]饺子 出局"]
    text = render_bbcode(a)
    line = next(line for line in text.splitlines() if line.startswith("[b]未投票"))
    assert "包子" in line
    for ch in ("\u200b", "\u202e", "\u2066"):
        assert ch not in text
    assert text.count("[b]结果：[/b]") == 1


def test_no_html_anywhere():
    assert not re.search(r"<(div|span|table|p|br|a|img|script)\b", render_bbcode(load()), re.I)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("[]/<>=*b包子url img table\u200b\u202e\n ")), max_size=30))
def test_any_name_leaves_tag_count_unchanged(name):
    def named(who: str) -> dict:
        """The golden day with the abstaining player (油条, #9) and a carded one renamed `who`."""
        a = copy.deepcopy(load())
        a["votes"]["abstained"] = [who]
        for b in a["votes"]["ballots"]:
            if b["voter"] == "油条":
                b["voter"] = who
        a["activity"]["penalties"][1]["player"] = who
        return a

    who = name if clean(name) else "x"  # a name of invisible marks only is dropped, with its floor
    expected = len(TAG.findall(render_bbcode(named("x"))))
    text = render_bbcode(named(who))
    assert len(TAG.findall(text)) == expected
    assert not re.search(r"<[a-zA-Z/!]", text)


def test_write_reports_atomic_files(tmp_path):
    a = load()
    paths = write_reports(a, tmp_path / "out")
    assert {k: p.name for k, p in paths.items()} == {"bbcode": "day1.bbcode.txt", "html": "day1.html", "json": "day1.json"}
    assert paths["bbcode"].read_text("utf-8") == render_bbcode(a)
    assert json.loads(paths["json"].read_text("utf-8")) == a
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["day1.bbcode.txt", "day1.html", "day1.json"]
    write_reports(a, tmp_path / "out")  # rewriting leaves no temp files behind
    assert len(list((tmp_path / "out").iterdir())) == 3


def test_json_is_stable_and_readable():
    a = load()
    shuffled = dict(reversed(list(a.items())))
    assert render_json(a) == render_json(shuffled)
    assert "包子" in render_json(a) and "\\u" not in render_json(a)


def test_two_problems_of_one_ballot_read_as_one_sentence() -> None:
    """A director pastes the announcement as it is: 不计。；按规则 would be a visible typo."""
    from reports._text import clauses

    assert clauses(["关门后发帖，不计。", "投票格式有误：缺少理由。"]) == "关门后发帖，不计；投票格式有误：缺少理由。"
    assert clauses(x for x in ["甲", "乙"]) == "甲；乙"
    assert clauses([]) == ""
