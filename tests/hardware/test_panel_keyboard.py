"""The keyboard fallback: keys fed to it by name or Kivy key code become panel events."""

from __future__ import annotations

import pytest

from hardware import KeyboardPanel


@pytest.mark.parametrize(("key", "name"), [("spacebar", "next_turn"), (32, "next_turn"),
                                           ("u", "undo"), (117, "undo"), ("enter", "confirm"),
                                           (13, "confirm"), (271, "confirm"),
                                           ("d", "read_dice"), (100, "read_dice")])
def test_each_key_names_its_event(recorder, key, name):
    panel = KeyboardPanel()
    panel.when_event = recorder
    assert panel.key_pressed(key) is True
    assert recorder.names == [name]
    assert recorder.events[0].source == "keyboard"


def test_other_keys_are_not_consumed(recorder):
    panel = KeyboardPanel()
    panel.when_event = recorder
    assert panel.key_pressed("x") is False
    assert panel.key_pressed(120) is False
    assert recorder.names == []


def test_a_held_key_counts_once_until_released(recorder):
    panel = KeyboardPanel()
    panel.when_event = recorder
    for _ in range(5):  # the window's auto-repeat
        panel.key_pressed(32)
    panel.key_released(32)
    panel.key_pressed(32)
    assert recorder.names == ["next_turn", "next_turn"]


def test_a_custom_keymap(recorder):
    panel = KeyboardPanel({"n": "next_turn"})
    panel.when_event = recorder
    assert panel.key_pressed("N") and not panel.key_pressed("spacebar")
    assert recorder.names == ["next_turn"]
