"""What the UI tests share: example games stored as a table would have them (each command
committed one by one through the app's own session, as `phoenix-companion replay ... --db` does),
a GPIO button panel's config, and where the tests' screenshots go."""

from __future__ import annotations

import os
from pathlib import Path

from companion.files import read_script
from companion.rules.script import parse
from companion.ui.shell.session import GameSession

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
SHOTS = Path(os.environ.get("PHOENIX_SCREENSHOTS") or REPO / "build" / "screenshots")
CAT_TURN = 95  # the 3-player draft example's commands up to Cat's turn 30
# the GPIO panel with player LEDs (on gpiozero's mock pins in the tests)
GPIO_PANEL = """[panel]
kind = "gpio"
hold_time = 0.3
bounce_time = 0.01

[panel.gpio]
leds = "players"
"""


def replayed(db: Path, example: str, commands: int | None = None, *,
             leave_out: int = 0) -> None:
    """Commit an example game into `db`: its first `commands` commands (None: all), all but the
    last `leave_out`."""
    session = GameSession(db, db.parent / "overlay.json")
    session.open()
    assert session.new_game() == ""
    lines = list(parse(read_script(EXAMPLES / example)))
    lines = lines[:commands] if commands is not None else lines
    for line in lines[:len(lines) - leave_out]:
        assert session.send(line.command).problem == ""
    session.close()
