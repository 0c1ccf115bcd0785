"""Stored events carry messages (a key and its parameters), worded when shown: a game stored in
English reads in German with its rows untouched and nothing replayed; a game stored before events
carried messages (its events' words as played, `"text"`) opens, shows its log, and goes on."""

from __future__ import annotations

import copy
import json
import sqlite3

from store_helpers import commands, overlay_copy, reference_game

from companion import i18n
from companion.rules.game import Game
from companion.rules.message import event_text, say
from companion.rules.report import summary
from companion.rules.state import Event
from companion.store import Store
from companion.store.db import dumps
from companion.store.schema import row_crc

COUNT = 75  # the long game's first commands: setup, turns, an undo and a redo among them
OVERRIDE = {"cmd": "end_turn", "override": "the table moves on"}


def rows(path) -> dict[str, list]:
    """Every row of the store's tables."""
    conn = sqlite3.connect(path)
    try:
        return {table: conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
                for table in ("games", "steps", "journal", "snapshots")}
    finally:
        conn.close()


def texts(steps) -> list[list[str]]:
    return [[event_text(e) for e in step.events] for step in steps]


def stored_game(path, overlay) -> int:
    """The long game's first commands, two turns ended in spite of the rules (an override's
    note) and one step undone, stored at `path`; the game's id."""
    with Store.open(path, overlay=overlay, snapshot_every=40) as store:
        played = store.new_game("test")
        for command in [*commands()[:COUNT], OVERRIDE, OVERRIDE]:
            played.execute(command)
        assert played.state["notes"]
        played.undo()  # one step to redo
        return played.id


def test_a_stored_english_game_reads_in_german_and_the_store_is_untouched(tmp_path,
                                                                          english_after,
                                                                          monkeypatch):
    path, overlay = tmp_path / "games.sqlite", overlay_copy(tmp_path)
    game_id = stored_game(path, overlay)
    stored = rows(path)
    assert stored["snapshots"]  # the state is also stored whole: it must stay the same
    with Store.open(path, overlay=overlay) as store:
        english = texts(store.open_game(game_id).game.steps)

    i18n.set_language("de")
    expected = reference_game(COUNT)  # played in German
    expected.execute(copy.deepcopy(OVERRIDE))
    monkeypatch.setattr(Game, "perform", None)  # nothing is replayed to open it or read it
    with Store.open(path, overlay=overlay) as store:
        played = store.open_game(game_id)
        german = texts(played.game.steps)
        assert german == texts(expected.steps)
        assert german != english
        assert any("Angewandt trotz" in text for step in german for text in step)
        monkeypatch.undo()
        # Undo and redo go on, durably; a new step is stored as data, like the old ones.
        played.redo()
        played.undo()
        step = played.execute({"cmd": "adjust", "who": "supply", "counter": "teal",
                               "delta": 1, "note": "counted again"})
        assert "korrigiert" in event_text(step.events[0])
        head = len(played.game.steps)
        state = played.state
    assert rows(path)["steps"][:head - 1] == stored["steps"][:head - 1]  # the old steps' rows

    i18n.set_language("en")
    with Store.open(path, overlay=overlay) as store:
        played = store.open_game(game_id)
        assert played.state == state
        assert texts(played.game.steps[:-1]) == english[:head - 1]
        assert event_text(played.game.steps[-1].events[0]).startswith(
            "Adjusted the supply's teal by +1")


def old_shape(event: dict) -> dict:
    """An event as the app stored it before events carried messages: its words as played (in
    English here), and an override's note with the rules it broke in words."""
    ops = [[op[0], op[1], {**op[2], "rules": [say(r) for r in op[2]["rules"]]}]
           if event["type"] == Event.OVERRIDDEN and op[0] == "append" else op
           for op in event["ops"]]
    return {"type": event["type"], "text": event_text(event), "ops": ops}


def rewrite_in_old_shape(path) -> None:
    """Every stored step's events and every snapshot's state as the app wrote them before events
    carried messages, each row with its check value."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("BEGIN")
        for game_id, seq, at, command, events, inverse in conn.execute(
                "SELECT game_id, seq, at, command, events, inverse FROM steps").fetchall():
            events = dumps([old_shape(e) for e in json.loads(events)])
            conn.execute("UPDATE steps SET events = ?, crc = ? WHERE game_id = ? AND seq = ?",
                         (events, row_crc((game_id, seq, at, command, events, inverse)),
                          game_id, seq))
        for game_id, seq, state in conn.execute(
                "SELECT game_id, seq, state FROM snapshots").fetchall():
            state = json.loads(state)
            for note in state["notes"]:
                note["rules"] = [say(r) for r in note["rules"]]
            state = dumps(state)
            conn.execute("UPDATE snapshots SET state = ?, crc = ? WHERE game_id = ? AND seq = ?",
                         (state, row_crc((game_id, seq, state)), game_id, seq))
        conn.execute("COMMIT")
    finally:
        conn.close()


def test_a_game_stored_before_events_carried_messages_shows_its_log(tmp_path, english_after):
    path, overlay = tmp_path / "games.sqlite", overlay_copy(tmp_path)
    game_id = stored_game(path, overlay)
    with Store.open(path, overlay=overlay) as store:
        played = store.open_game(game_id)
        english = texts(played.game.steps + played.game.undone)
        expected = summary(played.state, played.game.catalogue)
    rewrite_in_old_shape(path)
    with Store.open(path, overlay=overlay) as store:
        assert store.integrity_check() == ["ok"]
        played = store.open_game(game_id)
        events = [e for step in played.game.steps for e in step.events]
        assert events and all("text" in e and "message" not in e for e in events)  # old rows
        assert texts(played.game.steps + played.game.undone) == english
        assert summary(played.state, played.game.catalogue) == expected  # the notes in words
        i18n.set_language("de")  # the words it was played in: nothing to word again
        assert texts(played.game.steps + played.game.undone) == english
        # It goes on: undo, redo, and a new step (stored with its message) after the old ones.
        played.undo()
        played.redo()
        played.redo()
        step = played.execute({"cmd": "adjust", "who": "supply", "counter": "teal",
                               "delta": 1, "note": "counted again"})
        assert "message" in step.events[0]
        log = texts(played.game.steps)
    with Store.open(path, overlay=overlay) as store:
        played = store.open_game(game_id)
        assert texts(played.game.steps) == log
        assert log[:-1] == english
        assert log[-1] == ["Vorrat: türkis um +1 korrigiert: counted again"]
