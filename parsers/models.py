"""Records the parsers produce: what one floor of a Discuz thread says, independent of how it was read.

A `Post` read from a desktop page and one read from the mobile API must compare equal on every
field the game needs, so the rest of daoyan never asks where a post came from.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class Quote:
    """A `[quote]` block: the floor it quotes (pid from its findpost link) and that floor's author."""

    pid: int | None
    author: str | None


@dataclass(frozen=True)
class ReplyRef:
    """A `回复 N# name` header (the reply button of older Discuz): the floor it answers."""

    pid: int | None
    floor: int | None
    author: str | None


@dataclass(frozen=True)
class EditMark:
    """The `本帖最后由 X 于 T 编辑` marker a desktop page shows on an edited post.

    `at` is the time the forum printed, read in the forum's zone (minutes only); None when the
    marker's time could not be read. Votes judge an edit by it (inside the lock, after close), not
    by when a scan happened to see the new words."""

    editor: str
    at: datetime | None  # aware, in the forum's zone


def edit_time(value: Any, posted_at: datetime | None = None) -> datetime | None:
    """An edit time read back from the store: ISO with its offset; a bare local time (a store
    written before edit times were kept as times) takes the zone of the post's own time, which the
    forum printed in the same zone."""
    if not value or not isinstance(value, str):
        return None
    try:
        t = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    if t.tzinfo is None:
        if posted_at is None or posted_at.tzinfo is None:
            return None
        t = t.replace(tzinfo=posted_at.tzinfo)
    return t


@dataclass
class Post:
    """One floor of a thread."""

    tid: int
    pid: int
    floor: int
    author: str
    uid: int | None
    posted_at: datetime | None  # timezone-aware
    time_precision: str  # "second" | "minute" | "unknown"
    message_html: str  # the message as the forum rendered it, markup included
    text: str  # own words: no quoted blocks, reply header, edit marker, markup or smilies
    quotes: list[Quote] = field(default_factory=list)
    reply_to: ReplyRef | None = None
    edit: EditMark | None = None
    smilies: int = 0
    colors: list[str] = field(default_factory=list)  # font colours as written (#FF0000, Red, rgb(...))
    sizes: list[str] = field(default_factory=list)  # font sizes as written (6, 20px, ...)
    links: list[str] = field(default_factory=list)  # hrefs of links in the post's own words
    attachments: int = 0
    hidden: bool = False  # 屏蔽 by a moderator: floor and pid kept, text not shown
    author_banned: bool = False  # 作者被禁止或删除: Discuz hides the content
    first: bool = False  # the thread's opening post

    @property
    def edited(self) -> bool:
        return self.edit is not None

    def to_row(self) -> dict[str, Any]:
        """A flat dict for the store (lists and refs as JSON-able values). Built field by field:
        `dataclasses.asdict` deep-copies every value and was a tenth of a page's scan."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["quotes"] = [{"pid": q.pid, "author": q.author} for q in self.quotes]
        r = self.reply_to
        d["reply_to"] = {"pid": r.pid, "floor": r.floor, "author": r.author} if r is not None else None
        for k in ("colors", "sizes", "links"):
            d[k] = list(d[k])
        d["posted_at"] = self.posted_at.isoformat() if self.posted_at else None
        d["edited"] = self.edited
        d["edited_by"] = self.edit.editor if self.edit else None
        d["edited_at"] = self.edit.at.isoformat() if self.edit and self.edit.at else None
        d.pop("edit")
        return d

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> "Post":
        """The inverse of `to_row`, for rows read back from the store."""
        import json

        def _j(v: Any, default: Any) -> Any:
            if v is None:
                return default
            return json.loads(v) if isinstance(v, str) else v

        reply = _j(row.get("reply_to"), None)
        posted = datetime.fromisoformat(row["posted_at"]) if row.get("posted_at") else None
        edit = EditMark(row["edited_by"], edit_time(row.get("edited_at"), posted)) if row.get("edited_by") else None
        return cls(
            tid=int(row["tid"]),
            pid=int(row["pid"]),
            floor=int(row["floor"]),
            author=row["author"],
            uid=row.get("uid"),
            posted_at=posted,
            time_precision=row.get("time_precision") or "unknown",
            message_html=row.get("message_html") or "",
            text=row.get("text") or "",
            quotes=[Quote(**q) for q in _j(row.get("quotes"), [])],
            reply_to=ReplyRef(**reply) if reply else None,
            edit=edit,
            smilies=int(row.get("smilies") or 0),
            colors=list(_j(row.get("colors"), [])),
            sizes=list(_j(row.get("sizes"), [])),
            links=list(_j(row.get("links"), [])),
            attachments=int(row.get("attachments") or 0),
            hidden=bool(row.get("hidden")),
            author_banned=bool(row.get("author_banned")),
            first=bool(row.get("first")),
        )


@dataclass
class ThreadPage:
    """One page of a thread as the forum answered it."""

    tid: int
    page: int  # the page the forum actually shows (a page past the last shows the last)
    last_page: int
    subject: str
    fid: int | None
    posts: list[Post]
    replies: int | None = None  # the thread's reply count, where the page says it
    max_position: int | None = None  # the highest floor number, where the API says it
    per_page: int | None = None
    source: str = "html"  # "html" | "api"
