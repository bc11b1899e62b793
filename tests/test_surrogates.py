"""A lone surrogate in a forum's JSON answer becomes U+FFFD, one character for one."""
from __future__ import annotations

from hypothesis import given, strategies as st

from parsers.discuz import load_api_json
from parsers.surrogates import replace_lone_surrogates


def test_api_answer_with_lone_surrogates_is_storable_text() -> None:
    doc = load_api_json('{"Variables": {"postlist": [{"message": "a\\ud800b\\ud83d\\ude00", "\\udc00": 1}]}}')
    post = doc["Variables"]["postlist"][0]
    assert post["message"] == "a\ufffdb\U0001f600"
    assert "\ufffd" in post
    post["message"].encode("utf-8")


@given(st.text(alphabet=st.characters(min_codepoint=0xD000, max_codepoint=0xE0FF, exclude_categories=())))
def test_length_is_kept_and_the_result_always_encodes(s: str) -> None:
    out = replace_lone_surrogates(s)
    assert len(out) == len(s)
    out.encode("utf-8")
    assert all(a == b for a, b in zip(s, out) if not 0xD800 <= ord(a) <= 0xDFFF)
