"""The per-category speech models (moderation/speech_models.py): what the lexicon misses.

The rule posts ban whole kinds of speech, not word lists: M84 违规判定 4(3) "提及过去场次"
(例：你忘了那场女巫黑情侣了？), 4(1) "表明或暗示自己（或他人）的马甲", 2(5) "发誓或诅咒",
7(2) "利用场外信息或不正当手段获得游戏剧情或证明身份". A model per category, learned from the
labelled posts, suggests the category where the lexicon found none of it. These sentences were
written for this test, not taken from any labelled set.
"""
from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamedef.ruleset import load_ruleset
from moderation.checker import Checker, get_checker
from moderation.speech_models import MODELS_FILE, SpeechModels, load_speech_models


@pytest.fixture(scope="module")
def checker():
    return get_checker(load_ruleset("m84"))


# (category, a wording the lexicon holds no construction for)
MISSED_BY_THE_LEXICON = [
    ("past_game", "上回咱俩一个狼坑的时候你也是这么装的"),
    ("past_game", "记得去年冬天那把，女巫也是首夜乱毒"),
    ("alt_account", "我什么水平大家应该都认得出来吧，老玩家了"),
    ("evidence", "我把私聊截图发上来，大家自己看"),
]

CLEAN = [
    "昨晚平安夜，导演公告里写得很清楚",
    "规则里说不能讨论替补，大家注意一下",
    "今天上班好累，晚上回来再看帖",
    "这局是我第一次玩版杀，请大家多多指教",
    "这家餐厅环境不错，菜品也很新鲜，下次还会再来",
    "天气预报说明天有雨，出门记得带伞",
    "我昨天的发言有点乱，今天重新整理一下思路",
    "导演辛苦了，晨报写得很有意思",
    "举报：楼上说要拿自己的号担保，导演看一下",
    "我把昨天的票型截成表格了：饺子3票，包子2票",
]


def test_the_shipped_models_load_one_per_category_with_anchors() -> None:
    data = json.loads(MODELS_FILE.read_text("utf-8"))
    models = load_speech_models()
    assert models is not None and set(models.models) == set(data["models"])
    assert {"curse", "past_game", "guarantee", "director_talk", "alt_account", "oath"} <= set(models.models)
    assert "mockery" not in models.models  # the belittling model's, with its self-deprecation veto
    for cat, m in models.models.items():
        assert m.threshold > 0 and len(m.anchors) >= 10, cat
        assert not m.self_veto  # an oath or a pledge is the poster speaking of himself
        assert not any("Ⓟ" in k or any(c.isspace() for c in k) for k in m.weights), cat
    rules = load_ruleset("m84").moderation.rules
    assert set(models.models) <= set(rules)  # every suggestion has a rule to cite


@pytest.mark.parametrize("category,text", MISSED_BY_THE_LEXICON)
def test_a_wording_the_lexicon_misses_is_suggested_with_its_rule_and_cues(checker, category: str, text: str) -> None:
    flags = [f for f in checker.check_text(text) if f.category == category]
    assert flags, text
    f = flags[0]
    assert f.term == "speech-model"
    assert f.rule == checker.rule(category)
    assert "statistical suggestion" in f.note and f"{category} model: score" in f.note
    assert f.evidence and f.evidence in text


@pytest.mark.parametrize("text", CLEAN)
def test_ordinary_talk_rule_talk_and_reports_get_no_suggestion(checker, text: str) -> None:
    assert not [f for f in checker.check_text(text) if f.term == "speech-model"], text


def test_a_model_only_adds_a_category_the_lexicon_did_not_give(checker) -> None:
    # 对天发誓 is in the oath list: the oath model has nothing to add; no category is flagged twice
    flags = checker.check_text("我对天发誓我真是预言家，上回那把我也是这么被冤的")
    cats = [f.category for f in flags]
    assert "oath" in cats and len(cats) == len(set(cats))
    assert next(f for f in flags if f.category == "oath").term != "speech-model"


def test_the_ruleset_can_turn_the_models_off_and_a_missing_rule_has_no_model() -> None:
    rs = load_ruleset("m84")
    text = MISSED_BY_THE_LEXICON[0][1]
    off = replace(rs, moderation=replace(rs.moderation, speech_models=False))
    assert not [f for f in Checker(off).check_text(text) if f.term == "speech-model"]
    rules = {k: v for k, v in rs.moderation.rules.items() if k != "past_game"}
    without = replace(rs, moderation=replace(rs.moderation, rules=rules))
    assert not [f for f in Checker(without).check_text(text) if f.category == "past_game"]


def test_models_narrowed_to_a_rulesets_categories() -> None:
    models = load_speech_models()
    assert models is not None
    some = models.only({"curse", "oath", "not-a-category"})
    assert set(some.models) == {"curse", "oath"}
    assert some.anchored("祝你天天加班") <= {"curse", "oath"}
    assert models.only(set(models.models)) is models


def test_a_missing_models_file_means_no_suggestions(tmp_path) -> None:
    assert load_speech_models.__wrapped__(str(tmp_path / "none.json")) is None
    one = {"models": {"curse": {"bias": -5.0, "threshold": 0.0, "anchors": ["诅咒你"], "weights": {"诅咒你": 9.0}}}}
    path = tmp_path / "one.json"
    path.write_text(json.dumps(one, ensure_ascii=False), "utf-8")
    models = load_speech_models.__wrapped__(str(path))
    assert isinstance(models, SpeechModels)
    assert models.over("我诅咒你") == ["curse"] and models.over("你好") == []


TEXTS = [t for _, t in MISSED_BY_THE_LEXICON] + CLEAN + [
    "你每次拿到预言家都这么跳，老习惯了", "我要不是好人，结束后我自己删号", "好", "嗯嗯",
    "举报：他说“上回那把你也这么装”", "\n", "谁出我谁家wifi永远一格信号"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(TEXTS), min_size=1, max_size=8))
def test_a_batch_suggests_what_each_post_alone_gets(texts) -> None:
    """Batches share one anchor pass; a post's flags must not depend on its neighbours."""
    ck = get_checker(load_ruleset("m84"))
    alone = [[(f.category, f.term, f.start, f.end, f.note) for f in ck.check_text(t)] for t in texts]
    batch = [[(f.category, f.term, f.start, f.end, f.note) for f in fs] for fs in ck.check_texts(texts)]
    assert batch == alone


def test_what_vetoes_a_categorys_words_vetoes_its_model(checker) -> None:
    """An unquoted report of someone else's words (the shared veto) is not the poster's insult,
    whether the lexicon or a model would have seen it."""
    for text in ("举报3楼说我是个傻逼", "举报有人骂我狗东西"):
        assert not [f for f in checker.check_text(text) if f.category in ("insult", "insult_animal")], text


def test_a_link_is_left_to_the_lexicon_and_the_ruleset() -> None:
    """M84 违规判定 forbids links only as the ruleset says (evidence.links_forbidden); the evidence
    model must not flag a bare link where they are allowed."""
    rs = load_ruleset("m84")
    lenient = replace(rs, moderation=replace(rs.moderation, evidence=replace(rs.moderation.evidence, links_forbidden=False)))
    text = "http://bbs.example.com/thread-1234-1-1.html 你们自己看"
    assert "evidence" in {f.category for f in get_checker(rs).check_text(text)}
    assert "evidence" not in {f.category for f in Checker(lenient).check_text(text)}


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="htps:/w.点dotcmnrgabe- 你好", max_size=30))
def test_the_link_hint_is_in_every_link(text: str) -> None:
    """The models' text skips the link search where the hint is absent: it must not miss one."""
    from moderation.checker import _LINK, _LINK_HINT

    if _LINK.search(text):
        assert _LINK_HINT.search(text), text


def test_anchors_cover_each_flagged_post_twice_preferring_words_rare_in_prose() -> None:
    """bench/train_speech_models.py picks the anchors: enough that each post the model flags in
    training holds `cover` of them, the ones covering most posts per prose line hit first."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from train_belittle import choose_anchors

    w = {"上回": 2.0, "那把": 1.5, "这局": 0.5, "我": 0.4, "的": 0.35, "啊": 0.1}
    flagged = [{"上回", "那把", "我"}, {"上回", "这局", "的"}, {"那把", "这局", "我"}]
    prose_df = {"我": 5000, "的": 8000, "这局": 3, "上回": 1, "那把": 0}
    anchors = choose_anchors(w, flagged, prose_df, 2)
    assert all(len(post & set(anchors)) >= 2 for post in flagged)
    assert "啊" not in anchors and "的" not in anchors and "我" not in anchors  # rare ones suffice
    models = load_speech_models()
    assert models is not None
    for cat, m in models.models.items():
        assert all(m.weights.get(a, 0) >= 0.3 for a in m.anchors), cat
