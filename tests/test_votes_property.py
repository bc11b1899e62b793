"""The count never depends on the order posts were fetched in, nor on how proxies are listed."""
from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from gamedef.gamefile import ProxyVote
from tests.test_votes_rules import C, P, PLAYERS, V, count, state, t

TARGETS = PLAYERS + ("弃权", "包仔", "豆浆")
AUTHORS = PLAYERS + ("路人甲", "导演A")


@st.composite
def threads(draw):
    """A vote thread of random ballots: votes, changes pointing at random floors, talk, proxies."""
    n = draw(st.integers(min_value=0, max_value=14))
    posts = []
    minute = 0
    for floor in range(2, n + 2):
        minute += draw(st.integers(min_value=0, max_value=400))  # equal times happen: the floor decides
        h, m = divmod(minute, 60)
        day, h = (1 + (10 + h) // 24, (10 + h) % 24)
        when = f"{min(day, 3)} {h:02d}:{m:02d}"
        author = draw(st.sampled_from(AUTHORS))
        shape = draw(st.sampled_from(["vote", "change", "talk", "proxy", "bad"]))
        target = draw(st.sampled_from(TARGETS))
        ref = draw(st.one_of(st.none(), st.integers(min_value=2, max_value=max(2, floor - 1))))
        if shape == "vote":
            text = V(target)
        elif shape == "change":
            text = C(target)
        elif shape == "proxy":
            text = f"【代投】{draw(st.sampled_from(PLAYERS))}\n" + V(target)
        elif shape == "bad":
            text = f"投票对象：{target}"
        else:
            text = "大家记得投票"
        posts.append(P(floor, author, text, when, quote=ref if draw(st.booleans()) else None,
                       reply=ref if draw(st.booleans()) else None))
    proxies = [ProxyVote(day=1, player=draw(st.sampled_from(PLAYERS)), target=draw(st.sampled_from(PLAYERS)),
                         at=t(f"2 {draw(st.integers(min_value=10, max_value=21)):02d}:30"), change=draw(st.booleans()))
               for _ in range(draw(st.integers(min_value=0, max_value=2)))]
    return posts, proxies


def _json(c) -> str:
    return json.dumps(c.to_json(), ensure_ascii=False, sort_keys=True)


@settings(max_examples=150, deadline=None)
@given(threads(), st.randoms(use_true_random=False), st.sampled_from(["m84", "004"]),
       st.sampled_from([None, "饺子", "包子"]))
def test_shuffled_posts_give_the_same_count(thread, rnd, preset, priest):
    posts, proxies = thread
    shuffled = list(posts)
    rnd.shuffle(shuffled)
    sp = list(proxies)
    rnd.shuffle(sp)
    st_ = state(priest=priest)
    a = count(posts, preset, st=st_, proxies=proxies)
    b = count(shuffled, preset, st=st_, proxies=sp)
    assert _json(a) == _json(b)


@settings(max_examples=100, deadline=None)
@given(threads(), st.randoms(use_true_random=False))
def test_count_invariants(thread, rnd):
    posts, proxies = thread
    c = count(posts, "m84", st=state(priest="饺子"), proxies=proxies)
    counted = [b for b in c.ballots if b.counted]
    assert len({b.voter for b in counted}) == len(counted)  # one standing ballot per voter
    assert all(b.valid for b in counted)
    assert sum(e.weight for e in c.tally) == sum(b.weight for b in counted if b.target is not None)
    assert [e.weight for e in c.tally] == sorted((e.weight for e in c.tally), reverse=True)
    # a ballot before close answers the vote thread — except a director's proxy that does not count, which is
    # no post of the player's (004 玩家须知 9 该票作废; M84 未回复投票帖者将被判罚黄牌)
    assert not (set(c.not_voted) & {b.voter for b in c.ballots if b.posted_at and b.posted_at <= c.closes
                                    and (b.valid or not b.proxy)})
    if c.outcome.out is not None:
        assert c.outcome.out == c.tally[0].target and c.outcome.tie == ()
    for b in c.ballots:
        assert b.valid or b.problems
