"""The value-entry model (values_model.py) without Kivy: each kind of catalogue value built from
simple answers and checked by the catalogue's schema."""

from __future__ import annotations

import pytest

from companion.catalogue_files import load_catalogue
from companion.ui.kit.values_model import ADD, DONE, ValueEntry, can_enter, words


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
