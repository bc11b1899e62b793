"""A vote-thread post's own words → a ballot: vote, change or abstain, with its format problems.

Only what the post itself says is judged here (labels, colons, target, reason, who may vote);
whether the ballot counts at its moment (lock window, changes used, who is out) is the count's
job in `engine.votes`. Near-misses are never fixed silently: a target that is not on the roster
makes the ballot invalid, and the message names the closest player so the director can say so.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Sequence

from gamedef.hanzi import t2s_chars
from gamedef.names import normalize_name
from gamedef.ruleset import VoteRules

from .models import Post

# Width variants and look-alikes of the colon a player may type (：﹕︰, the ratio sign ∶ U+2236, the
# modifier letters ꞉ U+A789 and ː U+02D0); `：` is the one the rule posts print. A ballot written with a
# look-alike is read as a ballot, never silently as "not voted".
_WIDE_COLONS = "：﹕︰∶꞉ː"
_TRIM = " \t\r\n\u3000。．.，,、！!？?；;~～"
# A label may stand in the brackets the rule post prints around 【投票格式】: 【投票对象】：包子, and a whole
# field may be bracketed: 【投票对象：包子】. The brackets are decoration, never part of the label or value.
_OPEN, _CLOSE = "[【\\[]?", "[】\\]]?"
# Quotation pairs a reason may quote another post's words in: 他说“投票对象：青梅”很可疑. A label inside
# such a pair, after the ballot's own label, is quoted talk and not a second ballot line.
_QUOTES = {"“": "”", "「": "」", "『": "』", "‘": "’", '"': '"', "＂": "＂"}
# Words that make a proxy's target a condition for the director to resolve (谁票多投谁, 如果…就…,
# 跟票, 看情况) rather than a named player (M84 投票规则: 不可设立投票条件; 004 玩家须知 9).
_CONDITION_WORDS = ("谁", "如果", "若", "假如", "假设", "要是", "的话", "否则", "不然", "除非", "除了", "看情况",
                    "视情况", "跟", "随大流", "票多", "票少", "最多", "最少", "最高", "最低",
                    "高票", "低票", "多数", "或者", "或", "还是", "就投", "则投", "再投", "再定", "决定", "随便",
                    "任意", "帮我选", "帮他选", "导演定", "导演选", "自行", "代为选择")


@lru_cache(maxsize=1)
def _t2s_table() -> dict[int, str]:
    """Traditional → simplified for `str.translate` (the table `moderation.normalize` folds with)."""
    return {ord(trad): simple for trad, simple in t2s_chars().items() if simple != trad}


def to_simplified(text: str) -> str:
    """`text` with traditional characters folded to simplified, of the same length (投票對象 → 投票对象,
    竹馬 → 竹马, 棄權 → 弃权), so a position in one is the same position in the other."""
    if text.isascii():
        return text
    return text.translate(_t2s_table())


@dataclass(frozen=True)
class Problem:
    """Why a ballot does not count (or what the director should look at), pasteable as is.

    `message` is for the director: it may name a ruleset field, a game-file entry, or ask the
    director to check something. `public` is the same reason in words for players (the
    announcement, 公示): the rule's words and the facts, nothing addressed to the director. None
    when the message is fit for players as it is; "" when it is a note for the director only."""

    code: str
    message: str
    public: str | None = None

    @property
    def public_message(self) -> str:
        return self.message if self.public is None else self.public

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message, "public": self.public_message}


@dataclass(frozen=True)
class ParsedBallot:
    """What one post casts. `target` is the roster spelling, or None for an abstention or no match."""

    voter: str
    kind: str  # vote | change | abstain
    target: str | None
    reason: str | None
    author: str
    proxy: bool = False
    is_change: bool = False
    written_target: str | None = None  # the target as the post spells it
    problems: tuple[Problem, ...] = field(default_factory=tuple)
    # what the director should know of how the ballot was read, not making it invalid (traditional
    # characters folded, a conditional proxy read as an abstention)
    notes: tuple[Problem, ...] = field(default_factory=tuple)

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(p.code for p in self.problems)


def _colon_class(rules: VoteRules) -> str:
    return "[:" + _WIDE_COLONS + "]" if rules.width_insensitive else "[：]"


def _labels(rules: VoteRules) -> list[str]:
    return [rules.target_label, rules.reason_label, rules.change_target_label, rules.change_reason_label]


def _any_label_re(rules: VoteRules) -> re.Pattern[str]:
    alts = "|".join(re.escape(x) for x in sorted(set(_labels(rules)), key=len, reverse=True))
    return re.compile(f"({alts})\\s*{_CLOSE}\\s*[:{_WIDE_COLONS}]")


def is_ballot_attempt(text: str, rules: VoteRules) -> bool:
    """A post tries to vote when a ballot label is followed by a colon (either width), or a line
    starts with a target label. Talk that merely mentions 投票对象 mid-sentence is not a ballot.
    Labels written in traditional characters (投票對象) are read as their simplified form."""
    text = to_simplified(text)
    alts = "|".join(re.escape(x) for x in _labels(rules))
    if re.search(f"(?:{alts})\\s*{_CLOSE}\\s*[:{_WIDE_COLONS}]", text):
        return True
    targets = "|".join(re.escape(x) for x in (rules.target_label, rules.change_target_label))
    return re.search(f"(?m)^[\\s*#>【\\[]*(?:{targets})(?:\\s+|[=＝-])\\S", text) is not None


def free_form_vote(text: str, players: Sequence[str], rules: VoteRules) -> tuple[str, str] | None:
    """A vote written in free words (`我投霜降，理由是…`, `改投包子`, `这票给饺子`) instead of the
    format: (kind, player) so the director sees it as an invalid ballot, not as talk."""
    names = "|".join(re.escape(p) for p in sorted(players, key=len, reverse=True))
    if not names:
        return None
    m = re.match(rf"\s*(?:我的票|我|这票|本人)?\s*(改投|改票给|投票给|投给|投|票给)\s*({names}|{re.escape(rules.abstain_word)})", text)
    if m is None or len(text) > 120 or re.search(r"[?？吗]", text[m.end():m.end() + 3]):
        return None
    return ("change" if m.group(1).startswith("改") else "vote"), m.group(2)


def _snippet(text: str) -> str:
    t = " ".join(text.split())
    return t if len(t) <= 24 else t[:23] + "…"


def _distance(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def _pinyin(s: str) -> str:
    try:
        from pypinyin import lazy_pinyin
    except ImportError:  # pragma: no cover - pypinyin is a dependency; sound-alikes are a bonus
        return s
    return "".join(lazy_pinyin(s))


def closest_player(written: str, players: Sequence[str]) -> str | None:
    """The roster name a mistyped target most likely meant (one character off, contained in it,
    or the same sound), or None when nothing is close enough to suggest."""
    w = normalize_name(written)
    if not w:
        return None
    best: tuple[int, int, str] | None = None
    for order, p in enumerate(players):
        n = normalize_name(p)
        d = _distance(w, n)
        close = d <= max(1, max(len(w), len(n)) // 3) or (len(n) >= 2 and n in w) or (len(w) >= 2 and w in n)
        if not close and _pinyin(w) == _pinyin(n):
            close, d = True, 1
        if close and (best is None or (d, order) < best[:2]):
            best = (d, order, p)
    return best[2] if best else None


def _proxy_voter(text: str, rules: VoteRules) -> tuple[str, str] | None:
    """(name written after the marker, the rest) when the text opens with the proxy marker."""
    stripped = text.lstrip()
    marker = rules.proxy_marker
    if not marker or not stripped.startswith(marker):
        return None
    rest = stripped[len(marker):]
    m = _any_label_re(rules).search(to_simplified(rest))
    head = rest[: m.start()] if m else rest
    line = head.strip().splitlines()[0] if head.strip() else ""
    name = re.split(r"[\s（(\[【]", line.strip(), maxsplit=1)[0] if line.strip() else ""
    return name.strip(_TRIM), rest


def _strip_mention(written: str) -> str:
    """`@包子` (Discuz's mention, as typed or as its rendered link) names 包子."""
    return re.sub(r"^[@＠]\s*", "", written.strip()).strip()


_PAIRS = {"【": "】", "“": "”", "「": "」", "『": "』", "《": "》", "[": "]", '"': '"', "'": "'", "‘": "’", "〔": "〕"}


def _undecorated(written: str) -> str:
    """The name inside the decoration a player puts around it: a trailing colon (饺子：), a pair of
    brackets or quotes (【饺子】 “饺子” 「饺子」). Only a whole pair is taken off, never half of one."""
    name = written.strip()
    while True:
        before = name
        name = name.rstrip(":" + _WIDE_COLONS).strip()
        if len(name) > 2 and _PAIRS.get(name[0]) == name[-1]:
            name = name[1:-1].strip()
        if name == before:
            return name


def _format_problem(msg: str) -> Problem:
    return Problem("bad_format", f"投票格式有误：{msg}。按规则此票无效，须重新发帖更正。")


def parse_ballot(post: Post, rules: VoteRules, players: Sequence[str], directors: Sequence[str]) -> ParsedBallot | None:
    """The ballot a vote-thread post casts, or None when the post is not a ballot attempt
    (ordinary talk, a director's notice). Uses `post.text`: quotes, reply headers and markup
    are already gone."""
    roster = {normalize_name(p): p for p in players}
    staff = {normalize_name(d) for d in directors}
    author_key = normalize_name(post.author)
    text = post.text or ""
    problems: list[Problem] = []

    proxy = False
    voter = roster.get(author_key, post.author)
    body = text
    marked = _proxy_voter(text, rules)
    if author_key in staff:
        if marked is None:
            return None  # a director's own words in the vote thread are not a ballot
        name, body = marked
        proxy = True
        voter = roster.get(normalize_name(name), name)
        if not is_ballot_attempt(body, rules):
            return ParsedBallot(voter=voter, kind="vote", target=None, reason=None, author=post.author, proxy=True,
                                problems=(_format_problem(f"{rules.proxy_marker}之后没有“{rules.target_label}：”"),))
        if normalize_name(name) not in roster:
            problems.append(Problem("not_a_player", f"代投对象“{name}”不是本场玩家，此代投不计。"))
    else:
        if not is_ballot_attempt(text, rules):
            free = free_form_vote(text, players, rules)
            if free is None or author_key not in roster:
                return None
            kind, target = free
            return ParsedBallot(voter=voter, kind=kind, target=None, reason=None, author=post.author,
                                is_change=kind == "change", written_target=target,
                                problems=(_format_problem(f"写成了“{_snippet(text)}”"),))
        if author_key not in roster:
            problems.append(Problem("not_a_player", f"{post.author}不是本场玩家，投票不计。"))
        elif marked is not None:
            problems.append(Problem("proxy_by_player", f"只有导演可以代投（{rules.proxy_marker}），玩家不可代他人投票，此票无效。"))
            body = marked[1]

    kind, written, reason, fmt = _read_fields(body, rules)
    target: str | None = None
    problems.extend(fmt)
    notes: list[Problem] = []
    is_change = kind == "change"
    if written is not None and not fmt:
        written = _strip_mention(written)
        name = _undecorated(written)
        key, folded = normalize_name(name), normalize_name(to_simplified(name))
        by_fold = _folded_roster(tuple(players))
        label = rules.change_target_label if is_change else rules.target_label
        if key == normalize_name(rules.abstain_word):
            kind = "abstain"
        elif key in roster:
            target = roster[key]
        elif folded == normalize_name(to_simplified(rules.abstain_word)):
            kind = "abstain"
            notes.append(_folded_note(label, written, rules.abstain_word))
        elif by_fold.get(folded):
            target = by_fold[folded]
            notes.append(_folded_note(label, written, target))
        else:
            near = closest_player(written, players)
            # a name one character off (若页 for 若叶) is a misspelling even when it holds a condition word
            misspelt = near is not None and len(key) <= len(normalize_name(near)) + 1
            if proxy and not misspelt and is_conditional(name, players):
                said = rules.conditional_proxy_rule or "代投须明确指定投票对象"
                if rules.conditional_proxy == "abstain":
                    kind = "abstain"
                    notes.append(Problem("conditional_proxy_abstain",
                                         f"代投的投票对象“{written}”是条件，不是明确指定的玩家；按规则（{said}）视为{voter}弃权。"))
                else:
                    problems.append(Problem("conditional_proxy",
                                            f"代投的投票对象“{written}”是条件，不是明确指定的玩家；按规则（{said}），"
                                            "此代投无效，须重新发帖更正。"))
            else:
                hint = f"（最接近的玩家是“{near}”）" if near else ""
                problems.append(Problem("unknown_target",
                                        f"投票对象“{written}”不是本场玩家{hint}，投票对象有误的票无效，须重新发帖更正。"))
    if rules.reason_required and not fmt and not reason and not (proxy and not rules.proxy_reason_required) \
            and not (kind == "abstain" and not rules.abstain_reason_required):
        label = rules.change_reason_label if is_change else rules.reason_label
        extra = "（弃权票也须写理由：规则集 abstain_reason_required = true）" if kind == "abstain" else ""
        said = f"（弃权票也须写{label}）" if kind == "abstain" else ""
        problems.append(Problem("missing_reason", f"缺少{label}（格式：{label}：……）{extra}，此票无效，须重新发帖更正。",
                                public=f"缺少{label}（格式：{label}：……）{said}，此票无效，须重新发帖更正。"))
    return ParsedBallot(voter=voter, kind=kind, target=target, reason=reason or None, author=post.author,
                        proxy=proxy, is_change=is_change, written_target=written, problems=tuple(problems),
                        notes=tuple(notes))


@lru_cache(maxsize=64)
def _folded_roster(players: tuple[str, ...]) -> dict[str, str | None]:
    """Each player's name folded to simplified → the player; None where two players fold alike
    (发 and 髮): such a spelling names neither, and stays a wrong target."""
    out: dict[str, str | None] = {}
    for p in players:
        k = normalize_name(to_simplified(p))
        out[k] = p if out.get(k, p) == p else None
    return out


def _folded_note(label: str, written: str, read_as: str) -> Problem:
    return Problem("traditional_folded",
                   f"{label}“{written}”含繁体字，按简体读作“{read_as}”（繁简转换后与之一致），请导演核对。",
                   public=f"{label}“{written}”含繁体字，按简体读作“{read_as}”（繁简转换后与之一致）。")


def is_conditional(written: str, players: Sequence[str] = ()) -> bool:
    """Whether a target that names no player is a condition for the director to resolve
    (谁票多投谁, 如果白露没出局就投白露, 跟票, 看情况) rather than a misspelt name. The players' names
    are taken out first: a condition word inside a name (若叶) is no condition."""
    w = to_simplified(written)
    for p in sorted(players, key=len, reverse=True):
        w = w.replace(to_simplified(p), " ")
    return any(word in w for word in _CONDITION_WORDS)


def _quoted_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each closed quotation (“…”, 「…」, "…"), the marks included; an opening mark
    that is never closed quotes nothing."""
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(text):
        close = _QUOTES.get(text[i])
        j = text.find(close, i + 1) if close else -1
        if j > i:
            spans.append((i, j + 1))
            i = j + 1
        else:
            i += 1
    return spans


def _unquoted(hits: list[tuple], text: str) -> list[tuple]:
    """The label hits that are the ballot's own lines: a label inside a quotation that opens after
    the first label (a reason quoting 投票对象：青梅) is quoted talk. A ballot quoted whole
    (“投票对象：饺子 投票理由：好”) opens its quotation before its first label and is kept."""
    if len(hits) < 2:
        return hits
    spans = [(a, b) for a, b in _quoted_spans(text) if a >= hits[0][1]]
    return [h for h in hits if not any(a < h[0] and h[1] <= b for a, b in spans)]


def _read_fields(body: str, rules: VoteRules) -> tuple[str, str | None, str, list[Problem]]:
    """(kind, written target, reason, format problems) from the ballot's lines. A label
    counts only where a colon follows it, so a reason may mention 投票理由 in passing."""
    colon = _colon_class(rules)
    any_colon = f"[:{_WIDE_COLONS}]"
    alts = "|".join(re.escape(x) for x in sorted(set(_labels(rules)), key=len, reverse=True))
    scan = to_simplified(body)  # labels in traditional characters (投票對象); values are taken from `body`
    hits = [(m.start(), m.end(), m.group(2), m.group(4), bool(m.group(1)) and not m.group(3))
            for m in re.finditer(f"({_OPEN})\\s*({alts})\\s*({_CLOSE})\\s*({any_colon})\\s*", scan)]
    hits = _unquoted(hits, scan)

    def unbracket(value: str, h: tuple) -> str:
        """A field opened with 【 before its label closes after its value: 【投票对象：包子】."""
        return re.sub(r"\s*[】\]]\s*$", "", value) if h[4] else value
    t_labels = (rules.target_label, rules.change_target_label)
    r_labels = (rules.reason_label, rules.change_reason_label)
    problems: list[Problem] = []

    def colon_ok(h: tuple) -> bool:
        return re.fullmatch(colon, h[3]) is not None

    targets = [h for h in hits if h[2] in t_labels]
    reasons = [h for h in hits if h[2] in r_labels]
    if not targets:
        bare = re.search("(?m)^[\\s*#>【\\[]*(" + "|".join(re.escape(x) for x in t_labels) + ")", scan)
        kind = "change" if bare and bare.group(1) == rules.change_target_label else "vote"
        if bare:
            return kind, None, "", [_format_problem(f"“{bare.group(1)}”后面缺少冒号")]
        return kind, None, "", [_format_problem(f"没有“{rules.target_label}：”")]
    kind = "change" if any(h[2] == rules.change_target_label for h in targets) else "vote"
    if len(targets) > 1:
        return kind, None, "", [_format_problem(f"写了{len(targets)}个“{targets[0][2]}”，只能有一个")]
    t_start, v_start, t_label = targets[0][:3]
    if not colon_ok(targets[0]):
        problems.append(_format_problem(f"“{t_label}”后面须用全角冒号“："))
    nxt = next((h[0] for h in hits if h[0] >= v_start), len(body))
    line_end = body.find("\n", v_start)
    stop = min(nxt, line_end if line_end >= 0 else len(body))
    written = unbracket(body[v_start:stop].strip(_TRIM), targets[0]).strip(_TRIM)
    if not written:
        return kind, None, "", problems + [_format_problem(f"“{t_label}：”后面没有写对象")]

    want_reason = rules.change_reason_label if kind == "change" else rules.reason_label
    reason = ""
    after_target = [h for h in reasons if h[0] > t_start]
    if reasons and not after_target:
        problems.append(_format_problem(f"“{reasons[0][2]}”应写在“{t_label}”之后"))
    elif after_target:
        r_start, r_value, r_label = after_target[0][:3]
        if r_label != want_reason:
            problems.append(_format_problem(f"“{t_label}”须配“{want_reason}”，而不是“{r_label}”"))
        if not rules.same_line_allowed and "\n" not in body[v_start:r_start]:
            problems.append(_format_problem(f"“{t_label}”与“{r_label}”须分行"))
        if not colon_ok(after_target[0]):
            problems.append(_format_problem(f"“{r_label}”后面须用全角冒号“："))
        if len(after_target) > 1:
            problems.append(_format_problem(f"写了{len(after_target)}个“{r_label}：”，只能有一个"))
        reason = unbracket(body[r_value:].strip(), after_target[0]).strip()
    return kind, written, reason, problems
