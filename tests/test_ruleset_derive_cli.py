"""`daoyan ruleset derive` through the CLI: text file or scanned game in, a loadable ruleset TOML
(every field commented with its sentence or its base) or JSON out; bad input is one message and
exit status 2."""
from __future__ import annotations

import dataclasses
import json
import tomllib
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

from daoyan.cli import cli
from gamedef.ruleset import load_ruleset, parse_ruleset
from daoyan.store import Store
from parsers.models import Post

from .conftest import SHARED

DATA = Path(__file__).parent / "data" / "rule_posts"
M84_SEED = SHARED / "seeds" / "000_d8ae39a993ba21f6.txt"


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_text_file_to_commented_toml(tmp_path: Path) -> None:
    out = tmp_path / "k12.toml"
    res = run("ruleset", "derive", str(DATA / "k12.txt"), "--out", str(out))
    assert res.exit_code == 0, res.output
    text = out.read_text("utf-8")
    rs = parse_ruleset(text, "k12")
    assert rs.vote.max_changes == 2 and rs.vote.lock_minutes == 30 and rs.cite == "K12"
    lines = text.splitlines()
    # every field line sits under its source: a quoted sentence, a base, or the note that the post never says it
    for i, line in enumerate(lines):
        if "=" in line and not line.startswith("#") and not lines[i - 1].startswith("[[lurking]]") \
                and not any(lines[j].startswith("[[lurking]]") for j in range(max(0, i - 7), i)):
            above = lines[i - 1]
            assert above.startswith("#"), f"no source comment above {line!r}"
    assert "# 「投票后可以改票两次，改票时须引用或回复原投票楼层。」" in text
    assert "the post does not settle it" in text  # fields from the base are marked so


def test_json_gives_each_field_its_sentence() -> None:
    res = run("ruleset", "derive", str(DATA / "q7.txt"), "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    f = doc["fields"]["vote.max_changes"]
    assert f == {"value": 0, "source": "text", "sentence": "每人每天限投一票，投票后不允许改票。", "section": "投票"}
    assert doc["fields"]["vote.proxy_marker"]["source"] == "base"
    assert doc["fields"]["weights.priest"]["source"] == "absent"
    assert [lr["threshold"] for lr in doc["lurking"] if lr["kind"] == "posts_below"] == [15, 3]
    assert all(lr["sentence"] for lr in doc["lurking"])


def test_base_is_named_and_used(tmp_path: Path) -> None:
    res = run("ruleset", "derive", str(DATA / "q7.txt"), "--base", "004", "--json")
    doc = json.loads(res.output)
    assert doc["base"] == "004"
    assert doc["fields"]["vote.change_reference"] == {"value": ["quote"], "source": "base", "base": "004"}


def test_seed_through_the_cli_matches_the_preset() -> None:
    if not M84_SEED.is_file():
        pytest.skip("../shared/seeds is not beside this checkout")
    res = run("ruleset", "derive", str(M84_SEED))
    assert res.exit_code == 0
    derived = parse_ruleset(res.output, "derived")
    preset = load_ruleset("m84")
    # the citation of vote.ballot_before_out quotes the post's own sentence; the preset's is written by hand
    assert "已公示出局的角色不允许在讨论帖、投票帖、进程帖中发言" in derived.vote.ballot_before_out_rule
    same_cite = dataclasses.replace(derived.vote, ballot_before_out_rule=preset.vote.ballot_before_out_rule)
    assert same_cite == preset.vote and derived.weights == preset.weights
    assert derived.election == preset.election and derived.cards == preset.cards
    assert derived.acceleration == preset.acceleration and derived.schedule == preset.schedule
    assert [(lr.kind, lr.threshold, lr.days, lr.card, lr.rule) for lr in derived.lurking] == \
        [(lr.kind, lr.threshold, lr.days, lr.card, lr.rule) for lr in preset.lurking]


@pytest.mark.parametrize("content,expect", [
    (None, "no such file"),
    ("", "empty"),
    (b"\xff\xfe\x00bad", "not UTF-8"),
])
def test_bad_sources_exit_2(tmp_path: Path, content, expect: str) -> None:
    p = tmp_path / "post.txt"
    if isinstance(content, bytes):
        p.write_bytes(content)
    elif content is not None:
        p.write_text(content, "utf-8")
    res = CliRunner().invoke(cli, ["ruleset", "derive", str(p)])
    assert res.exit_code == 2 and expect in res.output and "Traceback" not in res.output


def test_bad_base_exit_2() -> None:
    res = CliRunner().invoke(cli, ["ruleset", "derive", str(DATA / "q7.txt"), "--base", "nope"])
    assert res.exit_code == 2 and "--base" in res.output


GAME = """[forum]
base_url = "http://127.0.0.1:9/"

[game]
ruleset = "m84"
players = ["饺子", "包子"]
directors = ["导演A"]
rules_tid = 1

[[day]]
number = 1
discussion_tid = 3
vote_tid = 4
opens = 2026-11-26T10:00:00
closes = 2026-11-27T22:00:00
"""


def _post(tid: int, floor: int, author: str, text: str) -> Post:
    t = datetime(2026, 11, 25, 20, 0, tzinfo=timezone(timedelta(hours=8))) + timedelta(minutes=floor)
    return Post(tid=tid, pid=100 + floor, floor=floor, author=author, uid=1, posted_at=t, time_precision="second",
                message_html=text, text=text, first=floor == 1)


def test_scanned_rules_thread_is_a_source(tmp_path: Path) -> None:
    game = tmp_path / "game.toml"
    game.write_text(GAME, "utf-8")
    with Store(tmp_path / "game.sqlite") as store:
        store.set_thread(tid=1, subject="[K12]『山海经』规则帖")
        store.save_posts([
            _post(1, 1, "导演A", "投票规则\n投票后可以改票两次。\n关门前半个小时内不得改票。"),
            _post(1, 2, "导演A", "潜水\n（1）任一讨论日发言少于３帖，判罚一张蓝牌"),
            _post(1, 3, "饺子", "投票后可以改票五次。"),  # a player's reply is not the rule post
        ], "html")
    res = run("ruleset", "derive", str(game), "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["fields"]["vote.max_changes"]["value"] == 2
    assert doc["fields"]["vote.lock_minutes"]["value"] == 30
    assert doc["name"] == "k12"
    assert doc["lurking"][0]["threshold"] == 3 and doc["lurking"][0]["section"] == "潜水"


def test_game_without_scan_says_so(tmp_path: Path) -> None:
    game = tmp_path / "game.toml"
    game.write_text(GAME, "utf-8")
    res = CliRunner().invoke(cli, ["ruleset", "derive", str(game)])
    assert res.exit_code == 2 and "daoyan scan" in res.output


def test_derived_toml_is_valid_toml_for_every_post() -> None:
    for p in DATA.glob("*.txt"):
        res = run("ruleset", "derive", str(p))
        tomllib.loads(res.output)


def test_scan_warns_where_the_ruleset_disagrees_with_the_rules_thread(tmp_path: Path, capsys) -> None:
    from daoyan.commands.scan import _warn_rules
    from gamedef.gamefile import load_game

    game = tmp_path / "game.toml"
    game.write_text(GAME, "utf-8")  # ruleset m84: 改票只允许进行一次, 关门前一小时
    with Store(tmp_path / "game.sqlite") as store:
        store.set_thread(tid=1, subject="[K12] 规则帖")
        store.save_posts([_post(1, 1, "导演A", "投票规则\n投票后可以改票两次。\n关门前一小时不允许改票。\n警长的票计为两票。")],
                         "html")
    _warn_rules(load_game(game))
    err = capsys.readouterr().err.splitlines()
    assert any("vote.max_changes: the game's ruleset says 1, the rules thread says 2 (「投票后可以改票两次。」" in e
               for e in err)
    assert any("weights.priest: the game's ruleset says 1.5, the rules thread says 2.0" in e for e in err)
    assert not any("vote.lock_minutes" in e for e in err)  # 关门前一小时: they agree
    assert not any("whistle" in e for e in err)  # the thread's silence on whistles is no disagreement
    assert "2 rule(s) of the rules thread differ" in err[-1]


def test_scan_is_quiet_when_they_agree(tmp_path: Path, capsys) -> None:
    from daoyan.commands.scan import _warn_rules
    from gamedef.gamefile import load_game

    game = tmp_path / "game.toml"
    game.write_text(GAME, "utf-8")
    with Store(tmp_path / "game.sqlite") as store:
        store.set_thread(tid=1, subject="[M84] 规则帖")
        store.save_posts([_post(1, 1, "导演A", "改票只允许进行一次。关门前一小时不允许改票或代投。")], "html")
    _warn_rules(load_game(game))
    assert capsys.readouterr().err == ""
