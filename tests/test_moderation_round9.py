"""Round 9 of the lexicon, from the stranger-written sets 26 (a veteran's long posts) and 28
(regional voices), each run once before it was read. Wordings written here.

Rule sentences the cases rest on:
- 004 违规判定 1: 包括一切普通话、方言、密码、外国语言、音近、形近、以及明显的通配符
  (信球, 鳖孙, 娘希匹, 機ㄅ, 讲三小, ㄍㄋㄋ in bopomofo, 87, 码甲 for 马甲, xin仰)
- M84 2(5) 发誓或诅咒 (a forfeit on oneself if lying: 骗你们我就改名, 我要是狼我就是小猪)
- M84 2(7) 以信仰、判罚、揭秘作为担保或威胁 (揭秘帖里随便鞭尸, 去你家楼下堵你)
- M84 3(2) 反对导演的决定 (尺度太宽, 双标)
- M84 4(1)(2) 马甲; 4(3) 提及过去场次; 1(2) 结束后其他事宜; 1(1) 讨论游戏责任; 2(8) 贴脸
"""
from __future__ import annotations

import pytest

from .lexicon_cases import assert_clean, assert_fires


FIRES = [
    ("post_game", "揭秘以后咱们一起复盘这局"),
    ("mockery", "连票都数不清的人，也配教我认狼？"),
    ("mockery", "他的脑子怕是充话费送的"),
    ("face_based", "她那种贴法太实在了，就冲这个信她"),
    ("oppose_director", "导演这两天的尺度也太严了"),
    ("oppose_director", "这张黄牌就是双标"),
    ("oppose_director", "导演你这个判罚说不通"),
    ("insult", "你这个小丑又在跳"),
    ("insult", "你真是87"),
    ("insult", "这人就是个信球"),
    ("alt_account", "换了马甲也改不掉这口气"),
    ("alt_account", "你这套路我太熟了"),
    ("alt_account", "他的码甲一眼就拆了"),
    ("past_game", "那局你当预言家也这样"),
    ("past_game", "去年那场的事大家都记得"),
    ("oath", "骗你们我就改名叫王八"),
    ("oath", "我要是狼我就是小猪"),
    ("oath", "我要是狼，这辈子抽卡再也不出金"),
    ("guarantee", "我要是骗人，揭秘帖里随便你们鞭尸"),
    ("guarantee", "再踩我就去你家楼下堵你"),
    ("guarantee", "我拿我妈的名担保他是好人"),
    ("guarantee", "我以我的xin仰保证"),
    ("responsibility", "这个guo我不背"),
    ("responsibility", "if we lose, it's on him"),
    ("emotional", "好想骂几句脏话"),
    ("emotional", "算了随便吧，明天不来了"),
    ("emotional", "气得我发抖"),
    ("insult_kin", "娘希匹，又平票"),
    ("insult_kin", "你个鳖孙"),
    ("vulgar_body", "你在讲三小"),
    ("insult_animal", "你就是个出生"),
]

CLEAN = [
    "他奶奶抱着大孙子去公园了",
    "老干妈拌饭真香",
    "晚饭喝的王八汤",
    "我是小丑，身份就这么报了",
    "87分的试卷，还行",
    "“我能说脏话吗”这种话在规则里算情绪发言",
    "“卧槽”在规则帖里是反例",
    "规则例句里的那场属于提及过去场次",
    "今天去面馆吃了碗鞭尖笋面",
]


@pytest.mark.parametrize("category,text", FIRES)
def test_round9_fires(category: str, text: str) -> None:
    assert_fires(category, text)


@pytest.mark.parametrize("text", CLEAN)
def test_round9_clean(text: str) -> None:
    assert_clean(text)
