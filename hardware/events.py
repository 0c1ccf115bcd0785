"""Named panel events (button presses and panel status) and the single-subscriber plumbing."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

NEXT_TURN = "next_turn"
UNDO = "undo"
CONFIRM = "confirm"
READ_DICE = "read_dice"
BUTTON_EVENTS: tuple[str, ...] = (NEXT_TURN, UNDO, CONFIRM, READ_DICE)

PANEL_PROBLEM = "panel_problem"
PANEL_READY = "panel_ready"
STATUS_EVENTS: tuple[str, ...] = (PANEL_PROBLEM, PANEL_READY)


@dataclass(frozen=True)
class PanelEvent:
    """One thing a panel reports: a button name (or a status change) with the time it was seen."""

    name: str
    timestamp: float = field(default_factory=time.time)
    source: str = ""
    detail: str | None = None

    @property
    def is_button(self) -> bool:
        """True for a button event (next_turn, undo, ...), False for a panel status event."""
        return self.name in BUTTON_EVENTS


EventHandler = Callable[[PanelEvent], None]


class EventSource:
    """Delivers events to exactly one subscriber, set as `when_event` (gpiozero style)."""

    def __init__(self, source: str) -> None:
        self._source = source
        self._when_event: EventHandler | None = None
        self._subscriber_lock = threading.Lock()

    @property
    def when_event(self) -> EventHandler | None:
        """The one callable that receives every event; setting it replaces the previous one."""
        return self._when_event

    @when_event.setter
    def when_event(self, handler: EventHandler | None) -> None:
        with self._subscriber_lock:
            self._when_event = handler

    def emit(self, name: str, detail: str | None = None) -> PanelEvent:
        """Stamp an event now and hand it to the subscriber (dropped, logged, if there is none)."""
        event = PanelEvent(name=name, timestamp=time.time(), source=self._source, detail=detail)
        handler = self._when_event
        if handler is None:
            log.debug("panel event %s dropped: nobody subscribed", name)
            return event
        try:
            handler(event)
        except Exception:  # a subscriber's bug must not kill a GPIO or serial thread
            log.exception("panel event subscriber failed on %s", name)
        return event
