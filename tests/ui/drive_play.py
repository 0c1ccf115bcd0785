"""Driver: income, the station view, an adjustment and the end screen, run in the real app
under Xvfb by tests/ui/test_play.py (the demo game, or an example replayed into --db).

    DISPLAY=:99 .venv/bin/python tests/ui/drive_play.py income --demo --size 800x480
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive_table import read_table, shot
from harness import Robot, Steps, run

from companion.ui.kit.colors import contrast


def lines(robot: Robot, prefix: str) -> list[str]:
    """The texts of the widgets tagged `prefix` + a number, in the number's order."""
    found = robot.all(lambda t: t.startswith(prefix) and t[len(prefix):].isdigit())
    return [robot.text(w.tag) for w in sorted(found, key=lambda w: int(w.tag[len(prefix):]))]


def to_turn_of(robot: Robot, name: str) -> Steps:
    """Tap Next until it is `name`'s turn."""
    yield from robot.tap("table:next")
    yield from robot.wait_for(lambda: robot.text("table:active") == name, f"{name}'s turn")


def take_income(robot: Robot) -> Steps:
    """Confirm the income screen and wait for the table."""
    yield from robot.tap("income:confirm")
    yield from robot.wait_for(lambda: robot.app.screens.current == "table", "the table")


def income(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """The demo: Ann's plain income; Bob takes Hub A-7's Diplomacy action during income;
    Cat moves a resident (1 GEM)."""
    yield from robot.tap("bonus:0")
    yield from to_turn_of(robot, "Ann")
    yield from robot.tap("table:income")
    yield from take_income(robot)
    yield from to_turn_of(robot, "Bob")
    yield from robot.tap("table:income")
    yield from robot.tap("power:A-7")
    yield from robot.tap("power:A-7:construction")
    robot.result["bob"] = {"receipt": lines(robot, "income:line:"),
                           "preview": lines(robot, "preview:")}
    yield from shot(robot, shots, "income", size)
    yield from take_income(robot)
    yield from read_table(robot)
    robot.result["after_bob"] = robot.result["table"]
    yield from to_turn_of(robot, "Cat")
    yield from robot.tap("table:income")
    robot.result["moves"] = lines(robot, "relocate:")
    yield from robot.tap("relocate:0")
    robot.result["cat"] = {"receipt": lines(robot, "income:line:"),
                           "preview": lines(robot, "preview:")}
    yield from take_income(robot)
    yield from read_table(robot)


def end(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """The 2-player example one step before its end: the table announces the final round; Next
    ends the game and shows the score sheet; home opens the finished game's sheet again."""
    yield from read_table(robot)
    yield from shot(robot, shots, "table-final-round", size)
    yield from robot.tap("table:next")
    yield from robot.wait_for(lambda: robot.app.screens.current == "end", "the end screen")
    robot.result["sheet"] = yield from read_sheet(robot)
    yield from shot(robot, shots, "end", size)
    yield from robot.tap("end:home")
    yield from robot.tap(next(w.tag for w in robot.all(lambda t: t.startswith("game:"))))
    yield from robot.wait_for(lambda: robot.app.screens.current == "end", "the end screen")
    robot.result["again"] = yield from read_sheet(robot)


def read_sheet(robot: Robot) -> Steps:
    """The end screen's winner, totals (and their font size) and the first row."""
    yield from robot.frames(2)
    names = [w.tag.split(":", 2)[2] for w in robot.all(lambda t: t.startswith("end:name:"))]
    return {"winner": robot.text("end:winner"),
            "winner_px": robot.find("end:winner").font_size,
            "tiebreak": robot.text("end:tiebreak"),
            "totals": {name: robot.text(f"end:total:{name}") for name in names},
            "total_px": robot.find(f"end:total:{names[0]}").font_size,
            "header_contrast": {name: contrast(robot.find(f"end:name:{name}").color,
                                               robot.find(f"end:name:{name}").bg)
                                for name in names},
            "track": {name: robot.text(f"end:0:{name}") for name in names}}


def station_and_adjust(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """The demo at Cat's turn 9: her name plate opens her station (Sector 121's two pink
    residents placed this turn); her GEMs corrected from 1 to 5 with a note."""
    yield from robot.tap("bonus:0")
    yield from robot.tap("name:Cat")
    yield from robot.wait_for(lambda: robot.find("resident:121:0") is not None, "the station")
    yield from robot.frames(2)
    dots = robot.all(lambda t: t.startswith("resident:"))
    robot.result["station"] = {
        "title": robot.text("station:title"),
        "wings": [w.tag for w in robot.all(lambda t: t.startswith("wing:"))],
        "residents": sorted((d.tag, d.letter, d.active) for d in dots),
        "ink": list(robot.find("resident:121:0").ink),
        "fill": list(robot.find("resident:121:0").fill)}
    yield from shot(robot, shots, "station", size)
    yield from robot.tap("adjust:Cat:gems")
    yield from robot.tap_keys("5")
    yield from shot(robot, shots, "adjust", size)
    yield from robot.tap("key:ok")
    yield from robot.wait_for(lambda: "Why" in str(getattr(robot.popup(), "title", "")),
                              "the note")
    robot.result["note_title"] = robot.popup().title
    yield from robot.tap("key:ok")  # no note yet: refused
    robot.result["no_note"] = robot.popup().message
    yield from robot.tap_keys("gem under board")
    yield from robot.tap("key:ok")
    yield from robot.wait_for(lambda: robot.popup() is None, "the station")
    robot.result["gems"] = yield from robot.read("adjust:Cat:gems")
    yield from robot.tap("station:back")
    yield from read_table(robot)


SCENARIOS = {
    "station-adjust": station_and_adjust,
    "income": income,
    "end": end,
}

if __name__ == "__main__":
    sys.exit(run(SCENARIOS))
