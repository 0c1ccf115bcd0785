"""A serial panel that sends a burst (issue 28, class 8): thousands of UNDO or next-turn lines in
one write act as a press or two, not thousands; the dropped ones are counted and logged once.
A baudrate the port cannot take is a problem on the screen, never an end of the panel's
thread. Over a real pseudo-terminal; no timing is asserted (the presses are counted)."""

from __future__ import annotations

import logging

import pytest

from hardware import PANEL_PROBLEM, SerialConfig, SerialPanel
from hardware.panel import PRESS_INTERVAL

HANDFUL = 10  # presses a burst may act as, however slow the machine that reads it


@pytest.fixture
def panel(fake_device, recorder):
    panel = SerialPanel(SerialConfig(port=str(fake_device.link)), retry_interval=0.1,
                        handshake_timeout=0.5, when_event=recorder)
    yield panel
    panel.close()


@pytest.mark.parametrize("button", ["undo", "next_turn", "confirm", "read_dice"])
def test_5000_presses_in_one_write_act_as_a_handful(button, fake_device, panel, recorder, wait,
                                                     caplog):
    assert panel.press_interval == PRESS_INTERVAL > 0
    assert wait(lambda: panel.ready)
    last = "confirm" if button != "confirm" else "undo"
    with caplog.at_level(logging.WARNING, logger="hardware.panel"):
        fake_device.send(f"BTN {button}\n".encode() * 5000 + f"BTN {last}\n".encode())
        assert wait(lambda: last in recorder.names)  # every line before it has been read
    acted = recorder.names.count(button)
    assert 1 <= acted <= HANDFUL, acted
    assert panel.dropped_presses == 5000 - acted
    told = [r.getMessage() for r in caplog.records if "faster than a finger" in r.getMessage()]
    assert len(told) == 1 and button in told[0]


def test_presses_of_different_buttons_all_act(fake_device, panel, recorder, wait):
    assert wait(lambda: panel.ready)
    fake_device.send(b"BTN undo\nBTN next_turn\nBTN confirm\nBTN read_dice\n")
    assert wait(lambda: len(recorder.names) == 4)
    assert recorder.names == ["undo", "next_turn", "confirm", "read_dice"]
    assert panel.dropped_presses == 0


def test_a_baudrate_the_port_cannot_take_is_a_problem_not_a_dead_thread(fake_device, recorder,
                                                                        wait):
    panel = SerialPanel(SerialConfig(port=str(fake_device.link), baudrate=2 ** 40),
                        retry_interval=0.05, when_event=recorder)
    try:
        assert wait(lambda: recorder.status(PANEL_PROBLEM))
        assert "cannot be opened" in panel.problem and "[panel.serial]" in panel.problem
        assert panel._thread.is_alive()  # it keeps trying; nothing was raised in the thread
    finally:
        panel.close()
