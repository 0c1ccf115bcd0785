"""The GPIO panel on gpiozero's mock pin factory: presses, bounce, long press, LEDs, failures."""

from __future__ import annotations

import time

import pytest
from gpiozero import Button

from hardware import (
    GPIOConfig,
    GPIOPanel,
    PanelConfig,
    TouchOnlyPanel,
    open_panel,
)

NEXT_TURN_PIN, UNDO_PIN, CONFIRM_PIN, DICE_PIN = 17, 27, 22, 23
RED, GREEN, BLUE = 5, 6, 13


@pytest.fixture
def make_panel(pin_factory, recorder):
    """`make_panel(hold_time=..., bounce_time=..., **gpio)`: a GPIO panel recording its events."""
    panels = []

    def make(hold_time: float = 5.0, bounce_time: float = 0.0, **gpio) -> GPIOPanel:
        panel = GPIOPanel(GPIOConfig(**gpio), hold_time=hold_time, bounce_time=bounce_time,
                          pin_factory=pin_factory)
        panel.when_event = recorder
        panels.append(panel)
        return panel

    yield make
    for panel in panels:
        panel.close()


def press(pin_factory, pin: int) -> None:
    """Close the switch: the pulled-up pin goes low."""
    pin_factory.pin(pin).drive_low()


def release(pin_factory, pin: int) -> None:
    """Open the switch: the pin goes back high."""
    pin_factory.pin(pin).drive_high()


def bounce(pin_factory, pin: int, final_low: bool) -> None:
    """A bouncing contact: five edges in a row, ending low (pressed) or high (released)."""
    mock = pin_factory.pin(pin)
    edges = [mock.drive_low, mock.drive_high] * 3
    for edge in edges[: 5 if final_low else 6]:
        edge()


@pytest.mark.parametrize(("pin", "name"), [(UNDO_PIN, "undo"), (CONFIRM_PIN, "confirm"),
                                           (DICE_PIN, "read_dice")])
def test_a_press_names_its_button(make_panel, pin_factory, recorder, wait, pin, name):
    panel = make_panel()
    assert panel.ready and panel.problem is None
    press(pin_factory, pin)
    assert wait(lambda: recorder.names == [name])  # on the press, before the release
    release(pin_factory, pin)
    event = next(e for e in recorder.events if e.is_button)
    assert event.source == "gpio" and event.timestamp > 0
    assert recorder.names == [name]


def test_a_short_press_of_next_turn_is_next_turn(make_panel, pin_factory, recorder, wait):
    make_panel(hold_time=5.0)
    press(pin_factory, NEXT_TURN_PIN)
    assert recorder.names == []  # it could still become a long press
    release(pin_factory, NEXT_TURN_PIN)
    assert wait(lambda: recorder.names == ["next_turn"])


def test_a_long_press_is_undo_and_not_next_turn(make_panel, pin_factory, recorder, wait):
    make_panel(hold_time=0.2, bounce_time=0.05)
    press(pin_factory, NEXT_TURN_PIN)
    assert wait(lambda: recorder.names == ["undo"])
    bounce(pin_factory, NEXT_TURN_PIN, final_low=False)  # a bouncing release after the hold
    press(pin_factory, CONFIRM_PIN)  # a later, unrelated press shows nothing else was queued
    assert wait(lambda: len(recorder.names) == 2)
    assert recorder.names == ["undo", "confirm"]


def test_bounce_within_the_debounce_time_is_one_press(make_panel, pin_factory, recorder, wait):
    make_panel(bounce_time=0.5)
    bounce(pin_factory, CONFIRM_PIN, final_low=True)
    assert wait(lambda: recorder.names == ["confirm"])
    # After the debounce time the switch opens, bouncing again: still no second event.
    time.sleep(0.6)
    bounce(pin_factory, CONFIRM_PIN, final_low=False)
    time.sleep(0.6)
    press(pin_factory, DICE_PIN)
    assert wait(lambda: len(recorder.names) == 2)
    assert recorder.names == ["confirm", "read_dice"]


def test_bounce_on_next_turn_is_one_next_turn(make_panel, pin_factory, recorder, wait):
    make_panel(bounce_time=0.3, hold_time=5.0)
    bounce(pin_factory, NEXT_TURN_PIN, final_low=True)
    time.sleep(0.4)  # past the debounce time, still held
    bounce(pin_factory, NEXT_TURN_PIN, final_low=False)
    assert wait(lambda: recorder.names == ["next_turn"])
    press(pin_factory, DICE_PIN)
    assert wait(lambda: len(recorder.names) == 2)
    assert recorder.names == ["next_turn", "read_dice"]


def test_a_tap_shorter_than_the_debounce_time_is_not_lost(make_panel, pin_factory, recorder,
                                                          wait):
    panel = make_panel(bounce_time=0.2, hold_time=1.0)
    press(pin_factory, NEXT_TURN_PIN)
    release(pin_factory, NEXT_TURN_PIN)  # inside the debounce time: seen when it settles
    assert wait(lambda: recorder.names == ["next_turn"])
    assert not panel.buttons["next_turn"].is_pressed


def test_two_presses_are_two_events(make_panel, pin_factory, recorder, wait):
    make_panel(bounce_time=0.05)
    for count in (1, 2):
        press(pin_factory, CONFIRM_PIN)
        assert wait(lambda count=count: len(recorder.names) == count)
        time.sleep(0.1)  # past the debounce time
        release(pin_factory, CONFIRM_PIN)
        time.sleep(0.1)
    assert recorder.names == ["confirm", "confirm"]


def rgb(pin_factory) -> tuple[float, float, float]:
    return tuple(float(pin_factory.pin(pin).state) for pin in (RED, GREEN, BLUE))


def test_the_rgb_led_follows_the_active_player(make_panel, pin_factory):
    panel = make_panel()
    assert rgb(pin_factory) == (0, 0, 0)
    panel.lights.show("red")
    assert rgb(pin_factory) == (1, 0, 0)
    panel.lights.show("blue")
    assert rgb(pin_factory) == (0, 0, 1)
    panel.lights.show("#00ff00")
    assert rgb(pin_factory) == (0, 1, 0)
    panel.lights.off()
    assert rgb(pin_factory) == (0, 0, 0)
    assert panel.lights.state.mode == "off"


def test_common_anode_rgb_led_is_inverted(make_panel, pin_factory):
    panel = make_panel(common_anode=True)
    panel.lights.show("red")
    assert rgb(pin_factory) == (0, 1, 1)


def test_an_rgb_led_without_pwm_shows_the_nearest_full_colour(make_panel, pin_factory):
    panel = make_panel(pwm=False)
    panel.lights.show("yellow")  # (1, 0.6, 0) -> (1, 1, 0)
    assert rgb(pin_factory) == (1, 1, 0)


def test_the_led_blinks_while_waiting_on_a_player(make_panel, pin_factory, wait):
    panel = make_panel()
    panel.lights.show("red")
    green = pin_factory.pin(GREEN)
    green.clear_states()
    panel.lights.blink("green")
    assert wait(lambda: [s.state for s in green.states].count(0) >= 2)  # on, off, on, off
    assert any(s.state == 1 for s in green.states)
    assert pin_factory.pin(RED).state == 0
    panel.lights.show("blue")  # a steady colour stops the blinking
    assert rgb(pin_factory) == (0, 0, 1)


def test_the_game_end_pattern_cycles_colours(make_panel, pin_factory, wait):
    panel = make_panel()
    for pin in (RED, GREEN, BLUE):
        pin_factory.pin(pin).clear_states()
    panel.lights.game_end()
    assert wait(lambda: all(len(pin_factory.pin(pin).states) >= 3 for pin in (RED, GREEN, BLUE)))
    panel.lights.show("red")
    assert rgb(pin_factory) == (1, 0, 0)


PLAYERS = {"red": 5, "yellow": 6, "green": 13, "blue": 26}


def lit(pin_factory) -> list[str]:
    return [colour for colour, pin in PLAYERS.items() if pin_factory.pin(pin).state]


def test_player_leds_follow_the_active_player(make_panel, pin_factory, wait):
    panel = make_panel(leds="players", players=tuple(PLAYERS.items()))
    assert lit(pin_factory) == []
    for colour in ("yellow", "blue", "red", "green"):
        panel.lights.show(colour)
        assert lit(pin_factory) == [colour]
    panel.lights.show("purple")  # nobody has a purple LED: all off rather than a wrong one
    assert lit(pin_factory) == []
    panel.lights.blink("blue")
    blue = pin_factory.pin(PLAYERS["blue"])
    blue.clear_states()
    assert wait(lambda: [bool(s.state) for s in blue.states].count(False) >= 2)
    assert lit(pin_factory) in ([], ["blue"])
    panel.lights.game_end()
    seen: set[str] = set()
    assert wait(lambda: seen.update(lit(pin_factory)) or seen == set(PLAYERS))
    panel.lights.off()
    assert lit(pin_factory) == []


def test_a_pin_already_in_use_leaves_touch_only(pin_factory, recorder):
    squatter = Button(NEXT_TURN_PIN, pin_factory=pin_factory)
    try:
        panel = open_panel(PanelConfig(kind="gpio"), pin_factory=pin_factory)
        assert isinstance(panel, TouchOnlyPanel)
        assert "GPIO17" in panel.problem and "in use" in panel.problem
        assert "touch only" in panel.problem
        assert not panel.ready
        panel.lights.show("red")  # no LEDs, no error
        panel.close()
        # The buttons it had already claimed were released again.
        Button(UNDO_PIN, pin_factory=pin_factory).close()
    finally:
        squatter.close()


def test_a_pin_that_does_not_exist_leaves_touch_only(pin_factory):
    panel = open_panel(PanelConfig(kind="gpio", gpio=GPIOConfig(confirm=40)),
                       pin_factory=pin_factory)
    assert isinstance(panel, TouchOnlyPanel)
    assert "confirm" in panel.problem and "GPIO40" in panel.problem


def test_leds_that_cannot_be_used_leave_the_buttons_working(pin_factory, recorder, wait):
    squatter = Button(RED, pin_factory=pin_factory)
    panel = open_panel(PanelConfig(kind="gpio", bounce_time=0.0), pin_factory=pin_factory)
    try:
        assert isinstance(panel, GPIOPanel)
        assert panel.ready
        assert "LEDs" in panel.problem and "GPIO5" in panel.problem
        panel.when_event = recorder
        press(pin_factory, CONFIRM_PIN)
        assert wait(lambda: recorder.names == ["confirm"])
        panel.lights.show("red")
    finally:
        panel.close()
        squatter.close()


def test_close_releases_every_pin(make_panel, pin_factory):
    panel = make_panel()
    panel.close()
    again = GPIOPanel(GPIOConfig(), pin_factory=pin_factory)
    again.close()


def test_the_default_pin_factory_is_used_when_none_is_given(pin_factory, recorder, wait):
    panel = open_panel(PanelConfig(kind="gpio", bounce_time=0.0))
    try:
        panel.when_event = recorder
        press(pin_factory, DICE_PIN)
        assert wait(lambda: recorder.names == ["read_dice"])
    finally:
        panel.close()
