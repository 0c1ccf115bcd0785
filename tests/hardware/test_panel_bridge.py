"""The Kivy bridge: panel events from other threads reach the app on the main thread, via Clock
(a ClockBase ticked by hand; no window is opened)."""

from __future__ import annotations

import threading

import pytest
from kivy.clock import ClockBase

from companion.ui.shell.panel_bridge import PanelBridge, light_signal, start_panels
from hardware import PANEL_PROBLEM, GPIOConfig, KeyboardPanel, PanelConfig, SerialConfig
from hardware.panel import Panel

NEXT_TURN_PIN, CONFIRM_PIN = 17, 22


@pytest.fixture
def clock() -> ClockBase:
    """A Kivy clock of our own, ticked by the test as the main loop would."""
    return ClockBase()


def tick_until(clock: ClockBase, predicate, ticks: int = 600) -> bool:
    """Run up to `ticks` frames of the clock (about ten seconds) until `predicate()` holds."""
    for _ in range(ticks):
        clock.tick()
        if predicate():
            return True
    return bool(predicate())


class ThreadedPanel(Panel):
    """A panel whose events come from a thread of its own, as GPIO and serial events do."""

    kind = "test"

    def fire_from_thread(self, *names: str) -> None:
        thread = threading.Thread(target=lambda: [self._emit(n) for n in names], name="pins")
        thread.start()
        thread.join()


def test_events_from_another_thread_run_on_the_main_thread(clock, recorder):
    panel = ThreadedPanel()
    bridge = PanelBridge(recorder, panel, clock=clock)
    panel.fire_from_thread("next_turn", "confirm", "undo")
    assert recorder.events == []  # nothing runs until the main loop's next frame
    assert tick_until(clock, lambda: len(recorder.events) == 3)
    assert recorder.names == ["next_turn", "confirm", "undo"]
    assert set(recorder.threads) == {threading.main_thread().name}
    bridge.close()


def test_gpio_presses_reach_the_main_thread(clock, recorder, pin_factory):
    bridge = start_panels(PanelConfig(kind="gpio", bounce_time=0.0, keyboard=False), recorder,
                          clock=clock, pin_factory=pin_factory)
    try:
        pin_factory.pin(CONFIRM_PIN).drive_low()
        assert recorder.events == []
        assert tick_until(clock, lambda: recorder.names == ["confirm"])
        assert recorder.threads == [threading.main_thread().name]
        bridge.lights.show("blue")
        assert pin_factory.pin(13).state == 1  # the RGB LED's blue pin
    finally:
        bridge.close()


def test_serial_presses_reach_the_main_thread(clock, recorder, fake_device):
    config = PanelConfig(kind="serial", serial=SerialConfig(port=str(fake_device.link)))
    bridge = start_panels(config, recorder, clock=clock)
    try:
        assert tick_until(clock, lambda: bridge.panels[0].ready)
        fake_device.press("read_dice")
        assert tick_until(clock, lambda: recorder.names == ["read_dice"])
        assert set(recorder.threads) == {threading.main_thread().name}
    finally:
        bridge.close()


def test_a_panel_that_could_not_start_is_reported_through_the_bridge(clock, recorder,
                                                                     pin_factory):
    config = PanelConfig(kind="gpio", gpio=GPIOConfig(read_dice=99))
    bridge = start_panels(config, recorder, clock=clock, pin_factory=pin_factory)
    try:
        assert tick_until(clock, lambda: recorder.status(PANEL_PROBLEM))
        problem = recorder.status(PANEL_PROBLEM)[0].detail
        assert "GPIO99" in problem and "touch only" in problem
        assert bridge.problems() == [problem]
        assert isinstance(bridge.keyboard, KeyboardPanel)  # the keyboard still works
    finally:
        bridge.close()


class FakeWindow:
    """Stands in for kivy.core.window.Window: records bindings, fires key events."""

    def __init__(self) -> None:
        self.handlers: dict[str, object] = {}

    def bind(self, **handlers) -> None:
        self.handlers.update(handlers)

    def unbind(self, **handlers) -> None:
        for name in handlers:
            self.handlers.pop(name, None)

    def key_down(self, key: int, modifiers=()) -> bool:
        return self.handlers["on_key_down"](self, key, 0, None, list(modifiers))

    def key_up(self, key: int) -> bool:
        return self.handlers["on_key_up"](self, key, 0)


def test_window_keys_become_events(clock, recorder):
    window = FakeWindow()
    bridge = start_panels(PanelConfig(kind="none"), recorder, window=window, clock=clock)
    assert window.key_down(32) is True
    assert window.key_down(32) is True  # auto-repeat: consumed, not reported
    window.key_up(32)
    assert window.key_down(100) is True
    assert window.key_down(100, modifiers=["ctrl"]) is False  # a shortcut, not a panel key
    assert window.key_down(120) is False
    bridge.keyboard_enabled = False  # e.g. while a text field has the focus
    assert window.key_down(117) is False
    assert tick_until(clock, lambda: len(recorder.names) == 2)
    assert recorder.names == ["next_turn", "read_dice"]
    bridge.close()
    assert window.handlers == {}


def test_a_failing_app_handler_does_not_stop_later_events(clock, caplog):
    seen = []

    def handler(event):
        seen.append(event.name)
        if event.name == "undo":
            raise RuntimeError("app bug")

    panel = ThreadedPanel()
    bridge = PanelBridge(handler, panel, clock=clock)
    panel.fire_from_thread("undo", "confirm")
    assert tick_until(clock, lambda: seen == ["undo", "confirm"])
    assert "app bug" in caplog.text
    bridge.close()


def test_lights_follow_the_game():
    state = {"players": [{"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"}]}
    playing = {"end": {"over": False}, "pending": [], "turn": {"player": "Bob"}}
    assert light_signal(state, playing) == ("show", "blue")
    waiting = {**playing, "pending": [{"player": "Ann"}]}
    assert light_signal(state, waiting) == ("blink", "red")
    assert light_signal(state, {**waiting, "end": {"over": True}}) == ("game_end", None)


def test_the_bridge_sets_the_lights_once_per_change(clock, recorder):
    bridge = PanelBridge(recorder, clock=clock)
    calls = []
    lights = bridge.lights
    lights._apply = lambda: calls.append(lights.state)
    bridge.signal("blink", "blue")
    bridge.signal("blink", "blue")  # asked again on a refresh: the blink goes on undisturbed
    bridge.signal("game_end")
    bridge.signal("off")
    assert [(s.mode, s.colour) for s in calls] == [("blink", "blue"), ("game_end", None),
                                                   ("off", None)]


def test_listening_diverts_button_events_and_shares_status_events(clock, recorder) -> None:
    """The panel's live test (PanelBridge.listen): button events go to it, not to the app;
    status events to both; afterwards the app gets everything again."""
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


def test_a_failing_listener_does_not_stop_the_app_hearing_status(clock, recorder) -> None:
    panel = ThreadedPanel()
    bridge = PanelBridge(recorder, panel, clock=clock)

    def broken(_event) -> None:
        raise RuntimeError("listener bug")

    bridge.listen(broken)
    panel.fire_from_thread("next_turn", "panel_ready")
    assert tick_until(clock, lambda: len(recorder.events) == 1)
    assert [event.name for event in recorder.events] == ["panel_ready"]
    bridge.close()
