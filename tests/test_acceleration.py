"""Acceleration and delay from the progress thread (M84 / 004 讨论日长短)."""
from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from gamedef.gamefile import Day
from gamedef.ruleset import load_ruleset
from engine.acceleration import acceleration, accelerated_at, needed, stance
from engine.state import DayState
from parsers.models import Post

M84 = load_ruleset("m84")
R004 = load_ruleset("004")
TZ = ZoneInfo("Asia/Shanghai")
OPENS = datetime(2026, 12, 1, 10, tzinfo=TZ)
CLOSES = datetime(2026, 12, 2, 22, tzinfo=TZ)
PLAYERS = ("饺子", "包子", "馄饨", "汤圆", "烧卖", "春卷")


def day(**kw) -> Day:
    return Day(number=1, discussion_tid=1, vote_tid=2, progress_tid=3, opens=OPENS, closes=CLOSES, **kw)


def state(living=PLAYERS, out=(), event=False) -> DayState:
    return DayState(day=1, at=OPENS, players=PLAYERS + out, living=living, out=out, priest=None, whistled=(),
                    excused=(), accelerated_event=event)


def posts(*items) -> list[Post]:
    """(author, text, hours after opening)."""
    return [Post(tid=3, pid=i + 1, floor=i + 2, author=a, uid=None, posted_at=OPENS + timedelta(hours=h),
                 time_precision="second", message_html="", text=t) for i, (a, t, h) in enumerate(items)]


def asks(names, text="申请加速", start=1.0):
    return [(n, text, start + i) for i, n in enumerate(names)]


@pytest.mark.parametrize("rs, n, granted", [(M84, 3, True), (M84, 2, False), (R004, 3, False), (R004, 4, True)])
def test_at_least_half_against_more_than_half(rs, n, granted):
    a = acceleration(posts(*asks(PLAYERS[:n])), ruleset=rs, day=day(), state=state())
    assert a.accelerated is granted and a.living == 6
    assert a.needed == (3 if rs is M84 else 4)


def test_needed_for_odd_counts():
    assert needed(M84.acceleration, 7) == 4 and needed(R004.acceleration, 7) == 4
    assert needed(M84.acceleration, 1) == 1 and needed(R004.acceleration, 0) == 1


def test_granted_at_is_the_post_that_reached_the_threshold():
    a = acceleration(posts(*asks(PLAYERS[:5])), ruleset=M84, day=day(), state=state())
    assert a.granted_at == OPENS + timedelta(hours=3) and a.granted_pid == 3 and a.granted_floor == 4
    assert not accelerated_at(a, OPENS + timedelta(hours=2, minutes=59))
    assert accelerated_at(a, OPENS + timedelta(hours=3))


def test_m84_cut_off_three_hours_before_close():
    hours_to_cut = (CLOSES - OPENS).total_seconds() / 3600 - 3
    items = asks(PLAYERS[:2]) + [("馄饨", "申请加速", hours_to_cut)]
    assert acceleration(posts(*items), ruleset=M84, day=day(), state=state()).accelerated
    items = asks(PLAYERS[:2]) + [("馄饨", "申请加速", hours_to_cut + 0.01)]
    a = acceleration(posts(*items), ruleset=M84, day=day(), state=state())
    assert not a.accelerated and a.posts[-1].why == "after_cutoff"
    # 004 has no cut-off: a request an hour before the close still counts
    items = asks(PLAYERS[:3]) + [("汤圆", "申请加速", hours_to_cut + 2)]
    assert acceleration(posts(*items), ruleset=R004, day=day(), state=state()).accelerated


@pytest.mark.parametrize("text", ["反对加速", "反对加速，讨论还不够", "我不同意加速", "不要加速"])
def test_an_objection_is_not_a_request(text):
    assert stance(text, M84.acceleration) == {"accelerate": False}
    a = acceleration(posts(*asks(PLAYERS[:2]), ("馄饨", text, 5)), ruleset=M84, day=day(), state=state())
    assert not a.accelerated and a.requests == ("饺子", "包子")


def test_an_objection_withdraws_an_earlier_request():
    a = acceleration(posts(("饺子", "申请加速", 1), ("包子", "申请加速", 2), ("饺子", "还是反对加速吧", 3),
                           ("馄饨", "加速", 4)), ruleset=M84, day=day(), state=state())
    assert not a.accelerated and a.requests == ("包子", "馄饨")


def test_a_player_counts_once():
    a = acceleration(posts(*asks(["饺子"] * 3 + ["包子"])), ruleset=M84, day=day(), state=state())
    assert a.requests == ("饺子", "包子") and not a.accelerated


def test_dead_players_and_outsiders_do_not_count():
    st = state(living=PLAYERS[:4], out=("月饼",))
    a = acceleration(posts(("月饼", "申请加速", 1), ("路人甲", "申请加速", 2), ("饺子", "申请加速", 3)),
                     ruleset=M84, day=day(), state=st)
    assert a.requests == ("饺子",) and not a.accelerated and a.living == 4
    assert [p.why for p in a.posts] == ["out", "not_a_player", None]


def test_a_player_out_mid_day_leaves_the_living_count():
    out_at = {"春卷": OPENS + timedelta(minutes=30), "烧卖": OPENS + timedelta(minutes=40)}
    a = acceleration(posts(*asks(PLAYERS[:2])), ruleset=M84, day=day(), state=state(), out_at=out_at)
    assert a.accelerated and a.living == 4  # two of four living


def test_a_granted_delay_cancels_acceleration():
    items = asks(PLAYERS[:3]) + asks(PLAYERS[3:], text="申请延时", start=5)
    a = acceleration(posts(*items), ruleset=M84, day=day(), state=state())
    assert a.delayed and not a.accelerated and a.granted_at is None and a.delays == PLAYERS[3:]


def test_the_directors_override_wins():
    a = acceleration(posts(*asks(PLAYERS)), ruleset=M84, day=day(accelerated=False), state=state())
    assert not a.accelerated and a.source == "override"
    a = acceleration([], ruleset=M84, day=day(accelerated=True), state=state())
    assert a.accelerated and a.source == "override" and a.granted_at == OPENS
    a = acceleration([], ruleset=M84, day=day(), state=state(event=True))
    assert a.accelerated and a.source == "override"
    a = acceleration(posts(*asks(PLAYERS[:3])), ruleset=M84, day=day(accelerated=True), state=state())
    assert a.granted_at == OPENS + timedelta(hours=3)  # the thread says when


def test_a_plain_reply_is_not_a_stance():
    a = acceleration(posts(("饺子", "大家怎么看？", 1)), ruleset=M84, day=day(), state=state())
    assert a.posts == () and a.requests == () and a.to_json()["accelerated"] is False
