"""Driver: every screen of the app walked by touch and audited (tests/ui/screen_audit.py), run in
the real app under Xvfb by tests/ui/test_walk.py, in English and, with a config file whose
`[display]` says `language = "de"`, in German.

    DISPLAY=:99 .venv/bin/python tests/ui/drive_walk.py walk --db /tmp/g.sqlite \
        [--config /tmp/de.toml]

The robot audits the screen before every tap and at each stop: home with a finished game
(the 2-player example the test stored in --db), Settings, the catalogue (a ship, a Sector, a
Hub and a Diplomacy level), Statistics, the score calculator (its first screen, the rulebook
example's sheet, a player's page), the finished game's details (chart, log, players), then
drive_game.py's whole 3-player first game: every step of the setup wizard, ships of each kind
the game uses, values asked on the keypad, Diplomacy bonus prompts, income, the station, a
correction's keypad and note, to the score sheet. Any finding fails the walk (DriverError).
Prints `DRIVER-RESULT {...}` (the screens audited, the language) as its last stdout line.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import drive_game
from drive_catalogue import open_record
from drive_past import on_screen
from harness import Robot, Steps, run

# Catalogue records whose texts the walk reads: (kind, record, a tag shown once it is open).
RECORDS = (("ships", "L1-dismantle", "catalogue:title"),
           ("sectors", "321", "catalogue:title"),
           ("hubs", "A-7", "catalogue:title"),
           ("diplomacy", "level-0", "catalogue:title"))


def stop(robot: Robot, shots: Path | None, name: str) -> Steps:
    """Let the screen settle, then audit it; with a screenshot folder, save it there first
    ("walk-<name>-<size>.png", "-de-" in German) for a person to look at."""
    yield from robot.frames(3)
    if shots is not None:
        width, height = robot.result["size"]
        yield from robot.screenshot(shots / f"walk-{name}-{width}x{height}.png")
    robot.check_screen()


def catalogue(robot: Robot, shots: Path | None) -> Steps:
    """Each kind of catalogue record, opened and audited."""
    yield from robot.tap("home:catalogue")
    for kind, record, shown in RECORDS:
        yield from open_record(robot, kind, record, shown, f"{kind} {record}")
        yield from stop(robot, shots, f"catalogue-{kind}")
        yield from robot.tap("catalogue:back")
    yield from robot.tap("catalogue:back")
    yield from on_screen(robot, "home")


def calculator(robot: Robot, shots: Path | None) -> Steps:
    """The score calculator: its first screen, the rulebook example's sheet, a player's page."""
    yield from robot.tap("home:calculator")
    yield from robot.tap("start:example")
    yield from robot.wait_for(lambda: robot.find("score:table") is not None, "the score sheet")
    yield from stop(robot, shots, "calculator-sheet")
    yield from robot.tap("nav:edit")
    yield from stop(robot, shots, "calculator-player")
    yield from robot.tap("nav:start")
    yield from robot.tap("calculator:home")
    yield from on_screen(robot, "home")


def past_game(robot: Robot, shots: Path | None) -> Steps:
    """The finished game's details: the chart, its log, each player's summary."""
    yield from robot.tap(next(w.tag for w in robot.all(lambda t: t.startswith("past:"))))
    yield from on_screen(robot, "past_game")
    yield from stop(robot, shots, "past-game-chart")
    yield from robot.tap("past:tab:log")
    yield from stop(robot, shots, "past-game-log")
    yield from robot.tap("past:tab:players")
    yield from stop(robot, shots, "past-game-players")
    yield from robot.tap("past:home")
    yield from on_screen(robot, "home")


def walk(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Every screen, audited before each tap and at each stop."""
    from companion import i18n

    robot.audit_taps = True
    if i18n.language() == "de":
        drive_game.NOTE = "vom Brett abgelesen"  # a German table writes its note in German
    yield from on_screen(robot, "home")
    yield from stop(robot, shots, "home")
    yield from robot.tap("home:settings")
    yield from stop(robot, shots, "settings")
    yield from robot.tap("settings:back")
    yield from on_screen(robot, "home")
    yield from catalogue(robot, shots)
    yield from robot.tap("home:stats")
    yield from stop(robot, shots, "stats")
    yield from robot.tap("stats:home")
    yield from calculator(robot, shots)
    yield from past_game(robot, shots)
    yield from drive_game.play(robot)
    yield from stop(robot, shots, "end")
    robot.result["audited"] = sorted(robot.audited)
    robot.result["language"] = i18n.language()


SCENARIOS = {"walk": walk}

if __name__ == "__main__":
    sys.exit(run(SCENARIOS))
