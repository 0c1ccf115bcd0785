"""Driver: an Expedition turn in German, by touch, run in the real app under Xvfb by
tests/ui/test_german_turn.py: the app starts with a config file whose `[display]` says
`language = "de"`, on the 3-player draft example replayed into --db up to Cat's turn 30 (as
tests/ui/test_recruit_expedition.py does).

    DISPLAY=:99 .venv/bin/python tests/ui/drive_german_turn.py expedition \
        --db /tmp/g.sqlite --config /tmp/de.toml

Cat taps her Expedition L1 ship (roll 6, keep 4), taps the six dice in (food, water, metal,
Human, Human, food), keeps a food, the metal and both Humans, observes both Humans, confirms;
Bob, on the Expedition track, chooses his first bonus; every panel's question, lines and
buttons are read as shown (in German), and the table before and after.
Prints `DRIVER-RESULT {...}` (what was read on screen) as its last stdout line.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive_action import confirm, read_panel
from drive_table import counter_lines, read_table, shot
from harness import Robot, Steps, run

ROLLED = ("food", "water", "metal", "human", "human", "food")
KEPT = ("food", "metal", "human", "human")


def table_words(robot: Robot) -> dict:
    """The table's fixed words: its buttons and the language the app speaks."""
    from companion import i18n

    return {"home": robot.text("table:home"), "next": robot.text("table:next"),
            "station": robot.text("table:station"), "income": robot.text("table:income"),
            "language": i18n.language()}


def expedition(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    result = robot.result
    yield from read_table(robot)
    result["before"] = result.pop("table")
    result["table_words"] = table_words(robot)
    result["counter_lines"] = counter_lines(robot)
    yield from shot(robot, shots, "table-de", size)
    yield from robot.tap("ship:Cat:L1-expedition")
    yield from robot.wait_for(lambda: robot.find("die:food") is not None, "the dice panel")
    for face in ROLLED[:-1]:
        yield from robot.tap(f"die:{face}")
    result["dice"] = read_panel(robot)
    result["back_to_table"] = robot.text("action:back-to-table")
    yield from shot(robot, shots, "action-expedition-de", size)
    yield from robot.tap(f"die:{ROLLED[-1]}")  # the last die rolled: they are read
    for face in KEPT[:-1]:
        yield from robot.tap(f"keep:{face}")
    result["kept"] = read_panel(robot)
    yield from shot(robot, shots, "action-kept-de", size)
    yield from robot.tap(f"keep:{KEPT[-1]}")  # the capacity reached: they are kept
    for number in (1, 2):
        yield from robot.wait_for(lambda: robot.find("human:observe:None") is not None,
                                  f"the question of Human {number}")
        yield from robot.frames(2)
        result[f"human_{number}"] = read_panel(robot)
        yield from robot.tap("human:observe:None")
        yield from robot.wait_for(
            lambda n=number: robot.text("action:question") != result[f"human_{n}"]["question"],
            "the next panel")
    yield from robot.wait_for(lambda: robot.find("action:confirm") is not None, "the preview")
    yield from robot.frames(2)
    result["preview"] = read_panel(robot)
    yield from shot(robot, shots, "action-preview-de", size)
    yield from confirm(robot, shots, size)
    yield from robot.wait_for(lambda: robot.find("bonus:0") is not None, "Bob's bonus prompt")
    yield from robot.frames(2)
    result["prompt"] = read_panel(robot)
    yield from shot(robot, shots, "action-bonus-de", size)
    yield from robot.tap("bonus:0")
    yield from read_table(robot)
    result["after"] = result.pop("table")


SCENARIOS = {"expedition": expedition}

if __name__ == "__main__":
    sys.exit(run(SCENARIOS))
