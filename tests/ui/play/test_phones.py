"""The players' phones at a real table (issue 30): the app under Xvfb, Debian's Chromium as
each phone (Selenium), the 3-player draft example stored up to Cat's turn 9 through the app's
own session, with every value its lines give known from the start. The table's Phones button
shows a QR code per player that decodes to that player's link; Bob's page shows his station,
follows a step taken on the table by touch, answers his Diplomacy bonus (which the table then
shows answered), refuses the same answer again, asks it again when the table takes the choice
back and shows it answered when it is chosen on the table, and a wrong or renewed link gets the page
that says to scan the code. A German browser gets the page in German, switchable to English.
Screenshots (table and phone, English and German) go to build/screenshots/."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from ui_fixtures import SHOTS

from companion.ui.shell.session import GameSession

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from drive_phones import CAT_TRANSPORT
from drive_turns import example_lines

SCRIPT = "drive_phones.py"


@pytest.fixture
def table(tmp_path: Path) -> tuple[Path, Path]:
    """The example stored up to Cat's turn 9, and a config naming the address the phones'
    links use (this machine, as a table without a router's name would)."""
    db = tmp_path / "games.sqlite"
    session = GameSession(db, tmp_path / "overlay.json")
    session.open()
    assert session.new_game() == ""
    for command in example_lines("three-players-draft")[:CAT_TRANSPORT]:
        assert session.send(command).problem == ""
    session.close()
    config = tmp_path / "config.toml"
    config.write_text('[phones]\naddress = "127.0.0.1"\n', encoding="utf-8")
    return db, config


def test_a_phone_joins_by_its_code_follows_the_table_and_answers_its_bonus(run_ui_driver, table):
    db, config = table
    found = run_ui_driver(SCRIPT, "join-and-answer", shots=SHOTS, timeout=900,
                          args=("--db", str(db), "--config", str(config)))
    # one code per player, each the link to that player's page, read off the screen
    assert set(found["decoded"]) == {"Ann", "Bob", "Cat"}
    assert found["decoded"] == found["links"]
    assert all(link.startswith("http://127.0.0.1:") and "/p/" in link
               for link in found["decoded"].values())
    assert len(set(found["decoded"].values())) == 3
    assert "scans their own code" in found["help"]
    # Bob's page: his station as the table keeps it
    joined = found["joined"]
    assert joined["name"] == "Bob" and joined["lang"] == "en"
    assert sorted(joined["sectors"]) == found["bob_sectors"]
    assert joined["turn"] == "Turn 9 · Cat's turn"
    assert joined["question"] == ""
    # a step on the table by touch: the page follows with Bob's question
    asked = found["asked"]
    assert "Your Transport Diplomacy bonus - choose one" in asked["question"]
    assert asked["choices"] == ["1 GEM", "2 GEMs"]
    assert asked["log"].splitlines()[0].startswith("Cat uses Cat's Transport L2 ship")
    assert int(asked["version"]) > int(joined["version"])
    # answered on the phone: done there, and on the table
    assert found["answered"]["reply"] == "Done: 2 GEMs."
    assert found["bob_gems_after"] == found["bob_gems_before"] + 2
    assert found["last_step"]["cmd"] == "diplomacy_bonus"
    assert (found["last_step"]["player"], found["last_step"]["levels"]) == ("Bob", [1])
    assert found["table_before"] == "action" and found["table_after"] == "table"
    assert found["banner"] == "Bob chose on their phone: 2 GEMs"
    # the same answer again: refused in words, nothing changed
    again = found["again"]
    assert again["status"] == 409 and again["reply"]["applied"] is False
    assert "not waiting on you any more" in again["reply"]["message"]
    # taken back on the table: asked again on the phone; chosen on the table: answered there
    assert found["asked_again"]["choices"] == ["1 GEM", "2 GEMs"]
    answered = found["table_answered"]
    assert answered["question"] == "" and "Bob takes 1 GEM" in answered["log"].splitlines()[0]
    # a wrong link, and Bob's link after Settings made new ones
    assert "Scan your code" in found["wrong"]["body"]
    assert found["renewed"] == "New links made: every player scans their code again."
    assert "scan" in found["old"]["ended"].lower()
    assert "Scan your code" in found["old"]["reopened"]
    # a German phone: German words, English at a tap
    german, english = found["ann"]["de"], found["ann"]["en"]
    assert german["lang"] == "de" and german["name"] == "Ann"
    assert german["station_heading"] == "Deine Station"
    assert german["turn"].startswith("Zug 9 · ")
    assert english["lang"] == "en" and english["station_heading"] == "Your station"


def test_one_switch_in_settings_turns_the_phones_off_and_on(run_ui_driver, table):
    db, config = table
    found = run_ui_driver(SCRIPT, "switch-off-and-on", shots=SHOTS,
                          args=("--db", str(db), "--config", str(config)))
    assert found["button_before"] is True
    assert "Phones on the same network open http://127.0.0.1:" in found["address_on"]
    assert found["address_off"] == "Phones cannot join: they are off."
    assert "on = false" in found["file_off"] and 'address = "127.0.0.1"' in found["file_off"]
    assert found["button_off"] is False
    assert "http://127.0.0.1:" in found["address_again"]
    assert len(found["links_again"]) == 3
