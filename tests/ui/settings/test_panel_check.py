"""The button panel's live test in the real app under Xvfb (tests/ui/drive_panel_check.py): its
GPIO buttons and player LEDs on gpiozero's mock pins (GPIOZERO_PIN_FACTORY=mock). While it is
open a press is shown, not played, and the LEDs cycle; closed, the game's buttons and lights are
back. Screenshots (English and German) go to build/screenshots/ (or $PHOENIX_SCREENSHOTS)."""

from __future__ import annotations

import os
from pathlib import Path

from ui_fixtures import GPIO_PANEL

SCRIPT = "drive_panel_check.py"
SHOTS = Path(os.environ.get("PHOENIX_SCREENSHOTS")
             or Path(__file__).resolve().parents[3] / "build" / "screenshots")
MOCK = {"GPIOZERO_PIN_FACTORY": "mock"}
CYCLE = ("red", "yellow", "green", "blue")  # the colours hardware.panel_test.light_steps shows


def test_the_live_test_shows_presses_instead_of_playing_them_and_cycles_the_leds(
        run_ui_driver, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(GPIO_PANEL, encoding="utf-8")
    result = run_ui_driver(SCRIPT, "live", shots=SHOTS, extra_env=MOCK,
                           args=("--demo", "--config", str(config)))
    assert result["table_before"] == {"turn": "Cat", "lights": {"mode": "show",
                                                                "colour": "yellow",
                                                                "lit": ["yellow"]}}
    off = {"mode": "off", "colour": None, "lit": []}
    assert result["settings_lights"] == off  # the settings are no game screen: lights off
    opened = result["opened"]
    assert opened["status"] == ("Press each button: each press shows here and the game does not "
                                "move. A long press of Next turn (0.3 s) is Undo.")
    assert opened["lines"]["next_turn"] == {"text": "Next turn: not pressed yet", "last": False}
    # the LEDs step through the cycle, the line saying what they show
    cycle = result["cycle"]
    assert len({tuple(step["lit"]) for step in cycle}) >= 2, cycle
    for step in cycle:
        if step["mode"] == "show":
            assert step["line"] == f"Lights: {step['colour']}"
            assert step["lit"] == [step["colour"]]
    shown = [step["colour"] for step in cycle if step["mode"] == "show"]
    assert shown and all(colour in CYCLE for colour in shown)
    # each press is counted on its line, the last one highlighted; a long press of NEXT is Undo
    assert result["after_next"]["lines"]["next_turn"] == {"text": "Next turn: pressed 2 times",
                                                          "last": True}
    lines = result["after_long_press"]["lines"]
    assert lines["next_turn"] == {"text": "Next turn: pressed 2 times", "last": False}
    assert lines["undo"] == {"text": "Undo, or Next turn held: pressed 1 time", "last": True}
    assert lines["confirm"] == {"text": "Confirm: not pressed yet", "last": False}
    # nothing was played: still Cat's turn; closed, the lights are as they were before
    assert result["turn_during_test"] == "Cat"
    assert result["settings_lights_after"] == off
    assert result["table_after_settings"] == result["table_closed"] == {
        "active": "Cat", "lights": {"mode": "show", "colour": "yellow", "lit": ["yellow"]}}
    # opened over the table, NEXT is shown and not played; closed, NEXT ends Cat's turn again
    assert result["turn_during_table_test"] == "Cat"
    assert result["after_close_next"] == {
        "active": "Ann", "lights": {"mode": "show", "colour": "red", "lit": ["red"]}}
    assert Path(SHOTS / "settings-panel-test-800x480.png").exists()


def test_the_live_test_speaks_german(run_ui_driver, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(GPIO_PANEL + '\n[display]\nlanguage = "de"\n', encoding="utf-8")
    result = run_ui_driver(SCRIPT, "german", shots=SHOTS, extra_env=MOCK,
                           args=("--config", str(config)))
    check = result["check"]
    assert check["status"].startswith("Drücke jede Taste: Jeder Druck erscheint hier")
    assert check["lines"]["next_turn"] == {"text": "Nächster Zug: 1-mal gedrückt", "last": True}
    assert check["lines"]["undo"]["text"] == \
        "Rückgängig, oder Nächster Zug gehalten: noch nicht gedrückt"
    assert check["lights"].startswith("Lichter: ")
    assert Path(SHOTS / "settings-panel-test-de-800x480.png").exists()


def test_with_touch_only_the_live_test_says_how_to_set_up_a_panel(run_ui_driver) -> None:
    check = run_ui_driver(SCRIPT, "touch-only")["check"]
    assert check["status"].startswith("No button panel is set up: the game is played by touch "
                                      "only.")
    assert check["lines"]["next_turn"]["text"] == "Next turn: not pressed yet"
    assert check["lights"] == "Lights: this panel has none to cycle."
