"""The settings screen: the button panel, the dice camera (its picture, and a calibration
improved from the readings kept at the table), the display, the players' phones, where the
player's files are, and switching the Pi off (Shut down, Restart). Each part is a Section (a
widget with `refresh(model)`); a new part is a Section subclass with its rule in settings.kv,
added to SettingsScreen.SECTIONS. What is shown, and how a change is checked and saved, is
settings_model.py."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import ColorProperty, ObjectProperty, OptionProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from companion import paths
from companion.config import WINDOW_SIZES, CameraConfig, size_text
from companion.i18n import LANGUAGES, N_, _
from companion.rules.words import resource_name
from companion.store.db import default_db_path
from companion.ui.kit.dice_camera import (  # and DiceCameraView, for settings.kv
    dice_watcher,
    faces_kept,
    keep_reading,
    readings_kept,
)
from companion.ui.kit.widgets import (
    ERROR,
    NOTICE,
    ConfirmPopup,
    KeypadPopup,
    NotePopup,
    TagButton,
    TagToggle,
)
from companion.ui.settings.panel_check import check_panel  # its kv loads with it
from companion.ui.settings.settings_model import (
    BUTTONS,
    DICE_KINDS,
    PANEL_KINDS,
    POWER_ACTIONS,
    Locations,
    PowerSwitch,
    SettingsModel,
    camera_sources,
    choices,
    serial_ports,
    words,
)
from vision.faces import FACES

Edit = Callable[[SettingsModel], str | None]
READ = "read"  # teaching icon dice: the toggle that reads them with what was taught
BRIGHTNESS_LEVELS = (25, 50, 75, 100)  # percent of the backlight, a finger's choice
DISPLAY_MODES = (("window", N_("In a window")), ("fullscreen", N_("Full screen")))
PHONES_MODES = (("on", N_("Phones on")), ("off", N_("Phones off")))


def fill_toggles(box: Any, name: str, choices: list[tuple[str, str]], chosen: str,
                 choose: Callable[[str], Any]) -> None:
    """Fill `box` with one toggle per (value, words), tagged "settings:<name>:<value>", the
    chosen one down; a tap calls choose(value)."""
    box.clear_widgets()
    for value, said in choices:
        toggle = TagToggle(text=said, group=f"settings:{name}", tag=f"settings:{name}:{value}",
                           state="down" if value == chosen else "normal",
                           allow_no_selection=False)
        toggle.bind(on_release=lambda _toggle, value=value: choose(value))
        box.add_widget(toggle)


def setting_button(box: Any, text: str, tag: str, on_tap: Callable[[], Any],
                   **kwargs: Any) -> TagButton:
    """A button on `box` that calls on_tap()."""
    button = TagButton(text=text, tag=tag, **kwargs)
    button.bind(on_release=lambda _button: on_tap())
    box.add_widget(button)
    return button


def counts_words(counts: dict[str, int]) -> str:
    """How many icon dice are kept showing each face: "food 1, water 2, metal 0, human 0"."""
    return ", ".join(_("{face} {count}").format(face=resource_name(face), count=count)
                     for face, count in counts.items())


class InfoLine(Label):
    """A read-only line, wrapped to its width (a TagLabel's fixed text size would not grow)."""

    tag = StringProperty("")


class Section(BoxLayout):
    """One part of the settings screen; changes go through `screen.change`."""

    screen = ObjectProperty(None)

    def refresh(self, model: SettingsModel) -> None:
        """Show the model's values."""
        raise NotImplementedError


class PanelSection(Section):
    """The button panel: its kind, then a GPIO panel's pins or a serial panel's port, and the
    long press."""

    def refresh(self, model: SettingsModel) -> None:
        panel = model.panel
        fill_toggles(self.ids.kinds, "kind", choices(PANEL_KINDS), panel.kind,
                     lambda kind: self.screen.change(lambda m: m.set_kind(kind)))
        details = self.ids.details
        details.clear_widgets()
        if panel.kind == "gpio":
            pins = panel.gpio.button_pins()
            for name, button in BUTTONS:
                row = Factory.SettingRow()
                pin, said = pins.get(name), words(button)
                setting_button(row, _("{button}: GPIO{pin}").format(button=said, pin=pin)
                               if pin is not None else
                               _("{button}: not wired").format(button=said),
                               f"settings:pin:{name}", lambda n=name, w=said, p=pin:
                               self.ask_pin(n, w, p))
                setting_button(row, _("Not wired"), f"settings:unwire:{name}",
                               lambda n=name: self.screen.change(lambda m: m.set_pin(n, None)),
                               size_hint_x=0.4)
                details.add_widget(row)
        elif panel.kind == "serial":
            self.show_ports(details, panel.serial.port, panel.serial.usb)
        if panel.kind != "none":
            row = Factory.SettingRow()
            setting_button(row, _("Long press of Next = Undo: {seconds} s").format(
                               seconds=f"{panel.hold_time:g}"),
                           "settings:hold", lambda: self.ask_hold(panel.hold_time))
            details.add_widget(row)
        row = Factory.SettingRow()  # touch only: the test says how to set a panel up
        setting_button(row, _("Test the button panel"), "settings:panel-test", check_panel)
        details.add_widget(row)

    def show_ports(self, details: Any, port: str | None, usb: str | None) -> None:
        """The port in use, the ports found under /dev to choose from, typing one, or none
        (the panel found by its USB id)."""
        details.add_widget(InfoLine(
            text=_("Port: {port}").format(port=port) if port
            else _("Port: the first with USB id {usb}").format(usb=usb),
            tag="settings:port"))
        found = Factory.SettingGrid()
        fill_toggles(found, "port", [(p, p) for p in serial_ports()], port or "",
                     lambda chosen: self.screen.change(lambda m: m.set_port(chosen)))
        setting_button(found, _("Type a port…"), "settings:port-type", lambda: NotePopup(
            _("Serial port, e.g. /dev/ttyACM0"), port or "",
            lambda text: self.screen.change(lambda m: m.set_port(text))).open())
        setting_button(found, _("By USB id"), "settings:port-usb",
                       lambda: self.screen.change(lambda m: m.set_port("")))
        details.add_widget(found)

    def ask_pin(self, name: str, button: str, pin: int | None) -> None:
        """The keypad for a button's pin."""
        KeypadPopup(_("{button} button: GPIO pin").format(button=button), pin,
                    lambda number: self.screen.change(lambda m: m.set_pin(name, number)),
                    hint=_("The BCM number (GPIO17 is 17), not the header's pin number. "
                           "\"Not wired\" beside it for no button.")).open()

    def ask_hold(self, seconds: float) -> None:
        """The keypad for the long press, in milliseconds."""
        KeypadPopup(_("Long press of Next = Undo"), round(seconds * 1000),
                    lambda ms: self.screen.change(lambda m: m.set_hold_ms(ms)),
                    hint=_("In milliseconds: 1000 is one second.")).open()


class CameraSection(Section):
    """The dice camera: which one, which dice (pip dice and their face map, or the game's icon
    dice), its picture with the dice it reads drawn on it, and the table's calibration (icon
    dice: their teaching), improved from the readings kept at the table in one tap."""

    def refresh(self, model: SettingsModel) -> None:
        from vision.camera import pi_camera_count, usb_camera_indexes

        camera = model.camera
        sources = camera_sources(usb_camera_indexes(), bool(pi_camera_count()), camera.source)
        fill_toggles(self.ids.sources, "camera", sources, camera.source,
                     lambda source: self.screen.change(lambda m: m.set_camera(source)))
        setting_button(self.ids.sources, _("Other…"), "settings:camera-type", lambda: NotePopup(
            _("Camera: a number, a device or a folder of photos"), camera.source,
            lambda text: self.screen.change(lambda m: m.set_camera(text))).open())
        fill_toggles(self.ids.kinds, "dice", choices(DICE_KINDS), camera.dice,
                     lambda kind: self.screen.change(lambda m: m.set_dice(kind)))
        self.show_faces(camera)
        kept = readings_kept(camera.dice)
        self.ids.calibration.text = self.calibration_line(camera, kept)
        actions = self.ids.actions
        actions.clear_widgets()
        icons = camera.dice == "icons"
        setting_button(actions, _("Teach the icon dice") if icons else _("Show the camera"),
                       "settings:camera-show", self.show_camera, disabled=not camera.on)
        setting_button(actions, _("Learn from the rolls kept") if icons
                       else _("Improve the calibration"), "settings:calibrate", self.improve,
                       disabled=not kept)
        if not icons:
            setting_button(actions, _("No calibration"), "settings:no-calibration",
                           lambda: self.screen.change(lambda m: m.set_profile("")),
                           disabled=not camera.profile)

    def show_faces(self, camera: CameraConfig) -> None:
        """Pip dice: the face of each number of pips, a tap turns it to the next face."""
        faces = self.ids.faces
        faces.clear_widgets()
        if camera.dice != "pips":
            return
        for pips, face in camera.face_map.items():
            setting_button(faces, _("{pips} pips: {face}").format(pips=pips,
                                                                  face=resource_name(face)),
                           f"settings:face:{pips}",
                           lambda p=pips: self.screen.change(lambda m: m.turn_face(p)))
        setting_button(faces, _("The rules' faces"), "settings:faces-default",
                       lambda: self.screen.change(lambda m: m.reset_faces()),
                       disabled=camera.face_map == CameraConfig().face_map)

    @staticmethod
    def calibration_line(camera: CameraConfig, kept: int) -> str:
        """What the reader knows of this table's dice, and the readings kept to improve it."""
        if camera.dice == "icons":
            counts = counts_words(faces_kept())
            return (_("Icon dice: taught. Dice kept per face: {counts}.") if
                    camera.icon_profile.is_file() else
                    _("Icon dice: not taught yet. Dice kept per face: {counts}.")).format(
                        counts=counts)
        return (_("Calibration: {profile}. Readings kept: {kept}.").format(
                    profile=camera.profile, kept=kept) if camera.profile
                else _("Calibration: none (dice read as any dice). Readings kept: {kept}.").format(
                    kept=kept))

    def show_camera(self) -> None:
        """The camera's picture with what it reads, in a pop-up (rolls kept for calibration
        there), until Close."""
        CameraPreview(section=self).open()

    def improve(self) -> None:
        """Calibrate (icon dice: teach) from the readings kept, in a thread (seconds on a Pi),
        then use it."""
        camera = self.screen.model.camera
        self.screen.say(_("Calibrating from the readings kept…"), NOTICE)
        folder = paths.dice_readings(camera.dice)
        out = camera.icon_profile if camera.dice == "icons" else paths.dice_profile()

        def work() -> None:
            from vision.calibrate import CalibrationRefused, calibrate_kept
            from vision.profile import ProfileError

            try:
                profile, used, left = calibrate_kept(folder, camera.dice)
                profile.save(out)
            except CalibrationRefused as refused:  # it reads worse: the plain reader stays
                said = _("Not calibrated: {error}.").format(error=refused)
                Clock.schedule_once(lambda _dt: self.refused(said))
                return
            except (ProfileError, OSError) as error:
                failed = _("Not calibrated: {error}.").format(error=error)
                Clock.schedule_once(lambda _dt: self.screen.say(failed))
                return
            Clock.schedule_once(lambda _dt: self.calibrated(out, used, left))

        threading.Thread(target=work, name="calibration", daemon=True).start()

    def refused(self, said: str) -> None:
        """A calibration that would read the table worse than the plain reader: the dice are
        read as any dice (a profile made before is no longer used), and the table is told
        why."""
        if self.screen.model.camera.profile:
            self.screen.change(lambda m: m.set_profile(""))
        self.screen.say(said)

    def calibrated(self, out: Any, used: int, left: int) -> None:
        """The new profile is the camera's (used from the next reading on)."""
        if self.screen.model.camera.dice == "icons":  # the taught profile is found where it is
            self.screen.say(_("The icon dice are taught from {used} rolls; used from the next "
                              "roll on.").format(used=used), NOTICE)
            self.screen.show_model()
        elif self.screen.change(lambda m: m.set_profile(str(out))) is None:
            said = _("Calibrated from {used} readings ({left} with a face set by hand left "
                     "out); used from the next roll on.") if left else \
                _("Calibrated from {used} readings; used from the next roll on.")
            self.screen.say(said.format(used=used, left=left), NOTICE)


class CameraPreview(ModalView):
    """The dice camera's picture with what it reads; a calibration run: roll, Hold the
    picture, tap a die to set its pip value, Keep; then Calibrate (camera settings). Icon dice
    are taught the same way: the face turned up on every die is chosen, held and kept, for each
    face, then Teach."""

    section = ObjectProperty(None)
    progress = StringProperty("")
    turned_up = StringProperty("")  # teaching icon dice: the face every die shows ("": read)

    def on_open(self) -> None:
        camera = self.section.screen.model.camera
        self.kind = camera.dice
        turned = self.ids.turned
        if self.kind == "icons":
            taught = camera.icon_profile.is_file()
            self.turned_up = "" if taught else FACES[0]
            options = [(face, resource_name(face)) for face in FACES]
            if taught:
                options.append((READ, _("Read them")))
            fill_toggles(turned, "turned", options, self.turned_up or READ, self.turn_up)
        else:
            turned.parent.remove_widget(turned)
        self.ids.camera.watch(None, dice_watcher(camera, lambda: self.turned_up or None),
                              self.show, camera.face_map if self.kind == "pips" else None)
        self.show()

    def on_dismiss(self) -> None:
        self.ids.camera.stop()
        self.section.screen.show_model()  # the rolls kept

    def turn_up(self, face: str) -> None:
        """Teaching icon dice: every die now shows `face` (READ: read them as taught)."""
        self.turned_up = "" if face == READ else face
        if self.ids.camera.taken:
            self.ids.camera.again()
        self.show()

    def show(self) -> None:
        """The buttons as the picture is (live or held) and the rolls kept so far."""
        view = self.ids.camera
        self.ids.hold.text = _("Read again") if view.taken else _("Hold")
        self.ids.keep.disabled = not (view.taken and view.seen and view.seen.dice)
        if self.kind == "icons":
            counts = faces_kept()
            self.ids.calibrate.text = _("Teach")
            self.ids.calibrate.disabled = not all(counts.values())
            self.progress = _("Dice kept: {counts}. Turn one face up on every die, choose it "
                              "above, Hold, Keep; each face, then Teach.").format(
                                  counts=counts_words(counts))
            return
        kept = readings_kept()
        self.ids.calibrate.disabled = not kept
        self.progress = _("Rolls kept for the calibration: {kept} (5 or more read best). "
                          "Roll, Hold, tap a die to set its number, Keep.").format(kept=kept)

    def hold(self) -> None:
        """Hold the picture, or read again."""
        view = self.ids.camera
        if view.taken:
            view.again()
        else:
            view.take()
        self.show()

    def keep(self) -> None:
        """This roll, as corrected, for the calibration; the picture goes live again."""
        view = self.ids.camera
        if view.frame is not None and view.seen is not None:
            keep_reading(view.frame, view.seen, self.kind)
            view.again()
        self.show()

    def calibrate(self) -> None:
        """Calibrate from the rolls kept (and the readings kept in games), then close."""
        self.dismiss()
        self.section.improve()


class DisplaySection(Section):
    """The language and the backlight's brightness (at once); full screen or a window, and
    the window's size, for the next start."""

    def refresh(self, model: SettingsModel) -> None:
        display = model.display
        fill_toggles(self.ids.modes, "display",
                     choices(DISPLAY_MODES),
                     "fullscreen" if display.fullscreen else "window",
                     lambda mode: self.screen.change(
                         lambda m: m.set_fullscreen(mode == "fullscreen")))
        fill_toggles(self.ids.languages, "language", list(LANGUAGES.items()),
                     display.language,
                     lambda code: self.screen.change(lambda m: m.set_language(code)))
        sizes = [(size_text(size), size_text(size)) for size in WINDOW_SIZES]
        fill_toggles(self.ids.sizes, "size", sizes, size_text(display.size),
                     lambda text: self.screen.change(
                         lambda m: m.set_size(next(s for s in WINDOW_SIZES
                                                   if size_text(s) == text))))
        self.show_brightness(display.brightness)

    def show_brightness(self, chosen: int | None) -> None:
        """The backlight's levels, applied at once, where the display has one the app can
        set; else why not."""
        from hardware.backlight import BacklightError, find_backlight

        box = self.ids.brightness
        box.clear_widgets()
        backlight = find_backlight()
        try:
            now = backlight.percent if backlight is not None else None
        except BacklightError as error:
            backlight, now = None, str(error)
        box.add_widget(InfoLine(tag="settings:brightness", text=(
            _("Brightness: {percent} %").format(percent=now) if isinstance(now, int) else
            now or _("Brightness: this display has no backlight the app can set (an HDMI "
                     "monitor has its own buttons)."))))
        if backlight is None:
            return
        levels = Factory.SettingRow()
        fill_toggles(levels, "brightness", [(str(p), f"{p} %") for p in BRIGHTNESS_LEVELS],
                     str(chosen), lambda level: self.screen.change(
                         lambda m: m.set_brightness(int(level))))
        box.add_widget(levels)


class PhonesSection(Section):
    """The players' phone pages: on or off (at once), where the phones reach the table, and new
    links for everyone (the ones given out before stop working)."""

    def refresh(self, model: SettingsModel) -> None:
        fill_toggles(self.ids.switch, "phones", choices(PHONES_MODES),
                     "on" if model.phones.on else "off",
                     lambda mode: self.screen.change(lambda m: m.set_phones(mode == "on")))
        phones = App.get_running_app().phones
        self.ids.address.text = (
            _("Phones on the same network open {address}: each player scans their code from "
              "the table's Phones button.").format(address=phones.base_link())
            if phones.serving else phones.note)
        actions = self.ids.actions
        actions.clear_widgets()
        setting_button(actions, _("New links for every player"), "settings:phones:renew",
                       self.renew)

    def renew(self) -> None:
        """New links: the players scan their codes again."""
        problem = App.get_running_app().phones.renew_links()
        if problem:
            self.screen.say(problem)
        else:
            self.screen.say(_("New links made: every player scans their code again."), NOTICE)


class FilesSection(Section):
    """Where the player's files are (read only), to know what to back up."""

    def refresh(self, model: SettingsModel) -> None:
        app = App.get_running_app()
        store = app.session.store
        database = store.path if store is not None else app.session.db or default_db_path()
        locations = Locations(paths.data_folder(), database, model.file.path, app.overlay)
        lines = self.ids.lines
        lines.clear_widgets()
        for suffix, text in locations.lines():
            lines.add_widget(InfoLine(text=text, tag=f"settings:path:{suffix}"))


class PowerSection(Section):
    """Shut down and Restart the Raspberry Pi (asked first), where systemd runs it; else the
    reason they are not offered."""

    def refresh(self, model: SettingsModel) -> None:
        from hardware.power import find_power

        switch = PowerSwitch(find_power())
        self.ids.note.text = switch.note()
        actions = self.ids.actions
        actions.clear_widgets()
        if switch.power is None:
            return
        for action, said in choices(POWER_ACTIONS):
            setting_button(actions, said, f"settings:power:{action}",
                           lambda a=action, w=said: PowerPopup(switch, a, w, self.screen).open())


class PowerPopup(ModalView):
    """Shut down or Restart: asked first (Cancel does nothing); then what is happening while
    the Pi goes down, without buttons; a refusal is shown with Close (and on the screen's
    message line) and the app carries on."""

    text = StringProperty("")
    answer = StringProperty("")  # the button that does it: "Shut down", "Restart"
    stage = OptionProperty("ask", options=["ask", "going", "refused"])

    def __init__(self, switch: PowerSwitch, action: str, answer: str, screen: SettingsScreen,
                 **kwargs: Any) -> None:
        self.switch, self.action, self.screen = switch, action, screen
        super().__init__(**kwargs)
        self.text, self.answer = switch.question(action), answer

    def confirm(self) -> None:
        """Say what is happening and ask systemd, in a thread (the screen keeps drawing)."""
        self.stage, self.text = "going", self.switch.going(self.action)

        def work() -> None:
            refusal = self.switch.switch(self.action)
            if refusal:
                Clock.schedule_once(lambda _dt: self.refused(refusal))

        threading.Thread(target=work, name="power", daemon=True).start()

    def refused(self, reason: str) -> None:
        """Nothing happens: the reason, and Close."""
        self.stage, self.text = "refused", reason
        self.screen.say(reason)


class SettingsScreen(Screen):
    """The settings, one Section each; every accepted change is saved at once."""

    SECTIONS = (PanelSection, CameraSection, DisplaySection, PhonesSection, FilesSection,
                PowerSection)
    message = StringProperty("")
    tone = ColorProperty(ERROR)
    problems = StringProperty("")

    def on_kv_post(self, base_widget: Any) -> None:
        """Add the sections below the problems banner."""
        self.model: SettingsModel | None = None
        self.sections = [section(screen=self) for section in self.SECTIONS]
        for section in self.sections:
            self.ids.sections.add_widget(section)

    def refresh(self) -> None:
        """Read the config file again (on every visit), shown from the top."""
        app = App.get_running_app()
        self.model = SettingsModel.open(app.config_file, app.settings.problems)
        self.message = ""
        self.show_model()
        self.ids.scroller.scroll_y = 1

    def show_model(self) -> None:
        """Every section shows the model's values."""
        self.problems = self.model.problems_text()
        for section in self.sections:
            section.refresh(self.model)

    def say(self, message: str, tone: tuple[float, ...] = ERROR) -> None:
        """A line under the title: a refusal (red) or what was saved (green)."""
        self.message, self.tone = message, tone

    def change(self, edit: Edit) -> str | None:
        """Make a change on the model: a refusal is shown (and returned, for a keypad to
        show); an accepted one is saved, after asking if it replaces an unusable file."""
        problem = edit(self.model)
        if problem:
            self.say(problem)
            self.show_model()  # a toggle tapped goes back to what is kept
        elif self.model.must_ask:
            self.show_model()
            self.ask_to_replace()
        else:
            self.save()
        return problem

    def ask_to_replace(self) -> None:
        """Yes saves over the unusable file (a copy kept); No forgets the change."""
        answered: list[bool] = []

        def yes() -> None:
            answered.append(True)
            self.save()

        def closed(*_args: Any) -> None:
            if not answered:
                self.model.discard()
                self.say(_("Not saved: {file} was left as it was.").format(
                    file=self.model.file.path.name))
                self.show_model()

        def dismissed(*_args: Any) -> None:  # returns None: a true value would keep it open
            Clock.schedule_once(closed)  # after yes() has run, when Yes closed it

        popup = ConfirmPopup(self.model.replace_question(), yes)
        popup.bind(on_dismiss=dismissed)
        popup.open()

    def save(self) -> None:
        """Write the file; the app reads it again (the panel is reconnected if it changed; a
        new language redraws the screen in it, scrolled where it was)."""
        problem = self.model.save()
        scrolled = self.ids.scroller.scroll_y
        if problem:
            self.say(problem)
        else:
            app = App.get_running_app()
            app.settings_saved()
            self.model.problems = app.settings.problems
            self.say(_("Saved in {path}.").format(path=self.model.file.path), NOTICE)
        self.show_model()
        self.ids.scroller.scroll_y = scrolled
