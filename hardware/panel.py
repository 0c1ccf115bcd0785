"""The base of every input panel: one event subscriber, a problem message, lights, close()."""

from __future__ import annotations

import logging
import threading
import time
from types import TracebackType

from hardware.events import (
    BUTTON_EVENTS,
    PANEL_PROBLEM,
    PANEL_READY,
    EventHandler,
    EventSource,
)
from hardware.lights import Lights

log = logging.getLogger(__name__)

PRESS_INTERVAL = 0.1  # a finger presses one button at most about ten times a second


class Panel:
    """An input panel: reports named events to one subscriber and shows colours on its lights.

    `problem` is None while the panel works, else a sentence for the log and the screen; each
    change is also reported as a `panel_problem` / `panel_ready` event.
    """

    kind = "none"
    press_interval = 0.0  # seconds between two acting presses of one button (0: no limit;
    # a device that can send a burst of lines sets PRESS_INTERVAL)

    def __init__(self, lights: Lights | None = None, *, description: str = "no panel",
                 when_event: EventHandler | None = None) -> None:
        self._last_press: dict[str, float] = {}
        self.dropped_presses = 0  # presses that came faster than a finger can press
        self._dropping = False
        self._events = EventSource(self.kind)
        self._events.when_event = when_event
        self._status_lock = threading.Lock()
        self._problem: str | None = None
        self._ready = threading.Event()
        self.lights: Lights = lights if lights is not None else Lights()
        self.description = description

    @property
    def when_event(self) -> EventHandler | None:
        """The single subscriber: a callable taking a PanelEvent (runs on the panel's thread)."""
        return self._events.when_event

    @when_event.setter
    def when_event(self, handler: EventHandler | None) -> None:
        self._events.when_event = handler

    @property
    def problem(self) -> str | None:
        """What is wrong with the panel right now (None when it works), worded for a player."""
        return self._problem

    @property
    def ready(self) -> bool:
        """True while buttons can be read (wired GPIO, or a serial device that said HELLO)."""
        return self._ready.is_set()

    def wait_ready(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for the panel to become ready; True if it is."""
        return self._ready.wait(timeout)

    def close(self) -> None:
        """Release pins, ports and threads; the panel reports nothing afterwards."""
        self._events.when_event = None
        self.lights.close()

    def __enter__(self) -> Panel:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def _emit(self, name: str, detail: str | None = None) -> None:
        if name in BUTTON_EVENTS and not self._may_act(name):
            return
        self._events.emit(name, detail)

    def _may_act(self, name: str) -> bool:
        """Whether a press of button `name` acts: not when the same button acted less than
        `press_interval` seconds ago (a burst of presses from a faulty or hostile device would
        undo or end turn after turn); the dropped ones are counted, and logged once a burst."""
        now = time.monotonic()
        last = self._last_press.get(name)
        if last is not None and now - last < self.press_interval:
            self.dropped_presses += 1
            if not self._dropping:
                self._dropping = True
                log.warning("panel: presses of %s come faster than a finger can press (more "
                            "than one in %g s); the extra ones are ignored", name,
                            self.press_interval)
            return False
        if self._dropping:
            self._dropping = False
            log.warning("panel: %d presses ignored so far, as they came too fast",
                        self.dropped_presses)
        self._last_press[name] = now
        return True

    def _set_problem(self, message: str) -> None:
        """Log a (new) problem once and report it; the panel is not ready while it lasts."""
        with self._status_lock:
            self._ready.clear()
            if message == self._problem:
                return
            self._problem = message
        log.warning("%s", message)
        self._emit(PANEL_PROBLEM, message)

    def _set_ready(self, detail: str) -> None:
        """Clear any problem and report the panel ready (`detail` says which device)."""
        with self._status_lock:
            if self._ready.is_set() and self._problem is None:
                return
            self._problem = None
        log.info("%s", detail)
        self._emit(PANEL_READY, detail)
        self._ready.set()  # after the event: whoever sees `ready` has been told


class TouchOnlyPanel(Panel):
    """No panel at all (`kind = "none"`, or a panel that could not start): touch only."""

    kind = "none"

    def __init__(self, problem: str | None = None) -> None:
        super().__init__(description="touch only")
        if problem is not None:
            self._problem = problem
            log.warning("%s", problem)
