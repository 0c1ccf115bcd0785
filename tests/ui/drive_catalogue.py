"""Drive the catalogue screen (companion/ui/catalogue_screen.py) in the real app under Xvfb (see
docs/ui-testing.md), run with a config saying German:

  quotes-de  home, Catalogue, Ships, ship L1-dismantle: its level's rulebook quote in English
             with the German summary's words below it; Sector 218's cost, a quote the summary
             does not cover, in English alone; Diplomacy level-0, whose bonuses' quote has a
             rendering too; what each line shows, whether its texts fit in it, and that the
             view stays at the top while the lines grow to their wrapped quotes
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive_table import shot
from harness import Robot, Steps, run


def line_of(robot: Robot, name: str) -> dict[str, Any]:
    """A value line's texts (value, note, rendering) and whether the note and the rendering are
    shown whole inside the line (wrapped, not cut)."""
    note = robot.find(f"catalogue:note:{name}")
    rendering = robot.find(f"catalogue:rendering:{name}")
    line = note.parent.parent if note is not None else None
    inside = []
    for label in (w for w in (note, rendering) if w is not None):
        label.texture_update()
        inside.append(label.texture_size[1] <= label.height + 1
                      and line.y - 1 <= label.y and label.top <= line.top + 1)
    return {"value": robot.text(f"catalogue:value:{name}"),
            "note": robot.text(f"catalogue:note:{name}"),
            "rendering": robot.text(f"catalogue:rendering:{name}"),
            "whole": all(inside)}


def open_record(robot: Robot, kind: str, record: str, shown: str, what: str) -> Steps:
    """From the catalogue's list: a kind's tab, one of its records, until `shown` is there."""
    yield from robot.tap(f"catalogue:kind:{kind}")
    yield from robot.tap(f"catalogue:record:{record}")
    yield from robot.wait_for(lambda: robot.find(shown) is not None, what)


def quotes_de(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """The rulebook's quotes in English, the German summary's words below those it covers."""
    yield from robot.tap("home:catalogue")
    yield from open_record(robot, "ships", "L1-dismantle", "catalogue:rendering:level",
                           "the German words below the level's quote")
    yield from robot.frames(3)
    robot.result["title"] = robot.text("catalogue:title")
    robot.result["level"] = line_of(robot, "level")
    robot.result["type"] = line_of(robot, "type")
    yield from shot(robot, shots, "catalogue-quote", size)
    yield from robot.tap("catalogue:back")
    yield from open_record(robot, "sectors", "218", "catalogue:note:cost", "Sector 218's cost")
    yield from robot.frames(3)
    robot.result["cost"] = line_of(robot, "cost")
    yield from robot.tap("catalogue:back")
    yield from open_record(robot, "diplomacy", "level-0", "catalogue:rendering:bonus_dismantle",
                           "the German words below level-0's quote")
    start = time.monotonic()
    while time.monotonic() - start < 0.5:  # the lines grown, any scroll effect played out
        yield
    robot.result["bonus"] = line_of(robot, "bonus_dismantle")
    robot.result["scroll_y"] = robot.app.screens.get_screen("catalogue").ids.scroll.scroll_y
    yield from shot(robot, shots, "catalogue-quote-diplomacy", size)


SCENARIOS: dict[str, Any] = {"quotes-de": quotes_de}

if __name__ == "__main__":
    sys.exit(run(SCENARIOS))
