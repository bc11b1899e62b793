"""Fuzzing of shape rather than bytes: pages whose posts nest thousands deep, grow large or carry
numbers of any size, API answers with any counts, and ruleset files of any value run through the
day's commands. Each either reads (within the bounds the scan relies on) or is one DaoyanError /
one line and exit 2. Counts per property are in `CASES` (DAOYAN_FUZZ_REPORT=path writes them)."""
from __future__ import annotations

import json
import os
import re
import tempfile
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from daoyan.cli import cli
from daoyan.demo import build_sample, render
from gamedef.errors import DaoyanError, PageFormatError
from parsers.discuz import MAX_FLOOR, MAX_ID, MAX_PAGES, parse_api_thread, parse_thread_page

from .reliability_support import NOW

CASES: Counter[str] = Counter()


def fuzz(cases: int) -> settings:
    return settings(max_examples=cases, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(scope="module", autouse=True)
def report_cases():
    yield
    target = os.environ.get("DAOYAN_FUZZ_REPORT")
    if target:
        old = json.loads(Path(target).read_text("utf-8")) if Path(target).is_file() else {}
        Path(target).write_text(json.dumps({**old, **CASES}, indent=1, sort_keys=True), "utf-8")


VIEW = render.View(base_url="http://127.0.0.1:8080/", now=NOW)
PAGE = render.thread_page(build_sample(), 21, 1, VIEW)
MESSAGE = re.compile(r'(<td class="t_f" id="postmessage_(\d+)">)(.*?)(</td>)', re.S)

# ---------------------------------------------------------------- page structure

OPEN = ["<strong>", "<b>", "<i>", "<u>", '<font color="red">', '<font size="7">', '<div class="quote"><blockquote>',
        "<blockquote>", '<a href="http://x/?pid=99999999999999999999999">', "<div>", "<p>", "<table><tr><td>",
        '<span style="color:#f00;font-size:40px">', "<ul><li>", '<div class="reply_wrap">', "<strike>"]
CLOSE = {o: "".join(f"</{t}>" for t in reversed(re.findall(r"<(\w+)", o))) for o in OPEN}
NUMBERS = st.one_of(st.integers(-5, 20), st.integers(0, 2**70), st.sampled_from([0, MAX_FLOOR, MAX_FLOOR + 1,
                    MAX_PAGES, MAX_PAGES + 1, MAX_ID, MAX_ID + 1, 10**9, 10**30]))


@st.composite
def deep_message(draw) -> str:
    """A message nested `depth` deep in a mix of the tags posts really use, some left unclosed."""
    depth = draw(st.sampled_from([1, 10, 999, 1001, 3000, 12_000]))
    tags = [OPEN[draw(st.integers(0, len(OPEN) - 1))] for _ in range(min(depth, 8))]
    opened = [tags[i % len(tags)] for i in range(depth)]
    words = draw(st.sampled_from(["投票对象：青梅\n投票理由：深", "回复 3# 竹马", "x" * draw(st.integers(0, 200_000)), ""]))
    closing = "".join(CLOSE[t] for t in reversed(opened)) if draw(st.booleans()) else ""
    return "".join(opened) + words + closing


@st.composite
def structured_page(draw) -> str:
    page = PAGE
    posts = list(MESSAGE.finditer(page))
    m = posts[draw(st.integers(0, len(posts) - 1))]
    page = page[:m.start(3)] + draw(deep_message()) + page[m.end(3):]
    for _ in range(draw(st.integers(0, 3))):  # a number the page states, made any size
        which = draw(st.sampled_from(["pager", "total", "pid", "floor", "uid", "tid"]))
        n = str(draw(NUMBERS))
        if which == "pager":
            page = page.replace('<div class="pg">', f'<div class="pg"><a href="x">{n}</a>', 1)
        elif which == "total":
            page = re.sub(r"共\s*\d+\s*页", f"共 {n} 页", page, count=1)
        elif which == "pid":
            pid = m.group(2)
            page = page.replace(f'id="post_{pid}"', f'id="post_{n}"', 1)
        elif which == "floor":
            page = re.sub(r"(<em>)(\d+)(</em><sup>#</sup>)", rf"\g<1>{n}\3", page, count=1)
        elif which == "uid":
            page = re.sub(r"uid=\d+", f"uid={n}", page, count=1)
        else:
            page = re.sub(r"tid = parseInt\('\d+'\)", f"tid = parseInt('{n}')", page, count=1)
    return page


@fuzz(200)
@given(structured_page())
def test_page_structure_reads_within_bounds_or_is_refused(html: str) -> None:
    CASES["structure: desktop pages (depth, size, numbers)"] += 1
    try:
        tp = parse_thread_page(html, what="fuzzed page")
    except PageFormatError as e:
        assert str(e).startswith("fuzzed page")
        return
    assert 1 <= tp.page <= tp.last_page <= MAX_PAGES
    for p in tp.posts:
        assert 0 < p.pid <= MAX_ID and 0 < p.floor <= MAX_FLOOR
        assert p.uid is None or abs(p.uid) <= MAX_ID
        assert all(q.pid is None or abs(q.pid) <= MAX_ID for q in p.quotes)


@fuzz(300)
@given(st.fixed_dictionaries({}, optional={k: NUMBERS.map(str) for k in ("replies", "maxposition", "tid", "fid")}),
       st.fixed_dictionaries({}, optional={k: NUMBERS.map(str) for k in ("pid", "position", "authorid", "dbdateline",
                                                                         "status", "tid")}),
       NUMBERS.map(str), st.integers(0, 3))
def test_api_numbers_read_within_bounds_or_are_refused(thread: dict, post: dict, ppp: str, posts: int) -> None:
    CASES["structure: API answers (numbers)"] += 1
    base = {"pid": "5", "position": "1", "message": "投票对象：青梅", "author": "竹马", "dbdateline": "1790000000"}
    doc = {"Variables": {"ppp": ppp, "thread": {"tid": "21", "replies": "3", **thread},
                         "postlist": [{**base, **post} for _ in range(posts)]}}
    try:
        tp = parse_api_thread(doc, what="fuzzed API")
    except DaoyanError:
        return
    assert 1 <= tp.last_page <= MAX_PAGES and 0 < (tp.per_page or 1) <= MAX_FLOOR
    for p in tp.posts:
        assert 0 < p.pid <= MAX_ID and 0 < p.floor <= MAX_FLOOR


# ---------------------------------------------------------------- ruleset files through the commands

RULESET_VALUES = ["0", "-1", "1", "2", "3", "60", "1000000000", "99999999999999", "0.5", "1.5", "-0.5", "nan",
                  "inf", "true", "false", '""', '"x"', '"after_vote"', '"before_vote"', '"more_than_half"',
                  '"at_least_half"', '"first_to_reach_top"', '["reply"]', '["quote"]', '[]', '["x"]', "[1]",
                  '["blue", "yellow", "red"]', '["green", "blue", "yellow", "red"]', '["red"]', "{}", '{a = "b"}',
                  '"弃权"', '"投票对象"', '"\u202e"', '"【代投】"', '"no_vote"', '"posts_below"', '"yellow"']
PRESETS = [resources.files("gamedef.rulesets").joinpath(f"{n}.toml").read_text("utf-8") for n in ("m84", "004")]


def _kind(v: str) -> str:
    """A TOML value's type, so most changes keep it and the ruleset loads: the count then runs on it."""
    if v in ("true", "false"):
        return "bool"
    if re.fullmatch(r"-?\d+", v):
        return "int"
    if re.fullmatch(r"-?[\d.]+|nan|inf", v):
        return "float"
    return {'"': "str", "[": "list", "{": "table"}.get(v[:1], "other")


@st.composite
def odd_ruleset(draw) -> bytes:
    lines = draw(st.sampled_from(PRESETS)).split("\n")
    keyed = [j for j, ln in enumerate(lines) if re.match(r"\s*[\w.\"-]+\s*=", ln) and not ln.startswith(("name", "cite"))]
    for _ in range(draw(st.integers(1, 4))):
        j = keyed[draw(st.integers(0, len(keyed) - 1))]
        key, old = lines[j].split("=", 1)
        old = old.split("#")[0].strip()
        same = [v for v in RULESET_VALUES if _kind(v) == _kind(old)] or RULESET_VALUES
        lines[j] = key + "= " + draw(st.sampled_from(same if draw(st.integers(0, 3)) else RULESET_VALUES))
    text = "\n".join(lines)
    return text.encode("gb18030") if draw(st.integers(0, 30)) == 0 else text.encode("utf-8")


FOLDER = Path(tempfile.mkdtemp(prefix="daoyan-fuzz-rules-"))


@pytest.fixture(scope="module")
def scanned_game() -> Path:
    from daoyan.demo import DemoForum
    from gamedef.gamefile import load_game
    from daoyan.scan import scan_game

    from .reliability_support import fast_game

    with DemoForum(now=NOW) as forum:
        path = fast_game(FOLDER, forum.base_url)
        scan_game(load_game(path))
    path.write_text(re.sub(r'ruleset = "\w+"', 'ruleset = "rules.toml"', path.read_text("utf-8")), "utf-8")
    return path


@fuzz(120)
@given(odd_ruleset())
def test_odd_rulesets_through_the_day_commands(scanned_game: Path, content: bytes) -> None:
    """A ruleset that loads runs the day's count and reports; one that does not is one line, exit 2."""
    CASES["cli: odd rulesets with a store"] += 1
    (FOLDER / "rules.toml").write_bytes(content)
    for args in (["votes", str(scanned_game), "--day", "1", "--json"],
                 ["report", str(scanned_game), "--day", "2", "--out", str(FOLDER / "out")],
                 ["cards", str(scanned_game), "--json"]):
        r = CliRunner().invoke(cli, args)
        CASES[f"cli: odd rulesets, {args[0]} exit {r.exit_code}"] += 1
        assert r.exit_code in (0, 2), (args, r.output, r.exception)
        assert r.exception is None or isinstance(r.exception, SystemExit), (args, repr(r.exception))
        if r.exit_code == 2:
            err = r.stderr.strip()
            assert err.startswith("daoyan: ") and "\n" not in err, err
