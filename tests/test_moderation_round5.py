"""Round 5 of the lexicon: wordings the stranger-written sets 4–7 showed missing, widened as word
classes (dialect words, forfeits of an oath, pledges of a penalty, blame and face-based wordings),
and reporting quotations recognised by how the poster judges them. The cases below are written
here, not copied from those sets.

Rule sentences (M84 判罚依据) the cases rest on:
- 2(5) 发誓或诅咒; 2(6) 以自己或他人的生命安全、人格作为担保或威胁; 2(7) 以信仰、判罚、揭秘作为担保或威胁
- 1(1) 讨论游戏责任 (例：我准备好背锅了); 1(2) 讨论评奖或结束后其他事宜
- 2(8) 以“贴脸”作为讨论依据 (例：他都这么贴脸了，我没法不信他)
- 3(1) 发表（或伪造）与导演的对话; 3(2) 反对导演的决定（包括但不限于导演给出的规则解释及判罚）
- 4(1) 表明或暗示自己（或他人）的马甲; 4(3) 提及过去场次; 4(4) 讨论替补; 4(5) 讨论场外助理
- 2(1) 情绪发言; 2(2) 使用与某些身体部位有关的称谓或感叹; 2(3) 侮辱性词汇用来称呼或表达感叹
- 004 违规判定 1: 包括一切普通话、方言、密码、外国语言、音近、形近 (so Cantonese and Hokkien words count)
"""
from __future__ import annotations

import pytest

from moderation.checker import get_checker

from .lexicon_cases import M84, cats

FIRES = [
    ("oath", "我发4，我昨晚守的是豆浆"),            # 发4: 发誓 written with the digit that sounds like it
    ("oath", "骗你们的话我就不姓张"),
    ("oath", "关二爷在上，我是村民"),
    ("oath", "如果我是狼，以后再也不玩版杀"),
    ("curse", "祝骗我的那位打牌永远摸不到好牌"),
    ("curse", "冚家铲，又系我"),
    ("insult_kin", "冚家铲，又系我"),               # a curse on the whole family is both
    ("insult_kin", "靠北，又平票"),
    ("vulgar_body", "顶你个肺，又刀我"),
    ("vulgar_verb", "幹！又是我"),
    ("insult", "on9，连票都不会投"),
    ("insult_animal", "说不过就狗叫，有意思吗"),
    ("guarantee", "我宁愿吃张红牌也要说完"),
    ("guarantee", "信不信我找导演罚你"),
    ("responsibility", "谁把预言家投出去的谁负责"),
    ("responsibility", "输了就係你嘅责任"),
    ("responsibility", "出了事我一个人扛"),
    ("face_based", "她都贴到这份上了，不会是狼"),
    ("face_based", "我贴个脸，我真是好人"),
    ("past_game", "我打了二十几场版杀，第一次见这配置"),
    ("post_game", "以后有他的场我都不报了"),
    ("alt_account", "这个ID背后不就是老刘吗"),
    ("alt_account", "老婆找到了，进度1/3"),
    ("director_talk", "导演刚刚在QQ上跟我说了没吹到我"),
    ("substitute", "我室友会替我上号"),
    ("assistant", "我的场外也说豆浆是狼"),
    ("oppose_director", "我不同意导演对这个技能的解释"),
    ("emotional", "气哭了，你们随便投吧"),
    ("mockery", "你也太菜了吧"),
    ("alt_account", "一看就知道是你"),
]

CLEAN = [
    "我D1发4帖，够数了",                        # a count of posts, not 发誓
    "我不会诅咒谁，也不会发誓，看票型",
    "干你啥事，这是我的票",                      # 干你啥事 is none-of-your-business, not a vulgar verb
    "有人替我把票型统计一下吗",
    "万一来不及，我会找导演代投，先说一声",
    "负责任地说，昨晚我守的是芝麻",
    "家里铁锅烧糊了，背去楼下修",
    "国足换了替补，结果又丢球",
    "英超那个点球判罚太离谱了",
    "天冷了，出门穿件马甲",
    "今天在上班，晚点再看",
    "要是我是狼，我会先刀守护",
    "我太菜了，刚看懂结算顺序",                  # 2(4) is about 其他玩家: running oneself down is not mockery
    "现在一看他已经连发五帖了",                  # 一看 + a name is not 一看就知道是他
    "关于替补的问题我不讨论，规则不让",
    "规则写着不能反对判罚，大家注意",
]

# reporting: someone else's words in quotation marks, introduced by a measure of speech (说了句“…”)
# or judged right after (“…”已经踩线了 / “…”的例子), are not the poster's own
REPORTED = [
    "楼上刚刚喊了一句“卧槽”，这个要罚吧",
    "豆浆那句“出门被车撞”已经踩线了吧？请导演看一下",
    "“你妈的”这种话在规则里是违规的",
    "规则帖里那个“我准备好背锅了”的例子大家看看",
]


@pytest.mark.parametrize("category, text", FIRES)
def test_round5_wordings_fire(category, text):
    assert category in cats(text)


@pytest.mark.parametrize("text", CLEAN)
def test_round5_look_alikes_stay_clean(text):
    assert cats(text) == set()


@pytest.mark.parametrize("text", REPORTED)
def test_reported_quotations_are_not_the_posters_words(text):
    assert cats(text) == set()


def test_the_same_words_unquoted_still_fire():
    assert "vulgar_body" in cats("卧槽，这个要罚吧")
    assert "curse" in cats("出门被车撞吧你")


# 画谜 (rebus): an emoji written for a character, by picture or by sound, in any term of two
# characters or more (004 违规判定 1: 包括一切…音近、形近); one emoji alone is a picture
REBUS = [("insult_kin", "你🐴的，票都不看就冲"), ("insult_animal", "🐷脑子吧你"), ("insult_animal", "舔🐶又来了"),
         ("vulgar_body", "卧🌿，他是狼"), ("insult_animal", "王八🥚"),
         ("insult_kin", "你 女马 的，又冲我")]  # 拆字: 妈 split into its parts


@pytest.mark.parametrize("category, text", REBUS)
def test_an_emoji_written_for_a_character_is_that_character(category, text):
    assert category in cats(text)


@pytest.mark.parametrize("text", ["今天吃了🐷肉", "我家🐶很可爱", "🐴上就来", "🌿地上有露水", "🍳煎蛋真香",
                                  "她是女马术运动员"])
def test_an_emoji_alone_is_a_picture(text):
    assert cats(text) == set()


def test_drowning_oneself_as_a_move_is_a_deliberate_violation():
    """M84 违规判定 7(4): 故意违规牟取战术利益，或讨论故意违规（包括故意淹死或讨论故意淹死）
    例：你们要出我不如我淹死好了 — the rule post's own example; 004 has no item of its own (12(3))."""
    from gamedef.ruleset import load_ruleset as load

    flags = get_checker(M84).check_text("你们要出我不如我淹死好了")
    assert [f.category for f in flags] == ["deliberate"] and "7(4)" in flags[0].rule
    assert "12(3)" in get_checker(load("004")).check_text("你们要出我不如我淹死好了")[0].rule
    assert cats("请千万不要故意违规，大家好好玩") == set()


@pytest.mark.parametrize("text, kin", [("made！昨晚谁刀的金水", True), ("你这个made，站错边了", True),
                                       ("All I can do is explain every vote I made.", False),
                                       ("made in japan 做工不错", False)])
def test_an_english_word_is_pinyin_only_where_addressed(text, kin):
    """004 违规判定 1: 包括一切…外国语言、音近 — made is 妈的 by sound, and also English."""
    assert ("insult_kin" in cats(text)) is kin
