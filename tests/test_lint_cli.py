"""`daoyan lint`: one line out per line in, in order, the same flags batched as one by one."""
from __future__ import annotations

import json

from click.testing import CliRunner

from daoyan.cli import cli
from daoyan.linting import lint_lines
from gamedef.ruleset import load_ruleset
from moderation.checker import lint_record

RECORDS = [
    {"id": "a", "text": "我对天发誓我是好人"},
    {"id": "b", "text": "导演辛苦了", "whistled": False},
    {"id": "c", "html": '<font color="#FF0000">归票</font>饺子'},
    {"id": "d", "text": "嘻嘻嘻", "whistled": True},
    {"id": "e", "text": "投票对象：包子\n投票理由：跳得太早"},
]


def test_batched_equals_one_by_one() -> None:
    rs = load_ruleset("m84")
    lines = [json.dumps(r, ensure_ascii=False) for r in RECORDS]
    for chunk in (1, 2, 512):
        got = [json.loads(x) for x in lint_lines(lines, rs, chunk=chunk)]
        assert [g["flags"] for g in got] == [lint_record(r, rs)["flags"] for r in RECORDS]
    got = [json.loads(x) for x in lint_lines(lines, rs)]
    assert got[4]["vote"] == {"kind": "vote", "target": "包子", "reason": "跳得太早", "problems": []}
    assert [f["category"] for f in got[3]["flags"]] == ["whistle_breach"]
    assert [f["category"] for f in got[2]["flags"]] == ["font"]


def test_cli_reads_stdin_and_reports_bad_lines() -> None:
    stdin = '{"id": "x1", "text": "卧槽"}\nnot json\n\n{"id": "x2", "text": "早上好"}\n'
    r = CliRunner().invoke(cli, ["lint", "--ruleset", "004"], input=stdin)
    assert r.exit_code == 0, r.output
    out = [json.loads(x) for x in r.output.splitlines()]
    assert [o.get("id") for o in out] == ["x1", None, "x2"]
    assert out[0]["flags"][0]["rule"] == "004 违规判定 1(1)" and "error" in out[1] and out[2]["flags"] == []


def test_unknown_ruleset_is_exit_two() -> None:
    r = CliRunner().invoke(cli, ["lint", "--ruleset", "m99"], input="")
    assert r.exit_code == 2 and "m99" in r.output


def test_a_record_it_cannot_read_is_an_error_never_an_empty_list_of_flags() -> None:
    """A post whose text is missing, not text, or not UTF-8 must not come out as 'no flags':
    the director would read that as a clean post. Each gets an error on its own line, by id
    where it has one, and the lines after it are still checked."""
    stdin = (b'{"id": "n1", "text": 5}\n'
             b'{"id": "n2"}\n'
             b'\xff\xfe not utf-8\n'
             b'{"id": "n3", "text": "\xe5\x8d\xa7\xe6\xa7\xbd", "whistled": "yes"}\n'
             b'{"id": "ok", "text": "\xe5\x8d\xa7\xe6\xa7\xbd"}\r\n')
    r = CliRunner().invoke(cli, ["lint", "--ruleset", "m84"], input=stdin)
    assert r.exit_code == 0, r.output
    out = [json.loads(x) for x in r.output.splitlines()]
    assert [(o["id"], o.get("line")) for o in out] == [("n1", 1), ("n2", 2), (None, 3), ("n3", 4), ("ok", None)]
    assert all("flags" not in o and o["error"].startswith(f"line {o['line']}: ") for o in out[:4])
    assert "UTF-8" in out[2]["error"] and "whistled" in out[3]["error"]
    assert [f["category"] for f in out[4]["flags"]] == ["vulgar_body"]


def test_a_lone_surrogate_is_checked_around_and_the_id_comes_back_as_given() -> None:
    """JSON can spell half a surrogate pair; that must not stop the run (it did, with a traceback)."""
    lines = '{"id": "\\ud800x", "text": "\\ud800 傻逼 \\ud83d\\ude00"}\n{"id": "b", "html": "<p>\\udfff</p>"}\n'
    r = CliRunner().invoke(cli, ["lint", "--ruleset", "m84"], input=lines.encode())
    assert r.exit_code == 0, r.output
    first, second = (json.loads(x) for x in r.output.splitlines())
    assert first["id"] == "\ud800x"
    assert [(f["category"], f["evidence"], f["span"]) for f in first["flags"]] == [("insult", "傻逼", [2, 4])]
    assert second == {"id": "b", "flags": [], "vote": None}
