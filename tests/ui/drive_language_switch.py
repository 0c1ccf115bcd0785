"""Driver: a game played in English, then German chosen in the settings and English again, run in
the real app under Xvfb by tests/ui/test_language_switch.py: the 3-player draft example replayed
into --db up to Ann's income in round 8, the app started in English (--config).

    DISPLAY=:99 .venv/bin/python tests/ui/drive_language_switch.py switch --db /tmp/g.sqlite \
        --config /tmp/en.toml

Ann takes her income by touch (in English); Home, Settings, Deutsch, back to Home, Resume: the
table's Undo button and the step's words are read; Undo tapped, read again; then the game's
details from Home, its log read; then Settings, English, and the log read again. Every call of
the engine's Game.perform is counted from the switch to German on (a change of language replays
nothing; only the Undo tapped plays). Prints `DRIVER-RESULT {...}` as its last stdout line.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive_play import take_income
from drive_settings import to_settings
from drive_table import read_table
from harness import Robot, Steps, run

from companion.rules.game import Game
from companion.rules.message import event_text

PERFORMED: list[str] = []  # the commands Game.perform was called with, once counting
_perform = Game.perform


def counted(self: Game, command: dict) -> tuple:
    PERFORMED.append(command.get("cmd"))
    return _perform(self, command)


def last_step(robot: Robot) -> list[str]:
    """The words of the open game's last step, in the language spoken now."""
    return [event_text(e) for e in robot.app.session.game.game.steps[-1].events]


def on_screen(robot: Robot, name: str) -> Steps:
    yield from robot.wait_for(lambda: robot.app.screens.current == name, f"the {name} screen")
    yield from robot.frames(2)


def choose_language(robot: Robot, code: str) -> Steps:
    """From Home: Settings, the language, back to Home."""
    yield from to_settings(robot)
    yield from robot.tap(f"settings:language:{code}")
    yield from robot.frames(2)
    robot.result.setdefault("back", []).append(robot.text("settings:back"))
    yield from robot.tap("settings:back")
    yield from on_screen(robot, "home")


def read_log(robot: Robot, game_id: int) -> Steps:
    """The game's details from Home, its log tab: every line."""
    yield from robot.tap(f"past:{game_id}")
    yield from on_screen(robot, "past_game")
    yield from robot.tap("past:tab:log")
    yield from robot.frames(3)
    lines = robot.app.screens.current_screen._scroll.children[0].children
    robot.result["logs"].append({"lines": [line.text for line in reversed(lines)],
                                 "first": robot.text("past:log:0")})


def switch(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    result = robot.result
    result["logs"] = []
    yield from read_table(robot)
    result["start"] = result.pop("table")
    yield from robot.tap("table:income")
    yield from on_screen(robot, "income")
    yield from take_income(robot)
    yield from read_table(robot)
    result["english"] = {"undo": result.pop("table")["undo"], "step": last_step(robot)}
    events = copy.deepcopy(robot.app.session.game.game.steps[-1].events)
    Game.perform = counted
    yield from robot.tap("table:home")
    yield from on_screen(robot, "home")
    yield from choose_language(robot, "de")
    yield from robot.tap("home:resume")
    yield from read_table(robot)
    result["german"] = {"undo": result.pop("table")["undo"], "step": last_step(robot)}
    result["same_events"] = robot.app.session.game.game.steps[-1].events == events
    result["performed_before_undo"] = list(PERFORMED)
    yield from robot.tap("table:undo")
    yield from robot.wait_for(lambda: robot.text("table:undo") != result["german"]["undo"],
                              "the step undone")
    yield from read_table(robot)
    result["undone"] = {"undo": result.pop("table")["undo"], "step": last_step(robot),
                        "active": robot.text("table:active")}
    yield from robot.tap("table:home")
    yield from on_screen(robot, "home")
    game_id = robot.app.session.game.id
    yield from read_log(robot, game_id)
    yield from robot.tap("past:home")
    yield from on_screen(robot, "home")
    yield from choose_language(robot, "en")
    yield from read_log(robot, game_id)
    result["performed"] = list(PERFORMED)


SCENARIOS = {"switch": switch}

if __name__ == "__main__":
    sys.exit(run(SCENARIOS))
