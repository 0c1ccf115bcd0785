"""The `[panel]` table of the app's config file: defaults, valid files, and bad files that are
reported (file and key named) while the app goes on with the defaults."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.config import default_config_path, load_config
from hardware import GPIOConfig, PanelConfig, SerialConfig
from hardware.config import PanelConfigError, panel_config_from_toml


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def docs_example() -> str:
    """The example config in docs/panel.md (the first ```toml block)."""
    text = (Path(__file__).parents[2] / "docs" / "panel.md").read_text(encoding="utf-8")
    return re.search(r"```toml\n(.*?)```", text, re.S).group(1)


def test_no_file_at_the_default_place_means_defaults(tmp_path, monkeypatch):
    monkeypatch.setenv("PHOENIX_COMPANION_CONFIG", str(tmp_path))
    assert default_config_path() == tmp_path / "config.toml"
    config = load_config()
    assert config.panel == PanelConfig() and config.problems == () and config.path is None
    assert config.panel.kind == "none"


def test_the_default_file_is_read(tmp_path, monkeypatch):
    monkeypatch.setenv("PHOENIX_COMPANION_CONFIG", str(tmp_path))
    write(tmp_path, '[panel]\nkind = "serial"\n[panel.serial]\nport = "/dev/ttyACM3"\n')
    config = load_config()
    assert config.panel.kind == "serial" and config.panel.serial.port == "/dev/ttyACM3"
    assert config.path == tmp_path / "config.toml"


def test_the_documented_example_is_valid():
    config = panel_config_from_toml(__import__("tomllib").loads(docs_example())["panel"])
    assert config.kind == "gpio"
    assert config.gpio == GPIOConfig()  # the example shows the defaults
    assert config.hold_time == 1.0 and config.bounce_time == 0.05
    assert config.serial == SerialConfig()


def test_a_full_panel_table(tmp_path):
    path = write(tmp_path, """
[panel]
kind = "gpio"
keyboard = false
hold_time = 0.8
bounce_time = 0.02

[panel.gpio]
next_turn = 4
undo = false
confirm = 24
read_dice = 25
leds = "players"
players = { purple = 5, yellow = 6 }
""")
    config = load_config(path)
    assert config.problems == ()
    panel = config.panel
    assert (panel.kind, panel.keyboard, panel.hold_time, panel.bounce_time) == \
        ("gpio", False, 0.8, 0.02)
    assert panel.gpio.button_pins() == {"next_turn": 4, "confirm": 24, "read_dice": 25}
    assert panel.gpio.players == (("purple", 5), ("yellow", 6))


@pytest.mark.parametrize(("text", "key"), [
    ('[panel]\nkind = "bluetooth"', "panel.kind"),
    ("[panel]\nhold_time = \"long\"", "panel.hold_time"),
    ("[panel]\nhold_time = 0", "panel.hold_time"),
    ("[panel]\nkeyboard = 1", "panel.keyboard"),
    ("[panel]\nhold_tme = 1.0", "panel.hold_tme"),
    ("[panel.gpio]\nconfirm = 40", "panel.gpio.confirm"),
    ("[panel.gpio]\nconfirm = 17", "panel.gpio.confirm"),
    ("[panel.gpio]\nrgb = [5, 6]", "panel.gpio.rgb"),
    ("[panel.gpio]\nrgb = [17, 6, 13]", "panel.gpio.rgb"),
    ("[panel.gpio]\nleds = \"players\"\nplayers = { mauve = 5 }", "panel.gpio.players.mauve"),
    ('[panel.serial]\nusb = "pico"', "panel.serial.usb"),
    ("[panel.serial]\nbaudrate = -1", "panel.serial.baudrate"),
    ("panel = 3", "panel"),
])
def test_a_bad_value_names_file_and_key_and_falls_back(tmp_path, caplog, text, key):
    path = write(tmp_path, text)
    config = load_config(path)
    assert config.panel == PanelConfig()
    [problem] = config.problems
    assert str(path) in problem and f"{key}:" in problem
    assert problem in caplog.text


def test_malformed_toml_is_reported_with_its_line(tmp_path):
    path = write(tmp_path, '[panel]\nkind = "gpio\n')
    config = load_config(path)
    assert config.panel == PanelConfig()
    [problem] = config.problems
    assert str(path) in problem and "line 2" in problem


def test_a_missing_explicit_file_is_reported(tmp_path):
    config = load_config(tmp_path / "nope.toml")
    assert config.panel == PanelConfig()
    assert "nope.toml" in config.problems[0] and "not found" in config.problems[0]


def test_an_unreadable_file_is_reported(tmp_path):
    config = load_config(tmp_path)  # a folder, not a file
    assert config.panel == PanelConfig()
    assert str(tmp_path) in config.problems[0]


def test_other_sections_are_left_to_their_owners(tmp_path):
    path = write(tmp_path, '[camera]\nsource = "1"\n[panel]\nkind = "serial"\n')
    config = load_config(path)
    assert config.problems == () and config.panel.kind == "serial"


def test_config_error_carries_the_key():
    with pytest.raises(PanelConfigError) as caught:
        panel_config_from_toml({"gpio": {"undo": "27"}})
    assert caught.value.key == "panel.gpio.undo"
