"""Set 51 (a veteran's terse talk: initials, digit codes, bopomofo, a spaced-out link), read once and
fixed by family. The Python it needed, tested here; the lexicon's own lines are in its examples.

Rule sentences the cases rest on:
- 004 违规判定 1: 包括一切普通话、方言、密码、外国语言、音近、形近、以及明显的通配符 (傻ㄅ, 7号nt, 748)
- M84 违规判定 1(3) / 004 7(1): 贴出网址 — a link with its protocol spaced out is still a link
"""
from __future__ import annotations

import pytest

from .lexicon_cases import assert_clean, assert_fires


@pytest.mark.parametrize("text, start, end, want", [
    ("7号nt吧", 2, 4, True), ("12号cs，别跳", 3, 5, True), ("楼上hz", 2, 4, True),  # a player named before it
    ("型号hz", 2, 4, False), ("编号cs", 2, 4, False),                              # no seat: a number's label
    ("qs", 0, 2, False), ("hh，笑死", 0, 2, False), ("dl", 0, 2, False),            # chat initials alone
    ("你个qs", 2, 4, True), ("hh吧你", 0, 2, True),                                # said to someone, they count
])
def test_address_by_seat_and_chat_initials(text, start, end, want):
    from moderation.spellings import addressed

    assert addressed(text, start, end) is want


def test_bopomofo_consonants_fold_to_their_initial():
    from moderation.normalize import fold_text

    assert fold_text("傻ㄅ") == "傻b" and fold_text("ㄋㄇㄉ") == "nmd" and fold_text("ㄍㄋㄋ") == "gnn"
    assert fold_text("ㄚ") == "ㄚ"  # a vowel is no initial: left as written


@pytest.mark.parametrize("text", ["h t t p s : / / t.cn / A6x", "h t t p :// x.example.cn/a", "h  t  t  p  s://abc.cn"])
def test_a_spaced_out_protocol_is_a_link(text):
    from moderation.checker import _LINK, _LINK_HINT

    m = _LINK.search(text)
    assert m and _LINK_HINT.search(m.group())


@pytest.mark.parametrize("text", ["h t t p 是超文本协议", "with the ht tp thing", "math : / / 注释"])
def test_spaced_letters_without_the_protocol_are_no_link(text):
    from moderation.checker import _LINK

    assert not _LINK.search(text)


FIRES = [
    ("insult", "傻ㄅ芝麻"),
    ("insult", "3号nt吧，金水都踩"),
    ("evidence", "h t t p s : / / t.cn / Zq1 自己看"),
    ("curse", "那个悍跳的748"),
    ("emotional", "7456，又平票"),
]

CLEAN = [
    "qs",
    "hh，这晨报写得好",
    "型号hz的那款耳机",
    "鲁北化工７．４８",
    "手机B站看的直播",
    "你的sp3装好了吗",      # a stand-in of letters (sp 杀品) with a digit beside it is a version
    "今晚玩sc游戏去了",
    "5B级台风过境",
    "这锅挺好用的，不粘",
]


@pytest.mark.parametrize("category,text", FIRES)
def test_set51_fires(category: str, text: str) -> None:
    assert_fires(category, text)


@pytest.mark.parametrize("text", CLEAN)
def test_set51_clean(text: str) -> None:
    assert_clean(text)
