"""The setup wizard's model, without Kivy: whole setups driven through the real engine from an
empty catalogue overlay, every value given the way the app gives it (TEST values)."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

import pytest

from companion import i18n
from companion.catalogue_files import load_catalogue
from companion.rules.commands import attempt
from companion.rules.game import Game
from companion.ui.setup import setup_model as model

sys.path.insert(0, str(Path(__file__).parents[2] / "rules"))
from tables import table_values


def wizard_for(game):
    """The wizard on an engine's Game, its commands sent as the session sends them (the
    engine's verdicts as outcomes), without a store."""
    return model.SetupWizard(game, partial(attempt, game))


@pytest.fixture
def empty(tmp_path):
    """The shipped catalogue with an empty overlay: what a new user starts with."""
    return load_catalogue(overlay=tmp_path / "overlay.json")


def tile_values(catalogue, choice_hubs=()):
    """What a table reads off its tiles (TEST values); the Hubs in `choice_hubs` give two
    Diplomacy spaces to choose."""
    values = table_values(catalogue)
    for hub in choice_hubs:
        values["hubs"][hub]["starting_diplomacy"] = {"fixed": {}, "choice": 2}

    def value(key):
        kind, record, field = key.split("/")
        return values[kind][record][field]
    return value


def enter_players(wizard, names, mode="draft"):
    step = wizard.step
    while len(step.players) < len(names):
        step.add()
    while len(step.players) > len(names):
        step.remove(len(step.players) - 1)
    for index, name in enumerate(names):
        step.set_name(index, name)
    assert step.done(mode), wizard.message


def count_aliens(wizard, aliens):
    step = wizard.step
    assert isinstance(step, model.LayOut)
    for color, count in aliens.items():
        step.set_aliens(color, count)
    assert step.done(), wizard.message


def lay_display(wizard):
    """Tap the display stack by stack, as the table draws it (the lowest numbers offered)."""
    while isinstance(wizard.step, model.Display):
        step = wizard.step
        number = next(n for n in step.numbers if n not in step.picked)
        assert step.tap(number), wizard.message


def finish(wizard, value, picks=None, answers=None):
    """Go on to the first turn: first options, `picks` (title word -> choice), the tiles'
    values in the values step, `answers` for a Hub's bonus (by field)."""
    picks, answers, asked = picks or {}, answers or {}, []
    while not wizard.finished:
        step = wizard.step
        if isinstance(step, model.Values):
            for item in step.open:
                assert step.enter(item["key"], value(item["key"])), wizard.message
            assert step.done()
        elif isinstance(step, model.Bonuses):
            ask = step.ask
            if ask is None:
                assert step.confirm() or wizard.question, wizard.message
            else:
                answer = answers[ask.field].pop(0) if ask.field in answers else ask.offered[0]
                if ask.field in ("sectors", "private_sectors"):  # tapped, from its stack
                    stacks = {wizard.catalogue.sectors[n].stack for n in ask.offered}
                    assert answer in ask.offered and len(stacks) == 1, (answer, ask)
                if ask.field == "private_sectors":  # "extra Sectors", none on display
                    assert not set(ask.offered) & set(wizard.state["display"]), ask
                step.choose(answer)
        elif isinstance(step, model.Answer):
            asked.append(step.title)
            card = step.card()
            assert step.enter({s.key: value(s.key) for s in card.slots}) or wizard.question, \
                wizard.message
        else:
            choice = next((c for word, c in picks.items() if word in step.title), None)
            assert step.choose(choice or step.offered[0]), wizard.message
    return asked


def test_a_three_player_first_game_from_an_empty_overlay(empty):
    game = Game(empty)
    wizard = wizard_for(game)
    assert wizard.name == "Players" and wizard.steps() == list(model.STEPS)
    enter_players(wizard, ["Ann", "Björn", "Cäcilie"], mode="first_game")
    assert wizard.steps() == [s for s in model.STEPS if s != "Hubs"]
    assert wizard.step.lines[:2] == ["Put 20 Humans on Terra.",
                                     "Draw 70 Aliens from the bag; count them by colour."]
    assert "3 of each" in wizard.step.lines[2]
    count_aliens(wizard, {"teal": 18, "pink": 17, "brown": 18, "gold": 17})
    assert wizard.name == "Sector display" and wizard.step.endings == [1, 2, 3, 4]
    lay_display(wizard)
    step = wizard.step
    assert wizard.name == "Draft" and step.title == "First game: which set does Ann take?"
    assert step.describe(1) == ("Set 1: Hub B-1, Level-3 Dismantle, Level-3 Terran Expedition, "
                                "Level-2 Dismantle")
    for number in (2, 1, 3):
        assert wizard.step.choose(number)
    assert wizard.name == "Values from the tiles"
    values = wizard.step
    assert "Hub B-1" in values.groups and any(c.startswith("Sector ") for c in values.groups)
    card = values.card()  # the first component's card, like the tile: no field names
    assert card.title == values.components[0]
    assert [slot.label for slot in card.shown][:2] == ["GEMs at the start", "Food at the start"]
    asked = finish(wizard, tile_values(empty))
    assert asked == []  # everything was given in the values step
    assert game.state["phase"] == "play" and wizard.name == "Start"
    assert wizard.step.lines[-1] == "Ann begins."
    gems = [p["gems"] for p in game.state["players"]]
    assert gems == [8, 8 + 1, 8 + 2]  # the test values' 8, and the turn order's "P2: 1 / P3: 2"
    learned = {k for step in game.steps for k in step.learned}
    assert {item["key"] for item in values.open} <= learned


def test_a_four_player_draft_with_advanced_hubs(empty):
    game = Game(empty)
    wizard = wizard_for(game)
    enter_players(wizard, ["Ann", "Bob", "Cat", "Dan"], mode="advanced")
    count_aliens(wizard, {"teal": 23, "pink": 22, "brown": 23, "gold": 22})
    lay_display(wizard)
    for hub in ("A-6", "B-1", "B-6", "B-2", "A-1", "B-3", "A-5", "B-4"):
        assert wizard.step.choose(hub), wizard.message
    step = wizard.step
    assert step.title == "Reveal 9 Level-3 ships (1 of 9): which?"
    for _ in range(9):
        assert wizard.step.choose("L3-dismantle")
    step = wizard.step
    assert step.order == ["Ann", "Bob", "Cat", "Dan", "Dan", "Cat", "Bob", "Ann"]
    while isinstance(wizard.step, model.Pick):
        assert wizard.step.choose(wizard.step.offered[0])
    for _ in range(9):
        wizard.step.choose("L2-transport")
    assert wizard.step.order == ["Dan", "Cat", "Bob", "Ann", "Ann", "Bob", "Cat", "Dan"]
    value = tile_values(empty, choice_hubs=["A-6"])
    asked = finish(wizard, value, picks={"Ann keeps": "A-6", "Bob keeps": "B-6",
                                         "Cat keeps": "A-1", "Dan keeps": "A-5"},
                   answers={"diplomacy": ["construction", "construction", "dismantle", "transport"],
                            "private_sectors": [105, 115, 125, 205, 215, 225, 305, 315, 325],
                            "sectors": [118]})
    state = game.state
    assert state["phase"] == "play"
    ann, bob, _, dan = state["players"]
    assert ann["private_sectors"] == [105, 115, 125, 205, 215, 225, 305, 315, 325]
    assert ann["diplomacy"]["construction"] == 2
    assert (dan["diplomacy"]["dismantle"], dan["diplomacy"]["transport"]) == (1, 1)
    assert [s["number"] for s in bob["sectors"]] == [118]
    assert "Bob:L1-diplomacy" not in state["ships"]  # B-6 discards it (the only one)
    assert sum(s["owner"] == 2 and s["design"].startswith("L2-") for s in
               state["ships"].values()) == 3  # two drafted, one kept of two drawn
    assert sum(s["owner"] == 3 and s["design"].startswith("L2-") for s in
               state["ships"].values()) == 1  # one of the two discarded
    # B-6's free Sector is not on display: its values are asked when it is taken
    assert asked and all("Sector 118" in question for question in asked), asked


def test_names_with_umlauts_colours_and_their_problems(empty):
    wizard = wizard_for(Game(empty))
    step = wizard.step
    assert len(step.players) == 2 and step.unnamed() == 0  # two to start with, unnamed
    step.add()
    step.set_name(0, "Jürgen")
    assert step.unnamed(0) == 1  # the name keyboard goes on to player 2
    step.set_name(1, "Jürgen")
    step.set_name(2, "Maß")
    assert step.unnamed(0) is None
    assert not step.done("draft") and wizard.message == "each player needs a name of their own"
    step.set_name(1, "")
    assert not step.done("draft") and wizard.message == "player 2's name cannot be empty"
    step.set_name(1, "Öz")
    step.set_color(0, "blue")
    assert [p["color"] for p in step.players] == ["blue", "red", "yellow"]
    step.add()
    step.add()
    assert len(step.players) == 4 and step.players[3]["color"] == "green"
    step.remove(3)
    step.toggle_friendly()
    assert step.done("advanced")
    assert wizard.name == "Lay out"
    assert wizard.choices == {"first_game": False, "advanced": True, "friendly": True}
    wizard.back()
    assert wizard.name == "Players"
    assert wizard.step.done("first_game")
    assert wizard.choices == {"first_game": True, "advanced": False, "friendly": True}


def test_the_aliens_are_counted_in_a_tap_each_the_last_colour_what_is_left(empty):
    wizard = wizard_for(Game(empty))
    enter_players(wizard, ["Ann", "Bob", "Cat"])
    step = wizard.step
    assert step.numbers == list(range(13, 21))  # around 70 / 4
    step.set_aliens("teal", 18)
    step.set_aliens("pink", 17)
    assert step.aliens["gold"] is None and step.rest is None
    step.set_aliens("brown", 18)
    assert step.aliens["gold"] == 17 and step.rest == "gold"  # what the 53 leave of 70
    step.set_aliens("teal", 19)
    assert step.aliens["gold"] == 16 and step.rest == "gold"
    step.set_aliens("gold", 15)  # counted after all: the count the table gives
    assert step.rest is None and step.counted == 69
    assert not step.done() and wizard.message.startswith("Draw 70 Aliens")  # the engine's
    step.set_aliens("teal", 18)
    step.set_aliens("gold", 17)
    assert step.done() and wizard.name == "Sector display"
    step = wizard_for(Game(empty))
    enter_players(step, ["Ann", "Bob", "Cat"])
    step = step.step
    for color, count in (("teal", 60), ("pink", 10), ("brown", 5)):
        step.set_aliens(color, count)
    assert step.aliens["gold"] is None and step.rest is None  # 75 drawn of 70: no count left


def test_the_engine_says_why_and_back_steps_back(empty):
    game = Game(empty)
    wizard = wizard_for(game)
    enter_players(wizard, ["Ann", "Bob"])
    for color in ("teal", "pink", "brown", "gold"):
        wizard.step.set_aliens(color, 1)
    assert not wizard.step.done()
    assert wizard.message.startswith("Draw 50 Aliens for 2 players")
    assert game.state["phase"] == "new"
    count_aliens(wizard, {"teal": 13, "pink": 12, "brown": 13, "gold": 12})
    step = wizard.step
    assert step.title == "Level-1 brown stack: tap the 2 Sectors on display"
    assert step.numbers == [111, 112, 113, 114, 115, 116, 117, 118]  # the stack's, in order
    assert step.tap(113) and step.picked == [113] and step.tap(114)
    assert wizard.step.stack == (1, "pink") and wizard.step.picked == []  # on to the next
    wizard.back()  # the last number taken back: its stack again
    step = wizard.step
    assert step.stack == (1, "brown") and step.picked == [113]
    assert step.tap(113) and step.picked == []  # tapped again: taken back
    assert not step.enter(101)
    assert wizard.message == "Sector 101 is from the Level-1 teal stack, not the Level-1 brown one"
    assert not step.enter(99) and wizard.message == "there is no Sector 99"
    assert step.enter(111) and not step.enter(111)
    wizard.back()
    assert wizard.step.entries == []
    wizard.back()  # undoes new_game
    assert game.state["phase"] == "new" and wizard.name == "Lay out"


def to_the_values(wizard: model.SetupWizard) -> None:
    """A 2-player first game (sets 1 and 2) walked up to the values from the tiles."""
    enter_players(wizard, ["Ann", "Bob"], mode="first_game")
    count_aliens(wizard, {"teal": 13, "pink": 12, "brown": 13, "gold": 12})
    lay_display(wizard)
    wizard.step.choose(1)
    wizard.step.choose(2)


def test_a_value_is_checked_as_the_catalogue_checks_it(empty):
    wizard = wizard_for(Game(empty))
    to_the_values(wizard)
    values = wizard.step
    key = values.open[0]["key"]
    assert key == "hubs/B-1/starting_gems"
    assert values.card().slots[0].how == "number"
    assert not values.enter(key, "eight") and "whole number" in wizard.message
    assert values.current == "Hub B-1" and values.progress == f"{len(values.components)} to go"
    diplomacy = next(s for s in values.card().slots if s.key == "hubs/B-1/starting_diplomacy")
    assert diplomacy.how == "diplomacy"  # the tracks tapped, no JSON
    values.skip(key)
    assert key not in [item["key"] for item in values.open]
    values.done()  # Ann's bonus asks no choice: sent; the engine asks the value skipped
    answer = wizard.step
    # the Hub's card: the value asked first, then the rest of the Hub the engine still asks
    assert answer.key == key and answer.title == "What Hub B-1 prints"
    card = answer.card()
    assert card.title == "Hub B-1" and card.slots[0].key == key
    assert card.slots[0].how == "number"


def test_a_value_refused_in_german_says_so_in_german(empty):
    """The wizard's refusal comes from the catalogue's fields, not its English words."""
    wizard = wizard_for(Game(empty))
    to_the_values(wizard)
    values = wizard.step
    key = values.open[0]["key"]
    i18n.set_language("de")
    try:
        assert not values.enter(key, "eight")
        assert wizard.message == "erwartet eine ganze Zahl, nicht 'eight'"
        assert not values.enter(key, -1)
        assert wizard.message == "erwartet eine ganze Zahl ab 0, nicht -1"
    finally:
        i18n.set_language("en")
    assert not values.enter(key, -1)
    assert wizard.message == "expected a whole number 0 or more, got -1"


def test_a_setup_resumed_after_a_restart_goes_on_where_it_was(empty):
    game = Game(empty)
    wizard = wizard_for(game)
    to_the_values(wizard)
    value = tile_values(empty)
    for item in wizard.step.open:
        if item["key"] != "hubs/B-2/starting_gems":  # Bob's: skipped, asked at his bonus
            wizard.step.enter(item["key"], value(item["key"]))
    wizard.step.done()  # Ann's bonus asks nothing: taken at once; Bob's asks his GEMs
    assert wizard.step.key == "hubs/B-2/starting_gems"
    again = wizard_for(game)  # the app relaunched
    assert again.name == "Starting bonuses" and again.step.player == "Bob"
    again.back()  # Bob has not taken his yet: undoes Ann's
    assert again.name == "Values from the tiles"


def test_the_values_step_shows_one_card_per_component(empty):
    wizard = wizard_for(Game(empty))
    to_the_values(wizard)
    values = wizard.step
    total = len(values.components)
    assert values.current == "Hub B-1" and values.progress == f"{total} to go"
    assert values.next() and wizard.step.current == values.components[1]
    wizard.back()
    assert wizard.step.current == "Hub B-1"
    wizard.step.next()
    second = wizard.step
    assert second.skip_component() and wizard.step.progress == f"{total - 2} to go"
    assert {i["key"] for i in second.groups[second.components[1]]} <= wizard.skipped
    wizard.component = total - 1
    assert wizard.step.next() and wizard.name == "Starting bonuses"


def test_a_card_shows_only_what_the_engine_still_asks(empty):
    """A Hub paying GEMs per ship is asked no fixed income: the engine says so, the card
    follows; a card's values are entered together, then the next card."""
    wizard = wizard_for(Game(empty))
    to_the_values(wizard)
    values = wizard.step
    card = values.card()
    fixed = "hubs/B-1/income_fixed_gems"
    assert fixed in [s.key for s in card.shown]
    assert card.number("hubs/B-1/income_gems_per_ship", 1)
    assert fixed not in [s.key for s in card.shown]
    for key, number in (("starting_gems", 8), ("starting_food", 2), ("starting_water", 2),
                        ("starting_metal", 3)):
        assert card.number(f"hubs/B-1/{key}", number)
    assert not card.complete and card.free("hubs/B-1/starting_diplomacy", 0)
    assert card.complete and not card.waits  # taken at its last tap
    assert values.take(card.result()) and wizard.step.current == values.components[1]
    assert wizard.values["hubs/B-1/starting_gems"] == 8 and fixed not in wizard.values


def test_a_name_typed_on_the_on_screen_keyboard_is_checked_before_it_is_taken(empty):
    """The setup's name keyboard (a table with only a touchscreen) asks the wizard first."""
    step = wizard_for(Game(empty)).step
    step.set_name(0, "Ann")
    assert step.name_problem(1, "Jörg Süßbär") is None
    assert step.name_problem(1, "Ann ") == "another player is called Ann"
    assert step.name_problem(0, "Ann") is None  # her own name again
    assert step.name_problem(2, "  ") == "player 3's name cannot be empty"
    # as the engine tells names apart: a look-alike (Cyrillic А), another case, an invisible
    # or direction-turning character
    assert step.name_problem(1, "\u0410nn") == "another player is called \u0410nn"
    assert step.name_problem(1, "ANN") == "another player is called ANN"
    assert "no letter or digit" in step.name_problem(1, "\u200b")
    assert "turns the writing direction" in step.name_problem(1, "Bob\u202e")


def test_a_ship_to_discard_is_offered_by_its_design(empty):
    """A-5's starting bonus: one of the two Level-2 ships drafted is discarded; the buttons
    say which design, the command names the ship."""
    game = Game(empty)
    wizard = wizard_for(game)
    enter_players(wizard, ["Ann", "Bob"], mode="advanced")
    count_aliens(wizard, {"teal": 13, "pink": 12, "brown": 13, "gold": 12})
    lay_display(wizard)
    for hub in ("A-5", "B-1", "B-2", "B-3"):
        assert wizard.step.choose(hub), wizard.message
    for level, designs in ((3, ["L3-dismantle"] * 5),
                           (2, ["L2-farm", "L2-farm", "L2-transport", "L2-farm", "L2-farm"])):
        for design in designs:
            assert wizard.step.choose(design), wizard.message
        while isinstance(wizard.step, model.Pick):  # Ann takes a Transport and a Farm
            step = wizard.step
            choice = ("L2-transport" if level == 2 and step.player == "Ann"
                      and "L2-transport" in step.offered else step.offered[0])
            assert step.choose(choice), wizard.message
    assert wizard.step.choose("A-5") and wizard.step.choose("B-3")
    assert wizard.step.done()  # the values: asked during play
    step = wizard.step
    for track in ("construction", "expedition"):
        assert step.choose(track)
    assert step.title == "Hub A-5: discard which Level-2 ship?"
    assert [step.describe(c) for c in step.ask.offered] == ["Transport L2", "Farm L2"]
    step.choose("Ann:L2-transport")
    assert step.lines[:2] == ["Diplomacy: Construct, Expedition", "Discarded: Transport L2"]


def test_the_names_of_recent_players_are_offered_but_those_taken(empty):
    """A table that plays again: the names of the games stored, the most recent first."""
    wizard = model.SetupWizard(Game(empty), partial(attempt, Game(empty)),
                               [["Cat", "Ann"], ["ann", "Bob"], []])
    step = wizard.step
    assert step.recent(0) == ["Cat", "Ann", "Bob"]  # "ann" is Ann, as the engine tells apart
    step.set_name(0, "Ann")
    assert step.recent(1) == ["Cat", "Bob"]
    assert step.recent(0) == ["Cat", "Ann", "Bob"]  # her own name stays offered to her
