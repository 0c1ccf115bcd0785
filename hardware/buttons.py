"""Debounced GPIO push buttons that name an event on a press, and another on a long press."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from gpiozero import DigitalInputDevice

log = logging.getLogger(__name__)


class Debouncer:
    """Turns a bouncing contact into clean changes: the first edge counts at once, every edge in
    the next `bounce_time` seconds is ignored, then the settled level is read again (so a tap
    shorter than the bounce time still ends in a release)."""

    def __init__(self, read: Callable[[], bool], bounce_time: float,
                 on_change: Callable[[bool], None]) -> None:
        self._read = read
        self._bounce_time = bounce_time
        self._on_change = on_change
        self._lock = threading.RLock()
        self._state = read()
        self._quiet_until = 0.0
        self._timer: threading.Timer | None = None
        self._closed = False

    @property
    def state(self) -> bool:
        """The debounced level (True = pressed)."""
        return self._state

    def edge(self, level: bool) -> None:
        """Report a raw edge (called on the pin library's thread)."""
        with self._lock:
            if self._closed or time.monotonic() < self._quiet_until or level == self._state:
                return
            self._accept(level)

    def close(self) -> None:
        """Stop the pending settle check; later edges are ignored."""
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()

    def _accept(self, level: bool) -> None:
        self._state = level
        if self._bounce_time > 0:
            self._quiet_until = time.monotonic() + self._bounce_time
            self._timer = threading.Timer(self._bounce_time, self._settle)
            self._timer.daemon = True
            self._timer.start()
        self._on_change(level)

    def _settle(self) -> None:
        with self._lock:
            if self._closed:
                return
            level = self._read()
            if level != self._state:
                self._accept(level)


class PanelButton:
    """One push button on a BCM pin (to ground, internal pull-up) that reports event names.

    Without `held_name` the event fires on the press. With it, a press shorter than `hold_time`
    fires `name` on release and a longer one fires `held_name` once (and not `name`).
    """

    def __init__(self, pin: int, *, name: str, on_event: Callable[[str], None],
                 held_name: str | None = None, hold_time: float = 1.0,
                 bounce_time: float = 0.05, pin_factory: object | None = None) -> None:
        self.name = name
        self.held_name = held_name
        self.hold_time = hold_time
        self._on_event = on_event
        self._lock = threading.RLock()
        self._press_count = 0
        self._held = False
        self._hold_timer: threading.Timer | None = None
        # Debouncing and long presses are done here, not by gpiozero's Button, so they behave
        # the same on every pin factory (lgpio, RPi.GPIO, mock) and a tap shorter than the
        # bounce time is not lost. Pulled up: a press connects the pin to ground (active low).
        self.button = DigitalInputDevice(pin, pull_up=True, bounce_time=None,
                                         pin_factory=pin_factory)
        self._debouncer = Debouncer(lambda: self.button.is_active, bounce_time, self._changed)
        self.button.when_activated = self._pressed_edge
        self.button.when_deactivated = self._released_edge

    @property
    def pin(self) -> str:
        """The pin's name as gpiozero gives it (e.g. "GPIO17")."""
        return str(self.button.pin)

    @property
    def is_pressed(self) -> bool:
        """The debounced state of the button."""
        return self._debouncer.state

    def close(self) -> None:
        """Release the pin and stop the timers."""
        self._debouncer.close()
        with self._lock:
            if self._hold_timer is not None:
                self._hold_timer.cancel()
        self.button.close()

    def _pressed_edge(self) -> None:
        self._debouncer.edge(True)

    def _released_edge(self) -> None:
        self._debouncer.edge(False)

    def _changed(self, pressed: bool) -> None:
        with self._lock:
            if pressed:
                self._press_count += 1
                self._held = False
                if self.held_name is None:
                    self._on_event(self.name)
                    return
                timer = threading.Timer(self.hold_time, self._hold_elapsed,
                                        args=(self._press_count,))
                timer.daemon = True
                self._hold_timer = timer
                timer.start()
                return
            if self._hold_timer is not None:
                self._hold_timer.cancel()
                self._hold_timer = None
            if self.held_name is not None and not self._held:
                self._on_event(self.name)

    def _hold_elapsed(self, press: int) -> None:
        with self._lock:
            if press != self._press_count or not self._debouncer.state or self._held:
                return
            self._held = True
            assert self.held_name is not None
            self._on_event(self.held_name)
