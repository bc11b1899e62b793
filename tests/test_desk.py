"""The review desk over real HTTP (uvicorn on loopback): the token and CSRF guard every request,
hostile post text stays text, and every action lands in the store where the CLI reads it — so the
desk and the commands never disagree."""
from __future__ import annotations

import re
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner

from daoyan.cli import cli
from daoyan.desk import DeskServer

from .desk_support import cli_json, game, scanned, tally  # noqa: F401  (fixtures)


@pytest.fixture
def desk(game: Path):  # noqa: F811
    with DeskServer(game, port=0, who="说书人") as s:
        with httpx.Client(base_url=s.url.rstrip("/"), timeout=20, follow_redirects=False) as c:
            yield s, c


def csrf_of(page: str) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', page)
    assert m, "no CSRF field on the page"
    return m.group(1)


def post(c: httpx.Client, path: str, page: str, **data: str) -> httpx.Response:
    return c.post(path, data={"csrf": csrf_of(page), "at": "", **data}, headers={"hx-request": "true"})


def desk_tally(page: str) -> dict[str, tuple[float, list[str]]]:
    soup = BeautifulSoup(page, "html.parser")
    out = {}
    for tr in soup.select("#tally tbody tr"):
        cells = [td.get_text(strip=True) for td in tr.find_all("td")]
        if len(cells) == 3 and cells[0] != "弃权":
            out[cells[0]] = (float(cells[1]), [v for v in cells[2].split("、") if v])
    return out


def test_every_request_needs_this_starts_token(desk) -> None:
    s, c = desk
    root = f"http://127.0.0.1:{s.port}"
    for path in ("/", "/day/1", "/static/htmx.min.js", "/" + "x" * len(s.token) + "/", "/" + s.token[:-1] + "/"):
        r = httpx.get(root + path)
        assert r.status_code == 403, path
        assert "daoyan serve" in r.text
    assert c.get("/").status_code == 200
    assert c.get("/static/htmx.min.js").status_code == 200


def test_a_foreign_host_header_is_refused(desk) -> None:
    """DNS rebinding: a page of another site resolving its name to 127.0.0.1 sends its own Host."""
    s, c = desk
    r = c.get("/", headers={"host": f"evil.example:{s.port}"})
    assert r.status_code == 403


def test_pages_forbid_inline_scripts_and_referrers(desk) -> None:
    s, c = desk
    r = c.get("/day/1")
    assert r.status_code == 200
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "default-src 'none'" in csp
    assert r.headers["referrer-policy"] == "no-referrer"
    soup = BeautifulSoup(r.text, "html.parser")
    assert all(sc.get("src") and not sc.string for sc in soup.find_all("script"))
    for a in soup.select("a[target=_blank]"):
        assert "noreferrer" in a["rel"]


def test_actions_without_the_csrf_token_or_from_another_origin_are_refused(desk, game: Path) -> None:  # noqa: F811
    s, c = desk
    page = c.get("/day/1").text
    good = csrf_of(page)
    for data, headers in (({}, {}), ({"csrf": "wrong"}, {}),
                          ({"csrf": good}, {"origin": "http://evil.example"}),
                          ({"csrf": good}, {"sec-fetch-site": "cross-site"})):
        r = c.post("/day/1/accept", data={"flag": "32-insult", "card": "yellow", **data}, headers=headers)
        assert r.status_code == 403, (data, headers)
    flags = cli_json("check", str(game), "--day", "1", "--json")["flags"]
    assert all(f["state"] == "open" for f in flags)
    assert c.get("/day/1/accept").status_code == 405  # an action is never a GET


def test_accept_dismiss_and_undo_are_what_the_cli_sees(desk, game: Path) -> None:  # noqa: F811
    s, c = desk
    page = c.get("/day/1").text
    r = post(c, "/day/1/accept", page, flag="32-insult", card="yellow")
    assert r.status_code == 200 and 'id="notice"' in r.text
    r = post(c, "/day/1/dismiss", r.text, flag="33-font")
    by_id = {f["id"]: f for f in cli_json("flags", str(game), "--day", "1", "--json")["flags"]}
    assert (by_id["32-insult"]["state"], by_id["32-insult"]["card"]) == ("accepted", "yellow")
    assert by_id["33-font"]["state"] == "dismissed"
    ledger = cli_json("cards", str(game), "--day", "1", "--json")
    entries = [e for p in ledger["players"] for e in p["entries"] if e["source"] == "flag"]
    assert [(e["player"], e["card"], e["floor"]) for e in entries] == [("芒种", "yellow", 29)]
    # the action log: who and when, newest first; undo the acceptance
    soup = BeautifulSoup(r.text, "html.parser")
    rows = soup.select("#log tr")
    assert "说书人" in rows[0].get_text() and "33-font" in rows[0].get_text()
    accept_id = soup.select("#log tr")[1].select_one("input[name=action]")["value"]
    r = post(c, "/day/1/undo", r.text, action=accept_id)
    assert "已撤销" in r.text
    by_id = {f["id"]: f for f in cli_json("flags", str(game), "--day", "1", "--json")["flags"]}
    assert by_id["32-insult"]["state"] == "open" and by_id["33-font"]["state"] == "dismissed"
    assert not [e for p in cli_json("cards", str(game), "--json")["players"] for e in p["entries"]
                if e["source"] == "flag"]
    # an undone action cannot be undone twice
    r = post(c, "/day/1/undo", r.text, action=accept_id)
    assert 'id="error"' in r.text and "already undone" in r.text


def test_an_event_recorded_at_the_desk_changes_the_cli_count(desk, game: Path) -> None:  # noqa: F811
    """霜降 goes out at 12:00 on the closing day: the ballot he cast at 16:00 no longer counts."""
    s, c = desk
    before = cli_json("votes", str(game), "--day", "1", "--json")
    assert "白露" in tally(before)
    page = c.get("/day/1").text
    assert desk_tally(page) == tally(before)
    r = post(c, "/day/1/event", page, kind="out", player="霜降", when="2026-11-11T12:00", reason="夜里出局")
    assert 'id="notice"' in r.text, r.text[:500]
    after = cli_json("votes", str(game), "--day", "1", "--json")
    assert "白露" not in tally(after)
    assert desk_tally(r.text) == tally(after)
    assert any(p["code"] == "voter_out" for b in after["ballots"] if b["voter"] == "霜降" for p in b["problems"])
    # a hand-given card, seen by `cards`
    r = post(c, "/day/1/card", r.text, player="大寒", card="blue", rule="M84 违规判定 2(3)", reason="私下辱骂")
    ledger = cli_json("cards", str(game), "--day", "1", "--json")
    assert any(e["reason"] == "私下辱骂" and e["card"] == "blue" for p in ledger["players"] if p["player"] == "大寒"
               for e in p["entries"])


def test_bad_input_is_one_message_not_a_crash(desk) -> None:
    s, c = desk
    page = c.get("/day/1").text
    for path, data in (("/day/1/event", {"kind": "out", "player": "路人"}),
                       ("/day/1/event", {"kind": "nonsense", "player": "青梅"}),
                       ("/day/1/event", {"kind": "out", "player": "青梅", "when": "2026-11-20T10:00"}),
                       ("/day/1/card", {"player": "青梅", "card": "purple", "rule": "x"}),
                       ("/day/1/accept", {"flag": "no-such-flag", "card": "blue"}),
                       ("/day/1/undo", {"action": "999"})):
        r = post(c, path, page, **data)
        assert r.status_code == 200 and 'id="error"' in r.text, (path, data)
    assert c.get("/day/9").status_code == 400
    r = c.get("/day/1?at=garbage")
    assert r.status_code == 400 and "expected a local time" in r.text and "Traceback" not in r.text
    r = c.get("/day/1?i=999")
    assert r.status_code == 200 and BeautifulSoup(r.text, "html.parser").select_one("#day")["data-at"] == ""


def test_the_slider_count_is_votes_at(desk, game: Path) -> None:  # noqa: F811
    s, c = desk
    page = c.get("/day/1").text
    soup = BeautifulSoup(page, "html.parser")
    stops = [li.get_text() for li in soup.select("#moment-stops li")]
    assert len(stops) > 4
    for i in (1, 3, len(stops) - 2):
        r = c.get(f"/day/1?i={i}", headers={"hx-request": "true"})
        assert r.text.lstrip().startswith('<div id="day"')  # the part htmx swaps, not a page
        at = BeautifulSoup(r.text, "html.parser").select_one("#day")["data-at"]
        want = cli_json("votes", str(game), "--day", "1", "--at", at, "--json")
        assert desk_tally(r.text) == tally(want), (i, at)
        whole = c.get(f"/day/1?i={i}", headers={"hx-request": "true", "hx-history-restore-request": "true"})
        assert "<html" in whole.text and desk_tally(whole.text) == tally(want)


def test_hostile_post_text_is_escaped(desk) -> None:
    """The posts of test_hostile_content: scripts, event handlers, BBCode tricks, RTL marks."""
    s, c = desk
    page = c.get("/day/2").text
    soup = BeautifulSoup(page, "html.parser")
    assert "alert(" in soup.get_text()  # the hostile words are there, as text
    assert len(soup.find_all("script")) == 2 and not soup.find_all(["iframe", "img"])
    for tag in soup.find_all(True):
        assert not [a for a in tag.attrs if a.startswith("on")], tag
        for a in ("href", "src", "action"):
            assert not str(tag.get(a, "")).lower().startswith("javascript"), tag
    assert "<script>alert" not in page and "&lt;script&gt;" in page
    preview = soup.select_one("#announcement-preview")
    assert not preview.find_all("a", href=re.compile("javascript", re.I))
    # the right-to-left override and the zero-width space of the insult are shown, not obeyed
    post = next(p for p in soup.select("#flags blockquote.post") if "你是不是" in p.get_text())
    assert "\u202e" not in post.get_text() and "\u200b" not in post.get_text()
    assert {m.get_text() for m in post.select(".ctl")} >= {"U+202E", "U+200B"}


def test_rescan_is_logged(desk) -> None:
    s, c = desk
    r = post(c, "/day/2/rescan", c.get("/day/2").text)
    assert 'id="notice"' in r.text and "重新扫描" in r.text
    assert "rescan" in BeautifulSoup(r.text, "html.parser").select_one("#log").get_text()


def test_serve_says_where_it_listens_and_serves(game: Path) -> None:  # noqa: F811
    proc = subprocess.Popen([sys.executable, "-m", "daoyan.cli", "serve", str(game), "--port", "0", "--no-browser"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline()
        url_line = proc.stdout.readline()
        assert "127.0.0.1" in first and "loopback" in first
        url = url_line.split("open:", 1)[1].strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/[\w-]{20,}/", url)
        assert httpx.get(url, timeout=20).status_code == 200
    finally:
        proc.terminate()
        proc.wait(10)


def test_serve_refuses_a_busy_port_and_a_broken_game_file(game: Path, tmp_path: Path) -> None:  # noqa: F811
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        r = CliRunner().invoke(cli, ["serve", str(game), "--port", str(busy.getsockname()[1]), "--no-browser"])
    assert r.exit_code == 2 and "try another --port" in r.output
    bad = tmp_path / "bad.toml"
    bad.write_text("[game\n", "utf-8")
    r = CliRunner().invoke(cli, ["serve", str(bad), "--no-browser"])
    assert r.exit_code == 2 and "Traceback" not in r.output


def test_the_desks_announcement_links_each_voters_floor(desk, game: Path) -> None:  # noqa: F811
    """The same announcement as `report` writes, each counted voter's floor a findpost link."""
    s, c = desk
    soup = BeautifulSoup(c.get("/day/1").text, "html.parser")
    text = soup.select_one("#announcement-bbcode").get_text()
    votes = cli_json("votes", str(game), "--day", "1", "--json")
    in_tally = {v for t in votes["tally"] for v in t["voters"]}
    counted = [b for b in votes["ballots"] if b["counted"] and b["source"] == "thread" and b["voter"] in in_tally]
    assert counted
    for b in counted:
        assert (f"[url=http://127.0.0.1:{_forum_port(game)}/forum.php?mod=redirect&goto=findpost&ptid=22&pid={b['pid']}]"
                f"#{b['floor']}[/url]") in text
    links = [a["href"] for a in soup.select("#announcement-preview a")]
    assert len(links) == len(counted) and all("goto=findpost&ptid=22&pid=" in h for h in links)
    # without the links it is, character for character, the file `report` writes
    r = CliRunner().invoke(cli, ["report", str(game), "--day", "1", "--out", str(game.parent / "out")])
    assert r.exit_code == 0, r.output
    written = (game.parent / "out" / "day1.bbcode.txt").read_text("utf-8")
    assert re.sub(r"\[url=[^\]]*\](#\d+)\[/url\]", r"\1", text.replace("\r\n", "\n")) == written


def _forum_port(game: Path) -> int:
    return int(re.search(r'base_url = "http://127\.0\.0\.1:(\d+)/"', game.read_text("utf-8")).group(1))


@pytest.mark.parametrize("base", ["http://bbs.example/]x[/", "javascript:alert(1)//", 'http://a"b/'])
def test_a_strange_forum_root_gives_no_links(base: str) -> None:
    import json

    from reports import render_bbcode

    a = json.loads((Path(__file__).parent / "golden" / "day1.analysis.json").read_text("utf-8"))
    a["game"]["base_url"] = base
    assert render_bbcode(a, floor_links=True) == render_bbcode(a)


def test_an_old_decision_is_not_undone_over_a_newer_one(desk, game: Path) -> None:  # noqa: F811
    """Accept, then dismiss from the shell: undoing the desk's acceptance would silently overwrite
    the newer decision, so it is refused with a message."""
    s, c = desk
    r = post(c, "/day/1/accept", c.get("/day/1").text, flag="32-insult", card="blue")
    first = BeautifulSoup(r.text, "html.parser").select_one("#log input[name=action]")["value"]
    out = CliRunner().invoke(cli, ["flags", "dismiss", "32-insult", "--game", str(game)])
    assert out.exit_code == 0, out.output
    r = post(c, "/day/1/undo", c.get("/day/1").text, action=first)
    assert 'id="error"' in r.text and "decided again" in r.text
    assert {f["id"]: f["state"] for f in cli_json("flags", str(game), "--day", "1", "--json")["flags"]}["32-insult"] \
        == "dismissed"


def test_without_javascript_an_action_redirects_back_to_the_day(desk, game: Path) -> None:  # noqa: F811
    s, c = desk
    page = c.get("/day/1").text
    r = c.post("/day/1/dismiss", data={"csrf": csrf_of(page), "flag": "32-insult", "at": ""})
    assert r.status_code == 303 and r.headers["location"] == f"/{s.token}/day/1"
    assert {f["id"]: f["state"] for f in cli_json("flags", str(game), "--day", "1", "--json")["flags"]}["32-insult"] \
        == "dismissed"


def test_serve_needs_a_scanned_store(game: Path) -> None:  # noqa: F811
    game.with_name("game.sqlite").unlink()
    r = CliRunner().invoke(cli, ["serve", str(game), "--no-browser", "--port", "0"])
    assert r.exit_code == 2 and "daoyan scan" in r.output


@pytest.mark.parametrize("host, loop", [("127.0.0.1", True), ("127.3.4.5", True), ("localhost", True), ("::1", True),
                                        ("0.0.0.0", False), ("192.168.1.5", False), ("desk.example", False)])
def test_only_loopback_counts_as_this_machine(host: str, loop: bool) -> None:
    from daoyan.desk.server import is_loopback

    assert is_loopback(host) is loop


def test_a_game_file_broken_while_serving_is_one_message(desk, game: Path) -> None:  # noqa: F811
    s, c = desk
    page = c.get("/day/1").text
    game.write_text(game.read_text("utf-8") + "\n[[day]\n", "utf-8")
    r = c.get("/day/1")
    assert r.status_code == 400 and "game.toml" in r.text and "Traceback" not in r.text
    r = post(c, "/day/1/dismiss", page, flag="32-insult")
    assert r.status_code == 400 and "game.toml" in r.text and "Traceback" not in r.text


def test_the_days_list_shows_each_days_outcome(desk, game: Path) -> None:  # noqa: F811
    s, c = desk
    text = BeautifulSoup(c.get("/").text, "html.parser").select_one("table.days").get_text()
    for day in (1, 2):
        out = cli_json("votes", str(game), "--day", str(day), "--json")["outcome"]["out"]
        assert f"{out} 出局" in text


def test_watch_and_report_see_the_desks_event(game: Path) -> None:  # noqa: F811
    """One merge for every reader: an event recorded in the store changes what `watch` writes."""
    import json

    from gamedef.gamefile import load_game

    from daoyan import records
    from daoyan.store import Store

    g = load_game(game)
    with Store(g.store_path) as store:
        records.add_event(store, g, day=1, kind="out", player="霜降", at=g.day(1).opens.replace(day=11, hour=12),
                          reason="", who="test")
    r = CliRunner().invoke(cli, ["watch", str(game), "--day", "1", "--rounds", "1", "--out", str(game.parent / "w")])
    assert r.exit_code == 0, r.output
    written = json.loads((game.parent / "w" / "day1.json").read_text("utf-8"))
    assert "白露" not in {t["target"] for t in written["votes"]["tally"]}
    assert tally(written["votes"]) == tally(cli_json("votes", str(game), "--day", "1", "--json"))


def test_the_stores_card_table_follows_the_desk(desk, game: Path) -> None:  # noqa: F811
    """For those who open the store in Datasette: after an action `cards` holds the whole game's ledger."""
    import sqlite3

    s, c = desk
    post(c, "/day/1/card", c.get("/day/1").text, player="青梅", card="red", rule="M84 违规判定 8(1)", reason="手动")
    con = sqlite3.connect(game.with_name("game.sqlite"))
    try:
        rows = con.execute("select player, card, day, source from cards").fetchall()
    finally:
        con.close()
    ledger = cli_json("cards", str(game), "--json")
    want = sorted((e["player"], e["card"], e["day"], e["source"]) for p in ledger["players"] for e in p["entries"])
    assert sorted(rows) == want and ("青梅", "red", 1, "manual") in rows and any(r[2] == 2 for r in rows)


@pytest.mark.parametrize("bbcode, html", [
    ("[b]结果：[/b]", "<b>结果：</b>"),
    ("[color=#D00000]红[/color]", '<span class="bb-red">红</span>'),
    ("[color=expression(alert(1))]x[/color]", "<span>x</span>"),
    ("[size=5]大[/size]", '<span class="bb-s5">大</span>'),
    ("[url=https://bbs.example/forum.php?a=1&b=2]#3[/url]",
     '<a href="https://bbs.example/forum.php?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">#3</a>'),
    ("[url=javascript:alert(1)]点我[/url]", "[url=javascript:alert(1)]点我[/url]"),
    ("[/td][/tr][/table][/b]", "[/td][/tr][/table][/b]"),
    ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
    ("[\u200db]inert[/b]", "[\u200db]inert[/b]"),
    ("[b][b]x[/b][/b][/b]", "<b><b>x</b></b>[/b]"),
    ("[img]http://evil.example/x.png[/img]", "[img]http://evil.example/x.png[/img]"),
])
def test_the_preview_turns_only_daoyans_own_tags_into_html(bbcode: str, html: str) -> None:
    from daoyan.desk.preview import bbcode_to_html

    assert str(bbcode_to_html(bbcode)) == html


def test_a_survives_event_is_shown_as_the_cli_decides_it(desk, game: Path) -> None:  # noqa: F811
    """004 捍卫: the leader stays in; the desk says so, and no one is out, exactly as `votes` says."""
    s, c = desk
    r = post(c, "/day/1/event", c.get("/day/1").text, kind="survives", player="霜降", reason="捍卫")
    outcome = cli_json("votes", str(game), "--day", "1", "--json")["outcome"]
    assert outcome["out"] is None and outcome["survives"]["player"] == "霜降"
    text = BeautifulSoup(r.text, "html.parser").select_one("#outcome").get_text()
    assert "霜降" in text and "不出局" in text and "无人出局" in text
    assert "无人出局" in BeautifulSoup(r.text, "html.parser").select_one("#announcement-bbcode").get_text()


def test_a_hand_card_keeps_its_moment(desk, game: Path) -> None:  # noqa: F811
    s, c = desk
    page = c.get("/day/1").text
    r = post(c, "/day/1/card", page, player="青梅", card="red", rule="M84 违规判定 8(1)", reason="场外", when="2026-11-11T15:00")
    assert 'id="notice"' in r.text
    entries = [e for p in cli_json("cards", str(game), "--json")["players"] if p["player"] == "青梅" for e in p["entries"]]
    assert [e["at"][:16] for e in entries if e["source"] == "manual"] == ["2026-11-11T15:00"]
    r = post(c, "/day/1/card", page, player="青梅", card="red", rule="x", when="2026-11-12T15:00")
    assert 'id="error"' in r.text and "outside day 1" in r.text


def test_the_count_shows_the_acceleration_and_the_readings_as_votes_does(desk, game: Path) -> None:  # noqa: F811
    s, c = desk
    soup = BeautifulSoup(c.get("/day/1").text, "html.parser")
    v = cli_json("votes", str(game), "--day", "1", "--json")
    acc = v["acceleration"]
    line = soup.select_one("#acceleration").get_text()
    assert f"{len(acc['counted_requests'])}/{acc['needed']}" in line
    fields = [td.get_text() for td in soup.select("#readings tbody tr td:first-child")]
    assert fields == [r["field"] for r in v["readings"]] and fields


def test_records_from_a_store_of_an_earlier_desk_are_read(game: Path) -> None:  # noqa: F811
    """A director_cards table without the moment column (an earlier desk): read, then extended."""
    import sqlite3

    from gamedef.gamefile import load_game

    from daoyan import records
    from daoyan.store import Store

    con = sqlite3.connect(game.with_name("game.sqlite"))
    con.execute("create table director_cards (id integer primary key, day int, player text, card text, rule text, "
                "reason text, pid int, created_at text, created_by text)")
    con.execute("insert into director_cards (day, player, card, rule, reason) values (1, '青梅', 'blue', 'r', '旧')")
    con.commit()
    con.close()
    g = load_game(game)
    with Store(g.store_path) as store:
        assert [(c.player, c.card, c.at) for c in records.stored_cards(store, g)] == [("青梅", "blue", None)]
        records.add_card(store, g, day=1, player="白露", card="blue", rule="r", reason="", who="t",
                         at=g.day(1).closes)
        assert [c.at for c in records.stored_cards(store, g)] == [None, g.day(1).closes]


def test_the_preview_of_any_text_has_only_safe_elements() -> None:
    """Whatever the text, the preview holds only the renderer's own elements, and links only to http(s)."""
    import warnings

    from bs4 import MarkupResemblesLocatorWarning
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from daoyan.desk.preview import bbcode_to_html

    alphabet = st.sampled_from(list("[]/=*<>\"' bcolrsizeutdatbl#:0159jvp") + ["[url=", "[color=", "javascript:",
                                                                                "http://x/", "[/url]", "<script>"])

    @settings(max_examples=300, deadline=None)
    @given(st.lists(alphabet, max_size=40).map("".join))
    def check(text: str) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)  # a bare url is the point here
            soup = BeautifulSoup(str(bbcode_to_html(text)), "html.parser")
        for tag in soup.find_all(True):
            assert tag.name in {"b", "table", "tr", "td", "ul", "li", "span", "a", "br"}, (text, tag)
            assert set(tag.attrs) <= {"class", "href", "target", "rel"}, (text, tag)
            if tag.name == "a":
                assert tag["href"].startswith(("http://", "https://")), (text, tag)

    check()


def test_the_page_says_how_fresh_its_posts_are(desk) -> None:
    s, c = desk
    before = BeautifulSoup(c.get("/day/2").text, "html.parser").select_one("#last-scan").get_text()
    assert before.startswith("上次扫描")
    r = post(c, "/day/2/rescan", c.get("/day/2").text)
    after = BeautifulSoup(r.text, "html.parser").select_one("#last-scan")
    assert after.get_text().startswith("上次扫描") and "bad" not in after.get("class", [])


def test_the_reminder_is_what_remind_prints(desk, game: Path) -> None:  # noqa: F811
    s, c = desk
    soup = BeautifulSoup(c.get("/day/1").text, "html.parser")
    text = soup.select_one("#reminder-bbcode").get_text().replace("\r\n", "\n")
    r = CliRunner().invoke(cli, ["remind", str(game), "--day", "1", "--at", "2026-11-11T22:00", "--bbcode"])
    assert r.exit_code == 0, r.output
    assert text == r.output


def test_the_version_changes_when_the_cli_writes(desk, game: Path) -> None:  # noqa: F811
    """A page open while the shell decides a flag can tell it is stale."""
    s, c = desk
    page = BeautifulSoup(c.get("/day/1").text, "html.parser")
    shown = page.select_one("#day")["data-version"]
    assert c.get("/day/1/version").text == shown
    r = CliRunner().invoke(cli, ["flags", "dismiss", "32-insult", "--game", str(game)])
    assert r.exit_code == 0, r.output
    assert c.get("/day/1/version").text != shown


def test_looking_changes_nothing(desk, game: Path) -> None:  # noqa: F811
    """Only POSTs with the CSRF token write: every GET leaves the store as it was."""
    import sqlite3

    def dump() -> list[str]:
        con = sqlite3.connect(game.with_name("game.sqlite"))
        try:
            return list(con.iterdump())
        finally:
            con.close()

    s, c = desk
    c.get("/day/1")
    before = dump()
    for path in ("/", "/day/1", "/day/2", "/day/1?i=2", "/day/1?at=now", "/day/1/version", "/day/9"):
        c.get(path)
        c.get(path, headers={"hx-request": "true"})
    assert dump() == before
