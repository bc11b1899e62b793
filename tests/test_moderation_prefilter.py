"""The Hyperscan fast path (moderation/prefilter.py) must find exactly what the pure-Python
path finds: every pattern's superset holds every line the pattern matches, the literal
database gives the Aho-Corasick automaton's matches in its order, and a checker without
Hyperscan flags a varied sample the same. Its databases live in the start-up cache: read
back on the next start, rebuilt when the file is corrupt."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from moderation import prefilter
from moderation.checker import Checker, _Engine
from moderation.loader import load_lexicon
from moderation.prefilter import Literals, Prefilter, superset

pytestmark = pytest.mark.skipif(prefilter._hs is None, reason="hyperscan has no wheel for this platform")

LEX = load_lexicon()
PATTERNS = [(p.source, p.regex.flags) for lx in LEX.categories.values() for p in (*lx.patterns, *lx.raw_patterns)]
SENTENCES = [s for lx in LEX.categories.values() for s in (*lx.examples, *lx.clean)]
NOISE = ["，", "。", "\n", " ", "、", "\u200b", "😂", "2", "（", "）", "/", ":", "……", "𝐬𝐛", "ＳＢ", "傻傻", "=", "12:30:05"]


def _varied(n: int, seed: int) -> list[str]:
    """Posts mixing the lexicon's own examples and clean sentences with separators, astral
    characters, full-width letters and line breaks (a post of several lines, too)."""
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        parts = rnd.sample(SENTENCES, rnd.randint(1, 4))
        out.append("".join(p + rnd.choice(NOISE) for p in parts))
    return out


def _json(flags) -> list[dict]:
    return [f.to_json() for f in flags]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("DAOYAN_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_every_lexicon_pattern_translates():
    """None of the shipped patterns needs to be verified on every line."""
    assert [src for src, fl in PATTERNS if superset(src, fl) is None] == []


@pytest.mark.parametrize("source", [r"(?s)a.b", r"(a)?(?(1)b|c)", r"x|", r"(?=a)"])
def test_what_cannot_be_translated_is_verified_everywhere(source):
    assert superset(source, re.M) is None
    pf = Prefilter([(r"你妈", re.M), (source, re.M)], "test-always")
    pf.scan("你妈")
    assert pf.always == {1}


def test_supersets_see_every_line_a_pattern_matches():
    """A line the Python regex matches (non-empty, searched within the line as the checker
    does) is always among the lines Hyperscan reports for it."""
    pf = Prefilter(PATTERNS, "test-superset")
    text = "\n".join(_varied(600, 3) + SENTENCES)
    seen = pf.scan(text)
    compiled = [re.compile(src, fl) for src, fl in PATTERNS]
    pos = 0
    for k, line in enumerate(text.split("\n")):
        for i, rx in enumerate(compiled):
            m = rx.search(text, pos, pos + len(line))
            if m is not None and m.end() > m.start():
                assert i in seen.get(k, ()) or i in pf.always, (PATTERNS[i][0], line)
        pos += len(line) + 1


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="树洞系统消息2024-01-05 12:30:05(（123456）)qq记录：:m84那场第三期get1/3=媳妇\n𝟏", max_size=60))
def test_supersets_on_generated_raw_lines(text):
    pf = _RAW
    seen = pf.scan(text)
    pos = 0
    for k, line in enumerate(text.split("\n")):
        for i, (src, fl) in enumerate(pf.patterns):
            m = re.compile(src, fl).search(text, pos, pos + len(line))
            if m is not None and m.end() > m.start():
                assert i in seen.get(k, ()), (src, line)
        pos += len(line) + 1


_RAW = Prefilter([(p.source, p.regex.flags) for lx in LEX.categories.values() for p in lx.raw_patterns], "test-raw")


def test_literal_database_equals_the_automaton():
    import ahocorasick_rs

    keys = sorted({e[0] for e in LEX.entries()})[:20000] + ["a", "ab", "b", "\U0001d41a", "ÿ", "Ā"]
    ac = ahocorasick_rs.AhoCorasick(keys, implementation=ahocorasick_rs.Implementation.ContiguousNFA)
    lit = Literals(keys, "test-keys")
    assert lit._db is not None
    for text in _varied(300, 5) + ["abab\U0001d41aÿĀ\x00ab", "ĀĀÿÿ", ""]:
        assert lit.find(text) == ac.find_matches_as_indexes(text, overlapping=True), text


def test_without_hyperscan_the_same_flags(monkeypatch):
    """The pure-Python path (no Hyperscan: Aho-Corasick, per-set unions, every raw pattern on
    its prefilter's lines) and the Hyperscan path flag a varied sample identically, in batch
    and post by post, with links forbidden (one more raw pattern) and not."""
    posts = _varied(400, 11) + ["卧\u200b槽", "𝐬𝐛\n\n傻 逼", ""]
    fast = Checker()
    fast.engine = _Engine(LEX)
    got_fast = [_json(f) for f in fast.check_texts(posts)]
    assert [_json(fast.check_text(p)) for p in posts[:80]] == got_fast[:80]
    assert fast.engine.automaton._db is not None and fast.engine.prefilter._db is not None
    assert not [k for k in fast.engine._unions]  # Hyperscan answered: no union compiled
    monkeypatch.setattr(prefilter, "_hs", None)
    slow = Checker()
    slow.engine = _Engine(LEX)
    assert slow.engine.automaton._db is None and slow.engine.prefilter.scan("x") is None
    assert got_fast == [_json(f) for f in slow.check_texts(posts)]
    assert sum(map(bool, got_fast)) > 100  # the sample does raise flags


def test_raw_patterns_with_links_forbidden(monkeypatch):
    class Evidence:
        links_forbidden, attachments_forbidden = True, False

    class Moderation:
        evidence = Evidence()

    class Ruleset:
        moderation = Moderation()
        whistle = None

        def rule_for(self, category):
            return category

        def suggested_card(self, category):
            return "blue"

    posts = _varied(200, 13) + ["看这个 https://x.cn/a 就是证据", "2024-01-05 12:30:05 管理员：\n树洞 2024年1月5日"]
    fast = Checker(Ruleset())
    got = [_json(f) for f in fast.check_texts(posts)]
    assert fast._raw_filter.scan("x") is not None
    monkeypatch.setattr(prefilter, "_hs", None)
    slow = Checker(Ruleset())
    assert slow._raw_filter.scan("x") is None
    assert got == [_json(f) for f in slow.check_texts(posts)]
    assert any(f["category"] == "evidence" for fs in got for f in fs)


def test_databases_are_read_back_from_the_cache(folder: Path, monkeypatch):
    pats = PATTERNS[:20]
    first = Prefilter(pats, "patterns")
    want = first.scan("\n".join(SENTENCES))
    assert any(p.name.startswith("hs-patterns-") for p in folder.iterdir())

    def no_build(*_):
        raise AssertionError("compiled again")

    monkeypatch.setattr(prefilter, "_build", no_build)
    monkeypatch.setattr(prefilter, "_build_literals", no_build)
    assert Prefilter(pats, "patterns").scan("\n".join(SENTENCES)) == want
    monkeypatch.undo()
    Literals(["傻逼", "卧槽"], "keys")
    monkeypatch.setattr(prefilter, "_build_literals", no_build)
    assert Literals(["傻逼", "卧槽"], "keys").find("卧槽傻逼") == [(1, 0, 2), (0, 2, 4)]


@pytest.mark.parametrize("damage", ["garbage", "bad database"])
def test_a_corrupt_cache_is_rebuilt(folder: Path, damage: str):
    import marshal

    pats = PATTERNS[:20]
    want = Prefilter(pats, "patterns").scan("\n".join(SENTENCES))
    want_lit = Literals(["傻逼", "卧槽"], "keys").find("卧槽傻逼")
    for p in folder.iterdir():
        if p.name.startswith("hs-"):
            if damage == "garbage":
                p.write_bytes(b"\x00not marshal")
            else:  # the right key, but a database no Hyperscan can read
                key, value = marshal.loads(p.read_bytes())
                bad = (value[0][:40] if value[0] else b"", *value[1:]) if isinstance(value, tuple) else value[:40]
                p.write_bytes(marshal.dumps((key, bad)))
    assert Prefilter(pats, "patterns").scan("\n".join(SENTENCES)) == want
    assert Literals(["傻逼", "卧槽"], "keys").find("卧槽傻逼") == want_lit


def test_lint_output_is_the_same_without_hyperscan(monkeypatch):
    """`daoyan lint`'s records through both paths (the batch API the command uses)."""
    from gamedef.ruleset import load_ruleset
    from moderation import checker

    records = [{"id": i, "text": t} for i, t in enumerate(_varied(150, 17))]
    for name in ("m84", "004"):
        rs = load_ruleset(name)
        monkeypatch.setattr(checker, "_CHECKERS", {})
        fast = json.dumps(checker.lint_records(records, rs), ensure_ascii=False)
        monkeypatch.setattr(prefilter, "_hs", None)
        monkeypatch.setattr(checker, "_CHECKERS", {})
        checker._engine.cache_clear()
        slow = json.dumps(checker.lint_records(records, rs), ensure_ascii=False)
        monkeypatch.undo()
        checker._engine.cache_clear()
        assert fast == slow


def test_the_shipped_vetoes_compile():
    """Category vetoes (`unless`) are compiled on first use; a typo must still fail a test."""
    for lx in LEX.categories.values():
        if lx.unless is not None:
            re.compile(lx.unless.pattern, lx.unless.flags)
        for p in (*lx.patterns, *lx.raw_patterns):
            if p.unless is not None:
                re.compile(p.unless.pattern, p.unless.flags)


def test_caseless_patterns_are_prefiltered_with_pythons_case_folding():
    """A link is evidence however it is cased (a ruleset forbidding links forbids HTTP:// too):
    under IGNORECASE the superset holds every character `re` matches, ſ for s and K for k too."""
    link = r"https?://[^\s<>\"'，。]+k"
    assert superset(link, re.I) is not None
    pf = Prefilter([(link, re.I)], "test-caseless")
    lines = ["HTTPS://A.CN/K", "httpſ://a.cn/\u212a", "Http://x", "没有链接 https:/ /x k"]
    seen = pf.scan("\n".join(lines))
    matched = {k for k, line in enumerate(lines) if re.search(link, line, re.I)}
    assert matched == {0, 1}
    assert matched <= set(seen) and pf.always == frozenset()


def test_a_lexicon_of_terms_only_and_one_of_patterns_only(tmp_path):
    """The keys that only feed patterns are a database of their own: a lexicon with no pattern
    (so no such keys), or with no term, is read the same way."""
    from moderation.loader import load_lexicon

    terms, patterns = tmp_path / "terms", tmp_path / "patterns"
    terms.mkdir(), patterns.mkdir()
    (terms / "insult.toml").write_text('terms = ["蠢货"]\n', "utf-8")
    (patterns / "oath.toml").write_text('anchors = ["发誓"]\npatterns = ["我发誓.{0,4}是好人"]\n', "utf-8")
    only_terms, only_patterns = Checker(lexicon=load_lexicon(terms)), Checker(lexicon=load_lexicon(patterns))
    assert only_terms.engine.pattern_automaton is None
    assert [f.category for f in only_terms.check_texts(["你这蠢货", "我发誓我是好人"])[0]] == ["insult"]
    got = only_patterns.check_texts(["你这蠢货", "我发誓我是好人", "发誓"])
    assert [[f.category for f in fs] for fs in got] == [[], ["oath"], []]
