"""The genuine Discuz X3.5 captures parse to their ground truth, from desktop pages and from the
mobile API alike, in both the UTF-8 and the GBK build."""
from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from gamedef.errors import LoginRequired, PageFormatError, ThreadMissing
from parsers.discuz import game_tag, load_api_json, parse_api_thread, parse_forum_threads, parse_thread_page
from scraper.charset import decode, detect_charset

TZ = ZoneInfo("Asia/Shanghai")


def _body(path: Path) -> str:
    meta = json.loads(path.with_name(path.stem + ".meta.json").read_text("utf-8"))
    raw = path.read_bytes()
    return decode(raw, detect_charset(raw, meta["headers"].get("Content-Type") or meta["headers"].get("Content-type")))


def _read(capture: Path, tid: int, source: str) -> dict[int, object]:
    folder, pattern = ("pages", f"viewthread-tid{tid}-p*.html") if source == "html" else ("mobile", f"api-viewthread-tid{tid}-p*.json")
    posts = {}
    for f in sorted((capture / folder).glob(pattern)):
        if f.name.endswith(".meta.json"):
            continue
        text = _body(f)
        page = parse_thread_page(text, tz=TZ) if source == "html" else parse_api_thread(load_api_json(text), tz=TZ)
        assert page.tid == tid
        for p in page.posts:
            posts[p.pid] = p
    return posts


@pytest.mark.parametrize("build", ["x35-utf8", "x35-gbk"])
@pytest.mark.parametrize("source", ["html", "api"])
def test_every_floor_matches_ground_truth(captures: Path, build: str, source: str) -> None:
    capture = captures / build
    truth = json.loads((capture / "ground_truth.json").read_text("utf-8"))
    for t in truth["threads"]:
        if t["fid"] != 2:
            continue
        posts = _read(capture, t["tid"], source)
        assert sorted(posts) == sorted(f["pid"] for f in t["floors"])
        for f in t["floors"]:
            p = posts[f["pid"]]
            assert (p.floor, p.author, p.posted_at.isoformat()) == (f["floor"], f["author"], f["posted_at"])
            assert p.text == f["text"], f["pid"]
            assert p.hidden == f["hidden"]
            assert p.smilies == f["smilies"]
            assert [{"pid": q.pid, "author": q.author} for q in p.quotes] == f.get("quotes", [])
            want_reply = f.get("reply_to")
            got_reply = {"pid": p.reply_to.pid, "floor": p.reply_to.floor, "author": p.reply_to.author} if p.reply_to else None
            assert got_reply == want_reply
            if source == "html":  # the API drops the edit marker and font sizes
                assert p.edited == f["edited"]
                assert bool(p.sizes) == f["enlarged_font"]


def test_html_and_api_give_the_same_posts(captures: Path) -> None:
    capture = captures / "x35-utf8"
    for tid in (3, 4, 7, 8):
        html, api = _read(capture, tid, "html"), _read(capture, tid, "api")
        for pid, h in html.items():
            a = api[pid]
            for field in ("tid", "pid", "floor", "author", "uid", "posted_at", "text", "quotes", "reply_to", "smilies", "hidden", "colors"):
                assert getattr(h, field) == getattr(a, field), (pid, field)


def test_pager_and_page_past_the_last(captures: Path) -> None:
    pages = captures / "x35-utf8" / "pages"
    p1 = parse_thread_page((pages / "viewthread-tid3-p1.html").read_text("utf-8"), tz=TZ)
    assert (p1.page, p1.last_page, p1.fid, p1.subject, p1.replies) == (1, 13, 2, "[M84] 第一天讨论帖", 120)
    past = parse_thread_page((pages / "viewthread-tid3-p14.html").read_text("utf-8"), tz=TZ)
    assert (past.page, past.last_page) == (13, 13)
    single = parse_thread_page((pages / "viewthread-tid5-p1.html").read_text("utf-8"), tz=TZ)
    assert (single.page, single.last_page, len(single.posts)) == (1, 1, 4)


def test_floor_names_and_edit_marker(captures: Path) -> None:
    pages = captures / "x35-utf8" / "pages"
    p = parse_thread_page((pages / "viewthread-tid4-p1.html").read_text("utf-8"), tz=TZ)
    assert [x.floor for x in p.posts[:4]] == [1, 2, 3, 4]  # 楼主 沙发 板凳 地板
    edited = next(x for x in p.posts if x.pid == 127)
    assert edited.edit is not None and edited.edit.editor == "包子"
    assert edited.edit.at == datetime(2026, 11, 26, 13, 5, tzinfo=TZ)


def test_fonts_are_recorded(captures: Path) -> None:
    p = parse_thread_page((captures / "x35-utf8" / "pages" / "viewthread-tid3-p1.html").read_text("utf-8"), tz=TZ)
    assert p.posts[0].colors == ["Red"] and p.posts[0].sizes == ["4"]


def test_hostile_text_stays_text(captures: Path) -> None:
    p = parse_thread_page((captures / "x35-utf8" / "pages" / "viewthread-tid3-p4.html").read_text("utf-8"), tz=TZ)
    post = next(x for x in p.posts if x.pid == 34)
    assert post.text == "<b>试试</b><script>alert('daoyan')</script>看看论坛能不能用HTML"


@pytest.mark.parametrize("name,error", [
    ("errors/viewthread-missing.html", ThreadMissing),
    ("errors/viewthread-missing-2.html", ThreadMissing),
    ("private/viewthread-tid2-p1.html", LoginRequired),
    ("errors/login-form.html", LoginRequired),
])
def test_notice_pages_raise_clear_errors(captures: Path, name: str, error: type) -> None:
    with pytest.raises(error):
        parse_thread_page(_body(captures / "x35-utf8" / name), tz=TZ)


@pytest.mark.parametrize("name,error", [
    ("errors/api-viewthread-missing.json", ThreadMissing),
    ("private/api-viewthread-tid2-p1.json", LoginRequired),
])
def test_api_notices_raise_clear_errors(captures: Path, name: str, error: type) -> None:
    with pytest.raises(error):
        parse_api_thread(load_api_json(_body(captures / "x35-utf8" / name)), tz=TZ)


def test_logged_in_private_thread_parses(captures: Path) -> None:
    s = captures / "x35-utf8" / "session"
    page = parse_thread_page(_body(s / "viewthread-tid2-p1-logged-in.html"), tz=TZ)
    assert [p.author for p in page.posts] == ["导演A", "导演B"]
    api = parse_api_thread(load_api_json(_body(s / "api-viewthread-tid2-p1-logged-in.json")), tz=TZ)
    assert [p.pid for p in api.posts] == [p.pid for p in page.posts]


def test_truncated_and_foreign_pages(captures: Path) -> None:
    html = (captures / "x35-utf8" / "pages" / "viewthread-tid3-p1.html").read_text("utf-8")
    with pytest.raises(PageFormatError):
        parse_thread_page(html[: len(html) // 2], tz=TZ)
    with pytest.raises(PageFormatError):
        parse_thread_page("<html><body>nginx 502</body></html>", tz=TZ)
    with pytest.raises(PageFormatError):
        load_api_json('{"Version":"4","Variables":{"postlist":[')


def test_board_listing_finds_the_rules_thread(captures: Path) -> None:
    threads = parse_forum_threads((captures / "x35-utf8" / "pages" / "forumdisplay-fid2.html").read_text("utf-8"))
    assert (1, "[M84] 规则帖") in threads
    assert game_tag(s for _, s in threads) == "[M84]"
