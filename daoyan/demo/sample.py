"""A sample [M84] game for the demo forum: two days, twelve players, written for daoyan.

The game is data: boards, threads and posts as the forum stores them (own words as Discuz
renders them, plus the quote, reply header, edit marker and 屏蔽 state the renderer adds).
`EXPECTED` is what a correct tool reads from it, worked out by hand from the M84 rule post, so
end-to-end tests can hold `daoyan votes/activity/check` against it.

Times are fixed (November 2026, Asia/Shanghai); posts are spread by a seeded generator, so the
sample is the same on every run.
"""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

TIMEZONE = "Asia/Shanghai"
TZ = ZoneInfo(TIMEZONE)

DIRECTORS = ("说书人", "掌柜")
PLAYERS = ("青梅", "竹马", "白露", "霜降", "小满", "芒种", "谷雨", "惊蛰", "清明", "立夏", "寒露", "大寒")
SPECTATORS = ("过路客",)
GAME_FID = 2
PRIVATE_FID = 3


@dataclass
class SamplePost:
    """One floor as the forum stores it. `body` is the post's own words as Discuz renders them
    (HTML); the renderer adds the quote block, reply header and edit marker from the fields."""

    pid: int
    author: str
    uid: int
    posted_at: datetime  # aware
    body: str
    position: int = 0  # the floor number; kept when earlier posts are deleted, as Discuz keeps it
    quote_pid: int | None = None  # a [quote] of that post
    reply_pid: int | None = None  # a 回复 N# header pointing at that post
    edited_by: str | None = None
    edited_at: datetime | None = None
    hidden: bool = False  # 屏蔽 by a moderator
    flags: tuple[str, ...] = ()  # speech categories a correct checker raises for this post
    ballot: dict[str, Any] | None = None  # what a correct ballot reader makes of it (vote threads)


@dataclass
class SampleThread:
    tid: int
    fid: int
    subject: str
    role: str  # rules | discussion | vote | progress | election | private
    day: int
    posts: list[SamplePost] = field(default_factory=list)
    views: int = 100

    @property
    def author(self) -> str:
        return self.posts[0].author if self.posts else ""


@dataclass(frozen=True)
class Board:
    fid: int
    name: str
    private: bool = False  # hidden from guests (小黑屋)


@dataclass(frozen=True)
class SampleDay:
    number: int
    discussion_tid: int
    vote_tid: int
    opens: datetime
    closes: datetime
    progress_tid: int | None = None
    election_tid: int | None = None


@dataclass(frozen=True)
class SampleEvent:
    day: int
    kind: str
    player: str | None = None
    reason: str | None = None


@dataclass
class Sample:
    """The whole forum content the demo serves."""

    name: str
    ruleset: str
    timezone: str
    players: tuple[str, ...]
    directors: tuple[str, ...]
    users: dict[str, int]  # username -> uid
    boards: dict[int, Board]
    threads: dict[int, SampleThread]
    days: tuple[SampleDay, ...]
    events: tuple[SampleEvent, ...]
    next_pid: int = 1

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    def find(self, pid: int) -> tuple[SampleThread, SamplePost]:
        for t in self.threads.values():
            for p in t.posts:
                if p.pid == pid:
                    return t, p
        raise KeyError(f"no post {pid}")

    def uid_of(self, name: str) -> int:
        if name not in self.users:
            self.users[name] = max(self.users.values(), default=1) + 1
        return self.users[name]

    def copy(self) -> "Sample":
        return copy.deepcopy(self)


class _Builder:
    def __init__(self, sample: Sample):
        self.s = sample

    def thread(self, tid: int, fid: int, subject: str, role: str, day: int, views: int = 100) -> SampleThread:
        t = SampleThread(tid=tid, fid=fid, subject=subject, role=role, day=day, views=views)
        self.s.threads[tid] = t
        return t

    def post(self, t: SampleThread, author: str, at: datetime, body: str, **kw: Any) -> SamplePost:
        p = SamplePost(pid=self.s.next_pid, author=author, uid=self.s.uid_of(author), posted_at=at, body=body,
                       position=(t.posts[-1].position + 1) if t.posts else 1, **kw)
        self.s.next_pid += 1
        t.posts.append(p)
        return p


def _at(day: int, hh: int, mm: int, ss: int = 0) -> datetime:
    return datetime(2026, 11, day, hh, mm, ss, tzinfo=TZ)


def _lines(*xs: str) -> str:
    return "<br />\n".join(xs)


def _ballot(voter: str, kind: str, target: str | None, valid: bool, counted: bool, problem: str | None = None
            ) -> dict[str, Any]:
    b: dict[str, Any] = {"voter": voter, "kind": kind, "target": target, "valid": valid, "counted": counted}
    if problem:
        b["problem"] = problem
    return b


# Ordinary discussion, written for this sample. {b} {c} {d} are other players.
_TALK = (
    "先说一下昨晚的想法：{b}的发言太稳了，稳得不像一个御主。",
    "{b}你第一轮说自己没有信息，那为什么这么急着踩{c}？",
    "同意楼上，{b}这条逻辑链我也没看懂。",
    "我这边暂时没有强烈的怀疑对象，先听听大家怎么说。",
    "{b}昨天说要等信息，今天又突然站边，这个转变得解释一下。",
    "说一下票型：如果{b}是齐格，那{c}跟票就很可疑。",
    "我觉得{b}偏好，那段复盘信息量很大。",
    "先别急着归票，离关门还早得很。",
    "{b}能不能把站边理由写清楚一点？",
    "我的视角里{b}和{c}至少有一个有问题。",
    "回头翻了一下第一页，{b}的第一帖和现在说的不一样。",
    "今天节奏有点乱，建议每人说一下自己的狼坑。",
    "我的狼坑：{b}、{c}，理由晚点补。",
    "补一下理由：{b}一直在附和别人，没有自己的判断。",
    "{b}这波发言我给好人分。",
    "有没有神职愿意出来带一下队？",
    "不建议神职现在跳，晚上太危险了。",
    "{b}你说{c}划水，可你自己也没发几帖。",
    "我再想想，晚点上线继续聊。",
    "刚下班，先补一下前面的楼。",
    "补完楼了，{b}的说法前后对不上。",
    "{c}的分析我基本同意，但结论下得太急。",
    "如果今天出{b}，明天的信息会清楚很多。",
    "反过来想，出{b}万一出错了，齐格就白赚一轮。",
    "大家注意，关门前一小时不能改票。",
    "我倾向于投{b}，不过还想听他自辩。",
    "{b}来自辩一下吧，你现在票最多。",
    "不是针对{b}，只是他的发言确实最模糊。",
    "齐格那边应该已经在商量晚上的目标了，白天得抓紧。",
    "这局配置对御主不太友好，大家多动脑。",
    "{b}说的查验顺序有漏洞，第一晚不可能知道那么多。",
    "记一下目前的站边：{b}站{c}，{c}又站{d}，挺有意思。",
    "划个重点：{b}从开门到现在没给过明确的怀疑对象。",
    "我改主意了，{b}今天的表现比昨天好。",
    "{b}说得有道理，我收回前面对他的怀疑。",
    "看了一圈，感觉齐格在{b}和{c}里面。",
    "再强调一次我的立场：今天不出{b}就是浪费一天。",
    "有人注意到{b}一直在回避{c}的问题吗？",
    "好，我理解你的意思了，那换个角度看。",
    "这个问题我早上就提过，一直没人回答。",
    "{b}你的意思是你相信{c}？",
    "那就这样，今天我跟大部队走。",
    "先下了，晚上回来看票型。",
    "楼上说得对，{b}的逻辑是自洽的。",
    "不过{b}刚才那句有点像在给{c}挡刀。",
    "这轮判断：{b}偏好，{c}偏齐格，{d}看不清。",
    "说回来，{b}的投票理由写得太简单了。",
    "别光顾着吵，还有人没发言，{b}你怎么看？",
    "刚看完投票帖，票分得很散。",
    "票这么散对齐格最有利，大家集中一点。",
    "{b}和{c}昨天互相保，今天又互相踩，怪。",
    "我数了一下，{b}今天的发言全是在问问题，没有观点。",
    "如果我是齐格，我也会像{b}这样躲在后面。",
    "{c}别急，慢慢说，把你的视角摊开。",
    "{b}这个解释我接受，暂时放一边。",
    "请还没发言的人至少说一下投票意向。",
    "晚上的刀口大概率在{b}和{c}之间。",
    "我留一个悬念，明天再说我为什么怀疑{b}。",
    "中午看了下，{b}的发言频率突然变高了。",
    "{d}一直没表态，这个要注意。",
)


def _talk_sequence(rng: random.Random, counts: dict[str, int]) -> list[str]:
    seq = [a for a, n in counts.items() for _ in range(n)]
    rng.shuffle(seq)
    return seq


def _times(rng: random.Random, start: datetime, end: datetime, n: int) -> list[datetime]:
    span = int((end - start).total_seconds())
    secs = sorted(rng.sample(range(span), n))
    return [start + timedelta(seconds=s) for s in secs]


def _discussion(b: _Builder, t: SampleThread, rng: random.Random, opens: datetime, last: datetime,
                counts: dict[str, int], specials: dict[str, dict[int, dict[str, Any]]], living: list[str]) -> None:
    """Fill a discussion thread: each author's k-th post is their special post k if one is given."""
    seq = _talk_sequence(rng, counts)
    times = _times(rng, opens + timedelta(minutes=5), last, len(seq))
    seen: dict[str, int] = {}
    for author, at in zip(seq, times):
        k = seen.get(author, 0)
        seen[author] = k + 1
        sp = specials.get(author, {}).get(k)
        if sp is None:
            others = [p for p in living if p != author]
            x, y, z = rng.sample(others, 3)
            b.post(t, author, at, rng.choice(_TALK).format(b=x, c=y, d=z))
            continue
        sp = dict(sp)
        if sp.pop("quote_prev", False):
            prev = next(p for p in reversed(t.posts) if p.author not in (author,) and not p.hidden)
            sp["quote_pid"] = prev.pid
        if sp.pop("reply_prev", False):
            prev = next(p for p in reversed(t.posts) if p.author not in (author,) and not p.hidden)
            sp["reply_pid"] = prev.pid
        body = sp.pop("body")
        b.post(t, author, at, body, **sp)


def build_sample() -> Sample:
    """The demo game, freshly built (callers may mutate it)."""
    users = {name: uid for uid, name in enumerate(DIRECTORS + PLAYERS + SPECTATORS, start=2)}
    s = Sample(name="[M84] 节气夜话（演示局）", ruleset="m84", timezone=TIMEZONE, players=PLAYERS,
               directors=DIRECTORS, users=users,
               boards={GAME_FID: Board(GAME_FID, "版杀"), PRIVATE_FID: Board(PRIVATE_FID, "小黑屋", private=True)},
               threads={}, days=(), events=())
    b = _Builder(s)
    rng = random.Random(2611)
    d1_open, d1_close = _at(10, 10, 0), _at(11, 22, 0)
    d2_open, d2_close = _at(12, 10, 0), _at(13, 22, 0)
    red = '<font color="Red">{}</font>'

    # rules thread and the directors' private thread
    rules = b.thread(11, GAME_FID, "[M84] 节气夜话 · 规则", "rules", 0, views=300)
    b.post(rules, "说书人", _at(9, 20, 0), _lines(
        '<font size="5"><font color="Red">规则帖只读，有疑问请私信导演。</font></font>',
        "本局使用 M84 规则：投票格式为 投票对象：某某 / 投票理由：某某。",
        "改票请回复自己原来那张票，只能改一次；截止前一小时停止改票和代投。"))
    priv = b.thread(12, PRIVATE_FID, "导演后台帖（玩家不可见）", "private", 0, views=20)
    b.post(priv, "说书人", _at(9, 21, 0), "每晚的结算先记在这里，核对后再公示。")
    b.post(priv, "掌柜", _at(10, 9, 30), "收到，第一天的票型我来核。")

    # ---------------------------------------------------------------- day 1
    disc1 = b.thread(21, GAME_FID, "[M84] 节气夜话 · 第一天讨论", "discussion", 1, views=900)
    b.post(disc1, "说书人", d1_open, _lines(
        '<font color="Red"><font size="4">白天开始，本日讨论到 11月11日 22:00 截止。</font></font>',
        "每个讨论日不足五帖会吃黄牌，请多说几句。"))
    counts1 = {"青梅": 18, "竹马": 15, "白露": 14, "霜降": 13, "小满": 12, "芒种": 11, "谷雨": 4, "惊蛰": 10,
               "清明": 9, "立夏": 8, "寒露": 7, "大寒": 3}
    specials1: dict[str, dict[int, dict[str, Any]]] = {
        "霜降": {4: {"body": "我向天发誓，这局我拿的就是好人牌。", "flags": ("oath",)},
                 8: {"body": "发誓这种话我不会再说了，规则里写着呢，大家就看逻辑吧。"}},
        "芒种": {3: {"body": "白露你是不是脑残啊，这么明显的票型都看不出来？", "flags": ("insult",)},
                 6: {"body": "刚才脑子有点乱，现在理清楚了：我怀疑的是寒露。"}},
        "小满": {2: {"body": red.format("我是守夜人，昨晚查了清明，是好人。"), "flags": ("font",)},
                 7: {"body": "红色字体是导演专用的，刚才用错了，大家别学我。"}},
        "惊蛰": {5: {"body": _lines("[私聊] 竹马 23:02:45", "今晚去查寒露，别告诉别人"), "flags": ("evidence",)}},
        "白露": {1: {"body": '<font color="Blue">蓝色标一下重点：今天一定要出结果。</font>'},
                 9: {"body": "这个逻辑真是绝了，我服 "
                             '<img src="static/image/smiley/default/smile.gif" smilieid="1" border="0" alt="" />'},
                 11: {"body": "猪肉白菜馅的饺子最好吃，说完了，回到正题：我投霜降。"}},
        "青梅": {3: {"body": "同意你这一段，补充一点：他第一晚的说法也对不上。", "quote_prev": True},
                 10: {"body": "你说的查验顺序我核对过了，没问题。", "reply_prev": True},
                 14: {"body": "今天大家都辛苦了 "
                              '<img src="static/image/smiley/default/biggrin.gif" smilieid="3" border="0" alt="" />'
                              ' <img src="static/image/smiley/default/smile.gif" smilieid="1" border="0" alt="" />'}},
        "立夏": {2: {"body": "这帖被屏蔽了，内容不重要。", "hidden": True}},
        "寒露": {1: {"body": "&lt;b&gt;加粗&lt;/b&gt;&lt;script&gt;alert(1)&lt;/script&gt;看看论坛会不会吞掉这些"}},
        "竹马": {6: {"body": '<font size="5">归票霜降</font>', "flags": ("font",)}},
    }
    _discussion(b, disc1, rng, d1_open, _at(11, 21, 40), counts1, specials1, list(PLAYERS))
    # the director's reminder mid-thread (a director may use red), then a post after closing
    mid, nxt = disc1.posts[60], disc1.posts[61]
    notice = SamplePost(pid=0, author="说书人", uid=users["说书人"],
                        posted_at=mid.posted_at + (nxt.posted_at - mid.posted_at) / 2,
                        body=red.format("提醒：投票帖里还有人没出现，请尽快投票。"))
    _insert(s, disc1, 61, notice)
    b.post(disc1, "青梅", _at(11, 22, 20, 5), "截止了，坐等导演统计。")

    vote1 = b.thread(22, GAME_FID, "[M84] 节气夜话 · 第一天投票", "vote", 1, views=400)
    b.post(vote1, "说书人", d1_open, red.format("投票请按格式回帖；改票请回复自己的原票楼层，仅限一次；21:00 以后不再接受改票和代投。"))
    v = {}
    v["青梅"] = b.post(vote1, "青梅", _at(10, 11, 5, 12), _lines("投票对象：霜降", "投票理由：发言一直绕圈子"),
                      ballot=_ballot("青梅", "vote", "霜降", True, True))
    v["竹马"] = b.post(vote1, "竹马", _at(10, 11, 40, 3), _lines("投票对象：霜降", "投票理由：站边来回摇摆"),
                      edited_by="竹马", edited_at=_at(10, 11, 46, 30),
                      ballot=_ballot("竹马", "vote", "霜降", True, True))
    v["白露"] = b.post(vote1, "白露", _at(10, 12, 20, 44), _lines("投票对象：竹马", "投票理由：先投一票占位"),
                      ballot=_ballot("白露", "vote", "竹马", True, False, "replaced by a change"))
    v["霜降"] = b.post(vote1, "霜降", _at(10, 13, 2, 9), _lines("投票对象：青梅", "投票理由：带节奏太明显"),
                      ballot=_ballot("霜降", "vote", "青梅", True, False, "replaced by a change"))
    b.post(vote1, "小满", _at(10, 14, 15, 51), "投票对象:霜降 投票理由:话太少",
           ballot=_ballot("小满", "vote", "霜降", True, True))
    b.post(vote1, "芒种", _at(10, 15, 30, 0), "我投霜降，理由是他昨晚一直在划水",
           ballot=_ballot("芒种", "vote", None, False, False, "not in the vote format"))
    b.post(vote1, "谷雨", _at(10, 16, 8, 27), "投票对象：霜降",
           ballot=_ballot("谷雨", "vote", "霜降", False, False, "no reason given"))
    b.post(vote1, "惊蛰", _at(10, 17, 0, 33), _lines("投票对象：霜绛", "投票理由：跟着感觉走"),
           ballot=_ballot("惊蛰", "vote", "霜绛", False, False, "not a player"))
    b.post(vote1, "过路客", _at(10, 18, 12, 0), _lines("投票对象：青梅", "投票理由：围观的也想凑个热闹"),
           ballot=_ballot("过路客", "vote", "青梅", False, False, "not a player of the game"))
    b.post(vote1, "芒种", _at(10, 19, 45, 16), _lines("投票对象：青梅", "投票理由：刚才没按格式写，补一张正式的票"),
           ballot=_ballot("芒种", "vote", "青梅", True, True))
    b.post(vote1, "惊蛰", _at(10, 20, 3, 58), _lines("投票对象：青梅", "投票理由：名字打错了，这张才算"),
           ballot=_ballot("惊蛰", "vote", "青梅", True, True))
    b.post(vote1, "清明", _at(10, 21, 30, 0), _lines("投票对象：弃权", "投票理由：两边都没说服我"),
           ballot=_ballot("清明", "abstain", None, True, True))
    v["寒露"] = b.post(vote1, "寒露", _at(10, 22, 10, 40), "投票对象：青梅投票理由：节奏带得太狠",
                      ballot=_ballot("寒露", "vote", "青梅", True, True))
    v["小满"] = vote1.posts[5]
    b.post(vote1, "青梅", _at(11, 9, 0, 0), "提醒一下，投票别忘了写理由那一行。")
    b.post(vote1, "说书人", _at(11, 10, 0, 0), _lines("【代投】立夏", "投票对象：霜降", "投票理由：立夏私信委托，导演代为投出"),
           ballot=_ballot("立夏", "vote", "霜降", True, True))
    b.post(vote1, "寒露", _at(11, 12, 30, 5), _lines("改票对象：霜降", "改票理由：想了一晚还是霜降"),
           ballot=_ballot("寒露", "change", "霜降", False, False, "a change must reply to the original vote floor"))
    b.post(vote1, "白露", _at(11, 15, 10, 22), _lines("改票对象：霜降", "改票理由：被霜降的自辩劝退了"),
           reply_pid=v["白露"].pid, ballot=_ballot("白露", "change", "霜降", True, True))
    b.post(vote1, "霜降", _at(11, 16, 0, 0), _lines("改票对象：白露", "改票理由：白露带票太积极"),
           quote_pid=v["霜降"].pid, ballot=_ballot("霜降", "change", "白露", True, True))
    b.post(vote1, "霜降", _at(11, 18, 0, 0), _lines("改票对象：竹马", "改票理由：还是竹马更可疑"),
           quote_pid=v["霜降"].pid, ballot=_ballot("霜降", "change", "竹马", False, False, "only one change is allowed"))
    b.post(vote1, "小满", _at(11, 21, 25, 0), _lines("改票对象：青梅", "改票理由：临关门想换个人"),
           quote_pid=v["小满"].pid,
           ballot=_ballot("小满", "change", "青梅", False, False, "no change in the last hour before close"))
    b.post(vote1, "大寒", _at(11, 22, 3, 0), _lines("投票对象：青梅", "投票理由：下班太晚没赶上"),
           ballot=_ballot("大寒", "vote", "青梅", False, False, "after close"))
    b.post(vote1, "青梅", _at(11, 22, 8, 0), _lines("改票对象：竹马", "改票理由：关门后想改"),
           quote_pid=v["青梅"].pid, ballot=_ballot("青梅", "change", "竹马", False, False, "after close"))

    prog1 = b.thread(23, GAME_FID, "[M84] 节气夜话 · 第一天进程", "progress", 1, views=120)
    b.post(prog1, "说书人", d1_open, red.format("要加速或延时的演员在这里回帖，人数达到存活人数一半即生效。"))
    b.post(prog1, "谷雨", _at(11, 10, 40, 0), "申请加速")
    b.post(prog1, "大寒", _at(11, 11, 5, 0), "申请加速，这两天比较忙")
    b.post(prog1, "青梅", _at(11, 12, 0, 0), "反对加速，还没聊透")
    b.post(prog1, "惊蛰", _at(11, 14, 30, 0), "申请加速")

    elec = b.thread(24, GAME_FID, "[M84] 节气夜话 · 神父推举", "election", 1, views=150)
    b.post(elec, "说书人", d1_open, red.format("推举神父：按投票格式回帖，第一天结束时先到最高票者当选。"))
    for i, (voter, target) in enumerate((("竹马", "青梅"), ("白露", "青梅"), ("霜降", "白露"), ("小满", "青梅"),
                                         ("芒种", "白露"), ("谷雨", "白露"), ("惊蛰", "青梅"), ("清明", "白露"),
                                         ("立夏", "竹马"), ("寒露", "竹马"))):
        b.post(elec, voter, d1_open + timedelta(minutes=50 + 47 * i, seconds=7 * i),
               _lines(f"投票对象：{target}", "投票理由：愿意相信他带队"), ballot=_ballot(voter, "vote", target, True, True))

    # ---------------------------------------------------------------- day 2 (霜降 is out by the vote)
    living2 = [p for p in PLAYERS if p != "霜降"]
    disc2 = b.thread(31, GAME_FID, "[M84] 节气夜话 · 第二天讨论", "discussion", 2, views=600)
    b.post(disc2, "说书人", d2_open, _lines(
        red.format('<font size="4">公示：霜降被投出；青梅当选神父。</font>'),
        "第二天白天开始，11月13日 22:00 截止。"))
    counts2 = {"青梅": 8, "竹马": 7, "白露": 7, "小满": 6, "芒种": 5, "谷雨": 5, "惊蛰": 6, "清明": 5,
               "立夏": 5, "寒露": 5, "大寒": 2, "霜降": 1}
    specials2: dict[str, dict[int, dict[str, Any]]] = {
        "霜降": {0: {"body": "出局了还想说一句，白露肯定有问题。", "flags": ("dead_post",)}},
        "芒种": {1: {"body": "这帖也被屏蔽了。", "hidden": True}},
        "清明": {2: {"body": "今天轻松一点 "
                             '<img src="static/image/smiley/default/smile.gif" smilieid="1" border="0" alt="" />'}},
        "竹马": {3: {"body": "你这个推理我不认同，白露昨天明明改过票。", "reply_prev": True}},
    }
    _discussion(b, disc2, rng, d2_open, _at(13, 21, 30), counts2, specials2, living2)

    vote2 = b.thread(32, GAME_FID, "[M84] 节气夜话 · 第二天投票", "vote", 2, views=300)
    b.post(vote2, "说书人", d2_open, red.format("第二天的票请投在这里，神父一票算一票半。"))
    for i, (voter, target, reason) in enumerate((
            ("青梅", "白露", "昨天带票太积极"), ("竹马", "白露", "跟神父走"), ("白露", "竹马", "竹马一直在踩我"),
            ("小满", "竹马", "竹马站边太晚"), ("芒种", "白露", "昨天的改票很奇怪"), ("谷雨", "竹马", "感觉不对"),
            ("惊蛰", "清明", "清明一直弃权"), ("清明", "竹马", "竹马发言最少变化"), ("立夏", "白露", "跟票"),
            ("寒露", "弃权", "两边都说得通"))):
        kind = "abstain" if target == "弃权" else "vote"
        b.post(vote2, voter, d2_open + timedelta(hours=1, minutes=37 * i, seconds=11 * i),
               _lines(f"投票对象：{target}", f"投票理由：{reason}"),
               ballot=_ballot(voter, kind, None if kind == "abstain" else target, True, True))
    b.post(vote2, "霜降", _at(12, 20, 0, 0), _lines("投票对象：白露", "投票理由：人出局了，票还想留一张"),
           flags=("dead_post",), ballot=_ballot("霜降", "vote", "白露", False, False, "the voter is out"))

    s.days = (SampleDay(1, 21, 22, d1_open, d1_close, progress_tid=23, election_tid=24),
              SampleDay(2, 31, 32, d2_open, d2_close))
    s.events = (SampleEvent(2, "out", "霜降", "vote"), SampleEvent(2, "priest", "青梅"))
    return s


def _insert(s: Sample, t: SampleThread, index: int, post: SamplePost) -> None:
    """Put a post at `index` in time order, renumbering pids and floors after it (build time only)."""
    t.posts.insert(index, post)
    pids = sorted(p.pid for p in t.posts if p.pid)
    base = pids[0]
    old_to_new = {}
    for i, p in enumerate(t.posts):
        new = base + i
        if p.pid:
            old_to_new[p.pid] = new
        p.pid, p.position = new, i + 1
    for th in s.threads.values():
        for p in th.posts:
            if p.quote_pid in old_to_new:
                p.quote_pid = old_to_new[p.quote_pid]
            if p.reply_pid in old_to_new:
                p.reply_pid = old_to_new[p.reply_pid]
    s.next_pid = max(s.next_pid, base + len(t.posts))


SAMPLE = build_sample()

# What a correct tool reads from the sample, worked out by hand from the M84 rule post.
EXPECTED: dict[str, Any] = {
    "notes": {
        "posts": "posts per player in the day's discussion thread between opens and closes; a 屏蔽 post still "
                 "counts, a post after closes does not",
        "not_voted": "players of the day with no ballot in the vote thread between opens and closes; 谷雨's "
                     "uncorrected invalid ballot is a ballot (M84 penalises only 未回复投票帖者)",
        "priest": "青梅 and 白露 both reach 4 in the election thread; 青梅 reaches it first",
    },
    "days": {
        1: {
            "players": list(PLAYERS),
            "tally": [
                {"target": "霜降", "weight": 5.0, "voters": ["青梅", "竹马", "白露", "小满", "立夏"]},
                {"target": "青梅", "weight": 3.0, "voters": ["芒种", "惊蛰", "寒露"]},
                {"target": "白露", "weight": 1.0, "voters": ["霜降"]},
            ],
            "abstained": ["清明"],
            "not_voted": ["大寒"],
            "outcome": {"out": "霜降", "tie": []},
            "priest": "青梅",
            "election_tally": [
                {"target": "青梅", "weight": 4.0, "voters": ["竹马", "白露", "小满", "惊蛰"]},
                {"target": "白露", "weight": 4.0, "voters": ["霜降", "芒种", "谷雨", "清明"]},
                {"target": "竹马", "weight": 2.0, "voters": ["立夏", "寒露"]},
            ],
            "accelerated": False,
            "posts": {"青梅": 18, "竹马": 15, "白露": 14, "霜降": 13, "小满": 12, "芒种": 11, "谷雨": 4,
                      "惊蛰": 10, "清明": 9, "立夏": 8, "寒露": 7, "大寒": 3},
            "penalties": [
                {"player": "谷雨", "card": "yellow", "rule": "M84 违规判定 5(1)"},
                {"player": "大寒", "card": "yellow", "rule": "M84 违规判定 5(1)"},
                {"player": "大寒", "card": "yellow", "rule": "M84 违规判定 5(3)"},
            ],
        },
        2: {
            "players": [p for p in PLAYERS if p != "霜降"],
            "tally": [
                {"target": "白露", "weight": 4.5, "voters": ["青梅", "竹马", "芒种", "立夏"]},
                {"target": "竹马", "weight": 4.0, "voters": ["白露", "小满", "谷雨", "清明"]},
                {"target": "清明", "weight": 1.0, "voters": ["惊蛰"]},
            ],
            "abstained": ["寒露"],
            "not_voted": ["大寒"],
            "outcome": {"out": "白露", "tie": []},
            "accelerated": False,
            "posts": {"青梅": 8, "竹马": 7, "白露": 7, "小满": 6, "芒种": 5, "谷雨": 5, "惊蛰": 6, "清明": 5,
                      "立夏": 5, "寒露": 5, "大寒": 2},
            "penalties": [
                {"player": "大寒", "card": "yellow", "rule": "M84 违规判定 5(1)"},
                {"player": "大寒", "card": "yellow", "rule": "M84 违规判定 5(3)"},
            ],
        },
    },
    # pid -> speech categories (font, dead_post included) a checker should raise; every other post is clean
    "flags": {p.pid: list(p.flags) for t in SAMPLE.threads.values() for p in t.posts if p.flags},
    # pid -> the ballot a correct reader makes of a vote-thread floor
    "ballots": {p.pid: dict(p.ballot) for t in SAMPLE.threads.values() if t.role == "vote"
                for p in t.posts if p.ballot},
}
