"""Homophones (音近) and look-alikes (形近) for the lexicon words marked `sounds`.

The rule posts ban "音近、形近" spellings: 沙比 and 煞笔 for 傻逼, 卧糟 for 卧槽. Rather than turn
every post into pinyin (slow), the variants are spelled out once when the lexicon loads: each
character of a marked word may be swapped for a common character (GB2312 level 1, the 3755 most
frequent) with the same toneless pinyin (pypinyin's table), or for a look-alike listed in
`lexicon/lookalike.toml`. The variants are whole-word entries, so jieba still has to agree that
a variant stands alone (有啥比较 is not 傻逼), and a term's `except` list removes real words.
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import itertools
import sys
import types
import unicodedata
from functools import lru_cache
from pathlib import Path

MAX_VARIANTS = 4000


@lru_cache(maxsize=1)
def _common_chars() -> tuple[str, ...]:
    """GB2312 level-1 hanzi: rows 0xB0-0xD7 of the GB2312 code table."""
    out = []
    for hi in range(0xB0, 0xD8):
        for lo in range(0xA1, 0xFF):
            try:
                out.append(bytes((hi, lo)).decode("gb2312"))
            except UnicodeDecodeError:
                continue
    return tuple(out)


def _toneless(syllable: str) -> str:
    s = unicodedata.normalize("NFD", syllable)
    s = "".join(c for c in s if not unicodedata.combining(c))
    return s.replace("ü", "v").lower()


@lru_cache(maxsize=1)
def _pinyin_dict() -> dict[int, str]:
    """pypinyin's character table (code point → "pīn,yīn"), without importing the package:
    `pypinyin/__init__` also loads its 40,000-phrase dictionary, which costs 0.15 s of start-up
    and leaves 190,000 lists for every full garbage collection of the process to walk."""
    loaded = sys.modules.get("pypinyin.pinyin_dict")
    if loaded is not None:
        return loaded.pinyin_dict
    try:
        spec = importlib.util.find_spec("pypinyin")
        path = Path(spec.origin).with_name("pinyin_dict.py")
        loader = importlib.machinery.SourceFileLoader("_moderation_pinyin_dict", str(path))
        module = types.ModuleType(loader.name)
        module.__file__ = str(path)
        loader.exec_module(module)
        return module.pinyin_dict
    except (AttributeError, ImportError, OSError, TypeError):
        from pypinyin.pinyin_dict import pinyin_dict

        return pinyin_dict


@lru_cache(maxsize=1)
def _by_sound() -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    """char → its toneless syllables, and syllable → common chars that have it."""
    pinyin_dict = _pinyin_dict()
    syllables: dict[str, frozenset[str]] = {}
    chars: dict[str, set[str]] = {}
    for c in _common_chars():
        raw = pinyin_dict.get(ord(c))
        if not raw:
            continue
        sy = frozenset(_toneless(p) for p in raw.split(","))
        syllables[c] = sy
        for s in sy:
            chars.setdefault(s, set()).add(c)
    return syllables, {k: frozenset(v) for k, v in chars.items()}


def syllables_of(c: str) -> frozenset[str]:
    """Toneless pinyin of one character (pypinyin's table), empty for non-hanzi."""
    table, _ = _by_sound()
    if c in table:
        return table[c]
    raw = _pinyin_dict().get(ord(c))
    return frozenset(_toneless(p) for p in raw.split(",")) if raw else frozenset()


def homophones(c: str) -> frozenset[str]:
    """Common characters that sound like `c` (tones ignored), `c` included: by their commonest
    (first) readings only, on both sides, so that a rare reading (哈 sha, 佛 bi) makes none."""
    raw = _pinyin_dict().get(ord(c))
    if not raw:
        return frozenset({c})
    first = _toneless(raw.split(",")[0])
    return frozenset({c, *_first_readers().get(first, ())})


@lru_cache(maxsize=1)
def _first_readers() -> dict[str, frozenset[str]]:
    """syllable → common characters whose first reading it is."""
    table = _pinyin_dict()
    out: dict[str, set[str]] = {}
    for ch in _common_chars():
        raw = table.get(ord(ch))
        if raw:
            out.setdefault(_toneless(raw.split(",")[0]), set()).add(ch)
    return {k: frozenset(v) for k, v in out.items()}


def variants(term: str, lookalike: dict[str, str], exclude: set[str] | frozenset[str] = frozenset()) -> set[str]:
    """Spellings of `term` with any of its characters swapped for a homophone or a look-alike.

    When the full product would be larger than MAX_VARIANTS, only one character at a time
    is swapped (long words are rarely disguised throughout)."""
    options = []
    for c in term:
        alts = set(homophones(c)) if "\u4e00" <= c <= "\u9fff" else {c}
        alts |= set(lookalike.get(c, ""))
        alts.add(c)
        options.append(sorted(alts))
    total = 1
    for o in options:
        total *= len(o)
    out: set[str] = set()
    if total <= MAX_VARIANTS:
        out = {"".join(p) for p in itertools.product(*options)}
    else:
        for i, alts in enumerate(options):
            for a in alts:
                out.add(term[:i] + a + term[i + 1:])
    out.discard(term)
    return out - set(exclude)
