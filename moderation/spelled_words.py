"""The game's own words inside the lexicon's patterns, spelled the ways players dodge a filter.

A term of the lexicon gets its pinyin, initials, mixed and homophone spellings (spellings.py),
but a pattern is built around words of the game that are no insult by themselves: 导演 in
导演这判罚不公, 揭秘 in 等揭秘帖出来看, 场助 in 我场助说. Players write those words as
d演, 导yan, 倒演, jie秘, 场猪 as readily as the insults, and a sentence pattern that only knows
导演 misses them all. `lookalike.toml` names these words (`spelled_words`, with homophones;
`spelled_latin`, pinyin and mixed spellings only, for words whose homophones are ordinary text,
such as 马家 for 马甲); every pattern, construction, anchor and veto of the lexicon that holds one
of them is rewritten once, when the lexicon is parsed, to accept each spelling in its place.

Not inside a lookbehind (which must keep a fixed width), a character class, or before a
quantifier (导演? is 导 and an optional 演).
"""
from __future__ import annotations

import re

from .spellings import latin_spellings, ordinary, reading, sound_spellings

# a homophone that swaps in one of these is ordinary text, not a spelling (到演 in 轮到演员)
_EVERYDAY = frozenset("的了是在不和有到也就都而及与着或个我你他她这那为上下中大小来去说要会能对")


def variants(word: str, lookalike: dict[str, str], *, sounds: bool, tokenizer=None) -> list[str]:
    """Spellings of a game word: pinyin (daoyan), mixed (d演, dao演, 导yan) and, with `sounds`,
    one character swapped for a common homophone (倒演, 导烟) that is no word of its own.
    Initials alone (dy) are left out: two letters are any abbreviation."""
    out = {v for v in latin_spellings(word) if _kept(v, word)}
    if sounds:
        for v in sound_spellings(word, lookalike):
            swapped = [b for a, b in zip(word, v) if a != b]
            if any(c in _EVERYDAY for c in swapped):
                continue
            if tokenizer is not None and ordinary(v, tokenizer):
                continue
            out.add(v)
    out.discard(word)
    return sorted(out, key=lambda s: (-len(s), s))


_LATIN_RUN = re.compile(r"[a-z0-9]+")


def _kept(spelling: str, word: str) -> bool:
    """Full pinyin, or one Latin run among the hanzi that is a whole syllable (导yan, jie秘) or
    an initial before a hanzi (d演); not initials alone (dy) nor a letter trailing a hanzi (导y,
    红p), which is the start of any English word."""
    runs = list(_LATIN_RUN.finditer(spelling))
    if spelling.isascii():
        return spelling == "".join(reading(word))
    if len(runs) != 1:
        return False
    r = runs[0]
    syllables = reading(word)
    whole = {"".join(syllables[i:j]) for i in range(len(syllables)) for j in range(i + 1, len(syllables) + 1)}
    return r.group() in whole or (len(r.group()) == 1 and r.end() < len(spelling))


def _quantified(src: str, i: int) -> bool:
    return i < len(src) and src[i] in "?*+{"


def expand(src: str, table: dict[str, str]) -> str:
    """`src` with every occurrence of a word of `table` (outside lookbehinds, character classes
    and quantifiers) replaced by the word's alternation."""
    if not table or not any(w in src for w in table):
        return src
    words = sorted(table, key=len, reverse=True)
    out: list[str] = []
    stack: list[bool] = []  # True: inside a lookbehind
    i, n, in_class = 0, len(src), False
    while i < n:
        c = src[i]
        if c == "\\":
            out.append(src[i:i + 2])
            i += 2
            continue
        if in_class:
            out.append(c)
            in_class = c != "]"
            i += 1
            continue
        if c == "[":
            in_class = True
            out.append(c)
            i += 1
            if i < n and src[i] == "^":
                out.append("^")
                i += 1
            if i < n and src[i] == "]":
                out.append("]")
                i += 1
            continue
        if c == "(":
            stack.append(src.startswith("(?<!", i) or src.startswith("(?<=", i))
            out.append(c)
            i += 1
            continue
        if c == ")":
            if stack:
                stack.pop()
            out.append(c)
            i += 1
            continue
        if not any(stack):
            for w in words:
                if src.startswith(w, i) and not _quantified(src, i + len(w)):
                    out.append(table[w])
                    i += len(w)
                    break
            else:
                out.append(c)
                i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def spelled_table(data: dict, lookalike: dict[str, str], tokenizer=None) -> dict[str, list[str]]:
    """word → its spellings, from lookalike.toml's `spelled_words`, `spelled_latin` and
    `spelled_extra` (stand-ins no rule derives: an emoji, a near-synonym players use for it)."""
    table: dict[str, list[str]] = {}
    for w in data.get("spelled_words", []):
        table[w] = variants(w, lookalike, sounds=True, tokenizer=tokenizer)
    for w in data.get("spelled_latin", []):
        table[w] = variants(w, lookalike, sounds=False)
    for w, extra in data.get("spelled_extra", {}).items():  # written by hand: 🎬 for 导演, 贴面 for 贴脸
        table[w] = sorted(set(table.get(w, [])) | set(extra), key=lambda v: (-len(v), v))
    return {w: v for w, v in table.items() if v}


# a stand-in of letters only (dy, cz, tb): an abbreviation, so only where no letter or digit touches it
# (dy, not in body; sp 杀品, not sp3, a service pack)
_LETTERS_ONLY = re.compile(r"[a-z]{1,3}")


def _bounded(v: str) -> str:
    """A spelling for a pattern: a short abbreviation only between non-letters and non-digits."""
    if _LETTERS_ONLY.fullmatch(v):
        return f"(?<![a-z0-9]){re.escape(v)}(?![a-z0-9])"
    return re.escape(v)


def rewrite_category(data: dict, spelled: dict[str, list[str]]) -> dict:
    """A category's parsed TOML with its patterns, vetoes, construction slots, word classes and
    anchors taught every spelling of the game words they hold."""
    if not spelled:
        return data
    alt = {w: "(?:" + "|".join([re.escape(w)] + [_bounded(v) for v in vs]) + ")" for w, vs in spelled.items()}
    out = dict(data)

    def one(p: object) -> object:
        if isinstance(p, str):
            return expand(p, alt)
        if isinstance(p, dict) and "re" in p:
            q = dict(p)
            q["re"] = expand(p["re"], alt)
            if isinstance(p.get("unless"), str):
                q["unless"] = expand(p["unless"], alt)
            return q
        return p

    def words(ws: list, anchors: bool = False) -> list:
        got = list(ws)
        for x in ws:
            if isinstance(x, str) and not x.startswith("@"):
                got += [x.replace(w, v) for w, vs in spelled.items() if w in x for v in vs
                        if anchors or not _LETTERS_ONLY.fullmatch(v)]
        seen: set[str] = set()
        return [g for g in got if not isinstance(g, str) or not (g in seen or seen.add(g))]

    if "patterns" in out:
        out["patterns"] = [one(p) for p in out["patterns"]]
    if isinstance(out.get("unless"), str):
        out["unless"] = expand(out["unless"], alt)
    if "anchors" in out:
        out["anchors"] = words(out["anchors"], anchors=True)
    if "classes" in out:
        out["classes"] = {k: words(v) if isinstance(v, list) else v for k, v in out["classes"].items()}
    if "constructions" in out:
        cons = []
        for c in out["constructions"]:
            c = dict(c)
            c["slots"] = [words(s) if isinstance(s, list) else words([s]) if isinstance(s, str) else s
                          for s in c.get("slots", [])]
            if isinstance(c.get("unless"), str):
                c["unless"] = expand(c["unless"], alt)
            cons.append(c)
        out["constructions"] = cons
    return out
