"""Round 8 of the lexicon, from the stranger-written sets 27 and 29 (each run once before it was
read; set 29's writer aimed at the cases automatic checkers get wrong). Wordings written here.

Rule sentences the cases rest on:
- M84 2(7) 以信仰、判罚、揭秘作为担保或威胁 (a bet staking a card or an account; 主会看着的)
- M84 4(4)(6) 讨论替补 / 私下寻找替补 (an account handed to someone else)
- M84 4(5) 讨论场外助理 (a mentor or someone at home reading the game)
- M84 2(5) 发誓或诅咒 (a veiled misfortune for whoever wronged the poster)
- M84 3(1) 发表（或伪造）与导演的对话; 3(2) 反对导演的决定（包括但不限于导演给出的规则解释及判罚）,
  politely worded too (能否撤回, 偏轻了)
- 004 违规判定 7(1) … 以及网址、附件等 (a link spelled www点…点com)
- quoting a rule or another's words is not saying them (“…”这种也算发誓, “…”这两句都是违规例句)
"""
from __future__ import annotations

import pytest

from moderation.checker import _reported

from .lexicon_cases import assert_clean, assert_fires

FIRES = [
    ("guarantee", "谁输谁自己去申请禁言"),
    ("guarantee", "打赌吧，他要不是狼，红牌我领"),
    ("guarantee", "押上我的账号，芝麻是狼"),
    ("guarantee", "神都看着呢，我没骗人"),
    ("substitute", "这几天的号是不是借给朋友了，说话都变了"),
    ("assistant", "带我的师父说今天别跟票"),
    ("assistant", "我室友看了票型也觉得他像狼"),
    ("curse", "骗我的那位，走夜路当心点"),
    ("curse", "你怎么还不原地爆炸"),
    ("emotional", "真想骂几句脏话"),
    ("insult_kin", "你爹没教你怎么投票？"),
    ("oppose_director", "导演的解释跟规则原文说不通"),
    ("oppose_director", "这张黄牌能否撤回，我觉得不合理"),
    ("oppose_director", "对他的判罚偏轻了吧"),
    ("director_talk", "我私下问过了，得到的答复是技能生效"),
    ("director_talk", "d哥说我昨晚没被刀"),
    ("face_based", "他都把身份怼我脸上了，我还能不信？"),
    ("alt_account", "这个号是新的，但人不新"),
    ("alt_account", "他背后是谁我心里有数"),
    ("insult_animal", "哪来的疯狗在这乱咬"),
    ("responsibility", "这局最大的罪人就是他"),
    ("mockery", "这脑回路建议去挂个号"),
    ("insult", "他纯纯的nt"),
    ("evidence", "网址 www点abc点com 自己去看"),
]

CLEAN = [
    "场外有人在装修，吵死了",
    "我的语音助理又听错了",
    "替补和场助规则里都禁止讨论，别提了",
    "我认了，昨天的蓝牌是我该吃的",
    "大家出门小心点，路上结冰了",
    "我室友发誓再也不熬夜了",
    "逛弱智吧看到一个段子",
    "智商不够用了（指我自己）",
    "本菜鸡来报到",
    "什么叫无能狂怒？技能名真有意思",
    "提醒：“骗你是小狗”这种也算发誓",
    "“我拿命担保”“等揭秘看”这两句都是规则里的违规例句",
    "楼上说的“狗东西”我已经报给导演了",
]


@pytest.mark.parametrize("category,text", FIRES)
def test_round8_fires(category: str, text: str) -> None:
    assert_fires(category, text)


@pytest.mark.parametrize("text", CLEAN)
def test_round8_clean(text: str) -> None:
    assert_clean(text)


def test_a_quotation_before_a_judged_list_is_reported_too() -> None:
    text = "“甲”“乙”这两句都违规"
    assert len(_reported(text)) == 2
    assert _reported("“甲”我喜欢，“乙”这句违规") == [(7, 10)]
