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


_SMILEY_CODE = re.compile(r"\{:\d+_\d+:\}|\[s:\d+\]|:[a-z_]+:", re.I)


def whistle_offenders(text: str, sounds: str) -> list[tuple[int, str]]:
    """The characters a whistled (黑哨) player may not write, with their positions.

    Allowed: the ruleset's animal sounds, punctuation, spaces, emoji and forum smiley codes
    (the parser already removes smiley images from `text`)."""
    allowed = set(sounds)
    masked = _SMILEY_CODE.sub(lambda m: " " * len(m.group(0)), text)
    out = []
    for i, c in enumerate(masked):
        if c in allowed or c.isspace():
            continue
        cat = unicodedata.category(c)
        if cat[0] in "PZ" or cat in ("So", "Sk", "Cf") or c in "~～":
            continue
        out.append((i, c))
    return out
