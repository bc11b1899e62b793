"""Each normalisation step on its own, and spans mapping back to the words the player wrote."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from moderation.normalize import fold, key, lower, nfkc, squeeze, t2s, views


@pytest.mark.parametrize("step, given_text, expected", [
    (nfkc, "ｓｂ吧", "sb吧"),                 # full-width letters
    (nfkc, "ＷＣ，又是", "WC,又是"),           # full-width comma too
    (lower, "MVP给他", "mvp给他"),
    (lower, "I Swear", "i swear"),
    (t2s, "臥槽，這票型", "卧槽，这票型"),       # traditional → simplified
    (t2s, "我對天發誓", "我对天发誓"),
    (t2s, "媽的", "妈的"),
])
def test_single_steps(step, given_text, expected):
    assert step(given_text) == expected


@pytest.mark.parametrize("given_text, expected", [
    ("卧*槽，这也行", "卧槽,这也行"),     # a wildcard between two characters
    ("你 妈 的，又是平票", "你妈的,又是平票"),  # spaces between characters
    ("w c，这什么", "wc,这什么"),
    ("卧卧卧槽槽槽，预言家又倒了", "卧槽,预言家又倒了"),  # stretched runs
    ("妈妈说熬夜不好", "妈妈说熬夜不好"),  # doubles are ordinary Chinese
    ("666，这归票漂亮", "666,这归票漂亮"),  # digits are never collapsed
    ("第一行\n第二行", "第一行\n第二行"),  # newlines are kept
])
def test_squeeze(given_text, expected):
    assert squeeze(fold(given_text).text).text == expected


def test_fold_keeps_length_for_ordinary_text():
    f = fold("臥槽，這票型ＯＫ")
    assert f.origin is None and len(f.text) == len("臥槽，這票型ＯＫ")


def test_fold_maps_expanding_characters_back():
    f = fold("重㎏卧槽")  # ㎏ expands to "kg"
    assert f.text == "重kg卧槽"
    assert [f.to_original(i) for i in range(len(f.text))] == [0, 1, 1, 2, 3]


def _fold_one_by_one(text: str) -> tuple[str, list[int]]:
    """The reference fold: each character on its own, its index repeated per output character."""
    from moderation.normalize import _fold_char

    out, origin = [], []
    for i, c in enumerate(text):
        f = _fold_char(c)
        out.append(f)
        origin += [i] * len(f)
    return "".join(out), origin


@settings(max_examples=300)
@given(st.text(alphabet="臥槽這ＯＫ…㎏①ﬁ\u00ad\u200b好的 ,。A", max_size=30))
def test_fold_equals_folding_each_character_alone(text):
    f = fold(text)
    expected_text, expected_origin = _fold_one_by_one(text)
    assert f.text == expected_text
    assert [f.to_original(i) for i in range(len(f.text))] == expected_origin
    assert f.to_original(len(f.text)) == len(text)


@pytest.mark.parametrize("text, term", [
    ("前面，臥*槽，这也行", "卧槽"),
    ("好的 你 妈 的，又是平票", "你妈的"),
    ("卧卧卧槽槽槽，预言家又倒了", "卧槽"),
    ("重㎏卧 槽!", "卧槽"),
])
def test_span_maps_back_to_original(text, term):
    v = views(text)
    i = v.squeezed.text.index(key(term))
    s, e = v.original_span_from_squeezed(i, i + len(key(term)))
    assert squeeze(fold(text[s:e]).text).text == key(term)
    assert not text[s:e].endswith(" ")


@given(st.text(alphabet="卧槽你妈 *._-哈\n喵ａＢc，。", max_size=40))
def test_squeezed_positions_stay_in_range(text):
    v = views(text)
    for i in range(len(v.squeezed.text) + 1):
        s, e = v.original_span_from_squeezed(0, i)
        assert 0 <= s <= e <= len(text)
    if v.squeezed.text:
        s, e = v.original_span_from_squeezed(0, len(v.squeezed.text))
        assert s <= e


@pytest.mark.parametrize("text, start, end, want", [
    ("s1b", 0, 3, True), ("f1u1c1k", 0, 7, True), ("c7n7m", 0, 5, True),  # one digit run between every letter
    ("mp3", 0, 3, False), ("s1b2x", 0, 5, False), ("c7n2m", 0, 5, False),   # a word's own digit, mixed digits
])
def test_digits_between_latin_letters(text, start, end, want):
    from moderation.normalize import interleaved

    assert interleaved(text, start, end) is want


@pytest.mark.parametrize("text, want", [("干7你", False), ("他7妈", False), ("我7日", True), ("第3个你", True)])
def test_a_digit_with_its_unit_is_a_number(text, want):
    from moderation.normalize import number_inside

    assert number_inside(text, 0, len(text)) is want


def test_the_dense_view_joins_a_repeat_across_a_clause_but_the_term_starts_after_it():
    from moderation.normalize import clause_double_start, dense

    folded = "出他，他、奶、奶、的"
    d = dense(folded)
    assert d.text == "出他奶的"
    fs, fe = d.span_to_folded(1, 4)
    assert folded[clause_double_start(folded, fs, fe):fe] == "他、奶、奶、的"
    assert dense("fuuuck").text == "fuck"  # Latin doubles made single too


def test_spellings_of_a_term():
    from moderation.spellings import addressed, addressed_spellings, latin_spellings

    assert "250" in addressed_spellings("二百五") and "cs" in addressed_spellings("畜牲")
    assert "4g" in addressed_spellings("死狗")
    # a run of three of one letter is squeezed in posts: 溜了溜了 spelled llll would be any l
    assert not {"l", "6l", "6了"} & {key(s) for s in latin_spellings("溜了溜了")}
    assert addressed("你这个cs，站错", 3, 5) and addressed("cs，又是平票", 0, 2) and addressed("sm你", 0, 2)
    assert not addressed("买个hp的本子", 2, 4) and not addressed("www.hp.com", 4, 6)


@pytest.mark.parametrize("text, start, end, want", [
    ("你个gg", 2, 4, True), ("gg吧你", 0, 2, True), ("gg你", 0, 2, True),     # said to someone
    ("gg，我出局了", 0, 2, False), ("真gg", 1, 3, False), ("gg你们", 0, 2, False),  # forum talk: game over
    ("这只cs，站错", 2, 4, True), ("你这cs", 2, 4, True), ("cs，又是平票", 0, 2, True),
])
def test_address_markers_are_data(text, start, end, want):
    """The markers live in lexicon/address.toml: a said-only spelling (gg) counts by a marker, never
    as a clause of its own; other short spellings also standing alone."""
    from moderation.spellings import addressed

    assert addressed(text, start, end) is want
