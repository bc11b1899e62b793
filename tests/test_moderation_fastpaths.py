"""The checker's shortcuts must not change what it finds: each is held against the slow form."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from moderation.normalize import FILLERS, squeeze
from moderation.regex_hints import guarded, required_literals

# the squeeze rule as one regex (the documented form; squeeze() runs it as two cheap scans)
_SLOW = re.compile(rf"(?<=[^\W_])(?:{FILLERS})+(?=[^\W_])|([^\W\d_])\1{{2,}}")


def _slow_squeeze(text: str) -> str:
    return _SLOW.sub(lambda m: m.group(1) or "", text)


@settings(max_examples=400)
@given(st.text(alphabet="卧槽你妈 *._-~/|\t\u3000哈哈哈aaAb1116\n，。!…'\"×", max_size=40))
def test_squeeze_equals_the_one_regex_rule(text):
    assert squeeze(text).text == _slow_squeeze(text)


def test_word_and_letter_tests_match_re_classes():
    every = "".join(chr(i) for i in range(0x10000) if not 0xD800 <= i <= 0xDFFF)
    assert set(re.findall(r"[^\W_]", every)) == {c for c in every if c.isalnum()}
    assert set(re.findall(r"[^\W\d_]", every)) == {c for c in every if c.isalnum() and not c.isdecimal()}


PATTERNS = [r"get|\d\s*/\s*\d|=", r"\d:\d\d|\(\d{5,}|树洞|\.(?:png|jpe?g)", r"(那场|上局)(?!雨)",
            r"(m|s)\d{2,3}(那场|里)", r"(有个|个|屁)卵(用|事)?", r"^锤子[,.!?]", r"你.{0,3}妈", r"a?b", r"x|",
            r"(?=a)b", r"\bfoo", r"(?<!雨)(那场|上局)", r"(操|草)(死|翻)?(你|他)", r"(?:^|[,.])(我|卧)擦(?=[,.]|$)",
            r"(你|他)(个)?(傻|蠢){1,2}(子|货)"]
ALPHABET = "get1234/=:(树洞.png那场上局雨ms里有个屁卵用事锤子,你他妈ab x\n操草死翻卧擦我fo傻蠢子货"


@pytest.mark.parametrize("source", PATTERNS)
@settings(max_examples=150)
@given(text=st.text(alphabet=ALPHABET, max_size=30))
def test_guarded_regex_finds_the_same_matches(source, text):
    plain = re.compile(source, re.M)
    assert [m.span() for m in guarded(plain).finditer(text)] == [m.span() for m in plain.finditer(text)]


@pytest.mark.parametrize("source", PATTERNS)
@settings(max_examples=150)
@given(text=st.text(alphabet=ALPHABET, max_size=30))
def test_every_match_holds_a_required_literal(source, text):
    regex = re.compile(source, re.M)
    lits = required_literals(regex)
    for m in regex.finditer(text):
        if lits is not None and m.end() > m.start():
            assert any(lit in m.group(0) for lit in lits)


def test_required_literals_skip_single_characters_and_unknowns():
    assert required_literals(re.compile(r"(那场|上局)(?!雨)")) == ("那场", "上局")
    assert required_literals(re.compile(r"(有个|个)|屁")) is None  # 屁 alone is a single character
    assert required_literals(re.compile(r"a?b|x")) is None


def test_required_literals_spell_runs_of_few_choices():
    assert required_literals(re.compile(r"(有个|个|屁)卵")) == ("个卵", "屁卵", "有个卵")
    assert set(required_literals(re.compile(r"(操|草)(死|翻)(你|他)"))) == {
        a + b + c for a in "操草" for b in "死翻" for c in "你他"}
    assert required_literals(re.compile(r"(?<![可所])以(我|本人)")) == ("以我", "以本人")
    # an optional part spells both ways; a long run of choices stops at the size limit
    assert set(required_literals(re.compile(r"卧(\*)?槽"))) == {"卧槽", "卧*槽"}
    assert required_literals(re.compile(r"[a-z]{3}")) is None
    assert required_literals(re.compile(r"(?i)导演说")) is None


def test_guard_leaves_unreadable_patterns_alone():
    for source in (r"[^x]y", r"x|", r"(?=a)", r".b", r"a*"):
        assert guarded(re.compile(source)).pattern == source


def test_guard_looks_past_zero_width_and_optional_starts():
    assert guarded(re.compile(r"(?<!羊毛)马甲")).pattern.startswith("(?=[马])")
    assert guarded(re.compile(r"a?b")).pattern.startswith("(?=[ab])")
    assert guarded(re.compile(r"(?:^|[,.])擦")).pattern.startswith("(?=[,\\.擦])")


def test_fast_jieba_load_gives_jiebas_own_cut():
    from moderation.segment import Segmenter

    tk = Segmenter(["马甲线"]).tokenizer()
    assert list(tk.cut("马甲线练了三个月", HMM=False))[0] == "马甲线"
    assert len(tk.FREQ) > 300_000


def _plain_and_quick_segmenters():
    from moderation.checker import _engine
    from moderation.loader import load_lexicon
    from moderation.segment import Segmenter

    return Segmenter(load_lexicon().allow), _engine().segmenter


# windows of the characters hits start and end with, words that reach across them (输入你的,
# 日常, 操场, 孙子兵法, 马甲线), ASCII runs (jieba joins letters and digits) and punctuation
_BOUNDARY_TEXT = st.text(alphabet="输入你的日常操场孙子兵法马甲线傻逼草泥我他妈卧槽死全家b2ab1 ，。\n", max_size=24)


@settings(max_examples=500)
@given(_BOUNDARY_TEXT, st.data())
def test_quick_boundaries_answer_as_jieba_does(text, data):
    """The engine's segmenter (cached boundary table, words that can cross a hit's ends, jieba's
    dictionary read shard by shard) gives jieba's own answers."""
    plain, quick = _plain_and_quick_segmenters()
    if len(text) < 2:
        return
    start = data.draw(st.integers(0, len(text) - 1))
    end = data.draw(st.integers(start + 1, min(len(text), start + 3)))
    assert quick.split_apart(text, start, end) == plain.split_apart(text, start, end)
    assert quick.is_word(text, start, end) == plain.is_word(text, start, end)
    assert quick.has_everyday_char(text[start:end]) == plain.has_everyday_char(text[start:end])


def test_quick_boundaries_on_named_cases():
    plain, quick = _plain_and_quick_segmenters()
    for text, start, end in [("请输入你的姓名", 2, 4), ("日常打卡", 0, 2), ("去操场跑步", 1, 3),
                             ("孙子兵法", 0, 2), ("马甲线练了三个月", 0, 2), ("今天出他，傻逼", 5, 7)]:
        assert quick.split_apart(text, start, end) == plain.split_apart(text, start, end), text
        assert quick.is_word(text, start, end) == plain.is_word(text, start, end), text


# ---- the checker's own shortcuts: gated categories and pattern unions against the plain form

def _checkers():
    from moderation.checker import Checker, _Engine
    from moderation.loader import load_lexicon

    fast = Checker()
    plain = Checker()
    plain.engine = _Engine(load_lexicon(), shortcuts=False)
    return fast, plain


def _fragments() -> list[str]:
    from moderation.loader import load_lexicon

    lex = load_lexicon()
    out: list[str] = []
    for lx in lex.categories.values():
        out += lx.anchors + lx.terms[:5] + lx.examples + lx.clean
    return sorted(set(out))


FRAGMENTS = _fragments()
FAST, PLAIN = _checkers()


def _json(flags) -> list[dict]:
    return [f.to_json() for f in flags]


def test_shortcuts_find_what_the_plain_form_finds_on_the_lexicon_sentences():
    assert FAST.engine.gated and not PLAIN.engine.gated
    for text in FRAGMENTS:
        assert _json(FAST.check_text(text)) == _json(PLAIN.check_text(text)), text
    fast = [_json(f) for f in FAST.check_texts(FRAGMENTS)]
    assert fast == [_json(f) for f in PLAIN.check_texts(FRAGMENTS)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(FRAGMENTS), st.sampled_from(["", "，", "\n", " ", "……", "。", "我"])),
                min_size=1, max_size=6))
def test_shortcuts_find_what_the_plain_form_finds_on_mixed_posts(parts):
    text = "".join(a + b for a, b in parts)
    assert _json(FAST.check_text(text)) == _json(PLAIN.check_text(text))


def test_a_thread_of_every_literal_mix_compiles_few_unions_and_finds_the_same():
    """Posters choose the text: lines holding many different mixes of a category's literals
    must not compile a union for each mix (the cache would grow with the thread), and past the
    cap the full union serves with the same flags."""
    import random

    from moderation.checker import UNION_SETS, Checker, _Engine
    from moderation.loader import load_lexicon

    lex = load_lexicon()
    cat = max(lex.categories, key=lambda c: len(lex.categories[c].patterns))
    literals = sorted({s for p in lex.categories[cat].patterns for s in (required_literals(p.regex) or ())})
    rng = random.Random(5)
    lines = ["，".join(rng.sample(literals, 6)) for _ in range(400)]
    fast = Checker()
    fast.engine = _Engine(lex)
    fast.engine.prefilter = None  # the pure-Python path (no Hyperscan) is the one with unions
    got = [_json(f) for f in fast.check_texts(lines)]
    assert got == [_json(f) for f in PLAIN.check_texts(lines)]
    hs = Checker()
    hs.engine = _Engine(lex)
    assert [_json(f) for f in hs.check_texts(lines)] == got
    if hs.engine.prefilter.available:
        assert not hs.engine._unions  # Hyperscan tells the candidates: nothing to compile per mix
    compiled = [k for k in fast.engine._unions if k[0] == cat]
    assert len(compiled) <= UNION_SETS + 1
    assert (cat, None) in fast.engine._unions  # the cap was reached and the full union took over
