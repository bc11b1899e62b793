"""A vote written in free words is an invalid ballot the director sees, never silently talk."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from gamedef.ruleset import load_ruleset
from parsers.ballot import parse_ballot
from parsers.models import Post

PLAYERS = ("饺子", "包子", "霜降")


def _post(text: str, author: str = "饺子") -> Post:
    return Post(tid=1, pid=9, floor=3, author=author, uid=None, posted_at=datetime(2026, 12, 1, tzinfo=timezone.utc),
                time_precision="second", message_html=text, text=text)


@pytest.mark.parametrize("preset", ["m84", "004"])
@pytest.mark.parametrize("text,kind,written", [
    ("我投霜降，理由是他昨晚一直在划水", "vote", "霜降"),
    ("投包子", "vote", "包子"),
    ("改投包子 因为他跳了", "change", "包子"),
    ("我的票投给霜降", "vote", "霜降"),
])
def test_free_form_vote_is_bad_format(preset: str, text: str, kind: str, written: str) -> None:
    b = parse_ballot(_post(text), load_ruleset(preset).vote, PLAYERS, ())
    assert b is not None and b.kind == kind and b.written_target == written and b.target is None
    assert [p.code for p in b.problems] == ["bad_format"]


@pytest.mark.parametrize("text", ["大家都投饺子吧", "投饺子吗？", "大家记得按格式投票，别投错了。", "我投了，你们呢"])
def test_talk_is_not_a_ballot(text: str) -> None:
    assert parse_ballot(_post(text), load_ruleset("m84").vote, PLAYERS, ()) is None


def test_spectator_free_words_are_ignored() -> None:
    assert parse_ballot(_post("投包子", author="路人"), load_ruleset("m84").vote, PLAYERS, ()) is None
