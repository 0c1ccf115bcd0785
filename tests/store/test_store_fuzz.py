"""Fuzzing stored games: corrupt one random row or byte of a database; every command then either
works or refuses with exit code 2 and one message (never a traceback), and a database that is
refused is left byte-identical with nothing created beside it."""

from __future__ import annotations

import functools
import json
import shutil
import sqlite3
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_helpers import commands, overlay_copy

from companion.cli import main
from companion.store import Store

TABLES = {"games": ("name", "created", "updated", "head", "overlay", "phase", "players",
                    "scores"),
          "steps": ("at", "command", "events", "inverse", "crc"),
          "journal": ("at", "command", "crc"),
          "snapshots": ("state", "crc")}


@functools.cache
def _original(folder: Path) -> bytes:
    """A database of one game (40 commands, snapshots every 10 events), as bytes."""
    path = folder / "original.sqlite"
    with Store.open(path, overlay=overlay_copy(folder), snapshot_every=10) as store:
        played = store.new_game("Fuzz")
        for command in commands()[:40]:
            played.execute(command)
    return path.read_bytes()


def _corrupt_row(path: Path, data, table: str) -> None:
    """Change one column of one row of `table` the way a bit flip or an edit would."""
    conn = sqlite3.connect(path, isolation_level=None)
    rowids = [r[0] for r in conn.execute(f"SELECT rowid FROM {table}")] if table == "games" \
        else [r for r in conn.execute(f"SELECT game_id, {'n' if table == 'journal' else 'seq'} "
                                      f"FROM {table}")]
    column = data.draw(st.sampled_from(TABLES[table]))
    where = "rowid = ?" if table == "games" else \
        f"game_id = ? AND {'n' if table == 'journal' else 'seq'} = ?"
    key = data.draw(st.sampled_from(rowids))
    key = key if isinstance(key, tuple) else (key,)
    (value,) = conn.execute(f"SELECT {column} FROM {table} WHERE {where}", key).fetchone()
    if isinstance(value, str) and value:
        at = data.draw(st.integers(0, len(value) - 1))
        flipped = chr(ord(value[at]) ^ (1 << data.draw(st.integers(0, 6))))
        value = value[:at] + flipped + value[at + 1:]
    else:
        value = data.draw(st.sampled_from([value + 1 if isinstance(value, int) else 1, -1, "x",
                                           b"\x00", None, "{}"]))
    try:
        conn.execute(f"UPDATE {table} SET {column} = ? WHERE {where}", (value, *key))
    except sqlite3.IntegrityError:  # a NOT NULL or CHECK constraint: try another kind of damage
        conn.execute(f"UPDATE {table} SET {column} = '[]' WHERE {where}", key)
    conn.close()


def _run(capsys, *argv: str) -> int:
    code = main(list(argv))
    _, err = capsys.readouterr()
    assert code in (0, 2), (argv, err)
    assert "Traceback" not in err
    assert code == 0 or (err.startswith("phoenix-companion: ") and err.count("\n") == 1), err
    return code


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_a_corrupted_database_works_or_is_refused_untouched(tmp_path_factory, capsys, data):
    base = tmp_path_factory.getbasetemp() / "fuzz"
    base.mkdir(exist_ok=True)
    original = _original(base)
    folder = Path(tmp_path_factory.mktemp("case"))
    path = folder / "games.sqlite"
    path.write_bytes(original)
    shutil.copy(base / "overlay.json", folder / "overlay.json")
    if data.draw(st.booleans(), label="a byte of the file, else a row"):
        damaged = bytearray(original)
        at = data.draw(st.integers(0, len(damaged) - 1), label="offset")
        damaged[at] ^= 1 << data.draw(st.integers(0, 7), label="bit")
        path.write_bytes(bytes(damaged))
    else:
        _corrupt_row(path, data, data.draw(st.sampled_from(sorted(TABLES)), label="table"))
    script = folder / "more.jsonl"
    script.write_text("\n".join(json.dumps(c) for c in commands()[:3]) + "\n")
    overlay = ["--overlay", str(folder / "overlay.json")]
    readers = [["games"], ["show", "--json"], ["export", "--game", "1"],
               ["export", "--game", "1", "--format", "csv"]]
    for argv in readers:
        before = path.read_bytes()
        _run(capsys, *overlay, *argv, "--db", str(path))
        assert path.read_bytes() == before, argv  # readers never write
        assert not path.with_name("games.sqlite-wal").exists()
    before = path.read_bytes()
    if _run(capsys, *overlay, "replay", str(script), "--db", str(path)) == 2:
        assert path.read_bytes() == before  # refused: nothing written into it
