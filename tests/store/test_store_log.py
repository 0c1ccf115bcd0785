"""The log: each command committed before the call returns, resume, snapshots, undo/redo
across restarts, the game list, learned catalogue values."""

from __future__ import annotations

import json
import sqlite3

import pytest
from store_helpers import LONG_GAME_OVERLAY, commands, overlay_copy, reference_game

from companion.catalogue_files import read_overlay
from companion.rules.game import Missing, Refused
from companion.store import Store, StoreError, UnknownGame


def _store(tmp_path, **options) -> Store:
    return Store.open(tmp_path / "games.sqlite", overlay=overlay_copy(tmp_path), **options)


def _play(store: Store, count: int, start: int = 0, played=None):
    played = played or store.new_game("test")
    for command in commands()[start:count]:
        played.execute(command)
    return played


def test_each_command_is_committed_before_execute_returns(tmp_path):
    store = _store(tmp_path)
    played = _play(store, 30)
    # A second connection sees every command at once: nothing waits in a buffer.
    other = sqlite3.connect(tmp_path / "games.sqlite")
    assert other.execute("SELECT COUNT(*) FROM journal").fetchone()[0] == 30
    played.execute(commands()[30])
    assert other.execute("SELECT COUNT(*) FROM journal").fetchone()[0] == 31
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert store.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    other.close()
    store.close()


def test_resume_gives_the_same_game_with_and_without_snapshots(tmp_path):
    with _store(tmp_path, snapshot_every=15) as store:
        played = _play(store, 400)
        game_id = played.id
    expected = reference_game(400)
    with Store.open(tmp_path / "games.sqlite", overlay=tmp_path / "overlay.json") as store:
        for use in (True, False):
            again = store.open_game(game_id, use_snapshots=use)
            assert again.state == expected.state
            assert again.game.steps == expected.steps
            assert again.game.undone == expected.undone
        assert store.check_snapshots(game_id) >= 10
        # Undo past the snapshots after the restart: every step comes back exactly.
        while again.game.steps:
            before = len(again.game.steps)
            again.undo()
            expected.undo()
            assert again.state == expected.state, f"undo of step {before}"


def test_a_tampered_snapshot_is_found(tmp_path):
    with _store(tmp_path, snapshot_every=15) as store:
        game_id = _play(store, 120).id
        seq, state = store.conn.execute("SELECT seq, state FROM snapshots LIMIT 1").fetchone()
        changed = json.loads(state)
        changed["players"][0]["gems"] += 1
        store.conn.execute("UPDATE snapshots SET state = ? WHERE seq = ?",
                           (json.dumps(changed), seq))
        with pytest.raises(StoreError, match="snapshot at step"):
            store.check_snapshots(game_id)


def test_undo_stays_undone_and_redo_survives_a_restart(tmp_path):
    path, overlay = tmp_path / "games.sqlite", overlay_copy(tmp_path)
    with Store.open(path, overlay=overlay, snapshot_every=5) as store:
        played = _play(store, 60)
        played.undo()
        played.execute({"cmd": "undo"})
        undone = [s.command for s in played.game.undone]
    expected = reference_game(60)
    expected.undo()
    expected.undo()
    with Store.open(path, overlay=overlay, snapshot_every=5) as store:
        played = store.resume()
        assert played.state == expected.state
        assert [s.command for s in played.game.undone] == undone
        played.redo()
        expected.redo()
        assert played.state == expected.state
    with Store.open(path, overlay=overlay, snapshot_every=5) as store:
        played = store.resume()
        assert played.state == expected.state
        assert len(played.game.undone) == 1
        # A new command ends the redo, also after a restart.
        played.execute({"cmd": "adjust", "who": "Ann", "counter": "gems", "delta": 1,
                        "note": "recount"})
    with Store.open(path, overlay=overlay) as store:
        played = store.resume()
        assert played.game.undone == []
        with pytest.raises(Refused):
            played.redo()
        journal = [json.loads(c)["cmd"] for (c,) in store.conn.execute(
            "SELECT command FROM journal ORDER BY n")]
        assert journal[-4:] == ["undo", "undo", "redo", "adjust"]


def test_refused_and_missing_commands_store_nothing(tmp_path):
    with _store(tmp_path) as store:
        played = _play(store, 40)
        before = json.dumps(played.state)
        with pytest.raises(Refused):
            played.execute({"cmd": "no_such_command"})
        assert json.dumps(played.state) == before
        assert store.conn.execute("SELECT COUNT(*) FROM journal").fetchone()[0] == 40
        for malformed in ({"cmd": "undo", "steps": 3}, {"cmd": "redo", "x": 1}, {"cmd": 7}):
            with pytest.raises(Refused, match=r"has no field|unknown command"):
                played.execute(malformed)
        assert json.dumps(played.state) == before and len(played.game.steps) == 40


def test_a_failed_commit_leaves_the_game_as_it_was(tmp_path):
    with _store(tmp_path) as store:
        played = _play(store, 40)
        played.undo()
        before = (json.dumps(played.state), len(played.game.steps), len(played.game.undone))
        store.conn.execute("CREATE TEMP TRIGGER full BEFORE INSERT ON journal "
                           "BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        with pytest.raises(StoreError, match="could not save"):
            played.execute(commands()[39])
        assert (json.dumps(played.state), len(played.game.steps),
                len(played.game.undone)) == before
        with pytest.raises(StoreError):
            played.redo()
        with pytest.raises(StoreError):
            played.undo()
        assert (json.dumps(played.state), len(played.game.steps),
                len(played.game.undone)) == before
        store.conn.execute("DROP TRIGGER full")
        played.redo()
    with Store.open(tmp_path / "games.sqlite", overlay=tmp_path / "overlay.json") as store:
        assert store.resume().state == reference_game(40).state


def test_the_game_list(tmp_path):
    with _store(tmp_path) as store:
        first = _play(store, 30)
        second = store.new_game("Friday")
        assert [g.id for g in store.games()] == [second.id, first.id]
        assert store.last_unfinished() == second.id
        first.execute({"cmd": "adjust", "who": "Ann", "counter": "points", "delta": 2,
                       "note": "recount"})
        listed = store.games()
        assert listed[0].id == first.id and store.last_unfinished() == first.id
        info = store.game_info(first.id)
        assert info.players == ["Ann", "Bob", "Cat", "Dan"]
        assert info.scores["Ann"] == first.state["players"][0]["points"]
        assert info.phase == "play" and not info.finished and info.steps == 31
        store.rename_game(first.id, "  Sunday  ")
        assert store.game_info(first.id).name == "Sunday"
        with pytest.raises(StoreError):
            store.rename_game(first.id, " ")
        store.delete_game(second.id)
        assert [g.id for g in store.games()] == [first.id]
        assert store.conn.execute("SELECT COUNT(*) FROM journal WHERE game_id = ?",
                                  (second.id,)).fetchone()[0] == 0
        with pytest.raises(UnknownGame):
            store.delete_game(second.id)
        with pytest.raises(UnknownGame):
            store.open_game(999)
        assert store.resume().id == first.id


def test_a_finished_game_is_not_resumed_and_lists_its_final_scores(tmp_path):
    with _store(tmp_path) as store:
        played = _play(store, len(commands()))
        assert played.state["phase"] == "over"
        info = store.game_info(played.id)
        assert info.finished
        assert info.scores != {p["name"]: p["points"] for p in played.state["players"]}
        assert store.last_unfinished() is None and store.resume() is None


def test_learned_values_go_to_the_users_overlay(tmp_path):
    # The user's overlay lacks one value the game needs: the command that needs it is
    # refused with a question; answered on the command, the value is stored for later games.
    full = read_overlay(LONG_GAME_OVERLAY)
    values = json.loads(LONG_GAME_OVERLAY.read_text())
    hub = values["values"]["hubs"]["B-3"]
    del hub["starting_gems"]
    overlay = tmp_path / "user-overlay.json"
    overlay.write_text(json.dumps(values))
    with Store.open(tmp_path / "games.sqlite", overlay=overlay) as store:
        played = store.new_game()
        for command in commands()[:40]:
            try:
                played.execute(command)
            except Missing as missing:
                kind, record, field = missing.key.split("/", 2)
                command["catalogue"] = {missing.key: full[kind][record][field]}
                played.execute(command)
        assert read_overlay(overlay)["hubs"]["B-3"]["starting_gems"] == \
            full["hubs"]["B-3"]["starting_gems"]
        assert played.state["learned"] == {"hubs/B-3/starting_gems": 8}
        assert {**played.state, "learned": {}} == reference_game(40).state


def test_a_reader_cannot_write(tmp_path):
    with _store(tmp_path) as store:
        _play(store, 5)
    with Store.open(tmp_path / "games.sqlite", write=False) as reader:
        played = reader.resume()
        with pytest.raises(StoreError, match="reading only"):
            played.execute(commands()[5])
        with pytest.raises(StoreError):
            reader.new_game()
