"""The base of every input panel: one event subscriber, a problem message, lights, close()."""

from __future__ import annotations

import logging
import threading
from types import TracebackType

from hardware.events import PANEL_PROBLEM, PANEL_READY, EventHandler, EventSource
from hardware.lights import Lights

log = logging.getLogger(__name__)


class Panel:
    """An input panel: reports named events to one subscriber and shows colours on its lights.

    `problem` is None while the panel works, else a sentence for the log and the screen; each
    change is also reported as a `panel_problem` / `panel_ready` event.
    """

    kind = "none"

    def __init__(self, lights: Lights | None = None, *, description: str = "no panel",
                 when_event: EventHandler | None = None) -> None:
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
        self._events.emit(name, detail)

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
