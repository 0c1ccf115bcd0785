"""One writer per database: an exclusive `flock` on a lock file beside it.

SQLite's own locks would make a second writer wait or fail with "database is locked" in the
middle of a game. Instead the app takes `games.sqlite.lock` with `flock(LOCK_EX | LOCK_NB)` when it
opens a database for writing and writes its pid into it: a second instance is refused at once
with that pid. The kernel drops the lock when the process ends in any way (even SIGKILL or power
loss), so a stale lock file never blocks anything. The lock file is never deleted (deleting it
while another process waits on it would let two writers in).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from companion.store.errors import StoreLocked


def lock_path(database: Path) -> Path:
    """The lock file of a database: its name plus `.lock`."""
    return database.with_name(database.name + ".lock")


class WriteLock:
    """Held while a process may write to the database; `release()` or process exit frees it."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.path = lock_path(database)
        self._fd: int | None = None

    def acquire(self) -> WriteLock:
        """Take the lock now or raise StoreLocked naming the holder's pid."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_pid(fd)
            os.close(fd)
            raise StoreLocked(self.database, holder) from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd
        return self

    @property
    def held(self) -> bool:
        """True while this object holds the lock."""
        return self._fd is not None

    def release(self) -> None:
        """Give the lock up (closing the descriptor releases the flock)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
