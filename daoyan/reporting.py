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
    return write_analysis_reports(analyze_day(game, store, day, at), store, out, remind=remind)


def write_analysis_reports(a: DayAnalysis, store: Store, out: Path, *, remind: bool = True) -> dict[str, Path]:
    """The reports of a day already analysed (with its flags), the ledger synced first."""
    from reports import write_reports

    sync_cards(store, a.card_entries)
    return write_reports(day_dict(a, remind=remind), out)
