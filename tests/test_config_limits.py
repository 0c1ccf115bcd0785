"""Limits and checks of the config file (issue 28, classes 4 and 5): its size before it is
parsed, the window size, the camera source and the serial panel's baudrate; each bad value is
named with what to write instead, and the defaults are used (the app always starts)."""

from __future__ import annotations

import tomllib

import pytest

from companion import config as app_config
from companion.cli import main
from companion.config import (
    MAX_CONFIG_BYTES,
    camera_config_from_toml,
    display_config_from_toml,
    load_config,
    parse_window_size,
)
from hardware.config import SettingError, panel_config_from_toml


def test_a_10_mb_config_file_is_refused_before_it_is_parsed(tmp_path, monkeypatch):
    def no_parsing(text):
        raise AssertionError("a too large file was parsed")

    monkeypatch.setattr(tomllib, "loads", no_parsing)
    path = tmp_path / "config.toml"
    path.write_text("# " + "x" * (10 * 1024 * 1024) + "\n")
    loaded = load_config(path)
    assert loaded.display == app_config.DisplayConfig() and len(loaded.problems) == 1
    assert "too large to be a config file" in loaded.problems[0]
    assert f"at most {MAX_CONFIG_BYTES}" in loaded.problems[0]
    assert app_config.open_config_file(path).bad  # the settings screen starts afresh


def test_a_config_file_just_under_the_limit_is_read(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[display]\nsize = "1024x600"\n# ' + "x" * (MAX_CONFIG_BYTES - 100) + "\n")
    loaded = load_config(path)
    assert loaded.problems == () and loaded.display.size == (1024, 600)


@pytest.mark.parametrize("size", ["100000x100000", "7681x4320", "7680x4321", "²000x480",
                                  "9" * 5000 + "x480", "319x240"])
def test_window_sizes_beyond_a_screen_are_refused(size, tmp_path):
    with pytest.raises(SettingError) as refused:
        display_config_from_toml({"size": size})
    assert refused.value.key == "display.size" and "7680x4320" in refused.value.message
    path = tmp_path / "config.toml"
    path.write_text(f'[display]\nsize = "{size}"\n')
    loaded = load_config(path)
    assert loaded.display.size == (800, 480) and "display.size" in loaded.problems[0]


def test_the_largest_window_size_is_accepted():
    assert parse_window_size("7680x4320") == (7680, 4320)
    assert parse_window_size("320x240") == (320, 240)


@pytest.mark.parametrize("source", ["²", "١٢", "64", 64, -1, "99999999999", "a\0b", "", 1.5,
                                    "x" * 5000])
def test_bad_camera_sources_are_refused(source):
    with pytest.raises(SettingError) as refused:
        camera_config_from_toml({"source": source})
    assert refused.value.key == "camera.source"


@pytest.mark.parametrize("source", ["auto", "pi", "none", "0", 3, "63", "/dev/video2",
                                    "recordings/tray.mp4", "photos"])
def test_good_camera_sources_are_accepted(source):
    assert camera_config_from_toml({"source": source}).source == str(source)


@pytest.mark.parametrize("baudrate", [2 ** 40, 0, -1, 49, 4_000_001, 115200.0, True, "9600"])
def test_baudrates_out_of_range_are_refused(baudrate):
    with pytest.raises(SettingError) as refused:
        panel_config_from_toml({"serial": {"baudrate": baudrate}})
    assert refused.value.key == "panel.serial.baudrate"
    assert "from 50 to 4000000" in refused.value.message


@pytest.mark.parametrize("baudrate", [50, 9600, 115200, 4_000_000])
def test_standard_baudrates_are_accepted(baudrate):
    assert panel_config_from_toml({"serial": {"baudrate": baudrate}}).serial.baudrate == baudrate


@pytest.mark.parametrize("seconds", ["nan", "-5", "inf", "3601", "-inf"])
def test_panel_test_refuses_seconds_that_are_no_time(seconds, tmp_path, capsys):
    path = tmp_path / "config.toml"
    path.write_text('[panel]\nkind = "serial"\n[panel.serial]\nport = "/nonexistent/tty"\n')
    try:
        code = main(["panel-test", "--config", str(path), f"--seconds={seconds}"])
    except SystemExit as done:
        code = done.code
    out, err = capsys.readouterr()
    assert code == 2 and "give a number of seconds from 0 to 3600" in err, (out, err)
    assert "Traceback" not in err
