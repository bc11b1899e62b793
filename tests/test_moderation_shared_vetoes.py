"""Vetoes kept once in lexicon/reporting.toml and named by the categories that take them.

Rule sentences the cases rest on:
- M84 2(1)–(5) name what a player must not say (脏话, 骂人, 诅咒): a report to the director of
  what someone else said repeats the other player's words, it is not the poster saying them.
- M84 4(5)/(6) ban asking for a substitute or a helper (替补, 场外助理); naming that rule
  (替补和场助规则里都禁止) is not asking.
"""
from __future__ import annotations

import pytest

from moderation.loader import load_lexicon

from .lexicon_cases import cats

# (category, the words said, the same words reported without quotation marks)
REPORTED = [
    ("vulgar_body", "楼上鸡巴", "举报楼上骂人说鸡巴"),
    ("vulgar_verb", "我操你", "举报他说我操"),
    ("insult", "你是个傻逼", "举报3楼说我是个傻逼"),
    ("insult_kin", "你妈死了", "举报5楼骂我你妈死了"),
    ("insult_animal", "你个狗东西", "举报有人骂我狗东西"),
    ("curse", "你出门被车撞", "举报他说我出门被车撞"),
]


@pytest.mark.parametrize("cat,said,reported", REPORTED)
def test_unquoted_report_vetoes_the_reported_words(cat: str, said: str, reported: str) -> None:
    assert cat in cats(said)
    assert cat not in cats(reported)


@pytest.mark.parametrize("cat", ["assistant", "substitute"])
def test_naming_the_rule_on_substitutes_and_helpers_is_not_asking(cat: str) -> None:
    assert "substitute" in cats("我找个替补来")
    assert cat not in cats("替补和场助规则里都禁止，大家别提")


def test_every_category_naming_a_shared_veto_gets_it() -> None:
    lx = load_lexicon()
    for cat, _, reported in REPORTED:
        assert lx.categories[cat].unless.search(reported), cat


def test_an_unknown_shared_veto_is_named_in_the_error(tmp_path) -> None:
    (tmp_path / "reporting.toml").write_text("[vetoes]\nunquoted_report = '举报'\n", "utf-8")
    (tmp_path / "insult.toml").write_text("terms = ['傻逼']\nshared_unless = ['no_such']\n", "utf-8")
    with pytest.raises(ValueError, match="insult.toml.*no_such"):
        load_lexicon(tmp_path)


def test_a_category_without_its_own_unless_takes_the_shared_one(tmp_path) -> None:
    (tmp_path / "reporting.toml").write_text("[vetoes]\nunquoted_report = '举报'\n", "utf-8")
    (tmp_path / "insult.toml").write_text("terms = ['傻逼']\nshared_unless = ['unquoted_report']\n", "utf-8")
    lx = load_lexicon(tmp_path)
    assert lx.categories["insult"].unless.search("我要举报")
