"""Stranger director 5, item 2: a director's proxy (代投) that does not count is not the player's vote.

What answers the vote thread for the no-vote card:
- 004 投票规则: 每人一票，允许弃权，弃权也需要发投票帖，并计为一次投票 … 投票格式有误的投票将算作废票。
  没有投票（或弃票）的玩家将记作一张黄牌 — a player's own void post is still a vote post
  (`invalid_counts_as_voted`), but 玩家须知 9 若导演在投票截止前30分钟内再让导演代投，该票作废: a void
  proxy is no post of the player's, so the player has not voted.
- M84 投票规则: 讨论结束时，未回复投票帖者将被判罚黄牌; 关门前一小时不允许改票或代投 — a proxy posted in
  the last hour does not count, and the player never replied.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from engine.activity import count_activity
from engine.lurking import day_record, lurking_penalties
from engine.state import DayState
from engine.votes import count_votes, only_invalid_warnings, voter_statuses
from gamedef.gamefile import Day, ProxyVote
from gamedef.ruleset import load_ruleset
from parsers.models import Post

TZ = timezone(timedelta(hours=8))
PLAYERS = ("饺子", "包子", "馄饨", "清明")
DAY = Day(number=1, discussion_tid=1, vote_tid=2, opens=datetime(2026, 12, 1, 10, tzinfo=TZ),
          closes=datetime(2026, 12, 1, 22, tzinfo=TZ))
STATE = DayState(day=1, at=DAY.opens, players=PLAYERS, living=PLAYERS, out=(), priest=None, whistled=(),
                 excused=(), accelerated_event=False, directors=("导演A",))

O04_VOID = "004 玩家须知 9：若导演在投票截止前30分钟内再让导演代投，该票作废"
O04_NOVOTE = "004 投票规则：没有投票（或弃票）的玩家将记作一张黄牌"
O04_ABSTAIN = "004 玩家须知 9：不允许给出条件让导演确定投票对象，否则视为弃权；投票规则：弃权…计为一次投票"
O04_OWN = "004 投票规则：投票格式有误的投票将算作废票 (invalid_counts_as_voted: a void post is still a vote post)"
M84_LOCK = "M84 投票规则：关门前一小时不允许改票或代投；讨论结束时，未回复投票帖者将被判罚黄牌"
M84_OK = "M84 投票规则：演员可以委托导演代投"


def at(hhmm: str) -> datetime:
    h, m = hhmm.split(":")
    return DAY.opens.replace(hour=int(h), minute=int(m))


def post(floor: int, author: str, text: str, when: str) -> Post:
    return Post(tid=2, pid=100 + floor, floor=floor, author=author, uid=None, posted_at=at(when),
                time_precision="second", message_html=text, text=text)


def proxy_post(floor: int, when: str, target: str = "饺子") -> Post:
    return post(floor, "导演A", f"【代投】清明\n投票对象：{target}", when)


def own(floor: int, when: str, text: str = "投票对象：饺子\n投票理由：好") -> Post:
    return post(floor, "清明", text, when)


OTHERS = [post(2, "饺子", "投票对象：包子\n投票理由：x", "11:00"), post(3, "包子", "投票对象：饺子\n投票理由：x", "11:30"),
          post(4, "馄饨", "投票对象：饺子\n投票理由：x", "12:00")]

# (preset, 清明's ballots (thread posts), game-file proxies, has voted (replied), counted, rule)
CASES = [
    ("004", [proxy_post(9, "21:40")], [], False, False, O04_VOID),
    ("004", [], [ProxyVote(day=1, player="清明", target="饺子", at=at("21:45"))], False, False, O04_VOID),
    ("004", [proxy_post(9, "21:40")], [], False, False, O04_NOVOTE),
    ("m84", [proxy_post(9, "21:30")], [], False, False, M84_LOCK),
    ("m84", [], [ProxyVote(day=1, player="清明", target="饺子", at=at("21:10"))], False, False, M84_LOCK),
    # a proxy that counts is the player's vote
    ("004", [proxy_post(9, "20:00")], [], True, True, "004 玩家须知 9：导演至少在投票截至的30分钟前…发出代投信息"),
    ("m84", [proxy_post(9, "20:00")], [], True, True, M84_OK),
    # 004's conditional proxy is an abstention, and an abstention is a vote
    ("004", [proxy_post(9, "20:00", "谁票多投谁")], [], True, True, O04_ABSTAIN),
    # the player's own invalid post still answers the thread (the ruleset's invalid_counts_as_voted)
    ("004", [own(9, "20:00", "投票对象：饺仔\n投票理由：x")], [], True, False, O04_OWN),
    # the player's own vote earlier, then a void proxy: voted all the same
    ("004", [own(8, "12:00"), proxy_post(9, "21:40", "包子")], [], True, True, O04_VOID),
]


@pytest.mark.parametrize("preset, mine, proxies, replied, counted, rule", CASES)
def test_a_proxy_that_does_not_count_is_not_a_vote(preset, mine, proxies, replied, counted, rule):
    rules = load_ruleset(preset)
    c = count_votes(OTHERS + mine, rules=rules, day=DAY, state=STATE, proxies=proxies)
    assert ("清明" in c.replied) is replied, rule
    assert ("清明" in c.not_voted) is (not replied), rule
    assert any(b.counted for b in c.ballots if b.voter == "清明") is counted, rule
    st = voter_statuses(c, PLAYERS)["清明"]
    assert st.replied is replied and st.voted is counted, rule

    # the no-vote lurking card follows (M84 违规判定 5(3) / 004 玩家须知 2: 未投票 → 黄牌)
    act = count_activity({"vote": OTHERS + mine}, ruleset=rules, day=DAY, state=STATE)
    pens = lurking_penalties([day_record(act, accelerated=False, voted=c.replied)], ruleset=rules)
    no_vote = [lr.rule for lr in rules.lurking if lr.kind == "no_vote"]
    carded = any(p.player == "清明" and p.rule in [rules.citation(r) for r in no_vote] + no_vote for p in pens)
    assert carded is (not replied), (rule, pens)


@pytest.mark.parametrize("preset, rule", [("004", O04_VOID), ("m84", M84_LOCK)])
def test_the_warning_says_the_void_proxy_is_no_reply(preset, rule):
    c = count_votes(OTHERS + [proxy_post(9, "21:40")], rules=load_ruleset(preset), day=DAY, state=STATE)
    assert c.only_invalid == ("清明",), rule
    (w,) = only_invalid_warnings(c, load_ruleset(preset).vote)
    assert "代投" in w["message"] and "不算回复过投票帖" in w["message"] and "按未投票计" in w["message"], rule
    assert "excused" in w["message"]  # the director's way out when the late proxy was the director's doing


def test_a_player_s_own_invalid_ballot_keeps_the_old_warning():
    """004 投票格式有误的投票将算作废票 — still a vote post: the warning says so, as before."""
    c = count_votes(OTHERS + [own(9, "20:00", "投票对象：饺仔\n投票理由：x")], rules=load_ruleset("004"), day=DAY,
                    state=STATE)
    (w,) = only_invalid_warnings(c, load_ruleset("004").vote)
    assert "invalid_counts_as_voted = true" in w["message"] and "代投" not in w["message"]
