"""The catalogue screen's model (catalogue_model.py) without Kivy: components, values with
their sources in words, corrections kept in the overlay."""

from __future__ import annotations

from companion import i18n
from companion.catalogue_files import read_overlay
from companion.ui.settings.catalogue_model import KIND_NAMES, CatalogueBrowser


def test_values_show_their_source_in_words(tmp_path):
    browser = CatalogueBrowser(tmp_path / "overlay.json")
    rows = {row.name: row for row in browser.values("sectors", "218")}
    assert rows["cost"].shown == "9 · rulebook" and "costs 9 metal" in rows["cost"].note
    assert rows["quarters"].shown == "? · unknown" and rows["quarters"].correctable
    color = {row.name: row for row in browser.values("sectors", "214")}["color"]
    assert color.shown == "brown · inferred" and color.colors == ("teal", "pink", "brown")
    sectors = browser.records("sectors")
    assert sectors[0].label == "Sector 101 · Level 1 teal" and sectors[0].unknown > 0
    assert browser.label("hubs", "B-1") == "Hub B-1"


def test_a_correction_goes_to_the_overlay_and_reads_entered(tmp_path):
    overlay = tmp_path / "overlay.json"
    browser = CatalogueBrowser(overlay)
    assert browser.correct("sectors/214/color", "teal")
    assert read_overlay(overlay) == {"sectors": {"214": {"color": "teal"}}}
    color = {row.name: row for row in browser.values("sectors", "214")}["color"]
    assert color.shown == "teal · entered"
    assert browser.label("sectors", "214") == "Sector 214 · Level 2 teal"


def test_a_refused_correction_says_why_and_keeps_the_overlay(tmp_path):
    overlay = tmp_path / "overlay.json"
    browser = CatalogueBrowser(overlay)
    assert not browser.correct("sectors/214/quarters", 0)
    assert "whole number 1 or more" in browser.message and not overlay.exists()


def test_a_structured_value_is_entered_by_its_parts(tmp_path):
    browser = CatalogueBrowser(tmp_path / "overlay.json")
    row = {row.name: row for row in browser.values("hubs", "B-1")}["starting_diplomacy"]
    entry = browser.entry(row)
    for answer in ("done", 2):
        entry.answer(answer)
    assert entry.accepted and browser.correct(row.key, entry.value)
    shown = {row.name: row for row in browser.values("hubs", "B-1")}["starting_diplomacy"]
    assert shown.shown == "fixed nothing, choice 2 · entered"


def test_every_field_reads_in_words(tmp_path):
    """No raw field names on the screen: "metal value", not "metal_value"."""
    browser = CatalogueBrowser(tmp_path / "overlay.json")
    shown = {(kind, row.name): row.words for kind in KIND_NAMES
             for record in browser.records(kind)
             for row in browser.values(kind, record.record)}
    assert not [words for words in shown.values() if "_" in words or "." in words]
    assert shown["ships", "metal_value"] == "metal value"
    assert shown["diplomacy", "lobbying_cost"] == "lobbying cost (GEMs)"
    assert shown["diplomacy", "bonus_transport"] == "Transport bonus"
    assert shown["sectors", "abilities.0.quarter"] == "living quarter of ability 1"
    row = {row.name: row for row in browser.values("sectors", "218")}["cost"]
    assert browser.entry(row).question == "Sector 218 · Level 2 brown: cost (metal), as printed " \
                                          "on your copy"


LEVEL1_QUOTE = "Each player starts with a fixed set of five Level-1 ships."


def test_a_rulebook_quote_stays_english_with_the_german_summarys_words_beside_it(tmp_path):
    """In German, a quote the German summary covers shows the English quote and the summary's
    words; one it does not cover shows the English alone; a reasoning is no quote: it reads
    German, the rulebook's sentences quoted in it English."""
    browser = CatalogueBrowser(tmp_path / "overlay.json")
    i18n.set_language("de")
    try:
        ship = {row.name: row for row in browser.values("ships", "L1-dismantle")}
        sector = {row.name: row for row in browser.values("sectors", "218")}
    finally:
        i18n.set_language("en")
    assert ship["level"].note == f"\u201c{LEVEL1_QUOTE}\u201d"
    assert ship["level"].rendering == ("Deutsch: Jeder Spieler legt seine fünf "
                                       "Start-Raumschiffe (in Form von Karten) vor sich aus.")
    assert sector["cost"].note == "\u201cSector 218 costs 9 metal to build.\u201d"
    assert sector["cost"].rendering == ""
    assert ship["type"].source == "inferred" and ship["type"].rendering == ""
    assert ship["type"].note.startswith("Noch an den Level-1-Schiffskarten zu prüfen. "
                                        "Vermutet, weil \"Each player starts with a fixed "
                                        "set of five Level-1 ships.\"")
    assert sector["quarters"].note == sector["quarters"].rendering == ""


def test_in_english_a_rulebook_quote_stands_alone(tmp_path):
    browser = CatalogueBrowser(tmp_path / "overlay.json")
    level = {row.name: row for row in browser.values("ships", "L1-dismantle")}["level"]
    assert level.note == f"\u201c{LEVEL1_QUOTE}\u201d" and level.rendering == ""


def test_a_value_entered_has_no_quote_left(tmp_path):
    """A value read off the player's copy replaces the rulebook's: neither the quote nor its
    German words stay beside it."""
    browser = CatalogueBrowser(tmp_path / "overlay.json")
    assert browser.correct("ships/L1-dismantle/level", 1)
    i18n.set_language("de")
    try:
        level = {row.name: row for row in browser.values("ships", "L1-dismantle")}["level"]
    finally:
        i18n.set_language("en")
    assert level.source == "user" and level.note == level.rendering == ""
