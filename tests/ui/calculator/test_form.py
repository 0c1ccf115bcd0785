"""The score calculator's form logic, without a window (plain pytest, real catalogue)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.catalogue_files import load_catalogue
from companion.rules.position import PositionError
from companion.ui.calculator.form import FormError, ScoreForm, save_path

EXAMPLES = Path(__file__).resolve().parents[3] / "companion" / "data" / "examples"
EXAMPLE = EXAMPLES / "rulebook-3p.json"


@pytest.fixture(scope="module")
def catalogue():
    return load_catalogue(overlay=Path("/nonexistent/overlay.json"))


@pytest.fixture
def example() -> dict:
    return json.loads(EXAMPLE.read_text())


def basics(form: ScoreForm, player: int, hub: str = "B-1") -> None:
    form.set_hub(player, hub)
    for key in ("points", "ships_left", "gems", "food", "water", "metal"):
        form.set_number(player, key, 0)


def test_entering_the_rulebook_example_builds_its_position_and_scores_it(catalogue, example):
    form = ScoreForm(catalogue, 3)
    for i, player in enumerate(example["players"]):
        form.set_name(i, player["name"])
        form.set_hub(i, player["hub"])
        for key in ("points", "ships_left", "gems", "food", "water", "metal"):
            form.set_number(i, key, player[key])
        for sector in player["sectors"]:
            entry = form.add_sector(i, sector["number"])
            assert (entry.level, entry.color) == (sector["level"], sector["color"])
            if entry.quarters is None:
                form.set_quarters(i, sector["number"], sector["quarters"])
            for species in sector["residents"]:
                form.add_resident(i, sector["number"], species)
            if entry.needs_bonus_answer:
                active = sector.get("endgame_bonus_active", False)
                form.set_bonus_active(i, sector["number"], active)
    outcome = form.evaluate()
    assert outcome.problem is None
    assert [p.total for p in outcome.sheet.players] == [142, 141, 159]
    assert outcome.sheet.winners == ("Connor",)
    # Same content as the file (the form lists each station wing by wing).
    built = form.to_position()
    for mine, theirs in zip(built["players"], example["players"], strict=True):
        key = lambda s: s["number"]  # noqa: E731
        assert sorted(mine["sectors"], key=key) == sorted(theirs["sectors"], key=key)


def test_sector_308_asks_for_the_endgame_bonus_answer(catalogue):
    form = ScoreForm(catalogue, 2)
    for sector in (102, 202, 308):
        entry = form.add_sector(0, sector)
    assert entry.needs_bonus_answer and entry.bonus_active is None
    form.set_quarters(0, 102, 3)
    form.set_quarters(0, 202, 3)
    form.set_quarters(0, 308, 4)
    basics(form, 0)
    basics(form, 1, "B-2")
    problem = form.evaluate().problem
    assert problem.player == 0 and problem.sectors == (308,)
    assert "answer Yes or No" in problem.message


def test_load_position_round_trips_the_example(catalogue, example):
    form = ScoreForm(catalogue)
    form.load_position(example)
    assert [p.name for p in form.players] == ["Anna", "Beth", "Connor"]
    assert form.players[1].sector(308).bonus_active is True
    assert [p.total for p in form.evaluate().sheet.players] == [142, 141, 159]


def test_missing_entries_are_named_in_reading_order(catalogue):
    form = ScoreForm(catalogue, 2)
    problem = form.missing()
    assert (problem.player, problem.field) == (0, "hub")
    form.set_hub(0, "b-5")
    assert form.players[0].hub == "B-5"
    problem = form.missing()
    assert problem.field == "points" and "Score track" in problem.message


def test_a_sector_twice_is_refused_at_once(catalogue):
    form = ScoreForm(catalogue, 2)
    form.add_sector(0, 101)
    with pytest.raises(FormError, match="already in this station"):
        form.add_sector(0, 101)
    with pytest.raises(FormError, match="already in Player 1's station"):
        form.add_sector(1, 101)
    with pytest.raises(FormError, match="already has Sector 101 there"):
        form.add_sector(0, 102)
    with pytest.raises(FormError, match="no Sector 999"):
        form.add_sector(0, 999)


def test_a_pink_alien_in_a_teal_sector_is_pinned_to_that_sector(catalogue):
    form = ScoreForm(catalogue, 2)
    basics(form, 0)
    basics(form, 1, "B-2")
    form.add_sector(0, 101)
    form.set_quarters(0, 101, 3)
    form.add_resident(0, 101, "pink")
    problem = form.evaluate().problem
    assert (problem.player, problem.field, problem.sectors) == (0, "sectors", (101,))
    assert problem.message.startswith("Player 1: Sector 101 residents: a pink Alien cannot")


def test_wing_order_problem_names_the_sector(catalogue):
    form = ScoreForm(catalogue, 2)
    basics(form, 0)
    basics(form, 1, "B-2")
    form.add_sector(0, 201)
    form.set_quarters(0, 201, 3)
    problem = form.evaluate().problem
    assert problem.field == "sectors" and problem.sectors == (201,)
    assert "smallest to largest" in problem.message


def test_numbers_residents_and_quarters_limits(catalogue):
    form = ScoreForm(catalogue, 2)
    form.set_number(0, "points", -5)  # Hub A-12 can take the score track below zero
    with pytest.raises(FormError, match="cannot be negative"):
        form.set_number(0, "gems", -1)
    form.add_sector(0, 101)
    with pytest.raises(FormError, match="how many living quarters"):
        form.add_resident(0, 101, "teal")
    form.set_quarters(0, 101, 2)
    form.add_resident(0, 101, "teal")
    form.add_resident(0, 101, "gold")
    with pytest.raises(FormError, match="are taken"):
        form.add_resident(0, 101, "human")
    with pytest.raises(FormError, match="remove some first"):
        form.set_quarters(0, 101, 1)
    form.remove_last_resident(0, 101)
    assert form.players[0].sector(101).residents == ["teal"]
    form.remove_sector(0, 101)
    assert form.players[0].sectors == []


def test_hub_residents_only_on_hubs_with_quarters(catalogue):
    form = ScoreForm(catalogue, 2)
    form.set_hub(0, "B-11")
    assert form.hub_quarters(0) == 3
    for species in ("pink", "pink", "gold"):
        form.add_hub_resident(0, species)
    with pytest.raises(FormError, match="no free living quarter"):
        form.add_hub_resident(0, "pink")
    form.set_hub(0, "B-5")  # no living quarters: the residents go
    assert form.players[0].hub_residents == []
    form.set_hub(0, "A-11")
    assert form.hub_quarters(0) == 5


def test_names_must_differ_and_not_be_empty(catalogue):
    form = ScoreForm(catalogue, 3)
    form.set_name(0, "  anna  ")
    assert form.players[0].name == "anna"
    with pytest.raises(FormError, match="already called"):
        form.set_name(1, "ANNA")
    with pytest.raises(FormError, match="needs a name"):
        form.set_name(1, "   ")
    form.set_player_count(2)
    assert len(form.players) == 2 and form.players[0].name == "anna"
    with pytest.raises(FormError):
        form.set_player_count(5)


def test_position_errors_are_located_in_plain_words(catalogue):
    form = ScoreForm(catalogue, 2)
    form.set_name(1, "Beth")
    position = {"players": [{"sectors": [{"number": 308}]}]}
    problem = form.locate(PositionError("Beth", "sectors[0] (Sector 308).quarters", "give it"),
                          {"players": [{}, {"sectors": [{"number": 308}]}]})
    assert (problem.player, problem.field, problem.sectors) == (1, "sectors", (308,))
    assert problem.message == "Beth: Sector 308 living quarters: give it"
    problem = form.locate(PositionError("player 1", "hub", "unknown Station Hub", index=0),
                          position)
    assert (problem.player, problem.field) == (0, "hub")
    assert problem.message == "Player 1: Station Hub: unknown Station Hub"
    problem = form.locate(PositionError("position", "players", "expected 2 to 4"), position)
    assert problem.player is None and problem.message == "Expected 2 to 4"


def test_a_position_error_in_german_is_located_by_its_index_not_its_words(catalogue):
    """The engine names a nameless player "Spieler 2" in German; the form finds the player by
    the error's index, and the Sectors of a station's problem by its numbers."""
    from companion import i18n
    from companion.rules.position import parse_position

    form = ScoreForm(catalogue, 2)
    counts = {"points": 0, "ships_left": 0, "gems": 0, "food": 0, "water": 0, "metal": 0}
    position = {"players": [{"name": "Ann", "hub": "B-1", **counts}, {"name": " "}]}
    i18n.set_language("de")
    try:
        with pytest.raises(PositionError) as raised:
            parse_position(position, catalogue)
        error = raised.value
        assert (error.player, error.index) == ("Spieler 2", 1)
        problem = form.locate(error, position)
        assert (problem.player, problem.field) == (1, "name")
        assert problem.message.startswith(f"{form.players[1].name}: ")
        assert problem.message.endswith(": erwartet einen nicht leeren Text")
        sector = {"number": 101, "quarters": 1}
        twice = {"players": [{"name": "Ann", "hub": "B-1", **counts, "sectors": [sector]},
                             {"name": "Bob", "hub": "B-2", **counts, "sectors": [sector]}]}
        with pytest.raises(PositionError) as raised:
            parse_position(twice, catalogue)
        assert (raised.value.index, raised.value.sectors) == (1, (101,))
        problem = form.locate(raised.value, twice)
        assert (problem.player, problem.field, problem.sectors) == (1, "sectors", (101,))
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("bad, message", [
    ({"players": []}, "the game is for 2 to 4"),
    ([], "not a position file"),
    ({"players": [{"name": "A", "hub": "X-1"}, {"name": "B"}]}, "unknown Station Hub"),
    ({"players": [{"name": "A", "points": "3"}, {"name": "B"}]}, "not a whole number"),
    ({"players": [{"name": "A", "sectors": [{"number": 101, "color": "pink"}]}, {}]},
     "as teal, not pink"),
])
def test_files_that_cannot_be_shown_say_why(catalogue, bad, message):
    form = ScoreForm(catalogue)
    with pytest.raises(FormError, match=message):
        form.load_position(bad)
    assert len(form.players) == 3  # the form is unchanged


def test_entries_survive_a_restart_through_the_autosave_file(catalogue, tmp_path):
    form = ScoreForm(catalogue, 2)
    basics(form, 0, "B-11")
    form.add_hub_resident(0, "pink")
    form.set_name(1, "Jürgen")
    form.add_sector(1, 101)
    saved = tmp_path / "data" / "score-calculator.json"
    form.save(saved)
    again = ScoreForm(catalogue, 3)
    assert again.restore(saved)
    assert again.to_position() == form.to_position()
    assert [p.name for p in again.players] == ["Player 1", "Jürgen"]


def test_a_missing_or_damaged_autosave_leaves_the_form_empty(catalogue, tmp_path):
    form = ScoreForm(catalogue, 3)
    assert not form.restore(tmp_path / "none.json")
    damaged = tmp_path / "damaged.json"
    damaged.write_text('{"players": [')
    assert not form.restore(damaged)
    assert form.to_position() == ScoreForm(catalogue, 3).to_position()


def test_ships_left_is_checked_when_entered(catalogue):
    form = ScoreForm(catalogue, 2)
    form.set_number(0, "ships_left", 9)
    with pytest.raises(FormError, match="at most 9 ships"):
        form.set_number(0, "ships_left", 10)
    assert form.players[0].numbers["ships_left"] == 9


def test_a_hub_taken_by_another_player_is_refused(catalogue):
    form = ScoreForm(catalogue, 2)
    form.set_name(0, "Anna")
    form.set_hub(0, "B-5")
    with pytest.raises(FormError, match="Anna already has Hub B-5"):
        form.set_hub(1, "b-5")
    assert form.players[1].hub is None
    form.set_hub(0, "B-5")  # choosing one's own Hub again is fine


def test_hub_quarters_take_only_their_species(catalogue):
    form = ScoreForm(catalogue, 2)
    form.set_hub(0, "B-11")  # three quarters for pink or gold Aliens or Humans
    with pytest.raises(FormError, match="no free living quarter for a Teal Alien"):
        form.add_hub_resident(0, "teal")
    form.set_hub(1, "A-11")  # one quarter per species: brown, pink, teal, gold, human
    form.add_hub_resident(1, "teal")
    form.add_hub_resident(1, "brown")
    with pytest.raises(FormError, match="no free living quarter for a Teal Alien"):
        form.add_hub_resident(1, "teal")
    assert form.players[1].hub_residents == ["teal", "brown"]


def test_what_replacing_or_dropping_would_lose(catalogue):
    form = ScoreForm(catalogue, 4)
    assert not form.has_entries() and form.dropped_by(2) == []
    form.set_name(3, "Dora")
    form.set_number(2, "gems", 4)
    assert form.has_entries()
    assert form.dropped_by(3) == ["Dora"]
    assert form.dropped_by(2) == ["Player 3", "Dora"]


def test_living_quarters_typed_once_are_remembered_in_the_overlay(tmp_path):
    overlay = tmp_path / "overlay.json"
    form = ScoreForm(load_catalogue(overlay=overlay), 2, overlay=overlay)
    assert form.add_sector(0, 214).quarters is None
    assert form.set_quarters(0, 214, 3) is None
    again = ScoreForm(load_catalogue(overlay=overlay), 2, overlay=overlay)
    sector = again.add_sector(0, 214)
    assert (sector.quarters, sector.quarters_known) == (3, True)


def test_save_path_names_a_new_file_in_the_folder(tmp_path):
    assert save_path(tmp_path, "  Game Night 2 ") == tmp_path / "game-night-2.json"
    for bad, message in (("  ", "type a name"), ("Score Calculator", "keeps the entries")):
        with pytest.raises(FormError, match=message):
            save_path(tmp_path, bad)
    (tmp_path / "taken.json").write_text("{}")
    with pytest.raises(FormError, match=r"already a file taken\.json"):
        save_path(tmp_path, "Taken")


def test_hub_summary_is_the_theme_or_the_start_of_the_first_ability(catalogue):
    form = ScoreForm(catalogue)
    assert form.hub_summary("B-1") == "Construction"
    assert form.hub_summary("B-6") == "During income, gain 1 point."
    summary = form.hub_summary("A-1")
    assert summary.startswith("On each turn") and summary.endswith("\u2026")
    assert len(summary) <= 40
