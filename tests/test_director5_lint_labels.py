"""Stranger director 5, item 4: `daoyan lint` reads a ballot written with traditional labels the way
the vote count does (parsers/ballot.py folds traditional characters to simplified, one for one).

M84 投票规则: 请严格依照投票格式或改票格式进行投票 … 特别地，投票格式中标点符号不区分全半角 — the format
is the labels; the count reads 投票對象 as 投票对象 (tests/test_ballot_stranger4.py), and lint, which
shows how a loose post would be read, must not call the same post talk.
004 游戏流程 投票规则: 明确说明投票对象和投票理由 … 投票格式有误的投票将算作废票.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from click.testing import CliRunner

from daoyan.cli import cli
from daoyan.linting import ballot_of, lint_lines
from gamedef.ruleset import load_ruleset
from parsers.ballot import parse_ballot
from parsers.models import Post

M84_FORMAT = "M84 投票规则：请严格依照投票格式或改票格式进行投票；投票格式或投票对象有误的票无效"
O04_FORMAT = "004 投票规则：明确说明投票对象和投票理由 … 投票格式有误的投票将算作废票"

# (ruleset, text, kind, target as written, problem codes, rule)
CASES = [
    ("m84", "投票對象：竹馬\n投票理由：跳得太早", "vote", "竹馬", [], M84_FORMAT),
    ("m84", "投票對象：竹馬", "vote", "竹馬", ["missing_reason"], M84_FORMAT),  # no simplified label at all
    ("m84", "【投票對象】：竹馬", "vote", "竹馬", ["missing_reason"], M84_FORMAT),
    ("m84", "改票對象：白露\n改票理由：想通了", "change", "白露", [], M84_FORMAT),
    ("m84", "改票對象：白露", "change", "白露", ["missing_reason"], M84_FORMAT),
    ("004", "投票對象：棄權\n投票理由：搞不清楚", "abstain", None, [], "004 投票规则：投票对象：弃权 / 投票理由：搞不清楚"),
    ("004", "投票對象：竹馬", "vote", "竹馬", ["missing_reason"], O04_FORMAT),
    ("004", "投票對象 竹馬", "vote", None, ["bad_format"], O04_FORMAT),  # a label with no colon: a bad ballot
    # the simplified spelling, as before
    ("m84", "投票对象：竹马", "vote", "竹马", ["missing_reason"], M84_FORMAT),
]


def parser_reading(text: str, preset: str) -> tuple | None:
    post = Post(tid=0, pid=0, floor=0, author="", uid=None, posted_at=datetime.now(timezone.utc),
                time_precision="second", message_html="", text=text)
    b = parse_ballot(post, load_ruleset(preset).vote, (), ())
    return None if b is None else (b.kind, b.written_target if b.kind != "abstain" else None)


@pytest.mark.parametrize("preset, text, kind, target, codes, rule", CASES)
def test_lint_reads_traditional_labels_as_the_count_does(preset, text, kind, target, codes, rule):
    rs = load_ruleset(preset)
    vote = ballot_of(text, rs)
    assert vote is not None, rule
    assert (vote["kind"], vote["target"]) == (kind, target), rule
    assert [p["code"] for p in vote["problems"]] == codes, rule
    # the same reading as the vote parser's
    assert parser_reading(text, preset) == (vote["kind"], vote["target"]), rule


@pytest.mark.parametrize("text", ["今天投票對手是誰", "對象是誰", "我覺得投票很難", "早上好"])
def test_talk_stays_talk(text):
    """A post that only mentions a word of a label is not read as a ballot."""
    rs = load_ruleset("m84")
    assert ballot_of(text, rs) is None
    assert json.loads(next(iter(lint_lines([json.dumps({"id": 1, "text": text})], rs))))["vote"] is None


def test_the_command_reads_them_too():
    lines = [{"id": "t1", "text": "投票對象：竹馬"}, {"id": "t2", "text": "改票對象：白露\n改票理由：想通了"},
             {"id": "s1", "text": "投票对象：竹马"}]
    stdin = "\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n"
    r = CliRunner().invoke(cli, ["lint", "--ruleset", "m84"], input=stdin)
    assert r.exit_code == 0, r.output
    out = {o["id"]: o["vote"] for o in map(json.loads, r.output.splitlines())}
    assert out["t1"]["kind"] == "vote" and out["t1"]["target"] == "竹馬"
    assert [p["code"] for p in out["t1"]["problems"]] == [p["code"] for p in out["s1"]["problems"]] == ["missing_reason"]
    assert out["t2"]["kind"] == "change" and out["t2"]["target"] == "白露" and out["t2"]["problems"] == []


def test_a_ruleset_with_its_own_labels_gets_their_traditional_spellings():
    """Rulesets are data: whatever the labels are, their folded spellings are read."""
    import dataclasses

    rs = load_ruleset("m84")
    own = dataclasses.replace(rs, vote=dataclasses.replace(rs.vote, target_label="票投给", reason_label="原因"))
    vote = ballot_of("票投給：竹馬\n原因：好", own)
    assert vote is not None and vote["kind"] == "vote" and vote["target"] == "竹馬"
