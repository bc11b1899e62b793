"""Evasion for every term, ordinary words that must stay quiet, context, and the whistle.

The rule posts: 「判罚范围包括一切普通话、方言、密码、外国语言、音近、形近、以及明显的通配符」 (004 判罚依据),
and for 黑哨: 「在游戏日白天只能发出动物叫声，或使用小镇的表情；不得使用密码、电码或暗号」 (M84 裁判).
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from gamedef.ruleset import load_ruleset
from moderation.checker import get_checker
from moderation.normalize import fold, key, views
from moderation.structure import whistle_offenders

M84 = load_ruleset("m84")
CHECKER = get_checker(M84)


def cats(text: str) -> set[str]:
    return {f.category for f in CHECKER.check_text(text)}


# 明显的通配符: anything between the characters of a term, within a short gap
@pytest.mark.parametrize("sep", ["，", "、", "。", " ", "　", "〜", "\u200b", "\u2060", "😂", "♥", "★", "1", "7",
                                 "()", "【】", "*#", "👍🏻", "\ufe0f"])
@pytest.mark.parametrize("term, category", [("傻逼", "insult"), ("脑残", "insult"), ("卧槽", "vulgar_body"),
                                            ("你妈的", "insult_kin"), ("狗东西", "insult_animal")])
def test_a_separator_inside_a_term_does_not_hide_it(sep, term, category):
    if len(sep) == 2 and sep[0] in "(【":
        written = "".join(sep[0] + c + sep[1] for c in term)
    else:
        written = sep.join(term)
    assert category in cats(f"今天出他，{written}")


@pytest.mark.parametrize("text, category", [
    ("𝐬𝐛，又平票", "insult"), ("ѕb，又平票", "insult"), ("🅢🅑，又平票", "insult"),   # styled, Cyrillic, enclosed
    ("ｆｕｃｋ，又平票", "vulgar_verb"), ("傻傻逼逼", "insult"), ("脑脑残残吧你", "insult"),  # full width, doubled
    ("naocan，又平票", "insult"), ("nao can，又平票", "insult"), ("你这个zhizhang", "insult"),  # pinyin
    ("gdx，别踩我", "insult_animal"), ("tmd，谁刀的", "insult_kin"),                     # initials
    ("你这个sha逼", "insult"), ("脑can吧你", "insult"), ("傻b", "insult"), ("狗d西", "insult_animal"),  # mixed
    ("2b吧你", "insult"), ("傻筆", "insult"), ("脑惭吧你", "insult"), ("艹泥马", "insult_kin"),  # digit, 形近, 音近
])
def test_spellings_of_every_term(text, category):
    assert category in cats(text)


@pytest.mark.parametrize("text", [
    "请输入你的姓名", "哈佛大学很有名", "负责任地说，豆浆是狼", "他是个天才，可惜没来", "就是小店的老板", "A=B，所以B=C",
    "他太傻，逼得我只能跳", "妈妈的推荐很好", "我1月15日拿到电脑", "装了XP系统", "HD 3470 显卡", "4G内存不够",
    "国在发展", "见人就说好", "明日你再来", "码的尺寸不对", "别吊你胃口了",
])
def test_ordinary_words_do_not_fire(text):
    assert cats(text) == set()


@pytest.mark.parametrize("text, category", [
    ("你这个cs，站错边了", "insult_animal"), ("cs，又是平票", "insult_animal"),  # 畜生 as an address / a clause
    ("我看你就是sm", "insult"), ("今天出他，hz", "insult"), ("你个250", "insult"), ("250吧你", "insult"),
    ("4g，又是平票", "insult_animal"),                                          # 死狗 in digits
    ("s1b，又是平票", "insult"), ("c7n7m！昨晚谁刀的", "insult_kin"),           # digits between letters
    ("fuuck you", "vulgar_verb"), ("shiiit，又平票", "vulgar_body"),             # English doubling
    ("你这个干7你", "vulgar_verb"), ("今天出他，他、奶、奶、的", "insult_kin"),  # digit inside; a doubled term apart
    ("你这个wc", "vulgar_body"), ("我看你就是你m的", "insult_kin"), ("你这个我c，站错边了", "vulgar_verb"),
])
def test_short_spellings_said_to_someone(text, category):
    """密码 and 明显的通配符: initials that are also everyday abbreviations count where a player is
    addressed with them or they stand alone as a clause."""
    assert category in cats(text)


@pytest.mark.parametrize("text", [
    "买个hp的本子", "杭州hz的酒店", "官网www.hp.com下载", "花了250元", "4G内存不够", "mp3格式", "a4纸",
    "too bad", "coffee很好喝", "我7日到北京", "6L", "6了", "上个wc", "换了n个版本", "上 场 了", "叫:爸爸!爸爸",
])
def test_short_spellings_in_ordinary_text_do_not_fire(text):
    assert cats(text) == set()


def test_two_letters_count_in_lower_case_only():
    assert "insult" in cats("你就是个nc")
    assert cats("NC 机床很贵") == set()


@pytest.mark.parametrize("text", ["他骂我“傻逼”，我忍了", "规则说“禁止发誓”", "他说「你妈的」，这不对"])
def test_reported_words_are_not_the_posters(text):
    assert cats(text) == set()


@pytest.mark.parametrize("text", ["规则里禁止讨论游戏责任，举个例子：“我准备好背锅了”",
                                  "规则禁止“你妈”“孙子”这类称谓", "规则禁止“你妈”、“孙子”或“爸爸我”这样说话"])
def test_quoted_examples_of_a_rule_are_not_the_posters(text):
    """A rule's examples, quoted one after another, are the rule's words, not the poster's."""
    assert cats(text) == set()


@pytest.mark.parametrize("text", ["规则帖里“出门被车撞”是举的例子，不是咒谁", "“你个狗东西”那句是规则里的例子，别误会",
                                  "“骗你是小狗”这一句我只是引用"])
def test_a_quotation_in_the_rule_post_or_named_as_that_line_is_reported(text):
    """Set 52: 规则帖里“…” quotes the rule post; “…”那句 names the line it quotes."""
    assert cats(text) == set()


def test_a_quotation_with_nothing_that_reports_it_is_still_the_posters():
    assert "insult" in cats("“傻逼”，你还敢踩我")


def test_a_quotation_after_a_reported_one_needs_to_follow_it_directly():
    assert "insult" in cats("规则禁止“你妈”，可你就是个“傻逼”")


def test_a_report_does_not_hide_the_posters_own_words_on_the_same_line():
    assert "insult" in cats("他骂我“傻逼”，我忍了。你这个傻逼")


def test_a_veto_covers_its_sentence_not_the_line():
    # insult_animal's veto: self-deprecation (我这猪脑子) is not an insult; the next sentence still is
    assert "insult_animal" not in cats("我这猪脑子，又忘了")
    assert "insult_animal" in cats("我这猪脑子，又忘了。你个狗东西")


@pytest.mark.parametrize("text, want", [
    ("龟儿子，刀我做啥子", {"insult_kin", "insult_animal"}),
    ("草泥马的狼", {"insult_kin", "vulgar_verb"}), ("艹泥马的狼", {"insult_kin", "vulgar_verb"}),
    ("cao尼玛的狼", {"insult_kin", "vulgar_verb"}),
])
def test_every_category_of_a_span(text, want):
    assert want <= cats(text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="傻逼卧槽你妈的奶他，、 \u200b😂1【】𝐬ѕsbcnmfuk好人狼", max_size=24))
def test_spans_point_at_the_words_written(text):
    for f in CHECKER.check_text(text):
        assert 0 <= f.start <= f.end <= len(text)
        assert f.evidence == text[f.start:f.end]


def test_folding_drops_invisible_characters_and_maps_back():
    f = fold("傻\u200b逼")
    assert f.text == "傻逼" and [f.to_original(i) for i in range(2)] == [0, 2]
    assert key("𝐒𝐁") == "sb"
    v = views("ѕb")
    assert v.folded.text == "sb"


SOUNDS = M84.whistle.sounds


@pytest.mark.parametrize("text, offenders", [
    ("嗚嗚嗚", ""), ("嚶嚶嚶！", ""), ("ｍｉａｏ", "ｍｉａｏ"),                 # traditional and full width
    ("喵:lol", ""), ("喵{:2_30:}", ""), ("汪 :handshake", ""), ("喵 :P", ""),  # the forum's smiley codes
    ("^_^喵", ""), ("-_-||", ""), ("T_T", "T"), ("喵 :ok", "ok"),           # ASCII emoticons: letters count
    ("喵😂", ""), ("喵🐺🔪", "🐺🔪"),                                      # mood emoji vs a rebus (暗号)
    ("... --- ...", ".-"), ("喵……——", ""),                                  # Morse (电码) vs punctuation
    ("...---...", ".-"), ("喵-.-", ""), ("汪...——...", ""), ("呜...--", ""),   # typed unparted, vs emoticon
    ("哒 ·—— 哒哒 —·—", "·—"), ("喵.-喵-..喵", ".-"), ("喵·——\n汪—·", ""),  # groups parted by sounds (set 50), one a line
])
def test_whistle(text, offenders):
    got = "".join(dict.fromkeys(c for _, c in whistle_offenders(text, SOUNDS)))
    assert got == offenders


def test_whistle_flag_names_the_code():
    flags = CHECKER.check_text(".-.. --- ...-", whistled=True)
    assert flags and flags[0].category == "whistle_breach" and "电码" in flags[0].note


def test_a_construction_catches_wordings_never_written(tmp_path):
    """Slots, not sentences: 3(1) 发表（或伪造）与导演的对话 — any director word, any 'to me / in
    private', any verb of telling, in one sentence."""
    from moderation.checker import Checker
    from moderation.loader import load_lexicon

    (tmp_path / "director_talk.toml").write_text(
        '[[constructions]]\nslots = [["导演", "法官"], ["跟我", "私下"], ["说", "透露"]]\nwindow = 4\n'
        '[[constructions]]\nslots = [["判罚"], ["不公平", "不服"]]\nany_order = true\n', "utf-8")
    lx = load_lexicon(tmp_path)
    assert {"导演", "法官", "判罚", "不公平", "不服"} <= set(lx.categories["director_talk"].anchors)
    c = Checker(lexicon=lx)
    hit = lambda t: any(f.category == "director_talk" for f in c.check_text(t))  # noqa: E731
    assert hit("法官昨晚私下偷偷透露了")
    assert hit("不服，这判罚") and hit("这判罚我不服")
    assert not hit("导演。跟我说的不一样")  # a sentence apart


def test_a_construction_needs_two_slots(tmp_path):
    from moderation.loader import load_lexicon

    (tmp_path / "oath.toml").write_text('[[constructions]]\nslots = [["发誓"]]\n', "utf-8")
    with pytest.raises(ValueError, match="construction"):
        load_lexicon(tmp_path)
