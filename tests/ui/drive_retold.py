"""Driver: a game played in English, then German chosen in the settings, run in the real app
under Xvfb by tests/ui/test_retold_game.py: the 3-player draft example replayed into --db up to
Ann's income in round 8, the app started in English (--config).

    DISPLAY=:99 .venv/bin/python tests/ui/drive_retold.py switch --db /tmp/g.sqlite \
        --config /tmp/en.toml

Ann takes her income by touch (in English); Home, Settings, Deutsch, back to Home, Resume: the
table's Undo button and the step's texts are read; Undo tapped, read again; then the game's
details from Home, its log read. Prints `DRIVER-RESULT {...}` as its last stdout line.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive_play import take_income
from drive_settings import to_settings
from drive_table import read_table
from harness import Robot, Steps, run


def last_step(robot: Robot) -> list[str]:
    """The texts of the open game's last step, as the app holds them."""
    return [e["text"] for e in robot.app.session.game.game.steps[-1].events]


def on_screen(robot: Robot, name: str) -> Steps:
    yield from robot.wait_for(lambda: robot.app.screens.current == name, f"the {name} screen")
    yield from robot.frames(2)


def switch(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    result = robot.result
    yield from read_table(robot)
    result["start"] = result.pop("table")
    yield from robot.tap("table:income")
    yield from on_screen(robot, "income")
    yield from take_income(robot)
    yield from read_table(robot)
    result["english"] = {"undo": result.pop("table")["undo"], "step": last_step(robot)}
    yield from robot.tap("table:home")
    yield from on_screen(robot, "home")
    yield from to_settings(robot)
    yield from robot.tap("settings:language:de")
    yield from robot.frames(2)
    result["back"] = robot.text("settings:back")
    yield from robot.tap("settings:back")
    yield from on_screen(robot, "home")
    yield from robot.tap("home:resume")
    yield from read_table(robot)
    result["german"] = {"undo": result.pop("table")["undo"], "step": last_step(robot)}
    yield from robot.tap("table:undo")
    yield from robot.wait_for(lambda: robot.text("table:undo") != result["german"]["undo"],
                              "the step undone")
    yield from read_table(robot)
    result["undone"] = {"undo": result.pop("table")["undo"], "step": last_step(robot),
                        "active": robot.text("table:active")}
    yield from robot.tap("table:home")
    yield from on_screen(robot, "home")
    game_id = robot.app.session.game.id
    yield from robot.tap(f"past:{game_id}")
    yield from on_screen(robot, "past_game")
    yield from robot.tap("past:tab:log")
    yield from robot.frames(3)
    lines = robot.app.screens.current_screen._scroll.children[0].children
    result["log"] = [line.text for line in reversed(lines)]
    result["log_first"] = robot.text("past:log:0")


SCENARIOS = {"switch": switch}

if __name__ == "__main__":
    sys.exit(run(SCENARIOS))
