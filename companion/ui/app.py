"""The app shell: configure Kivy (before it is imported), open the game store, and show one screen
at a time in a ScreenManager, each screen a module with its own .kv file beside it.

Kivy reads its environment and configuration when first imported, so this module imports it only
inside functions, after `configure_kivy` has run.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import Any

from companion.config import WINDOW_SIZES, AppConfig, default_config_path, load_config

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
    "catalogue": ("companion.ui.catalogue_screen", "CatalogueScreen"),
    "settings": ("companion.ui.settings", "SettingsScreen"),
}
# screens that belong to the open game
GAME_SCREENS = ("setup", "table", "action", "income", "station")


def configure_kivy(*, fullscreen: bool = False, size: tuple[int, int] = REFERENCE_SIZE) -> None:
    """Set Kivy's environment and config for a touchscreen kiosk; call before importing Kivy.

    Full screen is SDL's desktop full screen ('auto'): the window takes the display's size, with
    or without a window manager."""
    os.environ["KIVY_NO_ARGS"] = "1"  # our own CLI owns sys.argv
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    # KIVY_HOME is left alone when set (tests point it at a temporary folder).
    from kivy.config import Config

    Config.set("kivy", "exit_on_escape", "0")
    Config.set("kivy", "keyboard_mode", "system")
    Config.set("graphics", "resizable", "1")
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("graphics", "borderless", "1" if fullscreen else "0")
    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    # A mouse must not leave red multitouch dots on right-click; touch screens are unaffected.
    Config.set("input", "mouse", "mouse,multitouch_on_demand")


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
    from kivy.core.text import LabelBase
    from kivy.core.window import Window
    from kivy.lang import Builder
    from kivy.properties import NumericProperty
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.screenmanager import NoTransition, ScreenManager

    from companion import paths
    from companion.ui.session import GameSession, relaunch_screen
    from companion.ui.widgets import BACKGROUND, SYMBOL_FONT, StatusStrip

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
            self.problems: list[str] = []

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
            """The screens and the status strip; the game store opens here."""
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
            the one the app was on, or the game's screen for its phase (relaunch_screen)."""
            self._start_panel()
            session = self.session
            phase = session.state["phase"] if session.game is not None else None
            self.show(self.start_screen or relaunch_screen(session.saved_screen(), phase))

        def on_stop(self) -> None:
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
            self.connect_panel(self.settings.panel)

        def connect_panel(self, panel: Any) -> None:
            """Open the button panel with these settings (a PanelConfig), closing the one
            open first: pins, port and thread released, so a changed panel applies at once."""
            from companion.ui.panel_bridge import start_panels

            if self.bridge is not None:
                self.bridge.close()
            self.bridge = start_panels(panel, self.on_panel_event, window=Window)
            self.show_problems()
            self.update_lights()

        def settings_saved(self) -> None:
            """The config file was saved: read it again, its problems replace the old ones,
            and the panel is reconnected if its settings changed."""
            old = self.settings
            self.settings = load_config(self.config_path)
            self.problems = list(self.settings.problems)
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

        def show_problems(self) -> None:
            """Everything wrong outside the game, in the status strip."""
            problems = self.problems + (self.bridge.problems() if self.bridge else [])
            if self.session.problem:
                problems.append(self.session.problem)
            if self.status is not None:
                self.status.show(problems)

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
            demo: bool = False, start: str | None = None, db: Path | None = None,
            overlay: Path | None = None, config: Path | None = None) -> None:
    """Run the touchscreen app until its window closes (the CLI's default command); the
    config file's [display] opens the window unless --fullscreen / --size say otherwise."""
    settings = load_config(config)
    fullscreen, size = settings.display.window(fullscreen, size)
    configure_kivy(fullscreen=fullscreen, size=size)
    build_app(demo=demo, start=start, db=db, overlay=overlay, config=config,
              settings=settings).run()
