"""Structure checks: red and enlarged fonts, 黑哨, 诈尸, links and attachments, water, directors."""
from __future__ import annotations

import dataclasses

import pytest

from gamedef.ruleset import load_ruleset
from moderation.checker import get_checker
from moderation.structure import is_enlarged, is_red, parse_color, red_distance, size_px, whistle_offenders
from parsers.models import Post

M84 = load_ruleset("m84")
C004 = load_ruleset("004")


@pytest.mark.parametrize("value, red", [
    ("#FF0000", True), ("#FF1010", True), ("#f00", True), ("Red", True), ("red", True),
    ("darkred", False), ("sienna", False), ("firebrick", True), ("crimson", True), ("rgb(250, 10, 10)", True), ("color: #EE1111", True),
    ("Blue", False), ("#999999", False), ("tomato", False), ("#FF8080", False), ("green", False),
    ("nonsense", False),
])
def test_red_by_distance(value, red):
    assert is_red(value, M84.moderation.font.red_distance) is red


def test_distance_is_euclidean_rgb():
    assert red_distance((255, 0, 0)) == 0
    assert round(red_distance(parse_color("#FF1010")), 1) == 22.6


@pytest.mark.parametrize("value, enlarged", [
    ("6", True), ("4", True), ("5", True), ("3", False), ("2", False), ("+2", True),
    ("20px", True), ("16px", False), ("14pt", True), ("10pt", False), ("2em", True), ("font-size: 12px", False),
])
def test_enlarged(value, enlarged):
    assert is_enlarged(value, M84.moderation.font.max_size) is enlarged


def test_size_px_of_discuz_sizes():
    assert [size_px(str(n)) for n in range(1, 8)] == [10, 13, 16, 18, 24, 32, 48]


@pytest.mark.parametrize("text, offenders", [
    ("喵喵喵！汪？", ""), ("哈哈哈哈哈", ""), ("嗷呜！！", ""), ("咩 咩 咩", ""), ("喵喵喵～", ""), ("呜呜呜……", ""),
    ("嘻嘻嘻", "嘻"), ("汪汪 我投饺子", "我投饺子"), ("咕咕咕 1", "1"), ("汪汪 ok", "ok"), ("呵呵", "呵"),
    ("喵{:1_23:}喵", ""),
])
def test_whistle_offenders(text, offenders):
    got = "".join(dict.fromkeys(c for _, c in whistle_offenders(text, M84.whistle.sounds)))
    assert got == offenders


def post(text="普通发言", **kw) -> Post:
    base = dict(tid=3, pid=100, floor=7, author="馄饨", uid=None, posted_at=None, time_precision="second",
                message_html="", text=text)
    base.update(kw)
    return Post(**base)


def cats(p: Post, ruleset=M84, **kw) -> list[str]:
    return [f.category for f in get_checker(ruleset).check_post(p, ruleset, **kw)]


def test_red_font_post_is_flagged_with_its_place():
    flags = get_checker(M84).check_post(post(colors=["#FF1010"]), M84)
    assert [f.category for f in flags] == ["font"]
    f = flags[0]
    assert (f.pid, f.floor, f.author, f.rule) == (100, 7, "馄饨", "M84 违规判定 6(1)")
    assert f.to_json()["pid"] == 100


@pytest.mark.parametrize("kw, expected", [
    (dict(colors=["Blue"]), []),
    (dict(sizes=["6"]), ["font"]),
    (dict(sizes=["2"]), []),
    (dict(colors=["Red"], sizes=["4"]), ["font", "font"]),
])
def test_font_cases(kw, expected):
    assert cats(post(**kw)) == expected


def test_directors_are_never_flagged():
    assert cats(post("我发誓", colors=["Red"], sizes=["6"]), is_director=True) == []


def test_dead_post():
    assert cats(post("我还想说两句，馄饨是好人"), dead=True) == ["dead_post"]


def test_hidden_post_gets_no_text_flags():
    assert cats(post("我发誓", hidden=True)) == []


def test_whistled_post():
    flags = get_checker(M84).check_post(post("咕咕 投馄饨"), M84, whistled=True)
    assert [f.category for f in flags] == ["whistle_breach"]
    assert flags[0].evidence == "投馄饨"


def test_links_and_attachments_follow_the_ruleset():
    p = post("你们看", links=["http://example.com/x"], attachments=1)
    assert cats(p, M84) == ["evidence"]
    assert cats(p, C004) == ["evidence"]
    ev = dataclasses.replace(M84.moderation.evidence, links_forbidden=False, attachments_forbidden=False)
    lenient = dataclasses.replace(M84, name="lenient-links", moderation=dataclasses.replace(M84.moderation, evidence=ev))
    assert cats(p, lenient) == []


def test_a_single_water_post_is_never_a_flag():
    # 004 违规判定 5(1)「不含纯水帖」 only leaves it out of the count; M84 6(5)「大量无意义水帖」 is per day
    assert "water" not in cats(post("顶", smilies=0), C004)
    assert "water" not in cats(post("顶", smilies=0), M84)


def test_genuine_capture_font_flags(truth):
    """red_font/enlarged_font of the ground truth, the way the parser reports colours and sizes."""
    directors = set(truth["game"]["directors"])
    checker = get_checker(M84)
    for th in truth["threads"]:
        for fl in th["floors"]:
            p = post(fl["text"], floor=fl["floor"], pid=fl["pid"], author=fl["author"], hidden=fl["hidden"],
                     colors=["Red"] if fl["red_font"] else [], sizes=["6"] if fl["enlarged_font"] else [])
            got = "font" in {f.category for f in checker.check_post(p, M84, is_director=fl["author"] in directors)}
            assert got == ("font" in fl["flags"]), (th["tid"], fl["floor"])
