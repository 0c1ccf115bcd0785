"""Driver: past games from home (the details screen: the chart, the log, the players, rename,
delete, export to a folder standing in for a USB stick, the BG Stats QR code here and on the end
screen), run in the real app under Xvfb by
tests/ui/test_past_games.py. $PHOENIX_TEST_USB names the stand-in stick.

    DISPLAY=:99 .venv/bin/python tests/ui/drive_past.py details --db DB --size 800x480
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive_table import shot, texts
from harness import Robot, Steps, run

from companion import export

if os.environ.get("PHOENIX_TEST_USB"):  # the mount-point lookup, injected
    export.usb_mounts = lambda roots=None: [Path(os.environ["PHOENIX_TEST_USB"])]


def chart_data(robot: Robot, tag: str) -> dict:
    """The chart's data points read off the widget, its legend and its lines' colours."""
    chart = robot.find(tag)
    return {"series": {s.name: s.points for s in chart.series},
            "colors": {s.name: s.color for s in chart.series},
            "final": chart.final,
            "legend": texts(robot, "chart:legend:"),
            "lines": len(chart.ids.plot.canvas.children),
            "ticks": [w.text for w in chart.ids.plot.children][::-1]}


def bgstats_qr(robot: Robot, button: str) -> Steps:
    """Tap `button`, read the BG Stats pop-up's QR code (its matrix, pixels per module, the
    drawn square) and its line, then Close."""
    yield from robot.tap(button)
    yield from robot.wait_for(lambda: robot.find("qr:code") is not None, "the QR code")
    yield from robot.frames(3)
    code = robot.find("qr:code")
    texture = code.canvas.children[-1]
    robot.result.setdefault("qr", []).append({
        "link": robot.popup().link, "matrix": [list(row) for row in code.matrix],
        "pixels": code.pixels, "drawn": list(texture.size), "help": robot.text("qr:help")})


def close_qr(robot: Robot) -> Steps:
    yield from robot.tap("qr:close")
    yield from robot.wait_for(lambda: robot.popup() is None, "the QR code closed")


def on_screen(robot: Robot, name: str) -> Steps:
    yield from robot.wait_for(lambda: robot.app.screens.current == name, f"the {name} screen")


def details(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Home's list, a finished game's details: chart, log, players; exports; rename; then
    the other game deleted after No and Yes."""
    yield from on_screen(robot, "home")
    yield from robot.frames(3)
    robot.result["home"] = texts(robot, "game:")
    yield from shot(robot, shots, "home-past-games", size)
    finished = next(w.tag for w in robot.all(lambda t: t.startswith("past:"))
                    if "finished" in robot.text("game:" + w.tag.split(":")[1]))
    yield from robot.tap(finished)
    yield from on_screen(robot, "past_game")
    yield from robot.frames(3)
    robot.result["title"] = robot.text("past:title")
    robot.result["info"] = robot.text("past:info")
    robot.result["chart"] = chart_data(robot, "past:chart")
    yield from shot(robot, shots, "past-game-chart", size)
    yield from robot.tap("past:tab:log")
    yield from robot.frames(3)
    robot.result["log"] = [robot.text(f"past:log:{n}") for n in range(3)]
    robot.result["log_count"] = len(robot.app.screens.current_screen._scroll.children[0].children)
    yield from shot(robot, shots, "past-game-log", size)
    yield from robot.tap("past:tab:players")
    yield from robot.frames(3)
    robot.result["players"] = texts(robot, "past:players:")
    yield from shot(robot, shots, "past-game-players", size)
    robot.result["exports"] = {}
    for kind in ("record", "csv", "bgstats"):
        yield from robot.tap(f"past:export:{kind}")
        yield from robot.frames(2)
        robot.result["exports"][kind] = robot.text("past:message")
    yield from shot(robot, shots, "past-game-export", size)
    yield from bgstats_qr(robot, "past:bgstats:phone")
    yield from shot(robot, shots, "bgstats-qr", size)
    yield from close_qr(robot)
    yield from robot.tap("past:open")
    yield from on_screen(robot, "end")
    yield from bgstats_qr(robot, "end:bgstats")
    yield from close_qr(robot)
    yield from robot.tap("end:chart")
    yield from robot.frames(3)
    robot.result["end_chart"] = chart_data(robot, "chart:popup")
    yield from shot(robot, shots, "end-chart", size)
    yield from robot.tap("chart:close")
    yield from robot.wait_for(lambda: robot.popup() is None, "the chart closed")
    yield from robot.tap("end:home")
    yield from on_screen(robot, "home")
    yield from robot.tap(finished)
    yield from on_screen(robot, "past_game")
    yield from robot.tap("past:rename")
    yield from robot.tap("key:clear")
    yield from robot.tap_keys("Friday")
    yield from robot.tap("key:ok")
    yield from robot.wait_for(lambda: robot.popup() is None, "the keyboard closed")
    robot.result["renamed"] = robot.text("past:title")
    yield from robot.tap("past:home")
    yield from on_screen(robot, "home")
    other = next(w.tag for w in robot.all(lambda t: t.startswith("past:"))
                 if "finished" not in robot.text("game:" + w.tag.split(":")[1]))
    yield from robot.tap(other)
    yield from on_screen(robot, "past_game")
    robot.result["unfinished_open"] = robot.text("past:open")
    robot.result["unfinished_phone"] = robot.find("past:bgstats:phone") is not None
    robot.result["unfinished_bgstats"] = None
    yield from robot.tap("past:export:bgstats")
    robot.result["unfinished_bgstats"] = robot.text("past:message")
    yield from robot.tap("past:delete")
    robot.result["question"] = robot.text("confirm:question")
    yield from robot.tap("confirm:no")
    yield from robot.tap("past:delete")
    yield from robot.tap("confirm:yes")
    yield from on_screen(robot, "home")
    yield from robot.wait_for(lambda: robot.popup() is None, "the question closed")
    yield from shot(robot, shots, "home-deleted", size)
    robot.result["after_delete"] = texts(robot, "game:")
    robot.result["home_message"] = robot.text("home:message")


if __name__ == "__main__":
    sys.exit(run({"details": details}, start="home"))
