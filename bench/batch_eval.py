"""Catch rates of the written batches (tests/data/moderation_batches.toml), per category.

A violating line is caught when one of the batch's accepted categories is flagged; a clean
line is clean when nothing at all is flagged. Usage: python bench/batch_eval.py [PATH] [--errors]
"""
from __future__ import annotations

import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
BATCHES = ROOT / "tests" / "data" / "moderation_batches.toml"


def main() -> None:
    from gamedef.ruleset import load_ruleset
    from moderation.checker import lint_record

    rs = load_ruleset("m84")
    show = "--errors" in sys.argv
    paths = [Path(a) for a in sys.argv[1:] if not a.startswith("--")]
    data = tomllib.loads((paths[0] if paths else BATCHES).read_text("utf-8"))
    tv = tn = cv = cn = 0
    for cat, b in data.items():
        accept = set(b.get("accept", [cat]))
        flags = lambda t: {f["category"] for f in lint_record({"id": "x", "text": t}, rs)["flags"]}
        miss = [t for t in b["violating"] if not accept & flags(t)]
        false = [(t, flags(t)) for t in b["clean"] if flags(t)]
        v, c = len(b["violating"]), len(b["clean"])
        tv += v - len(miss); tn += v; cv += c - len(false); cn += c
        print(f"{cat:24s} caught {v - len(miss):2d}/{v}   clean {c - len(false):2d}/{c}")
        if show:
            for t in miss:
                print("   MISS ", t)
            for t, f in false:
                print("   FALSE", sorted(f), t)
    print(f"{'all':24s} caught {tv}/{tn} = {tv / tn:.3f}   clean {cv}/{cn} = {cv / cn:.3f}")


if __name__ == "__main__":
    main()
