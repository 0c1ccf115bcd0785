"""The USB-serial panel over a real pseudo-terminal, against a fake device speaking the protocol."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from serial.tools.list_ports_common import ListPortInfo

from hardware import PANEL_PROBLEM, PANEL_READY, SerialConfig, SerialPanel
from hardware.protocol import LineSplitter, ProtocolError, parse_device_line
from hardware.serial_panel import find_port_by_usb

NAMES = ("next_turn", "undo", "confirm", "read_dice")


@pytest.fixture
def panel(fake_device, recorder):
    """A serial panel configured with the fake device's path, recording its events (every
    press acts: the limit on bursts is tested in test_panel_burst.py)."""
    panel = SerialPanel(SerialConfig(port=str(fake_device.link)), hold_time=0.8,
                        retry_interval=0.1, handshake_timeout=0.5, when_event=recorder,
                        press_interval=0)
    yield panel
    panel.close()


def test_handshake_then_a_press_becomes_an_event(fake_device, panel, recorder, wait):
    assert wait(lambda: panel.ready)
    assert fake_device.lines()[0] == "HELLO"
    assert panel.device_version == "1"
    assert panel.problem is None
    assert [e.name for e in recorder.events] == [PANEL_READY]
    assert "HOLD 0.8" in fake_device.lines()

    fake_device.press("read_dice")
    assert wait(lambda: recorder.names == ["read_dice"])
    event = recorder.events[-1]
    assert event.source == "serial" and event.timestamp > 0


def test_a_thousand_presses_arrive_once_each_and_in_order(fake_device, panel, recorder, wait):
    assert wait(lambda: panel.ready)
    sent = [NAMES[i % 4] for i in range(1000)]
    writer = threading.Thread(target=lambda: [fake_device.press(name) for name in sent])
    writer.start()
    writer.join()
    fake_device.press("undo")  # a last press: anything doubled would arrive before it
    assert wait(lambda: len(recorder.names) >= 1001)
    assert recorder.names == [*sent, "undo"]
    assert all(thread == "serial-panel" for thread in recorder.threads)


def test_garbage_is_logged_and_ignored(fake_device, panel, recorder, wait, caplog):
    assert wait(lambda: panel.ready)
    fake_device.press("confirm")
    for junk in ["BTN", "BTN self_destruct", "HELLO", "PING 3", "btn confirm", "\x00\x01\x02",
                 "x" * 500, "BTN next_turn extra words"]:
        fake_device.send(junk)
    fake_device.send(b"\xff\xfe\xc3\x28 broken utf-8\r\n")
    fake_device.send(b"BTN und")  # a line cut in two reads is joined, not garbage
    fake_device.send(b"o\r\n")
    fake_device.press("next_turn")
    assert wait(lambda: len(recorder.names) >= 3)
    assert recorder.names == ["confirm", "undo", "next_turn"]
    assert panel.ready and panel.problem is None
    assert "self_destruct" in caplog.text and "PING" in caplog.text


def test_unplugged_device_is_reported_and_picked_up_again(fake_device, panel, recorder, wait):
    assert wait(lambda: panel.ready)
    panel.lights.blink("purple")
    assert wait(lambda: "BLINK purple" in fake_device.lines())
    fake_device.press("next_turn")
    assert wait(lambda: recorder.names == ["next_turn"])

    fake_device.vanish()
    assert wait(lambda: recorder.status(PANEL_PROBLEM))
    assert not panel.ready
    assert "unplugged" in panel.problem or "not found" in panel.problem

    fake_device.come_back()
    assert wait(lambda: panel.ready)
    assert panel.problem is None
    assert len(recorder.status(PANEL_READY)) == 2
    # The lights are put back as they were, and presses flow again.
    assert wait(lambda: "BLINK purple" in fake_device.lines())
    fake_device.press("confirm")
    assert wait(lambda: recorder.names == ["next_turn", "confirm"])


def test_lights_commands_follow_the_active_player(fake_device, panel, wait):
    assert wait(lambda: panel.ready)
    panel.lights.show("red")
    panel.lights.show("#102030")
    panel.lights.blink("green")
    panel.lights.game_end()
    panel.lights.off()
    expected = ["LED red", "LED #102030", "BLINK green", "PATTERN END", "OFF"]
    assert wait(lambda: fake_device.lines()[-5:] == expected)


def test_a_missing_port_is_a_problem_not_an_error(tmp_path, recorder, wait):
    path = tmp_path / "ttyACM9"
    panel = SerialPanel(SerialConfig(port=str(path)), retry_interval=0.1)
    try:
        assert panel.problem is not None
        assert str(path) in panel.problem and "touch only" in panel.problem
        assert not panel.ready
        panel.lights.show("red")  # nothing to send to: not an error
    finally:
        panel.close()


def test_a_missing_port_that_appears_later_is_picked_up(tmp_path, recorder, wait, make_device):
    link = tmp_path / "late"
    panel = SerialPanel(SerialConfig(port=str(link)), retry_interval=0.1, when_event=recorder)
    try:
        assert panel.problem is not None
        device = make_device(link)
        assert wait(lambda: panel.ready)
        device.press("undo")
        assert wait(lambda: recorder.names == ["undo"])
    finally:
        panel.close()


def test_a_device_that_never_says_hello_is_reported(tmp_path, wait, make_device):
    device = make_device(tmp_path / "mute", answer_hello=False)
    panel = SerialPanel(SerialConfig(port=str(device.link)), handshake_timeout=0.2)
    try:
        assert wait(lambda: panel.problem is not None and "HELLO" in panel.problem)
        assert not panel.ready
        assert wait(lambda: device.lines().count("HELLO") >= 2)  # it keeps asking
    finally:
        panel.close()


def test_an_incompatible_protocol_version_is_reported(tmp_path, wait, make_device):
    device = make_device(tmp_path / "future", version="2.0")
    panel = SerialPanel(SerialConfig(port=str(device.link)))
    try:
        assert wait(lambda: panel.problem is not None and "protocol 2.0" in panel.problem)
        assert not panel.ready
    finally:
        panel.close()


def _port(device: str, vid: int | None, pid: int | None) -> ListPortInfo:
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid = vid, pid
    return info


def test_port_is_found_by_usb_vid_pid():
    ports = [_port("/dev/ttyS0", None, None), _port("/dev/ttyACM1", 0x2E8A, 0x0005),
             _port("/dev/ttyACM0", 0x2E8A, 0x0005), _port("/dev/ttyUSB0", 0x1A86, 0x7523)]
    assert find_port_by_usb("2e8a:0005", ports) == "/dev/ttyACM0"
    assert find_port_by_usb("1a86:7523", ports) == "/dev/ttyUSB0"
    assert find_port_by_usb("2e8a:000a", ports) is None


def test_usb_panel_is_opened_through_the_port_listing(fake_device, recorder, wait):
    ports = [_port(str(fake_device.link), 0x2E8A, 0x0005)]
    panel = SerialPanel(SerialConfig(usb="2e8a:0005"), ports=lambda: ports, retry_interval=0.1,
                        when_event=recorder)
    try:
        assert wait(lambda: panel.ready)
        assert panel.port == str(fake_device.link)
        fake_device.press("confirm")
        assert wait(lambda: recorder.names == ["confirm"])
    finally:
        panel.close()


@pytest.mark.parametrize("line", ["", "BTN", "BTN jump", "HELLO", "HELLO 1 2", "LED red",
                                  "BTN confirm\x07", "é"])
def test_garbled_device_lines_are_protocol_errors(line):
    with pytest.raises(ProtocolError):
        parse_device_line(line)


def test_device_lines_are_parsed():
    assert parse_device_line("BTN next_turn\r").name == "next_turn"
    assert parse_device_line("  BTN READ_DICE ").name == "read_dice"
    hello = parse_device_line("HELLO 1.2")
    assert hello.version == "1.2" and hello.compatible


@settings(max_examples=200, deadline=None)
@given(names=st.lists(st.sampled_from(NAMES), max_size=30),
       cuts=st.lists(st.integers(min_value=0, max_value=600), max_size=10),
       crlf=st.booleans())
def test_lines_survive_any_split_into_reads(names, cuts, crlf):
    ending = b"\r\n" if crlf else b"\n"
    stream = b"".join(f"BTN {name}".encode() + ending for name in names)
    splitter = LineSplitter()
    lines = []
    start = 0
    for cut in [*sorted(c for c in cuts if c <= len(stream)), len(stream)]:
        lines += splitter.feed(stream[start:cut])
        start = cut
    assert [parse_device_line(line).name for line in lines] == names
