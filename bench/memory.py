"""Peak memory of a director's whole pipeline on a big game: scan + votes + check of a
20,000-floor day, against what a naive script holds just to have the pages.

The demo forum (in its own process) serves the demo game with its day-1 discussion thread grown
to ~20,000 floors spread over the day, plus the day's vote thread. Then, each in a fresh child
process, so each peak is its own:
- ours: `scan_game` into a new store, then `analyze_day(…, flags=True)` (votes, activity, and the
  speech checker over every post), the peak RSS (VmHWM) read at the end;
- baseline: fetch every desktop page of the same threads with httpx and keep the HTML in a list,
  as a script that parses later would.

Target: ours under 300 MB. Run from the repo root: `.venv/bin/python bench/memory.py`.
The last line is the ratio ours / baseline.
"""
from __future__ import annotations

import http.server
import json
import subprocess
import sys
import tempfile
from multiprocessing import Pipe, Process
from multiprocessing.connection import Connection
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from daoyan.demo.gamefile import write_game_file  # noqa: E402
from daoyan.demo.server import DemoForum  # noqa: E402

FLOORS = 20_000
LIMIT_MB = 300

PIPELINE = r"""
import json, sys, time
sys.path.insert(0, sys.argv[2])
from gamedef.gamefile import load_game
from daoyan.scan import scan_game
from daoyan.store import Store
from daoyan.analysis import analyze_day
game = load_game(sys.argv[1])
t0 = time.perf_counter()
res = scan_game(game)
t1 = time.perf_counter()
scan_kb = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM"))
checked = True
with Store(game.store_path) as store:
    try:
        import moderation.checker  # noqa: F401
    except ImportError:
        checked = False
    a = analyze_day(game, store, 1, flags=checked)
    posts = sum(len(v) for v in a.posts.values())
t2 = time.perf_counter()
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM"))
print(json.dumps({"kb": hwm, "scan_kb": scan_kb, "posts": posts, "flags": len(a.flags), "checked": checked,
                  "requests": res.requests, "scan_s": t1 - t0, "analyze_s": t2 - t1}))
"""

BASELINE = r"""
import asyncio, json, sys
import httpx
base, threads = sys.argv[1], json.loads(sys.argv[2])
pages = []
async def main():
    async with httpx.AsyncClient(base_url=base, limits=httpx.Limits(max_connections=4)) as c:
        sem = asyncio.Semaphore(4)
        async def one(tid, n):
            async with sem:
                r = await c.get("forum.php", params={"mod": "viewthread", "tid": tid, "page": n})
                pages.append(r.text)
        await asyncio.gather(*(one(tid, n) for tid, last in threads for n in range(1, last + 1)))
asyncio.run(main())
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM"))
print(json.dumps({"kb": hwm, "pages": len(pages), "chars": sum(len(p) for p in pages)}))
"""


def _forum_process(conn: Connection, work: str) -> None:
    """The demo forum, grown to a big game, in its own process (Nagle off, as a real server)."""
    http.server.BaseHTTPRequestHandler.disable_nagle_algorithm = True
    with DemoForum() as forum:
        s = forum.sample
        day = s.days[0]
        existing = len(s.threads[day.discussion_tid].posts)
        span = (day.closes - day.opens).total_seconds()
        more = FLOORS - existing
        forum.fill_thread(day.discussion_tid, more, start=day.opens, step_seconds=max(1, int(span // (more + 1))))
        path = write_game_file(Path(work) / "game.toml", forum.base_url, s)
        text = path.read_text("utf-8").replace("[forum]\n", "[forum]\nrate = 1000\nconnections = 4\n", 1)
        path.write_text(text, "utf-8")
        threads = [(tid, -(-len(t.posts) // forum.per_page)) for tid, t in s.threads.items() if not s.boards[t.fid].private]
        floors = sum(len(s.threads[t].posts) for t in (day.discussion_tid, day.vote_tid))
        conn.send((str(path), forum.base_url, threads, floors))
        conn.recv()


def _child(code: str, *args: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, timeout=600)
    if out.returncode != 0:
        raise SystemExit(f"child failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="daoyan-bench-") as tmp:
        ours_end, theirs = Pipe()
        proc = Process(target=_forum_process, args=(theirs, tmp), daemon=True)
        proc.start()
        try:
            path, base, threads, floors = ours_end.recv()
            pages = sum(n for _, n in threads)
            print(f"demo game: day 1 discussion + vote = {floors} floors; {len(threads)} readable threads, "
                  f"{pages} desktop pages in all")
            base_r = _child(BASELINE, base, json.dumps(threads))
            ours = _child(PIPELINE, path, str(ROOT))
        finally:
            ours_end.send("stop")
            proc.join(10)
    mb, base_mb = ours["kb"] / 1024, base_r["kb"] / 1024
    print(f"  ours (scan + votes + check{'' if ours['checked'] else ' SKIPPED: no moderation.checker'}): "
          f"peak RSS {mb:.0f} MB ({ours['scan_kb'] / 1024:.0f} MB by the end of the scan); {ours['requests']} requests, scan {ours['scan_s']:.1f} s, analysis "
          f"{ours['analyze_s']:.1f} s over {ours['posts']} posts, {ours['flags']} flags")
    print(f"  baseline (httpx, every page's HTML kept in a list): peak RSS {base_mb:.0f} MB for "
          f"{base_r['pages']} pages, {base_r['chars'] / 1e6:.0f} M characters")
    print(f"  target: under {LIMIT_MB} MB -> {'met' if mb < LIMIT_MB else 'MISSED'}")
    print(f"ratio: peak RSS {mb:.0f} MB = {mb / base_mb:.2f}x the naive script's {base_mb:.0f} MB")


if __name__ == "__main__":
    main()
