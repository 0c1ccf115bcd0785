"""Driver: the table app's scenarios (home, the table, actions, undo, a kill and a relaunch), run
in the real app under Xvfb by tests/ui/test_table.py.

    DISPLAY=:99 .venv/bin/python tests/ui/drive_table.py demo-table --demo --size 800x480

prints `DRIVER-RESULT {...}` (what was read on screen) as its last stdout line.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import RESULT_PREFIX, Robot, Steps, run


def shot(robot: Robot, shots: Path | None, name: str, size: tuple[int, int]) -> Steps:
    """A screenshot named after the window size, when a screenshot folder was given."""
    if shots is not None:
        yield from robot.screenshot(shots / f"{name}-{size[0]}x{size[1]}.png")


def texts(robot: Robot, prefix: str) -> list[str]:
    """What every visible widget whose tag starts with `prefix` shows."""
    return [robot.text(w.tag) for w in robot.all(lambda t: t.startswith(prefix))]


def counter_lines(robot: Robot) -> dict[str, list]:
    """How each player's counter on the table is laid out, as {tag: [lines, the words laid
    out, the words it shows]}: one line with all its words when it fits its slot."""
    found = {}
    for widget in robot.all(lambda t: t.startswith("counter:")):
        lines = widget._label._cached_lines if widget._label is not None else []
        laid_out = " ".join(word.text for line in lines for word in line.words)
        found[widget.tag] = [len(lines), " ".join(laid_out.split()), robot.text(widget.tag)]
    return found


def read_table(robot: Robot) -> Steps:
    """Wait for the table and read whose turn it is, every player's numbers and the strips."""
    yield from robot.wait_for(lambda: robot.find("table:active") is not None, "the table")
    yield from robot.frames(2)
    names = [w.tag.split(":", 1)[1] for w in robot.all(lambda t: t.startswith("counters:"))]
    robot.result["table"] = {
        "active": robot.text("table:active"),
        "heading": robot.text("table:heading"),
        "undo": robot.text("table:undo"),
        "supply": robot.text("table:supply"),
        "end": robot.text("table:end"),
        "demo": robot.text("table:demo"),
        "screen": robot.app.screens.current,
        "players": {name: {"counters": robot.text(f"counters:{name}"),
                           "points": robot.text(f"points:{name}"),
                           "diplomacy": robot.text(f"diplomacy:{name}")} for name in names},
        "ships": sorted(w.tag for w in robot.all(lambda t: t.startswith("ship:"))),
    }


def engine_player(robot: Robot, index: int) -> dict:
    """A player as the engine holds them, to compare with the screen: GEMs, resources and
    points, and each Sector's residents."""
    me = robot.app.session.state["players"][index]
    return {"counters": {k: me[k] for k in ("gems", "food", "water", "metal", "points")},
            "sectors": {str(s["number"]): s["residents"] for s in me["sectors"]}}


def read_prompt(robot: Robot) -> Steps:
    """Wait for a Diplomacy bonus prompt and read its question and choices."""
    yield from robot.wait_for(lambda: robot.find("bonus:0") is not None, "a bonus prompt")
    yield from robot.frames(2)
    return {"question": robot.text("action:question"),
            "choices": texts(robot, "bonus:"),
            "screen": robot.app.screens.current}


def to_bobs_turn(robot: Robot) -> Steps:
    """From the demo's start: Bob takes 1 GEM, Cat's turn ends, Ann takes income, Next."""
    yield from robot.tap("bonus:0")
    yield from robot.tap("table:next")
    yield from robot.wait_for(lambda: robot.text("table:active") == "Ann", "Ann's turn")
    yield from robot.tap("table:income")
    yield from robot.tap("income:confirm")
    yield from robot.wait_for(lambda: robot.text("table:undo").startswith("Undo: Ann"),
                              "Ann's income")
    yield from robot.tap("table:next")
    yield from robot.wait_for(lambda: robot.text("table:active") == "Bob", "Bob's turn")


def demo_table(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """`--demo`: the example game part-way through; Bob's Diplomacy bonus waits, then the
    table."""
    robot.result["prompt"] = yield from read_prompt(robot)
    yield from shot(robot, shots, "action-diplomacy-bonus", size)
    yield from robot.tap("bonus:1")
    yield from read_table(robot)
    robot.result["counter_lines"] = counter_lines(robot)
    yield from shot(robot, shots, "table", size)


def unusable_ship(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Tapping a ship that cannot be used now says why, in one line."""
    yield from robot.tap("bonus:0")
    yield from robot.tap("table:next")
    yield from robot.wait_for(lambda: robot.text("table:active") == "Ann", "Ann's turn")
    yield from robot.tap("ship:Ann:L1-diplomacy")
    robot.result["message"] = yield from robot.read("table:message")
    robot.result["screen"] = robot.app.screens.current
    yield from shot(robot, shots, "table-unusable-ship", size)


def diplomacy_ship_and_undo(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Income for Ann; Bob lobbies with his Diplomacy ship; then three steps undone."""
    yield from to_bobs_turn(robot)
    yield from read_table(robot)
    robot.result["before"] = robot.result["table"]
    yield from robot.tap("ship:Bob:L3-diplomacy")
    robot.result["question"] = yield from robot.read("action:question")
    robot.result["tracks"] = texts(robot, "track:")
    yield from shot(robot, shots, "action-diplomacy-ship", size)
    yield from robot.tap("track:dismantle")
    yield from robot.tap("action:done")
    yield from robot.tap("action:confirm")
    yield from robot.wait_for(lambda: robot.app.screens.current == "table", "the table")
    yield from read_table(robot)
    robot.result["after"] = robot.result["table"]
    undone = []
    for _ in range(3):
        undone.append(robot.text("table:undo"))
        yield from robot.tap("table:undo")
        yield from robot.wait_for(lambda: robot.text("table:undo") != undone[-1], "the undo")
    robot.result["undone"] = undone
    yield from read_table(robot)
    robot.result["after_undo"] = robot.result["table"]


def home_resume(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Home lists the game and resumes it in one tap."""
    yield from robot.tap("bonus:0")
    yield from robot.tap("table:home")
    robot.result["resume"] = yield from robot.read("home:resume")
    robot.result["games"] = texts(robot, "game:")
    yield from shot(robot, shots, "home", size)
    yield from robot.tap("home:resume")
    yield from read_table(robot)


def no_stale_message(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """A refusal on one game's table, then another game opened from home: its table starts
    with no message from the last."""
    yield from read_table(robot)
    yield from robot.tap("table:next")  # nothing done yet this turn: refused, said why
    robot.result["refused"] = yield from robot.read("table:message")
    robot.result["first_game"] = robot.app.session.game.id
    yield from robot.tap("table:home")
    other = next(w.tag for w in robot.all(lambda t: t.startswith("game:"))
                 if w.tag != f"game:{robot.result['first_game']}")
    yield from robot.tap(other)
    yield from read_table(robot)
    robot.result["second_game"] = robot.app.session.game.id
    robot.result["message"] = robot.text("table:message")


def play_then_kill(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Play on to Bob's turn, then the process is killed (SIGKILL) with no warning."""
    yield from to_bobs_turn(robot)
    yield from read_table(robot)
    robot.result.update(ok=True, state=robot.app.session.state)
    sys.stdout.write(RESULT_PREFIX + json.dumps(robot.result) + "\n")
    sys.stdout.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def relaunched(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """After the kill: the screen and state it came back to."""
    yield from read_table(robot)
    robot.result["state"] = robot.app.session.state


def fullscreen(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """`--fullscreen` without a window manager: the window is the display's size."""
    yield from robot.wait_for(lambda: robot.find("home:new") is not None, "home")


SCENARIOS = {
    "demo-table": demo_table,
    "unusable-ship": unusable_ship,
    "diplomacy-ship-and-undo": diplomacy_ship_and_undo,
    "home-resume": home_resume,
    "no-stale-message": no_stale_message,
    "play-then-kill": play_then_kill,
    "relaunched": relaunched,
    "fullscreen": fullscreen,
}

if __name__ == "__main__":
    sys.exit(run(SCENARIOS))
