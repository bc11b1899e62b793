"""What the announcement (公示) may say about a ballot: the count's reasons in words for players.

The engine writes each problem for the director: some of its messages name a ruleset field
(`规则集 accelerated_voids = after_granted`), a game-file entry (`[[proxy]] requested_at`) or ask
the director to check something (请导演核对). Players read the announcement, so here each reason
keeps the rule's own words and the facts (floors, times, names) and loses what was addressed to
the director; those notes stay in the review page, the desk and `votes`.

Nothing here decides whether a ballot counts: that is the engine's `valid` / `counted`. This only
chooses words, and says for every ballot that does not count why not.
"""
from __future__ import annotations

import re
from typing import Any, Iterable, Mapping

from ._text import clauses, clean

# Notes on a ballot that counts as posted, for the director's review only: the whistled player's
# words (a flag matter, 黑哨) and a time the page shows only to the minute.
DIRECTOR_ONLY = frozenset({"whistled_ballot", "close_minute"})

# Marks of text addressed to the director or naming the program's own settings.
DIRECTOR_WORDS = ("请导演", "daoyan", "游戏文件", "规则集", "[[")
_FIELD = re.compile(r"[A-Za-z]+_[A-Za-z_.]+|[A-Za-z_.]+\s*=\s*\S")
_DIRECTOR_PAREN = re.compile(r"（[^（）]*(?:规则集|\[\[|[A-Za-z_.]+\s*=|[a-z]+_[a-z_]+)[^（）]*）")
_CLAUSE_END = re.compile(r"(?<=[，；。])")


def addressed_to_director(text: str) -> bool:
    """True when a public line would carry a note for the director or a settings name."""
    return any(w in text for w in DIRECTOR_WORDS) or bool(_FIELD.search(text))


def _rewrite(code: str, msg: str) -> str:
    """The few messages whose director-facing part carries a fact players need: reworded here."""
    if code == "whistled_voter":
        # "X处于黑哨状态，只能发出动物叫声或表情；按规则集（whistle.ballot_counts = false）此票不计。"
        return re.sub(r"；?按规则集（[^）]*）", "，", msg)
    if code == "missing_reason":
        # "（弃权票也须写理由：规则集 abstain_reason_required = true）" -> the rule's requirement alone
        return re.sub(r"：规则集[^）]*）", "）", msg).replace("（弃权票也须写理由）", "（弃权票也须写投票理由）")
    if code == "duplicate_vote":
        # "…每人限投一票；如是代投改票，请在游戏文件的这条 [[proxy]] 写 change = true。此票不计。"
        return re.sub(r"；如是代投改票，[^。]*。", "；", msg)
    if code == "no_time":
        return "无法确定此帖的发帖时间，此票暂不计入。"
    return msg


def public_text(problem: Mapping[str, Any]) -> str:
    """One problem in words for players ('' when it is a note for the director only)."""
    code = clean(problem.get("code"))
    if code in DIRECTOR_ONLY:
        return ""
    msg = _rewrite(code, clean(problem.get("message")))
    msg = _DIRECTOR_PAREN.sub("", msg)
    kept = [part for part in _CLAUSE_END.split(msg) if part and not addressed_to_director(part)]
    out = "".join(kept).strip().rstrip("，；")
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
