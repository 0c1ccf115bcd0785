"""The note keyboard and the primary buttons' contrast in the real app under Xvfb, driven by
simulated touches and USB key events (tests/ui/drive_polish.py). Screenshots go to
build/screenshots/ (or $PHOENIX_SCREENSHOTS)."""

from __future__ import annotations

import os
from pathlib import Path

SCRIPT = "drive_polish.py"
SHOTS = Path(os.environ.get("PHOENIX_SCREENSHOTS")
             or Path(__file__).resolve().parents[2] / "build" / "screenshots")


def test_a_correction_note_typed_by_taps_and_a_usb_keyboard_and_primary_button_contrast(
        run_ui_driver) -> None:
    """Cat's GEMs corrected with a sentence: punctuation, digits, Shift, ü and ß by taps, the
    rest on a USB keyboard (the space bar types a space, not Next; Enter confirms); the orange
    primary buttons' text reads at 4.5:1 or better."""
    result = run_ui_driver(SCRIPT, "note-and-contrast", shots=SHOTS, args=("--demo",))
    assert result["note_title"] == "Why Cat's gems: 1 -> 5?"
    assert min(result["key_heights"]) >= 48  # at 800x480
    assert result["long"] == {"length": 80, "lines": result["long"]["lines"], "fits": True}
    assert result["long"]["lines"] >= 2
    assert result["shifted_key"] == "Q"
    assert result["typed"] == "Gem under board: 2 (seen late)! Süß Ja"
    assert result["table"]["players"]["Cat"]["counters"].startswith("5 GEMs")
    assert result["table"]["active"] == "Cat"  # the space bar did not end her turn
    assert result["log"] == "Adjusted Cat's gems by +4: Gem under board: 2 (seen late)! Süß Ja"
    for button, read in result["contrast"].items():
        assert read["ratio"] >= 4.5, (button, read)
    assert (SHOTS / "note-800x480.png").stat().st_size > 10_000
