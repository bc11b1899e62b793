"""The sixth speed pass's shortcuts give the same answers as the plain forms they stand for
(property tests: the order and shape of the input must not matter to the result)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from moderation import normalize
from moderation.belittle import load_model

# texts from the characters the fold changes and those it keeps: full-width forms, traditional
# characters, styled letters, tone-marked letters, invisible characters, plain hanzi and ASCII
ALPHABET = st.sampled_from(list("ＡＢｓｂ１２，！？傻逼妈媽導演你妳abcXYZ 1\n、。tìǔü\u200b𝐬𝐛🐷🐴的了是") )


@settings(max_examples=60, deadline=None)
@given(st.lists(ALPHABET, min_size=0, max_size=60), st.integers(min_value=1, max_value=400))
def test_long_text_fold_is_the_plain_translate(chars: list[str], repeat: int) -> None:
    """fold_text takes a faster path from FAST_FOLD_FROM characters on; it must equal the
    character-by-character translate of the whole text."""
    text = "".join(chars) * repeat
    text = (text * (normalize.FAST_FOLD_FROM // max(1, len(text)) + 1)) if text else text
    table = normalize._tables()[0]
    assert normalize.fold_text(text) == text.translate(table)
    assert normalize.fold(text).text == normalize.fold_text(text)


LINES = st.lists(st.text(alphabet=st.sampled_from(list("你的智商逻辑发言真差菜蠢脑子水平就这也配我这种人，。？ab")),
                         min_size=0, max_size=30), min_size=0, max_size=40)


@settings(max_examples=40, deadline=None)
@given(LINES)
def test_batched_model_bound_agrees_with_scoring_each(texts: list[str]) -> None:
    """The batch bound is a shortcut: every text it passes over the threshold, and only those,
    must score over it on its own."""
    model = load_model()
    assert model is not None
    folded = [normalize.fold_text(t) for t in texts]
    want = [model.score(t) > model.threshold for t in folded]
    assert model.over_threshold_many(folded) == want
    assert model.over_threshold_many(folded * 20) == want * 20  # past SMALL_BATCH: the automaton path
