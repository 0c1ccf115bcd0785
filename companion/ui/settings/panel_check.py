"""The button panel's live test (Settings → Button panel): a pop-up that shows each press of the
panel's buttons instead of acting on the game, and cycles the panel's lights through every state
the app uses (hardware.panel_test.light_steps); closed, the game's buttons and lights are back
as they were. What the lines say is panel_check_model.py; the layout panel_check.kv."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ColorProperty, StringProperty
from kivy.uix.modalview import ModalView

from companion.ui.kit.widgets import TagLabel
from companion.ui.settings.panel_check_model import PanelCheck, light_words, panel_state
from hardware.colours import parse_colour
from hardware.events import PanelEvent
from hardware.lights import Lights, LightState
from hardware.panel_test import LIGHT_STEP, light_steps

LAYOUT = str(Path(__file__).with_suffix(".kv"))


class CheckLineLabel(TagLabel):
    """One button's line; `last` highlights the button pressed last."""

    last = BooleanProperty(False)


class PanelCheckPopup(ModalView):
    """While open, the panel's button events come here (the game does not see them) and the
    lights step through their states every LIGHT_STEP seconds; closing gives both back."""

    status = StringProperty("")
    trouble = BooleanProperty(False)
    lights = StringProperty("")
    swatch = ColorProperty((0, 0, 0, 0))  # the colour the lights show or blink (none: clear)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.app = App.get_running_app()
        self.check = PanelCheck()
        self.bridge: Any = None
        self._saved = LightState()
        self._steps: Iterator[str] | None = None
        self._cycle: Any = None

    def on_pre_open(self) -> None:
        """Take the panel's events and lights from the game, remembering what the lights
        showed."""
        self.bridge = self.app.bridge
        if self.bridge is not None:
            self._saved = self.bridge.lights.state
            self.bridge.listen(self.heard)
            if self.has_lights():
                self._steps = light_steps(self.bridge.lights)
                self.step()
                self._cycle = Clock.schedule_interval(self.step, LIGHT_STEP)
        self.show()

    def on_dismiss(self) -> None:
        """Give the events back to the game and put the lights back as they were."""
        if self._cycle is not None:
            self._cycle.cancel()
            self._cycle = None
        if self.bridge is not None:
            self.bridge.listen(None)
            self.bridge.signal(self._saved.mode, self._saved.colour)
            self.bridge = None

    def has_lights(self) -> bool:
        """True when the panel has LEDs to cycle (not the no-op lights of a panel without)."""
        return self.bridge is not None and type(self.bridge.lights) is not Lights

    def heard(self, event: PanelEvent) -> None:
        """A panel event, on the main thread: a press is counted; any event may change the
        panel's state (a problem, ready again)."""
        self.check.record(event.name)
        self.show()

    def step(self, _dt: float = 0) -> None:
        """The lights' next state (Clock callback)."""
        if self._steps is not None:
            next(self._steps)
        self.show()

    def show(self) -> None:
        """The panel's state, a line per button and what the lights show, as they are now."""
        bridge = self.bridge or self.app.bridge
        settings = self.app.settings.panel
        panels = bridge.panels if bridge is not None else []
        state = panel_state(settings.kind, bridge.problems() if bridge is not None else [],
                            bool(panels) and panels[0].ready, settings.hold_time)
        self.status, self.trouble = state.text, state.trouble
        box = self.ids.lines
        box.clear_widgets()
        for line in self.check.lines():
            box.add_widget(CheckLineLabel(text=line.text, last=line.last,
                                          tag=f"panel-check:{line.name}"))
        lights = bridge.lights.state if bridge is not None else LightState()
        cycling = self.bridge is not None and self.has_lights()
        self.lights = light_words(lights.mode, lights.colour, cycling)
        coloured = cycling and lights.mode in ("show", "blink") and lights.colour
        self.swatch = (*parse_colour(lights.colour), 1) if coloured else (0, 0, 0, 0)


def check_panel() -> PanelCheckPopup:
    """Open the panel's live test (the settings screen's "Test the panel")."""
    popup = PanelCheckPopup()
    popup.open()
    return popup


if LAYOUT not in Builder.files:
    Builder.load_file(LAYOUT)
