"""`daoyan ruleset derive` reads `vote.ballot_before_out` from the rule post: whether the ballot of a player
who goes out in the middle of a day, cast before going out, still counts.

Each reading rests on a sentence, quoted where the field is written (TOML comment, JSON `sentence`) and in
`vote.ballot_before_out_rule`, which a ballot's message quotes:
- M84 `counts`: 用语定义 出局 — 除非特别说明，已公示出局的角色不允许在讨论帖、投票帖、进程帖中发言，不允许被选为技能或
  投票的目标 (only posting once out is barred; nothing takes back a ballot already cast);
- 004 `dropped`: 用语定义 出局 — 角色出局结算结束后，不能继续参与讨论、投票、行使特权 (an out role no longer takes part
  in the vote, which is counted at the day's end).
A post that says nothing of it leaves the base's reading, and the output says so.
"""
from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from daoyan.cli import cli
from daoyan.derive import derive, disagreements, to_json, to_toml, validated
from engine.votes import count_votes
from gamedef.ruleset import load_ruleset, parse_ruleset
from parsers.rule_post import read_rule_post

from .conftest import SHARED
from .test_director5_out_ballot import DAY, OUT_AT, POSTS, STATE

SEEDS = {"m84": "000_d8ae39a993ba21f6.txt", "004": "001_534010cfb8826d2e.txt"}

# (seed, reading, how it is read, the sentence that decides it, its section)
SEED_CASES = [
    ("m84", "counts", "inferred",
     "除非特别说明，已公示出局的角色不允许在讨论帖、投票帖、进程帖中发言，不允许被选为技能或投票的目标。", "用语定义 出局"),
    ("004", "dropped", "inferred", "角色出局结算结束后，不能继续参与讨论、投票、行使特权。", "用语定义 出局"),
]


def _seed(name: str) -> str:
    p = SHARED / "seeds" / SEEDS[name]
    if not p.is_file():
        pytest.skip("../shared/seeds is not beside this checkout")
    return p.read_text("utf-8")


def _above(toml_text: str, key: str) -> list[str]:
    """The comment lines right above `key = …` in the [vote] table."""
    lines = toml_text.splitlines()
    i = next(i for i, ln in enumerate(lines) if ln.startswith(f"{key} = "))
    j = i
    while j > 0 and lines[j - 1].startswith("#"):
        j -= 1
    return lines[j:i]


@pytest.mark.parametrize("seed, reading, how, sentence, section", SEED_CASES)
def test_each_seed_settles_it_by_its_own_sentence(seed, reading, how, sentence, section):
    text = _seed(seed)
    assert sentence in text  # the quote is the seed's own words
    d = derive(text)
    f = to_json(d)["fields"]["vote.ballot_before_out"]
    assert (f["value"], f["source"], f["sentence"], f["section"]) == (reading, how, sentence, section)
    assert f["note"]  # an inference says how it was drawn
    # the TOML: the sentence (and what it was read as) right above the field, as every derived field has it
    toml_text = to_toml(d)
    comment = _above(toml_text, "ballot_before_out")
    assert comment[0] == f"# 「{sentence}」 ({section})" and comment[1].startswith("#   read as: ")
    rs = validated(d)
    assert rs.vote.ballot_before_out == reading == load_ruleset(seed).vote.ballot_before_out
    # the citation a ballot's message quotes: the game's tag, the section, the sentence
    assert rs.vote.ballot_before_out_rule == f"{seed.upper()} {section}：{sentence.rstrip('。')}"


@pytest.mark.parametrize("seed, reading, how, sentence, section", SEED_CASES)
def test_the_post_wins_over_the_other_base(seed, reading, how, sentence, section):
    other = "004" if seed == "m84" else "m84"
    rs = validated(derive(_seed(seed), other))
    assert rs.vote.ballot_before_out == reading != load_ruleset(other).vote.ballot_before_out
    assert sentence.rstrip("。") in rs.vote.ballot_before_out_rule


@pytest.mark.parametrize("seed, reading, how, sentence, section", SEED_CASES)
def test_a_derived_ruleset_counts_the_ballot_as_its_preset_does(seed, reading, how, sentence, section):
    """包子 votes on day 1 and goes out at 15:00 on day 2: the derived ruleset counts (or drops) that ballot
    as the preset does, and the ballot's message quotes the post's sentence."""
    rs = validated(derive(_seed(seed)))
    mine = count_votes(POSTS, rules=rs, day=DAY, state=STATE, out_at={"包子": OUT_AT})
    theirs = count_votes(POSTS, rules=load_ruleset(seed), day=DAY, state=STATE, out_at={"包子": OUT_AT})
    b = next(x for x in mine.ballots if x.voter == "包子")
    assert b.counted is (reading == "counts") is next(x for x in theirs.ballots if x.voter == "包子").counted
    assert [(e.target, e.weight) for e in mine.tally] == [(e.target, e.weight) for e in theirs.tally]
    msg = next(p.message for p in b.problems if p.code in ("voter_out", "voter_out_ballot_counts"))
    assert sentence.rstrip("。") in msg and f"vote.ballot_before_out = {reading}" in msg


# other wordings a rule post may use: (sentence, reading, how); the first one a post matches decides
WORDINGS = [
    ("白天出局的角色，其出局前投出的票仍然有效。", "counts", "text"),
    ("出局者之前的票照常计入。", "counts", "text"),
    ("出局之前的投票不受影响。", "counts", "text"),
    ("出局角色的票不作废。", "counts", "text"),
    ("出局角色已投的票作废。", "dropped", "text"),
    ("出局者的选票不再有效。", "dropped", "text"),
    ("被红牌罚下的角色，其当天已投的票作废。", "dropped", "text"),
    ("白天出局者出局前的投票不再计入。", "dropped", "text"),
    ("已出局的玩家不能参与投票，也不允许被投票。", "dropped", "inferred"),
    ("出局的玩家不能再投票。", "dropped", "inferred"),
    ("出局角色没有投票权。", "dropped", "inferred"),
    ("出局角色的投票权取消。", "dropped", "inferred"),
    ("已经公示的出局角色不属于游戏范畴。", "dropped", "inferred"),
    ("禁止已出局角色在投票帖中发言。", "counts", "inferred"),
    ("已出局的玩家不允许在投票帖发言，也不允许被选为投票目标。", "counts", "inferred"),
    # the post says both: what it says of the ballot outright decides
    ("已出局的角色不允许在投票帖中发言。出局前投出的票作废。", "dropped", "text"),
    # a ban on taking part in the vote goes further than a ban on posting in the vote thread
    ("禁止已出局角色在讨论帖、投票帖、进程帖或规则帖中发言。\n角色出局后，不能继续参与讨论、投票。", "dropped", "inferred"),
]


@pytest.mark.parametrize("sentence, reading, how", WORDINGS)
def test_other_wordings(sentence, reading, how):
    f = read_rule_post(sentence).fields["vote.ballot_before_out"]
    assert (f.value, f.how) == (reading, how)
    assert f.sentence and f.sentence in sentence
    assert read_rule_post(sentence).fields["vote.ballot_before_out_rule"].value.endswith(f.sentence.rstrip("。"))


@pytest.mark.parametrize("sentence", [
    "出局后投的票无效。",            # a ballot posted once out: 诈尸 under either reading, says nothing of the earlier one
    "投给出局角色的票不再计入。",    # votes for the out role, not the role's own
    "出局角色得到的票作废。",
    "已出局角色仍可被判罚。",
    "平票则无人出局。",
])
def test_sentences_that_do_not_settle_it(sentence):
    assert "vote.ballot_before_out" not in read_rule_post(sentence).fields


SILENT = "[K1]『无声』规则帖\n投票规则\n投票对象：饺子\n投票理由：饺子好吃\n改票只允许进行一次。\n"


@pytest.mark.parametrize("base", ["m84", "004"])
def test_a_post_that_says_nothing_keeps_the_bases_reading_and_says_so(base):
    d = derive(SILENT, base)
    assert "vote.ballot_before_out" not in d.reading.fields
    rs = validated(d)
    preset = load_ruleset(base)
    assert (rs.vote.ballot_before_out, rs.vote.ballot_before_out_rule) == \
        (preset.vote.ballot_before_out, preset.vote.ballot_before_out_rule)
    comment = _above(to_toml(d), "ballot_before_out")
    assert comment == [f"# from {base}: the post does not settle it",
                       "#   the post says nothing of a ballot cast by a player who then goes out mid-day; "
                       "this is the base's reading"]
    f = to_json(d)["fields"]["vote.ballot_before_out"]
    assert f["source"] == "base" and f["base"] == base and f["value"] == preset.vote.ballot_before_out
    assert "says nothing" in f["note"]


def test_a_base_file_without_the_field_gives_the_rulesets_default_stated(tmp_path: Path):
    """A ruleset file written before the field: the derived TOML still states the reading, as the default."""
    old = to_toml(derive(SILENT, "004"))
    old = "\n".join(ln for ln in old.splitlines() if "ballot_before_out" not in ln) + "\n"
    base = tmp_path / "old.toml"
    base.write_text(old, "utf-8")
    assert "ballot_before_out" not in tomllib.loads(old).get("vote", {})
    d = derive(SILENT, str(base))
    text = to_toml(d)
    assert tomllib.loads(text)["vote"]["ballot_before_out"] == "dropped" == parse_ruleset(old, "old").vote.ballot_before_out
    assert _above(text, "ballot_before_out") == [
        f"# the post does not settle it; {base} does not set it either: the ruleset's default"]
    f = to_json(d)["fields"]["vote.ballot_before_out"]
    assert (f["value"], f["source"]) == ("dropped", "default") and "ruleset's default" in f["note"]


def test_through_the_cli(tmp_path: Path):
    seed = SHARED / "seeds" / SEEDS["004"]
    if not seed.is_file():
        pytest.skip("../shared/seeds is not beside this checkout")
    out = tmp_path / "rules.toml"
    r = CliRunner().invoke(cli, ["ruleset", "derive", str(seed), "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert parse_ruleset(out.read_text("utf-8"), "rules").vote.ballot_before_out == "dropped"
    r = CliRunner().invoke(cli, ["ruleset", "derive", str(seed), "--json"])
    f = json.loads(r.output)["fields"]["vote.ballot_before_out"]
    assert f["sentence"] == SEED_CASES[1][3]
    post = tmp_path / "silent.txt"
    post.write_text(SILENT, "utf-8")
    r = CliRunner().invoke(cli, ["ruleset", "derive", str(post), "--base", "m84"])
    assert r.exit_code == 0 and 'ballot_before_out = "counts"' in r.output and "says nothing" in r.output


def test_scan_warns_when_the_rules_thread_reads_the_other_way():
    """A game on the m84 preset whose rules thread says 004's sentence: one disagreement, on the reading
    (its citation is wording, never a disagreement of its own)."""
    reading = read_rule_post("出局\n角色出局结算结束后，不能继续参与讨论、投票、行使特权。")
    got = [x.field for x in disagreements(load_ruleset("m84"), reading)]
    assert got == ["vote.ballot_before_out"]
    assert disagreements(load_ruleset("004"), reading) == []
