"""The value cards and the catalogue screen in the real app under Xvfb, driven by simulated
touches (tests/ui/drive_values.py). Screenshots go to build/screenshots/ (or
$PHOENIX_SCREENSHOTS)."""

from __future__ import annotations

import os
import re
from pathlib import Path

SCRIPT = "drive_values.py"
SHOTS = Path(os.environ.get("PHOENIX_SCREENSHOTS")
             or Path(__file__).resolve().parents[3] / "build" / "screenshots")
DATA_SHAPES = re.compile(r"[{}\[\]]|\b[a-z]+_[a-z_]+\b|\(\d+ of \d+\)")  # ids, braces, counters


def german(tmp_path: Path) -> tuple[str, str]:
    config = tmp_path / "config.toml"
    config.write_text('[display]\nlanguage = "de"\n', encoding="utf-8")
    return ("--config", str(config))


def test_a_construction_asks_the_tiles_values_on_its_card(run_ui_driver):
    """Bob builds Sector 101: each value the engine asks opens Sector 101's card; a number is
    one tap, the ability's quarter one, an income icon one and Done."""
    result = run_ui_driver(SCRIPT, "construction-values", shots=SHOTS, args=("--demo",))
    sector = [asked for asked in result["asked"] if asked.startswith("Sector 101")]
    assert sector == [f"Sector 101: {label}" for label in
                      ("Metal to build", "Living quarters", "Ability", "Income icons")]
    assert result["icon"] == "food"
    assert result["value_taps"]["Sector 101"] == 5
    learned = result["learned"]
    assert learned["sectors/101/income_icons"] == [{"resource": "food", "amount": 1,
                                                    "quarter": 0}]
    assert (learned["sectors/101/cost"], learned["sectors/101/quarters"]) == (3, 2)
    assert learned["sectors/101/abilities.0.quarter"] == 0
    assert result["table"]["undo"].startswith("Undo: Bob")
    assert (SHOTS / "values-800x480.png").stat().st_size > 10_000


def check_cards(result: dict) -> None:
    """A Hub in 6 taps (four resources, its one Diplomacy step on a track, its GEMs per ship:
    one tap each, the fixed income no longer asked), a Sector in 5 (cost, quarters,
    an icon, the ability's quarter, Done), a ship in 3 (cost, fee, metal value); Skip and Ask
    during play whole in the window on every card; no label a field name or a data shape;
    the overlay holds what was tapped. Hub B-3's starting values, asked by Bob's starting
    bonus, in 2 taps: its GEMs and resources as on Hub B-1 (one tap), no Diplomacy."""
    assert result["card_taps"] == {"hub": 6, "sector": 5, "ship": 3, "hub_alike": 2}
    assert result["bars"] and all(all(bar) and len(bar) >= 3 for bar in result["bars"])
    assert [text for text in result["labels"] if DATA_SHAPES.search(text)] == []
    assert result["cut"] == []  # every word on every card shown whole
    assert result["overlay"]["hubs"]["B-1"] == {
        "starting_gems": 8, "starting_food": 2, "starting_water": 2, "starting_metal": 3,
        "starting_diplomacy": {"fixed": {"transport": 1}, "choice": 0},
        "income_gems_per_ship": 1}
    assert result["overlay"]["hubs"]["B-3"] == {
        "starting_gems": 8, "starting_food": 2, "starting_water": 2, "starting_metal": 3,
        "starting_diplomacy": {"fixed": {}, "choice": 0}}
    assert result["overlay"]["sectors"]["101"] == {
        "cost": 3, "quarters": 2, "abilities.0.quarter": 1,
        "income_icons": [{"resource": "food", "amount": 1, "quarter": 0}]}
    assert result["overlay"]["ships"]["L1-dismantle"] == {"cost": 2, "fee": 1, "metal_value": 4}


def test_the_setup_values_are_tapped_on_cards_like_the_tiles(run_ui_driver):
    result = run_ui_driver(SCRIPT, "setup-cards", shots=SHOTS)
    check_cards(result)
    assert result["cards"][0] == ["Hub B-1", "35 to go"]
    assert result["alike"] == "As on Hub B-1: 8 GEMs, 2 food, 2 water, 3 metal"
    assert result["cards"][2] == ["Sector 101 · level 1 · teal", "33 to go"]
    assert (SHOTS / "setup-sector-card-800x480.png").stat().st_size > 10_000


def test_the_setup_cards_read_german(run_ui_driver, tmp_path: Path):
    result = run_ui_driver(SCRIPT, "setup-cards", shots=SHOTS, args=german(tmp_path))
    check_cards(result)
    assert result["cards"][2][0] == "Sektor 101 · Level 1 · türkis"
    assert result["alike"] == "Wie Hub B-1: 8 Edelsteine, 2 Pflanzen, 2 Wasser, 3 Metall"
    assert (SHOTS / "setup-value-entry-de-800x480.png").stat().st_size > 10_000


def test_a_sector_colour_is_corrected_on_the_catalogue_screen(run_ui_driver):
    """Home, Catalogue, Sector 214 (brown, inferred from its number): teal in one tap."""
    result = run_ui_driver(SCRIPT, "catalogue-color", shots=SHOTS)
    assert result["color_before"] == "colour: brown · inferred"
    assert result["color_after"] == "colour: teal · entered"
    assert result["overlay"] == {"sectors": {"214": {"color": "teal"}}}
    assert (SHOTS / "catalogue-800x480.png").stat().st_size > 10_000


def test_the_card_is_tapped_by_ids_that_do_not_change_with_the_language(
        run_ui_driver, tmp_path: Path):
    """In German, Sector 101's income icons are corrected on the catalogue screen by the
    toggles' ids (values:icon:0:food, values:done) while they read German."""
    result = run_ui_driver(SCRIPT, "catalogue-icons", args=german(tmp_path))
    assert result["before"]["values:icon:0:food"] == "Pflanzen"
    assert result["before"]["values:done"] == "Fertig"
    assert result["toggled"] == "Pflanzen"
    assert result["overlay"] == {"sectors": {"101": {"income_icons": [
        {"resource": "food", "amount": 1, "quarter": 0}]}}}
