"""The score chart's geometry (plain Python, tested without Kivy): the scale of the axes, the
tick marks, and each player's line in screen coordinates."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.i18n import _
from companion.ui.games.past_game_model import Series

STEPS = (1, 2, 5, 10, 20, 25, 50, 100)  # a tick every so many points or turns


def tick_step(span: int, most: int) -> int:
    """The smallest step in STEPS that needs at most `most` ticks to cover `span`."""
    return next((s for s in STEPS if span / s <= most), STEPS[-1])


@dataclass(frozen=True)
class Layout:
    """Each tick's label and position along its axis, and each line's points."""

    y_ticks: list[tuple[str, float]]
    x_ticks: list[tuple[str, float]]
    lines: list[list[float]]  # x0, y0, x1, y1, ... per series


def layout(series: Sequence[Series], box: tuple[float, float, float, float],
           final: bool) -> Layout:
    """Scale the series into `box` (x, y, width, height): turns along x, points up y; the
    last x is the final tally ("Final") when `final`."""
    x, y, width, height = box
    turns = [t for s in series for t, _ in s.points] or [0]
    first, last = min(turns), max(max(turns), min(turns) + 1)
    top = max([p for s in series for _, p in s.points] + [1])
    y_step = tick_step(top, 6)
    top = -(-top // y_step) * y_step
    shown = last - 1 if final else last

    def across(turn: int) -> float:
        return x + width * (turn - first) / (last - first)

    def up(points: int) -> float:
        return y + height * points / top

    x_ticks = [(str(t), across(t)) for t in range(first, shown + 1,
                                                   tick_step(shown - first, 10))]
    return Layout([(str(p), up(p)) for p in range(0, top + 1, y_step)],
                  x_ticks + ([(_("Final"), across(last))] if final else []),
                  [[c for t, p in s.points for c in (across(t), up(p))] for s in series])
