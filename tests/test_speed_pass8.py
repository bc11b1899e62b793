"""The eighth speed pass: `Prefilter`'s supersets leave out the wide runs and the parts that may
match nothing at either end of a pattern (`superset(..., trim=True)`). `Prefilter` only asks on
which line a match ends, and every match of a pattern within a line holds a match of what is
left, ending on the same line: these tests hold the trimmed database to that (every line `re`
matches is reported), on the lexicon's own patterns and on generated ones.
"""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moderation import prefilter

pytestmark = pytest.mark.skipif(prefilter._hs is None or prefilter._p is None,
                                reason="hyperscan has no wheel for this platform")
hs = prefilter._hs


def _reported_lines(expr: str, text: str) -> set[int]:
    db = hs.Database(mode=hs.HS_MODE_BLOCK)
    db.compile(expressions=[expr.encode()], ids=[0], elements=1, flags=hs.HS_FLAG_UTF8)
    data = text.encode()
    breaks = prefilter._newlines(data)
    out: set[int] = set()

    def on_match(_i: int, _from: int, to: int, _flags: int, _ctx: object) -> None:
        out.add(sum(1 for b in breaks if b < to))

    db.scan(data, match_event_handler=on_match)
    return out


def _matched_lines(pattern: str, flags: int, text: str) -> set[int]:
    """The lines `re` finds the pattern on, searched as the checker searches (within the line)."""
    rx = re.compile(pattern, flags)
    out = set()
    pos = 0
    for k, line in enumerate(text.split("\n")):
        m = rx.search(text, pos, pos + len(line))
        if m is not None and m.end() > m.start():
            out.add(k)
        pos += len(line) + 1
    return out


def test_the_ends_are_trimmed() -> None:
    assert prefilter.superset(r"[^\s:：,，。]{1,16}\s?[(（]\d{5,12}[)）]", trim=True).startswith("[\\x{28}\\x{ff08}]")
    assert prefilter.superset(r"(?:^|\s)[^，。]{1,4}判罚[^。]{0,3}", trim=True) == "判罚"
    inner = prefilter.superset(r"(我|本人)[^。]{0,4}(刀法|查验)[^。\n]{0,6}", trim=True)
    assert inner.startswith("(?:我|本人)(?:[") and inner.endswith("{0,}(?:刀法|查验)")  # groups at the ends opened
    # nothing of positive width left: the pattern is kept whole
    assert prefilter.superset(r"[^。]{2,4}", trim=True) == prefilter.superset(r"[^。]{2,4}")
    # a group with flags of its own is not opened
    assert prefilter.superset("(?i:ab)c", trim=True) == prefilter.superset("(?i:ab)c")


def test_the_lexicon_patterns_trimmed_find_every_line() -> None:
    """Every pattern of the shipped lexicon (and every raw pattern), trimmed, reports each line of
    a mixed text on which `re` finds it."""
    from moderation.checker import _engine

    eng = _engine()
    patterns = [(p.source, p.regex.flags) for ps in eng.patterns.values() for p in ps]
    patterns += [(p.source, p.regex.flags) for p in eng.raw]
    lines = ["我这人查验风格你们懂的", "（12345678）群里 2024-01-02 12:30 私聊记录：", "希望刀我的人全家",
             "这张黄牌我不服，导演的决定太离谱", "你们几个 垃圾", "m12 那局的我", "看这 https://x.cn/a",
             "今天 12:30 反馈：3号 是狼", "我的马甲是3号", "abc (2/3) 老婆认出了", ""]
    text = "\n".join(lines)
    checked = 0
    for src, fl in patterns:
        trimmed = prefilter.superset(src, fl, trim=True)
        if trimmed is None:
            continue
        try:
            got = _reported_lines(trimmed, text)
        except hs.error:
            continue  # too large as one expression: `_build` holds it by its alternatives
        assert _matched_lines(src, fl, text) <= got, src
        checked += 1
    assert checked > 500


ALPHABET = st.sampled_from(list("我你判罚导演不服离谱牌ab1２ ，。、:（）()\n") + ["判罚", "导演"])
PIECES = st.sampled_from([
    "判罚", "(?:导演|不服)", "[^，。\\n]{0,4}", "[^。]{1,3}?", "\\s*", "\\s+", "(?:^|\\s)", "(?<!我)", "(?=牌)",
    "\\d{1,3}", "[(（]", "(?:离谱)?", "(?:我[^。]{0,2}牌)", "[a-z]+", ".{0,2}", "(?:你|我)", "\\b",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, min_size=1, max_size=6), st.lists(ALPHABET, max_size=40))
def test_a_trimmed_superset_reports_every_line_re_matches(pieces: list[str], chars: list[str]) -> None:
    src = "".join(pieces)
    trimmed = prefilter.superset(src, trim=True)
    if trimmed is None:
        return  # no superset: `Prefilter` verifies the pattern on every line
    text = "".join(chars)
    assert _matched_lines(src, 0, text) <= _reported_lines(trimmed, text)


def test_lint_pauses_the_collector_and_collects_every_few_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """`daoyan lint` keeps the cyclic collector paused over its stream, runs a full pass every
    COLLECT_EVERY chunks, gives the same lines whatever that period, and leaves the collector
    as it found it."""
    import gc
    import json

    from click.testing import CliRunner

    from daoyan.cli import cli
    from daoyan.commands import lint as lint_command

    texts = ["卧槽，今天又平票", "导演辛苦了", "这张黄牌我不服", "早上好"] * 300
    stdin = "".join(json.dumps({"id": i, "text": t}, ensure_ascii=False) + "\n" for i, t in enumerate(texts))
    passes: list[bool] = []
    real_collect = gc.collect

    def collect(*args: object) -> int:
        passes.append(gc.isenabled())
        return real_collect(*args)

    assert gc.isenabled()
    plain = CliRunner().invoke(cli, ["lint", "--ruleset", "m84"], input=stdin)
    assert plain.exit_code == 0, plain.output
    assert gc.isenabled()
    from daoyan import linting

    monkeypatch.setattr(linting, "CHUNK_POSTS", 512)
    monkeypatch.setattr(lint_command, "COLLECT_EVERY", 1)
    monkeypatch.setattr(lint_command.gc, "collect", collect)
    every = CliRunner().invoke(cli, ["lint", "--ruleset", "m84"], input=stdin)
    assert every.exit_code == 0, every.output
    assert every.output == plain.output and len(every.output.splitlines()) == len(texts)
    assert len(passes) >= 2 and not any(passes)  # one a chunk (512 lines), the collector paused meanwhile
    assert gc.isenabled()
