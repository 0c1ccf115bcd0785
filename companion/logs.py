"""The app's log: one handler on stderr, which is the journal when systemd runs the app.

Under systemd (stderr is the stream named by $JOURNAL_STREAM) each line starts with its syslog
priority (`<4>` for a warning), so `journalctl -p warning` finds them, and carries no time (the
journal stamps every line); elsewhere a line starts with the time.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from typing import TextIO

LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING,
          "error": logging.ERROR}
TERMINAL_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
JOURNAL_FORMAT = "<%(priority)d>%(levelname)s %(name)s: %(message)s"
# Python's levels -> syslog priorities (sd-daemon(3): "<3>" error, "<4>" warning, ...)
PRIORITIES = ((logging.ERROR, 3), (logging.WARNING, 4), (logging.INFO, 6))
DEBUG_PRIORITY = 7


class JournalFormatter(logging.Formatter):
    """A line the journal reads its priority from."""

    def format(self, record: logging.LogRecord) -> str:
        record.priority = next((priority for level, priority in PRIORITIES
                                if record.levelno >= level), DEBUG_PRIORITY)
        return super().format(record)


def to_journal(stream: TextIO, environ: Mapping[str, str] = os.environ) -> bool:
    """True when `stream` is the journal's stream systemd gave this process ($JOURNAL_STREAM is
    "DEVICE:INODE" of it)."""
    device, _, inode = environ.get("JOURNAL_STREAM", "").partition(":")
    try:
        status = os.fstat(stream.fileno())
        return (status.st_dev, status.st_ino) == (int(device), int(inode))
    except (ValueError, OSError, AttributeError):
        return False


def setup_logging(level: str, stream: TextIO | None = None) -> logging.Handler:
    """Log records at `level` (a LEVELS name) and above to `stream` (default stderr) from the
    root logger, replacing the handler an earlier call installed; returns the handler."""
    stream = stream or sys.stderr
    handler = logging.StreamHandler(stream)
    handler.set_name("phoenix-companion")
    if to_journal(stream):
        handler.setFormatter(JournalFormatter(JOURNAL_FORMAT))
    else:
        handler.setFormatter(logging.Formatter(TERMINAL_FORMAT))
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == handler.get_name()]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(LEVELS[level])
    return handler
