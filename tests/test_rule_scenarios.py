"""Scenarios where the count was still wrong after issue 18, one rule decision each, each quoting
the rule sentence it rests on (engine level; the forum-level ones are in test_rule_scenarios_e2e.py)."""
from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest

from engine.activity import count_activity
from engine.lurking import day_record, lurking_penalties
from engine.remind import reminders

from .test_rule_decisions import DAY, M84, PLAYERS, R004, RS, P, ballot, count_votes, state, t, tally


# M84 游戏进程 投票规则: 【投票格式】 投票对象：饺子 / 投票理由：饺子好吃; 讨论结束时，未回复投票帖者将被判罚黄牌.
# A label written in the 【】 the rule post itself prints around 【投票格式】 is still the label: the post is a
# ballot (never "not voted", which is a yellow card).
@pytest.mark.parametrize("preset", ["m84", "004"])
@pytest.mark.parametrize("text", [
    "【投票对象】：包子\n【投票理由】：好吃",
    "[投票对象]：包子\n[投票理由]：好吃",
    "【投票对象】:包子【投票理由】:好吃",
    "【投票对象：包子】\n【投票理由：好吃】",
])
def test_bracketed_labels_are_a_ballot(preset, text):
    c = count_votes([P(2, "饺子", text, "1 11:00")], rules=RS[preset], day=DAY, state=state())
    b = ballot(c, 2)
    assert (b.kind, b.target, b.valid, b.counted) == ("vote", "包子", True, True), b.codes
    assert "饺子" not in c.not_voted


@pytest.mark.parametrize("preset", ["m84", "004"])
def test_bracketed_change_label_is_a_change(preset):
    posts = [P(2, "饺子", "投票对象：包子\n投票理由：好吃", "1 11:00"),
             P(3, "饺子", "【改票对象】：馄饨\n【改票理由】：想换", "1 12:00", quote=2, reply=2)]
    c = count_votes(posts, rules=RS[preset], day=DAY, state=state())
    assert tally(c) == {"馄饨": 1.0}


def _days(n: int):
    return [dataclasses.replace(DAY, number=i, opens=DAY.opens + timedelta(days=2 * (i - 1)),
                                closes=DAY.closes + timedelta(days=2 * (i - 1))) for i in range(1, n + 1)]


def _record(rs, d, posts: int, accelerated: bool = False):
    ps = [dataclasses.replace(P(10 + i, "饺子", "我觉得包子有问题", "1 11:00", tid=1),
                              posted_at=d.opens + timedelta(hours=1)) for i in range(posts)]
    act = count_activity({"discussion": ps}, ruleset=rs, day=d, state=state(living=("饺子",)))
    return act, day_record(act, accelerated=accelerated, voted=("饺子",))


# 004 违规判定 5(1): 未加快进程的连续两个讨论日发言不足五贴; M84 违规判定 5(2): 连续三个未执行加速的讨论日发言均不足十帖.
# `remind` warns of a multi-day card exactly when the count would give it: a run that already earned its
# card starts again (engine.lurking), so the day after it is not "at risk".
@pytest.mark.parametrize("rs, per_day, n_days, rule_days", [(R004, 2, 3, 2), (M84, 6, 4, 3)])
def test_remind_at_risk_agrees_with_the_lurking_card(rs, per_day, n_days, rule_days):
    days = _days(n_days)
    hist = [_record(rs, d, per_day)[1] for d in days[:-1]]
    act, today = _record(rs, days[-1], per_day)
    pens = [p for p in lurking_penalties(hist + [today], ruleset=rs) if len(p.days) == rule_days]
    r = reminders(ruleset=rs, day=days[-1], at=days[-1].closes - timedelta(hours=2), activity=act, not_voted=(),
                  history=hist + [today])
    warned = [s for s in r.at_risk if s.player == "饺子" and s.needed == next(
        x.threshold for x in rs.lurking if x.kind == "posts_below" and x.days == rule_days) - per_day]
    assert bool(warned) == bool(pens), (r.at_risk, pens)


def test_remind_still_warns_before_a_run_completes():
    """004 未加快进程的连续两个讨论日发言不足五贴: 2 posts on day 1, 2 so far on day 2 — warn (needs 3)."""
    days = _days(2)
    hist = [_record(R004, days[0], 2)[1]]
    act, today = _record(R004, days[1], 2)
    r = reminders(ruleset=R004, day=days[1], at=days[1].closes - timedelta(hours=2), activity=act, not_voted=(),
                  history=hist + [today])
    assert [(s.player, s.needed) for s in r.at_risk] == [("饺子", 3)]


# M84 讨论日长短: 执行加速时，所有人不可改票 … 延迟成功时，不再视为“执行加速”状态. Accelerated at 13:00, then a
# delay granted at 16:00: a change at 14:00 was made while accelerated (void); one at 17:00 stands.
def test_m84_a_change_while_accelerated_stays_void_after_a_delay_ends_it():
    from engine.acceleration import acceleration

    from .test_rule_decisions import posts3
    prog = posts3(("饺子", "申请加速", "1 11:00"), ("包子", "申请加速", "1 12:00"), ("馄饨", "申请加速", "1 13:00"),
                  ("汤圆", "申请延时", "1 14:30"), ("烧卖", "申请延时", "1 15:00"), ("春卷", "申请延时", "1 16:00"))
    a = acceleration(prog, ruleset=M84, day=DAY, state=state())
    assert not a.accelerated and a.delayed and a.was_accelerated == (t("1 13:00"), t("1 16:00"))
    votes = [P(2, "饺子", "投票对象：包子\n投票理由：x", "1 11:00"), P(3, "包子", "投票对象：馄饨\n投票理由：x", "1 11:00"),
             P(4, "饺子", "改票对象：馄饨\n改票理由：y", "1 14:00", quote=2, reply=2),
             P(5, "包子", "改票对象：汤圆\n改票理由：y", "1 17:00", quote=3, reply=3)]
    c = count_votes(votes, rules=M84, day=DAY, state=state(), accelerated=a.accelerated,
                    accelerated_window=a.was_accelerated)
    assert ballot(c, 4).codes == ["change_while_accelerated"] and not ballot(c, 4).counted
    assert ballot(c, 5).counted
    assert tally(c) == {"包子": 1.0, "汤圆": 1.0}
    assert not c.accelerated
