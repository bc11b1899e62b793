"""The ninth speed pass: `daoyan lint` checks large chunks (bounded in posts and in characters),
and a long line's dense hits are told apart without re-reading the line for each hit (a post
of 100,000 characters on one line took time growing with the square of its length)."""
from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from daoyan import linting
from gamedef.ruleset import load_ruleset
from moderation import normalize

_TEXTS = ["卧槽，今天又平票", "导演辛苦了", "这张黄牌我不服", "早上好", "傻 逼才投他", "", "我发誓他是狼"]


def _lines(picks: list[int]) -> list[str]:
    return [json.dumps({"id": i, "text": _TEXTS[p]}, ensure_ascii=False) for i, p in enumerate(picks)]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, len(_TEXTS) - 1), min_size=1, max_size=40),
       st.integers(1, 9), st.integers(1, 200))
def test_chunk_bounds_change_no_output_line(picks: list[int], posts: int, chars: int) -> None:
    rs = load_ruleset("m84")
    lines = _lines(picks)
    whole = list(linting.lint_lines(lines, rs))
    blocks = list(linting.lint_chunks(lines, rs, chunk=posts, chunk_chars=chars))
    assert [x for b in blocks for x in b] == whole
    assert all(1 <= len(b) <= posts for b in blocks)


def test_a_chunk_stops_at_its_character_bound() -> None:
    rs = load_ruleset("m84")
    lines = _lines([0] * 10)
    blocks = list(linting.lint_chunks(lines, rs, chunk_chars=2 * len(lines[0])))
    assert [len(b) for b in blocks] == [2] * 5
    assert len(list(linting.lint_chunks(lines, rs))) == 1  # well under CHUNK_POSTS and CHUNK_CHARS


def test_a_long_line_counts_each_word_once(monkeypatch) -> None:
    """Each (line, word) is counted once however often the word is hit on that line."""
    calls: list[str] = []
    real = normalize._occurrences

    def counting(text: str, word: str) -> int:
        calls.append(word)
        return real(text, word)

    monkeypatch.setattr(normalize, "_occurrences", counting)
    line = "他说，傻逼。" * 500
    d = normalize.dense(normalize.fold_text(line + "\n" + line))
    spans = [(i, i + 2) for i in range(len(d.text)) if d.text.startswith("傻逼", i)]
    assert len(spans) == 1000
    assert all(d.as_written(s, e) for s, e in spans)
    assert len(calls) == 4  # folded and dense, on each of the two lines
