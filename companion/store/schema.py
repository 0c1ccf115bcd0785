"""The database schema, its version, and the forward migrations that build and upgrade it.

A fresh database is built by running every migration from version 0, so an upgraded database
and a new one have the same schema. `PRAGMA user_version` holds the version, `PRAGMA
application_id` marks the file as Phoenix Companion's. Each migration runs in one transaction
with its version bump: an interrupted upgrade leaves the previous version intact.

    1  games, the step log (command, events, inverse ops) with a head, the command journal
    2  snapshots of the state every N events (resume speed)
    3  the game list's columns: phase, players, current scores
    4  a check value (`crc`, CRC-32 of the row's content) on every step, journal line and
       snapshot, so a changed or damaged row is found before it is used
"""

from __future__ import annotations

import functools
import json
import sqlite3
import zlib
from collections.abc import Callable, Sequence

from companion.rules.state import apply_ops, new_state

APPLICATION_ID = 0x50484E58  # "PHNX"
SCHEMA_VERSION = 4
CHECKED = {"steps": ("game_id", "seq", "at", "command", "events", "inverse"),
           "journal": ("game_id", "n", "at", "command"),
           "snapshots": ("game_id", "seq", "state")}
"""The tables whose rows carry a `crc` (schema 4), and the columns it covers, in order."""


def _v1(conn: sqlite3.Connection) -> None:
    conn.execute("""
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            head INTEGER NOT NULL DEFAULT 0 CHECK (head >= 0),
            overlay TEXT NOT NULL DEFAULT '{}'
        )""")
    conn.execute("""
        CREATE TABLE steps (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL CHECK (seq >= 1),
            at TEXT NOT NULL,
            command TEXT NOT NULL,
            events TEXT NOT NULL,
            inverse TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID""")
    conn.execute("""
        CREATE TABLE journal (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            n INTEGER NOT NULL CHECK (n >= 1),
            at TEXT NOT NULL,
            command TEXT NOT NULL,
            PRIMARY KEY (game_id, n)
        ) WITHOUT ROWID""")
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")


def _v2(conn: sqlite3.Connection) -> None:
    conn.execute("""
        CREATE TABLE snapshots (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL CHECK (seq >= 1),
            state TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID""")


def _v3(conn: sqlite3.Connection) -> None:
    conn.execute("ALTER TABLE games ADD COLUMN phase TEXT NOT NULL DEFAULT 'new'")
    conn.execute("ALTER TABLE games ADD COLUMN players TEXT NOT NULL DEFAULT '[]'")
    conn.execute("ALTER TABLE games ADD COLUMN scores TEXT NOT NULL DEFAULT '{}'")
    conn.execute("CREATE INDEX games_by_update ON games(updated)")
    for game_id, head in conn.execute("SELECT id, head FROM games").fetchall():
        state = new_state()
        for (events,) in conn.execute("SELECT events FROM steps WHERE game_id = ? AND seq <= ? "
                                      "ORDER BY seq", (game_id, head)):
            for event in json.loads(events):
                apply_ops(state, event["ops"])
        phase, players, scores = listing(state)
        conn.execute("UPDATE games SET phase = ?, players = ?, scores = ? WHERE id = ?",
                     (phase, players, scores, game_id))


def _v4(conn: sqlite3.Connection) -> None:
    for table, columns in CHECKED.items():
        conn.execute(f"ALTER TABLE {table} ADD COLUMN crc INTEGER NOT NULL DEFAULT 0")
        keys = [c for c in columns if c in ("game_id", "seq", "n")]
        rows = conn.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
        conn.executemany(
            f"UPDATE {table} SET crc = ? WHERE {' AND '.join(f'{k} = ?' for k in keys)}",
            [(row_crc(row), *row[:len(keys)]) for row in rows])


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _v1, 2: _v2, 3: _v3, 4: _v4}


def row_crc(values: Sequence[object]) -> int:
    """The check value of a row: CRC-32 of its columns (CHECKED order) as JSON."""
    return zlib.crc32(json.dumps(list(values), ensure_ascii=False).encode("utf-8",
                                                                           "surrogatepass"))


@functools.cache
def expected_schema(version: int) -> tuple[tuple, ...]:
    """The schema of a database at `version` as the migrations build it (see schema_of)."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        migrate(conn, version)
        return schema_of(conn)
    finally:
        conn.close()


def schema_of(conn: sqlite3.Connection) -> tuple[tuple, ...]:
    """Every table, index and trigger of a database with its SQL text: a damaged name in any
    of them (a trigger on "fames") would only fail at the first write."""
    return tuple(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master "
                              "ORDER BY type, name"))


def listing(state: dict, totals: dict[str, int] | None = None) -> tuple[str, str, str]:
    """The game list's columns for a state: phase, players (JSON names), scores (JSON: final
    totals when given, else the in-game points)."""
    names = [p["name"] for p in state["players"]]
    scores = totals if totals is not None else {p["name"]: p["points"] for p in state["players"]}
    return state["phase"], json.dumps(names), json.dumps(scores)


def migrate(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> int:
    """Run the migrations from the database's version up to `target`; the version reached.

    `conn` must be in autocommit mode (isolation_level None); each step is one transaction."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    while version < target:
        version += 1
        conn.execute("BEGIN IMMEDIATE")
        try:
            MIGRATIONS[version](conn)
            conn.execute(f"PRAGMA user_version = {version}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return version
