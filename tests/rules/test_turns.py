"""Turn order, extra turns, the end of the game, and the log: undo, redo, overrides, adjustments."""

from __future__ import annotations

import copy

import pytest
from tables import Table

from companion.rules.message import say
from companion.rules.move import Refused
from companion.rules.report import final_score


def farm(table, name):
    table.run({"cmd": "use_ship", "player": name, "ship": f"{name}:L2-farm"})
    table.end_turn()


def test_turns_go_clockwise(table):
    """"Turn order is clockwise around the table.\""""
    farm(table, "Ann")
    assert table.state["turn"]["active"] == 1
    farm(table, "Bob")
    assert table.state["turn"]["active"] == 0


def test_a_turn_needs_an_action(table):
    """"On a player's turn, they must do one of the following two things\""""
    with pytest.raises(Refused, match="has not taken an action"):
        table.end_turn()


@pytest.mark.parametrize("condition", ["points", "sectors", "aliens"])
def test_end_triggered_then_one_more_turn_each(table_catalogue, condition):
    """"If the player has triggered the end of the game, then everyone else gets one more turn
    (but that player does not).\""""
    table = Table(table_catalogue, hubs=("B-3", "B-5", "A-2"))
    table.setup_bonuses()
    farm(table, "Ann")
    if condition == "points":
        table.set("Bob", points=40)
    elif condition == "sectors":
        for number in (101, 201, 301, 111, 211, 311, 121, 221, 321):
            table.put_sector("Bob", number)
    else:
        for color in ("teal", "pink", "brown", "gold"):
            table.run({"cmd": "adjust", "who": "supply", "counter": color, "value": 1,
                       "note": "test scene"})
    farm(table, "Bob")
    assert table.state["end"]["triggered_by"] == 1
    assert table.state["turn"]["active"] == 2
    farm(table, "Cat")
    assert table.state["turn"]["active"] == 0
    table.run({"cmd": "income", "player": "Ann"})
    table.end_turn()
    assert table.state["phase"] == "over"


def test_only_the_active_player_triggers_the_end(table):
    """"If a player reaches 40 points during someone else's turn, the end of the game is not
    triggered! It is triggered at the end of that player's next turn\""""
    table.set("Bob", points=40)
    farm(table, "Ann")
    assert table.state["end"]["triggered_by"] is None
    farm(table, "Bob")
    assert table.state["end"]["triggered_by"] == 1


def test_final_scoring_when_over(table):
    table.set("Ann", points=41)
    farm(table, "Ann")
    farm(table, "Bob")
    assert table.state["phase"] == "over"
    sheet = final_score(table.state, table.catalogue)
    assert sheet.winners == ("Ann",)
    with pytest.raises(Refused, match="game is over"):
        table.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L2-transport"})


def test_extra_turn_from_sector_323(table):
    """323: "When built, immediately take an additional turn before the next player's turn.\""""
    table.put_sector("Ann", 123)
    table.put_sector("Ann", 223)
    table.state["display"].append(323)
    table.set("Ann", metal=20)
    table.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-construction",
               "sector": 323})
    table.end_turn()
    assert table.state["turn"]["active"] == 0
    farm(table, "Ann")
    assert table.state["turn"]["active"] == 1
    assert table.player("Ann")["sectors"][-1]["number"] == 323


def test_extra_turn_of_208_costs_three_gems(table):
    """208: "After completing an action with a Diplomacy ship, you may pay 3 GEMs to take an
    additional turn before the next player takes their turn.\""""
    table.put_sector("Ann", 111)
    table.put_sector("Ann", 208, ["teal"])  # 208 is teal; the quarter is occupied
    table.set("Ann", gems=10)
    table.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-diplomacy",
               "tracks": ["transport"], "use": ["208"]})
    assert table.player("Ann")["gems"] == 10 - 3 - 1 - 3
    table.end_turn()
    assert table.state["turn"]["active"] == 0


# -- the log -----------------------------------------------------------------------------------


def test_undo_restores_exactly_and_redo_reapplies(table):
    before = copy.deepcopy(table.state)
    table.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L3-dismantle",
               "dismantle": "Ann:L1-transport"})
    after = copy.deepcopy(table.state)
    table.run({"cmd": "undo"})
    assert table.state == before
    table.run({"cmd": "redo"})
    assert table.state == after


def test_a_new_command_clears_redo(table):
    farm(table, "Ann")
    table.run({"cmd": "undo"})
    table.run({"cmd": "undo"})
    table.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L2-transport",
               "transactions": [{"type": "buy", "gain": "food"}]})
    with pytest.raises(Refused, match="nothing to redo"):
        table.run({"cmd": "redo"})


def test_refused_command_changes_nothing(table):
    before = copy.deepcopy(table.state)
    with pytest.raises(Refused):
        table.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-transport",
                   "transactions": [{"type": "buy", "gain": "food"}] * 3})  # 9 GEMs + 2
    assert table.state == before


def test_override_applies_and_records(table):
    """"a rule check that says "no" gives its reason and an override" (DESIGN.md)."""
    table.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-transport",
               "transactions": [{"type": "buy", "gain": "food"}] * 3,
               "override": "we forgot Ann's income"})
    assert table.player("Ann")["gems"] < 0
    note = table.state["notes"][-1]
    assert note["override"] == "we forgot Ann's income"
    assert any("costs 3 GEMs" in say(rule) for rule in note["rules"])


def test_adjustment_needs_a_note(table):
    with pytest.raises(Refused, match="note"):
        table.run({"cmd": "adjust", "who": "Ann", "counter": "gems", "delta": 2})
    table.run({"cmd": "adjust", "who": "Ann", "counter": "gems", "delta": 2,
               "note": "found two GEMs under the board"})
    assert table.player("Ann")["gems"] == 10


def test_unknown_command(table):
    with pytest.raises(Refused, match="unknown command"):
        table.run({"cmd": "fly"})
