"""Values only the components print, given the documented way: `"catalogue"` on a script line.

docs/game-scripts.md: "Add `"catalogue": {"sectors/214/cost": 8}` to that line (or to any earlier
line): the value is remembered for the rest of the game". Every game here starts from an EMPTY
overlay, as a new user's does. The values given are TEST values (tests/rules/tables.py), not the
real components'.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from tables import table_values
from test_games import check

from companion.catalogue_files import check_entry, load_catalogue
from companion.rules.game import Game, Missing, Refused
from companion.rules.script import ScriptError, parse, replay

EXAMPLES = Path(__file__).parents[2] / "examples"
GAMES = Path(__file__).parent / "games"

# Hub B-1 (set 1) and B-3 (set 3) as a first game deals them; test values.
HUB_VALUES = {f"hubs/{hub}/{name}": value for hub in ("B-1", "B-3") for name, value in {
    "starting_gems": 8, "starting_food": 2, "starting_water": 2, "starting_metal": 3,
    "starting_diplomacy": {"fixed": {}, "choice": 0}}.items()}
SECTOR_111 = {"sectors/111/cost": 3, "sectors/111/quarters": 2, "sectors/111/income_icons": [],
              "ships/L2-construction/cost": 3}


def setup(catalogue: dict) -> list[dict]:
    """A first game (Ann set 3 with its Level-2 Construction ship, Bob set 1) up to Ann's first
    turn, `catalogue` given on the new_game line."""
    return [
        {"cmd": "new_game", "first_game": True, "catalogue": catalogue,
         "players": [{"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"}],
         "aliens": {"teal": 13, "pink": 12, "brown": 13, "gold": 12}},
        {"cmd": "sector_display", "sectors": [101, 102, 111, 112, 121, 122, 201, 202, 211, 212,
                                              221, 222, 301, 302, 311, 312, 321, 322]},
        {"cmd": "first_game_sets", "sets": {"Ann": 3, "Bob": 1}},
        {"cmd": "starting_bonus", "player": "Ann"},
        {"cmd": "starting_bonus", "player": "Bob"},
    ]


BUILD_111 = {"cmd": "use_ship", "player": "Ann", "ship": "Ann:L2-construction", "sector": 111}


@pytest.fixture
def empty(tmp_path):
    """The shipped catalogue with an empty overlay: what a new user starts with."""
    return load_catalogue(overlay=tmp_path / "overlay.json")


def play(catalogue, commands: list[dict]) -> Game:
    return replay([json.dumps(c) for c in commands], catalogue)


def sector_numbers(game: Game, player: int) -> list[int]:
    return [s["number"] for s in game.state["players"][player]["sectors"]]


def test_a_sector_value_is_asked_with_the_key_to_answer_it(empty):
    with pytest.raises(ScriptError) as refused:
        play(empty, [*setup({**HUB_VALUES, "ships/L2-construction/cost": 3}), BUILD_111])
    assert str(refused.value) == ('line 6: How much metal does Sector 111 cost? - add '
                                  '"catalogue": {"sectors/111/cost": ...} to this line')


def test_a_sector_value_on_the_line_that_asks_builds_it(empty):
    game = play(empty, [*setup(HUB_VALUES), {**BUILD_111, "catalogue": SECTOR_111}])
    assert sector_numbers(game, 0) == [111]
    assert game.state["players"][0]["sectors"][0]["quarters"] == 2
    # Test values: 3 metal at the start, Sector 111 costs 3; "Level-2 and Level-3 Construction
    # ships allow players to build Sectors for 1 or 2 metal less."
    assert game.state["players"][0]["metal"] == 3 - (3 - 1)
    assert game.steps[-1].learned == SECTOR_111


def test_a_value_on_an_earlier_line_is_used_later(empty):
    game = play(empty, [*setup({**HUB_VALUES, **SECTOR_111}), BUILD_111])
    assert sector_numbers(game, 0) == [111]
    assert game.state["learned"]["sectors/111/cost"] == 3
    assert game.steps[0].learned == {**HUB_VALUES, **SECTOR_111}
    assert game.steps[-1].learned == {}


def test_a_learned_value_is_undone_with_its_line(empty):
    game = play(empty, setup({**HUB_VALUES, "sectors/111/cost": 3}))
    while game.steps:
        game.undo()
    assert game.state["learned"] == {}
    game.redo()
    assert game.state["learned"] == {**HUB_VALUES, "sectors/111/cost": 3}


def test_every_value_the_catalogue_lacks_can_be_given(empty):
    """Every value the engine asks for (Sectors with their ability links and income icons,
    ships, Hubs, Diplomacy, setup) is accepted as a "catalogue" key with a value of its type."""
    given = {f"{kind}/{record}/{name}": value
             for kind, records in table_values(empty).items()
             for record, fields in records.items() for name, value in fields.items()}
    assert {key.split("/")[0] for key in given} == {"sectors", "ships", "hubs", "diplomacy"}
    assert "sectors/101/abilities.0.quarter" in given
    for key, value in given.items():
        assert check_entry(key, value) == key
    assert check_entry("hubs/b-1/starting_gems", 8) == "hubs/B-1/starting_gems"
    assert check_entry("setup/humans_on_terra/players_2", 16) == "setup/humans_on_terra/players_2"


@pytest.mark.parametrize(("key", "value", "words"), [
    ("sectors/999/cost", 3, '"catalogue" key "sectors/999/cost": record 999: no such record'),
    ("sectors/111/price", 3, "field 'price': no such field (expected one of level, color, cost"),
    ("sectors/111/abilities.0.quarter", 0, "Sector 111 has 0 abilit"),
    ("hubs/B-1", 8, 'key "hubs/B-1": expected "kind/record/field"'),
    ("cards/1/cost", 3, "kind 'cards': not a catalogue kind"),
    ("ships/L1-transport/type", "farm", "a ship's type cannot be changed"),
    ("sectors/111/cost", "3", "field 'cost': expected a whole number, got '3'"),
    ("sectors/111/cost", True, "expected a whole number, got True"),
    ("sectors/111/income_icons", [{"resource": "gold", "amount": 1, "quarter": 0}],
     "field 'income_icons': item 0: resource: expected one of gems, food, water, metal"),
    ("hubs/B-1/starting_diplomacy", {"fixed": {"trade": 1}, "choice": 0}, "unknown key 'trade'"),
    ("diplomacy/level-1/lobbying_cost", None, "expected a value, got null"),
])
def test_a_value_for_no_field_or_of_the_wrong_type_is_refused(empty, key, value, words):
    game = play(empty, setup(HUB_VALUES))
    before = copy.deepcopy(game.state)
    with pytest.raises(Refused) as refused:
        game.execute({**BUILD_111, "catalogue": {**SECTOR_111, key: value}})
    assert words in refused.value.reason
    assert game.state == before


def test_catalogue_must_be_an_object(empty):
    with pytest.raises(ScriptError, match="line 1: new_game: catalogue must be an object"):
        play(empty, setup([["sectors/111/cost", 3]]))


def test_a_value_given_again_teaches_nothing_new(empty):
    game = play(empty, [*setup({**HUB_VALUES, **SECTOR_111}), {**BUILD_111,
                                                                 "catalogue": SECTOR_111}])
    assert game.steps[-1].learned == {}


def test_a_line_asked_for_another_value_keeps_none_of_its_own(empty):
    """A line refused for a missing value changes nothing: resubmitted, it gives them all."""
    game = play(empty, setup(HUB_VALUES))
    with pytest.raises(Missing) as missing:
        game.execute({**BUILD_111, "catalogue": {"sectors/111/cost": 3}})
    assert missing.value.key != "sectors/111/cost"
    assert game.state["learned"] == HUB_VALUES


# -- whole games, every value on the lines --------------------------------------------------


@pytest.mark.parametrize("name", ["two-players-first-game", "three-players-draft",
                                  "four-players-draft"])
def test_an_example_game_reaches_the_hand_worked_states(empty, name):
    """examples/NAME.jsonl is the game of tests/rules/games/NAME.jsonl with each value the
    catalogue lacks given with "catalogue" (on the line that asks, or an earlier one): replayed
    from an empty overlay, it passes every check worked out by hand for that game."""
    commands = list(parse((EXAMPLES / f"{name}.jsonl").read_text().splitlines()))
    game = Game(empty)
    checks = 0
    for text in (GAMES / f"{name}.jsonl").read_text().splitlines():
        if text.startswith('{"check"'):
            check(json.loads(text)["check"], game, checks)
            checks += 1
            continue
        for line in parse([text]):
            example = commands.pop(0)
            assert {k: v for k, v in example.command.items()
                    if k not in ("catalogue", "example")} == line.command, \
                f"examples/{name}.jsonl line {example.number}"
            replay([json.dumps(example.command)], empty, game)
    assert commands == []
    assert checks >= 5
    assert game.state["phase"] == "over"
