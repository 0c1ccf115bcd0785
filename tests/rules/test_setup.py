"""Setup, step by step, for 2, 3 and 4 players."""

from __future__ import annotations

import pytest
from tables import ALIENS_DRAWN, Table, display_for

from companion.rules.game import Game
from companion.rules.message import event_text
from companion.rules.move import Refused


def new_game(catalogue, count=3, **options):
    game = Game(catalogue)
    names = ["Ann", "Bob", "Cat", "Dan"][:count]
    colors = ["red", "blue", "yellow", "green"][:count]
    game.execute({"cmd": "new_game", "players": [{"name": n, "color": c}
                                                 for n, c in zip(names, colors)],
                  "aliens": ALIENS_DRAWN[count], **options})
    return game


@pytest.mark.parametrize(("count", "humans", "aliens"), [(2, 16, 50), (3, 20, 70), (4, 24, 90)])
def test_supply_by_player_count(table_catalogue, count, humans, aliens):
    """"2p: 16 / 3p: 20 / 4p: 24" Humans; "2p: 50 / 3p: 70 / 4p: 90" Aliens."""
    game = new_game(table_catalogue, count)
    supply = game.state["supply"]
    assert supply["human"] == humans
    assert supply["teal"] + supply["pink"] + supply["brown"] + supply["gold"] == aliens


def test_aliens_drawn_must_add_up(table_catalogue):
    game = Game(table_catalogue)
    with pytest.raises(Refused, match="Draw 70 Aliens"):
        game.execute({"cmd": "new_game", "players": [{"name": n, "color": c} for n, c in
                                                     [("A", "red"), ("B", "blue"),
                                                      ("C", "green")]],
                      "aliens": {"teal": 20, "pink": 20, "brown": 20, "gold": 20}})


def test_each_player_starts_with_five_level1_ships(table_catalogue):
    """"f. The 5 Level-1 ships that have the player's color at the top.\""""
    game = new_game(table_catalogue, 2)
    ships = [s["design"] for s in game.state["ships"].values() if s["owner"] == 0]
    assert sorted(ships) == ["L1-construction", "L1-diplomacy", "L1-dismantle",
                             "L1-expedition", "L1-transport"]
    assert sum(1 for s in game.state["ships"].values() if s["owner"] is None) == 5


def test_display_one_per_player_per_stack(table_catalogue):
    """"From each stack, randomly select 1 sector per player.\""""
    game = new_game(table_catalogue, 3)
    with pytest.raises(Refused, match="the display has 3 of each"):
        game.execute({"cmd": "sector_display", "sectors": display_for(2)})
    game.execute({"cmd": "sector_display", "sectors": display_for(3)})
    assert len(game.state["display"]) == 27  # "There will be a total of 27 Sectors available"


def test_friendly_variant_adds_one_per_stack(table_catalogue):
    """"Friendly Variant: For each level, add 1 more of each color.\""""
    game = new_game(table_catalogue, 2, friendly=True)
    game.execute({"cmd": "sector_display", "sectors": display_for(3)})
    assert len(game.state["display"]) == 27


def test_first_game_display_uses_numbers_ending_1_to_4(table_catalogue):
    """"For the first game: Use only the Sectors whose Sector Numbers end with 1, 2, 3, or 4\""""
    game = new_game(table_catalogue, 2, first_game=True)
    numbers = display_for(2)
    numbers[0] = 105
    with pytest.raises(Refused, match="ending in 1-4"):
        game.execute({"cmd": "sector_display", "sectors": numbers})


def test_first_game_sets_and_b2_exception(table_catalogue):
    """Set 2: "B-2 Transport", "Ice Collector (+5 water), Construction", "Farm (+4 food)"; "the
    player with B-2 ... takes the following Level-2 ships in addition to the ones already taken:
    Transport, Dismantle.\""""
    game = new_game(table_catalogue, 2, first_game=True)
    game.execute({"cmd": "sector_display", "sectors": display_for(2)})
    game.execute({"cmd": "first_game_sets", "sets": {"Ann": 2, "Bob": 4}})
    ann = sorted(s["design"] for s in game.state["ships"].values() if s["owner"] == 0)
    assert [d for d in ann if not d.startswith("L1")] == [
        "L2-dismantle", "L2-farm", "L2-transport", "L3-construction", "L3-ice_collector"]
    assert game.state["players"][0]["hub"] == "B-2"
    assert game.state["players"][1]["hub"] == "B-4"


def test_draft_order(table_catalogue):
    """Level-3: "In turn order, each player takes 1 of those ships. Then in reverse turn order,
    each player takes a second ship." Level-2: "In reverse turn order ... Then in turn order".
    "3p: 7" ships revealed."""
    game = new_game(table_catalogue, 3)
    game.execute({"cmd": "sector_display", "sectors": display_for(3)})
    game.execute({"cmd": "deal_hubs", "hubs": {"Ann": ["B-1", "B-2"], "Bob": ["B-3", "B-4"],
                                               "Cat": ["B-5", "B-6"]}})
    with pytest.raises(Refused, match="reveal 7 ships"):
        game.execute({"cmd": "reveal_ships", "ships": ["L3-dismantle"] * 5})
    game.execute({"cmd": "reveal_ships", "ships": ["L3-dismantle"] * 7})
    assert game.state["setup"]["draft_order"] == [0, 1, 2, 2, 1, 0]
    with pytest.raises(Refused, match="Ann's pick"):
        game.execute({"cmd": "draft_ship", "player": "Bob", "ship": "L3-dismantle"})
    for name in ["Ann", "Bob", "Cat", "Cat", "Bob", "Ann"]:
        game.execute({"cmd": "draft_ship", "player": name, "ship": "L3-dismantle"})
    revealed = game.execute({"cmd": "reveal_ships", "ships": ["L2-farm"] * 7})
    assert game.state["setup"]["draft_order"] == [2, 1, 0, 0, 1, 2]
    drafted = game.execute({"cmd": "draft_ship", "player": "Cat", "ship": "L2-farm"})
    # the log names ships as the players do, never by their ids (issue 27)
    assert [event_text(e) for e in [*revealed.events, *drafted.events]] == [
        "Level-2 ships revealed: " + ", ".join(["Farm L2"] * 7),
        "Cat takes a Farm L2 ship", "Cat drafts Farm L2"]


def test_basic_game_deals_only_basic_hubs(table_catalogue):
    """"For an easier game, use only Station Hubs B-1 to B-12 ("Basic").\""""
    game = new_game(table_catalogue, 2)
    game.execute({"cmd": "sector_display", "sectors": display_for(2)})
    with pytest.raises(Refused, match="basic game"):
        game.execute({"cmd": "deal_hubs", "hubs": {"Ann": ["B-1", "A-2"],
                                                   "Bob": ["B-3", "B-4"]}})


def test_hub_choice_in_turn_order(table_catalogue):
    """"in turn order, each player keeps 1 of their Station Hubs and returns the other\""""
    game = new_game(table_catalogue, 2, advanced=True)
    game.execute({"cmd": "sector_display", "sectors": display_for(2)})
    game.execute({"cmd": "deal_hubs", "hubs": {"Ann": ["B-1", "A-2"], "Bob": ["B-3", "B-4"]}})
    for design in ("L3-dismantle", "L2-farm"):
        game.execute({"cmd": "reveal_ships", "ships": [design] * 5})
        for index in list(game.state["setup"]["draft_order"]):
            game.execute({"cmd": "draft_ship", "player": ["Ann", "Bob"][index], "ship": design})
    with pytest.raises(Refused, match="Ann's turn to choose"):
        game.execute({"cmd": "choose_hub", "player": "Bob", "hub": "B-3"})
    with pytest.raises(Refused, match="was dealt B-1 and A-2"):
        game.execute({"cmd": "choose_hub", "player": "Ann", "hub": "B-3"})
    game.execute({"cmd": "choose_hub", "player": "Ann", "hub": "A-2"})
    assert game.state["players"][0]["hub"] == "A-2"


def test_turn_order_compensation(table_catalogue):
    """"In compensation for turn order, some players take extra GEMs ... P2: 1 / P3: 2 / P4: 3"
    (test value: every Hub here starts with 8 GEMs)."""
    table = Table(table_catalogue, hubs=("B-3", "B-5", "A-2", "A-3"))
    table.setup_bonuses()
    assert [p["gems"] for p in table.state["players"]] == [8, 9, 10, 11]


def test_free_sector_and_hub_residents_of_b11(table_catalogue):
    """B-11: "During setup, take a free Level-1 pink Sector and place 3 pink Aliens on this Hub
    (they can be moved later).\""""
    table = Table(table_catalogue, hubs=("B-11", "B-5"))
    with pytest.raises(Refused, match="free Level-1 pink Sector"):
        table.run({"cmd": "starting_bonus", "player": "Ann", "sectors": [101]})
    pink = table.state["supply"]["pink"]
    table.run({"cmd": "starting_bonus", "player": "Ann", "sectors": [121]})
    ann = table.player("Ann")
    assert [s["number"] for s in ann["sectors"]] == [121]
    assert ann["hub_slots"] == ["pink", "pink", "pink"]
    assert table.state["supply"]["pink"] == pink - 3


def test_starting_diplomacy_choice(table_catalogue):
    """A-5: "you may move up two spaces on one Diplomacy track or one space each on two
    different tracks" - "Do not take any bonuses as a result of these advances"."""
    table = Table(table_catalogue, hubs=("A-5", "B-5"))
    with pytest.raises(Refused, match="two spaces on one Diplomacy track"):
        table.run({"cmd": "starting_bonus", "player": "Ann", "discard": ["Ann:L2-farm"],
                   "diplomacy": {"transport": 1}})
    table.run({"cmd": "starting_bonus", "player": "Ann", "discard": ["Ann:L2-farm"],
               "diplomacy": {"transport": 1, "dismantle": 1}})
    ann = table.player("Ann")
    assert ann["diplomacy"] == {"dismantle": 1, "construction": 0, "transport": 1,
                                "expedition": 0}
    assert ann["gems"] == 8  # advances at setup are free
    designs = sorted(s["design"] for s in table.state["ships"].values() if s["owner"] == 0)
    assert "L1-diplomacy" not in designs and "L2-farm" not in designs


def test_bonuses_in_turn_order_then_play_starts(table_catalogue):
    table = Table(table_catalogue, hubs=("B-3", "B-5"))
    with pytest.raises(Refused, match="Ann takes their bonuses first"):
        table.run({"cmd": "starting_bonus", "player": "Bob"})
    table.setup_bonuses()
    assert table.state["phase"] == "play"
    assert table.state["turn"] == {"number": 1, "active": 0, "acted": False, "extra_turns": 0,
                                   "action": None, "used": []}
