"""Driver: the real app under systemd's watchdog, run under Xvfb by tests/test_watchdog.py.

    NOTIFY_SOCKET=/tmp/s WATCHDOG_USEC=200000 DISPLAY=:99 \\
        .venv/bin/python tests/deploy/drive_watchdog.py blocked

`steady` lets the app run for two seconds; `blocked` freezes its main loop for BLOCK seconds in
the middle (as a hung screen would), so the watchdog pings must stop for that long.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))

from harness import Robot, Steps, run

BLOCK = 1.5  # seconds the main loop is frozen
RUN = 1.0  # seconds of normal frames before and after


def running(seconds: float) -> Steps:
    """Let the main loop turn for `seconds`."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        yield


def steady(robot: Robot, **_: object) -> Steps:
    """Two seconds of an idle app."""
    yield from running(2 * RUN)
    robot.result["blocked"] = None


def blocked(robot: Robot, **_: object) -> Steps:
    """A second, the main loop frozen for BLOCK seconds, another second."""
    yield from running(RUN)
    start = time.time()
    time.sleep(BLOCK)  # inside a Clock callback: no frame, no ping until it returns
    robot.result["blocked"] = [start, time.time()]
    yield from running(RUN)


if __name__ == "__main__":
    sys.exit(run({"steady": steady, "blocked": blocked}))
