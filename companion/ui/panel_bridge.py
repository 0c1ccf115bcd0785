"""The Kivy side of the button panel: panel events reach the app on Kivy's main thread only.

Panels report on their own threads (gpiozero's pin callbacks, the serial reader). The bridge
queues each event and schedules a Clock trigger; the app's `on_event` runs inside the next frame
on the main thread, in arrival order. No UI call ever runs on a GPIO or serial thread.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock

from hardware import KeyboardPanel, Panel, PanelConfig, PanelEvent, open_panel
from hardware.events import PANEL_PROBLEM
from hardware.lights import Lights

log = logging.getLogger(__name__)

EventCallback = Callable[[PanelEvent], None]
_SHORTCUT_MODIFIERS = {"ctrl", "alt", "meta", "super"}


class PanelBridge:
    """Subscribes to panels and calls `on_event(event)` on Kivy's main thread, in order.

    A problem a panel already had when attached (e.g. a pin in use) is delivered as a
    `panel_problem` event too, so the app learns of every problem through `on_event`.
    """

    def __init__(self, on_event: EventCallback, *panels: Panel, clock: Any = None) -> None:
        self.on_event = on_event
        self.panels: list[Panel] = []
        self.keyboard_enabled = True
        self._queue: deque[PanelEvent] = deque()
        self._clock = clock if clock is not None else Clock
        self._trigger = self._clock.create_trigger(self._deliver, 0)
        self._window: Any = None
        for panel in panels:
            self.attach(panel)

    @property
    def lights(self) -> Lights:
        """The lights of the first attached panel that has any (no-op lights if none has)."""
        for panel in self.panels:
            if type(panel.lights) is not Lights:
                return panel.lights
        return self.panels[0].lights if self.panels else Lights()

    @property
    def keyboard(self) -> KeyboardPanel | None:
        """The attached keyboard panel, if any."""
        return next((p for p in self.panels if isinstance(p, KeyboardPanel)), None)

    def problems(self) -> list[str]:
        """Every attached panel's current problem, for a status line on screen."""
        return [panel.problem for panel in self.panels if panel.problem]

    def attach(self, panel: Panel) -> None:
        """Become `panel`'s subscriber (replacing any other)."""
        self.panels.append(panel)
        panel.when_event = self._receive
        if panel.problem:
            self._receive(PanelEvent(PANEL_PROBLEM, source=panel.kind, detail=panel.problem))

    def bind_window(self, window: Any) -> None:
        """Forward the window's key presses to the keyboard panel (Window.on_key_down/up)."""
        self._window = window
        window.bind(on_key_down=self.on_key_down, on_key_up=self.on_key_up)

    def on_key_down(self, window: Any, key: int, scancode: int, codepoint: str | None,
                    modifiers: list[str]) -> bool:
        """Kivy's on_key_down handler: True (consumed) if the key is a panel key."""
        keyboard = self.keyboard
        if keyboard is None or not self.keyboard_enabled:
            return False
        if _SHORTCUT_MODIFIERS.intersection(modifiers or ()):
            return False
        return keyboard.key_pressed(key)

    def on_key_up(self, window: Any, key: int, scancode: int | None = None) -> bool:
        """Kivy's on_key_up handler: lets a held key count again once released."""
        keyboard = self.keyboard
        if keyboard is not None:
            keyboard.key_released(key)
        return False

    def close(self) -> None:
        """Unsubscribe, unbind the window, close every panel, drop undelivered events."""
        if self._window is not None:
            self._window.unbind(on_key_down=self.on_key_down, on_key_up=self.on_key_up)
            self._window = None
        for panel in self.panels:
            panel.when_event = None
            panel.close()
        self.panels.clear()
        self._trigger.cancel()
        self._queue.clear()

    def _receive(self, event: PanelEvent) -> None:
        """Runs on the panel's thread: queue only, never touch the UI."""
        self._queue.append(event)
        self._trigger()

    def _deliver(self, _dt: float) -> None:
        """Runs on Kivy's main thread (a Clock callback): hand every queued event to the app."""
        if threading.current_thread() is not threading.main_thread():
            log.error("panel events delivered off the main thread; check the Clock in use")
        while self._queue:
            event = self._queue.popleft()
            try:
                self.on_event(event)
            except Exception:
                log.exception("the app failed to handle panel event %s", event.name)


def start_panels(config: PanelConfig, on_event: EventCallback, *, window: Any = None,
                 clock: Any = None, pin_factory: object | None = None) -> PanelBridge:
    """Open the configured panel (and the keyboard panel if `config.keyboard`) behind a bridge;
    with `window` (kivy.core.window.Window) its keys are forwarded. Never raises."""
    panels: list[Panel] = [open_panel(config, pin_factory=pin_factory)]
    if config.keyboard:
        panels.append(KeyboardPanel())
    bridge = PanelBridge(on_event, *panels, clock=clock)
    if window is not None:
        bridge.bind_window(window)
    return bridge
