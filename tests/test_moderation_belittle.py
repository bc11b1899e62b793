"""The belittling model (moderation/belittle.py): mockery the word lists do not hold.

M84 违规判定 2(4) and 004 2(1)(2) ban mocking or belittling a player's intelligence or character
(the eval README's gloss: 你杀品真差, 智商堪忧); the wordings are open-ended, so a model learned
from the project's labelled posts scores what the constructions miss. These cases were written
for this test, not taken from any labelled set."""
from __future__ import annotations

import json

import pytest

from gamedef.ruleset import load_ruleset
from moderation.belittle import MODEL_FILE, BelittleModel, grams, load_model
from moderation.checker import get_checker
from moderation.normalize import fold


@pytest.fixture(scope="module")
def checker():
    return get_checker(load_ruleset("m84"))


def model_flags(checker, text: str) -> list:
    return [f for f in checker.check_text(text) if f.category == "mockery" and f.term == "belittle-model"]


BELITTLING = [
    "馒头的发言我看了三遍，一句有用的都没有，脑子是借给别人了吧",
    "这推理看得我想笑，你是不是从来没玩过狼人杀",
    "就这点水平还天天教别人怎么玩，真是好意思",
]

CLEAN = [
    "今天天气不错，我们去公园散步吧",
    "我觉得你的分析有道理，但是站边太早了，建议再看看",
    "这家店的水平一般，服务员态度也很差，不会再来了",
    "昨晚的刀口在三号，女巫没有救，预言家今天起跳吧",
]


def test_the_shipped_model_loads_with_its_threshold_and_anchors() -> None:
    data = json.loads(MODEL_FILE.read_text("utf-8"))
    m = load_model()
    assert m is not None and m.threshold == data["threshold"] and len(m.anchors) > 100
    assert not any("Ⓟ" in k or any(c.isspace() for c in k) for k in m.weights)  # names and spaces never weigh


@pytest.mark.parametrize("text", BELITTLING)
def test_belittling_the_lexicon_misses_is_flagged_with_cues(checker, text: str) -> None:
    flags = [f for f in checker.check_text(text) if f.category == "mockery"]
    assert flags, text
    f = flags[0]
    assert f.rule.startswith("M84 违规判定 2(4)")
    if f.term == "belittle-model":
        assert "statistical suggestion" in f.note and f.evidence and f.evidence in text


@pytest.mark.parametrize("text", CLEAN)
def test_ordinary_talk_and_reviews_are_not_belittling(checker, text: str) -> None:
    assert model_flags(checker, text) == []


def test_reported_words_are_not_the_posters_belittling(checker) -> None:
    """Reporting someone else's words to the director is not committing the violation."""
    said = "馒头的发言我看了三遍，一句有用的都没有，脑子是借给别人了吧"
    assert model_flags(checker, said)
    assert model_flags(checker, f"他骂我“{said}”，导演这算不算违规") == []


@pytest.mark.parametrize("text", ["我这智商，还是跟票吧", "我真是太菜了，这把又站错边", "本人推理水平有限，大家轻喷"])
def test_running_oneself_down_is_not_belittling(checker, text: str) -> None:
    """M84 违规判定 2(4) protects the other players: self-deprecation is clean."""
    assert model_flags(checker, text) == []


def test_the_span_maps_back_through_folding(checker) -> None:
    """Full-width letters and traditional characters fold; the evidence is still the poster's own text."""
    text = "ＯＫ，饅頭的發言我看了三遍，一句有用的都沒有，腦子是借給別人了吧"
    flags = model_flags(checker, text)
    assert flags and flags[0].evidence == text[flags[0].start:flags[0].end]


def test_a_line_without_an_anchor_is_not_scored() -> None:
    m = BelittleModel({"你": 9.0}, bias=-1.0, threshold=0.0, anchors=["智商"])
    assert m.judge("你你你") is None
    assert m.judge("你智商") is not None


def test_grams_are_the_distinct_one_to_three_character_pieces() -> None:
    assert grams("abca") == {"a", "b", "c", "ab", "bc", "ca", "abc", "bca"}
    assert grams(fold("ＡＢ").text) == {"a", "b", "ab"}


def test_a_ruleset_can_turn_the_model_off(tmp_path) -> None:
    """The model is a suggestion a director may not want: `[moderation] belittle_model = false`."""
    import dataclasses

    rs = load_ruleset("m84")
    off = dataclasses.replace(rs, moderation=dataclasses.replace(rs.moderation, belittle_model=False))
    text = BELITTLING[0]
    on_flags = [f for f in get_checker(rs).check_text(text) if f.term == "belittle-model"]
    assert on_flags and not [f for f in get_checker(off).check_text(text) if f.term == "belittle-model"]
