"""Checks on a post's markup and state rather than its words: fonts, 黑哨, links.

Red: a colour is red when its Euclidean distance in RGB from #FF0000 is at most the ruleset's
`moderation.font.red_distance` (120 in both presets). Named colours resolve to their CSS values
first, so Red, crimson (72), firebrick (91), orangered (69) and darkred (116) are red, while
tomato (122), Blue and #999999 are not. Hex (#F00, #FF1010), rgb()/rgba() and style="color:…"
all go through the same rule.

Enlarged: Discuz's [size=N] renders <font size="N"> with N in 1–7 (browser sizes 10, 13, 16, 18,
24, 32, 48 px). A size is enlarged when it is above the ruleset's `moderation.font.max_size`
(3 in both presets, the forum's text size). px/pt/em/% values are compared with the pixel
size of `max_size` (pt × 4/3 = px; em and % of the 14 px post text); relative sizes (+1) count
from 3.
"""
from __future__ import annotations

import math
import re
import unicodedata

NAMED = {
    "red": (255, 0, 0), "darkred": (139, 0, 0), "crimson": (220, 20, 60), "firebrick": (178, 34, 34),
    "orangered": (255, 69, 0), "tomato": (255, 99, 71), "indianred": (205, 92, 92),
    "maroon": (128, 0, 0), "brown": (165, 42, 42), "orange": (255, 165, 0), "deeppink": (255, 20, 147),
    "magenta": (255, 0, 255), "fuchsia": (255, 0, 255), "pink": (255, 192, 203), "salmon": (250, 128, 114),
    "lightcoral": (240, 128, 128), "coral": (255, 127, 80), "darkorange": (255, 140, 0),
    "blue": (0, 0, 255), "navy": (0, 0, 128), "green": (0, 128, 0), "black": (0, 0, 0),
    "white": (255, 255, 255), "gray": (128, 128, 128), "grey": (128, 128, 128), "purple": (128, 0, 128),
    "yellow": (255, 255, 0), "sienna": (160, 82, 45), "teal": (0, 128, 128), "olive": (128, 128, 0),
    "silver": (192, 192, 192), "lime": (0, 255, 0), "aqua": (0, 255, 255), "cyan": (0, 255, 255),
    "orchid": (218, 112, 214), "hotpink": (255, 105, 180), "darkmagenta": (139, 0, 139),
}
SIZE_PX = {1: 10, 2: 13, 3: 16, 4: 18, 5: 24, 6: 32, 7: 48}
TEXT_PX = 14

_HEX = re.compile(r"#([0-9a-f]{3}|[0-9a-f]{6})\b", re.I)
_RGB = re.compile(r"rgba?\(\s*([\d.]+%?)\s*,\s*([\d.]+%?)\s*,\s*([\d.]+%?)", re.I)
_STYLE_COLOR = re.compile(r"(?<![\w-])color\s*:\s*([^;\"']+)", re.I)


def parse_color(value: str) -> tuple[int, int, int] | None:
    """#RGB, #RRGGBB, rgb()/rgba(), a CSS name, or a style string holding `color: …`."""
    v = value.strip()
    m = _STYLE_COLOR.search(v)
    if m:
        v = m.group(1).strip()
    m = _HEX.search(v)
    if m:
        h = m.group(1)
        if len(h) == 3:
            h = "".join(c * 2 for c in h)
        return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)
    m = _RGB.search(v)
    if m:
        out = []
        for part in m.groups():
            n = float(part[:-1]) * 2.55 if part.endswith("%") else float(part)
            out.append(max(0, min(255, round(n))))
        return out[0], out[1], out[2]
    if re.fullmatch(r"[0-9a-f]{6}", v, re.I):  # Discuz sometimes stores hex without '#'
        return int(v[0:2], 16), int(v[2:4], 16), int(v[4:6], 16)
    return NAMED.get(v.lower().replace(" ", ""))


def red_distance(rgb: tuple[int, int, int]) -> float:
    """Euclidean distance in RGB from #FF0000."""
    r, g, b = rgb
    return math.sqrt((255 - r) ** 2 + g**2 + b**2)


def is_red(value: str, threshold: float) -> bool:
    rgb = parse_color(value)
    return rgb is not None and red_distance(rgb) <= threshold


_SIZE = re.compile(r"^\s*([+-]?)([\d.]+)\s*(px|pt|em|%)?\s*$", re.I)
_STYLE_SIZE = re.compile(r"font-size\s*:\s*([^;\"']+)", re.I)


def size_px(value: str) -> float | None:
    """A Discuz size (1–7, +N, 20px, 14pt, 1.5em, 150%) in pixels, None when unreadable."""
    v = value.strip()
    m = _STYLE_SIZE.search(v)
    if m:
        v = m.group(1)
    m = _SIZE.match(v)
    if not m:
        return None
    sign, num, unit = m.group(1), float(m.group(2)), (m.group(3) or "").lower()
    if unit == "px":
        return num
    if unit == "pt":
        return num * 4 / 3
    if unit == "em":
        return num * TEXT_PX
    if unit == "%":
        return num * TEXT_PX / 100
    n = int(num)
    if sign:
        n = 3 + n if sign == "+" else 3 - n
    return float(SIZE_PX[max(1, min(7, n))])


def is_enlarged(value: str, max_size: int) -> bool:
    px = size_px(value)
    limit = SIZE_PX[max(1, min(7, max_size))]
    return px is not None and px > limit


# The forum's smiley codes: {:2_30:} and [s:12] (numbered sets), :name: (custom sets), and
# Discuz's default set, some written without the closing colon (:lol, :handshake) or as
# emoticons (:) :P ;P :'().
_DISCUZ_SMILIES = ("loveliness", "handshake", "victory", "shutup", "sleepy", "dizzy", "curse", "funk",
                   "kiss", "time", "call", "hug", "lol")
_SMILEY_CODE = re.compile(r"\{:\d+_\d+:\}|\[s:\d+\]|:[a-z_]+:|:(?:%s)(?![a-z])|[:;]'?[()DPOoLQ$@](?![a-z])"
                          % "|".join(_DISCUZ_SMILIES), re.I)
# 电码: dots and dashes in groups parted by spaces or slashes (... --- ...), both kinds present
_MORSE = re.compile(r"[.·•*\-—_−]{1,7}(?:[ \t/|]+[.·•*\-—_−]{1,7}){1,}")
_DOTS, _DASHES = set(".·•*"), set("-—_−")
# ... or unparted, as typed on a keyboard (...---...): at least three runs of dots and hyphens
# alternating and six characters, so that an emoticon (-.-) and Chinese ellipsis and dash (……——) stay
_MORSE_UNPARTED = re.compile(r"(?:[.·]+[-−]+|[-−]+[.·]+)[.·\-−]*")
# ... or letters parted by sounds instead of spaces (哒 ·—— 哒哒 —·—): two or more groups on one line
# that each hold a dot and a dash; one such group alone is an emoticon (-.-) or punctuation (……——·)
_MORSE_GROUP = re.compile(r"(?<![.·•*\-—_−])[.·•*\-—_−]{2,7}(?![.·•*\-—_−])")
# Emoji that show a mood (faces, hearts, hands) are like the town's smilies; emoji that picture a
# thing (🐺 🔪 💊 🌙) say something: a rebus, 暗号.
_MOOD_EMOJI = [(0x1F600, 0x1F650), (0x1F910, 0x1F930), (0x1F970, 0x1F980), (0x1F440, 0x1F451), (0x1F493, 0x1F4A0),
               (0x1F90D, 0x1F910), (0x1F918, 0x1F920), (0x1F3FB, 0x1F400), (0x1FA75, 0x1FA78), (0x1F5A4, 0x1F5A5),
               (0x1F4A2, 0x1F4A3), (0x1F4A4, 0x1F4A7), (0x1F4AF, 0x1F4B0), (0x1F923, 0x1F930), (0x1F97A, 0x1F97B),
               (0x1F9E1, 0x1F9E2), (0x1F62E, 0x1F62F)]


def _mood(c: str) -> bool:
    o = ord(c)
    return any(lo <= o < hi for lo, hi in _MOOD_EMOJI)


def whistle_codes(text: str) -> list[tuple[int, int, str]]:
    """Codes a whistled player may not use (不得使用密码、电码或暗号), as (start, end, kind):
    Morse-like runs of dots and dashes, and picture emoji (a rebus)."""
    out = []
    for m in _MORSE.finditer(text):
        chars = set(m.group())
        if chars & _DOTS and chars & _DASHES:
            out.append((m.start(), m.end(), "电码"))
    for m in _MORSE_UNPARTED.finditer(text):
        runs = len(re.findall(r"[.·]+|[-−]+", m.group()))
        if runs >= 3 and len(m.group()) >= 6 and not any(s <= m.start() < e for s, e, _ in out):
            out.append((m.start(), m.end(), "电码"))
    line_start = 0
    for line in text.split("\n"):
        mixed = [m for m in _MORSE_GROUP.finditer(line) if set(m.group()) & _DOTS and set(m.group()) & _DASHES]
        if len(mixed) >= 2:
            for m in mixed:
                s, e = line_start + m.start(), line_start + m.end()
                if not any(a <= s < b for a, b, _ in out):
                    out.append((s, e, "电码"))
        line_start += len(line) + 1
    for i, c in enumerate(text):
        if ord(c) >= 0x1F000 and unicodedata.category(c) == "So" and not _mood(c):
            out.append((i, i + 1, "暗号"))
    return out


def whistle_offenders(text: str, sounds: str) -> list[tuple[int, str]]:
    """The characters a whistled (黑哨) player may not write, with their positions.

    Allowed: the ruleset's animal sounds, in any width or script form (traditional 嗚 is 呜,
    full-width too), punctuation, spaces, the forum's smiley codes (the parser already removes
    smiley images from `text`) and mood emoji. Not allowed: any other letter, digit or
    character, and codes (`whistle_codes`: Morse, picture emoji).

    ASCII emoticons follow the same rule, character by character: one made of punctuation and
    symbols only (^_^, -_-, >_<, ^^) is allowed, one with a letter or digit in it (T_T, QAQ,
    XD, orz) is not, unless it is one of the forum's own codes (:P, :D, :lol)."""
    from .normalize import fold

    allowed = set(sounds)
    masked = _SMILEY_CODE.sub(lambda m: " " * len(m.group(0)), text)
    codes = whistle_codes(masked)
    in_code = {i for s, e, _ in codes for i in range(s, e)}
    out = []
    for i, c in enumerate(masked):
        if i in in_code:
            if not c.isspace():
                out.append((i, c))
            continue
        if c in allowed or c.isspace():
            continue
        f = fold(c).text
        if f and all(ch in allowed for ch in f):
            continue
        cat = unicodedata.category(c)
        if cat[0] in "PZ" or cat in ("So", "Sk", "Cf", "Sm", "Sc", "Mn", "Me") or c in "~～":
            continue
        out.append((i, c))
    return out
