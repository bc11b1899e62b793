"""Geometry of the votes-over-time chart: one step line per target, from `votes.timeline`.

Only numbers and the target names leave this module; the template turns them into inline SVG
with autoescaping, so a hostile name stays text.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo
from typing import Any, Mapping, Sequence

from ._text import clean, num, parse_time

# Colour-blind-friendly, distinct on white.
PALETTE = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
           "#e377c2", "#17becf", "#7f7f7f", "#bcbd22")

WIDTH, HEIGHT = 760, 300
LEFT, RIGHT, TOP, BOTTOM = 44, 16, 14, 42

_HOUR_STEPS = (1, 2, 3, 4, 6, 12, 24, 48)


@dataclass
class Series:
    target: str
    colour: str
    points: str  # the polyline's "x,y x,y ..."
    final: str
    marks: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Chart:
    width: int
    height: int
    plot: dict[str, float]
    series: list[Series]
    x_ticks: list[dict[str, Any]]
    y_ticks: list[dict[str, Any]]
    marker_lines: list[dict[str, Any]]

    @property
    def empty(self) -> bool:
        return not self.series


def _targets(points: Sequence[tuple[datetime, Mapping[str, float]]], order: Sequence[str]) -> list[str]:
    seen = [t for t in order if t]
    for _, counts in points:
        for t in counts:
            if t not in seen:
                seen.append(t)
    return seen


def _y_step(top: float) -> float:
    for step in (1, 2, 5, 10, 20, 50):
        if top / step <= 8:
            return step
    return 100


def _weights(counts: Any) -> dict[str, float]:
    out: dict[str, float] = {}
    if not isinstance(counts, Mapping):
        return out
    for k, v in counts.items():
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            out[clean(k)] = float(v)
    return out


def build_chart(timeline: Any, *, start: Any, end: Any, tz: tzinfo | None,
                order: Sequence[str] = (), lock: Any = None) -> Chart:
    """Lay out the step lines between the day's opening (or first ballot) and its close (or the count's moment)."""
    pts: list[tuple[datetime, dict[str, float]]] = []
    for p in timeline or []:
        if isinstance(p, Mapping):
            t = parse_time(p.get("at"), tz)
            if t is not None:
                pts.append((t, _weights(p.get("counts"))))
    pts.sort(key=lambda x: x[0])
    plot = {"x0": LEFT, "y0": TOP, "x1": WIDTH - RIGHT, "y1": HEIGHT - BOTTOM}
    if not pts:
        return Chart(WIDTH, HEIGHT, plot, [], [], [], [])

    t0 = parse_time(start, tz) or pts[0][0]
    t1 = parse_time(end, tz) or pts[-1][0]
    t0 = min(t0, pts[0][0])
    t1 = max(t1, pts[-1][0])
    if t1 <= t0:
        t1 = t0 + timedelta(hours=1)
    span = (t1 - t0).total_seconds()
    pw, ph = plot["x1"] - plot["x0"], plot["y1"] - plot["y0"]

    top = max((max(c.values(), default=0.0) for _, c in pts), default=0.0)
    ystep = _y_step(max(top, 1.0))
    ymax = max(ystep, ystep * -(-top // ystep))

    def x(t: datetime) -> float:
        return round(plot["x0"] + pw * (t - t0).total_seconds() / span, 1)

    def y(v: float) -> float:
        return round(plot["y1"] - ph * v / ymax, 1)

    series = []
    targets = _targets(pts, [clean(o) for o in order])
    for i, target in enumerate(targets):
        # Lines that share a level would hide each other; a small offset keeps each visible.
        nudge = round((i - (len(targets) - 1) / 2) * 1.6, 1)
        prev = 0.0
        coords: list[tuple[float, float]] = []
        marks = []
        for t, counts in pts:
            v = counts.get(target, 0.0)
            if v != prev or (not coords and v):
                if coords:
                    coords.append((x(t), y(prev) + nudge))
                else:
                    coords.append((x(t), y(0.0) + nudge))
                coords.append((x(t), y(v) + nudge))
                marks.append({"x": x(t), "y": y(v) + nudge, "label": f"{target} {t:%m-%d %H:%M} → {num(v)}"})
                prev = v
        if not coords:
            coords.append((x(t0), y(0.0) + nudge))
        coords.append((x(t1), y(prev) + nudge))
        series.append(Series(target=target, colour=PALETTE[i % len(PALETTE)],
                             points=" ".join(f"{a},{b}" for a, b in coords), final=num(prev), marks=marks))

    hours = span / 3600
    hstep = next((h for h in _HOUR_STEPS if hours / h <= 8), 72)
    first = t0.replace(minute=0, second=0, microsecond=0)
    while first < t0 or first.hour % min(hstep, 24):
        first += timedelta(hours=1)
    x_ticks = []
    t = first
    while t <= t1:
        label = t.strftime("%m-%d %H:%M") if (not x_ticks or t.hour < hstep) else t.strftime("%H:%M")
        x_ticks.append({"x": x(t), "label": label})
        t += timedelta(hours=hstep)
    y_ticks = [{"y": y(v * ystep), "label": num(v * ystep)} for v in range(int(ymax // ystep) + 1)]

    marker_lines = []
    lk = parse_time(lock, tz)
    if lk is not None and t0 < lk < t1:
        marker_lines.append({"x": x(lk), "label": "改票锁定"})
    return Chart(WIDTH, HEIGHT, plot, series, x_ticks, y_ticks, marker_lines)
