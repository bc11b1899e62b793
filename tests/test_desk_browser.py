"""The desk in a real Chromium (Debian's, through Playwright), as a director uses it: open a day,
accept and dismiss flags, record an event, watch the count and the announcement change, move the
time slider, copy the BBCode; hostile post text runs nothing. With DAOYAN_DESK_SHOTS=DIR it also
writes the README's screenshots there."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from daoyan.desk import DeskServer

from .desk_support import cli_json, game, scanned, tally  # noqa: F401  (fixtures)

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
SHOTS = os.environ.get("DAOYAN_DESK_SHOTS")


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium is not installed (bin/test installs Debian's chromium as root)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright's Python package is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def desk(game: Path, browser):  # noqa: F811
    with DeskServer(game, port=0, who="说书人") as s:
        origin = f"http://127.0.0.1:{s.port}"
        ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN")
        ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
        page = ctx.new_page()
        trouble: list[str] = []
        page.on("dialog", lambda d: (trouble.append("dialog: " + d.message), d.dismiss()))
        page.on("pageerror", lambda e: trouble.append(f"page error: {e}"))
        page.on("console", lambda m: trouble.append(f"console: {m.text}") if m.type == "error" else None)
        page.on("request", lambda r: None if r.url.startswith(origin) else trouble.append("left the desk: " + r.url))
        yield s, page, trouble
        ctx.close()


def shot(page, name: str, selector: str | None = None, height: int = 800) -> None:
    """One screenful, with `selector` scrolled to its top."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        if selector:
            page.locator(selector).evaluate("e => e.scrollIntoView({block: 'start'})")
        else:
            page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), clip={"x": 0, "y": 0, "width": 1280, "height": height},
                        caret="initial")  # hiding the caret injects a style the CSP refuses


def settle(page, notice: str) -> None:
    """An action's answer has been swapped in: its notice names what was done."""
    page.locator("#notice", has_text=notice).wait_for()


def test_a_day_reviewed_in_the_browser(desk, game: Path) -> None:  # noqa: F811
    s, page, trouble = desk
    page.goto(s.url)
    shot(page, "desk-days", height=260)
    page.get_by_role("link", name="打开第1天").click()
    page.locator("#tally").wait_for()
    before = cli_json("votes", str(game), "--day", "1", "--json")
    assert page.locator("#outcome").inner_text().strip().startswith("出局：霜降")
    announcement = page.locator("#announcement-bbcode").input_value()
    assert "霜降" in announcement and "第1天 投票公示" in announcement

    # a flag: the evidence highlighted in its post, the floors around it, the link to the floor
    flag = page.locator("#flag-32-insult")
    assert flag.locator("mark").inner_text() == "脑残"
    assert flag.locator(".neighbour").count() == 2
    link = flag.locator("a.floor").get_attribute("href")
    assert link.endswith("forum.php?mod=redirect&goto=findpost&ptid=21&pid=32")
    shot(page, "desk-day")
    shot(page, "desk-flags", "#flags")

    # accept with a yellow card, dismiss another; both saved at once, the ledger shows the card
    flag.get_by_role("button", name="采纳·黄牌").click()
    settle(page, "已采纳")
    assert "已采纳 · 黄牌" in page.locator("#flag-32-insult .state").inner_text()
    assert "芒种" in page.locator("#ledger").inner_text()
    page.locator("#flag-33-font input[name=note]").fill("作者的签名档，不算发言")
    page.locator("#flag-33-font").get_by_role("button", name="驳回").click()
    settle(page, "已驳回")
    assert "已驳回" in page.locator("#flag-33-font .state").inner_text()
    assert "作者的签名档" in page.locator("#flag-33-font").inner_text()
    states = {f["id"]: f["state"] for f in cli_json("flags", str(game), "--day", "1", "--json")["flags"]}
    assert states["32-insult"] == "accepted" and states["33-font"] == "dismissed"
    notes = {f["id"]: f["note"] for f in cli_json("flags", str(game), "--day", "1", "--json")["flags"]}
    assert notes["33-font"] == "作者的签名档，不算发言" and notes["32-insult"] is None

    # undo the dismissal from the action log
    page.locator("#log tr").first.get_by_role("button", name="撤销").click()
    settle(page, "已撤销")
    assert "待复核" in page.locator("#flag-33-font .state").inner_text()

    # an event with its moment: 霜降 out at 12:00 on the closing day; his 16:00 ballot no longer counts
    form = page.locator("#events form")
    form.locator("select[name=kind]").select_option("out")
    form.locator("select[name=player]").select_option("霜降")
    form.locator("input[name=when]").fill("2026-11-11T12:00")
    form.get_by_role("button", name="记录事件").click()
    settle(page, "已记事件")
    after = cli_json("votes", str(game), "--day", "1", "--json")
    assert tally(after) != tally(before) and "白露" not in tally(after)
    targets = page.locator("#tally tbody td.name").all_inner_texts()
    assert "白露" not in targets and targets == [t["target"] for t in after["tally"]]
    new_announcement = page.locator("#announcement-bbcode").input_value()
    assert new_announcement != announcement and "霜降（#19）" not in new_announcement
    assert "霜降于11-11 12:00出局" in page.locator("#ballots").inner_text()
    shot(page, "desk-after-event")

    # copy the announcement with one click: the clipboard holds exactly the BBCode shown
    page.get_by_role("button", name="复制公示 BBCode").click()
    page.locator("#announcement button.copy.done").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == new_announcement
    page.get_by_role("button", name="复制提醒 BBCode").click()
    page.locator("#remind button.copy.done").wait_for()
    reminder = page.evaluate("navigator.clipboard.readText()")
    # the demo day closed long ago: the reminder says the vote has closed instead of asking for votes
    assert reminder == page.locator("#reminder-bbcode").input_value() and "第1天 投票已截止" in reminder

    # the time slider: the count as of an earlier ballot, the same as `votes --at`
    slider = page.locator("#moment")
    slider.fill("3")
    slider.dispatch_event("change")
    page.locator("#day[data-at]:not([data-at=''])").wait_for()
    at = page.locator("#day").get_attribute("data-at")
    want = cli_json("votes", str(game), "--day", "1", "--at", at, "--json")
    shown = page.locator("#tally tbody td.name").all_inner_texts()
    assert shown == [t["target"] for t in want["tally"]]
    # the moment is in the address: a reload shows the same count
    assert page.url.endswith("/day/1?i=3")
    page.reload()
    assert page.locator("#day").get_attribute("data-at") == at
    assert page.locator("#tally tbody td.name").all_inner_texts() == shown
    assert trouble == []


def test_hostile_posts_run_nothing(desk) -> None:
    s, page, trouble = desk
    page.goto(s.url + "day/2")
    page.locator("#flags").wait_for()
    assert "alert(" in page.locator("#flags").inner_text()
    assert page.evaluate("document.querySelectorAll('#day script, #day iframe, #day img').length") == 0
    page.locator("#flags article").first.get_by_role("button", name="驳回").click()
    settle(page, "已驳回")
    assert trouble == []


def test_an_error_reaches_the_page(desk, game: Path) -> None:  # noqa: F811
    """A game file broken while the desk runs: the click answers with the message, on the page."""
    s, page, trouble = desk
    page.goto(s.url + "day/1")
    page.locator("#flags").wait_for()
    game.write_text(game.read_text("utf-8") + "\n[[day]\n", "utf-8")
    page.locator("#flag-32-insult").get_by_role("button", name="驳回").click()
    page.locator("#error", has_text="game.toml").wait_for()
    assert [t for t in trouble if "400" not in t] == []


def test_a_decision_made_in_the_shell_is_announced_on_the_open_page(desk, game: Path) -> None:  # noqa: F811
    s, page, trouble = desk
    page.goto(s.url + "day/1")
    page.locator("#flags").wait_for()
    assert page.evaluate("window.daoyanCheckFreshness()") is False
    assert page.locator("#stale").is_hidden()
    from click.testing import CliRunner

    from daoyan.cli import cli

    r = CliRunner().invoke(cli, ["flags", "dismiss", "32-insult", "--game", str(game)])
    assert r.exit_code == 0, r.output
    assert page.evaluate("window.daoyanCheckFreshness()") is True
    page.locator("#stale").wait_for()
    page.locator("#stale-reload").click()
    page.locator("#flag-32-insult .state", has_text="已驳回").wait_for()
    assert page.locator("#stale").is_hidden()
    assert trouble == []
