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
