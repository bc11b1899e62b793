"""Round 7 of the lexicon, from the stranger-written sets 24 and 25 (run once before they were
read): wordings written here, not copied from those sets.

Rule sentences the cases rest on:
- 004 违规判定 1: 包括一切普通话、方言、密码、外国语言、音近、形近、以及明显的通配符
  (dy, cz, tb, bg for 导演, 场助, 替补, 背锅; 亻尔女马白勺 split characters; 卧檀 a look-alike)
- M84 2(2) 使用与某些身体部位有关的称谓或感叹（例：卧槽真吊）: the 卧槽 family (握草, 窝草, 我擦, 我叉)
- M84 2(3) 使用下流动词称呼玩家或表达感叹: 我靠, 我草, 屮
- M84 2(4) 攻击、嘲讽或贬低; 2(5) 发誓或诅咒; 2(7) 以信仰、判罚、揭秘作为担保或威胁
- M84 3(1) 发表（或伪造）与导演的对话; 3(2) 反对导演的决定（包括但不限于导演给出的规则解释及判罚）
- M84 4(1)(2) 马甲; 4(4) 讨论替补; 4(5) 讨论场外助理; 1(1) 讨论游戏责任; 2(8) 以“贴脸”作为讨论依据
"""
from __future__ import annotations

import re

import pytest

from moderation.spellings import rebus_spellings
from moderation.spelled_words import rewrite_category

from .lexicon_cases import assert_clean, assert_fires, cats

FIRES = [
    ("insult_kin", "亻尔女马白勺，又投我"),
    ("substitute", "t b 来了以后发言风格全变了"),
    ("assistant", "cz昨晚帮我盘了一遍"),
    ("responsibility", "输了算我的bg"),
    ("responsibility", "这口锅我不背"),
    ("insult_animal", "畜生，又刀我"),
    ("insult", "渣渣，别说话了"),
    ("insult", "这群nt又在乱投"),
    ("mockery", "你开心就好"),
    ("mockery", "看他急得跳脚的样子真好笑"),
    ("mockery", "这种脑子不好使的预言家早点出"),
    ("mockery", "7号的人品是真的差"),
    ("mockery", "你们的智商我真不敢恭维"),
    ("mockery", "呵呵，某位的查验可真准啊"),
    ("mockery", "他的站边属于薛定谔的站边"),
    ("mockery", "阅读理解零分，回去重读规则"),
    ("curse", "祝你以后每把都摸到白板"),
    ("curse", "生儿子没py的东西"),
    ("oath", "我是狼就天打雷劈"),
    ("oath", "谁要是狼谁是小狗"),
    ("guarantee", "再踩我我就让你吃黄牌"),
    ("guarantee", "信不信我把你底牌抖出来"),
    ("guarantee", "我敢拿我十年的号担保"),
    ("director_talk", "私聊过导演了，这么结算没错"),
    ("director_talk", "跟导大确认了，连守不行"),
    ("oppose_director", "导演，你判错了"),
    ("oppose_director", "凭什么罚我禁言"),
    ("oppose_director", "dy的判罚我不服"),
    ("alt_account", "这熟悉的口癖，一看就是你"),
    ("alt_account", "这个号不是我平时用的"),
    ("evidence", "截屏在楼下，自己看"),
    ("evidence", "猫头鹰 2O:1O:05 查验：好人"),
    ("face_based", "他都发毒誓了，我信他"),
    ("vulgar_body", "我叉，又平票"),
    ("vulgar_body", "卧檀，这都行"),
    ("vulgar_verb", "屮，又是我"),
    ("vulgar_verb", "我靠，又被踩"),
]

CLEAN = [
    "我靠墙坐着看帖",
    "我擦了擦屏幕再看一遍",
    "他说他发誓，请导演看看",
    "导演说的没错，按公示来",
    "天冷了，出门套个马甲",
    "我是规则白痴，求教结算顺序",
    "我觉得他逻辑有问题，前后矛盾",
    "举报：12楼有人说卧槽",
    "有人说我贴脸，我没有",
    "body language 很重要",
    "tb上买的键盘到了",
    "cz了六块钱的月卡",
]


@pytest.mark.parametrize("category,text", FIRES)
def test_round7_fires(category: str, text: str) -> None:
    assert_fires(category, text)


@pytest.mark.parametrize("text", CLEAN)
def test_round7_clean(text: str) -> None:
    assert_clean(text)


def test_the_woc_family_is_one_category() -> None:
    """The same euphemism always gets the same category: 握草, 窝草 and 我擦 are 卧槽 (body),
    我草 and 我操 the verb."""
    for t in ("握草，这反转", "窝草，这反转", "我擦，这反转"):
        assert cats(t) == {"vulgar_body"}, t
    for t in ("我草，这反转", "我操，这反转"):
        assert cats(t) == {"vulgar_verb"}, t


def test_rebus_all_at_once_in_pictures_and_in_parts() -> None:
    rebus = {"你": ("亻尔",), "妈": ("🐴", "女马"), "的": ("白勺",)}
    got = rebus_spellings("你妈的", rebus)
    assert "亻尔女马白勺" in got and "亻尔🐴白勺" in got


def test_short_latin_stand_in_needs_no_letter_beside_it() -> None:
    data = {"patterns": ["(导演)说"], "anchors": ["导演"]}
    out = rewrite_category(data, {"导演": ["dy"]})
    rx = re.compile(out["patterns"][0])
    assert rx.search("dy说") and rx.search("导演说") and not rx.search("body说")
    assert "dy" in out["anchors"]
