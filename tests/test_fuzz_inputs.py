"""Bad input never becomes a traceback: random and mutated pages, API answers, game files and
rulesets go to the parsers and loaders, which either read them or raise a DaoyanError.

The seeds of every mutation are genuine inputs: the Discuz X3.5 captures (when ../shared is
present), the demo forum's pages and API answers, the demo and capture game files, the presets.
Mutations are the ways such input really breaks: cut short, bytes flipped, a tag lost, junk
spliced in, lines deleted or doubled. Each property sets `max_examples`; `CASES` counts what ran
(set DAOYAN_FUZZ_REPORT=path to have the counts written as JSON).
"""
from __future__ import annotations

import asyncio
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
from daoyan.demo import build_sample
from daoyan.demo import render
from daoyan.demo.gamefile import game_file_text
from gamedef.errors import DaoyanError, GameFileError
from gamedef.gamefile import parse_game
from daoyan.scan import make_client
from gamedef.ruleset import parse_ruleset
from parsers.discuz import load_api_json, parse_api_thread, parse_forum_threads, parse_thread_page
from parsers.models import ThreadPage
from scraper.charset import decode, detect_charset
from scraper.login import parse_login_answer, parse_login_form

from .conftest import CAPTURES
from .reliability_support import NOW

CASES: Counter[str] = Counter()


def fuzz(cases: int) -> settings:
    """Exactly `cases` examples, the same ones on every run (derandomized), no deadline."""
    return settings(max_examples=cases, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(scope="module", autouse=True)
def report_cases():
    yield
    target = os.environ.get("DAOYAN_FUZZ_REPORT")
    if target:
        Path(target).write_text(json.dumps(dict(CASES), indent=1, sort_keys=True), "utf-8")


# ---------------------------------------------------------------- seeds


def _demo_view() -> render.View:
    return render.View(base_url="http://127.0.0.1:8080/", now=NOW)


def _html_seeds() -> list[bytes]:
    s, v = build_sample(), _demo_view()
    seeds = [render.thread_page(s, tid, page, v).encode("utf-8") for tid, page in ((21, 1), (21, 13), (22, 2), (23, 1))]
    seeds += [render.notice_page(v, render.MISSING_TEXT).encode("utf-8"), render.login_page(v, "abcde").encode("utf-8"),
              render.forumdisplay_page(s, 2, v).encode("utf-8")]
    for build in ("x35-utf8", "x35-gbk"):
        folder = CAPTURES / build
        if folder.is_dir():
            names = sorted((folder / "pages").glob("viewthread-*.html"))[:6] + sorted((folder / "errors").glob("*.html"))
            seeds += [p.read_bytes() for p in names]
            seeds += [p.read_bytes() for p in sorted((folder / "session").glob("*.html"))]
    return seeds


def _json_seeds() -> list[bytes]:
    s, v = build_sample(), _demo_view()
    seeds = [render.api_json(render.api_thread(s, tid, 1, ppp, v)) for tid, ppp in ((21, 10), (22, 500), (31, 20))]
    seeds += [render.api_json(render.api_missing(v)), render.api_json(render.api_noperm(s, 12, v))]
    folder = CAPTURES / "x35-utf8"
    if folder.is_dir():
        seeds += [p.read_bytes() for p in sorted((folder / "mobile").glob("api-viewthread-*.json"))[:8]]
        seeds += [p.read_bytes() for p in sorted((folder / "errors").glob("*.json"))]
    return seeds


def _game_seeds() -> list[str]:
    seeds = [game_file_text("http://127.0.0.1:8080/", build_sample(), login_env=("DY_USER", "DY_PASS"))]
    for build in ("x35-utf8", "x35-gbk"):
        p = CAPTURES / build / "game.toml"
        if p.is_file():
            seeds.append(p.read_text("utf-8"))
    return seeds


def _ruleset_seeds() -> list[str]:
    return [resources.files("gamedef.rulesets").joinpath(f"{n}.toml").read_text("utf-8") for n in ("m84", "004")]


HTML_SEEDS, JSON_SEEDS, GAME_SEEDS, RULESET_SEEDS = _html_seeds(), _json_seeds(), _game_seeds(), _ruleset_seeds()

# ---------------------------------------------------------------- mutations


_TAG = re.compile(rb"<[^<>]{1,200}>")


@st.composite
def mutated_bytes(draw, seeds: list[bytes], max_ops: int = 4) -> bytes:
    """A seed broken the ways transport and templates break pages."""
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, max_ops))):
        op = draw(st.sampled_from(["truncate", "flip", "drop_tag", "splice", "cut", "double", "number"]))
        n = len(data)
        at = draw(st.integers(0, max(0, n - 1)))
        if op == "truncate":
            del data[at:]
        elif op == "flip" and n:
            for i in range(draw(st.integers(1, 8))):
                j = (at + i * 97) % n
                data[j] ^= draw(st.integers(1, 255))
        elif op == "drop_tag":
            tags = list(_TAG.finditer(bytes(data)))
            if tags:
                m = tags[draw(st.integers(0, len(tags) - 1))]
                del data[m.start():m.end()]
        elif op == "splice":
            junk = draw(st.one_of(st.binary(max_size=40),
                                  st.sampled_from([b"<div id=\"post_9\">", b"</div>", b"<!--", b"<![CDATA[", b"\x00",
                                                   b"\xef\xbb\xbf", b"<em>99</em>", b'"', b"{", b"]", b"&#x0;",
                                                   b"<div class=\"pg\"><strong>x</strong>",
                                                   b"<em id=\"authorposton1\"><span title=\"9999-99-99 99:99\">",
                                                   b"\xe6\x8a\xb1\xe6\xad\x89"])))
            data[at:at] = junk
        elif op == "cut":
            del data[at:at + draw(st.integers(1, 400))]
        elif op == "double":
            data[at:at] = data[at:at + draw(st.integers(1, 400))]
        elif op == "number":  # floors, pids, page counts and dates are digits: make one absurd
            runs = list(re.finditer(rb"\d+", bytes(data)))
            if runs:
                m = runs[draw(st.integers(0, len(runs) - 1))]
                data[m.start():m.end()] = draw(st.sampled_from([b"0", b"00", b"-1", b"99", b"13", b"32", b"61",
                                                                 b"99999999999999999999999", b"1e9", b""]))
    return bytes(data)


def as_text(content: bytes, content_type: str) -> str:
    """Decoded exactly as the client decodes what the forum sent."""
    return decode(content, detect_charset(content, content_type))


def check_page(tp: ThreadPage) -> None:
    assert isinstance(tp, ThreadPage)
    for p in tp.posts:
        assert isinstance(p.pid, int) and isinstance(p.floor, int) and isinstance(p.text, str)


# ---------------------------------------------------------------- desktop pages


@fuzz(1000)
@given(mutated_bytes(HTML_SEEDS))
def test_mutated_thread_pages(content: bytes) -> None:
    CASES["html: mutated pages"] += 1
    text = as_text(content, "text/html")
    try:
        check_page(parse_thread_page(text, tid_hint=21, what="fuzzed page"))
    except DaoyanError:
        pass
    parse_forum_threads(text)
    parse_login_form(text)
    parse_login_answer(text)


@fuzz(300)
@given(st.one_of(st.text(max_size=3000), st.binary(max_size=3000).map(lambda b: as_text(b, ""))))
def test_random_text_as_a_page(text: str) -> None:
    CASES["html: random text"] += 1
    try:
        check_page(parse_thread_page(text, what="random page"))
    except DaoyanError:
        pass
    parse_forum_threads(text)
    parse_login_form(text)
    parse_login_answer(text)


# ---------------------------------------------------------------- mobile API answers


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=True)
                           | st.text(max_size=30),
                           lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
                           max_leaves=12)


def _slots(node):
    """(container, key) of every value inside a JSON document."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for k, v in list(items):
        yield node, k
        yield from _slots(v)


@st.composite
def mutated_api_doc(draw):
    """A genuine API answer with values replaced, keys deleted, lists emptied or doubled."""
    doc = json.loads(draw(st.sampled_from(JSON_SEEDS)))
    for _ in range(draw(st.integers(1, 5))):
        slots = list(_slots(doc))
        if not slots:
            break
        parent, key = slots[draw(st.integers(0, len(slots) - 1))]  # any value at any depth
        op = draw(st.sampled_from(["replace", "replace", "delete", "double"]))
        if op == "replace":
            parent[key] = draw(JSON_VALUES)
        elif op == "delete":
            del parent[key]
        elif isinstance(parent, list):
            parent.insert(key, parent[key])
    return doc


@fuzz(1000)
@given(mutated_api_doc())
def test_mutated_api_answers(doc) -> None:
    CASES["json: mutated API answers"] += 1
    try:
        check_page(parse_api_thread(doc, what="fuzzed API answer"))
    except DaoyanError:
        pass


@fuzz(300)
@given(mutated_bytes(JSON_SEEDS))
def test_mutated_api_bytes(content: bytes) -> None:
    CASES["json: mutated API bytes"] += 1
    try:
        check_page(parse_api_thread(load_api_json(as_text(content, "application/json"), "fuzzed"), what="fuzzed"))
    except DaoyanError:
        pass


# ---------------------------------------------------------------- game files and rulesets


LINE_POOL = ["[forum]", "[game]", "[[day]]", "[[event]]", "[[proxy]]", "[[card]]", "[forum.login]", "number = 1",
             "number = 0", "number = -3", 'number = "1"', "vote_tid = 0", "discussion_tid = 9999999999999999999",
             "opens = 2026-13-40T10:00:00", 'closes = "tomorrow"', "closes = 2026-11-10", 'ruleset = "m85"',
             'ruleset = "../../nowhere.toml"', "players = []", 'players = ["", " "]', "players = [1, 2]",
             'players = ["青梅", "青梅"]', 'timezone = "Mars/Olympus"', "rate = 0", "timeout = -1", 'api = "sometimes"',
             'charset = "ebcdic"', 'base_url = "ftp://x"', 'base_url = "javascript:alert(1)"', 'kind = "out"',
             'player = "nobody"', 'card = "purple"', "day = 99", "accelerated = 3", "store = 5", "camps = 1",
             "proxy = 3", "event = 1", "day = [1]", 'login = "x"', "x = 1", "= 1", "[", "]]", '"""', "#", "\x00",
             "player = {a = 1}", "[game.camps]", "青梅 = 1"]
VALUE_POOL = ["0", "-1", "1.5", "nan", "inf", "true", '""', '" "', '"x"', "[]", "{}", "[1, \"a\"]", "{a = 1}",
              '[{a = 1}]', "99999999999999999999", "2026-02-30T10:00:00", "2026-11-10", "10:00:00",
              "2026-11-10T10:00:00+08:00", '"2026-11-10T25:00:00"', '"青梅"', '["青梅"]', '"m84"', '"004"',
              '"http://127.0.0.1:8080/"', '"UTC"', '"\u202e"', "[[]]"]
CHAR_POOL = ["=", "[", "]", '"', "'", "\n", "#", "x", "1", "-", "T", ":", "{", "}", ",", ".", " ", "\\", "é", "\x7f"]


@st.composite
def mutated_toml(draw, seeds: list[str]) -> str:
    lines = draw(st.sampled_from(seeds)).split("\n")
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["del_line", "dup_line", "ins_line", "swap", "del_char", "ins_char", "value",
                                   "value"]))
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        if op == "del_line" and lines:
            del lines[i]
        elif op == "dup_line" and lines:
            lines.insert(i, lines[i])
        elif op == "ins_line":
            lines.insert(i, draw(st.sampled_from(LINE_POOL)))
        elif op == "swap" and len(lines) > 1:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op in ("del_char", "ins_char") and lines:
            ln = lines[i]
            k = draw(st.integers(0, len(ln)))
            lines[i] = ln[:k] + ln[k + 1:] if op == "del_char" else ln[:k] + draw(st.sampled_from(CHAR_POOL)) + ln[k:]
        elif op == "value":  # the right key with a value of the wrong type or range
            keyed = [j for j, ln in enumerate(lines) if re.match(r"\s*[\w.\"-]+\s*=", ln)]
            if keyed:
                j = keyed[draw(st.integers(0, len(keyed) - 1))]
                lines[j] = lines[j].split("=", 1)[0] + "= " + draw(st.sampled_from(VALUE_POOL))
    return "\n".join(lines)


GAME_DIR = Path(tempfile.mkdtemp(prefix="daoyan-fuzz-"))


@fuzz(1000)
@given(mutated_toml(GAME_SEEDS))
def test_mutated_game_files(text: str) -> None:
    CASES["toml: mutated game files"] += 1
    try:
        game = parse_game(text, GAME_DIR / "game.toml")
    except DaoyanError as e:
        assert "game.toml" in str(e)  # the message names the file
        return
    asyncio.run(_open_client(game))  # what the file accepted, the scanner's client accepts too


async def _open_client(game) -> None:
    async with make_client(game):
        pass


# Each of these once reached a traceback (found by the properties above); now each is one clear error.
BAD_GAME_SNIPPETS = [
    ("top", "proxy = 3"), ("top", "proxy = [1]"), ("top", 'card = ["x"]'),
    ("top", 'proxy = [{day = 1, player = "青梅", target = "竹马", reason = 3}]'),
    ("top", 'card = [{day = 1, player = "青梅", card = "yellow", pid = "x"}]'),
    ("top", 'card = [{day = 1, player = "青梅", card = "yellow", reason = []}]'),
    ("[game]", "name = 5"), ("[game]", "rules_tid = -5"),
    ("[forum]", "retries = -1"), ("[forum]", "rate = nan"), ("[forum]", "rate = inf"), ("[forum]", "timeout = nan"),
    ("[[day]]", "election_tid = 99999999999999999999"), ("[[day]]", "number = -99999999999999999999"),
]


@pytest.mark.parametrize("where,line", BAD_GAME_SNIPPETS)
def test_values_that_once_crashed_are_game_file_errors(where: str, line: str) -> None:
    base = GAME_SEEDS[0]
    text = line + "\n" + base if where == "top" else base.replace(where + "\n", f"{where}\n{line}\n", 1)
    with pytest.raises(GameFileError):
        parse_game(text, GAME_DIR / "game.toml")


@fuzz(300)
@given(mutated_toml(RULESET_SEEDS))
def test_mutated_rulesets(text: str) -> None:
    CASES["toml: mutated rulesets"] += 1
    try:
        parse_ruleset(text, "fuzzed ruleset")
    except DaoyanError:
        pass


@fuzz(150)
@given(st.one_of(mutated_toml(GAME_SEEDS).map(lambda t: t.encode("utf-8")),
                 mutated_bytes([s.encode("utf-8") for s in GAME_SEEDS], max_ops=2)))
def test_bad_game_files_through_the_cli(content: bytes) -> None:
    """Whatever the file says, `daoyan votes` answers with one line and exit status 2 (here the
    store never exists, so a file that happens to be valid stops there): never a traceback."""
    CASES["cli: mutated game files"] += 1
    path = GAME_DIR / "cli" / "game.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(content)
    r = CliRunner().invoke(cli, ["votes", str(path), "--day", "1"])
    assert r.exit_code == 2, (r.output, r.exception)
    assert isinstance(r.exception, SystemExit)
    assert "Traceback" not in r.output and r.output.startswith("daoyan: ")


@pytest.fixture(scope="module")
def scanned_game() -> str:
    """The demo game scanned once into a store, as the text of its game file."""
    from daoyan.demo import DemoForum
    from gamedef.gamefile import load_game
    from daoyan.scan import scan_game

    from .reliability_support import fast_game

    folder = GAME_DIR / "scanned"
    with DemoForum(now=NOW) as forum:
        path = fast_game(folder, forum.base_url)
        scan_game(load_game(path))
    return path.read_text("utf-8")


@st.composite
def retyped_game(draw, text: str) -> str:
    """The scanned game's file with one to three values of the wrong type or range: most still
    load, so the day's whole analysis and reports run on them."""
    lines = text.split("\n")
    keyed = [j for j, ln in enumerate(lines) if re.match(r"\s*[\w.\"-]+\s*=", ln) and "base_url" not in ln]
    lines += draw(st.lists(st.sampled_from(EXTRA_TABLES), max_size=3))
    for _ in range(draw(st.integers(1, 3))):
        j = keyed[draw(st.integers(0, len(keyed) - 1))]
        key, old = lines[j].split("=", 1)
        old = old.strip()
        same_type = (INT_POOL if re.fullmatch(r"-?\d+", old) else DATE_POOL if re.match(r"\d{4}-", old)
                     else STR_POOL if old.startswith('"') else LIST_POOL if old.startswith("[") else VALUE_POOL)
        lines[j] = key + "= " + draw(st.sampled_from(same_type if draw(st.integers(0, 3)) else VALUE_POOL))
    return "\n".join(lines)


INT_POOL = ["0", "1", "2", "3", "-1", "21", "22", "31", "99", "2147483647", "9223372036854775807"]
DATE_POOL = ["2026-11-10T10:00:00", "2026-11-13T22:00:00", "2026-11-09T00:00:00", "2027-01-01T00:00:00",
             "2026-11-11T22:00:00", "2026-11-12T10:00:00+00:00", "2026-11-11T21:59:59"]
STR_POOL = ['"青梅"', '"霜降"', '"说书人"', '""', '"弃权"', '"out"', '"priest"', '"whistled"', '"accelerated"',
            '"m84"', '"004"', '"Asia/Tokyo"', '"UTC"', '"[/b]<script>"', '"\u202e青梅"']
LIST_POOL = ['["青梅", "竹马", "白露"]', '["说书人", "青梅"]', '["青梅"]', '["霜降", "白露", "竹马", "青梅", "小满"]']
EXTRA_TABLES = ['\n[[event]]\nday = 1\nkind = "whistled"\nplayer = "青梅"',
                '\n[[event]]\nday = 2\nkind = "out"\nplayer = "白露"\nat = 2026-11-12T12:00:00',
                '\n[[event]]\nday = 3\nkind = "priest"\nplayer = "竹马"',
                '\n[[event]]\nday = 1\nkind = "accelerated"',
                '\n[[proxy]]\nday = 1\nplayer = "大寒"\ntarget = "青梅"',
                '\n[[proxy]]\nday = 2\nplayer = "霜降"\ntarget = "弃权"\nchange = true',
                '\n[[card]]\nday = 1\nplayer = "青梅"\ncard = "red"\npid = 5',
                '\n[[card]]\nday = 2\nplayer = "竹马"\ncard = "yellow"']


@fuzz(150)
@given(data=st.data())
def test_odd_game_files_through_the_day_commands(scanned_game: str, data) -> None:
    """A file that loads runs the whole day (`report` writes every file) or stops with exit 2."""
    CASES["cli: odd game files with a store"] += 1
    text = data.draw(retyped_game(scanned_game))
    path = GAME_DIR / "scanned" / "game.toml"
    path.write_text(text, "utf-8")
    try:
        for args in (["report", str(path), "--day", "1", "--out", str(GAME_DIR / "scanned" / "out")],
                     ["votes", str(path), "--day", "2", "--json"]):
            r = CliRunner().invoke(cli, args)
            CASES[f"cli: odd game files with a store, {args[0]} exit {r.exit_code}"] += 1
            assert r.exit_code in (0, 2), (args, r.output, r.exception)
            assert r.exception is None or isinstance(r.exception, SystemExit), (args, r.exception)
            assert "Traceback" not in r.output
    finally:
        path.write_text(scanned_game, "utf-8")
