"""Ballot parsing: the vote and change formats of both rule posts, read strictly but width-blind."""
from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta, timezone

import pytest

from gamedef.ruleset import load_ruleset
from parsers.ballot import closest_player, is_ballot_attempt, parse_ballot
from parsers.models import Post

PLAYERS = ("饺子", "包子", "馄饨", "汤圆", "Alice")
DIRECTORS = ("导演A",)
TZ = timezone(timedelta(hours=8))
PRESETS = ("m84", "004")


def post(text: str, author: str = "饺子") -> Post:
    return Post(tid=1, pid=10, floor=2, author=author, uid=None, posted_at=datetime(2026, 12, 1, 12, tzinfo=TZ),
                time_precision="second", message_html=text, text=text)


def parse(text: str, author: str = "饺子", preset: str = "m84", **vote_overrides):
    rules = load_ruleset(preset).vote
    if vote_overrides:
        rules = dataclasses.replace(rules, **vote_overrides)
    return parse_ballot(post(text, author), rules, PLAYERS, DIRECTORS)


# text, kind, target, is_change
GOOD = [
    ("投票对象：包子\n投票理由：发言前后矛盾", "vote", "包子", False),
    ("投票对象:包子\n投票理由:划水", "vote", "包子", False),
    ("投票对象:包子 投票理由:划水", "vote", "包子", False),
    ("投票对象：馄饨投票理由：验人结果不对", "vote", "馄饨", False),
    ("投票对象 ： 包子 \n 投票理由 ：  跟票", "vote", "包子", False),
    ("  \n投票对象：包子。\n投票理由：好吃\n第二行理由", "vote", "包子", False),
    ("我想了很久。\n投票对象：包 子\n投票理由：好吃", "vote", "包子", False),
    ("投票对象：ａｌｉｃｅ\n投票理由：全角字母", "vote", "Alice", False),
    ("投票对象：ALICE\n投票理由：大小写", "vote", "Alice", False),
    ("投票对象：弃权\n投票理由：信息不够", "abstain", None, False),
    ("改票对象：包子\n改票理由：包子也好吃", "change", "包子", True),
    ("改票对象：弃权\n改票理由：还是弃权", "abstain", None, True),
    ("投票对象﹕包子\n投票理由﹕小号冒号", "vote", "包子", False),
    ("投票对象：包子\n投票理由：他昨天的投票理由和投票对象都不对", "vote", "包子", False),
]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("text,kind,target,is_change", GOOD)
def test_good_ballots(preset, text, kind, target, is_change):
    b = parse(text, preset=preset)
    assert b is not None and b.problems == (), b and b.problems
    assert (b.voter, b.kind, b.target, b.is_change, b.proxy) == ("饺子", kind, target, is_change, False)


def test_reason_is_kept_whole():
    b = parse("投票对象：包子\n投票理由：好吃\n第二行理由")
    assert b.reason == "好吃\n第二行理由"
    assert parse("投票对象：馄饨投票理由：验人结果不对").reason == "验人结果不对"


# text, the code expected
BAD = [
    ("投票对象包子\n投票理由：没有冒号", "bad_format"),
    ("投票理由：只有理由", "bad_format"),
    ("投票对象：\n投票理由：空对象", "bad_format"),
    ("投票对象：包子\n投票对象：馄饨\n投票理由：两个对象", "bad_format"),
    ("投票对象：包子\n改票对象：馄饨\n投票理由：混用", "bad_format"),
    ("改票对象：包子\n投票理由：标签不配", "bad_format"),
    ("投票理由：先写理由\n投票对象：包子", "bad_format"),
    ("投票对象 包子", "bad_format"),
    ("投票对象：包子", "missing_reason"),
    ("投票对象：包子\n投票理由：", "missing_reason"),
    ("改票对象：包子", "missing_reason"),
    ("投票对象：包仔\n投票理由：包子可疑", "unknown_target"),
    ("投票对象：豆浆\n投票理由：豆浆也好喝", "unknown_target"),
    ("投票对象：导演A\n投票理由：导演不是玩家", "unknown_target"),
    ("投票对象：包子 饺子\n投票理由：两个人", "unknown_target"),
]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("text,code", BAD)
def test_bad_ballots(preset, text, code):
    b = parse(text, preset=preset)
    assert b is not None
    assert code in b.codes
    assert all(p.message for p in b.problems)


def test_unknown_target_names_the_closest_player_and_is_not_fixed():
    b = parse("投票对象：包仔\n投票理由：包子可疑")
    assert b.target is None and b.written_target == "包仔"
    assert "包子" in b.problems[0].message
    far = parse("投票对象：豆浆\n投票理由：x")
    assert "最接近" not in far.problems[0].message


@pytest.mark.parametrize("written,near", [("包仔", "包子"), ("饺籽", "饺子"), ("包子吧", "包子"), ("豆浆", None),
                                          ("alicee", "Alice"), ("", None)])
def test_closest_player(written, near):
    assert closest_player(written, PLAYERS) == near


@pytest.mark.parametrize("text", [
    "大家记得按格式投票，别投错了。",
    "第一天投票帖。每人一票，改票一次，改票需回复原投票楼层；关门前一小时不允许改票。",
    "大家注意投票对象和投票理由都要写",
    "",
])
def test_talk_is_not_a_ballot(text):
    assert parse(text) is None
    assert not is_ballot_attempt(text, load_ruleset("m84").vote)


def test_director_posts_are_ignored_unless_proxy():
    assert parse("投票对象：包子\n投票理由：导演示范格式", author="导演A") is None
    b = parse("【代投】馄饨\n投票对象：包子\n投票理由：馄饨委托导演代投", author="导演A")
    assert (b.voter, b.target, b.proxy, b.problems) == ("馄饨", "包子", True, ())
    same_line = parse("【代投】馄饨 投票对象：包子 投票理由：委托", author="导演A")
    assert (same_line.voter, same_line.target, same_line.problems) == ("馄饨", "包子", ())


def test_proxy_for_a_non_player_and_proxy_without_ballot():
    b = parse("【代投】豆浆\n投票对象：包子\n投票理由：x", author="导演A")
    assert "not_a_player" in b.codes
    empty = parse("【代投】馄饨 稍后补上", author="导演A")
    assert empty.proxy and "bad_format" in empty.codes


def test_player_cannot_proxy():
    b = parse("【代投】馄饨\n投票对象：包子\n投票理由：帮人投", author="汤圆")
    assert b.voter == "汤圆" and "proxy_by_player" in b.codes


def test_spectator_is_not_a_player():
    b = parse("投票对象：饺子\n投票理由：路过投一票", author="路人甲")
    assert b.voter == "路人甲" and b.codes == ("not_a_player",)


def test_author_name_is_normalised():
    b = parse("投票对象：包子\n投票理由：x", author="ａｌｉｃｅ")
    assert b.voter == "Alice" and b.problems == ()


def test_width_sensitive_ruleset_refuses_half_width_colon():
    b = parse("投票对象:包子\n投票理由:x", width_insensitive=False)
    assert "bad_format" in b.codes
    assert parse("投票对象：包子\n投票理由：x", width_insensitive=False).problems == ()


def test_same_line_only_where_allowed():
    assert parse("投票对象：包子 投票理由：x").problems == ()
    assert "bad_format" in parse("投票对象：包子 投票理由：x", same_line_allowed=False).codes


def test_reason_optional_where_the_ruleset_says_so():
    assert parse("投票对象：包子", reason_required=False).problems == ()


def test_labels_come_from_the_ruleset():
    b = parse("票投：包子\n理由：x", target_label="票投", reason_label="理由")
    assert b.target == "包子" and b.problems == ()
