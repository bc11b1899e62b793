"""A ruleset from a rule post: the post's reading laid over a base preset, written as TOML whose
every field says where it came from (the sentence, or "from preset X: the post does not settle it").

The reading is `parsers.rule_post`; this module picks the base (the preset agreeing with most of
what the post settles, unless the director names one), merges, writes TOML and JSON, and compares
a game's ruleset with its rules thread for `daoyan scan`.
"""
from __future__ import annotations

import copy
import json
import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Sequence

from gamedef.errors import RulesetError
from gamedef.ruleset import PRESETS, Ruleset, parse_ruleset
from parsers.rule_post import Finding, RuleReading, read_rule_post

# fields that are citations or wording, not rules: never a reason to prefer one preset, never a disagreement
_CITATIONS = {"whistle.rule", "schedule.rule", "vote.ballot_before_out_rule"}
# readings a derived ruleset always states, even when neither the post nor the base sets them (a base file
# written before the field): then the ruleset's own default, said so in the output
_ALWAYS_STATED = ("vote.ballot_before_out",)
# what a field taken from the base means, said beside it: readings a director should know were not the post's
_BASE_NOTES = {"vote.ballot_before_out": "the post says nothing of a ballot cast by a player who then goes out "
                                         "mid-day; this is the base's reading"}


@dataclass
class Derived:
    """The merged ruleset (`data`, in the TOML schema) and every leaf's provenance."""

    data: dict[str, Any]
    base: str
    reading: RuleReading
    sources: dict[str, Finding] = field(default_factory=dict)  # dotted path -> the finding that set it

    def source_of(self, path: str) -> Finding | None:
        return self.sources.get(path)


def preset_data(name: str) -> dict[str, Any]:
    text = resources.files("gamedef.rulesets").joinpath(f"{name}.toml").read_text("utf-8")
    return tomllib.loads(text)


def base_data(spec: str) -> tuple[str, dict[str, Any]]:
    """(label, raw TOML data) of a preset name or a ruleset TOML path."""
    key = spec.strip().lower()
    if key in PRESETS:
        return key, preset_data(key)
    p = Path(spec)
    if not p.is_file():
        raise RulesetError(f"--base {spec!r}: not a preset ({', '.join(PRESETS)}) nor a ruleset file")
    try:
        data = tomllib.loads(p.read_text("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as e:
        raise RulesetError(f"--base {spec}: not a readable ruleset TOML: {e}") from None
    parse_ruleset(p.read_text("utf-8"), str(p))  # refuse a broken base with its own message
    return str(p), data


def _get(data: dict[str, Any], path: str) -> Any:
    cur: Any = data
    for part in path.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return None
        cur = cur[part]
    return cur


def _set(data: dict[str, Any], path: str, value: Any) -> None:
    *parents, leaf = path.split(".")
    cur = data
    for part in parents:
        cur = cur.setdefault(part, {})
    if value is None:
        cur.pop(leaf, None)
    else:
        cur[leaf] = value


def _lurk_key(d: dict[str, Any]) -> tuple:
    return (d.get("kind"), d.get("threshold", 0) if d.get("kind") == "posts_below" else 0,
            d.get("days", 1) if d.get("kind") == "posts_below" else 1, d.get("card", "yellow"))


def agreement(reading: RuleReading, data: dict[str, Any], *, stated_only: bool = False) -> int:
    """How many of the post's settled fields (and lurking rules) a ruleset's data has the same;
    `stated_only`: not counting what the post settles by saying nothing."""
    n = 0
    for path, f in reading.fields.items():
        if path in _CITATIONS or (stated_only and f.how == "absent"):
            continue
        if _same(_get(data, path), f.value):
            n += 1
    theirs = {_lurk_key(d) for d in data.get("lurking", [])}
    n += sum(1 for f in reading.lurking if _lurk_key(f.value) in theirs)
    return n


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool):
        return abs(float(a) - float(b)) < 1e-9
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return list(a) == list(b)
    return a == b


def nearest_preset(reading: RuleReading, *, stated_only: bool = False, elects: bool | None = None) -> str:
    """The preset agreeing with most of what the post settles (the first preset on a tie).
    `elects`: whether the game is known to hold an election (an election thread on the board)."""
    def score(p: str) -> tuple[int, int]:
        data = preset_data(p)
        n = agreement(reading, data, stated_only=stated_only)
        if elects is not None and bool(data.get("election", {}).get("enabled")) == elects:
            n += 1
        return n, -PRESETS.index(p)
    return max(PRESETS, key=score)


def _name_of(tag: str) -> str:
    s = re.sub(r"[^0-9A-Za-z_\-\u4e00-\u9fff]+", "-", tag).strip("-").lower()
    return s or "derived"


def derive(text: str | Sequence[str], base: str | None = None, *, title: str | None = None) -> Derived:
    """Read the rule post and lay it over `base` (default: the nearest preset)."""
    reading = read_rule_post(text, title=title)
    label, data = base_data(base) if base else (lambda p: (p, preset_data(p)))(nearest_preset(reading))
    data = copy.deepcopy(data)
    d = Derived(data=data, base=label, reading=reading)
    if reading.tag:
        data["name"] = _name_of(reading.tag)
        data["cite"] = reading.tag
        d.sources["name"] = d.sources["cite"] = Finding("cite", reading.tag, reading.title, "", "inferred",
                                                       "the tag of the post's title")
    if reading.title:
        data["title"] = reading.title
        d.sources["title"] = Finding("title", reading.title, reading.title, "", "text")
    for path, f in reading.fields.items():
        _set(data, path, f.value)
        d.sources[path] = f
    if reading.lurking:
        data["lurking"] = [{"rule": f.section, **f.value} for f in reading.lurking]
    for path in _ALWAYS_STATED:
        if _get(data, path) is None:
            value = _ruleset_value(Ruleset(name="", cite=""), path)
            _set(data, path, value)
            d.sources[path] = Finding(path, value, "", "", "default",
                                      f"{label} does not set it either: the ruleset's default")
    # a card the lurking rules give is a card of the game, whatever list the colours came from
    colors = list(data.get("cards", {}).get("colors", []))
    used = [lr.get("card", "yellow") for lr in data.get("lurking", [])]
    missing = [c for c in dict.fromkeys(used) if c not in colors]
    if missing:
        order = ("green", "blue", "yellow", "red")
        data.setdefault("cards", {})["colors"] = [c for c in order if c in colors or c in missing]
        was = d.sources.get("cards.colors")
        d.sources["cards.colors"] = Finding("cards.colors", data["cards"]["colors"], was.sentence if was else "",
                                            was.section if was else "", "inferred",
                                            f"with {', '.join(missing)}: the lurking rules give it")
    return d


def validated(d: Derived) -> Ruleset:
    """The derived ruleset as the loader reads it (so what we write is what a game file can use)."""
    return parse_ruleset(to_toml(d), "derived ruleset")


# ------------------------------------------------------------------------------- writing

def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return _toml_str(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {v!r} as TOML")


def _toml_str(v: str) -> str:
    """A TOML basic string: JSON's escapes, and DEL escaped too (TOML refuses it raw)."""
    return json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f")


def _key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else _toml_str(k)


def _one_line(s: str) -> str:
    """Text fit for a TOML comment: one line, no control characters (TOML refuses them there)."""
    return re.sub(r"[\x00-\x1f\x7f]", "", re.sub(r"\s+", " ", s)).strip()


def _comment(d: Derived, path: str) -> list[str]:
    f = d.sources.get(path)
    if f is None:
        note = [f"#   {_BASE_NOTES[path]}"] if path in _BASE_NOTES else []
        return [f"# from {d.base}: the post does not settle it", *note]
    if f.how == "absent":
        return [f"# the post never mentions it: {_one_line(f.note)}"]
    if f.how == "default":
        return [f"# the post does not settle it; {_one_line(f.note)}"]
    where = f" ({_one_line(f.section)})" if f.section else ""
    out = [f"# 「{_one_line(f.sentence)}」{where}"]
    if f.how == "inferred" and f.note:
        out.append(f"#   read as: {_one_line(f.note)}")
    elif f.note:
        out.append(f"#   {_one_line(f.note)}")
    return out


def to_toml(d: Derived) -> str:
    """The ruleset TOML, every field under the comment that says where it came from."""
    lines = [f"# Ruleset derived by `daoyan ruleset derive` from the rule post {_one_line(d.reading.title)!s}.",
             f"# Quoted: the sentence a field comes from. Fields the post does not settle come from {d.base}.",
             "# Check what was read before using it for a game.", ""]

    def table(prefix: str, tbl: dict[str, Any]) -> None:
        scalars = [(k, v) for k, v in tbl.items() if not isinstance(v, dict) and not (k == "lurking" and not prefix)]
        for k, v in scalars:
            path = f"{prefix}.{k}" if prefix else k
            lines.extend(_comment(d, path))
            lines.append(f"{_key(k)} = {_toml_value(v)}")
        for k, v in tbl.items():
            if isinstance(v, dict):
                path = f"{prefix}.{k}" if prefix else k
                lines.append("")
                lines.append(f"[{path}]")
                table(path, v)
        if not prefix and "lurking" in tbl:
            from_post = bool(d.reading.lurking)
            for i, lr in enumerate(tbl["lurking"]):
                lines.append("")
                if from_post:
                    f = d.reading.lurking[i]
                    lines.append(f"# 「{_one_line(f.sentence)}」 ({_one_line(f.section)})")
                else:
                    lines.append(f"# from {d.base}: the post sets no lurking rule that could be read")
                lines.append("[[lurking]]")
                for k, v in lr.items():
                    lines.append(f"{_key(k)} = {_toml_value(v)}")

    for f in d.reading.unsupported:
        lines.append(f"# NOT APPLIED: 「{_one_line(f.sentence)}」 ({_one_line(f.section)}): {f.note}; set it by hand if it matters")
    top = {k: v for k, v in d.data.items() if not isinstance(v, dict)}
    top_tables = {k: v for k, v in d.data.items() if isinstance(v, dict)}
    table("", top)
    for k, v in top_tables.items():
        lines.append("")
        lines.append(f"[{k}]")
        table(k, v)
    return "\n".join(lines) + "\n"


def to_json(d: Derived) -> dict[str, Any]:
    """Every field with its value and source: `text` (the sentence says it), `inferred` (worked out
    from the sentence), `absent` (the post never mentions it), `base` (taken from the base), or
    `default` (neither the post nor the base sets it: the ruleset's default, for a reading always stated)."""
    fields: dict[str, Any] = {}

    def walk(prefix: str, tbl: dict[str, Any]) -> None:
        for k, v in tbl.items():
            path = f"{prefix}.{k}" if prefix else k
            if isinstance(v, dict):
                walk(path, v)
            elif path == "lurking":
                continue
            else:
                f = d.sources.get(path)
                entry: dict[str, Any] = {"value": v, "source": f.how if f else "base"}
                if f is not None:
                    entry["sentence"] = f.sentence
                    entry["section"] = f.section
                    if f.note:
                        entry["note"] = f.note
                else:
                    entry["base"] = d.base
                    if path in _BASE_NOTES:
                        entry["note"] = _BASE_NOTES[path]
                fields[path] = entry

    walk("", d.data)
    for path, f in d.sources.items():  # settled by absence and so left out of the data (no priest weight)
        if path not in fields and f.value is None:
            fields[path] = {"value": None, "source": f.how, "sentence": f.sentence, "note": f.note}
    lurking = []
    for i, lr in enumerate(d.data.get("lurking", [])):
        entry = dict(lr)
        if d.reading.lurking:
            entry.update(source="text", sentence=d.reading.lurking[i].sentence, section=d.reading.lurking[i].section)
        else:
            entry.update(source="base", base=d.base)
        lurking.append(entry)
    unsupported = [{"sentence": f.sentence, "section": f.section, "note": f.note} for f in d.reading.unsupported]
    return {"name": d.data.get("name"), "title": d.data.get("title"), "base": d.base, "fields": fields,
            "lurking": lurking, "not_applied": unsupported}


# ------------------------------------------------------------------------ disagreements

@dataclass(frozen=True)
class Disagreement:
    field: str
    game_value: Any
    post_value: Any
    sentence: str
    section: str

    def message(self) -> str:
        return (f"{self.field}: the game's ruleset says {self.game_value!r}, the rules thread says "
                f"{self.post_value!r} (「{_one_line(self.sentence)}」{' ' + self.section if self.section else ''})")


def _ruleset_value(rs: Ruleset, path: str) -> Any:
    cur: Any = rs
    for part in path.split("."):
        cur = getattr(cur, part, None)
        if cur is None:
            return None
    return list(cur) if isinstance(cur, tuple) else cur


def disagreements(rs: Ruleset, reading: RuleReading) -> list[Disagreement]:
    """The fields where the post's own sentences say something else than the game's ruleset.
    Only what the post states counts (not what it leaves out), so silence is never a warning."""
    out: list[Disagreement] = []
    for path, f in reading.fields.items():
        if path in _CITATIONS or f.how == "absent":
            continue
        mine = _ruleset_value(rs, path)
        if not _same(mine, f.value):
            out.append(Disagreement(path, mine, f.value, f.sentence, f.section))
    have = {_lurk_key({"kind": lr.kind, "threshold": lr.threshold, "days": lr.days, "card": lr.card}) for lr in rs.lurking}
    for f in reading.lurking:
        if _lurk_key(f.value) not in have:
            v = f.value
            what = (f"posts below {v['threshold']} on {v['days']} day(s)" if v["kind"] == "posts_below" else "no vote")
            out.append(Disagreement("lurking", "no such rule", f"{what}, {v.get('card', 'yellow')} card",
                                    f.sentence, f.section))
    return out


# --------------------------------------------------------------- the scanned rules thread

def rules_thread_tid(game: Any, store: Any) -> int | None:
    """The rules thread of a scanned game: the game file's rules_tid, or the one the scan found."""
    if game.rules_tid:
        return int(game.rules_tid)
    row = store.db.execute("select value from meta where key='rules_tid'").fetchone() \
        if "meta" in store.db.table_names() else None
    return int(row[0]) if row and row[0] else None


def rules_thread_floors(store: Any, tid: int, directors: Sequence[str] = ()) -> tuple[str, list[str]]:
    """(subject, floors) of the rule post: the thread's first floors, as long as they are by its
    opener or a director (the rules end where the first player's reply begins)."""
    posts = store.posts(tid)
    if not posts:
        return "", []
    row = store.thread(tid) or {}
    opener = posts[0].author
    allowed = {opener, *directors}
    floors: list[str] = []
    for p in posts:
        if p.author not in allowed:
            break
        floors.append(p.text)
    return str(row.get("subject") or ""), floors


def rules_thread_warnings(game: Any, store: Any) -> tuple[int | None, list[Disagreement]]:
    """(the rules thread's tid, where the game's ruleset disagrees with what that thread says)."""
    tid = rules_thread_tid(game, store)
    if tid is None:
        return None, []
    subject, floors = rules_thread_floors(store, tid, game.directors)
    if not floors:
        return tid, []
    return tid, disagreements(game.ruleset, read_rule_post(floors, title=subject or None))
