"""The button panel drives the table app: the real app under Xvfb, its GPIO buttons and player
LEDs on gpiozero's mock pins (GPIOZERO_PIN_FACTORY=mock), driven by tests/ui/drive_panel.py."""

from __future__ import annotations

from pathlib import Path

from ui_fixtures import GPIO_PANEL


def test_next_button_advances_the_turn_and_the_led_follows(run_ui_driver, tmp_path: Path):
    config = tmp_path / "config.toml"
    config.write_text(GPIO_PANEL)
    result = run_ui_driver("drive_panel.py", "next-button", args=("--demo", "--config",
                                                                  str(config)),
                           extra_env={"GPIOZERO_PIN_FACTORY": "mock"})
    # Bob's Diplomacy bonus waits: his colour blinks, and NEXT says why the turn cannot end.
    assert result["prompt_lights"]["mode"] == "blink"
    assert result["prompt_lights"]["colour"] == "blue"
    assert "Bob" in result["prompt_message"]
    # The table: Cat's LED is lit; NEXT ends her turn and Ann's LED takes over.
    assert result["cat_lights"] == {"mode": "show", "colour": "yellow", "lit": ["yellow"]}
    assert result["after_next"] == {"active": "Ann",
                                    "lights": {"mode": "show", "colour": "red", "lit": ["red"]}}
    # Ann has not acted: NEXT is refused with the reason on the table.
    assert result["refused"]
    # A long press of NEXT is Undo: back to Cat; the keyboard's Enter (confirm) is Next.
    assert result["after_undo"]["active"] == "Cat"
    assert result["after_undo"]["lights"]["lit"] == ["yellow"]
    assert result["after_enter"]["active"] == "Ann"
    assert result["after_enter"]["lights"]["lit"] == ["red"]
