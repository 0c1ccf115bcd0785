"""The Pico firmware's logic (hardware/firmware/phoenix_panel.py) run on CPython: its buttons,
its commands, and a whole conversation with the host's SerialPanel over a real pty."""

from __future__ import annotations

import importlib.util
import os
import select
import threading
import tty
from pathlib import Path

import pytest

from hardware import SerialConfig, SerialPanel
from hardware.colours import NAMED_COLOURS, RAINBOW

FIRMWARE = Path(__file__).parents[2] / "hardware" / "firmware"


def load_firmware():
    spec = importlib.util.spec_from_file_location("phoenix_panel", FIRMWARE / "phoenix_panel.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fw = load_firmware()


def run_buttons(firmware, timeline):
    """Feed (ms, {button: pressed}) samples; every BTN line sent, in order."""
    sent = []
    for now, levels in timeline:
        sent += firmware.poll(levels, now)
    return sent


def test_firmware_colours_match_the_host():
    assert fw.COLOURS == NAMED_COLOURS
    assert tuple(fw.COLOURS[name] for name in fw.RAINBOW) == RAINBOW


def test_hello_is_answered_with_the_protocol_version():
    firmware = fw.PanelFirmware()
    assert firmware.hello() == "HELLO 1"
    assert firmware.handle_line("HELLO\r") == ["HELLO 1"]


def test_a_bouncing_press_sends_one_btn_line():
    firmware = fw.PanelFirmware()
    bouncy = [(100, True), (102, False), (104, True), (106, False), (108, True)]
    timeline = [(t, {"confirm": level}) for t, level in bouncy]
    timeline += [(t, {"confirm": True}) for t in range(110, 300, 5)]
    timeline += [(300, {"confirm": False}), (302, {"confirm": True}), (304, {"confirm": False})]
    timeline += [(t, {"confirm": False}) for t in range(305, 500, 5)]
    assert run_buttons(firmware, timeline) == ["BTN confirm"]


def test_next_turn_short_and_long_presses():
    firmware = fw.PanelFirmware()
    short = [(t, {"next_turn": 100 <= t < 400}) for t in range(0, 600, 5)]
    assert run_buttons(firmware, short) == ["BTN next_turn"]
    long = [(t, {"next_turn": 1000 <= t < 2500}) for t in range(600, 3000, 5)]
    assert run_buttons(firmware, long) == ["BTN undo"]  # and not next_turn on release


def test_hold_time_is_set_by_the_host():
    firmware = fw.PanelFirmware()
    firmware.handle_line("HOLD 0.3")
    press = [(t, {"next_turn": 100 <= t < 600}) for t in range(0, 800, 5)]
    assert run_buttons(firmware, press) == ["BTN undo"]
    firmware.handle_line("HOLD nonsense")
    assert firmware.hold_ms == 300


def test_led_commands():
    firmware = fw.PanelFirmware()
    firmware.handle_line("LED red")
    assert firmware.led(0) == (1.0, 0.0, 0.0)
    firmware.handle_line("LED #0000ff")
    assert firmware.led(0) == (0.0, 0.0, 1.0)
    firmware.now = 1000
    firmware.handle_line("BLINK green")
    assert firmware.led(1000) == (0.0, 1.0, 0.0)
    assert firmware.led(1000 + fw.BLINK_MS) == (0.0, 0.0, 0.0)
    firmware.handle_line("PATTERN END")
    assert len({firmware.led(1000 + i * fw.PATTERN_MS) for i in range(7)}) == 7
    firmware.handle_line("LED mauve")  # unknown colour: ignored
    firmware.handle_line("DANCE")
    assert firmware.mode == "game_end"
    firmware.handle_line("OFF")
    assert firmware.led(5000) == (0.0, 0.0, 0.0)


class FirmwareOnPty:
    """The firmware logic behind a real pty, as the Pico is behind /dev/ttyACM0."""

    def __init__(self, link: Path) -> None:
        self.firmware = fw.PanelFirmware()
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        link.symlink_to(os.ttyname(self.slave))
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        os.write(self.master, (self.firmware.hello() + "\r\n").encode())
        self.thread.start()

    def press(self, name: str, hold_ms: int = 100) -> None:
        """Simulate a press of `hold_ms` sampled every 5 ms (time is simulated, not waited)."""
        start = self.firmware.now + 1000
        with self.lock:
            for t in range(start, start + hold_ms + 200, 5):
                for line in self.firmware.poll({name: t < start + hold_ms}, t):
                    os.write(self.master, (line + "\r\n").encode())

    def _serve(self) -> None:
        buffer = b""
        while not self.stop.is_set():
            if not select.select([self.master], [], [], 0.05)[0]:
                continue
            buffer += os.read(self.master, 1024)
            while b"\n" in buffer:
                raw, buffer = buffer.split(b"\n", 1)
                with self.lock:
                    for reply in self.firmware.handle_line(raw.decode()):
                        os.write(self.master, (reply + "\r\n").encode())

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def pico(tmp_path):
    device = FirmwareOnPty(tmp_path / "ttyACM0")
    yield device
    device.close()


def test_the_firmware_and_the_host_agree(pico, tmp_path, recorder, wait):
    panel = SerialPanel(SerialConfig(port=str(tmp_path / "ttyACM0")), hold_time=0.5,
                        when_event=recorder)
    try:
        assert wait(lambda: panel.ready)
        assert wait(lambda: pico.firmware.hold_ms == 500)
        panel.lights.blink("yellow")
        assert wait(lambda: pico.firmware.mode == "blink")
        assert pico.firmware.colour == NAMED_COLOURS["yellow"]
        pico.press("next_turn", hold_ms=100)
        pico.press("next_turn", hold_ms=800)
        pico.press("read_dice")
        assert wait(lambda: len(recorder.names) == 3)
        assert recorder.names == ["next_turn", "undo", "read_dice"]
        panel.lights.game_end()
        assert wait(lambda: pico.firmware.mode == "game_end")
    finally:
        panel.close()
    assert wait(lambda: pico.firmware.mode == "off")  # closing the panel turns the LED off
