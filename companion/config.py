"""The app's TOML config file (`config.toml` in the user's config folder, or `--config PATH`).

The `[panel]`, `[display]`, `[camera]`, `[logging]`, `[bgstats]` and `[phones]` tables are read here
(other tables are left to their owners). A missing default file means all defaults; a file
that cannot be read or has a bad value is reported (file and key named, in `problems` and the
log) and the defaults are used, so the app always starts.

The settings screen edits the file as a `ConfigFile` (tomlkit keeps its comments and every key
the screen does not change) and `save_config_file` writes it atomically.

The file used to be kept in the data folder; one found there is moved to the config folder the
first time the default file is looked for (`default_config_path`).
"""

from __future__ import annotations

import errno
import logging
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomlkit

from companion import i18n, paths
from companion.files import (
    JsonFileError,
    make_private_folder,
    read_bytes,
    read_text,
    write_atomically,
    write_text_atomically,
)
from companion.i18n import DEFAULT as DEFAULT_LANGUAGE
from companion.i18n import LANGUAGES, N_, _
from companion.store.export import BGG_ID
from hardware.config import PanelConfig, SettingError, panel_config_from_toml
from vision.faces import FaceMapError, parse_face_map

log = logging.getLogger(__name__)

BAD_SUFFIX = ".bad"
WINDOW_SIZES = ((800, 480), (1024, 600), (1280, 800))  # the sizes the app is laid out for
MAX_WINDOW_SIZE = (7680, 4320)  # an 8K screen: a window never needs more
MAX_CONFIG_BYTES = 1024 * 1024  # a config file is a few KB; a larger one is not read
MAX_CAMERA_INDEX = 63  # the highest USB camera number (/dev/video63)
# where touches come from: "auto" is "hidinput" in the kiosk (--kiosk), else "mouse"
TOUCH_SOURCES = ("auto", "mouse", "hidinput", "mtdev")
ROTATIONS = (0, 90, 180, 270)
LOG_LEVELS = ("debug", "info", "warning", "error")
DICE_KINDS = ("pips", "icons")  # ordinary dice read by their pips; the game's own icon dice
DEFAULT_FACES = "1-2=food,3-4=water,5=metal,6=human"  # the rules' Terran dice on a d6
# what the phones' links may name as this machine: a host name or an IPv4 address
ADDRESS = re.compile(r"auto|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?")


def default_config_path() -> Path:
    """The config file read and saved when no path is given: paths.config_file(). Settings left
    at their old place, the data folder, are moved there first; while they cannot be moved they
    are used where they are (move_old_config)."""
    new = paths.config_file()
    old = paths.data_folder() / paths.CONFIG_NAME
    return new if move_old_config(old, new) else old


def move_old_config(old: Path, new: Path) -> bool:
    """Move the settings at `old` to `new` once, so that nothing is lost when their place
    changes: not when `new` is there already (it wins; `old` is left, and so is the same file
    seen from two paths) or `old` is not a file. Atomic on one filesystem (os.replace); across
    two, copied beside `new`, flushed and renamed, then `old` removed. Its `.bad` copies stay.
    True when `new` is the file to use; False when `old` could not be moved (why is logged)
    and is to be read where it is."""
    if os.path.lexists(new) or not old.is_file():
        return True
    try:
        make_private_folder(new.parent)
        try:
            os.replace(old, new)
        except OSError as error:
            if error.errno != errno.EXDEV:
                raise
            _copy_across(old, new)
    except (OSError, JsonFileError) as error:
        log.warning("settings not moved from %s to %s (%s); read where they are", old, new,
                    error)
        return False
    log.info("settings moved from %s to %s", old, new)
    return True


def _copy_across(old: Path, new: Path) -> None:
    """Copy `old` to `new` on another filesystem (a temporary file beside `new`, flushed to
    disk, then renamed), then remove `old`: when it cannot be removed the copy is used all the
    same (it would win from the next start on) and the copy left behind is logged."""
    write_atomically(new, old.read_bytes())
    try:
        old.unlink()
    except OSError as error:
        log.warning("settings copied from %s to %s, but the old file could not be removed "
                    "(%s); the new one is used", old, new, error)


@dataclass(frozen=True)
class DisplayConfig:
    """How the window opens at start and where touches come from (the `[display]` table)."""

    fullscreen: bool = False
    size: tuple[int, int] = WINDOW_SIZES[0]
    touch: str = "auto"  # one of TOUCH_SOURCES
    rotation: int = 0  # degrees clockwise, one of ROTATIONS (Touch Display 2 in landscape: 90)
    language: str = DEFAULT_LANGUAGE  # one of companion.i18n.LANGUAGES
    brightness: int | None = None  # the backlight in percent, 10..100; None leaves it as it is

    def window(self, fullscreen: bool,
               size: tuple[int, int] | None) -> tuple[bool, tuple[int, int]]:
        """Full screen and size for the window: the command line's --fullscreen (when given)
        and --size win over the file."""
        return fullscreen or self.fullscreen, size or self.size


def size_text(size: tuple[int, int]) -> str:
    """A window size as written in the file and on the command line: "800x480"."""
    return f"{size[0]}x{size[1]}"


def parse_window_size(text: str) -> tuple[int, int]:
    """"WIDTHxHEIGHT" in pixels, from 320x240 to MAX_WINDOW_SIZE; ValueError if not."""
    width, sep, height = text.lower().partition("x")
    if not (sep and len(text) <= 16 and width.isascii() and width.isdigit()
            and height.isascii() and height.isdigit()
            and 320 <= int(width) <= MAX_WINDOW_SIZE[0]
            and 240 <= int(height) <= MAX_WINDOW_SIZE[1]):
        raise ValueError(_("must be WIDTHxHEIGHT such as 800x480 (from 320x240 to {most}), "
                           "got {value}").format(most=size_text(MAX_WINDOW_SIZE),
                                                 value=repr(text[:40])))
    return int(width), int(height)


def display_config_from_toml(table: Mapping[str, Any], prefix: str = "display") -> DisplayConfig:
    """Validate a parsed `[display]` table; SettingError names the first bad key."""
    _known_keys(table, prefix, ("fullscreen", "size", "touch", "rotation", "language",
                                "brightness"))
    fullscreen = table.get("fullscreen", DisplayConfig.fullscreen)
    if not isinstance(fullscreen, bool):
        raise SettingError(f"{prefix}.fullscreen", _("must be true or false, got {value}").format(
            value=repr(fullscreen)))
    size = table.get("size", size_text(DisplayConfig.size))
    try:
        if not isinstance(size, str):
            raise ValueError(_("must be a string such as \"800x480\", got {value}").format(
                value=repr(size)))
        parsed = parse_window_size(size)
    except ValueError as error:
        raise SettingError(f"{prefix}.size", str(error)) from None
    touch = _one_of(table, prefix, "touch", TOUCH_SOURCES, DisplayConfig.touch)
    rotation = table.get("rotation", DisplayConfig.rotation)
    if type(rotation) is not int or rotation not in ROTATIONS:
        raise SettingError(f"{prefix}.rotation", _("must be 0, 90, 180 or 270 (degrees), got "
                                                   "{value}").format(value=repr(rotation)))
    language = _one_of(table, prefix, "language", tuple(LANGUAGES), DisplayConfig.language)
    brightness = table.get("brightness")
    if brightness is not None and (type(brightness) is not int or not 10 <= brightness <= 100):
        raise SettingError(f"{prefix}.brightness", _("must be a whole percent from 10 to 100, "
                                                     "got {value}").format(value=repr(brightness)))
    return DisplayConfig(fullscreen=fullscreen, size=parsed, touch=touch, rotation=rotation,
                         language=language, brightness=brightness)


@dataclass(frozen=True)
class CameraConfig:
    """The camera that reads the expedition dice (the `[camera]` table): `source` is "none"
    (dice are tapped in), "auto", "pi", a USB camera's number, or a video file or folder of
    photos (recorded frames); `profile` a table's calibration (`phoenix-dice calibrate`)."""

    source: str = "none"
    dice: str = "pips"  # one of DICE_KINDS
    faces: str = DEFAULT_FACES  # pip dice: which face each number of pips is
    profile: str = ""  # pip dice: a profile file's path; "" reads with no calibration
    icons: str = ""  # icon dice: the taught profile's path; "": the data folder's
    settle: float = 0.5  # seconds the same dice are seen before the reading is taken

    @property
    def face_map(self) -> dict[int, str]:
        """Pips -> face, from `faces` (checked when read)."""
        return parse_face_map(self.faces)

    @property
    def icon_profile(self) -> Path:
        """The taught icon dice: `icons`, else the one in the data folder (where the settings
        and `phoenix-dice teach` put it)."""
        return Path(self.icons) if self.icons else paths.dice_profile("icons")

    @property
    def reads_dice(self) -> bool:
        """Whether the camera can read the dice: one is chosen and, for icon dice, they have
        been taught."""
        return self.on and (self.dice == "pips" or self.icon_profile.is_file())

    @property
    def on(self) -> bool:
        """Whether a camera is to be used at all."""
        return self.source != "none"


def camera_config_from_toml(table: Mapping[str, Any], prefix: str = "camera") -> CameraConfig:
    """Validate a parsed `[camera]` table; SettingError names the first bad key."""
    _known_keys(table, prefix, ("source", "dice", "faces", "profile", "icons", "settle"))
    source = table.get("source", CameraConfig.source)
    if type(source) is int and 0 <= source <= MAX_CAMERA_INDEX:
        source = str(source)
    if isinstance(source, str) and source.strip().isdigit() and not (
            source.strip().isascii() and int(source.strip()[:4]) <= MAX_CAMERA_INDEX):
        raise SettingError(f"{prefix}.source", _("a camera's number is written with the digits "
                                                 "0-9, from 0 to {most}; got {value}").format(
                                                     most=MAX_CAMERA_INDEX,
                                                     value=repr(source)[:40]))
    if not isinstance(source, str) or not source.strip() or "\0" in source \
            or len(source) > 4096:
        raise SettingError(f"{prefix}.source", _('must be "none", "auto", "pi", a USB camera\'s '
                                                 "number or a video file or folder of photos, "
                                                 "got {value}").format(value=repr(source)))
    dice = _one_of(table, prefix, "dice", DICE_KINDS, CameraConfig.dice)
    faces = table.get("faces", CameraConfig.faces)
    try:
        if not isinstance(faces, str):
            raise FaceMapError(repr(faces))
        parse_face_map(faces)
    except FaceMapError:
        raise SettingError(f"{prefix}.faces", _("must give each number of pips 1 to 6 one of "
                                                "food, water, metal, human, as in \"{example}\"; "
                                                "got {value}").format(example=DEFAULT_FACES,
                                                                      value=repr(faces))) from None
    profile, icons = (table.get(key, getattr(CameraConfig, key)) for key in ("profile", "icons"))
    for key, path in (("profile", profile), ("icons", icons)):
        if not isinstance(path, str):
            raise SettingError(f"{prefix}.{key}", _("must be a calibration profile's path "
                                                    "(phoenix-dice calibrate), got {value}").format(
                                                        value=repr(path)))
    settle = table.get("settle", CameraConfig.settle)
    if type(settle) not in (int, float) or not 0 <= settle <= 10:
        raise SettingError(f"{prefix}.settle", _("must be a number of seconds from 0 to 10, "
                                                 "got {value}").format(value=repr(settle)))
    return CameraConfig(source=source.strip(), dice=dice, faces=faces.strip(), profile=profile,
                        icons=icons, settle=float(settle))


@dataclass(frozen=True)
class LoggingConfig:
    """What the app logs to stderr, the journal under systemd (the `[logging]` table)."""

    level: str = "info"  # one of LOG_LEVELS


def logging_config_from_toml(table: Mapping[str, Any], prefix: str = "logging") -> LoggingConfig:
    """Validate a parsed `[logging]` table; SettingError names the first bad key."""
    _known_keys(table, prefix, ("level",))
    return LoggingConfig(level=_one_of(table, prefix, "level", LOG_LEVELS, LoggingConfig.level))


@dataclass(frozen=True)
class BgStatsConfig:
    """What BG Stats exports and links say about the game (the `[bgstats]` table)."""

    bgg_id: int = BGG_ID  # the game's BoardGameGeek id; its source: companion.store.export


def bgstats_config_from_toml(table: Mapping[str, Any], prefix: str = "bgstats") -> BgStatsConfig:
    """Validate a parsed `[bgstats]` table; SettingError names the first bad key."""
    _known_keys(table, prefix, ("bgg_id",))
    bgg_id = table.get("bgg_id", BgStatsConfig.bgg_id)
    if type(bgg_id) is not int or bgg_id < 1:
        raise SettingError(f"{prefix}.bgg_id", _("must be a BoardGameGeek game id, a whole "
                                                 "number of 1 or more (Space Station Phoenix: "
                                                 "{id}), got {value}").format(
                                                     id=BGG_ID, value=repr(bgg_id)))
    return BgStatsConfig(bgg_id=bgg_id)


@dataclass(frozen=True)
class PhonesConfig:
    """The players' phone pages (the `[phones]` table): served once a network is up, on
    `port`; the links name `address` ("auto": this machine's address on the local network)."""

    on: bool = True
    port: int = 8080
    address: str = "auto"


def phones_config_from_toml(table: Mapping[str, Any], prefix: str = "phones") -> PhonesConfig:
    """Validate a parsed `[phones]` table; SettingError names the first bad key."""
    _known_keys(table, prefix, ("on", "port", "address"))
    on, port = table.get("on", PhonesConfig.on), table.get("port", PhonesConfig.port)
    address = table.get("address", PhonesConfig.address)
    if type(on) is not bool:
        raise SettingError(f"{prefix}.on", _("must be true or false, got {value}").format(
            value=repr(on)))
    if type(port) is not int or not 1024 <= port <= 65535:
        raise SettingError(f"{prefix}.port", _("must be a port number from 1024 to 65535, got "
                                               "{value}").format(value=repr(port)))
    if not isinstance(address, str) or not ADDRESS.fullmatch(address):
        raise SettingError(f"{prefix}.address", _('must be "auto" or the host name or IP '
                                                  "address the phones reach this machine at, "
                                                  "got {value}").format(value=repr(address)))
    return PhonesConfig(on=on, port=port, address=address)


def _known_keys(table: Mapping[str, Any], prefix: str, known: tuple[str, ...]) -> None:
    """SettingError for the first key of the table that is not one of `known`."""
    for key in table:
        if key not in known:
            raise SettingError(f"{prefix}.{key}", _("unknown setting (known: {keys})").format(
                keys=", ".join(known)))


def _one_of(table: Mapping[str, Any], prefix: str, key: str, choices: tuple[str, ...],
            default: str) -> str:
    """A string setting that must be one of `choices` (absent: `default`)."""
    value = table.get(key, default)
    if value not in choices:
        words = ", ".join(f'"{choice}"' for choice in choices)
        raise SettingError(f"{prefix}.{key}", _("must be one of {choices}, got {value}").format(
            choices=words, value=repr(value)))
    return value


# table name -> (its validator, what is used instead of a bad table: words marked with N_,
# translated where shown, "{id}" the default BoardGameGeek id)
SECTIONS: dict[str, tuple[Callable[[Mapping[str, Any], str], Any], str]] = {
    "panel": (panel_config_from_toml, N_("the default panel settings (touch only)")),
    "display": (display_config_from_toml, N_("the default display settings")),
    "camera": (camera_config_from_toml, N_("no camera (dice are tapped in)")),
    "logging": (logging_config_from_toml, N_("the default logging settings (level info)")),
    "bgstats": (bgstats_config_from_toml, N_("the default BoardGameGeek id {id}")),
    "phones": (phones_config_from_toml, N_("the default phone settings (on, port 8080)")),
}


def read_section(document: Mapping[str, Any], name: str) -> Any:
    """One of the SECTIONS of a parsed document, validated (absent: its defaults);
    SettingError names the first bad key."""
    table = document.get(name, {})
    if not isinstance(table, Mapping):
        raise SettingError(name, _("must be a table ([{name}])").format(name=name))
    return SECTIONS[name][0](table, name)


@dataclass(frozen=True)
class AppConfig:
    """The settings in force, the file read (None: none could be read) and what was wrong."""

    panel: PanelConfig = field(default_factory=PanelConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    logging: LoggingConfig = field(default_factory=LoggingConfig)
    bgstats: BgStatsConfig = field(default_factory=BgStatsConfig)
    phones: PhonesConfig = field(default_factory=PhonesConfig)
    path: Path | None = None
    problems: tuple[str, ...] = ()


def load_config(path: Path | str | None = None, *, quiet: bool = False) -> AppConfig:
    """Read the config file at `path` (default: default_config_path()); never raises on a bad
    file: each problem is logged (not when `quiet`: read again for another language), listed
    in `problems` (in the language spoken now), and the defaults are used instead."""
    explicit = path is not None
    file = Path(path) if path is not None else default_config_path()
    if not file.exists():
        if not explicit:
            return AppConfig()
        return _defaults_because(_("config file {file} not found; using the default "
                                   "settings").format(file=file), quiet)
    try:
        document = _parse(file)[1]
    except ValueError as error:
        return _defaults_because(_("{problem}; using the default settings").format(
            problem=error), quiet)
    problems: list[str] = []
    values: dict[str, Any] = {}
    for name, (_validator, fallback) in SECTIONS.items():
        try:
            values[name] = read_section(document, name)
        except SettingError as error:
            values[name] = read_section({}, name)
            problems.append(_("{file}: {key}: {problem}; using {fallback}").format(
                file=file, key=error.key, problem=error.message,
                fallback=i18n._(fallback).format(id=BGG_ID)))
    for problem in problems if not quiet else ():
        log.warning("%s", problem)
    return AppConfig(**values, path=file, problems=tuple(problems))


def _parse(file: Path) -> tuple[str, dict[str, Any]]:
    """The file's text and TOML; ValueError saying what is wrong with it (JsonFileError:
    missing, not a regular file, not UTF-8, unreadable)."""
    try:
        size = file.stat().st_size
    except (OSError, ValueError):
        size = 0  # read_text says what is wrong with it
    if size > MAX_CONFIG_BYTES:
        raise ValueError(_("config file {file} is too large to be a config file ({size} "
                           "bytes; at most {most}); remove it or give another").format(
                               file=file, size=size, most=MAX_CONFIG_BYTES))
    # the read is bounded too (a file grown since is refused, not read whole)
    text = read_text(file, show=_("config file {file}").format(file=file),
                     limit=MAX_CONFIG_BYTES)
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(_("config file {file} is not valid TOML ({error})").format(
            file=file, error=error)) from None
    except RecursionError:
        raise ValueError(_("config file {file} is nested too deeply to be a config "
                           "file").format(file=file)) from None


def _defaults_because(problem: str, quiet: bool = False) -> AppConfig:
    if not quiet:
        log.warning("%s", problem)
    return AppConfig(problems=(problem,))


@dataclass(frozen=True)
class ConfigFile:
    """The config file as the settings screen edits it: a tomlkit document (comments, unknown
    keys and tables kept) in which a table that could not be used is left out; `bad` when the
    file on disk could not be used as it is (saving over it first keeps a copy, BAD_SUFFIX)."""

    path: Path
    document: tomlkit.TOMLDocument
    bad: bool = False

    @property
    def bad_copy(self) -> Path:
        """Where the unusable file is kept when it is replaced: config.toml.bad."""
        return self.path.with_name(self.path.name + BAD_SUFFIX)

    def check(self) -> dict[str, Any]:
        """Every section's settings as they would be read; SettingError names the first bad
        key."""
        values = self.document.unwrap()
        return {name: read_section(values, name) for name in SECTIONS}


def open_config_file(path: Path) -> ConfigFile:
    """The config file for editing; a missing one is an empty document, an unusable one (not
    readable, not TOML, a bad table) is `bad`, its unusable tables left out."""
    if not path.exists():
        return ConfigFile(path, tomlkit.document())
    try:
        text = _parse(path)[0]
        document = tomlkit.parse(text)
    except (ValueError, RecursionError):
        return ConfigFile(path, tomlkit.document(), bad=True)
    values = document.unwrap()
    bad = False
    for name in SECTIONS:
        try:
            read_section(values, name)
        except SettingError:
            del document[name]
            bad = True
    return ConfigFile(path, document, bad)


def save_config_file(config: ConfigFile) -> ConfigFile:
    """Write the document atomically (a temporary file beside it, then renamed over it); a bad
    file is first copied to `bad_copy`. Returns the file as saved (no longer bad). OSError, or
    JsonFileError for something not a regular file at the path: nothing was written."""
    if config.bad and config.path.is_file():
        # never through a link at either name, never onto a device or a FIFO
        write_atomically(config.bad_copy, read_bytes(config.path))
    write_text_atomically(config.path, tomlkit.dumps(config.document))
    return ConfigFile(config.path, config.document)
