"""How players spell a lexicon term without writing it: for EVERY hanzi term, not a chosen few.

The rule posts ban 密码、音近、形近 and 明显的通配符 as much as the words themselves. Derived once
per lexicon (kept by startup_cache), each as an automaton entry of the term's own categories:

- full pinyin (shabi; `sha bi` squeezes to it), initials (sb, cnm, nmsl), mixed pinyin, initials
  and hanzi (sha逼, 傻b, 脑c), and digits for syllables (2b, 2逼): Latin-bounded entries;
- spellings too ordinary to count on their own (`addressed_spellings`): two-letter initials
  other than the established insults (cs 畜牲, hz 混账, tb 土鳖, cz 蠢猪), digit spellings that read as units (4g 死狗),
  a numeral's digits (250 二百五); they count where said to someone (你这个cs, 250吧你) or
  standing alone as a clause (cs，又是平票), and only in lower case (CS, HZ are abbreviations)
  unless said to a player (你个SB, ZZ吧你: `said_to`);
- homophones: one character swapped for a common character (GB2312 level 1, the 3,755 most
  frequent) whose commonest reading is the term's reading there; and look-alikes from
  `lexicon/lookalike.toml`. Whole-word entries (jieba must agree), minus every spelling that is
  a word of jieba's dictionary (白吃 is not 白痴) or an allowed word.

Readings: the term's own reading in context (pypinyin with its phrase table: 干 in 干你 is gan)
and, for the characters swapped in, their FIRST reading only: 哈 is ha (not its rare sha), 佛 is
fu/fo (not bi), so 哈佛 is no 傻逼.
"""
from __future__ import annotations

import itertools
import re
from functools import lru_cache

from .sounds import _by_sound, _common_chars, _pinyin_dict, _toneless

# two-letter initials established as insults in their own right: these count standing alone (sb 楼上);
# any other term's two initials (tb 土鳖, cz 蠢猪, cn 操你) are also a game or web abbreviation
# (替补, 场助, .cn), so they count only where said to someone (`addressed`)
STANDALONE_INITIALS = frozenset("sb nc zz fw md nm tm rz jb bc".split())
# two-letter abbreviations of game and everyday words (gp 归票, jz 警长, tb 替补, cz 场助, zj 自己,
# wb 微博): ordinary even as a clause of their own (gp：3号), so never a term's spelling
GAME_ABBREVIATIONS = frozenset("gp tp jz cz tb dy lr nw sw yy fy zj zd bd jd wb zt gd pj".split())
DIGITS = {"yi": "1", "er": "2", "san": "3", "si": "4", "wu": "5", "liu": "6", "qi": "7", "ba": "8",
          "jiu": "9", "ling": "0"}
UNITS = "gkmtpdsxhwlv"  # 4g, 3d, 2k, 5s: units and models, not spellings
MAX_MIXED_CHARS = 4
# the commonest function characters: beside one letter they spell nothing (n个, t的, w是)
FUNCTION_CHARS = frozenset("的了是在个你我他她它们不就也吗吧呢啊好大小一有这那么和与都还要会能说看到")
MAX_PINYIN_CHARS = 6


def _hanzi(term: str) -> bool:
    return bool(term) and all("\u3400" <= c <= "\u9fff" for c in term)


@lru_cache(maxsize=4096)
def reading(term: str) -> tuple[str, ...]:
    """The toneless reading of each character of `term` in context (pypinyin's phrase table)."""
    from pypinyin import Style, lazy_pinyin

    return tuple(_toneless(p) for p in lazy_pinyin(term, style=Style.NORMAL))


@lru_cache(maxsize=1)
def _by_first_reading() -> dict[str, tuple[str, ...]]:
    """syllable → the common characters whose FIRST reading it is."""
    table = _pinyin_dict()
    out: dict[str, list[str]] = {}
    for c in _common_chars():
        raw = table.get(ord(c))
        if raw:
            out.setdefault(_toneless(raw.split(",")[0]), []).append(c)
    return {k: tuple(v) for k, v in out.items()}


def latin_spellings(term: str, *, initials_ok: bool = True) -> set[str]:
    """Pinyin, initials, mixed and digit spellings of a hanzi term (none for other terms)."""
    if not _hanzi(term) or len(term) > MAX_PINYIN_CHARS:
        return set()
    py = reading(term)
    if len(py) != len(term) or not all(p.isascii() and p.isalpha() for p in py):
        return set()
    out: set[str] = set()
    full = "".join(py)
    if (len(term) >= 2 or len(full) >= 4) and full not in ENGLISH_WORDS:
        out.add(full)
    ini = "".join(p[0] for p in py)
    if initials_ok and len(term) >= 2 and (len(ini) >= 3 or ini in STANDALONE_INITIALS):
        out.add(ini)
    out = {o for o in out if not (len(o) == 2 and o[0].isdigit() and o[1] in UNITS)}
    if 2 <= len(term) <= MAX_MIXED_CHARS:
        options = [(c, p, p[0]) + ((DIGITS[p],) if p in DIGITS else ()) for c, p in zip(term, py)]
        for combo in itertools.product(*options):
            s = "".join(combo)
            if len(s) == 2 and s[0].isdigit() and s[1] in UNITS:
                continue
            if s == term or s.isascii() and not any(ch.isdigit() for ch in s):
                continue  # the term itself; all-Latin spellings are the full pinyin and initials
            if all(ch.isdigit() or "\u3400" <= ch for ch in s):
                continue  # digits and hanzi only (2二): too short a hint
            kept = [ch for ch in s if "\u3400" <= ch]
            if kept and all(ch in FUNCTION_CHARS for ch in kept) and sum(ch.isascii() for ch in s) <= 1:
                continue  # n个, n的: a letter beside a function character is no spelling
            out.add(s)
    elif len(term) > MAX_MIXED_CHARS:
        for i in range(len(term)):
            out.add(term[:i] + py[i] + term[i + 1:])
    # a run of three of one letter is squeezed to one in posts (溜了溜了 as llll would be l)
    return {s for s in out if s != term and not _TRIPLE.search(s)}


_TRIPLE = re.compile(r"(.)\1\1")
# all-Latin spellings of lexicon terms that are everyday English words (every term's spellings were
# checked once against an English word list; rare words such as tama or kuba stay spellings): a
# post in English (the vote I made) is not 妈的
ENGLISH_WORDS = frozenset({"made", "rile", "rita", "chaw", "gyp"})
NUMERALS = dict(zip("零一二三四五六七八九", "0123456789"))


def _arabic(term: str) -> str:
    """A Chinese numeral below a thousand in digits (二百五 → 250, 十三 → 13), else ''; a digit
    right after 百 is tens, as people say it (一百八 is 180)."""
    if len(term) < 2 or not all(c in NUMERALS or c in "十百" for c in term):
        return ""
    total = num = 0
    for c in term:
        if c in "十百":
            total += (num or 1) * (10 if c == "十" else 100)
            num = 0
        else:
            num = int(NUMERALS[c])
    if num:
        total += num * (10 if term[-2] == "百" else 1)
    return str(total) if total >= 10 else ""


def addressed_spellings(term: str) -> set[str]:
    """Spellings of a hanzi term too ordinary to count on their own: two-letter initials that
    are everyday abbreviations (cs 畜牲, hz 混账, sm 傻帽), digit spellings that read as units
    (4g 死狗), a numeral's digits (250 二百五) and one letter among function characters (你m的,
    我c). They count where a player is addressed with
    them or they stand alone as a clause (`addressed`)."""
    if not _hanzi(term) or len(term) > MAX_PINYIN_CHARS:
        return set()
    out: set[str] = set()
    arabic = _arabic(term)
    if arabic:
        out.add(arabic)
    py = reading(term)
    if len(py) != len(term) or not all(p.isascii() and p.isalpha() for p in py):
        return out
    if 2 <= len(term) <= MAX_MIXED_CHARS:
        # a letter beside function characters only (你m的 你妈的, 我c 我操): too weak alone
        for combo in itertools.product(*[(c, p[0]) for c, p in zip(term, py)]):
            kept = [ch for ch in combo if "\u3400" <= ch]
            if kept and len(kept) < len(term) and all(ch in FUNCTION_CHARS for ch in kept) \
                    and len(term) - len(kept) == 1:
                out.add("".join(combo))
    if len(term) == 2:
        ini = "".join(p[0] for p in py)
        if ini not in STANDALONE_INITIALS and ini not in GAME_ABBREVIATIONS:
            out.add(ini)
        for a, b in itertools.product((py[0][0], DIGITS.get(py[0], "")), (py[1][0], DIGITS.get(py[1], ""))):
            if a and b and a.isdigit() != b.isdigit() and b in UNITS:
                out.add(a + b)
    return out


_CLAUSE_EDGE = frozenset("，。！？；：,!?;…~～—\n")  # not . or : (www.hp.com, 10:30)


class _Markers:
    """The address markers of `lexicon/address.toml`, compiled: what makes a short spelling a
    word said to someone."""

    def __init__(self, data: dict) -> None:
        def before(words: "list[str]", regexes: "list[str]" = ()) -> "re.Pattern[str]":
            alts = [re.escape(w) for w in sorted(words, key=len, reverse=True)] + list(regexes)
            return re.compile("(?:%s)\\s*$" % "|".join(alts))

        def after(words: "list[str]", not_after: "list[str]") -> "re.Pattern[str]":
            alts = []
            for w in sorted(words, key=len, reverse=True):
                tails = [n[len(w):] for n in not_after if n.startswith(w) and len(n) > len(w)]
                alts.append(re.escape(w) + ("(?!%s)" % "|".join(map(re.escape, tails)) if tails else ""))
            return re.compile("\\s*(?:%s)" % "|".join(alts))

        said = data.get("said_only", {})
        to_you, of_someone = list(data["to_you"]), list(data["of_someone"])
        # a player named right before it (7号nt, 楼上cs): regexes, said of someone
        of_player = list(data.get("of_player", ()))
        self.to_you = before(to_you)
        self.before = before(to_you + of_someone, of_player)
        self.after = after(list(data["after"]), [])
        self.said_only = frozenset(said.get("spellings", ()))
        not_before = set(said.get("not_before", ()))
        self.said_before = before([w for w in to_you + of_someone if w not in not_before], of_player)
        # after a said-only spelling only the address (吧你, 你), not talk that starts like it (你们)
        self.said_after = after(list(data["after"]), list(said.get("not_after", ())))


@lru_cache(maxsize=1)
def _markers() -> _Markers:
    import tomllib
    from importlib import resources

    text = resources.files("moderation").joinpath("lexicon", "address.toml").read_text("utf-8")
    return _Markers(tomllib.loads(text))


def said_to(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is said to someone by a marker around it (你这个ZZ, ZZ吧你): then
    even capitals are no abbreviation."""
    if not text[start:end].isalpha():
        return False  # 你D4: a day of the game, not a spelling
    m = _markers()
    return bool(m.to_you.search(text, max(0, start - 4), start) or m.after.match(text, end))


def addressed(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] (a short spelling) is said to someone or stands alone as a clause;
    a said-only spelling (gg) by a marker only."""
    m = _markers()
    if text[start:end].lower() in m.said_only:
        return bool(m.said_before.search(text, max(0, start - 4), start) or m.said_after.match(text, end))
    if m.before.search(text, max(0, start - 4), start) or m.after.match(text, end):
        return True
    i = start - 1
    while i >= 0 and text[i] == " ":
        i -= 1
    j = end
    while j < len(text) and text[j] == " ":
        j += 1
    return (i < 0 or text[i] in _CLAUSE_EDGE) and (j >= len(text) or text[j] in _CLAUSE_EDGE)


def sound_spellings(term: str, lookalike: dict[str, str]) -> set[str]:
    """One character swapped for a common homophone (by first reading) or a look-alike."""
    if not _hanzi(term) or not 2 <= len(term) <= 4:
        return set()
    py = reading(term)
    by_first = _by_first_reading()
    out: set[str] = set()
    for i, c in enumerate(term):
        # look-alikes (形近) only in terms of three characters or more: 吊你 is ordinary, 屌你 is not
        alts = set(by_first.get(py[i], ())) | (set(lookalike.get(c, "")) if len(term) >= 3 else set())
        alts.discard(c)
        out |= {term[:i] + a + term[i + 1:] for a in alts}
    return out


def rebus_spellings(term: str, rebus: "dict[str, str | tuple[str, ...]]") -> set[str]:
    """A term with characters written as the emoji that stand for them by picture or by sound
    (你🐴的, 🐷脑子, 卧🌿, 舔🐶), or split into their parts (你女马的): each such character alone,
    and all of them at once. `rebus` maps a character to a string of one-character stand-ins or a
    tuple of stand-ins. A term of one character has none (🐷 alone is a pig, not an insult)."""
    if len(term) < 2:
        return set()
    slots = [(i, rebus[c]) for i, c in enumerate(term) if rebus.get(c)]
    out: set[str] = set()
    for i, emoji in slots:
        out |= {term[:i] + e + term[i + 1:] for e in emoji}
    if len(slots) > 1:
        # all at once, in pictures (你🐴的) and in parts (亻尔女马白勺), each where it has one
        for whole in (False, True):
            chars = list(term)
            for i, stand_ins in slots:
                kept = [e for e in stand_ins if (len(e) > 1) == whole]
                chars[i] = kept[0] if kept else stand_ins[0]
            out.add("".join(chars))
    out.discard(term)
    return out


ORDINARY_FREQ = 30000  # geometric mean of jieba frequencies above which a run of words is ordinary text


def ordinary(spelling: str, tokenizer) -> bool:
    """Whether a homophone spelling is ordinary text: a word of jieba's dictionary, or a run of
    words whose frequencies' geometric mean reaches ORDINARY_FREQ (国在 for 锅在 148k, 见人 for
    贱人 136k, 我敢 for 我干 51k). 鬼儿子 (7k), 甚经病 (14k), 傻笔 (2.6k) stay spellings of insults."""
    import math

    freq = tokenizer.FREQ
    if freq.get(spelling, 0) > 0:
        return True
    toks = list(tokenizer.cut(spelling, HMM=False))
    if len(toks) < 2:
        return False
    fs = [freq.get(t, 0) for t in toks]
    mean = math.exp(sum(math.log(max(1, f)) for f in fs) / len(fs))
    # or an everyday word (你, 的, 把: 50,000 and more) beside a word of its own (吊你, 码的, 鸡把)
    return mean >= ORDINARY_FREQ or (len(fs) == 2 and max(fs) >= 50000 and min(fs) >= 1000)


def dictionary_words() -> frozenset[str]:
    """jieba's dictionary words (its dict.txt), read without building its tokenizer."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("jieba")
    if spec is None or spec.origin is None:
        return frozenset()
    path = Path(spec.origin).parent / "dict.txt"
    try:
        text = path.read_text("utf-8")
    except OSError:
        return frozenset()
    return frozenset(line.split(" ", 1)[0] for line in text.splitlines() if line)


__all__ = ["latin_spellings", "addressed_spellings", "addressed", "sound_spellings", "dictionary_words", "reading", "_by_sound"]
