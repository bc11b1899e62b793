"""Every lurking threshold of both presets (M84 违规判定 5, 004 违规判定 5(1) and 投票规则), edges included."""
from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, strategies as st

from gamedef.gamefile import Day
from gamedef.ruleset import load_ruleset
from engine.acceleration import acceleration
from engine.activity import count_activity
from engine.lurking import DayRecord, day_record, lurking_penalties
from engine.state import DayState
from parsers.models import Post

M84 = load_ruleset("m84")
R004 = load_ruleset("004")
TZ = ZoneInfo("Asia/Shanghai")
OPENS = datetime(2026, 12, 1, 10, tzinfo=TZ)
CLOSES = datetime(2026, 12, 2, 22, tzinfo=TZ)
PLAYERS = ("饺子", "包子", "馄饨", "汤圆")


def rec(day: int, posts: dict[str, int], *, acc: bool = False, voted=None, whistled=(), excused=(), out_mid=(),
        living=PLAYERS) -> DayRecord:
    return DayRecord(day=day, accelerated=acc, living=frozenset(living), posts={p: posts.get(p, 20) for p in living},
                     voted=frozenset(living if voted is None else voted), whistled=frozenset(whistled),
                     excused=frozenset(excused), out_mid_day=frozenset(out_mid))


def cards(history, rs):
    return sorted((p.player, p.rule) for p in lurking_penalties(history, ruleset=rs))


# --- M84 5(1): fewer than five posts on a non-accelerated day
@pytest.mark.parametrize("n, carded", [(0, True), (4, True), (5, False), (6, False)])
def test_m84_five_posts_edge(n, carded):
    got = cards([rec(1, {"包子": n})], M84)
    assert (("包子", "M84 违规判定 5(1)") in got) is carded


def test_m84_reason_names_the_counts():
    (p,) = lurking_penalties([rec(1, {"包子": 4})], ruleset=M84)
    assert (p.card, p.rule, p.reason) == ("yellow", "M84 违规判定 5(1)", "第1天讨论帖发言4帖，不足5帖")
    assert p.counts == (4,) and p.days == (1,)


# --- M84 5(2): three consecutive non-accelerated days each under ten
def test_m84_three_days_under_ten():
    h = [rec(1, {"包子": 9}), rec(2, {"包子": 7}), rec(3, {"包子": 5})]
    assert cards(h, M84) == [("包子", "M84 违规判定 5(2)")]
    assert cards(h[:2], M84) == []
    (p,) = lurking_penalties(h, ruleset=M84)
    assert p.days == (1, 2, 3) and p.counts == (9, 7, 5) and "均不足10帖" in p.reason


def test_m84_ten_on_one_day_breaks_the_run():
    h = [rec(1, {"包子": 9}), rec(2, {"包子": 10}), rec(3, {"包子": 5})]
    assert cards(h, M84) == []


def test_m84_both_rules_fire_on_one_day():
    h = [rec(1, {"包子": 9}), rec(2, {"包子": 9}), rec(3, {"包子": 4})]
    assert cards(h, M84) == [("包子", "M84 违规判定 5(1)"), ("包子", "M84 违规判定 5(2)")]


def test_accelerated_day_is_skipped_not_counted_in_a_run():
    h = [rec(1, {"包子": 9}), rec(2, {"包子": 0}, acc=True), rec(3, {"包子": 9})]
    assert cards(h, M84) == []  # only two non-accelerated days
    h.append(rec(4, {"包子": 8}))
    (p,) = lurking_penalties(h, ruleset=M84)
    assert p.days == (1, 3, 4) and "跳过加速日" in p.reason


def test_a_run_that_earned_a_card_starts_again():
    h = [rec(d, {"包子": 9}) for d in range(1, 7)]
    fired = [d for d in range(1, 7) if cards(h[:d], M84)]
    assert fired == [3, 6]


def test_no_card_at_all_on_an_accelerated_day():
    h = [rec(1, {"包子": 9}), rec(2, {"包子": 9}), rec(3, {"包子": 0}, acc=True, voted=())]
    assert cards(h, M84) == [] and cards(h, R004) == []


# --- M84 5(3) / 004 投票规则: no vote
def test_no_vote_card_and_exemptions():
    got = cards([rec(1, {}, voted=("饺子",), whistled=("包子",), excused=("馄饨",))], M84)
    assert got == [("汤圆", "M84 违规判定 5(3)")]
    got = cards([rec(1, {}, voted=("饺子",))], R004)
    assert got == sorted((p, "004 游戏流程 投票规则") for p in ("包子", "馄饨", "汤圆"))


# --- 004 违规判定 5(1): no post on a day; two days under five; three days under ten; water excluded
@pytest.mark.parametrize("n, carded", [(0, True), (1, False)])
def test_004_no_post_on_a_day(n, carded):
    got = lurking_penalties([rec(1, {"包子": n})], ruleset=R004)
    assert any(p.threshold == 1 for p in got) is carded
    if carded:
        assert got[0].reason == "第1天讨论帖没有发言（不含纯水帖）"


@pytest.mark.parametrize("first, second, carded", [(4, 4, True), (5, 4, False), (4, 5, False), (0, 4, True)])
def test_004_two_days_under_five(first, second, carded):
    got = lurking_penalties([rec(1, {"包子": first}), rec(2, {"包子": second})], ruleset=R004)
    assert any(p.threshold == 5 for p in got) is carded


def test_004_one_day_under_five_is_no_card():
    assert cards([rec(1, {"包子": 4})], R004) == []


def test_004_three_days_under_ten():
    h = [rec(1, {"包子": 9}), rec(2, {"包子": 9}), rec(3, {"包子": 9})]
    got = lurking_penalties(h, ruleset=R004)
    assert [(p.threshold, p.days) for p in got] == [(10, (1, 2, 3))]


def test_004_zero_posts_two_days_gives_two_cards():
    got = lurking_penalties([rec(1, {"包子": 0}), rec(2, {"包子": 0})], ruleset=R004)
    assert sorted(p.threshold for p in got) == [1, 5]


def _post(pid: int, author: str, at: datetime, text: str = "春卷的发言有问题", tid: int = 1) -> Post:
    return Post(tid=tid, pid=pid, floor=pid, author=author, uid=None, posted_at=at, time_precision="second",
                message_html="", text=text)


def _day(**kw) -> Day:
    return Day(number=1, discussion_tid=1, vote_tid=2, progress_tid=3, opens=OPENS, closes=CLOSES, **kw)


def _state(**kw) -> DayState:
    base = dict(day=1, at=OPENS, players=PLAYERS, living=PLAYERS, out=(), priest=None, whistled=(), excused=(),
                accelerated_event=False)
    base.update(kw)
    return DayState(**base)


def test_004_water_is_excluded_from_the_count():
    t = OPENS + timedelta(hours=1)
    posts = [_post(i, "包子", t, "顶") for i in range(1, 4)] + [_post(4, "包子", t, "。。。"),
                                                               _post(5, "包子", t, "我觉得馄饨是狼")]
    act = count_activity({"discussion": posts}, ruleset=R004, day=_day(), state=_state())
    row = act.of("包子")
    assert (row.posts, row.counted_posts, row.water) == (5, 1, 4)
    assert [u.why for u in act.uncounted] == ["water"] * 4
    m = count_activity({"discussion": posts}, ruleset=M84, day=_day(), state=_state())
    assert m.of("包子").counted_posts == 5  # M84 counts every post
    h = [rec(1, {"包子": 4}), day_record(act, accelerated=False, voted=PLAYERS)]
    h[1] = DayRecord(day=2, accelerated=False, living=h[1].living, posts=h[1].posts, voted=h[1].voted)
    assert [p.threshold for p in lurking_penalties(h, ruleset=R004) if p.player == "包子"] == [5]


def test_window_edges_and_other_threads():
    posts = [_post(1, "包子", OPENS - timedelta(seconds=1)), _post(2, "包子", OPENS), _post(3, "包子", CLOSES),
             _post(4, "包子", CLOSES + timedelta(seconds=1))]
    act = count_activity({"discussion": posts, "vote": [_post(9, "包子", OPENS, tid=2)]},
                         ruleset=M84, day=_day(), state=_state())
    assert act.of("包子").posts == 2
    assert {u.pid: u.why for u in act.uncounted} == {1: "before_open", 4: "after_close"}


def test_a_day_made_accelerated_mid_way_has_no_lurking_card():
    mid = OPENS + timedelta(hours=5)
    progress = [_post(20 + i, p, mid + timedelta(minutes=i), "申请加速", tid=3) for i, p in enumerate(PLAYERS[:2])]
    acc = acceleration(progress, ruleset=M84, day=_day(), state=_state())
    assert acc.accelerated and acc.granted_at == mid + timedelta(minutes=1)
    act = count_activity({"discussion": [_post(1, "包子", OPENS)]}, ruleset=M84, day=_day(), state=_state())
    r = day_record(act, accelerated=acc.accelerated, voted=())
    assert lurking_penalties([r], ruleset=M84) == []
    r = day_record(act, accelerated=False, voted=())
    assert len(lurking_penalties([r], ruleset=M84)) == 8  # four players, each under five and no vote


def test_a_player_out_mid_day_is_not_penalised_for_that_day():
    out_at = {"包子": OPENS + timedelta(hours=2)}
    posts = [_post(1, "包子", OPENS + timedelta(hours=1)), _post(2, "包子", OPENS + timedelta(hours=3))]
    act = count_activity({"discussion": posts}, ruleset=M84, day=_day(), state=_state(), out_at=out_at)
    assert act.of("包子").posts == 1 and act.of("包子").out_at == out_at["包子"]
    assert [(u.pid, u.why) for u in act.uncounted] == [(2, "out")]
    r = day_record(act, accelerated=False, voted=("饺子", "馄饨", "汤圆"))
    got = lurking_penalties([r], ruleset=M84)
    assert "包子" not in {p.player for p in got}


def test_a_player_out_before_the_day_gains_no_posts():
    act = count_activity({"discussion": [_post(1, "包子", OPENS)]}, ruleset=M84, day=_day(),
                         state=_state(living=PLAYERS[:1] + PLAYERS[2:], out=("包子",)))
    assert "包子" not in act.posts and act.uncounted[0].why == "out"


@given(st.lists(st.tuples(st.integers(0, 12), st.booleans()), min_size=1, max_size=8))
def test_no_card_for_a_day_with_enough_posts_and_a_vote(days):
    h = [rec(i + 1, {"包子": n}, acc=a) for i, (n, a) in enumerate(days)]
    h.append(rec(len(h) + 1, {"包子": 10}))
    for rs in (M84, R004):
        assert "包子" not in {p.player for p in lurking_penalties(h, ruleset=rs)}


@given(st.lists(st.integers(0, 12), min_size=1, max_size=6), st.randoms())
def test_history_order_does_not_matter(counts, rnd):
    h = [rec(i + 1, {"包子": n}) for i, n in enumerate(counts)]
    shuffled = list(h)
    rnd.shuffle(shuffled)
    for rs in (M84, R004):
        assert lurking_penalties(h, ruleset=rs) == lurking_penalties(shuffled, ruleset=rs)
