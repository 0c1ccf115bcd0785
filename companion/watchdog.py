"""systemd's service notifications (sd_notify(3)) in a few lines over a socket, no library.

Under `Type=notify` the app says READY=1 once its main loop runs, and under `WatchdogSec=` it
pings (WATCHDOG=1) from a Kivy Clock callback at half the interval systemd gives in
$WATCHDOG_USEC: a main loop that hangs stops the pings, and systemd restarts the app.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping
from typing import Any

log = logging.getLogger(__name__)


class Notifier:
    """Sends notifications to the socket in $NOTIFY_SOCKET (a path, or "@name" for an abstract
    socket); without one, or for another process's watchdog, it sends nothing."""

    def __init__(self, environ: Mapping[str, str] = os.environ) -> None:
        address = environ.get("NOTIFY_SOCKET", "")
        self.address = "\0" + address[1:] if address.startswith("@") else address
        self.interval = watchdog_interval(environ)

    @property
    def enabled(self) -> bool:
        """True when systemd (or a test) listens."""
        return bool(self.address)

    def send(self, message: str) -> bool:
        """Send one notification ("READY=1"); False (and a logged warning) when it cannot be
        sent, so a vanished listener never stops the app."""
        if not self.enabled:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.sendto(message.encode(), self.address)
        except OSError as error:
            log.warning("could not notify systemd (%s): %s", message, error)
            return False
        return True


def watchdog_interval(environ: Mapping[str, str] = os.environ) -> float | None:
    """Seconds between watchdog pings: half of $WATCHDOG_USEC, when it is meant for this process
    ($WATCHDOG_PID, if set, is ours); None when there is no watchdog (a bad value is logged)."""
    usec = environ.get("WATCHDOG_USEC")
    if usec is None:
        return None
    pid = environ.get("WATCHDOG_PID")
    if pid is not None and pid != str(os.getpid()):
        return None
    if not usec.isdigit() or int(usec) == 0:
        log.warning("WATCHDOG_USEC must be a positive number of microseconds, got %r; "
                    "no watchdog pings", usec)
        return None
    return int(usec) / 2_000_000


def start(clock: Any, notifier: Notifier | None = None) -> Notifier:
    """Say READY=1 on the main loop's first frame and then ping the watchdog from it (`clock`
    is Kivy's Clock); returns the notifier, for `stop`."""
    notifier = notifier or Notifier()
    if not notifier.enabled:
        return notifier

    def ping(_dt: float) -> None:
        notifier.send("WATCHDOG=1")

    def ready(_dt: float) -> None:
        notifier.send("READY=1")
        if notifier.interval is not None:
            log.info("watchdog: pinging systemd every %.1f s", notifier.interval)
            clock.schedule_interval(ping, notifier.interval)

    clock.schedule_once(ready, 0)
    return notifier


def stop(notifier: Notifier) -> None:
    """Tell systemd the app is stopping on purpose."""
    notifier.send("STOPPING=1")
