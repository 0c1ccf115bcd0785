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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import RESULT_PREFIX, Robot, Steps, plain, run


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


def rect(widget: Any) -> list[float]:
    """A widget's place in the window: [left, bottom, width, height]."""
    x, y = widget.to_window(*widget.pos)
    return [round(x, 1), round(y, 1), round(widget.width, 1), round(widget.height, 1)]


def scrolled(widget: Any) -> bool:
    """True when the widget is inside a ScrollView (it may be out of view)."""
    from kivy.uix.scrollview import ScrollView

    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        if isinstance(parent, ScrollView):
            return True
        parent = parent.parent
    return False


def whole(widget: Any) -> bool:
    """True when a label's words are all laid out (none cut off or dropped) inside its height."""
    widget.texture_update()
    lines = widget._label._cached_lines if widget._label is not None else []
    laid_out = " ".join(word.text for line in lines for word in line.words)
    shown = " ".join(plain(widget.text).split())
    return " ".join(laid_out.split()) == shown and widget.texture_size[1] <= widget.height + 1


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


def four_players(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """A 4-player game dealt the most ships a game can have (11, 10, 10 and 9, and the five
    neutral ones): where every ship tile and button of the table is, read off the screen."""
    yield from read_table(robot)
    controls = ("table:home", "table:undo", "table:redo", "table:next", "table:station",
                "table:income")
    robot.result["places"] = {w.tag: rect(w) for w in robot.all(
        lambda t: t.startswith("ship:") or t in controls or t.startswith("name:"))}
    robot.result["scrolled"] = sorted(w.tag for w in robot.all(lambda t: t.startswith("ship:"))
                                      if scrolled(w))
    robot.result["ship_ids"] = sorted(robot.app.session.state["ships"])
    robot.result["cut_off"] = sorted(w.tag for w in robot.all(lambda t: t.startswith("ship:"))
                                     if not whole(w))
    yield from shot(robot, shots, "table-four-players", size)


def swipe_and_plate(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """A finger that lands on a ship and swipes 60 px sideways starts nothing; a tap on the same
    ship opens its action; a tap on the points half of a name plate opens that player's
    station."""
    from kivy.tests.common import UnitTestTouch

    yield from read_table(robot)
    tile = robot.find("ship:Ann:L1-transport")
    x, y = tile.to_window(*tile.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    yield
    for step in range(1, 7):
        touch.touch_move(x + 10 * step, y)
        yield
    touch.touch_up()
    yield from robot.frames(4)
    robot.result["after_swipe"] = {"screen": robot.app.screens.current,
                                   "message": robot.text("table:message")}
    yield from robot.tap("ship:Ann:L1-transport")
    yield from robot.wait_for(lambda: robot.app.screens.current == "action", "the action")
    yield from robot.frames(4)
    if robot.popup() is not None:  # the ship's cost, unknown here, asked as it is chosen
        yield from robot.tap("values:cancel")
        yield from robot.wait_for(lambda: robot.popup() is None, "the card closed")
    robot.result["after_tap"] = {"screen": robot.app.screens.current,
                                 "question": robot.text("action:question")}
    if robot.app.screens.current == "action":
        yield from robot.tap("action:back-to-table")
    yield from robot.wait_for(lambda: robot.app.screens.current == "table", "the table")
    yield from robot.tap("points:Bob")
    yield from robot.wait_for(lambda: robot.app.screens.current == "station", "a station")
    robot.result["plate"] = robot.text("station:title")


def steps_shown(robot: Robot) -> Steps:
    """The Undo and Redo buttons of the screen shown: their words ("" when disabled: nothing to
    take back or bring back) and whether every word is laid out in its place."""
    screen = robot.app.screens.current
    yield from robot.frames(3)
    shown = {}
    for button in ("undo", "redo"):
        widget = robot.find(f"{screen}:{button}")
        shown[button] = robot.text(widget.tag) if widget is not None else ""
        shown[f"{button}_whole"] = widget is None or whole(widget)
    return {"screen": screen, **shown}


def take_step(robot: Robot, button: str) -> Steps:
    """Tap Undo or Redo on the screen shown, and wait until the game moved."""
    before = len(robot.app.session.game.game.steps)
    yield from robot.tap(f"{robot.app.screens.current}:{button}")
    yield from robot.wait_for(lambda: len(robot.app.session.game.game.steps) != before,
                              f"the {button}")
    yield from robot.frames(2)


def undo_redo(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """`--demo`: Bob's bonus, Next, Ann's income; three Undos (back to Bob's bonus prompt),
    then Redo from the bonus prompt, the income screen and Ann's station, each naming its
    step; the state read before and after."""
    yield from robot.tap("bonus:1")
    yield from robot.tap("table:next")
    yield from robot.wait_for(lambda: robot.text("table:active") == "Ann", "Ann's turn")
    yield from robot.tap("table:income")
    yield from robot.tap("income:confirm")
    yield from robot.wait_for(lambda: robot.app.screens.current == "table", "the table")
    before = json.loads(json.dumps(robot.app.session.state))
    seen = [(yield from steps_shown(robot))]
    for _ in range(3):
        yield from take_step(robot, "undo")
        seen.append((yield from steps_shown(robot)))
    yield from shot(robot, shots, "action-redo", size)
    yield from take_step(robot, "redo")  # from the bonus prompt (the action screen)
    yield from robot.wait_for(lambda: robot.app.screens.current == "table", "the table")
    seen.append((yield from steps_shown(robot)))
    yield from robot.tap("table:income")  # Cat has acted: no income, but Redo is there
    yield from robot.wait_for(lambda: robot.app.screens.current == "income", "income")
    seen.append((yield from steps_shown(robot)))
    yield from shot(robot, shots, "income-redo", size)
    yield from take_step(robot, "redo")
    yield from robot.wait_for(lambda: robot.app.screens.current == "table", "the table")
    yield from robot.tap("table:station")
    yield from robot.wait_for(lambda: robot.app.screens.current == "station", "a station")
    seen.append((yield from steps_shown(robot)))
    yield from shot(robot, shots, "station-redo", size)
    yield from take_step(robot, "redo")
    yield from robot.wait_for(lambda: robot.app.screens.current == "table", "the table")
    seen.append((yield from steps_shown(robot)))
    yield from shot(robot, shots, "table-redone", size)
    robot.result["seen"] = seen
    robot.result["same_state"] = json.loads(json.dumps(robot.app.session.state)) == before


SCENARIOS = {
    "demo-table": demo_table,
    "unusable-ship": unusable_ship,
    "diplomacy-ship-and-undo": diplomacy_ship_and_undo,
    "home-resume": home_resume,
    "no-stale-message": no_stale_message,
    "play-then-kill": play_then_kill,
    "relaunched": relaunched,
    "fullscreen": fullscreen,
    "four-players": four_players,
    "swipe-and-plate": swipe_and_plate,
    "undo-redo": undo_redo,
}

if __name__ == "__main__":
    sys.exit(run(SCENARIOS))
