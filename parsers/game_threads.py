"""A game's threads from their subjects, and what the directors' opening posts say: the role and
day of a thread (`[M84] 第一天讨论帖`, `【004】D2 投票贴`), the closing time a director writes
(`关门时间 11月27日 22:00`), and the events a 公示 announces (出局, 神父, 黑哨, 加速 …).

Pure text work for `daoyan init`; every reading keeps the words it came from.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Sequence

from .numbers import NUMBER, clock, fold, integer

ROLES = (  # (role, the words of a subject that name it), the first that matches wins
    ("rules", r"规则[帖贴]|规则$|游戏规则"),
    ("election", r"(?:神父|警长|村长|牧师)?(?:推举|竞选|选举)[帖贴]?|(?:神父|警长)[帖贴]"),
    ("progress", r"进程[帖贴]?|加速[帖贴]|申请[帖贴]"),
    ("vote", r"投票[帖贴]?|票[帖贴]"),
    ("discussion", r"讨论[帖贴]?|讨论日|白天"),
)
_DAY = re.compile(rf"第\s*({NUMBER})\s*(?:天|日|个?讨论日|个?游戏日)|(?<![A-Za-z])(?:D|Day|DAY|day)\s*(\d+)(?!\d)"
                  rf"|({NUMBER})\s*日目")


@dataclass(frozen=True)
class ThreadRole:
    role: str  # rules | discussion | vote | progress | election
    day: int | None  # None: the subject names no day (a rules thread, an election without one)
    words: str  # the words of the subject that decided it


def tag_of(subject: str) -> str | None:
    """The bracket tag a subject starts with: `[M84] 第一天讨论帖` → `[M84]`."""
    m = re.match(r"\s*([\[【［][^\]】］]{1,20}[\]】］])", subject)
    return m.group(1) if m else None


def same_tag(a: str, b: str) -> bool:
    """`[M84]`, `【M84】` and `［Ｍ84］` are one tag."""
    def inner(t: str) -> str:
        return fold(t).strip("[]【】 ").casefold()
    return inner(a) == inner(b)


def classify(subject: str) -> ThreadRole | None:
    """The role and day a subject names, or None for a thread that is not one of the game's kinds."""
    s = fold(subject)
    tag = tag_of(s)
    body = s[len(tag) + (s.index(tag) if tag else 0):] if tag else s
    m = _DAY.search(body)
    day = integer(next(g for g in m.groups() if g)) if m else None
    for role, words in ROLES:
        w = re.search(words, body)
        if w:
            return ThreadRole(role, day, (m.group(0) + " " if m else "") + w.group(0))
    return None


# ------------------------------------------------------------------------- closing time

_WEEKDAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}


def close_time_in(text: str, opened: datetime) -> tuple[datetime, str] | None:
    """The closing time a director's post announces (`关门时间 11月27日 22:00`, `关门时间：
    2026-11-27 22:00`, `明天晚上十点关门`, `周五22:00关门`), as a time in `opened`'s zone, with the
    words it came from; None when the post names none."""
    t = fold(text)
    for m in re.finditer(r"关[门帖]|截止|结束时间|投票截止", t):
        a, b = max(0, m.start() - 24), min(len(t), m.end() + 30)
        window = t[a:b]
        # the sentence around the keyword, not the next one
        left = re.split(r"[。;；\n]", t[a:m.start()])[-1]
        right = re.split(r"[。;；\n]", t[m.start():b])[0]
        window = left + right
        when = _moment(window, opened)
        if when is not None:
            return when, window.strip()
    return None


def _moment(window: str, opened: datetime) -> datetime | None:
    hhmm = clock(window)
    if hhmm is None:
        return None
    h, mi = map(int, hhmm.split(":"))
    m = re.search(r"(\d{4})[-/年.](\d{1,2})[-/月.](\d{1,2})", window)
    if m:
        date = (int(m.group(1)), int(m.group(2)), int(m.group(3)))
    else:
        m = re.search(r"(\d{1,2})\s*[月/-]\s*(\d{1,2})\s*[日号]?", window)
        if m and not re.fullmatch(r"\d{1,2}:\d{2}", m.group(0)):
            year = opened.year + (1 if int(m.group(1)) < opened.month - 6 else 0)
            date = (year, int(m.group(1)), int(m.group(2)))
        else:
            rel = re.search(r"今[天日晚]|明[天日晚]|次日|后天|大后天", window)
            wd = re.search(r"(?:周|星期|礼拜)([一二三四五六日天])", window)
            if rel:
                add = {"今": 0, "明": 1, "次": 1, "后": 2, "大": 3}[rel.group(0)[0]]
                d = opened.date() + timedelta(days=add)
            elif wd:
                ahead = (_WEEKDAY[wd.group(1)] - opened.weekday()) % 7
                d = opened.date() + timedelta(days=ahead)
            else:
                d = opened.date()
                if (h, mi) <= (opened.hour, opened.minute):
                    d += timedelta(days=1)
            date = (d.year, d.month, d.day)
    try:
        return datetime(date[0], date[1], date[2], h % 24, mi, tzinfo=opened.tzinfo)
    except ValueError:
        return None


# ------------------------------------------------------------------------------ events

@dataclass(frozen=True)
class Announced:
    """An event a director's post announces: a suggestion for the game file."""

    kind: str  # out | priest | whistled | unwhistled | accelerated | delayed
    player: str | None
    reason: str | None
    words: str  # the clause it was read from


def announcements(text: str, names: Sequence[str]) -> list[Announced]:
    """Events a 公示 names: `第一天投票出局：包子。昨夜出局：月饼。神父：饺子。黑哨：烧卖。`
    Players are the names of `names` that the clause holds (longest first, each once)."""
    out: list[Announced] = []
    ordered = sorted(set(names), key=len, reverse=True)
    for clause in re.split(r"[。；;！!\n]", text):
        c = clause.strip()
        if not c:
            continue
        who = _names_in(c, ordered)
        # a rule or an invitation, not an announcement: 申请加速请在本帖回复 / 过半申请加速则执行加速
        if re.search(r"请在|如需|可以|可在|规则|格式|则|如果|若|的话|之前|以前", c) or \
                (re.search(r"申请", c) and not re.search(r"公示|已|成功", c)):
            continue
        if re.search(r"取消|解除|失效", c) and "黑哨" in c:
            out += [Announced("unwhistled", p, None, c) for p in who]
        elif "黑哨" in c or "吹哨" in c:
            out += [Announced("whistled", p, None, c) for p in who]
        elif re.search(r"出局|死亡|罚下|殉情|殉职|被刀|身亡|投出|票出|放逐|处决|被杀|遇害", c):
            if re.search(r"红牌|罚下", c):
                reason = "red"
            elif re.search(r"投票|票选|放逐|公投|投出|票出|处决", c):
                reason = "vote"
            elif re.search(r"昨夜|昨晚|夜晚|夜里|晚上|今晨|平安夜", c):
                reason = "night"
            else:
                reason = None
            out += [Announced("out", p, reason, c) for p in who]
        elif re.search(r"神父|警长|村长|牧师", c) and who:
            out.append(Announced("priest", who[0], None, c))
        elif re.search(r"(?:执行|开始|判定|决定)?加速(?:成功|执行|生效)|执行加速|进程加速", c) and not re.search(r"不|未", c):
            out.append(Announced("accelerated", None, None, c))
        elif re.search(r"延[时迟](?:成功|执行|生效)|执行延[时迟]", c) and not re.search(r"不|未", c):
            out.append(Announced("delayed", None, None, c))
    return out


def _names_in(clause: str, ordered: Sequence[str]) -> list[str]:
    found: list[tuple[int, str]] = []
    rest = clause
    for n in ordered:
        i = rest.find(n)
        if i >= 0:
            found.append((i, n))
            rest = rest.replace(n, "\x00" * len(n))
    return [n for _, n in sorted(found)]
