"""Activity and lurking cards on the genuine Discuz X3.5 capture, against its ground truth."""
from __future__ import annotations

from datetime import datetime

import pytest

from gamedef.gamefile import load_game
from engine.acceleration import acceleration
from engine.activity import activity_json, count_activity
from engine.lurking import day_record, lurking_penalties
from engine.state import out_during, state_at
from parsers.models import Post


def _post(tid: int, f: dict) -> Post:
    return Post(tid=tid, pid=f["pid"], floor=f["floor"], author=f["author"], uid=None,
                posted_at=datetime.fromisoformat(f["posted_at"]), time_precision="second",
                message_html="", text=f["text"], smilies=f.get("smilies", 0), hidden=f["hidden"])


@pytest.fixture(scope="module")
def game(captures):
    return load_game(captures / "x35-utf8" / "game.toml")


def _threads(truth: dict, day: int) -> dict[str, list[Post]]:
    return {t["role"]: [_post(t["tid"], f) for f in t["floors"]]
            for t in truth["threads"] if t["day"] == day}


def _voted(truth: dict, game, day: int, living) -> set[str]:
    d = game.day(day)
    out = set()
    for t in truth["threads"]:
        if t["day"] == day and t["role"] == "vote":
            for f in t["floors"]:
                b = f.get("ballot")
                if b and b["voter"] in living and d.opens <= datetime.fromisoformat(f["posted_at"]) <= d.closes:
                    out.add(b["voter"])
    return out


def _run_days(truth, game, upto: int):
    records, results = [], {}
    for n in range(1, upto + 1):
        d, st = game.day(n), state_at(game, n)
        threads = _threads(truth, n)
        act = count_activity(threads, ruleset=game.ruleset, day=d, state=st, out_at=out_during(game, n))
        acc = acceleration(threads.get("progress", []), ruleset=game.ruleset, day=d, state=st)
        voted = _voted(truth, game, n, st.living)
        records.append(day_record(act, accelerated=acc.accelerated, voted=voted,
                                  whistled=st.whistled, excused=st.excused))
        results[n] = (act, acc, voted, lurking_penalties(records, ruleset=game.ruleset))
    return results


@pytest.mark.parametrize("day", [1, 2])
def test_posts_per_player_match_ground_truth(truth, game, day):
    act, _, _, _ = _run_days(truth, game, day)[day]
    want = truth["game"]["days"][str(day)]
    assert act.posts == want["posts"]
    assert act.counted == want["posts"]  # M84 counts water as posts
    assert [p.player for p in act.players] == want["players"]


@pytest.mark.parametrize("day", [1, 2])
def test_penalties_match_ground_truth(truth, game, day):
    _, acc, _, pens = _run_days(truth, game, day)[day]
    want = truth["game"]["days"][str(day)]
    assert acc.accelerated is want["accelerated"]
    got = sorted((p.player, p.card, p.rule) for p in pens)
    assert got == sorted((p["player"], p["card"], p["rule"]) for p in want["penalties"])
    for p in pens:
        assert p.reason and str(day) in p.reason


def test_uncounted_posts_say_why(truth, game):
    act, _, _, _ = _run_days(truth, game, 2)[2]
    why = {(u.pid, u.why) for u in act.uncounted}
    assert (178, "out") in why  # 包子 posts on day 2 after going out (诈尸)
    assert (161, "not_a_player") in why  # the director's opening post
    act1, _, _, _ = _run_days(truth, game, 1)[1]
    why1 = {(u.pid, u.player, u.why) for u in act1.uncounted}
    assert (124, "饺子", "after_close") in why1
    assert (18, "路人甲", "not_a_player") in why1


def test_hidden_post_still_counts(truth, game):
    act, _, _, _ = _run_days(truth, game, 2)[2]
    assert 181 not in {u.pid for u in act.uncounted}  # 饺子's hidden floor is one of his 16


def test_whistled_player_not_penalised_for_not_voting(truth, game):
    _, _, voted, pens = _run_days(truth, game, 2)[2]
    assert "烧卖" not in voted
    assert "烧卖" not in {p.player for p in pens}


def test_progress_thread_day1_not_enough(truth, game):
    _, acc, _, _ = _run_days(truth, game, 1)[1]
    assert acc.requests == ("麻花", "锅贴")  # 饺子's 反对加速 is not a request
    assert (acc.living, acc.needed, acc.source) == (12, 6, "thread")


@pytest.mark.parametrize("day", [1, 2])
def test_activity_json_shape(truth, game, day):
    act, acc, voted, pens = _run_days(truth, game, day)[day]
    js = activity_json(act, pens, voted, acc)
    want = truth["game"]["days"][str(day)]
    assert js["day"] == day
    for row in js["players"]:
        assert set(row) >= {"player", "posts", "counted_posts", "voted"}
        assert row["posts"] == want["posts"][row["player"]]
        assert row["voted"] == (row["player"] not in want["not_voted"])
    for p in js["penalties"]:
        assert set(p) >= {"player", "card", "rule", "reason"}
    assert all(set(u) >= {"pid", "floor", "player", "why"} for u in js["uncounted"])
