"""Hostile post text is shown as text: markup, scripts, BBCode tricks, zero-width characters and
right-to-left marks posted on the forum reach every report (HTML review page, BBCode 公示, JSON,
the terminal) as inert words, and cannot break the announcement's BBCode.

Player names come from the game file, so the hostile words are what players write: a ballot's
target and reason, and the text of a flagged post (its evidence).
"""
from __future__ import annotations

import html
import json
import re
from datetime import datetime

import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner

from daoyan.cli import cli
from daoyan.demo import DemoForum
from daoyan.demo.sample import TZ
from gamedef.gamefile import load_game
from daoyan.reporting import write_day_reports
from daoyan.scan import scan_game
from daoyan.store import Store

from .reliability_support import NOW, fast_game

ZW = "\u200b"   # zero-width space
RLO = "\u202e"  # right-to-left override
RLM = "\u200f"  # right-to-left mark
ZWJ = "\u200d"  # what the BBCode renderer puts after "[" and "<" to keep them inert

TRICKS = ('[/b][/size][/color][/table][/list][url=javascript:alert(1)]点我[/url]'
          '[img]http://evil.example/x.png[/img]<script>alert("xss")</script><img src=x onerror=alert(2)>')
TARGET = f"[/td][/tr][/table]<script>alert(5)</script>[url=javascript:alert(6)]某{ZW}人[/url]{RLO}"
REASON = f"{TRICKS}{ZW}{RLO}反转{RLM}"
INSULT = f"你是不是脑残啊 {TRICKS} {RLO}噢{ZW}"
# a forum that lets some HTML through: real tags inside the rendered message
RAW_HTML = ('<img src="x" onerror="alert(3)" /><a href="javascript:alert(4)">链接</a>'
            '<script>alert(7)</script><iframe src="http://evil.example/"></iframe>')
LIVE_BBCODE = ("b", "i", "u", "s", "size", "color", "font", "table", "tr", "td", "list", "url", "img", "quote",
               "code", "align", "media", "hide", "email", "float", "p")


def at(day: int, hh: int, mm: int) -> datetime:
    return datetime(2026, 11, day, hh, mm, tzinfo=TZ)


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[int, dict[str, str]]:
    """The demo game with hostile posts added, scanned, and both days' reports written."""
    folder = tmp_path_factory.mktemp("hostile")
    with DemoForum(now=NOW) as forum:
        # day 2: 大寒 votes for the first time (a valid ballot, hostile reason); 惊蛰 votes again (an
        # invalid ballot whose written target is hostile); 青梅 posts a flagged insult full of tricks
        forum.add_post(32, "大寒", f"投票对象：白露<br />\n投票理由：{html.escape(REASON)}", at(13, 12, 0))
        forum.add_post(32, "惊蛰", f"投票对象：{html.escape(TARGET)}<br />\n投票理由：{html.escape(REASON)}",
                       at(13, 12, 30))
        forum.add_post(31, "青梅", html.escape(INSULT) + "<br />\n" + RAW_HTML, at(13, 21, 40))
        # day 1: a spectator-free trick in the discussion, and a hostile ballot by a player
        forum.add_post(21, "白露", "你是不是脑残啊 " + html.escape(REASON) + RAW_HTML, at(11, 21, 50))
        forum.add_post(22, "谷雨", f"投票对象：{html.escape(TARGET)}<br />\n投票理由：{html.escape(REASON)}",
                       at(11, 21, 55))
        game = load_game(fast_game(folder, forum.base_url))
        scan_game(game)
    out: dict[int, dict[str, str]] = {}
    with Store(game.store_path) as store:
        for day in (1, 2):
            paths = write_day_reports(game, store, day, folder / "reports")
            out[day] = {kind: p.read_text("utf-8") for kind, p in paths.items()}
    out[0] = {"game": str(game.path)}
    return out


def test_the_hostile_posts_reached_the_reports(reports) -> None:
    """Else the rest proves nothing: the ballots and the flag carry the hostile words."""
    for day in (1, 2):
        data = json.loads(reports[day]["json"])
        ballots = data["votes"]["ballots"]
        assert any("alert(5)" in (b.get("written_target") or b.get("target") or "") for b in ballots), day
        assert any("javascript:alert(1)" in json.dumps(f, ensure_ascii=False) for f in data["flags"]), day
    day2 = json.loads(reports[2]["json"])
    assert any(b["voter"] == "大寒" and b["counted"] for b in day2["votes"]["ballots"])


@pytest.mark.parametrize("day", [1, 2])
def test_html_page_has_nothing_live(reports, day: int) -> None:
    page = reports[day]["html"]
    soup = BeautifulSoup(page, "html.parser")
    assert soup.find_all(["script", "iframe", "object", "embed", "base", "form"]) == []
    for tag in soup.find_all(True):
        for name, value in tag.attrs.items():
            assert not name.lower().startswith("on"), (tag.name, name)
            values = value if isinstance(value, list) else [value]
            for v in values:
                assert not re.match(r"\s*(javascript|data|vbscript):", v, re.I) or tag.name == "img" and v.startswith(
                    "data:image/"), (tag.name, name, v)
    for a in soup.find_all("a", href=True):
        assert a["href"].startswith(("http://127.0.0.1:", "#")), a["href"]
    text = soup.get_text()
    assert "<script>alert(5)</script>" in text  # the hostile target, shown as words, not run
    assert "[url=javascript:alert(" in text  # a flag's context around the trick
    assert "&lt;script&gt;alert(5)" in page


@pytest.mark.parametrize("day", [1, 2])
@pytest.mark.parametrize("kind", ["html", "bbcode"])
def test_invisible_and_bidi_characters_do_not_reach_reports(reports, day: int, kind: str) -> None:
    assert not {ZW, RLO, RLM} & set(reports[day][kind])


def bbcode_tags(text: str) -> list[tuple[bool, str]]:
    """The live tags of a BBCode text: (closing?, name); `[` + ZWJ starts no tag."""
    return [(m.group(1) == "/", m.group(2).lower())
            for m in re.finditer(r"\[(/?)([A-Za-z]+)(?:=[^\]]*)?\]", text) if m.group(2).lower() in LIVE_BBCODE]


@pytest.mark.parametrize("day", [1, 2])
def test_bbcode_announcement_stays_balanced(reports, day: int) -> None:
    bb = reports[day]["bbcode"]
    stack: list[str] = []
    for closing, name in bbcode_tags(bb):
        if closing:
            assert stack and stack[-1] == name, f"[/{name}] closes {stack[-1:] or 'nothing'}"
            stack.pop()
        else:
            stack.append(name)
    assert stack == []
    names = {n for _, n in bbcode_tags(bb)}
    assert not names & {"url", "img", "media", "email", "hide", "quote"}  # nothing a player wrote went live
    assert "<script" not in bb.lower() and "<img" not in bb.lower()
    inert_target = f"[{ZWJ}/td][{ZWJ}/tr][{ZWJ}/table]<{ZWJ}script>"
    assert inert_target in bb  # the hostile target is shown, made inert, not dropped


def test_json_keeps_the_words_as_data(reports) -> None:
    data = json.loads(reports[2]["json"])
    reasons = [b.get("reason") or "" for b in data["votes"]["ballots"] if b["voter"] == "大寒"]
    assert any("[url=javascript:alert(1)]" in r for r in reasons)


@pytest.mark.parametrize("args", [["votes", "--day", "1"], ["votes", "--day", "2"], ["check", "--day", "2"],
                                  ["check", "--day", "1"], ["activity", "--day", "2"]])
def test_terminal_views_print_the_tricks_as_text(reports, args: list[str]) -> None:
    """rich reads `[b]` as its own markup: hostile brackets must be escaped, never a MarkupError."""
    game = reports[0]["game"]
    r = CliRunner().invoke(cli, [args[0], game, *args[1:]], env={"COLUMNS": "400"})
    assert r.exit_code == 0, (r.output, r.exception)
    assert r.exception is None and "Traceback" not in r.output
    if args[0] == "votes":
        assert "[/td][/tr][/table]" in r.output
    if args[0] == "check":
        assert "[/b][/size]" in r.output or "脑残" in r.output
