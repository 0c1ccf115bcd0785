"""A database of every earlier schema version opens, is upgraded in place and resumes."""

from __future__ import annotations

import sqlite3

import pytest
from store_helpers import commands, overlay_copy, table_catalogue

from companion.rules.game import Game
from companion.store import Store
from companion.store.db import dumps
from companion.store.schema import APPLICATION_ID, SCHEMA_VERSION, listing, migrate

COUNT = 80


def _old_database(path, version: int) -> Game:
    """A database at `version`, holding one game of COUNT commands (2 undone), written with
    that version's tables only; the in-memory game it should open as."""
    game = Game(table_catalogue())
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    assert migrate(conn, target=version) == version
    at = "2024-05-01T19:00:00.000+00:00"
    conn.execute("BEGIN")
    conn.execute("INSERT INTO games (id, name, created, updated, head, overlay) "
                 "VALUES (1, 'old game', ?, ?, 0, '{}')", (at, at))
    for n, command in enumerate([*commands()[:COUNT], {"cmd": "undo"}, {"cmd": "undo"}], 1):
        step = game.execute(command)
        if command["cmd"] not in ("undo", "redo"):
            seq = len(game.steps)
            conn.execute("DELETE FROM steps WHERE game_id = 1 AND seq >= ?", (seq,))
            conn.execute("INSERT INTO steps VALUES (1, ?, ?, ?, ?, ?)",
                         (seq, at, dumps(step.command), dumps(step.events), dumps(step.inverse)))
        conn.execute("INSERT INTO journal VALUES (1, ?, ?, ?)", (n, at, dumps(command)))
        conn.execute("UPDATE games SET head = ? WHERE id = 1", (len(game.steps),))
        if version >= 2 and n == 40:
            conn.execute("INSERT INTO snapshots VALUES (1, ?, ?)",
                         (len(game.steps), dumps(game.state)))
    if version >= 3:
        conn.execute("UPDATE games SET phase = ?, players = ?, scores = ? WHERE id = 1",
                     listing(game.state))
    conn.execute("COMMIT")
    conn.close()
    return game


@pytest.mark.parametrize("version", range(1, SCHEMA_VERSION))
def test_an_old_database_is_upgraded_and_resumes(tmp_path, version):
    path = tmp_path / "games.sqlite"
    expected = _old_database(path, version)
    with Store.open(path, overlay=overlay_copy(tmp_path)) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert store.conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        [info] = store.games()
        assert info.players == ["Ann", "Bob", "Cat", "Dan"]
        assert info.phase == expected.state["phase"]
        assert info.scores == {p["name"]: p["points"] for p in expected.state["players"]}
        played = store.resume()
        assert played.state == expected.state
        assert played.game.undone == expected.undone
        played.redo()
        expected.redo()
        assert played.state == expected.state
        assert store.integrity_check() == ["ok"]
    # The writer kept a copy of the old file before upgrading it.
    [backup] = tmp_path.glob(f"games-schema{version}-*.sqlite.old")
    assert (backup.stat().st_mode & 0o777) == 0o600
    conn = sqlite3.connect(backup)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == version
    conn.close()


def test_readers_read_an_old_database_without_upgrading_it(tmp_path):
    path = tmp_path / "games.sqlite"
    expected = _old_database(path, 1)
    before = path.read_bytes()
    with Store.open(path, write=False) as store:
        assert store.resume().state == expected.state
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.sqlite"]


def test_an_upgraded_database_has_the_schema_of_a_new_one(tmp_path):
    _old_database(tmp_path / "old.sqlite", 1)
    Store.open(tmp_path / "old.sqlite", overlay=overlay_copy(tmp_path)).close()
    Store.open(tmp_path / "new.sqlite", overlay=tmp_path / "overlay.json").close()

    def tables(path):
        conn = sqlite3.connect(path)
        rows = conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
        conn.close()
        return rows

    assert tables(tmp_path / "old.sqlite") == tables(tmp_path / "new.sqlite")
