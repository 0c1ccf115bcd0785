"""The tap counts of issue #27: an example's setup by touch from home's New game, every value
the tiles print known beforehand (tests/ui/drive_setup.py's TAP_SCENARIOS), within its
budget of taps, and the game it sets up the same as the example replayed to its first turn."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from companion.catalogue_files import load_catalogue
from companion.rules.game import Game

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from drive_setup import SCREENSHOTS_FROM, TAP_SCENARIOS, example_setup, known_values

SHOTS = Path(os.environ.get("PHOENIX_SCREENSHOTS")
             or Path(__file__).resolve().parents[3] / "build" / "screenshots")
COMPARED = ("phase", "options", "players", "ships", "supply", "display", "setup", "turn",
            "pending", "end")


def replayed(example: str, overlay: Path) -> dict:
    """The state of the example replayed to its first turn (the example's own flag, which
    keeps its values out of the overlay, left out: the table's game has none)."""
    game = Game(load_catalogue(overlay=overlay))
    for command in example_setup(example):
        game.execute({k: v for k, v in command.items() if k != "example"})
    return json.loads(json.dumps(game.state))


# The line that says the values step was passed, in each language.
KNOWN = {"en": "Values from the tiles: every value is known, nothing to ask.",
         "de": "Werte der Plättchen: alle bekannt, nichts zu fragen."}


@pytest.mark.parametrize(("scenario", "language"), [
    ("three-player-draft-taps", "en"), ("two-player-first-game-taps", "en"),
    ("three-player-draft-taps", "de")])
def test_an_example_is_set_up_by_touch_within_its_taps(run_ui_driver, tmp_path: Path,
                                                       scenario: str, language: str) -> None:
    example, budget, _words = TAP_SCENARIOS[scenario]
    overlay = tmp_path / "data" / "catalogue-overlay.json"  # the app's, in its data folder
    assert known_values(example, overlay) > 0
    config = tmp_path / "config.toml"
    config.write_text(f'[display]\nlanguage = "{language}"\n', encoding="utf-8")
    result = run_ui_driver("drive_setup.py", scenario, shots=SHOTS,
                           args=("--config", str(config)),
                           extra_env={"PHOENIX_COMPANION_HOME": str(tmp_path / "data")})
    assert result["setup_taps"] <= budget
    assert result["qwertz"] == (language == "de")  # the name keyboard: QWERTZ in German
    expected, state = replayed(example, overlay), result["state"]
    for field in COMPARED:
        if field == "players":
            for touched, wanted in zip(state["players"], expected["players"], strict=True):
                assert touched == wanted, touched["name"]
        else:
            assert state[field] == expected[field], field
    assert result["start"][-1] == KNOWN[language]
    if scenario == SCREENSHOTS_FROM:
        lang = "" if language == "en" else f"-{language}"
        for step in ("players", "lay-out", "display", "hubs", "draft", "bonuses", "start"):
            assert (SHOTS / f"setup-{step}{lang}-800x480.png").stat().st_size > 10_000
