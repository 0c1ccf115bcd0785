"""The app shell: open the game store, show one screen at a time (its route: routes.py) in a
ScreenManager that builds each screen when first asked, keep the status strip, the button panel,
the display's backlight and the language. Import this module only after
`window.configure_kivy` (start.run_app does both).
"""

from __future__ import annotations

import importlib
import logging
import os
import sys
from pathlib import Path
from typing import Any

import kivy
from kivy.app import App
from kivy.clock import Clock
from kivy.core.text import LabelBase
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.properties import NumericProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion import i18n, paths, watchdog
from companion.config import AppConfig, default_config_path, load_config
from companion.i18n import _
from companion.ui.kit.widgets import BACKGROUND, SYMBOL_FONT, StatusStrip
from companion.ui.shell.phones import PhonesBridge
from companion.ui.shell.routes import ROUTES, destination, game_screen, relaunch_screen, route
from companion.ui.shell.session import GameSession
from companion.ui.shell.window import use_app_clipboard

log = logging.getLogger(__name__)
WIDGETS = Path(__file__).parents[1] / "kit" / "widgets.kv"  # the kit's look, loaded first


def screen_class(name: str) -> Any:
    """A route's Screen class, its module imported and its .kv file loaded."""
    found = ROUTES[name]
    module = importlib.import_module(found.module)
    layout = Path(module.__file__).with_suffix(".kv")
    if layout.exists() and str(layout) not in Builder.files:
        Builder.load_file(str(layout))
    return getattr(module, found.screen)


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
        self.phones = PhonesBridge(self)  # the players' phone pages, served from on_start
        self.notifier: watchdog.Notifier | None = None
        self.problems: list[str] = []
        self.camera_trouble: str | None = None  # the dice camera's problem, while it reads
        self.brightness_trouble: str | None = None  # why the backlight could not be set

    @property
    def config_file(self) -> Path:
        """The config file the settings are read from and saved to (--config or the
        default)."""
        return self.config_path or default_config_path()

    def build(self) -> Any:
        """The screens and the status strip, in the language of the settings; the game
        store opens here."""
        use_app_clipboard()  # before the first text field looks for a system clipboard
        self.settings = self._spoken(self.settings)
        i18n.on_change(self._language_changed)
        LabelBase.register(SYMBOL_FONT, os.path.join(kivy.kivy_data_dir, "fonts",
                                                     "DejaVuSans.ttf"))
        Builder.load_file(str(WIDGETS))
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
        self.phones.apply(self.settings.phones)
        session = self.session
        phase = session.state["phase"] if session.game is not None else None
        self.open(self.start_screen or relaunch_screen(session.saved_screen(), phase))

    def on_stop(self) -> None:
        live = sys.modules.get("vision.live")  # loaded once a camera was watched (OpenCV)
        if live is not None:
            live.finish_all()  # a dice read under way ends before the process does
        if self.notifier is not None:
            watchdog.stop(self.notifier)
        if self.bridge is not None:
            self.bridge.close()
        self.phones.close()
        self.session.close()

    def open(self, name: str, message: str | None = None, **needs: Any) -> None:
        """Show route `name` (routes.py) where the game leads it (routes.destination), with
        what that screen needs set first (`open("station", player="Ann")`), refreshed, then
        `message` in its banner (a refusal, what was done; "" clears it); remembered for a
        relaunch. The only place that switches screens."""
        route(name, needs)  # a route that does not exist, or a need it does not have: an error
        session = self.session
        phase = session.state["phase"] if session.game is not None else None
        name = destination(name, phase, phase == "play" and session.waiting())
        screen = self.screens.get_screen(name)
        for need, value in needs.items():  # (a route led elsewhere needs nothing given)
            setattr(screen, need, value)
        if hasattr(screen, "refresh"):
            screen.refresh()
        if message is not None:
            screen.message = message
        self.screens.current = name
        session.remember_screen(name)
        self.show_problems()
        self.update_lights()

    def say(self, message: str) -> None:
        """`message` in the banner of the screen shown (a button panel's press that was refused
        shows there, whichever screen it is)."""
        shown = self.screens.current_screen
        if hasattr(shown, "message"):
            shown.message = message

    def answered_elsewhere(self, message: str) -> None:
        """A player chose a Diplomacy bonus on their phone: the screen shown follows the game
        (the action screen its prompts), with `message` in its banner."""
        shown = self.screens.current_screen
        if hasattr(shown, "answered_elsewhere"):
            shown.answered_elsewhere(message)
        elif ROUTES[self.screens.current].of_the_game:
            self.open(self.screens.current, message=message)

    def open_game(self, game_id: int) -> str:
        """Open a kept game on its screen (routes.game_screen): a finished game's score sheet,
        an unfinished one where it was left; "" when done, else why not."""
        problem = self.session.open_game(game_id)
        if not problem:
            self.open(game_screen(self.session.state["phase"], self.session.saved_screen()))
        return problem

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
        from companion.ui.shell.panel_bridge import start_panels

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
        if self.settings.phones != old.phones:
            self.phones.apply(self.settings.phones)
        if self.settings.panel != old.panel:
            self.connect_panel(self.settings.panel)
        else:
            self.show_problems()

    def on_panel_event(self, event: Any) -> None:
        """A button-panel event, on the main thread: problems go to the status strip,
        buttons act as on screen (panel_bridge.press)."""
        from companion.ui.shell.panel_bridge import press

        if event.name in ("panel_problem", "panel_ready"):
            self.show_problems()
        else:
            press(self, event.name)

    def update_lights(self) -> None:
        """The panel's lights follow the game on its screens; elsewhere they are off."""
        from companion.ui.shell.panel_bridge import light_signal

        if self.bridge is None:
            return
        session = self.session
        shown = ROUTES.get(self.screens.current)  # (none yet while the app starts)
        if shown is not None and shown.of_the_game and session.game is not None \
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
        if self.phones.problem:
            problems.append(self.phones.problem)
        if self.session.problem:
            problems.append(self.session.problem)
        if self.status is not None:
            self.status.show(problems)

    def _language_changed(self) -> None:
        """A new language: the screen shown says everything again (kv rules that read `tr._`
        follow by themselves; the game's events carry messages, worded as they are shown, so
        nothing is replayed)."""
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



