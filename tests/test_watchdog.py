"""systemd notifications (companion.watchdog): READY=1 and watchdog pings over an AF_UNIX datagram
socket the test listens on, from the notifier itself and from the real app under Xvfb, whose
pings stop while its main loop is blocked."""

from __future__ import annotations

import itertools
import logging
import os
import socket
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.watchdog import Notifier, watchdog_interval

DRIVER = "../deploy/drive_watchdog.py"  # run by run_ui_driver from tests/ui/
PING_USEC = 200_000  # WatchdogSec=0.2 s: a ping every 0.1 s


class Listener:
    """A datagram socket like systemd's notify socket, recording (time, message) it receives."""

    def __init__(self, address: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(address)
        self.sock.settimeout(0.1)
        self.received: list[tuple[float, str]] = []
        self._running = True
        self._thread = threading.Thread(target=self._receive, daemon=True)
        self._thread.start()

    def _receive(self) -> None:
        while self._running:
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                continue
            self.received.append((time.time(), data.decode()))

    def close(self) -> list[tuple[float, str]]:
        """Stop listening; everything received."""
        self._running = False
        self._thread.join(timeout=5)
        self.sock.close()
        return self.received

    def messages(self) -> list[str]:
        return [message for _, message in self.received]


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[Listener]:
    listening = Listener(str(tmp_path / "notify"))
    yield listening
    listening.close()


def wait_for(listener: Listener, count: int) -> list[str]:
    deadline = time.monotonic() + 5
    while len(listener.received) < count and time.monotonic() < deadline:
        time.sleep(0.01)
    return listener.messages()


def test_notifications_reach_the_socket_in_notify_socket(tmp_path, listener):
    notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "notify")})
    assert notifier.send("READY=1") and notifier.send("WATCHDOG=1")
    assert wait_for(listener, 2) == ["READY=1", "WATCHDOG=1"]


def test_an_abstract_socket_is_named_with_an_at_sign():
    name = f"phoenix-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        assert Notifier({"NOTIFY_SOCKET": "@" + name}).send("READY=1")
        assert sock.recv(100) == b"READY=1"


def test_without_notify_socket_nothing_is_sent():
    notifier = Notifier({})
    assert not notifier.enabled and not notifier.send("READY=1")


def test_a_vanished_listener_is_logged_not_raised(tmp_path, caplog):
    with caplog.at_level(logging.WARNING):
        assert not Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone")}).send("WATCHDOG=1")
    assert "could not notify systemd (WATCHDOG=1)" in caplog.text


def test_the_ping_interval_is_half_of_watchdog_usec(caplog):
    assert watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}) \
        == 15.0
    assert watchdog_interval({}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None
    with caplog.at_level(logging.WARNING):
        assert watchdog_interval({"WATCHDOG_USEC": "soon"}) is None
    assert "WATCHDOG_USEC must be a positive number of microseconds, got 'soon'" in caplog.text


def run_app(run_ui_driver, tmp_path: Path, scenario: str) -> tuple[dict, list[tuple[float, str]]]:
    """The real app under Xvfb with systemd's variables: what it did and what it sent."""
    address = str(tmp_path / f"notify-{scenario}")
    listening = Listener(address)
    try:
        result = run_ui_driver(DRIVER, scenario, extra_env={
            "NOTIFY_SOCKET": address, "WATCHDOG_USEC": str(PING_USEC)}, timeout=120)
    finally:
        received = listening.close()
    return result, received


def ping_times(received: list[tuple[float, str]]) -> list[float]:
    return [at for at, message in received if message == "WATCHDOG=1"]


def test_the_app_says_ready_pings_and_says_stopping(run_ui_driver, tmp_path):
    _, received = run_app(run_ui_driver, tmp_path, "steady")
    messages = [message for _, message in received]
    assert messages[0] == "READY=1" and messages[-1] == "STOPPING=1"
    pings = ping_times(received)
    assert len(pings) >= 10  # two seconds at one ping every 0.1 s
    gaps = [b - a for a, b in itertools.pairwise(pings)]
    assert 0.05 < statistics.median(gaps) < 0.3 and max(gaps) < 1.0


def test_a_blocked_main_loop_stops_the_pings(run_ui_driver, tmp_path):
    result, received = run_app(run_ui_driver, tmp_path, "blocked")
    start, end = result["blocked"]
    pings = ping_times(received)
    during = [at for at in pings if start + 0.05 < at < end - 0.05]
    assert during == []  # systemd would have restarted the app after WatchdogSec
    assert len([at for at in pings if at < start]) >= 3
    assert len([at for at in pings if at > end]) >= 3
