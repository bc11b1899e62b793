"""How the store keeps posts: words that change become revisions, an API read of a floor already
read from its page only sharpens the time, and a page's posts are stored as a whole."""
from __future__ import annotations

from dataclasses import asdict, replace
from datetime import datetime, timedelta, timezone

from daoyan.store import Store
from parsers.models import EditMark, Post, Quote, ReplyRef

TZ = timezone(timedelta(hours=8))


def post(pid: int, text: str, *, precision: str = "minute", second: int = 0) -> Post:
    return Post(tid=7, pid=pid, floor=pid, author=f"p{pid}", uid=pid,
                posted_at=datetime(2026, 11, 27, 18, 5, second, tzinfo=TZ), time_precision=precision,
                message_html=text, text=text)


def rows(store: Store, sql: str) -> list[tuple]:
    return store.db.execute(sql).fetchall()


def test_to_row_is_asdict_flattened():
    p = replace(post(1, "投票：饺子"), quotes=[Quote(5, "b")], reply_to=ReplyRef(6, 7, "c"),
                edit=EditMark("e", datetime(2026, 11, 27, 18, 6, tzinfo=TZ)), colors=["red"], sizes=["7"],
                links=["http://x"])
    want = asdict(p)
    want.pop("edit")
    want.update(posted_at=p.posted_at.isoformat(), edited=True, edited_by="e", edited_at="2026-11-27T18:06:00+08:00")
    assert p.to_row() == want
    row = p.to_row()
    row["colors"].append("blue")
    assert p.colors == ["red"], "the row is a copy"


def test_changed_words_become_revisions_even_within_one_batch(tmp_path):
    with Store(tmp_path / "g.sqlite") as store:
        assert store.save_posts([post(1, "a"), post(2, "b")], "html") == (2, 0)
        assert store.save_posts([post(1, "a2"), post(1, "a3"), post(2, "b")], "html") == (0, 2)
        assert rows(store, "select pid, rev, text from revisions order by pid, rev") == [
            (1, 1, "a"), (1, 2, "a2"), (1, 3, "a3"), (2, 1, "b")]
        assert rows(store, "select pid, revision, text from posts order by pid") == [(1, 3, "a3"), (2, 1, "b")]


def test_an_api_read_sharpens_the_time_and_keeps_the_page_read(tmp_path):
    with Store(tmp_path / "g.sqlite") as store:
        store.save_posts([post(1, "a"), post(2, "b")], "html")
        api = [post(1, "a", precision="second", second=42), post(2, "b changed", precision="second", second=9)]
        assert store.save_posts(api, "api") == (0, 1)
        got = rows(store, "select pid, posted_at, time_precision, source, revision from posts order by pid")
        assert got == [(1, "2026-11-27T18:05:42+08:00", "second", "html", 1),
                       (2, "2026-11-27T18:05:09+08:00", "second", "api", 2)]
        # a later page read, to the minute, keeps the second the API gave
        store.save_posts([post(1, "a")], "html")
        assert rows(store, "select posted_at, time_precision from posts where pid=1") == [
            ("2026-11-27T18:05:42+08:00", "second")]


def test_a_post_seen_again_is_no_longer_gone(tmp_path):
    with Store(tmp_path / "g.sqlite") as store:
        store.save_posts([post(1, "a")], "html")
        assert store.mark_gone([1]) == 1
        store.save_posts([post(1, "a", precision="second")], "api")
        assert rows(store, "select gone_at from posts where pid=1") == [(None,)]


def test_many_posts_in_one_batch(tmp_path):
    with Store(tmp_path / "g.sqlite") as store:
        many = [post(i, f"第{i}楼") for i in range(1, 1203)]
        assert store.save_posts(many, "html") == (1202, 0)
        assert store.save_posts(many, "api") == (0, 0)
        assert rows(store, "select count(*) from revisions") == [(1202,)]
