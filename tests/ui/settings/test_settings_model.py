"""The settings screen's model without a window: each value checked by the config's own rules,
refusals in words, saving round-trips and keeps what the screen does not edit, an unusable file
replaced only when saved (companion/ui/settings_model.py)."""

from __future__ import annotations

import tomllib

from companion.config import load_config
from companion.ui.settings.settings_model import Locations, SettingsModel, serial_ports

HAND_WRITTEN = """# my table's panel
[panel]
kind = "none"
bounce_time = 0.02   # noisy buttons

[panel.gpio]
leds = "none"

[camera]
source = "1"
"""


def model_of(tmp_path, text=None):
    path = tmp_path / "config.toml"
    if text is None:
        return SettingsModel.open(path), path
    path.write_text(text, encoding="utf-8")
    return SettingsModel.open(path, load_config(path).problems), path


def test_a_gpio_panel_saved_round_trips_and_keeps_the_rest(tmp_path):
    model, path = model_of(tmp_path, HAND_WRITTEN)
    assert model.set_kind("gpio") is None
    assert model.set_pin("undo", 24) is None
    assert model.set_pin("read_dice", None) is None
    assert model.set_hold_ms(800) is None
    assert model.set_fullscreen(True) is None
    assert model.set_size((1024, 600)) is None
    assert model.unsaved
    assert model.save() is None and not model.unsaved
    config = load_config(path)
    assert config.problems == ()
    assert (config.panel.kind, config.panel.gpio.undo, config.panel.gpio.read_dice) == \
        ("gpio", 24, None)
    assert config.panel.hold_time == 0.8 and config.panel.bounce_time == 0.02
    assert (config.display.fullscreen, config.display.size) == (True, (1024, 600))
    text = path.read_text(encoding="utf-8")
    assert "# noisy buttons" in text and "# my table's panel" in text
    assert tomllib.loads(text)["camera"] == {"source": "1"}
    again, _ = model_of(tmp_path)
    assert again.panel == config.panel and again.display == config.display


def test_inline_tables_are_edited_in_place(tmp_path):
    model, path = model_of(tmp_path, 'panel = { kind = "gpio" }\ndisplay = {fullscreen = true}\n')
    assert model.set_pin("undo", 24) is None and model.set_size((1024, 600)) is None
    assert model.save() is None
    assert tomllib.loads(path.read_text(encoding="utf-8")) == {
        "panel": {"kind": "gpio", "gpio": {"undo": 24}},
        "display": {"fullscreen": True, "size": "1024x600"}}


def test_refused_values_say_why_in_words_and_change_nothing(tmp_path):
    model, path = model_of(tmp_path, HAND_WRITTEN)
    before = model.values
    assert model.set_pin("undo", 40) == \
        "Undo button: must be a BCM GPIO number from 0 to 27, got 40"
    assert model.set_pin("confirm", 17) == \
        "Confirm button: GPIO17 is already given to the Next turn button"
    assert model.set_hold_ms(30) == \
        "Long press time: must be a number of seconds from 0.05 to 60, got 0.03"
    for button in ("next_turn", "undo", "confirm"):
        assert model.set_pin(button, None) is None
    assert model.set_pin("read_dice", None) == \
        "Next turn button: no button is wired (all are false)"
    assert model.panel.gpio.button_pins() == {"read_dice": 23}  # the refused ones not kept
    assert model.values != before
    assert path.read_text(encoding="utf-8") == HAND_WRITTEN  # nothing saved yet


def test_a_pin_given_to_an_led_is_refused(tmp_path):
    model, _ = model_of(tmp_path)  # default LEDs: RGB on 5, 6, 13
    assert model.set_pin("undo", 6) == \
        "RGB LED pins: GPIO6 is already given to the Undo button"


def test_a_serial_port_typed_or_chosen_then_cleared(tmp_path):
    model, path = model_of(tmp_path)
    assert model.set_kind("serial") is None and model.set_port(" /dev/ttyACM1 ") is None
    assert model.save() is None
    assert load_config(path).panel.serial.port == "/dev/ttyACM1"
    assert model.set_port("") is None and model.save() is None
    assert load_config(path).panel.serial.port is None
    assert "port" not in tomllib.loads(path.read_text(encoding="utf-8"))["panel"]["serial"]


def test_serial_ports_found_under_dev(tmp_path):
    for name in ("ttyACM0", "ttyUSB1", "ttyS0", "serial/by-id/usb-Pico-if00"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).touch()
    assert serial_ports(tmp_path) == [str(tmp_path / n) for n in
                                      ("serial/by-id/usb-Pico-if00", "ttyACM0", "ttyUSB1")]


def test_an_unreadable_file_shows_defaults_and_asks_before_it_is_replaced(tmp_path):
    bad = '[panel]\nkind = "gpio"\n[panel.gpio]\nconfirm = 40\n'
    model, path = model_of(tmp_path, bad)
    assert "panel.gpio.confirm" in model.problems_text()
    assert model.panel.kind == "none" and model.must_ask
    assert "config.toml.bad" in model.replace_question()
    assert model.set_fullscreen(True) is None
    model.discard()  # the player said No
    assert not model.unsaved and not model.display.fullscreen
    assert path.read_text(encoding="utf-8") == bad
    assert model.set_fullscreen(True) is None and model.save() is None  # Yes
    assert (tmp_path / "config.toml.bad").read_text(encoding="utf-8") == bad
    assert load_config(path).problems == () and load_config(path).display.fullscreen
    assert not model.must_ask


def test_a_missing_file_is_not_asked_about(tmp_path):
    model, path = model_of(tmp_path)
    assert not model.must_ask and model.problems_text() == ""
    assert model.set_kind("gpio") is None and model.save() is None
    assert load_config(path).panel.kind == "gpio"


def test_a_write_failure_is_said_and_the_change_kept(tmp_path):
    (tmp_path / "config.toml").mkdir()
    model = SettingsModel.open(tmp_path / "config.toml")
    assert model.set_kind("gpio") is None
    problem = model.save()
    assert problem.startswith("Not saved: ") and "config.toml" in problem
    assert model.unsaved and model.panel.kind == "gpio"


def test_locations_lines(tmp_path):
    lines = dict(Locations(tmp_path, tmp_path / "games.sqlite", tmp_path / "config.toml",
                           tmp_path / "catalogue-overlay.json").lines())
    assert lines["database"] == f"Games: {tmp_path / 'games.sqlite'}"
    assert lines["config"] == f"Settings: {tmp_path / 'config.toml'}"


def test_the_dice_camera_is_chosen_and_its_profile_set_and_cleared(tmp_path):
    from companion.ui.settings.settings_model import camera_sources

    assert camera_sources([0, 2], True, "none") == [
        ("none", "No camera"), ("auto", "The first found"), ("pi", "Pi camera"),
        ("0", "USB camera 0"), ("2", "USB camera 2")]
    assert camera_sources([], False, "/tmp/frames")[-1] == ("/tmp/frames", "Other: /tmp/frames")
    model, _ = model_of(tmp_path)
    assert model.set_camera(" 2 ") is None and model.camera.source == "2"
    assert model.set_camera("") == "Camera: must be \"none\", \"auto\", \"pi\", a USB " \
        "camera's number or a video file or folder of photos, got ''"
    assert model.set_profile("/data/dice-profile.npz") is None
    assert model.save() is None
    assert load_config(tmp_path / "config.toml").camera.profile == "/data/dice-profile.npz"
    assert model.set_profile("") is None and model.camera.profile == ""
