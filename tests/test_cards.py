"""The card ledger: merging upwards, red cards, camps, green cards, cards on the dead (判罚制度 of both seeds)."""
from __future__ import annotations

import json

from hypothesis import given, strategies as st

from gamedef.gamefile import ManualCard
from gamedef.ruleset import load_ruleset
from engine.cards import CardEntry, entries_from_penalties, entry_from_manual, ledger
from engine.lurking import DayRecord, lurking_penalties

M84 = load_ruleset("m84")
R004 = load_ruleset("004")


def card(player: str, colour: str, day: int = 1, source: str = "flag") -> CardEntry:
    return CardEntry(player=player, card=colour, day=day, rule="M84 违规判定 2(3)", reason="test", source=source,
                     pid=100 + day, floor=day)


def test_three_blues_make_a_yellow_and_the_rest_carries():
    lg = ledger([card("包子", "blue", d) for d in (1, 1, 2, 3)], ruleset=M84)
    p = lg.of("包子")
    assert (p.blue, p.yellow, p.reds, p.ejected) == (1, 1, 0, False)
    assert [m.to_json() for m in p.merges] == [{"day": 2, "from": "blue", "to": "yellow", "count": 3}]
    assert p.given["blue"] == 4


def test_three_yellows_make_a_red_which_ejects():
    lg = ledger([card("包子", "yellow", d) for d in (1, 2, 3)], ruleset=M84)
    p = lg.of("包子")
    assert (p.yellow, p.reds, p.ejected, p.ejected_day, p.resolves) == (0, 1, True, 3, "after_vote")
    assert lg.ejected == ("包子",)


def test_blues_climb_all_the_way_to_red():
    lg = ledger([card("包子", "blue", 1)] * 6 + [card("包子", "yellow", 2)], ruleset=M84)
    p = lg.of("包子")
    assert (p.blue, p.yellow, p.reds, p.ejected_day) == (0, 0, 1, 2)


def test_004_red_resolves_before_the_vote():
    lg = ledger([card("包子", "red", 2)], ruleset=R004)
    assert lg.of("包子").resolves == "before_vote" and lg.of("包子").red_days == (2,)


def test_m84_two_reds_in_one_camp_is_reported():
    camps = {"包子": "人造人", "馄饨": "人造人", "饺子": "裁判"}
    lg = ledger([card("包子", "red", 1), card("饺子", "red", 1)], ruleset=M84, camps=camps)
    assert lg.camp_alerts == ()
    lg = ledger([card("包子", "red", 1), card("饺子", "red", 1), card("馄饨", "red", 2)], ruleset=M84, camps=camps)
    (alert,) = lg.camp_alerts
    assert (alert.camp, alert.reds, alert.players) == ("人造人", 2, ("包子", "馄饨"))


def test_004_has_no_fixed_camp_limit():
    camps = {"包子": "a", "馄饨": "a"}
    lg = ledger([card("包子", "red"), card("馄饨", "red")], ruleset=R004, camps=camps)
    assert lg.camp_alerts == () and lg.camps[0].reds == 2


def test_green_records_no_violation_and_never_merges():
    lg = ledger([card("包子", "green", d) for d in range(1, 10)], ruleset=R004)
    p = lg.of("包子")
    assert (p.green, p.blue, p.yellow, p.reds, p.ejected) == (9, 0, 0, 0, False)


def test_green_is_not_a_card_of_m84():
    lg = ledger([card("包子", "green")], ruleset=M84)
    assert lg.of("包子") is None and len(lg.not_counted) == 1


def test_cards_on_dead_players_still_count():
    lg = ledger([card("月饼", "yellow", d) for d in (1, 3, 4)], ruleset=M84, out_day={"月饼": 2})
    assert lg.of("月饼").reds == 1


def test_a_ruleset_not_counting_cards_on_the_dead():
    import dataclasses
    rs = dataclasses.replace(M84, cards=dataclasses.replace(M84.cards, cards_on_dead_count=False))
    lg = ledger([card("月饼", "yellow", d) for d in (1, 3, 4)], ruleset=rs, out_day={"月饼": 2})
    assert lg.of("月饼").yellow == 1 and len(lg.not_counted) == 2


def test_lurking_and_manual_cards_enter_the_ledger():
    pens = lurking_penalties([DayRecord(day=1, accelerated=False, living=frozenset({"包子"}), posts={"包子": 2},
                                        voted=frozenset())], ruleset=M84)
    es = entries_from_penalties(pens) + [entry_from_manual(ManualCard(day=1, player="包子", card="yellow",
                                                                      rule="违规判定 2(3)", reason="骂人", pid=77), M84)]
    lg = ledger(es, ruleset=M84)
    p = lg.of("包子")
    assert p.reds == 1 and p.ejected_day == 1
    assert {e.source for e in p.entries} == {"lurking", "manual"}
    assert any(e.pid == 77 and e.rule == "M84 违规判定 2(3)" for e in p.entries)
    json.dumps(lg.to_json(), ensure_ascii=False)


@given(st.lists(st.sampled_from(["blue", "yellow", "red"]), max_size=30), st.randoms())
def test_totals_do_not_depend_on_order_within_a_day(colours, rnd):
    es = [card("包子", c) for c in colours]
    shuffled = list(es)
    rnd.shuffle(shuffled)
    a, b = ledger(es, ruleset=M84).of("包子"), ledger(shuffled, ruleset=M84).of("包子")
    if a is None:
        assert b is None
        return
    assert (a.blue, a.yellow, a.reds) == (b.blue, b.yellow, b.reds)
    # nothing is lost: every card is worth its blues
    value = {"blue": 1, "yellow": 3, "red": 9}
    assert a.blue + 3 * a.yellow + 9 * a.reds == sum(value[c] for c in colours)
