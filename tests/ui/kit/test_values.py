"""The value-entry component and the catalogue screen in the real app under Xvfb, driven by
simulated touches (tests/ui/drive_values.py). Screenshots go to build/screenshots/ (or
$PHOENIX_SCREENSHOTS)."""

from __future__ import annotations

import os
from pathlib import Path

SCRIPT = "drive_values.py"
SHOTS = Path(os.environ.get("PHOENIX_SCREENSHOTS")
             or Path(__file__).resolve().parents[3] / "build" / "screenshots")


def test_a_construction_is_confirmed_with_the_tiles_values_entered_on_screen(run_ui_driver):
    """Bob builds Sector 101: its numbers on the keypad, its income icons one icon at a time."""
    result = run_ui_driver(SCRIPT, "construction-values", shots=SHOTS, args=("--demo",))
    assert any("income icons does Sector 101" in q for q in result["asked"])
    assert result["icons_so_far"] == "So far: resource food, amount 1, quarter 1"
    icons = result["learned"]["sectors/101/income_icons"]
    assert icons == [{"resource": "food", "amount": 1, "quarter": 0}]
    assert result["table"]["undo"].startswith("Undo: Bob")
    assert (SHOTS / "values-800x480.png").stat().st_size > 10_000


def test_a_sector_colour_is_corrected_on_the_catalogue_screen(run_ui_driver):
    """Home, Catalogue, Sector 214 (brown, inferred from its number): teal in one tap."""
    result = run_ui_driver(SCRIPT, "catalogue-color", shots=SHOTS)
    assert result["color_before"] == "colour: brown · inferred"
    assert result["color_after"] == "colour: teal · entered"
    assert result["overlay"] == {"sectors": {"214": {"color": "teal"}}}
    assert (SHOTS / "catalogue-800x480.png").stat().st_size > 10_000


def test_the_value_pop_up_is_tapped_by_ids_that_do_not_change_with_the_language(
        run_ui_driver, tmp_path: Path):
    """In German, Sector 101's income icons are entered on the catalogue screen by the
    buttons' ids (values:choice:add, food, 0, done) while the buttons read German."""
    config = tmp_path / "config.toml"
    config.write_text('[display]\nlanguage = "de"\n', encoding="utf-8")
    result = run_ui_driver(SCRIPT, "catalogue-icons", args=("--config", str(config)))
    first, which, quarter, more = result["buttons"]  # the choices before each tap
    assert first == {"values:choice:add": "Einkommens-Symbol hinzufügen",
                     "values:choice:done": "Fertig"}
    assert which["values:choice:food"] == "Pflanzen"
    assert quarter["values:choice:0"] == "Raum 1"
    assert more["values:choice:done"] == "Fertig"
    assert result["overlay"] == {"sectors": {"101": {"income_icons": [
        {"resource": "food", "amount": 1, "quarter": 0}]}}}
