"""Slot constructions of the lexicon (loader.construction): word classes, regex slots, raw
constructions, and a pattern source that is the same in every process (the start-up cache is
keyed on it: a source that varied with string hashing rebuilt the engine on every run)."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from moderation.loader import construction, parse_category


def test_a_word_class_fills_a_slot_and_its_words_anchor():
    item = {"slots": ["@who", ["说", "讲"]], "window": 3}
    pat, anchors = construction(item, "t", {"who": ["导演", "法官"]})
    assert re.search(pat["re"], "法官刚才说了") and not re.search(pat["re"], "主持人刚才说了")
    assert anchors == ["导演", "法官"]


def test_a_regex_class_matches_but_gives_no_anchor():
    item = {"slots": ["@pot", ["我背"]], "window": 2}
    pat, anchors = construction(item, "t", {"pot": {"re": "锅(?!贴)"}})
    assert re.search(pat["re"], "这锅我背") and not re.search(pat["re"], "锅贴我背")
    assert anchors == []


def test_a_pronoun_first_slot_can_leave_the_anchors_to_another_slot():
    """你/他 as anchors would run the category's patterns on nearly every line; `anchor_slot`
    takes the anchors from the slot whose words are rare (004 违规判定 2(1): 嘲讽或贬低玩家的智商)."""
    item = {"slots": [["你", "他"], ["没带脑子", "脑子进水"]], "window": 6, "anchor_slot": 1}
    pat, anchors = construction(item, "t", {})
    assert re.search(pat["re"], "他今天是不是没带脑子") and not re.search(pat["re"], "今天没带脑子")
    assert anchors == ["没带脑子", "脑子进水"]
    with pytest.raises(ValueError, match="anchor_slot"):
        construction({**item, "anchor_slot": 2}, "t", {})


def test_an_unknown_class_is_reported():
    with pytest.raises(ValueError, match="no word class"):
        construction({"slots": ["@nope", ["x"]]}, "t", {})


def test_a_raw_construction_goes_to_the_raw_patterns():
    lx = parse_category("evidence", {
        "raw_prefilter": r"\d", "classes": {"clock": {"re": r"\d{1,2}:\d{2}"}},
        "constructions": [{"slots": ["@clock", {"re": r"\s*\S{1,6}:"}], "window": 0, "raw": True}]}, "t")
    assert not lx.patterns and len(lx.raw_patterns) == 1
    assert lx.raw_patterns[0].regex.search("21:15 包子: 我是狼")
    assert not lx.raw_patterns[0].regex.search("今天21:00关门")


def test_the_lexicon_digest_is_the_same_in_every_process():
    code = "from moderation.loader import load_lexicon; from moderation.checker import _lexicon_digest; " \
           "print(_lexicon_digest(load_lexicon()))"
    got = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(got) == 1
