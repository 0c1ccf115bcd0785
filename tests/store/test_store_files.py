"""Files the store must not damage: a database open in another app, a foreign file, another
program's SQLite database, a newer schema, a truncated or corrupt database."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from store_helpers import commands, overlay_copy

from companion.store import (
    DamagedDatabase,
    NewerSchema,
    NoDatabase,
    NotADatabase,
    Store,
    StoreLocked,
    set_aside,
)
from companion.store.schema import SCHEMA_VERSION

REPO = Path(__file__).resolve().parent.parent.parent


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _database(tmp_path: Path, count: int = 60) -> Path:
    path = tmp_path / "games.sqlite"
    with Store.open(path, overlay=overlay_copy(tmp_path), snapshot_every=10) as store:
        played = store.new_game()
        for command in commands()[:count]:
            played.execute(command)
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


def test_a_second_writer_is_refused_at_once_with_the_pid(tmp_path):
    path = _database(tmp_path, 5)
    with Store.open(path, overlay=tmp_path / "overlay.json") as store:
        with pytest.raises(StoreLocked, match=f"pid {os.getpid()}"):
            Store.open(path)
        # Another process: a clear message, no hang, no traceback.
        code = ("import sys; from companion.store import Store, StoreError\n"
                "try:\n    Store.open(sys.argv[1])\n"
                "except StoreError as e:\n    print(e); sys.exit(2)\n")
        done = subprocess.run([sys.executable, "-c", code, str(path)], cwd=REPO, timeout=60,
                              capture_output=True, text=True)
        assert done.returncode == 2
        assert f"already open in another Phoenix Companion (pid {os.getpid()})" in done.stdout
        # Readers are welcome while the app runs, and see every committed step.
        with Store.open(path, write=False) as reader:
            assert reader.resume().journal == 5
        store.resume().execute(commands()[5])
        with Store.open(path, write=False) as reader:
            assert reader.resume().journal == 6
    with Store.open(path) as again:  # closed: free again
        assert again.writable


def test_missing_database_for_reading(tmp_path):
    with pytest.raises(NoDatabase):
        Store.open(tmp_path / "none.sqlite", write=False)
    assert not (tmp_path / "none.sqlite").exists()


@pytest.mark.parametrize("content", [b"hello, this is a text file\n" * 40, b"\x00" * 4096,
                                     b"PK\x03\x04" + b"zip" * 500])
def test_a_foreign_file_is_refused_and_untouched(tmp_path, content):
    path = tmp_path / "games.sqlite"
    path.write_bytes(content)
    before = _digest(path)
    for write in (True, False):
        with pytest.raises(NotADatabase, match="not a Phoenix Companion database"):
            Store.open(path, write=write)
    assert _digest(path) == before


def test_another_programs_sqlite_database_is_refused_and_untouched(tmp_path):
    path = tmp_path / "games.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.commit()
    conn.close()
    before = _digest(path)
    with pytest.raises(NotADatabase, match="another program"):
        Store.open(path)
    assert _digest(path) == before


def test_a_newer_schema_is_refused_and_untouched(tmp_path):
    path = _database(tmp_path, 5)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    before = _digest(path)
    with pytest.raises(NewerSchema, match="newer Phoenix Companion"):
        Store.open(path, overlay=tmp_path / "overlay.json")
    with pytest.raises(NewerSchema):
        Store.open(path, write=False)
    assert _digest(path) == before


@pytest.mark.parametrize("keep", [0, 50, 2000, 0.5])
def test_a_truncated_database_is_refused_and_untouched(tmp_path, keep):
    path = _database(tmp_path)
    data = path.read_bytes()
    cut = int(len(data) * keep) if isinstance(keep, float) else keep
    path.write_bytes(data[:cut])
    before = _digest(path)
    with pytest.raises(DamagedDatabase):
        Store.open(path, overlay=tmp_path / "overlay.json")
    assert _digest(path) == before


def test_a_corrupt_database_is_refused_and_untouched(tmp_path):
    path = _database(tmp_path)
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    for offset in range(page, len(data), 7):  # every page but the first: garbage
        data[offset] = 0x5A
    path.write_bytes(bytes(data))
    before = _digest(path)
    with pytest.raises(DamagedDatabase, match="damaged"):
        Store.open(path, overlay=tmp_path / "overlay.json")
    assert _digest(path) == before


def test_an_unusable_database_is_kept_aside_and_a_fresh_one_started(tmp_path):
    path = _database(tmp_path)
    path.write_bytes(path.read_bytes()[:3000])
    before = _digest(path)
    with pytest.raises(DamagedDatabase) as refused:
        Store.open(path, overlay=tmp_path / "overlay.json")
    assert "start a fresh database" in str(refused.value)
    kept = set_aside(path)
    assert kept.parent == path.parent and kept != path and kept.name.startswith("games-")
    assert _digest(kept) == before
    with Store.open(path, overlay=tmp_path / "overlay.json") as fresh:
        assert fresh.games() == []
        assert fresh.integrity_check() == ["ok"]
    assert _digest(kept) == before
    assert set_aside(path) != kept  # a second one gets its own name


def test_set_aside_is_refused_while_open(tmp_path):
    path = _database(tmp_path, 3)
    with Store.open(path, overlay=tmp_path / "overlay.json"), pytest.raises(StoreLocked):
        set_aside(path)
    assert path.exists()


def test_a_database_left_mid_creation_is_not_used(tmp_path):
    # Creation builds the file beside the final name and renames it: a leftover is ignored.
    path = tmp_path / "games.sqlite"
    (tmp_path / "games.sqlite.creating").write_bytes(b"half")
    with Store.open(path, overlay=overlay_copy(tmp_path)) as store:
        assert store.games() == []
    assert not (tmp_path / "games.sqlite.creating").exists()
