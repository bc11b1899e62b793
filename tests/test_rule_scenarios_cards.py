"""Scenario: a red card given at the review desk during the day (红牌罚下) takes effect at the
moment the director gave it, so the count applies `cards.red_resolves` as for a `[[card]]` with `at`.

M84 用语定义 出局: 白天红牌罚下导致的出局结算在投票结算之后执行 (after_vote: the ballot stands);
004 用语定义: 白天红牌罚下在被投票出局之前 (before_vote: the ejected player's ballot leaves the count)."""
from __future__ import annotations

import re
import sqlite3
from datetime import timedelta
from pathlib import Path

from daoyan import records
from daoyan.store import Store
from gamedef.gamefile import load_game
from gamedef.ruleset import load_ruleset

from .desk_support import cli_json, game, scanned  # noqa: F401  (fixtures)


def _use_ruleset(game_toml: Path, red_resolves: str) -> None:
    """Point the game at a copy of the M84 preset reading red cards the given way."""
    import importlib.resources as res
    text = res.files("gamedef.rulesets").joinpath("m84.toml").read_text("utf-8")
    text = re.sub(r'^red_resolves = "[a-z_]+"', f'red_resolves = "{red_resolves}"', text, flags=re.M)
    if red_resolves == "before_vote":  # 004's reading whole: the ejected player's earlier ballot leaves too
        text = re.sub(r'^ballot_before_out = "[a-z_]+"', 'ballot_before_out = "dropped"', text, flags=re.M)
    (game_toml.parent / "reading.toml").write_text(text, "utf-8")
    g = game_toml.read_text("utf-8")
    g = re.sub(r'^ruleset = .*$', 'ruleset = "reading.toml"', g, flags=re.M)
    game_toml.write_text(g, "utf-8")
    assert load_ruleset("reading.toml", game_toml.parent).cards.red_resolves == red_resolves


def _counted_voter(votes: dict) -> dict:
    return next(b for b in votes["ballots"] if b["counted"] and not b["proxy"] and b["target"])


def _give_red_now(game_toml: Path, player: str, now) -> None:
    g = load_game(game_toml)
    store = Store(g.store_path)
    try:
        records.add_card(store, g, day=1, player=player, card="red", rule="M84 违规判定 8(1)", reason="场外",
                         who="说书人", now=now)
    finally:
        store.close()


def test_a_desk_red_without_a_moment_is_dated_when_given_before_vote(game: Path) -> None:  # noqa: F811
    """004 reading: 白天红牌罚下在被投票出局之前 — the card given during the day, with no moment entered,
    takes the moment the director gave it: the ejected player's ballot leaves the count from then."""
    _use_ruleset(game, "before_vote")
    votes = cli_json("votes", str(game), "--day", "1", "--json")
    b = _counted_voter(votes)
    given = load_game(game).day(1).opens + (load_game(game).day(1).closes - load_game(game).day(1).opens) / 2
    from datetime import datetime
    t = datetime.fromisoformat(b["posted_at"])
    given = max(given, t + timedelta(minutes=1))
    _give_red_now(game, b["voter"], given)
    entry = [e for p in cli_json("cards", str(game), "--json")["players"] if p["player"] == b["voter"]
             for e in p["entries"] if e["source"] == "manual"]
    assert [e["at"] for e in entry] == [given.isoformat()]
    after = cli_json("votes", str(game), "--day", "1", "--json")
    ballot = next(x for x in after["ballots"] if x["pid"] == b["pid"])
    assert not ballot["counted"]
    assert "voter_out" in [p["code"] for p in ballot["problems"]]
    assert b["voter"] in after["outcome"]["red_carded"]


def test_a_desk_red_without_a_moment_after_vote_keeps_the_ballot(game: Path) -> None:  # noqa: F811
    """M84 白天红牌罚下导致的出局结算在投票结算之后执行: the same card leaves the ballot standing."""
    _use_ruleset(game, "after_vote")
    votes = cli_json("votes", str(game), "--day", "1", "--json")
    b = _counted_voter(votes)
    d = load_game(game).day(1)
    from datetime import datetime
    given = max(d.opens + (d.closes - d.opens) / 2, datetime.fromisoformat(b["posted_at"]) + timedelta(minutes=1))
    _give_red_now(game, b["voter"], given)
    after = cli_json("votes", str(game), "--day", "1", "--json")
    assert next(x for x in after["ballots"] if x["pid"] == b["pid"])["counted"]
    assert b["voter"] in after["outcome"]["red_carded"]


def test_a_desk_card_given_after_close_takes_effect_at_the_settlement(game: Path) -> None:  # noqa: F811
    d = load_game(game).day(1)
    votes = cli_json("votes", str(game), "--day", "1", "--json")
    b = _counted_voter(votes)
    _give_red_now(game, b["voter"], d.closes + timedelta(hours=2))
    entry = [e for p in cli_json("cards", str(game), "--json")["players"] if p["player"] == b["voter"]
             for e in p["entries"] if e["source"] == "manual"]
    assert [e["at"] for e in entry] == [None]


def test_an_older_stores_desk_card_takes_the_moment_it_was_given(game: Path) -> None:  # noqa: F811
    """A row written before cards carried `at`: its created_at inside the day is the moment it was given."""
    g = load_game(game)
    d = g.day(1)
    given = d.opens + timedelta(hours=3)
    _give_red_now(game, g.players[0], d.closes + timedelta(hours=2))  # creates the tables
    con = sqlite3.connect(g.store_path)
    con.execute("update director_cards set at = null, created_at = ?", [given.isoformat()])
    con.commit()
    con.close()
    entry = [e for p in cli_json("cards", str(game), "--json")["players"] if p["player"] == g.players[0]
             for e in p["entries"] if e["source"] == "manual"]
    assert [e["at"] for e in entry] == [given.isoformat()]
