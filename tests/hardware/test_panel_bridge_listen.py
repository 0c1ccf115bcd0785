"""The bridge's hook for the panel's live test (PanelBridge.listen): while a listener listens,
button events go to it and not to the app, status events to both; afterwards the app gets
everything again. A Kivy ClockBase ticked by hand; no window is opened."""

from __future__ import annotations

import threading

from kivy.clock import ClockBase

from companion.ui.panel_bridge import PanelBridge
from hardware.panel import Panel


class ThreadedPanel(Panel):
    """A panel whose events come from a thread of its own, as GPIO and serial events do."""

    kind = "test"

    def fire_from_thread(self, *names: str) -> None:
        thread = threading.Thread(target=lambda: [self._emit(n) for n in names], name="pins")
        thread.start()
        thread.join()


def tick_until(clock: ClockBase, predicate, ticks: int = 600) -> bool:
    """Run up to `ticks` frames of the clock until `predicate()` holds."""
    for _ in range(ticks):
        clock.tick()
        if predicate():
            return True
    return bool(predicate())


def test_listening_diverts_button_events_and_shares_status_events(recorder) -> None:
    clock = ClockBase()
    panel = ThreadedPanel()
    bridge = PanelBridge(recorder, panel, clock=clock)
    heard: list[tuple[str, str]] = []
    bridge.listen(lambda event: heard.append((event.name, threading.current_thread().name)))
    panel.fire_from_thread("next_turn", "undo", "panel_problem")
    assert tick_until(clock, lambda: len(heard) == 3)
    assert heard == [("next_turn", "MainThread"), ("undo", "MainThread"),
                     ("panel_problem", "MainThread")]
    assert [event.name for event in recorder.events] == ["panel_problem"]  # the app's strip

    bridge.listen(None)
    panel.fire_from_thread("confirm")
    assert tick_until(clock, lambda: recorder.names == ["confirm"])
    assert len(heard) == 3
    bridge.close()


def test_a_failing_listener_does_not_stop_the_app_hearing_status(recorder) -> None:
    clock = ClockBase()
    panel = ThreadedPanel()
    bridge = PanelBridge(recorder, panel, clock=clock)

    def broken(_event) -> None:
        raise RuntimeError("listener bug")

    bridge.listen(broken)
    panel.fire_from_thread("next_turn", "panel_ready")
    assert tick_until(clock, lambda: len(recorder.events) == 1)
    assert [event.name for event in recorder.events] == ["panel_ready"]
    bridge.close()
