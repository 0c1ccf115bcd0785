"""Driver: the statistics screen from home, its numbers read off the screen, run in the real app
under Xvfb by tests/ui/test_stats_screen.py.

    DISPLAY=:99 .venv/bin/python tests/ui/drive_stats.py stats --db DB --size 800x480
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive_past import on_screen
from drive_table import shot
from harness import Robot, Steps, run


def stats(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Home, Statistics: every cell by its tag, the tables' targets, then Home again."""
    yield from on_screen(robot, "home")
    yield from robot.tap("home:stats")
    yield from on_screen(robot, "stats")
    yield from robot.frames(3)
    robot.result["info"] = robot.text("stats:info")
    cells = robot.all(lambda t: t.startswith("stats:") and t.count(":") == 2)
    robot.result["cells"] = {w.tag: robot.text(w.tag) for w in cells}
    robot.result["rows"] = [round(w.height) for w in cells]
    robot.result["home"] = round(robot.find("stats:home").height)
    yield from shot(robot, shots, "stats", size)
    yield from robot.tap("stats:home")
    yield from on_screen(robot, "home")


if __name__ == "__main__":
    sys.exit(run({"stats": stats}, start="home"))
