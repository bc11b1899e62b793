"""What the lexicon's case tables (test_moderation_round*.py and the like) share: the categories
the M84 checker raises on a text, and the two assertions every table makes."""
from __future__ import annotations

from gamedef.ruleset import load_ruleset
from moderation.checker import get_checker

M84 = load_ruleset("m84")


def cats(text: str, ruleset=M84, whistled: bool = False) -> set[str]:
    return {f.category for f in get_checker(ruleset).check_text(text, whistled=whistled)}


def assert_fires(category: str, text: str) -> None:
    got = cats(text)
    assert category in got, (text, got)


def assert_clean(text: str) -> None:
    got = cats(text)
    assert got == set(), (text, got)
