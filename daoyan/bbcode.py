"""Text that goes inside BBCode the director pastes: it must show as text, never as markup."""
from __future__ import annotations

import re

_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def escape_bbcode(s: str) -> str:
    """Names and reasons from posts: invisible and direction marks dropped, `[` made inert."""
    return _INVISIBLE.sub("", s or "").replace("[", "［").replace("]", "］")
