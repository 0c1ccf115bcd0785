"""Driver: the score calculator scenarios, run in the real app under Xvfb by tests/ui/test_*.py.

    DISPLAY=:99 .venv/bin/python tests/ui/drive_score_calculator.py enter-example --size 800x480

prints `DRIVER-RESULT {...}` (what was read on screen) as its last stdout line.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Robot, Steps, plain, run

EXAMPLES = Path(__file__).resolve().parents[2] / "companion" / "data" / "examples"
EXAMPLE = EXAMPLES / "rulebook-3p.json"


def read_sheet(robot: Robot) -> Steps:
    """Wait for the score screen and read its table, winner and notes into robot.result."""
    yield from robot.wait_for(lambda: robot.find("score:table") is not None, "the score sheet")
    yield from robot.frames(2)
    table = robot.find("score:table")
    cells = [plain(c.text) for c in reversed(table.children)]
    cols = table.cols
    rows = [cells[i:i + cols] for i in range(0, len(cells), cols)]
    robot.result["table"] = rows
    robot.result["totals"] = dict(zip(rows[0][1:], (int(v) for v in rows[-1][1:]), strict=True))
    robot.result["winner"] = robot.text("score:winner")
    robot.result["notes"] = robot.text("score:notes")


def shot(robot: Robot, shots: Path | None, name: str, size: tuple[int, int]) -> Steps:
    """A screenshot named after the window size, when a screenshot folder was given."""
    if shots is not None:
        yield from robot.screenshot(shots / f"{name}-{size[0]}x{size[1]}.png")


def enter_number(robot: Robot, field: str, value: int) -> Steps:
    """Tap a player's field and type a number on the keypad."""
    yield from robot.tap(f"field:{field}")
    if value < 0:
        yield from robot.tap("key:sign")
    yield from robot.tap_keys(str(abs(value)))
    yield from robot.tap("key:ok")


def enter_example(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Enter the rulebook's 3-player example entirely by touch, then score it."""
    position = json.loads(EXAMPLE.read_text())
    yield from robot.tap("start:3")
    for index, player in enumerate(position["players"]):
        yield from robot.tap(f"tab:{index}")
        yield from robot.tap("field:name")
        yield from robot.tap_keys(player["name"])
        yield from robot.tap("key:ok")
        yield from robot.tap("field:hub")
        if index == 0:
            yield from shot(robot, shots, "score-calculator-hubs", size)
        yield from robot.tap(f"hub:{player['hub']}")
        for field in ("points", "ships_left", "gems", "food", "water", "metal"):
            yield from enter_number(robot, field, player[field])
        for sector in player["sectors"]:
            yield from robot.tap("sector:add")
            yield from robot.tap_keys(str(sector["number"]))
            yield from robot.tap("key:ok")
            # The catalogue may not know the living quarters: then the keypad asks for them.
            yield from robot.wait_for(
                lambda: robot.find("species:teal") is not None
                or "living quarters" in getattr(robot.popup(), "title", ""),
                f"the Sector {sector['number']} editor",
            )
            if robot.find("species:teal") is None:
                if index == 1 and sector["number"] == 308:
                    yield from shot(robot, shots, "score-calculator-keypad", size)
                yield from robot.tap_keys(str(sector["quarters"]))
                yield from robot.tap("key:ok")
            for species in sector["residents"]:
                yield from robot.tap(f"species:{species}")
            if sector.get("endgame_bonus_active"):
                yield from robot.tap("res:bonus-yes")
                yield from shot(robot, shots, "score-calculator-sector", size)
            yield from robot.tap("res:done")
        if index == 1:
            yield from shot(robot, shots, "score-calculator-player", size)
    yield from robot.tap("nav:score")
    yield from read_sheet(robot)
    robot.result["banner"] = robot.text("player:banner")
    yield from shot(robot, shots, "score-calculator-entered", size)


def open_example_file(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Open the example position with the touch file chooser and read the sheet."""
    yield from shot(robot, shots, "score-calculator-start", size)
    yield from robot.tap("start:open")
    yield from robot.tap("files:examples")
    yield from shot(robot, shots, "score-calculator-files", size)
    yield from robot.tap("file:rulebook-3p.json")
    yield from read_sheet(robot)
    yield from shot(robot, shots, "score-calculator", size)


def fill_basics(robot: Robot, hub: str) -> Steps:
    """Choose a Hub and enter zeros for every number of the current player."""
    yield from robot.tap("field:hub")
    yield from robot.tap(f"hub:{hub}")
    for field in ("points", "ships_left", "gems", "food", "water", "metal"):
        yield from enter_number(robot, field, 0)


def add_sector(robot: Robot, number: int, quarters: int, residents: list[str]) -> Steps:
    """Add a Sector by number (answering its living quarters if asked) and its residents."""
    yield from robot.tap("sector:add")
    yield from robot.tap_keys(str(number))
    yield from robot.tap("key:ok")
    yield from robot.wait_for(
        lambda: robot.find("species:teal") is not None
        or "living quarters" in getattr(robot.popup(), "title", ""),
        f"the Sector {number} editor",
    )
    if robot.find("species:teal") is None:
        yield from robot.tap_keys(str(quarters))
        yield from robot.tap("key:ok")
    for species in residents:
        yield from robot.tap(f"species:{species}")
    yield from robot.tap("res:done")


def bad_entries(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """A Sector entered twice and a pink Alien in a teal Sector: messages on screen, no crash."""
    result: dict[str, Any] = robot.result
    yield from robot.tap("start:2")
    yield from fill_basics(robot, "B-1")
    yield from add_sector(robot, 101, 3, ["teal", "pink"])
    yield from robot.tap("tab:1")
    yield from fill_basics(robot, "B-2")
    # Player 2 types Sector 101 again: the keypad refuses it and says why.
    yield from robot.tap("sector:add")
    yield from robot.tap_keys("101")
    yield from robot.tap("key:ok")
    yield from robot.wait_for(lambda: robot.text("keypad:message"), "the duplicate message")
    result["duplicate_message"] = robot.text("keypad:message")
    yield from shot(robot, shots, "score-calculator-duplicate", size)
    yield from robot.tap("key:cancel")
    # Scoring finds the pink Alien in teal Sector 101 and shows it on Player 1's page.
    yield from robot.tap("nav:score")
    yield from robot.wait_for(lambda: robot.text("player:banner"), "the problem banner")
    result["banner"] = robot.text("player:banner")
    cell = robot.find("cell:1:teal")
    result["cell_marked"] = bool(cell is not None and cell.error)
    result["tab_marked"] = bool(robot.find("tab:0") is not None and robot.find("tab:0").error)
    result["current_tab"] = [t.tag for t in robot.all(lambda t: t.startswith("tab:"))
                             if t.state == "down"]
    yield from shot(robot, shots, "score-calculator-error", size)
    # The Sector editor repeats the message; fixing it lets the game be scored.
    yield from robot.tap("cell:1:teal")
    yield from robot.wait_for(lambda: robot.find("res:message") is not None, "the Sector editor")
    result["sector_message"] = robot.text("res:message")
    yield from robot.tap("res:remove-last")
    yield from robot.tap("res:done")
    yield from robot.read("nav:score")
    result["banner_after_fix"] = robot.text("player:banner")
    yield from robot.tap("nav:score")
    yield from read_sheet(robot)


def hub_residents(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Hub B-11 has three living quarters: residents go on the Hub like on a Sector."""
    yield from robot.tap("start:2")
    robot.result["hidden_before"] = robot.find("hubres:open") is None
    yield from fill_basics(robot, "B-11")
    yield from robot.tap("hubres:open")
    for species in ("pink", "pink", "gold", "human"):
        yield from robot.tap(f"species:{species}")
    robot.result["full_message"] = robot.text("res:message")
    robot.result["slots"] = [robot.text(f"slot:{i}") for i in range(3)]
    yield from shot(robot, shots, "score-calculator-hub-residents", size)
    yield from robot.tap("res:done")
    robot.result["button"] = yield from robot.read("hubres:open")
    yield from robot.tap("tab:1")
    yield from fill_basics(robot, "A-11")
    yield from robot.tap("hubres:open")
    robot.result["a11_quarters"] = robot.text("res:quarters")
    yield from robot.tap("res:done")
    yield from robot.tap("nav:score")
    yield from read_sheet(robot)


def demo(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """The rulebook example's sheet is one tap from the calculator's first screen."""
    yield from robot.tap("start:example")
    yield from read_sheet(robot)


def panel_problem(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Configured for a serial button panel that is not plugged in: the app says so in the
    status strip and goes on with touch only."""
    robot.result["status"] = yield from robot.read("status:strip")
    yield from shot(robot, shots, "status-panel-missing", size)
    yield from robot.tap("start:2")
    robot.result["screen_after_tap"] = robot.app.screens.get_screen("calculator").controller.current


def type_entries(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Two players; the first one's points typed; then the app is closed."""
    yield from robot.tap("start:2")
    yield from enter_number(robot, "points", 37)
    yield from robot.wait_for(lambda: robot.find("field:points") is not None, "the keypad closed")
    robot.result["points"] = robot.find("field:points").value


def reopened(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """The calculator opened again on the same data folder: what it says and shows."""
    robot.result["message"] = yield from robot.read("start:message")
    yield from robot.tap("start:2")
    yield from robot.wait_for(lambda: robot.find("field:points") is not None, "the player page")
    robot.result["points"] = robot.find("field:points").value
    robot.result["tabs"] = [robot.text(f"tab:{i}") for i in range(3)]


def replace_and_save(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """One Hub per player, Save, Sector 214's quarters typed (the overlay remembers them), its
    residents' dots, Remove Sector / fewer players / the rulebook example asking first, and the
    sheet's sizes and notes."""
    from companion.ui.kit.widgets import NOTICE

    result: dict[str, Any] = robot.result
    yield from robot.tap("start:3")
    yield from robot.tap("field:hub")
    result["hub_button"] = robot.text("hub:B-1")
    yield from robot.tap("hub:B-5")
    yield from robot.tap("tab:1")
    points_y = robot.find("field:points").y
    yield from robot.tap("field:hub")
    yield from robot.tap("hub:B-5")
    result["hub_message"] = yield from robot.read("hub:message")
    yield from robot.tap("hub:cancel")
    yield from robot.tap("nav:save")
    yield from robot.tap_keys("Night")
    yield from robot.tap("key:ok")
    yield from robot.wait_for(lambda: robot.text("player:banner"), "the saved message")
    result["saved"] = robot.text("player:banner")
    result["saved_in_notice_tone"] = list(robot.find("player:banner").tone) == list(NOTICE)
    result["fields_moved"] = robot.find("field:points").y != points_y
    yield from add_sector(robot, 214, 3, ["brown", "brown"])
    yield from robot.wait_for(lambda: robot.find("cell:2:brown:dot:0") is not None,
                              f"Sector 214's dots (pop-up: {robot.popup()})")
    cell, dot = robot.find("cell:2:brown"), robot.find("cell:2:brown:dot:0")
    result["cell_bg"], result["cell_text_color"] = list(cell.bg), list(cell.color)
    result["dot"] = {"fill": list(dot.fill), "ink": list(dot.ink), "letter": dot.letter,
                     "size": list(dot.size)}
    result["free_dot"] = robot.find("cell:2:brown:dot:2") is not None
    yield from shot(robot, shots, "score-calculator-residents", size)
    yield from robot.tap("cell:2:brown")
    yield from robot.wait_for(lambda: robot.find("species:teal") is not None, "the editor")
    result["species_buttons"] = {
        s: [list(b.color), list(b.bg)] for s in ("teal", "pink", "brown", "gold", "human")
        if (b := robot.find(f"species:{s}")) is not None}
    result["slot"] = [list(robot.find("slot:0").color), list(robot.find("slot:0").bg)]
    yield from robot.tap("res:delete")
    result["remove_question"] = yield from robot.read("confirm:question")
    yield from robot.tap("confirm:no")
    result["kept_after_no"] = (yield from robot.read("res:quarters")) != ""
    yield from robot.tap("res:delete")
    yield from robot.tap("confirm:yes")
    yield from robot.wait_for(lambda: robot.find("sector:add") is not None, "the player page")
    result["removed"] = robot.find("cell:2:brown").number == 0
    yield from robot.tap("tab:2")
    yield from enter_number(robot, "points", 5)
    yield from robot.tap("nav:start")
    yield from robot.tap("start:2")
    result["drop_question"] = yield from robot.read("confirm:question")
    yield from robot.tap("confirm:no")
    result["screen_after_no"] = robot.app.screens.get_screen("calculator").controller.current
    yield from robot.tap("start:example")
    result["replace_question"] = yield from robot.read("confirm:question")
    yield from robot.tap("confirm:yes")
    yield from read_sheet(robot)
    notes = robot.find("score:notes")
    result["notes_height"], result["notes_text_height"] = notes.height, notes.texture_size[1]
    result["fonts"] = {"total": robot.find("score:11:1").font_size,
                       "digit": robot.find("score:1:1").font_size,
                       "winner": robot.find("score:winner").font_size}
    notes.parent.scroll_y = 0
    yield from shot(robot, shots, "score-calculator-notes-end", size)


SCENARIOS = {
    "replace-and-save": replace_and_save,
    "type-entries": type_entries,
    "reopened": reopened,
    "panel-problem": panel_problem,
    "demo": demo,
    "hub-residents": hub_residents,
    "enter-example": enter_example,
    "open-file": open_example_file,
    "bad-entries": bad_entries,
}

if __name__ == "__main__":
    sys.exit(run(SCENARIOS, start="calculator"))
