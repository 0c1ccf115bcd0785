"""A turn in German, by touch, in the real app under Xvfb (tests/ui/drive_german_turn.py): the app
starts with `[display] language = "de"` in its config file, on the 3-player draft example
replayed up to Cat's turn 30; Cat's Expedition is played by taps and the words on the screen are
read: the table's heading and buttons, the dice panels' questions and buttons, the preview's
Confirm / Back and the Diplomacy bonus prompt are German. Screenshots (named "-de") go to
build/screenshots/ (or $PHOENIX_SCREENSHOTS)."""

from __future__ import annotations

from pathlib import Path

from ui_fixtures import CAT_TURN, SHOTS, replayed


def test_an_expedition_turn_reads_in_german(run_ui_driver, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    replayed(db, "three-players-draft.jsonl", CAT_TURN)
    config = tmp_path / "config.toml"
    config.write_text('[display]\nlanguage = "de"\n', encoding="utf-8")
    result = run_ui_driver("drive_german_turn.py", "expedition", shots=SHOTS,
                           args=("--db", str(db), "--config", str(config)))
    assert result["ok"], result.get("traceback")
    # the table: its heading and buttons
    before = result["before"]
    assert before["active"] == "Cat"
    assert before["heading"] == "Zug 30 · wähle ein Schiff oder Einkommen"
    assert result["table_words"] == {"home": "Start", "next": "Weiter >", "station": "Station",
                                     "income": "Einkommen", "language": "de"}
    assert before["supply"].startswith("Vorrat · H 18\n")
    # every counter ("2 Pflanzen") on one line in its slot, none wrapped or cut
    lines = result["counter_lines"]
    assert len(lines) == 12 and lines["counter:Ann:food"][2].endswith(" Pflanzen")
    assert {tag: (n, words) for tag, (n, words, _shown) in lines.items()} == \
        {tag: (1, " ".join(shown.split())) for tag, (_n, _words, shown) in lines.items()}
    # the dice: "Roll 6 · keep 4" in German, the faces counted, the dice taken
    dice = result["dice"]
    assert dice["question"].startswith("Cat nutzt ")
    assert dice["question"].endswith(": Würfle 6 · behalte 4")
    assert dice["lines"] == ("Tippe an, wie viele Würfel jede Seite zeigen (die letzte Seite "
                             "ist der Rest): 3 von 6 eingegeben.")
    assert dice["buttons"]["action:dice"] == "Diese 3 Würfel"  # the last count reads them
    assert dice["buttons"]["die:food:6"] == "6"
    assert result["back_to_table"] == "Zurück zum Tisch"
    kept = result["kept"]
    assert kept["question"].endswith(": Würfle 6 · behalte 4 · welche Würfel behältst du?")
    assert kept["buttons"]["action:kept"] == "Diese behalten"
    assert kept["buttons"]["keep:human:2"] == "2"
    assert kept["lines"] == ("Gewürfelt: Pflanzen ×2, Wasser ×1, Metall ×1, Mensch ×2 (der "
                             "Rest) · tippe, was zurück soll")
    assert result["kept_lines_laid"] == 1
    # all six kept at first: Keep these dim, a tap on it says why in German
    assert result["kept_lit"] == ["keep:food:2", "keep:water:1", "keep:metal:1",
                                  "keep:human:2"]
    assert result["keep_these_dim"] is True
    assert result["over_capacity"] == ("lege 2 Würfel zurück: behalte höchstens 4 (die "
                                       "Kapazität)")
    # the Humans kept, on one panel: observe all, or how many recruited
    humans = result["humans"]
    assert humans["question"].endswith(
        ": die behaltenen Menschen (2) - beobachten oder anwerben?")
    assert humans["buttons"]["humans:0"] == "Alle 2 beobachten: 2 Punkte"
    assert humans["buttons"]["humans:1:221"] == "1 anwerben nach Sektor 221, 1 beobachten"
    assert humans["buttons"]["humans:2"].startswith("Alle 2 anwerben: je ")
    # the preview: what is paid and gained, Confirm / Back
    preview = result["preview"]
    assert preview["question"].endswith(": bestätigen?")
    assert preview["buttons"] == {"action:confirm": "Bestätigen"}  # Back: in the bar
    lines = preview["lines"].splitlines()
    assert lines[0].startswith("Cat legt ") and ":" not in lines[0]  # the ship, not its id
    assert lines[2].startswith("Mensch 1: Beobachten: ")
    assert lines[-1].startswith("Diplomatie-Bonus für Bob: ")
    assert lines[-1].endswith(" (wählt selbst)")
    # Bob's Diplomacy bonus prompt
    prompt = result["prompt"]
    assert prompt["question"].startswith("Bob (")
    assert "): Diplomatie-Bonus " in prompt["question"]
    assert prompt["question"].endswith(" - wähle einen")
    assert any(text.endswith(" (bei Wahl gefragt)") for text in prompt["buttons"].values())
    # the table again: the turn is taken
    assert result["after"]["heading"] == "Zug 30 · Weiter beendet den Zug"
    # no English left in the words this area shows
    for panel in (dice, kept, humans, preview, prompt):
        assert " uses " not in panel["question"] and "choose" not in panel["question"]
    assert (SHOTS / "action-expedition-de-800x480.png").stat().st_size > 10_000
