"""Driver: an Expedition with a Human recruited, by touch, run in the real app under Xvfb by
tests/ui/test_recruit_expedition.py on the 3-player draft example replayed into --db (as
`phoenix-companion replay examples/three-players-draft.jsonl --db PATH` does) up to Cat's turn
30, where her Sectors 221 (3 living quarters, empty) and 321 (4, one Human) both have room.

    DISPLAY=:99 .venv/bin/python tests/ui/drive_recruit_expedition.py recruit --db /tmp/g.sqlite

Cat taps her Expedition L1 ship (roll 6, keep 4), taps how many of the six dice show each face
(2 food, 1 water, 1 metal: the 2 Humans are the rest), how many are kept (1 food, the metal,
both Humans: the capacity), then "Recruit 1 to Sector 221, observe 1" for the two Humans
(Sector 221 or 321: the choice of quarters), confirms; Bob, on the Expedition track, chooses
1 point; the table, then her station, are read.

`bonus-value`: the same Expedition with both Humans observed ("Observe all 2"); Bob chooses
level 3 of the Expedition track, which the example never gives: the engine's question opens the
value pop-up, "2 points" is entered (points, 2 on the keypad, Done), and the table shows Bob's gain.
Prints `DRIVER-RESULT {...}` (what was read on screen) as its last stdout line.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive_action import confirm, count_taps, read_panel, roll_and_keep, shown_whole
from drive_table import engine_player, read_table, shot, texts
from harness import Robot, Steps, run

ROLLED = ("food", "water", "metal", "human", "human", "food")
KEPT = ("food", "metal", "human", "human")


def residents(robot: Robot) -> list[list[Any]]:
    """Every resident dot on the station view: tag, letter, whether it counts yet."""
    return sorted([d.tag, d.letter, d.active]
                  for d in robot.all(lambda t: t.startswith("resident:")))


def bonus_prompts(robot: Robot, wanted: str) -> Steps:
    """Every Diplomacy bonus prompt: its question, its choices, the one tapped (its text is
    `wanted`)."""
    yield from robot.wait_for(lambda: robot.find("bonus:0") is not None, "a bonus prompt")
    yield from robot.frames(2)
    prompts = []
    while robot.find("bonus:0") is not None:
        question = robot.text("action:question")
        buttons = robot.all(lambda t: t.startswith("bonus:"))
        prompts.append({"question": question, "choices": sorted(texts(robot, "bonus:")),
                        "buttons": {b.tag: robot.text(b.tag) for b in buttons}})
        [tag] = [b.tag for b in buttons if robot.text(b.tag) == wanted]
        yield from robot.tap(tag)
        yield from robot.wait_for(lambda q=question: robot.text("action:question") != q,
                                  "the next prompt or the table")
        yield from robot.frames(2)
    return prompts


def recruit(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    result = robot.result
    yield from read_table(robot)
    result["before"] = result.pop("table")
    start = robot.taps
    yield from robot.tap("ship:Cat:L1-expedition")
    result.update((yield from roll_and_keep(robot, ROLLED, KEPT)))
    yield from robot.wait_for(lambda: robot.find("humans:0") is not None,
                              "the Humans' question")
    result["humans"] = read_panel(robot)
    yield from shot(robot, shots, "action-recruit", size)
    yield from robot.tap("humans:1:221")
    yield from robot.wait_for(lambda: robot.find("action:confirm") is not None, "the preview")
    result["preview"] = read_panel(robot)
    yield from shot(robot, shots, "action-recruit-preview", size)
    yield from confirm(robot, shots, size)
    result["prompts"] = yield from bonus_prompts(robot, "1 point")
    yield from read_table(robot)
    count_taps(robot, "expedition-6-dice-recruit", start)
    result["after"] = result.pop("table")
    yield from robot.tap("table:station")
    yield from robot.wait_for(lambda: robot.find("resident:221:0") is not None, "the station")
    yield from robot.frames(2)
    result["station"] = {"title": robot.text("station:title"), "residents": residents(robot)}
    yield from shot(robot, shots, "station-recruit", size)
    yield from robot.tap("station:back")
    yield from robot.wait_for(lambda: robot.find("table:active") is not None, "the table")
    result["engine"] = engine_player(robot, 2)


def bonus_value(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    from companion.ui.kit.values import ValuePopup

    result = robot.result
    yield from read_table(robot)
    result["before"] = result.pop("table")
    yield from robot.tap("ship:Cat:L1-expedition")
    yield from roll_and_keep(robot, ROLLED, KEPT)
    yield from robot.tap("humans:0")
    yield from robot.wait_for(lambda: robot.find("action:confirm") is not None, "the preview")
    result["preview"] = read_panel(robot)
    yield from confirm(robot, shots, size)
    yield from robot.wait_for(lambda: robot.find("bonus:0") is not None, "Bob's bonus prompt")
    yield from robot.frames(2)
    result["prompt"] = read_panel(robot)
    result["undo_whole"] = shown_whole(robot, "action:undo")
    question, first = robot.find("action:question"), robot.find("bonus:0")
    result["gap_above_answers"] = question.to_window(0, question.y)[1] - first.to_window(
        0, first.top)[1]
    yield from shot(robot, shots, "action-bonus-unknown-level", size)
    [tag] = [t for t, text in result["prompt"]["buttons"].items() if text.startswith("level 3")]
    yield from robot.tap(tag)
    yield from robot.wait_for(lambda: isinstance(robot.popup(), ValuePopup), "the value pop-up")
    yield from robot.frames(2)
    popup = robot.popup()
    result["asked"] = popup.question
    result["message"] = robot.app.screens.get_screen("action").message
    yield from shot(robot, shots, "action-bonus-level-value", size)
    yield from robot.tap("values:choice:points")
    yield from robot.wait_for(lambda: robot.popup() is not popup, "the keypad")
    keypad = robot.popup()
    yield from robot.tap_keys("2")
    yield from robot.tap("key:ok")
    yield from robot.wait_for(lambda: robot.popup() is not keypad, "the value pop-up again")
    yield from robot.frames(2)
    result["so_far"] = popup.so_far
    yield from robot.tap("values:choice:done")
    yield from robot.wait_for(lambda: robot.popup() is None, "the pop-up closed")
    yield from read_table(robot)
    result["after"] = result.pop("table")
    result["learned"] = {key: value for key, value in robot.app.session.state["learned"].items()
                         if key.startswith("diplomacy/")}


SCENARIOS = {"recruit": recruit, "bonus-value": bonus_value}

if __name__ == "__main__":
    sys.exit(run(SCENARIOS))
