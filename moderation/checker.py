"""The speech checker: Post → Flags, every flag a suggestion for the director's review.

How a post is read (see normalize.py, spellings.py and moderation/README.md):
1. Fold (NFKC, case, traditional → simplified, confusables, invisible characters dropped) and
   squeeze (fillers, stretched runs); the dense view skips any short run of non-letters inside
   a term and doubled characters.
2. One pass of a literal matcher over the squeezed view (Hyperscan, its database kept in the
   start-up cache; Aho-Corasick without it: prefilter.Literals) finds every lexicon term, its
   spellings (pinyin, initials, mixed, digits, homophones, look-alikes), allow-list words and
   pattern anchors at once; a second pass over the dense view finds the terms written across
   separators.
3. Term hits that an allow-list word overlaps and reaches past are dropped; Latin terms must
   stand between non-letters; `words` must be whole words by jieba (asked only here).
4. A category's regex patterns run only on the lines where one of its anchors was found (and a
   pattern with required literals only where the automaton also saw one of them; where every
   pattern of a category has them, its anchors are looked for on those lines alone, by one
   regex); of those, where Hyperscan runs, only the patterns whose superset it saw on the line
   (one pass for all: prefilter.Prefilter), else a line is first tried against the union of the
   category's patterns; raw patterns (timestamps, QQ numbers, counters) only on lines their
   prefilter finds (and Hyperscan saw them on).
5. Vetoes cover the hit's sentence; words inside a reporting quotation are not the poster's.
6. Spans go back through the views to the original text.

Start-up: the lexicon, the fold tables and the literal matcher are built once per process
(cached in `_engine()`, mostly read from the start-up cache); jieba loads its dictionary (about 0.25 s, see segment.py) lazily, on
the first `words` hit that needs a boundary. `get_checker(ruleset)` caches one Checker per ruleset.
"""
from __future__ import annotations

import bisect
import gc
import hashlib
import itertools
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterable

from . import normalize
from .regex_hints import guarded, guarded_source, required_literals
from .belittle import load_model as belittle_model
from .loader import Lexicon, Pattern, compile_regex, load_lexicon, register_regex
from .models import Flag
from .normalize import Views, views
from .prefilter import Literals, MatchLines, Prefilter, hyperscan_available as prefilter_hyperscan
from .segment import Segmenter
from .speech_models import SpeechModels, load_speech_models
from .spellings import addressed, said_to
from .startup_cache import Chunked, cached, chunked, paused_gc
from .structure import is_enlarged, is_red, whistle_codes, whistle_offenders

CONTEXT = 12
_LATIN = re.compile(r"[a-z0-9]")
# a link, also with its protocol spaced out to dodge a filter (h t t p s : / / t.cn)
_LINK = re.compile(r"https?://[^\s<>\"'，。]+"
                   r"|(?<![a-z0-9])h[ \t]{1,2}t[ \t]{1,2}t[ \t]{1,2}p(?:[ \t]{1,2}s)?[ \t]{0,2}:[ \t]{0,2}/[ \t]{0,2}/[ \t]{0,2}[^\s<>\"'，。]+"
                   r"|(?<![a-z0-9@.])www\s*(?:点|dot)\s*[a-z0-9-]+"
                   r"|(?<![a-z0-9@.])[a-z0-9-]+\s*(?:点|dot)\s*(?:com|cn|net|org)(?![a-z])"
                   r"|(?<![a-z0-9@.])[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)+/[a-z0-9][^\s<>\"'，。]*"
                   r"|(?<![a-z0-9@.])[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|cn|net|org|cc|io|me)/[^\s<>\"'，。]+", re.I)

_UNSET = object()
_LINK_HINT = re.compile(r"://|www|/|(?:点|dot)\s*(?:com|cn|net|org)", re.I)  # what every `_LINK` alternative holds


@dataclass(frozen=True)
class Hit:
    category: str
    start: int  # in the original text
    end: int
    term: str


class _Engine:
    """Everything built from the lexicon: shared by every Checker of the process."""

    def __init__(self, lexicon: Lexicon, *, shortcuts: bool = True):
        """`shortcuts=False` is the plain form (every anchor in the automaton, each pattern tried
        in turn), which the tests hold the shortcuts against."""
        normalize.warm()
        self.shortcuts = shortcuts
        self.lexicon = lexicon
        self.patterns = {c: lx.patterns for c, lx in lexicon.categories.items() if lx.patterns}
        self.unless = {c: lx.unless for c, lx in lexicon.categories.items() if lx.unless}
        # With Hyperscan, the keys that only anchor or feed patterns (the commonest: 这, 以, 用 …)
        # are a second database, searched on the lines where the pattern database saw a
        # pattern: the first one is left with terms and allowed words, a few hits a line.
        self.split = shortcuts and prefilter_hyperscan()
        t = _tables(lexicon, shortcuts, self.split)
        self.always = t["always"]
        self.gated = _Gates(t["gated"])
        self.implied: dict[str, frozenset[int]] = t["implied"]
        self._unions: dict[tuple[str, tuple[int, ...] | None], re.Pattern[str] | None] = {}
        self._union_sets: dict[str, int] = {}
        keys = t["keys"]
        self.terms, self.allowed, self.anchors, self.needs = t["terms"], t["allowed"], t["anchors"], t["needs"]
        dkeys, self.dterms, self.dallowed = t["dkeys"], t["dterms"], t["dallowed"]
        fed = t.get("fed_keys")
        self.pattern_automaton = Literals(fed, "pattern-keys") if fed else None
        self.automaton = Literals(keys, "keys", hyperscan=shortcuts) if keys else None
        # the dense view's automaton: every term, word, Latin spelling and allowed word that the
        # dense view leaves as it is (two letters or more, no digits, no doubled hanzi)
        self.dense_automaton = Literals(dkeys, "dense-keys", hyperscan=shortcuts) if dkeys else None
        self.raw: list[Pattern] = [p for lx in lexicon.categories.values() for p in lx.raw_patterns]
        prefilters = [lx.raw_prefilter for lx in lexicon.categories.values() if lx.raw_prefilter]
        self.raw_prefilter = guarded(re.compile("|".join(f"(?:{p})" for p in prefilters))) if prefilters else None
        quick, words, dictionary = _quick_boundaries(lexicon, lambda: [*zip(keys, self.terms), *zip(dkeys, self.dterms)])
        self.segmenter = Segmenter(lexicon.allow, quick=quick, words=words, dictionary=dictionary)
        # every category's patterns in one Hyperscan pass (see prefilter.py): pattern i of a
        # category is number base[cat] + i there
        self.pattern_base: dict[str, int] = {}
        flat: list[tuple[str, int]] = []
        for cat, ps in self.patterns.items():
            self.pattern_base[cat] = len(flat)
            flat += [(p.source, p.regex.flags) for p in ps]
        self.prefilter = Prefilter(flat, "patterns") if shortcuts else None

    def union(self, category: str, order: tuple[int, ...]) -> "re.Pattern[str] | None":
        """One search of the category's patterns `order` at once, which rejects most anchored
        lines. Only the patterns a line can match are joined (those whose literals it holds,
        and those without literals): a smaller union rejects a line sooner. Built on first use
        (all at start-up added a third to it). Forum text usually brings a category a handful of
        distinct `order`s, but posters choose it: past UNION_SETS of them the category's full
        union serves (any superset of `order` rejects the same lines, only slower)."""
        key: tuple[str, tuple[int, ...] | None] = (category, order)
        if key not in self._unions and self._union_sets.get(category, 0) >= UNION_SETS:
            key = (category, None)
        if key not in self._unions:
            ps = self.patterns[category]
            if key[1] is None:
                self._unions[key] = _union(ps)
            else:
                self._union_sets[category] = self._union_sets.get(category, 0) + 1
                self._unions[key] = _union([ps[i] for i in key[1]])
        return self._unions[key]


class _Gates:
    """A gated category's anchors as one regex, compiled on its first use (ten of them were a
    twentieth of a second of every start-up)."""

    def __init__(self, sources: dict[str, list[str]]):
        self._sources = {cat: "|".join(map(re.escape, keys)) for cat, keys in sources.items()}
        for source in self._sources.values():
            register_regex(source)
        self._compiled: dict[str, re.Pattern[str]] = {}

    def __bool__(self) -> bool:
        return bool(self._sources)

    def __contains__(self, category: str) -> bool:
        return category in self._sources

    def get(self, category: str) -> "re.Pattern[str] | None":
        got = self._compiled.get(category)
        if got is None:
            source = self._sources.get(category)
            if source is None:
                return None
            got = self._compiled[category] = compile_regex(source)
        return got


def _build_tables(lexicon: Lexicon, shortcuts: bool, split: bool = False) -> dict:
    """What the engine needs per automaton key, as plain data (kept by startup_cache)."""
    entries, literals, dense_keys = _derived(lexicon)
    grouped: dict[str, list[tuple[str, str, str]]] = {}
    for k, kind, cat, term in entries:
        grouped.setdefault(k, []).append((kind, cat, term))
    with_patterns = {c for c, lx in lexicon.categories.items() if lx.patterns}
    # a pattern with literals one of which every match contains is searched only on lines
    # where the automaton saw one (the literals as written: patterns read the squeezed view)
    always: dict[str, tuple[int, ...]] = {}
    need_of: dict[str, list[tuple[str, int]]] = {}
    for cat, lits in literals.items():
        always[cat] = tuple(i for i, lit in enumerate(lits) if lit is None)
        for i, lit in enumerate(lits):
            for s in lit or ():
                need_of.setdefault(s, []).append((cat, i))
    # a category whose every pattern has required literals is looked at only where one of
    # them was seen: its anchors are then checked on those lines alone, by one regex, and
    # need not be in the automaton (they are its commonest keys: 怪, 死, 逼 …)
    anchor_keys: dict[str, list[str]] = {}
    for k, kind, cat, _ in entries:
        if kind == "anchor" and cat in with_patterns and k:
            anchor_keys.setdefault(cat, []).append(k)
    gated = {cat: sorted(set(ks), key=len, reverse=True)
             for cat, ks in anchor_keys.items() if shortcuts and not always[cat]}
    # a pattern every literal of which holds an anchor proves the anchor by being seen
    implied = {cat: frozenset(i for i, lit in enumerate(literals[cat])
                              if lit and all(any(a in s for a in anchor_keys[cat]) for s in lit))
               for cat in gated}
    # one automaton over every key; per key index, sorted out once: its term entries,
    # whether it is an allowed word, the categories whose patterns it anchors and the
    # patterns whose literal it is
    keys: list[str] = []
    terms: list[tuple] = []
    allowed: list[bool] = []
    anchors: list[tuple[str, ...]] = []
    needs: list[tuple] = []
    for k in dict.fromkeys([*grouped, *need_of]):
        lst = list(dict.fromkeys(grouped.get(k, ())))
        ts = tuple(e for e in lst if e[0] not in ("allow", "anchor"))
        an = tuple(dict.fromkeys(c for kind, c, _ in lst
                                 if kind == "anchor" and c in with_patterns and c not in gated))
        al = any(kind == "allow" for kind, _, _ in lst)
        by_category: dict[str, set[int]] = {}
        for cat, i in need_of.get(k, ()):
            by_category.setdefault(cat, set()).add(i)
        literal_of = tuple((cat, frozenset(ix)) for cat, ix in by_category.items())
        if ts or al or an or literal_of:
            keys.append(k)
            terms.append(ts)
            allowed.append(al)
            anchors.append(an)
            needs.append(literal_of)
    # a key as the dense view writes it (他奶奶的 → 他奶的): keys that meet there are one
    dense_of = dict(dense_keys)
    dgroups: dict[str, tuple[list, list[bool]]] = {}
    for k, ts, al in zip(keys, terms, allowed):
        dk = dense_of.get(k)
        if dk and (any(e[0] != "sound" for e in ts) or al):
            g = dgroups.setdefault(dk, ([], []))
            g[0].extend(e for e in ts if e not in g[0])
            g[1].append(al)
    dkeys = list(dgroups)
    dterms = [tuple(g[0]) for g in dgroups.values()]
    dallowed = [any(g[1]) for g in dgroups.values()]
    out = {"always": always, "gated": gated, "implied": implied, "keys": keys, "terms": terms,
           "allowed": allowed, "anchors": anchors, "needs": needs, "dkeys": dkeys, "dterms": dterms,
           "dallowed": dallowed}
    if split:  # keys with terms or allowed words; keys that anchor or feed patterns (_Engine)
        main = [i for i, (ts, al) in enumerate(zip(terms, allowed)) if ts or al]
        fed = [i for i, (an, nd) in enumerate(zip(anchors, needs)) if an or nd]
        out.update(keys=[keys[i] for i in main], terms=[terms[i] for i in main], allowed=[allowed[i] for i in main],
                   fed_keys=[keys[i] for i in fed], anchors=[anchors[i] for i in fed], needs=[needs[i] for i in fed])
    return out


_CHUNKED = ("terms", "needs", "dterms")  # read by the index of a key found: kept as startup_cache.Chunked


def _tables(lexicon: Lexicon, shortcuts: bool, split: bool) -> dict:
    def build() -> dict:
        return {k: chunked(v) if k in _CHUNKED else v for k, v in _build_tables(lexicon, shortcuts, split).items()}
    t = cached("engine", build, extra=f"{_lexicon_digest(lexicon)}|{shortcuts}|{split}")
    return {k: Chunked(v) if k in _CHUNKED else v for k, v in t.items()}


def _quick_boundaries(lexicon: Lexicon, keyed: Callable[[], list[tuple[str, tuple]]]) -> tuple[tuple, Callable, Callable]:
    """segment.quick_table and a loader of segment.boundary_words for the keys whose hits ask
    jieba (words, sounds, terms of two characters). jieba loads only to build them; both are
    kept between runs by startup_cache under the lexicon's digest (jieba's dictionary is in
    the cache's fingerprint), the words read only on the first boundary question."""
    from .segment import ShardedWords, boundary_words, quick_table, sharded_dictionary

    digest = _lexicon_digest(lexicon)

    def build() -> tuple:
        ks = [k for k, ts in keyed() if k and any(
            kind in ("word", "sound") or (kind == "term" and len(k) <= 2) for kind, _, _ in ts)]
        return quick_table(Segmenter(lexicon.allow).tokenizer(), {k[0] for k in ks}, {k[-1] for k in ks})

    quick = cached("boundaries", build, extra=digest)

    ends = hashlib.sha256(("".join(sorted(quick[0])) + "|" + "".join(sorted(quick[1]))).encode()).hexdigest()

    def words() -> ShardedWords:
        return ShardedWords(cached("boundary-words", lambda: boundary_words(Segmenter(lexicon.allow).tokenizer(), quick[0], quick[1]),
                                   extra=f"{digest}|{ends}"))

    def dictionary() -> tuple[dict[str, bytes], int]:
        return cached("jieba-shards", lambda: sharded_dictionary(Segmenter(lexicon.allow).tokenizer()),
                      extra=hashlib.sha256(repr(lexicon.allow).encode()).hexdigest())

    return quick, words, dictionary


def _derive(lexicon: Lexicon) -> tuple[list[tuple[str, str, str, str]], dict[str, list[tuple[str, ...] | None]], list[tuple[str, str]]]:
    """The automaton's entries, each category's patterns' required literals, and the keys the
    dense view can hold (no digit), each with its dense form (doubled hanzi made single) where
    that is two letters or more."""
    literals = {c: [required_literals(p.regex) for p in lx.patterns]
                for c, lx in lexicon.categories.items() if lx.patterns}
    entries = lexicon.entries()
    keys = dict.fromkeys(e[0] for e in entries)
    # Latin doubles (asshole) are the word's own; an emoji written for a character (你🐴的) is no gap
    dense_keys = [(k, d) for k in keys if not any(c.isdigit() or unicodedata.category(c) == "So" for c in k)
                  and len(d := normalize.dense(k).text) >= 2 and (d == k or not _LATIN.search(k))]
    return entries, literals, dense_keys


def _derived(lexicon: Lexicon) -> tuple[list[tuple[str, str, str, str]], dict[str, list[tuple[str, ...] | None]], list[tuple[str, str]]]:
    """`_derive`, kept between runs (startup_cache) under a digest of everything it reads."""
    return cached("lexicon", lambda: _derive(lexicon), extra=_lexicon_digest(lexicon))


def _lexicon_digest(lexicon: Lexicon) -> str:
    """What `_derive` depends on, hashed: a lexicon changed after it was loaded, or built in
    code, gets its own cache entry (about a millisecond for the shipped lexicon)."""
    h = hashlib.sha256(repr((sorted(lexicon.lookalike.items()), sorted(lexicon.rebus.items()), lexicon.allow)).encode())
    for cat, lx in lexicon.categories.items():
        h.update(repr((cat, lx.terms, lx.words, lx.sounds, lx.latin, lx.anchors,
                       [(p.source, int(p.regex.flags)) for p in lx.patterns])).encode())  # int: an enum's repr is slow
    return h.hexdigest()


def _union(patterns: list[Pattern]) -> "re.Pattern[str] | None":
    """One regex matching wherever one of `patterns` does, or None where they cannot be joined
    (numbered or named groups referred to, flags of their own)."""
    sources = [p.source for p in patterns]
    if any(re.search(r"\\[1-9]|\(\?P[=<]|\(\?[aiLmsux]+\)", src) for src in sources):
        return None
    try:
        return guarded_source("|".join(f"(?:{src})" for src in sources), re.M)
    except re.error:
        return None


UNION_SETS = 8  # distinct pattern sets a category's unions are compiled for


@lru_cache(maxsize=1)
def _engine() -> _Engine:
    with paused_gc():  # a few hundred thousand objects that live as long as the process, no cycles
        return _Engine(load_lexicon())


_SENTENCE_ENDS = "。!?;！？；"


BELITTLE_CATEGORY = "mockery"


def _sentence(text: str, ls: int, le: int, start: int, end: int) -> str:
    """The sentence of text[ls:le] (a line) around start..end: a category's veto (`unless`)
    covers the sentence it is in, not the whole line (我要是狼，我就天打雷劈 is one sentence)."""
    a = max([text.rfind(c, ls, start) for c in _SENTENCE_ENDS] + [ls - 1]) + 1
    bs = [i for i in (text.find(c, end, le) for c in _SENTENCE_ENDS) if i >= 0]
    return text[a:min(bs) + 1 if bs else le]  # with its end mark: a question stays a question


# a quotation introduced by a reporting word: someone else's words, or the rule's, not the poster's
_QUOTE = re.compile(r"“[^”\n]{1,80}”|「[^」\n]{1,80}」|『[^』\n]{1,80}』|‘[^’\n]{1,80}’|\"[^\"\n]{1,80}\"|'[^'\n]{1,80}'")
_REPORTING = re.compile(r"(说|讲|骂|写|问|喊|叫|道|称|回|回复|引用|的发言|原话|原文|规则|规定|禁止|不能说|不准说|不要说|比如|例如|例|例句|例子是|例子就是|举例|举个例子|像|什么叫|算不算|这句|那句|楼那句|反映|用了|发了)"
                        r"(了|过|着|的是|的|我|你|他|她|道|[0-9一二三四五六七八九十]{1,3}号)?(是|为)?(一|这|那)?(句|声)?(话)?[:：,，\s]*$"
                        r"|(那|这|一)(句|声)[:：,，\s]*$"
                        r"|规则(帖|贴)?(里|中|上)(写的|说的|举的|的)?[:：,，\s]*$")  # 规则帖里“…” (set 52)
# a quotation judged right after it (“出门被车撞”已经踩线了吧 / “卧槽”按规则要被罚) is reported, not said
_JUDGED = re.compile(r"[\s,，—]*((的|这个|这种|这类)(例子|说法)|这种话|这句话|这类话|(这|那)一?句"  # “…”那句 (set 52)
                     r"|(这|那)(种|类|些|两|几|样的)[^。！？!?\n“”]{0,5}(词|话|句|字|说法|例子|例句|感叹)"
                     r"|(这种|这类|这样)[^。！？!?\n“”]{0,6}(算|属于)|(也|都)?是规则(里|中|上)?的|违规例|(在)?规则(帖)?(里|中|上)"
                     r"|(已经|是不是|算不算|算|是|按规则|按规定|明显|也)?[^。！？!?\n]{0,4}(违规|踩线|犯规|要被罚|被罚|吃牌|该罚|判罚)"
                     r"|[^。！？!?\n]{0,2}(请判|请导演|请处理|麻烦导演|麻烦看看|请看看))")
_QUOTE_MARK = re.compile("[“「『‘\"']")  # a quotation's opening mark: texts without one are left at once
_QUOTE_JOIN = re.compile(r"[、,，\s]*(和|或|或者|以及|跟)?[、,，\s]*$")


def _reported(text: str) -> list[tuple[int, int]]:
    """Spans of quotations that report words (他骂我“傻逼”, 规则说“禁止发誓”)."""
    if _QUOTE_MARK.search(text) is None:
        return []
    out: list[tuple[int, int]] = []
    quotes = [(m.start(), m.end()) for m in _QUOTE.finditer(text)]
    for a, b in quotes:
        # reported: a reporting word just before, or right after a reported quotation (禁止“你妈”“孙子”)
        if _REPORTING.search(text, max(0, a - 8), a) or _JUDGED.match(text, b) or (
                out and _QUOTE_JOIN.fullmatch(text, out[-1][1], a)):
            out.append((a, b))
    # or right before one judged after the list (“你妈”“孙子”这两句都违规)
    kept = set(out)
    for (a, b), nxt in zip(reversed(quotes[:-1]), reversed(quotes[1:])):
        if nxt in kept and (a, b) not in kept and _QUOTE_JOIN.fullmatch(text, b, nxt[0]):
            kept.add((a, b))
    return sorted(kept)


def _blank_reported(text: str) -> str:
    """The text with its reporting quotations (`_reported`) blanked, or the text itself."""
    scored = text
    for a, b in _reported(text):
        scored = scored[:a] + " " * (b - a) + scored[b:]
    return scored


_BATCH_SEP = "\n\x00\n"  # between the texts of a batch (check_texts)


def _fold_scored(text: str, scored: str, folded: str | None) -> str:
    """What a model scores, folded: `scored` is the text with parts blanked (or the text itself,
    unchanged), and `folded` the text folded, when known, which serves where nothing was blanked."""
    return folded if folded is not None and scored is text else normalize.fold_text(scored)


def _split_folded(folded_batch: str, n: int) -> list[str] | None:
    """The folded texts of a batch from its folded view, or None where that cannot be trusted.
    Folding is one `str.translate`, character by character, so the view is the texts' folds
    joined by the separator's fold, which is itself; where the view holds no NUL but the
    separators' (n - 1 of them), splitting at the separator gives the texts back."""
    if _separator_folds_to_itself() and folded_batch.count("\x00") == n - 1:
        return folded_batch.split(_BATCH_SEP)
    return None


@lru_cache(maxsize=1)
def _separator_folds_to_itself() -> bool:
    return normalize.fold_text(_BATCH_SEP) == _BATCH_SEP


def _latin_spelling_stands(kind: str, v: Views, f_text: str, fs: int, fe: int) -> bool:
    """Whether a Latin spelling found at f_text[fs:fe] counts: between non-letters; a spelling of
    one or two letters (`latin2`, `addressed`) written in lower case or said to a player (你个SB);
    an `addressed` one said to someone or standing alone as a clause."""
    if (fs > 0 and _LATIN.match(f_text[fs - 1])) or (fe < len(f_text) and _LATIN.match(f_text[fe])):
        return False
    if kind != "latin" and not _lower_case(v, fs, fe) and not said_to(f_text, fs, fe):
        return False
    return kind != "addressed" or addressed(f_text, fs, fe)


def _lower_case(v: Views, fs: int, fe: int) -> bool:
    """Whether the player wrote a folded span without capitals: two letters in upper case are
    an abbreviation (XP, HD, CN), in lower case a spelling (nc, zz)."""
    s, e = v.span_from_folded(fs, fe)
    written = v.original[s:e]
    return written == written.lower()


@lru_cache(maxsize=4096)
def _written_whole(term: str, letters: int, dense_length: int) -> bool:
    """Whether `letters` written letters spell `term` in the dense view: every letter of it once
    (他、奶、奶、的 for 他奶奶的) or each doubled (傻傻逼逼); 妈妈的 is no 妈的."""
    n = len(normalize.key(term))
    return letters == n or (n == dense_length and letters >= 2 * n)


def _find_on_lines(automaton: Literals, text: str, bounds: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """`automaton.find(text)`'s hits within the lines `bounds` (in text order): one search of
    those lines joined (keys hold no newline), offsets mapped back."""
    if not bounds:
        return []
    starts: list[int] = []
    pos = 0
    for ls, le in bounds:
        starts.append(pos)
        pos += le - ls + 1
    got = automaton.find("\n".join(text[ls:le] for ls, le in bounds))
    out = []
    k = 0
    for i, s, e in got:  # in order of end
        while k + 1 < len(starts) and starts[k + 1] < e:
            k += 1
        shift = bounds[k][0] - starts[k]
        out.append((i, s + shift, e + shift))
    return out


def _line(text: str, start: int, end: int) -> tuple[int, int]:
    ls = text.rfind("\n", 0, start) + 1
    le = text.find("\n", end)
    return ls, (len(text) if le < 0 else le)


class _Lines:
    """The lines of a text by index: newline offsets found once, a position's line by bisection."""

    def __init__(self, text: str):
        self.length = len(text)
        self.breaks = normalize.newlines(text)

    def index(self, pos: int) -> int:
        return bisect.bisect_left(self.breaks, pos) if self.breaks else 0

    def bounds(self, k: int) -> tuple[int, int]:
        b = self.breaks
        return (b[k - 1] + 1 if k > 0 else 0), (b[k] if k < len(b) else self.length)

    def around(self, pos: int) -> tuple[int, int]:
        return self.bounds(self.index(pos))


class _Hits:
    """Hits in scan order, the first per category per line; a category's `unless` found in the
    hit's sentence vetoes it there, and so does a reporting quotation around it."""

    def __init__(self, unless: dict[str, "re.Pattern[str]"], quoted: list[tuple[int, int]] = ()):
        self.unless = unless
        self.quoted = quoted
        self.hits: list[Hit] = []
        self.seen: set[tuple[str, int]] = set()

    def add(self, cat: str, span: tuple[int, int], term: str, line_start: int, line_text: str) -> None:
        key = (cat, line_start)
        if key in self.seen:
            return
        if self.quoted and any(a <= span[0] < b for a, b in self.quoted):
            return  # reported words (他骂我“傻逼”), or a construction that starts in them: not the poster's
        veto = self.unless.get(cat)
        if veto is not None and veto.search(line_text):
            return
        self.seen.add(key)
        self.hits.append(Hit(cat, span[0], span[1], term))


class Checker:
    """A lexicon checker bound to a ruleset (its citations, cards, links and whistle rules)."""

    def __init__(self, ruleset: Any = None, lexicon: Lexicon | None = None):
        self.ruleset = ruleset
        self.engine = _engine() if lexicon is None else _Engine(lexicon)
        self._speech: Any = _UNSET  # `_speech_models`, found on first use
        ev = getattr(getattr(ruleset, "moderation", None), "evidence", None)
        self.links_forbidden = bool(ev and ev.links_forbidden)
        self.attachments_forbidden = bool(ev and ev.attachments_forbidden)
        wh = getattr(ruleset, "whistle", None)
        self.whistle_enabled = bool(wh and wh.enabled)
        self.whistle_sounds = wh.sounds if wh else ""
        self._raw = list(self.engine.raw)
        self._raw_prefilters = [self.engine.raw_prefilter] if self.engine.raw_prefilter is not None and self._raw else []
        if self.links_forbidden:
            self._raw.append(Pattern("evidence", _LINK, None, _LINK.pattern))
            self._raw_prefilters.append(_LINK)
        # a raw pattern with required literals runs only on the lines that hold one of them
        raw = [(p.source, int(p.regex.flags)) for p in self._raw]
        self._raw_literals = cached("raw-literals", lambda: [required_literals(p.regex) for p in self._raw],
                                    extra=hashlib.sha256(repr(raw).encode("utf-8", "surrogatepass")).hexdigest())
        # and, where Hyperscan runs, only on the lines it saw the pattern on
        self._raw_filter = Prefilter([(p.source, p.regex.flags) for p in self._raw], "raw") if self._raw else None
        # and their prefilters' lines found without a scan of the whole text where Hyperscan can
        self._raw_lines = MatchLines(self._raw_prefilters, "raw-prefilters") if self._raw_prefilters else None

    # ---- citations -------------------------------------------------------------------
    def rule(self, category: str) -> str:
        return self.ruleset.rule_for(category) if self.ruleset is not None else category

    def card(self, category: str) -> str:
        return self.ruleset.suggested_card(category) if self.ruleset is not None else "blue"

    def flag(self, category: str, text: str, start: int, end: int, term: str = "", note: str = "",
             evidence: str | None = None) -> Flag:
        lo, hi = max(0, start - CONTEXT), min(len(text), end + CONTEXT)
        context = ("…" if lo > 0 else "") + text[lo:hi] + ("…" if hi < len(text) else "")
        return Flag(category, self.rule(category), text[start:end] if evidence is None else evidence,
                    start, end, context, self.card(category), term=term, note=note)

    # ---- the scan ----------------------------------------------------------------------
    def hits(self, text: str) -> list[Hit]:
        """Every category hit in `text` (the first per category per line), original spans.

        The scan makes a few hundred thousand short-lived tuples on a big batch and no cycles:
        the cyclic collector, whose older generations' passes walk the process's live objects,
        is paused for it."""
        return self._scan(text)[0]

    def _scan(self, text: str) -> tuple[list[Hit], Views]:
        """`hits(text)` and the views they were found in (a batch's folded view serves the
        belittling model too)."""
        if not gc.isenabled():
            return self._hits(text)
        gc.disable()
        try:
            return self._hits(text)
        finally:
            gc.enable()

    def _hits(self, text: str) -> tuple[list[Hit], Views]:
        eng = self.engine
        v = views(text)
        found = eng.automaton.find(v.squeezed.text) if eng.automaton else []
        out = _Hits(eng.unless, _reported(text))
        lines = _Lines(v.squeezed.text)
        if found:
            t, al = eng.terms, eng.allowed
            terms = [(s, e, x) for i, s, e in found if (x := t[i])]
            if terms:
                allows = [(s, e) for i, s, e in found if al[i]]
                self._term_hits(v, lines, terms, allows, out)
        self._pattern_hits(v, lines, found, out)
        if eng.dense_automaton is not None:
            d = normalize.dense(v.folded.text)
            if d.changed:
                dfound = eng.dense_automaton.find(d.text)
                if dfound:
                    self._dense_hits(v, d, dfound, out)
        if self._raw_prefilters:
            self._raw_hits(v, out)
        return out.hits, v

    def _dense_hits(self, v: Views, d: "normalize.Dense", found: list, out: "_Hits") -> None:
        """Terms found only in the dense view: across a separator or a doubling (傻，逼 /
        傻😂逼 / 傻傻逼逼). A skipped run holding sentence punctuation must leave the term
        standing apart on one side at least (他太傻，逼得我 is two clauses, 出他，傻、逼 is not),
        and a `word` (a possible piece of another word) may not span such a run or a digit."""
        eng = self.engine
        f_text = v.folded.text
        f_len = len(f_text)
        dt, da = eng.dterms, eng.dallowed
        allows = sorted((s, e) for i, s, e in found if da[i])
        allow_starts = [c for c, _ in allows]
        reach = max((e - s for s, e in allows), default=0)
        dlines = _Lines(d.text)
        for i, start, end in found:
            entries = dt[i]
            if not entries:
                continue
            if d.as_written(start, end):
                continue  # nothing skipped inside (as below, without the line's maps)
            fs, fe = d.span_to_folded(start, end)
            fs = normalize.clause_double_start(f_text, fs, fe)
            if fe - fs == end - start:
                continue  # nothing skipped inside: the squeezed scan has seen it
            latin_only = False
            if not normalize.gaps_ok(f_text, fs, fe):
                if not normalize.interleaved(f_text, fs, fe):
                    continue
                latin_only = True  # s1b, c7n7m: digits between the letters of a Latin spelling
            if allows:
                lo = bisect.bisect_left(allow_starts, start - reach)
                hi = bisect.bisect_left(allow_starts, end)
                if lo < hi and any(b > start and (a < start or b > end) for a, b in allows[lo:hi]):
                    continue
            letters = sum(c.isalpha() for c in f_text[fs:fe])
            # doubled only in part: 妈妈的 is no 妈的, 傻傻逼逼 is 傻逼; in Latin words any letter (fuuck)
            stretched = letters != end - start and letters < 2 * (end - start)
            skipped = f_text[fs:fe]
            clause = any(c in normalize.CLAUSE for c in skipped)
            if clause:
                # standing apart = after or before punctuation, a space or the edge (not a digit: 8日，她)
                apart_before = fs == 0 or not f_text[fs - 1].isalnum()
                apart_after = fe >= f_len or not f_text[fe].isalnum()
                if not (apart_before or apart_after):
                    continue
            weak = clause or normalize.number_inside(f_text, fs, fe)
            span = None
            whole: bool | None = None
            for kind, cat, term in entries:
                if kind == "sound":
                    continue  # a homophone across a separator is too far from what was written
                if kind == "latin" or kind == "latin2" or kind == "addressed":
                    if stretched and end - start < 3:
                        continue  # too, see, all: doubles of everyday words
                    if not _latin_spelling_stands(kind, v, f_text, fs, fe):
                        continue
                elif latin_only:
                    continue
                elif not _written_whole(term, letters, end - start):
                    continue
                elif kind == "term":
                    if end - start <= 2 and self.engine.segmenter.split_apart(d.text, start, end):
                        continue
                elif kind == "word":
                    if weak and self.engine.segmenter.has_everyday_char(d.text[start:end]):
                        continue  # across a clause or a digit, a word with an everyday character is chance: 8日，她
                    if whole is None:
                        whole = self.engine.segmenter.is_word(d.text, start, end)
                    if not whole:
                        continue
                if span is None:
                    span = v.span_from_folded(fs, fe)
                    ls, le = dlines.around(start)
                    sentence = _sentence(d.text, ls, le, start, end)
                if any(h.category == cat and (h.start, h.end) == span for h in out.hits):
                    continue  # the squeezed scan found it as written (asshole, 他奶奶的)
                out.add(cat, span, term, -(1 << 40) - ls, sentence)

    def _term_hits(self, v: Views, lines: "_Lines", terms: list, allows: list[tuple[int, int]],
                   out: "_Hits") -> None:
        """Terms, words and Latin terms, unless an allowed word overlaps and reaches past them."""
        s_text, f_text = v.squeezed.text, v.folded.text
        allows.sort()
        allow_starts = [c for c, _ in allows]
        reach = max((d - c for c, d in allows), default=0)
        terms.sort(key=lambda t: (t[0], -t[1]))
        for start, end, entries in terms:
            if allows:
                lo = bisect.bisect_left(allow_starts, start - reach)
                hi = bisect.bisect_left(allow_starts, end)
                if lo < hi and any(d > start and (c < start or d > end) for c, d in allows[lo:hi]):
                    continue
            fs, fe = v.span_from_squeezed(start, end)
            span = None
            whole: bool | None = None
            for kind, cat, term in entries:
                if kind == "latin" or kind == "latin2" or kind == "addressed":
                    if not _latin_spelling_stands(kind, v, f_text, fs, fe):
                        continue
                elif kind == "term":
                    # a short term cut through at both ends is a piece of two words (输入|你的: 入你)
                    if end - start <= 2 and self.engine.segmenter.split_apart(f_text, fs, fe):
                        continue
                elif kind == "word" or kind == "sound":
                    if whole is None:
                        whole = self.engine.segmenter.is_word(f_text, fs, fe)
                    if not whole:
                        continue
                if span is None:
                    span = v.span_from_folded(fs, fe)
                    ls, le = lines.around(start)
                    sentence = _sentence(s_text, ls, le, start, end)
                out.add(cat, span, term, ls, sentence)

    def _pattern_hits(self, v: Views, lines: "_Lines", found: list, out: "_Hits") -> None:
        """A category's patterns on the lines holding one of its anchors (categories in the
        order their first anchor appears, lines in text order, patterns in lexicon order); a
        pattern with required literals only where one of them is on the line. The union of a
        category's patterns is tried first: most anchored lines match none.

        Where Hyperscan holds every pattern, only the lines it saw one on are looked at: most
        lines hold an anchor (怪, 死, 这 …), few a pattern's superset."""
        eng = self.engine
        an, nd = eng.anchors, eng.needs
        s_text = v.squeezed.text
        prefilter = eng.prefilter
        fed = eng.pattern_automaton
        if (fed is None and not found) or (fed is None and eng.split):
            return  # no key on any line (or none anchors or feeds a pattern)
        seen = prefilter.scan(s_text) if prefilter is not None else None
        if seen is not None and not prefilter.always:
            if not seen:
                return
            if fed is not None:
                found = _find_on_lines(fed, s_text, [lines.bounds(k) for k in sorted(seen)])
            else:
                ends = [e for _, _, e in found]  # found is in order of end
                ix, jx = bisect.bisect_left, bisect.bisect_right
                picked: list = []
                for k in sorted(seen):
                    ls, le = lines.bounds(k)
                    picked += found[ix(ends, ls + 1):jx(ends, le)]
                found = picked
        elif fed is not None:
            found = fed.find(s_text)
        anchors = [(e - 1, an[i]) for i, _, e in found if an[i]]
        needs = [(e - 1, x) for i, _, e in found if (x := nd[i])]
        if not anchors and not needs:
            return
        brk = lines.breaks
        ix = bisect.bisect_left
        if brk:
            pairs = {(cat, ix(brk, e)) for e, cats in anchors for cat in cats}
        else:
            pairs = {(cat, 0) for _, cats in anchors for cat in cats}
        present: dict[tuple[str, int], set[int]] = {}
        for e, pats in needs:
            k = ix(brk, e) if brk else 0
            for cat, idx in pats:
                got = present.get((cat, k))
                if got is None:
                    present[(cat, k)] = set(idx)
                else:
                    got |= idx
        gated = eng.gated
        implied = eng.implied
        for (cat, k), extra in present.items():
            anchor = gated.get(cat)
            if anchor is not None:
                if not extra.isdisjoint(implied[cat]):
                    pairs.add((cat, k))
                    continue
                ls, le = lines.bounds(k)
                if anchor.search(s_text, ls, le):
                    pairs.add((cat, k))
        # `seen`: which patterns Hyperscan saw on which line (None: the pure-Python path below)
        rank = {cat: n for n, cat in enumerate(dict.fromkeys(itertools.chain(
            (c for _, cats in anchors for c in cats), (cat for _, pats in needs for cat, _ in pats))))}
        for cat, k in sorted(pairs, key=lambda ck: (rank[ck[0]], ck[1])):
            extra = present.get((cat, k))
            order = tuple(sorted(extra.union(eng.always[cat]))) if extra else eng.always[cat]
            if not order:
                continue
            patterns = eng.patterns[cat]
            ls, le = lines.bounds(k)
            if seen is not None:
                # a pattern Hyperscan did not see on the line cannot match there
                base, on_line, always = eng.pattern_base[cat], seen.get(k, ()), eng.prefilter.always
                order = tuple(i for i in order if base + i in on_line or base + i in always)
                if not order:
                    continue
            elif len(order) > 1 and eng.shortcuts:
                union = eng.union(cat, order)
                if union is not None and union.search(s_text, ls, le) is None:
                    continue
            for i in order:
                p = patterns[i]
                m = p.regex.search(s_text, ls, le)
                if m is None or m.end() == m.start():
                    continue
                sentence = _sentence(s_text, ls, le, m.start(), m.end())
                if p.unless is not None and p.unless.search(sentence):
                    continue
                out.add(cat, v.original_span_from_squeezed(m.start(), m.end()), p.source, ls, sentence)
                break

    def _raw_hits(self, v: Views, out: "_Hits") -> None:
        """Raw patterns (and links where forbidden) on the folded lines their prefilter finds."""
        f_text = v.folded.text
        seen = self._raw_filter.scan(f_text) if self._raw_filter is not None else None
        always = self._raw_filter.always if seen is not None else frozenset()
        if seen is not None and not seen and not always:
            return  # no raw pattern can match anywhere: the prefilters' lines need not be found
        lines = _Lines(f_text) if seen is not None else None
        picked = self._raw_lines.lines(f_text, seen) if seen and not always and self._raw_lines else None
        found: set[tuple[int, int]] = set()
        if picked is not None:  # the seen lines the prefilters' whole-text scan would find
            found = {lines.bounds(k) for k in picked}  # type: ignore[union-attr]
        else:
            for prefilter in self._raw_prefilters:
                found |= {_line(f_text, m.start(), m.end()) for m in prefilter.finditer(f_text)}
        if not found:
            return
        for ls, le in sorted(found):
            line = f_text[ls:le]
            if lines is not None:
                # a found range may hold several lines (a prefilter match across a newline)
                candidates = set(always)
                for k in range(lines.index(ls), lines.index(le) + 1):
                    candidates.update(seen.get(k, ()))
                if not candidates:
                    continue
            for j, (p, lits) in enumerate(zip(self._raw, self._raw_literals)):
                if lines is not None and j not in candidates:
                    continue
                if lits is not None and not any(lit in line for lit in lits):
                    continue
                m = p.regex.search(f_text, ls, le)
                if m is None or m.end() == m.start():
                    continue
                # a raw hit is keyed in the folded view; offset keeps it apart from S lines
                out.add(p.category, v.span_from_folded(m.start(), m.end()), p.source, -1 - ls, f_text[ls:le])

    # ---- public API --------------------------------------------------------------------
    def check_text(self, text: str, *, whistled: bool = False) -> list[Flag]:
        """Speech flags for a post's own words; a whistled player gets only `whistle_breach`."""
        if whistled and self.whistle_enabled:
            return self.whistle_flags(text)
        return self._flags_from_hits(text, self.hits(text))

    def check_texts(self, texts: Iterable[str], *, whistled: bool = False) -> list[list[Flag]]:
        """`check_text` for many posts in one scan (one automaton pass, one set of regex calls)."""
        texts = list(texts)
        if whistled and self.whistle_enabled:
            return [self.whistle_flags(t) for t in texts]
        with paused_gc():  # as in `hits`: the model's sets and the flags make no cycles either
            return self._check_batch(texts)

    def _check_batch(self, texts: list[str]) -> list[list[Flag]]:
        sep = _BATCH_SEP
        starts: list[int] = []
        pos = 0
        for t in texts:
            starts.append(pos)
            pos += len(t) + len(sep)
        joined = sep.join(texts)
        per: list[list[Hit]] = [[] for _ in texts]
        hits, v = self._scan(joined)
        for h in hits:
            i = bisect.bisect_right(starts, h.start) - 1
            base = starts[i]
            end = min(h.end - base, len(texts[i]))
            per[i].append(Hit(h.category, h.start - base, end, h.term))
        # each text folded: the scan's folded view cut back into texts where that is safe, else
        # each text folded on its own; both models find their anchors in the joined view
        folded = _split_folded(v.folded.text, len(texts))
        if folded is None:
            folded = [normalize.fold_text(t) for t in texts]
            folded_batch = _BATCH_SEP.join(folded)
        else:
            folded_batch = v.folded.text
        folded_starts = list(itertools.accumulate((len(f) + len(_BATCH_SEP) for f in folded[:-1]), initial=0))
        over = self._belittle_candidates(texts, folded, folded_batch, folded_starts, per)
        suggested = self._model_candidates(texts, folded, folded_batch, folded_starts, per)
        return [self._flags_from_hits(t, hs, anchored=i in over, folded=folded[i],
                                      suggested=suggested.get(i, ()))
                for i, (t, hs) in enumerate(zip(texts, per))]

    def _model_candidates(self, texts: list[str], folded: list[str], folded_batch: str, starts: list[int],
                          hits: list[list[Hit]]) -> dict[int, list[str]]:
        """Per text of a batch, the categories the speech models flag that its lexicon hits do
        not hold: one anchor pass over the batch, then only the anchored texts are scored."""
        models = self._speech_models()
        if models is None:
            return {}
        asked: list[tuple[str, set[str]]] = []
        which: list[int] = []
        for i, cats in sorted(models.anchored_lines(folded_batch, starts).items()):
            if len(texts[i]) < 4:
                continue
            flat = self._model_text(texts[i], folded[i])
            if flat is not folded[i]:
                cats = models.anchored(flat)  # a reported quotation or a link is not scored, nor its anchors
            cats = cats - {h.category for h in hits[i]}
            if cats:
                asked.append((flat, cats))
                which.append(i)
        return {i: over for i, over in zip(which, models.over_many(asked)) if over}

    def _belittle_candidates(self, texts: list[str], folded: list[str], folded_batch: str, starts: list[int],
                             hits: list[list[Hit]]) -> set[int]:
        """Which texts of a batch the belittling model flags or may flag (their score, as
        `belittle_flags` takes it, passes the threshold). `folded`: each text folded;
        `folded_batch`: them joined by _BATCH_SEP, each starting at `starts`.

        The anchors are looked for in one pass over the batch; only the anchored texts are scored,
        by `BelittleModel.over_threshold_many` (its bound settles most without the score). Texts
        whose lexicon hits already hold the model's category need no score (`hits`)."""
        model = self._belittle_model()
        if model is None:
            return set()
        anchored = model.anchored_lines(folded_batch, starts=starts)
        scored = [i for i in sorted(anchored)
                  if len(texts[i]) >= 4 and not any(h.category == BELITTLE_CATEGORY for h in hits[i])]
        decided = model.over_threshold_many([self._belittle_text(texts[i], folded[i]) for i in scored])
        return {i for i, over in zip(scored, decided) if over}

    def _flags_from_hits(self, text: str, hits: list[Hit], *, anchored: bool | None = None,
                         folded: str | None = None, suggested: Iterable[str] | None = None) -> list[Flag]:
        flags = self._lexicon_flags(text, hits)
        if anchored is not False and not any(f.category == BELITTLE_CATEGORY for f in flags):
            flags += self.belittle_flags(text, anchored=anchored, folded=folded)
        if suggested is None or suggested:
            flags += self.model_flags(text, {h.category for h in hits}, suggested=suggested, folded=folded)
        return flags

    def _speech_models(self) -> SpeechModels | None:
        """The speech models of the ruleset's categories, narrowed on first use (a checker's
        ruleset does not change)."""
        if self._speech is _UNSET:
            moderation = getattr(self.ruleset, "moderation", None)
            models = None
            if self.ruleset is not None and getattr(moderation, "speech_models", True):
                models = load_speech_models()
                rules = getattr(moderation, "rules", None)
                if models is not None and rules is not None:
                    models = models.only(frozenset(rules))
            self._speech = models
        return self._speech

    def model_flags(self, text: str, lexicon_categories: "set[str]", *, suggested: Iterable[str] | None = None,
                    folded: str | None = None) -> list[Flag]:
        """Categories the lexicon gave the post none of, as their speech models score it
        (moderation/speech_models.py): each a suggestion for the director to read, with its
        score and the n-grams that weighed. `suggested`: already scored (a batch's pass)."""
        models = self._speech_models()
        if models is None or len(text) < 4:
            return []
        if suggested is None:
            flat = self._model_text(text, folded)
            suggested = models.over(flat, models.anchored(flat) - lexicon_categories)
        out: list[Flag] = []
        f = None
        for cat in suggested:
            if cat in lexicon_categories:
                continue
            f = f or normalize.fold(self._model_scored(text))
            found = models.judge(cat, f.text)
            if found is None:
                continue
            if self._vetoed_on_line(cat, f.text, found):
                continue
            out.append(self._suggestion(cat, text, f, found, term="speech-model", model=f"{cat} model",
                                        threshold=models.models[cat].threshold))
        return out

    def _vetoed_on_line(self, category: str, folded: str, found: Any) -> bool:
        """Whether the category's `unless` holds on the line of a model's sentence (`found`, in
        the folded text): what vetoes the category's words there (a report, a rule quoted, a
        request to explain) vetoes its model too."""
        veto = self.engine.unless.get(category)
        if veto is None:
            return False
        ls = folded.rfind("\n", 0, found.start) + 1
        le = folded.find("\n", found.end)
        return veto.search(folded[ls:le if le >= 0 else len(folded)]) is not None

    def _suggestion(self, category: str, text: str, f: Any, found: Any, *, term: str, model: str,
                    threshold: float) -> Flag:
        """A model's flag: the sentence that weighed most (`found`, in the folded view `f`) mapped
        back to the post, with the score, the cues and a request to read the post."""
        cues = "、".join(found.cues)
        return self.flag(category, text, f.to_original(found.start), f.to_original(found.end), term=term,
                         note=f"{model}: score {found.score:.1f} over {threshold:g}"
                              + (f"; cues {cues}" if cues else "") + " (a statistical suggestion: read the post)")

    def _belittle_model(self) -> Any:
        moderation = getattr(self.ruleset, "moderation", None)
        rules = getattr(moderation, "rules", None)
        if self.ruleset is None or (rules is not None and BELITTLE_CATEGORY not in rules):
            return None  # a ruleset without a mockery rule has nothing for the model to cite
        if not getattr(moderation, "belittle_model", True):
            return None
        return belittle_model()

    def belittle_flags(self, text: str, *, anchored: bool | None = None, folded: str | None = None) -> list[Flag]:
        """Mockery the lexicon did not catch, as the belittling model scores it (moderation/belittle.py);
        quotations that report someone else's words are left out of the score, as everywhere."""
        model = self._belittle_model()
        if model is None or len(text) < 4:
            return []
        flat = self._belittle_text(text, folded)
        if anchored is None:
            anchored = model.anchored(flat)
        if not anchored or model.score(flat) <= model.threshold:
            return []  # most lines end here: the score needs no map back to positions
        f = normalize.fold(_blank_reported(text))
        found = model.judge(f.text, anchored=True)
        if found is None:
            return []
        if self._vetoed_on_line(BELITTLE_CATEGORY, f.text, found):
            return []
        return [self._suggestion(BELITTLE_CATEGORY, text, f, found, term="belittle-model",
                                 model="belittling model", threshold=model.threshold)]

    @staticmethod
    def _model_scored(text: str) -> str:
        """What the speech models score, before folding: reporting quotations and links blanked
        (a link is evidence only where the ruleset forbids links, and the lexicon decides that)."""
        scored = _blank_reported(text)
        if _LINK_HINT.search(scored):
            scored = _LINK.sub(lambda m: " " * len(m.group()), scored)
        return scored

    @classmethod
    def _model_text(cls, text: str, folded: str | None) -> str:
        """`_model_scored` folded (`folded`: the text folded, when known)."""
        return _fold_scored(text, cls._model_scored(text), folded)

    @staticmethod
    def _belittle_text(text: str, folded: str | None) -> str:
        """What the model scores: the text folded, reporting quotations blanked (`folded`: the
        text folded, when known)."""
        return _fold_scored(text, _blank_reported(text), folded)

    def _lexicon_flags(self, text: str, hits: list[Hit]) -> list[Flag]:
        if not hits:
            return []

        first: dict[str, Hit] = {}
        more: dict[str, int] = {}
        for h in sorted(hits, key=lambda h: (h.start, -h.end, h.category)):
            if h.category in first:
                more[h.category] = more.get(h.category, 0) + 1
            else:
                first[h.category] = h
        flags = []
        for cat, h in first.items():
            note = f"+{more[cat]} more in this post" if cat in more else ""
            flags.append(self.flag(cat, text, h.start, h.end, term=h.term, note=note))
        return flags

    def whistle_flags(self, text: str) -> list[Flag]:
        bad = whistle_offenders(text, self.whistle_sounds)
        if not bad:
            return []
        chars = "".join(dict.fromkeys(c for _, c in bad))
        codes = sorted({kind for _, _, kind in whistle_codes(text)})
        note = (f"{'/'.join(codes)} (a code): {chars}" if codes else f"not an allowed sound: {chars}")
        return [self.flag("whistle_breach", text, bad[0][0], bad[-1][0] + 1, note=note, evidence=chars)]

    def structure_flags(self, text: str, *, colors: Iterable[str] = (), sizes: Iterable[str] = (),
                        links: Iterable[str] = (), attachments: int = 0) -> list[Flag]:
        """Font (red or enlarged), and links/attachments where the ruleset forbids them."""
        flags: list[Flag] = []
        font = getattr(getattr(self.ruleset, "moderation", None), "font", None)
        threshold = font.red_distance if font else 120.0
        red = [c for c in colors if is_red(c, threshold)]
        if red:
            flags.append(self.flag("font", text, 0, 0, term="red", evidence=f"color={red[0]}",
                                   note=f"red font (within {threshold:g} of #FF0000)"))
        if font is None or font.forbid_enlarged:
            max_size = font.max_size if font else 3
            big = [s for s in sizes if is_enlarged(s, max_size)]
            if big:
                flags.append(self.flag("font", text, 0, 0, term="size", evidence=f"size={big[0]}",
                                       note=f"enlarged font (above size {max_size})"))
        extra: list[str] = []
        if self.links_forbidden:
            extra += [f"link {u}" for u in links]
        if self.attachments_forbidden and attachments:
            extra.append(f"{attachments} attachment(s)")
        if extra:
            flags.append(self.flag("evidence", text, 0, 0, term="markup", evidence="; ".join(extra)))
        return flags

    def check_post(self, post: Any, ruleset: Any = None, *, whistled: bool = False, dead: bool = False,
                   is_director: bool = False) -> list[Flag]:
        """All flags for one Post: its words (unless hidden), fonts, 诈尸, links.

        Directors are never flagged: they use red and large fonts by right and quote the rules."""
        checker = self if ruleset is None or ruleset is self.ruleset else get_checker(ruleset)
        if is_director:
            return []
        text = post.text or ""
        flags: list[Flag] = []
        if not post.hidden:
            flags += checker.check_text(text, whistled=whistled)
        for f in checker.structure_flags(text, colors=post.colors, sizes=post.sizes, links=post.links,
                                         attachments=post.attachments):
            if f.category == "evidence" and any(g.category == "evidence" for g in flags):
                continue
            flags.append(f)
        if dead:
            flags.append(checker.flag("dead_post", text, 0, min(len(text), 40), note="posted while out (诈尸)"))
        # A single water post (纯水帖) is never a flag: 004 违规判定 5(1)「不含纯水帖」 only leaves it out of the
        # lurking count (shown by `activity` as uncounted), and M84 违规判定 6(5)「大量无意义水帖」 is about many
        # posts in a day, which the ruleset's `activity.water_flag_per_day` decides (daoyan.analysis.day_flags).
        for f in flags:
            f.pid, f.floor, f.author = post.pid, post.floor, post.author
        return flags


_CHECKERS: dict[tuple, Checker] = {}


def get_checker(ruleset: Any) -> Checker:
    """One Checker per ruleset (by its content), built on first use."""
    k = (getattr(ruleset, "name", None), getattr(ruleset, "cite", None), repr(getattr(ruleset, "moderation", None)),
         repr(getattr(ruleset, "whistle", None)), repr(getattr(ruleset, "activity", None)))
    c = _CHECKERS.get(k)
    if c is None:
        c = _CHECKERS[k] = Checker(ruleset)
    return c


def lint_record(record: dict, ruleset: Any) -> dict:
    """One `daoyan lint` line: `{"id", "text" | "html", "whistled"}` → `{"id", "flags"}`."""
    checker = get_checker(ruleset)
    whistled = bool(record.get("whistled"))
    if record.get("html") is not None and record.get("text") is None:
        from .html_text import from_html  # selectolax, for the few records given as HTML

        loose = from_html(str(record["html"]))
        text = loose.text
        flags = checker.check_text(text, whistled=whistled)
        flags += checker.structure_flags(text, colors=loose.colors, sizes=loose.sizes, links=loose.links)
    else:
        text = str(record.get("text") or "")
        flags = checker.check_text(text, whistled=whistled)
    return {"id": record.get("id"), "flags": [f.to_json() for f in flags]}


def lint_records(records: list[dict], ruleset: Any) -> list[dict]:
    """`lint_record` for many records: plain-text ones go through one batched scan."""
    checker = get_checker(ruleset)
    out: list[dict | None] = [None] * len(records)
    plain = [i for i, r in enumerate(records)
             if not (r.get("html") is not None and r.get("text") is None) and not r.get("whistled")]
    for i, flags in zip(plain, checker.check_texts([str(records[i].get("text") or "") for i in plain])):
        out[i] = {"id": records[i].get("id"), "flags": [f.to_json() for f in flags]}
    return [o if o is not None else lint_record(r, ruleset) for o, r in zip(out, records)]
