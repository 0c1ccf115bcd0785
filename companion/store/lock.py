"""One writer per database, whatever the path it is reached by.

SQLite's own locks would make a second writer wait or fail with "database is locked" in the
middle of a game. Instead the app takes two `flock(LOCK_EX | LOCK_NB)` locks when it opens a
database for writing:

- on `games.sqlite.lock`, a file beside the database's real path (symbolic links resolved),
  holding the writer's pid for the message a second instance shows; it also guards creating
  the database;
- on the database file itself, so that two paths to the same file (a symbolic link) can never
  both write. A database or lock file with another name (a hard link) is refused outright:
  SQLite names its -wal after the path, so a game stored through one name could be lost.

A second instance is refused at once. The kernel drops both locks when the process ends in any
way (even SIGKILL or power loss), so a stale lock file never blocks anything. The lock file is
opened with O_NOFOLLOW, must be a regular file of its own (a link, a folder or a hard-linked
file there is refused, never written through), is created 0600, and is never deleted (deleting
it while another process waits on it would let two writers in).
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
from pathlib import Path

from companion.files import make_private_folder
from companion.i18n import _
from companion.store.errors import (
    StoreError,
    StoreLocked,
    hard_link_problem,
    read_only_problem,
)


def lock_path(database: Path) -> Path:
    """The lock file of a database: its name plus `.lock`."""
    return database.with_name(database.name + ".lock")


def _open_regular(path: Path, flags: int, what: str) -> int:
    """A descriptor on the regular file at `path` (never through a symbolic link, never
    blocking on a FIFO), or StoreError saying what is there instead."""
    try:
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o600)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise StoreError(_("{path}: the {what} is a symbolic link; Phoenix Companion does "
                               "not write through links (remove the link)").format(
                                   path=path, what=what)) from None
        if error.errno == errno.EISDIR:
            raise StoreError(_("{path}: the {what} is a folder; remove or rename it").format(
                path=path, what=what)) from None
        if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise StoreError(read_only_problem(path, error.strerror)) from None
        raise StoreError(_("{path}: cannot open the {what} ({error})").format(
            path=path, what=what, error=error.strerror)) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise StoreError(_("{path}: the {what} is not a regular file; remove it").format(
            path=path, what=what))
    if info.st_nlink > 1:  # writing it would change the other name's file too
        os.close(fd)
        raise StoreError(hard_link_problem(path, what))
    return fd


class WriteLock:
    """Held while a process may write to the database; `release()` or process exit frees it."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.path = lock_path(database)
        self._fd: int | None = None
        self._file_fd: int | None = None

    def acquire(self) -> WriteLock:
        """Take the lock file now, and the database file when it exists (`lock_file()` takes it
        after creating the database), or raise StoreLocked naming the holder's pid."""
        make_private_folder(self.path.parent)
        fd = _open_regular(self.path, os.O_RDWR | os.O_CREAT, _("lock file"))
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_pid(fd)
            os.close(fd)
            raise StoreLocked(self.database, holder) from None
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        try:
            if os.path.lexists(self.database):
                self.lock_file()
        except BaseException:
            self.release()
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return self

    def lock_file(self) -> None:
        """Lock the database file itself (a hard or symbolic link to it is then locked too)."""
        fd = _open_regular(self.database, os.O_RDONLY, _("database"))
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise StoreLocked(self.database, None) from None
        self._file_fd = fd

    @property
    def held(self) -> bool:
        """True while this object holds the lock."""
        return self._fd is not None

    def release(self) -> None:
        """Give the locks up (closing the descriptors releases the flocks)."""
        for fd in (self._file_fd, self._fd):
            if fd is not None:
                os.close(fd)
        self._fd = self._file_fd = None


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() and len(text) < 10 else None
