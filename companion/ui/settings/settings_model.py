"""What the settings screen shows and how a change is checked and kept (plain Python, tested
without Kivy).

A change is tried on a copy of the config file's document and checked by the same rules the app
reads the file with (companion.config: hardware.config's for the panel); a refused change says
why in words and leaves everything as it was. An accepted change is saved at once, except over
a file that could not be read: then the screen asks first, and No goes back to what is on disk.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.items import InlineTable

from companion import i18n
from companion.config import (
    CameraConfig,
    ConfigFile,
    DisplayConfig,
    PhonesConfig,
    open_config_file,
    save_config_file,
    size_text,
)
from companion.files import JsonFileError
from companion.i18n import N_, _
from hardware.config import PanelConfig, SettingError
from hardware.events import CONFIRM, NEXT_TURN, READ_DICE, UNDO
from hardware.power import PowerError, SystemPower
from vision.faces import FACES, face_map_text

# (value, words): the words marked with N_, in the player's language where shown (`words`)
PANEL_KINDS = (("none", N_("Touch only")), ("gpio", N_("GPIO buttons")),
               ("serial", N_("USB serial")))
BUTTONS = ((NEXT_TURN, N_("Next turn")), (UNDO, N_("Undo")), (CONFIRM, N_("Confirm")),
           (READ_DICE, N_("Read dice")))
DICE_KINDS = (("pips", N_("Pip dice (any d6)")), ("icons", N_("Icon dice (the game's)")))
POWER_ACTIONS = (("shutdown", N_("Shut down")), ("restart", N_("Restart")))
# a power action -> (what the player is asked first, what the screen says while the Pi goes down)
POWER_WORDS = {
    "shutdown": (N_("Shut down the Raspberry Pi? The game is saved: it resumes where it was at "
                    "the next start."),
                 N_("Shutting down… wait until the green light stops blinking before you pull "
                    "the plug.")),
    "restart": (N_("Restart the Raspberry Pi? The game is saved: it resumes where it was once "
                   "the Pi is back."),
                N_("Restarting… the game comes back on the screen when the Pi has started "
                   "again.")),
}
SERIAL_GLOBS = ("ttyACM*", "ttyUSB*", "serial/by-id/*")
# a setting's key -> the words a player reads for it (translated where shown: `words`)
KEY_WORDS = {
    f"panel.gpio.{NEXT_TURN}": N_("Next turn button"),
    f"panel.gpio.{UNDO}": N_("Undo button"),
    f"panel.gpio.{CONFIRM}": N_("Confirm button"),
    f"panel.gpio.{READ_DICE}": N_("Read dice button"),
    "panel.gpio.rgb": N_("RGB LED pins"),
    "panel.gpio.players": N_("player LED pins"),
    "panel.hold_time": N_("long press time"),
    "panel.serial.port": N_("serial port"),
    "panel.kind": N_("panel kind"),
    "camera.source": N_("camera"),
    "camera.profile": N_("calibration profile"),
    "camera.settle": N_("settle time"),
    "camera.dice": N_("dice"),
    "camera.faces": N_("dice faces"),
    "camera.icons": N_("taught icon dice"),
    "display.brightness": N_("brightness"),
    "display.fullscreen": N_("full screen"),
    "display.size": N_("window size"),
    "display.touch": N_("touch input"),
    "display.rotation": N_("screen rotation"),
    "display.language": N_("language"),
    "logging.level": N_("log level"),
}


def words(text: str) -> str:
    """Words marked with N_ above (a choice's, a button's, a setting's) in the player's
    language."""
    return i18n._(text)


def choices(pairs: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    """(value, words) pairs such as PANEL_KINDS with the words in the player's language."""
    return [(value, words(text)) for value, text in pairs]


def camera_sources(usb: list[int], pi: bool, chosen: str) -> list[tuple[str, str]]:
    """The dice cameras to choose from: none, the first found, the Pi camera when there is one,
    each USB camera found, and the one in the file when it is none of those (recorded frames,
    a device path)."""
    sources = [("none", _("No camera")), ("auto", _("The first found"))]
    sources += [("pi", _("Pi camera"))] if pi else []
    sources += [(str(index), _("USB camera {index}").format(index=index)) for index in usb]
    if chosen not in dict(sources):
        sources.append((chosen, _("Other: {source}").format(source=chosen)))
    return sources


def explain(error: SettingError) -> str:
    """A refused value in words: "Undo button: must be a BCM GPIO number from 0 to 27, got 40"
    (keys the message names are put in words too: "... already given to the Undo button")."""
    message = error.message
    for key, text in sorted(KEY_WORDS.items(), key=lambda item: -len(item[0])):
        if key in message:
            message = message.replace(key, _("the {setting}").format(setting=words(text)))
    name = words(KEY_WORDS[error.key]) if error.key in KEY_WORDS else error.key
    return f"{name[0].upper()}{name[1:]}: {message}"


def serial_ports(dev: Path = Path("/dev")) -> list[str]:
    """The serial devices a panel may be on: /dev/ttyACM*, /dev/ttyUSB*, /dev/serial/by-id/*."""
    return sorted(str(path) for pattern in SERIAL_GLOBS for path in dev.glob(pattern))


@dataclass(frozen=True)
class Locations:
    """Where the player's files are, so that they know what to back up."""

    data_folder: Path
    database: Path
    config: Path
    overlay: Path

    def lines(self) -> list[tuple[str, str]]:
        """(tag suffix, what a player reads) for each file or folder."""
        return [("data", _("Data folder: {path}").format(path=self.data_folder)),
                ("database", _("Games: {path}").format(path=self.database)),
                ("config", _("Settings: {path}").format(path=self.config)),
                ("overlay", _("Values entered from your copy: {path}").format(
                    path=self.overlay))]


@dataclass(frozen=True)
class PowerSwitch:
    """Shutting down or restarting the Raspberry Pi from the screen (hardware.power, one of
    POWER_ACTIONS), in words: why it is not offered, what the player is asked first, what the
    screen says while the Pi goes down, and a refusal. `power` is None where it is not offered
    (the computer is not run by systemd)."""

    power: SystemPower | None

    def note(self) -> str:
        """The line under the heading: why to use it, or why it is not offered."""
        if self.power is None:
            return _("Shut down and Restart are offered where systemd runs the computer, as on "
                     "the Raspberry Pi; not here: switch it off as you usually do.")
        return _("Shut the Pi down before you pull the plug: pulling it while the Pi runs can "
                 "spoil its SD card. The game is saved either way.")

    @staticmethod
    def question(action: str) -> str:
        """What the player is asked before the Pi is shut down or restarted."""
        return words(POWER_WORDS[action][0])

    @staticmethod
    def going(action: str) -> str:
        """What the screen says while the Pi goes down."""
        return words(POWER_WORDS[action][1])

    def switch(self, action: str) -> str | None:
        """Shut down or restart now (a moment: systemd takes the job and the Pi goes down while
        the app still runs): None once it is under way, or the refusal in words (nothing
        happens, the app carries on)."""
        if self.power is None:
            return self.note()
        try:
            if action == "restart":
                self.power.restart()
            else:
                self.power.shutdown()
        except PowerError as error:
            return str(error)
        return None


class SettingsModel:
    """The config file being edited, the settings it gives, and the problems it had."""

    def __init__(self, file: ConfigFile, problems: tuple[str, ...] = ()) -> None:
        self.file = file
        self.problems = problems
        self.unsaved = False
        self.values = file.check()

    @classmethod
    def open(cls, path: Path, problems: tuple[str, ...] = ()) -> SettingsModel:
        """The model of the config file at `path` (missing: the defaults)."""
        return cls(open_config_file(path), problems)

    @property
    def panel(self) -> PanelConfig:
        """The panel settings shown."""
        return self.values["panel"]

    @property
    def display(self) -> DisplayConfig:
        """The display settings shown."""
        return self.values["display"]

    @property
    def camera(self) -> CameraConfig:
        """The dice camera's settings shown."""
        return self.values["camera"]

    @property
    def phones(self) -> PhonesConfig:
        """The players' phone pages' settings shown."""
        return self.values["phones"]

    @property
    def must_ask(self) -> bool:
        """True when saving would replace a file that could not be read (ask first)."""
        return self.file.bad and self.file.path.exists()

    def replace_question(self) -> str:
        """What the player is asked before an unusable file is replaced."""
        return _("{file} could not be read, so the defaults are shown. Replace it with these "
                 "settings? The old file is kept as {copy}.").format(
                     file=self.file.path.name, copy=self.file.bad_copy.name)

    def problems_text(self) -> str:
        """The config file's problems for a banner ("" when it had none)."""
        if not self.problems:
            return ""
        return _("The settings file could not be used: {problems}").format(
            problems=" ".join(self.problems))

    # changes: each returns the refusal in words, or None when accepted (then unsaved) -------
    def set_kind(self, kind: str) -> str | None:
        """Touch only, GPIO or serial."""
        return self._change(("panel", "kind"), kind)

    def set_pin(self, button: str, pin: int | None) -> str | None:
        """A button's BCM pin; None: not wired."""
        return self._change(("panel", "gpio", button), False if pin is None else pin)

    def set_hold_ms(self, milliseconds: int) -> str | None:
        """The long press (NEXT held = undo), typed in milliseconds, kept in seconds."""
        return self._change(("panel", "hold_time"), milliseconds / 1000)

    def set_port(self, port: str) -> str | None:
        """The serial panel's device path; "": found by its USB id instead."""
        return self._change(("panel", "serial", "port"), port.strip() or None)

    def set_camera(self, source: str) -> str | None:
        """The dice camera: "none", "auto", "pi", a USB camera's number, or recorded frames."""
        return self._change(("camera", "source"), source.strip())

    def set_profile(self, path: str) -> str | None:
        """The table's calibration profile; "": none (any dice read as they come)."""
        return self._change(("camera", "profile"), str(path).strip() or None)

    def set_dice(self, kind: str) -> str | None:
        """Pip dice (read through the face map) or the game's icon dice (taught)."""
        return self._change(("camera", "dice"), kind)

    def turn_face(self, pips: int) -> str | None:
        """The face map's next face for a number of pips (food, water, metal, Human, food...)."""
        faces = self.camera.face_map
        faces[pips] = FACES[(FACES.index(faces[pips]) + 1) % len(FACES)]
        return self._change(("camera", "faces"), face_map_text(faces))

    def reset_faces(self) -> str | None:
        """The rules' face map: 1-2 food, 3-4 water, 5 metal, 6 Human."""
        return self._change(("camera", "faces"), None)

    def set_brightness(self, percent: int) -> str | None:
        """The display's backlight, in percent."""
        return self._change(("display", "brightness"), percent)

    def set_fullscreen(self, fullscreen: bool) -> str | None:
        """Full screen at the next start."""
        return self._change(("display", "fullscreen"), fullscreen)

    def set_language(self, code: str) -> str | None:
        """The language of the app (at once) and of its texts."""
        return self._change(("display", "language"), code)

    def set_phones(self, on: bool) -> str | None:
        """The players' phone pages served (at once) or not."""
        return self._change(("phones", "on"), on)

    def set_size(self, size: tuple[int, int]) -> str | None:
        """The window's size at the next start."""
        return self._change(("display", "size"), size_text(size))

    def _change(self, key: tuple[str, ...], value: Any) -> str | None:
        """Set (None: remove) one key on a copy of the document; keep the copy if it is valid."""
        document = tomlkit.parse(tomlkit.dumps(self.file.document))
        table: Any = document
        for name in key[:-1]:
            if name not in table:  # an inline table can hold only inline tables
                inline = isinstance(table, InlineTable)
                table[name] = tomlkit.inline_table() if inline else tomlkit.table()
            table = table[name]
        if value is not None:
            table[key[-1]] = value
        elif key[-1] in table:
            del table[key[-1]]
        edited = replace(self.file, document=document)
        try:
            values = edited.check()
        except SettingError as error:
            return explain(error)
        self.file, self.values, self.unsaved = edited, values, True
        return None

    # keeping --------------------------------------------------------------------------------
    def save(self) -> str | None:
        """Write the file (keeping a copy of an unusable one); the problem in words if it could
        not be written (the change stays here, unsaved)."""
        try:
            self.file = save_config_file(self.file)
        except OSError as error:
            return _("Not saved: could not write {path} ({error}).").format(
                path=self.file.path, error=error.strerror or error)
        except JsonFileError as error:
            return _("Not saved: {error}.").format(error=error)
        self.unsaved = False
        return None

    def discard(self) -> None:
        """Forget the unsaved change: back to what is on disk."""
        self.file = open_config_file(self.file.path)
        self.values = self.file.check()
        self.unsaved = False
