"""Small presentation helpers shared by the renderers: names, cards, numbers, times, floor links.

Everything here formats what the engine decided; nothing here decides anything.
"""
from __future__ import annotations

import re
from datetime import datetime, tzinfo
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

# Zero-width characters and bidi controls: they let a name look like another or reorder the line.
_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
_SPACE = re.compile(r"\s+")

CARD_ZH = {"yellow": "黄牌", "blue": "蓝牌", "red": "红牌", "green": "绿牌"}
CARD_ORDER = ("green", "blue", "yellow", "red")

KIND_ZH = {"vote": "投票", "change": "改票", "abstain": "弃权"}

FLAG_STATE_ZH = {"open": "待审", "accepted": "已采纳", "dismissed": "已驳回"}

CATEGORY_ZH = {
    "vulgar_body": "粗口（身体）", "vulgar_verb": "粗口（动词）", "insult_animal": "辱骂（动物）",
    "insult_kin": "辱骂（亲属）", "insult": "辱骂", "mockery": "嘲讽", "oath": "发誓",
    "curse": "诅咒", "guarantee": "担保/威胁", "face_based": "贴脸", "emotional": "情绪化",
    "responsibility": "背锅", "post_game": "场外/赛后", "evidence": "贴证", "director_talk": "转述导演",
    "oppose_director": "反对导演", "alt_account": "马甲", "past_game": "提及往局", "substitute": "替补",
    "assistant": "场外助理", "whistle_breach": "黑哨违规", "font": "字体", "dead_post": "诈尸",
    "water": "水帖", "deliberate": "故意违规",
}


def clean(value: Any) -> str:
    """A name or reason as one visible line: invisible controls removed, whitespace collapsed."""
    if value is None:
        return ""
    return _SPACE.sub(" ", _INVISIBLE.sub("", str(value))).strip()


def clean_block(value: Any) -> str:
    """Longer post text for display: invisible controls removed, line breaks kept."""
    return "" if value is None else _INVISIBLE.sub("", str(value)).strip()


def card_zh(card: Any) -> str:
    c = clean(card)
    return CARD_ZH.get(c.lower(), c)


def card_key(card: Any) -> str:
    """The colour id for styling, or '' for anything the renderer does not know."""
    c = clean(card).lower()
    return c if c in CARD_ZH else ""


def num(x: Any) -> str:
    """A weight as a director writes it: 6, 1.5, 4.5."""
    if isinstance(x, bool) or x is None:
        return "0"
    if isinstance(x, (int, float)):
        r = round(float(x), 4)
        return str(int(r)) if r == int(r) else f"{r:g}"
    return clean(x)


def as_int(x: Any) -> int | None:
    """Integers only (never a bool or a string that merely looks like one): links are built from these."""
    if isinstance(x, bool) or not isinstance(x, int):
        return None
    return x if x >= 0 else None


def zone(name: Any) -> tzinfo | None:
    try:
        return ZoneInfo(str(name)) if name else None
    except (ZoneInfoNotFoundError, ValueError):
        return None


def parse_time(value: Any, tz: tzinfo | None) -> datetime | None:
    """An ISO time in the game's zone; a naive time is taken to be already local."""
    if not value:
        return None
    try:
        t = datetime.fromisoformat(str(value))
    except ValueError:
        return None
    if t.tzinfo is None:
        return t.replace(tzinfo=tz) if tz else t
    return t.astimezone(tz) if tz else t


def fmt_time(value: Any, tz: tzinfo | None, *, seconds: bool = False) -> str:
    t = parse_time(value, tz)
    if t is None:
        return clean(value)
    return t.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")


def fmt_duration(seconds: Any) -> str:
    """A countdown in 小时/分钟; negative means it has passed."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        return ""
    s = int(seconds)
    if s <= 0:
        return "已过"
    h, m = divmod(s // 60, 60)
    return f"{h}小时{m}分钟" if h else f"{m}分钟"


def safe_base(base_url: Any) -> str | None:
    """The forum root for links, or None when it is not a plain http(s) address."""
    if not isinstance(base_url, str):
        return None
    parts = urlsplit(base_url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or any(c in base_url for c in "\"'<> \\"):
        return None
    base = base_url.strip()
    return base if base.endswith("/") else base + "/"


def findpost_url(base: str | None, tid: Any, pid: Any) -> str | None:
    """The exact floor on the forum, built only from integers."""
    t, p = as_int(tid), as_int(pid)
    if base is None or t is None or p is None:
        return None
    return f"{base}forum.php?mod=redirect&goto=findpost&ptid={t}&pid={p}"


def thread_url(base: str | None, tid: Any) -> str | None:
    t = as_int(tid)
    if base is None or t is None:
        return None
    return f"{base}forum.php?mod=viewthread&tid={t}"


def floor_label(floor: Any) -> str:
    f = as_int(floor)
    return f"#{f}" if f is not None else ""


def clauses(parts: Any) -> str:
    """Sentences joined into one with ；: each loses its own full stop first, so two problems
    of one ballot never read 某某。；某某; the whole ends with a full stop if any part had one."""
    items = [str(p).strip() for p in parts if p is not None and str(p).strip()]
    kept = [k for k in (i.rstrip("。；;") for i in items) if k]
    return "；".join(kept) + ("。" if any(i.endswith("。") for i in items) else "")
