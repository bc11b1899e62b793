"""Precision and recall of the speech checker on the labelled dev set (../shared/eval).

Scored like the project's outside check (shared/tools/check_lint.py): post level (does a post
with labels get any flag, does a clean post get none; whistled records apart) and category
level (each label a post should get / got), then per category. Usage:

    python bench/moderation_eval.py [PATH/moderation_dev.jsonl] [--ruleset m84] [--errors]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT = ROOT.parent / "shared" / "eval" / "moderation_dev.jsonl"


def score(gold: list[dict], got: dict[str, set[str]]) -> dict:
    """The check_lint.py figures plus a per-category table."""
    tp = fp = fn = ptp = pfp = pfn = wok = wn = 0
    per: dict[str, list[int]] = {}
    for g in gold:
        want = set(g["labels"]) - {"whistle_breach"}
        have = got[str(g["id"])] - {"whistle_breach"}
        tp += len(want & have); fp += len(have - want); fn += len(want - have)
        for c in want | have:
            row = per.setdefault(c, [0, 0, 0])
            row[0] += c in want and c in have
            row[1] += c in have and c not in want
            row[2] += c in want and c not in have
        if g.get("whistled"):
            wn += 1
            ok = ("whistle_breach" in g["labels"]) == ("whistle_breach" in got[str(g["id"])])
            wok += ok
            row = per.setdefault("whistle_breach", [0, 0, 0])
            w_want, w_have = "whistle_breach" in g["labels"], "whistle_breach" in got[str(g["id"])]
            row[0] += w_want and w_have; row[1] += w_have and not w_want; row[2] += w_want and not w_have
        else:
            ptp += bool(want) and bool(have); pfp += (not want) and bool(have); pfn += bool(want) and not have
    P = ptp / max(1, ptp + pfp); R = ptp / max(1, ptp + pfn)
    cp = tp / max(1, tp + fp); cr = tp / max(1, tp + fn); cf = 2 * cp * cr / max(1e-9, cp + cr)
    return {"post_p": P, "post_r": R, "cat_p": cp, "cat_r": cr, "cat_f1": cf, "whistle_ok": wok, "whistle_n": wn,
            "per": per}


def run(path: Path, ruleset_name: str = "m84") -> tuple[list[dict], dict[str, set[str]], dict]:
    from gamedef.ruleset import load_ruleset
    from moderation.checker import lint_record

    rs = load_ruleset(ruleset_name)
    gold = [json.loads(l) for l in path.read_text("utf-8").splitlines() if l.strip()]
    got = {}
    for g in gold:
        rec = {"id": g["id"], "text": g["text"], "whistled": g.get("whistled", False)}
        got[str(g["id"])] = {f["category"] for f in lint_record(rec, rs)["flags"]}
    return gold, got, score(gold, got)


def table(s: dict) -> str:
    lines = [f"{'category':<16} {'P':>6} {'R':>6} {'F1':>6} {'tp':>4} {'fp':>4} {'fn':>4}"]
    for c in sorted(s["per"]):
        tp, fp, fn = s["per"][c]
        p = tp / max(1, tp + fp); r = tp / max(1, tp + fn); f = 2 * p * r / max(1e-9, p + r)
        lines.append(f"{c:<16} {p:6.3f} {r:6.3f} {f:6.3f} {tp:4d} {fp:4d} {fn:4d}")
    lines.append(f"post level: P={s['post_p']:.3f} R={s['post_r']:.3f}; category level: P={s['cat_p']:.3f} "
                 f"R={s['cat_r']:.3f} F1={s['cat_f1']:.3f}; whistled {s['whistle_ok']}/{s['whistle_n']}")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path", nargs="?", default=str(DEFAULT))
    ap.add_argument("--ruleset", default="m84")
    ap.add_argument("--errors", action="store_true", help="list every wrong record")
    a = ap.parse_args()
    gold, got, s = run(Path(a.path), a.ruleset)
    if a.errors:
        for g in gold:
            want, have = set(g["labels"]), got[str(g["id"])]
            if want != have:
                print(f"{g['id']} want={sorted(want)} got={sorted(have)} {g['text']!r}")
    print(table(s))
    ok = s["post_p"] >= 0.90 and s["post_r"] >= 0.85 and s["cat_f1"] >= 0.80 and s["whistle_ok"] == s["whistle_n"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
