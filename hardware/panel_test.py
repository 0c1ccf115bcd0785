"""`phoenix-companion panel-test`: print each panel event as it arrives and cycle the LEDs, to
check the wiring of a panel on a real Pi."""

from __future__ import annotations

import itertools
import queue
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import TextIO

from companion.i18n import _
from hardware.config import PanelConfig
from hardware.events import PanelEvent
from hardware.factory import open_panel
from hardware.lights import Lights
from hardware.panel import TouchOnlyPanel

MISSING_DEVICE = 2
BAD_ARGUMENT = 2
MIN_SECONDS, MAX_SECONDS = 0, 3600  # --seconds (0: start the panel, then stop); minutes do
CONNECT_TIMEOUT = 3.0
LIGHT_STEP = 2.0
TEST_COLOURS = ("red", "yellow", "green", "blue")


def light_steps(lights: Lights) -> Iterator[str]:
    """Endlessly put the lights through every state the app uses; yields what each step shows."""
    steps: list[tuple[str, Callable[[], None]]] = [
        (_("show {colour}").format(colour=colour), partial(lights.show, colour))
        for colour in TEST_COLOURS]
    steps += [(_("blink purple (waiting on a player)"), partial(lights.blink, "purple")),
              (_("game end pattern"), lights.game_end), (_("off"), lights.off)]
    for label, action in itertools.cycle(steps):
        action()
        yield label


def format_event(event: PanelEvent) -> str:
    """One line per event: local time with milliseconds, name, where it came from, detail."""
    clock = time.strftime("%H:%M:%S", time.localtime(event.timestamp))
    millis = int(event.timestamp % 1 * 1000)
    line = f"{clock}.{millis:03d}  {event.name:<13} ({event.source})"
    return f"{line}  {event.detail}" if event.detail else line


def run(config: PanelConfig, *, duration: float | None = None, out: TextIO | None = None) -> int:
    """Open the configured panel, print events until `duration` seconds pass (None: until
    Ctrl+C) while cycling the LEDs to `out` (default: stdout as it is when called); 0 when done,
    2 (with a message) if there is no device."""
    def say(text: str) -> None:
        print(text, file=out or sys.stdout, flush=True)

    if duration is not None and (isinstance(duration, bool) or not isinstance(
            duration, int | float) or not MIN_SECONDS <= duration <= MAX_SECONDS):
        print(_("panel-test: --seconds {value}: give a number of seconds from {low} to {high} "
                "(or leave it out to run until Ctrl+C)").format(
                    value=duration, low=MIN_SECONDS, high=MAX_SECONDS), file=sys.stderr)
        return BAD_ARGUMENT

    if config.kind == "none":
        say(_('panel-test: no panel configured. Set [panel] kind = "gpio" or "serial" in the '
              "config file (see docs/panel.md)."))
        return MISSING_DEVICE
    events: queue.Queue[PanelEvent] = queue.Queue()
    panel = open_panel(config, when_event=events.put)
    try:
        if isinstance(panel, TouchOnlyPanel) or not panel.wait_ready(CONNECT_TIMEOUT):
            say(_("panel-test: {problem}").format(
                problem=panel.problem or _("the panel did not start")))
            return MISSING_DEVICE
        say(_("panel-test: {panel} ready. Press each button (long press of next_turn = undo "
              "after {seconds} s); Ctrl+C to stop.").format(
                  panel=panel.description, seconds=f"{config.hold_time:g}"))
        if panel.problem:
            say(_("panel-test: {problem}").format(problem=panel.problem))
        steps = light_steps(panel.lights)
        deadline = None if duration is None else time.monotonic() + duration
        next_step = time.monotonic()
        while deadline is None or time.monotonic() < deadline:
            now = time.monotonic()
            if now >= next_step:
                say(_("lights: {step}").format(step=next(steps)))
                next_step = now + LIGHT_STEP
            wait = next_step - now if deadline is None else min(next_step, deadline) - now
            try:
                event = events.get(timeout=max(0.01, min(wait, 0.2)))
            except queue.Empty:
                continue
            say(format_event(event))
        while not events.empty():
            say(format_event(events.get()))
        return 0
    except KeyboardInterrupt:
        return 0
    finally:
        panel.lights.off()
        panel.close()
