"""How a player's name is compared: one fold for the game file, the posts and the ballots."""
from __future__ import annotations

import re
import unicodedata


def normalize_name(name: str) -> str:
    """A player's name as compared: NFKC (full-width letters), no spaces, case-folded."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", name)).casefold()
