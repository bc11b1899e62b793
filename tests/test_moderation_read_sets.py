"""The stranger-written sets already read (tests/data/moderation_holdout*.jsonl) as a regression
floor: each was held out once, its misses read, and the lexicon widened. A later change that
loses what they taught shows here. These figures are not the checker's quality (a set read is no
longer unseen; the README quotes the unseen ones); the floor sits under the figure each set
reached once read, so an ordinary change passes and a lost construction does not.

Scored as the project's outside check scores the dev set: post level (a post with labels gets
a flag, a clean post none), whistled posts apart (whistle_breach flagged exactly where labelled).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from gamedef.ruleset import load_ruleset
from moderation.checker import lint_record

DATA = Path(__file__).parent / "data"
SETS = sorted(DATA.glob("moderation_holdout*.jsonl"))
FLOOR_PRECISION = 0.95
FLOOR_RECALL = 0.95


@pytest.mark.parametrize("path", SETS, ids=[p.stem for p in SETS])
def test_read_set_stays_caught(path: Path) -> None:
    rs = load_ruleset("m84")
    tp = fp = fn = 0
    whistle_wrong = []
    for line in path.read_text("utf-8").splitlines():
        g = json.loads(line)
        got = {f["category"] for f in lint_record({"id": g["id"], "text": g["text"],
                                                    "whistled": g.get("whistled", False)}, rs)["flags"]}
        if g.get("whistled"):
            if ("whistle_breach" in g["labels"]) != ("whistle_breach" in got):
                whistle_wrong.append(g["id"])
            continue
        want = bool(set(g["labels"]) - {"whistle_breach"})
        have = bool(got - {"whistle_breach"})
        tp += want and have
        fp += have and not want
        fn += want and not have
    precision = tp / max(1, tp + fp)
    recall = tp / max(1, tp + fn)
    assert precision >= FLOOR_PRECISION, (path.name, precision)
    assert recall >= FLOOR_RECALL, (path.name, recall)
    assert len(whistle_wrong) <= 1, (path.name, whistle_wrong)


def test_there_are_read_sets() -> None:
    assert len(SETS) >= 19
