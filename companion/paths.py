"""Where the app keeps a user's files: the settings in the config folder (companion.config), the
rest in the data folder (the catalogue overlay, the dice camera's readings and calibration; the
game database: companion.store.db)."""

from __future__ import annotations

import os
from pathlib import Path

APP_FOLDER = "phoenix-companion"
CONFIG_NAME = "config.toml"


def data_folder() -> Path:
    """The user's data folder: $PHOENIX_COMPANION_HOME, else $XDG_DATA_HOME/phoenix-companion,
    else ~/.local/share/phoenix-companion. Not created here; writers create it when they write."""
    return _folder("PHOENIX_COMPANION_HOME", "XDG_DATA_HOME", Path(".local") / "share")


def config_folder() -> Path:
    """The user's config folder, where the settings are kept apart from the data (XDG base
    directories): $PHOENIX_COMPANION_CONFIG, else $XDG_CONFIG_HOME/phoenix-companion, else
    ~/.config/phoenix-companion. Not created here."""
    return _folder("PHOENIX_COMPANION_CONFIG", "XDG_CONFIG_HOME", Path(".config"))


def config_file() -> Path:
    """Where the app's settings belong: config.toml in the config folder (before they had a
    folder of their own they were in the data folder: companion.config.default_config_path)."""
    return config_folder() / CONFIG_NAME


def _folder(explicit: str, xdg: str, under_home: Path) -> Path:
    """The folder named by the variable `explicit`, else APP_FOLDER in the XDG base folder `xdg`
    (ignored unless absolute, as the spec says), else in `under_home` in the home folder."""
    chosen = os.environ.get(explicit)
    if chosen:
        return Path(chosen)
    base = os.environ.get(xdg, "")
    return (Path(base) if os.path.isabs(base) else Path.home() / under_home) / APP_FOLDER


def overlay_path(chosen: Path | str | None = None) -> Path:
    """The catalogue overlay to use: `chosen` (e.g. --overlay), else $PHOENIX_OVERLAY, else the
    one in the user's data folder."""
    if chosen is not None:
        return Path(chosen)
    explicit = os.environ.get("PHOENIX_OVERLAY")
    return Path(explicit) if explicit else data_folder() / "catalogue-overlay.json"


def dice_readings(kind: str = "pips") -> Path:
    """The folder of dice readings confirmed at the table (photos and labels.json) that the
    calibration of that kind of dice ("pips" or "icons") is made from."""
    return data_folder() / ("icon-readings" if kind == "icons" else "dice-readings")


def dice_profile(kind: str = "pips") -> Path:
    """The calibration profile of that kind of dice: made on the settings screen from the
    readings kept, or (icon dice) taught with `phoenix-dice teach`."""
    return data_folder() / ("icon-dice.npz" if kind == "icons" else "dice-profile.npz")
