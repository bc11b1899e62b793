"""A rule post (规则帖) read into ruleset fields, each with the sentence that settles it.

Pure text work: `read_rule_post(text)` splits the post into sentences under their section
headings and runs one reader per rule a machine enforces (vote and change formats, change limit
and lock, a ballot cast before its voter went out, acceleration, weights, the priest election,
lurking, cards, whistles, day length).
A reader that finds nothing says nothing: the caller fills such fields from a base ruleset and
marks them so. A few fields are settled by absence (no whistle state in the post means none),
and say so in their `how`.

Field names are the dotted paths of the ruleset schema (`vote.max_changes`); lurking rules are a
list of their own. Nothing here knows the presets.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Callable, Iterable, Sequence

from .numbers import NUMBER, clock, duration_minutes, fraction, integer, number

_HEADING_PUNCT = re.compile(r"[，。,:：；;！？!?、“”\"]")
_SPLIT = re.compile(r"(?<=[。；;！!？?])|\n")
_NEG = r"(?:不允许|不得|不能|不可以?|禁止|无法|不再|不准|不许|严禁|不予)"
_CHANGE = r"改票|锁票|封票|锁定投票"  # what a lock before close stops
_BEFORE_CLOSE = (r"(?:关门|关帖|投票截[止至]|投票结束|白天结束|讨论日?结束|讨论结束|截[止至]|结束)(?:时间)?(?:的)?")


@dataclass(frozen=True)
class Sentence:
    text: str  # as read: synonyms written the one way the readers know (更改投票 → 改票)
    section: str  # "游戏进程 投票规则", "违规判定 5(1)"
    heading: str  # the nearest heading line in full (a card colour may sit there: 潜水（…黄牌）)
    raw: str = ""  # as the post writes it: what a finding quotes


# words for the same thing, read as the one the readers look for; the quote keeps the post's own
_SYNONYMS = (("更改投票", "改票"), ("修改投票", "改票"), ("更换投票", "改票"), ("换票", "改票"), ("关帖", "关门"),
             ("贴", "帖"))


def _as_read(text: str) -> str:
    for a, b in _SYNONYMS:
        text = text.replace(a, b)
    return text


@dataclass(frozen=True)
class Finding:
    """One field's value and where it came from. `how`: "text" (the sentence says it), "absent"
    (the post never mentions the thing, so it is off), "inferred" (worked out from the sentence)."""

    field: str
    value: Any
    sentence: str
    section: str = ""
    how: str = "text"
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        d = {"field": self.field, "value": self.value, "sentence": self.sentence, "section": self.section,
             "how": self.how}
        if self.note:
            d["note"] = self.note
        return d


@dataclass
class RuleReading:
    title: str = ""
    tag: str = ""
    fields: dict[str, Finding] = field(default_factory=dict)
    lurking: list[Finding] = field(default_factory=list)  # value: a dict in the [[lurking]] shape
    unsupported: list[Finding] = field(default_factory=list)  # rules read but not expressible as fields

    def add(self, f: Finding) -> None:
        self.fields.setdefault(f.field, f)  # the first sentence that settles a field wins


_FLOOR = "\x00floor\x00"


def split_sentences(text: str | Sequence[str]) -> list[Sentence]:
    """Sentences with the section they sit in. A floor (one string of a sequence, or in a text
    file after its author line `[M84]导演`) starts with its title (`游戏进程`); short lines
    without punctuation are sub-headings; `5、潜水` and `（1）` number the rules under them."""
    if not isinstance(text, str):
        text = "\n".join(f"{_FLOOR}\n{floor}" for floor in text)
    out: list[Sentence] = []
    top = sub = num = ""
    heading = ""
    expect_top = True
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line == _FLOOR:
            expect_top, sub, num = True, "", ""
            continue
        if re.fullmatch(r"[\[【][^\]】]{1,20}[\]】]\s*\S{0,12}导演\S{0,6}", line):
            expect_top, sub, num = True, "", ""
            continue
        if re.fullmatch(r"[-—=_~\s]*(?:END|fine|完)[-—=_~\s]*", line, flags=re.I) or re.fullmatch(r"[-—=_]{3,}", line):
            continue
        if not out and not top and re.match(r"[\[【［][^\]】］]{1,20}[\]】］]", line) and "规则" in line:
            continue  # the post's title: not a section
        m_cn = re.match(r"^([一二三四五六七八九十]+)[、.．]\s*(\S.*)$", line)
        if m_cn and len(m_cn.group(2)) <= 12 and not _HEADING_PUNCT.search(m_cn.group(2)):
            top, sub, num, heading, expect_top = m_cn.group(2), "", "", line, False  # 一、投票
            continue
        is_heading = len(line) <= 12 and not _HEADING_PUNCT.search(line) and not re.match(r"[(（]?\d", line)
        m_num = re.match(r"^(\d+)[、.．]\s*(\S.*)$", line)
        item = ""
        if is_heading:
            if expect_top:
                top, sub, num = line, "", ""
            else:
                sub, num = line, ""
            heading = line
            expect_top = False
            continue
        expect_top = False
        if m_num and len(m_num.group(2)) <= 30 and not re.search(r"[。；;]", m_num.group(2)):
            num = m_num.group(1)
            heading = line
            sub = ""
            # a numbered heading may carry its own sentence ("5、潜水（以下行为均固定判罚一张“黄牌”）")
        elif m_num:
            item = m_num.group(1)  # a numbered rule of its own ("2. 每人每轮仅可投票一次，…。")
        m_item = re.match(r"^[(（](\d+)[)）]", line)
        if item:
            section = f"{top} {item}".strip()
        elif m_item and num:
            section = f"{top} {num}({m_item.group(1)})"
        elif m_item and sub:
            section = f"{top} {sub}({m_item.group(1)})"  # 潜水 then （1）…: 违规判定 潜水(1)
        elif num:
            section = f"{top} {num}"
        else:
            section = " ".join(x for x in (top, sub) if x)
        for piece in _SPLIT.split(line):
            piece = piece.strip()
            if piece:
                out.append(Sentence(_as_read(piece), section, heading, piece))
    return out


def _find(sentences: Iterable[Sentence], pattern: str, *, exclude: str | None = None) -> Iterable[tuple[Sentence, re.Match[str]]]:
    rx = re.compile(pattern)
    ex = re.compile(exclude) if exclude else None
    for s in sentences:
        m = rx.search(s.text)
        if m and not (ex and ex.search(s.text)):
            yield s, m


def _first(sentences: list[Sentence], pattern: str, *, exclude: str | None = None) -> tuple[Sentence, re.Match[str]] | None:
    return next(iter(_find(sentences, pattern, exclude=exclude)), None)


# ------------------------------------------------------------------------------------ title

def _title(text: str, r: RuleReading) -> None:
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        m = re.match(r"([\[【]([^\]】]{1,20})[\]】])", line)
        if m:
            r.tag = m.group(2).strip()
        r.title = re.split(r"\s*[-—]{1,}\s*规则[帖贴]?\s*$|\s*规则[帖贴]\s*$", line)[0].strip() or line
        return


# ------------------------------------------------------------------------------------- vote

_LABEL = re.compile(r"((?:投票|改票|改投|选票)?(?:对象|目标|人选|理由|原因))\s*[:：]\s*([^\s:：]*)")


def _labels(text: str, ss: list[Sentence], r: RuleReading) -> None:
    """The format's labels, from the lines that show it (`投票对象：饺子`, also several on one line)."""
    for line in (ln.strip() for ln in text.splitlines()):
        for m in _LABEL.finditer(line):
            label, value = m.group(1), m.group(2).strip()
            if m.start() > 0 and line[m.start() - 1] not in " \t　】]：:，,/|" and not re.match(r"^\W", line[m.start() - 1]):
                prev = line[max(0, m.start() - 4):m.start()]
                if not re.search(r"格式|如下|[：:]$", prev):
                    continue  # inside a sentence (为投票对象：…), not a format line
            change = "改" in label
            reason = bool(re.search(r"理由|原因", label))
            key = "vote." + ("change_" if change else "") + ("reason_label" if reason else "target_label")
            r.add(Finding(key, label, line, _section_of(ss, line)))
            if not change and not reason and re.fullmatch(r"弃权|弃票|放弃|空票", value):
                r.add(Finding("vote.abstain_word", value, line, _section_of(ss, line)))
    hit = _first(ss, r"弃权.{0,20}(?:填写|写作|写为|写|填|投)[“\"「『]([^”\"」』]{1,6})[”\"」』]|(?:填写|写|填|投)[“\"「『](弃权|弃票)[”\"」』]")
    if hit:
        r.add(Finding("vote.abstain_word", hit[1].group(1) or hit[1].group(2), hit[0].text, hit[0].section))
    hit = _first(ss, r"弃权")
    if hit and "vote.abstain_word" not in r.fields:
        r.add(Finding("vote.abstain_word", "弃权", hit[0].text, hit[0].section, "inferred",
                      "the post names abstaining 弃权 without a format line for it"))


def _section_of(ss: list[Sentence], line: str) -> str:
    return next((s.section for s in ss if s.text == line or line in s.text), "")


@dataclass(frozen=True)
class _Clause:
    """A field settled by the first of its wordings a sentence matches; a `note` marks an inference."""

    field: str
    wordings: tuple[tuple[str, Any, str], ...]  # (pattern, value, note)


def _read_clauses(ss: list[Sentence], r: RuleReading, clauses: Sequence[_Clause]) -> None:
    for clause in clauses:
        for pattern, value, note in clause.wordings:
            hit = _first(ss, pattern)
            if hit:
                r.add(Finding(clause.field, value, hit[0].text, hit[0].section, "inferred" if note else "text", note))
                break


_TIE = r"(?:平票|票数相同|同票|得票相同|票数相等)\S{0,12}"
_VOTE_CLAUSES = (
    _Clause("vote.changes_while_accelerated", (
        (rf"加速\S{{0,20}}(?:{_NEG}\S{{0,2}}改票|改票\S{{0,6}}(?:作废|无效|不再有效|不算|不计|失效))|改票\S{{0,10}}加速\S{{0,6}}{_NEG}",
         False, ""),
        (r"加速\S{0,20}(?:仍然?|依然|也)(?:可以?|允许|能)改票|加速\S{0,12}改票\S{0,2}(?:依然|仍然?|也|照样)(?:有效|可以|允许|算)",
         True, ""))),
    _Clause("vote.invalid_fixed_by_new_post", (
        (r"(?:无效|作废|废)票?\S{0,10}(?:须|需|必须|要)?(?:通过)?重新(?:发帖|发|投|回帖|回复)", True, ""),
        (r"(?:修改|编辑|更正)(?:错别字|错字|格式|笔误)\S{0,4}不(?:算|计)(?:做|作|为)?改票|(?:编辑|修改)\S{0,8}(?:即可|可以)(?:更正|修正)"
         r"|(?<!不)(?:可以?|能|允许)(?:通过)?(?:编辑|修改)\S{0,6}(?:更正|修正|改正)",
         False, "an edit that fixes a typo is not a change, so an edited ballot counts as corrected"))),
    _Clause("vote.second_vote_is_duplicate", (
        (r"限投一票|(?:只|仅)有一票|(?:仅|只)(?:可|能|可以)投票?一次|限投一次|每人(?:每天|每日|每个讨论日)?(?:限|只能|仅能|只可)?(?:投)?一票"
         r"|每名\S{0,14}?(?:限|只能|仅能|可以?)投一票", True, ""),)),
    _Clause("vote.width_insensitive", (
        (r"不区分全半角|全半角(?:均可|皆可|都可以|不限)|全角半角(?:均可|皆可|都可以)|不区分全角(?:和|与)?半角", True, ""),
        (r"(?:必须|须|只能)使用(?:全角|半角)", False, ""))),
    _Clause("vote.same_line_allowed", (
        (r"(?:之间)?可以?不换行|可以?写在同一行|可以?不分行", True, ""),
        (r"(?:必须|须|需要?)(?:分行|换行|分两行)", False, ""))),
    _Clause("vote.tie_nobody_out", (
        (_TIE + r"(?:无人出局|没有人出局|无人被?放逐|均不出局|都不出局)", True, ""),
        (_TIE + r"(?:PK|pk|重新投票|加投|随机|决斗|同时出局|均出局|都出局)", False, ""))),
    _Clause("vote.dead_can_vote", (
        (rf"出局\S{{0,30}}{_NEG}\S{{0,20}}(?:投票帖\S{{0,10}}发言|参与\S{{0,6}}投票|投票)", False, ""),)),
    _Clause("vote.dead_can_be_voted", (
        (rf"出局\S{{0,30}}{_NEG}被(?:选为|选作|作为)?\S{{0,8}}投票\S{{0,4}}(?:目标|对象)|出局\S{{0,30}}{_NEG}被投票", False, ""),)),
    _Clause("vote.invalid_counts_as_voted", (
        (r"未回复投票帖|(?:无效票|废票)\S{0,10}(?:视为|算作|算|计为)(?:已|一次)?投票|(?:格式有误|无效)\S{0,10}(?:算作|算|计为|视为)废票",
         True, "the penalty is for not answering the vote thread; an invalid ballot is still an answer"),
        (r"(?:无效票|废票)\S{0,10}(?:视为|算作|算|计为)(?:未投票|没有投票)", False, ""))),
)


def _vote_rules(ss: list[Sentence], r: RuleReading) -> None:
    hit = _first(ss, r"理由\S{0,4}(?:可以|可)?(?:不写|省略|为空|留空|选填|非必[需须填要]|可有可无)|无需(?:写|填写|说明)?(?:投票)?理由|不需要理由")
    if hit:
        r.add(Finding("vote.reason_required", False, hit[0].text, hit[0].section))
    else:
        hit = _first(ss, r"(?:明确|必须|须|需要?)(?:说明|写明|给出|注明|填写)\S{0,8}理由|严格(?:依照|按照|遵守|遵照)\S{0,6}格式")
        if hit:
            r.add(Finding("vote.reason_required", True, hit[0].text, hit[0].section))

    # how a change points at the original ballot
    hit = _first(ss, r"改票\S{0,20}(?:引用|回复)|(?:引用|回复)\S{0,10}原\S{0,4}(?:投票)?(?:楼|帖|贴)")
    if hit:
        t = hit[0].text
        if re.search(r"(?:无需|不需要?|不必|不用)(?:引用|回复)", t):
            pass
        else:
            if re.search(r"引用(?:无效|不算|不计|不可|不行)|(?:不能|不可|不得|不要)引用|只能回复|仅限回复", t):
                forms = ["reply"]
            elif re.search(r"回复(?:无效|不算|不计|不可|不行)|(?:不能|不可|不得)(?:直接)?回复|只能引用|仅限引用", t):
                forms = ["quote"]
            else:
                forms = ["reply", "quote"] if ("回复" in t or ("引用" in t and re.search(r"回复|或", t))) else ["quote"]
            note = "a reply to the original floor, by the reply button or by quoting it" if "回复" in t and "引用" not in t else ""
            r.add(Finding("vote.change_reference", forms, t, hit[0].section, note=note))

    # how many changes
    for s, m in _find(ss, r"改票|改投"):
        t = s.text
        if re.search(rf"(?:只|仅)?(?:允许|可以?|限|能|有)?(?:进行|改票)?(?:{NUMBER})次改票|改票\S{{0,6}}?(?:只|仅)?(?:允许|可以?|限|能|有)?(?:进行)?(?:{NUMBER})次", t):
            n = re.search(rf"({NUMBER})次", t)
            k = integer(n.group(1)) if n else None
            if k is not None:
                r.add(Finding("vote.max_changes", k, t, s.section))
                break
        if re.search(r"改票次数(?:不限|无限制?|不作限制)|(?:无限|随意|任意)(?:次)?改票|改票不限次数", t):
            r.add(Finding("vote.max_changes", 99, t, s.section, note="no limit on changes (99 stands for unlimited)"))
            break
        if re.search(rf"(?:投票后|一经投出|投出后|投票完成后)\S{{0,4}}{_NEG}\S{{0,2}}(?:改票|更改|修改)|{_NEG}改票(?:[。；，,]|$)", t) \
                and not re.search(r"前|加速|截[止至]|时间|内|关[门帖]|结束", t) and duration_minutes(t) is None:
            r.add(Finding("vote.max_changes", 0, t, s.section))
            break

    # the lock before close
    lock_rx = rf"(?:{_BEFORE_CLOSE}(?:前)?(?P<d1>[^，,。；]{{1,12}}?(?:小时|钟头|分钟|刻钟|(?<=\d)\s?(?:h|hr|min)(?![a-z]))半?)(?:前|内|以内)?|最后(?:的)?(?P<d2>[^，,。；]{{1,10}}?(?:小时|钟头|分钟|刻钟|(?<=\d)\s?(?:h|hr|min)(?![a-z]))半?)(?:内)?)"
    for s, m0 in _find(ss, lock_rx):
        t = next((c for c in re.split(r"[,，]", s.text) if re.search(lock_rx, c) and re.search(_CHANGE, c)), None)
        if t is None and re.search(_CHANGE, s.text) and "加速" not in s.text:
            t = s.text  # 关门前１个小时以内，不允许改票: the time and the ban in two clauses
        if t is None or "加速" in t:
            continue
        if not re.search(rf"{_NEG}|截[止至]|之前|以前|须在|需在|必须在|停止|不接受|不受理|无效|锁票|封票|锁定", t):
            continue
        m = re.search(lock_rx, t)
        minutes = duration_minutes(m.group("d1") or m.group("d2") or "")
        if minutes is None:
            continue
        r.add(Finding("vote.lock_minutes", int(minutes), s.text, s.section))
        # the same ban names 代投 (关门前一小时不允许改票或代投; …锁票期间不能改票，也不能代投), unless it exempts it
        proxy = next((c for c in re.split(r"[,，]", s.text) if "代投" in c), None)
        if proxy and not re.search(r"不受|不在此限|除外|不限", proxy):
            r.add(Finding("vote.lock_applies_to_proxy", True, s.text, s.section))
            r.add(Finding("vote.proxy_vote_lock_minutes", int(minutes), s.text, s.section))
        break
    # a proxy's own deadline (代投 … 截止前30分钟), and whether a proxied change has the lock
    for s, m in _find(ss, r"代投"):
        t = s.text
        # the clause of 代投 when it has its own time (关门前1小时内禁止改票，代投需在关门1小时前告知导演)
        clause = next((c for c in re.split(r"[,，]", t) if "代投" in c and re.search(r"小时|钟头|分钟", c)), t)
        d = re.search(rf"{_BEFORE_CLOSE}(?:前)?([^，,。；]{{1,12}}?(?:小时|钟头|分钟|刻钟|(?<=\d)\s?(?:h|hr|min)(?![a-z]))半?)", clause)
        if not d:
            continue
        minutes = duration_minutes(d.group(1))
        if minutes is None:
            continue
        if re.search(r"不受\S{0,14}(?:限制|影响|约束)|不在此限|不受此限|除外", clause):  # 代投不受关门前一小时的限制
            r.add(Finding("vote.lock_applies_to_proxy", False, t, s.section))
            r.add(Finding("vote.proxy_vote_lock_minutes", 0, t, s.section, "inferred", "a proxy vote has no lock"))
            continue
        if "改票" in clause:
            r.add(Finding("vote.lock_applies_to_proxy", True, t, s.section,
                          note="a change by proxy has a deadline before close too"))
        else:
            r.add(Finding("vote.proxy_vote_lock_minutes", int(minutes), t, s.section))

    _read_clauses(ss, r, _VOTE_CLAUSES)
    _ballot_before_out(ss, r)


# ------------------------------------------------------- a ballot cast before going out

_OUT = r"(?:出局|罚下|死亡|阵亡|淘汰|被放逐)"
# what becomes of a ballot: dropped (checked first, so 不再有效 / 不算数 are never read as 有效 / 算数) or standing
_VOIDED = r"(?:(?<!不)作废|无效|(?<!不)失效|不再(?:有效|计入|计算|计票|算数|算)|不(?:计入|计算|计|算)|(?:一并|随之|同时)?(?:取消|清除|撤销|收回))"
_STANDS = r"(?:仍然?|依然|依旧|照常|照样|继续|也)?(?:有效|计入|算数|计票|保留|不受影响|不作废|不失效)"
# the out role's own ballot (出局前投出的票, 出局角色已投的票, 出局者的选票), not a later one nor one cast for them
_OWN_BALLOT = rf"{_OUT}[^。；;]{{0,20}}?(?:投出?的|已(?:经)?投(?:出)?的?|所投的?|之?前的?|者的|的)(?:选票|投票(?![帖贴权])|票)(?P<rest>[^。；;，,]{{0,8}})"
_AFTER_OUT = rf"{_OUT}(?:之|以)?后"
_CAST_FOR = r"(?:投给|投向|投票给|选择|得到|获得|所得|得票|被投)"

# (pattern, value, note): the first wording any sentence of the post matches decides, in this order — what
# the post says of such a ballot outright, then a ban on taking part in the vote once out, then a ban on
# posting in the vote thread once out (which takes back nothing already cast)
_OUT_BALLOT_WORDINGS: tuple[tuple[str, str, str], ...] = (
    (rf"{_OUT}\S{{0,30}}?{_NEG}(?:继续|再次|再)?(?:参与|参加)[^被。；;]{{0,8}}?投票(?![帖贴楼])"
     rf"|{_OUT}\S{{0,30}}?{_NEG}(?:继续|再次|再)?(?:投票|计票)(?![帖贴楼的])"
     rf"|{_NEG}\S{{0,10}}{_OUT}\S{{0,8}}(?:参与|参加)[^被。；;]{{0,6}}?投票(?![帖贴楼])"
     rf"|{_OUT}\S{{0,12}}(?:没有|无|失去|丧失|不再有)投票权|{_OUT}\S{{0,12}}投票权\S{{0,4}}(?:取消|收回|失效|作废)",
     "dropped", "an out role no longer takes part in the vote, and the vote is counted at the day's end: "
                "a ballot cast before going out leaves the count from that moment"),
    (rf"{_OUT}\S{{0,20}}(?:不属于|不再属于)游戏",
     "dropped", "an out role no longer belongs to the game when the vote is counted: a ballot cast before "
                "going out leaves the count from that moment"),
    (rf"{_OUT}\S{{0,30}}?{_NEG}\S{{0,16}}?投票[帖贴]\S{{0,16}}?(?:发言|发帖|回帖|回复|发表)"
     rf"|{_NEG}\S{{0,10}}{_OUT}\S{{0,20}}?投票[帖贴]\S{{0,16}}?(?:发言|发帖|回帖|回复|发表)",
     "counts", "what the post bars is posting in the vote thread once out; nothing in it takes back a ballot "
               "already cast: a ballot cast before going out stands (one posted after is 诈尸)"),
)


def _outright(ss: list[Sentence]) -> tuple[Sentence, str] | None:
    """A sentence that says what becomes of an out role's own ballot (出局前投出的票仍然有效 / 出局角色的票作废)."""
    for s in ss:
        for m in re.finditer(_OWN_BALLOT, s.text):
            span, before = m.group(0), s.text[:m.start()]
            if re.match(_AFTER_OUT, span) or re.search(_CAST_FOR, span) or re.search(rf"{_CAST_FOR}\S{{0,6}}$", before):
                continue  # a ballot posted once out (诈尸 either way), or the votes the out role received
            if re.match(rf"\S{{0,4}}?{_VOIDED}", m.group("rest")):
                return s, "dropped"
            if re.match(rf"\S{{0,4}}?{_STANDS}", m.group("rest")):
                return s, "counts"
    return None


def _ballot_before_out(ss: list[Sentence], r: RuleReading) -> None:
    """`vote.ballot_before_out`: whether the ballot of a player who goes out mid-day, cast before, still counts;
    and `vote.ballot_before_out_rule`, the citation the ballot's message quotes. Said nowhere: left to the base."""
    said = _outright(ss)
    if said:
        s, value = said
        r.add(Finding("vote.ballot_before_out", value, s.text, s.section))
    else:
        for pattern, value, note in _OUT_BALLOT_WORDINGS:
            hit = _first(ss, pattern)
            if hit:
                s = hit[0]
                r.add(Finding("vote.ballot_before_out", value, s.text, s.section, "inferred", note))
                break
        else:
            return
    quoted = re.sub(r"[。；;！!]+$", "", s.raw or s.text)
    cite = " ".join(x for x in (r.tag, s.section) if x)
    r.add(Finding("vote.ballot_before_out_rule", f"{cite}：{quoted}" if cite else quoted, s.text, s.section, "inferred",
                  "the citation a ballot's message quotes for this reading"))


# ----------------------------------------------------------------------- acceleration

def _acceleration(ss: list[Sentence], r: RuleReading) -> None:
    for s in ss:
        t = s.text
        if "加速" not in t and not ("申请" in t and "延" in t):
            continue
        share = fraction(re.sub(r"一个半小时|半个?小时|半天", "", t))
        if share is None or not 0 < share <= 1 or not re.search(r"人数|玩家|角色|存活|未出局|同意|申请", t):
            continue
        more = re.search(r"超过|大于(?!等于)|多于|过半|高于", t)
        least = re.search(r"大于等于|大于或等于|不少于|不低于|达到|至少|以上|及以上|或以上|≥|>=", t)
        if least and (not more or least.start() <= more.start() or least.group(0) == "大于等于"):
            kind, note = "at_least", ""
        elif more:
            kind, note = "more_than", ""
        else:
            kind, note = "at_least", "the post gives the share without saying 'more than', read as at least"
        r.add(Finding("acceleration.threshold", f"{kind}_half" if share == Fraction(1, 2) else kind, t, s.section,
                      "text" if not note else "inferred", note))
        if share != Fraction(1, 2):
            r.add(Finding("acceleration.fraction", float(share), t, s.section))
        break
    for s, m in _find(ss, rf"(?:{_BEFORE_CLOSE})([^，,。；()（）]{{1,10}}?(?:小时|钟头|分钟|刻钟|(?<=\d)\s?(?:h|hr|min)(?![a-z]))半?)(?:前|以前|之前)"):
        if not re.search(r"加速|延时|延迟|申请", s.text):
            continue
        minutes = duration_minutes(m.group(1))
        if minutes is None:
            continue
        r.add(Finding("acceleration.cutoff_hours_before_close", round(minutes / 60, 3), s.text, s.section))
        break
    for s, m in _find(ss, r"(?:关[门帖]|结束|截[止至])前([^，,。；()（）]{1,10}?(?:小时|钟头|分钟|刻钟|(?<=\d)\s?(?:h|hr|min)(?![a-z]))半?)"):
        if "acceleration.cutoff_hours_before_close" in r.fields or "改票" in s.text or "代投" in s.text \
                or not (re.search(r"加速|延时|延迟", s.text) or (re.search(r"加速|进程", s.section + s.heading)
                                                              and "申请" in s.text)):
            continue
        minutes = duration_minutes(m.group(1))
        if minutes is not None:
            r.add(Finding("acceleration.cutoff_hours_before_close", round(minutes / 60, 3), s.text, s.section))
    if "acceleration.cutoff_hours_before_close" in r.fields:
        pass
    else:
        hit = _first(ss, r"加速")
        if hit:
            r.add(Finding("acceleration.cutoff_hours_before_close", 0, "", "", "absent",
                          "the post sets no cut-off for requests: they count until close"))
    hit = _first(ss, r"延[迟时]成功\S{0,12}(?:不再|取消|解除|结束)\S{0,8}加速|延[迟时]\S{0,10}(?:取消|抵消|解除)加速")
    if hit:
        r.add(Finding("acceleration.delay_cancels_acceleration", True, hit[0].text, hit[0].section))
    hit = _first(ss, r"加速\S{0,12}(?:仍然?|依然|照样|也)(?:需要?|要|会|须|判罚|计)\S{0,10}(?:潜水|发言|帖)")
    if hit:
        r.add(Finding("acceleration.no_lurking_penalty_when_accelerated", False, hit[0].text, hit[0].section))
    hit = _first(ss, r"加速\S{0,30}(?:不被判罚|不判罚|不予判罚|免于判罚|不受判罚|不作判罚|不计入潜水|不算潜水)")
    if not hit:
        hit = _first(ss, r"未(?:执行)?加速的|未加快进程的|(?:进程)?加速(?:以|之)前\S{0,10}(?:不足|未投票|没有发言)")
    if hit:
        r.add(Finding("acceleration.no_lurking_penalty_when_accelerated", True, hit[0].text, hit[0].section))


# ---------------------------------------------------------------- weights and election

def _weights(ss: list[Sentence], r: RuleReading) -> None:
    rx = rf"(?P<who>[^\s，,。；：:（(]{{1,6}}?)(?:投出)?的(?:一)?(?:票|投票|选票)(?:数)?(?:计为|算作|记为|视为|按|算|计|为|等于)(?P<n>{NUMBER}|一票半)(?:票|倍)|(?P<who2>[^\s，,。；：:（(]{{1,6}}?)(?:拥有|有|持有|可投|能投|可以投)(?P<n2>一票半|{NUMBER}票)(?:的)?(?:投票权|票权)?|(?P<who3>[^\s，,。；：:（(]{{1,6}}?)的?(?:(?:投票|选票|票)?权重|票权)(?:为|是|计为|等于)?(?P<n3>{NUMBER})"
    for s, m in _find(ss, rx):
        raw = m.group("n") or m.group("n2") or m.group("n3")
        who = m.group("who") or m.group("who2") or m.group("who3")
        value = 1.5 if raw == "一票半" else number(raw.rstrip("票"))
        if value is None or value <= 0 or value == 1 or re.search(r"弃权|弃票|无效|废|代投", who or ""):
            continue
        role = re.search(r"神父|警长|村长|牧师|议长|市长|队长|法官", s.text)
        r.add(Finding("weights.priest", value, s.text, s.section,
                      note=f"the weighted voter is the {role.group(0)}" if role else ""))
        break
    else:
        r.add(Finding("weights.priest", None, "", "", "absent", "no vote counts more than one in the post"))
    hit = _first(ss, r"(?:当选|推举|选举|竞选|选出|产生)\S{0,8}(?:神父|警长|村长|牧师|议长|市长)|(?:神父|警长|村长|牧师|议长|市长)(?:推举|竞选|选举)")
    if not hit:  # 第一个讨论日结束时，得票最多的玩家成为警长
        hit = next(((x, None) for x in ss if re.search(r"(?:成为|担任)\S{0,3}(?:神父|警长|村长|牧师|议长|市长)", x.text)
                    and re.search(r"得票|票数|票最多|最高票", x.text)), None)
    if not hit:
        r.add(Finding("election.enabled", False, "", "", "absent", "the post holds no election"))
        return
    s = hit[0]
    r.add(Finding("election.enabled", True, s.text, s.section))
    elect = [x for x in ss if re.search(r"当选|推举|选举|竞选", x.text)] or [s]
    day = _first(elect, rf"第({NUMBER})(?:个)?(?:天|日|讨论日|游戏日)")
    if day and integer(day[1].group(1)):
        r.add(Finding("election.day", integer(day[1].group(1)), day[0].text, day[0].section))
    first = _first(elect, r"最先|最早|先获得|率先|先达到|先到达|先得到|先获|先到")
    if first:
        r.add(Finding("election.winner", "first_to_reach_top", first[0].text, first[0].section))


# ----------------------------------------------------------------------------- cards

_COLOURS = (("green", "绿"), ("blue", "蓝"), ("yellow", "黄"), ("red", "红"))


def _cards(ss: list[Sentence], r: RuleReading) -> None:
    found: list[str] = []
    cites: list[str] = []
    for key, ch in _COLOURS:
        hit = _first(ss, rf"[【“\"]?{ch}牌[】”\"]?") or next(((s, None) for s in ss if s.heading.strip("【】") == f"{ch}牌"), None)
        if hit:
            found.append(key)
            if hit[0].text not in cites:
                cites.append(hit[0].text)
    for key, ch in _COLOURS:  # 3蓝=1黄: a colour named only in a shorthand merge
        if key not in found and re.search(rf"\d\s*{ch}\s*(?:=|＝)|(?:=|＝)\s*\d\s*{ch}", "".join(x.text for x in ss)):
            found.append(key)
            cite = next(x.text for x in ss if re.search(rf"\d\s*{ch}|{ch}\s*(?:=|＝)", x.text))
            if cite not in cites:
                cites.append(cite)
    found = [k for k, _ in _COLOURS if k in found]
    heads = [s.heading for s in ss if re.fullmatch(r"【?[绿蓝黄红]牌】?", s.heading)]
    heads = list(dict.fromkeys(heads))
    if found and heads:
        sec = next(s.section for s in ss if s.heading == heads[0])
        r.add(Finding("cards.colors", found, "".join(heads), sec, "inferred", "the card colours the post defines"))
    elif len(found) >= 2:  # one colour named in passing (一张黄牌) is no list of the game's cards
        r.add(Finding("cards.colors", found, " … ".join(cites[:4]), "", "inferred", "the card colours the post names"))
    for lo, hi, key in (("蓝", "黄", "cards.blue_per_yellow"), ("黄", "红", "cards.yellow_per_red")):
        hit = _first(ss, rf"({NUMBER})张[【“\"]?{lo}牌[】”\"]?[^，,。；;\s]{{0,12}}?(?:一|1)张[【“\"]?{hi}牌") \
            or _first(ss, rf"({NUMBER})\s*张?{lo}牌?\s*(?:=|＝|合|换|升|折合|抵)\S{{0,3}}?(?:一|1)\s*张?{hi}")
        if hit and integer(hit[1].group(1)):
            r.add(Finding(key, integer(hit[1].group(1)), hit[0].text, hit[0].section))
    hit = next(((s, None) for s in ss if "红牌" in s.heading and re.search(r"出局|罚下|退出游戏", s.text)), None) \
        or _first(ss, r"红牌\S{0,24}(?:出局|罚下|退出游戏)|(?:出局|罚下)\S{0,6}红牌")
    if hit:
        r.add(Finding("cards.red_ejects", True, hit[0].text, hit[0].section))
    hit = _first(ss, r"红牌\S{0,20}(?:在|于)\S{0,12}投票\S{0,10}(?:之后|以后|后)|投票(?:结算)?(?:之后|以后|后)\S{0,10}红牌")
    if hit:
        r.add(Finding("cards.red_resolves", "after_vote", hit[0].text, hit[0].section))
    else:
        hit = _first(ss, r"红牌\S{0,20}(?:在|于|先于)\S{0,12}投票\S{0,10}(?:之前|以前|前)|红牌\S{0,10}先于\S{0,6}投票")
        if hit:
            r.add(Finding("cards.red_resolves", "before_vote", hit[0].text, hit[0].section))
    hit = _first(ss, rf"阵营\S{{0,20}}?({NUMBER})张(?:或以上|及以上|以上)?\S{{0,2}}红牌\S{{0,12}}判负")
    if hit and integer(hit[1].group(1)):
        r.add(Finding("cards.camp_red_limit", integer(hit[1].group(1)), hit[0].text, hit[0].section))
    else:
        hit = _first(ss, r"红牌\S{0,30}(?:视情况|有权)\S{0,20}阵营判负|(?:视情况|有权)\S{0,20}阵营判负")
        if hit:
            r.add(Finding("cards.camp_red_limit", 0, hit[0].text, hit[0].section, "inferred",
                          "the director decides whether a camp loses; no fixed count of red cards"))
    hit = _first(ss, r"已出局\S{0,10}(?:仍|也|依然)?(?:可以?|能)?被?判罚|(?:红牌|判罚)\S{0,6}(?:也)?可以?针对已出局")
    if hit:
        r.add(Finding("cards.cards_on_dead_count", True, hit[0].text, hit[0].section))


# --------------------------------------------------------------------------- whistle

def _whistle(ss: list[Sentence], r: RuleReading) -> None:
    hit = _first(ss, r"黑哨\S{0,2}状态|^黑哨") or _first(ss, r"黑哨|吹哨|动物叫声")
    if not hit:
        r.add(Finding("whistle.enabled", False, "", "", "absent", "the post has no whistle state"))
        return
    r.add(Finding("whistle.enabled", True, hit[0].text, hit[0].section))
    hit = _first(ss, r"(?:以下|如下)\S{0,8}?[:：]\s*(\S(?:[、,，/ ]\S)+)(?!\S)")
    if hit:
        sounds = "".join(re.split(r"[、,，/ ]", hit[1].group(1)))
        r.add(Finding("whistle.sounds", sounds, hit[0].text, hit[0].section))
        r.add(Finding("whistle.rule", hit[0].section, hit[0].text, hit[0].section, "inferred",
                      "the section the whistle rule sits in"))


# ----------------------------------------------------------------------------- lurking

_POSTS = r"(?:帖|贴|条|楼|层|次发言|个回复)"
_BELOW = rf"(?:不足|少于|低于|未满|不满|未达到?|没有?达到|不够|小于|不到|<|＜)\s*({NUMBER})\s*{_POSTS}"
_AT_MOST = rf"(?:不超过|不多于|最多)\s*({NUMBER})\s*{_POSTS}|({NUMBER})\s*{_POSTS}(?:及|或)?以下"
_MINIMUM = rf"(?:至少|最少|不少于|不低于|须|需|需要|必须|应)(?:发言|发帖|回帖|回复)?\s*({NUMBER})\s*{_POSTS}(?:以上|及以上)?"
_NONE = r"没有发言|未发言|零发言|不发言|无发言|一帖未发|一贴未发|0帖|零帖"
_NO_VOTE = r"未投票|没有投票|没投票|不投票|未回复投票帖|未进行投票|没有回复投票帖|未参与投票|漏投|未投票者"
_CARD_WORD = {"蓝": "blue", "黄": "yellow", "红": "red", "绿": "green"}


def _card_of(*texts: str) -> str | None:
    for t in texts:
        m = re.search(r"([蓝黄红绿])牌", t)
        if m:
            return _CARD_WORD[m.group(1)]
    return None


def _lurking(ss: list[Sentence], r: RuleReading) -> None:
    rules: list[Finding] = []
    for s in ss:
        t = s.text
        if re.search(r"不被判罚|不判罚|不予判罚|免于判罚|不受判罚", t):
            continue
        if not re.search(rf"发言|{_POSTS}|{_NO_VOTE}", t) or not re.search(rf"讨论日|每天|每日|当天|一天|单日|连续|天|{_NO_VOTE}", t):
            continue
        clauses = [c for c in re.split(r"[、，,；;]|或(?=连续|在|未|单|任)", t) if c.strip()]
        card = _card_of(t, s.heading) or _card_after(ss, s) or "yellow"
        carry_days = None
        for c in clauses:
            m_days = re.search(rf"连续({NUMBER})个?", c)
            days = integer(m_days.group(1)) if m_days else carry_days or 1
            threshold = None
            m = re.search(_BELOW, c)
            if m:
                threshold = integer(m.group(1))
            elif re.search(_AT_MOST, c):
                m = re.search(_AT_MOST, c)
                n = integer(m.group(1) or m.group(2))
                threshold = n + 1 if n is not None else None
            elif re.search(_NONE, c):
                threshold = 1
            elif re.search(_MINIMUM, c) and re.search(r"讨论日|每天|每日|当天", c):
                threshold = integer(re.search(_MINIMUM, c).group(1))
            if threshold and days > 1 and re.search(r"总数|合计|累计|加起来|总共|共计|总和", c):
                r.unsupported.append(Finding("lurking", None, t, s.section, "text",
                                             f"posts summed over {days} days: lurking rules count each day"))
                continue
            if threshold:
                rules.append(Finding("lurking", {"kind": "posts_below", "threshold": threshold, "days": days,
                                                 "card": card, "text": _bare(c)}, t, s.section))
                continue
            if re.search(_NO_VOTE, c) and re.search(r"讨论日|判罚|黄牌|蓝牌|红牌|记|判|潜水", t + s.heading):
                rules.append(Finding("lurking", {"kind": "no_vote", "card": card, "text": _bare(c)}, t, s.section))
    in_lurk = [f for f in rules if re.search(r"潜水", f.section + f.sentence) or _heading_has(ss, f, "潜水")]
    chosen: list[Finding] = []
    seen: set[tuple] = set()
    for kind in ("posts_below", "no_vote"):
        pool = [f for f in in_lurk if f.value["kind"] == kind] or [f for f in rules if f.value["kind"] == kind]
        for f in pool:
            key = (kind, f.value.get("threshold"), f.value.get("days"))
            if key not in seen:
                seen.add(key)
                chosen.append(f)
    r.lurking = chosen
    hit = _first(ss, rf"(?:{_NO_VOTE})\S{{0,20}}(?:黑哨|吹哨)\S{{0,6}}(?:除外|不判罚|不受|不算)|(?:黑哨|吹哨)\S{{0,12}}(?:{_NO_VOTE})\S{{0,6}}(?:不判罚|不受|不算|除外)")
    if hit:
        r.add(Finding("activity.whistled_exempt_from_no_vote", True, hit[0].text, hit[0].section))
    hit = _first(ss, r"不含(?:纯)?水[帖贴]|(?:纯)?水[帖贴]不(?:计|算|计入|算入)|不计(?:入)?(?:纯)?水[帖贴]|(?:纯)?水[帖贴]除外|水[帖贴]不计入")
    if hit:
        r.add(Finding("activity.exclude_water", True, hit[0].text, hit[0].section))
    else:
        r.add(Finding("activity.exclude_water", False, "", "", "absent", "the post does not leave water posts out of the count"))


def _card_after(ss: list[Sentence], s: Sentence) -> str | None:
    """The card a later sentence of the same section gives the rules above it (以上行为各判罚一张黄牌)."""
    i = ss.index(s)
    for later in ss[i + 1:i + 8]:
        if later.section.split("(")[0] != s.section.split("(")[0]:
            break
        if re.search(r"以上|上述|前述|均|各", later.text):
            card = _card_of(later.text)
            if card:
                return card
    return None


def _bare(clause: str) -> str:
    """A clause without its item number: `（1）在…` → `在…`."""
    return re.sub(r"^\s*(?:[(（]\d+[)）]|\d+[、.．])\s*", "", clause).strip()


def _heading_has(ss: list[Sentence], f: Finding, word: str) -> bool:
    return any(s.text == f.sentence and word in s.heading for s in ss)


# ---------------------------------------------------------------------------- schedule

def _schedule(ss: list[Sentence], r: RuleReading) -> None:
    hit = _first(ss, rf"讨论日\S{{0,6}}(?:持续|为期|为|共|长)({NUMBER})(?:个)?(?:自然日|天|日)")
    if hit and integer(hit[1].group(1)):
        r.add(Finding("schedule.length_days", integer(hit[1].group(1)), hit[0].text, hit[0].section))
    else:
        # A日上午开帖，到A日晚上关帖 (one date) / A日上午十点开帖，A+1日晚上九点关帖 (two)
        ab = _first(ss, r"([A-Za-z])日\S{0,8}开[帖门]\S{0,6}?\1\s*(?:\+\s*(\d+)\s*)?日\S{0,8}关[帖门]")
        hit = None if ab else _first(ss, r"当[天日]\S{0,4}关[帖门]")
        if ab:
            n = 1 + int(ab[1].group(2) or 0)
            r.add(Finding("schedule.length_days", n, ab[0].text, ab[0].section, "inferred",
                          "opening on day A and closing on " + (f"A+{n - 1}" if n > 1 else "A itself")))
        elif hit:
            r.add(Finding("schedule.length_days", 1, hit[0].text, hit[0].section, "inferred",
                          "a day opens and closes on the same date"))
        else:
            hit = _first(ss, r"次日\S{0,8}关[帖门]|(?:持续|开放)?(?:到|至)次日|([A-Za-z])日\S{0,6}开[帖门]\S{0,4}(?:到|至)\1\+1日\S{0,4}关[帖门]")
            if hit:
                r.add(Finding("schedule.length_days", 2, hit[0].text, hit[0].section, "inferred",
                              "a day closes on the day after it opens"))
    length = r.fields.get("schedule.length_days") or r.fields.get("schedule.weekend_extra_days")
    if length is not None:
        where = length.section.split(" ")[-1] if length.section else ""
        said = re.sub(r"[。；;！!]+$", "", length.sentence)
        r.add(Finding("schedule.rule", f"{r.tag} {where}：{said}".strip(), length.sentence, length.section, "inferred",
                      "the citation a warning about a day's close shows"))
    hit = _first(ss, rf"讨论日\S{{0,6}}(?:持续|为期|为|共|长)({NUMBER})\s*(?:个)?小时")
    if hit and number(hit[1].group(1)):
        r.add(Finding("schedule.day_hours", number(hit[1].group(1)), hit[0].text, hit[0].section))
    hit = _first(ss, rf"(?:周末|星期六|周六|节假日)\S{{0,12}}(?:延长|顺延|延后|多|加)({NUMBER})(?:个)?(?:天|日)")
    if hit and integer(hit[1].group(1)):
        r.add(Finding("schedule.weekend_extra_days", integer(hit[1].group(1)), hit[0].text, hit[0].section))
    else:
        hit = _first(ss, r"周末\S{0,4}(?:不|不会|不再|也不)(?:延长|顺延|延后|加时)")
        if hit:
            r.add(Finding("schedule.weekend_extra_days", 0, hit[0].text, hit[0].section))
    hit = _first(ss, r"第一(?:个|天)?(?:讨论日|游戏日|天)\S{0,4}不(?:因|受)周末\S{0,4}延长")
    if hit:
        r.add(Finding("schedule.first_day_extends", False, hit[0].text, hit[0].section))
    to = _first(ss, r"讨论日\S{0,20}(?:到|至)(?:次日|当天|当日|第二天)?(?:的)?((?:凌晨|早上|上午|中午|下午|傍晚|晚上|夜里)?\S{1,3}点|\d{1,2}[:：]\d{2})")
    if to and clock(to[1].group(1)):
        r.add(Finding("schedule.close_time", clock(to[1].group(1)), to[0].text, to[0].section))
    when = (r"((?:凌晨|早上|上午|中午|下午|傍晚|晚上|当晚|今晚|夜里|晚)?(?:\d{1,2}[:：]\d{2}|[\d一二三四五六七八九十两]{1,3}点"
            r"(?:半|\d{1,2}分?)?))")
    hit = _first(ss, rf"关[门帖](?:时间)?(?:一般|通常|固定)?(?:为|是|在)\S{{0,4}}?{when}|{when}\s*关[门帖]")
    hit_clock = clock(next(g for g in hit[1].groups() if g)) if hit else None
    if hit and hit_clock and "schedule.close_time" not in r.fields:
        r.add(Finding("schedule.close_time", hit_clock, hit[0].text, hit[0].section))
    elif "schedule.close_time" not in r.fields:
        cut = r.fields.get("acceleration.cutoff_hours_before_close")
        if cut and cut.value and clock(cut.sentence):
            h, mi = map(int, clock(cut.sentence).split(":"))
            total = h * 60 + mi + int(round(cut.value * 60))
            r.add(Finding("schedule.close_time", f"{total // 60 % 24:02d}:{total % 60:02d}", cut.sentence, cut.section,
                          "inferred", f"the cut-off ({clock(cut.sentence)}) is {cut.value:g} hours before close"))


_READERS: tuple[Callable[[list[Sentence], RuleReading], None], ...] = (
    _vote_rules, _acceleration, _weights, _cards, _whistle, _lurking, _schedule)


_BBCODE = re.compile(r"\[/?(?:b|i|u|s|color|size|font|align|url|email|img|quote|code|hr|list|\*|table|tr|td|"
                     r"backcolor|indent|float|p|media|flash|hide|free|sup|sub)(?:=[^\]\n]{0,80})?\]", re.I)


def strip_bbcode(text: str) -> str:
    """A post copied from the editor keeps its markup (`[b]投票规则[/b]`); a game tag like `[M84]` stays."""
    return _BBCODE.sub("", text)


def read_rule_post(text: str | Sequence[str], *, title: str | None = None) -> RuleReading:
    """Every machine-relevant rule the post settles, each with its sentence and section. `text`
    is the post as one text (a file) or its floors in order (a scanned rules thread, whose
    subject is then `title`)."""
    r = RuleReading()
    text = strip_bbcode(text) if isinstance(text, str) else [strip_bbcode(t) for t in text]
    whole = text if isinstance(text, str) else "\n".join(text)
    _title(title if title is not None else whole, r)
    ss = split_sentences(text)
    _labels(whole, ss, r)
    for reader in _READERS:
        reader(ss, r)
    raw = {x.text: x.raw for x in ss}  # quote the post's own words

    def own(f: Finding) -> Finding:
        return replace(f, sentence=raw.get(f.sentence, f.sentence)) if f.sentence in raw else f
    r.fields = {k: own(f) for k, f in r.fields.items()}
    def own_text(f: Finding) -> Finding:
        src = next((x for x in ss if x.text == f.sentence), None)
        text = f.value.get("text", "")
        if src is not None and len(src.text) == len(src.raw) and text in src.text:
            i = src.text.index(text)
            f = replace(f, value={**f.value, "text": src.raw[i:i + len(text)]})
        return own(f)
    r.lurking = [own_text(f) for f in r.lurking]
    r.unsupported = [own(f) for f in r.unsupported]
    return r
