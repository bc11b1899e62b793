"""The demo forum over real HTTP: pages, pager, API, charsets, login, notices, faults, changes.

And the honesty check: the demo's pages parse (HTML and API) to the Posts the sample says.
"""
from __future__ import annotations

import re
import time
from collections import Counter
from datetime import datetime

import httpx
import pytest

from daoyan.demo import EXPECTED, DemoForum, FaultPlan, build_sample
from daoyan.demo.gamefile import write_game_file
from daoyan.demo.render import _plain_lines, post_date
from daoyan.demo.sample import TZ

NOW = datetime(2026, 11, 14, 12, 0, tzinfo=TZ)
VT = "forum.php?mod=viewthread&tid={}&page={}"
API = "api/mobile/index.php?version=4&module=viewthread&tid={}&page={}"


@pytest.fixture(scope="module")
def forum():
    with DemoForum(now=NOW) as f:
        yield f


@pytest.fixture
def client(forum):
    with httpx.Client(base_url=forum.base_url, timeout=5) as c:
        yield c


def pids_on(html: str) -> list[int]:
    return [int(x) for x in re.findall(r'<div id="post_(\d+)" >', html)]


def login(c: httpx.Client, user: str, pw: str) -> httpx.Response:
    form = c.get("member.php?mod=logging&action=login").text
    fh = re.search(r'name="formhash" value="([0-9a-f]+)"', form).group(1)
    return c.post("member.php?mod=logging&action=login&loginsubmit=yes&inajax=1",
                  data={"formhash": fh, "username": user, "password": pw, "loginsubmit": "true"})


# ---------------------------------------------------------------- the sample itself


def test_sample_matches_its_expectations():
    s = build_sample()
    assert len(s.players) == 12
    d1 = s.threads[s.days[0].discussion_tid]
    assert len(d1.posts) >= 120
    for d in s.days:
        t = s.threads[d.discussion_tid]
        got = Counter(p.author for p in t.posts if d.opens <= p.posted_at <= d.closes)
        want = EXPECTED["days"][d.number]["posts"]
        assert {k: got.get(k, 0) for k in want} == want
    for t in s.threads.values():
        assert [p.position for p in t.posts] == list(range(1, len(t.posts) + 1))
        assert [p.posted_at for p in t.posts] == sorted(p.posted_at for p in t.posts)
    assert build_sample().threads[21].posts[5].body == s.threads[21].posts[5].body  # deterministic


def test_expected_tallies_follow_the_ballots():
    """The hand-written tallies agree with the per-floor ballots (weights: priest 1.5 on day 2)."""
    s = build_sample()
    for d in s.days:
        counted = [p.ballot for p in s.threads[d.vote_tid].posts if p.ballot and p.ballot["counted"]]
        w = Counter()
        for b in counted:
            if b["kind"] != "abstain":
                w[b["target"]] += 1.5 if (d.number == 2 and b["voter"] == "青梅") else 1.0
        assert dict(w) == {x["target"]: x["weight"] for x in EXPECTED["days"][d.number]["tally"]}


# ---------------------------------------------------------------- pages


def test_desktop_page_markup_and_pager(client):
    r = client.get(VT.format(21, 1))
    assert r.status_code == 200 and r.headers["content-type"] == "text/html; charset=utf-8"
    html = r.text
    assert len(pids_on(html)) == 10
    assert '<span title="共 13 页"> / 13 页</span>' in html
    assert "<strong>1</strong>" in html and 'class="last">... 13</a>' in html
    assert "楼主</a>" in html and "沙发</a>" in html and "板凳</a>" in html and "地板</a>" in html
    assert re.search(r"<em>5</em><sup>#</sup></a>", html)
    assert re.search(r'<em id="authorposton\d+">发表于 <span title="2026-11-10 \d\d:\d\d:\d\d">4&nbsp;天前</span></em>',
                     html)
    assert re.search(r'<div class="authi"><a href="home.php\?mod=space&amp;uid=\d+" target="_blank" class="xw1">', html)
    assert html.rstrip().endswith("</html>")
    mid = client.get(VT.format(21, 8)).text
    assert 'class="first">1 ...</a>' in mid and "<strong>8</strong>" in mid


def test_page_past_the_last_is_the_last(client):
    last = client.get(VT.format(21, 13)).text
    past = client.get(VT.format(21, 99)).text
    assert pids_on(last) == pids_on(past) and len(pids_on(last)) == 7
    assert "<strong>13</strong>" in past


def test_single_page_thread_has_no_pager(client):
    html = client.get(VT.format(23, 1)).text
    assert 'class="pg"' not in html and len(pids_on(html)) == 5


def test_message_features(client):
    vote = client.get(VT.format(22, 1)).text
    assert re.search(r'<i class="pstatus"> 本帖最后由 竹马 于 2026-11-10 11:46 编辑 </i><br />', vote)
    p2 = client.get(VT.format(22, 2)).text
    assert re.search(r'<strong>回复 <a href="http://127\.0\.0\.1:\d+/forum\.php\?mod=redirect&amp;goto=findpost&amp;'
                     r'pid=\d+&amp;ptid=22" target="_blank">4#</a> <i>白露</i> </strong><br />', p2)
    assert '<div class="quote"><blockquote><font size="2"><a href=' in p2
    disc = "".join(client.get(VT.format(21, n)).text for n in range(1, 14))
    assert '<div class="locked">提示: <em>该帖被管理员或版主屏蔽</em></div>' in disc
    assert 'smilieid="1" border="0" alt="" />' in disc
    assert '<font color="Red">我是守夜人' in disc
    assert "&lt;script&gt;" in disc and "<script>alert" not in disc


def test_old_posts_show_absolute_minutes():
    with DemoForum(now=datetime(2027, 1, 1, 9, 0, tzinfo=TZ)) as f:
        html = httpx.get(f.base_url + VT.format(22, 1)).text
    assert re.search(r'<em id="authorposton\d+">发表于 2026-11-10 11:05</em>', html)


@pytest.mark.parametrize("delta,text", [
    (dict(seconds=30), "30&nbsp;秒前"), (dict(minutes=10), "10&nbsp;分钟前"), (dict(minutes=40), "半小时前"),
    (dict(hours=3), "3&nbsp;小时前"), (dict(days=1), "昨天&nbsp;09:00"), (dict(days=2), "前天&nbsp;09:00"),
    (dict(days=4), "4&nbsp;天前"),
])
def test_relative_dates(delta, text):
    from datetime import timedelta
    now = datetime(2026, 11, 20, 12, 0, tzinfo=TZ)
    at = (now.replace(hour=9) if "days" in delta else now) - timedelta(**delta)
    out = post_date(at, now)
    assert out == f'<span title="{at:%Y-%m-%d %H:%M:%S}">{text}</span>'


def test_api_with_ppp_and_fields(client):
    d = client.get(API.format(21, 1)).json()
    v = d["Variables"]
    assert d["Charset"] == "UTF-8" and v["ppp"] == "10" and len(v["postlist"]) == 10
    big = client.get(API.format(21, 1) + "&ppp=500").json()["Variables"]
    assert len(big["postlist"]) == 127 and big["ppp"] == "500"
    p2 = client.get(API.format(21, 2) + "&ppp=50").json()["Variables"]["postlist"]
    assert [p["position"] for p in p2] == [str(i) for i in range(51, 101)]
    past = client.get(API.format(22, 9)).json()["Variables"]["postlist"]
    assert past[-1]["position"] == "23"
    p = v["postlist"][1]
    assert set(p) >= {"pid", "author", "authorid", "dateline", "dbdateline", "message", "position", "number", "status"}
    vote = client.get(API.format(22, 1)).json()["Variables"]["postlist"]
    assert all("pstatus" not in x["message"] for x in vote)  # the API drops the edit marker
    allposts = client.get(API.format(21, 1) + "&ppp=200").json()["Variables"]["postlist"]
    assert any(x["status"] == "1" for x in allposts)
    assert all("size=" not in x["message"] for x in allposts)
    assert any("&amp;lt;script&amp;gt;" in x["message"] for x in allposts)


def test_gbk_forum():
    with DemoForum(now=NOW, charset="gbk") as f:
        r = httpx.get(f.base_url + VT.format(22, 1))
        assert r.headers["content-type"] == "text/html; charset=gbk"
        assert b'<meta charset="gbk" />' in r.content
        assert "投票对象".encode("gb18030") in r.content
        text = r.content.decode("gb18030")
        assert "节气夜话 · 第一天投票" in text
        api = httpx.get(f.base_url + API.format(22, 1))
        assert api.json()["Charset"] == "GBK"
        assert "投票对象" in api.content.decode("utf-8")
        with httpx.Client(base_url=f.base_url) as c:
            form = c.get("member.php?mod=logging&action=login").text
            fh = re.search(r'name="formhash" value="([0-9a-f]+)"', form).group(1)
            from urllib.parse import quote  # a GBK forum expects the name in GBK bytes
            body = f"formhash={fh}&username={quote('说书人'.encode('gbk'))}&password=daoyan-demo".encode()
            r = c.post("member.php?mod=logging&action=login&loginsubmit=yes&inajax=1", content=body,
                       headers={"Content-Type": "application/x-www-form-urlencoded"})
            assert "欢迎您回来".encode("gb18030") in r.content


def test_forumdisplay_and_index(client):
    html = client.get("forum.php?mod=forumdisplay&fid=2").text
    assert re.findall(r'<tbody id="normalthread_(\d+)">', html)[:2] == ["32", "31"]
    assert 'class="s xst">[M84] 节气夜话 · 第一天投票</a>' in html
    assert "抱歉，您没有权限访问该版块" in client.get("forum.php?mod=forumdisplay&fid=3").text


# ---------------------------------------------------------------- notices and login


def test_missing_thread(client):
    r = client.get(VT.format(9999, 1))
    assert r.status_code == 404
    assert '<div id="messagetext" class="alert_error">\n<p>抱歉，指定的主题不存在或已被删除或正在被审核</p>' in r.text
    j = client.get(API.format(9999, 1))
    assert j.status_code == 404 and j.json()["Message"]["messageval"] == "thread_nonexistence"


def test_private_board_needs_login(forum):
    with httpx.Client(base_url=forum.base_url) as c:
        r = c.get(VT.format(12, 1))
        assert r.status_code == 200 and "抱歉，您没有权限访问该版块" in r.text and not pids_on(r.text)
        assert c.get(API.format(12, 1)).json()["Message"]["messageval"] == "viewperm_none_nopermission//1"
        bad = login(c, "说书人", "wrong")
        assert "登录失败，您还可以尝试 4 次" in bad.text and bad.headers["content-type"].startswith("text/xml")
        assert "auth" not in "".join(bad.headers.get_list("set-cookie"))
        ok = login(c, "说书人", "daoyan-demo")
        assert "欢迎您回来，管理员 说书人" in ok.text
        assert any(h.startswith("dY7k_2132_auth=") for h in ok.headers.get_list("set-cookie"))
        assert len(pids_on(c.get(VT.format(12, 1)).text)) == 2
        v = c.get(API.format(12, 1)).json()["Variables"]
        assert v["member_username"] == "说书人" and v["auth"] and len(v["postlist"]) == 2


def test_login_with_a_stale_formhash_is_refused(forum):
    r = httpx.post(forum.base_url + "member.php?mod=logging&action=login&loginsubmit=yes&inajax=1",
                   data={"formhash": "00000000", "username": "说书人", "password": "daoyan-demo"})
    assert "表单验证串不符" in r.text


def test_require_login_closes_the_game_board():
    with DemoForum(now=NOW, require_login=True, users={"竹马": "pw"}) as f, httpx.Client(base_url=f.base_url) as c:
        assert "没有权限" in c.get(VT.format(21, 1)).text
        login(c, "竹马", "pw")
        assert len(pids_on(c.get(VT.format(21, 1)).text)) == 10
        assert "没有权限" in c.get(VT.format(12, 1)).text  # a player never sees the directors' board


def test_login_expires_mid_scan():
    with DemoForum(now=NOW, faults=FaultPlan(login_expires_after=3)) as f, httpx.Client(base_url=f.base_url) as c:
        login(c, "说书人", "daoyan-demo")
        seen = [bool(pids_on(c.get(VT.format(12, 1)).text)) for _ in range(5)]
        assert seen == [True, True, True, False, False]
        login(c, "说书人", "daoyan-demo")
        assert pids_on(c.get(VT.format(12, 1)).text)


# ---------------------------------------------------------------- latency and faults


def test_latency_and_request_log():
    with DemoForum(now=NOW, latency=0.05) as f:
        t0 = time.perf_counter()
        httpx.get(f.base_url + VT.format(22, 1))
        assert time.perf_counter() - t0 >= 0.05
        assert f.requests.count == 1 and f.requests.paths == ["/" + VT.format(22, 1)]


def test_latency_is_the_response_time_with_the_rendering_inside_it(monkeypatch):
    """A page that takes 0.3 s to render, at a latency of 0.5 s, answers in about 0.5 s, not
    0.8 s: the latency is the forum's response time, its own work included. The client is made
    and connected before the clock starts (a busy machine takes its time over that)."""
    from daoyan.demo import render
    slow = render.thread_page

    def slow_page(*a, **kw):  # type: ignore[no-untyped-def]
        time.sleep(0.3)
        return slow(*a, **kw)

    with DemoForum(now=NOW, latency=0.5) as f, httpx.Client(base_url=f.base_url, timeout=5) as c:
        assert c.get("forum.php?mod=forumdisplay&fid=2").status_code == 200  # connected
        monkeypatch.setattr(render, "thread_page", slow_page)
        t0 = time.perf_counter()
        assert c.get(VT.format(22, 1)).status_code == 200
        took = time.perf_counter() - t0
    assert 0.5 <= took < 0.75


@pytest.mark.parametrize("kind,check", [
    ("5xx", lambda r: r.status_code in (500, 502, 503)),
    ("429", lambda r: r.status_code == 429 and r.headers["retry-after"] == "1"),
])
def test_status_faults_burst_then_clear(kind, check):
    plan = FaultPlan(rate=1.0, kinds=(kind,), max_per_url=2)
    with DemoForum(now=NOW, faults=plan) as f, httpx.Client(base_url=f.base_url) as c:
        first = [c.get(VT.format(22, 1)) for _ in range(3)]
        assert check(first[0]) and check(first[1]) and first[2].status_code == 200
        assert c.get("forum.php?mod=forumdisplay&fid=2").status_code == 200  # not a target


def test_timeout_fault():
    plan = FaultPlan(rate=1.0, kinds=("timeout",), max_per_url=1, timeout_seconds=1.0)
    with DemoForum(now=NOW, faults=plan) as f:
        with pytest.raises(httpx.ReadTimeout):
            httpx.get(f.base_url + VT.format(22, 1), timeout=0.3)
        assert httpx.get(f.base_url + VT.format(22, 1), timeout=2).status_code == 200


def test_reset_fault():
    plan = FaultPlan(rate=1.0, kinds=("reset",), max_per_url=1)
    with DemoForum(now=NOW, faults=plan) as f:
        with pytest.raises(httpx.TransportError):
            httpx.get(f.base_url + VT.format(22, 1))
        assert httpx.get(f.base_url + VT.format(22, 1)).status_code == 200


def test_truncated_body_fault():
    plan = FaultPlan(rate=1.0, kinds=("truncate",), max_per_url=1)
    with DemoForum(now=NOW, faults=plan) as f:
        with pytest.raises(httpx.TransportError):
            httpx.get(f.base_url + VT.format(22, 1))
        assert httpx.get(f.base_url + VT.format(22, 1)).text.rstrip().endswith("</html>")


def test_faults_are_deterministic_per_url():
    def run() -> list[int]:
        plan = FaultPlan(seed=3, rate=0.5, kinds=("5xx",), max_per_url=1)
        with DemoForum(now=NOW, faults=plan) as f, httpx.Client(base_url=f.base_url) as c:
            return [c.get(VT.format(21, n)).status_code for n in range(1, 14)]
    a = run()
    assert a == run() and 200 in a and any(s >= 500 for s in a)


def test_missing_thread_fault():
    with DemoForum(now=NOW, faults=FaultPlan(missing_tids=frozenset({22}))) as f:
        assert "主题不存在" in httpx.get(f.base_url + VT.format(22, 1)).text


def test_post_deleted_between_pages_shifts_later_floors():
    s = build_sample()
    victim = s.threads[21].posts[4].pid  # floor 5, on page 1
    with DemoForum(now=NOW, faults=FaultPlan(delete_after=((1, victim),))) as f, \
            httpx.Client(base_url=f.base_url) as c:
        p1 = c.get(VT.format(21, 1)).text  # before the deletion
        p2 = c.get(VT.format(21, 2)).text  # after it: floor 21 moved back to page 2
    floors1 = [int(x) for x in re.findall(r"<em>(\d+)</em><sup>#</sup>", p1)]
    floors2 = [int(x) for x in re.findall(r"<em>(\d+)</em><sup>#</sup>", p2)]
    assert victim in pids_on(p1) and floors1[-1] == 10
    assert floors2[0] == 12 and floors2[-1] == 21  # floor 11 was skipped: a gap the scanner must see


# ---------------------------------------------------------------- changes


def test_add_edit_hide_delete():
    with DemoForum(now=NOW) as f, httpx.Client(base_url=f.base_url) as c:
        before = c.get(API.format(22, 1) + "&ppp=100").json()["Variables"]["postlist"]
        pid = f.add_post(22, "大寒", "投票对象：青梅<br />\n投票理由：补一票")
        after = c.get(API.format(22, 1) + "&ppp=100").json()["Variables"]["postlist"]
        assert len(after) == len(before) + 1 and after[-1]["pid"] == str(pid)
        assert after[-1]["position"] == str(int(before[-1]["position"]) + 1)
        assert '<span title="共 3 页">' in c.get(VT.format(22, 1)).text
        f.edit_post(pid, "投票对象：竹马<br />\n投票理由：改了", "大寒")
        last = c.get(VT.format(22, 3)).text
        assert "本帖最后由 大寒 于 2026-11-14 12:00 编辑" in last and "投票对象：竹马" in last
        f.hide_post(pid)
        assert "该帖被管理员或版主屏蔽" in c.get(VT.format(22, 3)).text
        f.delete_post(pid)
        assert str(pid) not in [p["pid"] for p in c.get(API.format(22, 1) + "&ppp=100").json()["Variables"]["postlist"]]
        assert '<span title="共 3 页">' in c.get(VT.format(22, 1)).text  # 23 floors: still 3 pages
        tid = f.add_thread("[M84] 大帖", first_html="大帖开门")
        f.fill_thread(tid, 1999)
        assert '<span title="共 200 页">' in c.get(VT.format(tid, 1)).text


def test_game_file_loads(tmp_path):
    from gamedef.gamefile import load_game
    p = write_game_file(tmp_path / "demo" / "game.toml", "http://127.0.0.1:9/")
    g = load_game(p)
    assert g.players == build_sample().players and g.forum.base_url == "http://127.0.0.1:9/"
    assert [d.number for d in g.days] == [1, 2] and g.days[0].election_tid == 24
    assert any(e.kind == "out" and e.player == "霜降" for e in g.events)


# ---------------------------------------------------------------- honesty: the parsers read what the sample says


def _expected_text(body: str) -> str:
    import html as h
    return "\n".join(h.unescape(x).replace("\xa0", " ").strip() for x in _plain_lines(body))


@pytest.mark.parametrize("charset", ["utf-8", "gbk"])
def test_pages_parse_to_the_sample(charset):
    from parsers.discuz import parse_api_thread, parse_thread_page
    s = build_sample()
    with DemoForum(now=NOW, charset=charset) as f, httpx.Client(base_url=f.base_url) as c:
        for tid in (21, 22, 31):
            t = s.threads[tid]
            html_posts, api_posts = [], []
            page = 1
            while True:
                r = c.get(VT.format(tid, page))
                tp = parse_thread_page(r.content.decode("gb18030" if charset == "gbk" else "utf-8"), tz=TZ)
                html_posts += tp.posts
                if page >= tp.last_page:
                    break
                page += 1
            api_posts = parse_api_thread(c.get(API.format(tid, 1) + "&ppp=1000").json(), tz=TZ).posts
            assert [p.pid for p in html_posts] == [p.pid for p in t.posts] == [p.pid for p in api_posts]
            for want, hp, ap in zip(t.posts, html_posts, api_posts):
                for got in (hp, ap):
                    assert (got.floor, got.author, got.uid, got.posted_at, got.hidden) == \
                           (want.position, want.author, want.uid, want.posted_at, want.hidden), want.pid
                    if not want.hidden:
                        assert got.text == _expected_text(want.body), want.pid
                    assert [q.pid for q in got.quotes] == ([want.quote_pid] if want.quote_pid else [])
                    assert (got.reply_to.pid if got.reply_to else None) == want.reply_pid
                    assert got.smilies == want.body.count("smilieid=")
                assert (hp.edit.editor if hp.edit else None) == want.edited_by
                assert ap.edit is None
                assert hp.colors == ap.colors


def test_a_client_hanging_up_prints_no_traceback(capfd) -> None:
    """daoyan drops connections on purpose (timeouts, cancelled pages); the forum must not
    print a traceback for that into the director's terminal (it read as daoyan failing)."""
    import socket
    import struct
    import time

    with DemoForum() as forum:
        for _ in range(3):
            s = socket.create_connection((forum.host, forum.port))
            s.sendall(b"GET /forum.php?mod=viewthread&tid=21 HTTP/1.1\r\nHost: x\r\n")
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.close()
        time.sleep(0.3)
    err = capfd.readouterr().err
    assert "Traceback" not in err, err
