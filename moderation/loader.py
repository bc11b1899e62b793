"""The lexicon: data files under `moderation/lexicon/`, one per category, reviewed like code.

Each `<category>.toml` may hold (all optional; see moderation/README.md):

- `terms`   literal strings that fire wherever they appear, after normalisation.
- `words`   strings that fire only where jieba agrees they are whole words (孙子 but not 孙子兵法).
- `sounds`  whole words whose homophones and look-alikes fire too; a string, or a table
            `{ term = "…", except = ["…"] }` listing real words among the variants.
- `latin`   Latin-letter terms (sb, cnm, fuck): fire only between non-letters.
- `anchors` + `patterns`  regexes over the squeezed view, run only on lines holding an anchor;
            a pattern is a string or a table `{ re = "…", unless = "…" }` (`unless` is searched
            in the same sentence and vetoes the hit).
- `constructions`  slots of interchangeable words in order within a sentence
            (`{ slots = [[…], […]], window = 8, any_order = false, unless = "…", raw = false }`),
            compiled into patterns (`raw`: into raw_patterns); their first slot's words become
            anchors (see `construction`). A slot may name a word class of `classes`
            (`"@name"`): a list of words or `{ re = "…" }`.
- `raw_prefilter` + `raw_patterns`  regexes over the folded view (spaces, digits and slashes
            intact: timestamps, QQ numbers, (2/3) counters), run on lines the prefilter finds.
- `unless`  a regex that, found on a hit's line, vetoes every hit of the category there
            (curse: 我要是狼我就天打雷劈 is a pledge, not a curse).
- `shared_unless`  names of vetoes kept once in `reporting.toml` (an unquoted report of what
            someone else said, talk about a rule) that join the category's own `unless`.
- `allow`   innocent words that contain a term (马甲线, 鸡肉, 操作): a term hit that an allowed
            word overlaps and reaches past is dropped. Allow entries apply to every category.
- `examples` / `clean`  posts that must / must not raise this category (checked by the tests).

`allow.toml` holds allow entries shared by all; `lookalike.toml` the 形近 character table;
`reporting.toml` the vetoes several categories share (`shared_unless`).
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from .normalize import key
from .sounds import variants
from .spellings import (ENGLISH_WORDS, addressed_spellings, latin_spellings, ordinary, reading, rebus_spellings,
                        sound_spellings)

LEXICON_DIR = Path(__file__).resolve().parent / "lexicon"
_SPECIAL = {"allow", "lookalike", "reporting", "address"}


# Every regex the shipped lexicon (and the checker) compiles on first use, registered when it is
# made: `compile_regex` builds each from `re`'s own compiled form kept in the start-up cache.
_REGISTERED: dict[tuple[str, int], None] = {}
_CODES: "dict[tuple[str, int], tuple] | None" = None


def register_regex(pattern: str, flags: int = 0) -> None:
    """Note a regex that may be compiled later: its compiled form is kept between runs."""
    if _CODES is None:
        _REGISTERED[(pattern, int(flags | re.UNICODE))] = None  # int: marshal keeps no RegexFlag


def _regex_code(pattern: str, flags: int) -> tuple | None:
    """What `re` compiles `pattern` into (its `_sre` arguments after the pattern), as plain
    data, or None where it cannot be worked out here (a bad regex, another `re`)."""
    try:
        from re import _compiler, _parser

        parsed = _parser.parse(pattern, flags)
        code = _compiler._code(parsed, flags)
        groupindex = dict(parsed.state.groupdict)
        indexgroup = [None] * parsed.state.groups
        for name, i in groupindex.items():
            indexgroup[i] = name
        # plain ints: the opcodes are an int subclass, which marshal does not keep
        return (int(flags | parsed.state.flags), list(map(int, code)), int(parsed.state.groups - 1),
                {str(k): int(v) for k, v in groupindex.items()}, tuple(indexgroup))
    except Exception:  # noqa: BLE001 - anything odd: re.compile decides, and reports a bad regex
        return None


def _codes() -> "dict[tuple[str, int], tuple]":
    """The compiled forms of every registered regex, read from the start-up cache (made on a
    cold start: parsing and compiling some 120 regexes was a tenth of a second of each run)."""
    global _CODES
    if _CODES is None:
        import hashlib

        from .startup_cache import cache_dir, cached

        if cache_dir() is None:  # nothing kept: each regex is compiled when first used, as before
            _CODES = {}
            return _CODES
        keys = list(_REGISTERED)
        digest = hashlib.sha256(repr(keys).encode("utf-8", "surrogatepass")).hexdigest()
        got = cached("regex-code", lambda: [(k, _regex_code(*k)) for k in keys], extra=digest)
        _CODES = {k: c for k, c in got if c is not None}
    return _CODES


def compile_regex(pattern: str, flags: int = 0) -> "re.Pattern[str]":
    """`re.compile(pattern, flags)`, from its kept compiled form where there is one: the same
    pattern object `re` builds (`re._compiler.compile` hands the same arguments to `_sre`)."""
    key = (pattern, int(flags | re.UNICODE))
    code = _codes().get(key) if key in _REGISTERED else None
    if code is not None:
        try:
            import _sre

            return _sre.compile(pattern, code[0], code[1], code[2], code[3], code[4])
        except Exception:  # noqa: BLE001 - another `_sre`: compile as usual
            pass
    return re.compile(pattern, flags)


class LazyRegex:
    """A regex compiled on its first search: the shipped lexicon has some 300 patterns, and
    compiling them all was half of the checker's start-up, while a run uses a few (a line is
    first tried against its category's union). `pattern` and `flags` need no compiling; the
    compiled form comes from the start-up cache (`compile_regex`)."""

    __slots__ = ("pattern", "flags", "_compiled")

    def __init__(self, pattern: str, flags: int = 0):
        self.pattern = pattern
        self.flags = flags | re.UNICODE
        self._compiled: "re.Pattern[str] | None" = None
        register_regex(pattern, self.flags)

    def compiled(self) -> "re.Pattern[str]":
        if self._compiled is None:
            self._compiled = compile_regex(self.pattern, self.flags)
        return self._compiled

    def search(self, *args):
        return self.compiled().search(*args)

    def finditer(self, *args):
        return self.compiled().finditer(*args)

    def match(self, *args):
        return self.compiled().match(*args)

    def __repr__(self) -> str:
        return f"LazyRegex({self.pattern!r})"


@dataclass(frozen=True)
class Pattern:
    category: str
    regex: "re.Pattern[str]"
    unless: "re.Pattern[str] | None"
    source: str


@dataclass
class CategoryLexicon:
    category: str
    terms: list[str] = field(default_factory=list)
    words: list[str] = field(default_factory=list)
    sounds: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    latin: list[str] = field(default_factory=list)
    anchors: list[str] = field(default_factory=list)
    patterns: list[Pattern] = field(default_factory=list)
    raw_prefilter: str = ""
    raw_patterns: list[Pattern] = field(default_factory=list)
    unless: "re.Pattern[str] | None" = None
    examples: list[str] = field(default_factory=list)
    clean: list[str] = field(default_factory=list)
    short_spellings: bool = False


@dataclass
class Lexicon:
    categories: dict[str, CategoryLexicon]
    allow: list[str]
    lookalike: dict[str, str]
    rebus: "dict[str, str | tuple[str, ...]]" = field(default_factory=dict)  # 画谜 and 拆字: what is written for a character

    def entries(self) -> list[tuple[str, str, str, str]]:
        """(key, kind, category, term) for the automaton: kind is term | word | latin |
        latin2 | sound | anchor | allow. `sound`: a homophone or look-alike spelling (a whole
        word, like `word`); `latin2`: a generated spelling of one or two Latin letters or digits
        (2b, nc), which counts only where written in lower case and not a unit (4g, 3d);
        `addressed`: a spelling too ordinary to count alone (cs, hz, 4g, 250), which counts
        only where written in lower case and said to someone or standing alone as a clause."""
        out: list[tuple[str, str, str, str]] = []
        written = {key(t) for lx in self.categories.values() for t in (*lx.terms, *lx.words, *lx.latin)}
        written |= {key(t) for lx in self.categories.values() for t, _ in lx.sounds}
        from .segment import Segmenter

        tokenizer = Segmenter().tokenizer()
        allowed = {key(a) for a in self.allow}
        excepted = {key(x) for lx in self.categories.values() for _, exc in lx.sounds for x in exc}
        # a spelling inside a real word that a term's `except` or the allow-list names is one too
        excepted |= {w[i:j] for w in excepted | allowed for i in range(len(w)) for j in range(i + 2, len(w) + 1)}

        def spelled(cat: str, t: str, *, ambiguous: bool) -> list[tuple[str, str, str, str]]:
            short = self.categories[cat].short_spellings
            """Every term's pinyin / initials / mixed / digit spellings (Latin-bounded) and
            its one-character homophones and look-alikes (whole words, never a dictionary word)."""
            full = "".join(reading(t)) if ambiguous else ""
            got = [(key(v), "latin2" if len(v) <= 2 else "latin", cat, t)
                   for v in sorted(latin_spellings(t, initials_ok=short or not ambiguous))
                   # a short word's short pinyin is often English or a name (rile, rita): not kept
                   if not (ambiguous and v == full and len(v) < 5) and key(v) not in written
                   and (short or len(v) > 2)]
            if short:
                got += [(key(v), "addressed", cat, t) for v in sorted(addressed_spellings(t)) if key(v) not in written]
            english = "".join(reading(t))
            if english in ENGLISH_WORDS and key(english) not in written:
                # an everyday English word (made): the term only where said to someone or standing alone
                got.append((key(english), "addressed", cat, t))
            for v in (sorted(sound_spellings(t, self.lookalike)) if short or len(t) >= 3 else ()):
                k = key(v)
                if k not in written and k not in allowed and k not in excepted and not ordinary(k, tokenizer):
                    got.append((k, "sound", cat, t))
            return got

        for cat, lx in self.categories.items():
            out += [(key(t), "term", cat, t) for t in lx.terms]
            out += [(key(t), "word", cat, t) for t in lx.words]
            out += [(key(t), "latin", cat, t) for t in lx.latin]
            out += [(key(t), "anchor", cat, t) for t in lx.anchors]
            for t, exc in lx.sounds:
                out.append((key(t), "word", cat, t))
                out += [(key(v), "sound", cat, t) for v in sorted(variants(t, self.lookalike, set(exc)))]
            for t in lx.terms:
                out += spelled(cat, t, ambiguous=False)
            for t, _ in lx.sounds:
                out += spelled(cat, t, ambiguous=False)
            for t in lx.words:
                out += spelled(cat, t, ambiguous=True)
            for t in (*lx.terms, *lx.words, *(t for t, _ in lx.sounds)):
                out += [(key(v), "term", cat, t) for v in sorted(rebus_spellings(t, self.rebus))]
        out += [(key(a), "allow", "allow", a) for a in self.allow]
        return list(dict.fromkeys(e for e in out if e[0]))


def _compile(cat: str, item: object, where: str, *, lazy: bool = False) -> Pattern:
    """A pattern of the lexicon; `lazy` (the shipped lexicon, whose regexes the tests compile)
    leaves compiling to the first search, otherwise a bad regex is reported here."""
    if isinstance(item, str):
        src, unless = item, None
    elif isinstance(item, dict) and "re" in item:
        src, unless = item["re"], item.get("unless")
    else:
        raise ValueError(f"{where}: a pattern is a string or a table with `re`")
    if lazy:
        return Pattern(cat, LazyRegex(src, re.M), LazyRegex(unless, re.M) if unless else None, src)  # type: ignore[arg-type]
    try:
        return Pattern(cat, re.compile(src, re.M), re.compile(unless, re.M) if unless else None, src)
    except re.error as e:
        raise ValueError(f"{where}: bad regex {src!r}: {e}") from None


CLAUSE_GAP = r"[^。.!?;！？；\n]"  # what may stand between two slots: anything but a sentence's end


def construction(item: dict, where: str, classes: "dict[str, object] | None" = None) -> tuple[dict, list[str]]:
    """A construction (`constructions` in a category file) as a pattern and its anchors.

    A construction is a few slots, each a list of interchangeable words, that must appear in
    order within one sentence, at most `window` characters apart (`any_order = true`: two slots,
    either order). 导演 + 跟我/私下 + 说/透露 catches 导演私下跟我透露过 and every other wording of
    the same three parts, where a sentence pattern catches only the sentences written down.
    A slot may name a word class of the file (`"@misfortune"`): a list of words, any of them may
    be `{ re = … }` for what no list can hold (a clock time, 锅 but not 锅贴); a slot may itself
    be `{ re = … }`. Its anchors are the first slot's words (both slots' where the order is
    free), or those of slot `anchor_slot` where the first is a pronoun; a slot holding a regex
    gives none, so its category needs anchors of its own."""
    slots = item.get("slots")
    if not isinstance(slots, list) or len(slots) < 2 or not all(isinstance(s, (list, str, dict)) and s for s in slots):
        raise ValueError(f"{where}: a construction needs `slots`, two lists of words or more")
    classes = classes or {}

    def slot(s: "list | str | dict") -> tuple[str, list[str]]:
        words: list[str] = []
        regexes: list[str] = []
        if isinstance(s, dict):
            return "(?:" + s["re"] + ")", []
        for w in [s] if isinstance(s, str) else s:
            if w.startswith("@"):
                got = classes.get(w[1:])
                if got is None:
                    raise ValueError(f"{where}: no word class {w!r}")
                for g in [got] if isinstance(got, dict) else got:  # type: ignore[union-attr]
                    if isinstance(g, dict):
                        regexes.append(g["re"])
                    else:
                        words.append(g)
            else:
                words.append(w)
        # in written order, not a set's: the start-up cache is keyed on the pattern sources
        alts = [re.escape(w) for w in sorted(dict.fromkeys(words), key=len, reverse=True)] + regexes
        return "(?:" + "|".join(alts) + ")", ([] if regexes else words)

    window = int(item.get("window", 8))
    parts = [slot(s) for s in slots]
    alts = [a for a, _ in parts]
    gap = f"{CLAUSE_GAP}{{0,{window}}}?"
    source = gap.join(alts)
    # the anchors come from the first slot, or from `anchor_slot` where the first is a pronoun
    # (你, 他) that would wake the category's patterns on nearly every line
    at = int(item.get("anchor_slot", 0))
    if not 0 <= at < len(parts):
        raise ValueError(f"{where}: `anchor_slot` {at} is not a slot")
    anchors = list(parts[at][1])
    if item.get("any_order"):
        if len(slots) != 2:
            raise ValueError(f"{where}: `any_order` takes two slots")
        source = f"{source}|{alts[1]}{gap}{alts[0]}"
        anchors = anchors + list(parts[1][1]) if anchors and parts[1][1] else []
    out = {"re": source}
    if item.get("unless"):
        out["unless"] = item["unless"]
    return out, anchors


def parse_category(cat: str, data: dict, where: str, *, lazy: bool = False,
                   shared: dict[str, str] | None = None) -> CategoryLexicon:
    """One category's tables; `shared` holds the vetoes of reporting.toml its `shared_unless` names."""
    lx = CategoryLexicon(cat)
    lx.terms = list(data.get("terms", []))
    lx.words = list(data.get("words", []))
    for s in data.get("sounds", []):
        if isinstance(s, str):
            lx.sounds.append((s, ()))
        else:
            lx.sounds.append((s["term"], tuple(s.get("except", ()))))
    lx.latin = [t.lower() for t in data.get("latin", [])]
    lx.anchors = list(data.get("anchors", []))
    lx.patterns = [_compile(cat, p, where, lazy=lazy) for p in data.get("patterns", [])]
    classes = data.get("classes", {})
    lx.raw_prefilter = data.get("raw_prefilter", "")
    lx.raw_patterns = [_compile(cat, p, where, lazy=lazy) for p in data.get("raw_patterns", [])]
    for item in data.get("constructions", []):
        pat, anchors = construction(item, where, classes)
        if item.get("raw"):  # over the folded view, where clock times and digits survive
            lx.raw_patterns.append(_compile(cat, pat, where, lazy=lazy))
            continue
        lx.patterns.append(_compile(cat, pat, where, lazy=lazy))
        lx.anchors += [a for a in anchors if a not in lx.anchors]
    if lx.patterns and not lx.anchors:
        raise ValueError(f"{where}: patterns need anchors (the literals that make them worth running)")
    if lx.raw_patterns and not lx.raw_prefilter:
        raise ValueError(f"{where}: raw_patterns need a raw_prefilter")
    unless = _joined_unless(data, where, shared or {})
    if unless:
        lx.unless = LazyRegex(unless, re.M) if lazy else re.compile(unless, re.M)  # type: ignore[assignment]
    lx.short_spellings = bool(data.get("short_spellings", False))
    lx.examples = list(data.get("examples", []))
    lx.clean = list(data.get("clean", []))
    return lx


def _joined_unless(data: dict, where: str, shared: dict[str, str]) -> str:
    """The category's own `unless` and the shared vetoes it names, as one alternation."""
    parts = [data["unless"]] if data.get("unless") else []
    for name in data.get("shared_unless", []):
        if name not in shared:
            raise ValueError(f"{where}: shared_unless names {name!r}, which reporting.toml does not define")
        parts.append(shared[name])
    return "|".join(f"(?:{p})" for p in parts) if len(parts) > 1 else "".join(parts)


def load_lexicon(directory: Path | None = None) -> Lexicon:
    """Every `*.toml` of the lexicon directory; a file's name (or its `category`) is its category."""
    if directory is None:
        # the shipped files parsed once per change of the package (startup_cache's fingerprint
        # holds every file of it): reading back the parsed tables is ten times quicker
        from .startup_cache import cached

        def parse_shipped() -> list[tuple[str, dict]]:
            root = resources.files("moderation").joinpath("lexicon")
            return _parsed([(e.name, e.read_text("utf-8")) for e in root.iterdir() if e.name.endswith(".toml")])

        parsed = cached("lexicon-toml", lambda: _spelled(parse_shipped()))
    else:
        parsed = _spelled(_parsed([(p.name, p.read_text("utf-8")) for p in sorted(Path(directory).glob("*.toml"))]))
    categories: dict[str, CategoryLexicon] = {}
    allow: list[str] = []
    lookalike: dict[str, str] = {}
    rebus: "dict[str, str | tuple[str, ...]]" = {}
    shared = {k: str(v) for n, d in parsed if n == "reporting.toml" for k, v in d.get("vetoes", {}).items()}
    for name, data in parsed:
        stem = name[: -len(".toml")]
        if stem == "lookalike":
            lookalike.update({k: str(v) for k, v in data.get("chars", {}).items()})
            rebus.update({k: tuple(map(str, v)) if isinstance(v, list) else str(v) for k, v in data.get("rebus", {}).items()})
            continue
        allow += list(data.get("allow", []))
        if stem in _SPECIAL:
            continue
        cat = data.get("category", stem)
        categories[cat] = parse_category(cat, data, name, lazy=directory is None, shared=shared)
    return Lexicon(categories, allow, lookalike, rebus)


def _spelled(parsed: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    """The categories with the game words of lookalike.toml's `spelled_words` / `spelled_latin`
    accepted in every spelling (spelled_words.py)."""
    from .spelled_words import rewrite_category, spelled_table

    look = next((d for n, d in parsed if n == "lookalike.toml"), {})
    if not look.get("spelled_words") and not look.get("spelled_latin") and not look.get("spelled_extra"):
        return parsed
    from .segment import Segmenter

    chars = {k: str(v) for k, v in look.get("chars", {}).items()}
    table = spelled_table(look, chars, Segmenter().tokenizer())
    return [(n, d if n[: -len(".toml")] in _SPECIAL or n == "lookalike.toml" else rewrite_category(d, table))
            for n, d in parsed]


def _parsed(files: list[tuple[str, str]]) -> list[tuple[str, dict]]:
    """(file name, its TOML tables) in name order; a file that is not TOML is named in the error."""
    out = []
    for name, text in sorted(files):
        try:
            out.append((name, tomllib.loads(text)))
        except tomllib.TOMLDecodeError as e:
            raise ValueError(f"lexicon/{name}: {e}") from None
    return out
