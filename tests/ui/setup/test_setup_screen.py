"""The setup wizard in the real app under Xvfb, driven by simulated touches
(tests/ui/drive_setup.py): a 3-player first game from an empty overlay to the table, the names
typed on a USB keyboard."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ui_fixtures import replayed

SHOTS = Path(os.environ.get("PHOENIX_SCREENSHOTS")
             or Path(__file__).resolve().parents[3] / "build" / "screenshots")


def test_a_three_player_first_game_is_set_up_by_touch(run_ui_driver) -> None:
    result = run_ui_driver("drive_setup.py", "three-player-first-game", shots=SHOTS)
    assert result["names"] == ["Ann", "Björn", "Cäcilie"]
    assert result["lay_out"] == ["Put 20 Humans on Terra.",
                                 "Draw 70 Aliens from the bag; count them by colour.",
                                 "Shuffle the nine Sector stacks: 3 of each go on display."]
    assert result["counted"] == "Aliens counted: 70 of 70"
    # the stack's numbers (a first game's: those ending 1-4) as buttons, one tap each
    assert result["display_title"] == "Level-1 brown stack: tap the 3 Sectors on display"
    assert result["offered"] == [111, 112, 113, 114]
    assert result["stack_after_a_tap"] == "Level-1 brown: 112"
    assert result["stack_after_two"] == "Level-1 brown: –"  # tapped again: taken back
    assert result["sets_title"] == "First game: which set does Ann take?"
    # the values step: one card per component, tapped; Back shows the last card as tapped
    assert result["cards"] == [[f"Hub B-{n}", f"{50 - n} to go"] for n in (1, 2, 3)]
    assert result["track"] == "Transport\n+1"
    assert result["kept"] == ["8", "2", "2", "3"]
    assert result["card_taps"][1:] == [6, 6]  # 4 resources, no free step, Skip / later
    assert result["hubs_learned"] == {"starting_gems": 8, "starting_food": 2,
                                      "starting_water": 2, "starting_metal": 3,
                                      "starting_diplomacy": {"fixed": {}, "choice": 0}}
    assert result["start"] == ["Ann (blue): Hub B-1, 8 GEMs, 2 food, 2 water, 3 metal",
                               "Björn (red): Hub B-2, 9 GEMs, 2 food, 2 water, 3 metal",
                               "Cäcilie (yellow): Hub B-3, 10 GEMs, 2 food, 2 water, 3 metal",
                               "Ann begins."]
    assert (result["screen"], result["phase"]) == ("table", "play")


def test_names_are_typed_on_a_usb_keyboard_without_a_system_clipboard(run_ui_driver) -> None:
    # no xclip or xsel here, as on Raspberry Pi OS Lite: Kivy used to log CRITICAL "Unable to
    # find any valuable Cutbuffer provider" with tracebacks at the first text field; the names
    # go through the on-screen keyboard, which takes a USB keyboard's keys too
    result = run_ui_driver("drive_setup.py", "usb-names",
                           extra_env={"PATH": os.path.dirname(sys.executable)})
    assert result["names"] == ["Ann", "Björn"]
    assert result["criticals"] == []


def test_a_table_that_plays_again_taps_its_names(run_ui_driver, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    replayed(db, "two-players-first-game.jsonl")  # Ann and Bob played before
    result = run_ui_driver("drive_setup.py", "names-played-before", args=("--db", str(db)),
                           shots=SHOTS)
    assert result["offered"] == [["Ann", "Bob"], ["Bob"]]  # Ann is player 1 now
    assert result["names"] == ["Ann", "Bob"]
    assert result["setup_taps"] == 3  # New game, Ann, Bob
