"""The game database: many games in one SQLite file, each an append-only log of confirmed steps.

    store = Store.open()                   # the user's data folder, or Store.open(path)
    played = store.resume() or store.new_game()
    played.execute({"cmd": "end_turn"})    # returns only after the step is committed
    played.undo(); played.redo()
    store.close()

Durability: WAL journal, `synchronous=FULL`, one transaction per confirmed command (its events,
its inverse ops, the journal line, a snapshot when one is due, the game list's row), so a power
cut leaves either all of a command or none of it. Only this package touches SQLite.
"""

from __future__ import annotations

import copy
import json
import os
import sqlite3
import stat
import urllib.parse
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from companion import paths
from companion.catalogue_files import read_overlay, set_user_value, shipped_data
from companion.files import JsonFileError, file_kind, load_json, make_private_folder
from companion.i18n import _
from companion.rules.catalogue import Catalogue, CatalogueError, Overlay, build_catalogue
from companion.rules.game import Game, Step, remembered
from companion.rules.report import final_score
from companion.rules.state import State, apply_ops, new_state
from companion.store import schema
from companion.store.errors import (
    DamagedDatabase,
    NewerSchema,
    NoDatabase,
    NotADatabase,
    StoreError,
    UnknownGame,
    hard_link_problem,
    link_problem,
    read_only_problem,
)
from companion.store.lock import WriteLock
from companion.text import name_problem

SQLITE_HEADER = b"SQLite format 3\x00"
DEFAULT_SNAPSHOT_EVERY = 100
"""A snapshot of the state is written once this many events have been logged since the last."""

MAX_NOTE = 10_000
"""The longest text one command may carry (a note, an override's reason), in characters."""
MAX_GAME_TEXT = 2_000_000
"""The most characters of commands (notes included, as stored JSON) one game may hold; the
1,138-command long game holds about 56,000."""
EARLIEST = datetime(2020, 1, 1, tzinfo=UTC)
"""No time stored or imported is earlier than this (the app did not exist)."""
CLOCK_SKEW = timedelta(days=1)
"""How far after now a time may be (another device's clock may be a little ahead)."""

_CATALOGUES: dict[str, Catalogue] = {}  # by overlay values; catalogues are read-only


def default_db_path() -> Path:
    """The user's game database: games.sqlite in the data folder."""
    return paths.data_folder() / "games.sqlite"


def timestamp() -> str:
    """Now, as ISO 8601 UTC with milliseconds (the time stored with each command)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def dumps(value: Any) -> str:
    """Compact JSON, as stored in the database."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _sidecars(path: Path) -> tuple[Path, Path]:
    return path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")


def check_sidecars(path: Path) -> None:
    """StoreError unless each file SQLite writes beside the database by name (its `-wal`,
    `-shm` and `-journal`) is missing or a regular file of its own: SQLite would write through
    a symbolic link or a hard link there into another file, or block on a FIFO."""
    for sidecar in (*_sidecars(path), path.with_name(path.name + "-journal")):
        try:
            info = os.lstat(sidecar)
        except FileNotFoundError:
            continue
        except OSError as error:
            raise StoreError(_("{path}: cannot use it ({error})").format(
                path=sidecar, error=error.strerror)) from None
        what = sidecar.name.rsplit("-", 1)[-1]
        if not stat.S_ISREG(info.st_mode):
            raise StoreError(link_problem(sidecar, _("-{kind} file").format(kind=what)))
        if info.st_nlink > 1:
            raise StoreError(hard_link_problem(sidecar, _("-{kind} file").format(kind=what)))


def refuse_link(path: Path | str) -> None:
    """StoreError when `path` is a symbolic link: keeping a database aside renames files and
    leaves a lock in the folder they are in, which must be the folder given."""
    path = Path(path)
    if path.is_symlink():
        raise StoreError(_("{path}: a symbolic link to {target}; a database is kept aside "
                           "(renamed) only when given by its own path: use --db {target} if "
                           "that is the one meant").format(path=path,
                                                          target=os.path.realpath(path)))


def sidecar_warning(path: Path) -> str | None:
    """A warning when the database's -shm file is there without its -wal: the -wal was
    probably deleted by hand, and the steps committed since the last checkpoint with it."""
    wal, shm = _sidecars(Path(path))
    if shm.exists() and not wal.exists():
        return _("{shm} exists without {wal}: if {wal} was deleted by hand, the steps committed "
                 "since the last checkpoint are lost (see docs/store.md, backups)").format(
                     shm=shm, wal=wal.name)
    return None


def database_path(path: Path | str) -> Path:
    """The file a database path names, symbolic links followed; StoreError when it is a folder,
    a link to nothing, a FIFO or a device. A path where nothing is yet is returned as it is."""
    path = Path(path)
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return path
    except OSError as error:
        raise StoreError(_("{path}: cannot use it ({error})").format(
            path=path, error=error.strerror)) from None
    if stat.S_ISLNK(info.st_mode):
        real = Path(os.path.realpath(path))
        if not real.exists():
            raise StoreError(_("{path}: a symbolic link to {target}, which does not exist; "
                               "remove the link or give the database's own path with "
                               "--db").format(path=path, target=real))
        path, info = real, os.stat(real)
    if stat.S_ISDIR(info.st_mode):
        raise StoreError(_("{path}: a folder, not a game database; give a file path with --db, "
                           "e.g. {example}").format(path=path, example=path / "games.sqlite"))
    if not stat.S_ISREG(info.st_mode):
        raise StoreError(_("{path}: {kind}, not a game database file; give the path of a "
                           "database file with --db").format(path=path,
                                                             kind=file_kind(info.st_mode)))
    return path


def _reading(path: Path) -> sqlite3.Connection:
    """A connection that reads without creating a -wal or -shm file beside the database:
    immutable when there is no -wal (then no writer has it open), else read-only."""
    mode = "mode=ro" if os.path.lexists(_sidecars(path)[0]) else "immutable=1"
    uri = "file:" + urllib.parse.quote(str(path.absolute())) + "?" + mode
    conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=5.0)
    conn.text_factory = _text
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def _text(raw: bytes) -> str:
    """A stored text value; a damaged one (not UTF-8) is an sqlite3.DataError, like any other
    damage SQLite finds, not a UnicodeDecodeError."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise sqlite3.DataError("a stored text is not UTF-8") from None


def inspect_database(path: Path) -> int:
    """The schema version of an existing database, read without modifying the file or creating
    any beside it; raise NotADatabase, NewerSchema or DamagedDatabase when it is not one this
    app can use (its header, tables, pages and every row are checked)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            size = os.fstat(fd).st_size
            header = os.pread(fd, 100, 0)
        finally:
            os.close(fd)
    except OSError as error:
        raise StoreError(_("{path}: cannot read it ({error})").format(
            path=path, error=error.strerror)) from None
    if size == 0:
        raise DamagedDatabase(path, _("the file is empty, not a Phoenix Companion database"))
    if not header.startswith(SQLITE_HEADER):
        if SQLITE_HEADER.startswith(header):
            raise DamagedDatabase(path, _("the database is truncated"))
        raise NotADatabase(path, _("this file is not a Phoenix Companion database (not an "
                                   "SQLite database at all)"))
    if len(header) < 100:
        raise DamagedDatabase(path, _("the database is truncated"))
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        raise DamagedDatabase(path, _("the database header is damaged"))
    wal = _sidecars(path)[0]
    wal_has_frames = wal.exists() and wal.stat().st_size > 32
    pages = int.from_bytes(header[28:32], "big")
    header_size_valid = header[24:28] == header[92:96]
    if size % page_size or (header_size_valid and size < pages * page_size
                            and not wal_has_frames):
        raise DamagedDatabase(path, _("the database is truncated ({size} bytes of "
                                      "{expected})").format(size=size,
                                                            expected=pages * page_size))
    try:
        conn = _reading(path)
        try:
            application = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if application != schema.APPLICATION_ID:
                raise NotADatabase(path, _("this is an SQLite database of another program, not "
                                           "a Phoenix Companion one"))
            if version > schema.SCHEMA_VERSION:
                raise NewerSchema(path, _("it was written by a newer Phoenix Companion (schema "
                                          "{version}; this one knows up to {known}): update the "
                                          "app to open it").format(
                                              version=version, known=schema.SCHEMA_VERSION))
            if version < 1 or schema.schema_of(conn) != schema.expected_schema(version):
                raise DamagedDatabase(path, _("its tables are not the ones Phoenix Companion "
                                              "writes (schema {version})").format(
                                                  version=version))
            problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                detail = problems[0].replace("*** in database main ***", "")
                raise DamagedDatabase(path, _("the database is damaged ({error})").format(
                    error=detail.strip()))
            if version == schema.SCHEMA_VERSION:
                _check_rows(conn, path)
        finally:
            conn.close()
    except sqlite3.OperationalError as error:
        if "unable to open" in str(error):
            if not os.access(path.parent if str(path.parent) else ".", os.W_OK):
                raise StoreError(read_only_problem(path, str(error))) from None
            raise StoreError(_("{path}: cannot open it ({error})").format(
                path=path, error=error)) from None
        raise DamagedDatabase(path, _("the database is damaged ({error})").format(
            error=error)) from None
    except (sqlite3.DatabaseError, UnicodeDecodeError) as error:  # SQLite's message not UTF-8
        raise DamagedDatabase(path, _("the database is damaged ({error})").format(
            error=error)) from None
    return version


def _check_rows(conn: sqlite3.Connection, path: Path) -> None:
    """Every row checked: the game list's entries, and each step, journal line and snapshot
    against its check value; journal times and commands decoded."""
    for row in conn.execute(f"SELECT {GAME_COLUMNS} FROM games"):
        _game_info(row, path)
    for table, columns in schema.CHECKED.items():
        for row in conn.execute(f"SELECT {', '.join(columns)}, crc FROM {table}"):
            try:
                sound = schema.row_crc(row[:-1]) == row[-1]
            except TypeError:  # a value of the wrong type (a blob where text belongs)
                sound = False
            if sound and table == "journal":
                sound = is_time(row[2]) and isinstance(_decode(row[3]), dict)
            if not sound:
                raise DamagedDatabase(path, _("game {id}'s {table} row {row} is damaged (it "
                                              "does not match its check value)").format(
                                                  id=row[0], table=table, row=row[1]))


def _decode(text: object) -> Any:
    """A stored JSON value, or None when it does not decode."""
    try:
        return json.loads(text)  # type: ignore[arg-type]
    except (ValueError, TypeError, RecursionError):
        return None


def is_time(value: object) -> bool:
    """True for an ISO 8601 time with a time zone (as `timestamp()` writes)."""
    try:
        return isinstance(value, str) and datetime.fromisoformat(value).tzinfo is not None
    except ValueError:
        return False


def plausible_time(value: str) -> bool:
    """True for a time (is_time) from 2020 to a day after now: a crafted time far ahead would
    put its game first in the list and make it the one resumed."""
    when = datetime.fromisoformat(value)
    return EARLIEST <= when <= datetime.now(UTC) + CLOCK_SKEW


def command_text(command: Mapping[str, Any], used: int) -> int:
    """The characters `command` adds to a game that holds `used` (as stored JSON); StoreError
    saying which text is too long, or that the game is full, when it would pass MAX_NOTE or
    MAX_GAME_TEXT."""
    pending: list[tuple[str, Any]] = [(str(key), value) for key, value in command.items()]
    while pending:
        field, value = pending.pop()
        if isinstance(value, str) and len(value) > MAX_NOTE:
            raise StoreError(_("the command's {field} is {count} characters long; a text in a "
                               "command may be at most {most}: shorten it (nothing was "
                               "stored)").format(field=field, count=len(value), most=MAX_NOTE))
        if isinstance(value, Mapping):
            pending.extend((field, child) for child in value.values())
        elif isinstance(value, list):
            pending.extend((field, child) for child in value)
    size = len(dumps(command))
    if used + size > MAX_GAME_TEXT:
        raise StoreError(_("this game already holds {count} characters of commands and notes; "
                           "one game may hold at most {most}: shorten the note, or go on in a "
                           "new game (nothing was stored)").format(count=used, most=MAX_GAME_TEXT))
    return size


GAME_COLUMNS = "id, name, created, updated, phase, players, scores, head"


def _game_info(row: tuple, path: Path) -> GameInfo:
    """A game list row, checked (DamagedDatabase when a column does not make sense)."""
    game_id, name, created, updated, phase, players, scores, head = row
    players, scores = _decode(players), _decode(scores)
    if not (isinstance(game_id, int) and isinstance(name, str) and is_time(created)
            and is_time(updated) and isinstance(phase, str) and type(head) is int and head >= 0
            and isinstance(players, list) and all(isinstance(p, str) for p in players)
            and isinstance(scores, dict)
            and all(type(v) is int for v in scores.values())):
        raise DamagedDatabase(path, _("game {id}'s entry in the game list is damaged").format(
            id=repr(game_id)))
    return GameInfo(game_id, name, created, updated, phase, players, scores, head)


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _create(path: Path) -> None:
    """Build a fresh database (0600) beside `path` and move it into place (all or nothing)."""
    make_private_folder(path.parent)
    building = path.with_name(path.name + ".creating")
    for leftover in (building, *_sidecars(building)):
        leftover.unlink(missing_ok=True)
    os.close(os.open(building, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600))
    conn = sqlite3.connect(building, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        schema.migrate(conn)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    with building.open("rb+") as handle:
        os.fsync(handle.fileno())
    for sidecar in _sidecars(building):
        sidecar.unlink(missing_ok=True)
    os.rename(building, path)
    _fsync_dir(path.parent)


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Upgrade to the current schema (DamagedDatabase when the old rows do not decode)."""
    try:
        schema.migrate(conn)
    except (ValueError, KeyError, TypeError, IndexError, RecursionError) as error:
        raise DamagedDatabase(path, _("it cannot be upgraded: its rows are damaged "
                                      "({error})").format(error=type(error).__name__)) from None


def _kept_name(path: Path, label: str) -> Path:
    """A free name beside `path` for a copy kept aside: games-<label>YYYYmmdd-HHMMSS.sqlite.old."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    kept = path.with_name(f"{path.stem}-{label}{stamp}{path.suffix}.old")
    counter = 1
    while os.path.lexists(kept):
        counter += 1
        kept = path.with_name(f"{path.stem}-{label}{stamp}-{counter}{path.suffix}.old")
    return kept


def _upgrade(path: Path, version: int) -> Path:
    """Copy an old database aside (0600), then migrate it in place (the caller holds the lock);
    the copy's name."""
    backup = _kept_name(path, f"schema{version}-")
    os.close(os.open(backup, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600))
    source, target = _reading(path), sqlite3.connect(backup)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()
    conn = _connect(path, write=True)
    try:
        _migrate(conn, path)
    finally:
        conn.close()
    return backup


def set_aside(path: Path | str) -> Path:
    """Rename an unusable database (and its -wal/-shm) with a timestamp so a fresh one can be
    started in its place; the new name of the old file. Refused while another app has it open,
    and with a message when the folder does not allow renaming."""
    refuse_link(path)
    path = database_path(path)
    lock = WriteLock(path).acquire()
    try:
        kept = _kept_name(path, "")
        try:
            os.rename(path, kept)
            for old, new in zip(_sidecars(path), _sidecars(kept)):
                if old.exists():
                    os.rename(old, new)
            _fsync_dir(path.parent)
        except OSError as error:
            raise StoreError(_("{path}: cannot keep it aside as {name} ({error}); make its "
                               "folder writable, or move the file away yourself").format(
                                   path=path, name=kept.name, error=error.strerror)) from None
        return kept
    finally:
        lock.release()


class LazyStep(Step):
    """A stored step whose JSON is decoded on first use (resume decodes only what it folds)."""

    def __init__(self, command: str, events: str, inverse: str, where: tuple[Path, str]) -> None:
        self._raw: list[Any] = [command, events, inverse]
        self._done = [False, False, False]
        self._where = where  # the database and "game G's step S", for a damaged row

    def _get(self, index: int) -> Any:
        if not self._done[index]:
            value = _decode(self._raw[index])
            if not isinstance(value, dict if index == 0 else list):
                path, what = self._where
                raise DamagedDatabase(path, _("{what} does not decode").format(what=what))
            self._raw[index] = value
            self._done[index] = True
        return self._raw[index]

    def _set(self, index: int, value: Any) -> None:
        self._raw[index] = value
        self._done[index] = True

    command = property(lambda self: self._get(0), lambda self, v: self._set(0, v))
    events = property(lambda self: self._get(1), lambda self, v: self._set(1, v))
    inverse = property(lambda self: self._get(2), lambda self, v: self._set(2, v))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Step):
            return NotImplemented
        return (self.command, self.events, self.inverse) == (other.command, other.events,
                                                              other.inverse)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LazyStep(command={self.command!r})"


@dataclass(frozen=True)
class GameInfo:
    """One line of the game list."""

    id: int
    name: str
    created: str
    updated: str
    phase: str
    players: list[str]
    scores: dict[str, int]
    steps: int

    @property
    def finished(self) -> bool:
        """True once the game is over."""
        return self.phase == "over"

    def as_json(self) -> dict:
        """The `games --json` entry."""
        return {"id": self.id, "name": self.name, "created": self.created,
                "updated": self.updated, "phase": self.phase, "finished": self.finished,
                "players": self.players, "scores": self.scores, "steps": self.steps}


class StoredGame:
    """A game open in the store: the engine's Game, kept in step with its log on disk."""

    def __init__(self, store: Store, game_id: int, name: str, game: Game, journal: int,
                 snapshots: list[int]) -> None:
        self.store = store
        self.id = game_id
        self.name = name
        self.game = game
        self.journal = journal  # commands in the journal (undo and redo included)
        self.snapshots = snapshots  # step numbers with a stored snapshot
        self.warnings: list[str] = []  # e.g. a learned value the overlay file refused
        self.text: int | None = None  # characters of its journal (command_text), once needed

    @property
    def state(self) -> State:
        """The current state (do not change it: commands do)."""
        return self.game.state

    @property
    def catalogue(self) -> Catalogue:
        """The catalogue this game is played with."""
        return self.game.catalogue

    def execute(self, command: Mapping[str, Any]) -> Step:
        """Apply a command (`undo` and `redo` too) and commit it; returns only after the
        commit. Refused or Missing (from the engine) and StoreError (not saved) leave the game
        as it was."""
        self.store._require_write()
        if self.text is None:
            self.text = self.store.conn.execute(
                "SELECT COALESCE(SUM(LENGTH(command)), 0) FROM journal WHERE game_id = ?",
                (self.id,)).fetchone()[0]
        size = command_text(command, self.text)
        change, step = self.game.perform(command)
        try:
            self.store._commit(self, change, step)
        except BaseException:
            self.game.take_back(change)
            raise
        self.text += size
        if change == "new":
            self.store._remember(self, step.learned)
        return step

    def undo(self) -> Step:
        """Take back the last step, durably (Refused when there is nothing to undo)."""
        return self.execute({"cmd": "undo"})

    def redo(self) -> Step:
        """Apply again the last undone step, durably (Refused when there is none)."""
        return self.execute({"cmd": "redo"})


class Store:
    """An open game database. Open it with `Store.open`; close it (or use `with`)."""

    def __init__(self, path: Path, conn: sqlite3.Connection, lock: WriteLock | None,
                 overlay: Path | None, snapshot_every: int) -> None:
        self.path = path
        self.overlay = overlay
        self.snapshot_every = snapshot_every
        self._conn: sqlite3.Connection | None = conn
        self._lock = lock
        self._user_cache: tuple[tuple, Overlay] | None = None

    # -- opening and closing -----------------------------------------------------------------

    @classmethod
    def open(cls, path: Path | str | None = None, *, overlay: Path | str | None = None,
             write: bool = True, create: bool | None = None,
             snapshot_every: int = DEFAULT_SNAPSHOT_EVERY) -> Store:
        """Open (and by default create) a database for writing, or with `write=False` for
        reading alongside a running app. Raises StoreLocked, NoDatabase, NotADatabase,
        NewerSchema or DamagedDatabase (the file then untouched). `overlay` is the user's
        catalogue overlay (default: the user's; learned values are stored there)."""
        path = database_path(path if path is not None else default_db_path())
        overlay = paths.overlay_path(overlay)
        create = write if create is None else create
        if snapshot_every < 1:
            raise StoreError(_("snapshot_every must be at least 1"))
        lock = WriteLock(path).acquire() if write else None
        try:
            if lock is not None:
                check_sidecars(path)
            if not path.exists():
                if not create:
                    raise NoDatabase(path)
                if lock is None:
                    raise StoreError(_("{path}: cannot create a database when reading").format(
                        path=path))
                _create(path)
                lock.lock_file()
                version = schema.SCHEMA_VERSION
            else:
                version = inspect_database(path)
            if lock is None:
                conn = _reader(path, version)
            else:
                _check_writable(path)
                if version < schema.SCHEMA_VERSION:
                    _upgrade(path, version)
                conn = _connect(path, write=True)
        except BaseException:
            if lock is not None:
                lock.release()
            raise
        return cls(path, conn, lock, overlay, snapshot_every)

    def close(self) -> None:
        """Close the database and give up the write lock (safe to call twice)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def writable(self) -> bool:
        """True when opened for writing (holding the lock)."""
        return self._lock is not None and self._conn is not None

    @property
    def conn(self) -> sqlite3.Connection:
        """The SQLite connection (for this package and its tests)."""
        if self._conn is None:
            raise StoreError(_("{path}: the database is closed").format(path=self.path))
        return self._conn

    def _require_write(self) -> None:
        if not self.writable:
            raise StoreError(_("{path}: opened for reading only").format(path=self.path))

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; committed (durably) when the block ends without error."""
        self._require_write()
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise StoreError(_("{path}: cannot write ({error})").format(
                path=self.path, error=error)) from None
        try:
            yield conn
            conn.execute("COMMIT")
        except sqlite3.Error as error:
            _rollback(conn)
            raise StoreError(_("{path}: could not save ({error}); nothing was changed").format(
                path=self.path, error=error)) from None
        except BaseException:
            _rollback(conn)
            raise

    # -- the game list -----------------------------------------------------------------------

    def games(self) -> list[GameInfo]:
        """Every game, most recently played first."""
        rows = self.conn.execute(f"SELECT {GAME_COLUMNS} FROM games "
                                 "ORDER BY updated DESC, id DESC").fetchall()
        return [_game_info(row, self.path) for row in rows]

    def game_info(self, game_id: int) -> GameInfo:
        """The game list's line for one game."""
        for info in self.games():
            if info.id == game_id:
                return info
        raise UnknownGame(game_id, self.path)

    def last_unfinished(self) -> int | None:
        """The id of the game played most recently that is not over (None: there is none)."""
        row = self.conn.execute("SELECT id FROM games WHERE phase != 'over' "
                                "ORDER BY updated DESC, id DESC LIMIT 1").fetchone()
        return row[0] if row else None

    def resume(self) -> StoredGame | None:
        """The last unfinished game, opened where it was (None: there is none)."""
        game_id = self.last_unfinished()
        return self.open_game(game_id) if game_id is not None else None

    def new_game(self, name: str | None = None) -> StoredGame:
        """Create an empty game (its first command is `new_game`), played with the user's
        catalogue overlay as it is now."""
        values = self._user_values()
        at = timestamp()
        name = (_clean_name(name) if name is not None
                else _("Game of {time}").format(time=at[:16].replace("T", " ")))
        phase, players, scores = schema.listing(new_state())
        with self._transaction() as conn:
            cursor = conn.execute("INSERT INTO games (name, created, updated, head, overlay, "
                                  "phase, players, scores) VALUES (?, ?, ?, 0, ?, ?, ?, ?)",
                                  (name, at, at, dumps(values), phase, players, scores))
            game_id = cursor.lastrowid
        assert game_id is not None
        return StoredGame(self, game_id, name, Game(self._catalogue(values)), 0, [])

    def rename_game(self, game_id: int, name: str) -> None:
        """Give a game a new name."""
        name = _clean_name(name)
        with self._transaction() as conn:
            if conn.execute("UPDATE games SET name = ? WHERE id = ?",
                            (name, game_id)).rowcount != 1:
                raise UnknownGame(game_id, self.path)

    def delete_game(self, game_id: int) -> None:
        """Delete a game and its whole log (the UI asks for confirmation first)."""
        with self._transaction() as conn:
            if conn.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount != 1:
                raise UnknownGame(game_id, self.path)

    # -- opening a game ----------------------------------------------------------------------

    def open_game(self, game_id: int, *, use_snapshots: bool = True) -> StoredGame:
        """A game as it was last committed: the latest snapshot at or before its head, then the
        fold of the later steps; undone steps can still be redone."""
        conn = self.conn
        row = conn.execute("SELECT name, head, overlay FROM games WHERE id = ?",
                           (game_id,)).fetchone()
        if row is None:
            raise UnknownGame(game_id, self.path)
        name, head, overlay = row
        stored = _decode(overlay)
        if not _is_overlay(stored):
            raise DamagedDatabase(self.path, _("game {id}'s catalogue values are damaged").format(
                id=game_id))
        base, state = 0, new_state()
        if use_snapshots:
            snapshot = conn.execute("SELECT seq, state FROM snapshots WHERE game_id = ? AND "
                                    "seq <= ? ORDER BY seq DESC LIMIT 1",
                                    (game_id, head)).fetchone()
            if snapshot:
                base, state = snapshot[0], _decode(snapshot[1])
                if not isinstance(state, dict) or state.keys() != new_state().keys():
                    raise DamagedDatabase(self.path, _("game {id}'s snapshot at step {step} is "
                                                       "damaged").format(id=game_id, step=base))
        steps: list[Step] = []
        undone: list[Step] = []
        for seq, command, events, inverse in conn.execute(
                "SELECT seq, command, events, inverse FROM steps WHERE game_id = ? ORDER BY seq",
                (game_id,)):
            where = _("game {id}'s step {step}").format(id=game_id, step=seq)
            step = LazyStep(command, events, inverse, (self.path, where))
            if seq <= head:
                if seq != len(steps) + 1:
                    raise DamagedDatabase(self.path, _("game {id}'s log has a gap at step "
                                                       "{step}").format(id=game_id,
                                                                        step=len(steps) + 1))
                steps.append(step)
                if seq > base:
                    _apply(state, step, self.path, where)
            else:
                undone.append(step)
        if len(steps) != head:
            raise DamagedDatabase(self.path, _("game {id}'s log ends at step {step}, not "
                                               "{head}").format(id=game_id, step=len(steps),
                                                                head=head))
        undone.reverse()
        journal = conn.execute("SELECT COALESCE(MAX(n), 0) FROM journal WHERE game_id = ?",
                               (game_id,)).fetchone()[0]
        snapshots = [r[0] for r in conn.execute(
            "SELECT seq FROM snapshots WHERE game_id = ? ORDER BY seq", (game_id,))]
        values = self._game_values(stored)
        try:
            catalogue = self._catalogue(values)
        except CatalogueError as error:
            raise DamagedDatabase(self.path, _("game {id}'s catalogue values cannot be used "
                                               "({error})").format(id=game_id,
                                                                   error=error)) from None
        played = StoredGame(self, game_id, name, Game.restore(catalogue, state, steps, undone),
                            journal, snapshots)
        if self.writable and values != stored:
            with self._transaction() as conn:
                conn.execute("UPDATE games SET overlay = ? WHERE id = ?",
                             (dumps(values), game_id))
        # Opening writes nothing to the user's overlay: a game's values reach it as its steps
        # are played here; an imported record's stay in that game unless the player agrees
        # (phoenix-companion catalogue --import RECORD).
        return played

    def check_snapshots(self, game_id: int) -> int:
        """Verify every snapshot of a game against the fold of its steps; the number checked
        (DamagedDatabase on a mismatch)."""
        conn = self.conn
        snapshots = dict(conn.execute("SELECT seq, state FROM snapshots WHERE game_id = ?",
                                      (game_id,)).fetchall())
        state = new_state()
        checked = 0
        for seq, command, events, inverse in conn.execute(
                "SELECT seq, command, events, inverse FROM steps WHERE game_id = ? ORDER BY seq",
                (game_id,)):
            what = _("game {id}'s step {step}").format(id=game_id, step=seq)
            _apply(state, LazyStep(command, events, inverse, (self.path, what)), self.path, what)
            if seq in snapshots:
                if _decode(snapshots[seq]) != state:
                    raise DamagedDatabase(self.path, _("game {id}'s snapshot at step {step} "
                                                       "differs from its log").format(
                                                           id=game_id, step=seq))
                checked += 1
        if checked != len(snapshots):
            raise DamagedDatabase(self.path, _("game {id} has snapshots past its log").format(
                id=game_id))
        return checked

    def integrity_check(self) -> list[str]:
        """SQLite's full integrity check: ["ok"] for a sound file."""
        return [row[0] for row in self.conn.execute("PRAGMA integrity_check")]

    # -- writing -----------------------------------------------------------------------------

    def _commit(self, played: StoredGame, kind: str, step: Step, at: str | None = None) -> None:
        """Store what the in-memory game just did (`new` step, `undo` or `redo`), in one
        transaction; returns after the commit."""
        with self._transaction() as conn:
            self._write(conn, played, kind, step, at or timestamp())

    def _write(self, conn: sqlite3.Connection, played: StoredGame, kind: str, step: Step,
               at: str) -> None:
        """The rows of one command, inside an open transaction."""
        game_id = played.id
        head = len(played.game.steps)
        before = head + 1 if kind == "undo" else head - 1
        if kind == "new":
            conn.execute("DELETE FROM steps WHERE game_id = ? AND seq >= ?", (game_id, head))
            conn.execute("DELETE FROM snapshots WHERE game_id = ? AND seq >= ?", (game_id, head))
            _insert(conn, "steps", (game_id, head, at, dumps(step.command), dumps(step.events),
                                    dumps(step.inverse)))
            command: dict = step.command
            snapshots = [s for s in played.snapshots if s < head]
        else:
            command = {"cmd": kind}
            snapshots = list(played.snapshots)
        _insert(conn, "journal", (game_id, played.journal + 1, at, dumps(command)))
        if kind != "undo" and self._snapshot_due(played, snapshots, head):
            _insert(conn, "snapshots", (game_id, head, dumps(played.game.state)))
            snapshots.append(head)
        phase, players, scores = schema.listing(played.game.state,
                                                _totals(played.game.state, played.catalogue))
        updated = conn.execute("UPDATE games SET head = ?, updated = ?, phase = ?, players = ?, "
                               "scores = ? WHERE id = ? AND head = ?",
                               (head, at, phase, players, scores, game_id, before))
        if updated.rowcount != 1:
            raise StoreError(_("{path}: game {id} was changed or deleted elsewhere").format(
                path=self.path, id=game_id))
        played.journal += 1
        played.snapshots = sorted(snapshots)

    def _snapshot_due(self, played: StoredGame, snapshots: list[int], head: int) -> bool:
        base = max((s for s in snapshots if s <= head), default=0)
        if base == head:
            return False
        since = sum(len(step.events) for step in played.game.steps[base:head])
        return since >= self.snapshot_every

    def _remember(self, played: StoredGame, learned: Mapping[str, Any]) -> None:
        """Store values a game learned into the user's overlay (for later games)."""
        learned = remembered(played.state, learned)
        if not learned or self.overlay is None:
            return
        try:
            for key, value in learned.items():
                kind, record, field = key.split("/", 2)
                set_user_value(self.overlay, kind, record, field, value)
        except (CatalogueError, OSError) as error:
            played.warnings.append(_("could not remember a catalogue value: {error}").format(
                error=error))

    # -- catalogues --------------------------------------------------------------------------

    def _user_values(self) -> Overlay:
        """The user's overlay values (re-read when the file changes)."""
        if self.overlay is None:
            return {}
        try:
            info = self.overlay.stat()
            stamp: tuple = (info.st_mtime_ns, info.st_size, info.st_ino)
        except FileNotFoundError:
            stamp = ()
        if self._user_cache is None or self._user_cache[0] != stamp:
            self._user_cache = (stamp, read_overlay(self.overlay))
        return copy.deepcopy(self._user_cache[1])

    def _game_values(self, stored: Overlay) -> Overlay:
        """The values a game is played with: the user's overlay, then the game's own on top
        (so a game keeps the values it was played with)."""
        merged = copy.deepcopy(self._user_values())
        for kind, records in stored.items():
            for record, fields in records.items():
                merged.setdefault(kind, {}).setdefault(record, {}).update(fields)
        return merged

    def catalogue_for(self, values: Overlay) -> Catalogue:
        """The shipped catalogue with these overlay values (cached)."""
        return self._catalogue(values)

    def _catalogue(self, values: Overlay) -> Catalogue:
        key = dumps(values)
        if key not in _CATALOGUES:
            try:  # the limits every JSON reader of the app applies (e.g. at most 30 digits)
                checked = load_json(key)
            except JsonFileError as error:
                raise CatalogueError(_("catalogue values: {error}").format(error=error)) from None
            _CATALOGUES[key] = build_catalogue(shipped_data(), checked)
        return _CATALOGUES[key]


def _connect(path: Path, *, write: bool) -> sqlite3.Connection:
    """A connection for writing (WAL, synchronous=FULL), or `_reading`'s for reading."""
    if not write:
        return _reading(path)
    conn = sqlite3.connect(path, isolation_level=None, timeout=5.0)
    conn.text_factory = _text
    try:
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    except sqlite3.OperationalError as error:
        conn.close()
        raise StoreError(read_only_problem(path, str(error))) from None
    if mode != "wal":
        conn.close()
        raise StoreError(_("{path}: cannot use a write-ahead log here (journal mode "
                           "{mode})").format(path=path, mode=mode))
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def _reader(path: Path, version: int) -> sqlite3.Connection:
    """The connection a reader uses: the file itself, or for an older schema an upgraded copy
    in memory (readers never change the file; the next writer upgrades it)."""
    conn = _reading(path)
    if version == schema.SCHEMA_VERSION:
        return conn
    memory = sqlite3.connect(":memory:", isolation_level=None)
    memory.text_factory = _text
    try:
        conn.backup(memory)
    finally:
        conn.close()
    _migrate(memory, path)
    return memory


def _check_writable(path: Path) -> None:
    """StoreError saying so when the database or its folder is read-only (SQLite needs to
    create its -wal and -shm files beside the database)."""
    folder = path.parent if str(path.parent) else Path(".")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StoreError(read_only_problem(path, _("the folder is read-only")))
    if not os.access(path, os.W_OK):
        raise StoreError(read_only_problem(path, _("the file is read-only")))


def _insert(conn: sqlite3.Connection, table: str, values: tuple) -> None:
    """Insert (or replace) a checked row, with its check value."""
    columns = schema.CHECKED[table]
    conn.execute(f"INSERT OR REPLACE INTO {table} ({', '.join(columns)}, crc) "
                 f"VALUES ({', '.join('?' * (len(columns) + 1))})",
                 (*values, schema.row_crc(values)))


def _apply(state: dict, step: Step, path: Path, what: str) -> None:
    """Fold a stored step's events into `state` (DamagedDatabase when they do not apply)."""
    try:
        for event in step.events:
            apply_ops(state, event["ops"])
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        raise DamagedDatabase(path, _("{what} does not apply to the game").format(
            what=what)) from None


def _is_overlay(value: object) -> bool:
    """True for stored catalogue values: {kind: {record: {field: value}}}."""
    return isinstance(value, dict) and all(
        isinstance(records, dict) and all(isinstance(fields, dict) for fields in records.values())
        for records in value.values())


def _rollback(conn: sqlite3.Connection) -> None:
    with suppress(sqlite3.Error):
        conn.execute("ROLLBACK")


def _clean_name(name: str) -> str:
    problem = name_problem(name, _("a game's name"))
    if problem:
        raise StoreError(problem)
    return name.strip()


def _totals(state: dict, catalogue: Catalogue) -> dict[str, int] | None:
    """Final totals once the game is over (None before: the list shows in-game points)."""
    if state["phase"] != "over":
        return None
    try:
        sheet = final_score(state, catalogue)
    except (ValueError, KeyError, TypeError):
        return None
    return {p.name: p.total for p in sheet.players}
