"""What the checker hands to a director: one suggestion per rule a post may break.

A Flag is never a verdict. It carries the rule it cites, the exact words (with their span in the
post's own text) and a little context, so the director can judge in one glance.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Flag:
    category: str
    rule: str
    evidence: str
    start: int
    end: int
    context: str
    suggested_card: str
    term: str = ""  # the lexicon entry that fired (a term or a pattern's source)
    pid: int | None = None
    floor: int | None = None
    author: str | None = None
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        """The DESIGN.md flag shape; pid/floor/author only where known (absent in `lint`)."""
        d: dict[str, Any] = {"category": self.category, "rule": self.rule, "evidence": self.evidence}
        for key in ("pid", "floor", "author"):
            value = getattr(self, key)
            if value is not None:
                d[key] = value
        d["context"] = self.context
        d["suggested_card"] = self.suggested_card
        d["span"] = [self.start, self.end]
        if self.term:
            d["term"] = self.term
        if self.note:
            d["note"] = self.note
        return d
