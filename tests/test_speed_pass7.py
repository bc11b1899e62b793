"""The seventh speed pass's shortcuts against their plain forms (property tests):
- a single code point in a Hyperscan superset is written as itself, not as a one-member class;
- a pattern Hyperscan refuses as too large is held by its top-level alternatives, each its own
  expression under the pattern's id, and those still find every line the pattern matches on.
"""
from __future__ import annotations

import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from moderation import prefilter

pytestmark = pytest.mark.skipif(prefilter._hs is None, reason="hyperscan has no wheel for this platform")
hs = prefilter._hs


def _lines_matched(exprs: list[str], ids: list[int], text: str) -> set[tuple[int, int]]:
    """(id, line index) of every report of the expressions over text (UTF-8 mode)."""
    db = hs.Database(mode=hs.HS_MODE_BLOCK)
    db.compile(expressions=[e.encode() for e in exprs], ids=list(range(len(exprs))), elements=len(exprs),
               flags=hs.HS_FLAG_UTF8)
    data = text.encode()
    breaks = prefilter._newlines(data)
    out: set[tuple[int, int]] = set()

    def on_match(i: int, _from: int, to: int, _flags: int, _ctx: object) -> None:
        out.add((ids[i], sum(1 for b in breaks if b < to)))

    db.scan(data, match_event_handler=on_match)
    return out


CODE_POINTS = st.one_of(
    st.integers(min_value=1, max_value=0x7F),
    st.integers(min_value=0x80, max_value=0xD7FF),
    st.integers(min_value=0xE000, max_value=0x10FFFF),
    st.sampled_from([ord(c) for c in "你的导演判罚.*+?()[]{}|\\^$-# \t"]),
)


@settings(max_examples=150, deadline=None)
@given(CODE_POINTS, st.lists(CODE_POINTS, max_size=20))
def test_a_code_point_as_itself_matches_as_its_class(cp: int, around: list[int]) -> None:
    """`_class` of one code point (the fast spelling) reports exactly where the plain one-member
    class `[\\x{..}]` does."""
    fast = prefilter._class([(cp, cp)])
    plain = f"[\\x{{{cp:x}}}]"
    text = "".join(map(chr, around[: len(around) // 2])) + chr(cp) + "".join(map(chr, around[len(around) // 2:]))
    text = text.replace("\x00", "")
    for t in (text, text.replace(chr(cp), "x"), f"{text}\n{text}"):
        assert _lines_matched([fast], [0], t) == _lines_matched([plain], [0], t)


WORDS = st.lists(st.text(alphabet=st.sampled_from(list("判罚导演不服离谱这张牌ab")), min_size=1, max_size=4),
                 min_size=1, max_size=6)


@settings(max_examples=80, deadline=None)
@given(WORDS, WORDS, st.integers(min_value=0, max_value=4),
       st.lists(st.text(alphabet=st.sampled_from(list("判罚导演不服离谱这张牌ab，。\n")), max_size=30), max_size=8))
def test_alternatives_find_every_line_the_pattern_matches(a: list[str], b: list[str], window: int,
                                                           lines: list[str]) -> None:
    """An any-order construction `A[^。\\n]{0,w}?B|B[^。\\n]{0,w}?A`: its top-level alternatives'
    supersets, together, report on every line where `re` finds the pattern (and the whole
    pattern's superset agrees with them line for line where it compiles)."""
    ga = "(?:" + "|".join(map(re.escape, a)) + ")"
    gb = "(?:" + "|".join(map(re.escape, b)) + ")"
    src = f"{ga}[^。\\n]{{0,{window}}}?{gb}|{gb}[^。\\n]{{0,{window}}}?{ga}"
    branches = prefilter.superset_branches(src)
    assume(branches is not None)  # re's parser takes a prefix the alternatives share out of them
    assert branches is not None and len(branches) == 2
    text = "\n".join(lines)
    rx = re.compile(src)
    want = {(0, k) for k, line in enumerate(text.split("\n")) if rx.search(line)}
    got = _lines_matched(branches, [0, 0], text)
    assert want <= got
    whole = prefilter.superset(src)
    assert whole is not None
    assert _lines_matched([whole], [0], text) == got


def test_a_pattern_too_large_for_hyperscan_is_held_by_its_alternatives() -> None:
    """`_build` keeps such a pattern (no longer verified on every line) under its own id."""
    words = [f"判罚{chr(0x4E00 + i)}{chr(0x4F00 + i)}" for i in range(700)]
    big = "(?:" + "|".join(words) + ")"
    src = f"{big}[^。\\n]{{0,8}}?不服|不服[^。\\n]{{0,8}}?{big}"
    with pytest.raises(hs.error):
        prefilter._compile([prefilter.superset(src)], hs.HS_FLAG_UTF8)
    data, ids, always = prefilter._build([("离谱", 0), (src, 0)])
    assert data is not None
    assert always == []
    assert sorted(set(ids)) == [0, 1] and ids.count(1) == 2
    f = prefilter.Prefilter([("离谱", 0), (src, 0)], "test-pass7")
    f._ready = True
    f._db = hs.loadb(data, hs.HS_MODE_BLOCK)
    f._scratch = hs.Scratch(f._db)
    f._ids, f.always = ids, frozenset(always)
    w = words[0]
    got = f.scan(f"你好\n这个{w}我不服\n不服，{w}\n离谱\n{w}。不服")
    assert got == {1: {1}, 2: {1}, 3: {0}}


# folded-view text: hanzi (some doubled), Latin letters, gap characters of every kind, digits, newlines
DENSE_ALPHABET = st.sampled_from(list("傻逼妈的你他好导演ab，。、 !*~1２3😂\n") + ["傻傻", "aa", "，，", "他，他"])


@settings(max_examples=300, deadline=None)
@given(st.lists(DENSE_ALPHABET, max_size=40), st.data())
def test_dense_as_written_implies_nothing_skipped(pieces: list[str], data: st.DataObject) -> None:
    """`Dense.as_written` is a shortcut for the dense hits' first test (`span_to_folded`, then
    `clause_double_start`, then the same length): wherever it says yes, that test says so too,
    for every span of a line of the dense view."""
    from moderation import normalize

    folded = normalize.fold_text("".join(pieces))
    d = normalize.dense(folded)
    spans = []
    pos = 0
    for line in d.text.split("\n"):
        spans += [(pos + s, pos + e) for s in range(len(line)) for e in range(s + 1, min(len(line), s + 5) + 1)]
        pos += len(line) + 1
    if not spans:
        return
    for start, end in data.draw(st.lists(st.sampled_from(spans), max_size=20)):
        if d.as_written(start, end):
            fs, fe = d.span_to_folded(start, end)
            fs = normalize.clause_double_start(folded, fs, fe)
            assert fe - fs == end - start
            assert folded[fs:fe] == d.text[start:end]


def test_dense_as_written_on_plain_cases() -> None:
    from moderation import normalize

    d = normalize.dense("你是傻逼。他，好\n傻逼")
    assert d.text == "你是傻逼他好\n傻逼"
    assert d.as_written(2, 4)  # 傻逼 as written on the first line ...
    assert not d.as_written(4, 6)  # ... and 他，好 across a comma: the maps decide
    assert not normalize.dense("傻逼，傻逼。傻，逼").as_written(0, 2)  # as often written apart as together
    assert d.as_written(7, 9)
    assert not normalize.dense("傻傻逼").as_written(0, 2)  # a doubled character made single


ENTRIES = st.lists(st.one_of(st.tuples(st.sampled_from(["term", "word", "sound"]), st.text(max_size=3)),
                             st.frozensets(st.integers(0, 50), max_size=3), st.just(())), max_size=700)


@settings(max_examples=60, deadline=None)
@given(ENTRIES, st.lists(st.integers(min_value=-800, max_value=800), max_size=40))
def test_chunked_list_reads_as_the_list(values: list, picks: list[int]) -> None:
    """startup_cache.Chunked (the engine's per-key entries, each chunk read on first use) gives
    what the list gives: length, every index asked in any order (negative ones too), iteration."""
    import marshal

    from moderation.startup_cache import Chunked, chunked

    lazy = Chunked(marshal.loads(marshal.dumps(chunked(values))))  # as the cache gives it back
    assert len(lazy) == len(values)
    for i in picks:
        if -len(values) <= i < len(values):
            assert lazy[i] == values[i]
        else:
            with pytest.raises(IndexError):
                lazy[i]
    assert list(lazy) == values


def test_engine_tables_the_same_through_the_cache(tmp_path, monkeypatch) -> None:
    """The engine's tables read back from the start-up cache (chunked) equal those built."""
    from moderation import checker
    from moderation.loader import load_lexicon

    monkeypatch.setenv("DAOYAN_CACHE_DIR", str(tmp_path))
    lexicon = load_lexicon()
    split = checker.prefilter_hyperscan()
    built = checker._build_tables(lexicon, True, split)
    first = checker._tables(lexicon, True, split)  # built and stored
    again = checker._tables(lexicon, True, split)  # read back
    for t in (first, again):
        assert t.keys() == built.keys()
        for k, v in built.items():
            assert (list(t[k]) if k in checker._CHUNKED else t[k]) == v, k
