"""The display's backlight through Linux's sysfs (`/sys/class/backlight/<name>/`), so that the
app can set the screen's brightness where the display allows it.

The official Raspberry Pi 7" display appears there as `rpi_backlight` or `10-0045`, Touch
Display 2 and other DSI panels under names of their own; HDMI monitors have none (they have
their own buttons). Writing `brightness` needs the install's udev rule (deploy/), which lets the
`video` group write it. Knows nothing of the game: it takes and gives percents.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from companion.i18n import _

BACKLIGHT_ROOT = Path("/sys/class/backlight")
MIN_PERCENT = 10  # never darker: a black screen could not be found again by touch
MAX_PERCENT = 100
_GONE = {errno.ENOENT, errno.ENODEV, errno.ENXIO}


class BacklightError(Exception):
    """The backlight could not be read or set; the message says why and what to do."""


class Backlight:
    """One sysfs backlight device: its brightness as a percent of what it allows, gpiozero-style.

    Every read and write goes to the device's files, so a change made by someone else is seen
    and a display that was unplugged raises `BacklightError` instead of being remembered."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def __repr__(self) -> str:
        return f"Backlight({str(self.path)!r})"

    @property
    def name(self) -> str:
        """The device's name in sysfs, e.g. `rpi_backlight`."""
        return self.path.name

    @property
    def max_brightness(self) -> int:
        """The device's brightest level (its raw scale is 0..max_brightness)."""
        value = self._read("max_brightness")
        if value < 1:
            raise self._unreadable("max_brightness", str(value))
        return value

    @property
    def brightness(self) -> int:
        """The raw level asked of the device, 0..max_brightness (`actual_brightness`, where the
        driver has it, may lag behind a change)."""
        return self._read("brightness")

    @property
    def percent(self) -> int:
        """The brightness as a whole percent of max_brightness, rounded, 0..100 (below
        MIN_PERCENT only when something else set it so). Setting it takes a whole percent
        MIN_PERCENT..MAX_PERCENT, written as the nearest raw level in 1..max_brightness: never
        0, so the screen never goes black. Raises BacklightError when that fails."""
        top = self.max_brightness
        return min(MAX_PERCENT, (self.brightness * 100 + top // 2) // top)

    @percent.setter
    def percent(self, value: int) -> None:
        if type(value) is not int or not MIN_PERCENT <= value <= MAX_PERCENT:
            raise ValueError(f"brightness must be a whole percent from {MIN_PERCENT} to "
                             f"{MAX_PERCENT}, got {value!r}")
        top = self.max_brightness
        self._write("brightness", raw_level(value, top))

    def _read(self, file: str) -> int:
        path = self.path / file
        try:
            text = path.read_bytes().decode("ascii", errors="replace").strip()
        except OSError as error:
            raise self._failed(error, path, writing=False) from error
        try:
            return int(text)
        except ValueError as error:
            raise self._unreadable(file, repr(text[:20])) from error

    def _write(self, file: str, value: int) -> None:
        path = self.path / file
        try:
            with path.open("w", encoding="ascii") as out:
                out.write(f"{value}\n")
        except OSError as error:
            raise self._failed(error, path, writing=True) from error

    def _failed(self, error: OSError, path: Path, *, writing: bool) -> BacklightError:
        """The OSError of a read or write, in words."""
        if writing and isinstance(error, PermissionError):
            return BacklightError(_(
                "The display's brightness cannot be set: this user may not write {path}. Run "
                "the Pi install script (deploy/install.sh) once more, it lets the app set the "
                "backlight; then restart the Pi.").format(path=path))
        if error.errno in _GONE or not self.path.is_dir():
            return BacklightError(_(
                "The display's backlight {name} is gone ({path}): was the display unplugged? "
                "Check its cable and restart the Pi; until then the brightness stays as it "
                "is.").format(name=self.name, path=self.path))
        return BacklightError(_(
            "The display's backlight {name} could not be read or set ({error}). The "
            "brightness stays as it is; if this keeps happening, set it with the display's "
            "own controls.").format(name=self.name, error=error.strerror or error))

    def _unreadable(self, file: str, value: str) -> BacklightError:
        return BacklightError(_(
            "The display's backlight {name} gives {value} in {file}, which is not a brightness "
            "level. The brightness cannot be set on this display; use the display's own "
            "controls.").format(name=self.name, file=self.path / file, value=value))

def raw_level(percent: int, max_brightness: int) -> int:
    """The raw level nearest `percent` of `max_brightness`, but at least 1: the darkest step is
    still lit."""
    return max(1, (percent * max_brightness + 50) // 100)


def find_backlight(root: Path | None = None) -> Backlight | None:
    """The display's backlight: the first device under `root` (default $PHOENIX_BACKLIGHT_ROOT,
    else /sys/class/backlight) by name that has a brightness to set, or None where there is
    none (an HDMI monitor, a desktop PC, no sysfs)."""
    root = root or Path(os.environ.get("PHOENIX_BACKLIGHT_ROOT") or BACKLIGHT_ROOT)
    try:
        entries = sorted(root.iterdir(), key=lambda entry: entry.name)
    except OSError:
        return None
    for entry in entries:
        if (entry / "brightness").is_file() and (entry / "max_brightness").is_file():
            return Backlight(entry)
    return None
