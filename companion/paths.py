"""Where the app keeps a user's files (the catalogue overlay, the dice camera's readings and
calibration; the game database: companion.store.db)."""

from __future__ import annotations

import os
from pathlib import Path

APP_FOLDER = "phoenix-companion"


def data_folder() -> Path:
    """The user's data folder: $PHOENIX_COMPANION_HOME, else $XDG_DATA_HOME/phoenix-companion,
    else ~/.local/share/phoenix-companion. Not created here; writers create it when they write."""
    explicit = os.environ.get("PHOENIX_COMPANION_HOME")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / APP_FOLDER


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
