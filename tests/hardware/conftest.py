"""Fixtures for the panel tests: a mock GPIO pin factory, an event recorder, a fake serial device
on a real pseudo-terminal."""

from __future__ import annotations

import os
import select
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

TIMEOUT = 10.0


def wait_until(predicate: Callable[[], object], timeout: float = TIMEOUT) -> bool:
    """Poll `predicate` until it is true or `timeout` seconds pass; returns its last truth."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return bool(predicate())


class Recorder:
    """A panel subscriber that keeps every event it is given, with the thread it came on."""

    def __init__(self) -> None:
        self.events: list = []
        self.threads: list[str] = []
        self._lock = threading.Lock()

    def __call__(self, event) -> None:
        with self._lock:
            self.events.append(event)
            self.threads.append(threading.current_thread().name)

    @property
    def names(self) -> list[str]:
        """Names of the button events so far (status events left out)."""
        with self._lock:
            return [event.name for event in self.events if event.is_button]

    def status(self, name: str) -> list:
        """Status events of this name (panel_problem / panel_ready) so far."""
        with self._lock:
            return [event for event in self.events if event.name == name]


class FakeDevice:
    """A panel microcontroller at the far end of a real pseudo-terminal, speaking the protocol.

    The host is given `link`, a symlink to the pty's slave side; `vanish()` closes the pty and
    removes the link (the board is unplugged), `come_back()` makes a fresh pty behind it.
    """

    def __init__(self, link: Path, *, version: str = "1", answer_hello: bool = True) -> None:
        self.link = link
        self.version = version
        self.answer_hello = answer_hello
        self.received: list[str] = []
        self.hellos_answered = 0
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.come_back()

    def come_back(self) -> None:
        """Plug the board (back) in: a new pty pair, the link pointing at its slave side."""
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        if self.link.is_symlink() or self.link.exists():
            self.link.unlink()
        self.link.symlink_to(os.ttyname(self.slave))
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, args=(self.master, self._stop),
                                        name="fake-device", daemon=True)
        self._thread.start()

    def vanish(self) -> None:
        """Unplug the board: the link disappears and the pty is closed under the host."""
        self.link.unlink()
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        os.close(self.master)
        os.close(self.slave)

    def close(self) -> None:
        """Unplug for good (the end of a test)."""
        if not self._stop.is_set():
            self.vanish()

    def send(self, data: str | bytes) -> None:
        """Write a line (a newline is added to text) or raw bytes towards the host."""
        raw = (data + "\n").encode() if isinstance(data, str) else data
        while raw:
            written = os.write(self.master, raw)
            raw = raw[written:]

    def press(self, name: str) -> None:
        """The firmware reports a (debounced) press of button `name`."""
        self.send(f"BTN {name}")

    def lines(self) -> list[str]:
        """Every line the host has sent so far."""
        with self._lock:
            return list(self.received)

    def _read(self, master: int, stop: threading.Event) -> None:
        buffer = b""
        while not stop.is_set():
            ready, _, _ = select.select([master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(master, 4096)
            except OSError:
                return
            buffer += data
            while b"\n" in buffer:
                raw, buffer = buffer.split(b"\n", 1)
                line = raw.decode(errors="replace").strip()
                with self._lock:
                    self.received.append(line)
                if line == "HELLO" and self.answer_hello:
                    self.hellos_answered += 1
                    self.send(f"HELLO {self.version}")


@pytest.fixture
def recorder() -> Recorder:
    """A fresh event recorder."""
    return Recorder()


@pytest.fixture
def pin_factory() -> Iterator[MockFactory]:
    """gpiozero's mock pin factory (with PWM pins for the RGB LED), also set as the default."""
    previous = Device.pin_factory
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = previous


@pytest.fixture
def fake_device(tmp_path: Path) -> Iterator[FakeDevice]:
    """A fake panel board on a real pty, reachable at tmp_path/"panel" (a symlink)."""
    device = FakeDevice(tmp_path / "panel")
    yield device
    device.close()


@pytest.fixture
def wait() -> Callable[..., bool]:
    """`wait(predicate, timeout=10)`: poll until true (a generous time-out, not a timing test)."""
    return wait_until


@pytest.fixture
def make_device() -> Iterator[Callable[..., FakeDevice]]:
    """`make_device(link, version="1", answer_hello=True)`: more fake boards, closed at the end."""
    made: list[FakeDevice] = []

    def make(link: Path, **options: object) -> FakeDevice:
        device = FakeDevice(link, **options)  # type: ignore[arg-type]
        made.append(device)
        return device

    yield make
    for device in made:
        device.close()
