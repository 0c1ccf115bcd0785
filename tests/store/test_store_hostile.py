"""Game databases under careless or crafted input, through the real command line: each case is
what a user does and the one message they see (exit code 2, no traceback), and a file that is
refused is left byte-identical with nothing created beside it."""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from store_helpers import commands, digest, one_game_db, overlay_copy, run_cli, script_file

from companion.store import Store, StoreError, StoreLocked
from companion.store.export import record_digest
from companion.store.schema import APPLICATION_ID, row_crc

REPO = Path(__file__).resolve().parent.parent.parent
COUNT = 40


@pytest.fixture
def db(tmp_path) -> Path:
    """A database holding one game of COUNT commands (snapshots every 10 events)."""
    return one_game_db(tmp_path, COUNT, snapshot_every=10)


@pytest.fixture
def script(tmp_path) -> Path:
    return script_file(tmp_path, 5)


def _tamper(path: Path, sql: str, *params: object) -> None:
    conn = sqlite3.connect(path)
    conn.execute(sql, params)
    conn.commit()
    conn.close()


def _every_command_refuses(capsys, path: Path, script: Path, message: str) -> None:
    """games, show, export (3 formats) and replay --db: exit 2 naming the file and `message`;
    the file byte-identical and no -wal/-shm beside it."""
    before = digest(path)
    overlay = str(path.parent / "overlay.json")
    for argv in (["games"], ["show"], ["export", "--game", "1"],
                 ["export", "--game", "1", "--format", "csv"],
                 ["export", "--game", "1", "--format", "bgstats"]):
        code, out, err = run_cli(capsys, "--overlay", overlay, *argv, "--db", str(path))
        assert code == 2 and out == ""
        assert err.startswith(f"phoenix-companion: {path}: ") and message in err, err
    code, _, err = run_cli(capsys, "--overlay", overlay, "replay", str(script), "--db", str(path))
    assert code == 2 and message in err
    assert digest(path) == before
    assert sorted(p.name for p in path.parent.glob("games.sqlite*")) == [
        "games.sqlite", "games.sqlite.lock"]


@pytest.mark.parametrize("tamper", [
    "UPDATE steps SET events = 'garbage' WHERE seq = 3",
    "UPDATE snapshots SET state = '{}'",
    "UPDATE journal SET at = 'yesterday' WHERE n = 2",
    "UPDATE steps SET command = replace(command, 'Ann', 'Anx') WHERE seq = 1",
])
def test_a_tampered_row_is_refused_by_every_command(db, script, capsys, tamper):
    _tamper(db, tamper)
    _every_command_refuses(capsys, db, script, "does not match its check value")


def test_a_bit_flip_inside_a_row_is_refused(db, script, capsys):
    data = bytearray(db.read_bytes())
    at = data.rfind(b'"cmd":"new_game"')
    data[at + 8] ^= 0x01  # new_game -> oew_game, inside a stored step: valid SQLite still
    db.write_bytes(bytes(data))
    _every_command_refuses(capsys, db, script, "damaged")


def test_a_dropped_table_is_refused(db, script, capsys):
    _tamper(db, "DROP TABLE snapshots")
    _every_command_refuses(capsys, db, script, "its tables are not the ones Phoenix Companion "
                                               "writes")


def test_a_bit_flip_in_the_schema_text_is_refused_before_any_write(db, script, capsys):
    """A flipped bit in a table's SQL ("REFERENCES games" -> "fames") still reads, and would
    fail only at the first write, after the new game was begun: refused on open instead."""
    data = bytearray(db.read_bytes())
    at = data.find(b"REFERENCES games")
    data[at + len("REFERENCES ")] ^= 0x01
    db.write_bytes(bytes(data))
    _every_command_refuses(capsys, db, script, "its tables are not the ones Phoenix Companion "
                                               "writes")


def test_a_crafted_row_with_a_matching_check_value_is_still_checked(db, script, capsys):
    # Someone recomputes the check value: the time is still not a time.
    row = (1, 2, "garbage time", json.dumps({"cmd": "end_turn"}))
    _tamper(db, "UPDATE journal SET at = ?, command = ?, crc = ? WHERE game_id = 1 AND n = 2",
            row[2], row[3], row_crc(row))
    _every_command_refuses(capsys, db, script, "journal row 2 is damaged")


def test_a_crafted_file_with_our_mark_and_no_tables_is_not_switched_to_wal(tmp_path, script,
                                                                            capsys):
    path = tmp_path / "games.sqlite"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 4")
    conn.close()
    before = digest(path)
    code, _, err = run_cli(capsys, "replay", str(script), "--db", str(path))
    assert code == 2 and "its tables are not the ones Phoenix Companion writes" in err
    assert digest(path) == before  # still in rollback-journal mode: header untouched
    assert not (tmp_path / "games.sqlite-wal").exists()


def test_readers_create_nothing_beside_a_database(db, capsys):
    assert sorted(p.name for p in db.parent.glob("games.sqlite*")) == [
        "games.sqlite", "games.sqlite.lock"]
    before = digest(db)
    assert run_cli(capsys, "games", "--db", str(db))[0] == 0
    assert run_cli(capsys, "show", "--db", str(db), "--json")[0] == 0
    assert digest(db) == before
    assert sorted(p.name for p in db.parent.glob("games.sqlite*")) == [
        "games.sqlite", "games.sqlite.lock"]


@pytest.mark.parametrize("argument, message", [
    ("", "argument --db: give the path of a game database file (it is empty)"),
    (".", ".: a folder, not a game database; give a file path with --db"),
])
def test_an_empty_path_or_a_folder_is_not_a_database(capsys, argument, message):
    for argv in (["games", "--db", argument], ["show", "--db", argument]):
        code, _, err = _cli_exit(capsys, *argv)
        assert code == 2 and message in err


def _cli_exit(capsys, *argv: str) -> tuple[int, str, str]:
    """Like _cli, for errors argparse reports (it exits)."""
    try:
        return run_cli(capsys, *argv)
    except SystemExit as done:
        out, err = capsys.readouterr()
        return int(done.code or 0), out, err


def test_a_folder_where_the_lock_file_goes(tmp_path, script, capsys):
    (tmp_path / "games.sqlite.lock").mkdir()
    code, _, err = run_cli(capsys, "replay", str(script), "--db", str(tmp_path / "games.sqlite"))
    assert code == 2
    assert "games.sqlite.lock: the lock file is a folder; remove or rename it" in err


def test_the_lock_file_is_never_written_through_a_link(tmp_path, script, capsys):
    victim = tmp_path / "precious.txt"
    victim.write_text("precious\n")
    (tmp_path / "games.sqlite.lock").symlink_to(victim)
    code, _, err = run_cli(capsys, "replay", str(script), "--db", str(tmp_path / "games.sqlite"))
    assert code == 2
    assert ("the lock file is a symbolic link; Phoenix Companion does not write through links"
            in err)
    assert victim.read_text() == "precious\n"
    assert not (tmp_path / "games.sqlite").exists()


def test_a_dangling_link_at_the_database_path(tmp_path, script, capsys):
    (tmp_path / "games.sqlite").symlink_to(tmp_path / "nowhere.sqlite")
    for argv in (["games"], ["replay", str(script)]):
        code, _, err = run_cli(capsys, *argv, "--db", str(tmp_path / "games.sqlite"))
        assert code == 2 and "a symbolic link to" in err and "which does not exist" in err
    assert not (tmp_path / "nowhere.sqlite").exists()


def test_a_fifo_at_the_database_path_is_refused_without_hanging(tmp_path, script):
    fifo = tmp_path / "games.sqlite"
    os.mkfifo(fifo)
    for argv in (["games"], ["show"], ["replay", str(script)]):
        done = subprocess.run([sys.executable, "-m", "companion.cli", *argv, "--db", str(fifo)],
                              cwd=REPO, capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, done.stderr
        assert done.stderr == (f"phoenix-companion: {fifo}: a FIFO, not a game database file; "
                               "give the path of a database file with --db\n")


def test_one_writer_whatever_the_path(db):
    """(A hard link is refused outright: tests/store/test_store_links.py.)"""
    other = db.parent / "other.sqlite"
    other.symlink_to(db)
    overlay = db.parent / "overlay.json"
    with Store.open(db, overlay=overlay), pytest.raises(
            StoreLocked, match="already open in another Phoenix Companion"):
        Store.open(other, overlay=overlay)
    with Store.open(other, overlay=overlay) as store:  # free again once closed
        assert store.resume().journal == COUNT


def test_created_files_are_private(tmp_path, script, capsys):
    folder = tmp_path / "data"
    path = folder / "games.sqlite"
    assert run_cli(capsys, "--overlay", str(overlay_copy(tmp_path)), "replay", str(script),
                "--db", str(path))[0] == 0
    with Store.open(path, overlay=tmp_path / "overlay.json") as store:
        store.resume()
        modes = {p.name: p.stat().st_mode & 0o777 for p in folder.iterdir()}
    assert folder.stat().st_mode & 0o777 == 0o700
    assert modes == {"games.sqlite": 0o600, "games.sqlite.lock": 0o600,
                     "games.sqlite-wal": 0o600, "games.sqlite-shm": 0o600}


def test_games_warns_when_the_wal_was_deleted_by_hand(db, capsys):
    db.with_name("games.sqlite-shm").write_bytes(b"\0" * 32768)
    code, out, err = run_cli(capsys, "games", "--db", str(db))
    assert code == 0 and "Friday" in out
    assert (f"phoenix-companion: warning: {db}-shm exists without games.sqlite-wal: if "
            "games.sqlite-wal was deleted by hand, the steps committed since the last checkpoint "
            "are lost") in err


def test_names_are_printed_escaped(db, capsys):
    _tamper(db, "UPDATE games SET name = ?", "\x1b[2J\x1b]0;pwned\x07 night")
    code, out, _ = run_cli(capsys, "games", "--db", str(db))
    assert code == 0 and "\x1b" not in out and "\x07" not in out
    assert "\\x1b[2J\\x1b]0;pwned\\x07 night" in out
    code, out, _ = run_cli(capsys, "show", "--db", str(db))
    assert code == 0 and "\x1b" not in out and "Game 1: \\x1b[2J" in out


@pytest.mark.parametrize("name, message", [
    ("A" * 41, "player 1's name is 41 characters long; at most 40 are allowed"),
    ("Ann\x1b[31m", "player 1's name cannot contain control characters (Ann\\x1b[31m)"),
    ("Ann\ud800", "the text 'Ann\\ud800' holds a lone surrogate"),
])
def test_a_bad_player_name_is_refused_with_its_reason(tmp_path, capsys, name, message):
    first = commands()[0]
    first["players"][0]["name"] = name
    path = tmp_path / "names.jsonl"
    path.write_text(json.dumps(first) + "\n")  # a lone surrogate is written as \\ud800
    code, _, err = run_cli(capsys, "replay", str(path), "--db", str(tmp_path / "g.sqlite"))
    assert code == 2 and "line 1" in err and message in err


def test_output_to_a_full_device(db):
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "companion.cli", "games", "--db", str(db)],
                              cwd=REPO, stdout=full, stderr=subprocess.PIPE, text=True,
                              timeout=60)
    assert done.returncode == 2
    assert done.stderr == "phoenix-companion: cannot write the output (No space left on device)\n"


@pytest.mark.parametrize("target", ["/dev/null", "folder", "link"])
def test_export_never_replaces_anything_but_a_regular_file(db, capsys, target):
    if target == "folder":
        target = str(db.parent)
    elif target == "link":
        victim = db.parent / "victim.txt"
        victim.write_text("keep me\n")
        (db.parent / "link.json").symlink_to(victim)
        target = str(db.parent / "link.json")
    code, _, err = run_cli(capsys, "export", "--db", str(db), "--game", "1", "-o", target)
    assert code == 2
    assert f"phoenix-companion: {target}: is a" in err
    assert "not a regular file; nothing was written (choose a file name)" in err
    if target.endswith("link.json"):
        assert (db.parent / "victim.txt").read_text() == "keep me\n"


# -- tampered records -------------------------------------------------------------------------

def _record(db: Path, capsys) -> dict:
    code, out, _ = run_cli(capsys, "export", "--db", str(db), "--game", "1")
    assert code == 0
    return json.loads(out)


def _import(capsys, record: dict, folder: Path, *flags: str) -> tuple[int, str, str]:
    path = folder / "record.json"
    path.write_text(json.dumps(record))
    return run_cli(capsys, "import", str(path), "--db", str(folder / "other.sqlite"), *flags)


def test_a_record_changed_after_export_is_refused(db, capsys, tmp_path):
    record = _record(db, capsys)
    record["commands"] = record["commands"][:-3]
    record["score_sheet"] = None
    code, _, err = _import(capsys, record, tmp_path)
    assert code == 2 and ("the record was changed after it was exported (its digest does not "
                          "match its content); nothing was imported") in err


def test_a_record_without_a_digest_needs_the_flag_and_is_still_checked(db, capsys, tmp_path):
    record = _record(db, capsys)
    del record["digest"]
    code, _, err = _import(capsys, record, tmp_path)
    assert code == 2 and "this record has no digest" in err and "--no-digest" in err
    code, out, _ = _import(capsys, record, tmp_path, "--no-digest")
    assert code == 0 and "without a digest check (--no-digest" in out
    # Without a digest every field is still checked: commands removed do not end the same.
    record["commands"] = record["commands"][:-3]
    code, _, err = _import(capsys, record, tmp_path, "--no-digest")
    assert code == 2 and "does not end as the record says" in err


@pytest.mark.parametrize("change, message", [
    (lambda r: r.update(commands=[]), "\"commands\" must be a list"),
    (lambda r: r["commands"][3].update(at="garbage"), "command 4: \"at\" must be a time"),
    (lambda r: r["commands"][3].update(at="2020-01-01T00:00:00.000+00:00"),
     "not earlier than the command before"),
    (lambda r: r["game"].update(name="x" * 41), "game.name is 41 characters long"),
    (lambda r: r["game"].update(created="soon"), "game.created must be a time"),
    (lambda r: r.update(extra=1), "unknown field 'extra'"),
    (lambda r: r.update(version=True), "unsupported version True"),
    (lambda r: r.update(exported="9999-12-31T23:59:59.999+00:00"),
     "exported is 9999-12-31T23:59:59.999+00:00, before 2020 or more than a day after now"),
    (lambda r: r["game"].update(created="2019-12-31T23:59:59.999+00:00"),
     "game.created is 2019-12-31T23:59:59.999+00:00, before 2020"),
    (lambda r: r["commands"][-1].update(at="9999-01-01T00:00:00.000+00:00"),
     f"command {COUNT}'s \"at\" is 9999-01-01T00:00:00.000+00:00, before 2020 or more "
     "than a day after now; if the clock of the device that exported it was wrong, correct it "
     "and export again"),
    (lambda r: r["commands"][2]["command"].update(note="n" * 10_001),
     "command 3: the command's note is 10001 characters long; a text in a command may be at "
     "most 10000: shorten it (nothing was stored)"),
])
def test_every_field_of_a_record_is_checked(db, capsys, tmp_path, change, message):
    record = _record(db, capsys)
    change(record)
    record["digest"] = record_digest(record)
    code, _, err = _import(capsys, record, tmp_path)
    assert code == 2 and message in err, err
    assert not (tmp_path / "other.sqlite").exists() or Store.open(
        tmp_path / "other.sqlite", write=False).games() == []


# -- a read-only folder -----------------------------------------------------------------------

def _without_root_powers() -> None:
    """In the child: drop the capabilities that let root write into a read-only folder
    (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER) from the bounding set before exec."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2, 3):
        libc.prctl(24, capability, 0, 0, 0)  # PR_CAPBSET_DROP


def _read_only_user() -> dict:
    """subprocess options under which a folder without write permission is read-only (root
    bypasses permissions unless it drops the capabilities that allow it)."""
    return {"preexec_fn": _without_root_powers} if os.geteuid() == 0 else {}


def test_a_good_database_in_a_read_only_folder_says_so(db, script):
    folder = db.parent
    shutil.copy(script, folder.parent / "more.jsonl")
    user = _read_only_user()
    os.chmod(folder, 0o555)
    try:
        def run(*argv: str) -> subprocess.CompletedProcess:
            return subprocess.run([sys.executable, "-m", "companion.cli", *argv, "--db", str(db)],
                                  cwd=REPO, capture_output=True, text=True, timeout=60,
                                  env={**os.environ, "PHOENIX_COMPANION_HOME": str(folder)},
                                  **user)
        listed = run("games")
        assert listed.returncode == 0 and "Friday" in listed.stdout
        for argv in (["replay", str(folder.parent / "more.jsonl")], ["games", "--start-fresh"]):
            done = run(*argv)
            assert done.returncode == 2
            assert "read-only" in done.stderr and "are not damaged" in done.stderr
            assert "start-fresh" not in done.stderr
    finally:
        os.chmod(folder, 0o755)


def test_start_fresh_that_cannot_rename_says_so(db):
    folder = db.parent
    db.write_bytes(db.read_bytes()[:3000])
    user = _read_only_user()
    os.chmod(folder, 0o555)
    try:
        done = subprocess.run([sys.executable, "-m", "companion.cli", "games", "--start-fresh",
                               "--db", str(db)], cwd=REPO, capture_output=True, text=True,
                              timeout=60, **user)
    finally:
        os.chmod(folder, 0o755)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "cannot keep it aside as games-" in done.stderr
    assert "make its folder writable, or move the file away yourself" in done.stderr


# -- records and notes (issue 28, class 7) ----------------------------------------------------

def test_a_key_given_twice_is_refused_and_named(db, capsys, tmp_path):
    """JSON readers differ on which of two equal keys wins: refused, never last-wins."""
    record = _record(db, capsys)
    text = json.dumps(record)
    path = tmp_path / "record.json"
    path.write_text(text.replace('"version": 1', '"version": 1, "version": 2', 1))
    code, out, err = run_cli(capsys, "import", str(path), "--db", str(tmp_path / "other.sqlite"))
    assert code == 2 and out == ""
    assert err == (f"phoenix-companion: {path}: not usable JSON: the key 'version' appears twice "
                   "in one object; keep one\n")


def test_a_far_future_record_cannot_take_over_the_resume(db, capsys, tmp_path):
    """A crafted unfinished record with every time in year 9999 would be listed first and
    resumed; it is refused, and the game being played stays the one resumed."""
    record = _record(db, capsys)
    future = "9999-12-31T23:59:59.999+00:00"
    record["exported"] = record["game"]["created"] = record["game"]["updated"] = future
    for entry in record["commands"]:
        entry["at"] = future
    record["digest"] = record_digest(record)
    path = tmp_path / "future.json"
    path.write_text(json.dumps(record))
    code, _, err = run_cli(capsys, "import", str(path), "--db", str(db))
    assert code == 2 and "more than a day after now" in err
    with Store.open(db, overlay=db.parent / "overlay.json") as store:
        assert [g.id for g in store.games()] == [1] and store.resume().id == 1


def test_a_game_with_non_ascii_notes_exports_as_utf8_and_imports_back_equal(tmp_path, capsys):
    path = tmp_path / "games.sqlite"
    note = "é" * 10_000
    with Store.open(path, overlay=overlay_copy(tmp_path)) as store:
        played = store.new_game("Notes")
        for number, command in enumerate(commands()[:COUNT]):
            if number == COUNT - 1:
                command["note"] = note
            played.execute(command)
    out = tmp_path / "notes.json"
    code, _, _ = run_cli(capsys, "export", "--db", str(path), "--game", "1", "-o", str(out))
    assert code == 0
    data = out.read_bytes()
    assert note.encode("utf-8") in data and b"\\u00e9" not in data
    assert len(data) < 2 * len(note.encode("utf-8")) + 40_000
    code, _, err = run_cli(capsys, "import", str(out), "--db", str(path))
    assert code == 0, err
    with Store.open(path, overlay=tmp_path / "overlay.json", write=False) as store:
        first, second = store.open_game(1), store.open_game(2)
        assert second.state == first.state
        assert [s.command for s in second.game.steps] == [s.command for s in first.game.steps]
        assert second.game.steps[-1].command["note"] == note


def test_a_note_too_long_is_refused_and_nothing_stored(db, capsys, tmp_path):
    overlay = db.parent / "overlay.json"
    with Store.open(db, overlay=overlay) as store:
        played = store.resume()
        command = commands()[COUNT]
        with pytest.raises(StoreError, match=r"the command's note is 10001 characters long; a "
                                             r"text in a command may be at most 10000"):
            played.execute({**command, "note": "x" * 10_001})
        assert played.journal == COUNT
    script = tmp_path / "long-note.jsonl"
    script.write_text(json.dumps({**commands()[0], "note": "x" * 20_000}) + "\n")
    code, _, err = run_cli(capsys, "--overlay", str(overlay), "replay", str(script), "--db",
                        str(tmp_path / "fresh.sqlite"))
    assert code == 2 and "the command's note is 20000 characters long" in err


def test_a_game_full_of_notes_is_refused_and_nothing_stored(db, monkeypatch):
    """50 MB of notes made a 143 MiB database: a game holds at most MAX_GAME_TEXT characters
    of commands (lowered here so the test stays small)."""
    import companion.store.db as store_db

    with Store.open(db, overlay=db.parent / "overlay.json") as store:
        played = store.resume()
        used = store.conn.execute("SELECT SUM(LENGTH(command)) FROM journal").fetchone()[0]
        monkeypatch.setattr(store_db, "MAX_GAME_TEXT", used + 5_000)
        command = commands()[COUNT]
        with pytest.raises(StoreError, match="one game may hold at most"):
            played.execute({**command, "note": "x" * 6_000})
        assert played.journal == COUNT
        played.execute({**command, "note": "x" * 100})
        assert played.journal == COUNT + 1
