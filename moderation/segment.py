"""Word boundaries from jieba, asked only around a candidate hit.

A short banned word is often a piece of an innocent one (孙子兵法, 日常, 操场). jieba decides:
a `words` hit counts only if jieba's cut of a window around it starts and ends a token exactly
where the hit does. jieba costs ~0.7 s to load its dictionary, so the tokenizer is built on the
first question, not at start-up, and gets the lexicon's allow-list as its user dictionary so
that innocent words (马甲线, 死灵魔术师) stay whole. Answers are cached per window.
"""
from __future__ import annotations

import logging
from functools import lru_cache
from typing import Iterable

WINDOW = 8


class Segmenter:
    def __init__(self, user_words: Iterable[str] = ()):
        self._user_words = tuple(dict.fromkeys(w for w in user_words if len(w) > 1))
        self._tk = None
        self.boundaries = lru_cache(maxsize=65536)(self._boundaries)

    @property
    def loaded(self) -> bool:
        return self._tk is not None

    def tokenizer(self):
        if self._tk is None:
            import jieba

            jieba.setLogLevel(logging.WARNING)
            tk = jieba.Tokenizer()
            tk.initialize()
            for w in self._user_words:
                tk.add_word(w, freq=max(tk.FREQ.get(w, 0), 20000))
            self._tk = tk
        return self._tk

    def _boundaries(self, window: str) -> frozenset[int]:
        cuts = {0}
        pos = 0
        for tok in self.tokenizer().cut(window, HMM=False):
            pos += len(tok)
            cuts.add(pos)
        return frozenset(cuts)

    def is_word(self, text: str, start: int, end: int) -> bool:
        """Whether text[start:end] is a whole word (or a run of whole words) in context."""
        lo = max(0, start - WINDOW)
        hi = min(len(text), end + WINDOW)
        b = self.boundaries(text[lo:hi])
        return (start - lo) in b and (end - lo) in b
