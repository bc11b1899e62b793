"""The water-post (纯水帖) definition of moderation/water.py."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from moderation.water import FILLERS, MAX_FILLER_CHARS, is_water


@pytest.mark.parametrize("text", ["顶", "来了", "。。。", "沙发", "路过", "+1", "＋１", "哈哈哈", "嗯嗯嗯...", "233333",
                                  "666", "顶顶顶！！", "？？？", "~~~", "👍👍", "", "  \n ", "Mark", "来了来了"])
def test_water(text):
    assert is_water(text)


@pytest.mark.parametrize("text", ["顶，春卷是狼", "好", "同意楼上，先归饺子再说。", "投馄饨", "1楼说得对", "mark一下",
                                  "喵喵", "我来了，先说结论：包子是齐格", "哈哈哈你真会说"])
def test_not_water(text):
    assert not is_water(text)


def test_only_smilies_is_water():
    assert is_water("", smilies=3)


def test_long_filler_is_counted_but_long_punctuation_is_not():
    assert not is_water("哈" * (MAX_FILLER_CHARS + 1))
    assert is_water("哈" * MAX_FILLER_CHARS)
    assert is_water("。" * 200)


@given(st.lists(st.sampled_from(FILLERS + ("。", "！", "…", " ")), min_size=1, max_size=4))
def test_fillers_and_punctuation_are_water(parts):
    text = "".join(parts)
    if len("".join(text.split())) <= MAX_FILLER_CHARS:
        assert is_water(text)


@given(st.text(), st.sampled_from(["狼", "投票", "馄饨", "验人"]))
def test_a_substantive_word_is_never_water(text, word):
    assert not is_water(text + word)
