"""What can go wrong with a game database, each in words a player can act on.

Every error is a ValueError (the command line prints the message and exits with code 2).
"""

from __future__ import annotations

from pathlib import Path

from companion.i18n import _


class StoreError(ValueError):
    """A game database that cannot be used as asked; the message says why and what to do."""


class StoreLocked(StoreError):
    """The database is already open for writing in another Phoenix Companion."""

    def __init__(self, path: Path, pid: int | None) -> None:
        self.path = path
        self.pid = pid
        text = (_("{path}: already open in another Phoenix Companion (pid {pid}); close it "
                  "first, or choose another database with --db") if pid else
                _("{path}: already open in another Phoenix Companion; close it first, or choose "
                  "another database with --db"))
        super().__init__(text.format(path=path, pid=pid))


class NoDatabase(StoreError):
    """There is no database at the path (and it was not to be created)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        super().__init__(_("{path}: no game database here (replay or import a game to create "
                           "one)").format(path=path))


class UnusableDatabase(StoreError):
    """A file the store will not touch: not ours, too new, or damaged. It is left unmodified."""

    def __init__(self, path: Path, problem: str) -> None:
        self.path = path
        self.problem = problem = " ".join(problem.split())  # one line (SQLite's may be several)
        super().__init__(_("{path}: {problem}. The file was not modified; Phoenix Companion can "
                           "keep it aside (renamed with a timestamp) and start a fresh "
                           "database").format(path=path, problem=problem))


class NotADatabase(UnusableDatabase):
    """The file is not a Phoenix Companion database (another file, or another app's SQLite)."""


class NewerSchema(UnusableDatabase):
    """The database was written by a newer Phoenix Companion."""


class DamagedDatabase(UnusableDatabase):
    """The database is truncated or corrupt."""


def read_only_problem(path: Path, reason: str | None) -> str:
    """The message for a database (or its folder) that cannot be written: what to do."""
    folder = path.parent if str(path.parent) else Path(".")
    return _("{path}: cannot write here ({reason}): the folder {folder} or the file is "
             "read-only. The games in it are not damaged and can still be listed, shown and "
             "exported; to play on, make the folder and file writable (chmod u+w) or copy the "
             "database to a writable folder and use --db").format(
                 path=path, reason=reason or _("read-only"), folder=folder)


def hard_link_problem(path: Path, what: str) -> str:
    """The message for a database (or a file SQLite writes beside it) that has another name."""
    return _("{path}: the {what} has another name (a hard link to the same file); SQLite keeps "
             "its -wal file by name, so a game stored through one name can be lost through the "
             "other. Nothing was written. Make it a file of its own: copy it (cp "
             "--no-preserve=links {path} NEW.sqlite) and use the copy with --db, or export each "
             "game and import it into a new database").format(path=path, what=what)


def link_problem(path: Path, what: str) -> str:
    """The message for a symbolic link, device, FIFO or folder where SQLite writes a file."""
    return _("{path}: the {what} is not a regular file of its own (a link, a folder, a device "
             "or a FIFO); SQLite would write through it. Nothing was written; remove it (the "
             "database does not need it while no app has it open)").format(path=path, what=what)


class UnknownGame(StoreError):
    """No game with that id in the database."""

    def __init__(self, game_id: object, path: Path) -> None:
        self.game_id = game_id
        super().__init__(_("{path}: no game {id} (see `phoenix-companion games`)").format(
            path=path, id=game_id))


class RecordError(StoreError):
    """A game record (export file) that cannot be imported."""
