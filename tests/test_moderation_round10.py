"""Round 10 of the lexicon, from the stranger-written sets 32 (川渝 and 粤 voices) and 34 (a
polite veteran's veiled wordings), each run once before it was read. Wordings written here.

Rule sentences the cases rest on:
- 004 违规判定 1: 包括一切普通话、方言、密码、外国语言、音近、形近、以及明显的通配符
  (装啥子逼, 我嘞个槽, 落街畀车撞, 责任我孭; 髪誓 for 发誓; 🚗 for 车)
- M84 2(2) 使用与某些身体部位有关的称谓或感叹 (例：卧槽真吊): 锤子的预言家
- M84 2(5) 发誓或诅咒; 2(6)(7) 以…作为担保 (我拿我这把老骨头担保, 把名声押在他身上)
- M84 2(3) 侮辱他人亲属 (令堂怎么教出…); 2(4) 以动物称呼他人 (这头犟驴)
- M84 3(2) 反对导演的决定 (这张黄牌给重了, 导演的结算解释我不太认同)
- M84 1(1) 讨论游戏责任 (全部责任我孭)
"""
from __future__ import annotations

import pytest

from .lexicon_cases import assert_clean, assert_fires

FIRES = [
    ("vulgar_body", "装啥子逼嘛，跳个预言家还要摆谱"),
    ("vulgar_body", "我嘞个槽，女帝把神父毒了？"),
    ("vulgar_body", "锤子的预言家，反馈都编不圆"),
    ("curse", "悍跳那个落街畀车撞"),
    ("curse", "祝你出门被🚗撞"),
    ("responsibility", "今天出错人，全部责任我孭"),
    ("oppose_director", "凭啥子禁我言，我又没骂人"),
    ("oppose_director", "这张黄牌给重了，顶多算蓝牌"),
    ("oppose_director", "导演昨晚对刀口的结算解释，我不太认同"),
    ("oath", "我对天髪誓，我是御主"),
    ("guarantee", "我拿我这把老骨头担保，他是好人"),
    ("guarantee", "我拿min担保，他是狼"),
    ("guarantee", "今天就把我的名声押在他身上"),
    ("insult_kin", "真替他令堂叹气，怎么教出这么会撒谎的人"),
    ("insult_kin", "你爸妈怎么教你的"),
    ("insult_animal", "这头犟驴，说什么都不听"),
]

CLEAN = [
    "拿锤子的把手敲钉子",
    "饭菜放盐放重了",
    "他今天说话重了点，别往心里去",
    "导演的解释我认同",
    "我妈怎么教我做饭的我都忘了",
    "你拿什么担保？",
    "用我死灵魔术师的身份担保：他不是自己人",
    "这个责任我记下了，回头复盘",
    "头发剪短了，发言晚点",
]


@pytest.mark.parametrize("category,text", FIRES)
def test_round10_fires(category: str, text: str) -> None:
    assert_fires(category, text)


@pytest.mark.parametrize("text", CLEAN)
def test_round10_clean(text: str) -> None:
    assert_clean(text)
