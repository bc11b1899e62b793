"""The checker's cheaper paths give what the plain computations give (issue 21, fourth pass):

- the belittling model's upper bound is never under the score, and `over_threshold` decides as
  the score does (random models and texts, the shipped model on random text, the dev set and
  the model's training lines);
- a batch's belittling flags (anchors found in the batch's folded view, texts cut back out of
  it, most settled by the bound) are those of each text checked alone, NULs and separators
  inside texts included;
- `fold`'s map back to positions, now that astral characters folding to several are found one
  by one, still sends every folded character to the character it came from;
- regexes built from `re`'s compiled form kept in the start-up cache are `re.compile`'s;
- the shipped lexicon read from its cached TOML tables is the lexicon parsed from its files.
"""
from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings, strategies as st

from gamedef.ruleset import load_ruleset
from moderation import normalize
from moderation.belittle import BelittleModel, load_model
from moderation.checker import get_checker
from moderation.loader import LEXICON_DIR, compile_regex, load_lexicon

from .conftest import EVAL, ROOT

M84 = load_ruleset("m84")
MODEL = load_model()
DATA = ROOT / "tests" / "data"


def _texts(path) -> list[str]:
    return [json.loads(line)["text"] for line in path.read_text("utf-8").splitlines() if line.strip()]


def _labelled() -> list[str]:
    out = _texts(DATA / "belittle_training_a.jsonl") + _texts(DATA / "belittle_training_b.jsonl")
    dev = EVAL / "moderation_dev.jsonl"
    return out + (_texts(dev) if dev.is_file() else [])


def _same_decision(model: BelittleModel, folded: str) -> None:
    score = model.score(folded)
    assert model.upper_bound(folded) >= score - 1e-9, folded
    assert model.over_threshold(folded) == (score > model.threshold), folded


# ---- the bound, on random models ------------------------------------------------------------
ALPHABET = "你我他是的傻逼菜，。!a "
grams_of = st.text(alphabet=ALPHABET, min_size=1, max_size=3)


@settings(max_examples=300)
@given(weights=st.dictionaries(grams_of, st.floats(-5, 5, allow_nan=False), max_size=40),
       bias=st.floats(-5, 5, allow_nan=False), text=st.text(alphabet=ALPHABET, max_size=40))
def test_the_bound_never_falls_under_the_score_of_any_model(weights, bias, text):
    model = BelittleModel(weights, bias, 0.0, ["你"])
    assert model.upper_bound(text) >= model.score(text) - 1e-9
    for threshold in (model.score(text), model.score(text) - 1e-12, 0.0):
        m = BelittleModel(weights, bias, threshold, ["你"])
        assert m.over_threshold(text) == (m.score(text) > threshold)


def test_a_score_exactly_at_the_threshold_is_decided_by_the_score():
    """Single characters only: the bound equals the score, summed in another order; at the
    threshold the score itself decides (it does not pass)."""
    weights = {"你": 0.1, "菜": 0.2, "傻": 0.7, "我": -0.3}
    probe = BelittleModel(weights, 0.0, 0.0, ["你"])
    text = "你菜傻我"
    at = BelittleModel(weights, 0.0, probe.score(text), ["你"])
    assert not at.over_threshold(text)
    below = BelittleModel(weights, 0.0, probe.score(text) - 1e-9, ["你"])
    assert below.over_threshold(text)


# ---- the shipped model ------------------------------------------------------------------------
needs_model = pytest.mark.skipif(MODEL is None, reason="no belittle.json")


@needs_model
@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from(sorted({c for g in (MODEL.weights if MODEL else ()) for c in g})[:400]
                                        + list("，。！？ \n")), max_size=80))
def test_the_shipped_model_decides_random_text_as_its_score_does(text):
    _same_decision(MODEL, normalize.fold_text(text))


@needs_model
def test_the_shipped_model_decides_the_labelled_lines_as_its_score_does():
    texts = _labelled()
    assert len(texts) >= 600
    for t in texts:
        _same_decision(MODEL, normalize.fold_text(t))


# ---- batches ------------------------------------------------------------------------------------
def _json(flags) -> list[dict]:
    return [f.to_json() for f in flags]


@needs_model
def test_a_batch_flags_the_labelled_lines_as_one_by_one():
    checker = get_checker(M84)
    texts = _labelled()
    assert any(f["term"] == "belittle-model" for fs in checker.check_texts(texts) for f in _json(fs))
    for i in range(0, len(texts), 97):
        chunk = texts[i:i + 97]
        assert [_json(f) for f in checker.check_texts(chunk)] == [_json(checker.check_text(t)) for t in chunk]


ODD = ["\x00", "\n\x00\n", "\n\x00", "\x00\n", "…", "㎏", "\u200b", "🄐", "𝐬𝐛", "🅢🅑", "“", "”", "\n"]
MOCKING = ["这推理看得我想笑，你是不是从来没玩过狼人杀", "就这点水平还天天教别人怎么玩，真是好意思",
           "他骂我“脑子是借给别人了吧”", "楼上的智商真的堪忧", "卧槽，今天又平票"]


@settings(max_examples=150)
@given(st.lists(st.lists(st.sampled_from(ODD + MOCKING), max_size=5).map("".join), min_size=1, max_size=6))
def test_a_batch_with_separators_and_odd_folds_inside_its_texts_flags_as_one_by_one(texts):
    checker = get_checker(M84)
    assert [_json(f) for f in checker.check_texts(texts)] == [_json(checker.check_text(t)) for t in texts]


# ---- fold's map -------------------------------------------------------------------------------
FOLD_POOL = sorted(normalize._tables()[2]) + list("ab傻逼，。 \n😀🅢𝐬臥槽ＡＢ")


@settings(max_examples=400)
@given(st.lists(st.sampled_from(FOLD_POOL), max_size=30).map("".join))
def test_fold_maps_every_folded_character_to_the_one_it_came_from(text):
    f = normalize.fold(text)
    expected_text, expected_origin = [], []
    for i, c in enumerate(text):
        piece = normalize.fold_text(c)
        expected_text.append(piece)
        expected_origin += [i] * len(piece)
    assert f.text == "".join(expected_text)
    assert [f.to_original(j) for j in range(len(f.text))] == expected_origin
    assert f.to_original(len(f.text)) == len(text)


# ---- regexes from the start-up cache ------------------------------------------------------------
def test_regexes_from_their_kept_compiled_form_are_re_compiles():
    from moderation import loader

    load_lexicon()
    get_checker(M84)
    keys = list(loader._REGISTERED)
    assert len(keys) > 300
    samples = _labelled()[:300] + ["卧槽 21:15:03", "qq 123456 发来", "你这个傻逼", "https://x.cn/a 截图"]
    for pattern, flags in keys:
        ours, theirs = compile_regex(pattern, flags), re.compile(pattern, flags)
        assert (ours.pattern, ours.flags, ours.groups, ours.groupindex) == \
            (theirs.pattern, theirs.flags, theirs.groups, theirs.groupindex)
        for s in samples:
            a, b = ours.search(s), theirs.search(s)
            assert (a and (a.span(), a.groups())) == (b and (b.span(), b.groups())), (pattern, s)


def test_an_unregistered_regex_is_compiled_as_usual():
    got = compile_regex("(?P<x>ab)+c", re.I)
    assert got.pattern == "(?P<x>ab)+c" and got.flags & re.I and got.search("xABabC").group("x") == "ab"


# ---- the lexicon from its cached TOML tables ---------------------------------------------------
def test_the_cached_lexicon_is_the_lexicon_parsed_from_its_files():
    def summary(lex):
        return (lex.allow, lex.lookalike, {
            c: (lx.terms, lx.words, lx.sounds, lx.latin, lx.anchors, [p.source for p in lx.patterns],
                [(p.unless.pattern if p.unless is not None else None) for p in lx.patterns],
                lx.raw_prefilter, [p.source for p in lx.raw_patterns],
                lx.unless.pattern if lx.unless is not None else None, lx.examples, lx.clean, lx.short_spellings)
            for c, lx in lex.categories.items()})

    assert summary(load_lexicon()) == summary(load_lexicon()) == summary(load_lexicon(LEXICON_DIR))
