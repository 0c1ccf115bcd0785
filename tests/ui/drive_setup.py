"""Driver: the setup wizard's scenarios, run in the real app under Xvfb by
tests/ui/test_setup_screen.py.

    DISPLAY=:99 .venv/bin/python tests/ui/drive_setup.py three-player-first-game --size 800x480

prints `DRIVER-RESULT {...}` (what was read on screen) as its last stdout line.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Robot, Steps, run

from companion.catalogue_files import load_catalogue

NAMES = ("Ann", "Björn", "Cäcilie")  # typed on a USB keyboard
ALIENS = {"teal": 18, "pink": 17, "brown": 18, "gold": 17}
HUB_VALUES = {"starting_gems": 8, "starting_food": 2, "starting_water": 2, "starting_metal": 3}


def first_game_display(players: int) -> list[int]:
    """The Sectors a table draws: stack by stack, numbers ending 1-4 (TEST choice)."""
    sectors = load_catalogue().sectors
    stacks = sorted({s.stack for s in sectors.values()})
    numbers = []
    for stack in stacks:
        numbers += [n for n, s in sorted(sectors.items())
                    if s.stack == stack and n % 10 in (1, 2, 3, 4)][:players]
    return numbers


def keypad(robot: Robot, tag: str, number: int) -> Steps:
    """Open the keypad with a tap on `tag` (None: it is open already) and type a number."""
    if tag:
        yield from robot.tap(tag)
    yield from robot.wait_for(lambda: robot.popup() is not None, "the keypad")
    yield from robot.tap_keys(str(number))
    yield from robot.tap("key:ok")


def shot(robot: Robot, shots: Path | None, name: str, size: tuple[int, int]) -> Steps:
    """A screenshot named after the window size, when a screenshot folder was given."""
    if shots is not None:
        yield from robot.screenshot(shots / f"{name}-{size[0]}x{size[1]}.png")


def read_lines(robot: Robot, count: int) -> Steps:
    """The step's first `count` lines of text."""
    lines = []
    for number in range(count):
        lines.append((yield from robot.read(f"setup:line:{number}")))
    return lines


def lay_out(robot: Robot, aliens: dict[str, int] = ALIENS) -> Steps:
    """The lay-out step: its three lines read, the Aliens drawn typed on the keypad, Next;
    returns (the lines, the count the screen shows)."""
    lines = yield from read_lines(robot, 3)
    for color, count in aliens.items():
        yield from keypad(robot, f"setup:aliens:{color}", count)
    counted = yield from robot.read("setup:counted")
    yield from robot.tap("setup:next")
    return lines, counted


def three_player_first_game(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    result = robot.result
    for index, name in enumerate(NAMES):
        yield from robot.wait_for(lambda i=index: robot.find(f"setup:name:{i}"), "a name field")
        robot.find(f"setup:name:{index}").text = name
    yield from robot.tap("setup:color:0:blue")  # Ann takes blue; player 2 gets her red
    result["players_title"] = robot.text("setup:title")
    yield from shot(robot, shots, "setup-players", size)
    yield from robot.tap("setup:next")
    yield from robot.tap("setup:option:first_game")
    yield from robot.tap("setup:next")
    result["lay_out"], result["counted"] = yield from lay_out(robot)
    yield from robot.wait_for(lambda: robot.find("setup:keypad"), "the Sector display")
    result["display_title"] = robot.text("setup:title")
    yield from shot(robot, shots, "setup-display", size)
    yield from robot.tap("setup:keypad")
    yield from keypad(robot, "", 101)  # a Level-1 teal Sector, while brown is asked
    yield from robot.wait_for(lambda: robot.text("keypad:message"), "the keypad's message")
    result["wrong_stack"] = robot.text("keypad:message")
    yield from robot.tap("key:clear")
    for number in first_game_display(len(NAMES)):
        yield from robot.wait_for(lambda: robot.popup() is not None, "the keypad")
        yield from robot.tap_keys(str(number))
        yield from robot.tap("key:ok")
        yield from robot.frames(3)
    result["sets_title"] = yield from robot.read("setup:title")
    for number in (1, 2, 3):
        yield from robot.tap(f"setup:choice:{number}")
    yield from robot.wait_for(lambda: robot.find("values:title"), "the values step's first card")
    yield from shot(robot, shots, "setup-values", size)
    for hub in ("B-1", "B-2", "B-3"):
        yield from robot.wait_for(lambda h=hub: robot.text("values:title") == f"Hub {h}",
                                  f"Hub {hub}'s card")
        result.setdefault("cards", []).append(
            [robot.text("values:title"), robot.text("values:progress")])
        if hub == "B-2":  # Back: Hub B-1's card again, as it was tapped
            yield from robot.tap("values:back")
            yield from robot.wait_for(lambda: robot.text("values:title") == "Hub B-1", "B-1")
            result["kept"] = [robot.text(f"values:{f}:{v}") for f, v in HUB_VALUES.items()]
            yield from robot.tap("values:skip")
            yield from robot.wait_for(lambda: robot.text("values:title") == "Hub B-2", "B-2")
        taps, card = robot.taps, robot.popup()
        for field, value in HUB_VALUES.items():
            if robot.find(f"values:{field}:{value}") is not None:  # still asked
                yield from robot.tap(f"values:{field}:{value}")
        if hub == "B-1":
            yield from robot.tap("values:track:transport")  # a step printed on a track
            result["track"] = yield from robot.read("values:track:transport")
            yield from shot(robot, shots, "setup-value-entry", size)
            for _ in range(3):  # round to none: nothing printed on a track after all
                yield from robot.tap("values:track:transport")
        yield from robot.tap("values:free:0")  # no free choice
        yield from robot.frames(2)
        if robot.popup() is card or hub == "B-3":  # not complete, or the Sectors' card next
            yield from robot.tap("values:skip" if hub != "B-3" else "values:later")
        result.setdefault("card_taps", []).append(robot.taps - taps)
    yield from robot.wait_for(lambda: robot.popup() is None, "the starting bonuses")
    result["bonus_titles"] = []
    for _ in NAMES:
        result["bonus_titles"].append((yield from robot.read("setup:title")))
        yield from robot.tap("setup:next")
    result["start"] = yield from read_lines(robot, 4)
    yield from shot(robot, shots, "setup-start", size)
    yield from robot.tap("setup:next")
    yield from robot.wait_for(lambda: robot.app.screens.current == "table", "the table")
    result["screen"] = robot.app.screens.current
    result["phase"] = robot.app.session.state["phase"]
    result["hubs_learned"] = {key.split("/")[2]: value for key, value
                              in robot.app.session.state["learned"].items()
                              if key.startswith("hubs/B-2/")}


class Criticals(logging.Handler):
    """Kivy's CRITICAL log records, from the app's start (Kivy logs through Python's logging
    as "kivy"; a text field may be focused before a scenario begins)."""

    def __init__(self) -> None:
        super().__init__(logging.CRITICAL)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


CRITICALS = Criticals()
logging.getLogger("kivy").addHandler(CRITICALS)


def copy_a_name(robot: Robot, **_: Any) -> Steps:
    """A name typed, selected, copied and pasted into the next field, as a keyboard's Ctrl+C and
    Ctrl+V would; none of Kivy's records is CRITICAL meanwhile (as when the app started)."""
    yield from robot.wait_for(lambda: robot.find("setup:name:1"), "the name fields")
    first, second = robot.find("setup:name:0"), robot.find("setup:name:1")
    first.focus = True
    yield from robot.frames()
    first.text = NAMES[0]
    first.select_all()
    first.copy()
    second.focus = True
    second.text = ""
    yield from robot.frames()
    second.paste()
    yield from robot.frames()
    robot.result.update(pasted=second.text, criticals=CRITICALS.messages)


SCENARIOS: dict[str, Any] = {"three-player-first-game": three_player_first_game,
                             "copy-a-name": copy_a_name}

if __name__ == "__main__":
    sys.exit(run(SCENARIOS, start="setup"))
