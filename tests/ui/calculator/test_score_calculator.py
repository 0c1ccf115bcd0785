"""The score calculator in the real app under Xvfb, driven by simulated touches.

Each test runs one scenario of tests/ui/drive_score_calculator.py in its own process and asserts
on what the driver read off the screen. Screenshots go to build/screenshots/ (or the folder in
$PHOENIX_SCREENSHOTS: `make screenshots` points it at docs/screenshots/).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from companion.ui.kit.colors import contrast

SCRIPT = "drive_score_calculator.py"
SHOTS = Path(os.environ.get("PHOENIX_SCREENSHOTS")
             or Path(__file__).resolve().parents[3] / "build" / "screenshots")
RULEBOOK_TOTALS = {"Anna": 142, "Beth": 141, "Connor": 159}
RULEBOOK_TABLE = [
    ["Total In-Game Points", "1", "24", "9"],
    ["Total for Sectors Built", "44", "44", "60"],
    ["Residents (2 each)", "50", "42", "50"],
    ["Pluralities: Humans", "5", "10", ""],
    ["Pluralities: Whijinga (gold)", "10", "", "5"],
    ["Pluralities: Turkanshee (teal)", "10", "5", ""],
    ["Pluralities: Ensaroo (pink)", "7", "", "7"],
    ["Pluralities: Zonri (brown)", "", "5", "10"],
    ["Station Endgame Bonuses", "14", "11", "15"],
    ["Leftover GEMs & Resources", "1", "0", "3"],
    ["TOTAL", "142", "141", "159"],
]


def test_rulebook_example_entered_by_touch(run_ui_driver) -> None:
    """All three players, Hubs, numbers, Sectors, residents and 308's bonus, typed by touch."""
    result = run_ui_driver(SCRIPT, "enter-example", shots=SHOTS)
    assert result["totals"] == RULEBOOK_TOTALS
    assert result["table"][0] == ["Category", "Anna", "Beth", "Connor"]
    assert result["table"][1:] == RULEBOOK_TABLE
    assert "Connor" in result["winner"]
    assert "Sector 308: +11" in result["notes"]
    assert result["taps"] > 300  # really typed, not loaded


@pytest.mark.parametrize("size", ["800x480", "1024x600", "1280x800"])
def test_example_file_opened_with_the_file_chooser(run_ui_driver, size: str) -> None:
    """Open companion/data/examples/rulebook-3p.json by touch; same sheet at every screen size."""
    result = run_ui_driver(SCRIPT, "open-file", size=size, shots=SHOTS)
    assert result["window"] == [int(n) for n in size.split("x")]
    assert result["totals"] == RULEBOOK_TOTALS
    assert result["table"][1:] == RULEBOOK_TABLE
    assert result["winner"] == "Winner: Connor with 159"
    assert "Hub A-1: +15" in result["notes"]
    assert (SHOTS / f"score-calculator-{size}.png").stat().st_size > 10_000


def test_rulebook_example_one_tap_away(run_ui_driver) -> None:
    """The calculator's "Rulebook example" shows the example's score sheet at once."""
    result = run_ui_driver(SCRIPT, "demo")
    assert result["totals"] == RULEBOOK_TOTALS


def test_hub_residents_for_b11_and_a11(run_ui_driver) -> None:
    """Hubs with living quarters get a residents button; a full Hub says so."""
    result = run_ui_driver(SCRIPT, "hub-residents", shots=SHOTS)
    assert result["hidden_before"]
    assert result["slots"] == ["Pink Alien", "Pink Alien", "Gold Alien"]
    assert result["full_message"] == "Hub B-11 has no free living quarter."
    assert result["button"].startswith("Hub residents 3/3")
    assert result["a11_quarters"] == "5 living quarters"
    # 3 residents on the Hub: 6 points, and the pluralities of pink and gold.
    residents = next(row for row in result["table"] if row[0] == "Residents (2 each)")
    assert residents[1:] == ["6", "0"]


def test_bad_entries_are_explained_on_screen(run_ui_driver) -> None:
    """A Sector typed twice and a pink Alien in a teal Sector: plain messages, and no crash."""
    result = run_ui_driver(SCRIPT, "bad-entries", shots=SHOTS)
    assert result["duplicate_message"] == (
        "Sector 101 is already in Player 1's station; there is only one tile."
    )
    banner = result["banner"]
    assert banner.startswith("Player 1: Sector 101 residents:")
    assert "a pink Alien cannot live in a teal Sector" in banner
    assert result["cell_marked"] and result["tab_marked"]
    assert result["current_tab"] == ["tab:0"]
    assert "pink Alien cannot live in a teal Sector" in result["sector_message"]
    assert result["banner_after_fix"] == ""
    # After the fix the app scores normally: it kept running.
    assert set(result["totals"]) == {"Player 1", "Player 2"}


def test_missing_button_panel_is_reported_on_screen(run_ui_driver, tmp_path) -> None:
    """"A missing device, a pin already in use or a port that does not exist: a clear message in
    the log and on screen, and the app goes on with touch only.\""""
    config = tmp_path / "config.toml"
    config.write_text('[panel]\nkind = "serial"\n\n[panel.serial]\n'
                      f'port = "{tmp_path / "no-such-port"}"\n')
    result = run_ui_driver(SCRIPT, "panel-problem", args=("--config", str(config)), shots=SHOTS)
    assert "no-such-port" in result["status"]
    assert "touch only" in result["status"].lower()
    assert result["screen_after_tap"] == "player"


def test_entries_survive_a_restart(run_ui_driver, tmp_path) -> None:
    """What was typed is kept in the data folder and is back when the calculator opens again."""
    data = {"PHOENIX_COMPANION_HOME": str(tmp_path / "data")}
    typed = run_ui_driver(SCRIPT, "type-entries", extra_env=data)
    assert typed["points"] == "37"
    result = run_ui_driver(SCRIPT, "reopened", extra_env=data)
    assert result["message"] == "The entries of last time are back."
    assert result["points"] == "37"
    assert result["tabs"] == ["Player 1", "Player 2", ""]


def test_replacing_asks_first_and_a_position_can_be_saved(run_ui_driver, tmp_path) -> None:
    """Remove Sector, fewer players and the rulebook example ask first; Save writes a named file
    into the data folder and says where, in green; a Hub taken is refused; living quarters typed
    are remembered in the overlay; the sheet's totals and winner are large, its digits readable,
    the notes not cut off; residents are outlined dots with a letter that reads on their colour."""
    data = tmp_path / "data"
    result = run_ui_driver(SCRIPT, "replace-and-save", shots=SHOTS,
                           extra_env={"PHOENIX_COMPANION_HOME": str(data)})
    assert result["hub_button"].startswith("B-1") and "Construction" in result["hub_button"]
    assert result["hub_message"] == "Player 1 already has Hub B-5; every player has their own Hub."
    saved = data / "night.json"
    assert result["saved"] == f"Saved to {saved}"
    assert json.loads(saved.read_text())["players"][0]["hub"] == "B-5"
    assert result["saved_in_notice_tone"]  # green, not red
    assert not result["fields_moved"]  # the banner's room is kept
    overlay = json.loads((data / "catalogue-overlay.json").read_text())
    assert overlay["values"]["sectors"]["214"]["quarters"] == 3
    dot = result["dot"]
    assert dot["letter"] == "B" and dot["size"][0] >= 20
    assert contrast(dot["ink"], dot["fill"]) >= 4.5  # the letter on the brown dot
    assert contrast((1, 1, 1), result["cell_bg"]) >= 4.5  # the dot's white ring on the cell
    assert contrast(result["cell_text_color"], result["cell_bg"]) >= 4.5
    assert result["free_dot"]
    assert len(result["species_buttons"]) == 5
    for text, background in [*result["species_buttons"].values(), result["slot"]]:
        assert contrast(text, background) >= 4.5, (text, background)
    assert result["remove_question"] == "Remove Sector 214 from Player 2?"
    assert result["kept_after_no"] and result["removed"]
    assert result["drop_question"] == "2 players: drop what was typed for Player 3?"
    assert result["screen_after_no"] == "start"
    assert result["replace_question"] == "Replace what you typed with rulebook-3p.json?"
    assert result["totals"] == RULEBOOK_TOTALS
    assert result["notes_height"] >= result["notes_text_height"]
    fonts = result["fonts"]
    assert fonts["total"] >= 28 and fonts["winner"] >= 28 and fonts["digit"] >= 20
