"""What the button panel's live test says (companion/ui/panel_check_model.py), without Kivy: a
line per button with its count and the last one marked, the panel's state with what to do, and
the lights' state in words, in English and German."""

from __future__ import annotations

from companion.ui.settings.panel_check_model import (
    PanelCheck,
    PanelState,
    light_words,
    panel_state,
)


def texts(check: PanelCheck) -> list[tuple[str, bool]]:
    return [(line.text, line.last) for line in check.lines()]


def test_nothing_pressed_yet_is_a_line_per_button_none_marked() -> None:
    assert texts(PanelCheck()) == [("Next turn: not pressed yet", False),
                                   ("Undo, or Next turn held: not pressed yet", False),
                                   ("Confirm: not pressed yet", False),
                                   ("Read dice: not pressed yet", False)]


def test_each_press_is_counted_and_the_last_one_marked() -> None:
    check = PanelCheck()
    for name in ("next_turn", "confirm", "next_turn", "undo"):
        assert check.record(name)
    assert texts(check) == [("Next turn: pressed 2 times", False),
                            ("Undo, or Next turn held: pressed 1 time", True),
                            ("Confirm: pressed 1 time", False),
                            ("Read dice: not pressed yet", False)]
    assert [line.name for line in check.lines()] == ["next_turn", "undo", "confirm", "read_dice"]


def test_a_status_event_is_no_press() -> None:
    check = PanelCheck()
    assert not check.record("panel_problem")
    assert not check.record("panel_ready")
    assert check.last is None and set(check.counts.values()) == {0}


def test_touch_only_says_how_to_set_up_a_panel() -> None:
    state = panel_state("none", [], False, 1.0)
    assert state.trouble
    assert state.text.startswith("No button panel is set up: the game is played by touch only.")
    assert "choose GPIO buttons or USB serial under Button panel" in state.text


def test_a_problem_is_shown_with_what_to_do_for_the_kind_of_panel() -> None:
    serial = panel_state("serial", ["Serial button panel not found: no device at /dev/ttyACM0."],
                         False, 1.0)
    assert serial.trouble
    assert serial.text == ("The panel has a problem: Serial button panel not found: no device "
                           "at /dev/ttyACM0. Check the USB cable and the port chosen; the panel "
                           "is picked up as soon as it answers.")
    gpio = panel_state("gpio", ["the Undo button on GPIO24 cannot be used (in use)."], False, 1.0)
    assert gpio.trouble and gpio.text.endswith(
        "Check the pins chosen and the wiring: each button goes between its GPIO pin and ground.")


def test_a_panel_still_connecting_and_a_ready_one() -> None:
    assert panel_state("serial", [], False, 1.0) == PanelState(
        "Waiting for the panel to answer…", False)
    ready = panel_state("gpio", [], True, 0.5)
    assert not ready.trouble
    assert ready.text == ("Press each button: each press shows here and the game does not move. "
                          "A long press of Next turn (0.5 s) is Undo.")


def test_the_lights_in_words() -> None:
    assert light_words("show", "red") == "Lights: red"
    assert light_words("blink", "purple") == "Lights: purple, blinking (waiting on a player)"
    assert light_words("game_end", None) == "Lights: the game-end pattern"
    assert light_words("off", None) == "Lights: off"
    assert light_words("show", "#102030") == "Lights: #102030"
    assert light_words("show", "red", has_lights=False) == "Lights: this panel has none to cycle."


def test_the_test_speaks_german(german: None) -> None:
    check = PanelCheck()
    check.record("next_turn")
    check.record("next_turn")
    assert texts(check)[:2] == [("Nächster Zug: 2-mal gedrückt", True),
                                ("Rückgängig, oder Nächster Zug gehalten: noch nicht gedrückt",
                                 False)]
    assert light_words("show", "yellow") == "Lichter: gelb"
    assert light_words("blink", "purple") == "Lichter: lila, blinkend (wartet auf einen Spieler)"
    assert panel_state("none", [], False, 1.0).text.startswith("Kein Tastenfeld eingerichtet")
