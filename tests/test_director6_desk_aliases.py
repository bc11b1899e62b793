"""The desk's player pickers (手动给牌, 事件) list each player's `aliases` from the game file, labelled
`正名 (别名: a, b)`, and a director finds and picks a player by any of those names: over real HTTP here
(the options, the hidden search box, an alias posted as the player), in Debian's Chromium through
Playwright below (the search box narrowing the picker, then an event and a card recorded by alias, seen
by the CLI)."""
from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from bs4 import BeautifulSoup

from daoyan.desk import DeskServer

from .desk_support import cli_json, game, scanned, tally  # noqa: F401  (fixtures)
from .test_desk import post
from .test_desk_browser import browser, settle  # noqa: F401  (fixture)

ALIASES = 'aliases = { "霜降" = ["霜降小号", "Frost"], "白露" = ["白露小号"] }'


def with_aliases(path: Path) -> Path:
    lines = path.read_text("utf-8").splitlines()
    i = next(i for i, ln in enumerate(lines) if ln.startswith("directors = "))
    path.write_text("\n".join(lines[:i + 1] + [ALIASES] + lines[i + 1:]) + "\n", "utf-8")
    return path


@pytest.fixture
def aliased(game: Path) -> Path:  # noqa: F811
    return with_aliases(game)


@pytest.fixture
def desk(aliased: Path):
    with DeskServer(aliased, port=0, who="说书人") as s:
        with httpx.Client(base_url=s.url.rstrip("/"), timeout=300, follow_redirects=False) as c:
            yield s, c


def pickers(page: str) -> dict[str, list[tuple[str, str, str]]]:
    """Each picker's options as (value, label, searched names)."""
    soup = BeautifulSoup(page, "html.parser")
    return {sec: [(o.get("value"), o.get_text(), o.get("data-names", ""))
                  for o in soup.select(f"#{sec} select[name=player] option")] for sec in ("cards", "events")}


def test_both_pickers_list_the_aliases(desk, aliased: Path) -> None:
    s, c = desk
    page = c.get("/day/1").text
    players = cli_json("activity", str(aliased), "--day", "1", "--json")["players"]
    roster = [p["player"] for p in players]
    for sec, options in pickers(page).items():
        if sec == "events":
            assert options[0][:2] == ("", "（无）")
            options = options[1:]
        assert [v for v, _, _ in options] == sorted(roster, key=roster.index)  # the values stay roster names
        by_value = {v: (label, names) for v, label, names in options}
        assert by_value["霜降"] == ("霜降 (别名: 霜降小号, Frost)", "霜降\n霜降小号\nfrost")
        assert by_value["白露"] == ("白露 (别名: 白露小号)", "白露\n白露小号")
        assert by_value["青梅"] == ("青梅", "青梅")  # no aliases: the bare name
    soup = BeautifulSoup(page, "html.parser")
    # the search box is there for the script to show; without the script the picker alone works
    for sec in ("cards", "events"):
        box = soup.select_one(f"#{sec} input[data-picker-search]")
        assert box is not None and box.find_parent("label").has_attr("hidden")
        assert box.get("name") is None  # never sent with the form


def test_an_alias_posted_as_the_player_is_recorded_for_the_player(desk, aliased: Path) -> None:
    """A form sent with an alias (typed by hand, or by a script of the director's) records the roster name."""
    s, c = desk
    before = cli_json("votes", str(aliased), "--day", "1", "--json")
    r = post(c, "/day/1/event", c.get("/day/1").text, kind="out", player="frost", when="2026-11-11T12:00")
    notice = BeautifulSoup(r.text, "html.parser").select_one("#notice").get_text()
    assert notice == "已记事件：出局 霜降（别名 frost）"
    after = cli_json("votes", str(aliased), "--day", "1", "--json")
    assert tally(after) != tally(before) and "霜降于11-11 12:00出局" in str(after["ballots"])
    r = post(c, "/day/1/card", r.text, player="白露小号", card="blue", rule="M84 违规判定 2(3)", reason="别名给牌")
    assert BeautifulSoup(r.text, "html.parser").select_one("#notice").get_text() == "已记牌：白露（别名 白露小号）"
    ledger = cli_json("cards", str(aliased), "--day", "1", "--json")
    assert [p["player"] for p in ledger["players"] if any(e["reason"] == "别名给牌" for e in p["entries"])] == ["白露"]
    # the roster name itself is named plainly
    r = post(c, "/day/1/card", r.text, player="白露", card="blue", rule="M84 违规判定 2(3)", reason="正名")
    assert BeautifulSoup(r.text, "html.parser").select_one("#notice").get_text() == "已记牌：白露"


def test_a_name_that_is_neither_is_one_message(desk) -> None:
    s, c = desk
    r = post(c, "/day/1/card", c.get("/day/1").text, player="霜降大号", card="blue", rule="x")
    err = BeautifulSoup(r.text, "html.parser").select_one("#error").get_text()
    assert "霜降大号" in err and "not a player" in err


def test_without_aliases_the_labels_are_the_names(game: Path) -> None:  # noqa: F811
    with DeskServer(game, port=0, who="说书人") as s:
        page = httpx.get(s.url + "day/1", timeout=300).text
    for options in pickers(page).values():
        assert all(label in ("（无）", value) and "别名" not in label for value, label, _ in options)


# ------------------------------------------------------------------------- in the browser

@pytest.fixture
def browser_desk(aliased: Path, browser):  # noqa: F811
    with DeskServer(aliased, port=0, who="说书人") as s:
        httpx.get(s.url + "day/1", timeout=300)  # the checker's first start in a test run is slow: not the page's
        ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN")
        page = ctx.new_page()
        trouble: list[str] = []
        page.on("pageerror", lambda e: trouble.append(f"page error: {e}"))
        page.on("console", lambda m: trouble.append(f"console: {m.text}") if m.type == "error" else None)
        yield s, page, trouble
        ctx.close()


def shown(form) -> list[str]:
    """The picker's options a director can see now."""
    return form.locator("select[name=player]").evaluate(
        "s => Array.from(s.options).filter(o => !o.hidden).map(o => o.textContent)")


def test_a_director_finds_and_picks_players_by_alias(browser_desk, aliased: Path) -> None:
    s, page, trouble = browser_desk
    page.goto(s.url + "day/1")
    events = page.locator("#events form")
    cards = page.locator("#cards form")
    search = events.locator("input[data-picker-search]")
    assert search.is_visible() and cards.locator("input[data-picker-search]").is_visible()
    picker = events.locator("select[name=player]")
    assert "霜降 (别名: 霜降小号, Frost)" in shown(events)

    # part of an alias, in any case: the picker narrows to who has it and picks them
    search.fill("fro")
    assert shown(events) == ["（无）", "霜降 (别名: 霜降小号, Frost)"] and picker.input_value() == "霜降"
    search.fill("小号")  # both who have such an alias, in roster order; the first is picked
    assert shown(events) == ["（无）", "白露 (别名: 白露小号)", "霜降 (别名: 霜降小号, Frost)"]
    assert picker.input_value() == "白露"
    search.fill("霜降小号")
    assert picker.input_value() == "霜降"
    search.fill("露")  # 白露 by name, 寒露 by name: the first in roster order
    assert shown(events) == ["（无）", "白露 (别名: 白露小号)", "寒露"] and picker.input_value() == "白露"
    search.fill("ＦＲＯＳＴ")  # full-width letters fold as daoyan folds names
    assert picker.input_value() == "霜降"
    # nobody by that name: said so, and nobody picked (the event picker falls back to 无)
    search.fill("nobody")
    assert picker.input_value() == "" and "没有名字或别名含“nobody”的玩家" in events.inner_text()
    # Enter in the search box records nothing
    search.press("Enter")
    page.wait_for_timeout(300)
    assert page.locator("#notice").count() == 0
    search.fill("")
    assert len(shown(events)) == 1 + len(cli_json("activity", str(aliased), "--day", "1", "--json")["players"])

    # an event picked by alias: 霜降 out at 12:00 on the closing day, as the CLI then counts it
    before = cli_json("votes", str(aliased), "--day", "1", "--json")
    events.locator("select[name=kind]").select_option("out")
    search.fill("frost")
    events.locator("input[name=when]").fill("2026-11-11T12:00")
    events.get_by_role("button", name="记录事件").click()
    settle(page, "已记事件：出局 霜降")
    after = cli_json("votes", str(aliased), "--day", "1", "--json")
    assert tally(after) != tally(before)
    assert "霜降于11-11 12:00出局" in page.locator("#ballots").inner_text()

    # the page was swapped in by htmx: the search boxes are shown again; a card to 白露 by alias
    cards = page.locator("#cards form")
    card_search = cards.locator("input[data-picker-search]")
    assert card_search.is_visible()
    # a required picker with nobody found cannot be sent
    card_search.fill("nobody")
    assert cards.evaluate("f => f.checkValidity()") is False
    card_search.fill("白露小")
    assert cards.locator("select[name=player]").input_value() == "白露"
    cards.locator("select[name=card]").select_option("blue")
    cards.locator("input[name=rule]").fill("M84 违规判定 2(3)")
    cards.locator("input[name=reason]").fill("别名给牌")
    cards.get_by_role("button", name="给牌").click()
    settle(page, "已记牌：白露")
    ledger = cli_json("cards", str(aliased), "--day", "1", "--json")
    assert [p["player"] for p in ledger["players"] if any(e["reason"] == "别名给牌" for e in p["entries"])] == ["白露"]
    assert "白露" in page.locator("#ledger").inner_text()
    assert trouble == []
