"""Stranger director 5, item 1: a ballot cast BEFORE its voter went out in the middle of the day.

The rule posts read two ways here, so it is a ruleset field, `vote.ballot_before_out`, and each
case quotes the sentence its preset rests on:

- M84 `counts`: 出局 — 已公示出局的角色不允许在讨论帖、投票帖、进程帖中发言 (posting once out is barred,
  nothing takes back a ballot cast before); 投票规则 — 每名存活角色每个讨论日限投一票; and the one
  day-time out M84 names resolves after the vote: 白天红牌罚下导致的出局结算在投票结算之后执行.
- 004 `dropped`: 出局 — 角色出局结算结束后，不能继续参与讨论、投票、行使特权 … 已经公示的出局角色不属于游戏范畴;
  白天红牌罚下在被投票出局之前.
"""
from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from engine.state import DayState
from engine.votes import NOTE_CODES, count_votes, voter_statuses
from gamedef.errors import RulesetError
from gamedef.gamefile import Day
from gamedef.ruleset import load_ruleset, parse_ruleset
from parsers.models import Post
from reports.bbcode import render_bbcode

TZ = timezone(timedelta(hours=8))
PLAYERS = ("饺子", "包子", "馄饨", "汤圆", "烧卖")
DAY = Day(number=1, discussion_tid=1, vote_tid=2, opens=datetime(2026, 12, 1, 10, tzinfo=TZ),
          closes=datetime(2026, 12, 2, 22, tzinfo=TZ))
OUT_AT = datetime(2026, 12, 2, 15, tzinfo=TZ)

M84_OUT = "M84 出局：已公示出局的角色不允许在讨论帖、投票帖、进程帖中发言"
M84_VOTE = "M84 投票规则：每名存活角色每个讨论日限投一票"
M84_RED = "M84 出局：白天红牌罚下导致的出局结算在投票结算之后执行"
O04_OUT = "004 出局：角色出局结算结束后，不能继续参与讨论、投票、行使特权"
O04_GAME = "004 出局：已经公示的出局角色不属于游戏范畴"
O04_RED = "004 出局：白天红牌罚下在被投票出局之前"


def at(day: int, hour: int) -> datetime:
    return datetime(2026, 12, day, hour, tzinfo=TZ)


def vote(floor: int, author: str, target: str, when: datetime) -> Post:
    text = f"投票对象：{target}\n投票理由：理由"
    return Post(tid=2, pid=100 + floor, floor=floor, author=author, uid=None, posted_at=when,
                time_precision="second", message_html=text, text=text)


STATE = DayState(day=1, at=DAY.opens, players=PLAYERS, living=PLAYERS, out=(), priest=None, whistled=(),
                 excused=(), accelerated_event=False, directors=("导演A",))

# 饺子 and 馄饨 vote 包子's target 汤圆 / 烧卖; 包子 votes 汤圆 at 12:00 on day 1 and leaves at 15:00 on day 2.
POSTS = [vote(2, "包子", "汤圆", at(1, 12)), vote(3, "饺子", "汤圆", at(1, 13)), vote(4, "馄饨", "烧卖", at(1, 14))]

# (preset, how 包子 leaves, the earlier ballot counts, its code, the words of its message, rule)
CASES = [
    ("m84", "out", True, "voter_out_ballot_counts", ("照常计入", "出局之前"), M84_OUT),
    ("m84", "out", True, "voter_out_ballot_counts", ("每名存活角色每个讨论日限投一票",), M84_VOTE),
    ("004", "out", False, "voter_out", ("不再计入", "不能继续参与讨论、投票"), O04_OUT),
    ("004", "out", False, "voter_out", ("不属于游戏范畴",), O04_GAME),
    ("004", "red", False, "voter_out", ("红牌罚下", "不再计入"), O04_RED),
    # M84's red card is no mid-day out at all: resolved after the vote, no note on the ballot
    ("m84", "red", True, None, (), M84_RED),
]


@pytest.mark.parametrize("preset, how, counts, code, words, rule", CASES)
def test_the_ballot_cast_before_going_out(preset, how, counts, code, words, rule):
    rules = load_ruleset(preset)
    kw = {"out_at": {"包子": OUT_AT}} if how == "out" else {"ejected": {"包子": OUT_AT}}
    c = count_votes(POSTS, rules=rules, day=DAY, state=STATE, **kw)
    b = next(x for x in c.ballots if x.voter == "包子")
    assert b.counted is counts and b.valid, rule
    tally = {e.target: e.weight for e in c.tally}
    assert tally == ({"汤圆": 2, "烧卖": 1} if counts else {"汤圆": 1, "烧卖": 1}), rule
    if code is None:
        assert not b.problems, rule
        return
    assert code in b.codes, rule
    msg = next(p.message for p in b.problems if p.code == code)
    for w in words:
        assert w in msg, (rule, msg)
    # the reading is named beside the ballot: which field, which value
    assert f"vote.ballot_before_out = {rules.vote.ballot_before_out}" in msg, rule
    # either way 包子 answered the vote thread while in the game (no no-vote card) and is not "not voted"
    assert "包子" in c.replied and "包子" not in c.not_voted, rule
    status = voter_statuses(c, PLAYERS)["包子"]
    assert (status.status, status.replied) == ("counted" if counts else "not_counted", True), rule


@pytest.mark.parametrize("preset, rule", [("m84", M84_OUT), ("004", O04_OUT)])
def test_a_ballot_posted_after_going_out_never_counts(preset, rule):
    """Both: posting in the vote thread once out is 诈尸, whatever the earlier ballot does."""
    posts = POSTS + [vote(5, "包子", "烧卖", at(2, 16))]
    c = count_votes(posts, rules=load_ruleset(preset), day=DAY, state=STATE, out_at={"包子": OUT_AT})
    late = next(x for x in c.ballots if x.floor == 5)
    assert not late.valid and not late.counted and "voter_out" in late.codes, rule
    assert "诈尸" in next(p.message for p in late.problems if p.code == "voter_out")


@pytest.mark.parametrize("preset, rule", [("m84", "M84 出局：不允许被选为技能或投票的目标"),
                                          ("004", "004 出局：已经公示的出局角色…不允许被选为技能或投票的目标")])
def test_votes_for_the_player_who_went_out_stop_counting_under_both(preset, rule):
    posts = [vote(2, "饺子", "包子", at(1, 12))]
    c = count_votes(posts, rules=load_ruleset(preset), day=DAY, state=STATE, out_at={"包子": OUT_AT})
    b = c.ballots[0]
    assert not b.counted and "target_out" in b.codes, rule


@pytest.mark.parametrize("preset, reading, rule", [("m84", "counts", M84_OUT), ("004", "dropped", O04_OUT)])
def test_the_reading_is_listed_with_its_sentence(preset, reading, rule):
    rs = load_ruleset(preset)
    assert rs.vote.ballot_before_out == reading, rule
    row = next(r for r in rs.readings() if r["field"] == "vote.ballot_before_out")
    assert row["reading"] == reading and rs.vote.ballot_before_out_rule in row["note"]
    assert rule.split("：")[1].split("，")[0] in rs.vote.ballot_before_out_rule


def test_the_note_is_not_a_problem():
    """A ballot that counts as cast carries the reading as a note, never as a reason it is invalid."""
    assert "voter_out_ballot_counts" in NOTE_CODES


@pytest.mark.parametrize("value, ok", [("counts", True), ("dropped", True), ("stands", False), ("", False)])
def test_the_field_takes_only_its_two_readings(value, ok):
    text = f'name = "x"\ncite = "X"\n[vote]\nballot_before_out = "{value}"\n'
    if ok:
        assert parse_ruleset(text, "x.toml").vote.ballot_before_out == value
    else:
        with pytest.raises(RulesetError, match="ballot_before_out"):
            parse_ruleset(text, "x.toml")


def test_an_older_ruleset_file_without_the_field_keeps_the_old_count():
    """A ruleset TOML written before the field: the ballot leaves with its voter, as before."""
    assert parse_ruleset('name = "x"\ncite = "X"\n', "x.toml").vote.ballot_before_out == "dropped"


def test_the_announcement_gives_004_s_reason_without_the_field_name():
    c = count_votes(POSTS, rules=load_ruleset("004"), day=DAY, state=STATE, out_at={"包子": OUT_AT})
    bb = render_bbcode({"day": 1, "votes": c.to_json(), "activity": {}, "game": {}})
    assert "包子" in bb and "不再计入" in bb
    assert "ballot_before_out" not in bb and "规则集" not in bb


def test_a_custom_reading_on_a_preset_is_followed():
    """The code reads the field, never the preset's name: M84 with `dropped` drops the ballot."""
    rs = load_ruleset("m84")
    flipped = dataclasses.replace(rs, vote=dataclasses.replace(rs.vote, ballot_before_out="dropped"))
    c = count_votes(POSTS, rules=flipped, day=DAY, state=STATE, out_at={"包子": OUT_AT})
    assert not next(x for x in c.ballots if x.voter == "包子").counted


def test_readme_and_rules_doc_state_both_readings():
    root = Path(__file__).resolve().parents[1]
    for doc in ("README.md", "docs/rules.md"):
        text = (root / doc).read_text("utf-8")
        assert "ballot_before_out" in text and "counts" in text and "dropped" in text, doc
