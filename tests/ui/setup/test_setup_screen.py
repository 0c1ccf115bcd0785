"""The setup wizard in the real app under Xvfb, driven by simulated touches
(tests/ui/drive_setup.py): a 3-player first game from an empty overlay to the table."""

from __future__ import annotations

import os
import sys
from pathlib import Path

SHOTS = Path(os.environ.get("PHOENIX_SCREENSHOTS")
             or Path(__file__).resolve().parents[3] / "build" / "screenshots")


def test_a_three_player_first_game_is_set_up_by_touch(run_ui_driver) -> None:
    result = run_ui_driver("drive_setup.py", "three-player-first-game", shots=SHOTS)
    assert result["lay_out"] == ["Put 20 Humans on Terra.",
                                 "Draw 70 Aliens from the bag; count them by colour.",
                                 "Shuffle the nine Sector stacks: 3 of each go on display."]
    assert result["counted"] == "Aliens counted: 70 of 70"
    assert result["display_title"] == "Level-1 brown Sectors on display (1 of 3): number?"
    assert result["wrong_stack"] == ("Sector 101 is from the Level-1 teal stack, not the "
                                     "Level-1 brown one")
    assert result["sets_title"] == "First game: which set does Ann take?"
    # the values step: one card per component, tapped; Back shows the last card as tapped
    assert result["cards"] == [[f"Hub B-{n}", f"{50 - n} to go"] for n in (1, 2, 3)]
    assert result["track"] == "Transport\n+1"
    assert result["kept"] == ["8", "2", "2", "3"]
    assert result["card_taps"][1:] == [6, 6]  # 4 resources, no free step, Skip / later
    assert result["hubs_learned"] == {"starting_gems": 8, "starting_food": 2,
                                      "starting_water": 2, "starting_metal": 3,
                                      "starting_diplomacy": {"fixed": {}, "choice": 0}}
    assert result["bonus_titles"] == ["Ann takes the starting bonuses of Hub B-1",
                                      "Björn takes the starting bonuses of Hub B-2",
                                      "Cäcilie takes the starting bonuses of Hub B-3"]
    assert result["start"] == ["Ann (blue): Hub B-1, 8 GEMs, 2 food, 2 water, 3 metal",
                               "Björn (red): Hub B-2, 9 GEMs, 2 food, 2 water, 3 metal",
                               "Cäcilie (yellow): Hub B-3, 10 GEMs, 2 food, 2 water, 3 metal",
                               "Ann begins."]
    assert (result["screen"], result["phase"]) == ("table", "play")


def test_a_name_is_copied_and_pasted_without_a_system_clipboard(run_ui_driver) -> None:
    # no xclip or xsel here, as on Raspberry Pi OS Lite: Kivy used to log CRITICAL "Unable to
    # find any valuable Cutbuffer provider" with tracebacks at the first text field
    result = run_ui_driver("drive_setup.py", "copy-a-name",
                           extra_env={"PATH": os.path.dirname(sys.executable)})
    assert result["pasted"] == "Ann"
    assert result["criticals"] == []
