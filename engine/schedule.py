"""Whether a day's `closes` agrees with the rule post's day length and the opening post's 关门时间.

A wrong close silently moves the lock window and makes ballots late, so a `closes` that disagrees
with both the rule post (M84: 一般讨论日持续两天，每逢周末时讨论日延长一天; 004: A日上午开帖，到A日晚上
关帖，每逢周末就延长一天，第一天讨论日不因周末而延长) and the director's opening post is reported
with what each says. Only dates are compared with the rule post (it names days, not hours); the
opening post's time is compared to the minute when it gives one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from gamedef.gamefile import Day
from gamedef.ruleset import ScheduleRules

_CLOSE = re.compile(
    r"(?:关门|关帖|投票截止|截止)(?:时间)?\s*[为是:：∶︰]?\s*"
    r"(?:(\d{4})\s*[-/年.]\s*)?(\d{1,2})\s*[-/月.]\s*(\d{1,2})\s*[日号]?"
    r"\s*(?:[（(]?\s*(?:周|星期)[一二三四五六日天]\s*[)）]?)?"
    r"\s*(凌晨|早上|上午|中午|下午|晚上|傍晚)?\s*(?:(\d{1,2})\s*(?:[:：]\s*(\d{2})|[点时]\s*(?:(\d{1,2})分?|半)?))?")


@dataclass(frozen=True)
class CloseCheck:
    day: int
    closes: datetime
    rule_date: date | None  # what the rule post's day length gives
    post_time: datetime | None  # what the opening post says (None: it says nothing readable)
    post_has_time: bool
    agrees_with_rule: bool
    agrees_with_post: bool | None
    message: str = ""

    @property
    def warn(self) -> bool:
        return bool(self.message)

    def to_json(self) -> dict[str, Any]:
        return {"kind": "closes", "day": self.day, "closes": self.closes.isoformat(),
                "rule_date": self.rule_date.isoformat() if self.rule_date else None,
                "opening_post": self.post_time.isoformat() if self.post_time else None,
                "message": self.message}


def rule_close_date(day: Day, rules: ScheduleRules, first_day: int = 1) -> date | None:
    """The date the rule post closes `day` on: opening date + length − 1, one more when the span
    meets a weekend (unless it is the first day and the ruleset exempts it)."""
    if rules.length_days <= 0:
        return None
    start = day.opens.date()
    end = start + timedelta(days=rules.length_days - 1)
    span = [start + timedelta(days=i) for i in range((end - start).days + 1)]
    weekend = any(d.weekday() >= 5 for d in span)
    if weekend and rules.weekend_extra_days and (day.number != first_day or rules.first_day_extends):
        end += timedelta(days=rules.weekend_extra_days)
    return end


def opening_post_close(text: str, opens: datetime) -> tuple[datetime | None, bool]:
    """The 关门时间 an opening post states, read in the day's zone: (moment, whether it gave a time)."""
    m = _CLOSE.search(text or "")
    if not m:
        return None, False
    y, mo, d, part, h, mi, mi2 = m.groups()
    year = int(y) if y else opens.year
    try:
        when = datetime(year, int(mo), int(d), tzinfo=opens.tzinfo)
    except ValueError:
        return None, False
    if not y and when.date() < opens.date() - timedelta(days=180):
        when = when.replace(year=year + 1)
    if h is None:
        return when, False
    hour = int(h)
    if part in ("下午", "晚上", "傍晚") and hour < 12:
        hour += 12
    minute = int(mi or mi2 or 0) if "半" not in m.group(0)[-2:] else 30
    try:
        return when.replace(hour=hour % 24, minute=minute), True
    except ValueError:
        return when, False


def check_close(day: Day, rules: ScheduleRules, opening_text: str = "", first_day: int = 1,
                rule_cite: str = "") -> CloseCheck:
    """The day's `closes` against the rule post and the opening post; a message when it disagrees
    with both (or with the rule post when the opening post says nothing)."""
    want = rule_close_date(day, rules, first_day)
    post, has_time = opening_post_close(opening_text, day.opens)
    closes = day.closes
    ok_rule = want is None or closes.date() == want
    ok_post: bool | None = None
    if post is not None:
        ok_post = closes.replace(second=0, microsecond=0) == post if has_time else closes.date() == post.date()
    message = ""
    if not ok_rule and not ok_post:
        said_rule = f"规则帖（{rule_cite or rules.rule}）算出应在{want:%m月%d日}关门" if want else ""
        if post is not None:
            said_post = f"开门帖写的关门时间是{post:%m月%d日 %H:%M}" if has_time else f"开门帖写的关门日期是{post:%m月%d日}"
        else:
            said_post = "开门帖没有写关门时间"
        message = (f"第{day.number}天 closes = {closes:%m月%d日 %H:%M}，与{said_rule}、{said_post}都不一致；"
                   "关门时间决定改票锁定和迟到的票，请核对游戏文件。")
    return CloseCheck(day=day.number, closes=closes, rule_date=want, post_time=post, post_has_time=has_time,
                      agrees_with_rule=ok_rule, agrees_with_post=ok_post, message=message)
