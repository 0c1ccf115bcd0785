"""The catalogue screen's model (catalogue_model.py) without Kivy: components, values with
their sources in words, corrections kept in the overlay."""

from __future__ import annotations

from companion.catalogue_files import read_overlay
from companion.ui.catalogue_model import KIND_NAMES, CatalogueBrowser


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
