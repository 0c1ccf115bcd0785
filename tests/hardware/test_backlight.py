"""The display's backlight (hardware/backlight.py) against a fake /sys/class/backlight in a
temporary folder: files holding numbers, as the kernel shows them."""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hardware.backlight import Backlight, BacklightError, find_backlight


def fake_device(root: Path, name: str, *, max_brightness: int | str = 255,
                brightness: int | str = 255) -> Path:
    """A backlight device as sysfs shows it: the class folder holds a link to the device."""
    device = root.parent / "devices" / name
    device.mkdir(parents=True)
    (device / "max_brightness").write_text(f"{max_brightness}\n")
    (device / "brightness").write_text(f"{brightness}\n")
    (device / "actual_brightness").write_text(f"{brightness}\n")
    (device / "bl_power").write_text("0\n")
    (device / "type").write_text("raw\n")
    root.mkdir(parents=True, exist_ok=True)
    (root / name).symlink_to(device)
    return device


def written(device: Path) -> int:
    return int((device / "brightness").read_text())


def refuse_writing(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make `path` read-only. Root writes any file, so there the kernel's answer to everyone
    else (EACCES) is given in its place."""
    path.chmod(0o444)
    if not os.access(path, os.W_OK):
        return
    real_open = Path.open

    def open_as_a_player(self: Path, mode: str = "r", *args: object, **kwargs: object):
        if self.resolve() == path.resolve() and set(mode) & set("wa+"):
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_open(self, mode, *args, **kwargs)

    monkeypatch.setattr(Path, "open", open_as_a_player)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return tmp_path / "class" / "backlight"


def test_no_backlight_folder_or_an_empty_one_finds_none(root):
    assert find_backlight(root) is None  # not Linux, or no sysfs
    root.mkdir(parents=True)
    assert find_backlight(root) is None  # an HDMI monitor


def test_the_one_backlight_is_found(root):
    device = fake_device(root, "rpi_backlight", brightness=200)
    backlight = find_backlight(root)
    assert backlight is not None and backlight.name == "rpi_backlight"
    assert backlight.max_brightness == 255 and backlight.brightness == 200
    assert backlight.percent == 78
    backlight.percent = 40
    assert written(device) == 102


def test_of_several_the_first_by_name_is_found_and_others_are_passed_over(root):
    fake_device(root, "rpi_backlight")
    fake_device(root, "10-0045")
    fake_device(root, "11-0045")
    (root / "00-not-a-device").write_text("")  # a stray file
    (root / "0-half").mkdir()  # a folder without a brightness
    assert find_backlight(root).name == "10-0045"


def test_percent_round_trip_on_the_official_7_inch_display(root):
    device = fake_device(root, "10-0045", max_brightness=31, brightness=31)
    backlight = find_backlight(root)
    assert backlight.percent == 100
    for percent in (10, 35, 50, 77, 100):
        backlight.percent = percent
        assert 1 <= written(device) <= 31
        assert abs(backlight.percent - percent) <= 2  # a step of 31 is 3.2 %
    backlight.percent = 100
    assert written(device) == 31


def test_the_darkest_setting_never_switches_the_backlight_off(root):
    for top in (1, 3, 4, 255):
        device = fake_device(root, f"dim-{top}", max_brightness=top)
        Backlight(root / f"dim-{top}").percent = 10
        assert written(device) >= 1


def test_a_backlight_set_to_0_by_someone_else_reads_0(root):
    fake_device(root, "rpi_backlight", brightness=0)
    assert find_backlight(root).percent == 0


@pytest.mark.parametrize("value", [0, 9, 101, 50.0, "50", True, None])
def test_a_percent_outside_10_to_100_is_refused_and_nothing_is_written(root, value):
    device = fake_device(root, "rpi_backlight", brightness=180)
    with pytest.raises(ValueError, match="whole percent from 10 to 100"):
        find_backlight(root).percent = value
    assert written(device) == 180


def test_a_read_only_brightness_says_to_run_the_install_script_again(root, monkeypatch):
    device = fake_device(root, "rpi_backlight", brightness=180)
    backlight = find_backlight(root)
    refuse_writing(device / "brightness", monkeypatch)
    assert backlight.percent == 71  # reading still works
    with pytest.raises(BacklightError) as raised:
        backlight.percent = 50
    message = str(raised.value)
    assert "may not write" in message and str(root / "rpi_backlight" / "brightness") in message
    assert "Run the Pi install script (deploy/install.sh) once more" in message
    assert "lets the app set the backlight" in message
    assert written(device) == 180


def test_the_message_speaks_the_players_language(root, monkeypatch, german):
    device = fake_device(root, "rpi_backlight")
    refuse_writing(device / "brightness", monkeypatch)
    with pytest.raises(BacklightError) as raised:
        find_backlight(root).percent = 50
    assert str(raised.value).startswith("Die Helligkeit der Anzeige lässt sich nicht einstellen")
    assert "(deploy/install.sh) noch einmal aus" in str(raised.value)


def test_a_display_that_vanished_says_so(root):
    device = fake_device(root, "rpi_backlight")
    backlight = find_backlight(root)
    shutil.rmtree(device)  # unplugged: the link in the class folder points at nothing
    with pytest.raises(BacklightError, match=r"rpi_backlight is gone \(.*\): was the "
                                             r"display unplugged\?"):
        _ = backlight.percent
    with pytest.raises(BacklightError, match="is gone"):
        backlight.percent = 50
    assert not device.exists()  # nothing was made in its place
    assert find_backlight(root) is None


def test_another_failure_names_the_device_and_the_error(root):
    device = fake_device(root, "rpi_backlight")
    (device / "brightness").unlink()
    (device / "brightness").mkdir()  # reads as the kernel's errors do: an OSError
    with pytest.raises(BacklightError, match="rpi_backlight could not be read or set "
                                             r"\(Is a directory\)") as raised:
        _ = Backlight(root / "rpi_backlight").percent
    assert "display's own controls" in str(raised.value)


@pytest.mark.parametrize(("file", "value", "shown"), [
    ("max_brightness", "0", "0"),
    ("max_brightness", "", "''"),
    ("brightness", "bright", "'bright'"),
    ("brightness", "\xff\xfe", None),
])
def test_an_unreadable_value_says_which_and_what_to_do(root, file, value, shown):
    device = fake_device(root, "rpi_backlight")
    (device / file).write_bytes(value.encode("latin-1"))
    with pytest.raises(BacklightError) as raised:
        _ = find_backlight(root).percent
    message = str(raised.value)
    assert str(root / "rpi_backlight" / file) in message
    assert "not a brightness level" in message and "display's own controls" in message
    if shown is not None:
        assert f"gives {shown} in" in message


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(top=st.integers(1, 10_000), percent=st.integers(10, 100))
def test_any_percent_on_any_scale_is_lit_and_reads_back_within_one_step(tmp_path, top,
                                                                         percent):
    device = tmp_path / "any"
    device.mkdir(exist_ok=True)
    (device / "max_brightness").write_text(f"{top}\n")
    (device / "brightness").write_text("0\n")
    backlight = Backlight(device)
    backlight.percent = percent
    level = written(device)
    assert 1 <= level <= top
    step = 100 / top  # one raw level in percent
    # the nearest level, read back rounded to a whole percent; or the darkest lit level
    # where the percent is nearer 0 than one step (never 0: that would be black)
    assert abs(backlight.percent - percent) <= step / 2 + 0.5 or (
        level == 1 and percent < step / 2)
