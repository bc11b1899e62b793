"""Which of many regexes can match on which line of a text, in one pass (Hyperscan).

The checker's patterns are Python regexes with lookarounds and back-references, which
Hyperscan does not take. Each is translated here into a *superset* Hyperscan can compile:
assertions, anchors and word boundaries are dropped (they only ever remove matches), a
back-reference becomes "anything on the line", possessive and atomic parts become plain ones,
and the `\\d \\w \\s` classes are spelled out as the code point ranges Python's own `re` uses
(Hyperscan's Unicode tables are not Python's). A match of the Python regex inside a line is
then always a match of its superset ending on that line, so a line on which Hyperscan reports
no match of a pattern cannot match it and is skipped; the exact Python regex still decides
every line that is left. A regex that cannot be translated (flags of its own, conditional
groups, one that could match the empty string) is "always verify": every line is a candidate.

Without the `hyperscan` package (a platform without wheels), or for a text that is not valid
UTF-8 (a lone surrogate), `Prefilter.scan` answers None and the caller takes its pure-Python
path, which gives the same flags. The compiled database is serialised into the start-up cache,
so a warm start reads it instead of compiling it.
"""
from __future__ import annotations

import bisect
import itertools
import operator
import re
import sys
from functools import lru_cache
from typing import Any

from .startup_cache import cached

try:
    import hyperscan as _hs
except ImportError:  # no wheel for this platform: the pure-Python path
    _hs = None

try:
    from re import _compiler, _constants as _c, _parser as _p
except ImportError:  # another Python: no translation, every pattern is verified
    _c = _p = _compiler = None

_MAX = sys.maxunicode
_SURROGATES = (0xD800, 0xDFFF)


def hyperscan_available() -> bool:
    return _hs is not None


class Untranslatable(Exception):
    """A construct with no superset here: the pattern is verified on every line."""


@lru_cache(maxsize=None)
def _category(name: str) -> tuple[tuple[int, int], ...]:
    """The code point ranges of one of `re`'s Unicode categories, as `re` itself decides them
    for str patterns (isdecimal, isspace, isalnum or `_`); built once when a database is."""
    base = name.replace("CATEGORY_", "").replace("UNI_", "")
    negate = base.startswith("NOT_")
    base = base[4:] if negate else base
    test = {"DIGIT": str.isdecimal, "SPACE": str.isspace,
            "WORD": lambda ch: ch.isalnum() or ch == "_",
            "LINEBREAK": lambda ch: ch == "\n"}.get(base)
    if test is None:
        raise Untranslatable(name)
    ranges: list[tuple[int, int]] = []
    for cp in range(_MAX + 1):
        if test(chr(cp)):
            if ranges and ranges[-1][1] == cp - 1:
                ranges[-1] = (ranges[-1][0], cp)
            else:
                ranges.append((cp, cp))
    return tuple(_complement(ranges)) if negate else tuple(ranges)


def _merge(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def _complement(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out, nxt = [], 0
    for lo, hi in _merge(list(ranges)):
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= _MAX:
        out.append((nxt, _MAX))
    return out


CLASS_RANGES = 24  # a class of more ranges is widened (Hyperscan compiles big classes slowly)


def _widen(ranges: list[tuple[int, int]], limit: int = CLASS_RANGES) -> list[tuple[int, int]]:
    """`ranges` with their smallest gaps filled until at most `limit` are left: a superset
    (\\w is some 700 ranges; CJK blocks and ASCII punctuation stay apart, their gaps are wide)."""
    ranges = _merge(ranges)
    if len(ranges) <= limit:
        return ranges
    gaps = sorted(range(1, len(ranges)), key=lambda k: (ranges[k][0] - ranges[k - 1][1], k))
    fill = set(gaps[:len(ranges) - limit])
    out = [ranges[0]]
    for k in range(1, len(ranges)):
        if k in fill:
            out[-1] = (out[-1][0], ranges[k][1])
        else:
            out.append(ranges[k])
    return out


def _literal(cp: int) -> str:
    """One code point as a Hyperscan expression (UTF-8 mode): letters, digits and characters
    past ASCII as themselves (3 bytes for a hanzi where `[\\x{8fd9}]` took 12: Hyperscan refuses
    an expression longer than 16,000 bytes), anything else escaped."""
    if cp >= 0x80 or chr(cp).isalnum():
        return chr(cp)
    return f"\\x{{{cp:x}}}"


def _class(ranges: list[tuple[int, int]]) -> str:
    """A Hyperscan class of code point ranges (UTF-8 mode), surrogates left out; a single code
    point is written as itself (`_literal`)."""
    if len(ranges) == 1 and ranges[0][0] == ranges[0][1] and not _SURROGATES[0] <= ranges[0][0] <= _SURROGATES[1]:
        return _literal(ranges[0][0])
    parts = []
    for lo, hi in _widen(ranges):
        for a, b in ((lo, min(hi, _SURROGATES[0] - 1)), (max(lo, _SURROGATES[1] + 1), hi)):
            if a <= b:
                parts.append(f"\\x{{{a:x}}}" if a == b else f"\\x{{{a:x}}}-\\x{{{b:x}}}")
    if not parts:
        raise Untranslatable("empty class")
    return "[" + "".join(parts) + "]"


def _in_ranges(items: list) -> list[tuple[int, int]]:
    negate = False
    ranges: list[tuple[int, int]] = []
    for op, av in items:
        if op is _c.NEGATE:
            negate = True
        elif op is _c.LITERAL:
            ranges.append((av, av))
        elif op is _c.RANGE:
            ranges.append((av[0], av[1]))
        elif op is _c.CATEGORY:
            ranges += _category(str(av))
        else:
            raise Untranslatable(str(op))
    return _complement(ranges) if negate else _merge(ranges)


def _width(item: tuple) -> int:
    """How many code points one class item takes."""
    op, av = item
    if op is _c.IN:
        return sum(hi - lo + 1 for lo, hi in _in_ranges(av))
    return _MAX  # NOT_LITERAL, ANY


def _seq(items: Any, ci: bool = False) -> str:
    return "".join(_item(op, av, ci) for op, av in items)


@lru_cache(maxsize=1)
def _cased() -> tuple[str, ...]:
    """Every character with a case mapping: the only ones IGNORECASE can add to a match."""
    return tuple(ch for ch in map(chr, range(_MAX + 1)) if ch != ch.lower() or ch != ch.upper())


@lru_cache(maxsize=None)
def _caseless(op: Any, av: Any) -> tuple[tuple[int, int], ...]:
    """The code points one character item (a literal, a class) may match under IGNORECASE: what
    it matches as written (a superset for a negated class), and every cased character `re`
    itself matches with it (Python's case folding has exceptions no rule here would know: ſ, K)."""
    items = list(av) if op is _c.IN else av
    sub = _p.SubPattern(_p.State(), [(op, items)])
    fullmatch = _compiler.compile(sub, re.IGNORECASE | re.UNICODE).fullmatch
    if op is _c.LITERAL:
        plain = [(av, av)]
    elif op is _c.NOT_LITERAL:
        plain = _complement([(av, av)])
    else:
        plain = _in_ranges(items)
    return tuple(_merge(plain + [(ord(ch), ord(ch)) for ch in filter(fullmatch, _cased())]))


def _item(op: Any, av: Any, ci: bool = False) -> str:
    if ci and op in (_c.LITERAL, _c.NOT_LITERAL, _c.IN):
        return _class(list(_caseless(op, tuple(av) if op is _c.IN else av)))
    if op is _c.LITERAL:
        return _class([(av, av)])
    if op is _c.NOT_LITERAL:
        return _class(_complement([(av, av)]))
    if op is _c.ANY:
        return "[^\\n]"
    if op is _c.IN:
        return _class(_in_ranges(av))
    if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
        return ""  # a zero-width test only removes matches
    if op is _c.SUBPATTERN:
        _, add_flags, del_flags, sub = av
        if add_flags or del_flags:
            raise Untranslatable("flags in a group")
        return f"(?:{_seq(sub.data, ci)})"
    if op is getattr(_c, "ATOMIC_GROUP", None):
        return f"(?:{_seq(av.data, ci)})"
    if op is _c.BRANCH:
        return "(?:" + "|".join(_seq(alt.data, ci) for alt in av[1]) + ")"
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", None)):
        lo, hi, sub = av
        body = _seq(sub.data, ci)
        if not body or hi == 0:
            return ""  # x{0,0} is the empty string, which Hyperscan refuses to spell
        # a bounded run of a wide class ([^。\\n]{0,6}) is slow to compile in UTF-8 and
        # rejects little that its unbounded form does not: left unbounded
        wide = len(sub.data) == 1 and sub.data[0][0] in (_c.IN, _c.NOT_LITERAL, _c.ANY) and _width(sub.data[0]) > 256
        top = "" if hi == _c.MAXREPEAT or (wide and hi > 1) else str(hi)
        return f"(?:{body}){{{lo},{top}}}"
    if op is _c.GROUPREF:
        return "[^\\n]*"  # the same text as the group: some text of the line
    raise Untranslatable(str(op))


def _wide_item(item: tuple) -> bool:
    """Whether one item is a wide class (or any character, or all but one), alone or repeated."""
    op, av = item
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", None)):
        sub = av[2].data
        return len(sub) == 1 and _wide_item(sub[0])
    return op in (_c.IN, _c.NOT_LITERAL, _c.ANY) and _width(item) > 256


def _trimmed(items: list, state: Any) -> list:
    """`items` without what may be left out at either end for `superset(..., trim=True)`: wide
    runs, and parts that may match nothing (zero-width tests, `(?:^|\\s)`); a group at an end
    is opened up first."""
    items = list(items)
    group = (_c.SUBPATTERN, getattr(_c, "ATOMIC_GROUP", None))

    def inner(item: tuple) -> list | None:
        op, av = item
        if op is _c.SUBPATTERN:
            return None if av[1] or av[2] else list(av[3].data)
        return list(av.data)

    def optional(item: tuple) -> bool:
        return _wide_item(item) or _p.SubPattern(state, [item]).getwidth()[0] == 0

    for end in (0, -1):
        while items:
            if items[end][0] in group and (opened := inner(items[end])) is not None:
                items[end:len(items) if end == -1 else 1] = opened
            elif optional(items[end]):
                items.pop(end)
            else:
                break
    return items


def superset(pattern: str, flags: int = 0, *, trim: bool = False) -> str | None:
    """A Hyperscan expression matching wherever `pattern` matches within a line (and maybe
    more), or None where there is none (the pattern is then verified everywhere). Under
    IGNORECASE every literal and class stands for the characters `re` matches with it.

    `trim=True` (for `Prefilter`, which only asks on which line a match ends): the wide runs
    and the parts that may match nothing at either end of the pattern are left out, groups at
    the ends opened first (`(?:^|\\s)[^，。\\s]{1,16}\\s?（\\d{5,}）` becomes `（\\d{5,}）`). Every
    match within a line holds a match of the rest, on the same line. A wide run with nothing
    before it is live at nearly every character of the text: the raw patterns that begin with
    a name before a QQ number or a time were some 40 % of their database's scan."""
    odd = re.ASCII | re.LOCALE | re.DOTALL
    if _p is None or flags & odd:
        return None
    try:
        parsed = _p.parse(pattern, flags)
        if parsed.state.flags & odd:
            return None  # inline (?i) and the like
        if parsed.getwidth()[0] == 0:
            return None  # matches the empty string: every position is a match
        items = parsed.data
        if trim:
            kept = _trimmed(items, parsed.state)
            if kept and _p.SubPattern(parsed.state, kept).getwidth()[0] > 0:
                items = kept
        out = _seq(items, bool((flags | parsed.state.flags) & re.IGNORECASE))
    except (Untranslatable, re.error, AttributeError, TypeError, ValueError, RecursionError):
        return None
    return out or None


def superset_branches(pattern: str, flags: int = 0) -> list[str] | None:
    """Supersets of the alternatives of a pattern that is one alternation at its top
    (`A…B|B…A`, an any-order construction): together a superset of the pattern, each shorter
    than the whole, for a pattern Hyperscan refuses as too large. None where the pattern is no
    such alternation or an alternative has no superset."""
    odd = re.ASCII | re.LOCALE | re.DOTALL
    if _p is None or flags & odd:
        return None
    try:
        parsed = _p.parse(pattern, flags)
        if parsed.state.flags & odd or len(parsed.data) != 1 or parsed.data[0][0] is not _c.BRANCH:
            return None
        ci = bool((flags | parsed.state.flags) & re.IGNORECASE)
        out = []
        for alt in parsed.data[0][1][1]:
            if alt.getwidth()[0] == 0:
                return None
            out.append(_seq(alt.data, ci))
    except (Untranslatable, re.error, AttributeError, TypeError, ValueError, RecursionError):
        return None
    return out if out and all(out) else None


def _compile(expressions: list[str], flags: int) -> bytes | None:
    db = _hs.Database(mode=_hs.HS_MODE_BLOCK)
    db.compile(expressions=[e.encode() for e in expressions], ids=list(range(len(expressions))),
               elements=len(expressions), flags=flags)
    return _hs.dumpb(db)


def _build(patterns: list[tuple[str, int]]) -> tuple[bytes | None, list[int], list[int]]:
    """(serialised database or None, the ids it holds, the patterns verified everywhere)."""
    translated = [superset(src, fl, trim=True) for src, fl in patterns]
    held = [i for i, t in enumerate(translated) if t is not None]
    if not held:
        return None, [], list(range(len(patterns)))
    flags = _hs.HS_FLAG_UTF8
    exprs = [translated[i] for i in held]
    try:
        return _compile(exprs, flags), held, [i for i, t in enumerate(translated) if t is None]
    except _hs.error:
        pass
    ok: list[int] = []  # the pattern of each expression kept (one pattern may have several)
    kept: list[str] = []
    for i in held:  # find the ones Hyperscan refuses (too large, empty after all)
        for exprs_i in ([translated[i]], superset_branches(*patterns[i])):
            if exprs_i is None:
                continue
            try:
                for e in exprs_i:
                    _compile([e], flags)
            except _hs.error:
                continue
            ok += [i] * len(exprs_i)
            kept += exprs_i
            break
    if not ok:
        return None, [], list(range(len(patterns)))
    compiled = set(ok)
    return _compile(kept, flags), ok, [i for i in range(len(patterns)) if i not in compiled]


def _newlines(data: bytes | str) -> list[int]:
    """Offsets of the newlines in data (see normalize.newlines, not imported here)."""
    nl = "\n" if isinstance(data, str) else b"\n"
    if nl not in data:
        return []
    pieces = data.split(nl)  # type: ignore[arg-type]
    pieces.pop()
    return list(map(operator.add, itertools.accumulate(map(len, pieces)), range(len(pieces))))


class Prefilter:
    """Candidate patterns per line of a text. Built (or read from the start-up cache) on the
    first scan; `always` are the indexes verified on every line."""

    def __init__(self, patterns: list[tuple[str, int]], name: str):
        self.patterns = list(patterns)
        self.name = name
        self._db: Any = None
        self._ids: list[int] = []
        self.always: frozenset[int] = frozenset(range(len(self.patterns)))
        self._ready = False
        self.available = _hs is not None and _p is not None and bool(self.patterns)  # decided when built

    def _load(self) -> None:
        self._ready = True
        if not self.available:
            return
        import hashlib

        # the flags as plain numbers: a RegexFlag's repr is some 4 ms for the lexicon's patterns
        digest = hashlib.sha256(repr([(src, int(fl)) for src, fl in self.patterns]).encode()).hexdigest()
        data, ids, always = cached(f"hs-{self.name}", lambda: _build(self.patterns), extra=digest)
        self.always = frozenset(always)
        if data is None:
            return
        try:
            self._db = _hs.loadb(data, _hs.HS_MODE_BLOCK)
            self._scratch = _hs.Scratch(self._db)
        except _hs.error:  # a database of another Hyperscan build: compile afresh
            data, ids, always = _build(self.patterns)
            self.always = frozenset(always)
            self._db = _hs.loadb(data, _hs.HS_MODE_BLOCK) if data is not None else None
            self._scratch = _hs.Scratch(self._db) if self._db is not None else None
        self._ids = ids

    def scan(self, text: str) -> dict[int, set[int]] | None:
        """Line index → indexes of the patterns that may match on that line (lines split at
        "\\n"; `always` not included), or None: no Hyperscan, or a text it cannot read."""
        if not self._ready:
            self._load()
        if self._db is None:
            return None
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:
            return None
        found: list[tuple[int, int]] = []
        append = found.append

        def on_match(i: int, _from: int, to: int, _flags: int, _ctx: object) -> None:
            append((i, to))

        self._db.scan(data, match_event_handler=on_match, scratch=self._scratch)
        out: dict[int, set[int]] = {}
        if not found:
            return out
        breaks = _newlines(data)
        ids = self._ids
        ix = bisect.bisect_left
        for i, to in found:
            k = ix(breaks, to - 1) if breaks else 0
            got = out.get(k)
            if got is None:
                out[k] = {ids[i]}
            else:
                got.add(ids[i])
        return out


# ---- literal keys: every occurrence, as ahocorasick_rs's overlapping search gives them ------
# Keys and text go to Hyperscan as UTF-32 (one code point = 4 bytes: offsets divide by 4) with
# the byte 0 written as 1 (the binding takes NUL-terminated expressions); a report that is not
# on a code point's edge, or whose text is not the key (0 and 1 merged), is dropped.
_NO_NUL = bytes([1]) + bytes(range(1, 256))


def _build_literals(keys: list[str]) -> bytes:
    db = _hs.Database(mode=_hs.HS_MODE_BLOCK)
    db.compile(expressions=[k.encode("utf-32-le").translate(_NO_NUL) for k in keys], ids=list(range(len(keys))),
               elements=len(keys), flags=0, literal=True)
    return _hs.dumpb(db)


class Literals:
    """`find(text)`: (key index, start, end) of every occurrence of every key, ordered by end
    and then start, the order of `ahocorasick_rs.AhoCorasick.find_matches_as_indexes(text,
    overlapping=True)`. With Hyperscan the compiled keys are read from the start-up cache
    (milliseconds, where building the automaton took a tenth of a second); without it, or for
    a text that is not valid Unicode, the Aho-Corasick automaton (built on first need)."""

    def __init__(self, keys: list[str], name: str, *, hyperscan: bool = True):
        self.keys = list(keys)
        self.name = name
        self._lengths = list(map(len, self.keys))
        self._db: Any = None
        self._automaton: Any = None
        if hyperscan and _hs is not None and self.keys and all(self.keys):
            import hashlib

            digest = hashlib.sha256("\0".join(self.keys).encode("utf-8", "surrogatepass")).hexdigest()
            data = cached(f"hs-{name}", lambda: _build_literals(self.keys), extra=digest)
            try:
                self._db = _hs.loadb(data, _hs.HS_MODE_BLOCK)
                self._scratch = _hs.Scratch(self._db)
            except _hs.error:
                self._db = _hs.loadb(_build_literals(self.keys), _hs.HS_MODE_BLOCK)
                self._scratch = _hs.Scratch(self._db)

    def _aho(self) -> Any:
        if self._automaton is None:
            import ahocorasick_rs

            self._automaton = ahocorasick_rs.AhoCorasick(self.keys, implementation=ahocorasick_rs.Implementation.ContiguousNFA)
        return self._automaton

    def find(self, text: str) -> list[tuple[int, int, int]]:
        if not self.keys:
            return []
        if self._db is None:
            return self._aho().find_matches_as_indexes(text, overlapping=True)
        try:
            data = text.encode("utf-32-le").translate(_NO_NUL)
        except UnicodeEncodeError:
            return self._aho().find_matches_as_indexes(text, overlapping=True)
        reports: list[tuple[int, int]] = []
        append = reports.append

        def on_match(i: int, _from: int, to: int, _flags: int, _ctx: object) -> None:
            if not to & 3:
                append((i, to >> 2))

        self._db.scan(data, match_event_handler=on_match, scratch=self._scratch)
        lengths, keys = self._lengths, self.keys
        out = [(i, e - lengths[i], e) for i, e in reports if text[e - lengths[i]:e] == keys[i]]
        out.sort(key=operator.itemgetter(2, 1))
        return out


# ---- the lines holding a match of a few regexes, as a scan of the whole text finds them -------
def _build_spans(patterns: list[tuple[str, int]]) -> bytes | None:
    """A database of every pattern's superset reporting the leftmost start of each match, or
    None where one has no superset or Hyperscan refuses it (then the caller scans as before)."""
    exprs = [superset(src, fl) for src, fl in patterns]
    if not exprs or any(e is None for e in exprs):
        return None
    db = _hs.Database(mode=_hs.HS_MODE_BLOCK)
    try:
        db.compile(expressions=[e.encode() for e in exprs], ids=list(range(len(exprs))), elements=len(exprs),
                   flags=[_hs.HS_FLAG_UTF8 | _hs.HS_FLAG_SOM_LEFTMOST] * len(exprs))
    except _hs.error:
        return None
    return _hs.dumpb(db)  # type: ignore[no-any-return]


class MatchLines:
    """`lines(text, wanted)`: which of the `wanted` lines hold a match of any of `regexes` as
    `regex.finditer(text)` over the whole text finds them, without that scan.

    Every match of a regex is a match of its superset with the same end, starting no earlier
    than the leftmost start Hyperscan reports for that end. Where no reported span holds a
    newline, no match of any regex crosses a line, so the whole-text `finditer`, which takes
    matches left to right without overlap, restarts at each line's start (the match before it
    ends inside an earlier line): a line holds one of its matches exactly where a search from
    the line's start finds one before the line's end. Only lines with a reported span are
    searched, and a search that ran past a line answers for the lines up to its match. Where a
    span holds a newline, or without Hyperscan, or for a text it cannot read, the answer is
    None: the caller scans the whole text."""

    def __init__(self, regexes: list["re.Pattern[str]"], name: str):
        self.regexes = list(regexes)
        self.name = name
        self._db: Any = None
        self._ready = False

    def _load(self) -> None:
        self._ready = True
        if _hs is None or _p is None or not self.regexes:
            return
        import hashlib

        patterns = [(r.pattern, int(r.flags)) for r in self.regexes]
        digest = hashlib.sha256(repr(patterns).encode("utf-8", "surrogatepass")).hexdigest()
        data = cached(f"hs-{self.name}", lambda: _build_spans(patterns), extra=digest)
        if data is None:
            return
        try:
            self._db = _hs.loadb(data, _hs.HS_MODE_BLOCK)
        except _hs.error:  # a database of another Hyperscan build: compile afresh
            data = _build_spans(patterns)
            self._db = _hs.loadb(data, _hs.HS_MODE_BLOCK) if data is not None else None
        self._scratch = _hs.Scratch(self._db) if self._db is not None else None

    def lines(self, text: str, wanted: Any) -> set[int] | None:
        if not self._ready:
            self._load()
        if self._db is None:
            return None
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:
            return None
        reports: list[tuple[int, int, int]] = []
        append = reports.append

        def on_match(i: int, start: int, end: int, _flags: int, _ctx: object) -> None:
            append((i, start, end))

        self._db.scan(data, match_event_handler=on_match, scratch=self._scratch)
        if not reports:
            return set()
        breaks = _newlines(data)
        n = len(breaks)
        ix = bisect.bisect_left
        per: dict[int, set[int]] = {}
        for i, start, end in reports:
            k = ix(breaks, start)
            if k < n and breaks[k] < end:
                return None  # a match may cross a line
            got = per.get(k)
            if got is None:
                per[k] = {i}
            else:
                got.add(i)
        todo = sorted(per.keys() & set(wanted))
        if not todo:
            return set()
        cbreaks = _newlines(text)
        size = len(text)
        out: set[int] = set()
        last: dict[int, tuple[int, Any]] = {}  # regex → (searched from, the match found or None)
        for k in todo:
            ls = cbreaks[k - 1] + 1 if k > 0 else 0
            le = cbreaks[k] if k < len(cbreaks) else size
            for i in sorted(per[k]):
                got = last.get(i)
                if got is not None and got[0] <= ls and (got[1] is None or got[1].start() >= ls):
                    m = got[1]  # the leftmost match from an earlier start lies past this start
                else:
                    m = self.regexes[i].search(text, ls)
                    last[i] = (ls, m)
                if m is not None and m.start() < le:
                    out.add(k)
                    break
        return out
