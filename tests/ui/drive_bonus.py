"""Driver: bonus actions entered by touch, run in the real app under Xvfb by
tests/ui/test_bonus_screen.py on example games replayed into --db (as `phoenix-companion replay
... --db PATH` does).

    DISPLAY=:99 .venv/bin/python tests/ui/drive_bonus.py sector-321 --db /tmp/g.sqlite

`sector-321` (the 3-player draft example up to the line before Cat builds Sector 321, from an
empty overlay): Cat taps her Construction L3 ship and Sector 321; the values the tile prints,
needed before its dice, are asked at once, one card after the other (cost, living quarters, the
ability's quarter, the income icons); then how many of the 7 dice rolled show each face, how
many of each are kept (5), the Human recruited into Sector 321 itself (built before the dice
are rolled; its one button names the place); Confirm; Bob's Construction bonus; the table and
Cat's station are read.
`b5-income` (the same game with Hub B-5 for Cat, at her second turn, 1 GEM left): Income, B-5's
power taken, its transaction entered in the pop-up (Buy…, then 1 water for 3 GEMs: the income
pays first; Done is implied, its one transaction made), Confirm; the table is read.
Prints `DRIVER-RESULT {...}` (what was read on screen) as its last stdout line.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive_action import (
    choose_bonuses,
    confirm,
    count_taps,
    read_panel,
    roll_and_keep,
    values_first,
)
from drive_table import engine_player, read_table, shot
from harness import Robot, Steps, run

# What Sector 321's tile prints, as the example's line gives it ("catalogue" on line 109).
TILE = {"cost": "9", "How many living quarters": "4", "Which living quarter": ["0"],
        "income icons": ["done"]}
ROLLED = ("food", "water", "metal", "metal", "human", "food", "water")
KEPT = ("metal", "metal", "human", "food", "water")


def sector_321(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    result = robot.result
    yield from read_table(robot)
    result["before"] = result.pop("table")
    start = robot.taps
    yield from robot.tap("ship:Cat:L3-construction")
    yield from robot.tap("sector:321")
    yield from robot.wait_for(robot.popup, "the value needed first, on its card at once")
    screen = robot.app.screens.get_screen("action")
    result["value_first"] = {"question": screen.question, "lines": screen.lines}
    yield from shot(robot, shots, "action-bonus-value-first", size)
    yield from values_first(robot, TILE)
    result.update((yield from roll_and_keep(robot, ROLLED, KEPT)))
    yield from robot.wait_for(lambda: robot.find("humans:0") is not None,
                              "the Human's question")
    result["human"] = read_panel(robot)
    yield from shot(robot, shots, "action-bonus-dice-human", size)
    yield from robot.tap("humans:1:321")
    yield from robot.wait_for(lambda: robot.find("action:confirm") is not None, "the preview")
    result["preview"] = read_panel(robot)
    yield from shot(robot, shots, "action-bonus-preview", size)
    yield from confirm(robot, shots, size, TILE)
    yield from robot.wait_for(lambda: robot.find("bonus:0") is not None, "Bob's bonus prompt")
    yield from robot.frames(2)
    result["undo_at_prompt"] = robot.text("action:undo")
    result["prompts"] = yield from choose_bonuses(robot)
    yield from read_table(robot)
    count_taps(robot, "construction-321-tile-values-and-dice", start)
    result["after"] = result.pop("table")
    yield from robot.tap("table:station")
    yield from robot.wait_for(lambda: robot.find("resident:321:0") is not None, "the station")
    yield from robot.frames(2)
    result["station"] = {"title": robot.text("station:title"),
                         "residents": sorted([d.tag, d.letter] for d in robot.all(
                             lambda t: t.startswith("resident:")))}
    yield from shot(robot, shots, "station-bonus-321", size)
    yield from robot.tap("station:back")
    yield from robot.wait_for(lambda: robot.find("table:active") is not None, "the table")
    result["engine"] = engine_player(robot, 2)


def b5_income(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    result = robot.result
    yield from read_table(robot)
    result["before"] = result.pop("table")
    yield from robot.tap("table:income")
    yield from robot.tap("power:B-5")
    yield from robot.tap("power:B-5:enter")
    yield from robot.wait_for(lambda: robot.find("bonus:question") is not None, "the pop-up")
    yield from robot.frames(2)
    result["popup"] = {"question": robot.text("bonus:question"),
                       "lines": robot.text("bonus:lines"),
                       "kinds": sorted(w.tag for w in robot.all(lambda t: ":" in t))}
    yield from robot.tap("group:buy")
    result["popup"]["buy"] = robot.text("buy:water")
    yield from shot(robot, shots, "income-bonus-popup", size)
    yield from robot.tap("buy:water")  # its one transaction: the pop-up closes
    yield from robot.wait_for(lambda: robot.popup() is None, "the income screen")
    yield from robot.frames(3)
    result["card"] = robot.text("power:B-5:enter")
    result["preview"] = [robot.text(w.tag) for w in sorted(
        robot.all(lambda t: t.startswith("preview:")), key=lambda w: int(w.tag.split(":")[1]))]
    yield from shot(robot, shots, "income-bonus", size)
    yield from robot.tap("income:confirm")
    yield from read_table(robot)
    result["after"] = result.pop("table")


SCENARIOS = {"sector-321": sector_321, "b5-income": b5_income}

if __name__ == "__main__":
    sys.exit(run(SCENARIOS))
