"""Driver: a whole 3-player first game kept by touch alone, from home to the score sheet, and
kills on the setup and end screens; run in the real app under Xvfb by tests/ui/test_game.py.

    DISPLAY=:99 .venv/bin/python tests/ui/drive_game.py whole-game --db /tmp/g.sqlite

The game (checked command by command with the engine first): the setup of drive_setup.py (Ann,
Björn, Cäcilie; the Hubs' income values typed too), then
  1 Ann uses Björn's Farm L2 (cost and fee typed when asked)
  2 Björn lobbies on the Dismantle track (Diplomacy L1)      3 Cäcilie the same
  4 Ann takes income                                         5 Björn the neutral Diplomacy: level 2
  6 Cäcilie uses Ann's Diplomacy L1: level 2
  7 Ann dismantles her Transport L1: Björn and Cäcilie each choose their Diplomacy bonus;
    Ann's points are corrected to 40 with a long press and a note (as a table would correct a
    miscount; it shortens the game) and the table announces the final round
  8 Björn uses his Ice Collector L3 (the Confirm on the panel)  9 Cäcilie takes income: the end.
Every value the engine asks during play is typed on the keypad: 1.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import drive_setup
from drive_action import answer_value
from drive_play import read_sheet, take_income
from drive_table import read_table, shot
from harness import RESULT_PREFIX, Robot, Steps, run

from hardware.events import CONFIRM

# The Hub income values, typed in the setup's values step with the starting ones.
INCOME_VALUES = {"income_gems_per_ship": 1, "income_fixed_gems": 2}
ASKED_VALUE = "1"  # every value asked during play (a ship's cost or fee, a lobbying cost)
HOLD_S = 1.0  # a long press (the table's is 0.6 s)
NOTE = "counted off the board"  # the correction's note, as a player types it


def setup(robot: Robot) -> Steps:
    """Home -> New game -> the setup wizard, as drive_setup.py taps it (its screenshots are
    test_setup_screen.py's), to the table."""
    drive_setup.HUB_VALUES = {**drive_setup.HUB_VALUES, **INCOME_VALUES}
    yield from robot.tap("home:new")
    yield from drive_setup.three_player_first_game(robot, robot.result["size"], None)


def answer_values(robot: Robot) -> Steps:
    """Tap ASKED_VALUE on every card the engine's questions open (a keypad: typed), until
    none is open."""
    from companion.ui.kit.values import ValueCard

    yield from robot.frames(3)
    while (asked := robot.popup()) is not None and (isinstance(asked, ValueCard)
                                                    or robot.find("key:ok") is not None):
        yield from answer_value(robot, {"": ASKED_VALUE})
        yield from robot.frames(3)


def use_ship(robot: Robot, ship: str, *taps: str) -> Steps:
    """Tap a ship on the table, then the answers, then Confirm; answer any value asked (as
    soon as a choice needs it, or on Confirm)."""
    yield from robot.tap(f"ship:{ship}")
    yield from answer_values(robot)
    for tag in taps:
        yield from robot.tap(tag)
        yield from answer_values(robot)
    yield from robot.tap("action:confirm")
    yield from answer_values(robot)


def lobby(robot: Robot, ship: str) -> Steps:
    """A Diplomacy ship lobbying on the Dismantle track (its one track: Done is implied)."""
    yield from use_ship(robot, ship, "track:dismantle")


def next_turn(robot: Robot, name: str) -> Steps:
    """Next, then wait for `name`'s turn on the table."""
    yield from robot.wait_for(lambda: robot.app.screens.current == "table", "the table")
    yield from robot.tap("table:next")
    yield from robot.wait_for(lambda: robot.text("table:active") == name, f"{name}'s turn")


def long_press(robot: Robot, tag: str) -> Steps:
    """Hold a finger on the widget for HOLD_S."""
    from kivy.tests.common import UnitTestTouch

    yield from robot.wait_for(lambda: robot.find(tag) is not None, f"widget {tag!r}")
    yield from robot.frames(2)
    widget = robot.find(tag)
    touch = UnitTestTouch(*widget.to_window(*widget.center))
    touch.touch_down()
    held = time.monotonic() + HOLD_S
    while time.monotonic() < held:
        yield
    touch.touch_up()
    robot.taps += 1


def correct_points(robot: Robot, name: str, points: int, note: str) -> Steps:
    """A long press on a player's points, the new number, then the note."""
    yield from long_press(robot, f"points:{name}")
    yield from robot.wait_for(lambda: robot.popup() is not None, "the keypad")
    yield from robot.tap_keys(str(points))
    keypad = robot.popup()
    yield from robot.tap("key:ok")
    yield from robot.wait_for(lambda: robot.popup() not in (None, keypad), "the note")
    robot.result["note_title"] = robot.popup().title
    yield from robot.tap_keys(note)
    yield from robot.tap("key:ok")
    yield from robot.wait_for(lambda: robot.popup() is None, "the table")


def bonus_prompts(robot: Robot, choice: int) -> Steps:
    """Each waiting player's Diplomacy bonus: read, then choose."""
    yield from robot.wait_for(lambda: robot.find("bonus:0") is not None, "a bonus prompt")
    while robot.find("bonus:0") is not None:
        question = yield from robot.read("action:question")
        robot.result.setdefault("prompts", []).append(question)
        yield from robot.tap(f"bonus:{choice}")
        yield from robot.wait_for(lambda q=question: robot.text("action:question") != q,
                                  "the next prompt or the table")
        yield from robot.frames(2)


def record_lit(robot: Robot, name: str) -> list[list[str]]:
    """Every non-empty set of numbers `name`'s strip lights from now on, as it is shown."""
    strip = robot.find(f"counters:{name}")
    while not hasattr(strip, "lit"):
        strip = strip.parent
    shown: list[list[str]] = []
    strip.bind(lit=lambda _strip, lit: shown.append(list(lit)) if lit else None)
    return shown


def play(robot: Robot) -> Steps:
    """The game above, by touch, from home to the score sheet, read off the end screen."""
    from companion.ui.shell.panel_bridge import press  # Kivy is configured by now
    result = robot.result
    yield from setup(robot)
    yield from use_ship(robot, "Björn:L2-farm")
    yield from read_table(robot)
    result["after_farm"] = result["table"]
    yield from next_turn(robot, "Björn")
    yield from lobby(robot, "Björn:L1-diplomacy")
    yield from next_turn(robot, "Cäcilie")
    yield from lobby(robot, "Cäcilie:L1-diplomacy")
    yield from next_turn(robot, "Ann")
    yield from robot.tap("table:income")
    result["income"] = yield from robot.read("income:line:0")
    yield from take_income(robot)
    yield from next_turn(robot, "Björn")
    yield from lobby(robot, "neutral:diplomacy")
    yield from next_turn(robot, "Cäcilie")
    yield from lobby(robot, "Ann:L1-diplomacy")
    yield from next_turn(robot, "Ann")
    lit = record_lit(robot, "Björn")  # the highlight lasts a moment: watch it, not one frame
    yield from use_ship(robot, "Ann:L1-dismantle", "target:Ann:L1-transport")
    yield from bonus_prompts(robot, 1)
    yield from read_table(robot)
    result["after_bonuses"] = result["table"]
    yield from robot.wait_for(lambda: lit, "a number lit on Björn's strip")
    result["lit"] = sorted({counter for shown in lit for counter in shown})
    yield from robot.tap("table:station")
    result["station"] = yield from robot.read("station:title")
    yield from robot.tap("station:back")
    yield from correct_points(robot, "Ann", 40, NOTE)
    yield from next_turn(robot, "Björn")
    yield from read_table(robot)
    result["final_round"] = result["table"]["end"]
    yield from robot.tap("ship:Björn:L3-ice_collector")
    yield from answer_values(robot)  # what the ship prints, asked as it is chosen
    press(robot.app, CONFIRM)  # the button panel's Confirm: the action screen's confirm()
    yield from answer_values(robot)
    yield from next_turn(robot, "Cäcilie")
    yield from robot.tap("table:income")
    yield from take_income(robot)
    yield from robot.tap("table:next")
    yield from robot.wait_for(lambda: robot.app.screens.current == "end", "the end screen")
    result["sheet"] = yield from read_sheet(robot)


def whole_game(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """The game above, by touch, to the score sheet; then a kill."""
    yield from play(robot)
    yield from shot(robot, shots, "game-end", size)
    yield from kill(robot)


def kill(robot: Robot) -> Steps:
    """Report what was read, then die without warning (SIGKILL), as on a power cut."""
    yield from robot.frames(2)
    robot.result.update(ok=True, screen=robot.app.screens.current,
                        state=robot.app.session.state, taps=robot.taps)
    sys.stdout.write(RESULT_PREFIX + json.dumps(robot.result) + "\n")
    sys.stdout.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def setup_then_kill(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """The setup wizard as far as the first-game sets (the Sector display confirmed), then a
    kill."""
    for step in setup(robot):
        yield step
        if robot.text("setup:title").startswith("First game: which set"):
            break
    robot.result["title"] = yield from robot.read("setup:title")
    yield from kill(robot)


def relaunched(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """After a kill: the screen the app came back to, what it shows, and the game's state."""
    yield from robot.wait_for(lambda: robot.app.screens.current != "home"
                              or robot.find("home:new") is not None, "the first screen")
    yield from robot.frames(3)
    screen = robot.app.screens.current
    robot.result["screen"] = screen
    if screen == "setup":
        robot.result["title"] = yield from robot.read("setup:title")
    elif screen == "end":
        robot.result["sheet"] = yield from read_sheet(robot)
    session = robot.app.session
    robot.result["state"] = session.state if session.game is not None else None


SCENARIOS = {"whole-game": whole_game, "setup-then-kill": setup_then_kill,
             "relaunched": relaunched}

if __name__ == "__main__":
    sys.exit(run(SCENARIOS))
