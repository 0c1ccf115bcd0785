"""A game played in English reads German once German is chosen in the settings, and English again
once English is, in the real app under Xvfb (tests/ui/drive_language_switch.py): the table's Undo
button names the last step in German, Undo goes on, and the game's log from Home is German, then
English. Its events carry messages (a key and its parameters), worded as they are shown: the
change of language replays nothing (no Game.perform but the Undo tapped), and the stored events
are the same whatever the language."""

from __future__ import annotations

import copy
from pathlib import Path

from ui_fixtures import replayed

from companion import i18n
from companion.rules.game import Game
from companion.rules.message import event_text
from companion.store import Store
from companion.ui.kit.undo_redo_model import undo_text

INCOME = 75  # the example's commands up to Ann's income in round 8


def played_in_german(db: Path) -> tuple[list, list, list, list]:
    """The stored game's steps played again from their commands with German spoken (the live
    ones, then the undone one): their words and Undo labels in German; the stored steps' words
    in English; whether the stored events are the ones a game played in German stores."""
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
            texts = [[event_text(e) for e in step.events] for step in german.steps]
            undos = [undo_text(step.events) for step in german.steps]
            same = [step.events for step in german.steps] == [step.events for step in stored]
        finally:
            i18n.set_language("en")
        return texts, undos, [[event_text(e) for e in step.events] for step in stored], same


def test_a_game_played_in_english_reads_german_then_english_with_nothing_replayed(
        run_ui_driver, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    replayed(db, "three-players-draft.jsonl", INCOME)
    config = tmp_path / "config.toml"
    config.write_text('[display]\nlanguage = "en"\n', encoding="utf-8")
    result = run_ui_driver("drive_language_switch.py", "switch",
                           args=("--db", str(db), "--config", str(config)))
    assert result["ok"], result.get("traceback")
    assert result["start"]["active"] == "Ann"
    english = result["english"]
    assert english["undo"] == "Undo: Ann takes income"
    assert result["back"] == ["Zurück", "Back"]
    texts, undos, stored, same = played_in_german(db)
    assert same  # the events stored are data: the same as a game played in German stores
    assert len(texts) == INCOME + 1  # Ann's income, undone, can be redone
    # nothing replayed: the same events, no engine call but the Undo tapped
    assert result["same_events"] and result["performed_before_undo"] == []
    assert result["performed"] == ["undo"]
    # the step played in English: its Undo button and its words are German now
    german = result["german"]
    assert german["undo"] == undos[INCOME] == "Rückgängig: Ann nimmt Einkommen"
    assert german["step"] == texts[INCOME] != english["step"]
    # Undo goes on: the step before is named, in German
    undone = result["undone"]
    assert undone["undo"] == undos[INCOME - 1] and undone["step"] == texts[INCOME - 1]
    assert undone["active"] == "Ann"
    # the game's log from Home: every line German, then every line English again
    in_german, in_english = result["logs"]
    assert in_german["lines"] == [text for step in texts[:INCOME] for text in step]
    assert in_german["first"] == texts[0][0]
    assert any(line.startswith("Neues Spiel für Ann, Bob, Cat") for line in in_german["lines"])
    assert in_english["lines"] == [text for step in stored[:INCOME] for text in step]
    assert in_english["first"] == stored[0][0] != in_german["first"]
    assert any(line.startswith("New game for Ann, Bob, Cat") for line in in_english["lines"])
    assert stored[INCOME] == english["step"]
