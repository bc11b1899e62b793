"""`daoyan lint`: JSON Lines of loose posts in, one line of flags (and the ballot it reads as) out."""
from __future__ import annotations

import json
import json.scanner
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any, Iterable, Iterator

from parsers.surrogates import replace_lone_surrogates

from gamedef.errors import DaoyanError
from gamedef.ruleset import Ruleset

_FORMAT_CODES = {"bad_format", "missing_reason"}


def ballot_of(text: str, ruleset: Ruleset) -> dict[str, Any] | None:
    """The ballot a loose post reads as (no roster: the target as written), or None.
    Without a roster only a ballot attempt reads as one, and every attempt holds a ballot
    label as written: a post without one is not parsed (most loose posts are talk)."""
    if not _labels(ruleset).search(text):
        return None
    from parsers.ballot import parse_ballot  # most loose posts are talk: imported for the first ballot
    from parsers.models import Post

    post = Post(tid=0, pid=0, floor=0, author="", uid=None, posted_at=datetime.now(timezone.utc),
                time_precision="second", message_html="", text=text)
    b = parse_ballot(post, ruleset.vote, (), ())
    if b is None:
        return None
    return {"kind": b.kind, "target": b.written_target if b.kind != "abstain" else None, "reason": b.reason,
            "problems": [{"code": p.code, "message": p.message} for p in b.problems if p.code in _FORMAT_CODES]}


def lint_lines(lines: Iterable[str | bytes], ruleset: Ruleset, *, whistled: bool = False,
               chunk: int | None = None) -> Iterator[str]:
    """One output line per input line, in order; a line that is not a post record (not UTF-8, not
    a JSON object, no text) gets an `error` naming its line, and the rest are still checked.
    Lines are checked in chunks through one batched scan (the same flags as one by one)."""
    for block in lint_chunks(lines, ruleset, whistled=whistled, chunk=chunk):
        yield from block


# A chunk is checked through one batched scan. Large chunks keep each speech model's tables warm
# across many posts (the models score their anchored posts model by model: 512 posts a chunk
# spent a third more CPU on the prose bench than 4,096); the characters' bound keeps a chunk of
# long posts small in memory.
CHUNK_POSTS = 4096
CHUNK_CHARS = 2_000_000


def lint_chunks(lines: Iterable[str | bytes], ruleset: Ruleset, *, whistled: bool = False,
                chunk: int | None = None, chunk_chars: int = CHUNK_CHARS) -> Iterator[list[str]]:
    """`lint_lines` a chunk at a time: the output lines of each chunk of input lines, a chunk
    being at most `chunk` lines (CHUNK_POSTS) and, past its first line, `chunk_chars` characters."""
    import gc

    from moderation.checker import get_checker, lint_records
    from moderation.startup_cache import paused_gc

    # the lexicon and dictionaries live as long as the process: kept out of every GC pass, and
    # the collector stays off while they are read (no pass over them as it is switched back on)
    with paused_gc():
        try:
            get_checker(ruleset)
        finally:
            gc.freeze()
    labels = _labels(ruleset)

    def flush(batch: list[tuple[int, dict | _Unreadable]]) -> list[str]:
        recs = [r for _, r in batch if not isinstance(r, _Unreadable)]
        results = iter(lint_records(recs, ruleset))
        out: list[str] = []
        for n, rec in batch:
            if isinstance(rec, _Unreadable):
                out.append(_json_dumps({"id": rec.id, "line": n, "error": rec.error}))
                continue
            res = next(results)
            text = rec.get("text")
            if text is None and isinstance(rec.get("html"), str):
                from moderation.html_text import from_html

                text = from_html(rec["html"]).text
            vote = ballot_of(text, ruleset) if isinstance(text, str) and labels.search(text) else None
            if not res["flags"] and vote is None:
                ident = _id_json(res["id"])
                if ident is not None:
                    out.append(f'{{"id": {ident}, "flags": [], "vote": null}}')
                    continue
            res["vote"] = vote
            out.append(_json_dumps(res))
        return _escape_surrogates(out)

    limit = CHUNK_POSTS if chunk is None else chunk
    raw: list[tuple[int, str | bytes]] = []
    size = 0
    for n, line in enumerate(lines, 1):
        raw.append((n, line))
        size += len(line)
        if len(raw) >= limit or size >= chunk_chars:
            records = _records(raw, whistled)
            raw.clear()
            size = 0
            if records:
                yield flush(records)
    records = _records(raw, whistled)
    if records:
        yield flush(records)


def _labels(ruleset: Ruleset) -> "re.Pattern[str]":
    """A search for any of the ballot labels: `ballot_of` reads a post only where one is written,
    in simplified characters or in any spelling the vote parser folds to them (投票對象, 改票對象:
    `parsers.ballot.to_simplified`, OpenCC's traditional table), so lint reads a ballot as the count does."""
    v = ruleset.vote
    return _label_search((v.target_label, v.reason_label, v.change_target_label, v.change_reason_label))


@lru_cache(maxsize=8)
def _label_search(labels: tuple[str, ...]) -> "re.Pattern[str]":
    variants = _fold_variants("".join(sorted(set("".join(labels)))))

    def spelled(label: str) -> str:
        return "".join(f"[{re.escape(ch + variants[ch])}]" if variants.get(ch) else re.escape(ch) for ch in label)
    return re.compile("|".join(spelled(label) for label in labels if label))


def _fold_variants(chars: str) -> dict[str, str]:
    """For each of `chars`, the characters the ballot parser folds to it (對 → 对), read from the
    start-up cache: the traditional table is read only when the labels change or the data does."""
    from moderation.startup_cache import cached

    def build() -> dict[str, str]:
        from gamedef.hanzi import t2s_chars

        out: dict[str, str] = {}
        for trad, simple in t2s_chars().items():
            if simple in chars and trad != simple:
                out[simple] = out.get(simple, "") + trad
        return out
    return cached("ballot_label_variants", build, extra=chars)


def _id_json(ident: Any) -> str | None:
    """`json.dumps(ident)` for the common ids (a string, an int, none), else None."""
    t = type(ident)
    if t is str:
        return _encode_string(ident)
    if t is int:
        return int.__repr__(ident)
    if ident is None:
        return "null"
    return None


def _records(raw: list[tuple[int, str | bytes]], whistled: bool) -> list[tuple[int, "dict | _Unreadable"]]:
    """The records of a chunk of numbered lines (blank lines left out), as `_record` reads them
    one by one. Most lines are plain records: one JSON value each, read with the decoder's own
    scanner, and, where no string in the chunk can hold a lone surrogate, without copying the
    record; any other line goes through `_record`."""
    out: list[tuple[int, dict | _Unreadable]] = []
    texts: list[str] = []
    for n, line in raw:
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError:
                texts.append("")
                continue
        texts.append(line)
    clean = _SURROGATE_HINT.search("".join(texts)) is None
    scan = _SCAN
    for (n, line), text in zip(raw, texts):
        rec: Any = None
        if text and text[0] == "{":
            try:
                rec, end = scan(text, 0)
            except (StopIteration, ValueError, RecursionError):
                rec = None
            else:
                if end != len(text) and text[end:].strip(" \t\n\r"):
                    rec = None
        if type(rec) is dict and clean and isinstance(rec.get("text"), str) and type(rec.get("whistled", False)) is bool:
            if whistled and "whistled" not in rec:
                rec["whistled"] = True
            out.append((n, rec))
            continue
        got = _record(n, line)
        if got is None:
            continue
        if isinstance(got, dict) and whistled and "whistled" not in got:
            got["whistled"] = True
        out.append((n, got))
    return out


# a lone surrogate can only come from a JSON escape (\ud800) or a str line holding one
_SURROGATE_HINT = re.compile(r"[\ud800-\udfff]|\\u[dD][89a-fA-F]")
_SCAN = json.scanner.make_scanner(json.JSONDecoder())
_encode_string = json.encoder.encode_basestring


def _escape_surrogates(lines: list[str]) -> list[str]:
    """Output lines where an id carrying a lone surrogate goes back out as the same JSON escape
    (`\\ud800`) instead of a character no UTF-8 stream can hold; one search for the chunk."""
    if _SURROGATE_HINT.search("\n".join(lines)) is None:
        return lines
    return [s.encode("utf-8", "backslashreplace").decode("utf-8") for s in lines]


def _json_dumps(obj: dict) -> str:
    return json.dumps(obj, ensure_ascii=False)


@dataclass(frozen=True)
class _Unreadable:
    id: Any
    error: str


def _record(n: int, line: str | bytes) -> dict | _Unreadable | None:
    """Line n as a post record, or the one-line reason it is not one (None for a blank line).
    A record whose text is missing or not text gets an error, never an empty list of flags."""
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as e:
            return _Unreadable(None, f"line {n}: not UTF-8 text ({e.reason} at byte {e.start})")
    if not line.strip():
        return None
    try:
        rec = json.loads(line)
    except ValueError as e:
        return _Unreadable(None, f"line {n}: not a JSON object ({e})")
    if not isinstance(rec, dict):
        return _Unreadable(None, f"line {n}: not a JSON object")
    rec = {k: (v if k == "id" else replace_lone_surrogates(v)) for k, v in rec.items()}
    if not isinstance(rec.get("text"), str) and not isinstance(rec.get("html"), str):
        return _Unreadable(rec.get("id"), f'line {n}: a post needs "text" or "html" as a string')
    if "whistled" in rec and not isinstance(rec["whistled"], bool):
        return _Unreadable(rec.get("id"), f'line {n}: "whistled" must be true or false')
    return rec


def check_ruleset(spec: str) -> Ruleset:
    from gamedef.ruleset import load_ruleset

    try:
        return load_ruleset(spec)
    except DaoyanError:
        raise
