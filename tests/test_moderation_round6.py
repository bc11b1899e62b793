"""Round 6 of the lexicon: the game's own words in every spelling (d演, 导yan, 倒演, 场猪, jie秘),
two-letter initials that count alone only where they are established insults, wildcards, English
and Cantonese wordings, and the vetoes the stranger-written sets 12–15 showed missing. The
cases are written here, not copied from those sets.

Rule sentences (M84 违规判定 / 004 违规判定) the cases rest on:
- 004 违规判定 1: 包括一切普通话、方言、密码、外国语言、音近、形近、以及明显的通配符
  (so d演, 倒演, 傻*, Cantonese and English wordings count as the words they stand for)
- M84 3(1) 发表（或伪造）与导演的对话; 3(2) 反对导演的决定（包括但不限于导演给出的规则解释及判罚）
- M84 4(3) 提及过去场次; 4(4) 讨论替补; 4(5) 讨论场外助理; 1(2) 讨论评奖或结束后其他事宜
- M84 2(4) 攻击、嘲讽或贬低; 2(5) 发誓或诅咒; 2(7) 以信仰、判罚、揭秘作为担保或威胁
- M84 2(8) 以“贴脸”作为讨论依据
"""
from __future__ import annotations

import pytest

from moderation.spelled_words import expand, variants

from .lexicon_cases import cats

FIRES = [
    # the game's words spelled as players dodge a filter (音近、形近、外国语言)
    ("oppose_director", "d演这个判罚真不行"),
    ("oppose_director", "倒演这张牌，懂的都懂"),
    ("director_talk", "导yan私下跟我说过可以这么结算"),
    ("director_talk", "问过导演了，守护不能连守"),
    ("assistant", "我场猪觉得四号是狼"),
    ("guarantee", "不信等jie mi帖出来看"),
    ("guarantee", "我宁可吃红pai也要说完"),
    ("oath", "fa誓我是村民"),
    ("responsibility", "杯锅侠就是我呗"),
    # two-letter initials: an established insult alone, any other said to someone
    ("insult", "sb，又平票"),
    ("substitute", "tb进来的吧这号"),
    # 明显的通配符
    ("insult", "傻*，别带节奏"),
    # English and Cantonese (外国语言、方言)
    ("mockery", "your logic is a joke"),
    ("assistant", "my assistant says 4 is a wolf"),
    ("oppose_director", "Director, this ruling was unfair"),
    ("director_talk", "I asked the director privately"),
    ("post_game", "after the game let's add each other on wechat"),
    ("mockery", "你真係好蠢"),
    ("post_game", "完場之後同你食飯"),
    ("vulgar_verb", "淦，又被刀"),
    # constructions of a jab, a hint, a pledge
    ("mockery", "这是我见过最离谱的站边"),
    ("mockery", "换我是你早就没脸发言了"),
    ("insult_animal", "投他的全是猪"),
    ("oath", "骗人的话我就是🐷"),
    ("curse", "谁刀的我出门被🚗撞"),
    ("alt_account", "这号后面坐着的不就是老K"),
    ("alt_account", "口头禅跟上一个号一模一样"),
    ("past_game", "上一把你拿狼也这么跳"),
    ("face_based", "都这么真诚了我选择信他"),
    ("emotional", "我想口吐芬芳了"),
    # Wu, Sichuan and Cantonese words (方言), split characters and the 我去年买了个表 euphemism
    ("vulgar_verb", "册那，又被刀了"),
    ("vulgar_body", "锤子哦，我是好人"),
    ("curse", "挨千刀的，又刀我"),
    ("oath", "讲大话我就唔得好死"),
    ("oppose_director", "呢个判罚我唔服"),
    ("insult_animal", "犭者队友"),
    ("insult_kin", "我去年买了个表，又平票"),
    ("insult_kin", "真TM离谱"),
    ("insult", "ＺＺ吧你"),                         # capitals said to someone are no abbreviation
    ("alt_account", "拆马进度 2/5"),
    ("post_game", "em微屁给他"),
    ("guarantee", "我以我信的佛祖保证我没刀"),
    ("director_talk", "导演私下跟我说过没问题，你们别举报了"),   # 别举报 is no report
    # pinyin with its tones (tì bǔ), an emoji for the director, 辶畐 for 逼, ☠ for 死
    ("substitute", "tì bǔ 进来的吧"),
    ("insult", "shǎ bī 楼上"),
    ("director_talk", "问过🎬了，这么结算没问题"),
    ("insult", "你个傻辶畐"),
    ("curse", "悍跳的不得好☠"),
    ("guarantee", "等yyb出来打你脸"),
]

CLEAN = [
    "cz觉得北北有问题",                         # cz is 场助 here (the assistant flag is another matter)
    "gp：3号",                                  # 归票
    "tb进来的人发言确实不一样",                  # only substitute, never an insult
    "发誓那类句式是禁的，大家注意",              # talk about the rule, not an oath
    "天冷了我披了件马甲",
    "不贴脸，就事论事看票型",
    "是我眼瞎，投错了",                          # self-deprecation
    "我是真菜，给大家道歉",
    "我发十个帖子",                              # 发誓 takes no homophones
    "服务员马上把他扶上轮椅",                    # 上把 is no past game
    "这个HP要检讨一下做工",                      # capitals not said to a player: a brand
    "你D4那票我认同",                            # a day of the game
    "47楼那句“骗你是小狗”我觉得算发誓，请判",     # reporting a post to the director
    "规则里写了“我准备好背锅了”这类话也算违规",   # a construction that starts in the quotation
    "我不讨论谁背锅，只讨论今天出谁",
    "这身份对我来说简直是诅咒",
    "麻烦导演确认下我的票有没有统计上",           # asking the director in public
    "@导演 冬瓜上一楼用了'我发誓'，麻烦看一下",
    "本来想发个誓的，想起规则不让",
    "今天的锅包肉好吃到想哭",
    "驱动程序安装比较麻烦",                      # 装比 across a word boundary
]


@pytest.mark.parametrize("category,text", FIRES)
def test_round6_fires(category: str, text: str) -> None:
    assert category in cats(text), text


@pytest.mark.parametrize("text", CLEAN)
def test_round6_clean(text: str) -> None:
    got = cats(text) - {"assistant", "substitute"} if text.startswith(("cz", "tb")) else cats(text)
    assert got == set(), (text, got)


def test_a_link_and_a_meme_caption() -> None:
    """.cn in a link is no initials of 操你; 气到发抖.jpg is a caption (emotional), no attachment."""
    assert cats("证据在这 https://pan.example.cn/s/a1") == {"evidence"}
    assert "evidence" not in cats("气到发抖.jpg")
    assert "evidence" in cats("附件：聊天记录.png")


def test_tb_is_a_substitute_not_an_insult() -> None:
    assert cats("tb进来的吧这号") == {"substitute"}


def test_self_pledge_is_an_oath_not_a_curse() -> None:
    """我要是说谎天打雷劈: a curse on oneself as a pledge is 发誓 (2(5)), not a curse on another."""
    got = cats("我要是说谎天打雷劈")
    assert "oath" in got and "curse" not in got


def test_spelled_word_variants() -> None:
    got = variants("导演", {}, sounds=False)
    assert {"daoyan", "d演", "导yan", "dao演"} <= set(got)
    assert "dy" not in got and "导y" not in got     # initials alone, a letter trailing a hanzi


@pytest.mark.parametrize("src,want", [
    ("导演说", "(?:导演|d演)说"),
    ("(?<!导演)说", "(?<!导演)说"),          # a lookbehind keeps its fixed width
    ("[导演]说", "[导演]说"),                # a character class is characters, not the word
    ("导演?说", "导演?说"),                  # 导 and an optional 演
    (r"\导演", r"\导演"),                  # an escape is taken whole
])
def test_expand_leaves_regex_structure_alone(src: str, want: str) -> None:
    assert expand(src, {"导演": "(?:导演|d演)"}) == want
