"""Word boundaries from jieba, asked only around a candidate hit.

A short banned word is often a piece of an innocent one (孙子兵法, 日常, 操场). jieba decides:
a `words` hit counts only if jieba's cut of a window around it starts and ends a token exactly
where the hit does. The tokenizer is built on the first question, not at start-up, and gets the
lexicon's allow-list as its user dictionary so that innocent words (马甲线, 死灵魔术师) stay whole.
Answers are cached per window.

Loading jieba costs ~0.8 s as jieba does it, ~0.3 s here: its import pulls in `pkg_resources`
(0.1 s) only to find its own files, and it unmarshals its 9 MB dictionary cache straight from
the file object, which `marshal` reads object by object (0.6 s; from bytes, 0.25 s). Both are
worked around for the duration of the load only; the dictionary and the cut are jieba's own.
"""
from __future__ import annotations

import logging
import marshal
import sys
from functools import lru_cache
from typing import Iterable

WINDOW = 8


class _WholeFileMarshal:
    """`marshal` for jieba's cache, reading the file in one call."""

    dump = staticmethod(marshal.dump)
    dumps = staticmethod(marshal.dumps)
    loads = staticmethod(marshal.loads)

    @staticmethod
    def load(f):
        return marshal.loads(f.read())


def _import_jieba():
    if "jieba" in sys.modules or "pkg_resources" in sys.modules:
        import jieba

        return jieba
    sys.modules["pkg_resources"] = None  # jieba falls back to plain paths
    try:
        import jieba
    finally:
        if sys.modules.get("pkg_resources", 0) is None:
            del sys.modules["pkg_resources"]
    return jieba


def quick_table(tokenizer, firsts: Iterable[str], lasts: Iterable[str]) -> tuple:
    """What answers most boundary questions without loading jieba, derived from its dictionary:
    every two-character piece xy of a dictionary word (user words included) where y can start
    a hit (`firsts`: the first characters of the lexicon's keys) or x can end one (`lasts`),
    those two sets, and the everyday characters."""
    firsts, lasts = frozenset(firsts), frozenset(lasts)
    pairs = set()
    everyday = set()
    for w, f in tokenizer.FREQ.items():
        if not f:
            continue
        if len(w) == 1:
            if f >= Segmenter.EVERYDAY:
                everyday.add(w)
            continue
        for i in range(len(w) - 1):
            if w[i + 1] in firsts or w[i] in lasts:
                pairs.add(w[i:i + 2])
    return frozenset(pairs), firsts, lasts, frozenset(everyday)


class Segmenter:
    """jieba's word boundaries around a hit. With a `quick` table (quick_table, kept by the
    start-up cache) a position no dictionary word can reach across is known to be a boundary
    without jieba: a token crosses position p of a window only if it is a dictionary word
    holding text[p-1:p+1], or a run of ASCII letters and digits. Only the other questions load
    jieba, and get the same answers as before."""

    def __init__(self, user_words: Iterable[str] = (), quick: tuple | None = None):
        self._user_words = tuple(dict.fromkeys(w for w in user_words if len(w) > 1))
        self._tk = None
        self._quick = quick
        self.boundaries = lru_cache(maxsize=65536)(self._boundaries)

    def _uncrossable(self, text: str, p: int) -> bool:
        """Whether no jieba token can cross position p (so p is a boundary in any window)."""
        if p <= 0 or p >= len(text):
            return True
        if self._quick is None:
            return False
        pairs, firsts, lasts, _ = self._quick
        a, b = text[p - 1], text[p]
        if b in firsts or a in lasts:
            if a.isascii() and b.isascii() and a.isalnum() and b.isalnum():
                return False
            return a + b not in pairs
        return False

    @property
    def loaded(self) -> bool:
        return self._tk is not None

    def tokenizer(self):
        if self._tk is None:
            jieba = _import_jieba()
            jieba.setLogLevel(logging.WARNING)
            tk = jieba.Tokenizer()
            patched = getattr(jieba, "marshal", None) is marshal
            if patched:
                jieba.marshal = _WholeFileMarshal
            try:
                tk.initialize()
            finally:
                if patched:
                    jieba.marshal = marshal
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

    EVERYDAY = 50000  # jieba frequency of a character that is a common word on its own (日, 我, 她)

    def has_everyday_char(self, word: str) -> bool:
        """Whether a character of `word` is an everyday word on its own (日 78,695, 她, 我),
        as opposed to 废 (2,641), 逼 (3,617) or 尼 (2,819)."""
        if self._quick is not None:
            everyday = self._quick[3]
            return any(c in everyday for c in word)
        freq = self.tokenizer().FREQ
        return any(freq.get(c, 0) >= self.EVERYDAY for c in word)

    def split_apart(self, text: str, start: int, end: int) -> bool:
        """Whether jieba cuts through both ends of text[start:end]: a piece of two words
        (输入|你的 holds 入你), not a word of its own."""
        if self._uncrossable(text, start) or self._uncrossable(text, end):
            return False
        lo = max(0, start - WINDOW)
        hi = min(len(text), end + WINDOW)
        b = self.boundaries(text[lo:hi])
        return (start - lo) not in b and (end - lo) not in b

    def is_word(self, text: str, start: int, end: int) -> bool:
        """Whether text[start:end] is a whole word (or a run of whole words) in context."""
        if self._uncrossable(text, start) and self._uncrossable(text, end):
            return True
        lo = max(0, start - WINDOW)
        hi = min(len(text), end + WINDOW)
        b = self.boundaries(text[lo:hi])
        return (start - lo) in b and (end - lo) in b
