"""The Kivy side of the button panel: panel events reach the app on Kivy's main thread only,
and what the buttons do in the app and what the lights show for a game.

Panels report on their own threads (gpiozero's pin callbacks, the serial reader). The bridge
queues each event and schedules a Clock trigger; the app's `on_event` runs inside the next frame
on the main thread, in arrival order. No UI call ever runs on a GPIO or serial thread. While
the panel's live test listens (`PanelBridge.listen`), the button events go to it instead.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from kivy.clock import Clock
from kivy.uix.behaviors import FocusBehavior

from hardware import KeyboardPanel, Panel, PanelConfig, PanelEvent, open_panel
from hardware.events import CONFIRM, NEXT_TURN, PANEL_PROBLEM, READ_DICE, UNDO
from hardware.lights import Lights

log = logging.getLogger(__name__)

EventCallback = Callable[[PanelEvent], None]
_SHORTCUT_MODIFIERS = {"ctrl", "alt", "meta", "super"}
# Next and Undo act on the game from any of its screens, through the table's own buttons.
GAME_BUTTONS = {NEXT_TURN: "next_turn", UNDO: "undo_step"}
# Confirm and Dice call the current screen's hook of that name, where it has one.
SCREEN_HOOKS = {CONFIRM: "confirm", READ_DICE: "read_dice"}
PLAY_SCREENS = ("table", "action")
LightSignal = tuple[str, str | None]  # ("off" | "show" | "blink" | "game_end", colour)


class PanelBridge:
    """Subscribes to panels and calls `on_event(event)` on Kivy's main thread, in order.

    A problem a panel already had when attached (e.g. a pin in use) is delivered as a
    `panel_problem` event too, so the app learns of every problem through `on_event`.
    """

    def __init__(self, on_event: EventCallback, *panels: Panel, clock: Any = None) -> None:
        self.on_event = on_event
        self.panels: list[Panel] = []
        self.keyboard_enabled = True
        self.listener: EventCallback | None = None  # see `listen`
        self._queue: deque[PanelEvent] = deque()
        self._clock = clock if clock is not None else Clock
        self._trigger = self._clock.create_trigger(self._deliver, 0)
        self._window: Any = None
        self._no_lights = Lights()
        for panel in panels:
            self.attach(panel)

    @property
    def lights(self) -> Lights:
        """The lights of the first attached panel that has any (no-op lights if none has)."""
        for panel in self.panels:
            if type(panel.lights) is not Lights:
                return panel.lights
        return self.panels[0].lights if self.panels else self._no_lights

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

    def listen(self, listener: EventCallback | None) -> None:
        """Divert the button events to `listener` instead of the app (None: back to the app),
        so that the panel's live test sees each press and none acts on the game; status events
        (panel_problem / panel_ready) still reach the app too, for its status strip."""
        self.listener = listener

    def bind_window(self, window: Any) -> None:
        """Forward the window's key presses to the keyboard panel (Window.on_key_down/up)."""
        self._window = window
        window.bind(on_key_down=self.on_key_down, on_key_up=self.on_key_up)

    def on_key_down(self, window: Any, key: int, scancode: int, codepoint: str | None,
                    modifiers: list[str]) -> bool:
        """Kivy's on_key_down handler: True (consumed) if the key is a panel key."""
        keyboard = self.keyboard
        if keyboard is None or not self.keyboard_enabled or _typing():
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

    def signal(self, mode: str, colour: str | None = None) -> None:
        """Set the lights (a `LightSignal`); a blink is not restarted when it is asked again."""
        lights = self.lights
        if (mode, colour) == (lights.state.mode, lights.state.colour):
            return
        if mode in ("show", "blink") and colour:
            getattr(lights, mode)(colour)
        elif mode == "game_end":
            lights.game_end()
        else:
            lights.off()

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
            listener = self.listener
            handlers = [self.on_event] if listener is None else (
                [listener] if event.is_button else [listener, self.on_event])
            for handler in handlers:
                try:
                    handler(event)
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


def _typing() -> bool:
    """True while a text field has the keyboard focus (a space is then a space, not Next)."""
    return any(FocusBehavior._keyboards.values())


def light_signal(state: Mapping[str, Any], opts: Mapping[str, Any]) -> LightSignal:
    """What the lights show for a game: the end pattern once it is over, the waiting player's
    colour blinking while a Diplomacy bonus is to be chosen, else the active player's colour."""
    if opts["end"]["over"]:
        return "game_end", None
    colours = {player["name"]: player["color"] for player in state["players"]}
    if opts["pending"]:
        return "blink", colours[opts["pending"][0]["player"]]
    active = opts["turn"]["player"]
    return ("show", colours[active]) if active in colours else ("off", None)


def press(app: Any, name: str) -> None:
    """A button press, on the main thread: Next and Undo as the table's buttons (from the table
    or the action screen of a game in play; a refusal's reason is shown on the screen the table
    is on), Confirm and Dice as the current screen's `confirm()` / `read_dice()`."""
    current = app.screens.current_screen
    if name in GAME_BUTTONS:
        session = app.session
        if current.name not in PLAY_SCREENS or session.game is None \
                or session.state["phase"] != "play":
            return
        getattr(app.screens.get_screen("table"), GAME_BUTTONS[name])()
    elif name in SCREEN_HOOKS:
        hook = getattr(current, SCREEN_HOOKS[name], None)
        if hook is not None:
            hook()
