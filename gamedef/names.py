"""How a player's name is compared: one fold for the game file, the posts and the ballots."""
from __future__ import annotations

import re
import unicodedata


def normalize_name(name: str) -> str:
    """A player's name as compared: NFKC (full-width letters), without format characters
    (zero-width spaces and joiners, direction marks, soft hyphens: invisible, so a name that
    carries one reads the same as the bare name to every person) and spaces, case-folded. The
    one fold of the game file, the posts' authors and the ballots' targets."""
    folded = unicodedata.normalize("NFKC", name)
    folded = "".join(c for c in folded if unicodedata.category(c) != "Cf")
    return re.sub(r"\s+", "", folded).casefold()


def display_name(name: str) -> str:
    """A name as the game file gives it, without the invisible characters `normalize_name` drops."""
    return "".join(c for c in name if unicodedata.category(c) != "Cf").strip()
