"""Driver: an Expedition turn in German, by touch, run in the real app under Xvfb by
tests/ui/test_german_turn.py: the app starts with a config file whose `[display]` says
`language = "de"`, on the 3-player draft example replayed into --db up to Cat's turn 30 (as
tests/ui/test_recruit_expedition.py does).

    DISPLAY=:99 .venv/bin/python tests/ui/drive_german_turn.py expedition \
        --db /tmp/g.sqlite --config /tmp/de.toml

Cat taps her Expedition L1 ship (roll 6, keep 4), taps how many of the six dice show each face
(2 food, 1 water, 1 metal: the 2 Humans are the rest); all six are kept at first (Keep these
dim: it says why), a food and the water put back (4 kept, the capacity: they are kept),
observes both Humans with one tap, confirms;
Bob, on the Expedition track, chooses his first bonus; every panel's question, lines and
buttons are read as shown (in German), and the table before and after.
Prints `DRIVER-RESULT {...}` (what was read on screen) as its last stdout line.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive_action import confirm, dim, lines_laid, lit, read_panel
from drive_table import counter_lines, read_table, shot
from harness import Robot, Steps, run

ROLLED = (("food", 2), ("water", 1), ("metal", 1))  # the 2 Humans: the rest
PUT_BACK = (("food", 1), ("water", 0))  # kept: 1 food, the metal, both Humans


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
    yield from robot.wait_for(lambda: robot.find("die:food:0") is not None, "the dice panel")
    for face, count in ROLLED[:-1]:
        yield from robot.tap(f"die:{face}:{count}")
    result["dice"] = read_panel(robot)
    result["back_to_table"] = robot.text("action:back-to-table")
    yield from shot(robot, shots, "action-expedition-de", size)
    yield from robot.tap("die:{}:{}".format(*ROLLED[-1]))  # the Humans are the rest: read
    yield from robot.wait_for(lambda: robot.find("action:kept") is not None, "the dice kept")
    yield from robot.frames(2)
    result["kept"] = read_panel(robot)
    result["kept_lit"] = lit(robot, "keep:")
    result["keep_these_dim"] = dim(robot, "action:kept")
    result["kept_lines_laid"] = lines_laid(robot, "action:lines")
    yield from robot.tap("action:kept")  # 6 kept, over the capacity: it says why
    result["over_capacity"] = robot.text("action:message")
    yield from shot(robot, shots, "action-kept-de", size)
    for face, count in PUT_BACK:  # the last: 4 kept, the capacity: they are kept
        yield from robot.tap(f"keep:{face}:{count}")
    yield from robot.wait_for(lambda: robot.find("humans:0") is not None, "the Humans' panel")
    yield from robot.frames(2)
    result["humans"] = read_panel(robot)
    yield from robot.tap("humans:0")
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
