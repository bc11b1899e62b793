"""The review page in a real headless Chromium: it shows the count and the chart, hostile post
text stays text and runs nothing, and the page asks the network for nothing."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from reports.html import render_html

ANALYSIS = Path(__file__).parent / "golden" / "day1.analysis.json"
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ORIGIN = "http://daoyan.test"

PAYLOADS = [
    "<script>alert('x')</script>",
    "<img src=x onerror=alert(1)>",
    "<img src=x onerror=\"window.__pwned=1\">",
    "<svg onload=\"window.__pwned=1\"></svg>",
    "\"><script>window.__pwned=1</script>",
    "'><img src=x onerror='window.__pwned=1'>",
    "</title></style><script>window.__pwned=1</script>",
    "javascript:window.__pwned=1",
]


def load() -> dict:
    return json.loads(ANALYSIS.read_text("utf-8"))


def hostile() -> dict:
    """The day-1 analysis with attack text everywhere a post or a game file can put text."""
    a = load()
    bad = " ".join(PAYLOADS)
    a["game"]["name"] = "局" + PAYLOADS[6]
    f = a["flags"][0]
    f["evidence"], f["context"], f["note"] = PAYLOADS[0], bad, PAYLOADS[1]
    f["author"] = PAYLOADS[4]
    f["category"] = PAYLOADS[5]
    a["votes"]["ballots"][5]["problems"][0]["message"] = bad
    a["votes"]["ballots"][5]["voter"] = PAYLOADS[2]
    a["votes"]["abstained"] = [PAYLOADS[3]]
    a["votes"]["not_voted"] = [PAYLOADS[4], "月饼"]
    a["activity"]["penalties"][0]["reason"] = PAYLOADS[1]
    a["remind"] = {"closes_in_s": 3600, "lock_in_s": 0, "not_voted": [PAYLOADS[5]],
                   "below": [{"player": PAYLOADS[2], "posts": 1, "needed": 4}]}
    tl = a["votes"]["timeline"][-1]
    tl["counts"][PAYLOADS[4]] = 1
    a["votes"]["tally"].append({"target": PAYLOADS[4], "weight": 1, "voters": [PAYLOADS[3]]})
    return a


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium is not installed (Debian: apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright's Python package is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


def open_page(browser, html: str):
    """Serve the page at a fake origin; every other request is recorded and refused."""
    page = browser.new_page()
    seen: list[str] = []
    dialogs: list[str] = []
    doc = f"{ORIGIN}/day1.html"

    def route(r):
        seen.append(r.request.url)
        if r.request.url == doc:
            r.fulfill(status=200, content_type="text/html; charset=utf-8", body=html)
        else:
            r.abort()

    page.route("**/*", route)
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(doc, wait_until="load")
    page.wait_for_timeout(300)
    return page, seen, dialogs


def test_count_and_chart_render(browser):
    a = load()
    page, seen, dialogs = open_page(browser, render_html(a))
    rows = page.locator("tr.tally-row")
    assert rows.count() == 2
    first = rows.nth(0).inner_text()
    assert "包子" in first and "6" in first and "饺子" in first and "锅贴" in first
    assert "饺子" in rows.nth(1).inner_text() and "3" in rows.nth(1).inner_text()
    assert "包子" in page.inner_text("#outcome")
    assert "月饼" in page.inner_text("#not-voted")

    targets = {t for p in a["votes"]["timeline"] for t in p["counts"]}
    lines = page.locator("#chart svg polyline.series-line")
    assert lines.count() == len(targets) == 4
    assert {lines.nth(i).get_attribute("data-target") for i in range(lines.count())} == targets
    assert page.locator("#chart .legend-item").count() == len(targets)
    box = page.locator("#chart svg").bounding_box()
    assert box and box["width"] > 300 and box["height"] > 100
    ticks = page.locator("#chart svg .axis text").all_text_contents()
    assert any(re.fullmatch(r"\d\d:\d\d|\d\d-\d\d \d\d:\d\d", t) for t in ticks)
    assert seen == [f"{ORIGIN}/day1.html"] and dialogs == []
    page.close()


@pytest.mark.parametrize("strip_csp", [False, True], ids=["as-shipped", "escaping-alone"])
def test_hostile_text_shows_as_text_and_runs_nothing(browser, strip_csp):
    html = render_html(hostile())
    if strip_csp:  # the escaping must hold even without the page's Content-Security-Policy
        html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
        assert "Content-Security-Policy" not in html
    page, seen, dialogs = open_page(browser, html)
    assert dialogs == []
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.evaluate("document.scripts.length") == 0
    assert page.locator("img[src=x]").count() == 0
    assert page.locator("img, iframe, object, embed, [onerror], [onload]").count() == 0
    flags_text = page.inner_text("#flags")
    assert "<script>alert('x')</script>" in flags_text
    assert "<img src=x onerror=alert(1)>" in flags_text
    assert "<img src=x onerror=alert(1)>" in page.inner_text("#activity")
    assert "\"><script>window.__pwned=1</script>" in page.inner_text("#not-voted")
    assert "</title></style><script>" in page.title()
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))")
    assert hrefs and all(h.startswith("http://127.0.0.1:8080/forum.php?mod=") for h in hrefs)
    assert seen == [f"{ORIGIN}/day1.html"], "the page asked the network for more than itself"
    page.close()


def test_no_request_leaves_the_page_from_file(browser, tmp_path):
    """Opened the way a director opens it: from disk."""
    path = tmp_path / "day1.html"
    path.write_text(render_html(hostile()), "utf-8")
    page = browser.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri(), wait_until="load")
    page.wait_for_timeout(300)
    assert requests == [path.as_uri()]
    assert page.evaluate("typeof window.__pwned") == "undefined"
    page.close()


# Plain checks of the HTML text, no browser needed.

class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def tags_of(html: str) -> list[tuple[str, dict]]:
    p = _Tags()
    p.feed(html)
    return p.tags


def test_self_contained_markup():
    html = render_html(hostile())
    tags = tags_of(html)
    names = {t for t, _ in tags}
    assert not names & {"script", "link", "img", "iframe", "object", "embed", "base", "form", "input"}
    assert "<script src" not in html and not re.search(r"<link rel=.?stylesheet.? href=.?http", html, re.I)
    for tag, attrs in tags:
        assert "src" not in attrs and not any(k.startswith("on") for k in attrs), (tag, attrs)
        if "href" in attrs:
            assert tag == "a" and attrs["href"].startswith("http://127.0.0.1:8080/forum.php?mod=")
    style = "".join(re.findall(r"<style>(.*?)</style>", html, re.S))
    assert "url(" not in style and "@import" not in style
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in html
    assert "<img src=x" not in html


def test_findpost_links_are_exact():
    html = render_html(load())
    hrefs = re.findall(r'href="([^"]*)"', html)
    pattern = re.compile(r"http://127\.0\.0\.1:8080/forum\.php\?mod=(redirect&amp;goto=findpost&amp;ptid=\d+&amp;pid=\d+"
                         r"|viewthread&amp;tid=\d+)")
    assert hrefs and all(pattern.fullmatch(h) for h in hrefs), hrefs
    # A counted change (#17 by 馄饨) in the vote thread, a flag (#3 by 馄饨) in the discussion thread.
    base = "http://127.0.0.1:8080/forum.php?mod=redirect&amp;goto=findpost&amp;"
    assert base + "ptid=4&amp;pid=141" in hrefs
    assert base + "ptid=3&amp;pid=6" in hrefs
    assert "http://127.0.0.1:8080/forum.php?mod=viewthread&amp;tid=4" in hrefs


@pytest.mark.parametrize("base", ["javascript:alert(1)//", "data:text/html,x", "http://a\"onmouseover=\"x/", "", None])
def test_unsafe_base_url_gives_no_links(base):
    a = load()
    a["game"]["base_url"] = base
    html = render_html(a)
    assert "href=" not in html
    assert "javascript:" not in html and "onmouseover=\"" not in html


def test_non_integer_ids_give_no_link():
    a = load()
    for b in a["votes"]["ballots"]:
        b["pid"] = f"{b['pid']}&pid=1\" onclick=\"x"
    a["threads"]["vote"] = "4\"><b>"
    html = render_html(a)
    assert "ptid=4" not in html
    assert "onclick" not in html.replace("onclick=&#34;", "")


def test_flags_grouped_with_state():
    html = render_html(load())
    for label in ("待审", "已采纳", "已驳回", "马甲", "贴证", "发誓"):
        assert label in html
    assert html.count('class="flag-group"') == len({f["category"] for f in load()["flags"]})
    assert "明显暗示马甲" in html  # the director's note is shown for review


@pytest.mark.parametrize("analysis", [
    {"day": 3},
    {"day": 2, "game": {"name": "x"}, "votes": {"tally": [], "timeline": [], "outcome": {"out": None, "tie": []}},
     "flags": [], "activity": {}, "cards": None, "remind": None, "election": None},
], ids=["bare", "empty-day"])
def test_sparse_analysis_still_renders(analysis):
    from reports import render_bbcode
    html = render_html(analysis)
    assert "暂无投票记录" in html and "没有待审发言" in html
    assert "投票公示" in render_bbcode(analysis)


def test_tie_banner():
    a = load()
    a["votes"]["tally"] = [{"target": "馄饨", "weight": 3, "voters": ["汤圆"]}, {"target": "饺子", "weight": 3, "voters": ["馄饨"]}]
    a["votes"]["outcome"] = {"out": None, "tie": ["馄饨", "饺子"]}
    html = render_html(a)
    banner = html[html.index('id="outcome"'):html.index("</section>", html.index('id="outcome"'))]
    assert "平票，无人出局" in banner and "馄饨、饺子" in banner
