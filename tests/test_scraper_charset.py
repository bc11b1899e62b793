"""Charset detection: read from the answer, on the genuine UTF-8 and GBK captures and by rule."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from scraper.charset import decode, detect_charset, normalize_charset


def bodies(folder: Path):
    """(body bytes, Content-Type, body path) of every capture in a folder."""
    for meta_path in sorted(folder.rglob("*.meta.json")):
        meta = json.loads(meta_path.read_text("utf-8"))
        body = meta_path.parent / meta["body"]
        ctype = {k.lower(): v for k, v in meta["headers"].items()}.get("content-type")
        yield body.read_bytes(), ctype, body


@pytest.mark.parametrize("folder, page_charset", [("x35-utf8", "utf-8"), ("x35-gbk", "gb18030")])
@pytest.mark.parametrize("with_header", [True, False], ids=["content-type", "body-only"])
def test_every_capture(captures, folder, page_charset, with_header):
    seen = 0
    for content, ctype, path in bodies(captures / folder):
        got = detect_charset(content, ctype if with_header else None)
        # The mobile API sends UTF-8 JSON even where it says "Charset":"GBK".
        want = "utf-8" if path.suffix == ".json" else page_charset
        assert got == want, path.name
        text = decode(content, got)
        assert "\ufffd" not in text, path.name
        seen += 1
    assert seen > 40


def test_gbk_page_reads_as_chinese(captures):
    content = (captures / "x35-gbk" / "pages" / "viewthread-tid1-p1.html").read_bytes()
    same = (captures / "x35-utf8" / "pages" / "viewthread-tid1-p1.html").read_bytes().decode("utf-8")
    text = decode(content, detect_charset(content, "text/html; charset=gbk"))
    assert "版杀" in text
    assert text.count("版杀") == same.count("版杀")


def test_gbk_api_json_says_gbk_but_is_utf8(captures):
    content = (captures / "x35-gbk" / "mobile" / "api-viewthread-tid3-p1.json").read_bytes()
    assert json.loads(content)["Charset"] == "GBK"
    assert detect_charset(content, "application/json") == "utf-8"


GBK_HTML = '<html><head><meta charset="gbk"></head><body>版杀 饺子</body></html>'.encode("gbk")


@pytest.mark.parametrize("content, ctype, want", [
    (b"<p>x</p>", "text/html; charset=GBK", "gb18030"),
    (b"<p>x</p>", 'text/html; charset="gb2312"', "gb18030"),
    (b"<p>x</p>", "text/html;charset=utf8", "utf-8"),
    (b"<p>x</p>", "text/html; charset=big5", "big5"),
    (GBK_HTML, "text/html; charset=bogus-label", "gb18030"),      # unknown label: read the body
    (GBK_HTML, "text/html", "gb18030"),
    (b'<meta http-equiv="Content-Type" content="text/html; charset=gb2312"><p>x</p>', None, "gb18030"),
    (b"<meta charset='UTF-8'>", None, "utf-8"),
    ('<?xml version="1.0" encoding="gbk"?><root>登录</root>'.encode("gbk"), None, "gb18030"),
    ('<?xml version="1.0" encoding="utf-8"?><root>登录</root>'.encode(), "text/xml", "utf-8"),
    ("没有任何声明的页面".encode("utf-8"), None, "utf-8"),
    ("没有任何声明的页面".encode("gbk"), None, "gb18030"),
    (b"\xef\xbb\xbf<p>bom</p>", "text/html; charset=gbk", "utf-8"),
    ('{"Charset":"GBK","v":"导演"}'.encode(), "application/json", "utf-8"),
    ('{"Charset":"GBK","v":"导演"}'.encode("gbk"), "application/json; charset=gbk", "gb18030"),
    ('{"v":"导演"}'.encode(), None, "utf-8"),
    (b"", None, "utf-8"),
])
def test_rules(content, ctype, want):
    assert detect_charset(content, ctype) == want


@pytest.mark.parametrize("label, want", [
    ("GBK", "gb18030"), ("gb2312", "gb18030"), ("cp936", "gb18030"), ("x-gbk", "gb18030"),
    ("GB18030", "gb18030"), ("UTF-8", "utf-8"), ("utf8", "utf-8"), ("latin1", "cp1252"),
    ("nonsense", None), ("", None), (None, None),
])
def test_labels(label, want):
    assert normalize_charset(label) == want


@given(st.text(alphabet=st.characters(codec="gbk"), min_size=1))
def test_undeclared_gbk_text_round_trips(text):
    content = text.encode("gbk")
    got = detect_charset(content, None)
    if got == "gb18030":
        assert decode(content, got) == text
    else:  # GBK bytes that happen to be valid UTF-8 (pure ASCII, mostly)
        assert got == "utf-8" and content.decode("utf-8")


@given(st.text(), st.sampled_from(["utf-8", "gb18030"]))
def test_declared_charset_round_trips(text, charset):
    page = f'<html><head><meta charset="{charset}"></head><body>{text}</body></html>'
    content = page.encode(charset)
    assert decode(content, detect_charset(content, None)) == page


@given(st.binary(), st.one_of(st.none(), st.text(max_size=40)))
def test_never_raises(content, ctype):
    charset = detect_charset(content, ctype)
    assert isinstance(decode(content, charset), str)


def test_forced_charset_applies_to_pages_not_to_api_json():
    import asyncio
    import math

    import httpx

    from scraper import ForumClient

    gbk_page = "<p>版杀 没有声明</p>".encode("gbk")
    api = '{"Charset":"GBK","v":"导演"}'.encode()

    def handler(request):
        if "api/mobile" in request.url.path:
            return httpx.Response(200, content=api, headers={"Content-Type": "application/json"})
        return httpx.Response(200, content=gbk_page, headers={"Content-Type": "text/html; charset=utf-8"})

    async def go(charset):
        async with ForumClient("http://127.0.0.1:8080", charset=charset, rate=math.inf,
                               transport=httpx.MockTransport(handler)) as forum:
            return await forum.thread_page(1), await forum.api_thread(1)

    page, doc = asyncio.run(go("GBK"))
    assert page.charset == "gb18030" and "版杀" in page.text
    assert doc.charset == "utf-8" and json.loads(doc.text)["v"] == "导演"
    page, _ = asyncio.run(go("auto"))
    assert page.charset == "utf-8" and "\ufffd" in page.text   # the page lied; auto believes it


def test_unknown_forced_charset_is_refused():
    from scraper import ForumClient

    with pytest.raises(ValueError, match="charset"):
        ForumClient("http://127.0.0.1:8080/", charset="klingon")
