"""A stored game told again in the language spoken now (Game.retell): the store's rows stay as
they were written, undo and redo go on durably, and a step played after the change of language
is stored in the new language."""

from __future__ import annotations

import copy
import sqlite3

from store_helpers import commands, overlay_copy, reference_game

from companion import i18n
from companion.rules.game import Game
from companion.store import Store

COUNT = 75  # the long game's first commands: setup, turns, an undo and a redo among them


def rows(path) -> dict[str, list]:
    """Every row of the store's tables."""
    conn = sqlite3.connect(path)
    try:
        return {table: conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
                for table in ("games", "steps", "journal", "snapshots")}
    finally:
        conn.close()


def texts(steps) -> list[list[str]]:
    return [[e["text"] for e in step.events] for step in steps]


def in_german(count: int) -> Game:
    """The long game's first commands played in German."""
    i18n.set_language("de")
    return reference_game(count)


def test_a_stored_english_game_is_told_in_german_and_the_store_is_untouched(tmp_path,
                                                                            english_after):
    path = tmp_path / "games.sqlite"
    overlay = overlay_copy(tmp_path)
    with Store.open(path, overlay=overlay, snapshot_every=40) as store:
        played = store.new_game("test")
        for command in commands()[:COUNT]:
            played.execute(command)
        played.undo()  # one step to redo
        game_id = played.id
        english = copy.deepcopy(texts(played.game.steps + played.game.undone))
    stored = rows(path)
    assert stored["snapshots"]  # the state is also stored whole: it must stay the same

    expected = in_german(COUNT)
    expected.undo()
    with Store.open(path, overlay=overlay) as store:
        played = store.open_game(game_id)
        assert texts(played.game.steps) == english[:len(played.game.steps)]  # as stored
        assert played.game.retell() == []
        assert texts(played.game.steps) == texts(expected.steps)
        assert texts(played.game.undone) == texts(expected.undone)
        assert texts(played.game.steps) != english[:len(played.game.steps)]
        assert played.state == expected.state
    assert rows(path) == stored

    # Undo and redo go on, durably; a new step is stored in German, the old ones as they were.
    with Store.open(path, overlay=overlay) as store:
        played = store.open_game(game_id)
        played.game.retell()
        played.redo()
        expected.redo()
        assert texts(played.game.steps) == texts(expected.steps)
        for _ in range(3):
            played.undo()
            expected.undo()
            assert played.state == expected.state
        assert texts(played.game.undone) == texts(expected.undone)
        played.redo()
        expected.redo()
        step = played.execute({"cmd": "adjust", "who": "supply", "counter": "teal",
                               "delta": 1, "note": "counted again"})
        assert "korrigiert" in step.events[0]["text"]
        head = len(played.game.steps)
        state = played.state
    after = rows(path)
    assert after["steps"][:head - 1] == stored["steps"][:head - 1]  # the old steps' rows
    i18n.set_language("en")
    with Store.open(path, overlay=overlay) as store:
        played = store.open_game(game_id)
        assert played.state == state
        assert "korrigiert" in played.game.steps[-1].events[0]["text"]  # as stored
        played.game.retell()
        assert texts(played.game.steps[:-1]) == english[:head - 1]
        assert played.game.steps[-1].events[0]["text"].startswith("Adjusted supply's teal")
