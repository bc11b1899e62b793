"""`daoyan lint`: JSON Lines of loose posts in, one line of flags (and the ballot it reads as) out."""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Iterable, Iterator

from parsers.ballot import parse_ballot
from parsers.models import Post
from parsers.surrogates import replace_lone_surrogates

from gamedef.errors import DaoyanError
from gamedef.ruleset import Ruleset

_FORMAT_CODES = {"bad_format", "missing_reason"}


def ballot_of(text: str, ruleset: Ruleset) -> dict[str, Any] | None:
    """The ballot a loose post reads as (no roster: the target as written), or None.
    Without a roster only a ballot attempt reads as one, and every attempt holds a ballot
    label as written: a post without one is not parsed (most loose posts are talk)."""
    v = ruleset.vote
    if not any(label in text for label in (v.target_label, v.reason_label, v.change_target_label, v.change_reason_label)):
        return None
    post = Post(tid=0, pid=0, floor=0, author="", uid=None, posted_at=datetime.now(timezone.utc),
                time_precision="second", message_html="", text=text)
    b = parse_ballot(post, ruleset.vote, (), ())
    if b is None:
        return None
    return {"kind": b.kind, "target": b.written_target if b.kind != "abstain" else None, "reason": b.reason,
            "problems": [{"code": p.code, "message": p.message} for p in b.problems if p.code in _FORMAT_CODES]}


def lint_lines(lines: Iterable[str | bytes], ruleset: Ruleset, *, whistled: bool = False, chunk: int = 512) -> Iterator[str]:
    """One output line per input line, in order; a line that is not a post record (not UTF-8, not
    a JSON object, no text) gets an `error` naming its line, and the rest are still checked.
    Lines are checked in chunks through one batched scan (the same flags as one by one)."""
    import gc

    from moderation.checker import get_checker, lint_records

    get_checker(ruleset)
    gc.freeze()  # the lexicon and dictionaries live as long as the process: keep them out of every GC pass
    batch: list[tuple[int, dict | _Unreadable]] = []

    def flush() -> Iterator[str]:
        recs = [r for _, r in batch if not isinstance(r, _Unreadable)]
        results = iter(lint_records(recs, ruleset))
        for n, rec in batch:
            if isinstance(rec, _Unreadable):
                yield _json_line({"id": rec.id, "line": n, "error": rec.error})
                continue
            out = next(results)
            text = rec.get("text")
            if text is None and isinstance(rec.get("html"), str):
                from moderation.html_text import from_html

                text = from_html(rec["html"]).text
            out["vote"] = ballot_of(text, ruleset) if isinstance(text, str) else None
            yield _json_line(out)
        batch.clear()

    for n, line in enumerate(lines, 1):
        rec = _record(n, line)
        if rec is None:
            continue
        if isinstance(rec, dict) and whistled and "whistled" not in rec:
            rec["whistled"] = True
        batch.append((n, rec))
        if len(batch) >= chunk:
            yield from flush()
    yield from flush()


@dataclass(frozen=True)
class _Unreadable:
    id: Any
    error: str


def _json_line(obj: dict) -> str:
    """One output line; an id carrying a lone surrogate goes back out as the same JSON escape
    (`\\ud800`) instead of a character no UTF-8 stream can hold."""
    s = json.dumps(obj, ensure_ascii=False)
    return s.encode("utf-8", "backslashreplace").decode("utf-8")


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
