"""Traditional → simplified, one character for one: the table both the ballot parser (labels and
names written 投票對象, 竹馬) and the speech checker's fold read, from OpenCC's data."""
from __future__ import annotations

from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=1)
def t2s_chars() -> dict[str, str]:
    """OpenCC's traditional → simplified character table (first candidate of each line)."""
    table: dict[str, str] = {}
    try:
        text = resources.files("opencc").joinpath("dictionary/TSCharacters.txt").read_text("utf-8")
    except (FileNotFoundError, ModuleNotFoundError):  # fall back to the converter itself
        import opencc

        cc = opencc.OpenCC("t2s")
        return {c: cc.convert(c) for c in "臥槽這媽發誓對們說導馬場專車頭腦殘雞豬狗給"}
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) == 2 and parts[1]:
            simple = parts[1].split(" ")[0]
            if len(parts[0]) == 1 and len(simple) == 1:
                table[parts[0]] = simple
    return table
