"""The app shell: configure Kivy (before it is imported), open the game store, and show one screen
at a time in a ScreenManager, each screen a module with its own .kv file beside it.

Kivy reads its environment and configuration when first imported, so this module imports it only
inside functions, after `configure_kivy` has run.
"""

from __future__ import annotations

import importlib
import logging
import os
import shutil
from pathlib import Path
from typing import Any

from companion import i18n, watchdog
from companion.config import (
    WINDOW_SIZES,
    AppConfig,
    LoggingConfig,
    default_config_path,
    load_config,
)
from companion.i18n import _
from companion.logs import setup_logging

log = logging.getLogger(__name__)
REFERENCE_SIZE = WINDOW_SIZES[0]  # the official 7" Raspberry Pi display, 800x480
# Screen name -> (module, Screen class); each module has a .kv file of the same name.
SCREENS = {
    "home": ("companion.ui.home", "HomeScreen"),
    "calculator": ("companion.ui.calculator", "CalculatorScreen"),
    "setup": ("companion.ui.setup", "SetupScreen"),
    "table": ("companion.ui.table", "TableScreen"),
    "action": ("companion.ui.action", "ActionScreen"),
    "income": ("companion.ui.income", "IncomeScreen"),
    "station": ("companion.ui.station", "StationScreen"),
    "end": ("companion.ui.end", "EndScreen"),
    "past_game": ("companion.ui.past_game", "PastGameScreen"),
    "stats": ("companion.ui.stats", "StatsScreen"),
    "catalogue": ("companion.ui.catalogue_screen", "CatalogueScreen"),
    "settings": ("companion.ui.settings", "SettingsScreen"),
}
# screens that belong to the open game
GAME_SCREENS = ("setup", "table", "action", "income", "station")


def kivy_settings(*, fullscreen: bool = False, size: tuple[int, int] = REFERENCE_SIZE,
                  kiosk: bool = False, touch: str = "auto",
                  rotation: int = 0) -> dict[tuple[str, str], str]:
    """Kivy's config for the window and the input: (section, key) -> value; the `[input]`
    section holds every input provider (the ones Kivy's own config.ini lists are dropped).

    `kiosk` (no desktop: SDL on KMS/DRM) fills the screen and hides the cursor; there touches
    ("auto" = "hidinput") are read from the kernel's multitouch devices (probesysfs, with the
    hidinput or mtdev provider) and the mouse provider is kept for a real mouse but stands aside
    while a touch is down (disable_on_activity), so one finger is never two touches. "mouse"
    (a desktop: touches arrive as pointer events) uses the mouse provider alone. `rotation`
    turns the picture and every touch with it (Touch Display 2 is portrait-native: 90)."""
    fullscreen = fullscreen or kiosk
    source = ("hidinput" if kiosk else "mouse") if touch == "auto" else touch
    settings = {
        ("kivy", "exit_on_escape"): "0",
        ("kivy", "keyboard_mode"): "system",
        ("graphics", "resizable"): "1",
        ("graphics", "fullscreen"): "auto" if fullscreen else "0",
        ("graphics", "borderless"): "1" if fullscreen else "0",
        ("graphics", "width"): str(size[0]),
        ("graphics", "height"): str(size[1]),
        ("graphics", "rotation"): str(rotation),
        ("graphics", "show_cursor"): "0" if kiosk else "1",
    }
    if source == "mouse":
        # A mouse must not leave red multitouch dots on right-click.
        settings[("input", "mouse")] = "mouse,multitouch_on_demand"
    else:
        settings[("input", "mouse")] = "mouse,multitouch_on_demand,disable_on_activity"
        settings[("input", "%(name)s")] = f"probesysfs,provider={source}"
    return settings


def configure_kivy(*, fullscreen: bool = False, size: tuple[int, int] = REFERENCE_SIZE,
                   kiosk: bool = False, touch: str = "auto", rotation: int = 0) -> None:
    """Set Kivy's environment and config (kivy_settings); call before importing Kivy.

    Full screen is SDL's desktop full screen ('auto'): the window takes the display's size, with
    or without a window manager. In the kiosk SDL is told not to turn touches into mouse events
    (the input devices are read directly)."""
    os.environ["KIVY_NO_ARGS"] = "1"  # our own CLI owns sys.argv
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    if kiosk:
        os.environ.setdefault("SDL_TOUCH_MOUSE_EVENTS", "0")
    # KIVY_HOME is left alone when set (tests point it at a temporary folder).
    from kivy.config import Config

    for option in Config.options("input"):
        Config.remove_option("input", option)
    for (section, key), value in kivy_settings(fullscreen=fullscreen, size=size, kiosk=kiosk,
                                                touch=touch, rotation=rotation).items():
        Config.set(section, key, value)


class AppClipboard:
    """Copy and paste between the app's own text fields. Kivy's text fields use it where the
    system has no clipboard tool Kivy can drive (xclip or xsel: the kiosk on KMS/DRM, Raspberry
    Pi OS Lite); there Kivy would look for an X11 cut buffer at the first text field and log
    CRITICAL errors with tracebacks into the journal."""

    def __init__(self) -> None:
        self._text = ""

    def copy(self, data: str = "") -> None:
        self._text = data

    def paste(self) -> str:
        return self._text


def use_app_clipboard() -> bool:
    """Give Kivy's text fields an AppClipboard where neither xclip nor xsel is installed (call
    after configure_kivy); True when it did."""
    if shutil.which("xclip") or shutil.which("xsel"):
        return False
    from kivy.uix import textinput

    textinput.Clipboard = AppClipboard()  # Kivy's own clipboard search is never started
    return True


def screen_class(name: str) -> Any:
    """A screen's class, its .kv file loaded."""
    from kivy.lang import Builder

    module_name, class_name = SCREENS[name]
    module = importlib.import_module(module_name)
    layout = Path(module.__file__).with_suffix(".kv")
    if layout.exists() and str(layout) not in Builder.files:
        Builder.load_file(str(layout))
    return getattr(module, class_name)


def app_class() -> Any:
    """The App class (defined here so that Kivy is imported only after configure_kivy)."""
    import kivy
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.core.text import LabelBase
    from kivy.core.window import Window
    from kivy.lang import Builder
    from kivy.properties import NumericProperty
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.screenmanager import NoTransition, ScreenManager

    from companion import paths
    from companion.ui.session import GameSession, relaunch_screen
    from companion.ui.widgets import BACKGROUND, SYMBOL_FONT, StatusStrip

    use_app_clipboard()

    class LazyScreens(ScreenManager):
        """A ScreenManager that builds each screen (and loads its module and .kv) the first time
        it is asked for, so start-up and memory pay only for the screens used."""

        def get_screen(self, name: str) -> Any:
            if not self.has_screen(name):
                self.add_widget(screen_class(name)(name=name))
            return super().get_screen(name)

    class CompanionApp(App):
        """The table app: home, the score calculator, setup, the table and the actions."""

        unit = NumericProperty(1.0)  # 1.0 at 800x480; every size in a .kv is a multiple
        title = "Phoenix Companion"

        def __init__(self, *, demo: bool = False, start: str | None = None,
                     db: Path | None = None, overlay: Path | None = None,
                     config: Path | None = None, settings: AppConfig | None = None,
                     **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.demo = demo
            self.start_screen = start
            self.overlay = paths.overlay_path(overlay)
            self.config_path = config
            self.settings = settings or load_config(config)
            self.session = GameSession(db, self.overlay)
            self.screens: ScreenManager | None = None
            self.status: StatusStrip | None = None
            self.bridge: Any = None
            self.notifier: watchdog.Notifier | None = None
            self.problems: list[str] = []
            self.camera_trouble: str | None = None  # the dice camera's problem, while it reads
            self.brightness_trouble: str | None = None  # why the backlight could not be set

        @property
        def config_file(self) -> Path:
            """The config file the settings are read from and saved to (--config or the
            default)."""
            return self.config_path or default_config_path()

        @property
        def calculator(self) -> Any:
            """The score calculator's controller."""
            return self.screens.get_screen("calculator").controller

        def build(self) -> Any:
            """The screens and the status strip, in the language of the settings; the game
            store opens here."""
            self.settings = self._spoken(self.settings)
            i18n.on_change(self._language_changed)
            LabelBase.register(SYMBOL_FONT, os.path.join(kivy.kivy_data_dir, "fonts",
                                                         "DejaVuSans.ttf"))
            Builder.load_file(str(Path(__file__).with_name("widgets.kv")))
            Window.clearcolor = BACKGROUND
            Window.bind(size=self._resize)
            self._resize(Window, Window.size)
            if self.demo:
                self.session.open_demo()
            else:
                self.session.open()
            self.screens = LazyScreens(transition=NoTransition())
            self.status = StatusStrip()
            root = BoxLayout(orientation="vertical")
            root.add_widget(self.screens)
            root.add_widget(self.status)
            return root

        def on_start(self) -> None:
            """Start the button panel, then show the first screen: the one asked for, else
            the one the app was on, or the game's screen for its phase (relaunch_screen);
            systemd hears READY=1 and watchdog pings from the main loop (companion.watchdog)."""
            self.notifier = watchdog.start(Clock)
            self._start_panel()
            session = self.session
            phase = session.state["phase"] if session.game is not None else None
            self.show(self.start_screen or relaunch_screen(session.saved_screen(), phase))

        def on_stop(self) -> None:
            if self.notifier is not None:
                watchdog.stop(self.notifier)
            if self.bridge is not None:
                self.bridge.close()
            self.session.close()

        def show(self, name: str) -> None:
            """Go to a screen (refreshed first), remembered for a relaunch (relaunch_screen).
            While a Diplomacy bonus waits, the table is the action screen (its prompt)."""
            if name == "table" and self.session.game is not None \
                    and self.session.state["phase"] == "over":
                name = "end"
            elif name == "table" and self.session.waiting():
                name = "action"
            screen = self.screens.get_screen(name)
            if hasattr(screen, "refresh"):
                screen.refresh()
            self.screens.current = name
            self.session.remember_screen(name)
            self.show_problems()
            self.update_lights()

        def _start_panel(self) -> None:
            self.problems = list(self.settings.problems)
            self.set_brightness()
            self.connect_panel(self.settings.panel)

        def set_brightness(self) -> None:
            """The display's backlight as the settings say (none said: as it is); what went
            wrong goes to the status strip."""
            from hardware.backlight import BacklightError, find_backlight

            percent, self.brightness_trouble = self.settings.display.brightness, None
            if percent is None:
                return
            backlight = find_backlight()
            try:
                if backlight is None:
                    raise BacklightError(_("The display's brightness cannot be set: it has no "
                                           "backlight the app can reach (an HDMI monitor has "
                                           "its own buttons)."))
                backlight.percent = percent
            except BacklightError as error:
                log.warning("%s", error)
                self.brightness_trouble = str(error)

        def connect_panel(self, panel: Any) -> None:
            """Open the button panel with these settings (a PanelConfig), closing the one
            open first: pins, port and thread released, so a changed panel applies at once."""
            from companion.ui.panel_bridge import start_panels

            if self.bridge is not None:
                self.bridge.close()
            self.bridge = start_panels(panel, self.on_panel_event, window=Window)
            self.show_problems()
            self.update_lights()

        def _spoken(self, settings: AppConfig) -> AppConfig:
            """Speak the settings' language; their problems, worded when the file was read,
            are read again in it when it is new."""
            if settings.display.language == i18n.language():
                return settings
            i18n.set_language(settings.display.language)
            return load_config(self.config_path, quiet=True) if settings.problems else settings

        def settings_saved(self) -> None:
            """The config file was saved: read it again, its problems replace the old ones,
            and the panel is reconnected if its settings changed."""
            old = self.settings
            self.settings = self._spoken(load_config(self.config_path))
            self.problems = list(self.settings.problems)
            if self.settings.display.brightness != old.display.brightness:
                self.set_brightness()
            if self.settings.panel != old.panel:
                self.connect_panel(self.settings.panel)
            else:
                self.show_problems()

        def on_panel_event(self, event: Any) -> None:
            """A button-panel event, on the main thread: problems go to the status strip,
            buttons act as on screen (panel_bridge.press)."""
            from companion.ui.panel_bridge import press

            if event.name in ("panel_problem", "panel_ready"):
                self.show_problems()
            else:
                press(self, event.name)

        def update_lights(self) -> None:
            """The panel's lights follow the game on its screens; elsewhere they are off."""
            from companion.ui.panel_bridge import light_signal

            if self.bridge is None:
                return
            session = self.session
            if self.screens.current in GAME_SCREENS and session.game is not None \
                    and session.state["phase"] in ("play", "over"):
                self.bridge.signal(*light_signal(session.state, session.options()))
            else:
                self.bridge.signal("off")

        def camera_problem(self, problem: str | None) -> None:
            """The dice camera's problem (None: pictures come, or no camera reads now)."""
            if problem != self.camera_trouble:
                self.camera_trouble = problem
                self.show_problems()

        def show_problems(self) -> None:
            """Everything wrong outside the game, in the status strip."""
            problems = self.problems + (self.bridge.problems() if self.bridge else [])
            if self.brightness_trouble:
                problems.append(self.brightness_trouble)
            if self.camera_trouble:
                problems.append(_("Dice camera: {problem}").format(problem=self.camera_trouble))
            if self.session.problem:
                problems.append(self.session.problem)
            if self.status is not None:
                self.status.show(problems)

        def _language_changed(self) -> None:
            """A new language: the open game is told again in it (its stored texts are in the
            language it was played in), then the screen shown says everything again (kv rules
            that read `tr._` follow by themselves)."""
            self.session.retell()
            current = self.screens.current_screen if self.screens is not None else None
            if hasattr(current, "refresh"):
                current.refresh()
            self.show_problems()

        def _resize(self, _window: Any, size: tuple[int, int]) -> None:
            self.unit = max(0.6, min(size[0] / 800, size[1] / 480))
            if self.screens is not None:
                current = self.screens.current_screen
                if hasattr(current, "refresh"):
                    current.refresh()

    return CompanionApp


def build_app(*, demo: bool = False, start: str | None = None, db: Path | None = None,
              overlay: Path | None = None, config: Path | None = None,
              settings: AppConfig | None = None) -> Any:
    """The Kivy App object, ready to `run()` (Kivy must already be configured); `settings`
    already read from `config` (else it is read here)."""
    return app_class()(demo=demo, start=start, db=db, overlay=overlay, config=config,
                       settings=settings)


def run_app(*, fullscreen: bool = False, size: tuple[int, int] | None = None,
            kiosk: bool = False, demo: bool = False, start: str | None = None,
            db: Path | None = None, overlay: Path | None = None,
            config: Path | None = None) -> None:
    """Run the touchscreen app until its window closes (the CLI's default command); the
    config file's [display] opens the window unless --fullscreen / --size say otherwise, and
    its [logging] level goes to stderr (the journal under systemd)."""
    setup_logging(LoggingConfig.level)  # the config file's own problems are logged so too
    settings = load_config(config)
    setup_logging(settings.logging.level)
    display = settings.display
    fullscreen, size = display.window(fullscreen, size)
    configure_kivy(fullscreen=fullscreen, size=size, kiosk=kiosk, touch=display.touch,
                   rotation=display.rotation)
    build_app(demo=demo, start=start, db=db, overlay=overlay, config=config,
              settings=settings).run()
