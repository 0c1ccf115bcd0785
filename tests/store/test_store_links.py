"""Links and odd files where the store writes (issue 28, class 1 and the store's part of class
2): a database with a second name (a hard link), a lock, -wal, -shm or -journal path that is a
link to another file, and `games --db LINK --start-fresh`. Each is refused with a message
saying why and what to do, before anything is written; the other file keeps its content."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from store_helpers import digest, one_game_db, run_cli, script_file

from companion.store import Store, StoreError

REPO = Path(__file__).resolve().parent.parent.parent
COUNT = 12


@pytest.fixture
def db(tmp_path) -> Path:
    return one_game_db(tmp_path, COUNT)


@pytest.fixture
def script(tmp_path) -> Path:
    return script_file(tmp_path, 3)


@pytest.mark.parametrize("through", ["own name", "second name"])
def test_a_hard_linked_database_is_never_written(db, script, capsys, through):
    """The issue's case: stored through one name, lost through the other. Neither name writes;
    reading (games, export) still works so the games can be copied out."""
    other = db.parent / "second.sqlite"
    os.link(db, other)
    before = digest(db)
    path = db if through == "own name" else other
    overlay = str(db.parent / "overlay.json")
    code, out, err = run_cli(capsys, "--overlay", overlay, "replay", str(script), "--db", str(path))
    assert code == 2 and out == ""
    assert err.startswith(f"phoenix-companion: {path}: the database has another name (a hard "
                          "link to the same file)")
    assert "a game stored through one name can be lost" in err
    assert "cp --no-preserve=links" in err and "export each game and import it" in err
    with pytest.raises(StoreError, match="has another name"):
        Store.open(path, overlay=overlay)
    assert digest(db) == before and os.stat(db).st_nlink == 2
    assert not os.path.lexists(f"{path}-wal") and not os.path.lexists(f"{path}-shm")
    code, out, _ = run_cli(capsys, "--overlay", overlay, "games", "--db", str(path))
    assert code == 0 and "Friday" in out
    record = db.parent / "friday.json"
    assert run_cli(capsys, "--overlay", overlay, "export", "--game", "1", "--db", str(path),
                "-o", str(record))[0] == 0
    code, _, _ = run_cli(capsys, "--overlay", overlay, "import", str(record), "--db",
                      str(db.parent / "fresh.sqlite"))
    assert code == 0
    assert digest(db) == before


def test_the_copy_the_message_suggests_is_usable(db, capsys):
    other = db.parent / "second.sqlite"
    os.link(db, other)
    copy = db.parent / "copy.sqlite"
    subprocess.run(["cp", "--no-preserve=links", str(db), str(copy)], check=True)
    with Store.open(copy, overlay=db.parent / "overlay.json") as store:
        assert store.resume().journal == COUNT


@pytest.mark.parametrize("sidecar", ["-wal", "-shm", "-journal", ".lock"])
@pytest.mark.parametrize("kind", ["symbolic link", "hard link"])
def test_nothing_is_written_through_a_link_beside_the_database(db, script, capsys, sidecar,
                                                                kind):
    """A -wal, -shm, -journal or lock path that is a link to another file: the writer refuses
    before SQLite opens it, and the other file keeps its content."""
    victim = db.parent / "elsewhere" / "precious.txt"
    victim.parent.mkdir()
    victim.write_bytes(b"keep me\n")
    link = db.with_name(db.name + sidecar)
    link.unlink(missing_ok=True)
    if kind == "symbolic link":
        link.symlink_to(victim)
    else:
        os.link(victim, link)
    before = digest(db)
    code, out, err = run_cli(capsys, "--overlay", str(db.parent / "overlay.json"), "replay",
                          str(script), "--db", str(db))
    assert code == 2 and out == ""
    assert err.startswith(f"phoenix-companion: {link}: ") and err.count("\n") == 1
    if kind == "hard link":
        assert "has another name (a hard link to the same file)" in err
    else:
        assert "symbolic link" in err or "not a regular file of its own" in err
    assert victim.read_bytes() == b"keep me\n"
    assert digest(db) == before


def test_a_fifo_as_the_wal_is_refused_without_hanging(db, script):
    wal = db.with_name(db.name + "-wal")
    os.mkfifo(wal)
    done = subprocess.run([sys.executable, "-m", "companion.cli", "--overlay",
                           str(db.parent / "overlay.json"), "replay", str(script), "--db",
                           str(db)], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"phoenix-companion: {wal}: the -wal file is not a regular "
                                  "file of its own")


def test_start_fresh_through_a_link_renames_nothing_elsewhere(tmp_path, capsys):
    """`games --db LINK --start-fresh`: nothing renamed or locked in the link's folder."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = elsewhere / "games.sqlite"
    target.write_bytes(b"not a database at all\n")
    link = tmp_path / "games.sqlite"
    link.symlink_to(target)
    code, out, err = run_cli(capsys, "games", "--db", str(link), "--start-fresh")
    assert code == 2 and out == ""
    assert err == (f"phoenix-companion: {link}: a symbolic link to {target}; a database is kept "
                   f"aside (renamed) only when given by its own path: use --db {target} if that "
                   "is the one meant\n")
    assert sorted(p.name for p in elsewhere.iterdir()) == ["games.sqlite"]
    assert target.read_bytes() == b"not a database at all\n"
    assert link.is_symlink()


def test_the_lock_file_as_a_hard_link_is_refused(db, capsys):
    victim = db.parent / "notes.txt"
    victim.write_bytes(b"shopping list\n")
    lock = db.with_name(db.name + ".lock")
    lock.unlink()
    os.link(victim, lock)
    with pytest.raises(StoreError, match="the lock file has another name"):
        Store.open(db, overlay=db.parent / "overlay.json")
    assert victim.read_bytes() == b"shopping list\n"
