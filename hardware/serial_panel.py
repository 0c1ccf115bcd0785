"""The USB-serial panel: a microcontroller speaking the line protocol, found by path or VID:PID,
reconnected automatically when it is unplugged and plugged back."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import serial
from serial.tools import list_ports

from companion.i18n import _
from hardware.config import SerialConfig, parse_usb_id
from hardware.events import EventHandler
from hardware.lights import Lights
from hardware.panel import PRESS_INTERVAL, Panel
from hardware.protocol import (
    ButtonPress,
    Hello,
    LineSplitter,
    ProtocolError,
    blink_command,
    game_end_command,
    hello_command,
    hold_command,
    led_command,
    off_command,
    parse_device_line,
)

log = logging.getLogger(__name__)

RETRY_INTERVAL = 0.5
HANDSHAKE_TIMEOUT = 2.0
READ_TIMEOUT = 0.1


class SerialLights(Lights):
    """The device's LED, driven with protocol commands; the last command is resent on reconnect."""

    def __init__(self, send: Callable[[str], bool]) -> None:
        super().__init__()
        self._send = send

    def command(self) -> str:
        """The protocol line that puts the device's LED in the current state."""
        state = self.state
        if state.mode == "show" and state.colour:
            return led_command(state.colour)
        if state.mode == "blink" and state.colour:
            return blink_command(state.colour)
        if state.mode == "game_end":
            return game_end_command()
        return off_command()

    def resend(self) -> None:
        """Send the current state again (after the device (re)connected)."""
        with self._lock:
            self._send(self.command())

    def _apply(self) -> None:
        self._send(self.command())


def find_port_by_usb(usb: str, ports: Iterable[Any]) -> str | None:
    """The device path of the first port whose USB VID:PID matches `usb` ("2e8a:0005")."""
    vid, pid = parse_usb_id(usb)
    matches = sorted(port.device for port in ports
                     if getattr(port, "vid", None) == vid and getattr(port, "pid", None) == pid)
    return matches[0] if matches else None


class SerialPanel(Panel):
    """A panel on a serial port: a background thread opens it (retrying every `retry_interval`
    seconds while it is missing), says HELLO, turns `BTN <name>` lines into events and logs and
    ignores anything else. Unplugging is reported as a problem, never raised."""

    kind = "serial"
    press_interval = PRESS_INTERVAL  # a burst of BTN lines acts as one press, not thousands

    def __init__(self, config: SerialConfig | None = None, *, hold_time: float = 1.0,
                 retry_interval: float = RETRY_INTERVAL,
                 handshake_timeout: float = HANDSHAKE_TIMEOUT,
                 ports: Callable[[], Sequence[Any]] = list_ports.comports,
                 when_event: EventHandler | None = None,
                 press_interval: float | None = None) -> None:
        """`press_interval`: the least time between two acting presses of one button
        (Panel.press_interval when None; 0 lets every press act)."""
        self.config = config or SerialConfig()
        where = self.config.port or f"USB {self.config.usb}"
        super().__init__(description=f"serial panel ({where})", when_event=when_event)
        if press_interval is not None:
            self.press_interval = press_interval
        self.lights: SerialLights = SerialLights(self._send)
        self.hold_time = hold_time
        self.retry_interval = retry_interval
        self.handshake_timeout = handshake_timeout
        self.device_version: str | None = None
        self.port: str | None = None
        self._ports = ports
        self._conn: serial.Serial | None = None
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        if self._find_port() is None:
            self._set_problem(self._missing_message())
        self._thread = threading.Thread(target=self._run, name="serial-panel", daemon=True)
        self._thread.start()

    @property
    def connected(self) -> bool:
        """True while the port is open (the handshake may still be pending)."""
        return self._conn is not None

    def close(self) -> None:
        """Turn the device's LED off, stop the reader thread and close the port."""
        self.lights.off()
        super().close()
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        with self._write_lock:
            conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()

    def _find_port(self) -> str | None:
        if self.config.port:
            return self.config.port if os.path.exists(self.config.port) else None
        if self.config.usb:
            try:
                return find_port_by_usb(self.config.usb, self._ports())
            except Exception:  # a listing failure is the same as no device
                log.exception("listing serial ports failed")
        return None

    def _missing_message(self) -> str:
        if self.config.port:
            return _("Serial button panel not found: no device at {port}. Is it plugged in? "
                     "Going on with touch only; the panel is picked up as soon as it "
                     "appears.").format(port=self.config.port)
        return _("Serial button panel not found: no USB serial device {usb} (a Raspberry Pi "
                 "Pico with MicroPython). Is it plugged in? Going on with touch only; the "
                 "panel is picked up as soon as it appears.").format(usb=self.config.usb)

    def _run(self) -> None:
        while not self._stop.is_set():
            port = self._find_port()
            if port is None:
                self._set_problem(self._missing_message())
                self._stop.wait(self.retry_interval)
                continue
            try:
                conn = serial.Serial(port, self.config.baudrate, timeout=READ_TIMEOUT,
                                     write_timeout=1.0)
            except Exception as error:  # a bad setting (baudrate) or driver: never the thread
                self._set_problem(_("Serial button panel on {port} cannot be opened ({error}). "
                                    "Check [panel.serial] in the config file; going on with "
                                    "touch only; retrying.").format(port=port, error=error))
                self._stop.wait(self.retry_interval)
                continue
            try:
                self._session(conn, port)
            except Exception as error:  # (SerialException, OSError, ...): touch only, retrying
                if not self._stop.is_set():
                    log.info("serial panel on %s lost: %s", port, error)
                    self._set_problem(_("Serial button panel on {port} was unplugged or "
                                        "stopped answering. Going on with touch only; waiting "
                                        "for it to come back.").format(port=port))
            finally:
                with self._write_lock:
                    self._conn = None
                conn.close()
            self._stop.wait(self.retry_interval)

    def _session(self, conn: serial.Serial, port: str) -> None:
        """Talk to one opened port until it fails or the panel is closed."""
        self.port = port
        self.device_version = None
        splitter = LineSplitter()
        with self._write_lock:
            self._conn = conn
        conn.reset_input_buffer()
        self._send(hello_command())
        next_hello = time.monotonic() + self.handshake_timeout
        while not self._stop.is_set():
            if self.device_version is None and time.monotonic() > next_hello:
                self._set_problem(_("The device on {port} does not answer HELLO. Is it "
                                    "running the Phoenix panel firmware (hardware/firmware/)?")
                                  .format(port=port))
                self._send(hello_command())
                next_hello = time.monotonic() + self.handshake_timeout
            data = conn.read(conn.in_waiting or 1)
            for line in splitter.feed(data):
                self._handle(line, port)

    def _handle(self, line: str, port: str) -> None:
        if not line.strip():
            return
        try:
            message = parse_device_line(line)
        except ProtocolError as error:
            log.warning("serial panel on %s: ignored line %r (%s)", port, line[:60], error)
            return
        if isinstance(message, Hello):
            if not message.compatible:
                self._set_problem(_("The device on {port} speaks panel protocol {version}; "
                                    "this app speaks 1. Update its firmware from "
                                    "hardware/firmware/.").format(port=port,
                                                                  version=message.version))
                return
            self.device_version = message.version
            self._send(hold_command(self.hold_time))
            self.lights.resend()
            self._set_ready(f"Serial button panel on {port} (protocol {message.version})")
        elif isinstance(message, ButtonPress):
            self._emit(message.name)

    def _send(self, line: str) -> bool:
        """Write one command line; False (logged) if no device is connected or it failed."""
        with self._write_lock:
            conn = self._conn
            if conn is None:
                return False
            try:
                conn.write(line.encode("ascii") + b"\n")
            except (serial.SerialException, OSError) as error:
                log.warning("serial panel: could not send %r: %s", line, error)
                return False
        return True
