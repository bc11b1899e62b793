"""Normalisation against evasion, with a way back to the words the player wrote.

Players dodge a lexicon by writing 臥槽 for 卧槽, ｓｂ for sb, 卧*槽 or 你 妈 的, or 卧卧卧槽槽槽.
Matching runs on two views of a post, both mapped back to the original characters:

- the *folded* view: NFKC (full width → half width), lower case, traditional → simplified
  (OpenCC's own character table, applied per character so positions stay put). One character
  in, one character out, except for the few compatibility characters that NFKC expands
  (㎏ → kg, … → ...); only those characters break the one-to-one map, each one piece of it.
- the *squeezed* view: the folded view without filler symbols and spaces between two word
  characters (卧*槽 → 卧槽, w c → wc), and with runs of three or more of the same letter cut to
  one (卧卧卧槽槽槽 → 卧槽). Doubles are left alone: 妈妈, 哈哈, 看看 are ordinary Chinese.
  Sentence punctuation (，。！？：) and newlines stay, so patterns can still see clauses.

Every step is a plain function, tested on its own; `views()` chains them. The views are named
tuples: immutable like frozen dataclasses, and three times cheaper to build, once per post.
"""
from __future__ import annotations

import bisect
import itertools
import operator
import re
import unicodedata
from functools import lru_cache
from typing import Any, NamedTuple

from gamedef.hanzi import t2s_chars as _t2s_chars

from .startup_cache import cached


def nfkc(text: str) -> str:
    """Full-width letters, digits and punctuation to their plain forms."""
    return unicodedata.normalize("NFKC", text)


def lower(text: str) -> str:
    return text.lower()


def t2s(text: str) -> str:
    """Traditional characters to simplified, one character for one."""
    table = _t2s_chars()
    return "".join(table.get(c, c) for c in text)


# Letters of other scripts that look like Latin ones (Cyrillic, Greek), after lower case: players
# write ѕb or сnm to slip past a Latin term. Only shapes that read as one Latin letter.
CONFUSABLE = dict(zip(
    "аеорсухѕіјԁһкмнтвьԛԝαβεηικνορτυχωγ",
    "aeopcyxsijdhkmhtbbqwabenikvoptuxwy"))


def _tone_marked() -> dict[str, str]:
    """Latin letters with a diacritic, as their plain letter: pinyin written with its tones
    (tì bǔ, shǎ bī) or a filter dodged with an accent (fück) is the same spelling."""
    out = {}
    for i in list(range(0xC0, 0x250)) + list(range(0x1E00, 0x1F00)):
        c = chr(i)
        d = unicodedata.normalize("NFD", c)
        if c == c.lower() and len(d) > 1 and d[0].isascii() and d[0].isalpha() \
                and all(unicodedata.combining(x) for x in d[1:]):
            out[c] = d[0].lower()
    return out


CONFUSABLE.update(_tone_marked())
# Bopomofo (注音) consonants, as the Latin initial a pinyin abbreviation writes for them (傻ㄅ is 傻b,
# ㄋㄇㄉ is nmd; ㄓ ㄔ ㄕ, zh ch sh, as z c s): Taiwanese players spell a word's initials so.
BOPOMOFO = dict(zip("ㄅㄆㄇㄈㄉㄊㄋㄌㄍㄎㄏㄐㄑㄒㄓㄔㄕㄖㄗㄘㄙ", "bpmfdtnlgkhjqxzcsrzcs"))
CONFUSABLE.update(BOPOMOFO)
# Characters that carry nothing but can sit inside a word: zero-width and other format
# characters, variation selectors, the keycap and other enclosing marks. Folded to nothing.
INVISIBLE = frozenset(
    [chr(c) for c in (0xAD, 0x34F, 0x61C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x3164, 0xFFA0)]
    + [chr(c) for c in range(0x200B, 0x2010)] + [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2060, 0x2070)] + [chr(c) for c in range(0xFE00, 0xFE10)]
    + [chr(c) for c in range(0x20DD, 0x20E5)] + ["\ufeff"])
# Astral letters NFKC leaves alone: negative circled / squared letters and regional indicators.
_ASTRAL_LETTERS = {**{chr(0x1F150 + i): chr(97 + i) for i in range(26)},
                   **{chr(0x1F170 + i): chr(97 + i) for i in range(26)},
                   **{chr(0x1F1E6 + i): chr(97 + i) for i in range(26)}}
# astral ranges whose characters fold (styled mathematical letters, enclosed letters); the table
# reaches the last of OpenCC's astral characters (0x2B7xx) anyway
_ASTRAL_RANGES = ((0x1D400, 0x1D800), (0x1F100, 0x1F200))


def _fold_char(c: str) -> str:
    if c in INVISIBLE:
        return ""
    if c in _ASTRAL_LETTERS:
        return _ASTRAL_LETTERS[c]
    f = t2s(lower(nfkc(c)))
    if any(ch in CONFUSABLE or ch in INVISIBLE for ch in f):
        f = "".join(CONFUSABLE.get(ch, ch) for ch in f if ch not in INVISIBLE)
    return f


@lru_cache(maxsize=1)
def _tables() -> tuple[list, "re.Pattern[str] | None", dict[str, str]]:
    """A `str.translate` table (a list indexed by code point: faster than a dict) giving every
    character its fold, a regex of the characters whose fold is not one character (they break
    the one-to-one map of positions), and those folds."""
    size, changes = cached("fold-table", _fold_changes)
    # a code point as the value keeps the character (`str.translate` takes ints as code points):
    # a list of ints is made five times quicker than one of 180,000 one-character strings
    table: list = list(range(size))
    multi: dict[str, str] = {}
    for i, f in changes.items():
        table[i] = f
        if len(f) != 1:
            multi[chr(i)] = f
    multi_re = re.compile("[" + "".join(re.escape(c) for c in sorted(multi)) + "]+") if multi else None
    return table, multi_re, multi


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


@lru_cache(maxsize=1)
def _bmp_multi() -> "re.Pattern[str] | None":
    """`_tables()`'s regex without its astral characters: a class holding any is tested
    character by character, five times slower; texts without astral characters use this."""
    multi = _tables()[2]
    bmp = sorted(c for c in multi if ord(c) < 0x10000)
    return re.compile("[" + "".join(re.escape(c) for c in bmp) + "]+") if bmp else None


def _fold_changes() -> tuple[int, dict[int, str]]:
    """The fold table's size and the code points whose fold is not themselves, with their folds
    (derived once per installation: see startup_cache)."""
    t2s_table = _t2s_chars()
    size = max(0x10000, max(map(ord, t2s_table), default=0) + 1, _ASTRAL_RANGES[-1][1])
    changes: dict[int, str] = {}
    candidates = [chr(i) for i in range(0x10000) if not 0xD800 <= i <= 0xDFFF]
    candidates += [chr(i) for lo, hi in _ASTRAL_RANGES for i in range(lo, hi)]
    candidates += [c for c in t2s_table if ord(c) >= 0x10000]
    is_normalized = unicodedata.is_normalized
    for c in candidates:
        if (c not in t2s_table and c not in CONFUSABLE and c not in INVISIBLE and c not in _ASTRAL_LETTERS
                and is_normalized("NFKC", c) and c.lower() == c):
            continue
        f = _fold_char(c)
        if f != c:
            changes[ord(c)] = f
    return size, changes


def warm() -> None:
    """Build the fold tables now (start-up) rather than on the first post."""
    _tables()
    _bmp_multi()


class Folded(NamedTuple):
    """The folded view and, where it is not one-to-one, a map back: the folded view is cut
    into pieces, piece k starting at `origin[0][k]`, copied from the original text at
    `origin[1][k]` (one character each) or, where `origin[2][k]`, one original character's
    expansion (every character of it maps back to that one)."""

    text: str
    origin: tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...]] | None  # None: identity
    original_length: int

    def to_original(self, i: int) -> int:
        if self.origin is None:
            return i
        if i >= len(self.text):
            return self.original_length
        at, src, expanded = self.origin
        k = bisect.bisect_right(at, i) - 1
        return src[k] if expanded[k] else src[k] + (i - at[k])


FAST_FOLD_FROM = 20_000  # characters from which a text takes _fold_long
_COMMON_FOLDS = "，！？：；（）．％０１２３４５６７８９"  # full-width forms: most of what prose changes


@lru_cache(maxsize=1)
def _long_folds() -> "tuple[tuple[tuple[str, str], ...], re.Pattern[str], frozenset[str], bool]":
    """For _fold_long: the common full-width forms and their one-character folds (each fold a
    character the table keeps), a regex of runs of the other BMP characters the table changes,
    the BMP characters whose fold is not one character, and whether no BMP character folds to
    an astral one (then astral characters can be folded after the BMP ones)."""
    pairs, cls, multi, bmp_only = cached("long-folds", _long_fold_parts)  # a walk over the BMP's table
    return pairs, re.compile(f"[{cls}]+"), multi, bmp_only


def _long_fold_parts() -> "tuple[tuple[tuple[str, str], ...], str, frozenset[str], bool]":
    """_long_folds' parts as plain data: the pairs, the class of the other changed BMP
    characters (as written in the regex), the multi-character folds, bmp_only."""
    table, _, multi = _tables()
    pairs = tuple((c, f) for c in _COMMON_FOLDS if isinstance(f := table[ord(c)], str) and len(f) == 1
                  and table[ord(f)] == ord(f))
    skip = {ord(c) for c, _ in pairs}
    ranges: list[list[int]] = []
    bmp_only = True
    for i, f in enumerate(table[:0x10000]):
        if f != i and not 0xD800 <= i <= 0xDFFF:
            if isinstance(f, str) and any(ord(ch) > 0xFFFF for ch in f):
                bmp_only = False
            if i in skip:
                continue
            if ranges and ranges[-1][1] == i - 1:
                ranges[-1][1] = i
            else:
                ranges.append([i, i])
    cls = "".join(re.escape(chr(a)) + ("-" + re.escape(chr(b)) if b > a else "") for a, b in ranges)
    return pairs, cls, frozenset(c for c in multi if ord(c) < 0x10000), bmp_only


_ASTRAL_RUN = re.compile("[\U00010000-\U0010ffff]+")


def _fold_long(text: str, multi_at: "list[int] | None" = None) -> str | None:
    """`text.translate(table)` for a long text, or None where this way cannot give it: the
    common full-width forms by `str.replace` (one character for one, folded to characters the
    table keeps), then the runs of the other changed BMP characters and the runs of astral
    characters translated where a regex finds them, not every character looked up (a class
    holding astral characters is tested item by item, so they are a pass of their own).
    `multi_at` gets the positions of the BMP characters whose fold is not one character (the
    replacements keep positions)."""
    table = _tables()[0]
    pairs, rest, multi, bmp_only = _long_folds()
    astral = _ASTRAL.search(text) is not None
    if astral and not bmp_only:
        return None
    for a, b in pairs:
        text = text.replace(a, b)

    def run(m: "re.Match[str]") -> str:
        got = m.group()
        if multi_at is not None:
            multi_at.extend(m.start() + k for k, c in enumerate(got) if c in multi)
        return got.translate(table)

    text = rest.sub(run, text)
    if astral:
        text = _ASTRAL_RUN.sub(lambda m: m.group().translate(table), text)
    return text


def fold_text(text: str) -> str:
    """The folded text alone, without the map back to positions: what a score needs."""
    if len(text) >= FAST_FOLD_FROM and (folded := _fold_long(text)) is not None:
        return folded
    return text.translate(_tables()[0])


def fold(text: str) -> Folded:
    """NFKC + lower case + traditional → simplified, keeping positions.

    One `str.translate` does it (on a long text, _fold_long); the rare characters that fold to
    several (or none) are then located in the original, and only they break the one-to-one map."""
    table, multi_re, multi = _tables()
    found: list[int] = []
    long = _fold_long(text, found) if len(text) >= FAST_FOLD_FROM else None
    if long is not None:
        folded = long  # `found`: its BMP characters of several (or none), as the class below finds them
        if multi_re is None:
            return Folded(folded, None, len(text))
    else:
        folded = text.translate(table)
        if multi_re is None:
            return Folded(folded, None, len(text))
        # where they are: the BMP ones by one class, the astral ones among the text's astral
        # characters (few; a class holding astral characters is tested item by item, five times
        # slower over the whole text)
        bmp = _bmp_multi()
        found = [i for m in bmp.finditer(text) for i in range(m.start(), m.end())] if bmp is not None else []
    if _ASTRAL.search(text) is not None:
        astral = [m.start() for m in _ASTRAL.finditer(text) if m.group() in multi]
        if astral:
            found = sorted(found + astral)
    if not found:
        return Folded(folded, None, len(text))
    at: list[int] = []
    src: list[int] = []
    expanded: list[bool] = []
    shift = last = 0  # shift: folded index minus original index, past `last`
    for i in found:
        if i > last:
            at.append(last + shift), src.append(last), expanded.append(False)
        grown = len(multi[text[i]])
        if grown:
            at.append(i + shift), src.append(i), expanded.append(True)
        shift += grown - 1
        last = i + 1
    if last < len(text):
        at.append(last + shift), src.append(last), expanded.append(False)
    return Folded(folded, (tuple(at), tuple(src), tuple(expanded)), len(text))


FILLERS = r"[^\S\n]|[*.·•_~=#@$%^&|/\\`×+'\"\-]"
_SYMBOLS = "*.·•_~=#@$%^&|/\\`×+'\"-"


@lru_cache(maxsize=1)
def _squeeze_regexes() -> tuple["re.Pattern[str]", "re.Pattern[str]"]:
    """A run of fillers as ONE character class, so that `re` skips straight to the next
    candidate (an alternation of classes makes it try every position), and a run of three or
    more of any one character (`(.)\1\1+`: `re` rejects a position sooner than with `{2,}`);
    whether a run is squeezed is decided per match."""
    spaces = cached("spaces", lambda: "".join(chr(i) for i in range(0x10000) if chr(i).isspace() and i != 10))
    cls = "[" + re.escape(spaces + _SYMBOLS) + "]"
    return re.compile(cls + cls + "*"), re.compile(r"(.)\1\1+")


class Squeezed(NamedTuple):
    """The squeezed view with breakpoints: from `at[k]` on, add `shift[k]` to reach the folded view."""

    text: str
    at: tuple[int, ...]
    shift: tuple[int, ...]
    source_length: int

    def to_source(self, i: int) -> int:
        k = bisect.bisect_right(self.at, i) - 1
        return i + (self.shift[k] if k >= 0 else 0)


def squeeze(text: str) -> Squeezed:
    """Drop fillers between word characters; cut runs of three or more letters to one.

    Fillers are not word characters and a stretched run is letters, so the two never overlap:
    two cheap scans find them, merged in order. A word character is `[^\\W_]` of `re`
    (`str.isalnum`), a letter `[^\\W\\d_]` (digits are never collapsed: 666)."""
    fill_re, run_re = _squeeze_regexes()
    n = len(text)
    cuts = [(m.start(), m.end(), "") for m in fill_re.finditer(text)
            if 0 < m.start() and m.end() < n and text[m.start() - 1].isalnum() and text[m.end()].isalnum()]
    runs = [(m.start(), m.end(), c) for m in run_re.finditer(text)
            if (c := m.group(1)).isalnum() and not c.isdecimal()]
    if runs:
        cuts = sorted(cuts + runs) if cuts else runs
    return _cut(text, cuts)


_TRAIL = re.compile(rf"(?:{FILLERS})+$")


class Views(NamedTuple):
    """The original text, its folded and squeezed views, and the maps between them."""

    original: str
    folded: Folded
    squeezed: Squeezed

    def span_from_folded(self, start: int, end: int) -> tuple[int, int]:
        s = self.folded.to_original(start)
        e = self.folded.to_original(end - 1) + 1 if end > start else s
        return s, e

    def span_from_squeezed(self, start: int, end: int) -> tuple[int, int]:
        """A span of the squeezed view as a span of the folded view (fillers inside kept,
        a stretched run at the end kept whole, trailing fillers dropped)."""
        fs = self.squeezed.to_source(start)
        if end >= len(self.squeezed.text):
            fe = len(self.folded.text)
        else:
            fe = self.squeezed.to_source(end)
        m = _TRAIL.search(self.folded.text, fs, fe)
        if m and m.start() > fs:
            fe = m.start()
        return fs, fe

    def original_span_from_squeezed(self, start: int, end: int) -> tuple[int, int]:
        return self.span_from_folded(*self.span_from_squeezed(start, end))


def views(text: str) -> Views:
    f = fold(text)
    return Views(text, f, squeeze(f.text))


def key(term: str) -> str:
    """A lexicon term as the automaton sees it: folded and squeezed like the posts."""
    return squeeze(fold(term).text).text


def newlines(text: str | bytes) -> list[int]:
    """The offsets of every newline in text, in order: lengths of the pieces between them
    summed in C (a regex's match objects cost ten times more on a batch of 30,000 lines)."""
    nl = "\n" if isinstance(text, str) else b"\n"
    if nl not in text:
        return []
    pieces = text.split(nl)
    pieces.pop()
    return list(map(operator.add, itertools.accumulate(map(len, pieces)), range(len(pieces))))


# ---- the dense view: for lexicon terms only --------------------------------------------------
GAP = 3  # longest run of non-letters skipped inside a term (傻，逼 / 【傻】【逼】 / 傻👍🏻逼)
CLAUSE = frozenset("，。！？；：,.!?;:…")


@lru_cache(maxsize=1)
def _dense_regexes() -> tuple["re.Pattern[str]", "re.Pattern[str]"]:
    """A run of non-letters (one character class: `re` skips straight to the next one), and a
    run of one hanzi or Latin letter doubled (傻傻逼逼, fuuuck)."""
    return re.compile(r"(?:[^\w\n]|[\d_])+"), re.compile(r"([\u3400-\u9fffa-z])\1+")


_GAP_TABLE_SIZE = 0x30000  # past the last CJK extension: higher code points take the regex
_BEYOND_GAPS = re.compile(f"[{chr(_GAP_TABLE_SIZE)}-\U0010ffff]")


def _is_gap(c: str) -> bool:
    """Whether `_dense_regexes()`'s gap class holds c: not a word character of `re`
    (alphanumeric or `_`) and no newline, or a decimal digit, or `_`."""
    return c != "\n" and (not c.isalnum() or c.isdecimal() or c == "_")


@lru_cache(maxsize=1)
def _gap_table() -> list[int | None]:
    """A `str.translate` table deleting what the gap class matches, below _GAP_TABLE_SIZE."""
    runs = cached("gap-runs", _gap_runs)
    table: list[int | None] = list(range(_GAP_TABLE_SIZE))  # a code point keeps its character
    for start, end in runs:  # the gaps come in runs (punctuation, symbol and emoji blocks)
        table[start:end] = [None] * (end - start)
    return table


def _gap_runs() -> list[tuple[int, int]]:
    """The gap class below _GAP_TABLE_SIZE as (start, end) runs of code points."""
    runs: list[tuple[int, int]] = []
    for i in range(_GAP_TABLE_SIZE):
        if _is_gap(chr(i)):
            if runs and runs[-1][1] == i:
                runs[-1] = (runs[-1][0], i + 1)
            else:
                runs.append((i, i + 1))
    return runs


class Dense:
    """The folded view with every non-letter removed but newlines (any punctuation, space,
    symbol, emoji, bracket, digit) and doubled hanzi and Latin letters made single (傻傻逼逼 → 傻逼,
    fuuck → fuck). Lexicon terms
    are matched here too, so that a separator or a doubling inside a term does not hide it;
    patterns never read it (it joins clauses). Which removed runs a hit may span (at most GAP
    characters; digits only between two hanzi, so 2b, mp3 and n280 keep theirs) is decided per
    hit by `gaps_ok`.

    The text is two substitutions in C; the map back to the folded view is worked out per line,
    only for the lines where a term is found here (lines are the same in both views)."""

    __slots__ = ("folded", "text", "_dbreaks", "_fbreaks", "_maps", "_tabled", "_undoubled", "_counts")

    def __init__(self, folded: str):
        gap_re, double_re = _dense_regexes()
        self.folded = folded
        self._tabled = _BEYOND_GAPS.search(folded) is None
        if self._tabled:
            letters = folded.translate(_gap_table())  # the same deletions as gap_re, three times faster
        else:
            letters = gap_re.sub("", folded)
        self.text = _single(letters) if len(letters) >= FAST_FOLD_FROM else double_re.sub(r"\1", letters)
        self._dbreaks: list[int] | None = None
        self._fbreaks: list[int] | None = None
        self._maps: dict[int, tuple[int, int, Squeezed, Squeezed]] = {}
        self._undoubled: dict[int, bool] = {}
        self._counts: dict[tuple[int, str], bool] = {}

    @property
    def changed(self) -> bool:
        return len(self.text) != len(self.folded)

    def as_written(self, start: int, end: int) -> bool:
        """True only where the dense span (within a line) stands for the same characters written
        together in the folded view: `span_to_folded` gives a span of the same length, which
        `clause_double_start` leaves alone. Most of a text's dense hits are terms written as they
        are (the squeezed scan has seen them); this tells them apart without the line's maps.

        On a line where no doubled character was made single, the dense line is the folded one
        with its gap characters deleted, so each place the span's characters stand together in
        the folded line gives a distinct place they stand in the dense line; where both lines
        hold them equally often, every dense place is one of those. False (ask the maps) where
        that cannot be told this way."""
        if not self._tabled:
            return False
        k, ds, de, fs, fe = self._bounds(start)
        undoubled = self._undoubled.get(k)
        if undoubled is None:  # each line's answers kept: a long line holds many hits
            undoubled = self._undoubled[k] = len(self.folded[fs:fe].translate(_gap_table())) == de - ds
        if not undoubled:
            return False  # a doubled character made single on this line
        word = self.text[start:end]
        if not word:
            return False
        same = self._counts.get((k, word))
        if same is None:
            same = self._counts[(k, word)] = _occurrences(self.folded[fs:fe], word) == _occurrences(self.text[ds:de], word)
        return same

    def _bounds(self, i: int) -> tuple[int, int, int, int, int]:
        """(line number, dense line start and end, folded line start and end) of the line holding
        dense offset i (the two views have the same lines)."""
        if self._dbreaks is None:
            self._dbreaks = newlines(self.text)
            self._fbreaks = newlines(self.folded)
        db, fb = self._dbreaks, self._fbreaks
        k = bisect.bisect_left(db, i)
        ds = db[k - 1] + 1 if k > 0 else 0
        de = db[k] if k < len(db) else len(self.text)
        fs = fb[k - 1] + 1 if k > 0 else 0  # type: ignore[index]
        fe = fb[k] if k < len(fb) else len(self.folded)  # type: ignore[arg-type]
        return k, ds, de, fs, fe

    def _line(self, i: int) -> tuple[int, int, Squeezed, Squeezed]:
        """(dense line start, folded line start, gap map, doubles map) of the line holding i."""
        k, ds, _, fs, fe = self._bounds(i)
        got = self._maps.get(k)
        if got is None:
            gap_re, double_re = _dense_regexes()
            line = self.folded[fs:fe]
            gaps = _cut(line, [(m.start(), m.end(), "") for m in gap_re.finditer(line)])
            doubles = _cut(gaps.text, [(m.start() + 1, m.end(), "") for m in double_re.finditer(gaps.text)])
            got = self._maps[k] = (ds, fs, gaps, doubles)
        return got

    def to_folded(self, i: int) -> int:
        ds, fs, gaps, doubles = self._line(i)
        return fs + gaps.to_source(doubles.to_source(i - ds))

    def span_to_folded(self, start: int, end: int) -> tuple[int, int]:
        """A dense span (within a line) as a folded span: its last character's run of doubles kept."""
        ds, fs, gaps, doubles = self._line(start)
        s, e = start - ds, end - ds
        ie = doubles.to_source(e) if e < len(doubles.text) else doubles.source_length
        return fs + gaps.to_source(doubles.to_source(s)), fs + gaps.to_source(ie - 1) + 1


def _occurrences(text: str, word: str) -> int:
    """How many places word starts in text, overlapping ones counted."""
    n = 0
    i = text.find(word)
    while i >= 0:
        n += 1
        i = text.find(word, i + 1)
    return n


@lru_cache(maxsize=1)
def _doubles() -> "Any":
    """Every doubled character `_dense_regexes()`'s run regex makes single (a hanzi or a Latin
    letter written twice) as a Hyperscan literal database (prefilter.Literals, kept in the
    start-up cache), or None without Hyperscan."""
    from .prefilter import Literals, hyperscan_available

    if not hyperscan_available():
        return None
    cls = [chr(i) for i in range(0x3400, 0xA000)] + [chr(i) for i in range(ord("a"), ord("z") + 1)]
    return Literals([c + c for c in cls], "doubles")


def _single(letters: str) -> str:
    """`_dense_regexes()[1].sub(r"\\1", letters)`: each run of one hanzi or Latin letter made
    single. A long text is searched for its doubled characters in one Hyperscan pass (they are
    rare; the regex tries a group and a back-reference at every character) and the runs they
    make are cut out."""
    try:
        found = _doubles().find(letters) if _doubles() is not None else None
    except UnicodeEncodeError:  # a lone surrogate: neither Hyperscan nor the automaton reads it
        found = None
    if found is None:
        return _dense_regexes()[1].sub(r"\1", letters)
    if not found:
        return letters
    pieces: list[str] = []
    last = 0
    prev = -2
    for _, start, _ in found:  # in order of start (all two characters long)
        if start != prev + 1:  # a new run: keep its first character
            pieces.append(letters[last:start + 1])
        last = start + 2  # past the doubled character
        prev = start
    pieces.append(letters[last:])
    return "".join(pieces)


def gaps_ok(folded: str, start: int, end: int) -> bool:
    """Whether every run of non-letters inside folded[start:end] may be skipped: at most GAP
    characters, and digits only between two hanzi (2b, mp3, n280 are words of their own)."""
    gap_re, _ = _dense_regexes()
    for m in gap_re.finditer(folded, start, end):
        s, e = m.span()
        if e - s > GAP:
            return False
        if any(c.isdecimal() for c in m.group()) and (folded[s - 1] < "\u2e80" or folded[e] < "\u2e80"):
            return False
    return True


# what makes digits amid hanzi a number (8日，她 / 第3个 / 共5人) rather than a separator (干7你)
_NUMBER_AFTER = frozenset("日月年号点时分秒元块角个次天岁人件斤克米里度楼层页章集期届路站周")
_NUMBER_BEFORE = frozenset("第共约近每前后这那近余")


def number_inside(folded: str, start: int, end: int) -> bool:
    """Whether a run of digits inside folded[start:end] reads as a number with its unit or
    ordinal (我7日 may be a date), not as a separator between the characters of a word."""
    for m in re.finditer(r"\d+", folded[start:end]):
        s, e = start + m.start(), start + m.end()
        if (e < len(folded) and folded[e] in _NUMBER_AFTER) or (s > 0 and folded[s - 1] in _NUMBER_BEFORE):
            return True
    return False


def clause_double_start(folded: str, start: int, end: int) -> int:
    """`start`, or past a clause break where the dense view joined a character to its repeat
    across it (出他，他、奶、奶、的: the term starts at the second 他)."""
    gap_re, _ = _dense_regexes()
    m = gap_re.match(folded, start + 1, end)
    if m and m.end() < end and folded[m.end()] == folded[start] and any(c in CLAUSE for c in m.group()):
        return m.end()
    return start


_INTERLEAVED = re.compile(r"[a-z](\d{1,2})[a-z](?:\1[a-z])*")


def interleaved(folded: str, start: int, end: int) -> bool:
    """Whether folded[start:end] is Latin letters with the same digits between every two of
    them (s1b, f1u1c1k, c7n7m): a spelling, where one digit amid letters is a word's own
    (mp3, n280, a4纸)."""
    return _INTERLEAVED.fullmatch(folded, start, end) is not None


def dense(folded: str) -> Dense:
    return Dense(folded)


def _cut(text: str, cuts: list[tuple[int, int, str]]) -> Squeezed:
    """`text` with each (start, end) replaced by its keep, and the map back (as squeeze's)."""
    if not cuts:
        return Squeezed(text, (), (), len(text))
    pieces: list[str] = []
    at: list[int] = []
    shift: list[int] = []
    last = removed = out_len = 0
    for start, end, keep in cuts:
        pieces.append(text[last:start])
        pieces.append(keep)
        out_len += start - last + len(keep)
        removed += end - start - len(keep)
        at.append(out_len)
        shift.append(removed)
        last = end
    pieces.append(text[last:])
    return Squeezed("".join(pieces), tuple(at), tuple(shift), len(text))
