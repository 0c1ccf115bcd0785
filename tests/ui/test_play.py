"""Income, the station view, an adjustment and the end screen in the real app under Xvfb,
driven by simulated touches (tests/ui/drive_play.py, one process per scenario). Screenshots go
to build/screenshots/ (or $PHOENIX_SCREENSHOTS)."""

from __future__ import annotations

import os
from pathlib import Path

SCRIPT = "drive_play.py"
SHOTS = Path(os.environ.get("PHOENIX_SCREENSHOTS")
             or Path(__file__).resolve().parents[2] / "build" / "screenshots")


def test_income_with_an_income_power_and_a_relocation(run_ui_driver) -> None:
    """Bob takes Hub A-7's Diplomacy action during income; Cat moves a resident for 1 GEM."""
    result = run_ui_driver(SCRIPT, "income", shots=SHOTS, args=("--demo",))
    bob = result["bob"]
    assert bob["receipt"] == ["Hub A-7: 1 GEM x 9 ships = 9 GEMs", "Total: 9 GEMs"]
    assert "Bob pays 1 GEM: lobbying for Construct level 1" in bob["preview"]
    after = result["after_bob"]["players"]["Bob"]
    assert after["diplomacy"] == "Dis 0  Con 1  Tra 1  Exp 3"
    assert after["counters"].startswith("16 GEMs")
    assert result["moves"][0] == "Move pink (P) in Sector 121 quarter 1 -> Sector 121: 1 GEM"
    cat = result["cat"]
    assert cat["receipt"] == ["Hub A-4: 2 GEM x 7 ships = 14 GEMs",
                              "Sector 121 quarter 1 = 1 food", "Sector 121 quarter 2 = 1 water",
                              "Total: 14 GEMs, 1 food and 1 water"]
    assert "Cat pays 1 GEM: relocating a resident" in cat["preview"]
    assert cat["preview"][-1] == "Sector 121: P P -> P P"
    assert result["table"]["players"]["Cat"]["counters"] == "14 GEMs  1 food  1 water  8 metal"
    assert (SHOTS / "income-800x480.png").stat().st_size > 10_000
