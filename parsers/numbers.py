"""Numbers as a rule post writes them: 一/两/二/十五/二十/百, Arabic and full-width digits,
halves (半个小时, 一个半小时), fractions (二分之一, 一半, 2/3, 50%) and durations (90分钟, 一小时).

Pure string work; the rule-post reader builds on it. Every function returns None for text it
cannot read rather than guessing.
"""
from __future__ import annotations

import re
import unicodedata
from fractions import Fraction

_DIGIT = {"零": 0, "〇": 0, "一": 1, "壹": 1, "二": 2, "贰": 2, "两": 2, "俩": 2, "三": 3, "叁": 3, "四": 4,
          "肆": 4, "五": 5, "伍": 5, "六": 6, "陆": 6, "七": 7, "柒": 7, "八": 8, "捌": 8, "九": 9, "玖": 9}
_UNIT = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}

CN_DIGITS = "".join(_DIGIT) + "".join(_UNIT)
# one number as written: Arabic (with a decimal part) or Chinese numerals
NUMBER = rf"(?:\d+(?:\.\d+)?|[{CN_DIGITS}]+)"


def fold(text: str) -> str:
    """Full-width digits, letters and punctuation to their half-width forms (NFKC)."""
    return unicodedata.normalize("NFKC", text)


def cn_int(s: str) -> int | None:
    """`十五` → 15, `二十` → 20, `两` → 2, `一百零五` → 105, `三十二` → 32; None if not a numeral."""
    if not s or any(c not in _DIGIT and c not in _UNIT for c in s):
        return None
    if all(c in _DIGIT for c in s):  # 二零二六: digit by digit
        return int("".join(str(_DIGIT[c]) for c in s))
    total, current = 0, None
    for c in s:
        if c in _DIGIT:
            current = _DIGIT[c]
        else:
            total += (1 if current is None else current) * _UNIT[c]
            current = None
    return total + (current or 0)


def number(s: str) -> float | None:
    """A number in any form: `3`, `３`, `1.5`, `十五`, `两`; None otherwise."""
    s = fold(s).strip()
    if re.fullmatch(r"\d+(?:\.\d+)?", s):
        return float(s)
    n = cn_int(s)
    return float(n) if n is not None else None


def integer(s: str) -> int | None:
    n = number(s)
    return int(n) if n is not None and n == int(n) else None


_DURATION = re.compile(rf"(?<![第每周星期礼拜])({NUMBER})?(?:个)?(半)?(?:个)?(小时|钟头|分钟|刻钟|天|日|(?<=\d)\s*(?:h|hr|hrs|hours?|min|mins|minutes?)\b)"
                       rf"(半)?(?:({NUMBER})(?:分钟|分)(?!之))?", re.I)
_PER = {"小时": 60, "钟头": 60, "分钟": 1, "刻钟": 15, "天": 1440, "日": 1440}


def duration_minutes(text: str) -> float | None:
    """The first duration in the text, in minutes: `一小时` 60, `一个小时` 60, `半个小时` 30,
    `一个半小时` 90, `一小时半` 90, `1.5小时` 90, `90分钟` 90, `一刻钟` 15, `2h` 120, `两天` 2880,
    `1小时30分钟` 90; None if there is none
    (`第一天` and `每天` are not durations)."""
    t = fold(text)
    for m in _DURATION.finditer(t):
        head, half, unit, half_after, extra = m.groups()
        if head is None and half is None:
            continue
        value = number(head) if head else 0.0
        if value is None:
            continue
        if half or (half_after and head):  # 一个半小时, 一小时半, 一天半
            value += 0.5
        u = unit.strip().lower()
        per = _PER.get(u) or (1 if u.startswith("m") else 60)
        total = value * per
        if extra and per == 60:
            total += number(extra) or 0
        return total
    return None


def fraction(text: str) -> Fraction | None:
    """The first share of a whole in the text: `一半`/`半数`/`过半` 1/2, `二分之一` 1/2,
    `三分之二` 2/3, `2/3`, `50%`, `百分之六十` 3/5; None if there is none."""
    t = fold(text)
    m = re.search(rf"({NUMBER})\s*分之\s*({NUMBER})", t)
    if m:
        den, num = number(m.group(1)), number(m.group(2))
        if den and num is not None and m.group(1) != "百":
            return Fraction(num).limit_denominator(1000) / Fraction(den).limit_denominator(1000)
    m = re.search(rf"百分之\s*({NUMBER})", t)
    if m and number(m.group(1)) is not None:
        return Fraction(number(m.group(1))).limit_denominator(1000) / 100
    m = re.search(r"(\d+(?:\.\d+)?)\s*%", t)
    if m:
        return Fraction(m.group(1)) / 100
    m = re.search(r"(?<![\d:])(\d+)\s*/\s*(\d+)(?![\d:])", t)
    if m and 0 < int(m.group(1)) < int(m.group(2)):
        return Fraction(int(m.group(1)), int(m.group(2)))
    if re.search(r"半数|一半|过半|半以上|多半", t):
        return Fraction(1, 2)
    return None


def clock(text: str) -> str | None:
    """The first time of day in the text as `HH:MM`: `18:00`, `１８：００`, `晚上十点`, `22点30分`, `下午6点`."""
    t = fold(text)
    m = re.search(r"(?<!\d)([01]?\d|2[0-3])[:：]([0-5]\d)(?!\d)", t)
    if m:
        return f"{int(m.group(1)):02d}:{m.group(2)}"
    m = re.search(rf"(凌晨|早上|上午|中午|下午|傍晚|晚上|夜里|晚)?({NUMBER})点(半|({NUMBER})分?)?", t)
    if m:
        h = integer(m.group(2))
        if h is None or h > 24:
            return None
        if m.group(1) in ("下午", "傍晚", "晚上", "夜里", "晚") and h < 12:
            h += 12
        mins = 30 if m.group(3) == "半" else (integer(m.group(4)) or 0) if m.group(4) else 0
        return f"{h % 24:02d}:{mins:02d}"
    return None
