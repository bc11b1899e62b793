"""What the announcement (公示) may say about a ballot: the count's reasons in words for players.

The engine writes each problem twice: `message` for the director (it may name a ruleset field,
a game-file entry, or ask the director to check something) and `public`, the same reason in the
rule's own words and the facts (floors, times, names) for players — "" for a note that is the
director's alone (a whistled player's words, a time shown only to the minute). This module only
renders `public`; it never rewrites a director's message. A problem without `public` (data
written by an older daoyan) gives no words here, and its ballot is shown with the bare label.

Nothing here decides whether a ballot counts: that is the engine's `valid` / `counted`. This only
chooses words, and says for every ballot that does not count why not.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from ._text import clauses, clean


def public_text(problem: Mapping[str, Any]) -> str:
    """One problem's words for players ('' when it is a note for the director only)."""
    out = clean(problem.get("public")).strip().rstrip("，；")
    if out and not out.endswith("。"):
        out += "。"
    return out


def public_reasons(problems: Iterable[Any], codes: Iterable[str] | None = None) -> str:
    """The public words of a ballot's problems (only `codes`, when given), as one sentence."""
    want = None if codes is None else set(codes)
    texts = [public_text(p) for p in problems
             if isinstance(p, Mapping) and (want is None or clean(p.get("code")) in want)]
    return clauses(t for t in texts if t)


# ---------------------------------------------------------------------------------------------
# Why a ballot does not count


NOT_STANDING = frozenset({"voter_out", "target_out"})  # a valid ballot that stopped counting


def _replacement(b: Mapping[str, Any], ballots: list[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The ballot that took this one's place: the count's `replaced_by`, else the voter's next valid one."""
    pid = b.get("replaced_by")
    if pid is not None:
        for other in ballots:
            if other.get("pid") == pid and other is not b:
                return other
    later = False
    for other in ballots:
        if other is b:
            later = True
            continue
        if later and other.get("valid", True) and clean(other.get("voter")) == clean(b.get("voter")):
            return other
    return None


def uncounted(ballots: list[Mapping[str, Any]]) -> list[tuple[Mapping[str, Any], str, str]]:
    """Every ballot that does not count, with a short label (无效 / 已改票 / 不再计入) and the
    reason in public words, in the order they were posted."""
    out = []
    for b in ballots:
        if b.get("counted"):
            continue
        problems = [p for p in b.get("problems") or [] if isinstance(p, Mapping)]
        if not b.get("valid", True):
            why = public_reasons(problems)
            out.append((b, "无效", why or "此票无效。"))
            continue
        gone = [p for p in problems if clean(p.get("code")) in NOT_STANDING]
        if gone:
            out.append((b, "不再计入", public_reasons(gone)))
            continue
        new = _replacement(b, ballots)
        if new is not None:
            how = "改票" if clean(new.get("kind")) == "change" else "重新投票"
            out.append((b, "已" + how, f"{clean(b.get('voter'))}已{_where(new)}{how}，以{how}为准。"))
            continue
        why = public_reasons(problems)
        out.append((b, "不计入", why or "此票不计入票数。"))
    return out


def _where(b: Mapping[str, Any]) -> str:
    """Where the replacing ballot is: `在#17`, or `由导演代为` for a proxy recorded off the thread."""
    f = b.get("floor")
    if isinstance(f, int) and not isinstance(f, bool):
        return f"在#{f}"
    return "由导演代为" if b.get("proxy") else ""
