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
from typing import Callable, Iterable

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


LONGEST = 16  # characters in jieba's longest dictionary word, which boundary_words checks


def quick_table(tokenizer, firsts: Iterable[str], lasts: Iterable[str]) -> tuple:
    """The characters a hit can start with (`firsts`: the first characters of the lexicon's
    keys) and end with (`lasts`), and jieba's everyday characters: kept by the start-up cache."""
    everyday = frozenset(w for w, f in tokenizer.FREQ.items() if len(w) == 1 and f >= Segmenter.EVERYDAY)
    return frozenset(firsts), frozenset(lasts), everyday


def boundary_words(tokenizer, firsts: frozenset[str], lasts: frozenset[str]) -> tuple[dict[str, bytes], dict[str, int]]:
    """Every dictionary word (user words included) holding a two-character piece xy where y
    can start a hit or x can end one: the only words that can reach across a hit's ends. By
    first character, each shard marshalled (see ShardedWords), and the longest of each."""
    longest = 0
    out = set()
    for w, f in tokenizer.FREQ.items():
        if f and len(w) > 1 and any(w[i + 1] in firsts or w[i] in lasts for i in range(len(w) - 1)):
            out.add(w)
            longest = max(longest, len(w))
    if longest > LONGEST:
        raise ValueError(f"a jieba word of {longest} characters: raise segment.LONGEST")
    by_first: dict[str, set[str]] = {}
    for w in out:
        by_first.setdefault(w[0], set()).add(w)
    longest_from = {c: max(map(len, ws)) for c, ws in by_first.items()}
    return {c: marshal.dumps(frozenset(ws)) for c, ws in by_first.items()}, longest_from


class ShardedWords:
    """boundary_words' words, a shard (the words of one first character) unmarshalled on first
    use: a run asks about the characters around its hits, a few hundred shards at most, where
    reading all 400,000 words took a tenth of a second. `longest[c]`: the longest word starting
    with c, so that a shard too short to reach a position is not read."""

    __slots__ = ("_packed", "_open", "longest")

    def __init__(self, packed: tuple[dict[str, bytes], dict[str, int]]):
        self._packed, self.longest = packed
        self._open: dict[str, frozenset[str]] = {}

    def shard(self, c: str) -> frozenset[str]:
        got = self._open.get(c)
        if got is None:
            b = self._packed.get(c)
            got = self._open[c] = marshal.loads(b) if b is not None else frozenset()
        return got

    def __contains__(self, w: str) -> bool:
        return bool(w) and w in self.shard(w[0])


class _ShardedFreq:
    """jieba's FREQ (words, their prefixes at 0, user words) split by first character and, under
    it, by second character, each part unmarshalled on first use: jieba looks up only pieces of
    the window it cuts, so a run reads some hundred small parts instead of 580,000 entries (a
    first character's part holds its own count and its second characters' parts still packed:
    whole shards of common characters were most of the cut's time). jieba's own cut reads it
    through `in`, `[]` and `get`."""

    __slots__ = ("_packed", "_first", "_second")

    def __init__(self, packed: dict[str, bytes]):
        self._packed = packed
        self._first: dict[str, tuple[int | None, dict[str, bytes]]] = {}
        self._second: dict[str, dict[str, int]] = {}

    def _look(self, k: str, missing: object) -> object:
        if not k:
            return missing
        c = k[0]
        first = self._first.get(c)
        if first is None:
            b = self._packed.get(c)
            first = self._first[c] = marshal.loads(b) if b is not None else (None, {})
        if len(k) == 1:
            return missing if first[0] is None else first[0]
        pair = k[:2]
        second = self._second.get(pair)
        if second is None:
            b = first[1].get(k[1])
            second = self._second[pair] = marshal.loads(b) if b is not None else {}
        return second.get(k, missing)

    def __contains__(self, k: str) -> bool:
        return self._look(k, _MISSING) is not _MISSING

    def __getitem__(self, k: str) -> int:
        got = self._look(k, _MISSING)
        if got is _MISSING:
            raise KeyError(k)
        return got  # type: ignore[return-value]

    def get(self, k: str, default=None):
        return self._look(k, default)


_MISSING = object()


def sharded_dictionary(tokenizer) -> tuple[dict[str, bytes], int]:
    """A loaded tokenizer's FREQ by first character and under it by second (see _ShardedFreq),
    each part marshalled, and its total."""
    single: dict[str, int] = {}
    by_pair: dict[str, dict[str, dict[str, int]]] = {}
    for w, f in tokenizer.FREQ.items():
        if len(w) == 1:
            single[w] = f
        elif w:
            by_pair.setdefault(w[0], {}).setdefault(w[1], {})[w] = f
    return {c: marshal.dumps((single.get(c), {d: marshal.dumps(ws) for d, ws in by_pair.get(c, {}).items()}))
            for c in set(single) | set(by_pair)}, tokenizer.total


class Segmenter:
    """jieba's word boundaries around a hit. With a `quick` table (quick_table) and the words of
    boundary_words (`words`, a function called on the first question; both kept by the start-up
    cache), a hit's end that no dictionary word in the window reaches across is known to be a
    boundary without jieba: in jieba's cut (no HMM) a token longer than one character is a
    dictionary word or a run of ASCII letters and digits. Only the other questions load jieba,
    and get the same answers as before."""

    def __init__(self, user_words: Iterable[str] = (), quick: tuple | None = None,
                 words: "Callable[[], ShardedWords] | None" = None,
                 dictionary: "Callable[[], tuple[dict[str, bytes], int]] | None" = None):
        """`dictionary`: a function returning sharded_dictionary of a tokenizer loaded with these
        user words (kept by the start-up cache): jieba then cuts with its own code over that
        FREQ, read shard by shard, instead of loading its whole dictionary."""
        self._dictionary_of = dictionary
        self._user_words = tuple(dict.fromkeys(w for w in user_words if len(w) > 1))
        self._tk = None
        self._quick = quick
        self._words_of = words
        self._words: ShardedWords | None = None
        self.boundaries = lru_cache(maxsize=65536)(self._boundaries)

    def _uncrossable(self, text: str, p: int, lo: int, hi: int) -> bool:
        """Whether no jieba token of the window text[lo:hi] can cross position p."""
        if p <= lo or p >= hi:
            return True
        if self._quick is None or self._words_of is None:
            return False
        firsts, lasts, _ = self._quick
        a, b = text[p - 1], text[p]
        if not (b in firsts or a in lasts):
            return False
        if a.isascii() and b.isascii() and a.isalnum() and b.isalnum():
            return False
        if self._words is None:
            self._words = self._words_of()
        shard, longest = self._words.shard, self._words.longest.get
        for i in range(max(lo, p - LONGEST + 1), p):
            reach = longest(text[i], 0)
            if i + reach <= p:
                continue  # no word starting here is long enough to cross p
            words = shard(text[i])
            for j in range(p + 1, min(hi, i + reach) + 1):
                if text[i:j] in words:
                    return False
        return True

    @property
    def loaded(self) -> bool:
        return self._tk is not None

    def tokenizer(self):
        if self._tk is None and self._dictionary_of is not None:
            jieba = _import_jieba()
            jieba.setLogLevel(logging.WARNING)
            packed, total = self._dictionary_of()
            tk = jieba.Tokenizer()
            tk.FREQ, tk.total, tk.initialized = _ShardedFreq(packed), total, True
            self._tk = tk
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
            everyday = self._quick[2]
            return any(c in everyday for c in word)
        freq = self.tokenizer().FREQ
        return any(freq.get(c, 0) >= self.EVERYDAY for c in word)

    def split_apart(self, text: str, start: int, end: int) -> bool:
        """Whether jieba cuts through both ends of text[start:end]: a piece of two words
        (输入|你的 holds 入你), not a word of its own."""
        lo = max(0, start - WINDOW)
        hi = min(len(text), end + WINDOW)
        if self._uncrossable(text, start, lo, hi) or self._uncrossable(text, end, lo, hi):
            return False
        b = self.boundaries(text[lo:hi])
        return (start - lo) not in b and (end - lo) not in b

    def is_word(self, text: str, start: int, end: int) -> bool:
        """Whether text[start:end] is a whole word (or a run of whole words) in context."""
        lo = max(0, start - WINDOW)
        hi = min(len(text), end + WINDOW)
        if self._uncrossable(text, start, lo, hi) and self._uncrossable(text, end, lo, hi):
            return True
        b = self.boundaries(text[lo:hi])
        return (start - lo) in b and (end - lo) in b
