"""`hardware.panel_test.run`, the body of `phoenix-companion panel-test`."""

from __future__ import annotations

import io
import threading
import time

from hardware import GPIOConfig, PanelConfig, SerialConfig
from hardware.panel_test import MISSING_DEVICE, run


def run_in_thread(config: PanelConfig, duration: float) -> tuple[threading.Thread, io.StringIO,
                                                                  list[int]]:
    out = io.StringIO()
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(run(config, duration=duration,
                                                               out=out)))
    thread.start()
    return thread, out, result


def test_serial_events_are_printed_and_the_leds_cycled(fake_device, wait):
    config = PanelConfig(kind="serial", serial=SerialConfig(port=str(fake_device.link)))
    thread, out, result = run_in_thread(config, duration=2.5)
    assert wait(lambda: "ready" in out.getvalue())
    for name in ("next_turn", "undo", "confirm", "read_dice"):
        fake_device.press(name)
    thread.join(timeout=30)
    assert result == [0]
    text = out.getvalue()
    printed = [line.split()[1] for line in text.splitlines() if "(serial)" in line]
    assert [name for name in printed if name != "panel_ready"] == \
        ["next_turn", "undo", "confirm", "read_dice"]
    assert "lights: show red" in text
    assert "LED red" in fake_device.lines()
    assert fake_device.lines()[-1] == "OFF"  # the LED is left off


def test_gpio_presses_are_printed(pin_factory, wait):
    config = PanelConfig(kind="gpio", bounce_time=0.0, gpio=GPIOConfig(leds="players"))
    thread, out, result = run_in_thread(config, duration=1.5)
    assert wait(lambda: "ready" in out.getvalue())
    pin_factory.pin(22).drive_low()
    pin_factory.pin(23).drive_low()
    thread.join(timeout=30)
    assert result == [0]
    assert "confirm" in out.getvalue() and "read_dice" in out.getvalue()
    assert "(gpio)" in out.getvalue()


def test_a_missing_serial_port_is_exit_2(tmp_path):
    out = io.StringIO()
    started = time.monotonic()
    code = run(PanelConfig(kind="serial", serial=SerialConfig(port=str(tmp_path / "ttyACM0"))),
               duration=60, out=out)
    assert code == MISSING_DEVICE
    assert "ttyACM0" in out.getvalue() and "not found" in out.getvalue()
    assert time.monotonic() - started < 60  # it gave up rather than running the full minute


def test_a_gpio_pin_that_cannot_be_used_is_exit_2(pin_factory):
    out = io.StringIO()
    code = run(PanelConfig(kind="gpio", gpio=GPIOConfig(undo=99)), duration=60, out=out)
    assert code == MISSING_DEVICE
    assert "GPIO99" in out.getvalue()


def test_no_panel_configured_is_exit_2():
    out = io.StringIO()
    assert run(PanelConfig(kind="none"), duration=1, out=out) == MISSING_DEVICE
    assert 'kind = "gpio"' in out.getvalue()
