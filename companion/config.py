"""The app's TOML config file (`config.toml` in the user's data folder, or `--config PATH`).

Only the `[panel]` table is read here so far. A missing default file means all defaults; a file
that cannot be read or has a bad value is reported (file and key named, in `problems` and the
log) and the defaults are used, so the app always starts.
"""

from __future__ import annotations

import logging
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from companion import paths
from companion.files import JsonFileError, read_text
from hardware.config import PanelConfig, PanelConfigError, panel_config_from_toml

log = logging.getLogger(__name__)

CONFIG_NAME = "config.toml"


def default_config_path() -> Path:
    """Where the config file is looked for when no path is given: <data folder>/config.toml."""
    return paths.data_folder() / CONFIG_NAME


@dataclass(frozen=True)
class AppConfig:
    """The settings in force, the file read (None: none could be read) and what was wrong."""

    panel: PanelConfig = field(default_factory=PanelConfig)
    path: Path | None = None
    problems: tuple[str, ...] = ()


def load_config(path: Path | str | None = None) -> AppConfig:
    """Read the config file at `path` (default: default_config_path()); never raises on a bad
    file: each problem is logged, listed in `problems`, and the defaults are used instead."""
    explicit = path is not None
    file = Path(path) if path is not None else default_config_path()
    if not file.exists():
        if not explicit:
            return AppConfig()
        return _defaults_because(f"config file {file} not found; using the default settings")
    try:
        document = tomllib.loads(read_text(file, show=f"config file {file}"))
    except JsonFileError as error:  # missing, not a regular file, not UTF-8, unreadable
        return _defaults_because(f"{error}; using the default settings")
    except tomllib.TOMLDecodeError as error:
        return _defaults_because(f"config file {file} is not valid TOML ({error}); "
                                 "using the default settings")
    except RecursionError:
        return _defaults_because(f"config file {file} is nested too deeply to be a config "
                                 "file; using the default settings")
    problems: list[str] = []
    panel = PanelConfig()
    table = document.get("panel", {})
    if not isinstance(table, dict):
        problems.append(f"{file}: panel: must be a table ([panel]); using the default panel "
                        "settings (touch only)")
    else:
        try:
            panel = panel_config_from_toml(table)
        except PanelConfigError as error:
            problems.append(f"{file}: {error.key}: {error.message}; using the default panel "
                            "settings (touch only)")
    for problem in problems:
        log.warning("%s", problem)
    return AppConfig(panel=panel, path=file, problems=tuple(problems))


def _defaults_because(problem: str) -> AppConfig:
    log.warning("%s", problem)
    return AppConfig(problems=(problem,))
