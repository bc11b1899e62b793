"""A page of 5,000 floors (Discuz's ppp can be set that high) is read within a few times its size:
lexbor's tree of a whole page took about twelve times it (446 MB for 23 MB), so a large page is
read a post block at a time, and reads exactly as it does whole."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import parsers.discuz as discuz

CHILD = r"""
import resource, sys
import parsers.discuz as discuz
html = open(sys.argv[1], encoding="utf-8").read()
if sys.argv[2] == "whole":
    discuz.CHUNKED_FROM = 10**12
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
page = discuz.parse_thread_page(html)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(len(page.posts), (after - before) * 1024, len(html.encode("utf-8")))
"""


def big_page(captures: Path, floors: int = 5000) -> str:
    """The capture's page 1 with its second post copied `floors` times (new pids and floors, a
    few lines of words each): about 30 MB, like the 23 MB page of the issue."""
    html = (captures / "x35-utf8" / "pages" / "viewthread-tid3-p1.html").read_text("utf-8")
    starts = [m.start() for m in re.finditer(r'<div id="post_\d+"', html)]
    block = html[starts[1]:starts[2]]
    pid = re.search(r'id="post_(\d+)"', block).group(1)
    words = "长篇发言，投票对象：饺子，" * 40 + "<br />\n"
    out = []
    for i in range(floors):
        new = str(100000 + i)
        b = block.replace(pid, new)
        b = re.sub(rf'(id="postnum{new}"[^>]*>)(.*?)(</a>)', lambda m: m.group(1) + f"<em>{i + 2}</em><sup>#</sup>"
                   + m.group(3), b, count=1, flags=re.S)
        out.append(b.replace(f'id="postmessage_{new}">', f'id="postmessage_{new}">' + words, 1))
    return html[:starts[1]] + "".join(out) + html[starts[-1]:]


def test_a_large_page_reads_the_same_by_blocks_as_whole(captures: Path, monkeypatch) -> None:
    html = big_page(captures, 1500)
    assert len(html) > discuz.CHUNKED_FROM
    by_blocks = discuz.parse_thread_page(html, what="big page")
    monkeypatch.setattr(discuz, "CHUNKED_FROM", 10**12)
    whole = discuz.parse_thread_page(html, what="big page")
    assert by_blocks == whole and len(whole.posts) == 1502
    assert (whole.subject, whole.last_page, whole.replies) == ("[M84] 第一天讨论帖", 13, 120)


def test_a_5000_floor_page_parses_within_a_few_times_its_size(captures: Path, tmp_path: Path) -> None:
    path = tmp_path / "big.html"
    path.write_text(big_page(captures), "utf-8")
    r = subprocess.run([sys.executable, "-c", CHILD, str(path), "blocks"], capture_output=True, text=True,
                       timeout=300, cwd=Path(__file__).resolve().parents[1])
    assert r.returncode == 0, r.stderr
    posts, added, size = map(int, r.stdout.split())
    assert posts == 5002 and size > 20 * 2**20
    assert added < 3 * size, f"parsing a {size / 2**20:.0f} MB page took {added / 2**20:.0f} MB more"
