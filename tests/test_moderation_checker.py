"""The speech checker on text: the lexicon's own examples, allow-list look-alikes, spans, the
dev set's targets and the genuine capture's speech flags."""
from __future__ import annotations


import pytest

from gamedef.ruleset import load_ruleset
from moderation.checker import Checker, get_checker, lint_record
from moderation.loader import load_lexicon

from .conftest import EVAL

M84 = load_ruleset("m84")
C004 = load_ruleset("004")
LEX = load_lexicon()


def cats(text: str, ruleset=M84, whistled: bool = False) -> set[str]:
    return {f.category for f in get_checker(ruleset).check_text(text, whistled=whistled)}


EXAMPLES = [(c, t) for c, lx in LEX.categories.items() for t in lx.examples]
CLEAN = [(c, t) for c, lx in LEX.categories.items() for t in lx.clean]


@pytest.mark.parametrize("category, text", EXAMPLES)
def test_lexicon_examples_fire(category, text):
    assert category in cats(text)


@pytest.mark.parametrize("category, text", CLEAN)
def test_lexicon_clean_examples_do_not_fire(category, text):
    assert category not in cats(text)


@pytest.mark.parametrize("text", [
    "马甲线练了三个月还没出来，先来看帖",
    "我是死灵魔术师，昨晚用猫头鹰的眼球看了馄饨",
    "鸡肉卷配可乐，边吃边看帖",
    "导演辛苦了",
    "这波操作我看不懂，女巫昨晚为什么不救？",
    "孙子兵法说知己知彼",
    "今天是日常报到，先说结论：投馄饨",
    "有啥比较好的办法吗",
    "是你吗，春卷？",
    "你妈妈喊你吃饭了",
    "狼已经出了一个了(1/3)，今天再抓一个",
    "get到你的点了，汤圆说得对",
    "投票结束后导演会公示结果，别着急",
])
def test_innocent_look_alikes_are_clean(text):
    assert cats(text) == set()


@pytest.mark.parametrize("text, category, evidence", [
    ("前面的话，臥*槽，这也行", "vulgar_body", "臥*槽"),
    ("好 你 妈 的，又是平票", "insult_kin", "你 妈 的"),
    ("预言家：ｓｂ吧", "insult", "ｓｂ"),
    ("卧卧卧槽槽槽，预言家又倒了", "vulgar_body", "卧卧卧槽槽槽"),
    ("饺子说：我对天发誓我是好人", "oath", "对天发誓"),
])
def test_span_points_at_the_original_words(text, category, evidence):
    f = next(f for f in get_checker(M84).check_text(text) if f.category == category)
    assert text[f.start:f.end] == f.evidence == evidence
    assert evidence in f.context


def test_flag_cites_the_rulesets_rule_and_card():
    f = get_checker(M84).check_text("我发誓我是好人")[0]
    assert (f.rule, f.suggested_card) == ("M84 违规判定 2(5)", "blue")
    g = get_checker(C004).check_text("我发誓我是好人")[0]
    assert g.rule == "004 违规判定 3(1)"
    j = f.to_json()
    assert {"category", "rule", "evidence", "context", "suggested_card", "span"} <= set(j)
    assert not {"pid", "floor", "author"} & set(j)


def test_whistled_record_reports_only_whistle_breach():
    out = lint_record({"id": "w", "text": "喵喵！卧槽，我是好人", "whistled": True}, M84)
    assert [f["category"] for f in out["flags"]] == ["whistle_breach"]
    assert lint_record({"id": "w2", "text": "喵喵喵～", "whistled": True}, M84)["flags"] == []


def test_links_are_evidence_only_where_the_ruleset_forbids_them():
    import dataclasses

    text = "http://bbs.example.com/thread-1234-1-1.html 你们自己看"
    assert "evidence" in cats(text, M84)
    assert "evidence" in cats(text, C004)
    mod = dataclasses.replace(M84.moderation, evidence=dataclasses.replace(M84.moderation.evidence, links_forbidden=False))
    lenient = dataclasses.replace(M84, name="lenient", moderation=mod)
    assert "evidence" not in cats(text, lenient)


def test_html_record_strips_quotes_and_reads_fonts():
    html = '<div class="quote"><blockquote>我发誓</blockquote></div>归票<br/><font color="#FF1010">包子</font>'
    out = lint_record({"id": "h", "html": html}, M84)
    assert [f["category"] for f in out["flags"]] == ["font"]
    assert out["id"] == "h"


def test_batch_scan_equals_one_by_one():
    texts = ["卧槽，昨晚死了两个？", "导演辛苦了", "我发誓我是好人", "取酒 21:15:03 反馈：村民阵营", "你 妈 的"]
    c = get_checker(M84)
    one = [[(f.category, f.start, f.end) for f in c.check_text(t)] for t in texts]
    many = [[(f.category, f.start, f.end) for f in fs] for fs in c.check_texts(texts)]
    assert one == many


def test_checker_without_ruleset_still_works():
    assert {f.category for f in Checker().check_text("卧槽")} == {"vulgar_body"}


def test_dev_set_meets_targets():
    path = EVAL / "moderation_dev.jsonl"
    if not path.is_file():
        pytest.skip("../shared/eval is not beside this checkout")
    from bench.moderation_eval import run

    _, _, s = run(path, "m84")
    assert s["post_p"] >= 0.90 and s["post_r"] >= 0.85
    assert s["cat_f1"] >= 0.80
    assert s["whistle_ok"] == s["whistle_n"]


SPEECH = {"font", "dead_post", "water"}


def test_genuine_capture_speech_flags(truth):
    """Every floor's speech categories (not the structure ones) as the ground truth says."""
    players = set(truth["game"]["players"])
    directors = set(truth["game"]["directors"])
    whistled_by_day = {int(d): {e["player"] for e in (v.get("events") or []) if e["kind"] == "whistled"}
                       for d, v in truth["game"]["days"].items()}
    checker = get_checker(M84)
    wrong = []
    for th in truth["threads"]:
        for fl in th["floors"]:
            if fl["hidden"] or fl["author"] in directors:
                continue
            whistled = fl["author"] in whistled_by_day.get(th["day"], set()) and fl["author"] in players
            got = {f.category for f in checker.check_text(fl["text"], whistled=whistled)}
            want = set(fl["flags"]) - SPEECH
            if got != want:
                wrong.append((th["tid"], fl["floor"], fl["text"], sorted(want), sorted(got)))
    assert wrong == []
