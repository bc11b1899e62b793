"""The day's analysis written as reports, and the card ledger kept in step with it."""
from __future__ import annotations

from datetime import datetime
from pathlib import Path

from .analysis import DayAnalysis, analyze_day
from gamedef.gamefile import Game
from .store import Store, sync_cards


def day_dict(a: DayAnalysis, *, remind: bool = False) -> dict:
    d = a.to_dict()
    if remind:
        d["remind"] = a.reminder().to_json()
    return d


def write_day_reports(game: Game, store: Store, day: int, out: Path, at: datetime | None = None, *,
                      remind: bool = True) -> dict[str, Path]:
    from reports import write_reports

    a = analyze_day(game, store, day, at)
    sync_cards(store, a.card_entries)
    return write_reports(day_dict(a, remind=remind), out)
