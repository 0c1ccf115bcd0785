"""The value-entry model (values_model.py) without Kivy: each kind of catalogue value built from
simple answers and checked by the catalogue's schema."""

from __future__ import annotations

import re

import pytest

from companion.catalogue_files import load_catalogue
from companion.ui.kit.values_model import (
    ADD,
    DONE,
    Card,
    ValueEntry,
    can_enter,
    icon_name,
    words,
)


@pytest.fixture(scope="module")
def catalogue():
    return load_catalogue()


def answer_all(entry: ValueEntry, *answers) -> ValueEntry:
    for value in answers:
        entry.answer(value)
    return entry


def test_a_cost_is_a_number_on_the_keypad_with_the_schema_range(catalogue):
    entry = ValueEntry("sectors/214/cost", catalogue)
    assert entry.prompt.number and entry.prompt.hint == "a whole number 0 or more"
    assert entry.answer(7) and entry.accepted and entry.value == 7


def test_a_number_out_of_range_is_refused_and_back_asks_again(catalogue):
    entry = ValueEntry("sectors/214/quarters", catalogue)
    assert not entry.answer(0)
    assert entry.message == "expected a whole number 1 or more, got 0"
    entry.back()
    assert entry.prompt.number and not entry.answers
    assert entry.answer(2)


def test_a_numbers_range_and_its_refusal_read_in_german(catalogue, german):
    """The range and the refusal come from the catalogue's fields, not its English words."""
    quarters = ValueEntry("sectors/214/quarters", catalogue)
    assert quarters.prompt.hint == "eine ganze Zahl ab 1"
    assert not quarters.answer(0)
    assert quarters.message == "erwartet eine ganze Zahl ab 1, nicht 0"
    level = ValueEntry("sectors/214/level", catalogue)
    assert level.prompt.hint == "eine ganze Zahl von 1 bis 3"
    assert not level.answer(4)
    assert level.message == "erwartet eine ganze Zahl von 1 bis 3, nicht 4"


def test_words_and_yes_no_come_from_the_schema(catalogue):
    color = ValueEntry("sectors/214/color", catalogue)
    assert [v for _label, v in color.prompt.choices] == ["teal", "pink", "brown"]
    theme = ValueEntry("hubs/B-1/theme", catalogue)
    assert [v for _label, v in theme.prompt.choices][:2] == ["dismantle", "construction"]
    complete = ValueEntry("sectors/214/income_icons_complete", catalogue)
    assert complete.prompt.choices == (("Yes", True), ("No", False))


def test_income_icons_are_built_one_icon_at_a_time(catalogue):
    entry = ValueEntry("sectors/121/income_icons", catalogue,
                       entered={"sectors/121/quarters": 2})
    assert [label for label, _v in entry.prompt.choices] == ["Add an income icon", "Done"]
    answer_all(entry, ADD, "food", 2)
    quarters = entry.prompt.choices
    assert quarters == (("Quarter 1", 0), ("Quarter 2", 1), ("Not above a quarter", None))
    answer_all(entry, 0, ADD, "gems", 1, None)
    assert entry.so_far == ("resource food, amount 2, quarter 1; "
                            "resource gems, amount 1, quarter none")
    assert entry.prompt.choices[0] == ("Add another income icon", ADD)
    assert entry.answer(DONE) and entry.accepted
    assert entry.value == [{"resource": "food", "amount": 2, "quarter": 0},
                           {"resource": "gems", "amount": 1, "quarter": None}]


def test_an_ability_quarter_is_a_one_based_button(catalogue):
    entry = ValueEntry("sectors/214/abilities.0.quarter", catalogue)
    assert entry.prompt.choices[0] == ("Quarter 1", 0)
    assert entry.answer(1) and entry.value == 1


def test_starting_diplomacy_fixed_steps_then_a_free_choice(catalogue):
    entry = ValueEntry("hubs/B-1/starting_diplomacy", catalogue)
    answer_all(entry, "transport", 1, "expedition", 1, DONE)
    assert entry.prompt.number and entry.prompt.title == "Steps the player chooses freely"
    assert entry.answer(0) and entry.value == {"fixed": {"transport": 1, "expedition": 1},
                                               "choice": 0}


def test_living_quarters_list_species_per_quarter(catalogue):
    entry = ValueEntry("hubs/B-11/living_quarters", catalogue)
    answer_all(entry, ADD, ADD, "teal", ADD, "human", DONE, ADD, ADD, "gold", DONE, DONE)
    assert entry.accepted and entry.value == [["teal", "human"], ["gold"]]


def test_an_empty_quarter_is_refused_by_the_schema(catalogue):
    entry = ValueEntry("hubs/B-11/living_quarters", catalogue)
    assert not answer_all(entry, ADD, DONE, DONE).accepted
    assert "item 0" in entry.message
    entry.back()
    assert not entry.complete


def test_a_diplomacy_bonus_and_quarter_income_are_counts(catalogue):
    bonus = ValueEntry("diplomacy/level-1/bonus_transport", catalogue)
    assert answer_all(bonus, "points", 2, DONE).accepted and bonus.value == {"points": 2}
    income = ValueEntry("hubs/B-11/quarter_income", catalogue)
    answer_all(income, ADD, "gems", 1, DONE, DONE)
    assert income.accepted and income.value == [{"gems": 1}]


def test_ship_values_and_what_is_not_asked_on_screen(catalogue):
    assert ValueEntry("ships/L2-farm/cost", catalogue).prompt.number
    assert can_enter("ships/L3-expedition/capacity", catalogue)
    assert not can_enter("hubs/B-1/setup_ship_changes", catalogue)


def test_words_read_like_a_tile():
    assert words([{"resource": "food", "amount": 1, "quarter": None}]) == \
        "resource food, amount 1, quarter none"
    assert words({"fixed": {}, "choice": 2}) == "fixed nothing, choice 2"


# -- the card: a component's printed values, like the tile --------------------------------------

SECTOR_101 = [("sectors/101/cost", "How much metal does Sector 101 cost?"),
              ("sectors/101/quarters", "How many living quarters does Sector 101 have?"),
              ("sectors/101/abilities.0.quarter", "Which living quarter ... activates: ..."),
              ("sectors/101/income_icons", "Which income icons does Sector 101 show ...?")]


def test_a_sector_card_reads_like_the_tile_and_is_answered_in_five_taps(catalogue):
    card = Card(SECTOR_101, catalogue)
    assert (card.title, card.chip, card.color, card.level) == ("Sector 101", "101", "teal", 1)
    assert card.heading == "Sector 101 · level 1 · teal"
    assert [(s.label, s.how) for s in card.shown] == [
        ("Metal to build", "number"), ("Living quarters", "number"), ("Ability", "ability"),
        ("Income icons", "icons")]
    cost = card.shown[0]
    assert cost.numbers == tuple(range(20))  # one tap up to 19; the keypad for more
    assert card.shown[2].text == "During income, gain 1 food or 1 water."
    assert card.boxes is None and not card.complete  # the quarters are asked first
    card.number("sectors/101/cost", 3)  # 1
    card.number("sectors/101/quarters", 2)  # 2
    card.icon(0, "food")  # 3
    card.ability("sectors/101/abilities.0.quarter", 1)  # 4
    assert card.complete and card.waits  # icons come in any number: Done is the 5th tap
    assert card.result() == {"sectors/101/cost": 3, "sectors/101/quarters": 2,
                             "sectors/101/abilities.0.quarter": 1,
                             "sectors/101/income_icons": [{"resource": "food", "amount": 1,
                                                           "quarter": 0}]}


def test_an_icon_tapped_again_shows_more_then_none(catalogue):
    card = Card(SECTOR_101, catalogue, {"sectors/101/quarters": 3})
    assert card.boxes == 3  # known before: the quarters are drawn at once
    for _tap in range(2):
        card.icon(2, "water")
    card.icon(0, "gems")
    assert card.icon_amount(2, "water") == 2
    assert card.result()["sectors/101/income_icons"] == [
        {"resource": "gems", "amount": 1, "quarter": 0},
        {"resource": "water", "amount": 2, "quarter": 2}]
    for _tap in range(2):
        card.icon(2, "water")
    assert card.icon_amount(2, "water") == 0
    card.icon(1, "metal")
    card.ability("sectors/101/abilities.0.quarter", 1)
    card.number("sectors/101/quarters", 1)  # fewer quarters: nothing above the others
    assert (card.icon_amount(0, "gems"), card.icon_amount(1, "metal")) == (1, 0)
    assert "sectors/101/abilities.0.quarter" not in card.values


def test_nothing_tapped_on_the_icons_says_the_tile_shows_none(catalogue):
    card = Card(SECTOR_101[3:], catalogue, {"sectors/101/quarters": 2})
    assert card.complete and card.result() == {"sectors/101/income_icons": []}


def test_a_ship_card_takes_its_last_number_without_done(catalogue):
    card = Card([("ships/L1-dismantle/cost", "?"), ("ships/L1-dismantle/fee", "?"),
                 ("ships/L1-dismantle/metal_value", "?")], catalogue)
    assert (card.title, card.chip) == ("Dismantle L1", "L1")
    assert [s.label for s in card.shown] == ["GEMs to use", "Owner's fee", "Metal value"]
    assert [s.numbers for s in card.shown] == [tuple(range(10))] * 3
    for key, number in (("cost", 2), ("fee", 1), ("metal_value", 4)):
        assert not card.complete
        card.number(f"ships/L1-dismantle/{key}", number)
    assert card.complete and not card.waits
    assert card.result() == {"ships/L1-dismantle/cost": 2, "ships/L1-dismantle/fee": 1,
                             "ships/L1-dismantle/metal_value": 4}


def test_a_hubs_starting_diplomacy_as_most_backs_print_it_is_one_tap(catalogue):
    """None, one step on one track, or free steps: one tap, the card's Diplomacy complete."""
    key = "hubs/B-1/starting_diplomacy"
    card = Card([(key, "?")], catalogue)
    slot = card.shown[0]
    assert [words for _name, words, _value in card.presets(slot)] == [
        "None", "Dismantle +1", "Construct +1", "Transport +1", "Expedition +1", "1 free",
        "2 free"]
    assert not card.by_tracks(slot)
    assert card.preset(key, "transport") and card.complete
    assert card.result() == {key: {"fixed": {"transport": 1}, "choice": 0}}
    assert card.preset(key, "free-2") and card.result() == {key: {"fixed": {}, "choice": 2}}
    assert card.preset(key, "none") and card.result() == {key: {"fixed": {}, "choice": 0}}
    again = Card([(key, "?")], catalogue, entered={key: {"fixed": {"transport": 1,
                                                                   "construction": 1},
                                                         "choice": 0}})
    assert again.by_tracks(again.shown[0])  # no preset gives it: its tracks are shown


def test_a_hubs_starting_diplomacy_is_its_tracks_tapped_then_the_free_steps(catalogue):
    key = "hubs/B-1/starting_diplomacy"
    card = Card([(key, "?")], catalogue)
    assert card.shown[0].label == "Diplomacy" and card.shown[0].how == "diplomacy"
    card.track_by_track(key)  # "Other…"
    assert card.by_tracks(card.shown[0])
    card.track(key, "transport")
    card.track(key, "construction")
    card.track(key, "construction")
    assert not card.complete  # the free steps say it is complete
    assert card.free(key, 1) and card.complete
    assert card.result() == {key: {"fixed": {"transport": 1, "construction": 2}, "choice": 1}}
    for _tap in range(3):  # round to none
        card.track(key, "transport")
    assert card.result() == {key: {"fixed": {"construction": 2}, "choice": 1}}


def test_a_number_the_schema_refuses_stays_off_the_card(catalogue):
    card = Card([("sectors/214/quarters", "?")], catalogue)
    assert card.shown[0].numbers[0] == 1  # the schema's least
    assert not card.number("sectors/214/quarters", 0)
    assert card.message == "expected a whole number 1 or more, got 0" and not card.complete


def test_no_label_on_any_card_is_a_field_name_or_a_data_shape(catalogue):
    """Every value a setup asks, on its card: words, never snake_case, braces or counters."""
    keys = [(f"hubs/B-1/{f}", "?") for f in ("starting_gems", "starting_food", "starting_water",
                                              "starting_metal", "starting_diplomacy",
                                              "income_gems_per_ship", "income_fixed_gems")]
    ships = [(f"ships/L3-expedition/{f}", "?") for f in ("cost", "fee", "metal_value",
                                                           "duration", "capacity")]
    board = [(f"diplomacy/level-{n}/lobbying_cost", "?") for n in range(1, 6)]
    labels = [s.label for asked in (keys, ships, board, SECTOR_101)
              for s in Card(asked, catalogue).shown]
    assert [label for label in labels if re.search(r"[{}\[\]_]|\(\d+ of \d+\)", label)] == []
    assert "Dice rolled" in labels and "Level 3: lobbying cost" in labels


def test_a_card_reads_german(catalogue, german):
    card = Card(SECTOR_101, catalogue)
    assert [s.label for s in card.shown] == ["Metall zum Bauen", "Räume", "Fähigkeit",
                                             "Einkommens-Symbole"]
    assert icon_name("gems") == "Edelsteine"


def test_a_card_during_play_shows_what_was_given_before(catalogue):
    """The engine asks one value at a time; the card shows the tile as known so far."""
    entered = {"sectors/101/cost": 3, "sectors/101/quarters": 2,
               "sectors/101/abilities.0.quarter": 0, "ships/L1-dismantle/fee": 1}
    card = Card(SECTOR_101[3:], catalogue, entered)
    assert card.noted == "Metal to build: 3 · Living quarters: 2 · Ability: quarter 1"


def test_a_value_a_card_cannot_tap_is_named_and_built_in_the_pop_up(catalogue):
    card = Card([("diplomacy/level-3/bonus_transport", "What does level 3 of the Transport "
                  "Diplomacy track give?")], catalogue)
    (slot,) = card.shown
    assert (slot.label, slot.how) == ("Level 3: Transport bonus", "other")
    entry = card.entry(slot)
    assert entry.answer("points") and entry.answer(2) and entry.answer(DONE)
    assert card.other(slot.key, entry.value) and card.result() == {slot.key: {"points": 2}}
