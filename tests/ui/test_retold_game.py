"""A game played in English reads German once German is chosen in the settings, in the real app
under Xvfb (tests/ui/drive_retold.py): the table's Undo button names the last step in German,
Undo goes on, and the game's log from Home is German - the store keeping the words it was
played in."""

from __future__ import annotations

import copy
from pathlib import Path

from ui_fixtures import replayed

from companion import i18n
from companion.rules.game import Game
from companion.store import Store
from companion.ui.play.table_model import undo_text

INCOME = 75  # the example's commands up to Ann's income in round 8


def told_in_german(db: Path) -> tuple[list, list, list]:
    """The stored game's steps played again in German from its commands (the live ones, then
    the undone one), and the steps as stored."""
    with Store.open(db, overlay=db.parent / "overlay.json") as store:
        (info,) = store.games()
        played = store.open_game(info.id)
        stored = [*played.game.steps, *reversed(played.game.undone)]
        catalogue = played.catalogue
        i18n.set_language("de")
        try:
            german = Game(catalogue)
            for step in stored:
                german.execute(copy.deepcopy(step.command))
            texts = [[e["text"] for e in step.events] for step in german.steps]
            undos = [undo_text(step.events) for step in german.steps]
        finally:
            i18n.set_language("en")
        return texts, undos, [[e["text"] for e in step.events] for step in stored]


def test_a_game_played_in_english_reads_german_once_german_is_chosen(run_ui_driver,
                                                                     tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    replayed(db, "three-players-draft.jsonl", INCOME)
    config = tmp_path / "config.toml"
    config.write_text('[display]\nlanguage = "en"\n', encoding="utf-8")
    result = run_ui_driver("drive_retold.py", "switch",
                           args=("--db", str(db), "--config", str(config)))
    assert result["ok"], result.get("traceback")
    assert result["start"]["active"] == "Ann"
    english = result["english"]
    assert english["undo"] == "Undo: Ann takes income"
    assert result["back"] == "Zurück"
    texts, undos, stored = told_in_german(db)
    assert len(texts) == INCOME + 1  # Ann's income, undone, can be redone
    # the step played in English: its Undo button and its texts are German now
    german = result["german"]
    assert german["undo"] == undos[INCOME] and german["undo"].startswith("Rückgängig: Ann ")
    assert german["step"] == texts[INCOME] != english["step"]
    # Undo goes on: the step before is named, in German
    undone = result["undone"]
    assert undone["undo"] == undos[INCOME - 1] and undone["step"] == texts[INCOME - 1]
    assert undone["active"] == "Ann"
    # the game's log from Home: every line German
    assert result["log"] == [text for step in texts[:INCOME] for text in step]
    assert result["log_first"] == texts[0][0]
    assert any(line.startswith("Neues Spiel für Ann, Bob, Cat") for line in result["log"])
    # the store keeps the English it was played in
    assert stored[INCOME] == english["step"]
    assert any(text.startswith("New game for Ann, Bob, Cat") for text in stored[0])
