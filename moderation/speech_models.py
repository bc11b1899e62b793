"""Per-category speech models: what the lexicon misses, suggested by a linear model per category.

Why: the lexicon is fitted to the sentences it was shown. Fourteen passes each moved the sets
they read and none moved a set kept unread (post recall stayed 0.85-0.92), above all in the
categories players word freely: curses, pledges, past games, director talk, alt-account hints.
A category's wordings share vocabulary weighed together, which a logistic model over character
1-3 grams of the folded post learns from the project's labelled posts
(`bench/train_speech_models.py`, one model per category, one-vs-rest; mockery keeps its own
model, belittle.py). A model is asked only about a category the lexicon did not give the post,
and its flag says it is a statistical suggestion, with its score and the n-grams that weighed.

Each model scores only a post holding one of its anchors: n-grams weighing for it, chosen so that
each training post it flags holds two and few lines of ordinary prose hold any. All models'
anchors are found in one pass over a batch; each model then scores its anchored texts in one call.
"""
from __future__ import annotations

import bisect
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from .belittle import Belittling, BelittleModel

MODELS_FILE = Path(__file__).with_name("speech_models.json")


class SpeechModels:
    """One `BelittleModel` per category (without the belittling model's self-deprecation veto:
    an oath or a guarantee is the poster speaking of himself) and one scan for all their anchors."""

    def __init__(self, models: dict[str, BelittleModel]) -> None:
        self.models = models
        owners: dict[str, set[str]] = {}
        for cat, model in models.items():
            for a in model.anchors:
                owners.setdefault(a, set()).add(cat)
        self._keys = sorted(owners)
        self._owners = [frozenset(owners[k]) for k in self._keys]
        self._literals: Any = None

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> "SpeechModels":
        return cls({cat: BelittleModel(dict(m["weights"]), float(m["bias"]), float(m["threshold"]),
                                       [str(a) for a in m["anchors"]], self_veto=False)
                    for cat, m in data["models"].items()})

    def only(self, categories: "set[str] | frozenset[str]") -> "SpeechModels":
        """The models of these categories (a ruleset without a rule has no model to cite it)."""
        kept = {c: m for c, m in self.models.items() if c in categories}
        return self if len(kept) == len(self.models) else SpeechModels(kept)

    def _find(self, folded: str) -> list[tuple[int, int, int]]:
        if self._literals is None:
            from .prefilter import Literals

            self._literals = Literals(self._keys, "speech-model-anchors")
        return self._literals.find(folded)

    def anchored(self, folded: str) -> set[str]:
        """The categories whose anchors the text holds."""
        owners = self._owners
        return {c for k, _, _ in self._find(folded) for c in owners[k]}

    def anchored_lines(self, folded_batch: str, starts: list[int]) -> dict[int, set[str]]:
        """Per text of a batch (texts start at `starts` in `folded_batch`, in order): the
        categories whose anchors it holds; texts holding none are left out."""
        out: dict[int, set[str]] = {}
        owners = self._owners
        for k, s, _ in self._find(folded_batch):
            out.setdefault(bisect.bisect_right(starts, s) - 1, set()).update(owners[k])
        return out

    def over(self, folded: str, categories: "set[str] | None" = None) -> list[str]:
        """The categories (of those anchored, or of `categories`) whose model's score passes its
        threshold, in name order."""
        cats = self.anchored(folded) if categories is None else categories
        return sorted(c for c in cats if self.models[c].over_threshold(folded))

    def over_many(self, asked: "list[tuple[str, set[str]]]") -> list[list[str]]:
        """`[over(text, cats) for text, cats in asked]` for a batch: each model scores its texts
        in one call (`BelittleModel.over_threshold_many`, whose bound settles most of them)."""
        per: dict[str, list[int]] = {}
        for k, (_, cats) in enumerate(asked):
            for c in cats:
                per.setdefault(c, []).append(k)
        out: list[list[str]] = [[] for _ in asked]
        for c in sorted(per):
            ks = per[c]
            for k, over in zip(ks, self.models[c].over_threshold_many([asked[k][0] for k in ks])):
                if over:
                    out[k].append(c)
        return out

    def judge(self, category: str, folded: str) -> Belittling | None:
        """The category's verdict with its sentence and cues, as the flag shows them."""
        return self.models[category].judge(folded, anchored=True)


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text("utf-8"))


@lru_cache(maxsize=1)
def load_speech_models(path: str = str(MODELS_FILE)) -> SpeechModels | None:
    """The shipped models, or None when the file is missing (then nothing is scored)."""
    p = Path(path)
    if not p.exists():
        return None
    if p == MODELS_FILE:
        from .startup_cache import cached

        return SpeechModels.from_data(cached("speech-models", lambda: _load(p)))
    return SpeechModels.from_data(_load(p))


__all__ = ["MODELS_FILE", "SpeechModels", "load_speech_models"]
